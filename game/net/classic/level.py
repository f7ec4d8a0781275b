"""The map a Classic client gets: a window of Boxel's infinite world, kept current, encoded as Classic requires.

Owns: `MapWindow` (where the window lies: its low corner and size, centred on the spawn
horizontally; vertically around the spawn's height, inside the world), `WindowBlocks` (the
window's Boxel ids as one numpy array, filled column by column as the world loads them, then
kept current from each tick's block changes: it is read on the server's thread only), and
`encode_level` (a copy of those ids through a client's `BlockMap` into Classic's order, x fastest,
then z, then y, after a big-endian int32 volume, gzipped: pure, so it runs on a worker thread off
the tick) and `level_chunks` (the gzipped bytes as LevelDataChunk packets of 1,024 bytes with their
percent).
Does not own: the world (`game.world`), loading columns (the hub's `poll`), the wire (`packets`).
"""

from __future__ import annotations

import gzip
import math
import struct
from dataclasses import dataclass

import numpy as np

from ...world.coords import CHUNK_SIZE, WORLD_HEIGHT
from .packets import CHUNK_BYTES, LevelDataChunk

DEFAULT_SIZE = (256, 128, 256)
"""[blocks] The default window, width (x) x height (y) x depth (z): a Classic 'normal' map."""
MAX_SIDE = 1024
"""[blocks] The widest window side: 1024 x 256 x 1024 is 256 MiB of blocks, the most a server should hold for it."""
LEVEL_COMPRESSION = 1
"""gzip level of the level: level 1 packs a mostly air-and-stone window ~30x at a fraction of level 9's time."""


def check_window_size(size) -> tuple[int, int, int]:
    """`size` (width, height, depth) [blocks] as checked ints: each a multiple of 16 (whole
    columns and sections), width and depth 16..MAX_SIDE, height 16..WORLD_HEIGHT. TypeError or ValueError."""
    if not isinstance(size, tuple) or len(size) != 3:
        raise TypeError(f"a window size is (width, height, depth), got {size!r}")
    if any(isinstance(side, bool) or not isinstance(side, int) for side in size):
        raise TypeError(f"a window size is three ints, got {size!r}")
    width, height, depth = size
    if not (16 <= width <= MAX_SIDE and 16 <= depth <= MAX_SIDE and 16 <= height <= WORLD_HEIGHT
            and width % CHUNK_SIZE == height % CHUNK_SIZE == depth % CHUNK_SIZE == 0):
        raise ValueError(f"a window is 16..{MAX_SIDE} wide and deep and 16..{WORLD_HEIGHT} tall, in multiples of 16; "
                         f"got {width}x{height}x{depth}")
    return size


