"""Crowds: many bodies stepped together, each pushing its neighbours, as Beta's world tick does.

Owns: `Crowd` (add, remove, bodies, step), the choice of path for a tick, the intents as numpy
columns and the crowd's bodies as numpy columns (`_Rows`).
Does not own: the definition of a crowd tick and its readable one-by-one path
(`crowd_one_by_one.py`), the vectorised tick (`crowd_vector.py`), which computes the same tick
for many bodies at once, to the last bit, the tuning of both (`crowd_settings.py`), how one body
moves (`tick.py`, `mover.py`), the push rule (`push.py`) or finding neighbours and block boxes
(`broad_phase.py`).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence

import numpy as np

from .aabb import AABB
from .body import Body, Intent, _BodyUnderConstruction
from .broad_phase import WorldCache
from .crowd_one_by_one import step_one_by_one
from .crowd_settings import DEFAULT_TUNING, CrowdSettings
from .materials import Material
from .push import MAX_PUSH_SPEED
from .crowd_vector import DistinctIntents, TickMemory, VectorTick
from .settings import BETA, MovementSettings
from .tick import step
from .tolerances import MAX_DISPLACEMENT
from .world import CollisionWorld
from .messages import shown


# --- the crowd -------------------------------------------------------------------------------

class Crowd:
    """Many bodies in one world, stepped together: `add`, `remove`, `bodies`, `step(intents)`.

    `settings`: how the bodies move. `vectorised`: None (default) picks the vectorised path from
    `tuning.vectorised_min_bodies` bodies on; True or False forces one path. Both give the same
    bodies. `tuning` (a `physics.CrowdSettings`) decides how the crowd computes its ticks, never
    what they give. `max_push_speed` [blocks/tick] bounds the velocity the pushes of one tick give
    a body along x and along z (`push.MAX_PUSH_SPEED`; None: Beta's unbounded pushes). With
    `pushes=False` the bodies do not push each other: each body's step is exactly
    `physics.step(body, world, intent, settings)` (many players' own steps, whose pushes their
    game applies after all of them), and two equal bodies may stand in the crowd. If the world has a `revision` attribute, it must change whenever a block
    changes (the vectorised path keeps the block boxes it gathered while it does not).
    `world_cache`: a `broad_phase.WorldCache` of this same world to share with other crowds
    (another crowd's `world_cache`, say), so that each tile of the world is asked for once for
    all of them; None (default): the crowd's own, kept with `tuning`. A shared cache keeps
    tiles by its own tuning. Sharing changes no body, only how often the world is asked.
    """

    def __init__(self, world: CollisionWorld, settings: MovementSettings = BETA,
                 vectorised: bool | None = None, *, tuning: CrowdSettings = DEFAULT_TUNING,
                 max_push_speed: float | None = MAX_PUSH_SPEED, pushes: bool = True,
                 world_cache: WorldCache | None = None) -> None:
        if not isinstance(world, CollisionWorld):
            raise TypeError(f"a Crowd needs a CollisionWorld (with collision_boxes(region)), got {shown(world)}")
        if not isinstance(settings, MovementSettings):
            raise TypeError(f"settings must be a physics.MovementSettings, got {shown(settings)}")
        if vectorised is not None and not isinstance(vectorised, bool):
            raise TypeError(f"vectorised must be None, True or False, got {shown(vectorised)}")
        if not isinstance(tuning, CrowdSettings):
            raise TypeError(f"tuning must be a physics.CrowdSettings, got {shown(tuning)}")
        if max_push_speed is not None and (isinstance(max_push_speed, bool) or not isinstance(max_push_speed, (int, float))
                                           or not 0.0 <= max_push_speed <= MAX_DISPLACEMENT):
            raise ValueError(f"max_push_speed must be None or a number in [0, {MAX_DISPLACEMENT:g}], got {shown(max_push_speed)}")
        if not isinstance(pushes, bool):
            raise TypeError(f"pushes must be True or False, got {shown(pushes)}")
        if world_cache is not None and not isinstance(world_cache, WorldCache):
            raise TypeError(f"world_cache must be None or a WorldCache, got {shown(world_cache)}")
        if world_cache is not None and world_cache.world is not world:
            raise ValueError("world_cache must be a cache of this crowd's world")
        self._max_push_speed = max_push_speed
        self._pushes = pushes
        self._pause = 0  # ticks the crowd still steps one by one after a vectorised tick finished so
        self._last_pause = 0  # the pause that last tick started (it doubles while ticks keep finishing so)
        self._finished_in_a_row = 0  # vectorised ticks in a row (pauses between them not counting) that finished so
        self._world = world
        self._settings = settings
        self._vectorised = vectorised
        self._tuning = tuning
        self._world_cache = WorldCache(world, tuning) if world_cache is None else world_cache
        self._handles: list[int] = []
        self._next_handle = 0
        # The bodies live in one or both of two forms: Body values, or numpy columns. Whichever
        # is None is rebuilt from the other when needed.
        self._bodies: list[Body] | None = []
        self._rows: _Rows | None = _Rows()
        self._memory: TickMemory | None = None  # what the last vectorised tick left for the next, by row
        self._shown: tuple[Body, ...] | None = None  # `bodies` as last returned, until the bodies change
        self._last_intents: list | None = None
        """The last tick's intents, by row, when each body had its own Intent object (its columns by
        row: `DistinctIntents.which` None), with their values (`_last_values`, (n, 9)); None otherwise."""
        self._last_values: np.ndarray | None = None

    @property
    def world(self) -> CollisionWorld:
        return self._world

    @property
    def settings(self) -> MovementSettings:
        return self._settings

    @property
    def tuning(self) -> CrowdSettings:
        return self._tuning

    @property
    def world_cache(self) -> WorldCache:
        """The block boxes the vectorised path has gathered from the world (to share with another
        crowd of the same world: its `world_cache` argument)."""
        return self._world_cache

    def __len__(self) -> int:
        return len(self._handles)

    @property
    def handles(self) -> tuple[int, ...]:
        """The handles of the bodies, in the order they were added."""
        return tuple(self._handles)

    @property
    def bodies(self) -> tuple[Body, ...]:
        """The bodies, in the order they were added (the order `step` takes intents in). The same
        tuple while no body changes (a game reads them many times a tick)."""
        if self._shown is None:
            self._shown = tuple(self._body_list())
        return self._shown

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
            raise TypeError(f"a Crowd holds physics.Body values, got {shown(body)}")
        if self._pushes and self._contains(body):
            raise ValueError(f"this body is already in the crowd (added twice?): {shown(body)}")
        self._shown = None
        if self._bodies is not None:
            self._bodies.append(body)
        if self._rows is not None:
            self._rows.append(body)
        self._memory = None
        handle = self._next_handle
        self._next_handle += 1
        self._handles.append(handle)
        return handle

    def remove(self, handle: int) -> None:
        """Take the body of `handle` out of the crowd (KeyError for an unknown handle)."""
        row = self._row(handle)
        del self._handles[row]
        self._memory = None
        self._shown = None
        if self._bodies is not None:
            del self._bodies[row]
        if self._rows is not None:
            self._rows.delete(row)

    def replace(self, handle: int, body: Body) -> None:
        """Put `body` in place of the body of `handle`, keeping its place in the order (for a
        change made outside the crowd: a push from a body that is not in it, a knock-back).
        TypeError for a non-Body, KeyError for an unknown handle; nothing changes then."""
        if not isinstance(body, Body):
            raise TypeError(f"a Crowd holds physics.Body values, got {shown(body)}")
        row = self._row(handle)
        self._shown = None
        # In place in whichever forms the crowd holds (at least one): rebuilding the columns
        # from Body values would cost the next vectorised tick a pass over every body.
        if self._bodies is not None:
            self._bodies[row] = body
        if self._rows is not None:
            self._rows.set_body(row, body)

    def step(self, intents: Iterable[Intent]) -> None:
        """Advance every body one tick; `intents` holds one `physics.Intent` per body, in the order
        of `bodies`. On bad input (wrong count, not an Intent, a non-finite value) raises
        TypeError or ValueError and changes nothing."""
        intents = list(intents)
        count, last = len(self._handles), self._last_intents
        kept = None
        if last is not None and len(last) == count == len(intents):
            kept = _intent_columns_since(intents, last, self._last_values)
        if kept is not None:
            columns, values = kept
        else:
            columns, values = _intent_columns(intents, count, own_objects=last is not None)
        self._last_intents, self._last_values = (intents, values) if columns.which is None else (None, None)
        self._shown = None
        use_numpy = (self._vectorised if self._vectorised is not None
                     else len(self) >= self._tuning.vectorised_min_bodies and self._pause == 0)
        if self._pause:
            self._pause -= 1
        if not use_numpy or not intents:
            if self._pushes:
                self._bodies = step_one_by_one(self._body_list(), self._world, intents, self._settings,
                                               max_push_speed=self._max_push_speed)
            else:
                self._bodies = [step(body, self._world, intent, self._settings)
                                for body, intent in zip(self._body_list(), intents)]
            self._rows = None
            return
        if self._rows is None:
            self._rows = _Rows.from_bodies(self._bodies)
        tick = VectorTick(self._world, self._settings, self._tuning, self._rows, intents, columns,
                          self._world_cache, self._memory, self._max_push_speed, cache_user=self)
        result = tick.run() if self._pushes else tick.run_unpushed()
        self._memory = tick.memory
        if isinstance(result, list):  # finished one by one
            self._bodies, self._rows = result, None
            if self._vectorised is None:
                self._finished_in_a_row += 1
                if self._finished_in_a_row > self._tuning.finishes_before_pause:
                    self._last_pause = min(max(1, 2 * self._last_pause), self._tuning.max_fallback_pause_ticks)
                    self._pause = self._last_pause
        else:
            self._rows, self._bodies = result, None
            self._last_pause = self._finished_in_a_row = 0

    # --- internals ---------------------------------------------------------------------------

    def _body_list(self) -> list[Body]:
        if self._bodies is None:
            self._bodies = self._rows.to_bodies()
        return self._bodies

    def _row(self, handle: int) -> int:
        if isinstance(handle, bool) or not isinstance(handle, int):
            raise TypeError(f"a crowd handle is an int from add(), got {shown(handle)}")
        try:
            return self._handles.index(handle)
        except ValueError:
            raise KeyError(f"no body with handle {shown(handle)} in this crowd") from None

    def _contains(self, body: Body) -> bool:
        if self._rows is not None:
            return self._rows.contains(body)
        return body in self._bodies


_INTENT_FIELDS = ("forward", "strafe", "yaw", "jump", "sneak", "sprint", "fly", "climbs_walls", "slow_fall")
_intent_values = operator.attrgetter(*_INTENT_FIELDS)


def _intent_columns(intents: list, count: int, own_objects: bool = False) -> tuple[DistinctIntents, np.ndarray]:
    """The intents as numpy columns, one entry per distinct Intent object, and which one each
    body has, after checking them all (nothing has changed yet); with the values the columns
    are made from ((k, 9), one row per entry, `_INTENT_FIELDS` order). `own_objects`: whether the last
    tick's bodies each had their own object (then this tick's are checked for that first).

    Crowds share Intent objects (a walk along one of a few headings), so each distinct object is
    read once, and the tick works out what depends on the intent alone once per object: reading
    9 attributes of 1,000 objects into an array costs more than the tick's first clip."""
    if len(intents) != count:
        raise ValueError(f"step needs one Intent per body: {count} bodies, {len(intents)} intents")
    if own_objects and len(set(map(id, intents))) == count:
        # Every body has its own Intent object (creatures, players), as in the last tick: no
        # grouping (a set of ids costs a third of it), and `which` None (the tick skips a gather
        # per column). Crowds that share objects skip this check.
        first, which = np.arange(count), None
    else:
        first, which = _distinct(intents, count)
        if first.size == count:  # each its own object after all: the columns in list order
            first, which = np.arange(count), None
    distinct = intents if which is None else [intents[k] for k in first.tolist()]
    for k in range(count) if which is None else sorted(first.tolist()):  # in list order: the error names the first bad intent
        if not isinstance(intents[k], Intent):
            raise TypeError(f"intent {k} is not a physics.Intent: {shown(intents[k])}")
    values = np.array(list(map(_intent_values, distinct)), dtype=np.float64).reshape(-1, len(_INTENT_FIELDS))
    _check_values(values, first, intents)
    return DistinctIntents(_columns_of(values), which), values


