"""Beta's creature models as data: boxes in Beta's 1/16-block pixels, their texture offsets, their pivots and
how each limb swings with the walk.

Owns: the shape of every creature kind (`SHAPES`: Beta's ModelPig / ModelQuadruped, ModelCow, ModelSheep2 with
ModelSheep1's wool, ModelChicken, ModelZombie / ModelBiped, ModelSkeleton, ModelSpider with its 8 legs,
ModelCreeper), each box's place in its kind's texture (Beta's box unwrap: `face_rects`), the limbs' angles for
a walk cycle (`limb_angles`: Beta's `cos(limbSwing * 0.6662) * 1.4 * limbYaw` family), a limb's mesh arrays in
Ursina's axes with UVs (`limb_arrays`) and a kind's standing bounds (`rest_bounds`), from which the drawing
scales a model to its physics box. Pure numpy: no Ursina import, so `assets/make_creature_textures.py` paints
the textures from the same layout.
Does not own: the textures' pixels (`assets/make_creature_textures.py`), building and posing the nodes
(`game.window.render.entity_view`), where a creature is (the game's blended views).

Axes. Beta's model space is y down with the ground at y = 24 and the front at -z; after Beta's render flips
(scale -1, -1, 1 and the turn by 180 - yaw) and Boxel's X mirror (`space`), a model point (x, y, z) is drawn
at Ursina (-x, 24 - y, -z) pixels about the feet centre, +z where the creature faces. That map is -1 times
the identity, so Beta's rotation matrices are unchanged in Ursina's axes: Ursina's `rotation_x` and
`rotation_y` equal Beta's rotateAngleX and rotateAngleY [in degrees] and `rotation_z` is minus Beta's
rotateAngleZ (Ursina turns z clockwise). Beta turns a limb by X, then Y, then Z; one Ursina node turns by
its z, then x, then y, so a limb is two nodes: the outer turns about z, the inner about x and y.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...world.meshing import FACE_SHADE

PIXEL = 1.0 / 16.0
"""[blocks per pixel] Beta's model pixel."""
GROUND_Y = 24.0
"""[pixels] Beta's model y of the ground under the feet (y grows downward)."""
LIMB_SWING_RATE = 0.6662
"""[radians per unit of limbSwing] Every Beta model's walk: cos(limbSwing * 0.6662)."""
LEG_SWING = 1.4
"""[radians] A leg swings cos(...) x 1.4 x limbYaw."""
SPIDER_REACH = math.pi / 4.0
"""[radians] ModelSpider: the front and back legs' droop (0.7853982F) and spread; the middle legs droop 0.74 of it."""
SPIDER_SPREAD = math.pi / 8.0
"""[radians] ModelSpider's 0.3926991F: the legs' fan about the vertical."""
SPIDER_STRIDE = 0.4
"""[radians] ModelSpider: how far a leg sweeps (cos x 0.4) and lifts (|sin| x 0.4) with the walk."""
ZOMBIE_ARM_SPREAD = 0.1
"""[radians] ModelZombie: the arms held forward turn 0.1 outward (rotateAngleY) and 0.1 apart (rotateAngleZ,
its idle sway at rest)."""
KINDS = ("pig", "cow", "sheep", "chicken", "zombie", "skeleton", "spider", "creeper")
"""Every kind drawn with a model of this module (the boxling keeps `entity_view`'s own)."""
TEXTURE_SIZE = (64, 32)
"""[texels] Every creature texture's width and height (Beta's mob textures)."""


@dataclass(frozen=True, slots=True)
class Cube:
    """One of Beta's model boxes: `origin` and `size` [pixels, Beta's axes], its texture offset `uv` [texels],
    grown by `inflate` [pixels] on every side, drawn from `layer`'s texture ("skin" or "wool")."""

    origin: tuple[float, float, float]
    size: tuple[int, int, int]
    uv: tuple[int, int]
    inflate: float = 0.0
    layer: str = "skin"


@dataclass(frozen=True, slots=True)
class Limb:
    """A part turning about `pivot` [pixels, Beta's axes]: its cubes, a fixed turn `baked` (Beta's rotateAngle
    X, Y, Z [radians] that never changes, e.g. a quadruped's body lying along z) and the name of its motion."""

    name: str
    pivot: tuple[float, float, float]
    cubes: tuple[Cube, ...]
    baked: tuple[float, float, float] = (0.0, 0.0, 0.0)


