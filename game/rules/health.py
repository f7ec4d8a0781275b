"""The player's health and what hurts it: Beta's hurt-time rule, fall damage, lava and fire,
suffocation, cactus, drowning, projectile hits, regeneration and death.

Owns: `Vitals` (health, air, fire, hurt time: one immutable value), `hurt` (one hit through the
hurt-time rule), `Exposure` (what the player met in one tick) and `exposure_of` (reading it
from the player's body and the world; `ExposureReader`, its twin that keeps the blocks read
while their cells are unchanged, and a clear box of cells around the eye that a walking player
stays in for a few ticks without reading any), `eye_fluid` (Beta's `isInsideOfMaterial` test at the
eye), `inside_opaque_block` (Beta's `isEntityInsideOpaqueBlock` test around the eye), `advance`
(one tick of these rules), and the saved form of the vitals (`vitals_fields`, `vitals_from_fields`).
Pure: no Ursina; the world is read through `get_block` (or its `id_at`, the same block by id) and
the block registry (numpy).
Does not own: movement, fall distance or `fall_damage` (physics computes them; this applies
exactly the value physics gives), the knock-back arithmetic (`physics.knockback`), the
player's body, its input while dead or respawning (`game.rules.player`), the tick order
(`game.rules.session`), or drawing hearts, bubbles and the death screen (`game.window.ui`).

Units: health and damage in half hearts (20 = 10 hearts), air and fire in ticks.

One tick of `advance` (Beta's `Entity.onEntityUpdate` / `EntityLiving.onEntityUpdate` order,
then what the move and its contact pass deal, then what the projectiles dealt):
1. a dead player (health 0) is left as it is;
2. swimming (`body.in_water`) puts the fire out;
3. burning: on every tick whose fire count is a multiple of FIRE_DAMAGE_INTERVAL_TICKS, FIRE_DAMAGE;
   the fire count goes down by one;
4. lava (`body.in_lava`): LAVA_DAMAGE, and the fire count is set to LAVA_FIRE_TICKS;
5. the eye inside a normal cube (`inside_opaque_block`: sand or gravel fallen onto the head):
   SUFFOCATION_DAMAGE ("in wall");
6. the eye in water (`eye_fluid`): air goes down by one; at DROWNING_AIR it is set back to 0
   and DROWNING_DAMAGE is dealt (and the fire is out); out of water air is back to MAX_AIR;
7. a landing: `body.fall_damage`, as physics gives it;
8. cactus among the materials the move touched (`body.touching`): CACTUS_DAMAGE;
9. each hit from a projectile or a creature: its damage (a thrown projectile PROJECTILE_DAMAGE, an arrow or a
   creature's blow their own); a hit that counts in full knocks the player back from where it came;
10. regeneration: one health every REGEN_INTERVAL_TICKS ticks without a hit that counted;
11. the hurt time goes down by one.
Every hit goes through `hurt`. With damage off (peaceful) no hit is dealt at all (so no
knock-back either); air and fire still count down. Flying changes none of these rules.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

import physics
from physics.floats import f32
from physics.materials import Material

from .cell_memo import BlockReads, unchanged_since
from .saved_values import preview
from ..world.blocks import FLUID_LEVEL, FULL_CUBE, MATERIAL, OPAQUE, SOLID, block_id
from ..world.coords import WORLD_BORDER

MAX_HEALTH = 20
"""[half hearts] A player's full health: 10 hearts (Beta's player)."""
HURT_TICKS = 20
"""[ticks] Hurt time a hit that counts in full sets (Beta's `maxHurtResistantTime`)."""
HURT_FULL_HIT_TICKS = HURT_TICKS // 2
"""[ticks] While more hurt time than this remains, only a hit larger than the last counts, and
only by the difference (Beta's `heartsLife > maxHurtResistantTime / 2`)."""
MAX_AIR = 300
"""[ticks] Air with the eye out of water: 15 s under water before drowning starts (Beta's `maxAir`)."""
DROWNING_AIR = -20
"""[ticks] When the air has counted down to this, the player takes DROWNING_DAMAGE and the air
is set back to 0 (Beta): one hit every second once the air is gone."""
DROWNING_DAMAGE = 2
"""[half hearts] One drowning hit (Beta)."""
LAVA_DAMAGE = 4
"""[half hearts] Dealt on every tick in lava (the hurt time lets one in every 10 ticks) (Beta's
`setOnFireFromLava`)."""
LAVA_FIRE_TICKS = 600
"""[ticks] Lava sets the player on fire for 30 s (Beta)."""
FIRE_DAMAGE = 1
"""[half hearts] One burn (Beta)."""
FIRE_DAMAGE_INTERVAL_TICKS = 20
"""[ticks] A burning player takes FIRE_DAMAGE on each tick whose fire count is a multiple of this
(Beta: once a second)."""
SUFFOCATION_DAMAGE = 1
"""[half hearts] Dealt on every tick the eye is inside a normal cube (Beta's
`attackEntityFrom(null, 1)` in `EntityLiving.onEntityUpdate`); the hurt time lets one in every
10 ticks, so a buried player loses a heart a second."""
PLAYER_WIDTH = f32(0.6)
"""[blocks] The player's width as Beta's `isEntityInsideOpaqueBlock` reads it (`setSize(0.6F, 1.8F)`)."""
WALL_TEST_SPREAD = f32(0.8)
"""Fraction of the width the test's points spread across on X and Z (Beta's `width * 0.8F`): they
sit 0.24 either side of the eye, inside the 0.3 half-width, so a block merely beside the player
never counts."""
WALL_TEST_HEIGHT = f32(0.1)
"""[blocks] Height the test's points spread across around the eye (Beta's `0.1F`)."""
PLAYER_EYE_HEIGHT = f32(0.12)
"""[blocks] Beta's `EntityPlayer.getEyeHeight()`: the player's posY is already its eye (feet +
1.62, less the camera lag), and the test is centred this much above it."""
NORMAL_CUBE = SOLID & OPAQUE & FULL_CUBE
NORMAL_CUBE.flags.writeable = False
"""Blocks that suffocate (Beta's `isBlockNormalCube`: an opaque full cube): stone, dirt, sand,
gravel, logs, soul sand...; not glass, ice or leaves (see-through), slabs, stairs, fences, fluids."""
_NORMAL_CUBE_BY_ID = NORMAL_CUBE.tolist()
"""NORMAL_CUBE as a list (`ExposureReader` reads it for every player every tick: a list is quicker)."""
_FLUID_BY_ID = [material in (Material.WATER, Material.LAVA) for material in MATERIAL.tolist()]
"""By id, whether the block is water or lava (`_fluid_at_eye` answers None for every other block)."""
CACTUS_DAMAGE = 1
"""[half hearts] Dealt on every tick the move touched a cactus (Beta's `BlockCactus`)."""
PROJECTILE_DAMAGE = 0
"""[half hearts] A thrown projectile (Beta's snowball deals 0): it hurts nobody, but a hit that
counts knocks the player back (`physics.knockback`), as it knocks mobs back. (Beta's player
ignores a 0-damage hit altogether; Boxel shows the hit with the knock-back instead.)"""
REGEN_INTERVAL_TICKS = 80
"""[ticks] One health back every 4 s without a hit that counts. Beta heals only with food, which
Boxel does not have; this is the rate at which later Minecraft heals a well-fed player (1 per
80 ticks with a full hunger bar), so play without food feels like play well fed: a fall of
6 blocks (3 damage) heals in 12 s, while drowning (a hit a second), lava and fire (both faster
than 1 per 4 s) still kill."""
EYE_SURFACE_OFFSET = f32(0.1111111)
"""Beta's `isInsideOfMaterial` subtracts this from the fluid's air fraction (0.1111111F): the eye
counts as in a source block's water just below the block's top."""
FLUID_LEVELS_FLOWING = 8
"""Fluid levels 8 and up are falling fluid, read as full (Beta's `getPercentAir`)."""


class Hit(Enum):
    """What `hurt` made of a hit."""

    IGNORED = "ignored"
    """No damage: the player is dead, or the hurt time was high and the hit no larger than the last."""
    TOPPED_UP = "topped up"
    """The hurt time was high and the hit larger than the last: only the difference was dealt."""
    FULL = "full"
    """The hit was dealt in full and set the hurt time (a projectile's knocks the player back)."""


@dataclass(frozen=True, slots=True)
class Vitals:
    """The player's health, air, fire and hurt time after a tick."""

    health: int = MAX_HEALTH
    """[half hearts] 0..MAX_HEALTH; 0 is dead."""
    air: int = MAX_AIR
    """[ticks] DROWNING_AIR + 1 .. MAX_AIR: below 0 the player is about to drown."""
    fire_ticks: int = 0
    """[ticks] 0..LAVA_FIRE_TICKS: how long the player still burns."""
    hurt_ticks: int = 0
    """[ticks] 0..HURT_TICKS: hurt time left from the last hit that counted in full."""
    last_damage: int = 0
    """[half hearts] 0..MAX_HEALTH: the largest hit since the hurt time was set (a hit must be
    larger to count while the hurt time is high). Kept no larger than MAX_HEALTH: a hit that
    large kills whoever it reaches within the same hurt time, so no later comparison can tell."""
    regen_ticks: int = 0
    """[ticks] 0..REGEN_INTERVAL_TICKS - 1: ticks since the last hit that counted or the last heal."""

    def __post_init__(self) -> None:
        for name, low, high in FIELD_RANGES:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"Vitals.{name} must be an int, got {value!r}")
            if not low <= value <= high:
                raise ValueError(f"Vitals.{name} must be within {low}..{high}, got {value!r}")

    @property
    def dead(self) -> bool:
        return self.health <= 0

    @property
    def burning(self) -> bool:
        return self.fire_ticks > 0


