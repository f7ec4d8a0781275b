"""Mobs in the world: spawning, one tick of every mob, the push between mobs and the player,
despawning, knockback, and mobs saved with their columns.

Owns: `MobManager`: the live mobs (their bodies in one `physics.Crowd`, in the order they
joined, a `game.rules.mob_brain.MobBrain` each, and a session key each for renderers), the player's
part in the push, natural spawning on grass near the player, spawning at a target (the M key),
despawning far mobs, velocity impulses from projectiles, a mob's saved form (`mob_state`,
`mob_from_state`), storing and restoring mobs through `World.set_column_entities` /
`World.column_entities`, and the views blended between ticks that the renderer draws.
Pure: no Ursina. Does not own: how a mob decides (`game.rules.mob_brain`), how bodies move and push
(`physics`), the player's own step (`game.rules.player`), projectiles (`game.rules.projectiles`), drawing
(`game.window.render.entity_view`) or when the world file is written (the game calls `World.save`).

One mob tick, `tick(players)`, runs right after the players' own steps (`Player.tick`), with
their bodies in join order (one body: a single-player game, exactly as before players were many):
1. restore: columns within RESTORE_RADIUS_COLUMNS of any player's column, met for the first
   time this session, hand back the mobs stored with them (player by player);
2. spawn: every SPAWN_INTERVAL_TICKS ticks, for each player in join order, while fewer mobs
   live than the cap (`natural_mob_cap`: MAX_NATURAL_MOBS for each player's worth of columns
   near the players), one mob may appear on a grass block near that player
   (spots drawn from the world seed, the tick and the player's place in the join order);
3. the players' push: in Beta the players are first in the world's entity list, so each one's
   update (its step, already done) ends by pushing every mob whose box meets its push region,
   in crowd order: `player, mob = physics.push(player, mob)`, player by player in join order;
4. every brain thinks (in crowd order), then `crowd.step(intents)`: each mob steps, then pushes
   the mobs meeting its push region (Beta's order among mobs);
5. the mobs' push on the players: every mob, in crowd order, pushes each player (in join order)
   that meets its push region: `mob, player = physics.push(mob, player)`. In Beta each of these
   comes right after that mob's own step; a push changes velocities only, and a mob's box after
   the crowd tick is its box after its own step, so the impulses are Beta's; only the order in
   which one mob's velocity sums them can differ (in the last bit);
6. despawn: mobs farther than DESPAWN_DISTANCE_BLOCKS (horizontally) from every player, or
   fallen below FALL_RESPAWN_Y (off the lab's floor, into the void), are removed.
Each player's next step carries the pushes it received, as in Beta. So a touching player and
mob are pushed twice a tick, once from each side, and neither is ever solid to the other.
The pairs that touch are found before any push (a push changes velocities, never boxes) by
`push_pairs`: with many players and mobs, every pair at once on arrays; with fewer, in buckets of
the ground (`push_candidates`) tested one by one. The pushes and their order are the same as
testing every pair in turn.

Everything here is a function of the world, the world seed, the players' bodies and the tick
count: no wall clock and no unseeded random numbers, so a replay gives the same mobs.

Saving: `save()` writes every live mob into the entity list of the column under its feet (and
empties the lists of columns whose mobs left); `World.save` then writes them with the blocks.
Falling blocks and projectiles share those lists: the mobs replace and restore only their own
entries (`game.rules.saved_entities.is_mob_entry`: every entry not of a kind in flight).
A mob is always either live here or stored with a column, never both: a column's stored mobs
are restored once per session, the first time the player comes near. Columns that the game
unloads never hold live mobs: DESPAWN_DISTANCE_BLOCKS is within the area the game keeps
loaded at the smallest view distance (see its note).

Restoring is forgiving, so no saved list can stop the mob tick: a saved mob that cannot be read
is kept in its column as it is (written back unchanged) and the others come back; a saved mob
whose body is an exact copy of a live or restored mob's (box, velocity and flags alike: a list
duplicated by hand or by a bad copy, never two real mobs, which no push could ever separate) is
dropped with a warning, so the next save writes it no more.
"""

from __future__ import annotations

import math
import random
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np

import physics
from physics import AABB, Body
from physics.body import require_finite
from physics.broad_phase import WorldCache
from physics.materials import FLUIDS
from physics.push import PUSH_REACH, push_region

from .derived_seeds import derived_seed
from .creature_brain import FUSE_TICKS, CreatureBrain, Senses
from .creature_kinds import CREATURE_KINDS, creature_kind
from .creature_life import DEATH_TICKS, CreatureLife, life_from_state, life_state, new_life
from .creature_rules import CreatureRules
from .mob_brain import BOXLING, MobBrain
from .mob_brain_rows import think_all
from .player import FALL_RESPAWN_Y, blend, surface_feet
from .saved_entities import is_mob_entry, replace_own
from .saved_values import body_fields, body_from_fields, preview
from .targeting import Target, placement_cell
from ..world.java_random import JavaRandom
from ..world.coords import CHUNK_SIZE, column_of

