"""World: one open voxel world, its loaded columns, edits, queries and saves.

Owns: the map of loaded columns (generated from the seed, loaded from the file, or edited),
block reads and writes, the world's tick (scheduled block updates: flowing fluids, falling sand),
the collision and material queries physics calls (`physics.CollisionWorld`) and its
cache of placed block shapes, padded sections for the mesher, the record of changed sections,
background-generation requests, the player state, when to write what to the world file, and the
damage found in it while playing (`take_problems`, `damaged_columns`).
Does not own: terrain (`terrain.py`), the file and its format (`storage.py`, `file_format.py`), column storage
(`column.py`), the generation workers (`generation.py`), what a scheduled update does (`fluids.py`,
`falling.py`; the queue is `block_updates.py`), moving falling blocks (`game.falling_blocks`), or drawing anything.

Block edits notify their neighbours as Beta's `setBlockWithNotify` does: the new block reacts to
being placed (a fluid or sand schedules an update, lava beside water hardens) and each of the six
neighbours, in the order -x, +x, -y, +y, -z, +z, reacts to the change (a settled fluid starts
flowing again, sand with nothing under it is scheduled to fall). Generated terrain is written
without notifying, so a generated sea is still until something touches it.

Rules that every read keeps:
- The edge rule (`coords.py`): below y = 0 reads as bedrock (solid), y >= 256 as air.
- The world border (`coords.py`): a block, column or region beyond it is refused with
  OutOfWorldError, changing nothing. A closed world refuses every read, write and request
  with WorldClosedError.
- Any column a read touches that is not loaded yet is loaded or generated on the spot, so what a
  body collides with, or what a mesh sees at its border, never depends on loading timing.
  Background generation only gets columns ready *earlier*; it never changes what a read returns.
- A damaged saved column never stops the game: it is served as generated from the seed (listed in
  `damaged_columns`), reported once through `take_problems()`, and its saved row stays as it is
  unless the player edits the column (the save that replaces it first copies the damaged bytes to
  the file's `damaged_columns` table). Damaged saved entities read as none, reported the same way.

Coordinates are integer blocks; block (i, j, k) fills [i, i+1) x [j, j+1) x [k, k+1).
"""

from __future__ import annotations

import os
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from physics import AABB

from physics.materials import Material

from . import fluid_batch, fluids
from .block_updates import BlockUpdates, unpack
from .blocks import AIR, FLUID_LEVEL, MATERIAL, SELECTABLE, SELECTION_SHAPES, SLIPPERINESS, block_id, block_name
from .falling import FALL_TICKS, FALLS, FallingStart, falls_into
from .collision import PlacedShapeCache, cell_range
from .column import Column
from .coords import (ABOVE_WORLD, BELOW_WORLD, BLOCK_DTYPE, CHUNK_SIZE, LOCAL_MASK, SECTION_SHAPE, SECTION_SHIFT,
                     SECTIONS_PER_COLUMN, WORLD_BORDER, WORLD_HEIGHT, block_coordinate,
                     column_coordinate, column_of, require_in_height, sections_seeing, sections_seeing_all)
from .generation import DEFAULT_WORKERS, ColumnGenerator, check_worker_count
from .light import ABOVE_WORLD_LIGHT, BELOW_WORLD_LIGHT, LightEngine
from .storage import BLOCK_UPDATES, BLOCKS, ENTITIES, CorruptWorldError, WorldFile, entities_json, player_state_json
from .spawn import find_spawn
from .terrain import Terrain

PADDED_SIZE = CHUNK_SIZE + 2
"""Edge of a padded section: the section plus one block of its neighbours on every side."""
MAX_UNRESOLVED_LIGHT_CELLS = 100_000
"""[cells] Changed cells whose light may wait for the next read; past this the light is brought up
to date at once (about 50 ticks of a large flood), so memory stays bounded when nothing reads it."""
DAY_TICKS = 24_000
"""[ticks] One day and night (20 minutes at 20 Hz, as Minecraft's); the time of day is 0..DAY_TICKS - 1,
0 at sunrise."""

_AIR_SECTION = np.zeros(SECTION_SHAPE, dtype=BLOCK_DTYPE)
_AIR_SECTION.flags.writeable = False
_SECTION_MASK = ~LOCAL_MASK  # x & _SECTION_MASK is the first block of x's section
_NEIGHBOURS = ((-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1))
"""Beta's `notifyBlocksOfNeighborChange` order."""
_MATERIALS = list(Material)
"""`physics.Material` by its int value (`_MATERIALS[MATERIAL[id]]` is a block's material)."""


class WorldClosedError(ValueError):
    """The world was used after `close()`."""


