"""Beta 1.7.3's monster pathfinding: `PathFinder`, `Path` (its open heap) and `PathEntity`, over Boxel's blocks.

Owns: `find_path` (Beta's `createEntityPathTo` for a box and a target point, within `max_distance`;
its readable twin is `pathfinding_by_cells.find_path_by_cells`), `path_query` (the body's cells, start
and goal), the walking rule of one cell (`cell_kind`, Beta's `getVerticalOffset` for one block), the
found `Path` with Beta's `getPosition`, and `PathBudget`, the nodes path searches may expand per tick
(`POSTPONED` when a search does not fit).
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
`getVerticalOffset` with a few whole-array passes, and runs Beta's search over that table as bytes;
the twin reads each cell by name and follows Beta's code line by line. They agree exactly (tests).
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

Cell = tuple[int, int, int]

BLOCKED, CLEAR, WATER, LAVA = 0, 1, -1, -2
"""Beta's `getVerticalOffset` verdicts for a body's cells: blocked, clear, in water, in lava."""
FALL_LIMIT = 4
"""[cells] Beta's `getSafePoint` gives up on a point once this many clear cells lie below it: drops of 3 at most."""
STEP_UP = 1
"""[cells] How far up a neighbour may be stepped onto (Beta's `findPathOptions`)."""
MONSTER_RANGE = 16.0
"""[blocks] Beta's `EntityCreature` paths to its target through points within 16 blocks of it."""
NODE_COST_US = 7.0
"""[us] Measured cost of one expanded node of `find_path`, slab read included (bench `pathfinding`,
2026-11-28: 5.4-7.4 us on reachable 16-block searches, flat ground, maze and cave, at the quietest; 6-17 us
with the shared 2-core machine at load 4, exhaustive searches costing most; the readable twin is 10-30x slower)."""
DEFAULT_NODES_PER_TICK = 200
"""[nodes] Expanded nodes per tick for all searches together: ~1.4 ms at NODE_COST_US. With 100 monsters
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

    __slots__ = ("nodes_per_tick", "_left", "_slabs", "_found", "_found_in")

    def __init__(self, nodes_per_tick: int = DEFAULT_NODES_PER_TICK) -> None:
        if type(nodes_per_tick) is not int:
            raise TypeError(f"nodes_per_tick is an int, got {nodes_per_tick!r}")
        if nodes_per_tick < 1:
            raise ValueError(f"nodes_per_tick must be at least 1, got {nodes_per_tick}")
        self.nodes_per_tick = nodes_per_tick
        self._left = nodes_per_tick
        self._found: dict[tuple, Path | None] = {}
        """Finished searches' answers by (size, start, goal, range), while the world is the one in
        `_found_in` at the same revision: the same question then has the same answer, free."""
        self._found_in: tuple = ()
        self._slabs: dict[tuple, list[_Slab]] = {}
        """This tick's slabs by (world, revision, body size, goal, range): the searches of creatures of
        one size chasing one target share one (a slab holds the same codes wherever it was cut)."""

    def answer(self, world, query: PathQuery) -> tuple[tuple, Path | None | Postponed]:
        """(the key of `query` in this world now, its remembered answer or POSTPONED when none is)."""
        now = (id(world), world.revision)
        if self._found_in != now:
            self._found.clear()
            self._found_in = now
        key = (query.size, query.start, query.goal, query.max_distance)
        return key, self._found.get(key, POSTPONED)

    def remember(self, key: tuple, path: Path | None) -> None:
        if len(self._found) >= MAX_REMEMBERED_PATHS:
            self._found.clear()
        self._found[key] = path

    def slab(self, world, query: PathQuery) -> _Slab:
        """A slab holding every cell `query`'s search reads: one made this tick for the same world
        revision, size, goal and range whose bounds hold the query's, else a new one (kept)."""
        low, high = _slab_bounds(query)
        key = (id(world), world.revision, query.size, query.goal, query.max_distance)
        kept = self._slabs.setdefault(key, [])
        for slab in kept:
            if all(a <= b for a, b in zip(slab.low, low)) and all(a >= b for a, b in zip(slab.high, high)):
                return slab
        slab = _Slab(world, query, (low, high))
        kept.append(slab)
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
        self._slabs.clear()

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
    if not isinstance(box, AABB):
        raise TypeError(f"box is a physics.AABB, got {box!r}")
    try:
        tx, ty, tz = (float(v) for v in target)
    except (TypeError, ValueError):
        raise TypeError(f"target is three numbers (x, y, z), got {target!r}") from None
    if isinstance(max_distance, bool) or not isinstance(max_distance, (int, float)):
        raise TypeError(f"max_distance is a number of blocks, got {max_distance!r}")
    if not all(math.isfinite(v) for v in (tx, ty, tz)):
        raise ValueError(f"target must be finite, got {target!r}")
    if not (math.isfinite(max_distance) and max_distance > 0):
        raise ValueError(f"max_distance must be a positive finite number of blocks, got {max_distance!r}")
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
    start = (math.floor(min_x), math.floor(min_y), math.floor(min_z))
    goal = (math.floor(tx - half), math.floor(ty), math.floor(tz - half))
    return PathQuery(size, start, goal, distance)


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


