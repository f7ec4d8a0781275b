"""Which sections can be seen from the eye's section: cave culling on section face links.

Owns: a section's face links (which of its six faces the eye could see between through the
cells that do not block sight: `face_links`), the sweep over a grid of sections that finds
those that the eye's section could see (`visible_sections`), each with a readable twin that the
tests hold the fast one to (`face_links_by_cells`, `visible_sections_by_order`), and the sections
of a set that the eye's section cannot see (`hidden_sections`, and `SectionLinks`, the same kept
packed for a renderer that asks again whenever the eye moves on). numpy only.
Does not own: which sections exist or are drawn, or hiding their meshes (`game.window.render.chunk_renderer`).

A line of sight from the eye to a section passes through a chain of neighbouring sections. It
can leave a section by face g after entering it by face f only if open cells (cells whose block
does not hide its neighbours' faces: not an opaque full cube) join face f to face g inside it.
The sweep walks outward from the eye's section and never back along an axis (every step moves
farther from the eye's section along its axis), so a chain of sections bends like a line of
sight can, around corners but not back on itself. A section is seen when a chain reaches it,
through any face: its near face is drawn even where that face is solid, and nothing goes on
through a solid face. What is not known to block sight (a section not meshed yet, one with no
blocks, one past the grid) is open.

The test is the one Minecraft has used since 1.8 to skip sections hidden in the ground: it
never hides a section that a line of sight reaches, and it keeps some that none does (two open
faces are linked even when the cells between them wind about, and a section reached by several
chains is left by any face open from any face it was entered by).

Faces are numbered in physics coordinates: 0 -x, 1 +x, 2 -y, 3 +y, 4 -z, 5 +z; face f's
opposite is f ^ 1. Links are kept as six bytes per section: byte f has bit g set when face g is
reached from face f (bit f when face f has any open cell).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from functools import lru_cache
from itertools import chain

import numpy as np

from .coords import CHUNK_SIZE
from .meshing import HIDES_FACES

FACE_COUNT = 6
FACE_STEPS = ((-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1))
"""The step into the neighbouring section through each face, in face order."""
ALL_FACES = (1 << FACE_COUNT) - 1
"""A face-link byte with every face's bit set."""
OPEN_LINKS = np.full(FACE_COUNT, ALL_FACES, dtype=np.uint8)
"""The links of a section with nothing in it: every face reaches every face."""
CLOSED_LINKS = np.zeros(FACE_COUNT, dtype=np.uint8)
"""The links of a section of opaque full cubes: no face reaches any."""
BLOCKS_SIGHT = HIDES_FACES
"""Block ids that stop sight: the blocks that hide their neighbours' faces in the mesh."""
OPEN_LINKS.flags.writeable = CLOSED_LINKS.flags.writeable = False