@dataclass(frozen=True)
class WorldProblem:
    """Damage found in the world file while playing; the game goes on (see `World.take_problems`)."""

    column: tuple[int, int]
    """(cx, cz) of the damaged column."""
    part: str
    """"blocks": the column is served as generated from the seed; "entities": its saved mobs are left out."""
    message: str
    """What is wrong and what the game does about it, for the player."""


class World:
    """An open voxel world. Make one with `World.create(path, seed)` or `World.open(path)`.

    Not thread-safe: use it from one thread (the game's main thread).
    """

    def __init__(self, file: WorldFile, workers: int) -> None:
        """Private: use `World.create` or `World.open`. Closes `file` if anything here fails."""
        try:
            self._terrain = Terrain(file.metadata.seed)
            self._saved = file.saved_columns()
            self._generator = ColumnGenerator(file.metadata.seed, workers)
        except BaseException:
            file.close()
            raise
        self._file: WorldFile | None = file
        self._columns: dict[tuple[int, int], Column] = {}
        self._unsaved: set[tuple[int, int]] = set()
        self._changed_sections: set[tuple[int, int, int]] = set()
        self._player_state = file.metadata.player_state
        self._unsaved_entities: dict[tuple[int, int], list[dict]] = {}
        self.revision = 0
        """Counts block edits (physics' optional `CollisionWorld.revision`: crowds keep their boxes while it holds)."""
        self._placed_shapes = PlacedShapeCache()
        self._selection_shapes = PlacedShapeCache(shapes=SELECTION_SHAPES, has_shape=SELECTABLE)
        self._light = LightEngine(self._columns)
        """Sky and block light of the loaded columns (`light.py`), brought up to date lazily (`_resolve_light`)."""
        self._requested: set[tuple[int, int]] = set()
        self._from_file: deque[tuple[int, int]] = deque()
        self._ready: dict[tuple[int, int], None] = {}  # an ordered set
        self._problems: list[WorldProblem] = []
        self._regenerated: set[tuple[int, int]] = set()
        """Saved columns whose blocks are damaged, served from the seed until an edit of theirs is saved."""
        self._entities_damaged: set[tuple[int, int]] = set()
        self.ticks = file.metadata.world_ticks
        """World ticks run (`tick()`); scheduled updates are due by it. Saved with the world."""
        self._updates = BlockUpdates()
        try:
            rows, damaged = file.load_block_updates()
        except BaseException:
            file.close()
            raise
        self._updates.load_rows(rows, self.ticks)
        for key, error in damaged:
            self._report(key, BLOCK_UPDATES, error, "those updates are dropped (the blocks stay as saved)")
        self._falling_starts: list[FallingStart] = []

    # --- making and closing -----------------------------------------------------------------

    @classmethod
    def create(cls, path: str | os.PathLike, seed: int = 42, *, workers: int = DEFAULT_WORKERS) -> World:
        """A new world at `path` (WorldExistsError if anything is there), saved at once.

        `seed`: a signed 64-bit int. `workers`: background generation processes, started on the
        first `request`. Bad arguments are refused before the file is made; if making the world
        fails after that, the new file is removed.
        """
        terrain = Terrain(seed)
        check_worker_count(workers)
        generated: dict[tuple[int, int], np.ndarray] = {}
        x, z = find_spawn(terrain, generated)
        spawn_key = column_of(x, z)
        spawn_column = Column.from_ids(generated[spawn_key] if spawn_key in generated else terrain.column(*spawn_key))
        spawn = (x + 0.5, float(spawn_column.top_y(x & LOCAL_MASK, z & LOCAL_MASK) + 1), z + 0.5)
        file = WorldFile.create(Path(path), seed, time.time(), spawn)
        try:
            world = cls(file, workers)
        except BaseException:
            file.discard()
            raise
        world._install(spawn_key, spawn_column)  # generated once, for the spawn
        return world

    @classmethod
    def open(cls, path: str | os.PathLike, *, workers: int = DEFAULT_WORKERS) -> World:
        """The world saved at `path`; a `storage.WorldFileError` subclass says what is wrong otherwise."""
        check_worker_count(workers)
        return cls(WorldFile.open(Path(path)), workers)

    def close(self) -> None:
        """Stop background work and release the file. Unsaved edits are dropped: call `save()` first."""
        if self._file is None:
            return
        self._generator.close()
        self._file.close()
        self._file = None
        self._columns.clear()  # every read now goes through _column_at, which refuses a closed world

    def __enter__(self) -> World:
        return self

    def __exit__(self, error_type, error, traceback) -> None:
        """Leaving a `with` block saves (unless it raised) and closes."""
        try:
            if error_type is None and self._file is not None:
                self.save()
        finally:
            self.close()

    # --- metadata -----------------------------------------------------------------------------

    @property
    def path(self) -> Path:
        return self._open_file().path

    @property
    def seed(self) -> int:
        return self._terrain.seed

    @property
    def spawn(self) -> tuple[float, float, float]:
        """[blocks] Feet position for a new player: on the dry land nearest the origin (`spawn.find_spawn`)."""
        return self._open_file().metadata.spawn

    @property
    def created_at(self) -> float:
        """[s] Unix time the world was created."""
        return self._open_file().metadata.created_at

    @property
    def player_state(self) -> dict | None:
        """What the game keeps about the player (box as 6 floats, velocity, yaw, hotbar...), saved by
        `save()`. JSON values only; floats read back bit for bit, tuples read back as lists."""
        return self._player_state

    @player_state.setter
    def player_state(self, state: dict | None) -> None:
        player_state_json(state)  # refuse what save() could not write, now rather than at save time
        self._player_state = state

    # --- blocks -------------------------------------------------------------------------------

    def get_block(self, x: int, y: int, z: int) -> str:
        """The name of block (x, y, z) (edge rule outside the build height)."""
        return block_name(self.id_at(block_coordinate(x, "x"), block_coordinate(y, "y"), block_coordinate(z, "z")))

    @staticmethod
    def can_hold(x: int, y: int, z: int) -> bool:
        """Whether a block can be set at (x, y, z): inside the world border and 0 <= y < 256."""
        return 0 <= y < WORLD_HEIGHT and -WORLD_BORDER <= x < WORLD_BORDER and -WORLD_BORDER <= z < WORLD_BORDER

    def set_block(self, x: int, y: int, z: int, name: str) -> tuple[tuple[int, int, int], ...]:
        """Make block (x, y, z) the block called `name`.

        Returns the sections (cx, sy, cz) whose padded sections see the change (its own and, on a
        border, the neighbours'); they are also recorded for `take_changed_sections`. Setting a block
        to what it already is changes nothing and returns (). UnknownBlockError for an unknown name
        and OutOfWorldError outside 0 <= y < 256, with nothing changed.
        """
        x, y, z = block_coordinate(x, "x"), block_coordinate(y, "y"), block_coordinate(z, "z")
        block = block_id(name)
        require_in_height(y)
        return self.set_id(x, y, z, block)

    # --- the world's tick: scheduled block updates -------------------------------------------------

    def schedule(self, x: int, y: int, z: int, delay: int) -> bool:
        """Look at block (x, y, z) again `delay` ticks from now (>= 1): a fluid then flows, sand or
        gravel falls if nothing holds it. False (nothing queued) for a block with no such rule or
        when its update is already pending; OutOfWorldError outside the build height."""
        x, y, z = block_coordinate(x, "x"), block_coordinate(y, "y"), block_coordinate(z, "z")
        require_in_height(y)
        if isinstance(delay, bool) or not isinstance(delay, int) or not 1 <= delay <= 1_000_000:
            raise ValueError(f"delay must be an int number of ticks in 1..1000000, got {delay!r}")
        kind = _update_kind(self.id_at(x, y, z))
        return kind is not None and self._updates.schedule(x, y, z, kind, self.ticks + delay)

    @property
    def pending_updates(self) -> int:
        """Scheduled block updates not yet run."""
        return len(self._updates)

    def tick(self) -> int:
        """Advance the world one tick and run the scheduled updates now due, at most
        `block_updates.UPDATES_PER_TICK` (the rest run first next tick); returns how many ran.
        Falling sand found here is handed out by `take_falling_starts`."""
        self._open_file()
        self.ticks += 1
        due = self._updates.take_due(self.ticks)
        batch = fluid_batch.run_batch(self, due)
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

    def _store_batch(self, writes: np.ndarray) -> None:
        """Store a batch's block changes (int64 rows (x, y, z, old, new) in order, every cell in the
        world): the last value of each cell, with the bookkeeping `set_id` does for one write (its
        notifications are the batch's schedules)."""
        if not len(writes):
            return
        keys = fluid_batch.cell_keys(writes[:, 0], writes[:, 1], writes[:, 2])
        _, last_from_end = np.unique(keys[::-1], return_index=True)
        xs, ys, zs, _, ids = writes[len(writes) - 1 - last_from_end].T
        section_keys = ((xs >> SECTION_SHIFT) << 40) + ((zs >> SECTION_SHIFT) << 8) + (ys >> SECTION_SHIFT)
        order = np.argsort(section_keys, kind="stable")
        local_x, local_y, local_z = xs[order] & LOCAL_MASK, ys[order] & LOCAL_MASK, zs[order] & LOCAL_MASK
        values = ids[order]
        bounds = (np.flatnonzero(np.diff(section_keys[order])) + 1).tolist()
        starts, ends = [0, *bounds], [*bounds, len(order)]
        firsts = order[starts]
        section_of = zip(starts, ends, (xs[firsts] >> SECTION_SHIFT).tolist(), (ys[firsts] >> SECTION_SHIFT).tolist(),
                         (zs[firsts] >> SECTION_SHIFT).tolist())
        clears = values == AIR
        for start, end, cx, sy, cz in section_of:
            column = self._column_at(cx, cz)
            section = column.sections[sy]
            if section is None:
                section = column.sections[sy] = np.zeros(SECTION_SHAPE, dtype=BLOCK_DTYPE)
            section[local_x[start:end], local_y[start:end], local_z[start:end]] = values[start:end]
            if clears[start:end].any() and not section.any():
                column.sections[sy] = None
            self._unsaved.add((cx, cz))
        self.revision += len(writes)
        self._changed_sections.update(sections_seeing_all(xs, ys, zs))
        self._relight(np.stack([xs, ys, zs], axis=1))

    @property
    def day_time(self) -> int:
        """[ticks] The time of day, 0..DAY_TICKS - 1 (0 sunrise, 6,000 noon): the world's tick counter
        (`ticks`, saved with the world) within its day, as Minecraft's world time."""
        return self.ticks % DAY_TICKS

    def set_day_time(self, day_time: int) -> None:
        """Move the clock on to the next time it reads `day_time` (the pause menu's times, `--time`):
        the tick counter goes forward by less than a day, and pending block updates keep the ticks
        they had left to wait. TypeError/ValueError (nothing changes) unless an int 0..DAY_TICKS - 1."""
        if isinstance(day_time, bool) or not isinstance(day_time, int):
            raise TypeError(f"the time of day is an int of ticks, got {day_time!r}")
        if not 0 <= day_time < DAY_TICKS:
            raise ValueError(f"the time of day is 0..{DAY_TICKS - 1} ticks, got {day_time}")
        forward = (day_time - self.day_time) % DAY_TICKS
        self.ticks += forward
        self._updates.postpone(forward)

    def take_falling_starts(self) -> list[FallingStart]:
        """Sand and gravel that started to fall since the last call, oldest first (the game makes
        each a body; the block stays in place until that body takes it)."""
        starts, self._falling_starts = self._falling_starts, []
        return starts

    # fluids.BlockAccess: the rules' view of the world (cells outside the build height or the border
    # read by the edge rule and are never written).

    def id_at(self, x: int, y: int, z: int) -> int:
        """The block id at (x, y, z) (ints; the edge rule outside the build height)."""
        if y < 0:
            return BELOW_WORLD
        if y >= WORLD_HEIGHT:
            return ABOVE_WORLD
        column = self._columns.get((x >> SECTION_SHIFT, z >> SECTION_SHIFT))
        if column is None:
            column = self._column_at(x >> SECTION_SHIFT, z >> SECTION_SHIFT)
        section = column.sections[y >> SECTION_SHIFT]
        return AIR if section is None else section.item(x & LOCAL_MASK, y & LOCAL_MASK, z & LOCAL_MASK)

    def ids_in_box(self, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int) -> np.ndarray:
        """The ids of blocks [x0, x1) x [y0, y1) x [z0, z1) as a read-only [x, y, z] array (edge rule kept)."""
        return self._ids_in_box(x0, y0, z0, x1, y1, z1)

    def set_id(self, x: int, y: int, z: int, block: int) -> tuple[tuple[int, int, int], ...]:
        """Write block id `block` at (x, y, z) and notify as Beta's `setBlockWithNotify` (see the
        module docstring); returns the sections that see the change, as `set_block` does (() when
        nothing changed, and for a cell outside the build height or the border, which is ignored)."""
        if not self.can_hold(x, y, z):
            return ()
        key = column_of(x, z)
        column = self._column_at(*key)
        old = column.get(x & LOCAL_MASK, y, z & LOCAL_MASK)
        if old == block:
            return ()
        column.set(x & LOCAL_MASK, y, z & LOCAL_MASK, block)
        self._relight(((x, y, z),))
        self._unsaved.add(key)
        self.revision += 1
        seen_by = sections_seeing(x, y, z)
        self._changed_sections.update(seen_by)
        if fluids.PLACED_AS[old] != fluids.PLACED_AS[block]:
            self._react(x, y, z)
        for dx, dy, dz in _NEIGHBOURS:
            self._react(x + dx, y + dy, z + dz)
        return seen_by

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

    def take_changed_sections(self) -> set[tuple[int, int, int]]:
        """Every section (cx, sy, cz) changed by `set_block`, or whose padded light changed, since the
        last call, and forget them (the recorded light work runs first, so its sections are in).

        A renderer rebuilds the meshes of these sections; keys of sections it has no mesh for (a
        neighbour column it has not drawn yet) can be skipped.
        """
        self._resolve_light()
        changed, self._changed_sections = self._changed_sections, set()
        return changed

    def column(self, cx: int, cz: int) -> np.ndarray:
        """A new (16, 256, 16) uint16 array of column (cx, cz)'s ids, indexed [x, y, z] (local)."""
        return self._column_at(column_coordinate(cx, "cx"), column_coordinate(cz, "cz")).ids()

    def padded_section(self, cx: int, sy: int, cz: int) -> np.ndarray:
        """Section (cx, sy, cz) with a one-block border: a new (18, 18, 18) uint16 array, [x, y, z].

        Index 1..16 is the section itself (index i is local block i - 1); 0 and 17 come from the
        neighbouring sections and columns, generated if needed. The border keeps the edge rule:
        below y = 0 it is bedrock (solid, so the world's floor shows no faces), above y = 255 air.
        """
        cx, sy, cz = column_coordinate(cx, "cx"), block_coordinate(sy, "sy"), column_coordinate(cz, "cz")
        if not 0 <= sy < SECTIONS_PER_COLUMN:
            raise ValueError(f"section index sy must be 0..{SECTIONS_PER_COLUMN - 1}, got {sy}")
        x0, y0, z0 = cx * CHUNK_SIZE - 1, sy * CHUNK_SIZE - 1, cz * CHUNK_SIZE - 1
        return self._ids_in_box(x0, y0, z0, x0 + PADDED_SIZE, y0 + PADDED_SIZE, z0 + PADDED_SIZE)

    # --- light (`light.py`) ------------------------------------------------------------------------

    def light(self, x: int, y: int, z: int) -> tuple[int, int]:
        """(sky, block) light at block (x, y, z), each 0..15 (Beta's rule, see `light.py`): (15, 0)
        above the build height, (0, 0) below it. Loads or generates the column, as `id_at` does."""
        x, y, z = block_coordinate(x, "x"), block_coordinate(y, "y"), block_coordinate(z, "z")
        if y >= WORLD_HEIGHT:
            return ABOVE_WORLD_LIGHT
        if y < 0:
            return BELOW_WORLD_LIGHT
        self._column_at(x >> SECTION_SHIFT, z >> SECTION_SHIFT)
        self._resolve_light()
        return self._light.light_at(x, y, z)

    def padded_light(self, cx: int, sy: int, cz: int) -> np.ndarray:
        """Light of section (cx, sy, cz) with a one-block border: a new (18, 18, 18) uint8 array
        indexed [x, y, z] exactly as `padded_section`, each value `sky << 4 | block`. It loads or
        generates the neighbouring columns as `padded_section` does; above the build height it
        reads (15, 0), below it (0, 0)."""
        cx, sy, cz = column_coordinate(cx, "cx"), block_coordinate(sy, "sy"), column_coordinate(cz, "cz")
        if not 0 <= sy < SECTIONS_PER_COLUMN:
            raise ValueError(f"section index sy must be 0..{SECTIONS_PER_COLUMN - 1}, got {sy}")
        self._open_file()
        for kx in (cx - 1, cx, cx + 1):
            for kz in (cz - 1, cz, cz + 1):
                if self.can_hold(kx * CHUNK_SIZE, 0, kz * CHUNK_SIZE):
                    self._column_at(kx, kz)
        self._resolve_light()
        return self._light.padded(cx, sy, cz)

    def _relight(self, cells) -> None:
        """Blocks changed at `cells` ((x, y, z) triples, or an (n, 3) int array): their light and
        their surroundings' are brought up to date lazily, before the next light read
        (`light`, `padded_light`) or `take_changed_sections`, which then includes every section whose
        padded light changed. Recording is cheap, so a tick may pass every cell it changed at once."""
        self._light.cells_changed(cells)
        if self._light.recorded_cells > MAX_UNRESOLVED_LIGHT_CELLS:
            self._resolve_light()  # a world nobody draws (a headless run) must not pile up work

    def _resolve_light(self) -> None:
        """Run the recorded light work now and record the sections whose light it changed."""
        if self._light.pending:
            self._changed_sections.update(self._light.resolve())

    # --- physics.CollisionWorld -----------------------------------------------------------------

    def collision_boxes(self, region: AABB) -> list[AABB]:
        """Every solid box whose interior overlaps `region` (physics.CollisionWorld).

        Edge rule: below y = 0 every cell is a full solid cube, above the top it is air; columns that
        are not loaded are generated first, so results never depend on loading timing. Fences are
        found from the cell below (1.5 tall). Beyond the world border everything is solid: the part
        of `region` outside it comes back as one wall box per side, so bodies stop at the border.
        """
        return self._boxes_in(region, self._placed_shapes)

    def selection_boxes(self, region: AABB) -> list[AABB]:
        """The boxes the look ray hits whose interior overlaps `region`: the collision boxes, and
        the selection boxes of blocks bodies pass through but a player aims at (torches, flowers,
        tall grass, cobwebs: `blocks.SELECTION_SHAPES`); the edge rule as `collision_boxes`."""
        return self._boxes_in(region, self._selection_shapes)

    def _boxes_in(self, region: AABB, shapes: PlacedShapeCache) -> list[AABB]:
        self._open_file()
        x0, y0, z0, x1, y1, z1 = cell_range(region)
        if x1 <= x0 or y1 <= y0 or z1 <= z0:
            return []
        walls = _border_walls(region)
        if walls:
            x0, x1 = max(x0, -WORLD_BORDER), min(x1, WORLD_BORDER)
            y0, y1 = max(y0, -WORLD_BORDER), min(y1, WORLD_BORDER)
            z0, z1 = max(z0, -WORLD_BORDER), min(z1, WORLD_BORDER)
            if x1 <= x0 or y1 <= y0 or z1 <= z0:
                return walls
        return walls + shapes.boxes_in(self._ids_in_box(x0, y0, z0, x1, y1, z1), x0, y0, z0, region)

    def slipperiness(self, x: int, y: int, z: int) -> float:
        """Slipperiness of block (x, y, z) (0.6 for ordinary blocks and air, 0.98 for ice)."""
        x, y, z = block_coordinate(x, "x"), block_coordinate(y, "y"), block_coordinate(z, "z")
        return float(SLIPPERINESS[self.id_at(x, y, z)])

    def material(self, x: int, y: int, z: int) -> Material:
        """What block (x, y, z) is made of, as physics sees it (physics.CollisionWorld's optional query)."""
        return _MATERIALS[MATERIAL[self.id_at(int(x), int(y), int(z))]]

    def flow(self, x: int, y: int, z: int) -> tuple[float, float, float]:
        """The current of the fluid at (x, y, z) (Beta's `getFlowVector`), zero elsewhere."""
        return fluids.flow_vector(self, int(x), int(y), int(z))

    def materials_in(self, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int) -> dict:
        """Every cell of the inclusive cuboid that is not made of air, with its material, in x, then
        y, then z order (physics' many-cells query: one read of the blocks, vectorised)."""
        self._open_file()
        if x1 < x0 or y1 < y0 or z1 < z0:
            return {}
        ids = self._ids_in_box(x0, y0, z0, x1 + 1, y1 + 1, z1 + 1)
        materials = MATERIAL[ids]
        found = np.nonzero(materials)
        if not found[0].size:
            return {}
        values = materials[found].tolist()
        return {(x0 + i, y0 + j, z0 + k): _MATERIALS[m]
                for i, j, k, m in zip(found[0].tolist(), found[1].tolist(), found[2].tolist(), values)}

    def fluid_level(self, x: int, y: int, z: int) -> int:
        """Beta's metadata of the water or lava at (x, y, z) (0 a source), -1 for any other block."""
        return int(FLUID_LEVEL[self.id_at(int(x), int(y), int(z))])

    # --- background loading ---------------------------------------------------------------------

    def request(self, cx: int, cz: int) -> None:
        """Ask for column (cx, cz) to be made ready in the background; returns at once.

        `poll()` reports it when it is loaded. Saved columns are read from the file during `poll`;
        others are generated by worker processes. Asking for a loaded or already asked column does nothing.
        """
        self._open_file()
        key = (column_coordinate(cx, "cx"), column_coordinate(cz, "cz"))
        if key in self._requested or key in self._ready:
            return
        if key in self._columns:
            self._ready[key] = None
            return
        self._requested.add(key)
        if key in self._saved:
            self._from_file.append(key)
        else:
            self._generator.submit(*key)

    def cancel(self, cx: int, cz: int) -> None:
        """Withdraw a request (for a column the player has moved away from); no error if none."""
        self._open_file()
        key = (column_coordinate(cx, "cx"), column_coordinate(cz, "cz"))
        if key in self._requested:
            self._requested.discard(key)
            self._generator.cancel(*key)

    def poll(self, limit: int | None = None) -> list[tuple[int, int]]:
        """The requested columns that became ready since the last poll, each reported once.

        Installs at most `limit` columns (all available when None) from the workers and the file,
        so a frame can bound its work; a column that a read already generated on the spot is
        reported too. Never waits for a worker.
        """
        self._open_file()
        finished = self._generator.finished(limit)
        for key, column in finished:
            if key not in self._columns:
                self._install(key, column)
        installed = len(finished)
        while self._from_file and (limit is None or installed < limit):
            key = self._from_file.popleft()
            if key in self._requested and key not in self._columns:
                self._install(key, self._load(key))
                installed += 1
        ready, self._ready = list(self._ready), {}
        return ready

    @property
    def pending_requests(self) -> int:
        """Requested columns not yet reported by `poll`."""
        return len(self._requested)

    def is_loaded(self, cx: int, cz: int) -> bool:
        """Whether column (cx, cz) is in memory (reads of it will not generate anything)."""
        self._open_file()
        return (column_coordinate(cx, "cx"), column_coordinate(cz, "cz")) in self._columns

    def unload_columns_outside(self, cx: int, cz: int, radius: int) -> int:
        """Forget loaded columns farther than `radius` columns (on x or z) from (cx, cz), except those
        with unsaved edits; returns how many were forgotten. They reload (from the file or the seed)
        when read again."""
        self._open_file()
        cx, cz = column_coordinate(cx, "cx"), column_coordinate(cz, "cz")
        if isinstance(radius, bool) or not isinstance(radius, int) or radius < 0:
            raise ValueError(f"radius must be a non-negative int (columns), got {radius!r}")
        far = [key for key in self._columns
               if max(abs(key[0] - cx), abs(key[1] - cz)) > radius and key not in self._unsaved]
        for key in far:
            self._light.column_removed(key)
            del self._columns[key]
        return len(far)

    # --- entities -------------------------------------------------------------------------------

    def column_entities(self, cx: int, cz: int) -> list[dict]:
        """The entities (mobs) stored with column (cx, cz): set since the last save, or read from the file."""
        file = self._open_file()
        key = (column_coordinate(cx, "cx"), column_coordinate(cz, "cz"))
        if key in self._unsaved_entities:
            return [dict(e) for e in self._unsaved_entities[key]]
        if key in self._entities_damaged:
            return []
        try:
            return file.load_entities(*key)
        except CorruptWorldError as error:
            self._entities_damaged.add(key)
            self._report(key, ENTITIES, error, "its saved mobs are left out (their bytes stay in the file)")
            return []

    def set_column_entities(self, cx: int, cz: int, entities: list[dict]) -> None:
        """Replace the entities stored with column (cx, cz) (JSON objects); written by the next `save()`."""
        self._open_file()
        key = (column_coordinate(cx, "cx"), column_coordinate(cz, "cz"))
        entities_json(entities)  # refuse what save() could not write, now rather than at save time
        self._unsaved_entities[key] = [dict(e) for e in entities]

    # --- saving ---------------------------------------------------------------------------------

    def save(self) -> None:
        """Write every column edited since the last save, column entities and the player state, in one transaction.

        When the disk or the file refuses (a `storage.WorldFileError` subclass: WorldDiskFullError,
        WorldReadOnlyError, ...), nothing is written, the file keeps its last save and the edits stay
        unsaved here, so a later `save()` can write them."""
        file = self._open_file()
        keys = sorted(self._unsaved)
        file.save([(key, self._columns[key]) for key in keys], self._player_state,
                  sorted(self._unsaved_entities.items()), self._updates.rows(self.ticks), self.ticks)
        self._saved.update(keys)
        self._regenerated.difference_update(keys)
        self._entities_damaged.difference_update(self._unsaved_entities)
        self._unsaved.clear()
        self._unsaved_entities.clear()

    # --- damage found while playing ---------------------------------------------------------------

    def take_problems(self) -> list[WorldProblem]:
        """The damage found in the world file since the last call, oldest first, and forget it: each
        damaged column or entity list is reported once. For the window (or a run's report) to show the player."""
        problems, self._problems = self._problems, []
        return problems

    @property
    def damaged_columns(self) -> frozenset[tuple[int, int]]:
        """Saved columns whose blocks are damaged, served as generated from the seed; a column leaves
        this set when an edit of it is saved (its damaged bytes kept in the file's `damaged_columns`)."""
        return frozenset(self._regenerated)

    def _report(self, key: tuple[int, int], part: str, error: CorruptWorldError, done: str) -> None:
        self._problems.append(WorldProblem(key, part, f"{error}; {done}"))

    # --- internals ------------------------------------------------------------------------------

    def _open_file(self) -> WorldFile:
        if self._file is None:
            raise WorldClosedError("the world is closed")
        return self._file

    def _column_at(self, cx: int, cz: int) -> Column:
        column = self._columns.get((cx, cz))
        if column is None:
            self._open_file()
            column = self._load((cx, cz))
            self._install((cx, cz), column)
        return column

    def _load(self, key: tuple[int, int]) -> Column:
        """Column `key` from the file if it was saved and is readable, else from the seed (reporting
        the damage the first time)."""
        if key in self._saved and key not in self._regenerated:
            try:
                column = self._open_file().load_column(*key)
            except CorruptWorldError as error:
                self._regenerated.add(key)
                self._report(key, BLOCKS, error, "it is shown as generated from the seed, and its saved "
                                                 "bytes are kept unless you edit it")
                column = None
            if column is not None:
                return column
        return Column.from_ids(self._terrain.column(*key))

    def _install(self, key: tuple[int, int], column: Column) -> None:
        self._columns[key] = column
        self._light.column_added(key)
        if key in self._requested:
            self._requested.discard(key)
            self._generator.cancel(*key)
            self._ready[key] = None

    def _ids_in_box(self, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int) -> np.ndarray:
        """The ids of blocks [x0, x1) x [y0, y1) x [z0, z1), indexed [x, y, z], keeping the edge rule.

        The caller passes ints with x0 < x1, y0 < y1, z0 < z1. Read-only: it may be a view of the
        world's storage, valid until the next write. Loads or generates the columns it touches.
        """
        if (x0 & _SECTION_MASK == (x1 - 1) & _SECTION_MASK and z0 & _SECTION_MASK == (z1 - 1) & _SECTION_MASK
                and y0 >= 0 and y1 <= WORLD_HEIGHT and y0 >> SECTION_SHIFT == (y1 - 1) >> SECTION_SHIFT):
            section = self._column_at(*column_of(x0, z0)).sections[y0 >> SECTION_SHIFT]
            if section is None:
                section = _AIR_SECTION
            view = section[x0 & LOCAL_MASK:((x1 - 1) & LOCAL_MASK) + 1, y0 & LOCAL_MASK:((y1 - 1) & LOCAL_MASK) + 1,
                           z0 & LOCAL_MASK:((z1 - 1) & LOCAL_MASK) + 1]
            view.flags.writeable = False
            return view
        out = np.empty((x1 - x0, y1 - y0, z1 - z0), dtype=BLOCK_DTYPE)
        out[:, :max(0, min(y1, 0) - y0)] = BELOW_WORLD
        out[:, max(0, WORLD_HEIGHT - y0):] = ABOVE_WORLD
        lo_y, hi_y = max(y0, 0), min(y1, WORLD_HEIGHT)
        if lo_y >= hi_y:
            return out  # wholly outside the build height: the edge rule alone
        (first_cx, first_cz), (last_cx, last_cz) = column_of(x0, z0), column_of(x1 - 1, z1 - 1)
        for cx in range(first_cx, last_cx + 1):
            ax, bx = max(x0, cx * CHUNK_SIZE), min(x1, (cx + 1) * CHUNK_SIZE)
            for cz in range(first_cz, last_cz + 1):
                az, bz = max(z0, cz * CHUNK_SIZE), min(z1, (cz + 1) * CHUNK_SIZE)
                sections = self._column_at(cx, cz).sections
                for sy in range(lo_y >> SECTION_SHIFT, ((hi_y - 1) >> SECTION_SHIFT) + 1):
                    ay, by = max(lo_y, sy * CHUNK_SIZE), min(hi_y, (sy + 1) * CHUNK_SIZE)
                    target = out[ax - x0:bx - x0, ay - y0:by - y0, az - z0:bz - z0]
                    section = sections[sy]
                    if section is None:
                        target.fill(AIR)
                    else:
                        target[...] = section[ax - cx * CHUNK_SIZE:bx - cx * CHUNK_SIZE, ay - sy * CHUNK_SIZE:
                                              by - sy * CHUNK_SIZE, az - cz * CHUNK_SIZE:bz - cz * CHUNK_SIZE]
        return out


def _update_kind(block: int) -> str | None:
    """The kind of scheduled update block `block` runs ("water", "lava", "falls"), or None."""
    fluid = fluids.fluid_of(block)
    if fluid is not None:
        return fluid.kind
    return "falls" if FALLS[block] else None


def _border_walls(region: AABB) -> list[AABB]:
    """The parts of `region` beyond the world border on each side, as solid boxes (empty inside it)."""
    walls = []
    lo, hi = float(-WORLD_BORDER), float(WORLD_BORDER)
    for axis in range(3):
        if region[axis] < lo:
            wall = list(region)
            wall[axis + 3] = min(region[axis + 3], lo)
            walls.append(AABB._trusted(*wall))
        if region[axis + 3] > hi:
            wall = list(region)
            wall[axis] = max(region[axis], hi)
            walls.append(AABB._trusted(*wall))
    return walls
