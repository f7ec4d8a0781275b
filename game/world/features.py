"""Surface features that fit inside one column: lakes, cactus, flowers and tall grass.

Owns: where each feature goes (a seeded hash of the column, or of the block column, so it is the
same whichever column or worker asks), its shape, and the rules that keep it sound: a lake is
sealed below its water line (Beta's WorldGenLakes check), a cactus has no solid block beside it
(Beta's BlockCactus.canBlockStay), a plant stands on grass under air.
Does not own: the ground the features stand on, trees, or the order the steps run in (`terrain.py`).

Why a column never needs its neighbours here: each feature keeps every cell it changes, and
every cell its rule reads, inside the column. A lake's blob stays one block in from the column's
sides, so the cells that seal it are the column's own; cactus stand on odd local coordinates
1..13, so the four cells beside every cactus cell are the column's own and no two cactus stand
side by side; a plant reads only its own block column.
"""

from __future__ import annotations

import numpy as np

from .blocks import AIR, FLUID_LEVEL, SOLID, WATER_IDS, block_id
from .coords import BLOCK_DTYPE, CHUNK_SIZE, WORLD_HEIGHT
from .noise import hash_points

GRASS, DIRT, SAND = (block_id(n) for n in ("grass", "dirt", "sand"))
CACTUS = block_id("cactus")
TALL_GRASS, DANDELION, ROSE = (block_id(n) for n in ("tall_grass", "dandelion", "rose"))
WATER = int(WATER_IDS[0])

# --- lakes (Beta's WorldGenLakes: a union of ellipsoids in a 16 x 8 x 16 box, water in its lower half)
LAKE_CHANCE = 48
"""Chance (in 1/256) that a column tries a lake: about 1 column in 5 (Beta tries a water lake in 1 chunk
in 4). About 1 try in 9 passes the checks (land high enough, no tree in it, flat and sealed ground), so
about 1 column in 50 holds a lake."""
LAKE_HEIGHT = 8
"""[blocks] Height of the lake's box."""
LAKE_WATER_DEPTH = 4
"""[blocks] The box's lower LAKE_WATER_DEPTH layers are water, the upper ones air (Beta's half)."""
LAKE_MIN_BLOBS, LAKE_BLOB_CHOICES = 4, 4
"""A lake is 4 to 7 ellipsoids (Beta: 4 + rand(4))."""
LAKE_MARGIN = 1
"""[blocks] Empty border inside the box on every side, so the cells that seal a lake lie inside it (and so
inside the column)."""
LAKE_RADIUS_XZ = (1.5, 3.0)
"""[blocks] Horizontal ellipsoid radius: 1.5 plus up to 3.0 (Beta's diameter 3..9)."""
LAKE_RADIUS_Y = (1.0, 2.0)
"""[blocks] Vertical ellipsoid radius: 1.0 plus up to 2.0 (Beta's height 2..6)."""
LAKE_MAX_RELIEF = 3
"""[blocks] A lake whose block columns rise more than this above its water is dropped: the box reaches
LAKE_HEIGHT - LAKE_WATER_DEPTH = 4 layers above the water, so the air above the lake clears all of it."""
_LAKE_HASHES = 2 + 6 * (LAKE_MIN_BLOBS + LAKE_BLOB_CHOICES - 1)
"""Hash values per column: the chance, the blob count, then 6 unit floats per blob."""

# --- cactus
CACTUS_SLOTS = 4
"""Candidate cactus per column; each grows when its cell is desert sand under air with nothing solid beside it."""
CACTUS_MAX_HEIGHT = 3
"""[blocks] Cactus are 1, 2 or 3 blocks tall (Beta's natural cactus)."""
_CACTUS_CELLS = (CHUNK_SIZE - 2) // 2
"""Cactus stand on local x and z of 1, 3, .., 13: an odd spacing keeps any two from touching sideways."""

# --- plants on grass: by one hashed byte per block column
TALL_GRASS_CHANCE = 24
"""Chance (in 1/256) that a grass block has tall grass on it: about 24 of a column's 256."""
DANDELION_CHANCE = 3
"""Chance (in 1/256) of a dandelion."""
ROSE_CHANCE = 2
"""Chance (in 1/256) of a rose (Beta has fewer roses than dandelions)."""

