"""When a sound happens, and which: the rules of Boxel's sounds, headless.

Owns: `SoundEvent` (a sound the game makes: its name, where, how loud, at what pitch), the sound
families and which block sounds like which (`family_of`, `FAMILY_OF_BLOCK`), every sound's name
(`SOUND_NAMES`, one file each or its variants in assets/sounds/), and `SoundRules`, which a
`game.rules.session.Session` asks after each edit and each tick for the sounds they make:

- footsteps: Beta's `Entity.moveEntity` adds 0.6 of each tick's horizontal move to a walked
  distance (not while sneaking on the ground) and plays the step sound of the block under the feet
  each time that distance passes the next whole number (`STEP_DISTANCE_PER_BLOCK`); in water the
  stroke is a swim sound instead (many players' at once: `SoundRules.players_sounds`);
- breaking and placing a block: its family's sound (Beta's volume and pitch for block edits);
- digging a block: its step sound every few ticks (`game.rules.mining` says when; Beta's
  `PlayerControllerSP` volume and pitch, `DIG_VOLUME`, `DIG_PITCH`);
- a landing after a fall of more than `LANDING_MIN_FALL_BLOCKS`, louder the longer the fall;
- a splash on entering water (Beta's `handleWaterMovement`: louder the faster the entry);
- the player hurt, a mob hurt (punched or hit), and each mob's idle sound at random times (Beta's
  `livingSoundTime`: a chance that grows every tick, reset to -`MOB_TALK_INTERVAL_TICKS` after each).

Deterministic: every random draw comes from generators seeded by the world seed (and a mob's key),
so a replay makes the same sounds. Pure: no engine, no clock, no files.
Does not own: the sound files (`assets/make_sounds.py` writes them), playing them, distance
attenuation and the master volume (`game.window.render.sound_player`), or when a tick runs (`game.rules.session`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import physics
from physics.materials import Material

from .creature_kinds import CREATURE_KINDS
from .derived_seeds import derived_seed
from ..world import blocks

FAMILIES = ("stone", "grass", "wood", "sand", "glass", "cloth", "leaves")
"""The sound families: every block that makes a sound makes its family's."""
_FAMILY_OF_NAME = {
    "grass": "grass", "dirt": "grass", "dandelion": "grass", "rose": "grass", "tall_grass": "grass",
    "sand": "sand", "gravel": "sand", "soul_sand": "sand",
    "log": "wood", "planks": "wood", "fence": "wood", "torch": "wood",
    "glass": "glass", "ice": "glass",
    "carpet": "cloth", "cobweb": "cloth", "cactus": "cloth",  # Beta gives the cactus its cloth sound
    "leaves": "leaves",
    "crafting_table": "wood", "chest": "wood", "sapling": "grass", "sapling_ready": "grass",
    "brown_mushroom": "grass", "red_mushroom": "grass", "wool": "cloth", "clay": "sand",
}
_FAMILY_OF_PREFIX = {"stairs_": "wood", "ladder_": "wood", "door_": "wood", "wall_torch_": "wood", "bed_": "cloth"}


def _family(spec: blocks.BlockSpec) -> str | None:
    """A block's family: air and fluids have none; any other block not named above is stone-like."""
    for prefix, family in _FAMILY_OF_PREFIX.items():
        if spec.name.startswith(prefix):
            return family
    if spec.material in (Material.AIR, Material.WATER, Material.LAVA) and spec.name not in _FAMILY_OF_NAME:
        return None
    return _FAMILY_OF_NAME.get(spec.name, "stone")


FAMILY_OF_BLOCK: tuple[str | None, ...] = tuple(_family(spec) for spec in blocks.SPECS)
"""The sound family of each block id (None: air, water and lava make no step or edit sound)."""

