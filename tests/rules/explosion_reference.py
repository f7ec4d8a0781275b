"""The readable twin of `game.rules.explosion` and `game.rules.blast_exposure`: Beta 1.7.3's
`Explosion.doExplosionA` / `doExplosionB` and `World.getBlockDensity` / `rayTraceBlocks` written out
as Beta runs them, one ray, one cell, one block read at a time, in Python floats (Java's double) and
numpy float32 scalars (Java's float), with a Java 6 `HashSet` simulated bucket by bucket.

Only the tables are shared with the code under test (each block's blast resistance, its ray bounds, its
drop rule): the arithmetic, the walk and the set's order are written here again.
"""

from __future__ import annotations

import math

import numpy as np

from game.rules import harvest
from game.rules.blast_exposure import RAY_BOUNDS, STOPS_RAYS
from game.rules.items import ItemStack
from game.world.blast_resistance import BLAST_RESISTANCE
from game.world.java_random import next_float

F = np.float32


def block_at(world, x: int, y: int, z: int) -> int:
    """Beta's `getBlockId`: one cell's id (read through the world's box read)."""
    return int(world.ids_in_box(x, y, z, x + 1, y + 1, z + 1)[0, 0, 0])


def floor_double(d: float) -> int:
    """Beta's `MathHelper.floor_double`: `int i = (int)d; return d < i ? i - 1 : i`."""
    i = int(d)
    return i - 1 if d < i else i


