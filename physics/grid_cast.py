"""`cast`: the first box in a world that a box moving in a straight line hits, found by walking the grid.

Owns: `cast` and `swept_regions`, the walk that decides which small regions of the world are
asked for boxes, in the order the moving box reaches them.
Does not own: the hit test itself (see `swept_aabb.py`) or the response to a hit (see `response.py`).

The walk (a 3D DDA in the spirit of Amanatides and Woo, widened to the box): the swept volume
is cut into slabs one block thick across the dominant axis of the motion, at the integer
planes. For each slab, in the order the box meets them, the world is asked only for the region
the box covers while it overlaps that slab (on the dominant axis the slab itself, on the others
the box's extent during that time window). Every box found is swept. The walk stops as soon as
the best hit so far comes strictly before the time the box reaches the next slab: a box not yet
found lies wholly in later slabs, so the moving box cannot touch it earlier. The number of
queries grows with the length of the path, and each query's size only with the size of the
moving box, never with the volume of the box stretched along the path.

The regions need no safety margin: their sides are computed from times of the move and may
round by an ulp, but a hit needs the boxes to overlap by more than CONTACT_TOLERANCE on every
axis at some moment of the move (see `swept_aabb.py`), and the slab where that happens holds that
overlap, far wider than any rounding.

The result equals sweeping every box of the whole stretched box (`first_hit` over
`world.collision_boxes(box.expanded_towards(dx, dy, dz))`), including the order of ties.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from itertools import chain

from .aabb import AABB
from .body import require_finite
from .swept_aabb import Hit, check_moving_box, first_hit_unchecked
from .world import CollisionWorld
from .messages import shown


def cast(box: AABB, dx: float, dy: float, dz: float, world: CollisionWorld) -> Hit | None:
    """The first box of `world` that `box` moved by (dx, dy, dz) blocks hits (`Hit.box`); None if none.

    Raises TypeError for a non-AABB box or a world without `collision_boxes`, ValueError for a
    non-finite box or displacement.
    """
    check_moving_box("cast box", box)
    require_finite("cast displacement", dx, dy, dz)
    if not isinstance(world, CollisionWorld):
        raise TypeError(f"cast needs a CollisionWorld (with collision_boxes(region)), got {shown(world)}")
    return cast_unchecked(box, (dx, dy, dz), world)


def cast_unchecked(box: AABB, delta: tuple[float, float, float], world: CollisionWorld) -> Hit | None:
    """`cast` for inputs already validated."""
    best = None
    for start_time, region in swept_regions(box, *delta):
        if best is not None and best.time < start_time:
            break
        best = first_hit_unchecked(box, delta, world.collision_boxes(region), best)
    return best


def swept_regions(box: AABB, dx: float, dy: float, dz: float) -> Iterator[tuple[float, AABB]]:
    """The regions `cast` queries, in walking order: (time the box first reaches the region, region).

    The regions are slabs across the dominant axis of the motion, cut at integer planes; together
    they cover every position of `box` along the move (times 0 to 1). No regions for a zero move.
    """
    # (Each look ray of a digging player walks here: the two side axes are named once rather
    # than looped over per slab, and each region is made straight as a tuple, `AABB._trusted`.)
    delta = (dx, dy, dz)
    main = 0  # the dominant axis: the first of the largest |delta|
    if abs(dy) > abs(dx):
        main = 1
    if abs(dz) > abs(delta[main]):
        main = 2
    d = delta[main]
    if d == 0.0:
        return
    lo, hi = box[main], box[main + 3]
    p, q = _SIDE_AXES[main]
    p_lo, p_hi, p_d = box[p], box[p + 3], delta[p]
    q_lo, q_hi, q_d = box[q], box[q + 3], delta[q]
    if d > 0.0:
        start, end = lo, hi + d
        cuts = range(math.floor(start) + 1, math.ceil(end))
    else:
        start, end = hi, lo + d
        cuts = range(math.ceil(start) - 1, math.floor(end), -1)
    previous = start
    for cut in chain(map(float, cuts), (end,)):
        a, b = (previous, cut) if d > 0.0 else (cut, previous)
        previous = cut
        # The box overlaps the slab [a, b] while lo + t d < b and hi + t d > a.
        t0, t1 = ((a - hi) / d, (b - lo) / d) if d > 0.0 else ((b - lo) / d, (a - hi) / d)
        if t0 < 0.0:  # max(t0, 0.0) and min(t1, 1.0), without the calls
            t0 = 0.0
        if t1 > 1.0:
            t1 = 1.0
        corners = [0.0] * 6
        corners[main], corners[main + 3] = a, b
        s0, s1 = t0 * p_d, t1 * p_d
        if s0 > s1:
            s0, s1 = s1, s0
        corners[p], corners[p + 3] = p_lo + s0, p_hi + s1
        s0, s1 = t0 * q_d, t1 * q_d
        if s0 > s1:
            s0, s1 = s1, s0
        corners[q], corners[q + 3] = q_lo + s0, q_hi + s1
        yield t0, _new_tuple(AABB, corners)


_SIDE_AXES = ((1, 2), (0, 2), (0, 1))
"""The two axes other than the dominant one (0, 1 or 2), in order."""
_new_tuple = tuple.__new__
