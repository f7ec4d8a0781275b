"""Beta's per-axis clip rule and Boxel's contact tolerance."""

from physics import AABB, CONTACT_TOLERANCE
from physics.clip import X, Y, clip_axis

WALL = AABB(2, 0, 0, 3, 1, 1)


def test_motion_toward_an_obstacle_shrinks_to_the_gap():
    box = AABB(0, 0, 0, 1, 1, 1)
    assert clip_axis([WALL], box, 5.0, X) == 1.0


def test_motion_shorter_than_the_gap_is_unchanged():
    assert clip_axis([WALL], AABB(0, 0, 0, 1, 1, 1), 0.75, X) == 0.75


def test_an_obstacle_that_only_touches_on_another_axis_does_not_clip():
    beside = AABB(0, 1, 0, 1, 2, 1)  # its bottom touches the wall's top plane
    assert clip_axis([AABB(2, 0, 0, 3, 1, 1)], beside, 5.0, X) == 5.0


def test_an_obstacle_already_overlapped_on_the_moving_axis_is_ignored_so_a_stuck_body_can_leave():
    inside = AABB(2.5, 0, 0, 3.5, 1, 1)
    assert clip_axis([WALL], inside, 3.0, X) == 3.0
    assert clip_axis([WALL], inside, -3.0, X) == -3.0


def test_the_result_is_the_nearest_obstacle_whatever_the_order():
    near, far = AABB(2, 0, 0, 3, 1, 1), AABB(4, 0, 0, 5, 1, 1)
    box = AABB(0, 0, 0, 1, 1, 1)
    assert clip_axis([near, far], box, 9.0, X) == clip_axis([far, near], box, 9.0, X) == 1.0


def test_a_box_drifted_into_a_wall_by_less_than_the_tolerance_is_still_blocked():
    drifted = AABB(1.0 + CONTACT_TOLERANCE / 4, 0, 0, 2.0 + CONTACT_TOLERANCE / 4, 1, 1)
    assert clip_axis([WALL], drifted, 0.5, X) == 0.0


def test_a_graze_shallower_than_the_tolerance_on_another_axis_does_not_snag_a_slide():
    floor_block = AABB(0, -1, 2, 1, 0, 3)
    grazing = AABB(0, -CONTACT_TOLERANCE / 4, 0, 1, 2, 1)  # sunk into the floor by a rounding error
    from physics.clip import Z
    assert clip_axis([floor_block], grazing, 3.0, Z) == 3.0


def test_falling_stops_exactly_on_the_top_face():
    box = AABB(0, 5, 0, 1, 6, 1)
    ground = AABB(0, 0, 0, 1, 1, 1)
    assert clip_axis([ground], box, -10.0, Y) == -4.0
