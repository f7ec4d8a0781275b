"""What the HUD's hearts and air bubbles show for a player's vitals (headless: the pure helpers of
game.window.ui.hud; the pictures themselves are checked in tests/game/test_health_display.py)."""

from __future__ import annotations

import pytest

from game.rules.health import MAX_AIR, MAX_HEALTH
from game.window.ui.hud import (BUBBLE_AIR, BUBBLE_PIXELS, HEART_COUNT, HEART_PIXELS, PIXEL_COLORS, bubble_count,
                         heart_states, pixel_art)


@pytest.mark.parametrize("health, full, half", [(20, 10, 0), (19, 9, 1), (9, 4, 1), (2, 1, 0), (1, 0, 1), (0, 0, 0)])
def test_each_heart_is_two_health_with_a_half_heart_for_an_odd_one(health, full, half):
    states = heart_states(health)
    assert len(states) == HEART_COUNT == MAX_HEALTH // 2
    assert states == ["full"] * full + ["half"] * half + ["empty"] * (HEART_COUNT - full - half)


@pytest.mark.parametrize("air, bubbles", [(MAX_AIR, 0), (299, 10), (271, 10), (270, 9), (31, 2), (30, 1), (1, 1),
                                          (0, 0), (-19, 0)])
def test_bubbles_show_only_below_full_air_one_per_thirty_ticks_begun(air, bubbles):
    assert BUBBLE_AIR == 30
    assert bubble_count(air) == bubbles


def test_the_art_is_nine_by_nine_and_an_empty_heart_keeps_the_outline_but_loses_the_red():
    for rows in (HEART_PIXELS, BUBBLE_PIXELS):
        assert len(rows) == 9 and {len(row) for row in rows} == {9}
    full, half, empty = pixel_art(HEART_PIXELS), pixel_art(HEART_PIXELS, 5), pixel_art(HEART_PIXELS, 0)
    assert full.getpixel((2, 3)) == PIXEL_COLORS["r"] and full.getpixel((6, 3)) == PIXEL_COLORS["r"]
    assert half.getpixel((2, 3)) == PIXEL_COLORS["r"] and half.getpixel((6, 3)) == PIXEL_COLORS["e"]
    assert empty.getpixel((2, 3)) == PIXEL_COLORS["e"] and empty.getpixel((0, 3)) == PIXEL_COLORS["k"]
