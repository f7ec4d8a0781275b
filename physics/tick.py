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
Creature traits (`Intent`): a body that `climbs_walls` counts as on a ladder exactly when a move
is blocked sideways, whatever the cells hold (Beta's EntitySpider: `isOnLadder()` returns
`isCollidedHorizontally`), so the clamps before the move read the previous move's flag and the
climb after it the move's own; a `slow_fall` body (Beta's EntityChicken, after its whole
update) not on the ground after the tick with a negative vertical velocity keeps
`slow_fall_drag` (0.6) of it, in every kind of tick.
Sprinting (not in Beta) multiplies the land acceleration by 1.3 and adds 0.2 forward to a jump.
Flying (not in Beta; as later creative flight): jump and sneak add +-0.15 vertical velocity
instead of jumping and sneaking, acceleration is 0.05 (x2 sprinting) with air friction, and after
the move vertical velocity is multiplied by 0.6 instead of gravity and drag; fluids, ladders and
falls do not act on a flying body (cobwebs and soul sand do, in the move).
Does not own: collision (see `mover.py`).

Two forms of the same tick: `step_by_parts` composes it from `media`, `mover.finish_move` and
`mover.collide` (the readable definition, and what flying and debug ticks run), and
`_land_step` writes a land tick out in one function with the same float operations in the same
order (what most ticks run), `_fluid_step` a tick in water or lava. tests/physics/test_land_step.py
compares their bits with `step_by_parts` on random worlds (water and lava included).
"""

from __future__ import annotations

import functools
import math
from math import copysign, floor

from .body import Body, Intent
from .debug import DebugSink
from .floats import DEG_TO_RAD_F, PI_F, beta_cos, beta_sin, f32
from .media import (DRY, NO_TOUCH, NOTHING_READ, Medium, MediumRead, contact_pass, free_of_blocks_and_fluid,
                    medium_before_move, on_ladder, read_medium)
from .mover import collide, collide_unguarded, finish_move, require_arguments
from .settings import BETA, MovementSettings
from .world import DEFAULT_SLIPPERINESS, MIN_SLIPPERINESS, CollisionWorld, slipperiness_at
from .messages import shown

MEMO_ENTRIES = 4096
"""[entries] How many answers each remembered pure function of the step keeps (least recently
used go first): far more headings than a game's bodies use at once."""
MIN_INPUT = f32(0.01)  # Beta's moveFlying ignores input shorter than 0.01F
DEGREES_PER_HALF_TURN = 180.0


def step(body: Body, world: CollisionWorld, intent: Intent, settings: MovementSettings = BETA,
         debug: DebugSink | None = None) -> Body:
    """Advance `body` by one tick under `intent`; returns the new body (the old one is unchanged).

    A tick on land (not flying, swimming or reporting to a debug sink) runs `_land_step`, the
    same arithmetic as `step_by_parts` in one function, a tick in water or lava `_fluid_step`;
    flying and debug ticks run `step_by_parts`."""
    if not isinstance(intent, Intent):
        raise TypeError(f"step needs a physics.Intent, got {shown(intent)}")
    require_arguments(body, world, settings, debug)
    read = read_medium(world, body.box, settings)
    medium = read.medium
    if intent.fly or debug is not None:
        return _step_by_parts(body, world, intent, settings, debug, medium, read)
    if medium is not DRY and (medium.in_water or medium.in_lava):
        return _fluid_step(body, world, intent, settings, medium, read)
    return _land_step(body, world, intent, settings, read)


def step_by_parts(body: Body, world: CollisionWorld, intent: Intent, settings: MovementSettings = BETA,
                  debug: DebugSink | None = None) -> Body:
    """`step` composed from its parts (`medium_before_move`, `finish_move`, `mover.collide`): the
    readable definition, which `step` equals bit for bit (tests compare them)."""
    if not isinstance(intent, Intent):
        raise TypeError(f"step needs a physics.Intent, got {shown(intent)}")
    require_arguments(body, world, settings, debug)
    return _step_by_parts(body, world, intent, settings, debug, medium_before_move(world, body.box, settings))


