"""Beta 1.7.3's placement rules: where torches, ladders, plants, doors, beds, furnaces and chests may go,
and in which form.

Owns: `plan` (the cells and blocks one right click with a block of these families puts down, or
REFUSED) and the families it knows (`handles`). Pure: reads the world's blocks. Whether a click places
anything, bodies and room included, is `targeting.can_place_against` (the caller takes an item only then).
Does not own: the look ray, the plain blocks' placement and the slab and stairs forms
(`game.rules.targeting`, whose `place_against` asks `plan` first), what holds a placed block up later
(`game.world.support`, which `plan` asks of plants), or items (`game.rules.items`).

The rules (Beta's classes named; "normal cube" is `game.world.support.NORMAL_CUBE`):
- torch (`BlockTorch`; holding "torch" or any wall torch): against a top face of a normal cube or a
  fence, a standing torch; against a side face of a normal cube, the wall torch on that wall; else (a
  ceiling, glass, leaves) the first of the new cell's west, east, north and south walls that is a normal
  cube, then a normal cube below; none: refused. Never on a ceiling.
- ladder (`BlockLadder`): against a side face of a normal cube, on that wall; else the first normal cube of
  the new cell's south, north, east and west sides; none: refused.
- dandelion, rose, tall grass, saplings (`BlockFlower`): only over grass or dirt; mushrooms
  (`BlockMushroom`): only over an opaque cube.
- wooden door (`ItemDoor`): only against a top face, in the cell above it and the one above that, over a
  normal cube, facing the way the player faces (`facing_of(yaw)`); Beta's hinge rule: with a door on its
  left and none on its right, or more normal cubes on its right than on its left, it is placed turned a
  quarter back and open (so it shuts the same way its neighbour does).
- bed (`ItemBed`): only against a top face, the foot in the cell above it and the head one further the way
  the player faces, both cells air over normal cubes.
- furnace (`BlockFurnace.onBlockPlacedBy`): its front towards the player (the side opposite their facing).
- chest (`BlockChest.canPlaceBlockAt`): not beside two chests, nor beside a chest already one of a pair.
"""

from __future__ import annotations

import math

from ..world.blocks import OPPOSITE, SIDES, block_id
from ..world.support import DOORS as DOOR_IDS
from ..world.support import NORMAL_CUBE, SIDE_OFFSET, can_stay

Cell = tuple[int, int, int]
Plan = tuple[tuple[Cell, str], ...]

REFUSED: Plan = ()
"""`plan`'s answer when Beta's rules place nothing."""

_QUARTERS = ("south", "west", "north", "east")
"""Beta's yaw quarter floor(yaw * 4 / 360 + 0.5) & 3, as a compass side (`targeting.COMPASS`)."""
_BETA_DOOR_DIRECTION = ("east", "south", "west", "north")
"""Beta's door direction 0..3 (`ItemDoor`: floor((yaw + 180) * 4 / 360 - 0.5) & 3) as the facing it names."""
_WALL_OF_NORMAL = {(0, 0, 1): "north", (0, 0, -1): "south", (1, 0, 0): "west", (-1, 0, 0): "east"}
"""A side face's outward normal -> the side of the new cell the clicked block (its wall) is on."""
_TORCH_FALLBACK = ("west", "east", "north", "south")
"""Beta's `BlockTorch.onBlockAdded` order of walls (metadata 1, 2, 3, 4), before the floor."""
_LADDER_FALLBACK = ("south", "north", "east", "west")
"""Beta's `BlockLadder.onBlockPlaced` order of walls (metadata 2, 3, 4, 5)."""

TORCHES = frozenset(("torch", *(f"wall_torch_{side}" for side in SIDES)))
LADDERS = frozenset(f"ladder_{side}" for side in SIDES)
DOORS = frozenset(f"door_{half}_{facing}_{state}" for half in ("lower", "upper") for facing in SIDES
                  for state in ("closed", "open"))
BEDS = frozenset(f"bed_{part}_{facing}" for part in ("foot", "head") for facing in SIDES)
FURNACES = frozenset(f"{lit}furnace_{side}" for lit in ("", "lit_") for side in SIDES)
PLANTS = frozenset(("dandelion", "rose", "tall_grass", "sapling", "sapling_ready", "brown_mushroom",
                    "red_mushroom"))
_FAMILIES = TORCHES | LADDERS | DOORS | BEDS | FURNACES | PLANTS | {"chest"}
_FENCE = block_id("fence")
_CHEST = block_id("chest")
_AIR = block_id("air")


def handles(block_name: str) -> bool:
    """Whether `plan` decides where and how `block_name` (a held block) goes."""
    return block_name in _FAMILIES


def quarter_facing(yaw: float) -> str:
    """The compass side a player with Minecraft yaw `yaw` [degrees] faces, by Beta's
    floor(yaw * 4 / 360 + 0.5) & 3 (`targeting.facing_of`'s rule)."""
    return _QUARTERS[math.floor(yaw * 4.0 / 360.0 + 0.5) & 3]


