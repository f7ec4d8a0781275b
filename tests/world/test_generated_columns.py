"""World.take_generated_columns: which columns were generated from the seed rather than read from the file."""

from __future__ import annotations

import time

import pytest

from game.world import World, WorldClosedError


def test_a_column_generated_by_a_read_is_listed_once(tmp_path):
    with World.create(tmp_path / "w.boxel", 42, workers=1) as world:
        world.take_generated_columns()
        world.get_block(100, 64, -40)
        world.column(7, 7)
        assert world.take_generated_columns() == [(6, -3), (7, 7)]
        world.get_block(100, 64, -40)
        assert world.take_generated_columns() == []


def test_a_column_generated_in_the_background_is_listed_when_taken_in(tmp_path):
    with World.create(tmp_path / "w.boxel", 42, workers=1) as world:
        world.take_generated_columns()
        world.request(20, 20)
        deadline = time.monotonic() + 30.0
        while (20, 20) not in world.poll() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert world.take_generated_columns() == [(20, 20)]


def test_a_saved_column_read_from_the_file_is_not_listed(tmp_path):
    path = tmp_path / "w.boxel"
    with World.create(path, 42, workers=1) as world:
        world.set_block(3, 100, 3, "stone")
        world.save()
    with World.open(path, workers=1) as world:
        world.take_generated_columns()
        world.get_block(3, 100, 3)
        assert (0, 0) not in world.take_generated_columns()


def test_a_closed_world_refuses_to_list(tmp_path):
    world = World.create(tmp_path / "w.boxel", 42, workers=1)
    world.close()
    with pytest.raises(WorldClosedError):
        world.take_generated_columns()
