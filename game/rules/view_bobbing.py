"""How the first-person view and the drawn player move, by Minecraft Beta 1.7.3's rules, with no window.

Owns: `ViewMotion`, the per-tick values Beta keeps for drawing the player (EntityPlayer's
`distanceWalkedModified`, `cameraYaw`, `cameraPitch` and their previous values; ItemRenderer's
`equippedProgress` and the block it shows; EntityLiving's `limbSwing` and `limbYaw`), advanced
once a tick from the player's body before and after that tick (`ViewMotion.advanced`); and what
a frame blends from them: `Bobbing` (EntityRenderer.setupViewBobbing's offset and angles in view
space), the equip progress, the limbs' swing, and `held_block_matrix` / `empty_hand_matrix`
(where ItemRenderer.renderItemInFirstPerson holds a block or the bare arm in view space).
Pure: no Ursina. Does not own: drawing (`game.window.render.hand_view`, `game.window.render.player_model`, the
camera in `game.window.app`), the swing (`Session.swing_progress`, the digging rules), whether bobbing
is on (the user's settings).

Beta's floats: the values Beta keeps as Java floats are rounded to binary32 after every
operation (`physics.floats.f32`), and its sine and cosine are `MathHelper`'s table
(`beta_sin`, `beta_cos`), so the numbers here are Beta's bit for bit.

View space is OpenGL's, as Beta's code is written in: x right, y up, the view looking along -z.
Matrices are 4 x 4 numpy arrays acting on column vectors, composed in the order Beta calls
glTranslatef / glRotatef (each multiplies on the right).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import physics
from physics.floats import beta_cos, beta_sin, f32

from .sounds import STEP_DISTANCE_PER_BLOCK, TELEPORT_BLOCKS

PI_F = f32(3.1415927)
"""Beta's float pi (`3.1415927F`, `(float)Math.PI`) in setupViewBobbing and ItemRenderer."""
CAMERA_YAW_MAX = f32(0.1)
"""[blocks/tick] EntityPlayer caps the horizontal speed the bobbing follows at 0.1F (walking is
about 0.1 at the end of a tick, so walking bobs fully; sprinting bobs no more)."""
CAMERA_YAW_RATE = f32(0.4)
"""EntityPlayer's cameraYaw moves 0.4F of the way to the capped speed each tick."""
CAMERA_PITCH_RATE = f32(0.8)
"""EntityPlayer's cameraPitch moves 0.8F of the way to its target each tick."""
CAMERA_PITCH_FALL = 0.20000000298023224
"""EntityPlayer: the falling tilt's target is atan(-motionY * 0.2F) * 15F [degrees]."""
CAMERA_PITCH_SCALE = f32(15.0)
BOB_SIDEWAYS = f32(0.5)
"""setupViewBobbing: the view moves sideways sin(walked pi) x cameraYaw x 0.5F [blocks]."""
BOB_ROLL = f32(3.0)
"""setupViewBobbing: the view rolls sin(walked pi) x cameraYaw x 3F [degrees]."""
BOB_TILT = f32(5.0)
"""setupViewBobbing: the view tilts down |cos(walked pi - 0.2F) x cameraYaw| x 5F [degrees]."""
BOB_TILT_PHASE = f32(0.2)
EQUIP_RATE = f32(0.4)
"""ItemRenderer: equippedProgress moves at most 0.4F a tick (2.5 ticks from held to gone)."""
EQUIP_SWAP_BELOW = f32(0.1)
"""ItemRenderer: the new block is taken into the hand once equippedProgress is below 0.1F."""
LIMB_SPEED_SCALE = f32(4.0)
"""EntityLiving: the limbs swing toward 4F x the blocks moved in a tick, at most 1."""
LIMB_RATE = f32(0.4)
"""EntityLiving: limbYaw moves 0.4F of the way to its target each tick."""


@dataclass(frozen=True, slots=True)
class Bobbing:
    """One frame's view bobbing (EntityRenderer.setupViewBobbing), in view space: the scene is
    moved by (`right`, `up`) [blocks], rolled by `roll` [degrees, counter-clockwise on screen] and
    tilted by `tilt` + `fall_pitch` [degrees, as the look pitch: positive looks down]. The camera
    moves the opposite way: (-right, -up) along its own axes."""

    right: float
    up: float
    roll: float
    tilt: float
    fall_pitch: float

    @property
    def pitch(self) -> float:
        """[degrees] The whole tilt about the view's x axis (the two rotations are about the same axis)."""
        return self.tilt + self.fall_pitch


NO_BOBBING = Bobbing(0.0, 0.0, 0.0, 0.0, 0.0)


