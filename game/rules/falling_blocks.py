"""Falling sand and gravel: Beta 1.7.3's `EntityFallingSand`, moved by Boxel physics, many at once.

Owns: `FallingBlock` (one falling block: its key, body, block id, age and the box it had a tick
earlier) and `FallingBlocks` (the live ones in a session: made from the world's
`take_falling_starts`, at most MAX_STARTS_PER_TICK a tick, moved each tick, landed as blocks,
saved with their columns and restored; `views` blends them between ticks for drawing, as
`FallingBlockView`s), a falling block's saved form (`falling_block_state`,
`falling_block_from_state`) and the entity's constants.
Pure: no Ursina. Does not own: deciding that a block starts to fall (`game.world.falling`, run by
the world's scheduled updates), collision (`physics.move`), drawing, or the column entity list
the mobs and projectiles share (`game.rules.saved_entities`).

One tick of a falling block (Beta's order): age + 1; vy -= GRAVITY; move by the velocity
(`physics.move`, no step-up); velocity *= DRAG; if the cell at its centre (floor of the box's
centre x and z, and of its min y + half height) still holds its own block, that block is
removed (the first tick takes the block it came from); then, on the ground, it lands: its cell
gets the block if that cell can take one (air or fluid) and the block would not fall again,
otherwise the block is lost (Beta drops it as an item; Boxel has no items yet). One that has
fallen for more than MAX_FALL_TICKS without landing is lost the same way.

Two ways to run that tick, with the same result bit for bit (the equivalence tests run both):
- one by one (`FallingBlocks(world, vectorised=False)`): `_step` above for every block in turn,
  the readable twin;
- vectorised (the default, on every `game.rules.game_world.GameWorld`): every block whose move can be worked out
  on arrays is moved that way, all at once, exactly as `physics.move` moves it: it moves down
  with no horizontal velocity, is not in a cobweb, and its stack of cells (FREE_FALL_CELLS_BELOW
  under its moved bottom up to its top) holds nothing but air, block boxes it cannot reach this
  tick, and full cubes it lands on, with no cobweb or soul sand where its contact pass looks.
  Then, in row order, `_settle` runs for each of those that landed or whose cell holds a block
  (a first tick takes its own block), and `_step` for every other block. A block that writes a
  cell takes every later block whose move read that cell off the arrays (it runs `_step` in its
  turn; when more than its own cell changed, lava beside water hardening, every later block is
  looked at again), so the one-by-one tick's order, and its result, are kept exactly.

Bounded work: at most MAX_STARTS_PER_TICK blocks start to fall in one tick; the rest are put
back in the world's queue for the next tick (their blocks stay in place until then, as every
block does until its body's first tick), so a collapse is spread over ticks and never loses a
block. Each started block lives at most MAX_FALL_TICKS + 1 ticks, so at most
MAX_IN_FLIGHT blocks are ever in flight.

Saving: `save()` writes every live falling block into the entity list of the column it is in
(its own entries only: `game.rules.saved_entities`), with its whole body, its previous box, age, key and
its place among the live ones; a new `FallingBlocks` on the same world restores them all, in
that order, so a save and reload in the middle of a fall runs on as if nothing happened. The
queue of blocks about to fall is the world's (saved with it). A saved falling block that cannot
be used is kept in its column as it is (written back unchanged) with a warning, and the others
come back; one whose key repeats another's (a copied entry) is dropped with a warning.
"""

from __future__ import annotations

import bisect
import heapq
import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

import physics
from physics.aabb import AABB
from physics.floats import f32
from physics.materials import Material
from physics.mover import GATHER_BELOW
from physics.shapes import FULL_CUBE, MAX_SHAPE_TOP
from physics.tolerances import CONTACT_TOLERANCE

from .game_world import GameWorld
from .player import blend
from .saved_entities import (FALLING_BLOCK, MAX_WHOLE_NUMBER, body_from_state, body_state, finite_box, owned_by,
                             read_entity, save_by_column, stored_entries, whole_number)
from .saved_values import preview
from ..world.blocks import AIR, MATERIAL, REPLACEABLE, SHAPES, SOLID, UnknownBlockError, block_id, block_name
from ..world.coords import WORLD_BORDER, WORLD_HEIGHT, column_of
from ..world.falling import FALLS, FallingStart, falls_into

