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
Bodies are not solid to each other.
"""

from __future__ import annotations

from collections.abc import Sequence

from .body import Body, Intent
from .broad_phase import CellGrid
from .push import push, push_region
from .settings import BETA, MovementSettings
from .tick import step
from .world import CollisionWorld


def step_one_by_one(bodies: Sequence[Body], world: CollisionWorld, intents: Sequence[Intent],
                    settings: MovementSettings = BETA, stepped: Sequence[Body] = ()) -> list[Body]:
    """One crowd tick, literally: each body steps, then pushes the bodies meeting its push region.

    Returns the new bodies in the same order. `stepped`, when given, holds the already known
    results of the first len(stepped) steps (the vectorised path's fallback resumes here).
    """
    bodies = list(bodies)
    grid = CellGrid()
    for i, body in enumerate(bodies):
        grid.insert(i, body.box)
    for i, intent in enumerate(intents):
        me = stepped[i] if i < len(stepped) else step(bodies[i], world, intent, settings)
        grid.move(i, me.box)
        for j in grid.query(push_region(me.box)):
            if j != i:
                me, bodies[j] = push(me, bodies[j])
        bodies[i] = me
    return bodies
