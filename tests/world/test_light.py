"""Light (`game/world/light.py`, `World.light`, `World.padded_light`): Beta's rule, kept exact.

Exact values where the rule is exact (a torch, lava, a lake, a canopy, a roof), and an oracle for
the rest: Beta's rule solved from scratch, one block at a time, in plain Python (`solve`), compared
with the engine after random edits, installs in any order, batches and unloads.
"""

from __future__ import annotations

import itertools
import random
from collections import deque

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.world.blocks import LIGHT_EMISSION, LIGHT_OPACITY, block_id
from game.world.column import Column
from game.world.coords import COLUMN_SHAPE, OutOfWorldError
from game.world.light import REACH, LightEngine
from game.world.world import LIGHT_CELLS_PER_TICK

HEIGHT = 256
STONE, AIR, TORCH, LAVA = block_id("stone"), block_id("air"), block_id("torch"), block_id("lava")
PALETTE = tuple(block_id(name) for name in ("air", "air", "stone", "leaves", "water", "water_3", "glass", "torch",
                                             "lava", "ice", "cobweb", "stone_slab"))
KEYS_3X3 = tuple(itertools.product((-1, 0, 1), (-1, 0, 1)))


# --- the oracle ---------------------------------------------------------------------------------

def solve(columns: dict[tuple[int, int], Column]) -> dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]:
    """(sky, block) as (16, 256, 16) uint8 arrays for every column of `columns`."""
    ids = {key: column.ids() for key, column in columns.items()}
    xs = [key[0] for key in ids]
    zs = [key[1] for key in ids]
    x0, z0 = min(xs) * 16, min(zs) * 16
    width, depth = (max(xs) + 1) * 16 - x0, (max(zs) + 1) * 16 - z0
    opacity = {key: LIGHT_OPACITY[block].tolist() for key, block in ids.items()}
    emission = {key: LIGHT_EMISSION[block].tolist() for key, block in ids.items()}
    top = 0
    for key, block in ids.items():
        filled = np.nonzero(LIGHT_OPACITY[block])[1]
        glowing = np.nonzero(LIGHT_EMISSION[block])[1]
        top = max(top, int(filled.max()) + 1 if filled.size else 0, int(glowing.max()) + 16 if glowing.size else 0)
    top = min(top + 1, HEIGHT)  # cells above this see the sky and no block light reaches them

    def cell(x, y, z):
        key = ((x + x0) // 16, (z + z0) // 16)
        if key not in ids or not 0 <= x < width or not 0 <= z < depth:
            return None
        return key, (x + x0) % 16, y, (z + z0) % 16

    results = {}
    for channel in ("sky", "block"):
        light = {}
        queue = deque()
        for key in ids:
            for lx in range(16):
                for lz in range(16):
                    height = 0
                    for y in range(top - 1, -1, -1):
                        if opacity[key][lx][y][lz]:
                            height = y + 1
                            break
                    for y in range(top):
                        if channel == "sky":
                            source = 15 if y >= height else 0
                        else:
                            source = emission[key][lx][y][lz]
                        if channel == "sky" and y == HEIGHT - 1:
                            source = max(source, 15 - max(1, opacity[key][lx][y][lz]))  # lit from above the world
                        light[(key, lx, y, lz)] = source
                        if source:
                            queue.append((key, lx, y, lz))
        while queue:
            here = queue.popleft()
            key, lx, y, lz = here
            value = light[here]
            gx, gz = key[0] * 16 + lx - x0, key[1] * 16 + lz - z0
            for dx, dy, dz in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)):
                if not 0 <= y + dy < top:
                    continue
                other = cell(gx + dx, y + dy, gz + dz)
                if other is None:
                    continue
                okey, ox, oy, oz = other
                cost = max(1, opacity[okey][ox][oy][oz])
                if value - cost > light[other]:
                    light[other] = value - cost
                    queue.append(other)
        for key in ids:
            out = np.full((16, HEIGHT, 16), 15 if channel == "sky" else 0, dtype=np.uint8)
            for lx in range(16):
                for lz in range(16):
                    for y in range(top):
                        out[lx, y, lz] = light[(key, lx, y, lz)]
            results.setdefault(key, []).append(out)
    return {key: (pair[0], pair[1]) for key, pair in results.items()}


