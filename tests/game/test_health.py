"""Health and danger (game.rules.health), headless: the hurt-time rule, each damage source with its exact
values through the session (falls, lava and fire, cactus, drowning, projectiles), regeneration,
death and respawn, peaceful, the saved vitals, the controls in water and on ladders, and a
replay with swimming and a fall played twice."""

from __future__ import annotations

import functools
import json
import math
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from game.rules import health
from game.rules.health import (CACTUS_DAMAGE, DROWNING_DAMAGE, FIRE_DAMAGE, HURT_TICKS, LAVA_DAMAGE, LAVA_FIRE_TICKS,
                         MAX_AIR, MAX_HEALTH, REGEN_INTERVAL_TICKS, Exposure, Hit, Vitals, advance, eye_fluid, hurt)
from game.rules.hotbar import Hotbar
from game.world.blocks import block_id
from game.world.lab import CACTUS_CELLS, LADDER_CELLS, SPAWN_FEET, build_arena
from game.rules.lab_session import lab_session
from game.rules.controls import RESPAWN_KEY
from game.rules.player import EYE_HEIGHT, PlayerStateError, saved_player
from game.rules.replay import Click, KeyDown, KeyUp, Look
from game.rules.session import Session
from physics import Body, Material
from physics.knockback import KNOCKBACK_LIFT, KNOCKBACK_STRENGTH

POOL_BOTTOM = (10.5, -3.0, -1.5)
"""[blocks] Feet on the sand at the bottom of the lab's pool, in a still lane (the eye 1.38 under water)."""
LAVA_PIT = (10.0, -2.0, 10.0)
"""[blocks] Feet on the floor of the lab's lava pit."""
DROP_SPOT = (-0.5, 4.5)
"""(x, z) of open floor in the lab, nothing above it."""
FIRST_DROWNING_TICK = MAX_AIR - health.DROWNING_AIR
"""Air counts down one a tick from MAX_AIR and hits at DROWNING_AIR: the 320th tick under water."""


def session_at(feet: tuple[float, float, float]) -> Session:
    """The lab with the player at rest at `feet`, autosave off."""
    session = lab_session()
    session.autosave = False
    session.player.body = session.player.previous = Body.at_feet(*feet)
    return session


def tick(session: Session, ticks: int = 1) -> None:
    for _ in range(ticks):
        session.tick()


# --- the hurt-time rule ------------------------------------------------------------------------

def test_a_first_hit_counts_in_full_and_sets_twenty_ticks_of_hurt_time():
    vitals, result = hurt(Vitals(), 5)
    assert result is Hit.FULL
    assert (vitals.health, vitals.hurt_ticks, vitals.last_damage) == (15, HURT_TICKS, 5)


def test_while_more_than_ten_ticks_of_hurt_time_remain_only_a_larger_hit_counts_and_only_by_the_difference():
    hurt_once = Vitals(health=15, hurt_ticks=11, last_damage=5)
    assert hurt(hurt_once, 5) == (hurt_once, Hit.IGNORED)
    assert hurt(hurt_once, 2) == (hurt_once, Hit.IGNORED)
    vitals, result = hurt(hurt_once, 8)
    assert result is Hit.TOPPED_UP
    assert (vitals.health, vitals.hurt_ticks, vitals.last_damage) == (12, 11, 8)


def test_with_ten_ticks_of_hurt_time_left_a_hit_counts_in_full_again():
    vitals, result = hurt(Vitals(health=15, hurt_ticks=10, last_damage=5), 2)
    assert result is Hit.FULL
    assert (vitals.health, vitals.hurt_ticks, vitals.last_damage) == (13, HURT_TICKS, 2)


def test_health_stops_at_zero_and_a_dead_player_takes_no_hit():
    dead, _ = hurt(Vitals(health=3), 50)
    assert dead.health == 0 and dead.dead
    assert hurt(dead, 1) == (dead, Hit.IGNORED)


@pytest.mark.parametrize("damage, error", [(-1, ValueError), (1.5, TypeError), (True, TypeError), ("2", TypeError)])
def test_a_hit_that_is_not_a_whole_number_of_half_hearts_is_refused(damage, error):
    with pytest.raises(error):
        hurt(Vitals(), damage)


