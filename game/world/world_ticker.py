"""The world's ticker: its clock (the tick counter, the time of day) and its scheduled block updates.

Owns: scheduling block updates (`schedule`, and the rules' `schedule_update`), running the ones due
in a tick (in one vectorised batch, `fluid_batch.run_batch`, or one by one, each seeing the writes
before it), the reactions of a placed or neighbouring block that schedule them (`_react`), the
time of day (`day_time`, `set_day_time`), the seeded coin the fluid rules draw (`one_in_four`),
handing out the sand and gravel that started to fall (`take_falling_starts`), breaking a block whose
support went when a neighbour changes (`support.can_stay`; handed out by `take_unsupported`), and
Beta's random ticks (`_random_ticks`: `RANDOM_TICKS_PER_COLUMN` picks per loaded column per tick,
acting on saplings only, `saplings.random_tick`).
Does not own: the queue itself (`block_updates.py`), what an update does (`fluids.py`, `falling.py`),
what holds a block up (`support.py`), how a sapling grows (`saplings.py`),
storing a batch's writes and their light (`World._store_batch`), the light phase of the tick, or
saving the counter and the queue (`World.save`).

`WorldTicker` is a part of `World` (a mixin behind the `World` façade, which calls
`_run_due_updates` from `World.tick`): it keeps its state on the World, which sets it up in
`World.__init__`: `ticks` (the counter, saved with the world), `_updates` (the `BlockUpdates` queue),
`_falling_starts`, `_unsupported` and the random ticks' `_random_ticked` and `_random_tick_revision`;
it reads blocks through the World's `id_at` and `seed`, and stores a batch's
writes through `_store_batch`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import fluid_batch, fluids, saplings
from .block_updates import MAX_DELAY_TICKS, BlockUpdates, unpack
from .blocks import AIR, COUNT
from .day_cycle import DAY_TICKS
from .java_random import JavaRandom
from .coords import CHUNK_SIZE, LOCAL_MASK, SECTION_SHIFT, WORLD_HEIGHT, block_coordinate, require_in_height
from .falling import FALL_TICKS, FALLS, FallingStart, falls_into
from .file_format import LAST_WORLD_TICK
from .support import LEANS_ON, NEEDS_SUPPORT, can_stay



RANDOM_TICKS_PER_COLUMN = 160
"""[cells] Random ticks one loaded column gets each world tick: Beta's 80 per 16 x 128 x 16 chunk
(`World.tickBlocks`), twice over for Boxel's 256-tall column, so each cell is picked as often as in Beta."""
RANDOM_TICK_LCG_MULTIPLIER = 3
RANDOM_TICK_LCG_ADDEND = 1013904223
"""Beta's `updateLCG = updateLCG * 3 + 1013904223` (a 32-bit int): each pick is one step; the cell is
x = k & 15, z = k >> 8 & 15, y = k >> 16 & 255 of k = updateLCG >> 2 (Beta: & 127, its height)."""
RANDOM_TICKED = np.zeros(COUNT, dtype=bool)
"""The blocks a random tick acts on: saplings only (Beta also grows grass, melts ice, burns fire...
by random ticks; Boxel has none of those rules yet, so a random tick touches nothing else)."""
RANDOM_TICKED[[saplings.SAPLING, saplings.SAPLING_READY]] = True
RANDOM_TICKED.flags.writeable = False
_LOWEST_RANDOM_TICKED = int(np.flatnonzero(RANDOM_TICKED)[0])
_MASK32 = 0xFFFFFFFF
_NEEDS_SUPPORT = NEEDS_SUPPORT.tolist()
"""`support.NEEDS_SUPPORT` as a list: a block edit asks it of each of its six neighbours."""
_POWERS = [pow(RANDOM_TICK_LCG_MULTIPLIER, n, 1 << 32) for n in range(1, RANDOM_TICKS_PER_COLUMN + 1)]
_PICK_A = np.array(_POWERS, dtype=np.uint64)
"""3**n mod 2**32, n = 1..RANDOM_TICKS_PER_COLUMN: the LCG's n-th state is A_n * start + B_n (mod 2**32)."""
_PICK_B = np.array([(RANDOM_TICK_LCG_ADDEND * sum(pow(3, i, 1 << 32) for i in range(n))) & _MASK32
                    for n in range(1, RANDOM_TICKS_PER_COLUMN + 1)], dtype=np.uint64)


@dataclass(frozen=True, slots=True)
class UnsupportedBlock:
    """A block that broke because what held it up went (Beta's `onNeighborBlockChange` dropping it)."""

    cell: tuple[int, int, int]
    block: int
    """The block id it was (its drop is Beta's `dropBlockAsItem` of it: `game.rules.harvest`)."""


def random_tick_picks(seed: int, tick: int, cx: int, cz: int) -> np.ndarray:
    """The column-local cells (x, y, z rows, int64) that column (cx, cz) random-ticks at world tick `tick`,
    in order: Beta's LCG picks (RANDOM_TICK_LCG_*), started from a hash of the seed, the tick and the
    column, so a reloaded world, or one whose columns loaded in another order, picks the same."""
    start = _mix(seed, tick, cx, cz) & _MASK32
    states = (_PICK_A * np.uint64(start) + _PICK_B) & np.uint64(_MASK32)
    k = (states >> np.uint64(2)).astype(np.int64)
    return np.stack([k & LOCAL_MASK, (k >> 16) & (WORLD_HEIGHT - 1), (k >> 8) & LOCAL_MASK], axis=1)