# --- helpers ------------------------------------------------------------------------------------

def ground_columns(keys=KEYS_3X3, ground: int = 8) -> dict[tuple[int, int], Column]:
    """Columns of stone below y = `ground` and air above."""
    ids = np.zeros(COLUMN_SHAPE, dtype=np.uint16)
    ids[:, :ground, :] = STONE
    return {key: Column.from_ids(ids) for key in keys}


def lit_engine(columns: dict) -> LightEngine:
    engine = LightEngine(columns)
    for key in columns:
        engine.column_added(key)
    engine.resolve()
    return engine


def put(columns: dict, engine: LightEngine | None, x: int, y: int, z: int, block: int) -> None:
    columns[(x >> 4, z >> 4)].set(x & 15, y, z & 15, block)
    if engine is not None:
        engine.cells_changed([(x, y, z)])


def light(engine: LightEngine, x: int, y: int, z: int) -> tuple[int, int]:
    engine.resolve()
    return engine.light_at(x, y, z)


def assert_matches_oracle(engine: LightEngine, columns: dict) -> None:
    engine.resolve()
    expected = solve(columns)
    for key, (sky, block) in expected.items():
        packed = engine.column_light(key)
        bad = np.argwhere((packed >> 4 != sky) | (packed & 15 != block))
        if bad.size:
            x, y, z = bad[0]
            raise AssertionError(f"column {key}, cell {(x, y, z)}: engine (sky, block) "
                                 f"{(packed[x, y, z] >> 4, packed[x, y, z] & 15)}, oracle {(sky[x, y, z], block[x, y, z])}"
                                 f" ({len(bad)} cells differ)")


# --- the registry's light properties ------------------------------------------------------------

def test_the_registry_gives_beta_light_values_to_sources_filters_and_walls():
    def opacity(name):
        return int(LIGHT_OPACITY[block_id(name)])

    def emission(name):
        return int(LIGHT_EMISSION[block_id(name)])

    assert (emission("torch"), emission("lava"), emission("lava_7"), emission("stone"), emission("water")) == (14, 15, 15, 0, 0)
    assert (opacity("air"), opacity("glass"), opacity("torch"), opacity("leaves"), opacity("cobweb")) == (0, 0, 0, 1, 1)
    assert (opacity("water"), opacity("water_5"), opacity("ice"), opacity("stone"), opacity("lava")) == (3, 3, 3, 15, 15)


# --- exact values -------------------------------------------------------------------------------

def test_open_sky_is_15_all_the_way_down_to_the_ground_and_the_ground_is_dark():
    columns = ground_columns()
    engine = lit_engine(columns)
    assert [light(engine, 3, y, 3) for y in (255, 100, 9, 8)] == [(15, 0)] * 4
    assert light(engine, 3, 7, 3) == (0, 0)
    assert light(engine, 3, 300, 3) == (15, 0) and light(engine, 3, -1, 3) == (0, 0)


def test_a_torch_in_a_dark_box_lights_the_cell_beside_it_to_13():
    columns = ground_columns(ground=40)
    engine = lit_engine(columns)
    for x in range(2, 9):
        put(columns, engine, x, 20, 5, AIR)  # a dark tunnel inside the stone
    put(columns, engine, 2, 20, 5, TORCH)
    assert [light(engine, x, 20, 5) for x in range(2, 9)] == [(0, 14 - d) for d in range(7)]
    assert light(engine, 2, 21, 5) == (0, 0)  # stone beside the torch stays dark