def _intent_columns_since(intents: list, last: list, last_values: np.ndarray) -> tuple[DistinctIntents, np.ndarray] | None:
    """`_intent_columns(intents, n)` by row (`which` None) and the values it holds ((n, 9)), for
    bodies that had the intents `last` in the last tick, with values `last_values`: only the rows
    holding another Intent object than last tick's are read and checked (an Intent is immutable,
    so a kept object's values, checked then, still hold). Players and mobs keep theirs while their
    input stands. None when more than half the rows have new objects (reading every one costs
    less then); TypeError or ValueError as `_intent_columns` raises them, for the first bad row."""
    count = len(intents)
    new = (~np.fromiter(map(operator.is_, intents, last), dtype=bool, count=count)).nonzero()[0]
    if 2 * new.size > count:
        return None
    if not new.size:
        return DistinctIntents(_columns_of(last_values), None), last_values
    rows = new.tolist()
    for k in rows:  # in row order: the error names the first bad intent
        if not isinstance(intents[k], Intent):
            raise TypeError(f"intent {k} is not a physics.Intent: {shown(intents[k])}")
    fresh = np.array([_intent_values(intents[k]) for k in rows], dtype=np.float64).reshape(-1, len(_INTENT_FIELDS))
    _check_values(fresh, new, intents)
    values = last_values.copy()
    values[new] = fresh
    return DistinctIntents(_columns_of(values), None), values


