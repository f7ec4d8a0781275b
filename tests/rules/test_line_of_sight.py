"""Line of sight: the fast form equals its readable twin on random worlds, and the slab test's rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from game.rules.line_of_sight import SightArea, clear_line, clear_line_by_boxes, segment_meets_box
from game.world.lab import Arena

BLOCKS = ("air", "air", "air", "stone", "glass", "stone_slab", "fence", "torch", "water", "leaves", "cobweb")


def test_a_segment_through_a_box_meets_it_and_one_along_its_face_does_not():
    box = (0.0, 0.0, 0.0, 1.0, 1.0, 1.0)
    assert segment_meets_box((-1.0, 0.5, 0.5), (2.0, 0.5, 0.5), box)
    assert not segment_meets_box((-1.0, 1.0, 0.5), (2.0, 1.0, 0.5), box)  # along the top face
    assert not segment_meets_box((-1.0, 0.5, 0.5), (0.0, 0.5, 0.5), box)  # ends on the face
    assert not segment_meets_box((-1.0, 2.0, 0.5), (2.0, 1.5, 0.5), box)  # passes above


def test_a_wall_between_two_eyes_blocks_the_line_and_a_gap_in_it_does_not():
    arena = Arena()
    for y in range(60, 64):
        arena.set_block(5, y, 0, "stone")
    assert not clear_line(arena, (0.5, 61.5, 0.5), (9.5, 61.5, 0.5))
    arena.set_block(5, 61, 0, "air")
    assert clear_line(arena, (0.5, 61.5, 0.5), (9.5, 61.5, 0.5))


coordinate = st.floats(0.0, 8.0, allow_nan=False)


@settings(max_examples=150, deadline=None)
@given(cells=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7), st.integers(0, 7), st.sampled_from(BLOCKS)),
                      max_size=60),
       start=st.tuples(coordinate, coordinate, coordinate), end=st.tuples(coordinate, coordinate, coordinate),
       snap=st.booleans())
def test_the_fast_line_of_sight_equals_its_readable_twin_on_random_worlds(cells, start, end, snap):
    arena = Arena()
    base = 70
    for x, y, z, name in cells:
        arena.set_block(x, base + y, z, name)
    if snap:  # endpoints on cell faces, edges and corners: the slab test's ties
        start, end = tuple(round(v * 2) / 2 for v in start), tuple(round(v * 2) / 2 for v in end)
    a = (start[0], base + start[1], start[2])
    b = (end[0], base + end[1], end[2])
    twin = clear_line_by_boxes(arena, a, b)
    assert clear_line(arena, a, b) == twin
    assert SightArea(arena, (-2, base - 2, -2), (10, base + 10, 10)).clear(a, b) == twin  # read once for many
    assert SightArea(arena, (3, base + 3, 3), (5, base + 5, 5)).clear(a, b) == twin  # too small: its own read


@settings(max_examples=300, deadline=None)
@given(cells=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7), st.integers(0, 7)), max_size=80),
       start=st.tuples(coordinate, coordinate, coordinate), end=st.tuples(coordinate, coordinate, coordinate),
       snap=st.sampled_from([0, 1, 2]))
def test_among_full_cubes_the_fast_line_of_sight_equals_its_twin_with_ends_on_faces_and_level_segments(
        cells, start, end, snap):
    """Full cubes only (the fast form's own slab test, on the cells the segment's extent crosses),
    endpoints snapped onto cell faces (snap 1) or a level segment lying in a layer's face (snap 2)."""
    arena = Arena()
    base = 70
    for x, y, z in cells:
        arena.set_block(x, base + y, z, "stone")
    if snap:
        start, end = tuple(round(v * 2) / 2 for v in start), tuple(round(v * 2) / 2 for v in end)
    if snap == 2:
        end = (end[0], float(round(start[1])), end[2])
        start = (start[0], float(round(start[1])), start[2])
    a = (start[0], base + start[1], start[2])
    b = (end[0], base + end[1], end[2])
    twin = clear_line_by_boxes(arena, a, b)
    assert clear_line(arena, a, b) == twin
    assert SightArea(arena, (-2, base - 2, -2), (10, base + 10, 10)).clear(a, b) == twin


@settings(max_examples=300, deadline=None)
@given(layers=st.lists(st.tuples(st.integers(0, 30), st.integers(0, 12), st.integers(0, 12), st.integers(0, 12),
                                 st.integers(0, 12)), min_size=1, max_size=4),
       start=st.tuples(st.floats(0.0, 12.0), st.floats(0.0, 30.0), st.floats(0.0, 12.0)),
       end=st.tuples(st.floats(0.0, 12.0), st.floats(0.0, 30.0), st.floats(0.0, 12.0)), snap=st.booleans())
