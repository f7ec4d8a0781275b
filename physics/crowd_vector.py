"""The vectorised crowd tick: one `Crowd` tick for many bodies at once with numpy, giving the
same numbers as the one-by-one path (`crowd_one_by_one.step_one_by_one`, the definition) to the
last bit.

Owns: `VectorTick` (one tick over the crowd's numpy columns), the array versions of `tick.step`'s
arithmetic and of `clip.clip_axis`, the per-body block box lists the clips read, the push
partners a tick may need (`PushCandidates`) and what a tick leaves for the next (`TickMemory`).
Does not own: the crowd as a container (`crowd.py`), the order of a tick
(`crowd_one_by_one.py`, where a tick whose push rounds would cost too much finishes), the
tuning values it reads (`crowd_settings.CrowdSettings`), the push rule (`push.py`), finding
neighbours and block boxes (`broad_phase.py`).

A body's step reads one thing the others change: its velocity, which before its own step holds
the pushes of the *earlier* bodies that meet it, computed from their stepped positions and its
own unstepped position. So the tick iterates:
1. step every body with its velocity plus guessed pushes (`VectorTick._guess`): the pushes
   the bodies would give if each made the move its velocity asks for, unless its last step was
   stopped moving that way. Most bodies move freely, and for them the guess is exact;
2. from the stepped boxes, find for each body the pushes its earlier neighbours give it before
   it steps; the bodies whose pushed velocity changed are stepped again; repeat until none
   changes. Body i only depends on bodies before it, so after r rounds every body whose chain of
   earlier pushers is shorter than r is exact, and the first round with no change is exactly
   the sequential result, whatever the guess was: the sequential velocities are the only ones
   that reproduce themselves. (The benchmark's crowd, a body every 4 blocks^2, re-steps about
   240 bodies in 3 to 5 rounds without the guess, and about 6 in 1 or 2 with it; a row of 40
   bodies pushing each other needs 14 or 15 rounds without it, 5 or 6 with it.) Once the rounds
   would cost more than finishing the tick one by one (`CrowdSettings.round_cost_in_steps`), the
   rest of the tick runs one by one from the first unsettled body.
3. the pushes after each body's step (to bodies before it, and from bodies after it) are added
   to the stepped velocities in Beta's order.
Every velocity sum is accumulated in the order the sequential tick adds it, so the result is
the same to the last bit, not merely close. The push bound (`push.MAX_PUSH_SPEED`, `push.bounded`)
is applied on the way, in steps 1 to 3, as the one-by-one path applies it (`bounded_in_order`): only
the few bodies whose pushes could reach it are bounded one push at a time, so monsters pressed
round a player, whose pushes reach it on most ticks, keep the vectorised path. Bodies that sneak (Beta's edge guard is a loop of
world queries), fly, start the tick in a cobweb, move through a tile of the world cache that
holds a cell other than AIR and SOLID (water, lava, a ladder, a web, soul sand, a cactus), whose move spans more than `CrowdSettings.max_window_cells` cells or
reaches cells without a key (beyond `broad_phase.KEYED_XZ` or `KEYED_Y`) step with `physics.step` inside the
same scheme. Creatures' traits (`Intent.climbs_walls`, `Intent.slow_fall`) are on the vectorised
path: a few selections, only in ticks where some body has them (`VectorTick._creature_traits`).

Why it is shaped this way (measured with `python -m bench crowd`): a numpy call costs a
microsecond or more whatever its size, and the rounds after the first step only a few bodies, so what
counts is the number of calls per round, then the size of the arrays.
- Push partners are found with `broad_phase.near_pairs` for boxes grown by
  `CrowdSettings.push_candidate_margin_blocks` around both the unstepped and the first stepped
  box (`PushCandidates`), and kept by the crowd for later ticks; each round then tests only the candidate pairs of the bodies it stepped again, with a
  handful of calls. A body whose box leaves its grown box makes the tick find them afresh.
- Gathers use `take` and `compress`, not fancy indexing: numpy's fancy indexing of 2-d arrays
  costs 3 to 5 times more (measured: 5,400 rows of 6 floats, 14 us against 62 to 77 us).
- Each body clips against a flat list of its own block boxes (`BoxLists`), not a padded array as
  wide as the body with the most boxes (a body has 1 to 20; padding tripled the work).
- The block boxes come from `broad_phase.WorldCache`, which asks the world for each block cell
  once, and keeps them from tick to tick when the world has a `revision` attribute (an int it
  changes whenever a block changes). Each body also keeps its own copy of the boxes it was
  given, in crowd order, with the cell range they cover (`Gathered`): a move that stays inside
  that range, when the body is stepped again in a tick or in the next tick (most wandering
  bodies do), reuses them, read in order rather than picked from all over the cache.
- Guessing the pushes (step 1) costs a few numpy calls over the push pairs per guess round; a
  round of re-stepping costs 150 to 300 us however few bodies it steps.
- Each clip reduces only the boxes that can stop the move (`np.minimum.at` over a few), not
  every box (`np.minimum.reduceat` over all of them cost twice as much).
- What depends on an intent alone is worked out once per distinct Intent object (a crowd
  shares a few dozen), and a body's slipperiness is kept while it stands on the same block.
- Array methods, not numpy's module functions that wrap them in Python (`np.repeat`,
  `np.cumsum`, `np.flatnonzero`, `np.argsort`, `np.searchsorted`, `np.stack`, and the `all`
  and `any` methods themselves: about 1 us more a call, on hundreds of calls a tick), and no
  reductions along the first axis of (n, 3) arrays (5 to 10 times slower than a column's).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .body import Body, Intent
from .broad_phase import WorldCache, appended, cell_keys, cells_of_keys, keyed, keyed_cells, near_pairs, windows_of
from .clip import X, Y, Z
from .crowd_one_by_one import step_one_by_one
from .crowd_settings import CrowdSettings
from .materials import Material, has_materials
from .floats import DEG_TO_RAD_F, PI_F, QUARTER_TURN, SIN_TABLE, TABLE_SCALE
from .push import MAX_PUSH_SPEED, MIN_PUSH_DISTANCE, PUSH_REACH, PUSH_STRENGTH
from .settings import MovementSettings
from .tick import DEGREES_PER_HALF_TURN, MIN_INPUT, step
from .tolerances import CONTACT_TOLERANCE
from .world import CollisionWorld

# --- float32 arithmetic on arrays --------------------------------------------------------------
# Every function below mirrors a scalar one operation for operation (the float32 roundings of
# `tick.step`, the clip rule of `clip.clip_axis`, the order of `mover.collide`), so the results
# are the same bits. Where a scalar step has a branch, the vector code computes both sides and
# selects, which gives the same values.

_SIN = np.asarray(SIN_TABLE, dtype=np.float64)

BOUND_MARGIN = 1e-9
"""[1] A body whose pushes, added up without their signs, come within this fraction of
`max_push_speed` may reach it: float sums of a tick's pushes (at most thousands) differ from
the exact sum by far less (n x 1.1e-16 relative)."""


def _f32(values: np.ndarray) -> np.ndarray:
    """`floats.f32` on an array: round to binary32, back to float64."""
    return values.astype(np.float32).astype(np.float64)


def _beta_sin(radians: np.ndarray) -> np.ndarray:
    return _SIN[_f32(radians * TABLE_SCALE).astype(np.int64) & 0xFFFF]


def _beta_cos(radians: np.ndarray) -> np.ndarray:
    return _SIN[_f32(_f32(radians * TABLE_SCALE) + QUARTER_TURN).astype(np.int64) & 0xFFFF]


# --- block boxes, body by body -----------------------------------------------------------------

class Gathered:
    """What each crowd row read from the world cache while it keeps its `generation`: the block
    boxes of the row (`WorldCache.slots`, `WorldCache.corners`) with the cell range they cover,
    and the block the row last stood on with its slipperiness (`slipperiness`).

    A body whose move lies inside its row's range uses those boxes (the extra boxes change no
    clip): within a tick when it is stepped again, and in the next tick while the world cache
    keeps its `generation` (most wandering bodies stay within last tick's cells).

    The boxes are copied here rather than kept as columns of the world cache's boxes. Between two
    ticks the rest of a game (or the benchmark's reference crowd) pushes the cache out of the
    processor's caches, and picking boxes from all over it then costs ~10x what it costs warm
    (5,400 boxes: 250 us against 26 us); the copies are read in order, and only a fifth of the
    bodies need fresh ones a tick.
    The corners are six flat arrays: row after row when packed, then fresh runs appended (each
    row's run starts at `start` and holds `used` boxes). A lookup of every row packs them (it
    reads them all anyway), as does a lookup that finds them more than
    `CrowdSettings.gathered_spare_runs` times as long as the boxes in use."""

    __slots__ = ("generation", "forgets_seen", "spare_runs", "corners", "size", "in_use", "start", "used", "window",
                 "slip_cell", "slip")

    def __init__(self, count: int, generation: int, tuning: CrowdSettings) -> None:
        self.generation = generation
        self.forgets_seen = 0
        """How many of the world cache's one-by-one forgets (`WorldCache.forgotten_since`) `forget` has applied."""
        self.spare_runs = tuning.gathered_spare_runs
        self.corners = tuple(np.empty(0) for _ in range(6))  # grown by the first lookup
        self.size = 0  # boxes written
        self.in_use = 0  # boxes some row's run holds
        self.start = np.zeros(count, dtype=np.int64)
        self.used = np.zeros(count, dtype=np.int64)
        # No range yet: low above high.
        self.window = np.concatenate((np.full((count, 3), np.iinfo(np.int64).max),
                                      np.full((count, 3), np.iinfo(np.int64).min)), axis=1)
        self.slip_cell = np.full(count, -1, dtype=np.int64)  # a `broad_phase.cell_keys` key; -1: none yet
        self.slip = np.zeros(count)

    def forget(self, world_cache: WorldCache) -> None:
        """Drop what the rows copied out of tiles the world cache has forgotten since the last call
        (blocks changed there): a row whose cell range meets one gathers its boxes again, and a row
        that stood on a block in one reads its slipperiness again."""
        windows, self.forgets_seen = world_cache.forgotten_since(self.forgets_seen)
        if not len(windows):
            return
        w, standing = self.window, cells_of_keys(self.slip_cell)
        stale = np.zeros(len(self.used), dtype=bool)
        stood = np.zeros(len(self.used), dtype=bool)
        for lo_x, lo_y, lo_z, hi_x, hi_y, hi_z in windows.tolist():  # a few tiles a tick
            stale |= ((w[:, 0] <= hi_x) & (w[:, 3] >= lo_x) & (w[:, 1] <= hi_y) & (w[:, 4] >= lo_y)
                      & (w[:, 2] <= hi_z) & (w[:, 5] >= lo_z))
            stood |= ((standing[:, 0] >= lo_x) & (standing[:, 0] <= hi_x) & (standing[:, 1] >= lo_y)
                      & (standing[:, 1] <= hi_y) & (standing[:, 2] >= lo_z) & (standing[:, 2] <= hi_z))
        w[stale, :3] = np.iinfo(np.int64).max  # no range: low above high, so no move is covered
        w[stale, 3:] = np.iinfo(np.int64).min
        self.slip_cell[stood] = -1

    def slipperiness(self, rows: np.ndarray, below: np.ndarray, world_cache: WorldCache) -> np.ndarray:
        """The slipperiness of the blocks `below` ((k, 3) keyed cells) bodies `rows` stand on:
        the value the row kept when it stands on the block it stood on last (most bodies), and
        the world cache's otherwise."""
        cells = cell_keys(below[:, 0], below[:, 1], below[:, 2])
        slip = self.slip.take(rows)
        fresh = (self.slip_cell.take(rows) != cells).nonzero()[0]
        if fresh.size:
            slip[fresh] = world_cache.slipperiness(below.take(fresh, axis=0))
        self.slip_cell[rows], self.slip[rows] = cells, slip
        return slip

    def lookup(self, rows: np.ndarray, windows: np.ndarray, world_cache: WorldCache) -> BoxLists:
        """The block boxes of bodies `rows` (ascending) moving through cell ranges `windows`,
        gathering the ones not covered yet."""
        old = self.window.take(rows, axis=0)
        covered = np.ones(len(rows), dtype=bool)
        for axis in range(3):  # axis by axis: numpy's reductions along rows cost more
            covered &= old[:, axis] <= windows[:, axis]
            covered &= windows[:, axis + 3] <= old[:, axis + 3]
        fresh = (~covered).nonzero()[0]
        if fresh.size:
            wanted = windows.take(fresh, axis=0)
            columns, used = world_cache.slots(wanted)
            at = rows.take(fresh)
            self.in_use += columns.size - int(self.used.take(at).sum())
            self.start[at] = self.size + used.cumsum() - used
            self.used[at] = used
            self.window[at] = wanted
            self.corners = tuple(appended(mine, self.size, theirs)
                                 for mine, theirs in zip(self.corners, world_cache.corners(columns)))
            self.size += columns.size
        return self.lists(rows)

    def lists(self, rows: np.ndarray) -> BoxLists:
        """The boxes of bodies `rows` (ascending) as they are, covered or not."""
        k = len(rows)
        if k == len(self.used):  # every row, in order
            boxes, used = self._pack(rows), self.used.copy()
        else:
            if self.size > self.spare_runs * self.in_use + len(self.used):
                self._pack(np.arange(len(self.used)))
            used = self.used.take(rows)
            boxes = self._boxes_of(rows, used)
        return BoxLists(boxes, np.arange(k).repeat(used))

    def _boxes_of(self, rows: np.ndarray, used: np.ndarray, room: int = 0) -> tuple[np.ndarray, ...]:
        """The corners of the boxes of `rows`, row after row; each array a view of one with
        `room` more entries after it."""
        index = _runs(self.start.take(rows), used)
        if not room:
            return tuple(corner.take(index) for corner in self.corners)
        return tuple(corner.take(index, out=np.empty(index.size + room)[:index.size]) for corner in self.corners)

    def _pack(self, every: np.ndarray) -> tuple[np.ndarray, ...]:
        """Keep only the boxes in use, row after row (`every` is every row, in order), with room
        for a tick's fresh boxes after them."""
        boxes = self._boxes_of(every, self.used, room=self.in_use // 2 + 16)
        self.corners = tuple(corner.base for corner in boxes)
        self.size = self.in_use
        self.start = self.used.cumsum() - self.used
        return boxes


def _runs(start: np.ndarray, count: np.ndarray) -> np.ndarray:
    """The indices start[0], ..., start[0] + count[0] - 1, start[1], ...: runs one after another."""
    ends = count.cumsum()
    return (start - (ends - count)).repeat(count) + np.arange(int(ends[-1]) if ends.size else 0)


class BoxLists:
    """The block boxes of k bodies as one flat list: corners (six arrays, min x first, see
    `WorldCache.corners`) and the body each belongs to (ascending)."""

    __slots__ = ("boxes", "body")

    def __init__(self, boxes: tuple[np.ndarray, ...], body: np.ndarray) -> None:
        self.boxes = boxes
        self.body = body


def _overlaps(lists: BoxLists, box: np.ndarray, axis: int) -> np.ndarray:
    """For each listed block box: does it overlap its body's `box` ((k, 6)) on `axis` by more
    than the tolerance (`clip.clip_axis`'s test on the two other axes)?"""
    tol, b, at = CONTACT_TOLERANCE, lists.boxes, lists.body
    return (b[axis + 3] > (box[:, axis] + tol)[at]) & (b[axis] < (box[:, axis + 3] - tol)[at])


def _clip(lists: BoxLists, meets: np.ndarray, box: np.ndarray, delta: np.ndarray, axis: int) -> np.ndarray:
    """`clip.clip_axis` for k bodies: how far each `box` may move by `delta` along `axis`, past
    the listed boxes that `meets` says overlap it on the two other axes.

    Moving down is clipped as moving up in a mirrored world (every coordinate negated, which is
    exact), so one set of comparisons serves both signs. A zero delta comes back as it is; a
    stopped one as a zero with the delta's sign (equal to the scalar's zero)."""
    tol, b = CONTACT_TOLERANCE, lists.boxes
    meeting = meets.nonzero()[0]  # a fraction of the boxes: the rest cannot stop the move
    at = lists.body.take(meeting)
    up = delta > 0.0
    distance = np.abs(delta)
    face = np.where(up, box[:, axis + 3], -box[:, axis])
    gap = np.where(up.take(at), b[axis].take(meeting), -b[axis + 3].take(meeting)) - face.take(at)
    stops = ((gap >= -tol) & (gap < distance.take(at))).nonzero()[0]
    # The nearest stop per body, where a box already touched by up to the tolerance stops the
    # move at 0. Few boxes stop a move, so only theirs are reduced (a reduction over every box,
    # `np.minimum.reduceat`, cost twice as much).
    nearest = np.empty(len(delta))
    nearest.fill(np.inf)
    np.minimum.at(nearest, at.take(stops), gap.take(stops))
    return np.copysign(np.minimum(distance, np.maximum(nearest, 0.0)), delta)


def _clip_y_x_z(lists: BoxLists, start: np.ndarray, dx: np.ndarray, dy: np.ndarray, dz: np.ndarray):
    """`mover._clip_y_x_z` for k bodies: (end boxes, allowed dx, dy, dz, which listed boxes
    overlap the end box on x)."""
    x_start, z_start = _overlaps(lists, start, X), _overlaps(lists, start, Z)
    box = start.copy()
    ady = _clip(lists, x_start & z_start, box, dy, Y)
    box[:, 1] += ady
    box[:, 4] += ady
    y_moved = _overlaps(lists, box, Y)
    adx = _clip(lists, y_moved & z_start, box, dx, X)
    box[:, 0] += adx
    box[:, 3] += adx
    x_moved = _overlaps(lists, box, X)
    adz = _clip(lists, x_moved & y_moved, box, dz, Z)
    box[:, 2] += adz
    box[:, 5] += adz
    return box, adx, ady, adz, x_moved


# --- pushes ------------------------------------------------------------------------------------

def _centres(box: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return (box[:, 0] + box[:, 3]) / 2.0, (box[:, 2] + box[:, 5]) / 2.0


def _pair_pushes(me: np.ndarray, other: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For pairs of boxes ((k, 6) each): which pairs push, the box `other` meeting
    `push.push_region(me)` (as `AABB.intersects`, with the region's corners computed as
    `push_region` computes them) and their centres not too close (`push.push_impulse`), and the
    impulse (dx, dz) of `push_impulse` (any finite values for pairs that do not push)."""
    me_x, me_z = _centres(me)
    other_x, other_z = _centres(other)
    dx = me_x - other_x
    dz = me_z - other_z
    d = np.maximum(np.abs(dx), np.abs(dz))
    r = PUSH_REACH
    on = ((d >= MIN_PUSH_DISTANCE) & (me[:, 3] + r > other[:, 0]) & (me[:, 0] - r < other[:, 3])
          & (me[:, 4] > other[:, 1]) & (me[:, 1] < other[:, 4]) & (me[:, 5] + r > other[:, 2]) & (me[:, 2] - r < other[:, 5]))
    d = _f32(np.sqrt(np.maximum(d, MIN_PUSH_DISTANCE)))  # the pairs that push keep their d
    k = np.minimum(1.0 / d, 1.0)
    return on, dx / d * k * PUSH_STRENGTH, dz / d * k * PUSH_STRENGTH


class PushCandidates:
    """Every pair of bodies that may push each other while their boxes stay near where they
    were when it was made (`broad_phase.near_pairs`).

    A body's reach is the hull of its unstepped and guessed (or stepped) box grown by
    `CrowdSettings.push_candidate_margin_blocks` sideways and `push_candidate_rise_blocks` up and
    down; a pair is a candidate
    when the two reaches come within PUSH_REACH of each other sideways (each meets the other's
    push region). While every box a tick tests (unstepped, and stepped in every round) stays
    inside its reach (`covers`), in this tick or a later one, the candidates hold every pair
    that meets: the early pairs (pusher `early_me` before the pushed `early_other`) and the
    late pairs (`late_me` pushing an earlier body `late_other`).
    Both are sorted by the second body, then the first: the order Beta adds pushes in (see
    `VectorTick._add_pushes`)."""

    __slots__ = ("reach", "early_me", "early_other", "late_me", "late_other")

    def __init__(self, unstepped: np.ndarray, stepped: np.ndarray, tuning: CrowdSettings) -> None:
        side, rise = tuning.push_candidate_margin_blocks, tuning.push_candidate_rise_blocks
        margin = np.array([side, rise, side])
        self.reach = np.concatenate((np.minimum(unstepped[:, :3], stepped[:, :3]) - margin,
                                     np.maximum(unstepped[:, 3:], stepped[:, 3:]) + margin), axis=1)
        # Nearness is symmetric: the pairs come both ways, sorted by the first body, which
        # serves as (pushed, pusher), sorted by pushed body then pusher.
        pushed, pusher = near_pairs(self.reach, PUSH_REACH)
        early = pusher < pushed
        self.early_me, self.early_other = pusher[early], pushed[early]
        late = pusher > pushed
        self.late_me, self.late_other = pusher[late], pushed[late]

    def covers(self, rows: np.ndarray | None, boxes: np.ndarray) -> bool:
        """Do `boxes` of bodies `rows` (None: every body) lie inside their reach?"""
        reach = self.reach if rows is None else self.reach.take(rows, axis=0)
        inside = (reach[:, :3] <= boxes[:, :3]) & (boxes[:, 3:] <= reach[:, 3:])
        return np.count_nonzero(inside) == inside.size


class _EarlyPushes:
    """The pushes each body gives the later bodies it meets before they step (per early
    candidate pair: whether it pushes, and dx, dz), kept up to date as bodies step again.
    `limit`: the crowd's push bound (`push.MAX_PUSH_SPEED`; None: unbounded)."""

    __slots__ = ("candidates", "pushes", "dx", "dz", "limit")

    def __init__(self, candidates: PushCandidates, limit: float | None = None) -> None:
        self.candidates = candidates
        self.limit = limit
        count = candidates.early_me.size
        self.pushes = np.zeros(count, dtype=bool)
        self.dx, self.dz = np.zeros(count), np.zeros(count)

    def update(self, pushers: np.ndarray | None, stepped: np.ndarray, unstepped: np.ndarray) -> bool:
        """Recompute the pairs whose pusher is in `pushers` (a bool mask over bodies; None: all).
        Returns whether there were any (when not, every push is as it was)."""
        c = self.candidates
        pairs = np.arange(c.early_me.size) if pushers is None else pushers[c.early_me].nonzero()[0]
        if not pairs.size:  # (bodies that push no later body: about one round in ten of a creature tick)
            return False
        me, other = stepped.take(c.early_me.take(pairs), axis=0), unstepped.take(c.early_other.take(pairs), axis=0)
        self.pushes[pairs], self.dx[pairs], self.dz[pairs] = _pair_pushes(me, other)
        return True

    def pushed(self, vx: np.ndarray, vz: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Velocities `vx`, `vz` with every early push taken off, in Beta's order, each within the
        bound as the one-by-one path applies it (a body's first pushes of the tick: `bounded_in_order`)."""
        on = self.pushes.nonzero()[0]
        pushed = self.candidates.early_other.take(on)
        vx, vz = vx.copy(), vz.copy()
        # Entries come by pushed body, then pusher: each body's pushes in the order it takes them.
        np.add.at(vx, pushed, bounded_in_order(-self.dx.take(on), pushed, self.limit, len(vx)))
        np.add.at(vz, pushed, bounded_in_order(-self.dz.take(on), pushed, self.limit, len(vz)))
        return vx, vz


def bounded_in_order(change: np.ndarray, body: np.ndarray, limit: float | None, n: int,
                     keys: tuple[np.ndarray, ...] = ()) -> np.ndarray:
    """The velocity changes `change` (one axis) as the bodies `body` take them within `limit`
    (`push.bounded`, each body's total starting at 0): `change` itself where no body comes near
    the bound. A body takes its entries in the order of `keys` (sort keys per entry, the first
    the primary one; none: in the order given).

    Only bodies whose changes, added up without their signs, come within BOUND_MARGIN of the
    bound can reach it; their few entries are bounded one at a time, in Python, in the same
    floats as `crowd_one_by_one`."""
    if limit is None or not body.size:
        return change
    near = np.bincount(body, weights=np.abs(change), minlength=n) >= limit * (1.0 - BOUND_MARGIN)
    if not np.count_nonzero(near):
        return change
    entries = near.take(body).nonzero()[0]
    whose = body.take(entries)
    if keys:
        entries = entries.take(np.lexsort(tuple(key.take(entries) for key in reversed(keys)) + (whose,)))
        whose = body.take(entries)
    applied = change.copy()
    values = []
    append = values.append
    taken, current = 0.0, -1
    for who, d in zip(whose.tolist(), change.take(entries).tolist()):
        if who != current:
            taken, current = 0.0, who
        # `push.bounded(taken, d, limit)` written out: a few hundred entries a tick where monsters
        # press round a player, and the call costs more than the rule.
        total = taken + d
        if -limit <= total <= limit:
            taken = total
        else:
            capped = limit if total > 0.0 else -limit
            d, taken = capped - taken, capped
        append(d)
    applied[entries] = values
    return applied


# --- the tick ----------------------------------------------------------------------------------

class DistinctIntents(NamedTuple):
    """A tick's intents as numpy columns over the distinct Intent objects (`columns`: forward,
    strafe and yaw as floats, jump, sneak, sprint, fly, climbs_walls and slow_fall as bools), and
    which of them each body has (`which`, by crowd row; None: each body has its own, the
    columns are by crowd row)."""

    columns: dict[str, np.ndarray]
    which: np.ndarray | None


class TickMemory:
    """What a vectorised tick leaves for the crowd's next one, by crowd row: the block boxes it
    gathered (`Gathered`; None: none), the push partners it found (`PushCandidates`; None:
    none) and, for x and z, the sign of the move each body's last vectorised step was stopped
    on (`stopped`, (n, 2): -1, +1, or 0 when it was not stopped; `VectorTick._guess` reads it).
    The crowd forgets it when bodies are added or removed."""

    __slots__ = ("gathered", "candidates", "stopped")

    def __init__(self, count: int) -> None:
        self.gathered: Gathered | None = None
        self.candidates: PushCandidates | None = None
        self.stopped = np.zeros((count, 2))


def _bits_differ(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Which floats of two arrays differ in any bit: 0.0 differs from -0.0 (the sign of a zero
    is part of the result, see `step_rows`)."""
    return a.view(np.int64) != b.view(np.int64)


def _rows_differ(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Which rows of two (n, 6) float arrays differ in any bit."""
    differ = _bits_differ(a[:, 0], b[:, 0])
    for k in range(1, 6):  # column by column: numpy's reductions along rows cost more
        differ |= _bits_differ(a[:, k], b[:, k])
    return differ


def _repushed(early: _EarlyPushes, vx0: np.ndarray, vz0: np.ndarray, vx_in: np.ndarray,
              vz_in: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The velocities (vx0, vz0) with the early pushes subtracted, and which bodies they change
    from (vx_in, vz_in), in any bit: (vx, vz, changed)."""
    pushed_x, pushed_z = early.pushed(vx0, vz0)
    return pushed_x, pushed_z, _bits_differ(pushed_x, vx_in) | _bits_differ(pushed_z, vz_in)


def _small_windows(window: np.ndarray, size: np.ndarray, most: int) -> np.ndarray:
    """Which cell ranges ((n, 6), `windows_of`; `size`: their extents, (n, 3)) hold at most `most`
    cells and lie among keyed cells: the bodies the vectorised step may take. The usual answer
    comes from the largest extent on each axis (column by column: numpy's reductions along the
    first axis of an (n, 3) array cost more); otherwise each axis is checked before the product,
    which could overflow int64 for ranges far beyond the keys."""
    if int(size[:, 0].max()) * int(size[:, 1].max()) * int(size[:, 2].max()) <= most:
        return keyed(window)
    fits = (size[:, 0] <= most) & (size[:, 1] <= most) & (size[:, 2] <= most)
    return fits & (size.prod(axis=1) <= most) & keyed(window)


class VectorTick:
    """One crowd tick over numpy columns (`crowd._Rows`), tuned by `tuning`. `run()` returns the new rows (or, after
    the one-by-one fallback, a list of bodies). `memory` is what the crowd's last tick left
    (None: nothing); after `run()` it holds what the next tick may use."""

    def __init__(self, world: CollisionWorld, settings: MovementSettings, tuning: CrowdSettings, rows,
                 intents: list[Intent], columns: DistinctIntents, world_cache: WorldCache,
                 memory: TickMemory | None, max_push_speed: float | None = MAX_PUSH_SPEED,
                 cache_user: object = None) -> None:
        n = rows.size
        self.cache_user = cache_user  # who asks the world cache (`WorldCache.prune`): the crowd, where crowds share it
        self.max_push_speed = max_push_speed
        self.n, self.world, self.settings, self.tuning, self.intents = n, world, settings, tuning, intents
        self.rows = rows
        self.box = rows.box[:n].copy()
        self.velocity = rows.velocity[:n].copy()
        self.on_ground = rows.on_ground[:n].copy()
        self.camera_lag = rows.camera_lag[:n].copy()
        self.fall_distance = rows.fall_distance[:n].copy()
        self.in_web = rows.in_web[:n].copy()
        self.collided_horizontally = rows.collided_horizontally[:n]
        self.media = has_materials(world)  # whether any cell can be water, a ladder...
        self.world_cache = world_cache
        world_cache.new_tick()
        if memory is None or len(memory.stopped) != n:
            memory = TickMemory(n)
        if memory.gathered is None or memory.gathered.generation != world_cache.generation:
            memory.gathered = Gathered(n, world_cache.generation, tuning)
        else:
            memory.gathered.forget(world_cache)
        self.memory = memory
        self._prepare(columns)
        self.out = type(rows).empty(n)
        self.every = np.arange(n)  # the rows of every body (see `_at`)

    def _prepare(self, intents: DistinctIntents) -> None:
        """Everything of `tick.step` before the move that pushes cannot change: input, jump,
        friction, acceleration, camera lag. What depends on the intent alone is worked out once
        per distinct intent, then taken for each body."""
        s, n, on_ground = self.settings, self.n, self.on_ground
        c, which = intents
        forward, strafe, yaw = _f32(c["forward"]), _f32(c["strafe"]), _f32(c["yaw"])
        sprinting = c["sprint"] & (forward > 0.0) & ~c["sneak"]
        strafe = _f32(strafe * s.input_decay)
        forward = _f32(forward * s.input_decay)
        length = _f32(np.sqrt(_f32(_f32(strafe * strafe) + _f32(forward * forward))))
        radians = _f32(_f32(yaw * PI_F) / DEGREES_PER_HALF_TURN)

        def each(column: np.ndarray) -> np.ndarray:  # (the results are never written to)
            return column if which is None else column.take(which)

        # The edge guard, flying and cobwebs: see the module docstring.
        self.one_by_one = each(c["sneak"] | c["fly"]) | self.in_web
        jumping = each(c["jump"]) & on_ground
        self.dy = np.where(jumping, s.jump_velocity, self.velocity[:, 1])
        sprinting = each(sprinting)
        self.boosted = jumping & sprinting
        self.boost_x = self.boost_z = None  # None: no body is boosted this tick (most ticks)
        if np.count_nonzero(self.boosted):
            boost_radians = _f32(yaw * DEG_TO_RAD_F)
            # What `_moves` takes off x and adds to z: zeros that change nothing for the bodies not
            # boosted (x - 0.0 and z + -0.0 are x and z to the bit, a signed zero included).
            self.boost_x = np.where(self.boosted, each(_beta_sin(boost_radians)) * s.sprint_jump_boost, 0.0)
            self.boost_z = np.where(self.boosted, each(_beta_cos(boost_radians)) * s.sprint_jump_boost, -0.0)

        friction = np.full(n, s.friction_factor)
        grounded = (on_ground & ~self.one_by_one).nonzero()[0]
        b = self.box.take(grounded, axis=0)
        below = np.empty((grounded.size, 3), dtype=np.int64)  # the cells, as `tick.ground_friction` finds them
        below[:, 0] = np.floor((b[:, 0] + b[:, 3]) / 2.0)
        below[:, 1] = np.floor(b[:, 1]) - 1.0
        below[:, 2] = np.floor((b[:, 2] + b[:, 5]) / 2.0)
        # Bodies standing on blocks without a key step one by one (in `step_rows`).
        standing = keyed_cells(below)
        self.one_by_one[grounded[~standing]] = True
        grounded, below = grounded[standing], below[standing]
        if grounded.size:  # `tick.ground_friction`
            # `__init__` gave the memory a `Gathered` of the world cache's current generation.
            slip = self.memory.gathered.slipperiness(grounded, below, self.world_cache)
            friction[grounded] = _f32(_f32(slip) * s.friction_factor)
        self.friction = friction
        cubed = _f32(_f32(friction * friction) * friction)
        acceleration = np.where(on_ground, _f32(s.ground_acceleration * _f32(s.ground_acceleration_reference / cubed)),
                                s.air_acceleration)
        acceleration = np.where(sprinting, _f32(acceleration * s.sprint_acceleration_scale), acceleration)

        self.accelerates = each(length >= MIN_INPUT)
        scale = _f32(acceleration / each(np.maximum(length, 1.0)))
        strafe = _f32(each(strafe) * scale)
        forward = _f32(each(forward) * scale)
        sin, cos = each(_beta_sin(radians)), each(_beta_cos(radians))
        # What `_moves` adds: -0.0 for the bodies that do not accelerate (v + -0.0 is v to the
        # bit, a signed zero included), so a move is one addition per axis.
        self.accel_x = np.where(self.accelerates, _f32(_f32(strafe * cos) - _f32(forward * sin)), -0.0)
        self.accel_z = np.where(self.accelerates, _f32(_f32(forward * cos) + _f32(strafe * sin)), -0.0)

        self._creature_traits(c, each)
        self.lag = _f32(self.camera_lag * s.camera_lag_decay)
        self.may_step = (s.step_height > 0.0) & (self.lag < s.camera_lag_step_limit) & (on_ground | (self.dy < 0.0))

    def _creature_traits(self, c: dict[str, np.ndarray], each) -> None:
        """The intents' creature traits (`Intent.climbs_walls`, `Intent.slow_fall`), as `tick.step`
        applies them on this path (no ladder cell near, no sneaking): a wall climber blocked
        sideways by its last move is on a ladder before this one (X and Z velocity clamped in
        `_moves`, vertical velocity at least -0.15, fall distance 0), and climbs (0.2) after a move
        blocked sideways (`_move`); a slow faller in the air falling after its tick keeps 0.6 of
        its vertical velocity (`_move`). `climbs`, `on_ladder` and `slow_fall` are None when no
        body of the tick has the trait (most ticks)."""
        s = self.settings
        self.climbs = self.on_ladder = self.slow_fall = None
        if np.count_nonzero(c["climbs_walls"]):
            self.climbs = each(c["climbs_walls"])
            on_ladder = self.climbs & self.collided_horizontally
            if np.count_nonzero(on_ladder):
                self.on_ladder = on_ladder
                # The bound on each body's sideways move (`_moves`): none (inf) off a ladder.
                self.sideways_limit = np.where(on_ladder, s.ladder_max_sideways, np.inf)
                self.dy = np.where(on_ladder, np.maximum(self.dy, -s.ladder_max_descent), self.dy)
                self.fall_distance = np.where(on_ladder, 0.0, self.fall_distance)
        if np.count_nonzero(c["slow_fall"]):
            self.slow_fall = each(c["slow_fall"])

    # --- stepping rows --------------------------------------------------------------------------

    def step_rows(self, rows: np.ndarray, vx_in: np.ndarray, vz_in: np.ndarray) -> None:
        """Step bodies `rows` whose velocity before the step is (vx_in, y, vz_in); results go to `out`."""
        # Skipped additions are selected away rather than made with 0.0: -0.0 + 0.0 is 0.0,
        # and the sign of a zero velocity is part of the result.
        dx, dz = self._moves(rows, vx_in, vz_in)
        vector = ~self.one_by_one[rows]
        vectors = np.count_nonzero(vector)  # (cheaper than `all` and `any`, which are Python-level)
        if vectors < self.tuning.min_vector_bodies:
            vector[:] = False
            vectors = 0
        if vectors == rows.size:
            v_rows, v_dx, v_dz = rows, dx, dz  # keeps `every` recognisable
        elif vectors:
            v_rows, v_dx, v_dz = rows[vector], dx[vector], dz[vector]
        if vectors:
            window = windows_of(self._regions(v_rows, v_dx, v_dz))
            size = window[:, 3:] - window[:, :3] + 1
            small = _small_windows(window, size, self.tuning.max_window_cells)
            if self.media:
                # Only the small ranges: a large one (a fast body) would have its every tile
                # enumerated here, which costs its swept volume, not what `physics.step` costs.
                ranges = small.nonzero()[0]
                asked = window if ranges.size == small.size else window.take(ranges, axis=0)
                small[ranges[self.world_cache.special_near(asked)]] = False
            if np.count_nonzero(small) < small.size:
                self.one_by_one[v_rows[~small]] = True
                v_rows, v_dx, v_dz, window = v_rows[small], v_dx[small], v_dz[small], window[small]
            if v_rows.size:
                self._move(v_rows, v_dx, v_dz, self._gathered(v_rows, window))
        alone = ~vector | self.one_by_one[rows]  # including those the window check just picked
        if not np.count_nonzero(alone):
            return
        for r, vx, vz in zip(rows[alone].tolist(), vx_in[alone].tolist(), vz_in[alone].tolist()):
            before = self.rows.body(r)
            before = before._with_velocity((vx, before.velocity[1], vz))
            self.out.set_body(r, step(before, self.world, self.intents[r], self.settings))

    def _moves(self, rows: np.ndarray, vx_in: np.ndarray, vz_in: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The horizontal moves (dx, dz) bodies `rows` try, from their velocities before the step."""
        # Each term is zero or unbounded for the bodies it does not apply to (see `_prepare`), so
        # it is added (or clamped) for every body, which gives their velocities to the bit.
        at = self._at
        dx, dz = vx_in, vz_in
        if self.boost_x is not None:
            dx = dx - at(self.boost_x, rows)
            dz = dz + at(self.boost_z, rows)
        dx = dx + at(self.accel_x, rows)
        dz = dz + at(self.accel_z, rows)
        if self.on_ladder is not None:  # a wall climber's clamps (`_creature_traits`)
            limit = at(self.sideways_limit, rows)
            low = -limit
            dx = np.minimum(np.maximum(dx, low), limit)
            dz = np.minimum(np.maximum(dz, low), limit)
        return dx, dz

    def _at(self, column: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The entries of a per-body `column` for `rows`: the column itself (not a copy) when
        `rows` is `every`, the first step of a tick."""
        return column if rows is self.every else column.take(rows, axis=0)

    def _gathered(self, rows: np.ndarray, windows: np.ndarray) -> BoxLists:
        """The block boxes of bodies `rows` moving through cell ranges `windows`. The
        first call of a tick (every body) lets the world cache forget cells no body uses."""
        world_cache = self.world_cache
        world_cache.prune(windows, self.cache_user)
        memory = self.memory
        if memory.gathered.generation != world_cache.generation:
            memory.gathered = Gathered(self.n, world_cache.generation, self.tuning)
        return memory.gathered.lookup(rows, windows, world_cache)

    def _regions(self, rows: np.ndarray, dx: np.ndarray, dz: np.ndarray) -> np.ndarray:
        """The space each move can sweep: the box stretched by the move and, for bodies that may
        step up, by the step height up and down (the step's own sweep and its settling)."""
        box, dy = self._at(self.box, rows), self._at(self.dy, rows)
        step_height = np.where(self._at(self.may_step, rows), self.settings.step_height, 0.0)
        region = box.copy()
        region[:, 0] += np.minimum(dx, 0.0)
        region[:, 3] += np.maximum(dx, 0.0)
        region[:, 1] += np.minimum(dy, -step_height)
        region[:, 4] += np.maximum(dy, step_height)
        region[:, 2] += np.minimum(dz, 0.0)
        region[:, 5] += np.maximum(dz, 0.0)
        return region

    def _move(self, rows: np.ndarray, dx: np.ndarray, dz: np.ndarray, lists: BoxLists) -> None:
        """`mover.collide` (no sneaking) and the end of `tick.step` for `rows`, with their block boxes."""
        s = self.settings
        at = self._at
        start, dy = at(self.box, rows), at(self.dy, rows)
        box, adx, ady, adz, _ = _clip_y_x_z(lists, start, dx, dy, dz)
        lag = at(self.lag, rows).copy()
        can_step = at(self.on_ground, rows) | ((dy != ady) & (dy < 0.0))
        tries = (at(self.may_step, rows) & can_step & ((dx != adx) | (dz != adz))).nonzero()[0]
        if tries.size:
            step_height = np.full(tries.size, s.step_height)
            t_lists = self.memory.gathered.lists(rows.take(tries))  # the boxes `lists` holds for them
            s_box, sx, _, sz, x_moved = _clip_y_x_z(t_lists, start.take(tries, axis=0), dx[tries], step_height, dz[tries])
            down = _clip(t_lists, x_moved & _overlaps(t_lists, s_box, Z), s_box, -step_height, Y)
            s_box[:, 1] += down
            s_box[:, 4] += down
            wins = adx[tries] * adx[tries] + adz[tries] * adz[tries] < sx * sx + sz * sz
            w = tries[wins]
            box[w], adx[w], ady[w], adz[w] = s_box[wins], sx[wins], down[wins], sz[wins]
            floor_fraction = box[w, 1] - np.floor(box[w, 1])
            lag[w] = np.where(floor_fraction > 0.0, _f32(lag[w] + floor_fraction + s.camera_lag_step_extra), lag[w])
        friction = at(self.friction, rows)
        out = self.out
        put = rows if rows is not self.every else slice(0, self.n)  # a slice writes faster than an index
        x_stopped, y_stopped, z_stopped = dx != adx, dy != ady, dz != adz
        out.box[put] = box
        out.velocity[put, 0] = np.where(x_stopped, 0.0, dx) * friction
        vy = np.where(y_stopped, 0.0, dy)
        if self.climbs is not None:
            vy = np.where(at(self.climbs, rows) & (x_stopped | z_stopped), s.ladder_climb_velocity, vy)
        vy = (vy - s.gravity) * s.vertical_drag
        if self.slow_fall is not None:
            vy = np.where(at(self.slow_fall, rows) & ~(y_stopped & (dy < 0.0)) & (vy < 0.0), vy * s.slow_fall_drag, vy)
        out.velocity[put, 1] = vy
        out.velocity[put, 2] = np.where(z_stopped, 0.0, dz) * friction
        out.on_ground[put] = y_stopped & (dy < 0.0)
        out.collided_horizontally[put] = x_stopped | z_stopped
        out.collided_vertically[put] = y_stopped
        out.camera_lag[put] = lag
        # Falling (`mover.finish_move`): no water or ladder cell near a body on this path (a wall
        # climber's fall distance was reset in `_creature_traits`).
        on_ground = y_stopped & (dy < 0.0)
        fall = at(self.fall_distance, rows)
        out.fall_damage[put] = np.where(on_ground & (fall > 0.0),
                                        np.maximum(np.ceil(_f32(fall - s.safe_fall_distance)), 0.0), 0.0)
        out.fall_distance[put] = np.where(on_ground, 0.0, np.where(ady < 0.0, _f32(fall - ady), fall))
        out.in_water[put] = out.in_lava[put] = out.in_web[put] = False
        # The contact pass (`media.contact_pass`) can only meet SOLID cells here.
        inset = s.contact_inset
        contact = np.concatenate((np.floor(box[:, :3] + inset), np.floor(box[:, 3:] - inset)), axis=1).astype(np.int64)
        out.touching[put] = np.where(self.world_cache.solid_in(contact), 1 << int(Material.SOLID), 0)
        stopped = self.memory.stopped
        stopped[put, 0] = np.where(x_stopped, np.sign(dx), 0.0)
        stopped[put, 1] = np.where(z_stopped, np.sign(dz), 0.0)

    # --- the tick -------------------------------------------------------------------------------

    def run(self):
        vx0, vz0 = self.velocity[:, 0], self.velocity[:, 2]
        memory, tuning = self.memory, self.tuning
        early, guess, vx_in, vz_in = self._guess(vx0, vz0)
        self.step_rows(self.every, vx_in, vz_in)
        if memory.candidates.covers(None, self.out.box):
            early.update(_rows_differ(self.out.box, guess), self.out.box, self.box)  # the others' pushes hold
        else:
            early = self._new_candidates()
        cost = 0.0  # [physics.step calls] what the rounds cost, with the next one
        while True:
            pushed_x, pushed_z, changed = _repushed(early, vx0, vz0, vx_in, vz_in)
            rows = changed.nonzero()[0]
            if not rows.size:
                break
            cost += tuning.round_cost_in_steps + tuning.round_cost_per_body_in_steps * rows.size
            if cost > self.n:  # finishing one by one costs about a step a body (see `round_cost_in_steps`)
                memory.candidates = None
                # The steps before the first unsettled body are settled (their early pushes
                # bounded as the one-by-one path bounds them).
                return self._finish_one_by_one(int(rows[0]))
            vx_in[rows], vz_in[rows] = pushed_x[rows], pushed_z[rows]
            self.step_rows(rows, vx_in[rows], vz_in[rows])
            if memory.candidates.covers(rows, self.out.box.take(rows, axis=0)):
                if not early.update(changed, self.out.box, self.box):
                    break  # no push changed: the velocities (vx_in, vz_in) reproduce themselves
            else:  # a body left its reach: find the candidates afresh (for every body)
                early = self._new_candidates()
        self._add_pushes(early, self._late_pushes(early))
        return self.out

    def run_unpushed(self):
        """The tick of a crowd whose bodies do not push each other: one step of every body from
        its own velocity, each exactly `physics.step`. Returns the new rows."""
        self.step_rows(self.every, self.velocity[:, 0].copy(), self.velocity[:, 2].copy())
        return self.out

    def _new_candidates(self) -> _EarlyPushes:
        """Find the push candidates afresh around the unstepped and stepped boxes, and every
        early push from the stepped boxes."""
        self.memory.candidates = candidates = PushCandidates(self.box, self.out.box, self.tuning)
        early = _EarlyPushes(candidates, self.max_push_speed)
        early.update(None, self.out.box, self.box)
        return early

    def _guess(self, vx0: np.ndarray, vz0: np.ndarray) -> tuple[_EarlyPushes, np.ndarray, np.ndarray, np.ndarray]:
        """The velocities the first step starts from: the early pushes as they would be if each
        body made the move its velocity asks for, except along an axis where its last step was
        stopped moving the same way (`TickMemory.stopped`); then the moves again with those
        pushes, and so on, up to `tuning.max_guess_rounds` times. Returns the early pushes, the guessed
        stepped boxes they were computed from, and the guessed velocities (vx, vz).

        Any guess gives the exact tick (see the module docstring); a good one leaves few bodies
        to step again. Free moves are what most bodies make, and they are exact: a stepped box
        is the unstepped one plus the move, as `_move` adds it. The guessed height only decides
        whether two boxes overlap on y."""
        box, stopped = self.box, self.memory.stopped
        guess = box.copy()
        dy = np.where(self.on_ground & (self.dy <= 0.0), 0.0, self.dy)  # standing bodies stay put
        guess[:, 1] += dy
        guess[:, 4] += dy

        def move_guesses(rows: np.ndarray, vx: np.ndarray, vz: np.ndarray) -> None:
            dx, dz = self._moves(rows, vx, vz)
            # Stopped as a clip stops a move: a zero with the move's sign (the move times 0.0;
            # times 1.0 where it goes on).
            dx = dx * (self._at(stopped[:, 0], rows) != np.sign(dx))
            dz = dz * (self._at(stopped[:, 1], rows) != np.sign(dz))
            put = slice(None) if rows is self.every else rows  # a slice writes faster than an index
            guess[put, 0], guess[put, 3] = self._at(box[:, 0], rows) + dx, self._at(box[:, 3], rows) + dx
            guess[put, 2], guess[put, 5] = self._at(box[:, 2], rows) + dz, self._at(box[:, 5], rows) + dz

        move_guesses(self.every, vx0, vz0)
        candidates = self.memory.candidates
        if candidates is None or not (candidates.covers(None, box) and candidates.covers(None, guess)):
            self.memory.candidates = candidates = PushCandidates(box, guess, self.tuning)
        early = _EarlyPushes(candidates, self.max_push_speed)
        early.update(None, guess, box)
        vx_in, vz_in = vx0, vz0
        for _ in range(self.tuning.max_guess_rounds):
            vx, vz, changed = _repushed(early, vx0, vz0, vx_in, vz_in)
            rows = changed.nonzero()[0]
            if not rows.size:
                break
            vx_in, vz_in = vx, vz
            move_guesses(rows, vx_in.take(rows), vz_in.take(rows))
            # A guess outside the candidates' reach may miss a pair: only a worse guess (the
            # step is checked against the reach).
            if not early.update(changed, guess, box):
                break  # no push changed: the next round would change no velocity
        return early, guess, vx_in.copy(), vz_in.copy()

    def _late_pushes(self, early: _EarlyPushes) -> tuple[np.ndarray, ...]:
        """The pushes made by each body to the earlier bodies it meets after both stepped: (pusher,
        pushed, dx, dz) per pair that pushes, in the candidates' order."""
        box, c = self.out.box, early.candidates
        me_box, other_box = box.take(c.late_me, axis=0), box.take(c.late_other, axis=0)
        on, px, pz = _pair_pushes(me_box, other_box)
        return c.late_me[on], c.late_other[on], px[on], pz[on]

    def _add_pushes(self, early: _EarlyPushes, late: tuple[np.ndarray, ...]) -> None:
        """Add the pushes made at or after each body's own update to the stepped velocities, in
        Beta's order: first the body's own pushes (partners in crowd order: the earlier ones, then
        the later ones), then the pushes from later bodies (in crowd order), each within the bound
        as the one-by-one path applies it (`bounded_in_order`, after the pushes the body took
        before its step).

        `np.add.at` adds in array order, and each group below lists a body's entries in its
        partners' order (the candidates are sorted by their second body, then the first), so
        three calls per axis add everything in Beta's order without sorting."""
        c = early.candidates
        me, other, px, pz = late
        e = early.pushes.nonzero()[0]
        early_me, early_other = c.early_me.take(e), c.early_other.take(e)
        # Every push a body takes this tick: before its step (by pusher), its own (by partner: the
        # earlier ones are its late pairs, the later ones its early pairs), after it (by pusher).
        body = np.concatenate((early_other, me, early_me, other))
        cut = np.cumsum((early_other.size, me.size, early_me.size))
        phase = np.concatenate((np.zeros(early_me.size), np.ones(me.size + early_me.size), np.full(me.size, 2)))
        partner = np.concatenate((early_me, other, early_other, me))
        for axis, late_d, early_d in ((0, px, early.dx.take(e)), (2, pz, early.dz.take(e))):
            change = np.concatenate((-early_d, late_d, early_d, -late_d))
            applied = bounded_in_order(change, body, self.max_push_speed, self.n, (phase, partner))
            column = self.out.velocity[:, axis]  # a view: the adds land in the velocities
            np.add.at(column, me, applied[cut[0]:cut[1]])  # my pushes to earlier partners
            np.add.at(column, early_me, applied[cut[1]:cut[2]])  # my pushes to later partners
            np.add.at(column, other, applied[cut[2]:])  # later bodies' pushes to me

    def _finish_one_by_one(self, first_unsettled: int) -> list[Body]:
        """Run the tick one by one from `first_unsettled`; the bodies before it are settled."""
        stepped = self.out.head(first_unsettled).to_bodies()
        return step_one_by_one(self.rows.to_bodies(), self.world, self.intents, self.settings, stepped,
                               self.max_push_speed)
