"""One running game with no window: the rules every front end drives the same way.

Owns: `Session`, which holds one game in play: the world (any `physics.CollisionWorld` with the
block edits, columns and entity lists that building and mobs use: `game.world.World`, or the
lab's `game.lab.Arena`), the player, the mobs, the projectiles, the hotbar, the tick counter,
the state of the HUD and overlay toggles, the sounds it makes (`game.sounds`; the window takes and
plays them), and the input rules (what each replay event does);
the tick order; saving the player, mobs and edits into the world; the run report.
Pure: no Ursina, no clock but a timer for the F3 panel's tick time. The window (`game.app`),
the headless runner (`game.headless`), the lab and the tests all drive a Session the same way:

    session.apply(event)   # each event due before the tick (key_down, key_up, look, click)
    session.tick()         # one 20 Hz tick

Does not own: turning keys and the mouse into events (`game.controls.LiveInput`), when ticks
run (`game.clock`, driven by the front end), drawing, or anything only a window has (screenshots
are counted as requests for the window to take; streaming and frame times are the window's).

The tick order is written out in docs/ARCHITECTURE.md ("One tick"): events, the player's step,
the mobs, the projectiles, autosave. `apply` and `tick` below run it in that order.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import physics
from physics.materials import Material

from .clock import TICKS_PER_SECOND
from .controls import DEFAULT_BINDINGS, KeyBindings
from .hotbar import Hotbar, holdable
from .inventory import CATALOGUE, put_in_slot
from .mobs import MobManager
from .player import Player, PlayerStateError, saved_player, section_of
from .falling_blocks import FallingBlocks
from .projectiles import Knock, Projectiles
from .mining import Mining, MiningProgress, dig_strength
from .replay import DEGREES_PER_TURN, Click, Event, KeyDown, KeyUp, Look, PutInSlot, Release, ReplayCursor, wrap_yaw
from .saved_values import body_fields
from . import health
from .sounds import BREAK, PLACE, SoundEvent, SoundRules
from .world import WorldFileError
from .world.coords import CHUNK_SIZE as COLUMN_SIZE
from .world.blocks import block_id
from .world.world import DAY_TICKS
from .targeting import MobTarget, Target, break_block, find_mob, find_target, place_against
from .view_bobbing import ViewMotion

AUTOSAVE_TICKS = 60 * TICKS_PER_SECOND
NOTICE_SAVE_FAILED = "Could not save the world ({error}). Play goes on; the game will try again."
NOTICE_DAMAGED_COLUMN = ("The saved column at x {x0}..{x1}, z {z0}..{z1} is damaged ({part}: {message}); "
                         "it is shown as generated from the seed, and its saved bytes are kept.")
"""[ticks] Save every minute of play. A save writes only the columns edited since the last one and
the player, in one SQLite transaction: measured 0.5 ms with nothing edited, 1.0 ms for 10 edited
columns, 3.7 ms for 50, so it fits in a tick and needs no thread (the World is single-threaded)."""
EVENT_TYPES = (KeyDown, KeyUp, Look, Click, Release, PutInSlot)
MAX_PENDING_SOUNDS = 256
"""[sounds] The sounds kept for a front end to take: the window takes them after every tick (a tick
makes a few); a headless run never does, so only the latest this many are kept."""
MAX_PENDING_BROKEN = 64
"""[blocks] The broken blocks kept for a front end's particles (`take_broken_blocks`): a tick breaks
at most a few; a headless run never takes them, so only the latest this many are kept."""


@dataclass(frozen=True, slots=True)
class BrokenBlock:
    """A block the player broke: where, and what it was (the window's break particles show it)."""

    cell: tuple[int, int, int]
    block: str


@dataclass(frozen=True, slots=True)
class Toggles:
    """What the HUD and overlay keys have switched on (the window shows them; reports list them)."""

    hud_visible: bool = True
    """F1 hides the crosshair and hotbar."""
    overlay_panel: bool = False
    """F3's text panel."""
    overlay_boxes: bool = False
    """F3's (or B's) boxes in the world."""
    third_person: bool = False
    """F5: the camera behind the player (Beta's thirdPersonView), showing the player's own model."""

    @property
    def overlay(self) -> bool:
        """Anything of the F3 overlay is shown."""
        return self.overlay_panel or self.overlay_boxes


class Session:
    """One game in play; `apply` events, then `tick`."""

    def __init__(self, world, player: Player, hotbar: Hotbar | None = None, *,
                 bindings: KeyBindings = DEFAULT_BINDINGS, autosave: bool = True,
                 on_save: Callable[[], None] | None = None) -> None:
        if not isinstance(world, physics.CollisionWorld):
            raise TypeError(f"a session needs a world with collision_boxes(region), got {world!r}")
        self.world = world
        self.player = player
        self.hotbar = hotbar if hotbar is not None else Hotbar()
        self.bindings = bindings
        self.mobs = MobManager(world, world.seed)
        """Every mob; placing a block respects them, F3 draws them, the report lists them."""
        self.projectiles = Projectiles(world)
        self.falling = FallingBlocks(world)
        """Sand and gravel falling as bodies (their blocks land where they come to rest)."""
        self.toggles = Toggles()
        self.view_motion = ViewMotion()
        """Beta's per-tick drawing state of the player: view bobbing, the held block's equip dip, the
        limbs' walk cycle (`game.view_bobbing`); the window blends it between ticks."""
        self._inventory_open = False
        self._day_time = 0
        """The lab's time of day (its arena keeps none); a `World` keeps its own (`World.day_time`)."""
        self.autosave = autosave
        """Save every AUTOSAVE_TICKS ticks (the game does; a test may not want to write)."""
        self.on_save = on_save
        """Called after every save (the window's streamer notes that no column is unsaved)."""
        self.screenshot_requests = 0
        """F2 presses not yet taken by a window (`take_screenshot_requests`); a headless run ignores them."""
        self.edited_cells: set[tuple[int, int, int]] = set()
        """Every cell this session broke or placed a block in (the report lists what each holds now)."""
        self.sound_rules = SoundRules(world.seed)
        """When the game makes a sound, and which (`game.sounds`)."""
        self.sounds: deque[SoundEvent] = deque(maxlen=MAX_PENDING_SOUNDS)
        """The sounds made since a front end last took them (`take_sounds`), oldest first."""
        self.mining = Mining()
        """The attack button, the block being dug (Beta's break times) and the arm swing (`game.mining`)."""
        self.broken_blocks: deque[BrokenBlock] = deque(maxlen=MAX_PENDING_BROKEN)
        """The blocks broken since a front end last took them (`take_broken_blocks`), oldest first."""
        self.tick_seconds = 0.0
        """[s] Wall time of the last tick's simulation (the F3 panel shows it)."""
        self.notices: list[str] = []
        """Everything the player was told in this session, oldest first: damage found in the
        world file, a save that failed (`NOTICE_*`). The front ends show each once
        (`take_notices`); the report lists them all."""
        self._untold = 0  # notices[-_untold:] not taken yet
        self.saved_player_problem: str | None = None
        """Why the world's saved player could not be used, when `open` started a new player at the
        spawn instead (the front ends print it); None when it loaded or none was saved."""

    @classmethod
    def open(cls, world, **options) -> Session:
        """A session on `world` with the player (and hotbar) it saved, or a new player at its spawn.

        A saved player that cannot be used (a damaged or hostile state: `player.saved_player`
        refuses it naming the field) is not an error: the player starts at the spawn with the
        default hotbar, `saved_player_problem` says why, and the next save replaces that state.
        So a world whose saved player cannot load still opens, every time, instead of failing at
        every launch."""
        bindings = options.get("bindings", DEFAULT_BINDINGS)
        try:
            saved = saved_player(world.player_state)
            problem = None
        except PlayerStateError as error:
            saved, problem = None, f"{error}; the player starts at the spawn"
        hotbar = saved.hotbar if saved is not None else None
        session = cls(world, Player.spawned(world, saved, bindings=bindings), hotbar, **options)
        session.saved_player_problem = problem
        return session

    # --- reading ------------------------------------------------------------------------------

    @property
    def ticks_run(self) -> int:
        """Ticks simulated so far; also the number of the next tick."""
        return self.player.ticks_run

    def bodies(self) -> list[physics.Body]:
        """The player's body and every mob's (projectiles are too small to stand in anyone's way)."""
        return [self.player.body, *self.mobs.bodies]

    @property
    def damage_enabled(self) -> bool:
        """False: peaceful, nothing hurts the player (`game.health`); kept and saved with the player."""
        return self.player.damage_enabled

    @damage_enabled.setter
    def damage_enabled(self, enabled: bool) -> None:
        if not isinstance(enabled, bool):
            raise TypeError(f"damage_enabled is true or false, got {enabled!r}")
        self.player.damage_enabled = enabled

    @property
    def inventory_open(self) -> bool:
        """The creative inventory is open (the inventory key toggles it; a dead player's is closed).
        While it is open the player does not act (see `apply`) and the window shows
        `game.ui.inventory_screen` with the pointer free: no mouse look."""
        return self._inventory_open and not self.player.dead

    def target(self) -> Target | None:
        """The block the player looks at from the eye at the latest tick (building acts on it)."""
        player = self.player
        return find_target(self.world, player.eye, player.input.yaw, player.input.pitch)

    # --- events ---------------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Apply one input event before the next tick (the tick order's step 1)."""
        if not isinstance(event, EVENT_TYPES):
            raise TypeError(f"not an input event: {event!r}")
        if isinstance(event, Release):  # heard always (dead, a screen open), so no button stays down
            if event.button == "left":
                self.mining.release()
            return
        if isinstance(event, PutInSlot):
            if self.inventory_open:  # the screen's move; with the inventory closed there is no screen
                put_in_slot(self.hotbar, event.slot, event.block)
            return
        if self.player.dead:
            self._inventory_open = False  # a respawned player starts with it closed
            self.player.apply(event)  # dead: only key releases and the respawn key are heard
            return
        if self._inventory_open:
            self._apply_in_inventory(event)
            return
        self.player.apply(event)
        if isinstance(event, Click):
            self._build(event.button)
        elif isinstance(event, KeyDown):
            self._key_down(event.key)

    def _apply_in_inventory(self, event: Event) -> None:
        """An event while the creative inventory is open. The player does not act, as in Minecraft
        with a screen open: clicks belong to the screen (which sends `PutInSlot`), and of the key
        presses only the inventory key (closing it), the digits (choosing the slot) and the HUD,
        screenshot and overlay keys are heard; releases and looks are applied as ever."""
        if isinstance(event, KeyDown):
            key, bindings = event.key, self.bindings
            if key in bindings.inventory:
                self._inventory_open = False
            elif bindings.slot_of(key) is not None or key in (
                    bindings.toggle_hud | bindings.screenshot | bindings.debug_overlay | bindings.overlay_boxes):
                self._key_down(key)
        elif not isinstance(event, Click):
            self.player.apply(event)

    def _open_inventory(self) -> None:
        """Open the creative inventory, releasing every held key (Minecraft releases them when a
        screen opens), so the player stops walking and no key stays held behind the screen."""
        self._inventory_open = True
        for key in sorted(self.player.input.held):
            self.player.apply(KeyUp(self.ticks_run, key))

    def _key_down(self, key: str) -> None:
        bindings, toggles = self.bindings, self.toggles
        slot = bindings.slot_of(key)
        if slot is not None:
            self.hotbar.select(slot)
        elif key in bindings.inventory:
            self._open_inventory()
        elif key in bindings.debug_overlay:
            # F3 opens the whole overlay (panel and boxes) unless its panel is up, which it closes
            # with the boxes: after B alone, F3 adds the panel instead of hiding the boxes.
            shown = not toggles.overlay_panel
            self.toggles = replace(toggles, overlay_panel=shown, overlay_boxes=shown)
        elif key in bindings.overlay_boxes:
            self.toggles = replace(toggles, overlay_boxes=not toggles.overlay_boxes)
        elif key in bindings.toggle_hud:
            self.toggles = replace(toggles, hud_visible=not toggles.hud_visible)
        elif key in bindings.third_person:
            self.toggles = replace(toggles, third_person=not toggles.third_person)
        elif key in bindings.screenshot:
            self.screenshot_requests += 1
        elif key in bindings.spawn_mob:
            player = self.player
            facing_you = wrap_yaw(player.input.yaw + DEGREES_PER_TURN / 2)
            self.mobs.spawn_at_target(self.target(), facing_you, [player.body])
        elif key in bindings.throw:
            player = self.player
            self.projectiles.throw(player.eye, player.input.yaw, player.input.pitch)

    def _build(self, button: str) -> None:
        """A click: break (or start digging), place against or pick the block targeted from the eye
        at the latest tick. A mob in front of that block takes the click instead: a left click
        punches it (`_punch`), the other buttons do nothing (nothing is built through a mob).

        A left click swings the arm and presses the attack button: with damage on it starts digging
        the target (`game.mining`: Beta's break times, the block breaks in a later tick); with damage
        off (peaceful, as Minecraft's creative mode) it breaks the target at once."""
        target = self.target()
        player = self.player
        if button == "left":
            self.mining.swing()
        mob = self._mob_in_front(target)
        if self.damage_enabled and button == "left":
            self.mining.press(None if mob is not None or target is None else tuple(target.block))
        if mob is not None:
            if button == "left":
                self._punch(mob)
            return
        if target is None:
            return
        if button == "left":
            if not self.damage_enabled:
                self._break(target)
        elif button == "right":
            cell = place_against(self.world, target, self.hotbar.selected_block, self.bodies(), player.input.yaw)
            if cell is not None:
                self.mining.swing()
                self.edited_cells.add(tuple(cell))
                self.sounds.extend(self.sound_rules.block_edited(PLACE, self.world.get_block(*cell), cell))
        elif holdable(name := self.world.get_block(*target.block)):
            self.hotbar.pick(CATALOGUE.held_block(name))  # a stair of any facing: the stairs entry

    def _mob_in_front(self, target: Target | None) -> MobTarget | None:
        """The mob the look ray meets before `target` (the block targeted), None if none."""
        player = self.player
        mob = find_mob(player.eye, player.input.yaw, player.input.pitch, [body.box for body in self.mobs.bodies])
        return mob if mob is not None and (target is None or mob.distance < target.distance) else None

    def _break(self, target: Target) -> None:
        """Break the targeted block (not bedrock): its sound, the edit, the broken block for the window."""
        broken = self.world.get_block(*target.block)
        if break_block(self.world, target):
            cell = tuple(target.block)
            self.edited_cells.add(cell)
            self.sounds.extend(self.sound_rules.block_edited(BREAK, broken, cell))
            self.broken_blocks.append(BrokenBlock(cell, broken))

    def _dig(self) -> None:
        """The tick's digging (`game.mining`) while the attack button is held: the block targeted
        (none behind a mob), by its strength for the player now (in water, off the ground)."""
        mining, player = self.mining, self.player
        if not mining.held or not self.damage_enabled:  # peaceful breaks on the click itself
            mining.tick(None, 0.0)
            return
        target = self.target()
        if target is not None and self._mob_in_front(target) is not None:
            target = None
        strength = 0.0
        if target is not None:
            x, y, z = player.eye
            block = block_id(self.world.get_block(*target.block))
            strength = dig_strength(block, in_water=health.eye_fluid(self.world, x, y, z) == Material.WATER,
                                    on_ground=player.body.on_ground or player.flying)
        done = mining.tick(None if target is None else tuple(target.block), strength,
                           can_act=not player.dead and not self.inventory_open)
        if done.sound is not None:
            self.sounds.extend(self.sound_rules.digging(self.world.get_block(*done.sound), done.sound))
        if done.broken is not None:
            self._break(target)

    @property
    def mining_progress(self) -> MiningProgress | None:
        """The block being dug and its crack stage (Beta's int(damage x 10), 0..9) at the latest
        tick; None while no block is damaged (the window draws the cracks)."""
        return self.mining.progress

    def swing_progress(self, alpha: float) -> float:
        """The arm swing in [0, 1) between the last two ticks (alpha 0: the one before, 1: the
        latest), 0 when the arm is not swinging: Beta's `getSwingProgress` (`game.mining`). A swing
        starts on a left click, a placed block, and every tick of digging."""
        return self.mining.swing_progress(alpha)

    def take_broken_blocks(self) -> list[BrokenBlock]:
        """The blocks broken since the last call, oldest first (the window's break particles)."""
        taken = list(self.broken_blocks)
        self.broken_blocks.clear()
        return taken

    def _punch(self, mob: MobTarget) -> None:
        """The player hits mob `mob.index`: Beta's knock-back (`physics.knockback`) away from the
        player's feet, added to the mob's velocity as the change it makes."""
        body = self.mobs.bodies[mob.index]
        x, _, z = self.player.body.feet
        knocked = physics.knockback(body, x, z)
        self.mobs.knock_back(mob.index, tuple(after - before for after, before in zip(knocked.velocity, body.velocity)))
        self.sounds.extend(self.sound_rules.mob_hurt(body))

    @property
    def day_time(self) -> int:
        """[ticks] The time of day, 0..DAY_TICKS - 1 (0 sunrise, 6,000 noon, 12,000 sunset, 18,000
        midnight): advances 1 a tick, wrapping to 0 after a day. The world's (`World.day_time`, saved
        with it) where it keeps one; the lab's arena does not, and its time starts at 0."""
        world_time = getattr(self.world, "day_time", None)
        return self._day_time if world_time is None else world_time

    def set_day_time(self, ticks: int) -> None:
        """Set the time of day (`--time`, the pause menu): TypeError unless an int, ValueError unless
        0..DAY_TICKS - 1; nothing changes then."""
        if isinstance(ticks, bool) or not isinstance(ticks, int):
            raise TypeError(f"the time of day is an int of ticks, got {ticks!r}")
        if not 0 <= ticks < DAY_TICKS:
            raise ValueError(f"the time of day is 0..{DAY_TICKS - 1} ticks, got {ticks}")
        if hasattr(self.world, "set_day_time"):
            self.world.set_day_time(ticks)
        else:
            self._day_time = ticks

    def take_screenshot_requests(self) -> int:
        """F2 presses since the last call (the window saves that many screenshots)."""
        count, self.screenshot_requests = self.screenshot_requests, 0
        return count

    # --- the tick -----------------------------------------------------------------------------

    def tick(self) -> None:
        """Run one 20 Hz tick with the events applied so far (the tick order's steps 2-5)."""
        started = time.perf_counter()
        self._dig()  # the held attack button: Beta digs in its input step, before the world ticks
        world_ticks = getattr(self.world, "tick", None)  # block_updates: flowing fluids, sand (the lab has none)
        if world_ticks is not None:
            world_ticks()  # which also moves the world's time of day on
        else:
            self._day_time = (self._day_time + 1) % DAY_TICKS
        self.player.tick()
        self.player.body = self.mobs.tick(self.player.body)
        player_hits = []
        for hit in self.projectiles.tick(self.mobs.bodies, None if self.player.dead else self.player.body.box):
            if isinstance(hit, Knock):
                self.mobs.knock_back(hit.index, hit.impulse)
                self.sounds.extend(self.sound_rules.mob_hurt(self.mobs.bodies[hit.index]))
            else:
                player_hits.append(hit.at)
        self.player.suffer(self.world, player_hits)  # health: game.health's rules for this tick
        self.falling.tick()  # falling sand and gravel: made from the world's block updates, moved, landed
        self._make_sounds()
        player = self.player
        self.view_motion = self.view_motion.advanced(
            player.previous, player.body, sneaking=player.input.intent().sneak and not player.flying,
            dead=player.dead, held=self.hotbar.selected_block)
        self.tick_seconds = time.perf_counter() - started
        self._note_world_problems()
        if self.autosave and self.ticks_run % AUTOSAVE_TICKS == 0:
            try:
                self.save()
            except (WorldFileError, PlayerStateError) as error:
                # The edits stay in memory and the file at its last save: the next save tries again.
                self.notify(NOTICE_SAVE_FAILED.format(error=error))

    def _make_sounds(self) -> None:
        """The tick's sounds (`game.sounds`): the player's steps, landing, splash and hurt, the mobs' voices."""
        player = self.player
        self.sounds.extend(self.sound_rules.after_tick(
            self.world, player.previous, player.body, sneaking=player.input.intent().sneak and not player.flying,
            hurt=player.damage_taken > 0, alive=not player.dead, mobs=zip(self.mobs.keys, self.mobs.bodies)))

    def take_sounds(self) -> list[SoundEvent]:
        """The sounds made since the last call, oldest first (the window plays them)."""
        taken = list(self.sounds)
        self.sounds.clear()
        return taken

    def notify(self, message: str) -> None:
        """Tell the player `message` (see `notices`)."""
        self.notices.append(message)
        self._untold += 1

    def take_notices(self) -> list[str]:
        """The notices not taken yet, oldest first (a front end shows or prints them)."""
        untold, self._untold = self._untold, 0
        return self.notices[len(self.notices) - untold:] if untold else []

    def _note_world_problems(self) -> None:
        take = getattr(self.world, "take_problems", None)
        if take is not None:
            for problem in take():
                (x0, z0), size = (c * COLUMN_SIZE for c in problem.column), COLUMN_SIZE
                self.notify(NOTICE_DAMAGED_COLUMN.format(x0=x0, x1=x0 + size - 1, z0=z0, z1=z0 + size - 1,
                                                        part=problem.part, message=problem.message))

    def run(self, events: Iterable[Event], ticks: int) -> None:
        """Play `events` (sorted by tick, as a replay file holds them) for `ticks` more ticks, as a
        `ReplayCursor` hands them out: each just before the tick it names, or at once if that tick
        has run. So events meant for this call only: a second call with the same list applies them again."""
        cursor = ReplayCursor(tuple(events))
        for _ in range(ticks):
            for event in cursor.due(self.ticks_run):
                self.apply(event)
            self.tick()

    # --- saving and reporting ------------------------------------------------------------------

    def save(self) -> None:
        """Write the edited columns, the mobs (with their columns) and the player (box, velocity,
        look, flying, hotbar) to the world; then `on_save`.

        The player's state is written only if it reads back (`player.saved_player`): a save (also
        the one on the way out of a crash) never writes a player the next launch could not load.
        Should it not read back, the last saved player is kept, the rest is saved, and
        PlayerStateError says why."""
        self.mobs.save()
        state = self.player.to_state(self.hotbar)
        try:
            saved_player(state)
        except PlayerStateError as error:
            self.world.save()
            raise PlayerStateError(f"the player was not saved (the last saved player is kept): {error}") from None
        self.world.player_state = state
        self.world.save()
        if self.on_save is not None:
            self.on_save()

    def close(self) -> None:
        """Save, then close the world."""
        try:
            self.save()
        finally:
            self.world.close()

    def report(self) -> dict:
        """The state a scripted run reports (JSON values; floats exact): the window's report adds
        what only a window has (streaming, frame times)."""
        player = self.player
        body = player.body
        target = self.target()
        return {
            "ticks_run": self.ticks_run,
            "day_time": self.day_time,
            "feet": list(body.feet),
            **body_fields(body),
            "yaw": player.input.yaw,
            "pitch": player.input.pitch,
            "flying": player.flying,
            "health": player.vitals.health,
            "air": player.vitals.air,
            "fire": player.vitals.fire_ticks,
            "dead": player.dead,
            "damage_enabled": player.damage_enabled,
            "section": list(section_of(body.feet)),
            "targeted_block": None if target is None else {
                "block": list(target.block), "name": self.world.get_block(*target.block), "face": list(target.face)},
            "hotbar": self.hotbar.to_state(),
            "inventory_open": self.inventory_open,
            "debug_overlay": self.toggles.overlay,
            "hud_visible": self.toggles.hud_visible,
            "bodies": [{"kind": kind, "box": list(b.box), "velocity": list(b.velocity)} for kind, bodies in
                       (("player", [body]), ("mob", self.mobs.bodies), ("projectile", self.projectiles.bodies),
                        ("falling_block", self.falling.bodies))
                       for b in bodies],
            "edited_blocks": [[*cell, self.world.get_block(*cell)] for cell in sorted(self.edited_cells)],
            "seed": self.world.seed,
            "saved_player_problem": self.saved_player_problem,
            "notices": list(self.notices),
        }


def write_report(path: Path, report: dict) -> None:
    """`report` as JSON at `path`, parent folders created (the window's and the headless run's
    --report). OSError when it cannot be written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
