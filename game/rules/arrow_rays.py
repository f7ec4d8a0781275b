"""Beta 1.7.3's ray tests for arrows: a segment against one box (`AxisAlignedBB.calculateIntercept`)
and against the blocks (`World.rayTraceBlocks_do_do(start, end, false, true)`), bit for bit.

Owns: `intercept` (the point where a segment first meets a box, as Beta picks it), `BlockHit`,
`walk_blocks` (the first block a segment meets: Beta's cell walk, at most MAX_RAY_STEPS cells) and
`ray_blocks` (the same, skipping the walk through open air).
Pure: no Ursina. Does not own: the arrow (`game.rules.arrow`), the world's boxes
(`GameWorld.collision_boxes`).

Beta's rules, kept here:
- a segment meets a box where it crosses one of the box's six face planes (each within the face,
  edges included), the crossing nearest the start winning (strictly nearer, in the order min x,
  max x, min y, max y, min z, max z). A start inside the box gives the face it leaves by. A
  segment that hardly moves along an axis (squared step under 1.0E-7F) crosses no face across it;
- the block walk tests the start's cell, then each cell the segment enters, in order, with the
  walk's start point moved to where it entered that cell (so a cell's hit is measured from its
  entry point, as Beta's); the first cell with a hit gives it. A cell counts only when it has a
  collision box (`ignoreBlockWithoutBoundingBox`: flowers, torches, cobwebs and fluids are flown
  through). Beta tests the one bounds box of the block; here each of the cell's collision boxes
  (the boxes whose min corner lies in the cell, as `game.rules.targeting.block_boxes`), the
  nearest hit of them winning. For every one-box shape (cubes, slabs, snow...) that is Beta's
  test exactly; a stair's two boxes are its true shape where Beta tests the whole cell.
A segment through open air costs one world query: when the cells it can visit hold no collision
box, no cell is walked.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from physics import AABB

from .targeting import block_boxes

Point = tuple[float, float, float]
Cell = tuple[int, int, int]

MIN_SQUARED_STEP = 1.0000000116860974e-07
"""[blocks^2] A segment whose squared step along an axis is below this (1.0E-7F) crosses no face
across that axis (`Vec3D.getIntermediateWithXValue`)."""
MAX_RAY_STEPS = 200
"""[cells] The block walk gives up after this many cells past the first (Beta's `l1 = 200`)."""
WALK_SLACK = 1
"""[cells] The cells a walk may visit, beyond the cuboid of its first and last cells."""
NO_FACE = 999.0
"""[blocks] The face coordinate on an axis the walk does not step along (Beta's `999D`)."""


class BlockHit(NamedTuple):
    """Where a segment met a block: the point on its face and the block's cell."""

    point: Point
    cell: Cell


def _crossing(start: Point, end: Point, axis: int, plane: float) -> Point | None:
    """Where the segment start..end crosses the plane `axis` = `plane`, within the segment
    (`getIntermediateWith?Value`); None when it does not or hardly moves along `axis`."""
    dx, dy, dz = end[0] - start[0], end[1] - start[1], end[2] - start[2]
    step = (dx, dy, dz)[axis]
    if step * step < MIN_SQUARED_STEP:
        return None
    t = (plane - start[axis]) / step
    if t < 0.0 or t > 1.0:
        return None
    return (start[0] + dx * t, start[1] + dy * t, start[2] + dz * t)


def _squared_distance(a: Point, b: Point) -> float:
    dx, dy, dz = b[0] - a[0], b[1] - a[1], b[2] - a[2]
    return dx * dx + dy * dy + dz * dz


def intercept(box: AABB | tuple, start: Point, end: Point) -> Point | None:
    """The point where the segment start..end meets `box` (Beta's `calculateIntercept`: the face
    crossing nearest `start`), or None."""
    x0, y0, z0, x1, y1, z1 = box
    best = None
    best_distance = 0.0
    for axis, plane in ((0, x0), (0, x1), (1, y0), (1, y1), (2, z0), (2, z1)):
        point = _crossing(start, end, axis, plane)
        if point is None:
            continue
        px, py, pz = point
        if axis == 0:
            inside = y0 <= py <= y1 and z0 <= pz <= z1
        elif axis == 1:
            inside = x0 <= px <= x1 and z0 <= pz <= z1
        else:
            inside = x0 <= px <= x1 and y0 <= py <= y1
        if not inside:
            continue
        distance = _squared_distance(start, point)
        if best is None or distance < best_distance:
            best, best_distance = point, distance
    return best


def _cell_hit(world, cell: Cell, start: Point, end: Point) -> BlockHit | None:
    """The segment against the collision boxes of the block at `cell` (Beta's
    `Block.collisionRayTrace`: in the cell's own coordinates, then back)."""
    boxes = block_boxes(world, cell)
    if not boxes:
        return None
    i, j, k = cell
    local_start = (start[0] - i, start[1] - j, start[2] - k)
    local_end = (end[0] - i, end[1] - j, end[2] - k)
    best = None
    best_distance = 0.0
    for box in boxes:
        point = intercept((box[0] - i, box[1] - j, box[2] - k, box[3] - i, box[4] - j, box[5] - k),
                          local_start, local_end)
        if point is None:
            continue
        distance = _squared_distance(local_start, point)
        if best is None or distance < best_distance:
            best, best_distance = point, distance
    if best is None:
        return None
    return BlockHit((best[0] + i, best[1] + j, best[2] + k), cell)


def _divide(a: float, b: float) -> float:
    """Java's double division: a zero divisor gives an infinity (or NaN), not an error."""
    if b != 0.0:
        return a / b
    if a == 0.0 or math.isnan(a):
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def _any_block_between(world, first: Cell, last: Cell) -> bool:
    """Whether any cell of the cuboid from `first` to `last`, grown WALK_SLACK cells, holds a
    collision box of its own: one query instead of one a cell, and none at all in open air. The
    walk visits only cells of that cuboid (each step moves one axis one cell toward `last`, every
    point it passes lies on the segment; the slack takes a rounding that crosses a face), and a
    cell's own boxes (min corner in it) overlap the cuboid's interior, so the query holds them all."""
    lx, ly, lz = (min(a, b) - WALK_SLACK for a, b in zip(first, last))
    hx, hy, hz = (max(a, b) + 1 + WALK_SLACK for a, b in zip(first, last))
    floor = math.floor
    return any(lx <= floor(b[0]) < hx and ly <= floor(b[1]) < hy and lz <= floor(b[2]) < hz
               for b in world.collision_boxes(AABB(lx, ly, lz, hx, hy, hz)))


def ray_blocks(world, start: Point, end: Point) -> BlockHit | None:
    """The first block with a collision box the segment start..end meets (module docstring), or
    None: `walk_blocks`, without the walk when the cells it could visit hold no box."""
    if any(math.isnan(v) for v in (*start, *end)):
        return None
    floor = math.floor
    first, last = (floor(start[0]), floor(start[1]), floor(start[2])), (floor(end[0]), floor(end[1]), floor(end[2]))
    if not _any_block_between(world, first, last):
        return None
    return walk_blocks(world, start, end)


def walk_blocks(world, start: Point, end: Point) -> BlockHit | None:
    """Beta's walk, cell by cell (module docstring): `ray_blocks`'s readable twin."""
    if any(math.isnan(v) for v in (*start, *end)):
        return None
    floor = math.floor
    ex, ey, ez = floor(end[0]), floor(end[1]), floor(end[2])
    cx, cy, cz = floor(start[0]), floor(start[1]), floor(start[2])
    hit = _cell_hit(world, (cx, cy, cz), start, end)
    if hit is not None:
        return hit
    sx, sy, sz = start
    for _ in range(MAX_RAY_STEPS + 1):
        if math.isnan(sx) or math.isnan(sy) or math.isnan(sz):
            return None
        if cx == ex and cy == ey and cz == ez:
            return None
        bx = cx + 1.0 if ex > cx else cx + 0.0 if ex < cx else None
        by = cy + 1.0 if ey > cy else cy + 0.0 if ey < cy else None
        bz = cz + 1.0 if ez > cz else cz + 0.0 if ez < cz else None
        dx, dy, dz = end[0] - sx, end[1] - sy, end[2] - sz
        tx = NO_FACE if bx is None else _divide(bx - sx, dx)
        ty = NO_FACE if by is None else _divide(by - sy, dy)
        tz = NO_FACE if bz is None else _divide(bz - sz, dz)
        if tx < ty and tx < tz:
            face = 4 if ex > cx else 5
            sx, sy, sz = (NO_FACE if bx is None else bx), sy + dy * tx, sz + dz * tx
        elif ty < tz:
            face = 0 if ey > cy else 1
            sx, sy, sz = sx + dx * ty, (NO_FACE if by is None else by), sz + dz * ty
        else:
            face = 2 if ez > cz else 3
            sx, sy, sz = sx + dx * tz, sy + dy * tz, (NO_FACE if bz is None else bz)
        if math.isnan(sx) or math.isnan(sy) or math.isnan(sz) or math.isinf(sx) or math.isinf(sy) or math.isinf(sz):
            return None
        cx = floor(sx) - (1 if face == 5 else 0)
        cy = floor(sy) - (1 if face == 1 else 0)
        cz = floor(sz) - (1 if face == 3 else 0)
        hit = _cell_hit(world, (cx, cy, cz), (sx, sy, sz), end)
        if hit is not None:
            return hit
    return None
