"""Drawing each kind of thing once behind the loading screen, so that its first draw in play is not a slow frame.

Software OpenGL (llvmpipe, where the tests and benchmarks draw) compiles machine code with LLVM for each
new combination of render state it meets (shader, blending, alpha test, texture, colour scale, vertex
layout) at the first draw that uses it, and Panda3D uploads a node's vertices and compiles its GLSL at its
first draw too. Drawn first in play, each made a slow frame (2-core development machine, 160x90, an empty
Mesa shader cache; with the cache of an earlier start only the first frame stayed slow, ~150 ms): the
world's first frame 330-480 ms, the next (the sun, the held block in dim light) 180-480 ms, the first water
110-170 ms, the held block in full light 120-145 ms, a mob in the opaque bin 115-170 ms, the target's
outline ~280 ms.

Owns: `FirstDraws`, samples of what play shows besides the scene in view: a section of each draw pass
(opaque, cut-out, blended: the first view may hold no water), the sun and moon (moved in view), the hand
(bare arm, an opaque and a see-through block, each at full and dimmed light), a
boxling, a creature (plain and hurt-tinted), a projectile, an arrow, falling blocks (opaque and
see-through), dropped items (a block and a picture), the target outline, the cracks and break particles;
each made by the class that draws it in play (so every render state is the real one), placed in front of
the camera, and all destroyed again by `destroy` (so play keeps none of them).
Does not own: when the samples are drawn (`game.window.app.Game`: the last loading frame, with the world
drawn behind the still opaque loading screen), or the classes that draw them.
Not sampled (rarer, drawn first in play still): the other players' models and name tags, the player's own
model (F5), the view from inside water or lava (its fog), the screens over the game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from ursina import camera, destroy

from ..rules.view_bobbing import ARM_BOX, empty_hand_matrix, held_block_matrix
from ..world.blocks import TRANSPARENT, block_id
from ..world.meshing import PADDED_SIZE, SECTION_SIZE
from .render import space
from .render.break_particles import BreakParticles
from .render.chunk_renderer import ChunkRenderer
from .render.crack_overlay import CrackOverlay
from .render.creature_models import KINDS
from .render.entity_view import EntityView
from .render.hand_view import HandView
from .render.item_models import DroppedItemsView
from .render.sky import SUN_DISTANCE, Sky
from .ui.target_outline import TargetOutline

FIRST_DRAW_FRAMES = 1
"""Loading frames that draw the world and the samples before the loading screen closes: one meets every
render state."""
SAMPLE_DISTANCE = 3.0
"""[blocks] The samples stand this far in front of the camera: inside its view, so none is culled."""
OPAQUE_BLOCK = "stone"
SEE_THROUGH_BLOCK = "glass"
"""A block of each way the hand, falling blocks and dropped items draw one: in one pass, or blended
(`TRANSPARENT`)."""
DIM_LIGHT = 0.5
"""The hand's brightness in a dim place: any value under 1 is the same render state (a colour scale)."""
PICTURE_ITEM = "stick"
"""A dropped item drawn as its picture (a billboard with an alpha test), not as a block."""
SAMPLE_BLOCKS = (OPAQUE_BLOCK, "leaves", "water", SEE_THROUGH_BLOCK)
"""The sample section's blocks: each of the section passes (opaque, cut-out, blended: glass and water)."""
SAMPLE_SPACING = 3
"""[blocks] Between the sample section's blocks."""
SAMPLE_GRID = (SECTION_SIZE + SAMPLE_SPACING - 1) // SAMPLE_SPACING
"""Sample blocks along each axis of the section."""
HURT_TINT = 0.5
"""[0..1] How far into its red flash the hurt creature sample is."""


@dataclass(frozen=True)
class _Pose:
    """What the entity and item views read of a mob, projectile, arrow, falling block or dropped item."""

    key: int
    box: tuple[float, ...]
    yaw: float = 0.0
    pitch: float = 0.0
    kind: str = "boxling"
    hurt: float = 0.0
    block: int | None = None
    item: str = ""
    spin: float = 0.0
    bob: float = 0.0


def sample_section() -> np.ndarray:
    """A padded section (block ids, PADDED_SIZE^3) of every draw pass: SAMPLE_BLOCKS in a sparse grid,
    every block with air around it, so each shows all its faces."""
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    ids = [block_id(name) for name in SAMPLE_BLOCKS]
    for index, cell in enumerate(np.argwhere(np.ones((SAMPLE_GRID,) * 3, dtype=bool))):
        x, y, z = 1 + cell * SAMPLE_SPACING
        padded[x, y, z] = ids[index % len(ids)]
    return padded


