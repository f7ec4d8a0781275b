"""One arrow: Beta 1.7.3's `EntityArrow`, shot, flown, stuck and picked up, bit for bit.

Owns: `Arrow` (an immutable snapshot of one arrow), the ways an arrow is made (`shoot`: from a
point along an aim, `EntityArrow(world, x, y, z)` then `setArrowHeading`; `loosed`: from a living
shooter's eye along its look, `EntityArrow(world, EntityLiving)`; `aimed` and `raised`, what a
shooter does to it next; `skeleton_arrow`, `EntitySkeleton.attackEntity`'s arrow), `step_arrow`
(one tick, `EntityArrow.onUpdate`), `ArrowHit` (a body was hit), `ArrowSound` and `picked_up`
(`onCollideWithPlayer`).
Pure: no Ursina. Does not own: the ray tests (`game.rules.arrow_rays`), the live arrows and their
saving (`game.rules.arrows`), what a hit does to the body (the caller's `hurt`, or the session
with the hits), the inventory (`give`), drawing.

Beta's numbers: positions and motion are doubles; its float literals (0.99F, 0.03F, 0.0075F,
0.05F, 0.3F...) are binary32 values widened to double (`f32`), and each float expression is
rounded to binary32 as Java does (`physics.floats.f32`). An arrow's box is 0.5 x 0.5 x 0.5 with
its position at the middle of its bottom face (`setSize(0.5F, 0.5F)`, `yOffset` 0); the box is
moved to the position only at the end of a flying tick (`setPosition`), so after `raised` it lags
until the arrow's first tick, as Beta's.

One tick (`step_arrow`), in Beta's order:
1. `Entity.onEntityUpdate`: the previous position and angles are kept; the water test over the
   box less 0.4 top and bottom (`physics.BETA`'s) adds the water's current to the motion, and
   entering water (not on the first tick) splashes (its sound and its 2 + 55 random draws); below
   y = VOID_Y the arrow is gone;
2. an arrow that has left the ground sticks again when its old block's collision box holds its
   position; the shake counts down;
3. in the ground: while its block (the name at its cell: Beta's id and metadata) is unchanged it
   counts ticks, gone at GROUND_LIFE_TICKS; when the block changed it falls out (each motion
   component times nextFloat() * 0.2F) and flies from the next tick;
4. in flight: the segment from the position to position + motion against the blocks
   (`arrow_rays.ray_blocks`), then, up to the block's hit point, against every body's box grown
   by TARGET_GROWTH (`arrow_rays.intercept`), except the shooter's while `ticks_in_air` < 5; the
   nearest body wins (strictly nearer, in the order given; a hit at distance 0 is replaced by any
   later one, as Beta's `d0 == 0.0D`). A body hit: `hurt(key, DAMAGE)` (Beta's
   `attackEntityFrom`) and the arrow is gone with "random.drr", or, refused (the body is still
   invulnerable), it bounces back at a tenth of its speed. A block hit: it sticks; its motion
   becomes the float offset to the hit point and its position steps back 0.05 along it, so it
   ends 0.05 short of the face; "random.drr"; shake 7;
5. position += motion; yaw and pitch turn a fifth of the way to the motion's; motion *= 0.99F
   (0.8F in water); motionY -= 0.03F; the box moves to the position.
Pickup (`picked_up`): a stuck arrow whose shake is over, touched by a player's box grown 1 block
on X and Z, goes into the inventory as one `arrow` with "random.pop". Beta lets only an arrow
shot by a player be picked up (`doesArrowBelongToPlayer`); Boxel's issue lets a survival player
pick up a skeleton's too, so `pickable` is the shooter's choice (`skeleton_arrow` says True).
The shooter is not saved by Beta; here it is (an int or str key), so a reloaded arrow still spares it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace

import physics
from physics import AABB
from physics.floats import beta_cos, beta_sin, f32
from physics.media import read_medium

from .arrow_rays import intercept, ray_blocks
from .items import ItemStack
from .targeting import block_boxes
from ..world.java_random import JavaRandom

Point = tuple[float, float, float]
Cell = tuple[int, int, int]
Key = Hashable

SIZE = f32(0.5)
"""[blocks] Edge of an arrow's box (`setSize(0.5F, 0.5F)`)."""
HALF = SIZE / 2.0
DRAG = f32(0.99)
"""[1/tick] Motion kept per tick in the air (`0.99F`)."""
WATER_DRAG = f32(0.8)
"""[1/tick] Motion kept per tick in water (`0.8F`)."""
GRAVITY = f32(0.03)
"""[blocks/tick^2] Taken from motionY after the drag (`0.03F`)."""
SPREAD = f32(0.0075)
"""[1] Gaussian spread per unit of inaccuracy added to each axis of the unit heading (`0.0075F`)."""
TARGET_GROWTH = f32(0.3)
"""[blocks] A body's box is grown this much on every side for the arrow's ray (`0.3F`)."""
STICK_BACK = f32(0.05)
"""[blocks] A stuck arrow ends this far short of the face it hit (`0.05F`)."""
SHOOTER_SAFE_TICKS = 5
"""[ticks] The shooter cannot be hit while `ticks_in_air` (counted from 1 on the first tick) is below this."""
DAMAGE = 4
"""[half hearts] A hit's damage (`attackEntityFrom(owner, 4)`)."""
GROUND_LIFE_TICKS = 1200
"""[ticks] A stuck arrow is gone after this many ticks in its block (a minute)."""
SHAKE_TICKS = 7
"""[ticks] A newly stuck arrow quivers this long; it cannot be picked up before."""
FALL_OUT = f32(0.2)
"""[1] An arrow whose block is gone keeps nextFloat() x this of each motion component."""
BOUNCE = -0.10000000149011612
"""[1] A refused hit sends the arrow back at this times its motion (`-0.1F`)."""
VOID_Y = -64.0
"""[blocks] An arrow below this height is gone (`Entity.onEntityUpdate`)."""
PICKUP_REACH = 1.0
"""[blocks] A player's box grown this much on X and Z touches arrows (`expand(1.0D, 0.0D, 1.0D)`)."""
BOW_SPEED, BOW_INACCURACY = f32(1.5), f32(1.0)
"""[blocks/tick], [1] `EntityArrow(world, EntityLiving)`'s own heading along the shooter's look."""
EYE_DROP = f32(0.1)
"""[blocks] A loosed arrow starts this far below the shooter's eye (`posY -= 0.1F`) ..."""
SIDE_OFFSET = f32(0.16)
"""[blocks] ... and this far to the side (`cos(yaw) * 0.16F`, `sin(yaw) * 0.16F`)."""
PI_F = f32(math.pi)
"""Beta's `(float)Math.PI`, in its degree conversions."""
TURN_RATE = f32(0.2)
"""[1] The drawn yaw and pitch turn this fraction of the way to the motion's each tick."""
SKELETON_RAISE = f32(1.4)
"""[blocks] A skeleton's arrow is raised this much after it is loosed (`posY += 1.4F`, box not moved)."""
SKELETON_AIM_DROP = f32(0.2)
"""[blocks] A skeleton aims this far below its target's eye ..."""
SKELETON_ARC = f32(0.2)
"""[1] ... plus this times the horizontal distance, to arc over it."""
SKELETON_SPEED, SKELETON_INACCURACY = f32(0.6), f32(12.0)
"""[blocks/tick], [1] A skeleton's shot (`setArrowHeading(..., 0.6F, 12F)`)."""
SOUND_HIT, SOUND_POP, SOUND_SPLASH = "random.drr", "random.pop", "random.splash"
SPLASH_PARTICLE_DRAWS = 55
"""Random numbers Beta's splash draws for an arrow's bubbles (11 x 3) and splashes (11 x 2) after its pitch."""
ARROW_ITEM = "arrow"


