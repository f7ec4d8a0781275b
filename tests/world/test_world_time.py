"""The world's time of day: its tick counter within a 24,000-tick day, saved with the world."""

from __future__ import annotations

import pytest

from game.world import World
from game.world.world import DAY_TICKS


def test_a_new_world_starts_at_sunrise_and_its_time_moves_one_tick_a_tick_and_wraps_after_a_day(tmp_path):
    with World.create(tmp_path / "w.boxel", seed=3, workers=1) as world:
        assert world.day_time == 0
        for _ in range(5):
            world.tick()
        assert world.day_time == 5
        world.set_day_time(DAY_TICKS - 1)
        world.tick()
        assert world.day_time == 0 and world.ticks == DAY_TICKS


def test_the_time_of_day_is_saved_with_the_world_and_read_back(tmp_path):
    path = tmp_path / "w.boxel"
    with World.create(path, seed=3, workers=1) as world:
        world.set_day_time(13_000)
        world.tick()
        world.save()
    with World.open(path, workers=1) as world:
        assert world.day_time == 13_001


def test_setting_the_time_moves_the_clock_forward_and_pending_updates_keep_their_wait(tmp_path):
    with World.create(tmp_path / "w.boxel", seed=3, workers=1) as world:
        world.set_block(0, 200, 0, "stone")
        world.set_block(0, 201, 0, "water")  # its first update is due 5 ticks from now
        waits = [row[4] for row in world._updates.rows(world.ticks)]
        world.set_day_time(18_000)
        assert world.ticks == 18_000 and world.day_time == 18_000
        assert [row[4] for row in world._updates.rows(world.ticks)] == waits
        world.set_day_time(6_000)  # earlier in the day: the next morning, not back in time
        assert world.ticks == DAY_TICKS + 6_000
        for _ in range(waits[0]):
            world.tick()
        assert world.get_block(1, 201, 0) == "water_1"


@pytest.mark.parametrize("bad", [-1, DAY_TICKS, 1.5, True, "noon", None])
def test_a_time_of_day_that_is_not_an_int_in_the_day_is_refused_and_changes_nothing(tmp_path, bad):
    with World.create(tmp_path / "w.boxel", seed=3, workers=1) as world:
        world.tick()
        with pytest.raises((TypeError, ValueError)):
            world.set_day_time(bad)
        assert world.ticks == 1 and world.day_time == 1
