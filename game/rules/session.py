"""One running game with no window: the rules every front end drives the same way.

Owns: `Session`, which holds one game in play: the world (a `game.rules.game_world.GameWorld`, the
one declared protocol of what the rules ask of a world: `game.world.World`, or the lab's
`game.world.lab.Arena`), the players (`players`, by name in join order; `join`, `leave`; the
local player, `LOCAL_PLAYER`, is `player`, and `hotbar`, `mining`, `toggles`, `view_motion`,
`inventory_open` and `damage_enabled` are its), the mobs, the projectiles, the items on the ground,
the furnaces and chests, the survival rules (`survival`, in a survival world), the tick counter, the
sounds it makes (`game.rules.sounds`; the window takes and plays them); the tick order; saving the
players (by name), mobs and edits into the world; the run report. The input rules (what each replay
event does for the player it names, the look ray's target, digging and building) are its
`game.rules.player_actions.PlayerActions`, which `apply`, `target` and the tick's digging step call.
Pure: no Ursina, no clock but a timer for the F3 panel's tick time. The window (`game.window.app`),
the headless runner (`game.frontends.headless`), the lab and the tests all drive a Session the same way:

    session.apply(event)   # each event due before the tick (key_down, key_up, look, click),
                           # for the player it names (event.player; the local player by default)
    session.tick()         # one 20 Hz tick

Does not own: turning keys and the mouse into events (`game.rules.controls.LiveInput`), when ticks
run (`game.rules.clock`, driven by the front end), drawing, or anything only a window has (screenshots
are counted as requests for the window to take; streaming and frame times are the window's).

The tick order (docs/ARCHITECTURE.md, "One tick", numbers the same steps):
 1. events: `apply`, before the tick, each for the player it names;
then `tick`:
 2. digging: each player's held attack button (`game.rules.mining`, `game.rules.player_actions`);
 3. the world's tick: block updates (fluids, sand), its time of day;
 4. each player's step (`physics.step`, taken together: `game.rules.player_steps`); the tick counter advances;
 5. the players' pushes on each other: each player pushes every other player whose box meets
    its push region (`physics.push`; `push_players`);
 6. the mobs' tick (`game.rules.mobs`): restore and natural spawns around every player, each player's
    push on the mobs, the mobs' step and their pushes among themselves and on every player,
    despawning far from all players;
 7. the projectiles: each moves and may hit a mob (knocked back) or a living player;
 8. health: each player's (`game.rules.health`), with the projectile hits it took;
 9. falling blocks: made from the world's block updates, moved, landed; then the items on the ground
    (`game.rules.dropped_items`: each living player picks up what it touches, then each item moves),
    the furnaces (`game.rules.block_entities`) and the sleepers (`game.rules.beds`: the night passes
    once every player sleeps);
10. sounds: each player's steps, landing, splash and hurt, then the mobs' voices;
11. view motion: each player's view bobbing and walk cycle;
12. the world's problems (damaged columns) become notices; every AUTOSAVE_TICKS, a save;
13. the record of the tick (`TickChanges`), which `tick` returns.
"Each player" is in join order, not by name: it is the order Beta's server adds players to its
entity list (so the order its pushes run in), it does not change when names sort differently,
and a replay reproduces it (each named player joins at its first event). With one player, the
tick is exactly the single-player tick this game always ran.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType

import physics
from physics.broad_phase import WorldCache

from .clock import TICKS_PER_SECOND
from .controls import DEFAULT_BINDINGS, KeyBindings
from .hotbar import Hotbar
from .derived_seeds import derived_seed
from .mobs import MobManager, box_array, pushes_by
from .arrows import Arrows
from .creature_brain import Explode, MakeSound, MeleeHit, ShootArrow
from .explosion import Blast, apply_blast, blast, explosion_pitch
from ..world.java_random import JavaRandom
from .creature_rules import DropItem
from .items import ItemStack
from .player_steps import PlayerSteps
from .player import (EYE_HEIGHT, LOCAL_PLAYER, Player, PlayerStateError, Toggles, check_player_name, saved_player,
                     section_of)
from .player_actions import BrokenBlock, PlayerActions, wake_up
from .falling_blocks import FallingBlocks
from .projectiles import Knock, Projectiles
from .mining import Mining, MiningProgress
from .replay import (Chat, Click, DropHeld, Event, KeyDown, KeyUp, Look, PutInSlot, Release, ReplayCursor, SetDayTime,
                     SetPeaceful, SlotClick)
from . import beds
from .dropped_items import DroppedItems
from .block_entities import BlockEntities
from .survival import Survival, has_block_entity, report_block_entities
from .saved_values import body_fields
from .sounds import ARROW_HIT, BOW, EXPLODE, POP, SPLASH, SoundEvent, SoundRules
from .tick_changes import SoundLog, TickChanges, TickRecorder, session_bodies
from .game_world import GameWorld
from ..world import WorldFileError
from ..world.coords import CHUNK_SIZE as COLUMN_SIZE
from ..world.blocks import block_name
from ..world.file_format import SURVIVAL
from ..world.world import DAY_TICKS
from .targeting import Target
from . import view_motion_rows
from .view_bobbing import ViewMotion

AUTOSAVE_TICKS = 60 * TICKS_PER_SECOND
NOTICE_SAVE_FAILED = "Could not save the world ({error}). Play goes on; the game will try again."
NOTICE_SAVED_PLAYER_UNUSABLE = "The saved state of {name} cannot be used ({error}); {name} starts at the spawn."
NOTICE_DAMAGED_COLUMN = ("The saved column at x {x0}..{x1}, z {z0}..{z1} is damaged ({part}: {message}); "
                         "it is shown as generated from the seed, and its saved bytes are kept.")
"""[ticks] Save every minute of play. A save writes only the columns edited since the last one and
the player, in one SQLite transaction: measured 0.5 ms with nothing edited, 1.0 ms for 10 edited
columns, 3.7 ms for 50, so it fits in a tick and needs no thread (the World is single-threaded)."""
EVENT_TYPES = (KeyDown, KeyUp, Look, Click, Release, PutInSlot, SetDayTime, SetPeaceful, Chat, SlotClick, DropHeld)
PEACEFUL_HEAL_INTERVAL_TICKS = 20
"""[ticks] Survival in peaceful heals one half heart when the player's tick count is a multiple of
20: Beta 1.7.3's `ticksExisted % 20 * 12 == 0`, which Java reads as (ticksExisted % 20) * 12."""
MAX_PENDING_SOUNDS = 256
"""[sounds] The sounds kept for a front end to take: the window takes them after every tick (a tick
makes a few); a headless run never does, so only the latest this many are kept."""
MAX_EXPLOSIONS_KEPT = 16
"""[explosions] The latest explosions kept in `explosions` (a test or the window may read them)."""


