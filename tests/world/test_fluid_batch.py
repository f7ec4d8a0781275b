"""The batched tick (`fluid_batch.run_batch`) leaves the world exactly as running the same updates one
by one does: blocks, pending queue (order included), falling sand, changed sections, revision."""

from __future__ import annotations

import tempfile
from pathlib import Path
from unittest import mock

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.world import World, fluid_batch
from game.world.block_updates import pack
from game.world.blocks import block_id
from game.world.fluids import WATER_TICKS

FLOOR_Y = 200
SIDE = 12
"""[blocks] Width of the random scenes."""
HEIGHT = 6
PALETTE = (["air"] * 10 + ["stone"] * 4 + ["glass", "sand", "gravel", "torch", "tall_grass", "ladder_north", "cobweb"]
           + ["water", "water_1", "water_3", "water_7", "water_8", "water_12", "lava", "lava_2", "lava_6", "lava_9"])


def _tick_one_by_one(world: World) -> int:
    with mock.patch.object(fluid_batch, "run_batch", lambda world, due: None):
        return world.tick()


BATCHED_TICKS = [0]
"""Ticks the batch ran (not left to the plain path), so a test can show it exercised the batch."""
_run_batch = fluid_batch.run_batch


def _counted_run_batch(world, due):
    result = _run_batch(world, due)
    BATCHED_TICKS[0] += result is not None and len(result.writes) > 0
    return result


def _tick_batched(world: World) -> int:
    with mock.patch.object(fluid_batch, "MIN_BATCH", 1), mock.patch.object(fluid_batch, "run_batch", _counted_run_batch):
        return world.tick()


def _state(world: World, reach: int, low: int, high: int) -> tuple:
    ids = world.ids_in_box(-reach, low, -reach, reach, high, reach).copy()
    return (ids.tobytes(), world._updates.rows(world.ticks), world.take_falling_starts(),
            sorted(world.take_changed_sections()), world.revision)


def _assert_same_run(build, ticks: int, reach: int, low: int, high: int) -> tuple[int, int]:
    """Build the same scene in two worlds, tick one batched and one one-by-one, compare every tick;
    returns how many updates ran in all and on how many ticks the batch wrote blocks."""
    BATCHED_TICKS[0] = 0
    with tempfile.TemporaryDirectory() as folder:
        batched = World.create(Path(folder) / "batched.boxel", seed=5, workers=1)
        plain = World.create(Path(folder) / "plain.boxel", seed=5, workers=1)
        try:
            build(batched)
            build(plain)
            assert _state(batched, reach, low, high) == _state(plain, reach, low, high)
            ran = 0
            for tick in range(ticks):
                ran += _tick_batched(batched)
                assert _tick_one_by_one(plain) >= 0
                assert _state(batched, reach, low, high) == _state(plain, reach, low, high), f"tick {tick + 1}"
            return ran, BATCHED_TICKS[0]
        finally:
            batched.close()
            plain.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PALETTE), min_size=SIDE * SIDE * HEIGHT, max_size=SIDE * SIDE * HEIGHT),
       st.integers(5, 40))