FIELD_RANGES = (
    ("health", 0, MAX_HEALTH),
    ("air", DROWNING_AIR + 1, MAX_AIR),
    ("fire_ticks", 0, LAVA_FIRE_TICKS),
    ("hurt_ticks", 0, HURT_TICKS),
    ("last_damage", 0, MAX_HEALTH),
    ("regen_ticks", 0, REGEN_INTERVAL_TICKS - 1),
)
"""Each field of `Vitals` with its inclusive range (checked on construction and on loading)."""


def hurt(vitals: Vitals, damage: int) -> tuple[Vitals, Hit]:
    """`vitals` after a hit of `damage` half hearts, by Beta's hurt-time rule: with more than
    HURT_FULL_HIT_TICKS of hurt time left, only a hit larger than the last counts, and only by the
    difference; otherwise the hit counts in full and sets HURT_TICKS of hurt time. Health stops at 0.
    A dead player takes no hit. ValueError for a negative damage, TypeError for a non-int."""
    if isinstance(damage, bool) or not isinstance(damage, int):
        raise TypeError(f"damage must be an int of half hearts, got {damage!r}")
    if damage < 0:
        raise ValueError(f"damage must be >= 0, got {damage!r}")
    if vitals.dead:
        return vitals, Hit.IGNORED
    if vitals.hurt_ticks > HURT_FULL_HIT_TICKS:
        if damage <= vitals.last_damage:
            return vitals, Hit.IGNORED
        return replace(vitals, health=max(vitals.health - (damage - vitals.last_damage), 0),
                       last_damage=min(damage, MAX_HEALTH), regen_ticks=0), Hit.TOPPED_UP
    return replace(vitals, health=max(vitals.health - damage, 0), last_damage=min(damage, MAX_HEALTH),
                   hurt_ticks=HURT_TICKS, regen_ticks=0), Hit.FULL


