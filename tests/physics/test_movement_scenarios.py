"""Scenarios a player meets: landing, walls, corners, ceilings, steps, stairs, fences, edges, ice."""

import pytest

import physics
from physics import AABB, BlockGrid, Body, Intent, shapes
from physics.floats import f32

from .worlds import EAST_YAW, FLOOR_TOP, SOUTH_EAST_YAW, floor, run, standing

EYE_HEIGHT_PRECISION = 1e-8
"""[blocks] The notes quote the sneaking eye as 1.5399999991 (Beta's eye offset is 1.62F, ours a double)."""

FALL_AFTER_CLIP = (0.0 - 0.08) * f32(0.98)
"""Vertical velocity of a grounded body after a tick: clipped to 0, then gravity and drag."""


def test_landing_sets_on_ground_and_zeroes_vertical_velocity():
    grid = floor()
    body = Body.at_feet(0.5, 70.0, 0.5)
    for _ in range(100):
        body = physics.step(body, grid, Intent())
        if body.on_ground:
            break
    assert body.box.min_y == FLOOR_TOP
    assert body.on_ground and body.collided_vertically
    assert body.velocity == (0.0, FALL_AFTER_CLIP, 0.0)


def test_walking_into_a_wall_stops_at_its_face():
    grid = floor()
    grid.fill(3, 64, -5, 3, 65, 5)
    body = run(standing(grid), grid, Intent(forward=1.0, yaw=EAST_YAW), 40)
    assert body.box.max_x == 3.0
    assert body.collided_horizontally
    assert body.velocity[0] == 0.0
    assert body.feet[2] == 0.5


def test_walking_into_a_wall_at_an_angle_clips_only_that_axis():
    grid = floor()
    grid.fill(3, 64, -20, 3, 65, 20)
    start = standing(grid)
    body = run(start, grid, Intent(forward=1.0, yaw=SOUTH_EAST_YAW), 40)
    assert body.box.max_x == 3.0
    assert body.feet[2] > start.feet[2] + 3.0  # still sliding along the wall


def test_walking_into_a_corner_stops_on_both_axes():
    grid = floor()
    grid.fill(3, 64, -5, 3, 65, 3)
    grid.fill(-5, 64, 3, 3, 65, 3)
    body = run(standing(grid), grid, Intent(forward=1.0, yaw=SOUTH_EAST_YAW), 60)
    assert (body.box.max_x, body.box.max_z) == (3.0, 3.0)


def test_a_jump_under_a_low_ceiling_stops_at_the_ceiling_and_falls_back():
    grid = floor()
    grid.fill(-2, 66, -2, 2, 66, 2)  # 2 blocks of headroom for a 1.8-tall body
    body = physics.step(standing(grid), grid, Intent(jump=True))
    assert body.box.max_y == 66.0
    assert body.collided_vertically and not body.on_ground
    assert body.velocity[1] == FALL_AFTER_CLIP
    body = run(body, grid, Intent(), 20)
    assert body.box.min_y == FLOOR_TOP and body.on_ground


def test_step_up_climbs_a_slab_but_not_a_full_block():
    slab_world = floor()
    slab_world.fill(3, 64, -5, 12, 64, 5, shapes.SLAB)
    block_world = floor()
    block_world.fill(3, 64, -5, 3, 64, 5)
    on_slab = run(standing(slab_world), slab_world, Intent(forward=1.0, yaw=EAST_YAW), 40)
    at_block = run(standing(block_world), block_world, Intent(forward=1.0, yaw=EAST_YAW), 40)
    assert on_slab.box.min_y == FLOOR_TOP + 0.5
    assert on_slab.feet[0] > 3.5
    assert at_block.box.min_y == FLOOR_TOP
    assert at_block.box.max_x == 3.0


def test_a_step_lowers_the_camera_by_the_floor_fraction_and_it_decays():
    grid = floor()
    grid.fill(3, 64, -5, 3, 64, 5, shapes.SLAB)
    body = standing(grid)
    for _ in range(40):
        before = body
        body = physics.step(body, grid, Intent(forward=1.0, yaw=EAST_YAW))
        if body.box.min_y > before.box.min_y:
            break
    decayed = f32(before.camera_lag * f32(0.4))
    assert body.camera_lag == f32(decayed + 0.5 + 0.01)
    after = physics.step(body, grid, Intent())
    assert after.camera_lag == f32(body.camera_lag * f32(0.4))


def test_step_up_is_refused_when_the_head_would_hit_a_ceiling():
    grid = floor()
    grid.fill(3, 64, -5, 6, 64, 5, shapes.SLAB)
    grid.fill(2, 66, -5, 6, 66, 5)  # 2 blocks over the floor, 1.5 over the slab: a 1.8 body cannot fit
    body = run(standing(grid), grid, Intent(forward=1.0, yaw=EAST_YAW), 40)
    assert body.box.min_y == FLOOR_TOP
    assert body.box.max_x == 3.0


def test_stairs_are_climbed_one_half_step_at_a_time():
    grid = floor()
    grid.fill(3, 64, -5, 3, 64, 5, shapes.STAIRS_EAST)
    grid.fill(4, 64, -5, 12, 64, 5)  # a landing at the top of the stairs
    body = run(standing(grid), grid, Intent(forward=1.0, yaw=EAST_YAW), 40)
    assert body.box.min_y == FLOOR_TOP + 1.0
    assert body.feet[0] > 5.0


