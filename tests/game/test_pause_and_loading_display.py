"""The window's start and pause as a player sees them: Esc while the world loads quits at once
(exit 0, a new world not kept), the crosshair is hidden while the pause menu is open, and a
launch prints none of Ursina's debug lines. Real keys through xdotool, under Xvfb."""

from __future__ import annotations

import shutil
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from game.window.ui.hud import CROSSHAIR_LENGTH, CROSSHAIR_WIDTH
from tests.game.conftest import REPO_ROOT, close_game_window_shell, find_game_window_shell, run_display_script
from tests.game.scripted_runs import WINDOW

pytestmark = pytest.mark.display

CROSSHAIR_WINDOW = (1280, 720)
"""[pixels] Large enough for the crosshair's arms to be 3 pixels thick (the contrast below needs them)."""
ARM_CONTRAST_SHOWN = 3.0
"""[levels of 255] The crosshair's horizontal arm is more than this brighter than the pixels past its
ends where it is drawn: measured 66-72 over the world."""
ARM_UNDER_MENU = 2.0
"""[levels of 255] Under the open pause menu, the arm's pixels differ from the same pixels of the
menu opened with the HUD hidden (F1: no crosshair at all) by less than this on average: measured
0.2 hidden, 3.5 with the cross drawn dimly through the menu's panel (the defect)."""
SETTLE_S = 1.0
"""[s] Frames drawn before an F2: the screenshot saves the last frame drawn, so the menu opened (or
closed) by the key before must have been drawn."""
URSINA_DEBUG_LINES = ("package_folder:", "asset_folder:", "set window position", "info:")


def needs_xdotool() -> None:
    if not shutil.which("xdotool"):
        pytest.skip("xdotool is needed to type into the game's window")


def run_script(script: str, tmp_path, output) -> subprocess.CompletedProcess:
    """`script` with the user's folders in `tmp_path`, the game's output going to `output`."""
    env_lines = f'export BOXEL_CONFIG_DIR="{tmp_path}/config" BOXEL_DATA_DIR="{tmp_path}/data"; '
    return run_display_script(env_lines + script, output)


def game_command(*args: str, size: tuple[int, int] = WINDOW) -> str:
    return subprocess.list2cmdline([sys.executable, str(REPO_ROOT / "main.py"), "--size", "%dx%d" % size, *args])


def arm_pixels(shape: tuple[int, ...]) -> tuple[slice, np.ndarray, np.ndarray]:
    """The rows of the crosshair's horizontal arm (its thickness at the window's centre), the columns
    on the arm (between the vertical arm and the arm's ends) and those just past its ends, in a
    picture of `shape`."""
    height, width = shape[:2]
    cx, cy = width // 2, height // 2
    half_width, half_length = round(CROSSHAIR_WIDTH * height / 2), round(CROSSHAIR_LENGTH * height / 2)
    rows = slice(cy - half_width + 1, cy + half_width)
    inner = np.r_[cx - half_length + 2:cx - half_width - 1, cx + half_width + 2:cx + half_length - 1]
    outer = np.r_[cx - 2 * half_length:cx - half_length - 2, cx + half_length + 3:cx + 2 * half_length + 1]
    return rows, inner, outer


def grey(image) -> np.ndarray:
    return np.asarray(Image.open(image).convert("RGB")).astype(np.float64).mean(axis=2)


def arm_contrast(image) -> float:
    """[levels] Mean brightness of the crosshair's horizontal arm less that of the pixels just past its ends."""
    pixels = grey(image)
    rows, inner, outer = arm_pixels(pixels.shape)
    return float(pixels[rows][:, inner].mean() - pixels[rows][:, outer].mean())


def arm_difference(image, reference) -> float:
    """[levels] Mean difference of the crosshair's arm pixels between two pictures."""
    a, b = grey(image), grey(reference)
    rows, inner, _ = arm_pixels(a.shape)
    return float(np.abs(a[rows][:, inner] - b[rows][:, inner]).mean())