def _step_by_parts(body: Body, world: CollisionWorld, intent: Intent, settings: MovementSettings,
                   debug: DebugSink | None, medium: Medium, read: MediumRead = NOTHING_READ) -> Body:
    """The tick (`_move_by_parts`), then the `slow_fall` trait."""
    after = _move_by_parts(body, world, intent, settings, debug, medium, read)
    return slowed_fall(after, settings) if intent.slow_fall else after


def slowed_fall(body: Body, settings: MovementSettings = BETA) -> Body:
    """Beta's EntityChicken after its update: a body not on the ground whose vertical velocity
    is negative keeps `slow_fall_drag` of it (`motionY *= 0.6D`); any other body is unchanged."""
    vx, vy, vz = body.velocity
    if body.on_ground or not vy < 0.0:
        return body
    return body._with_velocity((vx, vy * settings.slow_fall_drag, vz))


def _move_by_parts(body: Body, world: CollisionWorld, intent: Intent, settings: MovementSettings,
                   debug: DebugSink | None, medium: Medium, read: MediumRead = NOTHING_READ) -> Body:
    vx, vy, vz = body.velocity
    fall_distance = body.fall_distance
    if intent.fly:
        return _fly(body, world, intent, settings, debug, medium, read)
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
                           after=drag_and_climb_out, fall_distance=fall_distance, medium=medium, read=read)

    friction = ground_friction(body, world, settings) if body.on_ground else settings.friction_factor
    if body.on_ground:
        acceleration = _ground_acceleration(friction, settings.ground_acceleration,
                                            settings.ground_acceleration_reference)
    else:
        acceleration = settings.air_acceleration
    if sprinting:
        acceleration = f32(acceleration * settings.sprint_acceleration_scale)
    vx, vz = _accelerate(vx, vz, strafe, forward, yaw, acceleration)

    climbs_walls = intent.climbs_walls
    if body.collided_horizontally if climbs_walls else medium.on_ladder:
        limit = settings.ladder_max_sideways
        vx = min(max(vx, -limit), limit)
        vz = min(max(vz, -limit), limit)
        fall_distance = 0.0
        vy = max(vy, -settings.ladder_max_descent)
        if intent.sneak and vy < 0.0:
            vy = 0.0

    gravity, drag = settings.gravity, settings.vertical_drag

    def climb_gravity_drag_friction(vx, vy, vz, box, collided_horizontally):
        if collided_horizontally and (climbs_walls or on_ladder(world, box)):
            vy = settings.ladder_climb_velocity
        return (vx * friction, (vy - gravity) * drag, vz * friction)

    return finish_move(body, (vx, vy, vz), vx, vy, vz, world, settings, intent.sneak, lag, debug,
                       after=climb_gravity_drag_friction, fall_distance=fall_distance, medium=medium, read=read)


