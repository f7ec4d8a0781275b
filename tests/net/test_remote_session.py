"""`RemoteSession`, the network-backed object the window plays a server's world through, against a
real server subprocess on 127.0.0.1 (`--port 0`): its player predicted with no corrections, its mirror
world brought to the server's blocks, other players drawn, chat, and the server's reason when it
ends the connection. Each run bounded in time; ticks paced by the wall clock as a window's are."""

from __future__ import annotations

import signal
import time

import pytest

from game.net.client import ServerRefused
from game.net.link import Link, parse_address
from game.net.remote_session import RemoteSession
from game.rules.replay import Chat, Click, KeyDown, KeyUp, Look
from game.world.blocks import block_id

from .test_server_process import start_server, stop

TICK_S = 0.05
"""[s] A window's tick, on the wall clock."""


def play(sessions, ticks: int, events=None) -> None:
    """Tick every session `ticks` times at 20 Hz; `events[(i, name)]`: events applied before tick i."""
    events = events or {}
    for tick in range(ticks):
        started = time.monotonic()
        for session in sessions:
            for event in events.get((tick, session.local_name), ()):
                session.apply(event)
            session.tick()
        time.sleep(max(0.0, TICK_S - (time.monotonic() - started)))


@pytest.fixture
def server(tmp_path):
    process, port = start_server(tmp_path / "served.boxel", "--new", "--seed", "42")
    yield port
    if process.poll() is None:
        stop(process, signal.SIGTERM)


def test_a_remote_player_walks_where_the_server_puts_it_with_no_correction(server):
    session = RemoteSession.connect("127.0.0.1", server, "alice")
    try:
        start = session.player.body.feet
        play([session], 60, {(2, "alice"): [KeyDown(0, "w")], (22, "alice"): [KeyUp(0, "w")]})
        assert session.ticks_run == 60
        feet = session.player.body.feet
        assert feet[2] - start[2] > 3.0  # walked along +Z (yaw 0)
        assert session.corrections == 0
        assert session.client.state.feet == pytest.approx(feet, abs=1e-9)  # standing still: the server agrees
    finally:
        session.close()


def test_a_block_another_player_places_reaches_the_mirror_world_and_the_other_is_drawn(server):
    alice = RemoteSession.connect("127.0.0.1", server, "alice")
    bob = RemoteSession.connect("127.0.0.1", server, "bob")
    try:
        play([alice, bob], 40, {(2, "alice"): [Look(0, 0.0, 60.0)], (10, "alice"): [Click(0, "right")]})
        placed = alice.report()["edited_blocks"]
        assert len(placed) == 1 and placed[0][3] == "stone"
        x, y, z, _ = placed[0]
        assert bob.world.get_block(x, y, z) == "stone"  # the mirror the window draws
        assert bob.prediction.world.id_at(x, y, z) == block_id("stone")  # what bob's physics meets
        assert list(bob.players) == ["bob", "alice"]
        assert bob.players["alice"].view(1.0).box.min_y == pytest.approx(alice.player.body.box.min_y, abs=1 / 32)
    finally:
        alice.close()
        bob.close()


def test_chat_said_in_one_window_is_a_notice_in_every_window(server):
    alice = RemoteSession.connect("127.0.0.1", server, "alice")
    bob = RemoteSession.connect("127.0.0.1", server, "bob")
    try:
        play([alice, bob], 12, {(2, "alice"): [Chat(0, "hello bob")]})
        assert "<alice> hello bob" in bob.notices and "<alice> hello bob" in alice.notices
    finally:
        alice.close()
        bob.close()


