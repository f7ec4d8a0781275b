"""Where and when Beta's creatures appear and go: natural spawning near players, the animals of a
newly generated column, despawning, and the light a creature reads.

Owns: `Spawner` (Beta 1.7.3's `SpawnerAnimals.performSpawning`, run once a tick: `Spawner.natural`),
`world_gen` (Beta 1.8's `performWorldGenSpawning` for a column generated for the first time: Beta
1.7.3's `ChunkProviderGenerate.populate` has none, so its animals came only from natural spawning),
`despawn` (`EntityLiving.despawnEntity`), and the light readings the creatures' rules need:
`creature_light` (`Entity.getEntityBrightness`), `block_light_value` (`World.getBlockLightValue`),
`BRIGHTNESS` (`WorldProvider.lightBrightnessTable`) and `can_see_sky` (`World.canBlockSeeTheSky`).
Every result is a frozen `SpawnPlan` or a verdict: it decides, the caller creates the creatures.
Does not own: the creatures (`game.rules.creatures*`), their sizes (`game.rules.creature_kinds`),
light or blocks (the world, read through `game.rules.game_world.GameWorld`), or the time of day.
Pure: randomness is a `game.world.java_random.JavaRandom` (the spawner's own, or the caller's).

Beta's rules, and where Boxel differs:
- Natural spawning (`Spawner.natural`) is Beta's loop draw for draw: the 17 x 17 columns around
  each player, each category's cap (monster 70, creature 15, times those columns / 256), per column
  one weighted kind and one random spot (y in 0..127; the cap counts every one of those columns,
  loaded or not, as Beta does), three packs of four tries spreading by
  nextInt(6) - nextInt(6), no spawn within 24 blocks of a player (measured from Beta's player posY,
  1.62 above the feet) or of the world spawn, then the kind's `getCanSpawnHere` (EntityMob's light
  draws, EntityAnimal's lit grass, room for the box). Columns that are not loaded still take their
  draws but never spawn (nothing here loads or generates a column). Beta walks its HashSet of
  columns in hash order; Boxel walks them sorted. Beta draws a mob's light checks from the mob's own
  unseeded random; Boxel draws them from the spawner's, so a seed gives the same spawns every time.
  Beta's monster list has the slime (weight 10); Boxel has none, so a slime pick spawns nothing, as
  Beta's slime fails outside slime chunks, keeping Beta's odds for the other four.
- Beta runs it every tick; so does the caller. A category over its cap draws nothing (0.1 ms a
  tick for one player, 0.7-1 ms for ten); under it a tick costs 3-4 ms for one player (measured on
  the 2-core development machine), since most of Beta's 289 spots a tick must be drawn and looked
  at. The fast path (`_Attempt.columns_fast`: spots drawn inline, blocks read from per-column flags
  `_ColumnFlags`, pack draws inline in `_pack_step` or jumped) has readable twins that the tests
  hold it equal to: `_Attempt.column` (`Spawner.reference = True`), `_pack_step_reference` and
  `spawnable_location`.
- World-generation animals (`world_gen`) follow Beta 1.8 inside the column itself (Beta 1.8 spreads
  them over the populate square offset by 8 blocks, over four columns that may not exist yet), and
  only on grass (Beta 1.8's deserts list no animals; Boxel has no biome lookup here).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np

from physics import AABB
from physics.floats import f32
from physics.materials import Material

from ..world.blocks import AIR, FULL_CUBE, LIGHT_OPACITY, MATERIAL, OPAQUE, SOLID, block_id
from ..world.coords import WORLD_HEIGHT
from ..world.day_cycle import skylight_subtracted
from ..world.java_random import ADDEND, MASK, MULTIPLIER, JavaRandom
from .creature_kinds import ANIMAL, CREATURE_KINDS, MONSTER
from .game_world import GameWorld, StreamedWorld

Feet = tuple[float, float, float]

# --- Beta's numbers -----------------------------------------------------------------------------------

SPAWN_RADIUS_COLUMNS = 8
"""[columns] `performSpawning` takes the columns within 8 (on x and z) of each player's column."""
CAPS = {MONSTER: 70, ANIMAL: 15}
"""[creatures per CAP_AREA_COLUMNS] `EnumCreatureType.getMaxNumberOfCreature`."""
CAP_AREA_COLUMNS = 256
"""[columns] The cap is cap * eligible columns / 256 (Java int division); 17 x 17 columns: monster 79, creature 16."""
SPOT_HEIGHT = 128
"""[blocks] `getRandomSpawningPointInChunk` draws y in 0..127 (Beta's world height)."""
PACKS, PACK_TRIES, PACK_SPREAD = 3, 4, 6
"""Beta's pack loop: 3 packs of 4 tries, each moving x and z by nextInt(6) - nextInt(6)."""
MAX_PACK = 4
"""`EntityLiving.getMaxSpawnedInChunk`: a column's attempt ends once 4 have spawned."""
PLAYER_CLEARANCE = 24.0
"""[blocks] `getClosestPlayer(x, y, z, 24.0)`: nothing spawns closer to a player."""
SPAWN_CLEARANCE_SQ = f32(576.0)
"""[blocks^2] Nothing spawns within 24 blocks of the world spawn (Beta compares squares in float)."""
PLAYER_POS_Y_OFFSET = f32(1.62)
"""[blocks] `EntityPlayer.yOffset`: Beta's player posY is 1.62 above the feet; distances use it."""
SKY_LIGHT_ODDS = 32
"""`EntityMob.getCanSpawnHere`: no spawn when sky light > nextInt(32)."""
BLOCK_LIGHT_ODDS = 8
"""... then no spawn when the light value (sky light less the night's dimming, or block light) > nextInt(8)."""
ANIMAL_MIN_LIGHT = 8
"""`EntityAnimal.getCanSpawnHere`: the full light (no night dimming) must exceed 8."""
JOCKEY_ODDS = 100
"""`creatureSpecificInit`: a spawned spider carries a skeleton when nextInt(100) == 0."""

