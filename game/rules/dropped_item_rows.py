"""Many dropped items as arrays: the items' tick for hundreds at once, bit for bit `step_item`'s.

Owns: `ItemRows` (the live items as numpy columns, in tick order: what a `DroppedItem` holds) and
its tick (`ItemRows.stepped`), which works out on arrays every item whose tick is plain and
steps the others with `game.rules.dropped_item.step_item`, the readable reference.
Does not own: what a tick does (`game.rules.dropped_item`, `physics.item_motion`), the clip rule
(`physics.clip.clip_axis`, mirrored here for unit cubes) or the world's blocks.

A tick is plain for an item that is not in a cobweb and not burning, when every cell of its
window (the cells its box, stretched by its move, overlaps, with a margin of CONTACT_TOLERANCE
on each side and one more layer below) holds air, a block of air material (a torch, a flower)
or a solid full cube, the cell of its centre is not an opaque full cube, and its moved box,
shrunk by the contact inset, meets no cube. Such a tick draws no random number and meets no
water, lava, cobweb or soul sand: it is gravity, Beta's clip against unit cubes on Y, X, Z (no
step-up), the move's flags and fall distance, the friction of the block under it (all in the
window), the drag and the no-bounce. Items do not change the world or each other, so every item
is stepped in any order; the sounds come in row order as `step_item` makes them.

Lying items still move each tick (gravity pulls them into the floor, their sideways speed
decays by 0.588 a tick for about 70 s before it underflows to 0): every live item is stepped.
A window is WINDOW cells (x, y, z) at most: a move of up to about 0.7 sideways and the 1.96 of a
full-speed fall fit; larger moves step one by one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from physics.aabb import AABB
from physics.body import Body
from physics.item_motion import (AIR_FRICTION, BOUNCE, GRAVITY, GROUND_FRICTION_FACTOR, ITEM_SETTINGS,
                                 VERTICAL_DRAG)
from physics.materials import Material
from physics.shapes import FULL_CUBE
from physics.tolerances import CONTACT_TOLERANCE

from .dropped_item import (MAX_AGE_TICKS, NORMAL_CUBE, NOT_BURNING, PICKUP_REACH, DroppedItem, ItemSound,
                            step_item)
from ..world.blocks import MATERIAL, SHAPES, SLIPPERINESS, SOLID
from ..world.coords import WORLD_BORDER, WORLD_HEIGHT

WINDOW = (2, 5, 2)
"""[cells] Most cells (x, y, z) an item's plain tick reads: 0.25 + a sideways move under ~0.75 spans
at most 2 cells (throws are 0.3 to 0.5); a full-speed fall (1.96) spans 4 layers, and the layer below
makes 5. (3 x 5 x 3 windows, for moves up to 1.7 sideways, cost 2.2x the work on every item.)"""
MARGIN = 2.0 * CONTACT_TOLERANCE
"""[blocks] How far beyond its stretched box an item's window reaches: the clip counts a cube
whose face lies up to CONTACT_TOLERANCE beyond the moving face."""
_CUBE = np.array([SOLID[i] and SHAPES[i] == FULL_CUBE and MATERIAL[i] == Material.SOLID
                  for i in range(len(SHAPES))], dtype=bool)
"""Blocks that are one unit box of plain solid material: the clip stops at them, nothing else happens."""
_PLAIN = _CUBE | np.array([not SOLID[i] and MATERIAL[i] == Material.AIR for i in range(len(SHAPES))], dtype=bool)
"""Blocks a plain tick may meet: those cubes, and blocks of air material without a shape."""
_FRICTION = np.array([np.float32(np.float32(s) * np.float32(GROUND_FRICTION_FACTOR)) for s in SLIPPERINESS],
                     dtype=np.float64)
"""X and Z velocity kept on the ground, by the id of the block below (`physics.item_motion.ground_friction`)."""
_OFFSETS = np.indices(WINDOW).reshape(3, -1).T  # (cells, 3): each window cell's offset from its low corner
_FLAGS = ("on_ground", "collided_horizontally", "collided_vertically", "in_water", "in_lava", "in_web")
_ON_GROUND, _COLLIDED_H, _COLLIDED_V, _IN_WATER, _IN_LAVA, _IN_WEB = range(len(_FLAGS))
_NO_TOUCH = np.empty(1, dtype=object)
_NO_TOUCH[0] = frozenset()


def _f32(values: np.ndarray) -> np.ndarray:
    return values.astype(np.float32).astype(np.float64)


@dataclass(frozen=True)
class KeptBodies:
    """The rows' keys, boxes and velocities last handed to the record (`ItemRows.changes_since`);
    `none()` before the first."""

    key: np.ndarray | None
    box: np.ndarray | None
    velocity: np.ndarray | None

    @classmethod
    def none(cls) -> KeptBodies:
        return cls(None, None, None)


def _rows_of(old_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """For each of `keys`, its row in `old_keys` (unique ints), -1 where it is not there."""
    if not len(old_keys):
        return np.full(len(keys), -1, dtype=np.int64)
    order = np.argsort(old_keys, kind="stable")
    ranked = old_keys[order]
    at = np.minimum(np.searchsorted(ranked, keys), len(ranked) - 1)
    return np.where(ranked[at] == keys, order[at], -1)


def _state(box: list[float], velocity: list[float]) -> tuple[str, AABB, tuple[float, float, float]]:
    """An item's body state for the record: ("item", box, velocity)."""
    return ("item", AABB._trusted(*box), tuple(velocity))


