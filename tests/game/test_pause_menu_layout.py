"""The pause menu never covers the HUD: its rows end above the block name, the hearts and the
hotbar (which stay visible under the menu's shade) at 1280x720 and at any window shape. Headless
(the pure layout of game.window.ui.pause_menu and game.window.ui.hud) and measured on the real widgets (Ursina
with no window, in a subprocess: the screen rectangles of everything the menu and the HUD draw)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.window.ui.hud import HUD_TOP, hud_layout
from game.window.ui.pause_menu import (HUD_CLEARANCE, QUIT_GAP, ROW_SPACING, menu_extent, menu_rows, menu_scale)
from game.window.ui.settings_panel import CONTROL_HEIGHT, CONTROL_WIDTH
from game.window.ui import style
from tests.game.conftest import print_probe, run_probe

WIDESCREEN = 1280 / 720
EXACT = 1e-12
"""Float rounding only: the layouts are a few additions and multiplications."""


def overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether two (left, bottom, right, top) rectangles share more than an edge."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def hud_extent(aspect_ratio: float) -> tuple[float, float, float, float]:
    """[window heights] The rectangle that holds the hotbar, hearts, bubbles and block name."""
    layout = hud_layout(aspect_ratio)
    return layout.left, layout.bottom, layout.right, layout.top


def test_at_1280_by_720_save_and_quit_ends_above_the_hud_by_the_clearance():
    rows = menu_rows(True)
    assert rows.quit_y == pytest.approx(rows.time_y - QUIT_GAP, abs=EXACT)
    assert rows.bottom == pytest.approx(-0.274, abs=EXACT)
    assert HUD_TOP == pytest.approx(-0.3, abs=EXACT)
    assert hud_layout(WIDESCREEN).top == HUD_TOP
    assert rows.bottom - HUD_TOP >= HUD_CLEARANCE
    assert not overlap(menu_extent(WIDESCREEN, True), hud_extent(WIDESCREEN))


def test_the_rows_are_one_row_spacing_apart_and_never_touch():
    rows = menu_rows(True)
    ys = [rows.resume_y, *rows.slider_ys, rows.switch_y, rows.time_y]
    assert [a - b for a, b in zip(ys, ys[1:])] == pytest.approx([ROW_SPACING] * 6, abs=EXACT)
    assert ROW_SPACING > CONTROL_HEIGHT


def test_without_the_time_row_save_and_quit_moves_up_one_row():
    assert menu_rows(False).time_y is None
    assert menu_rows(False).quit_y == pytest.approx(menu_rows(True).quit_y + ROW_SPACING, abs=EXACT)


@settings(max_examples=300, deadline=None)
@given(aspect=st.floats(0.05, 20.0), with_time_row=st.booleans())
def test_at_any_window_shape_the_menu_is_inside_the_window_and_clear_of_the_hud(aspect, with_time_row):
    left, bottom, right, top = menu = menu_extent(aspect, with_time_row)
    assert top <= 0.5 and bottom >= -0.5
    assert left >= -aspect / 2 and right <= aspect / 2
    assert right - left == pytest.approx(CONTROL_WIDTH * menu_scale(aspect), abs=EXACT)
    assert not overlap(menu, hud_extent(aspect))
    assert bottom - hud_layout(aspect).top >= HUD_CLEARANCE * min(menu_scale(aspect), 1.0) - EXACT


@pytest.mark.parametrize("bad, error", [("yes", TypeError), (1, TypeError), (None, TypeError)])
def test_menu_rows_refuse_anything_but_a_bool(bad, error):
    with pytest.raises(error, match="with_time_row"):
        menu_rows(bad)


@pytest.mark.parametrize("bad, error", [(0.01, ValueError), (-1.0, ValueError), (float("nan"), ValueError),
                                        (5.0, ValueError), ("0.08", TypeError), (True, TypeError)])
def test_a_settings_panel_refuses_a_spacing_that_overlaps_its_rows_or_is_no_number(bad, error):
    from game.window.ui.settings_panel import SettingsPanel
    from game.userdata.user_settings import UserSettings

    with pytest.raises(error, match="spacing"):
        SettingsPanel(UserSettings(), lambda settings: None, top_y=0.0, spacing=bad)


def test_a_bad_aspect_ratio_is_refused_by_the_menu_layout():
    with pytest.raises(ValueError, match="aspect_ratio"):
        menu_extent(0.0, True)
    with pytest.raises(TypeError, match="aspect_ratio"):
        menu_scale("wide")


# --- the real widgets ----------------------------------------------------------------------------

def _drawn_rectangles(root) -> list[tuple[str, tuple[float, float, float, float]]]:
    """(name, rectangle on camera.ui) of every shown part under `root` with something drawn."""
    from ursina import Text, camera

    from game.window.render.frame_loop import descendants

    found = []
    for entity in [root, *descendants(root)]:
        if not entity.enabled or entity.has_disabled_ancestor() or (entity.model is None and not isinstance(
                entity, Text)):
            continue
        bounds = entity.getTightBounds(camera.ui)
        if bounds is None:
            continue
        low, high = bounds
        label = entity.text if isinstance(entity, Text) else entity.name
        found.append((label, (low[0], low[1], high[0], high[1])))
    return found


def probe_drawn_menu() -> None:
    """Run in a subprocess: the pause menu open over the HUD (hearts, bubbles and a block name
    shown), 16:9; prints every menu part that overlaps a HUD part, and how many parts were measured."""
    from ursina import Ursina

    Ursina(window_type="none", size=(1280, 720))
    from ursina import window

    from game.rules.health import Vitals
    from game.rules.hotbar import Hotbar
    from game.window.ui.hud import Hud
    from game.window.ui.pause_menu import PauseMenu
    from game.userdata.user_settings import UserSettings

    hud = Hud(Hotbar())
    hud.show_vitals(Vitals(health=7, air=100))
    hud.show_hotbar(Hotbar(selected=3))  # the block name shows
    menu = PauseMenu(UserSettings(), on_resume=lambda: None, on_settings_changed=lambda s: None,
                     on_save_and_quit=lambda: None, on_time_chosen=lambda ticks: None)
    menu.open()
    menu_parts = [part for part in _drawn_rectangles(menu.content)]
    hud_parts = [part for part in _drawn_rectangles(hud.bar)]
    print_probe({"aspect": window.aspect_ratio, "menu_parts": len(menu_parts), "hud_parts": len(hud_parts),
                 "lowest_menu_part": min(rect[1] for _, rect in menu_parts),
                 "highest_hud_part": max(rect[3] for _, rect in hud_parts),
                 "overlaps": [[m, h] for m, a in menu_parts for h, b in hud_parts if overlap(a, b)]})


def test_no_drawn_part_of_the_open_pause_menu_overlaps_a_drawn_part_of_the_hud():
    drawn = run_probe(__name__, "probe_drawn_menu")
    assert drawn["aspect"] == pytest.approx(WIDESCREEN, abs=1e-6)
    assert drawn["menu_parts"] > 20 and drawn["hud_parts"] > 20  # buttons, frames, captions; slots, hearts
    assert drawn["overlaps"] == []
    assert drawn["lowest_menu_part"] >= menu_rows(True).bottom - style.WINDOW_MARGIN
    assert drawn["highest_hud_part"] <= HUD_TOP