def _land_step(body: Body, world: CollisionWorld, intent: Intent, settings: MovementSettings, read: MediumRead) -> Body:
    """`step_by_parts` for a tick on land (no flying, no water or lava, no debug sink), with
    `finish_move` and `mover.collide_unguarded` written into it: the same float operations in
    the same order, without the calls, closures and per-axis boxes between them. What depends
    only on the settings, the intent and the ground is remembered (`_land_push_for`); the
    contact pass and the ladder test answer from what the medium read found when it holds their
    cells (`media.contact_pass`)."""
    vx, vy, vz = body.velocity
    on_ground = body.on_ground
    sneak = intent.sneak
    forward = intent.forward
    strafe = intent.strafe
    if on_ground:  # the block under the centre of the feet, as `ground_friction` reads it
        box = body.box
        x, y, z = floor((box[0] + box[3]) / 2.0), floor(box[1]) - 1, floor((box[2] + box[5]) / 2.0)
        query = getattr(world, "slipperiness", None)
        slipperiness = DEFAULT_SLIPPERINESS if query is None else query(x, y, z)
        if not (slipperiness.__class__ is float and MIN_SLIPPERINESS <= slipperiness <= 1.0):
            slipperiness = slipperiness_at(world, x, y, z)  # not a float in range: its full check (and error)
    else:
        slipperiness = None
    sprinting, yaw, friction, change = _land_push_for(settings)(
        forward, strafe, intent.yaw, copysign(1.0, forward), copysign(1.0, strafe), sneak,
        intent.sprint, slipperiness)
    camera_lag = body.camera_lag
    if sneak and camera_lag < settings.sneak_camera_lag:
        camera_lag = settings.sneak_camera_lag
    if intent.jump and on_ground:
        vy = settings.jump_velocity
        if sprinting:
            radians = f32(yaw * DEG_TO_RAD_F)
            vx -= beta_sin(radians) * settings.sprint_jump_boost
            vz += beta_cos(radians) * settings.sprint_jump_boost
    # f32(0.0 x decay) is 0.0 (and -0.0 stays -0.0): most bodies have no lag.
    lag = camera_lag if camera_lag == 0.0 else f32(camera_lag * settings.camera_lag_decay)
    if change is not None:
        vx += change[0]
        vz += change[1]

    fall_distance = body.fall_distance
    climbs_walls = intent.climbs_walls
    if body.collided_horizontally if climbs_walls else read.medium.on_ladder:
        limit = settings.ladder_max_sideways
        vx = min(max(vx, -limit), limit)
        vz = min(max(vz, -limit), limit)
        fall_distance = 0.0
        vy = max(vy, -settings.ladder_max_descent)
        if sneak and vy < 0.0:
            vy = 0.0

    # `finish_move`, with the land tick's `after` (ladder climb, gravity, drag, friction) at its end.
    box, vx, vy, vz, landed, horizontally, vertically, lag, fall_distance, damage = _move_written_out(
        body, on_ground, sneak, vx, vy, vz, lag, fall_distance, world, settings)

    region, inset = read.region, settings.contact_inset
    if (not read.cells and region is not None  # the contact pass's cells were read, all AIR, before the move
            and region[0] <= floor(box[0] + inset) and region[1] <= floor(box[1] + inset)
            and region[2] <= floor(box[2] + inset) and floor(box[3] - inset) <= region[3]
            and floor(box[4] - inset) <= region[4] and floor(box[5] - inset) <= region[5]):
        touching, in_web = NO_TOUCH, False
    else:
        contact = contact_pass(world, box, settings, read)
        for _ in range(contact.soul_sand_cells):
            vx *= settings.soul_sand_slowdown
            vz *= settings.soul_sand_slowdown
        touching, in_web = contact.touching, contact.in_web
    if horizontally and (climbs_walls or on_ladder(world, box, read)):
        vy = settings.ladder_climb_velocity
    vy = (vy - settings.gravity) * settings.vertical_drag
    if intent.slow_fall and not landed and vy < 0.0:
        vy *= settings.slow_fall_drag
    return Body._trusted(box, (vx * friction, vy, vz * friction),
                         landed, horizontally, vertically, lag, fall_distance, False, False, in_web, damage, touching)


