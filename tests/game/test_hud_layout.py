"""The HUD and the screens fit the window (headless: the pure layout arithmetic of game.window.ui; the
drawn result is checked in tests/game/test_hud_scaling_display.py).

Units are Ursina's `camera.ui` units: the window is 1 tall (y from -0.5 to 0.5) and its aspect
ratio wide (x from -aspect/2 to aspect/2)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from game.rules.hotbar import SLOT_COUNT
from game.window.ui import death_screen, loading_screen, style
from game.window.ui.debug_overlay import (MIN_WRAP_CHARACTERS, PANEL_MARGIN, PANEL_TEXT_SCALE, WRAP_INDENT, fit_panel,
                                   panel_lines, wrap_line, wrap_lines)
from game.window.ui.hud import (BUBBLES_Y, HEARTS_X, HEARTS_Y, HOTBAR_MARGIN, HOTBAR_WIDTH, HOTBAR_Y, SELECTION_SIZE,
                         hud_layout, hud_scale, slot_x)
from game.window.ui.inventory_screen import Hit, grid_cell_centre, hit_at, panel_width, screen_scale, slot_centre

PORTRAIT = 320 / 480
WIDE_SHORT = 400 / 240
TALL_PHONE = 480 / 800
LANDSCAPE = 16 / 9
EXACT = 1e-12
"""Float rounding only: the layouts are a few multiplications."""
MONO_CHAR_WIDTH = 0.015
MONO_LINE_HEIGHT = 0.025
"""[window heights at text scale 1] Ursina's VeraMono: 0.6 em advance at Text.size 0.025, one
Text.size between rows (what DebugOverlay measures on its probe text)."""


def panel_text() -> list[str]:
    """The F3 panel's lines for a player standing in the lab (its longest lines are ~75 characters)."""
    body = physics.Body.at_feet(-1234.5678, 64.0, 98765.4321)
    return panel_lines(body, None, 123456) + ["target    grass at -1235 63 98765, face (0, 1, 0)"]


# --- the hotbar, hearts, bubbles and block name ---------------------------------------------------

def test_in_a_16_by_9_window_the_hud_keeps_its_full_size_layout():
    layout = hud_layout(LANDSCAPE)
    assert layout.scale == 1.0
    assert layout.slot_xs == tuple(slot_x(i) for i in range(SLOT_COUNT))
    assert (layout.hotbar_y, layout.hearts_x, layout.hearts_y, layout.bubbles_y) == (HOTBAR_Y, HEARTS_X, HEARTS_Y,
                                                                                      BUBBLES_Y)


@pytest.mark.parametrize("aspect", [PORTRAIT, TALL_PHONE, 0.3])
def test_in_a_narrow_window_the_hotbar_shrinks_to_span_the_window_between_its_margins(aspect):
    layout = hud_layout(aspect)
    assert layout.scale == pytest.approx((aspect - 2 * style.WINDOW_MARGIN) / HOTBAR_WIDTH, abs=EXACT)
    assert layout.scale < 1.0
    assert layout.left == pytest.approx(-aspect / 2 + style.WINDOW_MARGIN, abs=EXACT)
    assert layout.right == pytest.approx(aspect / 2 - style.WINDOW_MARGIN, abs=EXACT)


@pytest.mark.parametrize("aspect", [PORTRAIT, TALL_PHONE])
def test_a_shrunk_hotbar_stays_at_the_window_bottom_with_its_margin_shrunk_alike(aspect):
    layout = hud_layout(aspect)
    assert layout.bottom == pytest.approx(-0.5 + HOTBAR_MARGIN * layout.scale, abs=EXACT)
    assert layout.selection_size == pytest.approx(SELECTION_SIZE * layout.scale, abs=EXACT)


