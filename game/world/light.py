"""Light: Beta's two 4-bit light channels per block, computed and kept up to date with numpy.

Owns: the light of every loaded column (sky light and block light, packed `sky << 4 | block` in
one (16, 256, 16) uint8 array per column, indexed [x, y, z]), each column's sky height map, lighting
a column when it is installed, relighting after block edits and after a column is unloaded, and the
record of which sections' light changed (for re-meshing).
Does not own: the blocks (`World`, `column.py`), what each block does to light (`blocks.LIGHT_OPACITY`,
`blocks.LIGHT_EMISSION`), when columns load, or drawing (the renderer reads `World.padded_light`).

The rule (Beta 1.7.3's `updateLightByType`, used for both channels):
    light(c) = max(source(c), max over the six neighbours n of light(n) - cost(c))
    cost(c) = max(1, LIGHT_OPACITY[c]); an opacity of 15 (opaque blocks, lava) is never lit from outside.
- Sky light: source 15 in a cell that sees the sky, i.e. at or above its column's height (one above
  the highest block whose opacity is not 0: leaves and water count, so the top water cell of a lake
  reads 15 - 3 = 12 and each cell below 3 less), 0 elsewhere; above the world every cell reads 15.
- Block light: source `LIGHT_EMISSION` (torch 14, lava 15).
Because every step costs at least 1, the rule has exactly one solution; the engine keeps the light
equal to it (the tests compare it with a per-block Python BFS from scratch). Beta's generator seeds a
new chunk's sky light straight down and leaves the rest to later updates; this module always holds
the settled value instead, so light never depends on the order things happened in.

Columns that are not loaded are dark and stop light (Beta's `checkChunksExist`): the light of the
loaded columns is the solution over the loaded columns alone. Installing a column only adds light
(so it is an addition pass from its sources and its neighbours' faces); unloading one removes the
light that came from it: the removal pass starts at the neighbours' cells lit through its face (a
cell whose light is the unloaded cell's less its own cost), since any cell that loses light lies on
a path of such steps from one of them, and the windows leave out the columns that are not lit.

How it runs: every change is recorded (`column_added`, `column_removed`, `cells_changed`) and done
later: all of it by `resolve()`; at most a budget of changed cells by `resolve_some(budget)` (the
world's tick, so light nobody reads is spread over ticks); or only what can reach a box by
`resolve_near(box)` (the world before a light read, so what is read or meshed is exact); or one new
column's first light by `light_column` (`unlit_near` names those a box's read would light), so the
streamer spreads them over frames (`World.prepare_light`). Doing part of the edits stays exact
because the light engine sees a cell whose edit waits with the block it had
when its light was last settled (`cells_changed` takes the old blocks): the light is always Beta's
solution for the blocks as the engine sees them, and doing the waiting edits later is an ordinary
relight. A resolve works in windows: the changed cells plus up to 16 blocks on every side (no light
travels further; how far, below), one dense array per channel, with Beta's removal pass (clear every
cell whose light may have come through a changed cell) and addition pass (a breadth-first spread by
light level, from the sources and the light around the cleared cells), both on flat index arrays.

How far an edit reaches: let M be the brightest of a channel's light (before) in the changed cells
and their six neighbours, and of the changed cells' new sources. Only the changed cells' costs and
sources differ, so a path of light that gains must pass through them, entering at most M (from a
neighbour, or a new source there), and a path that is lost passed through them with at most M; each
block costs at least 1, so no cell more than M - 1 blocks (Manhattan) from a changed cell changes.
The removal pass's wave starts at most M and falls 1 a block, so it clears cells within M - 1; the
addition pass raises only cells it cleared or that end brighter; both read one block further. So a
window of the changed cells plus M blocks (its wall border never read) gives exactly what one of
REACH gives, and M = 0 (digging in the dark) needs no window at all. Unloads keep REACH.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from itertools import count, product

import numpy as np

from .array_ops import distinct

from .blocks import AIR, LIGHT_EMISSION, LIGHT_OPACITY
from .column import Column
from .coords import CHUNK_SIZE, LOCAL_MASK, SECTION_SHIFT, WORLD_HEIGHT, sections_seeing_all

MAX_LIGHT = 15
"""Both channels run 0..15 (4 bits, as Beta's nibble arrays)."""
SKY, BLOCK = 0, 1
"""Channel numbers: sky light is the packed byte's high nibble, block light the low one."""
REACH = MAX_LIGHT + 1
"""[blocks] How far a change can alter light: a source of 15 loses at least 1 a block, so cells 15
steps away are the last that can change, and the pass reads one block beyond them."""
ABOVE_WORLD_LIGHT = (MAX_LIGHT, 0)
"""(sky, block) above the build height: open sky (Beta reads 15 there)."""
BELOW_WORLD_LIGHT = (0, 0)
"""(sky, block) below y = 0: inside the bedrock floor."""
PACKED_ABOVE = MAX_LIGHT << 4
"""The packed byte above the build height."""

_PROPS = (LIGHT_OPACITY.astype(np.uint8) << 4) | LIGHT_EMISSION.astype(np.uint8)
"""Per block id: opacity in the high nibble, emission in the low one (one lookup gives both)."""
_AIR_PROPS = int(_PROPS[AIR])
_WALL = MAX_LIGHT
"""The cost of a cell light never enters (opaque, or outside the loaded columns)."""
_Y = np.arange(WORLD_HEIGHT, dtype=np.int16)
_SELF_AND_NEIGHBOURS = np.array([(0, 0, 0), (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)],
                                dtype=np.int64)
"""A cell and its six neighbours, as (dx, dy, dz) rows."""


def column_heights(opacity: np.ndarray) -> np.ndarray:
    """Sky height per (x, z) of a (16, 256, 16) opacity array: one above the highest cell whose
    opacity is not 0, or 0 for none (the cells at or above it see the sky)."""
    filled = opacity[:, ::-1, :] != 0
    first = filled.argmax(axis=1)
    return np.where(filled.any(axis=1), WORLD_HEIGHT - first, 0).astype(np.int16)


def _columns_reaching(x0: int, z0: int, x1: int, z1: int):
    """Whether a column (key) lies within REACH blocks of the cells x0 <= x < x1, z0 <= z < z1: its
    first light can reach them (`resolve_near` lights it, `unlit_near` names it)."""
    lo_x, lo_z, hi_x, hi_z = x0 - REACH, z0 - REACH, x1 + REACH, z1 + REACH
    return lambda key: (key[0] * CHUNK_SIZE < hi_x and (key[0] + 1) * CHUNK_SIZE > lo_x
                        and key[1] * CHUNK_SIZE < hi_z and (key[1] + 1) * CHUNK_SIZE > lo_z)


class LightEngine:
    """The light of a set of columns (a live mapping from (cx, cz) to `Column`, e.g. the world's
    loaded columns). Tell it when a column arrives or leaves and which cells changed; `resolve()`
    brings the light up to date and returns the sections whose light changed."""

    def __init__(self, columns: Mapping[tuple[int, int], Column]) -> None:
        self._columns = columns
        self._light: dict[tuple[int, int], np.ndarray] = {}
        self._heights: dict[tuple[int, int], np.ndarray] = {}
        self._to_install: dict[tuple[int, int], int] = {}
        """New columns waiting for their first light -> their arrival number (they are lit in that order)."""
        self._arrivals = count()
        self._dirty: list[np.ndarray] = []
        """Recorded edits not yet sorted by column, oldest first: (n, 4) int64 rows (x, y, z, old props),
        old props -1 where the caller did not say what the block was."""
        self._dirty_cells: list[tuple[int, int, int, int]] = []
        """Single-cell edits recorded since the last array in `_dirty` (the same rows, as tuples: cheap to record)."""
        self._dirty_count = 0
        self._waiting: dict[tuple[int, int], np.ndarray] = {}
        """Per lit column, its edits not relit yet: (m, 4) rows, one per cell, with the props the cell had
        when its light was last settled (what every window, height and face reads there until it is relit)."""
        self._waiting_count = 0
        self.last_resolved_cells = 0
        """Changed cells the last resolve (of any kind) relit: what a budget bounds."""
        self._unload_seeds: list[list[np.ndarray]] = [[], []]
        """Per channel: (n, 4) int64 rows (x, y, z, light) of the cells of lit columns that an unloaded
        neighbour lit through their shared face: where the removal pass starts (`_relight_window`)."""
        self._changed: set[tuple[int, int, int]] = set()
        self.spread = spread
        """The addition pass (`spread`, or `spread_reference` for the benchmark's reference)."""
        self.remove = remove
        """The removal pass (`remove`, or `remove_reference`)."""

    # --- recording changes ----------------------------------------------------------------

    def column_added(self, key: tuple[int, int]) -> None:
        """Column `key` is now in the mapping: light it (and its neighbours' borders) at the next resolve."""
        self._to_install.setdefault(key, next(self._arrivals))

    def column_removed(self, key: tuple[int, int]) -> None:
        """Column `key` is leaving the mapping (call before it goes): forget its light and, at the next
        resolve, take from its loaded neighbours the light that came from it."""
        self._to_install.pop(key, None)
        if self._waiting.pop(key, None) is not None:
            self._count_waiting()
        packed = self._light.pop(key, None)
        self._heights.pop(key, None)
        if packed is None:
            return
        cx, cz = key
        for dx, dz in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            other_key = (cx + dx, cz + dz)
            other = self._light.get(other_key)
            if other is None:
                continue
            mine = _face(packed, dx, dz)
            theirs = _face(other, -dx, -dz)
            cost = np.maximum(self._seen_face_props(other_key, -dx, -dz) >> 4, 1).astype(np.int16)
            for channel in (SKY, BLOCK):
                now = _channel(theirs, channel)
                # Only a neighbour cell lit through this face (its light is this side's less its cost) can
                # start a loss: any other cell that loses light lies on a path of such steps from one of them.
                fed = np.nonzero((now > 0) & (_channel(mine, channel).astype(np.int16) - cost == now))
                if fed[0].size:
                    along, ys = fed
                    xs, zs = _face_cells(*other_key, -dx, -dz, along)
                    self._unload_seeds[channel].append(
                        np.stack([xs, ys.astype(np.int64), zs, now[fed].astype(np.int64)], axis=1))

    def cells_changed(self, cells, old_blocks=None) -> None:
        """Blocks changed at `cells` ((x, y, z) triples: a sequence or an (n, 3) int array); cells
        outside the build height are ignored. `old_blocks`: the block id each cell held before (one
        int per cell), which lets a budgeted or local resolve leave the cell for later; without them
        the next resolve of any kind relights these cells. TypeError/ValueError for anything else,
        recording nothing."""
        array = np.asarray(cells)
        if array.size == 0:
            return
        if array.dtype.kind not in "iu":
            raise TypeError(f"cells must be integer (x, y, z) triples, got an array of {array.dtype}")
        if array.ndim != 2 or array.shape[1] != 3:
            raise ValueError(f"cells must be (x, y, z) triples (shape (n, 3)), got shape {array.shape}")
        old = _old_props(old_blocks, len(array))
        self._flush_cells()
        self._dirty.append(np.concatenate([array.astype(np.int64), old[:, None]], axis=1))
        self._dirty_count += len(array)

    def cell_changed(self, x: int, y: int, z: int, old_block: int) -> None:
        """One block changed at (x, y, z) from `old_block` (ints; the world's `set_id`): as
        `cells_changed`, without building arrays for one cell."""
        if not 0 <= old_block < len(_PROPS):
            raise ValueError(f"old_block must be a block id 0..{len(_PROPS) - 1}, got {old_block!r}")
        self._dirty_cells.append((x, y, z, int(_PROPS[old_block])))
        self._dirty_count += 1

    def _flush_cells(self) -> None:
        if self._dirty_cells:
            self._dirty.append(np.array(self._dirty_cells, dtype=np.int64).reshape(-1, 4))
            self._dirty_cells = []

    # --- reading ----------------------------------------------------------------------------

    @property
    def recorded_cells(self) -> int:
        """Changed cells recorded and not yet resolved (those of columns that are not lit included,
        until a resolve drops them: lighting such a column reads its blocks as they are)."""
        return self._dirty_count + self._waiting_count

    def waiting_sections(self) -> set[tuple[int, int, int]]:
        """The sections (cx, sy, cz) of lit columns holding changed cells not relit yet: their light,
        and up to REACH blocks around them, may still change (a tick's record lists them). Cells of
        columns that are not lit are left out: lighting such a column reads its blocks as they are."""
        rows = [*self._dirty, *self._waiting.values()]
        if self._dirty_cells:
            rows.append(np.array(self._dirty_cells, dtype=np.int64).reshape(-1, 4))
        if not rows:
            return set()
        cells = np.concatenate(rows)[:, :3]
        cells = cells[(cells[:, 1] >= 0) & (cells[:, 1] < WORLD_HEIGHT)]
        sections = np.unique(cells >> SECTION_SHIFT, axis=0)
        return {(cx, sy, cz) for cx, sy, cz in sections.tolist() if (cx, cz) in self._light}

    @property
    def pending(self) -> bool:
        """Whether a resolve has work to do."""
        return bool(self._to_install or self._dirty or self._dirty_cells or self._waiting
                    or self._unload_seeds[SKY] or self._unload_seeds[BLOCK])


    def resolve(self) -> set[tuple[int, int, int]]:
        """Bring the light up to date with every recorded change; returns the sections (cx, sy, cz)
        whose padded light changed since the last call (new columns' own sections are not listed:
        nothing has drawn them yet) and forgets them."""
        self.last_resolved_cells = 0
        if self.pending:
            self._sort_edits()
            self._apply_edits(self._take_edits(lambda rows: np.ones(len(rows), dtype=bool)))
            self._install_waiting(self._to_install)
        return self._take_changed()

    def resolve_some(self, budget: int | None, *, install: bool = False) -> set[tuple[int, int, int]]:
        """Relight at most `budget` changed cells (None: all of them; cells recorded without their old
        blocks are always all relit), the oldest columns' first, and every unload; with `install`,
        light the new columns too. The rest waits, exact as the engine sees it (the module docstring).
        Returns and forgets the sections whose padded light changed, as `resolve`."""
        self.last_resolved_cells = 0
        if isinstance(budget, bool) or not (budget is None or isinstance(budget, int) and budget >= 0):
            raise ValueError(f"budget must be a number of cells >= 0 or None, got {budget!r}")
        if self.pending:
            self._sort_edits()
            self._apply_edits(self._take_edits(_first_cells(budget)))
            if install:
                self._install_waiting(self._to_install)
        return self._take_changed()

    def resolve_near(self, x0: int, z0: int, x1: int, z1: int) -> set[tuple[int, int, int]]:
        """Make the light of every cell with x in [x0, x1) and z in [z0, z1) (any y) exact: relight
        the changed cells and light the new columns that can reach them (within REACH blocks), and
        every unload; the rest waits. Returns and forgets the changed sections, as `resolve`."""
        self.last_resolved_cells = 0
        if self.pending:
            lo_x, lo_z, hi_x, hi_z = x0 - REACH, z0 - REACH, x1 + REACH, z1 + REACH
            self._sort_edits()
            self._apply_edits(self._take_edits(
                lambda rows: (rows[:, 0] >= lo_x) & (rows[:, 0] < hi_x) & (rows[:, 2] >= lo_z) & (rows[:, 2] < hi_z)))
            self._install_waiting(self._waiting_reaching(x0, z0, x1, z1))
        return self._take_changed()

    def unlit_near(self, x0: int, z0: int, x1: int, z1: int) -> list[tuple[int, int]]:
        """The new columns `resolve_near(x0, z0, x1, z1)` would light (within REACH blocks of the box),
        in the order they arrived: what `light_column` can do beforehand, one column at a time."""
        return [key for key in self._waiting_reaching(x0, z0, x1, z1) if key in self._columns]

    def _waiting_reaching(self, x0: int, z0: int, x1: int, z1: int) -> list[tuple[int, int]]:
        """The new columns waiting for their first light that lie within REACH blocks of the cells
        x0 <= x < x1, z0 <= z < z1, in the order they arrived. The few columns around the box are looked
        up when they are fewer than those waiting (at view distance 16 hundreds wait: with 576, filtering
        them all cost 156 us a `World.prepare_light` check and 38 us a settled read, the lookup 14 and 5 us); else the waiting ones are filtered (`_columns_reaching`, the readable
        twin: `tests/world/test_settled_light_read.py` compares the two)."""
        lo_cx, lo_cz = (x0 - REACH) // CHUNK_SIZE, (z0 - REACH) // CHUNK_SIZE
        hi_cx, hi_cz = (x1 + REACH - 1) // CHUNK_SIZE, (z1 + REACH - 1) // CHUNK_SIZE  # inclusive
        waiting = self._to_install
        if (hi_cx - lo_cx + 1) * (hi_cz - lo_cz + 1) < len(waiting):
            found = [key for key in product(range(lo_cx, hi_cx + 1), range(lo_cz, hi_cz + 1)) if key in waiting]
            return sorted(found, key=waiting.__getitem__)
        reaches = _columns_reaching(x0, z0, x1, z1)
        return [key for key in waiting if reaches(key)]

    def light_column(self, key: tuple[int, int]) -> set[tuple[int, int, int]]:
        """Give new column `key` its first light now (nothing if it is not waiting for it), with every
        unload first, as `resolve_near` does before it lights columns; other edits wait. The result is
        the light `resolve_near` would give (the solution is one whatever the order), so a reader may
        spread the columns it needs over several calls (`World.prepare_light`). Returns and forgets the
        changed sections, as `resolve`."""
        self.last_resolved_cells = 0
        if key in self._to_install:
            self._sort_edits()
            self._apply_edits(self._take_edits(lambda rows: np.zeros(len(rows), dtype=bool)))
            self._install_waiting([key])
        return self._take_changed()

    def settled_light_at(self, x: int, y: int, z: int) -> tuple[int, int] | None:
        """`light_at` (x, y, z), 0 <= y < WORLD_HEIGHT, when `resolve_near(x, z, x + 1, z + 1)` now would
        change nothing and return no section (no edit or unload waits, no new column within REACH of
        the cell, no changed section to hand on) and the column is lit; None otherwise (resolve
        first). A cheap read for the many single cells a tick asks about."""
        if (self._changed or self._dirty or self._dirty_cells or self._waiting or self._unload_seeds[SKY]
                or self._unload_seeds[BLOCK]):
            return None
        if self._to_install and self._waiting_reaching(x, z, x + 1, z + 1):
            return None
        lit = self._light.get((x >> SECTION_SHIFT, z >> SECTION_SHIFT))
        if lit is None:
            return None
        self.last_resolved_cells = 0  # as the empty resolve it stands for
        value = int(lit[x & LOCAL_MASK, y, z & LOCAL_MASK])
        return value >> 4, value & MAX_LIGHT

    def _take_changed(self) -> set[tuple[int, int, int]]:
        changed, self._changed = self._changed, set()
        return changed

    def _install_waiting(self, keys) -> None:
        """Light the new columns `keys` (waiting ones, in the order given: the order they arrived)."""
        for key in list(keys):
            del self._to_install[key]
            if key in self._columns:
                self._install(key)

    def _sort_edits(self) -> None:
        """File the recorded edits under their columns (one row per cell, keeping the oldest props),
        dropping those of columns that are not lit (lighting them reads their blocks as they are)."""
        self._flush_cells()
        if not self._dirty:
            self._drop_unlit()
            return
        rows = np.concatenate(self._dirty)
        self._dirty = []
        self._dirty_count = 0
        rows = rows[(rows[:, 1] >= 0) & (rows[:, 1] < WORLD_HEIGHT)]
        rows = rows[np.unique(_cell_codes(rows), return_index=True)[1]]  # each cell once (its oldest), by cell
        for code, picked in _groups(_column_codes(rows)):
            key = _column_key(code)
            if key not in self._light:
                continue
            mine = rows[picked]
            older = self._waiting.get(key)
            if older is not None:
                mine = np.concatenate([older, mine])
                mine = mine[np.unique(_cell_codes(mine), return_index=True)[1]]
            self._waiting[key] = mine
        self._drop_unlit()

    def _drop_unlit(self) -> None:
        for key in [key for key in self._waiting if key not in self._light]:
            del self._waiting[key]
        self._count_waiting()

    def _count_waiting(self) -> None:
        self._waiting_count = sum(len(rows) for rows in self._waiting.values())

    def _take_edits(self, chosen) -> np.ndarray:
        """The waiting edits `chosen` picks (a function of a column's rows giving a bool mask; rows with
        unknown old props are always taken), removed from `_waiting`: (n, 4) rows (x, y, z, old props)."""
        taken = [np.empty((0, 4), dtype=np.int64)]
        for key in list(self._waiting):
            rows = self._waiting[key]
            mask = chosen(rows) | (rows[:, 3] < 0)
            if mask.all():
                del self._waiting[key]
            elif mask.any():
                self._waiting[key] = rows[~mask]
            taken.append(rows[mask])
        cells = np.concatenate(taken)
        self.last_resolved_cells = len(cells)
        self._count_waiting()
        return cells

    def is_lit(self, key: tuple[int, int]) -> bool:
        return key in self._light

    def light_at(self, x: int, y: int, z: int) -> tuple[int, int]:
        """(sky, block) at a cell of a lit column (call `resolve()` first); the edge values outside the build height."""
        if y >= WORLD_HEIGHT:
            return ABOVE_WORLD_LIGHT
        if y < 0:
            return BELOW_WORLD_LIGHT
        value = int(self._light[(x >> SECTION_SHIFT, z >> SECTION_SHIFT)][x & LOCAL_MASK, y, z & LOCAL_MASK])
        return value >> 4, value & MAX_LIGHT

    def column_light(self, key: tuple[int, int]) -> np.ndarray:
        """The packed light of lit column `key` (read-only view, valid until the next resolve)."""
        view = self._light[key].view()
        view.flags.writeable = False
        return view

    def padded(self, cx: int, sy: int, cz: int) -> np.ndarray:
        """Packed light of section (cx, sy, cz) with a one-block border, (18, 18, 18) uint8 [x, y, z],
        laid out as `World.padded_section`. Columns that are not lit read dark."""
        size = CHUNK_SIZE + 2
        out = np.zeros((size, size, size), dtype=np.uint8)
        y0 = sy * CHUNK_SIZE - 1
        lo, hi = max(y0, 0), min(y0 + size, WORLD_HEIGHT)
        if y0 + size > WORLD_HEIGHT:
            out[:, WORLD_HEIGHT - y0:, :] = PACKED_ABOVE
        x0, z0 = cx * CHUNK_SIZE - 1, cz * CHUNK_SIZE - 1
        for kx in (cx - 1, cx, cx + 1):
            ax, bx = max(x0, kx * CHUNK_SIZE), min(x0 + size, (kx + 1) * CHUNK_SIZE)
            for kz in (cz - 1, cz, cz + 1):
                packed = self._light.get((kx, kz))
                if packed is None:
                    continue
                az, bz = max(z0, kz * CHUNK_SIZE), min(z0 + size, (kz + 1) * CHUNK_SIZE)
                out[ax - x0:bx - x0, lo - y0:hi - y0, az - z0:bz - z0] = \
                    packed[ax - kx * CHUNK_SIZE:bx - kx * CHUNK_SIZE, lo:hi, az - kz * CHUNK_SIZE:bz - kz * CHUNK_SIZE]
        return out

    # --- installing a column ---------------------------------------------------------------

    def _install(self, key: tuple[int, int]) -> None:
        """Light column `key` from its own sources, then spread across its borders both ways (an
        addition pass: a new column only adds light to the loaded set)."""
        cx, cz = key
        ids = self._columns[key].ids()
        props = _PROPS[ids]
        opacity = props >> 4
        emission = props & MAX_LIGHT
        heights = column_heights(opacity)
        sees_sky = _Y[None, :, None] >= heights[:, None, :]
        packed = np.where(sees_sky, np.uint8(PACKED_ABOVE), np.uint8(0)) | emission
        self._light[key] = packed
        self._heights[key] = heights
        cost = np.maximum(opacity, 1)
        sky = np.where(sees_sky, np.uint8(MAX_LIGHT), np.uint8(0))
        seeds = [[], []]
        # A filter in the top layer is lit from above the world (15 there): light it now, spread it below.
        under_sky = np.nonzero((opacity[:, -1, :] > 0) & (cost[:, -1, :] < _WALL))
        if under_sky[0].size:
            lit_top = (MAX_LIGHT - cost[:, -1, :][under_sky]).astype(np.uint8)
            packed[under_sky[0], -1, under_sky[1]] |= lit_top << 4
            sky[under_sky[0], -1, under_sky[1]] = lit_top
            seeds[SKY].append(np.stack([under_sky[0] + cx * CHUNK_SIZE, np.full(lit_top.shape, WORLD_HEIGHT - 1),
                                        under_sky[1] + cz * CHUNK_SIZE], axis=1))
        # Sky light inside the column: a cell that sees the sky and borders a lower cell it can raise.
        top = int(heights.max())
        low = int(heights.min())
        if top > low or (cost[:, max(low - 1, 0):top] < _WALL).any():
            band = slice(max(low - 1, 0), min(top + 1, WORLD_HEIGHT))
            raising = _raisers(sky[:, band], cost[:, band])
            found = np.nonzero(raising)
            seeds[SKY].append(np.stack([found[0] + cx * CHUNK_SIZE, found[1] + band.start,
                                        found[2] + cz * CHUNK_SIZE], axis=1))
        if emission.any():  # most columns hold no light source; a 3-D nonzero costs ~0.13 ms even then (any: ~2 us)
            emitters = np.unravel_index(np.flatnonzero(emission), emission.shape)
            seeds[BLOCK].append(np.stack([emitters[0] + cx * CHUNK_SIZE, emitters[1], emitters[2] + cz * CHUNK_SIZE],
                                         axis=1))
        # Across each face with a lit neighbour, both ways.
        for dx, dz in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            other_key = (cx + dx, cz + dz)
            other = self._light.get(other_key)
            if other is None:
                continue
            other_cost = np.maximum(self._seen_face_props(other_key, -dx, -dz) >> 4, 1)
            mine_cost = _face(cost, dx, dz)
            mine, theirs = _face(packed, dx, dz), _face(other, -dx, -dz)
            for channel in (SKY, BLOCK):
                a, b = _channel(mine, channel).astype(np.int16), _channel(theirs, channel).astype(np.int16)
                for source, target, target_cost, (sx, sz) in ((a, b, other_cost, (cx, cz)),
                                                               (b, a, mine_cost, other_key)):
                    raises = source - target_cost > target
                    if raises.any():
                        found = np.nonzero(raises)
                        side = (dx, dz) if (sx, sz) == key else (-dx, -dz)
                        xs, zs = _face_cells(sx, sz, *side, found[0])
                        seeds[channel].append(np.stack([xs, found[1].astype(np.int64), zs], axis=1))
        for channel in (SKY, BLOCK):
            if seeds[channel]:
                cells = np.concatenate(seeds[channel])
                self._run_windows(channel, cells, None, None, mark=key)

    def _seen_face_props(self, key: tuple[int, int], dx: int, dz: int) -> np.ndarray:
        """`_face_props` of lit column `key` as the engine sees it (waiting cells with their old props)."""
        props = _face_props(self._columns[key], dx, dz)
        waiting = self._waiting.get(key)
        if waiting is not None:
            if dx:
                on = (waiting[:, 0] & LOCAL_MASK) == (CHUNK_SIZE - 1 if dx > 0 else 0)
                along = waiting[on, 2] & LOCAL_MASK
            else:
                on = (waiting[:, 2] & LOCAL_MASK) == (CHUNK_SIZE - 1 if dz > 0 else 0)
                along = waiting[on, 0] & LOCAL_MASK
            props[along, waiting[on, 1]] = waiting[on, 3].astype(np.uint8)
        return props

    # --- edits and unloads ------------------------------------------------------------------

    def _apply_edits(self, rows: np.ndarray) -> None:
        """Relight after the block changes of `rows` (x, y, z, old props: distinct cells of lit columns)
        and the recorded unloads (removal, then addition); edits still waiting read as their old blocks.
        A cell whose light props did not change (water of another level, a torch for air in the sky
        channel: only opacity counts there) changes no light, so its channel skips it. Each channel's
        windows reach only as far as its light can change (`_edit_reaches`)."""
        changed = [np.empty((0, 3), dtype=np.int64), np.empty((0, 3), dtype=np.int64)]
        emission = np.empty(0, dtype=np.int64)
        sees_sky = False
        if len(rows):
            old, new = rows[:, 3], self._props_now(rows[:, :3])
            unknown = old < 0
            relit = unknown | (old != new)
            changed[BLOCK], emission = rows[relit, :3], new[relit] & MAX_LIGHT
            shaded = rows[unknown | ((old >> 4) != (new >> 4)), :3]
            if len(shaded):
                moved, sees_sky = self._update_heights(shaded)
                changed[SKY] = np.concatenate([shaded, moved])
        unloads = []
        for channel in (SKY, BLOCK):
            seeds = self._unload_seeds[channel]
            self._unload_seeds[channel] = []
            unloads.append(self._in_lit_columns(np.concatenate(seeds)) if seeds else np.empty((0, 4), dtype=np.int64))
        reaches = self._edit_reaches(changed, emission, sees_sky)
        for channel in (SKY, BLOCK):
            reach = REACH if len(unloads[channel]) else reaches[channel]
            if reach:
                everything = np.concatenate([changed[channel], unloads[channel][:, :3]])
                self._run_windows(channel, everything, changed[channel], unloads[channel], mark=None, reach=reach)

    def _in_lit_columns(self, rows: np.ndarray) -> np.ndarray:
        """The rows (x, y, z, ...) that lie in lit columns (a neighbour unloaded since took its cells' light along)."""
        codes = _column_codes(rows)
        keep = np.zeros(len(rows), dtype=bool)
        for code, picked in _groups(codes):
            if _column_key(code) in self._light:
                keep[picked] = True
        return rows[keep]

    def _edit_reaches(self, changed: list[np.ndarray], emission: np.ndarray, sees_sky: bool) -> list[int]:
        """[blocks] Per channel, how far from its changed cells (`changed[channel]`, rows x, y, z) its
        light can change, so how far its windows must reach: the brightest value M among the light of
        those cells and their six neighbours (as the engine holds it) and their new sources (the sky's
        15 if one of them now sees the sky, `sees_sky`; `emission`, one per changed cell, for block
        light), at most REACH; 0 when M is 0: nothing can change (module docstring, "How far an edit
        reaches")."""
        cells = np.concatenate(changed)
        if not len(cells):
            return [0, 0]
        packed = self._packed_around(cells)  # (n, 7): each cell and its neighbours
        sky, block = packed[:len(changed[SKY])] >> 4, packed[len(changed[SKY]):] & MAX_LIGHT
        brightest = [int(sky.max()) if sky.size else 0, int(block.max()) if block.size else 0]
        if sees_sky:
            brightest[SKY] = MAX_LIGHT
        if emission.size:
            brightest[BLOCK] = max(brightest[BLOCK], int(emission.max()))
        return [min(value, REACH) for value in brightest]

    def _packed_around(self, cells: np.ndarray) -> np.ndarray:
        """The packed light (as the engine holds it) of `cells` (rows x, y, z) and their six neighbours,
        (n, 7) uint8: open sky (sky 15) above the build height, dark below it and in columns not lit."""
        around = (cells[:, None, :] + _SELF_AND_NEIGHBOURS).reshape(-1, 3)
        ys = around[:, 1]
        clipped = np.clip(ys, 0, WORLD_HEIGHT - 1)  # read in the height, the edge rule put on after
        out = np.zeros(len(around), dtype=np.uint8)
        lx, lz = around[:, 0] & LOCAL_MASK, around[:, 2] & LOCAL_MASK
        for code, rows in _groups(_column_codes(around)):
            packed = self._light.get(_column_key(code))
            if packed is not None:
                out[rows] = packed[lx[rows], clipped[rows], lz[rows]]
        out[ys < 0] = 0
        out[ys >= WORLD_HEIGHT] = PACKED_ABOVE
        return out.reshape(len(cells), len(_SELF_AND_NEIGHBOURS))

    def _props_now(self, cells: np.ndarray) -> np.ndarray:
        """The light props (int64) of the blocks at `cells` (rows x, y, z in lit columns) as they are now."""
        out = np.full(len(cells), _AIR_PROPS, dtype=np.int64)
        lx, ly, lz = cells[:, 0] & LOCAL_MASK, cells[:, 1] & LOCAL_MASK, cells[:, 2] & LOCAL_MASK
        for code, rows in _groups((_column_codes(cells) << SECTION_SHIFT) | (cells[:, 1] >> SECTION_SHIFT)):
            section = self._columns[_column_key(code >> SECTION_SHIFT)].sections[code & LOCAL_MASK]
            if section is not None:
                out[rows] = _PROPS[section[lx[rows], ly[rows], lz[rows]]]
        return out

    def _update_heights(self, cells: np.ndarray) -> tuple[np.ndarray, bool]:
        """Recompute the sky height of every (x, z) in `cells` from the blocks; returns the cells whose
        sky view changed (between the old and the new height), as (n, 3) rows, and whether any of
        `cells` or of those sees the sky now. A height can only move where a changed cell lies at or
        above the topmost filled cell (height - 1): under it, that cell still holds the height (and the
        changed cell sees no sky), so those (x, z) are not read."""
        found = []
        sees_sky = False
        for code, rows in _groups(_column_codes(cells)):
            key = _column_key(code)
            mine = cells[rows]
            heights = self._heights[key]
            mx, mz = mine[:, 0] & LOCAL_MASK, mine[:, 2] & LOCAL_MASK
            reaching = mine[:, 1] >= heights[mx, mz].astype(np.int64) - 1
            if not reaching.any():
                continue
            top = np.full((CHUNK_SIZE, CHUNK_SIZE), -1, dtype=np.int64)  # the highest such y per (x, z)
            np.maximum.at(top, (mx[reaching], mz[reaching]), mine[reaching, 1])
            lx, lz = np.nonzero(top >= 0)
            new = self._heights_now(key, lx, lz)
            old = heights[lx, lz].copy()
            heights[lx, lz] = new
            sees_sky = sees_sky or bool((top[lx, lz] >= new).any())  # the highest changed cell of an (x, z)
            moved = np.nonzero(old != new)[0]
            if moved.size:
                sees_sky = sees_sky or bool((new[moved] < old[moved]).any())  # cells uncovered
                lo, hi = np.minimum(old, new)[moved].astype(np.int64), np.maximum(old, new)[moved].astype(np.int64)
                lengths = hi - lo
                index = np.repeat(np.arange(moved.size), lengths)
                ys = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths) + lo[index]
                found.append(np.stack([lx[moved][index] + key[0] * CHUNK_SIZE, ys,
                                       lz[moved][index] + key[1] * CHUNK_SIZE], axis=1))
        return (np.concatenate(found) if found else np.empty((0, 3), dtype=np.int64)), sees_sky

    def _heights_now(self, key: tuple[int, int], lx: np.ndarray, lz: np.ndarray) -> np.ndarray:
        """The sky heights (int16) of the (lx, lz) of lit column `key` from its blocks as the engine sees
        them (cells still waiting with their old opacity)."""
        opacity = np.zeros((len(lx), WORLD_HEIGHT), dtype=np.uint8)
        for sy, section in enumerate(self._columns[key].sections):
            if section is not None:
                opacity[:, sy * CHUNK_SIZE:(sy + 1) * CHUNK_SIZE] = _PROPS[section[lx, :, lz]] >> 4
        waiting = self._waiting.get(key)
        if waiting is not None:  # cells still waiting keep their old opacity
            slot = np.full((CHUNK_SIZE, CHUNK_SIZE), -1, dtype=np.int64)
            slot[lx, lz] = np.arange(len(lx))
            which = slot[waiting[:, 0] & LOCAL_MASK, waiting[:, 2] & LOCAL_MASK]
            hit = which >= 0
            opacity[which[hit], waiting[hit, 1]] = (waiting[hit, 3] >> 4).astype(np.uint8)
        filled = opacity[:, ::-1] != 0
        return np.where(filled.any(axis=1), WORLD_HEIGHT - filled.argmax(axis=1), 0).astype(np.int16)

    # --- windows ------------------------------------------------------------------------------

    def _run_windows(self, channel: int, cells: np.ndarray, changed: np.ndarray | None,
                     unloads: np.ndarray | None, mark: tuple[int, int] | None, reach: int = REACH) -> None:
        """Run one channel's pass over windows holding `cells` plus `reach` blocks around them.

        Addition only (an install) when `changed` is None: `cells` are the seeds. Otherwise `changed`
        cells are cleared and relit, and `unloads` rows (x, y, z, old) start removals. Cells far apart
        get separate windows. Sections whose light changed are recorded, except those of column `mark`.
        """
        for box in _boxes(cells, reach):
            lit = self._lit_part(box)
            if lit is None:
                continue
            x0, y0, z0, x1, y1, z1 = lit
            window = _Window(self, channel, x0, max(y0, 0), z0, x1, min(y1, WORLD_HEIGHT), z1,
                             sources=changed is not None)
            light = window.light.ravel()
            before = light.copy()
            if changed is None:
                seeds = window.index(_inside(cells, box, reach))
            else:
                seeds = self._relight_window(window, light, _inside(changed, box, reach),
                                             _inside(unloads, box, reach))
            self.spread(light, window.cost.ravel(), seeds, window.offsets)
            window.store(before, mark)

    def _lit_part(self, box: tuple[int, ...]) -> tuple[int, ...] | None:
        """`box` cut down to the smallest box holding its cells in lit columns (None: none): the cells cut
        off are in columns that are not lit, walls as the window's border is, so a window over the
        smaller box gives the same light (an unload's window loses the unloaded column's half). Every
        seed lies in a lit column, so in the smaller box."""
        x0, y0, z0, x1, y1, z1 = box
        lit = [(kx, kz) for kx in range(x0 >> SECTION_SHIFT, ((x1 - 1) >> SECTION_SHIFT) + 1)
               for kz in range(z0 >> SECTION_SHIFT, ((z1 - 1) >> SECTION_SHIFT) + 1) if (kx, kz) in self._light]
        if not lit:
            return None
        kxs, kzs = [kx for kx, _ in lit], [kz for _, kz in lit]
        return (max(x0, min(kxs) * CHUNK_SIZE), y0, max(z0, min(kzs) * CHUNK_SIZE),
                min(x1, (max(kxs) + 1) * CHUNK_SIZE), y1, min(z1, (max(kzs) + 1) * CHUNK_SIZE))

    def _relight_window(self, window: _Window, light: np.ndarray, changed: np.ndarray,
                        unloads: np.ndarray) -> np.ndarray:
        """The removal pass for one window; returns the addition pass's seeds."""
        index = window.index(changed)
        old = light[index]
        light[index] = 0
        fed = window.index(unloads[:, :3])  # lit through an unloaded column's face: dark until relit
        light[fed] = 0
        start = np.concatenate([index, fed])
        start_old = np.concatenate([old, unloads[:, 3].astype(np.uint8)])
        lit = start_old > 0
        cleared, edge = self.remove(light, start[lit], start_old[lit], window.offsets)
        cleared = np.concatenate([index, fed, cleared])
        source = window.source.ravel()[cleared]
        glowing = source > light[cleared]
        light[cleared[glowing]] = source[glowing]
        around = (index[:, None] + window.offsets).ravel()
        return np.concatenate([edge, around, cleared[glowing]])