def test_a_random_scene_of_fluids_sand_and_blocks_ticks_the_same_batched_as_one_by_one(cells, ticks):
    def build(world: World) -> None:
        names = iter(cells)
        for y in range(FLOOR_Y, FLOOR_Y + HEIGHT):
            for x in range(-SIDE // 2, SIDE // 2):
                for z in range(-SIDE // 2, SIDE // 2):
                    name = next(names)
                    if name != "air":
                        world.set_block(x, y, z, name)

    _assert_same_run(build, ticks, SIDE, FLOOR_Y - 8, FLOOR_Y + HEIGHT + 2)


def _rings(world: World) -> None:
    for x in range(-20, 20):
        for z in range(-20, 20):
            world.set_block(x, FLOOR_Y, z, "stone")
    for x in range(-16, 16, 5):
        for z in range(-16, 16, 5):
            world.set_block(x, FLOOR_Y + 1, z, "water")


def test_sources_spreading_into_each_other_over_a_floor_with_edges_tick_the_same_batched_as_one_by_one():
    ran, batched = _assert_same_run(_rings, 60, 30, FLOOR_Y - 6, FLOOR_Y + 3)
    assert ran > 2000 and batched >= 10


def _steps(world: World) -> None:
    """Terraces with holes, a lava pool beside them and sand over the water: every rule at once."""
    for x in range(-14, 14):
        for z in range(-14, 14):
            height = FLOOR_Y + (x + 14) // 5
            world.set_block(x, height, z, "stone")
            if (x * 7 + z * 3) % 11 == 0:
                world.set_block(x, height, z, "air")
    for z in range(-12, 12, 4):
        world.set_block(12, FLOOR_Y + 6, z, "water")
        world.set_block(-13, FLOOR_Y + 2, z, "lava")
    for x in range(-4, 4):
        world.set_block(x, FLOOR_Y + 8, 0, "sand")


def test_terraces_with_holes_water_lava_and_sand_tick_the_same_batched_as_one_by_one():
    ran, batched = _assert_same_run(_steps, 120, 30, FLOOR_Y - 30, FLOOR_Y + 10)
    assert ran > 500 and batched >= 10


def test_a_batch_where_lava_may_meet_water_is_left_to_run_one_by_one(tmp_path):
    world = World.create(tmp_path / "w.boxel", seed=5, workers=1)
    try:
        for x in range(-6, 7):
            for z in range(-6, 7):
                world.set_block(x, FLOOR_Y, z, "stone")
        world.set_block(-1, FLOOR_Y + 1, 0, "water")
        world.set_block(1, FLOOR_Y + 1, 0, "lava")
        due = world._updates.take_due(world.ticks + WATER_TICKS)
        assert pack(-1, FLOOR_Y + 1, 0, "water") in due
        with mock.patch.object(fluid_batch, "MIN_BATCH", 1):
            assert fluid_batch.run_batch(world, due) is None
            world._run_one_by_one(due)
        assert world.get_block(1, FLOOR_Y + 1, 0) == "obsidian"
    finally:
        world.close()


def test_the_planned_flow_directions_are_beta_s_search_on_random_floors():
    rng = np.random.default_rng(7)
    stone, air = block_id("stone"), block_id("air")
    water_1 = block_id("water_1")
    for _ in range(200):
        ids = np.where(rng.random((15, 4, 15)) < 0.55, stone, air).astype(np.uint16)
        ids[7, 2, 7] = water_1
        ids[7, 1, 7] = stone
        box = fluid_batch._Box((0, 0, 0), ids)
        mask = fluid_batch.planned_directions([box], np.zeros(1, dtype=np.intp), np.zeros(1, dtype=np.int8),
                                              np.array([7]), np.array([2]), np.array([7]))[0]

        class Window:
            def id_at(self, x, y, z):
                return int(ids[x, y, z]) if 0 <= x < 15 and 0 <= y < 4 and 0 <= z < 15 else stone

        expected = fluid_batch._FLUID_BY_KIND[fluid_batch.WATER].flow_directions_reference(Window(), 7, 2, 7)
        assert [d for d in range(4) if mask >> d & 1] == expected


def test_a_tick_spread_over_many_small_boxes_ticks_the_same_as_one_by_one():
    with mock.patch.object(fluid_batch, "MAX_BOX_CELLS", 3_000):
        ran, batched = _assert_same_run(_rings, 30, 30, FLOOR_Y - 6, FLOOR_Y + 3)
    assert ran > 1000 and batched >= 5


def test_what_a_notified_cell_held_comes_out_the_same_from_the_box_lookup_and_the_sorted_search():
    rng = np.random.default_rng(11)
    ids = rng.integers(0, 60, size=(12, 6, 12)).astype(np.uint16)
    box = fluid_batch._Box((-6, 100, -6), ids)
    writes_count = 300
    cells = rng.integers(0, [12, 6, 12], size=(writes_count, 3)) + [-6, 100, -6]  # cells often written twice
    writes = np.column_stack([cells, np.zeros(writes_count), rng.integers(0, 60, writes_count),
                              np.zeros(writes_count)]).astype(np.int64)
    candidates = rng.integers(0, [12, 6, 12], size=(2_000, 3)) + [-6, 100, -6]
    moments = rng.integers(0, writes_count, 2_000)
    cx, cy, cz = candidates.T
    by_box = fluid_batch._held_at_in_one_box(box, writes, cx, cy, cz, moments)
    start = ids[cx + 6, cy - 100, cz + 6].astype(np.int64)
    by_search = fluid_batch._held_at_by_search(start.copy(), writes, cx, cy, cz, moments)
    expected = start.copy()
    for index, (x, y, z) in enumerate(candidates.tolist()):
        for moment in range(int(moments[index]), -1, -1):
            if tuple(writes[moment, :3]) == (x, y, z):
                expected[index] = writes[moment, 4]
                break
    assert (by_box == expected).all() and (by_search == expected).all()