@pytest.mark.parametrize("aspect", [PORTRAIT, WIDE_SHORT, TALL_PHONE, LANDSCAPE, 0.3])
def test_the_hearts_bubbles_and_name_stay_inside_the_window_in_order_above_the_hotbar(aspect):
    layout = hud_layout(aspect)
    half_heart = layout.heart_step / 2
    assert -aspect / 2 < layout.hearts_x - half_heart
    assert layout.hearts_x + (10 - 1) * layout.heart_step + half_heart < aspect / 2
    assert layout.hotbar_y < layout.hearts_y < layout.bubbles_y < layout.name_y < 0.0


def test_a_window_just_wide_enough_for_the_hotbar_and_its_margins_keeps_full_size():
    assert hud_scale(HOTBAR_WIDTH + 2 * style.WINDOW_MARGIN) == 1.0
    assert hud_scale(HOTBAR_WIDTH + 2 * style.WINDOW_MARGIN - 0.01) < 1.0


@pytest.mark.parametrize("bad, error", [(0.0, ValueError), (-1.0, ValueError), (math.nan, ValueError),
                                        (math.inf, ValueError), ("1.5", TypeError), (None, TypeError),
                                        (True, TypeError)])
def test_a_bad_aspect_ratio_is_refused_with_a_clear_error(bad, error):
    with pytest.raises(error, match="aspect_ratio"):
        hud_layout(bad)


def test_fit_scale_never_grows_a_widget_and_refuses_sizes_that_are_not_positive():
    assert style.fit_scale(2.0, 1.0) == 1.0
    assert style.fit_scale(0.5, 2.0) == 0.25
    with pytest.raises(ValueError, match="needed"):
        style.fit_scale(1.0, 0.0)
    with pytest.raises(TypeError, match="available"):
        style.fit_scale("wide", 1.0)


def test_the_aspect_watch_says_changed_on_the_first_look_and_on_a_resize_only():
    watch = style.AspectWatch()
    assert [watch.changed(a) for a in (LANDSCAPE, LANDSCAPE, PORTRAIT, PORTRAIT, LANDSCAPE)] == [
        True, False, True, False, True]
    with pytest.raises(ValueError):
        watch.changed(0.0)
    assert watch.aspect_ratio == LANDSCAPE  # the refused value changed nothing


# --- the F3 panel ---------------------------------------------------------------------------------

def test_a_long_line_wraps_at_the_last_field_gap_that_fits_and_continues_indented():
    line = "feet      x  -1234.5678  y    64.0000  z  98765.4321"
    assert wrap_line(line, 30) == ["feet      x  -1234.5678  y", "  64.0000  z  98765.4321"]
    assert wrap_line(line, len(line)) == [line]


def test_a_line_with_no_gap_is_cut_at_the_width():
    assert wrap_line("0123456789", 4) == ["0123", "  45", "  67", "  89"]


@pytest.mark.parametrize("width", [0, 1, 2])
def test_a_wrap_width_with_no_room_after_the_indent_is_refused(width):
    assert len(WRAP_INDENT) == 2
    with pytest.raises(ValueError, match="indent"):
        wrap_line("abc def", width)


def test_in_a_16_by_9_window_the_panel_keeps_its_text_size_and_does_not_wrap():
    lines = panel_text()
    fit = fit_panel(lines, LANDSCAPE, MONO_CHAR_WIDTH, MONO_LINE_HEIGHT)
    assert (fit.text_scale, fit.wrap_characters, fit.rows) == (PANEL_TEXT_SCALE, max(map(len, lines)), len(lines))


@pytest.mark.parametrize("aspect", [PORTRAIT, WIDE_SHORT, TALL_PHONE, 0.25])
def test_in_any_window_every_row_of_the_panel_is_inside_it(aspect):
    lines = panel_text()
    fit = fit_panel(lines, aspect, MONO_CHAR_WIDTH, MONO_LINE_HEIGHT)
    rows = wrap_lines(lines, fit.wrap_characters)
    assert len(rows) == fit.rows
    widest = max(map(len, rows)) * MONO_CHAR_WIDTH * fit.text_scale
    assert widest + 4 * PANEL_MARGIN <= aspect + EXACT
    assert len(rows) * MONO_LINE_HEIGHT * fit.text_scale + 4 * PANEL_MARGIN <= 1.0 + EXACT
    assert fit.wrap_characters >= MIN_WRAP_CHARACTERS


