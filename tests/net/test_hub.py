"""The server's core with no sockets (game.net.hub): handshakes, limits, inputs at their ticks, what is sent."""

from __future__ import annotations

import dataclasses
import time

import pytest

from game.net.column_wire import column_ids_of
from game.net.hub import Hub, ServerLimits
from game.net.hub import Refused
from game.net.protocol import (PROTOCOL_VERSION, Chat, ColumnData, Hello, Input, Say, TickUpdate, Welcome,
                               encode)
from game.rules.replay import KeyDown, Look, SetDayTime
from game.world import World
from game.world.terrain import Terrain

from .conftest import AckReader


def joined(session, *names, limits=ServerLimits()):
    hub = Hub(session, limits)
    for name in names:
        assert isinstance(hub.admit(Hello(PROTOCOL_VERSION, name), "127.0.0.1"), Welcome)
    return hub


def test_a_server_has_no_local_player_only_the_players_that_joined(session):
    hub = joined(session, "alice", "bob")
    assert list(hub.session.players) == ["alice", "bob"]


def test_a_handshake_with_another_protocol_version_is_refused_naming_both(session):
    hub = Hub(session)
    with pytest.raises(Refused, match=f"this server speaks protocol {PROTOCOL_VERSION}, the client 99"):
        hub.admit(Hello(99, "alice"), "127.0.0.1")
    assert list(session.players) == []


def test_a_name_already_playing_is_refused(session):
    hub = joined(session, "alice")
    with pytest.raises(Refused, match="already playing"):
        hub.admit(Hello(PROTOCOL_VERSION, "alice"), "10.0.0.2")


def test_a_full_server_and_too_many_connections_from_one_address_are_refused(session):
    hub = joined(session, "a", "b", limits=ServerLimits(max_players=3, connections_per_address=2))
    with pytest.raises(Refused, match="too many connections from 127.0.0.1"):
        hub.admit(Hello(PROTOCOL_VERSION, "c"), "127.0.0.1")
    hub.admit(Hello(PROTOCOL_VERSION, "c"), "10.0.0.2")
    with pytest.raises(Refused, match="the server is full"):
        hub.admit(Hello(PROTOCOL_VERSION, "d"), "10.0.0.3")


def test_an_input_is_applied_at_the_tick_it_names_and_acknowledged_after_it(session):
    hub = joined(session, "alice")
    due = session.ticks_run + 3
    assert hub.receive("alice", Input(Look(due, 90.0, 10.0))) is None
    acks, reader = [], AckReader()
    for _ in range(4):
        acks += reader.take(hub.tick()["alice"])
    assert [ack.input_tick for ack in acks] == [-1, -1, -1, due]
    assert (acks[-1].tick, acks[-1].state.yaw, acks[-1].state.pitch) == (due, 90.0, 10.0)
    assert acks[-2].state.yaw == 0.0


def test_an_input_too_far_ahead_or_behind_is_a_reason_to_disconnect(session):
    hub = joined(session, "alice", limits=ServerLimits(max_ahead_ticks=5, max_behind_ticks=2))
    for _ in range(10):
        hub.tick()
    assert "more than 5 ticks ahead" in hub.receive("alice", Input(KeyDown(16, "w")))
    assert "more than 2 ticks behind" in hub.receive("alice", Input(KeyDown(7, "w")))
    assert hub.receive("alice", Input(KeyDown(8, "w"))) is None  # late but within: applied at the next tick


def test_a_client_may_not_set_the_time_of_day(session):
    hub = joined(session, "alice")
    before = session.day_time
    assert hub.receive("alice", Input(SetDayTime(session.ticks_run, 18000))) is None
    hub.tick()
    assert session.day_time == before + 1


def test_more_messages_in_a_tick_than_the_limit_is_a_reason_to_disconnect(session):
    hub = joined(session, "alice", limits=ServerLimits(max_messages_per_tick=3))
    reasons = [hub.receive("alice", Input(KeyDown(0, "w"))) for _ in range(4)]
    assert reasons[:3] == [None, None, None]
    assert reasons[3] == "too many messages (more than 3 in a tick)"
    hub.tick()
    assert hub.receive("alice", Input(KeyDown(1, "w"))) is None  # the count starts again each tick


def test_chat_goes_to_everyone_and_faster_than_the_limit_is_a_reason_to_disconnect(session):
    hub = joined(session, "alice", "bob", limits=ServerLimits(chat_lines=2, chat_window_ticks=100))
    assert hub.receive("alice", Say("hello")) is None
    assert Chat("alice", "hello") in hub.tick()["bob"]
    assert hub.receive("alice", Say("again")) is None
    assert "chat too fast" in hub.receive("alice", Say("and again"))


