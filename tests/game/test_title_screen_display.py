"""The title screen in a real window (Xvfb when there is no display): it lists the worlds in the data
folder, Rename renames one, Delete with its confirmation removes one, New creates a world and plays
it, "Save and quit" comes back to the title screen; a press on "Save and quit" right after the pointer
left a slider does not move the slider. Driven by `python -m tests.game.drivers.title_driver` (the
real loop of `python main.py`, its buttons clicked by a script); `python main.py` with no option opens
the title screen, and SIGTERM there exits 0."""

from __future__ import annotations

import json
import os
import signal
import time

import numpy as np
import pytest
from PIL import Image

from game.world import World
from tests.game.drivers.title_driver import DELETED, NEW_WORLD, PLAY_TICKS, RENAMED

from .conftest import GAME_TIMEOUT_S, retry_start, run_with_display, start_game

pytestmark = pytest.mark.display

WINDOW = (960, 540)
PREMADE = (("Alpha", 1, 1_700_000_000.0), ("Beta", 2, 1_700_090_000.0))
"""Worlds in the data folder before the run: name, seed, last write [s] (Beta is the newer)."""
BROKEN = ("Old backup", 1_600_000_000.0)
"""A damaged file among them: listed, greyed, with its reason."""
SKY_BLUE_MARGIN, SKY_BLUE_MIN = 40, 150
"""[0..255] A pixel of daytime sky (or water) is bluer than red by more than the margin and brighter in
blue than the minimum, whatever tint the time of day gives it; the title screen's dark dirt never is."""


@pytest.fixture(scope="module")
def driven(tmp_path_factory):
    """Run the scripted title screen once; returns (folder of its outputs, report, worlds folder)."""
    user = tmp_path_factory.mktemp("user")
    worlds = user / "data" / "worlds"
    worlds.mkdir(parents=True)
    for name, seed, mtime in PREMADE:
        World.create(worlds / f"{name}.boxel", seed, workers=1).close()
        os.utime(worlds / f"{name}.boxel", (mtime, mtime))
    broken = worlds / f"{BROKEN[0]}.boxel"
    broken.write_bytes(b"not a world at all" * 10)
    os.utime(broken, (BROKEN[1], BROKEN[1]))
    out = user / "out"
    env = {**os.environ, "BOXEL_DATA_DIR": str(user / "data"), "BOXEL_CONFIG_DIR": str(user / "config")}
    done = run_with_display(["-m", "tests.game.drivers.title_driver", "--size", "%dx%d" % WINDOW, "--out", str(out)],
                            env=env)
    assert done.returncode == 0, f"the driver exited with {done.returncode}:\n{done.stderr[-4000:]}"
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return out, {step.pop("step"): step for step in report["steps"]}, worlds


def test_the_title_screen_lists_the_worlds_newest_first_with_seed_and_a_damaged_one_greyed(driven):
    _, steps, _ = driven
    listed = steps["listed"]["worlds"]
    assert [(w["name"], w["seed"], w["readable"]) for w in listed] == [
        ("Beta", 2, True), ("Alpha", 1, True), ("Old backup", None, False)]
    assert listed[0]["row_text"][0] == "Beta" and listed[0]["row_text"][1].startswith("Creative   Seed 2   Played ")
    assert listed[0]["row_text"][1].endswith(" KB")
    assert listed[2]["row_text"][1].startswith("Cannot be played: it is damaged or not a world")


