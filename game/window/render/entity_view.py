"""Drawing mobs, creatures, arrows, projectiles and falling blocks: one small model per live one, placed every frame.

Owns: the boxling's look (a blocky creature of a few coloured boxes: legs, body, head with eyes
and a snout, a sprout on top, a stub of a tail), the projectile's look (a small cube), a falling
block's look (a unit cube of its block, `block_cube_arrays`), building their meshes
(`box_model_arrays`), and `EntityView`, which keeps one Entity per mob or projectile key and one
node per falling block key, moves (and turns) them to the blended views it is given each frame,
and destroys those of keys no longer shown (despawned, spent, landed). A mob whose `kind` is one of Beta's
creatures is drawn as that creature's model (`creature_figure.CreatureFigure`: textured, walking, flashing red
when hurt, falling over as it dies, then puffing into smoke); arrows (`show_arrows`) as a thin stick with
fletching.
Does not own: where anything is (the game blends the boxes between ticks and passes them in as
plain values: see `MobPose`, `ProjectilePose` and `FallingPose`; this module imports no game
logic), how a block looks (`game.world.meshing` meshes the cube exactly as it meshes the block in
a section, so it has the same atlas tiles and per-face shade), the atlas texture
(`game.window.render.chunk_renderer.load_atlas_texture`) or the physics -> Ursina mapping
(`game.window.render.space`, used for every position).

Models are built in Ursina's own axes, about the feet centre: +z is where the mob faces, so an
Entity turned by `rotation_y` = Minecraft yaw faces along that yaw (see `space`). The boxling is
symmetric left to right, so the X mirror between the two spaces does not show. Faces are
shaded by direction (top brightest, bottom darkest), as blocks are, so the shapes read without
lighting.

A falling block is drawn the way Beta's `RenderFallingSand` draws it: the whole unit cube of its
block, centred on its body's box (0.98 wide, so the cube is 0.01 larger on every side). Each block
id's cube is one static mesh, built the first time that block falls and shared by every falling
block of that id (Panda3D instances it under each one's node), so a frame only moves nodes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np
from panda3d.core import ClockObject, NodePath, TransparencyAttrib
from ursina import Entity, Mesh, Texture, destroy

from ...world.blocks import COUNT, TRANSPARENT
from ...world.meshing import FACE_SHADE, PADDED_SIZE, MeshArrays, mesh_section

from . import space
from .chunk_renderer import load_atlas_texture
from .creature_figure import CreatureFigure, FigureLibrary, SmokePuffs
from .creature_models import KINDS


class MobPose(Protocol):
    """What `EntityView.show` reads of one mob (e.g. `game.rules.mobs.MobView`)."""

    @property
    def key(self) -> int:
        """Unique among the mobs shown; the same mob keeps its key from frame to frame."""

    @property
    def box(self) -> Sequence[float]:
        """[blocks] Physics coordinates, indexed 0..5 = min x, y, z, max x, y, z (a `physics.AABB`
        or any 6-float sequence); the model stands on the box's bottom, centred on x and z."""

    @property
    def yaw(self) -> float:
        """[degrees] Where the mob faces (Minecraft's yaw)."""

    # The members below are read when present; a view without them is today's boxling, standing still.

    @property
    def kind(self) -> str:
        """"boxling" (the default) or one of `creature_models.KINDS`: which model draws it."""

    @property
    def limb_swing(self) -> float:
        """Beta's limbSwing: the walk cycle's phase (distance walked); the legs swing as cos(limb_swing x 0.6662)."""

    @property
    def limb_amount(self) -> float:
        """Beta's limbYaw, 0..1: how far the legs swing now (0 standing)."""

    @property
    def hurt(self) -> float:
        """0..1: 1 just hit, fading to 0 over 10 ticks; the model is tinted red by it."""

    @property
    def dying(self) -> float:
        """0 alive; 0..1 over Beta's 20 death ticks: the model falls onto its side, and puffs into smoke when gone."""

    @property
    def sheared(self) -> bool:
        """A sheep without its wool."""

    @property
    def fuse(self) -> float:
        """0..1: a creeper swelling and flashing white before it explodes."""

    @property
    def burning(self) -> bool:
        """On fire: the model glows orange."""


BOXLING = "boxling"
"""The kind of a mob view without `kind`: today's boxling model (a view lacking the other optional members
stands still, unhurt, alive, woolly, calm and unburnt)."""


