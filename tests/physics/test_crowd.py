"""Crowds: many bodies stepped in Beta's order, neighbours found by a grid (one by one)
and a strip sweep (vectorised), the vectorised path equal to the one-by-one path to the bit, bad
input refused, and a long run in a pen."""

import dataclasses
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from physics import AABB, CONTACT_TOLERANCE, BlockGrid, Body, Intent, shapes
from physics import CrowdSettings, crowd_vector
from physics import broad_phase
from physics.broad_phase import CellGrid, WorldCache, near_pairs
from physics.crowd import Crowd
from physics.crowd_one_by_one import step_one_by_one
from physics.push import PUSH_REACH, push, push_region
from physics.world import DEFAULT_SLIPPERINESS

from .worlds import floor, standing

EQUIVALENCE_TOLERANCE = 1e-9
"""[blocks, blocks/tick] How far the vectorised path may be from the one-by-one path, at most
(`assert_identical` checks that it is not at all)."""

SHAPES = [shapes.FULL_CUBE, shapes.SLAB, shapes.TOP_SLAB, shapes.FENCE, shapes.CARPET, *shapes.STAIRS.values()]
ICE = 0.98


def brute_force_partners(bodies: list[Body], i: int) -> list[int]:
    region = push_region(bodies[i].box)
    return [j for j in range(len(bodies)) if j != i and region.intersects(bodies[j].box)]


def beta_world_tick(bodies, world, intents) -> list[Body]:
    """The definition of a crowd tick, with Beta's own all-pairs partner scan."""
    bodies = list(bodies)
    for i, intent in enumerate(intents):
        bodies[i] = physics.step(bodies[i], world, intent)
        for j in brute_force_partners(bodies, i):
            bodies[i], bodies[j] = push(bodies[i], bodies[j])
    return bodies


def crowd_of(world, bodies, vectorised=None, tuning=CrowdSettings()) -> Crowd:
    crowd = Crowd(world, vectorised=vectorised, tuning=tuning)
    for body in bodies:
        crowd.add(body)
    return crowd


def assert_same_bodies(got, expected):
    assert len(got) == len(expected)
    for k, (a, b) in enumerate(zip(got, expected)):
        assert a.box == pytest.approx(b.box, abs=EQUIVALENCE_TOLERANCE), k
        assert a.velocity == pytest.approx(b.velocity, abs=EQUIVALENCE_TOLERANCE), k
        assert a.camera_lag == pytest.approx(b.camera_lag, abs=EQUIVALENCE_TOLERANCE), k
        assert (a.on_ground, a.collided_horizontally, a.collided_vertically) == (
            b.on_ground, b.collided_horizontally, b.collided_vertically), k


def bits(body: Body) -> tuple:
    """A body's values, floats as their exact bits (so 0.0 and -0.0 differ)."""
    return (tuple(v.hex() for v in (*body.box, *body.velocity, body.camera_lag, body.fall_distance))
            + (body.on_ground, body.collided_horizontally, body.collided_vertically, body.in_water, body.in_lava,
               body.in_web, body.fall_damage, body.touching))


def assert_identical(got, expected):
    """The vectorised path gives the one-by-one path's bodies to the last bit."""
    assert [bits(b) for b in got] == [bits(b) for b in expected]


def milling_crowd(grid, count, seed, size=6.0):
    """`count` bodies settled on a floor, packed into a size x size square (many overlap)."""
    rng = random.Random(seed)
    return [standing(grid, x=rng.uniform(0.5, size), z=rng.uniform(0.5, size)) for _ in range(count)]


def wandering(rng, count):
    return [Intent(forward=rng.choice([0.0, 1.0, 1.0, -0.5]), strafe=rng.choice([0.0, 0.0, 1.0]),
                   yaw=rng.uniform(0.0, 360.0), jump=rng.random() < 0.1, sprint=rng.random() < 0.2)
            for _ in range(count)]


def assert_crowd_follows(crowd, definition, bodies, world, rng, ticks) -> list[Body]:
    """Step `crowd` and `definition` (a crowd tick as a function of bodies, world and intents)
    through `ticks` ticks of wandering intents, asserting equal bodies after each; the last bodies."""
    for _ in range(ticks):
        intents = wandering(rng, len(bodies))
        bodies = definition(bodies, world, intents)
        crowd.step(intents)
        assert_identical(crowd.bodies, bodies)
    return bodies


# --- the crowd as a container ------------------------------------------------------------------

def test_bodies_keep_the_order_they_were_added_in_and_handles_find_them():
    grid = floor()
    bodies = [standing(grid, x=x + 0.5) for x in range(4)]
    crowd = Crowd(grid)
    handles = [crowd.add(b) for b in bodies]
    assert crowd.bodies == tuple(bodies) and crowd.handles == tuple(handles) and len(crowd) == 4
    assert len(set(handles)) == 4
    crowd.remove(handles[1])
    assert crowd.bodies == (bodies[0], bodies[2], bodies[3])
    assert crowd.body(handles[3]) == bodies[3]
    later = crowd.add(bodies[1])
    assert crowd.bodies[-1] == bodies[1] and later not in handles


@pytest.mark.parametrize("vectorised", [False, True])
def test_removing_a_body_keeps_the_others_stepping_in_order(vectorised):
    grid = floor()
    bodies = milling_crowd(grid, 30, seed=5)
    crowd = crowd_of(grid, bodies, vectorised)
    rng = random.Random(1)
    crowd.step(wandering(rng, 30))
    handle = crowd.handles[7]
    expected = [b for h, b in zip(crowd.handles, crowd.bodies) if h != handle]
    crowd.remove(handle)
    intents = wandering(rng, 29)
    crowd.step(intents)
    assert list(crowd.bodies) == beta_world_tick(expected, grid, intents)


# --- bad input ---------------------------------------------------------------------------------

def test_a_body_added_twice_is_refused_and_the_crowd_is_unchanged():
    grid = floor()
    body = standing(grid)
    crowd = Crowd(grid)
    crowd.add(body)
    with pytest.raises(ValueError, match="already in the crowd"):
        crowd.add(body)
    with pytest.raises(ValueError, match="already in the crowd"):
        crowd.add(standing(grid))  # an equal body: the very same spot and state
    with pytest.raises(TypeError, match="Body"):
        crowd.add(body.box)
    assert crowd.bodies == (body,)


def nan_intent() -> Intent:
    """An Intent holding NaN, as a bug that bypassed Intent's own check would leave it."""
    intent = Intent()
    object.__setattr__(intent, "forward", math.nan)
    return intent


@pytest.mark.parametrize("vectorised", [False, True])
def test_a_nan_intent_a_wrong_count_or_a_non_intent_is_refused_and_nothing_moves(vectorised):
    grid = floor()
    crowd = crowd_of(grid, milling_crowd(grid, 5, seed=2), vectorised)
    crowd.step([Intent(forward=1.0)] * 5)
    before = crowd.bodies
    with pytest.raises(ValueError, match="finite"):
        Intent(forward=math.nan)  # Intent itself refuses NaN; the crowd checks again
    with pytest.raises(ValueError, match="intent 3 has a non-finite"):
        crowd.step([Intent()] * 3 + [nan_intent(), Intent()])
    with pytest.raises(ValueError, match="5 bodies, 4 intents"):
        crowd.step([Intent()] * 4)
    with pytest.raises(TypeError, match="intent 1 is not a physics.Intent"):
        crowd.step([Intent(), (1.0, 0.0, 0.0), Intent(), Intent(), Intent()])
    later_bad = nan_intent()  # made first, so the crowd cannot find the bad ones in creation order
    with pytest.raises(ValueError, match="intent 1 has a non-finite"):
        crowd.step([Intent(), nan_intent(), Intent(), later_bad, Intent()])
    with pytest.raises(TypeError, match="intent 2 is not"):
        crowd.step([Intent(), Intent(), "walk", Intent(), 7])
    assert crowd.bodies == before


def test_flying_bodies_in_a_vectorised_crowd_fly_as_physics_step_flies_them():
    grid = floor()
    bodies = milling_crowd(grid, 30, seed=5)
    crowd = crowd_of(grid, bodies, vectorised=True)
    rng = random.Random(5)
    for _ in range(10):
        intents = [Intent(forward=1.0, yaw=rng.uniform(0, 360), jump=k % 3 == 0 or rng.random() < 0.3,
                          fly=k % 3 == 0) for k in range(len(bodies))]
        bodies = step_one_by_one(bodies, grid, intents)
        crowd.step(intents)
        assert_identical(crowd.bodies, bodies)
    assert all(body.box.min_y > 65.0 for body in bodies[::3])  # the flyers rose a block and more