def _check_values(values: np.ndarray, rows: np.ndarray, intents: list) -> None:
    """ValueError naming the first of `rows` (the places of `values`' intents in `intents`) whose
    forward, strafe or yaw is not finite or is absurd."""
    bad = ~(np.abs(values[:, :3]) <= MAX_DISPLACEMENT)  # NaN fails the comparison too
    if np.count_nonzero(bad):
        k = int(rows[bad.any(axis=1)].min())
        field = int(np.argmax(bad[(rows == k).nonzero()[0][0]]))
        raise ValueError(f"intent {k} has a non-finite or absurd {_INTENT_FIELDS[field]}: {shown(intents[k])}")


def _columns_of(values: np.ndarray) -> dict[str, np.ndarray]:
    """The columns of `DistinctIntents` over intents' `values` ((k, 9), `_INTENT_FIELDS` order): views
    and a new table of flags, so `values` must not change while they are in use."""
    flags = values[:, 3:] != 0.0
    columns = dict(forward=values[:, 0], strafe=values[:, 1], yaw=values[:, 2])
    columns.update((name, flags[:, k]) for k, name in enumerate(_INTENT_FIELDS[3:]))
    return columns


def _distinct(intents: list, count: int) -> tuple[np.ndarray, np.ndarray]:
    """The places of the distinct Intent objects of `intents` (each one's first place in the
    list, in no particular order), and which of them each place holds (an index into the first)."""
    # The objects' identities (the list holds them, so none is reused meanwhile), grouped by a
    # stable sort: each group's first entry is the object's first place in the list. (np.unique
    # does the same with more calls: it took 2.5x as long for 1,000 intents.)
    identities = np.fromiter(map(id, intents), dtype=np.uint64, count=count)
    order = identities.argsort(kind="stable")
    grouped = identities.take(order)
    starts = np.empty(count, dtype=bool)
    starts[:1] = True
    np.not_equal(grouped[1:], grouped[:-1], out=starts[1:])
    first = order.compress(starts)
    which = np.empty(count, dtype=np.int64)
    which[order] = starts.cumsum() - 1
    return first, which