def _blend(previous: float, current: float, alpha: float) -> float:
    """Beta's float blend prev + (cur - prev) * partialTicks."""
    return f32(previous + f32(f32(current - previous) * alpha))


@dataclass(frozen=True, slots=True)
class ViewMotion:
    """Beta's drawn-motion state after a tick; `advanced` gives the next tick's."""

    walked: float = 0.0
    """[blocks x 0.6] Beta's distanceWalkedModified (float)."""
    previous_walked: float = 0.0
    camera_yaw: float = 0.0
    """[blocks/tick] Beta's cameraYaw: the smoothed, capped horizontal speed (the bobbing's size)."""
    previous_camera_yaw: float = 0.0
    camera_pitch: float = 0.0
    """[degrees] Beta's cameraPitch: the smoothed tilt while in the air."""
    previous_camera_pitch: float = 0.0
    equip: float = 0.0
    """Beta's equippedProgress: 1 with the shown block fully up, 0 with the hand fully down."""
    previous_equip: float = 0.0
    shown: str | None = None
    """The block the hand shows (it lags the selected block while the hand dips); None: the bare hand."""
    limb_swing: float = 0.0
    """Beta's limbSwing: the walk cycle's phase [radians / 0.6662]."""
    limb_yaw: float = 0.0
    """Beta's limbYaw: the walk cycle's size (0 standing, 1 walking briskly)."""
    previous_limb_yaw: float = 0.0

    def advanced(self, before: physics.Body, after: physics.Body, *, sneaking: bool, dead: bool,
                 held: str | None) -> ViewMotion:
        """The state after one tick that moved the player's body from `before` to `after`;
        `sneaking`: the sneak key was held (and the player not flying); `dead`: health is 0 after
        the tick; `held`: the block in the selected hotbar slot (None for an empty slot).

        TypeError for bodies that are not `physics.Body` or a held value that is not a str or None."""
        if not isinstance(before, physics.Body) or not isinstance(after, physics.Body):
            raise TypeError(f"the bodies must be physics.Body, got {before!r} and {after!r}")
        if held is not None and not isinstance(held, str):
            raise TypeError(f"the held block is a block name or None, got {held!r}")
        b0, b1 = before.box, after.box  # the feet's x and z as `Body.feet` works them out
        x0, z0, x1, z1 = (b0[0] + b0[3]) / 2.0, (b0[2] + b0[5]) / 2.0, (b1[0] + b1[3]) / 2.0, (b1[2] + b1[5]) / 2.0
        moved = f32(math.sqrt((x1 - x0) ** 2 + (z1 - z0) ** 2))  # MathHelper.sqrt_double returns a float
        if moved > TELEPORT_BLOCKS:
            moved = 0.0  # a respawn, not a walk
        walked = self.walked
        if not (sneaking and before.on_ground):  # Beta's moveEntity does not count sneaking on the ground
            walked = f32(walked + moved * STEP_DISTANCE_PER_BLOCK)

        vx, vy, vz = after.velocity
        speed = min(f32(math.sqrt(vx * vx + vz * vz)), CAMERA_YAW_MAX)
        fall = f32(f32(math.atan(-vy * CAMERA_PITCH_FALL)) * CAMERA_PITCH_SCALE)
        if not after.on_ground or dead:
            speed = 0.0
        if after.on_ground or dead:
            fall = 0.0
        camera_yaw = f32(self.camera_yaw + f32(f32(speed - self.camera_yaw) * CAMERA_YAW_RATE))
        camera_pitch = f32(self.camera_pitch + f32(f32(fall - self.camera_pitch) * CAMERA_PITCH_RATE))

        target = 1.0 if held == self.shown else 0.0
        step = min(max(f32(target - self.equip), -EQUIP_RATE), EQUIP_RATE)
        equip = f32(self.equip + step)
        shown = held if equip < EQUIP_SWAP_BELOW else self.shown

        limb_target = min(f32(moved * LIMB_SPEED_SCALE), 1.0)
        limb_yaw = f32(self.limb_yaw + f32(f32(limb_target - self.limb_yaw) * LIMB_RATE))
        limb_swing = f32(self.limb_swing + limb_yaw)
        return _made(walked, self.walked, camera_yaw, self.camera_yaw, camera_pitch, self.camera_pitch,
                     equip, self.equip, shown, limb_swing, limb_yaw, self.limb_yaw)

    def bobbing(self, alpha: float) -> Bobbing:
        """setupViewBobbing's values `alpha` (0..1) of the way from the previous tick to this one."""
        alpha = _check_alpha(alpha)
        step = f32(self.walked - self.previous_walked)
        phase = f32(-f32(self.walked + f32(step * alpha)) * PI_F)  # -(distance walked, blended) x pi
        size = _blend(self.previous_camera_yaw, self.camera_yaw, alpha)
        fall_pitch = _blend(self.previous_camera_pitch, self.camera_pitch, alpha)
        sine = beta_sin(phase)
        return Bobbing(
            right=f32(f32(sine * size) * BOB_SIDEWAYS),
            up=-abs(f32(beta_cos(phase) * size)),
            roll=f32(f32(sine * size) * BOB_ROLL),
            tilt=f32(abs(f32(beta_cos(f32(phase - BOB_TILT_PHASE)) * size)) * BOB_TILT),
            fall_pitch=fall_pitch)

    def equip_progress(self, alpha: float) -> float:
        """ItemRenderer's blended equippedProgress (1: the block fully up)."""
        return _blend(self.previous_equip, self.equip, _check_alpha(alpha))

    def limbs(self, alpha: float) -> tuple[float, float]:
        """(phase, size) of the walk cycle as RenderLiving blends them: limbSwing - limbYaw x (1 -
        alpha), and limbYaw blended."""
        alpha = _check_alpha(alpha)
        size = _blend(self.previous_limb_yaw, self.limb_yaw, alpha)
        return f32(self.limb_swing - f32(self.limb_yaw * f32(1.0 - alpha))), size