@dataclass(frozen=True)
class MapWindow:
    """The part of the world a Classic map shows: blocks x0 <= x < x0 + width, and so on."""

    x0: int
    y0: int
    z0: int
    width: int
    height: int
    depth: int

    @classmethod
    def around(cls, spawn, size=DEFAULT_SIZE) -> MapWindow:
        """The window of `size` whose middle column holds the spawn's (whole columns), its floor half
        the height below the spawn's feet but inside 0..WORLD_HEIGHT."""
        width, height, depth = check_window_size(tuple(size))
        sx, sy, sz = (math.floor(v) for v in spawn)
        x0 = (sx // CHUNK_SIZE) * CHUNK_SIZE - (width // 2 // CHUNK_SIZE) * CHUNK_SIZE
        z0 = (sz // CHUNK_SIZE) * CHUNK_SIZE - (depth // 2 // CHUNK_SIZE) * CHUNK_SIZE
        y0 = min(max(sy - height // 2, 0), WORLD_HEIGHT - height)
        return cls(x0, y0, z0, width, height, depth)

    def contains(self, x: int, y: int, z: int) -> bool:
        return (self.x0 <= x < self.x0 + self.width and self.y0 <= y < self.y0 + self.height
                and self.z0 <= z < self.z0 + self.depth)

    def columns(self) -> list[tuple[int, int]]:
        """The world columns (cx, cz) the window covers, nearest the middle first."""
        cxs = range(self.x0 // CHUNK_SIZE, (self.x0 + self.width) // CHUNK_SIZE)
        czs = range(self.z0 // CHUNK_SIZE, (self.z0 + self.depth) // CHUNK_SIZE)
        mx, mz = (cxs.start + cxs.stop) / 2, (czs.start + czs.stop) / 2
        return sorted(((cx, cz) for cx in cxs for cz in czs),
                      key=lambda key: (max(abs(key[0] + 0.5 - mx), abs(key[1] + 0.5 - mz)), key))

    def to_map(self, x: float, y: float, z: float) -> tuple[float, float, float]:
        """World coordinates [blocks] as map coordinates (the window's low corner is 0, 0, 0)."""
        return x - self.x0, y - self.y0, z - self.z0

    def to_world(self, x: float, y: float, z: float) -> tuple[float, float, float]:
        return x + self.x0, y + self.y0, z + self.z0


class WindowBlocks:
    """The window's Boxel ids, [x, y, z] (see the module docstring)."""

    def __init__(self, window: MapWindow) -> None:
        self.window = window
        self.ids = np.zeros((window.width, window.height, window.depth), dtype=np.uint16)
        self._missing = window.columns()
        """The columns not copied yet, nearest the middle first."""

    @property
    def complete(self) -> bool:
        return not self._missing

    def fill(self, world, budget: int) -> int:
        """Copy up to `budget` loaded columns into the window, asking the world to load the others
        (`request`); how many are still missing."""
        still = []
        for key in self._missing:
            if budget > 0 and world.is_loaded(*key):
                self._copy(world.column(*key), key)
                budget -= 1
            else:
                if not world.is_loaded(*key):
                    world.request(*key)
                still.append(key)
        self._missing = still
        return len(still)

    def _copy(self, column: np.ndarray, key: tuple[int, int]) -> None:
        w = self.window
        x = key[0] * CHUNK_SIZE - w.x0
        z = key[1] * CHUNK_SIZE - w.z0
        self.ids[x:x + CHUNK_SIZE, :, z:z + CHUNK_SIZE] = column[:, w.y0:w.y0 + w.height, :]

    def apply(self, cell: tuple[int, int, int], boxel_id: int) -> bool:
        """Note block `boxel_id` at world `cell`; whether the cell is in the window (a column not yet
        copied will be copied whole later, with it)."""
        x, y, z = cell
        if not self.window.contains(x, y, z):
            return False
        w = self.window
        self.ids[x - w.x0, y - w.y0, z - w.z0] = boxel_id
        return True


def encode_level(ids: np.ndarray, lookup: np.ndarray) -> bytes:
    """Classic's level for Boxel ids `ids` [x, y, z]: gzip(int32 volume, big-endian, then each
    block's id through `lookup`, index (y * depth + z) * width + x). Pure (a worker thread runs it)."""
    classic = lookup[ids]                         # [x, y, z]
    ordered = np.ascontiguousarray(classic.transpose(1, 2, 0))  # [y, z, x]: x fastest, then z, then y
    return gzip.compress(struct.pack(">i", ordered.size) + ordered.tobytes(), compresslevel=LEVEL_COMPRESSION)


def encode_level_slowly(ids: np.ndarray, lookup: np.ndarray) -> bytes:
    """`encode_level`'s readable twin: block by block in the order Classic names."""
    width, height, depth = ids.shape
    out = bytearray(struct.pack(">i", width * height * depth))
    for y in range(height):
        for z in range(depth):
            for x in range(width):
                out.append(int(lookup[ids[x, y, z]]))
    return gzip.compress(bytes(out), compresslevel=LEVEL_COMPRESSION)


def level_chunks(gzipped: bytes) -> list[LevelDataChunk]:
    """`gzipped` as LevelDataChunk packets of CHUNK_BYTES each (the last shorter), with the percent sent after each."""
    total = max(len(gzipped), 1)
    return [LevelDataChunk(gzipped[start:start + CHUNK_BYTES], min(100, (start + CHUNK_BYTES) * 100 // total))
            for start in range(0, len(gzipped), CHUNK_BYTES)]


def decode_level(gzipped: bytes, size: tuple[int, int, int]) -> np.ndarray:
    """A Classic level's ids as [x, y, z] (tests, and what a client does)."""
    raw = gzip.decompress(gzipped)
    width, height, depth = size
    (volume,) = struct.unpack(">i", raw[:4])
    if volume != width * height * depth or len(raw) != 4 + volume:
        raise ValueError(f"a {width}x{height}x{depth} level holds {width * height * depth} blocks, got {volume}")
    return np.frombuffer(raw, dtype=np.uint8, offset=4).reshape(height, depth, width).transpose(2, 0, 1)
