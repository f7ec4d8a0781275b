"""cast: the first box of a world hit by a moving box, found by walking the grid slab by slab."""

import functools
import math
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from physics import CONTACT_TOLERANCE, BlockGrid, shapes
from physics.aabb import AABB
from physics.grid_cast import cast, swept_regions
from physics.swept_aabb import Hit, contact_offset, first_hit

SHAPES = [shapes.FULL_CUBE, shapes.SLAB, shapes.TOP_SLAB, shapes.FENCE, shapes.CARPET, *shapes.STAIRS.values()]
PLAYER = AABB.around_feet(0.5, 0.0, 0.5, 0.6, 1.8)


class CountingWorld:
    """Wraps a world; counts the queries and the cells their regions span (what a chunked world visits)."""

    def __init__(self, world) -> None:
        self.world = world
        self.queries = 0
        self.cells = 0

    def collision_boxes(self, region):
        self.queries += 1
        spans = [math.floor(region[i + 3]) - math.floor(region[i]) + 1 for i in range(3)]
        self.cells += spans[0] * spans[1] * spans[2]
        return self.world.collision_boxes(region)


def gather_everything(box, delta, world):
    """The simple reference: one query over the whole stretched box, then sweep every box found."""
    return first_hit(box, *delta, world.collision_boxes(box.expanded_towards(*delta)))


