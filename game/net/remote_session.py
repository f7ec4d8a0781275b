"""The game on a server, behind the surface the window drives a `Session` through.

Owns: `RemoteSession`: what `game.window.app.Game` reads and calls on a session (`apply` events,
`tick` with its `TickChanges`, the local player, the hotbar, toggles, mobs' and others' views, `save`,
`close`, `report`), made from a server's messages instead of the rules:
- the local player is the client's prediction (`game.net.prediction.Prediction`): each `tick` steps it
  with the tick's events, which go to the server stamped with the server tick they are predicted
  for (kept `lead_ticks` ahead of the latest server tick heard: a tick is held when the client runs
  ahead of that, and empty ticks are predicted when it falls behind);
- the world drawn is a mirror: a `game.world.World` in a temporary folder on the server's seed (so
  columns beyond the server's range are drawn from the seed), brought to the server's blocks for
  every column the server sent (`ClientWorld`) once the window has it loaded, and for every block
  change after; its rules never run (no world tick: the server's fluids and sand come as changes);
  a column the server sends as its seed's is taken from the mirror's own generation once the mirror
  holds it (checked against the server's checksum), never generated a second time on this thread,
  and the mirror is asked for the columns nearest the player as soon as its place is known
  (`prefetch`), so its worker starts while the window builds the game;
- other players, mobs, projectiles and falling blocks (`RemoteBodies`, `RemotePlayer`) are drawn
  blended between the last two states the server sent (10 Hz), by the wall clock;
- chat lines said go to the server as `Say`; its `Chat` comes back as the tick's notices;
- a local part of each input (the hotbar's slot, the HUD and overlay toggles, F2, the arm's swing)
  is applied here, as `Session.apply` does for its player.
`join` connects and waits for the server's first state of the player (`JoinError` with the
reason otherwise); `join_times` keeps the join's milestones for the report. `poll()` takes the messages received so far without stepping (the window calls it every frame,
also while loading); `lost` says why the connection ended, once it has.
Does not own: the socket (`game.net.link`), the wire (`game.net.protocol`), the client's copy of the
world and its prediction (`game.net.client`, `game.net.prediction`), drawing (`game.window`).
Never imports Ursina or Panda3D.

Not shown: the server's digging cracks (not on the wire), the player's saved hotbar (the server
keeps it; the window shows the default hotbar and the choices made since joining), other players'
look and held block (not on the wire: a body faces the way it moves).
"""

from __future__ import annotations

import dataclasses
import math
import shutil
import tempfile
import time
from collections import deque
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType

import numpy as np

from physics import AABB

from ..rules.clock import TICK_SECONDS
from ..rules.controls import DEFAULT_BINDINGS
from ..rules.falling_blocks import FallingBlockView
from ..rules.inventory import put_in_slot
from ..rules.mobs import MobView
from ..rules.player import Player
from ..rules.projectiles import ProjectileView
from ..rules.replay import (Chat, Click, Event, KeyDown, PutInSlot, SetDayTime, SetPeaceful)
from ..rules.player_actions import CHAT_NOTICE, MAX_PENDING_BROKEN, BrokenBlock
from ..rules.sounds import SoundEvent
from ..rules.tick_changes import TickChanges, TickRecorder
from ..world import World
from ..world.blocks import AIR, block_id, block_name
from ..world.coords import CHUNK_SIZE
from ..world.generation import DEFAULT_WORKERS
from .client import INPUT_LEAD_TICKS, ClientWorld, ServerRefused
from .column_wire import column_ids_of
from .hub import BODY_UPDATE_TICKS
from .link import Link
from .prediction import Prediction
from .protocol import (Ack, AckDelta, Chat as ChatMessage, ColumnData, ForgetColumn, Input, Message, ProtocolError,
                       Say, TickUpdate)

