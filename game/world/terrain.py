"""Seeded terrain: the block ids of any column as a pure function of (seed, cx, cz).

Owns: biomes and their blending, the surface height and layers (grass over dirt, sand in the
desert, bare stone high in the mountains), bedrock at y = 0, caves, and putting trees on the
surface (their shape and placement rules are in `trees.py`).
Does not own: noise itself (`noise.py`), storage, or edits (`world.py`).

Determinism: a column depends only on the seed and its coordinates, never on what was generated
before, and every step is bit-exact on any machine (see `noise.py`).

The steps for one column:
1. 2D fields at block centres, one batch for the column's 16 x 16 block columns and every
   candidate tree trunk around it: temperature, ruggedness, detail and ridges (fractal noise).
2. Biome weights from temperature and ruggedness, blended with smoothstep so heights flow
   between biomes; the surface height is the weighted mean of each biome's height.
3. Layers: the top block and the 3 filler blocks under it by biome, stone below, bedrock at 0.
4. Caves: 3D noise on a coarse lattice (every 4 blocks across, 8 up, as Minecraft does),
   trilinearly interpolated; air where it exceeds a threshold, at least 4 blocks under the surface.
5. Trees on grass, by the chance of the biome at the trunk.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import trees
from .blocks import AIR, block_id
from .coords import BLOCK_DTYPE, CHUNK_SIZE, COLUMN_SHAPE
from .noise import MAX_SEED, MIN_SEED, derive_seed, gradient_noise_2d, gradient_noise_3d

STONE, DIRT, GRASS, SAND, BEDROCK = (block_id(n) for n in ("stone", "dirt", "grass", "sand", "bedrock"))

PLAINS, DESERT, MOUNTAINS = 0, 1, 2

# --- the 2D fields: (name, period of the first octave [blocks], octaves); each octave halves
# the period and the amplitude. Periods are powers of two so block centre x frequency is exact.
FIELDS = (
    ("temperature", 512, 2),
    ("ruggedness", 256, 2),
    ("detail", 64, 4),
    ("ridges", 128, 2),
)
TEMPERATURE, RUGGEDNESS, DETAIL, RIDGES = range(len(FIELDS))

DESERT_TEMPERATURE = 0.2
"""Temperature where the desert weight starts to rise from 0; it reaches 1 at + BLEND_WIDTH."""
MOUNTAIN_RUGGEDNESS = 0.05
"""Ruggedness where the mountain weight starts to rise from 0; it reaches 1 at + BLEND_WIDTH."""
BLEND_WIDTH = 0.3
"""Field range over which one biome blends into the next (wider = gentler borders)."""

PLAINS_BASE_Y, PLAINS_DETAIL = 64.0, 5.0
"""[blocks] Plains height: base plus detail noise times this."""
DESERT_BASE_Y, DESERT_DETAIL = 63.0, 3.0
MOUNTAIN_BASE_Y, MOUNTAIN_DETAIL, MOUNTAIN_RIDGE = 70.0, 12.0, 55.0
"""[blocks] Mountains add ridge^2 times MOUNTAIN_RIDGE, where ridge = 1 - |ridge noise| peaks on lines."""
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
"""Cave noise above this is air: about 9 % of the ground (0.3 hollows 16 %, 0.45 only 6 %)."""
CAVE_ROOF = 4
"""[blocks] Caves stay this far under the top block, so grass, trees and sand keep their footing."""
CAVE_FLOOR_Y = 1
"""Lowest height a cave may carve (bedrock at 0 stays)."""

TREE_CHANCE = (96, 0, 40)
"""Chance (in 1/256) that a tree candidate grows, by biome at its trunk: plains, desert, mountains."""

_LAYER_OF_ROW = tuple(field for field, (_, _, octaves) in enumerate(FIELDS) for _ in range(octaves))
_OCTAVE_OF_ROW = tuple(octave for _, _, octaves in FIELDS for octave in range(octaves))
_FREQUENCY_OF_ROW = np.array([2.0 ** octave / FIELDS[field][1]
                              for field, octave in zip(_LAYER_OF_ROW, _OCTAVE_OF_ROW)])[:, None]


@dataclass(frozen=True)
class Surface:
    """The surface of some block columns, one entry per (x, z) point asked for."""

    top_y: np.ndarray
    """Height of the top block (int64), before caves and trees."""
    top_block: np.ndarray
    """Id of the top block."""
    filler_block: np.ndarray
    """Id of the FILLER_DEPTH blocks under the top block."""
    biome: np.ndarray
    """PLAINS, DESERT or MOUNTAINS: the biome of greatest weight."""


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

    def fields(self, x: np.ndarray, z: np.ndarray) -> np.ndarray:
        """The fractal 2D fields at block columns (x, z) (int64 arrays): shape (len(FIELDS), n)."""
        xs = (x.astype(np.float64) + 0.5) * _FREQUENCY_OF_ROW
        zs = (z.astype(np.float64) + 0.5) * _FREQUENCY_OF_ROW
        rows = gradient_noise_2d(self._row_seeds, xs, zs)
        out = np.zeros((len(FIELDS), x.size))
        for row, (field, octave) in enumerate(zip(_LAYER_OF_ROW, _OCTAVE_OF_ROW)):
            out[field] = out[field] + rows[row] * (0.5 ** octave)
        return out

    def surface(self, x: np.ndarray, z: np.ndarray) -> Surface:
        """The surface at block columns (x, z) (int64 arrays of equal length)."""
        temperature, ruggedness, detail, ridges = self.fields(x, z)
        desert = _smoothstep((temperature - DESERT_TEMPERATURE) / BLEND_WIDTH)
        mountains = _smoothstep((ruggedness - MOUNTAIN_RUGGEDNESS) / BLEND_WIDTH) * (1.0 - desert)
        plains = 1.0 - desert - mountains
        ridge = 1.0 - np.abs(ridges)
        height = (plains * (PLAINS_BASE_Y + PLAINS_DETAIL * detail)
                  + desert * (DESERT_BASE_Y + DESERT_DETAIL * detail)
                  + mountains * (MOUNTAIN_BASE_Y + MOUNTAIN_DETAIL * detail + MOUNTAIN_RIDGE * ridge * ridge))
        top_y = np.clip(np.floor(height), MIN_SURFACE_Y, MAX_SURFACE_Y).astype(np.int64)
        biome = np.where((desert > plains) & (desert > mountains), DESERT,
                         np.where((mountains > plains) & (mountains >= desert), MOUNTAINS, PLAINS))
        bare = (biome == MOUNTAINS) & (top_y >= STONE_LINE_Y)
        top_block = np.where(biome == DESERT, SAND, np.where(bare, STONE, GRASS))
        filler_block = np.where(biome == DESERT, SAND, np.where(bare, STONE, DIRT))
        return Surface(top_y, top_block, filler_block, biome)

    def column(self, cx: int, cz: int) -> np.ndarray:
        """The generated ids of column (cx, cz): a new (16, 256, 16) uint16 array indexed [x, y, z]."""
        x0, z0 = cx * CHUNK_SIZE, cz * CHUNK_SIZE
        local = np.arange(CHUNK_SIZE, dtype=np.int64)
        candidates = trees.candidates_near(self.tree_seed, cx, cz)
        n = CHUNK_SIZE * CHUNK_SIZE
        surface = self.surface(np.concatenate([np.repeat(x0 + local, CHUNK_SIZE), candidates.x]),
                               np.concatenate([np.tile(z0 + local, CHUNK_SIZE), candidates.z]))
        grid = (CHUNK_SIZE, 1, CHUNK_SIZE)
        top_y = surface.top_y[:n].reshape(grid)
        ids = self._layers(top_y, surface.top_block[:n].reshape(grid), surface.filler_block[:n].reshape(grid))
        self._carve_caves(ids, x0, z0, top_y)
        grows = ((surface.top_block[n:] == GRASS)
                 & (candidates.chance_byte < np.asarray(TREE_CHANCE)[surface.biome[n:]]))
        trees.draw(ids, cx, cz, candidates.x[grows], candidates.z[grows], surface.top_y[n:][grows],
                   candidates.trunk_height[grows], candidates.corner_bits[grows])
        return ids

    @staticmethod
    def _layers(top_y: np.ndarray, top_block: np.ndarray, filler_block: np.ndarray) -> np.ndarray:
        """Stone up to the filler, the filler, the top block, air above; bedrock at y = 0."""
        ids = np.zeros(COLUMN_SHAPE, dtype=BLOCK_DTYPE)
        height = int(top_y.max()) + 1
        depth = top_y.astype(np.int16) - np.arange(height, dtype=np.int16).reshape(1, height, 1)
        ids[:, :height] = np.where(depth > FILLER_DEPTH, BLOCK_DTYPE(STONE),
                                   np.where(depth > 0, filler_block.astype(BLOCK_DTYPE),
                                            np.where(depth == 0, top_block.astype(BLOCK_DTYPE), BLOCK_DTYPE(AIR))))
        ids[:, 0] = BEDROCK
        return ids

    def _carve_caves(self, ids: np.ndarray, x0: int, z0: int, top_y: np.ndarray) -> None:
        """Air where the interpolated cave noise exceeds CAVE_THRESHOLD, from CAVE_FLOOR_Y up to
        CAVE_ROOF blocks under the top block."""
        roof = top_y - CAVE_ROOF  # highest carvable height per block column
        cells_y = -(-(int(roof.max()) + 1) // CAVE_CELL_Y)
        if cells_y <= 0:
            return
        lattice = self.cave_lattice(x0, z0, cells_y)
        values = interpolate_lattice(lattice, cells_y * CAVE_CELL_Y)
        y = np.arange(cells_y * CAVE_CELL_Y).reshape(1, -1, 1)
        carve = (values > CAVE_THRESHOLD) & (y <= roof) & (y >= CAVE_FLOOR_Y)
        ids[:, :cells_y * CAVE_CELL_Y][carve] = AIR

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
