"""Monster pathfinding benchmark: `python -m bench pathfinding`.

Owns: the cases that time `find_path` (Beta's A* over one numpy slab of the region, with Beta's own
binary heap) for a zombie's 16-block search: across flat ground to a reachable target, over flat ground
to a target it cannot reach (Beta then searches every point within 16 blocks: the worst case), through
a maze of 2-high pillars and through a 3-D cave, each once reachable and once walled off; each against
the readable twin `find_path_by_cells` (Beta's classes as written, each cell read by name), with the
nodes each search expands and the time per node. A row times a plain `heapq` A* over the same
slab and neighbour rule (not Beta's tie order, so not a substitute): what Beta's exact heap costs
against Python's C heap. A last row times a budgeted search that does not fit what is left of a tick's
nodes, for a target it cannot reach (a wander's spot in the air): `find_path` counts the points it
would open and returns POSTPONED, against running Beta's search until the budget cuts it.
Does not own: the timing method (`bench/harness.py`) or the search (`game/rules/pathfinding.py`).
"""

from __future__ import annotations

import heapq

import numpy as np

from bench.harness import Row, median_time
from game.rules.pathfinding import (_CLEAR_CODE, MAX_SEARCH_NODES, MONSTER_RANGE, POSTPONED, PathBudget, _safe_point,
                                    _search, _Slab, _sqrt32, find_path, path_query)
from game.rules.pathfinding_by_cells import find_path_by_cells
from game.world.blocks import NAMES, block_id
from physics import AABB

SUITE = "pathfinding"
GROUND = 64
"""Feet rest on y = 64, as on Boxel's plains."""
HALF = 28
"""[blocks] The worlds span -28..27 on X and Z."""
SEED = 42
ZOMBIE = (0.6, 1.8)


class _ArrayWorld:
    """Registry blocks in one array around the origin (air outside): `ids_in_box` and `get_block`."""

    def __init__(self, ids: np.ndarray, origin: tuple[int, int, int]) -> None:
        self.ids, self.origin = ids, origin
        self.revision = 0
        """Never edited (a `PathBudget` keeps its slabs while this holds)."""

    def get_block(self, x: int, y: int, z: int) -> str:
        i, j, k = x - self.origin[0], y - self.origin[1], z - self.origin[2]
        if all(0 <= v < n for v, n in zip((i, j, k), self.ids.shape)):
            return NAMES[self.ids[i, j, k]]
        return "air"

    def ids_in_box(self, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int) -> np.ndarray:
        out = np.zeros((x1 - x0, y1 - y0, z1 - z0), dtype=np.uint16)
        low = [max(a, o) for a, o in zip((x0, y0, z0), self.origin)]
        high = [min(b, o + n) for b, o, n in zip((x1, y1, z1), self.origin, self.ids.shape)]
        if all(a < b for a, b in zip(low, high)):
            src = tuple(slice(a - o, b - o) for a, b, o in zip(low, high, self.origin))
            dst = tuple(slice(a - c, b - c) for a, b, c in zip(low, high, (x0, y0, z0)))
            out[dst] = self.ids[src]
        return out


def _world(kind: str) -> _ArrayWorld:
    rng = np.random.default_rng(SEED)
    ids = np.zeros((2 * HALF, GROUND + 12, 2 * HALF), dtype=np.uint16)
    ids[:, :GROUND, :] = block_id("stone")
    if kind == "maze":
        pillars = rng.random((2 * HALF, 2 * HALF)) < 0.3
        pillars[HALF - 1:HALF + 1, HALF - 1:HALF + 1] = False
        for y in (GROUND, GROUND + 1):
            ids[:, y, :][pillars] = block_id("stone")
    elif kind == "cave":
        rock = rng.random((2 * HALF, 10, 2 * HALF)) < 0.15
        rock[HALF - 1:HALF + 1, :3, HALF - 1:HALF + 1] = False
        ids[:, GROUND:GROUND + 10, :][rock.transpose(0, 1, 2)] = block_id("stone")
        ids[:, GROUND + 10, :] = block_id("stone")
    return _ArrayWorld(ids, (-HALF, 0, -HALF))


def _zombie() -> AABB:
    width, height = ZOMBIE
    return AABB(0.2, GROUND, 0.2, 0.2 + width, GROUND + height, 0.2 + width)


CASES = (
    ("flat ground, target 15 blocks away", "flat", (11.5, GROUND, 10.5)),
    ("flat ground, unreachable target 3 up (every point within 16)", "flat", (11.5, GROUND + 3, 10.5)),
    ("maze of 2-high pillars (30%), target 14 away", "maze", (-10.5, GROUND, 9.5)),
    ("maze of 2-high pillars (30%), target 14 away, walled off", "maze", (10.5, GROUND, 9.5)),
    ("3-D cave (15% rock, 10 high), target 14 away", "cave", (10.5, GROUND, 9.5)),
    ("3-D cave (15% rock, 10 high), target 15 away, walled off", "cave", (9.5, GROUND, 11.5)),
)
"""(what, world, target): a zombie at the origin's cell searches for `target` within 16 blocks."""
WORST = 1
"""The case the heap comparison runs: the most nodes, so the heap's share shows."""
LEFT = 199
"""[nodes] What is left of a tick's budget in the budgeted row (200 a tick, one spent)."""


