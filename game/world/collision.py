"""Collision boxes from a block of ids: the numpy half of `World.collision_boxes`.

Owns: turning an id array (indexed [x, y, z], placed at a world origin) into the world-space
boxes of its solid blocks that overlap a region (as `physics.shapes.placed` places them, cached per
block id and cell in a `PlacedShapeCache` each World holds), and the rule for which cells a
region needs (fences reach up from the cell below). The same cache, made over the selection
shapes, gives the boxes the look ray hits (`World.selection_boxes`). `placed_box_array` places the
same boxes on arrays, for physics' many-boxes query (`World.collision_box_array`).
Does not own: reading ids from columns or the edge rule (see `world.py` and `coords.py`).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable

import numpy as np

from physics import AABB
from physics.shapes import MAX_SHAPE_TOP

from physics.shapes import Shape

from .blocks import SHAPES, SOLID

PLACED_CACHE_ENTRIES = 32768
"""Entries a world's `PlacedShapeCache` keeps: about 15 MB when full (~450 bytes each, measured
with tracemalloc); it fills only as far as play needs. A walking player's query touches 6 solid
cells on average (12 at most, over the 64 regions of `python -m bench world`), but a crowd's
broad phase asks for whole tiles of ground: 100 players with their ~500 mobs (`python -m bench
session`) use 16,000-32,000 cells a tick. At 4,096 entries that crowd missed ~13,700 of them every
tick (about a fifth of its tick went on rebuilding boxes); at 32,768, ~400."""


SMALL_QUERY_CELLS = 8
"""[cells] A collision query over at most this many cells reads them one by one
(`PlacedShapeCache.boxes_in_cells`) rather than as an id array (`boxes_in`). Measured on seed 42's
spawn (2-core machine, quiet): 4 cells 4.7 us against 10.8 us, 6 cells 5.9 against 9.9, 16 cells
13.1 against 13.8, 36 cells 26.7 against 21.2: about 0.7 us a cell against a fixed ~9 us of array
work, so only the smallest queries take it: a mob's look below its probe (6 cells)."""


def cell_range(region: AABB) -> tuple[int, int, int, int, int, int]:
    """The cells [x0, x1) x [y0, y1) x [z0, z1) whose shapes can overlap `region`'s interior.

    A cell i can only overlap (lo, hi) when i + 1 > lo and i < hi, so i runs from floor(lo) to
    ceil(hi) - 1. On y a shape may rise MAX_SHAPE_TOP above its cell's floor (fences), so the
    range starts at the lowest cell with y + MAX_SHAPE_TOP > lo: floor(lo - MAX_SHAPE_TOP) + 1.
    """
    rx0, ry0, rz0, rx1, ry1, rz1 = region
    return (math.floor(rx0), math.floor(ry0 - MAX_SHAPE_TOP) + 1, math.floor(rz0),
            math.ceil(rx1), math.ceil(ry1), math.ceil(rz1))


