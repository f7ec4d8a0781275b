"""The UI widgets in a real window (Xvfb when there is no display): HUD, target outline, loading
screen, pause menu and F2 screenshots, driven by `python -m tests.game.drivers.widget_demo
--screenshots DIR` (real pointer moves, clicks and wheel steps) and checked on the pixels it saved."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from game.rules.hotbar import DEFAULT_SLOTS
from game.window.ui import hud, loading_screen, style
from tests.game.drivers.widget_demo import SKY_RGB
from game.userdata.user_settings import FOV_RANGE_DEGREES, UserSettings
from game.world import atlas
from game.world.blocks import block_id

from .conftest import REPO_ROOT, run_with_display

pytestmark = pytest.mark.display

WINDOW = (960, 540)
PIXEL_CHANGE = 40
"""[0..255] A pixel counts as changed when a channel differs by more than this (redrawing the
same scene gives 0; every widget differs from what is behind it by far more)."""
COLOR_MATCH = 40
"""[0..255] Largest channel difference for a pixel to count as a given UI colour (blending
with what is behind, and text antialiasing, stay within it)."""
SKY_MATCH = 8
"""[0..255] The sky is the window's clear colour, written exactly; this only absorbs rounding."""
BAR_END_PIXELS = 3
"""[pixels] How far the drawn end of the progress fill may be from fraction x width (rounding of
the quad's edges to pixels)."""


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """Run the scripted demo once; returns (folder, report)."""
    folder = tmp_path_factory.mktemp("ui_demo")
    done = run_with_display(["-m", "tests.game.drivers.widget_demo", "--size", "%dx%d" % WINDOW,
                             "--screenshots", str(folder)])
    assert done.returncode == 0, f"the demo exited with {done.returncode}:\n{done.stderr[-4000:]}"
    return folder, json.loads((folder / "report.json").read_text(encoding="utf-8"))


def image(folder: Path, name: str) -> np.ndarray:
    picture = np.asarray(Image.open(folder / name).convert("RGB")).astype(np.int16)
    assert picture.shape == (WINDOW[1], WINDOW[0], 3)
    return picture


