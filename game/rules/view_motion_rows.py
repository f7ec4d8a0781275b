"""Many players' view motion advanced at once, on arrays: `ViewMotion.advanced` for a whole crowd.

Owns: `advance_all`, which gives exactly `[motion.advanced(before, after, sneaking=s, dead=d,
held=h) ...]` for many players (a test compares the two through random bodies and states), with
Beta's float arithmetic done on numpy arrays for all of them together, and ROWS_FROM, the number
of players from which the session uses it.
Does not own: the rules themselves (`game.rules.view_bobbing.ViewMotion.advanced`, the readable
twin, which this follows step by step) nor which players there are (the session).

Exactness: every Beta float step is a binary64 operation followed by a round to binary32, as in
`view_bobbing` (`physics.floats.f32`): numpy's binary64 `+`, `-`, `*` and `sqrt` are IEEE's,
correctly rounded like Python's, and `astype(float32)` rounds to nearest even like Java's cast.
What numpy might compute differently is left to Python, one player at a time: the distance walked
(`x ** 2` is `pow`, which numpy would make a product) and the falling tilt's `atan` (only for the
players off the ground, the others' is 0).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import chain

import numpy as np
from physics import Body
from physics.floats import f32

from .sounds import STEP_DISTANCE_PER_BLOCK, TELEPORT_BLOCKS
from .view_bobbing import (CAMERA_PITCH_FALL, CAMERA_PITCH_RATE, CAMERA_PITCH_SCALE, CAMERA_YAW_MAX, CAMERA_YAW_RATE,
                           EQUIP_RATE, EQUIP_SWAP_BELOW, LIMB_RATE, LIMB_SPEED_SCALE, ViewMotion, _made)

ROWS_FROM = 32
"""[players] The session advances this many players' view motion or more on arrays: numpy's cost per
call outweighs the players' Python below about 30 (measured: 10 players 70 against 142 us, 50
players 309 against 267 us, 100 players 730 against 470 us)."""


_MOTION, _BODY, _HELD = {ViewMotion}, {Body}, {str, type(None)}
"""The types `advance_all` takes on arrays (any other is left to `ViewMotion.advanced`, and its checks)."""


def _f32(values: np.ndarray) -> np.ndarray:
    """Each binary64 value rounded to the nearest binary32, as binary64 (`f32` of an array)."""
    return values.astype(np.float32).astype(np.float64)


def advance_all(motions: Sequence[ViewMotion], befores: Sequence[Body], afters: Sequence[Body],
                sneaking: Sequence[bool], dead: Sequence[bool], held: Sequence[str | None]) -> list[ViewMotion]:
    """`[m.advanced(b, a, sneaking=s, dead=d, held=h) for m, b, a, s, d, h in zip(...)]`, exactly (the
    same bits), with its errors: values of other types are left to `ViewMotion.advanced` one by one."""
    count = len(motions)
    if not (len(befores) == len(afters) == len(sneaking) == len(dead) == len(held) == count) or not count or (
            set(map(type, motions)) != _MOTION or set(map(type, befores)) != _BODY
            or set(map(type, afters)) != _BODY or not set(map(type, held)) <= _HELD):
        return [m.advanced(b, a, sneaking=s, dead=d, held=h)
                for m, b, a, s, d, h in zip(motions, befores, afters, sneaking, dead, held, strict=True)]
    b0 = np.fromiter(chain.from_iterable([b.box for b in befores]), np.float64, 6 * count).reshape(count, 6)
    b1 = np.fromiter(chain.from_iterable([a.box for a in afters]), np.float64, 6 * count).reshape(count, 6)
    # The feet's x and z as `Body.feet` works them out; the distance in Python (its `** 2` is pow).
    dx = ((b1[:, 0] + b1[:, 3]) / 2.0 - (b0[:, 0] + b0[:, 3]) / 2.0).tolist()
    dz = ((b1[:, 2] + b1[:, 5]) / 2.0 - (b0[:, 2] + b0[:, 5]) / 2.0).tolist()
    sqrt = math.sqrt
    moved = _f32(np.array([sqrt(x ** 2 + z ** 2) for x, z in zip(dx, dz)]))
    moved[moved > TELEPORT_BLOCKS] = 0.0  # a respawn, not a walk

    walked_before = np.array([m.walked for m in motions])
    counts = ~(np.array(sneaking, dtype=bool) & np.array([b.on_ground for b in befores], dtype=bool))
    walked = _f32(walked_before + moved * STEP_DISTANCE_PER_BLOCK)

    velocity = np.fromiter(chain.from_iterable([a.velocity for a in afters]), np.float64, 3 * count).reshape(count, 3)
    vx, vz = velocity[:, 0], velocity[:, 2]
    on_ground = np.array([a.on_ground for a in afters], dtype=bool)
    is_dead = np.array(dead, dtype=bool)
    speed = np.minimum(_f32(np.sqrt(vx * vx + vz * vz)), CAMERA_YAW_MAX)
    speed[~on_ground | is_dead] = 0.0
    fall = np.zeros(count)
    for k in np.flatnonzero(~on_ground & ~is_dead).tolist():  # atan in Python: numpy's may round otherwise
        fall[k] = f32(f32(math.atan(-float(velocity[k, 1]) * CAMERA_PITCH_FALL)) * CAMERA_PITCH_SCALE)
    camera_yaw_before = np.array([m.camera_yaw for m in motions])
    camera_yaw = _f32(camera_yaw_before + _f32(_f32(speed - camera_yaw_before) * CAMERA_YAW_RATE))
    camera_pitch_before = np.array([m.camera_pitch for m in motions])
    camera_pitch = _f32(camera_pitch_before + _f32(_f32(fall - camera_pitch_before) * CAMERA_PITCH_RATE))

    equip_before = np.array([m.equip for m in motions])
    target = np.array([h == m.shown for m, h in zip(motions, held)], dtype=np.float64)
    step = np.minimum(np.maximum(_f32(target - equip_before), -EQUIP_RATE), EQUIP_RATE)
    equip = _f32(equip_before + step)

    limb_yaw_before = np.array([m.limb_yaw for m in motions])
    limb_target = np.minimum(_f32(moved * LIMB_SPEED_SCALE), 1.0)
    limb_yaw = _f32(limb_yaw_before + _f32(_f32(limb_target - limb_yaw_before) * LIMB_RATE))
    limb_swing = _f32(np.array([m.limb_swing for m in motions]) + limb_yaw)

    swapped = (equip < EQUIP_SWAP_BELOW).tolist()
    # A step not counted keeps the walked distance itself (its very value, as `advanced` does).
    return [_made(w if counted else m.walked, m.walked, cy, m.camera_yaw, cp, m.camera_pitch, e, m.equip,
                  h if swap else m.shown, ls, ly, m.limb_yaw)
            for m, h, swap, counted, w, cy, cp, e, ls, ly in zip(
                motions, held, swapped, counts.tolist(), walked.tolist(), camera_yaw.tolist(), camera_pitch.tolist(),
                equip.tolist(), limb_swing.tolist(), limb_yaw.tolist())]

