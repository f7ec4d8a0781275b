"""The creature tick's fast paths against their readable forms: `creature_brain.new_intent` against
`physics.Intent`, the remembered body cells of `pathfinding.path_query` and widths of `Path.position`
against Beta's float32 formulas, `Sighted`'s kept feet and eye against its body's, and `mobs.pushes_by`
against `push_pairs` of the push regions it no longer makes."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules.creature_brain import PLAYER_EYE_HEIGHT, Sighted, new_intent
from game.rules.pathfinding import Path, path_query
from physics import AABB, Body, Intent

FIELDS = ("forward", "strafe", "yaw", "jump", "sneak", "sprint", "fly", "climbs_walls", "slow_fall")
value = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([-0.0, 0.0, 1e6, -1e6, 1e6 + 1]),
                  st.integers(-3, 3), st.just(True))
flag = st.one_of(st.booleans(), st.sampled_from([0, 1, None]))


def _made(make):
    try:
        return make()
    except (TypeError, ValueError) as error:
        return type(error)


@settings(max_examples=400, deadline=None)
@given(forward=value, strafe=value, yaw=value, jump=flag, climbs=flag, slow=flag)
def test_a_brains_intent_is_the_intent_physics_makes_or_the_same_refusal(forward, strafe, yaw, jump, climbs, slow):
    fast = _made(lambda: new_intent(forward, strafe, yaw, jump, climbs, slow))
    readable = _made(lambda: Intent(forward=forward, strafe=strafe, yaw=yaw, jump=jump, climbs_walls=climbs,
                                    slow_fall=slow))
    if isinstance(readable, Intent):
        assert isinstance(fast, Intent)
        for name in FIELDS:  # the same objects: signed zeros and types kept
            assert getattr(fast, name).__class__ is getattr(readable, name).__class__
            assert repr(getattr(fast, name)) == repr(getattr(readable, name))
        assert fast == readable
    else:
        assert fast is readable


def test_a_brains_intent_refuses_a_nan_forward_as_physics_does():
    with pytest.raises(ValueError):
        new_intent(math.nan, 0.0, 0.0, False, False, False)


def _beta_query(box: AABB, target, max_distance: float):
    """`createEntityPathTo`'s size, start, goal and range, worked out afresh in float32 (the readable form)."""
    width = np.float32(round(box.max_x - box.min_x, 6))
    height = np.float32(round(box.max_y - box.min_y, 6))
    across = int(math.floor(width + np.float32(1.0)))
    size = (across, int(math.floor(height + np.float32(1.0))), across)
    half = float(width / np.float32(2.0))
    goal = (math.floor(target[0] - half), math.floor(target[1]), math.floor(target[2] - half))
    start = (math.floor(box.min_x), math.floor(box.min_y), math.floor(box.min_z))
    return size, start, goal, float(np.float32(max_distance))


coordinate = st.floats(-300.0, 300.0, allow_nan=False)
extent = st.sampled_from([0.6000000238418579, 1.399999976158142, 0.8999999761581421, 0.30000001192092896, 1.8, 0.9,
                          0.5, 1.0, 2.0, 0.25])


@settings(max_examples=300, deadline=None)
@given(x=coordinate, y=coordinate, z=coordinate, width=extent, height=extent,
       target=st.tuples(coordinate, coordinate, coordinate), distance=st.sampled_from([16.0, 10.0, 16, 3.3, 40.5]))
def test_a_path_query_asked_twice_gives_beta_s_float32_cells_both_times(x, y, z, width, height, target, distance):
    box = AABB.around_feet(x, y, z, width, height)
    for _ in range(2):  # the second answer comes from the remembered cells
        query = path_query(box, target, distance)
        assert (query.size, query.start, query.goal, query.max_distance) == _beta_query(box, target, distance)
        assert type(query.max_distance) is float


@given(width=st.floats(0.01, 8.0), index=st.integers(0, 2))
def test_a_paths_positions_are_beta_s_for_any_width_asked_again_and_again(width, index):
    path = Path(((1, 64, -3), (2, 64, -3), (2, 65, -2)))
    x, y, z = path.points[index]
    half = int(np.float32(width) + np.float32(1.0)) * 0.5
    assert path.position(index, width) == path.position(index, width) == (x + half, float(y), z + half)


@given(x=coordinate, y=coordinate, z=coordinate)
def test_a_sighted_player_keeps_its_bodys_feet_and_its_eye_above_them(x, y, z):
    body = Body.at_feet(x, y, z)
    sighted = Sighted(1, body)
    fx, fy, fz = body.feet
    assert sighted.feet == body.feet
    assert sighted.eye == (fx, fy + PLAYER_EYE_HEIGHT, fz)
    assert sighted == Sighted(1, body)


def test_a_kinds_derived_traits_are_made_once_from_its_category_and_name():
    from game.rules.creature_kinds import CREATURE_KINDS, MONSTER, CreatureKind

    made = CreatureKind("ghast", MONSTER, 4.0, 4.0, 10, 0.7)
    for kind in (*CREATURE_KINDS.values(), made):
        assert kind.hostile == (kind.category == MONSTER)
        assert (kind.say_sound, kind.hurt_sound, kind.death_sound) == (
            f"{kind.name}_say", f"{kind.name}_hurt", f"{kind.name}_death")
    assert made == CreatureKind("ghast", MONSTER, 4.0, 4.0, 10, 0.7) and "say_sound" not in repr(made)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), pushers=st.integers(1, 160), pushed=st.integers(1, 4))
def test_who_pushes_whom_from_boxes_is_push_pairs_of_their_push_regions(seed, pushers, pushed):
    from game.rules.mobs import push_pairs, pushes_by
    from physics.push import PUSH_REACH, push_region

    rng = random.Random(seed)
    span = rng.choice([1.0, 3.0, 10.0])

    def box():  # on a grid of the push reach now and then, where grown faces meet exactly
        if rng.random() < 0.4:
            x, z = rng.randint(-8, 8) * PUSH_REACH, rng.randint(-8, 8) * PUSH_REACH
        else:
            x, z = rng.uniform(-span, span), rng.uniform(-span, span)
        y, width = rng.choice([0.0, -0.0, 0.5, rng.uniform(-1.0, 1.0)]), rng.choice([0.6, 0.9, 1.4])
        return AABB(x, y, z, x + width, y + rng.choice([0.7, 1.8]), z + width)

    movers, others = [box() for _ in range(pushers)], [box() for _ in range(pushed)]
    assert pushes_by(movers, others) == push_pairs([push_region(b) for b in movers], others)
    assert pushes_by(others, movers) == push_pairs([push_region(b) for b in others], movers)