@pytest.mark.parametrize("field, value", [("health", 21), ("health", -1), ("air", -20), ("fire_ticks", 601),
                                          ("hurt_ticks", 2.0), ("last_damage", True)])
def test_vitals_out_of_range_or_of_the_wrong_type_are_refused(field, value):
    with pytest.raises((TypeError, ValueError), match=field):
        Vitals(**{field: value})


# --- damage sources through the session ---------------------------------------------------------

@pytest.mark.parametrize("height", [3.0, 4.0, 4.5, 6.0, 10.0, 22.5, 30.0])
def test_fall_damage_through_the_session_matches_physics_fall_damage(height):
    session = session_at((DROP_SPOT[0], height, DROP_SPOT[1]))
    body = Body.at_feet(DROP_SPOT[0], height, DROP_SPOT[1])
    arena = build_arena()
    while not body.on_ground:
        body = physics.step(body, arena, physics.Intent(yaw=session.player.input.yaw))
        tick(session)
        assert session.player.body == body
    assert session.player.vitals.health == max(MAX_HEALTH - body.fall_damage, 0)
    assert session.player.damage_taken == min(body.fall_damage, MAX_HEALTH)
    assert session.player.dead == (body.fall_damage >= MAX_HEALTH)


def test_the_drops_above_cover_no_damage_some_damage_and_death():
    # ceil(fall - 3) by physics: a 3-block drop is safe, 4 blocks deal 1, 30 blocks kill.
    results = []
    for height in (3.0, 4.0, 30.0):
        session = session_at((DROP_SPOT[0], height, DROP_SPOT[1]))
        while not session.player.body.on_ground:
            tick(session)
        results.append((session.player.body.fall_damage, session.player.vitals.health))
    assert results[0] == (0, 20) and results[1] == (1, 19) and results[2][1] == 0


def test_lava_deals_four_each_time_the_hurt_time_lets_a_hit_in_and_sets_six_hundred_ticks_of_fire():
    session = session_at(LAVA_PIT)
    seen = []
    for _ in range(21):
        tick(session)
        assert session.player.body.in_lava
        seen.append((session.player.vitals.health, session.player.vitals.fire_ticks))
    # tick 1: 4; tick 11: the fire's 1 counts in full, then the lava's 4 tops it up by 3; tick 21 alike.
    assert seen[0] == (MAX_HEALTH - LAVA_DAMAGE, LAVA_FIRE_TICKS)
    assert [h for h, _ in seen] == [16] * 10 + [12] * 10 + [8]
    assert all(fire == LAVA_FIRE_TICKS for _, fire in seen)


def test_fire_from_lava_burns_one_a_second_after_leaving_it_until_the_player_dies():
    vitals = advance(Vitals(), Exposure(in_lava=True)).vitals
    assert (vitals.health, vitals.fire_ticks) == (16, LAVA_FIRE_TICKS)
    hits = []
    for t in range(1, 400):
        outcome = advance(vitals, Exposure())
        vitals = outcome.vitals
        if outcome.damage:
            hits.append((t, outcome.damage))
        if vitals.dead:
            break
    # Fire 600 (t 1) falls in the lava's hurt time; then fire 580, 560, ...: t 21, 41, ..., 1 each.
    assert hits == [(21 + 20 * n, FIRE_DAMAGE) for n in range(16)]
    assert vitals.dead and vitals.fire_ticks == LAVA_FIRE_TICKS - 321


def test_water_puts_the_fire_out():
    burning = Vitals(health=16, fire_ticks=450)
    outcome = advance(burning, Exposure(in_water=True))
    assert outcome.vitals.fire_ticks == 0 and outcome.damage == 0
    assert advance(burning, Exposure(eye_in_water=True)).vitals.fire_ticks == 0