def test_a_stopping_server_ends_the_remote_session_with_its_reason(tmp_path):
    process, port = start_server(tmp_path / "served.boxel", "--new", "--seed", "42")
    session = RemoteSession.connect("127.0.0.1", port, "alice")
    told = []
    session.on_lost = told.append
    try:
        stop(process, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while session.lost is None and time.monotonic() < deadline:
            session.tick()
            time.sleep(TICK_S)
        assert session.lost is not None and "stopping" in session.lost
        assert told == [session.lost]
        ticks = session.ticks_run
        session.tick()  # a lost session still ticks (a scripted run ends), sending nothing
        assert session.ticks_run == ticks + 1
    finally:
        session.close()


def test_a_name_already_playing_is_refused_with_the_servers_reason(server):
    holder = Link.open("127.0.0.1", server, "alice")
    try:
        with pytest.raises(ServerRefused, match="already playing"):
            RemoteSession.connect("127.0.0.1", server, "alice")
    finally:
        holder.close()


def test_a_port_nothing_listens_on_cannot_be_joined():
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        with pytest.raises(OSError):
            RemoteSession.connect("127.0.0.1", port, "alice")


@pytest.mark.parametrize("text, address", [
    ("127.0.0.1:5", ("127.0.0.1", 5)), ("example.org", ("example.org", 25565)), (" host:25565 ", ("host", 25565)),
    ("[::1]:80", ("::1", 80)),
])
def test_an_address_is_read_as_host_and_port_with_minecrafts_port_by_default(text, address):
    assert parse_address(text) == address


@pytest.mark.parametrize("text, message", [
    ("", "is not HOST or HOST:PORT"), (":80", "is not HOST or HOST:PORT"), ("a b:1", "is not HOST or HOST:PORT"),
    ("h:0", "not a number from 1 to 65535"), ("h:x", "not a number from 1 to 65535"),
    ("h:70000", "not a number from 1 to 65535"),
])
def test_an_address_that_is_not_one_is_refused_saying_why(text, message):
    with pytest.raises(ValueError, match=message):
        parse_address(text)


class _Wire:
    """A `Link` stand-in: `take` hands out what the test queued."""

    def __init__(self, welcome) -> None:
        self.welcome, self.queued, self.lost, self.sent = welcome, [], None, []
        self.bytes_received = self.bytes_sent = 0

    def take(self):
        taken, self.queued = self.queued, []
        return taken

    def send(self, message) -> None:
        self.sent.append(message)

    def close(self) -> None:
        pass

    def lose(self, reason: str) -> None:
        self.lost = reason


def test_a_mob_is_drawn_blended_from_where_it_was_drawn_to_its_latest_state_over_a_body_update():
    from game.net.hub import BODY_UPDATE_TICKS
    from game.net.protocol import POSITION_UNITS, BodyMove, TickUpdate, Welcome
    from game.net.remote_session import BODY_BLEND_SECONDS

    now = [100.0]
    wire = _Wire(Welcome(2, "alice", 42, 0, 0))
    session = RemoteSession(wire, clock=lambda: now[0])
    try:
        size = (230, 333)  # [1/256 block]
        wire.queued = [TickUpdate(0, 0, bodies=(BodyMove(7, "appeared", "mob:3", "mob", (0, 64 * POSITION_UNITS, 0), size),))]
        session.poll()
        assert [(view.key, view.box.min_x) for view in session.mobs.views(1.0)] == [(3, -230 / 512)]
        now[0] += 1.0
        wire.queued = [TickUpdate(BODY_UPDATE_TICKS, 0, bodies=(BodyMove(7, "stepped", at=(POSITION_UNITS, 0, 0)),))]
        session.poll()  # one block along +X, heard now: drawn from where it was, over one update's time
        xs = []
        for elapsed in (0.0, BODY_BLEND_SECONDS / 2, BODY_BLEND_SECONDS, 2 * BODY_BLEND_SECONDS):
            now[0] = 101.0 + elapsed
            xs.append(session.mobs.views(1.0)[0].box.min_x + 230 / 512)
        assert xs == pytest.approx([0.0, 0.5, 1.0, 1.0])
        assert session.mobs.views(1.0)[0].yaw == pytest.approx(270.0)  # facing the way it moved (+X)
        wire.queued = [TickUpdate(2 * BODY_UPDATE_TICKS, 0, bodies=(BodyMove(7, "gone"),))]
        session.poll()
        assert session.mobs.views(1.0) == []
    finally:
        session.close()


def test_inputs_are_stamped_lead_ticks_ahead_of_the_server_and_a_tick_is_held_while_the_server_is_silent():
    from physics import Body

    from game.net.client import INPUT_LEAD_TICKS
    from game.net.protocol import Ack, Input, PlayerState, TickUpdate, Welcome
    from game.net.remote_session import HOLD_SLACK_TICKS

    wire = _Wire(Welcome(2, "alice", 42, 100, 0))
    session = RemoteSession(wire)
    try:
        state = PlayerState.of_body(Body.at_feet(8.5, 150.0, 8.5), 0.0, 0.0, True, False, 20)
        wire.queued = [TickUpdate(100, 0), Ack(100, -1, state)]
        session.apply(KeyDown(0, "w"))
        session.tick()  # the first state; caught up to the lead, then this tick's input
        assert [(type(m), m.event.tick) for m in wire.sent] == [(Input, 100 + INPUT_LEAD_TICKS)]
        assert session.ticks_run == 1
        ran = 1
        while session.prediction.next_tick <= 100 + INPUT_LEAD_TICKS + HOLD_SLACK_TICKS:  # the server at 100
            session.tick()
            ran += 1
        assert session.ticks_run == ran
        session.apply(KeyUp(0, "w"))
        session.tick()  # the server has said nothing since tick 100: held, the release kept for later
        assert session.ticks_run == ran and len(wire.sent) == 1
    finally:
        session.close()


def _seed_column(cx: int, cz: int, checksum_of=None):
    """Column (cx, cz) of seed 42 as a server sends a never-edited one ("seed": its checksum alone)."""
    from game.net.column_wire import column_data
    from game.world.terrain import Terrain

    ids = Terrain(42).column(cx, cz) if checksum_of is None else checksum_of
    return column_data(cx, cz, ids, as_generated=True)


def _never_generated(cx: int, cz: int):
    raise AssertionError(f"column ({cx}, {cz}) was generated a second time on the main thread")


def test_a_seed_column_is_taken_from_the_mirror_worlds_generation_and_never_generated_again():
    from game.net.protocol import Welcome
    from game.world.terrain import Terrain

    wire = _Wire(Welcome(2, "alice", 42, 0, 0))
    session = RemoteSession(wire)
    try:
        session.client.generated_column = _never_generated
        wire.queued = [_seed_column(0, 1)]
        session.poll()
        assert (0, 1) not in session.client.columns  # waiting for the mirror's worker
        session.world.column(0, 1)  # the mirror holds it now (as its streaming would have it loaded)
        session.poll()
        expected = Terrain(42).column(0, 1)
        assert (session.client.columns[0, 1] == expected).all()
        x, z = 3, 16 + 5
        top = max(y for y in range(256) if expected[x, y, 5])
        assert session.prediction.world.id_at(x, top, z) == int(expected[x, top, 5])
        assert session.lost is None
    finally:
        session.close()


def test_a_seed_column_the_mirror_generates_otherwise_than_the_server_loses_the_connection_saying_why():
    import numpy as np

    from game.net.protocol import Welcome

    wire = _Wire(Welcome(2, "alice", 42, 0, 0))
    session = RemoteSession(wire)
    try:
        wire.queued = [_seed_column(2, 0, checksum_of=np.zeros((16, 256, 16), dtype=np.uint16))]
        session.world.column(2, 0)
        session.poll()
        assert "differs from the server's seed" in session.lost
        assert (2, 0) not in session.client.columns
    finally:
        session.close()


def test_an_edit_in_a_waiting_seed_column_lands_in_the_columns_ids_and_the_predicted_world():
    from game.net.protocol import BlockEdit, TickUpdate, Welcome

    wire = _Wire(Welcome(2, "alice", 42, 0, 0))
    session = RemoteSession(wire)
    try:
        wire.queued = [_seed_column(0, 0), TickUpdate(0, 0, blocks=(BlockEdit(4, 120, 6, block_id("glass")),))]
        session.poll()  # the mirror does not hold the column: it is generated here, then edited
        assert session.client.block(4, 120, 6) == block_id("glass")
        assert session.prediction.world.id_at(4, 120, 6) == block_id("glass")
        assert session.client.edited_blocks() == [[4, 120, 6, "glass"]]
    finally:
        session.close()


def test_the_report_counts_a_seed_column_still_waiting_for_the_mirror_as_held():
    from physics import Body

    from game.net.protocol import Ack, PlayerState, TickUpdate, Welcome

    wire = _Wire(Welcome(2, "alice", 42, 0, 0))
    session = RemoteSession(wire)
    try:
        state = PlayerState.of_body(Body.at_feet(80.5, 150.0, 80.5), 0.0, 0.0, True, False, 20)
        wire.queued = [TickUpdate(0, 0), Ack(0, -1, state), _seed_column(5, 5), _seed_column(5, 6)]
        session.poll()
        report = session.report()
        assert report["columns"] == 2 and report["edited_blocks"] == []
    finally:
        session.close()


def test_the_mirror_world_is_asked_for_the_29_columns_nearest_the_player_once_its_place_is_known():
    from physics import Body

    from game.net.protocol import Ack, PlayerState, TickUpdate, Welcome

    wire = _Wire(Welcome(2, "alice", 42, 100, 0))
    session = RemoteSession(wire, workers=1)
    try:
        state = PlayerState.of_body(Body.at_feet(1000.5, 150.0, -2000.5), 0.0, 0.0, True, False, 20)
        wire.queued = [TickUpdate(100, 0), Ack(100, -1, state)]
        session.poll()
        session.prefetch()  # far from the world's spawn, whose columns creating the world loaded
        assert session.world.pending_requests == 29  # dx^2 + dz^2 <= 9 around column (62, -126)
        session.world.request(62 + 3, -126)
        session.world.request(62 + 3, -126 + 1)
        assert session.world.pending_requests == 30  # (65, -126) was asked already; (65, -125) was not
    finally:
        session.close()
