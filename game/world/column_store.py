"""The world's column store: the loaded columns, reading blocks by box, and the damage found in the file.

Owns: loading a column on the spot when a read touches it (`_column_at`: from the file if saved and
readable, else generated from the seed, `_load`) and taking it in (`_install`: its light starts,
a request for it is answered), reading the blocks of any box with the edge rule (`_ids_in_box`,
`ids_in_box`), whole columns (`column`) and padded sections for the mesher (`padded_section`), and
the damage found in the world file while playing (`WorldProblem`, `take_problems`,
`damaged_columns`): a damaged saved column is served as generated from the seed and reported once.
Does not own: writing blocks (`World.set_id`, `World._store_batch`), one cell's read (`World.id_at`,
kept beside the writes), background requests (`column_loading.py`), light (`light.py`), the file
(`storage.py`) or terrain (`terrain.py`).

`ColumnStore` is a part of `World` (a mixin behind the `World` façade): it keeps its state on the
World, which sets it up in `World.__init__`: `_columns` (the loaded columns), `_saved` (columns the
file holds), `_regenerated` (saved columns served from the seed), `_problems` (damage not yet taken)
and `_terrain`; `_install` also starts a column's light (`_light`) and answers its request
(`_requested`, `_ready`, `_generator`); it calls `_open_file` (a closed world refuses with
WorldClosedError).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .blocks import AIR
from .column import Column
from .coords import (ABOVE_WORLD, BELOW_WORLD, BLOCK_DTYPE, CHUNK_SIZE, LOCAL_MASK, SECTION_SHAPE, SECTION_SHIFT,
                     SECTIONS_PER_COLUMN, WORLD_HEIGHT, block_coordinate, column_coordinate, column_of)
from .storage import BLOCKS, CorruptWorldError
from .terrain import Terrain

PADDED_SIZE = CHUNK_SIZE + 2
"""Edge of a padded section: the section plus one block of its neighbours on every side."""

_AIR_SECTION = np.zeros(SECTION_SHAPE, dtype=BLOCK_DTYPE)
_AIR_SECTION.flags.writeable = False
_SECTION_MASK = ~LOCAL_MASK  # x & _SECTION_MASK is the first block of x's section


@dataclass(frozen=True)
class WorldProblem:
    """Damage found in the world file while playing; the game goes on (see `World.take_problems`)."""

    column: tuple[int, int]
    """(cx, cz) of the damaged column."""
    part: str
    """"blocks": the column is served as generated from the seed; "entities": its saved mobs are left out."""
    message: str
    """What is wrong and what the game does about it, for the player."""


class ColumnStore:
    """The World's loaded columns and box reads (see the module docstring for its state)."""

    _columns: dict[tuple[int, int], Column]
    _saved: set[tuple[int, int]]
    _regenerated: set[tuple[int, int]]
    _problems: list[WorldProblem]
    _terrain: Terrain

    def ids_in_box(self, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int) -> np.ndarray:
        """The ids of blocks [x0, x1) x [y0, y1) x [z0, z1) as a read-only [x, y, z] array (edge rule kept)."""
        return self._ids_in_box(x0, y0, z0, x1, y1, z1)

    def column(self, cx: int, cz: int) -> np.ndarray:
        """A new (16, 256, 16) uint16 array of column (cx, cz)'s ids, indexed [x, y, z] (local)."""
        return self._column_at(column_coordinate(cx, "cx"), column_coordinate(cz, "cz")).ids()

    def padded_section(self, cx: int, sy: int, cz: int) -> np.ndarray:
        """Section (cx, sy, cz) with a one-block border: a new (18, 18, 18) uint16 array, [x, y, z].

        Index 1..16 is the section itself (index i is local block i - 1); 0 and 17 come from the
        neighbouring sections and columns, generated if needed. The border keeps the edge rule:
        below y = 0 it is bedrock (solid, so the world's floor shows no faces), above y = 255 air.
        """
        cx, sy, cz = column_coordinate(cx, "cx"), block_coordinate(sy, "sy"), column_coordinate(cz, "cz")
        if not 0 <= sy < SECTIONS_PER_COLUMN:
            raise ValueError(f"section index sy must be 0..{SECTIONS_PER_COLUMN - 1}, got {sy}")
        x0, y0, z0 = cx * CHUNK_SIZE - 1, sy * CHUNK_SIZE - 1, cz * CHUNK_SIZE - 1
        return self._ids_in_box(x0, y0, z0, x0 + PADDED_SIZE, y0 + PADDED_SIZE, z0 + PADDED_SIZE)

    def _column_at(self, cx: int, cz: int) -> Column:
        column = self._columns.get((cx, cz))
        if column is None:
            self._open_file()
            column = self._load((cx, cz))
            self._install((cx, cz), column)
        return column

    def _load(self, key: tuple[int, int]) -> Column:
        """Column `key` from the file if it was saved and is readable, else from the seed (reporting
        the damage the first time)."""
        if key in self._saved and key not in self._regenerated:
            try:
                column = self._open_file().load_column(*key)
            except CorruptWorldError as error:
                self._regenerated.add(key)
                self._report(key, BLOCKS, error, "it is shown as generated from the seed, and its saved "
                                                 "bytes are kept unless you edit it")
                column = None
            if column is not None:
                return column
        return Column.from_ids(self._terrain.column(*key))

    def _install(self, key: tuple[int, int], column: Column) -> None:
        self._columns[key] = column
        self._light.column_added(key)
        noted = getattr(self, "_random_ticked_column_added", None)  # world_ticker: a saved column may hold saplings
        if noted is not None:
            noted(key)
        if key in self._requested:
            self._requested.discard(key)
            self._generator.cancel(*key)
            self._ready[key] = None

    def _ids_in_box(self, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int) -> np.ndarray:
        """The ids of blocks [x0, x1) x [y0, y1) x [z0, z1), indexed [x, y, z], keeping the edge rule.

        The caller passes ints with x0 < x1, y0 < y1, z0 < z1. Read-only: it may be a view of the
        world's storage, valid until the next write. Loads or generates the columns it touches.
        """
        if (x0 & _SECTION_MASK == (x1 - 1) & _SECTION_MASK and z0 & _SECTION_MASK == (z1 - 1) & _SECTION_MASK
                and y0 >= 0 and y1 <= WORLD_HEIGHT and y0 >> SECTION_SHIFT == (y1 - 1) >> SECTION_SHIFT):
            section = self._column_at(*column_of(x0, z0)).sections[y0 >> SECTION_SHIFT]
            if section is None:
                section = _AIR_SECTION
            view = section[x0 & LOCAL_MASK:((x1 - 1) & LOCAL_MASK) + 1, y0 & LOCAL_MASK:((y1 - 1) & LOCAL_MASK) + 1,
                           z0 & LOCAL_MASK:((z1 - 1) & LOCAL_MASK) + 1]
            view.flags.writeable = False
            return view
        out = np.empty((x1 - x0, y1 - y0, z1 - z0), dtype=BLOCK_DTYPE)
        out[:, :max(0, min(y1, 0) - y0)] = BELOW_WORLD
        out[:, max(0, WORLD_HEIGHT - y0):] = ABOVE_WORLD
        lo_y, hi_y = max(y0, 0), min(y1, WORLD_HEIGHT)
        if lo_y >= hi_y:
            return out  # wholly outside the build height: the edge rule alone
        (first_cx, first_cz), (last_cx, last_cz) = column_of(x0, z0), column_of(x1 - 1, z1 - 1)
        for cx in range(first_cx, last_cx + 1):
            ax, bx = max(x0, cx * CHUNK_SIZE), min(x1, (cx + 1) * CHUNK_SIZE)
            for cz in range(first_cz, last_cz + 1):
                az, bz = max(z0, cz * CHUNK_SIZE), min(z1, (cz + 1) * CHUNK_SIZE)
                sections = self._column_at(cx, cz).sections
                for sy in range(lo_y >> SECTION_SHIFT, ((hi_y - 1) >> SECTION_SHIFT) + 1):
                    ay, by = max(lo_y, sy * CHUNK_SIZE), min(hi_y, (sy + 1) * CHUNK_SIZE)
                    target = out[ax - x0:bx - x0, ay - y0:by - y0, az - z0:bz - z0]
                    section = sections[sy]
                    if section is None:
                        target.fill(AIR)
                    else:
                        target[...] = section[ax - cx * CHUNK_SIZE:bx - cx * CHUNK_SIZE, ay - sy * CHUNK_SIZE:
                                              by - sy * CHUNK_SIZE, az - cz * CHUNK_SIZE:bz - cz * CHUNK_SIZE]
        return out

    def take_problems(self) -> list[WorldProblem]:
        """The damage found in the world file since the last call, oldest first, and forget it: each
        damaged column or entity list is reported once. For the window (or a run's report) to show the player."""
        problems, self._problems = self._problems, []
        return problems

    @property
    def damaged_columns(self) -> frozenset[tuple[int, int]]:
        """Saved columns whose blocks are damaged, served as generated from the seed; a column leaves
        this set when an edit of it is saved (its damaged bytes kept in the file's `damaged_columns`)."""
        return frozenset(self._regenerated)

    def _report(self, key: tuple[int, int], part: str, error: CorruptWorldError, done: str) -> None:
        self._problems.append(WorldProblem(key, part, f"{error}; {done}"))