@dataclass
class ItemRows:
    """The items as one row each, in tick order."""

    key: np.ndarray  # int64
    stack: np.ndarray  # object: ItemStack
    box: np.ndarray  # (n, 6)
    velocity: np.ndarray  # (n, 3)
    flags: np.ndarray  # (n, 6) bool, _FLAGS order
    camera_lag: np.ndarray
    fall_distance: np.ndarray
    fall_damage: np.ndarray  # int64
    touching: np.ndarray  # object: frozensets
    previous: np.ndarray  # (n, 6)
    ints: np.ndarray  # (n, 5) int64: age, pickup delay, health, fire, rand
    angles: np.ndarray  # (n, 2): hover, yaw
    resting: np.ndarray  # (n,) bool: the last tick was a plain one that changed none of the row's motion

    def __len__(self) -> int:
        return len(self.key)

    @classmethod
    def of(cls, items: Sequence[DroppedItem]) -> ItemRows:
        bodies = [item.body for item in items]
        stacks = np.empty(len(items), dtype=object)
        stacks[:] = [item.stack for item in items]
        touching = np.empty(len(items), dtype=object)
        touching[:] = [body.touching for body in bodies]
        return cls(np.array([item.key for item in items], dtype=np.int64), stacks,
                   np.array([tuple(body.box) for body in bodies], dtype=np.float64).reshape(-1, 6),
                   np.array([body.velocity for body in bodies], dtype=np.float64).reshape(-1, 3),
                   np.array([[getattr(body, name) for name in _FLAGS] for body in bodies], dtype=bool).reshape(-1, 6),
                   np.array([body.camera_lag for body in bodies], dtype=np.float64),
                   np.array([body.fall_distance for body in bodies], dtype=np.float64),
                   np.array([body.fall_damage for body in bodies], dtype=np.int64), touching,
                   np.array([tuple(item.previous) for item in items], dtype=np.float64).reshape(-1, 6),
                   np.array([(item.age, item.pickup_delay, item.health, item.fire, item.rand) for item in items],
                            dtype=np.int64).reshape(-1, 5),
                   np.array([(item.hover, item.yaw) for item in items], dtype=np.float64).reshape(-1, 2),
                   np.zeros(len(items), dtype=bool))

    def item(self, row: int) -> DroppedItem:
        return self.items(np.array([row]))[0]

    def items(self, rows=None) -> list[DroppedItem]:
        """Rows `rows` (default: all) as DroppedItems (the values read back exactly)."""
        part = self if rows is None else self.rows(rows)
        made = []
        columns = zip(part.key.tolist(), part.stack.tolist(), part.box.tolist(), part.velocity.tolist(),
                      part.flags.tolist(), part.camera_lag.tolist(), part.fall_distance.tolist(),
                      part.fall_damage.tolist(), part.touching.tolist(), part.previous.tolist(), part.ints.tolist(),
                      part.angles.tolist())
        for key, stack, box, velocity, flags, lag, fall, damage, touching, previous, ints, angles in columns:
            body = Body._trusted(AABB._trusted(*box), tuple(velocity), *flags[:3], lag, fall, *flags[3:], damage,
                                 touching)
            made.append(DroppedItem(key, stack, body, AABB._trusted(*previous), *ints, *angles))
        return made

    def rows(self, index) -> ItemRows:
        return ItemRows(*(getattr(self, name)[index] for name in self.__dataclass_fields__))

    def joined(self, item: DroppedItem) -> ItemRows:
        other = ItemRows.of([item])
        return ItemRows(*(np.concatenate([getattr(self, name), getattr(other, name)])
                          for name in self.__dataclass_fields__))

    def put(self, row: int, item: DroppedItem) -> None:
        one = ItemRows.of([item])
        for name in self.__dataclass_fields__:
            getattr(self, name)[row] = getattr(one, name)[0]

    def bodies(self) -> dict[str, tuple[str, AABB, tuple[float, float, float]]]:
        """"item:<key>" -> ("item", box, velocity) for every row."""
        made = AABB._trusted
        return {f"item:{key}": ("item", made(*box), tuple(velocity))
                for key, box, velocity in zip(self.key.tolist(), self.box.tolist(), self.velocity.tolist())}

    def changes_since(self, kept: KeptBodies) -> tuple[KeptBodies, list, list]:
        """The rows' bodies against `kept` (the rows last handed to the record): (these rows' keys,
        boxes and velocities to keep; [(key, state, appeared)] for the rows new, or whose box or
        velocity differs (!=, as the record compares them), in row order; [(key, state)] for the kept
        rows gone, in their order). Only those rows become Python values: comparing two `bodies()`
        mappings (`tick_changes.body_changes`) is its twin, and a test compares them."""
        keys = self.key
        if not len(keys) and kept.key is not None and not len(kept.key):
            return kept, [], []  # no items then or now (most ticks of a game without drops)
        if kept.key is not None and np.array_equal(kept.key, keys):
            rows = ((self.box != kept.box).any(axis=1) | (self.velocity != kept.velocity).any(axis=1)).nonzero()[0]
            appeared = np.zeros(len(rows), dtype=bool)
            gone_rows: list[int] = []
        else:
            old_keys = np.zeros(0, dtype=np.int64) if kept.key is None else kept.key
            old_rows = _rows_of(old_keys, keys)
            new = old_rows < 0
            moved = np.zeros(len(keys), dtype=bool)
            if (~new).any():
                was = old_rows[~new]
                moved[~new] = ((self.box[~new] != kept.box[was]).any(axis=1)
                               | (self.velocity[~new] != kept.velocity[was]).any(axis=1))
            rows = (new | moved).nonzero()[0]
            appeared = new[rows]
            gone_rows = np.isin(old_keys, keys, invert=True).nonzero()[0].tolist()
        changed = [(f"item:{key}", _state(box, velocity), first) for key, box, velocity, first in
                   zip(keys[rows].tolist(), self.box[rows].tolist(), self.velocity[rows].tolist(), appeared.tolist())]
        gone = [(f"item:{key}", _state(box, velocity)) for key, box, velocity in
                zip(kept.key[gone_rows].tolist(), kept.box[gone_rows].tolist(), kept.velocity[gone_rows].tolist())] \
            if gone_rows else []
        return KeptBodies(keys.copy(), self.box.copy(), self.velocity.copy()), changed, gone

    def touched_by(self, player_box: AABB) -> list[int]:
        """The rows, in order, whose pickup delay is 0 and whose box a player with `player_box`
        touches (`dropped_item.touches`, on arrays)."""
        b = self.box
        hit = ((self.ints[:, 1] == 0) & (b[:, 3] > player_box[0] - PICKUP_REACH)
               & (b[:, 0] < player_box[3] + PICKUP_REACH) & (b[:, 4] > player_box[1]) & (b[:, 1] < player_box[4])
               & (b[:, 5] > player_box[2] - PICKUP_REACH) & (b[:, 2] < player_box[5] + PICKUP_REACH))
        return hit.nonzero()[0].tolist()

    # --- the tick ------------------------------------------------------------------------------------

    def stepped(self, world, changed: list | None = None) -> tuple[ItemRows, list[ItemSound], int]:
        """Every item a tick on (the gone removed), the sounds made, and how many were stepped on
        arrays. `changed`: the cells the world changed since the last tick (None: unknown). A row
        at rest (its last tick, a plain one, changed none of its motion) with no changed cell near it
        only ages: its tick is a function of its motion and the cells around it, both as they were
        when that tick left it unchanged, so it would leave it unchanged again (`_aged`; the
        twin is the full tick, and a test compares them)."""
        skip = self._resting_apart_from(changed)
        if not skip.any():
            after, keep, sounds, plain = self._stepped_all(world)
        else:
            work = (~skip).nonzero()[0]
            part, part_keep, sounds, plain = self.rows(work)._stepped_all(world)
            after = ItemRows(*(getattr(self, name).copy() for name in self.__dataclass_fields__))
            for name in self.__dataclass_fields__:
                getattr(after, name)[work] = getattr(part, name)
            keep = np.ones(len(self), dtype=bool)
            keep[work] = part_keep
            rested = skip.nonzero()[0]
            _aged(after, rested)
            keep[rested] &= after.ints[rested, 0] < MAX_AGE_TICKS
            plain += len(rested)
        return (after if keep.all() else after.rows(keep)), sounds, plain

    def _resting_apart_from(self, changed: list | None) -> np.ndarray:
        """The rows at rest with none of `changed` within REST_REACH of their box (none when
        `changed` is None or longer than MOST_CHANGED_CELLS)."""
        if changed is None or len(changed) > MOST_CHANGED_CELLS or not self.resting.any():
            return np.zeros(len(self), dtype=bool)
        skip = self.resting.copy()
        if changed:
            cells = np.asarray(changed, dtype=np.float64).reshape(-1, 3)
            low = np.floor(self.box[:, :3]) - REST_REACH
            high = np.floor(self.box[:, 3:]) + REST_REACH
            near = ((cells[None, :, :] >= low[:, None, :]) & (cells[None, :, :] <= high[:, None, :])).all(axis=2)
            skip &= ~near.any(axis=1)
        return skip

    def _stepped_all(self, world) -> tuple[ItemRows, np.ndarray, list[ItemSound], int]:
        """Every row's tick: (the rows after, which stay, the sounds, how many were plain)."""
        after, plain = _plain_tick(self, world)
        sounds: list[ItemSound] = []
        keep = np.ones(len(self), dtype=bool)
        others = (~plain).nonzero()[0]
        stepped_rows, stepped_items = [], []
        for row, item in zip(others.tolist(), self.items(others)):
            moved, made = step_item(item, world)
            sounds.extend(made)
            if moved is None:
                keep[row] = False
            else:
                stepped_rows.append(row)
                stepped_items.append(moved)
        if stepped_rows:
            fresh = ItemRows.of(stepped_items)
            for name in self.__dataclass_fields__:
                getattr(after, name)[stepped_rows] = getattr(fresh, name)
        keep &= ~(plain & (after.ints[:, 0] >= MAX_AGE_TICKS))
        return after, keep, sounds, int(plain.sum())