def test_an_unknown_handle_and_a_non_world_are_refused():
    grid = floor()
    crowd = Crowd(grid)
    handle = crowd.add(standing(grid))
    crowd.remove(handle)
    with pytest.raises(KeyError, match="no body with handle"):
        crowd.remove(handle)
    with pytest.raises(TypeError, match="CollisionWorld"):
        Crowd(object())


# --- broad phase = brute force -----------------------------------------------------------------

def random_boxes(rng, count, spread, origin=0.0):
    boxes = []
    for _ in range(count):
        w = rng.choice([0.3, 0.6, 0.9, 1.4, 3.0])
        x, z = origin + rng.uniform(-spread, spread), origin + rng.uniform(-spread, spread)
        boxes.append(AABB.around_feet(x, rng.choice([0.0, 0.5, 1.0, 3.0]), z, w, rng.choice([0.5, 1.8])))
    return boxes


@pytest.mark.parametrize("origin", [0.0, -1000.5, 3e7])
@pytest.mark.parametrize("seed", range(4))
def test_the_cell_grid_finds_exactly_the_boxes_a_brute_force_scan_finds_while_boxes_move(seed, origin):
    rng = random.Random(seed)
    boxes = random_boxes(rng, 150, 8.0, origin)
    grid = CellGrid()
    for k, box in enumerate(boxes):
        grid.insert(k, box)
    for _ in range(300):
        k = rng.randrange(len(boxes))
        boxes[k] = boxes[k].offset(rng.uniform(-1, 1), 0.0, rng.uniform(-1, 1))
        grid.move(k, boxes[k])
        region = push_region(boxes[rng.randrange(len(boxes))])
        assert grid.query(region) == [j for j, b in enumerate(boxes) if region.intersects(b)]
    grid.remove(0)
    assert 0 not in grid.query(AABB(origin - 100, -10, origin - 100, origin + 100, 10, origin + 100))


def near(a, b, reach):
    """`near_pairs`'s relation for two boxes, written out."""
    return (max(b.min_x - a.max_x, a.min_x - b.max_x) < reach and max(b.min_z - a.max_z, a.min_z - b.max_z) < reach
            and a.max_y > b.min_y and b.max_y > a.min_y)


@pytest.mark.parametrize("origin", [0.0, -1000.5, 3e7])
@pytest.mark.parametrize("count, spread", [(0, 1.0), (1, 1.0), (2, 0.5), (50, 2.0), (400, 10.0), (400, 40.0), (400, 1e5)])
def test_near_pairs_finds_exactly_the_pairs_a_brute_force_scan_finds(count, spread, origin):
    rng = random.Random(count)
    boxes = random_boxes(rng, count, spread, origin)
    i, j = near_pairs(np.array(boxes).reshape(-1, 6), PUSH_REACH)
    expected = [(a, b) for a, box in enumerate(boxes) for b, other in enumerate(boxes)
                if a != b and near(box, other, PUSH_REACH)]
    assert list(zip(i.tolist(), j.tolist())) == expected


def test_near_pairs_takes_boxes_exactly_at_the_reach_as_not_near_and_just_inside_as_near():
    # Lined up along x and z at gaps of exactly the reach, then just under it; on strip and
    # window edges alike (the strips are as deep as the deepest box plus the reach).
    box = AABB(0.0, 0.0, 0.0, 0.5, 1.0, 0.5)
    reach = 0.25  # exact in binary: gaps of exactly 0.25 are computed exactly
    boxes = [box, box.offset(0.75, 0.0, 0.0), box.offset(0.0, 0.0, 0.75), box.offset(0.75, 0.0, 0.75),
             box.offset(1.5 - 1e-9, 0.0, 0.0), box.offset(0.0, 0.0, -0.75 + 1e-9), box.offset(0.0, 1.0, 0.0)]
    i, j = near_pairs(np.array(boxes), reach)
    assert list(zip(i.tolist(), j.tolist())) == [(0, 5), (1, 4), (4, 1), (5, 0)]
@pytest.mark.parametrize("seed", range(3))
def test_near_pairs_finds_pairs_just_inside_the_reach_far_out_in_a_crowd_spread_over_millions_of_blocks(seed):
    # Far from the first box, sort keys are large and round coarsely (~1e-4 blocks): pairs whose
    # gap is within a hair of the reach must still come out exactly as the brute-force test says.
    rng = random.Random(seed)
    boxes = [AABB.around_feet(0.0, 0.0, 0.0, 0.6, 1.8), AABB.around_feet(3e7, 0.0, 0.0, 0.6, 1.8)]
    for _ in range(60):
        a = AABB.around_feet(rng.uniform(0.0, 3e7), 0.0, rng.uniform(1e6, 3e7), 0.6, 1.8)
        hair = rng.uniform(1e-12, 1e-5) * rng.choice([1, -1])
        step = 0.6 + PUSH_REACH - hair  # low corner to low corner: a gap of PUSH_REACH - hair
        boxes += [a, a.offset(step, 0.0, 0.0) if rng.random() < 0.5 else a.offset(0.0, 0.0, step)]
    i, j = near_pairs(np.array(boxes), PUSH_REACH)
    expected = [(a, b) for a, box in enumerate(boxes) for b, other in enumerate(boxes)
                if a != b and near(box, other, PUSH_REACH)]
    assert list(zip(i.tolist(), j.tolist())) == expected
    assert len(expected) > 40  # most hairs fall inside the reach: the case is really tested


def brute_force_near(boxes, reach):
    return [(a, b) for a, box in enumerate(boxes) for b, other in enumerate(boxes)
            if a != b and near(box, other, reach)]


def swept(box: AABB, dx: float, dz: float) -> AABB:
    """`box` stretched by a move (dx, dz): a fast body's reach in a crowd tick."""
    return AABB(box.min_x + min(dx, 0.0), box.min_y, box.min_z + min(dz, 0.0),
                box.max_x + max(dx, 0.0), box.max_y, box.max_z + max(dz, 0.0))


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 120), st.sampled_from([0.0, -1000.5, 3e7]),
       st.lists(st.tuples(st.sampled_from([-1e6, -2000.0, -9.0, 0.0, 8.5, 40.0, 1000.0, 999000.0]),
                          st.sampled_from([-1e6, -2000.0, -9.0, 0.0, 8.5, 40.0, 1000.0, 999000.0])),
                max_size=12))
def test_near_pairs_with_wide_swept_boxes_among_small_ones_finds_exactly_the_brute_force_pairs(seed, count, origin,
                                                                                              moves):
    rng = random.Random(seed)
    boxes = random_boxes(rng, count, 12.0, origin)
    for dx, dz in moves:  # some boxes swept far along x, z or both (one move: 1 to 1e6 blocks)
        k = rng.randrange(len(boxes))
        boxes[k] = swept(boxes[k], dx, dz)
    i, j = near_pairs(np.array(boxes).reshape(-1, 6), PUSH_REACH)
    assert list(zip(i.tolist(), j.tolist())) == brute_force_near(boxes, PUSH_REACH)


def test_near_pairs_tests_a_few_candidates_per_body_when_two_boxes_sweep_far_through_a_crowd(monkeypatch):
    # 2,000 bodies on a 100 x 100 square, one box swept 1,000 blocks along z through it and one
    # 1,000 blocks diagonally. Strips as deep and windows as wide as the wide boxes would hold
    # the whole crowd: 2,003,001 candidates. Taken out of the strips, the small boxes are tested
    # a few against each other, the wide ones against those in their band (the diagonal one's
    # band, its swept square, holds every body).
    rng = random.Random(5)
    boxes = [AABB.around_feet(rng.uniform(0.0, 100.0), 0.0, rng.uniform(0.0, 100.0), 0.6, 1.8)
             for _ in range(2000)]
    boxes.append(swept(AABB.around_feet(50.0, 0.0, 0.0, 0.6, 1.8), 0.0, 1000.0))
    boxes.append(swept(AABB.around_feet(0.0, 0.0, 0.0, 0.6, 1.8), 1000.0, 1000.0))
    tested = []
    real_near = broad_phase._near

    def counting_near(c, i, d, j, reach):
        tested.append(i.size)
        return real_near(c, i, d, j, reach)

    monkeypatch.setattr(broad_phase, "_near", counting_near)
    i, j = near_pairs(np.array(boxes), PUSH_REACH)
    assert list(zip(i.tolist(), j.tolist())) == brute_force_near(boxes, PUSH_REACH)
    assert tested == [770, 1, 2040]  # small among small, wide among wide, wide by band


