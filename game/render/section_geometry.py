"""A section part's Panda3D geometry: one vertex buffer, one node per face group.

Owns: turning flat vertex arrays (already in Ursina's axes, faces in group order with the count of
each group: `chunk_renderer.UrsinaMeshArrays`) into a NodePath whose children are one GeomNode per
non-empty face group, all drawing from one shared, static GeomVertexData (positions, RGBA colours
and UVs as float32 columns, as `ursina.Mesh` lays them out, so the section shader reads the same
inputs). Copies go straight from numpy into Panda3D's buffers. Does not own: which groups are shown
(`chunk_renderer`, by `face_groups.group_visible`), the texture, shader or transparency of the part.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from panda3d.core import Geom, GeomEnums, GeomNode, GeomTriangles, GeomVertexArrayFormat, GeomVertexData
from panda3d.core import GeomVertexFormat, NodePath

INDICES_PER_FACE = 6
_FORMAT: GeomVertexFormat | None = None


def vertex_format() -> GeomVertexFormat:
    """The registered format: 'vertex' (3 x float32), 'color' (4 x float32), 'texcoord' (2 x float32),
    each its own array."""
    global _FORMAT
    if _FORMAT is None:
        layout = GeomVertexFormat()
        layout.add_array(GeomVertexArrayFormat("vertex", 3, Geom.NT_float32, Geom.C_point))
        layout.add_array(GeomVertexArrayFormat("color", 4, Geom.NT_float32, Geom.C_color))
        layout.add_array(GeomVertexArrayFormat("texcoord", 2, Geom.NT_float32, Geom.C_texcoord))
        _FORMAT = GeomVertexFormat.register_format(layout)
    return _FORMAT


def _fill(handle, values: np.ndarray, dtype: str) -> None:
    """Copy `values` into a Panda3D array handle already sized for them."""
    memoryview(handle).cast("B").cast(dtype)[:] = memoryview(np.ascontiguousarray(values)).cast("B").cast(dtype)


def part_node(positions: np.ndarray, colors: np.ndarray, uvs: np.ndarray, triangles: np.ndarray,
              group_face_counts: Sequence[int], name: str = "section part") -> tuple[NodePath, dict[int, NodePath]]:
    """A NodePath holding the faces in one node per group: (root, {group: its node}) for the groups
    with faces. `positions` (3 float32 per vertex), `colors` (4), `uvs` (2) and `triangles` (uint32,
    6 per face) are flat; the faces come in group order, `group_face_counts[g]` of group g."""
    vertices = len(positions) // 3
    data = GeomVertexData(name, vertex_format(), Geom.UH_static)
    data.unclean_set_num_rows(vertices)
    for index, (values, dtype) in enumerate(((positions, "f"), (colors, "f"), (uvs, "f"))):
        _fill(data.modify_array(index), np.asarray(values, dtype=np.float32), dtype)
    root = NodePath(name)
    groups = {}
    first_face = 0
    indices = np.asarray(triangles, dtype=np.uint32)
    for group, count in enumerate(group_face_counts):
        if not count:
            continue
        triangles_of_group = GeomTriangles(Geom.UH_static)
        triangles_of_group.set_index_type(GeomEnums.NT_uint32)
        rows = triangles_of_group.modify_vertices()
        rows.unclean_set_num_rows(count * INDICES_PER_FACE)
        _fill(rows, indices[first_face * INDICES_PER_FACE:(first_face + count) * INDICES_PER_FACE], "I")
        geom = Geom(data)
        geom.add_primitive(triangles_of_group)
        node = GeomNode(f"face group {group}")
        node.add_geom(geom)
        groups[group] = root.attach_new_node(node)
        first_face += count
    return root, groups
