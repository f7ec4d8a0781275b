"""Building: the look ray finds the right block and face on every shape, and placing and breaking
keep the rules (reach, bodies, air only, bedrock stays). Headless: a real World in a temp folder."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from game.world.lab import build_arena
from game.rules.targeting import (REACH_BLOCKS, Target, block_boxes, break_block, can_place, find_target, look_direction,
                            place_block, placement_cell, selected_boxes)
from game.world import OutOfWorldError, UnknownBlockError, World

SITE_Y = 100
"""Floor height of the test sites: well above the seed-42 terrain near the origin, and cleared anyway."""
DIRECTION_ROUNDING = 1e-15
"""Float rounding of sin/cos of whole-degree angles (cos 90 degrees is 6e-17, not 0)."""
DISTANCE_ROUNDING = 1e-12
"""[blocks] Float rounding of a distance along a ray that is not axis-aligned (a few ulps of ~2)."""


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    opened = World.create(tmp_path_factory.mktemp("targeting") / "world.db", seed=42, workers=1)
    yield opened
    opened.close()


@pytest.fixture
def site(world):
    """The world with a clear box of air around each test site (origin and far negative), cleared again after."""
    regions = [(-6, 6), (-40, -28)]

    def clear() -> None:
        for lo, hi in regions:
            for x in range(lo, hi + 1):
                for z in range(lo, hi + 1):
                    for y in range(SITE_Y - 2, SITE_Y + 8):
                        world.set_block(x, y, z, "air")

    clear()
    world.take_changed_sections()
    yield world
    clear()


def eye_at(x: float, y: float, z: float) -> tuple[float, float, float]:
    return (x, SITE_Y + y, z)


# --- look direction -------------------------------------------------------------------------------

@pytest.mark.parametrize(("yaw", "pitch", "expected"), [
    (0.0, 0.0, (0.0, 0.0, 1.0)),  # south, +Z
    (90.0, 0.0, (-1.0, 0.0, 0.0)),  # west, -X
    (180.0, 0.0, (0.0, 0.0, -1.0)),  # north, -Z
    (270.0, 0.0, (1.0, 0.0, 0.0)),  # east, +X
    (0.0, 90.0, (0.0, -1.0, 0.0)),  # straight down
    (123.0, -90.0, (0.0, 1.0, 0.0)),  # straight up, whatever the yaw
])
def test_look_direction_follows_minecrafts_yaw_and_pitch(yaw, pitch, expected):
    assert look_direction(yaw, pitch) == pytest.approx(expected, abs=DIRECTION_ROUNDING)


@settings(max_examples=50, deadline=None)
@given(st.floats(-720.0, 720.0), st.floats(-90.0, 90.0))
def test_look_direction_is_a_unit_vector(yaw, pitch):
    assert math.hypot(*look_direction(yaw, pitch)) == pytest.approx(1.0, abs=DIRECTION_ROUNDING * 4)


def test_look_direction_refuses_non_finite_angles():
    with pytest.raises(ValueError, match="yaw_degrees must be finite"):
        look_direction(math.nan, 0.0)
    with pytest.raises(TypeError, match="pitch_degrees must be a number"):
        look_direction(0.0, "down")


# --- full cubes: block, face, distance ------------------------------------------------------------

@pytest.mark.parametrize(("yaw", "pitch", "cell", "face"), [
    (0.0, 0.0, (0, 1, 3), (0, 0, -1)),
    (180.0, 0.0, (0, 1, -3), (0, 0, 1)),
    (90.0, 0.0, (-3, 1, 0), (1, 0, 0)),
    (270.0, 0.0, (3, 1, 0), (-1, 0, 0)),
    (0.0, 90.0, (0, -2, 0), (0, 1, 0)),
    (0.0, -90.0, (0, 4, 0), (0, -1, 0)),
])
def test_the_ray_hits_a_cube_on_the_face_turned_towards_the_eye(site, yaw, pitch, cell, face):
    x, y, z = cell
    site.set_block(x, SITE_Y + y, z, "stone")
    target = find_target(site, eye_at(0.5, 1.5, 0.5), yaw, pitch)
    assert target is not None
    assert target.block == (x, SITE_Y + y, z)
    assert target.face == face
    assert target.box == physics.AABB(x, SITE_Y + y, z, x + 1, SITE_Y + y + 1, z + 1)
    assert target.distance == 2.5  # from the middle of the eye's cell to the face, 2.5 blocks away
    assert placement_cell(target) == (x + face[0], SITE_Y + y + face[1], z + face[2])


def test_the_nearest_of_two_blocks_in_line_is_the_target(site):
    site.set_block(0, SITE_Y + 1, 4, "dirt")
    site.set_block(0, SITE_Y + 1, 2, "brick")
    target = find_target(site, eye_at(0.5, 1.5, 0.5), 0.0, 0.0)
    assert target.block == (0, SITE_Y + 1, 2) and target.distance == 1.5


def test_a_diagonal_ray_hits_the_face_it_crosses_first(site):
    # Looking south and 45 degrees down from height 1.9, the ray is at z = 1.4 when it passes the
    # block's top (y = 1), so it misses the top and meets the north face (z = 2) at height 0.4.
    site.set_block(0, SITE_Y, 2, "stone")
    target = find_target(site, eye_at(0.5, 1.9, 0.5), 0.0, 45.0)
    assert target.block == (0, SITE_Y, 2)
    assert target.face == (0, 0, -1)
    assert target.distance == pytest.approx(1.5 * math.sqrt(2.0), abs=DISTANCE_ROUNDING)


# --- shapes -------------------------------------------------------------------------------------

def test_a_ray_passing_over_a_slabs_empty_upper_half_misses_it_and_hits_what_is_behind(site):
    site.set_block(0, SITE_Y + 1, 2, "stone_slab")
    site.set_block(0, SITE_Y + 1, 4, "stone")
    over = find_target(site, eye_at(0.5, 1.7, 0.5), 0.0, 0.0)
    assert over.block == (0, SITE_Y + 1, 4)
    through = find_target(site, eye_at(0.5, 1.3, 0.5), 0.0, 0.0)
    assert through.block == (0, SITE_Y + 1, 2) and through.face == (0, 0, -1)
    assert through.box == physics.AABB(0, SITE_Y + 1, 2, 1, SITE_Y + 1.5, 3)


def test_looking_down_on_a_slab_hits_its_top_half_a_block_up(site):
    site.set_block(0, SITE_Y, 0, "stone_slab")
    target = find_target(site, eye_at(0.5, 3.0, 0.5), 0.0, 90.0)
    assert target.block == (0, SITE_Y, 0) and target.face == (0, 1, 0)
    assert target.distance == 2.5
    assert placement_cell(target) == (0, SITE_Y + 1, 0)


def test_a_top_slab_is_missed_below_its_lower_empty_half(site):
    site.set_block(0, SITE_Y + 1, 2, "stone_slab_top")
    assert find_target(site, eye_at(0.5, 1.3, 0.5), 0.0, 0.0) is None
    assert find_target(site, eye_at(0.5, 1.7, 0.5), 0.0, 0.0).block == (0, SITE_Y + 1, 2)


@pytest.mark.parametrize(("eye_x", "top"), [(0.25, 0.5), (0.75, 1.0), (0.5, 1.0)])
def test_looking_down_on_stairs_hits_the_step_under_the_eye(site, eye_x, top):
    # stairs_east: the low step on x 0..0.5, the high one on x 0.5..1. On the seam (x = 0.5) the
    # higher step is met first.
    site.set_block(0, SITE_Y, 0, "stairs_east")
    target = find_target(site, eye_at(eye_x, 3.0, 0.5), 0.0, 90.0)
    assert target.block == (0, SITE_Y, 0) and target.face == (0, 1, 0)
    assert target.box[4] == SITE_Y + top
    assert target.distance == 3.0 - top
    assert target.boxes == block_boxes(site, (0, SITE_Y, 0))
    assert len(target.boxes) == 2


def test_a_ray_over_the_low_step_of_stairs_hits_the_riser_of_the_high_step(site):
    site.set_block(2, SITE_Y + 1, 0, "stairs_east")  # climbs toward +X: the riser faces west
    target = find_target(site, eye_at(0.5, 1.75, 0.5), 270.0, 0.0)
    assert target.block == (2, SITE_Y + 1, 0) and target.face == (-1, 0, 0)
    assert target.distance == 2.0  # x = 2.5, the riser, not the stairs' cell edge at x = 2
    assert placement_cell(target) == (1, SITE_Y + 1, 0)


def test_a_fence_is_targeted_through_the_half_block_it_rises_into_the_cell_above(site):
    site.set_block(0, SITE_Y, 2, "fence")
    target = find_target(site, eye_at(0.5, 1.25, 0.5), 0.0, 0.0)
    assert target.block == (0, SITE_Y, 2) and target.face == (0, 0, -1)
    assert target.box == physics.AABB(0, SITE_Y, 2, 1, SITE_Y + 1.5, 3)
    above = find_target(site, eye_at(0.5, 1.75, 0.5), 0.0, 0.0)
    assert above is None


def test_the_fence_below_is_not_part_of_the_boxes_of_the_block_above_it(site):
    site.set_block(0, SITE_Y, 0, "fence")
    site.set_block(0, SITE_Y + 1, 0, "carpet")
    assert block_boxes(site, (0, SITE_Y + 1, 0)) == (physics.AABB(0, SITE_Y + 1, 0, 1, SITE_Y + 1.0625, 1),)
    assert block_boxes(site, (0, SITE_Y, 0)) == (physics.AABB(0, SITE_Y, 0, 1, SITE_Y + 1.5, 1),)
    assert block_boxes(site, (0, SITE_Y + 2, 0)) == ()


@pytest.mark.parametrize(("block", "half_width", "height"), [
    ("torch", np.float32(0.1), np.float32(0.6)),
    ("rose", np.float32(0.2), np.float32(0.2) * np.float32(3.0)),
    ("tall_grass", np.float32(0.4), np.float32(0.8)),
])
def test_a_torch_or_plant_is_aimed_at_by_betas_selection_box_though_bodies_pass_through_it(site, block, half_width,
                                                                                          height):
    site.set_block(0, SITE_Y, 2, block)
    low, high = float(np.float32(0.5) - half_width), float(np.float32(0.5) + half_width)
    box = physics.AABB(low, SITE_Y, 2 + low, high, SITE_Y + float(height), 2 + high)
    target = find_target(site, eye_at(0.5, 0.3, 0.5), 0.0, 0.0)  # looking south, 0.3 above the floor
    assert target.block == (0, SITE_Y, 2) and target.face == (0, 0, -1)
    assert target.box == box and target.boxes == (box,) == selected_boxes(site, (0, SITE_Y, 2))
    assert block_boxes(site, (0, SITE_Y, 2)) == ()  # nothing to collide with


def test_a_ray_passing_beside_a_torch_post_goes_on_to_the_block_behind(site):
    site.set_block(0, SITE_Y, 2, "torch")
    site.set_block(0, SITE_Y, 4, "stone")
    beside = find_target(site, eye_at(0.2, 0.3, 0.5), 0.0, 0.0)  # x = 0.2: outside the post's 0.4..0.6
    over = find_target(site, eye_at(0.5, 0.7, 0.5), 0.0, 0.0)  # y = 0.7: above its 0.6
    assert beside.block == over.block == (0, SITE_Y, 4)


def test_a_cobweb_is_aimed_at_as_a_whole_cube(site):
    site.set_block(0, SITE_Y + 1, 2, "cobweb")
    target = find_target(site, eye_at(0.5, 1.5, 0.5), 0.0, 0.0)
    assert target.block == (0, SITE_Y + 1, 2) and target.box == physics.AABB(0, SITE_Y + 1, 2, 1, SITE_Y + 2, 3)


def test_water_is_not_aimed_at_so_the_ray_reaches_the_lake_floor(site):
    site.set_block(0, SITE_Y, 2, "stone")
    site.set_block(0, SITE_Y + 1, 2, "water")
    target = find_target(site, eye_at(0.5, 2.5, 0.9), 0.0, 45.0)  # through the water, onto the floor at z = 2.4
    assert target.block == (0, SITE_Y, 2) and target.face == (0, 1, 0)


def test_looking_down_on_carpet_hits_its_one_pixel_top(site):
    site.set_block(0, SITE_Y, 0, "carpet")
    target = find_target(site, eye_at(0.5, 2.0, 0.5), 77.0, 90.0)
    assert target.block == (0, SITE_Y, 0) and target.face == (0, 1, 0)
    assert target.distance == 2.0 - 0.0625


# --- coordinates, reach and air -------------------------------------------------------------------

@pytest.mark.parametrize(("eye_x", "eye_z"), [(-30.5, -30.5), (-32.25, -29.75), (-33.5, -35.5)])
@pytest.mark.parametrize(("yaw", "step"), [(90.0, (-1, 0)), (270.0, (1, 0)), (0.0, (0, 1)), (180.0, (0, -1))])
def test_negative_coordinates_and_column_borders_give_the_same_targets(site, eye_x, eye_z, yaw, step):
    # The sites straddle the column border at -32 on both axes.
    cell = (math.floor(eye_x) + 3 * step[0], SITE_Y + 1, math.floor(eye_z) + 3 * step[1])
    site.set_block(*cell, "cobblestone")
    target = find_target(site, (eye_x, SITE_Y + 1.5, eye_z), yaw, 0.0)
    assert target.block == cell
    assert target.face == (-step[0], 0, -step[1])
    eye_along = eye_x if step[0] else eye_z
    near_face = cell[0] + (step[0] < 0) if step[0] else cell[2] + (step[1] < 0)
    assert target.distance == abs(near_face - eye_along)


@pytest.mark.parametrize(("face_distance", "found"), [(4.75, True), (5.0, True), (5.0625, False), (5.25, False)])
def test_blocks_beyond_five_blocks_are_out_of_reach(site, face_distance, found):
    assert REACH_BLOCKS == 5.0
    cell_z = math.floor(0.5 + face_distance)
    eye_z = cell_z - face_distance
    site.set_block(0, SITE_Y + 1, cell_z, "stone")
    target = find_target(site, eye_at(0.5, 1.5, eye_z), 0.0, 0.0)
    assert (target is not None) == found


def test_a_shorter_reach_can_be_asked_for(site):
    site.set_block(0, SITE_Y + 1, 3, "stone")
    assert find_target(site, eye_at(0.5, 1.5, 0.5), 0.0, 0.0, reach=2.0) is None
    assert find_target(site, eye_at(0.5, 1.5, 0.5), 0.0, 0.0, reach=3.0).distance == 2.5


@pytest.mark.parametrize(("yaw", "pitch"), [(0.0, 0.0), (45.0, -30.0), (200.0, -90.0), (300.0, 10.0)])
def test_looking_into_empty_air_finds_no_target(site, yaw, pitch):
    assert find_target(site, eye_at(0.5, 1.5, 0.5), yaw, pitch) is None


def test_find_target_works_on_any_game_world_such_as_the_labs_arena():
    arena = build_arena()  # a stone slab in cell (-8, 0, -3)
    target = find_target(arena, (-7.5, 2.0, -2.5), 0.0, 90.0)
    assert target.block == (-8, 0, -3) and target.face == (0, 1, 0) and target.distance == 1.5


def test_a_world_without_selection_boxes_is_refused_with_a_clear_error():
    grid = physics.BlockGrid()  # collision boxes only: not a game world
    grid.set(-1, 0, -1, physics.shapes.SLAB)
    with pytest.raises(TypeError, match="selection_boxes"):
        find_target(grid, (-0.5, 2.0, -0.5), 0.0, 90.0)


def test_bad_eye_or_reach_is_refused_with_a_clear_error(site):
    with pytest.raises(ValueError, match="eye y must be finite"):
        find_target(site, (0.5, math.inf, 0.5), 0.0, 0.0)
    with pytest.raises(TypeError, match="eye must be three values"):
        find_target(site, (0.5, 1.5), 0.0, 0.0)
    with pytest.raises(ValueError, match="reach must be positive"):
        find_target(site, eye_at(0.5, 1.5, 0.5), 0.0, 0.0, reach=0.0)


# --- placing ----------------------------------------------------------------------------------------

def player_at(x: float, feet_y: float, z: float) -> physics.Body:
    return physics.Body.at_feet(x, SITE_Y + feet_y, z)


@pytest.mark.parametrize(("cell", "name"), [
    ((0, 1, 0), "stone"),  # where the player stands
    ((0, 2, 0), "stone"),  # at head height
    ((0, 2, 0), "stone_slab"),  # the slab's top at 2.5 is inside the head (top 2.8)
    ((0, 2, 0), "stone_slab_top"),
    ((0, 1, 0), "carpet"),  # one pixel into the feet
])
def test_placing_a_block_that_would_overlap_the_player_is_refused_and_changes_nothing(site, cell, name):
    player = player_at(0.5, 1.0, 0.5)
    x, y, z = cell
    assert not can_place(site, (x, SITE_Y + y, z), name, [player])
    assert place_block(site, (x, SITE_Y + y, z), name, [player]) is None
    assert site.get_block(x, SITE_Y + y, z) == "air"
    assert site.take_changed_sections() == set()


def test_a_fence_is_refused_under_a_flying_player_it_would_reach_into_but_a_cube_is_not(site):
    player = player_at(0.5, 1.25, 0.5)  # feet a quarter block above cell y = 0's top
    assert not can_place(site, (0, SITE_Y, 0), "fence", [player])
    assert can_place(site, (0, SITE_Y, 0), "stone", [player])


@pytest.mark.parametrize("cell", [(1, 1, 0), (0, 0, 0), (0, 3, 0), (-1, 2, 0), (0, 1, 1)])
def test_placing_next_to_the_player_touching_its_box_is_allowed(site, cell):
    # The player is pressed against x = 1 and stands on y = 1; the head is at 2.8, below y = 3.
    player = player_at(0.7, 1.0, 0.5)
    assert player.box[3] == 1.0
    x, y, z = cell
    changed = place_block(site, (x, SITE_Y + y, z), "planks", [player])
    assert changed and site.get_block(x, SITE_Y + y, z) == "planks"
    assert set(changed) <= site.take_changed_sections()


def test_every_body_is_checked_not_only_the_first(site):
    far, near = player_at(4.5, 1.0, 4.5), player_at(0.5, 1.0, 0.5)
    assert not can_place(site, (0, SITE_Y + 1, 0), "stone", [far, near])
    assert not can_place(site, (0, SITE_Y + 1, 0), "stone", [far.box, near.box])  # boxes work too
    assert can_place(site, (0, SITE_Y + 1, 0), "stone", [far])


def test_placing_into_a_block_that_is_not_air_or_outside_the_world_is_refused(site):
    site.set_block(0, SITE_Y + 1, 0, "dirt")
    assert not can_place(site, (0, SITE_Y + 1, 0), "stone", [])
    assert place_block(site, (0, SITE_Y + 1, 0), "stone", []) is None
    assert site.get_block(0, SITE_Y + 1, 0) == "dirt"
    assert not can_place(site, (0, -1, 0), "stone", [])
    assert not can_place(site, (0, 256, 0), "stone", [])


def test_bad_placement_input_is_refused_with_a_clear_error_and_changes_nothing(site):
    with pytest.raises(UnknownBlockError, match="unknown block name 'stonee'"):
        place_block(site, (0, SITE_Y + 1, 0), "stonee", [])
    with pytest.raises(ValueError, match="air cannot be placed"):
        place_block(site, (0, SITE_Y + 1, 0), "air", [])
    with pytest.raises(TypeError, match="block coordinate y must be an integer"):
        place_block(site, (0, SITE_Y + 1.5, 0), "stone", [])
    with pytest.raises(TypeError, match="bodies must be physics.Body or physics.AABB"):
        place_block(site, (0, SITE_Y + 1, 0), "stone", ["player"])
    assert site.get_block(0, SITE_Y + 1, 0) == "air"
    assert site.take_changed_sections() == set()


def test_placing_against_the_targeted_face_puts_the_block_where_the_ray_came_from(site):
    site.set_block(0, SITE_Y, 3, "stone")
    player = player_at(0.5, 0.0, 0.5)
    eye = (0.5, SITE_Y + 1.62, 0.5)
    # 12 degrees down, the ray drops 0.62 (to the block's top) after 2.9 blocks: over the block.
    target = find_target(site, eye, 0.0, 12.0)
    assert target.block == (0, SITE_Y, 3) and target.face == (0, 1, 0)
    cell = placement_cell(target)
    assert place_block(site, cell, "brick", [player])
    again = find_target(site, eye, 0.0, 12.0)
    assert again.block == cell == (0, SITE_Y + 1, 3) and again.face == (0, 0, -1)


# --- breaking ---------------------------------------------------------------------------------------

def test_breaking_the_target_makes_it_air_and_returns_the_changed_sections(site):
    site.set_block(0, SITE_Y + 1, 3, "glass")
    site.take_changed_sections()
    target = find_target(site, eye_at(0.5, 1.5, 0.5), 0.0, 0.0)
    changed = break_block(site, target)
    assert (0, SITE_Y >> 4, 0) in changed
    assert site.get_block(0, SITE_Y + 1, 3) == "air"
    assert site.take_changed_sections() == set(changed)
    assert find_target(site, eye_at(0.5, 1.5, 0.5), 0.0, 0.0) is None


def test_bedrock_cannot_be_broken(site):
    site.set_block(0, SITE_Y + 1, 3, "bedrock")
    site.take_changed_sections()
    target = find_target(site, eye_at(0.5, 1.5, 0.5), 0.0, 0.0)
    assert target.block == (0, SITE_Y + 1, 3)
    assert break_block(site, target) == ()
    assert site.get_block(0, SITE_Y + 1, 3) == "bedrock"
    assert site.take_changed_sections() == set()


def test_the_bedrock_below_the_world_is_targeted_but_never_broken(world):
    for y in (0, 1, 2, 3):  # open a shaft through the seed's bedrock floor down to the edge rule
        world.set_block(0, y, 0, "air")
    target = find_target(world, (0.5, 2.5, 0.5), 0.0, 90.0)
    assert target.block == (0, -1, 0) and target.face == (0, 1, 0)
    assert break_block(world, target) == ()
    with pytest.raises(OutOfWorldError):
        world.set_block(0, -1, 0, "air")  # what break_block must never try


def test_break_block_needs_a_target():
    with pytest.raises(TypeError, match="break_block needs a Target"):
        break_block(None, (0, 0, 0))
    assert Target.__dataclass_params__.frozen
