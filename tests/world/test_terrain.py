"""Terrain: deterministic by seed, biomes, layers, caves and trees, and the per-block reference agrees."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from bench.reference_terrain import reference_column
from game.world import trees
from game.world.blocks import AIR, block_id
from game.world.terrain import DESERT, MOUNTAINS, PLAINS, STONE_LINE_Y, Terrain

from .conftest import SEED

GOLDEN_SHA256 = "234c5407f42665b4bd1697515b06333604b2a78f4736ef06f9a7ac8b3912a7ae"
"""sha256 of the ids of columns (-2..1) x (-2..1) of seed 42, C order, in cx then cz order.
Update only on purpose: a change means every existing world's unedited terrain changes."""

GRASS, DIRT, SAND, STONE, BEDROCK = (block_id(n) for n in ("grass", "dirt", "sand", "stone", "bedrock"))
LOG, LEAVES = block_id("log"), block_id("leaves")
AREA = [(cx, cz) for cx in range(-2, 2) for cz in range(-2, 2)]


def region_ids(terrain: Terrain, cx0: int, cz0: int, size: int) -> np.ndarray:
    """Columns (cx0.., cz0..) x size x size stitched into one [x, y, z] array."""
    return np.concatenate([np.concatenate([terrain.column(cx, cz) for cz in range(cz0, cz0 + size)], axis=2)
                           for cx in range(cx0, cx0 + size)], axis=0)


def test_the_columns_around_the_origin_for_seed_42_match_the_pinned_hash():
    terrain = Terrain(SEED)
    digest = hashlib.sha256(b"".join(terrain.column(cx, cz).tobytes() for cx, cz in AREA)).hexdigest()
    assert digest == GOLDEN_SHA256


def test_a_column_does_not_depend_on_which_columns_were_generated_before_it():
    forward = {key: Terrain(SEED).column(*key) for key in AREA}
    shared = Terrain(SEED)
    for key in reversed(AREA):
        shared.column(key[0] + 7, key[1] - 3)
        assert np.array_equal(shared.column(*key), forward[key])


def test_different_seeds_give_different_terrain():
    assert not np.array_equal(Terrain(1).column(0, 0), Terrain(2).column(0, 0))


@pytest.mark.parametrize(("cx", "cz"), [(-1, 2), (-16, -6), (-16, -13)])  # plains with a tree, desert, mountains
def test_the_vectorised_generator_gives_the_same_ids_as_the_per_block_reference(cx, cz):
    expected = np.array(reference_column(SEED, cx, cz), dtype=np.uint16)
    assert np.array_equal(Terrain(SEED).column(cx, cz), expected)


def test_the_three_biomes_occur_with_their_surface_blocks():
    terrain = Terrain(SEED)
    x, z = np.meshgrid(np.arange(-512, 512, 8), np.arange(-512, 512, 8), indexing="ij")
    surface = terrain.surface(x.ravel(), z.ravel())
    for biome in (PLAINS, DESERT, MOUNTAINS):
        assert np.count_nonzero(surface.biome == biome) > 100
    assert set(surface.top_block[surface.biome == DESERT].tolist()) == {SAND}
    assert set(surface.top_block[surface.biome == PLAINS].tolist()) == {GRASS}
    high = (surface.biome == MOUNTAINS) & (surface.top_y >= STONE_LINE_Y)
    low = (surface.biome == MOUNTAINS) & (surface.top_y < STONE_LINE_Y)
    assert high.any() and low.any()
    assert set(surface.top_block[high].tolist()) == {STONE}
    assert set(surface.top_block[low].tolist()) == {GRASS}


def test_biome_borders_are_blended_so_neighbouring_surfaces_differ_by_a_few_blocks_at_most():
    terrain = Terrain(SEED)
    x, z = np.meshgrid(np.arange(-256, 256), np.arange(-256, 0), indexing="ij")
    surface = terrain.surface(x.ravel(), z.ravel())
    height = surface.top_y.reshape(x.shape)
    biome = surface.biome.reshape(x.shape)
    border = biome[1:] != biome[:-1]
    assert border.sum() > 100
    assert np.abs(np.diff(height, axis=0))[border].max() <= 4


def test_every_column_has_bedrock_at_y0_and_dirt_under_grass():
    ids = region_ids(Terrain(SEED), -1, -1, 3)
    assert np.all(ids[:, 0, :] == BEDROCK)
    grass_x, grass_y, grass_z = np.nonzero(ids == GRASS)
    assert grass_x.size > 0
    assert np.all(ids[grass_x, grass_y - 1, grass_z] == DIRT)


def test_caves_hollow_some_of_the_ground_but_never_the_bedrock():
    ids = Terrain(SEED).column(3, 3)
    top = (ids != AIR).cumsum(axis=1).argmax(axis=1)  # highest non-air block per block column
    underground = np.arange(256)[None, :, None] < (top[:, None, :] - 4)
    hollow = (ids == AIR) & underground
    assert 0.01 < hollow[:, 1:].sum() / underground[:, 1:].sum() < 0.3
    assert not hollow[:, 0].any()


def test_tree_crowns_cross_column_borders_and_are_whole_on_both_sides():
    terrain = Terrain(SEED)
    ids = region_ids(terrain, -3, -3, 6)
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