def java_int(value: int) -> int:
    """`value` wrapped to Java's 32-bit int."""
    return ((value + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)


class JavaHashSet:
    """Java 6's `HashSet` (a `HashMap` of 16 buckets, load factor 0.75): a new entry goes to the head of
    its bucket's chain; `size++ >= threshold` after an insert doubles the table, moving each old chain's
    entries, from its head, to the head of their new chains."""

    def __init__(self) -> None:
        self.table: list[list[tuple[tuple[int, int, int], int]]] = [[] for _ in range(16)]
        self.size = 0
        self.threshold = 12

    @staticmethod
    def spread(hash_code: int) -> int:
        h = hash_code & 0xFFFFFFFF
        h ^= (h >> 20) ^ (h >> 12)
        return h ^ (h >> 7) ^ (h >> 4)

    def add(self, key: tuple[int, int, int], hash_code: int) -> None:
        h = self.spread(hash_code)
        chain = self.table[h & (len(self.table) - 1)]
        if any(entry == key for entry, _ in chain):
            return
        chain.insert(0, (key, h))
        old_size = self.size
        self.size += 1
        if old_size >= self.threshold:
            self._resize(2 * len(self.table))

    def _resize(self, capacity: int) -> None:
        table: list[list] = [[] for _ in range(capacity)]
        for chain in self.table:
            for key, h in chain:
                table[h & (capacity - 1)].insert(0, (key, h))
        self.table = table
        self.threshold = int(capacity * 0.75)

    def __iter__(self):
        for chain in self.table:
            for key, _ in chain:
                yield key


def chunk_position_hash(x: int, y: int, z: int) -> int:
    """Beta's `ChunkPosition.hashCode`."""
    return java_int(x * 8976890 + y * 981131 + z)


def destroyed_positions(world, centre, power, rng) -> list[tuple[int, int, int]]:
    """`doExplosionA`'s rays: the HashSet's cells in `doExplosionB`'s order (the list walked backwards)."""
    explosion_size = F(power)
    hashset = JavaHashSet()
    i = 16
    for j in range(i):
        for l in range(i):
            for j1 in range(i):
                if j != 0 and j != i - 1 and l != 0 and l != i - 1 and j1 != 0 and j1 != i - 1:
                    continue
                d = float(F(F(F(j) / F(F(i) - F(1.0))) * F(2.0)) - F(1.0))
                d1 = float(F(F(F(l) / F(F(i) - F(1.0))) * F(2.0)) - F(1.0))
                d2 = float(F(F(F(j1) / F(F(i) - F(1.0))) * F(2.0)) - F(1.0))
                d3 = math.sqrt(d * d + d1 * d1 + d2 * d2)
                d /= d3
                d1 /= d3
                d2 /= d3
                f1 = F(explosion_size * F(F(0.7) + F(F(next_float(rng)) * F(0.6))))
                d5, d7, d9 = centre
                f2 = F(0.3)
                while f1 > F(0.0):
                    j4, k4, l4 = floor_double(d5), floor_double(d7), floor_double(d9)
                    i5 = block_at(world, j4, k4, l4)
                    if i5 > 0:
                        f1 = F(f1 - F(F(BLAST_RESISTANCE[i5] + F(0.3)) * f2))
                    if f1 > F(0.0):
                        hashset.add((j4, k4, l4), chunk_position_hash(j4, k4, l4))
                    d5 += d * float(f2)
                    d7 += d1 * float(f2)
                    d9 += d2 * float(f2)
                    f1 = F(f1 - F(f2 * F(0.75)))
    arraylist = list(hashset)
    return [arraylist[index] for index in range(len(arraylist) - 1, -1, -1)]


def get_intermediate(start, end, axis: int, value: float):
    """Beta's `Vec3D.getIntermediateWith{X,Y,Z}Value`: the point of the segment where `axis` is
    `value`, or None."""
    d = [end[a] - start[a] for a in range(3)]
    if d[axis] * d[axis] < 1.0000000116860974e-7:
        return None
    t = (value - start[axis]) / d[axis]
    if t < 0.0 or t > 1.0:
        return None
    return (start[0] + d[0] * t, start[1] + d[1] * t, start[2] + d[2] * t)


def collision_ray_trace(block: int, cell, start, end) -> bool:
    """Beta's `Block.collisionRayTrace` (does the segment meet the block's bounds?)."""
    bounds = [float(v) for v in RAY_BOUNDS[block]]
    start = (start[0] + -cell[0], start[1] + -cell[1], start[2] + -cell[2])
    end = (end[0] + -cell[0], end[1] + -cell[1], end[2] + -cell[2])
    for axis in range(3):
        for value in (bounds[axis], bounds[axis + 3]):
            point = get_intermediate(start, end, axis, value)
            if point is None:
                continue
            if all(bounds[other] <= point[other] <= bounds[other + 3] for other in range(3) if other != axis):
                return True
    return False


def _stops(world, cell, start, end) -> bool:
    block = block_at(world, *cell)
    return block > 0 and bool(STOPS_RAYS[block]) and collision_ray_trace(block, cell, start, end)


def ray_trace_blocks(world, start, end) -> bool:
    """Beta's `World.rayTraceBlocks(start, end)` (func_28105_a with both flags false): True when a
    block stops the segment."""
    if any(math.isnan(v) for v in (*start, *end)):
        return False
    i, j, k = (floor_double(v) for v in end)
    l, i1, j1 = (floor_double(v) for v in start)
    if _stops(world, (l, i1, j1), start, end):
        return True
    x, y, z = start
    l1 = 200
    while True:
        l1 -= 1
        if l1 + 1 < 0:
            return False
        if math.isnan(x) or math.isnan(y) or math.isnan(z):
            return False
        if l == i and i1 == j and j1 == k:
            return False
        flag2 = flag3 = flag4 = True
        d = d1 = d2 = 999.0
        if i > l:
            d = l + 1.0
        elif i < l:
            d = l + 0.0
        else:
            flag2 = False
        if j > i1:
            d1 = i1 + 1.0
        elif j < i1:
            d1 = i1 + 0.0
        else:
            flag3 = False
        if k > j1:
            d2 = j1 + 1.0
        elif k < j1:
            d2 = j1 + 0.0
        else:
            flag4 = False
        d3 = d4 = d5 = 999.0
        d6, d7, d8 = end[0] - x, end[1] - y, end[2] - z
        if flag2:
            d3 = (d - x) / d6
        if flag3:
            d4 = (d1 - y) / d7
        if flag4:
            d5 = (d2 - z) / d8
        if d3 < d4 and d3 < d5:
            byte0 = 4 if i > l else 5
            x = d
            y += d7 * d3
            z += d8 * d3
        elif d4 < d5:
            byte0 = 0 if j > i1 else 1
            x += d6 * d4
            y = d1
            z += d8 * d4
        else:
            byte0 = 2 if k > j1 else 3
            x += d6 * d5
            y += d7 * d5
            z = d2
        l = floor_double(x) - (1 if byte0 == 5 else 0)
        i1 = floor_double(y) - (1 if byte0 == 1 else 0)
        j1 = floor_double(z) - (1 if byte0 == 3 else 0)
        if _stops(world, (l, i1, j1), (x, y, z), end):
            return True


def block_density(world, centre, box) -> np.float32:
    """Beta's `World.getBlockDensity(centre, box)`."""
    min_x, min_y, min_z, max_x, max_y, max_z = box
    d = 1.0 / ((max_x - min_x) * 2.0 + 1.0)
    d1 = 1.0 / ((max_y - min_y) * 2.0 + 1.0)
    d2 = 1.0 / ((max_z - min_z) * 2.0 + 1.0)
    unblocked = total = 0
    f = F(0.0)
    while f <= F(1.0):
        f1 = F(0.0)
        while f1 <= F(1.0):
            f2 = F(0.0)
            while f2 <= F(1.0):
                d3 = min_x + (max_x - min_x) * float(f)
                d4 = min_y + (max_y - min_y) * float(f1)
                d5 = min_z + (max_z - min_z) * float(f2)
                if not ray_trace_blocks(world, (d3, d4, d5), centre):
                    unblocked += 1
                total += 1
                f2 = F(float(f2) + d2)
            f1 = F(float(f1) + d1)
        f = F(float(f) + d)
    return F(F(unblocked) / F(total))


def hit_bodies(world, centre, power, boxes, positions) -> list[tuple[int, int, tuple[float, float, float], float]]:
    """`doExplosionA`'s second half: (index, damage, impulse, exposure) for each body hit. A body exactly
    at the centre gets no push (Beta divides by its zero distance)."""
    explosion_size = F(F(power) * F(2.0))
    x, y, z = centre
    k = floor_double(x - float(explosion_size) - 1.0)
    i1 = floor_double(x + float(explosion_size) + 1.0)
    k1 = floor_double(y - float(explosion_size) - 1.0)
    l1 = floor_double(y + float(explosion_size) + 1.0)
    i2 = floor_double(z - float(explosion_size) - 1.0)
    j2 = floor_double(z + float(explosion_size) + 1.0)
    hits = []
    for index, (box, position) in enumerate(zip(boxes, positions)):
        if not (box[3] > k and box[0] < i1 and box[4] > k1 and box[1] < l1 and box[5] > i2 and box[2] < j2):
            continue
        px, py, pz = position
        gx, gy, gz = px - x, py - y, pz - z
        d4 = float(F(math.sqrt(gx * gx + gy * gy + gz * gz))) / float(explosion_size)
        if d4 <= 1.0:
            d6, d8, d10 = px - x, py - y, pz - z
            d11 = float(F(math.sqrt(d6 * d6 + d8 * d8 + d10 * d10)))
            d12 = float(block_density(world, centre, box))
            d13 = (1.0 - d4) * d12
            damage = int(((d13 * d13 + d13) / 2.0) * 8.0 * float(explosion_size) + 1.0)
            if d11 == 0.0:
                impulse = (0.0, 0.0, 0.0)
            else:
                d6, d8, d10 = d6 / d11, d8 / d11, d10 / d11
                impulse = (d6 * d13, d8 * d13, d10 * d13)
            hits.append((index, damage, impulse, d12))
    return hits


def explode(world, centre, power, rng, boxes=(), positions=()):
    """`doExplosionA`: (the cells in `doExplosionB`'s order, the bodies hit)."""
    cells = destroyed_positions(world, centre, power, rng)
    return cells, hit_bodies(world, centre, power, boxes, positions)


def break_cells(world, cells, rng, drop) -> list[tuple[tuple[int, int, int], int]]:
    """A server's `doExplosionB` after the sound: each non-air cell's `dropBlockAsItemWithChance(..., 0.3F)`,
    then `setBlockWithNotify(..., 0)`; the (cell, block) broken."""
    broken = []
    for cell in cells:
        i1 = block_at(world, *cell)
        if i1 > 0:
            rule = harvest.DROP_RULES[i1]
            quantity = rule.quantity(rng)
            for _ in range(quantity):
                if F(next_float(rng)) > F(0.3):
                    continue
                item = rule.item_dropped(rng)
                if item is not None:
                    drop(cell, ItemStack(item), rng)
            world.set_id(*cell, 0)
            broken.append((cell, i1))
    return broken