class _Slab:
    """Each origin's `getVerticalOffset` code around the goal, as flat bytes with strides."""

    __slots__ = ("codes", "origin", "dx", "dy", "low", "high")

    def __init__(self, world, query: PathQuery, bounds: tuple[list[int], list[int]] | None = None) -> None:
        (sx, sy, sz) = query.size
        low, high = _slab_bounds(query) if bounds is None else bounds
        self.low, self.high = tuple(low), tuple(high)
        shape = (high[0] - low[0] + 1, high[1] - low[1] + 1, high[2] - low[2] + 1)
        ids = world.ids_in_box(low[0], low[1], low[2], high[0] + sx, high[1] + sy, high[2] + sz)
        kinds = KIND_CODES.take(ids)  # take: several times faster than fancy indexing here
        cells = [(i, j, k) for i in range(sx) for j in range(sy) for k in range(sz)]
        codes = None
        for i, j, k in reversed(cells):  # the first cell that is not clear, in Beta's x, y, z order, wins
            part = kinds[i:i + shape[0], j:j + shape[1], k:k + shape[2]]
            codes = part if codes is None else np.where(part != _CLEAR_CODE, part, codes)
        codes = np.ascontiguousarray(codes)
        self.codes = codes.tobytes()
        self.origin = tuple(low)
        self.dy = shape[2]
        self.dx = shape[1] * shape[2]

    def index(self, x: int, y: int, z: int) -> int:
        ox, oy, oz = self.origin
        return (x - ox) * self.dx + (y - oy) * self.dy + (z - oz)


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


def _sift_up(heap: list, slot: dict, rank: dict, pos: int) -> None:
    """Beta's `Path.sortBack`."""
    item = heap[pos]
    key = rank[item]
    while pos > 0:
        parent_pos = (pos - 1) >> 1
        parent = heap[parent_pos]
        if key >= rank[parent]:
            break
        heap[pos] = parent
        slot[parent] = pos
        pos = parent_pos
    heap[pos] = item
    slot[item] = pos


def _sift_down(heap: list, slot: dict, rank: dict, pos: int) -> None:
    """Beta's `Path.sortForward`."""
    item = heap[pos]
    key = rank[item]
    count = len(heap)
    while True:
        left = 2 * pos + 1
        if left >= count:
            break
        left_item = heap[left]
        left_key = rank[left_item]
        right = left + 1
        if right < count:
            right_item = heap[right]
            right_key = rank[right_item]
        else:
            right_item, right_key = None, math.inf
        if left_key < right_key:
            if left_key >= key:
                break
            heap[pos] = left_item
            slot[left_item] = pos
            pos = left
        else:
            if right_key >= key:
                break
            heap[pos] = right_item
            slot[right_item] = pos
            pos = right
    heap[pos] = item
    slot[item] = pos


_STEP_COST = {dy: _sqrt32(1 + dy * dy) for dy in range(-FALL_LIMIT, STEP_UP + 1)}
"""Beta's distance between neighbouring points, by the change of height."""