@st.composite
def grids(draw, size=12):
    """A grid of random shapes filling a random share of the cells 0..size-1 on each axis."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    density = draw(st.sampled_from([0.02, 0.1, 0.3]))
    grid = BlockGrid()
    for x in range(size):
        for y in range(size):
            for z in range(size):
                if rng.random() < density:
                    grid.set(x, y, z, rng.choice(SHAPES))
    return grid


@st.composite
def moving_boxes(draw, lo=0.0, hi=12.0):
    """A body-like box; often on whole or half blocks, so that it starts touching faces."""
    def coordinate():
        return draw(st.one_of(st.floats(lo, hi), st.integers(int(2 * lo), int(2 * hi)).map(lambda n: n / 2.0)))
    x, y, z = coordinate(), coordinate(), coordinate()
    width = draw(st.one_of(st.floats(0.1, 3.0), st.sampled_from([0.6, 1.0, 2.0, 3.0])))
    height = draw(st.one_of(st.floats(0.1, 3.0), st.sampled_from([1.8, 1.0, 3.0])))
    return AABB.around_feet(x, y, z, width, height)


displacements = st.tuples(*[st.one_of(st.floats(-16.0, 16.0), st.sampled_from([0.0, 1.0, -1.0, 0.5, 8.0]))] * 3)


# --- the regions ---------------------------------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(moving_boxes(-50.0, 50.0), displacements, st.lists(st.floats(0.0, 1.0), min_size=1, max_size=5),
       st.lists(st.tuples(st.floats(0.0, 1.0), st.floats(0.0, 1.0), st.floats(0.0, 1.0)), min_size=1, max_size=5))
def test_the_regions_cover_every_position_of_the_moving_box(box, delta, times, fractions):
    assume(delta != (0.0, 0.0, 0.0))
    regions = [region for _, region in swept_regions(box, *delta)]
    for t in [0.0, 1.0, *times]:
        at = box.offset(t * delta[0], t * delta[1], t * delta[2])
        for f in [(0.0, 0.0, 0.0), (1.0, 1.0, 1.0), *fractions]:
            point = [min(at[i] + f[i] * (at[i + 3] - at[i]), at[i + 3]) for i in range(3)]
            assert any(all(r[i] <= point[i] <= r[i + 3] for i in range(3)) for r in regions), (t, point)


@settings(max_examples=100, deadline=None)
@given(moving_boxes(-50.0, 50.0), displacements)
def test_the_regions_come_in_walking_order_one_per_block_of_the_main_axis(box, delta):
    walk = list(swept_regions(box, *delta))
    main = max(range(3), key=lambda axis: abs(delta[axis]))
    if delta[main] == 0.0:
        assert walk == []
        return
    times = [t for t, _ in walk]
    assert times == sorted(times) and times[0] == 0.0
    extent = box[main + 3] - box[main] + abs(delta[main])
    assert len(walk) <= math.ceil(extent) + 1
    for _, region in walk:
        assert region[main + 3] - region[main] <= 1.0


@pytest.mark.parametrize("delta, main", [((2.0, -2.0, 1.0), 0), ((0.5, -2.0, 2.0), 1), ((-0.0, 0.0, 3.0), 2),
                                         ((-0.0, 0.0, 0.0), None)])
def test_the_slabs_cut_across_the_first_axis_of_the_largest_move(delta, main):
    walk = list(swept_regions(PLAYER, *delta))
    if main is None:
        assert walk == []
        return
    assert walk and all(type(region) is AABB for _, region in walk)
    assert all(region[main + 3] - region[main] <= 1.0 for _, region in walk)
    assert walk[0][1][main] == (PLAYER[main] if delta[main] > 0.0 else math.ceil(PLAYER[main + 3]) - 1.0)


def test_the_number_of_queries_and_cells_grows_linearly_with_the_path():
    counts = {}
    for length in (10, 100, 1000):
        world = CountingWorld(BlockGrid())
        assert cast(PLAYER, length, length, length, world) is None
        counts[length] = (world.queries, world.cells)
    for length, (queries, cells) in counts.items():
        assert queries <= length + 2
        assert cells <= 30 * length + 30  # a few cells around the box per slab; the stretched box has ~length^3
    assert counts[1000][1] <= 11 * counts[100][1] <= 121 * counts[10][1]


def test_the_walk_stops_once_no_later_slab_can_be_hit_earlier():
    grid = BlockGrid()
    grid.fill(3, -2, -2, 3, 3, 3)
    world = CountingWorld(grid)
    hit = cast(PLAYER, 1000.0, 0.0, 0.0, world)
    assert hit is not None and hit.box[0] == 3.0 and hit.normal == (-1.0, 0.0, 0.0)
    assert world.queries <= 5


# --- the hit -------------------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(grids(), moving_boxes(), displacements)
def test_cast_finds_exactly_what_sweeping_every_box_of_the_stretched_box_finds(grid, box, delta):
    assert cast(box, *delta, grid) == gather_everything(box, delta, grid)


def test_cast_names_the_box_that_was_hit():
    grid = BlockGrid()
    grid.set(4, 0, 0, shapes.SLAB)
    grid.set(6, 0, 0)
    hit = cast(AABB(0.0, 0.0, 0.2, 0.6, 0.3, 0.8), 10.0, 0.0, 0.0, grid)
    assert hit == Hit((4.0 - 0.6) / 10.0, (-1.0, 0.0, 0.0), AABB(4.0, 0.0, 0.0, 5.0, 0.5, 1.0))


def test_a_cast_through_empty_space_or_with_no_motion_hits_nothing():
    grid = BlockGrid()
    grid.set(0, -1, 0)
    assert cast(PLAYER, 0.0, 0.0, 0.0, grid) is None  # resting on the block, not moving
    assert cast(PLAYER, 50.0, 0.0, -50.0, grid) is None  # sliding along its top and away


@functools.cache
def wall(axis: int, side: int) -> BlockGrid:
    """A wall one block thick, 81 x 81 separate blocks, whose near face is 5 blocks from the origin
    on `axis`, on the `side` (+1 or -1) of it."""
    grid = BlockGrid()
    layer = 5 if side > 0 else -6
    lo, hi = [-40, -40, -40], [40, 40, 40]
    lo[axis] = hi[axis] = layer
    grid.fill(*lo, *hi)
    return grid


@st.composite
def fast_moves_toward(draw, axis, side):
    """A box near the origin and a 1,000-block displacement at a random angle that meets the wall."""
    box = draw(moving_boxes(-2.0, 2.0))
    direction = [draw(st.floats(-1.0, 1.0)) for _ in range(3)]
    direction[axis] = side * draw(st.floats(0.05, 1.0))
    norm = math.sqrt(sum(c * c for c in direction))
    delta = tuple(1000.0 * c / norm for c in direction)
    # Where the box reaches the wall's plane, it must be within the wall (80 blocks wide).
    reach = 7.0 / abs(delta[axis])
    assume(all(abs(box[i] + reach * delta[i]) < 30.0 for i in range(3) if i != axis))
    return box, delta


@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("side", [1, -1])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_a_box_moving_a_thousand_blocks_at_any_angle_stops_at_a_one_block_wall(axis, side, data):
    box, delta = data.draw(fast_moves_toward(axis, side))
    grid = wall(axis, side)
    hit = cast(box, *delta, grid)
    assert hit is not None
    normal = [0.0, 0.0, 0.0]
    normal[axis] = -float(side)
    assert hit.normal == tuple(normal)
    at_contact = box.offset(*contact_offset(box, delta, hit))
    if side > 0:
        assert at_contact[axis + 3] <= 5.0 + CONTACT_TOLERANCE
    else:
        assert at_contact[axis] >= -5.0 - CONTACT_TOLERANCE


@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_a_non_finite_displacement_is_rejected(bad):
    with pytest.raises(ValueError, match="cast displacement"):
        cast(PLAYER, 0.0, bad, 0.0, BlockGrid())


def test_a_world_without_collision_boxes_is_rejected():
    with pytest.raises(TypeError, match="CollisionWorld"):
        cast(PLAYER, 1.0, 0.0, 0.0, object())
