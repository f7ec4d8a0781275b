"""Beta's creatures in the mob tick: their senses, spawning, leaps, lives, deaths and what they ask of
the game.

Owns: `CreatureRules`, the part of a `game.rules.mobs.MobManager` that only Beta's creatures have
(a manager made with `creatures=True`, in survival worlds):
- before the brains think (`before_think`): the senses every brain shares (the living players,
  daytime, brightness, a fresh path budget), natural spawning (`game.rules.creature_spawning`:
  animals on lit grass, monsters in the dark, each category capped), and on peaceful the monsters
  removed (Beta's `EntityMob` on difficulty 0);
- between thinking and stepping (`take_leaps`): a spider's leap sets its velocity;
- after the step (`after_step`): each creature's life (`game.rules.creature_life`: fire, lava,
  falls, the death count), burning in daylight, a chicken's eggs, the limbs, deaths (drops and the
  death sound), the gone removed, and monsters despawned by Beta's rules;
- `hurt`: a creature hit by a player or an arrow (a sheep punched gives wool, Beta's rule), with
  knock-back and its sound;
- `actions`: what the creatures asked of the game this tick (`MeleeHit`, `ShootArrow`, `Explode`,
  `DropItem`, `MakeSound`), taken by the session (`take_actions`).
Pure: no Ursina. Does not own: the crowd and the bodies (`game.rules.mobs`), a brain's decisions
(`game.rules.creature_brain`), the rules of a life (`game.rules.creature_life`), explosions, arrows or
what a hit does to a player (the session).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import physics
from physics import Body

from .creature_brain import CreatureBrain, MakeSound, Senses, Sighted
from .creature_kinds import MONSTER
from .creature_life import (burn_in_daylight, death_drops, hurt_creature, lay_egg, life_tick, swing_limbs)
from .creature_spawning import (Despawn, Spawner, can_see_sky, cell_brightness, despawn_many, light_cell,
                                world_gen)
from .derived_seeds import derived_seed
from .health import Hit
from .line_of_sight import SightArea
from .pathfinding import PathBudget
from ..world.day_cycle import is_daytime, skylight_subtracted
from ..world.java_random import JavaRandom

SHEEP_WOOL_ROLLS = 3
"""A punched sheep drops 1 + rand.nextInt(3) wool (Beta's `EntitySheep.attackEntityFrom`)."""
WOOL_HEIGHT = 1.0
"""[blocks] A punched sheep's wool appears this far above its feet (Beta's `entityDropItem(..., 1.0F)`)."""


@dataclass(frozen=True, slots=True)
class DropItem:
    """A creature drops `count` of `item` at `position`, with `nudge` added to its velocity."""

    item: str
    count: int
    position: tuple[float, float, float]
    nudge: tuple[float, float, float] = (0.0, 0.0, 0.0)




SIGHT_AREA_REACH = (18, 10)
"""[blocks] A player's `SightArea` reaches this far from its eye across and up or down: a hunter looks
for players within 16 blocks (`creature_brain.TARGET_RANGE_BLOCKS`); a ray reaching farther reads its own."""


def _sight_area(world, eye, last: SightArea | None = None) -> SightArea:
    """The `SightArea` around a player's `eye`: `last` (the player's area of the tick before) while it
    answers as a new one would (`SightArea.answers_as`), else a new one."""
    across, up = SIGHT_AREA_REACH
    x, y, z = (math.floor(v) for v in eye)
    low, high = (x - across, y - up, z - across), (x + across + 1, y + up + 1, z + across + 1)
    if last is not None and last.answers_as(world, low, high):
        return last
    return SightArea(world, low, high)


def _occupied(box, *groups) -> bool:
    """Whether a body of `groups` (sequences of bodies) overlaps `box` (Beta's `checkIfAABBIsClear`)."""
    return any(box.intersects(body.box) for group in groups for body in group)


class CreatureRules:
    """The creatures' own rules in one `MobManager` (see the module docstring)."""

    def __init__(self, mobs, world, seed: int) -> None:
        self._mobs = mobs
        self._world = world
        self.senses = Senses()
        self._seed = seed
        self.random = JavaRandom(derived_seed("creatures", seed))
        """The world's random numbers for the creatures' drops and fires (Beta's `world.rand` and
        each entity's `rand`, one stream here)."""
        self.spawner = Spawner(derived_seed("creature spawning", seed))
        self.monsters_allowed = True
        """False on peaceful: monsters neither spawn nor stay."""
        self.natural_spawning = True
        """False: no creature appears by itself (a test or a lab placing its own)."""

    # --- the tick ----------------------------------------------------------------------------------

    def before_think(self, players: Sequence[Body], alive: Sequence[bool] | None) -> None:
        mobs, world = self._mobs, self._world
        alive = [True] * len(players) if alive is None else list(alive)
        senses = self.senses
        senses.players = tuple(Sighted(index, body) for index, (body, living) in enumerate(zip(players, alive))
                               if living)
        senses.by_index = {player.index: player for player in senses.players}
        last = senses.sight
        senses.sight = {player.index: _sight_area(world, player.eye, last.get(player.index))
                        for player in senses.players}
        day_time = world.day_time
        senses.daytime = is_daytime(day_time)
        senses.brightness = self._brightness_for(world, day_time)
        if senses.budget is None:
            senses.budget = PathBudget()
        senses.budget.new_tick()
        if not self.monsters_allowed:
            for index in reversed([i for i, brain in enumerate(mobs.brains)
                                   if isinstance(brain, CreatureBrain) and brain.kind.category == MONSTER]):
                mobs.remove_at(index)
        if not self.natural_spawning:
            return
        counts: dict[str, int] = {}
        for brain in mobs.brains:
            if isinstance(brain, CreatureBrain):
                counts[brain.kind.category] = counts.get(brain.kind.category, 0) + 1
        others = list(players)
        plans = self.spawner.natural(world, [body.feet for body in players], counts, day_time, self.monsters_allowed,
                                     lambda box: _occupied(box, mobs.bodies, others))
        for key in world.take_generated_columns():
            plans += world_gen(world, key, JavaRandom(derived_seed("animals", self._seed, *key)))
        for plan in plans:
            try:
                mobs.spawn_creature(plan.kind, plan.feet, plan.yaw, others)
            except ValueError:
                continue  # no room after all (a plan made before another creature took the spot)

    def _brightness_for(self, world, day_time: int):
        """This tick's `creature_light`, remembered by the cell it reads (the same cell gives the same
        value within a tick: light changes only between ticks)."""
        seen = {}
        subtracted = skylight_subtracted(day_time)

        def brightness(feet, height: float) -> float:
            key = light_cell(feet, height)
            value = seen.get(key)
            if value is None:
                value = seen[key] = cell_brightness(world, key, subtracted)  # `creature_light` at that cell
            return value
        return brightness

    def take_leaps(self) -> None:
        """A brain that leapt this tick (`CreatureBrain.leap`) sets its body's velocity before the step."""
        mobs = self._mobs
        leaps = [(index, brain) for index, brain in enumerate(mobs.brains)
                 if isinstance(brain, CreatureBrain) and brain.leap is not None]
        if not leaps:
            return
        bodies = list(mobs.bodies)
        for index, brain in leaps:
            # `replace(body, velocity=brain.leap)` without Body's checks: a leap is finite floats under a block a tick
            bodies[index] = bodies[index]._with_velocity(brain.leap)
            brain.leap = None
        mobs.replace_bodies(bodies)

    def after_step(self, players: Sequence[Body]) -> None:
        mobs, world, rng = self._mobs, self._world, self.random
        senses = self.senses
        daytime = senses.daytime
        gone = []
        for index, (body, before, brain, life) in enumerate(zip(mobs.bodies, mobs.previous, mobs.brains, mobs.lives)):
            if life is None:
                continue
            kind = brain.kind
            swing_limbs(life, before[0], body)
            if daytime and kind.burns_in_daylight and not life.dead:
                feet = body.feet
                brightness = senses.brightness(feet, kind.height)
                if brightness > 0.5:
                    burn_in_daylight(life, brightness, can_see_sky(world, *(math.floor(v) for v in feet)),
                                     senses.daytime, rng)
            lost, died = life_tick(life, kind, body)
            if kind.name == "chicken" and lay_egg(life, rng):
                self._drop("egg", 1, body.feet)
                senses.actions.append(MakeSound("chicken_plop", body.feet))
            if died:
                self._die(brain, life, body)
            elif lost:
                senses.actions.append(MakeSound(kind.hurt_sound, body.feet))
            if life.gone or (brain.dead and not life.dead):  # dead long enough, or a creeper that exploded
                gone.append(index)
        for index in reversed(gone):
            mobs.remove_at(index)
        self._despawn(players)

    def _despawn(self, players: Sequence[Body]) -> None:
        """Beta's `despawnEntity` for the living creatures (`creature_spawning.despawn_many`: monsters far
        from every player, or old and unlucky away from them, go; animals stay)."""
        mobs = self._mobs
        living, creatures = [], []  # (index, life) and `despawn_many`'s (feet, age, persistent) of each living one
        for index, (body, brain, life) in enumerate(zip(mobs.bodies, mobs.brains, mobs.lives)):
            if life is not None and not life.dead:
                living.append((index, life))
                creatures.append((body.feet, life.age, brain.kind.category != MONSTER))
        decided = despawn_many(creatures, [body.feet for body in players], self.random)
        gone = []
        leaves, restarts = Despawn.GONE, Despawn.RESET_AGE  # read off the Enum once, not for every creature
        for (index, life), verdict in zip(living, decided):
            if verdict is leaves:
                gone.append(index)
            elif verdict is restarts:
                life.age = 0
        for index in reversed(gone):
            mobs.remove_at(index)

    # --- hits ----------------------------------------------------------------------------------------

    def hurt(self, index: int, damage: int, at: tuple[float, float] | None, attacker: int | None = None,
             by_player: bool = False) -> bool:
        """Creature `index` (crowd order) takes a hit of `damage` from (x, z) `at` (None: no direction),
        by the player `attacker` (join order) when there is one. A sheep hit by a player first gives its
        wool. Knocked back (Beta's `knockBack`) on a hit that counted in full. True when the hit counted."""
        mobs = self._mobs
        brain, life = mobs.brains[index], mobs.lives[index]
        if life is None or life.dead:
            return False
        body = mobs.bodies[index]
        if by_player and brain.kind.name == "sheep" and not life.sheared:
            life.sheared = True
            self._shear(body)
        hit = hurt_creature(life, damage)
        if hit is Hit.IGNORED:
            return False
        brain.hurt_by(attacker)
        if hit is Hit.FULL and at is not None:
            knocked = physics.knockback(body, at[0], at[1])
            mobs.knock_back(index, tuple(a - b for a, b in zip(knocked.velocity, body.velocity)))
        if life.dead:
            self._die(brain, life, body)
        else:
            self.senses.actions.append(MakeSound(brain.kind.hurt_sound, body.feet))
        return True

    def _die(self, brain: CreatureBrain, life, body: Body) -> None:
        """Its death sound and drops (Beta's `onDeath` -> `dropFewItems`); it lies DEATH_TICKS, then goes."""
        brain.dead = True
        self.senses.actions.append(MakeSound(brain.kind.death_sound, body.feet))
        for item, count in death_drops(brain.kind, life, self.random):
            self._drop(item, count, body.feet)

    def _shear(self, body: Body) -> None:
        rng = self.random
        x, y, z = body.feet
        for _ in range(1 + rng.next_int(SHEEP_WOOL_ROLLS)):
            lift = rng.next_float() * 0.05
            nudge_x = (rng.next_float() - rng.next_float()) * 0.1
            nudge_z = (rng.next_float() - rng.next_float()) * 0.1
            self._drop("wool", 1, (x, y + WOOL_HEIGHT, z), (nudge_x, lift, nudge_z))

    def _drop(self, item: str, count: int, position, nudge=(0.0, 0.0, 0.0)) -> None:
        self.senses.actions.append(DropItem(item, count, tuple(position), nudge))

    def take_actions(self) -> list:
        """What the creatures asked of the game since the last call, in order."""
        taken = list(self.senses.actions)
        self.senses.actions.clear()
        return taken
