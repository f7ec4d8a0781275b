"""World, column and section coordinates: the one place block positions are split into chunk parts.

Owns: the world's dimensions and its border, world -> column/section/local conversion (floor
division, so negative coordinates land in the right column), validation of block and column
coordinates, the edge rule for reads outside the build height, and which sections see a block
(for mesh rebuilds).
Does not own: block storage (see `column.py`) or what the blocks are (see `blocks.py`).

Block (i, j, k) fills [i, i+1) x [j, j+1) x [k, k+1). Column (cx, cz) holds the blocks with
floor(i / 16) == cx and floor(k / 16) == cz, for every height 0 <= j < 256. A section is one
16 x 16 x 16 cube of a column; section (cx, sy, cz) holds heights 16 sy .. 16 sy + 15.

The edge rule (every read of the world keeps it, so physics, the mesher and the game agree):
below y = 0 reads as `BELOW_WORLD` (bedrock: solid, so nothing falls out of the world), at or
above y = 256 reads as `ABOVE_WORLD` (air). Writes outside 0 <= y < 256 are refused with
`OutOfWorldError`.

The world border: every block coordinate (x, y and z) lies in -WORLD_BORDER <= v < WORLD_BORDER,
so every column coordinate in -COLUMN_BORDER <= c < COLUMN_BORDER; anything beyond is refused
with `OutOfWorldError` by every read, write and request, before it reaches the terrain or the
workers' int64 protocol.
"""

from __future__ import annotations

import numpy as np

from .array_ops import distinct

from .blocks import AIR, block_id

CHUNK_SIZE = 16
"""[blocks] Width of a column on X and Z, and the edge of a section."""
SECTION_SHIFT = 4
"""log2(CHUNK_SIZE): `i >> SECTION_SHIFT` is floor(i / 16) for every int, negative ones too."""
LOCAL_MASK = CHUNK_SIZE - 1
"""`i & LOCAL_MASK` is the position inside the column/section, 0..15, for every int."""
WORLD_HEIGHT = 256
"""[blocks] Blocks 0 <= y < WORLD_HEIGHT exist; see the edge rule above for the rest."""
SECTIONS_PER_COLUMN = WORLD_HEIGHT // CHUNK_SIZE
WORLD_BORDER = 30_000_000
"""[blocks] Block coordinates lie in -WORLD_BORDER <= v < WORLD_BORDER: Minecraft's world border, days
of walking from spawn. It keeps every coordinate the code computes from one (a column's blocks, a
trunk's neighbours, the workers' int64 requests) far from overflowing, and it is a multiple of
CHUNK_SIZE, so the border runs along column edges."""
COLUMN_BORDER = WORLD_BORDER // CHUNK_SIZE
"""[columns] Column coordinates lie in -COLUMN_BORDER <= c < COLUMN_BORDER: exactly the columns inside the border."""
COLUMN_SHAPE = (CHUNK_SIZE, WORLD_HEIGHT, CHUNK_SIZE)
"""Shape of a column's id array, indexed [x, y, z]."""
SECTION_SHAPE = (CHUNK_SIZE, CHUNK_SIZE, CHUNK_SIZE)
"""Shape of a section's id array, indexed [x, y, z]."""
BLOCK_DTYPE = np.uint16

BELOW_WORLD = block_id("bedrock")
"""What every read sees below y = 0 (the edge rule)."""
ABOVE_WORLD = AIR
"""What every read sees at y >= WORLD_HEIGHT (the edge rule)."""


class OutOfWorldError(ValueError):
    """A position outside the world: beyond the world border, or a write outside the build height, 0 <= y < 256."""