def test_columns_are_sent_nearest_first_each_once_and_no_more_per_tick_than_the_budget(session):
    limits = ServerLimits(view_radius_columns=1, columns_per_tick=2)
    hub = joined(session, "alice", limits=limits)
    sent, deadline = [], time.monotonic() + 30  # the world's worker generates the columns not loaded yet
    while len(sent) < 9 and time.monotonic() < deadline:
        columns = [m for m in hub.tick()["alice"] if isinstance(m, ColumnData)]
        assert len(columns) <= 2
        sent.extend(columns)
        time.sleep(0.01)
    cx, cz = (int(v // 16) for v in (session.players["alice"].body.feet[0], session.players["alice"].body.feet[2]))
    keys = [(m.cx, m.cz) for m in sent]
    assert sorted(keys) == sorted((cx + dx, cz + dz) for dx in (-1, 0, 1) for dz in (-1, 0, 1))
    assert keys[0] == (cx, cz)
    first = sent[0]
    assert (column_ids_of(first, Terrain(session.world.seed).column) == session.world.column(cx, cz)).all()
    assert all(len(encode(m)) < 64 * 1024 for m in sent)


def test_each_client_is_told_of_the_other_player_but_never_of_itself_as_a_body(session):
    hub = joined(session, "alice", "bob")
    out = hub.tick()
    alice_bodies = [b.key for m in out["alice"] if isinstance(m, TickUpdate) for b in m.bodies]
    assert "player:bob" in alice_bodies and "player:alice" not in alice_bodies


def test_a_player_who_leaves_is_saved_in_the_world_file_at_once(session, world_path):
    hub = joined(session, "alice")
    hub.receive("alice", Input(KeyDown(0, "w")))
    for _ in range(10):
        hub.tick()
    feet = session.players["alice"].body.feet
    hub.leave("alice", "connection closed")
    assert "alice" not in session.players
    session.world.close()
    with World.open(world_path) as reopened:
        state = reopened.saved_player_state("alice")
    assert state is not None and state["box"][1] == feet[1]


@pytest.mark.parametrize("field, value, error", [("max_players", 0, ValueError), ("frame_seconds", -1.0, ValueError),
                                                 ("max_players", True, ValueError), ("max_players", 2.5, TypeError),
                                                 ("columns_per_tick", "6", ValueError)])
def test_server_limits_refuse_a_value_that_is_not_a_positive_number_of_its_kind(field, value, error):
    with pytest.raises(error, match=f"ServerLimits.{field}"):
        ServerLimits(**{field: value})


def test_no_sequence_of_client_messages_raises_out_of_the_hub(session):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from .test_protocol import events

    hub = joined(session, "alice", "bob", limits=ServerLimits(max_messages_per_tick=1000))
    said = st.builds(Say, st.text(st.characters(codec="ascii").filter(str.isprintable), min_size=1, max_size=100))
    sent = st.lists(st.one_of(st.tuples(st.sampled_from(["alice", "bob"]), events | said, st.integers(-3, 3)),
                              st.just("tick")), max_size=20)

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(sent)
    def never_raises(steps):
        for step in steps:
            if step == "tick":
                assert set(hub.tick()) == {"alice", "bob"}
                assert hub.failed == {}
            else:
                name, message, offset = step
                if not isinstance(message, Say):  # an event: stamped near the server's tick
                    message = Input(dataclasses.replace(message, tick=max(0, session.ticks_run + offset)))
                reason = hub.receive(name, message)
                if reason is not None:  # the only limits these messages can break
                    assert reason.startswith("chat too fast") if isinstance(message, Say) else "behind" in reason

    never_raises()


def test_other_bodies_are_sent_every_second_tick_and_the_own_state_every_tick(session):
    from game.net.hub import BODY_UPDATE_TICKS

    hub = joined(session, "alice", "bob")
    hub.receive("alice", Input(KeyDown(0, "w")))
    updates, acks, reader = [], [], AckReader()
    for _ in range(8):
        out = hub.tick()
        updates += [m for m in out["bob"] if isinstance(m, TickUpdate)]
        acks += reader.take(out["alice"])
    assert BODY_UPDATE_TICKS == 2
    assert [bool(u.bodies) for u in updates] == [u.tick % 2 == 0 for u in updates]
    moves = [move for u in updates for move in u.bodies]
    assert moves[0].change == "appeared" and moves[0].key == "player:alice"
    assert {move.id for move in moves} == {moves[0].id}  # one short id names alice from then on
    assert all(move.change == "stepped" for move in moves[1:])  # walking: 3-byte steps
    assert len({ack.state.box for ack in acks}) == 8  # alice walks: a new state every tick