@dataclass(frozen=True, slots=True)
class Shape:
    """A creature kind's model: its limbs and its textures' file stems by layer."""

    kind: str
    limbs: tuple[Limb, ...]
    textures: tuple[tuple[str, str], ...]

    def limb(self, name: str) -> Limb:
        return next(limb for limb in self.limbs if limb.name == name)


LYING = (math.pi / 2.0, 0.0, 0.0)
"""A quadruped's body box is modelled standing and turned 90 degrees about x to lie along the body."""


def _quadruped(kind: str, leg_height: int, head: Limb, body: Limb, legs_at: tuple[float, float, float, float],
               leg: Cube, extra: tuple[Limb, ...] = ()) -> Shape:
    """ModelQuadruped's layout: legs 1, 2 behind (right, left), 3, 4 in front, at x -+ `legs_at[0..1]`,
    z `legs_at[2]` (back) and `legs_at[3]` (front)."""
    right, left, back, front = legs_at
    top = GROUND_Y - leg_height
    legs = tuple(Limb(f"leg{n}", (x, top, z), (leg,))
                 for n, (x, z) in enumerate(((right, back), (left, back), (right, front), (left, front)), 1))
    return Shape(kind, (head, body, *legs, *extra), (("skin", kind),))


def _pig() -> Shape:
    head = Limb("head", (0.0, 12.0, -6.0), (Cube((-4, -4, -8), (8, 8, 8), (0, 0)),
                                            Cube((-2, 0, -9), (4, 3, 1), (16, 16))))
    body = Limb("body", (0.0, 11.0, 2.0), (Cube((-5, -10, -7), (10, 16, 8), (28, 8)),), LYING)
    return _quadruped("pig", 6, head, body, (-3.0, 3.0, 7.0, -5.0), Cube((-2, 0, -2), (4, 6, 4), (0, 16)))


def _cow() -> Shape:
    head = Limb("head", (0.0, 4.0, -8.0), (Cube((-4, -4, -6), (8, 8, 6), (0, 0)),
                                           Cube((-5, -5, -4), (1, 3, 1), (22, 0)),
                                           Cube((4, -5, -4), (1, 3, 1), (22, 0))))
    body = Limb("body", (0.0, 5.0, 2.0), (Cube((-6, -10, -7), (12, 18, 10), (18, 4)),
                                          Cube((-2, 2, -8), (4, 6, 1), (52, 0))), LYING)
    return _quadruped("cow", 12, head, body, (-4.0, 4.0, 7.0, -6.0), Cube((-2, 0, -2), (4, 12, 4), (0, 16)))


def _sheep() -> Shape:
    head = Limb("head", (0.0, 6.0, -8.0), (Cube((-3, -4, -6), (6, 6, 8), (0, 0)),
                                           Cube((-3, -4, -4), (6, 6, 6), (0, 0), 0.6, "wool")))
    body = Limb("body", (0.0, 5.0, 2.0), (Cube((-4, -10, -7), (8, 16, 6), (28, 8)),
                                          Cube((-4, -10, -7), (8, 16, 6), (28, 8), 1.75, "wool")), LYING)
    leg = Cube((-2, 0, -2), (4, 12, 4), (0, 16))
    wool_leg = Cube((-2, 0, -2), (4, 6, 4), (0, 16), 0.5, "wool")
    shape = _quadruped("sheep", 12, head, body, (-3.0, 3.0, 7.0, -5.0), leg)
    legs = tuple(Limb(limb.name, limb.pivot, (leg, wool_leg)) for limb in shape.limbs[2:])
    return Shape("sheep", (head, body, *legs), (("skin", "sheep"), ("wool", "sheep_wool")))


