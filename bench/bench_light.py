"""Light benchmark: lighting a freshly generated column, and relighting after one block edit.

Cases:
- install: a generated column of seed 42 arrives beside its 8 lit, generated neighbours; the timed
  part lights it and spreads its light into them and theirs into it (`LightEngine.resolve`). Five
  positions, one sample each per round.
- edits, on a world (`World.set_block`, then the light work and the re-mesh list that
  `take_changes` would hand the renderer): a torch placed in a dark room dug under the
  ground, and broken again; the one block of ground over a shaft into that room broken (the sky
  pours in), and put back;
- a flood: 2,000 cells (water on the ground over 45 x 45 blocks) passed to `World._relight` in one
  call, as the batched fluid tick does, then drained the same way (no target, no reference).
- 10,000 torches placed at once over lit columns, their light relit by world ticks nobody reads
  (`World.tick`'s budget, LIGHT_CELLS_PER_TICK cells a tick): the worst tick's light work, against
  the reference of relighting all of them at once (what a light read did with no per-tick budget:
  one resolve of every waiting cell).
The reference is the same engine with its two passes run one cell at a time in Python (Beta's
queues: `light.spread_reference`, `light.remove_reference`) instead of on index arrays.
"""

from __future__ import annotations

import itertools
import statistics
import tempfile
import time
from pathlib import Path

from game.world import World, light
from game.world.world import LIGHT_CELLS_PER_TICK
from game.world.blocks import block_id
from game.world.column import Column
from game.world.light import LightEngine
from game.world.terrain import Terrain

from .harness import Row

SUITE = "light"
INSTALL_TARGET = "<= 3 ms"
EDIT_TARGET = "<= 2 ms"
SOURCES_TARGET = "<= 25 ms"
"""Half a tick's 50 ms: the rest of the tick keeps its time."""
SEED = 42
CENTRES = ((0, 0), (3, -2), (-5, 4), (7, 7), (-2, -6))
"""Columns lit in the install case (each with its 8 neighbours already lit)."""
FLOOD_CELLS = 2_000
"""Cells in the flood case: the most a busy batched fluid tick changes."""
SOURCES = 10_000
"""Torches placed at once in the spread-over-ticks case (five layers over 3 x 3 columns, above the ground)."""
ROOM_DEPTH = 6
"""[blocks] How far below the ground the dug room's floor lies (it is 3 blocks tall)."""


def _use(engine: LightEngine, reference: bool) -> None:
    engine.spread = light.spread_reference if reference else light.spread
    engine.remove = light.remove_reference if reference else light.remove


def _install_ms(terrain: Terrain, reference: bool, rounds: int) -> float:
    samples = []
    for _ in range(rounds):
        for cx, cz in CENTRES:
            columns = {(cx + dx, cz + dz): Column.from_ids(terrain.column(cx + dx, cz + dz))
                       for dx, dz in itertools.product((-1, 0, 1), repeat=2) if dx or dz}
            engine = LightEngine(columns)
            for key in columns:
                engine.column_added(key)
            engine.resolve()
            columns[(cx, cz)] = Column.from_ids(terrain.column(cx, cz))
            _use(engine, reference)
            started = time.perf_counter()
            engine.column_added((cx, cz))
            engine.resolve()
            samples.append((time.perf_counter() - started) * 1e3)
    return statistics.median(samples)


def _room_world(path: Path) -> tuple[World, tuple[int, int, int], tuple[int, int, int]]:
    """A world with a dark room dug under the ground at (8, 8) and a shaft to just under the
    surface; returns it, the room's middle and the ground block over the shaft."""
    world = World.create(path, seed=SEED, workers=1)
    column = world.column(0, 0)
    surface = max(y for y in range(256) if light.LIGHT_OPACITY[column[8, y, 8]] == light.MAX_LIGHT)
    floor = surface - ROOM_DEPTH
    for x in range(3, 14):
        for z in range(3, 14):
            for y in range(floor, floor + 3):
                world.set_block(x, y, z, "air")
    for y in range(floor + 3, surface):
        world.set_block(8, y, 8, "air")
    world.set_block(8, floor - 1, 8, "stone")
    world.take_changed_sections()
    return world, (5, floor, 5), (8, surface, 8)


def _edit_ms(folder: Path, reference: bool, rounds: int) -> dict[str, float]:
    world, room, roof = _room_world(folder / f"room-{reference}.boxel")
    try:
        _use(world._light, reference)
        roof_block = world.get_block(*roof)
        cases = {"torch placed in a dark room": (room, "torch"), "torch broken in a dark room": (room, "air"),
                 "ground block over a room broken": (roof, "air"),
                 "ground block over a room put back": (roof, roof_block)}
        samples: dict[str, list[float]] = {case: [] for case in cases}
        for _ in range(rounds):
            for case, (cell, block) in cases.items():
                started = time.perf_counter()
                world.set_block(*cell, block)
                world._resolve_light()
                samples[case].append((time.perf_counter() - started) * 1e3)
                world.take_changes()  # forget what changed, as a tick's record would
        return {case: statistics.median(values) for case, values in samples.items()}
    finally:
        world.close()