MONSTER_SPAWNS = (("spider", 10), ("zombie", 10), ("skeleton", 10), ("creeper", 10), ("slime", 10))
"""`BiomeGenBase.spawnableMonsterList`, in its order (every Beta 1.7.3 overworld biome's list)."""
ANIMAL_SPAWNS = (("sheep", 12), ("pig", 10), ("chicken", 10), ("cow", 8))
"""`BiomeGenBase.spawnableCreatureList`, in its order."""
SPAWN_LISTS = {MONSTER: MONSTER_SPAWNS, ANIMAL: ANIMAL_SPAWNS}
_PICK_TABLES = {category: tuple(kind for kind, weight in entries for _ in range(weight))
                for category, entries in SPAWN_LISTS.items()}
"""The kind each value of nextInt(total weight) picks."""
CATEGORY_ORDER = (MONSTER, ANIMAL)
"""`EnumCreatureType.values()` order (the water creatures, squid, Boxel lacks)."""
NEVER_SPAWNED = frozenset({"slime"})
"""Kinds Beta's lists hold that Boxel has not: picked (keeping Beta's draws and odds), never spawned."""

DESPAWN_FAR_SQ = 16384.0
"""[blocks^2] `despawnEntity`: farther than 128 from the closest player: gone."""
DESPAWN_NEAR_SQ = 1024.0
"""[blocks^2] ... on its 1-in-800 draw: gone unless within 32, where its age restarts instead."""
DESPAWN_MIN_AGE = 600
"""[ticks] The 1-in-800 draw comes only after 600 ticks of age."""
DESPAWN_ODDS = 800

WORLD_GEN_CHANCE = f32(0.1)
"""`BiomeGenBase.getSpawningChance` (Beta 1.8): another group while nextFloat() < 0.1F."""
WORLD_GEN_GROUP = 4
"""Beta 1.8's animal entries: minGroupCount = maxGroupCount = 4 (nextInt(1) still drawn)."""
WORLD_GEN_TRIES, WORLD_GEN_SPREAD = 4, 5
"""Each of the group gets 4 tries, moving by nextInt(5) - nextInt(5) inside the column."""

_BRIGHTNESS_FLOOR = np.float32(0.05)
"""`WorldProvider.generateLightBrightnessTable`'s 0.05F: the darkest level's brightness."""


def _brightness_table() -> tuple[float, ...]:
    one, three, fifteen = np.float32(1.0), np.float32(3.0), np.float32(15.0)
    table = []
    for level in range(16):
        dark = one - np.float32(level) / fifteen
        table.append(float((one - dark) / (dark * three + one) * (one - _BRIGHTNESS_FLOOR) + _BRIGHTNESS_FLOOR))
    return tuple(table)


BRIGHTNESS = _brightness_table()
"""Beta's `lightBrightnessTable` (float32 values) by light level 0..15: 0.05 at 0, 1.0 at 15."""

# --- block classes, by id ---------------------------------------------------------------------------

NORMAL_CUBE = OPAQUE & FULL_CUBE
"""`World.isBlockNormalCube`: an opaque, whole-cube block (not glass, leaves, slabs, stairs, doors)."""
LIQUID = np.isin(MATERIAL, (int(Material.WATER), int(Material.LAVA)))
"""`Material.getIsLiquid`: water and lava at every level."""
GRASS = block_id("grass")
LEAVES = block_id("leaves")
NEIGHBOUR_LIT = np.zeros(len(MATERIAL), dtype=bool)
"""Beta's `getBlockLightValue` reads these blocks' light from their brightest neighbour (above and
the four sides): its half slab, stairs and farmland."""
NEIGHBOUR_LIT[[block_id(name) for name in ("stone_slab", "stone_slab_top", "stairs_north", "stairs_south",
                                          "stairs_east", "stairs_west")]] = True
for _array in (NORMAL_CUBE, LIQUID, NEIGHBOUR_LIT):
    _array.flags.writeable = False


@dataclass(frozen=True, slots=True)
class SpawnPlan:
    """One creature to create: what, where its feet are and which way it faces."""

    kind: str
    """A `game.rules.creature_kinds` name."""
    feet: Feet
    """[blocks] The bottom centre of its box (Beta's setLocationAndAngles x, y, z)."""
    yaw: float
    """[degrees] nextFloat() * 360 (float32)."""
    fleece: int = 0
    """A sheep's wool colour (Beta's metadata: 0 white, 15 black, 7 and 8 greys, 12 brown, 6 pink)."""
    rides_previous: bool = False
    """A skeleton that Beta seats on the spider planned just before it (a spider jockey)."""


class Despawn(Enum):
    """What `despawn` decides. Truthy only for GONE, so `if despawn(...)` removes the creature."""

    STAY = "stay"
    GONE = "gone"
    RESET_AGE = "reset_age"
    """Within 32 blocks on its 1-in-800 draw: it stays and its age restarts at 0."""

    def __bool__(self) -> bool:
        return self is Despawn.GONE


_STAY, _GONE, _RESET_AGE = Despawn.STAY, Despawn.GONE, Despawn.RESET_AGE
"""The verdicts as plain names: reading a member off an Enum class costs several times a global's, and
`despawn_many` gives one for every creature every tick."""


# --- the random draws of one pack step, inline ------------------------------------------------------

_SIX_LIMIT = (1 << 31) - PACK_SPREAD
"""nextInt(6) accepts next(31) bits unless bits - value + 5 overflows a Java int: bits - value > this."""


_INT_LIMIT = 1 << 31
"""Java's int overflow: nextInt(n) redraws when bits - value + (n - 1) reaches 2**31."""


