"""How exposed a body is to an explosion: Beta 1.7.3's `World.getBlockDensity`, many rays at once.

Owns: `exposures` (for each box, the share of Beta's sample points over it whose ray to the centre no
block stops: `getBlockDensity`), `sample_fractions` (Beta's float loop over a box's side) and
`RAY_BOUNDS` (the box each block id stops a ray with: Beta's block bounds, `collisionRayTrace`).
Does not own: the explosion (`game.rules.explosion`), the look ray (`game.rules.targeting`).

Beta's rule: along each axis the fractions run from 0F by (double) 1 / (side * 2 + 1), each sum
rounded to float, while <= 1F; every (x, y, z) fraction gives the point min + side * fraction, and
`World.rayTraceBlocks(point, centre)` walks the cells from the point's to the centre's (the centre's
own cell is never tested; at most 201 steps), each step to the nearest cell face along the segment
(x only when strictly nearest, y when strictly nearer than z, else z), testing each cell's block with
its bounds (`collisionRayTrace`: the segment's crossings of the six planes, a crossing inside the face's
rectangle, edges included, hits; a segment nearly parallel to a plane, its squared length along the
axis < 1.0000000116860974E-7, misses it). Air and fluids never stop a ray (`canCollideCheck`).
The bounds are the block's selection box, but whole cubes for stairs, fences, cacti and soul sand,
whose Beta bounds are the whole cell. The exposure is (float) unblocked / (float) total.
All rays are walked together on arrays with exactly Beta's double arithmetic; the one-at-a-time twin
is in `tests/rules/explosion_reference.py`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from physics import shapes
from physics.aabb import AABB

from ..world import blocks

PARALLEL_LIMIT = 1.0000000116860974e-7
"""Beta's `Vec3D.getIntermediateWith?Value`: a segment whose squared extent along the axis is below
this (the float 1.0E-7F widened) does not cross that axis's planes."""
MAX_STEPS = 201
"""Beta's `for (l1 = 200; l1-- >= 0;)`: a ray that has not arrived after this many cells is let through."""
NO_FACE = 999.0
"""Beta's `999D`: the distance to a face along an axis the ray does not cross."""
_WHOLE_CELL_FAMILIES = ("stairs_", "fence", "cactus", "soul_sand")
"""Blocks whose Beta bounds are the whole cell though they collide with less or more."""


def _ray_bounds() -> tuple[np.ndarray, np.ndarray]:
    bounds = np.zeros((blocks.COUNT, 6), dtype=np.float64)
    stops = np.zeros(blocks.COUNT, dtype=bool)
    for block, name in enumerate(blocks.NAMES):
        shape = blocks.SELECTION_SHAPES[block]
        if name.startswith(_WHOLE_CELL_FAMILIES):
            shape = shapes.FULL_CUBE
        if block == blocks.AIR or not shape:
            continue
        if len(shape) != 1:
            raise RuntimeError(f"a ray is stopped by one box per block; {name} has {len(shape)}")
        bounds[block] = shape[0]
        stops[block] = True
    return bounds, stops


RAY_BOUNDS, STOPS_RAYS = _ray_bounds()
"""(COUNT, 6) each block id's bounds in its cell (min x, y, z, max x, y, z), and whether it stops rays."""
RAY_BOUNDS.flags.writeable = False
STOPS_RAYS.flags.writeable = False


def sample_fractions(side: float) -> list[float]:
    """Beta's `for (float f = 0.0F; f <= 1.0F; f = (float)((double)f + d))` with d = 1 / (side * 2 + 1)."""
    step = 1.0 / (side * 2.0 + 1.0)
    fractions, fraction = [], 0.0
    while fraction <= 1.0:
        fractions.append(fraction)
        fraction = float(np.float32(fraction + step))
    return fractions


def _sample_points(box: AABB) -> np.ndarray:
    """(n, 3) Beta's sample points over `box`, x outermost, z innermost."""
    axes = []
    for axis in range(3):
        low, high = box[axis], box[axis + 3]
        axes.append([low + (high - low) * f for f in sample_fractions(high - low)])
    grid = np.meshgrid(*axes, indexing="ij")
    return np.stack([g.ravel() for g in grid], axis=1)


