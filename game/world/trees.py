"""Trees: which columns grow trees where, and drawing the parts of them that reach into a column.

Owns: the per-column tree decision (a seeded hash per column and slot, so it is the same
whichever column asks) and the tree shape (a log trunk under a leaf crown that reaches two
blocks sideways, so crowns cross column borders).
Does not own: the ground a tree stands on (`terrain.py` says the surface at each trunk).

How borders stay seamless: every column draws its own trees *and* the parts of its eight
neighbours' trees that reach into it, from the same hash, so a crown split by a border is drawn
half by each side and matches. The drawing is order-free: first leaves fill air (never logs or
ground), then logs overwrite air and leaves, so overlapping trees give one answer whatever
order they are drawn in.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .blocks import AIR, block_id
from .coords import CHUNK_SIZE, WORLD_HEIGHT
from .noise import hash_points

LOG = block_id("log")
LEAVES = block_id("leaves")

SLOTS_PER_COLUMN = 3
"""Candidate trees per column; each grows or not by the chance of the biome at its trunk."""
CROWN_RADIUS = 2
"""[blocks] How far the crown reaches sideways from the trunk (so up to 2 blocks into a neighbour)."""
MIN_TRUNK_HEIGHT = 4
"""[blocks] Shortest trunk; trunks are 4, 5 or 6 tall."""
TRUNK_HEIGHT_CHOICES = 3
CHANCE_STEPS = 256
"""Chances are in 1/256: a candidate grows when its hashed byte is below its biome's chance."""

_CROWN = 2 * CROWN_RADIUS + 1
_CROWN_LAYERS = 4


@dataclass(frozen=True)
class Candidates:
    """Possible trees (one entry each) whose crowns may reach into the column being drawn."""

    x: np.ndarray
    """Trunk block x (world) [blocks], int64."""
    z: np.ndarray
    """Trunk block z (world) [blocks], int64."""
    trunk_height: np.ndarray
    chance_byte: np.ndarray
    """0..255; the tree grows when this is below its biome's chance."""
    corner_bits: np.ndarray
    """Bit i keeps corner i of the two wide crown layers (8 corners)."""


def candidates_near(tree_seed: int, cx: int, cz: int) -> Candidates:
    """Every candidate tree of column (cx, cz) and its 8 neighbours whose crown reaches into (cx, cz)."""
    offsets = np.arange(-1, 2, dtype=np.int64)
    ncx = np.repeat(cx + offsets, 3 * SLOTS_PER_COLUMN)
    ncz = np.tile(np.repeat(cz + offsets, SLOTS_PER_COLUMN), 3)
    slot = np.tile(np.arange(SLOTS_PER_COLUMN, dtype=np.int64), 9)
    h = hash_points(np.uint64(tree_seed), ncx, slot, ncz)
    x = ncx * CHUNK_SIZE + (h & np.uint64(15)).astype(np.int64)
    z = ncz * CHUNK_SIZE + ((h >> np.uint64(4)) & np.uint64(15)).astype(np.int64)
    x0, z0 = cx * CHUNK_SIZE, cz * CHUNK_SIZE
    reaches = ((x + CROWN_RADIUS >= x0) & (x - CROWN_RADIUS < x0 + CHUNK_SIZE)
               & (z + CROWN_RADIUS >= z0) & (z - CROWN_RADIUS < z0 + CHUNK_SIZE))
    h = h[reaches]
    return Candidates(
        x=x[reaches],
        z=z[reaches],
        trunk_height=MIN_TRUNK_HEIGHT + ((h >> np.uint64(8)) % np.uint64(TRUNK_HEIGHT_CHOICES)).astype(np.int64),
        chance_byte=((h >> np.uint64(16)) & np.uint64(255)).astype(np.int64),
        corner_bits=((h >> np.uint64(24)) & np.uint64(255)).astype(np.int64),
    )


def crown(corner_bits: int) -> np.ndarray:
    """The crown as a (5, 4, 5) bool mask [dx, layer, dz], trunk at dx = dz = 2.

    Layers from the bottom: two 5 x 5 layers (each corner kept by one bit), a 3 x 3 layer and a
    3 x 3 layer without corners. The bottom layer sits one below the trunk's top log.
    """
    mask = np.zeros((_CROWN, _CROWN_LAYERS, _CROWN), dtype=bool)
    mask[:, 0:2, :] = True
    mask[1:4, 2:4, 1:4] = True
    mask[(1, 1, 3, 3), 3, (1, 3, 1, 3)] = False
    corners = ((0, 0), (0, 4), (4, 0), (4, 4))
    for bit in range(8):
        if not corner_bits >> bit & 1:
            dx, dz = corners[bit % 4]
            mask[dx, bit // 4, dz] = False
    return mask


def draw(ids: np.ndarray, cx: int, cz: int, x: np.ndarray, z: np.ndarray, ground_y: np.ndarray,
         trunk_height: np.ndarray, corner_bits: np.ndarray) -> None:
    """Draw the given trees' parts inside column (cx, cz) into its (16, 256, 16) `ids`, in place.

    Tree i has its trunk at block column (x[i], z[i]) standing on the block at height ground_y[i].
    """
    x0, z0 = cx * CHUNK_SIZE, cz * CHUNK_SIZE
    trees = list(zip(x.tolist(), z.tolist(), ground_y.tolist(), trunk_height.tolist(), corner_bits.tolist()))
    for tx, tz, ground, height, bits in trees:
        crown_y = ground + height - 1  # the crown's bottom layer is one below the trunk's top log
        lo_x, hi_x = max(tx - CROWN_RADIUS, x0), min(tx + CROWN_RADIUS + 1, x0 + CHUNK_SIZE)
        lo_z, hi_z = max(tz - CROWN_RADIUS, z0), min(tz + CROWN_RADIUS + 1, z0 + CHUNK_SIZE)
        hi_y = min(crown_y + _CROWN_LAYERS, WORLD_HEIGHT)
        if hi_y <= crown_y:
            continue
        part = crown(bits)[lo_x - tx + CROWN_RADIUS:hi_x - tx + CROWN_RADIUS, :hi_y - crown_y,
                           lo_z - tz + CROWN_RADIUS:hi_z - tz + CROWN_RADIUS]
        target = ids[lo_x - x0:hi_x - x0, crown_y:hi_y, lo_z - z0:hi_z - z0]
        target[part & (target == AIR)] = LEAVES
    for tx, tz, ground, height, _ in trees:
        if x0 <= tx < x0 + CHUNK_SIZE and z0 <= tz < z0 + CHUNK_SIZE:
            ids[tx - x0, ground + 1:min(ground + 1 + height, WORLD_HEIGHT), tz - z0] = LOG