SPAWN_INTERVAL_TICKS = 60
"""[ticks] How often natural spawning is tried (every 3 s; the first try is at tick 60)."""
MAX_NATURAL_MOBS = 6
"""Natural spawning stops while this many mobs live around one player alone (mobs spawned with M
count, but M ignores it). Like Beta's mob cap (`SpawnerAnimals`: the most of a kind times the chunks
near any player, over 256), the cap grows with the columns near the players, counted once however
many players they are near (`natural_mob_cap`): players far apart bring MAX_NATURAL_MOBS each, a
crowd standing together shares them."""
SPAWN_AREA_RADIUS_COLUMNS = 2
"""[columns] The columns within this many (on x and on z) of a player's column count towards the
mob cap: natural spawns land within SPAWN_DISTANCE_BLOCKS (32 blocks, two columns) of a player."""
COLUMNS_NEAR_ONE_PLAYER = (2 * SPAWN_AREA_RADIUS_COLUMNS + 1) ** 2
"""[columns] The columns near one player alone: the cap is MAX_NATURAL_MOBS for these."""
PUSH_CELL_BLOCKS = 4.0
"""[blocks] The side of the ground buckets that find which bodies may push which (`push_candidates`):
wider than any body's push region (a boxling's or a player's 0.6 plus twice the push reach 0.2:
1.0), so a region meets at most two buckets on each axis."""
PUSH_BUCKETS_FROM_PAIRS = 256
"""Below this many player-mob pairs every pair is tested (buckets would cost more than they save)."""
PUSH_ARRAYS_FROM_PAIRS = 256
"""From this many pairs `push_pairs` tests every pair at once on arrays (~0.1 ms for 10,000 pairs, a
third of the buckets' Python). Measured in turns on a shared machine, the arrays against the buckets:
2 players and 150 mobs (300 pairs, both ways round) 0.16-0.49 ms against 0.9-1.3 ms, 20 x 20 0.08
against 0.28 ms; below 256 pairs every pair tested one by one costs less (10 x 10: 0.013 ms)."""
SPAWN_DISTANCE_BLOCKS = (16.0, 32.0)
"""[blocks] Natural spawns land this far from the player's feet, horizontally: out of arm's
reach, within the smallest view distance (2 columns, 32 blocks)."""
SPAWN_TRIES = 4
"""Spots tried per natural spawn; the first that is grass with room above it wins."""
SPAWN_GROUND = "grass"
"""Natural spawns stand only on this block."""
DESPAWN_DISTANCE_BLOCKS = 64.0
"""[blocks] A mob farther than this from the player, horizontally, is removed for good.

Why 64: the game keeps every column within view distance + 2 columns loaded (at least 4
columns at the smallest view distance, 2), and a mob within 64 blocks of the player stands in
a column at most 4 columns from the player's, so a live mob never stands in a column the game
unloaded (stepping it would load the column again)."""
RESTORE_RADIUS_COLUMNS = math.ceil(DESPAWN_DISTANCE_BLOCKS / CHUNK_SIZE)
"""[columns] Stored mobs come back when their column comes this near the player's column (on X
and Z): every column that can hold a live mob, so no column is written before it is restored."""
MOB_STATE_VERSION = 1
"""Written into each saved mob, so a later format can tell old mobs apart."""
DEGREES_PER_TURN = 360.0


class MobStateError(ValueError):
    """A saved mob that cannot be used; the message names the field."""


@dataclass(frozen=True, slots=True)
class MobView:
    """One mob as drawn in a frame: blended between its last two ticks."""

    key: int
    """Unique among this session's mobs (a renderer keys its models by it)."""
    box: AABB
    """[blocks] The box to draw (physics coordinates)."""
    yaw: float
    """[degrees] Where the mob faces (Minecraft's yaw)."""
    kind: str = BOXLING.name
    """"boxling" or a Beta creature's kind ("pig", "zombie", ...: `game.rules.creature_kinds`)."""
    limb_swing: float = 0.0
    """Beta's limbSwing: the phase of the walking legs."""
    limb_amount: float = 0.0
    """[0..1+] Beta's limbYaw: how far the legs swing now."""
    hurt: float = 0.0
    """[0..1] The red flash of a hit: 1 on the tick of the hit, fading over 10 ticks."""
    dying: float = 0.0
    """[0..1] 0 alive; then the 20 ticks of falling over, 1 on the last (then smoke)."""
    sheared: bool = False
    fuse: float = 0.0
    """[0..1] A creeper's fuse: it swells and flashes before exploding at 1."""
    burning: bool = False


# --- saved form ----------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SavedMob:
    """A mob read back from its column's entity list."""

    body: Body
    brain: MobBrain | CreatureBrain
    order: int
    """Its place among the live mobs when saved: mobs restored together rejoin in this order, so
    the crowd (whose order decides the order of pushes) is the one that was saved."""
    life: CreatureLife | None = None
    """A creature's life (None for a boxling)."""


def mob_state(body: Body, brain: MobBrain | CreatureBrain, order: int = 0, life: CreatureLife | None = None) -> dict:
    """A mob as JSON values for `World.set_column_entities`. The box is saved as its 6 floats and
    is authoritative (never rebuilt from a position); floats read back bit for bit. `order`: its
    place among the live mobs (see `SavedMob.order`)."""
    return {
        "version": MOB_STATE_VERSION,
        "kind": brain.kind.name,
        "order": order,
        **body_fields(body),
        "brain": brain.to_state(),
        **({} if life is None else {"life": life_state(life)}),
    }


