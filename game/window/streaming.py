"""World streaming: which columns are loaded and drawn around the player, and the per-frame work to get there.

Owns: the columns wanted around the player (within the view distance, nearest first), asking the
world for them in the background (`World.request` / `poll`, a few at a time so the nearest stay
first as the player moves), handing the non-empty sections of a column to the renderer once the
column and its 8 neighbours are loaded (so meshing never generates a column on the main thread),
re-meshing the sections each tick's record names (`note_changes` with the `TickChanges` that
`Session.tick()` returns: the streamer never asks the world what changed), dropping columns beyond
the view distance + UNLOAD_MARGIN from the renderer and the world (saving first when one of them
holds unsaved edits, as the world says: `World.is_edited`; the world forgets them a few a frame,
UNLOAD_COLUMNS_PER_FRAME, since taking away the light they gave their neighbours costs), and spending at most
a per-frame time budget (`Pace.budget_s`, PLAYING) on the main-thread part of all this, the first
light of new columns included: a column's sections (new, or re-meshed) are handed over only once
the light they read lights no new column (`World.prepare_light`, LIGHT_COLUMNS_PER_FRAME a frame), so
they may appear a frame or a few later, with exactly the light they would have had.
`FixedSections` does the same job for a world of a few sections drawn at once (the lab's arena).
Does not own: generation (worker processes, `game.world.generation`), meshing (the renderer's
thread pool) or uploading one mesh (`game.window.render.chunk_renderer`), nor when to save otherwise.

Physics never depends on streaming: `World.collision_boxes` generates any column it touches, so
what a body collides with is the same whether or not a column was streamed in yet. A saved column
whose bytes are damaged streams in as generated from the seed (the world reports it through
`World.take_problems`), so damage never stops streaming.

Distances are between column indices, Euclidean: a column is within distance d of the centre
column when dx^2 + dz^2 <= d^2, so the drawn area is round, like the fog that hides its edge.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..world.coords import CHUNK_SIZE, SECTIONS_PER_COLUMN

if TYPE_CHECKING:
    from .render.chunk_renderer import ChunkRenderer

Column = tuple[int, int]

LIGHT_COLUMNS_PER_FRAME = 1
"""[columns] New columns given their first light (`World.prepare_light`) per frame, before their light
is read for a mesh: one costs ~2-4 ms of numpy (up to ~7 ms on a busy 2-core machine, rarely 20), so
a frame spends at most one column's on it, where lighting a shown column's whole neighbourhood at
its first mesh took 10-27 ms (88 ms under load) in one frame. Not more while the Pace budget lasts:
filling the budget with light every frame raised the median frame; one a frame lights ~20 columns a
second, more than sprinting uncovers (~7). PLAYING's `Pace.light_columns`."""

UNLOAD_COLUMNS_PER_FRAME = 1
"""[columns] Far columns the world forgets (`World.unload_columns`) per frame, at least: forgetting one
is cheap, what costs is taking away the light it gave its neighbours (`LightEngine.column_removed`,
relit at the next light read or tick), and forgetting the whole row at the column border the player
crossed (23 columns at view distance 8) put 4.5-17 ms of light in one frame (docs/PERFORMANCE.md, "Far
columns are forgotten one a frame"). One a frame forgets such a row in 23 frames, under half a second.
PLAYING's `Pace.unload_columns`."""
UNLOAD_SPREAD_FRAMES = 30
"""[frames] However many columns wait to be forgotten, a frame forgets enough of them that the queue a
border crossing leaves is gone within this many frames (`_world_unload_rate`): at large view
distances a border leaves hundreds (141 at 32), and the world's memory must keep up with a flight."""


