"""Beta 1.7.3's monster pathfinding: `PathFinder`, `Path` (its open heap) and `PathEntity`, over Boxel's blocks.

Owns: `find_path` (Beta's `createEntityPathTo` for a box and a target point, within `max_distance`;
its readable twin is `pathfinding_by_cells.find_path_by_cells`), `path_query` (the body's cells, start
and goal), the walking rule of one cell (`cell_kind`, Beta's `getVerticalOffset` for one block), the
found `Path` with Beta's `getPosition`, and `PathBudget`, the nodes path searches may expand per tick
(`POSTPONED` when a search does not fit), with the answers it keeps while the world is unchanged and
the slabs it keeps from tick to tick.
Does not own: when a creature asks for a path, which target it picks, or how it walks one (the mob
brain), nor the world (read through `GameWorld.ids_in_box`, and `get_block` by the twin).

Beta's rules, from the decompiled `PathFinder` (b1.7.3):
- the body takes floor(width + 1) x floor(height + 1) x floor(width + 1) cells; the search starts at
  the cell of the box's min corner and aims at floor(x - width/2), floor(y), floor(z - width/2);
- a body's cells say what a point is (`getVerticalOffset`, the first cell that is not clear, x then
  y then z): a solid block or a closed door blocks (0), water is -1, lava -2, else clear (1).
  Solid is Beta's `Material.isSolid`: every block but air, plants, torches, ladders and fluids
  (cobwebs and cacti are solid); an open door is clear, a closed one blocks;
- the four horizontal neighbours (z + 1, x - 1, x + 1, z - 1, in that order) of a point; a neighbour
  whose body is not clear may be stepped onto one cell up when the body fits one cell above the
  current point and above the neighbour; a point then falls while the cells below are clear, at
  most 3 cells (the 4th clear cell below drops it), and never lands on lava;
- so water and lava are never entered (only stood above, water only), and a target inside a wall
  or in water is never reached: the path then ends at the point closest to it;
- A* on Euclidean distance in float32, with Beta's binary heap (its tie order decides between equal
  paths), only through points closer than `max_distance` to the target (Beta's monsters: 16).
Beta reads blocks through a `ChunkCache` of +-32 blocks around the body: every point within 16 of
a target within 16 of the body lies inside it, so reading the world itself changes nothing.

The fast path reads one numpy slab of ids around the target, turns it into each origin's
`getVerticalOffset` (and which origins are level ground) with a few whole-array passes, and runs Beta's
search over that table as bytes; the twin reads each cell by name and follows Beta's code line by line.
They agree exactly (tests). A `PathBudget` keeps its slabs from tick to tick, cut on whole sections so
that nearby searches share them, and brings one up to date after a few block edits (reading again only
the origins around them) rather than cutting it again; and a budgeted search that cannot fit
what is left of the tick, for a goal no search can end on, is counted by a plain flood of the same
neighbours instead of searched (`_opens_more_than`: the same POSTPONED, the same nodes spent).
Beta's `PathPoint.makeHash` aliases cells 128+ blocks apart; no search reaches that far, so cells are
keyed exactly here.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass

import numpy as np

from physics import AABB
from physics.materials import Material
from ..world.blocks import MATERIAL, NAMES, block_id
from ..world.coords import CHUNK_SIZE

Cell = tuple[int, int, int]

BLOCKED, CLEAR, WATER, LAVA = 0, 1, -1, -2
"""Beta's `getVerticalOffset` verdicts for a body's cells: blocked, clear, in water, in lava."""
FALL_LIMIT = 4
"""[cells] Beta's `getSafePoint` gives up on a point once this many clear cells lie below it: drops of 3 at most."""
STEP_UP = 1
"""[cells] How far up a neighbour may be stepped onto (Beta's `findPathOptions`)."""
MONSTER_RANGE = 16.0
"""[blocks] Beta's `EntityCreature` paths to its target through points within 16 blocks of it."""
NODE_COST_US = 5.0
"""[us] Measured cost of one expanded node of `find_path`, slab read included (bench `pathfinding`,
2026-11-28, level ground in the slab and Beta's heap keys in a list: 4.0-5.4 us on reachable 16-block
searches, flat ground, maze and cave, at the quietest, 2.8-3.5 us on exhaustive ones; up to 7 us with the
shared 2-core machine loaded; the readable twin is 10-50x slower)."""
DEFAULT_NODES_PER_TICK = 200
"""[nodes] Expanded nodes per tick for all searches together: ~1 ms at NODE_COST_US. With 100 monsters
chasing two players (`python -m bench creatures`), most searches open a node or two (a monster beside its
target whose path ran out asks again each tick, as Beta's does), a few 100-300; 200 lets one whole chase
and the short ones through each tick, and a tick's first search runs whole (at most MAX_SEARCH_NODES), so
every search runs on some tick; the searches after it wait."""
MAX_SEARCH_NODES = 400
"""[nodes] A budgeted search (a creature's in play) ends after this many nodes with the path to the point
closest to its goal so far, as Beta ends one with no way to the goal. Beta searches on: a walled-off
target within 16 blocks opens 500-800 nodes, 3-6 ms in Python; a chase across open ground opens ~150, so
only a target out of reach is cut short, and then Beta's answer is also a way toward the closest point."""
MAX_REMEMBERED_PATHS = 4096
"""[answers] A budget remembers at most this many finished searches while the world is unchanged
(then starts again): far more than a tick's creatures ask."""
MAX_KEPT_SLABS = 16
"""[slabs] A budget keeps at most this many slabs of each body size (the oldest goes first). A 16-block
search's slab, cut on whole sections, holds 50-250 KB of codes and as many bytes of level ground: a few
MB for each size at most. The creature bench's 150 creatures (three sizes) keep 2-16 of each and cut ~15
slabs in 300 ticks, where cutting each search's own slab every tick cut ~150."""
MAX_PATCHED_CELLS = 64
"""[cells] A kept slab is brought up to date when at most this many blocks changed since it was read
(it reads again the box around those inside it); after more, it is dropped and a new one cut. On the
creature bench's world a 16-block slab took 0.74 ms to cut and 0.16-0.21 ms to bring up to date after
1-8 edits inside it."""
SLAB_ALIGN = CHUNK_SIZE
"""[blocks] A budget's slabs read blocks in boxes rounded out to whole sections (`_aligned_bounds`), so
that searches around nearby goals (a wander's random spot) share one: a larger slab costs a little more
to cut, and is cut far less often. Whole sections and columns: the box touches exactly the columns (and
the world's build height) the search's own box touches, so cutting it loads no other column."""
_NEAREST_MARGIN = 5.0
"""[blocks] A neighbour lies within sqrt(1 + 3^2) < 5 of its point: a start this much beyond `max_distance`
has no neighbour close enough, and Beta returns no path."""