STEP, BREAK, PLACE = "step", "break", "place"
LAND, SPLASH, SWIM = "land", "splash", "swim"
MOB_SAY, MOB_HURT, PLAYER_HURT = "mob_say", "mob_hurt", "player_hurt"
POP, FIZZ = "pop", "fizz"
FUSE, EXPLODE, BOW, ARROW_HIT, CHICKEN_PLOP = "fuse", "explode", "bow", "arrow_hit", "chicken_plop"
"""A creeper's hiss, an explosion, a skeleton's shot, an arrow striking, a chicken's egg."""
"""An item picked up (Beta's random.pop), an item burning in lava (random.fizz)."""
SOUND_NAMES: tuple[str, ...] = (*(f"{kind}_{family}" for kind in (STEP, BREAK, PLACE) for family in FAMILIES),
                                LAND, SPLASH, SWIM, MOB_SAY, MOB_HURT, PLAYER_HURT, POP, FIZZ,
                                *(f"{kind}_{voice}" for kind in CREATURE_KINDS for voice in ("say", "hurt", "death")),
                                FUSE, EXPLODE, BOW, ARROW_HIT, CHICKEN_PLOP)
ITEM_SOUNDS = {"random.pop": POP, "random.splash": SPLASH, "random.fizz": FIZZ}
"""Beta's names of the sounds an item makes (`game.rules.dropped_items.ItemSound`) -> Boxel's."""
"""Every sound the rules make; `game.window.render.sound_player` plays the file of that name (or one of
its variants, name_1, name_2...) from assets/sounds/."""
_STEP_OF_FAMILY = {family: f"{STEP}_{family}" for family in FAMILIES}
"""Each family's step sound's name."""

STEP_DISTANCE_PER_BLOCK = 0.6
"""[1/block] Beta's moveEntity adds 0.6 of the horizontal distance moved to `distanceWalkedModified`
and plays a step each time it passes the next whole number: a step every 1 2/3 blocks."""
STEP_PROBE_DEPTH = 0.2
"""[blocks] The block under the feet is the one 0.2 below them (Beta's `posY - 0.2 - yOffset`);
a block with a collision shape in the feet's own cell (a carpet, 1/16 tall) comes first."""
STEP_VOLUME = 0.15
"""Beta's step sound: the block's step volume (1.0 for every Boxel block) x 0.15."""
EDIT_VOLUME = 1.0
"""Beta's break and place sounds: (step volume + 1) / 2, which is 1.0 for every Boxel block."""
EDIT_PITCH = 0.8
"""Beta's break and place sounds: the block's pitch (1.0) x 0.8."""
DIG_VOLUME = 0.25
"""Beta's sound while digging: the block's step sound at (step volume + 1) / 8, 0.25 for every Boxel block."""
DIG_PITCH = 0.5
"""Beta's sound while digging: the block's pitch (1.0) x 0.5."""
LANDING_MIN_FALL_BLOCKS = 1.0
"""[blocks] A landing after a longer fall thuds: a jump on flat ground falls about 1.13 blocks (it
rises 1.25; the landing tick's own drop is not counted) and is heard; stepping down one block falls
less than 1 and is not."""
LANDING_VOLUME_PER_BLOCK = 0.125
"""[1/block] The thud's volume per block fallen, up to 1: a jump's landing (about 1.13 blocks fallen,
0.14) is about as loud as a step (0.15); a fall of 8 blocks or more (5 hearts of damage) is at full volume."""
SPLASH_VOLUME_SCALE = 0.2
"""Beta's splash volume: sqrt(0.2 vx^2 + vy^2 + 0.2 vz^2) x 0.2 [blocks/tick], at most 1."""
SPLASH_PITCH_SPREAD = 0.4
"""Beta's splash pitch: 1 + (r1 - r2) x 0.4, r1 and r2 uniform in [0, 1)."""
VOICE_PITCH_SPREAD = 0.2
"""Beta's living sounds (idle and hurt): pitch 1 + (r1 - r2) x 0.2."""
MOB_TALK_INTERVAL_TICKS = 80
"""[ticks] Beta's `getTalkInterval`: after an idle sound the chance of the next starts this far
below zero, so a mob is quiet for at least 4 s."""
MOB_TALK_CHANCE_DENOMINATOR = 1000
"""Beta's idle sound: each tick a mob makes it when a draw from 0..999 is below its counter, which
grows by 1 a tick (about one every 8 s on average)."""
_TALK_DRAW_BITS = MOB_TALK_CHANCE_DENOMINATOR.bit_length()
"""Bits drawn at a time for the idle sound's draw from 0..MOB_TALK_CHANCE_DENOMINATOR - 1 (`_draw_below`)."""
MOB_VOLUME = 1.0
"""Beta's `getSoundVolume` for living things."""
TELEPORT_BLOCKS = 8.0
"""[blocks] A tick that moved the player farther than this on the ground was a respawn or a
teleport, not a walk: it plays no steps (the fastest move, sprint-jumping, is under 1 block a tick)."""


