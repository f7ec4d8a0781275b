"""The reference terrain generator: the same column as `game.world.terrain`, one block at a time in plain Python.

Owns: a straightforward, loop-per-block restatement of the terrain rules, used by the world
benchmark as the "simple implementation" to compare against and by the tests to check that
the vectorised generator computes exactly these ids.
Does not own: any rule or constant (they are read from the real modules); only the looping.

It repeats each float operation of the numpy code in the same order, so the ids agree bit for bit.
"""

from __future__ import annotations

import math

from game.world import features as F
from game.world import ores as O
from game.world import terrain as T
from game.world import trees
from game.world.blocks import AIR, FLUID_LEVEL, SOLID, block_id
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
    shift = derive_seed(seed, 7)
    offset_x = (shift & T.FIELD_OFFSET_MASK) - T.FIELD_OFFSET_MASK // 2
    offset_z = (shift >> 32 & T.FIELD_OFFSET_MASK) - T.FIELD_OFFSET_MASK // 2
    fields = []
    for index, (_, period, octaves) in enumerate(T.FIELDS):
        total = 0.0
        for octave in range(octaves):
            frequency = 2.0 ** octave / period
            shift_x, shift_z = (offset_x, offset_z) if index == T.CONTINENT else (0, 0)
            total = total + noise_2d(derive_seed(seed, 1, index, octave), (x + shift_x + 0.5) * frequency,
                                     (z + shift_z + 0.5) * frequency) * (0.5 ** octave)
        fields.append(total)
    temperature, ruggedness, detail, ridges, continent = fields
    desert = smoothstep((temperature - T.DESERT_TEMPERATURE) / T.BLEND_WIDTH)
    mountains = smoothstep((ruggedness - T.MOUNTAIN_RUGGEDNESS) / T.BLEND_WIDTH) * (1.0 - desert)
    plains = 1.0 - desert - mountains
    ridge = 1.0 - abs(ridges)
    land = (plains * (T.PLAINS_BASE_Y + T.PLAINS_DETAIL * detail)
            + desert * (T.DESERT_BASE_Y + T.DESERT_DETAIL * detail)
            + mountains * (T.MOUNTAIN_BASE_Y + T.MOUNTAIN_DETAIL * detail + T.MOUNTAIN_RIDGE * ridge * ridge))
    land = max(land, T.LAND_MIN_Y)
    ocean = smoothstep((T.OCEAN_CONTINENT - continent) / T.OCEAN_BLEND)
    height = land + ocean * (T.OCEAN_FLOOR_Y + T.OCEAN_DETAIL * detail - land)
    top_y = min(max(math.floor(height), T.MIN_SURFACE_Y), T.MAX_SURFACE_Y)
    if ocean >= 0.5:
        biome = T.OCEAN
    elif desert > plains and desert > mountains:
        biome = T.DESERT
    elif mountains > plains and mountains >= desert:
        biome = T.MOUNTAINS
    else:
        biome = T.PLAINS
    if top_y < T.SEA_LEVEL:
        if top_y >= T.SHALLOW_FLOOR_Y:
            floor = T.SAND
        elif ridges > T.GRAVEL_FLOOR:
            floor = T.GRAVEL
        elif ridges < T.DIRT_FLOOR:
            floor = T.DIRT
        else:
            floor = T.SAND
        return top_y, floor, floor, biome
    if biome == T.DESERT or (ocean > 0.0 and top_y <= T.BEACH_TOP_Y):
        return top_y, T.SAND, T.SAND, biome
    if biome == T.MOUNTAINS and top_y >= T.STONE_LINE_Y:
        return top_y, T.STONE, T.STONE, biome
    return top_y, T.GRASS, T.DIRT, biome


def column_hashes(seed: int, cx: int, cz: int, count: int) -> list[int]:
    return [hash_point(seed, cx, slot, cz) for slot in range(count)]


def lake_cells(seed: int, cx: int, cz: int) -> set | None:
    """The cells (x, y in the box, z) of column (cx, cz)'s lake try, or None when it tries none."""
    h = column_hashes(seed, cx, cz, F._LAKE_HASHES)
    if h[0] & 255 >= F.LAKE_CHANCE:
        return None
    blobs = []
    for blob in range(F.LAKE_MIN_BLOBS + h[1] % F.LAKE_BLOB_CHOICES):
        u = [(value >> 11) * 2.0 ** -53 for value in h[2 + 6 * blob:8 + 6 * blob]]
        radii = (F.LAKE_RADIUS_XZ[0] + F.LAKE_RADIUS_XZ[1] * u[0], F.LAKE_RADIUS_Y[0] + F.LAKE_RADIUS_Y[1] * u[1],
                 F.LAKE_RADIUS_XZ[0] + F.LAKE_RADIUS_XZ[1] * u[2])
        sizes = (16.0, float(F.LAKE_HEIGHT), 16.0)
        centres = [F.LAKE_MARGIN + r + t * (size - 2 * F.LAKE_MARGIN - 2 * r) for r, t, size in zip(radii, u[3:], sizes)]
        blobs.append((radii, centres))
    cells = set()
    for x in range(16):
        for y in range(F.LAKE_HEIGHT):
            for z in range(16):
                for radii, centres in blobs:
                    t = [(p + 0.5 - c) / r for p, c, r in zip((x, y, z), centres, radii)]
                    if t[0] * t[0] + t[1] * t[1] + t[2] * t[2] < 1.0:
                        cells.add((x, y, z))
                        break
    return cells


