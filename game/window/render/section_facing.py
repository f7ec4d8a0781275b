"""Section parts drawn without their faces that face away from the eye: the index lists on the GPU.

Owns: for every uploaded section part whose faces are sorted by the way they face
(`game.world.meshing_facing`), which of its faces are drawn for the current eye, and rewriting the
part's index list (its Geom's one GeomTriangles) when that changes; finding, for all parts at
once, the few whose kept faces can have changed since the last eye (each part's steady bounds,
checked on arrays), so a still or slowly moving eye costs a few array operations a frame.
Does not own: sorting the faces (`game.world.meshing_merge.mesh_section_compact(facing=True)`), the
entities or their lifetime (`game.window.render.chunk_renderer`), where the eye is (the renderer's
`look_from`).

A part keeps the same vertex buffer and one draw call; only its index list (rewritten in place)
shrinks to the faces that can face the eye, and, after the eye moved, those that faced it up to
BEHIND_BLOCKS or more back along each normal and, once its move rewrote the list, those that will
face it within AHEAD_BLOCKS or more, so that a jumping, wandering or running eye rewrites few lists.
The GPU culls back faces anyway, so the picture is the same; what is saved is the vertex work of the
faces it would have culled. With no eye (`forget_eye`, or none given yet) every face is drawn. The
Geom's bounds are set once at upload (`chunk_renderer.compact_node`), so a rewritten list costs
Panda3D no new bounds. Parts stashed by cave culling (`pause`) are left alone until shown again.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from panda3d.core import GeomNode

from ...world.meshing_facing import (ALWAYS_DRAWN, EYE_LIMIT, FACING_NORMALS, KEY_UNITS, FacingOrder, facing_indices,
                                     facing_state)

SectionKey = tuple[int, int, int]
BEHIND_BLOCKS = 3.5
"""[blocks] How far back along a group's normal the eye may move before the kept faces are narrowed
again: until then they hold some that no longer face the eye (the GPU culls them), never fewer than
it needs. Moving toward faces that turn to face it rewrites the list at their plane, or AHEAD_BLOCKS
or more beyond it once the list was rewritten for a move; moving away, or jumping and landing again,
rewrites nothing within this margin."""
AHEAD_BLOCKS = 1.0
"""[blocks] When the eye's move makes a part's list be rewritten, the kept faces also hold those that
will face the eye once it has moved up to this far (plus the part's stagger) along their normal: the
GPU culls them until then, and the list is rewritten again only once the eye has passed them. With
none, every part of the eye's row of sections (its faces' planes lie one block apart) was rewritten
at each block the eye moved: at view distance 16, 13-36 ms in one frame (`bench.bench_game.play`
profiled, 1280x720). Only a moving eye's rewrites keep them: a part uploaded, shown again or first
given an eye draws exactly the faces that face it, so a still view draws no more than it needs."""
STAGGER_STEPS = 4
"""Parts' margins grow by one block with the slot, over this many steps: the parts of a row of
sections share their faces' planes (whole blocks), and so are not all narrowed or widened again in
the frame the eye crosses one."""
_NORMALS_T = FACING_NORMALS.T.astype(np.float64)
_INITIAL_SLOTS = 256


@dataclass(eq=False)
class _Part:
    """One registered part: its node, its whole index list (faces in facing order) and what is drawn."""

    key: SectionKey
    node: GeomNode
    indices: np.ndarray
    order: FacingOrder
    ranked: np.ndarray
    origin: np.ndarray
    counts: np.ndarray | None = None
    """Faces drawn per group; None: every face (the whole list is on the GPU)."""


def _margins(slot: int) -> tuple[float, float]:
    """[1/KEY_UNITS blocks] (ahead, behind) of the part in `slot` (AHEAD_BLOCKS, BEHIND_BLOCKS, STAGGER_STEPS)."""
    stagger = slot % STAGGER_STEPS
    return (AHEAD_BLOCKS + stagger) * KEY_UNITS, (BEHIND_BLOCKS + stagger) * KEY_UNITS


@dataclass(frozen=True, eq=False)
class _Prepared:
    """A part about to be uploaded: its whole index list and sort, and what to draw (`FacingParts.prepare`)."""

    indices: np.ndarray
    order: FacingOrder
    ranked: np.ndarray
    origin: np.ndarray
    drawn: np.ndarray
    """The index list to upload: every face with no eye, else those kept for it."""
    counts: np.ndarray | None
    low: np.ndarray | None
    high: np.ndarray | None


def set_triangles(node: GeomNode, indices: np.ndarray) -> None:
    """Make `indices` the triangles of `node`'s one Geom, in place (main thread only); the Geom's
    primitive already indexes with `indices`' type (uint16 or uint32, as uploaded)."""
    handle = node.modify_geom(0).modify_primitive(0).modify_vertices()
    handle.unclean_set_num_rows(len(indices))
    if len(indices):
        memoryview(handle).cast("B")[:] = np.ascontiguousarray(indices).view(np.uint8)