def _chicken() -> Shape:
    head = Limb("head", (0.0, 15.0, -4.0), (Cube((-2, -6, -2), (4, 6, 3), (0, 0)),
                                            Cube((-2, -4, -4), (4, 2, 2), (14, 0)),
                                            Cube((-1, -2, -3), (2, 2, 2), (14, 4))))
    body = Limb("body", (0.0, 16.0, 0.0), (Cube((-3, -4, -3), (6, 8, 6), (0, 9)),), LYING)
    leg = Cube((-1, 0, -3), (3, 5, 3), (26, 0))
    limbs = (head, body, Limb("leg1", (-2.0, 19.0, 1.0), (leg,)), Limb("leg2", (1.0, 19.0, 1.0), (leg,)),
             Limb("wing1", (-4.0, 13.0, 0.0), (Cube((0, 0, -3), (1, 4, 6), (24, 13)),)),
             Limb("wing2", (4.0, 13.0, 0.0), (Cube((-1, 0, -3), (1, 4, 6), (24, 13)),)))
    return Shape("chicken", limbs, (("skin", "chicken"),))


def _biped(kind: str, arm: float, leg: float) -> Shape:
    """ModelBiped's head and body with arms and legs `arm` / `leg` pixels thick (4: zombie, 2: skeleton)."""
    a, g = arm / 2.0, leg / 2.0
    head = Limb("head", (0.0, 0.0, 0.0), (Cube((-4, -8, -4), (8, 8, 8), (0, 0)),))
    body = Limb("body", (0.0, 0.0, 0.0), (Cube((-4, 0, -2), (8, 12, 4), (16, 16)),))
    arm_size, leg_size = (int(arm), 12, int(arm)), (int(leg), 12, int(leg))
    right_arm = Cube((-3 if arm == 4 else -1, -2, -a), arm_size, (40, 16))
    left_arm = Cube((-1, -2, -a), arm_size, (40, 16))
    limbs = (head, body,
             Limb("arm1", (-5.0, 2.0, 0.0), (right_arm,)), Limb("arm2", (5.0, 2.0, 0.0), (left_arm,)),
             Limb("leg1", (-2.0, 12.0, 0.0), (Cube((-g, 0, -g), leg_size, (0, 16)),)),
             Limb("leg2", (2.0, 12.0, 0.0), (Cube((-g, 0, -g), leg_size, (0, 16)),)))
    return Shape(kind, limbs, (("skin", kind),))


def _spider() -> Shape:
    leg_right = Cube((-15, -1, -1), (16, 2, 2), (18, 0))
    leg_left = Cube((-1, -1, -1), (16, 2, 2), (18, 0))
    legs = tuple(Limb(f"leg{2 * n + side + 1}", (4.0 if side else -4.0, 15.0, 2.0 - n),
                      (leg_left if side else leg_right,))
                 for n in range(4) for side in (0, 1))  # odd legs on the right (-x), front to back from z 2
    limbs = (Limb("head", (0.0, 15.0, -3.0), (Cube((-4, -4, -8), (8, 8, 8), (32, 4)),)),
             Limb("neck", (0.0, 15.0, 0.0), (Cube((-3, -3, -3), (6, 6, 6), (0, 0)),)),
             Limb("body", (0.0, 15.0, 9.0), (Cube((-5, -4, -6), (10, 8, 12), (0, 12)),)), *legs)
    return Shape("spider", limbs, (("skin", "spider"),))


def _creeper() -> Shape:
    top = 6.0  # the head and body hang from y 6, so the 6-pixel legs stand on the ground at 24
    leg = Cube((-2, 0, -2), (4, 6, 4), (0, 16))
    limbs = (Limb("head", (0.0, top, 0.0), (Cube((-4, -8, -4), (8, 8, 8), (0, 0)),)),
             Limb("body", (0.0, top, 0.0), (Cube((-4, 0, -2), (8, 12, 4), (16, 16)),)),
             *(Limb(f"leg{n}", (x, 12.0 + top, z), (leg,))
               for n, (x, z) in enumerate(((-2.0, 4.0), (2.0, 4.0), (-2.0, -4.0), (2.0, -4.0)), 1)))
    return Shape("creeper", limbs, (("skin", "creeper"),))


SHAPES: dict[str, Shape] = {
    "pig": _pig(), "cow": _cow(), "sheep": _sheep(), "chicken": _chicken(),
    "zombie": _biped("zombie", 4, 4), "skeleton": _biped("skeleton", 2, 2), "spider": _spider(), "creeper": _creeper(),
}
"""Kind -> its model (`KINDS`)."""


