"""Entity push: Beta's soft horizontal shove between two bodies that stand too close.

Owns: the push rule of Beta 1.7.3 (`Entity.applyEntityCollision`, called from
`EntityLiving.onLivingUpdate`): which bodies count as touching (`push_region`), how hard they are
pushed (`push_impulse`) and the pushed bodies (`push`).
Does not own: finding the touching bodies among many (`broad_phase.py`) or the order in which a
tick moves and pushes them (`crowd.py`). Bodies are not solid to each other: the push is the only
thing that separates them, and it only changes velocities, never boxes.

Beta's rule, with `me` the body whose update runs and `other` a body touching it:
    dx = me.x - other.x; dz = me.z - other.z            (feet centres)
    d = max(|dx|, |dz|); nothing happens when d < 0.01F
    d = (float) sqrt(d); dx /= d; dz /= d; k = min(1, 1 / d)
    dx = dx * k * 0.05; dz = dz * k * 0.05               (0.05 is 0.05000000074505806)
    other.velocity -= (dx, dz); me.velocity += (dx, dz)  (y is never touched)
For centres less than a block apart each body gets 0.05 x (dx / sqrt(d)), on one axis
0.05 x sqrt(|dx|): the closer, the weaker per block, but never more than 0.05 per axis.
"""

from __future__ import annotations

import math

from .aabb import AABB
from .body import Body
from .floats import f32

PUSH_REACH = 0.2
"""[blocks] How far sideways (x and z, not y) a body reaches for bodies to push: Beta pushes
every body whose box meets `myBox.expand(0.2, 0, 0.2)`. Two 0.6-wide bodies stop pushing once
their centres are 0.8 apart (0.3 + 0.2 + 0.3)."""

MIN_PUSH_DISTANCE = f32(0.01)
"""[blocks] Below this centre distance (on both axes) no push happens (Beta's literal 0.01F):
the direction would be meaningless, so bodies at the very same spot stay together."""

PUSH_STRENGTH = f32(0.05)
"""[blocks/tick] Scale of one push (Beta's 0.05000000074505806D, the float 0.05F widened)."""


MAX_PUSH_SPEED = 0.25
"""[blocks/tick] The most velocity the pushes of one crowd tick may give a body along x or along
z (5 blocks a second, about a sprint). Beta has no bound: its pair rule adds up to 0.05 per pair
and update, so bodies crammed into a pit are flung ever faster (2.8 blocks/tick with 50 bodies in
a 3 x 3 pit, 27 with 500). Two or three neighbours pushing one way stay under it, so ordinary
crowds move exactly as in Beta; where it binds, the push that crosses it is cut to reach it and
later ones the same way add nothing (modern Minecraft bounds crowds by damaging bodies crammed
more than 24 to a block instead; a game can still do that)."""


def bounded(taken: float, change: float, limit: float | None) -> tuple[float, float]:
    """A push `change` to a velocity that has taken `taken` from pushes this tick, within +-`limit`:
    (the change to apply, the new total taken). Within the bound the change is applied as it is
    (so an unbounded tick is Beta's to the bit); None: no bound."""
    total = taken + change
    if limit is None or -limit <= total <= limit:
        return change, total
    capped = limit if total > 0.0 else -limit
    return capped - taken, capped


def push_region(box: AABB) -> AABB:
    """`box` grown by PUSH_REACH on x and z: a body pushes every body whose box meets this region
    (strictly, as `AABB.intersects`)."""
    x0, y0, z0, x1, y1, z1 = box
    return AABB._trusted(x0 - PUSH_REACH, y0, z0 - PUSH_REACH, x1 + PUSH_REACH, y1, z1 + PUSH_REACH)


def push_impulse(me_x: float, me_z: float, other_x: float, other_z: float) -> tuple[float, float] | None:
    """The velocity [blocks/tick] added to `me` (and taken from `other`) on x and z, from their
    feet centres; None when the centres are closer than MIN_PUSH_DISTANCE on both axes."""
    dx = me_x - other_x
    dz = me_z - other_z
    d = max(abs(dx), abs(dz))
    if d < MIN_PUSH_DISTANCE:
        return None
    d = f32(math.sqrt(d))
    dx /= d
    dz /= d
    k = min(1.0 / d, 1.0)
    return dx * k * PUSH_STRENGTH, dz * k * PUSH_STRENGTH


def push(a: Body, b: Body) -> tuple[Body, Body]:
    """Push `a` and `b` apart, as Beta's `b.applyEntityCollision(a)`: returns the new `(a, b)`.

    `a` plays Beta's `me` (the body whose update found `b` within its push region) and `b` the
    `other`; the result does not depend on which is which: `push(b, a)` returns the same two
    bodies, swapped (the formula is exactly antisymmetric in float arithmetic too).
    Bodies are immutable, so use the returned values; when nothing happens they are `a` and `b`
    themselves. This does not check that the boxes meet: the caller picks the pairs (see
    `push_region`).
    """
    if not isinstance(a, Body) or not isinstance(b, Body):
        raise TypeError(f"push needs two physics.Body values, got {type(a).__name__} and {type(b).__name__}")
    ab, bb = a.box, b.box
    impulse = push_impulse((ab[0] + ab[3]) / 2.0, (ab[2] + ab[5]) / 2.0, (bb[0] + bb[3]) / 2.0, (bb[2] + bb[5]) / 2.0)
    if impulse is None:
        return a, b
    dx, dz = impulse
    avx, avy, avz = a.velocity
    bvx, bvy, bvz = b.velocity
    return a._with_velocity((avx + dx, avy, avz + dz)), b._with_velocity((bvx - dx, bvy, bvz - dz))
