"""Whether one point sees another: no block's collision box lies across the segment between them.

Owns: `clear_line` (Beta's `canEntityBeSeen`, a creature's eye to a player's: the fast form) and
its readable twin `clear_line_by_boxes`, and the test they share, `segment_meets_box` (the slab
test: the segment passes through the box's inside for a positive length; touching a face, an edge
or a corner does not block). Both give the same answer for every segment (a test compares them
on random worlds).
Pure: numpy and the world protocol (`ids_in_box`, `collision_boxes`). Does not own: who looks
at whom (`game.rules.creature_brain`) or the look ray that picks blocks (`game.rules.targeting`).

The fast form reads the block ids of the cells the segment's bounding box covers (and the row below,
where a fence's box reaches up from): with no block with a collision box there, the line is clear
(a creature and a player in the open); when every such block is a full cube, the slab test runs at
once on those of them within the segment's own extent (`_cells_crossed`: the range reaches 1.5
below it, for fences, and no cube outside the extent can meet it); otherwise (a slab, a fence, a
door in the way) it asks the twin. A `SightArea` also skips a segment whose heights hold no solid
block anywhere in the area.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from physics import AABB
from physics.shapes import FULL_CUBE, MAX_SHAPE_TOP

from ..world.blocks import SHAPES, SOLID
from ..world.collision import cell_range

_FULL_BOX = SOLID & np.array([shape == FULL_CUBE for shape in SHAPES], dtype=bool)
"""Blocks whose collision box is exactly their cell (stone, dirt, logs...): decided from the id alone."""
_PARTIAL_BOX = SOLID & ~_FULL_BOX
"""Blocks with a collision box that is not their whole cell (slabs, stairs, fences, doors...)."""
_NO_BOX, _FULL, _PARTIAL = 0, 1, 2
_BOX_KINDS = np.where(_PARTIAL_BOX, _PARTIAL, np.where(_FULL_BOX, _FULL, _NO_BOX)).astype(np.uint8)
"""By block id: no collision box, a full cube, or another box (the largest in a window decides the way)."""
_BOX_KINDS_LIST = _BOX_KINDS.tolist()
PROBE_FROM_CELLS = 512
"""[cells] From a range this large on, the slab test first probes one cube a layer along the segment
(`_meets_a_probed_cube`). Measured on 200 looks from the floor of `python -m bench creatures` to a
player fallen 30 to 70 blocks below it (ranges of 8,700 cells on average, 220 of them cubes, all
blocked by the floor): 41 us a look with the probe, 98 us without (the ids read not counted)."""
NEAR_START_LAYERS = 3
"""[layers] How many layers nearest its start a long look probes before reading its whole range
(`_blocked_near_start`): a creature's eye is 0.5 to 1.7 above its feet, so the third layer down
holds the ground it stands on."""
REGION_MARGIN = 1e-9
"""[blocks] The segment's bounding region is widened by this much so that a segment lying in a cell
face still asks for the cells on both sides (the slab test itself decides, exactly)."""


def segment_meets_box(start: Sequence[float], end: Sequence[float], box: Sequence[float]) -> bool:
    """Whether the segment from `start` to `end` passes through the inside of `box` (min x, y, z,
    max x, y, z) for a positive length: the slab test, axis by axis in x, y, z order."""
    t0, t1 = 0.0, 1.0
    for axis in range(3):
        s, d = start[axis], end[axis] - start[axis]
        lo, hi = box[axis], box[axis + 3]
        if d == 0.0:
            if not lo < s < hi:
                return False
            continue
        a, b = (lo - s) / d, (hi - s) / d
        if a > b:
            a, b = b, a
        t0, t1 = max(t0, a), min(t1, b)
    return t0 < t1


def _region(start: Sequence[float], end: Sequence[float]) -> AABB:
    m = REGION_MARGIN
    return AABB(min(start[0], end[0]) - m, min(start[1], end[1]) - m, min(start[2], end[2]) - m,
                max(start[0], end[0]) + m, max(start[1], end[1]) + m, max(start[2], end[2]) + m)


def _segment_cells(start: Sequence[float], end: Sequence[float]) -> tuple[int, int, int, int, int, int]:
    """`cell_range(_region(start, end))`, without making the region's AABB for two points of floats
    (a creature's eye and a player's, a hundred times a tick); anything else goes through the AABB,
    which refuses it."""
    sx, sy, sz = start
    ex, ey, ez = end
    if not (sx.__class__ is sy.__class__ is sz.__class__ is ex.__class__ is ey.__class__ is ez.__class__ is float
            and math.isfinite(sx + sy + sz + ex + ey + ez)):
        return cell_range(_region(start, end))
    # `cell_range` written out, each axis's low and high end picked by one comparison (min and max
    # calls cost most of it; equal ends, -0.0 against 0.0 included, give the same cells either way).
    m = REGION_MARGIN
    floor, ceil = math.floor, math.ceil
    x0, x1 = (floor(sx - m), ceil(ex + m)) if sx < ex else (floor(ex - m), ceil(sx + m))
    y0, y1 = (floor(sy - m - MAX_SHAPE_TOP) + 1, ceil(ey + m)) if sy < ey else (
        floor(ey - m - MAX_SHAPE_TOP) + 1, ceil(sy + m))
    z0, z1 = (floor(sz - m), ceil(ez + m)) if sz < ez else (floor(ez - m), ceil(sz + m))
    return x0, y0, z0, x1, y1, z1


def clear_line_by_boxes(world, start: Sequence[float], end: Sequence[float]) -> bool:
    """The readable twin: no collision box the world has around the segment meets it."""
    return not any(segment_meets_box(start, end, box) for box in world.collision_boxes(_region(start, end)))


def clear_line(world, start: Sequence[float], end: Sequence[float]) -> bool:
    """Whether nothing solid lies across the segment `start` -> `end` (see the module docstring)."""
    x0, y0, z0, x1, y1, z1 = cell_range(_region(start, end))
    if (x1 - x0) * (y1 - y0) * (z1 - z0) > PROBE_FROM_CELLS and _blocked_near_start(world, start, end, y0, y1):
        return False
    return _clear_in(world, world.ids_in_box(x0, y0, z0, x1, y1, z1), (x0, y0, z0), start, end)


def _blocked_near_start(world, start: Sequence[float], end: Sequence[float], y0: int, y1: int) -> bool:
    """Whether a full cube meets the segment (the slab test) where it is halfway through one of the
    NEAR_START_LAYERS layers nearest `start`, within the range's layers [y0, y1): reading those few
    cells only. A hunter on a floor looking down at a player fallen below it sees the floor under
    its feet first; the whole range (thousands of cells) is then not read. False says nothing."""
    sy = float(start[1])
    dy = float(end[1]) - sy
    if dy == 0.0:
        return False
    sx, sz = float(start[0]), float(start[2])
    dx, dz = float(end[0]) - sx, float(end[2]) - sz
    first, step = math.floor(sy), (1 if dy > 0.0 else -1)
    xs, layers, zs = [], [], []
    for layer in range(first, first + step * NEAR_START_LAYERS, step):
        t = (layer + 0.5 - sy) / dy
        if y0 <= layer < y1 and 0.0 < t < 1.0:
            xs.append(math.floor(sx + t * dx))
            layers.append(layer)
            zs.append(math.floor(sz + t * dz))
    if not layers:
        return False
    lx, ly, lz = min(xs), min(layers), min(zs)
    ids = world.ids_in_box(lx, ly, lz, max(xs) + 1, max(layers) + 1, max(zs) + 1).tolist()
    kinds = _BOX_KINDS_LIST
    return any(kinds[ids[x - lx][y - ly][z - lz]] == _FULL and _meets_cube((x, y, z), start, end)
               for x, y, z in zip(xs, layers, zs))


def _clear_in(world, ids: np.ndarray, origin: tuple[int, int, int], start: Sequence[float],
              end: Sequence[float]) -> bool:
    """`clear_line` given the ids of the segment's cell range (`cell_range`), whose lowest cell is `origin`."""
    kinds = _BOX_KINDS.take(ids)  # take: several times faster than indexing by an array
    most = int(kinds.max()) if kinds.size else _NO_BOX
    if most == _NO_BOX:
        return True
    if most == _PARTIAL:
        return clear_line_by_boxes(world, start, end)
    if kinds.size > PROBE_FROM_CELLS and _meets_a_probed_cube(kinds, origin, start, end):
        return False
    crossed = _cells_crossed(ids.shape, origin, start, end)
    full = kinds[crossed]
    if not full.any():
        return True
    origin = tuple(o + part.start for o, part in zip(origin, crossed))
    return not _meets_any(np.nonzero(full), origin, start, end)


