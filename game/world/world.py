"""World: one open voxel world, its loaded columns, edits, queries and saves.

`World` is a façade over parts, each a mixin in its own module that keeps its state on the World:
- `column_store.py`: the loaded columns, loading one on the spot, box reads (`ids_in_box`, `column`,
  `padded_section`) and the damage found in the file while playing (`take_problems`,
  `damaged_columns`, `WorldProblem`);
- `world_ticker.py`: the clock and the scheduled block updates (`schedule`, the scheduled-update
  part of `tick`, `day_time`, `set_day_time`, `take_falling_starts`);
- `world_queries.py`: what physics and the look ray ask (`collision_boxes`, `selection_boxes`,
  `slipperiness`, `material`, `flow`, `materials_in`, `fluid_level`);
- `column_loading.py`: background requests and unloading (`request`, `cancel`, `poll`, `is_loaded`,
  `columns_far_from`, `is_edited`, `unload_columns`, ...);
- `column_entities.py`: the entities stored with each column.
This module owns the rest: making, opening and closing a world, one block's reads and writes with
their notifications, light and the tick's light phase, the log of what changed (`change_log.py`,
taken once a tick by `take_changes`), the players' states, and when to write what to the world file.
Does not own: terrain (`terrain.py`), the file and its format (`storage.py`, `file_format.py`), column storage
(`column.py`), the generation workers (`generation.py`), what a scheduled update does (`fluids.py`,
`falling.py`; the queue is `block_updates.py`), moving falling blocks (`game.rules.falling_blocks`), or drawing anything.

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
from pathlib import Path

import numpy as np
from physics.world import JOURNAL_CELLS, CellJournal

from . import fluid_batch, fluids
from .block_updates import BlockUpdates
from .change_log import ChangeLog, WorldChanges
from .file_checks import check_meta_value
from .file_format import CREATIVE, GAME_MODE_KEY, MAX_CREATED_AT_S
from .blocks import AIR, SELECTABLE, SELECTION_SHAPES, block_id, block_name
from .falling import FallingStart
from .collision import PlacedShapeCache
from .column import Column
from .coords import (ABOVE_WORLD, BELOW_WORLD, BLOCK_DTYPE, CHUNK_SIZE, LOCAL_MASK, SECTION_SHAPE, SECTION_SHIFT,
                     SECTIONS_PER_COLUMN, WORLD_BORDER, WORLD_HEIGHT, block_coordinate,
                     column_coordinate, column_of, require_in_height, sections_seeing, sections_seeing_all)
from .generation import DEFAULT_WORKERS, ColumnGenerator, check_worker_count
from .light import ABOVE_WORLD_LIGHT, BELOW_WORLD_LIGHT, LightEngine
from .file_errors import UnsavableWorldError
from .player_names import LOCAL_PLAYER, check_player_name
from .storage import BLOCK_UPDATES, EntitiesText, WorldFile, player_state_json
from .spawn import find_spawn
from .terrain import Terrain
from .column_entities import ColumnEntities
from .column_store import PADDED_SIZE, ColumnStore, WorldProblem  # noqa: F401 (WorldProblem: its old home)
from .column_loading import ColumnLoading
from .world_queries import WorldQueries
from .world_ticker import DAY_TICKS, WorldTicker  # noqa: F401 (DAY_TICKS: its old home, still imported from here)

MAX_UNRESOLVED_LIGHT_CELLS = 100_000
"""[cells] Changed cells whose light may wait; past this every waiting edit is relit at once (about
50 ticks of a large flood, which the per-tick budget did not keep up with), so memory stays bounded."""
LIGHT_CELLS_PER_TICK = 1_024
"""[cells] Changed cells whose light one world tick's light phase (`World._light_phase`) relits when
nobody reads it, so a flood or 10,000 torches placed at once spread their light work over ticks:
measured a worst tick of 13-20 ms against 40-52 ms for all 10,000 at once (`python -m bench light`, 2-core
machine). A tick's ordinary edits are far fewer; a smaller budget saves little, as each step pays
for the REACH blocks around its cells."""

_NEIGHBOURS = ((-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1))
"""Beta's `notifyBlocksOfNeighborChange` order."""


class WorldClosedError(ValueError):
    """The world was used after `close()`."""