_UNIT = 2.0 ** -53
_PLANT_OF_BYTE = np.zeros(256, dtype=BLOCK_DTYPE)
_PLANT_OF_BYTE[:TALL_GRASS_CHANCE] = TALL_GRASS
_PLANT_OF_BYTE[TALL_GRASS_CHANCE:TALL_GRASS_CHANCE + DANDELION_CHANCE] = DANDELION
_PLANT_OF_BYTE[TALL_GRASS_CHANCE + DANDELION_CHANCE:TALL_GRASS_CHANCE + DANDELION_CHANCE + ROSE_CHANCE] = ROSE
_PLANT_OF_BYTE.flags.writeable = False


def _column_hashes(seed: int, cx: int, cz: int, count: int) -> np.ndarray:
    """`count` independent uint64 hashes of column (cx, cz) under `seed`."""
    slots = np.arange(count, dtype=np.int64)
    return hash_points(np.uint64(seed), np.full(count, cx, dtype=np.int64), slots, np.full(count, cz, dtype=np.int64))


def lake_blob(seed: int, cx: int, cz: int) -> np.ndarray | None:
    """The lake column (cx, cz) tries, as a (16, LAKE_HEIGHT, 16) bool mask [x, y in the box, z], or None.

    Each ellipsoid has radii r = low + span u and a centre c = margin + r + u (size - 2 margin - 2 r),
    for unit floats u from the column's hash; a cell belongs to the lake when its centre p has
    ((px - cx) / rx)^2 + ((py - cy) / ry)^2 + ((pz - cz) / rz)^2 < 1 for some ellipsoid.
    """
    h = _column_hashes(seed, cx, cz, _LAKE_HASHES)
    if int(h[0] & np.uint64(255)) >= LAKE_CHANCE:
        return None
    blobs = LAKE_MIN_BLOBS + int(h[1] % np.uint64(LAKE_BLOB_CHOICES))
    u = ((h[2:] >> np.uint64(11)).astype(np.float64) * _UNIT).reshape(-1, 6)[:blobs]  # exact: 53-bit fractions
    radius = np.stack([LAKE_RADIUS_XZ[0] + LAKE_RADIUS_XZ[1] * u[:, 0],
                       LAKE_RADIUS_Y[0] + LAKE_RADIUS_Y[1] * u[:, 1],
                       LAKE_RADIUS_XZ[0] + LAKE_RADIUS_XZ[1] * u[:, 2]])  # [axis, blob]
    size = np.array([CHUNK_SIZE, LAKE_HEIGHT, CHUNK_SIZE], dtype=np.float64).reshape(3, 1)
    centre = LAKE_MARGIN + radius + u[:, 3:].T * (size - 2 * LAKE_MARGIN - 2 * radius)
    tx = ((np.arange(CHUNK_SIZE) + 0.5).reshape(1, -1) - centre[0, :, None]) / radius[0, :, None]
    ty = ((np.arange(LAKE_HEIGHT) + 0.5).reshape(1, -1) - centre[1, :, None]) / radius[1, :, None]
    tz = ((np.arange(CHUNK_SIZE) + 0.5).reshape(1, -1) - centre[2, :, None]) / radius[2, :, None]
    inside = (tx * tx)[:, :, None, None] + (ty * ty)[:, None, :, None] + (tz * tz)[:, None, None, :] < 1.0
    return inside.any(axis=0)


def _grow(mask: np.ndarray) -> np.ndarray:
    """`mask` and every cell that shares a face with it (within the array)."""
    out = mask.copy()
    for axis in range(mask.ndim):
        ahead = [slice(None)] * mask.ndim
        behind = [slice(None)] * mask.ndim
        ahead[axis], behind[axis] = slice(1, None), slice(None, -1)
        out[tuple(ahead)] |= mask[tuple(behind)]
        out[tuple(behind)] |= mask[tuple(ahead)]
    return out