def _jumps(steps: int) -> tuple[np.ndarray, np.ndarray]:
    """(a_k, c_k) for k = 1..steps: k LCG steps from state s give (a_k * s + c_k) mod 2**48. As
    uint64 the products wrap mod 2**64, which keeps them right mod 2**48."""
    multipliers, addends, a, c = [], [], 1, 0
    for _ in range(steps):
        a, c = (a * MULTIPLIER) & MASK, (c * MULTIPLIER + ADDEND) & MASK
        multipliers.append(a)
        addends.append(c)
    return np.array(multipliers, dtype=np.uint64), np.array(addends, dtype=np.uint64)


_PACK_REACH = PACK_TRIES * (PACK_SPREAD - 1)
"""[blocks] How far a pack's tries can wander from its spot on x and z: 4 steps of up to 5."""
_NEAR_COLUMNS = (_PACK_REACH + 15) // 16
"""[columns] A pack from a spot in a column reaches the columns within 2 of it."""
_PACK_DRAWS = PACKS * PACK_TRIES * 6
"""A spot's pack loop draws 6 numbers a try when nothing spawns: 72."""
_JUMP_MULTIPLIERS, _JUMP_ADDENDS = _jumps(_PACK_DRAWS)
_PACK_JUMP = (int(_JUMP_MULTIPLIERS[-1]), int(_JUMP_ADDENDS[-1]))
_SIX_DRAWS = np.tile(np.array([True, True, False, False, True, True]), PACKS * PACK_TRIES)
"""Which of a try's six draws are nextInt(6) (the two nextInt(1), a power of two, never redraw)."""


def _any_redrawn(starts: list[int]) -> bool:
    """Whether any of the pack loops starting at these states draws a nextInt(6) that Java redraws
    (then the 72-draw jump was wrong): all their draws at once, with numpy."""
    states = (np.array(starts, dtype=np.uint64)[:, None] * _JUMP_MULTIPLIERS + _JUMP_ADDENDS) & np.uint64(MASK)
    bits = (states >> np.uint64(17)).astype(np.int64)
    return bool(((bits - bits % PACK_SPREAD > _SIX_LIMIT) & _SIX_DRAWS).any())


def _pack_step(state: int) -> tuple[int, int, int]:
    """One try's move from a JavaRandom state: (new state, dx, dz), drawing exactly as Beta's
    `x += nextInt(6) - nextInt(6); y += nextInt(1) - nextInt(1); z += nextInt(6) - nextInt(6)`
    (y never moves). The six LCG steps run inline; a rejected draw (about 1 in 10^9) takes the
    readable twin `_pack_step_reference`."""
    s1 = (state * MULTIPLIER + ADDEND) & MASK
    s2 = (s1 * MULTIPLIER + ADDEND) & MASK
    s3 = (s2 * MULTIPLIER + ADDEND) & MASK
    s4 = (s3 * MULTIPLIER + ADDEND) & MASK
    s5 = (s4 * MULTIPLIER + ADDEND) & MASK
    s6 = (s5 * MULTIPLIER + ADDEND) & MASK
    b1, b2, b5, b6 = s1 >> 17, s2 >> 17, s5 >> 17, s6 >> 17
    a1, a2, a5, a6 = b1 % PACK_SPREAD, b2 % PACK_SPREAD, b5 % PACK_SPREAD, b6 % PACK_SPREAD
    if b1 - a1 > _SIX_LIMIT or b2 - a2 > _SIX_LIMIT or b5 - a5 > _SIX_LIMIT or b6 - a6 > _SIX_LIMIT:
        return _pack_step_reference(state)
    return s6, a1 - a2, a5 - a6


def _pack_step_reference(state: int) -> tuple[int, int, int]:
    """`_pack_step` drawn with `JavaRandom`'s own methods (its readable twin)."""
    rng = JavaRandom.from_state(state)
    dx = rng.next_int(PACK_SPREAD) - rng.next_int(PACK_SPREAD)
    rng.next_int(1) - rng.next_int(1)  # Beta's y offset: always 0, but two draws
    dz = rng.next_int(PACK_SPREAD) - rng.next_int(PACK_SPREAD)
    return rng.state, dx, dz


# --- what a cell allows -------------------------------------------------------------------------------

def spawnable_location(world: GameWorld, x: int, y: int, z: int) -> bool:
    """Beta's `canCreatureTypeSpawnAtLocation` for land creatures: a normal cube below, and at
    (x, y, z) and above no normal cube, and no liquid at (x, y, z). Below y = 0 is air, as in Beta."""
    below = _id(world, x, y - 1, z) if y >= 1 else AIR
    here = _id(world, x, y, z)
    return bool(NORMAL_CUBE[below] and not NORMAL_CUBE[here] and not LIQUID[here]
                and not NORMAL_CUBE[_id(world, x, y + 1, z)])


def _id(world: GameWorld, x: int, y: int, z: int) -> int:
    """The block id at (x, y, z), by the world's one-cell read (`GameWorld.id_at`: ~0.5 us in a
    `game.world.World`, against ~15 us for a one-cell `ids_in_box`; read for every creature's brightness)."""
    return int(world.id_at(x, y, z))


_AIR_FLAG, _STAND_FLAG = 1, 2
"""`_ColumnFlags` bits: the cell is air (a spot may start a pack there); `spawnable_location` holds."""


def column_flags(ids: np.ndarray) -> bytes:
    """A column's spawning flags for y in 0..SPOT_HEIGHT - 1, from its (16, 256, 16) ids: one byte
    per cell at index (lx * 16 + lz) * SPOT_HEIGHT + y (bits `_AIR_FLAG`, `_STAND_FLAG`)."""
    cells = ids[:, :SPOT_HEIGHT + 1, :]
    normal, liquid = NORMAL_CUBE[cells], LIQUID[cells]
    here = slice(0, SPOT_HEIGHT)
    below = np.zeros_like(normal[:, here, :])
    below[:, 1:, :] = normal[:, :SPOT_HEIGHT - 1, :]
    stand = below & ~normal[:, here, :] & ~liquid[:, here, :] & ~normal[:, 1:SPOT_HEIGHT + 1, :]
    flags = (cells[:, here, :] == AIR).astype(np.uint8) * _AIR_FLAG | stand.astype(np.uint8) * _STAND_FLAG
    return np.ascontiguousarray(flags.transpose(0, 2, 1)).tobytes()


