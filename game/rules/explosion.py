"""Beta 1.7.3's explosion (its `Explosion` class): which cells a blast destroys, what it does to the
bodies near it, and breaking those cells with their drops.

Owns: `blast` (Beta's `doExplosionA`: the rays that choose the cells, then each body's damage and
knock-back from its exposure, `World.getBlockDensity`), `apply_blast` (Beta's `doExplosionB` on a
server: each destroyed cell drops its items with chance 0.3F and becomes air), `explosion_pitch` (the
sound's pitch, Beta's first draw of `doExplosionB`), and the value types `Blast`, `BodyBlast`,
`BrokenCell`.
Does not own: blast resistance (`game.world.blast_resistance`), a body's exposure ray
(`game.rules.blast_exposure`), Java's HashSet order (`game.world.java_hash_set`), the drop table (`game.rules.harvest`), spawning dropped items (the
caller's `drop`), health, creepers or the fuse (the session), relighting and re-meshing (the world:
`apply_blast` edits through it, and its light waits for the next resolve like any edit).

Beta's rays (`doExplosionA`): from the 16 x 16 x 16 grid's 1,352 surface points, ray (j, k, l) points
along ((float)j / 15F * 2F - 1F, ...) normalised in double. In j, k, l order each draws its
intensity power * (0.7F + nextFloat() * 0.6F) (float arithmetic) and walks from the centre in steps
of 0.3F: at each cell it loses (resistance + 0.3F) * 0.3F unless the cell is air, the cell is
destroyed if the intensity is still > 0, and then it loses 0.3F * 0.75F, until it is <= 0. The
destroyed cells (air ones too) are a Java `HashSet` of `ChunkPosition`s that `doExplosionB` walks
backwards; `java_hash_set.hash_set_order` gives Java 6's order (the Java of Beta's day), so the
drops' draws come in Beta's order. Bodies: those whose box meets the box of cells within
2 * power + 1 of the centre, and whose position (Beta's posX, posY, posZ: a living body's feet) is
within 2 * power (distance as Beta's float square root); impact = (1 - distance / (2 * power)) *
exposure, damage = (int)((impact^2 + impact) / 2 * 8 * 2power + 1), velocity += the unit vector from
the centre to the position * impact. A body exactly at the centre gets no push (Beta's would be NaN).

Random: `rng` is Beta's `world.rand`: a `game.world.java_random.JavaRandom` (Java's numbers; the 1,352
draws are made at once from its state, exactly as one by one) or a `random.Random` standing in.
The readable twin is `tests/rules/explosion_reference.py` (one ray, one cell at a time); the tests
show both give the same cells, order, damage and impulses.
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from physics.aabb import AABB

from ..world.blast_resistance import BLAST_RESISTANCE
from ..world.blocks import AIR
from ..world.java_hash_set import hash_set_order
from ..world.java_random import ADDEND, MASK, MULTIPLIER, FLOAT_UNIT, JavaRandom, next_float, require_rng
from . import harvest
from .blast_exposure import exposures
from .items import ItemStack

Cell = tuple[int, int, int]
Vector = tuple[float, float, float]

GRID = 16
"""Beta's rays start from the surface points of a 16 x 16 x 16 grid."""
RAY_STEP = np.float32(0.3)
"""[blocks] Beta's `f2 = 0.3F`: a ray's step, and the factor of the intensity a cell soaks up."""
STEP_LOSS = np.float32(RAY_STEP * np.float32(0.75))
"""Beta's `f1 -= f2 * 0.75F`: what each step costs a ray, in air or not."""
SOAK_BASE = np.float32(0.3)
"""Beta's `(resistance + 0.3F) * f2`: a non-air cell soaks up this much more than its resistance."""
INTENSITY_BASE, INTENSITY_SPREAD = np.float32(0.7), np.float32(0.6)
"""Beta's `power * (0.7F + nextFloat() * 0.6F)`: a ray's starting intensity."""
REACH_FACTOR = np.float32(2.0)
"""Beta's `explosionSize *= 2.0F`: bodies within twice the power are hit."""
DAMAGE_SCALE = 8.0
"""Beta's `(impact^2 + impact) / 2 * 8 * reach + 1` hit points."""
DROP_CHANCE = np.float32(0.3)
"""Beta's `dropBlockAsItemWithChance(..., 0.3F)`: each item of a destroyed block drops with this chance."""
MAX_POWER = 16.0
"""The strongest blast accepted (Beta's TNT is 4, its creeper 3): the block box a blast reads grows
with the power cubed (power 16: about 60 blocks a side)."""
FIRST_STEPS = 3
"""[steps] The rays are walked in chunks, each twice the last: the first short, as in rock most rays die
within 3 steps (in air a power-3 ray walks about 17)."""


