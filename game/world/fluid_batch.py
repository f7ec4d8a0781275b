"""A tick's scheduled block updates run as one batch: the blocks and the queue come out exactly as
running them one by one (`World.tick`'s plain path, the rules in `fluids.py` and `falling.py`), with
the per-block work done on arrays. numpy only.

Owns: `run_batch`, its decisions planned on arrays (`planned_levels`, `planned_directions`), the
check that an update's plan still holds when its turn comes, and the conditions under which a batch
gives up and leaves the tick to the plain path.
Does not own: the rules themselves (`fluids.Fluid.update` is the readable twin; the equivalence
tests run both), the queue (`block_updates.py`) or the world's storage (`World._store_batch`).

How a batch keeps Beta's order. The updates of one tick were all scheduled on earlier ticks, so the
batch is known before any runs, and the only thing one update can change for a later one in the
same tick is the blocks: scheduling only adds entries for later ticks. So:
1. Plan: read the blocks each update depends on (its cell, four sides, above and below) from the
   world as it was when the tick began, and work out on arrays each update's new level and, for a
   spreading fluid, its flow directions. The way-down search is a breadth-first distance to the
   nearest cell with no floor, over the cells a fluid can cross (`planned_directions`): it picks
   the same directions as Beta's depth-first `calculateFlowCost` (see that function).
2. Run the updates in order in Python, with the blocks written so far in a dict. An update whose
   seven cells nobody has written this tick uses its plan. A flowing one whose only written cells
   are sides that cannot move its level (`_only_sides_changed_keeping_level`: the common case where
   neighbouring updates spread into each other's sides) keeps its planned level and spreads into
   the sides that can still take water. Any other with a written cell is decided again on the
   current blocks (`_decide`, `Fluid.next_level`). Flow directions are replanned (Beta's search on
   the current blocks) only when a write this tick changed what the search sees (a cell that now
   stops flow or is a source, or stopped being one) within its reach: spreading flowing water over
   air changes nothing the search reads. Writes into sides and below check what is there at that
   moment, as Beta's `flowIntoBlock` does.
3. Notify: each write notifies its cell (when the block kind changed) and its six neighbours in
   Beta's order; a notified fluid, sand or gravel is scheduled unless already pending. On arrays:
   what a notified cell held at that moment is the last write to it up to that one, else what it
   held when the tick began. The schedule attempts then go to the queue in order.
4. Store the final blocks.
Lava that a write notifies hardens when water touches it, which writes more blocks in the middle
of the notifications; a batch where a notified lava cell has water beside or above it at any
point gives up before changing anything, and the tick runs one by one. So do small ticks, where
the arrays cost more than they save.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from physics.materials import Material

from .block_updates import KINDS, pack_all, unpack_all
from .blocks import AIR, COUNT, FLUID_LEVEL, LAVA_IDS, MATERIAL, WATER_IDS
from .coords import WORLD_BORDER, WORLD_HEIGHT
from .falling import FALL_TICKS, FALLS, FallingStart, falls_into
from .fluids import (BLOCKS_FLOW, FLOW_SEARCH_STEPS, FLUIDS, LAVA_TICKS, NO_WAY_DOWN, PLACED_AS, SOLID_MATERIAL,
                     STONE, WATER_TICKS)

MIN_BATCH = 48
"""[updates] Fewest due updates run as a batch: below this the arrays' fixed cost (~0.4 ms) is more
than running them one by one."""
MAX_BOX_CELLS = 1 << 20
"""[cells] Largest box of blocks read at once (2 MiB of ids); the updates of a tick spread wider are
split into boxes along their longest axis."""
REACH = FLOW_SEARCH_STEPS + 1
"""[blocks] Sideways reach of what an update reads: its way-down search looks this far."""
Y_MARGIN = 3
"""[blocks] Rows read above and below the updates: a write goes at most one below, its notified
neighbour one further, and a notified lava's hardening test reads one beyond that."""

WATER, LAVA, FALLS_KIND = (KINDS.index(kind) for kind in ("water", "lava", "falls"))
KIND_DELAYS = (WATER_TICKS, LAVA_TICKS, FALL_TICKS)
_FLUID_BY_KIND = (FLUIDS["water"], FLUIDS["lava"])
_MATERIALS = (int(Material.WATER), int(Material.LAVA))
_STEPS = (1, 2)
_IDS = (tuple(int(b) for b in WATER_IDS), tuple(int(b) for b in LAVA_IDS))

# Per-block tables, as arrays for the plan and as lists for the Python loop.
UPDATE_KIND = np.full(COUNT, -1, dtype=np.int8)
UPDATE_KIND[MATERIAL == _MATERIALS[WATER]] = WATER
UPDATE_KIND[MATERIAL == _MATERIALS[LAVA]] = LAVA
UPDATE_KIND[FALLS] = FALLS_KIND
CAN_DISPLACE = np.array([(MATERIAL != m) & (MATERIAL != _MATERIALS[LAVA]) & ~BLOCKS_FLOW for m in _MATERIALS])
"""[fluid kind, id]: Beta's `liquidCanDisplaceBlock` for water and for lava."""
SEARCH_CLASS = (BLOCKS_FLOW.astype(np.int8) | ((MATERIAL == _MATERIALS[WATER]) & (FLUID_LEVEL == 0)) * 2
                | ((MATERIAL == _MATERIALS[LAVA]) & (FLUID_LEVEL == 0)) * 4).astype(np.int8)
