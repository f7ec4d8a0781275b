"""The physics lab in a real window (Xvfb when there is no display), driven by replay files."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

import physics
from game.world.lab import EAST_WALL_X, SPAWN_FEET, build_arena
from game.rules.replay import KeyDown, Look, read_replay

pytestmark = pytest.mark.display

WALK_TICKS = 40
"""Two seconds at 20 ticks per second."""
BETA_WALK_BLOCKS_PER_TICK = 0.21585903893
"""Beta's terminal walking speed on normal ground (shared/notes/beta-physics.md)."""
PANEL_ROWS = 0.45
"""Fraction of the screenshot's height at the top where the F3 text panel may be."""
OUTLINE_LEVEL = 60
"""[0..255] A pixel of the plain image no brighter than this is the targeted block's black outline
(sunlit grass, the darkest thing near it, is brighter)."""
HUD_ROWS = 0.2
"""Fraction of the screenshot's height at the bottom where the hotbar is."""
PIXEL_CHANGE = 40
"""[0..255] A pixel counts as changed when a channel differs by more than this (well above
the noise of re-rendering the same scene, which is 0 here, and below any overlay line)."""


def walk_headless(yaw: float, ticks: int) -> physics.Body:
    """What physics alone gives for holding W at `yaw` from the spawn, for comparison."""
    arena = build_arena()
    body = arena.spawn_body()
    for _ in range(ticks):
        body = physics.step(body, arena.grid, physics.Intent(forward=1.0, yaw=yaw))
    return body


def test_holding_w_for_two_seconds_walks_south_exactly_as_physics_step_does(scripted_run):
    events = [Look(0, 0.0, 0.0), KeyDown(0, "w")]
    run = scripted_run(events, WALK_TICKS)

    assert run.report["ticks_run"] == WALK_TICKS
    assert run.report["box"] == list(walk_headless(0.0, WALK_TICKS).box)
    x, y, z = run.report["feet"]
    assert (x, y) == (SPAWN_FEET[0], SPAWN_FEET[1])  # yaw 0 faces +Z: nothing moves sideways or up
    walked = z - SPAWN_FEET[2]
    assert 0.9 * WALK_TICKS * BETA_WALK_BLOCKS_PER_TICK < walked < WALK_TICKS * BETA_WALK_BLOCKS_PER_TICK
    assert run.report["on_ground"] is True and run.report["collided_horizontally"] is False


def test_recording_a_replayed_run_writes_the_same_events(scripted_run, tmp_path):
    events = [Look(0, 270.0, 10.0), KeyDown(0, "w"), KeyDown(3, "space"), Look(5, 250.5, -3.25)]
    recorded = tmp_path / "recorded.jsonl"
    scripted_run(events, 8, extra_args=("--record", str(recorded)))
    assert read_replay(recorded) == tuple(events)


def test_walking_into_the_east_wall_stops_the_player_at_its_face(scripted_run):
    run = scripted_run([Look(0, 270.0, 0.0), KeyDown(0, "w")], WALK_TICKS)

    min_x, min_y, min_z, max_x, max_y, max_z = run.report["box"]
    assert max_x == EAST_WALL_X  # exactly at the wall face, not a hair inside
    assert (min_y, min_z, max_z) == (0.0, SPAWN_FEET[2] - 0.3, SPAWN_FEET[2] + 0.3)
    assert run.report["collided_horizontally"] is True
    assert run.report["velocity"][0] == 0.0


def changed_pixels(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (np.abs(a.astype(np.int16) - b.astype(np.int16)) > PIXEL_CHANGE).any(axis=2)


def rgb255(ursina_color) -> np.ndarray:
    return np.round(np.asarray(tuple(ursina_color)[:3]) * 255).astype(np.int16)


def test_f3_draws_the_boxes_over_the_scene_and_changes_nothing_else(scripted_run):
    from game.window.ui.debug_overlay import CLIPPING_COLOR, GATHERED_COLOR, PLAYER_COLOR, STEP_PROBE_COLOR

    look_down = Look(0, 180.0, 60.0)  # the floor block under the feet (it clips the fall) is in view
    plain = scripted_run([look_down], 4, name="plain")
    overlay = scripted_run([look_down, KeyDown(0, "f3")], 4, name="f3")
    assert (plain.report["debug_overlay"], overlay.report["debug_overlay"]) == (False, True)
    assert plain.report["box"] == overlay.report["box"]

    a = np.asarray(Image.open(plain.screenshot).convert("RGB"))
    b = np.asarray(Image.open(overlay.screenshot).convert("RGB")).astype(np.int16)
    changed = changed_pixels(a, b)
    height, width = changed.shape
    changed[: int(height * PANEL_ROWS), : width // 2] = False  # the text panel's corner
    changed[int(height * (1 - HUD_ROWS)):, :] = False  # the hotbar, whose block name fades with wall time
    changed &= a.max(axis=2) > OUTLINE_LEVEL  # where the targeted block's black outline is, a box edge may blend with it
    assert changed.sum() > 0.001 * changed.size, f"only {changed.sum()} pixels changed outside the panel"
    # Every changed pixel is an edge of a box, drawn in one of the overlay's colours.
    line_colors = np.stack([rgb255(c) for c in (CLIPPING_COLOR, GATHERED_COLOR, PLAYER_COLOR, STEP_PROBE_COLOR)])
    distance = np.abs(b[changed][:, None, :] - line_colors[None, :, :]).max(axis=2).min(axis=1)
    assert (distance <= PIXEL_CHANGE).mean() > 0.95
    nearest = np.abs(b[changed][:, None, :] - line_colors[None, :, :]).max(axis=2).argmin(axis=1)
    assert (nearest == 0).sum() > 100, "the floor block that stops the fall is not drawn as clipping"
    assert (nearest == 2).sum() < 20, "the player's own box is drawn in first person (it frames the screen)"


def test_the_view_is_not_mirrored_facing_south_the_ice_to_the_west_is_on_the_right(scripted_run):
    # Facing south (+Z) in Minecraft's axes, west (-X) is on the player's right; the ice patch
    # lies south-west of the spawn. Strafe +1 (A, left) moves +X, so a mirrored view would
    # also show A moving the player to the right.
    run = scripted_run([Look(0, 0.0, 10.0)], 1, name="south")
    image = np.asarray(Image.open(run.screenshot).convert("RGB")).astype(np.int16)
    height, width, _ = image.shape
    below_horizon = image[int(height * 0.45):]
    r, g, b = below_horizon[..., 0], below_horizon[..., 1], below_horizon[..., 2]
    ice = (b > r + 25) & (b > g)
    left, right = ice[:, : width // 2].sum(), ice[:, width // 2:].sum()
    assert right > 500 and left < right / 20, f"ice pixels: left half {left}, right half {right}"
