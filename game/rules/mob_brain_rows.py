"""Many wandering mobs' thinking in one pass, their world reads asked all at once.

Owns: `think_all`, which gives every brain's intent for the tick exactly as `MobBrain.think`
called brain by brain does (its readable twin: a test compares intents and brain states), and
the two world reads a walking boxling makes every tick asked for all the walkers together of
the block boxes and materials their crowd's world cache holds
(`physics.broad_phase.WorldCache`): the ground under each one's probe (`highest_tops`, the
drop) and the cells its look for fluids visits (`materials_at`, scanned on arrays as
`mob_brain._scan` scans them cell by cell).
Does not own: the rules (`game.rules.mob_brain`: the timers, the medium, the turns, the
step test, each brain's random stream), a creature's thinking (`creature_brain`), nor the
cache (`physics.broad_phase`).

Why: a brain asks the world about a few dozen cells a tick, each through a Python call, so a
hundred walking boxlings cost about 2 ms of a 100-player tick (measured with `bench/session_bots.py`);
the cache already holds the boxes and materials around them, read in a few numpy calls for all.
Each brain's random draws keep their order (the timer, then a turn, then the swim jump), and
brains share nothing, so doing each step for every brain before the next gives the same intents.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

import numpy as np

import physics
from physics import AABB, Body, Intent
from physics.broad_phase import WorldCache, keyed, keyed_cells, windows_of
from physics.materials import Material

from .mob_brain import (DEEP_WATER_BLOCKS, DROP_PROBE_HALF_WIDTH, HELD_UP_BY, MAX_SAFE_DROP_BLOCKS, MobBrain,
                        _drop_below, _look_for_fluids, _probe_ahead, fluids_avoided, medium_of)

BRAIN_ROWS_FROM = 64
"""[brains] Fewer boxlings than this think one by one (`MobBrain.think`). A pass costs about 0.5 ms
whatever its size (its numpy calls, and the tiles it asks the world for where no crowd has: a mobs'
crowd uses the cache from `physics.CrowdSettings.vectorised_min_bodies`, 50, on). Measured with
`python -m bench mobs` at other sizes (the machine shared): one by one is cheaper up to about 50
boxlings (16: 0.34 against 0.77 ms), even at 56 (1.78 against 1.72 ms), and dearer from 64 (2.29
against 1.85 ms; 100: 2.6-2.8 against 1.8-2.0 ms)."""

_NO_WINDOWS = np.empty((0, 6), dtype=np.int64)
"""No cell ranges read (the reads made cell by cell, past the cache's keyed cells)."""

_HELD_UP = np.zeros(256, dtype=bool)
_HELD_UP[sorted(HELD_UP_BY)] = True
"""By `Material` code (an int8 read as uint8): whether a cell of it holds a mob up (`HELD_UP_BY`)."""


def think_all(brains: Sequence, bodies: Sequence[Body], world: physics.CollisionWorld,
              world_cache: WorldCache, user: object = None) -> list[Intent]:
    """The intents of `brains` (each with the body of the same place in `bodies`) for this tick:
    `[brain.think(body, world) for brain, body in zip(brains, bodies)]`, to the bit and with the
    same brain states after, the boxlings' reads asked at once of `world_cache` (a cache of
    `world`) when there are BRAIN_ROWS_FROM of them or more and the world's `revision` is not None
    (so the cache keeps what it read; a brain reads `revision` and `material` of every world, as
    `game.rules.game_world.GameWorld` has them). `user`: who asks the cache (a
    weakly referable object, the mobs' manager), so that the crowds' pruning keeps the tiles the
    brains read (`WorldCache.use`); None: the cache is not told."""
    rows = [k for k, brain in enumerate(brains) if type(brain) is MobBrain]
    if len(rows) < BRAIN_ROWS_FROM or world.revision is None or world_cache.world is not world:
        if user is not None:
            world_cache.use(_NO_WINDOWS, user)  # the cells of an earlier pass are not read any more
        return [brain.think(body, world) for brain, body in zip(brains, bodies)]
    intents: list[Intent | None] = [None] * len(brains)
    for k, (brain, body) in enumerate(zip(brains, bodies)):
        if type(brain) is not MobBrain:
            intents[k] = brain.think(body, world)
    media, walkers, probes = {}, [], []
    for k in rows:
        brain, body = brains[k], bodies[k]
        brain._count_down()
        media[k] = medium_of(body, world)
        if brain.walking:
            walkers.append(k)
            probes.append(_probe_ahead(body, brain.yaw))
    moves: dict[int, tuple[float, bool]] = {}
    read = _NO_WINDOWS
    if walkers:
        world_cache.sync()
        read = _walk_all(brains, bodies, world, world_cache, walkers, probes, media, moves)
    if user is not None:
        world_cache.use(read, user)
    for k in rows:
        forward, jump = moves.get(k, (0.0, False))
        intents[k] = brains[k]._intent(forward, jump, media[k])
    return intents


def _walk_all(brains, bodies, world, world_cache: WorldCache, walkers: list[int], probes: list[AABB],
              media: dict, moves: dict[int, tuple[float, bool]]) -> np.ndarray:
    """`MobBrain._walk` for every walker (with its probe), into `moves`: the drops first, then the
    fluids ahead of those not turned away by a drop, then each one's step test. Returns the cell
    ranges ((n, 6)) it read."""
    count = 6 * len(walkers)
    boxes = np.fromiter(chain.from_iterable(bodies[k].box for k in walkers), np.float64, count=count).reshape(-1, 6)
    ahead = np.fromiter(chain.from_iterable(probes), np.float64, count=count).reshape(-1, 6)
    drops, read = _drops(world, world_cache, boxes, ahead)
    asked, picked, avoided = [], [], []
    for place, (k, probe, drop) in enumerate(zip(walkers, probes, drops.tolist())):
        if drop > MAX_SAFE_DROP_BLOCKS:
            brains[k]._turn()
            moves[k] = (0.0, False)
            continue
        body, medium = bodies[k], media[k]
        avoid_lava, avoid_deep_water = fluids_avoided(body, medium.in_water, medium.in_lava)
        if avoid_lava or avoid_deep_water:
            asked.append(k)
            picked.append(place)
            avoided.append((avoid_lava, avoid_deep_water))
        else:
            moves[k] = brains[k]._walk_on(body, world, probe)
    if not asked:
        return read
    found, looked = _fluids_ahead(world, world_cache, boxes.take(picked, axis=0), ahead.take(picked, axis=0),
                                  np.array(avoided, dtype=bool).reshape(-1, 2))
    for k, fluid in zip(asked, found.tolist()):
        if fluid:
            brains[k]._turn()
            moves[k] = (0.0, False)
    for k, probe in zip(walkers, probes):
        if k not in moves:
            moves[k] = brains[k]._walk_on(bodies[k], world, probe)
    return np.concatenate((read, looked))


def _drops(world, world_cache: WorldCache, boxes: np.ndarray, probes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How far the ground under each probe's centre lies below its box's feet (`mob_brain._drop_below`:
    inf when none within the limit), and the cell ranges read. The column looked down is
    `mob_brain._drop_column`'s, in the same float operations."""
    feet = boxes[:, 1]
    h = DROP_PROBE_HALF_WIDTH
    cx, cz = (probes[:, 0] + probes[:, 3]) / 2.0, (probes[:, 2] + probes[:, 5]) / 2.0
    columns = np.stack((cx - h, feet - MAX_SAFE_DROP_BLOCKS - 1.0, cz - h, cx + h, feet, cz + h), axis=1)
    windows = windows_of(columns)
    if not keyed(windows).all():  # beyond the cache's keys (33 million blocks out): the world, probe by probe
        return np.array([_drop_below(world, AABB(*probe), feet_y) for probe, feet_y in
                         zip(probes.tolist(), feet.tolist())]), _NO_WINDOWS
    # feet - (-inf) is inf: no ground within the limit, as `_drop_below` says.
    return feet - world_cache.highest_tops(columns), windows


def _fluids_ahead(world, world_cache: WorldCache, boxes: np.ndarray, probes: np.ndarray,
                  avoided: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`mob_brain._look_for_fluids`' answer for each box and its probe ((m, 6) each), avoiding
    lava and deep water as `avoided` ((m, 2) bools) says, with the cell ranges read ((n, 6)).

    Most mobs walk on dry ground: where every tile of the world cache that the cells a mob would
    scan lie in holds no cell but air and solid ones (`WorldCache.special_near`), none of them is
    water or lava, so its answer is no, unscanned (read: the range around those cells). The others
    are scanned (`_scan_for_fluids`)."""
    floor = np.floor
    top, below_bottom = _scan_heights(boxes)
    # Every cell `_scan_for_fluids` may read: the columns of the box stretched to the probe, from
    # the top of the box down to the one above below_bottom.
    around = np.stack((floor(np.minimum(boxes[:, 0], probes[:, 0])), below_bottom + 1,
                       floor(np.minimum(boxes[:, 2], probes[:, 2])),
                       -floor(-np.maximum(boxes[:, 3], probes[:, 3])) - 1, top,
                       -floor(-np.maximum(boxes[:, 5], probes[:, 5])) - 1), axis=1).astype(np.int64)
    if not keyed(around).all():
        return _scan_for_fluids(world, world_cache, boxes, probes, avoided)
    wet = world_cache.special_near(around).nonzero()[0]
    found = np.zeros(len(boxes), dtype=bool)
    if not wet.size:
        return found, around
    wet_found, looked = _scan_for_fluids(world, world_cache, boxes.take(wet, axis=0), probes.take(wet, axis=0),
                                         avoided.take(wet, axis=0))
    found[wet] = wet_found
    dry = np.ones(len(boxes), dtype=bool)
    dry[wet] = False
    return found, np.concatenate((around[dry], looked))


def _scan_heights(boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each box ((m, 6)), the cell row a look for fluids starts at (the box's top row) and the
    row below the lowest it may reach (`mob_brain.fluid_look_bounds`' limits, as ints)."""
    floor = np.floor
    return (-floor(-boxes[:, 4])).astype(np.int64) - 1, floor(boxes[:, 1]).astype(np.int64) - MAX_SAFE_DROP_BLOCKS - 2


def _scan_for_fluids(world, world_cache: WorldCache, boxes: np.ndarray, probes: np.ndarray,
                     avoided: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`_fluids_ahead` by scanning, on arrays: the columns of `mob_brain.scanned_columns`, in each
    the cells from the top of the box down to the first that holds a mob up (`fluid_look_bounds`);
    lava there (when avoided), or DEEP_WATER_BLOCKS water cells one above the other (when deep
    water is avoided). With the cell ranges read ((n, 6): the columns)."""
    floor = np.floor
    ox0, oz0, qx0, qz0 = (floor(c).astype(np.int64) for c in (boxes[:, 0], boxes[:, 2], probes[:, 0], probes[:, 2]))
    ox1, oz1, qx1, qz1 = ((-floor(-c)).astype(np.int64) for c in (boxes[:, 3], boxes[:, 5], probes[:, 3], probes[:, 5]))
    top, below_bottom = _scan_heights(boxes)
    # Every column of the box stretched to the probe, x then z, less the box's own the probe does not reach.
    x_low, z_low = np.minimum(ox0, qx0), np.minimum(oz0, qz0)
    z_count = np.maximum(oz1, qz1) - z_low
    per_box = (np.maximum(ox1, qx1) - x_low) * z_count
    box = np.arange(len(boxes)).repeat(per_box)
    place = np.arange(box.size) - (per_box.cumsum() - per_box).repeat(per_box)
    x, z = x_low.take(box) + place // z_count.take(box), z_low.take(box) + place % z_count.take(box)
    own = (ox0.take(box) <= x) & (x < ox1.take(box)) & (oz0.take(box) <= z) & (z < oz1.take(box))
    reached = (qx0.take(box) <= x) & (x < qx1.take(box)) & (qz0.take(box) <= z) & (z < qz1.take(box))
    scanned = ~own | reached
    box, x, z = box[scanned], x[scanned], z[scanned]
    column_top = top.take(box)
    depth = column_top - below_bottom.take(box)  # cells from the top down to below_bottom (excluded)
    first = depth.cumsum() - depth  # each column's first cell, the top one
    column = np.arange(depth.size).repeat(depth)
    place = np.arange(column.size) - first.repeat(depth)  # 0 at the top, counting down
    cells = np.stack((x.repeat(depth), column_top.repeat(depth) - place, z.repeat(depth)), axis=1)
    looked_at = np.stack((x, column_top - depth + 1, z, x, column_top, z), axis=1)
    if not keyed_cells(cells).all():  # beyond the cache's keys: cell by cell, as the brain reads them
        return np.array([_look_for_fluids(world, AABB(*b), AABB(*p), bool(lava), bool(deep))[1] for b, p, (lava, deep)
                         in zip(boxes.tolist(), probes.tolist(), avoided.tolist())], dtype=bool), _NO_WINDOWS
    codes = world_cache.materials_at(cells).astype(np.uint8)
    # The first cell of each column that holds a mob up (its depth when none): the scan stops there.
    stop = np.minimum.reduceat(np.where(_HELD_UP.take(codes), place, depth.take(column)), first)
    looked = place < stop.take(column)
    owner = box.take(column)
    found = looked & (codes == Material.LAVA) & avoided[:, 0].take(owner)
    water = codes == Material.WATER
    deep = looked & avoided[:, 1].take(owner)  # the top cell of DEEP_WATER_BLOCKS water cells, in one column
    for below in range(1, DEEP_WATER_BLOCKS):
        shifted = np.zeros(water.size, dtype=bool)
        shifted[:water.size - below] = water[below:] & (column[below:] == column[:column.size - below])
        deep &= shifted
    deep &= water
    return np.bincount(owner.compress(found | deep), minlength=len(boxes)) > 0, looked_at