MOST_CHANGED_CELLS = 256
"""[cells] More cells changed since the last tick than this, and no row skips its tick (checking each
against every row would cost more than it saves)."""
REST_REACH = 3.0
"""[blocks] A changed cell this near a resting row's box (its cells' bounds) may be in the cells its
tick reads (the move's margin, the block below for friction): that row takes its full tick."""


def _aged(after: ItemRows, rows: np.ndarray) -> None:
    """Rows at rest, a tick on: only their counters move (age, pickup delay), as the plain tick's."""
    ints = after.ints
    ints[rows, 0] += 1
    ints[rows, 1] = np.maximum(ints[rows, 1] - 1, 0)


def _unchanged(before: ItemRows, after: ItemRows, rows: np.ndarray) -> np.ndarray:
    """Of `rows`, those whose motion (box, velocity, flags, camera lag, fall distance and damage,
    last box, touching, fire) is the same to the bit before and after a tick."""
    same = np.ones(len(rows), dtype=bool)
    for name in ("box", "velocity", "previous"):
        same &= (getattr(before, name)[rows].view(np.uint64) == getattr(after, name)[rows].view(np.uint64)).all(axis=1)
    for name in ("camera_lag", "fall_distance"):
        same &= getattr(before, name)[rows].view(np.uint64) == getattr(after, name)[rows].view(np.uint64)
    same &= (before.flags[rows] == after.flags[rows]).all(axis=1)
    same &= (before.fall_damage[rows] == after.fall_damage[rows]) & (before.ints[rows, 3] == after.ints[rows, 3])
    same &= np.fromiter((a is b for a, b in zip(before.touching[rows].tolist(), after.touching[rows].tolist())),
                        dtype=bool, count=len(rows))
    return same


