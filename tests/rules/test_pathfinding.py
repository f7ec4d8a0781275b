"""Beta 1.7.3's monster pathfinding (`game.rules.pathfinding`): steps, drops, fluids, body sizes, the
closest point, the per-tick budget, and the fast path against its readable twin."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.rules.pathfinding import (BLOCKED, CLEAR, LAVA, MAX_SEARCH_NODES, POSTPONED, SLAB_ALIGN, WATER, Path,
                                    PathBudget, _aligned_bounds, _goal_unreachable, _opens_more_than, _search,
                                    _Slab, _sqrt32, _squared_range, cell_kind, find_path, path_query)
from game.rules.pathfinding_by_cells import find_path_by_cells
from game.world.blocks import NAMES, block_id
from physics import AABB

GROUND = 5
"""Feet rest on y = 5: the stone fills y = 0..4."""
ORIGIN = (-24, 0, -24)
SHAPE = (56, 16, 56)
ZOMBIE = (0.6, 1.8)
SPIDER = (1.4, 0.9)


class BlockBox:
    """A world of registry blocks in one array (air outside): what `find_path` and its twin read."""

    def __init__(self, shape=SHAPE, origin=ORIGIN) -> None:
        self.ids = np.zeros(shape, dtype=np.uint16)
        self.origin = origin
        self.revision = 0
        """Changes with every `put` (a test that writes `ids` directly makes a new world)."""
        self._puts: list[tuple[int, list[tuple[int, int, int]]]] = []

    def put(self, name: str, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int) -> BlockBox:
        """Fill the inclusive cuboid with `name`."""
        ox, oy, oz = self.origin
        self.ids[x0 - ox:x1 - ox + 1, y0 - oy:y1 - oy + 1, z0 - oz:z1 - oz + 1] = block_id(name)
        self.revision += 1
        self._puts.append((self.revision, [(x, y, z) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)
                                           for z in range(z0, z1 + 1)]))
        return self

    def cells_changed_since(self, revision: int) -> list[tuple[int, int, int]]:
        return [cell for done, cells in self._puts if done > revision for cell in cells]

    def get_block(self, x: int, y: int, z: int) -> str:
        ox, oy, oz = self.origin
        i, j, k = x - ox, y - oy, z - oz
        inside = all(0 <= v < n for v, n in zip((i, j, k), self.ids.shape))
        return NAMES[self.ids[i, j, k]] if inside else "air"

    def ids_in_box(self, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int) -> np.ndarray:
        out = np.zeros((x1 - x0, y1 - y0, z1 - z0), dtype=np.uint16)
        lows, highs = (x0, y0, z0), (x1, y1, z1)
        a = [max(lo, o) for lo, o in zip(lows, self.origin)]
        b = [min(hi, o + n) for hi, o, n in zip(highs, self.origin, self.ids.shape)]
        if all(p < q for p, q in zip(a, b)):
            out[a[0] - x0:b[0] - x0, a[1] - y0:b[1] - y0, a[2] - z0:b[2] - z0] = self.ids[
                a[0] - self.origin[0]:b[0] - self.origin[0], a[1] - self.origin[1]:b[1] - self.origin[1],
                a[2] - self.origin[2]:b[2] - self.origin[2]]
        return out


def flat() -> BlockBox:
    ox, oy, oz = ORIGIN
    return BlockBox().put("stone", ox, 0, oz, ox + SHAPE[0] - 1, GROUND - 1, oz + SHAPE[2] - 1)


def across_z(world: BlockBox, name: str, x: int, y0: int, y1: int) -> BlockBox:
    """A slab of `name` at column x spanning the whole world on Z."""
    return world.put(name, x, y0, ORIGIN[2], x, y1, ORIGIN[2] + SHAPE[2] - 1)


def body(x: int, z: int, size=ZOMBIE, y: float = GROUND) -> AABB:
    """The box of a body whose min corner is in cell (x, y, z), as Beta places a creature there."""
    width, height = size
    return AABB(x + 0.0, y, z + 0.0, x + width, y + height, z + width)


def feet(x: int, y: int, z: int, size=ZOMBIE) -> tuple[float, float, float]:
    """A target point whose goal cell is (x, y, z) for a body `size` (Beta aims the body's min corner at
    floor(target - width / 2), so the point lies a quarter block past the half width)."""
    half = size[0] / 2 + 0.25
    return (x + half, float(y), z + half)


def stepwise(path: Path) -> bool:
    """Every point is one horizontal step from the one before."""
    return all(abs(a[0] - b[0]) + abs(a[2] - b[2]) == 1 for a, b in zip(path.points, path.points[1:]))


def test_a_path_across_flat_ground_is_the_straight_line_of_cells():
    path = find_path(flat(), body(0, 0), feet(10, GROUND, 0), 16.0)
    assert path.points == tuple((x, GROUND, 0) for x in range(11))


def test_a_path_goes_around_a_wall():
    world = flat().put("stone", 5, GROUND, -3, 5, GROUND + 1, 3)
    path = find_path(world, body(0, 0), feet(10, GROUND, 0), 16.0)
    assert path.end == (10, GROUND, 0) and stepwise(path)
    assert all(not (p[0] == 5 and -3 <= p[2] <= 3) for p in path.points)
    assert path == find_path_by_cells(world, body(0, 0), feet(10, GROUND, 0), 16.0)


def test_a_path_steps_up_one_block():
    world = flat().put("stone", 5, GROUND, ORIGIN[2], 20, GROUND, ORIGIN[2] + SHAPE[2] - 1)
    path = find_path(world, body(0, 0), feet(10, GROUND + 1, 0), 16.0)
    assert path.points == (*((x, GROUND, 0) for x in range(5)), *((x, GROUND + 1, 0) for x in range(5, 11)))


def test_a_path_does_not_step_up_two_blocks():
    world = flat().put("stone", 5, GROUND, ORIGIN[2], 20, GROUND + 1, ORIGIN[2] + SHAPE[2] - 1)
    path = find_path(world, body(0, 0), feet(10, GROUND + 2, 0), 16.0)
    assert path.end == (4, GROUND, 0)
    assert {p[1] for p in path.points} == {GROUND}


def test_a_path_drops_down_three_blocks():
    world = flat().put("air", 5, GROUND - 3, ORIGIN[2], 20, GROUND - 1, ORIGIN[2] + SHAPE[2] - 1)
    path = find_path(world, body(0, 0), feet(10, GROUND - 3, 0), 16.0)
    assert path.points == (*((x, GROUND, 0) for x in range(5)), *((x, GROUND - 3, 0) for x in range(5, 11)))


def test_a_path_does_not_drop_four_blocks():
    world = flat().put("air", 5, GROUND - 4, ORIGIN[2], 20, GROUND - 1, ORIGIN[2] + SHAPE[2] - 1)
    path = find_path(world, body(0, 0), feet(10, GROUND - 4, 0), 16.0)
    assert path.end == (4, GROUND, 0)
    assert {p[1] for p in path.points} == {GROUND}


def test_a_path_never_crosses_lava_and_takes_the_one_gap_in_it():
    world = across_z(flat(), "lava", 5, GROUND - 1, GROUND - 1).put("stone", 5, GROUND - 1, 3, 5, GROUND - 1, 3)
    path = find_path(world, body(0, 0), feet(10, GROUND, 0), 16.0)
    assert path.end == (10, GROUND, 0) and stepwise(path)
    assert [p for p in path.points if p[0] == 5] == [(5, GROUND, 3)]


def test_a_path_stops_at_lava_it_cannot_cross():
    world = across_z(flat(), "lava", 5, GROUND - 1, GROUND - 1)
    path = find_path(world, body(0, 0), feet(10, GROUND, 0), 16.0)
    assert path.end == (4, GROUND, 0)


def test_a_path_crosses_deep_water_on_its_surface_never_through_it():
    world = across_z(across_z(flat(), "water", 5, GROUND - 2, GROUND), "water", 6, GROUND - 2, GROUND)
    path = find_path(world, body(0, 0), feet(10, GROUND, 0), 16.0)
    assert path.end == (10, GROUND, 0)
    assert [p for p in path.points if p[0] in (5, 6)] == [(5, GROUND + 1, 0), (6, GROUND + 1, 0)]


def test_a_path_walks_over_water_one_block_below_the_feet():
    world = across_z(flat(), "water", 5, GROUND - 1, GROUND - 1)
    path = find_path(world, body(0, 0), feet(10, GROUND, 0), 16.0)
    assert path.points == tuple((x, GROUND, 0) for x in range(11))


def test_a_spider_needs_a_two_wide_gap_that_a_zombie_does_not():
    one_wide = across_z(flat(), "stone", 5, GROUND, GROUND + 1).put("air", 5, GROUND, 0, 5, GROUND + 1, 0)
    zombie = find_path(one_wide, body(0, 0), feet(10, GROUND, 0), 16.0)
    spider = find_path(one_wide, body(0, 0, SPIDER), feet(10, GROUND, 0, SPIDER), 16.0)
    assert zombie.end == (10, GROUND, 0)
    assert spider.end[0] < 5
    two_wide = one_wide.put("air", 5, GROUND, 1, 5, GROUND, 1)
    spider = find_path(two_wide, body(0, 0, SPIDER), feet(10, GROUND, 0, SPIDER), 16.0)
    assert spider.end == (10, GROUND, 0)
    assert [p for p in spider.points if p[0] == 5] == [(5, GROUND, 0)]


def test_a_zombie_walks_a_one_wide_corridor():
    world = flat().put("stone", 1, GROUND, -1, 10, GROUND + 1, -1).put("stone", 1, GROUND, 1, 10, GROUND + 1, 1)
    path = find_path(world, body(0, 0), feet(10, GROUND, 0), 16.0)
    assert path.points == tuple((x, GROUND, 0) for x in range(11))


def test_a_closed_door_blocks_a_path_and_an_open_one_lets_it_through():
    wall = across_z(flat(), "stone", 5, GROUND, GROUND + 1)
    shut = wall.put("door_lower_east_closed", 5, GROUND, 0, 5, GROUND, 0).put(
        "door_upper_east_closed", 5, GROUND + 1, 0, 5, GROUND + 1, 0)
    assert find_path(shut, body(0, 0), feet(10, GROUND, 0), 16.0).end == (4, GROUND, 0)
    shut.put("door_lower_east_open", 5, GROUND, 0, 5, GROUND, 0).put(
        "door_upper_east_open", 5, GROUND + 1, 0, 5, GROUND + 1, 0)
    assert find_path(shut, body(0, 0), feet(10, GROUND, 0), 16.0).end == (10, GROUND, 0)


def test_an_unreachable_target_gives_the_path_to_the_point_closest_to_it():
    world = flat().put("stone", 9, GROUND, -1, 11, GROUND + 1, 1).put("air", 10, GROUND, 0, 10, GROUND + 1, 0)
    world.put("stone", 9, GROUND + 2, -1, 11, GROUND + 2, 1)
    path = find_path(world, body(0, 0), feet(10, GROUND, 0), 16.0)
    assert path.end == (8, GROUND, 0)
    assert path == find_path_by_cells(world, body(0, 0), feet(10, GROUND, 0), 16.0)


def test_a_target_beyond_max_distance_gives_no_path():
    assert find_path(flat(), body(0, 0), feet(20, GROUND, 0), 16.0) is None


def test_a_body_already_at_its_target_gets_a_one_point_path():
    assert find_path(flat(), body(3, 4), feet(3, GROUND, 4), 16.0) == Path(((3, GROUND, 4),))


def test_each_block_counts_for_a_body_as_betas_materials_say():
    assert [cell_kind(n) for n in ("air", "torch", "tall_grass", "ladder_north", "door_lower_east_open")] == [CLEAR] * 5
    assert [cell_kind(n) for n in ("stone", "cobweb", "cactus", "leaves", "door_upper_west_closed")] == [BLOCKED] * 5
    fluids = (cell_kind("water"), cell_kind("water_3"), cell_kind("lava"), cell_kind("lava_9"))
    assert fluids == (WATER, WATER, LAVA, LAVA)


def test_a_path_position_is_betas_get_position_for_the_body_width():
    path = Path(((3, 5, -2), (4, 5, -2)))
    assert path.position(0, 0.6) == (3.5, 5.0, -1.5)
    assert path.position(1, 1.4) == (5.0, 5.0, -1.0)


def test_a_search_over_the_budget_is_postponed_and_runs_next_tick_with_the_same_result():
    world = flat().put("stone", 5, GROUND, -3, 5, GROUND + 1, 3)
    free = find_path(world, body(0, 0), feet(10, GROUND, 0), 16.0)
    budget = PathBudget(nodes_per_tick=40)
    first = find_path(world, body(0, 5), feet(8, GROUND, 5), 16.0, budget)
    assert first.end == (8, GROUND, 5) and 0 < budget.left < 40
    assert find_path(world, body(0, 0), feet(10, GROUND, 0), 16.0, budget) is POSTPONED
    assert budget.left == 0
    assert find_path(world, body(0, 0), feet(10, GROUND, 0), 16.0, budget) is POSTPONED
    budget.new_tick()
    assert find_path(world, body(0, 0), feet(10, GROUND, 0), 16.0, budget) == free


def test_the_first_search_of_a_tick_runs_whole_even_past_the_budget():
    budget = PathBudget(nodes_per_tick=3)
    path = find_path(flat(), body(0, 0), feet(10, GROUND, 0), 16.0, budget)
    assert path.end == (10, GROUND, 0) and budget.left == 0


def test_bad_arguments_are_refused():
    with pytest.raises(TypeError):
        find_path(flat(), (0, 5, 0, 1, 6, 1), (1.0, 5.0, 1.0), 16.0)
    with pytest.raises(TypeError):
        find_path(flat(), body(0, 0), "target", 16.0)
    with pytest.raises(ValueError):
        find_path(flat(), body(0, 0), (1.0, 5.0, math.nan), 16.0)
    with pytest.raises(ValueError):
        find_path(flat(), body(0, 0), (1.0, 5.0, 1.0), -1.0)
    with pytest.raises(TypeError):
        find_path(flat(), body(0, 0), (1.0, 5.0, 1.0), 16.0, budget=5)
    with pytest.raises(ValueError):
        PathBudget(0)
    with pytest.raises(ValueError):
        Path(())


_PALETTE = ("stone", "stone", "water", "water_2", "lava", "lava_5", "ladder_north",
            "torch", "cobweb", "door_lower_east_open", "door_lower_east_closed")
_SIZES = ((0.3, 0.4), (0.6, 1.8), (0.9, 0.9), (0.9, 1.3), (1.4, 0.9))
_SMALL = (12, 10, 12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), density=st.sampled_from((0.0, 0.1, 0.25, 0.5)), floor=st.integers(0, 6),
       size=st.sampled_from(_SIZES),
       start=st.tuples(st.integers(0, 11), st.integers(0, 3), st.integers(0, 11)),
       goal=st.tuples(st.floats(0, 12), st.floats(0, 10), st.floats(0, 12)),
       reach=st.sampled_from((4.0, 6.5, 9.0)))
def test_the_fast_path_equals_its_readable_twin_on_random_worlds(seed, density, floor, size, start, goal, reach):
    world = _random_world(seed, density, floor)
    box = body(start[0], start[2], size, float(floor + start[1]))  # on the floor, or up to 3 above it
    assert find_path(world, box, goal, reach) == find_path_by_cells(world, box, goal, reach)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from(_SIZES),
       starts=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11)), min_size=2, max_size=6),
       goal=st.tuples(st.floats(0, 12), st.floats(0, 12)))
def test_searches_sharing_a_budget_share_its_slabs_and_find_the_same_paths(seed, size, starts, goal):
    world = BlockBox(_SMALL, (0, 0, 0))
    rng = np.random.default_rng(seed)
    world.ids[rng.random(_SMALL) < 0.2] = block_id("stone")
    world.ids[:, :2, :] = block_id("stone")
    budget = PathBudget(10**6)
    for x, z in starts:  # creatures of one size chasing one target: one slab for all, the same paths
        box = body(x, z, size, 2.0)
        assert find_path(world, box, (goal[0], 2.0, goal[1]), 9.0, budget) == find_path(
            world, box, (goal[0], 2.0, goal[1]), 9.0)


def test_a_zombie_in_the_lab_arena_walks_around_the_east_wall():
    from game.world.lab import EAST_WALL_X, build_arena
    arena = build_arena()
    box = AABB(0.2, 0.0, 0.2, 0.8, 1.8, 0.8)
    target = (EAST_WALL_X + 3.5, 0.0, 0.5)
    path = find_path(arena, box, target, 16.0)
    assert path.end == (EAST_WALL_X + 3, 0, 0) and stepwise(path)
    assert (EAST_WALL_X, 0, 0) not in path.points
    assert path == find_path_by_cells(arena, box, target, 16.0)


def _random_world(seed: int, density: float, floor: int) -> BlockBox:
    world = BlockBox(_SMALL, (0, 0, 0))
    palette = np.array([block_id(name) for name in _PALETTE], dtype=np.uint16)
    rng = np.random.default_rng(seed)
    filled = rng.random(_SMALL) < density
    world.ids[filled] = palette[rng.integers(0, len(_PALETTE), _SMALL)][filled]
    world.ids[:, :floor, :] = block_id("stone")
    return world


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), density=st.sampled_from((0.0, 0.1, 0.25)), floor=st.integers(1, 4),
       asks=st.lists(st.tuples(st.sampled_from(_SIZES), st.integers(0, 11), st.integers(0, 11),
                               st.tuples(st.floats(0, 12), st.floats(0, 10), st.floats(0, 12)),
                               st.sampled_from((4.0, 6.5, 9.0))), min_size=2, max_size=8))
def test_searches_over_many_ticks_on_kept_slabs_find_the_paths_of_fresh_searches(seed, density, floor, asks):
    world = _random_world(seed, density, floor)
    budget = PathBudget(10**6)
    for size, x, z, goal, reach in asks:  # each tick one search, on a slab kept from an earlier tick if one holds it
        budget.new_tick()
        box = body(x, z, size, float(floor))
        assert find_path(world, box, goal, reach, budget) == find_path(world, box, goal, reach)


def test_a_large_world_edit_drops_the_kept_slabs_and_the_next_search_sees_it():
    world = flat()
    budget = PathBudget(10**6)
    straight = find_path(world, body(0, 1), feet(10, GROUND, 1), 16.0, budget)
    assert straight.end == (10, GROUND, 1) and (5, GROUND, 1) in straight.points
    across_z(world, "stone", 5, GROUND, GROUND + 1).put("air", 5, GROUND, 4, 5, GROUND + 1, 4)  # a wall, one gap
    budget.new_tick()
    around = find_path(world, body(0, 2), feet(10, GROUND, 2), 16.0, budget)  # another search: no answer kept
    assert around == find_path(world, body(0, 2), feet(10, GROUND, 2), 16.0)
    assert (5, GROUND, 4) in around.points and around.end == (10, GROUND, 2)


def test_a_world_that_counts_no_changes_has_its_slabs_cut_again_each_tick():
    world = flat()
    world.revision = None
    budget = PathBudget(10**6)
    assert (5, GROUND, 1) in find_path(world, body(0, 1), feet(10, GROUND, 1), 16.0, budget).points
    world.revision = 0  # `put` counts
    across_z(world, "stone", 5, GROUND, GROUND + 1).put("air", 5, GROUND, 4, 5, GROUND + 1, 4)
    world.revision = None
    budget.new_tick()
    around = find_path(world, body(0, 2), feet(10, GROUND, 2), 16.0, budget)
    assert (5, GROUND, 4) in around.points and around == find_path(world, body(0, 2), feet(10, GROUND, 2), 16.0)


@given(low=st.tuples(*[st.integers(-70, 70)] * 3), extent=st.tuples(*[st.integers(0, 40)] * 3),
       size=st.sampled_from(((1, 2, 1), (2, 1, 2), (1, 1, 1), (3, 3, 3))))
def test_a_kept_slab_is_cut_on_whole_sections_the_searchs_own_blocks_touch(low, extent, size):
    high = [a + e for a, e in zip(low, extent)]
    cut_low, cut_high = _aligned_bounds(list(low), high, size)
    for a, b, ca, cb, cells in zip(low, high, cut_low, cut_high, size):
        assert ca <= a and cb >= b  # it holds the search's origins
        assert ca % SLAB_ALIGN == 0 and (cb + cells) % SLAB_ALIGN == 0  # its blocks fill whole sections
        assert ca // SLAB_ALIGN == a // SLAB_ALIGN  # and touch no section the search's blocks do not
        assert (cb + cells - 1) // SLAB_ALIGN == (b + cells - 1) // SLAB_ALIGN


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), density=st.sampled_from((0.0, 0.1, 0.25, 0.5)), floor=st.integers(0, 6),
       size=st.sampled_from(_SIZES),
       start=st.tuples(st.integers(0, 11), st.integers(0, 3), st.integers(0, 11)),
       goal=st.tuples(st.floats(0, 12), st.floats(0, 10), st.floats(0, 12)),
       reach=st.sampled_from((4.0, 6.5, 9.0)), limit=st.integers(1, 120))
def test_a_search_for_a_goal_it_cannot_reach_is_counted_past_a_budget_as_it_would_open_nodes(
        seed, density, floor, size, start, goal, reach, limit):
    world = _random_world(seed, density, floor)
    query = path_query(body(start[0], start[2], size, float(floor + start[1])), goal, reach)
    if query.start == query.goal:
        return
    slab = _Slab(world, query)
    if _goal_unreachable(slab, query):
        cells, nodes, _ = _search(slab, query, None)
        assert cells is None or cells[-1] != query.goal  # the whole search never ends on the goal
        assert _opens_more_than(slab, query, nodes - 1) and not _opens_more_than(slab, query, nodes)
        cut_short = not _search(slab, query, limit, MAX_SEARCH_NODES)[2]
        assert _opens_more_than(slab, query, limit) == cut_short


def test_a_search_past_the_budget_for_a_spot_in_the_air_is_postponed_and_spends_what_is_left():
    world = flat()
    budget = PathBudget(nodes_per_tick=40)
    find_path(world, body(0, 5), feet(8, GROUND, 5), 16.0, budget)
    left = budget.left
    assert 0 < left < 40
    assert find_path(world, body(0, 0), feet(6, GROUND + 3, 0), 10.0, budget) is POSTPONED
    assert budget.left == 0
    budget.new_tick()
    assert find_path(world, body(0, 0), feet(6, GROUND + 3, 0), 10.0, budget) == find_path(
        world, body(0, 0), feet(6, GROUND + 3, 0), 10.0)


@given(target=st.tuples(*[st.floats(-40, 40)] * 3), reach=st.sampled_from((16.0, 10.0, 3.3)))
def test_a_path_query_of_other_number_types_equals_the_one_of_float_tuples(target, reach):
    box = body(1, -2)
    query = path_query(box, target, reach)
    assert path_query(box, list(target), reach) == query
    assert path_query(box, tuple(np.float64(v) for v in target), reach) == query
    assert path_query(box, target, np.float64(reach)) == query
    assert path_query(box, (round(target[0]), round(target[1]), round(target[2])), int(reach)) == path_query(
        box, (float(round(target[0])), float(round(target[1])), float(round(target[2]))), float(int(reach)))


@given(distance=st.floats(0.01, 300.0).map(lambda v: float(np.float32(v))), near=st.integers(-3, 3))
def test_a_points_squared_distance_puts_it_in_range_exactly_as_its_float32_distance_does(distance, near):
    squared = max(round(distance * distance) + near, 0)
    assert (squared < _squared_range(distance)) == (_sqrt32(squared) < distance)
    least = _squared_range(distance)
    assert _sqrt32(least) >= distance > _sqrt32(least - 1)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), density=st.sampled_from((0.0, 0.1, 0.25)), floor=st.integers(1, 4),
       size=st.sampled_from(_SIZES), first=st.tuples(st.integers(0, 11), st.integers(0, 11)),
       then=st.tuples(st.integers(0, 11), st.integers(0, 11)),
       goal=st.tuples(st.floats(0, 12), st.floats(0, 10), st.floats(0, 12)),
       edits=st.lists(st.tuples(st.sampled_from(("stone", "air", "lava", "water", "door_lower_east_closed")),
                                st.tuples(*[st.integers(0, 11)] * 3), st.tuples(*[st.integers(0, 2)] * 3)),
                      min_size=1, max_size=4))
def test_a_kept_slab_brought_up_to_date_after_a_few_edits_reads_as_a_new_one(seed, density, floor, size, first,
                                                                             then, goal, edits):
    world = _random_world(seed, density, floor)
    budget = PathBudget(10**6)
    before = budget.slab(world, path_query(body(first[0], first[1], size, float(floor)), goal, 9.0))
    for name, (x, y, z), (ex, ey, ez) in edits:
        world.put(name, x, y, z, x + ex, y + ey, z + ez)
    budget.new_tick()
    box = body(then[0], then[1], size, float(floor))
    query = path_query(box, goal, 9.0)
    slab = budget.slab(world, query)
    if slab is before:  # the kept slab holds this search's cells too: brought up to date
        fresh = _Slab(world, query, (list(before.low), list(before.high)))
        assert (slab.codes, slab.level, slab.revision) == (fresh.codes, fresh.level, world.revision)
    assert find_path(world, box, goal, 9.0, budget) == find_path(world, box, goal, 9.0)
