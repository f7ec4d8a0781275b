"""Holding a client that sends positions to Boxel's physics (`game.net.classic.movement`)."""

from __future__ import annotations

import pytest

import physics
from game.net.classic.movement import (EYE_UNITS, TOO_QUICK_BLOCKS, WRONG_MOVE_BLOCKS, check_move, feet_of_fixed,
                                       fixed_of_feet)


def _floor_and_wall() -> physics.BlockGrid:
    grid = physics.BlockGrid()
    for x in range(-5, 15):
        for z in range(-5, 5):
            grid.set(x, 63, z)
    for y in range(64, 67):
        for z in range(-5, 5):
            grid.set(5, y, z)
    return grid


def _walk(world, body, intent, ticks):
    """Feet each tick of `body` stepped with `intent` (what an honest client claims)."""
    path = []
    for _ in range(ticks):
        body = physics.step(body, world, intent)
        path.append(body.feet)
    return path


def test_an_honest_walk_jump_and_fall_is_accepted_at_every_packet_even_rounded_to_32nds():
    world = _floor_and_wall()
    body = physics.Body.at_feet(0.5, 64.0, 0.5)
    server = body
    path = _walk(world, body, physics.Intent(forward=1.0, yaw=270.0, jump=True), 60)  # into the wall, jumping
    for feet in path:
        claim = feet_of_fixed(*fixed_of_feet(*feet))
        verdict = check_move(server, claim, world)
        assert verdict.accepted, (feet, verdict.reason)
        server = verdict.body


def test_a_move_through_a_wall_moved_wrongly_and_the_player_stays_where_it_was():
    world = _floor_and_wall()
    body = physics.Body.at_feet(4.0, 64.0, 0.5)
    verdict = check_move(body, (6.5, 64.0, 0.5), world)
    assert not verdict.accepted and verdict.reason.startswith("moved wrongly")
    assert verdict.body == body


def test_a_move_longer_than_10_blocks_in_one_packet_moved_too_quickly():
    world = _floor_and_wall()
    body = physics.Body.at_feet(0.5, 64.0, 0.5)
    verdict = check_move(body, (0.5, 64.0 + TOO_QUICK_BLOCKS + 0.01, 0.5), world)
    assert verdict.reason.startswith("moved too quickly") and verdict.body == body
    assert check_move(body, (0.5, 64.0 + 3.0, 0.5), world).accepted  # up in the air, not through anything


def test_a_claim_just_inside_the_tolerance_is_accepted_and_just_outside_is_not():
    world = _floor_and_wall()
    body = physics.Body.at_feet(0.5, 64.0, 0.5)
    assert check_move(body, (0.5, 64.0 - WRONG_MOVE_BLOCKS, 0.5), world).accepted  # into the floor by the tolerance
    assert not check_move(body, (0.5, 64.0 - WRONG_MOVE_BLOCKS - 0.01, 0.5), world).accepted


def test_classic_positions_are_the_eye_51_32nds_above_the_feet_in_32nds_of_a_block():
    assert fixed_of_feet(1.5, 64.0, -2.25) == (48, 64 * 32 + EYE_UNITS, -72)
    assert feet_of_fixed(48, 64 * 32 + EYE_UNITS, -72) == (1.5, 64.0, -2.25)


def test_feet_that_are_not_finite_are_a_value_error():
    with pytest.raises(ValueError):
        check_move(physics.Body.at_feet(0.5, 64.0, 0.5), (float("nan"), 64.0, 0.5), physics.BlockGrid())