def _nodes(world, target) -> int:
    """The nodes Beta's whole search opens (no budget, no cap)."""
    query = path_query(_zombie(), target, MONSTER_RANGE)
    return _search(_Slab(world, query), query, None)[1]


def _heapq_astar(world, box: AABB, target, max_distance: float):
    """A plain heapq A* over the same slab and neighbour rule (lazy deletion; its own tie order)."""
    query = path_query(box, target, max_distance)
    slab = _Slab(world, query)
    codes, dx, dy = slab.codes, slab.dx, slab.dy
    gx, gy, gz = query.goal
    start, goal = slab.index(*query.start), slab.index(gx, gy, gz)
    where = {start: query.start}
    cost = {start: 0.0}
    previous = {}
    frontier = [(0.0, start)]
    closed = set()
    while frontier:
        _, current = heapq.heappop(frontier)
        if current in closed:
            continue
        if current == goal:
            break
        closed.add(current)
        x, y, z = where[current]
        step = 1 if codes[current + dy] == _CLEAR_CODE else 0
        for offset, ox, oz in ((1, 0, 1), (-dx, -1, 0), (dx, 1, 0), (-1, 0, -1)):
            found = _safe_point(codes, dy, current + offset, y, step)
            if found is None or found[0] in closed:
                continue
            point, py = found
            cell = (x + ox, py, z + oz)
            h = _sqrt32((gx - cell[0]) ** 2 + (gy - py) ** 2 + (gz - cell[2]) ** 2)
            if h >= query.max_distance:
                continue
            new = cost[current] + _sqrt32(1 + (py - y) ** 2)
            if new < cost.get(point, float("inf")):
                cost[point], previous[point], where[point] = new, current, cell
                heapq.heappush(frontier, (new + h, point))
    return previous


def run(quick: bool = False) -> list[Row]:
    repeats = 3 if quick else 15
    reference_repeats = 1 if quick else 3
    rows = []
    worlds = {kind: _world(kind) for kind in ("flat", "maze", "cave")}
    for case, kind, target in CASES:
        world = worlds[kind]
        nodes = _nodes(world, target)
        ms = median_time(lambda: find_path(world, _zombie(), target, MONSTER_RANGE), repeats=repeats, unit="ms")
        twin = median_time(lambda: find_path_by_cells(world, _zombie(), target, MONSTER_RANGE),
                           repeats=reference_repeats, unit="ms")
        path = find_path(world, _zombie(), target, MONSTER_RANGE)
        reached = path is not None and path.end == path_query(_zombie(), target, MONSTER_RANGE).goal
        rows.append(Row(SUITE, f"16-block search: {case}", ms, "ms", reference=twin,
                        note=f"{nodes} nodes, {ms * 1000 / nodes:.1f} us/node, "
                             f"{'reached' if reached else 'closest point'}; reference: the readable twin"))
    case, kind, target = CASES[WORST]
    world = worlds[kind]
    ours = median_time(lambda: find_path(world, _zombie(), target, MONSTER_RANGE), repeats=repeats, unit="ms")
    plain = median_time(lambda: _heapq_astar(world, _zombie(), target, MONSTER_RANGE), repeats=repeats, unit="ms")
    rows.append(Row(SUITE, f"Beta's heap against a plain heapq A* (the reference): {case}", ours, "ms",
                    reference=plain, note="same slab and neighbour rule; heapq breaks ties in its own order"))
    rows.append(_past_the_budget(worlds[kind], target, repeats))
    return rows


def _past_the_budget(world, target, repeats: int) -> Row:
    """A search for `target` (out of reach) with LEFT nodes left of the tick, on a kept slab: counted
    and POSTPONED, against Beta's search cut by the budget (what `find_path` ran before it counted)."""
    budget = PathBudget(LEFT + 1)

    def postponed():
        budget.new_tick()
        budget.spend(1)
        return find_path(world, _zombie(), target, MONSTER_RANGE, budget)

    query = path_query(_zombie(), target, MONSTER_RANGE)
    slab = budget.slab(world, query)
    assert postponed() is POSTPONED and not _search(slab, query, LEFT, MAX_SEARCH_NODES)[2]
    ms = median_time(postponed, repeats=repeats, unit="ms")
    searched = median_time(lambda: _search(slab, query, LEFT, MAX_SEARCH_NODES), repeats=repeats, unit="ms")
    return Row(SUITE, f"a budgeted search past the tick's {LEFT} nodes left, target out of reach: counted",
               ms, "ms", reference=searched,
               note="on a kept slab; reference: Beta's search until the budget cuts it (the same POSTPONED)")