def eye_fluid(world, x: float, eye_y: float, z: float) -> Material | None:
    """Material.WATER or Material.LAVA when the eye at (x, eye_y, z) is in that fluid, else None.

    Beta's `isInsideOfMaterial`: the cell at the eye holds the fluid and the eye is below its
    surface, at cell_y + 1 - (air fraction - 0.1111111F), where the air fraction of level L is
    (L + 1) / 9, and falling fluid (level 8 and up) reads as level 0 (in Java floats). So a source
    block's surface is at its top (to 1e-8) and a level-7 block's is 7/9 lower."""
    i, j, k = math.floor(x), math.floor(eye_y), math.floor(z)
    return _fluid_at_eye(block_id(world.get_block(i, j, k)), eye_y)


def _fluid_at_eye(block: int, eye_y: float) -> Material | None:
    """`eye_fluid`'s answer for an eye at height `eye_y` in a cell holding block id `block`."""
    j = math.floor(eye_y)
    material = Material(int(MATERIAL[block]))
    if material not in (Material.WATER, Material.LAVA):
        return None
    level = int(FLUID_LEVEL[block])
    if level >= FLUID_LEVELS_FLOWING:
        level = 0
    air_fraction = f32(f32(level + 1) / f32(9.0))
    surface = f32(f32(j + 1) - f32(air_fraction - EYE_SURFACE_OFFSET))
    return material if eye_y < surface else None


