"""A column on the wire: the three forms a `ColumnData` carries it in, made (server) and read (client).

Owns: `column_data` (a column's ids to the smallest form that holds them exactly: "seed" for a
column exactly as the world's seed generates it, which is only the CRC-32 of its ids, as the client
generates it too; else "ids8", one byte a block, where every id is below 256; else "ids16", two),
`column_ids_of` (a `ColumnData` back to the ids, generating a "seed" column and checking its
checksum), `column_checksum`, and the compression level.
Pure: numpy and zlib; no sockets. Does not own: the message's framing (`game.net.protocol`), which
columns are as generated (`game.world.World.is_as_generated`), or terrain (`game.world.terrain`,
which the caller passes in as `generate`).

Measured on seed 42's 81 columns around the spawn (docs/PERFORMANCE.md, the server rows): two bytes a
block at zlib level 1 (protocol 2) ~2.9 KB a column; one byte a block at level 6 ~1.5 KB; as the
seed's, 18 bytes (the client's generation costs it ~11 ms a column, as single-player's does).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

import numpy as np

from ..world.blocks import COUNT
from ..world.column import Column, ColumnDataError
from ..world.coords import COLUMN_SHAPE, SECTION_SHAPE, SECTIONS_PER_COLUMN
from .protocol import SEED_COLUMN_DATA_BYTES, ColumnData, ProtocolError

COLUMN_LEVEL = 6
"""zlib level for a column sent in full: one byte a block packs to ~1.5 KB at level 6 in ~0.5 ms
(level 1: ~2.3 KB in ~0.15 ms; 9: ~1.4 KB in ~6 ms); a server encodes each once for every client."""
_MASK_BYTES = 2
_SECTION_BLOCKS = SECTION_SHAPE[0] * SECTION_SHAPE[1] * SECTION_SHAPE[2]
MAX_IDS8_BYTES = _MASK_BYTES + SECTIONS_PER_COLUMN * _SECTION_BLOCKS
"""[bytes] An "ids8" column inflated, at most (the mask and 16 sections of one byte a block)."""
MAX_IDS16_BYTES = _MASK_BYTES + SECTIONS_PER_COLUMN * _SECTION_BLOCKS * 2
"""[bytes] An "ids16" column inflated, at most (`game.world.column.MAX_BYTES`)."""
_CHECKSUM_BYTES_ORDER = "big"


def column_checksum(ids: np.ndarray) -> int:
    """The CRC-32 of a column's (16, 256, 16) ids [x, y, z] as little-endian u16, in C order."""
    return zlib.crc32(np.ascontiguousarray(ids, dtype="<u2").tobytes())


def column_data(cx: int, cz: int, ids: np.ndarray, *, as_generated: bool) -> ColumnData:
    """Column (cx, cz), whose ids are `ids` ((16, 256, 16) [x, y, z]), in its smallest form:
    "seed" when `as_generated` (the world never edited it: the client makes the same ids from the
    seed), else "ids8" where every id fits a byte, else "ids16"."""
    if ids.shape != COLUMN_SHAPE:
        raise ValueError(f"column ids have shape {COLUMN_SHAPE}, got {ids.shape}")
    if as_generated:
        checksum = column_checksum(ids).to_bytes(SEED_COLUMN_DATA_BYTES, _CHECKSUM_BYTES_ORDER)
        return ColumnData(cx, cz, checksum, "seed")
    column = Column.from_ids(ids)
    if int(ids.max(initial=0)) < 256:
        mask = sum(1 << sy for sy, section in enumerate(column.sections) if section is not None)
        raw = b"".join([mask.to_bytes(_MASK_BYTES, "little"),
                        *(section.astype(np.uint8).tobytes() for section in column.sections if section is not None)])
        return ColumnData(cx, cz, zlib.compress(raw, COLUMN_LEVEL), "ids8")
    return ColumnData(cx, cz, zlib.compress(column.to_bytes(), COLUMN_LEVEL), "ids16")


def column_ids_of(message: ColumnData, generate: Callable[[int, int], np.ndarray]) -> np.ndarray:
    """The (16, 256, 16) uint16 ids [x, y, z] `message` carries; a "seed" column is `generate(cx, cz)`
    (the seed's terrain there), checked against the server's checksum. ProtocolError for data that is
    not a column, or a generated column whose checksum differs (this client's terrain is not the server's)."""
    if message.form == "seed":
        try:
            ids = generate(message.cx, message.cz)
        except (ValueError, OverflowError) as error:  # a column the terrain cannot make (beyond the border)
            raise ProtocolError(f"column ({message.cx}, {message.cz}) cannot be generated here: {error}") from None
        if column_checksum(ids) != int.from_bytes(message.data, _CHECKSUM_BYTES_ORDER):
            raise ProtocolError(f"column ({message.cx}, {message.cz}) generated here differs from the server's "
                                f"seed: this client's terrain is not the server's version")
        return ids
    raw = _inflate(message.data, MAX_IDS8_BYTES if message.form == "ids8" else MAX_IDS16_BYTES)
    if message.form == "ids16":
        try:
            return Column.from_bytes(raw).ids()
        except ColumnDataError as error:
            raise ProtocolError(f"bad column data: {error}") from None
    return _ids8(raw)


def _inflate(data: bytes, limit: int) -> bytes:
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(data, limit + 1)  # one more: a stream of exactly `limit` still ends
    except zlib.error as error:
        raise ProtocolError(f"bad column data: {error}") from None
    if len(raw) > limit or inflater.unconsumed_tail:
        raise ProtocolError(f"a column inflates past {limit} bytes")
    if not inflater.eof or inflater.unused_data:
        raise ProtocolError("bad column data: its compressed stream does not end where the data does")
    return raw


def _ids8(raw: bytes) -> np.ndarray:
    """The ids of an inflated "ids8" column: a u16 little-endian section mask, then each present
    section's 4,096 ids, one byte each, [x][y][z]."""
    if len(raw) < _MASK_BYTES:
        raise ProtocolError(f"bad column data: {len(raw)} bytes, shorter than its section mask")
    mask = int.from_bytes(raw[:_MASK_BYTES], "little")
    present = [sy for sy in range(SECTIONS_PER_COLUMN) if mask >> sy & 1]
    if len(raw) != _MASK_BYTES + len(present) * _SECTION_BLOCKS:
        raise ProtocolError(f"bad column data: {len(raw)} bytes, but its mask lists {len(present)} sections")
    blocks = np.frombuffer(raw, dtype=np.uint8, offset=_MASK_BYTES)
    if blocks.size and int(blocks.max()) >= COUNT:
        raise ProtocolError(f"bad column data: block id {int(blocks.max())}, but ids are 0..{COUNT - 1}")
    ids = np.zeros(COLUMN_SHAPE, dtype=np.uint16)
    height = SECTION_SHAPE[1]
    for index, sy in enumerate(present):
        section = blocks[index * _SECTION_BLOCKS:(index + 1) * _SECTION_BLOCKS].reshape(SECTION_SHAPE)
        ids[:, sy * height:(sy + 1) * height] = section
    return ids
