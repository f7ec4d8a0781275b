"""The digging players' fast paths give exactly their readable twins' answers: the mobs' boxes
ordered once for many look rays (`targeting.MobBoxes` against `find_mob`), a player's kept target
boxes (`targeting.SelectedBoxes` against `selected_boxes`) and the boxes kept along its ray
(`targeting.KeptSelection` against the world's `selection_boxes`), alone and through `find_target`."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules.targeting import (KeptSelection, MobBoxes, SelectedBoxes, aimed_block, find_mob, find_target,
                                  selected_boxes)
from game.world import World
from game.world.lab import build_arena
from physics import AABB

SHAPED = ["stone", "stone_slab", "fence", "glass", "air", "torch", "stairs_east"]


def _mob_box(rng: random.Random, span: float) -> AABB:
    x, y, z = rng.uniform(-span, span), rng.uniform(-2.0, 3.0), rng.uniform(-span, span)
    if rng.random() < 0.2:  # on the block grid, so faces meet the ray's edges exactly
        x, z = float(round(x)), float(round(z))
    width = rng.choice([0.6, 0.9, 2.5])
    return AABB(x, y, z, x + width, y + 0.9, z + width)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_mob_boxes_give_find_mob_s_answer_for_every_ray(seed):
    rng = random.Random(seed)
    span = rng.choice([3.0, 10.0, 40.0])
    boxes = [_mob_box(rng, span) for _ in range(rng.randint(0, 60))]
    mobs = MobBoxes(boxes)
    for _ in range(20):
        eye = (rng.uniform(-span, span), rng.uniform(0.0, 2.0), rng.uniform(-span, span))
        yaw, pitch = rng.uniform(0.0, 360.0), rng.uniform(-90.0, 90.0)
        reach = rng.choice([5.0, 4.5, 1.0])
        assert mobs.find_mob(eye, yaw, pitch, reach) == find_mob(eye, yaw, pitch, boxes, reach)


def test_mob_boxes_refuse_what_find_mob_refuses():
    with pytest.raises(TypeError):
        MobBoxes([(0.0, 0.0, 0.0, 1.0, 1.0, 1.0)])
    with pytest.raises(ValueError):
        MobBoxes([]).find_mob((float("nan"), 0.0, 0.0), 0.0, 0.0)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_player_s_kept_target_boxes_are_the_boxes_read_afresh_through_edits(seed):
    rng = random.Random(seed)
    arena = build_arena()
    selected, ray = SelectedBoxes(), KeptSelection()
    eye = [rng.uniform(-2.0, 2.0), rng.uniform(1.2, 2.5), rng.uniform(-2.0, 2.0)]
    yaw, pitch = rng.uniform(0.0, 360.0), rng.uniform(20.0, 90.0)
    for _ in range(30):
        if rng.random() < 0.3:  # sliding, or looking elsewhere
            eye = [eye[0] + rng.uniform(-0.05, 0.05), eye[1], eye[2] + rng.uniform(-0.05, 0.05)]
            yaw = yaw if rng.random() < 0.7 else rng.uniform(0.0, 360.0)
        for _ in range(rng.randint(0, 2)):  # edits where the ray looks, and beside it
            cell = (round(eye[0]) + rng.randint(-2, 2), rng.randint(-1, 1), round(eye[2]) + rng.randint(-2, 2))
            if arena.can_hold(*cell):
                arena.set_block(*cell, rng.choice(SHAPED))
        kept = find_target(arena, tuple(eye), yaw, pitch, selected=selected, kept=ray)
        assert kept == find_target(arena, tuple(eye), yaw, pitch)
        if kept is not None:
            assert kept.boxes == selected_boxes(arena, kept.block)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_aimed_block_is_find_target_s_block_and_distance_through_slides_turns_and_edits(seed):
    rng = random.Random(seed)
    arena = build_arena()
    ray = KeptSelection()
    eye = [rng.uniform(-2.0, 2.0), rng.uniform(1.2, 2.5), rng.uniform(-2.0, 2.0)]
    yaw, pitch = rng.uniform(0.0, 360.0), rng.uniform(-30.0, 90.0)
    for _ in range(30):
        if rng.random() < 0.3:  # sliding, or looking elsewhere
            eye = [eye[0] + rng.uniform(-0.05, 0.05), eye[1], eye[2] + rng.uniform(-0.05, 0.05)]
            yaw = yaw if rng.random() < 0.7 else rng.uniform(0.0, 360.0)
        for _ in range(rng.randint(0, 2)):
            cell = (round(eye[0]) + rng.randint(-2, 2), rng.randint(-1, 1), round(eye[2]) + rng.randint(-2, 2))
            if arena.can_hold(*cell):
                arena.set_block(*cell, rng.choice(SHAPED))
        target = find_target(arena, tuple(eye), yaw, pitch)
        assert aimed_block(arena, tuple(eye), yaw, pitch, ray) == (
            None if target is None else (target.block, target.distance))


def test_the_aimed_block_refuses_what_find_target_refuses_and_takes_what_it_takes():
    arena = build_arena()
    with pytest.raises(ValueError, match="eye y must be finite"):
        aimed_block(arena, (0.0, float("nan"), 0.0), 0.0, 90.0)
    with pytest.raises(ValueError, match="reach must be positive"):
        aimed_block(arena, (0.0, 2.0, 0.0), 0.0, 90.0, reach=-1.0)
    with pytest.raises(TypeError):
        aimed_block(arena, (0.0, 2.0), 0.0, 90.0)
    target = find_target(arena, [0, 2, 0], 0, 90)  # ints and a list: find_target's own way
    assert target is not None and aimed_block(arena, [0, 2, 0], 0, 90) == (target.block, target.distance)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_kept_selection_boxes_are_the_world_s_for_every_region_through_edits(seed):
    rng = random.Random(seed)
    arena = build_arena()
    kept = KeptSelection()
    for _ in range(30):
        for _ in range(rng.randint(0, 3)):  # edits among the regions asked about, fences and slabs too
            cell = (rng.randint(-3, 3), rng.randint(-2, 3), rng.randint(-3, 3))
            if arena.can_hold(*cell):
                arena.set_block(*cell, rng.choice(SHAPED))
        for _ in range(3):
            x, y, z = (rng.choice([float(rng.randint(-3, 3)), rng.uniform(-3.0, 3.0)]) for _ in range(3))
            size = [rng.choice([0.0, 0.3, 1.0, 2.5]) for _ in range(3)]
            region = AABB(x, y, z, x + size[0], y + size[1], z + size[2])
            assert kept.view(arena).collision_boxes(region) == list(arena.selection_boxes(region))


def test_kept_selection_asks_the_world_beyond_its_border():
    arena = build_arena()
    far = AABB(3.0e7 - 1.0, 0.0, 0.0, 3.0e7 + 1.0, 1.0, 1.0)
    assert KeptSelection().view(arena).collision_boxes(far) == list(arena.selection_boxes(far))


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    opened = World.create(tmp_path_factory.mktemp("kept") / "world.boxel", seed=42, workers=1)
    yield opened
    opened.close()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_kept_selection_boxes_are_a_saved_world_s_for_every_region_through_edits(world, seed):
    rng = random.Random(seed)
    kept = KeptSelection()
    top = 66  # seed 42's ground near the origin: terrain, edits and the sky above it
    for _ in range(20):
        for _ in range(rng.randint(0, 3)):
            world.set_block(rng.randint(-3, 3), top + rng.randint(-2, 3), rng.randint(-3, 3), rng.choice(SHAPED))
        for _ in range(3):
            x, y, z = (rng.choice([float(rng.randint(-3, 3)), rng.uniform(-3.0, 3.0)]) for _ in range(3))
            y += top
            size = [rng.choice([0.0, 0.3, 1.0, 2.5, 4.0]) for _ in range(3)]
            region = AABB(x, y, z, x + size[0], y + size[1], z + size[2])
            assert kept.view(world).collision_boxes(region) == list(world.selection_boxes(region))
