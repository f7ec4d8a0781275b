"""resolve: a body's move, cast and answered with SLIDE, BOUNCE or STOP until the displacement is used up."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physics import CONTACT_TOLERANCE, BlockGrid, Body
from physics.aabb import AABB
from physics.response import RESPONSES, BodyKind, Response, resolve, response_for

from .test_cast import fast_moves_toward, wall

UP, LEFT, NORTH = (0.0, 1.0, 0.0), (-1.0, 0.0, 0.0), (0.0, 0.0, -1.0)


def floor(x0=-60, x1=60, z0=-60, z1=60, y=-1) -> BlockGrid:
    """A floor of separate blocks whose top face is at y + 1."""
    grid = BlockGrid()
    grid.fill(x0, y, z0, x1, y, z1)
    return grid


FLOOR = floor()


# --- no tunnelling -------------------------------------------------------------------------------

@pytest.mark.parametrize("response", list(Response))
@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("side", [1, -1])
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_a_body_moving_a_thousand_blocks_at_any_angle_never_passes_a_one_block_wall(response, axis, side, data):
    box, delta = data.draw(fast_moves_toward(axis, side))
    body = Body(box, velocity=delta)
    moved, contacts = resolve(body, *delta, wall(axis, side), response, restitution=data.draw(st.floats(0.0, 1.0)))
    assert contacts and contacts[0].normal[axis] == -side
    if side > 0:
        assert moved.box[axis + 3] <= 5.0 + CONTACT_TOLERANCE
    else:
        assert moved.box[axis] >= -5.0 - CONTACT_TOLERANCE
    if response is Response.STOP:
        assert moved.box == contacts[0].body_box
        assert moved.velocity == (0.0, 0.0, 0.0)


# --- sliding -------------------------------------------------------------------------------------

positions = st.one_of(st.floats(-20.0, 20.0), st.integers(-40, 40).map(lambda n: n / 2.0))


@settings(max_examples=60, deadline=None)
@given(positions, st.floats(0.0, 2.0), positions, st.floats(-30.0, 30.0), st.floats(-3.0, -0.01),
       st.floats(-30.0, 30.0))
def test_sliding_along_a_floor_of_separate_blocks_keeps_the_whole_tangential_motion(x, height, z, dx, dy, dz):
    body = Body(AABB.around_feet(x, height, z, 0.6, 1.8), velocity=(dx, dy, dz))
    moved, contacts = resolve(body, dx, dy, dz, FLOOR, Response.SLIDE)
    feet = moved.feet
    assert feet[0] == pytest.approx(x + dx, abs=CONTACT_TOLERANCE)
    assert feet[2] == pytest.approx(z + dz, abs=CONTACT_TOLERANCE)
    if height + dy < -CONTACT_TOLERANCE:  # it would sink into the floor: one contact, then it rests on top
        assert [c.normal for c in contacts] == [UP]
        assert feet[1] == 0.0 and moved.on_ground and moved.velocity == (dx, 0.0, dz)
    elif height + dy >= 0.0:
        assert contacts == [] and feet[1] == pytest.approx(height + dy, abs=CONTACT_TOLERANCE)


@pytest.mark.parametrize("offset", [0, -7, 1000, -250_000])
def test_sliding_along_a_wall_of_separate_blocks_never_catches_a_seam(offset):
    grid = BlockGrid()
    grid.fill(offset - 5, 0, 2, offset + 60, 3, 2)  # the wall's face is z = 2
    body = Body.at_feet(offset + 0.5, 0.5, 1.5, width=1.0)  # touching it: max z = 2.0
    assert body.box[5] == 2.0
    moved, contacts = resolve(body, 50.0, 0.25, 0.8, grid, Response.SLIDE)
    assert moved.feet == pytest.approx((offset + 50.5, 0.75, 1.5), abs=CONTACT_TOLERANCE)
    assert [c.normal for c in contacts] == [NORTH]  # pressed into the wall once, then free
    assert moved.collided_horizontally and not moved.on_ground


@pytest.mark.parametrize("delta", [(50.0, 0.0, 0.0), (50.0, -0.5, 0.3), (-40.0, 0.7, -0.2), (45.0, 1.0, 1.0)])
def test_a_three_block_body_passes_through_a_three_wide_corridor(delta):
    grid = BlockGrid()
    grid.fill(-60, -1, -1, 60, -1, 3)  # floor, top at y = 0
    grid.fill(-60, 3, -1, 60, 3, 3)  # ceiling, bottom at y = 3
    grid.fill(-60, 0, -1, 60, 2, -1)  # wall, face at z = 0
    grid.fill(-60, 0, 3, 60, 2, 3)  # wall, face at z = 3
    body = Body.at_feet(0.5, 0.0, 1.5, width=3.0, height=3.0)
    moved, contacts = resolve(body, *delta, grid, Response.SLIDE)
    assert moved.box == pytest.approx(body.box.offset(delta[0], 0.0, 0.0), abs=CONTACT_TOLERANCE)
    assert len(contacts) == sum(1 for d in delta[1:] if d != 0.0)  # one per pressed axis, at the start
    assert all(c.time == 0.0 for c in contacts)


def test_approaching_a_wall_of_blocks_diagonally_exactly_at_a_seam_still_slides_along_it():
    grid = BlockGrid()
    grid.fill(-5, 0, 2, 60, 0, 2)  # the wall's face is z = 2; seams at every whole x
    body = Body(AABB(0.0, 0.0, 0.0, 1.0, 1.0, 1.0))
    moved, contacts = resolve(body, 40.0, 0.0, 4.0, grid, Response.SLIDE)  # meets it at x = 10..11
    assert [(c.normal, c.box) for c in contacts] == [(NORTH, AABB(10.0, 0.0, 2.0, 11.0, 1.0, 3.0))]
    assert moved.box == AABB(40.0, 0.0, 1.0, 41.0, 1.0, 2.0)


def test_a_landing_contact_says_what_was_hit_when_and_where():
    body = Body(AABB.around_feet(0.5, 2.0, 0.5, 0.6, 1.8), velocity=(0.3, -4.0, 0.2))
    moved, contacts = resolve(body, 0.3, -4.0, 0.2, FLOOR, Response.SLIDE)
    assert moved.velocity == (0.3, 0.0, 0.2)
    [contact] = contacts
    assert (contact.box, contact.normal, contact.time) == (AABB(0.0, -1.0, 0.0, 1.0, 0.0, 1.0), UP, 0.5)
    assert contact.body_box == pytest.approx(AABB.around_feet(0.65, 0.0, 0.6, 0.6, 1.8), abs=CONTACT_TOLERANCE)


def test_sliding_into_a_corner_reports_both_walls_in_order():
    grid = BlockGrid()
    grid.fill(3, 0, -5, 3, 2, 5)  # wall, face at x = 3
    grid.fill(-5, 0, 3, 3, 2, 3)  # wall, face at z = 3
    body = Body(AABB(0.0, 0.0, 0.0, 1.0, 1.0, 1.0), velocity=(4.0, 0.0, 8.0))
    moved, contacts = resolve(body, 4.0, 0.0, 8.0, grid, Response.SLIDE)
    assert moved.box == AABB(2.0, 0.0, 2.0, 3.0, 1.0, 3.0)
    # The wall z = 3 is reached first (t = 0.25), then, sliding along it, the wall x = 3 (t = 0.5).
    assert [(c.normal, c.time) for c in contacts] == [(NORTH, 0.25), (LEFT, 0.5)]
    assert [c.box for c in contacts] == [AABB(1.0, 0.0, 3.0, 2.0, 1.0, 4.0), AABB(3.0, 0.0, 2.0, 4.0, 1.0, 3.0)]
    assert [c.body_box for c in contacts] == [AABB(1.0, 0.0, 2.0, 2.0, 1.0, 3.0), AABB(2.0, 0.0, 2.0, 3.0, 1.0, 3.0)]
    assert moved.velocity == (0.0, 0.0, 0.0) and moved.collided_horizontally


# --- bouncing and stopping -----------------------------------------------------------------------

@settings(max_examples=100, deadline=None)
@given(st.floats(0.0, 1.0), st.floats(-5.0, 5.0), st.floats(-8.0, -0.6), st.floats(-5.0, 5.0), st.floats(0.0, 0.5))
def test_a_bounce_keeps_the_tangential_velocity_and_at_most_restitution_of_the_normal_speed(e, vx, vy, vz, height):
    body = Body(AABB(0.0, height, 0.0, 0.25, height + 0.25, 0.25), velocity=(vx, vy, vz))
    moved, contacts = resolve(body, vx, vy, vz, FLOOR, Response.BOUNCE, restitution=e)  # falls into the floor
    assert [c.normal for c in contacts] == [UP]
    after = moved.velocity
    assert after[0] == vx and after[2] == vz
    assert abs(after[1]) <= e * abs(vy)
    assert sum(v * v for v in after) <= vx * vx + vy * vy + vz * vz
    # It ends above the floor, having bounced back up by restitution x the part of the fall left.
    t = contacts[0].time
    assert moved.box[1] == pytest.approx(-(1.0 - t) * vy * e, abs=CONTACT_TOLERANCE)


def test_bouncing_off_a_wall_reverses_the_motion_into_it_scaled_by_the_restitution():
    grid = BlockGrid()
    grid.fill(4, -2, -2, 4, 2, 2)  # face at x = 4
    body = Body(AABB(0.0, 0.0, 0.0, 1.0, 1.0, 1.0), velocity=(6.0, 0.0, 0.5))
    moved, contacts = resolve(body, 6.0, 0.0, 0.5, grid, Response.BOUNCE, restitution=0.5)
    assert moved.velocity == (-3.0, 0.0, 0.5)
    assert contacts[0].time == 0.5 and contacts[0].normal == LEFT
    assert moved.box == AABB(1.5, 0.0, 0.5, 2.5, 1.0, 1.5)  # 3 to the wall, then half of the 3 left, back


def test_stop_ends_the_move_at_the_first_contact_and_zeroes_the_velocity():
    body = Body(AABB(0.0, 2.0, 0.0, 0.5, 2.5, 0.5), velocity=(1.0, -4.0, 1.0))
    moved, contacts = resolve(body, 1.0, -4.0, 1.0, FLOOR, Response.STOP)
    assert moved.box == AABB(0.5, 0.0, 0.5, 1.0, 0.5, 1.0)
    assert moved.velocity == (0.0, 0.0, 0.0) and moved.on_ground
    assert len(contacts) == 1 and contacts[0].time == 0.5


def test_a_body_stuck_in_a_block_moves_out_freely():
    grid = BlockGrid()
    grid.set(0, 0, 0)
    body = Body.at_feet(0.5, 0.2, 0.5, width=0.6, height=0.6)
    moved, contacts = resolve(body, 2.0, 0.0, 0.0, grid, Response.SLIDE)
    assert contacts == [] and moved.box == body.box.offset(2.0, 0.0, 0.0)


def test_the_iteration_cap_drops_the_rest_of_the_move_after_the_last_contact():
    body = Body.at_feet(0.5, 1.0, 0.5)
    moved, contacts = resolve(body, 3.0, -2.0, 0.0, FLOOR, Response.SLIDE, max_iterations=1)
    assert len(contacts) == 1 and moved.box == contacts[0].body_box
    assert moved.feet == pytest.approx((0.5 + 1.5, 0.0, 0.5), abs=CONTACT_TOLERANCE)


def test_zero_displacement_leaves_the_body_in_place():
    body = Body.at_feet(0.5, 0.0, 0.5)
    moved, contacts = resolve(body, 0.0, 0.0, 0.0, FLOOR, Response.SLIDE)
    assert moved.box == body.box and contacts == []


# --- the response table --------------------------------------------------------------------------

@pytest.mark.parametrize("mover, response", [
    (BodyKind.PLAYER, Response.SLIDE), (BodyKind.MOB, Response.SLIDE),
    (BodyKind.PROJECTILE, Response.BOUNCE), (BodyKind.ARROW, Response.STOP),
])
def test_the_response_is_chosen_by_the_pair_of_kinds(mover, response):
    assert response_for(mover, BodyKind.BLOCK) is response


def test_a_pair_missing_from_the_table_is_an_error_and_the_table_is_read_only():
    with pytest.raises(ValueError, match="no response for block hitting player"):
        response_for(BodyKind.BLOCK, BodyKind.PLAYER)
    with pytest.raises(TypeError):
        response_for("player", BodyKind.BLOCK)
    with pytest.raises(TypeError):
        RESPONSES[BodyKind.BLOCK, BodyKind.BLOCK] = Response.STOP


# --- bad input -----------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, error, message", [
    ({"dx": math.nan}, ValueError, "displacement"),
    ({"dy": math.inf}, ValueError, "displacement"),
    ({"restitution": -0.1}, ValueError, "restitution"),
    ({"restitution": 1.5}, ValueError, "restitution"),
    ({"restitution": math.nan}, ValueError, "restitution"),
    ({"max_iterations": 0}, ValueError, "max_iterations"),
    ({"max_iterations": 2.0}, TypeError, "max_iterations"),
    ({"response": "slide"}, TypeError, "Response"),
    ({"world": None}, TypeError, "CollisionWorld"),
    ({"body": AABB(0.0, 0.0, 0.0, 1.0, 1.0, 1.0)}, TypeError, "Body"),
])
def test_bad_input_is_rejected_with_a_clear_error(kwargs, error, message):
    arguments = {"body": Body.at_feet(0.5, 0.0, 0.5), "dx": 1.0, "dy": 0.0, "dz": 0.0, "world": FLOOR,
                 "response": Response.BOUNCE, "restitution": 0.5, "max_iterations": 4}
    arguments.update(kwargs)
    with pytest.raises(error, match=message):
        resolve(**arguments)