def mob_from_state(state: object) -> SavedMob:
    """The mob saved by `mob_state`; MobStateError naming the field when it cannot be used (any
    value at all, however damaged or deeply nested, gives one or the other)."""
    try:
        return _mob_from_state(state)
    except RecursionError:
        raise MobStateError("a saved mob is nested too deeply to be a mob") from None


def _mob_from_state(state: object) -> SavedMob:
    if not isinstance(state, dict):
        raise MobStateError(f"a saved mob must be an object, got {type(state).__name__}")
    if state.get("version") != MOB_STATE_VERSION:
        raise MobStateError(f"a saved mob has version {preview(state.get('version'))}; this game reads "
                            f"{MOB_STATE_VERSION}")
    kind = state.get("kind")
    if kind != BOXLING.name and not (isinstance(kind, str) and kind in CREATURE_KINDS):
        raise MobStateError(f"unknown mob kind {preview(kind)}")
    order = state.get("order")
    if isinstance(order, bool) or not isinstance(order, int) or order < 0:
        raise MobStateError(f"a saved mob's 'order' must be a whole number >= 0, got {preview(order)}")
    body = body_from_fields(state, "a saved mob", MobStateError)
    life = None
    try:
        if kind == BOXLING.name:
            brain = MobBrain.from_state(state.get("brain"))
        else:
            brain = CreatureBrain.from_state(state.get("brain"))
            if brain.kind.name != kind:
                raise ValueError(f"its brain is a {brain.kind.name}'s")
            life = life_from_state(state.get("life"), brain.kind)
    except (TypeError, ValueError, KeyError, AttributeError) as error:
        raise MobStateError(f"a saved mob cannot be used: {error!r}") from None
    return SavedMob(body, brain, order, life)


def horizontal_distance(a: Body, b: Body) -> float:
    """[blocks] Between the feet centres of two bodies, on X and Z."""
    ax, _, az = a.feet
    bx, _, bz = b.feet
    return math.hypot(ax - bx, az - bz)


# --- the manager -----------------------------------------------------------------------------------