def _fluid_step(body: Body, world: CollisionWorld, intent: Intent, settings: MovementSettings, medium: Medium,
                read: MediumRead) -> Body:
    """`step_by_parts` for a tick in water or lava (not flying, no debug sink), written out as
    `_land_step` is: the same float operations in the same order, the move by
    `mover.collide_unguarded` (`collide` while sneaking on the ground), without `finish_move`'s
    closure and per-axis boxes."""
    vx, vy, vz = body.velocity
    fall_distance = body.fall_distance
    if medium.in_water:
        fall_distance = 0.0
        if medium.current is not None:
            cx, cy, cz = medium.current
            vx += cx
            vy += cy
            vz += cz
    sneak = intent.sneak
    forward, strafe = intent.forward, intent.strafe
    change = _fluid_push(forward, strafe, intent.yaw, copysign(1.0, forward), copysign(1.0, strafe), sneak,
                         settings.sneak_input_scale, settings.input_decay, settings.swim_acceleration)
    camera_lag = body.camera_lag
    if sneak and camera_lag < settings.sneak_camera_lag:
        camera_lag = settings.sneak_camera_lag
    if intent.jump:
        vy += settings.swim_up_acceleration
    # f32(0.0 x decay) is 0.0 (and -0.0 stays -0.0).
    lag = camera_lag if camera_lag == 0.0 else f32(camera_lag * settings.camera_lag_decay)
    if change is not None:
        vx += change[0]
        vz += change[1]

    # `finish_move`, with the fluid tick's `after` (drag, fluid gravity, climbing out) at its end.
    on_ground = body.on_ground
    box, vx, vy, vz, landed, horizontally, vertically, lag, fall_distance, damage = _move_written_out(
        body, on_ground, sneak, vx, vy, vz, lag, fall_distance, world, settings)
    contact = contact_pass(world, box, settings, read)
    for _ in range(contact.soul_sand_cells):
        vx *= settings.soul_sand_slowdown
        vz *= settings.soul_sand_slowdown
    drag = settings.water_drag if medium.in_water else settings.lava_drag
    vx, vy, vz = vx * drag, vy * drag, vz * drag
    vy -= settings.fluid_gravity
    # Beta offsets by its eye position change; Boxel by the feet's (see the module docstring).
    if horizontally and free_of_blocks_and_fluid(
            world, box.offset(vx, ((vy + settings.fluid_jump_out_lift) - box[1]) + body.box[1], vz)):
        vy = settings.fluid_jump_out_velocity
    if intent.slow_fall and not landed and vy < 0.0:
        vy *= settings.slow_fall_drag
    return Body._trusted(box, (vx, vy, vz), landed, horizontally, vertically, lag, fall_distance, medium.in_water,
                         medium.in_lava, contact.in_web, damage, contact.touching)


def _move_written_out(body: Body, on_ground: bool, sneak: bool, vx: float, vy: float, vz: float, lag: float,
                      fall_distance: float, world: CollisionWorld, settings: MovementSettings) -> tuple:
    """`finish_move`'s move for `_land_step` and `_fluid_step`: the web's scaling, the move by
    `mover.collide_unguarded` (`collide` while sneaking on the ground), the blocked axes' velocity
    zeroed, and a landing's fall distance and damage: the same float operations in the same order.
    Returns (box, vx, vy, vz, landed, collided horizontally, collided vertically, camera lag,
    fall distance, fall damage)."""
    dx, dy, dz = vx, vy, vz
    if body.in_web:
        dx *= settings.web_horizontal_scale
        dy *= settings.web_vertical_scale
        dz *= settings.web_horizontal_scale
        vx = vy = vz = 0.0
    if sneak and on_ground:
        box, (dx, dy, dz), (adx, ady, adz), lag = collide(body.box, True, dx, dy, dz, world, settings, True, lag, None)
    else:
        box, (adx, ady, adz), lag = collide_unguarded(body.box, on_ground, dx, dy, dz, world, settings, lag,
                                                      body.collided_horizontally)
    if dx != adx:
        vx = 0.0
    if dy != ady:
        vy = 0.0
    if dz != adz:
        vz = 0.0
    landed = dy != ady and dy < 0.0
    horizontally = dx != adx or dz != adz
    damage = 0
    if landed:
        if fall_distance > 0.0:
            damage = max(0, math.ceil(f32(fall_distance - settings.safe_fall_distance)))
            fall_distance = 0.0
    elif ady < 0.0:
        fall_distance = f32(fall_distance - ady)
    return box, vx, vy, vz, landed, horizontally, dy != ady, lag, fall_distance, damage


@functools.lru_cache(maxsize=MEMO_ENTRIES)
def _fluid_push(forward: float, strafe: float, yaw: float, forward_sign: float, strafe_sign: float, sneak: bool,
                sneak_scale: float, decay: float, acceleration: float) -> tuple[float, float] | None:
    """A fluid tick's change of (vx, vz) from its input, as `step_by_parts` computes it (Beta's
    input handling, then `moveFlying` with the swim acceleration), remembered: a swimmer asks the
    same each tick. The signs are part of the key, as in `_land_push`."""
    _, yaw, strafe, forward = _land_input(forward, strafe, yaw, sneak, False, sneak_scale, decay)
    return input_acceleration(strafe, forward, yaw, acceleration)


