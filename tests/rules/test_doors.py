"""Wooden doors: right-click swings both halves, and a shut door stops a body that an open one lets through."""

from __future__ import annotations

import pytest

import physics
from game.rules.doors import is_door, toggle_door
from game.world.world import World

Y = 100


@pytest.fixture(scope="module")
def opened(tmp_path_factory):
    world = World.create(tmp_path_factory.mktemp("doors") / "world.boxel", seed=42, workers=1)
    yield world
    world.close()


@pytest.fixture
def doorway(opened):
    """A stone floor at Y - 1, air above, and a door placed by a player facing south at (0, Y, 0)."""
    for x in range(-3, 4):
        for z in range(-3, 4):
            opened.set_block(x, Y - 1, z, "stone")
            for y in range(Y, Y + 4):
                opened.set_block(x, y, z, "air")
    opened.set_block(0, Y, 0, "door_lower_south_closed")
    opened.set_block(0, Y + 1, 0, "door_upper_south_closed")
    return opened


def halves(world) -> tuple[str, str]:
    return world.get_block(0, Y, 0), world.get_block(0, Y + 1, 0)


def test_right_clicking_either_half_swings_both_and_again_shuts_them(doorway):
    assert toggle_door(doorway, (0, Y + 1, 0))
    assert halves(doorway) == ("door_lower_south_open", "door_upper_south_open")
    assert toggle_door(doorway, (0, Y, 0))
    assert halves(doorway) == ("door_lower_south_closed", "door_upper_south_closed")


def test_right_clicking_anything_else_is_not_a_door_and_changes_nothing(doorway):
    assert not toggle_door(doorway, (0, Y - 1, 0)) and not toggle_door(doorway, (1, Y, 0))
    assert halves(doorway) == ("door_lower_south_closed", "door_upper_south_closed")
    assert is_door("door_upper_west_open") and not is_door("planks")


def walk_south(world, start_z: float, distance: float) -> physics.Body:
    """A body moved straight along +Z by `distance` in one move (physics.move, headless)."""
    body = physics.Body.at_feet(0.5, Y, start_z)
    return physics.move(body, 0.0, 0.0, distance, world)


def test_a_body_walking_into_a_shut_door_stops_at_its_slab_and_passes_once_it_is_open(doorway):
    # Shut, the slab lies on the cell's north side (z 0..3/16): a body coming from the north stops at z = 0.
    stopped = walk_south(doorway, -1.0, 2.0)
    assert stopped.box.max_z == 0.0
    toggle_door(doorway, (0, Y, 0))  # open: the slab swings to the east side (x 13/16..1), the way is clear
    passed = walk_south(doorway, -1.0, 2.0)
    assert passed.box.max_z == pytest.approx(-1.0 + 0.3 + 2.0)
