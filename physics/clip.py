"""Beta-style clipping on one axis: how far a box may move along X, Y or Z past static boxes.

Owns: `clip_axis`, the one primitive the mover composes (Y, then X, then Z).
Does not own: the order of axes, step-up or flags (see `mover.py`).

Beta's rule (`AxisAlignedBB.calculate{X,Y,Z}Offset`): an obstacle limits motion along an axis
only if it overlaps the moving box on the two other axes and lies ahead of it on this one; the
motion shrinks to the gap. An obstacle the box already overlaps on this axis is ignored, so a
stuck body can walk out. The result does not depend on the order of the obstacles.

Boxel's one divergence: overlaps shallower than CONTACT_TOLERANCE count as touching. On the
other axes that means a face the box grazes by 1e-15 does not snag a slide; on the moving axis
an obstacle penetrated by less than the tolerance still blocks (the motion clamps to zero), so
float drift can never carry a body into a wall.
"""

from __future__ import annotations

from collections.abc import Sequence

from .aabb import AABB
from .tolerances import CONTACT_TOLERANCE

X, Y, Z = 0, 1, 2
_OTHER_AXES = ((1, 2), (0, 2), (0, 1))


def clip_axis(obstacles: Sequence[AABB], box: Sequence[float], delta: float, axis: int) -> float:
    """The part of `delta` (blocks along `axis`) that `box` may move before touching an obstacle."""
    if delta == 0.0:
        return delta
    tol = CONTACT_TOLERANCE
    p, q = _OTHER_AXES[axis]
    p_hi, q_hi = p + 3, q + 3
    # An obstacle overlaps on p when obstacle.max_p > box.min_p + tol and obstacle.min_p < box.max_p - tol.
    p_lo_edge, p_hi_edge = box[p] + tol, box[p_hi] - tol
    q_lo_edge, q_hi_edge = box[q] + tol, box[q_hi] - tol
    if delta > 0.0:
        face = box[axis + 3]
        for b in obstacles:
            if b[p_hi] > p_lo_edge and b[p] < p_hi_edge and b[q_hi] > q_lo_edge and b[q] < q_hi_edge:
                gap = b[axis] - face
                if -tol <= gap < delta:
                    delta = gap if gap > 0.0 else 0.0
    else:
        face = box[axis]
        hi = axis + 3
        for b in obstacles:
            if b[p_hi] > p_lo_edge and b[p] < p_hi_edge and b[q_hi] > q_lo_edge and b[q] < q_hi_edge:
                gap = b[hi] - face
                if delta < gap <= tol:
                    delta = gap if gap < 0.0 else 0.0
    return delta


def moved(box: AABB, axis: int, delta: float) -> AABB:
    """`box` moved by `delta` along `axis` (no validation: a finite move keeps a valid box valid)."""
    if delta == 0.0:
        return box
    c = list(box)
    c[axis] += delta
    c[axis + 3] += delta
    return AABB._trusted(*c)
