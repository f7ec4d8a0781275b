"""Scheduled block updates: the world's queue of "look at this block again in N ticks".

Owns: `BlockUpdates`, the pending updates (cell, kind, due tick) in the order Beta runs them (due
tick, then the order they were scheduled), their de-duplication (one pending update per cell and
kind, as Beta's `scheduleBlockUpdate` keeps one entry per position and block), the bound on how
many are pending, the per-tick budget, and their JSON row form for the world file.

The bound: at most MAX_PENDING_UPDATES are pending, so memory stays bounded and a save can always
write them all (a world file lists at most MAX_SAVED_UPDATES, the same number). An update asked for
while the queue is full is dropped, not queued, as Beta drops one asked for where the world is not
loaded: its block stays as it is until a neighbour changes (a fluid stays still, sand hangs), and
`schedule` returns False. Play never comes near the bound (a drained lake schedules a few thousand).
Does not own: what an update does (`fluids.py`, `falling.py`), the world's tick counter or blocks
(`world.py`), or the file (`storage.py`).

Kinds name the rule an update runs: "water", "lava" and "falls" (sand and gravel). An update whose
cell no longer holds a block of its kind when it comes due is dropped, as Beta drops an entry whose
block id changed.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable

import numpy as np

KINDS = ("water", "lava", "falls")
"""Every kind of scheduled update."""
UPDATES_PER_TICK = 1000
"""[updates] Most updates one world tick runs (Beta's `TickUpdates` limit); the rest stay due and
run first on the following ticks, in order."""
MAX_DELAY_TICKS = 1_000_000
"""[ticks] Longest delay accepted (Beta's longest is lava's 30; a saved row asking for more is damage)."""
MAX_SAVED_UPDATES = 1_000_000
"""[updates] Most pending updates a world file may list (a lake drained at once schedules a few
thousand); more is damage."""
MAX_PENDING_UPDATES = MAX_SAVED_UPDATES
"""[updates] Most updates a queue holds (one more is dropped): exactly what a file may list, so every
save writes the whole queue; ~100 MB of queue at most."""

KIND_CODES = {kind: code for code, kind in enumerate(KINDS)}
_KEY_OFFSET = 1 << 25
"""Coordinates are shifted by this before packing (|x|, |z| <= WORLD_BORDER < 2**25)."""


def pack(x: int, y: int, z: int, kind: str) -> int:
    """One int for an update of `kind` at (x, y, z) (0 <= y < 256): what the queue holds."""
    return ((x + _KEY_OFFSET) << 37) | ((z + _KEY_OFFSET) << 11) | (y << 2) | KIND_CODES[kind]


def unpack(key: int) -> tuple[int, int, int, str]:
    """(x, y, z, kind) of a packed update."""
    return (key >> 37) - _KEY_OFFSET, (key >> 2) & 511, ((key >> 11) & ((1 << 26) - 1)) - _KEY_OFFSET, KINDS[key & 3]


def pack_all(xs: np.ndarray, ys: np.ndarray, zs: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """`pack` on int64 arrays, kinds given by their index in KINDS."""
    return ((xs + _KEY_OFFSET) << 37) | ((zs + _KEY_OFFSET) << 11) | (ys << 2) | codes


def unpack_all(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`unpack` on an int64 array: xs, ys, zs and kind codes (index in KINDS)."""
    return (keys >> 37) - _KEY_OFFSET, (keys >> 2) & 511, ((keys >> 11) & ((1 << 26) - 1)) - _KEY_OFFSET, keys & 3


class BlockUpdates:
    """The pending scheduled updates of one world, packed (`pack`): a bucket of updates per due tick,
    each bucket in the order its updates were scheduled (Beta's order: due tick, then scheduling
    order)."""

    def __init__(self, limit: int = MAX_PENDING_UPDATES) -> None:
        """An empty queue holding at most `limit` updates (1..MAX_PENDING_UPDATES; a smaller one for tests)."""
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_PENDING_UPDATES:
            raise ValueError(f"limit must be an int in 1..{MAX_PENDING_UPDATES}, got {limit!r}")
        self.limit = limit
        """Most updates pending at once; more are dropped."""
        self._buckets: dict[int, list[int]] = {}  # due tick -> packed updates in order
        self._due_ticks: list[int] = []  # heap of the ticks that have a bucket
        self._pending: set[int] = set()

    def __len__(self) -> int:
        return len(self._pending)

    def _bucket(self, due_tick: int) -> list[int]:
        bucket = self._buckets.get(due_tick)
        if bucket is None:
            bucket = self._buckets[due_tick] = []
            heapq.heappush(self._due_ticks, due_tick)
        return bucket

    def schedule(self, x: int, y: int, z: int, kind: str, due_tick: int) -> bool:
        """Queue an update of `kind` at (x, y, z) for world tick `due_tick`; False (and nothing
        changes) when one of that kind is already pending there, or the queue is full (`limit`)."""
        key = pack(x, y, z, kind)
        if key in self._pending or len(self._pending) >= self.limit:
            return False
        self._pending.add(key)
        self._bucket(due_tick).append(key)
        return True

    def schedule_packed(self, keys: list[int], due_tick: int) -> None:
        """`schedule` each packed update of `keys` (no two alike) in order for `due_tick`: those past the
        `limit` are dropped."""
        pending = self._pending
        fresh = [key for key in keys if key not in pending][:max(0, self.limit - len(pending))]
        if fresh:
            pending.update(fresh)
            self._bucket(due_tick).extend(fresh)

    def postpone(self, ticks: int) -> None:
        """Move every pending update `ticks` later (the world's clock jumped forward that far)."""
        self._buckets = {due_tick + ticks: bucket for due_tick, bucket in self._buckets.items()}
        self._due_ticks = sorted(self._buckets)

    def is_pending(self, x: int, y: int, z: int, kind: str) -> bool:
        return pack(x, y, z, kind) in self._pending

    def take_due(self, tick: int, limit: int = UPDATES_PER_TICK) -> list[int]:
        """The packed updates due at or before `tick`, in Beta's order, at most `limit`; they stop
        being pending (so the rule they run can schedule the same cell again)."""
        due: list[int] = []
        while self._due_ticks and self._due_ticks[0] <= tick and len(due) < limit:
            due_tick = self._due_ticks[0]
            bucket = self._buckets[due_tick]
            room = limit - len(due)
            if len(bucket) <= room:
                due.extend(bucket)
                del self._buckets[due_tick]
                heapq.heappop(self._due_ticks)
            else:
                due.extend(bucket[:room])
                self._buckets[due_tick] = bucket[room:]
        self._pending.difference_update(due)
        return due

    def rows(self, now: int) -> list[list]:
        """Every pending update as [x, y, z, kind, delay, order]: delay from tick `now` (at least 0),
        order its place in run order (a save stores rows by column, so this keeps the order among
        updates due on the same tick)."""
        due_ticks = sorted(self._buckets)
        keys = [key for due_tick in due_ticks for key in self._buckets[due_tick]]
        if not keys:
            return []
        counts = [len(self._buckets[due_tick]) for due_tick in due_ticks]
        delays = np.repeat([max(0, due_tick - now) for due_tick in due_ticks], counts).tolist()
        xs, ys, zs, codes = (part.tolist() for part in unpack_all(np.array(keys, dtype=np.int64)))
        kinds = [KINDS[code] for code in codes]
        return list(map(list, zip(xs, ys, zs, kinds, delays, range(len(keys)))))  # arrays: a save lists up to a million

    def load_rows(self, rows: Iterable[list], now: int) -> None:
        """Queue saved rows (as `rows` writes them, already checked by `check_rows`) from tick `now`,
        in their saved run order."""
        for x, y, z, kind, delay, _ in sorted(rows, key=lambda row: row[5]):
            self.schedule(x, y, z, kind, now + delay)


def check_rows(rows: object) -> list[list]:
    """`rows` read from a file, checked: a list of [x, y, z, kind, delay, order] with int coordinates
    in the build height, a known kind, a delay 0..MAX_DELAY_TICKS and an order 0..MAX_SAVED_UPDATES.
    ValueError saying what is wrong. (Unrolled: a save or an open checks up to a million rows.)"""
    if not isinstance(rows, list) or len(rows) > MAX_SAVED_UPDATES:
        raise ValueError(f"the pending block updates are not a list of at most {MAX_SAVED_UPDATES} rows")
    for row in rows:
        if type(row) is not list or len(row) != 6:
            raise ValueError(f"a pending block update is not [x, y, z, kind, delay, order]: {str(row)[:80]}")
        x, y, z, kind, delay, order = row
        if not (type(x) is int and type(y) is int and type(z) is int and type(delay) is int and type(order) is int
                and type(kind) is str and kind in KIND_CODES and 0 <= y < 256 and 0 <= delay <= MAX_DELAY_TICKS
                and 0 <= order < MAX_SAVED_UPDATES and -_COORDINATE_LIMIT < x < _COORDINATE_LIMIT
                and -_COORDINATE_LIMIT < z < _COORDINATE_LIMIT):
            raise ValueError(f"a pending block update is not [x, y, z, kind, delay, order]: {str(row)[:80]}")
    return rows


_COORDINATE_LIMIT = 2 ** 31
"""|x| and |z| of a saved update are below this (the world border is far inside it)."""
