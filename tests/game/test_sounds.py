"""The rules of the game's sounds (`game.rules.sounds`), played through a headless `Session`: footsteps by
distance walked and by the block underfoot, block edits, landings, splashes, hurts and mob voices."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

import physics
from game.rules import sounds
from game.world.lab import Arena
from game.rules.lab_session import lab_session
from game.rules.player import Player
from game.rules.replay import Click, KeyDown, KeyUp, Look
from game.rules.session import MAX_PENDING_SOUNDS, Session
from game.rules.sounds import SoundEvent, SoundRules
from game.world import blocks

FACING_EAST = 270.0
"""[degrees] Minecraft's yaw facing +X: the walks below go east along z = 0.5."""
FLOOR_Y = -1
"""The floor's layer; the feet stand at y = 0. Mobs never spawn below y = 0, so no mob walks in."""
RESTING_VY = -0.0784000015258789
"""[blocks/tick] A body standing on the ground has this velocity before each move: Beta's gravity and
drag after a move the ground clipped (so a standing body lands again every tick)."""


def floor_session(block: str = "grass", length: int = 40, yaw: float = FACING_EAST, pitch: float = 0.0,
                  feet: tuple[float, float, float] = (0.5, 0.0, 0.5)) -> Session:
    """A session in an empty arena with a strip of `block` (x -2..length, z -3..3) under the player."""
    arena = Arena()
    for x in range(-2, length + 1):
        for z in range(-3, 4):
            arena.set_block(x, FLOOR_Y, z, block)
    start = physics.Body.at_feet(*feet)
    if feet[1] == 0.0:  # standing on the floor: Beta's resting state (gravity's pull, clipped every tick)
        start = dataclasses.replace(start, velocity=(0.0, RESTING_VY, 0.0), on_ground=True)
    player = Player(arena, start, yaw, pitch, spawn=lambda: start)
    return Session(arena, player, autosave=False)


def play(session: Session, ticks: int, events=()) -> list[tuple[int, SoundEvent]]:
    """Run `ticks` ticks applying `events` (at their ticks); every sound made, with the tick that made it."""
    heard = []
    pending = sorted(events, key=lambda event: event.tick)
    for _ in range(ticks):
        tick = session.ticks_run
        while pending and pending[0].tick <= tick:
            session.apply(pending.pop(0))
        session.tick()
        heard += [(tick, sound) for sound in session.take_sounds()]
    return heard


def names(heard) -> list[str]:
    return [sound.name for _, sound in heard]


# --- footsteps ------------------------------------------------------------------------------------


def test_walking_plays_one_step_each_time_six_tenths_of_the_distance_walked_passes_a_whole_number():
    session = floor_session("stone")
    session.apply(KeyDown(0, "w"))
    walked, steps = 0.0, []
    for _ in range(100):
        (x0, _, z0) = session.player.body.feet
        session.tick()
        (x1, _, z1) = session.player.body.feet
        walked += math.hypot(x1 - x0, z1 - z0) * sounds.STEP_DISTANCE_PER_BLOCK
        steps += session.take_sounds()
        assert len(steps) == max(0, math.ceil(walked) - 1)  # one whenever it passed the next whole number
    assert session.player.body.feet[0] > 20.0  # really walked: more than 20 blocks, 12 steps or more
    assert len(steps) >= 12 and {s.name for s in steps} == {"step_stone"}
    assert all(s.volume == sounds.STEP_VOLUME and s.pitch == 1.0 for s in steps)


def test_walking_ten_blocks_on_grass_plays_six_grass_steps_at_the_feet():
    session = floor_session("grass")
    session.apply(KeyDown(0, "w"))
    steps = []
    while session.player.body.feet[0] < 10.5:  # from x = 0.5: ten blocks
        session.tick()
        steps += session.take_sounds()
    assert names([(0, s) for s in steps]) == ["step_grass"] * 6  # 10 blocks x 0.6 = 6 (and a bit)
    for step in steps:
        assert step.position[1] == 0.0 and step.position[2] == 0.5


@pytest.mark.parametrize(("block", "family"), [
    ("stone", "stone"), ("cobblestone", "stone"), ("diamond_ore", "stone"), ("dirt", "grass"), ("grass", "grass"),
    ("planks", "wood"), ("log", "wood"), ("sand", "sand"), ("gravel", "sand"), ("glass", "glass"),
    ("ice", "glass"), ("carpet", "cloth"), ("leaves", "leaves")])
def test_a_walk_on_each_block_plays_its_familys_steps(block, family):
    session = floor_session(block)
    heard = play(session, 40, [KeyDown(0, "w")])
    assert len(heard) >= 3 and set(names(heard)) == {f"step_{family}"}