def _plain_tick(rows: ItemRows, world) -> tuple[ItemRows, np.ndarray]:
    """The rows with every plain item's tick done on arrays (the module docstring), and which were plain."""
    n = len(rows)
    after = ItemRows(*(getattr(rows, name).copy() for name in rows.__dataclass_fields__))
    after.resting[:] = False
    if not n:
        return after, np.zeros(0, dtype=bool)
    box, velocity = rows.box, rows.velocity
    dx, dy, dz = velocity[:, 0], velocity[:, 1] - GRAVITY, velocity[:, 2]
    x0, y0, z0, x1, y1, z1 = box.T
    lx, ly, lz = (np.floor(np.minimum(a, a + d) - MARGIN) for a, d in ((x0, dx), (y0, dy), (z0, dz)))
    ly -= 1.0
    hx, hy, hz = (np.floor(np.maximum(a, a + d) + MARGIN) for a, d in ((x1, dx), (y1, dy), (z1, dz)))
    plain = (~rows.flags[:, _IN_WEB] & (rows.ints[:, 3] <= 0)
             & (hx - lx < WINDOW[0]) & (hy - ly < WINDOW[1]) & (hz - lz < WINDOW[2])
             & (ly >= 0.0) & (hy < WORLD_HEIGHT)
             & (np.abs(lx) < WORLD_BORDER) & (np.abs(lz) < WORLD_BORDER)
             & (np.abs(hx) < WORLD_BORDER) & (np.abs(hz) < WORLD_BORDER))
    candidates = plain.nonzero()[0]
    if not candidates.size:
        return after, plain
    lo = np.stack([lx.take(candidates), ly.take(candidates), lz.take(candidates)], axis=1).astype(np.int64)
    span = np.stack([hx.take(candidates), hy.take(candidates), hz.take(candidates)], axis=1).astype(np.int64) - lo
    ids = _window_ids(world, lo)  # (k, cells)
    ox, oy, oz = _OFFSETS.T
    inside = (ox <= span[:, :1]) & (oy <= span[:, 1:2]) & (oz <= span[:, 2:])
    ids = np.where(inside, ids, 0)
    ok = _PLAIN[ids].all(axis=1)
    b = box.take(candidates, axis=0)
    centre = np.stack([np.floor((b[:, 0] + b[:, 3]) / 2.0), np.floor((b[:, 1] + b[:, 4]) / 2.0),
                       np.floor((b[:, 2] + b[:, 5]) / 2.0)], axis=1).astype(np.int64)
    ok &= ~NORMAL_CUBE[_cell_ids(ids, lo, centre)]
    pr, pc = (_CUBE[ids] & ok[:, None]).nonzero()  # the cubes, row by row
    px, py, pz = (lo[:, i].take(pr).astype(np.float64) + offset.take(pc) for i, offset in enumerate((ox, oy, oz)))
    moved, allowed = _clip(b, dx.take(candidates), dy.take(candidates), dz.take(candidates), pr, px, py, pz)
    if pr.size:  # a cube in the cells the contact pass visits: the item overlaps it (rare): one by one
        inset = ITEM_SETTINGS.contact_inset
        met = np.ones(len(pr), dtype=bool)
        for axis, c in enumerate((px, py, pz)):
            met &= (c >= np.floor(moved[:, axis] + inset).take(pr)) & (c <= np.floor(moved[:, axis + 3] - inset).take(pr))
        ok[pr[met]] = False
    rows_ok = candidates[ok]
    plain[:] = False
    plain[rows_ok] = True
    if rows_ok.size:
        below = np.stack([np.floor((moved[:, 0] + moved[:, 3]) / 2.0), np.floor(moved[:, 1]) - 1.0,
                          np.floor((moved[:, 2] + moved[:, 5]) / 2.0)], axis=1).astype(np.int64)
        friction_ids = _cell_ids(ids, lo, below)
        _finish(rows, after, rows_ok, ok, moved, allowed, (dx, dy, dz), friction_ids)
        after.resting[rows_ok] = _unchanged(rows, after, rows_ok)
    return after, plain


