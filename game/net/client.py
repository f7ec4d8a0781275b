"""A headless Boxel client: connect, handshake, send input events, keep a copy of what the server sends.

Owns: `ClientWorld` (the client's copy of the world: the columns it holds, the bodies it sees, every
other player it has seen and where, the time of day, chat, its own player's authoritative state
from the latest `Ack`, and `edited_blocks`, what differs from the seed's terrain), `Connection`
(asyncio streams: `open` does the handshake and raises `ServerRefused` with the server's reason),
and `play`, which plays replay events on a server for a number of ticks and reports (the
`--connect --headless` run and the tests' bots).
No prediction yet: the player's state is the server's. Never imports Ursina or Panda3D.
Does not own: the wire format (`game.net.protocol`), the rules (the server runs them), the command line.
"""

from __future__ import annotations

import asyncio
import dataclasses
import zlib
from collections.abc import Sequence

import numpy as np

from ..rules.replay import Event
from ..world.blocks import block_name
from ..world.column import Column, ColumnDataError
from ..world.coords import CHUNK_SIZE
from ..world.terrain import Terrain
from .protocol import (HEADER_BYTES, MAX_FRAME_BYTES, PROTOCOL_VERSION, SERVER_MESSAGES, Ack, Chat, ColumnData,
                       Disconnect, ForgetColumn, Hello, Input, Message, PlayerState, ProtocolError, TickUpdate,
                       Welcome, body_length, decode, encode)

INPUT_LEAD_TICKS = 2
"""[ticks] A replay's tick 0 is stamped this many ticks after the server's tick at the handshake,
so its first inputs arrive before that tick runs on loopback."""
MAX_COLUMN_RAW_BYTES = 2 + 16 * 16 * 16 * 16 * 2
"""[bytes] A column's byte form at most (mask and 16 full sections): a compressed column that
inflates past this is refused."""


class ServerRefused(ConnectionError):
    """The server ended the connection (or refused it) with a reason, which is the message."""


