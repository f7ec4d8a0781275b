"""Entity push: Beta's applyEntityCollision between two bodies, value by value."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from physics import AABB, Body, Intent
from physics.crowd import Crowd
from physics.push import PUSH_STRENGTH, push, push_region

from .worlds import FLOOR_TOP, floor, standing

F = np.float32

SQRT_F32_TOLERANCE = 1e-7
"""[blocks/tick] How far a push computed with the float32 square root may be from the exact real
value (float32 keeps ~7 significant digits; the pushes here are at most 0.05)."""


def beta_push(me: Body, other: Body) -> tuple[tuple[float, float], tuple[float, float]]:
    """Beta 1.7.3's `other.applyEntityCollision(me)`, transcribed line by line from the notes:
    the new (x, z) velocities of `me` and `other`."""
    me_x, me_z = (me.box[0] + me.box[3]) / 2.0, (me.box[2] + me.box[5]) / 2.0
    other_x, other_z = (other.box[0] + other.box[3]) / 2.0, (other.box[2] + other.box[5]) / 2.0
    d0 = me_x - other_x
    d1 = me_z - other_z
    d2 = max(abs(d0), abs(d1))
    if d2 >= float(F(0.01)):
        d2 = float(F(math.sqrt(d2)))  # MathHelper.sqrt_double returns a float
        d0 /= d2
        d1 /= d2
        d3 = 1.0 / d2
        if d3 > 1.0:
            d3 = 1.0
        d0 *= d3
        d1 *= d3
        d0 *= 0.05000000074505806
        d1 *= 0.05000000074505806
        return (me.velocity[0] + d0, me.velocity[2] + d1), (other.velocity[0] - d0, other.velocity[2] - d1)
    return (me.velocity[0], me.velocity[2]), (other.velocity[0], other.velocity[2])


def with_velocity(body: Body, vx: float, vz: float) -> Body:
    return Body(body.box, (vx, body.velocity[1], vz), body.on_ground, body.collided_horizontally,
                body.collided_vertically, body.camera_lag)


def beta_world_tick(bodies: list[Body], world, intents) -> list[Body]:
    """Beta's entity loop for a few bodies, written out: step, then push every body in reach."""
    bodies = list(bodies)
    for i, intent in enumerate(intents):
        bodies[i] = physics.step(bodies[i], world, intent)
        for j in range(len(bodies)):
            if j != i and push_region(bodies[i].box).intersects(bodies[j].box):
                (mx, mz), (ox, oz) = beta_push(bodies[i], bodies[j])
                bodies[i], bodies[j] = with_velocity(bodies[i], mx, mz), with_velocity(bodies[j], ox, oz)
    return bodies


def test_one_push_gives_each_body_005_times_dx_over_the_root_of_the_distance():
    grid = floor()
    a, b = standing(grid, x=0.5, z=0.5), standing(grid, x=0.9, z=0.6)
    a2, b2 = push(a, b)
    root = float(F(math.sqrt(abs(0.5 - 0.9))))  # the larger of |dx| and |dz|, rooted in float32
    expected_x = (0.5 - 0.9) / root * 1.0 * 0.05000000074505806
    expected_z = (0.5 - 0.6) / root * 1.0 * 0.05000000074505806
    assert a2.velocity == (a.velocity[0] + expected_x, a.velocity[1], a.velocity[2] + expected_z)
    assert b2.velocity == (b.velocity[0] - expected_x, b.velocity[1], b.velocity[2] - expected_z)
    assert (a2.box, b2.box) == (a.box, b.box)
    assert expected_x == pytest.approx(-0.05 * 0.4 / math.sqrt(0.4), abs=SQRT_F32_TOLERANCE)


@pytest.mark.parametrize("vectorised", [False, True])
def test_two_overlapping_bodies_are_pushed_tick_by_tick_as_beta_computes_it(vectorised):
    grid = floor()
    start = [standing(grid, x=0.5, z=0.5), standing(grid, x=0.9, z=0.6)]
    crowd = Crowd(grid, vectorised=vectorised)
    for body in start:
        crowd.add(body)
    expected = start
    intents = [Intent(), Intent()]
    for tick in range(40):
        expected = beta_world_tick(expected, grid, intents)
        crowd.step(intents)
        assert list(crowd.bodies) == expected, f"tick {tick}"
    a, b = expected
    assert b.feet[0] - a.feet[0] >= 0.8  # pushed apart until the push regions no longer reach


def test_the_first_tick_of_two_overlapping_bodies_pushes_each_twice():
    grid = floor()
    a, b = standing(grid, x=0.5, z=0.5), standing(grid, x=0.9, z=0.5)
    crowd = Crowd(grid, vectorised=False)
    crowd.add(a)
    crowd.add(b)
    crowd.step([Intent(), Intent()])
    # a steps (it stays put: velocity 0), pushes b; b steps with that push, then pushes a again.
    a1 = physics.step(a, grid, Intent())
    (ax, az), (bx, bz) = beta_push(a1, b)
    b1 = physics.step(with_velocity(b, bx, bz), grid, Intent())
    (bx2, bz2), (ax2, az2) = beta_push(b1, with_velocity(a1, ax, az))
    got_a, got_b = crowd.bodies
    assert got_a.velocity[0] == ax2 and got_b.velocity[0] == bx2
    assert got_a.velocity[0] < 0.0 < got_b.velocity[0]  # a is pushed toward -x, b toward +x
    assert got_b.box.min_x > b.box.min_x  # b moved in the tick it was pushed before its step
    assert got_a.box == a.box  # a was pushed only after its own step