GRAVITY = 0.04
"""[blocks/tick^2] Beta's `motionY -= 0.04` (a double)."""
DRAG = 0.98
"""Velocity kept per tick (Beta's `*= 0.98`, a double); terminal speed 1.96 blocks/tick."""
SIZE = f32(0.98)
"""[blocks] Edge of a falling block's box (Beta's `setSize(0.98F, 0.98F)`)."""
HALF = f32(SIZE / 2.0)
"""[blocks] Beta's float `width / 2.0F` and `yOffset = height / 2.0F`."""
MAX_FALL_TICKS = 100
"""[ticks] A falling block older than this that has not landed is lost (Beta's `fallTime > 100`)."""
SETTINGS = replace(physics.BETA, step_height=0.0)
"""Falling blocks never step up (Beta's entities have stepHeight 0)."""
MAX_STARTS_PER_TICK = 40
"""[blocks/tick] Most blocks that start to fall in one tick; the rest start in later ticks.
Why 40: a block's first tick (it takes its block from the world) and its landing write the
world one block at a time (~0.1 ms each, notifying the neighbours), so this bounds a tick's
writes to about 80; and every block in flight may be saved in one column's entity list, so
MAX_IN_FLIGHT of the longest saved entry (~800 bytes) must fit its 4 MiB with room for mobs.
A 16 x 16 pillar collapsing would start ~85 a tick (each of its 256 stacks lets one go every
FALL_TICKS); capped, it collapses about twice as slowly, every block kept."""
MAX_IN_FLIGHT = MAX_STARTS_PER_TICK * (MAX_FALL_TICKS + 1)
"""Most blocks ever in flight at once: each lives at most MAX_FALL_TICKS + 1 ticks."""
FREE_FALL_CELLS_BELOW = math.ceil(GATHER_BELOW + MAX_SHAPE_TOP)
"""[cells] How far under a moved box's bottom the vectorised step reads its stack: a move gathers
the block boxes GATHER_BELOW deeper than its box and a shape rises up to MAX_SHAPE_TOP above its
cell (fences), so the lowest cell a move reads is at most this far below (rounded up)."""
FREE_FALL_LOWEST = -8.0
"""[blocks] The vectorised step leaves to `_step` a block whose moved bottom is lower than this
(none gets there: the bedrock under y 0 stops them), so the cells it reads stay near the world."""
MAX_SAVED_SPEED = 2.0
"""[blocks/tick] Largest velocity component of a saved falling block: above the terminal 1.96."""
FALLING_STATE_VERSION = 1
"""Written into each saved falling block, so a later format can tell old ones apart."""
_OWNS = owned_by(FALLING_BLOCK)
_SIZE_SLACK = 1e-6
"""[blocks] How far a saved box's edges may be from SIZE: moves round its corners by far less."""
_BOX_LIMITS = ((-WORLD_BORDER, WORLD_BORDER), (-1.0, WORLD_HEIGHT + 1.0), (-WORLD_BORDER, WORLD_BORDER))
"""[blocks] Where a falling block's box can be: inside the border, no lower than the bedrock
under the world, no higher than the top cell (a block falls from inside the world)."""


class FallingBlockStateError(ValueError):
    """A saved falling block that cannot be used; the message names the field."""


@dataclass(frozen=True)
class FallingBlock:
    body: physics.Body
    block: int
    age_ticks: int = 0
    key: int = 0
    """Unique among this session's falling blocks (a renderer keys its model by it)."""
    previous: AABB | None = None
    """[blocks] Its box one tick earlier (views blend from it); None: where it is now (not moved yet)."""

    @classmethod
    def start(cls, start: FallingStart, key: int = 0) -> FallingBlock:
        """A falling block at rest at the centre of the block's cell (Beta's `x + 0.5F` etc.)."""
        x, y, z = (float(f32(c + 0.5)) for c in start.cell)
        box = AABB(x - HALF, y - HALF, z - HALF, x + HALF, y - HALF + SIZE, z + HALF)
        return cls(physics.Body(box), start.block, key=key)

    @property
    def cell(self) -> tuple[int, int, int]:
        """The cell of its position (Beta's posX, posY, posZ: the box's centre x, z and min y + HALF)."""
        box = self.body.box
        return (math.floor((box.min_x + box.max_x) / 2.0), math.floor(box.min_y + HALF),
                math.floor((box.min_z + box.max_z) / 2.0))


@dataclass(frozen=True, slots=True)
class FallingBlockView:
    """One falling block as drawn in a frame: blended between its last two ticks."""

    key: int
    block: int
    """Its block id (drawn with that block's textures)."""
    box: AABB
    """[blocks] Physics coordinates."""


# --- saved form ------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SavedFallingBlock:
    """A falling block read back from its column's entity list."""

    falling: FallingBlock
    order: int
    """Its place among the live falling blocks when saved (they step in this order)."""


def falling_block_state(falling: FallingBlock, order: int = 0) -> dict:
    """A falling block as JSON values for its column's entity list: its whole body (floats read
    back bit for bit), its previous box, age, key and `order` (its place among the live ones)."""
    return {
        "kind": FALLING_BLOCK,
        "version": FALLING_STATE_VERSION,
        "order": order,
        "key": falling.key,
        "block": block_name(falling.block),
        "age_ticks": falling.age_ticks,
        **body_state(falling.body),
        "previous": None if falling.previous is None else list(falling.previous),
    }


def falling_block_from_state(state: object) -> SavedFallingBlock:
    """The falling block saved by `falling_block_state`; FallingBlockStateError naming the field
    when it cannot be used (any value at all, however damaged, gives one or the other)."""
    return read_entity(_falling_block_from_state, state, "a saved falling block", FallingBlockStateError)


