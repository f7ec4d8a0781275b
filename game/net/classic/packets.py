"""The Minecraft Classic protocol 7 wire format, with the CPE packets Boxel speaks: no sockets.

Owns: one frozen value type per packet (the 4 client-to-server and 16 server-to-client packets of
protocol 7, and the CPE packets of ExtInfo/ExtEntry negotiation, CustomBlocks, HeldBlock,
ExtPlayerList, TwoWayPing and BlockDefinitions), `encode` (a packet to its bytes) and
`PacketReader` (bytes fed in any pieces to whole client packets, sans-I/O as h11 is). Every packet
has a fixed size given by its id; strings are 64 bytes of space-padded ASCII; positions are
shorts in 1/32 block (ints with ExtEntityPositions, `extended` below), angles a byte of 1/256 turn.
Bad input (an unknown id, a non-ASCII string, a value out of its field's range) is a
`ClassicProtocolError`, never another exception.
Does not own: what a packet means to the game (`game.net.classic.gateway`), the block ids
(`game.net.classic.blocks`) or the level's bytes (`game.net.classic.level`).
"""

from __future__ import annotations

import dataclasses
import struct
from dataclasses import dataclass
from typing import ClassVar

PROTOCOL_VERSION = 7
"""Classic 0.30c."""
CPE_MAGIC = 0x42
"""The last byte of a client's identification when it speaks CPE."""
STRING_BYTES = 64
"""[bytes] Every Classic string: ASCII, padded with spaces."""
CHUNK_BYTES = 1024
"""[bytes] The level's data field in one LevelDataChunk (zero-padded)."""
UNITS_PER_BLOCK = 32
"""Positions are fixed point with 5 fractional bits: 1/32 block."""
SELF_ID = 255
"""The entity id of a client's own player in a position packet (-1 as a signed byte)."""


class ClassicProtocolError(ValueError):
    """Bytes that are not a Classic packet, or a value a field cannot carry."""


# --- field kinds ---------------------------------------------------------------------------------
# Each field is (name, kind); a kind is a struct code, "s" (a 64-byte string), "a" (1024 bytes of
# level data with its length) or "p" (a coordinate: a short, or an int with extended positions).

_CODES = {"B": (0, 255), "b": (-128, 127), "h": (-32768, 32767), "H": (0, 65535), "i": (-2 ** 31, 2 ** 31 - 1)}


def _struct_of(fields: tuple, extended: bool) -> str:
    parts = []
    for _, kind in fields:
        if kind == "s":
            parts.append(f"{STRING_BYTES}s")
        elif kind == "a":
            parts.append(f"h{CHUNK_BYTES}s")
        elif kind == "p":
            parts.append("i" if extended else "h")
        else:
            parts.append(kind)
    return ">B" + "".join(parts)


def text_bytes(text: str) -> bytes:
    """`text` as a Classic string field: ASCII, padded with spaces to 64 bytes. ClassicProtocolError
    for text that is not printable ASCII or longer than 64 characters."""
    if not isinstance(text, str):
        raise ClassicProtocolError(f"a Classic string is a str, got {text!r}")
    if len(text) > STRING_BYTES or any(not 32 <= ord(ch) < 127 for ch in text):
        raise ClassicProtocolError(f"a Classic string is at most {STRING_BYTES} printable ASCII characters, got {text!r}")
    return text.encode("ascii").ljust(STRING_BYTES, b" ")


def text_of(raw: bytes) -> str:
    """A Classic string field's text (trailing spaces removed). ClassicProtocolError for bytes that
    are not ASCII (control characters other than a space count as bad)."""
    if any(not 32 <= byte < 127 for byte in raw):
        raise ClassicProtocolError(f"a Classic string holds printable ASCII only, got {raw!r}")
    return raw.decode("ascii").rstrip(" ")


# --- the packets ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Packet:
    """A Classic packet; subclasses name their `ID` and `FIELDS`."""

    ID: ClassVar[int] = -1
    FIELDS: ClassVar[tuple] = ()


def _packet(packet_id: int, fields: tuple):
    def decorate(cls):
        cls.ID = packet_id
        cls.FIELDS = fields
        return dataclass(frozen=True)(cls)
    return decorate


