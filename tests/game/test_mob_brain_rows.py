"""Many boxlings thinking in one pass (`mob_brain_rows.think_all`) give exactly the intents and the
brain states of each brain thinking alone (`MobBrain.think`, the readable twin), tick after tick,
as they walk the lab's pool, lava pit, fences, slabs and stairs and a generated world's ground, while
blocks change around them."""

from __future__ import annotations

import random

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from game.rules import mob_brain_rows
from game.rules.mob_brain import BOXLING, MobBrain
from game.rules.mob_brain_rows import BRAIN_ROWS_FROM, think_all
from game.world import World
from game.world.lab import build_arena
from physics import Body
from physics.broad_phase import WorldCache

EDITS = ["stone", "water", "lava", "air", "stone_slab", "fence", "glass", "air", "air"]
MOBS = 24
PASS_FROM = 8
"""[brains] The equivalence tests lower `BRAIN_ROWS_FROM` to this, so a few dozen mobs think together."""


class Reader:
    """Who the brains say they are to the cache (`WorldCache.use` keeps weak references)."""


def play_both_ways(world, feet: list[tuple[float, float, float]], rng: random.Random, ticks: int,
                   can_hold, monkeypatch) -> int:
    """Step the same mobs with brains thinking together and with their twins thinking alone,
    asserting at every tick that both give the same intents and end in the same states; a few
    random edits around the mobs between ticks. Returns how many ticks thought together."""
    together = [MobBrain(BOXLING, seed=rng.randrange(2**32), yaw=rng.uniform(0.0, 360.0)) for _ in feet]
    alone = [MobBrain.from_state(brain.to_state()) for brain in together]
    for brain in together + alone:
        brain.ticks_left = rng.randint(1, 10)  # walking soon
    for brain, twin in zip(together, alone):
        twin.ticks_left = brain.ticks_left
    bodies = [Body.at_feet(*at, BOXLING.width, BOXLING.height) for at in feet]
    cache, reader = WorldCache(world), Reader()
    monkeypatch.setattr(mob_brain_rows, "BRAIN_ROWS_FROM", PASS_FROM)
    passes = []
    walk_all = mob_brain_rows._walk_all
    monkeypatch.setattr(mob_brain_rows, "_walk_all", lambda *args: passes.append(1) or walk_all(*args))
    for _ in range(ticks):
        intents = think_all(together, bodies, world, cache, user=reader)
        twins = [brain.think(body, world) for brain, body in zip(alone, bodies)]
        assert [repr(intent) for intent in intents] == [repr(intent) for intent in twins]
        assert [brain.to_state() for brain in together] == [brain.to_state() for brain in alone]
        bodies = [physics.step(body, world, intent) for body, intent in zip(bodies, intents)]
        for _ in range(rng.choice([0, 0, 1, 4])):
            x, y, z = bodies[rng.randrange(len(bodies))].feet
            cell = (int(x // 1) + rng.randint(-2, 2), int(y // 1) + rng.randint(-5, 1), int(z // 1) + rng.randint(-2, 2))
            if can_hold(*cell):
                world.set_block(*cell, rng.choice(EDITS))
    return len(passes)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_boxlings_thinking_together_in_the_lab_think_as_each_alone(seed):
    rng = random.Random(seed)
    arena = build_arena()
    feet = [(rng.uniform(-13.0, 13.0), 0.0, rng.uniform(-13.0, 13.0)) for _ in range(MOBS)]
    with pytest.MonkeyPatch.context() as patch:
        passes = play_both_ways(arena, feet, rng, 120, arena.can_hold, patch)
    assert passes > 0  # the pass on arrays ran (the test would be vacuous otherwise)


def test_boxlings_thinking_together_on_generated_ground_think_as_each_alone(tmp_path, monkeypatch):
    rng = random.Random(5)
    with World.create(tmp_path / "world.boxel", seed=42, workers=1) as world:
        sx, sy, sz = world.spawn
        for x in range(int(sx) + 3, int(sx) + 6):  # a pool two deep and a lava cell beside the mobs
            for z in range(int(sz) - 1, int(sz) + 2):
                world.set_block(x, int(sy) - 1, z, "water")
                world.set_block(x, int(sy) - 2, z, "water")
        world.set_block(int(sx) - 3, int(sy) - 1, int(sz), "lava")
        feet = [(sx + rng.uniform(-6.0, 6.0), sy + 1.0, sz + rng.uniform(-6.0, 6.0)) for _ in range(MOBS)]
        passes = play_both_ways(world, feet, rng, 150, lambda x, y, z: 0 <= y < 256, monkeypatch)
    assert passes > 0


def test_too_few_boxlings_think_one_by_one(monkeypatch):
    arena = build_arena()
    monkeypatch.setattr(mob_brain_rows, "_walk_all", lambda *args: (_ for _ in ()).throw(AssertionError("a pass")))
    brains = [MobBrain(BOXLING, seed=k) for k in range(BRAIN_ROWS_FROM - 1)]
    for brain in brains:
        brain.ticks_left = 1
    bodies = [Body.at_feet(float(k - 7), 0.0, 0.5, BOXLING.width, BOXLING.height) for k in range(len(brains))]
    assert len(think_all(brains, bodies, arena, WorldCache(arena))) == len(brains)


def test_boxlings_beyond_the_cache_s_keyed_cells_think_as_each_alone(monkeypatch):
    from physics import BlockGrid, Material, shapes
    from physics.broad_phase import KEYED_XZ

    grid, rng = BlockGrid(), random.Random(9)
    x0 = KEYED_XZ - 6  # the mobs walk across the last keyed cell
    grid.fill(x0 - 8, -1, -8, x0 + 8, -1, 8)
    for x, z in ((x0 + 2, 0), (x0 + 2, 1), (x0 - 3, -2)):
        grid.set(x, -1, z, shapes.EMPTY, material=Material.WATER)
        grid.set(x, -2, z, shapes.EMPTY, material=Material.WATER)
    grid.set(x0, -1, 3, shapes.EMPTY, material=Material.LAVA)
    feet = [(x0 + rng.uniform(-6.0, 6.0), 0.0, rng.uniform(-6.0, 6.0)) for _ in range(MOBS)]
    assert play_both_ways(grid, feet, rng, 100, lambda x, y, z: False, monkeypatch) > 0


def test_the_cells_a_pass_read_stop_counting_for_the_cache_once_the_brains_think_one_by_one(monkeypatch):
    monkeypatch.setattr(mob_brain_rows, "BRAIN_ROWS_FROM", PASS_FROM)
    arena, reader = build_arena(), Reader()
    cache = WorldCache(arena)
    brains = [MobBrain(BOXLING, seed=k) for k in range(PASS_FROM)]
    for brain in brains:
        brain.ticks_left = 1  # walking from this tick
    bodies = [Body.at_feet(float(k - 4), 0.0, 0.5, BOXLING.width, BOXLING.height) for k in range(len(brains))]
    think_all(brains, bodies, arena, cache, user=reader)
    assert len(cache._in_use[reader]) > 0  # what `prune` keeps for the brains
    think_all(brains[:-1], bodies[:-1], arena, cache, user=reader)  # too few: one by one
    assert len(cache._in_use[reader]) == 0
