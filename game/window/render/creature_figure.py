"""One creature on screen: Beta's model of its kind as textured nodes, posed each frame; and the smoke a
dead one puffs into.

Owns: `CreatureFigure` (a node tree per creature: the root stands on the box's bottom centre turned to the yaw,
a fall node tilts it over sideways as Beta's RenderLiving turns a dying body, a swell node grows a creeper
about to explode, the figure node scales Beta's pixels so the standing model fits the box's height, and each
limb is two nodes turning as `creature_models.limb_angles` says), its tints (Beta's red hurt flash, a
creeper's white fuse flash, an orange glow while burning), hiding a sheared sheep's wool, the meshes and
textures shared by every figure of a kind (`FigureLibrary`) and `SmokePuffs`, the grey puffs of Beta's
EntityLiving.onDeathUpdate.
Does not own: the models' layout (`creature_models`), the textures' pixels (assets/make_creature_textures.py),
which creatures exist and where (the game's blended views, via `entity_view.EntityView`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from panda3d.core import NodePath, TransparencyAttrib
from ursina import Mesh, Texture

from . import space
from .creature_models import SHAPES, limb_angles, limb_arrays, rest_bounds, shape_of, ursina_pivot

TEXTURES_DIR = Path(__file__).resolve().parents[3] / "assets" / "textures" / "creatures"
HURT_RED = 0.4
"""Beta's RenderLiving lays red at alpha 0.4 over a hurt or dying body: green and blue x (1 - 0.4 x hurt) here."""
DEATH_TURN_DEG = 90.0
"""[degrees] Beta's getDeathMaxRotation: a dead body ends on its side."""
DEATH_TICKS = 20
"""[ticks] Beta's EntityLiving: a body lies dying for 20 ticks before it puffs into smoke."""
DEATH_FALL_RATE = 1.6
"""Beta's rotateCorpse: the turn is 90 x min(1, sqrt((deathTime - 1) / 20 x 1.6)): over in the first 13 ticks."""
FUSE_SWELL_XZ, FUSE_SWELL_Y = 0.4, 0.1
"""Beta's RenderCreeper: at full fuse f the body is (1 + f^4 x 0.4) wide and (1 + f^4 x 0.1) tall."""
FUSE_WOBBLE = 0.01
"""Beta's RenderCreeper: the swell trembles by sin(f x 100) x f x 0.01."""
FUSE_FLASH = 0.6
"""How much brighter a creeper flashes (every other tenth of its fuse, as Beta's RenderCreeper does)."""
DEGREES = 180.0 / math.pi
"""[degrees per radian] Beta's angles are radians; Panda3D's are degrees."""
BURNING_TINT = (1.0, 0.72, 0.42)
"""A burning creature glows orange (its colour scaled by this)."""


class FigureLibrary:
    """The meshes (one per kind, limb and layer) and textures (one per file) every figure instances."""

    def __init__(self, textures_dir: Path = TEXTURES_DIR) -> None:
        self._dir = Path(textures_dir)
        self._textures: dict[str, Texture] = {}
        self._meshes: dict[tuple[str, str, str], Mesh] = {}
        self._bounds: dict[str, np.ndarray] = {}

    def texture(self, stem: str) -> Texture:
        texture = self._textures.get(stem)
        if texture is None:
            path = self._dir / f"{stem}.png"
            if not path.is_file():
                raise FileNotFoundError(f"creature texture {path} is missing: "
                                        "run python -m assets.make_creature_textures")
            texture = self._textures[stem] = Texture(path, filtering=None)
        return texture

    def mesh(self, kind: str, limb: str, layer: str) -> Mesh:
        key = (kind, limb, layer)
        mesh = self._meshes.get(key)
        if mesh is None:
            shape = SHAPES[kind]
            positions, uvs, colours, triangles = limb_arrays(shape.limb(limb), layer)
            mesh = Mesh(vertices=positions, uvs=uvs, colors=colours, triangles=triangles, static=True)
            mesh.set_texture(self.texture(dict(shape.textures)[layer])._texture, 1)
            mesh.set_transparency(TransparencyAttrib.M_binary)  # unused texels are clear; the rest opaque
            self._meshes[key] = mesh
        return mesh

    def bounds(self, kind: str) -> np.ndarray:
        bounds = self._bounds.get(kind)
        if bounds is None:
            bounds = self._bounds[kind] = rest_bounds(kind)
        return bounds


