"""The look ray meets mobs before the blocks behind them: a left click on a mob punches it back
with Beta's knock-back instead of breaking the block behind it. Headless: a real World in a temp
folder and a Session clicking on it."""

from __future__ import annotations

import math

import pytest

import physics
from game.rules.player import Player
from game.rules.replay import Click, Look
from game.rules.session import Session
from game.rules.targeting import REACH_BLOCKS, find_mob, find_target
from game.world import World

SITE_Y = 100
"""Floor height of the test site: well above the seed-42 terrain near the origin, and cleared anyway."""
PLAYER_FEET = (0.5, SITE_Y, 0.5)
EYE = (0.5, SITE_Y + 1.62, 0.5)
LOOK = (270.0, 30.0)
"""East and 30 degrees down: the ray meets the floor at x 3.3 (cell 3), 3.24 blocks from the eye."""
FLOOR_CELL = (3, SITE_Y - 1, 0)
MOB_IN_FRONT = (2.5, SITE_Y, 0.5)
"""A boxling's feet between the player and FLOOR_CELL: its box (x 2.05..2.95, 0.9 tall) crosses the ray."""
MOB_BEHIND = (6.5, SITE_Y, 0.5)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    opened = World.create(tmp_path_factory.mktemp("mobs") / "world.boxel", seed=42, workers=1)
    yield opened
    opened.close()


@pytest.fixture
def session(world):
    """A player on a stone floor at SITE_Y with air above, no mobs."""
    for x in range(-4, 9):
        for z in range(-4, 5):
            world.set_block(x, SITE_Y - 1, z, "stone")
            for y in range(SITE_Y, SITE_Y + 4):
                world.set_block(x, y, z, "air")
    return Session(world, Player(world, physics.Body.at_feet(*PLAYER_FEET)), autosave=False)


def test_find_mob_returns_the_nearest_box_the_ray_meets_with_its_distance_along_the_ray():
    near = physics.AABB(2.0, 0.0, -0.5, 3.0, 1.0, 0.5)
    far = physics.AABB(4.0, 0.0, -0.5, 5.0, 1.0, 0.5)
    hit = find_mob((0.0, 0.5, 0.0), 270.0, 0.0, [far, near])  # level, east along +X
    assert hit is not None and (hit.index, hit.box) == (1, near)
    assert hit.distance == pytest.approx(2.0, abs=1e-12)


def test_find_mob_misses_boxes_beside_the_ray_beyond_reach_and_around_the_eye():
    beside = physics.AABB(2.0, 2.0, -0.5, 3.0, 3.0, 0.5)
    beyond = physics.AABB(REACH_BLOCKS + 0.5, 0.0, -0.5, REACH_BLOCKS + 1.5, 1.0, 0.5)
    around = physics.AABB(-0.5, 0.0, -0.5, 0.5, 1.0, 0.5)
    assert find_mob((0.0, 0.5, 0.0), 270.0, 0.0, [beside, beyond, around]) is None


def test_find_mob_in_a_crowd_finds_exactly_what_sweeping_the_ray_against_every_box_finds(monkeypatch):
    import random

    from game.rules import targeting

    rng = random.Random(30)
    cases = []
    for _ in range(300):
        eye = (rng.uniform(-2.0, 2.0), rng.uniform(60.0, 62.0), rng.uniform(-2.0, 2.0))
        crowd = [physics.AABB.around_feet(rng.uniform(-7.0, 7.0), rng.uniform(58.0, 63.0), rng.uniform(-7.0, 7.0),
                                          rng.choice((0.6, 0.9)), rng.choice((0.9, 1.8))) for _ in range(40)]
        cases.append((eye, rng.uniform(0.0, 360.0), rng.uniform(-90.0, 90.0), crowd))
    scanned = [find_mob(eye, yaw, pitch, crowd) for eye, yaw, pitch, crowd in cases]
    monkeypatch.setattr(targeting, "MOB_SCAN_MARGIN", math.inf)  # every box swept
    assert scanned == [find_mob(eye, yaw, pitch, crowd) for eye, yaw, pitch, crowd in cases]
    assert sum(hit is not None for hit in scanned) > 30  # the crowds are met often (45 of 300), not just missed


def test_find_mob_refuses_what_is_not_a_box_or_not_a_finite_eye():
    with pytest.raises(TypeError):
        find_mob((0.0, 0.5, 0.0), 0.0, 0.0, [(0, 0, 0, 1, 1, 1)])
    with pytest.raises(ValueError):
        find_mob((float("nan"), 0.5, 0.0), 0.0, 0.0, [])
    with pytest.raises(ValueError):
        find_mob((0.0, 0.5, 0.0), 0.0, 0.0, [], reach=0.0)


def test_a_left_click_on_a_mob_in_front_of_a_block_knocks_the_mob_back_and_leaves_the_block(session):
    world = session.world
    assert find_target(world, EYE, *LOOK).block == FLOOR_CELL  # without the mob, the floor would break
    session.mobs.spawn(MOB_IN_FRONT, others=[session.player.body])
    before = session.mobs.bodies[0]
    session.apply(Look(0, *LOOK))
    session.apply(Click(0, "left"))
    assert world.get_block(*FLOOR_CELL) == "stone" and session.report()["edited_blocks"] == []
    knocked = physics.knockback(before, PLAYER_FEET[0], PLAYER_FEET[2])
    assert session.mobs.bodies[0].velocity == knocked.velocity  # at rest before: the knock is the velocity
    assert session.mobs.bodies[0].velocity == (pytest.approx(0.4, abs=1e-6), pytest.approx(0.4, abs=1e-6), 0.0)
    assert session.mobs.bodies[0].box == before.box  # the punch moves it on its next tick, not now


def test_the_knocked_mob_moves_away_from_the_player_on_the_next_tick(session):
    session.mobs.spawn(MOB_IN_FRONT, others=[session.player.body])
    x_before = session.mobs.bodies[0].feet[0]
    session.apply(Look(0, *LOOK))
    session.apply(Click(0, "left"))
    session.tick()
    assert session.mobs.bodies[0].feet[0] > x_before + 0.3  # east, away from the player at x 0.5


def test_a_right_click_on_a_mob_places_nothing_through_it(session):
    session.mobs.spawn(MOB_IN_FRONT, others=[session.player.body])
    session.apply(Look(0, *LOOK))
    session.apply(Click(0, "right"))
    assert session.report()["edited_blocks"] == []
    assert session.mobs.bodies[0].velocity == (0.0, 0.0, 0.0)


def test_a_mob_behind_the_targeted_block_does_not_stop_the_click(session):
    session.mobs.spawn(MOB_BEHIND, others=[session.player.body])
    session.damage_enabled = False  # peaceful: the click breaks at once
    session.apply(Look(0, *LOOK))
    session.apply(Click(0, "left"))
    assert session.world.get_block(*FLOOR_CELL) == "air"
    assert session.mobs.bodies[0].velocity == (0.0, 0.0, 0.0)
