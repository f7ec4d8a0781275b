"""The other players' poses and name tags: what the window draws of every player but its own, read from a
session's players and blended between ticks; a tag's size at a distance; models and tags made for players
who join and removed for those who leave (in an Ursina with no window)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules.lab_session import lab_session
from game.rules.replay import KeyDown, Look
from game.window.render.other_players import (NAME_TAG_MIN_ANGLE, NAME_TAG_TEXT_HEIGHT, OtherPlayerPose,
                                              name_tag_height, other_player_poses)
from tests.game.conftest import run_without_window


@pytest.fixture
def session():
    played = lab_session()
    played.join("alice")
    played.join("bob")
    return played


def test_the_poses_are_of_every_player_but_the_local_one_in_join_order(session):
    poses = other_player_poses(session.players, session.local_name, 1.0)
    assert [pose.name for pose in poses] == ["alice", "bob"]
    assert other_player_poses(session.players, "alice", 1.0)[0].name == session.local_name


def test_a_pose_is_the_players_box_blended_between_its_last_two_ticks_with_its_look_and_walk(session):
    session.apply(Look(0, 90.0, 20.0, player="alice"))
    session.apply(KeyDown(0, "w", player="alice"))
    for _ in range(3):
        session.tick()
    alice = session.players["alice"]
    assert alice.previous.box != alice.body.box
    pose = other_player_poses(session.players, session.local_name, 0.25)[0]
    assert pose.box == tuple(p + (c - p) * 0.25 for p, c in zip(alice.previous.box, alice.body.box))
    assert (pose.yaw, pose.pitch) == (90.0, 20.0)
    assert pose.limbs == alice.view_motion.limbs(0.25) and pose.limbs[1] > 0.0
    assert pose.held == alice.view_motion.shown


def test_a_player_who_left_has_no_pose(session):
    session.leave("alice")
    assert [pose.name for pose in other_player_poses(session.players, session.local_name, 0.5)] == ["bob"]


def test_a_near_name_tag_has_betas_size():
    assert name_tag_height(0.0, 70.0) == NAME_TAG_TEXT_HEIGHT
    assert name_tag_height(2.0, 70.0) == NAME_TAG_TEXT_HEIGHT


@given(st.floats(min_value=0.0, max_value=1000.0), st.floats(min_value=10.0, max_value=150.0))
@settings(max_examples=60, deadline=None)
def test_a_name_tag_is_never_smaller_than_betas_nor_than_its_least_angle(distance, fov):
    height = name_tag_height(distance, fov)
    assert height >= NAME_TAG_TEXT_HEIGHT
    if distance > 0.0:
        assert 2.0 * math.atan(height / 2.0 / distance) >= NAME_TAG_MIN_ANGLE * (1.0 - 1e-9)


@pytest.mark.parametrize("distance, fov", [(-1.0, 70.0), (math.inf, 70.0), (math.nan, 70.0), (1.0, 0.0),
                                           (1.0, 180.0), (1.0, math.nan)])
def test_a_name_tag_height_for_a_bad_distance_or_view_is_a_value_error(distance, fov):
    with pytest.raises(ValueError):
        name_tag_height(distance, fov)


SCRIPT = """
import json
from game.window.render.other_players import NAME_TAG_RANGE, OtherPlayerPose, OtherPlayers
box = lambda x: (x - 0.3, 64.0, -0.3, x + 0.3, 65.8, 0.3)
pose = lambda name, x, held=None: OtherPlayerPose(name, box(x), 90.0, 10.0, (1.0, 0.5), held)
view = OtherPlayers()
facts = {}
view.show([pose("alice", 2.0), pose("bob", 4.0, "brick")], (0.0, 65.0, 0.0), 70.0)
facts["joined"] = [sorted(view.models), sorted(view.name_tags), view.shown_tags, view.models["bob"].held]
alice = view.models["alice"]
facts["placed"] = [round(v, 6) for v in (*alice.position, alice.rotation_y, alice.head.rotation_x)]
dim, bright = view.name_tags["alice"].copies
facts["copies"] = [[copy.get_depth_test(), copy.get_bin_name(), copy.get_bin_draw_order(),
                    round(copy.node().get_text_color()[3], 4), copy.node().has_card()] for copy in (dim, bright)]
view.show([pose("bob", 4.0), pose("carol", -NAME_TAG_RANGE - 5.0)], (0.0, 65.0, 0.0), 70.0)
facts["left"] = [sorted(view.models), sorted(view.name_tags), view.shown_tags, alice.destroyed]
view.destroy()
view.destroy()
facts["destroyed"] = [view.models, view.name_tags]
print(json.dumps(facts))
"""


def test_a_joining_player_gets_a_model_and_a_tag_dimmed_through_walls_and_a_leaving_one_loses_both():
    facts = json.loads(run_without_window(SCRIPT).strip().splitlines()[-1])
    assert facts["joined"] == [["alice", "bob"], ["alice", "bob"], ["alice", "bob"], "brick"]
    assert facts["placed"] == [-2.0, 64.0, 0.0, 90.0, 10.0]  # the mirrored x (`space`), the look
    assert facts["copies"] == [[False, "fixed", 40, round(0x20 / 255, 4), True],  # dim, through walls, on the card
                               [True, "fixed", 41, 1.0, False]]  # bright where nothing is in front
    assert facts["left"] == [["bob", "carol"], ["bob", "carol"], ["bob"], True]  # carol is beyond the tags' range
    assert facts["destroyed"] == [{}, {}]


def test_a_pose_is_a_frozen_value():
    pose = OtherPlayerPose("alice", (0.0,) * 6, 0.0, 0.0, (0.0, 0.0), None)
    with pytest.raises(AttributeError):
        pose.name = "bob"
