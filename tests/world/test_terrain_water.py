"""Terrain water and lava: the sea and its share of the world, beaches and the sea floor, lakes, lava
pools at the bottom of caves, and that no fluid is generated where it could flow out."""

from __future__ import annotations

import numpy as np
import pytest

from game.world import features
from game.world.blocks import AIR, FLUID_LEVEL, LAVA_IDS, SOLID, WATER_IDS, block_id
from game.world.terrain import (BEACH_TOP_Y, FILLER_DEPTH, LAKE_MIN_WATER_Y, LAVA_POOL_Y, SEA_LEVEL, SHALLOW_FLOOR_Y,
                                Terrain)

from .conftest import SEED

WATER, LAVA = int(WATER_IDS[0]), int(LAVA_IDS[0])
GRASS, SAND, GRAVEL, DIRT, LEAVES = (block_id(n) for n in ("grass", "sand", "gravel", "dirt", "leaves"))
SAMPLE_COLUMNS = 4000


def region(terrain: Terrain, cx0: int, cz0: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The ids of columns (cx0.., cz0..) x size x size stitched [x, y, z], and their surface heights [x, z]."""
    ids = np.concatenate([np.concatenate([terrain.column(cx, cz) for cz in range(cz0, cz0 + size)], axis=2)
                          for cx in range(cx0, cx0 + size)], axis=0)
    x, z = np.meshgrid(np.arange(cx0 * 16, (cx0 + size) * 16), np.arange(cz0 * 16, (cz0 + size) * 16), indexing="ij")
    return ids, terrain.surface(x.ravel(), z.ravel()).top_y.reshape(x.shape)


def cells_that_let_a_fluid_out(ids: np.ndarray, fluid: int) -> int:
    """How many cells of `fluid` (away from the region's sides) have a neighbour beside or below them
    that is neither the same fluid nor solid."""
    inside = ids[1:-1, 1:, 1:-1] == fluid
    leaks = 0
    for neighbour in (ids[:-2, 1:, 1:-1], ids[2:, 1:, 1:-1], ids[1:-1, 1:, :-2], ids[1:-1, 1:, 2:], ids[1:-1, :-1, 1:-1]):
        leaks += int(np.count_nonzero(inside & (neighbour != fluid) & ~SOLID[neighbour]))
    return leaks


@pytest.mark.parametrize("seed", [SEED, 1, -7])
def test_about_a_third_of_the_world_is_sea_and_the_rest_land(seed):
    rng = np.random.default_rng(7)
    x, z = rng.integers(-20_000, 20_000, SAMPLE_COLUMNS), rng.integers(-20_000, 20_000, SAMPLE_COLUMNS)
    sea = np.count_nonzero(Terrain(seed).surface(x, z).top_y < SEA_LEVEL) / SAMPLE_COLUMNS
    assert 0.2 < sea < 0.45  # measured 0.30 to 0.31 for these seeds


@pytest.mark.parametrize(("seed", "cx0", "cz0"), [(SEED, -7, -7), (SEED, -12, 11), (1, 0, 0)])
def test_every_air_cell_up_to_sea_level_over_a_surface_below_it_is_water_and_no_other_is(seed, cx0, cz0):
    ids, top = region(Terrain(seed), cx0, cz0, 4)
    y = np.arange(SEA_LEVEL + 1).reshape(1, -1, 1)
    sea = (y > top[:, None, :]) & (top[:, None, :] < SEA_LEVEL)
    assert sea.any()
    assert np.all(ids[:, :SEA_LEVEL + 1][sea] == WATER)
    assert not np.any(ids[:, :SEA_LEVEL + 1][~sea] == WATER)


def sampled_surface(terrain: Terrain):
    rng = np.random.default_rng(11)
    return terrain.surface(rng.integers(-20_000, 20_000, 20_000), rng.integers(-20_000, 20_000, 20_000))


def test_coastal_surfaces_from_the_sea_up_to_two_above_it_are_sand_four_blocks_deep():
    surface = sampled_surface(Terrain(SEED))
    beach = (surface.ocean > 0) & (surface.top_y >= SEA_LEVEL) & (surface.top_y <= BEACH_TOP_Y)
    assert np.count_nonzero(beach) > 200
    assert set(surface.top_block[beach].tolist()) == {SAND}
    assert set(surface.filler_block[beach].tolist()) == {SAND}


def test_the_shore_of_the_sea_is_sand():
    ids, top = region(Terrain(SEED), -7, -7, 4)
    shore = (top >= SEA_LEVEL) & (top <= BEACH_TOP_Y)
    beside_sea = np.zeros_like(shore)
    sunken = top < SEA_LEVEL
    beside_sea[1:] |= sunken[:-1]
    beside_sea[:-1] |= sunken[1:]
    beside_sea[:, 1:] |= sunken[:, :-1]
    beside_sea[:, :-1] |= sunken[:, 1:]
    sx, sz = np.nonzero(shore & beside_sea)
    assert sx.size > 30
    sandy = np.all([ids[sx, top[sx, sz] - depth, sz] == SAND for depth in range(FILLER_DEPTH + 1)], axis=0)
    assert np.count_nonzero(sandy) >= 0.95 * sx.size  # but where the coast meets a flat at LAND_MIN_Y


def test_the_sea_floor_is_sand_gravel_or_dirt_and_never_grass():
    terrain = Terrain(SEED)
    surface = sampled_surface(terrain)
    underwater = surface.top_y < SEA_LEVEL
    assert set(surface.top_block[underwater].tolist()) == {SAND, GRAVEL, DIRT}
    assert set(surface.top_block[underwater & (surface.top_y >= SHALLOW_FLOOR_Y)].tolist()) == {SAND}
    ids, _ = region(terrain, -7, -7, 4)
    assert (ids == WATER).any()
    assert not np.any((ids[:, :-1] == GRASS) & (FLUID_LEVEL[ids[:, 1:]] >= 0))


@pytest.mark.parametrize(("seed", "cx0", "cz0"), [(SEED, 0, 14), (SEED, -4, -10), (SEED, -22, -4), (1, -4, -4)])
def test_no_water_or_lava_cell_has_an_open_cell_beside_or_below_it(seed, cx0, cz0):
    ids, _ = region(Terrain(seed), cx0, cz0, 8)
    assert np.count_nonzero(ids == WATER) > 500 and np.count_nonzero(ids == LAVA) > 1000
    assert cells_that_let_a_fluid_out(ids, WATER) == 0
    assert cells_that_let_a_fluid_out(ids, LAVA) == 0


def test_the_leak_check_finds_a_hole_in_a_pool():
    ids = np.full((5, 4, 5), block_id("stone"), dtype=np.uint16)
    ids[1:4, 2, 1:4] = WATER
    assert cells_that_let_a_fluid_out(ids, WATER) == 0
    ids[4, 2, 2] = AIR
    assert cells_that_let_a_fluid_out(ids, WATER) == 1


def test_lakes_stand_above_the_sea_in_open_depressions():
    ids, top = region(Terrain(SEED), 0, 14, 8)
    wx, wy, wz = np.nonzero(ids[:, SEA_LEVEL + 1:] == WATER)
    wy = wy + SEA_LEVEL + 1
    assert wx.size > 200, "the region should hold several lakes"
    assert wy.min() >= LAKE_MIN_WATER_Y - features.LAKE_WATER_DEPTH + 1 == SEA_LEVEL + 1
    surface = ids[wx, wy + 1, wz] != WATER
    assert set(ids[wx[surface], wy[surface] + 1, wz[surface]].tolist()) <= {AIR, LEAVES}  # never roofed by ground
    assert np.all(wy[surface] <= top[wx[surface], wz[surface]])  # no higher than the ground it was carved from


def test_lake_blobs_stay_one_block_inside_their_column_and_box():
    tries = 0
    seed = Terrain(SEED).lake_seed
    for cx in range(-40, 40):
        for cz in range(-40, 40):
            blob = features.lake_blob(seed, cx, cz)
            if blob is None:
                continue
            tries += 1
            assert blob.shape == (16, features.LAKE_HEIGHT, 16)
            assert blob[1:-1, 1:-1, 1:-1].any()
            assert not (blob[[0, -1]].any() or blob[:, [0, -1]].any() or blob[:, :, [0, -1]].any())
    assert 6400 * features.LAKE_CHANCE / 256 * 0.8 < tries < 6400 * features.LAKE_CHANCE / 256 * 1.2


def flat_ground(surface_y: int) -> tuple[np.ndarray, np.ndarray]:
    """A column of stone under 3 dirt under grass at `surface_y`, and its surface heights."""
    ids = np.zeros((16, 256, 16), dtype=np.uint16)
    ids[:, :surface_y - 3] = block_id("stone")
    ids[:, surface_y - 3:surface_y] = DIRT
    ids[:, surface_y] = GRASS
    return ids, np.full((16, 16), surface_y)


def a_column_that_tries_a_lake(seed: int) -> tuple[int, np.ndarray]:
    cx = next(cx for cx in range(1000) if features.lake_blob(seed, cx, 0) is not None)
    return cx, features.lake_blob(seed, cx, 0)


def test_a_lake_on_flat_ground_is_water_up_to_the_surface_with_open_air_above_and_grass_around():
    seed = Terrain(SEED).lake_seed
    cx, blob = a_column_that_tries_a_lake(seed)
    ids, top = flat_ground(70)
    assert features.place_lake(ids, seed, cx, 0, top, np.zeros((16, 16), dtype=bool), LAKE_MIN_WATER_Y)
    base = 70 + 1 - features.LAKE_WATER_DEPTH
    footprint = blob.any(axis=1)
    for x, z in zip(*np.nonzero(footprint)):
        rows = np.flatnonzero(blob[x, :, z])
        cells = ids[x, :, z]
        if rows[0] < features.LAKE_WATER_DEPTH:  # water from the blob's lowest cell up to the surface
            assert np.all(cells[base + rows[0]:71] == WATER) and cells[base + rows[0] - 1] != WATER
        else:  # the blob only grazes this block column above the water line: a grassy shore
            assert cells[70] == GRASS
        assert np.all(cells[71:] == AIR)
    assert not (ids[:, :, :][~footprint[:, None, :].repeat(256, axis=1)] == WATER).any()


@pytest.mark.parametrize("spoil", ["tree", "cave", "too low", "too steep"])
def test_a_lake_is_dropped_and_changes_nothing_where_it_would_not_be_sound(spoil):
    seed = Terrain(SEED).lake_seed
    cx, blob = a_column_that_tries_a_lake(seed)
    ids, top = flat_ground(70)
    trunks = np.zeros((16, 16), dtype=bool)
    lowest = LAKE_MIN_WATER_Y
    water_x, water_y, water_z = np.argwhere(blob[:, :features.LAKE_WATER_DEPTH])[0]
    if spoil == "tree":
        trunks[water_x, water_z] = True
    elif spoil == "cave":  # an open cell under the lake's lowest water in one block column
        bottom = 70 + 1 - features.LAKE_WATER_DEPTH + int(np.flatnonzero(blob[water_x, :, water_z])[0])
        ids[water_x, bottom - 1, water_z] = AIR
    elif spoil == "too low":
        lowest = 71
    else:
        top[water_x, water_z] = 70 + features.LAKE_MAX_RELIEF + 1
    before = ids.copy()
    assert not features.place_lake(ids, seed, cx, 0, top, trunks, lowest)
    assert np.array_equal(ids, before)


def test_cave_cells_below_the_lava_line_are_lava_and_above_it_air():
    ids, _ = region(Terrain(SEED), 8, -2, 4)
    lava_y = np.nonzero(ids == LAVA)[1]
    assert lava_y.size > 500
    assert lava_y.max() == LAVA_POOL_Y - 1
    assert not np.any(ids[:, 1:LAVA_POOL_Y] == AIR)
    assert np.any(ids[:, LAVA_POOL_Y:SEA_LEVEL - 10] == AIR)