def place_lake(ids: list, seed: int, cx: int, cz: int, tops: dict, trunks: set) -> None:
    cells = lake_cells(seed, cx, cz)
    if not cells:
        return
    footprint = {(x, z) for x, _, z in cells}
    if footprint & trunks:
        return
    around = footprint | {(x + dx, z + dz) for x, z in footprint for dx, dz in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    water_top = min(tops[x, z] for x, z in around)
    base = water_top + 1 - F.LAKE_WATER_DEPTH
    if water_top < T.LAKE_MIN_WATER_Y or max(tops[x, z] for x, z in footprint) - water_top > F.LAKE_MAX_RELIEF:
        return
    if base + F.LAKE_HEIGHT > 256:
        return
    lake = set()
    for x, z in footprint:
        rows = [y for y in range(F.LAKE_HEIGHT) if (x, y, z) in cells]
        if rows[0] < F.LAKE_WATER_DEPTH:
            lake |= {(x, y, z) for y in range(rows[0], F.LAKE_WATER_DEPTH)}
        lake |= {(x, y, z) for y in range(F.LAKE_WATER_DEPTH, F.LAKE_HEIGHT)}
    for x, y, z in lake:
        for dx, dy, dz in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)):
            n = (x + dx, y + dy, z + dz)
            if n in lake or not (0 <= n[0] < 16 and 0 <= n[1] < F.LAKE_HEIGHT and 0 <= n[2] < 16):
                continue
            block = ids[n[0]][base + n[1]][n[2]]
            if n[1] < F.LAKE_WATER_DEPTH and not SOLID[block]:
                return
            if n[1] >= F.LAKE_WATER_DEPTH and FLUID_LEVEL[block] >= 0:
                return
    for x, y, z in lake:
        ids[x][base + y][z] = T.WATER if y < F.LAKE_WATER_DEPTH else AIR
    for x, z in footprint:
        y = base + F.LAKE_WATER_DEPTH - 1
        if (x, F.LAKE_WATER_DEPTH - 1, z) not in lake and ids[x][y][z] == T.DIRT:
            ids[x][y][z] = T.GRASS


def place_cactus(ids: list, seed: int, cx: int, cz: int, tops: dict, biomes: dict) -> None:
    grows = []
    for h in column_hashes(seed, cx, cz, F.CACTUS_SLOTS):
        x, z = 1 + 2 * ((h & 255) % F._CACTUS_CELLS), 1 + 2 * ((h >> 8 & 255) % F._CACTUS_CELLS)
        tall = 1 + (h >> 16) % F.CACTUS_MAX_HEIGHT
        ground = tops[x, z]
        if biomes[x, z] != T.DESERT or ids[x][ground][z] != T.SAND or ground + tall >= 256:
            continue
        if all(ids[x][y][z] == AIR and not any(SOLID[ids[x + dx][y][z + dz]]
                                               for dx, dz in ((1, 0), (-1, 0), (0, 1), (0, -1)))
               for y in range(ground + 1, ground + 1 + tall)):
            grows.append((x, z, ground, tall))
    for x, z, ground, tall in grows:
        for y in range(ground + 1, ground + 1 + tall):
            ids[x][y][z] = F.CACTUS


def place_plants(ids: list, seed: int, cx: int, cz: int, tops: dict) -> None:
    for x in range(16):
        for z in range(16):
            byte = hash_point(seed, cx * 16 + x, cz * 16 + z) & 255
            if byte < F.TALL_GRASS_CHANCE:
                plant = F.TALL_GRASS
            elif byte < F.TALL_GRASS_CHANCE + F.DANDELION_CHANCE:
                plant = F.DANDELION
            elif byte < F.TALL_GRASS_CHANCE + F.DANDELION_CHANCE + F.ROSE_CHANCE:
                plant = F.ROSE
            else:
                continue
            ground = tops[x, z]
            if ground + 1 < 256 and ids[x][ground][z] == T.GRASS and ids[x][ground + 1][z] == AIR:
                ids[x][ground + 1][z] = plant


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


