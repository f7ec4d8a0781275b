import math

import pytest

from physics import AABB

CENTRE_ROUNDING = 1e-12
"""[blocks] (min + max) / 2 of 64.0 and 65.8 is 64.9 to within an ulp."""


def test_a_box_with_min_above_max_is_rejected():
    with pytest.raises(ValueError, match="min <= max"):
        AABB(0, 0, 0, 1, -1, 1)


def test_a_box_with_nan_is_rejected():
    with pytest.raises(ValueError):
        AABB(0, math.nan, 0, 1, 1, 1)


def test_boxes_are_immutable_values_that_compare_by_value():
    a = AABB(0, 0, 0, 1, 2, 3)
    assert a == AABB(0.0, 0.0, 0.0, 1.0, 2.0, 3.0)
    assert hash(a) == hash(AABB(0, 0, 0, 1, 2, 3))
    with pytest.raises(AttributeError):
        a.min_x = 5.0


def test_touching_boxes_do_not_intersect_but_overlapping_ones_do():
    a = AABB(0, 0, 0, 1, 1, 1)
    assert not a.intersects(AABB(1, 0, 0, 2, 1, 1))
    assert not a.intersects(AABB(0, 1, 0, 1, 2, 1))
    assert a.intersects(AABB(0.999, 0.5, 0.5, 2, 2, 2))


def test_expanded_towards_grows_only_the_side_the_motion_points_to():
    a = AABB(0, 0, 0, 1, 1, 1)
    assert a.expanded_towards(2, -3, 0) == AABB(0, -3, 0, 3, 1, 1)


def test_offset_moves_both_corners():
    assert AABB(0, 0, 0, 1, 1, 1).offset(-0.5, 2, 10) == AABB(-0.5, 2, 10, 0.5, 3, 11)


def test_around_feet_centres_the_box_on_the_feet():
    box = AABB.around_feet(0.5, 64, -0.5, 0.6, 1.8)
    assert box == AABB(0.2, 64, -0.8, 0.8, 65.8, -0.2)
    assert box.center == pytest.approx((0.5, 64.9, -0.5), abs=CENTRE_ROUNDING)


def test_overlap_depth_is_the_shallowest_axis_and_negative_when_apart():
    a = AABB(0, 0, 0, 1, 1, 1)
    assert a.overlap_depth(AABB(0.75, 0.5, 0.0, 2, 2, 2)) == 0.25
    assert a.overlap_depth(AABB(2, 0, 0, 3, 1, 1)) == -1.0