@dataclass(frozen=True, slots=True)
class ExplosionRecord:
    """One explosion as it happened: what it was given (`seed` seeds its `JavaRandom`; `boxes` and
    `positions` are the bodies it met, players first in join order, then mobs) and what it gave."""

    centre: tuple[float, float, float]
    power: float
    seed: int
    boxes: tuple
    positions: tuple
    blast: Blast
    broken: tuple
    """`explosion.BrokenCell`s: the blocks it broke, in order."""

    @property
    def cells(self) -> tuple[tuple[int, int, int], ...]:
        return tuple(broken.cell for broken in self.broken)


class Session:
    """One game in play; `apply` events, then `tick`."""

    def __init__(self, world, player: Player, hotbar: Hotbar | None = None, *,
                 bindings: KeyBindings = DEFAULT_BINDINGS, autosave: bool = True,
                 on_save: Callable[[], None] | None = None) -> None:
        if not isinstance(world, GameWorld):
            raise TypeError(f"a session needs a game.rules.game_world.GameWorld (a World or the lab's Arena), got {world!r}")
        if not isinstance(player, Player):
            raise TypeError(f"a session starts with a game.rules.player.Player, got {player!r}")
        self.world = world
        if hotbar is not None:
            player.hotbar = hotbar
        self._players: dict[str, Player] = {player.name: player}
        """Every player, by name, in join order (the tick's order: see the module docstring)."""
        self.local_name = player.name
        """The local player's name (`LOCAL_PLAYER` unless a test says otherwise): `player` is that
        player, and an event with no other name is its."""
        self._ticks_run = player.ticks_run
        self.bindings = bindings
        world_cache = WorldCache(world)  # the block boxes both crowds (mobs, players) read: each tile asked for once
        self.mobs = MobManager(world, world.seed, creatures=world.game_mode == SURVIVAL, world_cache=world_cache)
        """Every mob; placing a block respects them, F3 draws them, the report lists them. In a survival
        world they are Beta's creatures (`game.rules.creature_rules`); in a creative one, boxlings."""
        self._player_steps = PlayerSteps(world, player.settings, world_cache=world_cache)
        """Steps the players' bodies each tick (the others together, on arrays once they are many)."""
        self.projectiles = Projectiles(world)
        self.falling = FallingBlocks(world)
        """Sand and gravel falling as bodies (their blocks land where they come to rest)."""
        self.block_entities = BlockEntities(world)
        """Furnaces and chests by cell, with what they hold (`game.rules.block_entities`)."""
        self.dropped = DroppedItems(derived_seed("dropped items", world.seed))
        """Items lying in the world as bodies (`game.rules.dropped_items`): a survival game's drops."""
        self.dropped.load(world)
        self.arrows = Arrows(derived_seed("arrows", world.seed))
        """Arrows in flight or stuck in blocks (`game.rules.arrows`): skeletons shoot them."""
        self.arrows.load(world)
        self.survival: Survival | None = (Survival(world, self.block_entities, self._throw_item, self._drop_item)
                                          if world.game_mode == SURVIVAL else None)
        """The survival rules (`game.rules.survival`); None in a creative game."""
        if self.survival is not None:
            self.survival.equip(player)
        self.autosave = autosave
        """Save every AUTOSAVE_TICKS ticks (the game does; a test may not want to write)."""
        self.on_save = on_save
        """Called after every save (a front end that wants to know; the unsaved columns are the world's)."""
        self.edited_cells: set[tuple[int, int, int]] = set()
        """Every cell this session broke or placed a block in (the report lists what each holds now)."""
        self.sound_rules = SoundRules(world.seed)
        """When the game makes a sound, and which (`game.rules.sounds`); the local player's steps count here."""
        self._step_sounds: dict[str, SoundRules] = {player.name: self.sound_rules}
        """Each player's step counter (`SoundRules.walked`): the local player's is `sound_rules`, any
        other player's its own, its pitches drawn from a stream derived from the seed and its name."""
        self.sounds: SoundLog = SoundLog(MAX_PENDING_SOUNDS)
        """The sounds made since a front end last took them (`take_sounds`), oldest first (each also
        goes into the next tick's record)."""
        self._recorder = TickRecorder()
        """Makes each tick's record (`TickChanges`, `game.rules.tick_changes`): the bodies the last one saw, the notices since."""
        self.explosions: deque[ExplosionRecord] = deque(maxlen=MAX_EXPLOSIONS_KEPT)
        """The latest explosions, oldest first (`ExplosionRecord`)."""
        self.tick_seconds = 0.0
        """[s] Wall time of the last tick's simulation (the F3 panel shows it)."""
        self.notices: list[str] = []
        """Everything the player was told in this session, oldest first: damage found in the
        world file, a save that failed (`NOTICE_*`). The front ends show each once
        (`take_notices`); the report lists them all."""
        self._untold = 0  # notices[-_untold:] not taken yet
        self.flying_allowed = self.survival is None
        """The fly key toggles flying: in a creative game (a server may turn it off there too,
        `game.net.hub.ServerLimits.flying_allowed`), never in survival; where off the key is held but
        toggles nothing."""
        self._actions = PlayerActions(self)
        """What each player's input does (`game.rules.player_actions`): events, targets, digging, building."""
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
        session = cls(world, Player.spawned(world, saved, bindings=bindings), **options)
        session.saved_player_problem = problem
        return session

    # --- players --------------------------------------------------------------------------------

    @property
    def players(self) -> Mapping[str, Player]:
        """Every player in the game, name -> `Player`, in join order (read-only)."""
        return MappingProxyType(self._players)

    @property
    def player(self) -> Player:
        """The local player (the one the window shows and a replay line without a name acts for).
        LookupError once it has left."""
        try:
            return self._players[self.local_name]
        except KeyError:
            raise LookupError(f"the local player {self.local_name!r} has left the game") from None

    def join(self, name: str) -> Player:
        """Add the player `name` (`check_player_name`) and return it: where that name last left this
        world (its saved state, with its hotbar and health), or at rest at the world's spawn when
        it never played here. It acts from the next tick, after the players already in. A saved
        state that cannot be used starts it at the spawn and is told as a notice. TypeError or
        ValueError for a bad name, ValueError for a name already playing; nothing changes then."""
        check_player_name(name)
        if name in self._players:
            raise ValueError(f"a player named {name!r} is already playing")
        try:
            saved = saved_player(self.world.saved_player_state(name))
        except PlayerStateError as error:
            saved = None
            self.notify(NOTICE_SAVED_PLAYER_UNUSABLE.format(name=name, error=error), player=name)
        player = Player.spawned(self.world, saved, bindings=self.bindings, name=name)
        player.ticks_run = self._ticks_run
        if self.survival is not None:
            self.survival.equip(player)
        if name not in self._step_sounds:
            self._step_sounds[name] = (self.sound_rules if name == self.local_name else
                                       SoundRules(derived_seed("player sounds", self.world.seed, name)))
        self._players[name] = player
        return player

    def leave(self, name: str) -> None:
        """Save the player `name` into the world (as `save` writes players) and remove it from the
        game; the local player may leave too. ValueError when no player of that name is playing,
        PlayerStateError when its state would not read back (it stays in the game then)."""
        check_player_name(name)
        player = self._players.get(name)
        if player is None:
            raise ValueError(f"no player named {name!r} is playing")
        self._store(player)
        del self._players[name]
        self._actions.forget(name)

    def _player_for(self, name: str | None) -> Player:
        """The player an event is for; ValueError when that name is not playing."""
        player = self._players.get(name)
        if player is None:
            check_player_name(name)
            raise ValueError(f"no player named {name!r} is playing (join it first)")
        return player

    def _store(self, player: Player) -> None:
        """Put `player`'s state in the world (written by its next save), only if it reads back:
        PlayerStateError otherwise, and the state saved before is kept."""
        state = player.to_state(player.hotbar)
        saved_player(state)
        self.world.set_player_state(player.name, state)

    # --- reading ------------------------------------------------------------------------------

    @property
    def ticks_run(self) -> int:
        """Ticks simulated so far; also the number of the next tick."""
        return self._ticks_run

    def bodies(self) -> list[physics.Body]:
        """Every player's body (in join order) and every mob's (projectiles are too small to stand
        in anyone's way)."""
        return [*(player.body for player in self._players.values()), *self.mobs.bodies]

    @property
    def hotbar(self) -> Hotbar:
        """The local player's hotbar."""
        return self.player.hotbar

    @hotbar.setter
    def hotbar(self, hotbar: Hotbar) -> None:
        if not isinstance(hotbar, Hotbar):
            raise TypeError(f"hotbar must be game.rules.hotbar.Hotbar, got {hotbar!r}")
        self.player.hotbar = hotbar

    @property
    def mining(self) -> Mining:
        """The local player's digging (`game.rules.mining`)."""
        return self.player.mining

    @property
    def toggles(self) -> Toggles:
        """The local player's HUD and overlay toggles."""
        return self.player.toggles

    @toggles.setter
    def toggles(self, toggles: Toggles) -> None:
        if not isinstance(toggles, Toggles):
            raise TypeError(f"toggles must be game.rules.player.Toggles, got {toggles!r}")
        self.player.toggles = toggles

    @property
    def view_motion(self) -> ViewMotion:
        """The local player's view bobbing and walk cycle (`game.rules.view_bobbing`)."""
        return self.player.view_motion

    @view_motion.setter
    def view_motion(self, motion: ViewMotion) -> None:
        if not isinstance(motion, ViewMotion):
            raise TypeError(f"view_motion must be game.rules.view_bobbing.ViewMotion, got {motion!r}")
        self.player.view_motion = motion

    @property
    def screenshot_requests(self) -> int:
        """The local player's F2 presses not yet taken by a window (`take_screenshot_requests`)."""
        return self.player.screenshot_requests

    @screenshot_requests.setter
    def screenshot_requests(self, count: int) -> None:
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"screenshot_requests is a count >= 0, got {count!r}")
        self.player.screenshot_requests = count

    @property
    def damage_enabled(self) -> bool:
        """False: peaceful, nothing hurts the player (`game.rules.health`); kept and saved with the player."""
        return self.player.damage_enabled

    @damage_enabled.setter
    def damage_enabled(self, enabled: bool) -> None:
        if not isinstance(enabled, bool):
            raise TypeError(f"damage_enabled is true or false, got {enabled!r}")
        self.player.damage_enabled = enabled

    @property
    def inventory_open(self) -> bool:
        """The local player's creative inventory is open (the inventory key toggles it; a dead
        player's is closed). While it is open the player does not act (see `apply`) and the window
        shows `game.window.ui.inventory_screen` with the pointer free: no mouse look."""
        return self.player.inventory_open

    def target(self, player: Player | None = None) -> Target | None:
        """The block `player` (the local player by default) looks at from the eye at the latest
        tick (building acts on it)."""
        return self._actions.target(self.player if player is None else player)

    # --- events ---------------------------------------------------------------------------------

    def apply(self, event: Event, player: str | None = None) -> None:
        """Apply one event before the next tick, for the player named `player` (None: the one the
        event names, `event.player`, which is the local player unless a replay line says otherwise):
        an input, or a game change the window's menus send (`SetDayTime`, `SetPeaceful`: heard
        whatever the player is doing), by the input rules (`game.rules.player_actions`). TypeError
        for what is not an event, ValueError for a name not playing."""
        if not isinstance(event, EVENT_TYPES):
            raise TypeError(f"not an input event: {event!r}")
        self._actions.apply(event, self._player_for(event.player if player is None else player))

    def _throw_item(self, player: Player, stack, scatter: bool) -> None:
        """An item leaves `player`: thrown along the look (Q, a screen's stacks on closing), or any
        way from where it fell (`scatter`: death), as Beta's `dropPlayerItemWithRandomChoice`."""
        self.dropped.throw(stack, player.body, player.input.yaw, player.input.pitch, self.survival.random, scatter)

    def _drop_item(self, cell: tuple[int, int, int], stack, rng) -> None:
        """A stack falls out of the block broken at `cell` (Beta's `dropBlockAsItem_do`)."""
        self.dropped.spawn_from_block(cell, stack, rng)

    def _tick_sleepers(self, players: list[Player]) -> None:
        """Each sleeper's timer (up to SLEEP_TICKS); a sleeper whose bed is gone, or who sees the day,
        wakes; once every player sleeps fully, the time of day jumps to the next morning and all wake
        at home (Beta's `World.tick` with `isAllPlayersFullyAsleep`)."""
        for player in players:
            if player.sleeping_ticks:
                if beds.foot_of(self.world, player.sleeping_at) != player.sleeping_at or player.dead:
                    wake_up(player)
                else:
                    player.sleeping_ticks = min(player.sleeping_ticks + 1, beds.SLEEP_TICKS)
        if beds.all_asleep([player.sleeping_ticks for player in players]):
            self.world.set_day_time(0)
            for player in players:
                wake_up(player, home=True)

    @property
    def mining_progress(self) -> MiningProgress | None:
        """The block being dug and its crack stage (Beta's int(damage x 10), 0..9) at the latest
        tick; None while no block is damaged (the window draws the cracks)."""
        return self.mining.progress

    def swing_progress(self, alpha: float) -> float:
        """The arm swing in [0, 1) between the last two ticks (alpha 0: the one before, 1: the
        latest), 0 when the arm is not swinging: Beta's `getSwingProgress` (`game.rules.mining`). A swing
        starts on a left click, a placed block, and every tick of digging."""
        return self.mining.swing_progress(alpha)

    @property
    def broken_blocks(self) -> deque[BrokenBlock]:
        """The blocks broken since a front end last took them (`take_broken_blocks`), oldest first."""
        return self._actions.broken_blocks

    def take_broken_blocks(self) -> list[BrokenBlock]:
        """The blocks broken since the last call, oldest first (the window's break particles)."""
        return self._actions.take_broken_blocks()

    @property
    def day_time(self) -> int:
        """[ticks] The time of day, 0..DAY_TICKS - 1 (0 sunrise, 6,000 noon, 12,000 sunset, 18,000
        midnight): advances 1 a tick, wrapping to 0 after a day. The world's (`World.day_time`, saved
        with it; the lab's arena starts at 0 and is not saved)."""
        return self.world.day_time

    def set_day_time(self, ticks: int) -> None:
        """Set the time of day (`--time`, the pause menu): TypeError unless an int, ValueError unless
        0..DAY_TICKS - 1; nothing changes then."""
        if isinstance(ticks, bool) or not isinstance(ticks, int):
            raise TypeError(f"the time of day is an int of ticks, got {ticks!r}")
        if not 0 <= ticks < DAY_TICKS:
            raise ValueError(f"the time of day is 0..{DAY_TICKS - 1} ticks, got {ticks}")
        self.world.set_day_time(ticks)

    def take_screenshot_requests(self) -> int:
        """The local player's F2 presses since the last call (the window saves that many screenshots)."""
        player = self.player
        count, player.screenshot_requests = player.screenshot_requests, 0
        return count

    # --- the tick -----------------------------------------------------------------------------

    def tick(self) -> TickChanges:
        """Run one 20 Hz tick with the events applied so far (the tick order's steps 2-13: see the
        module docstring); returns its record: everything changed since the last record
        (`game.rules.tick_changes.TickChanges`: edits applied before this tick are in it)."""
        started = time.perf_counter()
        players = list(self._players.values())  # join order
        self._actions.dig_all(players)  # the held attack buttons: Beta digs in its input step, before the world ticks
        self.world.tick()  # block_updates: flowing fluids, sand (none in the lab); moves the time of day on
        unsupported = self.world.take_unsupported()  # torches, ladders, plants, doors, beds that lost their hold
        if unsupported and self.survival is not None:
            self.survival.on_unsupported(unsupported)
        for player, stepped in zip(players, self._player_steps.step(players)):
            player.take_step(stepped)
        self._ticks_run += 1
        push_players(players)
        creatures = self.mobs.creatures
        if creatures is not None:
            creatures.monsters_allowed = any(player.damage_enabled for player in players)
        for player, body in zip(players, self.mobs.tick([player.body for player in players],
                                                        [not player.dead for player in players])):
            player.body = body
        hits = self._projectile_hits(players)
        if creatures is not None:
            self._creature_actions(players, hits)
        self._tick_arrows(players, hits)
        for player, player_hits in zip(players, hits):
            self._suffer(player, player_hits)  # health: game.rules.health's rules for this tick
        self.falling.tick()  # falling sand and gravel: made from the world's block updates, moved, landed
        self._tick_items(players)  # items on the ground: picked up, moved, despawned
        self.block_entities.tick(self.world)  # furnaces burn and cook where their column is loaded
        self._tick_sleepers(players)  # beds: the night passes once every player sleeps
        sneaking = [player.sneak_held and not player.flying for player in players]
        self._make_sounds(players, sneaking)
        self._advance_views(players, sneaking)
        self.tick_seconds = time.perf_counter() - started
        self._note_world_problems()
        if self.autosave and self.ticks_run % AUTOSAVE_TICKS == 0:
            try:
                self.save()
            except (WorldFileError, PlayerStateError) as error:
                # The edits stay in memory and the file at its last save: the next save tries again.
                self.notify(NOTICE_SAVE_FAILED.format(error=error))
        return self._record_tick()

    def _advance_views(self, players: list[Player], sneaking: list[bool]) -> None:
        """Step 11, each player's view motion (`ViewMotion.advanced`), many players' on arrays
        (`game.rules.view_motion_rows`: the same values), kept as rows from tick to tick (each
        player's `ViewMotion` made only when read: `Player.view_motion`)."""
        if len(players) < view_motion_rows.ROWS_FROM:
            for player, sneaks in zip(players, sneaking):
                player.view_motion = player.view_motion.advanced(
                    player.previous, player.body, sneaking=sneaks, dead=player.dead, held=self.held_block(player))
            return
        motions = Player.view_rows(players)
        if motions is None:
            motions = [player.view_motion for player in players]
        befores, afters = [player.previous for player in players], [player.body for player in players]
        dead = [player.dead for player in players]
        held = [self.held_block(player) for player in players]
        if not view_motion_rows.takes_on_arrays(motions, befores, afters, sneaking, dead, held):
            for player, motion in zip(players, view_motion_rows.advance_each(
                    motions, befores, afters, sneaking, dead, held)):
                player.view_motion = motion
            return
        if type(motions) is not view_motion_rows.MotionRows:
            motions = view_motion_rows.MotionRows.of(motions)
        Player.set_view_rows(players, view_motion_rows.advance_rows(motions, befores, afters, sneaking, dead, held))

    def held_block(self, player: Player) -> str | None:
        """The block `player` holds, as the hand draws it: the hotbar's in creative, the held item's
        block in survival (None for an empty hand or an item that places no block)."""
        return player.hotbar.selected_block if self.survival is None else self.survival.placed_block(player)

    def _suffer(self, player: Player, hits: list[tuple[float, float]]) -> None:
        """Step 8 for one player (`Player.suffer`): in survival health comes back only by eating,
        or in peaceful by Beta's rule (PEACEFUL_HEAL_INTERVAL_TICKS); a survival player who dies
        scatters its inventory (`Survival.on_death`)."""
        if self.survival is None:
            player.suffer(self.world, hits)
            return
        was_dead = player.dead
        player.suffer(self.world, hits, regenerates=False)
        if not player.damage_enabled and player.ticks_run % PEACEFUL_HEAL_INTERVAL_TICKS == 0:
            player.heal(1)
        if player.dead and not was_dead:
            self.survival.on_death(player)

    def _tick_items(self, players: list[Player]) -> None:
        """The items lying in the world (`game.rules.dropped_items`): each living player picks up what
        its box (grown by Beta's margin) touches, in join order, then every item moves."""
        if not len(self.dropped):
            return
        boxes = {player.name: None if player.dead else player.body.box for player in players}
        self.dropped.tick(self.world, boxes, self._give)
        for sound in self.dropped.take_sounds():
            self.sounds.extend(self.sound_rules.item_sound(sound))

    def _give(self, name: str, stack) -> int:
        """An item touched by the player `name`: how many its inventory took (`Survival.give`)."""
        player = self._players.get(name)
        return 0 if player is None or self.survival is None else self.survival.give(player, stack)

    def _creature_actions(self, players: list[Player], hits: list[list[tuple]]) -> None:
        """What the creatures asked this tick (`CreatureRules.take_actions`), in order: a blow on a
        player joins that player's hits (its damage, knocked back from the creature), an item falls,
        a sound plays."""
        for action in self.mobs.creatures.take_actions():
            if isinstance(action, MeleeHit):
                if action.player < len(hits):
                    hits[action.player].append((*action.at, action.damage))
            elif isinstance(action, DropItem):
                if self.survival is not None:
                    for _ in range(action.count):
                        self.dropped.drop_at(action.position, ItemStack(action.item, 1), self.survival.random,
                                             action.nudge)
            elif isinstance(action, MakeSound):
                self.sounds.extend(self.sound_rules.creature_sound(action.name, action.position))
            elif isinstance(action, Explode):
                self._explode(action.centre, action.power, players, hits)
            elif isinstance(action, ShootArrow):
                brains = self.mobs.brains
                shooter = self.mobs.keys[brains.index(action.shooter)] if action.shooter in brains else None
                self.arrows.shoot_as_skeleton(action.feet, action.yaw, action.pitch, action.target,
                                              shooter=None if shooter is None else f"mob:{shooter}")
                self.sounds.extend(self.sound_rules.creature_sound(BOW, action.feet))

    def _tick_arrows(self, players: list[Player], hits: list[list[tuple]]) -> None:
        """The arrows (`game.rules.arrows`): each flies against the living players and creatures; a
        creature hit is hurt at once, a player's hit joins its hits (knocked back from the shooter);
        survival players pick up the stuck ones they touch."""
        if not len(self.arrows):
            return
        mobs = self.mobs
        bodies = [(f"player:{player.name}", player.body) for player in players if not player.dead]
        creatures = {f"mob:{key}": index for index, (key, life) in enumerate(zip(mobs.keys, mobs.lives))
                     if life is not None and not life.dead}  # the arrows' tick moves no mob: indices hold
        mob_bodies = mobs.bodies  # (a property: read once, not once a creature)
        bodies += [(key, mob_bodies[index]) for key, index in creatures.items()]
        names = {f"player:{player.name}": i for i, player in enumerate(players)}

        def hurt(key: str, damage: int) -> bool:
            if key in names:
                return True  # its health rules deal it this tick (`_suffer`)
            return mobs.creatures.hurt(creatures[key], damage, None)

        for hit in self.arrows.tick(self.world, bodies, hurt):
            if hit.target in names:
                hits[names[hit.target]].append((*hit.at, hit.damage))
        if self.survival is not None:
            self.arrows.pick_up({player.name: None if player.dead else player.body.box for player in players},
                                self._give)
        for sound in self.arrows.take_sounds():
            name = ARROW_SOUNDS.get(sound.name)
            if name is not None:
                self.sounds.extend(self.sound_rules.creature_sound(name, sound.position, sound.volume, sound.pitch))

    def _explode(self, centre, power: float, players: list[Player], hits: list[list[tuple]]) -> None:
        """A creeper's explosion at `centre` (Beta's `Explosion`: `game.rules.explosion`; creepers live in
        survival games only): its random numbers from the world seed, the tick and the explosions so far;
        the living players (posY at the eye, as Beta's) and every mob are the bodies it meets (the
        creeper is gone already). Broken blocks drop by Beta's 0.3 chance, a chest's or furnace's contents
        fall out; a player hit takes the damage through its health rules (knocked back from the centre)
        and the push; a mob is hurt and pushed."""
        world = self.world
        seed = derived_seed("explosion", world.seed, self.ticks_run, len(self.explosions))
        rng = JavaRandom(seed)
        living = [player for player in players if not player.dead]
        mob_bodies = self.mobs.bodies
        boxes = tuple([player.body.box for player in living] + [body.box for body in mob_bodies])
        positions = tuple([(x, y + EYE_HEIGHT, z) for x, y, z in (player.body.feet for player in living)]
                          + [body.feet for body in mob_bodies])
        result = blast(world, centre, power, rng, boxes, positions)
        pitch = explosion_pitch(rng)
        broken = apply_blast(world, result, rng, self._drop_item)
        for cell_broken in broken:
            cell = cell_broken.cell
            self.edited_cells.add(cell)
            if has_block_entity(block_name(cell_broken.block)):
                for stack in self.block_entities.on_block_removed(cell):
                    self._drop_item(cell, stack, rng)
        for hit in result.bodies:
            if hit.index < len(living):
                player = living[hit.index]
                hits[players.index(player)].append((centre[0], centre[2], hit.damage))
                player.body = _pushed(player.body, hit.impulse)
            else:
                index = hit.index - len(living)
                self.mobs.creatures.hurt(index, hit.damage, None)
                self.mobs.knock_back(index, hit.impulse)
        self.sounds.extend(self.sound_rules.creature_sound(EXPLODE, centre, EXPLOSION_VOLUME, pitch))
        self.explosions.append(ExplosionRecord(tuple(centre), float(power), seed, boxes, positions, result, broken))

    def _projectile_hits(self, players: list[Player]) -> list[list[tuple[float, float]]]:
        """Step 7: the projectiles' tick; a mob hit is knocked back (with its hurt sound); returns,
        for each of `players`, the (x, z) of each projectile that hit it (a dead player is not hit)."""
        hits: list[list[tuple[float, float]]] = [[] for _ in players]
        if not len(self.projectiles):
            return hits  # (no projectile flies: its tick would hit and change nothing)
        boxes = [None if player.dead else player.body.box for player in players]
        for hit in self.projectiles.tick(self.mobs.bodies, player_boxes=boxes):
            if isinstance(hit, Knock):
                self.mobs.knock_back(hit.index, hit.impulse)
                self.sounds.extend(self.sound_rules.mob_hurt(self.mobs.bodies[hit.index]))
            else:
                hits[hit.player].append(hit.at)
        return hits

    def _make_sounds(self, players: list[Player], sneaking: list[bool] | None = None) -> None:
        """Step 10, the tick's sounds (`game.rules.sounds`): each player's steps, landing, splash and hurt,
        in join order, then the mobs' voices. `sneaking`: each player's sneak key held and not flying
        (worked out here when not given)."""
        if sneaking is None:
            sneaking = [player.input.intent().sneak and not player.flying for player in players]
        step_sounds = self._step_sounds
        made = SoundRules.players_sounds([step_sounds[player.name] for player in players], self.world,
                                         [player.previous for player in players], [player.body for player in players],
                                         sneaking, [player.damage_taken > 0 for player in players],
                                         [not player.dead for player in players])
        if made:  # most ticks most players make none
            self.sounds.extend(made)
        self.sounds.extend(self.sound_rules.mob_voices(self.mobs.voices()))

    def take_sounds(self) -> list[SoundEvent]:
        """The sounds made since the last call, oldest first (the window plays them)."""
        taken = list(self.sounds)
        self.sounds.clear()
        return taken

    def notify(self, message: str, player: str | None = None) -> None:
        """Tell the player named `player` (None: every player) `message` (see `notices`); it is in
        the next tick's record too."""
        self._recorder.notice(message, player)
        self.notices.append(message)
        self._untold += 1

    def take_notices(self) -> list[str]:
        """The notices not taken yet, oldest first (a front end shows or prints them)."""
        untold, self._untold = self._untold, 0
        return self.notices[len(self.notices) - untold:] if untold else []

    def _record_tick(self) -> TickChanges:
        """The record of the tick just run (the tick's last step): the world's changes since the last
        record (`take_changes`), the bodies against the last record's, the sounds and notices since."""
        return self._recorder.record(tick=self.ticks_run - 1, day_time=self.day_time, world=self.world.take_changes(),
                                     bodies=session_bodies(self), sounds=self.sounds.take_recorded(),
                                     delta=self.dropped.body_delta())

    def _note_world_problems(self) -> None:
        for problem in self.world.take_problems():
            (x0, z0), size = (c * COLUMN_SIZE for c in problem.column), COLUMN_SIZE
            self.notify(NOTICE_DAMAGED_COLUMN.format(x0=x0, x1=x0 + size - 1, z0=z0, z1=z0 + size - 1,
                                                    part=problem.part, message=problem.message))

    def run(self, events: Iterable[Event], ticks: int) -> None:
        """Play `events` (sorted by tick, as a replay file holds them) for `ticks` more ticks, as a
        `ReplayCursor` hands them out: each just before the tick it names, or at once if that tick
        has run. So events meant for this call only: a second call with the same list applies them again.
        A player an event names who is not playing joins first (`join_for`), as a headless run does."""
        cursor = ReplayCursor(tuple(events))
        for _ in range(ticks):
            for event in cursor.due(self.ticks_run):
                self.join_for(event)
                self.apply(event)
            self.tick()

    def join_for(self, event: Event) -> Player | None:
        """A replay's rule for players: the player `event` names joins (`join`) at its first event,
        unless it is playing already. Returns the player that joined, None when none did."""
        if not isinstance(event, EVENT_TYPES):
            raise TypeError(f"not an input event: {event!r}")
        return None if event.player in self._players else self.join(event.player)

    # --- saving and reporting ------------------------------------------------------------------

    def save(self) -> None:
        """Write the edited columns, the mobs, projectiles, falling blocks, items on the ground, furnaces
        and chests (with their columns: everything in flight comes back with the world) and every
        player, by name (box, velocity, look, flying, hotbar, inventory, bed, health) to the world;
        then `on_save`.

        A player's state is written only if it reads back (`player.saved_player`): a save (also
        the one on the way out of a crash) never writes a player the next launch could not load.
        Should one not read back, that player's last saved state is kept, the rest is saved, and
        PlayerStateError says why."""
        self.mobs.save()
        self.projectiles.save()
        self.falling.save()
        self.dropped.save(self.world)
        self.arrows.save(self.world)
        self.block_entities.save()
        problems = []
        for player in self._players.values():
            try:
                self._store(player)
            except PlayerStateError as error:
                who = "the player" if player.name == LOCAL_PLAYER else f"the player {player.name}"
                problems.append(f"{who} was not saved (the last saved {who.removeprefix('the ')} is kept): {error}")
        self.world.save()
        if problems:
            raise PlayerStateError("; ".join(problems))
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
        what only a window has (streaming, frame times). The local player's fields are at the top
        level (left out once it has left), and every player's, by name in join order, under
        "players"; "bodies" lists every player's body (in join order), then the mobs', the
        projectiles', the falling blocks' and the items on the ground's. `game_mode` is the world's;
        `inventory` the local player's 36 slots, hotbar first (each None or [item, count]), None in
        a creative game; `items` the items on the ground; `block_entities` the furnaces and chests."""
        local = self._players.get(self.local_name)
        top = {} if local is None else {
            **self.player_report(local),
            "debug_overlay": local.toggles.overlay,
            "hud_visible": local.toggles.hud_visible,
            "inventory": None if local.inventory is None else local.inventory.report_slots(),
        }
        return {
            "ticks_run": self.ticks_run,
            "day_time": self.day_time,
            "game_mode": self.world.game_mode,
            **top,
            "players": {name: self.player_report(player) for name, player in self._players.items()},
            "bodies": [*({"kind": "player", "box": list(b.box), "velocity": list(b.velocity)}
                         for b in (player.body for player in self._players.values())),
                       *(mob_report(kind, b, life) for kind, b, life in
                         zip(self.mobs.kinds, self.mobs.bodies, self.mobs.lives)),
                       *({"kind": kind, "box": list(b.box), "velocity": list(b.velocity)} for kind, bodies in
                         (("projectile", self.projectiles.bodies), ("falling_block", self.falling.bodies),
                          ("item", [item.body for item in self.dropped.live]))
                         for b in bodies),
                       *({"kind": "arrow", "box": list(box), "velocity": list(motion)}
                         for _, box, motion in self.arrows.bodies().values())],
            "edited_blocks": [[*cell, self.world.get_block(*cell)] for cell in sorted(self.edited_cells)],
            "seed": self.world.seed,
            "saved_player_problem": self.saved_player_problem,
            "notices": list(self.notices),
            "items": [{"item": item.stack.item, "count": item.stack.count, "feet": list(item.body.feet)}
                      for item in self.dropped.live],
            "block_entities": report_block_entities(self.block_entities),
        }


    def player_report(self, player: Player) -> dict:
        """One player's fields of the report (JSON values; floats exact); a survival game adds the
        inventory (36 slots, hotbar first, each None or [item, count]), whether the player sleeps,
        and its bed."""
        body = player.body
        target = self.target(player)
        return {
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
            "hotbar": player.hotbar.to_state(),
            "inventory_open": player.inventory_open,
            **({} if self.survival is None else {
                "inventory": player.inventory.report_slots(),
                "sleeping": player.sleeping_ticks > 0,
                "bed": None if player.bed is None else list(player.bed)}),
        }


ARROW_SOUNDS = {"random.drr": ARROW_HIT, "random.pop": POP, "random.splash": SPLASH}
"""Beta's names of the sounds an arrow makes -> Boxel's."""
EXPLOSION_VOLUME = 4.0
"""Beta's `random.explode` volume (4.0F)."""


