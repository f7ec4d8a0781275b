"""Crowds: many bodies stepped together, each pushing its neighbours, as Beta's world tick does.

Owns: `Crowd` (add, remove, bodies, step), the order of one crowd tick, the readable one-by-one
path (`step_one_by_one`) and the vectorised numpy path that computes the same tick.
Does not own: how one body moves (`tick.py`, `mover.py`), the push rule (`push.py`) or finding
neighbours and block boxes (`broad_phase.py`).

One crowd tick, Beta's `World.updateEntities` (the definition both paths follow):
    for each body i, in the order the bodies were added:
        body_i = physics.step(body_i, world, intent_i)
        for each other body j whose box meets push_region(body_i.box), in crowd order:
            body_i, body_j = physics.push(body_i, body_j)
Pushes change velocities at once, so a body that steps later already carries the pushes of the
bodies before it; each touching pair is pushed twice per tick (once from each body's update).
Bodies are not solid to each other.

The vectorised path steps all bodies at once with numpy and must reproduce that sequence
exactly. A body's step reads one thing the others change: its velocity, which before its own
step holds the pushes of the *earlier* bodies that meet it, computed from their stepped
positions and its own unstepped position. So the path iterates:
1. step every body with its velocity plus the pushes found so far (at first none);
2. from the stepped boxes, find for each body the pushes its earlier neighbours give it before
   it steps; the bodies whose pushed velocity changed are stepped again; repeat until none
   changes. Body i only depends on bodies before it, so after r rounds every body whose chain of
   earlier pushers is shorter than r is exact, and the first round with no change is exactly
   the sequential result (the benchmark's crowd, a body every 4 blocks^2, takes 3 to 5 rounds;
   the pen test's, denser, 2 to 8). After MAX_PUSH_ROUNDS the rest of the tick runs one by one
   from the first unsettled body.
3. the pushes after each body's step (to bodies before it, and from bodies after it) are added
   to the stepped velocities in Beta's order.
Every velocity sum is accumulated in the order the sequential tick adds it, so the result is
the same to the last bit, not merely close. Bodies that sneak (Beta's edge guard is a loop of
world queries), whose move spans more than MAX_WINDOW_CELLS cells or reaches cells without a key
(beyond `broad_phase.KEYED_XZ` or `KEYED_Y`) step with `physics.step` inside the same scheme.

The block boxes come from `broad_phase.WorldCache`, which asks the world for each block cell
once per tick, and keeps them from tick to tick when the world has a `revision` attribute (an
int it changes whenever a block changes). Asking the world is most of the cost of a tick
without it (bench/bench_crowd.py). Each body also keeps the box columns it was given, with the
cell range they cover (`_Gathered`): a move that stays inside that range, when the body is
stepped again in a tick or in the next tick (most wandering bodies do), reuses them.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import numpy as np

from .aabb import AABB
from .body import Body, Intent
from .broad_phase import BoxGrid, CellGrid, WorldCache, keyed, windows_of
from .clip import X, Y, Z
from .floats import QUARTER_TURN, SIN_TABLE, TABLE_SCALE, DEG_TO_RAD_F, PI_F
from .push import MIN_PUSH_DISTANCE, PUSH_REACH, PUSH_STRENGTH, push, push_region
from .settings import BETA, MovementSettings
from .tick import DEGREES_PER_HALF_TURN, MIN_INPUT, step
from .tolerances import CONTACT_TOLERANCE, MAX_DISPLACEMENT
from .world import CollisionWorld

VECTORISED_MIN_BODIES = 100
"""[bodies] From this many bodies on, `Crowd` steps with the vectorised path (when not told).
Measured on the shared 2-core machine with the benchmark's wandering crowd: the one-by-one path
costs 30 to 45 us per body, the vectorised path about 1 ms of numpy calls per tick plus 15 to
25 us per body at these sizes; they cross at about 100 bodies (64 to 128 in repeated runs)."""

MAX_PUSH_ROUNDS = 12
"""[rounds] How many times the vectorised path re-steps the bodies whose pushed velocity changed
before it finishes the tick one by one. Crowds settle in 2 to 8 rounds (bench, pen test); a
pile of bodies all touching each other needs about one round per body, and finishing one by one
is then cheaper than more rounds."""

MAX_WINDOW_CELLS = 96
"""[cells] Bodies whose move needs more block cells than this (very fast or very large bodies)
step with `physics.step` instead: the padded arrays are as wide as the widest body's boxes, and
one huge body would make every row that wide. A 0.6 x 1.8 body needs 8 to 18 cells, falling
at terminal speed about 30."""


# --- the readable reference ------------------------------------------------------------------

def step_one_by_one(bodies: Sequence[Body], world: CollisionWorld, intents: Sequence[Intent],
                    settings: MovementSettings = BETA, stepped: Sequence[Body] = ()) -> list[Body]:
    """One crowd tick, literally: each body steps, then pushes the bodies meeting its push region.

    Returns the new bodies in the same order. `stepped`, when given, holds the already known
    results of the first len(stepped) steps (the vectorised path's fallback resumes here).
    """
    bodies = list(bodies)
    grid = CellGrid()
    for i, body in enumerate(bodies):
        grid.insert(i, body.box)
    for i, intent in enumerate(intents):
        me = stepped[i] if i < len(stepped) else step(bodies[i], world, intent, settings)
        grid.move(i, me.box)
        for j in grid.query(push_region(me.box)):
            if j != i:
                me, bodies[j] = push(me, bodies[j])
        bodies[i] = me
    return bodies


# --- the crowd -------------------------------------------------------------------------------

class Crowd:
    """Many bodies in one world, stepped together: `add`, `remove`, `bodies`, `step(intents)`.

    `vectorised`: None (default) picks the vectorised path from VECTORISED_MIN_BODIES bodies on;
    True or False forces one path. Both give the same bodies. If the world has a `revision`
    attribute, it must change whenever a block changes (the vectorised path keeps the block
    boxes it gathered while it does not).
    """

    def __init__(self, world: CollisionWorld, settings: MovementSettings = BETA,
                 vectorised: bool | None = None) -> None:
        if not isinstance(world, CollisionWorld):
            raise TypeError(f"a Crowd needs a CollisionWorld (with collision_boxes(region)), got {world!r}")
        if not isinstance(settings, MovementSettings):
            raise TypeError(f"settings must be a physics.MovementSettings, got {settings!r}")
        if vectorised is not None and not isinstance(vectorised, bool):
            raise TypeError(f"vectorised must be None, True or False, got {vectorised!r}")
        self._world = world
        self._settings = settings
        self._vectorised = vectorised
        self._world_cache = WorldCache(world)
        self._handles: list[int] = []
        self._next_handle = 0
        # The bodies live in one or both of two forms: Body values, or numpy columns. Whichever
        # is None is rebuilt from the other when needed.
        self._bodies: list[Body] | None = []
        self._rows: _Rows | None = _Rows()
        self._gathered: _Gathered | None = None  # the block boxes the last vectorised tick gathered, by row

    @property
    def world(self) -> CollisionWorld:
        return self._world

    @property
    def settings(self) -> MovementSettings:
        return self._settings

    def __len__(self) -> int:
        return len(self._handles)

    @property
    def handles(self) -> tuple[int, ...]:
        """The handles of the bodies, in the order they were added."""
        return tuple(self._handles)

    @property
    def bodies(self) -> tuple[Body, ...]:
        """The bodies, in the order they were added (the order `step` takes intents in)."""
        return tuple(self._body_list())

    def body(self, handle: int) -> Body:
        """The body that `add` returned `handle` for."""
        row = self._row(handle)
        return self._bodies[row] if self._bodies is not None else self._rows.body(row)

    def add(self, body: Body) -> int:
        """Add `body` after the others; returns its handle (for `remove` and `body`).

        Raises TypeError for a non-Body and ValueError for a body equal to one already in the crowd
        (a body added twice: two identical bodies stand on the very same spot, where no push can
        ever separate them)."""
        if not isinstance(body, Body):
            raise TypeError(f"a Crowd holds physics.Body values, got {body!r}")
        if self._contains(body):
            raise ValueError(f"this body is already in the crowd (added twice?): {body!r}")
        if self._bodies is not None:
            self._bodies.append(body)
        if self._rows is not None:
            self._rows.append(body)
        self._gathered = None
        handle = self._next_handle
        self._next_handle += 1
        self._handles.append(handle)
        return handle

    def remove(self, handle: int) -> None:
        """Take the body of `handle` out of the crowd (KeyError for an unknown handle)."""
        row = self._row(handle)
        del self._handles[row]
        self._gathered = None
        if self._bodies is not None:
            del self._bodies[row]
        if self._rows is not None:
            self._rows.delete(row)

    def replace(self, handle: int, body: Body) -> None:
        """Put `body` in place of the body of `handle`, keeping its place in the order (for a
        change made outside the crowd: a push from a body that is not in it, a knock-back).
        TypeError for a non-Body, KeyError for an unknown handle; nothing changes then."""
        if not isinstance(body, Body):
            raise TypeError(f"a Crowd holds physics.Body values, got {body!r}")
        row = self._row(handle)
        self._body_list()[row] = body
        self._rows = None  # rebuilt from the bodies when the vectorised path next needs it

    def step(self, intents: Iterable[Intent]) -> None:
        """Advance every body one tick; `intents` holds one `physics.Intent` per body, in the order
        of `bodies`. On bad input (wrong count, not an Intent, a non-finite value) raises
        TypeError or ValueError and changes nothing."""
        intents = list(intents)
        columns = _intent_columns(intents, len(self._handles))
        use_numpy = self._vectorised if self._vectorised is not None else len(self) >= VECTORISED_MIN_BODIES
        if not use_numpy or not intents:
            self._bodies = step_one_by_one(self._body_list(), self._world, intents, self._settings)
            self._rows = None
            return
        if self._rows is None:
            self._rows = _Rows.from_bodies(self._bodies)
        tick = _VectorTick(self._world, self._settings, self._rows, intents, columns, self._world_cache,
                           self._gathered)
        result = tick.run()
        self._gathered = tick.gathered
        if isinstance(result, list):
            self._bodies, self._rows = result, None
        else:
            self._rows, self._bodies = result, None

    # --- internals ---------------------------------------------------------------------------

    def _body_list(self) -> list[Body]:
        if self._bodies is None:
            self._bodies = self._rows.to_bodies()
        return self._bodies

    def _row(self, handle: int) -> int:
        try:
            return self._handles.index(handle)
        except ValueError:
            raise KeyError(f"no body with handle {handle!r} in this crowd") from None

    def _contains(self, body: Body) -> bool:
        if self._rows is not None:
            return self._rows.contains(body)
        return body in self._bodies


def _intent_columns(intents: list, count: int) -> dict[str, np.ndarray]:
    """The intents as numpy columns, after checking them all (nothing has changed yet)."""
    if len(intents) != count:
        raise ValueError(f"step needs one Intent per body: {count} bodies, {len(intents)} intents")
    for k, intent in enumerate(intents):
        if not isinstance(intent, Intent):
            raise TypeError(f"intent {k} is not a physics.Intent: {intent!r}")
    columns = {"forward": np.array([i.forward for i in intents], dtype=np.float64),
               "strafe": np.array([i.strafe for i in intents], dtype=np.float64),
               "yaw": np.array([i.yaw for i in intents], dtype=np.float64)}
    for name, values in columns.items():
        bad = ~(np.abs(values) <= MAX_DISPLACEMENT)  # NaN fails the comparison too
        if bad.any():
            k = int(np.argmax(bad))
            raise ValueError(f"intent {k} has a non-finite or absurd {name}: {intents[k]!r}")
    columns.update(jump=np.array([i.jump for i in intents], dtype=bool),
                   sneak=np.array([i.sneak for i in intents], dtype=bool),
                   sprint=np.array([i.sprint for i in intents], dtype=bool))
    return columns


class _Rows:
    """The crowd's bodies as numpy columns (struct of arrays): the vectorised path's state.

    Rows are bodies in crowd order; arrays have spare capacity so `append` is amortised O(1).
    """

    __slots__ = ("box", "velocity", "on_ground", "collided_horizontally", "collided_vertically", "camera_lag", "size")

    def __init__(self, capacity: int = 16) -> None:
        self.box = np.empty((capacity, 6))
        self.velocity = np.empty((capacity, 3))
        self.on_ground = np.empty(capacity, dtype=bool)
        self.collided_horizontally = np.empty(capacity, dtype=bool)
        self.collided_vertically = np.empty(capacity, dtype=bool)
        self.camera_lag = np.empty(capacity)
        self.size = 0

    @classmethod
    def from_bodies(cls, bodies: Sequence[Body]) -> _Rows:
        rows = cls(max(len(bodies), 16))
        n = rows.size = len(bodies)
        if n:
            rows.box[:n] = [b.box for b in bodies]
            rows.velocity[:n] = [b.velocity for b in bodies]
            rows.on_ground[:n] = [b.on_ground for b in bodies]
            rows.collided_horizontally[:n] = [b.collided_horizontally for b in bodies]
            rows.collided_vertically[:n] = [b.collided_vertically for b in bodies]
            rows.camera_lag[:n] = [b.camera_lag for b in bodies]
        return rows

    @classmethod
    def of(cls, box, velocity, on_ground, collided_horizontally, collided_vertically, camera_lag) -> _Rows:
        rows = cls.__new__(cls)
        rows.box, rows.velocity, rows.on_ground = box, velocity, on_ground
        rows.collided_horizontally, rows.collided_vertically = collided_horizontally, collided_vertically
        rows.camera_lag, rows.size = camera_lag, len(box)
        return rows

    def _columns(self):
        return (self.box, self.velocity, self.on_ground, self.collided_horizontally, self.collided_vertically,
                self.camera_lag)

    def append(self, body: Body) -> None:
        n = self.size
        if n == len(self.box):
            grown = [np.concatenate((c, np.empty((max(n, 16),) + c.shape[1:], dtype=c.dtype))) for c in self._columns()]
            (self.box, self.velocity, self.on_ground, self.collided_horizontally, self.collided_vertically,
             self.camera_lag) = grown
        self.box[n] = body.box
        self.velocity[n] = body.velocity
        self.on_ground[n] = body.on_ground
        self.collided_horizontally[n] = body.collided_horizontally
        self.collided_vertically[n] = body.collided_vertically
        self.camera_lag[n] = body.camera_lag
        self.size = n + 1

    def delete(self, row: int) -> None:
        n = self.size
        for c in self._columns():
            c[row:n - 1] = c[row + 1:n]
        self.size = n - 1

    def contains(self, body: Body) -> bool:
        n = self.size
        same = ((self.box[:n] == body.box).all(axis=1) & (self.velocity[:n] == body.velocity).all(axis=1)
                & (self.on_ground[:n] == body.on_ground)
                & (self.collided_horizontally[:n] == body.collided_horizontally)
                & (self.collided_vertically[:n] == body.collided_vertically)
                & (self.camera_lag[:n] == body.camera_lag))
        return bool(same.any())

    def body(self, row: int) -> Body:
        return Body._trusted(AABB._trusted(*self.box[row].tolist()), tuple(self.velocity[row].tolist()),
                             bool(self.on_ground[row]), bool(self.collided_horizontally[row]),
                             bool(self.collided_vertically[row]), float(self.camera_lag[row]))

    def to_bodies(self) -> list[Body]:
        n = self.size
        make_box, make = AABB._trusted, Body._trusted
        return [make(make_box(*b), tuple(v), g, h, c, lag) for b, v, g, h, c, lag in zip(
            self.box[:n].tolist(), self.velocity[:n].tolist(), self.on_ground[:n].tolist(),
            self.collided_horizontally[:n].tolist(), self.collided_vertically[:n].tolist(),
            self.camera_lag[:n].tolist())]


# --- the vectorised path ---------------------------------------------------------------------
# Every function below mirrors a scalar one operation for operation (the float32 roundings of
# `tick.step`, the clip rule of `clip.clip_axis`, the order of `mover.collide`), so the results
# are the same bits. Where a scalar step has a branch, the vector code computes both sides and
# selects, which gives the same values.

_SIN = np.asarray(SIN_TABLE, dtype=np.float64)
_OTHER_AXES = ((Y, Z), (X, Z), (X, Y))


def _f32(values: np.ndarray) -> np.ndarray:
    """`floats.f32` on an array: round to binary32, back to float64."""
    return values.astype(np.float32).astype(np.float64)


def _beta_sin(radians: np.ndarray) -> np.ndarray:
    return _SIN[_f32(radians * TABLE_SCALE).astype(np.int64) & 0xFFFF]


def _beta_cos(radians: np.ndarray) -> np.ndarray:
    return _SIN[_f32(_f32(radians * TABLE_SCALE) + QUARTER_TURN).astype(np.int64) & 0xFFFF]


def _clip(boxes: np.ndarray, box: np.ndarray, delta: np.ndarray, axis: int) -> np.ndarray:
    """`clip.clip_axis` for many bodies: boxes (6, n, K) candidate corners, box (n, 6), delta (n,).

    Moving down is clipped as moving up in a mirrored world (every coordinate negated, which is
    exact), so one set of comparisons serves both signs."""
    tol = CONTACT_TOLERANCE
    p, q = _OTHER_AXES[axis]
    meets = ((boxes[p + 3] > (box[:, p] + tol)[:, None]) & (boxes[p] < (box[:, p + 3] - tol)[:, None])
             & (boxes[q + 3] > (box[:, q] + tol)[:, None]) & (boxes[q] < (box[:, q + 3] - tol)[:, None]))
    up = delta > 0.0
    distance = np.abs(delta)
    ahead = np.where(up[:, None], boxes[axis], -boxes[axis + 3])
    face = np.where(up, box[:, axis + 3], -box[:, axis])
    gap = ahead - face[:, None]
    stops = meets & (gap >= -tol) & (gap < distance[:, None])
    # The nearest stop, where a box already touched by up to the tolerance stops the move at 0.
    limit = np.maximum(np.where(stops, gap, np.inf).min(axis=1), 0.0)
    allowed = np.minimum(distance, limit)
    return np.where(delta == 0.0, delta, np.where(up, allowed, -allowed))


def _clip_y_x_z(boxes: np.ndarray, start: np.ndarray, dx, dy, dz):
    """`mover._clip_y_x_z` for many bodies: (end boxes, allowed dx, dy, dz)."""
    box = start.copy()
    ady = _clip(boxes, box, dy, Y)
    box[:, 1] += ady
    box[:, 4] += ady
    adx = _clip(boxes, box, dx, X)
    box[:, 0] += adx
    box[:, 3] += adx
    adz = _clip(boxes, box, dz, Z)
    box[:, 2] += adz
    box[:, 5] += adz
    return box, adx, ady, adz


def _centres(box: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return (box[:, 0] + box[:, 3]) / 2.0, (box[:, 2] + box[:, 5]) / 2.0


def _push_regions(box: np.ndarray) -> np.ndarray:
    """`push.push_region` for many boxes."""
    region = box.copy()
    region[:, (0, 2)] -= PUSH_REACH
    region[:, (3, 5)] += PUSH_REACH
    return region


def _impulses(me_x, me_z, other_x, other_z):
    """`push.push_impulse` for many pairs: (which pairs push, dx, dz) for those that do."""
    dx = me_x - other_x
    dz = me_z - other_z
    d = np.maximum(np.abs(dx), np.abs(dz))
    pushes = d >= MIN_PUSH_DISTANCE
    dx, dz, d = dx[pushes], dz[pushes], _f32(np.sqrt(d[pushes]))
    k = np.minimum(1.0 / d, 1.0)
    return pushes, dx / d * k * PUSH_STRENGTH, dz / d * k * PUSH_STRENGTH


class _Gathered:
    """Block box columns (`WorldCache.slots`) by crowd row, and the cell range each row's cover.

    A body whose move lies inside its row's range uses those boxes (the extra boxes change no
    clip): within a tick when it is stepped again, and in the next tick while the world cache
    keeps its `generation` (most wandering bodies stay within last tick's cells)."""

    __slots__ = ("generation", "index", "used", "window")

    def __init__(self, count: int, generation: int) -> None:
        self.generation = generation
        self.index = np.zeros((count, 1), dtype=np.int64)
        self.used = np.zeros(count, dtype=np.int64)
        # No range yet: low above high.
        self.window = np.concatenate((np.full((count, 3), np.iinfo(np.int64).max),
                                      np.full((count, 3), np.iinfo(np.int64).min)), axis=1)

    def lookup(self, rows: np.ndarray, windows: np.ndarray, world_cache: WorldCache) -> tuple[np.ndarray, np.ndarray]:
        """The box columns for bodies `rows` moving through cell ranges `windows`, gathering the
        ones not covered yet."""
        old = self.window[rows]
        fresh = ~((old[:, :3] <= windows[:, :3]).all(axis=1) & (windows[:, 3:] <= old[:, 3:]).all(axis=1))
        if fresh.any():
            index, used = world_cache.slots(windows[fresh])
            if index.shape[1] > self.index.shape[1]:
                wider = np.zeros((len(self.index), index.shape[1]), dtype=np.int64)
                wider[:, :self.index.shape[1]] = self.index
                self.index = wider
            at = rows[fresh]
            self.index[at] = 0
            self.index[at, :index.shape[1]] = index
            self.used[at] = used
            self.window[at] = windows[fresh]
        return self.index[rows], self.used[rows]


class _VectorTick:
    """One crowd tick over numpy columns. `run()` returns the new `_Rows` (or, after the
    one-by-one fallback, a list of bodies)."""

    def __init__(self, world: CollisionWorld, settings: MovementSettings, rows: _Rows, intents: list[Intent],
                 columns: dict[str, np.ndarray], world_cache: WorldCache, gathered: _Gathered | None) -> None:
        n = rows.size
        self.n, self.world, self.settings, self.intents = n, world, settings, intents
        self.rows = rows
        self.box = rows.box[:n].copy()
        self.velocity = rows.velocity[:n].copy()
        self.on_ground = rows.on_ground[:n].copy()
        self.camera_lag = rows.camera_lag[:n].copy()
        self.world_cache = world_cache
        world_cache.new_tick()
        if gathered is None or gathered.generation != world_cache.generation or len(gathered.used) != n:
            gathered = _Gathered(n, world_cache.generation)
        self.gathered = gathered
        self._prepare(columns)
        self.out = _Rows.of(np.empty((n, 6)), np.empty((n, 3)), np.empty(n, dtype=bool), np.empty(n, dtype=bool),
                            np.empty(n, dtype=bool), np.empty(n))

    def _prepare(self, c: dict[str, np.ndarray]) -> None:
        """Everything of `tick.step` before the move that pushes cannot change: input, jump,
        friction, acceleration, camera lag."""
        s, n, on_ground = self.settings, self.n, self.on_ground
        forward, strafe, yaw = _f32(c["forward"]), _f32(c["strafe"]), _f32(c["yaw"])
        self.one_by_one = c["sneak"].copy()  # the edge guard: see the module docstring
        sprinting = c["sprint"] & (forward > 0.0) & ~c["sneak"]
        jumping = c["jump"] & on_ground
        self.dy = np.where(jumping, s.jump_velocity, self.velocity[:, 1])
        self.boosted = jumping & sprinting
        radians = _f32(yaw * DEG_TO_RAD_F)
        self.boost_x = _beta_sin(radians) * s.sprint_jump_boost
        self.boost_z = _beta_cos(radians) * s.sprint_jump_boost
        strafe = _f32(strafe * s.input_decay)
        forward = _f32(forward * s.input_decay)

        friction = np.full(n, s.friction_factor)
        grounded = np.nonzero(on_ground & ~self.one_by_one)[0]
        b = self.box[grounded]
        below = np.stack((np.floor((b[:, 0] + b[:, 3]) / 2.0), np.floor(b[:, 1]) - 1.0,
                          np.floor((b[:, 2] + b[:, 5]) / 2.0)), axis=1).astype(np.int64)
        # Bodies standing on blocks without a key step one by one (in `step_rows`).
        standing = keyed(np.concatenate((below, below), axis=1))
        self.one_by_one[grounded[~standing]] = True
        grounded, below = grounded[standing], below[standing]
        if grounded.size:  # `tick.ground_friction`
            slip = self.world_cache.slipperiness(below)
            friction[grounded] = _f32(_f32(slip) * s.friction_factor)
        self.friction = friction
        cubed = _f32(_f32(friction * friction) * friction)
        acceleration = np.where(on_ground, _f32(s.ground_acceleration * _f32(s.ground_acceleration_reference / cubed)),
                                s.air_acceleration)
        acceleration = np.where(sprinting, _f32(acceleration * s.sprint_acceleration_scale), acceleration)

        length = _f32(np.sqrt(_f32(_f32(strafe * strafe) + _f32(forward * forward))))
        self.accelerates = length >= MIN_INPUT
        scale = _f32(acceleration / np.maximum(length, 1.0))
        strafe = _f32(strafe * scale)
        forward = _f32(forward * scale)
        radians = _f32(_f32(yaw * PI_F) / DEGREES_PER_HALF_TURN)
        sin, cos = _beta_sin(radians), _beta_cos(radians)
        self.accel_x = _f32(_f32(strafe * cos) - _f32(forward * sin))
        self.accel_z = _f32(_f32(forward * cos) + _f32(strafe * sin))

        self.lag = _f32(self.camera_lag * s.camera_lag_decay)
        self.may_step = (s.step_height > 0.0) & (self.lag < s.camera_lag_step_limit) & (on_ground | (self.dy < 0.0))

    # --- stepping rows --------------------------------------------------------------------------

    def step_rows(self, rows: np.ndarray, vx_in: np.ndarray, vz_in: np.ndarray) -> None:
        """Step bodies `rows` whose velocity before the step is (vx_in, y, vz_in); results go to `out`."""
        dx = np.where(self.boosted[rows], vx_in - self.boost_x[rows], vx_in)
        dx = np.where(self.accelerates[rows], dx + self.accel_x[rows], dx)
        dz = np.where(self.boosted[rows], vz_in + self.boost_z[rows], vz_in)
        dz = np.where(self.accelerates[rows], dz + self.accel_z[rows], dz)
        vector = ~self.one_by_one[rows]
        if vector.any():
            v_rows, v_dx, v_dz = rows[vector], dx[vector], dz[vector]
            region = self._regions(v_rows, v_dx, v_dz)
            window = windows_of(region)
            small = (np.prod(window[:, 3:] - window[:, :3] + 1, axis=1) <= MAX_WINDOW_CELLS) & keyed(window)
            self.one_by_one[v_rows[~small]] = True
            v_rows, v_dx, v_dz, region = v_rows[small], v_dx[small], v_dz[small], region[small]
            if v_rows.size:
                index, used = self._gathered(v_rows, window[small])
                self._move(v_rows, v_dx, v_dz, self.world_cache.boxes(index[:, :max(int(used.max()), 1)]))
        for r, vx, vz in zip(rows[self.one_by_one[rows]].tolist(), vx_in[self.one_by_one[rows]].tolist(),
                             vz_in[self.one_by_one[rows]].tolist()):
            before = self.rows.body(r)
            before = Body._trusted(before.box, (vx, before.velocity[1], vz), before.on_ground,
                                   before.collided_horizontally, before.collided_vertically, before.camera_lag)
            after = step(before, self.world, self.intents[r], self.settings)
            out = self.out
            out.box[r], out.velocity[r], out.on_ground[r] = after.box, after.velocity, after.on_ground
            out.collided_horizontally[r], out.collided_vertically[r] = after.collided_horizontally, after.collided_vertically
            out.camera_lag[r] = after.camera_lag

    def _gathered(self, rows: np.ndarray, windows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The block box columns for bodies `rows` moving through cell ranges `windows`. The
        first call of a tick (every body) lets the world cache forget cells no body uses."""
        world_cache = self.world_cache
        world_cache.prune(windows)
        if self.gathered.generation != world_cache.generation:
            self.gathered = _Gathered(self.n, world_cache.generation)
        return self.gathered.lookup(rows, windows, world_cache)

    def _regions(self, rows: np.ndarray, dx: np.ndarray, dz: np.ndarray) -> np.ndarray:
        """The space each move can sweep: the box stretched by the move and, for bodies that may
        step up, by the step height up and down (the step's own sweep and its settling)."""
        box, dy = self.box[rows], self.dy[rows]
        step_height = np.where(self.may_step[rows], self.settings.step_height, 0.0)
        region = box.copy()
        region[:, 0] += np.minimum(dx, 0.0)
        region[:, 3] += np.maximum(dx, 0.0)
        region[:, 1] += np.minimum(dy, -step_height)
        region[:, 4] += np.maximum(dy, step_height)
        region[:, 2] += np.minimum(dz, 0.0)
        region[:, 5] += np.maximum(dz, 0.0)
        return region

    def _move(self, rows: np.ndarray, dx: np.ndarray, dz: np.ndarray, boxes: np.ndarray) -> None:
        """`mover.collide` (no sneaking) and the end of `tick.step` for `rows`, with their block boxes."""
        s = self.settings
        start, dy = self.box[rows], self.dy[rows]
        box, adx, ady, adz = _clip_y_x_z(boxes, start, dx, dy, dz)
        lag = self.lag[rows].copy()
        can_step = self.on_ground[rows] | ((dy != ady) & (dy < 0.0))
        tries = np.nonzero(self.may_step[rows] & can_step & ((dx != adx) | (dz != adz)))[0]
        if tries.size:
            step_height = np.full(tries.size, s.step_height)
            t_boxes = boxes[:, tries]
            s_box, sx, _, sz = _clip_y_x_z(t_boxes, start[tries], dx[tries], step_height, dz[tries])
            down = _clip(t_boxes, s_box, -step_height, Y)
            s_box[:, 1] += down
            s_box[:, 4] += down
            wins = adx[tries] * adx[tries] + adz[tries] * adz[tries] < sx * sx + sz * sz
            w = tries[wins]
            box[w], adx[w], ady[w], adz[w] = s_box[wins], sx[wins], down[wins], sz[wins]
            floor_fraction = box[w, 1] - np.floor(box[w, 1])
            lag[w] = np.where(floor_fraction > 0.0, _f32(lag[w] + floor_fraction + s.camera_lag_step_extra), lag[w])
        friction = self.friction[rows]
        out = self.out
        out.box[rows] = box
        out.velocity[rows, 0] = np.where(dx != adx, 0.0, dx) * friction
        out.velocity[rows, 1] = (np.where(dy != ady, 0.0, dy) - s.gravity) * s.vertical_drag
        out.velocity[rows, 2] = np.where(dz != adz, 0.0, dz) * friction
        out.on_ground[rows] = (dy != ady) & (dy < 0.0)
        out.collided_horizontally[rows] = (dx != adx) | (dz != adz)
        out.collided_vertically[rows] = dy != ady
        out.camera_lag[rows] = lag

    # --- the tick -------------------------------------------------------------------------------

    def run(self) -> _Rows | list[Body]:
        n = self.n
        vx0, vz0 = self.velocity[:, 0], self.velocity[:, 2]
        vx_in, vz_in = vx0.copy(), vz0.copy()
        everyone = np.arange(n)
        self.step_rows(everyone, vx_in, vz_in)
        unstepped = BoxGrid(self.box)
        early = self._early_pushes(unstepped, everyone)
        for rounds in itertools.count():
            me, other, px, pz = early
            pushed_x, pushed_z = vx0.copy(), vz0.copy()
            order = np.lexsort((me, other))  # by pushed body, then by pusher: the order Beta adds them
            np.add.at(pushed_x, other[order], -px[order])
            np.add.at(pushed_z, other[order], -pz[order])
            changed = np.nonzero((pushed_x != vx_in) | (pushed_z != vz_in))[0]
            if not changed.size:
                break
            if rounds == MAX_PUSH_ROUNDS:
                return self._finish_one_by_one(int(changed[0]))
            vx_in[changed], vz_in[changed] = pushed_x[changed], pushed_z[changed]
            self.step_rows(changed, vx_in[changed], vz_in[changed])
            kept = ~np.isin(me, changed)
            again = self._early_pushes(unstepped, changed)
            early = tuple(np.concatenate((a[kept], b)) for a, b in zip(early, again))
        self._add_pushes(early)
        return self.out

    def _early_pushes(self, unstepped: BoxGrid, rows: np.ndarray):
        """The pushes bodies `rows` (stepped) give the later bodies they meet, which have not
        stepped yet: (me, other, dx, dz) arrays."""
        me, other = unstepped.pairs(_push_regions(self.out.box[rows]))
        me = rows[me]
        later = me < other
        me, other = me[later], other[later]
        after_x, after_z = _centres(self.out.box[me])
        before_x, before_z = _centres(self.box[other])
        pushes, px, pz = _impulses(after_x, after_z, before_x, before_z)
        return me[pushes], other[pushes], px, pz

    def _add_pushes(self, early) -> None:
        """Add the pushes made at or after each body's own update to the stepped velocities, in
        Beta's order: first the body's own pushes (partners in crowd order), then the pushes from
        later bodies (in crowd order)."""
        n, box = self.n, self.out.box
        me, other = BoxGrid(box).pairs(_push_regions(box))
        earlier = other < me
        me, other = me[earlier], other[earlier]
        x, z = _centres(box)
        pushes, px, pz = _impulses(x[me], z[me], x[other], z[other])
        me, other = me[pushes], other[pushes]
        e_me, e_other, e_px, e_pz = early
        body = np.concatenate((e_me, me, other))
        when = np.concatenate((e_other, other, n + me))
        dx = np.concatenate((e_px, px, -px))
        dz = np.concatenate((e_pz, pz, -pz))
        order = np.lexsort((when, body))
        np.add.at(self.out.velocity[:, 0], body[order], dx[order])
        np.add.at(self.out.velocity[:, 2], body[order], dz[order])

    def _finish_one_by_one(self, first_unsettled: int) -> list[Body]:
        """Run the tick one by one from `first_unsettled`; the bodies before it are settled."""
        stepped = _Rows.of(*(c[:first_unsettled] for c in self.out._columns())).to_bodies()
        return step_one_by_one(self.rows.to_bodies(), self.world, self.intents, self.settings, stepped)