class ClientWorld:
    """What a client knows of the server's world (see the module docstring)."""

    def __init__(self, welcome: Welcome) -> None:
        self.name = welcome.name
        self.seed = welcome.seed
        self.tick = welcome.tick - 1
        """The latest tick the server reported."""
        self.day_time = welcome.day_time
        self.columns: dict[tuple[int, int], np.ndarray] = {}
        """(cx, cz) -> (16, 256, 16) uint16 ids [x, y, z]."""
        self.bodies: dict[str, tuple] = {}
        """Visible bodies by key -> (kind, box, velocity)."""
        self.players_seen: dict[str, tuple[float, float, float]] = {}
        """Every other player seen, by name -> feet [blocks] where last seen."""
        self.state: PlayerState | None = None
        self.input_tick = -1
        self.chat: list[tuple[str, str]] = []
        self.sounds = 0
        """Sounds heard (counted)."""

    def apply(self, message: Message) -> None:
        """Take one server message into the copy; ProtocolError for a column that is not one."""
        if isinstance(message, TickUpdate):
            self.tick, self.day_time = message.tick, message.day_time
            for edit in message.blocks:
                column = self.columns.get((edit.x // CHUNK_SIZE, edit.z // CHUNK_SIZE))
                if column is not None:
                    column[edit.x % CHUNK_SIZE, edit.y, edit.z % CHUNK_SIZE] = edit.block
            for body in message.bodies:
                if body.change == "gone":
                    self.bodies.pop(body.key, None)
                else:
                    self.bodies[body.key] = (body.kind, body.box, body.velocity)
                if body.kind == "player":
                    x0, y0, z0, x1, _, z1 = body.box
                    self.players_seen[body.key.removeprefix("player:")] = ((x0 + x1) / 2, y0, (z0 + z1) / 2)
            self.sounds += len(message.sounds)
        elif isinstance(message, Ack):
            self.state, self.input_tick = message.state, message.input_tick
        elif isinstance(message, ColumnData):
            self.columns[(message.cx, message.cz)] = column_ids(message.data)
        elif isinstance(message, ForgetColumn):
            self.columns.pop((message.cx, message.cz), None)
        elif isinstance(message, Chat):
            self.chat.append((message.sender, message.text))

    def block(self, x: int, y: int, z: int) -> int | None:
        """The id at (x, y, z), None in a column the client does not hold."""
        column = self.columns.get((x // CHUNK_SIZE, z // CHUNK_SIZE))
        return None if column is None or not 0 <= y < 256 else int(column[x % CHUNK_SIZE, y, z % CHUNK_SIZE])

    def edited_blocks(self) -> list[list]:
        """Every block that differs from the seed's terrain in the columns held: [x, y, z, name], sorted."""
        terrain = Terrain(self.seed)
        found = []
        for (cx, cz), ids in sorted(self.columns.items()):
            for lx, y, lz in np.argwhere(ids != terrain.column(cx, cz)):
                x, z = cx * CHUNK_SIZE + int(lx), cz * CHUNK_SIZE + int(lz)
                found.append([x, int(y), z, block_name(int(ids[lx, y, lz]))])
        return sorted(found)


def column_ids(data: bytes) -> np.ndarray:
    """The ids of a compressed column; ProtocolError when it does not inflate to one."""
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(data, MAX_COLUMN_RAW_BYTES)
        if inflater.unconsumed_tail:
            raise ProtocolError(f"a column inflates past {MAX_COLUMN_RAW_BYTES} bytes")
        return Column.from_bytes(raw).ids()
    except (zlib.error, ColumnDataError) as error:
        raise ProtocolError(f"bad column data: {error}") from None


class Connection:
    """One connection to a server (asyncio streams)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, welcome: Welcome) -> None:
        self.reader, self.writer, self.welcome = reader, writer, welcome
        self.bytes_received = 0
        self.bytes_sent = 0

    @classmethod
    async def open(cls, host: str, port: int, name: str, *, timeout: float = 10.0) -> Connection:
        """Connect and handshake; ServerRefused with the server's reason, OSError, TimeoutError."""
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
        writer.write(encode(Hello(PROTOCOL_VERSION, name)))
        connection = cls(reader, writer, None)
        try:
            first = await asyncio.wait_for(connection.receive(), timeout)
        except BaseException:
            writer.close()
            raise
        if not isinstance(first, Welcome):
            writer.close()
            raise ProtocolError(f"the server answered the handshake with {type(first).__name__}")
        connection.welcome = first
        return connection

    def send(self, message: Message) -> None:
        frame = encode(message)
        self.bytes_sent += len(frame)
        self.writer.write(frame)

    async def receive(self) -> Message:
        """The next message; ServerRefused for a Disconnect, IncompleteReadError when the server closed."""
        header = await self.reader.readexactly(HEADER_BYTES)
        body = await self.reader.readexactly(body_length(header, MAX_FRAME_BYTES))
        self.bytes_received += HEADER_BYTES + len(body)
        message = decode(body, SERVER_MESSAGES)
        if isinstance(message, Disconnect):
            raise ServerRefused(message.reason)
        return message

    async def close(self) -> None:
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass


async def play(host: str, port: int, name: str, events: Sequence[Event], ticks: int, *,
               timeout: float = 60.0) -> dict:
    """Join as `name`, send `events` (a replay: tick 0 is the first tick after joining) stamped
    with server ticks, stay for `ticks` ticks, and return the report. ServerRefused when the
    server refuses or cuts the connection."""
    connection = await Connection.open(host, port, name, timeout=timeout)
    world = ClientWorld(connection.welcome)
    start = connection.welcome.tick + INPUT_LEAD_TICKS
    queue = list(events)
    sent = 0
    last = start + ticks - 1
    try:
        async with asyncio.timeout(timeout):
            while world.state is None or world.tick < last:
                while sent < len(queue) and start + queue[sent].tick <= world.tick + 1 + INPUT_LEAD_TICKS:
                    event = queue[sent]
                    connection.send(Input(dataclasses.replace(event, tick=start + event.tick)))
                    sent += 1
                world.apply(await connection.receive())
    finally:
        await connection.close()
    return report(world, connection, start)


def report(world: ClientWorld, connection: Connection, start: int) -> dict:
    """A client run's report: its player's state as the server last sent it, and what it saw."""
    state = world.state
    return {
        "name": world.name,
        "start_tick": start,
        "ticks_run": world.tick + 1 - start,
        "server_tick": world.tick,
        "day_time": world.day_time,
        "feet": list(state.feet),
        "box": list(state.box),
        "velocity": list(state.velocity),
        "yaw": state.yaw,
        "pitch": state.pitch,
        "on_ground": state.on_ground,
        "flying": state.flying,
        "dead": state.dead,
        "health": state.health,
        "input_tick": world.input_tick,
        "players": {name: {"feet": list(feet)} for name, feet in sorted(world.players_seen.items())},
        "edited_blocks": world.edited_blocks(),
        "columns": len(world.columns),
        "chat": [list(line) for line in world.chat],
        "bytes_received": connection.bytes_received,
        "bytes_sent": connection.bytes_sent,
    }
