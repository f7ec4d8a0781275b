"""The reference terrain generator: the same column as `game.world.terrain`, one block at a time in plain Python.

Owns: a straightforward, loop-per-block restatement of the terrain rules, used by the world
benchmark as the "simple implementation" to compare against and by the tests to check that
the vectorised generator computes exactly these ids.
Does not own: any rule or constant (they are read from the real modules); only the looping.

It repeats each float operation of the numpy code in the same order, so the ids agree bit for bit.
"""

from __future__ import annotations

import math

from game.world import terrain as T
from game.world import trees
from game.world.blocks import AIR
from game.world.noise import AXIS_KEYS, GRADIENTS_2D, GRADIENTS_3D, MASK64, derive_seed, mix64


def hash_point(seed: int, *coordinates: int) -> int:
    total = seed
    for key, c in zip(AXIS_KEYS, coordinates):
        total = (total + (c & MASK64) * key) & MASK64
    return mix64(total)


def fade(t: float) -> float:
    return t * t * t * (t * (t * 6.0 - 15.0) + 10.0)


def lerp(a: float, b: float, t: float) -> float:
    return a + t * (b - a)


def noise_2d(seed: int, x: float, z: float) -> float:
    ix, iz = math.floor(x), math.floor(z)
    fx, fz = x - ix, z - iz
    dots = {}
    for dx in (0, 1):
        for dz in (0, 1):
            gx, gz = GRADIENTS_2D[hash_point(seed, ix + dx, iz + dz) >> 61]
            dots[dx, dz] = gx * (fx - dx) + gz * (fz - dz)
    u, v = fade(fx), fade(fz)
    return lerp(lerp(dots[0, 0], dots[1, 0], u), lerp(dots[0, 1], dots[1, 1], u), v)


def noise_3d(seed: int, x: float, y: float, z: float) -> float:
    ix, iy, iz = math.floor(x), math.floor(y), math.floor(z)
    fx, fy, fz = x - ix, y - iy, z - iz
    dots = {}
    for dx in (0, 1):
        for dy in (0, 1):
            for dz in (0, 1):
                gx, gy, gz = GRADIENTS_3D[hash_point(seed, ix + dx, iy + dy, iz + dz) >> 60]
                dots[dx, dy, dz] = gx * (fx - dx) + gy * (fy - dy) + gz * (fz - dz)
    u, v, w = fade(fx), fade(fy), fade(fz)
    return lerp(lerp(lerp(dots[0, 0, 0], dots[1, 0, 0], u), lerp(dots[0, 1, 0], dots[1, 1, 0], u), v),
                lerp(lerp(dots[0, 0, 1], dots[1, 0, 1], u), lerp(dots[0, 1, 1], dots[1, 1, 1], u), v), w)


def smoothstep(t: float) -> float:
    t = min(max(t, 0.0), 1.0)
    return t * t * (3.0 - 2.0 * t)


def surface_at(seed: int, x: int, z: int) -> tuple[int, int, int, int]:
    """(top_y, top block, filler block, biome) of block column (x, z)."""
    fields = []
    for index, (_, period, octaves) in enumerate(T.FIELDS):
        total = 0.0
        for octave in range(octaves):
            frequency = 2.0 ** octave / period
            total = total + noise_2d(derive_seed(seed, 1, index, octave), (x + 0.5) * frequency,
                                     (z + 0.5) * frequency) * (0.5 ** octave)
        fields.append(total)
    temperature, ruggedness, detail, ridges = fields
    desert = smoothstep((temperature - T.DESERT_TEMPERATURE) / T.BLEND_WIDTH)
    mountains = smoothstep((ruggedness - T.MOUNTAIN_RUGGEDNESS) / T.BLEND_WIDTH) * (1.0 - desert)
    plains = 1.0 - desert - mountains
    ridge = 1.0 - abs(ridges)
    height = (plains * (T.PLAINS_BASE_Y + T.PLAINS_DETAIL * detail)
              + desert * (T.DESERT_BASE_Y + T.DESERT_DETAIL * detail)
              + mountains * (T.MOUNTAIN_BASE_Y + T.MOUNTAIN_DETAIL * detail + T.MOUNTAIN_RIDGE * ridge * ridge))
    top_y = min(max(math.floor(height), T.MIN_SURFACE_Y), T.MAX_SURFACE_Y)
    if desert > plains and desert > mountains:
        return top_y, T.SAND, T.SAND, T.DESERT
    if mountains > plains and mountains >= desert:
        if top_y >= T.STONE_LINE_Y:
            return top_y, T.STONE, T.STONE, T.MOUNTAINS
        return top_y, T.GRASS, T.DIRT, T.MOUNTAINS
    return top_y, T.GRASS, T.DIRT, T.PLAINS