def test_touching_a_cactus_deals_one_on_contact_and_again_every_ten_ticks():
    (x, _, z), = CACTUS_CELLS[:1]
    session = session_at((x + 2.5, 0.0, z + 0.5))
    session.apply(Look(0, 90.0, 0.0))  # facing -X, at the cactus
    session.apply(KeyDown(0, "w"))
    first = None
    health_by_tick = []
    for t in range(1, 40):
        tick(session)
        if first is None and Material.CACTUS in session.player.body.touching:
            first = t
        health_by_tick.append(session.player.vitals.health)
    assert first is not None
    assert health_by_tick[first - 2] == MAX_HEALTH
    assert health_by_tick[first - 1] == MAX_HEALTH - CACTUS_DAMAGE
    assert health_by_tick[first + 9] == MAX_HEALTH - 2 * CACTUS_DAMAGE
    assert health_by_tick[first + 19] == MAX_HEALTH - 3 * CACTUS_DAMAGE


def test_drowning_first_hits_on_the_320th_tick_under_water_then_every_20_ticks_until_death_on_the_500th():
    session = session_at(POOL_BOTTOM)
    hits = []
    for t in range(1, 520):
        tick(session)
        if t == 1:
            assert session.player.vitals.air == MAX_AIR - 1
        if session.player.damage_taken:
            hits.append((t, session.player.damage_taken, session.player.vitals.air))
    assert hits == [(FIRST_DROWNING_TICK + 20 * n, DROWNING_DAMAGE, 0) for n in range(10)]
    assert hits[-1][0] == 500 and session.player.dead


def test_air_refills_at_once_when_the_eye_leaves_the_water():
    session = session_at(POOL_BOTTOM)
    tick(session, 100)
    assert session.player.vitals.air == MAX_AIR - 100
    session.player.body = Body.at_feet(*SPAWN_FEET)
    tick(session)
    assert session.player.vitals.air == MAX_AIR


@pytest.mark.parametrize("block, eye_above_cell, inside", [
    ("water", 0.99, True), ("water", 0.999999, True), ("water", 1.0, False),
    ("water_7", 0.2, True), ("water_7", 0.25, False),  # level 7: the surface 7/9 below the top
    ("water_8", 0.99, True),  # falling water is full
    ("lava", 0.5, True), ("stone", 0.5, False), ("air", 0.5, False)])
def test_the_eye_is_in_a_fluid_below_its_surface_as_betas_is_inside_of_material(block, eye_above_cell, inside):
    arena = build_arena()
    arena.set_block(0, 5, 0, block)
    expected = Material.LAVA if block == "lava" else Material.WATER
    assert eye_fluid(arena, 0.5, 5 + eye_above_cell, 0.5) == (expected if inside else None)


def test_a_projectile_thrown_straight_up_falls_back_and_knocks_the_player_back_without_damage():
    session = session_at(SPAWN_FEET)
    session.apply(Look(0, 0.0, -90.0))
    session.apply(KeyDown(0, "q"))
    for _ in range(120):
        before = session.player.body
        tick(session)
        if session.player.vitals.hurt_ticks:
            break
    vitals = session.player.vitals
    assert (vitals.health, vitals.hurt_ticks) == (MAX_HEALTH, HURT_TICKS - 1)
    # Straight above: no horizontal direction, so physics' knock-back takes the hit to be 0.01 on +X;
    # the standing body's velocity before the hit is the one it had after every tick on the floor.
    vx, vy, vz = session.player.body.velocity
    assert vx == pytest.approx(-KNOCKBACK_STRENGTH, abs=1e-7) and vz == 0.0
    assert vy == before.velocity[1] / 2.0 + KNOCKBACK_LIFT


def test_a_projectile_hit_knocks_the_player_back_exactly_as_physics_knockback_from_where_it_was():
    session = session_at(SPAWN_FEET)
    player = session.player
    start = player.body
    player.suffer(session.world, [(start.feet[0] + 3.0, start.feet[2] + 4.0)])
    assert player.body == physics.knockback(start, start.feet[0] + 3.0, start.feet[2] + 4.0)
    assert player.vitals.health == MAX_HEALTH
    again = player.body
    player.suffer(session.world, [(0.0, 0.0)])  # within the hurt time a 0-damage hit counts for nothing
    assert player.body == again


# --- regeneration -----------------------------------------------------------------------------------