def test_lava_shows_15_in_its_cell_and_14_beside_it_and_opaque_lava_stops_sky_light():
    columns = ground_columns(ground=40)
    engine = lit_engine(columns)
    put(columns, engine, 5, 20, 5, AIR)
    put(columns, engine, 6, 20, 5, AIR)
    put(columns, engine, 5, 20, 5, LAVA)
    assert light(engine, 5, 20, 5) == (0, 15)
    assert light(engine, 6, 20, 5) == (0, 14)
    put(columns, engine, 5, 40, 5, LAVA)  # a lava cell on the ground, open to the sky
    assert light(engine, 5, 40, 5) == (0, 15)  # it sees no sky (opacity 15) but glows 15


def test_a_lake_takes_3_sky_light_per_block_below_its_surface():
    columns = ground_columns(ground=8)
    water = block_id("water")
    engine = lit_engine(columns)
    for x in range(-16, 32):
        for z in range(-16, 32):
            for y in range(8, 14):
                put(columns, engine, x, y, z, water)
    assert [light(engine, 4, y, 4)[0] for y in range(14, 7, -1)] == [15, 12, 9, 6, 3, 0, 0]


def test_under_a_leaf_canopy_sky_light_drops_1_per_block():
    columns = ground_columns(ground=8)
    leaves = block_id("leaves")
    engine = lit_engine(columns)
    for x in range(-16, 32):
        for z in range(-16, 32):
            put(columns, engine, x, 20, z, leaves)
    assert [light(engine, 4, y, 4)[0] for y in range(21, 6, -1)] == [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 0]


def test_sky_light_falls_without_loss_through_a_hole_in_a_roof_and_spreads_under_it():
    columns = ground_columns(ground=8)
    engine = lit_engine(columns)
    for x in range(-16, 32):
        for z in range(-16, 32):
            if (x, z) != (0, 0):
                put(columns, engine, x, 30, z, STONE)
    assert [light(engine, 0, y, 0)[0] for y in (29, 20, 8)] == [15, 15, 15]
    assert [light(engine, d, 12, 0)[0] for d in range(0, 17)] == [max(15 - d, 0) for d in range(17)]
    put(columns, engine, 0, 30, 0, STONE)  # close the roof
    assert light(engine, 0, 12, 0) == (0, 0) and light(engine, 3, 29, 0) == (0, 0)
    put(columns, engine, 0, 30, 0, AIR)  # open it again
    assert light(engine, 0, 12, 0) == (15, 0) and light(engine, 3, 12, 0) == (12, 0)


def test_columns_that_are_not_loaded_are_dark_and_stop_light():
    columns = ground_columns(keys=((0, 0),), ground=40)
    engine = lit_engine(columns)
    for x in range(0, 4):
        put(columns, engine, x, 20, 5, AIR)
    put(columns, engine, 3, 20, 5, TORCH)
    assert light(engine, 0, 20, 5) == (0, 11)
    columns.update(ground_columns(keys=((-1, 0),), ground=40))
    engine.column_added((-1, 0))
    put(columns, engine, -1, 20, 5, AIR)
    assert light(engine, -1, 20, 5) == (0, 10)  # lit across the border once the column is loaded


# --- the oracle on random worlds ------------------------------------------------------------------

edits = st.lists(st.tuples(st.integers(-16, 31), st.integers(0, 23), st.integers(-16, 31), st.sampled_from(PALETTE)),
                 min_size=1, max_size=14)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits, st.sampled_from(("each", "batch", "end")))
def test_light_equals_the_oracle_after_random_edits(changes, resolve_when):
    columns = ground_columns()
    engine = lit_engine(columns)
    batch = []
    for x, y, z, block in changes:
        columns[(x >> 4, z >> 4)].set(x & 15, y, z & 15, block)
        batch.append((x, y, z))
        if resolve_when == "each":
            engine.cells_changed(batch)
            batch = []
            engine.resolve()
        elif resolve_when == "end":
            engine.cells_changed(batch)
            batch = []
    engine.cells_changed(np.array(batch, dtype=np.int64).reshape(-1, 3))
    assert_matches_oracle(engine, columns)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits, st.randoms(use_true_random=False))
