"""The crowd's world cache reading edited tile columns again (`WorldCache._patch_column`) instead of
asking about their whole tiles: the same boxes, materials and slipperiness as a fresh cache, on both
the patching path and the forgetting path past PATCHED_COLUMNS_MOST, and through the packing that
PATCHED_BOXES_KEPT starts."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physics import AABB, BlockGrid, Material, broad_phase, shapes
from physics.broad_phase import WORLD_TILE_SIZE, WorldCache

from .test_cell_journal import SHAPES, cache_on_a_floor

EDGE = 8
"""[blocks] The random worlds span -EDGE..EDGE - 1 on x and z (four tiles a side)."""
LAYERS = (-3, 4)
"""[blocks] ...and these layers (y from, to excluded)."""


def random_cell(rng: random.Random) -> tuple[int, int, int]:
    return rng.randrange(-EDGE, EDGE), rng.randrange(*LAYERS), rng.randrange(-EDGE, EDGE)


def edit(grid: BlockGrid, rng: random.Random) -> None:
    """One random edit: a block of a random shape, ice, water (no box, a material), or a removal."""
    x, y, z = random_cell(rng)
    roll = rng.random()
    if roll < 0.4:
        grid.remove(x, y, z)
    elif roll < 0.7:
        grid.set(x, y, z, rng.choice(SHAPES))
    elif roll < 0.85:
        grid.set(x, y, z, shapes.FULL_CUBE, slipperiness=0.98)
    else:
        grid.set(x, y, z, shapes.EMPTY, material=Material.WATER)


def assert_same_answers(kept: WorldCache, grid: BlockGrid, rng: random.Random, y: float = 0.0) -> None:
    """`kept` answers every question as a cache made now would: boxes around random regions (as sets:
    a box may be listed twice, and in another order), slipperiness, solid cells and special tiles."""
    fresh = WorldCache(grid)
    fresh.new_tick()
    regions = np.array([AABB.around_feet(rng.uniform(-EDGE, EDGE), y + rng.uniform(-3, 3), rng.uniform(-EDGE, EDGE),
                                         rng.uniform(0.2, 3.0), rng.uniform(0.2, 3.0)) for _ in range(30)])
    ours, our_used = kept.around(regions)
    theirs, their_used = fresh.around(regions)
    for k in range(len(regions)):
        mine = {tuple(ours[:, k, s]) for s in range(int(our_used[k]))}
        truth = {tuple(theirs[:, k, s]) for s in range(int(their_used[k]))}
        assert mine == truth, k
    low = int(y)
    cells = np.array([(x, low + dy, z) for x in range(-EDGE, EDGE) for dy in range(*LAYERS) for z in range(-EDGE, EDGE)])
    assert np.array_equal(kept.slipperiness(cells), fresh.slipperiness(cells))
    windows = broad_phase.windows_of(regions)
    assert np.array_equal(kept.solid_in(windows), fresh.solid_in(windows))
    assert np.array_equal(kept.special_near(windows), fresh.special_near(windows))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), edits_per_tick=st.integers(1, 20),
       columns_most=st.sampled_from([broad_phase.PATCHED_COLUMNS_MOST, 1]),
       boxes_kept=st.sampled_from([broad_phase.PATCHED_BOXES_KEPT, 3]))
def test_a_world_cache_reading_edited_columns_again_answers_as_a_fresh_cache(seed, edits_per_tick, columns_most,
                                                                              boxes_kept):
    rng = random.Random(seed)
    grid = BlockGrid()
    for _ in range(300):
        grid.set(*random_cell(rng), rng.choice(SHAPES))
    kept = WorldCache(grid)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(broad_phase, "PATCHED_COLUMNS_MOST", columns_most)
        patch.setattr(broad_phase, "PATCHED_BOXES_KEPT", boxes_kept)
        for _ in range(6):
            for _ in range(edits_per_tick):
                edit(grid, rng)
            kept.new_tick()
            assert_same_answers(kept, grid, rng)


def test_one_edit_makes_the_world_cache_read_only_the_tile_columns_of_the_cell_and_the_cell_above():
    grid = BlockGrid()
    asked, cache, regions = cache_on_a_floor(grid)
    asked.clear()
    grid.set(3, 63, 0, shapes.FENCE)  # in the floor's tile; a fence reaches into the cell above (y 64, the next tile)
    cache.new_tick()
    changed, used = cache.around(regions)
    t = WORLD_TILE_SIZE  # 64 is a multiple of it: the floor's tile ends at y 63, the next starts at 64
    assert sorted(asked) == [AABB(3.0, 64.0 - t, 0.0, 4.0, 64.0, 1.0), AABB(3.0, 64.0, 0.0, 4.0, 64.0 + t, 1.0)]
    assert (changed[4] == 64.5).any()  # the fence's top, above the floor
    windows, forgets = cache.forgotten_since(0)
    assert forgets == 1 and windows.tolist() == [[3, 64 - t, 0, 3, 63, 0], [3, 64, 0, 3, 63 + t, 0]]


def test_many_patches_make_the_world_cache_pack_its_table_and_start_a_new_generation():
    grid = BlockGrid()
    _, cache, regions = cache_on_a_floor(grid, floor_y=0)
    generation, filed = cache.generation, cache._filed_count
    edits = 0
    while cache.generation == generation:
        grid.set(edits % 40 - 20, 0, 0, shapes.SLAB if edits % 2 else shapes.FULL_CUBE)  # a box per patch at least
        edits += 1
        cache.new_tick()
        cache.around(regions)
        assert edits <= broad_phase.PATCHED_BOXES_KEPT + 1
    assert cache._filed_count <= filed + WORLD_TILE_SIZE  # packed: the old runs are gone
    assert_same_answers(cache, grid, random.Random(1), y=1.0)