@dataclass(frozen=True, slots=True)
class BodyBlast:
    """What a blast does to body `index` (its place in `blast`'s `boxes` and `positions`)."""

    index: int
    damage: int
    """[half hearts] Beta's `attackEntityFrom` amount."""
    impulse: Vector
    """[blocks/tick] Added to the body's velocity."""
    exposure: float
    """Beta's `getBlockDensity`: the share of rays from the body's box that reach the centre (float32 value)."""


@dataclass(frozen=True, slots=True)
class Blast:
    """One explosion's result before anything changes (`blast`); `apply_blast` breaks its cells."""

    centre: Vector
    power: float
    """Beta's `explosionSize` (a float32 value)."""
    cells: tuple[Cell, ...]
    """Beta's `destroyedBlockPositions` (air cells too) in the order `doExplosionB` visits them."""
    bodies: tuple[BodyBlast, ...]
    """The bodies hit, in the order given."""


@dataclass(frozen=True, slots=True)
class BrokenCell:
    """A block `apply_blast` broke: where, and its id before."""

    cell: Cell
    block: int


def _directions() -> np.ndarray:
    """Beta's 1,352 ray directions in its j, k, l order: each component ((float)i / 15F) * 2F - 1F in float
    arithmetic, widened to double, then the vector normalised in double."""
    steps = np.arange(GRID, dtype=np.float32)
    component = (steps / (np.float32(GRID) - np.float32(1.0))) * np.float32(2.0) - np.float32(1.0)
    j, k, l = np.meshgrid(np.arange(GRID), np.arange(GRID), np.arange(GRID), indexing="ij")
    on_surface = ((j == 0) | (j == GRID - 1) | (k == 0) | (k == GRID - 1) | (l == 0) | (l == GRID - 1)).ravel()
    directions = component.astype(np.float64)[np.stack([j.ravel(), k.ravel(), l.ravel()], axis=1)[on_surface]]
    length = np.sqrt(directions[:, 0] * directions[:, 0] + directions[:, 1] * directions[:, 1]
                     + directions[:, 2] * directions[:, 2])
    return directions / length[:, None]


DIRECTIONS = _directions()
"""(1352, 3) Beta's ray directions (unit, double)."""
DIRECTIONS.flags.writeable = False
RAYS = len(DIRECTIONS)
_STEPS_BY_AXIS = np.ascontiguousarray((DIRECTIONS * float(RAY_STEP)).T)
"""(3, 1352) Beta's `d5 += d * (double)f2`: each ray's step, the same product every step, x, y, z rows."""
_SOAK = np.where(np.arange(len(BLAST_RESISTANCE)) == AIR, np.float32(0.0),
                 (BLAST_RESISTANCE + SOAK_BASE) * RAY_STEP).astype(np.float32)
"""What a cell of each block id takes from a ray (air: nothing, Beta skips it)."""


def _java_jumps(count: int) -> tuple[np.ndarray, np.ndarray]:
    """(A_n, C_n) for n = 1..count: Java's LCG state after n steps is (A_n * state + C_n) mod 2**48."""
    multipliers, addends = [], []
    a, c = 1, 0
    for _ in range(count):
        a, c = (a * MULTIPLIER) & MASK, (c * MULTIPLIER + ADDEND) & MASK
        multipliers.append(a)
        addends.append(c)
    return np.array(multipliers, dtype=np.uint64), np.array(addends, dtype=np.uint64)


_JUMP_A, _JUMP_C = _java_jumps(RAYS)


