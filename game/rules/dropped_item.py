"""One dropped item: Beta 1.7.3's `EntityItem`, a small body that falls, slides, burns and is picked up.

Owns: `DroppedItem` (one item on the ground or in the air: its stack, body, age, pickup delay,
health, fire and its own `java.util.Random`), `ItemSound` (a sound an item makes), Beta's spawn
motions (`from_block`: `Block.dropBlockAsItem_do`; `thrown`: `EntityPlayer.dropPlayerItemWithRandomChoice`,
Q and the death scatter), one item's tick (`step_item`, the readable reference of the arrays'
tick in `game.rules.dropped_item_rows`), the pickup (`touches`: `EntityPlayer.onLivingUpdate`'s
touch; `offer`: `EntityItem.onCollideWithPlayer`) and an item's saved form (`item_state`,
`item_from_state`). Pure: no Ursina. Does not own: the live items of a session
(`game.rules.dropped_items.DroppedItems`), the motion rule itself (`physics.item_motion`), the
collision (`physics.move`), what drops (`game.rules.harvest`), inventories or drawing.

One tick of an item, Beta's order (`Entity.onEntityUpdate`, then `EntityItem.onUpdate`):
1. water over its whole box adds the current (0.014 along the summed flow); entering water
   plays "random.splash" (not on its first tick) and draws Beta's 32 particle numbers; in water
   the fall distance and the fire are reset;
2. burning: fire > 0 hurts 1 every 20 ticks of it; lava reaching the box (inset 0.1, 0.4, 0.1)
   hurts 4 and sets the fire to 600 ticks. An item has 5 health: lava ends it in two ticks;
3. the pickup delay counts down; gravity (`physics.item_motion.fall`);
4. lava in the cell of its centre: it pops up (0.2) with a random sideways push, "random.fizz";
5. inside an opaque full cube (`pushOutOfBlocks`), it is pushed out of the nearest free face
   at 0.1 to 0.3 blocks/tick;
6. the move, friction, drag and no-bounce (`physics.item_motion.item_move`); lava in the
   moved box (shrunk by 0.001) hurts 1 and keeps it burning; in water a burning item hisses out;
7. age + 1: at MAX_AGE_TICKS (5 minutes) it is gone, as it is when its health is 0 or it
   fell below VOID_Y.
Beta's `Entity.rand` is each item's own `JavaRandom`, seeded from the session's seed and the
item's key (Beta seeds it from the clock); the spawn draws come from the rng the caller gives.

Pickup (before the items move in a tick: Beta's players update before the items they touch):
each living player, in join order, touches every item whose box meets the player's box grown
by PICKUP_REACH on X and Z (strictly); an item whose pickup delay is 0 offers its whole stack
(`give(player, stack)` says how many were taken). Taken whole, it is gone with "random.pop";
taken in part, it stays with the rest and makes no sound (Beta's `addItemStackToInventory`
returns false then, though it took some). Beta 1.7.3 merges no items on the ground.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

import numpy as np

import physics
from physics import AABB, Body
from physics.body import require_finite
from physics.floats import PI_F, beta_cos, beta_sin, f32
from physics.item_motion import GRAVITY, ITEM_HALF, ITEM_SIZE, item_box, item_move
from physics.materials import Material, reader
from physics.media import read_medium
from physics.shapes import FULL_CUBE
from physics.tolerances import MAX_DISPLACEMENT

from .derived_seeds import derived_seed
from .items import ItemStack
from ..world.java_random import JavaRandom, next_double, next_float, require_rng
from .saved_entities import (DROPPED_ITEM, MAX_WHOLE_NUMBER, body_from_state, body_state, finite_box, read_entity,
                             whole_number)
from .saved_values import preview
from ..world.blocks import OPAQUE, SHAPES

# --- Beta's numbers ---------------------------------------------------------------------------------

MAX_AGE_TICKS = 6000
"""[ticks] An item is gone once its age reaches this (`age >= 6000`: 5 minutes)."""
BLOCK_DROP_DELAY = 10
"""[ticks] Pickup delay of an item a broken block drops (`dropBlockAsItem_do`)."""
PLAYER_DROP_DELAY = 40
"""[ticks] Pickup delay of an item a player drops or scatters (`dropPlayerItemWithRandomChoice`)."""
MAX_PICKUP_DELAY = 32767
"""[ticks] Largest saved pickup delay (Beta's short)."""
ITEM_HEALTH = 5
"""[health] An item's health (`EntityItem.health`)."""
LAVA_DAMAGE = 4
"""[health] Lava reaching the box (`setOnFireFromLava`)."""
LAVA_FIRE_TICKS = 600
"""[ticks] The fire lava sets."""
BURNING_FIRE_TICKS = 300
"""[ticks] The fire a burning cell sets when the counter passes 0 (`moveEntity`)."""
FIRE_DAMAGE_INTERVAL = 20
"""[ticks] A burning item is hurt 1 each time its fire counter is a multiple of this."""
NOT_BURNING = -1
"""Beta's `fire = -fireResistance` (fireResistance 1) when not burning."""
MAX_FIRE = LAVA_FIRE_TICKS + 1
"""Largest fire counter: lava sets 600, then the burning move adds 1."""
VOID_Y = -64.0
"""[blocks] An item whose position falls below this is gone (`posY < -64.0D`)."""
PICKUP_REACH = 1.0
"""[blocks] A player's box grown this much on X and Z touches items (`expand(1.0D, 0.0D, 1.0D)`)."""
SPAWN_SPREAD = f32(0.7)
"""[blocks] A block's drop lands anywhere in the middle 0.7 of its cell (`float f = 0.7F`)."""
SPAWN_MARGIN = f32(1.0 - SPAWN_SPREAD) * 0.5
"""[blocks] ... from this far inside each face (`(double)(1.0F - f) * 0.5D`)."""
SPAWN_LIFT = f32(0.2)
"""[blocks/tick] Upward speed of a new item (`motionY = 0.20000000298023224D`)."""
SPAWN_SIDEWAYS = (f32(0.2), f32(0.1))
"""[blocks/tick] `motionX = (float)(Math.random() * 0.2F - 0.1F)`, and Z the same."""
PLAYER_Y_OFFSET = f32(1.62)
"""[blocks] A player's posY above its feet (`yOffset = 1.62F`)."""
DROP_BELOW = 0.30000001192092896
"""[blocks] A dropped item starts this far below the player's posY... (`posY - 0.30000001192092896D`)"""
DROP_EYE = f32(0.12)
"""[blocks] ... plus the player's `getEyeHeight()` (0.12F)."""
THROW_SPEED = f32(0.3)
"""[blocks/tick] Q throws along the look at this speed (`var4 = 0.3F`)."""
THROW_LIFT = f32(0.1)
"""[blocks/tick] ... plus this upwards."""
THROW_JITTER = f32(0.02)
"""[blocks/tick] ... plus up to this sideways in a random direction."""
THROW_JITTER_Y = f32(0.1)
"""[blocks/tick] ... and (nextFloat - nextFloat) x this up or down."""
SCATTER_SPEED = f32(0.5)
"""[blocks/tick] A dying player's items fly out at up to this in a random direction."""
LAVA_POP = f32(0.2)
"""[blocks/tick] In lava: upward speed, and the scale of the random sideways push."""
PUSH_OUT = (f32(0.2), f32(0.1))
"""[blocks/tick] Out of a block: `rand.nextFloat() * 0.2F + 0.1F`."""
SOUND_POP, SOUND_FIZZ, SOUND_SPLASH = "random.pop", "random.fizz", "random.splash"
"""Beta's sound names for a pickup, lava and water meeting a burning item, and entering water."""
SPLASH_PARTICLE_DRAWS = 30
"""Random numbers Beta's splash draws for its bubbles (6 x 3) and splashes (6 x 2), after the pitch."""
ITEM_MEDIUM = replace(physics.BETA, water_check_inset_y=0.0, water_check_inset=0.0)
"""Items test water over their whole box (`EntityItem.handleWaterMovement`); lava as every entity."""
ITEM_STATE_VERSION = 1
"""Written into each saved item, so a later format can tell old ones apart."""
MAX_SAVED_SPEED = 10.0
"""[blocks/tick] Largest saved velocity component: an item falls at most 1.96 a tick, is thrown at ~0.5."""

NORMAL_CUBE = np.array([OPAQUE[i] and SHAPES[i] == FULL_CUBE for i in range(len(SHAPES))], dtype=bool)
"""Beta's `isBlockNormalCube` by block id: an opaque block whose collision shape is the whole cell."""
_SIZE_SLACK = 1e-6


class DroppedItemStateError(ValueError):
    """A saved dropped item that cannot be used; the message names the field."""


@dataclass(frozen=True, slots=True)
class ItemSound:
    """A sound an item made: Beta's `name` at `position` [blocks] (the item's feet), `volume`, `pitch`."""

    name: str
    position: tuple[float, float, float]
    volume: float
    pitch: float


@dataclass(frozen=True, slots=True)
class DroppedItem:
    """One dropped item after a tick."""

    key: int
    """Unique among this session's items (its body is "item:<key>")."""
    stack: ItemStack
    body: Body
    """Its 0.25 box (centre: Beta's position) and velocity [blocks/tick]; `in_water`/`in_lava` are
    what its last tick's medium test found."""
    previous: AABB
    """[blocks] Its box a tick earlier (drawing blends from it)."""
    age: int = 0
    """[ticks] Ticks lived; gone at MAX_AGE_TICKS."""
    pickup_delay: int = BLOCK_DROP_DELAY
    """[ticks] It can be picked up once this is 0."""
    health: int = ITEM_HEALTH
    fire: int = 0
    """Beta's fire counter: > 0 burning (ticks left), NOT_BURNING once a move found no fire."""
    rand: int = 0
    """The 48-bit state of its own `JavaRandom` (Beta's `Entity.rand`)."""
    hover: float = 0.0
    """[radians] Beta's `field_804_d`: where its bobbing and spin start (drawing)."""
    yaw: float = 0.0
    """[degrees] Beta's `rotationYaw` at spawn (drawing)."""

    @property
    def position(self) -> tuple[float, float, float]:
        """Beta's posX, posY, posZ: the centre of its box."""
        box = self.body.box
        return ((box[0] + box[3]) / 2.0, box[1] + ITEM_HALF, (box[2] + box[5]) / 2.0)

    @property
    def feet(self) -> tuple[float, float, float]:
        """Where its sounds play from (posX, posY - yOffset, posZ)."""
        box = self.body.box
        return ((box[0] + box[3]) / 2.0, box[1], (box[2] + box[5]) / 2.0)


# --- spawning ----------------------------------------------------------------------------------------

def _constructed(key: int, stack: ItemStack, x: float, y: float, z: float, rng, delay: int, seed: int) -> DroppedItem:
    """`new EntityItem(world, x, y, z, stack)`: its four `Math.random()` draws in Beta's order
    (hover, yaw, motionX, motionZ) from `rng`, motionY 0.2F."""
    if not isinstance(stack, ItemStack):
        raise TypeError(f"a dropped item holds an ItemStack, got {stack!r}")
    hover = f32(next_double(rng) * math.pi * 2.0)
    yaw = f32(next_double(rng) * 360.0)
    scale, offset = SPAWN_SIDEWAYS
    vx = f32(next_double(rng) * scale - offset)
    vz = f32(next_double(rng) * scale - offset)
    box = item_box(x, y, z)
    rand = JavaRandom(derived_seed("dropped item", seed, key)).state
    return DroppedItem(key, stack, Body(box, (vx, SPAWN_LIFT, vz)), box, pickup_delay=delay, rand=rand,
                       hover=hover, yaw=yaw)


def from_block(key: int, cell: tuple[int, int, int], stack: ItemStack, rng, seed: int = 0) -> DroppedItem:
    """The item a block broken at `cell` drops (Beta's `dropBlockAsItem_do`): at a random point of
    the middle 0.7 of the cell (three `nextFloat`s from `rng`), then the item's own draws; pickup
    delay 10. `rng`: a `JavaRandom` (Beta's `world.rand`) or a `random.Random`."""
    require_rng(rng)
    try:
        x, y, z = (int(c) for c in cell)
    except (TypeError, ValueError):
        raise TypeError(f"a cell is three ints, got {cell!r}") from None
    offsets = [f32(next_float(rng) * SPAWN_SPREAD) + SPAWN_MARGIN for _ in range(3)]
    return _constructed(key, stack, x + offsets[0], y + offsets[1], z + offsets[2], rng, BLOCK_DROP_DELAY, seed)


def from_entity(key: int, position: tuple[float, float, float], stack: ItemStack, rng, seed: int = 0,
                nudge: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> DroppedItem:
    """The item a creature drops at `position` (Beta's `entityDropItem`: posX, posY + offset, posZ
    as the caller gives them), pickup delay 10; `nudge` [blocks/tick] is added to its velocity
    (the sheep's wool: Beta adds small random pushes after making the item)."""
    require_rng(rng)
    x, y, z = (float(v) for v in position)
    item = _constructed(key, stack, x, y, z, rng, BLOCK_DROP_DELAY, seed)
    if nudge != (0.0, 0.0, 0.0):
        vx, vy, vz = item.body.velocity
        item = replace(item, body=Body(item.body.box, (vx + nudge[0], vy + nudge[1], vz + nudge[2])))
    return item


def thrown(key: int, stack: ItemStack, body: Body, yaw: float, pitch: float, rng, scatter: bool = False,
           seed: int = 0) -> DroppedItem:
    """The item a player whose body is `body` drops (Beta's `dropPlayerItemWithRandomChoice`):
    from its posY (feet + 1.62F - camera lag) - 0.3F + 0.12F; Q (`scatter` False) throws it
    0.3F along the look (`yaw`, `pitch` [degrees], Beta's convention) + 0.1F up, with a small
    random jitter; death (`scatter` True) sends it up to 0.5F in a random direction, 0.2F up.
    Pickup delay 40. The item's own draws come first, then the player's (`rng`)."""
    require_rng(rng)
    if not isinstance(body, Body):
        raise TypeError(f"a dropped item is thrown from a physics.Body, got {body!r}")
    require_finite("yaw and pitch", yaw, pitch)
    box = body.box
    x, z = (box[0] + box[3]) / 2.0, (box[2] + box[5]) / 2.0
    y = ((box[1] + PLAYER_Y_OFFSET) - body.camera_lag) - DROP_BELOW + DROP_EYE
    item = _constructed(key, stack, x, y, z, rng, PLAYER_DROP_DELAY, seed)
    if scatter:
        speed = f32(next_float(rng) * SCATTER_SPEED)
        angle = f32(f32(next_float(rng) * PI_F) * 2.0)
        velocity = (f32(-beta_sin(angle) * speed), SPAWN_LIFT, f32(beta_cos(angle) * speed))
    else:
        turn = f32(f32(f32(yaw) / 180.0) * PI_F)
        tilt = f32(f32(f32(pitch) / 180.0) * PI_F)
        vx = f32(f32(-beta_sin(turn) * beta_cos(tilt)) * THROW_SPEED)
        vz = f32(f32(beta_cos(turn) * beta_cos(tilt)) * THROW_SPEED)
        vy = f32(f32(-beta_sin(tilt) * THROW_SPEED) + THROW_LIFT)
        angle = f32(f32(next_float(rng) * PI_F) * 2.0)
        jitter = f32(THROW_JITTER * next_float(rng))
        vx += math.cos(angle) * jitter
        vy += f32(f32(next_float(rng) - next_float(rng)) * THROW_JITTER_Y)
        vz += math.sin(angle) * jitter
        velocity = (vx, vy, vz)
    return replace(item, body=Body(item.body.box, velocity))


# --- one item's tick (the readable reference) -----------------------------------------------------------

def step_item(item: DroppedItem, world) -> tuple[DroppedItem | None, list[ItemSound]]:
    """One tick of `item` in `world` (a `game.rules.game_world.GameWorld`), the module docstring's
    steps 1 to 7: the item a tick on, or None when it is gone, and the sounds it made."""
    rand = JavaRandom.from_state(item.rand)
    sounds: list[ItemSound] = []
    body = item.body
    box = body.box
    vx, vy, vz = body.velocity
    health, fire, fall_distance = item.health, item.fire, body.fall_distance
    # Entity.onEntityUpdate
    medium = read_medium(world, box, ITEM_MEDIUM).medium
    if medium.in_water:
        if medium.current is not None:
            vx, vy, vz = vx + medium.current[0], vy + medium.current[1], vz + medium.current[2]
        if not body.in_water and item.age > 0:
            sounds.append(_splash(item.feet, vx, vy, vz, rand))
        fall_distance, fire = 0.0, 0
    if fire > 0:
        if fire % FIRE_DAMAGE_INTERVAL == 0:
            health -= 1
        fire -= 1
    if medium.in_lava:
        health -= LAVA_DAMAGE
        fire = LAVA_FIRE_TICKS
    gone = box[1] + ITEM_HALF < VOID_Y
    # EntityItem.onUpdate
    delay = item.pickup_delay - 1 if item.pickup_delay > 0 else 0
    vy -= GRAVITY
    x, y, z = item.position
    if _material(world, math.floor(x), math.floor(y), math.floor(z)) == Material.LAVA:
        vy = LAVA_POP
        vx = f32(f32(rand.next_float() - rand.next_float()) * LAVA_POP)
        vz = f32(f32(rand.next_float() - rand.next_float()) * LAVA_POP)
        sounds.append(ItemSound(SOUND_FIZZ, item.feet, f32(0.4), f32(2.0 + f32(rand.next_float() * f32(0.4)))))
    vx, vy, vz = _pushed_out(world, x, (box[1] + box[4]) / 2.0, z, (vx, vy, vz), rand)
    body = Body._trusted(box, (vx, vy, vz), body.on_ground, body.collided_horizontally, body.collided_vertically,
                         body.camera_lag, fall_distance, medium.in_water, medium.in_lava, body.in_web,
                         body.fall_damage, body.touching)
    body = item_move(body, world)
    # moveEntity's fire
    moved_box = body.box
    if _burning(world, moved_box):
        health -= 1
        if not medium.in_water:
            fire += 1
            if fire == 0:
                fire = BURNING_FIRE_TICKS
    elif fire <= 0:
        fire = NOT_BURNING
    if medium.in_water and fire > 0:
        feet = ((moved_box[0] + moved_box[3]) / 2.0, moved_box[1], (moved_box[2] + moved_box[5]) / 2.0)
        sounds.append(ItemSound(SOUND_FIZZ, feet, f32(0.7),
                                f32(f32(1.6) + f32(f32(rand.next_float() - rand.next_float()) * f32(0.4)))))
        fire = NOT_BURNING
    age = item.age + 1
    if gone or health <= 0 or age >= MAX_AGE_TICKS:
        return None, sounds
    return DroppedItem(item.key, item.stack, body, box, age, delay, health, fire, rand.state, item.hover,
                       item.yaw), sounds


def _splash(feet: tuple[float, float, float], vx: float, vy: float, vz: float, rand: JavaRandom) -> ItemSound:
    """Beta's splash on entering water: volume from the speed (at most 1), pitch, then the
    particles' draws (made, not used: they keep the item's numbers Beta's)."""
    speed = f32(math.sqrt(vx * vx * f32(0.2) + vy * vy + vz * vz * f32(0.2)))
    volume = min(f32(speed * f32(0.2)), 1.0)
    pitch = f32(1.0 + f32(f32(rand.next_float() - rand.next_float()) * f32(0.4)))
    for _ in range(SPLASH_PARTICLE_DRAWS):
        rand.next_float()
    return ItemSound(SOUND_SPLASH, feet, volume, pitch)


def _material(world, x: int, y: int, z: int) -> Material:
    cells = reader(world)(x, y, z, x, y, z)
    return cells.get((x, y, z), Material.AIR)


def _burning(world, box: AABB) -> bool:
    """Beta's `isBoundingBoxBurning(box.contract(0.001))`: lava in cells floor(min + 0.001) ..
    floor(max - 0.001 + 1) - 1 (Boxel has no fire block)."""
    i = 0.001
    x0, y0, z0 = math.floor(box[0] + i), math.floor(box[1] + i), math.floor(box[2] + i)
    x1, y1, z1 = (math.floor((box[3] - i) + 1.0) - 1, math.floor((box[4] - i) + 1.0) - 1,
                  math.floor((box[5] - i) + 1.0) - 1)
    return Material.LAVA in reader(world)(x0, y0, z0, x1, y1, z1).values()


def _pushed_out(world, x: float, y: float, z: float, velocity: tuple[float, float, float],
                rand: JavaRandom) -> tuple[float, float, float]:
    """Beta's `pushOutOfBlocks(x, y, z)`: inside an opaque full cube, one velocity component
    becomes rand x 0.2F + 0.1F out of the nearest face whose neighbour is not one."""
    cx, cy, cz = math.floor(x), math.floor(y), math.floor(z)
    ids = world.ids_in_box(cx - 1, cy - 1, cz - 1, cx + 2, cy + 2, cz + 2)
    if not NORMAL_CUBE[ids[1, 1, 1]]:
        return velocity
    fx, fy, fz = x - cx, y - cy, z - cz
    faces = ((ids[0, 1, 1], fx, 0, -1.0), (ids[2, 1, 1], 1.0 - fx, 0, 1.0), (ids[1, 0, 1], fy, 1, -1.0),
             (ids[1, 2, 1], 1.0 - fy, 1, 1.0), (ids[1, 1, 0], fz, 2, -1.0), (ids[1, 1, 2], 1.0 - fz, 2, 1.0))
    best, nearest = None, 9999.0
    for block, distance, axis, sign in faces:
        if not NORMAL_CUBE[block] and distance < nearest:
            best, nearest = (axis, sign), distance
    speed = f32(f32(rand.next_float() * PUSH_OUT[0]) + PUSH_OUT[1])
    if best is None:
        return velocity
    out = list(velocity)
    out[best[0]] = speed if best[1] > 0 else -speed
    return (out[0], out[1], out[2])


# --- pickup ----------------------------------------------------------------------------------------------

def touches(player_box: AABB, item_box: AABB) -> bool:
    """Whether a player whose box is `player_box` touches an item whose box is `item_box`: the
    player's box grown by PICKUP_REACH on X and Z meets it (strictly, Beta's `intersectsWith`)."""
    return (item_box[3] > player_box[0] - PICKUP_REACH and item_box[0] < player_box[3] + PICKUP_REACH
            and item_box[4] > player_box[1] and item_box[1] < player_box[4]
            and item_box[5] > player_box[2] - PICKUP_REACH and item_box[2] < player_box[5] + PICKUP_REACH)


def offer(item: DroppedItem, player: str, give: Callable[[str, ItemStack], int]
          ) -> tuple[DroppedItem | None, ItemSound | None]:
    """`item` offered whole to `player` (`give` says how many it took): None with "random.pop" when
    all were taken, the rest without a sound when some were, `item` unchanged when none.
    ValueError (nothing changed) when `give` answers anything but an int in 0..count."""
    count = item.stack.count
    taken = give(player, item.stack)
    if isinstance(taken, bool) or not isinstance(taken, (int, np.integer)) or not 0 <= taken <= count:
        raise ValueError(f"give must return how many of the {count} items it took (0..{count}), got {taken!r}")
    taken = int(taken)
    if taken == count:
        rand = JavaRandom.from_state(item.rand)
        pitch = f32(f32(f32(f32(rand.next_float() - rand.next_float()) * f32(0.7)) + 1.0) * 2.0)
        return None, ItemSound(SOUND_POP, item.feet, f32(0.2), pitch)
    if taken:
        return replace(item, stack=item.stack.with_count(count - taken)), None
    return item, None


def require_players(players_boxes: object) -> list[tuple[str, AABB]]:
    """The living players' boxes in order from a mapping name -> box (None: dead, skipped)."""
    if not isinstance(players_boxes, Mapping):
        raise TypeError(f"players_boxes maps each player's name to its box (None: cannot pick up), "
                        f"got {players_boxes!r}")
    living = []
    for name, box in players_boxes.items():
        if box is None:
            continue
        if not isinstance(name, str) or not isinstance(box, AABB):
            raise TypeError(f"players_boxes maps names (str) to physics.AABB boxes, got {name!r}: {box!r}")
        living.append((name, box))
    return living


# --- saved form ------------------------------------------------------------------------------------------

def item_state(item: DroppedItem, order: int = 0) -> dict:
    """`item` as JSON values for its column's entity list (floats read back bit for bit)."""
    return {
        "kind": DROPPED_ITEM,
        "version": ITEM_STATE_VERSION,
        "order": order,
        "key": item.key,
        "item": item.stack.item,
        "count": item.stack.count,
        "damage": item.stack.damage,
        "age": item.age,
        "pickup_delay": item.pickup_delay,
        "health": item.health,
        "fire": item.fire,
        "rand": item.rand,
        "hover": item.hover,
        "yaw": item.yaw,
        **body_state(item.body),
        "previous": list(item.previous),
    }


def item_from_state(state: object) -> tuple[DroppedItem, int]:
    """The item saved by `item_state` and its order; DroppedItemStateError naming the field when
    it cannot be used (any value at all gives one or the other)."""
    return read_entity(_item_from_state, state, "a saved dropped item", DroppedItemStateError)


def _item_from_state(state: object) -> tuple[DroppedItem, int]:
    owner, error = "a saved dropped item", DroppedItemStateError
    if not isinstance(state, dict):
        raise error(f"{owner} must be an object, got {type(state).__name__}")
    if state.get("kind") != DROPPED_ITEM or state.get("version") != ITEM_STATE_VERSION:
        raise error(f"{owner} has kind {preview(state.get('kind'))} and version {preview(state.get('version'))}; "
                    f"this game reads kind {DROPPED_ITEM!r} version {ITEM_STATE_VERSION}")
    order = whole_number(state, "order", MAX_WHOLE_NUMBER, owner, error)
    key = whole_number(state, "key", MAX_WHOLE_NUMBER, owner, error)
    try:
        stack = ItemStack(state.get("item"), state.get("count"), state.get("damage"))
    except (TypeError, ValueError) as problem:
        raise error(f"{owner}'s 'item', 'count' and 'damage' are not a stack: {problem}") from None
    age = whole_number(state, "age", MAX_AGE_TICKS - 1, owner, error)
    delay = whole_number(state, "pickup_delay", MAX_PICKUP_DELAY, owner, error)
    health = whole_number(state, "health", ITEM_HEALTH, owner, error)
    if health < 1:
        raise error(f"{owner}'s 'health' must be 1..{ITEM_HEALTH}, got 0")
    fire = state.get("fire")
    if isinstance(fire, bool) or not isinstance(fire, int) or not NOT_BURNING <= fire <= MAX_FIRE:
        raise error(f"{owner}'s 'fire' must be a whole number in {NOT_BURNING}..{MAX_FIRE}, got {preview(fire)}")
    rand = whole_number(state, "rand", (1 << 48) - 1, owner, error)
    angles = []
    for name in ("hover", "yaw"):
        value = state.get(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or abs(value) > 1e6:
            raise error(f"{owner}'s {name!r} must be a finite number, got {preview(value)}")
        angles.append(float(value))
    body = body_from_state(state, owner, error)
    _require_item_box(body.box, "box")
    if any(abs(v) > MAX_SAVED_SPEED for v in body.velocity):
        raise error(f"{owner}'s 'velocity' must be within {MAX_SAVED_SPEED} blocks/tick, got {body.velocity!r}")
    previous = finite_box(state, "previous", owner, error)
    _require_item_box(previous, "previous")
    return DroppedItem(key, stack, body, previous, age, delay, health, fire, rand, *angles), order


def _require_item_box(box: AABB, field: str) -> None:
    for axis in range(3):
        if abs((box[axis + 3] - box[axis]) - ITEM_SIZE) > _SIZE_SLACK or abs(box[axis]) > MAX_DISPLACEMENT:
            raise DroppedItemStateError(f"a saved dropped item's {field!r} must be a {ITEM_SIZE:g} cube within "
                                        f"{MAX_DISPLACEMENT:g} blocks, got {tuple(box)!r}")
