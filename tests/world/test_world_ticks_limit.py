"""The world's tick counter at its limit: a world near MAX_WORLD_TICKS played past it
was saved with a counter its own open refused as damage. The counter now stops at LAST_WORLD_TICK (the
largest an open accepts), the time of day cannot move it further, and a save given more refuses with
UnsavableWorldError, writing nothing: what the game writes, it opens."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.world import CorruptWorldError, UnsavableWorldError, World
from game.world.file_format import LAST_WORLD_TICK, MAX_WORLD_TICKS
from game.world.world import DAY_TICKS

from .conftest import SEED, edit_meta, fingerprint

TICK_EXAMPLES = 40
"""Hypothesis examples: each opens a small world, plays a few dozen ticks and saves (a few ms)."""


@pytest.fixture(scope="module")
def world_bytes(tmp_path_factory) -> bytes:
    path = tmp_path_factory.mktemp("ticks") / "base.boxel"
    with World.create(path, seed=SEED, workers=1) as world:
        world.set_block(0, 100, 0, "water")  # a pending update, due a few ticks on
    return path.read_bytes()


def near_the_end(folder: Path, world_bytes: bytes, ticks: int) -> Path:
    path = folder / "w.boxel"
    path.write_bytes(world_bytes)
    edit_meta(path, world_ticks=str(ticks))
    return path


def test_a_world_played_past_the_last_tick_saves_the_last_tick_and_opens_again(tmp_path, world_bytes):
    path = near_the_end(tmp_path, world_bytes, MAX_WORLD_TICKS - 10)
    with World.open(path, workers=1) as world:
        for _ in range(30):
            world.tick()
        assert world.ticks == LAST_WORLD_TICK
    with World.open(path, workers=1) as reopened:
        assert reopened.ticks == LAST_WORLD_TICK


def test_the_clock_stops_at_the_last_tick_and_the_time_of_day_cannot_pass_it(tmp_path, world_bytes):
    path = near_the_end(tmp_path, world_bytes, LAST_WORLD_TICK - 3)
    with World.open(path, workers=1) as world:
        pending = world.pending_updates
        world.set_day_time((world.day_time + DAY_TICKS // 2) % DAY_TICKS)
        assert world.ticks == LAST_WORLD_TICK
        world.tick()
        assert world.ticks == LAST_WORLD_TICK and world.pending_updates == pending  # due later: never run
    with World.open(path, workers=1) as reopened:
        assert reopened.ticks == LAST_WORLD_TICK and reopened.pending_updates == pending


def test_one_tick_past_the_limit_is_refused_at_open_as_before(tmp_path, world_bytes):
    path = near_the_end(tmp_path, world_bytes, MAX_WORLD_TICKS)
    with pytest.raises(CorruptWorldError, match=f"world_ticks {MAX_WORLD_TICKS} is not an int in 0..{LAST_WORLD_TICK}"):
        World.open(path, workers=1)


@pytest.mark.parametrize("ticks", [MAX_WORLD_TICKS, -1, 10 ** 400, 1.5, True, None])
def test_a_save_of_a_tick_counter_an_open_would_refuse_raises_and_writes_nothing(tmp_path, world_bytes, ticks):
    path = near_the_end(tmp_path, world_bytes, 5)
    with World.open(path, workers=1) as world:
        world.set_block(1, 100, 1, "brick")
        world.ticks = ticks  # as a bug in the game would leave it
        before = fingerprint(path)[0], path.with_name(path.name + "-wal").read_bytes()
        with pytest.raises(UnsavableWorldError, match="world_ticks .*nothing of this save was written"):
            world.save()
        assert (fingerprint(path)[0], path.with_name(path.name + "-wal").read_bytes()) == before
        world.ticks = 6
    with World.open(path, workers=1) as reopened:  # the edit stayed unsaved and the next save wrote it
        assert reopened.ticks == 6 and reopened.get_block(1, 100, 1) == "brick"


@settings(max_examples=TICK_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(start=st.integers(LAST_WORLD_TICK - 2 * DAY_TICKS, LAST_WORLD_TICK),
       steps=st.lists(st.one_of(st.integers(1, 40).map(lambda n: ("tick", n)),
                                st.integers(0, DAY_TICKS - 1).map(lambda t: ("time", t))), max_size=6))
def test_whatever_is_played_near_the_limit_saves_a_counter_the_next_open_accepts(tmp_path, world_bytes, start, steps):
    path = near_the_end(tmp_path, world_bytes, start)
    expected = start
    with World.open(path, workers=1) as world:
        for step, value in steps:
            if step == "tick":
                for _ in range(value):
                    world.tick()
                expected = min(expected + value, LAST_WORLD_TICK)
            else:
                world.set_day_time(value)
                expected = min(expected + (value - expected) % DAY_TICKS, LAST_WORLD_TICK)
            assert world.ticks == expected
    with World.open(path, workers=1) as reopened:
        assert reopened.ticks == expected