_VIEW_SLOT_SETTERS = tuple(ViewMotion.__dict__[name].__set__ for name in ViewMotion.__dataclass_fields__)
"""The setters of ViewMotion's slots, in field order (`_made`)."""
assert len(_VIEW_SLOT_SETTERS) == 12, "_made sets every field of ViewMotion"


def _made(walked: float, previous_walked: float, camera_yaw: float, previous_camera_yaw: float, camera_pitch: float,
          previous_camera_pitch: float, equip: float, previous_equip: float, shown: str | None, limb_swing: float,
          limb_yaw: float, previous_limb_yaw: float) -> ViewMotion:
    """`ViewMotion(...)` of these fields without the frozen class's checked attribute setting:
    `advanced` makes one a tick for every player, from values it worked out itself."""
    motion = object.__new__(ViewMotion)
    (set_walked, set_previous_walked, set_camera_yaw, set_previous_camera_yaw, set_camera_pitch,
     set_previous_camera_pitch, set_equip, set_previous_equip, set_shown, set_limb_swing, set_limb_yaw,
     set_previous_limb_yaw) = _VIEW_SLOT_SETTERS
    set_walked(motion, walked)
    set_previous_walked(motion, previous_walked)
    set_camera_yaw(motion, camera_yaw)
    set_previous_camera_yaw(motion, previous_camera_yaw)
    set_camera_pitch(motion, camera_pitch)
    set_previous_camera_pitch(motion, previous_camera_pitch)
    set_equip(motion, equip)
    set_previous_equip(motion, previous_equip)
    set_shown(motion, shown)
    set_limb_swing(motion, limb_swing)
    set_limb_yaw(motion, limb_yaw)
    set_previous_limb_yaw(motion, previous_limb_yaw)
    return motion


def _check_alpha(alpha: float) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        raise TypeError(f"alpha must be a number, got {alpha!r}")
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be within 0..1, got {alpha!r}")
    return f32(alpha)


# --- where the hand holds things (ItemRenderer.renderItemInFirstPerson) -------------------------------

def translate(x: float, y: float, z: float) -> np.ndarray:
    matrix = np.eye(4)
    matrix[:3, 3] = (x, y, z)
    return matrix


def rotate(degrees: float, x: float, y: float, z: float) -> np.ndarray:
    """glRotatef about one of the axes ((1, 0, 0), (0, 1, 0) or (0, 0, 1): every rotation Beta's hand
    uses): a right-handed rotation of `degrees`. ValueError for any other axis."""
    axis = (x, y, z)
    if axis not in _PLANES:
        raise ValueError(f"rotate turns about the x, y or z axis, got {axis!r}")
    first, second = _PLANES[axis]
    radians = math.radians(degrees)
    c, s = math.cos(radians), math.sin(radians)
    matrix = np.eye(4)
    matrix[first, first] = matrix[second, second] = c
    matrix[first, second], matrix[second, first] = -s, s
    return matrix


_PLANES = {(1.0, 0.0, 0.0): (1, 2), (0.0, 1.0, 0.0): (2, 0), (0.0, 0.0, 1.0): (0, 1)}
"""Axis -> the plane (a, b) it turns, ordered so that a rotation takes a toward b (right-handed)."""


