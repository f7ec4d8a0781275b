"""Terrain plants: cactus in the desert (1-3 tall, nothing solid beside them) and dandelions, roses and
tall grass on grass; all placed from position-seeded hashes, so they are the same in any order."""

from __future__ import annotations

import numpy as np

from game.world import features
from game.world.blocks import AIR, CROSS, SOLID, block_id
from game.world.terrain import DESERT, Terrain

from .conftest import SEED

CACTUS, SAND, GRASS = (block_id(n) for n in ("cactus", "sand", "grass"))
TALL_GRASS, DANDELION, ROSE = (block_id(n) for n in ("tall_grass", "dandelion", "rose"))


def region_ids(terrain: Terrain, cx0: int, cz0: int, size: int) -> np.ndarray:
    return np.concatenate([np.concatenate([terrain.column(cx, cz) for cz in range(cz0, cz0 + size)], axis=2)
                           for cx in range(cx0, cx0 + size)], axis=0)


def cactus_stacks(ids: np.ndarray) -> list[tuple[int, int, int, int]]:
    """(x, z, lowest y, height) of every vertical run of cactus."""
    stacks = []
    for x, z in zip(*np.nonzero((ids == CACTUS).any(axis=1))):
        ys = np.flatnonzero(ids[x, :, z] == CACTUS)
        starts = np.flatnonzero(np.diff(ys, prepend=-2) != 1)
        ends = np.append(starts[1:], ys.size)
        stacks.extend((int(x), int(z), int(ys[s]), int(e - s)) for s, e in zip(starts, ends))
    return stacks


def test_cactus_stand_on_desert_sand_one_to_three_tall_with_nothing_solid_beside_them():
    terrain = Terrain(SEED)
    ids = region_ids(terrain, -18, -6, 6)
    stacks = cactus_stacks(ids)
    assert len(stacks) > 20
    heights = {height for *_, height in stacks}
    assert heights == {1, 2, 3}
    x0, z0 = -18 * 16, -6 * 16
    xs = np.array([x for x, *_ in stacks]) + x0
    zs = np.array([z for _, z, *_ in stacks]) + z0
    assert set(terrain.surface(xs, zs).biome.tolist()) == {DESERT}
    for x, z, y, height in stacks:
        assert ids[x, y - 1, z] == SAND
        assert ids[x, y + height, z] == AIR
        assert 0 < x < ids.shape[0] - 1 and 0 < z < ids.shape[2] - 1  # cactus never stand on a column side
        beside = ids[[x - 1, x + 1, x, x], y:y + height, [z, z, z - 1, z + 1]]
        assert not SOLID[beside].any(), (x, y, z)


def test_a_cactus_candidate_with_a_solid_block_beside_it_does_not_grow_and_the_others_do():
    seed = Terrain(SEED).cactus_seed
    lx, lz, height = features.cactus_candidates(seed, 0, 0)
    ids = np.zeros((16, 256, 16), dtype=np.uint16)
    ids[:, 70, :] = SAND
    stone_x, stone_z = int(lx[0]) + 1, int(lz[0])
    ids[stone_x, 71, stone_z] = block_id("stone")
    features.place_cactus(ids, seed, 0, 0, np.full((16, 16), 70), np.ones((16, 16), dtype=bool))
    expected: dict[tuple[int, int], int] = {}
    for x, z, tall in zip(lx.tolist(), lz.tolist(), height.tolist()):
        if abs(x - stone_x) + abs(z - stone_z) != 1:
            expected[x, z] = max(expected.get((x, z), 0), tall)
    assert (int(lx[0]), int(lz[0])) not in expected and expected
    assert ids[lx[0], 71, lz[0]] == AIR
    for (x, z), tall in expected.items():
        assert np.all(ids[x, 71:71 + tall, z] == CACTUS) and ids[x, 71 + tall, z] == AIR
    assert np.count_nonzero(ids == CACTUS) == sum(expected.values())


def test_cactus_candidates_stand_on_odd_local_cells_so_no_two_touch_sideways():
    seed = Terrain(SEED).cactus_seed
    for cx in range(-20, 20):
        lx, lz, height = features.cactus_candidates(seed, cx, 3)
        assert set(lx.tolist()) <= set(range(1, 14, 2)) and set(lz.tolist()) <= set(range(1, 14, 2))
        assert set(height.tolist()) <= {1, 2, 3}


def test_flowers_and_tall_grass_stand_on_grass_under_open_air():
    ids = region_ids(Terrain(SEED), 8, -2, 4)
    px, py, pz = np.nonzero(CROSS[ids])
    kinds = ids[px, py, pz]
    assert set(kinds.tolist()) == {TALL_GRASS, DANDELION, ROSE}
    assert np.all(ids[px, py - 1, pz] == GRASS)
    tops = np.count_nonzero((ids[:, :-1] == GRASS) & ((ids[:, 1:] == AIR) | CROSS[ids[:, 1:]]))
    share = np.count_nonzero(kinds == TALL_GRASS) / tops
    assert abs(share - features.TALL_GRASS_CHANCE / 256) < 0.03
    assert np.count_nonzero(kinds == DANDELION) > np.count_nonzero(kinds == ROSE)


def test_plants_grow_only_on_grass_and_never_under_water():
    ids = region_ids(Terrain(SEED), 0, 14, 6)  # sea, lakes and grass
    assert (ids == block_id("water")).sum() > 10_000
    px, py, pz = np.nonzero(CROSS[ids])
    assert px.size > 100
    assert set(ids[px, py - 1, pz].tolist()) == {GRASS}
    assert not np.any(ids[px, py + 1, pz] == block_id("water"))
