"""The cracks on the block being dug: Beta's 10 destroy stages drawn over its faces.

Owns: one small mesh covering the dug block's boxes (each grown by CRACK_OFFSET, so the cracks sit
just outside the faces and never fight them for depth), textured with the stage's tile of
`assets/textures/cracks.png` (its square tiles side by side, one per stage: 10, Beta's), rebuilt only
when the block, its boxes or the stage change.
Does not own: the stage (`Session.mining_progress`, `game.rules.mining`), the crack pictures
(`assets/make_cracks.py` paints them), the block's boxes (`game.rules.targeting.Target.boxes`) or the
physics -> Ursina mapping (`game.window.render.space`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from panda3d.core import TransparencyAttrib
from ursina import Entity, Mesh, Texture

from . import space

CRACKS_PATH = Path(__file__).resolve().parents[3] / "assets" / "textures" / "cracks.png"
CRACK_OFFSET = 0.002
"""[blocks] How far outside the block's faces the cracks are drawn: well above depth-buffer error
at reach (5 blocks), far below a pixel."""

# Per axis: the two other axes a face spans (u along the first, v along the second).
_SPANS = {0: (2, 1), 1: (0, 2), 2: (0, 1)}


def crack_arrays(boxes: Sequence[Sequence[float]], stage: int, stages: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(positions (physics, flat float32), uvs (flat float32), triangles (flat uint32)) of the six
    faces of every box grown by CRACK_OFFSET, with UVs inside stage `stage`'s tile of a picture of
    `stages` tiles: each face shows the part of the tile its box covers in its cell, as the block's
    own texture does. ValueError for a stage outside 0..stages - 1 or a box that is not six numbers."""
    if isinstance(stage, bool) or not isinstance(stage, (int, np.integer)) or not 0 <= stage < stages:
        raise ValueError(f"a crack stage is 0..{stages - 1}, got {stage!r}")
    positions, uvs, triangles = [], [], []
    for box in boxes:
        if len(box) != 6:
            raise ValueError(f"a box is six numbers (min x, y, z, max x, y, z), got {box!r}")
        low = np.array(box[:3], dtype=np.float64)
        high = np.array(box[3:], dtype=np.float64)
        cell = np.floor(low)
        grown_low, grown_high = low - CRACK_OFFSET, high + CRACK_OFFSET
        for axis in range(3):
            u_axis, v_axis = _SPANS[axis]
            for plane in (grown_low[axis], grown_high[axis]):
                first = len(positions)
                for du, dv in ((0, 0), (1, 0), (1, 1), (0, 1)):
                    corner = np.empty(3)
                    corner[axis] = plane
                    corner[u_axis] = (grown_low, grown_high)[du][u_axis]
                    corner[v_axis] = (grown_low, grown_high)[dv][v_axis]
                    positions.append(corner)
                    u = np.clip((low, high)[du][u_axis] - cell[u_axis], 0.0, 1.0)
                    v = np.clip((low, high)[dv][v_axis] - cell[v_axis], 0.0, 1.0)
                    uvs.append(((stage + u) / stages, v))
                triangles += [first, first + 1, first + 2, first, first + 2, first + 3]
    return (np.array(positions, dtype=np.float32).ravel(), np.array(uvs, dtype=np.float32).ravel(),
            np.array(triangles, dtype=np.uint32))


class CrackOverlay(Entity):
    """The dug block's cracks; hidden until `show` is given a stage."""

    def __init__(self, path: Path = CRACKS_PATH, **kwargs) -> None:
        super().__init__(**kwargs)
        if not path.is_file():
            raise FileNotFoundError(f"crack textures {path} are missing: run python -m assets.make_cracks")
        self.crack_texture = Texture(path, filtering=None)
        self.stages = self.crack_texture.width // self.crack_texture.height
        """Tiles in the picture: one per destroy stage."""
        self.shown: tuple[tuple[tuple[float, ...], ...], int] | None = None
        """(boxes, stage) drawn now; None while hidden."""
        self._cracks: Entity | None = None

    def show(self, boxes: Sequence[Sequence[float]], stage: int | None) -> None:
        """Draw stage `stage` on these boxes (physics coordinates: the dug block's `Target.boxes`);
        None (or no boxes) hides the cracks."""
        wanted = None if stage is None or not boxes else (tuple(tuple(float(v) for v in b) for b in boxes), stage)
        if wanted == self.shown:
            return
        if self._cracks is not None:
            self._cracks.model = None
            self._cracks.enabled = False
        self.shown = wanted
        if wanted is None:
            return
        positions, uvs, triangles = crack_arrays(*wanted, self.stages)
        mesh = Mesh(vertices=space.positions(positions).reshape(-1, 3).tolist(), uvs=uvs.reshape(-1, 2).tolist(),
                    triangles=triangles.tolist(), static=True)
        if self._cracks is None:
            self._cracks = Entity(parent=self, unlit=True, double_sided=True)
        self._cracks.model = mesh
        self._cracks.texture = self.crack_texture
        self._cracks.enabled = True
        self._cracks.set_transparency(TransparencyAttrib.M_alpha)
        self._cracks.set_depth_write(False)  # the block behind stays in the depth buffer alone
        self._cracks.set_bin("fixed", 5)  # after the blocks, so their faces are there to draw over

    def hide(self) -> None:
        """No cracks (nothing dug)."""
        self.show((), None)
