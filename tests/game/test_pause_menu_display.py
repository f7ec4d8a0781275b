"""The pause menu over a world at 1280x720, as the new player saw it (real keys through xdotool,
under Xvfb): the menu ends above the HUD, so the hearts and the hotbar's icons show through its
shade untouched (before, "Save and quit" covered the hearts and "Esc to resume" the hotbar), and
the hint sits under the title. docs/screenshots/pause-menu-1280x720.png is the paused picture
(halved; pause-menu-1280x720-before.png the same before the fix)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from game.rules.clock import TICKS_PER_SECOND
from game.rules.hotbar import DEFAULT_SLOTS
from game.window.render.sky import NOON_TICKS
from game.window.ui import hud, pause_menu, style
from tests.game.conftest import close_game_window_shell, find_game_window_shell
from tests.game.test_inventory_display import ui_to_pixel
from tests.game.test_pause_and_loading_display import game_command, needs_xdotool, run_script

pytestmark = pytest.mark.display

WINDOW = (1280, 720)
SETTLE_S = 1.0
"""[s] Frames drawn before an F2: the screenshot saves the last frame drawn."""
SHADE_ALPHA = float(tuple(style.SHADE_COLOR)[3])
PATCH = 3
"""[pixels] Half the side of the square compared at an icon's or heart's centre."""
SHADE_MATCH = 12
"""[levels of 255] A HUD pixel under the menu is within this of the same pixel while playing, under
the shade (measured within 1: 8-bit rounding of the blend); under a button's panel a heart is ~45
darker, and a slot under a button's frame or the old hint's letters ~100 off."""
COLOR_MATCH = 24
"""[levels of 255] A heart's centre is within this of its red under the shade (scaled art pixels blend)."""


def patch(picture: np.ndarray, x: float, y: float) -> np.ndarray:
    """Mean colour of the (2 PATCH + 1)-pixel square at the `camera.ui` point (x, y)."""
    column, row = ui_to_pixel(x, y, WINDOW)
    return picture[row - PATCH:row + PATCH + 1, column - PATCH:column + PATCH + 1].reshape(-1, 3).mean(axis=0)


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    """(playing, paused) screenshots of a new world at 1280x720, as float RGB arrays."""
    needs_xdotool()
    tmp_path = tmp_path_factory.mktemp("paused")
    output = tmp_path / "output.txt"
    game = game_command("--world", str(tmp_path / "w.boxel"), "--seed", "42", "--view-distance", "2",
                        "--time", str(NOON_TICKS), size=WINDOW)

    def screenshot(count: int) -> str:
        return (f'sleep {SETTLE_S}; xdotool key F2; while [ "$(grep -c "screenshot saved" {output})" -lt {count} ]; '
                'do sleep 0.1; kill -0 $pid || exit 3; done; ')

    script = (f'{game} > {output} 2>&1 & pid=$!; '
              f'while ! grep -q "ready after" {output}; do sleep 0.1; kill -0 $pid || exit 3; done; '
              + find_game_window_shell() + 'xdotool windowfocus --sync $wid; '
              + f'sleep {hud.NAME_TICKS / TICKS_PER_SECOND + 0.5}; '  # the block name shown at the start has faded
              + screenshot(1) + 'xdotool key Escape; ' + screenshot(2) + close_game_window_shell())
    done = run_script(script, tmp_path, output)
    assert done.returncode == 0, f"exit {done.returncode}: {output.read_text()[-3000:]}{done.stderr[-2000:]}"
    images = sorted((tmp_path / "data" / "screenshots").glob("*.png"))
    assert len(images) == 2
    return tuple(np.asarray(Image.open(image).convert("RGB")).astype(np.float64) for image in images)


def test_the_hearts_show_through_the_pause_menus_shade_uncovered(shots):
    playing, paused = shots
    assert paused.shape == (WINDOW[1], WINDOW[0], 3)
    red = np.asarray(hud.PIXEL_COLORS["r"][:3], dtype=np.float64) * (1.0 - SHADE_ALPHA)
    for i in range(hud.HEART_COUNT):
        x = hud.HEARTS_X + i * hud.HEART_STEP
        shaded = patch(playing, x, hud.HEARTS_Y) * (1.0 - SHADE_ALPHA)
        assert np.abs(patch(paused, x, hud.HEARTS_Y) - shaded).max() <= SHADE_MATCH, f"heart {i}"
        column, row = ui_to_pixel(x, hud.HEARTS_Y, WINDOW)
        assert np.abs(paused[row, column] - red).max() <= COLOR_MATCH, f"heart {i}"


def test_every_hotbar_slot_shows_through_the_pause_menus_shade_uncovered(shots):
    playing, paused = shots
    half = hud.SLOT_SIZE / 2
    for slot in range(len(DEFAULT_SLOTS)):
        x = hud.slot_x(slot)
        left, top = ui_to_pixel(x - half, hud.HOTBAR_Y + half, WINDOW)
        right, bottom = ui_to_pixel(x + half, hud.HOTBAR_Y - half, WINDOW)
        shaded = playing[top:bottom, left:right] * (1.0 - SHADE_ALPHA)
        # Every pixel of the slot (its frame, its panel with the world behind, its icon) is the same under
        # the shade, bar the odd pixel of the world that moved between the shots.
        assert np.percentile(np.abs(paused[top:bottom, left:right] - shaded), 99) <= SHADE_MATCH, f"slot {slot}"


def test_save_and_quit_and_the_hint_are_drawn_where_the_layout_puts_them(shots):
    _, paused = shots
    rows = pause_menu.menu_rows(True)
    for y, what in ((rows.quit_y, "Save and quit"), (pause_menu.HINT_Y, "Esc to resume")):
        column, row = ui_to_pixel(0.0, y, WINDOW)
        caption = paused[row - 8:row + 9, column - 80:column + 80]
        assert (caption.min(axis=2) > 150).sum() > 30, f"no {what} text"