class Postponed:
    """The marker `find_path` returns when a search did not fit this tick's `PathBudget`."""

    _instance: Postponed | None = None

    def __new__(cls) -> Postponed:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "POSTPONED"


POSTPONED = Postponed()
"""The caller keeps its old path (or wanders) and asks again next tick."""


@dataclass(frozen=True)
class Path:
    """A found path: Beta's `PathEntity` points, from the start cell to the end cell."""

    points: tuple[Cell, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.points, tuple) or not self.points:
            raise ValueError(f"a Path has a non-empty tuple of points, got {self.points!r}")
        for point in self.points:
            if not (isinstance(point, tuple) and len(point) == 3
                    and all(type(v) is int for v in point)):
                raise TypeError(f"a Path's points are (x, y, z) int triples, got {point!r}")

    def __len__(self) -> int:
        return len(self.points)

    @property
    def end(self) -> Cell:
        return self.points[-1]

    def position(self, index: int, width: float) -> tuple[float, float, float]:
        """Beta's `getPosition`: where a body `width` wide heads for point `index` (its feet centre)."""
        x, y, z = self.points[index]
        half_cells = _HALF_CELLS.get(width)
        if half_cells is None:
            half_cells = _HALF_CELLS[width] = int(np.float32(width) + np.float32(1.0)) * 0.5
        return (x + half_cells, float(y), z + half_cells)


_HALF_CELLS: dict[float, float] = {}
"""Half the cells a body of each width takes (`Path.position`), by width: a few kinds' widths."""