class FacingParts:
    """Every registered part's drawn faces for the current eye (world coordinates, physics axes)."""

    def __init__(self) -> None:
        self._parts: list[_Part | None] = []
        self._free: list[int] = []
        self._slots_of: dict[SectionKey, list[int]] = {}
        self._origins = np.zeros((0, 3))
        self._low = np.zeros((0, ALWAYS_DRAWN))
        self._high = np.zeros((0, ALWAYS_DRAWN))
        self._paused = np.zeros(0, dtype=bool)
        """Parts not drawn (`pause`): not brought up to date until `resume`."""
        self.eye: np.ndarray | None = None
        self._prepared = 0
        self.rewrites = 0
        """How many index lists have been rewritten so far (tests, benchmarks)."""

    def __len__(self) -> int:
        return sum(len(slots) for slots in self._slots_of.values())

    def prepare(self, indices: np.ndarray, order: FacingOrder, origin: tuple[float, float, float]) -> "_Prepared":
        """What a new part (its `indices`, every face, sorted as `order`; its section-local (0, 0, 0) at
        `origin`) should draw for the current eye: upload its `indices` and `add` it, so that the node
        is built once, without the faces facing away."""
        if order.face_count * 6 != len(indices):
            raise ValueError(f"{len(indices)} indices for {order.face_count} faces: 6 a face are needed")
        origin = np.asarray(origin, dtype=np.float64).reshape(3)
        ranked = order.ranked
        if self.eye is None:
            return _Prepared(indices, order, ranked, origin, indices, None, None, None)
        self._prepared += 1  # staggers new parts' margins as `_apply` does by slot
        counts, low, high = facing_state(order, self.eye - origin, ranked, 0.0, _margins(self._prepared)[1])
        return _Prepared(indices, order, ranked, origin, facing_indices(indices, order, counts), counts, low, high)

    def add(self, key: SectionKey, node: GeomNode, prepared: "_Prepared") -> None:
        """Register the part of section `key` drawn by `node`, which holds `prepared.drawn`."""
        slot = self._free.pop() if self._free else self._grow()
        part = _Part(key, node, prepared.indices, prepared.order, prepared.ranked, prepared.origin, prepared.counts)
        self._parts[slot] = part
        self._origins[slot] = part.origin
        self._slots_of.setdefault(key, []).append(slot)
        if prepared.counts is None:
            self._never_steady(slot)
        else:
            self._low[slot], self._high[slot] = prepared.low, prepared.high

    def pause(self, key: SectionKey) -> None:
        """Stop following the eye for section `key`'s parts (they are not drawn: stashed by cave culling)."""
        for slot in self._slots_of.get(key, ()):
            self._paused[slot] = True

    def resume(self, key: SectionKey) -> None:
        """Follow the eye again for section `key`'s parts, brought up to date at once (before they are
        drawn) where the eye left their bounds meanwhile."""
        for slot in self._slots_of.get(key, ()):
            self._paused[slot] = False
            if self.eye is not None and not self._steady(slot):
                self._apply(slot)

    def remove(self, key: SectionKey) -> None:
        """Forget every part of section `key` (their nodes are the caller's to destroy)."""
        for slot in self._slots_of.pop(key, ()):
            self._parts[slot] = None
            self._paused[slot] = False
            self._always_steady(slot)
            self._free.append(slot)

    def look_from(self, eye) -> int:
        """Draw, of every part, the faces that can face `eye` (world coordinates, blocks). Returns how
        many index lists were rewritten."""
        eye = np.asarray(eye, dtype=np.float64).reshape(3)
        moving = self.eye is not None and not np.array_equal(eye, self.eye)
        self.eye = eye
        if not len(self._parts):
            return 0
        along = np.clip(((eye - self._origins) * KEY_UNITS) @ _NORMALS_T, -EYE_LIMIT, EYE_LIMIT)
        moved = np.flatnonzero(~((self._low < along) & (along < self._high)).all(axis=1) & ~self._paused)
        rewrites = self.rewrites
        for slot in moved.tolist():
            if self._parts[slot] is not None:
                self._apply(slot, ahead=moving)
        return self.rewrites - rewrites

    def forget_eye(self) -> None:
        """Draw every face of every part again, until the next `look_from`."""
        self.eye = None
        for slot, part in enumerate(self._parts):
            if part is not None:
                self._never_steady(slot)
                if part.counts is not None:
                    part.counts = None
                    set_triangles(part.node, part.indices)
                    self.rewrites += 1

    def _steady(self, slot: int) -> bool:
        """The eye is still within the part in `slot`'s bounds (as `look_from` checks them all)."""
        along = np.clip(((self.eye - self._origins[slot]) * KEY_UNITS) @ _NORMALS_T, -EYE_LIMIT, EYE_LIMIT)
        return bool(((self._low[slot] < along) & (along < self._high[slot])).all())

    def _apply(self, slot: int, ahead: bool = False) -> None:
        """Bring the part in `slot` up to the eye: exactly the faces that face it, and with `ahead` (the
        eye moved since the last `look_from`) also those within the part's AHEAD_BLOCKS margin."""
        part = self._parts[slot]
        local = self.eye - part.origin
        margin_ahead, margin_behind = _margins(slot)
        counts, self._low[slot], self._high[slot] = facing_state(part.order, local, part.ranked,
                                                                 margin_ahead if ahead else 0.0, margin_behind)
        if part.counts is None or not np.array_equal(counts, part.counts):
            part.counts = counts
            set_triangles(part.node, facing_indices(part.indices, part.order, counts))
            self.rewrites += 1

    def _never_steady(self, slot: int) -> None:
        self._low[slot], self._high[slot] = np.inf, -np.inf

    def _always_steady(self, slot: int) -> None:
        self._low[slot], self._high[slot] = -np.inf, np.inf

    def _grow(self) -> int:
        """A new free slot, the arrays grown (doubled) when full."""
        used = len(self._parts)
        size = max(_INITIAL_SLOTS, 2 * used)
        self._origins = np.concatenate([self._origins, np.zeros((size - used, 3))])
        self._low = np.concatenate([self._low, np.full((size - used, ALWAYS_DRAWN), -np.inf)])
        self._high = np.concatenate([self._high, np.full((size - used, ALWAYS_DRAWN), np.inf)])
        self._paused = np.concatenate([self._paused, np.zeros(size - used, dtype=bool)])
        self._parts.extend([None] * (size - used))
        self._free.extend(range(size - 1, used, -1))
        return used