class PlacedShapeCache:
    """(block id, x, y, z) -> that block's shape placed at cell (x, y, z), for `World.collision_boxes`.

    Keyed by id as well as cell, so an edit simply misses; nothing ever needs invalidating. Holds
    at most `capacity` entries, dropping the oldest first: a hit then costs one dict lookup (no
    recency bookkeeping), and a dropped entry that is needed again is rebuilt in about a microsecond.
    An entry of a one-box shape (a full cube, the common case) is that AABB itself, not a 1-tuple of
    it: a full cache holds tens of thousands of entries, and every tuple holding an AABB is one more
    object each of Python's full garbage collections walks (they found nothing to free in them, and
    took 28-31 ms a collection with 100 players, about half of it on this cache).
    """

    __slots__ = ("capacity", "_boxes", "_shapes", "_has_shape", "_has_shape_by_id")

    def __init__(self, capacity: int = PLACED_CACHE_ENTRIES, shapes: tuple[Shape, ...] = SHAPES,
                 has_shape: np.ndarray = SOLID) -> None:
        """`shapes`: the block-local boxes by id (the collision shapes, or `blocks.SELECTION_SHAPES`);
        `has_shape`: by id, whether that shape has any box."""
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"capacity must be a positive int, got {capacity!r}")
        self.capacity = capacity
        self._shapes, self._has_shape = shapes, has_shape
        self._has_shape_by_id: list[bool] = has_shape.tolist()
        self._boxes: OrderedDict[tuple[int, int, int, int], AABB | tuple[AABB, ...]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._boxes)

    def boxes_in(self, ids: np.ndarray, x0: int, y0: int, z0: int, region: AABB) -> list[AABB]:
        """The world-space boxes of the solid blocks of `ids` (whose [0, 0, 0] is block (x0, y0, z0))
        whose interiors overlap `region` (strictly: touching boxes are left out)."""
        solid = self._has_shape[ids]
        xs, ys, zs = np.nonzero(solid)
        if not xs.size:
            return []
        rx0, ry0, rz0, rx1, ry1, rz1 = region
        found = []
        cached = self._boxes.get
        for i, j, k, block in zip(xs.tolist(), ys.tolist(), zs.tolist(), ids[solid].tolist()):
            key = (block, x0 + i, y0 + j, z0 + k)
            boxes = cached(key)
            if boxes is None:
                boxes = self._add(key)
            if boxes.__class__ is AABB:  # a one-box entry (no 1-tuple made to loop over it)
                if (boxes[3] > rx0 and boxes[0] < rx1 and boxes[4] > ry0 and boxes[1] < ry1 and boxes[5] > rz0
                        and boxes[2] < rz1):
                    found.append(boxes)
                continue
            for b in boxes:
                if b[3] > rx0 and b[0] < rx1 and b[4] > ry0 and b[1] < ry1 and b[5] > rz0 and b[2] < rz1:
                    found.append(b)
        return found

    def boxes_in_cells(self, id_at: Callable[[int, int, int], int], x0: int, y0: int, z0: int, x1: int, y1: int,
                       z1: int, region: AABB) -> list[AABB]:
        """`boxes_in` for the cells [x0, x1) x [y0, y1) x [z0, z1), reading each cell's id with
        `id_at(x, y, z)` instead of from an array: the same boxes in the same order (cells in x,
        then y, then z order), cheaper for a few cells (see SMALL_QUERY_CELLS). Its inner loop is
        `boxes_in`'s, written out again: a shared helper over a stream of keys cost the array path
        15-100 % more in `python -m bench world`'s player-sized query."""
        has_shape = self._has_shape_by_id
        rx0, ry0, rz0, rx1, ry1, rz1 = region
        found = []
        cached = self._boxes.get
        for x in range(x0, x1):
            for y in range(y0, y1):
                for z in range(z0, z1):
                    block = id_at(x, y, z)
                    if not has_shape[block]:
                        continue
                    key = (block, x, y, z)
                    boxes = cached(key)
                    if boxes is None:
                        boxes = self._add(key)
                    if boxes.__class__ is AABB:  # a one-box entry, as in `boxes_in`
                        if (boxes[3] > rx0 and boxes[0] < rx1 and boxes[4] > ry0 and boxes[1] < ry1
                                and boxes[5] > rz0 and boxes[2] < rz1):
                            found.append(boxes)
                        continue
                    for b in boxes:
                        if b[3] > rx0 and b[0] < rx1 and b[4] > ry0 and b[1] < ry1 and b[5] > rz0 and b[2] < rz1:
                            found.append(b)
        return found

    def _add(self, key: tuple[int, int, int, int]) -> AABB | tuple[AABB, ...]:
        """Block key[0]'s shape placed at cell key[1:], remembered (dropping the oldest entry when
        full): its one AABB, or a tuple of its AABBs (see the class docstring)."""
        if len(self._boxes) >= self.capacity:
            self._boxes.popitem(last=False)
        block, x, y, z = key
        # `physics.shapes.placed` without its checks: the shapes are the game's own AABBs and the
        # cell is ints from an id array's indices, so they always pass (and a crowd misses often).
        boxes = tuple(AABB._trusted(b[0] + x, b[1] + y, b[2] + z, b[3] + x, b[4] + y, b[5] + z)
                      for b in self._shapes[block])
        entry = self._boxes[key] = boxes[0] if len(boxes) == 1 else boxes
        return entry


class ShapeTable:
    """Block shapes by id as arrays, for placing many blocks' boxes at once (`placed_box_array`):
    `boxes[id, k]` the k-th block-local box of that id's shape (NaN past its count), `counts[id]`
    how many it has."""

    __slots__ = ("boxes", "counts")

    def __init__(self, shapes: tuple[Shape, ...]) -> None:
        self.counts = np.array([len(shape) for shape in shapes], dtype=np.int64)
        self.boxes = np.full((len(shapes), max(1, int(self.counts.max())), 6), np.nan)
        for block, shape in enumerate(shapes):
            for k, box in enumerate(shape):
                self.boxes[block, k] = tuple(box)


COLLISION_SHAPES = ShapeTable(SHAPES)
"""The collision shapes as arrays (`World.collision_box_array`)."""


def placed_box_array(ids: np.ndarray, x0: int, y0: int, z0: int, region: AABB,
                     table: ShapeTable = COLLISION_SHAPES) -> np.ndarray:
    """`PlacedShapeCache.boxes_in`'s boxes as one float64 (k, 6) array of corners, in no particular
    order: each solid block of `ids` (whose [0, 0, 0] is block (x0, y0, z0)) placed at its cell
    (block-local corner + cell, the same additions in floats as `physics.shapes.placed`, so the same
    bits), those whose interiors overlap `region` (strictly). A crowd's world cache asks for whole
    tiles of ground, where making an AABB per block cost it most of its asking."""
    counts = table.counts.take(ids)
    i, j, k = counts.nonzero()
    if not i.size:
        return np.empty((0, 6))
    per_cell = counts[i, j, k]
    owner = np.arange(i.size).repeat(per_cell)
    slot = np.arange(owner.size) - (per_cell.cumsum() - per_cell).repeat(per_cell)
    local = table.boxes[ids[i, j, k].take(owner), slot]
    cells = np.stack(((x0 + i).take(owner), (y0 + j).take(owner), (z0 + k).take(owner)), axis=1)
    boxes = local + np.concatenate((cells, cells), axis=1)
    rx0, ry0, rz0, rx1, ry1, rz1 = region
    meets = ((boxes[:, 3] > rx0) & (boxes[:, 0] < rx1) & (boxes[:, 4] > ry0) & (boxes[:, 1] < ry1)
             & (boxes[:, 5] > rz0) & (boxes[:, 2] < rz1))
    return boxes[meets]