def inside_opaque_block(world, x: float, eye_y: float, z: float, width: float = PLAYER_WIDTH) -> bool:
    """Whether a normal cube (NORMAL_CUBE) holds any of 8 points around (x, eye_y, z): Beta's
    `isEntityInsideOpaqueBlock`, where `eye_y` is its posY + getEyeHeight() (for the player,
    `Player.eye`'s y + PLAYER_EYE_HEIGHT) and `width` the entity's width [blocks].

    Point i (0..7) is x + ((i & 1) - 0.5F) * width * 0.8F, eye_y + (((i >> 1) & 1) - 0.5F) * 0.1F,
    z + (((i >> 2) & 1) - 0.5F) * width * 0.8F, the offsets in Java floats (WALL_TEST_SPREAD,
    WALL_TEST_HEIGHT). TypeError / ValueError for a width that is not a positive number."""
    if isinstance(width, bool) or not isinstance(width, (int, float)):
        raise TypeError(f"width must be a number of blocks, got {width!r}")
    if not width > 0.0 or not math.isfinite(width):
        raise ValueError(f"width must be positive and finite, got {width!r}")
    spread = _PLAYER_SPREAD if width == PLAYER_WIDTH else f32(f32(f32(0.5) * f32(width)) * WALL_TEST_SPREAD)
    rise = _RISE
    # The 8 points' cells: x - spread is x + (-1) * spread to the bit, and so on.
    xs = {math.floor(x - spread), math.floor(x + spread)}
    ys = {math.floor(eye_y - rise), math.floor(eye_y + rise)}
    zs = {math.floor(z - spread), math.floor(z + spread)}
    get = world.get_block
    return any(NORMAL_CUBE[block_id(get(i, j, k))] for i in xs for j in ys for k in zs)


_PLAYER_SPREAD = f32(f32(f32(0.5) * PLAYER_WIDTH) * WALL_TEST_SPREAD)
"""[blocks] `inside_opaque_block`'s sideways offset of its points for the player's width."""
_RISE = f32(f32(0.5) * WALL_TEST_HEIGHT)
"""[blocks] `inside_opaque_block`'s up and down offset of its points."""


