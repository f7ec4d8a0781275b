"""Small worlds and a tick runner shared by the physics tests."""

from __future__ import annotations

from collections.abc import Iterable

import physics
from physics import BETA, BlockGrid, Body, Intent
from physics.shapes import FULL_CUBE, Shape

FLOOR_TOP = 64.0
"""Top face of the floor layer every scenario stands on (floor blocks at y = 63)."""

FEET_ROUNDING = 1e-12
"""[blocks] Feet are derived as (min + max) / 2, which rounds by an ulp or two; differences of
feet positions near coordinate 100 agree with exact arithmetic to far better than this."""
CONVERGED = 1e-9
"""[blocks or blocks/tick] How close a geometric sequence is to its limit after the ticks a test
runs (for example 0.98^1500 x 3.92 is ~3e-13, 0.6^60 x 0.4 is ~2e-14)."""
FLOAT32_RELATIVE = 1e-6
"""[1] Relative rounding of a few float32 operations (each rounds by at most 6e-8)."""

EAST_YAW = 270.0  # faces +X
SOUTH_YAW = 0.0  # faces +Z
SOUTH_EAST_YAW = 315.0  # faces +X +Z


def floor(grid: BlockGrid | None = None, *, x0: int = -20, x1: int = 20, z0: int = -20, z1: int = 20,
          y: int = 63, shape: Shape = FULL_CUBE, slipperiness: float = 0.6) -> BlockGrid:
    """A grid with a one-block-thick floor whose top is at y + 1."""
    grid = grid if grid is not None else BlockGrid()
    grid.fill(x0, y, z0, x1, y, z1, shape, slipperiness)
    return grid


def standing(grid: BlockGrid, x: float = 0.5, z: float = 0.5, width: float = 0.6, height: float = 1.8,
             y: float = FLOOR_TOP) -> Body:
    """A body placed on the floor and settled (grounded after its second tick, as in Beta)."""
    body = Body.at_feet(x, y, z, width, height)
    return run(body, grid, Intent(), 2)


def run(body: Body, world, intent: Intent, ticks: int, settings=BETA, debug=None) -> Body:
    for _ in range(ticks):
        body = physics.step(body, world, intent, settings, debug)
    return body


def trace(body: Body, world, intents: Iterable[Intent], settings=BETA) -> list[Body]:
    """Every body state after each intent."""
    states = []
    for intent in intents:
        body = physics.step(body, world, intent, settings)
        states.append(body)
    return states


class OneBoxWorld:
    """A CollisionWorld made of explicit boxes (to compare a wall of many blocks with one long box)."""

    def __init__(self, *boxes: physics.AABB) -> None:
        self.boxes = list(boxes)

    def collision_boxes(self, region: physics.AABB) -> list[physics.AABB]:
        return [b for b in self.boxes if b.intersects(region)]
