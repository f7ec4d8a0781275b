"""The sneak edge guard: Beta's loop exactly where it is short, bounded where it is not, and one
tolerance rule with the clip, so a sneaking body never walks off an edge."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from physics import AABB, BlockGrid, Body, Intent, shapes
from physics.edge_guard import MAX_LOOPED_TRIES, Support, guard_axis, guard_axis_by_steps

BACKOFF = physics.BETA.sneak_edge_backoff
LONG_LOOP_AGREEMENT = 1e-9
"""[blocks] Beyond MAX_LOOPED_TRIES the guard computes delta - k x backoff with one
multiplication where Beta subtracts k times: a few thousand roundings of ~1e-15 each."""

supports = st.builds(
    lambda lo, width, ranges: Support(lo, lo + width, ranges),
    st.floats(-2.0, 2.0), st.floats(0.01, 2.0),
    st.lists(st.tuples(st.floats(-300.0, 300.0), st.floats(0.01, 5.0)).map(lambda t: (t[0], t[0] + t[1])), max_size=6))


@settings(max_examples=400, deadline=None)
@given(st.floats(-19.9, 19.9), supports)
def test_the_guard_gives_betas_loop_bit_for_bit_when_the_loop_is_short(delta, intervals):
    assert abs(delta) / BACKOFF < MAX_LOOPED_TRIES
    assert guard_axis(delta, BACKOFF, intervals).hex() == guard_axis_by_steps(delta, BACKOFF, intervals).hex()


@settings(max_examples=300, deadline=None)
@given(st.floats(-250.0, 250.0), supports)
def test_the_guard_lands_where_betas_loop_lands_when_the_loop_is_long(delta, intervals):
    got, beta = guard_axis(delta, BACKOFF, intervals), guard_axis_by_steps(delta, BACKOFF, intervals)
    assert math.isclose(got, beta, abs_tol=LONG_LOOP_AGREEMENT)


LONG_MOVE_ROUNDING = 1e-6
"""[blocks] Subtracting 0.05 from a delta of 1e6 rounds by up to an ulp of 1e6 (1.2e-10) a try."""


def floor_strip(x1: int) -> BlockGrid:
    grid = BlockGrid()
    grid.fill(0, 63, 0, x1, 63, 0)
    return grid


def test_a_sneaking_move_of_a_million_blocks_stops_at_the_edge_of_the_floor():
    grid = floor_strip(40)
    body = Body.at_feet(0.5, 64.0, 0.5)
    body = physics.move(body, 0.0, -0.1, 0.0, grid)  # on the ground
    moved = physics.move(body, 1e6, -0.1, 0.0, grid, sneak=True)
    # The box may overhang until its near side is less than one backoff from the floor's end.
    assert 41.0 - BACKOFF - LONG_MOVE_ROUNDING <= moved.box[0] < 41.0 - physics.CONTACT_TOLERANCE
    assert moved.on_ground


def test_a_sneaking_step_with_a_velocity_of_a_million_blocks_per_tick_keeps_the_body_on_its_floor():
    grid = floor_strip(40)
    body = physics.step(physics.step(Body.at_feet(0.5, 64.0, 0.5), grid, Intent()), grid, Intent())
    fast = Body(body.box, (1e6, body.velocity[1], 0.0), on_ground=True)
    after = physics.step(fast, grid, Intent(sneak=True))
    assert after.on_ground and after.box[0] < 41.0


def test_settings_that_would_loop_forever_are_refused():
    from dataclasses import replace

    import pytest

    with pytest.raises(ValueError, match="sneak_edge_backoff"):
        replace(physics.BETA, sneak_edge_backoff=0.0)


SHAPES = [shapes.FULL_CUBE, shapes.SLAB, shapes.TOP_SLAB, shapes.FENCE, shapes.CARPET, shapes.SOUL_SAND,
          shapes.CACTUS, *shapes.STAIRS.values(), *shapes.LADDER.values()]
INSIDE_BY = [0.0, 1e-12, 1e-9, 5e-8, 1e-7, 2e-7, 1e-3]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(len(SHAPES))), st.sampled_from(INSIDE_BY), st.sampled_from([0.0, 90.0, 180.0, 270.0]),
       st.sampled_from([0.3, 0.6, 0.9]), st.floats(0.0, 1.0))
def test_a_sneaking_grounded_body_never_loses_the_ground_at_any_shapes_edge(shape, inside_by, yaw, width, along):
    """A body standing on a lone block's top box 0.01 inside its edge asks, sneaking, for a move
    that would leave it `inside_by` inside the edge, then stands sneaking for 20 ticks: it never
    drops deeper than the guard's probe (a stair's lower half is allowed) and ends on the ground."""
    grid = BlockGrid()
    grid.set(0, 10, 0, SHAPES[shape])
    top = max(SHAPES[shape], key=lambda b: (b.max_y, (b.max_x - b.min_x) * (b.max_z - b.min_z)))
    y = 10.0 + top.max_y
    half, margin = width / 2.0, 0.01
    cx = top.min_x + along * (top.max_x - top.min_x)
    cz = top.min_z + along * (top.max_z - top.min_z)
    step = margin - inside_by
    if yaw == 270.0:  # +X
        cx, move = top.max_x + half - margin, (step, 0.0)
    elif yaw == 90.0:  # -X
        cx, move = top.min_x - half + margin, (-step, 0.0)
    elif yaw == 0.0:  # +Z
        cz, move = top.max_z + half - margin, (0.0, step)
    else:  # -Z
        cz, move = top.min_z - half + margin, (0.0, -step)
    body = Body(AABB(cx - half, y, cz - half, cx + half, y + 1.8, cz + half), (0.0, -0.0784000015258789, 0.0))
    body = physics.step(body, grid, Intent(sneak=True))
    if not body.on_ground or body.box[1] != y:
        return  # not a stand: the top box is too narrow for this body here
    body = physics.move(body, move[0], -0.0784000015258789, move[1], grid, sneak=True)
    for _ in range(20):
        body = physics.step(body, grid, Intent(sneak=True))
        assert body.box[1] >= y - physics.BETA.sneak_edge_probe_depth
    assert body.on_ground


def test_every_movement_setting_has_a_range_and_betas_values_lie_in_them():
    from physics.settings import _RANGES

    assert set(_RANGES) == set(physics.MovementSettings.__dataclass_fields__)
    physics.MovementSettings()  # Beta's values pass


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(physics.MovementSettings.__dataclass_fields__)),
       st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([-1e300, 1e300, 10**400, True, "1", None])))
def test_a_setting_out_of_its_range_is_refused_with_an_error_naming_it(name, value):
    from dataclasses import replace

    import pytest

    from physics.settings import _RANGES

    low, high, low_open = _RANGES[name]
    ok = (not isinstance(value, bool) and isinstance(value, (int, float)) and abs(value) < 1e300
          and (low < value if low_open else low <= value) and value <= high)
    if ok:
        assert getattr(replace(physics.BETA, **{name: value}), name) == value
    else:
        with pytest.raises((ValueError, TypeError), match=name):
            replace(physics.BETA, **{name: value})