def shape_of(kind: str) -> Shape:
    """The model of creature `kind`; TypeError for a non-string, ValueError for an unknown kind."""
    if not isinstance(kind, str):
        raise TypeError(f"kind must be a str, got {kind!r}")
    if kind not in SHAPES:
        raise ValueError(f"no creature model for kind {kind!r} (known: {', '.join(KINDS)})")
    return SHAPES[kind]


# --- the walk ----------------------------------------------------------------------------------------------


def limb_angles(kind: str, limb_swing: float, limb_amount: float) -> dict[str, tuple[float, float, float]]:
    """[radians] Beta's rotateAngle (X, Y, Z) of every moving limb of `kind` at walk phase `limb_swing`
    (distance walked) and size `limb_amount` (0 standing .. 1 full stride); limbs not named stay at rest."""
    shape_of(kind)
    swing = limb_swing * LIMB_SWING_RATE
    forward = math.cos(swing) * LEG_SWING * limb_amount
    back = math.cos(swing + math.pi) * LEG_SWING * limb_amount
    if kind in ("pig", "cow", "sheep", "creeper"):
        return {"leg1": (forward, 0.0, 0.0), "leg2": (back, 0.0, 0.0), "leg3": (back, 0.0, 0.0),
                "leg4": (forward, 0.0, 0.0)}
    if kind == "chicken":
        return {"leg1": (forward, 0.0, 0.0), "leg2": (back, 0.0, 0.0)}
    if kind in ("zombie", "skeleton"):
        held = -math.pi / 2.0  # ModelZombie holds both arms straight forward
        spread = ZOMBIE_ARM_SPREAD
        return {"arm1": (held, -spread, spread), "arm2": (held, spread, -spread),
                "leg1": (forward, 0.0, 0.0), "leg2": (back, 0.0, 0.0)}
    return _spider_angles(swing, limb_amount)


def _spider_angles(swing: float, amount: float) -> dict[str, tuple[float, float, float]]:
    """ModelSpider.setRotationAngles: legs fanned and drooped, each pair sweeping and lifting a quarter cycle apart."""
    droop = (SPIDER_REACH, SPIDER_REACH * 0.74, SPIDER_REACH * 0.74, SPIDER_REACH)
    fan = (2 * SPIDER_SPREAD, SPIDER_SPREAD, -SPIDER_SPREAD, -2 * SPIDER_SPREAD)
    phases = (0.0, math.pi, math.pi / 2.0, math.pi * 3.0 / 2.0)
    angles = {}
    for pair in range(4):
        sweep = -(math.cos(swing * 2.0 + phases[pair]) * SPIDER_STRIDE) * amount
        lift = abs(math.sin(swing + phases[pair]) * SPIDER_STRIDE) * amount
        angles[f"leg{2 * pair + 1}"] = (0.0, fan[pair] + sweep, -droop[pair] + lift)
        angles[f"leg{2 * pair + 2}"] = (0.0, -fan[pair] - sweep, droop[pair] - lift)
    return angles


# --- meshes ------------------------------------------------------------------------------------------------


def face_rects(cube: Cube) -> dict[str, tuple[int, int, int, int]]:
    """Beta's box unwrap: face -> (left, top, width, height) [texels] of its picture in the texture, for the
    faces "east" (+x), "west" (-x), "top" (-y), "bottom" (+y), "front" (-z), "back" (+z), in Beta's axes."""
    u, v = cube.uv
    w, h, d = cube.size
    return {"east": (u + d + w, v + d, d, h), "west": (u, v + d, d, h), "top": (u + d, v, w, d),
            "bottom": (u + d + w, v, w, d), "front": (u + d, v + d, w, h), "back": (u + d + w + d, v + d, w, h)}


def _rotation(angles: tuple[float, float, float]) -> np.ndarray:
    """Beta's turn of a limb: about x, then y, then z (glRotate z, y, x in that order)."""
    x, y, z = angles
    cx, sx, cy, sy, cz, sz = math.cos(x), math.sin(x), math.cos(y), math.sin(y), math.cos(z), math.sin(z)
    rx = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    ry = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    return rz @ ry @ rx