def exposures(world, centre: tuple[float, float, float], boxes: Sequence[AABB]) -> np.ndarray:
    """Beta's `getBlockDensity(centre, box)` for each box (float32), reading `world.ids_in_box` once."""
    points = [_sample_points(box) for box in boxes]
    if not points:
        return np.zeros(0, dtype=np.float32)
    starts = np.concatenate(points)
    end = np.array(centre, dtype=np.float64)
    low = np.floor(np.minimum(starts.min(axis=0), end)).astype(np.int64) - 1
    high = np.floor(np.maximum(starts.max(axis=0), end)).astype(np.int64) + 2
    ids = world.ids_in_box(*low.tolist(), *high.tolist())
    through = _reaches_centre(starts, end, ids, low)
    counts = np.array([len(p) for p in points])
    owners = np.repeat(np.arange(len(points)), counts)
    unblocked = np.bincount(owners, weights=through, minlength=len(points))
    return (unblocked.astype(np.float32) / counts.astype(np.float32)).astype(np.float32)


def _reaches_centre(starts: np.ndarray, end: np.ndarray, ids: np.ndarray, origin: np.ndarray) -> np.ndarray:
    """For each start point, whether Beta's `rayTraceBlocks(start, end)` finds no block."""
    end_cell = np.floor(end).astype(np.int64)
    position = starts.copy()
    cell = np.floor(position).astype(np.int64)
    blocked = _stops(ids, origin, cell, position, end)
    live = ~blocked
    for _ in range(MAX_STEPS):
        rows = np.flatnonzero(live)
        arrived = (cell[rows] == end_cell).all(axis=1) | np.isnan(position[rows]).any(axis=1)
        live[rows[arrived]] = False
        rows = rows[~arrived]
        if not rows.size:
            break
        position[rows], cell[rows] = _step(position[rows], cell[rows], end, end_cell)
        hit = _stops(ids, origin, cell[rows], position[rows], end)
        blocked[rows[hit]] = True
        live[rows[hit]] = False
    return ~blocked


def _step(position: np.ndarray, cell: np.ndarray, end: np.ndarray, end_cell: np.ndarray):
    """One step of Beta's walk: to the nearest face toward the end; the new positions and cells."""
    ahead = end_cell > cell  # (n, 3)
    crosses = end_cell != cell
    face = np.where(ahead, cell + 1.0, cell + 0.0)
    delta = end - position
    with np.errstate(divide="ignore", invalid="ignore"):
        distance = np.where(crosses, (face - position) / delta, NO_FACE)
    tx, ty, tz = distance[:, 0], distance[:, 1], distance[:, 2]
    along_x = (tx < ty) & (tx < tz)
    along_y = ~along_x & (ty < tz)
    along_z = ~along_x & ~along_y
    t = np.where(along_x, tx, np.where(along_y, ty, tz))
    moved = position + delta * t[:, None]
    axis = np.where(along_x, 0, np.where(along_y, 1, 2))
    rows = np.arange(len(position))
    moved[rows, axis] = face[rows, axis]
    new_cell = np.floor(moved).astype(np.int64)
    new_cell[rows, axis] -= ~ahead[rows, axis]  # a step toward -axis lands on the face: the cell below it
    return moved, new_cell


def _stops(ids: np.ndarray, origin: np.ndarray, cell: np.ndarray, position: np.ndarray,
           end: np.ndarray) -> np.ndarray:
    """Whether the block at each `cell` stops the segment from `position` to `end` (Beta's
    `canCollideCheck` and `collisionRayTrace`)."""
    local = cell - origin
    block = ids[local[:, 0], local[:, 1], local[:, 2]]
    result = STOPS_RAYS[block]
    rows = np.flatnonzero(result)
    if not rows.size:
        return result
    bounds = RAY_BOUNDS[block[rows]]
    start = position[rows] - cell[rows]  # Beta's vec3d.addVector(-i, -j, -k)
    stop = end - cell[rows]
    delta = stop - start
    hit = np.zeros(len(rows), dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        for axis in range(3):
            others = [a for a in range(3) if a != axis]
            usable = delta[:, axis] * delta[:, axis] >= PARALLEL_LIMIT
            for plane in (bounds[:, axis], bounds[:, axis + 3]):
                t = (plane - start[:, axis]) / delta[:, axis]
                inside = usable & (t >= 0.0) & (t <= 1.0)
                for other in others:
                    value = start[:, other] + delta[:, other] * t
                    inside &= (value >= bounds[:, other]) & (value <= bounds[:, other + 3])
                hit |= inside
    result[rows] = hit
    return result