class ArrowPose(Protocol):
    """What `EntityView.show_arrows` reads of one arrow in flight or stuck (e.g. the game's arrow views)."""

    @property
    def key(self) -> int:
        """Unique among the arrows shown; the same arrow keeps its key from frame to frame."""

    @property
    def box(self) -> Sequence[float]:
        """[blocks] Physics coordinates, indexed as `MobPose.box`; the arrow is centred on it."""

    @property
    def yaw(self) -> float:
        """[degrees] The direction it points, as Minecraft's yaw of a look (0: south, +z; 90: west, -x)."""

    @property
    def pitch(self) -> float:
        """[degrees] Its tilt, as Minecraft's pitch of a look (positive: the tip points down). For a velocity
        (vx, vy, vz): yaw = degrees(atan2(-vx, vz)), pitch = degrees(atan2(-vy, hypot(vx, vz)))."""


@dataclass(frozen=True, slots=True)
class LookArrowPose:
    """An `ArrowPose` from an arrow whose angles are Beta's `EntityArrow`'s (`game.rules.arrows.ArrowView`:
    yaw = atan2(vx, vz), pitch positive with the head up): both turned to a look's convention."""

    key: int
    box: Sequence[float]
    yaw: float
    pitch: float

    @classmethod
    def of(cls, view) -> LookArrowPose:
        return cls(view.key, view.box, -view.yaw, -view.pitch)


class ProjectilePose(Protocol):
    """What `EntityView.show` reads of one projectile (e.g. `game.rules.projectiles.ProjectileView`)."""

    @property
    def key(self) -> int:
        """Unique among the projectiles shown; the same projectile keeps its key from frame to frame."""

    @property
    def box(self) -> Sequence[float]:
        """[blocks] Physics coordinates, indexed as `MobPose.box`; the cube fills it."""


class FallingPose(Protocol):
    """What `EntityView.show` reads of one falling block (e.g. `game.rules.falling_blocks.FallingBlockView`)."""

    @property
    def key(self) -> int:
        """Unique among the falling blocks shown; the same block keeps its key from frame to frame."""

    @property
    def block(self) -> int:
        """Its block id: the cube is drawn with that block's tiles."""

    @property
    def box(self) -> Sequence[float]:
        """[blocks] Physics coordinates, indexed as `MobPose.box`; the unit cube is centred on it."""


@dataclass(frozen=True, slots=True)
class Part:
    """One coloured box of a model, in the model's axes [blocks]: (min x, y, z, max x, y, z)."""

    box: tuple[float, float, float, float, float, float]
    rgb: tuple[float, float, float]


CLAY = (0.87, 0.55, 0.30)
"""The boxling's body: a warm orange that stands out on grass, sand and stone alike."""
CLAY_DARK = (0.56, 0.32, 0.18)
CLAY_LIGHT = (0.96, 0.72, 0.46)
EYE_WHITE = (0.97, 0.96, 0.90)
PUPIL = (0.08, 0.07, 0.10)
SNOUT = (0.62, 0.30, 0.30)
SPROUT = (0.45, 0.80, 0.25)

BOXLING_PARTS = (
    # four stubby legs
    Part((-0.36, 0.0, -0.34, -0.16, 0.24, -0.14), CLAY_DARK),
    Part((0.16, 0.0, -0.34, 0.36, 0.24, -0.14), CLAY_DARK),
    Part((-0.36, 0.0, 0.08, -0.16, 0.24, 0.28), CLAY_DARK),
    Part((0.16, 0.0, 0.08, 0.36, 0.24, 0.28), CLAY_DARK),
    # the body, with a darker saddle along its back
    Part((-0.42, 0.22, -0.42, 0.42, 0.62, 0.22), CLAY),
    Part((-0.20, 0.62, -0.36, 0.20, 0.66, 0.10), CLAY_DARK),
    # the head, standing out at the front
    Part((-0.28, 0.38, 0.10, 0.28, 0.80, 0.45), CLAY_LIGHT),
    # eyes: white squares with pupils looking slightly inward
    Part((-0.22, 0.60, 0.45, -0.08, 0.74, 0.47), EYE_WHITE),
    Part((0.08, 0.60, 0.45, 0.22, 0.74, 0.47), EYE_WHITE),
    Part((-0.15, 0.61, 0.47, -0.09, 0.69, 0.48), PUPIL),
    Part((0.09, 0.61, 0.47, 0.15, 0.69, 0.48), PUPIL),
    # a snout below the eyes
    Part((-0.10, 0.44, 0.45, 0.10, 0.56, 0.52), SNOUT),
    # a sprout on the crown: a stem and one leaf
    Part((-0.025, 0.80, 0.22, 0.025, 0.86, 0.27), SPROUT),
    Part((-0.12, 0.86, 0.20, 0.04, 0.90, 0.30), SPROUT),
    # a stub of a tail
    Part((-0.06, 0.44, -0.48, 0.06, 0.56, -0.42), CLAY_DARK),
)
"""The boxling, 0.9 x 0.9 x 0.9 like its box (the snout and tail poke out by 0.07)."""

