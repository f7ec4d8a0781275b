"""Wireframe boxes: any number of physics AABBs drawn as one Ursina line mesh built from numpy arrays.

Owns: `box_line_arrays` (the 8 corners and 12 edges of each box as flat float32 / uint32
arrays) and `BoxLines`, an Entity whose single `Mesh(mode='line')` shows a set of boxes in one
colour and is rebuilt whenever the set changes.
Does not own: which boxes to show (the F3 overlay decides) or the physics -> Ursina mapping
(`game.render.space`, applied here to every box).

Ursina's 'line' mode makes one continuous line strip of all indices, which would join the
boxes together; `BoxLines` swaps that primitive for separate segments (`GeomLines`), so one
draw call shows every edge of every box and nothing between them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import panda3d.core as p3d
from ursina import Entity, Mesh

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


def box_line_arrays(ursina_boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(N, 6) boxes in Ursina coordinates -> (positions, indices): 8 corners (float32, 3 each) and
    12 edges (uint32 index pairs) per box."""
    b = np.asarray(ursina_boxes, dtype=np.float64).reshape(-1, 6)
    axis = np.arange(3)
    corners = b[:, axis[None, :] + 3 * _CORNER_PICKS]  # (N, 8, 3)
    indices = (np.arange(len(b), dtype=np.uint32)[:, None, None] * 8 + _EDGES[None, :, :]).ravel()
    return corners.astype(np.float32).ravel(), indices.astype(np.uint32)


def _as_separate_segments(mesh: Mesh, indices: np.ndarray) -> None:
    """Replace the line strip Ursina built with separate segments over the same vertices."""
    geom = mesh.geomNode.modify_geom(0)
    lines = p3d.GeomLines(p3d.Geom.UH_dynamic)
    lines.set_index_type(p3d.GeomEnums.NT_uint32)
    handle = lines.modify_vertices()
    handle.unclean_set_num_rows(len(indices))
    memoryview(handle).cast("B").cast("I")[:] = memoryview(indices).cast("B").cast("I")
    geom.set_primitive(0, lines)


class BoxLines(Entity):
    """A set of wireframe boxes in one colour; `show(boxes)` replaces the set."""

    def __init__(self, color, grow: float = LINE_OFFSET, thickness: float = LINE_THICKNESS, **kwargs) -> None:
        """`grow` [blocks] is added to every side of each drawn box: +LINE_OFFSET for solid
        blocks, -LINE_OFFSET for bodies, which stand in the free space next to blocks."""
        super().__init__(color=color, **kwargs)
        self.grow = grow
        self.thickness = thickness
        self.box_count = 0

    def show(self, physics_boxes: Sequence[Sequence[float]] | np.ndarray) -> None:
        """Draw exactly these boxes (physics coordinates, (min x, y, z, max x, y, z) each)."""
        b = np.asarray(physics_boxes, dtype=np.float64).reshape(-1, 6)
        self.box_count = len(b)
        if not len(b):
            self.model = None
            return
        grown = b + np.array([-1, -1, -1, 1, 1, 1]) * self.grow
        positions, indices = box_line_arrays(space.boxes(grown))
        mesh = Mesh(vertices=positions, triangles=indices, mode="line", thickness=self.thickness, static=False)
        _as_separate_segments(mesh, indices)
        self.model = mesh
