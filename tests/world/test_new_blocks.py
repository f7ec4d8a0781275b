"""Survival's blocks: Beta's hardness, shapes, light and tiles, and what holds them up."""

from __future__ import annotations

import numpy as np
import pytest

from game.world.blocks import (DRAWN_SHAPES, FACE_TILES, HARDNESS, LIGHT_EMISSION, LIGHT_OPACITY, NEEDS_TOOL, NORTH,
                               OPAQUE, SELECTION_SHAPES, SHAPES, SOUTH, TILE_NAMES, TOP, block_id)
from game.world.support import NORMAL_CUBE, can_stay
from physics import AABB, shapes

SIDES = ("north", "south", "east", "west")
SITE_Y = 100


def tile(name: str, face: int) -> str:
    return TILE_NAMES[FACE_TILES[block_id(name), face]]


@pytest.mark.parametrize(("name", "hardness"), [
    ("crafting_table", 2.5), ("furnace_north", 3.5), ("lit_furnace_east", 3.5), ("chest", 2.5),
    ("door_lower_south_closed", 3.0), ("bed_head_west", 0.2), ("sapling", 0.0), ("wall_torch_east", 0.0),
    ("iron_block", 5.0), ("gold_block", 3.0), ("diamond_block", 5.0), ("wool", 0.8), ("clay", 0.6),
    ("sandstone", 0.8), ("brown_mushroom", 0.0), ("red_mushroom", 0.0)])
def test_each_new_block_is_as_hard_as_betas(name, hardness):
    assert HARDNESS[block_id(name)] == hardness


def test_furnaces_sandstone_and_the_metal_blocks_need_a_pickaxe_and_wood_and_cloth_do_not():
    for name in ("furnace_south", "lit_furnace_west", "sandstone", "iron_block", "gold_block", "diamond_block"):
        assert NEEDS_TOOL[block_id(name)], name
    for name in ("crafting_table", "chest", "door_upper_north_open", "bed_foot_north", "wool", "clay"):
        assert not NEEDS_TOOL[block_id(name)], name


def test_a_lit_furnace_gives_light_13_and_a_wall_torch_14_as_betas_int_of_15_times_their_light_value():
    for side in SIDES:
        assert LIGHT_EMISSION[block_id(f"lit_furnace_{side}")] == int(np.float32(15.0) * np.float32(0.875)) == 13
        assert LIGHT_EMISSION[block_id(f"wall_torch_{side}")] == 14
        assert LIGHT_EMISSION[block_id(f"furnace_{side}")] == 0
    assert LIGHT_EMISSION[block_id("brown_mushroom")] == 1 and LIGHT_EMISSION[block_id("red_mushroom")] == 0


def test_a_shut_door_lies_on_the_side_its_placer_stood_and_swings_a_quarter_round_when_open():
    # Beta: a player facing south (yaw 0) has door direction 1: shut, setDoorRotation(0) (z 0..3/16);
    # open, setDoorRotation(1) (x 13/16..1).
    assert SHAPES[block_id("door_lower_south_closed")] == (AABB(0.0, 0.0, 0.0, 1.0, 1.0, 0.1875),)
    assert SHAPES[block_id("door_upper_south_open")] == (AABB(0.8125, 0.0, 0.0, 1.0, 1.0, 1.0),)
    assert SHAPES[block_id("door_lower_north_closed")] == shapes.DOOR["south"]
    assert SHAPES[block_id("door_lower_east_closed")] == shapes.DOOR["west"]
    assert SHAPES[block_id("door_lower_west_open")] == shapes.DOOR["south"]
    assert not OPAQUE[block_id("door_lower_south_closed")] and LIGHT_OPACITY[block_id("door_lower_south_closed")] == 0


def test_a_bed_is_nine_sixteenths_tall_and_a_chest_furnace_and_table_are_normal_cubes():
    for part in ("foot", "head"):
        assert SHAPES[block_id(f"bed_{part}_east")] == (AABB(0.0, 0.0, 0.0, 1.0, 0.5625, 1.0),)
    for name in ("chest", "furnace_north", "lit_furnace_south", "crafting_table", "wool", "sandstone"):
        assert NORMAL_CUBE[block_id(name)], name
    for name in ("glass", "leaves", "stone_slab", "fence", "bed_foot_north", "door_lower_north_closed"):
        assert not NORMAL_CUBE[block_id(name)], name


