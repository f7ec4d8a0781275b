"""Wooden doors: opening and shutting one with a right click (Beta 1.7.3's `BlockDoor.blockActivated`).

Owns: `toggle_door` (both halves swing together) and `is_door`. Pure: works on any world with
`get_block` and `set_block` (`targeting.BlockWorld`).
Does not own: the door blocks and their shapes (`game.world.blocks`: a door's collision box is its
block's, so physics, mobs and players see a door swing at once), placing a door
(`game.rules.placement_rules`), or a half breaking with the other (`game.world.support`: each half
needs the other, so breaking one breaks both through the world's neighbour updates).
"""

from __future__ import annotations

from ..world.blocks import block_id
from ..world.support import DOORS, door_name

_OTHER_STATE = {"closed": "open", "open": "closed"}


def is_door(block_name: str) -> bool:
    """Whether `block_name` is either half of a door, in any state."""
    return block_id(block_name) in DOORS


def toggle_door(world, cell) -> bool:
    """Open a shut door or shut an open one at `cell` (either half): Beta's `blockActivated`. The lower
    half decides: its facing is kept and its state flipped, the upper half set to match first, then the
    lower (Beta's order). True when `cell` holds a door (the click is used up, as in Beta, even on an
    upper half with no lower half under it, which changes nothing); False for any other block."""
    x, y, z = (int(v) for v in cell)
    here = DOORS.get(block_id(world.get_block(x, y, z)))
    if here is None:
        return False
    if here[0] == "upper":
        y -= 1
        lower = DOORS.get(block_id(world.get_block(x, y, z))) if world.can_hold(x, y, z) else None
        if lower is None or lower[0] != "lower":
            return True
    _, facing, state = DOORS[block_id(world.get_block(x, y, z))]
    flipped = _OTHER_STATE[state]
    above = DOORS.get(block_id(world.get_block(x, y + 1, z))) if world.can_hold(x, y + 1, z) else None
    if above is not None and above[0] == "upper":
        world.set_block(x, y + 1, z, door_name("upper", facing, flipped))
    world.set_block(x, y, z, door_name("lower", facing, flipped))
    return True
