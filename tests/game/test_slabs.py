"""Slabs: the half a placed slab takes comes from where the face was hit, and a slab placed on
the free half of another makes a double slab in that cell (Minecraft's rules; Beta's double
slab). Headless: a real World in a temp folder, and a Session clicking on it."""

from __future__ import annotations

import pytest

import physics
from game.rules.player import Player
from game.rules.session import Session
from game.rules.targeting import SLAB_TOP_HALF_ABOVE, SLABS, find_target, place_against, placement
from game.world import World
from game.world.blocks import FACE_TILES, FULL_CUBE, OPAQUE, SHAPES, SOLID, TILE_NAMES, block_id
from game.rules.replay import Click, KeyDown, Look

SITE_Y = 100
"""Floor height of the test site: well above the seed-42 terrain near the origin, and cleared anyway."""
SLAB, TOP_SLAB, DOUBLE = "stone_slab", "stone_slab_top", "double_slab"


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    opened = World.create(tmp_path_factory.mktemp("slabs") / "world.boxel", seed=42, workers=1)
    yield opened
    opened.close()


@pytest.fixture
def site(world):
    """A clear box of air around the origin at SITE_Y, with a stone floor under it."""
    for x in range(-4, 5):
        for z in range(-4, 5):
            world.set_block(x, SITE_Y - 1, z, "stone")
            for y in range(SITE_Y, SITE_Y + 6):
                world.set_block(x, y, z, "air")
    return world


def target_from(world, eye, yaw, pitch):
    target = find_target(world, (eye[0], SITE_Y + eye[1], eye[2]), yaw, pitch)
    assert target is not None
    return target


def test_the_double_slab_is_a_whole_opaque_cube_with_the_slabs_tiles():
    double, slab = block_id(DOUBLE), block_id(SLAB)
    assert SOLID[double] and FULL_CUBE[double] and OPAQUE[double]
    assert SHAPES[double] == physics.shapes.FULL_CUBE
    assert [TILE_NAMES[t] for t in FACE_TILES[double]] == [TILE_NAMES[t] for t in FACE_TILES[slab]] == [
        "slab_side", "slab_side", "slab_top", "slab_top", "slab_side", "slab_side"]
    assert [(kind.bottom, kind.top, kind.double) for kind in SLABS] == [(SLAB, TOP_SLAB, DOUBLE)]


def test_a_slab_placed_on_the_top_of_a_slab_makes_a_double_slab_in_that_cell(site):
    site.set_block(0, SITE_Y, 0, SLAB)
    target = target_from(site, (0.5, 2.0, 0.5), 0.0, 90.0)  # straight down onto the slab's top at y + 0.5
    assert target.block == (0, SITE_Y, 0) and target.face == (0, 1, 0)
    assert place_against(site, target, SLAB, []) == (0, SITE_Y, 0)
    assert site.get_block(0, SITE_Y, 0) == DOUBLE
    assert site.get_block(0, SITE_Y + 1, 0) == "air"  # nothing floats in the cell above


def test_a_slab_placed_against_the_underside_of_an_upper_slab_makes_a_double_slab(site):
    site.set_block(0, SITE_Y + 3, 0, TOP_SLAB)
    target = target_from(site, (0.5, 1.6, 0.5), 0.0, -90.0)  # straight up at the upper slab's bottom
    assert target.block == (0, SITE_Y + 3, 0) and target.face == (0, -1, 0)
    assert placement(site, target, SLAB) == ((0, SITE_Y + 3, 0), DOUBLE)
    assert place_against(site, target, SLAB, []) == (0, SITE_Y + 3, 0)
    assert site.get_block(0, SITE_Y + 3, 0) == DOUBLE


@pytest.mark.parametrize(("eye_y", "half"), [(0.75, TOP_SLAB), (0.25, SLAB), (0.5 + 1e-3, TOP_SLAB),
                                              (0.5 - 1e-3, SLAB)])
def test_a_slab_placed_against_a_blocks_side_takes_the_half_of_the_side_that_was_hit(site, eye_y, half):
    site.set_block(1, SITE_Y, 0, "stone")
    target = target_from(site, (-1.5, eye_y, 0.5), 270.0, 0.0)  # level, east at the stone's west face
    assert target.block == (1, SITE_Y, 0) and target.face == (-1, 0, 0)
    assert target.point[1] - SITE_Y == pytest.approx(eye_y, abs=1e-9)
    assert (target.point[1] - SITE_Y > SLAB_TOP_HALF_ABOVE) == (half == TOP_SLAB)
    for held in (SLAB, TOP_SLAB):  # either half in the hand places the half the hit picks
        assert placement(site, target, held) == ((0, SITE_Y, 0), half)
    assert place_against(site, target, SLAB, []) == (0, SITE_Y, 0)
    assert site.get_block(0, SITE_Y, 0) == half