def test_a_hurt_player_heals_one_every_80_ticks_without_a_hit():
    vitals = Vitals(health=10)
    for _ in range(REGEN_INTERVAL_TICKS - 1):
        vitals = advance(vitals, Exposure()).vitals
    assert vitals.health == 10
    vitals = advance(vitals, Exposure()).vitals
    assert vitals.health == 11 and vitals.regen_ticks == 0


def test_a_hit_that_counts_starts_the_regeneration_count_again():
    vitals = Vitals(health=10, regen_ticks=REGEN_INTERVAL_TICKS - 1)
    vitals = advance(vitals, Exposure(fall_damage=1)).vitals
    assert (vitals.health, vitals.regen_ticks) == (9, 0)


def test_a_player_at_full_health_does_not_bank_regeneration():
    vitals = Vitals()
    for _ in range(3 * REGEN_INTERVAL_TICKS):
        vitals = advance(vitals, Exposure()).vitals
    assert vitals == Vitals()


# --- death and respawn ----------------------------------------------------------------------------

def drowned() -> Session:
    session = session_at(POOL_BOTTOM)
    session.apply(KeyDown(0, "d"))  # held into death: let go then
    tick(session, 500)
    assert session.player.dead
    return session


def test_a_dead_player_ignores_every_input_but_key_releases_and_the_respawn_key():
    session = drowned()
    body, hotbar_slot, thrown = session.player.body, session.hotbar.selected, session.projectiles.thrown
    for event in (KeyDown(500, "w"), KeyDown(500, "space"), Look(500, 90.0, 30.0), Click(500, "left"),
                  Click(500, "right"), KeyDown(500, "q"), KeyDown(500, "m"), KeyDown(500, "5"), KeyDown(500, "f")):
        session.apply(event)
    tick(session, 10)
    assert session.player.dead
    assert session.player.body.feet == body.feet and session.player.input.held == set()
    assert (session.hotbar.selected, session.projectiles.thrown, len(session.mobs)) == (hotbar_slot, thrown, 0)
    assert (session.player.input.yaw, session.player.flying) == (lab_session().player.input.yaw, False)
    assert session.report()["dead"] is True and session.report()["health"] == 0


def test_the_respawn_key_puts_the_player_at_the_spawn_with_full_health_air_no_fire_and_at_rest():
    session = drowned()
    session.player.vitals = replace(session.player.vitals, fire_ticks=300)
    session.apply(KeyDown(session.ticks_run, RESPAWN_KEY))
    player = session.player
    assert not player.dead and player.vitals == Vitals()
    assert player.body == Body.at_feet(*SPAWN_FEET)
    assert player.body.velocity == (0.0, 0.0, 0.0) and player.body.fall_distance == 0.0
    session.apply(KeyDown(session.ticks_run, "w"))  # alive again: inputs are heard
    tick(session)
    assert player.body.feet != Body.at_feet(*SPAWN_FEET).feet


def test_a_new_world_player_respawns_on_the_surface_at_the_worlds_spawn(tmp_path):
    from game.world import World

    with World.create(tmp_path / "w.boxel", 7) as world:
        session = Session.open(world, autosave=False)
        spawn = session.player.body
        session.player.vitals = Vitals(health=0)
        session.player.body = Body.at_feet(spawn.feet[0] + 5.0, spawn.feet[1] + 20.0, spawn.feet[2])
        session.apply(KeyDown(0, RESPAWN_KEY))
        assert session.player.body == spawn and session.player.vitals == Vitals()
        assert (spawn.feet[0], spawn.feet[2]) == (world.spawn[0], world.spawn[2])


def test_a_dead_player_is_not_hit_by_projectiles():
    hit_at, untouched = drowned(), drowned()
    x, _, z = hit_at.player.body.feet
    hit_at.projectiles.throw((x, 10.0, z), 0.0, 90.0)  # straight down onto the head, from high above
    tick(hit_at, 20)
    tick(untouched, 20)
    assert hit_at.player.body == untouched.player.body


# --- peaceful ---------------------------------------------------------------------------------------