@dataclass(frozen=True, slots=True)
class Exposure:
    """What the player met in one tick (see the module docstring for what each deals)."""

    in_water: bool = False
    """The tick moved the player as a swimmer (puts fire out)."""
    in_lava: bool = False
    eye_in_water: bool = False
    """The eye is under water (`eye_fluid`): the air counts down."""
    in_wall: bool = False
    """The eye is inside a normal cube (`inside_opaque_block`): suffocating."""
    fall_damage: int = 0
    """[half hearts] The landing's damage, from physics (`body.fall_damage`)."""
    touching_cactus: bool = False
    projectile_hits: tuple[tuple[float, ...], ...] = ()
    """[blocks] Where each projectile that hit the player was (x, z of its centre), in order."""


def exposure_of(body: physics.Body, world, eye: Sequence[float],
                projectile_hits: Sequence[tuple[float, float]] = ()) -> Exposure:
    """What `body` (the player's, after the tick's step), its `eye` (`Player.eye`: Beta's posX,
    posY, posZ) and the projectile hits met."""
    x, y, z = eye
    return Exposure(in_water=body.in_water, in_lava=body.in_lava,
                    eye_in_water=eye_fluid(world, x, y, z) == Material.WATER,
                    in_wall=inside_opaque_block(world, x, y + PLAYER_EYE_HEIGHT, z),
                    fall_damage=body.fall_damage, touching_cactus=Material.CACTUS in body.touching,
                    projectile_hits=_hits(projectile_hits))


