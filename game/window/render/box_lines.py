"""Wireframe boxes and other line drawings: any number of line segments in one colour, drawn from one
Panda3D geometry whose arrays are rewritten in place when the drawing changes.

Owns: `box_line_arrays` (the 8 corners and 12 edges of each box as flat float32 / uint32
arrays), `SegmentLines`, an Entity showing a set of separate line segments in one colour from
one `GeomLines` (one draw call), and `BoxLines`, a `SegmentLines` that shows a set of boxes.
Does not own: which boxes to show (the F3 overlay and the target outline decide) or the physics
-> Ursina mapping (`game.window.render.space`, applied here to every box).

Per-frame cost: a drawing is made once (its vertex and index arrays, its geometry node) and
then only refilled: `show` with the same boxes as the last call does nothing, and a changed set
writes its numbers into the existing arrays (resized when the number of boxes changed); no
Ursina `Mesh` or Panda3D geometry is created after the first. The node's bounds are infinite,
so the culler never uses bounds computed for an earlier set.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import panda3d.core as p3d
from ursina import Entity

from . import space

LINE_THICKNESS = 2.0
"""[pixels] Width of the drawn edges: thin enough to read stacked boxes, thick enough to see."""
LINE_OFFSET = 0.003
"""[blocks] How far drawn edges sit off the true box: block boxes are drawn this much larger and
body boxes this much smaller (`BoxLines(grow=...)`), so an edge never lies on a block face it
touches. On the face it would share the face's depth and flicker in and out of view
(z-fighting), or vanish under the floor; 3/1000 block is below a pixel at any normal distance."""

# Corner i of a box takes max x if bit 0 of i is set, max y if bit 1, max z if bit 2.
_CORNER_PICKS = np.array([[i & 1, (i >> 1) & 1, (i >> 2) & 1] for i in range(8)])
# The 12 edges join corners that differ in exactly one bit.
_EDGES = np.array([(a, a | bit) for bit in (1, 2, 4) for a in range(8) if not a & bit], dtype=np.uint32)
_GROW_SIGNS = np.array([-1.0, -1.0, -1.0, 1.0, 1.0, 1.0])


def box_line_arrays(ursina_boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(N, 6) boxes in Ursina coordinates -> (positions, indices): 8 corners (float32, 3 each) and
    12 edges (uint32 index pairs) per box."""
    b = np.asarray(ursina_boxes, dtype=np.float64).reshape(-1, 6)
    axis = np.arange(3)
    corners = b[:, axis[None, :] + 3 * _CORNER_PICKS]  # (N, 8, 3)
    indices = (np.arange(len(b), dtype=np.uint32)[:, None, None] * 8 + _EDGES[None, :, :]).ravel()
    return corners.astype(np.float32).ravel(), indices.astype(np.uint32)


class SegmentLines(Entity):
    """Separate line segments in one colour, all drawn by one `GeomLines` whose arrays are refilled
    by `set_segments` (nothing is allocated while the vertex and segment counts stay the same)."""

    def __init__(self, color, thickness: float = LINE_THICKNESS, **kwargs) -> None:
        super().__init__(**kwargs)
        self._vertices = p3d.GeomVertexData("segment_lines", p3d.GeomVertexFormat.get_v3(), p3d.Geom.UH_dynamic)
        self._lines = p3d.GeomLines(p3d.Geom.UH_dynamic)
        self._lines.set_index_type(p3d.GeomEnums.NT_uint32)
        geom = p3d.Geom(self._vertices)
        geom.add_primitive(self._lines)
        node = p3d.GeomNode("segment_lines")
        node.add_geom(geom)
        node.set_bounds(p3d.OmniBoundingVolume())  # the vertices move in place: bounds would go stale
        node.set_final(True)
        self.model = p3d.NodePath(node)
        self.model.set_render_mode_thickness(thickness)
        self.model.set_transparency(p3d.TransparencyAttrib.M_alpha)  # one pass, not Ursina's two-pass M_dual
        self.color = color
        self._index_rows = 0

    @property
    def segment_count(self) -> int:
        """Segments drawn now."""
        return self._index_rows // 2

    def set_segments(self, positions: np.ndarray, indices: np.ndarray | None) -> None:
        """Draw segments between `positions` (flat float32 x, y, z in Ursina coordinates): each pair
        of `indices` (flat uint32) is one segment. `indices` None keeps the last ones (the same
        drawing moved: only the positions are written). ValueError for an odd index count or a
        position count that is not a multiple of 3."""
        positions = np.ascontiguousarray(positions, dtype=np.float32).ravel()
        if len(positions) % 3:
            raise ValueError(f"positions are x, y, z triples; got {len(positions)} numbers")
        if indices is not None:
            indices = np.ascontiguousarray(indices, dtype=np.uint32).ravel()
            if len(indices) % 2:
                raise ValueError(f"segment indices come in pairs; got {len(indices)}")
        rows = len(positions) // 3
        if self._vertices.get_num_rows() != rows:
            self._vertices.unclean_set_num_rows(rows)
        if rows:
            memoryview(self._vertices.modify_array(0)).cast("B").cast("f")[:] = memoryview(positions)
        if indices is not None:
            handle = self._lines.modify_vertices()
            if self._index_rows != len(indices):
                handle.unclean_set_num_rows(len(indices))
                self._index_rows = len(indices)
            if len(indices):
                memoryview(handle).cast("B").cast("I")[:] = memoryview(indices)


class BoxLines(SegmentLines):
    """A set of wireframe boxes in one colour; `show(boxes)` replaces the set."""

    def __init__(self, color, grow: float = LINE_OFFSET, thickness: float = LINE_THICKNESS, **kwargs) -> None:
        """`grow` [blocks] is added to every side of each drawn box: +LINE_OFFSET for solid
        blocks, -LINE_OFFSET for bodies, which stand in the free space next to blocks."""
        super().__init__(color, thickness, **kwargs)
        self.grow = grow
        self.thickness = thickness
        self.box_count = 0
        self._shown = np.zeros((0, 6))

    def show(self, physics_boxes: Sequence[Sequence[float]] | np.ndarray) -> None:
        """Draw exactly these boxes (physics coordinates, (min x, y, z, max x, y, z) each); nothing
        is rewritten when they are the boxes already shown."""
        b = np.asarray(physics_boxes, dtype=np.float64).reshape(-1, 6)
        if b.shape == self._shown.shape and np.array_equal(b, self._shown):
            return
        count_changed = len(b) != self.box_count
        self._shown = b.copy()
        self.box_count = len(b)
        positions, indices = box_line_arrays(space.boxes(b + _GROW_SIGNS * self.grow))
        self.set_segments(positions, indices if count_changed else None)
