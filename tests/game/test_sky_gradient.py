"""The sky's gradient and the fog's reach without a window: fog colour at the horizon, Beta's sky overhead."""

import math

import pytest

from game.window.render.sky import (DAY_SKY_RGB, DAY_ZENITH_RGB, FAR_CLIP_TILT_MARGIN_DEGREES, HORIZON_BAND_SINE,
                             MIDNIGHT_TICKS, NOON_TICKS, SUNSET_TICKS, far_clip, gradient_weight, sky_colors,
                             sky_gradient, sun_heading)


def test_at_noon_the_sky_is_the_fog_colour_at_and_below_the_horizon_and_betas_deeper_blue_overhead():
    noon = sky_colors(NOON_TICKS)
    assert noon.zenith == pytest.approx(DAY_ZENITH_RGB) and noon.sky == pytest.approx(DAY_SKY_RGB)
    assert sky_gradient(noon, 0.0) == pytest.approx(noon.sky)
    assert sky_gradient(noon, -0.7) == pytest.approx(noon.sky)
    assert sky_gradient(noon, 1.0) == pytest.approx(noon.zenith)
    assert sky_gradient(noon, HORIZON_BAND_SINE) == pytest.approx(noon.zenith)
    half = sky_gradient(noon, HORIZON_BAND_SINE / 2)  # smoothstep: half way at half the band
    assert half == pytest.approx(tuple((h + z) / 2 for h, z in zip(noon.sky, noon.zenith)))


def test_the_gradient_deepens_steadily_from_the_horizon_upward():
    noon = sky_colors(NOON_TICKS)
    reds = [sky_gradient(noon, sine)[0] for sine in (0.0, 0.1, 0.2, 0.3, 0.4)]
    assert reds == sorted(reds, reverse=True) and reds[0] - reds[-1] == pytest.approx((140 - 121) / 255)


def test_the_zenith_is_dark_at_midnight():
    assert max(sky_colors(MIDNIGHT_TICKS).zenith) < 0.1


def test_at_sunset_the_glow_reaches_higher_on_the_suns_side_than_away_from_it():
    sunset = sky_colors(SUNSET_TICKS + 700)
    assert sunset.glow > 0.5
    toward, away = gradient_weight(0.3, 1.0, sunset.glow), gradient_weight(0.3, -1.0, sunset.glow)
    assert toward < away == gradient_weight(0.3)
    heading = sun_heading(SUNSET_TICKS + 700)
    assert heading == pytest.approx((1.0, 0.0))  # the sun sets in the west: physics -X, Ursina +x


def test_the_far_plane_is_the_deepest_point_of_the_fogged_cylinder_along_the_view():
    margin = math.radians(FAR_CLIP_TILT_MARGIN_DEGREES)
    # Level: the fog's end, give or take the tilt margin (the deeper of the two tilts).
    assert far_clip(112.0, 64.0) == pytest.approx(112.0 * math.cos(margin) + 192.0 * math.sin(margin))
    # Straight down from y 140: the ground 140 below (the margin's tilt adds the fog end's share).
    assert far_clip(112.0, 140.0, 90.0) == pytest.approx(112.0 * math.sin(margin) + 140.0 * math.cos(margin))
    # 30 degrees up from y 64: 192 blocks of world above.
    up = math.radians(30.0 + FAR_CLIP_TILT_MARGIN_DEGREES)
    assert far_clip(112.0, 64.0, -30.0) == pytest.approx(112.0 * math.cos(up) + 192.0 * math.sin(up))
    # Above the world looking up: nothing above, so the fog's end at most.
    assert far_clip(48.0, 1000.0, -90.0) == pytest.approx(48.0 * math.sin(margin))


@pytest.mark.parametrize("call", [lambda: far_clip(0.0, 64.0), lambda: far_clip(112.0, float("nan")),
                                  lambda: sky_gradient(sky_colors(0), 1.5),
                                  lambda: sky_gradient(sky_colors(0), 0.0, "x")])
def test_bad_values_are_refused_with_a_value_error(call):
    with pytest.raises(ValueError):
        call()