def _flag_index(x: int, y: int, z: int) -> int:
    return (((x & 15) << 4) | (z & 15)) * SPOT_HEIGHT + y


class _ColumnFlags:
    """`column_flags` of the loaded columns the spawner looks at, kept while their blocks hold
    (forgotten for a column when one of its cells changes, or all when the world cannot say)."""

    def __init__(self) -> None:
        self.world: GameWorld | None = None
        self.streamed = False
        self.revision = -1
        self.flags: dict[tuple[int, int], bytes] = {}
        self.levels: dict[tuple[int, int], int] = {}
        """Per column, a bit per y (0..127) where some cell has `_STAND_FLAG`."""
        self.loaded: dict[tuple[int, int], bool] = {}
        """`is_loaded` answers within one `Spawner.natural` call (nothing loads or unloads during it)."""
        self.near: dict[tuple[int, int], int] = {}
        """`levels_near` answers by column."""

    def sync(self, world: GameWorld) -> None:
        """Start a `Spawner.natural` call: forget what changed since the last one."""
        self.loaded = {}
        if world is not self.world:
            self.near = {}
            self.world, self.streamed, self.flags, self.levels = world, isinstance(world, StreamedWorld), {}, {}
            self.revision = world.revision
            return
        if world.revision is None:
            self.flags.clear()  # a world that does not count its edits
            self.levels.clear()
            self.near.clear()
        elif world.revision != self.revision:
            cells = world.cells_changed_since(self.revision)
            if cells:
                self.near.clear()
            if cells is None:
                self.flags.clear()
                self.levels.clear()
                self.near.clear()
            else:
                for x, _, z in cells:
                    self.flags.pop((x >> 4, z >> 4), None)
                    self.levels.pop((x >> 4, z >> 4), None)
            self.revision = world.revision

    def is_loaded(self, key: tuple[int, int]) -> bool:
        loaded = self.loaded.get(key)
        if loaded is None:
            loaded = self.loaded[key] = not self.streamed or self.world.is_loaded(*key)
        return loaded

    def levels_near(self, key: tuple[int, int]) -> int:
        """The `levels` of the loaded columns within 2 of column `key` (all a pack from a spot in it
        can reach: 20 blocks each way), or-ed. Kept until a column's flags are forgotten, unless
        one of them was not loaded (a column that unloads since only lets more through)."""
        levels = self.near.get(key)
        if levels is None:
            levels, complete = 0, True
            for cx in range(key[0] - _NEAR_COLUMNS, key[0] + _NEAR_COLUMNS + 1):
                for cz in range(key[1] - _NEAR_COLUMNS, key[1] + _NEAR_COLUMNS + 1):
                    if self.of((cx, cz)) is None:
                        complete = False
                    else:
                        levels |= self.levels[(cx, cz)]
            if complete:
                self.near[key] = levels
        return levels

    def of(self, key: tuple[int, int]) -> bytes | None:
        """The column's flags, or None when it is not loaded (it is never loaded for this)."""
        flags = self.flags.get(key)
        if flags is None:
            if not self.is_loaded(key):
                return None
            flags = self.flags[key] = column_flags(self.world.column(*key))
            stand = np.frombuffer(flags, dtype=np.uint8).reshape(256, SPOT_HEIGHT) & _STAND_FLAG
            self.levels[key] = int.from_bytes(np.packbits(stand.any(axis=0), bitorder="little").tobytes(), "little")
        return flags

    def keep_near(self, keys: list[tuple[int, int]]) -> None:
        """Forget the flags of columns no pack near `keys` reaches (once they outnumber those by far)."""
        if len(self.flags) <= 2 * len(keys) + 256:
            return
        margin = (_PACK_REACH >> 4) + 1
        kept = {(cx + dx, cz + dz) for cx, cz in keys for dx in range(-margin, margin + 1)
                for dz in range(-margin, margin + 1)}
        for key in [key for key in self.flags if key not in kept]:
            del self.flags[key]
            del self.levels[key]
        self.near.clear()


# --- light ----------------------------------------------------------------------------------------------

def block_light_value(world: GameWorld, x: int, y: int, z: int, subtracted: int, *, neighbours: bool = True) -> int:
    """Beta's `World.getBlockLightValue`: max(sky light - `subtracted`, block light) at (x, y, z),
    0 below the world; a slab or stairs cell reads its brightest neighbour above and beside it."""
    if neighbours and 0 <= y < WORLD_HEIGHT and NEIGHBOUR_LIT[_id(world, x, y, z)]:
        return max(block_light_value(world, x + dx, y + dy, z + dz, subtracted, neighbours=False)
                   for dx, dy, dz in ((0, 1, 0), (1, 0, 0), (-1, 0, 0), (0, 0, 1), (0, 0, -1)))
    if y < 0:
        return 0
    sky, block = world.light(x, y, z)
    return max(sky - subtracted, block)


LIGHT_HEIGHT_FRACTION = 0.66
"""A creature's brightness is read this far up its box (Beta's `getEntityBrightness`: height * 0.66D)."""


def light_cell(feet: Feet, height: float) -> tuple[int, int, int]:
    """The cell `creature_light` reads for a box `height` tall with its feet at `feet`."""
    x, y, z = feet
    return math.floor(x), math.floor(y + height * LIGHT_HEIGHT_FRACTION), math.floor(z)


