"""Where the F5 third-person camera stands: Beta's `EntityRenderer.orientCamera` with thirdPersonView.

Owns: the camera's distance behind the eye (THIRD_PERSON_DISTANCE, pulled in where a block is in
the way) and its position (`third_person_camera`). Pure: no Ursina import (the window places the
camera there; tests call it on any collision world).
Does not own: the F5 toggle (the session's toggles), the player's model
(`game.window.render.player_model`), the ray test (`physics.cast`).

Beta's rule: the camera looks along the player's look, 4 blocks behind the eye. Eight rays go
from the corners of a 0.2-block cube about the eye to the same corners 4 blocks back (Beta's
end point also shifts x by the corner's z offset: its rays are skewed, and that is kept); the
distance becomes the smallest distance from the eye to any ray's hit. So the camera stops short
of a wall behind the player, and the 0.1 half-width keeps the near plane out of the wall.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import physics
from physics import AABB
from physics.floats import beta_cos, beta_sin, f32

THIRD_PERSON_DISTANCE = 4.0
"""[blocks] Beta's thirdPersonDistance (4F): how far behind the eye the camera stands in the open."""
RAY_CORNER_OFFSET = f32(0.1)
"""[blocks] Beta casts its eight rays from the corners of a cube this far out from the eye on
each axis, so the camera keeps about this far from a wall (the near plane is 0.05)."""
RAY_HALF_WIDTH = 1e-6
"""[blocks] Each ray is a cube this small cast with `physics.cast` (as the look ray of
`game.rules.targeting`): a point would graze a face it runs along and hit neither side."""
PI_F = f32(3.1415927)
"""Beta's float pi in orientCamera (`MathHelper.sin(yaw / 180F * 3.1415927F)`)."""


def back_direction(yaw: float, pitch: float) -> tuple[float, float, float]:
    """Beta's (d4, d8, d6) / distance: the look direction, from MathHelper's sine table; the camera
    stands at eye minus this times the distance."""
    yaw_r, pitch_r = f32(f32(f32(yaw) / f32(180.0)) * PI_F), f32(f32(f32(pitch) / f32(180.0)) * PI_F)
    cos_pitch = beta_cos(pitch_r)
    return (f32(-beta_sin(yaw_r) * cos_pitch), -beta_sin(pitch_r), f32(beta_cos(yaw_r) * cos_pitch))


def third_person_distance(world: physics.CollisionWorld, eye: Sequence[float], yaw: float, pitch: float,
                          distance: float = THIRD_PERSON_DISTANCE) -> float:
    """[blocks] How far behind `eye` the camera stands: `distance`, or less where one of Beta's eight
    rays meets a block's collision shape first (the distance from the eye to that hit).

    TypeError for a world without `collision_boxes` or non-numbers; ValueError for non-finite
    values or a distance that is not positive."""
    if not isinstance(world, physics.CollisionWorld):
        raise TypeError(f"the camera needs a world with collision_boxes(region), got {world!r}")
    if len(eye) != 3:
        raise TypeError(f"eye must be (x, y, z), got {eye!r}")
    for name, value in (("eye x", eye[0]), ("eye y", eye[1]), ("eye z", eye[2]), ("yaw", yaw), ("pitch", pitch),
                        ("distance", distance)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"{name} must be a number, got {value!r}")
        if not math.isfinite(value):
            raise ValueError(f"{name} must be finite, got {value!r}")
    if distance <= 0.0:
        raise ValueError(f"distance must be positive, got {distance!r}")
    x, y, z = (float(v) for v in eye)
    bx, by, bz = (d * distance for d in back_direction(yaw, pitch))
    nearest = float(distance)
    for corner in range(8):
        ox, oy, oz = (((corner >> bit & 1) * 2 - 1) * RAY_CORNER_OFFSET for bit in (0, 1, 2))
        sx, sy, sz = x + ox, y + oy, z + oz
        dx, dy, dz = (x - bx + ox + oz) - sx, (y - by + oy) - sy, (z - bz + oz) - sz
        ray = AABB(sx, sy, sz, sx, sy, sz).grown(RAY_HALF_WIDTH, RAY_HALF_WIDTH, RAY_HALF_WIDTH)
        hit = physics.cast(ray, dx, dy, dz, world)
        if hit is not None:
            t = hit.time
            reach = math.dist((sx + dx * t, sy + dy * t, sz + dz * t), (x, y, z))
            nearest = min(nearest, reach)
    return nearest


def third_person_camera(world: physics.CollisionWorld, eye: Sequence[float], yaw: float, pitch: float,
                        distance: float = THIRD_PERSON_DISTANCE) -> tuple[float, float, float]:
    """[blocks] The third-person camera's position (physics coordinates): behind `eye` along the
    look, `third_person_distance` away. The camera keeps the player's yaw and pitch."""
    reach = third_person_distance(world, eye, yaw, pitch, distance)
    bx, by, bz = back_direction(yaw, pitch)
    return (eye[0] - bx * reach, eye[1] - by * reach, eye[2] - bz * reach)
