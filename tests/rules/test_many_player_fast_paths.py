"""The 100-player tick's second round of fast paths give exactly their readable twins' answers:
health's quiet tick (`health.ExposureReader.outcome` against `health.advance` of `health.exposure_of`)
and an idle player's dig tick (`Mining.tick` against `Mining._tick`), kept dig strengths, and a look
ray's kept selection boxes after edits near and far (`targeting.KeptSelection`'s narrowing), and a view motion
made without the frozen class's checked setting (`view_bobbing._made`)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules import health
from game.rules.mining import Mining, dig_strength
from game.world.blocks import block_id
from game.world.lab import build_arena
from physics import Body



def _known(name: str) -> bool:
    try:
        block_id(name)
    except ValueError:
        return False
    return True


HEAD_BLOCKS = sorted(name for name in ("stone", "water", "lava", "air", "sand", "glass", "flowing_water", "cactus")
                     if _known(name))
"""Blocks put around a player's head and feet (those this game knows)."""


def _vitals(rng: random.Random) -> health.Vitals:
    """Mostly at rest (the quiet tick's case), sometimes hurt, drowning, burning or healing."""
    if rng.random() < 0.6:
        return health.Vitals()
    return health.Vitals(health=rng.randint(1, health.MAX_HEALTH), air=rng.choice([health.MAX_AIR, 5, -19]),
                         fire_ticks=rng.choice([0, 0, 20, 7]), hurt_ticks=rng.choice([0, 0, 15, 4]),
                         last_damage=rng.randint(0, 4), regen_ticks=rng.choice([0, 79, 12]))


def _body(rng: random.Random, feet: list[float]) -> Body:
    body = Body.at_feet(*feet)
    if rng.random() < 0.3:  # what the step met: water, lava, a landing, a cactus
        body = Body._trusted(body.box, body.velocity, body.on_ground, False, False, rng.choice([0.0, 0.2]), 0.0,
                             rng.random() < 0.3, rng.random() < 0.2, False, rng.choice([0, 0, 3]),
                             rng.choice([frozenset(), frozenset({health.Material.CACTUS})]))
    return body


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_quiet_tick_gives_the_outcome_of_the_full_rules_through_random_moves_edits_and_vitals(seed):
    rng = random.Random(seed)
    arena = build_arena()
    reader = health.ExposureReader()
    feet = [rng.uniform(-3.0, 3.0), float(rng.randint(0, 2)), rng.uniform(-3.0, 3.0)]
    for _ in range(40):
        if rng.random() < 0.5:
            feet = [feet[0] + rng.uniform(-0.4, 0.4), feet[1] + rng.choice([0.0, 0.0, -0.3, 0.25]),
                    feet[2] + rng.uniform(-0.4, 0.4)]
        for _ in range(rng.randint(0, 3)):
            cell = (round(feet[0]) + rng.randint(-1, 1), round(feet[1]) + rng.randint(0, 2),
                    round(feet[2]) + rng.randint(-1, 1))
            if arena.can_hold(*cell):
                arena.set_block(*cell, rng.choice(HEAD_BLOCKS))
        body, vitals = _body(rng, feet), _vitals(rng)
        eye = (feet[0], feet[1] + 1.62 - body.camera_lag, feet[2])
        hits = [(rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0))] if rng.random() < 0.1 else []
        enabled = rng.random() < 0.8
        expected = health.advance(vitals, health.exposure_of(body, arena, eye, hits), enabled)
        assert reader.outcome(vitals, body, arena, eye, hits, enabled) == expected


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_diggings_eye_fluid_and_kept_quiet_vitals_give_the_full_rules_answers_through_stays_moves_and_edits(seed):
    rng = random.Random(seed)
    arena = build_arena()
    reader = health.ExposureReader()
    feet = [rng.uniform(-3.0, 3.0), float(rng.randint(0, 2)), rng.uniform(-3.0, 3.0)]
    vitals = health.Vitals()
    for _ in range(60):
        if rng.random() < 0.3:  # most ticks the eye stays in its cells
            feet = [feet[0] + rng.uniform(-0.3, 0.3), feet[1] + rng.choice([0.0, 0.0, -0.3, 0.25]),
                    feet[2] + rng.uniform(-0.3, 0.3)]
        eye = (feet[0], feet[1] + 1.62, feet[2])
        for _ in range(rng.choice([0, 0, 0, 1, 2])):  # an edit near the eye, before digging's read or after
            cell = (round(feet[0]) + rng.randint(-1, 1), round(feet[1]) + rng.randint(0, 2),
                    round(feet[2]) + rng.randint(-1, 1))
            if arena.can_hold(*cell):
                arena.set_block(*cell, rng.choice(HEAD_BLOCKS))
        assert reader.eye_fluid(arena, *eye) == health.eye_fluid(arena, *eye)
        if rng.random() < 0.2:
            vitals = _vitals(rng)
        body = Body.at_feet(*feet)
        expected = health.advance(vitals, health.exposure_of(body, arena, eye), True)
        outcome = reader.outcome(vitals, body, arena, eye)
        assert outcome == expected
        vitals = outcome.vitals  # the same object again next tick, as a player keeps it


