"""Swept-collision benchmark: microseconds per `sweep`, and `cast` against gathering everything.

Cases: one `sweep` that hits, one that misses on a still axis (the early exit), one that passes
by; then `cast` of a 0.6 x 1.8 x 0.6 body along diagonal displacements (n, n, n) for n = 1, 10,
100 and 1,000 blocks, through blocks scattered around a clear path (so every cast walks the whole
path and sweeps the blocks beside it), next to the simple reference: one `collision_boxes` query
over the whole stretched box, then a sweep of every box found (`first_hit`).

The world: a `physics.BlockGrid` holding the blocks, read through `CellByCellWorld`, which looks up
every cell of a query region, as a chunked world does. (A bare `BlockGrid` visits only its stored
cells when a region is larger, which would make gathering everything look cheap in a small grid.)
Gathering everything for n = 1,000 would visit ~10^9 cells; that row reports cast alone and
extrapolates the reference from n = 100 (cells grow as n^3).
"""

from __future__ import annotations

import math
import random

import physics
from physics import AABB, BlockGrid, Body
from physics import mover
from physics.grid_cast import cast, swept_regions
from physics.swept_aabb import first_hit, sweep

from .harness import Row, median_time

SUITE = "sweep"
PLAYER = AABB.around_feet(0.5, 0.0, 0.5, 0.6, 1.8)
LENGTHS = (1, 10, 100, 1000)
GATHER_LIMIT = 100
"""Longest diagonal the reference is run for: at 100 it visits ~10^6 cells (about a second)."""


class CellByCellWorld:
    """A world whose query visits each cell of the region, as a chunked world does."""

    def __init__(self, grid: BlockGrid) -> None:
        self.grid = grid

    def collision_boxes(self, region: AABB) -> list[AABB]:
        rx0, ry0, rz0, rx1, ry1, rz1 = region
        boxes_at = self.grid.boxes_at
        found = []
        for x in range(math.floor(rx0), math.floor(rx1) + 1):
            for y in range(math.floor(ry0) - 1, math.floor(ry1) + 1):  # one below: fences rise into the region
                for z in range(math.floor(rz0), math.floor(rz1) + 1):
                    for b in boxes_at(x, y, z):
                        if b[3] > rx0 and b[0] < rx1 and b[4] > ry0 and b[1] < ry1 and b[5] > rz0 and b[2] < rz1:
                            found.append(b)
        return found


def cells_in(region: AABB) -> int:
    """How many cells `CellByCellWorld` visits for `region`."""
    spans = [math.floor(region[i + 3]) - math.floor(region[i]) + 1 for i in range(3)]
    return spans[0] * (spans[1] + 1) * spans[2]


def scattered_beside_the_path(length: int, density: float = 0.1, reach: int = 4, seed: int = 7) -> BlockGrid:
    """Blocks at `density` of the cells within `reach` of the diagonal, none in the body's path."""
    rng = random.Random(seed)
    grid = BlockGrid()
    delta = (float(length),) * 3
    for i in range(-reach, length + reach + 2):
        for dx in range(-reach, reach + 1):
            for dy in range(-reach, reach + 1):
                for dz in range(-reach, reach + 1):
                    if rng.random() < density:
                        cell = AABB(i + dx, i + dy, i + dz, i + dx + 1, i + dy + 1, i + dz + 1)
                        if not cell.intersects(PLAYER) and sweep(PLAYER, *delta, cell) is None:
                            grid.set(i + dx, i + dy, i + dz)
    return grid


def gather_everything(box: AABB, delta: tuple[float, float, float], world):
    """The reference: one query over the whole stretched box, then a sweep of every box found."""
    return first_hit(box, *delta, world.collision_boxes(box.expanded_towards(*delta)))


def _sweep_rows(repeats: int) -> list[Row]:
    unit = AABB(0.0, 0.0, 0.0, 1.0, 1.0, 1.0)
    cases = [
        ("sweep: diagonal hit", (3.0, 2.0, 1.0), AABB(2.5, 1.5, 0.5, 3.5, 2.5, 1.5)),
        ("sweep: miss, apart on a still axis", (3.0, 0.0, 1.0), AABB(2.0, 5.0, 0.0, 3.0, 6.0, 1.0)),
        ("sweep: miss, passing by", (3.0, 2.0, 1.0), AABB(0.0, 3.0, 2.0, 1.0, 4.0, 3.0)),
    ]
    rows = []
    for name, delta, target in cases:
        us = median_time(lambda: sweep(unit, *delta, target), repeats=repeats, inner=2000)
        rows.append(Row(SUITE, name, us, "us"))
    return rows


def run(quick: bool = False) -> list[Row]:
    repeats = 3 if quick else 15
    rows = _sweep_rows(repeats)
    reference_ms = {}
    world = CellByCellWorld(scattered_beside_the_path(max(LENGTHS)))  # one world for every length
    for length in LENGTHS:
        delta = (float(length),) * 3
        walk = sum(cells_in(region) for _, region in swept_regions(PLAYER, *delta))
        everything = cells_in(PLAYER.expanded_towards(*delta))
        assert cast(PLAYER, *delta, world) is None  # the path is clear: the walk covers all of it
        ours = median_time(lambda: cast(PLAYER, *delta, world), repeats=repeats, inner=max(1, 100 // length), unit="ms")
        note = f"cells visited: walk {walk:,}, gather {everything:,}"
        if length <= GATHER_LIMIT:
            reference = median_time(lambda: gather_everything(PLAYER, delta, world), repeats=max(1, repeats // 5),
                                    inner=max(1, 10 // length), unit="ms")
            reference_ms[length] = reference
        else:
            reference = None
            cells_at_limit = cells_in(PLAYER.expanded_towards(*(float(GATHER_LIMIT),) * 3))
            estimate = reference_ms[GATHER_LIMIT] * everything / cells_at_limit
            note += f"; reference not run (~{estimate / 1000:.0f} s by cells, extrapolated from n = {GATHER_LIMIT})"
        rows.append(Row(SUITE, f"cast: ({length}, {length}, {length}) diagonal, scattered blocks", ours, "ms",
                        reference=reference, note=note))
    rows.extend(_move_rows(world, repeats))
    return rows


def _move_with_ratio(body: Body, delta, world, ratio: float) -> Body:
    saved = mover.PER_AXIS_GATHER_RATIO
    mover.PER_AXIS_GATHER_RATIO = ratio
    try:
        return physics.move(body, *delta, world)
    finally:
        mover.PER_AXIS_GATHER_RATIO = saved


def _move_rows(world, repeats: int) -> list[Row]:
    """`physics.move` along the same diagonals: its per-axis slabs against one query over the stretched box."""
    body = Body(PLAYER)
    rows = []
    for length in LENGTHS:
        delta = (float(length),) * 3
        ours = median_time(lambda: physics.move(body, *delta, world), repeats=repeats,
                           inner=max(1, 100 // length), unit="ms")
        reference = None
        note = "per-axis slabs (mover.PER_AXIS_GATHER_RATIO)"
        if length <= GATHER_LIMIT:
            reference = median_time(lambda: _move_with_ratio(body, delta, world, float("inf")),
                                    repeats=max(1, repeats // 5), inner=max(1, 10 // length), unit="ms")
            assert _move_with_ratio(body, delta, world, float("inf")) == physics.move(body, *delta, world)
        else:
            note += "; whole-box reference not run (~10^9 cells)"
        rows.append(Row(SUITE, f"move: ({length}, {length}, {length}) diagonal, scattered blocks", ours, "ms",
                        reference=reference, target="<= 20 ms at 1,000" if length == 1000 else "", note=note))
    return rows