class PathBudget:
    """The nodes path searches may expand this tick. A search runs only while some are left; it may
    not expand more than are left unless it is the tick's first (so every search runs some tick), and
    one cut short returns `POSTPONED` (its nodes are spent). `new_tick` refills. No clocks: the same
    calls in the same order give the same results."""

    __slots__ = ("nodes_per_tick", "_left", "_slabs", "_slabs_world", "_uncounted", "_found", "_found_in")

    def __init__(self, nodes_per_tick: int = DEFAULT_NODES_PER_TICK) -> None:
        if type(nodes_per_tick) is not int:
            raise TypeError(f"nodes_per_tick is an int, got {nodes_per_tick!r}")
        if nodes_per_tick < 1:
            raise ValueError(f"nodes_per_tick must be at least 1, got {nodes_per_tick}")
        self.nodes_per_tick = nodes_per_tick
        self._left = nodes_per_tick
        self._found: dict[tuple, Path | None] = {}
        """Finished searches' answers by (size, start, goal, range), while the world is the one in
        `_found_in` (with its revision): the same question then has the same answer, free."""
        self._found_in: tuple = ()
        self._slabs: dict[Cell, list[_Slab]] = {}
        """Slabs cut in `_slabs_world`, by body size, the oldest first: kept from tick to tick (each
        brought up to date when it is next used), so that searches near each other share them."""
        self._slabs_world = None
        self._uncounted = False
        """Whether a slab was cut in a world without a revision (kept for that tick only)."""

    def _known(self, world, key: tuple) -> Path | None | Postponed:
        """The remembered answer to the query `key` ((size, start, goal, range)) in this world now, or POSTPONED."""
        now = (world, world.revision)
        if self._found_in != now:
            self._found.clear()
            self._found_in = now
        return self._found.get(key, POSTPONED)

    def remember(self, key: tuple, path: Path | None) -> None:
        if len(self._found) >= MAX_REMEMBERED_PATHS:
            self._found.clear()
        self._found[key] = path

    def slab(self, world, query: PathQuery) -> _Slab:
        """A slab holding every cell `query`'s search reads: a kept one of the same body size whose
        bounds hold the query's (a slab holds the same codes wherever it was cut), brought up to the
        world's revision, else a new one, cut on `SLAB_ALIGN` bounds so that nearby searches share it
        and kept (at most MAX_KEPT_SLABS of each size, the oldest dropped first)."""
        if self._slabs_world is not world:
            self._slabs.clear()
            self._slabs_world = world
        revision = world.revision
        low, high = _slab_bounds(query)
        kept = self._slabs.get(query.size)
        if kept is None:
            kept = self._slabs[query.size] = []
        for place in range(len(kept) - 1, -1, -1):  # the newest first: searches of one tick ask near each other
            slab = kept[place]
            if slab.holds(low, high):
                if slab.revision == revision or slab.catch_up(world, revision):
                    return slab
                del kept[place]  # stale
        slab = _Slab(world, query, _aligned_bounds(low, high, query.size))
        if revision is None:
            self._uncounted = True
        kept.append(slab)
        if len(kept) > MAX_KEPT_SLABS:
            del kept[0]
        return slab

    @property
    def left(self) -> int:
        """Nodes left this tick (0 once a search has spent them all)."""
        return max(self._left, 0)

    @property
    def fresh(self) -> bool:
        """Whether nothing was spent this tick."""
        return self._left == self.nodes_per_tick

    def spend(self, nodes: int) -> None:
        self._left -= nodes

    def new_tick(self) -> None:
        self._left = self.nodes_per_tick
        if self._uncounted:  # a world that counts no changes: its slabs serve one tick only
            self._slabs.clear()
            self._uncounted = False

    def __repr__(self) -> str:
        return f"PathBudget(nodes_per_tick={self.nodes_per_tick}, left={self.left})"


# --- the rule of one cell ------------------------------------------------------------------------

def cell_kind(name: str) -> int:
    """Beta's `getVerticalOffset` verdict for a body holding block `name` (BLOCKED, CLEAR, WATER, LAVA)."""
    if name.startswith("door_"):
        return CLEAR if name.endswith("_open") else BLOCKED
    material = Material(int(MATERIAL[block_id(name)]))
    if material is Material.WATER:
        return WATER
    if material is Material.LAVA:
        return LAVA
    return CLEAR if material in (Material.AIR, Material.LADDER) else BLOCKED


_CODE_OFFSET = 2
"""Kinds are kept as bytes kind + 2 (LAVA 0, WATER 1, BLOCKED 2, CLEAR 3)."""
KIND_CODES = np.array([cell_kind(name) + _CODE_OFFSET for name in NAMES], dtype=np.uint8)
"""`cell_kind` + 2 by block id, for whole-slab lookups."""
_CLEAR_CODE = CLEAR + _CODE_OFFSET
_LAVA_CODE = LAVA + _CODE_OFFSET
_BLOCKED_CODE = BLOCKED + _CODE_OFFSET


# --- what a search is asked ----------------------------------------------------------------------

@dataclass(frozen=True)
class PathQuery:
    """What Beta's `createEntityPathTo` makes of a search: body size in cells, start cell, goal cell, range."""

    size: Cell
    start: Cell
    goal: Cell
    max_distance: float


def _f32(value: float) -> float:
    return float(np.float32(value))


def path_query(box: AABB, target, max_distance) -> PathQuery:
    """Check the arguments and compute Beta's body size, start and goal cells (`createEntityPathTo`)."""
    return PathQuery(*_query_parts(box, target, max_distance))


