"""Swept AABB: when, and on which face, a box moving in a straight line first touches another box.

Owns: `Hit` (time of impact, face normal, the box hit), `sweep` (one moving box against one
target) and `first_hit` (the earliest hit among many targets, with a fixed order for ties).
Does not own: finding the targets in a world (see `grid_cast.py`) or what a body does after a hit
(see `response.py`).

Method: the slab test on the Minkowski sum (Ericson, Real-Time Collision Detection, 5.3.3). On
each axis the box moves along, the boxes overlap during one interval of time: from the moment
the leading face reaches the target's near face (entry) to the moment the trailing face leaves
its far face (exit). The boxes first overlap at the latest entry, if that comes before every
exit; the face hit is the one on the axis that entered last. Times are fractions of the
displacement: 0 is the start, 1 the end.

The edges, with the same tolerance as `clip.py` (CONTACT_TOLERANCE, `tol` below). Boxes
overlap on an axis "by more than `tol`" when each reaches more than `tol` past the other's
near side; touching, or overlapping by `tol` or less, is contact, not overlap. A target is hit
when the move, unobstructed, would make the boxes overlap by more than `tol` on all three axes
at once at some moment of the move, and they do not already at its start; the hit is when they
first touch. So:
- zero displacement: no hit;
- moving along a face (touching, parallel), or grazing it by float drift: no hit, so sliding
  never snags on the seams between blocks;
- passing a corner that the box clips by `tol` or less, or creeping past a face by less than
  `tol` during the move: no hit (clip's other-axis rule, made continuous);
- touching at time 0 and moving in: a hit at time 0; touching and moving away: no hit;
- reaching contact exactly at the end of the move (or less than `tol` before it): no hit; the
  box ends at most `tol` into the face, which counts as touching, so `Hit.time` is in [0, 1);
- a target the box already overlaps. Boxel's rule, Beta's clip rule made continuous: a face
  penetrated by at most `tol` is touching (a hit at time 0 when moved into: float drift can never
  carry a box into a wall); a target overlapped by more than `tol` on every axis at the start is
  ignored, as Beta's clip ignores it, so a body stuck in a block (placed inside one, or a block
  set on top of it) can move out instead of freezing;
- ties within one target (a corner reached on two faces at once): the Y face wins, then X,
  then Z (Beta's clip order: landing on a ledge beats bumping into its side). Ties between
  targets (`first_hit`): a face contact wins over an edge contact, so a box meeting a flat wall
  of blocks exactly at a seam gets the wall's normal, not the hidden side of the next block.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from .aabb import AABB
from .body import extent_within, require_finite
from .messages import shown
from .tolerances import CONTACT_TOLERANCE, MIN_BOX_SIZE

AXIS_ORDER = (1, 0, 2)
"""Axes in the order they win ties: Y, then X, then Z."""

_NORMALS = (
    ((-1.0, 0.0, 0.0), (1.0, 0.0, 0.0)),
    ((0.0, -1.0, 0.0), (0.0, 1.0, 0.0)),
    ((0.0, 0.0, -1.0), (0.0, 0.0, 1.0)),
)
"""_NORMALS[axis][moving_negative]: the face normal met when moving along `axis` (against the motion)."""

_TIE_RANK = {normal: AXIS_ORDER.index(axis) for axis, pair in enumerate(_NORMALS) for normal in pair}


@dataclass(frozen=True, slots=True)
class Hit:
    """The first contact of a moving box with a target."""

    time: float
    """[1] Fraction of the displacement travelled when the boxes touch, in [0, 1)."""
    normal: tuple[float, float, float]
    """The outward normal of the target's face that was reached: one of the six axis unit
    vectors, pointing against the motion on that axis."""
    box: AABB
    """The target box that was hit."""

    @property
    def axis(self) -> int:
        """0, 1 or 2: the axis of the normal (X, Y, Z)."""
        n = self.normal
        return 0 if n[0] != 0.0 else (1 if n[1] != 0.0 else 2)


def sweep(box: AABB, dx: float, dy: float, dz: float, target: AABB) -> Hit | None:
    """The first contact of `box` moved by (dx, dy, dz) blocks with `target`; None if none within the move.

    Raises TypeError for a non-AABB box and ValueError for a non-finite box or displacement.
    """
    check_moving_box("sweep box", box)
    check_box("sweep target", target)
    require_finite("sweep displacement", dx, dy, dz)
    return sweep_unchecked(box, (dx, dy, dz), target)


def first_hit(box: AABB, dx: float, dy: float, dz: float, targets: Iterable[AABB]) -> Hit | None:
    """The earliest `sweep` hit among `targets`; ties go to face contacts before edge contacts,
    then to the Y normal, then X, then Z, then the smallest box.

    The result does not depend on the order of the targets.
    """
    check_moving_box("sweep box", box)
    require_finite("sweep displacement", dx, dy, dz)
    targets = tuple(targets)
    for target in targets:
        check_box("sweep target", target)
    return first_hit_unchecked(box, (dx, dy, dz), targets)


def first_hit_unchecked(box: AABB, delta: tuple[float, float, float], targets: Iterable[AABB],
                        best: Hit | None = None) -> Hit | None:
    """`first_hit` for checked inputs, starting from `best` (a hit found earlier, or None)."""
    for target in targets:
        hit = sweep_unchecked(box, delta, target)
        if hit is not None and (best is None or _earlier(hit, best, box, delta)):
            best = hit
    return best


def _earlier(a: Hit, b: Hit, box: AABB, delta: tuple[float, float, float]) -> bool:
    """True when `a` comes before `b`: by time; at equal times a face contact before an edge
    contact, then by normal (Y, X, Z), then by box.

    The face-before-edge rule keeps seams from snagging: a box reaching a flat wall of blocks
    exactly at a seam also meets the next block's side edge at that same moment; the wall's face
    is the contact that matters (the edge is hidden by the neighbouring block).
    """
    if a.time != b.time:
        return a.time < b.time
    edge_a, edge_b = _edge_contact(box, delta, a), _edge_contact(box, delta, b)
    if edge_a != edge_b:
        return edge_b
    rank_a, rank_b = _TIE_RANK[a.normal], _TIE_RANK[b.normal]
    if rank_a != rank_b:
        return rank_a < rank_b
    return a.box < b.box


def _edge_contact(box: AABB, delta: tuple[float, float, float], hit: Hit) -> bool:
    """Whether, at the moment of `hit`, the boxes touch only along an edge or at a corner (no contact area)."""
    t, target, hit_axis = hit.time, hit.box, hit.axis
    for axis in range(3):
        if axis != hit_axis:
            shift = t * delta[axis]
            overlap = min(box[axis + 3] + shift, target[axis + 3]) - max(box[axis] + shift, target[axis])
            if overlap <= CONTACT_TOLERANCE:
                return True
    return False


def sweep_unchecked(box: AABB, delta: tuple[float, float, float], target: AABB) -> Hit | None:
    """`sweep` for inputs already validated (the hot path of `cast`)."""
    tol = CONTACT_TOLERANCE
    touch, touch_axis = -math.inf, None  # latest time a leading face reaches its near face
    deep, deep_axis = -math.inf, None  # latest time an axis starts overlapping by more than tol
    shallow = math.inf  # earliest time an axis stops overlapping by more than tol
    for axis in AXIS_ORDER:
        d = delta[axis]
        lo, hi = box[axis], box[axis + 3]
        target_lo, target_hi = target[axis], target[axis + 3]
        if d == 0.0:
            if target_hi - lo <= tol or hi - target_lo <= tol:
                return None  # never overlaps by more than the tolerance: parallel, grazing or apart
            continue
        # gap: distance from the leading face to the target's near face (negative once past it);
        # through: distance from the trailing face to the target's far face (the box clears it there).
        if d > 0.0:
            speed, gap, through = d, target_lo - hi, target_hi - lo
        else:
            speed, gap, through = -d, lo - target_hi, hi - target_lo
        if gap / speed > touch:
            touch, touch_axis = gap / speed, axis
        if (gap + tol) / speed > deep:
            deep, deep_axis = (gap + tol) / speed, axis
        shallow = min(shallow, (through - tol) / speed)
    if deep_axis is None:
        return None  # zero displacement
    if not 0.0 <= deep < min(shallow, 1.0):
        # Never deeper than the tolerance during the move, or already deeper at its start (ignored).
        return None
    if touch >= 0.0:
        return Hit(touch, _NORMALS[touch_axis][delta[touch_axis] < 0.0], target)
    # Touching within the tolerance at the start: the face is the one that gets deeper last.
    return Hit(0.0, _NORMALS[deep_axis][delta[deep_axis] < 0.0], target)


def contact_offset(box: AABB, delta: tuple[float, float, float], hit: Hit) -> tuple[float, float, float]:
    """The displacement that brings `box` exactly to the contact of `hit` (the hit face flush, not inside).

    On the hit axis the box moves exactly the gap to the face (zero if it already touches or
    penetrates within the tolerance, as `clip_axis` does); on the others, `hit.time` of `delta`.
    """
    t = hit.time
    offset = [t * delta[0], t * delta[1], t * delta[2]]
    axis = hit.axis
    if delta[axis] > 0.0:
        offset[axis] = max(hit.box[axis] - box[axis + 3], 0.0)
    else:
        offset[axis] = min(hit.box[axis + 3] - box[axis], 0.0)
    return offset[0], offset[1], offset[2]


def check_moving_box(what: str, box: object) -> None:
    """`check_box`, and every extent at least MIN_BOX_SIZE (thinner boxes slip between blocks)."""
    check_box(what, box)
    x0, y0, z0, x1, y1, z1 = box
    if x1 - x0 >= MIN_BOX_SIZE and y1 - y0 >= MIN_BOX_SIZE and z1 - z0 >= MIN_BOX_SIZE:
        return  # plainly big enough: the slack below only matters for a box at the limit
    # The same rounding slack as a Body's box (`tolerances.extent_within`), so any body's box moves.
    if not all(extent_within(box[axis], box[axis + 3], MIN_BOX_SIZE, math.inf) for axis in range(3)):
        raise ValueError(f"{what} must be at least {MIN_BOX_SIZE:g} blocks on every axis, got {shown(box)}")


def check_box(what: str, box: object) -> None:
    """Raise TypeError unless `box` is an AABB, ValueError unless it is finite."""
    if not isinstance(box, AABB):
        raise TypeError(f"{what} must be a physics.AABB, got {shown(box)}")
    if not box.is_finite():
        raise ValueError(f"{what} must be finite, got {shown(box)}")
