"""The world spawn: the dry land block column nearest the origin, found the same way for every seed.

Owns: what counts as a place to spawn (`is_dry_land`) and the order the search visits block columns.
Does not own: the terrain (`terrain.py`), or the spawn's height and where it is stored (`world.py`).

The search visits candidate block columns (x, z) by distance from (0, 0), then x, then z (every
block column near the origin, a lattice of them further out), so its answer is a pure function of
the seed. It reads the cheap 2D surface first to skip columns under the
sea, then generates the columns of the candidates, nearest first, until one is dry land.
"""

from __future__ import annotations

import numpy as np

from .blocks import AIR, block_id
from .coords import CHUNK_SIZE
from .terrain import SEA_LEVEL, Terrain

SPAWN_GROUND = frozenset(block_id(n) for n in ("grass", "sand", "dirt", "gravel", "stone"))
"""Blocks a player may spawn on: bare ground (not water, lava, leaves, logs, cactus or a plant)."""
NEAR_RADIUS = 16
"""[blocks] Every block column within this distance of the origin is a candidate."""
FAR_SPACING = 4
"""[blocks] Beyond NEAR_RADIUS only block columns whose x and z are multiples of this are candidates: a
spawn that far out has crossed a sea, and a sixteenth of the columns keeps that search to a few
tenths of a second (the 2D surface costs about 5 us a point)."""
SEARCH_RADII = (NEAR_RADIUS, 64, 128, 256, 512, 1024, 2048)
"""[blocks] The search visits the candidates within each radius in turn (each ring once), so a spawn near
the origin reads only the first few hundred surface points."""

def is_dry_land(ids: np.ndarray, lx: int, lz: int) -> bool:
    """Whether block column (lx, lz) of a column's (16, 256, 16) ids is a place to spawn: its highest
    non-air block is bare ground (SPAWN_GROUND) at or above SEA_LEVEL."""
    filled = np.flatnonzero(ids[lx, :, lz] != AIR)
    if filled.size == 0:
        return False
    top = int(filled[-1])
    return top >= SEA_LEVEL and int(ids[lx, top, lz]) in SPAWN_GROUND


def find_spawn(terrain: Terrain) -> tuple[int, int]:
    """The candidate block column (x, z) nearest (0, 0) that is dry land (`is_dry_land`) in `terrain`'s
    columns; ties go to the smaller x, then the smaller z (candidates: see NEAR_RADIUS and FAR_SPACING). (0, 0) when no column within the largest search
    radius is dry land (no seed measured comes near that)."""
    if not isinstance(terrain, Terrain):
        raise TypeError(f"find_spawn needs a Terrain, got {type(terrain).__name__}")
    columns: dict[tuple[int, int], np.ndarray] = {}
    inner = -1
    for radius in SEARCH_RADII:
        span = np.arange(-radius, radius + 1, dtype=np.int64)
        x, z = (a.ravel() for a in np.meshgrid(span, span, indexing="ij"))
        distance = x * x + z * z
        ring = (distance > inner * inner) & (distance <= radius * radius) if inner >= 0 else distance <= radius * radius
        if radius > NEAR_RADIUS:
            ring &= (x % FAR_SPACING == 0) & (z % FAR_SPACING == 0)
        x, z, distance = x[ring], z[ring], distance[ring]
        above_sea = terrain.surface(x, z).top_y >= SEA_LEVEL
        x, z, distance = x[above_sea], z[above_sea], distance[above_sea]
        for index in np.lexsort((z, x, distance)).tolist():
            bx, bz = int(x[index]), int(z[index])
            key = (bx // CHUNK_SIZE, bz // CHUNK_SIZE)
            if key not in columns:
                columns[key] = terrain.column(*key)
            if is_dry_land(columns[key], bx % CHUNK_SIZE, bz % CHUNK_SIZE):
                return bx, bz
        inner = radius
    return 0, 0