class World(ColumnStore, WorldQueries, ColumnLoading, ColumnEntities, WorldTicker):
    """An open voxel world. Make one with `World.create(path, seed)` or `World.open(path)`.

    A façade: its column store, ticker, queries, column loading and column entities are its parts (mixins in
    their own modules, see the module docstring), all state set up here. It is a
    `game.rules.game_world.StreamedWorld`, the protocol the game asks a world through.
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
        self._changes = ChangeLog()
        """What changed since the last `take_changes` (cells, sections, light): a tick's record."""
        self._player_states: dict[str, dict] = dict(file.metadata.players)
        """Every player's saved state by name (the local player's under LOCAL_PLAYER), as set since."""
        self._unsaved_players: set[str] = set()
        """Names whose state was set (or cleared) since the last save; the local player's is written always."""
        self._unsaved_entities: dict[tuple[int, int], EntitiesText] = {}
        self.revision = 0
        """Counts block edits (physics' optional `CollisionWorld.revision`: crowds keep their boxes while it holds)."""
        self._journal = CellJournal()
        """The latest cells edited, by revision (`cells_changed_since`): crowds forget only the boxes around them."""
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
        self._unsupported = []  # world_ticker.UnsupportedBlock: blocks broken as their support went
        self._random_ticked = {}  # world_ticker: columns -> cells that may hold a random-ticked block
        self._random_tick_revision = self.revision
        self._generated: dict[tuple[int, int], None] = {}
        """Columns made from the seed (not read from the file) since the last `take_generated_columns`."""

    # --- making and closing -----------------------------------------------------------------

    @classmethod
    def create(cls, path: str | os.PathLike, seed: int = 42, *, workers: int = DEFAULT_WORKERS,
               game_mode: str = CREATIVE) -> World:
        """A new world at `path` (WorldExistsError if anything is there), saved at once.

        `seed`: a signed 64-bit int. `game_mode`: "survival" or "creative" (`file_format.GAME_MODES`;
        ValueError otherwise). The game makes its new worlds survival (the New World dialog, `--new`);
        this call keeps creative as its default, so code written before game modes keeps the
        creative game's rules. `workers`: background generation processes, started on the
        first `request`. Bad arguments are refused before the file is made; if making the world
        fails after that, the new file is removed.
        """
        check_meta_value(GAME_MODE_KEY, game_mode)
        terrain = Terrain(seed)
        check_worker_count(workers)
        generated: dict[tuple[int, int], np.ndarray] = {}
        x, z = find_spawn(terrain, generated)
        spawn_key = column_of(x, z)
        spawn_column = Column.from_ids(generated[spawn_key] if spawn_key in generated else terrain.column(*spawn_key))
        spawn = (x + 0.5, float(spawn_column.top_y(x & LOCAL_MASK, z & LOCAL_MASK) + 1), z + 0.5)
        created_at = min(max(time.time(), 0.0), float(MAX_CREATED_AT_S))  # a clock outside the range a file holds
        file = WorldFile.create(Path(path), seed, created_at, spawn, game_mode)
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
    def game_mode(self) -> str:
        """"survival" or "creative", set when the world was made (a world from before game modes: creative)."""
        return self._open_file().metadata.game_mode

    @property
    def created_at(self) -> float:
        """[s] Unix time the world was created."""
        return self._open_file().metadata.created_at

    def player_states(self) -> tuple[str, ...]:
        """The names of every player whose state the world keeps (saved, or set since), sorted."""
        return tuple(sorted(self._player_states))

    def saved_player_state(self, name: str) -> dict | None:
        """What the game keeps about the player `name` (see `player_state`), None when that name
        never played here; TypeError or ValueError for a bad name (`check_player_name`)."""
        return self._player_states.get(check_player_name(name))

    def set_player_state(self, name: str, state: dict | None) -> None:
        """Keep `state` for the player `name` (None: forget it), written by the next `save()`.
        TypeError or ValueError for a bad name or for a state an open would refuse (nothing changes then)."""
        check_player_name(name)
        player_state_json(state)  # refuse what save() could not write, now rather than at save time
        if state is None:
            self._player_states.pop(name, None)
        else:
            self._player_states[name] = state
        self._unsaved_players.add(name)

    @property
    def player_state(self) -> dict | None:
        """What the game keeps about the player (box as 6 floats, velocity, yaw, hotbar...), saved by
        `save()`. JSON values only; floats read back bit for bit, tuples read back as lists."""
        return self._player_states.get(LOCAL_PLAYER)

    @player_state.setter
    def player_state(self, state: dict | None) -> None:
        self.set_player_state(LOCAL_PLAYER, state)

    # --- blocks -------------------------------------------------------------------------------

    def get_block(self, x: int, y: int, z: int) -> str:
        """The name of block (x, y, z) (edge rule outside the build height)."""
        if (type(x) is int and type(y) is int and type(z) is int  # most callers floor floats to ints:
                and -WORLD_BORDER <= x < WORLD_BORDER and -WORLD_BORDER <= y < WORLD_BORDER
                and -WORLD_BORDER <= z < WORLD_BORDER):
            return block_name(self.id_at(x, y, z))  # `block_coordinate`'s checks, passed, without its calls
        return block_name(self.id_at(block_coordinate(x, "x"), block_coordinate(y, "y"), block_coordinate(z, "z")))

    @staticmethod
    def can_hold(x: int, y: int, z: int) -> bool:
        """Whether a block can be set at (x, y, z): inside the world border and 0 <= y < 256."""
        return 0 <= y < WORLD_HEIGHT and -WORLD_BORDER <= x < WORLD_BORDER and -WORLD_BORDER <= z < WORLD_BORDER

    def set_block(self, x: int, y: int, z: int, name: str) -> tuple[tuple[int, int, int], ...]:
        """Make block (x, y, z) the block called `name`.

        Returns the sections (cx, sy, cz) whose padded sections see the change (its own and, on a
        border, the neighbours'); the change is also noted for `take_changes`. Setting a block
        to what it already is changes nothing and returns (). UnknownBlockError for an unknown name
        and OutOfWorldError outside 0 <= y < 256, with nothing changed.
        """
        x, y, z = block_coordinate(x, "x"), block_coordinate(y, "y"), block_coordinate(z, "z")
        block = block_id(name)
        require_in_height(y)
        return self.set_id(x, y, z, block)

    # --- the world's tick (its clock and scheduled block updates: `world_ticker.py`) -------------------

    def tick(self) -> int:
        """Advance the world one tick and run the scheduled updates now due, at most
        `block_updates.UPDATES_PER_TICK` (the rest run first next tick); returns how many ran.
        Falling sand found here is handed out by `take_falling_starts`. The counter stops at
        `file_format.LAST_WORLD_TICK` (14 billion years of play): what a save writes, an open accepts.
        Last comes the light phase (`_light_phase`): the tick's one step of light work, within its budget."""
        self._open_file()
        ran = self._run_due_updates()  # the ticker's part (`world_ticker.py`)
        self._light_phase()
        return ran

    def _light_phase(self) -> None:
        """The tick's light phase, its last step: relight up to LIGHT_CELLS_PER_TICK changed cells, the
        oldest columns' first, and take away the light of unloaded columns; the sections whose padded
        light changed are noted for `take_changes`. Cells past the budget wait for the next tick's
        phase (`take_changes().light_waiting` lists their sections), exact as the light engine sees
        them (`light.py`). New columns are not lit here: a column's light is first made when
        something reads it (`padded_light` for a mesh, `light`), so a world nobody draws pays for none."""
        self._resolve_light(budget=LIGHT_CELLS_PER_TICK, install=False)

    def _store_batch(self, writes: np.ndarray) -> None:
        """Store a batch's block changes (int64 rows (x, y, z, old, new) in order, every cell in the
        world): the last value of each cell, with the bookkeeping `set_id` does for one write (its
        notifications are the batch's schedules)."""
        if not len(writes):
            return
        keys = fluid_batch.cell_keys(writes[:, 0], writes[:, 1], writes[:, 2])
        _, last_from_end = np.unique(keys[::-1], return_index=True)
        xs, ys, zs, _, ids = writes[len(writes) - 1 - last_from_end].T
        first_old = writes[np.unique(keys, return_index=True)[1], 3]  # each cell's block before the batch
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
        self._journal.record(self.revision, list(zip(xs.tolist(), ys.tolist(), zs.tolist()))
                             if len(xs) <= JOURNAL_CELLS else None)
        self._changes.blocks_changed(xs, ys, zs, first_old, ids)
        self._changes.sections_changed(sections_seeing_all(xs, ys, zs))
        self._relight(np.stack([xs, ys, zs], axis=1), first_old)

    # fluids.BlockAccess: the rules' view of the world (cells outside the build height or the border
    # read by the edge rule and are never written).

    def cells_changed_since(self, revision: int) -> list[tuple[int, int, int]] | None:
        """The cells edited after `revision`, or None when the world no longer knows
        (physics' optional `CollisionWorld.cells_changed_since`, kept by a `physics.world.CellJournal`)."""
        return self._journal.since(revision)

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
        self._light.cell_changed(x, y, z, old)
        self._bound_waiting_light()
        self._unsaved.add(key)
        self.revision += 1
        self._journal.record(self.revision, [(x, y, z)])
        seen_by = sections_seeing(x, y, z)
        self._changes.block_changed(x, y, z, old, block)
        self._changes.sections_changed(seen_by)
        if fluids.PLACED_AS[old] != fluids.PLACED_AS[block]:
            self._react(x, y, z)
        for dx, dy, dz in _NEIGHBOURS:
            self._react(x + dx, y + dy, z + dz, (x, y, z))
        return seen_by

    def take_changes(self) -> WorldChanges:
        """What changed since the last call, and forget it (`change_log.WorldChanges`): every cell
        whose block changed (old and new), the sections whose mesh changed (blocks or light), the
        sections whose light still waits, and the columns now unsaved. It runs no light work: the
        tick's light phase (`tick`) did; what a read of light settled since (a mesh's
        `padded_light`) is in too. A session takes it once a tick, into its `TickChanges`."""
        self._open_file()
        return self._changes.take(light_waiting=self._light.waiting_sections(), unsaved_columns=self._unsaved)

    def take_changed_sections(self) -> set[tuple[int, int, int]]:
        """Compatibility alias for code that predates `take_changes` (the game does not call it):
        run a light phase that also lights new columns, then take the whole record (`take_changes`)
        and return its sections."""
        self._resolve_light(budget=LIGHT_CELLS_PER_TICK)
        return set(self.take_changes().sections)

    def take_generated_columns(self) -> list[tuple[int, int]]:
        """The columns (cx, cz) generated from the seed rather than read from the file since the
        last call, in the order they were taken in, each once; then forget them (for the animals
        Beta 1.8 places in a new column). A never-edited column is never saved, so one that is
        unloaded and read again is generated, and listed, again."""
        self._open_file()
        generated, self._generated = list(self._generated), {}
        return generated

    def _install(self, key: tuple[int, int], column: Column) -> None:
        if key not in self._saved:
            self._generated[key] = None
        super()._install(key, column)

    # --- light (`light.py`) ------------------------------------------------------------------------

    def light(self, x: int, y: int, z: int) -> tuple[int, int]:
        """(sky, block) light at block (x, y, z), each 0..15 (Beta's rule, see `light.py`): (15, 0)
        above the build height, (0, 0) below it. Loads or generates the column, as `id_at` does."""
        if (x.__class__ is int and y.__class__ is int and z.__class__ is int and 0 <= y < WORLD_HEIGHT
                and -WORLD_BORDER <= x < WORLD_BORDER and -WORLD_BORDER <= z < WORLD_BORDER
                and (x >> SECTION_SHIFT, z >> SECTION_SHIFT) in self._columns):
            settled = self._light.settled_light_at(x, y, z)  # the light is settled: nothing to resolve first
            if settled is not None:
                return settled
        x, y, z = block_coordinate(x, "x"), block_coordinate(y, "y"), block_coordinate(z, "z")
        if y >= WORLD_HEIGHT:
            return ABOVE_WORLD_LIGHT
        if y < 0:
            return BELOW_WORLD_LIGHT
        self._column_at(x >> SECTION_SHIFT, z >> SECTION_SHIFT)
        self._resolve_light(near=(x, z, x + 1, z + 1))
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
        x0, z0 = cx * CHUNK_SIZE - 1, cz * CHUNK_SIZE - 1
        self._resolve_light(near=(x0, z0, x0 + PADDED_SIZE, z0 + PADDED_SIZE))
        return self._light.padded(cx, sy, cz)

    def prepare_light(self, cx: int, cz: int, columns: int = 1) -> bool:
        """Spread over several calls the first light that `padded_light` of a section of column
        (cx, cz) would give new columns there and then (each ~2-7 ms of numpy; a whole neighbourhood
        at once made the slowest frames): light up to `columns` of those loaded columns, oldest
        first, and say whether none is left, so that the sections' `padded_light` now lights no new
        column (it still relights edits near them). The light read afterwards is exactly what it
        would have been (`LightEngine.light_column`). Loads nothing: columns not loaded are not counted."""
        x0, z0 = column_coordinate(cx, "cx") * CHUNK_SIZE - 1, column_coordinate(cz, "cz") * CHUNK_SIZE - 1
        if isinstance(columns, bool) or not isinstance(columns, int) or columns < 0:
            raise ValueError(f"columns must be a whole number >= 0, got {columns!r}")
        self._open_file()
        waiting = self._light.unlit_near(x0, z0, x0 + PADDED_SIZE, z0 + PADDED_SIZE)
        for key in waiting[:columns]:
            self._changes.sections_changed(self._light.light_column(key))
        return len(waiting) <= columns

    def _relight(self, cells, old_blocks=None) -> None:
        """Blocks changed at `cells` ((x, y, z) triples, or an (n, 3) int array) from `old_blocks`
        (their ids before, one per cell; None: unknown, so the next resolve of any kind relights them):
        their light and their surroundings' are brought up to date lazily: up to
        LIGHT_CELLS_PER_TICK cells a tick (the tick's light phase, `_light_phase`, noting every
        section whose padded light changed), and what can reach a cell before it is read (`light`,
        `padded_light`). Recording is cheap, so a tick may pass every cell it changed at once."""
        self._light.cells_changed(cells, old_blocks)
        self._bound_waiting_light()

    def _bound_waiting_light(self) -> None:
        if self._light.recorded_cells > MAX_UNRESOLVED_LIGHT_CELLS:
            self._resolve_light(budget=None, install=False)  # more than the ticks' budget keeps up with

    def _resolve_light(self, *, budget: int | None = None, install: bool = True,
                       near: tuple[int, int, int, int] | None = None) -> None:
        """Run recorded light work now and record the sections whose light it changed: all of it by
        default; with `near` (x0, z0, x1, z1), what can reach those cells (`LightEngine.resolve_near`);
        with `budget`, up to that many changed cells, and the new columns if `install`."""
        if near is not None:
            changed = self._light.resolve_near(*near)
        elif budget is None and install:
            changed = self._light.resolve()
        else:
            changed = self._light.resolve_some(budget, install=install)
        self._changes.sections_changed(changed)

    # --- saving ---------------------------------------------------------------------------------

    def save(self) -> None:
        """Write every column edited since the last save, column entities and the player state, in one transaction.

        Raises only `storage.WorldFileError` subclasses: when the disk or the file refuses
        (WorldDiskFullError, WorldReadOnlyError, ...) or a value could not be written
        (UnsavableWorldError), nothing is written, the file keeps its last save and the edits stay
        unsaved here, so a later `save()` can write them."""
        file = self._open_file()
        keys = sorted(self._unsaved)
        try:
            rows = self._updates.rows(self.ticks)
        except (TypeError, ValueError, OverflowError) as error:  # a tick counter no save can write
            raise UnsavableWorldError(f"cannot save the world at {file.path}: the world_ticks {self.ticks!r:.80} "
                                      f"gives no pending updates' delays ({error}); nothing of this save was "
                                      "written, the file keeps its last save") from error
        file.save([(key, self._columns[key]) for key in keys], self.player_state,
                  sorted(self._unsaved_entities.items()), rows, self.ticks,
                  {name: self._player_states.get(name) for name in self._unsaved_players if name != LOCAL_PLAYER})
        self._unsaved_players.clear()
        self._saved.update(keys)
        self._regenerated.difference_update(keys)
        self._entities_damaged.difference_update(self._unsaved_entities)
        self._unsaved.clear()
        self._unsaved_entities.clear()

    # --- internals ------------------------------------------------------------------------------

    def _open_file(self) -> WorldFile:
        if self._file is None:
            raise WorldClosedError("the world is closed")
        return self._file