def touching_mask(touching: frozenset) -> int:
    """A set of materials as bits (bit m for `Material` m), as `_Rows` keeps it."""
    mask = 0
    for m in touching:
        mask |= 1 << int(m)
    return mask


_TOUCHING_OF: dict[int, frozenset] = {0: frozenset()}


def touching_of(mask: int) -> frozenset:
    """The set of materials of bits `mask` (one shared frozenset per mask)."""
    found = _TOUCHING_OF.get(mask)
    if found is None:
        found = _TOUCHING_OF[mask] = frozenset(m for m in Material if mask & (1 << int(m)))
    return found


class _Rows:
    """The crowd's bodies as numpy columns (struct of arrays): the vectorised path's state.

    Rows are bodies in crowd order; arrays have spare capacity so `append` is amortised O(1).
    `touching` holds each body's set of materials as bits (`touching_mask`).
    """

    __slots__ = ("box", "velocity", "on_ground", "collided_horizontally", "collided_vertically", "camera_lag",
                 "fall_distance", "in_water", "in_lava", "in_web", "fall_damage", "touching", "size")

    _FIELDS = ("box", "velocity", "on_ground", "collided_horizontally", "collided_vertically", "camera_lag",
               "fall_distance", "in_water", "in_lava", "in_web", "fall_damage", "touching")

    def __init__(self, capacity: int = 16) -> None:
        self.box = np.empty((capacity, 6))
        self.velocity = np.empty((capacity, 3))
        self.on_ground = np.empty(capacity, dtype=bool)
        self.collided_horizontally = np.empty(capacity, dtype=bool)
        self.collided_vertically = np.empty(capacity, dtype=bool)
        self.camera_lag = np.empty(capacity)
        self.fall_distance = np.empty(capacity)
        self.in_water = np.empty(capacity, dtype=bool)
        self.in_lava = np.empty(capacity, dtype=bool)
        self.in_web = np.empty(capacity, dtype=bool)
        self.fall_damage = np.empty(capacity, dtype=np.int64)
        self.touching = np.empty(capacity, dtype=np.int64)
        self.size = 0

    @classmethod
    def from_bodies(cls, bodies: Sequence[Body]) -> _Rows:
        rows = cls(max(len(bodies), 16))
        n = rows.size = len(bodies)
        if n:
            for name in cls._FIELDS:
                column = getattr(rows, name)
                if name == "touching":
                    column[:n] = [touching_mask(b.touching) for b in bodies]
                else:
                    column[:n] = [getattr(b, name) for b in bodies]
        return rows

    @classmethod
    def empty(cls, count: int) -> _Rows:
        """Rows for `count` bodies, their values not set yet."""
        rows = cls(count)
        rows.size = count
        return rows

    def head(self, count: int) -> _Rows:
        """The first `count` rows (sharing their values)."""
        rows = _Rows.__new__(_Rows)
        for name, column in zip(self._FIELDS, self._columns()):
            setattr(rows, name, column[:count])
        rows.size = count
        return rows

    def _columns(self):
        return tuple(getattr(self, name) for name in self._FIELDS)

    def append(self, body: Body) -> None:
        n = self.size
        if n == len(self.box):
            for name, c in zip(self._FIELDS, self._columns()):
                setattr(self, name, np.concatenate((c, np.empty((max(n, 16),) + c.shape[1:], dtype=c.dtype))))
        self.set_body(n, body)
        self.size = n + 1

    def delete(self, row: int) -> None:
        n = self.size
        for c in self._columns():
            c[row:n - 1] = c[row + 1:n]
        self.size = n - 1

    def contains(self, body: Body) -> bool:
        n = self.size
        same = (self.box[:n] == body.box).all(axis=1) & (self.velocity[:n] == body.velocity).all(axis=1)
        for name in self._FIELDS[2:]:
            value = touching_mask(body.touching) if name == "touching" else getattr(body, name)
            same &= getattr(self, name)[:n] == value
        return bool(same.any())

    def body(self, row: int) -> Body:
        return Body._trusted(AABB._trusted(*self.box[row].tolist()), tuple(self.velocity[row].tolist()),
                             bool(self.on_ground[row]), bool(self.collided_horizontally[row]),
                             bool(self.collided_vertically[row]), float(self.camera_lag[row]),
                             float(self.fall_distance[row]), bool(self.in_water[row]), bool(self.in_lava[row]),
                             bool(self.in_web[row]), int(self.fall_damage[row]), touching_of(int(self.touching[row])))

    def set_body(self, row: int, body: Body) -> None:
        self.box[row], self.velocity[row], self.on_ground[row] = body.box, body.velocity, body.on_ground
        self.collided_horizontally[row] = body.collided_horizontally
        self.collided_vertically[row] = body.collided_vertically
        self.camera_lag[row] = body.camera_lag
        self.fall_distance[row] = body.fall_distance
        self.in_water[row], self.in_lava[row], self.in_web[row] = body.in_water, body.in_lava, body.in_web
        self.fall_damage[row] = body.fall_damage
        self.touching[row] = touching_mask(body.touching)

    def to_bodies(self) -> list[Body]:
        """The rows as Body values: `to_bodies_readable`'s bodies, each field set straight into its
        slot (what `Body._trusted` does, without a call and an unpacking per body: every crowd tick
        of a game makes them all; a test compares both)."""
        n = self.size
        # As `Body._trusted` builds one: plain stores into `_BodyUnderConstruction` (Body's slots
        # without its frozen `__setattr__`), then the object becomes a Body; 0.66-0.71x the time
        # of calling each slot's setter (150 bodies).
        new, new_box, box_class, unfinished, body_class = object.__new__, _new_tuple, AABB, _BodyUnderConstruction, Body
        kept_touching = _TOUCHING_OF.get  # `touching_of` without a call per body (a new mask: through it)
        bodies = []
        append = bodies.append
        for b, v, g, h, c, lag, fd, w, lv, web, dmg, t in zip(*(column[:n].tolist() for column in self._columns())):
            body = new(unfinished)
            body.box = new_box(box_class, b)
            body.velocity = tuple(v)
            body.on_ground = g
            body.collided_horizontally = h
            body.collided_vertically = c
            body.camera_lag = lag
            body.fall_distance = fd
            body.in_water = w
            body.in_lava = lv
            body.in_web = web
            body.fall_damage = dmg
            touching = kept_touching(t)
            body.touching = touching if touching is not None else touching_of(t)
            body.__class__ = body_class
            append(body)
        return bodies

    def to_bodies_readable(self) -> list[Body]:
        """The rows as Body values, through `Body._trusted` (`to_bodies`' readable twin)."""
        n = self.size
        make_box, make = AABB._trusted, Body._trusted
        return [make(make_box(*b), tuple(v), g, h, c, lag, fd, w, lv, web, dmg, touching_of(t))
                for b, v, g, h, c, lag, fd, w, lv, web, dmg, t in zip(
                    *(column[:n].tolist() for column in self._columns()))]


_new_tuple = tuple.__new__
