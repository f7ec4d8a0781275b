"""The world's ticker: its clock (the tick counter, the time of day) and its scheduled block updates.

Owns: scheduling block updates (`schedule`, and the rules' `schedule_update`), running the ones due
in a tick (in one vectorised batch, `fluid_batch.run_batch`, or one by one, each seeing the writes
before it), the reactions of a placed or neighbouring block that schedule them (`_react`), the
time of day (`day_time`, `set_day_time`), the seeded coin the fluid rules draw (`one_in_four`), and
handing out the sand and gravel that started to fall (`take_falling_starts`).
Does not own: the queue itself (`block_updates.py`), what an update does (`fluids.py`, `falling.py`),
storing a batch's writes and their light (`World._store_batch`), the light phase of the tick, or
saving the counter and the queue (`World.save`).

`WorldTicker` is a part of `World` (a mixin behind the `World` façade, which calls
`_run_due_updates` from `World.tick`): it keeps its state on the World, which sets it up in
`World.__init__`: `ticks` (the counter, saved with the world), `_updates` (the `BlockUpdates` queue)
and `_falling_starts`; it reads blocks through the World's `id_at` and `seed`, and stores a batch's
writes through `_store_batch`.
"""

from __future__ import annotations

from . import fluid_batch, fluids
from .block_updates import MAX_DELAY_TICKS, BlockUpdates, unpack
from .coords import WORLD_HEIGHT, block_coordinate, require_in_height
from .falling import FALL_TICKS, FALLS, FallingStart, falls_into
from .file_format import LAST_WORLD_TICK

DAY_TICKS = 24_000
"""[ticks] One day and night (20 minutes at 20 Hz, as Minecraft's); the time of day is 0..DAY_TICKS - 1,
0 at sunrise."""


