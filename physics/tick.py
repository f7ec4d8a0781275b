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
Sprinting (not in Beta) multiplies the acceleration by 1.3 and adds 0.2 forward to a jump.
Flying (not in Beta; as later creative flight): jump and sneak add +-0.15 vertical velocity
instead of jumping and sneaking, acceleration is 0.05 (x2 sprinting) with air friction, and after
the move vertical velocity is multiplied by 0.6 instead of gravity and drag.
Does not own: collision (see `mover.py`).
"""

from __future__ import annotations

import math

from .body import Body, Intent
from .debug import DebugSink
from .floats import DEG_TO_RAD_F, PI_F, beta_cos, beta_sin, f32
from .mover import finish_move
from .settings import BETA, MovementSettings
from .world import CollisionWorld, slipperiness_at

MIN_INPUT = f32(0.01)  # Beta's moveFlying ignores input shorter than 0.01F
DEGREES_PER_HALF_TURN = 180.0


def step(body: Body, world: CollisionWorld, intent: Intent, settings: MovementSettings = BETA,
         debug: DebugSink | None = None) -> Body:
    """Advance `body` by one tick under `intent`; returns the new body (the old one is unchanged)."""
    if not isinstance(intent, Intent):
        raise TypeError(f"step needs a physics.Intent, got {intent!r}")
    if intent.fly:
        return _fly(body, world, intent, settings, debug)
    forward = f32(intent.forward)
    strafe = f32(intent.strafe)
    yaw = f32(intent.yaw)
    camera_lag = body.camera_lag
    if intent.sneak:
        forward = f32(forward * settings.sneak_input_scale)
        strafe = f32(strafe * settings.sneak_input_scale)
        if camera_lag < settings.sneak_camera_lag:
            camera_lag = settings.sneak_camera_lag
    sprinting = intent.sprint and forward > 0.0 and not intent.sneak
    vx, vy, vz = body.velocity

    if intent.jump and body.on_ground:
        vy = settings.jump_velocity
        if sprinting:
            radians = f32(yaw * DEG_TO_RAD_F)
            vx -= beta_sin(radians) * settings.sprint_jump_boost
            vz += beta_cos(radians) * settings.sprint_jump_boost

    strafe = f32(strafe * settings.input_decay)
    forward = f32(forward * settings.input_decay)

    friction = ground_friction(body, world, settings) if body.on_ground else settings.friction_factor
    if body.on_ground:
        cubed = f32(f32(friction * friction) * friction)
        acceleration = f32(settings.ground_acceleration * f32(settings.ground_acceleration_reference / cubed))
    else:
        acceleration = settings.air_acceleration
    if sprinting:
        acceleration = f32(acceleration * settings.sprint_acceleration_scale)

    # Beta's moveFlying: normalise input longer than 1, scale by acceleration, rotate by yaw.
    length = f32(math.sqrt(f32(f32(strafe * strafe) + f32(forward * forward))))
    if length >= MIN_INPUT:
        scale = f32(acceleration / max(length, 1.0))
        strafe = f32(strafe * scale)
        forward = f32(forward * scale)
        radians = f32(f32(yaw * PI_F) / DEGREES_PER_HALF_TURN)
        sin, cos = beta_sin(radians), beta_cos(radians)
        vx += f32(f32(strafe * cos) - f32(forward * sin))
        vz += f32(f32(forward * cos) + f32(strafe * sin))

    gravity, drag = settings.gravity, settings.vertical_drag

    def gravity_drag_friction(vx: float, vy: float, vz: float) -> tuple[float, float, float]:
        return (vx * friction, (vy - gravity) * drag, vz * friction)

    lag = f32(camera_lag * settings.camera_lag_decay)
    return finish_move(body, (vx, vy, vz), vx, vy, vz, world, settings, intent.sneak, lag, debug,
                       after=gravity_drag_friction)


def _fly(body: Body, world: CollisionWorld, intent: Intent, settings: MovementSettings,
         debug: DebugSink | None) -> Body:
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

    def drag(vx: float, vy: float, vz: float) -> tuple[float, float, float]:
        return (vx * friction, vy * vertical_drag, vz * friction)

    lag = f32(body.camera_lag * settings.camera_lag_decay)
    return finish_move(body, (vx, vy, vz), vx, vy, vz, world, settings, False, lag, debug, after=drag)


def ground_friction(body: Body, world: CollisionWorld, settings: MovementSettings = BETA) -> float:
    """Horizontal velocity multiplier for a grounded body: slipperiness of the block under its feet x 0.91."""
    b = body.box
    below = (math.floor((b[0] + b[3]) / 2.0), math.floor(b[1]) - 1, math.floor((b[2] + b[5]) / 2.0))
    return f32(f32(slipperiness_at(world, *below)) * settings.friction_factor)
