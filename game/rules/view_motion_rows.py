"""Many players' view motion advanced at once, on arrays: `ViewMotion.advanced` for a whole crowd.

Owns: `advance_all` (and its one-by-one path, `advance_each`), which gives exactly `[motion.advanced(before, after, sneaking=s, dead=d,
held=h) ...]` for many players (a test compares the two through random bodies and states), with
Beta's float arithmetic done on numpy arrays for all of them together; `MotionRows`, those
motions kept as columns from one tick to the next (`advance_rows`), each player's `ViewMotion`
made only when something reads it (`MotionRows.motion`: a window draws a few, a server none); and
ROWS_FROM, the number of players from which the session uses them.
Does not own: the rules themselves (`game.rules.view_bobbing.ViewMotion.advanced`, the readable
twin, which this follows step by step) nor which players there are (the session), nor where a
player keeps its row (`game.rules.player.Player.view_motion`).

Exactness: every Beta float step is a binary64 operation followed by a round to binary32, as in
`view_bobbing` (`physics.floats.f32`): numpy's binary64 `+`, `-`, `*` and `sqrt` are IEEE's,
correctly rounded like Python's, and `astype(float32)` rounds to nearest even like Java's cast.
What numpy might compute differently is left to Python, one player at a time: the distance walked
(`x ** 2` is `pow`, which numpy would make a product) and the falling tilt's `atan` (only for the
players off the ground, the others' is 0). A float64 column holds a Python float's bits exactly,
so a motion made from its row (`tolist`) has the very values `advanced` gives.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

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


_FIELDS = ("walked", "previous_walked", "camera_yaw", "previous_camera_yaw", "camera_pitch", "previous_camera_pitch",
           "equip", "previous_equip", "shown", "limb_swing", "limb_yaw", "previous_limb_yaw")
"""`ViewMotion`'s fields in its order (`_made`'s arguments): `MotionRows`' columns."""
assert _FIELDS == tuple(ViewMotion.__dataclass_fields__), "MotionRows keeps every field of ViewMotion"


class MotionRows:
    """The view motions of many players after one tick, as columns (row k: the k-th player given):
    float64 arrays, and `shown` a list. `advance_rows` reads them the next tick as they are, so a
    crowd's motions need no `ViewMotion` object each tick; `motion(k)` makes row k's (the same
    values as the motions `advance_all` gives) when something reads it. Never changed once made."""

    __slots__ = (*_FIELDS, "_lists")

    def __init__(self, *columns) -> None:
        for name, column in zip(_FIELDS, columns, strict=True):
            setattr(self, name, column)
        self._lists: list | None = None
        """The columns as lists of Python floats, made at the first `motion` read."""

    def __len__(self) -> int:
        return len(self.shown)

    @classmethod
    def of(cls, motions: Sequence[ViewMotion]) -> MotionRows:
        """The rows of `motions` (ViewMotion objects), in order."""
        return cls(*(np.array([getattr(m, name) for m in motions], dtype=np.float64) if name != "shown"
                     else [m.shown for m in motions] for name in _FIELDS))

    def motion(self, row: int) -> ViewMotion:
        """Row `row` as a `ViewMotion`."""
        lists = self._lists
        if lists is None:
            lists = self._lists = [getattr(self, name) if name == "shown" else getattr(self, name).tolist()
                                   for name in _FIELDS]
        return _made(*(column[row] for column in lists))


def takes_on_arrays(motions, befores, afters, sneaking, dead, held) -> bool:
    """Whether `advance_rows` takes these on arrays: equal lengths, at least one, and exactly the
    types it reads (any other is left to `ViewMotion.advanced`, and its checks)."""
    count = len(befores)
    return bool(count) and len(afters) == len(sneaking) == len(dead) == len(held) == count and (
        (type(motions) is MotionRows and len(motions) == count)
        or (len(motions) == count and set(map(type, motions)) == _MOTION)) and (
        set(map(type, befores)) == _BODY and set(map(type, afters)) == _BODY and set(map(type, held)) <= _HELD)


def advance_all(motions: Sequence[ViewMotion], befores: Sequence[Body], afters: Sequence[Body],
                sneaking: Sequence[bool], dead: Sequence[bool], held: Sequence[str | None]) -> list[ViewMotion]:
    """`[m.advanced(b, a, sneaking=s, dead=d, held=h) for m, b, a, s, d, h in zip(...)]`, exactly (the
    same bits), with its errors: values of other types are left to `ViewMotion.advanced` one by one."""
    if not takes_on_arrays(motions, befores, afters, sneaking, dead, held):
        return advance_each(motions, befores, afters, sneaking, dead, held)
    rows = advance_rows(MotionRows.of(motions), befores, afters, sneaking, dead, held)
    return [rows.motion(k) for k in range(len(rows))]


