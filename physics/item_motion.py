"""Dropped items' own motion rule: Beta 1.7.3's `EntityItem.onUpdate`, its gravity, move and friction.

Owns: the item's box size (`ITEM_SIZE`, `ITEM_HALF`), its motion constants, `ITEM_SETTINGS` (Beta's
collision with no step-up: entities other than the living have stepHeight 0), `item_box` (the
box of an item whose position, Beta's posX/posY/posZ, is its centre), `fall` (the tick's gravity)
and `item_move` (the move and what follows it). `item_step` is the two together, an item's tick
where nothing else touches it.
Does not own: the rest of an item's tick, which draws random numbers or reads what a cell is
made of (lava, pushing out of blocks, water currents, burning, pickup, despawning: the game's
`game.rules.dropped_items`), nor the collision itself (`mover.move`).

Beta's order, which these functions keep (`motionY` is a double, the friction a float):
1. `motionY -= 0.03999999910593033` (the float 0.04F widened);
2. `moveEntity(motion)`: the clip Y, X, Z, with no step-up; a clipped axis's motion becomes 0;
3. friction: 0.98F in the air; on the ground the slipperiness of the block under the centre of
   the box's bottom (`floor(posX), floor(minY) - 1, floor(posZ)`) x 0.98F, as a float (air there:
   Beta's 0.58800006F, which is 0.6F x 0.98F); `motionX` and `motionZ` times it, `motionY` times
   0.98F (widened);
4. on the ground `motionY *= -0.5`: the collision has already zeroed it, so an item never bounces
   (0.0 x -0.5 is -0.0, which the next tick's gravity turns into -0.04 all the same).
"""

from __future__ import annotations

import math
from dataclasses import replace

from .aabb import AABB
from .body import Body, require_finite
from .floats import f32
from .mover import move, require_arguments
from .settings import BETA
from .world import CollisionWorld, slipperiness_at

ITEM_SIZE = f32(0.25)
"""[blocks] Width and height of an item's box (`setSize(0.25F, 0.25F)`)."""
ITEM_HALF = f32(ITEM_SIZE / 2.0)
"""[blocks] Half of it: Beta's `width / 2.0F` and `yOffset = height / 2.0F` (the position is the box's centre)."""
GRAVITY = f32(0.04)
"""[blocks/tick^2] `motionY -= 0.03999999910593033D` before the move (0.04F widened)."""
AIR_FRICTION = f32(0.98)
"""[1/tick] X and Z velocity kept per tick off the ground (0.98F)."""
VERTICAL_DRAG = f32(0.98)
"""[1/tick] Y velocity kept per tick (`motionY *= 0.9800000190734863D`, 0.98F widened)."""
GROUND_FRICTION_FACTOR = f32(0.98)
"""[1] On the ground, X and Z keep the slipperiness of the block below x this (a float product)."""
BOUNCE = -0.5
"""[1] `motionY *= -0.5D` on the ground: after the collision zeroed motionY, no bounce at all."""
ITEM_SETTINGS = replace(BETA, step_height=0.0)
"""Beta's collision for items: no step-up (an EntityItem's stepHeight is 0)."""


def item_box(x: float, y: float, z: float) -> AABB:
    """The box of an item at position (x, y, z), its centre (Beta's `setPosition` with width and
    height 0.25F and yOffset 0.125F). ValueError for a non-finite position."""
    require_finite("item position", x, y, z, limit=math.inf)
    return AABB(x - ITEM_HALF, y - ITEM_HALF, z - ITEM_HALF, x + ITEM_HALF, (y - ITEM_HALF) + ITEM_SIZE, z + ITEM_HALF)


def fall(body: Body) -> Body:
    """`body` with the tick's gravity taken from its vertical velocity (step 1)."""
    if not isinstance(body, Body):
        raise TypeError(f"body must be a physics.Body, got {body!r}")
    vx, vy, vz = body.velocity
    return body._with_velocity((vx, vy - GRAVITY, vz))


def item_move(body: Body, world: CollisionWorld) -> Body:
    """Steps 2 to 4: move `body` by its velocity through `world` (no step-up), then its friction,
    drag and Beta's do-nothing bounce. TypeError for a bad body or world."""
    require_arguments(body, world, ITEM_SETTINGS)
    vx, vy, vz = body.velocity
    moved = move(body, vx, vy, vz, world, ITEM_SETTINGS)
    vx, vy, vz = moved.velocity
    friction = ground_friction(moved.box, world) if moved.on_ground else AIR_FRICTION
    vy *= VERTICAL_DRAG
    if moved.on_ground:
        vy *= BOUNCE
    return moved._with_velocity((vx * friction, vy, vz * friction))


def item_step(body: Body, world: CollisionWorld) -> Body:
    """One tick of an item's motion where nothing else acts on it: `item_move(fall(body), world)`."""
    return item_move(fall(body), world)


def ground_friction(box: AABB, world: CollisionWorld) -> float:
    """X and Z velocity kept by an item on the ground: the slipperiness of the block under the
    centre of `box`'s bottom x 0.98F, as a float."""
    x = math.floor((box[0] + box[3]) / 2.0)
    z = math.floor((box[2] + box[5]) / 2.0)
    return f32(f32(slipperiness_at(world, x, math.floor(box[1]) - 1, z)) * GROUND_FRICTION_FACTOR)