class _Window:
    """One channel's light, costs (and sources) over a box of cells plus a one-cell wall border, read
    from the lit columns (others are walls); `store` writes the light back."""

    def __init__(self, engine: LightEngine, channel: int, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int,
                 sources: bool) -> None:
        self.engine, self.channel = engine, channel
        self.origin = (x0 - 1, y0 - 1, z0 - 1)
        shape = (x1 - x0 + 2, y1 - y0 + 2, z1 - z0 + 2)
        self.offsets = np.array([shape[1] * shape[2], -shape[1] * shape[2], shape[2], -shape[2], 1, -1],
                                dtype=np.int64)
        self.shape = shape
        self.cost = np.full(shape, _WALL, dtype=np.uint8)
        self.light = np.zeros(shape, dtype=np.uint8)
        self.source = np.zeros(shape, dtype=np.uint8) if sources else None
        if y1 == WORLD_HEIGHT and channel == SKY:
            self.light[:, -1, :] = MAX_LIGHT  # above the world: open sky, never written (a wall)
        self.pieces = []
        shift = 4 if channel == SKY else 0
        for kx in range(x0 >> SECTION_SHIFT, ((x1 - 1) >> SECTION_SHIFT) + 1):
            ax, bx = max(x0, kx * CHUNK_SIZE), min(x1, (kx + 1) * CHUNK_SIZE)
            for kz in range(z0 >> SECTION_SHIFT, ((z1 - 1) >> SECTION_SHIFT) + 1):
                key = (kx, kz)
                packed = engine._light.get(key)
                if packed is None:
                    continue
                az, bz = max(z0, kz * CHUNK_SIZE), min(z1, (kz + 1) * CHUNK_SIZE)
                local = (slice(ax - kx * CHUNK_SIZE, bx - kx * CHUNK_SIZE), slice(y0, y1),
                         slice(az - kz * CHUNK_SIZE, bz - kz * CHUNK_SIZE))
                inner = (slice(ax - x0 + 1, bx - x0 + 1), slice(1, y1 - y0 + 1), slice(az - z0 + 1, bz - z0 + 1))
                props = _props_box(engine._columns[key], local)
                waiting = engine._waiting.get(key)
                if waiting is not None:
                    _as_before(props, waiting, key, local)
                self.cost[inner] = np.maximum(props >> 4, 1)
                self.light[inner] = (packed[local] >> shift) & MAX_LIGHT
                if sources:
                    if channel == SKY:
                        heights = engine._heights[key][local[0], local[2]]
                        self.source[inner] = np.where(_Y[y0:y1][None, :, None] >= heights[:, None, :],
                                                      np.uint8(MAX_LIGHT), np.uint8(0))
                    else:
                        self.source[inner] = props & MAX_LIGHT
                self.pieces.append((key, local, inner))

    def index(self, cells: np.ndarray) -> np.ndarray:
        """Flat indices of world cells (rows x, y, z) inside the window."""
        ox, oy, oz = self.origin
        return np.ravel_multi_index(((cells[:, 0] - ox), (cells[:, 1] - oy), (cells[:, 2] - oz)), self.shape)

    def store(self, before: np.ndarray, mark: tuple[int, int] | None) -> None:
        """Write the window's light back into the columns and record the sections it changed."""
        shift = 4 if self.channel == SKY else 0
        keep = np.uint8(~(MAX_LIGHT << shift) & 0xFF)
        changed = np.nonzero(self.light.ravel() != before)[0]
        for key, local, inner in self.pieces:
            packed = self.engine._light[key]
            packed[local] = (packed[local] & keep) | (self.light[inner] << shift)
        if changed.size:
            xs, ys, zs = np.unravel_index(changed, self.shape)
            ox, oy, oz = self.origin
            xs, ys, zs = xs + ox, ys + oy, zs + oz
            if mark is not None:
                outside = ((xs >> SECTION_SHIFT) != mark[0]) | ((zs >> SECTION_SHIFT) != mark[1])
                xs, ys, zs = xs[outside], ys[outside], zs[outside]
            if xs.size:
                self.engine._changed.update(sections_seeing_all(xs, ys, zs))


