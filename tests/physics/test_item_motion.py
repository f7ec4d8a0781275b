"""Dropped items' motion rule (`physics.item_motion`): Beta 1.7.3's EntityItem gravity, move and friction."""

from __future__ import annotations

import pytest

from physics import BlockGrid, Body
from physics.floats import f32
from physics.item_motion import (AIR_FRICTION, GRAVITY, ITEM_SETTINGS, ITEM_SIZE, VERTICAL_DRAG, fall, item_box,
                                 item_move, item_step)
from physics.shapes import SLAB

from .worlds import FLOOR_TOP, floor

BETA_GRAVITY = 0.03999999910593033
"""Beta's `motionY -= 0.03999999910593033D`."""
BETA_DRAG = 0.9800000190734863
"""Beta's `motionY *= 0.9800000190734863D`."""


def test_an_items_constants_are_betas_float_literals_widened():
    assert GRAVITY == BETA_GRAVITY
    assert VERTICAL_DRAG == BETA_DRAG == AIR_FRICTION
    assert ITEM_SIZE == 0.25
    assert ITEM_SETTINGS.step_height == 0.0


def test_an_items_box_is_a_quarter_block_cube_centred_on_its_position():
    assert tuple(item_box(10.5, 70.0, -3.25)) == (10.375, 69.875, -3.375, 10.625, 70.125, -3.125)


def test_an_item_in_the_air_falls_by_betas_double_arithmetic():
    grid = BlockGrid()
    body = Body(item_box(0.5, 100.0, 0.5), (0.05, f32(0.2), -0.02))
    vx, vy = 0.05, f32(0.2)
    y = body.box[1]
    for _ in range(5):
        body = item_step(body, grid)
        y += vy - BETA_GRAVITY
        vy = (vy - BETA_GRAVITY) * BETA_DRAG
        vx *= AIR_FRICTION
        assert body.box[1] == y
        assert body.velocity[:2] == (vx, vy)
    assert not body.on_ground


def test_an_item_landing_on_stone_stops_dead_without_a_bounce():
    grid = floor()
    body = Body(item_box(0.5, FLOOR_TOP + 2.0, 0.5))
    for _ in range(200):
        body = item_step(body, grid)
    assert body.box[1] == FLOOR_TOP
    assert body.on_ground
    assert body.velocity[1] == 0.0  # -0.0: the collision zeroed it before the x -0.5 "bounce"
    before = body.box
    for _ in range(20):
        body = item_step(body, grid)
        assert body.box == before and body.velocity[1] == 0.0


def test_an_item_sliding_on_the_ground_keeps_slipperiness_times_0_98_a_tick():
    for slipperiness, kept in ((0.6, f32(0.58800006)), (0.98, f32(f32(0.98) * f32(0.98)))):
        grid = floor(slipperiness=slipperiness)
        body = item_step(Body(item_box(0.5, FLOOR_TOP + ITEM_SIZE / 2, 0.5), (0.1, 0.0, 0.0)), grid)
        assert body.on_ground
        assert body.velocity[0] == 0.1 * kept


def test_an_item_never_steps_up_onto_a_slab():
    grid = floor()
    grid.set(2, 64, 0, SLAB)
    body = Body(item_box(1.5, FLOOR_TOP + ITEM_SIZE / 2, 0.5), (0.3, 0.0, 0.0))
    for _ in range(10):
        body = item_step(body, grid)
    assert body.box[3] == 2.0
    assert body.box[1] == FLOOR_TOP


def test_fall_takes_gravity_alone_and_item_move_moves_by_the_velocity():
    body = Body(item_box(0.5, 100.0, 0.5), (0.0, 0.1, 0.0))
    assert fall(body).velocity == (0.0, 0.1 - BETA_GRAVITY, 0.0)
    moved = item_move(body, BlockGrid())
    assert moved.box[1] == body.box[1] + 0.1
    assert moved.velocity[1] == 0.1 * BETA_DRAG


def test_bad_arguments_are_refused_with_a_clear_error():
    with pytest.raises(TypeError, match="physics.Body"):
        fall("body")
    with pytest.raises(TypeError, match="CollisionWorld"):
        item_move(Body(item_box(0.0, 0.0, 0.0)), object())
    with pytest.raises(ValueError, match="item position"):
        item_box(float("nan"), 0.0, 0.0)
