"""Day and night: Beta's time-of-day curves, the session's clock, --time, and the torch in the hotbar."""

import math

import pytest

from game.frontends.cli import parse_options
from game.rules.hotbar import DEFAULT_SLOTS, Hotbar, holdable
from game.rules.lab_session import lab_session
from game.window.render.sky import (MIDNIGHT_TICKS, NOON_TICKS, SUNSET_TICKS, brightness, celestial_angle, daylight,
                             sky_colors, sun_direction, sunset_glow)
from game.rules.replay import Click, KeyDown, Look
from game.world.world import DAY_TICKS

NIGHT_DAYLIGHT = 4 / 15
"""Beta takes 11 of the 15 sky levels away at night."""


def test_a_day_is_24000_ticks_with_the_sun_overhead_at_noon_and_the_moon_at_midnight():
    assert DAY_TICKS == 24_000
    assert celestial_angle(NOON_TICKS) == 0.0
    assert celestial_angle(MIDNIGHT_TICKS) == 0.5
    assert sun_direction(NOON_TICKS) == (-0.0, 1.0, 0.0)
    x, y, _ = sun_direction(0)
    assert x > 0.95 and abs(y) < 0.3  # sunrise: low in the east (+X)
    x, y, _ = sun_direction(SUNSET_TICKS + 700)
    assert x < -0.95 and abs(y) < 0.1  # sunset: low in the west


def test_the_celestial_angle_follows_beta_eased_turn_at_sunrise():
    turn = 0.75  # tick 0 is a quarter turn before noon
    eased = 1.0 - (math.cos(turn * math.pi) + 1.0) / 2.0
    assert celestial_angle(0) == turn + (eased - turn) / 3.0
    assert celestial_angle(DAY_TICKS) == celestial_angle(0)


def test_daylight_is_full_by_day_four_fifteenths_at_night_and_between_at_dusk():
    assert daylight(NOON_TICKS) == 1.0
    assert daylight(MIDNIGHT_TICKS) == pytest.approx(NIGHT_DAYLIGHT, abs=1e-12)
    dusk = daylight(SUNSET_TICKS + 700)
    assert NIGHT_DAYLIGHT < dusk < 1.0
    assert daylight(SUNSET_TICKS + 300) > dusk > daylight(SUNSET_TICKS + 1100)  # it darkens as the sun sets


def test_the_brightness_table_is_betas_from_0_05_in_the_dark_to_1_in_full_light():
    assert brightness(0) == pytest.approx(0.05, abs=1e-12)
    assert brightness(15) == 1.0
    dark = 1 / 15  # level 14
    assert brightness(14) == pytest.approx((1 - dark) / (dark * 3 + 1) * 0.95 + 0.05)
    assert brightness(4) == pytest.approx((4 / 15) / ((11 / 15) * 3 + 1) * 0.95 + 0.05)  # the open sky at night
    with pytest.raises(ValueError):
        brightness(16)


def test_the_sky_is_the_day_blue_at_noon_dark_at_midnight_and_glows_at_sunset():
    noon, midnight = sky_colors(NOON_TICKS), sky_colors(MIDNIGHT_TICKS)
    assert noon.sky == pytest.approx((140 / 255, 192 / 255, 236 / 255)) and noon.glow == 0.0
    assert max(midnight.sky) < 0.1 and midnight.glow == 0.0 and midnight.daylight == pytest.approx(NIGHT_DAYLIGHT)
    sunset = sky_colors(SUNSET_TICKS + 700)
    assert sunset.glow > 0.5
    red, green, blue = sunset.sky
    assert red > blue  # the horizon is orange, not blue
    glow_rgb, strength = sunset_glow(celestial_angle(SUNSET_TICKS + 700))
    assert glow_rgb[0] > glow_rgb[1] > glow_rgb[2] and strength == sunset.glow


def test_bad_times_of_day_are_refused():
    for bad in (float("nan"), float("inf"), "noon", None, True):
        with pytest.raises(TypeError):
            celestial_angle(bad)


def test_the_session_clock_starts_at_sunrise_advances_one_a_tick_and_wraps_after_a_day():
    session = lab_session()
    assert session.day_time == 0
    session.run([], 3)
    assert session.day_time == 3 and session.report()["day_time"] == 3
    session.set_day_time(DAY_TICKS - 1)
    session.run([], 2)
    assert session.day_time == 1


@pytest.mark.parametrize("bad, error", [(-1, ValueError), (DAY_TICKS, ValueError), (6000.0, TypeError),
                                        ("6000", TypeError), (True, TypeError)])
def test_a_bad_time_of_day_is_refused_and_changes_nothing(bad, error):
    session = lab_session()
    session.set_day_time(NOON_TICKS)
    with pytest.raises(error):
        session.set_day_time(bad)
    assert session.day_time == NOON_TICKS


def test_the_time_option_takes_ticks_0_to_23999_and_refuses_the_rest(capsys):
    assert parse_options(["--time", "13000"]).day_time == 13_000
    assert parse_options([]).day_time is None
    for bad in ("24000", "-1", "noon", "1.5"):
        with pytest.raises(SystemExit):
            parse_options(["--time", bad])
        assert "0..23999" in capsys.readouterr().err


def test_a_new_player_holds_a_torch_and_placing_it_puts_a_torch_block_in_the_world():
    assert "torch" in DEFAULT_SLOTS and holdable("torch")
    session = lab_session()
    slot = Hotbar().slots.index("torch")
    session.run([Look(0, 0.0, 60.0), KeyDown(0, str(slot + 1)), Click(0, "right")], 1)
    assert session.hotbar.selected_block == "torch"
    assert any(session.world.get_block(*cell) == "torch" for cell in session.edited_cells)


def test_the_pause_menus_time_buttons_tell_the_game_sunrise_noon_sunset_and_midnight():
    import subprocess
    import sys
    from pathlib import Path
    script = """
from ursina import Ursina
app = Ursina(window_type='none')
from game.window.ui.pause_menu import PauseMenu
from game.userdata.user_settings import UserSettings
told = []
menu = PauseMenu(UserSettings(), on_resume=lambda: None, on_settings_changed=lambda s: None,
                 on_save_and_quit=lambda: None, on_time_chosen=told.append)
for caption in ('Sunrise', 'Noon', 'Sunset', 'Midnight'):
    menu.time_buttons[caption].on_click()
without = PauseMenu(UserSettings(), on_resume=lambda: None, on_settings_changed=lambda s: None,
                    on_save_and_quit=lambda: None)
print(told, sorted(without.time_buttons))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                          cwd=str(Path(__file__).resolve().parents[2]))
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"[0, {NOON_TICKS}, {SUNSET_TICKS}, {MIDNIGHT_TICKS}] []" in done.stdout