def creature_light(world: GameWorld, feet: Feet, height: float, day_time: float) -> float:
    """Beta's `Entity.getEntityBrightness` for a creature whose box is `height` tall with its feet at
    `feet`: BRIGHTNESS of the light value at `light_cell`, two thirds of the way up its box."""
    return cell_brightness(world, light_cell(_feet(feet), height), skylight_subtracted(day_time))


def cell_brightness(world: GameWorld, cell: tuple[int, int, int], subtracted: int) -> float:
    """BRIGHTNESS of the light value at `cell` with the sky dimmed by `subtracted` levels
    (`creature_light` once its cell and the dimming are known: a tick reads many cells at one time)."""
    return BRIGHTNESS[block_light_value(world, *cell, subtracted)]


def can_see_sky(world: GameWorld, x: int, y: int, z: int) -> bool:
    """Beta's `World.canBlockSeeTheSky`: no block that takes light (leaves, water and every opaque
    block) at (x, y, z) or above it."""
    if y >= WORLD_HEIGHT:
        return True
    if y < 0:
        return False
    return not LIGHT_OPACITY[world.ids_in_box(x, y, z, x + 1, WORLD_HEIGHT, z + 1)].any()


def monster_light_allows(sky: int, light_value: int | Callable[[], int], random: JavaRandom) -> bool:
    """`EntityMob.getCanSpawnHere`'s light rule at a cell whose saved sky light is `sky`: refused
    when sky > nextInt(32); else refused when the light value (`block_light_value`, read only
    then when given as a callable) > nextInt(8). Draws one or two numbers, as Beta does."""
    if sky > random.next_int(SKY_LIGHT_ODDS):
        return False
    value = light_value() if callable(light_value) else light_value
    return value <= random.next_int(BLOCK_LIGHT_ODDS)


def animal_light_allows(sky: int, block: int) -> bool:
    """`EntityAnimal.getCanSpawnHere`'s light rule: the full light (no night dimming) exceeds 8."""
    return max(sky, block) > ANIMAL_MIN_LIGHT


# --- despawning ----------------------------------------------------------------------------------

def despawn(creature_feet: Feet, players_feet: Sequence[Feet], age_ticks: int, random: JavaRandom,
            persistent: bool) -> Despawn:
    """Beta's `EntityLiving.despawnEntity` for a creature `age_ticks` old (counted up before this
    call, as Beta's `updatePlayerActionState` does), measured from the closest player (whose posY is
    1.62 above the feet): farther than 128, GONE; past 600 ticks, on nextInt(800) == 0, GONE unless
    within 32, where its age restarts (RESET_AGE). A persistent creature (an animal: Boxel keeps
    them, as Beta 1.8 does) or one with no player stays, drawing nothing."""
    if not isinstance(random, JavaRandom):
        raise TypeError(f"random must be a game.world.java_random.JavaRandom, got {random!r}")
    if isinstance(age_ticks, bool) or not isinstance(age_ticks, int) or age_ticks < 0:
        raise ValueError(f"age_ticks is a non-negative int, got {age_ticks!r}")
    return _despawn(_feet(creature_feet), _all_feet(players_feet), age_ticks, random, persistent)


def despawn_many(creatures: Sequence[tuple[Feet, int, bool]], players_feet: Sequence[Feet],
                 random: JavaRandom) -> list[Despawn]:
    """`despawn` for each of `creatures` ((feet, age in ticks, persistent)) in order, drawing from
    `random` as those calls would; the players and the random source are checked once."""
    if not isinstance(random, JavaRandom):
        raise TypeError(f"random must be a game.world.java_random.JavaRandom, got {random!r}")
    players = _all_feet(players_feet)
    return [_despawn(feet, players, age, random, persistent) for feet, age, persistent in creatures]


def _despawn(creature_feet: Feet, players: list, age_ticks: int, random: JavaRandom, persistent: bool) -> Despawn:
    """`despawn` with checked players."""
    if persistent or not players:
        return _STAY
    x, y, z = creature_feet
    distance_sq = math.inf  # to the nearest player: `min` over them, written out (every monster, every tick)
    for px, py, pz in players:
        to_player_sq = (px - x) ** 2 + (py + PLAYER_POS_Y_OFFSET - y) ** 2 + (pz - z) ** 2
        if to_player_sq < distance_sq:
            distance_sq = to_player_sq
    far = distance_sq > DESPAWN_FAR_SQ
    if age_ticks > DESPAWN_MIN_AGE and random.next_int(DESPAWN_ODDS) == 0:
        return _RESET_AGE if distance_sq < DESPAWN_NEAR_SQ else _GONE
    return _GONE if far else _STAY


# --- spawning ----------------------------------------------------------------------------------------

def _pick(random: JavaRandom, entries: tuple[tuple[str, int], ...]) -> str:
    """Beta's weighted pick: nextInt(total weight), then the first entry the draw falls in."""
    draw = random.next_int(sum(weight for _, weight in entries))
    for kind, weight in entries:
        draw -= weight
        if draw < 0:
            return kind
    return entries[0][0]


def _fleece(random: JavaRandom) -> int:
    """`EntitySheep.getRandomFleeceColor`."""
    roll = random.next_int(100)
    if roll < 5:
        return 15
    if roll < 10:
        return 7
    if roll < 15:
        return 8
    if roll < 18:
        return 12
    return 6 if random.next_int(500) == 0 else 0


def _box(kind: str, fx: float, fy: float, fz: float) -> AABB:
    """The box Beta's `setPosition` gives a creature of `kind` with its feet at (fx, fy, fz)."""
    spec = CREATURE_KINDS[kind]
    half = f32(spec.width / 2.0)
    return AABB(fx - half, fy, fz - half, fx + half, fy + spec.height, fz + half)


def _overlaps(a: AABB, b: AABB) -> bool:
    return a[3] > b[0] and a[0] < b[3] and a[4] > b[1] and a[1] < b[4] and a[5] > b[2] and a[2] < b[5]


