"""The Boxel server's transport: one asyncio loop, stdlib streams, a `Hub` ticked at 20 Hz.

Owns: listening (`Server.start`: the bound host and port, so port 0 picks a free one), each
connection's life (handshake within a time limit, frames read with a size limit and, once
started, a time limit, so a half-frame left open is cut; every message handed to the hub; a
disconnect always sends its reason first), the tick loop (`Server.run`: 20 Hz from the loop's
clock; behind, it runs at most `max_catch_up_ticks` at once, drops the rest and logs it), sending
each tick's messages and cutting a client that lets `max_send_buffer_bytes` pile up (it is not
reading), and stopping (`Server.stop`: tell every client, save the world and every player).
Nothing a client sends raises out of the loop: a connection's errors end that connection.
Does not own: the rules of who may do what (`game.net.hub`), the wire format (`game.net.protocol`),
the command line or signals (`game.frontends.server`).
"""

from __future__ import annotations

import asyncio
import socket
import sys
import time
from collections import deque
from collections.abc import Callable

from ..rules.clock import TICKS_PER_SECOND
from .hub import Hub, Refused
from .protocol import (CLIENT_MESSAGES, HEADER_BYTES, MAX_CLIENT_FRAME_BYTES, Disconnect, Hello, Message,
                       ProtocolError, body_length, decode, encode)

TICK_SECONDS = 1.0 / TICKS_PER_SECOND
"""[s] One tick: 50 ms."""
KEPT_TICK_TIMES = 1200
"""[ticks] Tick durations kept for `tick_times` (a minute)."""
STOPPING = "the server is stopping"
LINGER_SECONDS = 2.0
"""[s] Between telling a client why it is cut and closing its socket, so the reason reaches it."""
ABORT_BUFFERED_BYTES = 64 * 1024
"""[bytes] A client cut with more than this unsent is not reading: its socket is dropped at once."""


class _Connection:
    """One client's socket: its writer, its player's name once joined, whether it is closing."""

    def __init__(self, writer: asyncio.StreamWriter, address: str) -> None:
        self.writer = writer
        self.address = address
        self.name: str | None = None
        self.closed = False

    def send(self, message: Message) -> None:
        if not self.closed:
            self.writer.write(encode(message))

    @property
    def buffered(self) -> int:
        """[bytes] Written but not yet taken by the socket."""
        return self.writer.transport.get_write_buffer_size()

    def close(self, reason: str) -> None:
        """Send `reason` (best effort) and close; a client that is not reading is cut at once."""
        if self.closed:
            return
        try:
            self.writer.write(encode(Disconnect(reason[:1000])))
        except Exception:
            pass
        self.closed = True
        transport = self.writer.transport
        try:
            if self.buffered > ABORT_BUFFERED_BYTES:
                transport.abort()
            else:  # half-close, then close a moment later: closing a socket with unread input at once
                transport.write_eof()  # resets it, and the client would lose the reason
                asyncio.get_running_loop().call_later(LINGER_SECONDS, transport.close)
        except Exception:
            transport.abort()


