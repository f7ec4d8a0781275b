"""sweep: time of impact and face normal of one box moving in a straight line against one target."""

import math

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from physics import CONTACT_TOLERANCE
from physics.aabb import AABB
from physics.swept_aabb import Hit, first_hit, sweep

REFERENCE_TIME_TOLERANCE = 1e-9
"""[1] How close `sweep`'s time must be to the bisection reference's (which resolves it to ~1e-16)."""
TOUCHING_SLACK = 1e-9
"""[blocks] How close two faces must be, at the reference's contact time, to count as the faces in contact."""

UNIT = AABB(0.0, 0.0, 0.0, 1.0, 1.0, 1.0)
LEFT, RIGHT = (-1.0, 0.0, 0.0), (1.0, 0.0, 0.0)
DOWN, UP = (0.0, -1.0, 0.0), (0.0, 1.0, 0.0)
NORTH, SOUTH = (0.0, 0.0, -1.0), (0.0, 0.0, 1.0)


# --- an independent reference: separating axes on the swept volume, then bisection ---------------

def _interiors_overlap_while_moving(box, delta, t, target) -> bool:
    """Whether `target`'s interior meets the volume `box` covers while moving by (0..t) x delta.

    That volume is the convex hull of the box and the box moved by t x delta. Two convex polytopes
    have disjoint interiors exactly when their projections on some candidate axis only touch or
    are apart; the candidates are the three box axes and the cross products of the motion with them.
    """
    axes = [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)]
    dx, dy, dz = delta
    for n in ((0.0, dz, -dy), (-dz, 0.0, dx), (dy, -dx, 0.0)):
        # Scaled to a largest component of 1: an axis from a tiny (even subnormal) motion
        # component would otherwise project every box onto 0.0 and seem to separate them.
        largest = max(abs(c) for c in n)
        if largest > 0.0:
            axes.append(tuple(c / largest for c in n))
    for n in axes:
        def projected(b):
            centre = sum(n[i] * (b[i] + b[i + 3]) / 2.0 for i in range(3))
            radius = sum(abs(n[i]) * (b[i + 3] - b[i]) / 2.0 for i in range(3))
            return centre - radius, centre + radius

        lo, hi = projected(box)
        shift = t * (n[0] * dx + n[1] * dy + n[2] * dz)
        lo, hi = lo + min(shift, 0.0), hi + max(shift, 0.0)
        target_lo, target_hi = projected(target)
        if target_hi <= lo or hi <= target_lo:
            return False
    return True


def reference(box, delta, target):
    """'inside' when the interiors overlap at the start, else the first contact time, or None."""
    if _interiors_overlap_while_moving(box, delta, 0.0, target):
        return "inside"
    if not _interiors_overlap_while_moving(box, delta, 1.0, target):
        return None
    lo, hi = 0.0, 1.0
    for _ in range(80):
        mid = (lo + hi) / 2.0
        if _interiors_overlap_while_moving(box, delta, mid, target):
            hi = mid
        else:
            lo = mid
    return hi


def faces_in_contact(box, delta, t, target) -> set:
    """The normals of the target faces the moving box's leading faces lie on at time t."""
    normals = set()
    for axis in range(3):
        d = delta[axis]
        if d > 0.0 and abs(box[axis + 3] + t * d - target[axis]) <= TOUCHING_SLACK * (1.0 + abs(d)):
            normals.add(((-1.0, 0.0, 0.0), (0.0, -1.0, 0.0), (0.0, 0.0, -1.0))[axis])
        if d < 0.0 and abs(box[axis] + t * d - target[axis + 3]) <= TOUCHING_SLACK * (1.0 + abs(d)):
            normals.add(((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))[axis])
    return normals


def grown(box, by):
    return AABB(*(box[i] - by for i in range(3)), *(box[i] + by for i in range(3, 6)))


@st.composite
def boxes(draw, coordinate, size):
    x, y, z = draw(coordinate), draw(coordinate), draw(coordinate)
    return AABB(x, y, z, x + draw(size), y + draw(size), z + draw(size))


@st.composite
def scenes(draw, coordinate, size, delta, snap=None):
    """(box, delta, target), with the target usually placed near the path so that hits are common."""
    box = draw(boxes(coordinate, size))
    move = (draw(delta), draw(delta), draw(delta))
    if draw(st.booleans()):
        return box, move, draw(boxes(coordinate, size))
    along = draw(st.floats(0.0, 1.0))
    corner = [box[i] + along * move[i] + draw(st.floats(-2.0, 2.0)) for i in range(3)]
    if snap is not None:
        corner = [round(c * snap) / snap for c in corner]
    return box, move, AABB(*corner, *(c + draw(size) for c in corner))


# Exact values on a 1/16 grid: every tie, touch and corner is exact, so edges are met on purpose.
sixteenths = st.integers(-160, 160).map(lambda n: n / 16.0)
grid_sizes = st.integers(1, 48).map(lambda n: n / 16.0)
grid_deltas = st.integers(-128, 128).map(lambda n: n / 16.0)
# Arbitrary floats.
coordinates = st.floats(-10.0, 10.0)
sizes = st.floats(0.01, 5.0)
deltas = st.floats(-20.0, 20.0)