BODY_BLEND_SECONDS = BODY_UPDATE_TICKS * TICK_SECONDS
"""[s] Other bodies are drawn this long behind the latest state received, blended from the one
before: the server sends them every BODY_UPDATE_TICKS ticks."""
CATCH_UP_SLACK_TICKS = 2
"""[ticks] The prediction may fall this far behind `lead_ticks` after the server's latest tick before
ticks with no new input are predicted up to the lead (an input stamped later would reach the
server late; the keys held stay held through them, as on the server)."""
HOLD_SLACK_TICKS = 6
"""[ticks] The prediction may run this far beyond `lead_ticks` after the server's latest tick before
a tick is held (the window's clock ahead of the server's, or the server silent): an input stamped
too far ahead is refused by the server (`ServerLimits.max_ahead_ticks`, 40)."""
FIRST_ACK_TIMEOUT_S = 15.0
"""[s] Longest wait after the handshake for the server's first state of the player."""
POLL_SLEEP_S = 0.005
"""[s] Between looks for the first state while connecting."""
MIRROR_WORKERS = DEFAULT_WORKERS
"""[processes] Generation workers of the mirror world (its terrain from the seed), as a local world's."""
LIMB_PHASE_PER_BLOCK = 2.0
LIMB_SIZE_PER_SPEED = 4.0
"""A drawn body's walk cycle, as Beta's RenderLiving: the phase moves with the distance walked, the
swing grows with the speed [blocks/tick] (to 1 at 0.25 blocks a tick)."""
EDITED_NOTICE = "the server sets the time of day and damage"
PREFETCH_RADIUS_COLUMNS = 3
"""[columns] The columns this close to the player's (Euclidean, nearest first: 29) are asked of the
mirror world as soon as the server's first state says where the player is, so its generation worker
starts (~0.3 s for a new process) and works while the window builds the game; all of them lie in
the loading screen's spawn area, which asks for them anyway."""


@dataclasses.dataclass(frozen=True, slots=True)
class _Seen:
    """A body's latest state from the server and the one before (wall-clock time of arrival)."""

    kind: str
    before: tuple[float, ...]
    box: tuple[float, ...]
    velocity: tuple[float, float, float]
    arrived: float
    yaw: float
    walked: float
    """[blocks] Horizontal distance the body has moved since it appeared (its walk cycle)."""
    block: int = 0


def _blend(before, after, alpha: float) -> tuple[float, ...]:
    return tuple(a + (b - a) * alpha for a, b in zip(before, after))


class RemoteBodies:
    """The server's bodies of one kind as drawn (see the module docstring): `views(alpha)` is the
    frame's views (alpha is the window's tick fraction, unused: these blend by the wall clock)."""

    def __init__(self, kind: str, clock: Callable[[], float]) -> None:
        self.kind = kind
        self._clock = clock
        self.seen: dict[str, _Seen] = {}
        self.contacts: tuple = ()

    def __len__(self) -> int:
        return len(self.seen)

    @property
    def bodies(self) -> list:
        """The latest boxes as `AABB`s (the F3 overlay draws them)."""
        return [_BoxOnly(AABB(*seen.box)) for seen in self.seen.values()]

    def fraction(self, seen: _Seen) -> float:
        return min(1.0, max(0.0, (self._clock() - seen.arrived) / BODY_BLEND_SECONDS))

    def box(self, seen: _Seen) -> AABB:
        return AABB(*_blend(seen.before, seen.box, self.fraction(seen)))

    def views(self, alpha: float = 1.0) -> list:
        if self.kind == "item":  # an item's stack is not on the wire (a served game is creative): none drawn
            return []
        views = []
        for key, seen in self.seen.items():
            number = int(key.rpartition(":")[2]) if key.rpartition(":")[2].isdigit() else abs(hash(key))
            if self.kind == "mob":
                views.append(MobView(number, self.box(seen), seen.yaw))
            elif self.kind == "projectile":
                views.append(ProjectileView(number, self.box(seen)))
            else:
                views.append(FallingBlockView(number, seen.block, self.box(seen)))
        return views


