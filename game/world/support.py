"""What holds a block up: Beta's rules for the blocks that break when their support goes.

Owns: which blocks need support and what supports each (`can_stay`, Beta's `canBlockStay` and the
checks of its `onNeighborBlockChange`), Beta's `isBlockNormalCube` (`NORMAL_CUBE`), and the door
and bed families by id (`DOORS`, `BEDS`, `door_state`, `bed_partner`). Numpy only.
Does not own: when the check runs (`world_ticker.WorldTicker._react` runs it on a neighbour's change,
as Beta does), what a removed block drops (`game.rules.harvest`), or the placement rules
(`game.rules.placement_rules`, which ask `can_stay` of the block about to be placed).

The rules, Beta 1.7.3's (light conditions left out: see `can_stay`):
- a standing torch: a normal cube (or a fence) below; a wall torch or a ladder: a normal cube on the
  side of its cell it lies against (`wall_torch_west`, `ladder_west`: the block at x - 1);
- dandelions, roses, tall grass and saplings: grass or dirt below; mushrooms: an opaque cube below;
- a door's lower half: its upper half above and a normal cube below; the upper half: a door below;
- a bed half: the other half of its bed where it should be.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .blocks import (FULL_CUBE, NAMES, OPAQUE, SIDES, SOLID, block_id)

NORMAL_CUBE = SOLID & OPAQUE & FULL_CUBE
"""Beta's `World.isBlockNormalCube`: an opaque whole cube (stone, dirt, planks, a chest, a furnace;
not glass, leaves, ice, slabs, stairs or fences)."""
NORMAL_CUBE.flags.writeable = False

SIDE_OFFSET = {"north": (0, 0, -1), "south": (0, 0, 1), "east": (1, 0, 0), "west": (-1, 0, 0)}
"""The neighbour on each side of a cell."""

_FENCE = block_id("fence")
_GRASS, _DIRT = block_id("grass"), block_id("dirt")
_TORCH = block_id("torch")
_SOIL_PLANTS = frozenset(block_id(n) for n in ("dandelion", "rose", "tall_grass", "sapling", "sapling_ready"))
"""Beta's `BlockFlower` family: they stand on grass or dirt (`canThisPlantGrowOnThisBlockID`)."""
_MUSHROOMS = frozenset(block_id(n) for n in ("brown_mushroom", "red_mushroom"))
_ON_WALL = {block_id(f"{kind}_{side}"): side for kind in ("wall_torch", "ladder") for side in SIDES}
"""Wall torches and ladders by the side of their cell their wall is on."""

DOORS: dict[int, tuple[str, str, str]] = {
    block_id(f"door_{half}_{facing}_{state}"): (half, facing, state)
    for half in ("lower", "upper") for facing in SIDES for state in ("closed", "open")}
"""Every door half's id -> (half, the way its placer faced, "closed" or "open")."""
BEDS: dict[int, tuple[str, str]] = {block_id(f"bed_{part}_{facing}"): (part, facing)
                                    for part in ("foot", "head") for facing in SIDES}
"""Every bed half's id -> (part, the way its head lies from its foot)."""

NEEDS_SUPPORT = np.zeros(len(NAMES), dtype=bool)
"""The blocks `can_stay` may refuse (every other block always stays)."""
NEEDS_SUPPORT[[_TORCH, *_SOIL_PLANTS, *_MUSHROOMS, *_ON_WALL, *DOORS, *BEDS]] = True
NEEDS_SUPPORT.flags.writeable = False

_BELOW, _ABOVE = (0, -1, 0), (0, 1, 0)


def _leans_on(block: int) -> frozenset[tuple[int, int, int]]:
    """The offsets of the cells block `block` leans on: a change anywhere else cannot unsettle it."""
    if block == _TORCH or block in _SOIL_PLANTS or block in _MUSHROOMS:
        return frozenset((_BELOW,))
    if block in _ON_WALL:
        return frozenset((SIDE_OFFSET[_ON_WALL[block]],))
    if block in DOORS:
        return frozenset((_BELOW,) if DOORS[block][0] == "upper" else (_BELOW, _ABOVE))
    part, facing = BEDS[block]
    dx, _, dz = SIDE_OFFSET[facing]
    return frozenset(((dx, 0, dz),) if part == "foot" else ((-dx, 0, -dz),))


LEANS_ON: dict[int, frozenset[tuple[int, int, int]]] = {
    int(block): _leans_on(int(block)) for block in np.flatnonzero(NEEDS_SUPPORT)}
"""Each block that needs support -> the offsets of the cells `can_stay` reads for it. The world checks a
block only when one of these changes: in Beta every neighbour's change checks, which comes to the
same for every block that stood supported (the checks read only these cells); a block set where
nothing holds it (by a test, or in a world saved before these rules) stays until its support cell changes."""

IdAt = Callable[[int, int, int], int]
"""Reads the block id at a cell (`World.id_at`)."""


def door_name(half: str, facing: str, state: str) -> str:
    """The registry name of a door half."""
    return f"door_{half}_{facing}_{state}"


def bed_partner(block: int, x: int, y: int, z: int) -> tuple[int, int, int]:
    """The cell of the other half of bed half `block` at (x, y, z): the head lies `facing` from the foot."""
    part, facing = BEDS[block]
    dx, _, dz = SIDE_OFFSET[facing]
    sign = 1 if part == "foot" else -1
    return x + sign * dx, y, z + sign * dz


def can_stay(id_at: IdAt, block: int, x: int, y: int, z: int) -> bool:
    """Whether block `block` at (x, y, z) is held up where it is (see the module docstring).
    Beta's flowers and saplings also need light 8 or the sky, and mushrooms light below 13: Boxel
    leaves light out of support (a block never breaks because night fell)."""
    if not NEEDS_SUPPORT[block]:
        return True
    if block == _TORCH:
        below = id_at(x, y - 1, z)
        return bool(NORMAL_CUBE[below]) or below == _FENCE
    if block in _SOIL_PLANTS:
        return id_at(x, y - 1, z) in (_GRASS, _DIRT)
    if block in _MUSHROOMS:
        below = id_at(x, y - 1, z)
        return bool(OPAQUE[below] and FULL_CUBE[below])
    side = _ON_WALL.get(block)
    if side is not None:
        dx, _, dz = SIDE_OFFSET[side]
        return bool(NORMAL_CUBE[id_at(x + dx, y, z + dz)])
    door = DOORS.get(block)
    if door is not None:
        if door[0] == "upper":
            below = DOORS.get(id_at(x, y - 1, z))
            return below is not None and below[0] == "lower"
        above = DOORS.get(id_at(x, y + 1, z))
        return above is not None and above[0] == "upper" and bool(NORMAL_CUBE[id_at(x, y - 1, z)])
    part, facing = BEDS[block]
    partner = BEDS.get(id_at(*bed_partner(block, x, y, z)))
    return partner is not None and partner == ("head" if part == "foot" else "foot", facing)
