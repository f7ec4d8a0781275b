"""`step`: one 20 Hz tick of a walking body, Beta's `onLivingUpdate` + `moveEntityWithHeading`.

Owns: turning an `Intent` into velocity (jump, input decay, acceleration, friction, gravity,
drag) around one `move`, in Beta's order:
1. jump, only if the body was on the ground after the previous tick (0.42);
2. input x0.98 (x0.3 first while sneaking; sneaking also lowers the camera);
3. friction from the block under the feet (slipperiness x 0.91 on the ground, 0.91 in the air),
   read before the move, so the jump tick uses ground friction and the landing tick air friction;
4. acceleration (ground 0.1 x 0.16277136 / friction^3, air 0.02) along the yaw;
5. the move (`mover.collide`);
6. gravity then drag on Y (-0.08, x0.98), friction on X and Z.
Before all of that the medium is decided (`media.medium_before_move`): in water the fall
distance is reset and the current added to the velocity. Holding jump in water or lava adds
0.04F to the vertical velocity instead of jumping. In water or lava the tick is: acceleration
0.02F along the input, the move, all velocity x0.8F (water) or x0.5 (lava), then -0.02; after a
move blocked sideways where the body, lifted by 0.6F above its next position, would be free of
blocks and fluid, vertical velocity 0.3F (climbing out onto a bank; Beta places that test by the
change of its eye height, Boxel by the feet's, which is the same change but for rounding). On a
ladder (the cell at the body's centre and feet), before the move, X and Z velocity are clamped
to +-0.15F, the fall distance reset, vertical velocity kept at or above -0.15 and at 0 while
sneaking; after a move blocked sideways on a ladder vertical velocity is 0.2.
Sprinting (not in Beta) multiplies the land acceleration by 1.3 and adds 0.2 forward to a jump.
Flying (not in Beta; as later creative flight): jump and sneak add +-0.15 vertical velocity
instead of jumping and sneaking, acceleration is 0.05 (x2 sprinting) with air friction, and after
the move vertical velocity is multiplied by 0.6 instead of gravity and drag; fluids, ladders and
falls do not act on a flying body (cobwebs and soul sand do, in the move).
Does not own: collision (see `mover.py`).
"""

from __future__ import annotations

import functools
import math

from .body import Body, Intent
from .debug import DebugSink
from .floats import DEG_TO_RAD_F, PI_F, beta_cos, beta_sin, f32
from .media import Medium, free_of_blocks_and_fluid, medium_before_move, on_ladder
from .mover import finish_move, require_arguments
from .settings import BETA, MovementSettings
from .world import CollisionWorld, slipperiness_at
from .messages import shown

MEMO_ENTRIES = 4096
"""[entries] How many answers each remembered pure function of the step keeps (least recently
used go first): far more headings than a game's bodies use at once."""
MIN_INPUT = f32(0.01)  # Beta's moveFlying ignores input shorter than 0.01F
DEGREES_PER_HALF_TURN = 180.0


def step(body: Body, world: CollisionWorld, intent: Intent, settings: MovementSettings = BETA,
         debug: DebugSink | None = None) -> Body:
    """Advance `body` by one tick under `intent`; returns the new body (the old one is unchanged)."""
    if not isinstance(intent, Intent):
        raise TypeError(f"step needs a physics.Intent, got {shown(intent)}")
    require_arguments(body, world, settings, debug)
    medium = medium_before_move(world, body.box, settings)
    vx, vy, vz = body.velocity
    fall_distance = body.fall_distance
    if intent.fly:
        return _fly(body, world, intent, settings, debug, medium)
    if medium.in_water:
        fall_distance = 0.0
        if medium.current is not None:
            cx, cy, cz = medium.current
            vx += cx
            vy += cy
            vz += cz
    forward = f32(intent.forward)
    strafe = f32(intent.strafe)
    yaw = f32(intent.yaw)
    camera_lag = body.camera_lag
    if intent.sneak:
        forward = f32(forward * settings.sneak_input_scale)
        strafe = f32(strafe * settings.sneak_input_scale)
        if camera_lag < settings.sneak_camera_lag:
            camera_lag = settings.sneak_camera_lag
    swimming = medium.in_water or medium.in_lava
    sprinting = intent.sprint and forward > 0.0 and not intent.sneak and not swimming

    if intent.jump:
        if swimming:
            vy += settings.swim_up_acceleration
        elif body.on_ground:
            vy = settings.jump_velocity
            if sprinting:
                radians = f32(yaw * DEG_TO_RAD_F)
                vx -= beta_sin(radians) * settings.sprint_jump_boost
                vz += beta_cos(radians) * settings.sprint_jump_boost

    strafe = f32(strafe * settings.input_decay)
    forward = f32(forward * settings.input_decay)
    lag = f32(camera_lag * settings.camera_lag_decay)

    if swimming:
        vx, vz = _accelerate(vx, vz, strafe, forward, yaw, settings.swim_acceleration)
        drag = settings.water_drag if medium.in_water else settings.lava_drag
        fluid_gravity, y_before = settings.fluid_gravity, body.box[1]

        def drag_and_climb_out(vx, vy, vz, box, collided_horizontally):
            vx, vy, vz = vx * drag, vy * drag, vz * drag
            vy -= fluid_gravity
            # Beta offsets by its eye position change; Boxel by the feet's (see the module docstring).
            if collided_horizontally and free_of_blocks_and_fluid(
                    world, box.offset(vx, ((vy + settings.fluid_jump_out_lift) - box[1]) + y_before, vz)):
                vy = settings.fluid_jump_out_velocity
            return vx, vy, vz

        return finish_move(body, (vx, vy, vz), vx, vy, vz, world, settings, intent.sneak, lag, debug,
                           after=drag_and_climb_out, fall_distance=fall_distance, medium=medium)

    friction = ground_friction(body, world, settings) if body.on_ground else settings.friction_factor
    if body.on_ground:
        acceleration = _ground_acceleration(friction, settings.ground_acceleration,
                                            settings.ground_acceleration_reference)
    else:
        acceleration = settings.air_acceleration
    if sprinting:
        acceleration = f32(acceleration * settings.sprint_acceleration_scale)
    vx, vz = _accelerate(vx, vz, strafe, forward, yaw, acceleration)

    if medium.on_ladder:
        limit = settings.ladder_max_sideways
        vx = min(max(vx, -limit), limit)
        vz = min(max(vz, -limit), limit)
        fall_distance = 0.0
        vy = max(vy, -settings.ladder_max_descent)
        if intent.sneak and vy < 0.0:
            vy = 0.0

    gravity, drag = settings.gravity, settings.vertical_drag

    def climb_gravity_drag_friction(vx, vy, vz, box, collided_horizontally):
        if collided_horizontally and on_ladder(world, box):
            vy = settings.ladder_climb_velocity
        return (vx * friction, (vy - gravity) * drag, vz * friction)

    return finish_move(body, (vx, vy, vz), vx, vy, vz, world, settings, intent.sneak, lag, debug,
                       after=climb_gravity_drag_friction, fall_distance=fall_distance, medium=medium)