@dataclasses.dataclass(frozen=True, slots=True)
class _BoxOnly:
    box: AABB


@dataclasses.dataclass(frozen=True, slots=True)
class _Look:
    yaw: float
    pitch: float


class _Motion:
    """A remote player's walk cycle as `ViewMotion` gives it to the window (`limbs`, `shown`)."""

    def __init__(self, phase: float, size: float) -> None:
        self._phase, self._size = phase, size
        self.shown = None

    def limbs(self, alpha: float = 1.0) -> tuple[float, float]:
        return self._phase, self._size


class RemotePlayer:
    """Another player as the window's `other_player_poses` reads a `Player`: `view(alpha).box`,
    `input.yaw` and `.pitch`, `view_motion.limbs(alpha)` and `.shown`."""

    def __init__(self, name: str, bodies: RemoteBodies, seen: _Seen) -> None:
        self.name = name
        self._bodies, self._seen = bodies, seen
        self.input = _Look(seen.yaw, 0.0)
        speed = math.hypot(seen.velocity[0], seen.velocity[2])
        fraction = bodies.fraction(seen)
        self.view_motion = _Motion(seen.walked * LIMB_PHASE_PER_BLOCK + fraction,
                                   min(1.0, speed * LIMB_SIZE_PER_SPEED))

    def view(self, alpha: float = 1.0) -> _BoxOnly:
        return _BoxOnly(self._bodies.box(self._seen))


class JoinError(ConnectionError):
    """A server could not be joined; the message says why, for the player."""


