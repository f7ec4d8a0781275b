"""Properties that hold for any world and any move (hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from physics import CONTACT_TOLERANCE, BlockGrid, Body, Intent, shapes
from physics.aabb import AABB

SHAPES = [shapes.FULL_CUBE, shapes.SLAB, shapes.TOP_SLAB, shapes.FENCE, shapes.CARPET, *shapes.STAIRS.values()]
SIZE = 6  # the random worlds fill cells 0..5 on each axis


@st.composite
def worlds(draw):
    grid = BlockGrid()
    cells = draw(st.lists(st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1), st.integers(0, SIZE - 1),
                                    st.sampled_from(range(len(SHAPES)))), max_size=60))
    for x, y, z, shape in cells:
        grid.set(x, y, z, SHAPES[shape])
    return grid


@st.composite
def bodies(draw):
    width = draw(st.floats(0.1, 2.5))
    height = draw(st.floats(0.1, 3.0))
    x, y, z = (draw(st.floats(-1.0, SIZE + 1.0)) for _ in range(3))
    box = AABB.around_feet(x, y, z, width, height)
    return Body(box, on_ground=draw(st.booleans()), camera_lag=draw(st.sampled_from([0.0, 0.01, 0.3])))


deltas = st.one_of(st.floats(-3.0, 3.0), st.floats(-60.0, 60.0), st.sampled_from([0.0, 0.5, -0.5, 1.0, -1.0]))


def all_boxes(grid):
    return [b for cell in grid.cells() for b in grid.boxes_at(*cell)]


def assert_no_new_overlap(before: AABB, after: AABB, grid: BlockGrid):
    for b in all_boxes(grid):
        if before.overlap_depth(b) <= CONTACT_TOLERANCE:
            assert after.overlap_depth(b) <= CONTACT_TOLERANCE, (before, after, b)


@settings(max_examples=400, deadline=None)
@given(worlds(), bodies(), deltas, deltas, deltas, st.booleans())
def test_after_any_move_a_body_overlaps_no_box_it_did_not_overlap_before(grid, body, dx, dy, dz, sneak):
    moved = physics.move(body, dx, dy, dz, grid, sneak=sneak)
    assert_no_new_overlap(body.box, moved.box, grid)


@settings(max_examples=150, deadline=None)
@given(worlds(), bodies(), st.lists(st.tuples(st.floats(-1, 1), st.floats(-1, 1), st.floats(0, 360),
                                              st.booleans(), st.booleans(), st.booleans()), min_size=1, max_size=12))
def test_after_any_sequence_of_ticks_a_body_overlaps_no_new_box(grid, body, inputs):
    for forward, strafe, yaw, jump, sneak, sprint in inputs:
        intent = Intent(forward=forward, strafe=strafe, yaw=yaw, jump=jump, sneak=sneak, sprint=sprint)
        after = physics.step(body, grid, intent)
        assert_no_new_overlap(body.box, after.box, grid)
        body = after


class EverythingWorld:
    """Returns every box of the grid for any region: the protocol allows more, never fewer.
    It says what its cells are made of as the grid does."""

    def __init__(self, grid):
        self.boxes = all_boxes(grid)
        self.material = grid.material

    def collision_boxes(self, region):
        return self.boxes


@settings(max_examples=200, deadline=None)
@given(worlds(), bodies(), deltas, deltas, deltas, st.booleans())
def test_a_world_that_returns_extra_boxes_gives_exactly_the_same_move(grid, body, dx, dy, dz, sneak):
    assert physics.move(body, dx, dy, dz, grid, sneak=sneak) == physics.move(
        body, dx, dy, dz, EverythingWorld(grid), sneak=sneak)


@settings(max_examples=300, deadline=None)
@given(worlds(), bodies(), deltas, deltas, deltas, st.booleans())
def test_gathering_per_axis_gives_exactly_the_move_that_gathering_the_whole_stretched_box_gives(
        grid, body, dx, dy, dz, sneak):
    from physics import mover
    saved = mover.PER_AXIS_GATHER_RATIO
    try:
        mover.PER_AXIS_GATHER_RATIO = float("inf")  # always one query over the stretched box
        whole = physics.move(body, dx, dy, dz, grid, sneak=sneak)
        mover.PER_AXIS_GATHER_RATIO = 0.0  # always per-axis slabs
        per_axis = physics.move(body, dx, dy, dz, grid, sneak=sneak)
    finally:
        mover.PER_AXIS_GATHER_RATIO = saved
    assert per_axis == whole


@settings(max_examples=200, deadline=None)
@given(worlds(), bodies(), deltas, deltas, st.sampled_from([0.6, 1.0, 1.5, 2.0]))
def test_step_heights_above_one_block_never_end_inside_a_box_and_agree_between_gathers(
        grid, body, dx, dz, step_height):
    from dataclasses import replace

    from physics import mover
    tall_steps = replace(physics.BETA, step_height=step_height)
    grounded = Body(body.box, on_ground=True)
    saved = mover.PER_AXIS_GATHER_RATIO
    try:
        mover.PER_AXIS_GATHER_RATIO = float("inf")
        whole = physics.move(grounded, dx, -0.0784, dz, grid, tall_steps)
        mover.PER_AXIS_GATHER_RATIO = 0.0
        per_axis = physics.move(grounded, dx, -0.0784, dz, grid, tall_steps)
    finally:
        mover.PER_AXIS_GATHER_RATIO = saved
    assert whole == per_axis
    assert_no_new_overlap(body.box, whole.box, grid)