class ExposureReader:
    """`exposure_of` for one player, keeping the blocks it read (the eye's cell for `eye_fluid`,
    the cells of `inside_opaque_block`'s 8 points) while their cells are unchanged
    (`game.rules.cell_memo.BlockReads`): a player stays in the same few cells for several ticks.
    The same exposures as `exposure_of` (a test compares them through random edits and moves)."""

    def __init__(self) -> None:
        self._reads = BlockReads()
        self._ids_of: object = None
        self._read_id = None
        """The world the kept reads were last made from and how its blocks are read (`_id_reader`)."""
        self._clear: tuple[int, int, int, int, int, int] | None = None
        """The clear box: cells x0..x1, y0..y1, z0..z1 (inclusive) of `_clear_world`, all read at
        `_clear_revision`, none a normal cube or a fluid (`_still_clear`); None: none kept."""
        self._clear_world: object = None
        self._clear_revision: int | None = None
        self._quiet: tuple[Vitals, Outcome] | None = None
        """The vitals of the last quiet tick (`outcome`'s shortcut) and its outcome: the next tick's
        vitals are that same object when nothing changed them, so they need no comparing again."""

    def exposure(self, body: physics.Body, world, eye: Sequence[float],
                 projectile_hits: Sequence[tuple[float, float]] = ()) -> Exposure:
        """`exposure_of(body, world, eye, projectile_hits)`."""
        x, y, z = eye
        if type(x) is not float or type(y) is not float or type(z) is not float:
            return exposure_of(body, world, eye, projectile_hits)
        eye_block, in_wall = self._eye_reads(world, x, y, z)
        return Exposure(in_water=body.in_water, in_lava=body.in_lava,
                        eye_in_water=_fluid_at_eye(eye_block, y) == Material.WATER, in_wall=in_wall,
                        fall_damage=body.fall_damage, touching_cactus=Material.CACTUS in body.touching,
                        projectile_hits=_hits(projectile_hits))

    def outcome(self, vitals: Vitals, body: physics.Body, world, eye: Sequence[float],
                projectile_hits: Sequence[tuple[float, float]] = (), damage_enabled: bool = True,
                regenerates: bool = True) -> Outcome:
        """`advance(vitals, self.exposure(body, world, eye, projectile_hits), damage_enabled, regenerates)`, exactly,
        without building the exposure for a player at rest (`Vitals()`: full health and air, no
        fire, hurt time or regeneration count) that met nothing: no water or lava moved it, no
        landing, cactus or projectile, and neither the eye in water nor in a wall. Such a tick
        changes nothing (`advance` deals no hit, regenerates nothing and counts nothing down), and
        it is most players' tick; a test compares both through random moves, edits and vitals."""
        x, y, z = eye
        return self.outcome_at(vitals, body, world, x, y, z, projectile_hits, damage_enabled, regenerates)

    def outcome_at(self, vitals: Vitals, body: physics.Body, world, x: float, y: float, z: float,
                   projectile_hits: Sequence[tuple[float, float]] = (), damage_enabled: bool = True,
                   regenerates: bool = True) -> Outcome:
        """`outcome` with the eye at (x, y, z) (`Player.suffer` works it out without a tuple)."""
        quiet = self._quiet
        kept = quiet is not None and vitals is quiet[0]  # the last quiet tick's vitals, the same object: at rest
        if (projectile_hits or body.in_water or body.in_lava or body.fall_damage
                or not (kept or (type(vitals) is Vitals and vitals == _AT_REST))
                or Material.CACTUS in body.touching
                or type(x) is not float or type(y) is not float or type(z) is not float):
            return advance(vitals, self.exposure(body, world, (x, y, z), projectile_hits), damage_enabled, regenerates)
        if not self._still_clear(world, x, y, z):
            eye_block, in_wall = self._eye_reads(world, x, y, z)
            if in_wall or (_FLUID_BY_ID[eye_block] and _fluid_at_eye(eye_block, y) == Material.WATER):
                return advance(vitals, self.exposure(body, world, (x, y, z), projectile_hits), damage_enabled,
                               regenerates)
        if not kept:
            quiet = self._quiet = (vitals, Outcome(vitals))  # (an Outcome is immutable: the same one again)
        return quiet[1]

    def eye_fluid(self, world, x: float, eye_y: float, z: float) -> Material | None:
        """`eye_fluid(world, x, eye_y, z)`, reading the eye's cell from the kept reads (digging asks it
        of the eye the last tick's health rules read)."""
        if type(x) is not float or type(eye_y) is not float or type(z) is not float:
            return eye_fluid(world, x, eye_y, z)
        block = _eye_block(self._reads.fresh(world), world, x, eye_y, z)
        return _fluid_at_eye(block, eye_y) if _FLUID_BY_ID[block] else None

    def _still_clear(self, world, x: float, y: float, z: float) -> bool:
        """Whether every cell `_eye_reads` reads for an eye at (x, y, z) lies in the clear box (`_clear`:
        cells read before, none a normal cube or a fluid) and none of its cells changed since: then
        the eye is in no wall and no water, read from no cell. (A player walks inside one such box
        for a few ticks.)"""
        clear = self._clear
        if clear is None or world is not self._clear_world:
            return False
        x0, x1, y0, y1, z0, z1 = clear
        floor, spread = math.floor, _PLAYER_SPREAD
        wall_y = y + PLAYER_EYE_HEIGHT  # `_eye_reads`' cells, from the same arithmetic
        if not (x0 <= floor(x - spread) and floor(x + spread) <= x1 and z0 <= floor(z - spread)
                and floor(z + spread) <= z1 and y0 <= floor(wall_y - _RISE) and floor(wall_y + _RISE) <= y1
                and y0 <= floor(y) <= y1):
            return False  # (the eye's x and z cells lie between the points')
        now = world.revision
        if not unchanged_since(world, self._clear_revision, now, x0, y0, z0, x1, y1, z1):
            self._clear = None
            return False
        self._clear_revision = now  # unchanged up to now: the next check reads only later edits
        return True

    def _eye_reads(self, world, x: float, y: float, z: float) -> tuple[int, bool]:
        """The block id in the eye's cell (`eye_fluid`'s read) and whether a normal cube holds one of
        `inside_opaque_block`'s 8 points, from the kept reads where their cells are unchanged. Keeps
        the box of these cells as the clear box (`_still_clear`) when the eye's cell is in it and
        none of them holds a normal cube or a fluid."""
        ids = self._reads.fresh(world)
        floor, spread = math.floor, _PLAYER_SPREAD
        if world is not self._ids_of:
            self._ids_of, self._read_id = world, _id_reader(world)
        read = self._read_id
        eye_y = floor(y)
        cell = (floor(x), eye_y, floor(z))
        eye_block = ids.get(cell)
        if eye_block is None:
            eye_block = ids[cell] = read(*cell)
        wall_y = y + PLAYER_EYE_HEIGHT
        normal_cube, fluid = _NORMAL_CUBE_BY_ID, _FLUID_BY_ID
        any_fluid = fluid[eye_block]
        # inside_opaque_block's cells, in its order (each set made once, so iterated in the same order)
        i0, i1, j0, j1 = floor(x - spread), floor(x + spread), floor(wall_y - _RISE), floor(wall_y + _RISE)
        k0, k1 = floor(z - spread), floor(z + spread)  # (each lower one no greater: floor and +- are monotone)
        js, ks = {j0, j1}, {k0, k1}
        for i in {i0, i1}:
            for j in js:
                for k in ks:
                    block = ids.get((i, j, k))
                    if block is None:
                        block = ids[i, j, k] = read(i, j, k)
                    if normal_cube[block]:
                        return eye_block, True
                    any_fluid = any_fluid or fluid[block]
        if not any_fluid and j0 <= eye_y <= j1 and world.revision is not None:
            self._clear = (i0, i1, j0, j1, k0, k1)
            self._clear_world, self._clear_revision = world, world.revision
        return eye_block, False


