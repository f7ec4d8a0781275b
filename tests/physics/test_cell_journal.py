"""A world's record of the cells it changed (`physics.world.CellJournal`, the optional
`cells_changed_since`), and the crowd's world cache reading again only what lies around them (its answers
against a fresh cache's: `test_world_cache_patches.py`)."""

from __future__ import annotations

import math
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from physics import AABB, BlockGrid, CrowdSettings, Material, shapes
from physics.broad_phase import WorldCache
from physics.crowd import Crowd
from physics.world import CellJournal

from .test_crowd import bits, crowds_on, intents_strategy, terrains
from .worlds import floor

SHAPES = [shapes.FULL_CUBE, shapes.SLAB, shapes.TOP_SLAB, shapes.FENCE, shapes.CARPET, *shapes.STAIRS.values()]


def cells_of(found) -> list[tuple[int, int, int]]:
    return [tuple(cell) for cell in found]


def test_a_journal_names_every_cell_changed_after_a_revision_and_none_before_it():
    journal = CellJournal()
    journal.record(1, [(1, 2, 3)])
    journal.record(3, [(4, 5, 6), (7, 8, 9)])
    journal.record(4, [(0, 0, 0)])
    assert sorted(cells_of(journal.since(0))) == [(0, 0, 0), (1, 2, 3), (4, 5, 6), (7, 8, 9)]
    assert sorted(cells_of(journal.since(1))) == [(0, 0, 0), (4, 5, 6), (7, 8, 9)]
    assert cells_of(journal.since(3)) == [(0, 0, 0)]
    assert cells_of(journal.since(4)) == []


def test_a_journal_that_dropped_cells_changed_after_a_revision_cannot_say_what_changed_since_it():
    journal = CellJournal(capacity=3)
    for revision in range(1, 6):
        journal.record(revision, [(revision, 0, 0)])
    assert journal.since(1) is None  # cell 2 was dropped
    assert sorted(cells_of(journal.since(2))) == [(3, 0, 0), (4, 0, 0), (5, 0, 0)]
    assert journal.since(6) is None  # a revision the journal never saw
    journal.record(7, [(0, 0, 0)] * 4)  # more than it holds at once
    assert journal.since(5) is None and cells_of(journal.since(7)) == []
    journal.record(8, None)  # too many to list
    assert journal.since(7) is None and cells_of(journal.since(8)) == []


def test_a_block_grid_names_the_cells_set_and_removed_since_a_revision():
    grid = BlockGrid()
    grid.set(1, 2, 3)
    before = grid.revision
    grid.set(4, 5, 6, material=Material.WATER, shape=shapes.EMPTY)
    grid.remove(1, 2, 3)
    grid.remove(9, 9, 9)  # nothing there: no change
    assert sorted(cells_of(grid.cells_changed_since(before))) == [(1, 2, 3), (4, 5, 6)]


def counting(grid: BlockGrid) -> list[AABB]:
    asked: list[AABB] = []
    ask = grid.collision_boxes
    grid.collision_boxes = lambda region: asked.append(region) or ask(region)
    return asked


def cache_on_a_floor(grid: BlockGrid, floor_y: int = 63) -> tuple[list[AABB], WorldCache, np.ndarray]:
    """`grid` with a floor at `floor_y` (its top a block higher), the regions asked of it counted, and a world
    cache that has gathered the boxes around bodies standing in a row on it: (asked, cache, regions)."""
    floor(grid, y=floor_y)
    asked = counting(grid)
    cache = WorldCache(grid)
    regions = np.array([AABB.around_feet(x + 0.5, floor_y + 1.0, 0.5, 0.6, 1.8) for x in range(-20, 21)])
    cache.new_tick()
    cache.around(regions)
    return asked, cache, regions


def test_after_one_edit_the_world_cache_asks_again_only_about_the_cells_around_the_edited_cell():
    grid = BlockGrid()
    asked, cache, regions = cache_on_a_floor(grid)
    tiles_at_first = len(asked)
    asked.clear()
    grid.set(3, 64, 0)
    cache.new_tick()
    changed, used = cache.around(regions)
    assert 0 < len(asked) < tiles_at_first / 4
    assert all(region.min_x <= 4 and region.max_x >= 3 for region in asked)  # tiles within a cell of x = 3
    assert (changed[4] == 65.0).any()  # the new block's top


def test_a_world_without_a_journal_makes_the_world_cache_ask_about_every_tile_again_after_an_edit():
    grid = BlockGrid()
    grid.cells_changed_since = lambda revision: None
    asked, cache, regions = cache_on_a_floor(grid)
    tiles_at_first = len(asked)
    grid.set(3, 64, 0)
    cache.new_tick()
    cache.around(regions)
    assert len(asked) == 2 * tiles_at_first


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a_vectorised_crowd_moves_as_one_by_one_through_edits_between_ticks_near_and_under_it(data):
    grid, ox, oz = data.draw(terrains())
    bodies = data.draw(crowds_on(ox, oz))
    fast = Crowd(grid, vectorised=True, tuning=CrowdSettings(min_vector_bodies=1))
    plain = Crowd(grid, vectorised=False)
    for body in bodies:
        fast.add(body)
        plain.add(body)
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    for _ in range(data.draw(st.integers(2, 6))):
        for _ in range(rng.randint(0, 6)):  # edits under and beside the bodies: blocks, ice, removals
            box = rng.choice(fast.bodies).box
            x = math.floor((box[0] + box[3]) / 2) + rng.randint(-1, 1)
            y = math.floor(box[1]) + rng.randint(-1, 1)
            z = math.floor((box[2] + box[5]) / 2) + rng.randint(-1, 1)
            roll = rng.random()
            if roll < 0.4:
                grid.remove(x, y, z)
            elif roll < 0.7:
                grid.set(x, y, z, rng.choice(SHAPES))
            else:
                grid.set(x, y, z, shapes.FULL_CUBE, slipperiness=0.98)
        intents = data.draw(st.lists(intents_strategy, min_size=len(bodies), max_size=len(bodies)))
        fast.step(intents)
        plain.step(intents)
        assert [bits(b) for b in fast.bodies] == [bits(b) for b in plain.bodies]

