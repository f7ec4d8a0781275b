"""A pinned ten-second run over a fixed arena. Update the pinned values only on purpose.

If this fails after a change, the movement changed: check the Beta scenario tests first, then
re-pin by printing `final.box`, `final.velocity` and the flags and pasting them here.
"""

import physics
from physics import Intent, shapes

from .worlds import EAST_YAW, SOUTH_EAST_YAW, floor, standing

TICKS_PER_SECOND = 20


def arena():
    grid = floor(x0=-10, x1=40, z0=-10, z1=40)
    grid.fill(4, 64, -10, 6, 64, 40, shapes.SLAB)
    grid.fill(7, 64, -10, 7, 64, 40, shapes.STAIRS_EAST)
    grid.fill(8, 64, -10, 12, 64, 40)
    grid.fill(16, 64, -10, 16, 65, 40)
    grid.fill(13, 64, 8, 15, 64, 40, slipperiness=0.98)
    return grid


def script():
    """Walk east over slab and stairs, sprint-jump south-east over the wall from the platform, sneak, coast."""
    return ([Intent(forward=1.0, yaw=EAST_YAW)] * 60
            + [Intent(forward=1.0, yaw=EAST_YAW, jump=True)] * 20
            + [Intent(forward=1.0, yaw=SOUTH_EAST_YAW, sprint=True, jump=True)] * 40
            + [Intent(forward=1.0, strafe=1.0, yaw=0.0, sneak=True)] * 40
            + [Intent()] * 40)


def test_a_ten_second_scripted_run_ends_in_the_pinned_state():
    grid = arena()
    body = standing(grid)
    intents = script()
    assert len(intents) == 10 * TICKS_PER_SECOND
    for intent in intents:
        body = physics.step(body, grid, intent)
    assert body.box == PINNED_BOX
    assert body.velocity == PINNED_VELOCITY
    assert (body.on_ground, body.collided_horizontally, body.collided_vertically) == PINNED_FLAGS


PINNED_BOX = physics.AABB(17.1109122072687, 64.0, 13.18655719055227, 17.710912207268706, 65.8, 13.786557190552271)
PINNED_VELOCITY = (2.3296152724735778e-11, -0.0784000015258789, 2.3296153128178863e-11)
PINNED_FLAGS = (True, False, True)