def _query_parts(box: AABB, target, max_distance) -> tuple[Cell, Cell, Cell, float]:
    """`path_query`'s (size, start, goal, range), without making the PathQuery: `find_path` makes one
    only when it searches. Arguments of the usual types (an AABB, a tuple of three floats, a float
    range) pass a few quick type and range checks; any other goes through every check
    (`_checked_arguments`), with the same errors."""
    if (box.__class__ is AABB and target.__class__ is tuple and len(target) == 3
            and max_distance.__class__ is float and 0.0 < max_distance < math.inf):
        tx, ty, tz = target
        if not (tx.__class__ is float and ty.__class__ is float and tz.__class__ is float
                and math.isfinite(tx + ty + tz)):  # the sum is finite only if every term is (or absurd)
            tx, ty, tz = _checked_target(target)
    else:
        tx, ty, tz = _checked_arguments(box, target, max_distance)
    min_x, min_y, min_z, max_x, max_y, _ = box
    extents = (max_x - min_x, max_y - min_y)
    cells = _BODY_CELLS.get(extents)
    if cells is None:
        if len(_BODY_CELLS) >= _MAX_REMEMBERED_EXTENTS:
            _BODY_CELLS.clear()
        cells = _BODY_CELLS[extents] = _body_cells(*extents)
    size, half = cells
    distance = _RANGES_F32.get(max_distance)
    if distance is None:
        if len(_RANGES_F32) >= _MAX_REMEMBERED_EXTENTS:
            _RANGES_F32.clear()
        distance = _RANGES_F32[max_distance] = _f32(max_distance)
    floor = math.floor
    return size, (floor(min_x), floor(min_y), floor(min_z)), (floor(tx - half), floor(ty), floor(tz - half)), distance


def _checked_target(target) -> tuple[float, float, float]:
    """`target` as three finite floats, or TypeError / ValueError."""
    try:
        tx, ty, tz = (float(v) for v in target)
    except (TypeError, ValueError):
        raise TypeError(f"target is three numbers (x, y, z), got {target!r}") from None
    if not all(math.isfinite(v) for v in (tx, ty, tz)):
        raise ValueError(f"target must be finite, got {target!r}")
    return tx, ty, tz


def _checked_arguments(box: AABB, target, max_distance) -> tuple[float, float, float]:
    """Every check of `path_query`'s arguments; the target as three floats."""
    if not isinstance(box, AABB):
        raise TypeError(f"box is a physics.AABB, got {box!r}")
    if isinstance(max_distance, bool) or not isinstance(max_distance, (int, float)):
        raise TypeError(f"max_distance is a number of blocks, got {max_distance!r}")
    tx, ty, tz = _checked_target(target)
    if not (math.isfinite(max_distance) and max_distance > 0):
        raise ValueError(f"max_distance must be a positive finite number of blocks, got {max_distance!r}")
    return tx, ty, tz


def _body_cells(across_x: float, up: float) -> tuple[Cell, float]:
    """Beta's body size in cells and half its float width, for a box `across_x` wide and `up` tall."""
    # Beta's entity.width and height are floats; the box's extents carry float noise, rounded off here.
    width = np.float32(round(across_x, 6))
    height = np.float32(round(up, 6))
    across = int(math.floor(width + np.float32(1.0)))
    return (across, int(math.floor(height + np.float32(1.0))), across), float(width / np.float32(2.0))


_BODY_CELLS: dict[tuple[float, float], tuple[Cell, float]] = {}
"""`_body_cells` by a box's (width, height) as its floats give them: a creature's extents take a few
values (float noise), and working them out with numpy's float32 costs most of a query."""
_MAX_REMEMBERED_EXTENTS = 4096
"""[entries] `_BODY_CELLS` and `_RANGES_F32` start again beyond this many (any size or range may be asked)."""
_RANGES_F32: dict[float, float] = {}
"""Each search range asked for, rounded to float32 (creatures ask for two)."""


# --- the fast path -------------------------------------------------------------------------------

_F32 = struct.Struct("f")


def _round32(value: float) -> float:
    """`value` rounded to the nearest float32, as Java's float arithmetic does."""
    return _F32.unpack(_F32.pack(value))[0]


_SQRT32: dict[int, float] = {}


def _sqrt32(squared: int) -> float:
    """Beta's `MathHelper.sqrt_float` of an integer: float32 of the square root."""
    root = _SQRT32.get(squared)
    if root is None:
        root = _SQRT32[squared] = _round32(math.sqrt(squared))
    return root


def _slab_bounds(query: PathQuery) -> tuple[list[int], list[int]]:
    """The lowest and highest origin cells a search for `query` reads (inclusive): every point within
    range of the goal, the start, one more on each side, and the falls and steps from them."""
    start, goal = query.start, query.goal
    reach = int(math.ceil(query.max_distance))
    low = [min(g - reach, s) - 1 for g, s in zip(goal, start)]
    high = [max(g + reach, s) + 1 for g, s in zip(goal, start)]
    low[1] -= FALL_LIMIT
    high[1] += STEP_UP
    return low, high


def _aligned_bounds(low: list[int], high: list[int], size: Cell) -> tuple[list[int], list[int]]:
    """Origin bounds holding `low`..`high` whose blocks (origins plus the body's `size` cells) fill whole
    SLAB_ALIGN-block sections: the sections the blocks of `low`..`high` touch, and no other."""
    cut_low = [v - v % SLAB_ALIGN for v in low]
    cut_high = []
    for v, cells in zip(high, size):
        last = v + cells - 1  # the last block the body at origin v takes
        cut_high.append(last - last % SLAB_ALIGN + SLAB_ALIGN - cells)
    return cut_low, cut_high