_SIZE = CHUNK_SIZE
_CELLS = _SIZE ** 3
_FACE_CELLS = tuple(
    tuple(slice(None) if axis != face // 2 else (0 if face % 2 == 0 else _SIZE - 1) for axis in range(3))
    for face in range(FACE_COUNT))
"""Index of each face's 16 x 16 cells in a [x, y, z] section."""
_NEIGHBOUR_PAIRS = tuple(
    (tuple(slice(0, _SIZE - 1) if a == axis else slice(None) for a in range(3)),
     tuple(slice(1, _SIZE) if a == axis else slice(None) for a in range(3)))
    for axis in range(3))
"""For each axis, the index of every cell that has a next cell along it, and of those next cells."""
_BITS = (1 << np.arange(FACE_COUNT)).astype(np.uint8)


def _checked_section(section: object) -> np.ndarray:
    if not isinstance(section, np.ndarray) or section.dtype.kind not in "iu":
        raise TypeError("a section must be a numpy array of block ids")
    if section.shape != (_SIZE,) * 3:
        raise ValueError(f"a section must have shape {(_SIZE,) * 3} (indexed [x, y, z]), got {section.shape}")
    if section.min() < 0 or section.max() >= len(BLOCKS_SIGHT):
        raise ValueError(f"a section holds block ids 0..{len(BLOCKS_SIGHT) - 1}")
    return section


def face_links(section: np.ndarray) -> np.ndarray:
    """The six face-link bytes of a 16^3 section of block ids indexed [x, y, z] (see the module).

    Labels the open cells' connected components (six-neighbour) by spreading the smallest cell
    index along open neighbour pairs and jumping each label to its label's label until nothing
    changes, then links the faces that share a component."""
    open_cells = ~BLOCKS_SIGHT[_checked_section(section)]
    if not open_cells.any():
        return CLOSED_LINKS.copy()
    if open_cells.all():
        return OPEN_LINKS.copy()
    labels = np.where(open_cells, np.arange(_CELLS).reshape(open_cells.shape), _CELLS)
    joined = [open_cells[low] & open_cells[high] for low, high in _NEIGHBOUR_PAIRS]
    flat = labels.reshape(-1)
    open_flat = open_cells.reshape(-1)
    while True:
        before = flat.copy()
        for (low, high), both in zip(_NEIGHBOUR_PAIRS, joined):
            np.minimum(labels[low], labels[high], out=labels[low], where=both)
            np.minimum(labels[high], labels[low], out=labels[high], where=both)
        flat[open_flat] = flat[flat[open_flat]]  # a label is an open cell's index: take that cell's label
        if np.array_equal(flat, before):
            break
    on_face = np.zeros((FACE_COUNT, _CELLS + 1), dtype=bool)
    for face, cells in enumerate(_FACE_CELLS):
        on_face[face, labels[cells]] = True
    on_face[:, _CELLS] = False  # the blocking cells' label
    linked = (on_face[:, None, :] & on_face[None, :, :]).any(axis=2)
    return (linked.astype(np.uint8) * _BITS).sum(axis=1, dtype=np.uint8)


def face_links_by_cells(section: np.ndarray) -> np.ndarray:
    """`face_links`' readable twin: a flood fill from each face's open cells, one cell at a time."""
    open_cells = ~BLOCKS_SIGHT[_checked_section(section)]
    links = np.zeros(FACE_COUNT, dtype=np.uint8)
    for face, cells in enumerate(_FACE_CELLS):
        start = np.zeros_like(open_cells)
        start[cells] = open_cells[cells]
        seen = {tuple(int(c) for c in cell) for cell in np.argwhere(start)}
        queue = deque(seen)
        while queue:
            x, y, z = queue.popleft()
            for dx, dy, dz in FACE_STEPS:
                cell = (x + dx, y + dy, z + dz)
                if cell not in seen and all(0 <= c < _SIZE for c in cell) and open_cells[cell]:
                    seen.add(cell)
                    queue.append(cell)
        for other, other_cells in enumerate(_FACE_CELLS):
            reached = np.zeros_like(open_cells)
            for cell in seen:
                reached[cell] = True
            if reached[other_cells].any():
                links[face] |= 1 << other
    return links


def _checked_grid(links: object, eye: tuple[int, int, int]) -> tuple[np.ndarray, tuple[int, int, int]]:
    if not isinstance(links, np.ndarray) or links.dtype != np.uint8 or links.ndim != 4 or links.shape[3] != FACE_COUNT:
        raise TypeError("links must be a uint8 array shaped (x, y, z, 6)")
    eye = tuple(int(c) for c in eye)
    if len(eye) != 3 or not all(0 <= c < n for c, n in zip(eye, links.shape[:3])):
        raise ValueError(f"the eye's section {eye} is outside the grid {links.shape[:3]}")
    return links, eye


WALK_PLANS_KEPT = 4
"""Walk plans (`_walk_plan`) kept, the last used: a renderer's grid keeps one shape and eye while the
eye stays in its column and the sections' reach stays (a plan is about 0.6 MB at view distance 16)."""
_ENTERED_BY_STEP = np.array([face ^ 1 for face in range(FACE_COUNT)])
"""For a step through face f (the nearer section's face left), the face of the farther section
entered: its opposite."""


class _WalkPlan:
    """What the sweep over a grid of one shape from one eye needs whatever the links are: the
    cells in order of their step count from the eye (`order`, each shell from `starts[d]` to
    `starts[d + 1]`) and, in that order, each cell's neighbour one step nearer the eye through each
    face (`came_from` (cells, 6): the step through face f comes from that neighbour's face f; the
    grid's size, an always-closed extra cell, where no such step moves away from the eye)."""

    __slots__ = ("order", "starts", "came_from", "eye_cell", "size")

    def __init__(self, shape: tuple[int, int, int], eye: tuple[int, int, int]) -> None:
        size = shape[0] * shape[1] * shape[2]
        offsets = np.indices(shape).reshape(3, -1) - np.array(eye).reshape(3, 1)
        distance = np.abs(offsets).sum(axis=0).astype(np.int16)  # small ints: the stable sort is a radix sort
        order = np.argsort(distance, kind="stable")
        strides = (shape[1] * shape[2], shape[2], 1)
        came_from = np.full((size, FACE_COUNT), size, dtype=np.intp)
        for face in range(FACE_COUNT):
            axis, sign = face // 2, (1 if face % 2 else -1)
            cells = np.flatnonzero(offsets[axis] * sign > 0)  # a step through `face` reaches them
            came_from[cells, face] = cells - sign * strides[axis]
        self.order, self.came_from = order, came_from.take(order, axis=0)
        self.starts = tuple(np.searchsorted(distance.take(order), np.arange(int(distance.max()) + 2)).tolist())
        self.eye_cell, self.size = int(np.ravel_multi_index(eye, shape)), size
        for array in (self.order, self.came_from):
            array.flags.writeable = False


_walk_plan = lru_cache(maxsize=WALK_PLANS_KEPT)(_WalkPlan)
"""The `_WalkPlan` of a (shape, eye), kept (its arrays are read-only, its shell starts a tuple)."""


def visible_sections(links: np.ndarray, eye: tuple[int, int, int]) -> np.ndarray:
    """Which sections of a grid the eye's section can see (a bool grid; see the module).

    `links`: (x, y, z, 6) uint8, each section's face-link bytes (`face_links`; OPEN_LINKS where
    nothing is known); `eye`: the grid index of the section the eye is in, which sees out of all
    its faces. Every step moves one farther from the eye (in steps along the axes), so a section
    hears only from sections one step nearer: the sweep takes the sections a shell at a time,
    nearest first, each shell a few numpy calls over its cells and their six faces whatever its
    size (the grid at view distance 16 has about 45 shells). What depends on the grid's shape
    and the eye alone is planned once and kept (`_walk_plan`)."""
    links, eye = _checked_grid(links, eye)
    shape = links.shape[:3]
    plan = _walk_plan(shape, eye)
    # Column f: the links of the face a step through face f enters (what that step lets it leave by).
    by_step = links.reshape(-1, FACE_COUNT).take(_ENTERED_BY_STEP, axis=1)
    exits = np.zeros(plan.size + 1, dtype=np.uint8)  # the last: the closed extra cell
    exits[plan.eye_cell] = ALL_FACES
    seen = np.zeros(plan.size, dtype=bool)
    seen[plan.eye_cell] = True
    order, came_from, starts = plan.order, plan.came_from, plan.starts
    for shell in range(1, len(starts) - 1):
        first, end = starts[shell], starts[shell + 1]
        stepped = (exits.take(came_from[first:end]) & _BITS) != 0  # (cells, face stepped through)
        if not np.count_nonzero(stepped):
            break  # nothing reaches this shell, so nothing reaches any farther
        cells = order[first:end]
        exits[cells] = np.bitwise_or.reduce(np.where(stepped, by_step.take(cells, axis=0), np.uint8(0)), axis=1)
        seen[cells] = stepped.any(axis=1)
    return seen.reshape(shape)


def visible_sections_by_order(links: np.ndarray, eye: tuple[int, int, int]) -> np.ndarray:
    """`visible_sections`' readable twin: the sections in order of their step count from the eye's,
    each entered through every face by which a seen neighbour one step nearer looks into it."""
    links, eye = _checked_grid(links, eye)
    shape = links.shape[:3]
    entered: dict[tuple[int, int, int], int] = {}
    order = sorted(np.ndindex(*shape), key=lambda cell: sum(abs(c - e) for c, e in zip(cell, eye)))
    for cell in order:
        if cell == eye:
            continue
        faces = 0
        for face, step in enumerate(FACE_STEPS):
            axis = face // 2
            before = tuple(c - s for c, s in zip(cell, step))
            moves_away = abs(cell[axis] - eye[axis]) > abs(before[axis] - eye[axis])
            if not moves_away or not all(0 <= c < n for c, n in zip(before, shape)):
                continue
            if before == eye:
                exits = ALL_FACES
            else:
                exits = 0
                for entry in range(FACE_COUNT):
                    if entered.get(before, 0) & (1 << entry):
                        exits |= int(links[before][entry])
            if exits & (1 << face):
                faces |= 1 << (face ^ 1)
        if faces:
            entered[cell] = faces
    seen = np.zeros(shape, dtype=bool)
    for cell in entered:
        seen[cell] = True
    seen[eye] = True
    return seen


def hidden_sections(links_by_section: dict[tuple[int, int, int], np.ndarray], eye_section: tuple[int, int, int],
                    walk: Callable[[np.ndarray, tuple[int, int, int]], np.ndarray] = visible_sections
                    ) -> set[tuple[int, int, int]]:
    """The sections of `links_by_section` (section key (cx, sy, cz) -> its face links) that the
    section `eye_section` cannot see. The grid `walk` goes over is the box around them and the eye;
    every section in it that is not in the dict (empty, not meshed yet) counts as open. `walk`:
    `visible_sections`, or its readable twin."""
    if not links_by_section:
        return set()
    listed = list(links_by_section)
    keys = np.fromiter(chain.from_iterable(listed), np.int64, 3 * len(listed)).reshape(-1, 3)
    lowest, highest = keys.min(axis=0), keys.max(axis=0)
    # An eye past the sections sees them as from one section beyond: the sections between are
    # empty and the walk never turns back, so nothing else changes (and the grid stays small).
    eye = np.clip(np.array(eye_section, dtype=np.int64), lowest - 1, highest + 1)
    lowest, highest = np.minimum(lowest, eye), np.maximum(highest, eye)
    grid = np.empty((*(highest - lowest + 1), FACE_COUNT), dtype=np.uint8)
    grid[...] = OPEN_LINKS
    cells = tuple((keys - lowest).T)
    values = np.concatenate(list(links_by_section.values()))  # (one call for them all: they are many)
    if values.size != FACE_COUNT * len(listed):
        raise ValueError(f"each section's links are {FACE_COUNT} bytes")
    grid[cells] = values.reshape(-1, FACE_COUNT)
    seen = walk(grid, tuple(int(c) for c in eye - lowest))
    return {listed[k] for k in np.flatnonzero(~seen[cells]).tolist()}


class SectionLinks:
    """The face links of a changing set of sections (a renderer's drawn ones), packed for the
    sweep: each section's key and links on a row of two growing arrays, so that `hidden` builds
    its grid without a call per section (`hidden_sections` is its readable twin, over a dict).

    `hidden` walks a grid centred on the eye across (x, z): its plan (`_walk_plan`) stays the same
    while the eye stays in a section and the sections around it stay within the same reach, so
    most refreshes plan nothing. A grid larger than the sections' box sees them alike: a chain of
    sections never steps back along an axis, so it stays within the box of the eye and its end."""

    def __init__(self) -> None:
        self._rows: dict[tuple[int, int, int], int] = {}
        self._keys: list[tuple[int, int, int]] = []  # by row
        self._cells = np.empty((16, 3), dtype=np.int64)  # by row; the first len(self) in use
        self._links = np.empty((16, FACE_COUNT), dtype=np.uint8)

    def __len__(self) -> int:
        return len(self._keys)

    def get(self, key: tuple[int, int, int]) -> np.ndarray | None:
        """A copy of section `key`'s links; None if it has none here."""
        row = self._rows.get(key)
        return None if row is None else self._links[row].copy()

    def put(self, key: tuple[int, int, int], links: np.ndarray) -> np.ndarray | None:
        """Keep `links` (6 uint8 face-link bytes) for section `key` ((cx, sy, cz) ints); returns its
        links before (a copy), None if it had none. TypeError for links not uint8, ValueError for
        links of another size; either way nothing changes."""
        values = np.asarray(links).reshape(-1)
        if values.dtype != np.uint8:
            raise TypeError(f"face links are uint8 bytes, got {values.dtype}")
        if values.size != FACE_COUNT:
            raise ValueError(f"each section's links are {FACE_COUNT} bytes, got {values.size}")
        key = tuple(int(c) for c in key)
        if len(key) != 3:
            raise ValueError(f"a section key is (cx, sy, cz), got {key!r}")
        row = self._rows.get(key)
        if row is not None:
            old = self._links[row].copy()
            self._links[row] = values
            return old
        row = len(self._keys)
        if row == len(self._cells):
            self._cells = np.concatenate((self._cells, np.empty_like(self._cells)))
            self._links = np.concatenate((self._links, np.empty_like(self._links)))
        self._rows[key] = row
        self._keys.append(key)
        self._cells[row] = key
        self._links[row] = values
        return None

    def pop(self, key: tuple[int, int, int]) -> bool:
        """Forget section `key`'s links; whether it had any. The last row moves into its place."""
        row = self._rows.pop(key, None)
        if row is None:
            return False
        last = len(self._keys) - 1
        moved = self._keys.pop()
        if row != last:
            self._keys[row] = moved
            self._rows[moved] = row
            self._cells[row] = self._cells[last]
            self._links[row] = self._links[last]
        return True

    def hidden(self, eye_section: tuple[int, int, int]) -> set[tuple[int, int, int]]:
        """The sections here that the section `eye_section` cannot see: `hidden_sections` of the
        same links as a dict, to the section."""
        count = len(self._keys)
        if not count:
            return set()
        cells = self._cells[:count]
        lowest, highest = cells.min(axis=0), cells.max(axis=0)
        # An eye past the sections sees them as from one section beyond (as `hidden_sections`).
        eye = np.clip(np.array(eye_section, dtype=np.int64), lowest - 1, highest + 1)
        reach = np.maximum(eye - lowest, highest - eye)
        low, high = np.minimum(lowest, eye), np.maximum(highest, eye)
        low[[0, 2]], high[[0, 2]] = eye[[0, 2]] - reach[[0, 2]], eye[[0, 2]] + reach[[0, 2]]
        grid = np.empty((*(high - low + 1).tolist(), FACE_COUNT), dtype=np.uint8)
        grid[...] = OPEN_LINKS
        at = tuple((cells - low).T)
        grid[at] = self._links[:count]
        seen = visible_sections(grid, tuple((eye - low).tolist()))
        keys = self._keys
        return {keys[row] for row in np.flatnonzero(~seen[at]).tolist()}
