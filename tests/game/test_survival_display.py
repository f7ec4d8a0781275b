"""Survival's blocks in the real game (a window under Xvfb): a wall torch leaning on its wall, a door
shut and then opened by a right click, a lit furnace, and a dug block's item lying on the ground.
The screenshots are looked at by hand (docs/screenshots/survival-blocks-*.png when
BOXEL_DOCS_SCREENSHOTS=1); the test checks what the report says and that the door's swing shows."""

from __future__ import annotations

import math
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from game.rules.replay import Click, Look, Release
from game.world import World
from tests.game import scripted_runs

from .survival_bot import angles_towards, survival_world

pytestmark = pytest.mark.display

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
EYE_HEIGHT = 1.62
DOOR_X = 4
"""The wall with the doorway stands at this x, east of the spawn (the player looks east)."""
SWING_PIXELS = 500
"""[pixels] At least this many pixels of the doorway change when the door swings open (the door is
about 40 x 80 pixels at 640 x 360; a swing leaves the doorway, and half the image, as it was)."""


@pytest.fixture(autouse=True)
def user_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("BOXEL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("BOXEL_CONFIG_DIR", str(tmp_path / "config"))


def scene(path: Path) -> int:
    """`survival_world` with a cobblestone wall east of the spawn holding a shut door, a wall torch
    and a lit furnace before it; returns the floor's top y (where feet stand)."""
    spawn = survival_world(path)
    y = spawn[1]
    with World.open(path, workers=1) as world:
        for log_y in range(y, y + 4):  # the tree trunk would stand in front of the door
            world.set_block(3, log_y, 0, "air")
        for z in range(-3, 4):
            for height in range(y, y + 3):
                world.set_block(DOOR_X, height, z, "cobblestone")
        world.set_block(DOOR_X, y, 0, "door_lower_east_closed")
        world.set_block(DOOR_X, y + 1, 0, "door_upper_east_closed")
        world.set_block(DOOR_X - 1, y + 1, -2, "wall_torch_east")
        world.set_block(DOOR_X - 1, y, 2, "lit_furnace_west")
    return y


def events(floor_top: int, open_door: bool) -> list:
    """Dig the grass two blocks ahead (its dirt drops there), then look at the door (and open it)."""
    eye = (0.5, floor_top + EYE_HEIGHT, 0.5)
    dig = Look(0, *angles_towards(eye, (2.5, floor_top, 0.5)))
    door = Look(40, *angles_towards(eye, (DOOR_X, floor_top + 1.0, 0.5)))
    played = [dig, Click(1, "left"), Release(30, "left"), door]
    return played + ([Click(45, "right")] if open_door else [])


def test_a_dug_block_lies_as_an_item_and_a_right_click_opens_the_door_which_the_picture_shows(run_game, tmp_path):
    world = tmp_path / "shut.boxel"
    floor_top = scene(world)
    shutil.copy(world, tmp_path / "open.boxel")
    shut = scripted_runs.play(run_game, world, events(floor_top, False), 60, "shut")
    opened = scripted_runs.play(run_game, tmp_path / "open.boxel", events(floor_top, True), 60, "open")
    if os.environ.get("BOXEL_DOCS_SCREENSHOTS"):
        shutil.copy(shut.screenshot, DOCS / "survival-blocks-door-shut.png")
        shutil.copy(opened.screenshot, DOCS / "survival-blocks-door-open.png")
    assert shut.report["game_mode"] == "survival"
    assert [item["item"] for item in shut.report["items"]] == ["dirt"]  # the grass dug by hand
    assert shut.report["inventory"] == [None] * 36
    with World.open(shut.world, workers=1) as opened_world:
        assert opened_world.get_block(DOOR_X, floor_top, 0) == "door_lower_east_closed"
    with World.open(opened.world, workers=1) as opened_world:
        assert opened_world.get_block(DOOR_X, floor_top, 0) == "door_lower_east_open"
        assert opened_world.get_block(DOOR_X, floor_top + 1, 0) == "door_upper_east_open"
    changed = np.any(np.abs(shut.image() - opened.image()) > 24, axis=2)
    assert changed[: changed.shape[0] * 4 // 5].sum() >= SWING_PIXELS  # in the view, not the HUD
    assert math.isfinite(opened.report["health"])