class Spawner:
    """Beta's natural spawning near players, with its own seeded `JavaRandom` (Beta's `world.rand`)."""

    def __init__(self, seed: int) -> None:
        self.random = JavaRandom(seed)
        """The spawner's random; save `random.state` and restore with `Spawner.from_state`."""
        self._flags = _ColumnFlags()
        self._centres: tuple[tuple[int, int], ...] = ()
        self._keys: list[tuple[int, int]] = []
        """The players' columns at the last call, and the columns eligible around them."""
        self.reference = False
        """True: every column drawn one by one (`_Attempt.column`), the readable twin of the batched
        draws `natural` uses (`_Attempt.columns_batched`); both give the same plans and random."""

    @classmethod
    def from_state(cls, state: int) -> Spawner:
        """A spawner whose random goes on from `state` (a saved `spawner.random.state`)."""
        spawner = cls(0)
        spawner.random = JavaRandom.from_state(state)
        return spawner

    def natural(self, world: GameWorld, players_feet: Sequence[Feet], counts: Mapping[str, int], day_time: int,
                monsters_allowed: bool, occupied: Callable[[AABB], bool], *,
                animals_allowed: bool = True) -> list[SpawnPlan]:
        """One tick of Beta's `SpawnerAnimals.performSpawning` (see the module docstring): the
        creatures to create now. `counts` holds the live creatures per category ("monster",
        "creature"); `occupied(box)` says whether a body (player, creature) is in the box (Beta's
        `checkIfAABBIsClear`; blocks and liquids are checked here); the plans made in this call
        count as bodies too. TypeError/ValueError for bad input, with nothing drawn."""
        players = _all_feet(players_feet)
        subtracted = skylight_subtracted(_check_day_time(day_time))
        live = _check_counts(counts)
        if not callable(occupied):
            raise TypeError(f"occupied must be a callable taking an AABB, got {occupied!r}")
        if not players or not (monsters_allowed or animals_allowed):
            return []
        self._flags.sync(world)
        centres = tuple((math.floor(x / 16.0), math.floor(z / 16.0)) for x, _, z in players)
        if centres != self._centres:
            self._centres, self._keys = centres, _eligible_columns(centres)
        keys = self._keys
        self._flags.keep_near(keys)
        context = _Attempt(world, self._flags, self.random, players, _spawn_point(world), subtracted, occupied)
        for category in CATEGORY_ORDER:
            if not (monsters_allowed if category == MONSTER else animals_allowed):
                continue
            if live.get(category, 0) > CAPS[category] * len(keys) // CAP_AREA_COLUMNS:
                continue
            if self.reference:
                for key in keys:
                    context.column(category, key)
            else:
                context.columns_fast(category, keys)
        return context.plans


