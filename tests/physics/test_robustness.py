"""No jitter, no tunnelling, the same behaviour everywhere in the world, and bad input refused."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from physics import AABB, BlockGrid, Body, Intent, shapes

from .worlds import EAST_YAW, FLOOR_TOP, SOUTH_EAST_YAW, floor, run, standing

TRANSLATION_TOLERANCE = 1e-9
"""[blocks] How far two runs of one scenario, shifted by whole blocks, may differ. Positions far
from the origin carry fewer fractional bits (an ulp at 30,000 is ~4e-12), so bit-equality
across offsets is not expected; 1e-9 is a thousand times that, and far below anything visible."""

OFFSETS = [(0, 0), (-1, -1), (-16, -16), (15, 15), (-17, 33), (1024, -4096), (-30000, 29999)]
"""Whole-block shifts: the origin, negative coordinates, chunk borders (multiples of 16) and far away."""


@pytest.mark.slow
@pytest.mark.parametrize("offset", OFFSETS)
def test_a_resting_body_does_not_move_for_ten_thousand_ticks(offset):
    ox, oz = offset
    grid = floor(x0=ox - 3, x1=ox + 3, z0=oz - 3, z1=oz + 3)
    grid.set(ox + 1, 64, oz, shapes.SLAB)
    body = standing(grid, x=ox + 0.5, z=oz + 0.5)
    on_slab = Body.at_feet(ox + 1.5, FLOOR_TOP + 0.5, oz + 0.5)
    on_slab = run(on_slab, grid, Intent(), 2)
    for _ in range(10_000):
        body = physics.step(body, grid, Intent())
        on_slab = physics.step(on_slab, grid, Intent())
    assert body.box == AABB.around_feet(ox + 0.5, FLOOR_TOP, oz + 0.5, 0.6, 1.8)
    assert on_slab.box.min_y == FLOOR_TOP + 0.5
    assert body.on_ground and on_slab.on_ground


@pytest.mark.parametrize("offset", OFFSETS)
def test_walls_slabs_and_stairs_behave_the_same_at_any_whole_block_offset(offset):
    ox, oz = offset

    def scenario(ox, oz):
        grid = floor(x0=ox - 5, x1=ox + 20, z0=oz - 20, z1=oz + 20)
        grid.fill(ox + 3, 64, oz - 20, ox + 5, 64, oz + 20, shapes.SLAB)
        grid.fill(ox + 6, 64, oz - 20, ox + 6, 64, oz + 20, shapes.STAIRS_EAST)
        grid.fill(ox + 7, 64, oz - 20, ox + 9, 64, oz + 20)
        grid.fill(ox + 10, 64, oz - 20, ox + 10, 66, oz + 20)
        body = standing(grid, x=ox + 0.5, z=oz + 0.5)
        intents = [Intent(forward=1.0, yaw=SOUTH_EAST_YAW)] * 10 + [Intent(forward=1.0, yaw=EAST_YAW)] * 50
        states = []
        for intent in intents:
            body = physics.step(body, grid, intent)
            states.append(body)
        return states

    base = scenario(0, 0)
    shifted = scenario(ox, oz)
    for a, b in zip(base, shifted):
        assert b.box.offset(-ox, 0, -oz) == pytest.approx(a.box, abs=TRANSLATION_TOLERANCE)
        assert (a.on_ground, a.collided_horizontally) == (b.on_ground, b.collided_horizontally)
    assert base[-1].box.max_x == 10.0  # it climbed slab, stairs and platform up to the wall


@pytest.mark.parametrize("height", [100, 300, 1000])
def test_a_long_fall_lands_exactly_on_a_one_block_floor(height):
    grid = BlockGrid()
    grid.fill(-1, 0, -1, 1, 0, 1)  # one layer, one block thick
    body = Body.at_feet(0.5, 1.0 + height, 0.5)
    for _ in range(2000):
        body = physics.step(body, grid, Intent())
        assert body.box.min_y >= 1.0
        if body.on_ground:
            break
    assert body.box.min_y == 1.0 and body.on_ground


DIRECTIONS = [(100, 0, 0), (-100, 0, 0), (0, 0, 100), (0, -100, 0), (0, 100, 0), (70, -70, 30), (-60, 0, -80),
              (100, 100, 100), (-100, -100, -100)]


@pytest.mark.parametrize("delta", DIRECTIONS)
def test_a_move_of_a_hundred_blocks_in_one_tick_stops_at_a_one_block_thick_wall(delta):
    dx, dy, dz = delta
    grid = BlockGrid()
    # A closed hollow cube of one-block-thick walls 20 blocks from the body in every direction.
    for a in range(-21, 22):
        for b in range(-21, 22):
            for wall in (-21, 21):
                grid.set(wall, a, b)
                grid.set(a, wall, b)
                grid.set(a, b, wall)
    body = Body.at_feet(0.5, 0.0, 0.5)
    moved = physics.move(body, dx, dy, dz, grid)
    inside = AABB(-20, -20, -20, 21, 21, 21)
    x0, y0, z0, x1, y1, z1 = moved.box
    assert inside[0] <= x0 and x1 <= inside[3] and inside[1] <= y0 and y1 <= inside[4]
    assert inside[2] <= z0 and z1 <= inside[5]
    for axis, d in enumerate(delta):
        if d > 0:
            assert moved.box[axis + 3] == inside[axis + 3]
        elif d < 0:
            assert moved.box[axis] == inside[axis]


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_a_non_finite_move_is_refused_and_changes_nothing(bad):
    grid = floor()
    body = standing(grid)
    copy = Body(body.box, body.velocity, body.on_ground, body.collided_horizontally, body.collided_vertically,
                body.camera_lag)
    with pytest.raises(ValueError, match="finite"):
        physics.move(body, bad, 0.0, 0.0, grid)
    assert body == copy


@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_non_finite_velocities_and_intents_are_refused(bad):
    box = AABB.around_feet(0.5, 64, 0.5, 0.6, 1.8)
    with pytest.raises(ValueError, match="velocity"):
        Body(box, (0.0, bad, 0.0))
    with pytest.raises(ValueError, match="intent"):
        Intent(forward=bad)
    with pytest.raises(ValueError, match="intent"):
        Intent(yaw=bad)


@pytest.mark.parametrize("width,height", [(0.0, 1.8), (-0.6, 1.8), (0.6, 0.0), (64.5, 1.0), (0.6, 1e9),
                                          (math.nan, 1.8), (0.6, math.inf)])
def test_absurd_body_sizes_are_refused(width, height):
    with pytest.raises(ValueError, match="width|height"):
        Body.at_feet(0.0, 0.0, 0.0, width, height)


def test_a_body_of_the_largest_allowed_size_is_accepted():
    body = Body.at_feet(0.0, 0.0, 0.0, 64.0, 64.0)
    assert body.width == 64.0 and body.height == 64.0


def test_step_refuses_something_that_is_not_an_intent():
    grid = floor()
    with pytest.raises(TypeError, match="Intent"):
        physics.step(standing(grid), grid, {"forward": 1.0})


def test_an_absurd_displacement_is_refused():
    with pytest.raises(ValueError, match="finite and at most"):
        physics.move(Body.at_feet(0, 0, 0), 1e12, 0.0, 0.0, BlockGrid())


def test_settings_with_a_non_finite_value_are_refused():
    from dataclasses import replace
    with pytest.raises(ValueError, match="gravity"):
        replace(physics.BETA, gravity=math.nan)
    with pytest.raises(ValueError, match="step_height"):
        replace(physics.BETA, step_height=-1.0)


def test_a_body_stuck_inside_a_block_can_walk_out():
    grid = floor()
    grid.set(0, 64, 0)
    stuck = Body.at_feet(0.5, FLOOR_TOP, 0.5)
    body = run(run(stuck, grid, Intent(), 2), grid, Intent(forward=1.0, yaw=EAST_YAW), 20)
    assert body.box.min_x > 1.0


def test_a_body_thinner_than_the_minimum_box_size_is_refused():
    from physics.tolerances import MIN_BOX_SIZE
    with pytest.raises(ValueError, match="width"):
        Body.at_feet(1.0, 0.0, 1.0, width=MIN_BOX_SIZE / 2)


def test_a_very_thin_body_standing_on_a_block_seam_does_not_fall_between_the_blocks():
    grid = BlockGrid()
    grid.fill(0, -1, 0, 1, -1, 1)  # four blocks whose seams cross at x = 1, z = 1
    body = Body.at_feet(1.0, 0.0, 1.0, width=1e-6, height=1.0)
    assert physics.move(body, 0.0, -5.0, 0.0, grid).box.min_y == 0.0


def test_a_point_cannot_be_swept_or_cast_because_it_could_never_hit():
    point = AABB(0.5, 0.5, 0.5, 0.5, 0.5, 0.5)
    with pytest.raises(ValueError, match="at least"):
        physics.sweep(point, 1.0, 0.0, 0.0, AABB(1, 0, 0, 2, 1, 1))
    with pytest.raises(ValueError, match="at least"):
        physics.cast(point, 1.0, 0.0, 0.0, BlockGrid())


def test_a_sneaking_move_of_fifty_blocks_stops_at_the_edge_of_its_support():
    grid = floor(x0=-10, x1=2)
    body = standing(grid)
    moved = physics.move(body, 50.0, -0.0784, 0.0, grid, sneak=True)
    assert moved.box.min_y == FLOOR_TOP
    assert 2.5 < moved.feet[0] < 3.3


# --- sizes at the documented limits, whatever the rounding of the box's corners ------------------

def test_a_body_of_the_documented_largest_height_is_made_though_its_box_rounds_a_hair_taller():
    from physics.tolerances import MAX_BODY_SIZE
    body = Body.at_feet(0.5, 100.3, 0.5, 0.6, MAX_BODY_SIZE)
    assert body.height == 64.00000000000001  # the box's extent, rounded past the limit
    assert body.box == AABB.around_feet(0.5, 100.3, 0.5, 0.6, MAX_BODY_SIZE)


def test_a_box_taller_than_the_largest_height_by_more_than_its_rounding_is_refused():
    from physics.tolerances import MAX_BODY_SIZE
    with pytest.raises(ValueError, match="height"):
        Body(AABB(0.0, 100.0, 0.0, 0.6, 100.0 + MAX_BODY_SIZE + 1e-9, 0.6))
    with pytest.raises(ValueError, match="height"):
        Body.at_feet(0.5, 100.3, 0.5, 0.6, math.nextafter(MAX_BODY_SIZE, math.inf))


_LIMIT_POSITIONS = st.floats(-3e7, 3e7, allow_nan=False)
"""[blocks] Feet positions anywhere in a world (Boxel's ends at 30,000,000)."""


@given(_LIMIT_POSITIONS, _LIMIT_POSITIONS, _LIMIT_POSITIONS,
       st.sampled_from(["smallest", "largest"]), st.sampled_from(["smallest", "largest"]))
@settings(max_examples=400, deadline=None)
def test_bodies_of_the_smallest_and_largest_sizes_are_made_and_moved_anywhere_in_the_world(x, y, z, width, height):
    from physics.tolerances import MAX_BODY_SIZE, MIN_BOX_SIZE
    size = {"smallest": MIN_BOX_SIZE, "largest": MAX_BODY_SIZE}
    body = Body.at_feet(x, y, z, size[width], size[height])
    assert body.box == AABB.around_feet(x, y, z, size[width], size[height])
    # Its box is a moving box too: sweeps and casts take it.
    assert physics.first_hit(body.box, 1.0, -1.0, 1.0, []) is None
    stepped = physics.step(body, BlockGrid(), Intent(forward=1.0))
    assert stepped.velocity[1] < 0.0 and not stepped.on_ground