def bodies_at(x: float, z: float, width: float = 0.6) -> Body:
    return Body(AABB.around_feet(x, FLOOR_TOP, z, width, 1.8), (0.013, -0.0784000015258789, -0.02), on_ground=True)


@settings(max_examples=300, deadline=None)
@given(st.floats(-3, 3), st.floats(-3, 3), st.floats(-3, 3), st.floats(-3, 3), st.sampled_from([0.3, 0.6, 0.9, 2.0]))
def test_push_is_symmetric_whichever_body_is_me(ax, az, bx, bz, width):
    a, b = bodies_at(ax, az, width), bodies_at(bx, bz, width)
    a2, b2 = push(a, b)
    b3, a3 = push(b, a)
    assert (a2, b2) == (a3, b3)


def test_push_gives_equal_and_opposite_horizontal_velocity_and_leaves_y_and_boxes_alone():
    a = Body(AABB.around_feet(0.0, FLOOR_TOP, 0.0, 0.6, 1.8))
    b = Body(AABB.around_feet(0.25, FLOOR_TOP + 0.5, -0.375, 0.6, 1.8), velocity=(0.0, 0.3, 0.0))
    a2, b2 = push(a, b)
    assert a2.velocity[0] == -b2.velocity[0] != 0.0
    assert a2.velocity[2] == -b2.velocity[2] != 0.0
    assert (a2.velocity[1], b2.velocity[1]) == (0.0, 0.3)
    assert (a2.box, b2.box) == (a.box, b.box)


def test_bodies_whose_centres_are_less_than_001_apart_are_not_pushed():
    a = bodies_at(5.0, 5.0)
    for dx, dz in [(0.0, 0.0), (0.0099, -0.0099), (-0.005, 0.0)]:
        b = bodies_at(5.0 + dx, 5.0 + dz)
        assert push(a, b) == (a, b)
    assert push(a, bodies_at(5.0, 5.0101)) != (a, bodies_at(5.0, 5.0101))


def test_far_bodies_get_the_full_strength_divided_by_the_root_of_the_distance_squared():
    # d >= 1: k = 1 / sqrt(d), so on one axis the push is 0.05 * d / sqrt(d) / sqrt(d) = 0.05.
    a, b = bodies_at(0.0, 0.0, width=3.0), bodies_at(2.0, 0.0, width=3.0)
    a2, b2 = push(a, b)
    assert a2.velocity[0] - a.velocity[0] == pytest.approx(-PUSH_STRENGTH, abs=SQRT_F32_TOLERANCE)
    assert a2.velocity[2] == a.velocity[2]


def test_push_region_reaches_02_sideways_only():
    box = AABB(1.0, 64.0, 2.0, 1.5, 65.5, 2.5)
    assert push_region(box) == (0.8, 64.0, 1.8, 1.7, 65.5, 2.7)


@pytest.mark.parametrize("vectorised", [False, True])
def test_pushing_stops_once_the_centres_of_two_06_wide_bodies_are_08_apart(vectorised):
    grid = floor()
    for gap, pushed in [(0.8, False), (0.79, True)]:
        a, b = standing(grid, x=0.5, z=0.5), standing(grid, x=0.5 + gap, z=0.5)
        crowd = Crowd(grid, vectorised=vectorised)
        crowd.add(a)
        crowd.add(b)
        crowd.step([Intent(), Intent()])
        alone = [physics.step(a, grid, Intent()), physics.step(b, grid, Intent())]
        assert (list(crowd.bodies) != alone) == pushed, gap


@pytest.mark.parametrize("vectorised", [False, True])
def test_two_bodies_in_one_spot_drift_apart_to_08_and_then_rest(vectorised):
    grid = floor()
    crowd = Crowd(grid, vectorised=vectorised)
    crowd.add(standing(grid, x=0.5, z=0.5))
    crowd.add(standing(grid, x=0.6, z=0.45))
    for _ in range(200):
        crowd.step([Intent(), Intent()])
    a, b = crowd.bodies
    assert max(abs(b.feet[0] - a.feet[0]), abs(b.feet[2] - a.feet[2])) >= 0.8
    assert not push_region(a.box).intersects(b.box) and not push_region(b.box).intersects(a.box)
    before = crowd.bodies
    crowd.step([Intent(), Intent()])
    assert list(crowd.bodies) == [physics.step(body, grid, Intent()) for body in before]


def test_push_refuses_anything_but_bodies():
    with pytest.raises(TypeError, match="Body"):
        push(bodies_at(0.0, 0.0), (0.0, 0.0))
