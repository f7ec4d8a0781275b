"""The game's draw thread (`game.window.render.window.DRAW_THREAD_CONFIG`): the game's window draws on a
thread of its own unless --no-draw-thread (or --profile-frames) says otherwise, and a scripted run's last
image is the same either way, down to a block placed in the very last tick."""

from __future__ import annotations

import math
import shutil

import numpy as np
import pytest

from game.rules.player import Player
from game.rules.replay import Click, KeyDown, KeyUp, Look
from game.rules.targeting import find_target, placement_cell
from game.world import World

from .scripted_runs import CLEARANCE, PLATFORM, flatten, play

pytestmark = pytest.mark.display

SEED = 42
TICKS = 12
PLACE_LOOK = Look(0, 270.0, 30.0)
"""West and down onto the flat platform, so a right click places a block on the grass in view."""
BRICK_SLOT_KEY = "8"
"""The creative hotbar's brick (`test_game_display`'s placing test uses the same slot)."""
PIXEL_CHANGE = 40
"""[0..255] A channel that differs by more than this is a different picture, not rounding."""
BRICK_RED_PIXELS = 300
"""Red pixels a brick placed a few blocks in front of the eye adds to the 640x360 view, at least."""


def platform_world(path) -> tuple[int, int, int]:
    """A seed-42 world with a flat platform around the spawn; returns the cell a right click with
    PLACE_LOOK places a block in."""
    with World.create(path, SEED) as world:
        flatten(world, math.floor(world.spawn[1]) - 1, *PLATFORM, CLEARANCE)
        eye = Player.spawned(world).eye
        return placement_cell(find_target(world, eye, PLACE_LOOK.yaw, PLACE_LOOK.pitch))


def red_pixels(image: np.ndarray) -> int:
    rows = image[: int(image.shape[0] * 0.8)]  # above the hotbar, whose brick icon is red too
    return int(((rows[..., 0] > rows[..., 1] + 40) & (rows[..., 0] > rows[..., 2] + 40)).sum())


def test_a_block_placed_in_the_last_tick_is_in_the_screenshot_drawn_on_the_draw_thread_as_on_the_main_thread(
        run_game, tmp_path):
    placed = platform_world(tmp_path / "plain.boxel")
    for name in ("threaded", "main-thread"):
        shutil.copy(tmp_path / "plain.boxel", tmp_path / f"{name}.boxel")
    placing = [PLACE_LOOK, KeyDown(1, BRICK_SLOT_KEY), KeyUp(2, BRICK_SLOT_KEY), Click(TICKS - 1, "right")]

    plain = play(run_game, tmp_path / "plain.boxel", [PLACE_LOOK, KeyDown(1, BRICK_SLOT_KEY),
                                                      KeyUp(2, BRICK_SLOT_KEY)], TICKS, "plain")
    threaded = play(run_game, tmp_path / "threaded.boxel", placing, TICKS, "threaded")
    main_thread = play(run_game, tmp_path / "main-thread.boxel", placing, TICKS, "main-thread", "--no-draw-thread")

    assert (plain.report["draw_thread"], threaded.report["draw_thread"], main_thread.report["draw_thread"]) == (
        True, True, False)
    for run in (threaded, main_thread):
        with World.open(run.world) as world:
            assert world.get_block(*placed) == "brick"
    assert red_pixels(threaded.image()) - red_pixels(plain.image()) > BRICK_RED_PIXELS, "the last tick's brick is not drawn"
    different = (np.abs(threaded.image() - main_thread.image()) > PIXEL_CHANGE).any(axis=2)
    assert different.sum() == 0, f"{different.sum()} pixels differ between the draw thread's image and the main thread's"


def test_the_frame_profile_draws_on_the_main_thread(run_game, tmp_path):
    platform_world(tmp_path / "profiled.boxel")
    run = play(run_game, tmp_path / "profiled.boxel", [PLACE_LOOK], 4, "profiled", "--profile-frames")
    assert run.report["draw_thread"] is False
    assert run.report["frame_profile"]["frames_missing"] == 0