class UnrevisedGrid(BlockGrid):
    """A BlockGrid that hides its `revision`: a world without that optional attribute."""

    revision = property(lambda self: None)


def random_grid(rng, grid):
    for _ in range(600):
        grid.set(rng.randrange(-12, 12), rng.randrange(-3, 4), rng.randrange(-12, 12), rng.choice(SHAPES))
    return grid


@pytest.mark.parametrize("world", [UnrevisedGrid, BlockGrid])
def test_the_world_cache_holds_every_box_the_world_returns_for_each_region_tick_after_tick(world):
    rng = random.Random(3)
    grid = random_grid(rng, world())
    forgetful = CrowdSettings(cache_cells_per_cell_used=0, cache_cells_always=50)  # forget unused cells often
    cache = WorldCache(grid, forgetful)
    for tick in range(12):
        cache.new_tick()
        if tick % 4 == 3:
            grid.set(rng.randrange(-12, 12), rng.randrange(-3, 4), rng.randrange(-12, 12), rng.choice(SHAPES))
            grid.remove(rng.randrange(-12, 12), rng.randrange(-3, 4), rng.randrange(-12, 12))
            cache.new_tick()  # a world without revision is asked afresh every tick anyway
        regions = [AABB.around_feet(rng.uniform(-12, 12), rng.uniform(-3, 3), rng.uniform(-12, 12),
                                    rng.uniform(0.2, 4.0), rng.uniform(0.2, 4.0)) for _ in range(60)]
        gathered, used = cache.around(np.array(regions))
        for k, region in enumerate(regions):
            slots = {tuple(gathered[:, k, s]) for s in range(int(used[k]))}
            assert set(grid.collision_boxes(region)) <= slots, (tick, k)
            assert np.isnan(gathered[:, k, int(used[k]):]).all()


def test_each_body_gets_every_box_of_its_cells_from_the_gathered_boxes_through_fresh_gathers_and_packing():
    rng = random.Random(5)
    grid = random_grid(rng, BlockGrid())
    cache = WorldCache(grid)
    cache.new_tick()
    count = 30
    gathered = crowd_vector.Gathered(count, cache.generation, CrowdSettings(gathered_spare_runs=1))  # pack often
    regions = [AABB.around_feet(rng.uniform(-10, 10), rng.uniform(-3, 3), rng.uniform(-10, 10), 0.6, 1.8)] * count
    for lookup in range(40):
        rows = range(count) if lookup % 5 == 0 else sorted(rng.sample(range(count), rng.randint(1, count - 1)))
        for row in rows:  # half stay in their cells (boxes reused), half move anywhere (gathered afresh)
            step = rng.uniform(-0.1, 0.1)
            regions[row] = regions[row].offset(step, 0.0, step) if rng.random() < 0.5 else AABB.around_feet(
                rng.uniform(-10, 10), rng.uniform(-3, 3), rng.uniform(-10, 10), 0.6, 1.8)
        rows = np.array(rows)
        lists = gathered.lookup(rows, broad_phase.windows_of(np.array([regions[r] for r in rows])), cache)
        corners = np.stack(lists.boxes, axis=1)
        assert len(corners) == len(lists.body) and (np.diff(lists.body) >= 0).all()
        for k, row in enumerate(rows):
            mine = {tuple(box) for box in corners[lists.body == k]}
            assert set(grid.collision_boxes(regions[row])) <= mine, (lookup, row)


def test_a_world_with_a_revision_is_asked_only_for_cells_it_was_not_asked_for_before():
    grid = floor(BlockGrid())
    asked = []
    ask = grid.collision_boxes
    grid.collision_boxes = lambda region: asked.append(region) or ask(region)
    cache = WorldCache(grid)
    regions = np.array([AABB.around_feet(x + 0.5, 64.0, 0.5, 0.6, 1.8) for x in range(10)])
    cache.new_tick()
    first, _ = cache.around(regions)
    assert asked
    asked.clear()
    cache.new_tick()
    again, _ = cache.around(regions)
    assert not asked and np.array_equal(first, again, equal_nan=True)
    grid.set(3, 64, 0)
    cache.new_tick()
    changed, _ = cache.around(regions)
    assert asked and (changed[4] == 65.0).any()  # the new block's top


def test_the_world_cache_asks_the_slipperiness_of_each_block_once_however_many_bodies_stand_on_it():
    grid = floor(BlockGrid())
    grid.set(2, 63, 0, slipperiness=ICE)
    asked = []
    ask = grid.slipperiness
    grid.slipperiness = lambda x, y, z: asked.append((x, y, z)) or ask(x, y, z)
    cache = WorldCache(grid)
    cells = np.array([(2, 63, 0), (1, 63, 0), (2, 63, 0), (2, 63, 0)])
    assert cache.slipperiness(cells).tolist() == [ICE, DEFAULT_SLIPPERINESS, ICE, ICE]
    assert sorted(asked) == [(1, 63, 0), (2, 63, 0)]
    assert cache.slipperiness(cells[::-1]).tolist() == [ICE, ICE, DEFAULT_SLIPPERINESS, ICE]
    assert len(asked) == 2


def test_keyed_tells_cell_ranges_and_cells_inside_the_keys_from_those_reaching_beyond():
    xz, y = broad_phase.KEYED_XZ, broad_phase.KEYED_Y
    inside = [(-xz, -y, -xz, xz - 1, y - 1, xz - 1), (0, 60, 0, 1, 62, 2)]
    beyond = [(-xz - 1, 0, 0, 0, 0, 0), (0, -y - 1, 0, 0, 0, 0), (0, 0, -xz - 1, 0, 0, 0),
              (0, 0, 0, xz, 0, 0), (0, 0, 0, 0, y, 0), (0, 0, 0, 0, 0, xz)]
    assert broad_phase.keyed(np.array(inside)).tolist() == [True, True]
    assert broad_phase.keyed(np.array(inside + beyond)).tolist() == [True, True] + [False] * 6
    far = [(5000, 0, -5000, 5001, 2, -4999)]  # far sideways, well inside the keys
    assert broad_phase.keyed(np.array(far)).tolist() == [True]
    assert broad_phase.keyed(np.array(far + [(5000, 0, 0, 5001, y, 1)])).tolist() == [True, False]
    cells = np.array([(-xz, -y, -xz), (xz - 1, y - 1, xz - 1), (xz, 0, 0), (0, -y - 1, 0), (0, 0, xz)])
    assert broad_phase.keyed_cells(cells[:2]).tolist() == [True, True]
    assert broad_phase.keyed_cells(cells).tolist() == [True, True, False, False, False]


# --- the one-by-one path is the definition; the vectorised path equals it ------------------------

@pytest.mark.parametrize("vectorised", [False, True])
def test_a_crowd_tick_is_each_body_stepping_then_pushing_its_neighbours_in_order(vectorised):
    grid = floor()
    grid.fill(2, 64, 0, 2, 64, 4, shapes.SLAB)
    bodies = milling_crowd(grid, 40, seed=9)
    crowd = crowd_of(grid, bodies, vectorised)
    bodies = assert_crowd_follows(crowd, beta_world_tick, bodies, grid, random.Random(4), 30)


@st.composite
def terrains(draw):
    """A floor with random blocks of every shape on it, some ice, at a random whole-block offset."""
    ox, oz = draw(st.sampled_from([(0, 0), (-17, 33), (30000, -30000)]))
    grid = BlockGrid()
    grid.fill(ox - 3, 0, oz - 3, ox + 10, 0, oz + 10)
    cells = draw(st.lists(st.tuples(st.integers(0, 7), st.integers(1, 3), st.integers(0, 7),
                                    st.sampled_from(range(len(SHAPES)))), max_size=40))
    for x, y, z, shape in cells:
        grid.set(ox + x, y, oz + z, SHAPES[shape])
    for x, z in draw(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=6)):
        grid.set(ox + x, 0, oz + z, shapes.FULL_CUBE, slipperiness=ICE)
    media = draw(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 3), st.integers(0, 7),
                                    st.sampled_from(range(len(MEDIA)))), max_size=draw(st.sampled_from([0, 12]))))
    for x, y, z, kind in media:
        shape, material, flow = MEDIA[kind]
        grid.set(ox + x, y, oz + z, shape, material=material, flow=flow)
    return grid, ox, oz