# client -> server (protocol 7)

@_packet(0x00, (("version", "B"), ("name", "s"), ("key", "s"), ("magic", "B")))
class PlayerIdentification(Packet):
    version: int
    name: str
    key: str
    magic: int
    """CPE_MAGIC when the client speaks CPE, 0 otherwise."""


@_packet(0x05, (("x", "h"), ("y", "h"), ("z", "h"), ("mode", "B"), ("block", "B")))
class SetBlockClient(Packet):
    x: int
    y: int
    z: int
    mode: int
    """1: placed, 0: destroyed."""
    block: int


@_packet(0x08, (("player_id", "B"), ("x", "p"), ("y", "p"), ("z", "p"), ("yaw", "B"), ("pitch", "B")))
class PositionOrientation(Packet):
    """Both ways: a client's own position (player id 255; CPE HeldBlock puts the held block there),
    or the server's teleport of an entity. x, y, z in 1/32 block, y at the eye."""

    player_id: int
    x: int
    y: int
    z: int
    yaw: int
    pitch: int


@_packet(0x0D, (("player_id", "B"), ("text", "s")))
class Message(Packet):
    """Both ways: a line of chat (from a client the id is unused, 0xFF)."""

    player_id: int
    text: str


# server -> client (protocol 7)

@_packet(0x00, (("version", "B"), ("name", "s"), ("motd", "s"), ("user_type", "B")))
class ServerIdentification(Packet):
    version: int
    name: str
    motd: str
    user_type: int
    """0: a player, 0x64: an operator (may place bedrock)."""


@_packet(0x01, ())
class Ping(Packet):
    pass


@_packet(0x02, ())
class LevelInitialize(Packet):
    pass


@_packet(0x03, (("data", "a"), ("percent", "B")))
class LevelDataChunk(Packet):
    data: bytes
    """Up to CHUNK_BYTES of the gzipped level."""
    percent: int


@_packet(0x04, (("width", "h"), ("height", "h"), ("depth", "h")))
class LevelFinalize(Packet):
    width: int
    height: int
    depth: int


@_packet(0x06, (("x", "h"), ("y", "h"), ("z", "h"), ("block", "B")))
class SetBlock(Packet):
    x: int
    y: int
    z: int
    block: int


@_packet(0x07, (("player_id", "b"), ("name", "s"), ("x", "p"), ("y", "p"), ("z", "p"), ("yaw", "B"), ("pitch", "B")))
class SpawnPlayer(Packet):
    player_id: int
    name: str
    x: int
    y: int
    z: int
    yaw: int
    pitch: int


@_packet(0x09, (("player_id", "b"), ("dx", "b"), ("dy", "b"), ("dz", "b"), ("yaw", "B"), ("pitch", "B")))
class PositionOrientationUpdate(Packet):
    player_id: int
    dx: int
    dy: int
    dz: int
    yaw: int
    pitch: int


@_packet(0x0A, (("player_id", "b"), ("dx", "b"), ("dy", "b"), ("dz", "b")))
class PositionUpdate(Packet):
    player_id: int
    dx: int
    dy: int
    dz: int


@_packet(0x0B, (("player_id", "b"), ("yaw", "B"), ("pitch", "B")))
class OrientationUpdate(Packet):
    player_id: int
    yaw: int
    pitch: int


@_packet(0x0C, (("player_id", "b"),))
class DespawnPlayer(Packet):
    player_id: int


@_packet(0x0E, (("reason", "s"),))
class DisconnectPlayer(Packet):
    reason: str


@_packet(0x0F, (("user_type", "B"),))
class UpdateUserType(Packet):
    user_type: int


# CPE (both ways unless said)

@_packet(0x10, (("app_name", "s"), ("count", "h")))
class ExtInfo(Packet):
    app_name: str
    count: int


@_packet(0x11, (("name", "s"), ("version", "i")))
class ExtEntry(Packet):
    name: str
    version: int


@_packet(0x13, (("level", "B"),))
class CustomBlockSupportLevel(Packet):
    level: int