def test_light_does_not_depend_on_the_order_columns_are_installed_in(changes, rng):
    columns = ground_columns()
    for x, y, z, block in changes:
        columns[(x >> 4, z >> 4)].set(x & 15, y, z & 15, block)
    engine = LightEngine(columns)
    order = list(columns)
    rng.shuffle(order)
    for key in order:
        engine.column_added(key)
        if rng.random() < 0.5:
            engine.resolve()
    assert_matches_oracle(engine, columns)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits, st.sampled_from(KEYS_3X3))
def test_unloading_a_column_takes_away_the_light_it_gave_its_neighbours(changes, gone):
    columns = ground_columns(ground=12)
    for x in range(-16, 32):  # a roof, so that light under it comes sideways, across column borders
        for z in range(-16, 32):
            if (x * 7 + z * 3) % 11:
                columns[(x >> 4, z >> 4)].set(x & 15, 22, z & 15, STONE)
    for x, y, z, block in changes:
        columns[(x >> 4, z >> 4)].set(x & 15, y, z & 15, block)
    engine = lit_engine(columns)
    engine.column_removed(gone)
    del columns[gone]
    assert_matches_oracle(engine, columns)


def test_a_torch_placed_on_a_column_border_lists_the_sections_on_both_sides_for_remeshing():
    columns = ground_columns(ground=40)
    engine = lit_engine(columns)
    for x in range(-3, 3):
        put(columns, engine, x, 20, 5, AIR)
    engine.resolve()
    put(columns, engine, 0, 20, 5, TORCH)
    assert engine.resolve() == {(-1, 1, 0), (0, 1, 0)}
    assert engine.resolve() == set()


def test_changed_cells_must_be_integer_triples_and_bad_ones_record_nothing():
    engine = lit_engine(ground_columns(keys=((0, 0),)))
    with pytest.raises(ValueError):
        engine.cells_changed([(1, 2)])
    with pytest.raises(TypeError):
        engine.cells_changed([(1.5, 2.0, 3.0)])
    assert not engine.pending
    engine.cells_changed([])
    assert not engine.pending


def test_breaking_a_torch_darkens_the_tunnel_it_lit():
    columns = ground_columns(ground=40)
    engine = lit_engine(columns)
    for x in range(2, 9):
        put(columns, engine, x, 20, 5, AIR)
    put(columns, engine, 2, 20, 5, TORCH)
    assert light(engine, 8, 20, 5) == (0, 8)
    put(columns, engine, 2, 20, 5, AIR)
    assert [light(engine, x, 20, 5) for x in range(2, 9)] == [(0, 0)] * 7


# --- through the World --------------------------------------------------------------------------

def dig_room(world, floor: int) -> None:
    """A dark 9 x 3 x 9 room at x, z 2..10 with its floor at y = `floor`."""
    for x in range(2, 11):
        for z in range(2, 11):
            for y in range(floor, floor + 3):
                world.set_block(x, y, z, "air")


def test_world_light_reads_open_sky_above_the_world_and_darkness_below_it(world):
    assert world.light(0, 256, 0) == (15, 0) and world.light(0, 10_000, 0) == (15, 0)
    assert world.light(0, -1, 0) == (0, 0)
    assert world.light(0, 255, 0) == (15, 0)


def test_world_light_and_padded_light_refuse_bad_arguments(world):
    with pytest.raises(TypeError):
        world.light(0.5, 10, 0)
    with pytest.raises(OutOfWorldError):
        world.light(40_000_000, 10, 0)
    for sy in (-1, 16):
        with pytest.raises(ValueError):
            world.padded_light(0, sy, 0)


@pytest.mark.parametrize("sy", [0, 4, 15])
def test_padded_light_is_laid_out_as_padded_section_and_packs_sky_over_block(world, sy):
    dig_room(world, 30)
    world.set_block(6, 31, 6, "torch")
    padded = world.padded_light(0, sy, 0)
    assert padded.shape == (18, 18, 18) and padded.dtype == np.uint8
    for i, j, k in itertools.product(range(18), repeat=3):
        sky, block = world.light(i - 1, sy * 16 + j - 1, k - 1)
        assert padded[i, j, k] == sky << 4 | block, (i, j, k)