def _falling_block_from_state(state: object) -> SavedFallingBlock:
    owner, error = "a saved falling block", FallingBlockStateError
    if not isinstance(state, dict):
        raise error(f"{owner} must be an object, got {type(state).__name__}")
    if state.get("kind") != FALLING_BLOCK or state.get("version") != FALLING_STATE_VERSION:
        raise error(f"{owner} has kind {preview(state.get('kind'))} and version {preview(state.get('version'))}; "
                    f"this game reads kind {FALLING_BLOCK!r} version {FALLING_STATE_VERSION}")
    order = whole_number(state, "order", MAX_WHOLE_NUMBER, owner, error)
    key = whole_number(state, "key", MAX_WHOLE_NUMBER, owner, error)
    age = whole_number(state, "age_ticks", MAX_FALL_TICKS, owner, error)
    block = _falling_kind(state.get("block"))
    body = body_from_state(state, owner, error)
    _require_falling_box(body.box, "box")
    if any(abs(v) > MAX_SAVED_SPEED for v in body.velocity):
        raise error(f"{owner}'s 'velocity' must be within {MAX_SAVED_SPEED} blocks/tick, got {body.velocity!r}")
    previous = None
    if state.get("previous") is not None:
        previous = finite_box(state, "previous", owner, error)
        _require_falling_box(previous, "previous")
    return SavedFallingBlock(FallingBlock(body, block, age, key, previous), order)


def _falling_kind(name: object) -> int:
    try:
        block = block_id(name)
    except UnknownBlockError:
        block = AIR
    if not FALLS[block]:
        raise FallingBlockStateError(f"a saved falling block's 'block' must name a block that falls, "
                                     f"got {preview(name)}")
    return block


def _require_falling_box(box: AABB, field: str) -> None:
    """FallingBlockStateError unless `box` is a falling block's cube, where one can be."""
    for axis, (low, high) in enumerate(_BOX_LIMITS):
        lo, hi = box[axis], box[axis + 3]
        if abs((hi - lo) - SIZE) > _SIZE_SLACK or not low <= lo <= hi <= high:
            raise FallingBlockStateError(f"a saved falling block's {field!r} must be a {SIZE:.2f} cube inside the "
                                         f"world, got {tuple(box)!r}")


# --- many falling blocks as arrays -----------------------------------------------------------------

_HIGHEST_TOP = np.array([max((b.max_y for b in shape), default=0.0) for shape in SHAPES])
"""[blocks] Top of each block's highest collision box above its cell's floor (0 without boxes)."""
_LOWEST_TOP = np.array([min((b.max_y for b in shape), default=0.0) for shape in SHAPES])
"""[blocks] Top of each block's lowest collision box above its cell's floor (0 without boxes)."""
_CUBE = np.array([shape == FULL_CUBE for shape in SHAPES])
"""Blocks whose collision shape is one full unit box (the vectorised step lands on those)."""
_SLOWS = np.isin(MATERIAL, [Material.WEB, Material.SOUL_SAND])
"""Blocks whose contact changes a body's next move (the vectorised step leaves those to `_step`)."""
_MATERIALS = list(Material)
_NO_TOUCH = np.empty(1, dtype=object)
_NO_TOUCH[0] = frozenset()
_FLAGS = ("on_ground", "collided_horizontally", "collided_vertically", "in_water", "in_lava", "in_web")
_ON_GROUND, _COLLIDED_H, _COLLIDED_V, _IN_WATER, _IN_LAVA, _IN_WEB = range(len(_FLAGS))