_FACES = (  # (name, axis, side in Beta's axes, the picture's right and down seen from outside: right x down = inward)
    ("east", 0, +1, (0, 0, 1), (0, 1, 0)), ("west", 0, -1, (0, 0, -1), (0, 1, 0)),
    ("top", 1, -1, (-1, 0, 0), (0, 0, 1)), ("bottom", 1, +1, (-1, 0, 0), (0, 0, -1)),
    ("front", 2, -1, (1, 0, 0), (0, 1, 0)), ("back", 2, +1, (-1, 0, 0), (0, 1, 0)),
)
_QUAD = (0, 2, 1, 0, 3, 2)
"""The picture's corners (TL, TR, BR, BL) as two triangles wound for Ursina: after the point inversion to
Ursina's axes, TL -> TR -> BR turns about the outward normal, and Ursina wants the inward one."""
_SHADE = {"east": 2, "west": 3, "top": 0, "bottom": 1, "front": 4, "back": 5}
"""Face -> row of the blocks' FACE_SHADE used for it (top brightest, bottom darkest, as blocks are shaded)."""


def limb_arrays(limb: Limb, layer: str = "skin") -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(positions, uvs, colours, triangles) of `limb`'s cubes of `layer`, for `ursina.Mesh`: flat float32
    x, y, z [pixels, Ursina's axes, about the limb's pivot], flat float32 u, v (v from the texture's bottom),
    flat float32 r, g, b, a (a grey face shade) and flat uint32 indices wound for Ursina."""
    width, height = TEXTURE_SIZE
    turn = _rotation(limb.baked)
    positions, uvs, colours, triangles = [], [], [], []
    for cube in (c for c in limb.cubes if c.layer == layer):
        lo = np.array(cube.origin, dtype=float) - cube.inflate
        hi = lo + np.array(cube.size, dtype=float) + 2 * cube.inflate
        rects = face_rects(cube)
        for name, axis, side, right, down in _FACES:
            centre = (lo + hi) / 2.0
            centre[axis] = hi[axis] if side > 0 else lo[axis]
            half = (hi - lo) / 2.0
            r, d = np.array(right, dtype=float) * half, np.array(down, dtype=float) * half
            corners = [centre - r - d, centre + r - d, centre + r + d, centre - r + d]  # picture's TL, TR, BR, BL
            left, top, w, h = rects[name]
            texels = [(left, top), (left + w, top), (left + w, top + h), (left, top + h)]
            first = len(positions)
            positions += [-(turn @ corner) for corner in corners]  # Beta -> Ursina: minus the point (module doc)
            uvs += [(s / width, 1.0 - t / height) for s, t in texels]
            shade = float(FACE_SHADE[_SHADE[name]])
            colours += [(shade, shade, shade, 1.0)] * 4
            triangles += [first + i for i in _QUAD]
    return (np.array(positions, dtype=np.float32).ravel(), np.array(uvs, dtype=np.float32).ravel(),
            np.array(colours, dtype=np.float32).ravel(), np.array(triangles, dtype=np.uint32))


def ursina_pivot(limb: Limb) -> tuple[float, float, float]:
    """[pixels] The limb's pivot in Ursina's axes about the feet centre (Beta's ground at y 0)."""
    x, y, z = limb.pivot
    return (-x, GROUND_Y - y, -z)


def rest_bounds(kind: str) -> np.ndarray:
    """[pixels] (min x, y, z, max x, y, z) in Ursina's axes about the feet centre of `kind` standing still
    (limbs at `limb_angles(kind, 0, 0)`), every layer included."""
    shape = shape_of(kind)
    angles = limb_angles(kind, 0.0, 0.0)
    points = []
    for limb in shape.limbs:
        turn = _rotation(angles.get(limb.name, (0.0, 0.0, 0.0)))
        for layer in {cube.layer for cube in limb.cubes}:
            vertices = limb_arrays(limb, layer)[0].reshape(-1, 3).astype(float)
            points.append(vertices @ turn.T + np.array(ursina_pivot(limb)))  # -R(-p) = R p: the same turn
    stacked = np.concatenate(points)
    return np.concatenate([stacked.min(axis=0), stacked.max(axis=0)])