def assert_matches_reference(box, delta, target, expected):
    hit = sweep(box, *delta, target)
    if expected in (None, "inside"):
        assert hit is None
        return
    assert hit is not None
    assert hit.time == pytest.approx(expected, abs=REFERENCE_TIME_TOLERANCE)
    assert hit.normal in faces_in_contact(box, delta, expected, target)
    assert hit.box == target


@settings(max_examples=400, deadline=None)
@given(scenes(sixteenths, grid_sizes, grid_deltas, snap=16))
@example((UNIT, (2.0, 2.0, 0.0), AABB(1.0, 1.0, 0.0, 2.0, 2.0, 1.0)))  # exact corner: both faces at once
@example((UNIT, (2.0, 2.0, 0.0), AABB(1.0, -1.0, 0.0, 2.0, 1.0, 1.0)))  # trailing face leaves as the side arrives
def test_sweep_matches_the_reference_exactly_on_grid_aligned_boxes(scene):
    box, delta, target = scene
    # On the 1/16 grid every overlap, gap and margin is 0 or far above CONTACT_TOLERANCE, so the
    # tolerance rules and the exact reference must agree on every case, edges included.
    assert_matches_reference(box, delta, target, reference(box, delta, target))


@settings(max_examples=400, deadline=None)
@given(scenes(coordinates, sizes, deltas))
@example((UNIT, (1.0, 0.0, 5e-324), AABB(1.0, 0.0, 0.0, 2.0, 1.0, 1.0)))  # a subnormal motion component
def test_sweep_matches_the_reference_on_random_boxes(scene):
    box, delta, target = scene
    expected = reference(box, delta, target)
    # Where moving the target's faces by twice the tolerance changes the answer, the case is
    # within the tolerance of an edge; those are pinned by the edge tests below instead.
    assume(expected != "inside")
    for nudged in (grown(target, 2 * CONTACT_TOLERANCE), grown(target, -2 * CONTACT_TOLERANCE)):
        assume((reference(box, delta, nudged) is None) == (expected is None))
    assert_matches_reference(box, delta, target, expected)


# --- edges ------------------------------------------------------------------------------------

def test_a_box_moving_into_a_target_hits_it_when_the_faces_meet():
    hit = sweep(UNIT, 4.0, 0.0, 0.0, AABB(3.0, 0.0, 0.0, 4.0, 1.0, 1.0))
    assert hit == Hit(0.5, LEFT, AABB(3.0, 0.0, 0.0, 4.0, 1.0, 1.0))


@pytest.mark.parametrize("delta, normal", [
    ((-4.0, 0.0, 0.0), RIGHT), ((0.0, 4.0, 0.0), DOWN), ((0.0, -4.0, 0.0), UP),
    ((0.0, 0.0, 4.0), NORTH), ((0.0, 0.0, -4.0), SOUTH),
])
def test_each_direction_of_motion_meets_the_face_that_looks_back_at_it(delta, normal):
    offset = [3.0 * (1 if d > 0 else -1 if d < 0 else 0) for d in delta]
    target = UNIT.offset(*offset)
    hit = sweep(UNIT, *delta, target)
    assert hit == Hit(0.5, normal, target)


def test_touching_at_the_start_and_moving_in_is_a_hit_at_time_zero():
    assert sweep(UNIT, 1.0, 0.5, 0.0, UNIT.offset(1.0, 0.0, 0.0)) == Hit(0.0, LEFT, UNIT.offset(1.0, 0.0, 0.0))


def test_touching_at_the_start_and_moving_away_is_no_hit():
    assert sweep(UNIT, -1.0, 0.3, 0.0, UNIT.offset(1.0, 0.0, 0.0)) is None


def test_moving_along_a_face_it_touches_is_no_hit():
    floor = AABB(-5.0, -1.0, -5.0, 5.0, 0.0, 5.0)
    assert sweep(UNIT, 3.0, 0.0, -2.0, floor) is None


def test_zero_displacement_is_no_hit_even_when_touching():
    assert sweep(UNIT, 0.0, 0.0, 0.0, UNIT.offset(1.0, 0.0, 0.0)) is None


def test_reaching_contact_at_the_end_of_the_move_or_within_the_tolerance_of_it_is_no_hit():
    target = UNIT.offset(3.0, 0.0, 0.0)  # 2 blocks ahead
    assert sweep(UNIT, 2.0, 0.0, 0.0, target) is None
    assert sweep(UNIT, 2.0 + CONTACT_TOLERANCE, 0.0, 0.0, target) is None  # ends touching within the tolerance
    move = 2.0 + 2 * CONTACT_TOLERANCE
    assert sweep(UNIT, move, 0.0, 0.0, target) == Hit(2.0 / move, LEFT, target)


def test_a_target_out_of_the_path_is_no_hit():
    assert sweep(UNIT, 5.0, 0.0, 0.0, UNIT.offset(3.0, 1.5, 0.0)) is None