def test_sneaking_on_the_ground_is_silent_and_its_distance_is_not_counted():
    session = floor_session("planks")
    heard = play(session, 60, [KeyDown(0, "shift"), KeyDown(0, "w")])
    assert session.player.body.feet[0] > 2.0 and heard == []
    assert session.sound_rules.walked == 0.0


def test_standing_still_and_looking_around_plays_nothing():
    session = floor_session("stone")
    assert play(session, 100, [Look(10, 90.0, 0.0), Look(30, 180.0, 20.0)]) == []


def test_a_jump_in_place_lands_with_a_thud_about_as_loud_as_a_step():
    session = floor_session("stone")
    falls = []
    heard = []
    session.apply(KeyDown(0, "space"))
    for tick in range(30):
        if tick == 1:
            session.apply(KeyUp(1, "space"))
        falls.append(session.player.body.fall_distance)
        session.tick()
        heard += [(tick, s) for s in session.take_sounds()]
    assert names(heard) == ["land"]
    landed_tick, land = heard[0]
    fallen = falls[landed_tick]  # the fall distance before the landing tick's move
    assert 1.0 < fallen < 1.3  # a jump rises 1.25 blocks; the landing tick's own drop is not counted
    assert land.volume == fallen * sounds.LANDING_VOLUME_PER_BLOCK
    assert session.player.body.on_ground


# --- block edits ----------------------------------------------------------------------------------


def test_placing_glass_plays_the_glass_place_sound_at_the_cells_centre():
    session = floor_session("stone", pitch=45.0)
    session.apply(KeyDown(0, "7"))  # slot 7 holds glass
    assert session.hotbar.selected_block == "glass"
    heard = play(session, 2, [Click(0, "right")])
    placed = [cell for cell in session.edited_cells]
    assert len(placed) == 1 and session.world.get_block(*placed[0]) == "glass"
    x, y, z = placed[0]
    assert [s for _, s in heard] == [SoundEvent("place_glass", (x + 0.5, y + 0.5, z + 0.5),
                                                sounds.EDIT_VOLUME, sounds.EDIT_PITCH)]


def test_breaking_a_block_plays_its_familys_break_sound_and_a_refused_break_plays_nothing():
    session = floor_session("stone", pitch=45.0)
    session.damage_enabled = False  # peaceful: the click breaks at once (digging's sounds: tests/game/test_mining.py)
    target = session.target().block
    session.world.set_block(*target, "log")
    heard = play(session, 1, [Click(0, "left")])
    assert [s for _, s in heard] == [SoundEvent("break_wood", tuple(c + 0.5 for c in target),
                                                sounds.EDIT_VOLUME, sounds.EDIT_PITCH)]
    session.world.set_block(*target, "bedrock")  # unbreakable
    assert play(session, 1, [Click(session.ticks_run, "left")]) == []


# --- falls, water, hurt ----------------------------------------------------------------------------


def test_a_fall_of_six_blocks_lands_with_a_thud_at_three_quarters_volume_and_hurts_the_player():
    session = floor_session("stone", feet=(0.5, 6.0, 0.5))
    falls, heard = [], []
    for tick in range(40):
        falls.append(session.player.body.fall_distance)
        session.tick()
        heard += [(tick, s) for s in session.take_sounds()]
    assert names(heard) == ["land", "player_hurt"]
    (landed_tick, land), (hurt_tick, _) = heard
    assert hurt_tick == landed_tick and session.player.vitals.health < 20
    assert 5.5 < falls[landed_tick] <= 6.0
    assert land.volume == falls[landed_tick] * sounds.LANDING_VOLUME_PER_BLOCK
    assert land.position == session.player.body.feet


def test_stepping_down_one_block_makes_no_landing():
    session = floor_session("stone", feet=(0.5, 1.0, 0.5))
    for z in range(-3, 4):
        session.world.set_block(0, 0, z, "stone")  # a one-block ledge under the start
    heard = play(session, 30, [KeyDown(0, "w")])
    assert session.player.body.feet[1] == 0.0
    assert "land" not in names(heard)


def test_jumping_into_the_labs_pool_splashes_with_betas_volume():
    session = lab_session()
    player = session.player
    player.body = player.previous = physics.Body.at_feet(10.5, 2.0, 0.0)  # above the pool's middle
    velocities = []
    heard = []
    for tick in range(30):
        velocities.append((player.body.velocity, player.body.in_water))
        session.tick()
        heard += [(tick, s) for s in session.take_sounds() if s.name == "splash"]
    assert len(heard) == 1
    tick, splash = heard[0]
    vx, vy, vz = velocities[tick][0]
    assert splash.volume == min(1.0, math.sqrt(vx * vx * 0.2 + vy * vy + vz * vz * 0.2) * 0.2) > 0.0
    assert 1.0 - sounds.SPLASH_PITCH_SPREAD < splash.pitch < 1.0 + sounds.SPLASH_PITCH_SPREAD


