"""Scheduled block updates: the world's queue of "look at this block again in N ticks".

Owns: `BlockUpdates`, the pending updates (cell, kind, due tick) in the order Beta runs them (due
tick, then the order they were scheduled), their de-duplication (one pending update per cell and
kind, as Beta's `scheduleBlockUpdate` keeps one entry per position and block), the per-tick budget,
and their JSON row form for the world file.
Does not own: what an update does (`fluids.py`, `falling.py`), the world's tick counter or blocks
(`world.py`), or the file (`storage.py`).

Kinds name the rule an update runs: "water", "lava" and "falls" (sand and gravel). An update whose
cell no longer holds a block of its kind when it comes due is dropped, as Beta drops an entry whose
block id changed.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable

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

Cell = tuple[int, int, int]


class BlockUpdates:
    """The pending scheduled updates of one world."""

    def __init__(self) -> None:
        self._heap: list[tuple[int, int, int, int, int, str]] = []  # (due, order, x, y, z, kind)
        self._pending: set[tuple[int, int, int, str]] = set()
        self._order = 0

    def __len__(self) -> int:
        return len(self._pending)

    def schedule(self, x: int, y: int, z: int, kind: str, due_tick: int) -> bool:
        """Queue an update of `kind` at (x, y, z) for world tick `due_tick`; False (and nothing
        changes) when one of that kind is already pending there."""
        key = (x, y, z, kind)
        if key in self._pending:
            return False
        self._pending.add(key)
        heapq.heappush(self._heap, (due_tick, self._order, x, y, z, kind))
        self._order += 1
        return True

    def is_pending(self, x: int, y: int, z: int, kind: str) -> bool:
        return (x, y, z, kind) in self._pending

    def take_due(self, tick: int, limit: int = UPDATES_PER_TICK) -> list[tuple[int, int, int, str]]:
        """The updates due at or before `tick`, in Beta's order, at most `limit`; they stop being
        pending (so the rule they run can schedule the same cell again)."""
        heap, due = self._heap, []
        while heap and heap[0][0] <= tick and len(due) < limit:
            _, _, x, y, z, kind = heapq.heappop(heap)
            self._pending.discard((x, y, z, kind))
            due.append((x, y, z, kind))
        return due

    def rows(self, now: int) -> list[list]:
        """Every pending update as [x, y, z, kind, delay, order]: delay from tick `now` (at least 0),
        order its place in run order (a save stores rows by column, so this keeps the order among
        updates due on the same tick)."""
        return [[x, y, z, kind, max(0, due - now), order]
                for order, (due, _, x, y, z, kind) in enumerate(sorted(self._heap))]

    def load_rows(self, rows: Iterable[list], now: int) -> None:
        """Queue saved rows (as `rows` writes them, already checked by `check_rows`) from tick `now`,
        in their saved run order."""
        for x, y, z, kind, delay, _ in sorted(rows, key=lambda row: row[5]):
            self.schedule(x, y, z, kind, now + delay)


def check_rows(rows: object) -> list[list]:
    """`rows` read from a file, checked: a list of [x, y, z, kind, delay, order] with int coordinates
    in the build height, a known kind, a delay 0..MAX_DELAY_TICKS and an order 0..MAX_SAVED_UPDATES.
    ValueError saying what is wrong."""
    if not isinstance(rows, list) or len(rows) > MAX_SAVED_UPDATES:
        raise ValueError(f"the pending block updates are not a list of at most {MAX_SAVED_UPDATES} rows")
    for row in rows:
        if not (isinstance(row, list) and len(row) == 6 and all(type(row[i]) is int for i in (0, 1, 2, 4, 5))
                and row[3] in KINDS and 0 <= row[1] < 256 and 0 <= row[4] <= MAX_DELAY_TICKS
                and 0 <= row[5] < MAX_SAVED_UPDATES and all(abs(v) < 2 ** 31 for v in (row[0], row[2]))):
            raise ValueError(f"a pending block update is not [x, y, z, kind, delay, order]: {str(row)[:80]}")
    return rows
