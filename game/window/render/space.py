"""Physics space -> Ursina space: the one place where Boxel's coordinates meet Ursina's.

Owns: mapping points, boxes, triangle meshes and look angles from physics coordinates
(Minecraft's: x east, y up, z south; right-handed) to Ursina's (x right, y up, z forward;
left-handed). Pure numpy; no Ursina import.
Does not own: building Ursina objects (callers pass the mapped arrays to `ursina.Mesh`,
`Entity.position` and `camera.rotation`).

Why a mirror: Minecraft facing +Z has +X on its left (strafe +1 = A = left moves +X, as
`physics.Intent` says), while Ursina facing +Z has +X on its right. No rotation turns one
into the other, so drawing physics coordinates unchanged would show A moving the player to
the right. Boxel therefore draws the world mirrored on X: Ursina (x, y, z) = (-x, y, z).
With that mirror, Ursina's `rotation_y` equals Minecraft's yaw (yaw 90 faces physics -X,
which is Ursina +X, Ursina's rotation_y 90) and `rotation_x` equals Minecraft's pitch
(positive looks down in both).

Winding: Ursina draws a triangle front-facing when its right-hand-rule normal
(b - a) x (c - a) points away from the viewer. The mirror flips every such normal, so
- a mesh wound the usual right-handed way (counter-clockwise seen from outside, normal
  outward) is front-facing after `positions` alone;
- a mesh wound for Ursina's own axes (clockwise seen from outside, normal inward, as
  `game.world.meshing` emits) also needs `triangles`, which reverses each triangle.
"""

from __future__ import annotations

import numpy as np


def point(x: float, y: float, z: float) -> tuple[float, float, float]:
    """A physics point in Ursina coordinates."""
    return (-x, y, z)


def boxes(physics_boxes: np.ndarray) -> np.ndarray:
    """(N, 6) physics boxes (min x, y, z, max x, y, z) -> the same boxes in Ursina coordinates."""
    b = np.asarray(physics_boxes, dtype=np.float64).reshape(-1, 6)
    return np.stack([-b[:, 3], b[:, 1], b[:, 2], -b[:, 0], b[:, 4], b[:, 5]], axis=1)


def positions(physics_positions: np.ndarray) -> np.ndarray:
    """Flat float32 vertex positions (x, y, z, x, y, z, ...) mirrored into Ursina coordinates."""
    mapped = np.array(physics_positions, dtype=np.float32).reshape(-1, 3)
    mapped[:, 0] = -mapped[:, 0]
    return mapped.ravel()


def triangles(physics_indices: np.ndarray) -> np.ndarray:
    """Flat uint32 triangle indices with each triangle's winding reversed: for meshes wound for
    Ursina's own axes, which the mirror of `positions` would otherwise turn inside out."""
    tri = np.array(physics_indices, dtype=np.uint32).reshape(-1, 3)
    return np.ascontiguousarray(tri[:, ::-1]).ravel()


def camera_rotation(yaw: float, pitch: float) -> tuple[float, float, float]:
    """Ursina's (rotation_x, rotation_y, rotation_z) for a view with Minecraft's yaw and pitch [degrees]."""
    return (pitch, yaw, 0.0)