"""What the way-down search sees of a block: stops flow (1), a water source (2), a lava source (4).
A write that keeps it the same cannot change any search's answer."""
FALLS_INTO = np.array([falls_into(b) for b in range(COUNT)])
_FALLS_INTO = FALLS_INTO.tolist()
for _table in (UPDATE_KIND, CAN_DISPLACE, SEARCH_CLASS, FALLS_INTO):
    _table.flags.writeable = False
_KIND_LIST = UPDATE_KIND.tolist()
_LEVEL_LIST = FLUID_LEVEL.tolist()
_MATERIAL_LIST = [int(m) for m in MATERIAL]
_BLOCKS_FLOW_LIST = BLOCKS_FLOW.tolist()
_CAN_DISPLACE_LIST = CAN_DISPLACE.tolist()
_SEARCH_CLASS_LIST = SEARCH_CLASS.tolist()

READ_OFFSETS = ((0, 0, 0), (-1, 0, 0), (1, 0, 0), (0, 0, -1), (0, 0, 1), (0, 1, 0), (0, -1, 0))
"""The seven cells an update's plan reads: itself, its sides -x, +x, -z, +z (Beta's fluid
direction order), above, below."""
_SIDE_SLOTS = (1, 2, 3, 4)
_NOTIFY_OFFSETS = ((0, 0, 0), (-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1))
"""A write notifies its own cell (when the kind of block changed) and then its neighbours in
Beta's `notifyBlocksOfNeighborChange` order."""
_NOTIFY_X, _NOTIFY_Y, _NOTIFY_Z = (np.array(axis) for axis in zip(*_NOTIFY_OFFSETS))
_HARDEN_OFFSETS = ((0, 0, -1), (0, 0, 1), (-1, 0, 0), (1, 0, 0), (0, 1, 0))
_SLOTS = len(_NOTIFY_OFFSETS) + 1
"""Schedule attempts per write: its notifications, then the updating cell's own re-schedule."""
_UNREACHED = 127

_KEY_OFFSET = 1 << 25
"""Coordinates are shifted by this before packing into a key (WORLD_BORDER < 2**25)."""
assert WORLD_BORDER + REACH + 2 < _KEY_OFFSET


def cell_key(x: int, y: int, z: int) -> int:
    """One int naming a cell (y may be -4..259: rows just outside the build height)."""
    return ((x + _KEY_OFFSET) << 36) | ((z + _KEY_OFFSET) << 10) | (y + 4)


def cell_keys(xs: np.ndarray, ys: np.ndarray, zs: np.ndarray) -> np.ndarray:
    """`cell_key` of int64 arrays."""
    return ((xs + _KEY_OFFSET) << 36) | ((zs + _KEY_OFFSET) << 10) | (ys + 4)


def _key_cell(key: int) -> tuple[int, int, int]:
    return (key >> 36) - _KEY_OFFSET, (key & 1023) - 4, ((key >> 10) & ((1 << 26) - 1)) - _KEY_OFFSET


@dataclass(frozen=True)
class _Box:
    """Blocks of the world as the tick began, over a box around some of the updates."""

    origin: tuple[int, int, int]
    ids: np.ndarray

    def at(self, xs: np.ndarray, ys: np.ndarray, zs: np.ndarray) -> np.ndarray:
        return self.ids[xs - self.origin[0], ys - self.origin[1], zs - self.origin[2]]


def _boxes(world, xs: np.ndarray, ys: np.ndarray, zs: np.ndarray) -> tuple[list[_Box], np.ndarray]:
    """Boxes covering every update with its reach, and the box of each update."""
    box_of = np.zeros(len(xs), dtype=np.intp)
    boxes: list[_Box] = []
    pending = [np.arange(len(xs))]
    while pending:
        members = pending.pop()
        lo = np.array([xs[members].min() - REACH, ys[members].min() - Y_MARGIN, zs[members].min() - REACH])
        hi = np.array([xs[members].max() + REACH + 1, ys[members].max() + Y_MARGIN + 1,
                       zs[members].max() + REACH + 1])
        size = hi - lo
        if int(np.prod(size)) > MAX_BOX_CELLS and len(members) > 1:
            axis = int(np.argmax(size - [0, 2 * Y_MARGIN, 0]))
            values = (xs, ys, zs)[axis][members]
            order = np.argsort(values, kind="stable")
            half = len(members) // 2
            pending += [members[order[:half]], members[order[half:]]]
            continue
        box_of[members] = len(boxes)
        boxes.append(_Box(tuple(int(v) for v in lo), world.ids_in_box(*(int(v) for v in lo), *(int(v) for v in hi))))
    return boxes, box_of