@dataclass
class _Flight:
    """Falling blocks as one row each (in step order): what a `FallingBlock` holds, as arrays."""

    key: np.ndarray  # int64
    block: np.ndarray  # int64
    age: np.ndarray  # int64
    box: np.ndarray  # (n, 6) float64
    velocity: np.ndarray  # (n, 3) float64
    flags: np.ndarray  # (n, 6) bool, in _FLAGS order
    camera_lag: np.ndarray  # float64
    fall_distance: np.ndarray  # float64
    fall_damage: np.ndarray  # int64
    touching: np.ndarray  # object: frozensets of physics.Material
    previous: np.ndarray  # (n, 6) float64 (rows without one hold their box)
    has_previous: np.ndarray  # bool

    def __len__(self) -> int:
        return len(self.key)

    @classmethod
    def of(cls, blocks: Sequence[FallingBlock]) -> _Flight:
        bodies = [falling.body for falling in blocks]
        touching = np.empty(len(blocks), dtype=object)
        touching[:] = [body.touching for body in bodies]
        return cls(
            np.array([falling.key for falling in blocks], dtype=np.int64),
            np.array([falling.block for falling in blocks], dtype=np.int64),
            np.array([falling.age_ticks for falling in blocks], dtype=np.int64),
            np.array([tuple(body.box) for body in bodies], dtype=np.float64).reshape(-1, 6),
            np.array([body.velocity for body in bodies], dtype=np.float64).reshape(-1, 3),
            np.array([[getattr(body, name) for name in _FLAGS] for body in bodies], dtype=bool).reshape(-1, 6),
            np.array([body.camera_lag for body in bodies], dtype=np.float64),
            np.array([body.fall_distance for body in bodies], dtype=np.float64),
            np.array([body.fall_damage for body in bodies], dtype=np.int64),
            touching,
            np.array([tuple(f.previous if f.previous is not None else f.body.box) for f in blocks],
                     dtype=np.float64).reshape(-1, 6),
            np.array([falling.previous is not None for falling in blocks], dtype=bool),
        )

    @classmethod
    def starting(cls, starts: Sequence[FallingStart], first_key: int) -> _Flight:
        """`FallingBlock.start` of every start (keys from `first_key` on), made on arrays."""
        count = len(starts)
        cells = np.array([start.cell for start in starts], dtype=np.int64).reshape(-1, 3)
        x, y, z = _f32(cells + 0.5).T
        box = np.stack([x - HALF, y - HALF, z - HALF, x + HALF, y - HALF + SIZE, z + HALF], axis=1)
        touching = np.empty(count, dtype=object)
        touching[:] = _NO_TOUCH[0:1].repeat(count)
        return cls(np.arange(first_key, first_key + count, dtype=np.int64),
                   np.array([start.block for start in starts], dtype=np.int64), np.zeros(count, dtype=np.int64), box,
                   np.zeros((count, 3)), np.zeros((count, len(_FLAGS)), dtype=bool), np.zeros(count),
                   np.zeros(count), np.zeros(count, dtype=np.int64), touching, box.copy(), np.zeros(count, dtype=bool))

    def blocks(self) -> list[FallingBlock]:
        """Every row as a `FallingBlock` (the values read back exactly)."""
        columns = (self.key.tolist(), self.block.tolist(), self.age.tolist(), self.box.tolist(),
                   self.velocity.tolist(), self.flags.tolist(), self.camera_lag.tolist(),
                   self.fall_distance.tolist(), self.fall_damage.tolist(), self.touching.tolist(),
                   self.previous.tolist(), self.has_previous.tolist())
        return [_falling_block(*values) for values in zip(*columns)]

    def block_at(self, row: int) -> FallingBlock:
        """Row `row` as a `FallingBlock`."""
        return _falling_block(int(self.key[row]), int(self.block[row]), int(self.age[row]), self.box[row].tolist(),
                              self.velocity[row].tolist(), self.flags[row].tolist(), float(self.camera_lag[row]),
                              float(self.fall_distance[row]), int(self.fall_damage[row]), self.touching[row],
                              self.previous[row].tolist(), bool(self.has_previous[row]))

    def rows(self, index) -> _Flight:
        """The rows `index` (a mask or indices) as a new `_Flight`."""
        return _Flight(*(getattr(self, name)[index] for name in self.__dataclass_fields__))

    def copy(self) -> _Flight:
        return _Flight(*(getattr(self, name).copy() for name in self.__dataclass_fields__))

    def put(self, row: int, falling: FallingBlock) -> None:
        """Overwrite row `row` with `falling`."""
        self.key[row], self.block[row], self.age[row] = falling.key, falling.block, falling.age_ticks
        body = falling.body
        self.box[row] = tuple(body.box)
        self.velocity[row] = body.velocity
        self.flags[row] = [getattr(body, name) for name in _FLAGS]
        self.camera_lag[row], self.fall_distance[row] = body.camera_lag, body.fall_distance
        self.fall_damage[row] = body.fall_damage
        self.touching[row] = body.touching
        self.has_previous[row] = falling.previous is not None
        self.previous[row] = tuple(falling.previous if falling.previous is not None else body.box)

    @staticmethod
    def joined(first: _Flight, second: _Flight) -> _Flight:
        return _Flight(*(np.concatenate([getattr(first, name), getattr(second, name)])
                         for name in first.__dataclass_fields__))


def _falling_block(key: int, block: int, age: int, box: list, velocity: list, flags: list, lag: float, fall: float,
                   damage: int, touching: frozenset, previous: list, has_previous: bool) -> FallingBlock:
    on_ground, horizontally, vertically, in_water, in_lava, in_web = flags
    body = physics.Body._trusted(AABB._trusted(*box), tuple(velocity), on_ground, horizontally, vertically, lag, fall,
                                 in_water, in_lava, in_web, damage, touching)
    return FallingBlock(body, block, age, key, AABB._trusted(*previous) if has_previous else None)