class WorldTicker:
    """The World's clock and scheduled block updates (see the module docstring for the state it
    keeps on the World)."""

    ticks: int
    _updates: BlockUpdates
    _falling_starts: list[FallingStart]

    def schedule(self, x: int, y: int, z: int, delay: int) -> bool:
        """Look at block (x, y, z) again `delay` ticks from now (>= 1): a fluid then flows, sand or
        gravel falls if nothing holds it. False (nothing queued) for a block with no such rule, when
        its update is already pending, or when `block_updates.MAX_PENDING_UPDATES` are (the update is
        dropped, see `block_updates.py`); OutOfWorldError outside the build height."""
        x, y, z = block_coordinate(x, "x"), block_coordinate(y, "y"), block_coordinate(z, "z")
        require_in_height(y)
        if isinstance(delay, bool) or not isinstance(delay, int) or not 1 <= delay <= MAX_DELAY_TICKS:
            raise ValueError(f"delay must be an int number of ticks in 1..1000000, got {delay!r}")
        kind = _update_kind(self.id_at(x, y, z))
        return kind is not None and self._updates.schedule(x, y, z, kind, self.ticks + delay)

    @property
    def pending_updates(self) -> int:
        """Scheduled block updates not yet run."""
        return len(self._updates)

    def _run_due_updates(self) -> int:
        """The scheduled-update part of `World.tick`: move the counter on one tick (it stops at
        `file_format.LAST_WORLD_TICK`) and run the updates now due, at most
        `block_updates.UPDATES_PER_TICK`; returns how many ran."""
        self.ticks = min(self.ticks + 1, LAST_WORLD_TICK)
        due = self._updates.take_due(self.ticks)
        batch = fluid_batch.run_batch(self, due)
        if batch is not None and len(self._updates) + sum(map(len, batch.schedules.values())) > self._updates.limit:
            batch = None  # the queue could fill: one by one drops exactly the updates the reference drops
        if batch is None:
            self._run_one_by_one(due)
        else:
            self._store_batch(batch.writes)
            for delay, updates in batch.schedules.items():
                self._updates.schedule_packed(updates, self.ticks + delay)
            self._falling_starts.extend(batch.falling)
        return len(due)

    def _run_one_by_one(self, due: list[int]) -> None:
        """Run scheduled updates (packed, `block_updates.pack`) in order, each seeing what the ones
        before it wrote (the readable twin of `fluid_batch.run_batch`, and what runs a tick the
        batch leaves)."""
        for x, y, z, kind in map(unpack, due):
            block = self.id_at(x, y, z)
            if _update_kind(block) != kind:
                continue  # the block changed since it was scheduled (Beta drops such an entry)
            if kind == "falls":
                if y > 0 and falls_into(self.id_at(x, y - 1, z)):
                    self._falling_starts.append(FallingStart((x, y, z), block))
            else:
                fluids.FLUIDS[kind].update(self, x, y, z)

    @property
    def day_time(self) -> int:
        """[ticks] The time of day, 0..DAY_TICKS - 1 (0 sunrise, 6,000 noon): the world's tick counter
        (`ticks`, saved with the world) within its day, as Minecraft's world time."""
        return self.ticks % DAY_TICKS

    def set_day_time(self, day_time: int) -> None:
        """Move the clock on to the next time it reads `day_time` (the pause menu's times, `--time`):
        the tick counter goes forward by less than a day (never past `file_format.LAST_WORLD_TICK`,
        where the clock stops), and pending block updates keep the ticks they had left to wait.
        TypeError/ValueError (nothing changes) unless an int 0..DAY_TICKS - 1."""
        if isinstance(day_time, bool) or not isinstance(day_time, int):
            raise TypeError(f"the time of day is an int of ticks, got {day_time!r}")
        if not 0 <= day_time < DAY_TICKS:
            raise ValueError(f"the time of day is 0..{DAY_TICKS - 1} ticks, got {day_time}")
        forward = min((day_time - self.day_time) % DAY_TICKS, LAST_WORLD_TICK - self.ticks)  # the clock's end
        self.ticks += forward
        self._updates.postpone(forward)

    def take_falling_starts(self) -> list[FallingStart]:
        """Sand and gravel that started to fall since the last call, oldest first (the game makes
        each a body; the block stays in place until that body takes it)."""
        starts, self._falling_starts = self._falling_starts, []
        return starts

    # fluids.BlockAccess: what the rules of a scheduled update call back.

    def schedule_update(self, x: int, y: int, z: int, kind: str, delay_ticks: int) -> None:
        """Queue an update of `kind` at (x, y, z) `delay_ticks` from now, unless one is pending there."""
        self._updates.schedule(x, y, z, kind, self.ticks + delay_ticks)

    def one_in_four(self, x: int, y: int, z: int) -> bool:
        """A coin with a 1/4 chance of True, fixed by the seed, the cell and the world tick (so a
        reloaded world draws the same, on any Python)."""
        mixed = (self.seed * 0x9E3779B97F4A7C15 + x * 0x85EBCA6B + y * 0xC2B2AE35 + z * 0x27D4EB2F
                 + self.ticks * 0x165667B1) & 0xFFFFFFFFFFFFFFFF
        mixed ^= mixed >> 31
        mixed = (mixed * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        return (mixed >> 40) & 3 == 0

    def _react(self, x: int, y: int, z: int) -> None:
        """A block placed here, or a neighbour of it changed (Beta's `onBlockAdded` and
        `onNeighborBlockChange`, which come to the same for fluids, sand and gravel): lava beside
        water hardens, otherwise a fluid, sand or gravel schedules its update (unless one is pending)."""
        if not 0 <= y < WORLD_HEIGHT:
            return
        block = self.id_at(x, y, z)
        fluid = fluids.fluid_of(block)
        if fluid is not None:
            if not fluid.harden(self, x, y, z):
                self._updates.schedule(x, y, z, fluid.kind, self.ticks + fluid.tick_rate)
        elif FALLS[block]:
            self._updates.schedule(x, y, z, "falls", self.ticks + FALL_TICKS)


def _update_kind(block: int) -> str | None:
    """The kind of scheduled update block `block` runs ("water", "lava", "falls"), or None."""
    fluid = fluids.fluid_of(block)
    if fluid is not None:
        return fluid.kind
    return "falls" if FALLS[block] else None