def test_with_damage_off_nothing_hurts_the_player():
    session = session_at(LAVA_PIT)
    session.damage_enabled = False
    tick(session, 40)
    assert session.player.vitals.health == MAX_HEALTH
    session = session_at(POOL_BOTTOM)
    session.damage_enabled = False
    tick(session, 600)
    assert session.player.vitals.health == MAX_HEALTH and not session.player.dead
    report = session.report()
    assert report["damage_enabled"] is False and report["air"] < MAX_AIR


def test_damage_enabled_is_on_by_default_and_takes_only_true_or_false():
    session = lab_session()
    assert session.damage_enabled is True
    with pytest.raises(TypeError):
        session.damage_enabled = 0
    assert session.damage_enabled is True


def test_a_fall_with_damage_off_deals_nothing_and_with_it_back_on_the_next_fall_hurts():
    session = session_at((DROP_SPOT[0], 10.0, DROP_SPOT[1]))
    session.damage_enabled = False
    while not session.player.body.on_ground:
        tick(session)
    assert session.player.vitals.health == MAX_HEALTH
    session.damage_enabled = True
    session.player.body = Body.at_feet(DROP_SPOT[0], 10.0, DROP_SPOT[1])
    while not session.player.body.on_ground:
        tick(session)
    assert session.player.vitals.health == MAX_HEALTH - session.player.body.fall_damage < MAX_HEALTH


# --- saving -------------------------------------------------------------------------------------------

def test_the_vitals_and_peaceful_flag_are_saved_with_the_player_and_read_back_exactly():
    session = session_at(LAVA_PIT)
    tick(session, 3)
    session.damage_enabled = False
    session.save()
    state = json.loads(json.dumps(session.world.player_state))
    assert (state["health"], state["fire_ticks"], state["hurt_ticks"], state["damage_enabled"]) == (16, 600, 17, False)
    saved = saved_player(state)
    assert saved.vitals == session.player.vitals and saved.damage_enabled is False
    restored = Session.open(session.world, autosave=False)
    assert restored.player.vitals == session.player.vitals and restored.damage_enabled is False


def test_a_player_saved_before_health_existed_loads_with_full_health_and_damage_on():
    state = lab_session().player.to_state(Hotbar())
    for key in (*health.SAVED_FIELDS, health.DAMAGE_ENABLED_FIELD):
        del state[key]
    saved = saved_player(state)
    assert saved.vitals == Vitals() and saved.damage_enabled is True


@pytest.mark.parametrize("field, value", [
    ("health", float("nan")), ("health", -1), ("health", 21), ("health", 10**30),
    ("health", 20.0), ("health", "20"), ("health", True), ("health", None), ("air", -20), ("air", 301),
    ("fire_ticks", float("inf")), ("fire_ticks", -5), ("hurt_ticks", [20]), ("last_damage", 21),
    ("regen_ticks", REGEN_INTERVAL_TICKS), ("damage_enabled", 1), ("damage_enabled", "false"),
    ("damage_enabled", None)])
def test_hostile_saved_vitals_are_refused_naming_the_field(field, value):
    state = lab_session().player.to_state(Hotbar())
    state[field] = value
    with pytest.raises(PlayerStateError, match=repr(field)):
        saved_player(state)


def test_a_saved_player_with_some_vitals_missing_is_refused_naming_the_missing_one():
    state = lab_session().player.to_state(Hotbar())
    del state["air"]
    with pytest.raises(PlayerStateError, match="'air'"):
        saved_player(state)


def test_a_dead_player_is_saved_dead_and_opens_dead():
    session = drowned()
    session.save()
    restored = Session.open(session.world, autosave=False)
    assert restored.player.dead


# --- controls in water and on ladders ----------------------------------------------------------------

def test_space_held_in_the_pool_swims_up_exactly_as_physics_jump_in_water():
    session = session_at(POOL_BOTTOM)
    session.apply(KeyDown(0, "space"))
    body = Body.at_feet(*POOL_BOTTOM)
    arena = build_arena()
    for _ in range(16):
        tick(session)
        body = physics.step(body, arena, physics.Intent(yaw=session.player.input.yaw, jump=True))
        assert session.player.body == body and body.in_water
    assert session.player.body.feet[1] > POOL_BOTTOM[1] + 1.0  # rising, not jumping once
    assert session.player.body.velocity[1] > 0.05