@_packet(0x14, (("block", "B"), ("prevent_change", "B")))
class HoldThis(Packet):
    block: int
    prevent_change: int


@_packet(0x16, (("name_id", "h"), ("player_name", "s"), ("list_name", "s"), ("group_name", "s"), ("group_rank", "B")))
class ExtAddPlayerName(Packet):
    name_id: int
    player_name: str
    list_name: str
    group_name: str
    group_rank: int


@_packet(0x18, (("name_id", "h"),))
class ExtRemovePlayerName(Packet):
    name_id: int


@_packet(0x21, (("entity_id", "b"), ("name", "s"), ("skin", "s"), ("x", "p"), ("y", "p"), ("z", "p"),
                ("yaw", "B"), ("pitch", "B")))
class ExtAddEntity2(Packet):
    entity_id: int
    name: str
    skin: str
    x: int
    y: int
    z: int
    yaw: int
    pitch: int


@_packet(0x23, (("block", "B"), ("name", "s"), ("solidity", "B"), ("speed", "B"), ("top", "B"), ("side", "B"),
                ("bottom", "B"), ("transmits_light", "B"), ("walk_sound", "B"), ("full_bright", "B"),
                ("shape", "B"), ("draw", "B"), ("fog_density", "B"), ("fog_r", "B"), ("fog_g", "B"), ("fog_b", "B")))
class DefineBlock(Packet):
    block: int
    name: str
    solidity: int
    """0: walked through, 1: swum through, 2: solid."""
    speed: int
    """128: normal walking speed."""
    top: int
    side: int
    bottom: int
    """Texture ids in terrain.png."""
    transmits_light: int
    walk_sound: int
    full_bright: int
    shape: int
    """0: a sprite (two crossed planes), 1..16: a box this many sixteenths tall."""
    draw: int
    """0 opaque, 1 transparent, 2 transparent unculled, 3 translucent, 4 gas."""
    fog_density: int
    fog_r: int
    fog_g: int
    fog_b: int


@_packet(0x2B, (("direction", "B"), ("data", "H")))
class TwoWayPing(Packet):
    direction: int
    """0: the client asks (the server echoes), 1: the server asks (the client echoes)."""
    data: int


CLIENT_PACKETS = (PlayerIdentification, SetBlockClient, PositionOrientation, Message,
                  ExtInfo, ExtEntry, CustomBlockSupportLevel, TwoWayPing)
"""What a client may send: protocol 7's four, and the CPE ones Boxel negotiates."""
SERVER_PACKETS = (ServerIdentification, Ping, LevelInitialize, LevelDataChunk, LevelFinalize, SetBlock,
                  SpawnPlayer, PositionOrientation, PositionOrientationUpdate, PositionUpdate, OrientationUpdate,
                  DespawnPlayer, Message, DisconnectPlayer, UpdateUserType,
                  ExtInfo, ExtEntry, CustomBlockSupportLevel, HoldThis, ExtAddPlayerName, ExtRemovePlayerName,
                  ExtAddEntity2, DefineBlock, TwoWayPing)
"""What the server sends: protocol 7's sixteen (the teleport and chat share ids with the client's), and CPE's."""
EXTENDED_POSITION_PACKETS = frozenset({PositionOrientation, SpawnPlayer, ExtAddEntity2})
"""The packets whose coordinates are ints instead of shorts with ExtEntityPositions."""


def packet_size(cls: type[Packet], extended: bool = False) -> int:
    """[bytes] The whole packet `cls`, its id byte included."""
    return struct.calcsize(_struct_of(cls.FIELDS, extended))


_LAYOUTS: dict = {}
"""(packet class, extended) -> (struct.Struct, ((name, kind, (low, high) or None), ...)): made once each."""


def _layout(cls: type[Packet], extended: bool):
    layout = _LAYOUTS.get((cls, extended))
    if layout is None:
        fields = tuple((name, kind, None if kind in "sa" else _CODES[("i" if extended else "h") if kind == "p" else kind])
                       for name, kind in cls.FIELDS)
        layout = _LAYOUTS[(cls, extended)] = (struct.Struct(_struct_of(cls.FIELDS, extended)), fields)
    return layout


