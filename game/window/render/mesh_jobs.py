"""What a mesher worker runs for a section: its parts meshed and mirrored into Ursina's axes, and its
face links (`mesh_and_links`). numpy only (no Ursina, no Panda3D): the job, apart from what puts its
result on screen.

Owns: the arrays a finished mesh is handed over as (`UrsinaMeshArrays`, float columns; `UrsinaCompactArrays`,
packed vertices) and making them from the mesher's parts (`to_ursina`, `compact_to_ursina`).
Does not own: meshing itself (`game.world.meshing`, `meshing_merge`, `meshing_lod`), the face links'
rules (`game.world.sight`), turning the arrays into Panda3D geometry or running the jobs
(`game.window.render.chunk_renderer`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import space
from ...world.meshing import MAX_LIGHT_LEVEL, MeshArrays, mesh_section_passes
from ...world.meshing_facing import FacingOrder
from ...world.meshing_lod import mesh_section_lod
from ...world.meshing_merge import PACKED_SPAN, CompactMesh, mesh_section_compact
from ...world.sight import face_links


@dataclass(frozen=True)
class UrsinaMeshArrays:
    """One mesh part mapped into Ursina's axes, ready for `ursina.Mesh`."""

    positions: np.ndarray
    uvs: np.ndarray
    colors: np.ndarray
    triangles: np.ndarray


def vertex_colors(part: MeshArrays) -> np.ndarray:
    """The colour column the chunk shader reads, flat float32 RGBA per vertex: red the mesher's shade x
    AO, green sky light / 15, blue block light / 15 (kept apart so daylight scales sky light alone),
    alpha the mesher's."""
    colors = np.array(part.colors, dtype=np.float32).reshape(-1, 4)
    colors[:, 1:3] = part.light.reshape(-1, 2) / np.float32(MAX_LIGHT_LEVEL)
    return colors.reshape(-1)


def to_ursina(part: MeshArrays) -> UrsinaMeshArrays | None:
    """A mesher part mirrored into Ursina's axes (`game.window.render.space`), or None when it has no faces."""
    if part.face_count == 0:
        return None
    return UrsinaMeshArrays(space.positions(part.positions), part.uvs, vertex_colors(part),
                            space.triangles(part.indices))


def mesh_for_ursina(padded: np.ndarray, light: np.ndarray | None = None, compact: bool = False, merge: bool = True,
                    facing: bool = False, coarse: bool = False
                    ) -> tuple[UrsinaMeshArrays | UrsinaCompactArrays | None, ...]:
    """Mesh a padded section (lit by `light`, see `mesh_section_passes`) and map its parts, one per
    draw pass in DRAW_PASS order, to Ursina's axes (None for an empty part): float columns
    (`UrsinaMeshArrays`), or with `compact` packed vertices (`UrsinaCompactArrays`, faces merged
    unless `merge` is False, the opaque and cut-out parts' faces sorted by the way they face with
    `facing`, `meshing_merge.mesh_section_compact`); with `compact` and `coarse`, the section's coarse
    mesh (`game.world.meshing_lod.mesh_section_lod`)."""
    if compact:
        mesher = mesh_section_lod if coarse else mesh_section_compact
        return tuple(compact_to_ursina(part) for part in mesher(padded, light, merge, facing))
    return tuple(to_ursina(part) for part in mesh_section_passes(padded, light))


def mesh_and_links(padded: np.ndarray, light: np.ndarray | None = None, compact: bool = False, merge: bool = True,
                   facing: bool = False, coarse: bool = False
                   ) -> tuple[tuple[UrsinaMeshArrays | UrsinaCompactArrays | None, ...], np.ndarray]:
    """The worker's job: `mesh_for_ursina`'s parts and the section's face links (`game.world.sight`, always
    of the fine blocks)."""
    return mesh_for_ursina(padded, light, compact, merge, facing, coarse), face_links(padded[1:-1, 1:-1, 1:-1])


@dataclass(frozen=True)
class UrsinaCompactArrays:
    """One packed mesh part (`game.world.meshing_merge`) mirrored for Ursina: x stored as
    PACKED_SPAN - x (so it stays a positive uint16; `upload_compact` moves the entity to match),
    each triangle's winding reversed (`space.triangles`)."""

    vertices: np.ndarray
    """meshing_merge.VERTEX_DTYPE."""
    indices: np.ndarray
    """uint16 or uint32."""
    bounds: tuple[tuple[int, int, int], tuple[int, int, int]]
    """The least and greatest packed position of its vertices (`upload_compact` sets the Geom's bounds
    from them once, so a shorter index list costs no new bounds)."""
    facing: FacingOrder | None = None
    """The part's faces by the way they face (`CompactMesh.facing`); None: in the mesher's order."""


def _position_bounds(vertices: np.ndarray) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """The least and greatest packed (x, y, z) of `vertices` (a part has at least one face)."""
    corners = vertices["position"][:, :3]
    return tuple(corners.min(axis=0).tolist()), tuple(corners.max(axis=0).tolist())


def compact_to_ursina(part: CompactMesh) -> UrsinaCompactArrays | None:
    """A packed part mirrored into Ursina's axes, or None when it has no faces."""
    if part.face_count == 0:
        return None
    vertices = part.vertices.copy()
    vertices["position"][:, 0] = PACKED_SPAN - vertices["position"][:, 0]
    indices = np.ascontiguousarray(part.indices.reshape(-1, 3)[:, ::-1]).reshape(-1)
    return UrsinaCompactArrays(vertices, indices, _position_bounds(vertices), part.facing)
