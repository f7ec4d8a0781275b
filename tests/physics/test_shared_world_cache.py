"""Crowds of one world sharing one `broad_phase.WorldCache` (`Crowd(world, world_cache=...)`, a game's
mobs and players): the same bodies as crowds with their own caches, each tile asked for once."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physics import AABB, BlockGrid, Body, CrowdSettings, Intent
from physics.broad_phase import WorldCache, windows_of
from physics.crowd import Crowd

from .test_cell_journal import SHAPES, counting
from .test_crowd import bits, crowds_on, intents_strategy, terrains
from .worlds import floor

FORGETFUL = CrowdSettings(min_vector_bodies=1, cache_cells_per_cell_used=1, cache_cells_always=0)
"""A tuning whose cache prunes every tile not in use at once: the users' ranges decide what stays."""


class User:
    """A cache user (a crowd, in a game): any object a weak reference can name."""


def edit_near(grid: BlockGrid, crowd: Crowd, rng: random.Random) -> None:
    """Set or remove a block under or beside one of `crowd`'s bodies."""
    box = rng.choice(crowd.bodies).box
    x = math.floor((box[0] + box[3]) / 2) + rng.randint(-1, 1)
    y = math.floor(box[1]) + rng.randint(-1, 1)
    z = math.floor((box[2] + box[5]) / 2) + rng.randint(-1, 1)
    if rng.random() < 0.5:
        grid.remove(x, y, z)
    else:
        grid.set(x, y, z, rng.choice(SHAPES))


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_two_crowds_sharing_a_world_cache_move_exactly_as_crowds_stepped_one_by_one_through_edits(data):
    grid, ox, oz = data.draw(terrains())
    bodies = data.draw(crowds_on(ox, oz))
    half = len(bodies) // 2
    cache = WorldCache(grid, data.draw(st.sampled_from([FORGETFUL, CrowdSettings(min_vector_bodies=1)])))
    mobs = Crowd(grid, vectorised=True, tuning=FORGETFUL, world_cache=cache)
    players = Crowd(grid, vectorised=True, tuning=FORGETFUL, pushes=False, world_cache=cache)
    plain_mobs, plain_players = Crowd(grid, vectorised=False), Crowd(grid, vectorised=False, pushes=False)
    for body in bodies[:half]:
        mobs.add(body)
        plain_mobs.add(body)
    for body in bodies[half:]:
        players.add(body)
        plain_players.add(body)
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    for _ in range(data.draw(st.integers(2, 6))):
        for crowd, plain in ((mobs, plain_mobs), (players, plain_players)):
            if not len(crowd):
                continue
            for _ in range(rng.randint(0, 3)):  # edits between the two crowds' steps as well as between ticks
                edit_near(grid, crowd, rng)
            intents = data.draw(st.lists(intents_strategy, min_size=len(crowd), max_size=len(crowd)))
            crowd.step(intents)
            plain.step(intents)
            assert [bits(b) for b in crowd.bodies] == [bits(b) for b in plain.bodies]


def test_a_crowd_sharing_another_crowds_world_cache_asks_the_world_nothing_on_the_same_ground():
    grid = floor(BlockGrid())
    asked = counting(grid)
    first = Crowd(grid, vectorised=True)
    second = Crowd(grid, vectorised=True, pushes=False, world_cache=first.world_cache)
    for x in range(-6, 7, 2):
        first.add(physics_body(x + 0.5, 0.5))
        second.add(physics_body(x + 0.5, 1.5))
    still = [Intent()] * 7
    first.step(still)
    assert asked
    asked.clear()
    second.step(still)
    first.step(still)
    assert asked == []


def physics_body(x: float, z: float) -> Body:
    return Body(AABB.around_feet(x, 64.0, z, 0.6, 1.8), on_ground=True)


def test_a_shared_world_cache_keeps_the_tiles_every_user_asked_for_in_its_last_tick():
    grid = floor(BlockGrid(), x0=-40, x1=140)
    asked = counting(grid)
    cache = WorldCache(grid, FORGETFUL)
    here, there = User(), User()
    near = windows_of(np.array([AABB.around_feet(0.5, 64.0, 0.5, 0.6, 1.8)]))
    far = windows_of(np.array([AABB.around_feet(100.5, 64.0, 0.5, 0.6, 1.8)]))
    for tick in range(3):
        for user, windows in ((here, near), (there, far)):
            cache.new_tick()
            cache.prune(windows, user)
            cache.slots(windows)
        if tick == 0:
            asked.clear()
    assert asked == []  # neither user's prune forgot the other's tiles


def test_without_users_a_world_cache_prunes_to_the_ranges_of_the_one_caller():
    grid = floor(BlockGrid(), x0=-40, x1=140)
    asked = counting(grid)
    cache = WorldCache(grid, FORGETFUL)
    near = windows_of(np.array([AABB.around_feet(0.5, 64.0, 0.5, 0.6, 1.8)]))
    far = windows_of(np.array([AABB.around_feet(100.5, 64.0, 0.5, 0.6, 1.8)]))
    for windows in (near, far, far):  # the second far tick forgets the near tiles
        cache.new_tick()
        cache.prune(windows)
        cache.slots(windows)
    asked.clear()
    cache.new_tick()
    cache.prune(near)
    cache.slots(near)
    assert asked and all(region.max_x < 10 for region in asked)  # the near tiles, forgotten for the far ones


def test_a_crowd_refuses_a_world_cache_of_another_world_or_something_else():
    grid, other = floor(BlockGrid()), floor(BlockGrid())
    with pytest.raises(ValueError):
        Crowd(grid, world_cache=WorldCache(other))
    with pytest.raises(TypeError):
        Crowd(grid, world_cache=object())
    cache = WorldCache(grid)
    assert Crowd(grid, world_cache=cache).world_cache is cache
    assert isinstance(Crowd(grid).world_cache, WorldCache)


def test_a_dropped_crowd_stops_holding_its_tiles_in_a_shared_cache():
    grid = floor(BlockGrid())
    cache = WorldCache(grid)
    crowd = Crowd(grid, vectorised=True, tuning=FORGETFUL, world_cache=cache)
    for x in range(-6, 7, 2):
        crowd.add(physics_body(x + 0.5, 0.5))
    crowd.step([Intent(forward=1.0)] * 7)
    assert len(cache._in_use) == 1
    del crowd
    assert len(cache._in_use) == 0
