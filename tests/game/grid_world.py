"""`grid_world`: a `game.rules.game_world.GameWorld` whose collision world is a given `physics.BlockGrid`,
for tests of one rule (projectiles, falling blocks) that build their scene from collision shapes
rather than registry blocks. It is the lab's `Arena` (its null parts: no light, a ticker that only
moves the clock, entities kept in memory) with `grid` for its bodies: its blocks, by name, are air."""

from __future__ import annotations

import physics
from game.world.lab import Arena


def grid_world(grid: physics.BlockGrid | None = None) -> Arena:
    """An empty arena whose collision grid is `grid` (a new empty one when None)."""
    world = Arena()
    if grid is not None:
        world.grid = grid
    return world