@dataclass
class _FreeFall:
    """What the vectorised tick found before moving (per row)."""

    free: np.ndarray
    """bool: its move is worked out on arrays (module docstring); taken out again when a cell it
    read changes before its turn, and then it runs `_step`."""
    settle: np.ndarray
    """bool: its move is known, but it landed, or its cell holds a block after the move (maybe its
    own): `_settle` runs for it in its turn."""
    allowed: np.ndarray
    """float64: the part of its move down the clip allows (its velocity, or up to a full cube's top)."""
    touching: dict[int, frozenset]
    """The materials the contact pass after the move meets, for the rows in `free` that meet any."""
    x: np.ndarray
    z: np.ndarray
    """int64: the stack (cell x and z) of each row in `free`."""
    low: np.ndarray
    high: np.ndarray
    """int64: the lowest and highest cell (y) of its stack that its move and contact pass read."""


class _Stacks:
    """The rows in `free` by stack, to find those that read a changed cell."""

    def __init__(self, read: _FreeFall) -> None:
        rows = np.flatnonzero(read.free)
        keys = _stack_key(read.x[rows], read.z[rows])
        order = np.argsort(keys, kind="stable")
        self._keys = keys[order].tolist()
        self._rows = rows[order].tolist()
        self._low, self._high = read.low.tolist(), read.high.tolist()

    def reading(self, cell: tuple[int, int, int], after: int, free: np.ndarray) -> list[int]:
        """The rows after row `after`, still in `free`, whose move read `cell`."""
        x, y, z = cell
        key = _stack_key(x, z)
        first, last = bisect.bisect_left(self._keys, key), bisect.bisect_right(self._keys, key)
        return [row for row in self._rows[first:last]
                if row > after and free[row] and self._low[row] <= y <= self._high[row]]


def _moved_freely(flight: _Flight, vy: np.ndarray, read: _FreeFall) -> _Flight:
    """The rows with every block in `read.free` moved as `physics.move` moves it (`read.allowed` of
    its `vy`: the box drops by that, a shortened move sets on_ground and zeroes the vertical
    velocity, the fall distance grows or becomes damage on landing, the camera lag decays, the
    contact pass gives `read.touching`), then the drag; the other rows as they were."""
    after = flight.copy()
    rows = np.flatnonzero(read.free)
    move, allowed = vy[rows], read.allowed[rows]
    landed = allowed != move
    shift = allowed != 0.0
    after.box[rows, 1] = np.where(shift, flight.box[rows, 1] + allowed, flight.box[rows, 1])
    after.box[rows, 4] = np.where(shift, flight.box[rows, 4] + allowed, flight.box[rows, 4])
    after.velocity[rows, 0] *= DRAG
    after.velocity[rows, 1] = np.where(landed, 0.0, move) * DRAG
    after.velocity[rows, 2] *= DRAG
    after.flags[rows, _ON_GROUND] = after.flags[rows, _COLLIDED_V] = landed
    after.flags[rows, _COLLIDED_H] = after.flags[rows, _IN_WEB] = False
    after.camera_lag[rows] = _f32(flight.camera_lag[rows] * SETTINGS.camera_lag_decay)
    fall = flight.fall_distance[rows]
    damage = np.maximum(0.0, np.ceil(_f32(fall - SETTINGS.safe_fall_distance)))
    after.fall_damage[rows] = np.where(landed & (fall > 0.0), damage, 0.0).astype(np.int64)
    after.fall_distance[rows] = np.where(landed, np.where(fall > 0.0, 0.0, fall), _f32(fall - allowed))
    after.touching[rows] = _NO_TOUCH
    for row, touching in read.touching.items():
        after.touching[row] = touching
    after.previous[rows] = flight.box[rows]
    after.has_previous[rows] = True
    after.age[rows] += 1
    return after


# --- the live falling blocks -----------------------------------------------------------------------