def place_ores(ids: list, seed: int, cx: int, cz: int) -> None:
    """Every vein of every kind, ball by ball and cell by cell, replacing stone only (kinds in order)."""
    first = 0
    for kind in O.VEIN_KINDS:
        n, block = kind.size, block_id(kind.block)
        stride = O.VEIN_HASHES + n + 1
        for vein in range(kind.veins_per_column):
            u = [(hash_point(seed, cx, first + vein * stride + j, cz) >> 11) * 2.0 ** -53 for j in range(stride)]
            mid_x, mid_z, mid_y = u[0] * 16, u[1] * 16, float(math.floor(u[2] * kind.max_y))
            t = u[3] * 2.0 - 1.0
            half = n * O.VEIN_HALF_SPAN
            reach_x, reach_z = (1.0 - t * t) / (1.0 + t * t) * half, (t + t) / (1.0 + t * t) * half
            rise = [math.floor(value * O.VEIN_RISE_CHOICES) - O.VEIN_RISE_OFFSET for value in u[4:6]]
            start = (mid_x + reach_x, mid_y + rise[0], mid_z + reach_z)
            end = (mid_x - reach_x, mid_y + rise[1], mid_z - reach_z)
            for ball in range(n + 1):
                f = ball / n
                centre = [a + (b - a) * f for a, b in zip(start, end)]
                radius = ((1.0 + 4.0 * f * (1.0 - f)) * u[O.VEIN_HASHES + ball] * (n * O.BALL_SCALE) + 1.0) / 2.0
                lows = [math.floor(c - radius + 0.5) for c in centre]
                span = math.ceil(2.0 * n * O.BALL_SCALE + 1.0)
                for x in range(max(lows[0], 0), min(lows[0] + span, 16)):
                    for y in range(max(lows[1], 0), min(lows[1] + span, 256)):
                        for z in range(max(lows[2], 0), min(lows[2] + span, 16)):
                            gaps = [x + 0.5 - centre[0], y + 0.5 - centre[1], z + 0.5 - centre[2]]
                            inside = gaps[0] * gaps[0] + gaps[1] * gaps[1] + gaps[2] * gaps[2] < radius * radius
                            if inside and ids[x][y][z] == T.STONE:
                                ids[x][y][z] = block
        first += kind.veins_per_column * stride


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

    ring = {(x, z): surface_at(seed, x0 + x, z0 + z) for x in range(-1, 17) for z in range(-1, 17)}
    tops = {key: value[0] for key, value in ring.items()}
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
    trunks = {(tx - x0, tz - z0) for tx, tz, *_ in grown if 0 <= tx - x0 < 16 and 0 <= tz - z0 < 16}
    entrance_seed = derive_seed(seed, 9)
    for x in range(16):
        for z in range(16):
            top_y, top_block, filler_block, _ = ring[x, z]
            roof = top_y - T.CAVE_ROOF
            for dx, dz in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if tops[x + dx, z + dz] < T.SEA_LEVEL:
                    roof = min(roof, tops[x + dx, z + dz])
            opens_above = 256  # an opening to the sky carves the cells above this height, up to the top
            dry = all(tops[x + dx, z + dz] >= T.SEA_LEVEL for dx, dz in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)))
            if (dry and (x, z) not in trunks
                    and noise_2d(entrance_seed, (x0 + (x + 0.5)) / T.ENTRANCE_PERIOD,
                                 (z0 + (z + 0.5)) / T.ENTRANCE_PERIOD) > T.ENTRANCE_THRESHOLD):
                opens_above = roof if cave_value(x, roof, z) > T.CAVE_THRESHOLD else 256
            for y in range(max(top_y, T.SEA_LEVEL) + 1):
                if y == 0:
                    block = T.BEDROCK
                elif ((T.CAVE_FLOOR_Y <= y <= roof and cave_value(x, y, z) > T.CAVE_THRESHOLD)
                      or opens_above < y <= top_y):
                    block = T.LAVA if y < T.LAVA_POOL_Y else AIR
                elif y > top_y:
                    block = T.WATER
                elif y == top_y:
                    block = top_block
                elif y >= top_y - T.FILLER_DEPTH:
                    block = filler_block
                else:
                    block = T.STONE
                ids[x][y][z] = block

    place_lake(ids, derive_seed(seed, 4), cx, cz, tops, trunks)
    place_ores(ids, derive_seed(seed, 8), cx, cz)
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
    place_cactus(ids, derive_seed(seed, 5), cx, cz, tops, {key: value[3] for key, value in ring.items()})
    place_plants(ids, derive_seed(seed, 6), cx, cz, tops)
    return ids
