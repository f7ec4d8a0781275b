"""The player's own model, seen in the F5 third-person view: a blocky humanoid of Beta's proportions.

Owns: the model's look (head with hair and eyes, shirt, sleeves and hands, trousers and shoes: a
few coloured boxes per limb, `box_model_arrays`), its limbs on pivots (neck, shoulders, hips) and
`PlayerModel.show`, which places it on the player's box each frame, turns it to the yaw, tilts the
head to the pitch and swings arms and legs as Beta's ModelBiped does with the walk cycle, with the
held block (its cube from the atlas, `entity_view.block_cube_arrays`) in the right fist as Beta's
RenderPlayer holds it, and `PlayerModel.destroy` when its world is left.
Does not own: where the player is, the walk cycle's values or what is held (the caller hands in the
blended box, angles, (phase, size): `game.rules.view_bobbing.ViewMotion.limbs`, and the block's name; this
module imports no game logic), when the model is shown (third person only), the atlas
(`chunk_renderer.load_atlas_texture`).

Sizes are Beta's in pixels (1/16 block) times RenderPlayer's 0.9375 scale: legs and arms 4 x 12 x
4, body 8 x 12 x 4, head 8 x 8 x 8, 1.875 blocks in all. Built in Ursina's own axes about the
feet centre, +z where the player faces, as `entity_view`'s models.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from panda3d.core import TransparencyAttrib
from ursina import Entity, Mesh, Texture, destroy

from ...world.blocks import TRANSPARENT, block_id

from . import space
from .chunk_renderer import load_atlas_texture
from .entity_view import Part, block_cube_arrays, box_model_arrays

PIXEL_BLOCKS = 0.9375 / 16.0
"""[blocks per pixel] Beta's model pixel (1/16) times RenderPlayer's scale (0.9375F)."""
LIMB_SWING_RATE = 0.6662
"""[radians per walk phase] ModelBiped: the limbs' angle is cos(phase x 0.6662)."""
LEG_SWING = 1.4
"""[radians] ModelBiped: a leg swings cos(...) x 1.4 x size."""
ARM_SWING = 1.0
"""[radians] ModelBiped: an arm swings cos(...) x 2 x size x 0.5."""
HIDDEN_INSIDE = 0.2
"""[pixels] Overlays (hair, eyes, sleeves) stand this far out of the box they cover, so the two
faces never fight for the same depth."""

SKIN = (0.93, 0.72, 0.56)
HAIR = (0.30, 0.19, 0.10)
EYE_WHITE = (0.97, 0.97, 0.97)
IRIS = (0.25, 0.30, 0.75)
SHIRT = (0.0, 0.66, 0.66)
TROUSERS = (0.24, 0.24, 0.60)
SHOES = (0.32, 0.32, 0.34)

o = HIDDEN_INSIDE
HEAD_PARTS = (  # about the neck
    Part((-4.0, 0.0, -4.0, 4.0, 8.0, 4.0), SKIN),
    Part((-4 - o, 6.0, -4 - o, 4 + o, 8 + o, 4 + o), HAIR),  # the crown
    Part((-4 - o, 2.0, -4 - o, 4 + o, 8 + o, -3.0), HAIR),  # the back of the head
    Part((-3.0, 3.0, 4.0, -1.0, 4.0, 4 + o), EYE_WHITE),
    Part((1.0, 3.0, 4.0, 3.0, 4.0, 4 + o), EYE_WHITE),
    Part((-2.0, 3.0, 4.0, -1.0, 4.0, 4 + 2 * o), IRIS),
    Part((1.0, 3.0, 4.0, 2.0, 4.0, 4 + 2 * o), IRIS),
)
BODY_PARTS = (Part((-4.0, 12.0, -2.0, 4.0, 24.0, 2.0), SHIRT),)
ARM_PARTS = (  # about the shoulder
    Part((-2.0, -10.0, -2.0, 2.0, -4.0, 2.0), SKIN),
    Part((-2.0, -4.0, -2.0, 2.0, 2.0, 2.0), SHIRT),
)
LEG_PARTS = (  # about the hip
    Part((-2.0, -10.0, -2.0, 2.0, 0.0, 2.0), TROUSERS),
    Part((-2 - o, -12.0, -2 - o, 2 + o, -10.0, 2 + o), SHOES),
)
del o
HELD_BLOCK_PIXELS = 6.0
"""[pixels] Side of the block held in the right hand: Beta's RenderPlayer scales a held block to 0.375."""
HELD_BLOCK_AT = (1.0, -10.0, 4.0)
"""[pixels] The held block's centre about the right shoulder: Beta's arm postRender and block offsets
(translate -1, 7, 1 then 0, 3, -5 pixels, in its y-down, -z-forward axes): at the fist, in front,
a pixel outward."""
HOLDING_ARM = 1
"""Which of SHOULDERS holds the block: Ursina's axes are left-handed, so a model facing +z has its
right side at +x (seen from behind, the right arm is on the right of the screen)."""
HELD_BLOCK_TURN = (20.0, 45.0, 0.0)
"""[degrees] Beta turns a held block 20 degrees about x, then 45 about y: a corner toward the viewer."""
NECK = (0.0, 24.0, 0.0)
SHOULDERS = ((-6.0, 22.0, 0.0), (6.0, 22.0, 0.0))
HIPS = ((-2.0, 12.0, 0.0), (2.0, 12.0, 0.0))