class _Attempt:
    """One `Spawner.natural` call's state: the world, the draws and the plans made so far."""

    def __init__(self, world, flags, random, players, spawn, subtracted, occupied) -> None:
        self.world, self.flags, self.random = world, flags, random
        self.players = [(px, py + PLAYER_POS_Y_OFFSET, pz) for px, py, pz in players]
        self.spawn, self.subtracted, self.occupied = spawn, subtracted, occupied
        self.plans: list[SpawnPlan] = []
        self.boxes: list[AABB] = []

    def column(self, category: str, key: tuple[int, int]) -> None:
        """Beta's attempt in one column: a kind, a spot, and up to three packs from it."""
        random = self.random
        kind = _pick(random, SPAWN_LISTS[category])
        x = key[0] * 16 + random.next_int(16)
        y = random.next_int(SPOT_HEIGHT)
        z = key[1] * 16 + random.next_int(16)
        if self._is_open_spot(key, x, y, z):
            self.packs(kind, x, y, z)

    def _is_open_spot(self, key: tuple[int, int], x: int, y: int, z: int) -> bool:
        """Beta's start: the spot is air (not a normal cube, Material.air), in a loaded column."""
        flags = self.flags.of(key)
        return flags is not None and flags[_flag_index(x, y, z)] & _AIR_FLAG and self.flags.is_loaded(key)

    def packs(self, kind: str, x: int, y: int, z: int) -> None:
        """Beta's three packs of four tries from the spot (x, y, z), drawing from the random's state."""
        random = self.random
        spawned = 0
        for _ in range(PACKS):
            px, pz = x, z
            for _ in range(PACK_TRIES):
                random.state, dx, dz = _pack_step(random.state)
                px += dx
                pz += dz
                if self._try(kind, px, y, pz):
                    spawned += 1
                    if spawned >= MAX_PACK:
                        return

    def columns_fast(self, category: str, keys: list[tuple[int, int]]) -> None:
        """`column` for every key in order, with exactly its draws and plans, faster: the spots are
        drawn inline; an open spot whose packs cannot reach a height any nearby column stands on
        jumps its 72 pack draws at once (checked afterwards, all together, for a draw Java would
        redraw: if one did, about once in 10^7 spots, the category is drawn again one by one); the
        others walk their tries inline (`_pack_step`) and only a try that passes `_may_try` runs
        Beta's packs one by one (`packs`)."""
        random, flags = self.random, self.flags
        table = _PICK_TABLES[category]
        total = len(table)
        cached, levels_near = flags.flags, flags.levels_near
        jumped: list[int] = []
        saved_state, saved_plans = random.state, len(self.plans)
        state = random.state
        for key in keys:
            while True:  # Java's nextInt(total): redraw while the draw falls in the uneven top
                state = (state * MULTIPLIER + ADDEND) & MASK
                bits = state >> 17
                value = bits % total
                if bits - value + total - 1 < _INT_LIMIT:
                    break
            state = (state * MULTIPLIER + ADDEND) & MASK
            x = key[0] * 16 + (state >> 44)  # nextInt(16): next(31) >> 27
            state = (state * MULTIPLIER + ADDEND) & MASK
            y = state >> 41  # nextInt(128): next(31) >> 24
            state = (state * MULTIPLIER + ADDEND) & MASK
            z = key[1] * 16 + (state >> 44)
            column = cached.get(key) or flags.of(key)
            if (column is None or not column[((x & 15) << 4 | (z & 15)) * SPOT_HEIGHT + y] & _AIR_FLAG
                    or not flags.is_loaded(key)):
                continue
            if not levels_near(key) >> y & 1:
                jumped.append(state)  # no try can pass `_may_try`: only the 72 draws matter
                state = (state * _PACK_JUMP[0] + _PACK_JUMP[1]) & MASK
                continue
            walked = self._walk(x, y, z, state)
            if walked is None:
                random.state = state
                self.packs(table[value], x, y, z)
                state = random.state
            else:
                state = walked
        random.state = state
        if jumped and _any_redrawn(jumped):
            random.state = saved_state
            del self.plans[saved_plans:], self.boxes[saved_plans:]
            for key in keys:
                self.column(category, key)

    def _walk(self, x: int, y: int, z: int, state: int) -> int | None:
        """The state after a spot's 12 tries when none passes `_may_try` (so none draws more);
        None when one does (the packs must then run one by one)."""
        may_try, cached = self._may_try, self.flags.flags
        for _ in range(PACKS):
            px, pz = x, z
            for _ in range(PACK_TRIES):
                state, dx, dz = _pack_step(state)
                px += dx
                pz += dz
                column = cached.get((px >> 4, pz >> 4))
                if column is not None and not column[((px & 15) << 4 | (pz & 15)) * SPOT_HEIGHT + y] & _STAND_FLAG:
                    continue  # `_may_try`'s first check, inline
                if may_try(px, y, pz):
                    return None
        return state

    def _may_try(self, x: int, y: int, z: int) -> bool:
        """What a try checks before it draws: a spawnable place in a loaded column, farther than 24
        from every player and the world spawn."""
        key = (x >> 4, z >> 4)
        flags = self.flags.of(key)
        if flags is None or not flags[_flag_index(x, y, z)] & _STAND_FLAG or not self.flags.is_loaded(key):
            return False
        fx, fy, fz = f32(x + 0.5), float(y), f32(z + 0.5)
        limit = PLAYER_CLEARANCE * PLAYER_CLEARANCE
        if any((px - fx) ** 2 + (py - fy) ** 2 + (pz - fz) ** 2 < limit for px, py, pz in self.players):
            return False
        sx, sy, sz = self.spawn
        dx, dy, dz = f32(fx - sx), f32(fy - sy), f32(fz - sz)
        return f32(f32(f32(dx * dx) + f32(dy * dy)) + f32(dz * dz)) >= SPAWN_CLEARANCE_SQ

    def _try(self, kind: str, x: int, y: int, z: int) -> bool:
        """One try at (x, y, z): whether `kind` spawned there (drawing what Beta draws on the way)."""
        if not self._may_try(x, y, z):
            return False
        fx, fy, fz = f32(x + 0.5), float(y), f32(z + 0.5)
        yaw = f32(self.random.next_float() * 360.0)
        box = _box(kind, fx, fy, fz) if kind in CREATURE_KINDS else None
        if box is None or not self._can_spawn_here(kind, box, math.floor(fx), y, math.floor(fz)):
            return False
        self._plan(kind, (fx, fy, fz), yaw, box)
        return True

    def _plan(self, kind: str, feet: Feet, yaw: float, box: AABB) -> None:
        """Add the plan, then Beta's `creatureSpecificInit`: a spider's rare skeleton rider, a sheep's fleece."""
        self.plans.append(SpawnPlan(kind, feet, yaw, _fleece(self.random) if kind == "sheep" else 0))
        self.boxes.append(box)
        if kind == "spider" and self.random.next_int(JOCKEY_ODDS) == 0:
            self.plans.append(SpawnPlan("skeleton", feet, yaw, rides_previous=True))
            self.boxes.append(_box("skeleton", *feet))

    def _can_spawn_here(self, kind: str, box: AABB, x: int, y: int, z: int) -> bool:
        """The kind's `getCanSpawnHere` at its feet cell (x, y, z)."""
        world = self.world
        if CREATURE_KINDS[kind].category == MONSTER:
            def light_value() -> int:
                return block_light_value(world, x, y, z, self.subtracted)
            if not monster_light_allows(world.light(x, y, z)[0], light_value, self.random):
                return False
            # EntityCreature: the path weight 0.5F - brightness must not be negative (light value <= 11).
            return self._room_for(box) and f32(0.5 - BRIGHTNESS[light_value()]) >= 0.0
        if _id(world, x, y - 1, z) != GRASS or not animal_light_allows(*world.light(x, y, z)):
            return False
        return self._room_for(box)

    def _room_for(self, box: AABB) -> bool:
        """`EntityLiving.getCanSpawnHere`: no body in the box, no block box in it, no liquid in the
        cells Beta's `getIsAnyLiquid` reads (which reach one past a negative minimum); never into
        a column that is not loaded."""
        if any(_overlaps(box, other) for other in self.boxes):
            return False
        x0, y0, z0 = (math.floor(box[0]) - (box[0] < 0), math.floor(box[1]) - (box[1] < 0),
                      math.floor(box[2]) - (box[2] < 0))
        x1, y1, z1 = math.floor(box[3] + 1.0), math.floor(box[4] + 1.0), math.floor(box[5] + 1.0)
        columns = {(cx, cz) for cx in range(x0 >> 4, ((x1 - 1) >> 4) + 1) for cz in range(z0 >> 4, ((z1 - 1) >> 4) + 1)}
        if not all(self.flags.is_loaded(key) for key in columns):
            return False
        world = self.world
        if any(True for _ in world.collision_boxes(box)):
            return False
        if LIQUID[world.ids_in_box(x0, y0, z0, x1, y1, z1)].any():
            return False
        return not self.occupied(box)