def _gather(boxes: list[_Box], box_of: np.ndarray, xs, ys, zs) -> np.ndarray:
    """The tick-start ids at (xs, ys, zs), each read from the box of its row's update."""
    out = np.empty(len(xs), dtype=np.int64)
    for index, box in enumerate(boxes):
        rows = np.flatnonzero(box_of == index) if len(boxes) > 1 else slice(None)
        out[rows] = box.at(xs[rows], ys[rows], zs[rows])
    return out


def planned_levels(kinds: np.ndarray, reads: np.ndarray, coins: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`Fluid.next_level` on arrays: the new level of each flowing update (rows with level 1..15)
    from its seven read blocks (`READ_OFFSETS` order), and the lowest level of its fluid on its
    sides (falling as 0; NO_SIDE_LEVEL where none); `coins` are the lava one-in-four draws."""
    material = np.where(kinds == LAVA, _MATERIALS[LAVA], _MATERIALS[WATER])[:, None]
    level = FLUID_LEVEL[reads[:, 0]]
    sides = reads[:, 1:5]
    side_levels = np.where(MATERIAL[sides] == material, FLUID_LEVEL[sides], -1)
    sources = (side_levels == 0).sum(axis=1)
    lowest = np.where(side_levels >= 8, 0, side_levels)
    lowest = np.where(side_levels >= 0, lowest, NO_SIDE_LEVEL).min(axis=1)
    has_side = (side_levels >= 0).any(axis=1)
    new_level = np.where(has_side, lowest + np.where(kinds == LAVA, 2, 1), -1)
    new_level = np.where(new_level >= 8, -1, new_level)
    above = reads[:, 5]
    above_level = np.where(MATERIAL[above] == material[:, 0], FLUID_LEVEL[above], -1)
    new_level = np.where(above_level >= 8, above_level, np.where(above_level >= 0, above_level + 8, new_level))
    new_source = (sources >= 2) & (kinds == WATER) & SOLID_MATERIAL[reads[:, 6]]
    new_level = np.where(new_source, 0, new_level)
    held = (kinds == LAVA) & (level < 8) & (new_level < 8) & (new_level > level) & ~coins
    return np.where(held, level, new_level), lowest


def _way_down_distances(ids: np.ndarray, material: int) -> np.ndarray:
    """[x, y, z] of a box of ids: the fewest sideways steps from each cell to a cell with no floor,
    through cells a spreading fluid of `material` may cross (not stopping flow, not its source);
    _UNREACHED beyond FLOW_SEARCH_STEPS, for a cell it may not cross, and on the bottom row (whose
    floor is outside the box)."""
    passable = ~BLOCKS_FLOW[ids] & ~((MATERIAL[ids] == material) & (FLUID_LEVEL[ids] == 0))
    distance = np.full(ids.shape, _UNREACHED, dtype=np.int8)
    distance[:, 1:][passable[:, 1:] & ~BLOCKS_FLOW[ids[:, :-1]]] = 0
    for steps in range(1, FLOW_SEARCH_STEPS + 1):
        reached = distance < _UNREACHED
        near = np.zeros(ids.shape, dtype=bool)
        near[1:] |= reached[:-1]
        near[:-1] |= reached[1:]
        near[:, :, 1:] |= reached[:, :, :-1]
        near[:, :, :-1] |= reached[:, :, 1:]
        distance[near & passable & ~reached] = steps
    return distance


def planned_directions(boxes: list[_Box], box_of: np.ndarray, kinds: np.ndarray, xs, ys, zs) -> np.ndarray:
    """Beta's `getOptimalFlowDirections` for each fluid update on the tick-start blocks, as a
    bit mask over the directions -x, +x, -z, +z (bit i = direction i).

    The cost of a direction is 0 when its side has no floor and otherwise Beta's
    `calculateFlowCost`: the fewest further steps to a cell with no floor, never stepping straight
    back, within FLOW_SEARCH_STEPS; the chosen directions are those of least cost. A shortest path
    never steps straight back, so that cost is the breadth-first distance from the side,
    except for paths through the updating cell itself. Those are never among the least: a path from
    one side through the cell to another reaches that other side in at least two steps more than
    the search from that side costs. So the distances on the box give Beta's choice."""
    masks = np.zeros(len(xs), dtype=np.int8)
    for kind in (WATER, LAVA):
        rows_of_kind = kinds == kind
        if not rows_of_kind.any():
            continue
        for index, box in enumerate(boxes):
            rows = np.flatnonzero(rows_of_kind & (box_of == index))
            if not rows.size:
                continue
            low = int(ys[rows].min()) - 1 - box.origin[1]  # the search reads the updates' rows and the floor below
            layers = box.ids[:, low:int(ys[rows].max()) + 1 - box.origin[1]]
            distance = _way_down_distances(layers, _MATERIALS[kind])
            lx, ly, lz = xs[rows] - box.origin[0], ys[rows] - box.origin[1] - low, zs[rows] - box.origin[2]
            costs = np.stack([distance[lx - 1, ly, lz], distance[lx + 1, ly, lz],
                              distance[lx, ly, lz - 1], distance[lx, ly, lz + 1]], axis=1).astype(np.int16)
            costs[costs == _UNREACHED] = NO_WAY_DOWN
            chosen = costs == costs.min(axis=1, keepdims=True)
            masks[rows] = (chosen * np.array([1, 2, 4, 8])).sum(axis=1)
    return masks


class _Current:
    """The blocks as the batch has written them so far (a `fluids.BlockAccess` for reading), for
    the rare update whose way-down search must run on them."""

    def __init__(self, world, written: dict[int, int]) -> None:
        self.world, self.written = world, written

    def id_at(self, x: int, y: int, z: int) -> int:
        block = self.written.get(cell_key(x, y, z))
        return self.world.id_at(x, y, z) if block is None else block

    def ids_in_box(self, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int) -> np.ndarray:
        ids = np.array(self.world.ids_in_box(x0, y0, z0, x1, y1, z1))
        if len(self.written) < ids.size:
            for key, block in self.written.items():
                x, y, z = _key_cell(key)
                if x0 <= x < x1 and y0 <= y < y1 and z0 <= z < z1:
                    ids[x - x0, y - y0, z - z0] = block
        else:
            for index in np.ndindex(*ids.shape):
                block = self.written.get(cell_key(x0 + index[0], y0 + index[1], z0 + index[2]))
                if block is not None:
                    ids[index] = block
        return ids


@dataclass(frozen=True)
class BatchResult:
    """What a tick's updates do, for the world to store: exactly what running them one by one does."""

    writes: np.ndarray
    """(x, y, z, old id, new id) of every block change, in order: an int64 array of rows."""
    schedules: dict[int, list[int]]
    """Delay in ticks -> the schedule attempts (packed, `block_updates.pack`) with that delay, in
    order, the first of each cell and kind (each kind has its own delay; the queue refuses one
    already pending)."""
    falling: list[FallingStart]
    """Sand and gravel that start to fall, in order."""


def run_batch(world, due: list[int]) -> BatchResult | None:
    """What the tick's due updates (packed, `block_updates.pack`, in Beta's order) do, planned and run on arrays, reading the
    world and changing nothing; None when the batch is too small or lava could harden (the caller
    then runs them one by one)."""
    if len(due) < MIN_BATCH:
        return None
    count = len(due)
    xs, ys, zs, kinds = unpack_all(np.array(due, dtype=np.int64))
    kinds = kinds.astype(np.int8)
    boxes, box_of = _boxes(world, xs, ys, zs)

    near_x, near_y, near_z = xs[:, None] + _OFFSET_X, ys[:, None] + _OFFSET_Y, zs[:, None] + _OFFSET_Z  # [row, slot]
    reads = _gather(boxes, np.repeat(box_of, len(READ_OFFSETS)), near_x.ravel(), near_y.ravel(),
                    near_z.ravel()).reshape(count, len(READ_OFFSETS))
    levels = FLUID_LEVEL[reads[:, 0]]
    live = UPDATE_KIND[reads[:, 0]] == kinds
    fluid_rows = live & (kinds != FALLS_KIND)
    coins = np.zeros(count, dtype=bool)
    for row in np.flatnonzero(fluid_rows & (kinds == LAVA) & (levels > 0)):
        coins[row] = world.one_in_four(int(xs[row]), int(ys[row]), int(zs[row]))
    new_levels, lowest = planned_levels(kinds, reads, coins)
    directions = planned_directions(boxes, box_of, np.where(fluid_rows, kinds, -1), xs, ys, zs)
    plan = _planned_writes(world, kinds, fluid_rows, levels, new_levels, directions, reads, xs, ys, zs)
    keys = cell_keys(near_x, near_y, near_z)
    falls = live & (kinds == FALLS_KIND) & (ys > 0) & FALLS_INTO[reads[:, 6]]

    directions_list = directions.tolist()
    written: dict[int, int] = {}
    log: list[int] = []  # per write, flat: update row, slot of READ_OFFSETS, old id, new id
    reschedules: dict[int, int] = {}  # write index -> kind: the updating cell's own re-schedule after it
    search_changes: list[tuple[int, int, int]] = []
    falling: list[FallingStart] = []
    current = _Current(world, written)

    xs_list, ys_list, zs_list, kinds_list = xs.tolist(), ys.tolist(), zs.tolist(), kinds.tolist()
    # Flat lists of ints (sliced per update): nested lists would be thousands of containers for the
    # garbage collector to walk during the loop.
    reads_flat, ids_flat, keys_flat = reads.ravel().tolist(), plan.ids.ravel().tolist(), keys.ravel().tolist()
    search_list = plan.search_mask.tolist()
    spreads_list, flowing_list = plan.spreads.tolist(), plan.flowing.tolist()
    spread_ids_list, lowest_list = plan.spread_ids.tolist(), lowest.tolist()
    masks = (plan.mask | (falls * _FALLS_BIT)).tolist()
    width = len(READ_OFFSETS)
    for row, start, mask in zip(range(count), range(0, count * width, width), masks):
        near_keys = keys_flat[start:start + width]
        touched = written and not written.keys().isdisjoint(near_keys)
        if touched or (search_changes and spreads_list[row]):
            x, y, z = xs_list[row], ys_list[row], zs_list[row]
            search_changed = search_changes and spreads_list[row] and _search_changed_near(search_changes, x, y, z)
            blocks = reads_flat[start:start + width]
            if not search_changed and touched and flowing_list[row] and _run_if_only_sides_changed(
                    row, x, y, z, kinds_list[row], near_keys, blocks, mask, ids_flat[start:start + width],
                    search_list[row], spreads_list[row] and spread_ids_list[row], directions_list[row],
                    lowest_list[row], written, log, reschedules, search_changes):
                continue
            if touched or search_changed:  # something it reads was written this tick: decide it now
                blocks = [written.get(key, block) for key, block in zip(near_keys, blocks)]
                _decide(world, current, row, x, y, z, kinds_list[row], near_keys, blocks, directions_list[row],
                        written, log, reschedules, search_changes, falling)
                continue
        if not mask:
            continue  # nothing it reads was written this tick, and its plan writes nothing
        if mask & _FALLS_BIT:
            falling.append(FallingStart((xs_list[row], ys_list[row], zs_list[row]), reads_flat[start]))
            continue
        slots = _SLOTS_OF_MASK[mask]
        for slot in slots:
            new = ids_flat[start + slot]
            written[near_keys[slot]] = new
            log += (row, slot, reads_flat[start + slot], new)
        if mask & 1 and _KIND_LIST[ids_flat[start]] == kinds_list[row]:
            reschedules[len(log) // 4 - len(slots)] = kinds_list[row]
        if mask & search_list[row]:
            search_changes.extend(_cells_of(xs_list[row], ys_list[row], zs_list[row], mask & search_list[row]))

    if not log:
        return BatchResult(np.zeros((0, 5), dtype=np.int64), {}, falling)
    row, slot, old, new = np.array(log, dtype=np.int64).reshape(-1, 4).T
    writes = np.stack([xs[row] + _OFFSET_X[slot], ys[row] + _OFFSET_Y[slot], zs[row] + _OFFSET_Z[slot], old, new,
                       row], axis=1)
    schedules = _schedule_attempts(boxes, box_of, writes, reschedules)
    if schedules is None:
        return None
    return BatchResult(writes[:, :5], schedules, falling)


def _run_if_only_sides_changed(row, x, y, z, kind, near_keys, blocks, mask, planned_ids, search_mask, spread_id,
                               chosen, lowest, written, log, reschedules, search_changes) -> bool:
    """Run a flowing update whose level comes out as planned though some sides were written this
    tick (`_only_sides_changed_keeping_level`), and say so; False (nothing done) for any other.
    Its own and downward writes are the plan's; it spreads (`spread_id`, 0 for not) in its planned
    directions into the sides that can take it now."""
    if not _only_sides_changed_keeping_level(kind, near_keys, blocks, written, lowest):
        return False
    if mask & 1 and _KIND_LIST[planned_ids[0]] == kind:
        reschedules[len(log) // 4] = kind
    for slot in _SLOTS_OF_MASK[mask & _NOT_SIDES]:
        new = planned_ids[slot]
        written[near_keys[slot]] = new
        log += (row, slot, blocks[slot], new)
    if mask & _NOT_SIDES & search_mask:
        search_changes.extend(_cells_of(x, y, z, mask & _NOT_SIDES & search_mask))
    if not spread_id:
        return True
    for direction, slot in enumerate(_SIDE_SLOTS):
        if chosen >> direction & 1:
            key = near_keys[slot]
            old = written.get(key, blocks[slot])
            if _CAN_DISPLACE_LIST[kind][old]:  # (a flowing update lies inside the border)
                written[key] = spread_id
                log += (row, slot, old, spread_id)
                if _SEARCH_CLASS_LIST[old] != _SEARCH_CLASS_LIST[spread_id]:
                    search_changes.extend(_cells_of(x, y, z, 1 << slot))
    return True


def _decide(world, current, row, x, y, z, kind, near_keys, blocks, planned_mask, written, log, reschedules,
            search_changes, falling) -> None:
    """One update whose plan may no longer hold, run on the current blocks `blocks` (its seven cells)
    as `Fluid.update` and the falls rule run it, its writes recorded as the plan's are. Its planned
    flow directions (`planned_mask`) hold unless a write changed what its search reads."""

    block, below = blocks[0], blocks[6]
    if _KIND_LIST[block] != kind:
        return  # no longer its kind of block (Beta drops such an entry)
    if kind == FALLS_KIND:
        if y > 0 and _FALLS_INTO[below]:
            falling.append(FallingStart((x, y, z), block))
        return
    level = _LEVEL_LIST[block]
    ids = _IDS[kind]
    if level > 0:
        new_level = _FLUID_BY_KIND[kind].next_level(level, blocks[1:5], blocks[5], below,
                                                    lambda: world.one_in_four(x, y, z))
        if new_level != level:
            level = new_level
            if _write(world, row, x, y, z, 0, near_keys, block, AIR if level < 0 else ids[level], written, log,
                      search_changes) and level >= 0:
                reschedules[len(log) // 4 - 1] = kind
    if _CAN_DISPLACE_LIST[kind][below]:
        if kind == LAVA and _MATERIAL_LIST[below] == _MATERIALS[WATER]:
            _write(world, row, x, y, z, 6, near_keys, below, STONE, written, log, search_changes)  # lava onto water
            return
        _write(world, row, x, y, z, 6, near_keys, below, ids[level if level >= 8 else level + 8], written, log,
               search_changes)
    elif level >= 0 and (level == 0 or _BLOCKS_FLOW_LIST[below]):
        spread_level = 1 if level >= 8 else level + _STEPS[kind]
        if spread_level >= 8:
            return
        if search_changes and _search_changed_near(search_changes, x, y, z):
            chosen = _FLUID_BY_KIND[kind].flow_directions(current, x, y, z)
        else:
            chosen = [direction for direction in range(4) if planned_mask >> direction & 1]
        for direction in chosen:
            slot = _SIDE_SLOTS[direction]
            if _CAN_DISPLACE_LIST[kind][blocks[slot]]:
                _write(world, row, x, y, z, slot, near_keys, blocks[slot], ids[spread_level], written, log,
                       search_changes)


def _write(world, row, x, y, z, slot, near_keys, old, new, written, log, search_changes) -> bool:
    """Record the write of update `row` into its `slot` cell; False, and nothing recorded, where
    `World.set_id` would change nothing (the same block, or a cell outside the world)."""
    dx, dy, dz = READ_OFFSETS[slot]
    if old == new or not world.can_hold(x + dx, y + dy, z + dz):
        return False
    written[near_keys[slot]] = new
    log += (row, slot, old, new)
    if _SEARCH_CLASS_LIST[old] != _SEARCH_CLASS_LIST[new]:
        search_changes.append((x + dx, y + dy, z + dz))
    return True


def _only_sides_changed_keeping_level(kind: int, near_keys: list[int], blocks: list[int], written: dict[int, int],
                                      lowest: int) -> bool:
    """Whether, for a flowing update, the only cells written this tick among its seven are sides,
    and no such write can change its new level (`Fluid.next_level`): neither what a side held nor
    what it holds now is a source of its fluid, what it held was not at its lowest side level, and
    what it holds now is not below it. The level then comes out as planned."""
    for slot in _NOT_SIDE_SLOTS:
        if near_keys[slot] in written:
            return False
    material = _MATERIALS[kind]
    for slot in _SIDE_SLOTS:
        now = written.get(near_keys[slot])
        if now is None:
            continue
        before = blocks[slot]
        if _MATERIAL_LIST[before] == material:
            level = _LEVEL_LIST[before]
            if level == 0 or (0 if level >= 8 else level) <= lowest:
                return False
        if _MATERIAL_LIST[now] == material:
            level = _LEVEL_LIST[now]
            if level == 0 or (0 if level >= 8 else level) < lowest:
                return False
    return True


def _search_changed_near(search_changes: list[tuple[int, int, int]], x: int, y: int, z: int) -> bool:
    """Whether a write this tick changed what the way-down search from (x, y, z) reads."""
    return any(abs(cx - x) <= REACH and abs(cz - z) <= REACH and y - 1 <= cy <= y for cx, cy, cz in search_changes)


def _cells_of(x: int, y: int, z: int, mask: int) -> list[tuple[int, int, int]]:
    return [(x + READ_OFFSETS[slot][0], y + READ_OFFSETS[slot][1], z + READ_OFFSETS[slot][2])
            for slot in _SLOTS_OF_MASK[mask]]


@dataclass(frozen=True)
class _Plan:
    """Each update's writes if nothing it reads changes before its turn, by slot of READ_OFFSETS."""

    mask: np.ndarray
    """Bit s set: the update writes its slot-s cell."""
    ids: np.ndarray
    """[row, slot]: the id written there (where the mask says)."""
    search_mask: np.ndarray
    """Bit s set: that write would change what a way-down search sees."""
    spreads: np.ndarray
    """The update spreads sideways by its way-down search."""
    spread_ids: np.ndarray
    """The id it spreads as (where it spreads)."""
    flowing: np.ndarray
    """A fluid update at level 1..15 inside the world border (its level depends on its sides)."""


def _planned_writes(world, kinds, fluid_rows, levels, new_levels, directions, reads, xs, ys, zs) -> _Plan:
    """`Fluid.update` on arrays, on the tick-start blocks (the readable twin runs it per update)."""
    count = len(kinds)
    fluid_kind = np.where(kinds == LAVA, LAVA, WATER)
    ids_table = np.array(_IDS)
    writes = np.full((count, len(READ_OFFSETS)), -1, dtype=np.int64)
    level = levels.astype(np.int64)
    changes = fluid_rows & (level > 0) & (new_levels != level)
    writes[changes, 0] = np.where(new_levels[changes] < 0, AIR,
                                  ids_table[fluid_kind[changes], np.maximum(new_levels[changes], 0)])
    level = np.where(changes, new_levels, level)
    below = reads[:, 6]
    inside = (np.abs(xs) < WORLD_BORDER - 1) & (np.abs(zs) < WORLD_BORDER - 1)
    down = fluid_rows & CAN_DISPLACE[fluid_kind, below]
    onto_water = down & (kinds == LAVA) & (MATERIAL[below] == _MATERIALS[WATER])
    falling_level = np.where(level >= 8, level, level + 8)
    writes[down, 6] = np.where(onto_water[down], STONE, ids_table[fluid_kind[down], falling_level[down] % 16])
    writes[down & ((ys == 0) | ~inside), 6] = -1
    spread_level = np.where(level >= 8, 1, level + np.where(kinds == LAVA, 2, 1))
    spreads = (fluid_rows & ~down & (level >= 0) & ((level == 0) | BLOCKS_FLOW[below]) & (spread_level < 8))
    spread_ids = ids_table[fluid_kind, np.clip(spread_level, 0, 15)]
    for direction, slot in enumerate(_SIDE_SLOTS):
        into = spreads & inside & (directions >> direction & 1).astype(bool) & CAN_DISPLACE[fluid_kind, reads[:, slot]]
        writes[into, slot] = spread_ids[into]
    if not inside.all():
        for row in np.flatnonzero(~inside):
            for slot in range(len(READ_OFFSETS)):
                dx, dy, dz = READ_OFFSETS[slot]
                if writes[row, slot] >= 0 and not world.can_hold(int(xs[row]) + dx, int(ys[row]) + dy,
                                                                  int(zs[row]) + dz):
                    writes[row, slot] = -1
    written = writes >= 0
    bits = 1 << np.arange(len(READ_OFFSETS))
    changes_search = written & (SEARCH_CLASS[np.maximum(writes, 0)] != SEARCH_CLASS[reads])
    flowing = fluid_rows & (levels > 0) & inside
    return _Plan((written * bits).sum(axis=1), np.maximum(writes, 0), (changes_search * bits).sum(axis=1), spreads,
                 spread_ids, flowing)


_NOT_SIDE_SLOTS = (0, 5, 6)
_NOT_SIDES = sum(1 << slot for slot in _NOT_SIDE_SLOTS)
NO_SIDE_LEVEL = 100
"""`planned_levels`' lowest side level for an update with no side of its fluid."""
_FALLS_BIT = 1 << len(READ_OFFSETS)
"""A bit above the write slots in an update's plan: sand or gravel that starts to fall."""
_SLOTS_OF_MASK = [tuple(slot for slot in (0, 6, 1, 2, 3, 4, 5) if mask >> slot & 1) for mask in range(1 << 7)]
"""The slots a write mask names, in the order an update writes them: itself, below, then sideways."""
_OFFSET_X, _OFFSET_Y, _OFFSET_Z = (np.array(axis) for axis in zip(*READ_OFFSETS))


def _schedule_attempts(boxes: list[_Box], box_of: np.ndarray, writes: np.ndarray, reschedules: dict[int, int]):
    """The schedule attempts of the batch's writes ((x, y, z, old, new, update row) rows), in Beta's
    order, by delay (see `BatchResult.schedules`); None when a notified lava cell may harden.

    Write w makes up to eight attempts, in order: its cell (when the kind of block changed) and its
    six neighbours, each if it holds a fluid, sand or gravel at that moment, then the updating
    cell's own re-schedule (`reschedules`)."""
    count = len(writes)
    wx, wy, wz, old, new, row = writes.T
    notified = len(_NOTIFY_OFFSETS)
    cx = (wx[:, None] + _NOTIFY_X).ravel()
    cy = (wy[:, None] + _NOTIFY_Y).ravel()
    cz = (wz[:, None] + _NOTIFY_Z).ravel()
    candidate_box = np.repeat(box_of[row], notified) if len(boxes) > 1 else None
    held = _held_at(boxes, candidate_box, writes, cx, cy, cz, np.repeat(np.arange(count), notified))
    kind = UPDATE_KIND[held]
    kind[(cy < 0) | (cy >= WORLD_HEIGHT)] = -1  # (Beta notifies no cell outside the build height)
    own = kind[::notified]
    own[PLACED_AS[old] == PLACED_AS[new]] = -1  # the written cell itself only when its kind of block changed

    lava = kind == LAVA
    if lava.any() and _water_touches(boxes, None if candidate_box is None else candidate_box[lava], writes,
                                     cx[lava], cy[lava], cz[lava]):
        return None

    attempt_kind = np.full((count, _SLOTS), -1, dtype=np.int64)
    attempt_kind[:, :notified] = kind.reshape(count, notified)
    if reschedules:
        attempt_kind[np.fromiter(reschedules.keys(), dtype=np.intp, count=len(reschedules)), -1] = \
            np.fromiter(reschedules.values(), dtype=np.int64, count=len(reschedules))
    attempt_kind = attempt_kind.ravel()
    keep = np.flatnonzero(attempt_kind >= 0)
    kinds = attempt_kind[keep]
    write_of_attempt, slot = np.divmod(keep, _SLOTS)
    offsets = np.where(slot == _SLOTS - 1, 0, slot)  # the re-schedule is of the written cell itself (offset 0)
    packed = pack_all(wx[write_of_attempt] + _NOTIFY_X[offsets], wy[write_of_attempt] + _NOTIFY_Y[offsets],
                      wz[write_of_attempt] + _NOTIFY_Z[offsets], kinds)
    first = np.sort(np.unique(packed, return_index=True)[1])  # a packed update names its cell and kind
    packed, kinds = packed[first], kinds[first]
    schedules = {}
    for kind_code in (WATER, LAVA, FALLS_KIND):
        of_kind = packed[kinds == kind_code]
        if of_kind.size:
            schedules[KIND_DELAYS[kind_code]] = of_kind.tolist()
    return schedules


def _held_at(boxes, candidate_box, writes, cx, cy, cz, write_index) -> np.ndarray:
    """What each candidate cell held just after write `write_index`: the last write to it up to
    that one, else what it held when the tick began."""
    if len(boxes) == 1:
        return _held_at_in_one_box(boxes[0], writes, cx, cy, cz, write_index)
    return _held_at_by_search(_gather(boxes, candidate_box, cx, cy, cz), writes, cx, cy, cz, write_index)


def _held_at_in_one_box(box: _Box, writes, cx, cy, cz, write_index) -> np.ndarray:
    """`_held_at` where every cell lies in one box: cells written once are looked up in an array of
    write indices over the candidates' extent; the few written more than once go to
    `_held_at_by_search`."""
    low = (int(cx.min()), int(cy.min()), int(cz.min()))
    shape = (int(cx.max()) - low[0] + 1, int(cy.max()) - low[1] + 1, int(cz.max()) - low[2] + 1)
    written_at = np.ravel_multi_index((writes[:, 0] - low[0], writes[:, 1] - low[1], writes[:, 2] - low[2]), shape)
    size = shape[0] * shape[1] * shape[2]
    times_written = np.bincount(written_at, minlength=size)
    write_of = np.full(size, -1, dtype=np.int64)
    write_of[written_at] = np.arange(len(writes))
    at = np.ravel_multi_index((cx - low[0], cy - low[1], cz - low[2]), shape)
    held = box.at(cx, cy, cz).astype(np.int64)
    index = write_of[at]
    once = times_written[at] == 1
    done = once & (index >= 0) & (index <= write_index)
    held[done] = writes[index[done], 4]
    again = np.flatnonzero(times_written[at] > 1)
    if again.size:
        held[again] = _held_at_by_search(held[again], writes, cx[again], cy[again], cz[again], write_index[again])
    return held


def _held_at_by_search(held: np.ndarray, writes, cx, cy, cz, write_index) -> np.ndarray:
    """`_held_at` given what the candidates held when the tick began (`held`, updated in place and
    returned): each candidate's cell is looked up among the sorted writes."""
    write_keys = cell_keys(writes[:, 0], writes[:, 1], writes[:, 2])
    order = np.argsort(write_keys, kind="stable")  # by cell, then write order
    sorted_keys = write_keys[order]
    candidate_keys = cell_keys(cx, cy, cz)
    last = np.searchsorted(sorted_keys, candidate_keys, side="right") - 1  # the cell's last write, if any
    found = last >= 0
    found[found] &= sorted_keys[last[found]] == candidate_keys[found]
    rows = np.flatnonzero(found)
    position = last[rows]
    # Step back over the cell's writes that come after the candidate's moment (rare: a cell written
    # more than once in a tick).
    while True:
        later = order[position] > write_index[rows]
        if not later.any():
            break
        position = position - later
        same_cell = position >= 0
        same_cell[same_cell] = sorted_keys[position[same_cell]] == candidate_keys[rows[same_cell]]
        rows, position = rows[same_cell], position[same_cell]
    held[rows] = writes[order[position], 4]
    return held


def _water_touches(boxes, candidate_box, writes, cx, cy, cz) -> bool:
    """Whether water is, at any moment of the tick, beside or above any of these cells (lava that a
    write notifies): Beta's `checkForHarden` could then fire."""
    water = _MATERIALS[WATER]
    water_written = {cell_key(int(x), int(y), int(z)) for x, y, z, _, new, _ in writes.tolist()
                     if _MATERIAL_LIST[new] == water}
    for dx, dy, dz in _HARDEN_OFFSETS:
        nx, ny, nz = cx + dx, cy + dy, cz + dz
        if (MATERIAL[_gather(boxes, candidate_box, nx, ny, nz)] == water).any():
            return True
        if water_written and any(key in water_written for key in cell_keys(nx, ny, nz).tolist()):
            return True
    return False
