"""The first-person hand: the held block (or the bare arm) drawn over the world in the lower right.

Owns: `HandView`, a display region of its own above the world and below the HUD (taken off the
window again by `destroy` when the world is left), with its depth buffer cleared and its own camera
and lens (Beta's hand projection: 70 degrees vertical, near plane 0.05), so the hand is never cut by
a wall and keeps its size whatever the FOV setting; the held block's mesh (the block's cube from the
atlas, `entity_view.block_cube_arrays`, built only when the held block changes) and the arm's (a
skin-coloured box).
Does not own: where the hand is (the caller hands it the view-space matrix each frame: Beta's
ItemRenderer transforms, computed in `game.rules.view_bobbing`; this module imports no game logic),
when it is shown (the caller says: not with the HUD hidden, in third person, dead or with the
inventory open), the atlas (`chunk_renderer.load_atlas_texture`).

View space: matrices come in OpenGL's view space, as Beta's code builds them (x right, y up,
looking along -z, column vectors). The hand's camera looks along Ursina's +z, so that space is
mirrored on z here: a node's matrix is S M S with S = diag(1, 1, -1), and meshes are stored
mirrored (their triangles reversed, so they stay front-facing).
"""

from __future__ import annotations

import math

import numpy as np
from panda3d.core import Camera, LMatrix4f, NodePath, PerspectiveLens, TransparencyAttrib
from ursina import Mesh, Texture, application, window

from ...world.blocks import TRANSPARENT, block_id

from .chunk_renderer import load_atlas_texture
from .entity_view import Part, block_cube_arrays, box_model_arrays

HAND_FOV_DEGREES = 70.0
"""[degrees] Vertical field of view of the hand's projection: Beta's (its FOV before any setting)."""
HAND_NEAR = 0.05
"""[blocks] The hand's near plane (Beta's 0.05F)."""
HAND_FAR = 10.0
"""[blocks] The hand's far plane: the hand is within a block of the eye."""
HAND_REGION_SORT = 10
"""Display regions draw by sort: the world's is 0, Ursina's UI 20; the hand goes between them, so
the hotbar is drawn over the hand, as in Minecraft."""
HAND_CAMERA_NAME = "hand camera"
"""The name of the hand's camera node: how a test finds the hand's display regions on the window."""
SKIN_RGB = (0.93, 0.72, 0.56)
"""The bare arm's colour (the default skin's)."""
MIRROR_Z = np.diag((1.0, 1.0, -1.0, 1.0))


def arm_part(box: tuple[float, ...]) -> Part:
    return Part(tuple(float(v) for v in box), SKIN_RGB)