MAX_SHARED_READ_CELLS = 1 << 18
"""[cells] The windows are read with one `ids_in_box` over the box around them all while it holds
at most this many cells (items near a few players: one read of ~100 us), else one per column."""


def _window_ids(world, lo: np.ndarray) -> np.ndarray:
    """The block ids of each window (low corners `lo`, WINDOW cells), (k, cells): one `ids_in_box`
    around them all, or one per column of low corners when that box would be large."""
    low, high = lo.min(axis=0), lo.max(axis=0) + WINDOW
    if int(np.prod(high - low)) <= MAX_SHARED_READ_CELLS:
        groups = [slice(None)]
    else:
        columns = ((lo[:, 0] >> 4) << 32) + ((lo[:, 2] >> 4) & 0xFFFFFFFF)
        order = np.argsort(columns, kind="stable")
        groups = np.split(order, np.flatnonzero(np.diff(columns[order])) + 1)
    out = np.empty((len(lo), _OFFSETS.shape[0]), dtype=np.int64)
    for group in groups:
        g = lo[group]
        gl, gh = g.min(axis=0), g.max(axis=0) + WINDOW
        block = world.ids_in_box(*gl.tolist(), *gh.tolist())
        size = gh - gl
        at = g - gl
        base = (at[:, 0] * size[1] + at[:, 1]) * size[2] + at[:, 2]
        steps = (_OFFSETS[:, 0] * size[1] + _OFFSETS[:, 1]) * size[2] + _OFFSETS[:, 2]
        out[group] = np.ascontiguousarray(block).reshape(-1).take(base[:, None] + steps)
    return out