def changed(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (np.abs(a - b) > PIXEL_CHANGE).any(axis=2)


def rgb255(ursina_color) -> np.ndarray:
    return np.round(np.asarray(tuple(ursina_color)[:3]) * 255).astype(np.int16)


def matches(pixels: np.ndarray, ursina_color) -> np.ndarray:
    return (np.abs(pixels - rgb255(ursina_color)) <= COLOR_MATCH).all(axis=-1)


def window_heights(value: float) -> int:
    """A size in window heights, in whole pixels."""
    return round(value * WINDOW[1])


# --- HUD ----------------------------------------------------------------------------------------

def test_the_hud_draws_only_the_crosshair_and_the_hotbar_and_f1_hides_both(demo):
    folder, report = demo
    shown, hidden = image(folder, "hud.png"), image(folder, "hud_hidden.png")
    assert report["hud_hidden_after_toggle"] is True
    difference = changed(shown, hidden)
    cx, cy = report["crosshair_pixel"]
    assert (cx, cy) == (WINDOW[0] // 2, WINDOW[1] // 2)
    assert shown[cy, cx].min() >= 200, "the crosshair's centre is not white"
    arm = window_heights(hud.CROSSHAIR_LENGTH) // 2 - 1
    for x, y in ((cx - arm, cy), (cx + arm, cy), (cx, cy - arm), (cx, cy + arm)):
        assert difference[y, x], f"crosshair arm missing at {(x, y)}"
    # Nothing else changes: outside the crosshair and the hotbar band (row, name above it) the
    # pictures are identical.
    reach = window_heights(hud.CROSSHAIR_LENGTH / 2 + hud.CROSSHAIR_OUTLINE) + 1
    band_top = report["slot_pixels"][0][1] - window_heights(hud.SELECTION_SIZE / 2 + hud.NAME_GAP + 0.03)
    elsewhere = difference.copy()
    elsewhere[cy - reach:cy + reach + 1, cx - reach:cx + reach + 1] = False
    elsewhere[band_top:] = False
    assert elsewhere.sum() == 0
    assert difference[band_top:].sum() > 9 * (report["slot_size_pixels"] ** 2) * 0.5


def slot_crop(picture: np.ndarray, report: dict, index: int, size: float) -> np.ndarray:
    x, y = report["slot_pixels"][index]
    half = window_heights(size) // 2
    return picture[y - half:y + half, x - half:x + half]


def test_each_slot_shows_its_blocks_icon_from_the_icons_atlas(demo):
    folder, report = demo
    shown = image(folder, "hud.png")
    assert report["slots"] == list(DEFAULT_SLOTS)
    icons = Image.open(Path(REPO_ROOT) / atlas.ICONS_FILE).convert("RGBA")
    crops = [slot_crop(shown, report, i, hud.ICON_SIZE) for i in range(len(DEFAULT_SLOTS))]
    side = crops[0].shape[0]

    def expected(name: str, behind: np.ndarray) -> np.ndarray:
        """The icon as it should look: scaled to the drawn size, over the slot's own background."""
        left, top = atlas.icon_origin_pixels(block_id(name))
        icon = icons.crop((left, top, left + atlas.ICON_PIXELS, top + atlas.ICON_PIXELS))
        rgba = np.asarray(icon.resize((side, side), Image.BILINEAR)).astype(np.float64) / 255.0
        return rgba[..., :3] * 255.0 * rgba[..., 3:] + behind * (1.0 - rgba[..., 3:])

    for index, crop in enumerate(crops):
        behind = crop[0, 0].astype(np.float64)  # icons' corners are transparent: the slot shows there
        errors = [np.abs(crop - expected(name, behind)).mean() for name in DEFAULT_SLOTS]
        assert int(np.argmin(errors)) == index, f"slot {index} looks like {DEFAULT_SLOTS[int(np.argmin(errors))]}"


def test_the_selected_slot_has_a_white_frame_and_the_others_do_not(demo):
    folder, report = demo
    shown = image(folder, "hud.png")
    assert report["selected_slot"] == 3
    frame_offset = window_heights(hud.SELECTION_SIZE / 2 - hud.SELECTION_BORDER / 2)
    for index, (x, y) in enumerate(report["slot_pixels"]):
        top_edge = shown[y - frame_offset, x - 2:x + 3]
        white = matches(top_edge, style.HIGHLIGHT_COLOR).all()
        assert white == (index == report["selected_slot"]), f"slot {index}"


def test_the_target_outline_is_a_dark_wireframe_around_the_targeted_block(demo):
    folder, report = demo
    assert report["target"] == {"block": [8, 4, 6], "face": [0, 0, -1]}
    with_outline, without = image(folder, "hud_hidden.png"), image(folder, "outline_hidden.png")
    difference = changed(with_outline, without)
    assert difference.sum() > 4 * WINDOW[1] * 0.1  # edges around a block a fifth of the window high
    assert (with_outline[difference].max(axis=1) < 90).mean() > 0.9, "outline pixels are not dark"
    rows, columns = np.nonzero(difference)
    cx, cy = report["crosshair_pixel"]
    assert rows.min() < cy < rows.max() and columns.min() < cx < columns.max(), "the outline is not around the target"


# --- loading screen -------------------------------------------------------------------------------

def test_the_loading_screen_covers_the_window_and_fills_its_bar_to_the_fraction(demo):
    folder, report = demo
    loading = image(folder, "loading.png")
    sky = np.array(SKY_RGB)
    assert (np.abs(image(folder, "hud.png") - sky) <= SKY_MATCH).all(axis=2).any()
    assert not (np.abs(loading - sky) <= SKY_MATCH).all(axis=2).any(), "the scene shows through"
    row = loading[WINDOW[1] // 2 - window_heights(loading_screen.BAR_Y)]
    filled = np.nonzero(matches(row, style.ACCENT_COLOR))[0]
    inner_width = (loading_screen.BAR_WIDTH - 2 * (loading_screen.BAR_BORDER + loading_screen.BAR_INSET)) * WINDOW[1]
    left = WINDOW[0] / 2 - inner_width / 2
    assert len(filled) == filled.max() - filled.min() + 1, "the fill has gaps"
    assert abs(filled.min() - left) <= BAR_END_PIXELS
    assert abs(filled.max() + 1 - (left + report["loading_fraction"] * inner_width)) <= BAR_END_PIXELS
    title_rows = loading[: WINDOW[1] // 2 - window_heights(loading_screen.BAR_Y + 0.05)]
    assert (title_rows.min(axis=2) > 200).sum() > 200, "no title text"


# --- pause menu --------------------------------------------------------------------------------------

def test_dragging_and_wheeling_the_sliders_changes_saves_and_reports_the_settings(demo):
    _, report = demo
    low, high = FOV_RANGE_DEGREES
    fov = low + report["fov_drag_fraction"] * (high - low)
    sensitivity = UserSettings().mouse_sensitivity + 0.05 * report["sensitivity_wheel_steps"]
    expected = {"fov_degrees": round(fov), "mouse_sensitivity": round(sensitivity, 2),
                "view_distance_columns": UserSettings().view_distance_columns,
                "sound_volume": UserSettings().sound_volume, "view_bobbing": UserSettings().view_bobbing}
    assert expected == {"fov_degrees": 90, "mouse_sensitivity": 1.1, "view_distance_columns": 8, "sound_volume": 1.0,
                        "view_bobbing": True}
    assert report["settings_in_menu"] == expected
    assert report["settings_changes"][-1] == expected
    assert report["settings_changes"][0]["fov_degrees"] == 90  # the click came first, then each wheel step
    assert len(report["settings_changes"]) == 1 + report["sensitivity_wheel_steps"]
    assert report["settings_file"] == expected


def test_clicking_resume_closes_the_menu_and_calls_back(demo):
    _, report = demo
    assert report["menu_events"] == ["resume"]
    assert report["menu_open_after_resume"] is False


def test_the_pause_menu_shades_the_game_behind_its_controls(demo):
    folder, _ = demo
    game, paused = image(folder, "hud.png"), image(folder, "pause.png")
    corner = (slice(0, WINDOW[1] // 6), slice(0, WINDOW[0] // 6))  # sky, clear of every control
    assert paused[corner].mean() < 0.6 * game[corner].mean()
    assert (paused[corner] > 0).all(), "the shade hides the game completely"
    middle = paused[WINDOW[1] // 3:2 * WINDOW[1] // 3, WINDOW[0] // 3:2 * WINDOW[0] // 3]
    assert (middle.min(axis=2) > 200).sum() > 100, "no control captions in the middle of the window"


# --- F2 --------------------------------------------------------------------------------------------

def test_screenshots_taken_in_the_same_second_get_different_timestamped_names(demo):
    _, report = demo
    paths = [Path(p) for p in report["f2_screenshots"]]
    assert [p.name for p in paths] == ["boxel-2024-05-17_12-00-00.png", "boxel-2024-05-17_12-00-00-2.png"]
    for path in paths:
        assert Image.open(path).size == WINDOW
