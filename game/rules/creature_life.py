"""A creature's life: its health, hurt time, fire, death, drops, and the chicken's eggs.

Owns: `CreatureLife` (one creature's living state: vitals, death ticks, age, the sheep's fleece,
the chicken's egg timer, the limbs' swing for drawing), `hurt_creature` (Beta's
`EntityLiving.attackEntityFrom` hurt-time rule, through `game.rules.health.hurt`), `life_tick`
(Beta's per-tick rules of `Entity.onEntityUpdate` and `EntityLiving.onEntityUpdate` for a
creature: fire, lava, falls, the death count), `burn_in_daylight` (zombies and skeletons), the
drops of a death (`death_drops`: Beta's `dropFewItems`) and the saved form (`life_state`,
`life_from_state`).
Pure: no Ursina. Does not own: what a creature decides (`game.rules.creature_brain`), knock-back
(`physics.knockback`, applied by `game.rules.mobs`), item bodies (`game.rules.dropped_items`) or
light (`game.rules.creature_spawning` reads it).

Units: health and damage in half hearts, times in ticks.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import physics
from physics.floats import f32

from . import health
from .creature_kinds import CreatureKind
from .health import Hit, Vitals
from ..world.java_random import JavaRandom

DEATH_TICKS = 20
"""[ticks] A dead creature lies this long (falling over) before it is gone in a puff of smoke
(Beta's `deathTime` reaching 20)."""
FLASH_TICKS = 10
"""[ticks] A hit that counts in full makes the creature flash red this long (Beta's `maxHurtTime`)."""
DAYLIGHT_FIRE_TICKS = 300
"""[ticks] Daylight sets a zombie or skeleton on fire this long (Beta's `fire = 300`)."""
BURN_BRIGHTNESS = f32(0.5)
"""Daylight burns only where the creature's brightness is above this (Beta's `f > 0.5F`)."""
BURN_CHANCE_SCALE = f32(30.0)
BURN_CHANCE_OFFSET = f32(0.4)
"""Beta's `rand.nextFloat() * 30F < (f - 0.4F) * 2.0F`: the brighter, the likelier each tick."""
EGG_TICKS = (6000, 6000)
"""[ticks] A chicken lays an egg every rand.nextInt(6000) + 6000 ticks (Beta's timeUntilNextEgg)."""
DROP_ROLLS = 3
"""Each drop is made rand.nextInt(3) times (Beta's `dropFewItems`)."""
LIMB_SPEED_SCALE = f32(4.0)
LIMB_AMOUNT_BLEND = f32(0.4)
"""Beta's walking limbs: `f = sqrt(dx^2 + dz^2) * 4F` (at most 1), `limbYaw += (f - limbYaw) * 0.4F`,
`limbSwing += limbYaw`."""
LIFE_STATE_VERSION = 1


@dataclass(slots=True)
class CreatureLife:
    """One creature's living state (mutable: the mob manager updates it in place each tick)."""

    max_health: int
    vitals: Vitals = field(default_factory=Vitals)
    death_ticks: int = 0
    """[ticks] 0 while alive; counts up to DEATH_TICKS once dead."""
    age: int = 0
    """[ticks] Since the creature last met a player or was hurt (Beta's entityAge: despawning)."""
    sheared: bool = False
    """A sheep that has lost its wool (it never grows back in Beta)."""
    egg_ticks: int = 0
    """[ticks] Until a chicken's next egg (0 for other kinds)."""
    limb_swing: float = 0.0
    limb_amount: float = 0.0
    limbs_before: tuple[float, float] = (0.0, 0.0)
    """(limb_swing, limb_amount) a tick earlier: drawing blends from them."""

    @property
    def health(self) -> int:
        return self.vitals.health

    @property
    def dead(self) -> bool:
        return self.vitals.health <= 0

    @property
    def gone(self) -> bool:
        """Dead long enough to be removed."""
        return self.death_ticks >= DEATH_TICKS

    @property
    def flash(self) -> float:
        """[0..1] How red it flashes: 1 on the tick of a hit that counted in full, down to 0."""
        return max(self.vitals.hurt_ticks - (health.HURT_TICKS - FLASH_TICKS), 0) / FLASH_TICKS


def new_life(kind: CreatureKind, rng: JavaRandom) -> CreatureLife:
    """A creature's life at spawn: full health; a chicken's first egg timer drawn from `rng`."""
    life = CreatureLife(kind.max_health, Vitals(health=kind.max_health))
    if kind.name == "chicken":
        life.egg_ticks = rng.next_int(EGG_TICKS[0]) + EGG_TICKS[1]
    return life


def hurt_creature(life: CreatureLife, damage: int) -> Hit:
    """A hit of `damage` half hearts (Beta's `attackEntityFrom`): the hurt-time rule of
    `health.hurt`; the age goes back to 0. A dead creature takes no hit (IGNORED)."""
    if life.dead:
        return Hit.IGNORED
    life.age = 0
    life.vitals, hit = health.hurt(life.vitals, damage)
    if hit is not Hit.IGNORED:
        life.limb_amount = 1.5  # Beta's limbYaw = 1.5F on a hit: the legs jerk
    return hit


def life_tick(life: CreatureLife, kind: CreatureKind, body: physics.Body) -> tuple[int, bool]:
    """One tick of Beta's living rules after the creature's step: water puts fire out, fire burns
    1 every 20 ticks, lava burns 4 and sets fire, a landing deals `body.fall_damage` (not to a
    chicken: Beta's `EntityChicken.fall` does nothing), the hurt time goes down, a dead creature's
    death count goes up; the limbs follow the distance walked. Returns (health lost, just died)."""
    was_dead = life.dead
    before = life.vitals.health
    if not was_dead:
        life.age += 1
        vitals = life.vitals
        if body.in_water and vitals.fire_ticks:
            life.vitals = vitals = replace(vitals, fire_ticks=0)
        if vitals.fire_ticks > 0:
            if vitals.fire_ticks % health.FIRE_DAMAGE_INTERVAL_TICKS == 0:
                hurt_creature(life, health.FIRE_DAMAGE)
            life.vitals = replace(life.vitals, fire_ticks=life.vitals.fire_ticks - 1)
        if body.in_lava:
            hurt_creature(life, health.LAVA_DAMAGE)
            life.vitals = replace(life.vitals, fire_ticks=health.LAVA_FIRE_TICKS)
        if body.fall_damage > 0 and not kind.slow_fall:
            hurt_creature(life, body.fall_damage)
    if life.vitals.hurt_ticks > 0:
        life.vitals = replace(life.vitals, hurt_ticks=life.vitals.hurt_ticks - 1)
    dead = life.dead
    if dead:
        life.death_ticks += 1
    return before - life.vitals.health, dead and not was_dead


def swing_limbs(life: CreatureLife, before: physics.Body, after: physics.Body) -> None:
    """Beta's walking limbs from the distance the creature's feet moved this tick."""
    swing, amount = life.limb_swing, life.limb_amount
    life.limbs_before = (swing, amount)
    box, box_before = after.box, before.box
    dx = box[0] - box_before[0]
    dz = box[2] - box_before[2]
    if dx == 0.0 and dz == 0.0:
        speed = 0.0  # standing still (most animals): what the sum below gives for no move
    else:
        speed = f32((dx * dx + dz * dz) ** 0.5 * LIMB_SPEED_SCALE)
        if speed > 1.0:
            speed = 1.0
    amount = amount + (speed - amount) * LIMB_AMOUNT_BLEND
    life.limb_amount = amount
    life.limb_swing = swing + amount


def burn_in_daylight(life: CreatureLife, brightness: float, sees_sky: bool, daytime: bool, rng: JavaRandom) -> bool:
    """Beta's zombie and skeleton (`onLivingUpdate`): in daytime, brighter than BURN_BRIGHTNESS,
    under open sky, and with a chance growing with the brightness, it catches fire for
    DAYLIGHT_FIRE_TICKS. The draw is made only when the first tests pass, as Beta's `&&` does.
    True when it caught fire this tick."""
    if life.dead or not daytime or not brightness > BURN_BRIGHTNESS or not sees_sky:
        return False
    if f32(rng.next_float() * BURN_CHANCE_SCALE) < f32(f32(brightness - BURN_CHANCE_OFFSET) * 2.0):
        life.vitals = replace(life.vitals, fire_ticks=max(life.vitals.fire_ticks, DAYLIGHT_FIRE_TICKS))
        return True
    return False


def lay_egg(life: CreatureLife, rng: JavaRandom) -> bool:
    """A chicken's egg timer (Beta's `timeUntilNextEgg`): True on the tick it lays one (and the
    timer is drawn again)."""
    if life.dead or life.egg_ticks <= 0:
        return False
    life.egg_ticks -= 1
    if life.egg_ticks > 0:
        return False
    life.egg_ticks = rng.next_int(EGG_TICKS[0]) + EGG_TICKS[1]
    return True


def death_drops(kind: CreatureKind, life: CreatureLife, rng: JavaRandom) -> list[tuple[str, int]]:
    """What a creature drops on dying, as (item, count) in Beta's order: each of `kind.drops`
    rand.nextInt(3) times, one at a time (Beta's `dropFewItems`); a sheep drops one wool unless
    sheared (`EntitySheep.dropFewItems`)."""
    if kind.name == "sheep":
        return [] if life.sheared else [("wool", 1)]
    drops = []
    for item in kind.drops:
        drops.extend((item, 1) for _ in range(rng.next_int(DROP_ROLLS)))
    return drops


# --- the saved form -------------------------------------------------------------------------------

def life_state(life: CreatureLife) -> dict:
    """The life as JSON values (saved with the creature)."""
    return {"version": LIFE_STATE_VERSION, "max_health": life.max_health,
            **{name: getattr(life.vitals, name) for name in health.SAVED_FIELDS},
            "death_ticks": life.death_ticks, "age": life.age, "sheared": life.sheared, "egg_ticks": life.egg_ticks}


def life_from_state(state: object, kind: CreatureKind) -> CreatureLife:
    """The life `life_state` wrote for a creature of `kind`; ValueError naming the field."""
    if not isinstance(state, dict) or state.get("version") != LIFE_STATE_VERSION:
        raise ValueError(f"a creature's life must be an object of version {LIFE_STATE_VERSION}")
    values = {}
    for name in health.SAVED_FIELDS:
        value = state.get(name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"a creature's {name!r} must be a whole number, got {value!r}")
        values[name] = value
    if values["health"] > kind.max_health:
        raise ValueError(f"a {kind.name}'s health is at most {kind.max_health}, got {values['health']}")
    vitals = Vitals(**values)
    life = CreatureLife(kind.max_health, vitals)
    for name, low, high in (("death_ticks", 0, DEATH_TICKS), ("age", 0, 1 << 31),
                            ("egg_ticks", 0, sum(EGG_TICKS))):
        value = state.get(name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"a creature's {name!r} must be a whole number in {low}..{high}, got {value!r}")
        setattr(life, name, value)
    if not isinstance(state.get("sheared"), bool):
        raise ValueError("a creature's 'sheared' must be true or false")
    life.sheared = state["sheared"]
    return life