class Server:
    """A `Hub` served over TCP (see the module docstring)."""

    def __init__(self, hub: Hub, host: str = "127.0.0.1", port: int = 25565, *,
                 log: Callable[[str], None] | None = None) -> None:
        self.hub = hub
        self.host, self.port = host, port
        self.log = log or (lambda line: print(f"boxel server: {line}", file=sys.stderr, flush=True))
        self._connections: dict[str, _Connection] = {}
        self._open_by_address: dict[str, int] = {}
        self._server: asyncio.base_events.Server | None = None
        self.tick_times: deque[float] = deque(maxlen=KEPT_TICK_TIMES)
        """[s] The latest ticks' durations (the session's and sending), newest last."""
        self.dropped_ticks = 0
        """Ticks skipped because the server fell too far behind."""
        self.bytes_sent: dict[str, int] = {}
        """[bytes] Sent to each player by name (this connection), for measuring."""

    async def start(self) -> tuple[str, int]:
        """Listen; the (host, port) bound (a free port when asked for port 0)."""
        self._server = await asyncio.start_server(self._handle, self.host, self.port)
        host, port = self._server.sockets[0].getsockname()[:2]
        self.port = port
        return host, port

    # --- connections -------------------------------------------------------------------------

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.hub.limits.socket_send_buffer_bytes)
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        connection = _Connection(writer, address)
        self._open_by_address[address] = self._open_by_address.get(address, 0) + 1
        reason = "connection closed"
        try:
            if self._open_by_address[address] > self.hub.limits.connections_per_address + 1:
                reason = f"too many connections from {address}"  # one more may be handshaking
                return
            reason = await self._serve(reader, connection)
        except ProtocolError as error:
            reason = f"bad message: {error}"
        except asyncio.TimeoutError:
            reason = "timed out in the middle of a message"
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            reason = "connection closed"
        except asyncio.CancelledError:
            reason = STOPPING
            raise
        except Exception as error:  # nothing a client sends may raise out of the loop
            reason = f"server error while reading your messages ({type(error).__name__})"
            self.log(f"error serving {connection.name or address}: {error!r}")
        finally:
            self._open_by_address[address] -= 1
            self._drop(connection, reason)

    async def _serve(self, reader: asyncio.StreamReader, connection: _Connection) -> str:
        limits = self.hub.limits
        try:
            hello = await asyncio.wait_for(self._read(reader), limits.handshake_seconds)
        except asyncio.TimeoutError:
            return f"no handshake within {limits.handshake_seconds:g} s"
        if not isinstance(hello, Hello):
            return f"the first message must be Hello, got {type(hello).__name__}"
        try:
            welcome = self.hub.admit(hello, connection.address)
        except Refused as refusal:
            return str(refusal)
        connection.name = hello.name
        self._connections[hello.name] = connection
        self.bytes_sent[hello.name] = 0
        connection.send(welcome)
        while not connection.closed:
            message = await self._read(reader)
            if connection.closed:
                break
            reason = self.hub.receive(hello.name, message)
            if reason is not None:
                return reason
        return "disconnected"

    async def _read(self, reader: asyncio.StreamReader) -> Message:
        """The next message: waits as long as it takes for a frame to start, then at most
        `frame_seconds` for the rest of it (TimeoutError)."""
        first = await reader.readexactly(1)
        seconds = self.hub.limits.frame_seconds
        header = first + await asyncio.wait_for(reader.readexactly(HEADER_BYTES - 1), seconds)
        length = body_length(header, MAX_CLIENT_FRAME_BYTES)
        body = await asyncio.wait_for(reader.readexactly(length), seconds)
        return decode(body, CLIENT_MESSAGES)

    def _drop(self, connection: _Connection, reason: str) -> None:
        """Close `connection` with `reason`; its player leaves (and is saved) if it had joined."""
        connection.close(reason)
        name = connection.name
        if name is not None and self._connections.get(name) is connection:
            del self._connections[name]
            self.hub.leave(name, reason)
        elif name is None and reason not in ("connection closed", STOPPING):
            self.log(f"refused {connection.address}: {reason}")
        self._flush_log()

    def disconnect(self, name: str, reason: str) -> None:
        """Cut player `name` with `reason` (it leaves and is saved)."""
        connection = self._connections.get(name)
        if connection is not None:
            self._drop(connection, reason)

    # --- ticks ---------------------------------------------------------------------------------

    def tick(self) -> None:
        """One tick: the hub's, then each client's messages; cut the clients that broke a limit."""
        started = time.perf_counter()
        try:
            outgoing = self.hub.tick()
        finally:
            self._flush_log()
        for name, reason in self.hub.failed.items():
            self.disconnect(name, reason)
        limit = self.hub.limits.max_send_buffer_bytes
        for name, messages in outgoing.items():
            connection = self._connections.get(name)
            if connection is None or connection.closed:
                continue
            frames = b"".join(self._encoded(name, messages))
            connection.writer.write(frames)
            self.bytes_sent[name] = self.bytes_sent.get(name, 0) + len(frames)
            if connection.buffered > limit:
                self.disconnect(name, f"not reading (more than {limit} bytes waiting to be sent)")
        self.tick_times.append(time.perf_counter() - started)

    def _encoded(self, name: str, messages: list[Message]):
        """Each message's frame; one the wire cannot carry (a notice too long) is logged and left out."""
        for message in messages:
            try:
                yield encode(message)
            except ProtocolError as error:
                self.log(f"not sent to {name}: {type(message).__name__} ({error})")

    async def run(self, should_stop: Callable[[], bool]) -> None:
        """Tick at 20 Hz until `should_stop()` is true (checked at least every tick), then `stop`."""
        loop = asyncio.get_running_loop()
        catch_up = self.hub.limits.max_catch_up_ticks
        next_at = loop.time()
        try:
            while not should_stop():
                now = loop.time()
                if now < next_at:
                    await asyncio.sleep(next_at - now)
                    continue
                due = int((now - next_at) / TICK_SECONDS) + 1
                for _ in range(min(due, catch_up)):
                    self.tick()
                next_at += min(due, catch_up) * TICK_SECONDS
                if due > catch_up:
                    self.dropped_ticks += due - catch_up
                    self.log(f"{due} ticks behind: ran {catch_up}, dropped {due - catch_up}")
                    next_at = loop.time() + TICK_SECONDS
                await asyncio.sleep(0)  # let the connections read between ticks
        finally:
            await self.stop()

    async def stop(self) -> None:
        """Stop listening, tell every client, save the world and every player by name."""
        if self._server is not None:
            self._server.close()
        for connection in list(self._connections.values()):
            connection.close(STOPPING)
        self.hub.save()
        self.log(f"saved {self.hub.session.world.path} with {len(self.hub.session.players)} players")
        self._connections.clear()

    def _flush_log(self) -> None:
        for line in self.hub.log:
            self.log(line)
        self.hub.log.clear()
