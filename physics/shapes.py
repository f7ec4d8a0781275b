"""Collision shapes of blocks: tuples of block-local AABBs inside (or above) the unit cell.

Owns: the geometry of every block shape physics knows, in block-local coordinates
(0..1 on each axis, except the fence which rises to 1.5 as in Beta).
Does not own: which block uses which shape (that is the game's block registry).

Facing of stairs: the side you walk toward to climb them. `STAIRS_EAST` rises toward +X.
Minecraft's compass: north is -Z, south is +Z, east is +X, west is -X.
"""

from __future__ import annotations

import math
import numbers

from .aabb import AABB
from .messages import shown

Shape = tuple[AABB, ...]

FULL_CUBE: Shape = (AABB(0.0, 0.0, 0.0, 1.0, 1.0, 1.0),)
SLAB: Shape = (AABB(0.0, 0.0, 0.0, 1.0, 0.5, 1.0),)
"""Lower half slab (Beta's `BlockStep`)."""
TOP_SLAB: Shape = (AABB(0.0, 0.5, 0.0, 1.0, 1.0, 1.0),)
FENCE: Shape = (AABB(0.0, 0.0, 0.0, 1.0, 1.5, 1.0),)
"""Beta's fence collides as the whole cell, 1.5 blocks tall, so it cannot be jumped."""
CARPET: Shape = (AABB(0.0, 0.0, 0.0, 1.0, 0.0625, 1.0),)
"""One pixel (1/16 block) tall."""
EMPTY: Shape = ()

# Beta's `BlockStairs`: a half-height half on the low side and a full-height half on the high side.
STAIRS_EAST: Shape = (AABB(0.0, 0.0, 0.0, 0.5, 0.5, 1.0), AABB(0.5, 0.0, 0.0, 1.0, 1.0, 1.0))
STAIRS_WEST: Shape = (AABB(0.5, 0.0, 0.0, 1.0, 0.5, 1.0), AABB(0.0, 0.0, 0.0, 0.5, 1.0, 1.0))
STAIRS_SOUTH: Shape = (AABB(0.0, 0.0, 0.0, 1.0, 0.5, 0.5), AABB(0.0, 0.0, 0.5, 1.0, 1.0, 1.0))
STAIRS_NORTH: Shape = (AABB(0.0, 0.0, 0.5, 1.0, 0.5, 1.0), AABB(0.0, 0.0, 0.0, 1.0, 1.0, 0.5))

STAIRS: dict[str, Shape] = {
    "north": STAIRS_NORTH,
    "south": STAIRS_SOUTH,
    "east": STAIRS_EAST,
    "west": STAIRS_WEST,
}
"""Stairs shapes by facing."""

SOUL_SAND: Shape = (AABB(0.0, 0.0, 0.0, 1.0, 0.875, 1.0),)
"""Beta's `BlockSoulSand`: 1/8 lower than a full block, so a body standing on it sinks in."""
CACTUS: Shape = (AABB(1.0 / 16.0, 0.0, 1.0 / 16.0, 15.0 / 16.0, 15.0 / 16.0, 15.0 / 16.0),)
"""Beta's `BlockCactus`: inset 1/16 on every side and at the top, so a body pressed against it
overlaps its cell (and the contact pass finds it)."""

LADDER_THICKNESS = 0.125
"""[blocks] Beta's `BlockLadder` box thickness (0.125F)."""

LADDER: dict[str, Shape] = {
    "north": (AABB(0.0, 0.0, 0.0, 1.0, 1.0, LADDER_THICKNESS),),
    "south": (AABB(0.0, 0.0, 1.0 - LADDER_THICKNESS, 1.0, 1.0, 1.0),),
    "west": (AABB(0.0, 0.0, 0.0, LADDER_THICKNESS, 1.0, 1.0),),
    "east": (AABB(1.0 - LADDER_THICKNESS, 0.0, 0.0, 1.0, 1.0, 1.0),),
}
"""Ladder shapes by the side of the cell the ladder lies against: "north" against the -Z side
(z 0..0.125), "south" against +Z, "west" against -X, "east" against +X."""

MAX_SHAPE_TOP = 1.5
"""[blocks] The highest any shape reaches above its cell's floor (the fence). Worlds use it to
know how far below a query region a block may still reach into it."""


def placed(shape: Shape, x: int, y: int, z: int) -> tuple[AABB, ...]:
    """The shape's boxes moved to block (x, y, z), in world coordinates. TypeError for a shape
    that is not AABBs or a cell that is not numbers, ValueError for a cell that is not finite
    (10**400 included)."""
    for v in (x, y, z):
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise TypeError(f"a block cell is three numbers, got {shown((x, y, z))}")
        try:
            finite = math.isfinite(v)
        except OverflowError:  # an int beyond floats
            finite = False
        if not finite:
            raise ValueError(f"a block cell must be finite, got {shown((x, y, z))}")
    shape = tuple(shape)
    for box in shape:
        if not isinstance(box, AABB):
            raise TypeError(f"a shape is a tuple of AABB, got {shown(box)}")
    return tuple(AABB._trusted(b[0] + x, b[1] + y, b[2] + z, b[3] + x, b[4] + y, b[5] + z) for b in shape)

DOOR_THICKNESS = 0.1875
"""[blocks] Beta's `BlockDoor` slab thickness (`setDoorRotation`: f = 0.1875F, exact in binary)."""

DOOR: dict[str, Shape] = {
    "north": (AABB(0.0, 0.0, 0.0, 1.0, 1.0, DOOR_THICKNESS),),
    "south": (AABB(0.0, 0.0, 1.0 - DOOR_THICKNESS, 1.0, 1.0, 1.0),),
    "west": (AABB(0.0, 0.0, 0.0, DOOR_THICKNESS, 1.0, 1.0),),
    "east": (AABB(1.0 - DOOR_THICKNESS, 0.0, 0.0, 1.0, 1.0, 1.0),),
}
"""One door half's shape by the side of its cell the slab lies on (as `LADDER`): "north" is Beta's
`setDoorRotation(0)` (z 0..3/16), "east" its 1, "south" its 2, "west" its 3."""

BED_HEIGHT = 0.5625
"""[blocks] Beta's `BlockBed` height (`setBlockBounds(0, 0, 0, 1, 0.5625F, 1)`: 9/16, exact)."""
BED: Shape = (AABB(0.0, 0.0, 0.0, 1.0, BED_HEIGHT, 1.0),)
"""Either half of a bed: the whole cell 9/16 tall."""
