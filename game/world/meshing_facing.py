"""Faces grouped by the way they face, so that a section draws only those that can face the eye. numpy only.

Owns: sorting a part's faces into FACING_NORMALS groups (`facing_order`), each group's faces by
their plane, so that the faces of a group that face an eye are a prefix of it (`facing_counts`); the
bounds of eye positions within which those prefixes stay the same, or, with margins, still hold
every face facing the eye (`steady_bounds`, `facing_state`); the index list of the kept faces
(`facing_indices`), and the readable twin, face by face (`faces_facing_by_face`).
Does not own: which faces a section has (`game.world.meshing`), merging and packing them
(`game.world.meshing_merge`, which calls `facing_order` when asked), when the eye moves or what is
uploaded (`game.window.render.chunk_renderer`).

A flat face is seen from its front only when the eye lies on the side its outward normal n points
to: n . (eye - p) > 0 for any point p of its plane. Faces whose outward normal is one of
FACING_NORMALS (the six axes, and the four horizontal diagonals of plants' crossed quads) are grouped
by it; within a group a face's key is n . p (in 1/KEY_UNITS blocks, the least over its corners,
so a face is never left out by a rounding), sorted ascending, and the faces that face the eye are the
first `searchsorted(keys, n . eye)` of the group: those with n . p < n . eye. Any other face (a fluid's
sloped surface) is in the last group, ALWAYS_DRAWN, and always drawn. Leaving out a face that faces
away changes no pixel: the GPU culls back faces anyway; it only saves their vertices.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FACING_NORMALS = np.array([(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1),
                           (1, 0, 1), (-1, 0, -1), (1, 0, -1), (-1, 0, 1)], dtype=np.int64)
"""Outward normals a group is kept for, unnormalised (whole numbers, so keys are exact): the six axes in
blocks.FACES order, then the diagonals of plants' crossed quads (each drawn once per side)."""
ALWAYS_DRAWN = len(FACING_NORMALS)
"""The group of faces facing none of FACING_NORMALS (sloped fluid surfaces): drawn from everywhere."""
GROUP_COUNT = ALWAYS_DRAWN + 1
KEY_UNITS = 2048
"""[1/block] Steps per block of a key: every corner of a cube, a 1/16 shape or a plant is exact."""


GROUP_SPAN = 1 << 20
"""[1/KEY_UNITS blocks] What each group's keys are lifted by in `FacingOrder.ranked` (group x GROUP_SPAN +
key), so that one sorted array holds every group apart: a key's size is at most 2 x 16 x KEY_UNITS
(65,536), far below GROUP_SPAN / 4."""
EYE_LIMIT = GROUP_SPAN // 4
"""[1/KEY_UNITS blocks] n . eye is clipped to +-EYE_LIMIT (128 blocks) before it is looked up: past every
key of a section either way, so nothing kept changes, and the lookup stays inside its own group."""


@dataclass(frozen=True, eq=False)
class FacingOrder:
    """Where each group of a part's faces lies once `facing_order` sorted them: plain arrays."""

    starts: np.ndarray
    """int64 (GROUP_COUNT + 1,): the first face of each group; the last entry is the face count."""
    keys: np.ndarray
    """int64 (F,): n . p of each face in 1/KEY_UNITS blocks, ascending within each group (0 in ALWAYS_DRAWN)."""

    ranked: np.ndarray | None = None
    """int64 (F,): group x GROUP_SPAN + key, ascending over the whole part (worked out when not given)."""

    def __post_init__(self) -> None:
        if self.ranked is None:
            group = np.repeat(np.arange(GROUP_COUNT, dtype=np.int64), np.diff(self.starts))
            object.__setattr__(self, "ranked", group * GROUP_SPAN + self.keys)

    @property
    def face_count(self) -> int:
        return int(self.starts[-1])


_GROUP_OF_SIGNS = np.full(27, ALWAYS_DRAWN, dtype=np.int64)
_GROUP_OF_SIGNS[(FACING_NORMALS + 1) @ (9, 3, 1)] = np.arange(ALWAYS_DRAWN)
"""A normal's sign pattern (x, y, z each -1, 0 or 1, as 9 (x + 1) + 3 (y + 1) + z + 1) -> its group."""


