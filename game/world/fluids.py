"""Flowing water and lava: Beta 1.7.3's fluid block rules (`BlockFlowing`, `BlockStationary`,
`BlockFluid`), run by the world's scheduled block updates. numpy only for the registry arrays.

Owns: what one scheduled fluid update does (spread sideways and down, decay when cut off from a
source, a new source between two sources), how fluids react when a neighbour changes (lava next to
water hardens), the current a fluid cell pushes bodies with (`flow_vector`), and the tick rates.
Does not own: the queue of updates (`block_updates.py`) or the blocks themselves: it reads and
writes through a `BlockAccess` (the `World`).

Levels are Beta's metadata (`blocks.FLUID_LEVEL`): 0 a source, 1-7 the distance flowed from one
(a step costs 1 for water, 2 for lava), 8-15 falling. Beta keeps a settled fluid as a separate
"stationary" block id; here a fluid cell with no pending update *is* stationary, and a fluid whose
neighbour changes is scheduled again unless it already has an update pending, which is what
Beta's stationary-to-flowing switch and its one-entry-per-block queue come to.

Beta's order of operations is kept: neighbours in the order -x, +x, -z, +z for levels and for
spreading, the six-neighbour notify order -x, +x, -y, +y, -z, +z (in `world.py`), and writes take
effect at once, so an update later in the same tick sees what an earlier one wrote.
"""

from __future__ import annotations

import math
from typing import Protocol

import numpy as np

from physics.materials import Material

from .blocks import AIR, FLUID_LEVEL, LAVA_IDS, MATERIAL, SOLID, WATER_IDS, block_id

WATER_TICKS = 5
"""[ticks] Delay of a water update (Beta's `BlockFluid.tickRate` for water)."""
LAVA_TICKS = 30
"""[ticks] Delay of a lava update in the overworld (Beta's `tickRate` for lava)."""
FLOW_SEARCH_STEPS = 4
"""[blocks] How far sideways a spreading fluid looks for a way down (Beta's `calculateFlowCost` depth)."""
NO_WAY_DOWN = 1000
"""Flow cost of a direction with no way down within FLOW_SEARCH_STEPS (Beta's 1000)."""
OBSIDIAN = block_id("obsidian")
COBBLESTONE = block_id("cobblestone")
STONE = block_id("stone")
_ICE = block_id("ice")

_WATER, _LAVA, _LADDER = int(Material.WATER), int(Material.LAVA), int(Material.LADDER)
BLOCKS_FLOW = np.array(SOLID, copy=True)
"""Blocks that stop a fluid (Beta's `blockBlocksFlow`): anything with a collision box, ladders
included. Air, fluids, torches, plants and cobwebs do not, and are washed away."""
SOLID_MATERIAL = SOLID & (MATERIAL != _LADDER)
"""Beta's `Material.isSolid()`: a block a new source can form on (ladders are not solid there)."""
for _array in (BLOCKS_FLOW, SOLID_MATERIAL):
    _array.flags.writeable = False
_MATERIAL_OF = [int(m) for m in MATERIAL]
_LEVEL_OF = FLUID_LEVEL.tolist()
_SOLID_MATERIAL_OF = SOLID_MATERIAL.tolist()
"""The same tables as lists, for the per-update rules (a list index is several times faster than a
numpy scalar read)."""

PLACED_AS = np.where(np.isin(MATERIAL, (_WATER, _LAVA)), -1 - MATERIAL.astype(np.int64), np.arange(len(MATERIAL)))
PLACED_AS.flags.writeable = False
"""What counts as the same block for Beta's `onBlockAdded`: a fluid at any level is one block (a
level change is a metadata change); every other id is its own. A write that changes it notifies the
written cell itself as well as its neighbours."""

_SIDES = ((-1, 0), (1, 0), (0, -1), (0, 1))
"""Beta's fluid directions 0..3: -x, +x, -z, +z."""
_REVERSE = (1, 0, 3, 2)


class BlockAccess(Protocol):
    """What the fluid rules need of a world (the `World` implements it)."""

    def id_at(self, x: int, y: int, z: int) -> int: ...

    def ids_in_box(self, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int) -> np.ndarray:
        """The ids of [x0, x1) x [y0, y1) x [z0, z1), indexed [x, y, z]."""

    def set_id(self, x: int, y: int, z: int, block: int) -> object:
        """Write the block and run the neighbour notifications (Beta's `...WithNotify`)."""

    def schedule_update(self, x: int, y: int, z: int, kind: str, delay_ticks: int) -> None:
        """Queue an update of `kind` (unless one is pending there) `delay_ticks` from now."""

    def one_in_four(self, x: int, y: int, z: int) -> bool:
        """A deterministic coin with a 1/4 chance of True for this cell and tick (Beta's `nextInt(4) == 0`)."""


