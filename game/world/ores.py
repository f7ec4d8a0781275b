"""Ores and pockets in the stone: coal, iron, gold, redstone and diamond veins, dirt and gravel pockets.

Owns: how many veins of each kind a column holds, at which heights, their shape, and the rule that
a vein only replaces stone (Beta's WorldGenMinable, run per chunk by ChunkProviderGenerate.populate).
Does not own: the stone they lie in (`terrain.py` runs this step after caves and lakes), or the blocks.

A vein of n blocks (Beta's numberOfBlocks) is a chain of n + 1 balls along a straight segment: the
segment is n / 4 blocks long across the ground, centred on a point of the column, and climbs or
falls by up to 2 blocks; ball i of n, at the fraction f = i / n along it, has the diameter
(1 + 4 f (1 - f)) r n / 16 + 1 for a hashed r in [0, 1) (the parabola 4 f (1 - f) stands in for
Beta's sin(pi f): same ends and middle, and only +, -, *, / and floor, so the bits are the same on
every machine; see `noise.py`). A cell is in a ball when its centre is strictly inside it.
The direction across the ground is the rational point ((1 - t^2), 2 t) / (1 + t^2) of the unit
circle for a hashed t in [-1, 1), which needs no sine either.

Order-independent by construction: every number comes from a hash of (seed, column, slot), and
each vein stays inside its column: its cells beyond the column's sides are dropped (a vein that
would cross a border is cut there), so a column never reads or writes its neighbours. Kinds run
in Beta's order (dirt, gravel, coal, iron, gold, redstone, diamond), each replacing only stone,
so where two overlap the earlier kind stays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .array_ops import distinct

from .blocks import block_id
from .coords import BLOCK_DTYPE, CHUNK_SIZE, COLUMN_SHAPE, WORLD_HEIGHT
from .noise import hash_points

STONE = block_id("stone")


@dataclass(frozen=True)
class VeinKind:
    """One kind of vein: what it is made of, how many a column holds, how big and at which heights."""

    block: str
    veins_per_column: int
    """Veins tried per column (Beta's count per chunk)."""
    size: int
    """[blocks] Beta's numberOfBlocks: the vein's length scale (n in the module docstring)."""
    max_y: int
    """[blocks] A vein's middle lies at a height in 0 .. max_y - 1."""


VEIN_KINDS = (
    VeinKind("dirt", 20, 32, 128),
    VeinKind("gravel", 10, 32, 128),
    VeinKind("coal_ore", 20, 16, 128),
    VeinKind("iron_ore", 20, 8, 64),
    VeinKind("gold_ore", 2, 8, 32),
    VeinKind("redstone_ore", 8, 7, 16),
    VeinKind("diamond_ore", 1, 7, 16),
)
"""Beta's ores per chunk, in its order: dirt 20 of 32 and gravel 10 of 32 at 0..127, coal 20 of 16 at
0..127, iron 20 of 8 at 0..63, gold 2 of 8 at 0..31, redstone 8 of 7 and diamond 1 of 7 at 0..15."""

VEIN_HALF_SPAN = 1.0 / 8.0
"""The segment reaches size x this each way across the ground from its middle (Beta's n / 8)."""
VEIN_RISE_CHOICES = 3
"""Each end of the segment lies 2, 1 or 0 blocks below the middle's height (Beta's nextInt(3) - 2)."""
VEIN_RISE_OFFSET = 2
BALL_SCALE = 1.0 / 16.0
"""A ball's diameter grows by r x size x this (Beta's n / 16)."""
VEIN_HASHES = 6
"""Hash values per vein before its balls': middle x, z and height, direction, and the two end rises."""

_UNIT = 2.0 ** -53


def _slots_of(kind: VeinKind) -> int:
    return kind.veins_per_column * (VEIN_HASHES + kind.size + 1)


_TOTAL_SLOTS = sum(_slots_of(kind) for kind in VEIN_KINDS)
_KIND_IDS = np.array([block_id(kind.block) for kind in VEIN_KINDS], dtype=BLOCK_DTYPE)
_NO_KIND = len(VEIN_KINDS)
_COLUMN_STRIDES = np.array([WORLD_HEIGHT * CHUNK_SIZE, CHUNK_SIZE, 1]).reshape(3, 1, 1)
_COLUMN_LIMITS = np.array([CHUNK_SIZE, WORLD_HEIGHT, CHUNK_SIZE]).reshape(3, 1, 1)


def unit_floats(seed: int, cx: int, cz: int, first_slot: int, count: int) -> np.ndarray:
    """`count` floats in [0, 1) from the hashes of column (cx, cz)'s slots first_slot.. under `seed`
    (53-bit fractions, exact)."""
    slots = np.arange(first_slot, first_slot + count, dtype=np.int64)
    h = hash_points(np.uint64(seed), np.full(count, cx, dtype=np.int64), slots, np.full(count, cz, dtype=np.int64))
    return (h >> np.uint64(11)).astype(np.float64) * _UNIT


def balls(seed: int, cx: int, cz: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every ball of column (cx, cz)'s veins: centres (3, balls) in column-local blocks [x, y, z], radii
    (balls,) [blocks] and the index in VEIN_KINDS of each ball's kind (balls,)."""
    u_all = unit_floats(seed, cx, cz, 0, _TOTAL_SLOTS)
    centres, radii, kinds = [], [], []
    first = 0
    for index, kind in enumerate(VEIN_KINDS):
        n, veins = kind.size, kind.veins_per_column
        u = u_all[first:first + _slots_of(kind)].reshape(veins, VEIN_HASHES + n + 1)
        first += _slots_of(kind)
        mid_x, mid_z = u[:, 0] * CHUNK_SIZE, u[:, 1] * CHUNK_SIZE
        mid_y = np.floor(u[:, 2] * kind.max_y)
        t = u[:, 3] * 2.0 - 1.0
        across = 1.0 + t * t
        half = n * VEIN_HALF_SPAN
        reach_x, reach_z = (1.0 - t * t) / across * half, (t + t) / across * half
        start = np.stack([mid_x + reach_x, mid_y + np.floor(u[:, 4] * VEIN_RISE_CHOICES) - VEIN_RISE_OFFSET,
                          mid_z + reach_z])  # [axis, vein]
        end = np.stack([mid_x - reach_x, mid_y + np.floor(u[:, 5] * VEIN_RISE_CHOICES) - VEIN_RISE_OFFSET,
                        mid_z - reach_z])
        f = np.arange(n + 1) / n
        centres.append((start[:, :, None] + (end - start)[:, :, None] * f).reshape(3, -1))
        diameter = (1.0 + 4.0 * f * (1.0 - f)) * u[:, VEIN_HASHES:] * (n * BALL_SCALE) + 1.0
        radii.append(diameter.reshape(-1) / 2.0)
        kinds.append(np.full(diameter.size, index))
    return np.concatenate(centres, axis=1), np.concatenate(radii), np.concatenate(kinds)


def ball_cells(centre: np.ndarray, radius: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The column cells whose centres lie strictly inside the balls (centres (3, balls), radii (balls,)),
    cut to the column: (flat indices into a (16, 256, 16) column, the ball of each), int64 arrays.

    Along each axis a ball of radius r holds at most ceil(2 r) cell centres, from the cell at
    floor(c - r + 0.5) on; balls are tested in groups of equal ceil(2 r), so each group is one
    broadcast over a box of that many cells a side."""
    box = np.ceil(2.0 * radius).astype(np.int64)
    flats, owners = [], []
    for size in distinct(box).tolist():
        group = np.flatnonzero(box == size)
        c, r = centre[:, group], radius[group]
        cells = np.floor(c - r + 0.5)[..., None] + np.arange(size)  # [axis, ball, offset]
        gap = cells + 0.5 - c[..., None]
        square = gap * gap
        square[(cells < 0) | (cells >= _COLUMN_LIMITS)] = np.inf  # beyond the column's sides, top or bottom
        inside = (square[0][:, :, None, None] + square[1][:, None, :, None] + square[2][:, None, None, :]
                  < (r * r)[:, None, None, None])
        index = cells.astype(np.int64) * _COLUMN_STRIDES
        flat = index[0][:, :, None, None] + index[1][:, None, :, None] + index[2][:, None, None, :]
        flats.append(flat[inside])
        owners.append(np.broadcast_to(group[:, None, None, None], inside.shape)[inside])
    return np.concatenate(flats), np.concatenate(owners)


def vein_cells(seed: int, cx: int, cz: int, kind_index: int) -> np.ndarray:
    """The cells of column (cx, cz)'s veins of VEIN_KINDS[kind_index], cut to the column, as flat
    indices into its (16, 256, 16) ids (int64, repeats possible)."""
    centre, radius, kind = balls(seed, cx, cz)
    mine = kind == kind_index
    return ball_cells(centre[:, mine], radius[mine])[0]


def place_ores(ids: np.ndarray, seed: int, cx: int, cz: int) -> None:
    """Lay column (cx, cz)'s veins into its (16, 256, 16) `ids` in place: each cell that some vein
    covers and that is stone becomes the first kind, in VEIN_KINDS order, that covers it (as if the
    kinds were laid one after another, each replacing only stone)."""
    if ids.shape != COLUMN_SHAPE or not ids.flags.c_contiguous:
        raise ValueError(f"ores are laid into a C-ordered {COLUMN_SHAPE} array of ids, got {ids.shape}")
    centre, radius, kind = balls(seed, cx, cz)
    flat, ball = ball_cells(centre, radius)
    cell_kind = kind[ball]
    first_kind = np.full(ids.size, _NO_KIND, dtype=np.int8)
    for index in range(len(VEIN_KINDS) - 1, -1, -1):  # earlier kinds written last, so they win
        first_kind[flat[cell_kind == index]] = index
    flat_ids = ids.reshape(-1)
    replace = (first_kind < _NO_KIND) & (flat_ids == STONE)
    flat_ids[replace] = _KIND_IDS[first_kind[replace]]
