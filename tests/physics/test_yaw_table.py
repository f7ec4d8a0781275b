"""Walking along every yaw picks the sine-table entries Beta 1.7.3 picks.

Beta's `moveFlying` turns the input by `MathHelper.sin(rotationYaw * 3.1415927F / 180F)` and the
matching `cos`; `MathHelper` indexes a 65536-entry float table by `(int)(f * 10430.378F) & 0xFFFF`
(cos: `(int)(f * 10430.378F + 16384.0F) & 0xFFFF`). Everything expected here is derived with numpy
float32 from those Java literals, not from `physics`' own helpers.
"""

import numpy as np

import physics
from physics import Intent

from .worlds import floor, standing

F = np.float32

BETA_PI = F(3.1415927)
"""`(float)Math.PI`, the literal in Beta's `moveFlying`."""
BETA_TABLE_SCALE = F(10430.378)
"""`MathHelper`'s index scale, the float nearest 65536 / (2 pi)."""
DECOMPILED_PI = F(3.141593)
"""How a decompiler prints `3.1415927F`."""
DECOMPILED_TABLE_SCALE = F(10430.38)
"""How a decompiler prints `10430.378F`."""

TENTHS_OF_A_DEGREE = np.array([k / 10 for k in range(3600)])
"""Yaws 0.0 ... 359.9 as Python floats, as an Intent is given them."""

SIN_TABLE = np.sin(np.arange(65536, dtype=np.float64) * 3.141592653589793 * 2.0 / 65536.0).astype(F)
"""`SIN_TABLE[i] = (float)Math.sin(i * 3.141592653589793 * 2.0 / 65536.0)`."""


def table_indices(yaws, pi, scale):
    """(sin index, cos index) per yaw: `MathHelper.sin/cos(yaw * pi / 180F)` with the given literals."""
    radians = (np.asarray(yaws, dtype=np.float64).astype(F) * pi) / F(180.0)
    scaled = radians * scale
    assert scaled.dtype == F
    return scaled.astype(np.int64) & 0xFFFF, (scaled + F(16384.0)).astype(np.int64) & 0xFFFF


def betas_first_walking_tick_velocity(yaws):
    """(vx, vz) after one tick of full forward input from rest on a 0.6-slipperiness floor, per yaw."""
    friction = F(F(0.6) * F(0.91))
    cubed = F(F(friction * friction) * friction)
    acceleration = F(F(0.1) * F(F(0.16277136) / cubed))
    forward, strafe = F(F(1.0) * F(0.98)), F(F(0.0) * F(0.98))
    length = np.sqrt(F(F(strafe * strafe) + F(forward * forward)))
    assert length.dtype == F and F(0.01) <= length < F(1.0)
    scale = F(acceleration / F(1.0))
    forward, strafe = F(forward * scale), F(strafe * scale)
    sin_index, cos_index = table_indices(yaws, BETA_PI, BETA_TABLE_SCALE)
    sin, cos = SIN_TABLE[sin_index], SIN_TABLE[cos_index]
    dvx = (strafe * cos) - (forward * sin)
    dvz = (forward * cos) + (strafe * sin)
    assert dvx.dtype == F and dvz.dtype == F
    # motion is double: motionX += float; after the move motionX *= friction (a float widened to double).
    return (0.0 + dvx.astype(np.float64)) * float(friction), (0.0 + dvz.astype(np.float64)) * float(friction)


def decompiled_literals_pick_another_entry(yaws):
    """Per yaw: whether 3.141593F and 10430.38F pick a different sin or cos entry than Beta's literals."""
    beta_sin, beta_cos = table_indices(yaws, BETA_PI, BETA_TABLE_SCALE)
    other_sin, other_cos = table_indices(yaws, DECOMPILED_PI, DECOMPILED_TABLE_SCALE)
    return (beta_sin != other_sin) | (beta_cos != other_cos)


def test_one_walking_tick_matches_betas_table_at_every_tenth_of_a_degree():
    grid = floor()
    body = standing(grid)
    assert body.on_ground and body.velocity[0] == 0.0 and body.velocity[2] == 0.0
    expected_vx, expected_vz = betas_first_walking_tick_velocity(TENTHS_OF_A_DEGREE)
    wrong = []
    for yaw, vx, vz in zip(TENTHS_OF_A_DEGREE.tolist(), expected_vx.tolist(), expected_vz.tolist()):
        after = physics.step(body, grid, Intent(forward=1.0, yaw=yaw))
        if (after.velocity[0], after.velocity[2]) != (vx, vz):
            wrong.append((yaw, after.velocity[0], after.velocity[2], vx, vz))
    assert wrong == []


def test_the_table_literals_are_the_floats_nearest_pi_and_65536_over_two_pi():
    assert BETA_PI == F(np.pi)
    assert BETA_TABLE_SCALE == F(65536.0 / (2.0 * np.pi))
    assert DECOMPILED_PI != BETA_PI and DECOMPILED_TABLE_SCALE != BETA_TABLE_SCALE


def test_the_decompilers_rounded_literals_pick_another_table_entry_at_49_4_degrees():
    assert decompiled_literals_pick_another_entry([49.4]).tolist() == [True]
    beta_sin, beta_cos = table_indices([49.4], BETA_PI, BETA_TABLE_SCALE)
    other_sin, other_cos = table_indices([49.4], DECOMPILED_PI, DECOMPILED_TABLE_SCALE)
    assert (beta_sin.tolist(), beta_cos.tolist()) == ([8992], [25376])
    assert (other_sin.tolist(), other_cos.tolist()) == ([8992], [25377])  # the cos entry one on
    expected_vx, expected_vz = betas_first_walking_tick_velocity([49.4])
    grid = floor()
    after = physics.step(standing(grid), grid, Intent(forward=1.0, yaw=49.4))
    assert (after.velocity[0], after.velocity[2]) == (expected_vx[0], expected_vz[0])


def test_the_decompilers_rounded_literals_pick_another_table_entry_at_42_of_3600_tenths_of_a_degree():
    assert int(np.count_nonzero(decompiled_literals_pick_another_entry(TENTHS_OF_A_DEGREE))) == 42