def _cell_ids(ids: np.ndarray, lo: np.ndarray, cell: np.ndarray) -> np.ndarray:
    """The id of one cell per window (`cell` (k, 3), inside its window)."""
    at = cell - lo
    index = (at[:, 0] * WINDOW[1] + at[:, 1]) * WINDOW[2] + at[:, 2]
    return ids[np.arange(len(ids)), index]


def _clip(box: np.ndarray, dx: np.ndarray, dy: np.ndarray, dz: np.ndarray, pr: np.ndarray,
          px: np.ndarray, py: np.ndarray, pz: np.ndarray) -> tuple[np.ndarray, tuple]:
    """`physics.clip.clip_axis` on Y, then X, then Z against unit cubes, moving the box after each
    (as `mover._clip_boxes_y_x_z`). The cubes come as pairs: row `pr` (ascending) has a cube at
    cell (px, py, pz). Returns the moved boxes and the allowed (dx, dy, dz)."""
    tol = CONTACT_TOLERANCE
    x0, y0, z0, x1, y1, z1 = (box[:, i].copy() for i in range(6))
    starts = np.empty(0, dtype=np.int64) if not pr.size else np.concatenate(([0], (pr[1:] != pr[:-1]).nonzero()[0] + 1))
    rows = pr.take(starts)  # pr is ascending: each row's first pair

    def overlap(lo, hi, c):
        return (c + 1.0 > lo.take(pr) + tol) & (c < hi.take(pr) - tol)

    def axis(delta, face_lo, face_hi, c, meets):
        # A move down is a move up mirrored: gaps and deltas negated (exactly), the result negated
        # back; a clamp to zero comes out as -0.0 then, which nothing tells from 0.0 (the box moves
        # only by a nonzero delta, and a clipped velocity becomes 0.0).
        up = delta > 0.0
        gap = np.where(up.take(pr), c - face_hi.take(pr), face_lo.take(pr) - (c + 1.0))
        ahead = np.full(len(delta), np.inf)
        if rows.size:
            ahead[rows] = np.minimum.reduceat(np.where(meets & (gap >= -tol), np.maximum(gap, 0.0), np.inf), starts)
        return np.where(up, np.minimum(delta, ahead), np.where(delta < 0.0, -np.minimum(-delta, ahead), delta))

    ady = axis(dy, y0, y1, py, overlap(x0, x1, px) & overlap(z0, z1, pz))
    y0, y1 = np.where(ady != 0.0, y0 + ady, y0), np.where(ady != 0.0, y1 + ady, y1)
    adx = axis(dx, x0, x1, px, overlap(y0, y1, py) & overlap(z0, z1, pz))
    x0, x1 = np.where(adx != 0.0, x0 + adx, x0), np.where(adx != 0.0, x1 + adx, x1)
    adz = axis(dz, z0, z1, pz, overlap(x0, x1, px) & overlap(y0, y1, py))
    z0, z1 = np.where(adz != 0.0, z0 + adz, z0), np.where(adz != 0.0, z1 + adz, z1)
    return np.stack([x0, y0, z0, x1, y1, z1], axis=1), (adx, ady, adz)


