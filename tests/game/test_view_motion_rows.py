"""Many players' view motion on arrays (`game.rules.view_motion_rows.advance_all`) against its
readable twin, `ViewMotion.advanced` one player at a time: the same bits."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physics import AABB, Body
from physics.floats import f32

from game.rules.view_bobbing import ViewMotion
from game.rules.view_motion_rows import advance_all

SMALL = st.floats(-0.6, 0.6, allow_nan=False)
"""[blocks/tick] A velocity or a step: walking, sprinting, falling, a push."""
HELD = st.sampled_from([None, "stone", "dirt"])


def _f32_like(value: float) -> float:
    """A value a ViewMotion holds after a tick (a binary32 one)."""
    return f32(value)


@st.composite
def a_player(draw):
    x, y, z = draw(st.floats(-3e4, 3e4)), draw(st.floats(0.0, 128.0)), draw(st.floats(-3e4, 3e4))
    before = Body(AABB.around_feet(x, y, z, 0.6, 1.8), (draw(SMALL), draw(SMALL), draw(SMALL)),
                  on_ground=draw(st.booleans()))
    # A step, now and then a teleport (a respawn: more than TELEPORT_BLOCKS).
    dx, dz = draw(st.one_of(SMALL, st.sampled_from([0.0, 9.0, -20.0]))), draw(SMALL)
    after = Body(AABB.around_feet(x + dx, y + draw(SMALL), z + dz, 0.6, 1.8), (draw(SMALL), draw(SMALL), draw(SMALL)),
                 on_ground=draw(st.booleans()))
    motion = ViewMotion(
        walked=_f32_like(draw(st.floats(0.0, 1e4))), camera_yaw=_f32_like(draw(st.floats(0.0, 0.1))),
        camera_pitch=_f32_like(draw(st.floats(-15.0, 15.0))), equip=_f32_like(draw(st.floats(0.0, 1.0))),
        shown=draw(HELD), limb_swing=_f32_like(draw(st.floats(0.0, 1e4))),
        limb_yaw=_f32_like(draw(st.floats(0.0, 1.0))))
    return motion, before, after, draw(st.booleans()), draw(st.booleans()), draw(HELD)


def _bits(motion: ViewMotion) -> tuple:
    return tuple((type(v), math.copysign(1.0, v), v.hex()) if isinstance(v, float) else (type(v), v)
                 for v in (motion.walked, motion.previous_walked, motion.camera_yaw, motion.previous_camera_yaw,
                           motion.camera_pitch, motion.previous_camera_pitch, motion.equip, motion.previous_equip,
                           motion.shown, motion.limb_swing, motion.limb_yaw, motion.previous_limb_yaw))


@settings(max_examples=150, deadline=None)
@given(st.lists(a_player(), min_size=1, max_size=20))
def test_many_players_view_motion_on_arrays_has_the_bits_of_each_one_advanced_alone(players):
    motions, befores, afters, sneaking, dead, held = (list(column) for column in zip(*players))
    together = advance_all(motions, befores, afters, sneaking, dead, held)
    alone = [m.advanced(b, a, sneaking=s, dead=d, held=h)
             for m, b, a, s, d, h in zip(motions, befores, afters, sneaking, dead, held)]
    assert [_bits(m) for m in together] == [_bits(m) for m in alone]


def test_a_walk_of_many_ticks_on_arrays_stays_bit_for_bit_with_the_one_by_one_walk():
    motions_rows = motions_one = [ViewMotion()] * 3
    for tick in range(60):
        befores = [Body(AABB.around_feet(0.2 * tick * k, 64.0, 0.0, 0.6, 1.8), on_ground=True) for k in range(3)]
        afters = [Body(AABB.around_feet(0.2 * (tick + 1) * k, 64.0 + (0.1 if tick % 7 == 0 else 0.0), 0.0, 0.6, 1.8),
                       (0.2 * k, -0.08 * (tick % 7 == 0), 0.0), on_ground=tick % 7 != 0) for k in range(3)]
        held = ["stone" if tick < 20 else "dirt"] * 3
        motions_rows = advance_all(motions_rows, befores, afters, [False, True, False], [False, False, tick > 50], held)
        motions_one = [m.advanced(b, a, sneaking=s, dead=d, held=h) for m, b, a, s, d, h in zip(
            motions_one, befores, afters, [False, True, False], [False, False, tick > 50], held)]
        assert [_bits(m) for m in motions_rows] == [_bits(m) for m in motions_one]
    assert motions_rows[0].walked == 0.0 and motions_rows[2].walked > 0.0 and motions_rows[2].shown == "dirt"


def test_a_value_that_is_not_a_body_is_refused_as_advanced_refuses_it():
    with pytest.raises(TypeError, match="physics.Body"):
        advance_all([ViewMotion()] * 2, [Body(AABB.around_feet(0, 0, 0, 0.6, 1.8))] * 2, ["feet", "feet"],
                    [False] * 2, [False] * 2, [None] * 2)