def family_of(block: int) -> str | None:
    """The sound family of block id `block` (None for air, water and lava); ValueError for an unknown id."""
    if isinstance(block, bool) or not isinstance(block, int) or not 0 <= block < blocks.COUNT:
        raise ValueError(f"not a block id: {block!r} (ids are 0..{blocks.COUNT - 1})")
    return FAMILY_OF_BLOCK[block]


def _finite_numbers(what: str, values: object, count: int) -> tuple[float, ...]:
    if not isinstance(values, Sequence) or len(values) != count:
        raise TypeError(f"{what} must be {count} numbers, got {values!r}")
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in values):
        raise ValueError(f"{what} must be finite numbers, got {values!r}")
    return tuple(float(v) for v in values)


@dataclass(frozen=True, slots=True)
class SoundEvent:
    """One sound the game makes: `name` (one of SOUND_NAMES) at `position` [blocks], with `volume`
    (0..; above 1 it carries farther, as in Beta) and `pitch` (playback rate, 1 = as recorded)."""

    name: str
    position: tuple[float, float, float]
    volume: float = 1.0
    pitch: float = 1.0

    def __post_init__(self) -> None:
        if self.name not in SOUND_NAMES:
            raise ValueError(f"unknown sound {self.name!r}; the sounds are {', '.join(SOUND_NAMES)}")
        object.__setattr__(self, "position", _finite_numbers("a sound's position", self.position, 3))
        volume, pitch = _finite_numbers("a sound's volume and pitch", (self.volume, self.pitch), 2)
        if volume < 0.0 or pitch <= 0.0:
            raise ValueError(f"a sound's volume must be >= 0 and its pitch > 0, got {volume!r} and {pitch!r}")
        object.__setattr__(self, "volume", volume)
        object.__setattr__(self, "pitch", pitch)


_SOUND_SLOT_SETTERS = tuple(SoundEvent.__dict__[name].__set__ for name in SoundEvent.__dataclass_fields__)
"""The setters of SoundEvent's slots, in field order (`_sound_at`)."""
assert len(_SOUND_SLOT_SETTERS) == 4, "_sound_at sets every field of SoundEvent"


def _sound_at(name: str, position: tuple[float, float, float], volume: float, pitch: float = 1.0) -> SoundEvent:
    """`SoundEvent(name, position, volume, pitch)` for a name of SOUND_NAMES and a volume and pitch
    (floats) of these rules' own, without the checks where `position` is three finite floats (a
    body's feet: a player's steps and landings are made every tick); else through them."""
    x, y, z = position
    if type(x) is not float or type(y) is not float or type(z) is not float or not math.isfinite(x + y + z):
        return SoundEvent(name, position, volume, pitch)
    sound = object.__new__(SoundEvent)
    set_name, set_position, set_volume, set_pitch = _SOUND_SLOT_SETTERS
    set_name(sound, name)
    set_position(sound, position)
    set_volume(sound, volume)
    set_pitch(sound, pitch)
    return sound