def test_a_player_at_rest_that_met_nothing_keeps_the_very_same_vitals():
    arena = build_arena()
    vitals = health.Vitals()
    outcome = health.ExposureReader().outcome(vitals, Body.at_feet(0.5, 0.0, 0.5), arena, (0.5, 1.62, 0.5))
    assert outcome == health.Outcome(vitals) and outcome.vitals is vitals


def test_a_player_at_rest_with_sand_in_the_eye_suffocates_through_the_quiet_tick():
    arena = build_arena()
    arena.set_block(0, 1, 0, "sand")
    outcome = health.ExposureReader().outcome(health.Vitals(), Body.at_feet(0.5, 0.0, 0.5), arena, (0.5, 1.62, 0.5))
    assert outcome.damage == health.SUFFOCATION_DAMAGE


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_an_idle_players_dig_tick_leaves_what_the_full_tick_leaves_through_random_presses(seed):
    rng = random.Random(seed)
    fast, full = Mining(), Mining()
    for _ in range(80):
        action = rng.choice(["press", "release", "swing", "tick", "tick", "tick", "tick"])
        if action == "press":
            cell = rng.choice([None, (0, 0, 0), (1, 0, 0)])
            fast.press(cell)
            full.press(cell)
        elif action == "release":
            fast.release()
            full.release()
        elif action == "swing":
            fast.swing()
            full.swing()
        else:
            target = rng.choice([None, (0, 0, 0), (1, 0, 0)])
            strength = dig_strength(block_id(rng.choice(["dirt", "stone", "sand"])))
            can_act = rng.random() < 0.9
            assert fast.tick(target, strength, can_act=can_act) == full._tick(target, strength, can_act=can_act)
        assert vars(fast) == vars(full)


def test_every_blocks_kept_dig_strength_is_the_worked_out_one_to_the_bit():
    from game.rules.mining import _dig_strength
    from game.world.blocks import HARDNESS

    for block in range(len(HARDNESS)):
        for in_water in (False, True):
            for on_ground in (False, True):
                kept = dig_strength(block, in_water=in_water, on_ground=on_ground)
                worked_out = _dig_strength(block, in_water=in_water, on_ground=on_ground)
                assert type(kept) is type(worked_out) and kept.tobytes() == worked_out.tobytes()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_kept_selection_boxes_are_the_world_s_after_many_edits_near_and_far_between_looks(seed):
    from physics import AABB
    from game.rules.targeting import KeptSelection

    rng = random.Random(seed)
    arena = build_arena()
    kept = KeptSelection()
    shapes = sorted(name for name in ("stone", "air", "stone_slab", "fence", "glass") if _known(name))
    for _ in range(15):
        for _ in range(rng.choice([0, 1, 2, 9, 30])):  # everyone's edits since the last look
            spread = rng.choice([3, 3, 12])
            cell = (rng.randint(-spread, spread), rng.randint(-2, 3), rng.randint(-spread, spread))
            if arena.can_hold(*cell):
                arena.set_block(*cell, rng.choice(shapes))
        for _ in range(3):
            x, y, z = (rng.choice([float(rng.randint(-3, 3)), rng.uniform(-3.0, 3.0)]) for _ in range(3))
            size = [rng.choice([0.0, 0.3, 1.0, 2.5]) for _ in range(3)]
            region = AABB(x, y, z, x + size[0], y + size[1], z + size[2])
            assert kept.view(arena).collision_boxes(region) == list(arena.selection_boxes(region))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_view_motion_made_without_checked_setting_is_the_one_the_constructor_makes(seed):
    from game.rules.view_bobbing import ViewMotion, _made

    rng = random.Random(seed)
    values = [rng.uniform(-2.0, 2.0) for _ in range(12)]
    values[8] = rng.choice([None, "stone", "dirt"])
    made = _made(*values)
    assert type(made) is ViewMotion and made == ViewMotion(*values)