def test_a_slab_against_a_bottom_face_hangs_as_an_upper_slab_and_against_a_top_face_sits_as_a_lower_one(site):
    site.set_block(0, SITE_Y + 4, 0, "stone")
    up = target_from(site, (0.5, 1.6, 0.5), 0.0, -90.0)
    assert up.face == (0, -1, 0) and placement(site, up, SLAB) == ((0, SITE_Y + 3, 0), TOP_SLAB)
    down = target_from(site, (0.5, 1.6, 0.5), 0.0, 90.0)
    assert down.face == (0, 1, 0) and placement(site, down, TOP_SLAB) == ((0, SITE_Y, 0), SLAB)


def test_a_side_click_into_a_cell_holding_the_other_half_completes_it(site):
    site.set_block(1, SITE_Y, 0, "stone")
    site.set_block(0, SITE_Y, 0, SLAB)  # the lower half of the cell in front of the stone's west face
    target = target_from(site, (-1.5, 0.75, 0.5), 270.0, 0.0)  # over the slab, at the stone's upper half
    assert target.block == (1, SITE_Y, 0)
    assert place_against(site, target, SLAB, []) == (0, SITE_Y, 0)
    assert site.get_block(0, SITE_Y, 0) == DOUBLE


def test_a_slab_hit_on_its_side_gets_a_new_slab_beside_it(site):
    site.set_block(1, SITE_Y, 0, "stone")
    site.set_block(0, SITE_Y, 0, SLAB)
    target = target_from(site, (-1.5, 0.25, 0.5), 270.0, 0.0)  # low: meets the slab's own west side first
    assert target.block == (0, SITE_Y, 0) and target.face == (-1, 0, 0)
    assert place_against(site, target, SLAB, []) == (-1, SITE_Y, 0)
    assert (site.get_block(-1, SITE_Y, 0), site.get_block(0, SITE_Y, 0)) == (SLAB, SLAB)


def test_completing_a_slab_is_refused_when_the_new_half_would_overlap_a_body(site):
    site.set_block(0, SITE_Y, 0, SLAB)
    standing = physics.Body.at_feet(0.5, SITE_Y + 0.5, 0.5)  # on the slab: the free upper half holds the legs
    target = target_from(site, (0.5, 2.0, 0.5), 0.0, 90.0)
    assert target.block == (0, SITE_Y, 0) and target.face == (0, 1, 0)
    assert place_against(site, target, SLAB, [standing]) is None
    assert site.get_block(0, SITE_Y, 0) == SLAB
    assert place_against(site, target, SLAB, [physics.Body.at_feet(3.5, SITE_Y, 3.5)]) == (0, SITE_Y, 0)
    assert site.get_block(0, SITE_Y, 0) == DOUBLE


def test_any_other_block_goes_into_the_cell_in_front_of_the_face_as_it_is(site):
    site.set_block(0, SITE_Y, 0, SLAB)
    target = target_from(site, (0.5, 2.0, 0.5), 0.0, 90.0)
    assert placement(site, target, "planks") == ((0, SITE_Y + 1, 0), "planks")
    assert place_against(site, target, "planks", []) == (0, SITE_Y + 1, 0)
    assert site.get_block(0, SITE_Y, 0) == SLAB


def test_a_right_click_with_the_slab_slot_on_a_slab_floor_makes_a_double_slab_through_the_session(site):
    site.set_block(2, SITE_Y, 0, SLAB)
    body = physics.Body.at_feet(0.5, SITE_Y, 0.5)
    session = Session(site, Player(site, body), autosave=False)
    events = [Look(0, 270.0, 30.0), KeyDown(0, "9"), Click(0, "right")]  # slot 9 holds the stone slab
    for event in events:
        session.apply(event)
    assert session.hotbar.selected_block == SLAB
    assert site.get_block(2, SITE_Y, 0) == DOUBLE and site.get_block(2, SITE_Y + 1, 0) == "air"
    assert session.report()["edited_blocks"] == [[2, SITE_Y, 0, DOUBLE]]
