"""Faces grouped by the way they face, so a section's groups that face away from the eye are not drawn.

A face can be seen only from in front of its plane. All the +x faces of section cx lie on planes
16 cx < x <= 16 cx + 16 (a box's +x face is its far side; boxes smaller than a block, such as a
ladder's, can have it anywhere inside the cell) and all its -x faces on 16 cx <= x < 16 cx + 16, and
likewise for y and z. So the +x group of section cx can be seen only from x > 16 cx: left out while
the eye is to -x of the section, and the -x group while the eye is to +x of it. The rule is applied
with EYE_SLACK_BLOCKS to spare: a group is left out only when the eye is that far past the
section's plane, so a camera up to that far from the eye given (view bobbing, rounding) still sees
every face it should. Such a group is not drawn at all (Panda3D never transforms its vertices):
what a GPU's back-face culling would do after the work, for about half of the side faces of every
section not level with the eye and the bottoms of every section below it. Faces that are not
axis-aligned (plants' crossed quads, sloped fluid surfaces) are one more group, always drawn.

Owns: the group of each face (`face_group_codes`), ordering a part's faces by group
(`sorted_by_group`) and the rule above (`eye_sections`, `group_visible`). numpy only; in block (physics) axes.
Does not own: the faces (`game.world.meshing`) or hiding the groups' nodes (`chunk_renderer`).
"""

from __future__ import annotations

import numpy as np

from game.world.meshing import FACE_NORMALS, SECTION_SIZE, MeshArrays

SLANTED_GROUP = len(FACE_NORMALS)
"""The group of faces that are not axis-aligned: always drawn."""
GROUP_COUNT = SLANTED_GROUP + 1
GROUP_AXIS = tuple(next(a for a in range(3) if n[a]) for n in FACE_NORMALS)
GROUP_SIGN = tuple(n[GROUP_AXIS[g]] for g, n in enumerate(FACE_NORMALS))
EYE_SLACK_BLOCKS = 1.0
"""[blocks] How far the camera may be from the eye given to `eye_sections` (view bobbing, third
person's camera rounding) with every face it can see still drawn."""


def face_group_codes(corners: np.ndarray) -> np.ndarray:
    """(F,) int8: the group of each face of `corners` (F, 4, 3): the index of its normal in
    `meshing.FACE_NORMALS` when its 4 corners share one coordinate (the normal's side from the
    winding, clockwise seen from outside), else SLANTED_GROUP."""
    corners = np.asarray(corners, dtype=np.float64).reshape(-1, 4, 3)
    flat = (corners == corners[:, :1, :]).all(axis=1)  # (F, 3): the corners share this coordinate
    # The normal from the diagonals of the quad: (c2 - c0) x (c3 - c1) points inward for clockwise winding.
    inward = np.cross(corners[:, 2] - corners[:, 0], corners[:, 3] - corners[:, 1])
    axis = flat.argmax(axis=1)
    outward_positive = inward[np.arange(len(corners)), axis] < 0.0
    codes = axis * 2 + np.where(outward_positive, 0, 1)  # FACE_NORMALS: +x, -x, +y, -y, +z, -z
    codes[flat.sum(axis=1) != 1] = SLANTED_GROUP
    return codes.astype(np.int8)


def sorted_by_group(part: MeshArrays) -> tuple[MeshArrays, tuple[int, ...]]:
    """`part` with its faces in group order (stable within a group), and the face count per group."""
    codes = face_group_codes(part.positions.reshape(-1, 4, 3))
    order = np.argsort(codes, kind="stable")
    counts = tuple(int(c) for c in np.bincount(codes, minlength=GROUP_COUNT))
    faces = len(order)
    indices = part.indices.reshape(faces, 6)[order] - (4 * order)[:, None].astype(np.uint32)
    indices += (4 * np.arange(faces, dtype=np.uint32))[:, None]

    def reordered(values: np.ndarray, per_vertex: int) -> np.ndarray:
        return np.ascontiguousarray(values.reshape(faces, 4 * per_vertex)[order]).reshape(-1)

    sorted_part = MeshArrays(positions=reordered(part.positions, 3), uvs=reordered(part.uvs, 2),
                             colors=reordered(part.colors, 4), light=reordered(part.light, 2),
                             indices=np.ascontiguousarray(indices).reshape(-1))
    return sorted_part, counts


def eye_section(x: float, y: float, z: float) -> tuple[int, int, int]:
    """The section (cx, sy, cz) holding the block point (x, y, z) (sy may lie outside the world)."""
    return (int(np.floor(x / SECTION_SIZE)), int(np.floor(y / SECTION_SIZE)), int(np.floor(z / SECTION_SIZE)))


EyeSections = tuple[tuple[int, int, int], tuple[int, int, int]]
"""(low, high): the sections of the eye moved EYE_SLACK_BLOCKS toward -x, -y, -z and toward +x, +y, +z."""


def eye_sections(x: float, y: float, z: float) -> EyeSections:
    """The eye's `EyeSections`, what `group_visible` compares sections with."""
    return (eye_section(x - EYE_SLACK_BLOCKS, y - EYE_SLACK_BLOCKS, z - EYE_SLACK_BLOCKS),
            eye_section(x + EYE_SLACK_BLOCKS, y + EYE_SLACK_BLOCKS, z + EYE_SLACK_BLOCKS))


def group_visible(group: int, section: tuple[int, int, int], eye: EyeSections | None) -> bool:
    """Whether any face of `group` in `section` may be seen from a camera within EYE_SLACK_BLOCKS of the
    eye whose `eye_sections` are `eye` (None: from anywhere, so True)."""
    if eye is None or group == SLANTED_GROUP:
        return True
    axis = GROUP_AXIS[group]
    low, high = eye
    if GROUP_SIGN[group] > 0:
        return high[axis] >= section[axis]
    return low[axis] <= section[axis]
