"""Falling blocks stepped on arrays give the one-by-one tick's bits, and a tick's work is bounded.

Stepped one by one, a 16 x 16 x 150 sand block collapsing (4,325 blocks in flight) has a
median tick of 137 ms. The vectorised tick (`FallingBlocks(world)`, the default for a World) moves
every block whose move is known without a query together; `FallingBlocks(world, vectorised=False)`
is its readable twin (`_step` for each block in turn). At most MAX_STARTS_PER_TICK blocks start
to fall in one tick; the rest wait in the world's queue, never lost. The figures are bench rows
(`python -m bench falling`), not asserted here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from game.rules.falling_blocks import MAX_STARTS_PER_TICK, FallingBlocks
from game.world.lab import Arena
from game.world import World
from game.world.falling import FALL_TICKS

SEED = 5
BASE_Y = 150
"""Scenes are built from here up, in the open sky of the seed-5 world."""
SIZE = 6
"""[blocks] Edge of the square a random scene stands on."""
OBSTACLES = ("stone", "water", "lava", "cobweb", "soul_sand", "stone_slab", "fence", "gravel", "sand", "torch")
"""What a random scene scatters under its falling blocks: every kind of cell a fall can meet."""


def paired(tmp_path: Path, build) -> list[tuple[World, FallingBlocks]]:
    """The same scene (`build(world)`) built twice: stepped on arrays, and one by one."""
    pair = []
    for name, vectorised in (("arrays", True), ("one_by_one", False)):
        world = World.create(tmp_path / f"{name}.boxel", SEED, workers=1)
        build(world)
        pair.append((world, FallingBlocks(world, vectorised=vectorised)))
    return pair


def run_both(pair, ticks: int, x0: int, x1: int, z0: int, z1: int) -> None:
    """Tick both worlds and their falling blocks; after every tick they hold the same bits."""
    (world, falling), (world_ref, falling_ref) = pair
    try:
        for tick in range(ticks):
            world.tick()
            falling.tick()
            world_ref.tick()
            falling_ref.tick()
            assert repr(falling.live) == repr(falling_ref.live), f"tick {tick}"
            cells = (x0, 0, z0, x1, 256, z1)
            assert np.array_equal(world.ids_in_box(*cells), world_ref.ids_in_box(*cells))
            assert (falling.landed, falling.lost, falling.started) == (
                falling_ref.landed, falling_ref.lost, falling_ref.started)
    finally:
        world.close()
        world_ref.close()


def mixed_collapse(world: World) -> None:
    """4 x 4 stacks of sand and gravel 20 high falling 40 blocks past water, lava, a cobweb, soul
    sand, a slab and a fence, onto stone."""
    for x in range(4):
        for z in range(4):
            world.set_block(x, BASE_Y, z, "stone")
            world.set_block(x, BASE_Y + 40, z, "stone")
            for y in range(BASE_Y + 41, BASE_Y + 61):
                world.set_block(x, y, z, "sand" if (x + y) % 3 else "gravel")
    for cell, name in (((1, BASE_Y + 20, 1), "water"), ((2, BASE_Y + 10, 2), "lava"), ((0, BASE_Y + 15, 3), "cobweb"),
                       ((3, BASE_Y + 1, 0), "soul_sand"), ((3, BASE_Y + 1, 3), "stone_slab"),
                       ((0, BASE_Y + 1, 0), "fence")):
        world.set_block(*cell, name)
    for _ in range(FALL_TICKS + 1):
        world.tick()
    for x in range(4):
        for z in range(4):
            world.set_block(x, BASE_Y + 40, z, "air")


def test_a_collapse_past_water_lava_cobwebs_soul_sand_slabs_and_fences_steps_on_arrays_to_the_one_by_one_bits(
        tmp_path):
    run_both(paired(tmp_path, mixed_collapse), 160, 0, 4, 0, 4)


@st.composite
def scenes(draw):
    """Random stacks of sand and gravel with gaps, over random obstacles, on a floor: (cells, supports)."""
    cells = {}
    supports = []
    for x in range(SIZE):
        for z in range(SIZE):
            cells[(x, BASE_Y, z)] = "stone"
            for y in draw(st.lists(st.integers(BASE_Y + 1, BASE_Y + 25), max_size=3)):
                cells[(x, y, z)] = draw(st.sampled_from(OBSTACLES))
            support = draw(st.integers(BASE_Y + 3, BASE_Y + 30))
            supports.append((x, support, z))
            cells[(x, support, z)] = "stone"
            for y in range(support + 1, support + 1 + draw(st.integers(0, 12))):
                cells[(x, y, z)] = draw(st.sampled_from(("sand", "gravel", "sand", "air")))
    return cells, supports


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scene=scenes())
def test_any_collapse_steps_on_arrays_to_the_one_by_one_bits(tmp_path_factory, scene):
    cells, supports = scene

    def build(world: World) -> None:
        for cell, name in cells.items():
            world.set_block(*cell, name)
        for _ in range(FALL_TICKS + 1):
            world.tick()
        for cell in supports:
            world.set_block(*cell, "air")

    run_both(paired(tmp_path_factory.mktemp("scene"), build), 70, 0, SIZE, 0, SIZE)


def layer_with_nothing_under_it(world: World, size: int = 16) -> None:
    """A size x size layer of sand on a support 30 blocks over a floor, the support just taken away."""
    for x in range(size):
        for z in range(size):
            world.set_block(x, BASE_Y, z, "stone")
            world.set_block(x, BASE_Y + 30, z, "stone")
            world.set_block(x, BASE_Y + 31, z, "sand")
    for _ in range(FALL_TICKS + 1):
        world.tick()
    for x in range(size):
        for z in range(size):
            world.set_block(x, BASE_Y + 30, z, "air")


def test_at_most_max_starts_per_tick_blocks_start_to_fall_in_one_tick_and_the_rest_start_later_none_lost(tmp_path):
    with World.create(tmp_path / "layer.boxel", SEED, workers=1) as world:
        layer_with_nothing_under_it(world)
        falling = FallingBlocks(world)
        starts = []
        for _ in range(120):
            before = falling.started
            world.tick()
            falling.tick()
            starts.append(falling.started - before)
        assert max(starts) == MAX_STARTS_PER_TICK and falling.deferred > 0
        assert sum(starts) == 256 and falling.landed == 256 and falling.lost == 0 and len(falling) == 0
        assert all(world.get_block(x, BASE_Y + 1, z) == "sand" for x in range(16) for z in range(16))


def test_the_capped_layer_falls_the_same_on_arrays_as_one_by_one(tmp_path):
    run_both(paired(tmp_path, layer_with_nothing_under_it), 90, 0, 16, 0, 16)


def test_views_on_arrays_blend_each_box_from_its_previous_tick(tmp_path):
    pair = paired(tmp_path, mixed_collapse)
    (world, falling), (world_ref, falling_ref) = pair
    for _ in range(FALL_TICKS + 8):
        world.tick()
        falling.tick()
    live = falling.live
    assert live and all(f.previous is not None for f in live)
    views = falling.views(0.25)
    assert [v.key for v in views] == [f.key for f in live]
    for view, block in zip(views, live):
        assert tuple(view.box) == tuple(p + (c - p) * 0.25 for p, c in zip(block.previous, block.body.box))
    world.close()
    world_ref.close()


def test_falling_blocks_step_on_arrays_unless_asked_and_need_a_game_world():
    class Plain:  # collision boxes only: not a game world (no ids_in_box, no falling starts...)
        def collision_boxes(self, region):
            return []

    assert FallingBlocks(Arena()).vectorised is True
    assert FallingBlocks(Arena(), vectorised=None).vectorised is True
    assert FallingBlocks(Arena(), vectorised=False).vectorised is False
    with pytest.raises(TypeError, match="GameWorld"):
        FallingBlocks(Plain())
    with pytest.raises(TypeError, match="vectorised"):
        FallingBlocks(Arena(), vectorised="yes")


def test_in_an_open_air_collapse_onto_stone_every_blocks_move_is_worked_out_on_arrays(tmp_path):
    with World.create(tmp_path / "pillar.boxel", SEED, workers=1) as world:
        for x in range(8):
            for z in range(8):
                world.set_block(x, BASE_Y, z, "stone")
                world.set_block(x, BASE_Y + 30, z, "stone")
                for y in range(BASE_Y + 31, BASE_Y + 41):
                    world.set_block(x, y, z, "sand")
        for _ in range(FALL_TICKS + 1):
            world.tick()
        for x in range(8):
            for z in range(8):
                world.set_block(x, BASE_Y + 30, z, "air")
        falling = FallingBlocks(world)
        most = 0
        for _ in range(80):
            world.tick()
            gone = falling.landed + falling.lost
            falling.tick()
            stepped = len(falling) + falling.landed + falling.lost - gone
            assert falling.moved_on_arrays == stepped  # none ran `_step`
            most = max(most, stepped)
        assert most > 150 and falling.lost == 0