Material = physics.Material
MEDIA = [
    (shapes.EMPTY, Material.WATER, (0.0, 0.0, 0.0)),
    (shapes.EMPTY, Material.WATER, (1.0, 0.0, 0.0)),
    (shapes.EMPTY, Material.WATER, (-0.6, -0.8, 0.0)),
    (shapes.EMPTY, Material.LAVA, (0.0, 0.0, 1.0)),
    (shapes.LADDER["north"], Material.LADDER, (0.0, 0.0, 0.0)),
    (shapes.LADDER["east"], Material.LADDER, (0.0, 0.0, 0.0)),
    (shapes.EMPTY, Material.WEB, (0.0, 0.0, 0.0)),
    (shapes.SOUL_SAND, Material.SOUL_SAND, (0.0, 0.0, 0.0)),
    (shapes.CACTUS, Material.CACTUS, (0.0, 0.0, 0.0)),
]
"""Blocks of every medium (shape, material, flow), for terrains."""


class MaterialBlindWorld:
    """The grid's boxes, without saying what any cell is made of (every cell AIR or SOLID by its boxes)."""

    def __init__(self, grid):
        self.grid = grid

    def collision_boxes(self, region):
        return self.grid.collision_boxes(region)

    def slipperiness(self, x, y, z):
        return self.grid.slipperiness(x, y, z)


@st.composite
def crowds_on(draw, ox, oz):
    count = draw(st.integers(1, 40))
    specs = draw(st.lists(st.tuples(st.floats(0.0, 8.0), st.floats(1.0, 4.5), st.floats(0.0, 8.0),
                                    st.sampled_from([0.3, 0.6, 0.6, 0.9, 1.4]), st.sampled_from([0.9, 1.8]),
                                    st.tuples(st.floats(-0.4, 0.4), st.floats(-0.6, 0.4), st.floats(-0.4, 0.4)),
                                    st.booleans(), st.sampled_from([0.0, 0.0, 0.01, 0.3])),
                          min_size=count, max_size=count))
    falls = draw(st.sampled_from([0.0, 0.0, 2.5, 12.0]))
    webbed = draw(st.booleans())
    bodies = [Body(AABB.around_feet(ox + x, y, oz + z, w, h), v, on_ground=g, camera_lag=lag,
                   fall_distance=falls * (k % 3), in_web=webbed and k % 4 == 0)
              for k, (x, y, z, w, h, v, g, lag) in enumerate(specs)]
    return list(dict.fromkeys(bodies))  # equal bodies are refused (added twice)


intents_strategy = st.builds(Intent, forward=st.sampled_from([0.0, 1.0, -1.0, 0.5]),
                             strafe=st.sampled_from([0.0, 1.0, -0.3]), yaw=st.floats(-720.0, 720.0),
                             jump=st.booleans(), sneak=st.sampled_from([False, False, False, True]),
                             sprint=st.booleans(), fly=st.sampled_from([False, False, False, True]))


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_the_vectorised_path_equals_the_one_by_one_path_on_random_crowds_and_terrain_with_every_medium(data):
    grid, ox, oz = data.draw(terrains())
    if data.draw(st.booleans()):
        grid = MaterialBlindWorld(grid)
    bodies = data.draw(crowds_on(ox, oz))
    # Also with every push round on numpy, however few bodies it steps again.
    fewest = data.draw(st.sampled_from([CrowdSettings().min_vector_bodies, 1]))
    vectorised = crowd_of(grid, bodies, True, CrowdSettings(min_vector_bodies=fewest))
    one_by_one = crowd_of(grid, bodies, False)
    for _ in range(data.draw(st.integers(1, 5))):
        intents = data.draw(st.lists(intents_strategy, min_size=len(bodies), max_size=len(bodies)))
        vectorised.step(intents)
        one_by_one.step(intents)
        assert_same_bodies(vectorised.bodies, one_by_one.bodies)  # within EQUIVALENCE_TOLERANCE
        assert_identical(vectorised.bodies, one_by_one.bodies)  # and the same to the bit


FAST_SPEEDS = [30.0, 1000.0, 2000.0, 999000.0]
"""[blocks/tick] Speeds of the fast bodies (all below `tolerances.MAX_DISPLACEMENT`, which `Body`
accepts): each sweeps far more cells than the crowd's vectorised step takes."""


@st.composite
def fast_bodies(draw, ox, oz):
    """One to three bodies moving far in one tick, along x, z or diagonally, up or down."""
    specs = draw(st.lists(st.tuples(st.floats(0.0, 8.0), st.floats(1.0, 6.0), st.floats(0.0, 8.0),
                                    st.sampled_from(FAST_SPEEDS), st.sampled_from([(1, 0), (0, 1), (1, 1)]),
                                    st.sampled_from([1.0, -1.0]), st.sampled_from([1.0, -1.0]),
                                    st.sampled_from([0.0, -0.5, 0.4])),
                          min_size=1, max_size=3))
    return [Body(AABB.around_feet(ox + x, 64.0 + y, oz + z, 0.6, 1.8), (sx * ax * v, vy, sz * az * v))
            for x, y, z, v, (ax, az), sx, sz, vy in specs]


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_the_vectorised_path_equals_the_one_by_one_path_with_fast_bodies_among_random_crowds(data):
    grid, ox, oz = data.draw(terrains())
    bodies = data.draw(crowds_on(ox, oz))
    for body in data.draw(fast_bodies(ox, oz)):
        bodies.insert(data.draw(st.integers(0, len(bodies))), body)
    bodies = list(dict.fromkeys(bodies))
    vectorised = crowd_of(grid, bodies, True, CrowdSettings(min_vector_bodies=1))
    one_by_one = crowd_of(grid, bodies, False)
    for _ in range(data.draw(st.integers(1, 3))):
        intents = data.draw(st.lists(intents_strategy, min_size=len(bodies), max_size=len(bodies)))
        vectorised.step(intents)
        one_by_one.step(intents)
        assert_identical(vectorised.bodies, one_by_one.bodies)


@pytest.mark.parametrize("speed", [1000.0, 2000.0, 999000.0])
def test_a_crowd_with_fast_diagonal_bodies_enumerates_no_more_cells_or_pairs_than_its_small_moves_need(
        monkeypatch, speed):
    # Before: every cell of a fast body's swept box was enumerated (at 1,000 blocks a tick, 2.1 s
    # and 357 MB; at 999,000, MemoryError), and its swept reach put the whole crowd in one strip.
    grid = floor()
    rng = random.Random(12)
    bodies = [Body.at_feet(rng.uniform(-18.0, 18.0), 64.0, rng.uniform(-18.0, 18.0)) for _ in range(300)]
    bodies.insert(100, Body(AABB.around_feet(0.5, 66.0, 0.5, 0.6, 1.8), (speed, 0.0, speed)))
    bodies.append(Body(AABB.around_feet(-3.5, 64.0, 7.5, 0.6, 1.8), (-speed, 0.0, speed)))
    bodies = list(dict.fromkeys(bodies))
    cells, candidates = [], []
    real_points_in, real_near = broad_phase._points_in, broad_phase._near

    def counting_points_in(lo, hi):
        owner, points = real_points_in(lo, hi)
        cells.append(owner.size)
        return owner, points

    def counting_near(c, i, d, j, reach):
        candidates.append(i.size)
        return real_near(c, i, d, j, reach)

    monkeypatch.setattr(broad_phase, "_points_in", counting_points_in)
    monkeypatch.setattr(broad_phase, "_near", counting_near)
    tuning = CrowdSettings()
    vectorised, one_by_one = crowd_of(grid, bodies, True, tuning), crowd_of(grid, bodies, False)
    rng = random.Random(3)
    for _ in range(3):
        intents = wandering(rng, len(bodies))
        vectorised.step(intents)
        one_by_one.step(intents)
        assert_identical(vectorised.bodies, one_by_one.bodies)
    assert max(cells) <= len(bodies) * tuning.max_window_cells  # each body's range is at most that
    assert sum(candidates) <= 3 * 20 * len(bodies)  # a few per body a tick, not n^2 / 2 = 45,000



def media_course() -> BlockGrid:
    """A floor with a pool (a current along x), a lava pit, a ladder wall, webs, a soul sand
    strip, cacti and slabs, all within a 16 x 16 square."""
    grid = floor(x0=-2, x1=18, z0=-2, z1=18)
    grid.fill(2, 63, 2, 6, 63, 6, shapes.EMPTY, material=Material.WATER, flow=(1.0, 0.0, 0.0))
    grid.fill(2, 62, 2, 6, 62, 6, shapes.EMPTY, material=Material.WATER)
    grid.fill(10, 63, 2, 11, 63, 3, shapes.EMPTY, material=Material.LAVA)
    grid.fill(14, 64, 0, 14, 67, 4, shapes.FULL_CUBE)
    grid.fill(13, 64, 0, 13, 67, 4, shapes.LADDER["east"], material=Material.LADDER)
    grid.set(8, 65, 9, shapes.EMPTY, material=Material.WEB)
    grid.set(9, 64, 12, shapes.EMPTY, material=Material.WEB)
    grid.fill(2, 63, 10, 7, 63, 10, shapes.SOUL_SAND, material=Material.SOUL_SAND)
    grid.fill(12, 64, 12, 12, 65, 12, shapes.CACTUS, material=Material.CACTUS)
    grid.fill(3, 64, 14, 6, 64, 14, shapes.SLAB)
    return grid