@dataclass(frozen=True, slots=True)
class Pace:
    """How much streaming work one frame may do."""

    budget_s: float
    """[s] Main-thread time for uploads, copies for the mesher and unloads. At least one unit of
    work is done per frame however small this is, so streaming always progresses."""
    meshes_in_flight: int
    """Sections handed to the renderer and not yet uploaded: a short queue keeps an edit's
    re-mesh from waiting long behind others, and the nearest columns first. A column is handed
    over whole while fewer are waiting, so the queue may exceed this by one column's sections."""
    requests_in_flight: int
    """Columns asked of the world and not yet ready: a short queue keeps requests nearest first
    as the player moves (a long one would finish far columns first)."""
    columns_per_poll: int
    """Ready columns taken from the world per frame: ~0.05 ms each to install (a dict insert, or
    decoding a column read from the file), then ~2 ms each to light, with the light it spreads into
    its neighbours (`World`'s light engine, on the next light read)."""
    light_columns: int = LIGHT_COLUMNS_PER_FRAME
    """New columns a frame may give their first light (`World.prepare_light`), budget or not."""
    unload_columns: int = UNLOAD_COLUMNS_PER_FRAME
    """Far columns a frame forgets in the world at least (`WorldStreamer._unload_from_world`), budget or not."""


PLAYING = Pace(budget_s=0.003, meshes_in_flight=12, requests_in_flight=6, columns_per_poll=2)
"""While playing. One upload costs 0.2-0.5 ms of Python (and about as much again when it is first
drawn) and one padded copy ~0.08 ms, so 3 ms (~6 uploads) keeps well ahead of sprinting, which
needs ~20 meshes a second (a new row of ~19 columns every 3 s), and leaves the frame to drawing;
12 meshes wait at most ~5 ms of meshing; 6 requests keep one generation worker busy; 2 columns a
frame (~4 ms of light) is still ~40 a second, six times what sprinting needs."""
LOADING = Pace(budget_s=0.1, meshes_in_flight=64, requests_in_flight=48, columns_per_poll=64, light_columns=16)
"""While the loading screen shows: nothing to keep smooth but its bar, so the queues are long
enough that the generation workers and the mesher never wait for the next frame (a loading
frame draws the scene behind the screen too, ~50 ms at view distance 8); 16 columns' first light
(~50 ms) a frame keeps up with them."""
UNLOAD_MARGIN = 2
"""[columns] Columns stay drawn this far beyond the view distance, so walking back and forth
across one border does not reload them (and stay loaded in the world one column farther, so a
drawn column's eight neighbours are always there to re-mesh it with)."""


def nearest_first(offsets) -> list[tuple[int, int]]:
    """Column offsets (dx, dz) sorted by distance from (0, 0), ties in a fixed order."""
    return sorted(offsets, key=lambda o: (o[0] * o[0] + o[1] * o[1], o))


@functools.lru_cache(maxsize=8)
def within(radius: int) -> tuple[tuple[int, int], ...]:
    """Every offset (dx, dz) with dx^2 + dz^2 <= radius^2, nearest first.

    Cached: the offsets do not depend on the centre, and sorting them at every column border
    cost 7 ms at radius 32 (measured), a visible hitch."""
    return tuple(nearest_first((dx, dz) for dx in range(-radius, radius + 1) for dz in range(-radius, radius + 1)
                               if dx * dx + dz * dz <= radius * radius))


def with_neighbours(offsets) -> tuple[tuple[int, int], ...]:
    """`offsets` and the 8 neighbours of each (what meshing them reads), nearest first."""
    return tuple(nearest_first({(dx + x, dz + z) for dx, dz in offsets for x in (-1, 0, 1) for z in (-1, 0, 1)}))


@functools.lru_cache(maxsize=8)
def load_offsets(radius: int) -> tuple[tuple[int, int], ...]:
    """`with_neighbours(within(radius))`, cached by radius (as `within`)."""
    return with_neighbours(within(radius))


def distance_squared(a: Column, b: Column) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


@dataclass(frozen=True, slots=True)
class StreamingStats:
    wanted_columns: int
    """Columns wanted around the centre: those drawn and their neighbours."""
    loaded_columns: int
    """Columns the streamer knows are loaded (ready in the world)."""
    shown_columns: int
    """Columns whose sections are handed to the renderer."""
    queued_columns: int
    """Columns asked of the world and not ready yet, plus wanted columns not asked yet."""
    meshes_in_flight: int
    """Sections being meshed or waiting for upload."""
    shown_sections: int
    """Sections the renderer draws (or is about to)."""


