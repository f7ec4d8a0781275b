"""A digging player's kept look ray gives exactly a fresh cast's answer: the boxes kept along the ray
(`targeting.KeptSelection.cast`, `_Tube`) through an eye sliding to a stop, turns, edits among and
beside the kept boxes (doors swinging too), and far out where the look ray is refused; and the
mobs' boxes asked only about a mob before a block (`MobBoxes.find_mob`'s `before`) against
`find_mob` over every box."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules.doors import toggle_door
from game.rules.targeting import (LOOK_INSIDE_BLOCKS, LOOK_TUBE_BLOCKS, RAY_HALF_WIDTH, KeptSelection, MobBoxes,
                                  _Tube, aimed_block, find_mob, find_target, look_direction)
from game.world import World
from game.world.lab import build_arena
from physics import AABB
from physics.grid_cast import cast_unchecked
from physics.swept_aabb import first_hit_unchecked

from .test_many_player_targets import _mob_box

SHAPED = ["stone", "stone_slab", "fence", "glass", "air", "torch", "stairs_east", "air", "air"]
FRICTION = 0.546
"""Beta's ground friction a tick (0.6 x 0.91): a stopping player's slide shrinks by this each tick."""


def _stopping_eyes(rng: random.Random, eye: list[float], ticks: int):
    """The eyes of a player that stops walking: a slide shrinking by FRICTION a tick, now and then a
    new push (a step, a nudge)."""
    speed = [rng.uniform(-0.3, 0.3), rng.choice([0.0, 0.0, rng.uniform(-0.3, 0.0)]), rng.uniform(-0.3, 0.3)]
    for _ in range(ticks):
        if rng.random() < 0.1:
            speed = [rng.uniform(-0.3, 0.3), 0.0, rng.uniform(-0.3, 0.3)]
        eye = [eye[0] + speed[0], eye[1] + speed[1], eye[2] + speed[2]]
        speed = [v * FRICTION for v in speed]
        yield eye


def _edit_near(rng: random.Random, world, eye, place) -> None:
    """Up to two edits where a look ray from `eye` goes (digging, building) or beside it."""
    for _ in range(rng.randint(0, 2) if rng.random() < 0.3 else 0):
        cell = (math.floor(eye[0]) + rng.randint(-2, 2), math.floor(eye[1]) + rng.randint(-3, 1),
                math.floor(eye[2]) + rng.randint(-2, 2))
        place(cell, rng.choice(SHAPED))


def _a_look_in_the_lab(rng: random.Random):
    """The lab's arena, a new kept selection, an eye above its floor, a look, and a function that puts
    a block in a cell of the arena that can hold one."""
    arena = build_arena()
    eye = (rng.uniform(-2.0, 2.0), rng.uniform(1.2, 2.5), rng.uniform(-2.0, 2.0))
    yaw, pitch = rng.uniform(0.0, 360.0), rng.choice([55.0, 90.0, 0.0, rng.uniform(-30.0, 90.0)])

    def place(cell, name):
        if arena.can_hold(*cell):
            arena.set_block(*cell, name)

    return arena, KeptSelection(), eye, yaw, pitch, place


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_stopping_player_s_kept_look_ray_gives_a_fresh_cast_s_answer_through_slides_turns_and_edits(seed):
    rng = random.Random(seed)
    arena, kept, eye, yaw, pitch, place = _a_look_in_the_lab(rng)
    for eye in _stopping_eyes(rng, list(eye), 40):
        if rng.random() < 0.05:  # looking elsewhere
            yaw, pitch = rng.uniform(0.0, 360.0), rng.uniform(-30.0, 90.0)
        _edit_near(rng, arena, eye, place)
        if rng.random() < 0.2:  # the whole target (a click, a block broken): the same kept ray
            assert find_target(arena, tuple(eye), yaw, pitch, kept=kept) == find_target(arena, tuple(eye), yaw, pitch)
        assert aimed_block(arena, tuple(eye), yaw, pitch, kept) == aimed_block(arena, tuple(eye), yaw, pitch)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_same_ray_again_gives_a_fresh_cast_s_answer_whether_or_not_a_block_changed_between(seed):
    # A click's target, the dig from the same eye in the next tick, the block broken: the same ray
    # asked again, answered from the last cast while no block changed (`KeptSelection.cast`).
    rng = random.Random(seed)
    arena, kept, eye, yaw, pitch, place = _a_look_in_the_lab(rng)
    for step in range(12):
        if rng.random() < 0.2:
            eye = (eye[0] + rng.choice([0.0, 1e-9, 0.25]), eye[1], eye[2])
        if rng.random() < 0.5:  # the block looked at dug, or one put in the way
            aimed = aimed_block(arena, eye, yaw, pitch)
            if aimed is not None and rng.random() < 0.6:
                place(aimed[0], "air")
            else:
                dx, dy, dz = look_direction(yaw, pitch)
                along = rng.uniform(0.5, 3.0)
                place((math.floor(eye[0] + dx * along), math.floor(eye[1] + dy * along),
                       math.floor(eye[2] + dz * along)), rng.choice(SHAPED))
        for _ in range(rng.randint(1, 3)):
            assert aimed_block(arena, eye, yaw, pitch, kept) == aimed_block(arena, eye, yaw, pitch)
        if rng.random() < 0.3:
            assert find_target(arena, eye, yaw, pitch, kept=kept) == find_target(arena, eye, yaw, pitch)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    opened = World.create(tmp_path_factory.mktemp("kept-ray") / "world.boxel", seed=42, workers=1)
    yield opened
    opened.close()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_kept_look_ray_in_a_saved_world_sees_blocks_dug_placed_and_doors_swung(world, seed):
    rng = random.Random(seed)
    kept = KeptSelection()
    eye = [rng.uniform(-2.0, 2.0), 66.0 + rng.uniform(1.2, 2.5), rng.uniform(-2.0, 2.0)]
    yaw, pitch = rng.uniform(0.0, 360.0), rng.choice([55.0, 30.0, rng.uniform(0.0, 90.0)])
    door = (math.floor(eye[0]) + rng.randint(-1, 1), 67, math.floor(eye[2]) + rng.randint(-1, 1))
    world.set_block(door[0], door[1] - 1, door[2], "stone")
    world.set_block(*door, "door_lower_north_closed")
    world.set_block(door[0], door[1] + 1, door[2], "door_upper_north_closed")

    def place(cell, name):
        if cell[1] != door[1] and cell[1] != door[1] + 1 or cell[0] != door[0] or cell[2] != door[2]:
            world.set_block(*cell, name)

    for eye in _stopping_eyes(rng, eye, 30):
        _edit_near(rng, world, eye, place)
        if rng.random() < 0.3:
            toggle_door(world, door)  # a door's cells change: its boxes swing to another side
        assert aimed_block(world, tuple(eye), yaw, pitch, kept) == aimed_block(world, tuple(eye), yaw, pitch)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_boxes_kept_along_a_ray_hold_every_box_a_ray_slid_within_their_width_can_hit(seed):
    rng = random.Random(seed)
    arena = build_arena()
    for _ in range(rng.randint(0, 12)):
        cell = (rng.randint(-3, 3), rng.randint(-2, 2), rng.randint(-3, 3))
        if arena.can_hold(*cell):
            arena.set_block(*cell, rng.choice(SHAPED))
    view = KeptSelection().view(arena)
    x, y, z = rng.uniform(-2.0, 2.0), rng.uniform(1.0, 2.5), rng.uniform(-2.0, 2.0)
    if rng.random() < 0.3:  # on the grid: faces met edge-on
        x, z = float(round(x)), float(round(z))
    reach = rng.choice([5.0, 4.5, 1.0])
    dx, dy, dz = look_direction(rng.choice([0.0, 90.0, rng.uniform(0.0, 360.0)]),
                                rng.choice([0.0, 90.0, 55.0, rng.uniform(-90.0, 90.0)]))
    delta = (dx * reach, dy * reach, dz * reach)
    width = rng.choice([LOOK_TUBE_BLOCKS, 0.3, 1e-3])
    fraction = rng.choice([1.0, rng.uniform(0.05, 1.0)])
    centre = AABB(x, y, z, x, y, z).grown(RAY_HALF_WIDTH, RAY_HALF_WIDTH, RAY_HALF_WIDTH)
    covered = centre.grown(width + LOOK_INSIDE_BLOCKS, width + LOOK_INSIDE_BLOCKS, width + LOOK_INSIDE_BLOCKS)
    covered = covered.expanded_towards(delta[0] * fraction, delta[1] * fraction, delta[2] * fraction)
    tube = _Tube.among(arena.selection_boxes(covered), centre, delta, fraction, width)
    for _ in range(10):
        slid = [rng.choice([-0.999, 0.999, rng.uniform(-1.0, 1.0)]) * tube.slide for _ in range(3)]  # within, rounded
        ray = AABB(x + slid[0], y + slid[1], z + slid[2], x + slid[0], y + slid[1], z + slid[2]).grown(
            RAY_HALF_WIDTH, RAY_HALF_WIDTH, RAY_HALF_WIDTH)
        assert tube.holds(ray, delta)
        cast = cast_unchecked(ray, delta, view)
        kept = tube.first_hit(ray, delta)  # swept nearest first, stopping early: all of them's answer
        assert kept == first_hit_unchecked(ray, delta, tube.boxes)
        if cast is not None and cast.time < fraction:
            assert kept == cast
        if kept is not None and kept.time < fraction:
            assert kept == cast
        if fraction == 1.0:
            assert kept == cast


def test_a_look_ray_too_far_out_to_hold_its_cube_is_refused_kept_or_not():
    arena = build_arena()
    far = (1.0e17, 2.0, 0.0)  # an ulp is 16 blocks there: the ray's cube has no width
    with pytest.raises(ValueError, match="cast box"):
        aimed_block(arena, far, 0.0, 55.0)
    with pytest.raises(ValueError, match="cast box"):
        aimed_block(arena, far, 0.0, 55.0, KeptSelection())
    boxes = [AABB(1.0e17, 1.0, 0.0, 1.0e17 + 64.0, 2.0, 1.0)]
    with pytest.raises(ValueError, match="sweep box"):
        find_mob(far, 0.0, 55.0, boxes)
    with pytest.raises(ValueError, match="sweep box"):
        MobBoxes(boxes).find_mob(far, 0.0, 55.0, before=3.0)
    assert MobBoxes([AABB(0.0, 0.0, 0.0, 1.0, 1.0, 1.0)]).find_mob(far, 0.0, 55.0, before=3.0) is None


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_mob_boxes_before_a_block_give_find_mob_s_answer_when_it_is_nearer(seed):
    rng = random.Random(seed)
    span = rng.choice([3.0, 10.0, 40.0])
    boxes = [_mob_box(rng, span) for _ in range(rng.randint(0, 60))]
    if boxes and rng.random() < 0.3:
        boxes += [boxes[0]] * 2  # equal boxes: the first in the crowd's order is the one hit
    mobs = MobBoxes(boxes)
    for _ in range(20):
        eye = (rng.uniform(-span, span), rng.uniform(0.0, 2.0), rng.uniform(-span, span))
        yaw, pitch = rng.uniform(0.0, 360.0), rng.uniform(-90.0, 90.0)
        reach = rng.choice([5.0, 4.5, 1.0])
        before = rng.choice([0.0, 0.5, 2.0, 4.9, 5.0, 7.0, rng.uniform(0.0, 6.0)])
        found = find_mob(eye, yaw, pitch, boxes, reach)
        nearer = found if found is not None and found.distance < before else None
        assert mobs.find_mob(eye, yaw, pitch, reach, before=before) == nearer
        assert mobs.find_mob(list(eye), yaw, pitch, reach, before=before) == nearer  # the checked way