def _finish(rows: ItemRows, after: ItemRows, rows_ok: np.ndarray, ok: np.ndarray, moved: np.ndarray,
            allowed: tuple, requested: tuple, friction_ids: np.ndarray) -> None:
    """Write the plain rows' ticks: `physics.mover.finish_move`'s flags, velocity and fall distance,
    then `physics.item_motion.item_move`'s friction, drag and bounce, then the item's counters."""
    if rows_ok.size == len(rows):  # every row plain (most ticks): basic indexing, far cheaper than fancy
        rows_ok, ok = slice(None), slice(None)
    adx, ady, adz = (a[ok] for a in allowed)
    dx, dy, dz = (d[rows_ok] for d in requested)
    vx = np.where(dx != adx, 0.0, dx)
    vy = np.where(dy != ady, 0.0, dy)
    vz = np.where(dz != adz, 0.0, dz)
    landed = (dy != ady) & (dy < 0.0)
    fall = rows.fall_distance[rows_ok]
    damage = np.where(landed & (fall > 0.0), np.maximum(0.0, np.ceil(_f32(fall - ITEM_SETTINGS.safe_fall_distance))),
                      0.0)
    after.fall_distance[rows_ok] = np.where(landed, np.where(fall > 0.0, 0.0, fall),
                                            np.where(ady < 0.0, _f32(fall - ady), fall))
    after.fall_damage[rows_ok] = damage.astype(np.int64)
    friction = np.where(landed, _FRICTION[friction_ids[ok]], AIR_FRICTION)
    vy = vy * VERTICAL_DRAG
    vy = np.where(landed, vy * BOUNCE, vy)
    after.velocity[rows_ok] = np.stack([vx * friction, vy, vz * friction], axis=1)
    after.box[rows_ok] = moved[ok]
    flags = after.flags
    flags[rows_ok, _ON_GROUND] = landed
    flags[rows_ok, _COLLIDED_H] = (dx != adx) | (dz != adz)
    flags[rows_ok, _COLLIDED_V] = dy != ady
    flags[rows_ok, _IN_WATER] = flags[rows_ok, _IN_LAVA] = flags[rows_ok, _IN_WEB] = False
    after.camera_lag[rows_ok] = _f32(rows.camera_lag[rows_ok] * ITEM_SETTINGS.camera_lag_decay)
    after.touching[rows_ok] = _NO_TOUCH
    after.previous[rows_ok] = rows.box[rows_ok]
    ints = after.ints
    ints[rows_ok, 0] += 1  # age
    ints[rows_ok, 1] = np.maximum(ints[rows_ok, 1] - 1, 0)  # pickup delay
    ints[rows_ok, 3] = NOT_BURNING  # no burning cell met; its fire was <= 0
