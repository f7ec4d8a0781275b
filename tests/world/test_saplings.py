"""Saplings grow into trees by Beta's random ticks, given light and room; random ticks touch nothing else."""

from __future__ import annotations

import numpy as np

from game.world import saplings
from game.world.blocks import block_id
from game.world.world_ticker import (RANDOM_TICK_LCG_ADDEND, RANDOM_TICKS_PER_COLUMN, RANDOM_TICKED,
                                     random_tick_picks)

SITE_Y = 100
DAY = 6000  # noon: the sky light is not dimmed


class Draws:
    """A stand-in generator returning the given nextInt answers in order."""

    def __init__(self, *answers: int) -> None:
        self.answers = list(answers)
        self.bounds: list[int] = []

    def next_int(self, bound: int) -> int:
        self.bounds.append(bound)
        return self.answers.pop(0) if self.answers else 1


def open_site(world, soil: str = "grass"):
    world.set_day_time(DAY)
    for x in range(-3, 4):
        for z in range(-3, 4):
            world.set_block(x, SITE_Y - 1, z, soil)
            for y in range(SITE_Y, SITE_Y + 9):
                world.set_block(x, y, z, "air")
    world.set_block(0, SITE_Y, 0, "sapling")


def test_random_tick_picks_follow_betas_lcg_from_the_columns_start():
    picks = random_tick_picks(42, 1000, 3, -2)
    assert picks.shape == (RANDOM_TICKS_PER_COLUMN, 3)
    assert (picks[:, 0] < 16).all() and (picks[:, 2] < 16).all() and (picks[:, 1] < 256).all()
    again = random_tick_picks(42, 1000, 3, -2)
    np.testing.assert_array_equal(picks, again)
    assert not np.array_equal(picks, random_tick_picks(42, 1001, 3, -2))


def test_each_pick_is_one_step_of_betas_update_lcg():
    picks = random_tick_picks(7, 5, 0, 0)
    # The readable twin of the closed form: step Beta's LCG one pick at a time from the column's start.
    from game.world.world_ticker import _mix
    state = _mix(7, 5, 0, 0) & 0xFFFFFFFF
    for lx, y, lz in picks.tolist():
        state = (state * 3 + RANDOM_TICK_LCG_ADDEND) & 0xFFFFFFFF
        k = state >> 2
        assert (lx, y, lz) == (k & 15, (k >> 16) & 255, (k >> 8) & 15)


def test_only_saplings_are_random_ticked():
    assert [i for i in np.flatnonzero(RANDOM_TICKED)] == [block_id("sapling"), block_id("sapling_ready")]


def test_a_lucky_tick_readies_a_sapling_and_a_second_grows_it_into_a_tree(world):
    open_site(world)
    saplings.random_tick(world, 0, SITE_Y, 0, block_id("sapling"), Draws(0))
    assert world.get_block(0, SITE_Y, 0) == "sapling_ready"
    grow = Draws(0, 0, 1)  # the 1 in 30, the big-tree draw, a trunk of 1 + 4 = 5; every corner kept
    saplings.random_tick(world, 0, SITE_Y, 0, block_id("sapling_ready"), grow)
    assert grow.bounds[:3] == [30, 10, 3]
    assert [world.get_block(0, SITE_Y + i, 0) for i in range(5)] == ["log"] * 5
    assert world.get_block(0, SITE_Y + 5, 0) == "leaves" and world.get_block(0, SITE_Y - 1, 0) == "dirt"
    assert world.get_block(2, SITE_Y + 2, 2) == "leaves"  # a kept corner of the lowest layer (trunk top - 3 + ...)
    assert world.get_block(1, SITE_Y + 5, 1) == "air"  # the top layer's corners are never kept


def test_an_unlucky_tick_or_a_dark_one_does_nothing(world):
    open_site(world)
    saplings.random_tick(world, 0, SITE_Y, 0, block_id("sapling"), Draws(5))
    assert world.get_block(0, SITE_Y, 0) == "sapling"
    world.set_block(0, SITE_Y + 1, 0, "stone")  # light 0 above: below Beta's 9, no draw at all
    dark = Draws(0)
    saplings.random_tick(world, 0, SITE_Y, 0, block_id("sapling"), dark)
    assert world.get_block(0, SITE_Y, 0) == "sapling" and dark.bounds == []


def test_a_ready_sapling_without_room_stays_a_ready_sapling(world):
    open_site(world)
    world.set_block(0, SITE_Y, 0, "sapling_ready")
    world.set_block(1, SITE_Y + 3, 0, "stone")  # inside the trunk's radius-1 room
    saplings.random_tick(world, 0, SITE_Y, 0, block_id("sapling_ready"), Draws(0, 0, 0))
    assert world.get_block(0, SITE_Y, 0) == "sapling_ready" and world.get_block(0, SITE_Y + 1, 0) == "air"


def test_a_sapling_off_its_soil_breaks_on_its_random_tick(world):
    open_site(world, soil="sand")
    saplings.random_tick(world, 0, SITE_Y, 0, block_id("sapling"), Draws(0))
    assert world.get_block(0, SITE_Y, 0) == "air"


def test_a_planted_sapling_grows_into_a_tree_by_the_worlds_random_ticks_alone(world, monkeypatch):
    monkeypatch.setattr(saplings, "SAPLING_GROWTH_CHANCE", 1)  # every tick that picks it is lucky: ~2 x 410 ticks
    open_site(world)
    grown_at = None
    for tick in range(10_000):
        world.tick()
        if world.get_block(0, SITE_Y, 0) == "log":
            grown_at = tick
            break
    assert grown_at is not None
    assert world.get_block(0, SITE_Y + 3, 0) == "log" and world.get_block(0, SITE_Y - 1, 0) == "dirt"


def test_random_ticks_leave_a_world_without_saplings_exactly_as_it_was(world):
    world.set_block(0, SITE_Y, 0, "stone")
    revision = world.revision
    for _ in range(200):
        world.tick()
    assert world.revision == revision and world.cells_changed_since(revision) == []


def test_a_sapling_in_a_saved_world_is_found_and_grown_after_it_is_opened_again(tmp_path, monkeypatch):
    from game.world.world import World
    monkeypatch.setattr(saplings, "SAPLING_GROWTH_CHANCE", 1)
    path = tmp_path / "saved.boxel"
    with World.create(path, seed=42, workers=1) as world:
        open_site(world)
        world.save()
    with World.open(path, workers=1) as world:
        for _ in range(10_000):
            world.tick()
            if world.get_block(0, SITE_Y, 0) == "log":
                break
        assert world.get_block(0, SITE_Y, 0) == "log"
