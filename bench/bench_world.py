"""World benchmark: column generation, collision queries, padded sections, saves, background work.

Rows:
- generating one column with its sea, caves, cave entrances and lava pools, ores and dirt and gravel
  pockets, trees, lake, cactus and plants, against
  `reference_terrain` (the same column one block at a time in plain Python; the tests check both
  give identical ids);
- `collision_boxes` for the region a walking player's move gathers (its box stretched by one
  tick's motion plus the layer below), at 64 places around spawn, against a per-cell scan
  through `get_block` (what a straightforward world would do);
- a crowd's world cache (`physics.broad_phase.WorldCache`) filling one tile of ground
  (`WORLD_TILE_SIZE` blocks cubed, at the surface and below it around spawn) from the world's box and material arrays
  (`collision_box_array`, `material_array`), against the same world answering only
  `collision_boxes` and `materials_in` (a Python object per box and per cell);
- `padded_section`, the mesher's input;
- saving 500 edited columns in one transaction, and opening the world and reading them back;
- `request` (must not block the caller), and how late the main thread wakes from a 1 ms sleep
  (90th percentile) while columns generate in the background: with Boxel's worker process
  against a generator thread (the reference), which is how `generation.py` chose processes.
"""

from __future__ import annotations

import math
import random
import shutil
import statistics
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

from game.world import World
from game.world.blocks import SHAPES, block_id
from game.world.terrain import Terrain
from physics import AABB
from physics.broad_phase import WORLD_TILE_SIZE as T, WorldCache
from physics.shapes import placed

from .harness import Row, median_time, percentile
from .reference_terrain import reference_column

SUITE = "world"
SEED = 42
COLUMNS = [(0, 0), (5, -14), (1, 18), (-14, -5), (-3, -3), (-24, -8), (-12, 11), (7, -3)]
"""Seed 42's plains at the origin, plains with trees and flowers, a beach, desert with cactus, a lake,
a mountain top, open sea and one more (lava pools in most of them)."""
EDITED_COLUMNS = 500
FRAME_WAIT_S = 0.001
"""[s] The sleep whose late wake-ups measure what background generation costs the main thread."""
WAKE_SAMPLES_MIN = 20
WAKE_PERCENTILE = 0.9


def _generation_rows(quick: bool) -> list[Row]:
    terrain = Terrain(SEED)
    cycle = {"i": 0}

    def one_column():
        cycle["i"] += 1
        terrain.column(*COLUMNS[cycle["i"] % len(COLUMNS)])

    def one_reference_column():
        cycle["i"] += 1
        reference_column(SEED, *COLUMNS[cycle["i"] % len(COLUMNS)])

    ours = median_time(one_column, repeats=5 if quick else 40, inner=2 if quick else len(COLUMNS), unit="ms")
    reference = median_time(one_reference_column, repeats=1 if quick else 3, inner=1 if quick else 4,
                            warmup=0, unit="ms")
    return [Row(SUITE, "generate one column (sea, caves and entrances, lava, ores, trees, lakes, plants)", ours, "ms", reference=reference, target="<= 5 ms",
                note="reference: per-block Python loop, same ids")]


def _player_regions(world: World, count: int) -> list[AABB]:
    """The regions `physics.move` gathers for a player walking (0.1 blocks/tick) on the ground near spawn."""
    rng = random.Random(1)
    regions = []
    for _ in range(count):
        x, z = rng.uniform(-40.0, 40.0), rng.uniform(-40.0, 40.0)
        ground = max(y for y in range(256) if world.get_block(math.floor(x), y, math.floor(z)) != "air") + 1.0
        box = AABB.around_feet(x, ground, z, 0.6, 1.8)
        regions.append(AABB(box[0] - 0.1, box[1] - 1.0784, box[2], box[3], box[4], box[5] + 0.1))
    return regions


def _brute_force_boxes(world: World, region: AABB) -> list[AABB]:
    found = []
    for x in range(math.floor(region[0]), math.floor(region[3]) + 1):
        for y in range(math.floor(region[1]) - 1, math.floor(region[4]) + 1):
            for z in range(math.floor(region[2]), math.floor(region[5]) + 1):
                found.extend(b for b in placed(SHAPES[block_id(world.get_block(x, y, z))], x, y, z)
                             if b.intersects(region))
    return found


def _query_rows(world: World, quick: bool) -> list[Row]:
    regions = _player_regions(world, 64)
    cycle = {"i": 0}

    def one_query():
        cycle["i"] += 1
        world.collision_boxes(regions[cycle["i"] & 63])

    def one_reference_query():
        cycle["i"] += 1
        _brute_force_boxes(world, regions[cycle["i"] & 63])

    sections = [(cx, sy, cz) for cx, cz in COLUMNS[:4] for sy in (3, 4)]

    def one_padded_section():
        cycle["i"] += 1
        world.padded_section(*sections[cycle["i"] % len(sections)])

    repeats = 5 if quick else 30
    tile_ours, tile_reference = _tile_fills(world, 20 if quick else 200)
    return [
        Row(SUITE, f"world cache: fill one tile of ground ({T}x{T}x{T})", tile_ours, "us", reference=tile_reference,
            note="from the world's box and material arrays; reference: `collision_boxes` and `materials_in` "
                 "(the same world without its array queries), in turns, a new tile each time"),
        Row(SUITE, "collision_boxes, player-sized region", median_time(one_query, repeats=repeats, inner=256),
            "us", reference=median_time(one_reference_query, repeats=repeats, inner=64), target="<= 20 us",
            note="reference: per-cell get_block scan"),
        Row(SUITE, "padded_section (18^3 mesher input)", median_time(one_padded_section, repeats=repeats, inner=64),
            "us"),
    ]