def plan(world, target_block: Cell, face: Cell, block_name: str, yaw: float) -> Plan | None:
    """What a right click with `block_name` against face `face` (outward normal) of `target_block` puts
    down, by a player facing `yaw` [degrees]: ((cell, block), ...) in the order Beta sets them (a door's
    lower half first, a bed's foot first), REFUSED (empty) when Beta's rules refuse, None for a block
    these rules do not handle (`handles`). Cells are not checked for room or bodies here
    (`targeting.place_against` does that)."""
    if not handles(block_name):
        return None
    ids = _reader(world)
    x, y, z = target_block
    nx, ny, nz = face
    cell = (x + nx, y + ny, z + nz)
    if block_name in TORCHES:
        return _torch(ids, target_block, face, cell)
    if block_name in LADDERS:
        return _ladder(ids, face, cell)
    if block_name in PLANTS:
        return ((cell, block_name),) if can_stay(ids, block_id(block_name), *cell) else REFUSED
    if block_name in FURNACES:
        return ((cell, f"furnace_{OPPOSITE[quarter_facing(yaw)]}"),)
    if block_name == "chest":
        return ((cell, "chest"),) if _chest_fits(ids, cell) else REFUSED
    if ny != 1:
        return REFUSED  # doors and beds go only on a top face
    if block_name in DOORS:
        return _door(ids, cell, yaw)
    return _bed(ids, cell, yaw)


def _reader(world):
    """A block id reader over the world's `get_block` (names: every world the rules place in has it)."""
    return lambda x, y, z: block_id(world.get_block(x, y, z))


def _offset(cell: Cell, side: str, up: int = 0) -> Cell:
    dx, _, dz = SIDE_OFFSET[side]
    return (cell[0] + dx, cell[1] + up, cell[2] + dz)


def _torch(ids, target_block: Cell, face: Cell, cell: Cell) -> Plan:
    clicked = ids(*target_block)
    if face == (0, 1, 0) and (NORMAL_CUBE[clicked] or clicked == _FENCE):
        return ((cell, "torch"),)
    wall = _WALL_OF_NORMAL.get(face)
    if wall is not None and NORMAL_CUBE[clicked]:
        return ((cell, f"wall_torch_{wall}"),)
    for side in _TORCH_FALLBACK:
        if NORMAL_CUBE[ids(*_offset(cell, side))]:
            return ((cell, f"wall_torch_{side}"),)
    below = ids(cell[0], cell[1] - 1, cell[2])
    return ((cell, "torch"),) if NORMAL_CUBE[below] or below == _FENCE else REFUSED


def _ladder(ids, face: Cell, cell: Cell) -> Plan:
    wall = _WALL_OF_NORMAL.get(face)
    if wall is not None and NORMAL_CUBE[ids(*_offset(cell, wall))]:
        return ((cell, f"ladder_{wall}"),)
    for side in _LADDER_FALLBACK:
        if NORMAL_CUBE[ids(*_offset(cell, side))]:
            return ((cell, f"ladder_{side}"),)
    return REFUSED


def _chest_fits(ids, cell: Cell) -> bool:
    beside = [_offset(cell, side) for side in SIDES if ids(*_offset(cell, side)) == _CHEST]
    if len(beside) > 1:
        return False
    return not any(ids(*_offset(other, side)) == _CHEST for other in beside for side in SIDES)


def _door(ids, lower: Cell, yaw: float) -> Plan:
    x, y, z = lower
    if not NORMAL_CUBE[ids(x, y - 1, z)]:
        return REFUSED
    direction = (_QUARTERS.index(quarter_facing(yaw)) + 1) & 3  # Beta's ItemDoor direction
    # Beta's hinge: the cells to the door's left (-) and right (+) along its width.
    b0, b1 = ((0, 1), (-1, 0), (0, -1), (1, 0))[direction]
    left, right = (x - b0, y, z - b1), (x + b0, y, z + b1)
    normals_left = int(NORMAL_CUBE[ids(*left)]) + int(NORMAL_CUBE[ids(left[0], y + 1, left[2])])
    normals_right = int(NORMAL_CUBE[ids(*right)]) + int(NORMAL_CUBE[ids(right[0], y + 1, right[2])])
    door_left = _is_door(ids(*left)) or _is_door(ids(left[0], y + 1, left[2]))
    door_right = _is_door(ids(*right)) or _is_door(ids(right[0], y + 1, right[2]))
    state = "closed"
    if (door_left and not door_right) or normals_right > normals_left:
        direction, state = (direction - 1) & 3, "open"
    facing = _BETA_DOOR_DIRECTION[direction]
    return ((lower, f"door_lower_{facing}_{state}"), ((x, y + 1, z), f"door_upper_{facing}_{state}"))


def _is_door(block: int) -> bool:
    return block in DOOR_IDS


def _bed(ids, foot: Cell, yaw: float) -> Plan:
    facing = quarter_facing(yaw)
    head = _offset(foot, facing)
    for cell in (foot, head):
        if ids(*cell) != _AIR or not NORMAL_CUBE[ids(cell[0], cell[1] - 1, cell[2])]:
            return REFUSED
    return ((foot, f"bed_foot_{facing}"), (head, f"bed_head_{facing}"))