def _meets_any(cells: tuple[np.ndarray, ...], origin: tuple[int, int, int], start: Sequence[float],
               end: Sequence[float]) -> bool:
    """Whether the segment meets any of the full cubes at `cells` (index arrays x, y, z) from
    `origin`: the slab test (`segment_meets_box`) on all of them at once, in its floats."""
    t0 = np.zeros(len(cells[0]))
    t1 = np.ones(len(cells[0]))
    inside = np.ones(len(cells[0]), dtype=bool)
    for axis in range(3):
        s, d = float(start[axis]), float(end[axis]) - float(start[axis])
        lo = (cells[axis] + origin[axis]).astype(np.float64)
        hi = lo + 1.0
        if d == 0.0:
            inside &= (lo < s) & (s < hi)
            continue
        a, b = (lo - s) / d, (hi - s) / d
        t0 = np.maximum(t0, np.minimum(a, b))
        t1 = np.minimum(t1, np.maximum(a, b))
    return bool((inside & (t0 < t1)).any())


def _meets_a_probed_cube(kinds: np.ndarray, origin: tuple[int, int, int], start: Sequence[float],
                         end: Sequence[float]) -> bool:
    """Whether, in some layer of the range holding a full cube, the cube where the segment is halfway
    through that layer's height is full and meets the segment by the slab test (then the whole test
    finds it too: the line is blocked). A long look through a floor or a hillside (a player fallen
    below the hunters) is blocked in the first layer it crosses, where the whole test would run
    the slab test on every cube of its range. False says nothing (a level look is not probed)."""
    sx, sy, sz = (float(v) for v in start)
    dx, dy, dz = float(end[0]) - sx, float(end[1]) - sy, float(end[2]) - sz
    if dy == 0.0:
        return False
    (ox, oy, oz), (nx, _, nz) = origin, kinds.shape
    for layer, holds in enumerate(kinds.any(axis=(0, 2)).tolist()):
        if not holds:
            continue
        t = (oy + layer + 0.5 - sy) / dy
        if not 0.0 < t < 1.0:
            continue
        x, z = math.floor(sx + t * dx) - ox, math.floor(sz + t * dz) - oz
        if 0 <= x < nx and 0 <= z < nz and kinds[x, layer, z] == _FULL and _meets_cube(
                (x + ox, oy + layer, z + oz), start, end):
            return True
    return False