class FallingBlocks:
    """The falling blocks of one session; `tick()` starts and moves them, `save()` stores them.

    `world`: a `game.rules.game_world.GameWorld` (its blocks and collision query, `ids_in_box` and
    `revision` for the vectorised step, `take_falling_starts` and `schedule` for blocks to start
    falling, the column entity lists for saving). The falling blocks saved in it come back at once.
    `vectorised`: True (default; None is the same) steps them on arrays, False one by one: the
    same result either way. TypeError for anything else, or for a world that is not a GameWorld.
    """

    def __init__(self, world, vectorised: bool | None = None) -> None:
        if vectorised is not None and not isinstance(vectorised, bool):
            raise TypeError(f"vectorised must be None, True or False, got {vectorised!r}")
        if not isinstance(world, GameWorld):
            raise TypeError(f"falling blocks need a game.rules.game_world.GameWorld (a World or the lab's Arena: "
                            f"ids_in_box, take_falling_starts, column entities...), got {world!r}")
        self.world = world
        self.vectorised = True if vectorised is None else vectorised
        """Step on arrays (True) or one by one (False): the same result either way."""
        self.landed = 0
        """Blocks that landed as blocks since the session started."""
        self.lost = 0
        """Blocks that could not land (their cell taken, or they fell too long)."""
        self.started = 0
        """Blocks that started to fall since the session started (the next one's key)."""
        self.deferred = 0
        """Starts put back in the world's queue for a later tick (MAX_STARTS_PER_TICK)."""
        self.moved_on_arrays = 0
        """Blocks whose last tick's move was worked out on arrays (the others ran `_step`)."""
        self._flight = _Flight.of([])
        self._live: list[FallingBlock] | None = []
        """The rows as FallingBlocks, made when first read after a change."""
        self._stored_columns: set[tuple[int, int]] = set()
        """Columns whose entity list holds (or may hold) falling blocks this session wrote or read."""
        self._unreadable: dict[tuple[int, int], list[dict]] = {}
        """Saved falling blocks that could not be read, by column: written back unchanged."""
        self._restore_saved()

    # --- reading -------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._flight)

    @property
    def live(self) -> list[FallingBlock]:
        """The live falling blocks, in the order they step (a new list; changing it changes nothing)."""
        if self._live is None:
            self._live = self._flight.blocks()
        return list(self._live)

    @live.setter
    def live(self, blocks: Sequence[FallingBlock]) -> None:
        blocks = list(blocks)
        if not all(isinstance(falling, FallingBlock) for falling in blocks):
            raise TypeError("live falling blocks must be FallingBlocks")
        self._flight = _Flight.of(blocks)
        self._live = blocks

    @property
    def bodies(self) -> list[physics.Body]:
        return [falling.body for falling in self.live]

    def views(self, alpha: float) -> list[FallingBlockView]:
        """Every live falling block `alpha` (0..1) of the way from its previous tick to its latest one."""
        flight = self._flight
        boxes = np.where(flight.has_previous[:, None], blend(flight.previous, flight.box, alpha), flight.box)
        return [FallingBlockView(key, block, AABB._trusted(*box))
                for key, block, box in zip(flight.key.tolist(), flight.block.tolist(), boxes.tolist())]

    # --- the tick --------------------------------------------------------------------------------

    def tick(self) -> None:
        """Start the world's new falling blocks (at most MAX_STARTS_PER_TICK), then move every live
        one one tick, in order."""
        self._start(self.world.take_falling_starts())
        if self.vectorised:
            self._tick_vectorised()
        else:
            self.live = [moved for falling in self.live if (moved := self._step(falling)) is not None]

    def _start(self, starts: list[FallingStart]) -> None:
        """Make bodies of the first MAX_STARTS_PER_TICK `starts`; put the rest back in the world's
        queue for the next tick (`schedule`)."""
        if len(starts) > MAX_STARTS_PER_TICK:
            for start in starts[MAX_STARTS_PER_TICK:]:
                self.world.schedule(*start.cell, 1)
            self.deferred += len(starts) - MAX_STARTS_PER_TICK
            starts = starts[:MAX_STARTS_PER_TICK]
        if not starts:
            return
        if self.vectorised:
            self._flight = _Flight.joined(self._flight, _Flight.starting(starts, self.started))
            self._live = None
        else:
            self.live = self.live + [FallingBlock.start(start, key=self.started + i) for i, start in enumerate(starts)]
        self.started += len(starts)

    def _step(self, falling: FallingBlock) -> FallingBlock | None:
        """One tick of one falling block (the module docstring's steps): it moved, or None when it
        landed or was lost. The readable reference of the vectorised tick."""
        return self._settle(self._move(falling))[0]

    def _move(self, falling: FallingBlock) -> FallingBlock:
        """Gravity, the move and the drag: the block a tick on, before it touches the world."""
        vx, vy, vz = falling.body.velocity
        vy -= GRAVITY
        body = physics.move(falling.body._with_velocity((vx, vy, vz)), vx, vy, vz, self.world, SETTINGS)
        vx, vy, vz = body.velocity
        body = body._with_velocity((vx * DRAG, vy * DRAG, vz * DRAG))
        return FallingBlock(body, falling.block, falling.age_ticks + 1, falling.key, falling.body.box)

    def _settle(self, falling: FallingBlock) -> tuple[FallingBlock | None, int]:
        """The world's part of a tick of moved `falling`: take its block, land it or lose it. Returns
        it (None when it landed or was lost) and how many cells it changed (all at its cell)."""
        world = self.world
        cell = falling.cell
        name = block_name(falling.block)
        changed = 0
        if world.get_block(*cell) == name:
            changed += bool(world.set_block(*cell, "air"))
        if falling.body.on_ground:
            x, y, z = cell
            free = world.can_hold(x, y, z) and REPLACEABLE[block_id(world.get_block(x, y, z))]
            if free and not falls_into(block_id(world.get_block(x, y - 1, z))):
                changed += bool(world.set_block(*cell, name))
                self.landed += 1
            else:
                self.lost += 1
            return None, changed
        if falling.age_ticks > MAX_FALL_TICKS:
            self.lost += 1
            return None, changed
        return falling, changed

    def _tick_vectorised(self) -> None:
        """The one-by-one tick's result, with the blocks in free fall moved together (module docstring)."""
        flight = self._flight
        self.moved_on_arrays = 0
        if not len(flight):
            return
        vy = flight.velocity[:, 1] - GRAVITY
        read = self._free_fall(flight, vy)
        after = _moved_freely(flight, vy, read)
        stepped = self._in_order(flight, after, vy, read)
        self.moved_on_arrays = int(read.free.sum())
        self._flight = self._next_rows(after, read.free, stepped)
        self._live = None

    def _in_order(self, flight: _Flight, after: _Flight, vy: np.ndarray,
                  read: _FreeFall) -> dict[int, FallingBlock | None]:
        """In row order: `_step` every block not in free fall, and `_settle` every block in free fall
        whose cell holds a block after its move (it may take its own block from the world). A cell
        one of them changes takes every later block whose free fall read that cell out of
        `read.free`: it runs `_step` in its turn. Returns what each one became (None: gone)."""
        world, free = self.world, read.free
        waiting = np.flatnonzero(~free | read.settle).tolist()
        heapq.heapify(waiting)
        stepped: dict[int, FallingBlock | None] = {}
        stacks = None
        while waiting:
            row = heapq.heappop(waiting)
            if row in stepped:
                continue
            before = world.revision
            if free[row]:
                moved = after.block_at(row)
            else:
                moved = self._move(flight.block_at(row) if self._live is None else self._live[row])
            stepped[row], written = self._settle(moved)
            changes = world.revision - before
            if not changes:
                continue
            if changes == written:  # only its own cell changed
                if stacks is None:
                    stacks = _Stacks(read)
                later = stacks.reading(moved.cell, row, free)
            else:  # more changed (lava beside water hardened): look at every later block again
                again = self._free_fall(flight, vy).free
                later = [other for other in np.flatnonzero(free & ~again).tolist() if other > row]
            for other in later:
                free[other] = False
                heapq.heappush(waiting, other)
        return stepped

    def _next_rows(self, after: _Flight, free: np.ndarray, stepped: dict[int, FallingBlock | None]) -> _Flight:
        """The rows after the tick: each stepped one as it became, the rest as they fell; the landed
        and lost are gone (blocks in free fall past MAX_FALL_TICKS are lost here)."""
        keep = np.ones(len(after), dtype=bool)
        unsettled = free.copy()
        unsettled[list(stepped)] = False
        too_old = unsettled & (after.age > MAX_FALL_TICKS)
        keep[too_old] = False
        self.lost += int(too_old.sum())
        for row, falling in stepped.items():
            if falling is None:
                keep[row] = False
            else:
                after.put(row, falling)
        return after.rows(keep)

    def _free_fall(self, flight: _Flight, vy: np.ndarray) -> _FreeFall:
        """Which blocks are in free fall this tick (module docstring) and what their moves read."""
        box, velocity = flight.box, flight.velocity
        x0, z0 = np.floor(box[:, 0]), np.floor(box[:, 2])
        bottom = box[:, 1] + vy
        free = ((vy < 0.0) & (velocity[:, 0] == 0.0) & (velocity[:, 2] == 0.0) & ~flight.flags[:, _IN_WEB]
                & (np.ceil(box[:, 3]) - 1.0 == x0) & (np.ceil(box[:, 5]) - 1.0 == z0)
                & (x0 >= -WORLD_BORDER) & (x0 < WORLD_BORDER) & (z0 >= -WORLD_BORDER) & (z0 < WORLD_BORDER)
                & (bottom >= FREE_FALL_LOWEST) & (box[:, 4] <= WORLD_HEIGHT + FREE_FALL_CELLS_BELOW))
        x = np.where(free, x0, 0.0).astype(np.int64)
        z = np.where(free, z0, 0.0).astype(np.int64)
        low = np.where(free, np.floor(bottom) - FREE_FALL_CELLS_BELOW, 0.0).astype(np.int64)
        high = np.where(free, np.ceil(box[:, 4]) - 1.0, -1.0).astype(np.int64)
        read = _FreeFall(free, np.zeros(len(free), dtype=bool), vy.copy(), {}, x, z, low, high)
        self._read_cells(read, box, vy)
        return read

    def _read_cells(self, read: _FreeFall, box: np.ndarray, vy: np.ndarray) -> None:
        """Read the stack cells low..high of every block in `read.free` (cells above the world are air;
        the blocks once per column) and work out its move as `physics.move` would: the clip
        (`physics.clip.clip_axis` for a move down) stops it at the top of a full cube it reaches;
        a block that any other block box could stop (tested for every box of a cell between its
        lowest and highest top), or whose contact pass after the move meets a cobweb or soul sand,
        is taken out of `read.free`. Notes each one's allowed move, what its contact pass touches
        and whether it must settle in turn (it landed, or its cell holds a block)."""
        free = read.free
        rows = np.flatnonzero(free)
        if not rows.size:
            return
        low, high = read.low[rows], np.minimum(read.high[rows], WORLD_HEIGHT - 1)
        cells = low[:, None] + np.arange(max(1, int((high - low).max()) + 1))  # (rows, window): y of each cell
        ids = self._ids_of(read.x[rows], read.z[rows], cells, cells <= high[:, None])
        move, bottom = vy[rows], box[rows, 1]
        floor = cells.astype(np.float64)
        lowest_gap = (floor + _LOWEST_TOP[ids]) - bottom[:, None]
        highest_gap = (floor + _HIGHEST_TOP[ids]) - bottom[:, None]
        meets = SOLID[ids] & (lowest_gap <= CONTACT_TOLERANCE) & (highest_gap > move[:, None])
        stopped = (meets & ~_CUBE[ids]).any(axis=1)  # a box the clip may stop it at that is not a full cube
        cube_gap = (floor + 1.0) - bottom[:, None]  # a full cube's one box: the clip's gap
        allowed = np.where(meets, np.where(cube_gap < 0.0, cube_gap, 0.0), -np.inf).max(axis=1, initial=-np.inf)
        allowed = np.maximum(move, allowed)
        moved_bottom = np.where(allowed == 0.0, bottom, bottom + allowed)
        moved_top = np.where(allowed == 0.0, box[rows, 4], box[rows, 4] + allowed)
        inset = SETTINGS.contact_inset
        materials = MATERIAL[ids]
        touched = ((cells >= np.floor(moved_bottom + inset)[:, None]) & (cells <= np.floor(moved_top - inset)[:, None])
                   & (materials != Material.AIR))
        stopped |= (touched & _SLOWS[ids]).any(axis=1)
        free[rows[stopped]] = False
        read.allowed[rows] = allowed
        centre = np.minimum(np.floor(moved_bottom + HALF).astype(np.int64) - low, ids.shape[1] - 1)
        read.settle[rows] = ~stopped & ((allowed != move) | (ids[np.arange(len(rows)), centre] != AIR))
        for i in np.flatnonzero(~stopped & touched.any(axis=1)).tolist():
            read.touching[int(rows[i])] = frozenset(_MATERIALS[m] for m in materials[i][touched[i]].tolist())

    def _ids_of(self, x: np.ndarray, z: np.ndarray, cells: np.ndarray, inside: np.ndarray) -> np.ndarray:
        """The block ids of cells (x, cells, z) (one row of cells per stack; AIR where not `inside`),
        read with one `ids_in_box` per column."""
        ids = np.zeros(cells.shape, dtype=np.int64)
        columns = ((x >> 4) << 32) + ((z >> 4) & 0xFFFFFFFF)
        order = np.argsort(columns, kind="stable")
        for group in np.split(order, np.flatnonzero(np.diff(columns[order])) + 1):
            gx, gz = x[group], z[group]
            ys = np.where(inside[group], cells[group], cells[group, :1])
            x0, y0, z0 = int(gx.min()), int(ys.min()), int(gz.min())
            blocks = self.world.ids_in_box(x0, y0, z0, int(gx.max()) + 1, int(ys.max()) + 1, int(gz.max()) + 1)
            ids[group] = blocks[(gx - x0)[:, None], ys - y0, (gz - z0)[:, None]]
        ids[~inside] = AIR
        return ids

    # --- saving --------------------------------------------------------------------------------------

    def save(self) -> None:
        """Store every live falling block with the column it is in (`World.set_column_entities`; only
        this kind's entries are replaced) and empty its entries in columns they left. They stay live."""
        by_column: dict[tuple[int, int], list[dict]] = {}
        for order, falling in enumerate(self.live):
            x, _, z = falling.cell
            by_column.setdefault(column_of(x, z), []).append(falling_block_state(falling, order))
        save_by_column(self.world, _OWNS, by_column, self._stored_columns, self._unreadable)
        self._stored_columns = set(by_column)

    def _restore_saved(self) -> None:
        """Bring back every falling block saved in the world, in its saved order (module docstring)."""
        restored: list[tuple[tuple[int, int], SavedFallingBlock]] = []
        for column, state in stored_entries(self.world, _OWNS):
            self._stored_columns.add(column)
            try:
                restored.append((column, falling_block_from_state(state)))
            except FallingBlockStateError as error:
                self._unreadable.setdefault(column, []).append(state)
                warnings.warn(f"a falling block saved in column {column} cannot be used and is kept as it is: "
                              f"{error}", stacklevel=3)
        keys: set[int] = set()
        blocks = []
        for column, saved in sorted(restored, key=lambda item: item[1].order):
            if saved.falling.key in keys:
                warnings.warn(f"a falling block saved in column {column} repeats another's key and is dropped",
                              stacklevel=3)
                continue
            keys.add(saved.falling.key)
            blocks.append(saved.falling)
        if blocks:
            self.live = blocks
            self.started = max(keys) + 1


def _stack_key(x, z):
    """One int (int64 for arrays) per stack of cells (x, z): x in the high 32 bits, z in the low ones."""
    return (x << 32) + (z & 0xFFFFFFFF)


def _f32(values: np.ndarray) -> np.ndarray:
    """`physics.floats.f32` of every value (rounded to the nearest binary32, as doubles)."""
    return values.astype(np.float32).astype(np.float64)

