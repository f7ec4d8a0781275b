"""Beta's placement rules: torches, ladders, plants, doors, beds, furnaces and chests (game.rules.placement_rules)."""

from __future__ import annotations

import pytest

import physics
from game.rules.placement_rules import REFUSED, plan
from game.rules.targeting import Target, can_place_against, place_against
from game.world.world import World
from physics import AABB

Y = 100
UP, DOWN = (0, 1, 0), (0, -1, 0)


@pytest.fixture(scope="module")
def opened(tmp_path_factory):
    world = World.create(tmp_path_factory.mktemp("placing") / "world.boxel", seed=42, workers=1)
    yield world
    world.close()


@pytest.fixture
def site(opened):
    """Air around the origin at Y, over a stone floor."""
    for x in range(-4, 5):
        for z in range(-4, 5):
            opened.set_block(x, Y - 1, z, "stone")
            for y in range(Y, Y + 5):
                opened.set_block(x, y, z, "air")
    return opened


def target(block, face) -> Target:
    x, y, z = block
    box = AABB(x, y, z, x + 1, y + 1, z + 1)
    return Target(block, face, box, (box,), 1.0, (x + 0.5, y + 0.5, z + 0.5))


def test_a_torch_on_a_floor_stands_and_one_on_a_wall_leans_on_that_wall(site):
    assert plan(site, (0, Y - 1, 0), UP, "torch", 0.0) == (((0, Y, 0), "torch"),)
    site.set_block(0, Y, 0, "stone")
    assert plan(site, (0, Y, 0), (1, 0, 0), "torch", 0.0) == (((1, Y, 0), "wall_torch_west"),)
    assert plan(site, (0, Y, 0), (0, 0, -1), "wall_torch_east", 0.0) == (((0, Y, -1), "wall_torch_south"),)


def test_a_torch_clicked_on_a_ceiling_goes_on_a_wall_beside_it_or_nowhere_never_hanging(site):
    site.set_block(0, Y + 3, 0, "stone")
    assert plan(site, (0, Y + 3, 0), DOWN, "torch", 0.0) == REFUSED
    site.set_block(1, Y + 2, 0, "stone")  # a wall east of the cell under the ceiling (Beta's order: west, east...)
    assert plan(site, (0, Y + 3, 0), DOWN, "torch", 0.0) == (((0, Y + 2, 0), "wall_torch_east"),)


def test_a_torch_is_refused_against_glass_in_mid_air_and_placed_nothing(site):
    site.set_block(0, Y + 2, 0, "glass")
    click = target((0, Y + 2, 0), (1, 0, 0))
    assert plan(site, click.block, click.face, "torch", 0.0) == REFUSED
    assert not can_place_against(site, click, "torch", [], 0.0)
    assert place_against(site, click, "torch", [], 0.0) is None and site.get_block(1, Y + 2, 0) == "air"


def test_a_torch_on_top_of_a_fence_stands_on_it(site):
    site.set_block(0, Y, 0, "fence")
    assert plan(site, (0, Y, 0), UP, "torch", 0.0) == (((0, Y + 1, 0), "torch"),)


def test_a_ladder_goes_only_against_a_solid_side_the_clicked_one_first(site):
    assert plan(site, (0, Y - 1, 0), UP, "ladder_north", 0.0) == REFUSED
    site.set_block(0, Y, 1, "stone")
    site.set_block(1, Y, 0, "stone")
    assert plan(site, (0, Y - 1, 0), UP, "ladder_north", 0.0) == (((0, Y, 0), "ladder_south"),)
    assert plan(site, (1, Y, 0), (-1, 0, 0), "ladder_north", 0.0) == (((0, Y, 0), "ladder_east"),)
    site.set_block(0, Y + 2, 0, "glass")
    assert plan(site, (0, Y + 2, 0), (1, 0, 0), "ladder_north", 0.0) == REFUSED


@pytest.mark.parametrize(("plant", "soil", "placed"), [
    ("sapling", "grass", True), ("dandelion", "dirt", True), ("rose", "stone", False), ("tall_grass", "sand", False),
    ("red_mushroom", "stone", True), ("brown_mushroom", "glass", False)])