@dataclass(frozen=True, slots=True)
class ArrowSound:
    """A sound an arrow made: Beta's `name` at `position` [blocks], `volume`, `pitch`."""

    name: str
    position: Point
    volume: float
    pitch: float


@dataclass(frozen=True, slots=True)
class ArrowHit:
    """An arrow hit a body (and the body took it)."""

    target: Key
    """The body's key, as the tick was given it."""
    damage: int
    """[half hearts] DAMAGE (the body's own rules may scale it: Beta's difficulty for players)."""
    at: tuple[float, float]
    """[blocks] (x, z) of the arrow where it hit."""
    shooter: Key | None
    """Who shot it (None: unknown). Beta knocks the body back away from the shooter, not the arrow."""


@dataclass(frozen=True, slots=True)
class Arrow:
    """One arrow after a tick (Beta's `EntityArrow` fields)."""

    key: int
    position: Point
    """[blocks] `posX, posY, posZ`: the middle of its box's bottom face (but see `box`)."""
    motion: Point
    """[blocks/tick]"""
    box: AABB
    """[blocks] Its box, where the last `setPosition` put it."""
    previous: Point
    """[blocks] Its position a tick before (views blend from it)."""
    yaw: float
    """[degrees] float32, as drawn: atan2(x, z) of its motion, turned a fifth of the way a tick."""
    pitch: float
    previous_yaw: float
    previous_pitch: float
    rand: int
    """The 48-bit state of its own `JavaRandom` (Beta's `Entity.rand`)."""
    kept_gaussian: float | None = None
    """The Gaussian its generator keeps for the next draw (`nextNextGaussian`), if any."""
    shooter: Key | None = None
    pickable: bool = True
    """A survival player may pick it up once stuck (Beta: only when a player shot it)."""
    age: int = 0
    """[ticks] Ticks lived (`ticksExisted`): no splash on the first."""
    ticks_in_air: int = 0
    in_ground: bool = False
    ticks_in_ground: int = 0
    tile: Cell | None = None
    """The cell of the block it last stuck in (None: never)."""
    tile_block: str | None = None
    """That block's name when it stuck (it falls out when the name changes)."""
    shake: int = 0
    in_water: bool = False
    """It was in water on its last tick (Beta's `inWater`)."""


