"""Beta 1.7.3's creatures as values: each kind's size, health, speed, attack, drops and sounds.

Owns: `CreatureKind` (one kind's constants, frozen) and `CREATURE_KINDS` (every kind by name:
the animals pig, cow, sheep and chicken; the monsters zombie, skeleton, spider and creeper), the
categories (`MONSTER`, `ANIMAL`) and `creature_kind` (a name checked).
Does not own: what a creature does each tick (`game.rules.creature_brain`), its health and death
(`game.rules.creature_life`), where creatures spawn (`game.rules.creature_spawning`), how bodies
move (`physics`) or how they look (`game.window.render.creature_models`).

The numbers are Beta's classes': `setSize(width, height)`, `health` (EntityLiving's 10, EntityMob's
20, the chicken's 4), `moveSpeed` (EntityLiving's 0.7F unless the class sets its own: zombie 0.5F,
spider 0.8F), `attackStrength` (EntityMob's 2, the zombie's 5), `getDropItemId` (dropped
`rand.nextInt(3)` times by `EntityLiving.dropFewItems`; the skeleton drops arrows and bones, each
`rand.nextInt(3)`), and the sound names of `getLivingSound`, `getHurtSound` and `getDeathSound`,
here as the game's own sound files (`<kind>_say`, `<kind>_hurt`, `<kind>_death`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

from physics.floats import f32

MONSTER = "monster"
"""Beta's `EnumCreatureType.monster`: spawns in the dark, capped at 70 per 256 columns near players."""
ANIMAL = "creature"
"""Beta's `EnumCreatureType.creature`: spawns on lit grass, capped at 15 per 256 columns near players."""
BETA_DEFAULT_MOVE_SPEED = f32(0.7)
"""[1] `EntityLiving.moveSpeed`: the forward input a creature walks with."""


@dataclass(frozen=True, slots=True)
class CreatureKind:
    """One kind of creature."""

    name: str
    category: str
    """MONSTER or ANIMAL."""
    width: float
    """[blocks] Box width on X and Z (Beta's `setSize`, a float)."""
    height: float
    """[blocks]"""
    max_health: int
    """[half hearts]"""
    move_speed: float
    """[1] Forward input while walking a path."""
    attack_damage: int = 0
    """[half hearts] A melee hit (EntityMob's attackStrength); 0: it does not hit."""
    drops: tuple[str, ...] = ()
    """Items it drops on death, each rand.nextInt(3) times, in this order."""
    burns_in_daylight: bool = False
    """Zombies and skeletons catch fire under open sky in daylight."""
    climbs_walls: bool = False
    """The spider: on a ladder whenever its last move was blocked sideways."""
    slow_fall: bool = False
    """The chicken: falling speed x0.6 each tick off the ground."""
    eye_height: float = 0.0
    """[blocks] Beta's `getEyeHeight` (height x 0.85F): where it looks from and is seen at."""
    # Derived from the fields above once, when the kind is made: every creature reads them every tick.
    hostile: bool = field(init=False, repr=False, compare=False)
    """A monster (category MONSTER): it hunts players."""
    say_sound: str = field(init=False, repr=False, compare=False)
    hurt_sound: str = field(init=False, repr=False, compare=False)
    death_sound: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name, value in (("hostile", self.category == MONSTER), ("say_sound", f"{self.name}_say"),
                            ("hurt_sound", f"{self.name}_hurt"), ("death_sound", f"{self.name}_death")):
            object.__setattr__(self, name, value)  # frozen: set once here


def _kind(name: str, category: str, width: float, height: float, max_health: int, move_speed: float = 0.7,
          **traits) -> CreatureKind:
    width, height = f32(width), f32(height)
    return CreatureKind(name, category, width, height, max_health, f32(move_speed),
                        eye_height=f32(height * f32(0.85)), **traits)


CREATURE_KINDS: MappingProxyType[str, CreatureKind] = MappingProxyType({kind.name: kind for kind in (
    _kind("pig", ANIMAL, 0.9, 0.9, 10, drops=("porkchop",)),
    _kind("cow", ANIMAL, 0.9, 1.3, 10, drops=("leather",)),
    _kind("sheep", ANIMAL, 0.9, 1.3, 10, drops=("wool",)),
    _kind("chicken", ANIMAL, 0.3, 0.4, 4, drops=("feather",), slow_fall=True),
    _kind("zombie", MONSTER, 0.6, 1.8, 20, 0.5, attack_damage=5, drops=("feather",), burns_in_daylight=True),
    _kind("skeleton", MONSTER, 0.6, 1.8, 20, attack_damage=2, drops=("arrow", "bone"), burns_in_daylight=True),
    _kind("spider", MONSTER, 1.4, 0.9, 20, 0.8, attack_damage=2, drops=("string",), climbs_walls=True),
    _kind("creeper", MONSTER, 0.6, 1.8, 20, drops=("gunpowder",)),
)})
"""Every creature kind by name (Beta 1.7.3's values: see the module docstring)."""
ANIMALS = tuple(name for name, kind in CREATURE_KINDS.items() if kind.category == ANIMAL)
MONSTERS = tuple(name for name, kind in CREATURE_KINDS.items() if kind.category == MONSTER)


def creature_kind(name: object) -> CreatureKind:
    """The kind named `name`; ValueError naming the kinds otherwise."""
    kind = CREATURE_KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise ValueError(f"unknown creature kind {name!r}; the kinds are {', '.join(CREATURE_KINDS)}")
    return kind