def test_a_crowd_milling_through_every_medium_moves_the_same_on_both_paths_and_meets_each_medium():
    grid = media_course()
    rng = random.Random(11)
    bodies = [standing(grid, x=rng.uniform(0.0, 16.0), z=rng.uniform(0.0, 16.0)) for _ in range(80)]
    vectorised, one_by_one = crowd_of(grid, bodies, True), crowd_of(grid, bodies, False)
    met = set()
    for _ in range(120):
        intents = [Intent(forward=1.0, yaw=rng.uniform(0.0, 360.0), jump=rng.random() < 0.3) for _ in bodies]
        vectorised.step(intents)
        one_by_one.step(intents)
        assert_identical(vectorised.bodies, one_by_one.bodies)
        for b in one_by_one.bodies:
            met |= b.touching
            met |= {name for name in ("in_water", "in_lava", "in_web") if getattr(b, name)}
            if b.fall_damage:
                met.add("fall_damage")
    assert {"in_water", "in_lava", "in_web", Material.SOUL_SAND, Material.CACTUS, Material.LADDER,
            Material.SOLID} <= met


@pytest.mark.parametrize("world", [UnrevisedGrid, BlockGrid])
def test_the_vectorised_path_sees_blocks_placed_and_removed_between_ticks(world):
    grid = floor(world())
    bodies = milling_crowd(grid, 40, seed=4, size=8.0)
    forgetful = CrowdSettings(cache_cells_per_cell_used=0, cache_cells_always=100)  # forget unused cells often
    vectorised, one_by_one = crowd_of(grid, bodies, True, forgetful), crowd_of(grid, bodies, False)
    rng = random.Random(4)
    for tick in range(60):
        if tick % 3 == 0:
            x, z = rng.randrange(0, 9), rng.randrange(0, 9)
            if grid.has_block(x, 64, z):
                grid.remove(x, 64, z)
            else:
                grid.set(x, 64, z, rng.choice(SHAPES))
        intents = wandering(rng, len(bodies))
        vectorised.step(intents)
        one_by_one.step(intents)
        assert list(vectorised.bodies) == list(one_by_one.bodies), tick


