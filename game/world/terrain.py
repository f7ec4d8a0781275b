"""Seeded terrain: the block ids of any column as a pure function of (seed, cx, cz).

Owns: biomes and their blending, oceans and the sea level, the surface height and layers (grass
over dirt, sand in the desert and on beaches, a sand, gravel or dirt sea floor, bare stone high
in the mountains), sea water, bedrock at y = 0, caves and the lava pools at their bottom, and the
order of the features laid on the surface: trees (`trees.py`), lakes, cactus and plants
(`features.py`).
Does not own: noise itself (`noise.py`), the shape of any feature, the spawn (`spawn.py`),
storage, or edits (`world.py`).

Determinism: a column depends only on the seed and its coordinates, never on what was generated
before, and every step is bit-exact on any machine (see `noise.py`).

The steps for one column:
1. 2D fields at block centres, one batch for the column's 16 x 16 block columns, the ring of
   block columns around it and every candidate tree trunk near it: temperature, ruggedness,
   detail, ridges and continent (fractal noise).
2. Biome weights from temperature and ruggedness, blended with smoothstep so heights flow
   between biomes; the land height is the weighted mean of each biome's height. Where the
   continent field is low the height is pulled down to the ocean floor (ocean weight, blended).
3. Layers: the top block and the 3 filler blocks under it (sea floor, beach or biome), stone
   below, bedrock at 0; every air cell at or below SEA_LEVEL over a surface below it is water.
4. Caves: 3D noise on a coarse lattice (every 4 blocks across, 8 up, as Minecraft does),
   trilinearly interpolated; hollow where it exceeds a threshold, at least 4 blocks under the
   surface and never beside the sea water of a neighbouring block column (so the sea cannot
   leak into them). Cave cells below LAVA_POOL_Y are lava, as Beta's cave carver leaves them.
   Entrances: in small spots where a 2D entrance field is high, on dry land with no sea beside it
   and no tree trunk on it, a cave that reaches its roof opens to the sky: every cell from the
   roof up to and including the top block is carved, a shaft down into the cave that never
   leaves ground hanging over it.
5. Features, each from position-seeded hashes: trees on grass by the chance of the biome at the
   trunk, a lake in some columns, then ores and dirt and gravel pockets in the stone (`ores.py`),
   cactus in the desert, flowers and tall grass on grass.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import features, ores, trees
from .blocks import AIR, LAVA_IDS, WATER_IDS, block_id
from .coords import BLOCK_DTYPE, CHUNK_SIZE, COLUMN_SHAPE
from .noise import MAX_SEED, MIN_SEED, derive_seed, gradient_noise_2d, gradient_noise_3d

STONE, DIRT, GRASS, SAND, GRAVEL, BEDROCK = (block_id(n) for n in ("stone", "dirt", "grass", "sand", "gravel",
                                                                  "bedrock"))
WATER = int(WATER_IDS[0])
"""Water source ("water"): what the sea and lakes are made of."""
LAVA = int(LAVA_IDS[0])
"""Lava source ("lava"): what fills the bottom of caves."""

PLAINS, DESERT, MOUNTAINS, OCEAN = 0, 1, 2, 3

SEA_LEVEL = 63
"""[blocks] Height of the sea's top water cells: every air cell at or below it over a surface below it is
water (Beta's sea level)."""

# --- the 2D fields: (name, period of the first octave [blocks], octaves); each octave halves
# the period and the amplitude. Periods are powers of two so block centre x frequency is exact.
FIELDS = (
    ("temperature", 512, 2),
    ("ruggedness", 256, 2),
    ("detail", 64, 4),
    ("ridges", 128, 2),
    ("continent", 1024, 3),
)
TEMPERATURE, RUGGEDNESS, DETAIL, RIDGES, CONTINENT = range(len(FIELDS))

DESERT_TEMPERATURE = 0.2
"""Temperature where the desert weight starts to rise from 0; it reaches 1 at + BLEND_WIDTH."""
MOUNTAIN_RUGGEDNESS = 0.05
"""Ruggedness where the mountain weight starts to rise from 0; it reaches 1 at + BLEND_WIDTH."""
BLEND_WIDTH = 0.3
"""Field range over which one biome blends into the next (wider = gentler borders)."""

PLAINS_BASE_Y, PLAINS_DETAIL = 67.0, 5.0
"""[blocks] Plains height: base plus detail noise times this. Four above the sea, so inland plains
reach down to it (LAND_MIN_Y) only where the detail noise is lowest (about 2 % of them)."""
DESERT_BASE_Y, DESERT_DETAIL = 66.0, 3.0
"""[blocks] Desert height: flatter than the plains, three above the sea."""
MOUNTAIN_BASE_Y, MOUNTAIN_DETAIL, MOUNTAIN_RIDGE = 70.0, 12.0, 55.0
"""[blocks] Mountains add ridge^2 times MOUNTAIN_RIDGE, where ridge = 1 - |ridge noise| peaks on lines."""
LAND_MIN_Y = float(SEA_LEVEL)
"""[blocks] Land heights below this are raised to it (rare flats at the sea's height), so only the ocean
weight brings a surface under the sea: every sea has a coast, and its coast has a beach."""
OCEAN_CONTINENT = -0.08
"""Continent field where the ocean weight starts to rise from 0; it reaches 1 at - OCEAN_BLEND. The field's
median is about 0, so this makes about a third of the world sea (see the tests for the measured share)."""
OCEAN_BLEND = 0.2
"""Continent range over which land sinks to the ocean floor (wider = gentler coasts and wider beaches)."""
OCEAN_FLOOR_Y, OCEAN_DETAIL = 46.0, 4.0
"""[blocks] The deep ocean floor: 17 blocks under the sea, plus detail noise times OCEAN_DETAIL."""
BEACH_TOP_Y = SEA_LEVEL + 2
"""[blocks] Coastal surfaces (ocean weight above 0) from the sea up to this height are sand: the beach."""
SHALLOW_FLOOR_Y = SEA_LEVEL - 4
"""[blocks] Sea floors at or above this height are sand, continuing the beach under the water."""
GRAVEL_FLOOR, DIRT_FLOOR = 0.15, -0.15
"""Deeper sea floor by the ridges field: gravel above GRAVEL_FLOOR, dirt below DIRT_FLOOR, sand between
(measured: about 30 % of the deep floor each gravel and dirt, 40 % sand)."""
MIN_SURFACE_Y, MAX_SURFACE_Y = 1, 200
"""[blocks] Clamp on the height of the top block, keeping room for bedrock below and trees above."""

FILLER_DEPTH = 3
"""[blocks] Dirt (or sand) under the top block."""
STONE_LINE_Y = 90
"""[blocks] Mountain surfaces at or above this height are bare stone; below it they grow grass."""

CAVE_CELL_XZ, CAVE_CELL_Y = 4, 8
"""[blocks] Spacing of the cave lattice; blocks between lattice points are interpolated."""
CAVE_PERIOD_XZ, CAVE_PERIOD_Y, CAVE_OCTAVES = 64, 32, 2
"""[blocks] Cave noise periods (flatter than tall, so caves run sideways) and octave count."""
CAVE_THRESHOLD = 0.4
"""Cave noise above this is hollow (air, or lava low down): about 9 % of the ground (0.3 hollows 16 %, 0.45 only 6 %)."""
CAVE_ROOF = 4
"""[blocks] Caves stay this far under the top block, so grass, trees and sand keep their footing."""
CAVE_FLOOR_Y = 1
"""Lowest height a cave may carve (bedrock at 0 stays)."""
LAVA_POOL_Y = 10
"""[blocks] Cave cells below this height are lava source instead of air (Beta's cave carver does the same)."""
ENTRANCE_PERIOD = 16
"""[blocks] Period of the entrance field: its spots are a few blocks across, so an opening is a hole or a crack
down into a cave; at 32 or more they opened whole caverns into craters 30 blocks wide."""
ENTRANCE_THRESHOLD = 0.35
"""Entrance field above this lets caves open to the sky: about a tenth of the land (the field's 90th
percentile); 12 of the 256 columns around seed 42's origin then hold an opening (see the tests)."""
_NO_WATER = np.iinfo(np.int64).max

LAKE_MIN_WATER_Y = SEA_LEVEL + features.LAKE_WATER_DEPTH
"""[blocks] Lowest height of a lake's top water layer: its water, up to LAKE_WATER_DEPTH deep, then lies wholly
above the sea, so every water cell at or below SEA_LEVEL is sea."""

TREE_CHANCE = (96, 0, 40, 0)
"""Chance (in 1/256) that a tree candidate grows, by biome at its trunk: plains, desert, mountains, ocean."""

FIELD_OFFSET_MASK = (1 << 20) - 1
"""The continent field is sampled shifted by a per-seed offset of up to +-2**19 blocks on x and z; small
enough that a block centre plus the offset stays an exact float at every frequency."""

_LAYER_OF_ROW = tuple(field for field, (_, _, octaves) in enumerate(FIELDS) for _ in range(octaves))
_OCTAVE_OF_ROW = tuple(octave for _, _, octaves in FIELDS for octave in range(octaves))
_FREQUENCY_OF_ROW = np.array([2.0 ** octave / FIELDS[field][1]
                              for field, octave in zip(_LAYER_OF_ROW, _OCTAVE_OF_ROW)])[:, None]


@dataclass(frozen=True)
class Surface:
    """The surface of some block columns, one entry per (x, z) point asked for."""

    top_y: np.ndarray
    """Height of the top block (int64), before caves, lakes and what grows on it."""
    top_block: np.ndarray
    """Id of the top block."""
    filler_block: np.ndarray
    """Id of the FILLER_DEPTH blocks under the top block."""
    ocean: np.ndarray
    """Ocean weight, 0 (land) .. 1 (deep sea): the coast is where it is above 0."""
    biome: np.ndarray
    """OCEAN where the ocean weight is at least one half; else PLAINS, DESERT or MOUNTAINS, the land
    biome of greatest weight."""


def _smoothstep(t: np.ndarray) -> np.ndarray:
    t = np.clip(t, 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


class Terrain:
    """The terrain of one seed. Immutable and cheap to make; `column` is a pure function."""

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"a world seed is an int, got {seed!r}")
        if not MIN_SEED <= seed <= MAX_SEED:
            raise ValueError(f"a world seed is a signed 64-bit int, {MIN_SEED}..{MAX_SEED}, got {seed}")
        self.seed = seed
        self._row_seeds = np.array([derive_seed(seed, 1, field, octave)
                                    for field, octave in zip(_LAYER_OF_ROW, _OCTAVE_OF_ROW)], dtype=np.uint64)[:, None]
        self._cave_seeds = np.array([derive_seed(seed, 2, octave) for octave in range(CAVE_OCTAVES)],
                                    dtype=np.uint64)[:, None, None, None]
        self.tree_seed = derive_seed(seed, 3)
        shift = derive_seed(seed, 7)
        self.continent_offset = ((shift & FIELD_OFFSET_MASK) - FIELD_OFFSET_MASK // 2,
                                 (shift >> 32 & FIELD_OFFSET_MASK) - FIELD_OFFSET_MASK // 2)
        """[blocks] Where block (0, 0) samples the continent field: gradient noise is 0 at lattice points,
        so unshifted every seed's origin would lie inland; shifted, some seeds start at sea. The biome
        fields are not shifted, so every origin lies in plains or at sea, never on a mountain."""
        shifted = (np.asarray(_LAYER_OF_ROW) == CONTINENT)[:, None]
        self._row_offset_x = np.where(shifted, self.continent_offset[0], 0).astype(np.int64)
        self._row_offset_z = np.where(shifted, self.continent_offset[1], 0).astype(np.int64)
        self.lake_seed = derive_seed(seed, 4)
        self.cactus_seed = derive_seed(seed, 5)
        self.plant_seed = derive_seed(seed, 6)
        self.ore_seed = derive_seed(seed, 8)
        self.entrance_seed = derive_seed(seed, 9)

    def fields(self, x: np.ndarray, z: np.ndarray) -> np.ndarray:
        """The fractal 2D fields at block columns (x, z) (int64 arrays): shape (len(FIELDS), n)."""
        xs = ((x + self._row_offset_x).astype(np.float64) + 0.5) * _FREQUENCY_OF_ROW
        zs = ((z + self._row_offset_z).astype(np.float64) + 0.5) * _FREQUENCY_OF_ROW
        rows = gradient_noise_2d(self._row_seeds, xs, zs)
        out = np.zeros((len(FIELDS), x.size))
        for row, (field, octave) in enumerate(zip(_LAYER_OF_ROW, _OCTAVE_OF_ROW)):
            out[field] = out[field] + rows[row] * (0.5 ** octave)
        return out

    def surface(self, x: np.ndarray, z: np.ndarray) -> Surface:
        """The surface at block columns (x, z) (int64 arrays of equal length)."""
        temperature, ruggedness, detail, ridges, continent = self.fields(x, z)
        desert = _smoothstep((temperature - DESERT_TEMPERATURE) / BLEND_WIDTH)
        mountains = _smoothstep((ruggedness - MOUNTAIN_RUGGEDNESS) / BLEND_WIDTH) * (1.0 - desert)
        plains = 1.0 - desert - mountains
        ridge = 1.0 - np.abs(ridges)
        land = (plains * (PLAINS_BASE_Y + PLAINS_DETAIL * detail)
                + desert * (DESERT_BASE_Y + DESERT_DETAIL * detail)
                + mountains * (MOUNTAIN_BASE_Y + MOUNTAIN_DETAIL * detail + MOUNTAIN_RIDGE * ridge * ridge))
        land = np.maximum(land, LAND_MIN_Y)
        ocean = _smoothstep((OCEAN_CONTINENT - continent) / OCEAN_BLEND)
        height = land + ocean * (OCEAN_FLOOR_Y + OCEAN_DETAIL * detail - land)
        top_y = np.clip(np.floor(height), MIN_SURFACE_Y, MAX_SURFACE_Y).astype(np.int64)
        biome = np.where(ocean >= 0.5, OCEAN,
                         np.where((desert > plains) & (desert > mountains), DESERT,
                                  np.where((mountains > plains) & (mountains >= desert), MOUNTAINS, PLAINS)))
        bare = (biome == MOUNTAINS) & (top_y >= STONE_LINE_Y)
        underwater = top_y < SEA_LEVEL
        sea_floor = np.where(top_y >= SHALLOW_FLOOR_Y, SAND,
                             np.where(ridges > GRAVEL_FLOOR, GRAVEL, np.where(ridges < DIRT_FLOOR, DIRT, SAND)))
        sandy = (biome == DESERT) | ((ocean > 0.0) & (top_y <= BEACH_TOP_Y))  # deserts and beaches
        top_block = np.where(underwater, sea_floor, np.where(sandy, SAND, np.where(bare, STONE, GRASS)))
        filler_block = np.where(underwater, sea_floor, np.where(sandy, SAND, np.where(bare, STONE, DIRT)))
        return Surface(top_y, top_block, filler_block, ocean, biome)

    def column(self, cx: int, cz: int) -> np.ndarray:
        """The generated ids of column (cx, cz): a new (16, 256, 16) uint16 array indexed [x, y, z]."""
        x0, z0 = cx * CHUNK_SIZE, cz * CHUNK_SIZE
        ring = np.arange(-1, CHUNK_SIZE + 1, dtype=np.int64)  # the column and one block column around it
        candidates = trees.candidates_near(self.tree_seed, cx, cz)
        n = ring.size * ring.size
        surface = self.surface(np.concatenate([np.repeat(x0 + ring, ring.size), candidates.x]),
                               np.concatenate([np.tile(z0 + ring, ring.size), candidates.z]))
        ring_top = surface.top_y[:n].reshape(ring.size, ring.size)
        inner = (slice(1, -1), slice(1, -1))
        top_y = ring_top[inner]
        grid = (CHUNK_SIZE, 1, CHUNK_SIZE)
        ids = self._layers(top_y.reshape(grid), surface.top_block[:n].reshape(ring_top.shape)[inner].reshape(grid),
                           surface.filler_block[:n].reshape(ring_top.shape)[inner].reshape(grid))
        grows = ((surface.top_block[n:] == GRASS)
                 & (candidates.chance_byte < np.asarray(TREE_CHANCE)[surface.biome[n:]]))
        tree_x, tree_z = candidates.x[grows], candidates.z[grows]
        trunks = np.zeros((CHUNK_SIZE, CHUNK_SIZE), dtype=bool)
        own = (tree_x >= x0) & (tree_x < x0 + CHUNK_SIZE) & (tree_z >= z0) & (tree_z < z0 + CHUNK_SIZE)
        trunks[tree_x[own] - x0, tree_z[own] - z0] = True
        roof = _cave_roof(ring_top)
        entrance = self.entrances(x0, z0, ring_top, trunks)
        self._carve_caves(ids, x0, z0, top_y.reshape(grid), roof.reshape(grid), entrance.reshape(grid))
        features.place_lake(ids, self.lake_seed, cx, cz, top_y, trunks, LAKE_MIN_WATER_Y)
        ores.place_ores(ids, self.ore_seed, cx, cz)
        trees.draw(ids, cx, cz, tree_x, tree_z, surface.top_y[n:][grows],
                   candidates.trunk_height[grows], candidates.corner_bits[grows])
        desert = surface.biome[:n].reshape(ring_top.shape)[inner] == DESERT
        if desert.any():
            features.place_cactus(ids, self.cactus_seed, cx, cz, top_y, desert)
        features.place_plants(ids, self.plant_seed, cx, cz, top_y)
        return ids

    @staticmethod
    def _layers(top_y: np.ndarray, top_block: np.ndarray, filler_block: np.ndarray) -> np.ndarray:
        """Stone up to the filler, the filler, the top block, water up to SEA_LEVEL above it, air
        higher; bedrock at y = 0."""
        ids = np.zeros(COLUMN_SHAPE, dtype=BLOCK_DTYPE)
        height = max(int(top_y.max()), SEA_LEVEL) + 1
        y = np.arange(height, dtype=np.int16).reshape(1, height, 1)
        depth = top_y.astype(np.int16) - y
        above = np.where(y <= SEA_LEVEL, BLOCK_DTYPE(WATER), BLOCK_DTYPE(AIR))
        ids[:, :height] = np.where(depth > FILLER_DEPTH, BLOCK_DTYPE(STONE),
                                   np.where(depth > 0, filler_block.astype(BLOCK_DTYPE),
                                            np.where(depth == 0, top_block.astype(BLOCK_DTYPE), above)))
        ids[:, 0] = BEDROCK
        return ids

    def entrances(self, x0: int, z0: int, ring_top: np.ndarray, trunks: np.ndarray) -> np.ndarray:
        """Which block columns (16, 16) of the column at (x0, z0) let a cave open to the sky: the entrance
        field is above ENTRANCE_THRESHOLD, no tree trunk stands on it (`trunks`), and it and the four block
        columns beside it are dry land (top block at or above SEA_LEVEL, from the surface heights of the
        column and the ring around it, `ring_top` (18, 18)), so no sea water touches an opening."""
        local = np.arange(CHUNK_SIZE, dtype=np.float64) + 0.5
        field = gradient_noise_2d(np.uint64(self.entrance_seed), ((x0 + local) / ENTRANCE_PERIOD)[:, None],
                                  ((z0 + local) / ENTRANCE_PERIOD)[None, :])
        dry = ring_top >= SEA_LEVEL
        dry_around = dry[1:-1, 1:-1] & dry[:-2, 1:-1] & dry[2:, 1:-1] & dry[1:-1, :-2] & dry[1:-1, 2:]
        return (field > ENTRANCE_THRESHOLD) & dry_around & ~trunks

    def _carve_caves(self, ids: np.ndarray, x0: int, z0: int, top_y: np.ndarray, roof: np.ndarray,
                     entrance: np.ndarray) -> None:
        """Hollow where the interpolated cave noise exceeds CAVE_THRESHOLD, from CAVE_FLOOR_Y up to `roof`
        (see `_cave_roof`): lava below LAVA_POOL_Y, air above. An `entrance` block column (see
        `entrances`) whose cave reaches its roof opens from there to the sky: every cell above the roof
        up to and including the top block is carved too."""
        highest = int(np.where(entrance, top_y, roof).max())
        cells_y = -(-(highest + 1) // CAVE_CELL_Y)
        if cells_y <= 0:
            return
        lattice = self.cave_lattice(x0, z0, cells_y)
        values = interpolate_lattice(lattice, cells_y * CAVE_CELL_Y)
        y = np.arange(cells_y * CAVE_CELL_Y).reshape(1, -1, 1)
        hollow = values > CAVE_THRESHOLD
        carve = hollow & (y <= roof) & (y >= CAVE_FLOOR_Y)
        if entrance.any():
            cave_at_roof = (hollow & (y == roof)).any(axis=1, keepdims=True)
            carve |= entrance & cave_at_roof & (y > roof) & (y <= top_y)
        cells = ids[:, :cells_y * CAVE_CELL_Y]
        cells[carve] = np.broadcast_to(np.where(y < LAVA_POOL_Y, BLOCK_DTYPE(LAVA), BLOCK_DTYPE(AIR)), carve.shape)[carve]

    def cave_lattice(self, x0: int, z0: int, cells_y: int) -> np.ndarray:
        """Cave noise at the lattice points of the column at (x0, z0): shape (5, cells_y + 1, 5), [x, y, z].

        Lattice point (i, j, k) is block (x0 + 4 i, 8 j, z0 + 4 k), sampled at its centre.
        """
        cells_xz = CHUNK_SIZE // CAVE_CELL_XZ
        px = (x0 + CAVE_CELL_XZ * np.arange(cells_xz + 1)).astype(np.float64) + 0.5
        py = (CAVE_CELL_Y * np.arange(cells_y + 1)).astype(np.float64) + 0.5
        pz = (z0 + CAVE_CELL_XZ * np.arange(cells_xz + 1)).astype(np.float64) + 0.5
        octave = (2.0 ** np.arange(CAVE_OCTAVES)).reshape(-1, 1, 1, 1)
        rows = gradient_noise_3d(self._cave_seeds,
                                 px.reshape(1, -1, 1, 1) * (octave / CAVE_PERIOD_XZ),
                                 py.reshape(1, 1, -1, 1) * (octave / CAVE_PERIOD_Y),
                                 pz.reshape(1, 1, 1, -1) * (octave / CAVE_PERIOD_XZ))
        total = rows[0]
        for index in range(1, CAVE_OCTAVES):
            total = total + rows[index] * (0.5 ** index)
        return total


def _cave_roof(ring_top: np.ndarray) -> np.ndarray:
    """The highest height a cave may hollow in each block column of a column, (16, 16), from the
    surface heights of the column and the ring around it, (18, 18).

    CAVE_ROOF blocks under the column's own top block, and no higher than the top block of any of
    the four block columns beside it that lie under the sea: their water starts one above that block,
    so a cave cell never has sea water beside it.
    """
    wet = np.where(ring_top < SEA_LEVEL, ring_top, _NO_WATER)
    beside = np.minimum(np.minimum(wet[:-2, 1:-1], wet[2:, 1:-1]), np.minimum(wet[1:-1, :-2], wet[1:-1, 2:]))
    return np.minimum(ring_top[1:-1, 1:-1] - CAVE_ROOF, beside)


def interpolate_lattice(lattice: np.ndarray, height: int) -> np.ndarray:
    """Trilinear interpolation of a cave lattice to every block: (16, height, 16), [x, y, z].

    Along x first, then z, then y, each as a + t (b - a) between neighbouring lattice values,
    where block b between lattice points i and i + 1 has t = (b - cell i) / cell, an exact
    binary fraction. Broadcasting over (cells, t) keeps every step one pass without gathers.
    """
    cells_xz, cells_y = CHUNK_SIZE // CAVE_CELL_XZ, height // CAVE_CELL_Y
    t_xz = (np.arange(CAVE_CELL_XZ) / CAVE_CELL_XZ)
    t_y = (np.arange(CAVE_CELL_Y) / CAVE_CELL_Y).reshape(1, 1, -1, 1)
    low, step = lattice[:-1], lattice[1:] - lattice[:-1]  # [x cell, y, z]
    along_x = (low[:, None] + t_xz.reshape(1, -1, 1, 1) * step[:, None]).reshape(CHUNK_SIZE, -1, cells_xz + 1)
    low, step = along_x[:, :, :-1], along_x[:, :, 1:] - along_x[:, :, :-1]  # [x, y, z cell]
    along_z = (low[..., None] + t_xz * step[..., None]).reshape(CHUNK_SIZE, -1, CHUNK_SIZE)
    low, step = along_z[:, :cells_y], along_z[:, 1:cells_y + 1] - along_z[:, :cells_y]  # [x, y cell, z]
    return (low[:, :, None] + t_y * step[:, :, None]).reshape(CHUNK_SIZE, height, CHUNK_SIZE)
