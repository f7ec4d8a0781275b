"""The many-player tick's fast paths give exactly their readable twins' answers: health's kept
block reads (`health.ExposureReader` against `health.exposure_of`, through `cell_memo.BlockReads`),
the pushes found on arrays (`mobs.push_pairs` against `mobs.push_pairs_one_by_one`, and its sweep
along x against every pair tested at once) and a mob
brain's kept intent (against a new one made every tick)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules import health
from game.rules.cell_memo import BlockReads
from game.rules.mob_brain import BOXLING, MobBrain
from game.rules.mobs import (PUSH_ARRAYS_FROM_PAIRS, _pairs_every_one, _pairs_on_arrays, box_array, push_pairs,
                             push_pairs_one_by_one, pushes_by)
from game.world.blocks import block_id
from game.world.lab import build_arena
from physics import AABB, Body

EDITS = ["stone", "water", "lava", "air", "sand", "glass", "stone_slab", "flowing_water"]
"""Blocks put around a player's head (those this game knows, `_KNOWN`)."""


def _known(name: str) -> bool:
    try:
        block_id(name)
    except ValueError:
        return False
    return True


_KNOWN = {name for name in EDITS if _known(name)}


def _edit_near(arena, rng: random.Random, x: float, y: float, z: float, spread: int) -> None:
    cell = (round(x) + rng.randint(-spread, spread), round(y) + rng.randint(-spread, spread),
            round(z) + rng.randint(-spread, spread))
    if arena.can_hold(*cell):
        arena.set_block(*cell, rng.choice(sorted(_KNOWN)))


def test_block_reads_forget_exactly_the_cells_changed_since_the_last_call():
    arena = build_arena()
    reads = BlockReads()
    ids = reads.fresh(arena)
    ids[(0, 5, 0)] = 1
    ids[(1, 5, 0)] = 2
    arena.set_block(1, 5, 0, "stone")
    arena.set_block(9, 5, 9, "stone")  # never read
    assert reads.fresh(arena) == {(0, 5, 0): 1}
    assert reads.fresh(build_arena()) == {}  # another world: nothing kept


def test_block_reads_forget_everything_once_they_hold_more_than_their_capacity():
    arena = build_arena()
    reads = BlockReads(capacity=2)
    ids = reads.fresh(arena)
    ids.update({(0, 0, 0): 1, (1, 0, 0): 1})
    assert len(reads.fresh(arena)) == 2
    reads.fresh(arena)[(2, 0, 0)] = 1
    assert reads.fresh(arena) == {}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_an_exposure_reader_gives_exposure_of_through_random_moves_and_edits(seed):
    rng = random.Random(seed)
    arena = build_arena()
    reader = health.ExposureReader()
    feet = [rng.uniform(-3.0, 3.0), float(rng.randint(0, 2)), rng.uniform(-3.0, 3.0)]
    for _ in range(40):
        if rng.random() < 0.5:  # walking, sliding, falling a little
            feet = [feet[0] + rng.uniform(-0.4, 0.4), feet[1] + rng.choice([0.0, 0.0, -0.3, 0.25]),
                    feet[2] + rng.uniform(-0.4, 0.4)]
        for _ in range(rng.randint(0, 3)):  # edits around the head, and far from it
            _edit_near(arena, rng, feet[0], feet[1] + 1.6, feet[2], rng.choice([1, 2, 20]))
        body = Body.at_feet(*feet)
        eye = (feet[0], feet[1] + 1.62, feet[2])
        hits = [(rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0))] if rng.random() < 0.1 else []
        assert reader.exposure(body, arena, eye, hits) == health.exposure_of(body, arena, eye, hits)


def test_an_exposure_reader_sees_a_block_placed_in_the_eye_at_once():
    arena = build_arena()
    reader = health.ExposureReader()
    body = Body.at_feet(0.5, 0.0, 0.5)
    eye = (0.5, 1.62, 0.5)
    assert not reader.exposure(body, arena, eye).in_wall
    arena.set_block(0, 1, 0, "sand")
    assert reader.exposure(body, arena, eye).in_wall
    arena.set_block(0, 1, 0, "water")
    assert reader.exposure(body, arena, eye).eye_in_water