def box_at(position: Point) -> AABB:
    """[blocks] An arrow's box at `position` (`setPosition`: the position is its bottom face's middle)."""
    x, y, z = position
    return AABB(x - HALF, y, z - HALF, x + HALF, y + SIZE, z + HALF)


def _angles(x: float, y: float, z: float) -> tuple[float, float]:
    """[degrees] float32 yaw and pitch of the motion (x, y, z), as Beta computes them."""
    horizontal = f32(math.sqrt(x * x + z * z))
    yaw = f32(math.atan2(x, z) * 180.0 / PI_F)
    pitch = f32(math.atan2(y, horizontal) * 180.0 / PI_F)
    return yaw, pitch


def _generator(arrow: Arrow) -> JavaRandom:
    rand = JavaRandom.from_state(arrow.rand)
    rand.next_next_gaussian = arrow.kept_gaussian
    return rand


def _require_point(what: str, value: object) -> Point:
    try:
        x, y, z = value
    except (TypeError, ValueError):
        raise TypeError(f"{what} must be three numbers (x, y, z), got {value!r}") from None
    for v in (x, y, z):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"{what} must be three numbers (x, y, z), got {value!r}")
        if not math.isfinite(v):
            raise ValueError(f"{what} must be finite, got {value!r}")
    return float(x), float(y), float(z)


def _require_rand(rand: object) -> JavaRandom:
    if not isinstance(rand, JavaRandom):
        raise TypeError(f"an arrow draws from its own game.world.java_random.JavaRandom, got {rand!r}")
    return rand