def _search(slab: _Slab, query: PathQuery, limit: int | None, cap: int | None = None,
            ) -> tuple[tuple[Cell, ...] | None, int, bool]:
    """Beta's `addToPath` over the slab: (the path's cells or None, nodes expanded, finished). With a
    `cap`, the search ends after that many nodes as if nothing were left to open: the path to the
    point closest to the goal so far (Beta searches on).
    Each neighbour is judged and queued in turn: judging never depends on the queue, so this equals
    Beta's gathering of the four options first."""
    codes, dx, dy = slab.codes, slab.dx, slab.dy
    gx, gy, gz = query.goal
    max_distance = query.max_distance
    start, goal = slab.index(*query.start), slab.index(gx, gy, gz)
    sqrt32, sqrt_cache = _sqrt32, _SQRT32
    pack, unpack = _F32.pack, _F32.unpack
    clear = _CLEAR_CODE
    sx, sy, sz = query.start
    where = {start: query.start}
    heuristic = {start: sqrt32((gx - sx) ** 2 + (gy - sy) ** 2 + (gz - sz) ** 2)}
    total = {start: 0.0}
    rank = {start: heuristic[start]}
    previous: dict[int, int] = {}
    heap, slot = [start], {start: 0}
    closed = set()
    closest, closest_distance = start, heuristic[start]
    nodes = 0
    sides = ((1, 0, 1), (-dx, -1, 0), (dx, 1, 0), (-1, 0, -1))  # Beta's order: z + 1, x - 1, x + 1, z - 1
    step_cost = _STEP_COST
    while heap:
        if limit is not None and nodes >= limit:
            return None, nodes, False
        if cap is not None and nodes >= cap:
            break
        current = heap[0]
        last = heap.pop()
        if heap:
            heap[0] = last
            _sift_down(heap, slot, rank, 0)
        del slot[current]
        nodes += 1
        if current == goal:
            return _cells(where, previous, start, goal), nodes, True
        x, y, z = where[current]
        distance = heuristic[current]
        if distance < closest_distance:
            closest, closest_distance = current, distance
        closed.add(current)
        step = STEP_UP if codes[current + dy] == clear else 0
        here = total[current]
        for offset, ox, oz in sides:
            point = current + offset
            if y > 0 and codes[point] == clear and codes[point - dy] != clear:
                if codes[point - dy] == _LAVA_CODE:  # stood on lava: Beta's -2 below
                    continue
                point_y = y  # level ground: the common case of `_safe_point`, inline
            else:
                found = _safe_point(codes, dy, point, y, step)
                if found is None:
                    continue
                point, point_y = found
            if point in closed:
                continue
            h = heuristic.get(point)
            if h is None:
                px, pz = x + ox, z + oz
                where[point] = (px, point_y, pz)
                squared = (gx - px) ** 2 + (gy - point_y) ** 2 + (gz - pz) ** 2
                h = sqrt_cache.get(squared)
                if h is None:
                    h = sqrt32(squared)
                heuristic[point] = h
            if h >= max_distance:
                continue
            cost = unpack(pack(here + step_cost[point_y - y]))[0]
            queued = point in slot
            if queued and cost >= total[point]:
                continue
            previous[point] = current
            total[point] = cost
            key = unpack(pack(cost + h))[0]
            if queued:
                old = rank[point]
                rank[point] = key
                if key < old:
                    _sift_up(heap, slot, rank, slot[point])
                else:
                    _sift_down(heap, slot, rank, slot[point])
            else:
                rank[point] = key
                slot[point] = len(heap)
                heap.append(point)
                _sift_up(heap, slot, rank, len(heap) - 1)
    if closest == start:
        return None, nodes, True
    return _cells(where, previous, start, closest), nodes, True


def _cells(where: dict, previous: dict, start: int, end: int) -> tuple[Cell, ...]:
    """Beta's `createEntityPath`: the points from `start` to `end` along the `previous` links."""
    chain = [end]
    while chain[-1] in previous:
        chain.append(previous[chain[-1]])
    return tuple(where[point] for point in reversed(chain))


def _out_of_reach(query: PathQuery) -> bool:
    sx, sy, sz = query.start
    gx, gy, gz = query.goal
    return math.dist((sx, sy, sz), (gx, gy, gz)) >= query.max_distance + _NEAREST_MARGIN


def find_path(world, box: AABB, target, max_distance: float, budget: PathBudget | None = None
              ) -> Path | None | Postponed:
    """Beta's path for a body `box` to the point `target` (feet: x, y, z) through points within
    `max_distance` of it: the path to the target's cell, else to the point closest to it, else None
    (no step possible). With a `budget`, `POSTPONED` when this tick's nodes do not allow the search."""
    query = path_query(box, target, max_distance)
    if budget is not None and not isinstance(budget, PathBudget):
        raise TypeError(f"budget is a PathBudget or None, got {budget!r}")
    if budget is not None and budget.left <= 0:
        return POSTPONED
    if query.start == query.goal:
        if budget is not None:
            budget.spend(1)
        return Path((query.start,))
    if _out_of_reach(query):
        return None
    if budget is None:
        cells, _, _ = _search(_Slab(world, query), query, None)
        return None if cells is None else Path(cells)
    key, known = budget.answer(world, query)
    if known is not POSTPONED:
        return known
    cells, nodes, finished = _search(budget.slab(world, query), query, None if budget.fresh else budget.left,
                                     MAX_SEARCH_NODES)
    budget.spend(nodes)
    if not finished:
        return POSTPONED
    path = None if cells is None else Path(cells)
    budget.remember(key, path)
    return path