class MobManager:
    """The live mobs of one world; `tick(player)` advances them one tick after the player's step.

    `world`: a `game.rules.game_world.GameWorld` (its collision and material queries, `column`, `get_block`,
    `column_entities` and `set_column_entities`). `seed`: the world seed, from which every
    brain's and every natural spawn's random numbers are derived. `world_cache`: the block boxes
    the mobs' crowd shares with the session's other crowds (`physics.Crowd`'s `world_cache`).
    """

    def __init__(self, world, seed: int, creatures: bool = False, *,
                 world_cache: WorldCache | None = None) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"the mob seed must be an int (the world seed), got {seed!r}")
        if not isinstance(world, physics.CollisionWorld):
            raise TypeError(f"mobs need a world with collision_boxes(region), got {world!r}")
        self.world = world
        self.seed = seed
        self.ticks_run = 0
        """Mob ticks run this session; natural spawning is keyed by it (equal to the player's tick count)."""
        self.spawn_count = 0
        """Mobs made this session (spawned or restored); the next one's brain seed and key derive from it."""
        self._crowd = physics.Crowd(world, world_cache=world_cache)  # (a cache shared with the players' crowd, say)
        self._brains: list[MobBrain] = []
        self._keys: list[int] = []
        self._previous: list[tuple[Body, float]] = []
        """Each mob's body and yaw one tick earlier (views blend from them)."""
        self._restored: set[tuple[int, int]] = set()
        self._restored_around: set[tuple[int, int]] = set()
        """Player columns whose every column within RESTORE_RADIUS_COLUMNS is in `_restored`."""
        self._stored_columns: set[tuple[int, int]] = set()
        """Columns whose entity list in the world holds (or may hold) mobs this manager owns."""
        self._unreadable: dict[tuple[int, int], list[dict]] = {}
        """Saved mobs that could not be read, by column: written back unchanged with the column."""
        self._lives: list[CreatureLife | None] = []
        """Each mob's life: a Beta creature's health, fire and death (`game.rules.creature_life`);
        None for a boxling, which cannot be hurt."""
        self.creatures = CreatureRules(self, world, seed) if creatures else None
        """Beta's creatures' own rules (`game.rules.creature_rules`): natural spawning of animals and
        monsters instead of boxlings, their senses, lives, deaths and actions; None: a boxling game
        (creative worlds), exactly as before creatures."""

    # --- reading -------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._brains)

    @property
    def bodies(self) -> tuple[Body, ...]:
        """The mobs' bodies, in crowd order (the F3 overlay draws their boxes)."""
        return self._crowd.bodies

    @property
    def brains(self) -> tuple[MobBrain, ...]:
        return tuple(self._brains)

    @property
    def keys(self) -> tuple[int, ...]:
        return tuple(self._keys)

    def views(self, alpha: float) -> list[MobView]:
        """Every mob `alpha` (0..1) of the way from its previous tick to its latest one."""
        views = []
        for key, body, brain, life, (before, yaw_before) in zip(self._keys, self.bodies, self._brains, self._lives,
                                                                  self._previous):
            box = AABB._trusted(*(blend(p, c, alpha) for p, c in zip(before.box, body.box)))
            turn = (brain.yaw - yaw_before + DEGREES_PER_TURN / 2) % DEGREES_PER_TURN - DEGREES_PER_TURN / 2
            yaw = (yaw_before + turn * alpha) % DEGREES_PER_TURN
            if life is None:
                views.append(MobView(key, box, yaw))
                continue
            (swing_before, amount_before) = life.limbs_before
            views.append(MobView(
                key, box, yaw, brain.kind.name, blend(swing_before, life.limb_swing, alpha),
                blend(amount_before, life.limb_amount, alpha), life.flash,
                min(life.death_ticks / DEATH_TICKS, 1.0), life.sheared, brain.fuse / FUSE_TICKS,
                life.vitals.fire_ticks > 0))
        return views

    @property
    def previous(self) -> tuple[tuple[Body, float], ...]:
        """Each mob's body and yaw before this tick's step, in crowd order (a creature's limbs swing by
        how far it moved)."""
        return tuple(self._previous)

    @property
    def kinds(self) -> tuple[str, ...]:
        """Each mob's kind, in crowd order ("boxling" or a creature's)."""
        return tuple(brain.kind.name for brain in self._brains)

    @property
    def lives(self) -> tuple[CreatureLife | None, ...]:
        """Each mob's life, in crowd order (None: a boxling)."""
        return tuple(self._lives)

    def voices(self) -> list[tuple]:
        """(key, body) of every boxling and (key, body, its kind's idle sound) of every living creature,
        in crowd order: what `sounds.SoundRules.mob_voices` hears (the dead say nothing)."""
        return [(key, body) if life is None else (key, body, brain.kind.say_sound)
                for key, body, brain, life in zip(self._keys, self.bodies, self._brains, self._lives)
                if life is None or not life.dead]

    def index_of(self, key: int) -> int | None:
        """The crowd index of the mob with `key` (None: gone)."""
        try:
            return self._keys.index(key)
        except ValueError:
            return None

    # --- spawning ------------------------------------------------------------------------------

    def has_room(self, box: AABB, others: Iterable[Body] = ()) -> bool:
        """Whether `box` overlaps no block and none of `others` and no mob by more than the contact
        tolerance, and no water or lava."""
        tolerance = physics.CONTACT_TOLERANCE
        if any(box.overlap_depth(b) > tolerance for b in self.world.collision_boxes(box)):
            return False
        if any(box.overlap_depth(body.box) > tolerance for body in (*self.bodies, *others)):
            return False
        return not self._in_fluid(box)

    def _in_fluid(self, box: AABB) -> bool:
        """Whether a cell `box` overlaps is water or lava (the world's `materials_in`)."""
        x0, y0, z0 = (math.floor(v) for v in box[:3])
        x1, y1, z1 = (math.ceil(v) - 1 for v in box[3:])
        return not FLUIDS.isdisjoint(self.world.materials_in(x0, y0, z0, x1, y1, z1).values())

    def spawn(self, feet: Sequence[float], yaw: float = 0.0, others: Iterable[Body] = ()) -> int:
        """Add a boxling at rest with its feet centre at `feet` facing `yaw` [degrees]; returns its key.

        Its brain's seed derives from the world seed and `spawn_count`. ValueError when its box
        would overlap a block, a mob or one of `others` (bodies such as the player) or the
        values are not finite; nothing changes then. Water and lava count as no room (a mob is
        never made in a fluid)."""
        x, y, z = _three_numbers("feet", feet, limit=math.inf)
        require_finite("mob yaw", yaw)
        body = Body.at_feet(x, y, z, BOXLING.width, BOXLING.height)
        if not self.has_room(body.box, others):
            raise ValueError(f"no room for a mob at {tuple(feet)!r}: its box would overlap a block, water, lava "
                             "or a body")
        brain = MobBrain(BOXLING, derived_seed("mob", self.seed, self.spawn_count), float(yaw) % DEGREES_PER_TURN)
        return self._add(body, brain)

    def spawn_creature(self, kind: str, feet: Sequence[float], yaw: float = 0.0, others: Iterable[Body] = ()) -> int:
        """Add a Beta creature of `kind` ("pig", "zombie", ...) at rest with its feet centre at `feet`;
        returns its key. ValueError for an unknown kind or when there is no room (as `spawn`)."""
        kind = creature_kind(kind)
        x, y, z = _three_numbers("feet", feet, limit=math.inf)
        require_finite("mob yaw", yaw)
        body = Body.at_feet(x, y, z, kind.width, kind.height)
        if not self.has_room(body.box, others):
            raise ValueError(f"no room for a {kind.name} at {tuple(feet)!r}: its box would overlap a block, water, "
                             "lava or a body")
        seed = derived_seed("creature", self.seed, self.spawn_count)
        brain = CreatureBrain(kind, seed, float(yaw) % DEGREES_PER_TURN, self._senses())
        return self._add(body, brain, new_life(kind, JavaRandom(derived_seed("creature life", seed))))

    def _senses(self) -> Senses:
        return self.creatures.senses if self.creatures is not None else Senses()

    def spawn_at_target(self, target: Target | None, yaw: float, others: Iterable[Body] = ()) -> int | None:
        """The M key: a mob on the targeted face (standing on it, or beside it), facing `yaw`;
        its key, or None when nothing is targeted or there is no room (no error: a player's action)."""
        if target is None:
            return None
        if not isinstance(target, Target):
            raise TypeError(f"spawn_at_target needs a targeting.Target, got {target!r}")
        x, y, z = placement_cell(target)
        # On a top face the feet rest on the hit box (a slab's top is half a block up); beside a
        # side face the feet start at the cell's floor and fall if nothing holds them.
        feet_y = target.box[4] if target.face == (0, 1, 0) else float(y)
        others = tuple(others)
        feet = (x + 0.5, feet_y, z + 0.5)
        if not self.has_room(AABB.around_feet(*feet, BOXLING.width, BOXLING.height), others):
            return None
        return self.spawn(feet, yaw, others)

    def _spawn_naturally(self, player: Body, order: int = 0, others: Sequence[Body] | None = None) -> None:
        """One try at a natural spawn near `player` (see SPAWN_*), the `order`-th player in join
        order: spots drawn from the world seed, the tick (and `order`, after the first player), with
        room clear of `others` (every player's body; by default `player`'s alone)."""
        parts = ("spawn", self.seed, self.ticks_run) + ((order,) if order else ())
        spots = random.Random(derived_seed(*parts))
        others = (player,) if others is None else tuple(others)
        px, _, pz = player.feet
        for _ in range(SPAWN_TRIES):
            angle = spots.uniform(0.0, 2.0 * math.pi)
            distance = spots.uniform(*SPAWN_DISTANCE_BLOCKS)
            yaw = spots.uniform(0.0, DEGREES_PER_TURN)
            bx, bz = math.floor(px + math.cos(angle) * distance), math.floor(pz + math.sin(angle) * distance)
            feet = surface_feet(self.world, bx + 0.5, bz + 0.5)
            ground_y = math.ceil(feet[1]) - 1
            if ground_y < 0 or self.world.get_block(bx, ground_y, bz) != SPAWN_GROUND:
                continue
            if self.has_room(AABB.around_feet(*feet, BOXLING.width, BOXLING.height), others):
                self.spawn(feet, yaw, others)
                return

    # --- the tick --------------------------------------------------------------------------------

    def tick(self, players: Body | Sequence[Body], alive: Sequence[bool] | None = None) -> Body | tuple[Body, ...]:
        """Advance every mob one tick (see the module docstring) with the players' bodies, in join
        order; returns them with the mobs' pushes added to their velocities (one body given: that
        body; a sequence: a tuple, same order). Call it once per tick, right after the players'
        steps. `alive`: whether each player is alive (creatures hunt only the living; default all).
        TypeError unless each is a physics.Body; nothing changes then."""
        one = isinstance(players, Body)
        bodies_of_players = [players] if one else list(players) if isinstance(players, Sequence) else None
        if bodies_of_players is None or not all(isinstance(body, Body) for body in bodies_of_players):
            raise TypeError(f"tick needs the players' physics.Body (or a sequence of them), got {players!r}")
        for player in bodies_of_players:
            self._restore_around(player)
        if self.creatures is not None:
            self.creatures.before_think(bodies_of_players, alive)
        elif self.ticks_run and self.ticks_run % SPAWN_INTERVAL_TICKS == 0:
            cap = natural_mob_cap(bodies_of_players)
            for order, player in enumerate(bodies_of_players):
                if len(self) < cap:
                    self._spawn_naturally(player, order, bodies_of_players)
        self._previous = [(body, brain.yaw) for body, brain in zip(self.bodies, self._brains)]

        bodies = list(self.bodies)
        player_boxes = box_array([body.box for body in bodies_of_players])
        self._players_push(bodies_of_players, bodies, player_boxes)
        if bodies != list(self.bodies):
            self.replace_bodies(bodies)
        world = self.world
        intents = think_all(self._brains, self.bodies, world, self._crowd.world_cache, user=self)
        if self.creatures is not None:
            self.creatures.take_leaps()
        self._crowd.step(intents)

        bodies = list(self.bodies)
        self._pushes_on_players(bodies_of_players, bodies, player_boxes)
        if bodies != list(self.bodies):
            self.replace_bodies(bodies)
        if self.creatures is not None:
            self.creatures.after_step(bodies_of_players)
        self._despawn_far_from(bodies_of_players)
        self.ticks_run += 1
        return bodies_of_players[0] if one else tuple(bodies_of_players)

    @staticmethod
    def _players_push(players: list[Body], bodies: list[Body], player_boxes: np.ndarray) -> None:
        """Step 3: each player (Beta's `me`), in join order, pushes every mob meeting its push region,
        in crowd order (`players` and the mobs' `bodies` are updated in place; `player_boxes`: the
        players' boxes, `box_array`)."""
        for p, i in pushes_by(player_boxes, [mob.box for mob in bodies]):
            players[p], bodies[i] = physics.push(players[p], bodies[i])

    @staticmethod
    def _pushes_on_players(players: list[Body], bodies: list[Body], player_boxes: np.ndarray) -> None:
        """Step 5: every mob (Beta's `me`), in crowd order, pushes each player meeting its push
        region, in join order (`players` and `bodies` are updated in place; `player_boxes`: the
        players' boxes, unchanged since step 3: a push changes velocities alone)."""
        for i, p in pushes_by([mob.box for mob in bodies], player_boxes):
            bodies[i], players[p] = physics.push(bodies[i], players[p])

    def knock_back(self, index: int, impulse: Sequence[float]) -> None:
        """Add `impulse` (dvx, dvy, dvz) [blocks/tick] to the velocity of mob `index` (crowd order),
        e.g. a projectile's hit. IndexError for a bad index, ValueError for a non-finite impulse."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self):
            raise IndexError(f"no mob {index!r}: there are {len(self)}")
        dvx, dvy, dvz = _three_numbers("impulse", impulse)
        bodies = list(self.bodies)
        mob = bodies[index]
        vx, vy, vz = mob.velocity
        bodies[index] = Body(mob.box, (vx + dvx, vy + dvy, vz + dvz), mob.on_ground, mob.collided_horizontally,
                             mob.collided_vertically, mob.camera_lag)
        self.replace_bodies(bodies)

    def _despawn_far_from(self, players: Sequence[Body]) -> None:
        """Step 6: remove the mobs farther than DESPAWN_DISTANCE_BLOCKS from every player (with no
        player, none by distance) or fallen into the void."""
        feet = [player.feet for player in players]  # `horizontal_distance`, each player's feet read once
        far = []
        for i, body in enumerate(self.bodies):
            x, y, z = body.feet
            if y < FALL_RESPAWN_Y or (feet and _beyond_every(x, z, feet)):
                far.append(i)
        for i in reversed(far):
            self.remove_at(i)

    # --- saving ------------------------------------------------------------------------------------

    def save(self) -> None:
        """Store every live mob with the column under its feet (`World.set_column_entities`) and empty
        the stored lists of columns its mobs left; the world writes them on its next `save()`.
        The mobs stay live. A column not restored yet is restored first, so no stored mob is lost."""
        self._restore(sorted({_column_under(body) for body in self.bodies}))
        by_column: dict[tuple[int, int], list[dict]] = {}
        for order, (body, brain, life) in enumerate(zip(self.bodies, self._brains, self._lives)):
            if life is not None and life.dead:
                continue  # a dying creature has dropped its items already: it is not kept
            by_column.setdefault(_column_under(body), []).append(mob_state(body, brain, order, life))
        for key in sorted(by_column.keys() | self._stored_columns | self._unreadable.keys()):
            # Only the mobs' entries are replaced: falling blocks and projectiles share the list.
            replace_own(self.world, key, is_mob_entry, self._unreadable.get(key, []) + by_column.get(key, []))
        self._stored_columns = set(by_column)

    def _restore_around(self, player: Body) -> None:
        """Step 1: restore the columns within RESTORE_RADIUS_COLUMNS of the player's column."""
        pcx, pcz = _column_under(player)
        if (pcx, pcz) in self._restored_around:
            return  # every column around it was restored already (each player asks every tick)
        self._restored_around.add((pcx, pcz))
        radius = RESTORE_RADIUS_COLUMNS
        self._restore([(cx, cz) for cx in range(pcx - radius, pcx + radius + 1)
                       for cz in range(pcz - radius, pcz + radius + 1)])

    def _restore(self, columns: Iterable[tuple[int, int]]) -> None:
        """Bring back the stored mobs of those `columns` not restored yet this session, in their saved
        order; unreadable ones are kept as they are and exact copies dropped (see the module docstring)."""
        restored: list[tuple[tuple[int, int], SavedMob]] = []
        for key in columns:
            if key in self._restored:
                continue
            self._restored.add(key)
            stored = [state for state in self.world.column_entities(*key) if is_mob_entry(state)]
            if stored:
                self._stored_columns.add(key)
            for state in stored:
                try:
                    restored.append((key, mob_from_state(state)))
                except MobStateError as error:
                    # Keep it as it was (never overwrite what cannot be read); the others still come back.
                    self._unreadable.setdefault(key, []).append(state)
                    warnings.warn(f"a mob saved in column {key} cannot be used and is kept as it is: {error}",
                                  stacklevel=2)
        if not restored:
            return  # the usual tick: no set of every live body to build (each player asks every tick)
        present = set(self.bodies)
        for key, mob in sorted(restored, key=lambda item: item[1].order):
            if mob.body in present:
                warnings.warn(f"a mob saved in column {key} is an exact copy of another mob and is dropped",
                              stacklevel=2)
                continue
            present.add(mob.body)
            self._add(mob.body, mob.brain, mob.life)

    # --- membership ----------------------------------------------------------------------------------

    def _add(self, body: Body, brain: MobBrain | CreatureBrain, life: CreatureLife | None = None) -> int:
        self._crowd.add(body)
        key = self.spawn_count
        self.spawn_count += 1
        if isinstance(brain, CreatureBrain):
            brain.senses = self._senses()
        self._lives.append(life)
        self._brains.append(brain)
        self._keys.append(key)
        self._previous.append((body, brain.yaw))
        return key

    def remove_at(self, index: int) -> None:
        """Take mob `index` (crowd order) out of the world: its body, brain and life (a creature's
        rules call it for the dead, the despawned and the monsters of a peaceful game). IndexError
        for a bad index."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self):
            raise IndexError(f"no mob {index!r}: there are {len(self)}")
        self._crowd.remove(self._crowd.handles[index])
        del self._brains[index], self._keys[index], self._previous[index], self._lives[index]

    def replace_bodies(self, bodies: list[Body]) -> None:
        """Put `bodies` in the crowd in place of the mobs' bodies, same order (after a push, a knock
        or a leap)."""
        for handle, old, new in zip(self._crowd.handles, self._crowd.bodies, bodies):
            if new is not old:
                self._crowd.replace(handle, new)


def natural_mob_cap(players: Sequence[Body]) -> int:
    """How many mobs may live before natural spawning stops (see MAX_NATURAL_MOBS): MAX_NATURAL_MOBS
    for every COLUMNS_NEAR_ONE_PLAYER columns near any of `players`, rounded down as Beta does."""
    reach = range(-SPAWN_AREA_RADIUS_COLUMNS, SPAWN_AREA_RADIUS_COLUMNS + 1)
    near = set()
    for player in players:
        cx, cz = _column_under(player)
        near.update((cx + dx, cz + dz) for dx in reach for dz in reach)
    return MAX_NATURAL_MOBS * len(near) // COLUMNS_NEAR_ONE_PLAYER


def push_pairs(regions: Sequence[AABB], boxes: Sequence[AABB]) -> list[tuple[int, int]]:
    """Every (r, b) such that `regions[r]` meets `boxes[b]` (strictly, as `AABB.intersects`), by r
    and then b: the pushes of one step, in their order (a push changes velocities, never boxes, so
    the pairs can be found before any is pushed). From PUSH_ARRAYS_FROM_PAIRS pairs on, on arrays
    (`_pairs_on_arrays`); below, `push_candidates` tested one by one (`push_pairs_one_by_one`, the
    readable twin)."""
    if len(regions) * len(boxes) < PUSH_ARRAYS_FROM_PAIRS:
        return push_pairs_one_by_one(regions, boxes)
    return _pairs_on_arrays(box_array(regions), box_array(boxes))


def pushes_by(pushers: BoxesOrArray, boxes: BoxesOrArray) -> list[tuple[int, int]]:
    """`push_pairs([push_region(box) for box in pushers], boxes)`: which of `boxes` each of the boxes
    `pushers` pushes (each a sequence of AABBs or an (n, 6) array of their corners, `box_array`:
    a tick's player boxes are made once for its three push passes). On arrays
    the regions are the pushers' array plus the push reach (the sums `push_region` makes, the same
    floats: adding -reach is subtracting it), not an AABB made for each pusher (a hundred mobs a
    tick)."""
    if len(pushers) * len(boxes) < PUSH_ARRAYS_FROM_PAIRS:
        return push_pairs([push_region(box) for box in _aabbs(pushers)], _aabbs(boxes))
    return _pairs_on_arrays(_as_array(pushers) + _PUSH_GROWTH, _as_array(boxes))


BoxesOrArray = Sequence[AABB] | np.ndarray
"""Boxes as AABBs, or as an (n, 6) float array of their corners (x0, y0, z0, x1, y1, z1)."""

_PUSH_GROWTH = np.array([-PUSH_REACH, 0.0, -PUSH_REACH, PUSH_REACH, 0.0, PUSH_REACH])
"""What `push_region` adds to a box's (x0, y0, z0, x1, y1, z1): the push reach on x and z."""

