"""Swept AABB: when, and on which face, a box moving in a straight line first touches another box.

Owns: `Hit` (time of impact, face normal, the box hit), `sweep` (one moving box against one
target) and `first_hit` (the earliest hit among many targets, with a fixed order for ties).
Does not own: finding the targets in a world (see `cast.py`) or what a body does after a hit
(see `response.py`).

Method: the slab test on the Minkowski sum (Ericson, Real-Time Collision Detection, 5.3.3). On
each axis the box moves along, the boxes overlap during one interval of time: from the moment
the leading face reaches the target's near face (entry) to the moment the trailing face leaves
its far face (exit). The boxes first overlap at the latest entry, if that comes before every
exit; the face hit is the one on the axis that entered last. Times are fractions of the
displacement: 0 is the start, 1 the end.

The edges, decided with the same tolerance as `clip.py` (CONTACT_TOLERANCE, `tol` below):
- zero displacement: no hit;
- on an axis the box does not move along, the boxes must overlap by more than `tol` (both
  sides), so moving along a face (touching, parallel), or grazing it after float drift, is no
  hit: sliding never snags on the seams between blocks;
- on an axis the box moves along that is not the hit face, the overlap still ahead of the
  box's trailing face at the moment of contact must exceed `tol`: passing a corner the box
  clips by `tol` or less is no hit (clip's other-axis rule, applied at the time of contact);
- touching at time 0 and moving in: a hit at time 0; touching and moving away: no hit;
- reaching contact exactly at the end of the move: no hit (the whole move is allowed, as clip's
  `gap < delta`), so `Hit.time` is in [0, 1);
- a target the box already overlaps. Boxel's rule, Beta's clip rule made continuous: if the
  face the box moves into is penetrated by at most `tol`, that is touching (a hit at time 0:
  float drift can never carry a box into a wall); a target overlapped more deeply than `tol`
  is ignored, as seed 000's "hollow" boxes and Beta's clip ignore it, so a body stuck in a block
  can move out instead of freezing, and every body is pushed out of nothing;
- ties (a corner reached on two faces at once): the Y face wins, then X, then Z (Beta's clip
  order: landing on a ledge beats bumping into its side).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from .aabb import AABB
from .body import require_finite
from .tolerances import CONTACT_TOLERANCE

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
    check_box("sweep box", box)
    check_box("sweep target", target)
    require_finite("sweep displacement", dx, dy, dz)
    return sweep_unchecked(box, (dx, dy, dz), target)


def first_hit(box: AABB, dx: float, dy: float, dz: float, targets: Iterable[AABB]) -> Hit | None:
    """The earliest `sweep` hit among `targets`; ties go to the Y normal, then X, then Z, then the smallest box.

    The result does not depend on the order of the targets.
    """
    check_box("sweep box", box)
    require_finite("sweep displacement", dx, dy, dz)
    return first_hit_unchecked(box, (dx, dy, dz), targets)


def first_hit_unchecked(box: AABB, delta: tuple[float, float, float], targets: Iterable[AABB],
                        best: Hit | None = None) -> Hit | None:
    """`first_hit` for checked inputs, starting from `best` (a hit found earlier, or None)."""
    for target in targets:
        hit = sweep_unchecked(box, delta, target)
        if hit is not None and (best is None or earlier(hit, best)):
            best = hit
    return best


def earlier(a: Hit, b: Hit) -> bool:
    """True when `a` comes before `b`: by time, then normal (Y, X, Z), then box."""
    if a.time != b.time:
        return a.time < b.time
    rank_a, rank_b = _TIE_RANK[a.normal], _TIE_RANK[b.normal]
    if rank_a != rank_b:
        return rank_a < rank_b
    return a.box < b.box


def sweep_unchecked(box: AABB, delta: tuple[float, float, float], target: AABB) -> Hit | None:
    """`sweep` for inputs already validated (the hot path of `cast`)."""
    tol = CONTACT_TOLERANCE
    moving = []  # (axis, speed, gap, through) per moving axis, in tie order
    enter = -math.inf
    enter_axis = None
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
        if through <= 0.0:
            return None  # the target is behind the box on this axis
        entry = gap / speed
        if entry > enter:
            enter, enter_axis = entry, axis
        moving.append((axis, speed, gap, through))
    if enter_axis is None:
        return None  # zero displacement

    if enter >= 0.0:
        if enter >= 1.0:
            return None  # contact at or after the end of the move
        time, hit_axis = enter, enter_axis
    else:
        # Already past the near face on every moving axis: only a face penetrated by at most the
        # tolerance counts (touching); deeper overlaps are ignored.
        time, hit_axis, latest = 0.0, None, -math.inf
        for axis, speed, gap, _ in moving:
            if gap >= -tol and gap / speed > latest:
                hit_axis, latest = axis, gap / speed
        if hit_axis is None:
            return None

    for axis, speed, gap, through in moving:
        ahead = through - time * speed  # overlap left in front of the trailing face at contact
        if ahead <= (0.0 if axis == hit_axis else tol):
            return None  # the boxes separate on this axis before overlapping by more than the tolerance
    return Hit(time, _NORMALS[hit_axis][delta[hit_axis] < 0.0], target)


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


def check_box(what: str, box: object) -> None:
    """Raise TypeError unless `box` is an AABB, ValueError unless it is finite."""
    if not isinstance(box, AABB):
        raise TypeError(f"{what} must be a physics.AABB, got {box!r}")
    if not box.is_finite():
        raise ValueError(f"{what} must be finite, got {box!r}")