def test_placing_a_torch_in_a_dug_room_lists_exactly_the_sections_whose_meshes_see_a_change(world):
    dig_room(world, 30)
    sections = [(cx, sy, cz) for cx, cz in KEYS_3X3 for sy in range(0, 5)]
    before = {key: (world.padded_light(*key).copy(), world.padded_section(*key).copy()) for key in sections}
    world.take_changed_sections()
    world.set_block(6, 31, 6, "torch")
    changed = world.take_changed_sections()
    differ = {key for key in sections
              if not (np.array_equal(before[key][0], world.padded_light(*key))
                      and np.array_equal(before[key][1], world.padded_section(*key)))}
    assert world.light(6, 31, 6) == (0, 14) and world.light(10, 31, 6) == (0, 10)
    assert differ and changed == differ


def test_world_light_equals_the_oracle_on_generated_terrain_after_digging_and_torches(world):
    for cx, cz in KEYS_3X3:
        world.light(cx * 16, 0, cz * 16)  # load the 3 x 3 columns around the middle one
    dig_room(world, 40)
    top = max(y for y in range(256) if world.get_block(6, y, 6) != "air")
    for y in range(42, top + 1):
        world.set_block(6, y, 6, "air")  # a shaft from the room to the sky
    world.set_block(3, 40, 3, "torch")
    world.set_block(16, 50, 3, "torch")  # in the stone beside, across the border: a lit pocket
    world.set_block(16, 51, 3, "air")
    world.padded_light(0, 2, 0)
    columns = {key: world._columns[key] for key in KEYS_3X3}
    expected_sky, expected_block = solve(columns)[(0, 0)]  # the middle column sees only these 9
    packed = world._light.column_light((0, 0))
    assert np.array_equal(packed >> 4, expected_sky)
    assert np.array_equal(packed & 15, expected_block)


def test_a_world_whose_light_nobody_reads_brings_it_up_to_date_once_enough_changes_pile_up(tmp_path, monkeypatch):
    from game.world import World
    from game.world import world as world_module

    monkeypatch.setattr(world_module, "MAX_UNRESOLVED_LIGHT_CELLS", 10)
    world = World.create(tmp_path / "w.boxel", seed=3, workers=1)
    try:
        for x in range(10):
            world.set_block(x, 200, 0, "stone")
        assert world._light.recorded_cells == 10
        world.set_block(10, 200, 0, "stone")
        assert world._light.recorded_cells == 0
        assert world.light(0, 199, 0) == (14, 0)  # under the new row: sky light from the side
    finally:
        world.close()


# --- light spread over ticks -----------------------------------------
# Light nobody reads was relit in one go: 10,000 torches placed at once cost one 93 ms resolve, and a
# headless flood forced the work through at 100,000 changed cells (~100 ms ticks). Now a tick relights
# at most a budget of changed cells, what is read or meshed is made exact first, and the rest waits,
# exact as the engine sees it (a waiting cell keeps its old block there).

def put_tracked(columns: dict, engine: LightEngine, x: int, y: int, z: int, block: int) -> None:
    """Set a block and tell the engine what it was, as the World does."""
    column = columns[(x >> 4, z >> 4)]
    old = column.get(x & 15, y, z & 15)
    column.set(x & 15, y, z & 15, block)
    engine.cells_changed([(x, y, z)], [old])


def relight_in_steps(engine: LightEngine, budget: int) -> list[int]:
    """`resolve_some(budget)` until no edit waits; the cells each step relit."""
    steps = []
    while engine.recorded_cells:
        engine.resolve_some(budget)
        steps.append(engine.last_resolved_cells)
        assert len(steps) < 100_000, "the steps never finish"
    return steps


