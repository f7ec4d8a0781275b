"""Drawing dropped items as Beta's `RenderItem` does: a small spinning cube of a block item, or a
flat picture of any other item turned to face the camera, bobbing.

Owns: where an item's model sits in a frame (`item_placement`, pure: its centre, turn, size and
whether it is a block's cube or a picture) and `DroppedItemsView`, one node per item key, placed
every frame from the views it is given, removed for keys no longer shown (picked up, despawned).
Does not own: where an item is and how it spins and bobs (`game.rules.dropped_items.item_view`
blends and times it; this module takes plain poses), a block's cube (`entity_view.block_cube_arrays`,
the mesher's faces) or an item's picture (the window passes `game.window.ui.item_icons`' pictures).

Beta's look: a block item is its block scaled by 0.25 (`glScalef(0.25F, ...)`), centred on the
item's position raised by the bob, turned by the spin; any other item is its 16 x 16 picture
0.5 blocks wide (`glScalef(0.5F, ...)` of a unit quad from -0.5 to 0.5, -0.25 to 0.75 high), always
facing the camera. Beta draws 2 to 4 copies of a block for larger stacks; Boxel draws one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from panda3d.core import NodePath, TransparencyAttrib
from ursina import Entity, Mesh

from . import space
from .chunk_renderer import load_atlas_texture
from .entity_view import textured_cube

BLOCK_SCALE = 0.25
"""[1] A block item is its block at a quarter size."""
SPRITE_WIDTH = 0.5
"""[blocks] Any other item's picture is half a block wide."""
SPRITE_LIFT = 0.125
"""[blocks] ... with its centre this far above the item's position (Beta's quad spans -0.25..0.75 x 0.5)."""
ITEM_HALF = 0.125
"""[blocks] An item's position is its 0.25 box's centre."""


class ItemPose(Protocol):
    """What `DroppedItemsView.show` reads of one item (e.g. `game.rules.dropped_items.ItemView`)."""

    @property
    def key(self) -> int: ...

    @property
    def item(self) -> str: ...

    @property
    def block(self) -> int | None:
        """The id of the block the item places (drawn as its cube); None: drawn as its picture."""

    @property
    def box(self) -> Sequence[float]: ...

    @property
    def spin(self) -> float: ...

    @property
    def bob(self) -> float: ...


@dataclass(frozen=True, slots=True)
class ItemPlacement:
    """Where one item's model goes in a frame (physics coordinates)."""

    centre: tuple[float, float, float]
    spin: float
    """[degrees] The cube's turn about the vertical (a picture faces the camera instead)."""
    block: int | None
    """The block id whose cube is drawn; None: the item's picture."""


def item_placement(pose: ItemPose) -> ItemPlacement:
    """Where `pose`'s model goes: a block item's cube centred on the item raised by its bob, or its
    picture's centre SPRITE_LIFT higher."""
    box = pose.box
    x, z = (box[0] + box[3]) / 2.0, (box[2] + box[5]) / 2.0
    y = box[1] + ITEM_HALF + pose.bob
    if pose.block is not None:
        return ItemPlacement((x, y, z), pose.spin, pose.block)
    return ItemPlacement((x, y + SPRITE_LIFT, z), pose.spin, None)


Picture = Callable[[str], "tuple[object, tuple[float, float, float, float]] | None"]
"""An item's picture: (its Ursina texture, the uv rect (u_min, v_min, u_max, v_max) of its icon
there), or None (drawn blank); the window passes `game.window.ui.item_icons`' pictures."""


class DroppedItemsView(Entity):
    """Every dropped item on screen; call `show` once per frame with the frame's item views.
    `picture` gives a non-block item's picture (`Picture`)."""

    def __init__(self, picture: Picture, **kwargs) -> None:
        super().__init__(**kwargs)
        self._picture_of = picture
        self.dropped: dict[int, NodePath] = {}
        """Item key -> its node (a cube or a picture instanced under it)."""
        self._models: dict[object, Mesh] = {}
        """Block id or item name -> its model, kept off the scene graph."""
        self._atlas = None
        self._root = self.attachNewNode("dropped items")

    def show(self, poses: Sequence[ItemPose]) -> None:
        """Place the models of these poses; make nodes for new keys, remove those of keys not given."""
        for pose in poses:
            placement = item_placement(pose)
            node = self.dropped.get(pose.key)
            if node is None:
                node = self.dropped[pose.key] = self._root.attachNewNode(f"item {pose.key}")
                if placement.block is not None:
                    self._cube(placement.block).instance_to(node)
                    node.set_scale(BLOCK_SCALE)
                else:
                    self._picture(pose.item).instance_to(node)
                    node.set_billboard_point_eye()
            node.set_pos(*space.point(*placement.centre))
            if placement.block is not None:
                node.set_h(-placement.spin)  # Ursina's rotation_y is Panda3D's -heading
        if len(self.dropped) != len(poses):
            shown = {pose.key for pose in poses}
            for key in [k for k in self.dropped if k not in shown]:
                self.dropped.pop(key).remove_node()

    def _cube(self, block: int) -> Mesh:
        cube = self._models.get(block)
        if cube is None:
            if self._atlas is None:
                self._atlas = load_atlas_texture()
            cube = self._models[block] = textured_cube(block, self._atlas)
        return cube

    def _picture(self, item: str) -> Mesh:
        quad = self._models.get(item)
        if quad is None:
            source = self._picture_of(item)
            h = SPRITE_WIDTH / 2.0
            u0, v0, u1, v1 = source[1] if source is not None else (0.0, 0.0, 0.0, 0.0)
            quad = self._models[item] = Mesh(
                vertices=np.array([(-h, -h, 0.0), (h, -h, 0.0), (h, h, 0.0), (-h, h, 0.0)], dtype=np.float32),
                uvs=[(u0, v0), (u1, v0), (u1, v1), (u0, v1)], triangles=[0, 2, 1, 0, 3, 2], static=True)
            if source is not None:
                quad.set_texture(source[0]._texture, 1)
            quad.set_two_sided(True)
            quad.set_transparency(TransparencyAttrib.M_binary)  # the picture's transparent pixels
        return quad