class RemoteSession:
    """A game on a server with a `Session`'s surface for the window (see the module docstring).
    Make one with `RemoteSession.connect`."""

    def __init__(self, link: Link, *, lead_ticks: int = INPUT_LEAD_TICKS, workers: int = MIRROR_WORKERS,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        welcome = link.welcome
        self.link = link
        self.address = ""
        self.lead_ticks = lead_ticks
        self.client = ClientWorld(welcome)
        self.prediction = Prediction(welcome)
        self.local_name = welcome.name
        self.bindings = DEFAULT_BINDINGS
        self.saved_player_problem = None
        self.tick_seconds = 0.0
        self.flying_allowed = welcome.flying_allowed
        self.connect_started_epoch_s: float | None = None
        """[s since the epoch] When `connect` began opening the connection (None when made otherwise)."""
        self.connect_started_cpu_s: float | None = None
        """[s] This process's CPU time (every thread) when `connect` began (None when made otherwise)."""
        self.join_times: dict[str, float] = {}
        """[s since the epoch] The join's milestones as they happen (the report's `join_times`):
        'connect_started', 'handshake_done' (the server's Welcome), 'mirror_created' (the mirror world
        made), 'first_state' (the server's first state of the player), 'last_column' (the latest column
        taken in)."""
        self.column_seconds = 0.0
        """[s] Main-thread time spent taking the server's columns in (`_receive`, `_take_seed`), since joining."""
        self._clock = clock
        self._folder = Path(tempfile.mkdtemp(prefix="boxel-remote-"))
        try:
            self.world = World.create(self._folder / "mirror.boxel", welcome.seed, workers=workers)
        except BaseException:
            shutil.rmtree(self._folder, ignore_errors=True)
            raise
        self.mobs = RemoteBodies("mob", clock)
        self.projectiles = RemoteBodies("projectile", clock)
        self.falling = RemoteBodies("falling_block", clock)
        self.dropped = RemoteBodies("item", clock)
        """Items lying in the server's world (drawn as the session's `dropped`)."""
        self._players = RemoteBodies("player", clock)
        self._kinds = {"mob": self.mobs, "projectile": self.projectiles, "falling_block": self.falling,
                       "item": self.dropped, "player": self._players}
        self.survival = None
        """A served game is creative: the protocol carries no items or inventories (`docs/PROTOCOL.md`)."""
        self.arrows = RemoteBodies("arrow", clock)
        """Always empty: a served game is creative, and only a survival world's skeletons shoot arrows."""
        self._ticks_run = 0
        self._pending: list[Event] = []
        self._recorder = TickRecorder()
        self._sounds: list[SoundEvent] = []
        self._broken: deque[BrokenBlock] = deque(maxlen=MAX_PENDING_BROKEN)
        self._unsynced: set[tuple[int, int]] = set()
        """Columns the server sent whose blocks the mirror world does not hold yet (not loaded there)."""
        self._synced: set[tuple[int, int]] = set()
        self._seeds: dict[tuple[int, int], ColumnData] = {}
        """Columns the server sent as its seed's ("seed" form) not taken in yet: each is taken from the
        mirror world once that holds it as generated (its worker made it: no second generation on this
        thread, ~11 ms a column), or generated here when something needs it first (`_take_seed`)."""
        self.notices: list[str] = []
        self.lost: str | None = None
        """Why the connection ended (the server's reason), once it has; None while it is up."""
        self.on_lost: Callable[[str], None] | None = None
        """Called once with the reason when the connection ends (the window goes back to its title)."""
        self._closed = False

    @classmethod
    def connect(cls, host: str, port: int, name: str, *, timeout: float = FIRST_ACK_TIMEOUT_S,
                **options) -> RemoteSession:
        """Join the server at `host`:`port` as `name` and wait for its first state of the player.
        ServerRefused (the server's reason), OSError, TimeoutError, ProtocolError otherwise."""
        connecting_at, connecting_cpu = time.time(), time.process_time()
        link = Link.open(host, port, name)
        handshake_done = time.time()
        try:
            session = cls(link, **options)
        except BaseException:
            link.close()
            raise
        session.address = f"{host}:{port}"
        session.connect_started_epoch_s = connecting_at
        session.connect_started_cpu_s = connecting_cpu
        session.join_times.update(connect_started=connecting_at, handshake_done=handshake_done,
                                  mirror_created=time.time())
        try:
            deadline = time.monotonic() + timeout
            while not session.prediction.started:
                session.poll()
                if session.lost is not None:
                    raise ServerRefused(session.lost)
                if time.monotonic() > deadline:
                    raise TimeoutError(f"the server {host}:{port} sent no state of the player in {timeout:g} s")
                time.sleep(POLL_SLEEP_S)
        except BaseException:
            session.close()
            raise
        session.join_times["first_state"] = time.time()
        session.prefetch()
        return session

    def prefetch(self) -> None:
        """Ask the mirror world for the columns nearest the player (PREFETCH_RADIUS_COLUMNS), nearest first."""
        feet = self.player.body.feet
        cx, cz = int(feet[0] // CHUNK_SIZE), int(feet[2] // CHUNK_SIZE)
        radius = PREFETCH_RADIUS_COLUMNS
        offsets = sorted(((dx, dz) for dx in range(-radius, radius + 1) for dz in range(-radius, radius + 1)
                          if dx * dx + dz * dz <= radius * radius), key=lambda o: (o[0] * o[0] + o[1] * o[1], o))
        for dx, dz in offsets:
            self.world.request(cx + dx, cz + dz)

    @classmethod
    def join(cls, host: str, port: int, name: str, **options) -> RemoteSession:
        """`connect`, its failures as one `JoinError` whose message the player reads (the server's
        reason for a refusal, or why the server could not be reached)."""
        try:
            return cls.connect(host, port, name, **options)
        except ServerRefused as refusal:
            raise JoinError(f"the server {host}:{port} said: {refusal}") from None
        except (OSError, TimeoutError, ProtocolError) as error:
            raise JoinError(f"cannot join {host}:{port}: {error or type(error).__name__}") from None

    # --- what the window reads -------------------------------------------------------------------

    @property
    def player(self) -> Player:
        """The local player: the prediction's (None before the server's first state)."""
        return self.prediction.player

    @property
    def players(self) -> Mapping[str, object]:
        """The local player and every other player seen (name -> `Player` or `RemotePlayer`)."""
        others = {key.removeprefix("player:"): RemotePlayer(key.removeprefix("player:"), self._players, seen)
                  for key, seen in self._players.seen.items()}
        return MappingProxyType({self.local_name: self.player, **others})

    @property
    def ticks_run(self) -> int:
        """The window's ticks run since joining (the server's tick numbers are the prediction's)."""
        return self._ticks_run

    @property
    def hotbar(self):
        return self.player.hotbar

    @property
    def toggles(self):
        return self.player.toggles

    @property
    def view_motion(self):
        return self.player.view_motion

    @property
    def inventory_open(self) -> bool:
        return self.player.inventory_open

    @property
    def damage_enabled(self) -> bool:
        return self.player.damage_enabled

    @property
    def day_time(self) -> int:
        return self.client.day_time

    @property
    def mining_progress(self):
        """None: the server digs, and its cracks are not on the wire."""
        return None

    @property
    def corrections(self) -> int:
        return self.prediction.corrections

    def bodies(self) -> list:
        return [self.player.body, *(self._players.bodies), *self.mobs.bodies]

    def swing_progress(self, alpha: float) -> float:
        return self.player.mining.swing_progress(alpha)

    def take_broken_blocks(self) -> list[BrokenBlock]:
        taken = list(self._broken)
        self._broken.clear()
        return taken

    def take_screenshot_requests(self) -> int:
        count, self.player.screenshot_requests = self.player.screenshot_requests, 0
        return count

    def notify(self, message: str, player: str | None = None) -> None:
        """Tell the local player `message` (in the next tick's notices)."""
        self._recorder.notice(message, player)
        self.notices.append(message)

    # --- events and the tick ----------------------------------------------------------------------

    def join_for(self, event: Event) -> None:
        """Nobody joins here: the server's players join by connecting."""
        return None

    def apply(self, event: Event, player: str | None = None) -> None:
        """Keep `event` for the next tick (`tick` stamps it with the server tick it is predicted for)."""
        self._pending.append(event)

    def poll(self) -> None:
        """Take every message received so far into the copy, the prediction and the mirror world;
        when the connection has ended, note why (`lost`, `on_lost`)."""
        for message in self.link.take():
            self._receive(message)
        self._take_generated_seeds()
        if self.lost is None and self.link.lost is not None:
            self.lost = self.link.lost
            self.notices.append(f"disconnected: {self.lost}")
            if self.on_lost is not None:
                self.on_lost(self.lost)

    def tick(self) -> TickChanges:
        """One window tick: the messages so far, then (unless held: see the module docstring) the
        prediction's next tick with the events applied since the last, sent to the server."""
        started = time.perf_counter()
        self.poll()
        prediction = self.prediction
        if self.lost is None:
            target = self.client.tick + self.lead_ticks
            if prediction.next_tick < target - CATCH_UP_SLACK_TICKS:
                while prediction.next_tick < target:
                    self._step([])
            if prediction.next_tick <= target + HOLD_SLACK_TICKS:
                events = [dataclasses.replace(event, tick=prediction.next_tick) for event in self._pending]
                self._pending.clear()
                self._step(events)
                self._ticks_run += 1
        else:
            self._pending.clear()
            self._ticks_run += 1  # nothing left to wait for: a scripted run ends
        self._sync_mirror()
        self.tick_seconds = time.perf_counter() - started
        sounds, self._sounds = tuple(self._sounds), []
        return self._recorder.record(tick=self._ticks_run - 1, day_time=self.day_time,
                                     world=self.world.take_changes(), bodies={}, sounds=sounds)

    def _step(self, events: list[Event]) -> None:
        """Predict one tick with `events`: the local part of each, each sent, then the step."""
        player, link = self.player, self.link
        moving = []
        for event in events:
            if isinstance(event, Chat):
                link.send(Say(event.text))
                continue
            if isinstance(event, (SetDayTime, SetPeaceful)):
                self.notify(EDITED_NOTICE)
                continue
            self._local_part(event)
            link.send(Input(event))
            moving.append(event)
        self.prediction.step(moving)
        player.mining.tick(None, 0.0)
        player.view_motion = player.view_motion.advanced(
            player.previous, player.body, sneaking=player.input.intent().sneak and not player.flying,
            dead=player.dead, held=player.hotbar.selected_block)

    def _local_part(self, event: Event) -> None:
        """What `Session.apply` does for the player's own screen: the hotbar's slot and the inventory's
        choices, the HUD, overlay and camera toggles, F2, the arm's swing."""
        player, bindings = self.player, self.bindings
        if player.dead:
            return
        if isinstance(event, PutInSlot):
            if player.inventory_open:
                put_in_slot(player.hotbar, event.slot, event.block)
            return
        if isinstance(event, Click):
            if not player.inventory_open:
                player.mining.swing()
            return
        if not isinstance(event, KeyDown):
            return
        key, toggles = event.key, player.toggles
        screen_keys = bindings.toggle_hud | bindings.screenshot | bindings.debug_overlay | bindings.overlay_boxes
        if player.inventory_open and bindings.slot_of(key) is None and key not in screen_keys:
            return
        slot = bindings.slot_of(key)
        if slot is not None:
            player.hotbar.select(slot)
        elif key in bindings.debug_overlay:
            shown = not toggles.overlay_panel
            player.toggles = dataclasses.replace(toggles, overlay_panel=shown, overlay_boxes=shown)
        elif key in bindings.overlay_boxes:
            player.toggles = dataclasses.replace(toggles, overlay_boxes=not toggles.overlay_boxes)
        elif key in bindings.toggle_hud:
            player.toggles = dataclasses.replace(toggles, hud_visible=not toggles.hud_visible)
        elif key in bindings.third_person:
            player.toggles = dataclasses.replace(toggles, third_person=not toggles.third_person)
        elif key in bindings.screenshot:
            player.screenshot_requests += 1

    # --- messages ----------------------------------------------------------------------------------

    def _receive(self, message: Message) -> None:
        if isinstance(message, ColumnData):
            started = time.perf_counter()
            self._take(message)
            self.column_seconds += time.perf_counter() - started
            self.join_times["last_column"] = time.time()
        else:
            self._take(message)

    def _take(self, message: Message) -> None:
        client, prediction = self.client, self.prediction
        if isinstance(message, ColumnData) and message.form == "seed":
            self._defer_seed(message)
            return
        try:
            if isinstance(message, AckDelta):
                message = client.full_ack(message)
            if isinstance(message, TickUpdate):
                self._take_update(message)
                return
            client.apply(message)
        except ProtocolError as error:
            self.link.lose(f"the server sent a bad message: {error}")
            return
        if isinstance(message, ColumnData):
            key = (message.cx, message.cz)
            prediction.world.set_column(message.cx, message.cz, client.columns[key])
            self._unsynced.add(key)
            self._synced.discard(key)
        elif isinstance(message, ForgetColumn):
            key = (message.cx, message.cz)
            prediction.world.forget_column(message.cx, message.cz)
            self._seeds.pop(key, None)
            self._unsynced.discard(key)
            self._synced.discard(key)
        elif isinstance(message, Ack):
            before = None if self.player is None else self.player.vitals.health
            prediction.acknowledge(message)
            if before is not None:
                self.player.damage_taken = max(0, before - self.player.vitals.health)
        elif isinstance(message, ChatMessage):
            text = CHAT_NOTICE.format(name=message.sender, text=message.text) if message.sender else message.text
            self.notify(text)

    def _defer_seed(self, message: ColumnData) -> None:
        """A column the server sent as its seed's: held as the seed's terrain from now on (the
        prediction's world generates what physics reads of it), its ids taken in later (`_seeds`)."""
        key = (message.cx, message.cz)
        self._seeds[key] = message
        self.client.columns.pop(key, None)
        self.prediction.world.forget_column(*key)
        self._unsynced.discard(key)
        self._synced.discard(key)

    def _take_generated_seeds(self) -> None:
        """Take in every waiting seed column the mirror world now holds as generated."""
        if self._closed or not self._seeds:
            return
        world = self.world
        for key in [key for key in self._seeds if world.is_loaded(*key) and world.is_as_generated(*key)]:
            self._take_seed(key)

    def _take_seed(self, key: tuple[int, int]) -> None:
        """Take in waiting seed column `key`: the mirror world's ids where it holds the column as
        generated, else generated here; checked against the server's checksum either way (a
        mismatch loses the connection, as a bad message does)."""
        started = time.perf_counter()
        message = self._seeds.pop(key)
        client, world = self.client, self.world
        from_mirror = not self._closed and world.is_loaded(*key) and world.is_as_generated(*key)
        try:
            ids = column_ids_of(message, (lambda cx, cz: world.column(cx, cz).copy()) if from_mirror
                                else client.generated_column)
        except ProtocolError as error:
            self.link.lose(f"the server sent a bad message: {error}")
            return
        client.columns[key] = ids
        self.prediction.world.set_column(*key, ids)
        (self._synced if from_mirror else self._unsynced).add(key)
        self.column_seconds += time.perf_counter() - started

    def _take_seeds_of(self, cells) -> None:
        """Take in now the waiting seed columns holding any of `cells` ((x, y, z) blocks)."""
        for x, _, z in cells:
            key = (x // CHUNK_SIZE, z // CHUNK_SIZE)
            if key in self._seeds:
                self._take_seed(key)

    def _take_update(self, update: TickUpdate) -> None:
        """A tick's update: the blocks (the mirror's too, where it holds the column; broken blocks
        noted for the particles), the bodies (blended from where they were drawn), the sounds."""
        client, prediction = self.client, self.prediction
        if self._seeds:  # its edits go into the columns' ids
            self._take_seeds_of((edit.x, edit.y, edit.z) for edit in update.blocks)
            self._take_seeds_of(tuple(math.floor(v / 32) for v in move.at) for move in update.bodies
                                if move.change == "appeared" and move.kind == "falling_block")
        for edit in update.blocks:
            old = client.block(edit.x, edit.y, edit.z)
            if old is not None and old != AIR and edit.block == AIR:
                self._broken.append(BrokenBlock((edit.x, edit.y, edit.z), block_name(old)))
        keys_before = set(client.bodies)
        falling_cells = {}
        for move in update.bodies:
            if move.change == "appeared" and move.kind == "falling_block":
                x, y, z = (math.floor(v / 32) for v in move.at)
                falling_cells[move.key] = client.block(x, y, z)
        client.apply(update)
        for edit in update.blocks:
            prediction.world.set_id(edit.x, edit.y, edit.z, edit.block)
            key = (edit.x // CHUNK_SIZE, edit.z // CHUNK_SIZE)
            if key in self._synced and self.world.is_loaded(*key):
                self.world.set_id(edit.x, edit.y, edit.z, edit.block)
            elif key in client.columns:
                self._unsynced.add(key)
        self._take_bodies(keys_before, falling_cells)
        for sound in update.sounds:
            self._sounds.append(SoundEvent(sound.name, sound.position, sound.volume, sound.pitch))

    def _take_bodies(self, keys_before: set[str], falling_cells: dict) -> None:
        now = self._clock()
        for key in keys_before - set(self.client.bodies):
            for bodies in self._kinds.values():
                bodies.seen.pop(key, None)
        for key, (kind, box, velocity) in self.client.bodies.items():
            if key == f"player:{self.local_name}":
                continue
            bodies = self._kinds[kind]
            seen = bodies.seen.get(key)
            box = tuple(box)
            if seen is None:
                block = falling_cells.get(key) or block_id("sand")
                bodies.seen[key] = _Seen(kind, box, box, tuple(velocity), now, 0.0, 0.0, block)
            elif seen.box != box:
                drawn = tuple(bodies.box(seen))
                dx, dz = box[0] - seen.box[0], box[2] - seen.box[2]
                yaw = math.degrees(math.atan2(-dx, dz)) % 360.0 if dx * dx + dz * dz > 1e-6 else seen.yaw
                bodies.seen[key] = dataclasses.replace(seen, before=drawn, box=box, velocity=tuple(velocity),
                                                       arrived=now, yaw=yaw, walked=seen.walked + math.hypot(dx, dz))

    def _sync_mirror(self) -> None:
        """Bring the mirror world's loaded columns to the server's blocks (each differing cell set)."""
        client, world = self.client, self.world
        for key in list(self._synced):
            if not world.is_loaded(*key):
                self._synced.discard(key)
                self._unsynced.add(key)
        for key in [key for key in self._unsynced if world.is_loaded(*key)]:
            self._unsynced.discard(key)
            ids = client.columns.get(key)
            if ids is None:
                continue
            cx, cz = key
            for lx, y, lz in np.argwhere(world.column(cx, cz) != ids).tolist():
                world.set_id(cx * CHUNK_SIZE + lx, y, cz * CHUNK_SIZE + lz, int(ids[lx, y, lz]))
            self._synced.add(key)

    # --- saving, closing, the report ---------------------------------------------------------------

    def save(self) -> None:
        """The server saves the world; the mirror's file (temporary) keeps the columns the window unloads."""
        if not self._closed:
            self.world.save()

    def close(self) -> None:
        """Leave the server and remove the mirror world (a second call does nothing)."""
        if self._closed:
            return
        self._closed = True
        try:
            self.link.close()
        finally:
            try:
                self.world.close()
            finally:
                shutil.rmtree(self._folder, ignore_errors=True)

    def report(self) -> dict:
        """What a connected window's run reports: the player as the server last sent it and as
        predicted, every other player seen, the edited blocks the client holds, the corrections."""
        for key in list(self._seeds):
            self._take_seed(key)  # the columns held, every one as the server's ids
        client, state, player = self.client, self.client.state, self.player
        body = player.body
        return {
            "name": self.local_name,
            "server": self.address,
            "connect_started_epoch_s": self.connect_started_epoch_s,
            "connect_started_cpu_s": self.connect_started_cpu_s,
            "join_times": dict(self.join_times),
            "column_seconds": self.column_seconds,
            "ticks_run": self._ticks_run,
            "server_tick": client.tick,
            "day_time": client.day_time,
            "feet": list(state.feet) if state is not None else list(body.feet),
            "predicted_feet": list(body.feet),
            "yaw": player.input.yaw,
            "pitch": player.input.pitch,
            "flying": player.flying,
            "health": player.vitals.health,
            "dead": player.dead,
            "hotbar": player.hotbar.to_state(),
            "input_tick": client.input_tick,
            "corrections": self.prediction.corrections,
            "players": {name: {"feet": list(feet)} for name, feet in sorted(client.players_seen.items())},
            "bodies_drawn": {kind: len(bodies) for kind, bodies in self._kinds.items()},
            "edited_blocks": client.edited_blocks(),
            "columns": len(client.columns),
            "chat": [list(line) for line in client.chat],
            "notices": list(self.notices),
            "lost": self.lost,
            "bytes_received": self.link.bytes_received,
            "bytes_sent": self.link.bytes_sent,
            "seed": client.seed,
            "saved_player_problem": None,
        }