def assert_box_matches(engine: LightEngine, expected: dict, x0: int, z0: int, x1: int, z1: int) -> None:
    """Every cell with x in [x0, x1) and z in [z0, z1) equals `expected` (`solve`'s answer)."""
    for x in range(x0, x1):
        for z in range(z0, z1):
            key = (x >> 4, z >> 4)
            if key not in expected:
                continue
            packed = engine.column_light(key)[x & 15, :, z & 15]
            sky, block = expected[key]
            assert np.array_equal(packed >> 4, sky[x & 15, :, z & 15]), (x, z, "sky")
            assert np.array_equal(packed & 15, block[x & 15, :, z & 15]), (x, z, "block")


TORCH_COUNT = 10_000


def test_ten_thousand_torches_placed_at_once_are_relit_a_budget_a_step_and_end_exact():
    columns = ground_columns(ground=8)
    engine = lit_engine(columns)
    cells = [(x, y, z) for y in range(9, 14) for x in range(-16, 32) for z in range(-16, 32)][:TORCH_COUNT]
    for x, y, z in cells:
        columns[(x >> 4, z >> 4)].set(x & 15, y, z & 15, TORCH)
    engine.cells_changed(cells, [AIR] * len(cells))
    budget = LIGHT_CELLS_PER_TICK
    steps = relight_in_steps(engine, budget)
    assert steps == [budget] * (TORCH_COUNT // budget) + [TORCH_COUNT % budget]  # 9 x 1,024 + 784
    assert_matches_oracle(engine, columns)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(edits, min_size=1, max_size=4), st.integers(0, 6))
def test_light_relit_a_few_cells_at_a_time_between_edits_equals_the_oracle(rounds, budget):
    columns = ground_columns()
    engine = lit_engine(columns)
    for changes in rounds:
        for x, y, z, block in changes:
            put_tracked(columns, engine, x, y, z, block)
        engine.resolve_some(budget)
        assert engine.last_resolved_cells <= budget
    relight_in_steps(engine, max(budget, 1))
    assert_matches_oracle(engine, columns)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits, st.integers(-16, 31), st.integers(-16, 31))
def test_the_light_around_a_read_is_exact_while_edits_elsewhere_wait(changes, x, z):
    columns = ground_columns()
    engine = lit_engine(columns)
    for ex, ey, ez, block in changes:
        put_tracked(columns, engine, ex, ey, ez, block)
    engine.resolve_near(x, z, x + 1, z + 1)
    expected = solve(columns)
    assert_box_matches(engine, expected, x, z, x + 1, z + 1)
    relight_in_steps(engine, 1)
    assert_box_matches(engine, expected, -16, -16, 32, 32)


def test_a_resolve_near_leaves_far_edits_waiting_and_relights_them_later():
    columns = ground_columns(keys=tuple((cx, 0) for cx in range(-1, 5)), ground=40)
    engine = lit_engine(columns)
    for x in range(0, 70):
        put_tracked(columns, engine, x, 20, 5, AIR)  # a tunnel through four columns
    put_tracked(columns, engine, 66, 20, 5, TORCH)
    engine.resolve_near(0, 0, 16, 16)
    assert engine.recorded_cells == 70 - (16 + REACH)  # x 0..31 relit, 32..69 wait
    assert engine.column_light((0, 0))[5, 20, 5] == 0  # the torch at x 66 is far
    engine.resolve_some(None)
    assert engine.recorded_cells == 0 and engine.light_at(60, 20, 5) == (0, 8)


def test_cells_recorded_without_their_old_blocks_are_relit_by_the_next_step_whatever_the_budget():
    columns = ground_columns(ground=40)
    engine = lit_engine(columns)
    for x in range(0, 8):
        put(columns, engine, x, 20, 5, AIR)
    put(columns, engine, 0, 20, 5, TORCH)
    engine.resolve_some(0)
    assert engine.last_resolved_cells == 8 and engine.recorded_cells == 0
    assert engine.light_at(7, 20, 5) == (0, 7)