def place_lake(ids: np.ndarray, seed: int, cx: int, cz: int, top_y: np.ndarray, trunks: np.ndarray,
               lowest_water_y: int) -> bool:
    """Carve column (cx, cz)'s lake into its (16, 256, 16) `ids` in place, if it tries one and it fits.

    `top_y` (16, 16) is the surface height of each block column and `trunks` (16, 16) marks block
    columns where a tree grows. In each block column where the blob reaches below the box's upper
    layers, water fills from the blob's lowest cell up to the water's top layer, which lies at the
    lowest surface of the lake's block columns and the ones beside them, so the ground seals it;
    everything above the water in the lake's block columns becomes air (an open depression, never a
    roofed pool), and dirt left under that air becomes grass. The lake is dropped when its water would lie below `lowest_water_y`, when a tree stands in
    it, when its ground rises more than LAKE_MAX_RELIEF above the water, or when a cell beside or below
    its water or air is not solid below the water line, or holds a fluid above it (Beta's check).
    True when placed.
    """
    blob = lake_blob(seed, cx, cz)
    if blob is None:
        return False
    footprint = blob.any(axis=1)
    if not footprint.any() or (footprint & trunks).any():
        return False
    water_top = int(top_y[_grow(footprint)].min())
    base = water_top + 1 - LAKE_WATER_DEPTH
    if water_top < lowest_water_y or int(top_y[footprint].max()) - water_top > LAKE_MAX_RELIEF:
        return False
    if base + LAKE_HEIGHT > WORLD_HEIGHT:
        return False
    box = ids[:, base:base + LAKE_HEIGHT, :]
    rows = np.arange(LAKE_HEIGHT).reshape(1, -1, 1)
    below_line = rows < LAKE_WATER_DEPTH
    wet = blob[:, :LAKE_WATER_DEPTH].any(axis=1)
    lowest = np.argmax(blob, axis=1)  # the blob's lowest row in each block column
    water = (wet & footprint)[:, None, :] & below_line & (rows >= lowest[:, None, :])
    air = footprint[:, None, :] & ~below_line
    border = _grow(water | air) & ~(water | air)
    if (border & below_line & ~SOLID[box]).any() or (border & ~below_line & (FLUID_LEVEL[box] >= 0)).any():
        return False
    box[water] = WATER
    box[air] = AIR
    shore = box[:, LAKE_WATER_DEPTH - 1, :]  # the layer under the air: the water's top layer and the ground beside it
    shore[footprint & ~water[:, LAKE_WATER_DEPTH - 1, :] & (shore == DIRT)] = GRASS
    return True


def cactus_candidates(seed: int, cx: int, cz: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Local x, local z and height of column (cx, cz)'s candidate cactus (int64 arrays, CACTUS_SLOTS each)."""
    h = _column_hashes(seed, cx, cz, CACTUS_SLOTS)
    lx = 1 + 2 * ((h & np.uint64(255)) % np.uint64(_CACTUS_CELLS)).astype(np.int64)
    lz = 1 + 2 * (((h >> np.uint64(8)) & np.uint64(255)) % np.uint64(_CACTUS_CELLS)).astype(np.int64)
    height = 1 + ((h >> np.uint64(16)) % np.uint64(CACTUS_MAX_HEIGHT)).astype(np.int64)
    return lx, lz, height


def place_cactus(ids: np.ndarray, seed: int, cx: int, cz: int, top_y: np.ndarray, desert: np.ndarray) -> None:
    """Grow column (cx, cz)'s cactus into `ids` in place, where their block column is `desert` (16, 16
    bool), its top block (at `top_y`) is sand, and every cell of the cactus is air with no solid block
    beside it. Every candidate is checked against the ids before any grows (order-free); two
    candidates on one cell give the taller cactus."""
    lx, lz, height = cactus_candidates(seed, cx, cz)
    grows = []
    for x, z, tall in zip(lx.tolist(), lz.tolist(), height.tolist()):
        ground = int(top_y[x, z])
        if not desert[x, z] or ids[x, ground, z] != SAND or ground + tall >= WORLD_HEIGHT:
            continue
        cells = slice(ground + 1, ground + 1 + tall)
        beside = np.concatenate([ids[x - 1, cells, z], ids[x + 1, cells, z], ids[x, cells, z - 1], ids[x, cells, z + 1]])
        if np.all(ids[x, cells, z] == AIR) and not SOLID[beside].any():
            grows.append((x, z, cells))
    for x, z, cells in grows:
        ids[x, cells, z] = CACTUS


def place_plants(ids: np.ndarray, seed: int, cx: int, cz: int, top_y: np.ndarray) -> None:
    """Tall grass, dandelions and roses on the grass of column (cx, cz), in place: one hashed byte
    per block column picks the plant, which grows on its top block (at `top_y`) when that is grass
    with air above."""
    local = np.arange(CHUNK_SIZE, dtype=np.int64)
    x = np.repeat(local, CHUNK_SIZE)
    z = np.tile(local, CHUNK_SIZE)
    h = hash_points(np.uint64(seed), cx * CHUNK_SIZE + x, cz * CHUNK_SIZE + z)
    plant = _PLANT_OF_BYTE[(h & np.uint64(255)).astype(np.intp)]
    ground = top_y.reshape(-1)
    above = np.minimum(ground + 1, WORLD_HEIGHT - 1)
    grows = (plant != AIR) & (ground + 1 < WORLD_HEIGHT) & (ids[x, ground, z] == GRASS) & (ids[x, above, z] == AIR)
    ids[x[grows], ground[grows] + 1, z[grows]] = plant[grows]