def _boxes(rng: random.Random, count: int, span: float) -> list[AABB]:
    """Boxes a body wide on a small patch, some on a shared grid so that faces meet exactly."""
    boxes = []
    for _ in range(count):
        if rng.random() < 0.3:
            x, y, z = rng.randint(-4, 4) * 0.5, rng.randint(0, 2) * 0.5, rng.randint(-4, 4) * 0.5
        else:
            x, y, z = rng.uniform(-span, span), rng.uniform(0.0, 2.0), rng.uniform(-span, span)
        width = rng.choice([0.5, 0.6, 0.9, 1.0])
        boxes.append(AABB(x, y, z, x + width, y + rng.choice([0.5, 0.9, 1.8]), z + width))
    return boxes


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), regions=st.integers(1, 120), boxes=st.integers(1, 120))
def test_push_pairs_on_arrays_are_the_pairs_tested_one_by_one(seed, regions, boxes):
    rng = random.Random(seed)
    span = rng.choice([2.0, 6.0, 30.0])
    found_regions, found_boxes = _boxes(rng, regions, span), _boxes(rng, boxes, span)
    expected = [(r, b) for r, region in enumerate(found_regions) for b, box in enumerate(found_boxes)
                if region.intersects(box)]
    assert push_pairs_one_by_one(found_regions, found_boxes) == expected
    assert push_pairs(found_regions, found_boxes) == expected


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), regions=st.integers(0, 80), boxes=st.integers(0, 80),
       offset=st.sampled_from([0.0, -3.0e7, 3.0e7, 1.0e12, -1.0e15]))
def test_the_sweep_along_x_finds_the_pairs_that_testing_every_pair_finds(seed, regions, boxes, offset):
    """Wide boxes among narrow ones, faces on a shared grid, far from the origin: the sweep's
    candidates (low x within the widest width below a region) leave out no meeting pair."""
    rng = random.Random(seed)
    span = rng.choice([2.0, 6.0, 30.0])

    def some(count):
        found = _boxes(rng, count, span)
        if found and rng.random() < 0.3:  # one box far wider than the rest
            k = rng.randrange(count)
            b = found[k]
            found[k] = AABB(b.min_x - rng.uniform(1.0, 40.0), b.min_y, b.min_z, b.max_x, b.max_y, b.max_z)
        return [AABB(b.min_x + offset, b.min_y, b.min_z, b.max_x + offset, b.max_y, b.max_z) for b in found]

    r, b = box_array(some(regions)), box_array(some(boxes))
    assert _pairs_on_arrays(r, b) == _pairs_every_one(r, b)


def test_pushes_take_boxes_as_an_array_or_as_aabbs_alike():
    rng = random.Random(7)
    for count in (3, 40):  # one by one below PUSH_ARRAYS_FROM_PAIRS, on arrays above
        movers, others = _boxes(rng, count, 1.0), _boxes(rng, count, 1.0)
        expected = pushes_by(movers, others)
        assert expected and pushes_by(box_array(movers), box_array(others)) == expected
        assert pushes_by(box_array(movers), others) == pushes_by(movers, box_array(others)) == expected


def test_push_pairs_leave_out_boxes_that_only_touch_on_arrays_too():
    regions = [AABB(float(i), 0.0, 0.0, i + 1.0, 1.0, 1.0) for i in range(60)]
    touching = [AABB(i + 1.0, 0.0, 0.0, i + 2.0, 1.0, 1.0) for i in range(60)]  # face to face with region i
    assert len(regions) * len(touching) >= PUSH_ARRAYS_FROM_PAIRS
    assert push_pairs(regions, touching) == [(i + 1, i) for i in range(59)]


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_brain_s_kept_intent_is_the_intent_made_afresh_tick_after_tick(seed):
    rng = random.Random(seed)
    arena = build_arena()
    keeping, fresh = MobBrain(BOXLING, seed=seed), MobBrain(BOXLING, seed=seed)
    feet = [rng.uniform(-3.0, 3.0), 0.0, rng.uniform(-3.0, 3.0)]
    for _ in range(120):
        feet[0] += rng.choice([0.0, 0.0, rng.uniform(-0.2, 0.2)])
        feet[2] += rng.choice([0.0, 0.0, rng.uniform(-0.2, 0.2)])
        body = Body.at_feet(*feet, BOXLING.width, BOXLING.height)
        fresh._intent_made = None  # the readable twin: a new Intent every tick
        kept, made = keeping.think(body, arena), fresh.think(body, arena)
        assert repr(kept) == repr(made) and kept == made
