"""F3 and B as a player expects them (B the boxes alone, F3 the panel with the boxes, neither
hiding what the other showed), and the panel's speed line: the distance the player moved in a
second, not the velocity left after friction. Headless: the session's toggles and the panel's
pure text helpers."""

from __future__ import annotations

import math

import pytest

import physics
from game.rules.clock import TICKS_PER_SECOND
from game.rules.lab_session import lab_session
from game.rules.player import Player
from game.rules.replay import KeyDown, Look
from game.rules.session import Session
from game.window.ui.debug_overlay import ground_speed, panel_lines
from game.world import World

SITE_Y = 100
"""Floor height of the sprint track: well above the seed-42 terrain near the origin."""
TRACK_BLOCKS = 40
"""[blocks] Length of the cleared stone track east of the start (2 s of sprinting is ~11 blocks)."""
SPRINT_TICKS = 40
"""[ticks] Long enough to reach Beta's terminal sprinting speed (within 1e-6 after ~20 ticks)."""
BETA_SPRINT_BLOCKS_PER_TICK = 0.98 * 0.13 / (1.0 - 0.6 * 0.91)
"""[blocks/tick] Beta's terminal sprint on stone: input 0.98 x sprint acceleration 0.13 a tick,
kept by the friction 0.6 x 0.91 each tick (0.2806; 5.61 blocks/s)."""
BETA_SPRINT_VELOCITY_AFTER_FRICTION = BETA_SPRINT_BLOCKS_PER_TICK * 0.6 * 0.91
"""[blocks/tick] The velocity the body keeps after a tick's friction at that speed (0.1532; 3.06 blocks/s)."""


def overlay(session: Session) -> tuple[bool, bool]:
    return session.toggles.overlay_panel, session.toggles.overlay_boxes


def press(session: Session, key: str) -> tuple[bool, bool]:
    session.apply(KeyDown(session.ticks_run, key))
    return overlay(session)


def test_b_alone_shows_the_boxes_alone_and_hides_them_again():
    lab = lab_session()
    assert [press(lab, "b"), press(lab, "b")] == [(False, True), (False, False)]


def test_f3_shows_the_panel_with_the_boxes_and_hides_both_again():
    lab = lab_session()
    assert [press(lab, "f3"), press(lab, "f3")] == [(True, True), (False, False)]


def test_b_then_f3_adds_the_panel_instead_of_hiding_the_boxes():
    lab = lab_session()
    assert [press(lab, "b"), press(lab, "f3"), press(lab, "f3")] == [(False, True), (True, True), (False, False)]


def test_b_with_the_panel_up_hides_only_the_boxes_and_f3_then_closes_the_panel():
    lab = lab_session()
    assert [press(lab, "f3"), press(lab, "b"), press(lab, "b"), press(lab, "b"), press(lab, "f3")] == [
        (True, True), (True, False), (True, True), (True, False), (False, False)]


@pytest.fixture(scope="module")
def sprinted(tmp_path_factory):
    """A player after SPRINT_TICKS ticks sprinting east along a flat stone track, and the body a tick before."""
    with World.create(tmp_path_factory.mktemp("sprint") / "world.boxel", seed=42, workers=1) as world:
        for x in range(-2, TRACK_BLOCKS):
            for z in range(-2, 3):
                world.set_block(x, SITE_Y - 1, z, "stone")
                for y in range(SITE_Y, SITE_Y + 3):
                    world.set_block(x, y, z, "air")
        session = Session(world, Player(world, physics.Body.at_feet(0.5, SITE_Y, 0.5)), autosave=False)
        session.run([Look(0, 270.0, 0.0), KeyDown(0, "control"), KeyDown(0, "w"), KeyDown(0, "f3")],
                    SPRINT_TICKS - 1)  # the panel shown: the steps report their moves to it
        before = session.player.body
        session.tick()
        return before, session.player.body, session.player.sink.last, session.player.sprinting


def test_the_speed_line_shows_the_distance_moved_per_second_while_sprinting_not_the_velocity_after_friction(
        sprinted):
    before, body, report, sprinting = sprinted
    assert sprinting and body.on_ground
    moved = math.hypot(body.feet[0] - before.feet[0], body.feet[2] - before.feet[2])
    assert moved == pytest.approx(BETA_SPRINT_BLOCKS_PER_TICK, abs=1e-6)
    assert math.hypot(body.velocity[0], body.velocity[2]) == pytest.approx(BETA_SPRINT_VELOCITY_AFTER_FRICTION,
                                                                           abs=1e-6)
    assert ground_speed(report) == pytest.approx(moved * TICKS_PER_SECOND, abs=1e-9)
    speed = next(line for line in panel_lines(body, report, SPRINT_TICKS) if line.startswith("speed"))
    assert speed == "speed     5.61 blocks/s horizontal (distance moved)"


def test_the_speed_is_zero_before_the_first_move_and_for_a_body_at_rest():
    assert ground_speed(None) == 0.0
    lab = lab_session()
    lab.run([], 5)
    assert ground_speed(lab.player.sink.last) == 0.0
