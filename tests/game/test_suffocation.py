"""Suffocation: Beta's `isEntityInsideOpaqueBlock` test around the player's eye, and the "in wall"
hit it deals through the hurt-time rule (`game.rules.health`), alone and through a session."""

from __future__ import annotations

import pytest

import physics
from game.rules import health
from game.rules.health import (HURT_TICKS, MAX_HEALTH, PLAYER_EYE_HEIGHT, SUFFOCATION_DAMAGE, Exposure, Hit, Vitals,
                         advance, inside_opaque_block)
from game.rules.session import Session
from game.world import World

TOP = 200
"""[blocks] Height of the test platforms: far above the terrain, in open air."""
BURIED_TICKS = 60


class Cells:
    """A world of named blocks at a few cells, air everywhere else (what the test reads: `get_block`)."""

    def __init__(self, blocks: dict[tuple[int, int, int], str]) -> None:
        self.blocks = blocks

    def get_block(self, x: int, y: int, z: int) -> str:
        return self.blocks.get((x, y, z), "air")


@pytest.fixture
def session(sky_session):
    return sky_session


def stand_on_platform(session: Session) -> None:
    """The player at rest on a 3 x 3 stone platform at TOP, feet at (1.5, TOP, 1.5)."""
    for x in range(3):
        for z in range(3):
            session.world.set_block(x, TOP - 1, z, "stone")
    session.player.body = session.player.previous = physics.Body.at_feet(1.5, TOP, 1.5)


def bury_under_falling_sand(session: Session) -> int:
    """Two sand blocks placed over the player's head fall onto it; the tick the head cell fills."""
    world = session.world
    world.set_block(1, TOP + 4, 1, "sand")
    world.set_block(1, TOP + 5, 1, "sand")
    for _ in range(BURIED_TICKS):
        session.tick()
        if world.get_block(1, TOP + 1, 1) == "sand":
            return session.ticks_run
    raise AssertionError("the sand never reached the player's head")


def damage_ticks(session: Session, ticks: int) -> list[tuple[int, int]]:
    """(tick, damage) for each of the next `ticks` ticks that took health."""
    taken = []
    for _ in range(ticks):
        session.tick()
        if session.player.damage_taken:
            taken.append((session.ticks_run, session.player.damage_taken))
    return taken


# --- the test around the eye -------------------------------------------------------------------


def test_a_stone_block_at_the_eye_is_inside_an_opaque_block():
    assert inside_opaque_block(Cells({(0, 1, 0): "stone"}), 0.5, 1.5, 0.5)


def test_open_air_around_the_eye_is_not_inside_an_opaque_block():
    assert not inside_opaque_block(Cells({(0, 0, 0): "stone", (0, 3, 0): "stone"}), 0.5, 1.5, 0.5)


def test_a_wall_0_24_beside_the_eye_counts_and_one_a_hair_further_does_not():
    # The points sit Beta's float 0.3F * 0.8F = 0.24000001 either side, a hair more than 0.24.
    wall = Cells({(0, 1, 0): "stone"})
    assert inside_opaque_block(wall, 1.24, 1.5, 0.5)
    assert not inside_opaque_block(wall, 1.2400001, 1.5, 0.5)


def test_a_block_0_05_above_the_eye_counts_and_one_a_hair_higher_does_not():
    ceiling = Cells({(0, 2, 0): "stone"})
    assert inside_opaque_block(ceiling, 0.5, 1.95, 0.5)
    assert not inside_opaque_block(ceiling, 0.5, 1.9499999, 0.5)


@pytest.mark.parametrize("block", ["sand", "gravel", "dirt", "grass", "soul_sand", "obsidian"])
def test_opaque_full_cubes_suffocate(block):
    assert inside_opaque_block(Cells({(0, 1, 0): block}), 0.5, 1.5, 0.5)


@pytest.mark.parametrize("block", ["glass", "leaves", "ice", "stone_slab", "fence", "water", "lava", "cobweb",
                                   "torch", "cactus", "stairs_north"])
