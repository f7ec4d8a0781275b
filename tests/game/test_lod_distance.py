"""Where far sections turn coarse (`game.window.render.lod_distance`): beyond 8 columns when the view reaches
farther, and wherever a coarse mesh's error spans at most a pixel of the window, whichever is nearer."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.window.render.lod_distance import (COARSE_ERROR_BLOCKS, LOD_DISTANCE_COLUMNS, MAX_COARSE_ERROR_PIXELS,
                                             MIN_LOD_DISTANCE_COLUMNS, lod_distance_for, pixels_per_radian,
                                             unseen_detail_distance)
from game.world.meshing import SECTION_SIZE

DEFAULT_FOV_DEGREES = 80.0
"""Boxel's default vertical field of view (`UserSettings.fov_degrees`)."""


def error_pixels(columns: int, window_height_px: int, fov_degrees: float) -> float:
    """[pixels] COARSE_ERROR_BLOCKS seen from `columns` columns away (column centre to column centre)."""
    return COARSE_ERROR_BLOCKS * pixels_per_radian(window_height_px, fov_degrees) / (columns * SECTION_SIZE)


def test_a_160x90_window_at_the_default_field_of_view_cannot_show_detail_beyond_4_columns():
    assert pixels_per_radian(90, DEFAULT_FOV_DEGREES) == pytest.approx(45.0 / math.tan(math.radians(40.0)))
    assert unseen_detail_distance(90, DEFAULT_FOV_DEGREES) == 4


def test_a_1280x720_window_at_the_default_field_of_view_shows_detail_out_to_27_columns():
    assert unseen_detail_distance(720, DEFAULT_FOV_DEGREES) == 27


def test_without_a_window_only_a_view_beyond_8_columns_has_coarse_sections():
    assert [lod_distance_for(view) for view in (2, 8, 9, 16, 32)] == [None, None, 8, 8, 8]


def test_a_small_window_draws_view_distance_8_coarse_beyond_4_columns_and_a_large_one_every_section_fine():
    assert lod_distance_for(8, 90, DEFAULT_FOV_DEGREES) == 4
    assert lod_distance_for(8, 720, DEFAULT_FOV_DEGREES) is None
    assert lod_distance_for(16, 720, DEFAULT_FOV_DEGREES) == LOD_DISTANCE_COLUMNS
    assert lod_distance_for(4, 90, DEFAULT_FOV_DEGREES) is None  # 4 columns is the whole view


def test_a_tiny_window_with_the_widest_field_of_view_keeps_the_nearest_two_columns_fine():
    assert unseen_detail_distance(1, 110.0) == MIN_LOD_DISTANCE_COLUMNS == 2


@given(st.integers(1, 4320), st.floats(30.0, 110.0))
def test_the_distance_is_the_nearest_at_which_the_coarse_error_spans_at_most_one_pixel(height, fov):
    columns = unseen_detail_distance(height, fov)
    assert columns >= MIN_LOD_DISTANCE_COLUMNS
    assert error_pixels(columns, height, fov) <= MAX_COARSE_ERROR_PIXELS * (1 + 1e-12)
    if columns > MIN_LOD_DISTANCE_COLUMNS:
        assert error_pixels(columns - 1, height, fov) > MAX_COARSE_ERROR_PIXELS


@pytest.mark.parametrize("height, fov, message", [
    (0, 80.0, "window height"), (True, 80.0, "window height"), (90.5, 80.0, "window height"),
    (90, 0.0, "field of view"), (90, 180.0, "field of view"), (90, float("nan"), "field of view"),
])
def test_a_window_height_or_field_of_view_out_of_range_is_refused(height, fov, message):
    with pytest.raises(ValueError, match=message):
        unseen_detail_distance(height, fov)


def test_a_window_height_without_a_field_of_view_is_refused():
    with pytest.raises(ValueError, match="both"):
        lod_distance_for(8, 90)