class _BoxesOnly:
    """The world without its many-cells array queries: what a `WorldCache` reads of any other world."""

    def __init__(self, world: World) -> None:
        self._world = world
        self.collision_boxes, self.materials_in, self.material = world.collision_boxes, world.materials_in, world.material
        self.slipperiness, self.cells_changed_since = world.slipperiness, world.cells_changed_since

    @property
    def revision(self) -> int:
        return self._world.revision


def _tile_fills(world: World, repeats: int) -> tuple[float, float]:
    """Median microseconds of a fresh world cache filling one tile, from the arrays and from the boxes
    (in turns, each time a tile neither cache has seen: a new cache, untimed)."""
    sx, sy, sz = world.spawn
    tx, ty, tz = int(sx) // T, int(sy) // T, int(sz) // T
    tiles = [(tx + dx, ty + dy, tz + dz) for dy in (0, -1, -2) for dx in range(-5, 5) for dz in range(-5, 5)]
    reach = 5 * T
    for cx in range(((T * tx - reach) >> 4) - 1, ((T * tx + reach) >> 4) + 2):  # made first: asking times no generation
        for cz in range(((T * tz - reach) >> 4) - 1, ((T * tz + reach) >> 4) + 2):
            world.column(cx, cz)
    plain, ours, theirs = _BoxesOnly(world), [], []
    for k in range(repeats):
        x, y, z = tiles[k % len(tiles)]
        cells = np.array([(T * x + i, T * y + j, T * z + m) for i in range(T) for j in range(T) for m in range(T)])
        for view, samples in ((plain, theirs), (world, ours)):
            cache = WorldCache(view)
            cache.sync()
            start = time.perf_counter()
            cache.materials_at(cells)  # asks the world for the tile: its boxes and materials
            samples.append((time.perf_counter() - start) * 1e6)
    return statistics.median(ours), statistics.median(theirs)


def _save_rows(folder: Path, quick: bool) -> list[Row]:
    path = folder / "saves.db"
    world = World.create(path, seed=SEED, workers=1)
    keys = [(cx, cz) for cx in range(-11, 12) for cz in range(-11, 11)][:EDITED_COLUMNS]
    flip = {"name": "brick"}

    def edit_every_column():
        flip["name"] = "planks" if flip["name"] == "brick" else "brick"
        for cx, cz in keys:
            world.set_block(cx * 16 + 3, 120, cz * 16 + 5, flip["name"])

    save = median_time(world.save, repeats=2 if quick else 7, warmup=0, unit="ms", setup=edit_every_column)
    world.close()

    def open_and_read():
        reopened = World.open(path, workers=1)
        for cx, cz in keys:
            reopened.get_block(cx * 16 + 3, 120, cz * 16 + 5)
        reopened.close()

    reopen = median_time(open_and_read, repeats=2 if quick else 7, unit="ms")
    return [
        Row(SUITE, f"save {EDITED_COLUMNS} edited columns", save, "ms", note="one WAL transaction, zlib level 1"),
        Row(SUITE, f"open and read {EDITED_COLUMNS} edited columns", reopen, "ms"),
    ]


def _wake_delays_ms(busy, poll) -> list[float]:
    """How late the main thread wakes from 1 ms sleeps (a frame limiter's wait), until `busy()` is false.

    Late wake-ups are what background work costs a game loop: with a generator thread the main
    thread must win the GIL back after each sleep; with a worker process only the OS schedules it.
    """
    delays: list[float] = []
    while busy() or len(delays) < WAKE_SAMPLES_MIN:
        start = time.perf_counter()
        time.sleep(FRAME_WAIT_S)
        delays.append((time.perf_counter() - start - FRAME_WAIT_S) * 1e3)
        poll()
    return delays


def _background_rows(folder: Path, quick: bool) -> list[Row]:
    columns = 24 if quick else 96
    world = World.create(folder / "background.db", seed=SEED, workers=1)
    world.request(1000, 1000)  # start the worker process, outside the timing
    while not world.poll():
        time.sleep(0.01)

    keys = iter([(cx, 2000) for cx in range(100_000)])

    def one_request():
        world.request(*next(keys))

    request = median_time(one_request, repeats=5, inner=50, warmup=0)
    while world.pending_requests:
        world.poll()
        time.sleep(0.01)

    for cx in range(columns):
        world.request(cx, 3000)
    with_process = percentile(_wake_delays_ms(lambda: world.pending_requests > 0, world.poll), WAKE_PERCENTILE)
    world.close()
    terrain = Terrain(SEED)
    thread = threading.Thread(target=lambda: [terrain.column(cx, 4000) for cx in range(columns)])
    thread.start()
    with_thread = percentile(_wake_delays_ms(thread.is_alive, lambda: None), WAKE_PERCENTILE)
    thread.join()
    samples = iter(range(WAKE_SAMPLES_MIN * 10))
    idle = percentile(_wake_delays_ms(lambda: next(samples, None) is not None, lambda: None), WAKE_PERCENTILE)
    return [
        Row(SUITE, "request() one column", request, "us", target="< 1000 us (never blocks)"),
        Row(SUITE, "main-thread wake-up delay p90 while generating", with_process, "ms", reference=with_thread,
            note=f"worker process vs generator thread (reference); {idle:.2f} ms when idle"),
    ]


def run(quick: bool) -> list[Row]:
    folder = Path(tempfile.mkdtemp(prefix="boxel-bench-world-"))
    try:
        rows = _generation_rows(quick)
        world = World.create(folder / "queries.db", seed=SEED, workers=1)
        rows += _query_rows(world, quick)
        world.close()
        rows += _save_rows(folder, quick)
        rows += _background_rows(folder, quick)
        return rows
    finally:
        shutil.rmtree(folder, ignore_errors=True)