def _meets_cube(cell: tuple[int, int, int], start: Sequence[float], end: Sequence[float]) -> bool:
    """`segment_meets_box` for the full cube at `cell` (the same floats as `_meets_any`)."""
    x, y, z = (float(v) for v in cell)
    return segment_meets_box(start, end, (x, y, z, x + 1.0, y + 1.0, z + 1.0))


def _cells_crossed(shape: tuple[int, ...], origin: tuple[int, int, int], start: Sequence[float],
                   end: Sequence[float]) -> tuple[slice, slice, slice]:
    """The part of a window of `shape` cells from `origin` whose full cubes the slab test may find
    the segment in: on each axis the cells c with c < max(s, e) and c + 1 > min(s, e). Any other
    cube lies wholly on one side of the segment on that axis, and the slab test's floats say so too:
    (lo - s) / d and (hi - s) / d are rounded monotonically, so they never enter (0, 1) for it (and with
    d = 0, lo < s < hi fails). Cutting them off leaves the answer as it was: a segment above a floor
    whose range reaches it (the window starts 1.5 below the segment, for fences) skips the floor's cells."""
    window = []
    for axis in range(3):
        s, e = float(start[axis]), float(end[axis])
        low, high = (s, e) if s <= e else (e, s)
        first = max(math.floor(low) - origin[axis], 0)
        window.append(slice(first, max(min(math.ceil(high) - origin[axis], shape[axis]), first)))
    return tuple(window)


class SightArea:
    """`clear_line` for many segments in one region: the region's ids are read once (the first time a
    segment needs them); a segment reaching outside the region reads its own. Good while no block
    changes: `answers_as` says whether it still answers as a new one would (a creature tick keeps a
    player's area from tick to tick while the player stays in its cell and the world's `revision`
    holds: reading the ids of its 28,749 cells cost about a tenth of a millisecond)."""

    def __init__(self, world, low: tuple[int, int, int], high: tuple[int, int, int]) -> None:
        self._world = world
        self._low, self._high = low, high
        """The cells [low, high) the area covers."""
        self._ids: np.ndarray | None = None
        self._read_at = None
        """The world's `revision` when the ids were read (None: not read, or the world keeps none)."""
        self._solid: np.ndarray | None = None
        self._solid_layers: list[bool] = []
        """Whether each y layer of the area holds a solid block (a segment through none is clear)."""

    def answers_as(self, world, low: tuple[int, int, int], high: tuple[int, int, int]) -> bool:
        """Whether this area answers every segment as `SightArea(world, low, high)` made now would: the
        same world and cells, and its ids not read yet or read at the world's `revision` of now (a world
        without one: never)."""
        if world is not self._world or low != self._low or high != self._high:
            return False
        return self._ids is None or (self._read_at is not None and world.revision == self._read_at)

    def clear(self, start: Sequence[float], end: Sequence[float]) -> bool:
        x0, y0, z0, x1, y1, z1 = _segment_cells(start, end)
        (lx, ly, lz), (hx, hy, hz) = self._low, self._high
        if not (lx <= x0 and ly <= y0 and lz <= z0 and x1 <= hx and y1 <= hy and z1 <= hz):
            return clear_line(self._world, start, end)
        if self._ids is None:
            self._read_at = self._world.revision
            self._ids = self._world.ids_in_box(lx, ly, lz, hx, hy, hz)
            self._solid = SOLID.take(self._ids)  # take: twice as fast as indexing by the array
            self._solid_layers = self._solid.any(axis=(0, 2)).tolist()
        if not any(self._solid_layers[y0 - ly:y1 - ly]):
            return True  # no solid block anywhere in the area at the segment's heights
        window = (slice(x0 - lx, x1 - lx), slice(y0 - ly, y1 - ly), slice(z0 - lz, z1 - lz))
        if not self._solid[window].any():
            return True
        return _clear_in(self._world, self._ids[window], (x0, y0, z0), start, end)