def test_swimming_across_the_pool_plays_swim_strokes_instead_of_steps():
    session = lab_session()
    player = session.player
    player.body = player.previous = physics.Body.at_feet(8.5, -2.0, 0.5)  # in the pool, at its west side
    player.input.look_at(FACING_EAST, 0.0)
    heard = play(session, 60, [KeyDown(0, "w")])
    strokes = [s for s in names(heard) if s in ("swim", "step_sand", "step_grass")]
    assert strokes and set(strokes) == {"swim"}


# --- mobs ------------------------------------------------------------------------------------------------


def test_a_mob_speaks_at_random_but_never_twice_within_its_talk_interval():
    session = floor_session("stone", length=10)
    session.mobs.spawn((4.5, 0.0, 0.5))
    heard = play(session, 2000)
    said = [tick for tick, s in heard if s.name == "mob_say"]
    assert len(said) >= 5  # about one every 8 s: 100 s of play
    assert all(b - a > sounds.MOB_TALK_INTERVAL_TICKS for a, b in zip(said, said[1:]))
    again = floor_session("stone", length=10)
    again.mobs.spawn((4.5, 0.0, 0.5))
    assert [tick for tick, s in play(again, 2000) if s.name == "mob_say"] == said  # seeded: a replay says the same


def test_punching_a_mob_plays_its_hurt_sound_where_it_stands():
    session = floor_session("stone", length=10)
    session.mobs.spawn((2.5, 0.0, 0.5))
    mob = session.mobs.bodies[0]
    heard = play(session, 1, [Look(0, FACING_EAST, 20.0), Click(0, "left")])
    hurts = [s for _, s in heard if s.name == "mob_hurt"]
    assert len(hurts) == 1 and hurts[0].position == mob.feet


# --- the values and the session's list -----------------------------------------------------------------


def test_every_block_but_air_and_fluids_has_a_sound_family():
    for block, spec in enumerate(blocks.SPECS):
        family = sounds.family_of(block)
        if spec.name == "air" or spec.fluid_level >= 0:
            assert family is None, spec.name
        else:
            assert family in sounds.FAMILIES, spec.name


@pytest.mark.parametrize("bad", [-1, blocks.COUNT, 1.0, True, "stone"])
def test_an_unknown_block_id_has_no_family_but_an_error(bad):
    with pytest.raises(ValueError):
        sounds.family_of(bad)


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"name": "boom"}, ValueError), ({"position": (0.0, float("nan"), 0.0)}, ValueError),
    ({"position": (0.0, 0.0)}, TypeError), ({"volume": -0.1}, ValueError), ({"pitch": 0.0}, ValueError),
    ({"volume": float("inf")}, ValueError), ({"volume": "loud"}, ValueError)])
def test_a_sound_event_with_a_bad_value_is_refused(kwargs, error):
    values = {"name": "land", "position": (0.0, 0.0, 0.0), "volume": 1.0, "pitch": 1.0, **kwargs}
    with pytest.raises(error):
        SoundEvent(**values)


def test_sound_rules_need_an_int_seed():
    with pytest.raises(TypeError):
        SoundRules(1.5)


def test_a_headless_session_that_never_takes_its_sounds_keeps_only_the_latest():
    session = floor_session("stone", length=60)
    session.apply(KeyDown(0, "w"))
    for _ in range(40):
        session.tick()
    made = len(session.sounds)
    assert 0 < made < MAX_PENDING_SOUNDS
    session.sounds.extend([SoundEvent("land", (0.0, 0.0, 0.0))] * MAX_PENDING_SOUNDS)
    assert len(session.sounds) == MAX_PENDING_SOUNDS
    assert len(session.take_sounds()) == MAX_PENDING_SOUNDS and session.take_sounds() == []


@pytest.mark.parametrize("n", [1, 2, 3, 999, sounds.MOB_TALK_CHANCE_DENOMINATOR, 1024, 1025])
def test_a_mobs_idle_draw_is_the_draw_randrange_makes_from_the_same_stream(n):
    ours, theirs = random.Random(n), random.Random(n)
    assert [sounds._draw_below(ours, n, n.bit_length()) for _ in range(2000)] == [theirs.randrange(n)
                                                                                   for _ in range(2000)]
    assert ours.getstate() == theirs.getstate()