class CreatureFigure:
    """One creature's nodes under `parent`; `show` poses it for a frame, `remove` takes it off the scene."""

    def __init__(self, parent: NodePath, kind: str, library: FigureLibrary) -> None:
        shape = shape_of(kind)
        self.kind = kind
        self.root = parent.attach_new_node(f"creature {kind}")
        self.fall = self.root.attach_new_node("fall")
        self.swell = self.fall.attach_new_node("swell")
        self.figure = self.swell.attach_new_node("figure")
        self.limbs: dict[str, tuple[NodePath, NodePath]] = {}
        """Limb name -> (outer node turning about z, inner node turning about x and y)."""
        self.wool: list[NodePath] = []
        """The wool layer's nodes (a sheep's): hidden while sheared."""
        for limb in shape.limbs:
            outer = self.figure.attach_new_node(limb.name)
            outer.set_pos(*ursina_pivot(limb))
            inner = outer.attach_new_node("turn")
            for layer in dict.fromkeys(cube.layer for cube in limb.cubes):
                holder = inner.attach_new_node(layer)
                library.mesh(kind, limb.name, layer).instance_to(holder)
                if layer == "wool":
                    self.wool.append(holder)
            self.limbs[limb.name] = (outer, inner)
        self._bounds = library.bounds(kind)
        self.sheared = False
        self._rolls: dict[str, float] = {}
        """Limb name -> the turn about z [radians, Beta's] its outer node has."""
        self._last: dict[str, object] = {}
        """What each node was last set to: a node is only set again when its value changes (each Panda3D
        transform set costs a few microseconds, and a standing creature changes nothing)."""

    def show(self, box: Sequence[float], yaw: float, limb_swing: float = 0.0, limb_amount: float = 0.0,
             hurt: float = 0.0, dying: float = 0.0, sheared: bool = False, fuse: float = 0.0,
             burning: bool = False) -> None:
        """Stand the model on `box` (physics, min x, y, z, max x, y, z), facing `yaw` [degrees], its limbs at
        the walk (`limb_swing`, `limb_amount`), tinted, fallen, swollen and shorn as the other values say."""
        self.root.set_pos(*space.point((box[0] + box[3]) / 2.0, box[1], (box[2] + box[5]) / 2.0))
        last = self._last
        if last.get("yaw") != yaw:
            last["yaw"] = yaw
            self.root.set_hpr(-yaw, 0.0, 0.0)  # Ursina's rotation_y = yaw (Panda's heading is minus it)
        height = box[4] - box[1]
        if last.get("height") != height:
            last["height"] = height
            bottom, top = self._bounds[1], self._bounds[4]
            scale = height / (top - bottom)  # [blocks per pixel]: the standing model is as tall as the box
            self.figure.set_scale(scale)
            self.figure.set_pos(0.0, -bottom * scale, 0.0)
        if last.get("dying") != dying:
            last["dying"] = dying
            self.fall.set_hpr(0.0, 0.0, death_turn(dying))  # Ursina's rotation_z = minus Beta's (module doc)
        if last.get("fuse") != fuse:
            last["fuse"] = fuse
            self.swell.set_scale(*fuse_swell(fuse))
        self._pose_limbs(limb_swing, limb_amount)
        if sheared != self.sheared:
            self.sheared = sheared
            for node in self.wool:
                node.stash() if sheared else node.unstash()
        colour = tint(hurt, dying, fuse, burning)
        if last.get("tint") != colour:
            last["tint"] = colour
            self.root.set_color_scale(*colour, 1.0)

    def _pose_limbs(self, limb_swing: float, limb_amount: float) -> None:
        last = self._last
        walk = (limb_swing, limb_amount) if limb_amount else 0.0  # standing: one pose whatever the phase
        if last.get("walk") == walk:
            return
        last["walk"] = walk
        limbs, rolls = self.limbs, self._rolls
        for name, (x, y, z) in limb_angles(self.kind, limb_swing, limb_amount).items():
            outer, inner = limbs[name]
            if rolls.get(name) != z:
                rolls[name] = z
                outer.set_hpr(0.0, 0.0, -DEGREES * z)
            inner.set_hpr(-DEGREES * y, -DEGREES * x, 0.0)

    def remove(self) -> None:
        self.root.remove_node()


def death_turn(dying: float) -> float:
    """[degrees] How far a body `dying` (0 alive .. 1 at Beta's 20th death tick) has fallen onto its side:
    Beta's rotateCorpse, 90 x min(1, sqrt((deathTime - 1) / 20 x 1.6))."""
    if dying <= 0.0:
        return 0.0
    return DEATH_TURN_DEG * min(1.0, math.sqrt(max(0.0, dying - 1.0 / DEATH_TICKS) * DEATH_FALL_RATE))


