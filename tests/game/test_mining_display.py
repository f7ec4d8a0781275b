"""Digging in the real game (a window under Xvfb): the attack button held on a grass block draws
Beta's cracks on it as it is dug, and its break throws particles."""

from __future__ import annotations

import numpy as np
import pytest

from game.rules.mining import dig_strength
from game.rules.replay import Click, KeyDown, Look
from game.world import blocks
from tests.game.scripted_runs import play
from tests.game.test_session import platform_world

pytestmark = pytest.mark.display

LOOK = Look(0, 270.0, 55.0)
"""East and down at the platform's grass a block or so ahead."""
PRESS_TICK = 2
"""The attack button goes down (and stays down: no release) on this tick."""
DUG_TICKS = 12
"""Ticks dug before the cracked screenshot: 12 x 1/0.6/30 = 0.67 of grass, crack stage 6."""
CENTRE = 0.3
"""The middle 30% of the window (on each axis), where the targeted block is."""
DARKER = 60
"""[0..255 per channel, summed] A crack pixel is at least this much darker than the undug block's."""
MIN_CRACK_PIXELS = 40
"""The cracked view has at least this many such pixels (a crack stage 6 covers a few hundred)."""


def centre(image):
    rows, cols = image.shape[:2]
    r, c = int(rows * CENTRE / 2), int(cols * CENTRE / 2)
    return image[rows // 2 - r: rows // 2 + r, cols // 2 - c: cols // 2 + c]


def test_holding_the_attack_button_cracks_the_block_and_its_break_throws_particles(run_game, tmp_path):
    grass = blocks.block_id("grass")
    assert DUG_TICKS * dig_strength(grass) < 1.0 <= (DUG_TICKS + 7) * dig_strength(grass)
    events = [LOOK, KeyDown(0, "f1"), Click(PRESS_TICK, "left")]  # F1: no hand or hotbar in the way
    runs = {}
    for name, ticks in (("undug", PRESS_TICK), ("cracked", PRESS_TICK + DUG_TICKS), ("broken", PRESS_TICK + 21)):
        path = tmp_path / f"{name}.boxel"
        platform_world(path)
        runs[name] = play(run_game, path, events, ticks, name)

    undug, cracked, broken = runs["undug"], runs["cracked"], runs["broken"]
    cell = undug.report["targeted_block"]["block"]
    assert undug.report["targeted_block"]["name"] == "grass" and undug.report["crack_stage_drawn"] is None
    assert cracked.report["targeted_block"]["block"] == cell
    assert cracked.report["crack_stage_drawn"] == int(DUG_TICKS * dig_strength(grass) * 10) == 6
    darker = (centre(undug.image()).sum(axis=2) - centre(cracked.image()).sum(axis=2)) >= DARKER
    assert darker.sum() >= MIN_CRACK_PIXELS, f"only {darker.sum()} crack pixels on the dug block"

    assert [*cell, "air"] in broken.report["edited_blocks"]
    assert broken.report["break_particles_drawn"] > 0
    assert broken.report["crack_stage_drawn"] is None


def test_break_particles_fall_by_betas_gravity_and_drag_and_are_gone_after_their_life():
    from game.window.render.break_particles import GRID, MAX_AGE_TICKS, PARTICLE_DRAG, PARTICLE_GRAVITY, ParticleCloud

    cloud = ParticleCloud(seed=1)
    cloud.burst((4, 70, -2), "grass")
    assert len(cloud) == GRID ** 3
    assert ((cloud.position >= (4, 70, -2)) & (cloud.position < (5, 71, -1))).all()  # inside the broken cell
    before = cloud.velocity[:, 1].copy()
    cloud.tick()
    assert np.allclose(cloud.velocity[:, 1], (before - PARTICLE_GRAVITY) * PARTICLE_DRAG)
    for _ in range(MAX_AGE_TICKS):
        cloud.tick()
    assert len(cloud) == 0