def _integer(value: object, what: str) -> int:
    """`value` as an int: Python or numpy integers (or integral floats); TypeError otherwise."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise TypeError(f"{what} must be an integer, got {value!r} (use math.floor for positions inside a block)")


def block_coordinate(value: object, axis: str) -> int:
    """`value` as a block coordinate (see `_integer`); OutOfWorldError beyond the world border."""
    coordinate = _integer(value, f"block coordinate {axis}")
    if not -WORLD_BORDER <= coordinate < WORLD_BORDER:
        raise OutOfWorldError(f"{axis} = {coordinate} is beyond the world border "
                              f"(blocks {-WORLD_BORDER}..{WORLD_BORDER - 1} on every axis)")
    return coordinate


def column_coordinate(value: object, axis: str) -> int:
    """`value` as a column coordinate (see `_integer`); OutOfWorldError for a column beyond the world border."""
    coordinate = _integer(value, f"column coordinate {axis}")
    if not -COLUMN_BORDER <= coordinate < COLUMN_BORDER:
        raise OutOfWorldError(f"column {axis} = {coordinate} is beyond the world border "
                              f"(columns {-COLUMN_BORDER}..{COLUMN_BORDER - 1})")
    return coordinate


def column_of(x: int, z: int) -> tuple[int, int]:
    """The column (cx, cz) that holds block column (x, z)."""
    return x >> SECTION_SHIFT, z >> SECTION_SHIFT


def require_in_height(y: int) -> None:
    """OutOfWorldError unless 0 <= y < WORLD_HEIGHT."""
    if not 0 <= y < WORLD_HEIGHT:
        raise OutOfWorldError(f"y = {y} is outside the world (blocks exist for 0 <= y < {WORLD_HEIGHT})")


def _sections_on_axis(v: int, count: int | None) -> tuple[int, ...]:
    """Section indices along one axis whose padded (18-wide) range contains block coordinate v."""
    s = v >> SECTION_SHIFT
    local = v & LOCAL_MASK
    found = [s]
    if local == 0:
        found.append(s - 1)
    elif local == LOCAL_MASK:
        found.append(s + 1)
    return tuple(i for i in found if count is None or 0 <= i < count)


def sections_seeing(x: int, y: int, z: int) -> tuple[tuple[int, int, int], ...]:
    """Every section (cx, sy, cz) whose padded section (`World.padded_section`) contains block (x, y, z).

    That is its own section plus, for a block on a section face, edge or corner, the neighbours
    across it (up to 8 in all): exactly the meshes a change of this block can alter.
    """
    return tuple((cx, sy, cz)
                 for cx in _sections_on_axis(x, None)
                 for sy in _sections_on_axis(y, SECTIONS_PER_COLUMN)
                 for cz in _sections_on_axis(z, None))


def sections_seeing_all(xs: np.ndarray, ys: np.ndarray, zs: np.ndarray) -> set[tuple[int, int, int]]:
    """`sections_seeing` for many blocks at once (int64 arrays of equal length, y in the build
    height): the union of theirs. Blocks are first reduced to their distinct (section, which faces
    of it they lie on), so the Python work grows with the sections touched, not the blocks."""
    sx, sy, sz = xs >> SECTION_SHIFT, ys >> SECTION_SHIFT, zs >> SECTION_SHIFT
    faces = [np.where(v & LOCAL_MASK == 0, 0, np.where(v & LOCAL_MASK == LOCAL_MASK, 2, 1)) for v in (xs, ys, zs)]
    code = ((((sx + _SECTION_KEY_OFFSET) << 27) | ((sz + _SECTION_KEY_OFFSET) << 4) | sy) * 27
            + faces[0] * 9 + faces[1] * 3 + faces[2])
    found: set[tuple[int, int, int]] = set()
    for value in distinct(code).tolist():
        key, face = divmod(value, 27)
        cx, cz, y = (key >> 27) - _SECTION_KEY_OFFSET, ((key >> 4) & ((1 << 23) - 1)) - _SECTION_KEY_OFFSET, key & 15
        for dx in (0, face // 9 - 1):
            for dy in (0, face // 3 % 3 - 1):
                for dz in (0, face % 3 - 1):
                    if 0 <= y + dy < SECTIONS_PER_COLUMN:
                        found.add((cx + dx, y + dy, cz + dz))
    return found


_SECTION_KEY_OFFSET = 1 << 22
"""Section coordinates are shifted by this before packing (|cx| < WORLD_BORDER / 16 < 2**21)."""