def fuse_swell(fuse: float) -> tuple[float, float, float]:
    """(x, y, z) scale of a creeper at `fuse` (0 .. 1 exploding): Beta's RenderCreeper swell."""
    if fuse <= 0.0:
        return (1.0, 1.0, 1.0)
    f = min(fuse, 1.0)
    wobble = 1.0 + math.sin(f * 100.0) * f * FUSE_WOBBLE
    grown = f ** 4
    wide = (1.0 + grown * FUSE_SWELL_XZ) * wobble
    return (wide, (1.0 + grown * FUSE_SWELL_Y) / wobble, wide)


def tint(hurt: float, dying: float, fuse: float, burning: bool) -> tuple[float, float, float]:
    """The colour scale (r, g, b) of a body: red while hurt (and while dying, as Beta draws it), white
    flashes while a fuse burns, orange while burning."""
    red = max(min(max(hurt, 0.0), 1.0), 1.0 if dying > 0.0 else 0.0)
    r, g, b = 1.0, 1.0 - HURT_RED * red, 1.0 - HURT_RED * red
    if fuse > 0.0 and int(min(fuse, 1.0) * 10.0) % 2 == 1:
        r, g, b = (c * (1.0 + FUSE_FLASH) for c in (r, g, b))
    if burning:
        r, g, b = (c * t for c, t in zip((r, g, b), BURNING_TINT))
    return (r, g, b)


# --- smoke -------------------------------------------------------------------------------------------------

PUFFS = 12
"""Puffs per dead creature (Beta's onDeathUpdate spawns 20 explode particles)."""
PUFF_SIZE = 0.22
"""[blocks] A puff's edge when new; it shrinks to nothing over its life."""
PUFF_RISE = 0.03
"""[blocks/tick] Beta's explode particle drifts upward (its motionY grows 0.004 a tick, dragged 0.9): about this."""
PUFF_SPREAD = 0.02
"""[blocks/tick] Beta: each particle's velocity is a Gaussian x 0.02 on each axis."""
PUFF_LIFE_TICKS = (8, 20)
"""[ticks] Shortest and longest life of a puff (Beta's 16 / (random x 0.8 + 0.2) + 2, capped here)."""
TICKS_PER_SECOND = 20.0
SMOKE_GREYS = (0.55, 0.95)
"""Darkest and lightest grey of a puff (Beta's particle is grey, random x 0.3 + 0.7 brightness)."""


class SmokePuffs:
    """The grey puffs of creatures that just died: small grey cubes drifting up and shrinking, all one mesh
    instanced per puff."""

    def __init__(self, parent: NodePath, cube: tuple[np.ndarray, np.ndarray, np.ndarray], seed: int = 0) -> None:
        """`cube`: (positions, colours, triangles) of a unit cube about its centre (`entity_view`'s projectile)."""
        self._rng = np.random.default_rng(seed)
        self._node = parent.attach_new_node("smoke")
        positions, colours, triangles = cube
        grey = colours.reshape(-1, 4).copy()
        grey[:, :3] = grey[:, :3] / grey[:, :3].max() * 0.8  # the face shades, on white
        self._cube = Mesh(vertices=positions, colors=grey.ravel(), triangles=triangles, static=True)
        self._cube.set_transparency(TransparencyAttrib.M_none)
        self.puffs: list[tuple[NodePath, np.ndarray, np.ndarray, float, float]] = []
        """(node, physics position, velocity [blocks/tick], age [ticks], life [ticks]) of each live puff."""

    def burst(self, box: Sequence[float]) -> None:
        """PUFFS puffs at random places in `box` (physics coordinates)."""
        lo, hi = np.asarray(box[:3], dtype=float), np.asarray(box[3:6], dtype=float)
        for _ in range(PUFFS):
            position = lo + (hi - lo) * self._rng.random(3)
            velocity = self._rng.standard_normal(3) * PUFF_SPREAD + np.array([0.0, PUFF_RISE, 0.0])
            life = float(self._rng.integers(PUFF_LIFE_TICKS[0], PUFF_LIFE_TICKS[1] + 1))
            node = self._node.attach_new_node("puff")
            self._cube.instance_to(node)
            grey = float(self._rng.uniform(*SMOKE_GREYS))
            node.set_color_scale(grey, grey, grey, 1.0)
            self.puffs.append((node, position, velocity, 0.0, life))
        self.advance(0.0)

    def advance(self, seconds: float) -> None:
        """Move every puff on by `seconds`, shrink it, and remove those past their life."""
        ticks = max(seconds, 0.0) * TICKS_PER_SECOND
        alive = []
        for node, position, velocity, age, life in self.puffs:
            age += ticks
            if age >= life:
                node.remove_node()
                continue
            position = position + velocity * ticks
            node.set_pos(*space.point(*position))
            node.set_scale(PUFF_SIZE * (1.0 - age / life))
            alive.append((node, position, velocity, age, life))
        self.puffs = alive

    def __len__(self) -> int:
        return len(self.puffs)
