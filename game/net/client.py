"""A headless Boxel client: connect, handshake, send input events, keep a copy of what the server sends.

Owns: `ClientWorld` (the client's copy of the world: the columns it holds, the bodies it sees (boxes
rebuilt from the server's `BodyMove`s: short ids, 1/32 block), every other player it has seen and
where, the time of day, chat, its own player's exact authoritative state from the latest `Ack` or
`AckDelta`, and `edited_blocks`, what differs from the seed's terrain), `Connection`
(asyncio streams: `open` does the handshake and raises `ServerRefused` with the server's reason),
and `play`, which plays replay events on a server for a number of ticks and reports (the
`--connect --headless` run and the tests' bots).
`PredictingClient` (sans-I/O) adds the prediction (`game.net.prediction`): it takes each server
message and answers the inputs to send, stamped `lead_ticks` ahead of the latest server tick heard,
each applied to the predicted player at its tick. Never imports Ursina or Panda3D.
Does not own: the wire format (`game.net.protocol`), the rules (the server runs them), the command line.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence

import numpy as np

from ..rules.replay import Event
from ..world.blocks import block_name
from ..world.coords import CHUNK_SIZE
from ..world.terrain import Terrain
from .column_wire import column_ids_of
from .prediction import Prediction
from .hub import BODY_UPDATE_TICKS
from .protocol import (HEADER_BYTES, MAX_FRAME_BYTES, POSITION_UNITS, PROTOCOL_VERSION, SERVER_MESSAGES,
                       VELOCITY_UNITS, Ack, AckDelta, BodyMove, Chat, ColumnData, Disconnect, ForgetColumn, Hello,
                       Input, Message, PlayerState, ProtocolError, TickUpdate, Welcome, body_length, box_of, decode,
                       encode)

INPUT_LEAD_TICKS = 6
"""[ticks] Inputs are stamped this many ticks after the latest server tick the client has heard
(and a replay's tick 0 this many after the server's tick at the handshake), so they reach the server
before their tick runs over a round trip of up to ~250 ms (4 ticks there and back, and 2 to spare
for jitter); the predicted player answers at once whatever the lead."""


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
        """Visible bodies by key -> (kind, box, velocity) [blocks, blocks/tick], as the wire carries
        them (1/32 block)."""
        self._ids: dict[int, list] = {}
        """Visible bodies by their short id -> [key, kind, size, feet] (fixed point, `BodyMove`)."""
        self.players_seen: dict[str, tuple[float, float, float]] = {}
        """Every other player seen, by name -> feet [blocks] where last seen."""
        self.state: PlayerState | None = None
        self.input_tick = -1
        self.chat: list[tuple[str, str]] = []
        self.sounds = 0
        """Sounds heard (counted)."""
        self._terrain: Terrain | None = None
        """The seed's terrain, made for the first "seed" column."""

    def apply(self, message: Message) -> None:
        """Take one server message into the copy; ProtocolError for a column that is not one."""
        if isinstance(message, TickUpdate):
            self.tick, self.day_time = message.tick, message.day_time
            for edit in message.blocks:
                column = self.columns.get((edit.x // CHUNK_SIZE, edit.z // CHUNK_SIZE))
                if column is not None:
                    column[edit.x % CHUNK_SIZE, edit.y, edit.z % CHUNK_SIZE] = edit.block
            for move in message.bodies:
                self._move(move)
            self.sounds += len(message.sounds)
        elif isinstance(message, (Ack, AckDelta)):
            ack = self.full_ack(message)
            self.state, self.input_tick = ack.state, ack.input_tick
        elif isinstance(message, ColumnData):
            self.columns[(message.cx, message.cz)] = column_ids_of(message, self.generated_column)
        elif isinstance(message, ForgetColumn):
            self.columns.pop((message.cx, message.cz), None)
        elif isinstance(message, Chat):
            self.chat.append((message.sender, message.text))

    def generated_column(self, cx: int, cz: int) -> np.ndarray:
        """Column (cx, cz) as the server's seed generates it (a "seed" `ColumnData`), ~11 ms."""
        if self._terrain is None:
            self._terrain = Terrain(self.seed)
        return self._terrain.column(cx, cz)

    def full_ack(self, message: Ack | AckDelta) -> Ack:
        """The whole `Ack` a server's `Ack` or `AckDelta` (from the last state received) stands for;
        ProtocolError for a delta before any state."""
        if isinstance(message, Ack):
            return message
        if self.state is None:
            raise ProtocolError("an AckDelta before any Ack")
        return message.applied_to(self.state)

    def _move(self, move: BodyMove) -> None:
        """Take one body's move (`BodyMove`: its id names it from its "appeared" to its "gone")."""
        if move.change == "appeared":
            self._ids[move.id] = [move.key, move.kind, move.size, move.at]
            velocity = tuple(v / VELOCITY_UNITS for v in move.velocity)
        else:
            known = self._ids.get(move.id)
            if known is None:
                raise ProtocolError(f"a body move for id {move.id}, which never appeared")
            if move.change == "gone":
                del self._ids[move.id]
                self.bodies.pop(known[0], None)
                return
            if move.change == "moved":
                known[3] = move.at
                velocity = tuple(v / VELOCITY_UNITS for v in move.velocity)
            else:  # stepped: the velocity is the step's, spread over the ticks between updates
                known[3] = tuple(a + d for a, d in zip(known[3], move.at))
                velocity = tuple(d / POSITION_UNITS / BODY_UPDATE_TICKS for d in move.at)
        key, kind, size, at = self._ids[move.id]
        box = box_of(at, size)
        self.bodies[key] = (kind, box, velocity)
        if kind == "player":
            self.players_seen[key.removeprefix("player:")] = (at[0] / POSITION_UNITS, at[1] / POSITION_UNITS,
                                                              at[2] / POSITION_UNITS)

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


class PredictingClient:
    """A client's mind without its sockets: `receive(message)` takes one server message into the
    world's copy and the prediction, and returns the `Input`s to send now: the replay's events for
    every tick up to `lead_ticks` after the latest server tick heard, each predicted as it is sent.
    A replay's tick 0 is `start`, `lead_ticks` after the server's tick at the handshake."""

    def __init__(self, welcome: Welcome, events: Sequence[Event] = (), lead_ticks: int = INPUT_LEAD_TICKS) -> None:
        if isinstance(lead_ticks, bool) or not isinstance(lead_ticks, int) or lead_ticks < 1:
            raise ValueError(f"lead_ticks is an int >= 1, got {lead_ticks!r}")
        self.world = ClientWorld(welcome)
        self.prediction = Prediction(welcome)
        self.lead_ticks = lead_ticks
        self.start = welcome.tick + lead_ticks
        self._events = sorted(events, key=lambda event: event.tick)  # stable: same-tick events keep order
        self._sent = 0

    @property
    def corrections(self) -> int:
        return self.prediction.corrections

    def receive(self, message: Message) -> list[Input]:
        world, prediction = self.world, self.prediction
        if isinstance(message, AckDelta):
            message = world.full_ack(message)
        world.apply(message)
        if isinstance(message, ColumnData):
            prediction.world.set_column(message.cx, message.cz, world.columns[message.cx, message.cz])
        elif isinstance(message, ForgetColumn):
            prediction.world.forget_column(message.cx, message.cz)
        elif isinstance(message, TickUpdate):
            for edit in message.blocks:
                prediction.world.set_id(edit.x, edit.y, edit.z, edit.block)
        elif isinstance(message, Ack):
            prediction.acknowledge(message)
            return self._advance()
        return []

    def _advance(self) -> list[Input]:
        """Predict every tick up to `lead_ticks` after the server's latest, sending its events."""
        prediction, events = self.prediction, self._events
        inputs = []
        while prediction.next_tick <= self.world.tick + self.lead_ticks:
            tick = prediction.next_tick
            due = []
            while self._sent < len(events) and self.start + events[self._sent].tick <= tick:
                due.append(dataclasses.replace(events[self._sent], tick=tick))
                self._sent += 1
            inputs.extend(Input(event) for event in due)
            prediction.step(due)
        return inputs


async def play(host: str, port: int, name: str, events: Sequence[Event], ticks: int, *,
               timeout: float = 60.0, lead_ticks: int = INPUT_LEAD_TICKS) -> dict:
    """Join as `name`, play `events` (a replay: tick 0 is `lead_ticks` after the server's tick at the
    handshake) on the predicted player and the server, stay for `ticks` ticks, and return the
    report. ServerRefused when the server refuses or cuts the connection."""
    connection = await Connection.open(host, port, name, timeout=timeout)
    client = PredictingClient(connection.welcome, events, lead_ticks)
    last = client.start + ticks - 1
    try:
        async with asyncio.timeout(timeout):
            while client.world.state is None or client.world.tick < last:
                for message in client.receive(await connection.receive()):
                    connection.send(message)
    finally:
        await connection.close()
    return report(client.world, connection, client.start, client.corrections)


def report(world: ClientWorld, connection: Connection, start: int, corrections: int = 0) -> dict:
    """A client run's report: its player's state as the server last sent it, what it saw, and the
    corrections its prediction needed."""
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
        "corrections": corrections,
        "players": {name: {"feet": list(feet)} for name, feet in sorted(world.players_seen.items())},
        "edited_blocks": world.edited_blocks(),
        "columns": len(world.columns),
        "chat": [list(line) for line in world.chat],
        "bytes_received": connection.bytes_received,
        "bytes_sent": connection.bytes_sent,
    }