def _groups_and_keys(positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each face's group and key (see the module docstring). A quad's outward normal is exact here
    (float64 products of float32 corners), so it faces an axis when its other two components are 0
    and a diagonal when its y is 0 and its x and z are equal in size."""
    corners = np.asarray(positions, dtype=np.float64)
    a, b = corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]
    nx = a[:, 2] * b[:, 1] - a[:, 1] * b[:, 2]  # -(a x b): the outward normal
    ny = a[:, 0] * b[:, 2] - a[:, 2] * b[:, 0]
    nz = a[:, 1] * b[:, 0] - a[:, 0] * b[:, 1]
    zeros = (nx == 0).astype(np.int8) + (ny == 0) + (nz == 0)
    diagonal = (ny == 0) & (np.abs(nx) == np.abs(nz)) & (nx != 0)
    signs = (np.sign(nx) + 1) * 9 + (np.sign(ny) + 1) * 3 + np.sign(nz) + 1
    group = np.where((zeros == 2) | diagonal, _GROUP_OF_SIGNS[signs.astype(np.int64)], ALWAYS_DRAWN)
    normal = FACING_NORMALS[np.minimum(group, ALWAYS_DRAWN - 1)]  # (F, 3)
    units = np.rint(corners * KEY_UNITS).astype(np.int64)  # (F, 4, 3)
    along = (units * normal[:, None, :]).sum(axis=2)
    # A face whose corners lie off its plane by a rounding is kept whenever any corner faces the eye.
    keys = np.where(group == ALWAYS_DRAWN, 0, along.min(axis=1))
    return group, keys


def facing_order(positions: np.ndarray) -> tuple[np.ndarray, FacingOrder]:
    """(order, FacingOrder) of quads (F, 4, 3) [blocks]: `order` puts the faces in groups (FACING_NORMALS,
    then ALWAYS_DRAWN), each sorted by key; faces of equal key keep their order. ValueError unless
    `positions` is (F, 4, 3)."""
    positions = np.asarray(positions)
    if positions.ndim != 3 or positions.shape[1:] != (4, 3):
        raise ValueError(f"facing_order needs quads of shape (F, 4, 3), got {positions.shape}")
    group, keys = _groups_and_keys(positions)
    order = np.argsort(group * GROUP_SPAN + keys, kind="stable")
    starts = np.searchsorted(group[order], np.arange(GROUP_COUNT + 1))
    return order, FacingOrder(starts.astype(np.int64), keys[order])


_NORMALS_UNITS = FACING_NORMALS.astype(np.float64) * KEY_UNITS


def eye_along(eye) -> np.ndarray:
    """(ALWAYS_DRAWN,) n . eye of each group's n, in 1/KEY_UNITS blocks (float64), clipped to +-EYE_LIMIT;
    `eye` section-local [blocks]. `FacingParts` works the same numbers out for many sections at once."""
    return np.clip(_NORMALS_UNITS @ np.asarray(eye, dtype=np.float64).reshape(3), -EYE_LIMIT, EYE_LIMIT)


_LIFT = np.arange(ALWAYS_DRAWN, dtype=np.int64) * GROUP_SPAN
_LIFT_TWICE = np.concatenate([_LIFT, _LIFT + 1]).astype(np.float64)
"""Both lookups of `facing_state` in one array: the first key >= a, and one past the last <= b."""


def facing_state(order: FacingOrder, eye, ranked: np.ndarray | None = None, ahead: float = 0.0, behind: float = 0.0
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(counts, low, high) for `eye`, a section-local point [blocks]. `counts` (GROUP_COUNT,): how many faces
    of each group (a prefix) are kept: those with n . p < n . eye + `ahead` (so with ahead = 0 exactly
    those that can face the eye), and all of ALWAYS_DRAWN. `low` and `high` (ALWAYS_DRAWN,) [1/KEY_UNITS
    blocks]: while low < `eye_along`(e) < high, group by group, the kept faces hold every face that can
    face the eye e: `high` is the first key at or past the kept ones (inf: none), `low` the last key
    at least `behind` below n . eye (-inf: none), below which the kept faces would hold faces that no
    longer can. With ahead = behind = 0 the counts are exact and stay the same within the bounds (an
    eye on a key's plane gets low = high: any move may change them). `ahead`, `behind` in
    1/KEY_UNITS blocks, >= 0; `ranked`: `order.ranked`, when the caller keeps it."""
    if not (ahead >= 0 and behind >= 0):
        raise ValueError(f"ahead and behind must be >= 0, got {ahead!r}, {behind!r}")
    ranked = order.ranked if ranked is None else ranked
    along = eye_along(eye)
    # Keys are whole numbers: key < a exactly when key < ceil(a), and key <= b exactly when key < floor(b) + 1;
    # the lifted sums are whole numbers far below 2^53, exact in float64.
    query = np.concatenate([np.ceil(along + ahead), np.floor(along - behind)])
    found = np.searchsorted(ranked, query + _LIFT_TWICE, side="left")
    above, below = found[:ALWAYS_DRAWN], found[ALWAYS_DRAWN:]  # the first key >= a; one past the last <= b
    first, end = order.starts[:ALWAYS_DRAWN], order.starts[1:ALWAYS_DRAWN + 1]
    counts = np.empty(GROUP_COUNT, dtype=np.int64)
    counts[:ALWAYS_DRAWN] = above - first
    counts[ALWAYS_DRAWN] = order.starts[-1] - order.starts[-2]
    if not len(ranked):
        return counts, np.full(ALWAYS_DRAWN, -np.inf), np.full(ALWAYS_DRAWN, np.inf)
    last = len(ranked) - 1
    low = np.where(below > first, ranked[np.maximum(below - 1, 0)] - _LIFT, -np.inf)
    high = np.where(above < end, ranked[np.minimum(above, last)] - _LIFT, np.inf)
    return counts, low, high


def facing_counts(order: FacingOrder, eye, ranked: np.ndarray | None = None) -> np.ndarray:
    """`facing_state`'s counts alone."""
    return facing_state(order, eye, ranked)[0]


def steady_bounds(order: FacingOrder, eye, ranked: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """`facing_state`'s (low, high) alone."""
    _, low, high = facing_state(order, eye, ranked)
    return low, high


def _kept(order: FacingOrder, counts: np.ndarray) -> np.ndarray:
    """bool (F,): the faces (in the sorted order) that `counts` keeps."""
    counts = np.asarray(counts, dtype=np.int64)
    if counts.shape != (GROUP_COUNT,):
        raise ValueError(f"counts must have {GROUP_COUNT} entries, got shape {counts.shape}")
    sizes = np.diff(order.starts)
    ends = order.starts[:-1] + np.minimum(counts, sizes)
    return np.arange(order.face_count) < np.repeat(ends, sizes)


def facing_faces(order: FacingOrder, counts: np.ndarray) -> np.ndarray:
    """Indices (in the sorted order) of the faces that `counts` (from `facing_counts`) keeps, ascending."""
    return np.flatnonzero(_kept(order, counts))


def facing_indices(indices: np.ndarray, order: FacingOrder, counts: np.ndarray, per_face: int = 6) -> np.ndarray:
    """The `per_face` indices of each face that `counts` keeps, taken from `indices` (faces in the sorted
    order, `per_face` each), in the same dtype: one slice per group, joined."""
    counts = np.asarray(counts, dtype=np.int64)
    if counts.shape != (GROUP_COUNT,):
        raise ValueError(f"counts must have {GROUP_COUNT} entries, got shape {counts.shape}")
    pieces = [indices[first * per_face:(first + count) * per_face]
              for first, count in zip(order.starts[:-1].tolist(), counts.tolist()) if count]
    return np.concatenate(pieces) if pieces else indices[:0].copy()


def faces_facing_by_face(positions: np.ndarray, eye) -> np.ndarray:
    """The readable twin: bool (F,), True for each quad that `facing_order` and `facing_counts` keep for
    `eye`, worked out face by face: a face facing none of FACING_NORMALS always, any other when
    n . eye > n . corner at some corner (in 1/KEY_UNITS blocks)."""
    kept = []
    eye_units = np.asarray(eye, dtype=np.float64).reshape(3) * KEY_UNITS
    for quad in np.asarray(positions, dtype=np.float64):
        normal = -np.cross(quad[1] - quad[0], quad[2] - quad[0])
        length = float(np.linalg.norm(normal))
        facing = None
        for candidate in FACING_NORMALS:
            if length > 0 and abs(float(normal @ candidate) / (length * float(np.linalg.norm(candidate))) - 1) < 1e-9:
                facing = candidate
        if facing is None:
            kept.append(True)
            continue
        corners = [np.rint(corner * KEY_UNITS) for corner in quad]
        kept.append(any(float(facing @ eye_units) > float(facing @ corner) for corner in corners))
    return np.array(kept, dtype=bool)
