"""`knockback`: Beta's `EntityLiving.knockBack`, the shove a body gets when something hits it.

Owns: the velocity change of a hit from an attacker at a horizontal position.
Does not own: damage, hurt time or who may hit whom (the game's rules).
"""

from __future__ import annotations

import math

from .body import Body, require_finite
from .floats import f32
from .messages import shown

KNOCKBACK_STRENGTH = f32(0.4)
"""[blocks/tick] Horizontal speed away from the attacker added by a hit (0.4F)."""
KNOCKBACK_LIFT = f32(0.4)
"""[blocks/tick] Vertical velocity added by a hit, and the most it may then be (0.4F widened)."""
MIN_ATTACKER_DISTANCE_SQUARED = 0.0001
"""[blocks^2] An attacker closer than this (squared, horizontally) has no direction; Beta then
draws random offsets of up to 0.01 per axis until one is at least this far."""
TOO_CLOSE_OFFSET = 0.01
"""[blocks] Without a random source, the offset used for an attacker that close: +X."""


def knockback(body: Body, from_x: float, from_z: float, random=None) -> Body:
    """`body` knocked back by a hit from an attacker whose feet centre is at (from_x, from_z).

    Halves the velocity, adds 0.4F away from the attacker horizontally and 0.4F up (capped at
    0.4F). An attacker within 0.01 blocks gives no direction: Beta draws one at random, which
    this does with `random` (an object with `random()`, as `random.Random`) when given, and
    takes the attacker to be 0.01 blocks on +X otherwise (so results are reproducible).
    ValueError for a non-finite position; the body is unchanged then."""
    if not isinstance(body, Body):
        raise TypeError(f"knockback needs a physics.Body, got {shown(body)}")
    require_finite("attacker position", from_x, from_z, limit=math.inf)
    b = body.box
    dx = from_x - (b[0] + b[3]) / 2.0
    dz = from_z - (b[2] + b[5]) / 2.0
    while dx * dx + dz * dz < MIN_ATTACKER_DISTANCE_SQUARED:
        if random is None:
            dx, dz = TOO_CLOSE_OFFSET, 0.0
        else:
            dx = (random.random() - random.random()) * TOO_CLOSE_OFFSET
            dz = (random.random() - random.random()) * TOO_CLOSE_OFFSET
    distance = f32(math.sqrt(dx * dx + dz * dz))
    vx, vy, vz = body.velocity
    vx /= 2.0
    vy /= 2.0
    vz /= 2.0
    vx -= (dx / distance) * KNOCKBACK_STRENGTH
    vy += KNOCKBACK_LIFT
    vz -= (dz / distance) * KNOCKBACK_STRENGTH
    if vy > KNOCKBACK_LIFT:
        vy = KNOCKBACK_LIFT
    return body._with_velocity((vx, vy, vz))
