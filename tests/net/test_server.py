"""The server over real sockets on 127.0.0.1, port 0 (game.net.server with game.net.client): two players
building and digging see each other's edits, and hostile clients are cut while an honest one plays on.
Every test runs under a time limit (asyncio.timeout)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
import zlib

import pytest

from game.net import hub as hub_module
from game.net.client import ClientWorld, Connection, ServerRefused, play
from game.net.hub import Hub, ServerLimits
from game.net.protocol import PROTOCOL_VERSION, ColumnData, Disconnect, Hello, Input, Say, TickUpdate, decode, encode
from game.net.server import Server
from game.rules.replay import Click, KeyDown, KeyUp, Look, Release
from game.world.column import Column

TEST_SECONDS = 60
"""[s] The most any scenario here may take (it takes a few on an idle machine)."""


@contextlib.asynccontextmanager
async def serving(session, limits=ServerLimits(), log=None):
    """A server on 127.0.0.1 at a free port, ticking in the background; stopped (and saved) on exit."""
    lines = [] if log is None else log
    server = Server(Hub(session, limits), "127.0.0.1", 0, log=lines.append)
    _, port = await server.start()
    stopping = []
    task = asyncio.create_task(server.run(lambda: bool(stopping)))
    try:
        yield server, port
    finally:
        stopping.append(True)
        await task


def run(scenario):
    async def limited():
        async with asyncio.timeout(TEST_SECONDS):
            return await scenario
    return asyncio.run(limited())


BUILDER = (Look(0, 0.0, 60.0), Click(4, "right"), Release(5, "right"))
"""Looks down ahead (+Z) and places the selected block on the ground there."""
DIGGER = (Look(0, 180.0, 60.0), Click(4, "left"), Release(70, "left"))
"""Looks down behind (-Z) and digs the ground there (Beta's dig time, damage on)."""


def test_a_builder_and_a_digger_see_each_other_and_each_others_edits_within_two_ticks(session):
    applied = {}
    original_tick = session.tick

    def recording_tick():
        changes = original_tick()
        for change in changes.blocks:
            applied.setdefault(change.cell, (changes.tick, change.new))
        return changes

    session.tick = recording_tick
    seen = {"alice": {}, "bob": {}}

    async def watch(connection, name, ticks, events, start):
        world = ClientWorld(connection.welcome)
        queue = list(events)
        while world.tick < start + ticks:
            while queue and start + queue[0].tick <= world.tick + 3:
                event = queue.pop(0)
                connection.send(Input(type(event)(**{**_fields(event), "tick": start + event.tick})))
            message = await connection.receive()
            world.apply(message)
            if isinstance(message, TickUpdate):
                for edit in message.blocks:
                    seen[name].setdefault((edit.x, edit.y, edit.z), message.tick)
        await connection.close()
        return world

    async def scenario():
        async with serving(session) as (server, port):
            alice = await Connection.open("127.0.0.1", port, "alice")
            bob = await Connection.open("127.0.0.1", port, "bob")
            start = max(alice.welcome.tick, bob.welcome.tick) + 40  # both hold their columns by then
            return await asyncio.gather(watch(alice, "alice", 120, BUILDER, start),
                                        watch(bob, "bob", 120, DIGGER, start))

    alice_world, bob_world = run(scenario())
    placed = [cell for cell, (_, new) in applied.items() if new != "air"]
    dug = [cell for cell, (_, new) in applied.items() if new == "air"]
    assert placed and dug, applied
    for cell, (tick, _) in applied.items():
        for name in ("alice", "bob"):
            assert cell in seen[name] and seen[name][cell] - tick <= 2, (name, cell, tick, seen[name].get(cell))
    assert "bob" in alice_world.players_seen and "alice" in bob_world.players_seen
    for world in (alice_world, bob_world):
        assert world.block(*placed[0]) != 0 and world.block(*dug[0]) == 0


def _fields(event):
    return {name: getattr(event, name) for name in event.__slots__}


WALK = (Look(0, 0.0, 0.0), KeyDown(0, "w"), KeyUp(30, "w"), KeyDown(40, "s"), KeyUp(70, "s"))
HOSTILE_LIMITS = ServerLimits(frame_seconds=0.5, handshake_seconds=1.0, max_send_buffer_bytes=32 * 1024,
                              connections_per_address=10, socket_send_buffer_bytes=8 * 1024, view_radius_columns=5)
"""Short time limits and a small send queue, so each hostile client is cut within a second or two; 11 x 11
columns in range, so the client that never reads has far more to be sent than its buffers hold."""


async def raw_client(port: int, name: str | None, *, receive_buffer: int | None = None):
    """A bare socket's streams, after a Hello as `name` (None: no handshake)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    reader, writer = await asyncio.open_connection(sock=sock)
    if name is not None:
        writer.write(encode(Hello(PROTOCOL_VERSION, name)))
    return reader, writer


async def disconnect_reason(reader) -> str:
    """Read frames until the server's Disconnect; its reason ("" when the server just closed)."""
    try:
        while True:
            header = await reader.readexactly(4)
            message = decode(await reader.readexactly(struct.unpack(">I", header)[0]))
            if isinstance(message, Disconnect):
                return message.reason
    except (asyncio.IncompleteReadError, ConnectionError):
        return ""


async def garbage(port):
    reader, writer = await raw_client(port, "garbage")
    writer.write(struct.pack(">I", 6) + b"\xfe\x01\x02\x03\x04\x05")
    return await disconnect_reason(reader)


async def oversized(port):
    reader, writer = await raw_client(port, None)
    writer.write(struct.pack(">I", 50_000_000))
    return await disconnect_reason(reader)


async def half_frame(port):
    reader, writer = await raw_client(port, "slowloris")
    writer.write(struct.pack(">I", 20) + b"\x02\x00\x00")  # and never the rest
    return await disconnect_reason(reader)


async def flood(port):
    reader, writer = await raw_client(port, "flood")
    reason = asyncio.create_task(disconnect_reason(reader))
    frame = encode(Input(KeyDown(0, "w")))
    for _ in range(10):  # 10,000 messages a second
        if reason.done():
            break
        writer.write(frame * 1000)
        await asyncio.sleep(0.1)
    return await reason


async def chat_flood(port):
    reader, writer = await raw_client(port, "chatter")
    writer.write(encode(Say("buy cheap gold")) * 10)
    return await disconnect_reason(reader)


DEAF_WAIT_S = 40
"""[s] How long the client that never reads waits to be cut: its socket buffers and the server's send
queue fill at the pace of the columns sent to it, which a busy machine slows (once over 10 s here)."""


def columns_in_full(world, cx: int, cz: int) -> ColumnData:
    """Column (cx, cz) as protocol 2 sent every column (two bytes a block, zlib level 1: ~3 KB) rather
    than as its seed's (18 bytes): with HOSTILE_LIMITS' 11 x 11 columns, ~350 KB to send the client
    that never reads, far more than its socket buffers and send queue hold, so it is cut."""
    return ColumnData(cx, cz, zlib.compress(Column.from_ids(world.column(cx, cz)).to_bytes(), 1))


async def never_reads(port, log):
    _, writer = await raw_client(port, "deaf", receive_buffer=4096)
    for _ in range(DEAF_WAIT_S * 20):
        if any(line.startswith("deaf left") for line in log):
            break
        await asyncio.sleep(0.05)
    writer.close()
    return next((line for line in log if line.startswith("deaf left")), "")


async def bad_hello(port, version: int, name: bytes):
    reader, writer = await raw_client(port, None)
    writer.write(struct.pack(">IBHB", 4 + len(name), 1, version, len(name)) + name)  # a Hello, unchecked
    return await disconnect_reason(reader)


async def same_name(port):
    await asyncio.sleep(0.5)
    try:
        await Connection.open("127.0.0.1", port, "honest")
    except ServerRefused as refusal:
        return str(refusal)
    return ""


@pytest.mark.slow
def test_hostile_clients_are_each_cut_with_a_reason_while_an_honest_client_plays_on(session, monkeypatch):
    log = []
    monkeypatch.setattr(hub_module, "column_message", columns_in_full)

    async def scenario():
        async with serving(session, HOSTILE_LIMITS, log) as (server, port):
            honest = asyncio.create_task(play("127.0.0.1", port, "honest", WALK, 100))
            await asyncio.sleep(0.2)
            reasons = await asyncio.gather(garbage(port), oversized(port), half_frame(port), flood(port),
                                           chat_flood(port), never_reads(port, log), same_name(port),
                                           bad_hello(port, 99, b"old"), bad_hello(port, PROTOCOL_VERSION, b"\x1b[31m"))
            return await honest, reasons, list(server.tick_times), server.dropped_ticks

    report, reasons, tick_times, dropped = run(scenario())
    assert reasons[0] == "bad message: unknown message type 254"
    assert reasons[1] == "bad message: a frame of 50000000 bytes is over the limit of 1024"
    assert reasons[2] == "timed out in the middle of a message"
    assert reasons[3] == "too many messages (more than 40 in a tick)"
    assert reasons[4] == "chat too fast (more than 5 lines in 100 ticks)"
    assert reasons[5].startswith("deaf left: not reading (more than 32768 bytes waiting to be sent)")
    assert reasons[6] == "a player named honest is already playing"
    assert reasons[7] == f"this server speaks protocol {PROTOCOL_VERSION}, the client 99"
    assert reasons[8].startswith("bad message: bad name: a player name is 1..16 letters, digits or underscores")
    assert report["ticks_run"] == 100 and report["name"] == "honest"
    assert report["input_tick"] == report["start_tick"] + WALK[-1].tick
    assert max(tick_times) < 1.0  # bounded: a hostile client costs the tick nothing it could not afford


def test_a_server_behind_its_clock_catches_up_a_bounded_number_of_ticks_and_says_so(session):
    log = []
    original_tick = session.tick
    slow = [True]

    def tick_once_slowly():
        if slow and session.ticks_run == 3:
            slow.clear()
            import time
            time.sleep(0.6)  # 12 ticks' worth: the loop falls behind once
        return original_tick()

    session.tick = tick_once_slowly
    limits = ServerLimits(max_catch_up_ticks=3)

    async def scenario():
        async with serving(session, limits, log) as (server, _):
            while session.ticks_run < 12:
                await asyncio.sleep(0.05)
            return server.dropped_ticks

    dropped = run(scenario())
    behind = [line for line in log if "ticks behind" in line]
    assert behind and all(": ran 3, dropped " in line for line in behind)
    assert dropped == sum(int(line.rpartition("dropped ")[2]) for line in behind) >= 8