def test_in_a_320_by_480_window_the_panel_wraps_long_lines_rather_than_shrinking_its_text():
    lines = panel_text()
    fit = fit_panel(lines, PORTRAIT, MONO_CHAR_WIDTH, MONO_LINE_HEIGHT)
    assert fit.text_scale == PANEL_TEXT_SCALE
    assert fit.wrap_characters < max(map(len, lines))
    assert fit.rows > len(lines)


def test_a_panel_too_tall_for_a_wide_short_window_shrinks_its_text_to_fit_the_height():
    lines = [f"line {i}" for i in range(60)]
    fit = fit_panel(lines, 4.0, MONO_CHAR_WIDTH, MONO_LINE_HEIGHT)
    assert fit.text_scale == pytest.approx((1.0 - 4 * PANEL_MARGIN) / (60 * MONO_LINE_HEIGHT), abs=EXACT)


# --- the screens ----------------------------------------------------------------------------------

def test_the_inventory_screen_shrinks_in_a_portrait_window_and_its_cells_are_hit_where_drawn():
    assert screen_scale(LANDSCAPE) == 1.0
    scale = screen_scale(PORTRAIT)
    assert scale == pytest.approx((PORTRAIT - 2 * style.WINDOW_MARGIN) / panel_width(), abs=EXACT)
    for index in (0, 8, 17):
        x, y = grid_cell_centre(index, scale=scale)
        assert abs(x) < PORTRAIT / 2
        assert hit_at(x, y, scale=scale) == Hit("grid", index)
    for slot in range(SLOT_COUNT):
        x, y = slot_centre(slot, scale=scale)
        assert hit_at(x, y, scale=scale) == Hit("slot", slot)


def test_the_death_and_loading_screens_shrink_only_when_their_widest_part_would_not_fit():
    assert death_screen.content_scale(PORTRAIT) == 1.0  # the 0.5-wide button fits in a 0.67-wide window
    assert death_screen.content_scale(0.4) == pytest.approx((0.4 - 2 * style.WINDOW_MARGIN) / death_screen.BUTTON_WIDTH,
                                                            abs=EXACT)
    assert loading_screen.content_scale(LANDSCAPE) == 1.0
    assert loading_screen.content_scale(PORTRAIT) == pytest.approx(
        (PORTRAIT - 2 * style.WINDOW_MARGIN) / loading_screen.BAR_WIDTH, abs=EXACT)


def test_a_veil_covers_the_window_at_any_shape():
    for aspect in (0.25, PORTRAIT, LANDSCAPE, 5.0):
        assert style.cover_width(aspect) >= aspect


# --- screens over the game keep clear of the HUD ---------------------------------------------------

DEATH_HINT_HALF_HEIGHT = 0.01
"""[window heights] Half the death screen's hint line (Ursina's 0.025-tall text at 0.8 times)."""


@settings(max_examples=200, deadline=None)
@given(aspect=st.floats(0.05, 20.0))
def test_the_inventory_and_death_screens_end_above_the_hud_at_any_window_shape(aspect):
    from game.rules.inventory import CATALOGUE
    from game.window.ui.hud import HUD_TOP, SLOT_SIZE
    from game.window.ui.inventory_screen import PANEL_MARGIN, hotbar_row_y

    hud_top = hud_layout(aspect).top
    assert hud_top <= HUD_TOP
    scale = screen_scale(aspect)
    inventory_bottom = hotbar_row_y(CATALOGUE, scale) - (SLOT_SIZE / 2 + PANEL_MARGIN) * scale
    assert inventory_bottom > hud_top
    death_bottom = (death_screen.BUTTON_Y - death_screen.HINT_GAP - DEATH_HINT_HALF_HEIGHT) * (
        death_screen.content_scale(aspect))
    assert death_bottom > hud_top
