"""The world cache's queries for readers between crowd ticks: the highest top of the boxes meeting
each of many boxes (`WorldCache.highest_tops`, against its readable twin asked of the world box by
box) and the materials of many cells (`WorldCache.materials_at`, against `world.material`), on
random worlds of every shape, through edits the cache learns of with `sync`; and a world's optional
many-boxes query (`collision_box_array`) filling the cache as `collision_boxes` does."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physics import AABB, BlockGrid, Material
from physics.broad_phase import WorldCache, highest_tops_readable

from .test_world_cache_patches import EDGE, LAYERS, edit, random_cell
from .test_cell_journal import SHAPES


def random_world(rng: random.Random, blocks: int = 300) -> BlockGrid:
    grid = BlockGrid()
    for _ in range(blocks):
        grid.set(*random_cell(rng), rng.choice(SHAPES))
    for _ in range(blocks // 10):
        x, y, z = random_cell(rng)
        grid.set(x, y, z, (), material=rng.choice([Material.WATER, Material.LAVA]))
    return grid


def thin_columns(rng: random.Random, count: int) -> np.ndarray:
    """Boxes like a mob's look down under its probe (thin and tall), and some wide and flat ones,
    their faces now and then on whole blocks (where strictness matters)."""
    boxes = []
    for _ in range(count):
        x, z = rng.uniform(-EDGE, EDGE - 1), rng.uniform(-EDGE, EDGE - 1)
        bottom = rng.choice([float(rng.randint(*LAYERS)), rng.uniform(*LAYERS)])
        width, height = rng.choice([(0.1, 4.0), (rng.uniform(0.05, 2.0), rng.uniform(0.05, 5.0)), (1.0, 1.0)])
        boxes.append((x, bottom, z, x + width, bottom + height, z + width))
    return np.array(boxes, dtype=np.float64)


def check_through_edits(seed: int, check) -> None:
    """`check(cache, world, rng)` on a random world's cache, synced after each of a few rounds of edits."""
    rng = random.Random(seed)
    grid = random_world(rng)
    cache = WorldCache(grid)
    for _ in range(4):
        cache.sync()
        check(cache, grid, rng)
        for _ in range(rng.randint(1, 12)):
            edit(grid, rng)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_highest_tops_of_many_boxes_are_those_the_world_gives_box_by_box_through_edits(seed):
    def check(cache, grid, rng):
        asked = thin_columns(rng, 40)
        assert np.array_equal(cache.highest_tops(asked), highest_tops_readable(grid, asked))

    check_through_edits(seed, check)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_materials_of_many_cells_are_what_the_world_says_cell_by_cell_through_edits(seed):
    def check(cache, grid, rng):
        cells = np.array([random_cell(rng) for _ in range(60)], dtype=np.int64)
        assert cache.materials_at(cells).tolist() == [int(grid.material(x, y, z)) for x, y, z in cells.tolist()]

    check_through_edits(seed, check)


def test_a_box_touching_a_block_only_on_its_face_does_not_meet_it():
    grid = BlockGrid()
    grid.set(0, 0, 0)
    cache = WorldCache(grid)
    cache.sync()
    above = np.array([(0.25, 1.0, 0.25, 0.75, 3.0, 0.75), (0.25, 0.5, 0.25, 0.75, 3.0, 0.75),
                      (1.0, 0.0, 0.0, 2.0, 1.0, 1.0)])
    assert cache.highest_tops(above).tolist() == [-np.inf, 1.0, -np.inf]


class ArrayWorld(BlockGrid):
    """A BlockGrid that also answers the optional many-boxes query, in a shuffled order."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.asked = 0
        self._shuffle = random.Random(seed)

    def collision_box_array(self, x0, y0, z0, x1, y1, z1) -> np.ndarray:
        self.asked += 1
        boxes = list(self.collision_boxes(AABB(float(x0), float(y0), float(z0), float(x1), float(y1), float(z1))))
        self._shuffle.shuffle(boxes)
        return np.array(boxes, dtype=np.float64).reshape(-1, 6)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_cache_filled_by_the_many_boxes_query_answers_as_one_filled_box_by_box(seed):
    rng = random.Random(seed)
    plain, arrays = BlockGrid(), ArrayWorld(seed)
    for _ in range(300):
        cell, shape = random_cell(rng), rng.choice(SHAPES)
        plain.set(*cell, shape)
        arrays.set(*cell, shape)
    by_boxes, by_arrays = WorldCache(plain), WorldCache(arrays)
    by_boxes.sync()
    by_arrays.sync()
    regions = np.array([AABB.around_feet(rng.uniform(-EDGE, EDGE), rng.uniform(-3, 3), rng.uniform(-EDGE, EDGE),
                                         rng.uniform(0.2, 3.0), rng.uniform(0.2, 3.0)) for _ in range(30)])
    ours, our_used = by_arrays.around(regions)
    theirs, their_used = by_boxes.around(regions)
    assert arrays.asked > 0
    for k in range(len(regions)):
        assert ({tuple(ours[:, k, s]) for s in range(int(our_used[k]))}
                == {tuple(theirs[:, k, s]) for s in range(int(their_used[k]))})
    asked = thin_columns(rng, 40)
    assert np.array_equal(by_arrays.highest_tops(asked), by_boxes.highest_tops(asked))


def test_cells_beyond_the_keyed_ones_are_refused_with_a_clear_error():
    from physics.broad_phase import KEYED_XZ

    cache = WorldCache(BlockGrid())
    cache.sync()
    with pytest.raises(ValueError, match="keyed"):
        cache.highest_tops(np.array([(KEYED_XZ + 0.5, 0.0, 0.5, KEYED_XZ + 0.6, 1.0, 0.6)]))
    with pytest.raises(ValueError, match="keyed"):
        cache.materials_at(np.array([(0, 0, -KEYED_XZ - 1)]))


class MisshapenBoxes(BlockGrid):
    def collision_box_array(self, x0, y0, z0, x1, y1, z1):
        return np.zeros((2, 5))


class MisshapenMaterials(BlockGrid):
    def material_array(self, x0, y0, z0, x1, y1, z1):
        return np.zeros((x1 - x0 + 1, y1 - y0 + 1))


@pytest.mark.parametrize("world", [MisshapenBoxes(), MisshapenMaterials()], ids=["boxes", "materials"])
def test_a_world_whose_array_query_gives_the_wrong_shape_is_refused_with_a_clear_error(world):
    cache = WorldCache(world)
    cache.sync()
    with pytest.raises(ValueError, match="must give"):
        cache.materials_at(np.array([(0, 0, 0)]))
