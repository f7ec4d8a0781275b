"""Terrain: deterministic by seed, biomes, layers, caves, ores and trees, and the per-block reference agrees."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from bench.reference_terrain import reference_column
from game.world import trees
from game.world.blocks import AIR, block_id
from game.world.terrain import DESERT, MOUNTAINS, OCEAN, PLAINS, SEA_LEVEL, STONE_LINE_Y, Terrain

from .conftest import SEED

AREA = [(cx, cz) for cx in range(-2, 2) for cz in range(-2, 2)]
FEATURE_COLUMNS = [(5, -14), (1, 18), (-14, -5), (-3, -3), (-24, -8), (-3, 0)]
"""Seed 42's columns with trees and flowers, a beach by the sea, cactus, a lake, a mountain top, a cave
entrance (as the reference test below checks), each with ores; other seeds hash them too, whatever they
hold there."""
GOLDEN_SHA256 = {
    42: "8a1d0275cd7d01c3081ca0cef683d54741e7fb42157b88875370931a54b31f2f",
    -7: "d1f289f21f519ebf2e944e88ae004f2d5591d8f964a06785ae3bf0b75d59d869",
    2 ** 40 + 3: "3210f3e6b94f6fe23c8e644131f0ee68023176dd13f0cc29103c6ad5cfb72207",
}
"""sha256 of the ids of columns (-2..1) x (-2..1), then FEATURE_COLUMNS, C order, per seed.
Update only on purpose: a change means every existing world's unedited terrain changes."""

GRASS, DIRT, SAND, STONE, BEDROCK = (block_id(n) for n in ("grass", "dirt", "sand", "stone", "bedrock"))
LOG, LEAVES, CACTUS, WATER, LAVA = (block_id(n) for n in ("log", "leaves", "cactus", "water", "lava"))
PLANTS = [block_id(n) for n in ("tall_grass", "dandelion", "rose")]
COAL, IRON, GOLD, DIAMOND, GRAVEL = (block_id(n) for n in ("coal_ore", "iron_ore", "gold_ore", "diamond_ore", "gravel"))
ORES = (COAL, IRON, GOLD, GRAVEL)


def region_ids(terrain: Terrain, cx0: int, cz0: int, size: int) -> np.ndarray:
    """Columns (cx0.., cz0..) x size x size stitched into one [x, y, z] array."""
    return np.concatenate([np.concatenate([terrain.column(cx, cz) for cz in range(cz0, cz0 + size)], axis=2)
                           for cx in range(cx0, cx0 + size)], axis=0)


@pytest.mark.parametrize("seed", sorted(GOLDEN_SHA256))
def test_the_pinned_columns_of_each_pinned_seed_match_their_hash(seed):
    terrain = Terrain(seed)
    digest = hashlib.sha256(b"".join(terrain.column(cx, cz).tobytes() for cx, cz in AREA + FEATURE_COLUMNS))
    assert digest.hexdigest() == GOLDEN_SHA256[seed]


def test_a_column_does_not_depend_on_which_columns_were_generated_before_it():
    keys = AREA + FEATURE_COLUMNS
    forward = {key: Terrain(SEED).column(*key) for key in keys}
    shared = Terrain(SEED)
    for key in reversed(keys):
        shared.column(key[0] + 7, key[1] - 3)
        assert np.array_equal(shared.column(*key), forward[key])


def test_different_seeds_give_different_terrain():
    assert not np.array_equal(Terrain(1).column(0, 0), Terrain(2).column(0, 0))


@pytest.mark.parametrize(("cx", "cz", "holds"), [
    (5, -14, (LOG, LEAVES, GRASS, LAVA, *PLANTS[:2], *ORES, DIAMOND)),
    (1, 18, (WATER, SAND, GRASS, LAVA, *ORES)),
    (-14, -5, (CACTUS, SAND, LAVA, *ORES)),
    (-3, -3, (WATER, LOG, GRASS, LAVA, *ORES)),
    (-24, -8, (STONE, LOG, LEAVES, *ORES)),
    (-3, 0, (GRASS, AIR, *ORES, DIAMOND)),  # a cave entrance (see test_terrain_caves_ores.py)
])
def test_the_vectorised_generator_gives_the_same_ids_as_the_per_block_reference(cx, cz, holds):
    ids = Terrain(SEED).column(cx, cz)
    assert all((ids == block).any() for block in holds), "the column should hold the features it is chosen for"
    assert np.array_equal(ids, np.array(reference_column(SEED, cx, cz), dtype=np.uint16))


def test_the_reference_column_with_a_lake_holds_water_above_the_sea():
    assert (Terrain(SEED).column(-3, -3)[:, SEA_LEVEL + 1:] == WATER).sum() > 20


