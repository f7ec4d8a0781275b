"""The world-query protocol physics reads the world through, and `BlockGrid`, a small sparse world.

Owns: `CollisionWorld` (what physics needs from any world) and `BlockGrid` (a dictionary of
blocks for tests, tools and the physics lab).
Does not own: chunked storage, terrain or saving (the game's `game.world` implements the same
protocol over numpy chunks).

Rules every `CollisionWorld` must keep:
- `collision_boxes(region)` yields every solid box whose interior overlaps `region`'s interior.
  It may yield more (boxes near the region), never fewer. Shapes taller than their cell (fences)
  must be found from the cell below.
- `slipperiness(x, y, z)` (optional) is the slipperiness of block (x, y, z); 0.6 when absent,
  which is also the value for air and ordinary blocks; ice is 0.98.
- `revision` (optional) is an int that changes whenever any block changes. A `Crowd` keeps the
  block boxes it gathered while it stays the same; without it, boxes are gathered every tick.
- `cells_changed_since(revision)` (optional, with `revision`) names the cells changed after that
  revision: an iterable of (x, y, z) ints, or None when the world no longer knows (`CellJournal`
  keeps that record). A `Crowd` then forgets only the boxes around those cells, not all it
  gathered, when the revision moves on.
- `collision_box_array(x0, y0, z0, x1, y1, z1)` (optional) answers `collision_boxes` for the
  whole cells [x0, x1) x [y0, y1) x [z0, z1) (ints) as one float64 (k, 6) array of corners: the
  same boxes to the bit, in any order. A `Crowd`'s world cache then asks for its tiles of ground
  without a Python object per box.
- `material(x, y, z)` (optional) is the `physics.Material` of block (x, y, z), and
  `flow(x, y, z)` (optional) the current of a fluid block (Beta's `getFlowVector`, a unit vector
  or zero). Without them a cell is SOLID where the boxes fill it, AIR elsewhere, and nothing
  flows: such a world moves bodies as dry land does. `materials_in(x0, y0, z0, x1, y1, z1)`
  (optional) answers many cells at once (see `materials.py`), and `material_array(x0, y0, z0,
  x1, y1, z1)` (optional) the same as one int8 array of codes indexed [x - x0, y - y0, z - z0],
  AIR included.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from .aabb import AABB
from .materials import NO_FLOW, Cells, Material, require_flow, require_material
from .shapes import FULL_CUBE, MAX_SHAPE_TOP, Shape, placed
from .messages import shown

DEFAULT_SLIPPERINESS = 0.6
"""Slipperiness of ordinary blocks and of air (Beta's `Block.slipperiness` default)."""
MIN_SLIPPERINESS = 0.01
"""[1] Smallest slipperiness a block may have. Beta's ground acceleration is 0.1 x 0.16277136 /
(0.91 x slipperiness)^3 blocks/tick^2 (in float32): at 0.01 it is ~21,700, still far within
`tolerances.MAX_DISPLACEMENT`; below ~0.003 it passes that, and at 1e-320 the float32 cube is 0
and the step divided by zero. Beta's own blocks are 0.6 to 0.98."""


@runtime_checkable
class CollisionWorld(Protocol):
    """What physics needs from a world: the solid boxes in a region."""

    def collision_boxes(self, region: AABB) -> Iterable[AABB]:
        """Every solid box whose interior overlaps `region` (may return more, never fewer)."""
        ...


def slipperiness_at(world: CollisionWorld, x: int, y: int, z: int) -> float:
    """The world's slipperiness for block (x, y, z), or the default when the world has none.
    ValueError when the world answers with something outside [MIN_SLIPPERINESS, 1] (before any body
    changes)."""
    query = getattr(world, "slipperiness", None)
    if query is None:
        return DEFAULT_SLIPPERINESS
    value = query(x, y, z)
    if not _is_slipperiness(value):
        raise ValueError(f"the world's slipperiness at {(x, y, z)} must be a number in [{MIN_SLIPPERINESS:g}, 1], "
                         f"got {shown(value)}")
    return value


def _is_slipperiness(value: object) -> bool:
    """Is `value` an int or float in [MIN_SLIPPERINESS, 1]?"""
    return not isinstance(value, bool) and isinstance(value, (int, float)) and MIN_SLIPPERINESS <= value <= 1.0


JOURNAL_CELLS = 4096
"""[cells] A `CellJournal` remembers this many of the latest changed cells: a few ticks of many
players digging and building (each tick of 100 players changes a handful), while a flood of
thousands of cells in one tick runs past it, and then a crowd gathers every box again, as it
would have to for that many changes anyway."""


class CellJournal:
    """The cells a world changed at each revision, the latest JOURNAL_CELLS of them: the record
    behind the optional `cells_changed_since` of the `CollisionWorld` rules.

    `record(revision, cells)` after each change (the world's revision once the change is made;
    `cells` a list of (x, y, z) ints, or None for more cells than the journal holds);
    `since(revision)` gives every cell changed after `revision` (a list of (x, y, z), repeats
    possible), or None when cells changed after it have been dropped (or the revision is one the
    journal never saw)."""

    def __init__(self, capacity: int = JOURNAL_CELLS) -> None:
        self._capacity = capacity
        self._entries: deque[tuple[int, list[tuple[int, int, int]]]] = deque()
        self._cells = 0
        self._complete_from = 0
        """Every change after this revision is in `_entries`."""
        self._latest = 0

    def record(self, revision: int, cells: list[tuple[int, int, int]] | None) -> None:
        """Cells changed, bringing the world to `revision` (larger than the last); None: too many to list."""
        self._latest = revision
        if cells is None or len(cells) > self._capacity:
            self._entries.clear()
            self._cells = 0
            self._complete_from = revision
            return
        self._entries.append((revision, cells))
        self._cells += len(cells)
        while self._cells > self._capacity:
            dropped_at, dropped = self._entries.popleft()
            self._cells -= len(dropped)
            self._complete_from = dropped_at

    def since(self, revision: int) -> list[tuple[int, int, int]] | None:
        """Every cell changed after `revision`, or None when the journal cannot say."""
        if not self._complete_from <= revision <= self._latest:
            return None
        found: list[tuple[int, int, int]] = []
        for at, cells in reversed(self._entries):
            if at <= revision:
                break
            found.extend(cells)
        return found


_BELOW = math.ceil(MAX_SHAPE_TOP) - 1  # cells below a region whose shapes may reach into it


class BlockGrid:
    """A sparse set of blocks keyed by integer cell; a `CollisionWorld` for tests and tools.

    Each cell stores its shape already placed in world coordinates, so a query only looks
    cells up. A query visits the region's cells, or every stored cell when that is fewer
    (so a 100-block move over a small grid stays cheap). Boxes and materials are also filed by
    column ((x, z), then y), which the region queries read: one tuple-keyed lookup per column.
    """

    def __init__(self) -> None:
        self._boxes: dict[tuple[int, int, int], tuple[AABB, ...]] = {}
        self._box_columns: dict[tuple[int, int], _Column] = {}  # the non-empty shapes, by (x, z) then y
        self._slipperiness: dict[tuple[int, int, int], float] = {}
        self._materials: dict[tuple[int, int, int], Material] = {}  # every block's material
        self._material_columns: dict[tuple[int, int], _Column] = {}  # the same, by (x, z) then y
        self._flows: dict[tuple[int, int, int], tuple[float, float, float]] = {}  # non-zero currents only
        self._revision = 0
        self._journal = CellJournal()

    def set(self, x: int, y: int, z: int, shape: Shape = FULL_CUBE, slipperiness: float = DEFAULT_SLIPPERINESS,
            material: Material = Material.SOLID, flow: tuple[float, float, float] = NO_FLOW) -> None:
        """Put a block with `shape` (block-local boxes) at cell (x, y, z), replacing what was there.

        `material` says how it moves bodies (water and lava: shape EMPTY; a ladder: a
        `shapes.LADDER` shape), `flow` is a fluid cell's current. Bad values raise TypeError or
        ValueError and change nothing."""
        key = (_cell(x), _cell(y), _cell(z))
        material, flow = _checked_block(shape, slipperiness, material, flow)
        boxes = self._boxes[key] = placed(shape, *key)
        if boxes:
            _file(self._box_columns, key, boxes)
        else:
            _unfile(self._box_columns, key)
        self._materials[key] = material
        _file(self._material_columns, key, material)
        self._revision += 1
        self._journal.record(self._revision, [key])
        if slipperiness == DEFAULT_SLIPPERINESS:
            self._slipperiness.pop(key, None)
        else:
            self._slipperiness[key] = float(slipperiness)
        if flow == NO_FLOW:
            self._flows.pop(key, None)
        else:
            self._flows[key] = flow

    def fill(self, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int, shape: Shape = FULL_CUBE,
             slipperiness: float = DEFAULT_SLIPPERINESS, material: Material = Material.SOLID,
             flow: tuple[float, float, float] = NO_FLOW) -> None:
        """Set every cell of the inclusive cuboid (x0, y0, z0)..(x1, y1, z1) (at most
        MAX_FILL_CELLS; bad values raise before any cell changes)."""
        x0, y0, z0, x1, y1, z1 = (_cell(v) for v in (x0, y0, z0, x1, y1, z1))
        cells = (abs(x1 - x0) + 1) * (abs(y1 - y0) + 1) * (abs(z1 - z0) + 1)
        if cells > MAX_FILL_CELLS:
            raise ValueError(f"fill sets at most {MAX_FILL_CELLS} cells, asked for {cells}")
        _checked_block(shape, slipperiness, material, flow)  # before any cell changes
        for x in range(min(x0, x1), max(x0, x1) + 1):
            for y in range(min(y0, y1), max(y0, y1) + 1):
                for z in range(min(z0, z1), max(z0, z1) + 1):
                    self.set(x, y, z, shape, slipperiness, material, flow)

    def remove(self, x: int, y: int, z: int) -> None:
        """Make cell (x, y, z) air (no error if it already is)."""
        key = (_cell(x), _cell(y), _cell(z))
        if self._boxes.pop(key, None) is not None:
            _unfile(self._box_columns, key)
            self._revision += 1
            self._journal.record(self._revision, [key])
        self._slipperiness.pop(key, None)
        if self._materials.pop(key, None) is not None:
            _unfile(self._material_columns, key)
        self._flows.pop(key, None)

    def material(self, x: int, y: int, z: int) -> Material:
        """The material of block (x, y, z) (AIR where there is none)."""
        return self._materials.get((x, y, z), Material.AIR)

    def flow(self, x: int, y: int, z: int) -> tuple[float, float, float]:
        """The current of block (x, y, z) ((0, 0, 0) where none was set)."""
        return self._flows.get((x, y, z), NO_FLOW)

    def materials_in(self, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int) -> Cells:
        """Every block of the inclusive cuboid with its material, in x, then y, then z order."""
        stored = self._materials
        if (x1 - x0 + 1) * (y1 - y0 + 1) * (z1 - z0 + 1) > len(stored):
            return {k: stored[k] for k in sorted(k for k in stored
                                                 if x0 <= k[0] <= x1 and y0 <= k[1] <= y1 and z0 <= k[2] <= z1)}
        found: Cells = {}
        column_at = self._material_columns.get
        for x in range(x0, x1 + 1):
            columns, rows = _columns_of_row(column_at, x, y0, y1, z0, z1)
            if columns:
                for y in rows:
                    for z, cells in columns:
                        m = cells.get(y)
                        if m is not None:
                            found[(x, y, z)] = m
        return found

    @property
    def revision(self) -> int | None:
        """Counts changes (see the CollisionWorld rules)."""
        return self._revision

    def cells_changed_since(self, revision: int) -> list[tuple[int, int, int]] | None:
        """The cells changed after `revision` (see the CollisionWorld rules and `CellJournal`)."""
        return self._journal.since(revision)

    def has_block(self, x: int, y: int, z: int) -> bool:
        return (x, y, z) in self._boxes

    def cells(self) -> Iterable[tuple[int, int, int]]:
        """Every occupied cell."""
        return self._boxes.keys()

    def boxes_at(self, x: int, y: int, z: int) -> tuple[AABB, ...]:
        """The world-space boxes of cell (x, y, z) (empty for air)."""
        return self._boxes.get((x, y, z), ())

    def __len__(self) -> int:
        return len(self._boxes)

    def slipperiness(self, x: int, y: int, z: int) -> float:
        return self._slipperiness.get((x, y, z), DEFAULT_SLIPPERINESS)

    def collision_boxes(self, region: AABB) -> list[AABB]:
        rx0, ry0, rz0, rx1, ry1, rz1 = region
        # Cell i spans [i, i + 1): it can overlap (lo, hi) only for floor(lo) <= i <= ceil(hi) - 1.
        x0, x1 = math.floor(rx0), math.ceil(rx1) - 1
        y0, y1 = math.floor(ry0) - _BELOW, math.ceil(ry1) - 1
        z0, z1 = math.floor(rz0), math.ceil(rz1) - 1
        found: list[AABB] = []
        stored = self._boxes
        volume = (x1 - x0 + 1) * (y1 - y0 + 1) * (z1 - z0 + 1)
        if volume > len(stored):
            candidates = [
                boxes for (x, y, z), boxes in stored.items()
                if x0 <= x <= x1 and y0 <= y <= y1 and z0 <= z <= z1
            ]
            for boxes in candidates:
                for b in boxes:
                    if b[3] > rx0 and b[0] < rx1 and b[4] > ry0 and b[1] < ry1 and b[5] > rz0 and b[2] < rz1:
                        found.append(b)
            return found
        # The cells in x, then y, then z order, read column by column as `materials_in` does
        # (empty shapes, water and webs, are not filed).
        column_at = self._box_columns.get
        for x in range(x0, x1 + 1):
            columns, rows = _columns_of_row(column_at, x, y0, y1, z0, z1)
            if columns:
                for y in rows:
                    for _, cells in columns:
                        boxes = cells.get(y)
                        if boxes:
                            for b in boxes:
                                if (b[3] > rx0 and b[0] < rx1 and b[4] > ry0 and b[1] < ry1 and b[5] > rz0
                                        and b[2] < rz1):
                                    found.append(b)
        return found



def _columns_of_row(column_at, x: int, y0: int, y1: int, z0: int, z1: int) -> tuple[list, range]:
    """The filed columns at `x`, z0..z1, that hold a cell within y0..y1, as (z, cells) in z order, and
    the rows y0..y1 that any of them spans (`column_at`: a `BlockGrid` column table's `get`; loops:
    cheaper than comprehensions for the few columns of a body)."""
    columns = []
    low, high = y1, y0
    for z in range(z0, z1 + 1):
        column = column_at((x, z))
        if column is not None and column.low <= y1 and column.high >= y0:
            columns.append((z, column.cells))
            if column.low < low:
                low = column.low
            if column.high > high:
                high = column.high
    return columns, range(low if low > y0 else y0, (high if high < y1 else y1) + 1)

class _Column:
    """What a `BlockGrid` stores in one (x, z) column, by y, with the lowest and highest y stored:
    a query over rows that miss them skips the column (a body above the ground reads no cells)."""

    __slots__ = ("low", "high", "cells")

    def __init__(self, y: int, value) -> None:
        self.low = self.high = y
        self.cells = {y: value}


def _file(columns: dict[tuple[int, int], _Column], key: tuple[int, int, int], value) -> None:
    """Store `value` for cell `key` in its column (replacing what was there)."""
    x, y, z = key
    column = columns.get((x, z))
    if column is None:
        columns[(x, z)] = _Column(y, value)
        return
    column.cells[y] = value
    if y < column.low:
        column.low = y
    elif y > column.high:
        column.high = y


def _unfile(columns: dict[tuple[int, int], _Column], key: tuple[int, int, int]) -> None:
    """Drop cell `key` from its column (no error if it is not there); an emptied column goes."""
    x, y, z = key
    column = columns.get((x, z))
    if column is None or column.cells.pop(y, None) is None:
        return
    if not column.cells:
        del columns[(x, z)]
    elif y == column.low:
        column.low = min(column.cells)
    elif y == column.high:
        column.high = max(column.cells)


def _checked_block(shape: Shape, slipperiness: float, material: Material,
                   flow: tuple[float, float, float]) -> tuple[Material, tuple[float, float, float]]:
    """The block's material and flow as stored, after checking every value (TypeError or ValueError)."""
    if not _is_slipperiness(slipperiness):
        raise ValueError(f"slipperiness must be a number in [{MIN_SLIPPERINESS:g}, 1], got {shown(slipperiness)}")
    for box in shape:
        if not isinstance(box, AABB):
            raise TypeError(f"a shape is a tuple of AABB, got {shown(box)}")
    material = require_material(material)
    if material == Material.AIR:
        raise ValueError("a block cannot be made of AIR (use remove)")
    return material, require_flow(flow)


MAX_CELL_COORDINATE = 1 << 31
"""[blocks] Largest |coordinate| of a `BlockGrid` cell: Minecraft's worlds end at 3e7, and beyond
2**31 a cell key no longer fits the 32-bit ints the game's storage uses."""
MAX_FILL_CELLS = 1 << 24
"""[cells] Largest cuboid `BlockGrid.fill` sets in one call (256^3, ~2 GB of Python objects at
~120 bytes a cell): a larger one is a unit mistake that would hang the program."""


def _cell(v: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        else:
            raise TypeError(f"block coordinates are integers, got {shown(v)}")
    if not -MAX_CELL_COORDINATE <= v <= MAX_CELL_COORDINATE:
        raise ValueError(f"block coordinates are within +-{MAX_CELL_COORDINATE}, got {shown(v)}")
    return v
