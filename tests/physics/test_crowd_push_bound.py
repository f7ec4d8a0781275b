"""The push bound on the vectorised path: bodies pressed round a standing one, whose pushes reach
`push.MAX_PUSH_SPEED` on most ticks, move to the bit as on the one-by-one path, with the bound
applied on arrays (`crowd_vector.bounded_in_order`) rather than by finishing the tick one by one."""

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st
import numpy as np

from physics import Body, CrowdSettings, Intent, crowd_vector
from physics.crowd import Crowd
from physics.push import MAX_PUSH_SPEED, bounded

from .test_crowd import assert_identical, record_calls
from .worlds import floor, standing

CENTRE = (0.5, 0.5)
"""(x, z) of the body the others press round."""


def towards(x: float, z: float, tx: float, tz: float) -> float:
    """[degrees] Beta's yaw that walks from (x, z) toward (tx, tz) (as a creature brain faces)."""
    return math.degrees(math.atan2(tz - z, tx - x)) - 90.0


def pressing_crowds(count: int, seed: int, limit: float | None = MAX_PUSH_SPEED, sizes=((0.6, 1.8),),
                    tuning: CrowdSettings = CrowdSettings()) -> tuple[Crowd, Crowd]:
    """Two equal crowds (vectorised, one by one) on a floor: a standing body at CENTRE, then
    `count` bodies in a ring 1.5 to 6 blocks out, of the (width, height) `sizes`."""
    grid = floor()
    rng = random.Random(seed)
    bodies = [standing(grid, *CENTRE)]
    while len(bodies) <= count:
        angle, distance = rng.uniform(0.0, 2.0 * math.pi), rng.uniform(1.5, 6.0)
        width, height = rng.choice(sizes)
        body = Body.at_feet(CENTRE[0] + distance * math.cos(angle), 64.0, CENTRE[1] + distance * math.sin(angle),
                            width, height)
        if body not in bodies:
            bodies.append(body)
    crowds = Crowd(grid, vectorised=True, tuning=tuning, max_push_speed=limit), Crowd(grid, vectorised=False,
                                                                                       max_push_speed=limit)
    for crowd in crowds:
        for body in bodies:
            crowd.add(body)
    return crowds


def pressing_intents(bodies, rng: random.Random, traits: bool = False) -> list[Intent]:
    """The first body stands; the others walk at it (with `traits`, some climb walls or fall slowly,
    as spiders and chickens do, and some jump)."""
    intents = [Intent()]
    for body in bodies[1:]:
        x, _, z = body.feet
        climbs, slow = (rng.random() < 0.3, rng.random() < 0.2) if traits else (False, False)
        intents.append(Intent(forward=1.0, yaw=towards(x, z, *CENTRE), jump=traits and rng.random() < 0.05,
                              climbs_walls=climbs, slow_fall=slow))
    return intents


def one_at_a_time(change, body, limit, keys=()):
    """`bounded_in_order`'s definition: each body's entries sorted by `keys`, bounded one by one."""
    applied = list(change)
    taken = {}
    order = sorted(range(len(change)), key=lambda k: (body[k], *(key[k] for key in keys)))
    for k in order:
        applied[k], taken[body[k]] = bounded(taken.get(body[k], 0.0), change[k], limit)
    return applied


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.floats(-0.06, 0.06), st.integers(0, 2), st.integers(0, 9)),
                max_size=60),
       st.sampled_from([None, 0.0, 0.05, 0.1, MAX_PUSH_SPEED]), st.booleans())
def test_bounding_changes_in_order_equals_bounding_each_body_one_change_at_a_time(entries, limit, keyed):
    body = np.array([e[0] for e in entries], dtype=np.int64)
    change = np.array([e[1] for e in entries])
    keys = (np.array([e[2] for e in entries]), np.array([e[3] for e in entries])) if keyed else ()
    if not keyed:  # entries given in order: grouped by body
        order = np.argsort(body, kind="stable")
        body, change = body[order], change[order]
    got = crowd_vector.bounded_in_order(change, body, limit, 6, keys)
    expected = one_at_a_time(change.tolist(), body.tolist(), limit, tuple(k.tolist() for k in keys))
    assert [v.hex() for v in got.tolist()] == [v.hex() for v in expected]


def test_bodies_pressed_round_a_standing_body_move_as_one_by_one_and_the_bound_is_applied_on_arrays(monkeypatch):
    finishes, bounds = [], []
    monkeypatch.setattr(crowd_vector.VectorTick, "_finish_one_by_one",
                        record_calls(crowd_vector.VectorTick._finish_one_by_one, finishes))
    vectorised, one_by_one = pressing_crowds(60, seed=7)
    _, unbounded = pressing_crowds(60, seed=7, limit=None)
    rng = random.Random(7)
    for _ in range(60):
        intents = pressing_intents(one_by_one.bodies, rng)
        vectorised.step(intents)
        one_by_one.step(intents)
        unbounded.step(intents)
        assert_identical(vectorised.bodies, one_by_one.bodies)
        bounds.append(vectorised.bodies != unbounded.bodies)
    assert sum(bounds) > 30  # the bound binds on most ticks (the bodies differ from Beta's unbounded pushes)
    assert finishes == []  # and no tick finished one by one for it


@settings(max_examples=30, deadline=None)
@given(st.integers(8, 70), st.integers(0, 10 ** 6), st.sampled_from([0.02, 0.08, MAX_PUSH_SPEED]),
       st.sampled_from([1, 6]), st.integers(5, 25))
def test_the_vectorised_path_equals_the_one_by_one_path_in_crowds_pressing_round_a_body_where_the_bound_binds(
        count, seed, limit, min_vector_bodies, ticks):
    sizes = ((0.6, 1.8), (1.4, 0.9), (0.4, 0.7), (0.9, 1.4))  # zombies, spiders, chickens, cows
    vectorised, one_by_one = pressing_crowds(count, seed, limit, sizes, CrowdSettings(min_vector_bodies=min_vector_bodies))
    rng = random.Random(seed)
    for _ in range(ticks):
        intents = pressing_intents(one_by_one.bodies, rng, traits=True)
        vectorised.step(intents)
        one_by_one.step(intents)
        assert_identical(vectorised.bodies, one_by_one.bodies)