def test_the_title_screen_draws_its_title_and_rows(driven):
    out, _, _ = driven
    picture = np.asarray(Image.open(out / "title.png").convert("RGB")).astype(np.int16)
    assert picture.shape == (WINDOW[1], WINDOW[0], 3)
    bright = picture.min(axis=2) > 200
    assert bright[: WINDOW[1] // 5].sum() > 300, "no bright title text at the top"
    assert bright[WINDOW[1] // 5: WINDOW[1] // 2].sum() > 300, "no world names in the list"


def test_the_settings_dialog_switches_view_bobbing_off_and_saves_it(driven):
    _, steps, _ = driven
    assert steps["settings"] == {"saved": False, "dialog_open": False}


def test_rename_renames_the_world_file_and_keeps_it_selected(driven):
    _, steps, _ = driven
    renamed = steps["renamed"]
    assert f"{RENAMED[1]}.boxel" in renamed["files"] and f"{RENAMED[0]}.boxel" not in renamed["files"]
    assert renamed["selected"] == RENAMED[1]
    assert [(w["name"], w["seed"]) for w in renamed["worlds"]][:2] == [(RENAMED[1], 2), ("Alpha", 1)]


def test_delete_asks_naming_the_world_and_removes_its_file_only_once_confirmed(driven):
    _, steps, _ = driven
    assert steps["asked to delete"]["title"] == f"Delete {DELETED}?"
    assert f"{DELETED}.boxel" in steps["asked to delete"]["files"]
    assert f"{DELETED}.boxel" not in steps["deleted"]["files"]
    assert [w["name"] for w in steps["deleted"]["worlds"]] == [RENAMED[1], BROKEN[0]]


def test_new_creates_the_world_with_its_seed_and_plays_it_in_the_same_window(driven):
    out, steps, worlds = driven
    playing = steps["playing"]
    assert playing["world"] == str(worlds / f"{NEW_WORLD[0]}.boxel") and playing["seed"] == int(NEW_WORLD[1])
    assert playing["ticks"] >= PLAY_TICKS
    picture = np.asarray(Image.open(out / "game.png").convert("RGB")).astype(np.int16)
    red, blue = picture[..., 0], picture[..., 2]
    sky_blue = (blue > red + SKY_BLUE_MARGIN) & (blue > SKY_BLUE_MIN)  # the title screen's dirt has none
    assert 0.05 < sky_blue.mean() < 0.95, "the game's view (sky and land) is not on the screen"


def test_save_and_quit_returns_to_the_title_screen_with_the_played_world_listed_first(driven):
    _, steps, worlds = driven
    back = steps["back to the title screen"]
    assert back["worlds"][0]["name"] == NEW_WORLD[0] and back["worlds"][0]["seed"] == int(NEW_WORLD[1])
    assert back["selected"] == NEW_WORLD[0]
    with World.open(worlds / f"{NEW_WORLD[0]}.boxel", workers=1) as world:
        assert world.player_state is not None  # saved on the way out
        assert world.game_mode == "survival"  # the New dialog's default, as Beta's


def test_a_press_on_save_and_quit_just_after_leaving_a_slider_does_not_move_the_slider(driven):
    _, steps, _ = driven
    press = steps["stale hover press"]
    assert press["hovered_slider"] is True  # the slider was still the hovered entity at the press
    assert press["fov_after"] == press["fov_before"] == press["settings_fov"] == 80


def test_the_driver_quit_from_the_title_screen_with_status_0(driven):
    out, _, _ = driven
    assert json.loads((out / "report.json").read_text())["status"] == 0


def test_python_main_py_with_no_option_opens_the_title_screen_and_sigterm_there_exits_0(tmp_path):
    def title_then_sigterm() -> tuple[int, str, bool]:
        """The exit status, stderr, and whether the title screen opened before the game exited."""
        process, pid = start_game(["--size", "640x360"], tmp_path)
        deadline = time.monotonic() + GAME_TIMEOUT_S
        lines = []
        while not any("boxel: title screen" in line for line in lines):
            line = process.stdout.readline()
            if not line and process.poll() is not None:
                return process.returncode, process.stderr.read(), False
            assert time.monotonic() < deadline, "the title screen never opened"
            lines.append(line)
        os.kill(pid, signal.SIGTERM)
        _, err = process.communicate(timeout=GAME_TIMEOUT_S)
        return process.returncode, err, True

    status, err, opened = retry_start(title_then_sigterm)
    assert opened and status == 0, f"exited {status}: {err[-3000:]}"
    assert "Traceback" not in err
    assert not (tmp_path / "data" / "worlds" / "default.boxel").exists()  # no world opened on its own