def _accelerate(vx: float, vz: float, strafe: float, forward: float, yaw: float,
                acceleration: float) -> tuple[float, float]:
    """Beta's `moveFlying`: add the velocity change of `input_acceleration` (if any)."""
    change = _remembered_input_acceleration(strafe, forward, yaw, acceleration,
                                            math.copysign(1.0, strafe), math.copysign(1.0, forward))
    if change is not None:
        vx += change[0]
        vz += change[1]
    return vx, vz


@functools.lru_cache(maxsize=MEMO_ENTRIES)
def _remembered_input_acceleration(strafe: float, forward: float, yaw: float, acceleration: float,
                                   strafe_sign: float, forward_sign: float) -> tuple[float, float] | None:
    """`input_acceleration`, remembered: a body walking one way asks the same each tick, and its
    13 float32 roundings cost about a fifth of a dry step. The signs are part of the key because
    0.0 and -0.0 are equal keys but may give zero changes of different sign."""
    return input_acceleration(strafe, forward, yaw, acceleration)


def input_acceleration(strafe: float, forward: float, yaw: float, acceleration: float) -> tuple[float, float] | None:
    """Beta's `moveFlying` change of (vx, vz): normalise input longer than 1, scale by
    acceleration, rotate by yaw (all float32); None for input shorter than 0.01F."""
    length = f32(math.sqrt(f32(f32(strafe * strafe) + f32(forward * forward))))
    if length < MIN_INPUT:
        return None
    scale = f32(acceleration / max(length, 1.0))
    strafe = f32(strafe * scale)
    forward = f32(forward * scale)
    radians = f32(f32(yaw * PI_F) / DEGREES_PER_HALF_TURN)
    sin, cos = beta_sin(radians), beta_cos(radians)
    return f32(f32(strafe * cos) - f32(forward * sin)), f32(f32(forward * cos) + f32(strafe * sin))


@functools.lru_cache(maxsize=MEMO_ENTRIES)
def _ground_acceleration(friction: float, acceleration: float, reference: float) -> float:
    """Beta's ground acceleration 0.1F x (0.16277136F / friction^3), in float32 (remembered: a few
    frictions occur)."""
    cubed = f32(f32(friction * friction) * friction)
    return f32(acceleration * f32(reference / cubed))


def _fly(body: Body, world: CollisionWorld, intent: Intent, settings: MovementSettings,
         debug: DebugSink | None, medium: Medium) -> Body:
    vx, vy, vz = body.velocity
    vy += settings.flying_vertical_acceleration * ((1.0 if intent.jump else 0.0) - (1.0 if intent.sneak else 0.0))
    acceleration = settings.flying_acceleration * (2.0 if intent.sprint else 1.0)
    forward, strafe = intent.forward * settings.input_decay, intent.strafe * settings.input_decay
    length = math.hypot(forward, strafe)
    if length >= MIN_INPUT:
        scale = acceleration / max(length, 1.0)
        radians = math.radians(intent.yaw)
        sin, cos = math.sin(radians), math.cos(radians)
        vx += (strafe * cos - forward * sin) * scale
        vz += (forward * cos + strafe * sin) * scale
    friction, vertical_drag = settings.friction_factor, settings.flying_vertical_drag

    def drag(vx: float, vy: float, vz: float, box, collided_horizontally) -> tuple[float, float, float]:
        return (vx * friction, vy * vertical_drag, vz * friction)

    lag = f32(body.camera_lag * settings.camera_lag_decay)
    return finish_move(body, (vx, vy, vz), vx, vy, vz, world, settings, False, lag, debug, after=drag,
                       fall_distance=0.0, medium=medium)


def ground_friction(body: Body, world: CollisionWorld, settings: MovementSettings = BETA) -> float:
    """Horizontal velocity multiplier for a grounded body: slipperiness of the block under its feet x 0.91."""
    b = body.box
    below = (math.floor((b[0] + b[3]) / 2.0), math.floor(b[1]) - 1, math.floor((b[2] + b[5]) / 2.0))
    return f32(f32(slipperiness_at(world, *below)) * settings.friction_factor)