PROJECTILE_RGB = (0.93, 0.90, 0.80)
PROJECTILE_PARTS = (Part((-0.5, -0.5, -0.5, 0.5, 0.5, 0.5), PROJECTILE_RGB),)
"""A projectile: a unit cube about its centre; `EntityView` scales it to each projectile's box."""

SHAFT = (0.62, 0.48, 0.30)
"""An arrow's wooden shaft."""
ARROW_HEAD = (0.66, 0.66, 0.68)
FLETCHING = (0.94, 0.94, 0.92)
ARROW_LENGTH = 0.9
"""[blocks] Beta's RenderArrow: 16 texels long at its scale 0.05625."""
ARROW_PARTS = (
    Part((-0.025, -0.025, -ARROW_LENGTH / 2, 0.025, 0.025, ARROW_LENGTH / 2 - 0.1), SHAFT),
    Part((-0.05, -0.05, ARROW_LENGTH / 2 - 0.12, 0.05, 0.05, ARROW_LENGTH / 2), ARROW_HEAD),
    # two crossed vanes at the back
    Part((-0.11, -0.008, -ARROW_LENGTH / 2, 0.11, 0.008, -ARROW_LENGTH / 2 + 0.22), FLETCHING),
    Part((-0.008, -0.11, -ARROW_LENGTH / 2, 0.008, 0.11, -ARROW_LENGTH / 2 + 0.22), FLETCHING),
)
"""An arrow about its centre pointing +z (the head at the front, the fletching at the back), turned by its
yaw and pitch as the camera is by a look."""

FACE_INDEX = {(0, +1): 0, (0, -1): 1, (1, +1): 2, (1, -1): 3, (2, +1): 4, (2, -1): 5}
"""(axis, side) -> index in `blocks.FACES` order (east, west, top, bottom, south, north): faces
are shaded with the blocks' own FACE_SHADE, so mobs sit in the world's light. (East and west,
which the X mirror swaps, are shaded alike.)"""