def redraw(renderer: ChunkRenderer, sections, shown: frozenset | None = None) -> None:
    """Mesh edited sections again: rebuild those shown, show the others (a block placed in an
    empty section). `shown`: the renderer's `shown_sections`, where the caller has them already."""
    sections = list(sections)
    if not sections:
        return
    shown = renderer.shown_sections if shown is None else shown
    renderer.rebuild(key for key in sections if key in shown)
    renderer.show(key for key in sections if key not in shown)


class WorldStreamer:
    """Keeps the columns around a centre column loaded and drawn; call `update` once per frame."""

    def __init__(self, world, renderer: ChunkRenderer, view_distance: int, save: Callable[[], None]) -> None:
        """`save()` writes the world (with the player) to disk; called before unloading columns
        when one of them holds unsaved edits (`World.is_edited`).

        The renderer's own per-frame upload should be off (its `update` not called by Ursina):
        `update` uploads instead, under the time budget."""
        self.world = world
        self.renderer = renderer
        self._save = save
        self._view_distance = self._checked_distance(view_distance)
        self._center: Column | None = None
        self._load_order: list[Column] = []
        """The drawn columns and their neighbours, nearest first."""
        self._show_order: list[Column] = []
        """Columns within the view distance, nearest first."""
        self._loaded_prefix = 0
        self._shown_prefix = 0
        """How many of the first columns of `_load_order` are loaded (of `_show_order`: shown): a frame
        looks only past them, so once the area is streamed a frame costs no walk over it."""
        self._requested: set[Column] = set()
        self._loaded: set[Column] = set()
        self._shown: set[Column] = set()
        self._changed: set[tuple[int, int, int]] = set()
        """Sections named by the records noted since the last `update` (re-meshed there)."""
        self._to_unload: list[Column] = []
        self._world_unloads: list[Column] = []
        """Columns the world still holds beyond the kept radius, the farthest last (`_unload_from_world`)."""
        self._world_unload_rate = UNLOAD_COLUMNS_PER_FRAME
        self._light_left = LIGHT_COLUMNS_PER_FRAME
        """New columns this frame may still light (`_light_step`)."""
        self._radius_cap: int | None = None
        self._wanted_set: set[Column] = set()

    # --- settings -------------------------------------------------------------------------------

    @staticmethod
    def _checked_distance(view_distance: int) -> int:
        if isinstance(view_distance, bool) or not isinstance(view_distance, int) or view_distance < 1:
            raise ValueError(f"view distance must be a whole number of columns >= 1, got {view_distance!r}")
        return view_distance

    @property
    def view_distance(self) -> int:
        """[columns] Columns this far from the centre column are drawn."""
        return self._view_distance

    @view_distance.setter
    def view_distance(self, value: int) -> None:
        self._view_distance = self._checked_distance(value)
        self._center = None  # recompute the rings on the next update

    def limit_radius(self, radius: int | None) -> None:
        """Stream only within `radius` columns (the loading screen's spawn area); None lifts the limit."""
        self._radius_cap = radius
        self._center = None

    # --- state ----------------------------------------------------------------------------------

    def stats(self) -> StreamingStats:
        unasked = sum(1 for c in self._load_order[self._loaded_columns_prefix():]
                      if c not in self._loaded and c not in self._requested)
        return StreamingStats(len(self._load_order), len(self._loaded), len(self._shown),
                              len(self._requested) + unasked, self.renderer.pending, len(self.renderer.shown_sections))

    def progress(self) -> float:
        """0..1: how much of the wanted area is loaded and handed to the renderer (1 only when all
        of it is drawn and nothing is being meshed)."""
        total = len(self._load_order) + len(self._show_order)
        if total == 0:
            return 0.0
        # Past the prefixes only: settling calls this between every two waits, where a walk over every
        # wanted column (3,473 at view distance 32) would hold the main thread and the GIL the mesher wants.
        loaded, shown = self._loaded_columns_prefix(), self._shown_columns_prefix()
        done = (loaded + sum(1 for c in self._load_order[loaded:] if c in self._loaded)
                + shown + sum(1 for c in self._show_order[shown:] if c in self._shown))
        if done == total and self.renderer.pending:
            return (total - 0.5) / total
        return done / total

    @property
    def settled(self) -> bool:
        """Everything wanted around the centre is drawn, no mesh is pending and no far column waits to be forgotten."""
        return self._center is not None and self.progress() == 1.0 and not self._world_unloads

    def note_changes(self, changes) -> None:
        """A tick's record (`game.rules.tick_changes.TickChanges`, or the world's part of one): the drawn
        sections it names are re-meshed at the next `update` (records of several ticks run in one
        frame add up)."""
        self._changed.update(changes.sections)

    # --- the frame ------------------------------------------------------------------------------

    def update(self, center: Column, pace: Pace = PLAYING) -> None:
        """One frame of streaming around column `center`, spending about `pace.budget_s` on the main thread."""
        deadline = time.perf_counter() + pace.budget_s
        self._light_left = pace.light_columns
        if center != self._center:
            self._recenter(center)
        lit = self._rebuild_edited(deadline)
        self._request_nearest(pace.requests_in_flight)
        for cx, cz in self.world.poll(pace.columns_per_poll):
            if (cx, cz) in self._wanted_set:
                self._requested.discard((cx, cz))
                self._loaded.add((cx, cz))
        worked = False
        # Unloads first: they are cheap (~50 us a column) and free memory, and when they came last a
        # player outrunning the streaming left no budget for them, so the shown columns (and the
        # process) grew without bound (3 GB after 4 minutes of flight at view distance 32).
        while self._to_unload and (not worked or time.perf_counter() < deadline):
            self._unload(self._to_unload.pop())
            worked = True
        self._unload_from_world(max(pace.unload_columns, self._world_unload_rate))
        worked = worked or lit  # a step of light or re-meshes asked for were this frame's unit of work
        while self.renderer.upload_finished(1):
            worked = True
            if time.perf_counter() >= deadline:
                return
        while self.renderer.pending < pace.meshes_in_flight and (not worked or time.perf_counter() < deadline):
            if not self._show_next():
                break
            worked = True

    def settle(self, center: Column, timeout_s: float, *, raise_on_timeout: bool = True) -> bool:
        """Stream around `center` until `settled` (tests and the end of scripted runs); waits for workers.
        Past `timeout_s` raises TimeoutError naming what is left, or with `raise_on_timeout` false
        returns False (what is drawn stays drawn); True once settled."""
        return _settle(self, center, timeout_s, raise_on_timeout, "streaming did not settle")

    # --- steps ------------------------------------------------------------------------------------

    def _recenter(self, center: Column) -> None:
        self._center = center
        radius = self._view_distance if self._radius_cap is None else min(self._view_distance, self._radius_cap)
        cx, cz = center
        shown = within(radius)
        self._show_order = [(cx + dx, cz + dz) for dx, dz in shown]
        self._load_order = [(cx + dx, cz + dz) for dx, dz in load_offsets(radius)]
        self._wanted_set = set(self._load_order)
        self._loaded_prefix = self._shown_prefix = 0
        for key in [k for k in self._requested if k not in self._wanted_set]:
            self.world.cancel(*key)
            self._requested.discard(key)
        keep = (self._view_distance + UNLOAD_MARGIN) ** 2
        far_shown = [c for c in self._shown if distance_squared(c, center) > keep]
        self._to_unload = sorted(far_shown, key=lambda c: distance_squared(c, center))  # pop() takes the farthest
        far_loaded = {c for c in self._loaded if distance_squared(c, center) > keep}
        if far_loaded:
            if any(self.world.is_edited(*key) for key in far_loaded):
                self._save()  # so the edited columns can go too (the world keeps unsaved ones loaded)
            self._loaded -= far_loaded
        if far_loaded or self._world_unloads:
            # One column more than the shown ones: a drawn column's eight neighbours stay loaded, so
            # re-meshing it (an edit, or light spreading from a newly installed column) never makes a
            # column on the main thread (~2.3 ms each, and its light: the worst frames' cause). They
            # go a few a frame (`_unload_from_world`), as `World.unload_columns_outside` would take them.
            far = self.world.columns_far_from([(cx, cz)], self._view_distance + UNLOAD_MARGIN + 1)
            self._world_unloads = sorted(far, key=lambda c: distance_squared(c, center))  # pop(): the farthest
            self._world_unload_rate = -(-len(far) // UNLOAD_SPREAD_FRAMES)

    def _loaded_columns_prefix(self) -> int:
        """How many of the first columns of `_load_order` are loaded (`_loaded_prefix`, brought up to date)."""
        order = self._load_order
        while self._loaded_prefix < len(order) and order[self._loaded_prefix] in self._loaded:
            self._loaded_prefix += 1
        return self._loaded_prefix

    def _shown_columns_prefix(self) -> int:
        """How many of the first columns of `_show_order` are shown (`_shown_prefix`, brought up to date)."""
        order = self._show_order
        while self._shown_prefix < len(order) and order[self._shown_prefix] in self._shown:
            self._shown_prefix += 1
        return self._shown_prefix

    def _request_nearest(self, limit: int) -> None:
        order = self._load_order
        for index in range(self._loaded_columns_prefix(), len(order)):
            key = order[index]
            if len(self._requested) >= limit:
                return
            if key in self._loaded or key in self._requested:
                continue
            if self.world.is_loaded(*key):
                self._loaded.add(key)
            else:
                self.world.request(*key)
                self._requested.add(key)

    def _show_next(self) -> bool:
        """Hand the nearest drawable column's non-empty sections to the renderer; False if none is ready."""
        loaded = self._loaded
        order = self._show_order
        for index in range(self._shown_columns_prefix(), len(order)):
            key = order[index]
            if key in self._shown:
                continue
            cx, cz = key
            if all((cx + dx, cz + dz) in loaded for dx in (-1, 0, 1) for dz in (-1, 0, 1)):
                if not self._light_ready(cx, cz, 0):
                    if not self._light_left:
                        return False  # no more first light this frame: it waits, the nearest first
                    self._light_step(cx, cz)
                    return True  # a step of its light: shown by a later call, in this frame while its light lasts
                self._shown.add(key)
                self.renderer.show((cx, sy, cz) for sy in self._filled_sections(key))
                return True
        return False

    def _filled_sections(self, key: Column) -> list[int]:
        """Section indices of the column holding any block (all-air sections have no faces)."""
        ids = self.world.column(*key)
        filled = ids.reshape(CHUNK_SIZE, SECTIONS_PER_COLUMN, CHUNK_SIZE, CHUNK_SIZE).any(axis=(0, 2, 3))
        return [sy for sy in range(SECTIONS_PER_COLUMN) if filled[sy]]

    def _rebuild_edited(self, deadline: float) -> bool:
        """Re-mesh the noted sections of shown columns whose light is ready (`World.prepare_light`),
        the nearest columns first, until the frame's `deadline` (the first ready column's whatever the
        time: an edit in the player's own column never waits behind others): a tick's record can name dozens
        (the first one after loading names every section light changed in while loading: 66 at view
        distance 8, 12-19 ms of re-mesh requests in one frame), and the rest wait for the next frames.
        The others wait for their columns' light, LIGHT_COLUMNS_PER_FRAME a frame. Returns whether it
        lit a column or asked for a re-mesh (this frame's unit of work)."""
        if not self._changed:
            return False
        columns: dict[Column, list[tuple[int, int, int]]] = {}
        for key in self._changed:
            if (key[0], key[2]) in self._shown:
                columns.setdefault((key[0], key[2]), []).append(key)
        self._changed = set()
        center, shown = self._center, None
        stepped = remeshed = False
        for (cx, cz) in sorted(columns, key=lambda column: distance_squared(column, center)):
            sections = columns[(cx, cz)]
            if remeshed and time.perf_counter() >= deadline:
                self._changed.update(sections)
                continue
            while not self._light_ready(cx, cz, 0):
                if not self._light_left:
                    self._changed.update(sections)
                    break
                self._light_step(cx, cz)
                stepped = True
            else:
                if shown is None:
                    shown = self.renderer.shown_sections
                redraw(self.renderer, sections, shown)
                remeshed = True
        return stepped or remeshed

    def _light_step(self, cx: int, cz: int) -> None:
        """Light new columns that column (cx, cz)'s meshes wait for, one at a time, until none is left
        or the frame's (`_light_left`) are spent: what one column leaves of the frame's light is the
        next one's, so a loading frame shows as many columns as its light reaches."""
        while self._light_left:
            self._light_left -= 1
            if self._light_ready(cx, cz, 1):
                return

    def _light_ready(self, cx: int, cz: int, columns: int) -> bool:
        """`World.prepare_light`: up to `columns` steps of the first light column (cx, cz)'s meshes
        would give new columns; whether none is left."""
        return self.world.prepare_light(cx, cz, columns)

    def _unload_from_world(self, columns: int) -> None:
        """Forget up to `columns` of the far columns the world still holds, the farthest first: their light
        is taken from their neighbours at the next light read or tick, a few columns' worth a frame. The
        world keeps one edited since the save at the border crossing (a later crossing finds it again)."""
        if self._world_unloads:
            batch = [self._world_unloads.pop() for _ in range(min(columns, len(self._world_unloads)))]
            self.world.unload_columns(batch)

    def _unload(self, key: Column) -> None:
        if distance_squared(key, self._center) <= (self._view_distance + UNLOAD_MARGIN) ** 2:
            return  # the player came back before it was dropped
        self._shown.discard(key)
        cx, cz = key
        # Not filtered by `renderer.shown_sections`: that copies every shown key (~1 ms at view distance 32).
        self.renderer.unload((cx, sy, cz) for sy in range(SECTIONS_PER_COLUMN))


class FixedSections:
    """Draws a fixed set of sections at once (the lab's arena), with the streamer's interface:
    the sections are handed to the renderer on the first `update`, edits are re-meshed, and
    uploads stay under the frame's budget. Nothing is loaded, unloaded or saved."""

    def __init__(self, world, renderer: ChunkRenderer, sections) -> None:
        """`world`: the world drawn (the renderer reads its padded sections); what changed comes
        from the ticks' records (`note_changes`)."""
        self.world = world
        self.renderer = renderer
        self.sections = tuple(sections)
        self.view_distance = 1
        """[columns] Unused: every section is drawn, whatever the distance."""
        self._columns = len({(cx, cz) for cx, _, cz in self.sections})
        self._handed_over = False
        self._changed: set[tuple[int, int, int]] = set()

    def limit_radius(self, radius: int | None) -> None:
        """Every section is drawn at once: there is no radius to limit."""

    def stats(self) -> StreamingStats:
        columns = self._columns
        return StreamingStats(columns, columns, columns if self._handed_over else 0, 0, self.renderer.pending,
                              len(self.renderer.shown_sections))

    def progress(self) -> float:
        """0 before the sections are handed over, then the share of them drawn."""
        if not self._handed_over:
            return 0.0
        return 1.0 - min(self.renderer.pending / max(len(self.sections), 1), 1.0)

    @property
    def settled(self) -> bool:
        return self._handed_over and self.renderer.pending == 0

    def note_changes(self, changes) -> None:
        """A tick's record: the sections it names are re-meshed at the next `update`."""
        self._changed.update(changes.sections)

    def update(self, center: Column, pace: Pace = PLAYING) -> None:
        deadline = time.perf_counter() + pace.budget_s
        if not self._handed_over:
            self.renderer.show(self.sections)
            self._handed_over = True
        changed, self._changed = self._changed, set()
        redraw(self.renderer, changed)
        while self.renderer.upload_finished(1) and time.perf_counter() < deadline:
            pass

    def settle(self, center: Column, timeout_s: float, *, raise_on_timeout: bool = True) -> bool:
        """Upload until every section is drawn (waits for the mesher); past `timeout_s` as
        `WorldStreamer.settle`."""
        return _settle(self, center, timeout_s, raise_on_timeout, "the sections were not drawn")


def _settle(streamer: WorldStreamer | FixedSections, center: Column, timeout_s: float, raise_on_timeout: bool,
            failure: str) -> bool:
    """`streamer.update` at the loading pace with the whole `timeout_s` as its budget until `settled`:
    True; past `timeout_s` False, or with `raise_on_timeout` a TimeoutError starting with `failure`."""
    deadline = time.perf_counter() + timeout_s
    pace = replace(LOADING, budget_s=timeout_s)
    while True:
        streamer.update(center, pace)
        if streamer.settled:
            return True
        if time.perf_counter() > deadline:
            if not raise_on_timeout:
                return False
            raise TimeoutError(f"{failure} within {timeout_s:g} s: {streamer.stats()}")
        time.sleep(0.001)
