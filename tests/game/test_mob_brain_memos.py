"""A brain remembers what it read under and ahead of its probe (the drop below, the fluids ahead)
while none of those cells changed; remembered answers are exactly the answers read afresh, however
the world is edited between ticks, near the mob and far from it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules import mob_brain
from game.rules.mob_brain import BOXLING, MobBrain, _drop_below, _look_for_fluids, _probe_ahead
from game.world.lab import build_arena
from physics import Body

EDITS = ["stone", "water", "lava", "air", "stone_slab", "fence", "glass"]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_remembered_drops_and_fluid_looks_are_the_answers_read_afresh_through_edits_near_and_far(seed):
    rng = random.Random(seed)
    arena = build_arena()
    brain = MobBrain(BOXLING, seed=1)
    last_scan: tuple = ()
    feet = [rng.uniform(-4.0, 4.0), float(rng.randint(0, 3)), rng.uniform(-4.0, 4.0)]
    yaw = rng.uniform(0.0, 360.0)
    for _ in range(40):
        if rng.random() < 0.3:  # the mob walks on a little, or turns, now and then
            feet[0] += rng.uniform(-0.3, 0.3)
            feet[2] += rng.uniform(-0.3, 0.3)
            yaw = rng.uniform(0.0, 360.0) if rng.random() < 0.3 else yaw
        for _ in range(rng.randint(0, 3)):  # edits near the probe, and far from it
            spread = rng.choice([3, 30])
            x, y, z = (round(feet[0]) + rng.randint(-spread, spread), rng.randint(-4, 3),
                       round(feet[2]) + rng.randint(-spread, spread))
            if arena.can_hold(x, y, z):
                arena.set_block(x, y, z, rng.choice(EDITS))
        body = Body.at_feet(*feet, BOXLING.width, BOXLING.height)
        probe = _probe_ahead(body, yaw)
        assert brain._drop_below(arena, probe, body.box.min_y) == _drop_below(arena, probe, body.box.min_y)
        for avoid_lava, avoid_water in ((True, True), (True, False), (False, True)):
            remembered = _look_for_fluids(arena, body.box, probe, avoid_lava, avoid_water, last_scan)
            fresh = _look_for_fluids(arena, body.box, probe, avoid_lava, avoid_water)
            assert remembered[:2] == fresh[:2]
            last_scan = remembered


def test_a_remembered_drop_is_read_again_only_after_an_edit_among_its_cells(monkeypatch):
    arena = build_arena()
    brain = MobBrain(BOXLING, seed=1)
    body = Body.at_feet(0.5, 0.0, 0.5, BOXLING.width, BOXLING.height)
    probe = _probe_ahead(body, 0.0)
    reads = []
    boxes = type(arena).collision_boxes
    monkeypatch.setattr(type(arena), "collision_boxes", lambda self, region: reads.append(region) or boxes(self, region))
    first = brain._drop_below(arena, probe, body.box.min_y)
    arena.set_block(30, 0, 30, "stone")  # far away
    assert brain._drop_below(arena, probe, body.box.min_y) == first and len(reads) == 1
    cx, _, cz = probe.center
    arena.set_block(int(cx // 1), -1, int(cz // 1), "air")  # the ground under the probe
    assert brain._drop_below(arena, probe, body.box.min_y) == _drop_below(arena, probe, body.box.min_y)
    assert len(reads) == 3  # read again (and once more by the readable twin)
    assert mob_brain.unchanged_since(arena, None, arena.revision, 0, 0, 0, 0, 0, 0) is False