def test_plants_go_only_on_their_soil(site, plant, soil, placed):
    site.set_block(0, Y, 0, soil)
    click = target((0, Y, 0), UP)
    assert (place_against(site, click, plant, [], 0.0) is not None) is placed
    assert site.get_block(0, Y + 1, 0) == (plant if placed else "air")


@pytest.mark.parametrize(("yaw", "facing", "front"), [(0.0, "south", "north"), (90.0, "west", "east"),
                                                      (180.0, "north", "south"), (270.0, "east", "west")])
def test_a_furnace_faces_the_player_and_a_door_faces_away_from_them(site, yaw, facing, front):
    assert plan(site, (0, Y - 1, 0), UP, "furnace_north", yaw) == (((0, Y, 0), f"furnace_{front}"),)
    assert plan(site, (0, Y - 1, 0), UP, "door_lower_north_closed", yaw) == (
        ((0, Y, 0), f"door_lower_{facing}_closed"), ((0, Y + 1, 0), f"door_upper_{facing}_closed"))


def test_a_door_needs_a_solid_block_below_two_free_cells_and_a_top_face(site):
    click = target((0, Y - 1, 0), UP)
    site.set_block(0, Y + 1, 0, "stone")
    assert place_against(site, click, "door_lower_south_closed", [], 0.0) is None
    assert site.get_block(0, Y, 0) == "air"
    site.set_block(0, Y + 1, 0, "air")
    assert plan(site, (1, Y - 1, 0), (-1, 0, 0), "door_lower_south_closed", 0.0) == REFUSED
    beside = physics.Body.at_feet(0.5, Y, 0.5)  # clear of the 3/16 slab on the cell's north side
    inside = physics.Body.at_feet(0.5, Y, 0.35)
    assert can_place_against(site, click, "door_lower_south_closed", [beside], 0.0)
    assert place_against(site, click, "door_lower_south_closed", [inside], 0.0) is None
    assert place_against(site, click, "door_lower_south_closed", [], 0.0) == (0, Y, 0)
    assert (site.get_block(0, Y, 0), site.get_block(0, Y + 1, 0)) == ("door_lower_south_closed",
                                                                      "door_upper_south_closed")


def test_a_door_beside_another_door_on_its_left_is_hinged_the_other_way_as_betas(site):
    site.set_block(1, Y, 0, "door_lower_south_closed")
    site.set_block(1, Y + 1, 0, "door_upper_south_closed")
    # Beta: direction 1 has b0 = -1, so the "left" cell (i - b0) is x + 1, where the door stands.
    assert plan(site, (0, Y - 1, 0), UP, "door_lower_south_closed", 0.0) == (
        ((0, Y, 0), "door_lower_east_open"), ((0, Y + 1, 0), "door_upper_east_open"))


def test_a_bed_lies_two_cells_along_the_look_over_solid_ground_or_not_at_all(site):
    assert plan(site, (0, Y - 1, 0), UP, "bed_foot_north", 90.0) == (((0, Y, 0), "bed_foot_west"),
                                                                      ((-1, Y, 0), "bed_head_west"))
    site.set_block(-1, Y, 0, "stone")
    assert plan(site, (0, Y - 1, 0), UP, "bed_foot_north", 90.0) == REFUSED
    site.set_block(-1, Y, 0, "air")
    site.set_block(-1, Y - 1, 0, "glass")
    assert plan(site, (0, Y - 1, 0), UP, "bed_foot_north", 90.0) == REFUSED
    assert plan(site, (0, Y - 1, 0), (1, 0, 0), "bed_foot_north", 90.0) == REFUSED


def test_a_third_chest_beside_a_pair_is_refused(site):
    site.set_block(0, Y, 0, "chest")
    assert plan(site, (0, Y - 1, 1), UP, "chest", 0.0) == (((0, Y, 1), "chest"),)
    site.set_block(0, Y, 1, "chest")
    assert plan(site, (0, Y - 1, 2), UP, "chest", 0.0) == REFUSED
    assert plan(site, (1, Y - 1, 3), UP, "chest", 0.0) == (((1, Y, 3), "chest"),)


def test_ordinary_blocks_are_not_these_rules_business(site):
    assert plan(site, (0, Y - 1, 0), UP, "dirt", 0.0) is None