# --- the animals of a new column (Beta 1.8) ----------------------------------------------------------

def world_gen(world: GameWorld, column: tuple[int, int], random: JavaRandom) -> list[SpawnPlan]:
    """The animals Beta 1.8's `performWorldGenSpawning` puts in column (cx, cz) when it is first
    generated (see the module docstring): while random.nextFloat() < 0.1, a group of 4 of one kind
    from a random spot, each with 4 tries on the top solid block (leaves skipped) where
    `spawnable_location` holds and the ground is grass, moving by nextInt(5) - nextInt(5) inside the
    column. Reads only that column (call it once the column is loaded). Draws every number from
    `random` (Beta draws the kind from world.rand): e.g. JavaRandom(derived_seed(seed, "animals", cx, cz))."""
    if not isinstance(random, JavaRandom):
        raise TypeError(f"random must be a game.world.java_random.JavaRandom, got {random!r}")
    cx, cz = _column_key(column)
    ids = world.column(cx, cz)
    tops = _top_solid(ids)
    flags = column_flags(ids)
    x0, z0 = cx * 16, cz * 16
    plans: list[SpawnPlan] = []
    while random.next_float() < WORLD_GEN_CHANCE:
        kind = _pick(random, ANIMAL_SPAWNS)
        group = WORLD_GEN_GROUP + random.next_int(1)
        x, z = x0 + random.next_int(16), z0 + random.next_int(16)
        start_x, start_z = x, z
        for _ in range(group):
            for _ in range(WORLD_GEN_TRIES):
                y = int(tops[x - x0, z - z0])
                spawned = (0 < y < SPOT_HEIGHT and flags[_flag_index(x, y, z)] & _STAND_FLAG
                           and ids[x - x0, y - 1, z - z0] == GRASS)
                if spawned:
                    yaw = f32(random.next_float() * 360.0)
                    fleece = _fleece(random) if kind == "sheep" else 0
                    plans.append(SpawnPlan(kind, (f32(x + 0.5), float(y), f32(z + 0.5)), yaw, fleece))
                x += random.next_int(WORLD_GEN_SPREAD) - random.next_int(WORLD_GEN_SPREAD)
                z += random.next_int(WORLD_GEN_SPREAD) - random.next_int(WORLD_GEN_SPREAD)
                while not (x0 <= x < x0 + 16 and z0 <= z < z0 + 16):
                    x = start_x + random.next_int(WORLD_GEN_SPREAD) - random.next_int(WORLD_GEN_SPREAD)
                    z = start_z + random.next_int(WORLD_GEN_SPREAD) - random.next_int(WORLD_GEN_SPREAD)
                if spawned:
                    break
    return plans


def _top_solid(ids: np.ndarray) -> np.ndarray:
    """Beta's `getTopSolidOrLiquidBlock` per (lx, lz): 1 + the highest y in 1..127 whose block stops
    bodies and is not leaves, -1 where there is none."""
    solid = SOLID[ids[:, 1:SPOT_HEIGHT, :]] & (ids[:, 1:SPOT_HEIGHT, :] != LEAVES)
    highest = SPOT_HEIGHT - 1 - np.argmax(solid[:, ::-1, :], axis=1)
    return np.where(solid.any(axis=1), highest + 1, -1)


# --- checks --------------------------------------------------------------------------------------------

def _feet(feet: object) -> Feet:
    if not isinstance(feet, (tuple, list)) or len(feet) != 3:
        raise TypeError(f"feet are (x, y, z) in blocks, got {feet!r}")
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in feet):
        raise ValueError(f"feet are three finite numbers, got {feet!r}")
    return float(feet[0]), float(feet[1]), float(feet[2])


def _all_feet(players_feet: object) -> list[Feet]:
    if isinstance(players_feet, (str, bytes)) or not isinstance(players_feet, Sequence):
        raise TypeError(f"players_feet is a sequence of (x, y, z), got {players_feet!r}")
    return [_feet(feet) for feet in players_feet]


def _check_day_time(day_time: object) -> float:
    if isinstance(day_time, bool) or not isinstance(day_time, (int, float)) or not math.isfinite(day_time):
        raise TypeError(f"day_time is a number of ticks, got {day_time!r}")
    return float(day_time)


def _check_counts(counts: object) -> dict[str, int]:
    if not isinstance(counts, Mapping):
        raise TypeError(f"counts maps a category to its live creatures, got {counts!r}")
    for category, count in counts.items():
        if category not in CAPS:
            raise ValueError(f"unknown creature category {category!r}; the categories are {', '.join(CAPS)}")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"a live creature count is a non-negative int, got {count!r} for {category!r}")
    return dict(counts)


def _column_key(column: object) -> tuple[int, int]:
    if (not isinstance(column, tuple) or len(column) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in column)):
        raise TypeError(f"a column is (cx, cz) ints, got {column!r}")
    return column


def _eligible_columns(centres: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    """The columns within SPAWN_RADIUS_COLUMNS of any of the players' columns `centres`, sorted."""
    keys = set()
    for pcx, pcz in centres:
        keys.update((pcx + dx, pcz + dz) for dx in range(-SPAWN_RADIUS_COLUMNS, SPAWN_RADIUS_COLUMNS + 1)
                    for dz in range(-SPAWN_RADIUS_COLUMNS, SPAWN_RADIUS_COLUMNS + 1))
    return sorted(keys)


def _spawn_point(world: GameWorld) -> tuple[float, float, float]:
    """Beta's `getSpawnPoint`, a block: the world spawn's cell, as floats."""
    x, y, z = world.spawn
    return float(math.floor(x)), float(math.floor(y)), float(math.floor(z))