def test_without_space_the_player_stays_on_the_pool_bottom():
    session = session_at(POOL_BOTTOM)
    tick(session, 12)
    assert session.player.body.feet[1] == POOL_BOTTOM[1]


def ladder_feet() -> tuple[float, float, float]:
    """Feet against the lab's ladder (it lies on the -Z side of its cell, 0.125 thick), 2 up."""
    x, _, z = LADDER_CELLS[0]
    return (x + 0.5, 2.0, z + 0.125 + 0.3)


def test_shift_held_on_a_ladder_holds_the_player_where_it_is():
    session = session_at(ladder_feet())
    session.apply(KeyDown(0, "shift"))
    tick(session, 20)
    assert session.player.body.feet[1] == 2.0


def test_without_shift_the_player_slides_down_the_ladder():
    session = session_at(ladder_feet())
    tick(session, 5)
    assert session.player.body.feet[1] < 2.0 - 0.4


# --- determinism ----------------------------------------------------------------------------------------

SWIM_AND_FALL = [Look(0, 0.0, 10.0), KeyDown(30, "w"), KeyDown(45, "space"), KeyUp(60, "w"), KeyUp(90, "space"),
                 KeyDown(100, "space"), KeyUp(130, "space")]
"""From 8 blocks over the floor north of the pool: fall (damage), walk south into the pool, sink, swim up."""


def swim_and_fall_report() -> dict:
    session = session_at((10.5, 8.0, -4.5))
    session.run(SWIM_AND_FALL, 200)
    return session.report()


def test_a_replay_with_a_fall_and_swimming_gives_the_same_report_twice():
    first, second = swim_and_fall_report(), swim_and_fall_report()
    assert first == second
    assert first["health"] < MAX_HEALTH and not first["dead"]


def test_the_swim_and_fall_replay_falls_and_reaches_the_water():
    session = session_at((10.5, 8.0, -4.5))
    swam = hurt_by_fall = False
    for t in range(200):
        session.run([e for e in SWIM_AND_FALL if e.tick == t], 1)
        swam = swam or session.player.body.in_water
        hurt_by_fall = hurt_by_fall or session.player.body.fall_damage > 0
    assert swam and hurt_by_fall


def test_the_eye_height_used_for_drowning_is_the_players_eye():
    session = session_at(POOL_BOTTOM)
    player = session.player
    assert player.eye[1] == POOL_BOTTOM[1] + EYE_HEIGHT
    assert eye_fluid(session.world, *player.eye) == Material.WATER


@functools.cache
def walled_arena():
    """The lab's arena with a few stone blocks around the origin (read only)."""
    arena = build_arena()
    for cell in ((0, 1, 0), (1, 2, -1), (-1, 0, 1), (0, 3, 1)):
        arena.set_block(*cell, "stone")
    return arena


@settings(max_examples=200, deadline=None)
@given(x=st.floats(-3.0, 3.0), eye_y=st.floats(-1.0, 4.0), z=st.floats(-3.0, 3.0),
       width=st.sampled_from([health.PLAYER_WIDTH, 0.9, 0.3]))
def test_the_wall_test_reads_beta_s_eight_points_exactly(x, eye_y, z, width):
    """`inside_opaque_block` against Beta's loop written out point by point."""
    from physics.floats import f32
    arena = walled_arena()
    points = []
    for i in range(8):
        px = x + f32(f32(f32((i & 1) - 0.5) * f32(width)) * health.WALL_TEST_SPREAD)
        py = eye_y + f32(f32(((i >> 1) & 1) - 0.5) * health.WALL_TEST_HEIGHT)
        pz = z + f32(f32(f32(((i >> 2) & 1) - 0.5) * f32(width)) * health.WALL_TEST_SPREAD)
        points.append((math.floor(px), math.floor(py), math.floor(pz)))
    expected = any(health.NORMAL_CUBE[block_id(arena.get_block(*p))] for p in points)
    assert health.inside_opaque_block(arena, x, eye_y, z, width) == expected