# --- the two passes (numpy, and the per-block Python reference) ------------------------------

def spread(light: np.ndarray, cost: np.ndarray, seeds: np.ndarray, offsets: np.ndarray) -> None:
    """The addition pass: raise `light` (flat uint8) by the rule from the cells `seeds` (flat
    indices, duplicates and dark cells allowed), brightest first, a whole light level per step."""
    seeds = distinct(seeds)
    values = light[seeds]
    lit = values > 1
    seeds, values = seeds[lit], values[lit]
    levels: list[list[np.ndarray]] = [[] for _ in range(MAX_LIGHT + 1)]
    for value in distinct(values).tolist():
        levels[value].append(seeds[values == value])
    for value in range(MAX_LIGHT, 1, -1):
        if not levels[value]:
            continue
        front = distinct(np.concatenate(levels[value]))
        front = front[light[front] == value]  # a cell raised again since it was queued moved to a higher level
        if not front.size:
            continue
        around = (front[:, None] + offsets).ravel()
        raised = value - cost[around].astype(np.int16)
        up = raised > light[around]
        around, raised = around[up], raised[up]
        if not around.size:
            continue
        light[around] = raised
        low, high = int(raised.min()), int(raised.max())
        if low == high:
            levels[low].append(around)
        else:
            for level in range(low, high + 1):
                picked = around[raised == level]
                if picked.size:
                    levels[level].append(picked)


