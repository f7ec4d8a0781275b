"""Fluid benchmark: milliseconds of `World.tick()` when 1,000 scheduled fluid updates are due.

Cases (a fresh world each sample, built untimed; the timed call is the one tick that runs them):
- spreading: 250 water sources 5 blocks apart on an open stone floor, 10 ticks after they were
  placed, so the tick runs the 1,000 level-1 cells of their first rings (every one spreads to
  three new cells and searches for a way down: the heaviest ordinary tick);
- settled lake: a 32 x 32 lake of water sources on a floor, every cell scheduled (as when a
  player's edits disturb a whole lake): each update finds nothing to do.
The reference is the same tick run one update at a time (`World._run_one_by_one`, the readable
twin of the batched tick in `fluid_batch.py`; the equivalence tests show they write the same).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from unittest import mock

from game.world import World, fluid_batch
from game.world.fluids import WATER_TICKS

from .harness import Row

SUITE = "fluids"
FLOOR_Y = 200
TARGET = "<= 5 ms"


def _spreading(path: Path) -> World:
    world = World.create(path, seed=3, workers=1)
    for x in range(-40, 40):
        for z in range(-40, 40):
            world.set_block(x, FLOOR_Y, z, "stone")
    placed = 0
    for x in range(-36, 36, 5):
        for z in range(-36, 36, 5):
            if placed < 250:
                world.set_block(x, FLOOR_Y + 1, z, "water")
                placed += 1
    for _ in range(2 * WATER_TICKS - 1):
        world.tick()
    return world


def _settled_lake(path: Path) -> World:
    world = World.create(path, seed=3, workers=1)
    for x in range(-17, 17):
        for z in range(-17, 17):
            world.set_block(x, FLOOR_Y, z, "stone")
            if abs(x + 0.5) > 16 or abs(z + 0.5) > 16:
                world.set_block(x, FLOOR_Y + 1, z, "stone")
    for x in range(-16, 16):
        for z in range(-16, 16):
            world.set_block(x, FLOOR_Y + 1, z, "water")
    for _ in range(3 * WATER_TICKS):
        world.tick()
    for x in range(-16, 16):
        for z in range(-16, 16):
            world.schedule(x, FLOOR_Y + 1, z, 1)
    return world


def _one_tick_ms(build, folder: Path, repeats: int, reference: bool) -> tuple[float, int]:
    import statistics
    import time

    samples, ran = [], 0
    for index in range(repeats):
        world = build(folder / f"{build.__name__}-{reference}-{index}.boxel")
        try:
            with mock.patch.object(fluid_batch, "run_batch", lambda world, due: None) if reference else _nothing():
                started = time.perf_counter()
                ran = world.tick()
                samples.append((time.perf_counter() - started) * 1e3)
        finally:
            world.close()
    return statistics.median(samples), ran


def _nothing():
    import contextlib

    return contextlib.nullcontext()


def run(quick: bool = False) -> list[Row]:
    repeats = 3 if quick else 9
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for build, case in ((_spreading, "World.tick, 1,000 due: spreading rings"),
                            (_settled_lake, "World.tick, 1,024 due: settled lake")):
            ours, ran = _one_tick_ms(build, Path(folder), repeats, reference=False)
            theirs, _ = _one_tick_ms(build, Path(folder), repeats, reference=True)
            rows.append(Row(SUITE, case, ours, "ms", theirs, TARGET, f"{ran} updates run"))
    return rows