def test_a_furnace_shows_its_front_on_the_side_it_is_named_for_and_burns_when_lit():
    assert tile("furnace_north", NORTH) == "furnace_front" and tile("furnace_north", SOUTH) == "furnace_side"
    assert tile("lit_furnace_south", SOUTH) == "furnace_front_lit" and tile("furnace_south", TOP) == "furnace_top"


def test_a_wall_torch_is_selected_by_betas_box_against_its_wall_and_drawn_leaning_out_of_it():
    f = np.float32(0.15)
    (west,) = SELECTION_SHAPES[block_id("wall_torch_west")]
    assert west == AABB(0.0, float(np.float32(0.2)), float(np.float32(0.5) - f), float(f * np.float32(2.0)),
                        float(np.float32(0.8)), float(np.float32(0.5) + f))
    (south,) = SELECTION_SHAPES[block_id("wall_torch_south")]
    assert south[5] == 1.0 and south[2] == 1.0 - float(f * np.float32(2.0))
    drawn = DRAWN_SHAPES[block_id("wall_torch_west")]
    assert [box[0] for box in drawn] == sorted(box[0] for box in drawn) and drawn[0][0] < drawn[-1][0]
    assert drawn[0][1] == 3.0 / 16.0 and SHAPES[block_id("wall_torch_west")] == ()


@pytest.mark.parametrize(("plant", "soil", "stays"), [
    ("sapling", "grass", True), ("sapling", "dirt", True), ("sapling", "sand", False), ("dandelion", "stone", False),
    ("tall_grass", "dirt", True), ("red_mushroom", "stone", True), ("brown_mushroom", "glass", False)])
def test_plants_stand_only_on_betas_soil(plant, soil, stays):
    blocks = {(0, 0, 0): block_id(soil), (0, 1, 0): block_id(plant)}
    assert can_stay(lambda x, y, z: blocks.get((x, y, z), 0), block_id(plant), 0, 1, 0) is stays


def test_digging_the_wall_under_a_wall_torch_breaks_the_torch_and_the_world_hands_it_out(world):
    world.set_block(0, SITE_Y, 0, "stone")
    world.set_block(1, SITE_Y, 0, "wall_torch_west")
    world.set_block(0, SITE_Y + 1, 0, "stone")
    world.set_block(0, SITE_Y + 2, 0, "torch")
    world.take_unsupported()
    world.set_block(0, SITE_Y, 0, "air")
    assert world.get_block(1, SITE_Y, 0) == "air"
    assert [(b.cell, b.block) for b in world.take_unsupported()] == [((1, SITE_Y, 0), block_id("wall_torch_west"))]
    world.set_block(0, SITE_Y + 1, 0, "glass")
    assert world.get_block(0, SITE_Y + 2, 0) == "air"
    assert world.take_unsupported()[0].cell == (0, SITE_Y + 2, 0) and world.take_unsupported() == []


def test_breaking_either_half_of_a_door_or_a_bed_breaks_the_other(world):
    world.set_block(0, SITE_Y - 1, 0, "stone")
    world.set_block(0, SITE_Y, 0, "door_lower_south_closed")
    world.set_block(0, SITE_Y + 1, 0, "door_upper_south_closed")
    world.set_block(0, SITE_Y + 1, 0, "air")
    assert world.get_block(0, SITE_Y, 0) == "air"
    world.set_block(0, SITE_Y, 0, "door_lower_south_closed")
    world.set_block(0, SITE_Y + 1, 0, "door_upper_south_closed")
    world.set_block(0, SITE_Y - 1, 0, "air")
    assert (world.get_block(0, SITE_Y, 0), world.get_block(0, SITE_Y + 1, 0)) == ("air", "air")
    world.set_block(3, SITE_Y, 0, "bed_foot_east")
    world.set_block(4, SITE_Y, 0, "bed_head_east")
    world.set_block(3, SITE_Y, 0, "air")
    assert world.get_block(4, SITE_Y, 0) == "air"


def test_a_block_set_without_support_stays_until_the_cell_it_leans_on_changes(world):
    world.set_block(0, SITE_Y + 5, 0, "dandelion")  # in mid-air (a test or an old world can set one)
    world.set_block(1, SITE_Y + 5, 0, "stone")  # not what a flower stands on: Beta's check would pass if it stood
    assert world.get_block(0, SITE_Y + 5, 0) == "dandelion"
    world.set_block(0, SITE_Y + 4, 0, "glass")
    assert world.get_block(0, SITE_Y + 5, 0) == "air"
