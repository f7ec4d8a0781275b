"""A client's connection to a server for a program that has its own loop (the window): a socket read
by a thread of its own, the messages handed over in order whenever the loop asks.

Owns: `parse_address` ("HOST:PORT" or "HOST" as the player types it) and `Link`: `open` connects and handshakes (raising `ServerRefused` with the server's reason, or
OSError, TimeoutError, ProtocolError), then a reader thread decodes frames into a queue; `take()`
hands out every message received so far (never waits), `send` writes a message, and `lost` says why
the connection ended (the server's `Disconnect` reason, the server closing, a bad frame), once it has.
The thread only reads bytes and decodes: every message is acted on by the thread that takes it.
Does not own: the wire format (`game.net.protocol`), what the messages mean (`game.net.remote_session`,
`game.net.client`); the asyncio `Connection` of `game.net.client` is the headless client's.
Never imports Ursina or Panda3D.
"""

from __future__ import annotations

import socket
import threading
from collections import deque

from .client import ServerRefused
from .protocol import (MAX_FRAME_BYTES, PROTOCOL_VERSION, SERVER_MESSAGES, Disconnect, FrameDecoder, Hello, Message,
                       ProtocolError, Welcome, encode)

RECEIVE_BYTES = 64 * 1024
"""[bytes] Read at most this much a call: a compressed column is a few KB, a tick's update less."""
CONNECT_TIMEOUT_S = 10.0
"""[s] Longest wait to connect and for the server's answer to the handshake."""
CLOSED_BY_SERVER = "the server closed the connection"
DEFAULT_PORT = 25565
"""A server's port when an address names none (Minecraft's, and `--port`'s default)."""


class Link:
    """One connection to a server (see the module docstring). Make it with `Link.open`."""

    def __init__(self, sock: socket.socket, welcome: Welcome, decoder: FrameDecoder,
                 early: list[Message]) -> None:
        self.welcome = welcome
        self._socket = sock
        self._decoder = decoder
        self._received: deque[Message] = deque(early)
        self._send_lock = threading.Lock()
        self._lost: str | None = None
        self._closed = False
        self.bytes_received = 0
        self.bytes_sent = 0
        self._reader = threading.Thread(target=self._read, name="boxel link", daemon=True)
        self._reader.start()

    @classmethod
    def open(cls, host: str, port: int, name: str, *, timeout: float = CONNECT_TIMEOUT_S) -> Link:
        """Connect to `host`:`port` as `name` and handshake. ServerRefused with the server's reason,
        OSError when it cannot be reached, TimeoutError when it does not answer in `timeout` s,
        ProtocolError when it answers with something else than `Welcome`."""
        sock = socket.create_connection((host, port), timeout=timeout)
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.sendall(encode(Hello(PROTOCOL_VERSION, name)))
            decoder = FrameDecoder(MAX_FRAME_BYTES, SERVER_MESSAGES)
            messages: list[Message] = []
            while not messages:
                data = sock.recv(RECEIVE_BYTES)
                if not data:
                    raise ConnectionError(CLOSED_BY_SERVER)
                messages = decoder.feed(data)
            first, rest = messages[0], messages[1:]
            if isinstance(first, Disconnect):
                raise ServerRefused(first.reason)
            if not isinstance(first, Welcome):
                raise ProtocolError(f"the server answered the handshake with {type(first).__name__}")
            sock.settimeout(None)
        except socket.timeout:
            sock.close()
            raise TimeoutError(f"no answer from {host}:{port} in {timeout:g} s") from None
        except BaseException:
            sock.close()
            raise
        return cls(sock, first, decoder, rest)

    @property
    def lost(self) -> str | None:
        """Why the connection ended (None while it is up)."""
        return self._lost

    def take(self) -> list[Message]:
        """Every message received since the last call, in order (never waits)."""
        taken = []
        while self._received:
            taken.append(self._received.popleft())
        return taken

    def send(self, message: Message) -> None:
        """Send `message`; a connection that is lost or closed drops it (`lost` says why)."""
        if self._lost is not None or self._closed:
            return
        frame = encode(message)
        try:
            with self._send_lock:
                self._socket.sendall(frame)
            self.bytes_sent += len(frame)
        except OSError as error:
            self.lose(f"the connection was lost: {error.strerror or error}")

    def close(self) -> None:
        """Close the connection and wait for the reader (a second call does nothing)."""
        if self._closed:
            return
        self._closed = True
        try:
            self._socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._socket.close()
        self._reader.join(timeout=CONNECT_TIMEOUT_S)

    def lose(self, reason: str) -> None:
        """End the connection's life with `reason` (the first reason given stays)."""
        if self._lost is None:
            self._lost = reason

    def _read(self) -> None:
        """The reader thread: bytes to messages until the server ends, the data is bad or `close`."""
        try:
            while not self._closed:
                data = self._socket.recv(RECEIVE_BYTES)
                if not data:
                    self.lose(CLOSED_BY_SERVER)
                    return
                self.bytes_received += len(data)
                for message in self._decoder.feed(data):
                    if isinstance(message, Disconnect):
                        self.lose(message.reason)
                        return
                    self._received.append(message)
        except ProtocolError as error:
            self.lose(f"the server sent a bad message: {error}")
        except OSError as error:
            if not self._closed:
                self.lose(f"the connection was lost: {error.strerror or error}")


def parse_address(text: str) -> tuple[str, int]:
    """(host, port) of "HOST:PORT" or "HOST" (the default port, 25565); ValueError with a message
    the screen shows otherwise."""
    if not isinstance(text, str):
        raise TypeError(f"an address is text, got {text!r}")
    text = text.strip()
    host, colon, port_text = text.rpartition(":")
    if not colon:
        host, port_text = text, str(DEFAULT_PORT)
    if not host or any(c.isspace() for c in host):
        raise ValueError(f"the address {text!r} is not HOST or HOST:PORT")
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ValueError(f"the port of {text!r} is not a number from 1 to 65535")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]  # an IPv6 address written as in a URL
    return host, int(port_text)
