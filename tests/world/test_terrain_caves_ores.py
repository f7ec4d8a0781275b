"""Terrain underground: cave entrances open to the sky (and never to the sea or under a tree), ores by
depth as in Beta, dirt and gravel pockets, all only in the stone and all the same in any order."""

from __future__ import annotations

import numpy as np
import pytest

from game.world import ores
from game.world.blocks import AIR, SOLID, block_id
from game.world.coords import COLUMN_SHAPE
from game.world.terrain import CAVE_ROOF, SEA_LEVEL, Terrain

from .conftest import SEED
from .test_terrain_water import cells_that_let_a_fluid_out

STONE, LOG, WATER = block_id("stone"), block_id("log"), block_id("water")
ORES = ("coal_ore", "iron_ore", "gold_ore", "redstone_ore", "diamond_ore")
ENTRANCE_COLUMN = (-3, 0)
"""A seed-42 column with a cave entrance about ten blocks across."""
ENTRANCES_BY_THE_SEA = [(-7, -13), (-2, 20)]
"""Seed-42 columns holding both sea and a cave entrance."""
GROUND = [block_id(n) for n in ("stone", "dirt", "grass", "sand", "gravel")]
SURVEY = [(cx, cz) for cx in range(-8, 8) for cz in range(-8, 8)]
"""256 columns around seed 42's origin: 65,536 block columns, about as many as the issue surveyed."""


def surface_heights(terrain: Terrain, cx: int, cz: int) -> np.ndarray:
    x, z = np.meshgrid(np.arange(cx * 16, cx * 16 + 16), np.arange(cz * 16, cz * 16 + 16), indexing="ij")
    return terrain.surface(x.ravel(), z.ravel()).top_y.reshape(16, 16)


def open_to_the_sky_below_the_roof(ids: np.ndarray, top: np.ndarray) -> np.ndarray:
    """(16, 16) bool: block columns of dry land whose cells from the top block down to CAVE_ROOF below it
    are all air, so the sky reaches where only a cave is carved (a roof of 0 blocks)."""
    x, z = np.indices(top.shape)
    depth = np.arange(CAVE_ROOF + 1).reshape(-1, 1, 1)
    return (top >= SEA_LEVEL) & np.all(ids[x, top - depth, z] == AIR, axis=0)


def test_some_caves_open_to_the_sky_over_the_surveyed_columns():
    terrain = Terrain(SEED)
    openings = {key: open_to_the_sky_below_the_roof(terrain.column(*key), surface_heights(terrain, *key))
                for key in SURVEY}
    columns_with_one = sum(1 for opened in openings.values() if opened.any())
    block_columns = sum(int(opened.sum()) for opened in openings.values())
    assert columns_with_one >= 8  # measured 12 of the 256 columns, 332 of their 65,536 block columns
    assert 100 < block_columns < 0.02 * len(SURVEY) * 256  # openings, not a world of holes


def test_an_entrance_is_open_from_the_sky_down_into_its_cave_with_no_ground_left_hanging():
    terrain = Terrain(SEED)
    ids, top = terrain.column(*ENTRANCE_COLUMN), surface_heights(terrain, *ENTRANCE_COLUMN)
    opened = open_to_the_sky_below_the_roof(ids, top)
    assert opened.sum() > 20
    x, z = np.nonzero(opened)
    for bx, bz in zip(x.tolist(), z.tolist()):
        assert not np.isin(ids[bx, top[bx, bz] - CAVE_ROOF:, bz], GROUND).any()  # no ground left above it
    assert np.count_nonzero(ids[x, top[x, z] - CAVE_ROOF - 1, z] == AIR) > 10  # the cave goes on below


def stitched(terrain: Terrain, cx0: int, cz0: int, size: int) -> np.ndarray:
    return np.concatenate([np.concatenate([terrain.column(cx, cz) for cz in range(cz0, cz0 + size)], axis=2)
                           for cx in range(cx0, cx0 + size)], axis=0)


@pytest.mark.parametrize(("cx", "cz"), ENTRANCES_BY_THE_SEA)
def test_an_entrance_by_the_sea_lets_no_water_out(cx, cz):
    terrain = Terrain(SEED)
    ids, top = terrain.column(cx, cz), surface_heights(terrain, cx, cz)
    assert open_to_the_sky_below_the_roof(ids, top).any() and (top < SEA_LEVEL).any()
    assert cells_that_let_a_fluid_out(stitched(terrain, cx - 1, cz - 1, 3), WATER) == 0