def block_sound(kind: str, block_name: str, cell: Sequence[int]) -> SoundEvent | None:
    """The sound of breaking (kind BREAK) or placing (PLACE) block `block_name` at `cell`, from
    the cell's centre; None for a block with no family (air, water, lava)."""
    if kind not in (BREAK, PLACE):
        raise ValueError(f"a block edit sound is {BREAK!r} or {PLACE!r}, got {kind!r}")
    family = FAMILY_OF_BLOCK[blocks.block_id(block_name)]
    if family is None:
        return None
    x, y, z = _finite_numbers("a cell", cell, 3)
    return SoundEvent(f"{kind}_{family}", (x + 0.5, y + 0.5, z + 0.5), EDIT_VOLUME, EDIT_PITCH)


def landing_volume(fall_blocks: float) -> float:
    """The thud's volume after a fall of `fall_blocks` (0 when too short to be heard)."""
    if fall_blocks <= LANDING_MIN_FALL_BLOCKS:
        return 0.0
    return min(1.0, fall_blocks * LANDING_VOLUME_PER_BLOCK)


def splash_volume(velocity: Sequence[float]) -> float:
    """Beta's splash volume for a body entering water at `velocity` [blocks/tick]."""
    vx, vy, vz = velocity
    return min(1.0, math.sqrt(vx * vx * 0.2 + vy * vy + vz * vz * 0.2) * SPLASH_VOLUME_SCALE)


class _MobVoice:
    """One mob's idle-sound counter (Beta's `livingSoundTime`) and its own random stream."""

    __slots__ = ("talk_time", "random")

    def __init__(self, seed: int) -> None:
        self.talk_time = 0
        self.random = random.Random(seed)