def test_a_face_grazed_by_float_drift_does_not_snag_a_slide():
    drifted_wall = UNIT.offset(2.0, 0.0, 1.0 - 1e-12)  # overlaps the box by 1e-12 on Z
    assert sweep(UNIT, 5.0, 0.0, 0.0, drifted_wall) is None


def test_an_overlap_deeper_than_the_tolerance_on_a_still_axis_blocks():
    wall = UNIT.offset(2.0, 0.0, 1.0 - 3 * CONTACT_TOLERANCE)
    assert sweep(UNIT, 5.0, 0.0, 0.0, wall) == Hit(0.2, LEFT, wall)


def test_a_face_penetrated_within_the_tolerance_and_moved_into_is_a_hit_at_time_zero():
    wall = UNIT.offset(1.0 - CONTACT_TOLERANCE / 2, 0.0, 0.0)
    assert sweep(UNIT, 1.0, 0.0, 0.0, wall) == Hit(0.0, LEFT, wall)
    assert sweep(UNIT, -1.0, 0.0, 0.0, wall) is None


def test_a_target_overlapped_deeper_than_the_tolerance_is_ignored_so_a_stuck_box_can_leave():
    block = UNIT.offset(0.5, 0.0, 0.0)
    for delta in ((1.0, 0.0, 0.0), (-1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.3, -0.2, 0.7)):
        assert sweep(UNIT, *delta, block) is None


def test_an_exact_corner_hit_reports_the_vertical_face_first():
    corner_block = UNIT.offset(1.0, -1.0, 0.0)
    assert sweep(UNIT, 2.0, -2.0, 0.0, corner_block) == Hit(0.0, UP, corner_block)
    ledge = UNIT.offset(1.0, -2.0, 0.0)  # its top face is reached at t = 0.5, the box above it
    assert sweep(UNIT, 2.0, -2.0, 0.0, ledge) == Hit(0.5, UP, ledge)


def test_a_corner_clipped_by_less_than_the_tolerance_is_passed():
    ledge = AABB(1.0, -1.0, 0.0, 2.0, 0.5 * CONTACT_TOLERANCE, 1.0)
    assert sweep(UNIT, 2.0, 1.0, 0.0, ledge) is None  # rising: the box's bottom clears the ledge's top
    deeper = AABB(1.0, -1.0, 0.0, 2.0, 2.0 * CONTACT_TOLERANCE, 1.0)
    assert sweep(UNIT, 2.0, 1.0, 0.0, deeper) == Hit(0.0, LEFT, deeper)


def test_a_tall_thin_box_passing_diagonally_hits_the_side_it_reaches_last():
    box = AABB(0.0, 0.0, 0.0, 0.5, 3.0, 0.5)
    target = AABB(2.0, -10.0, 1.0, 3.0, 10.0, 2.0)
    hit = sweep(box, 4.0, 0.0, 2.0, target)  # x face reached at 0.375, z face at 0.25
    assert hit == Hit(0.375, LEFT, target)


@given(st.lists(boxes(sixteenths, grid_sizes), min_size=1, max_size=8), st.randoms(use_true_random=False))
@settings(max_examples=100, deadline=None)
def test_first_hit_does_not_depend_on_the_order_of_the_targets(targets, rng):
    shuffled = list(targets)
    rng.shuffle(shuffled)
    box = AABB(-0.5, -0.5, -0.5, 0.5, 0.5, 0.5)
    assert first_hit(box, 7.0, 3.5, -2.0, targets) == first_hit(box, 7.0, 3.5, -2.0, shuffled)


def test_a_box_meeting_a_wall_of_blocks_exactly_at_a_seam_gets_the_wall_normal():
    # Diagonally into the wall z = 2: the box's leading X face reaches the seam x = 2 at the same
    # moment, where it also touches the next block's side edge (a tie in time).
    wall = [UNIT.offset(x, 0.0, 2.0) for x in range(-3, 6)]
    hit = first_hit(UNIT, 4.0, 0.0, 4.0, wall)
    assert hit == Hit(0.25, NORTH, UNIT.offset(1.0, 0.0, 2.0))


def test_first_hit_picks_the_earliest_target():
    near, far = UNIT.offset(3.0, 0.0, 0.0), UNIT.offset(5.0, 0.0, 0.0)
    assert first_hit(UNIT, 8.0, 0.0, 0.0, [far, near]).box == near
    assert first_hit(UNIT, 8.0, 0.0, 0.0, []) is None


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_a_non_finite_displacement_is_rejected(bad):
    with pytest.raises(ValueError, match="sweep displacement"):
        sweep(UNIT, bad, 0.0, 0.0, UNIT.offset(2.0, 0.0, 0.0))


def test_boxes_must_be_finite_aabbs():
    with pytest.raises(TypeError, match="AABB"):
        sweep((0.0, 0.0, 0.0, 1.0, 1.0, 1.0), 1.0, 0.0, 0.0, UNIT)
    with pytest.raises(ValueError, match="finite"):
        sweep(UNIT, 1.0, 0.0, 0.0, AABB(0.0, 0.0, 0.0, math.inf, 1.0, 1.0))