def aimed(arrow: Arrow, aim: Sequence[float], speed: float, inaccuracy: float) -> Arrow:
    """`setArrowHeading(x, y, z, speed, inaccuracy)`: the unit `aim`, plus a Gaussian times
    SPREAD x inaccuracy on each axis (three draws from the arrow's generator), times `speed`
    [blocks/tick]; yaw and pitch face it. ValueError for a zero aim or a bad speed or inaccuracy."""
    x, y, z = _require_point("aim", aim)
    for name, value in (("speed", speed), ("inaccuracy", inaccuracy)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    length = f32(math.sqrt(x * x + y * y + z * z))
    if length == 0.0:
        raise ValueError(f"aim must not be zero, got {aim!r}")
    rand = _generator(arrow)
    x, y, z = x / length, y / length, z / length
    spread = float(f32(inaccuracy))
    x += rand.next_gaussian() * SPREAD * spread
    y += rand.next_gaussian() * SPREAD * spread
    z += rand.next_gaussian() * SPREAD * spread
    speed = float(f32(speed))
    x, y, z = x * speed, y * speed, z * speed
    yaw, pitch = _angles(x, y, z)
    return replace(arrow, motion=(x, y, z), yaw=yaw, pitch=pitch, previous_yaw=yaw, previous_pitch=pitch,
                   ticks_in_ground=0, rand=rand.state, kept_gaussian=rand.next_next_gaussian)


def shoot(key: int, start: Sequence[float], aim: Sequence[float], speed: float, inaccuracy: float,
          rand: JavaRandom, *, shooter: Key | None = None, pickable: bool = True) -> Arrow:
    """An arrow at `start` [blocks] (its position: the middle of its box's bottom) heading along
    `aim` at `speed` [blocks/tick] with `inaccuracy` (`aimed`), drawing from `rand` (its own
    generator, kept by the arrow from then on). TypeError / ValueError for bad values."""
    position = _require_point("start", start)
    _require_rand(rand)
    arrow = Arrow(key, position, (0.0, 0.0, 0.0), box_at(position), position, 0.0, 0.0, 0.0, 0.0, rand.state,
                  rand.next_next_gaussian, shooter, bool(pickable))
    return aimed(arrow, aim, speed, inaccuracy)


def loosed(key: int, eye: Sequence[float], yaw: float, pitch: float, rand: JavaRandom, *,
           shooter: Key | None = None, pickable: bool = True) -> Arrow:
    """`new EntityArrow(world, shooter)`: at the shooter's `eye` [blocks] (posX, posY +
    getEyeHeight(), posZ), moved SIDE_OFFSET to the side and EYE_DROP down, heading along its
    look (`yaw`, `pitch` [degrees], Beta's table sine) at BOW_SPEED with BOW_INACCURACY."""
    x, y, z = _require_point("eye", eye)
    _require_rand(rand)
    turn = f32(f32(f32(yaw) / f32(180.0)) * PI_F)
    tilt = f32(f32(f32(pitch) / f32(180.0)) * PI_F)
    x -= f32(beta_cos(turn) * SIDE_OFFSET)
    y -= EYE_DROP
    z -= f32(beta_sin(turn) * SIDE_OFFSET)
    look = (float(f32(-beta_sin(turn) * beta_cos(tilt))), float(-beta_sin(tilt)),
            float(f32(beta_cos(turn) * beta_cos(tilt))))
    position = (x, y, z)
    arrow = Arrow(key, position, look, box_at(position), position, f32(yaw), f32(pitch), f32(yaw), f32(pitch),
                  rand.state, rand.next_next_gaussian, shooter, bool(pickable))
    return aimed(arrow, look, BOW_SPEED, BOW_INACCURACY)


def raised(arrow: Arrow, dy: float) -> Arrow:
    """The arrow's position `dy` [blocks] higher, its box where it was (`arrow.posY += dy`)."""
    x, y, z = arrow.position
    return replace(arrow, position=(x, y + dy, z), previous=(x, y + dy, z))


def skeleton_arrow(key: int, skeleton: Sequence[float], yaw: float, pitch: float, target: Sequence[float],
                   rand: JavaRandom, *, shooter: Key | None = None, eye_height: float = f32(f32(1.8) * f32(0.85)),
                   pickable: bool = True) -> Arrow:
    """`EntitySkeleton.attackEntity`'s arrow: loosed from the skeleton at `skeleton` (its feet,
    [blocks]) with look `yaw`, `pitch` and eye at `eye_height` (`height * 0.85F`), raised
    SKELETON_RAISE, then aimed at `target` (its posX, posY + getEyeHeight(), posZ: a Beta player's
    eye + 0.12F) less SKELETON_AIM_DROP, plus SKELETON_ARC x the horizontal distance, at
    SKELETON_SPEED with SKELETON_INACCURACY. The skeleton's "random.bow" is the caller's."""
    fx, fy, fz = _require_point("skeleton", skeleton)
    tx, ty, tz = _require_point("target", target)
    arrow = raised(loosed(key, (fx, fy + eye_height, fz), yaw, pitch, rand, shooter=shooter, pickable=pickable),
                   SKELETON_RAISE)
    dx, dz = tx - fx, tz - fz
    dy = ty - SKELETON_AIM_DROP - arrow.position[1]
    arc = f32(f32(math.sqrt(dx * dx + dz * dz)) * SKELETON_ARC)
    return aimed(arrow, (dx, dy + arc, dz), SKELETON_SPEED, SKELETON_INACCURACY)


Hurt = Callable[[Key, int], bool]
"""`hurt(key, damage)`: Beta's `attackEntityFrom` for the body `key`: deals it now and says whether it was taken."""


def step_arrow(arrow: Arrow, world, targets: Sequence[tuple[Key, AABB]], hurt: Hurt | None = None
               ) -> tuple[Arrow | None, ArrowHit | None, list[ArrowSound]]:
    """One tick of `arrow` in `world` (a `game.rules.game_world.GameWorld`) against the bodies
    `targets` ((key, box) of the living creatures and players, in order): the module docstring's
    steps. Returns the arrow a tick on (None: gone), the hit it made (None: none, or refused) and
    its sounds. `hurt` None: every hit is taken (the caller deals the returned hit)."""
    rand = _generator(arrow)
    sounds: list[ArrowSound] = []
    # Entity.onEntityUpdate
    medium = read_medium(world, arrow.box, physics.BETA).medium
    vx, vy, vz = arrow.motion
    if medium.in_water:
        if medium.current is not None:
            vx, vy, vz = vx + medium.current[0], vy + medium.current[1], vz + medium.current[2]
        if not arrow.in_water and arrow.age > 0:
            sounds.append(_splash(arrow.position, vx, vy, vz, rand))
    if arrow.position[1] < VOID_Y:
        return None, None, sounds
    yaw, pitch = arrow.yaw, arrow.pitch
    if pitch == 0.0 and yaw == 0.0:
        yaw, pitch = _angles(vx, vy, vz)
    start = {"motion": (vx, vy, vz), "previous": arrow.position, "yaw": yaw, "pitch": pitch, "previous_yaw": yaw,
             "previous_pitch": pitch, "age": arrow.age + 1, "in_water": medium.in_water,
             "shake": arrow.shake - 1 if arrow.shake > 0 else 0, "in_ground": arrow.in_ground}
    if arrow.tile is not None and not arrow.in_ground and _holds(world, arrow.tile, arrow.position):
        start["in_ground"] = True
    if start["in_ground"]:
        return _in_ground(arrow, start, world, rand), None, sounds
    return _in_flight(arrow, start, world, targets, hurt, rand, sounds)


def _in_ground(arrow: Arrow, start: dict, world, rand: JavaRandom) -> Arrow | None:
    """Step 3 for `arrow` with `start`, the fields step 1 changed: a tick in the ground (None: gone
    after GROUND_LIFE_TICKS), or falling out of a changed block."""
    if world.get_block(*arrow.tile) == arrow.tile_block:
        if arrow.ticks_in_ground + 1 >= GROUND_LIFE_TICKS:
            return None
        return replace(arrow, **start, ticks_in_ground=arrow.ticks_in_ground + 1, rand=rand.state)
    vx, vy, vz = start["motion"]
    vx = vx * f32(rand.next_float() * FALL_OUT)
    vy = vy * f32(rand.next_float() * FALL_OUT)
    vz = vz * f32(rand.next_float() * FALL_OUT)
    return replace(arrow, **{**start, "motion": (vx, vy, vz), "in_ground": False}, ticks_in_ground=0, ticks_in_air=0,
                   rand=rand.state)


def _in_flight(arrow: Arrow, start: dict, world, targets: Sequence[tuple[Key, AABB]], hurt: Hurt | None,
               rand: JavaRandom, sounds: list[ArrowSound]) -> tuple[Arrow | None, ArrowHit | None, list[ArrowSound]]:
    """Steps 4 and 5 for `arrow` with `start`, the fields step 1 changed: the rays, a hit or
    sticking, then the move, the turn, the drag and gravity."""
    x, y, z = arrow.position
    vx, vy, vz = start["motion"]
    ticks_in_air = arrow.ticks_in_air + 1
    block = ray_blocks(world, (x, y, z), (x + vx, y + vy, z + vz))
    end = (x + vx, y + vy, z + vz) if block is None else block.point
    target = _nearest_body(arrow.box, arrow.shooter, targets, (x, y, z), end, (vx, vy, vz), ticks_in_air)
    previous_yaw = start["previous_yaw"]
    in_ground, tile, tile_block, shake = False, arrow.tile, arrow.tile_block, start["shake"]
    if target is not None:
        if hurt is None or hurt(target, DAMAGE):
            sounds.append(_hit_sound((x, y, z), rand))
            return None, ArrowHit(target, DAMAGE, (x, z), arrow.shooter), sounds
        vx, vy, vz = vx * BOUNCE, vy * BOUNCE, vz * BOUNCE
        previous_yaw = f32(previous_yaw + 180.0)  # and yaw, which the turn below sets afresh
        ticks_in_air = 0
    elif block is not None:
        tile, tile_block = block.cell, world.get_block(*block.cell)
        px, py, pz = block.point
        vx, vy, vz = float(f32(px - x)), float(f32(py - y)), float(f32(pz - z))
        length = float(f32(math.sqrt(vx * vx + vy * vy + vz * vz)))
        if length > 0.0:  # Beta divides by it (a zero length would make the position NaN)
            x -= vx / length * STICK_BACK
            y -= vy / length * STICK_BACK
            z -= vz / length * STICK_BACK
        sounds.append(_hit_sound((x, y, z), rand))
        in_ground, shake = True, SHAKE_TICKS
    x, y, z = x + vx, y + vy, z + vz
    yaw, pitch, previous_yaw, previous_pitch = _turned(vx, vy, vz, previous_yaw, start["previous_pitch"])
    drag = WATER_DRAG if start["in_water"] else DRAG
    moved = replace(arrow, **{**start, "position": (x, y, z), "motion": (vx * drag, vy * drag - GRAVITY, vz * drag),
                              "box": box_at((x, y, z)), "yaw": yaw, "pitch": pitch, "previous_yaw": previous_yaw,
                              "previous_pitch": previous_pitch, "ticks_in_air": ticks_in_air, "in_ground": in_ground,
                              "tile": tile, "tile_block": tile_block, "shake": shake, "rand": rand.state})
    return moved, None, sounds


def _holds(world, cell: Cell, point: Point) -> bool:
    """Whether a collision box of the block at `cell` holds `point` strictly (Beta's `isVecInside`)."""
    x, y, z = point
    return any(b[0] < x < b[3] and b[1] < y < b[4] and b[2] < z < b[5] for b in block_boxes(world, cell))


def _nearest_body(box: AABB, shooter: Key | None, targets: Sequence[tuple[Key, AABB]], start: Point, end: Point,
                  motion: Point, ticks_in_air: int) -> Key | None:
    """The body the segment start..end meets first (module docstring, step 4), or None: `box`,
    the arrow's, swept by `motion` and grown a block, finds the candidates (Beta's entity query)."""
    if not targets:
        return None
    x0, y0, z0, x1, y1, z1 = box.expanded_towards(*motion).grown(1.0, 1.0, 1.0)
    grow = TARGET_GROWTH
    found, nearest = None, 0.0
    for key, body in targets:
        # `region.intersects(body)`, written out: an arrow tests every creature and player each tick.
        if not (x1 > body[0] and x0 < body[3] and y1 > body[1] and y0 < body[4] and z1 > body[2] and z0 < body[5]) or (
                key == shooter and shooter is not None and ticks_in_air < SHOOTER_SAFE_TICKS):
            continue
        point = intercept((body[0] - grow, body[1] - grow, body[2] - grow, body[3] + grow, body[4] + grow,
                           body[5] + grow), start, end)
        if point is None:
            continue
        distance = float(f32(math.sqrt((point[0] - start[0]) ** 2 + (point[1] - start[1]) ** 2
                                       + (point[2] - start[2]) ** 2)))
        if distance < nearest or nearest == 0.0:
            found, nearest = key, distance
    return found


def _turned(vx: float, vy: float, vz: float, previous_yaw: float, previous_pitch: float
            ) -> tuple[float, float, float, float]:
    """Yaw and pitch a fifth of the way from the previous ones to the motion's, the previous ones
    first moved by whole turns to within half a turn (float32, Beta's loops)."""
    yaw, pitch = _angles(vx, vy, vz)
    while pitch - previous_pitch < -180.0:
        previous_pitch = f32(previous_pitch - 360.0)
    while pitch - previous_pitch >= 180.0:
        previous_pitch = f32(previous_pitch + 360.0)
    while yaw - previous_yaw < -180.0:
        previous_yaw = f32(previous_yaw - 360.0)
    while yaw - previous_yaw >= 180.0:
        previous_yaw = f32(previous_yaw + 360.0)
    pitch = f32(previous_pitch + f32(f32(pitch - previous_pitch) * TURN_RATE))
    yaw = f32(previous_yaw + f32(f32(yaw - previous_yaw) * TURN_RATE))
    return yaw, pitch, previous_yaw, previous_pitch


def _hit_sound(position: Point, rand: JavaRandom) -> ArrowSound:
    return ArrowSound(SOUND_HIT, position, 1.0, f32(f32(1.2) / f32(f32(rand.next_float() * f32(0.2)) + f32(0.9))))


def _splash(position: Point, vx: float, vy: float, vz: float, rand: JavaRandom) -> ArrowSound:
    """Beta's splash on entering water: volume from the speed (at most 1), pitch, then the
    particles' draws (made, not used: they keep the arrow's numbers Beta's)."""
    speed = f32(math.sqrt(vx * vx * f32(0.2) + vy * vy + vz * vz * f32(0.2)))
    volume = min(f32(speed * f32(0.2)), 1.0)
    pitch = f32(1.0 + f32(f32(rand.next_float() - rand.next_float()) * f32(0.4)))
    for _ in range(SPLASH_PARTICLE_DRAWS):
        rand.next_float()
    return ArrowSound(SOUND_SPLASH, position, volume, pitch)


def touches(player_box: AABB, arrow_box: AABB) -> bool:
    """Whether a player whose box is `player_box` touches an arrow whose box is `arrow_box`: the
    player's box grown PICKUP_REACH on X and Z meets it (strictly, Beta's `intersectsWith`)."""
    return (arrow_box[3] > player_box[0] - PICKUP_REACH and arrow_box[0] < player_box[3] + PICKUP_REACH
            and arrow_box[4] > player_box[1] and arrow_box[1] < player_box[4]
            and arrow_box[5] > player_box[2] - PICKUP_REACH and arrow_box[2] < player_box[5] + PICKUP_REACH)


def can_be_picked_up(arrow: Arrow) -> bool:
    """Stuck, its shake over, and `pickable`."""
    return arrow.in_ground and arrow.pickable and arrow.shake <= 0


def picked_up(arrow: Arrow, player: Key, give: Callable[[Key, ItemStack], int]) -> ArrowSound | None:
    """Offer `arrow` (which `can_be_picked_up`) to `player` as one `arrow` item: "random.pop" when
    `give` took it (the arrow is then gone), None when it did not. ValueError when `give` answers
    anything but 0 or 1."""
    taken = give(player, ItemStack(ARROW_ITEM, 1))
    if isinstance(taken, bool) or not isinstance(taken, int) or taken not in (0, 1):
        raise ValueError(f"give must return how many of the 1 arrow it took (0 or 1), got {taken!r}")
    if not taken:
        return None
    rand = _generator(arrow)
    pitch = f32(f32(f32(f32(rand.next_float() - rand.next_float()) * f32(0.7)) + 1.0) * 2.0)
    return ArrowSound(SOUND_POP, arrow.position, f32(0.2), pitch)