def test_no_tree_stands_over_an_entrance():
    terrain = Terrain(SEED)
    entrances = 0
    for cx, cz in SURVEY:
        ids = terrain.column(cx, cz)
        if not open_to_the_sky_below_the_roof(ids, surface_heights(terrain, cx, cz)).any():
            continue
        entrances += 1
        log_x, log_y, log_z = np.nonzero(ids == LOG)
        assert np.all(SOLID[ids[log_x, log_y - 1, log_z]])  # every trunk stands on ground or on its own logs
    assert entrances >= 8


@pytest.mark.parametrize(("ore", "max_y"), [("coal_ore", 128), ("iron_ore", 64), ("gold_ore", 32),
                                            ("redstone_ore", 16), ("diamond_ore", 16)])
def test_each_ore_lies_below_its_beta_height_limit(ore, max_y):
    terrain = Terrain(SEED)
    heights = np.concatenate([np.nonzero(terrain.column(cx, cz) == block_id(ore))[1] for cx, cz in SURVEY[:64]])
    assert heights.size > 0
    assert heights.max() < max_y
    assert heights.min() >= 1  # never the bedrock


def test_ores_are_rarer_the_deeper_and_more_precious_as_in_beta():
    terrain = Terrain(SEED)
    counts = {name: 0 for name in (*ORES, "dirt", "gravel")}
    stone_column = np.full(COLUMN_SHAPE, STONE, dtype=np.uint16)
    for cx, cz in SURVEY[:64]:
        ids = stone_column.copy()
        ores.place_ores(ids, terrain.ore_seed, cx, cz)
        for name in counts:
            counts[name] += int(np.count_nonzero(ids == block_id(name)))
    per_column = {name: count / 64 for name, count in counts.items()}
    # measured in solid stone: coal 345, iron 95, gold 9, redstone 28, diamond 3, dirt 1724, gravel 826
    assert per_column["coal_ore"] > per_column["iron_ore"] > per_column["redstone_ore"] > per_column["gold_ore"]
    assert per_column["gold_ore"] > per_column["diamond_ore"] > 0
    assert per_column["dirt"] > per_column["gravel"] > per_column["coal_ore"]


def test_veins_replace_only_stone():
    terrain = Terrain(SEED)
    ids = np.zeros(COLUMN_SHAPE, dtype=np.uint16)
    ids[:, :64] = block_id("sand")
    ids[:, 64:128] = STONE
    ores.place_ores(ids, terrain.ore_seed, 3, -5)
    assert np.all(ids[:, :64] == block_id("sand"))
    assert np.all(ids[:, 128:] == AIR)
    assert np.any(ids[:, 64:128] == block_id("coal_ore"))


def test_a_vein_stays_inside_its_column():
    terrain = Terrain(SEED)
    for index, kind in enumerate(ores.VEIN_KINDS):
        cells = ores.vein_cells(terrain.ore_seed, 2, 7, index)
        assert cells.size > 0, kind.block
        x, y, z = np.unravel_index(cells, COLUMN_SHAPE)
        assert x.min() >= 0 and x.max() < 16 and z.min() >= 0 and z.max() < 16


def test_the_same_column_gets_the_same_ores_whatever_was_generated_before():
    seed = Terrain(SEED).ore_seed
    first = np.full(COLUMN_SHAPE, STONE, dtype=np.uint16)
    ores.place_ores(first, seed, 4, 4)
    other = np.full(COLUMN_SHAPE, STONE, dtype=np.uint16)
    ores.place_ores(other, seed, 5, 4)
    again = np.full(COLUMN_SHAPE, STONE, dtype=np.uint16)
    ores.place_ores(again, seed, 4, 4)
    assert np.array_equal(first, again) and not np.array_equal(first, other)


def test_ores_refuse_an_array_that_is_not_a_column_and_change_nothing():
    ids = np.full((16, 128, 16), STONE, dtype=np.uint16)
    with pytest.raises(ValueError):
        ores.place_ores(ids, 1, 0, 0)
    assert np.all(ids == STONE)