def test_bodies_walking_on_a_block_that_turns_to_ice_slide_on_both_paths():
    grid = floor(BlockGrid(), x0=-4, x1=12, z0=-4, z1=12)
    bodies = [standing(grid, x=0.5 + 1.5 * (k % 6), z=0.5 + 1.5 * (k // 6)) for k in range(24)]
    vectorised, one_by_one = crowd_of(grid, bodies, True), crowd_of(grid, bodies, False)
    walk = [Intent(forward=1.0, yaw=90.0 * (k % 4)) for k in range(len(bodies))]
    for tick in range(12):
        if tick == 5:  # the blocks under every body, each body's own block unchanged meanwhile
            for body in vectorised.bodies:
                grid.set(math.floor((body.box[0] + body.box[3]) / 2), 63, math.floor((body.box[2] + body.box[5]) / 2), slipperiness=ICE)
        vectorised.step(walk)
        one_by_one.step(walk)
        assert_identical(vectorised.bodies, one_by_one.bodies)
    # On ice the fastest body reaches 0.372 blocks a tick; without the ice it reaches 0.315.
    assert max(abs(b.velocity[0]) + abs(b.velocity[2]) for b in vectorised.bodies) > 0.35


@pytest.mark.parametrize("round_cost", [1e9, 30.0, 10.0])
def test_a_crowd_whose_rounds_would_cost_more_than_stepping_one_by_one_finishes_one_by_one_with_the_same_result(
        monkeypatch, round_cost):
    finished = []
    monkeypatch.setattr(crowd_vector.VectorTick, "_finish_one_by_one", record_calls(
        crowd_vector.VectorTick._finish_one_by_one, finished))
    grid = floor()
    bodies = milling_crowd(grid, 60, seed=int(round_cost), size=3.0)
    crowd = crowd_of(grid, bodies, vectorised=True, tuning=CrowdSettings(round_cost_in_steps=round_cost))
    bodies = assert_crowd_follows(crowd, step_one_by_one, bodies, grid, random.Random(int(round_cost)), 5)
    assert finished  # the fallback really ran


def test_a_long_chain_of_pushes_in_a_large_crowd_settles_in_rounds_not_one_by_one(monkeypatch):
    # Forty bodies in a row, each overlapping the next and added after it, walking into each
    # other: a body's push changes once the body before it has been stepped again, so the tick
    # needs many rounds (without the guessed pushes, which would settle most of the chain
    # before the first step). Behind them stand 400 bodies apart from each other, which
    # finishing one by one would have to step too.
    finished, rounds = [], []
    monkeypatch.setattr(crowd_vector.VectorTick, "_finish_one_by_one", record_calls(
        crowd_vector.VectorTick._finish_one_by_one, finished))
    monkeypatch.setattr(crowd_vector.VectorTick, "step_rows", record_calls(crowd_vector.VectorTick.step_rows, rounds))
    grid = floor(x0=-30, x1=30, z0=-30, z1=30)
    chain = [standing(grid, x=-10.0 + 0.45 * k, z=-15.0) for k in range(40)]
    apart = [standing(grid, x=-28.0 + 2.5 * (k % 20), z=-10.0 + 2.0 * (k // 20)) for k in range(400)]
    bodies = chain[::-1] + apart
    crowd = crowd_of(grid, bodies, vectorised=True, tuning=CrowdSettings(max_guess_rounds=0))
    push_right = [Intent(forward=1.0, yaw=270.0)] * len(chain) + [Intent()] * len(apart)
    _, rounds_per_tick = ticks_counting_calls(crowd, bodies, grid, push_right, 3, rounds)
    assert max(rounds_per_tick) > 13  # the rounds are limited by their cost, not to a fixed count
    assert not finished


def ticks_counting_calls(crowd, bodies, world, intents, ticks, calls) -> tuple[list[Body], list[int]]:
    """Step `crowd` and the one-by-one definition `ticks` times with the same intents, asserting
    equal bodies after each: the last bodies, and how many calls `calls` noted each tick."""
    counts = []
    for _ in range(ticks):
        calls.clear()
        bodies = step_one_by_one(bodies, world, intents)
        crowd.step(intents)
        assert_identical(crowd.bodies, bodies)
        counts.append(len(calls))
    return bodies, counts


def test_bodies_walking_freely_into_each_other_are_guessed_so_well_that_one_step_settles_the_tick(monkeypatch):
    # Rows of five overlapping bodies walking the same way on open ground: every push depends
    # on where the body before has stepped to, and the guessed pushes get it right.
    steps = []
    monkeypatch.setattr(crowd_vector.VectorTick, "step_rows", record_calls(crowd_vector.VectorTick.step_rows, steps))
    grid = floor(x0=-20, x1=20, z0=-20, z1=20)
    bodies = [standing(grid, x=-5.0 + 0.5 * k, z=-6.0 + 3.0 * row) for row in range(4) for k in range(5)]
    crowd = crowd_of(grid, bodies, vectorised=True)
    walk = [Intent(forward=1.0, yaw=270.0 + 10.0 * (k % 3)) for k in range(len(bodies))]  # +x, some turning a little
    bodies, steps_per_tick = ticks_counting_calls(crowd, bodies, grid, walk, 5, steps)
    assert steps_per_tick == [1] * 5
    assert bodies[4].feet[0] > -3.0 + 0.5  # the front body walked on
    assert bodies[0].velocity[0] < 0.05 < bodies[4].velocity[0]  # the back one is pushed back


def test_a_body_stopped_by_a_wall_is_guessed_to_stay_stopped_so_the_bodies_it_pushes_are_stepped_once(monkeypatch):
    # Pairs of bodies walking into a wall, the one in front added first: its push on the one
    # behind depends on where it stepped to, which is nowhere once it stands at the wall.
    steps = []
    monkeypatch.setattr(crowd_vector.VectorTick, "step_rows", record_calls(crowd_vector.VectorTick.step_rows, steps))
    grid = floor(x0=-5, x1=10, z0=-5, z1=20)
    grid.fill(3, 64, -5, 3, 65, 20)  # a wall two blocks high at x = 3
    bodies = []
    for row in range(4):
        bodies += [standing(grid, x=2.5, z=4.0 * row), standing(grid, x=2.0, z=4.0 * row + 0.1)]
    crowd = crowd_of(grid, bodies, vectorised=True)
    walk = [Intent(forward=1.0, yaw=270.0)] * len(bodies)  # +x, into the wall
    bodies, steps_per_tick = ticks_counting_calls(crowd, bodies, grid, walk, 8, steps)
    assert bodies[0].feet[0] == pytest.approx(2.7) and bodies[0].collided_horizontally  # at the wall
    assert steps_per_tick.count(1) >= 6  # all but the first tick or two, before the bodies reach the wall


def record_calls(function, calls):
    """`function`, noting each call's arguments in `calls`."""
    def recorded(*args, **kwargs):
        calls.append(args)
        return function(*args, **kwargs)
    return recorded


def test_bodies_beyond_the_keyed_cells_step_one_by_one_among_the_others_with_the_same_result():
    far_x = float(broad_phase.KEYED_XZ) + 100.0
    grid = floor()
    floor(grid, x0=int(far_x) - 5, x1=int(far_x) + 5)
    bodies = milling_crowd(grid, 20, seed=3) + [standing(grid, x=far_x + 0.5), standing(grid, x=far_x + 0.9),
                                                Body.at_feet(0.5, broad_phase.KEYED_Y + 50.0, 0.5)]
    crowd = crowd_of(grid, bodies, vectorised=True)
    bodies = assert_crowd_follows(crowd, step_one_by_one, bodies, grid, random.Random(3), 10)
    assert bodies[-1].velocity[1] < 0.0 and bodies[-2].velocity[0] != 0.0  # the far ones moved and pushed


def test_the_size_threshold_picks_a_path_and_both_give_the_same_bodies():
    grid = floor()
    bodies = milling_crowd(grid, CrowdSettings().vectorised_min_bodies + 5, seed=8)
    rng = random.Random(8)
    intents = wandering(rng, len(bodies))
    automatic = crowd_of(grid, bodies)
    automatic.step(intents)
    assert list(automatic.bodies) == step_one_by_one(bodies, grid, intents)


@pytest.mark.parametrize("vectorised", [False, True])
def test_a_heap_of_resting_bodies_spreads_out_until_none_overlaps(vectorised):
    grid = floor()
    rng = random.Random(12)
    heap = [standing(grid, x=rng.uniform(-0.5, 0.5), z=rng.uniform(-0.5, 0.5)) for _ in range(20)]
    crowd = crowd_of(grid, heap, vectorised)
    for _ in range(400):
        crowd.step([Intent()] * len(heap))
    boxes = crowd.bodies
    assert not any(a.box.overlap_depth(b.box) > CONTACT_TOLERANCE for k, a in enumerate(boxes) for b in boxes[k + 1:])


# --- a long run: 200 bodies milling in a fenced pen -----------------------------------------------

PEN_SIZE = 24
"""[blocks] The pen's inside spans cells 0..23 on x and z; fences (two high) stand around it."""
PEN_TICKS = 6000
REST_TOGGLE = 0.003
"""[1/tick] Chance per tick that a body starts or stops walking: bodies rest ~17 s at a time, so
two resting bodies that overlap stay overlapped for long unless the push separates them."""
STUCK_TICKS = 1200
"""[ticks] Longest two bodies may keep overlapping (one minute). With the push, overlapping
bodies come apart in a second or two, unless both were squeezed into the very same spot (a fence
corner): closer than 0.01 Beta does not push, and they part when one walks off. The longest
overlaps seen with seeds 1, 2 and 6 were 442, 614 and 235 ticks; without the push, 1607."""


def pen() -> tuple[BlockGrid, list[AABB]]:
    """The pen world and the boxes of the obstacles inside it (slabs, stairs, a block, a carpet).
    It counts its changes, so the crowd keeps the block boxes it gathered from tick to tick."""
    grid = floor(BlockGrid(), x0=-1, x1=PEN_SIZE, z0=-1, z1=PEN_SIZE)
    for i in range(-1, PEN_SIZE + 1):
        for x, z in [(i, -1), (i, PEN_SIZE), (-1, i), (PEN_SIZE, i)]:
            grid.fill(x, 64, z, x, 65, z, shapes.FENCE)
    grid.fill(5, 64, 5, 9, 64, 6, shapes.SLAB)
    grid.set(12, 64, 12, shapes.STAIRS_EAST)
    grid.set(13, 64, 12)
    grid.set(18, 64, 4, shapes.CARPET)
    grid.fill(16, 64, 17, 17, 64, 17, shapes.TOP_SLAB)
    obstacles = [b for cell in grid.cells() if cell[1] == 64 and 0 <= cell[0] < PEN_SIZE and 0 <= cell[2] < PEN_SIZE
                 for b in grid.boxes_at(*cell)]
    return grid, obstacles


@pytest.mark.slow
def test_two_hundred_wandering_bodies_stay_in_their_pen_out_of_blocks_and_never_stay_stuck_together():
    grid, obstacles = pen()
    rng = np.random.default_rng(6)
    crowd = Crowd(grid)
    while len(crowd) < 200:
        x, z = rng.uniform(0.3, PEN_SIZE - 0.3, 2)
        body = Body.at_feet(float(x), 64.0, float(z))
        if not any(body.box.intersects(o) for o in obstacles):
            crowd.add(body)
    yaws = np.arange(0.0, 360.0, 15.0)
    walking = [Intent(forward=1.0, yaw=float(y)) for y in yaws]
    jumping = [Intent(forward=1.0, yaw=float(y), jump=True) for y in yaws]
    idle = Intent()
    heading = rng.integers(0, len(yaws), 200)
    moving = rng.random(200) < 0.7
    obstacle_boxes = np.array(obstacles)
    together = np.zeros((200, 200), dtype=np.int64)
    longest_together = 0
    for tick in range(PEN_TICKS):
        bodies = crowd.bodies
        boxes = np.array([b.box for b in bodies])
        assert boxes[:, 1].min() >= 64.0 - CONTACT_TOLERANCE, tick  # never sinks into the floor
        assert boxes[:, (0, 2)].min() >= -CONTACT_TOLERANCE, tick  # never leaves the pen
        assert boxes[:, (3, 5)].max() <= PEN_SIZE + CONTACT_TOLERANCE, tick
        depth = np.min([np.minimum(boxes[:, None, a + 3], obstacle_boxes[None, :, a + 3])
                        - np.maximum(boxes[:, None, a], obstacle_boxes[None, :, a]) for a in range(3)], axis=0)
        assert depth.max() <= CONTACT_TOLERANCE, tick  # never inside an obstacle
        overlap = np.min([np.minimum(boxes[:, None, a + 3], boxes[None, :, a + 3])
                          - np.maximum(boxes[:, None, a], boxes[None, :, a]) for a in (0, 2)], axis=0)
        together = np.where(overlap > CONTACT_TOLERANCE, together + 1, 0)
        np.fill_diagonal(together, 0)
        longest_together = max(longest_together, int(together.max()))
        assert longest_together <= STUCK_TICKS, tick
        turn = rng.random(200) < 0.02
        heading[turn] = rng.integers(0, len(yaws), int(turn.sum()))
        moving ^= rng.random(200) < REST_TOGGLE
        crowd.step([idle if not go else (jumping if b.collided_horizontally else walking)[h]
                    for b, go, h in zip(bodies, moving.tolist(), heading.tolist())])
    assert longest_together > 0  # the crowd really was crowded


@pytest.mark.parametrize("vectorised", [False, True])
def test_replacing_a_body_keeps_its_place_and_the_next_step_uses_the_new_one(vectorised):
    grid = floor(BlockGrid())
    crowd = Crowd(grid, vectorised=vectorised)
    handles = [crowd.add(Body.at_feet(x + 0.5, 64.0, 0.5)) for x in range(3)]
    crowd.step([Intent()] * 3)
    pushed = Body(crowd.body(handles[1]).box, (0.3, 0.0, 0.0))
    crowd.replace(handles[1], pushed)
    assert crowd.bodies[1] == pushed and crowd.handles == tuple(handles)
    crowd.step([Intent()] * 3)
    assert crowd.bodies[1].feet[0] > 1.5 + 0.25
    with pytest.raises(KeyError):
        crowd.replace(99, pushed)
    with pytest.raises(TypeError):
        crowd.replace(handles[0], "a body")


def test_a_body_resting_on_an_integer_height_with_a_vanishing_fall_speed_lands_on_both_paths():
    # 1.0 + dy rounds to 1.0 here, so a gather that only took cells overlapping the region missed
    # the floor below and the vectorised path said "not on the ground" (found by hypothesis).
    grid = BlockGrid()
    grid.set(0, 0, 0)
    grid.set(-1, 0, -1)
    grid.set(-1, 0, 0)
    grid.set(0, 0, -1)
    body = Body(AABB(-0.15, 1.0, -0.15, 0.15, 1.9, 0.15), (0.0, -1.8365252589918558e-273, 0.0), camera_lag=0.3)
    expected = physics.step(body, grid, Intent())
    crowd = Crowd(grid, vectorised=True)
    crowd.add(body)
    crowd.step([Intent()])
    assert crowd.bodies[0] == expected
    assert expected.on_ground and expected.collided_vertically


def test_push_partners_kept_from_earlier_ticks_are_found_afresh_when_a_body_is_put_next_to_another():
    grid = floor(BlockGrid())
    bodies = [Body.at_feet(x * 3.0 + 0.5, 64.0, 0.5) for x in range(8)]  # 3 blocks apart: nobody pushes
    vectorised, one_by_one = crowd_of(grid, bodies, True), crowd_of(grid, bodies, False)
    for _ in range(3):  # long enough for the vectorised crowd to keep its partners from tick to tick
        for crowd in (vectorised, one_by_one):
            crowd.step([Intent()] * len(bodies))
    assert all(b.velocity[0] == 0.0 for b in vectorised.bodies)
    beside_the_first = Body.at_feet(0.8, 64.0, 0.5)
    for crowd in (vectorised, one_by_one):
        crowd.replace(crowd.handles[-1], beside_the_first)
    for _ in range(3):
        for crowd in (vectorised, one_by_one):
            crowd.step([Intent()] * len(bodies))
        assert_same_bodies(vectorised.bodies, one_by_one.bodies)
    assert vectorised.bodies[0].feet[0] < 0.5 and vectorised.bodies[-1].feet[0] > 0.8  # pushed apart


def walled_pit(size: int) -> BlockGrid:
    """A floor with a 3-high wall around the size x size square x, z in [0, size)."""
    grid = floor(x0=-2, x1=size + 1, z0=-2, z1=size + 1)
    grid.fill(-1, 64, -1, size, 66, -1)
    grid.fill(-1, 64, size, size, 66, size)
    grid.fill(-1, 64, -1, -1, 66, size)
    grid.fill(size, 64, -1, size, 66, size)
    return grid


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_the_vectorised_path_equals_the_one_by_one_path_in_crammed_pits_with_mixed_sizes_and_bodies_coming_and_going(data):
    size = data.draw(st.sampled_from([3, 4, 6]))
    grid = walled_pit(size)
    rng = random.Random(data.draw(st.integers(0, 10 ** 6)))

    def newcomer():
        w = rng.choice([0.3, 0.6, 0.6, 0.9, 1.4])
        return Body(AABB.around_feet(rng.uniform(w / 2, size - w / 2), 64.0, rng.uniform(w / 2, size - w / 2), w,
                                     rng.choice([0.9, 1.8])))

    bodies = list(dict.fromkeys(newcomer() for _ in range(data.draw(st.integers(5, 60)))))
    vectorised, one_by_one = crowd_of(grid, bodies, True, CrowdSettings(min_vector_bodies=1)), crowd_of(grid, bodies, False)
    for _ in range(data.draw(st.integers(5, 30))):
        if rng.random() < 0.2 and len(vectorised) > 2:
            handle = rng.choice(vectorised.handles)
            vectorised.remove(handle)
            one_by_one.remove(handle)
        if rng.random() < 0.2:
            body = newcomer()
            if body not in one_by_one.bodies:
                vectorised.add(body)
                one_by_one.add(body)
        intents = [Intent(forward=rng.choice([0.0, 1.0]), yaw=rng.uniform(0.0, 360.0), jump=rng.random() < 0.1)
                   for _ in range(len(vectorised))]
        vectorised.step(intents)
        one_by_one.step(intents)
        assert_identical(vectorised.bodies, one_by_one.bodies)


def test_seventeen_bodies_crammed_in_a_three_by_three_pit_move_the_same_on_both_paths():
    """The adversarial report's case: a body pressed into the wall asks for a move of ~5e-17, too
    short to change its face in floats; the wall touching that face stops it on both paths."""
    grid = walled_pit(3)
    rng = random.Random(11)
    bodies = [Body(AABB.around_feet(rng.uniform(0.3, 2.7), 64.0, rng.uniform(0.3, 2.7), 0.6, 1.8)) for _ in range(17)]
    vectorised, one_by_one = crowd_of(grid, bodies, True), crowd_of(grid, bodies, False)
    for _ in range(40):
        intents = [Intent(forward=rng.choice([0.0, 1.0]), yaw=rng.uniform(0, 360)) for _ in bodies]
        vectorised.step(intents)
        one_by_one.step(intents)
        assert_identical(vectorised.bodies, one_by_one.bodies)


def crammed_pit_crowd(count: int, size: int, seed: int, **options) -> Crowd:
    grid = walled_pit(size)
    rng = random.Random(seed)
    crowd = Crowd(grid, **options)
    for _ in range(count):
        body = Body(AABB.around_feet(rng.uniform(0.3, size - 0.3), 64.0, rng.uniform(0.3, size - 0.3), 0.6, 1.8))
        if body not in crowd.bodies:
            crowd.add(body)
    return crowd


def fastest_in(crowd: Crowd, ticks: int, seed: int) -> float:
    rng = random.Random(seed)
    fastest = 0.0
    for _ in range(ticks):
        crowd.step([Intent(forward=1.0, yaw=rng.uniform(0.0, 360.0)) for _ in range(len(crowd))])
        fastest = max(fastest, max(max(abs(b.velocity[0]), abs(b.velocity[2])) for b in crowd.bodies))
    return fastest


SETTLED_SPEED_BOUND = 1.0
"""[blocks/tick] What bounded pushes allow at most on the ground: a tick adds at most
MAX_PUSH_SPEED (0.25) from pushes and ~0.1 from walking to a velocity that keeps 0.546 of itself,
so it settles below (0.25 + 0.1) / (1 - 0.546) = 0.77."""


def test_bodies_crammed_into_a_pit_are_not_flung_however_many_there_are():
    from physics.push import MAX_PUSH_SPEED

    assert MAX_PUSH_SPEED == 0.25
    for count in (50, 300):
        assert fastest_in(crammed_pit_crowd(count, 3, seed=count), 40, seed=1) < SETTLED_SPEED_BOUND
    # Beta's unbounded pushes fling them (the reason for the bound).
    assert fastest_in(crammed_pit_crowd(300, 3, seed=300, max_push_speed=None), 40, seed=1) > 2.0


def test_an_ordinary_crowd_moves_exactly_as_with_betas_unbounded_pushes():
    grid = floor()
    bodies = milling_crowd(grid, 60, seed=5, size=12.0)
    bounded, beta = crowd_of(grid, bodies), Crowd(grid, max_push_speed=None)
    for body in bodies:
        beta.add(body)
    rng = random.Random(5)
    for _ in range(60):
        intents = wandering(rng, len(bodies))
        bounded.step(intents)
        beta.step(intents)
        assert_identical(bounded.bodies, beta.bodies)


def test_a_crowd_whose_ticks_finish_one_by_one_pauses_the_vectorised_path_for_doubling_spells(monkeypatch):
    runs = []
    monkeypatch.setattr(crowd_vector.VectorTick, "run", record_calls(crowd_vector.VectorTick.run, runs))
    crowd = crammed_pit_crowd(120, 3, seed=3, tuning=CrowdSettings(vectorised_min_bodies=1, max_fallback_pause_ticks=4,
                                                                         finishes_before_pause=0))
    reference = crammed_pit_crowd(120, 3, seed=3, vectorised=False)
    rng = random.Random(3)
    ticks_vectorised = []
    for tick in range(16):
        intents = [Intent(forward=1.0, yaw=rng.uniform(0.0, 360.0)) for _ in range(len(crowd))]
        before = len(runs)
        crowd.step(intents)
        reference.step(intents)
        assert_identical(crowd.bodies, reference.bodies)
        if len(runs) > before:
            ticks_vectorised.append(tick)
    # Every vectorised tick of this pile finishes one by one: pauses of 1, 2, 4, 4, ... ticks follow.
    assert ticks_vectorised == [0, 2, 5, 10, 15]


def test_a_crowd_pauses_the_vectorised_path_only_once_more_ticks_in_a_row_finish_one_by_one_than_it_allows(monkeypatch):
    runs = []
    monkeypatch.setattr(crowd_vector.VectorTick, "run", record_calls(crowd_vector.VectorTick.run, runs))
    # Rounds priced so that any tick needing one finishes one by one (the pile's pushes reach the
    # bound too, but the vectorised path applies it itself).
    crowd = crammed_pit_crowd(120, 3, seed=3, tuning=CrowdSettings(vectorised_min_bodies=1, max_fallback_pause_ticks=4,
                                                                         finishes_before_pause=2,
                                                                         round_cost_in_steps=1000.0))
    reference = crammed_pit_crowd(120, 3, seed=3, vectorised=False)
    rng = random.Random(3)
    ticks_vectorised = []
    for tick in range(16):
        intents = [Intent(forward=1.0, yaw=rng.uniform(0.0, 360.0)) for _ in range(len(crowd))]
        before = len(runs)
        crowd.step(intents)
        reference.step(intents)
        assert_identical(crowd.bodies, reference.bodies)
        if len(runs) > before:
            ticks_vectorised.append(tick)
    # Every vectorised tick of this pile finishes one by one: two in a row pass, then pauses of 1, 2, 4, 4.
    assert ticks_vectorised == [0, 1, 2, 4, 7, 12]


def test_a_push_bound_that_is_not_a_speed_is_refused():
    for bad in (-0.1, math.nan, math.inf, "0.25", True):
        with pytest.raises(ValueError):
            Crowd(floor(), max_push_speed=bad)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3),
                          st.sampled_from([0.0, 0.25, 0.5, 1.0]), st.sampled_from([0.0, 0.5, 1.0, 1.5])),
                max_size=12))
def test_a_world_without_materials_reads_solid_cells_the_same_for_a_body_and_for_the_crowds_cache(boxes):
    """Flat boxes and boxes reaching into the cell above included: `materials.solid_cells` (what
    `physics.step` reads) and `WorldCache` (what the vectorised crowd reads) agree cell by cell."""
    from physics.materials import solid_cells

    world = MaterialBlindWorld(BlockGrid())
    world.collision_boxes = lambda region, found=[AABB(x + lo, y + lo, z, x + lo + size, y + lo + size, z + 1)
                                                   for x, y, z, lo, size in boxes]: [
        b for b in found if b[3] >= region[0] and b[0] <= region[3] and b[4] >= region[1] and b[1] <= region[4]
        and b[5] >= region[2] and b[2] <= region[5]]
    cache = WorldCache(world)
    cache.new_tick()
    cells = [(x, y, z) for x in range(-3, 5) for y in range(-3, 5) for z in range(-3, 5)]
    windows = np.array([[x, y, z, x, y, z] for x, y, z in cells], dtype=np.int64)
    assert cache.solid_in(windows).tolist() == [c in solid_cells(world, *c, *c) for c in cells]


def test_a_crowd_moves_the_same_whether_its_bodies_share_intent_objects_or_each_has_its_own():
    # Shared objects are grouped (`crowd._distinct`); a crowd where every body has its own
    # object skips the grouping (creatures, players). Both must give the one-by-one bodies,
    # also in the ticks where a crowd changes from one to the other.
    grid = floor()
    bodies = milling_crowd(grid, 60, seed=8)
    shared, own = crowd_of(grid, bodies, vectorised=True), crowd_of(grid, bodies, vectorised=True)
    rng = random.Random(8)
    for tick in range(8):
        headings = [Intent(forward=1.0, yaw=rng.uniform(0, 360), jump=rng.random() < 0.3,
                           sprint=rng.random() < 0.5, climbs_walls=k == 1) for k in range(4)]
        intents = [headings[k % 4] for k in range(len(bodies))]
        bodies = step_one_by_one(bodies, grid, intents)
        shared.step(intents)
        own.step(intents if tick in (3, 6) else [dataclasses.replace(intent) for intent in intents])
        assert list(shared.bodies) == bodies
        assert list(own.bodies) == bodies


def test_a_crowd_whose_bodies_each_had_their_own_intent_still_names_the_first_bad_intent():
    grid = floor()
    crowd = crowd_of(grid, milling_crowd(grid, 5, seed=2), vectorised=True)
    crowd.step([Intent(forward=1.0) for _ in range(5)])  # each its own object: the next tick checks for that first
    before = crowd.bodies
    later_bad = nan_intent()
    with pytest.raises(ValueError, match="intent 1 has a non-finite"):
        crowd.step([Intent(), nan_intent(), Intent(), later_bad, Intent()])
    with pytest.raises(TypeError, match="intent 2 is not"):
        crowd.step([Intent(), Intent(), "walk", Intent(), 7])
    assert crowd.bodies == before


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(0, 24))
def test_intent_columns_read_only_the_new_objects_and_equal_the_columns_read_afresh(seed, count):
    # `_intent_columns_since` keeps the values of the rows whose object is the last tick's: each
    # tick a random share of rows gets a new object (sometimes an equal one, sometimes one shared
    # by two rows, or the object of another row), and the columns must be those read afresh.
    from physics.crowd import _intent_columns, _intent_columns_since

    rng = random.Random(seed)

    def fresh():
        return Intent(forward=rng.choice([0.0, 1.0, -1.0]), strafe=rng.choice([0.0, 1.0]), yaw=rng.uniform(0, 360),
                      jump=rng.random() < 0.3, sneak=rng.random() < 0.2, sprint=rng.random() < 0.3,
                      fly=rng.random() < 0.1, climbs_walls=rng.random() < 0.1, slow_fall=rng.random() < 0.1)

    intents = [fresh() for _ in range(count)]
    columns, values = _intent_columns(intents, count)
    for _ in range(6):
        share = rng.choice([0.0, 0.1, 0.4, 0.6, 1.0])
        now = list(intents)
        for k in range(count):
            if rng.random() < share:
                now[k] = rng.choice([fresh, lambda: dataclasses.replace(now[k]), lambda: now[rng.randrange(count)]])()
        expected, _ = _intent_columns(now, count)
        kept = _intent_columns_since(now, intents, values)
        if kept is None:  # more than half new: the caller reads them all
            assert 2 * sum(a is not b for a, b in zip(now, intents)) > count
            continue
        columns, values = kept
        assert columns.which is None
        rows = expected.which if expected.which is not None else np.arange(count)
        for name, column in expected.columns.items():
            assert column.take(rows).tolist() == columns.columns[name].tolist(), name
        intents = now


def test_a_crowd_keeping_most_intent_objects_names_the_first_bad_new_one_and_moves_nothing():
    grid = floor()
    crowd = crowd_of(grid, milling_crowd(grid, 6, seed=3), vectorised=True)
    intents = [Intent(forward=1.0, yaw=30.0 * k) for k in range(6)]
    crowd.step(intents)
    before = crowd.bodies
    with pytest.raises(ValueError, match="intent 4 has a non-finite"):
        crowd.step(intents[:4] + [nan_intent()] + intents[5:])
    with pytest.raises(TypeError, match="intent 2 is not"):
        crowd.step(intents[:2] + ["walk"] + intents[3:5] + [7])
    assert crowd.bodies == before
    crowd.step(intents[:5] + [Intent(forward=1.0, yaw=90.0, jump=True)])  # one new object: read alone
    alone = step_one_by_one(list(before), grid, intents[:5] + [Intent(forward=1.0, yaw=90.0, jump=True)])
    assert list(crowd.bodies) == alone


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.tuples(*[st.integers(-2**40, 2**40)] * 3), st.tuples(*[st.integers(0, 4)] * 3)),
                max_size=12))
def test_the_points_of_cell_ranges_split_by_divmod_are_those_built_axis_by_axis(boxes):
    # An extent of 0 is an empty range (hi = lo - 1).
    lo = tuple(np.array([b[0][axis] for b in boxes], dtype=np.int64) for axis in range(3))
    hi = tuple(np.array([b[0][axis] + b[1][axis] - 1 for b in boxes], dtype=np.int64) for axis in range(3))
    owner, points = broad_phase._points_in(lo, hi)
    readable_owner, readable_points = broad_phase._points_in_by_axis(lo, hi)
    assert owner.tolist() == readable_owner.tolist()
    assert [p.tolist() for p in points] == [p.tolist() for p in readable_points]