class SoundRules:
    """The sounds one session makes; the session calls `block_edited`, `mob_hurt` and `after_tick`.

    `seed`: the world seed (mob voices and pitches draw from streams derived from it)."""

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"the sound seed must be an int (the world seed), got {seed!r}")
        self.seed = seed
        self.walked = 0.0
        """Beta's `distanceWalkedModified` for the player: 0.6 of the blocks walked (see STEP_DISTANCE_PER_BLOCK)."""
        self.next_step = 1
        """Beta's `nextStepDistance`: the walked distance the next step sound waits for."""
        self._random = random.Random(derived_seed("sounds", seed))
        self._voices: dict[int, _MobVoice] = {}

    # --- edits and hits (as they happen) -------------------------------------------------------

    def block_edited(self, kind: str, block_name: str, cell: Sequence[int]) -> list[SoundEvent]:
        """Block `block_name` was broken (BREAK) or placed (PLACE) at `cell`."""
        sound = block_sound(kind, block_name, cell)
        return [] if sound is None else [sound]

    def digging(self, block_name: str, cell: Sequence[int]) -> list[SoundEvent]:
        """Block `block_name` at `cell` is being dug (`game.rules.mining` says on which ticks): its step
        sound from the cell's centre, quieter and lower than a step; none for a block with no family."""
        family = FAMILY_OF_BLOCK[blocks.block_id(block_name)]
        if family is None:
            return []
        x, y, z = _finite_numbers("a cell", cell, 3)
        return [SoundEvent(f"{STEP}_{family}", (x + 0.5, y + 0.5, z + 0.5), DIG_VOLUME, DIG_PITCH)]

    def item_sound(self, sound) -> list[SoundEvent]:
        """A sound an item made (`game.rules.dropped_items.ItemSound`: Beta's name, where, how loud,
        its pitch), as Boxel's sound of that kind; none for a name Boxel has no sound for."""
        name = ITEM_SOUNDS.get(sound.name)
        return [] if name is None else [SoundEvent(name, sound.position, sound.volume, sound.pitch)]

    def mob_hurt(self, body: physics.Body, sound: str = MOB_HURT) -> list[SoundEvent]:
        """A mob was punched or hit, at `body`: `sound` (a creature's own hurt or death sound)."""
        return [SoundEvent(sound, body.feet, MOB_VOLUME, self._voice_pitch(self._random))]

    def creature_sound(self, sound: str, position: Sequence[float], volume: float = MOB_VOLUME,
                       pitch: float | None = None) -> list[SoundEvent]:
        """A creature's sound `sound` (a fuse, an explosion, a bow, an egg) at `position`."""
        return [SoundEvent(sound, tuple(position), volume, self._voice_pitch(self._random) if pitch is None else pitch)]

    # --- a tick -------------------------------------------------------------------------------------

    def after_tick(self, world, before: physics.Body, after: physics.Body, *, sneaking: bool, hurt: bool,
                   alive: bool, mobs: Iterable[tuple[int, physics.Body]] = ()) -> list[SoundEvent]:
        """The sounds of one tick: the player moved from `before` to `after` (its step and what
        happened to it), `hurt` when it lost health this tick; `mobs` are (key, body) of every live
        mob after its tick (their idle sounds)."""
        return self.player_sounds(world, before, after, sneaking=sneaking, hurt=hurt, alive=alive) + self.mob_voices(mobs)

    def player_sounds(self, world, before: physics.Body, after: physics.Body, *, sneaking: bool, hurt: bool,
                      alive: bool) -> list[SoundEvent]:
        """One player's sounds of one tick (`after_tick` without the mobs): its steps (counted in
        these rules' `walked`, so a game of many players keeps one `SoundRules` per player for them),
        landing, splash and hurt."""
        sounds: list[SoundEvent] = []
        if alive:
            sounds += self._player_sounds(world, before, after, sneaking)
            if hurt:
                sounds.append(SoundEvent(PLAYER_HURT, after.feet, MOB_VOLUME, self._voice_pitch(self._random)))
        return sounds

    def mob_voices(self, mobs: Iterable[tuple[int, physics.Body]]) -> list[SoundEvent]:
        """The idle voices of one tick of the mobs, (key, body) of every live mob (`after_tick`
        without the player); a mob not listed is forgotten, so pass them all, every tick."""
        return self._mob_voices(mobs)

    def _player_sounds(self, world, before: physics.Body, after: physics.Body, sneaking: bool) -> list[SoundEvent]:
        sounds = []
        if after.in_water and not before.in_water:
            volume = splash_volume(before.velocity)
            if volume > 0.0:
                pitch = 1.0 + (self._random.random() - self._random.random()) * SPLASH_PITCH_SPREAD
                sounds.append(SoundEvent(SPLASH, after.feet, volume, pitch))
        if after.on_ground and before.fall_distance > 0.0 and after.fall_distance == 0.0:
            volume = landing_volume(before.fall_distance)
            if volume > 0.0:
                sounds.append(SoundEvent(LAND, after.feet, volume))
        step = self._walked(world, before, after, sneaking)
        if step is not None:
            sounds.append(step)
        return sounds

    def _walked(self, world, before: physics.Body, after: physics.Body, sneaking: bool) -> SoundEvent | None:
        """The tick's walked distance added (not a teleport, nor sneaking on the ground), and the step
        sound when it passed the next step (`_step`); None when it did not, or nothing sounds."""
        b0, b1 = before.box, after.box  # the feet's x and z as `Body.feet` works them out (quicker)
        x0, z0 = (b0[0] + b0[3]) / 2.0, (b0[2] + b0[5]) / 2.0
        x, z = (b1[0] + b1[3]) / 2.0, (b1[2] + b1[5]) / 2.0
        moved = math.hypot(x - x0, z - z0)
        if moved > TELEPORT_BLOCKS or (sneaking and before.on_ground):
            return None
        self.walked += moved * STEP_DISTANCE_PER_BLOCK
        if self.walked <= self.next_step:
            return None
        return self._step(world, after, x, b1[1], z)

    def _step(self, world, after: physics.Body, x: float, y: float, z: float) -> SoundEvent | None:
        """The step sound once the walked distance passed the next step, the feet at (x, y, z), and
        the next step counted; None (and the next step not counted) in the air, or on a block with no
        family."""
        block = self._underfoot(world, x, y, z)
        if block == blocks.AIR:
            return None  # in the air: the distance waits for the next block underfoot
        self.next_step += 1
        if after.in_water:
            return _sound_at(SWIM, after.feet, STEP_VOLUME)
        family = FAMILY_OF_BLOCK[block]
        return None if family is None else _sound_at(_STEP_OF_FAMILY[family], after.feet, STEP_VOLUME)

    @staticmethod
    def _underfoot(world, x: float, y: float, z: float) -> int:
        """The block a step sounds of: the feet's own cell when its block has a collision shape (the
        feet stand inside a carpet or a lower slab), else Beta's: the cell STEP_PROBE_DEPTH below the
        feet, or the fence under that cell when it is air (a fence is 1.5 blocks tall)."""
        i, k = math.floor(x), math.floor(z)
        inside = blocks.block_id(world.get_block(i, math.floor(y), k))
        if blocks.SOLID[inside]:
            return inside
        j = math.floor(y - STEP_PROBE_DEPTH)
        block = blocks.block_id(world.get_block(i, j, k))
        if block == blocks.AIR and world.get_block(i, j - 1, k) == "fence":
            return blocks.block_id("fence")
        return block

    def _mob_voices(self, mobs: Iterable[tuple]) -> list[SoundEvent]:
        """`mobs`: (key, body) or (key, body, idle sound name) of every live mob."""
        sounds, alive, voices = [], set(), self._voices
        denominator, bits = MOB_TALK_CHANCE_DENOMINATOR, _TALK_DRAW_BITS
        for mob in mobs:  # (indexed, not unpacked with a starred name: no list a mob)
            key, body = mob[0], mob[1]
            alive.add(key)
            voice = voices.get(key)
            if voice is None:
                voice = voices[key] = _MobVoice(derived_seed("mob voice", self.seed, key))
            chance = voice.talk_time
            voice.talk_time = chance + 1
            stream = voice.random
            if _draw_below(stream, denominator, bits) < chance:
                voice.talk_time = -MOB_TALK_INTERVAL_TICKS
                sounds.append(SoundEvent(mob[2] if len(mob) > 2 else MOB_SAY, body.feet, MOB_VOLUME,
                                         self._voice_pitch(stream)))
        if len(voices) > len(alive):  # every key heard has its voice: more voices, some mob is gone
            for gone in voices.keys() - alive:
                del voices[gone]
        return sounds

    @staticmethod
    def players_sounds(rules: Sequence[SoundRules], world, befores: Sequence[physics.Body],
                       afters: Sequence[physics.Body], sneaking: Sequence[bool], hurt: Sequence[bool],
                       alive: Sequence[bool]) -> list[SoundEvent]:
        """Many players' sounds of one tick, in order: `[*r.player_sounds(world, b, a, sneaking=s, hurt=h,
        alive=l) for r, b, a, s, h, l in zip(...)]` exactly (the same sounds, steps counted and random
        draws; a test compares them), each player with its own rules (`rules`). A player that only
        walks, as most do in most ticks, is counted here without a call; one hurt, splashing or landing
        goes through `player_sounds` itself."""
        made: list[SoundEvent] = []
        for own, before, after, sneaks, is_hurt, is_alive in zip(rules, befores, afters, sneaking, hurt, alive,
                                                                 strict=True):
            if not is_alive:
                continue
            if is_hurt or (after.in_water and not before.in_water) or (
                    after.on_ground and before.fall_distance > 0.0 and after.fall_distance == 0.0):
                made += own.player_sounds(world, before, after, sneaking=sneaks, hurt=is_hurt, alive=is_alive)
                continue
            step = own._walked(world, before, after, sneaks)  # `_player_sounds` with no splash nor landing
            if step is not None:
                made.append(step)
        return made

    @staticmethod
    def _voice_pitch(stream: random.Random) -> float:
        return 1.0 + (stream.random() - stream.random()) * VOICE_PITCH_SPREAD


def _draw_below(stream: random.Random, n: int, bits: int) -> int:
    """`stream.randrange(n)` for n > 0 whose bit length is `bits`, drawn as CPython's `randrange` draws
    it (`_randbelow`: `bits` random bits, again while n or more), without its argument handling: every
    mob draws one a tick (a test compares them)."""
    draw = stream.getrandbits(bits)
    while draw >= n:
        draw = stream.getrandbits(bits)
    return draw