def limb_angles(phase: float, size: float) -> tuple[float, float, float, float]:
    """[degrees] ModelBiped's (right arm, left arm, right leg, left leg) swing about the x axis for
    the walk cycle's `phase` and `size` (0 standing: every limb straight down)."""
    swing = phase * LIMB_SWING_RATE
    forward, back = math.cos(swing), math.cos(swing + math.pi)
    return tuple(math.degrees(v) for v in (back * ARM_SWING * size, forward * ARM_SWING * size,
                                           forward * LEG_SWING * size, back * LEG_SWING * size))


def _part_entity(parent: Entity, parts: Sequence[Part], pivot: tuple[float, float, float]) -> Entity:
    positions, colours, triangles = box_model_arrays(parts)
    entity = Entity(parent=parent, position=pivot,
                    model=Mesh(vertices=positions, colors=colours, triangles=triangles, static=True))
    entity.model.set_transparency(TransparencyAttrib.M_none)
    return entity


class PlayerModel(Entity):
    """The player's model; `show` it each frame in third person, `hide_model` otherwise.

    `texture`: the block atlas for the held block (the chunk renderer's, so it is loaded once); None
    loads it when a block is first held."""

    def __init__(self, texture: Texture | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self._atlas = texture
        self.figure = Entity(parent=self, scale=PIXEL_BLOCKS)
        self.head = _part_entity(self.figure, HEAD_PARTS, NECK)
        self.body = _part_entity(self.figure, BODY_PARTS, (0.0, 0.0, 0.0))
        self.arms = tuple(_part_entity(self.figure, ARM_PARTS, pivot) for pivot in SHOULDERS)
        self.legs = tuple(_part_entity(self.figure, LEG_PARTS, pivot) for pivot in HIPS)
        self.hand_hold = Entity(parent=self.arms[HOLDING_ARM], position=HELD_BLOCK_AT, rotation=HELD_BLOCK_TURN,
                                scale=HELD_BLOCK_PIXELS)
        """Where the held block's cube hangs, at the right fist."""
        self.held: str | None = None
        """The block in the model's right hand (None: empty)."""
        self._held_node = None
        self._cubes: dict[str, Mesh] = {}
        """Block name -> its cube mesh, kept off the scene graph while not held."""
        self.enabled = False
        self.destroyed = False
        """Whether `destroy` has run."""

    def show(self, box: Sequence[float], yaw: float, pitch: float, limbs: tuple[float, float],
             held: str | None = None) -> None:
        """Stand the model on `box` (physics coordinates, min x, y, z, max x, y, z), facing `yaw`,
        the head tilted by `pitch` [degrees, positive down], the limbs at walk cycle `limbs` (phase, size),
        block `held` in the right hand (None: empty; ValueError for a name the registry lacks)."""
        if not self.enabled:
            self.enabled = True
        if held != self.held:
            self.hold(held)
        self.position = space.point((box[0] + box[3]) / 2.0, box[1], (box[2] + box[5]) / 2.0)
        self.rotation_y = yaw
        self.head.rotation_x = pitch
        right_arm, left_arm, right_leg, left_leg = limb_angles(*limbs)
        self.arms[0].rotation_x, self.arms[1].rotation_x = right_arm, left_arm
        self.legs[0].rotation_x, self.legs[1].rotation_x = right_leg, left_leg

    def hold(self, block: str | None) -> None:
        """Put block `block` in the right hand (None: empty it); its cube is built the first time it is held.
        ValueError (nothing changes) for a name the registry lacks."""
        cube = None if block is None else self._cube(block)
        if self._held_node is not None:
            self._held_node.detach_node()
        self._held_node = cube
        if cube is not None:
            cube.reparent_to(self.hand_hold)
        self.held = block

    def _cube(self, block: str) -> Mesh:
        cube = self._cubes.get(block)
        if cube is not None:
            return cube
        ident = block_id(block)
        arrays = block_cube_arrays(ident)
        cube = Mesh(vertices=space.positions(arrays.positions), uvs=arrays.uvs, colors=arrays.colors,
                    triangles=space.triangles(arrays.indices), static=True)
        if self._atlas is None:
            self._atlas = load_atlas_texture()
        cube.set_texture(self._atlas._texture, 1)
        cube.set_transparency(TransparencyAttrib.M_dual if TRANSPARENT[ident] else TransparencyAttrib.M_none)
        self._cubes[block] = cube
        return cube

    def hide_model(self) -> None:
        if self.enabled:
            self.enabled = False

    def destroy(self) -> None:
        """Remove the model and its limbs from the scene when its world is left (the next world makes
        its own); a second call does nothing."""
        if self.destroyed:
            return
        self.destroyed = True
        self._held_node = None
        for cube in self._cubes.values():
            cube.remove_node()
        self._cubes.clear()
        destroy(self)
