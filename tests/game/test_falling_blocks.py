"""Falling sand and gravel through the session: Beta's falling-block entity moved by Boxel physics."""

from __future__ import annotations

import pytest

from game.rules.falling_blocks import DRAG, GRAVITY, FallingBlock, FallingBlocks
from game.world.lab import Arena
from game.rules.session import Session
from game.world import World
from game.world.falling import FallingStart
from game.world.blocks import block_id

TOP = 200


@pytest.fixture
def session(sky_session):
    return sky_session


def column(world, x: int, z: int, y0: int, y1: int) -> list[str]:
    return [world.get_block(x, y, z) for y in range(y0, y1)]


def test_a_sand_column_whose_support_is_removed_falls_and_lands_every_block_on_the_floor_below(session):
    world = session.world
    world.set_block(0, TOP - 12, 0, "stone")  # the floor it lands on
    world.set_block(0, TOP, 0, "stone")  # the support
    for y in range(TOP + 1, TOP + 7):
        world.set_block(0, y, 0, "sand" if y % 2 else "gravel")
    for _ in range(10):
        session.tick()
    assert column(world, 0, 0, TOP + 1, TOP + 7) == ["sand", "gravel"] * 3  # held up: nothing falls
    world.set_block(0, TOP, 0, "air")
    for _ in range(200):
        session.tick()
    assert column(world, 0, 0, TOP - 11, TOP - 5) == ["sand", "gravel"] * 3  # same order, on the floor
    assert column(world, 0, 0, TOP - 5, TOP + 8) == ["air"] * 13
    assert session.falling.live == [] and session.falling.landed == 6 and session.falling.lost == 0


def test_a_falling_block_gains_speed_by_beta_s_gravity_and_drag_and_is_reported_as_a_body(session):
    world = session.world
    world.set_block(3, TOP, 3, "stone")
    world.set_block(3, TOP + 1, 3, "sand")
    world.set_block(3, TOP, 3, "air")
    ticks = 0
    while not session.falling.live:
        session.tick()
        ticks += 1
        assert ticks < 10
    first = session.falling.live[0]
    assert first.body.velocity[1] == pytest.approx(-GRAVITY * DRAG, abs=0.0)
    assert world.get_block(3, TOP + 1, 3) == "air"  # its first tick took the block from the world
    session.tick()
    assert session.falling.live[0].body.velocity[1] == (-GRAVITY * DRAG - GRAVITY) * DRAG
    kinds = [body["kind"] for body in session.report()["bodies"]]
    assert kinds.count("falling_block") == 1


def test_a_block_that_starts_to_fall_is_a_0_98_box_centred_in_its_cell():
    falling = FallingBlock.start(FallingStart((2, 70, -3), block_id("sand")))
    box = falling.body.box
    assert (box.max_x - box.min_x, box.max_y - box.min_y) == pytest.approx((0.98, 0.98), abs=1e-7)
    assert ((box.min_x + box.max_x) / 2, (box.min_z + box.max_z) / 2) == (2.5, -2.5)
    assert falling.cell == (2, 70, -3)


def test_sand_falling_into_water_sinks_through_it_and_lands_on_the_bottom(session):
    world = session.world
    for y in range(TOP - 4, TOP):
        world.set_block(6, y, 6, "water")  # a flooded shaft (sources: they stay)
    world.set_block(6, TOP - 5, 6, "stone")
    world.set_block(6, TOP, 6, "stone")
    world.set_block(6, TOP + 1, 6, "sand")
    world.set_block(6, TOP, 6, "air")
    for _ in range(120):
        session.tick()
    assert world.get_block(6, TOP - 4, 6) == "sand"
    assert session.falling.landed == 1


def test_a_world_without_block_updates_has_no_falling_blocks():
    falling = FallingBlocks(Arena())  # an empty lab arena: its ticker runs no block update
    falling.tick()
    assert falling.live == []