def _pushed(body: physics.Body, impulse) -> physics.Body:
    """`body` with `impulse` [blocks/tick] added to its velocity."""
    vx, vy, vz = body.velocity
    return replace(body, velocity=(vx + impulse[0], vy + impulse[1], vz + impulse[2]))


def mob_report(kind: str, body: physics.Body, life) -> dict:
    """One mob in the report's `bodies`: a boxling as kind "mob"; a Beta creature by its kind's
    name, with its `health` [half hearts]."""
    if life is None:
        return {"kind": "mob", "box": list(body.box), "velocity": list(body.velocity)}
    return {"kind": kind, "box": list(body.box), "velocity": list(body.velocity), "health": life.health}


def push_players(players: list[Player]) -> None:
    """Step 5, the players' pushes on each other: each player (Beta's `me`), in join order, pushes
    every other player whose box meets its push region, in join order (`physics.push`: velocities
    only, so a touching pair is pushed twice a tick, once from each side, as Beta's entity list
    does). Bodies are never solid to each other: the push alone separates them."""
    if len(players) < 2:
        return
    bodies = [player.body for player in players]
    boxes = box_array([body.box for body in bodies])  # pushes change velocities, never boxes
    for me, other in pushes_by(boxes, boxes):
        if other != me:
            bodies[me], bodies[other] = physics.push(bodies[me], bodies[other])
    for player, body in zip(players, bodies):
        player.body = body


def write_report(path: Path, report: dict) -> None:
    """`report` as JSON at `path`, parent folders created (the window's and the headless run's
    --report). OSError when it cannot be written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