def advance_each(motions: Sequence[ViewMotion], befores: Sequence[Body], afters: Sequence[Body],
                 sneaking: Sequence[bool], dead: Sequence[bool], held: Sequence[str | None]) -> list[ViewMotion]:
    """One `ViewMotion.advanced` per player, with its checks: what `advance_all` does for values it
    does not take on arrays (`takes_on_arrays`), and `advance_rows`' readable twin."""
    return [m.advanced(b, a, sneaking=s, dead=d, held=h)
            for m, b, a, s, d, h in zip(motions, befores, afters, sneaking, dead, held, strict=True)]


def advance_rows(motions: MotionRows, befores: Sequence[Body], afters: Sequence[Body],
                 sneaking: Sequence[bool], dead: Sequence[bool], held: Sequence[str | None]) -> MotionRows:
    """`advance_all` kept as rows: row k is `motions.motion(k).advanced(befores[k], afters[k], ...)`.
    For values `advance_all` takes on arrays only (`takes_on_arrays`)."""
    count = len(befores)
    # One pass in Python over the bodies (cheaper than numpy's conversions of 100 tuples): the
    # distance walked (the feet's x and z as `Body.feet` works them out; `** 2` is pow, as
    # `advanced`'s), the horizontal speed (sqrt is IEEE's in both), whether the step counts, and the
    # falling tilt's atan for the living players off the ground (the others' is 0).
    sqrt, atan = math.sqrt, math.atan
    distances, speeds, counts, falls = [], [], [], []
    for before, after, sneaks, is_dead in zip(befores, afters, sneaking, dead):
        b0, b1 = before.box, after.box
        x = (b1[0] + b1[3]) / 2.0 - (b0[0] + b0[3]) / 2.0
        z = (b1[2] + b1[5]) / 2.0 - (b0[2] + b0[5]) / 2.0
        distances.append(sqrt(x ** 2 + z ** 2))
        counts.append(not (sneaks and before.on_ground))
        vx, vy, vz = after.velocity
        if is_dead:
            speeds.append(0.0)
            falls.append(0.0)
        elif after.on_ground:
            speeds.append(sqrt(vx * vx + vz * vz))
            falls.append(0.0)
        else:
            speeds.append(0.0)
            falls.append(f32(f32(atan(-vy * CAMERA_PITCH_FALL)) * CAMERA_PITCH_SCALE))
    moved = _f32(np.array(distances))
    moved[moved > TELEPORT_BLOCKS] = 0.0  # a respawn, not a walk

    walked_before = motions.walked
    # A step not counted keeps the walked distance itself (its very value, as `advanced` does).
    walked = np.where(counts, _f32(walked_before + moved * STEP_DISTANCE_PER_BLOCK), walked_before)
    speed = np.minimum(_f32(np.array(speeds)), CAMERA_YAW_MAX)
    fall = np.array(falls)
    camera_yaw_before = motions.camera_yaw
    camera_yaw = _f32(camera_yaw_before + _f32(_f32(speed - camera_yaw_before) * CAMERA_YAW_RATE))
    camera_pitch_before = motions.camera_pitch
    camera_pitch = _f32(camera_pitch_before + _f32(_f32(fall - camera_pitch_before) * CAMERA_PITCH_RATE))

    equip_before = motions.equip
    shown_before = motions.shown
    target = np.array([h == s for s, h in zip(shown_before, held)], dtype=np.float64)
    step = np.minimum(np.maximum(_f32(target - equip_before), -EQUIP_RATE), EQUIP_RATE)
    equip = _f32(equip_before + step)
    swapped = equip < EQUIP_SWAP_BELOW
    shown = ([h if swap else s for s, h, swap in zip(shown_before, held, swapped.tolist())] if swapped.any()
             else shown_before)

    limb_yaw_before = motions.limb_yaw
    limb_target = np.minimum(_f32(moved * LIMB_SPEED_SCALE), 1.0)
    limb_yaw = _f32(limb_yaw_before + _f32(_f32(limb_target - limb_yaw_before) * LIMB_RATE))
    limb_swing = _f32(motions.limb_swing + limb_yaw)
    return MotionRows(walked, walked_before, camera_yaw, camera_yaw_before, camera_pitch, camera_pitch_before,
                      equip, equip_before, shown, limb_swing, limb_yaw, limb_yaw_before)
