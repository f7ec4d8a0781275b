"""The F3 panel's lines about what the player moves through: the medium, the fall distance and the
touched materials (pure: no window)."""

from __future__ import annotations

import pytest

import physics
from game.world.lab import LADDER_CELLS, POOL_MIN, build_arena
from game.rules.medium import MEDIA, medium, medium_lines, touched_names
from physics import shapes
from physics.materials import Material


def body_at(x: float, y: float, z: float, **fields) -> physics.Body:
    return physics.Body(physics.AABB.around_feet(x, y, z, 0.6, 1.8), **fields)


@pytest.fixture(scope="module")
def grid() -> physics.BlockGrid:
    """A ladder at cell (0, 0, 0) against the -Z side, stone under it."""
    grid = physics.BlockGrid()
    grid.set(0, 0, 0, shapes.LADDER["north"], material=Material.LADDER)
    grid.set(0, -1, 0, shapes.FULL_CUBE)
    return grid


@pytest.mark.parametrize("fields, feet, expected", [
    ({"in_water": True}, (5.5, 0.0, 5.5), "water"),
    ({"in_water": True}, (0.5, 0.0, 0.5), "water"),  # swimming beats the ladder in the feet cell
    ({"in_lava": True}, (5.5, 0.0, 5.5), "lava"),
    ({}, (0.5, 0.0, 0.5), "ladder"),
    ({"on_ground": True}, (0.5, 0.999, 0.5), "ladder"),  # the feet cell decides, not the ground
    ({"in_web": True}, (5.5, 0.0, 5.5), "web"),
    ({"on_ground": True}, (5.5, 0.0, 5.5), "land"),
    ({}, (5.5, 3.0, 5.5), "air"),
    ({}, (0.5, 1.0, 0.5), "air"),  # feet just above the ladder's cell
])
def test_the_medium_is_the_first_of_water_lava_ladder_web_land_air(grid, fields, feet, expected):
    assert medium(body_at(*feet, **fields), grid) == expected
    assert expected in MEDIA


def test_the_ladder_is_read_from_the_cell_under_the_feet_centre_with_floor_not_truncation(grid):
    grid = physics.BlockGrid()
    grid.set(-1, -1, -1, shapes.LADDER["east"], material=Material.LADDER)
    assert medium(body_at(-0.5, -0.5, -0.5), grid) == "ladder"
    assert medium(body_at(0.5, -0.5, -0.5), grid) == "air"


def test_a_world_without_materials_has_no_ladders():
    class BoxesOnly:
        def collision_boxes(self, region):
            return [physics.AABB(0.0, 0.0, 0.0, 1.0, 1.0, 0.125)]  # a ladder's box, but nobody says so

    assert medium(body_at(0.5, 0.0, 0.5), BoxesOnly()) == "air"


def test_the_lines_show_the_medium_the_fall_distance_in_blocks_to_two_decimals_and_the_touched_materials(grid):
    body = body_at(5.5, 3.0, 5.5, fall_distance=2.5, touching=frozenset({Material.SOUL_SAND, Material.WATER}))
    assert medium_lines(body, grid) == ["medium    air  fall 2.50 blocks  touching water, soul_sand"]
    still = body_at(5.5, 0.0, 5.5, on_ground=True, fall_distance=-0.0)
    assert medium_lines(still, grid) == ["medium    land  fall 0.00 blocks  touching -"]
    assert "fall 12.35 blocks" in medium_lines(body_at(5.5, 0.0, 5.5, fall_distance=12.3456), grid)[0]


def test_every_material_has_a_lowercase_name_in_material_order():
    assert touched_names(body_at(0.5, 0.0, 0.5, touching=frozenset(Material))) == \
        "air, solid, water, lava, ladder, web, soul_sand, cactus"


def test_in_the_lab_the_pool_and_the_ladders_read_as_their_media():
    arena = build_arena()
    x, y, z = LADDER_CELLS[0]
    assert medium(body_at(x + 0.5, float(y), z + 0.5), arena) == "ladder"
    assert medium(body_at(POOL_MIN[0] + 0.5, float(POOL_MIN[1]), POOL_MIN[2] + 0.5, in_water=True), arena) == "water"