def test_esc_while_a_new_world_loads_quits_at_once_with_status_0_and_keeps_no_world(tmp_path):
    needs_xdotool()
    path, output = tmp_path / "new.boxel", tmp_path / "output.txt"
    # A second a frame keeps the spawn area loading for many seconds: the Esc surely comes while it loads.
    game = game_command("--world", str(path), "--seed", "42", "--view-distance", "3", "--frame-delay-ms", "1000")
    script = (f'{game} > {output} 2>&1 & pid=$!; '
              + find_game_window_shell() + 'xdotool windowfocus --sync $wid; '
              # Esc again until it quits: one typed before the game hears keys (the first frames) is lost.
              'while kill -0 $pid 2> /dev/null; do xdotool key Escape; sleep 0.5; done; wait $pid')
    done = run_script(script, tmp_path, output)
    printed = output.read_text()
    assert done.returncode == 0, f"exit {done.returncode}: {printed[-3000:]}{done.stderr[-2000:]}"
    assert "ready after" not in printed and "Traceback" not in printed
    assert f"the new world {path} was not kept" in printed and not path.exists()


def test_the_crosshair_is_hidden_while_the_pause_menu_is_open_and_back_after_resuming(tmp_path):
    needs_xdotool()
    output = tmp_path / "output.txt"
    game = game_command("--world", str(tmp_path / "w.boxel"), "--seed", "42", "--view-distance", "2",
                        size=CROSSHAIR_WINDOW)

    def screenshot(count: int) -> str:
        # F2 after a second of frames (an F2 saves the frame already drawn), then wait for the image.
        return (f'sleep {SETTLE_S}; xdotool key F2; while [ "$(grep -c "screenshot saved" {output})" -lt {count} ]; '
                'do sleep 0.1; kill -0 $pid || exit 3; done; ')

    def key(name: str) -> str:
        return f'xdotool key {name}; sleep {SETTLE_S}; '  # F1 waits for the session's next tick

    # Playing; paused with the HUD hidden (F1: no crosshair, the reference); paused with the HUD; resumed.
    script = (f'{game} > {output} 2>&1 & pid=$!; '
              f'while ! grep -q "ready after" {output}; do sleep 0.1; kill -0 $pid || exit 3; done; '
              + find_game_window_shell() + 'xdotool windowfocus --sync $wid; '
              + screenshot(1) + key("F1") + key("Escape") + screenshot(2) + key("Escape") + key("F1")
              + key("Escape") + screenshot(3) + key("Escape") + screenshot(4)
              + close_game_window_shell())
    done = run_script(script, tmp_path, output)
    assert done.returncode == 0, f"exit {done.returncode}: {output.read_text()[-3000:]}{done.stderr[-2000:]}"
    images = sorted((tmp_path / "data" / "screenshots").glob("*.png"))
    assert len(images) == 4
    playing, reference, paused, resumed = images
    assert arm_contrast(playing) > ARM_CONTRAST_SHOWN and arm_contrast(resumed) > ARM_CONTRAST_SHOWN
    # The menu's captions may cross the window's centre: the open menu is compared with itself, HUD hidden.
    assert arm_difference(paused, reference) < ARM_UNDER_MENU


def test_a_launch_prints_none_of_ursinas_debug_lines(run_game, tmp_path):
    replay = tmp_path / "still.jsonl"
    replay.write_text('{"tick": 0, "event": "look", "yaw": 0.0, "pitch": 0.0}\n', encoding="utf-8")
    done = run_game("--lab", "--size", "%dx%d" % WINDOW, "--replay", str(replay), "--exit-after-ticks", "2")
    assert done.returncode == 0, done.stderr[-3000:]
    printed = done.stdout + done.stderr
    assert [line for line in printed.splitlines() if line.startswith(URSINA_DEBUG_LINES)] == []
    assert "ready after" in done.stdout  # the game's own line is still there