class _Slab:
    """Each origin's `getVerticalOffset` code over a box of origins, as flat bytes with strides, and
    which origins are level ground (`level`), read at world `revision`. The codes depend only on the
    world and the body size, so a slab serves every search of that size whose bounds it holds, wherever
    it was cut; after a few block edits it is brought up to date (`catch_up`) rather than cut again."""

    __slots__ = ("codes", "level", "origin", "dx", "dy", "low", "high", "size", "revision")

    def __init__(self, world, query: PathQuery, bounds: tuple[list[int], list[int]] | None = None) -> None:
        low, high = _slab_bounds(query) if bounds is None else bounds
        self.low, self.high = tuple(low), tuple(high)
        self.size = query.size
        self.revision = world.revision  # None: a world that counts no edits (its slabs serve one tick)
        codes = _origin_codes(world, query.size, self.low, self.high)
        self.codes = codes.tobytes()
        self.level = _level_ground(codes, low[1]).tobytes()
        self.origin = self.low
        self.dy = codes.shape[2]
        self.dx = codes.shape[1] * codes.shape[2]

    def index(self, x: int, y: int, z: int) -> int:
        ox, oy, oz = self.origin
        return (x - ox) * self.dx + (y - oy) * self.dy + (z - oz)

    def holds(self, low: list[int], high: list[int]) -> bool:
        """Whether the slab covers every origin from `low` to `high` (inclusive)."""
        (ax, ay, az), (bx, by, bz) = self.low, self.high
        return (ax <= low[0] and ay <= low[1] and az <= low[2]
                and bx >= high[0] and by >= high[1] and bz >= high[2])

    def catch_up(self, world, revision: int | None) -> bool:
        """Bring the slab to world `revision` by reading again the origins whose body holds a block
        edited since its own (`world.cells_changed_since`); False (the slab is stale) when the world
        cannot say which blocks changed, or more than MAX_PATCHED_CELLS did."""
        if self.revision is None or revision is None:
            return False
        changed = world.cells_changed_since(self.revision)
        if changed is None:
            return False
        changed = list(changed)
        if len(changed) > MAX_PATCHED_CELLS:
            return False
        (ax, ay, az), (bx, by, bz) = self.low, self.high
        sx, sy, sz = self.size
        inside = [(x, y, z) for x, y, z in changed
                  if ax <= x < bx + sx and ay <= y < by + sy and az <= z < bz + sz]
        if inside:
            self._read_again(world, inside)
        self.revision = revision
        return True

    def _read_again(self, world, cells: list[Cell]) -> None:
        """New codes for the origins whose body holds one of `cells` (all of them within the box that
        holds them all), and new level ground there and one layer up (it reads the code below)."""
        sx, sy, sz = self.size
        xs, ys, zs = zip(*cells)
        low = (max(self.low[0], min(xs) - sx + 1), max(self.low[1], min(ys) - sy + 1),
               max(self.low[2], min(zs) - sz + 1))
        high = (min(self.high[0], max(xs)), min(self.high[1], max(ys)), min(self.high[2], max(zs)))
        shape = (len(self.codes) // self.dx, self.dx // self.dy, self.dy)
        codes = np.frombuffer(self.codes, dtype=np.uint8).reshape(shape).copy()
        (i0, j0, k0), (i1, j1, k1) = ([v - o for v, o in zip(low, self.origin)],
                                      [v - o + 1 for v, o in zip(high, self.origin)])
        codes[i0:i1, j0:j1, k0:k1] = _origin_codes(world, self.size, low, high)
        level = np.frombuffer(self.level, dtype=np.uint8).reshape(shape).copy()
        under = max(j0 - 1, 0)  # the layer below the first patched one: level there reads no new code
        top = min(j1 + 1, shape[1])
        level[i0:i1, j0:top, k0:k1] = _level_ground(codes[i0:i1, under:top, k0:k1],
                                                    self.origin[1] + under)[:, j0 - under:, :]
        self.codes, self.level = codes.tobytes(), level.tobytes()


def _origin_codes(world, size: Cell, low: tuple[int, ...], high: tuple[int, ...]) -> np.ndarray:
    """Each origin's `getVerticalOffset` code (+ 2), origins `low` to `high` inclusive, for a body of
    `size` cells: a contiguous uint8 array indexed [x, y, z] from `low`."""
    sx, sy, sz = size
    shape = (high[0] - low[0] + 1, high[1] - low[1] + 1, high[2] - low[2] + 1)
    ids = world.ids_in_box(low[0], low[1], low[2], high[0] + sx, high[1] + sy, high[2] + sz)
    kinds = KIND_CODES.take(ids)  # take: several times faster than fancy indexing here
    cells = [(i, j, k) for i in range(sx) for j in range(sy) for k in range(sz)]
    codes = None
    for i, j, k in reversed(cells):  # the first cell that is not clear, in Beta's x, y, z order, wins
        part = kinds[i:i + shape[0], j:j + shape[1], k:k + shape[2]]
        codes = part if codes is None else np.where(part != _CLEAR_CODE, part, codes)
    return np.ascontiguousarray(codes)


def _level_ground(codes: np.ndarray, low_y: int) -> np.ndarray:
    """1 where `_safe_point` keeps a point at its own height without a step (the body clear, the code
    below neither clear nor lava, y > 0), else 0 (`_safe_point` then decides), by origin of `codes`
    (x, y, z from height `low_y`). The bottom layer, whose cells below the slab lacks, is 0."""
    level = np.zeros(codes.shape, dtype=np.uint8)
    here, below = codes[:, 1:, :], codes[:, :-1, :]
    above_zero = (low_y + 1 + np.arange(codes.shape[1] - 1) > 0)[None, :, None]
    level[:, 1:, :] = (here == _CLEAR_CODE) & (below != _CLEAR_CODE) & (below != _LAVA_CODE) & above_zero
    return level


def _safe_point(codes: bytes, dy: int, index: int, y: int, step: int) -> tuple[int, int] | None:
    """Beta's `getSafePoint` for the neighbour at `index` (height `y`): the (index, y) a body ends on, or None."""
    if codes[index] == _CLEAR_CODE:
        point, point_y = index, y
    elif step and codes[index + dy] == _CLEAR_CODE:
        index, y = index + dy, y + 1
        point, point_y = index, y
    else:
        return None
    fallen = 0
    below = _BLOCKED_CODE
    while y > 0:
        below = codes[index - dy]
        if below != _CLEAR_CODE:
            break
        fallen += 1
        if fallen >= FALL_LIMIT:
            return None
        y -= 1
        index -= dy
        if y > 0:
            point, point_y = index, y
    if below == _LAVA_CODE:
        return None
    return point, point_y


def _sift_up(heap: list, keys: list, pos: int) -> None:
    """Beta's `Path.sortBack`: the point at `pos` moves up past parents of greater key."""
    item, key = heap[pos], keys[pos]
    while pos > 0:
        parent = (pos - 1) >> 1
        parent_key = keys[parent]
        if key >= parent_key:
            break
        heap[pos], keys[pos] = heap[parent], parent_key
        pos = parent
    heap[pos], keys[pos] = item, key


def _sift_down(heap: list, keys: list, pos: int) -> None:
    """Beta's `Path.sortForward`: the point at `pos` moves down past the lesser child (the right one
    on a tie) while that child's key is less than its own."""
    item, key = heap[pos], keys[pos]
    count = len(heap)
    while True:
        child = 2 * pos + 1
        if child >= count:
            break
        child_key = keys[child]
        if child + 1 < count:
            right_key = keys[child + 1]
            if not child_key < right_key:  # Beta takes the left child only when strictly less
                child, child_key = child + 1, right_key
        if child_key >= key:
            break
        heap[pos], keys[pos] = heap[child], child_key
        pos = child
    heap[pos], keys[pos] = item, key


def _squared_range(max_distance: float) -> int:
    """The least squared distance (an int) whose `_sqrt32` is not below `max_distance`: a point is in
    range (Beta's `distanceTo(target) < maxDist`) exactly when its squared distance to the goal is below
    it (float32 rounding keeps the order of square roots)."""
    squared = _SQUARED_RANGES.get(max_distance)
    if squared is None:
        squared = max(math.floor(max_distance) ** 2 - 1, 0)
        while _sqrt32(squared) < max_distance:
            squared += 1
        while squared > 0 and _sqrt32(squared - 1) >= max_distance:
            squared -= 1
        if len(_SQUARED_RANGES) >= _MAX_REMEMBERED_EXTENTS:
            _SQUARED_RANGES.clear()
        _SQUARED_RANGES[max_distance] = squared
    return squared


_SQUARED_RANGES: dict[float, int] = {}
"""`_squared_range` by range (creatures ask for two)."""


_STEP_COST = {dy: _sqrt32(1 + dy * dy) for dy in range(-FALL_LIMIT, STEP_UP + 1)}
"""Beta's distance between neighbouring points, by the change of height."""
_ROUNDED: dict[float, float] = {}
"""`_round32` of the sums a search rounds (costs, and cost plus distance): they repeat from search to
search, and a lookup costs a third of rounding."""
_MAX_ROUNDED = 1 << 16
"""[entries] `_ROUNDED` starts again beyond this many."""
_OPEN, _CLOSED = 1, 0
"""A search's `state` of a queued point, and of an expanded one (Beta's `isFirst`)."""


def _rounded(value: float) -> float:
    """`_round32(value)`, remembered in `_ROUNDED`."""
    if len(_ROUNDED) >= _MAX_ROUNDED:
        _ROUNDED.clear()
    rounded = _ROUNDED[value] = _round32(value)
    return rounded


def _search(slab: _Slab, query: PathQuery, limit: int | None, cap: int | None = None,
            ) -> tuple[tuple[Cell, ...] | None, int, bool]:
    """Beta's `addToPath` over the slab: (the path's cells or None, nodes expanded, finished). With a
    `cap`, the search ends after that many nodes as if nothing were left to open: the path to the
    point closest to the goal so far (Beta searches on).
    Each neighbour is judged and queued in turn: judging never depends on the queue, so this equals
    Beta's gathering of the four options first. The open heap is Beta's (`_sift_up`, `_sift_down`),
    its keys kept in a list beside the points; `state` says whether a point is queued (`_OPEN`) or
    expanded (`_CLOSED`, Beta's `isFirst`), absent before it is queued. A queued point's place in the
    heap is looked up only when a cheaper way to it is found (Beta's `changeDistance`, rare), so the
    sifts move no index along with the points."""
    codes, level, dx, dy = slab.codes, slab.level, slab.dx, slab.dy
    gx, gy, gz = query.goal
    beyond = _squared_range(query.max_distance)
    start, goal = slab.index(*query.start), slab.index(gx, gy, gz)
    sqrt32, sqrt_cache = _sqrt32, _SQRT32
    rounded, rounded_cache = _rounded, _ROUNDED
    sift_up, sift_down = _sift_up, _sift_down
    clear = _CLEAR_CODE
    sx, sy, sz = query.start
    start_distance = sqrt32((gx - sx) ** 2 + (gy - sy) ** 2 + (gz - sz) ** 2)
    where = {start: query.start}
    heuristic = {start: start_distance}
    total = {start: 0.0}
    previous: dict[int, int] = {}
    heap, keys, state = [start], [start_distance], {start: _OPEN}
    closest, closest_distance = start, start_distance
    nodes = 0
    stop = min(limit if limit is not None else math.inf, cap if cap is not None else math.inf)
    sides = ((1, 0, 1), (-dx, -1, 0), (dx, 1, 0), (-1, 0, -1))  # Beta's order: z + 1, x - 1, x + 1, z - 1
    step_cost = _STEP_COST
    while heap:
        if nodes >= stop:
            if limit is not None and nodes >= limit:
                return None, nodes, False
            break  # the cap
        current = heap[0]  # Beta's `dequeue`: the last point moves to the top, then `sortForward`
        last, key = heap.pop(), keys.pop()
        if heap:
            heap[0], keys[0] = last, key
            sift_down(heap, keys, 0)
        state[current] = _CLOSED
        nodes += 1
        if current == goal:
            return _cells(where, previous, start, goal), nodes, True
        x, y, z = where[current]
        distance = heuristic[current]
        if distance < closest_distance:
            closest, closest_distance = current, distance
        here = total[current]
        level_cost = None  # the cost of a neighbour at this height, worked out once it is needed
        for offset, ox, oz in sides:
            point = current + offset
            if level[point]:
                point_y = y  # level ground: the common case of `_safe_point`, from the slab's table
            else:  # `_safe_point` decides; a step up needs the body to fit one cell above the current point
                found = _safe_point(codes, dy, point, y, STEP_UP if codes[current + dy] == clear else 0)
                if found is None:
                    continue
                point, point_y = found
            queued = state.get(point)
            if queued is None:  # never queued: it joins the heap if within range of the goal
                px, pz = x + ox, z + oz
                to_x, to_y, to_z = gx - px, gy - point_y, gz - pz
                squared = to_x * to_x + to_y * to_y + to_z * to_z
                if squared >= beyond:
                    continue
                h = sqrt_cache.get(squared)
                if h is None:
                    h = sqrt32(squared)
                where[point] = (px, point_y, pz)
                heuristic[point] = h
            elif queued == _CLOSED:
                continue
            else:
                h = heuristic[point]
            if point_y == y:
                if level_cost is None:
                    level_cost = rounded_cache.get(here + 1.0)
                    if level_cost is None:
                        level_cost = rounded(here + 1.0)
                cost = level_cost
            else:
                cost = rounded_cache.get(here + step_cost[point_y - y])
                if cost is None:
                    cost = rounded(here + step_cost[point_y - y])
            if queued is not None and cost >= total[point]:
                continue
            previous[point] = current
            total[point] = cost
            key = rounded_cache.get(cost + h)
            if key is None:
                key = rounded(cost + h)
            if queued is None:  # Beta's `addPoint`: `sortBack` from the end
                heap.append(point)
                keys.append(key)
                sift_up(heap, keys, len(heap) - 1)
                state[point] = _OPEN
            else:  # Beta's `changeDistance`
                pos = heap.index(point)
                old = keys[pos]
                keys[pos] = key
                if key < old:
                    sift_up(heap, keys, pos)
                else:
                    sift_down(heap, keys, pos)
    if closest == start:
        return None, nodes, True
    return _cells(where, previous, start, closest), nodes, True


def _goal_unreachable(slab: _Slab, query: PathQuery) -> bool:
    """Whether no search can end on `query`'s goal: every point a search reaches but its start is clear
    and stands on something (`_safe_point`), or is a fall's end just above y = 0, and the goal is not.
    Beta's search for such a goal opens every point in range it can reach (a wander's spot in the air)."""
    gx, gy, gz = query.goal
    goal = slab.index(gx, gy, gz)
    codes = slab.codes
    return codes[goal] != _CLEAR_CODE or (gy >= 2 and codes[goal - slab.dy] == _CLEAR_CODE)


def _opens_more_than(slab: _Slab, query: PathQuery, limit: int) -> bool:
    """Whether `_search` opens more than `limit` nodes for a goal it cannot reach (`_goal_unreachable`):
    such a search opens its start and every point it can reach through points in range of the goal,
    each once, in whatever order, so a plain flood of the same neighbours (Beta's `findPathOptions`)
    counts them, without costs or heap, stopping once past `limit`."""
    codes, level, dx, dy = slab.codes, slab.level, slab.dx, slab.dy
    gx, gy, gz = query.goal
    beyond = _squared_range(query.max_distance)
    clear = _CLEAR_CODE
    start = slab.index(*query.start)
    where = {start: query.start}  # every point found in range (and the start), by index
    waiting = [start]
    sides = ((1, 0, 1), (-dx, -1, 0), (dx, 1, 0), (-1, 0, -1))
    opened = 0
    while waiting:
        if opened >= limit:
            return True
        current = waiting.pop()
        opened += 1
        x, y, z = where[current]
        for offset, ox, oz in sides:
            point = current + offset
            if level[point]:
                point_y = y
            else:  # `_safe_point` decides; a step up needs the body to fit one cell above the current point
                found = _safe_point(codes, dy, point, y, STEP_UP if codes[current + dy] == clear else 0)
                if found is None:
                    continue
                point, point_y = found
            if point in where:
                continue
            px, pz = x + ox, z + oz
            to_x, to_y, to_z = gx - px, gy - point_y, gz - pz
            if to_x * to_x + to_y * to_y + to_z * to_z < beyond:
                where[point] = (px, point_y, pz)
                waiting.append(point)
    return False


def _cells(where: dict, previous: dict, start: int, end: int) -> tuple[Cell, ...]:
    """Beta's `createEntityPath`: the points from `start` to `end` along the `previous` links."""
    chain = [end]
    while chain[-1] in previous:
        chain.append(previous[chain[-1]])
    return tuple(where[point] for point in reversed(chain))


def _out_of_reach(start: Cell, goal: Cell, max_distance: float) -> bool:
    return math.dist(start, goal) >= max_distance + _NEAREST_MARGIN


def _one_point_path(cell: Cell) -> Path:
    """`Path((cell,))`, remembered (a Path never changes): a creature beside its target asks for one
    each tick."""
    path = _ONE_POINT_PATHS.get(cell)
    if path is None:
        if len(_ONE_POINT_PATHS) >= MAX_REMEMBERED_PATHS:
            _ONE_POINT_PATHS.clear()
        path = _ONE_POINT_PATHS[cell] = Path((cell,))
    return path


_ONE_POINT_PATHS: dict[Cell, Path] = {}


def find_path(world, box: AABB, target, max_distance: float, budget: PathBudget | None = None
              ) -> Path | None | Postponed:
    """Beta's path for a body `box` to the point `target` (feet: x, y, z) through points within
    `max_distance` of it: the path to the target's cell, else to the point closest to it, else None
    (no step possible). With a `budget`, `POSTPONED` when this tick's nodes do not allow the search."""
    size, start, goal, distance = _query_parts(box, target, max_distance)
    if budget is None:
        if start == goal:
            return _one_point_path(start)
        if _out_of_reach(start, goal, distance):
            return None
        query = PathQuery(size, start, goal, distance)
        cells, _, _ = _search(_Slab(world, query), query, None)
        return None if cells is None else Path(cells)
    if not isinstance(budget, PathBudget):
        raise TypeError(f"budget is a PathBudget or None, got {budget!r}")
    if budget.left <= 0:
        return POSTPONED
    if start == goal:
        budget.spend(1)
        return _one_point_path(start)
    if _out_of_reach(start, goal, distance):
        return None
    key = (size, start, goal, distance)
    known = budget._known(world, key)
    if known is not POSTPONED:
        return known
    query = PathQuery(size, start, goal, distance)
    slab = budget.slab(world, query)
    limit = None if budget.fresh else budget.left
    if (limit is not None and limit <= MAX_SEARCH_NODES and _goal_unreachable(slab, query)
            and _opens_more_than(slab, query, limit)):
        budget.spend(limit)  # what the search would spend before it is cut short: counted, not searched
        return POSTPONED
    cells, nodes, finished = _search(slab, query, limit, MAX_SEARCH_NODES)
    budget.spend(nodes)
    if not finished:
        return POSTPONED
    path = None if cells is None else Path(cells)
    budget.remember(key, path)
    return path
