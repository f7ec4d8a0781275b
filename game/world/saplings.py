"""Saplings: Beta 1.7.3's random tick of a sapling and the small oak it grows into.

Owns: `random_tick` (Beta's `BlockSapling.updateTick`: a sapling that has lost its soil breaks; with
light 9 or more above it, one tick in SAPLING_GROWTH_CHANCE turns a sapling into a ready sapling
(Beta's metadata bit 8) and a ready sapling into a tree) and `grow_tree` (Beta's `WorldGenTrees`: a
trunk of 4 to 6 logs under a crown of leaves, grown only where there is room, over grass or dirt,
which becomes dirt), each drawing from a `java.util.Random` as Beta's code does.
Does not own: which cells get random ticks or the generator they draw from (`world_ticker.py`),
what holds a sapling up (`support.py`), or the trees of generated terrain (`trees.py`, Boxel's own
shapes).

Beta draws `nextInt(10) == 0` for a big oak (`WorldGenBigTree`); Boxel has no big oaks yet, so it draws
that number (keeping Beta's sequence) and grows the small oak either way. Spruce and birch saplings
(metadata 1 and 2) do not exist here: every sapling is an oak's.
"""

from __future__ import annotations

from typing import Protocol

from .blocks import AIR, OPAQUE, block_id
from .coords import WORLD_HEIGHT
from .day_cycle import DAY_TICKS, skylight_subtracted
from .support import can_stay

SAPLING = block_id("sapling")
SAPLING_READY = block_id("sapling_ready")
LOG, LEAVES = block_id("log"), block_id("leaves")
GRASS, DIRT = block_id("grass"), block_id("dirt")

SAPLING_GROWTH_CHANCE = 30
"""Beta's `random.nextInt(30) == 0`: one random tick in 30 (with the light) moves a sapling on a stage."""
SAPLING_MIN_LIGHT = 9
"""[light level] Beta's `getBlockLightValue(x, y + 1, z) >= 9`: the light above a sapling it needs to grow."""
BIG_TREE_CHANCE = 10
"""Beta's `nextInt(10) == 0` for a big oak (drawn, not grown: see the module docstring)."""
MIN_TRUNK = 4
"""[blocks] Beta's `WorldGenTrees`: a trunk of nextInt(3) + 4 logs."""
TRUNK_CHOICES = 3


class JavaRandomLike(Protocol):
    def next_int(self, bound: int) -> int: ...


class SaplingWorld(Protocol):
    """What a sapling reads and writes (`World` has it)."""

    ticks: int

    def id_at(self, x: int, y: int, z: int) -> int: ...

    def set_id(self, x: int, y: int, z: int, block: int) -> tuple: ...

    def light(self, x: int, y: int, z: int) -> tuple[int, int]: ...


def light_value(world: SaplingWorld, x: int, y: int, z: int) -> int:
    """Beta's `getBlockLightValue`: the brighter of the sky light, less what the time of day takes off
    (`day_cycle.skylight_subtracted`), and the block light."""
    sky, block = world.light(x, y, z)
    return max(sky - skylight_subtracted(world.ticks % DAY_TICKS), block)


def random_tick(world: SaplingWorld, x: int, y: int, z: int, block: int, rng: JavaRandomLike) -> None:
    """Beta's `BlockSapling.updateTick` for the sapling `block` at (x, y, z): first its flower check (a
    sapling off grass or dirt breaks: `support.can_stay`), then, with light enough above it, one tick
    in SAPLING_GROWTH_CHANCE readies a sapling or grows a ready one (`grow_tree`; where that finds no
    room the ready sapling stays)."""
    if not can_stay(world.id_at, block, x, y, z):
        world.set_id(x, y, z, AIR)
        return
    if light_value(world, x, y + 1, z) < SAPLING_MIN_LIGHT or rng.next_int(SAPLING_GROWTH_CHANCE) != 0:
        return
    if block == SAPLING:
        world.set_id(x, y, z, SAPLING_READY)
        return
    world.set_id(x, y, z, AIR)
    rng.next_int(BIG_TREE_CHANCE)
    if not grow_tree(world, x, y, z, rng):
        world.set_id(x, y, z, SAPLING_READY)


def has_room(world: SaplingWorld, x: int, y: int, z: int, height: int) -> bool:
    """Beta's `WorldGenTrees` room check: every cell of the trunk's column and the crown's layers (radius 0
    at the base, 1 up the trunk, 2 in the top two layers) is air or leaves, inside the build height."""
    if not (y >= 1 and y + height + 1 <= WORLD_HEIGHT):
        return False
    for layer in range(y, y + 2 + height):
        radius = 2 if layer >= y + 1 + height - 2 else (0 if layer == y else 1)
        for cx in range(x - radius, x + radius + 1):
            for cz in range(z - radius, z + radius + 1):
                if not 0 <= layer < WORLD_HEIGHT or world.id_at(cx, layer, cz) not in (AIR, LEAVES):
                    return False
    return True


def grow_tree(world: SaplingWorld, x: int, y: int, z: int, rng: JavaRandomLike) -> bool:
    """Beta's `WorldGenTrees.generate` with its trunk at (x, y, z): False (nothing written) without room
    (`has_room`) or without grass or dirt below; else the ground becomes dirt, the crown's four layers
    (radius 2, 2, 1, 1, top layer at the trunk's top + 1; each corner kept on a `nextInt(2) != 0`, the top
    layer's never) fill every cell that is not an opaque block with leaves, and the trunk's logs go where
    there is air or leaves."""
    height = rng.next_int(TRUNK_CHOICES) + MIN_TRUNK
    if not has_room(world, x, y, z, height):
        return False
    if world.id_at(x, y - 1, z) not in (GRASS, DIRT) or not y < WORLD_HEIGHT - height - 1:
        return False
    world.set_id(x, y - 1, z, DIRT)
    top = y + height
    for layer in range(top - 3, top + 1):
        above_top = layer - top
        radius = 1 - int(above_top / 2)  # Java's int division truncates toward zero
        for cx in range(x - radius, x + radius + 1):
            for cz in range(z - radius, z + radius + 1):
                corner = abs(cx - x) == radius and abs(cz - z) == radius
                if corner and not (rng.next_int(2) != 0 and above_top != 0):
                    continue
                if not OPAQUE[world.id_at(cx, layer, cz)]:
                    world.set_id(cx, layer, cz, LEAVES)
    for step in range(height):
        if world.id_at(x, y + step, z) in (AIR, LEAVES):
            world.set_id(x, y + step, z, LOG)
    return True
