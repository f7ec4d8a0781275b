"""Flying (not in Beta): no gravity, jump rises, sneak descends, and the body still collides."""

import pytest

import physics
from physics import Body, Intent

from .worlds import CONVERGED, EAST_YAW, FLOOR_TOP, floor, run, standing

FLY = Intent(fly=True)


def test_a_flying_body_hovers_where_it_is():
    body = run(Body.at_feet(0.5, 80.0, 0.5), physics.BlockGrid(), FLY, 200)
    assert body.box.min_y == 80.0
    assert body.velocity == (0.0, 0.0, 0.0)


def test_flying_up_approaches_0_225_blocks_per_tick():
    body = run(Body.at_feet(0.5, 80.0, 0.5), physics.BlockGrid(), Intent(fly=True, jump=True), 60)
    before = body.box.min_y
    body = physics.step(body, physics.BlockGrid(), Intent(fly=True, jump=True))
    # v' = (v + 0.15) * 0.6 has the fixed point v = 0.225; the move uses v + 0.15 = 0.375.
    assert body.box.min_y - before == pytest.approx(0.375, abs=CONVERGED)


def test_flying_down_lands_on_the_floor_and_walls_still_stop_a_flying_body():
    grid = floor()
    grid.fill(3, 64, -5, 3, 80, 5)
    body = run(Body.at_feet(0.5, 70.0, 0.5), grid, Intent(fly=True, sneak=True), 60)
    assert body.box.min_y == FLOOR_TOP and body.on_ground
    body = run(body, grid, Intent(fly=True, forward=1.0, yaw=EAST_YAW), 60)
    assert body.box.max_x == 3.0


def test_flying_forward_is_faster_than_walking():
    grid = floor(x1=100)
    walked = run(standing(grid), grid, Intent(forward=1.0, yaw=EAST_YAW), 40)
    flown = run(standing(grid), grid, Intent(fly=True, forward=1.0, yaw=EAST_YAW), 40)
    assert flown.feet[0] > walked.feet[0]
    assert flown.box.min_y == FLOOR_TOP
