"""How the sun and moon meet the horizon (`game.window.render.sky.body_seen`, `body_color`), without a window:
never drawn below it, where the world and its fog stand in front of them, and set into the sky's
colour over a narrow band above it, so no hard-edged square shows over the foggy horizon."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.window.render.sky import (BODY_SET_SINE, BODY_FRAGMENT_SOURCE, MIDNIGHT_TICKS, MOON_RGB, NOON_TICKS, SUN_RGB,
                             SUNSET_TICKS, body_color, body_seen, sky_colors, sky_gradient)

sines = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False)
facings = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False)
times = st.integers(min_value=0, max_value=23_999)
bodies = st.sampled_from((SUN_RGB, MOON_RGB))


def test_the_band_is_about_three_degrees_a_third_of_the_moons_width():
    assert BODY_SET_SINE == 0.05
    assert math.degrees(math.asin(BODY_SET_SINE)) == pytest.approx(2.87, abs=0.01)


def test_at_and_below_the_horizon_nothing_of_the_sun_or_moon_is_seen_and_above_the_band_all_of_it():
    assert body_seen(0.0) == 0.0
    assert body_seen(-0.19) == 0.0  # the moon 11 degrees under the horizon at sunrise
    assert body_seen(-1.0) == 0.0
    assert body_seen(BODY_SET_SINE) == 1.0
    assert body_seen(0.5) == body_seen(1.0) == 1.0
    assert body_seen(BODY_SET_SINE / 2.0) == 0.5  # a smoothstep: half way at the band's middle


def test_a_moon_pixel_under_the_horizon_at_sunrise_is_exactly_the_fog_colour():
    sunrise = sky_colors(0)
    assert body_color(sunrise, MOON_RGB, -0.19, -1.0) == sunrise.sky


def test_a_sun_pixel_well_above_the_horizon_is_the_suns_colour():
    assert body_color(sky_colors(0), SUN_RGB, 0.19, 1.0) == SUN_RGB


def test_the_fragment_shader_uses_the_same_band():
    assert f"const float BODY_SET_SINE = {BODY_SET_SINE!r};" in BODY_FRAGMENT_SOURCE


@given(sines)
def test_how_much_shows_never_falls_as_the_body_rises_and_stays_within_0_and_1(sine):
    seen = body_seen(sine)
    assert 0.0 <= seen <= 1.0
    assert body_seen(min(sine + 1e-3, 1.0)) >= seen
    if sine <= 0.0:
        assert seen == 0.0
    if sine >= BODY_SET_SINE:
        assert seen == 1.0


@given(times, bodies, sines, facings)
def test_at_any_time_a_body_under_the_horizon_is_drawn_as_the_fog_colour_the_land_fades_into(day_time, body, sine,
                                                                                          facing):
    colors = sky_colors(day_time)
    drawn = body_color(colors, body, sine, facing)
    if sine <= 0.0:
        assert drawn == colors.sky  # the clear colour too: nothing of the body shows
    elif sine >= BODY_SET_SINE:
        assert drawn == pytest.approx(body)
    else:  # between the sky there and the body, channel by channel
        behind = sky_gradient(colors, sine, facing)
        for d, b, c in zip(drawn, behind, body):
            assert min(b, c) - 1e-12 <= d <= max(b, c) + 1e-12


@pytest.mark.parametrize("day_time", [NOON_TICKS, SUNSET_TICKS, MIDNIGHT_TICKS])
def test_the_colour_rule_holds_at_the_named_times(day_time):
    colors = sky_colors(day_time)
    assert body_color(colors, MOON_RGB, 0.0) == colors.sky


@pytest.mark.parametrize("sine", [math.nan, math.inf, -1.5, 1.0000001])
def test_a_sine_outside_minus_1_to_1_is_refused_with_a_value_error(sine):
    with pytest.raises(ValueError):
        body_seen(sine)


@pytest.mark.parametrize("sine", ["0.1", None, True])
def test_a_sine_that_is_not_a_number_is_refused_with_a_type_error(sine):
    with pytest.raises(TypeError):
        body_seen(sine)
