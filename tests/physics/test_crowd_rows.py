"""A crowd's bodies made from its numpy rows with each slot set straight (`crowd._Rows.to_bodies`)
are exactly those its readable twin makes through `Body._trusted` (`_Rows.to_bodies_readable`)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from physics import AABB, Body
from physics.crowd import _Rows
from physics.materials import Material

FIELDS = ("box", "velocity", "on_ground", "collided_horizontally", "collided_vertically", "camera_lag",
          "fall_distance", "in_water", "in_lava", "in_web", "fall_damage", "touching")


def _body(rng: random.Random) -> Body:
    x, y, z = rng.uniform(-100.0, 100.0), rng.uniform(0.0, 128.0), rng.uniform(-100.0, 100.0)
    box = AABB.around_feet(x, y, z, rng.choice([0.6, 0.98, 0.25]), rng.choice([1.8, 0.98, 0.25]))
    touching = frozenset(rng.sample(list(Material), rng.randint(0, 3)))
    return Body._trusted(box, (rng.uniform(-1.0, 1.0), rng.choice([-0.0784, 0.0, 0.42]), rng.uniform(-1.0, 1.0)),
                         rng.random() < 0.5, rng.random() < 0.3, rng.random() < 0.3, rng.uniform(0.0, 0.5),
                         rng.uniform(0.0, 20.0), rng.random() < 0.2, rng.random() < 0.1, rng.random() < 0.1,
                         rng.randint(0, 10), touching)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(0, 60))
def test_bodies_made_slot_by_slot_from_rows_are_the_bodies_made_through_body_trusted(seed, count):
    rng = random.Random(seed)
    bodies = [_body(rng) for _ in range(count)]
    rows = _Rows.from_bodies(bodies)
    made, readable = rows.to_bodies(), rows.to_bodies_readable()
    assert made == readable == bodies
    for fast, twin in zip(made, readable):
        assert type(fast) is Body and type(fast.box) is AABB
        assert [type(getattr(fast, name)) for name in FIELDS] == [type(getattr(twin, name)) for name in FIELDS]
        assert fast.touching is twin.touching  # one shared set per combination of materials
