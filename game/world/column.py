"""Column: the block ids of one 16 x 256 x 16 column, kept as 16 sections; all-air sections are absent.

Owns: how one column's ids are held in memory (a list of 16 sections, each a (16, 16, 16)
uint16 array indexed [x, y, z] or None for all air), conversion to and from a dense
(16, 256, 16) array, and the column's byte form (shared by saves and the generation workers).
Does not own: where a column sits in the world, terrain, or compression (see `storage.py`).

Byte form: a little-endian uint16 bit mask of the allocated sections (bit sy set = present),
then each present section's 4096 ids as little-endian uint16 in C order of [x, y, z].
"""

from __future__ import annotations

import numpy as np

from .blocks import AIR, COUNT
from .coords import BLOCK_DTYPE, CHUNK_SIZE, COLUMN_SHAPE, SECTION_SHAPE, SECTIONS_PER_COLUMN

_SECTION_BYTES = CHUNK_SIZE ** 3 * 2
_MASK_BYTES = 2
_WIRE_DTYPE = np.dtype("<u2")
MAX_BYTES = _MASK_BYTES + SECTIONS_PER_COLUMN * _SECTION_BYTES
"""[bytes] The byte form of a column with every section present: no valid column's is longer, so a
reader can refuse anything longer before holding it (131,074 bytes)."""


class ColumnDataError(ValueError):
    """Bytes that are not a column in the byte form this module writes."""


class Column:
    """One column's sections. Mutable in place through `set`; everything else reads."""

    __slots__ = ("sections",)

    def __init__(self, sections: list[np.ndarray | None]) -> None:
        if len(sections) != SECTIONS_PER_COLUMN:
            raise ValueError(f"a column has {SECTIONS_PER_COLUMN} sections, got {len(sections)}")
        self.sections = sections

    @classmethod
    def from_ids(cls, ids: np.ndarray) -> Column:
        """A column holding a copy of `ids`, a (16, 256, 16) array indexed [x, y, z]."""
        if ids.shape != COLUMN_SHAPE:
            raise ValueError(f"column ids must have shape {COLUMN_SHAPE}, got {ids.shape}")
        stacked = ids.reshape(CHUNK_SIZE, SECTIONS_PER_COLUMN, CHUNK_SIZE, CHUNK_SIZE)
        present = stacked.any(axis=(0, 2, 3))
        return cls([np.ascontiguousarray(stacked[:, sy], dtype=BLOCK_DTYPE) if present[sy] else None
                    for sy in range(SECTIONS_PER_COLUMN)])

    def ids(self) -> np.ndarray:
        """A new dense (16, 256, 16) uint16 array of the column, indexed [x, y, z]."""
        out = np.zeros(COLUMN_SHAPE, dtype=BLOCK_DTYPE)
        for sy, section in enumerate(self.sections):
            if section is not None:
                out[:, sy * CHUNK_SIZE:(sy + 1) * CHUNK_SIZE] = section
        return out

    def get(self, lx: int, y: int, lz: int) -> int:
        """The id at column-local (lx, y, lz); the caller keeps 0 <= lx, lz < 16 and 0 <= y < 256."""
        section = self.sections[y >> 4]
        return AIR if section is None else int(section[lx, y & 15, lz])

    def set(self, lx: int, y: int, lz: int, block: int) -> None:
        """Store id `block` at column-local (lx, y, lz), allocating or freeing the section as needed."""
        sy = y >> 4
        section = self.sections[sy]
        if section is None:
            if block == AIR:
                return
            section = self.sections[sy] = np.zeros(SECTION_SHAPE, dtype=BLOCK_DTYPE)
        section[lx, y & 15, lz] = block
        if block == AIR and not section.any():
            self.sections[sy] = None

    def top_y(self, lx: int, lz: int) -> int:
        """The height of the highest non-air block at column-local (lx, lz), or -1 for none."""
        for sy in range(SECTIONS_PER_COLUMN - 1, -1, -1):
            section = self.sections[sy]
            if section is not None:
                filled = np.flatnonzero(section[lx, :, lz])
                if filled.size:
                    return sy * CHUNK_SIZE + int(filled[-1])
        return -1

    def to_bytes(self) -> bytes:
        """The column's byte form (see the module docstring)."""
        mask = sum(1 << sy for sy, s in enumerate(self.sections) if s is not None)
        parts = [mask.to_bytes(_MASK_BYTES, "little")]
        parts.extend(s.astype(_WIRE_DTYPE, copy=False).tobytes() for s in self.sections if s is not None)
        return b"".join(parts)

    @classmethod
    def from_bytes(cls, data: bytes) -> Column:
        """The column whose byte form is `data`; ColumnDataError for a wrong length or unknown ids."""
        if len(data) < _MASK_BYTES:
            raise ColumnDataError(f"column data is {len(data)} bytes, shorter than its section mask")
        mask = int.from_bytes(data[:_MASK_BYTES], "little")
        present = [sy for sy in range(SECTIONS_PER_COLUMN) if mask >> sy & 1]
        expected = _MASK_BYTES + len(present) * _SECTION_BYTES
        if len(data) != expected:
            raise ColumnDataError(f"column data is {len(data)} bytes; its mask lists {len(present)} "
                                  f"sections, which take {expected}")
        stacked = np.frombuffer(data, dtype=_WIRE_DTYPE, offset=_MASK_BYTES)
        if stacked.size and int(stacked.max()) >= COUNT:
            raise ColumnDataError(f"column data holds block id {int(stacked.max())}, but ids are 0..{COUNT - 1}")
        stacked = stacked.astype(BLOCK_DTYPE).reshape(len(present), *SECTION_SHAPE)
        sections: list[np.ndarray | None] = [None] * SECTIONS_PER_COLUMN
        for index, sy in enumerate(present):
            sections[sy] = stacked[index]
        return cls(sections)
