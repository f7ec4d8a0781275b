"""Where and when Beta's creatures spawn and despawn (`game.rules.creature_spawning`)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules import creature_spawning as spawning
from game.rules.creature_spawning import (BRIGHTNESS, Despawn, SpawnPlan, Spawner, animal_light_allows, can_see_sky,
                                          column_flags, creature_light, despawn, monster_light_allows,
                                          spawnable_location, world_gen)
from game.rules.creature_kinds import ANIMALS, CREATURE_KINDS, MONSTERS
from game.rules.derived_seeds import derived_seed
from game.world.blocks import block_id
from game.world.java_random import ADDEND, MASK, MULTIPLIER, JavaRandom
from game.world.world import World

SEED = 42
NOON, MIDNIGHT = 6000, 18000
RADIUS = spawning.SPAWN_RADIUS_COLUMNS + 2
"""Columns loaded around the spawn: the eligible ones and those a pack can wander into."""
def NOBODY(box) -> bool:
    """No body anywhere."""
    return False



MONSTERS_CAPPED = {"monster": 999, "creature": 0}
ANIMALS_CAPPED = {"monster": 0, "creature": 999}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """Seed 42 with the columns around its spawn loaded and lit."""
    world = World.create(tmp_path_factory.mktemp("spawning") / "w.boxel", SEED, workers=1)
    for cx in range(-RADIUS, RADIUS + 1):
        for cz in range(-RADIUS, RADIUS + 1):
            world.column(cx, cz)
    world.light(0, 64, 0)
    yield world
    world.close()


def _player(world):
    return [world.spawn]


def _cell(plan: SpawnPlan) -> tuple[int, int, int]:
    return math.floor(plan.feet[0]), int(plan.feet[1]), math.floor(plan.feet[2])


class _Draws:
    """A stand-in random that answers next_int with the values queued, and counts the draws."""

    def __init__(self, *values: int) -> None:
        self.values, self.drawn = list(values), []

    def next_int(self, bound: int) -> int:
        self.drawn.append(bound)
        return self.values.pop(0)


# --- natural spawning on seed 42 --------------------------------------------------------------------

def test_animals_are_planned_on_lit_grass_near_seed_42s_spawn_at_noon(world):
    spawner = Spawner(derived_seed(SEED, "spawning"))
    plans = []
    for _ in range(40):
        plans += spawner.natural(world, _player(world), MONSTERS_CAPPED, NOON, True, NOBODY)
    assert plans and {plan.kind for plan in plans} <= set(ANIMALS)
    for plan in plans:
        x, y, z = _cell(plan)
        assert world.get_block(x, y - 1, z) == "grass"
        assert max(world.light(x, y, z)) > 8
        reach = (spawning.SPAWN_RADIUS_COLUMNS + 1) * 16 + spawning._PACK_REACH  # a pack wanders 20 blocks
        assert max(abs(x), abs(z)) <= reach


def test_monsters_are_planned_in_a_dark_cave_within_a_minute_of_ticks_at_midnight(world):
    spawner = Spawner(derived_seed(SEED, "cave"))
    in_caves = []
    for _ in range(1200):
        plans = spawner.natural(world, _player(world), {"monster": 0}, MIDNIGHT, True, NOBODY, animals_allowed=False)
        in_caves += [plan for plan in plans if world.light(*_cell(plan)) == (0, 0)]
        if in_caves:
            break
    assert in_caves and all(plan.kind in MONSTERS for plan in in_caves)
    x, y, z = _cell(in_caves[0])
    assert not can_see_sky(world, x, y, z)


def test_no_monster_is_planned_when_monsters_are_not_allowed(world):
    spawner = Spawner(7)
    plans = []
    for _ in range(60):
        plans += spawner.natural(world, _player(world), {}, MIDNIGHT, False, NOBODY)
    assert plans and not any(plan.kind in MONSTERS for plan in plans)


def test_a_category_over_its_cap_draws_nothing_but_one_at_its_cap_still_spawns(world):
    caps = {category: cap * 17 * 17 // 256 for category, cap in spawning.CAPS.items()}
    assert caps == {"monster": 79, "creature": 16}
    spawner = Spawner(3)
    before = spawner.random.state
    over = {category: cap + 1 for category, cap in caps.items()}
    assert spawner.natural(world, _player(world), over, MIDNIGHT, True, NOBODY) == []
    assert spawner.random.state == before
    spawner.natural(world, _player(world), caps, MIDNIGHT, True, NOBODY)
    assert spawner.random.state != before  # Beta spawns while count <= cap


def test_nothing_is_planned_within_24_blocks_of_a_player_or_of_the_world_spawn(world):
    players = [(40.5, 70.0, -30.5), (-60.5, 66.0, 50.5)]
    spawner = Spawner(11)
    plans = []
    for _ in range(30):
        plans += spawner.natural(world, players, {}, MIDNIGHT, True, NOBODY)
    assert plans
    spawn = [math.floor(v) for v in world.spawn]
    for plan in plans:
        fx, fy, fz = plan.feet
        for px, py, pz in players:
            assert (px - fx) ** 2 + (py + spawning.PLAYER_POS_Y_OFFSET - fy) ** 2 + (pz - fz) ** 2 >= 24.0 ** 2
        assert (fx - spawn[0]) ** 2 + (fy - spawn[1]) ** 2 + (fz - spawn[2]) ** 2 >= 576.0


def test_no_plan_overlaps_a_body_or_another_plan_of_the_same_tick(world):
    body = spawning.AABB(-200.0, 0.0, -200.0, 200.0, 256.0, 0.0)  # the whole north half is taken
    spawner = Spawner(5)
    plans = []
    for _ in range(30):
        tick = spawner.natural(world, _player(world), {}, MIDNIGHT, True, body.intersects)
        boxes = [spawning._box(plan.kind, *plan.feet) for plan in tick]
        assert not any(a.intersects(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
        plans += tick
    assert plans and all(not spawning._box(plan.kind, *plan.feet).intersects(body) for plan in plans)


def test_the_same_seed_plans_the_same_creatures(world):
    def run(seed):
        spawner = Spawner(seed)
        return [spawner.natural(world, _player(world), {}, day_time, True, NOBODY)
                for day_time in (NOON, MIDNIGHT, MIDNIGHT, NOON)]
    assert run(99) == run(99)
    assert run(99) != run(100)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(-2 ** 63, 2 ** 63 - 1), day_time=st.sampled_from([NOON, 13000, MIDNIGHT]),
       counts=st.sampled_from([{}, MONSTERS_CAPPED, ANIMALS_CAPPED]))
def test_the_fast_draws_give_exactly_the_one_by_one_plans_and_random(world, seed, day_time, counts):
    fast, reference = Spawner(seed), Spawner(seed)
    reference.reference = True
    for _ in range(3):
        assert (fast.natural(world, _player(world), counts, day_time, True, NOBODY)
                == reference.natural(world, _player(world), counts, day_time, True, NOBODY))
        assert fast.random.state == reference.random.state


def test_a_jump_over_draws_java_would_redraw_draws_the_category_again_one_by_one(world, monkeypatch):
    fast, reference = Spawner(8), Spawner(8)
    reference.reference = True
    monkeypatch.setattr(spawning, "_any_redrawn", lambda starts: True)
    for day_time in (NOON, MIDNIGHT):
        assert (fast.natural(world, _player(world), {}, day_time, True, NOBODY)
                == reference.natural(world, _player(world), {}, day_time, True, NOBODY))
        assert fast.random.state == reference.random.state


def test_a_columns_flags_follow_an_edit(world):
    spawner = Spawner(1)
    spawner.natural(world, _player(world), {}, NOON, True, NOBODY)
    key = (3, 3)
    flags = spawner._flags.of(key)
    x, y, z = next((x, y, z) for x in range(48, 64) for z in range(48, 64) for y in range(120, 1, -1)
                   if spawnable_location(world, x, y, z) and world.get_block(x, y + 1, z) == "air")
    assert flags[spawning._flag_index(x, y, z)] & spawning._STAND_FLAG
    world.set_block(x, y + 1, z, "stone")
    try:
        spawner.natural(world, _player(world), {}, NOON, True, NOBODY)
        assert not spawner._flags.of(key)[spawning._flag_index(x, y, z)] & spawning._STAND_FLAG
    finally:
        world.set_block(x, y + 1, z, "air")


# --- the fast paths' twins ----------------------------------------------------------------------------

@given(st.integers(0, MASK))
def test_a_pack_step_drawn_inline_equals_java_randoms_draws(state):
    assert spawning._pack_step(state) == spawning._pack_step_reference(state)


def test_a_pack_step_whose_draw_java_rejects_redraws_as_java_does():
    inverse = pow(MULTIPLIER, -1, 1 << 48)
    rejected = ((1 << 31) - 1) << 17  # next(31) = 2**31 - 1: nextInt(6) must draw again
    state = ((rejected - ADDEND) * inverse) & MASK
    assert (state * MULTIPLIER + ADDEND) & MASK == rejected
    new_state, dx, dz = spawning._pack_step(state)
    assert (new_state, dx, dz) == spawning._pack_step_reference(state)
    plain = state
    for _ in range(6):
        plain = (plain * MULTIPLIER + ADDEND) & MASK
    assert new_state != plain  # it took a seventh draw


@settings(max_examples=60, deadline=None)
@given(cx=st.integers(-3, 3), cz=st.integers(-3, 3), lx=st.integers(0, 15), lz=st.integers(0, 15),
       y=st.integers(0, 127))
def test_a_columns_flags_equal_the_rule_read_cell_by_cell(world, cx, cz, lx, lz, y):
    flags = column_flags(world.column(cx, cz))
    x, z = cx * 16 + lx, cz * 16 + lz
    cell = flags[spawning._flag_index(x, y, z)]
    assert bool(cell & spawning._STAND_FLAG) == spawnable_location(world, x, y, z)
    assert bool(cell & spawning._AIR_FLAG) == (world.get_block(x, y, z) == "air")


# --- the light rules ----------------------------------------------------------------------------------

def test_a_monster_is_refused_when_sky_light_exceeds_the_first_draw():
    draws = _Draws(5)
    assert not monster_light_allows(6, 0, draws)
    assert draws.drawn == [32]  # refused before the second draw
    assert monster_light_allows(5, 0, _Draws(5, 0))


def test_a_monster_is_refused_when_the_light_value_exceeds_the_second_draw():
    assert monster_light_allows(0, 3, _Draws(0, 3))
    assert not monster_light_allows(0, 4, _Draws(0, 3))
    draws = _Draws(31, 7)
    assert monster_light_allows(15, 7, draws) and draws.drawn == [32, 8]


def test_an_animal_needs_more_than_light_8_with_no_night_dimming():
    assert animal_light_allows(9, 0) and animal_light_allows(0, 9)
    assert not animal_light_allows(8, 8)


def test_betas_brightness_table_runs_from_005_to_1_in_float32():
    assert BRIGHTNESS[0] == float(np.float32(0.05))
    assert BRIGHTNESS[15] == 1.0
    dark = np.float32(1.0) - np.float32(11) / np.float32(15)
    assert BRIGHTNESS[11] == float((np.float32(1) - dark) / (dark * np.float32(3) + np.float32(1))
                                   * np.float32(0.95) + np.float32(0.05))
    assert all(a < b for a, b in zip(BRIGHTNESS, BRIGHTNESS[1:]))


def test_a_creature_in_the_open_reads_full_brightness_at_noon_and_dim_at_midnight(world):
    x, z = 5, 5
    y = next(y for y in range(127, 0, -1) if world.get_block(x, y - 1, z) != "air")
    assert can_see_sky(world, x, y, z)
    assert creature_light(world, (x + 0.5, float(y), z + 0.5), 1.8, NOON) == 1.0
    assert creature_light(world, (x + 0.5, float(y), z + 0.5), 1.8, MIDNIGHT) == BRIGHTNESS[4]
    assert not can_see_sky(world, x, 5, z)


class BoxReadsOnly:
    """`world` whose one-cell read (`id_at`) is a one-cell box read (`ids_in_box`)."""

    def __init__(self, world) -> None:
        self._world = world

    def id_at(self, x, y, z):
        return int(self._world.ids_in_box(x, y, z, x + 1, y + 1, z + 1)[0, 0, 0])

    def light(self, x, y, z):
        return self._world.light(x, y, z)


@settings(max_examples=60, deadline=None)
@given(st.floats(-40.0, 40.0), st.integers(1, 127), st.floats(-40.0, 40.0), st.sampled_from([0.0, 0.9, 1.8]),
       st.sampled_from([NOON, MIDNIGHT, 13000]))
def test_a_creatures_brightness_read_through_the_worlds_id_at_is_the_one_read_through_box_reads(
        world, x, y, z, height, day_time):
    feet = (x, float(y), z)
    fast = creature_light(world, feet, height, day_time)
    assert fast == creature_light(BoxReadsOnly(world), feet, height, day_time)
    cell = spawning.light_cell(feet, height)
    assert spawning.cell_brightness(world, cell, spawning.skylight_subtracted(day_time)) == fast
    assert spawning._id(world, *cell) == spawning._id(BoxReadsOnly(world), *cell)


# --- despawning ---------------------------------------------------------------------------------------

def test_a_monster_farther_than_128_from_every_player_despawns():
    players = [(0.0, 64.0, 0.0), (300.0, 64.0, 0.0)]
    assert despawn((172.0, 64.0 + spawning.PLAYER_POS_Y_OFFSET, 0.0), players, 10, JavaRandom(1), False) is Despawn.STAY
    assert despawn((0.0, 64.0, 140.0), players, 10, JavaRandom(1), False) is Despawn.GONE


def test_an_animal_never_despawns_and_draws_nothing():
    random = JavaRandom(1)
    before = random.state
    assert despawn((0.0, 64.0, 500.0), [(0.0, 64.0, 0.0)], 5000, random, True) is Despawn.STAY
    assert random.state == before


def _random_drawing(bits: int) -> JavaRandom:
    """A JavaRandom whose next next(31) is `bits` (so nextInt(800) is bits % 800)."""
    inverse = pow(MULTIPLIER, -1, 1 << 48)
    return JavaRandom.from_state((((bits << 17) - ADDEND) * inverse) & MASK)


def test_an_old_monster_on_its_1_in_800_draw_despawns_beyond_32_else_its_age_restarts():
    near, far, player = (0.0, 65.62, 20.0), (0.0, 65.62, 40.0), [(0.0, 64.0, 0.0)]
    assert _random_drawing(800).next_int(800) == 0 and _random_drawing(801).next_int(800) == 1
    assert despawn(near, player, 601, _random_drawing(800), False) is Despawn.RESET_AGE
    assert despawn(far, player, 601, _random_drawing(0), False) is Despawn.GONE
    assert despawn(far, player, 601, _random_drawing(1), False) is Despawn.STAY
    young = _random_drawing(0)
    before = young.state
    assert despawn(far, player, 600, young, False) is Despawn.STAY and young.state == before
    assert bool(Despawn.GONE) and not Despawn.STAY and not Despawn.RESET_AGE


# --- the animals of a new column ----------------------------------------------------------------------

def test_new_columns_near_seed_42s_spawn_get_animals_on_grass_inside_them(world):
    plans = {}
    for cx in range(-4, 5):
        for cz in range(-4, 5):
            plans[cx, cz] = world_gen(world, (cx, cz), JavaRandom(derived_seed(SEED, "animals", cx, cz)))
    found = [(key, plan) for key, column in plans.items() for plan in column]
    assert found and {plan.kind for _, plan in found} <= set(ANIMALS)
    for (cx, cz), plan in found:
        x, y, z = _cell(plan)
        assert (x >> 4, z >> 4) == (cx, cz)
        assert world.get_block(x, y - 1, z) == "grass" and world.get_block(x, y, z) != "water"
    again = world_gen(world, (1, 1), JavaRandom(derived_seed(SEED, "animals", 1, 1)))
    assert again == plans[1, 1]


def test_sheep_get_betas_fleece_colours_and_nothing_else_does(world):
    plans = [plan for cx in range(-6, 7) for cz in range(-6, 7)
             for plan in world_gen(world, (cx, cz), JavaRandom(cx * 31 + cz))]
    assert all(plan.fleece == 0 for plan in plans if plan.kind != "sheep")
    assert {plan.fleece for plan in plans if plan.kind == "sheep"} <= {0, 6, 7, 8, 12, 15}


# --- bad input ----------------------------------------------------------------------------------------

def test_bad_input_is_refused_with_nothing_drawn(world):
    spawner = Spawner(1)
    before = spawner.random.state
    with pytest.raises(ValueError, match="category"):
        spawner.natural(world, _player(world), {"dragon": 1}, NOON, True, NOBODY)
    with pytest.raises(TypeError, match="players_feet"):
        spawner.natural(world, "here", {}, NOON, True, NOBODY)
    with pytest.raises(TypeError, match="day_time"):
        spawner.natural(world, _player(world), {}, "noon", True, NOBODY)
    with pytest.raises(TypeError, match="occupied"):
        spawner.natural(world, _player(world), {}, NOON, True, None)
    with pytest.raises(TypeError, match="JavaRandom"):
        world_gen(world, (0, 0), 5)
    with pytest.raises(ValueError, match="age_ticks"):
        despawn((0.0, 0.0, 0.0), [], -1, JavaRandom(1), False)
    assert spawner.random.state == before


def test_every_kind_spawning_names_is_a_creature_kind_but_betas_slime():
    listed = {kind for entries in spawning.SPAWN_LISTS.values() for kind, _ in entries}
    assert listed - set(CREATURE_KINDS) == spawning.NEVER_SPAWNED == {"slime"}
    assert block_id("grass") == spawning.GRASS