MAX_REMEMBERED_SETTINGS = 64
"""[settings] How many MovementSettings objects `_land_push_for` keeps a table for before it
starts again (a game uses one or two)."""
_LAND_PUSH_TABLES: dict[int, tuple[MovementSettings, object]] = {}
_last_push: tuple[MovementSettings | None, object] = (None, None)  # the table asked for last


def _land_push_for(settings: MovementSettings):
    """`_land_push` for `settings`, remembered per intent and ground (keyed by the settings object:
    hashing a MovementSettings hashes its 47 fields)."""
    global _last_push
    if _last_push[0] is settings:
        return _last_push[1]
    entry = _LAND_PUSH_TABLES.get(id(settings))
    if entry is None or entry[0] is not settings:
        if len(_LAND_PUSH_TABLES) >= MAX_REMEMBERED_SETTINGS:
            _LAND_PUSH_TABLES.clear()
        entry = (settings, functools.lru_cache(maxsize=MEMO_ENTRIES)(functools.partial(_land_push, settings)))
        _LAND_PUSH_TABLES[id(settings)] = entry
    _last_push = entry
    return entry[1]


def _land_push(settings: MovementSettings, forward: float, strafe: float, yaw: float, forward_sign: float,
               strafe_sign: float, sneak: bool, sprint: bool,
               slipperiness: float | None) -> tuple[bool, float, float, tuple[float, float] | None]:
    """What a land tick's input and ground give, as `step_by_parts` computes them: (sprinting,
    yaw, friction, change of (vx, vz) or None). `slipperiness` is None in the air. The signs of
    forward and strafe are part of the key because 0.0 and -0.0 are equal keys but give changes
    of different sign."""
    sprinting, yaw, strafe, forward = _land_input(forward, strafe, yaw, sneak, sprint, settings.sneak_input_scale,
                                                  settings.input_decay)
    if slipperiness is None:
        friction, acceleration = settings.friction_factor, settings.air_acceleration
    else:
        friction = f32(f32(slipperiness) * settings.friction_factor)
        acceleration = _ground_acceleration(friction, settings.ground_acceleration,
                                            settings.ground_acceleration_reference)
    if sprinting:
        acceleration = f32(acceleration * settings.sprint_acceleration_scale)
    return sprinting, yaw, friction, input_acceleration(strafe, forward, yaw, acceleration)


def _land_input(forward: float, strafe: float, yaw: float, sneak: bool, sprint: bool, sneak_scale: float,
                decay: float) -> tuple[bool, float, float, float]:
    """Beta's input handling on land: (sprinting, yaw, strafe, forward) as `step_by_parts`
    computes them (float32, x0.3 while sneaking, x0.98)."""
    forward, strafe, yaw = f32(forward), f32(strafe), f32(yaw)
    if sneak:
        forward = f32(forward * sneak_scale)
        strafe = f32(strafe * sneak_scale)
    sprinting = sprint and forward > 0.0 and not sneak
    return sprinting, yaw, f32(strafe * decay), f32(forward * decay)


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
         debug: DebugSink | None, medium: Medium, read: MediumRead = NOTHING_READ) -> Body:
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
                       fall_distance=0.0, medium=medium, read=read)


def ground_friction(body: Body, world: CollisionWorld, settings: MovementSettings = BETA) -> float:
    """Horizontal velocity multiplier for a grounded body: slipperiness of the block under its feet x 0.91."""
    b = body.box
    below = (math.floor((b[0] + b[3]) / 2.0), math.floor(b[1]) - 1, math.floor((b[2] + b[5]) / 2.0))
    return f32(f32(slipperiness_at(world, *below)) * settings.friction_factor)
