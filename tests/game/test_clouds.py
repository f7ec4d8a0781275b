"""The cloud layer's rules without a window: Beta's height, texel size and drift, the pattern, the colour."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.window.render.clouds import (BLOCKS_PER_TEXEL, CLOUD_ALPHA, CLOUD_COVER, CLOUD_Y, DRIFT_PER_TICK, FRAGMENT_SOURCE,
                                LAYER_RADIUS, MASK_SIZE, NIGHT_CLOUD_FLOOR, PATTERN_PERIOD, cloud_color, cloud_mask,
                                drift, fog_seen, pattern_offset, texel_at)
from game.window.render.sky import MIDNIGHT_TICKS, NOON_TICKS


def test_the_clouds_are_betas_fast_layer_at_108_and_a_third_with_a_256_texel_pattern_over_2048_blocks():
    assert CLOUD_Y == pytest.approx(108.33)
    assert (MASK_SIZE, BLOCKS_PER_TEXEL, PATTERN_PERIOD) == (256, 8.0, 2048.0)


def test_the_pattern_is_the_same_bits_for_a_seed_differs_between_seeds_and_is_forty_percent_cloud():
    first, again, other = cloud_mask(1), cloud_mask(1), cloud_mask(2)
    assert first.shape == (256, 256) and first.dtype == np.bool_
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)
    assert first.sum() == round(CLOUD_COVER * first.size)  # cut at the level that leaves 40 % cloud


def test_the_pattern_is_blotches_not_noise_most_cloud_cells_have_cloud_on_every_side():
    mask = cloud_mask(1)
    neighbours = sum(np.roll(mask, shift, axis) for shift in (1, -1) for axis in (0, 1))
    inside = (neighbours[mask] == 4).mean()
    assert inside > 0.7  # white noise at 40 % cover would give 0.4 ** 4, under 3 %


def test_the_pattern_tiles_its_edges_continue_across_the_wrap_as_smoothly_as_inside():
    mask = cloud_mask(1).astype(np.int8)
    across_wrap = np.abs(mask[:, 0] - mask[:, -1]).mean() + np.abs(mask[0] - mask[-1]).mean()
    inside = np.abs(mask[:, 128] - mask[:, 127]).mean() + np.abs(mask[128] - mask[127]).mean()
    assert across_wrap <= 2.0 * inside + 0.05


def test_the_clouds_drift_three_hundredths_of_a_block_a_tick_so_a_texel_passes_in_267_ticks():
    assert DRIFT_PER_TICK == 0.03
    assert drift(100) == pytest.approx(3.0)
    x, z = 40.0, -12.0
    start = texel_at(x, z, 0)
    assert texel_at(x - BLOCKS_PER_TEXEL, z, 0) == ((start[0] - 1) % MASK_SIZE, start[1])
    ticks_per_texel = BLOCKS_PER_TEXEL / DRIFT_PER_TICK
    # after a texel's worth of drift, the texel over x is the one that was a texel further back
    assert texel_at(x, z, ticks_per_texel) == texel_at(x - BLOCKS_PER_TEXEL, z, 0)


def test_the_pattern_offset_wraps_to_one_period_however_far_the_eye_travels():
    near = pattern_offset(10.0, 20.0, 0)
    far = pattern_offset(10.0 + 1000 * PATTERN_PERIOD, 20.0 - 7 * PATTERN_PERIOD, 0)
    assert near == (10.0, 20.0) and far == pytest.approx(near)
    assert all(0.0 <= value < PATTERN_PERIOD for value in pattern_offset(-5.0, -1e6, 123456))


def test_clouds_are_white_by_day_and_betas_dark_grey_blue_at_night_at_eighty_percent():
    assert cloud_color(NOON_TICKS) == (1.0, 1.0, 1.0, CLOUD_ALPHA)
    assert cloud_color(MIDNIGHT_TICKS) == pytest.approx((*NIGHT_CLOUD_FLOOR, 0.8))


def test_the_clouds_fade_out_by_horizontal_distance_on_the_fogs_ramp():
    assert fog_seen(10.0, 61.6, 112.0) == 1.0
    assert fog_seen(86.8, 61.6, 112.0) == pytest.approx(0.5)
    assert fog_seen(112.0, 61.6, 112.0) == 0.0 and fog_seen(500.0, 61.6, 112.0) == 0.0


def test_the_shader_fades_the_clouds_by_the_same_ramp_and_the_layer_reaches_past_the_farthest_fog():
    assert "clamp((cloud_fog.y - horizontal) / (cloud_fog.y - cloud_fog.x), 0.0, 1.0)" in FRAGMENT_SOURCE
    assert "cloud_color.a * cloud * seen" in FRAGMENT_SOURCE  # nothing is left of a cloud where seen is 0
    assert LAYER_RADIUS > 31 * 16  # the quad's edge lies past the fog's end at the largest view distance


fog_ranges = st.tuples(st.floats(0.0, 1000.0), st.floats(1e-3, 1000.0)).map(lambda r: (r[0], r[0] + r[1]))


@given(fog_ranges, st.floats(0.0, 2000.0), st.floats(0.0, 100.0))
def test_a_cloud_fades_monotonically_from_whole_at_the_fog_start_to_nothing_at_its_end(fog, horizontal, further):
    start, end = fog
    seen = fog_seen(horizontal, start, end)
    assert 0.0 <= seen <= 1.0
    assert fog_seen(horizontal + further, start, end) <= seen
    if horizontal >= end:
        assert seen == 0.0  # no hard edge: the far edge is gone, as the land is there
    if horizontal <= start:
        assert seen == 1.0


@pytest.mark.parametrize("call", [lambda: cloud_mask(-1), lambda: cloud_mask(1, size=100),
                                  lambda: cloud_mask(1, cover=1.0), lambda: cloud_mask(True),
                                  lambda: drift(float("nan")), lambda: pattern_offset(float("inf"), 0.0, 0),
                                  lambda: fog_seen(1.0, 50.0, 50.0)])
def test_bad_values_are_refused_with_a_value_error(call):
    with pytest.raises(ValueError):
        call()