def encode(packet: Packet, extended: bool = False) -> bytes:
    """`packet`'s bytes (coordinates as ints when `extended`: ExtEntityPositions).
    ClassicProtocolError for a value its field cannot carry."""
    if not isinstance(packet, Packet) or type(packet) is Packet:
        raise TypeError(f"not a Classic packet: {packet!r}")
    packer, fields = _layout(type(packet), extended)
    values = []
    for name, kind, limits in fields:
        value = getattr(packet, name)
        if kind == "s":
            values.append(text_bytes(value))
        elif kind == "a":
            if not isinstance(value, (bytes, bytearray)) or len(value) > CHUNK_BYTES:
                raise ClassicProtocolError(f"level data is at most {CHUNK_BYTES} bytes, got {len(value)}")
            values.extend((len(value), bytes(value)))
        else:
            low, high = limits
            if value.__class__ is not int or not low <= value <= high:
                if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                    raise ClassicProtocolError(
                        f"{type(packet).__name__}.{name} must be an int in {low}..{high}, got {value!r}")
            values.append(value)
    return packer.pack(packet.ID, *values)


def decode(cls: type[Packet], data: bytes, extended: bool = False) -> Packet:
    """The packet of kind `cls` in `data` (exactly its size, id byte first). ClassicProtocolError otherwise."""
    layout = _struct_of(cls.FIELDS, extended)
    if len(data) != struct.calcsize(layout) or data[0] != cls.ID:
        raise ClassicProtocolError(f"not a {cls.__name__}: {len(data)} bytes starting {data[:1].hex()}")
    raw = list(struct.unpack(layout, data))[1:]
    values = {}
    for name, kind in cls.FIELDS:
        value = raw.pop(0)
        if kind == "s":
            value = text_of(value)
        elif kind == "a":
            length, payload = value, raw.pop(0)
            if not 0 <= length <= CHUNK_BYTES:
                raise ClassicProtocolError(f"level data length {length} is not 0..{CHUNK_BYTES}")
            value = payload[:length]
        values[name] = value
    return cls(**values)


class PacketReader:
    """Whole packets out of a byte stream fed in pieces (sans-I/O).

    `feed(data)` buffers bytes; `packets()` yields every whole packet buffered, of the kinds in
    `kinds` (by id; CLIENT_PACKETS by default). An unknown id or a bad field raises
    ClassicProtocolError, and the reader is then broken (the connection must be cut)."""

    def __init__(self, kinds: tuple[type[Packet], ...] = CLIENT_PACKETS, extended: bool = False,
                 max_buffered: int = 64 * 1024) -> None:
        self._kinds = {cls.ID: cls for cls in kinds}
        self._buffer = bytearray()
        self.extended = extended
        """Read coordinates as ints (ExtEntityPositions was negotiated)."""
        self.max_buffered = max_buffered
        """[bytes] More unread bytes than this is a flood."""

    def feed(self, data: bytes) -> None:
        self._buffer += data
        if len(self._buffer) > self.max_buffered:
            raise ClassicProtocolError(f"more than {self.max_buffered} bytes sent without being read")

    @property
    def buffered(self) -> int:
        """[bytes] Fed but not yet a whole packet."""
        return len(self._buffer)

    def packets(self):
        """Yield each whole packet buffered, oldest first."""
        while self._buffer:
            cls = self._kinds.get(self._buffer[0])
            if cls is None:
                raise ClassicProtocolError(f"unknown packet id 0x{self._buffer[0]:02x}")
            size = packet_size(cls, self.extended and cls in EXTENDED_POSITION_PACKETS)
            if len(self._buffer) < size:
                return
            data = bytes(self._buffer[:size])
            del self._buffer[:size]
            yield decode(cls, data, self.extended and cls in EXTENDED_POSITION_PACKETS)


def encode_for(packet: Packet, extended: bool) -> bytes:
    """`packet`'s bytes for a client that negotiated ExtEntityPositions (`extended`) or not."""
    return encode(packet, extended and type(packet) in EXTENDED_POSITION_PACKETS)


def fields(packet: Packet) -> dict:
    """`packet`'s fields by name (for logs and tests)."""
    return dataclasses.asdict(packet)
