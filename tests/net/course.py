"""The prediction tests' course and script: a lane south of the spawn through a water pool and up a
ladder, built on the server's world before anyone joins, and a minute of inputs that walks, jumps,
swims, climbs, sneaks, sprints and flies along it. `LaggyLink` (a simulated one-way link of the
proxy's delay and jitter, order kept, for the tests that run without sockets) is the bench's."""

from __future__ import annotations

import math

from bench.bench_server import LaggyLink  # noqa: F401 (the tests' simulated link)
from game.rules.player import spawn_body
from game.rules.replay import KeyDown, KeyUp, Look

POOL_Z = (3, 6)
"""[blocks from the spawn] The pool's first and last z (3 wide in x, 2 deep)."""
LADDER_Z = 11
"""[blocks from the spawn] The ladder's cells, against the wall at LADDER_Z + 1 (4 high)."""
LANE_END_Z = 16
WALL_HEIGHT = 4
CYCLE_TICKS = 300
"""[ticks] One lap of the script; a minute is four."""


def build_course(world) -> tuple[int, int, int]:
    """Build the lane (a stone floor with air above), the pool and the ladder wall at the spawn
    of `world`; the spawn cell (x, y, z) the player's feet are in."""
    feet = spawn_body(world).feet
    x0, y0, z0 = math.floor(feet[0]), math.floor(feet[1]), math.floor(feet[2])
    for x in range(x0 - 3, x0 + 4):
        for z in range(z0 - 3, z0 + LANE_END_Z + 1):
            for y in range(y0 - 4, y0 + 7):
                world.set_block(x, y, z, "stone" if y < y0 else "air")
    for x in range(x0 - 1, x0 + 2):
        for z in range(z0 + POOL_Z[0], z0 + POOL_Z[1] + 1):
            for y in (y0 - 2, y0 - 1):
                world.set_block(x, y, z, "water")
    for x in range(x0 - 3, x0 + 4):
        for y in range(y0, y0 + WALL_HEIGHT):
            world.set_block(x, y, z0 + LADDER_Z + 1, "stone")
    for y in range(y0, y0 + WALL_HEIGHT):
        world.set_block(x0, y, z0 + LADDER_Z, "ladder_south")
    return x0, y0, z0


def lap(start: int) -> list:
    """One lap of inputs from tick `start`: south along the lane jumping now and then (through the
    pool, swimming up with space, out, up the ladder), back north sneaking then sprinting (w twice),
    a flight (f) up and along, then down and f again to fall."""
    t = start
    events = [Look(t, 0.0, 0.0), KeyDown(t, "w")]
    for jump in (15, 60, 75, 140):
        events += [KeyDown(t + jump, "space"), KeyUp(t + jump + 8, "space")]
    events += [KeyDown(t + 30, "space"), KeyUp(t + 50, "space")]  # swim up out of the pool
    events += [KeyUp(t + 150, "w"), Look(t + 151, 180.0, 10.0), KeyDown(t + 152, "left shift"), KeyDown(t + 152, "w"),
               KeyUp(t + 180, "left shift"), KeyUp(t + 181, "w"), KeyDown(t + 183, "w"), KeyUp(t + 184, "w"),
               KeyDown(t + 186, "w"), KeyUp(t + 215, "w")]
    events += [Look(t + 220, 30.0, -20.0), KeyDown(t + 221, "f"), KeyUp(t + 222, "f"), KeyDown(t + 222, "space"),
               KeyDown(t + 230, "w"), KeyUp(t + 240, "space"), KeyUp(t + 260, "w"), KeyDown(t + 262, "left shift"),
               KeyUp(t + 270, "left shift"), KeyDown(t + 271, "f"), KeyUp(t + 272, "f"), Look(t + 290, 0.0, 0.0)]
    return sorted(events, key=lambda event: event.tick)


def script(ticks: int) -> list:
    """Laps of `lap` for `ticks` ticks."""
    return [event for start in range(0, ticks, CYCLE_TICKS) for event in lap(start) if event.tick < ticks]
