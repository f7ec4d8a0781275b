"""The fast paths of the tick's per-player steps after the move, each against its readable twin:
the view motions kept as rows (`view_motion_rows.advance_rows`, `Player.view_motion`) against
`ViewMotion.advanced`, many players' sounds at once (`SoundRules.players_sounds`) against
`SoundRules.player_sounds` one by one, a step's sound made without its checks (`sounds._sound_at`)
against `SoundEvent`, health's clear box (`health.ExposureReader`) against `health.exposure_of`,
and the block reads by id (`health._id_reader`) against `get_block`."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules import health, sounds
from game.rules.player import Player
from game.rules.sounds import SoundEvent, SoundRules
from game.rules.view_bobbing import ViewMotion
from game.rules.view_motion_rows import MotionRows, advance_all, advance_rows
from game.world.coords import WORLD_BORDER
from game.world.lab import build_arena
from physics import AABB, Body

HELD = [None, "stone", "dirt"]


def _bits(motion: ViewMotion) -> tuple:
    return tuple((type(v), math.copysign(1.0, v), v.hex()) if isinstance(v, float) else (type(v), v)
                 for v in (getattr(motion, name) for name in ViewMotion.__dataclass_fields__))


def _step_body(rng: random.Random, body: Body) -> Body:
    """A body one tick later: a walk, a jump, a fall, now and then a respawn far away."""
    x, y, z = body.feet
    if rng.random() < 0.03:
        x, z = x + rng.choice([-20.0, 20.0]), z
    else:
        x, y, z = x + rng.uniform(-0.3, 0.3), max(0.0, y + rng.choice([0.0, 0.0, 0.42, -0.3])), z + rng.uniform(-0.3, 0.3)
    velocity = (rng.uniform(-0.3, 0.3), rng.uniform(-0.8, 0.5), rng.uniform(-0.3, 0.3))
    return Body(AABB.around_feet(x, y, z, 0.6, 1.8), velocity, on_ground=rng.random() < 0.6)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 12))
def test_view_motions_kept_as_rows_tick_after_tick_have_the_bits_of_each_player_advanced_alone(seed, count):
    rng = random.Random(seed)
    bodies = [Body(AABB.around_feet(rng.uniform(-50, 50), 64.0, rng.uniform(-50, 50), 0.6, 1.8)) for _ in range(count)]
    alone = [ViewMotion() for _ in range(count)]
    rows = MotionRows.of(alone)
    for _ in range(30):
        afters = [_step_body(rng, body) for body in bodies]
        sneaking = [rng.random() < 0.3 for _ in range(count)]
        dead = [rng.random() < 0.05 for _ in range(count)]
        held = [rng.choice(HELD) for _ in range(count)]
        alone = [m.advanced(b, a, sneaking=s, dead=d, held=h)
                 for m, b, a, s, d, h in zip(alone, bodies, afters, sneaking, dead, held)]
        rows = advance_rows(rows, bodies, afters, sneaking, dead, held)
        assert [_bits(rows.motion(k)) for k in range(count)] == [_bits(m) for m in alone]
        bodies = afters
    assert [_bits(m) for m in advance_all(alone, bodies, bodies, sneaking, dead, held)] == [
        _bits(m.advanced(b, b, sneaking=s, dead=d, held=h)) for m, b, s, d, h in zip(alone, bodies, sneaking, dead, held)]


def test_a_player_s_view_motion_is_made_from_its_row_when_read_and_a_motion_set_leaves_the_rows():
    arena = build_arena()
    players = [Player(arena, Body.at_feet(0.5, 0.0, 0.5), name=f"p{k}") for k in range(3)]
    assert Player.view_rows(players) is None  # each holds its own ViewMotion
    motions = [ViewMotion(walked=float(k)) for k in range(3)]
    rows = MotionRows.of(motions)
    Player.set_view_rows(players, rows)
    assert Player.view_rows(players) is rows
    assert [player.view_motion for player in players] == motions
    assert Player.view_rows(players) is rows  # reading makes the value, the rows stay
    assert Player.view_rows(players[::-1]) is None and Player.view_rows(players[:2]) is None
    players[1].view_motion = ViewMotion(walked=7.0)
    assert Player.view_rows(players) is None
    assert players[1].view_motion == ViewMotion(walked=7.0) and players[2].view_motion == motions[2]


class _Floor:
    """A world of one floor at y 63 of drawn blocks (air, grass, a carpet, a fence, water), no edits."""

    def __init__(self, seed: int) -> None:
        self._seed = seed

    def get_block(self, x: int, y: int, z: int) -> str:
        if y > 63:
            return "air"
        return random.Random(hash((self._seed, x, y, z))).choice(["grass", "sand", "air", "fence", "water", "planks"])


def _sound_bodies(rng: random.Random) -> tuple[Body, Body]:
    x, y, z = rng.uniform(-8, 8), rng.choice([64.0, 64.5, 63.2]), rng.uniform(-8, 8)
    step = rng.choice([rng.uniform(0.0, 0.4), 0.0, 12.0])
    angle = rng.uniform(0.0, 2.0 * math.pi)
    before = Body(AABB.around_feet(x, y, z, 0.6, 1.8), (rng.uniform(-0.3, 0.3), rng.uniform(-0.5, 0.2), 0.1),
                  on_ground=rng.random() < 0.7, fall_distance=rng.choice([0.0, 0.0, 0.5, 2.5]),
                  in_water=rng.random() < 0.1)
    after = Body(AABB.around_feet(x + step * math.cos(angle), y, z + step * math.sin(angle), 0.6, 1.8),
                 on_ground=rng.random() < 0.7, fall_distance=rng.choice([0.0, 0.0, 0.3]), in_water=rng.random() < 0.1)
    return before, after


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 10))
def test_many_players_sounds_at_once_are_each_player_s_sounds_one_by_one(seed, count):
    rng = random.Random(seed)
    world = _Floor(seed)
    together = [SoundRules(k) for k in range(count)]
    alone = [SoundRules(k) for k in range(count)]
    for _ in range(40):
        pairs = [_sound_bodies(rng) for _ in range(count)]
        befores, afters = [b for b, _ in pairs], [a for _, a in pairs]
        sneaking, hurt, alive = ([rng.random() < chance for _ in range(count)] for chance in (0.2, 0.1, 0.9))
        expected = [sound for r, b, a, s, h, l in zip(alone, befores, afters, sneaking, hurt, alive)
                    for sound in r.player_sounds(world, b, a, sneaking=s, hurt=h, alive=l)]
        assert SoundRules.players_sounds(together, world, befores, afters, sneaking, hurt, alive) == expected
        assert [(r.walked, r.next_step, r._random.getstate()) for r in together] == [
            (r.walked, r.next_step, r._random.getstate()) for r in alone]


@given(x=st.floats(allow_nan=False, allow_infinity=False), y=st.floats(allow_nan=False, allow_infinity=False),
       z=st.floats(allow_nan=False, allow_infinity=False), name=st.sampled_from(sounds.SOUND_NAMES))
def test_a_step_sound_made_without_checks_is_the_checked_sound(x, y, z, name):
    made = sounds._sound_at(name, (x, y, z), sounds.STEP_VOLUME)
    assert type(made) is SoundEvent
    try:
        checked = SoundEvent(name, (x, y, z), sounds.STEP_VOLUME)
    except ValueError:  # three finite floats whose sum overflows: the checks are made, and agree
        with pytest.raises(ValueError):
            SoundEvent(name, (x, y, z), sounds.STEP_VOLUME)
        return
    assert made == checked and made.position == checked.position


def test_a_step_sound_at_a_position_that_is_not_three_finite_floats_is_refused_as_the_checked_sound_is():
    with pytest.raises(ValueError):
        sounds._sound_at(sounds.LAND, (math.inf, 0.0, 0.0), 1.0)
    assert sounds._sound_at(sounds.LAND, (1, 2, 3), 1.0) == SoundEvent(sounds.LAND, (1, 2, 3), 1.0)


CLEAR_BOX_EDITS = ["stone", "water", "lava", "air", "air", "glass", "sand"]
CLEAR_BOX_CALM_TICKS = 3


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_health_s_clear_box_gives_the_full_rules_through_small_steps_and_edits_near_and_inside_it(seed):
    rng = random.Random(seed)
    arena = build_arena()
    reader = health.ExposureReader()
    # Open air around the start (the arena's nearest block, a fence, is at z = -4), and no edit in the
    # first CLEAR_BOX_CALM_TICKS: the box is made there, so the fast path is always taken some ticks.
    feet = [rng.uniform(0.5, 2.5), float(rng.randint(0, 2)), rng.uniform(-1.5, 2.5)]
    vitals = health.Vitals()
    used = 0
    for tick in range(60):
        feet = [feet[0] + rng.uniform(-0.2, 0.2), feet[1] + rng.choice([0.0, 0.0, 0.0, 0.1, -0.1]),
                feet[2] + rng.uniform(-0.2, 0.2)]
        if tick >= CLEAR_BOX_CALM_TICKS and rng.random() < 0.3:
            cell = (math.floor(feet[0]) + rng.randint(-1, 1), math.floor(feet[1]) + rng.randint(1, 2),
                    math.floor(feet[2]) + rng.randint(-1, 1))
            if arena.can_hold(*cell):
                arena.set_block(*cell, rng.choice(CLEAR_BOX_EDITS))
        body = Body.at_feet(*feet)
        eye = (feet[0], feet[1] + 1.62, feet[2])
        used += reader._clear is not None
        expected = health.advance(vitals, health.exposure_of(body, arena, eye))
        outcome = reader.outcome(vitals, body, arena, eye)
        assert outcome == expected
        vitals = outcome.vitals if not outcome.vitals.dead else health.Vitals()
    assert used  # the clear box was kept, and checked, on some ticks


def test_a_block_placed_inside_health_s_clear_box_is_seen_at_once():
    arena = build_arena()
    reader = health.ExposureReader()
    body, eye = Body.at_feet(0.5, 0.0, 0.5), (0.5, 1.62, 0.5)
    assert reader.outcome(health.Vitals(), body, arena, eye).damage == 0
    assert reader._clear is not None
    arena.set_block(0, 1, 0, "sand")
    assert reader.outcome(health.Vitals(), body, arena, eye).damage == health.SUFFOCATION_DAMAGE


@pytest.mark.parametrize("cell", [(0, 1, 0), (3, -5, 2), (0, 300, 0), (WORLD_BORDER - 1, 5, 0)])
def test_health_reads_a_block_by_id_as_get_block_names_it(cell):
    arena = build_arena()
    arena.set_block(0, 1, 0, "sand")
    from game.world.blocks import block_id
    assert health._id_reader(arena)(*cell) == block_id(arena.get_block(*cell))


def _mob_voices_reference(rules: SoundRules, mobs) -> list[SoundEvent]:
    """The mobs' idle voices as first written (a starred unpacking and `_draw_below` each mob)."""
    made, alive = [], set()
    for key, body, *say in mobs:
        alive.add(key)
        voice = rules._voices.get(key)
        if voice is None:
            voice = rules._voices[key] = sounds._MobVoice(sounds.derived_seed("mob voice", rules.seed, key))
        chance = voice.talk_time
        voice.talk_time += 1
        if sounds._draw_below(voice.random, sounds.MOB_TALK_CHANCE_DENOMINATOR, sounds._TALK_DRAW_BITS) < chance:
            voice.talk_time = -sounds.MOB_TALK_INTERVAL_TICKS
            made.append(SoundEvent(say[0] if say else sounds.MOB_SAY, body.feet, sounds.MOB_VOLUME,
                                   rules._voice_pitch(voice.random)))
    for gone in rules._voices.keys() - alive:
        del rules._voices[gone]
    return made


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_mobs_voices_are_those_of_the_rules_as_first_written_through_mobs_coming_and_going(seed):
    rng = random.Random(seed)
    fast, reference = SoundRules(seed), SoundRules(seed)
    keys = list(range(6))
    for _ in range(200):
        if rng.random() < 0.1:
            keys = sorted(set(keys) ^ {rng.randrange(12)})
        mobs = [(key, Body.at_feet(float(key), 64.0, 0.0)) if key % 3 else (key, Body.at_feet(0.0, 64.0, 0.0), "pig_say")
                for key in keys]
        assert fast.mob_voices(mobs) == _mob_voices_reference(reference, mobs)
