"""The crowd tick, one body at a time: the readable definition both crowd paths follow.

Owns: `step_one_by_one`, one crowd tick written out as Beta's `World.updateEntities` runs it.
Does not own: the crowd as a container (`crowd.py`), the vectorised tick (`crowd_vector.py`,
which gives the same bodies to the last bit and finishes a tick here when its push rounds would
cost more), how one body moves (`tick.py`), the push rule (`push.py`) or the grid that finds
neighbours (`broad_phase.CellGrid`).

One crowd tick:
    for each body i, in the order the bodies were added:
        body_i = physics.step(body_i, world, intent_i)
        for each other body j whose box meets push_region(body_i.box), in crowd order:
            body_i, body_j = physics.push(body_i, body_j)
Pushes change velocities at once, so a body that steps later already carries the pushes of the
bodies before it; each touching pair is pushed twice per tick (once from each body's update).
Bodies are not solid to each other. The pushes a body takes in one tick add at most
`max_push_speed` to its velocity along x and along z (`push.MAX_PUSH_SPEED`, `push.bounded`):
within that, each push is applied exactly as `physics.push` gives it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .body import Body, Intent
from .broad_phase import CellGrid
from .push import MAX_PUSH_SPEED, bounded, push_impulse, push_region
from .settings import BETA, MovementSettings
from .tick import step
from .world import CollisionWorld


def step_one_by_one(bodies: Sequence[Body], world: CollisionWorld, intents: Sequence[Intent],
                    settings: MovementSettings = BETA, stepped: Sequence[Body] = (),
                    max_push_speed: float | None = MAX_PUSH_SPEED) -> list[Body]:
    """One crowd tick, literally: each body steps, then pushes the bodies meeting its push region.

    Returns the new bodies in the same order. `stepped`, when given, holds the already known
    results of the first len(stepped) steps (the vectorised path's fallback resumes here).
    `max_push_speed` bounds the pushes a body takes in the tick (None: Beta, unbounded).
    """
    bodies = list(bodies)
    taken = [[0.0, 0.0] for _ in bodies]  # velocity each body took from pushes this tick, x and z
    grid = CellGrid()
    for i, body in enumerate(bodies):
        grid.insert(i, body.box)
    for i, intent in enumerate(intents):
        me = stepped[i] if i < len(stepped) else step(bodies[i], world, intent, settings)
        grid.move(i, me.box)
        for j in grid.query(push_region(me.box)):
            if j != i:
                me, bodies[j] = _bounded_push(me, bodies[j], taken[i], taken[j], max_push_speed)
        bodies[i] = me
    return bodies


def _bounded_push(me: Body, other: Body, me_taken: list[float], other_taken: list[float],
                  limit: float | None) -> tuple[Body, Body]:
    """`physics.push(me, other)`, each side's change kept within `limit` of what it took this tick
    (`push.bounded`); `me_taken` and `other_taken` are updated."""
    a, b = me.box, other.box
    impulse = push_impulse((a[0] + a[3]) / 2.0, (a[2] + a[5]) / 2.0, (b[0] + b[3]) / 2.0, (b[2] + b[5]) / 2.0)
    if impulse is None:
        return me, other
    dx, dz = impulse
    mx, me_taken[0] = bounded(me_taken[0], dx, limit)
    mz, me_taken[1] = bounded(me_taken[1], dz, limit)
    ox, other_taken[0] = bounded(other_taken[0], -dx, limit)
    oz, other_taken[1] = bounded(other_taken[1], -dz, limit)
    mvx, mvy, mvz = me.velocity
    ovx, ovy, ovz = other.velocity
    # (-dx applied as `+ (-dx)` equals Beta's `- dx` to the bit.)
    return me._with_velocity((mvx + mx, mvy, mvz + mz)), other._with_velocity((ovx + ox, ovy, ovz + oz))
