"""Beta 1.7.3's numbers, derived here from its formulas and float literals, not read back from the code."""

import numpy as np
import pytest

import physics
from physics import BETA, Intent

from .worlds import CONVERGED, EAST_YAW, FEET_ROUNDING, FLOAT32_RELATIVE, FLOOR_TOP, floor, run, standing

NOTES_PRECISION = 1e-11
"""[blocks/tick] The notes quote Beta's measured figures to 11 decimal places."""
JUMP_APEX_PRECISION = 1e-4
"""[blocks] The commonly quoted jump apex, 1.2522, has four decimals."""

F = np.float32


def test_beta_settings_hold_the_java_float_literals():
    assert BETA.jump_velocity == 0.41999998688697815
    assert BETA.vertical_drag == 0.9800000190734863
    assert BETA.friction_factor == 0.9100000262260437
    assert BETA.step_height == 0.5
    assert BETA.gravity == 0.08


def test_a_fresh_body_at_rest_becomes_grounded_on_its_second_tick():
    grid = floor()
    body = physics.Body.at_feet(0.5, FLOOR_TOP, 0.5)
    first = physics.step(body, grid, Intent())
    second = physics.step(first, grid, Intent())
    assert not first.on_ground  # asked to move 0 down: nothing was clipped
    assert second.on_ground


def test_the_first_walking_tick_moves_by_the_ground_acceleration_times_the_input_decay():
    grid = floor()
    body = standing(grid)
    friction = float(F(F(0.6) * F(0.91)))
    acceleration = float(F(F(0.1) * F(F(0.16277136) / F(F(friction * friction) * friction))))
    displacement = float(F(F(0.98) * F(acceleration)))
    after = physics.step(body, grid, Intent(forward=1.0, yaw=EAST_YAW))
    assert displacement == 0.09799998998641968  # the value the notes quote for Beta
    assert after.feet[0] - body.feet[0] == pytest.approx(displacement, abs=FEET_ROUNDING)
    assert after.velocity[0] == displacement * friction


def test_walking_reaches_beta_terminal_speed_of_4_317_blocks_per_second():
    grid = floor(x1=60)
    body = run(standing(grid), grid, Intent(forward=1.0, yaw=EAST_YAW), 80)
    before = body.feet[0]
    body = physics.step(body, grid, Intent(forward=1.0, yaw=EAST_YAW))
    assert body.feet[0] - before == pytest.approx(0.21585903893, abs=NOTES_PRECISION)


def test_a_jump_follows_the_beta_trajectory_tick_by_tick():
    grid = floor()
    body = physics.step(standing(grid), grid, Intent(jump=True))
    expected_y, velocity = FLOOR_TOP, 0.41999998688697815
    heights = []
    while True:
        expected_y += velocity
        if expected_y <= FLOOR_TOP:
            break
        heights.append(expected_y)
        velocity = (velocity - 0.08) * 0.9800000190734863
    actual = [body.box.min_y]
    for _ in range(len(heights) - 1):
        body = physics.step(body, grid, Intent())
        actual.append(body.box.min_y)
    assert actual == pytest.approx(heights, abs=FEET_ROUNDING)
    assert max(heights) - FLOOR_TOP == pytest.approx(1.2522, abs=JUMP_APEX_PRECISION)
    body = physics.step(body, grid, Intent())
    assert body.box.min_y == FLOOR_TOP and body.on_ground


def test_holding_jump_on_flat_ground_jumps_every_twelve_ticks():
    grid = floor()
    body = standing(grid)
    jump_ticks = []
    for tick in range(1, 50):
        grounded = body.on_ground
        body = physics.step(body, grid, Intent(jump=True))
        if grounded and body.velocity[1] > 0:
            jump_ticks.append(tick)
    assert jump_ticks == [1, 13, 25, 37, 49]


def test_jumping_is_accepted_one_tick_after_walking_off_an_edge():
    grid = floor(x0=-10, x1=2)
    body = standing(grid, x=2.5)
    walk = Intent(forward=1.0, yaw=EAST_YAW)
    while body.box.min_x < 3.0:  # still over the floor at the start of this tick
        body = physics.step(body, grid, walk)
    assert body.on_ground  # Y was clipped while the box still overlapped the last block
    jumped = physics.step(body, grid, Intent(forward=1.0, yaw=EAST_YAW, jump=True))
    assert jumped.box.min_y > FLOOR_TOP


def test_falling_approaches_beta_terminal_speed_of_3_92_blocks_per_tick():
    body = run(physics.Body.at_feet(0.5, 10000.0, 0.5), physics.BlockGrid(), Intent(), 1500)
    assert body.velocity[1] == pytest.approx(-0.08 * 0.9800000190734863 / (1 - 0.9800000190734863), abs=CONVERGED)


def test_velocity_never_reaches_exactly_zero_after_letting_go_as_in_beta():
    grid = floor(x1=60)
    body = run(run(standing(grid), grid, Intent(forward=1.0, yaw=EAST_YAW), 20), grid, Intent(), 100)
    assert 0.0 < body.velocity[0] < 1e-20


def test_sprinting_accelerates_1_3_times_and_a_sprint_jump_adds_0_2_forward():
    grid = floor(x1=80)
    walk = run(standing(grid), grid, Intent(forward=1.0, yaw=EAST_YAW), 1)
    sprint = run(standing(grid), grid, Intent(forward=1.0, yaw=EAST_YAW, sprint=True), 1)
    walked, sprinted = walk.feet[0] - 0.5, sprint.feet[0] - 0.5
    assert sprinted == pytest.approx(walked * 1.3, rel=FLOAT32_RELATIVE)
    jumped = physics.step(standing(grid), grid, Intent(yaw=EAST_YAW, jump=True, sprint=True, forward=1.0))
    plain = physics.step(standing(grid), grid, Intent(yaw=EAST_YAW, jump=True, forward=1.0))
    # Facing +X exactly (Beta's table gives sin 270 = -1), the boost adds 0.2 to the first move.
    assert jumped.feet[0] - plain.feet[0] == pytest.approx(0.2 + sprinted - walked, abs=FEET_ROUNDING)


def test_step_height_is_a_setting():
    from dataclasses import replace

    from physics import shapes
    grid = floor(x1=30)
    grid.fill(3, 64, -5, 20, 64, 5, shapes.SLAB)
    grid.fill(8, 64, -5, 20, 64, 5)  # then a full block: 0.5 above the slab
    low = replace(BETA, step_height=0.0)
    stuck = run(standing(grid), grid, Intent(forward=1.0, yaw=EAST_YAW), 40, settings=low)
    assert stuck.box.max_x == 3.0
    modern = replace(BETA, step_height=0.6)
    climbed = run(standing(grid), grid, Intent(forward=1.0, yaw=EAST_YAW), 60, settings=modern)
    assert climbed.box.min_y == FLOOR_TOP + 1.0
