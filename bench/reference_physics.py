"""A straightforward port of Beta's moveEntity, the yardstick `bench_physics` compares against.

Owns: nothing the game uses. It reads every cell of the stretched box one by one, builds box
objects as it goes and clips with one call per box, the way a first port of the Java would.
It keeps Beta's clip rule and Y-X-Z order, but has no step-up, no tolerance and no float32
emulation: it is a timing reference, not a second implementation to trust.
"""

from __future__ import annotations

import math

from physics import AABB, BlockGrid


def _clip_x(obstacle: AABB, box: AABB, dx: float) -> float:
    if obstacle.max_y <= box.min_y or obstacle.min_y >= box.max_y or obstacle.max_z <= box.min_z or obstacle.min_z >= box.max_z:
        return dx
    if dx > 0 and box.max_x <= obstacle.min_x:
        return min(dx, obstacle.min_x - box.max_x)
    if dx < 0 and box.min_x >= obstacle.max_x:
        return max(dx, obstacle.max_x - box.min_x)
    return dx


def _clip_y(obstacle: AABB, box: AABB, dy: float) -> float:
    if obstacle.max_x <= box.min_x or obstacle.min_x >= box.max_x or obstacle.max_z <= box.min_z or obstacle.min_z >= box.max_z:
        return dy
    if dy > 0 and box.max_y <= obstacle.min_y:
        return min(dy, obstacle.min_y - box.max_y)
    if dy < 0 and box.min_y >= obstacle.max_y:
        return max(dy, obstacle.max_y - box.min_y)
    return dy


def _clip_z(obstacle: AABB, box: AABB, dz: float) -> float:
    if obstacle.max_x <= box.min_x or obstacle.min_x >= box.max_x or obstacle.max_y <= box.min_y or obstacle.min_y >= box.max_y:
        return dz
    if dz > 0 and box.max_z <= obstacle.min_z:
        return min(dz, obstacle.min_z - box.max_z)
    if dz < 0 and box.min_z >= obstacle.max_z:
        return max(dz, obstacle.max_z - box.min_z)
    return dz


def reference_move(box: AABB, dx: float, dy: float, dz: float, grid: BlockGrid) -> AABB:
    region = box.expanded_towards(dx, dy, dz)
    boxes = []
    for x in range(math.floor(region.min_x), math.floor(region.max_x) + 1):
        for y in range(math.floor(region.min_y) - 1, math.floor(region.max_y) + 1):
            for z in range(math.floor(region.min_z), math.floor(region.max_z) + 1):
                boxes.extend(b for b in grid.boxes_at(x, y, z) if b.intersects(region))
    for b in boxes:
        dy = _clip_y(b, box, dy)
    box = box.offset(0, dy, 0)
    for b in boxes:
        dx = _clip_x(b, box, dx)
    box = box.offset(dx, 0, 0)
    for b in boxes:
        dz = _clip_z(b, box, dz)
    return box.offset(0, 0, dz)


def reference_step(box: AABB, velocity: tuple[float, float, float], on_ground: bool, forward: float,
                   yaw_degrees: float, grid: BlockGrid) -> tuple[AABB, tuple[float, float, float], bool]:
    """One walking tick in plain doubles (no jump, sneak or sprint): accelerate, move, gravity, friction."""
    friction = 0.6 * 0.91 if on_ground else 0.91
    acceleration = 0.1 * (0.16277136 / friction ** 3) if on_ground else 0.02
    push = forward * 0.98 * acceleration / max(1.0, abs(forward * 0.98))
    yaw = math.radians(yaw_degrees)
    vx, vy, vz = velocity
    vx -= push * math.sin(yaw)
    vz += push * math.cos(yaw)
    moved = reference_move(box, vx, vy, vz, grid)
    dx, dy, dz = (moved.min_x - box.min_x, moved.min_y - box.min_y, moved.min_z - box.min_z)
    on_ground = dy != vy and vy < 0
    vx = vx if dx == vx else 0.0
    vy = vy if dy == vy else 0.0
    vz = vz if dz == vz else 0.0
    return moved, (vx * friction, (vy - 0.08) * 0.98, vz * friction), on_ground