def _mix(*values: int) -> int:
    """A 64-bit hash of ints (splitmix64 steps), the same on any Python."""
    mixed = 0x9E3779B97F4A7C15
    for value in values:
        mixed = (mixed ^ (value & 0xFFFFFFFFFFFFFFFF)) * 0xBF58476D1CE4E5B9 & 0xFFFFFFFFFFFFFFFF
        mixed ^= mixed >> 31
        mixed = (mixed * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        mixed ^= mixed >> 29
    return mixed


class WorldTicker:
    """The World's clock and scheduled block updates (see the module docstring for the state it
    keeps on the World)."""

    ticks: int
    _updates: BlockUpdates
    _falling_starts: list[FallingStart]
    _unsupported: list[UnsupportedBlock]
    _random_ticked: dict[tuple[int, int], set[tuple[int, int, int]]]
    """Columns -> the cells in them that may hold a random-ticked block (checked when picked; a column
    unloaded since is dropped at the next tick)."""
    _random_tick_revision: int
    """The world revision whose edits `_random_ticked` has seen."""

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
        self._random_ticks()
        return len(due)

    def _random_ticks(self) -> None:
        """Beta's random ticks (`World.tickBlocks`, after the scheduled updates): each loaded column
        holding a random-ticked block (`RANDOM_TICKED`: saplings) runs its RANDOM_TICKS_PER_COLUMN picks
        (`random_tick_picks`) in order, ticking a random-ticked block a pick lands on
        (`saplings.random_tick`, drawing from a `java.util.Random` seeded by the world seed, the tick and
        the cell). Columns without one are skipped: their picks would touch nothing. Cheap: the
        candidates are kept from the edits since the last tick and the saved columns as they load."""
        self._note_random_ticked_edits()
        for key in sorted(self._random_ticked):
            cells = self._random_ticked[key]
            if key not in self._columns or not cells:
                del self._random_ticked[key]  # unloaded, or its saplings are gone
                continue
            cx, cz = key
            picks = random_tick_picks(self.seed, self.ticks, cx, cz)
            locals_ = {(x & LOCAL_MASK, y, z & LOCAL_MASK) for x, y, z in cells}
            for lx, y, lz in picks.tolist():
                if (lx, y, lz) not in locals_:
                    continue
                x, z = cx * CHUNK_SIZE + lx, cz * CHUNK_SIZE + lz
                block = self.id_at(x, y, z)
                if not RANDOM_TICKED[block]:
                    cells.discard((x, y, z))
                    continue
                rng = JavaRandom(_mix(self.seed, self.ticks, x, y, z) & ((1 << 48) - 1))
                saplings.random_tick(self, x, y, z, block, rng)
                self._note_random_ticked_edits()

    def _note_random_ticked_edits(self) -> None:
        """Take in the random-ticked blocks set since the last look (`cells_changed_since`: a sapling planted,
        one readied); when the world no longer knows which cells changed, search its edited loaded columns."""
        changed = self.cells_changed_since(self._random_tick_revision)
        self._random_tick_revision = self.revision
        if changed is None:
            for key in self._columns:
                if key in self._saved or key in self._unsaved:
                    self._random_ticked_column_added(key)
            return
        known = self._random_ticked
        for x, y, z in changed:
            key = (x >> SECTION_SHIFT, z >> SECTION_SHIFT)
            if key in self._columns and RANDOM_TICKED[self.id_at(x, y, z)]:
                known.setdefault(key, set()).add((x, y, z))

    def _random_ticked_column_added(self, key: tuple[int, int]) -> None:
        """A column loaded (`ColumnStore._install`) or to be searched again: note its random-ticked blocks.
        A column as the seed generates it holds none, so only a saved or edited one is searched (its
        sections only where their highest id reaches the lowest random-ticked id)."""
        if key not in self._saved and key not in self._unsaved:
            return
        cx, cz = key
        found = set()
        for sy, section in enumerate(self._columns[key].sections):
            if section is None or int(section.max()) < _LOWEST_RANDOM_TICKED:
                continue
            for lx, ly, lz in np.argwhere(RANDOM_TICKED[section]).tolist():
                found.add((cx * CHUNK_SIZE + lx, sy * CHUNK_SIZE + ly, cz * CHUNK_SIZE + lz))
        if found:
            self._random_ticked[key] = found
        else:
            self._random_ticked.pop(key, None)

    def take_unsupported(self) -> list[UnsupportedBlock]:
        """The blocks that broke since the last call because their support went (`support.can_stay`:
        a torch whose wall was dug, a flower whose grass went, the other half of a broken door or bed),
        oldest first: the game drops each block's items (Beta's `dropBlockAsItem`)."""
        broken, self._unsupported = self._unsupported, []
        return broken

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

    def _react(self, x: int, y: int, z: int, changed: tuple[int, int, int] | None = None) -> None:
        """A block placed here, or the neighbour at cell `changed` changed (Beta's `onBlockAdded` and
        `onNeighborBlockChange`, which come to the same for fluids, sand and gravel): lava beside
        water hardens, otherwise a fluid, sand or gravel schedules its update (unless one is pending).
        When the changed neighbour is a cell this block leans on (`support.LEANS_ON`) and it no longer
        holds it up (`support.can_stay`), the block breaks at once (noted for `take_unsupported`),
        notifying its own neighbours in turn, as Beta's does."""
        if not 0 <= y < WORLD_HEIGHT:
            return
        block = self.id_at(x, y, z)
        if (changed is not None and _NEEDS_SUPPORT[block]
                and (changed[0] - x, changed[1] - y, changed[2] - z) in LEANS_ON[block]
                and not can_stay(self.id_at, block, x, y, z)):
            self._unsupported.append(UnsupportedBlock((x, y, z), block))
            self.set_id(x, y, z, AIR)
            return
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
