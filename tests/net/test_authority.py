"""The server's authority over what a client's inputs may do: Beta's reach (6 blocks to dig, 8 to
place, `game.rules.reach`) and flying only where the server allows it (`ServerLimits.flying_allowed`;
every world is creative today, so it is on by default)."""

from __future__ import annotations

import dataclasses
import math

import pytest

from game.net.hub import Hub, ServerLimits
from game.net.prediction import Prediction
from game.net.protocol import PROTOCOL_VERSION, Hello, Input
from game.rules.reach import DIG_REACH_BLOCKS, PLACE_REACH_BLOCKS, within_reach
from game.rules.replay import Click, KeyDown, KeyUp
from game.rules.targeting import find_target

from .conftest import AckReader


def test_a_cell_centre_exactly_at_the_reach_is_within_it_and_a_hair_beyond_is_not():
    assert within_reach((0.5, 6.5, 0.5), (0, 0, 0), 6.0)
    assert not within_reach((0.5, 6.5 + 1e-9, 0.5), (0, 0, 0), 6.0)
    assert within_reach((0.5, 0.5, 8.5), (0, 0, 0), PLACE_REACH_BLOCKS)
    assert not within_reach((0.5, 0.5, 8.5), (0, 0, 0), DIG_REACH_BLOCKS)


@pytest.mark.parametrize("bad", [(float("nan"), 0.0, 0.0), (0.0, 0.0)])
def test_a_reach_check_refuses_an_eye_that_is_not_three_finite_numbers(bad):
    with pytest.raises(ValueError):
        within_reach(bad, (0, 0, 0), 6.0)


def test_the_look_ray_never_finds_a_block_beyond_the_dig_reach(session):
    player = session.player
    for pitch in range(0, 91, 5):
        target = find_target(session.world, player.eye, 0.0, float(pitch))
        assert target is None or within_reach(player.eye, target.block, DIG_REACH_BLOCKS)


def test_a_click_on_a_block_beyond_the_reach_changes_nothing(session, monkeypatch):
    player = session.player
    session.damage_enabled = False  # peaceful: a left click breaks at once
    x, y, z = (math.floor(v) for v in player.body.feet)
    near = session.target(player) or find_target(session.world, player.eye, 0.0, 90.0)
    assert near is not None
    far_cell = (x, y - 1, z + 7)  # the ground 7 blocks away: beyond 6
    before = session.world.get_block(*far_cell)
    far = dataclasses.replace(near, block=far_cell)
    monkeypatch.setattr(type(session), "target", lambda self, who=None: far)
    session.apply(Click(session.ticks_run, "left"))
    session.tick()
    assert session.world.get_block(*far_cell) == before
    near_cell = tuple(near.block)
    close = dataclasses.replace(near, block=near_cell)
    monkeypatch.setattr(type(session), "target", lambda self, who=None: close)
    session.apply(Click(session.ticks_run, "left"))
    session.tick()
    assert session.world.get_block(*near_cell) == "air"  # within reach the same click breaks it


def test_a_server_that_allows_no_flying_ignores_the_fly_key_and_says_so_in_its_welcome(session):
    hub = Hub(session, ServerLimits(flying_allowed=False))
    welcome = hub.admit(Hello(PROTOCOL_VERSION, "alice"), "10.0.0.1")
    assert welcome.flying_allowed is False
    tick = session.ticks_run
    hub.receive("alice", Input(KeyDown(tick, "f")))
    hub.receive("alice", Input(KeyUp(tick + 1, "f")))
    for _ in range(3):
        hub.tick()
    assert session.players["alice"].flying is False
    assert "f" not in session.players["alice"].input.held  # held, then released, as any key


def test_a_server_allows_flying_by_default_as_every_world_is_creative(session):
    hub = Hub(session)
    welcome = hub.admit(Hello(PROTOCOL_VERSION, "alice"), "10.0.0.1")
    assert welcome.flying_allowed is True
    hub.receive("alice", Input(KeyDown(session.ticks_run, "f")))
    hub.tick()
    assert session.players["alice"].flying is True


def test_a_client_predicts_no_flight_where_the_server_allows_none(session):
    hub = Hub(session, ServerLimits(flying_allowed=False))
    welcome = hub.admit(Hello(PROTOCOL_VERSION, "alice"), "10.0.0.1")
    prediction, reader = Prediction(welcome), AckReader()
    prediction.start(reader.take(hub.tick()["alice"])[0])
    tick = prediction.next_tick
    hub.receive("alice", Input(KeyDown(tick, "f")))
    prediction.step([KeyDown(tick, "f")])
    assert prediction.acknowledge(reader.take(hub.tick()["alice"])[0]) is False
    assert prediction.state.flying is False


def test_server_limits_refuse_a_flying_flag_that_is_not_a_bool():
    with pytest.raises(TypeError, match="flying_allowed must be a bool"):
        ServerLimits(flying_allowed=1)