def test_old_blocks_must_be_one_block_id_per_cell_and_bad_ones_record_nothing():
    engine = lit_engine(ground_columns(keys=((0, 0),)))
    with pytest.raises(ValueError):
        engine.cells_changed([(1, 2, 3), (1, 2, 4)], [AIR])
    with pytest.raises(TypeError):
        engine.cells_changed([(1, 2, 3)], [0.5])
    with pytest.raises(ValueError):
        engine.cells_changed([(1, 2, 3)], [-1])
    with pytest.raises(ValueError):
        engine.cell_changed(1, 2, 3, 10 ** 9)
    with pytest.raises(ValueError):
        engine.resolve_some(-1)
    assert not engine.pending and engine.recorded_cells == 0


def test_world_ticks_relight_the_torches_nobody_reads_a_budget_a_tick_and_end_exact(world):
    for cx, cz in KEYS_3X3:
        world.light(cx * 16, 0, cz * 16)  # light the 3 x 3 columns, as a window drawing them would
    top = max(y for y in range(256) if world.get_block(8, y, 8) != "air")
    cells = [(x, y, z) for y in range(top + 30, top + 50) for x in range(16) for z in range(16)]
    for x, y, z in cells:
        world.set_block(x, y, z, "torch")
    assert world._light.recorded_cells == len(cells) > 2 * LIGHT_CELLS_PER_TICK
    relit = []
    ticks = len(cells) // LIGHT_CELLS_PER_TICK + 1
    for _ in range(ticks):
        world.tick()
        relit.append(world._light.last_resolved_cells)
    assert world._light.recorded_cells == 0
    assert relit == [min(LIGHT_CELLS_PER_TICK, len(cells) - tick * LIGHT_CELLS_PER_TICK) for tick in range(ticks)]
    columns = {key: world._columns[key] for key in KEYS_3X3}
    expected_sky, expected_block = solve(columns)[(0, 0)]
    packed = world._light.column_light((0, 0))
    assert np.array_equal(packed >> 4, expected_sky)
    assert np.array_equal(packed & 15, expected_block)


def test_meshing_a_section_makes_its_light_exact_while_far_torches_wait(world):
    for cx in range(-2, 3):
        for cz in range(-2, 3):
            world.light(cx * 16, 0, cz * 16)  # light 5 x 5 columns
    dig_room(world, 30)
    world.take_changed_sections()
    world.set_block(6, 31, 6, "torch")
    for x in range(-32, -18):
        world.set_block(x, 120, -32, "torch")  # more than REACH from section (0, 1, 0)'s padded box: waits
    padded = world.padded_light(0, 1, 0)
    assert padded[1 + 6 - 1, 1 + 31 - 16, 1 + 6] == 13  # beside the torch: 14 - 1
    assert world._light.recorded_cells == 14
    assert world.light(-25, 120, -32) == (15, 14) and world._light.recorded_cells == 0


def test_a_world_nobody_reads_drops_its_light_work_every_tick_and_lights_no_column(world):
    for x in range(0, 64):
        for z in range(0, 64):
            world.set_block(x, 200, z, "glass")
    assert world._light.recorded_cells == 64 * 64
    world.tick()
    assert world._light.recorded_cells == 0
    assert not any(world._light.is_lit(key) for key in world._columns)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits, edits, st.integers(0, 4), st.sampled_from(KEYS_3X3), st.sampled_from(KEYS_3X3))
def test_columns_arriving_and_leaving_while_edits_wait_leave_the_light_exact(before, after, budget, late, gone):
    columns = ground_columns()
    waiting_room = {late: columns.pop(late)}
    engine = lit_engine(columns)
    for x, y, z, block in before:
        if (x >> 4, z >> 4) in columns:
            put_tracked(columns, engine, x, y, z, block)
    engine.resolve_some(budget)
    columns.update(waiting_room)
    engine.column_added(late)
    engine.resolve_some(budget, install=True)
    for x, y, z, block in after:
        put_tracked(columns, engine, x, y, z, block)
    engine.resolve_some(budget)
    if gone != late:
        engine.column_removed(gone)
        del columns[gone]
    relight_in_steps(engine, max(budget, 1))
    assert_matches_oracle(engine, columns)