class Fluid:
    """The rules of one fluid (water or lava)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.material = _WATER if kind == "water" else _LAVA
        self.ids = WATER_IDS if kind == "water" else LAVA_IDS
        self.step = 1 if kind == "water" else 2
        """Level cost of one block sideways (Beta's `byte0`)."""
        self.tick_rate = WATER_TICKS if kind == "water" else LAVA_TICKS

    # --- reading ------------------------------------------------------------------------------

    def level(self, world: BlockAccess, x: int, y: int, z: int) -> int:
        """Beta's `getFlowDecay`: this fluid's level at the cell, -1 if it holds something else."""
        block = world.id_at(x, y, z)
        return int(FLUID_LEVEL[block]) if MATERIAL[block] == self.material else -1

    def _can_displace(self, world: BlockAccess, x: int, y: int, z: int) -> bool:
        """Beta's `liquidCanDisplaceBlock`: not this fluid, not lava, and nothing that stops flow."""
        block = world.id_at(x, y, z)
        material = MATERIAL[block]
        return material != self.material and material != _LAVA and not BLOCKS_FLOW[block]

    def _passable(self, world: BlockAccess, x: int, y: int, z: int) -> bool:
        """A cell a spreading fluid may cross while looking for a way down: it does not stop the
        flow and is not a source of this fluid."""
        block = world.id_at(x, y, z)
        return not BLOCKS_FLOW[block] and not (MATERIAL[block] == self.material and FLUID_LEVEL[block] == 0)

    # --- the scheduled update ---------------------------------------------------------------------

    def update(self, world: BlockAccess, x: int, y: int, z: int) -> None:
        """One scheduled update of the fluid at (x, y, z) (Beta's `BlockFlowing.updateTick`)."""
        level = self.level(world, x, y, z)
        if level < 0:
            return
        if level > 0:
            new_level = self.next_level(
                level, [world.id_at(x + dx, y, z + dz) for dx, dz in _SIDES], world.id_at(x, y + 1, z),
                world.id_at(x, y - 1, z), lambda: world.one_in_four(x, y, z))
            if new_level != level:  # otherwise it has settled: Beta's "stationary" is no update pending
                level = new_level
                if level < 0:
                    world.set_id(x, y, z, AIR)
                else:
                    world.set_id(x, y, z, int(self.ids[level]))
                    world.schedule_update(x, y, z, self.kind, self.tick_rate)
        if self._can_displace(world, x, y - 1, z):
            if self.material == _LAVA and MATERIAL[world.id_at(x, y - 1, z)] == _WATER:
                world.set_id(x, y - 1, z, STONE)  # lava falling onto water
                return
            world.set_id(x, y - 1, z, int(self.ids[level if level >= 8 else level + 8]))
        elif level >= 0 and (level == 0 or BLOCKS_FLOW[world.id_at(x, y - 1, z)]):
            spread_level = 1 if level >= 8 else level + self.step
            if spread_level >= 8:
                return
            for direction in self.flow_directions(world, x, y, z):
                dx, dz = _SIDES[direction]
                self._flow_into(world, x + dx, y, z + dz, spread_level)

    def next_level(self, level: int, sides: list[int], above: int, below: int, coin) -> int:
        """The level a flowing cell (level 1..15) takes in its update, from the blocks on its four
        sides (in the order -x, +x, -z, +z), above and below it: one step more than its lowest
        neighbour of this fluid (falling counts as 0), dry (-1) past 7 or with none; falling
        (8 + level) under this fluid; a new water source between two sources over solid ground;
        lava keeps its level three times in four (`coin()` is the one-in-four draw, called only then)."""
        smallest, sources = -100, 0
        for block in sides:
            if _MATERIAL_OF[block] != self.material:
                continue
            side = _LEVEL_OF[block]
            if side == 0:
                sources += 1
            if side >= 8:
                side = 0
            if not (smallest >= 0 and side >= smallest):
                smallest = side
        new_level = smallest + self.step
        if new_level >= 8 or smallest < 0:
            new_level = -1
        if _MATERIAL_OF[above] == self.material:
            above_level = _LEVEL_OF[above]
            new_level = above_level if above_level >= 8 else above_level + 8
        if sources >= 2 and self.material == _WATER and _SOLID_MATERIAL_OF[below]:
            new_level = 0  # (Beta also tests for water below a source here, which never holds when level > 0)
        if self.material == _LAVA and level < 8 and new_level < 8 and new_level > level and not coin():
            new_level = level
        return new_level

    def _flow_into(self, world: BlockAccess, x: int, y: int, z: int, level: int) -> None:
        """Beta's `flowIntoBlock`: fill the cell if the fluid can displace what is there (a torch,
        a plant or a web is washed away)."""
        if self._can_displace(world, x, y, z):
            world.set_id(x, y, z, int(self.ids[level]))

    def flow_directions(self, world: BlockAccess, x: int, y: int, z: int) -> list[int]:
        """Beta's `getOptimalFlowDirections`: the directions (0..3 = -x, +x, -z, +z) toward the
        nearest way down within FLOW_SEARCH_STEPS; all four when there is none (every cost is then
        NO_WAY_DOWN, blocked directions' too, so all tie, as in Beta; a blocked one is not flowed into).

        Reads the blocks around the cell in one window: where no cell the search could reach has
        a way down (the common case on open ground) the answer is all four at once; otherwise
        Beta's search runs on the window (`flow_directions_reference` is the same search reading
        the world cell by cell; tests check they agree)."""
        if not any(self._passable(world, x + dx, y, z + dz) for dx, dz in _SIDES):
            return [0, 1, 2, 3]  # boxed in (say, a source inside a lake): every cost is NO_WAY_DOWN
        reach = FLOW_SEARCH_STEPS + 1
        window = world.ids_in_box(x - reach, y - 1, z - reach, x + reach + 1, y + 1, z + reach + 1)
        layer, floor = window[:, 1, :], window[:, 0, :]
        passable = ~BLOCKS_FLOW[layer] & ~((MATERIAL[layer] == self.material) & (FLUID_LEVEL[layer] == 0))
        way_down = passable & ~BLOCKS_FLOW[floor]
        if not (way_down & _WITHIN_REACH).any():
            return [0, 1, 2, 3]
        return _search(passable.tolist(), way_down.tolist(), reach)

    def flow_directions_reference(self, world: BlockAccess, x: int, y: int, z: int) -> list[int]:
        """`flow_directions` as Beta writes it, one world read per cell visited."""
        costs = [NO_WAY_DOWN] * 4
        for direction, (dx, dz) in enumerate(_SIDES):
            nx, nz = x + dx, z + dz
            if not self._passable(world, nx, y, nz):
                continue
            if not BLOCKS_FLOW[world.id_at(nx, y - 1, nz)]:
                costs[direction] = 0
            else:
                costs[direction] = self._flow_cost(world, nx, y, nz, 1, direction)
        best = min(costs)
        return [direction for direction in range(4) if costs[direction] == best]

    def _flow_cost(self, world: BlockAccess, x: int, y: int, z: int, steps: int, came: int) -> int:
        """Beta's `calculateFlowCost`: the fewest further steps from (x, y, z) to a cell with no
        floor, never turning straight back, up to FLOW_SEARCH_STEPS; NO_WAY_DOWN if none."""
        cost = NO_WAY_DOWN
        for direction, (dx, dz) in enumerate(_SIDES):
            if direction == _REVERSE[came]:
                continue
            nx, nz = x + dx, z + dz
            if not self._passable(world, nx, y, nz):
                continue
            if not BLOCKS_FLOW[world.id_at(nx, y - 1, nz)]:
                return steps
            if steps >= FLOW_SEARCH_STEPS:
                continue
            cost = min(cost, self._flow_cost(world, nx, y, nz, steps + 1, direction))
        return cost

    # --- reacting to neighbours -------------------------------------------------------------------

    def harden(self, world: BlockAccess, x: int, y: int, z: int) -> bool:
        """Beta's `checkForHarden`: lava touching water on a side or from above turns to obsidian (a
        source) or cobblestone (levels 1-4); True when it did. Water never hardens."""
        if self.material != _LAVA:
            return False
        block = world.id_at(x, y, z)
        if MATERIAL[block] != _LAVA:
            return False
        if not any(MATERIAL[world.id_at(x + dx, y + dy, z + dz)] == _WATER
                   for dx, dy, dz in ((0, 0, -1), (0, 0, 1), (-1, 0, 0), (1, 0, 0), (0, 1, 0))):
            return False
        level = int(FLUID_LEVEL[block])
        if level == 0:
            world.set_id(x, y, z, OBSIDIAN)
        elif level <= 4:
            world.set_id(x, y, z, COBBLESTONE)
        else:
            return False
        return True


_REACH = FLOW_SEARCH_STEPS + 1
_OFFSETS = np.arange(-_REACH, _REACH + 1)
_WITHIN_REACH = (np.abs(_OFFSETS)[:, None] + np.abs(_OFFSETS)[None, :]) <= _REACH
"""Cells of the search window (x, z offsets) the search can reach: a neighbour, then up to
FLOW_SEARCH_STEPS steps (Manhattan distance at most FLOW_SEARCH_STEPS + 1)."""


def _search(passable: list[list[bool]], way_down: list[list[bool]], centre: int) -> list[int]:
    """Beta's `getOptimalFlowDirections` and `calculateFlowCost` on a window's [x][z] lists, the
    fluid's cell at [centre][centre]."""

    def cost(i: int, k: int, steps: int, came: int) -> int:
        best = NO_WAY_DOWN
        for direction, (dx, dz) in enumerate(_SIDES):
            if direction == _REVERSE[came]:
                continue
            ni, nk = i + dx, k + dz
            if not passable[ni][nk]:
                continue
            if way_down[ni][nk]:
                return steps
            if steps >= FLOW_SEARCH_STEPS:
                continue
            best = min(best, cost(ni, nk, steps + 1, direction))
        return best

    costs = [NO_WAY_DOWN] * 4
    for direction, (dx, dz) in enumerate(_SIDES):
        i, k = centre + dx, centre + dz
        if passable[i][k]:
            costs[direction] = 0 if way_down[i][k] else cost(i, k, 1, direction)
    best = min(costs)
    return [direction for direction in range(4) if costs[direction] == best]


WATER = Fluid("water")
LAVA = Fluid("lava")
FLUIDS = {"water": WATER, "lava": LAVA}


def fluid_of(block: int) -> Fluid | None:
    """The fluid whose block this is, or None."""
    material = MATERIAL[block]
    if material == _WATER:
        return WATER
    if material == _LAVA:
        return LAVA
    return None


def flow_vector(world: BlockAccess, x: int, y: int, z: int) -> tuple[float, float, float]:
    """Beta's `BlockFluid.getFlowVector`: the unit current of the fluid cell at (x, y, z) (zero where
    the level is even all around, or for a cell that is not a fluid), in doubles as Beta."""
    fluid = fluid_of(world.id_at(x, y, z))
    if fluid is None:
        return (0.0, 0.0, 0.0)
    here = _effective_level(fluid, world, x, y, z)
    vx = vy = vz = 0.0
    for dx, dz in ((-1, 0), (0, -1), (1, 0), (0, 1)):  # Beta's order for the vector
        side = _effective_level(fluid, world, x + dx, y, z + dz)
        if side < 0:
            if SOLID_MATERIAL[world.id_at(x + dx, y, z + dz)]:  # Beta's Material.getIsSolid walls it
                continue
            below = _effective_level(fluid, world, x + dx, y - 1, z + dz)
            if below >= 0:
                weight = below - (here - 8)
                vx += dx * weight
                vz += dz * weight
            continue
        weight = side - here
        vx += dx * weight
        vz += dz * weight
    if fluid.level(world, x, y, z) >= 8:
        walled = any(_side_is_solid(fluid, world, x + dx, y + dy, z + dz)
                     for dy in (0, 1) for dx, dz in ((0, -1), (0, 1), (-1, 0), (1, 0)))
        if walled:
            vx, vy, vz = _normalised(vx, vy, vz)
            vy += -6.0
    return _normalised(vx, vy, vz)


def _effective_level(fluid: Fluid, world: BlockAccess, x: int, y: int, z: int) -> int:
    """Beta's `getEffectiveFlowDecay`: the level, with falling (8-15) counting as 0; -1 if not this fluid."""
    level = fluid.level(world, x, y, z)
    return 0 if level >= 8 else level


def _side_is_solid(fluid: Fluid, world: BlockAccess, x: int, y: int, z: int) -> bool:
    """Beta's `BlockFluid.getIsBlockSolid` for a side: a solid block that is not this fluid or ice."""
    block = world.id_at(x, y, z)
    if MATERIAL[block] == fluid.material or block == _ICE:
        return False
    return bool(SOLID_MATERIAL[block])


def _normalised(x: float, y: float, z: float) -> tuple[float, float, float]:
    """Beta's `Vec3D.normalize`: a unit vector, or zero when shorter than 1e-4."""
    length = math.sqrt(x * x + y * y + z * z)
    if length < 1.0e-4:
        return (0.0, 0.0, 0.0)
    return (x / length, y / length, z / length)