def _java_floats(rng: JavaRandom, count: int) -> np.ndarray:
    """`count` of Java's `nextFloat()` from `rng` at once (its state moves on by `count` draws), float32."""
    with np.errstate(over="ignore"):
        states = (_JUMP_A[:count] * np.uint64(rng.state) + _JUMP_C[:count]) & np.uint64(MASK)
    rng.state = int(states[-1])
    return ((states >> np.uint64(24)).astype(np.float64) / FLOAT_UNIT).astype(np.float32)


def ray_intensities(power: np.float32, rng: JavaRandom | random.Random) -> np.ndarray:
    """Each ray's starting intensity in Beta's draw order (float32): power * (0.7F + nextFloat() * 0.6F)."""
    if isinstance(rng, JavaRandom):
        floats = _java_floats(rng, RAYS)
    else:
        floats = np.array([next_float(rng) for _ in range(RAYS)], dtype=np.float32)
    return (power * (INTENSITY_BASE + floats * INTENSITY_SPREAD)).astype(np.float32)


# --- checking --------------------------------------------------------------------------------------


def _real(what: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{what} must be a number, got {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{what} must be finite, got {value!r}")
    return value


def _point(what: str, value: object) -> Vector:
    try:
        items = tuple(value)
    except TypeError:
        raise TypeError(f"{what} must be three numbers (x, y, z), got {value!r}") from None
    if len(items) != 3:
        raise TypeError(f"{what} must be three numbers (x, y, z), got {value!r}")
    return tuple(_real(what, item) for item in items)


def _power(power: object) -> np.float32:
    value = _real("the power", power)
    if not 0.0 < value <= MAX_POWER:
        raise ValueError(f"the power must be > 0 and <= {MAX_POWER}, got {power!r}")
    return np.float32(value)


def _bodies(boxes: Sequence[AABB], positions: Sequence[Vector]) -> tuple[tuple[AABB, ...], tuple[Vector, ...]]:
    boxes, positions = tuple(boxes), tuple(positions)
    if len(boxes) != len(positions):
        raise ValueError(f"one position per box: {len(boxes)} boxes, {len(positions)} positions")
    for box in boxes:
        if not isinstance(box, AABB):
            raise TypeError(f"a body's box must be a physics.AABB, got {box!r}")
    return boxes, tuple(_point("a body's position", position) for position in positions)


# --- the rays --------------------------------------------------------------------------------------


def _most_steps(intensities: np.ndarray) -> int:
    """[steps] More than any ray can take: each step costs it at least 0.3F * 0.75F (2 spare for the
    float subtraction's rounding)."""
    return math.ceil(float(intensities.max()) / float(STEP_LOSS)) + 2


def _walk(soak_box: np.ndarray, strides: np.ndarray, offset: float, centre: np.ndarray,
          intensities: np.ndarray, most_steps: int) -> tuple[np.ndarray, np.ndarray]:
    """Every ray's destroyed cells as flat indices into the box `soak_box` (what each cell takes from a
    ray, raveled; a cell's flat index is its floor . `strides` - `offset`), with their order keys (ray
    * 2**20 + step), in no order. Rays are walked together in chunks of steps, each chunk twice the
    last; a ray leaves once its intensity is <= 0."""
    alive = np.arange(RAYS)
    positions = np.repeat(centre[:, None], RAYS, axis=1)  # (3, rays): x, y, z rows
    intensity = intensities.astype(np.float32)  # a copy, walked down in place
    step, chunk = 0, min(FIRST_STEPS, most_steps)
    found_cells, found_keys = [], []
    sx, sy, sz = strides
    while alive.size:
        if chunk <= 0:
            raise RuntimeError(f"an explosion ray outlived its {most_steps} steps")
        steps = _STEPS_BY_AXIS[:, alive]
        track = np.empty((3, chunk, alive.size))
        track[:, 0] = positions
        for k in range(1, chunk):  # Beta's running sums, one step at a time
            np.add(track[:, k - 1], steps, out=track[:, k])
        floors = np.floor(track)
        flat = floors[0] * sx
        flat += floors[1] * sy
        flat += floors[2]
        flat = (flat - offset).astype(np.intp)  # (chunk, rays); exact: small integers
        soaks = soak_box[flat]
        kept = np.empty((chunk, alive.size), dtype=bool)
        for k in range(chunk):  # Beta's float32 subtractions, one step at a time (in place: no new arrays)
            np.subtract(intensity, soaks[k], out=intensity)  # the cell's soak (0 for air)
            np.greater(intensity, 0.0, out=kept[k])
            np.subtract(intensity, STEP_LOSS, out=intensity)
        step_of, ray_of = np.nonzero(kept)
        found_cells.append(flat[kept])
        found_keys.append(alive[ray_of] * (1 << 20) + (step + step_of))
        going = intensity > 0.0
        positions = track[:, -1, going] + steps[:, going]
        alive, intensity = alive[going], intensity[going]
        step += chunk
        chunk = min(2 * chunk, most_steps - step)
    return np.concatenate(found_cells), np.concatenate(found_keys)


_NEVER = np.iinfo(np.int64).max
"""The order key of a cell no ray destroyed."""


def _destroyed(world, centre: Vector, intensities: np.ndarray) -> np.ndarray:
    """The destroyed cells ((n, 3) int64) in the order `doExplosionB` visits them."""
    most_steps = _most_steps(intensities)
    reach = most_steps * float(RAY_STEP)  # [blocks] no ray gets further from the centre along any axis
    low = np.floor(np.array(centre) - reach).astype(np.int64) - 1
    high = np.floor(np.array(centre) + reach).astype(np.int64) + 2
    size = high - low
    strides = np.array([size[1] * size[2], size[2], 1], dtype=np.int64)
    soak_box = _SOAK[world.ids_in_box(*low.tolist(), *high.tolist())].ravel()
    flat, keys = _walk(soak_box, strides.astype(np.float64), float(low @ strides),
                       np.array(centre, dtype=np.float64), intensities, most_steps)
    if not len(flat):
        return np.zeros((0, 3), dtype=np.int64)
    first = np.full(soak_box.size, _NEVER, dtype=np.int64)
    np.minimum.at(first, flat, keys)  # each cell's first visit: the earliest ray, then its earliest step
    reached = np.flatnonzero(first != _NEVER)
    added = reached[np.argsort(first[reached])]  # each cell once, as Beta first added it (keys are distinct)
    cells = np.stack([added // strides[0], added // strides[1] % size[1], added % size[2]], axis=1) + low
    return cells[hash_set_order(cells)[::-1]]  # doExplosionB walks the list backwards


# --- the bodies ------------------------------------------------------------------------------------


def _hit_bodies(world, centre: Vector, power: np.float32, boxes: tuple[AABB, ...],
                positions: tuple[Vector, ...]) -> tuple[BodyBlast, ...]:
    reach = np.float32(power * REACH_FACTOR)
    area = AABB(*(float(math.floor(c - float(reach) - 1.0)) for c in centre),
                *(float(math.floor(c + float(reach) + 1.0)) for c in centre))
    chosen, distances = [], []
    for index, (box, position) in enumerate(zip(boxes, positions)):
        if not box.intersects(area):
            continue
        dx, dy, dz = (p - c for p, c in zip(position, centre))
        distance = float(np.float32(math.sqrt(dx * dx + dy * dy + dz * dz))) / float(reach)  # Beta's getDistance
        if distance <= 1.0:
            chosen.append(index)
            distances.append(distance)
    if not chosen:
        return ()
    seen = exposures(world, centre, [boxes[index] for index in chosen])
    return tuple(_body_blast(index, centre, positions[index], distance, float(exposure), float(reach))
                 for index, distance, exposure in zip(chosen, distances, seen))


def _body_blast(index: int, centre: Vector, position: Vector, distance: float, exposure: float,
                reach: float) -> BodyBlast:
    dx, dy, dz = (p - c for p, c in zip(position, centre))
    length = float(np.float32(math.sqrt(dx * dx + dy * dy + dz * dz)))  # Beta's MathHelper.sqrt_double
    impact = (1.0 - distance) * exposure
    damage = int((impact * impact + impact) / 2.0 * DAMAGE_SCALE * reach + 1.0)
    if length == 0.0:
        return BodyBlast(index, damage, (0.0, 0.0, 0.0), exposure)
    return BodyBlast(index, damage, (dx / length * impact, dy / length * impact, dz / length * impact), exposure)


# --- the API ---------------------------------------------------------------------------------------


def blast(world, centre: Vector, power: float, rng: JavaRandom | random.Random,
          boxes: Sequence[AABB] = (), positions: Sequence[Vector] = ()) -> Blast:
    """Beta's `doExplosionA` at `centre` with `power` (Beta's explosionSize: a creeper 3, TNT 4): the
    cells it destroys and what it does to each body (`boxes[i]` and its position `positions[i]`, Beta's
    posX, posY, posZ). Reads `world` (`ids_in_box`) and draws 1,352 floats from `rng`; changes nothing
    else. TypeError or ValueError for bad arguments (nothing drawn then)."""
    centre = _point("the centre", centre)
    power = _power(power)
    require_rng(rng)
    boxes, positions = _bodies(boxes, positions)
    intensities = ray_intensities(power, rng)
    cells = _destroyed(world, centre, intensities)
    bodies = _hit_bodies(world, centre, power, boxes, positions)
    return Blast(centre, float(power), tuple(map(tuple, cells.tolist())), bodies)


def explosion_pitch(rng: JavaRandom | random.Random) -> float:
    """The explosion sound's pitch, Beta's first draws of `doExplosionB`: (1F + (nextFloat() -
    nextFloat()) * 0.2F) * 0.7F. A caller keeping Beta's order draws it after `blast` and before
    `apply_blast`."""
    require_rng(rng)
    first = np.float32(next_float(rng))
    second = np.float32(next_float(rng))
    return float((np.float32(1.0) + (first - second) * np.float32(0.2)) * np.float32(0.7))


Drop = Callable[[Cell, ItemStack, object], None]
"""`drop(cell, stack, rng)`: a stack falls out of the block broken at `cell` (the session's `_drop_item`)."""


def apply_blast(world, blast: Blast, rng: JavaRandom | random.Random, drop: Drop) -> tuple[BrokenCell, ...]:
    """Beta's `doExplosionB` (a server's: no particles): in `blast.cells`' order each cell that is not air
    now drops its items (`drop(cell, stack, rng)` for each, Beta's `dropBlockAsItemWithChance(..., 0.3F)`:
    quantityDropped, then per item nextFloat() > 0.3F skips it, else idDropped) and becomes air through
    the world's own edit (`set_id`, else `set_block`), which notifies its neighbours as Beta's
    `setBlockWithNotify` and leaves the light to the world's next resolve. Returns the blocks broken, in
    that order. What a broken block held (a chest's items) and what fell with it (a torch, a door's
    other half: `take_unsupported`) are the caller's."""
    if not isinstance(blast, Blast):
        raise TypeError(f"apply_blast needs a Blast, got {blast!r}")
    require_rng(rng)
    if not callable(drop):
        raise TypeError(f"drop must be callable as drop(cell, stack, rng), got {drop!r}")
    block_at = _block_reader(world)
    set_air = _air_setter(world)
    broken = []
    for cell in blast.cells:
        block = block_at(*cell)
        if block == AIR:
            continue
        for stack in _chance_drops(block, rng):
            drop(cell, stack, rng)
        set_air(*cell)
        broken.append(BrokenCell(cell, block))
    return tuple(broken)


def _chance_drops(block: int, rng: JavaRandom | random.Random) -> Iterator[ItemStack]:
    """Beta's `dropBlockAsItemWithChance(..., 0.3F)`: the items, one stack of 1 each, lazily in its draw
    order (the caller's `drop` may draw from the same `rng` between them, as Beta's spawn does)."""
    rule = harvest.DROP_RULES[block]
    for _ in range(rule.quantity(rng)):
        if np.float32(next_float(rng)) > DROP_CHANCE:
            continue
        item = rule.item_dropped(rng)
        if item is not None:
            yield ItemStack(item)


def _block_reader(world) -> Callable[[int, int, int], int]:
    """One cell's block id now (`GameWorld.id_at`)."""
    return world.id_at


def _air_setter(world) -> Callable[[int, int, int], object]:
    """Make one cell air through the world's own edit, which notifies the neighbours (`GameWorld.set_id`:
    `set_block` without the name look-up)."""
    set_id = world.set_id
    return lambda x, y, z: set_id(x, y, z, AIR)