def remove(light: np.ndarray, start: np.ndarray, old: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The removal pass: from cells `start` that held light `old` (already cleared), clear every cell
    whose light may have come through them (a neighbour darker than the cell it touches, in waves).
    Returns (the cells cleared, the lit cells bordering them: the addition pass's seeds)."""
    cleared, edge = [], []
    front, front_old = start, old.astype(np.int16)
    while front.size:
        around = (front[:, None] + offsets).ravel()
        was = np.repeat(front_old, offsets.size)
        now = light[around]
        brighter = now >= was
        edge.append(around[brighter])
        dimmer = (now > 0) & ~brighter
        around, now = around[dimmer], now[dimmer]
        around, first = np.unique(around, return_index=True)
        now = now[first]
        light[around] = 0
        cleared.append(around)
        front, front_old = around, now.astype(np.int16)
    empty = np.empty(0, dtype=np.int64)
    return (np.concatenate(cleared) if cleared else empty), (np.concatenate(edge) if edge else empty)


def spread_reference(light: np.ndarray, cost: np.ndarray, seeds: np.ndarray, offsets: np.ndarray) -> None:
    """`spread` one cell at a time in Python (Beta's queue), the benchmark's reference."""
    values = light.tolist()
    costs = cost.tolist()
    steps = offsets.tolist()
    queue = deque(int(s) for s in seeds.tolist())
    while queue:
        cell = queue.popleft()
        value = values[cell]
        if value <= 1:
            continue
        for step in steps:
            other = cell + step
            raised = value - costs[other]
            if raised > values[other]:
                values[other] = raised
                queue.append(other)
    light[:] = values


def remove_reference(light: np.ndarray, start: np.ndarray, old: np.ndarray,
                     offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`remove` one cell at a time in Python, the benchmark's reference."""
    values = light.tolist()
    steps = offsets.tolist()
    queue = deque(zip(start.tolist(), old.tolist()))
    cleared, edge = [], []
    while queue:
        cell, was = queue.popleft()
        for step in steps:
            other = cell + step
            now = values[other]
            if now >= was:
                edge.append(other)
            elif now > 0:
                values[other] = 0
                cleared.append(other)
                queue.append((other, now))
    light[:] = values
    return np.array(cleared, dtype=np.int64), np.array(edge, dtype=np.int64)


# --- helpers --------------------------------------------------------------------------------------

def _raisers(light: np.ndarray, cost: np.ndarray) -> np.ndarray:
    """Cells of a (x, y, z) block of light that can raise a neighbour inside the block."""
    value = light.astype(np.int16)
    out = np.zeros(light.shape, dtype=bool)
    for axis in range(3):
        lo = [slice(None)] * 3
        hi = [slice(None)] * 3
        lo[axis], hi[axis] = slice(None, -1), slice(1, None)
        lo, hi = tuple(lo), tuple(hi)
        out[lo] |= value[lo] - cost[hi] > value[hi]
        out[hi] |= value[hi] - cost[lo] > value[lo]
    return out


def _face(array: np.ndarray, dx: int, dz: int) -> np.ndarray:
    """The (16, 256) layer of a column array on its side (dx, dz), indexed [along, y] (along: z for
    an x side, x for a z side)."""
    if dx:
        return array[CHUNK_SIZE - 1 if dx > 0 else 0, :, :].T
    return array[:, :, CHUNK_SIZE - 1 if dz > 0 else 0]


def _face_cells(cx: int, cz: int, dx: int, dz: int, along: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """World (x, z) of the cells `along` the side (dx, dz) of column (cx, cz)."""
    along = along.astype(np.int64)
    if dx:
        x = cx * CHUNK_SIZE + (CHUNK_SIZE - 1 if dx > 0 else 0)
        return np.full(along.shape, x, dtype=np.int64), cz * CHUNK_SIZE + along
    z = cz * CHUNK_SIZE + (CHUNK_SIZE - 1 if dz > 0 else 0)
    return cx * CHUNK_SIZE + along, np.full(along.shape, z, dtype=np.int64)


def _face_props(column: Column, dx: int, dz: int) -> np.ndarray:
    """Light props of the (16, 256) layer on side (dx, dz) of `column`, indexed [along, y]."""
    out = np.full((CHUNK_SIZE, WORLD_HEIGHT), _AIR_PROPS, dtype=np.uint8)
    for sy, section in enumerate(column.sections):
        if section is not None:
            out[:, sy * CHUNK_SIZE:(sy + 1) * CHUNK_SIZE] = _PROPS[_face(section, dx, dz)]
    return out


def _props_box(column: Column, local: tuple[slice, slice, slice]) -> np.ndarray:
    """Light props of a box of `column` (column-local slices [x, y, z])."""
    xs, ys, zs = local
    out = np.full((xs.stop - xs.start, ys.stop - ys.start, zs.stop - zs.start), _AIR_PROPS, dtype=np.uint8)
    for sy in range(ys.start >> SECTION_SHIFT, ((ys.stop - 1) >> SECTION_SHIFT) + 1):
        section = column.sections[sy]
        if section is None:
            continue
        lo, hi = max(ys.start, sy * CHUNK_SIZE), min(ys.stop, (sy + 1) * CHUNK_SIZE)
        out[:, lo - ys.start:hi - ys.start] = _PROPS[section[xs, lo - sy * CHUNK_SIZE:hi - sy * CHUNK_SIZE, zs]]
    return out


def _as_before(props: np.ndarray, waiting: np.ndarray, key: tuple[int, int],
               local: tuple[slice, slice, slice]) -> None:
    """Put the old props of the `waiting` rows (x, y, z, props) of column `key` that lie in its box
    `local` into `props` (that box's light props)."""
    xs, ys, zs = local
    lx, lz = waiting[:, 0] - key[0] * CHUNK_SIZE, waiting[:, 2] - key[1] * CHUNK_SIZE
    inside = ((lx >= xs.start) & (lx < xs.stop) & (waiting[:, 1] >= ys.start) & (waiting[:, 1] < ys.stop)
              & (lz >= zs.start) & (lz < zs.stop))
    if inside.any():
        props[lx[inside] - xs.start, waiting[inside, 1] - ys.start, lz[inside] - zs.start] = \
            waiting[inside, 3].astype(np.uint8)


def _old_props(old_blocks, count: int) -> np.ndarray:
    """The light props (int64) of `old_blocks` (block ids, one per changed cell), or -1 each for None."""
    if old_blocks is None:
        return np.full(count, -1, dtype=np.int64)
    old = np.asarray(old_blocks)
    if old.dtype.kind not in "iu":
        raise TypeError(f"old_blocks must be integer block ids, got an array of {old.dtype}")
    if old.shape != (count,):
        raise ValueError(f"old_blocks must hold one block id per cell ({count}), got shape {old.shape}")
    if count and (int(old.min()) < 0 or int(old.max()) >= len(_PROPS)):
        raise ValueError(f"old_blocks must be block ids 0..{len(_PROPS) - 1}")
    return _PROPS[old].astype(np.int64)


def _first_cells(budget: int | None):
    """A chooser for `_take_edits`: the first `budget` rows over the columns in order (all for None)."""
    left = [budget]

    def chosen(rows: np.ndarray) -> np.ndarray:
        mask = np.zeros(len(rows), dtype=bool)
        if left[0] is None:
            mask[:] = True
        else:
            mask[:left[0]] = True
            left[0] -= int(mask.sum())
        return mask
    return chosen


_CODE_OFFSET = 1 << 25
"""Added to x and z before packing them into an int64 code (the world border is 30,000,000 < 2**25)."""


def _cell_codes(cells: np.ndarray) -> np.ndarray:
    """One int64 per (x, y, z) row, equal only for equal cells (for fast de-duplication)."""
    return ((cells[:, 0] + _CODE_OFFSET) << 34) | ((cells[:, 2] + _CODE_OFFSET) << 8) | cells[:, 1]


def _column_codes(cells: np.ndarray) -> np.ndarray:
    """One int64 per row's column (cx, cz)."""
    return (((cells[:, 0] >> SECTION_SHIFT) + _CODE_OFFSET) << 32) | ((cells[:, 2] >> SECTION_SHIFT) + _CODE_OFFSET)


def _groups(codes: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """The distinct values of `codes` (a 1-D int array), ascending, each with the indices of its rows in
    their order: one sort for every group, where a mask per group costs a pass each."""
    order = np.argsort(codes, kind="stable")
    ordered = codes[order]
    bounds = [0, *(np.flatnonzero(ordered[1:] != ordered[:-1]) + 1).tolist(), len(codes)]
    firsts = ordered[bounds[:-1]].tolist() if len(codes) else []
    return [(code, order[start:end]) for code, start, end in zip(firsts, bounds, bounds[1:])]


def _column_key(code: int) -> tuple[int, int]:
    return (code >> 32) - _CODE_OFFSET, (code & 0xFFFFFFFF) - _CODE_OFFSET


def _channel(packed: np.ndarray, channel: int) -> np.ndarray:
    return packed >> 4 if channel == SKY else packed & MAX_LIGHT


def _inside(cells: np.ndarray, box: tuple[int, ...], reach: int = REACH) -> np.ndarray:
    x0, y0, z0, x1, y1, z1 = box
    keep = ((cells[:, 0] >= x0 + reach) & (cells[:, 0] < x1 - reach) & (cells[:, 2] >= z0 + reach)
            & (cells[:, 2] < z1 - reach) & (cells[:, 1] >= y0 + reach) & (cells[:, 1] < y1 - reach))
    return cells[keep]


def _boxes(cells: np.ndarray, reach: int = REACH) -> list[tuple[int, int, int, int, int, int]]:
    """Boxes [x0, x1) x [y0, y1) x [z0, z1) covering `cells` plus `reach` around them, one per group of
    cells whose boxes (with a wall cell between) would touch; cells in a box lie `reach` inside it."""
    if not len(cells):
        return []
    groups = {}
    keys = (cells[:, 0] >> SECTION_SHIFT) * (1 << 32) + (cells[:, 2] >> SECTION_SHIFT)
    for key in distinct(keys).tolist():
        part = cells[keys == key]
        lo, hi = part.min(axis=0), part.max(axis=0) + 1
        groups[key] = [int(lo[0]) - reach, int(lo[1]) - reach, int(lo[2]) - reach,
                       int(hi[0]) + reach, int(hi[1]) + reach, int(hi[2]) + reach]
    boxes = list(groups.values())
    merged = True
    while merged:
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                if all(a[k] <= b[k + 3] + 1 and b[k] <= a[k + 3] + 1 for k in range(3)):
                    boxes[i] = [min(a[k], b[k]) for k in range(3)] + [max(a[k + 3], b[k + 3]) for k in range(3)]
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return [tuple(b) for b in boxes]
