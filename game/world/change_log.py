"""The world's change log: what changed in the world since its record was last taken.

Owns: `BlockChange` (one cell's block before and after), `WorldChanges` (the world's part of a
tick's record, `game.rules.tick_changes.TickChanges`: the cells changed, the sections whose mesh
changed, the sections whose light still waits, the columns now unsaved) and `ChangeLog`, which
`World` writes into as it changes: `set_id` (one cell), the fluid batches (`_store_batch`, many
cells as arrays) and every light resolve (the sections whose padded light changed). `World.take_changes`
takes it once a tick (the session's record), so nothing has to ask the world what changed.
Does not own: which sections a cell's change touches (`coords.sections_seeing`), light
(`light.py`: it says which sections it changed and which still wait), when columns count as
unsaved (`World`: it passes its own set), or the bodies, sounds and notices of a tick (`game.rules.tick_changes`).

A cell changed several times between two takes is one `BlockChange`: its block at the last take
(`old`) and now (`new`); a cell that is back to what it was is left out, as nothing about it
changed. Its sections stay listed (a mesh built in between may have shown the other block).
Pure Python and numpy; no clock.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .blocks import NAMES

Cell = tuple[int, int, int]
SectionKey = tuple[int, int, int]
"""(cx, sy, cz): section sy (blocks 16 sy .. 16 sy + 15) of column (cx, cz)."""
ColumnKey = tuple[int, int]


class BlockChange(NamedTuple):
    """Cell `cell` (x, y, z) held block `old` (a registry name) and now holds `new`. A named tuple:
    immutable, and made ~3x faster than a frozen dataclass (a flood changes thousands of cells a tick)."""

    cell: Cell
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class WorldChanges:
    """What the world did between two `World.take_changes` calls (one tick of a session)."""

    blocks: tuple[BlockChange, ...] = ()
    """Every cell whose block changed, with its block before and after, sorted by cell (x, y, z)."""
    sections: frozenset[SectionKey] = frozenset()
    """Sections whose mesh may have changed: their padded blocks (the cells above and the cells
    on their borders) or their padded light changed. Re-meshing these keeps every mesh exact."""
    light_waiting: frozenset[SectionKey] = frozenset()
    """Sections holding changed cells whose light is not brought up to date yet (the light phase's
    budget ran out): their light, and up to `light.REACH` blocks around them, may still change.
    When it does, the sections it changed are in a later record's `sections`."""
    unsaved_columns: frozenset[ColumnKey] = frozenset()
    """Every column (cx, cz) holding edits the next save writes (the world's own set, as it is now)."""


COMPACT_ROWS = 65_536
"""[rows] Noted writes kept as they came before they are merged to one row per cell (about 2.5 MiB):
a world ticked for long with nobody taking its log (a benchmark, a script) stays bounded by the
cells it changed, not by the writes."""


class ChangeLog:
    """The changes since the last `take`: cells with their first old and last new block ids, and sections.

    Single-cell writes are kept in a dict (cheap to note); a batch of cells comes as arrays and
    stays arrays until `take` (merged to one row per cell past COMPACT_ROWS), so a tick that floods
    thousands of cells pays for them once, in numpy. Noting checks nothing but a batch's lengths:
    its callers are the world's own writes.
    """

    def __init__(self) -> None:
        self._cells: dict[Cell, list[int]] = {}
        """The latest run of single-cell writes: cell -> [first old id, last new id]."""
        self._segments: list[np.ndarray] = []
        """Earlier writes, in order: (n, 5) int64 rows (x, y, z, old id, new id)."""
        self._segment_rows = 0
        self._sections: set[SectionKey] = set()

    # --- noting ---------------------------------------------------------------------------------

    def block_changed(self, x: int, y: int, z: int, old: int, new: int) -> None:
        """Cell (x, y, z) went from block id `old` to `new` (ints; the world's `set_id`)."""
        entry = self._cells.get((x, y, z))
        if entry is None:
            self._cells[(x, y, z)] = [old, new]
        else:
            entry[1] = new

    def blocks_changed(self, xs: np.ndarray, ys: np.ndarray, zs: np.ndarray, old: np.ndarray,
                       new: np.ndarray) -> None:
        """Many cells changed at once (equal-length int arrays, at most one row per cell): cell
        (xs[i], ys[i], zs[i]) went from `old[i]` to `new[i]`. ValueError for arrays of unequal lengths."""
        columns = [np.asarray(values, dtype=np.int64).reshape(-1) for values in (xs, ys, zs, old, new)]
        if len({len(values) for values in columns}) != 1:
            raise ValueError(f"a batch of block changes needs arrays of one length, got {[len(c) for c in columns]}")
        if not len(columns[0]):
            return
        self._flush()
        self._add_segment(np.stack(columns, axis=1))

    def sections_changed(self, sections: Iterable[SectionKey]) -> None:
        """Sections (cx, sy, cz) whose mesh may have changed (their blocks' or their light's)."""
        self._sections.update(sections)

    # --- taking ---------------------------------------------------------------------------------

    def take(self, *, light_waiting: Iterable[SectionKey] = (), unsaved_columns: Iterable[ColumnKey] = ()
             ) -> WorldChanges:
        """Everything noted since the last call as a `WorldChanges` (with the light and the unsaved
        columns the world passes, as they are now), and forget it."""
        blocks = self._take_blocks()
        sections, self._sections = self._sections, set()
        return WorldChanges(blocks, frozenset(sections), frozenset(light_waiting), frozenset(unsaved_columns))

    def _take_blocks(self) -> tuple[BlockChange, ...]:
        if not self._segments:
            if not self._cells:
                return ()
            cells, self._cells = self._cells, {}
            return tuple(BlockChange(cell, NAMES[old], NAMES[new])
                         for cell, (old, new) in sorted(cells.items()) if old != new)
        self._flush()
        rows = self._merged()
        self._segments, self._segment_rows = [], 0
        return tuple(BlockChange((x, y, z), NAMES[old], NAMES[new]) for x, y, z, old, new in rows.tolist())

    def _merged(self) -> np.ndarray:
        """The noted segments as one row per cell (its first old and last new id), sorted by cell,
        without the cells that are back to their first block."""
        rows = np.concatenate(self._segments) if len(self._segments) > 1 else self._segments[0]
        order = np.lexsort((np.arange(len(rows)), rows[:, 2], rows[:, 1], rows[:, 0]))  # by cell, then as noted
        rows = rows[order]
        same_cell = np.all(rows[1:, :3] == rows[:-1, :3], axis=1)
        firsts = np.flatnonzero(np.concatenate([[True], ~same_cell]))
        lasts = np.flatnonzero(np.concatenate([~same_cell, [True]]))
        merged = rows[firsts]
        merged[:, 4] = rows[lasts, 4]
        return merged[merged[:, 3] != merged[:, 4]]

    def _add_segment(self, rows: np.ndarray) -> None:
        self._segments.append(rows)
        self._segment_rows += len(rows)
        if self._segment_rows > COMPACT_ROWS and len(self._segments) > 1:
            merged = self._merged()  # nobody took the log for a while: keep one row per cell
            self._segments, self._segment_rows = [merged], len(merged)

    def _flush(self) -> None:
        """Move the single-cell writes into `_segments`, keeping the order of everything noted."""
        if self._cells:
            self._add_segment(np.array([(*cell, old, new) for cell, (old, new) in self._cells.items()],
                                       dtype=np.int64).reshape(-1, 5))
            self._cells = {}