def test_a_long_look_through_floors_is_blocked_or_clear_as_its_twin_says_probed_or_not(layers, start, end, snap):
    """Stone floors (patches of a layer) between far-apart eyes: the probe of one cube a layer
    (forced on every look here) and the whole slab test agree with the twin."""
    from game.rules import line_of_sight

    arena = Arena()
    base = 70
    for y, x0, z0, x1, z1 in layers:
        for x in range(min(x0, x1), max(x0, x1) + 1):
            for z in range(min(z0, z1), max(z0, z1) + 1):
                arena.set_block(x, base + y, z, "stone")
    if snap:
        start, end = tuple(round(v * 2) / 2 for v in start), tuple(round(v * 2) / 2 for v in end)
    a = (start[0], base + start[1], start[2])
    b = (end[0], base + end[1], end[2])
    twin = clear_line_by_boxes(arena, a, b)
    assert clear_line(arena, a, b) == twin
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(line_of_sight, "PROBE_FROM_CELLS", 0)
        assert clear_line(arena, a, b) == twin


@pytest.mark.parametrize("probe_from", [0, 10**9])
def test_a_long_look_down_a_floors_face_is_clear_and_one_through_it_is_blocked_probed_or_not(probe_from):
    from game.rules import line_of_sight

    arena = Arena()
    for x in range(5):
        for z in range(5):
            arena.set_block(x, 75, z, "stone")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(line_of_sight, "PROBE_FROM_CELLS", probe_from)
        assert clear_line(arena, (5.0, 95.5, 2.5), (5.0, 60.5, 2.5))  # along the patch's side face
        assert clear_line(arena, (0.0, 95.5, 0.0), (0.0, 60.5, 5.0))  # along its edge, slanting in z
        assert clear_line(arena, (0.0, 76.5, 2.5), (0.0, 40.5, 2.5))  # along its face from just above it
        assert not clear_line(arena, (0.5, 76.5, 2.5), (3.0, 40.5, 2.5))  # through it from just above it
        assert not clear_line(arena, (4.5, 95.5, 2.5), (4.5, 60.5, 2.5))  # through it
        assert not clear_line(arena, (9.0, 95.5, 2.5), (0.5, 60.5, 2.5))  # through it, slanting


half_step = st.integers(-4, 12).map(lambda v: v / 2)


@settings(max_examples=500, deadline=None)
@given(cell=st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)),
       start=st.tuples(half_step, half_step, half_step), end=st.tuples(half_step, half_step, half_step))
def test_the_probes_slab_test_of_one_cube_equals_the_slab_test_of_many(cell, start, end):
    """Ends on half blocks: segments along faces, through edges and corners, the slab test's ties."""
    import numpy as np

    from game.rules.line_of_sight import _meets_any, _meets_cube

    single = tuple(np.array([c]) for c in cell)
    assert _meets_cube(cell, start, end) == _meets_any(single, (0, 0, 0), start, end) \
        == segment_meets_box(start, end, (*map(float, cell), *(c + 1.0 for c in cell)))


@settings(max_examples=500, deadline=None)
@given(start=st.tuples(*[st.floats(-1e6, 1e6, allow_nan=False)] * 3),
       end=st.tuples(*[st.floats(-1e6, 1e6, allow_nan=False)] * 3), whole=st.booleans())
def test_a_segments_cell_range_written_out_equals_the_cell_range_of_its_region(start, end, whole):
    from game.rules.line_of_sight import _region, _segment_cells
    from game.world.collision import cell_range

    if whole:  # ends on cell faces and edges, where floor and ceil meet
        start, end = tuple(float(round(v)) for v in start), tuple(float(round(v)) for v in end)
    assert _segment_cells(start, end) == cell_range(_region(start, end))


def test_a_kept_sight_area_answers_as_a_new_one_until_a_block_changes_or_it_is_asked_for_other_cells():
    arena = Arena()
    low, high = (-2, 58, -2), (12, 66, 3)
    area = SightArea(arena, low, high)
    assert area.answers_as(arena, low, high)  # nothing read yet: as new
    assert area.clear((0.5, 61.5, 0.5), (9.5, 61.5, 0.5))  # reads its ids
    assert area.answers_as(arena, low, high)  # no block changed since
    assert not area.answers_as(arena, low, (12, 66, 4)) and not area.answers_as(Arena(), low, high)
    arena.set_block(5, 61, 0, "stone")
    assert not area.answers_as(arena, low, high)  # a block changed: a new area sees the wall
    assert not SightArea(arena, low, high).clear((0.5, 61.5, 0.5), (9.5, 61.5, 0.5))