def test_stairs_cannot_be_walked_up_from_the_high_side():
    grid = floor()
    grid.fill(3, 64, -5, 3, 64, 5, shapes.STAIRS_WEST)  # rises toward -X: its full-height half faces us
    body = run(standing(grid), grid, Intent(forward=1.0, yaw=EAST_YAW), 40)
    assert body.box.max_x == 3.0 and body.box.min_y == FLOOR_TOP


def test_a_fence_cannot_be_jumped_but_a_one_block_wall_can():
    fence_world = floor()
    fence_world.fill(3, 64, -5, 3, 64, 5, shapes.FENCE)
    wall_world = floor()
    wall_world.fill(3, 64, -5, 12, 64, 5)  # a one-block-high platform
    jump_east = Intent(forward=1.0, yaw=EAST_YAW, jump=True)
    body = standing(fence_world)
    highest = body.box.min_y
    for _ in range(200):
        body = physics.step(body, fence_world, jump_east)
        highest = max(highest, body.box.min_y)
        assert body.box.max_x <= 3.0
    assert FLOOR_TOP + 1.0 < highest < FLOOR_TOP + 1.5  # a jump rises ~1.25 blocks: over a block, not a fence
    over = run(run(standing(wall_world), wall_world, jump_east, 30), wall_world, Intent(), 30)
    assert over.feet[0] > 4.0 and over.box.min_y == FLOOR_TOP + 1.0


def test_a_fence_is_found_from_the_layer_below_when_standing_on_it():
    grid = BlockGrid()
    grid.set(0, 64, 0, shapes.FENCE)
    body = run(Body.at_feet(0.5, 67.0, 0.5), grid, Intent(), 40)
    assert body.box.min_y == 65.5 and body.on_ground


def test_sneaking_stops_at_an_edge_and_walking_falls_off():
    grid = floor(x0=-10, x1=2)  # the floor ends at x = 3
    sneaking = standing(grid)
    for _ in range(200):
        sneaking = physics.step(sneaking, grid, Intent(forward=1.0, yaw=EAST_YAW, sneak=True))
        assert sneaking.box.min_y == FLOOR_TOP and sneaking.on_ground
    assert 3.0 - 0.3 < sneaking.feet[0] < 3.0 + 0.3  # hangs over the edge, but the box still touches support
    assert not sneaking.collided_horizontally  # the guard is not reported as a collision
    walking = run(standing(grid), grid, Intent(forward=1.0, yaw=EAST_YAW), 40)
    assert walking.box.min_y < FLOOR_TOP


def test_sneaking_lowers_the_eye_to_1_54():
    grid = floor()
    body = run(standing(grid), grid, Intent(sneak=True), 5)
    assert body.camera_lag == f32(f32(0.2) * f32(0.4))
    assert 1.62 - body.camera_lag == pytest.approx(1.54, abs=EYE_HEIGHT_PRECISION)


def test_ice_glides_with_friction_0_98_times_0_91_per_tick():
    ice = floor(slipperiness=0.98)
    body = run(standing(ice), ice, Intent(forward=1.0, yaw=EAST_YAW), 30)
    coasting = physics.step(body, ice, Intent())
    next_tick = physics.step(coasting, ice, Intent())
    assert next_tick.velocity[0] == coasting.velocity[0] * f32(f32(0.98) * f32(0.91))


def test_a_body_coasts_much_further_on_ice_than_on_stone():
    def coast_distance(world):
        body = run(standing(world), world, Intent(forward=1.0, yaw=EAST_YAW), 30)
        start = body.feet[0]
        return run(body, world, Intent(), 100).feet[0] - start

    stone, ice = coast_distance(floor(x1=200)), coast_distance(floor(x1=200, slipperiness=0.98))
    assert ice > 5 * stone


def test_a_body_larger_than_a_block_passes_a_corridor_exactly_its_width():
    grid = floor(x1=40)
    grid.fill(-20, 64, -2, 40, 66, -2)  # walls at z = -2 and z = 2: the corridor is z in [-1, 2)
    grid.fill(-20, 64, 2, 40, 66, 2)
    grid.fill(-20, 67, -1, 40, 67, 1)  # a ceiling 3 blocks up
    open_ground = floor(x1=40)
    big = Body.at_feet(0.5, FLOOR_TOP, 0.5, width=3.0, height=3.0)
    assert big.box == AABB(-1.0, 64.0, -1.0, 2.0, 67.0, 2.0)
    walk = Intent(forward=1.0, yaw=EAST_YAW)
    in_corridor = run(big, grid, walk, 100)
    in_open = run(big, open_ground, walk, 100)
    assert in_corridor.box == in_open.box
    assert not in_corridor.collided_horizontally


def test_a_wall_of_many_blocks_slides_exactly_like_one_long_box():
    blocks = floor(x1=80)
    blocks.fill(-20, 64, 3, 80, 65, 3)
    one_box = floor(x1=80)

    class FloorAndLongWall:
        def collision_boxes(self, region):
            wall = AABB(-20, 64, 3, 81, 66, 4)
            return list(one_box.collision_boxes(region)) + ([wall] if wall.intersects(region) else [])

    diagonal = Intent(forward=1.0, yaw=SOUTH_EAST_YAW)
    a = b = standing(blocks)
    for _ in range(200):
        a = physics.step(a, blocks, diagonal)
        b = physics.step(b, FloorAndLongWall(), diagonal)
        assert a == b
    assert a.box.max_z == 3.0 and a.feet[0] > 30.0