def _flood_ms(folder: Path, rounds: int) -> float:
    """One `_relight` call with FLOOD_CELLS cells (one water cell on top of the ground in each
    place, as a batched fluid tick might pass), then the light work; alternately flooding and draining."""
    world = World.create(folder / "flood.boxel", seed=SEED, workers=1)
    try:
        cells = [(x, 0, z) for x in range(-22, 23) for z in range(-22, 23)][:FLOOD_CELLS]
        cells = [(x, world._column_at(x >> 4, z >> 4).top_y(x & 15, z & 15) + 1, z) for x, _, z in cells]
        world.padded_light(0, 4, 0)
        for cx, cz in itertools.product(range(-3, 3), repeat=2):
            world.light(cx * 16, 0, cz * 16)
        samples = []
        for index in range(2 * rounds):
            block = block_id("water_2") if index % 2 == 0 else block_id("air")
            for x, y, z in cells:
                world._column_at(x >> 4, z >> 4).set(x & 15, y, z & 15, block)
            started = time.perf_counter()
            world._relight(cells)
            world._resolve_light()
            samples.append((time.perf_counter() - started) * 1e3)
        return statistics.median(samples)
    finally:
        world.close()


def _sources_world(folder: Path, name: str) -> tuple[World, list[tuple[int, int, int]]]:
    """A world with the 5 x 5 columns around the origin lit, and SOURCES air cells above the ground of
    the middle 3 x 3 (five layers from 40 blocks over the highest ground)."""
    world = World.create(folder / name, seed=SEED, workers=1)
    for cx, cz in itertools.product(range(-2, 3), repeat=2):
        world.light(cx * 16, 0, cz * 16)
    top = max(world._column_at(cx, cz).top_y(x, z) for cx, cz in itertools.product(range(-1, 2), repeat=2)
              for x in range(16) for z in range(16))
    cells = [(x, top + 40 + y, z) for y in range(5) for x in range(-16, 32) for z in range(-16, 32)][:SOURCES]
    return world, cells


def _place_torches(world: World, cells: list[tuple[int, int, int]]) -> None:
    torch = block_id("torch")
    for x, y, z in cells:
        world._column_at(x >> 4, z >> 4).set(x & 15, y, z & 15, torch)
    world._relight(cells, [block_id("air")] * len(cells))


def _sources_ms(folder: Path, rounds: int) -> tuple[float, float, int]:
    """(the worst tick's light work while SOURCES torches are relit over ticks, the one resolve of them
    all at once, the ticks it took); medians over `rounds` placements."""
    worst, at_once, ticks = [], [], 0
    for index in range(rounds):
        world, cells = _sources_world(folder, f"sources-{index}.boxel")
        try:
            _place_torches(world, cells)
            samples = []
            while world._light.recorded_cells:
                started = time.perf_counter()
                world._resolve_light(budget=LIGHT_CELLS_PER_TICK, install=False)  # a tick's light step
                samples.append((time.perf_counter() - started) * 1e3)
            worst.append(max(samples))
            ticks = len(samples)
            for x, y, z in cells:
                world._column_at(x >> 4, z >> 4).set(x & 15, y, z & 15, block_id("air"))
            world._relight(cells, [block_id("torch")] * len(cells))
            world._resolve_light()
            _place_torches(world, cells)
            started = time.perf_counter()
            world._resolve_light()
            at_once.append((time.perf_counter() - started) * 1e3)
        finally:
            world.close()
    return statistics.median(worst), statistics.median(at_once), ticks


def run(quick: bool = False) -> list[Row]:
    rounds = 2 if quick else 9
    terrain = Terrain(SEED)
    rows = [Row(SUITE, "light a generated column beside 8 lit neighbours", _install_ms(terrain, False, rounds), "ms",
                _install_ms(terrain, True, 1 if quick else 3), INSTALL_TARGET, f"{len(CENTRES)} positions")]
    with tempfile.TemporaryDirectory() as folder:
        ours = _edit_ms(Path(folder), False, rounds * 3)
        theirs = _edit_ms(Path(folder), True, rounds)
        flood = _flood_ms(Path(folder), rounds)
        worst, at_once, ticks = _sources_ms(Path(folder), 1 if quick else 5)
    for case, median in ours.items():
        rows.append(Row(SUITE, f"relight: {case}", median, "ms", theirs[case], EDIT_TARGET,
                        "set_block + light + re-mesh list"))
    rows.append(Row(SUITE, f"relight: {FLOOD_CELLS:,} cells in one call (a flood)", flood, "ms",
                    note="flooded, then drained; no target (the batched fluid tick's load)"))
    rows.append(Row(SUITE, f"relight: worst tick while {SOURCES:,} torches placed at once are relit", worst, "ms",
                    at_once, SOURCES_TARGET, f"{LIGHT_CELLS_PER_TICK:,} cells a tick, {ticks} ticks; "
                                             "reference: all relit at once"))
    return rows