def _id_reader(world):
    """A function (i, j, k) -> the block id in `world`'s cell (ints): `block_id(world.get_block(i, j, k))`,
    read through the world's `id_at` (`GameWorld.id_at`: the same block, without its name) inside
    the world border, where `World.get_block` reads `id_at` itself; outside it, `get_block` as it is."""
    get, id_at = world.get_block, world.id_at

    def read(i: int, j: int, k: int) -> int:
        if (-WORLD_BORDER <= i < WORLD_BORDER and -WORLD_BORDER <= j < WORLD_BORDER
                and -WORLD_BORDER <= k < WORLD_BORDER):
            return id_at(i, j, k)
        return block_id(get(i, j, k))

    return read


def _eye_block(ids: dict, world, x: float, y: float, z: float) -> int:
    """The block id in the eye's cell (`eye_fluid`'s read), from the kept reads `ids` (read and kept
    when they lack it)."""
    cell = (math.floor(x), math.floor(y), math.floor(z))
    block = ids.get(cell)
    if block is None:
        block = ids[cell] = block_id(world.get_block(*cell))
    return block


_AT_REST = Vitals()
"""Full health and air, no fire, no hurt time: the vitals a tick that met nothing leaves as they are."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """One tick of the rules: the new vitals and what happened."""

    vitals: Vitals
    damage: int = 0
    """[half hearts] Health lost this tick (0 when none, also for a hit that knocked back only)."""
    knocked_from: tuple[tuple[float, float], ...] = ()
    """[blocks] (x, z) of each projectile hit that counted in full: knock the player back from there."""


def _hits(hits: Sequence[Sequence[float]]) -> tuple[tuple[float, ...], ...]:
    """Each hit as (x, z) floats, or (x, z, damage) with an int damage (a creature's blow, an arrow)."""
    return tuple((float(hit[0]), float(hit[1])) if len(hit) == 2 else (float(hit[0]), float(hit[1]), int(hit[2]))
                 for hit in hits)


def advance(vitals: Vitals, exposure: Exposure, damage_enabled: bool = True, regenerates: bool = True) -> Outcome:
    """One tick of health (the module docstring's order) for a player that met `exposure`;
    `regenerates` False leaves out step 10 (survival heals only by eating: `game.rules.survival`)."""
    if not isinstance(vitals, Vitals) or not isinstance(exposure, Exposure):
        raise TypeError(f"advance needs Vitals and an Exposure, got {vitals!r}, {exposure!r}")
    if vitals.dead:
        return Outcome(vitals)
    start = vitals
    counted = False
    knocked: list[tuple[float, float]] = []

    def deal(damage: int) -> Hit:
        nonlocal vitals, counted
        if not damage_enabled:
            return Hit.IGNORED
        vitals, hit = hurt(vitals, damage)
        counted = counted or hit is not Hit.IGNORED
        return hit

    if exposure.in_water:
        vitals = replace(vitals, fire_ticks=0)
    if vitals.fire_ticks > 0:
        if vitals.fire_ticks % FIRE_DAMAGE_INTERVAL_TICKS == 0:
            deal(FIRE_DAMAGE)
        vitals = replace(vitals, fire_ticks=vitals.fire_ticks - 1)
    if exposure.in_lava:
        deal(LAVA_DAMAGE)
        vitals = replace(vitals, fire_ticks=LAVA_FIRE_TICKS)
    if exposure.in_wall:
        deal(SUFFOCATION_DAMAGE)
    if exposure.eye_in_water:
        air = vitals.air - 1
        if air == DROWNING_AIR:
            air = 0
            deal(DROWNING_DAMAGE)
        vitals = replace(vitals, air=air, fire_ticks=0)
    elif vitals.air != MAX_AIR:
        vitals = replace(vitals, air=MAX_AIR)
    if exposure.fall_damage > 0:
        deal(exposure.fall_damage)
    if exposure.touching_cactus:
        deal(CACTUS_DAMAGE)
    for x, z, *damage in exposure.projectile_hits:
        if deal(damage[0] if damage else PROJECTILE_DAMAGE) is Hit.FULL:
            knocked.append((x, z))
    if regenerates and not counted and not vitals.dead:
        if vitals.health >= MAX_HEALTH:
            vitals = replace(vitals, regen_ticks=0) if vitals.regen_ticks else vitals
        elif vitals.regen_ticks + 1 >= REGEN_INTERVAL_TICKS:
            vitals = replace(vitals, health=vitals.health + 1, regen_ticks=0)
        else:
            vitals = replace(vitals, regen_ticks=vitals.regen_ticks + 1)
    if vitals.hurt_ticks > 0:
        vitals = replace(vitals, hurt_ticks=vitals.hurt_ticks - 1)
    return Outcome(vitals, max(start.health - vitals.health, 0), tuple(knocked))


# --- the saved form -----------------------------------------------------------------------------

SAVED_FIELDS = tuple(name for name, _, _ in FIELD_RANGES)
"""The saved keys of the vitals: `Vitals`' field names."""
DAMAGE_ENABLED_FIELD = "damage_enabled"
"""Saved key of the damage toggle (false: peaceful)."""


def vitals_fields(vitals: Vitals, damage_enabled: bool) -> dict:
    """The vitals and the damage toggle as JSON values (saved with the player)."""
    return {**{name: getattr(vitals, name) for name in SAVED_FIELDS},
            DAMAGE_ENABLED_FIELD: bool(damage_enabled)}


def vitals_from_fields(state: dict, owner: str, error: type[Exception]) -> tuple[Vitals, bool]:
    """The vitals and damage toggle saved by `vitals_fields` in `state`. A state saved before
    health existed (none of these keys) gives full health with damage on; otherwise every key
    must hold an int in its range (and the toggle a bool), else `error` naming the field."""
    keys = (*SAVED_FIELDS, DAMAGE_ENABLED_FIELD)
    if not any(key in state for key in keys):
        return Vitals(), True
    values = {}
    for name, low, high in FIELD_RANGES:
        value = state.get(name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise error(f"{owner}'s {name!r} must be a whole number within {low}..{high}, got {preview(value)}")
        values[name] = value
    enabled = state.get(DAMAGE_ENABLED_FIELD)
    if not isinstance(enabled, bool):
        raise error(f"{owner}'s {DAMAGE_ENABLED_FIELD!r} must be true or false, got {preview(enabled)}")
    return Vitals(**values), enabled