def scale(factor: float) -> np.ndarray:
    return np.diag((factor, factor, factor, 1.0))


def bobbing_matrix(bob: Bobbing) -> np.ndarray:
    """setupViewBobbing as a view-space matrix: what Beta applies to the scene and to the hand."""
    return (translate(bob.right, bob.up, 0.0) @ rotate(bob.roll, 0.0, 0.0, 1.0)
            @ rotate(bob.tilt, 1.0, 0.0, 0.0) @ rotate(bob.fall_pitch, 1.0, 0.0, 0.0))


HAND_DISTANCE = 0.8
"""ItemRenderer's `f4 = 0.8F`: the hand's whole offset is scaled by it."""
EQUIP_DROP = 0.6
"""[blocks] ItemRenderer lowers the hand by (1 - equippedProgress) x 0.6 while it dips."""
HELD_BLOCK_SCALE = 0.4
"""ItemRenderer draws a held block at 0.4 of a block (its unit cube, centred)."""


def held_block_matrix(swing: float, equip: float, bob: Bobbing = NO_BOBBING) -> np.ndarray:
    """Where ItemRenderer draws a held block's unit cube (centred on the origin) in view space, at
    swing progress `swing` (0..1, 0 not swinging) and equip progress `equip` (0..1)."""
    root = math.sqrt(swing)
    matrix = bobbing_matrix(bob) @ translate(-math.sin(root * math.pi) * 0.4,
                                             math.sin(root * math.pi * 2.0) * 0.2,
                                             -math.sin(swing * math.pi) * 0.2)
    matrix = matrix @ translate(0.7 * HAND_DISTANCE, -0.65 * HAND_DISTANCE - (1.0 - equip) * EQUIP_DROP,
                                -0.9 * HAND_DISTANCE)
    matrix = matrix @ rotate(45.0, 0.0, 1.0, 0.0)
    matrix = matrix @ rotate(-math.sin(swing * swing * math.pi) * 20.0, 0.0, 1.0, 0.0)
    matrix = matrix @ rotate(-math.sin(root * math.pi) * 20.0, 0.0, 0.0, 1.0)
    matrix = matrix @ rotate(-math.sin(root * math.pi) * 80.0, 1.0, 0.0, 0.0)
    return matrix @ scale(HELD_BLOCK_SCALE)


PIXEL = 1.0 / 16.0
"""[blocks] One texel of Beta's player model (ModelRenderer scale 0.0625F)."""
ARM_BOX = (-3.0, -2.0, -2.0, 1.0, 10.0, 2.0)
"""[pixels] ModelBiped's right arm: a 4 x 12 x 4 box about its shoulder."""
ARM_SHOULDER = (-5.0, 2.0, 0.0)
"""[pixels] ModelBiped's right arm's rotation point."""
ARM_IDLE_ROLL = math.degrees(0.1)
"""[degrees] ModelBiped's idle arm sway at time 0 (cos(0) x 0.05 + 0.05 radians about z)."""


def empty_hand_matrix(swing: float, equip: float, bob: Bobbing = NO_BOBBING) -> np.ndarray:
    """Where ItemRenderer draws the bare right arm in view space: the matrix for ARM_BOX's corners
    in pixels (PIXEL is folded in)."""
    root = math.sqrt(swing)
    matrix = bobbing_matrix(bob) @ translate(-math.sin(root * math.pi) * 0.3,
                                             math.sin(root * math.pi * 2.0) * 0.4,
                                             -math.sin(swing * math.pi) * 0.4)
    matrix = matrix @ translate(0.8 * HAND_DISTANCE, -0.75 * HAND_DISTANCE - (1.0 - equip) * EQUIP_DROP,
                                -0.9 * HAND_DISTANCE)
    matrix = matrix @ rotate(45.0, 0.0, 1.0, 0.0)
    matrix = matrix @ rotate(math.sin(root * math.pi) * 70.0, 0.0, 1.0, 0.0)
    matrix = matrix @ rotate(-math.sin(swing * swing * math.pi) * 20.0, 0.0, 0.0, 1.0)
    matrix = matrix @ translate(-1.0, 3.6, 3.5) @ rotate(120.0, 0.0, 0.0, 1.0) @ rotate(200.0, 1.0, 0.0, 0.0)
    matrix = matrix @ rotate(-135.0, 0.0, 1.0, 0.0) @ translate(5.6, 0.0, 0.0)
    matrix = matrix @ translate(*(v * PIXEL for v in ARM_SHOULDER)) @ rotate(ARM_IDLE_ROLL, 0.0, 0.0, 1.0)
    return matrix @ scale(PIXEL)