SWEEP_SLACK_BLOCKS = 1.0
"""[blocks] `_pairs_on_arrays` takes as candidates of a region every box whose low x lies within
the widest box's width and this much (plus a millionth of a millionth of the largest coordinate)
below the region's low x: room for the rounding of the width and the difference, which is
below a unit in the last place of the coordinates, so no box meeting the region is left out."""


def box_array(boxes: Sequence[AABB]) -> np.ndarray:
    """`boxes` as an (n, 6) float array (the AABBs' corners, in their order)."""
    return np.fromiter(chain.from_iterable(boxes), np.float64, 6 * len(boxes)).reshape(-1, 6)


def _as_array(boxes: BoxesOrArray) -> np.ndarray:
    return boxes if isinstance(boxes, np.ndarray) else box_array(boxes)


def _aabbs(boxes: BoxesOrArray) -> Sequence[AABB]:
    return [AABB._trusted(*row) for row in boxes.tolist()] if isinstance(boxes, np.ndarray) else boxes


def _pairs_on_arrays(r: np.ndarray, b: np.ndarray) -> list[tuple[int, int]]:
    """`push_pairs` for the regions `r` and boxes `b` ((n, 6) and (m, 6) arrays), by a sweep along x:
    the boxes sorted by their low x, each region tests only those whose low x lies below its high
    x (a binary search: the strict test itself) and above its low x less the widest box's width
    and SWEEP_SLACK_BLOCKS (every box reaching past the region's low x is among them). Each
    candidate pair is tested as `AABB.intersects` does, corner by corner; the pairs come sorted by
    region, then box. For bodies spread over the ground a region has a few candidates, so this
    costs about the regions plus the boxes, not their product (`_pairs_every_one`, which tests
    every pair at once, is its twin in the tests)."""
    n, m = len(r), len(b)
    if not n or not m:
        return []
    low_x = b[:, 0]
    order = low_x.argsort(kind="stable")
    by_low_x = b.take(order, axis=0)
    sorted_low = by_low_x[:, 0]
    widest = float((b[:, 3] - low_x).max())
    largest = max(abs(float(sorted_low[0])), abs(float(sorted_low[-1])), float(np.abs(r[:, 0]).max()))
    first = sorted_low.searchsorted(r[:, 0] - (widest + SWEEP_SLACK_BLOCKS + 1e-12 * largest), side="left")
    past = sorted_low.searchsorted(r[:, 3], side="left")  # every box before it has low x < the region's high x
    count = np.maximum(past - first, 0)
    region = np.arange(n).repeat(count)
    place = (first - (count.cumsum() - count)).repeat(count) + np.arange(region.size)
    rr, bb = r.take(region, axis=0), by_low_x.take(place, axis=0)
    meets = rr[:, 0] < bb[:, 3]
    meets &= rr[:, 4] > bb[:, 1]
    meets &= rr[:, 1] < bb[:, 4]
    meets &= rr[:, 5] > bb[:, 2]
    meets &= rr[:, 2] < bb[:, 5]
    key = region.compress(meets) * m + order.take(place.compress(meets))  # by region, then box
    key.sort()
    return list(zip((key // m).tolist(), (key % m).tolist()))


def _pairs_every_one(r: np.ndarray, b: np.ndarray) -> list[tuple[int, int]]:
    """`_pairs_on_arrays` with every pair tested at once (an (n, m) table): its twin in the tests."""
    c = b.T
    meets = r[:, 3:4] > c[0]  # AABB.intersects, every pair at once
    meets &= r[:, 0:1] < c[3]
    meets &= r[:, 4:5] > c[1]
    meets &= r[:, 1:2] < c[4]
    meets &= r[:, 5:6] > c[2]
    meets &= r[:, 2:3] < c[5]
    found_r, found_b = np.nonzero(meets)  # row-major: by region, then by box
    return list(zip(found_r.tolist(), found_b.tolist()))


def push_pairs_one_by_one(regions: Sequence[AABB], boxes: Sequence[AABB]) -> list[tuple[int, int]]:
    """`push_pairs`, each candidate (`push_candidates`) tested with `AABB.intersects`."""
    near = push_candidates(regions, boxes)
    return [(r, b) for r, region in enumerate(regions) for b in near[r] if region.intersects(boxes[b])]


def push_candidates(regions: Sequence[AABB], boxes: Sequence[AABB]) -> list[Sequence[int]]:
    """For each of `regions`, the indices of `boxes` (ascending) that may meet it: every one that
    does, and perhaps a few more (the caller tests each). Every index for every region when there
    are few pairs; otherwise from ground buckets of PUSH_CELL_BLOCKS (a box wider than a bucket is
    listed for every region)."""
    if len(regions) * len(boxes) < PUSH_BUCKETS_FROM_PAIRS:
        every = range(len(boxes))
        return [every] * len(regions)
    size = PUSH_CELL_BLOCKS
    buckets: dict[tuple[int, int], list[int]] = {}
    wide: list[int] = []
    for index, box in enumerate(boxes):
        if box[3] - box[0] > size or box[5] - box[2] > size:
            wide.append(index)
            continue
        for bx in {math.floor(box[0] / size), math.floor(box[3] / size)}:
            for bz in {math.floor(box[2] / size), math.floor(box[5] / size)}:
                buckets.setdefault((bx, bz), []).append(index)
    found = []
    for region in regions:
        x0, x1 = math.floor(region[0] / size), math.floor(region[3] / size)
        z0, z1 = math.floor(region[2] / size), math.floor(region[5] / size)
        near = set(wide)
        for bx in range(x0, x1 + 1):
            for bz in range(z0, z1 + 1):
                near.update(buckets.get((bx, bz), ()))
        found.append(sorted(near))
    return found


def _beyond_every(x: float, z: float, feet: Sequence[tuple[float, float, float]]) -> bool:
    """Whether (x, z) is farther than DESPAWN_DISTANCE_BLOCKS horizontally from every one of `feet`:
    `all(...)` over them, as a loop (a generator for every mob every tick cost more than the test)."""
    for px, _, pz in feet:
        if not math.hypot(x - px, z - pz) > DESPAWN_DISTANCE_BLOCKS:
            return False
    return True


def _column_under(body: Body) -> tuple[int, int]:
    x, _, z = body.feet
    return column_of(math.floor(x), math.floor(z))


def _three_numbers(what: str, values: object, limit: float = physics.tolerances.MAX_DISPLACEMENT,
                   ) -> tuple[float, float, float]:
    """`values` as three floats; TypeError unless three numbers, ValueError unless finite and within `limit`."""
    try:
        items = tuple(values)
    except TypeError:
        items = ()
    if len(items) != 3:
        raise TypeError(f"{what} must be three numbers (x, y, z), got {values!r}")
    require_finite(what, *items, limit=limit)
    return float(items[0]), float(items[1]), float(items[2])