def box_model_arrays(parts: Sequence[Part]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(positions, colours, triangles) of the parts' 6 faces each, for `ursina.Mesh`: flat float32
    x, y, z per vertex; flat float32 r, g, b, a per vertex; flat uint32 indices, wound for
    Ursina (front faces clockwise seen from outside)."""
    positions, colours, triangles = [], [], []
    for part in parts:
        lo, hi = np.array(part.box[:3]), np.array(part.box[3:])
        size = hi - lo
        for axis in range(3):
            u, v = (axis + 1) % 3, (axis + 2) % 3  # e_u x e_v = e_axis
            for side in (-1, +1):
                base = lo.copy()
                if side > 0:
                    base[axis] = hi[axis]
                du, dv = np.zeros(3), np.zeros(3)
                du[u], dv[v] = size[u], size[v]
                first = len(positions)
                positions += [base, base + du, base + du + dv, base + dv]
                # (p1 - p0) x (p2 - p0) points along +axis; Ursina wants it pointing into the box.
                quad = (0, 1, 2, 0, 2, 3) if side < 0 else (0, 2, 1, 0, 3, 2)
                triangles += [first + i for i in quad]
                shade = float(FACE_SHADE[FACE_INDEX[axis, side]])
                colours += [(*(c * shade for c in part.rgb), 1.0)] * 4
    return (np.array(positions, dtype=np.float32).ravel(), np.array(colours, dtype=np.float32).ravel(),
            np.array(triangles, dtype=np.uint32))


def block_cube_arrays(block: int) -> MeshArrays:
    """The mesher's arrays of block id `block` standing alone (every face shown, open light), in
    block coordinates about the cube's centre (-0.5..0.5): the same faces, atlas UVs and per-face
    shade a section gives that block. TypeError / ValueError (`UnknownBlockError`) for a bad id;
    ValueError for a block drawn with no faces (air)."""
    if isinstance(block, bool) or not isinstance(block, (int, np.integer)):
        raise TypeError(f"block must be an int id, got {block!r}")
    if not 0 <= block < COUNT:
        raise ValueError(f"unknown block id {block!r} (ids are 0..{COUNT - 1})")
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    padded[1, 1, 1] = block  # section-local cell (0, 0, 0), air all round
    opaque, transparent = mesh_section(padded)
    part = opaque if opaque.face_count else transparent
    if part.face_count == 0:
        raise ValueError(f"block id {block} is drawn with no faces")
    return replace(part, positions=part.positions - np.float32(0.5))


def _model(arrays: tuple[np.ndarray, np.ndarray, np.ndarray]) -> Mesh:
    positions, colours, triangles = arrays
    return Mesh(vertices=positions, colors=colours, triangles=triangles, static=True)


def textured_cube(block: int, atlas: Texture) -> Mesh:
    """Block id `block`'s cube (`block_cube_arrays`) as a mesh textured with the `atlas`: opaque blocks
    (sand, gravel) in one pass, see-through ones blended, as the chunk renderer draws them."""
    arrays = block_cube_arrays(block)
    cube = Mesh(vertices=space.positions(arrays.positions), uvs=arrays.uvs, colors=arrays.colors,
                triangles=space.triangles(arrays.indices), static=True)
    cube.set_texture(atlas._texture, 1)
    cube.set_transparency(TransparencyAttrib.M_dual if TRANSPARENT[block] else TransparencyAttrib.M_none)
    return cube


class EntityView(Entity):
    """Every mob, projectile and falling block on screen; call `show` once per frame with the frame's views.

    `texture`: the block atlas for falling blocks (the chunk renderer's, so it is loaded once);
    None loads it when the first block falls."""

    def __init__(self, texture: Texture | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self._atlas = texture
        self._boxling = box_model_arrays(BOXLING_PARTS)
        self._projectile = box_model_arrays(PROJECTILE_PARTS)
        self.mobs: dict[int, Entity] = {}
        """Mob key -> its Entity."""
        self.projectiles: dict[int, Entity] = {}
        """Projectile key -> its Entity."""
        self.falling: dict[int, NodePath] = {}
        """Falling block key -> its node (its block's cube instanced under it)."""
        self._cubes: dict[int, Mesh] = {}
        """Block id -> its cube mesh, kept off the scene graph; instanced under falling nodes."""
        self._falling_node = self.attachNewNode("falling blocks")
        """Parent of the falling nodes: a plain node, so Ursina keeps no list of them."""
        self._arrow = box_model_arrays(ARROW_PARTS)
        self.arrows: dict[int, Entity] = {}
        """Arrow key -> its Entity."""
        self._library: FigureLibrary | None = None
        """Creature meshes and textures, loaded when the first creature is shown."""
        self._creature_node = self.attachNewNode("creatures")
        self.creatures: dict[int, CreatureFigure] = {}
        """Mob key -> its creature figure (mobs of a creature kind; boxlings are in `mobs`)."""
        self._last_seen: dict[int, tuple[float, Sequence[float]]] = {}
        """Creature key -> (dying, box) last shown: a creature gone while dying puffs into smoke there."""
        self.smoke = SmokePuffs(self.attachNewNode("smoke"), self._projectile)

    def show(self, mobs: Sequence[MobPose], projectiles: Sequence[ProjectilePose],
             falling: Sequence[FallingPose] = ()) -> None:
        """Place the models of these poses; make models for new keys, destroy those of keys not given."""
        for view in mobs:  # refuse a bad kind before anything changes
            kind = getattr(view, "kind", BOXLING)
            if kind != BOXLING and kind not in KINDS:
                raise ValueError(f"mob {view.key} has unknown kind {kind!r} (known: {BOXLING}, {', '.join(KINDS)})")
        boxlings = [view for view in mobs if getattr(view, "kind", BOXLING) == BOXLING]
        for view in boxlings:
            entity = self._entity(self.mobs, view.key, self._boxling)
            box = view.box
            entity.position = space.point((box[0] + box[3]) / 2.0, box[1], (box[2] + box[5]) / 2.0)
            entity.rotation_y = view.yaw
        self._show_creatures([view for view in mobs if getattr(view, "kind", BOXLING) != BOXLING])
        for view in projectiles:
            entity = self._entity(self.projectiles, view.key, self._projectile)
            box = view.box
            entity.position = space.point((box[0] + box[3]) / 2.0, (box[1] + box[4]) / 2.0, (box[2] + box[5]) / 2.0)
            entity.scale = (box[3] - box[0], box[4] - box[1], box[5] - box[2])  # the mirror keeps sizes
        for view in falling:
            node = self.falling.get(view.key)
            if node is None:
                node = self.falling[view.key] = self._falling_node.attachNewNode(f"falling {view.key}")
                self._cube(view.block).instance_to(node)
            box = view.box
            node.set_pos(*space.point((box[0] + box[3]) / 2.0, (box[1] + box[4]) / 2.0, (box[2] + box[5]) / 2.0))
        self._drop(self.mobs, {view.key for view in boxlings})
        self._drop(self.projectiles, {view.key for view in projectiles})
        if len(self.falling) != len(falling):  # every key given has a node now: more nodes means some landed
            shown = {view.key for view in falling}
            for key in [k for k in self.falling if k not in shown]:
                self.falling.pop(key).remove_node()

    def show_arrows(self, arrows: Sequence[ArrowPose]) -> None:
        """Place the arrows of these poses (centred on their boxes, pointing along their yaw and pitch); make
        models for new keys, destroy those of keys not given."""
        for view in arrows:
            entity = self._entity(self.arrows, view.key, self._arrow)
            box = view.box
            entity.position = space.point((box[0] + box[3]) / 2.0, (box[1] + box[4]) / 2.0, (box[2] + box[5]) / 2.0)
            entity.rotation = space.camera_rotation(view.yaw, view.pitch)
        self._drop(self.arrows, {view.key for view in arrows})

    def _show_creatures(self, views: Sequence[MobPose]) -> None:
        """Pose the creature figures of `views`; a figure whose key is gone is removed, puffing into smoke
        if it was dying (Beta removes a body at its 20th death tick, spawning the smoke then)."""
        for view in views:
            kind, dying = view.kind, getattr(view, "dying", 0.0)
            figure = self.creatures.get(view.key)
            if figure is None or figure.kind != kind:
                if figure is not None:
                    figure.remove()
                if self._library is None:
                    self._library = FigureLibrary()
                figure = self.creatures[view.key] = CreatureFigure(self._creature_node, kind, self._library)
            box = view.box
            figure.show(box, view.yaw, getattr(view, "limb_swing", 0.0), getattr(view, "limb_amount", 0.0),
                        getattr(view, "hurt", 0.0), dying, getattr(view, "sheared", False),
                        getattr(view, "fuse", 0.0), getattr(view, "burning", False))
            self._last_seen[view.key] = (dying, box)
        shown = {view.key for view in views}
        for key in [k for k in self.creatures if k not in shown]:
            self.creatures.pop(key).remove()
            dying, box = self._last_seen.pop(key)
            if dying > 0.0:
                self.smoke.burst(box)
        self.smoke.advance(ClockObject.get_global_clock().get_dt() if len(self.smoke) else 0.0)

    def _cube(self, block: int) -> Mesh:
        """Block id `block`'s cube mesh, built and textured on first use."""
        cube = self._cubes.get(block)
        if cube is None:
            if self._atlas is None:
                self._atlas = load_atlas_texture()
            cube = self._cubes[block] = textured_cube(block, self._atlas)
        return cube

    def _entity(self, entities: dict[int, Entity], key: int, arrays) -> Entity:
        entity = entities.get(key)
        if entity is None:
            entity = entities[key] = Entity(parent=self, model=_model(arrays))
            entity.model.set_transparency(TransparencyAttrib.M_none)  # opaque: skip Ursina's two-pass default
        return entity

    @staticmethod
    def _drop(entities: dict[int, Entity], shown: set[int]) -> None:
        for key in [k for k in entities if k not in shown]:
            destroy(entities.pop(key))