def test_the_biomes_and_the_ocean_occur_with_their_surface_blocks():
    terrain = Terrain(SEED)
    x, z = np.meshgrid(np.arange(-1024, 1024, 8), np.arange(-1024, 1024, 8), indexing="ij")
    surface = terrain.surface(x.ravel(), z.ravel())
    dry = surface.top_y >= SEA_LEVEL
    for biome in (PLAINS, DESERT, MOUNTAINS, OCEAN):
        assert np.count_nonzero(surface.biome == biome) > 100
    assert set(surface.top_block[(surface.biome == DESERT) & dry].tolist()) == {SAND}
    assert set(surface.top_block[(surface.biome == PLAINS) & dry].tolist()) == {GRASS, SAND}  # sand: beaches
    high = (surface.biome == MOUNTAINS) & (surface.top_y >= STONE_LINE_Y)
    low = (surface.biome == MOUNTAINS) & (surface.top_y < STONE_LINE_Y) & (surface.top_y > SEA_LEVEL + 2)
    assert high.any() and low.any()
    assert set(surface.top_block[high].tolist()) == {STONE}
    assert set(surface.top_block[low].tolist()) == {GRASS}
    assert np.count_nonzero((surface.biome == OCEAN) & dry) < 0.05 * np.count_nonzero(surface.biome == OCEAN)  # islands


def test_biome_borders_are_blended_so_neighbouring_surfaces_differ_by_a_few_blocks_at_most():
    terrain = Terrain(SEED)
    x, z = np.meshgrid(np.arange(-256, 256), np.arange(-256, 0), indexing="ij")
    surface = terrain.surface(x.ravel(), z.ravel())
    height = surface.top_y.reshape(x.shape)
    biome = surface.biome.reshape(x.shape)
    border = biome[1:] != biome[:-1]
    assert border.sum() > 100
    assert np.abs(np.diff(height, axis=0))[border].max() <= 4


def test_every_column_has_bedrock_at_y0_and_grass_stands_on_dirt_or_on_the_stone_under_a_lake_floor():
    ids = region_ids(Terrain(SEED), -4, -4, 3)  # holds the lake of column (-3, -3)
    assert np.all(ids[:, 0, :] == BEDROCK)
    grass_x, grass_y, grass_z = np.nonzero(ids == GRASS)
    assert grass_x.size > 0
    below = ids[grass_x, grass_y - 1, grass_z]
    assert set(below.tolist()) <= {DIRT, STONE}
    assert np.count_nonzero(below == DIRT) > 0.95 * below.size


def test_caves_hollow_some_of_the_ground_but_never_the_bedrock():
    ids = Terrain(SEED).column(5, -14)
    top = (ids != AIR).cumsum(axis=1).argmax(axis=1)  # highest non-air block per block column
    underground = np.arange(256)[None, :, None] < (top[:, None, :] - 4)
    hollow = ((ids == AIR) | (ids == LAVA)) & underground
    assert 0.01 < hollow[:, 1:].sum() / underground[:, 1:].sum() < 0.3
    assert not hollow[:, 0].any()


def test_tree_crowns_cross_column_borders_and_are_whole_on_both_sides():
    terrain = Terrain(SEED)
    ids = region_ids(terrain, -4, -4, 5)
    trunk_x, trunk_y, trunk_z = np.nonzero((ids == LOG) & (np.roll(ids, -1, axis=1) != LOG))  # top logs
    inner = (trunk_x >= 2) & (trunk_x < ids.shape[0] - 2) & (trunk_z >= 2) & (trunk_z < ids.shape[2] - 2)
    near_border = inner & ((trunk_x % 16 <= 1) | (trunk_x % 16 >= 14) | (trunk_z % 16 <= 1) | (trunk_z % 16 >= 14))
    assert near_border.sum() >= 2, "the test area should hold trees whose crowns cross a border"
    for x, y, z in zip(trunk_x[inner], trunk_y[inner], trunk_z[inner]):
        # the crown's 3 x 3 core one below the top log (layer 0) is always leaves around the trunk
        core = ids[x - 1:x + 2, y - 1, z - 1:z + 2].copy()
        core[1, 1] = LEAVES
        assert np.all((core == LEAVES) | (core == LOG)), (x, y, z)


def test_tree_candidates_are_the_same_whichever_neighbour_asks():
    seed = Terrain(SEED).tree_seed
    mine = trees.candidates_near(seed, 0, 0)
    theirs = trees.candidates_near(seed, 1, 0)
    shared = {(x, z, h) for x, z, h in zip(mine.x.tolist(), mine.z.tolist(), mine.trunk_height.tolist())
              if 14 <= x and x - 2 < 32}
    assert shared <= {(x, z, h) for x, z, h in zip(theirs.x.tolist(), theirs.z.tolist(), theirs.trunk_height.tolist())}


def test_a_region_is_the_same_whichever_order_its_columns_are_generated_in():
    keys = [(cx, cz) for cx in range(-4, -1) for cz in range(-4, -1)]  # a lake and trees across borders
    forward = region_ids(Terrain(SEED), -4, -4, 3)
    shuffled = Terrain(SEED)
    order = [keys[i] for i in np.random.default_rng(5).permutation(len(keys))]
    columns = {key: shuffled.column(*key) for key in order}
    stitched = np.concatenate([np.concatenate([columns[cx, cz] for cz in range(-4, -1)], axis=2)
                               for cx in range(-4, -1)], axis=0)
    assert np.array_equal(stitched, forward)


def test_a_seed_that_is_not_a_64_bit_int_is_refused():
    with pytest.raises(TypeError):
        Terrain(1.5)
    with pytest.raises(ValueError):
        Terrain(2 ** 63)