def _box(centre: np.ndarray, half: float, offset: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> tuple[float, ...]:
    x, y, z = (float(c + o) for c, o in zip(centre, offset))
    return (x - half, y - half, z - half, x + half, y + half, z + half)


class FirstDraws:
    """The samples, shown from construction until `destroy`, around the camera as it is. `renderer`: the
    chunk renderer (its atlas, section shaders and sections' node); `picture`: a non-block item's picture
    (`game.window.ui.item_icons.item_picture`); `sky`: the sky whose sun and moon are moved in view meanwhile
    (None: the lab's, which has none); `seed`: the sample particles' random pieces."""

    def __init__(self, renderer: ChunkRenderer, picture: Callable, sky: Sky | None = None, seed: int = 0) -> None:
        atlas = renderer.atlas_texture
        eye, forward = np.asarray(camera.world_position), np.asarray(camera.forward)
        # physics coordinates of the point ahead (the axis mirror is its own inverse)
        centre = np.asarray(space.point(*(eye + forward * SAMPLE_DISTANCE)), dtype=np.float64)
        key = tuple(int(v) // SECTION_SIZE for v in np.floor(space.point(*eye)))
        self.sections = renderer.sample_parts(sample_section(), key)  # around the eye: some of it in view
        self._sky = sky
        self._bodies = None
        if sky is not None:  # the sun and moon in view (the first view may face away from both); put back by `destroy`
            self._bodies = [(body, body.position) for body in (sky.sun, sky.moon)]
            for body in (sky.sun, sky.moon):
                body.position = tuple(eye + forward * SUN_DISTANCE)
        self.hands = []
        for block in (None, OPAQUE_BLOCK, SEE_THROUGH_BLOCK):
            place = empty_hand_matrix if block is None else held_block_matrix
            for brightness in (1.0, DIM_LIGHT):
                hand = HandView(ARM_BOX, texture=atlas)
                hand.show(block, place(0.0, 1.0), brightness=brightness)
                self.hands.append(hand)
        self.entities = EntityView(texture=atlas)
        opaque, see_through = block_id(OPAQUE_BLOCK), block_id(SEE_THROUGH_BLOCK)
        assert not TRANSPARENT[opaque] and TRANSPARENT[see_through], "the sample blocks must draw both ways"
        self.entities.show(
            [_Pose(0, _box(centre, 0.45, (0.0, -0.5, 0.0))),
             _Pose(1, _box(centre, 0.45, (1.0, -0.5, 0.0)), kind=KINDS[0]),
             _Pose(2, _box(centre, 0.45, (-1.0, -0.5, 0.0)), kind=KINDS[0], hurt=HURT_TINT)],
            [_Pose(3, _box(centre, 0.125, (0.0, 0.5, 0.0)))],
            [_Pose(4, _box(centre, 0.49, (0.0, 0.0, 1.0)), block=opaque),
             _Pose(5, _box(centre, 0.49, (0.0, 0.0, -1.0)), block=see_through)])
        self.entities.show_arrows([_Pose(6, _box(centre, 0.1, (0.5, 0.5, 0.0)))])
        self.items = DroppedItemsView(picture)
        self.items.show([_Pose(7, _box(centre, 0.125, (0.5, 0.0, 0.5)), item=OPAQUE_BLOCK, block=opaque),
                         _Pose(8, _box(centre, 0.125, (-0.5, 0.0, 0.5)), item=PICTURE_ITEM)])
        cell = np.floor(centre).astype(int)
        block_box = (*(float(v) for v in cell), *(float(v + 1) for v in cell))
        self.outline = TargetOutline()
        self.outline.show([block_box])
        self.cracks = CrackOverlay()
        self.cracks.show([block_box], 0)
        self.particles = BreakParticles(atlas, seed=seed)
        self.particles.burst(tuple(int(v) for v in cell), OPAQUE_BLOCK)
        self.particles.show(1.0)

    def destroy(self) -> None:
        """Remove every sample (their display regions, nodes and entities) and put the sun and moon back; a
        second call does nothing."""
        for hand in self.hands:
            hand.destroy()
        self.hands = []
        if self.entities is None:
            return
        for entity in self.sections:
            destroy(entity)
        self.sections = []
        if self._bodies is not None and self._sky.sun is not None:
            for body, position in self._bodies:
                body.position = position
        self.entities.show([], [], [])
        self.entities.show_arrows([])
        self.items.show([])
        for part in (self.entities, self.items, self.outline.lines, self.cracks, self.particles):
            destroy(part)
        self.entities = self.items = self.outline = self.cracks = self.particles = None