class HandView:
    """The hand's display region and nodes; `show` once per frame."""

    def __init__(self, arm_box: tuple[float, ...], texture: Texture | None = None) -> None:
        """`arm_box`: the bare arm's box (min x, y, z, max x, y, z) in the units of the matrices
        `show` is given for it; `texture`: the block atlas (None loads it at the first block)."""
        self._atlas = texture
        base = application.base
        self.root = NodePath("hand")
        self.region = base.win.make_display_region()
        self.region.set_sort(HAND_REGION_SORT)
        self.region.set_clear_depth_active(True)
        self.lens = PerspectiveLens()
        self.lens.set_near_far(HAND_NEAR, HAND_FAR)
        self._aspect = None
        self.camera = self.root.attach_new_node(Camera(HAND_CAMERA_NAME, self.lens))
        self.region.set_camera(self.camera)
        self.holder = self.root.attach_new_node("held")
        """The node the held thing's mesh hangs under; its matrix moves it each frame."""
        self._meshes: dict[str | None, Mesh] = {}
        """Held block (None: the arm) -> its mesh, kept off the scene graph while not held."""
        self._arm_box = arm_box
        self.shown: str | None = None
        """The block drawn in the hand (None: the bare arm)."""
        self._current: NodePath | None = None
        self.brightness = 1.0
        """The colour scale last given to `show`."""
        self.visible = True
        self._set_visible(False)

    def show(self, block: str | None, matrix: np.ndarray | None, visible: bool = True,
             brightness: float = 1.0) -> None:
        """Draw `block` (None: the bare arm) with view-space `matrix` (4 x 4, column vectors), its
        colours times `brightness` (0..1: Beta lights the hand by the light where the player is);
        hidden when `visible` is False (the matrix is then not read). The mesh is built the first
        time each block is held. Nothing is drawn once `destroy` ran."""
        if self.region is None:
            return
        if not visible:
            self._set_visible(False)
            return
        self._set_visible(True)
        if brightness != self.brightness:
            self.brightness = brightness
            self.holder.set_color_scale(brightness, brightness, brightness, 1.0)
        if self._current is None or block != self.shown:
            if self._current is not None:
                self._current.detach_node()
            self._current = self._mesh(block)
            self._current.reparent_to(self.holder)
            self.shown = block
        aspect = window.aspect_ratio
        if aspect != self._aspect:
            self._aspect = aspect
            half = math.radians(HAND_FOV_DEGREES) / 2.0
            self.lens.set_fov(math.degrees(2.0 * math.atan(math.tan(half) * aspect)), HAND_FOV_DEGREES)
        mirrored = MIRROR_Z @ np.asarray(matrix, dtype=np.float64) @ MIRROR_Z
        self.holder.set_mat(LMatrix4f(*mirrored.T.ravel()))  # Panda's matrices act on row vectors

    def _set_visible(self, visible: bool) -> None:
        if visible != self.visible:
            self.visible = visible
            self.region.set_active(visible)

    def _mesh(self, block: str | None) -> NodePath:
        mesh = self._meshes.get(block)
        if mesh is not None:
            return mesh
        # Both builders wind for Ursina's axes; mirroring z turns a mesh inside out, so each
        # triangle is reversed as well.
        if block is None:
            positions, colours, triangles = box_model_arrays([arm_part(self._arm_box)])
            mesh = Mesh(vertices=_mirrored(positions), colors=colours, triangles=_reversed(triangles), static=True)
            mesh.set_transparency(TransparencyAttrib.M_none)
        else:
            ident = block_id(block)
            arrays = block_cube_arrays(ident)
            mesh = Mesh(vertices=_mirrored(arrays.positions), uvs=arrays.uvs, colors=arrays.colors,
                        triangles=_reversed(arrays.indices), static=True)
            if self._atlas is None:
                self._atlas = load_atlas_texture()
            mesh.set_texture(self._atlas._texture, 1)
            mesh.set_transparency(TransparencyAttrib.M_dual if TRANSPARENT[ident] else TransparencyAttrib.M_none)
        self._meshes[block] = mesh
        return mesh

    @property
    def destroyed(self) -> bool:
        """Whether `destroy` has run: the region is off the window and the nodes are gone."""
        return self.region is None

    def destroy(self) -> None:
        """Take the hand's display region off the window and free its nodes and meshes, when its world
        is left (the region is the window's, not the scene's: `scene.clear()` never reaches it, and a
        region left behind keeps drawing its last held block over every later view). After it, `show`
        does nothing; a second call does nothing."""
        if self.region is None:
            return
        application.base.win.remove_display_region(self.region)
        self.region = None
        self.visible = False
        self._current = None
        self._meshes.clear()
        self.root.remove_node()


def _reversed(indices: np.ndarray) -> np.ndarray:
    tri = np.array(indices, dtype=np.uint32).reshape(-1, 3)
    return np.ascontiguousarray(tri[:, ::-1]).ravel()


def _mirrored(positions: np.ndarray) -> np.ndarray:
    mapped = np.array(positions, dtype=np.float32).reshape(-1, 3)
    mapped[:, 2] = -mapped[:, 2]
    return mapped.ravel()