def crown_has(corner_bits: int, dx: int, layer: int, dz: int) -> bool:
    """Whether the crown has a leaf at offset (dx, dz) from the trunk (-2..2) in `layer` (0..3)."""
    if layer < 2:
        if abs(dx) == 2 and abs(dz) == 2:
            corner = (0 if dx < 0 else 2) + (0 if dz < 0 else 1)
            return bool(corner_bits >> (layer * 4 + corner) & 1)
        return True
    if abs(dx) > 1 or abs(dz) > 1:
        return False
    return layer == 2 or not (abs(dx) == 1 and abs(dz) == 1)


def reference_column(seed: int, cx: int, cz: int) -> list:
    """Column (cx, cz) as nested lists ids[x][y][z]."""
    x0, z0 = cx * 16, cz * 16
    ids = [[[AIR] * 16 for _ in range(256)] for _ in range(16)]
    cave_seeds = [derive_seed(seed, 2, octave) for octave in range(T.CAVE_OCTAVES)]
    lattice = {}
    for i in range(5):
        for j in range(256 // T.CAVE_CELL_Y + 1):
            for k in range(5):
                px, py, pz = x0 + 4 * i + 0.5, 8 * j + 0.5, z0 + 4 * k + 0.5
                total = 0.0
                for octave in range(T.CAVE_OCTAVES):
                    scale = 2.0 ** octave
                    value = noise_3d(cave_seeds[octave], px * (scale / T.CAVE_PERIOD_XZ),
                                     py * (scale / T.CAVE_PERIOD_Y), pz * (scale / T.CAVE_PERIOD_XZ))
                    total = value if octave == 0 else total + value * (0.5 ** octave)
                lattice[i, j, k] = total

    def cave_value(x: int, y: int, z: int) -> float:
        i, j, k = x // 4, y // 8, z // 4
        tx, ty, tz = (x % 4) / 4, (y % 8) / 8, (z % 4) / 4
        along_z = []
        for jj in (j, j + 1):
            a = lerp(lattice[i, jj, k], lattice[i + 1, jj, k], tx)
            b = lerp(lattice[i, jj, k + 1], lattice[i + 1, jj, k + 1], tx)
            along_z.append(lerp(a, b, tz))
        return lerp(along_z[0], along_z[1], ty)

    for x in range(16):
        for z in range(16):
            top_y, top_block, filler_block, _ = surface_at(seed, x0 + x, z0 + z)
            for y in range(top_y + 1):
                if y == 0:
                    block = T.BEDROCK
                elif T.CAVE_FLOOR_Y <= y <= top_y - T.CAVE_ROOF and cave_value(x, y, z) > T.CAVE_THRESHOLD:
                    block = AIR
                elif y == top_y:
                    block = top_block
                elif y >= top_y - T.FILLER_DEPTH:
                    block = filler_block
                else:
                    block = T.STONE
                ids[x][y][z] = block

    tree_seed = derive_seed(seed, 3)
    grown = []
    for ncx in (cx - 1, cx, cx + 1):
        for ncz in (cz - 1, cz, cz + 1):
            for slot in range(trees.SLOTS_PER_COLUMN):
                h = hash_point(tree_seed, ncx, slot, ncz)
                tx, tz = ncx * 16 + (h & 15), ncz * 16 + (h >> 4 & 15)
                ground, top_block, _, biome = surface_at(seed, tx, tz)
                if top_block == T.GRASS and (h >> 16 & 255) < T.TREE_CHANCE[biome]:
                    grown.append((tx, tz, ground, trees.MIN_TRUNK_HEIGHT + (h >> 8) % 3, h >> 24 & 255))
    for tx, tz, ground, height, bits in grown:
        for dx in range(-2, 3):
            for layer in range(4):
                for dz in range(-2, 3):
                    x, y, z = tx + dx - x0, ground + height - 1 + layer, tz + dz - z0
                    if (0 <= x < 16 and 0 <= z < 16 and y < 256 and ids[x][y][z] == AIR
                            and crown_has(bits, dx, layer, dz)):
                        ids[x][y][z] = trees.LEAVES
    for tx, tz, ground, height, _ in grown:
        if 0 <= tx - x0 < 16 and 0 <= tz - z0 < 16:
            for y in range(ground + 1, min(ground + 1 + height, 256)):
                ids[tx - x0][y][tz - z0] = trees.LOG
    return ids