def test_see_through_and_partial_blocks_do_not_suffocate(block):
    assert not inside_opaque_block(Cells({(0, 1, 0): block}), 0.5, 1.5, 0.5)


@pytest.mark.parametrize("width, error", [(0.0, ValueError), (-0.6, ValueError), (float("nan"), ValueError),
                                          ("0.6", TypeError), (True, TypeError)])
def test_a_width_that_is_not_a_positive_number_is_refused(width, error):
    with pytest.raises(error):
        inside_opaque_block(Cells({}), 0.5, 1.5, 0.5, width)


def test_the_player_s_test_is_centred_0_12_above_its_eye_as_beta_s_player_eye_height():
    # Beta's player: posY is the eye and getEyeHeight() is 0.12F, so the upper points reach eye + 0.17.
    body = physics.Body.at_feet(0.5, 0.0, 0.5)
    ceiling = Cells({(0, 2, 0): "stone"})
    assert health.exposure_of(body, ceiling, (0.5, 1.84, 0.5)).in_wall  # up to 2.01
    assert not health.exposure_of(body, ceiling, (0.5, 1.82, 0.5)).in_wall  # up to 1.99
    assert PLAYER_EYE_HEIGHT == pytest.approx(0.12, abs=1e-8)


# --- the hit ------------------------------------------------------------------------------------


def test_a_tick_in_a_wall_deals_1_damage_in_full():
    outcome = advance(Vitals(), Exposure(in_wall=True))
    assert (outcome.vitals.health, outcome.damage, outcome.vitals.hurt_ticks) == (MAX_HEALTH - 1, 1, HURT_TICKS - 1)
    assert health.hurt(Vitals(), SUFFOCATION_DAMAGE)[1] is Hit.FULL


def test_peaceful_players_do_not_suffocate():
    outcome = advance(Vitals(), Exposure(in_wall=True), damage_enabled=False)
    assert (outcome.vitals.health, outcome.damage) == (MAX_HEALTH, 0)


def test_in_lava_and_in_a_wall_in_one_tick_the_lava_s_larger_hit_is_the_only_one_counted():
    outcome = advance(Vitals(), Exposure(in_lava=True, in_wall=True))
    assert outcome.damage == health.LAVA_DAMAGE


def test_a_dead_player_in_a_wall_takes_nothing():
    dead = Vitals(health=0)
    assert advance(dead, Exposure(in_wall=True)).vitals == dead


# --- through a session --------------------------------------------------------------------------


def test_sand_falling_onto_the_player_s_head_suffocates_it_1_damage_every_10_ticks(session):
    stand_on_platform(session)
    buried = bury_under_falling_sand(session)
    assert session.player.vitals.health == MAX_HEALTH  # the feet's sand alone hurts nobody
    taken = damage_ticks(session, 31)
    assert taken == [(buried + 1, 1), (buried + 11, 1), (buried + 21, 1), (buried + 31, 1)]
    assert session.player.vitals.health == MAX_HEALTH - 4


def test_a_player_standing_in_the_open_does_not_suffocate(session):
    stand_on_platform(session)
    session.world.set_block(0, TOP + 1, 1, "stone")  # a wall touching the player's side at head height
    assert damage_ticks(session, 40) == []
    assert session.player.vitals.health == MAX_HEALTH


def test_a_flying_player_buried_by_sand_suffocates_too(session):
    stand_on_platform(session)
    session.player.flying = True
    buried = bury_under_falling_sand(session)
    assert damage_ticks(session, 11) == [(buried + 1, 1), (buried + 11, 1)]


def test_a_peaceful_player_buried_by_sand_keeps_its_health(session):
    stand_on_platform(session)
    session.damage_enabled = False
    bury_under_falling_sand(session)
    assert damage_ticks(session, 40) == []
    assert session.player.vitals.health == MAX_HEALTH
