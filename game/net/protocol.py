"""Boxel's wire protocol: length-prefixed binary frames, one message each (docs/PROTOCOL.md).

Owns: every message as a frozen dataclass, `encode` (a message to its frame), `decode` (a frame's
body to its message), `FrameDecoder` (bytes as they arrive to messages, sans-I/O), the protocol's
version and its hard limits, and `ProtocolError`, the one error every bad input raises (garbage,
truncated or oversized frames, unknown types, non-finite numbers, bad names, trailing bytes).
Pure: the standard library (`struct`, `zlib` is the caller's) and the game's value types; no asyncio,
no sockets. Does not own: what the messages do (`game.net.hub`), sending them (`game.net.server`,
`game.net.client`), or the events themselves (`game.rules.replay`).

A frame is a 4-byte big-endian unsigned body length, then the body: one byte of message type, then
the message's fields in order. Integers are big-endian; floats are IEEE 754 binary64, so a body's
box and velocity cross the wire with exactly the bits the physics made; strings are UTF-8 after
their byte length (1 byte for names and keys, 2 for text).
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field, fields
from typing import ClassVar

from physics import AABB, Body
from physics.materials import Material

from ..rules.replay import (CLICK_BUTTONS, Click, Event, KeyDown, KeyUp, Look, PutInSlot, Release, SetDayTime,
                            SetPeaceful)
from ..rules.sounds import SOUND_NAMES
from ..rules.tick_changes import BODY_CHANGES, BODY_KINDS
from ..world.player_names import check_player_name

PROTOCOL_VERSION = 3
"""Sent in `Hello` and `Welcome`; a server refuses any other (a changed message layout bumps it).
2: `Ack` carries the whole body (prediction), `Welcome` whether flying is allowed.
3: `ColumnData` has a form: a column never edited is sent as the seed's (a checksum; the client
generates it), others one byte a block where their ids fit."""
HEADER_BYTES = 4
"""[bytes] The frame's length prefix."""
MAX_FRAME_BYTES = 1 << 20
"""[bytes] The largest frame body anyone sends: a compressed column is at most ~130 KB (16 sections
of 8 KB, incompressible), and a busy tick's update a few KB; more is a broken or hostile peer."""
MAX_CLIENT_FRAME_BYTES = 1024
"""[bytes] The largest body a client sends: its messages are one input event or a chat line (<= 400 bytes)."""
MAX_CHAT_CHARS = 100
"""[characters] The longest chat line: Minecraft Beta's limit."""
MAX_TEXT_BYTES = 4096
"""[bytes] The longest other text (a disconnect reason, a notice, a chat line with its sender)."""
MAX_KEY_BYTES = 64
"""[bytes] The longest key name or body key in an event or update (Ursina's names are < 20)."""
MAX_ITEMS = 65535
"""[items] The most blocks, bodies or sounds in one update (their counts are 2-byte)."""
MAX_COLUMN_BYTES = 256 * 1024
"""[bytes] The longest compressed column."""
COLUMN_FORMS = ("ids16", "ids8", "seed")
"""How a `ColumnData`'s data holds the column (`game.net.column_wire`): zlib of its byte form with
two bytes a block (`game.world.column`), or one byte a block (every id < 256), or, for a column
exactly as the world's seed generates it, only the CRC-32 of its ids (the client generates it)."""
SEED_COLUMN_DATA_BYTES = 4
"""[bytes] A "seed" column's data: the CRC-32 (u32, big-endian) of its ids."""
U32_MAX = 2 ** 32 - 1
I32_RANGE = (-2 ** 31, 2 ** 31 - 1)
I64_RANGE = (-2 ** 63, 2 ** 63 - 1)

POSITION_UNITS = 32
"""[units per block] Other bodies' feet cross the wire as ints of 1/32 block (Beta's entity
positions: 3 cm, below what a player can see at any distance it draws bodies)."""
SIZE_UNITS = 256
"""[units per block] A body's width and height, sent when it appears."""
VELOCITY_UNITS = 8000
"""[units per block/tick] Other bodies' velocities (Beta's entity velocity packets)."""
MAX_WIRE_SPEED = 3.9
"""[blocks/tick] Other bodies' velocities are clamped to this on the wire (Beta's limit)."""
BODY_MOVES = ("appeared", "moved", "stepped", "gone")
"""What a `BodyMove` says: a body appeared (its key, kind, size, feet, velocity), moved (its feet and
velocity), stepped (its feet moved by a small step, 3 signed bytes of 1/32 block), or went."""
SOUND_UNITS = 8
"""[units per block] A sound's position on the wire (Beta's): 1/8 block; volume and pitch are half floats."""
STATE_NUMBERS = 13
"""The floats of a `PlayerState` (`numbers`)."""
_STATE_BITS = struct.Struct(">13d")
"""A state's numbers as bytes (compared 8 at a time: bit for bit)."""
_MATERIALS = tuple(Material)
"""`physics.Material`s by their bit in a state's `touching` mask."""
_EVENT_KINDS = (KeyDown, KeyUp, Look, Click, Release, PutInSlot, SetDayTime, SetPeaceful)


class ProtocolError(ValueError):
    """Bytes or values that are no valid message; the message says why (a server disconnects with it)."""


# --- the byte layer ---------------------------------------------------------------------------------


class _Out:
    """A message body being written."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def pack(self, fmt: str, *values) -> None:
        try:
            self.parts.append(struct.pack(">" + fmt, *values))
        except struct.error as error:
            raise ProtocolError(f"a value does not fit its field ({error})") from None

    def text(self, value: str, *, wide: bool = False, limit: int = MAX_KEY_BYTES) -> None:
        if not isinstance(value, str):
            raise ProtocolError(f"expected a str, got {type(value).__name__}")
        data = value.encode("utf-8", "strict")
        if len(data) > limit:
            raise ProtocolError(f"a text of {len(data)} bytes is longer than {limit}")
        self.pack("H" if wide else "B", len(data))
        self.parts.append(data)

    def blob(self, data: bytes, limit: int) -> None:
        if len(data) > limit:
            raise ProtocolError(f"{len(data)} bytes of data are more than {limit}")
        self.pack("I", len(data))
        self.parts.append(bytes(data))

    def floats(self, values) -> None:
        values = tuple(values)
        _check_finite(values)
        self.pack(f"{len(values)}d", *values)


class _In:
    """A message body being read: every read checks that the bytes are there."""

    def __init__(self, body: bytes) -> None:
        self.data = memoryview(body)
        self.at = 0

    def unpack(self, fmt: str) -> tuple:
        size = struct.calcsize(">" + fmt)
        if self.at + size > len(self.data):
            raise ProtocolError(f"truncated: a field needs {size} bytes at byte {self.at}, "
                                f"the body has {len(self.data)}")
        values = struct.unpack_from(">" + fmt, self.data, self.at)
        self.at += size
        return values

    def one(self, fmt: str):
        return self.unpack(fmt)[0]

    def raw(self, count: int) -> bytes:
        if self.at + count > len(self.data):
            raise ProtocolError(f"truncated: {count} bytes needed at byte {self.at}, the body has {len(self.data)}")
        data = bytes(self.data[self.at:self.at + count])
        self.at += count
        return data

    def text(self, *, wide: bool = False, limit: int = MAX_KEY_BYTES) -> str:
        length = self.one("H" if wide else "B")
        if length > limit:
            raise ProtocolError(f"a text of {length} bytes is longer than {limit}")
        try:
            return self.raw(length).decode("utf-8", "strict")
        except UnicodeDecodeError as error:
            raise ProtocolError(f"a text is not UTF-8 ({error.reason})") from None

    def blob(self, limit: int) -> bytes:
        length = self.one("I")
        if length > limit:
            raise ProtocolError(f"{length} bytes of data are more than {limit}")
        return self.raw(length)

    def floats(self, count: int) -> tuple[float, ...]:
        values = self.unpack(f"{count}d")
        _check_finite(values)
        return values

    def flag(self) -> bool:
        value = self.one("B")
        if value > 1:
            raise ProtocolError(f"a flag is 0 or 1, got {value}")
        return bool(value)

    def index(self, names: tuple, what: str):
        value = self.one("B")
        if value >= len(names):
            raise ProtocolError(f"unknown {what} {value} (0..{len(names) - 1})")
        return names[value]

    def end(self) -> None:
        if self.at != len(self.data):
            raise ProtocolError(f"{len(self.data) - self.at} bytes left over after the message")


def _check_finite(values) -> None:
    try:
        if all(map(math.isfinite, values)) and bool not in map(type, values):  # bool has no subclasses
            return
    except (TypeError, OverflowError):
        pass
    bad = next((v for v in values if isinstance(v, bool) or not isinstance(v, (int, float))
                or not math.isfinite(v)), values)
    raise ProtocolError(f"a number must be a finite float, got {bad!r}")


def _name_index(names: tuple, value, what: str) -> int:
    try:
        return names.index(value)
    except ValueError:
        raise ProtocolError(f"unknown {what} {value!r}") from None


def _check_int(value, low: int, high: int, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ProtocolError(f"{what} must be an int {low}..{high}, got {value!r}")


# --- nested values -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BlockEdit:
    """Cell (x, y, z) [blocks] now holds block id `block` (`game.world.blocks`)."""

    x: int
    y: int
    z: int
    block: int

    def __post_init__(self) -> None:
        for name in ("x", "z"):
            _check_int(getattr(self, name), *I32_RANGE, f"a block edit's {name}")
        _check_int(self.y, 0, 255, "a block edit's y")
        _check_int(self.block, 0, 65535, "a block id")


@dataclass(frozen=True, slots=True)
class BodyUpdate:
    """A body the receiver can see appeared, moved or went (`game.rules.tick_changes.BodyChange`), in
    full floats. Version 1's wire item; version 2 sends `BodyMove`s (a short id, fixed point) and a
    client rebuilds boxes from them (`game.net.client.ClientWorld.bodies`). Kept for callers."""

    key: str
    """Stable for the body's life: "player:alice", "mob:17", "projectile:3", "falling_block:5"."""
    kind: str
    """One of `BODY_KINDS`."""
    change: str
    """One of `BODY_CHANGES`."""
    box: tuple[float, float, float, float, float, float]
    """[blocks] min x, y, z, max x, y, z at the end of the tick."""
    velocity: tuple[float, float, float]
    """[blocks/tick]"""
    _wire: list = field(default_factory=list, init=False, compare=False, repr=False)
    """Its bytes once encoded (a server sends one update to every client near it: encoded once)."""

    def __post_init__(self) -> None:
        _name_index(BODY_KINDS, self.kind, "body kind")
        _name_index(BODY_CHANGES, self.change, "body change")
        if not isinstance(self.key, str) or not self.key:
            raise ProtocolError(f"a body key is a non-empty str, got {self.key!r}")
        object.__setattr__(self, "box", tuple(map(float, _float_tuple(self.box, 6, "box"))))
        object.__setattr__(self, "velocity", tuple(map(float, _float_tuple(self.velocity, 3, "velocity"))))

    def wire(self) -> bytes:
        """The update's bytes inside a `TickUpdate` (made once, then kept)."""
        if not self._wire:
            out = _Out()
            out.text(self.key)
            out.pack("BB", BODY_KINDS.index(self.kind), BODY_CHANGES.index(self.change))
            out.pack("9d", *self.box, *self.velocity)
            self._wire.append(b"".join(out.parts))
        return self._wire[0]


@dataclass(frozen=True, slots=True)
class BodyMove:
    """A body the receiver can see, as the wire carries it: Minecraft Beta's scheme of a short id
    per body and positions in fixed point (docs/PROTOCOL.md). `id` names the body from its
    "appeared" (which carries its `key`, `kind` and `size`) until its "gone"; `at` is its feet in
    1/32 block (a "stepped" move: the step since the last `at` sent, each -128..127); `velocity` in
    1/8000 block/tick ("appeared" and "moved" only). A client turns them back into boxes
    (`game.net.client.ClientWorld`); only its own player's state is exact (`Ack`)."""

    id: int
    change: str
    key: str = ""
    kind: str = "player"
    at: tuple[int, int, int] = (0, 0, 0)
    size: tuple[int, int] = (0, 0)
    velocity: tuple[int, int, int] = (0, 0, 0)
    _wire: list = field(default_factory=list, init=False, compare=False, repr=False)
    """Its bytes once encoded (a server sends one move to every client near the body: encoded once)."""

    def __post_init__(self) -> None:
        _check_int(self.id, 0, 65535, "a body id")
        _name_index(BODY_MOVES, self.change, "body move")
        _name_index(BODY_KINDS, self.kind, "body kind")
        if self.change == "appeared" and (not isinstance(self.key, str) or not self.key):
            raise ProtocolError(f"an appearing body has a non-empty key, got {self.key!r}")
        step = 127 if self.change == "stepped" else I32_RANGE[1]
        for value in self.at:
            _check_int(value, -step - 1, step, "a body's position")
        for value in self.size:
            _check_int(value, 0, 65535, "a body's size")
        limit = round(MAX_WIRE_SPEED * VELOCITY_UNITS)
        for value in self.velocity:
            _check_int(value, -limit, limit, "a body's velocity")
        object.__setattr__(self, "at", tuple(self.at))
        object.__setattr__(self, "size", tuple(self.size))
        object.__setattr__(self, "velocity", tuple(self.velocity))
        if len(self.at) != 3 or len(self.size) != 2 or len(self.velocity) != 3:
            raise ProtocolError("a body move has 3 position, 2 size and 3 velocity numbers")

    def wire(self) -> bytes:
        """The move's bytes inside a `TickUpdate` (made once, then kept)."""
        if not self._wire:
            out = _Out()
            self.write(out)
            self._wire.append(b"".join(out.parts))
        return self._wire[0]

    def write(self, out: _Out) -> None:
        change = self.change
        out.pack("HB", self.id, BODY_MOVES.index(change))
        if change == "appeared":
            out.text(self.key)
            out.pack("B3i2H3h", BODY_KINDS.index(self.kind), *self.at, *self.size, *self.velocity)
        elif change == "moved":
            out.pack("3i3h", *self.at, *self.velocity)
        elif change == "stepped":
            out.pack("3b", *self.at)

    @classmethod
    def read(cls, data: _In) -> BodyMove:
        body_id = data.one("H")
        change = data.index(BODY_MOVES, "body move")
        if change == "appeared":
            key = data.text()
            kind = data.index(BODY_KINDS, "body kind")
            numbers = data.unpack("3i2H3h")
            return cls(body_id, change, key, kind, numbers[:3], numbers[3:5], numbers[5:])
        if change == "moved":
            numbers = data.unpack("3i3h")
            return cls(body_id, change, at=numbers[:3], velocity=numbers[3:])
        if change == "stepped":
            return cls(body_id, change, at=data.unpack("3b"))
        return cls(body_id, change)


def fixed_feet(box) -> tuple[int, int, int]:
    """[1/32 block] The feet (bottom centre) of `box` in fixed point, rounded to the nearest."""
    x0, y0, z0, x1, _, z1 = box
    return (round((x0 + x1) / 2 * POSITION_UNITS), round(y0 * POSITION_UNITS), round((z0 + z1) / 2 * POSITION_UNITS))


def fixed_size(box) -> tuple[int, int]:
    """[1/256 block] The width (x) and height of `box`."""
    return (min(65535, round((box[3] - box[0]) * SIZE_UNITS)), min(65535, round((box[4] - box[1]) * SIZE_UNITS)))


def fixed_velocity(velocity) -> tuple[int, int, int]:
    """[1/8000 block/tick] `velocity` clamped to MAX_WIRE_SPEED, rounded to the nearest."""
    return tuple(round(max(-MAX_WIRE_SPEED, min(MAX_WIRE_SPEED, v)) * VELOCITY_UNITS) for v in velocity)


def box_of(at, size) -> tuple[float, float, float, float, float, float]:
    """[blocks] The box whose feet are `at` [1/32 block] and whose size is `size` [1/256 block]."""
    x, y, z = (v / POSITION_UNITS for v in at)
    half, height = size[0] / SIZE_UNITS / 2, size[1] / SIZE_UNITS
    return (x - half, y, z - half, x + half, y + height, z + half)


@dataclass(frozen=True, slots=True)
class Sound:
    """A sound made at `position` [blocks] (`game.rules.sounds.SoundEvent`)."""

    name: str
    position: tuple[float, float, float]
    volume: float
    pitch: float
    _wire: list = field(default_factory=list, init=False, compare=False, repr=False)
    """Its bytes once encoded (a server sends one sound to every client in hearing: encoded once)."""

    def __post_init__(self) -> None:
        _name_index(SOUND_NAMES, self.name, "sound")
        position = _float_tuple(self.position, 3, "position")
        _check_finite((self.volume, self.pitch))
        try:  # what the wire carries: 1/8 block (Beta's sound packets), half floats
            object.__setattr__(self, "position", tuple(round(v * SOUND_UNITS) / SOUND_UNITS for v in position))
            object.__setattr__(self, "volume", struct.unpack("<e", struct.pack("<e", self.volume))[0])
            object.__setattr__(self, "pitch", struct.unpack("<e", struct.pack("<e", self.pitch))[0])
        except (OverflowError, struct.error) as error:
            raise ProtocolError(f"a sound's numbers do not fit the wire ({error})") from None
        for v in self.position:
            _check_int(round(v * SOUND_UNITS), *I32_RANGE, "a sound's position")

    def wire(self) -> bytes:
        """The sound's bytes inside a `TickUpdate` (made once, then kept)."""
        if not self._wire:
            self._wire.append(struct.pack(">B3i2e", SOUND_NAMES.index(self.name),
                                          *(round(v * SOUND_UNITS) for v in self.position), self.volume, self.pitch))
        return self._wire[0]


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A player's authoritative state after a tick (what the server's physics made)."""

    box: tuple[float, float, float, float, float, float]
    """[blocks] min x, y, z, max x, y, z."""
    velocity: tuple[float, float, float]
    """[blocks/tick]"""
    yaw: float
    """[degrees] 0..360, Minecraft's convention (0 faces +Z)."""
    pitch: float
    """[degrees] -90 up .. 90 down."""
    on_ground: bool
    flying: bool
    dead: bool
    health: int
    """[half hearts] 0..20."""
    camera_lag: float = 0.0
    """[blocks] The rest of the body's state (`physics.Body`), so a predicting client can take the
    server's body exactly and step on from it: Beta's ySize."""
    fall_distance: float = 0.0
    """[blocks]"""
    collided_horizontally: bool = False
    collided_vertically: bool = False
    in_water: bool = False
    in_lava: bool = False
    in_web: bool = False
    fall_damage: int = 0
    """[half hearts] From the tick's landing."""
    touching: frozenset = frozenset()
    """The `physics.Material`s the tick's contact pass met."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "box", _float_tuple(self.box, 6, "box"))
        object.__setattr__(self, "velocity", _float_tuple(self.velocity, 3, "velocity"))
        _check_finite((self.yaw, self.pitch, self.camera_lag, self.fall_distance))
        _check_int(self.health, 0, 255, "health")
        _check_int(self.fall_damage, 0, 65535, "fall damage")
        if self.fall_distance < 0.0:
            raise ProtocolError(f"a fall distance is >= 0, got {self.fall_distance!r}")
        if not isinstance(self.touching, frozenset) or not all(isinstance(m, Material) for m in self.touching):
            raise ProtocolError(f"touching is a frozenset of physics.Material, got {self.touching!r}")

    @classmethod
    def of_body(cls, body: Body, yaw: float, pitch: float, flying: bool, dead: bool, health: int) -> PlayerState:
        """The state of a player whose body is `body` (every field of it, bit for bit)."""
        return cls(tuple(body.box), tuple(body.velocity), yaw, pitch, body.on_ground, flying, dead, health,
                   body.camera_lag, body.fall_distance, body.collided_horizontally, body.collided_vertically,
                   body.in_water, body.in_lava, body.in_web, body.fall_damage, body.touching)

    def body(self) -> Body:
        """The `physics.Body` this state holds (ValueError when its numbers make no body)."""
        try:
            return Body(AABB(*self.box), self.velocity, self.on_ground, self.collided_horizontally,
                        self.collided_vertically, self.camera_lag, self.fall_distance, self.in_water, self.in_lava,
                        self.in_web, self.fall_damage, self.touching)
        except (TypeError, ValueError) as error:
            raise ProtocolError(f"a player state that is no body: {error}") from None

    def numbers(self) -> tuple[float, ...]:
        """The state's 13 floats: box, velocity, yaw, pitch, camera lag, fall distance."""
        return (*self.box, *self.velocity, self.yaw, self.pitch, self.camera_lag, self.fall_distance)

    def rest(self) -> tuple:
        """The state's other fields: on_ground, flying, dead, health, collided_horizontally,
        collided_vertically, in_water, in_lava, in_web, fall_damage, touching."""
        return (self.on_ground, self.flying, self.dead, self.health, self.collided_horizontally,
                self.collided_vertically, self.in_water, self.in_lava, self.in_web, self.fall_damage, self.touching)

    @classmethod
    def of_parts(cls, numbers, rest) -> PlayerState:
        """The state of `numbers()` and `rest()` (their inverse)."""
        numbers = tuple(numbers)
        if len(numbers) != STATE_NUMBERS or len(rest) != 11:
            raise ProtocolError(f"a player state is {STATE_NUMBERS} numbers and 11 other fields")
        return cls(numbers[:6], numbers[6:9], numbers[9], numbers[10], *rest[:4], numbers[11], numbers[12], *rest[4:])

    def wire(self) -> bytes:
        """The state's bytes inside an `Ack` (equal bytes: equal states, bit for bit)."""
        out = _Out()
        out.floats((*self.box, *self.velocity, self.yaw, self.pitch, self.camera_lag, self.fall_distance))
        out.pack("BBBBBBBBBHH", self.on_ground, self.flying, self.dead, self.health, self.collided_horizontally,
                 self.collided_vertically, self.in_water, self.in_lava, self.in_web, self.fall_damage,
                 sum(1 << _MATERIALS.index(m) for m in self.touching))
        return b"".join(out.parts)

    @classmethod
    def read(cls, data: _In) -> PlayerState:
        numbers = data.floats(13)
        on_ground, flying, dead = data.flag(), data.flag(), data.flag()
        health = data.one("B")
        flags = tuple(data.flag() for _ in range(5))
        fall_damage, mask = data.unpack("HH")
        if mask >> len(_MATERIALS):
            raise ProtocolError(f"unknown materials in the mask {mask:#x}")
        touching = frozenset(m for k, m in enumerate(_MATERIALS) if mask >> k & 1)
        return cls(numbers[:6], numbers[6:9], numbers[9], numbers[10], on_ground, flying, dead, health,
                   numbers[11], numbers[12], *flags, fall_damage, touching)

    @property
    def feet(self) -> tuple[float, float, float]:
        """[blocks] The centre of the box's bottom face."""
        x0, y0, z0, x1, _, z1 = self.box
        return ((x0 + x1) / 2, y0, (z0 + z1) / 2)


def _float_tuple(values, count: int, what: str) -> tuple[float, ...]:
    try:
        values = tuple(values)
    except TypeError:
        raise ProtocolError(f"a {what} is {count} floats, got {values!r}") from None
    if len(values) != count:
        raise ProtocolError(f"a {what} is {count} floats, got {len(values)}")
    _check_finite(values)
    return values


# --- messages ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    """Client -> server, its first message: the protocol version it speaks and its player name."""

    TYPE: ClassVar[int] = 1
    version: int
    name: str

    def __post_init__(self) -> None:
        _check_int(self.version, 0, 65535, "the protocol version")
        try:
            check_player_name(self.name)
        except (TypeError, ValueError) as error:
            raise ProtocolError(f"bad name: {error}") from None

    def write(self, out: _Out) -> None:
        out.pack("H", self.version)
        out.text(self.name)

    @classmethod
    def read(cls, data: _In) -> Hello:
        return cls(data.one("H"), data.text())


@dataclass(frozen=True, slots=True)
class Input:
    """Client -> server: one input event (`game.rules.replay`), stamped with the server tick it is
    meant for (`event.tick`). The event's `player` is not sent: the server applies it for the
    connection's player."""

    TYPE: ClassVar[int] = 2
    event: Event

    def __post_init__(self) -> None:
        if not isinstance(self.event, _EVENT_KINDS):
            raise ProtocolError(f"not an input event: {self.event!r}")
        _check_int(self.event.tick, 0, U32_MAX, "an event's tick")

    def write(self, out: _Out) -> None:
        event = self.event
        out.pack("BI", _EVENT_KINDS.index(type(event)), event.tick)
        if isinstance(event, (KeyDown, KeyUp)):
            out.text(event.key)
        elif isinstance(event, Look):
            out.floats((event.yaw, event.pitch))
        elif isinstance(event, (Click, Release)):
            out.pack("B", CLICK_BUTTONS.index(event.button))
        elif isinstance(event, PutInSlot):
            out.pack("B", event.slot)
            out.text(event.block)
        elif isinstance(event, SetDayTime):
            out.pack("I", event.day_time)
        else:
            out.pack("B", int(event.peaceful))

    @classmethod
    def read(cls, data: _In) -> Input:
        kind = data.index(_EVENT_KINDS, "event kind")
        tick = data.one("I")
        if kind in (KeyDown, KeyUp):
            fields_ = (data.text(),)
        elif kind is Look:
            fields_ = data.floats(2)
        elif kind in (Click, Release):
            fields_ = (data.index(CLICK_BUTTONS, "button"),)
        elif kind is PutInSlot:
            fields_ = (data.one("B"), data.text())
        elif kind is SetDayTime:
            fields_ = (data.one("I"),)
        else:
            fields_ = (data.flag(),)
        try:
            return cls(kind(tick, *fields_))
        except ValueError as error:  # ReplayFormatError: the event's own checks
            raise ProtocolError(f"bad {kind.__name__} event: {error}") from None


@dataclass(frozen=True, slots=True)
class Say:
    """Client -> server: a chat line, 1..MAX_CHAT_CHARS printable characters."""

    TYPE: ClassVar[int] = 3
    text: str

    def __post_init__(self) -> None:
        if not isinstance(self.text, str) or not 1 <= len(self.text) <= MAX_CHAT_CHARS:
            raise ProtocolError(f"a chat line is 1..{MAX_CHAT_CHARS} characters")
        if not self.text.isprintable():
            raise ProtocolError("a chat line holds only printable characters")

    def write(self, out: _Out) -> None:
        out.text(self.text, wide=True, limit=MAX_TEXT_BYTES)

    @classmethod
    def read(cls, data: _In) -> Say:
        return cls(data.text(wide=True, limit=MAX_TEXT_BYTES))


@dataclass(frozen=True, slots=True)
class Welcome:
    """Server -> client, the answer to a good `Hello`: the player's name, the world's seed (so the
    client can tell edited blocks from generated ones), the server's tick (the next one to run:
    inputs are stamped from here) and the time of day [ticks]."""

    TYPE: ClassVar[int] = 16
    version: int
    name: str
    seed: int
    tick: int
    day_time: int
    flying_allowed: bool = True
    """The F key toggles flying on this server (every world is creative today; a server may say no)."""

    def __post_init__(self) -> None:
        _check_int(self.version, 0, 65535, "the protocol version")
        try:
            check_player_name(self.name)
        except (TypeError, ValueError) as error:
            raise ProtocolError(f"bad name: {error}") from None
        _check_int(self.seed, *I64_RANGE, "the seed")
        _check_int(self.tick, 0, U32_MAX, "the tick")
        _check_int(self.day_time, 0, U32_MAX, "the time of day")
        if not isinstance(self.flying_allowed, bool):
            raise ProtocolError(f"flying_allowed is a bool, got {self.flying_allowed!r}")

    def write(self, out: _Out) -> None:
        out.pack("H", self.version)
        out.text(self.name)
        out.pack("qIIB", self.seed, self.tick, self.day_time, self.flying_allowed)

    @classmethod
    def read(cls, data: _In) -> Welcome:
        version, name = data.one("H"), data.text()
        seed, tick, day_time = data.unpack("qII")
        return cls(version, name, seed, tick, day_time, data.flag())


@dataclass(frozen=True, slots=True)
class Disconnect:
    """Server -> client, last: why the connection ends (a refused handshake, a broken limit, the
    server stopping). The client shows the reason."""

    TYPE: ClassVar[int] = 17
    reason: str

    def __post_init__(self) -> None:
        if not isinstance(self.reason, str):
            raise ProtocolError("a reason is a str")

    def write(self, out: _Out) -> None:
        out.text(self.reason, wide=True, limit=MAX_TEXT_BYTES)

    @classmethod
    def read(cls, data: _In) -> Disconnect:
        return cls(data.text(wide=True, limit=MAX_TEXT_BYTES))


@dataclass(frozen=True, slots=True)
class ColumnData:
    """Server -> client: column (cx, cz) [columns], its `data` in one of the `COLUMN_FORMS`
    (`game.net.column_wire` makes and reads them): "ids16" (the default) zlib-compressed
    `game.world.column.Column.to_bytes`, "ids8" the same with one byte a block, "seed" the CRC-32 of
    the ids the world's seed generates there."""

    TYPE: ClassVar[int] = 18
    cx: int
    cz: int
    data: bytes
    form: str = "ids16"

    def __post_init__(self) -> None:
        _check_int(self.cx, *I32_RANGE, "cx")
        _check_int(self.cz, *I32_RANGE, "cz")
        if not isinstance(self.data, bytes) or len(self.data) > MAX_COLUMN_BYTES:
            raise ProtocolError(f"column data is bytes of at most {MAX_COLUMN_BYTES}")
        _name_index(COLUMN_FORMS, self.form, "column form")
        if self.form == "seed" and len(self.data) != SEED_COLUMN_DATA_BYTES:
            raise ProtocolError(f"a seed column's data is its {SEED_COLUMN_DATA_BYTES}-byte checksum, "
                                f"got {len(self.data)} bytes")

    def write(self, out: _Out) -> None:
        out.pack("iiB", self.cx, self.cz, COLUMN_FORMS.index(self.form))
        out.blob(self.data, MAX_COLUMN_BYTES)

    @classmethod
    def read(cls, data: _In) -> ColumnData:
        cx, cz = data.unpack("ii")
        form = data.index(COLUMN_FORMS, "column form")
        return cls(cx, cz, data.blob(MAX_COLUMN_BYTES), form)


@dataclass(frozen=True, slots=True)
class ForgetColumn:
    """Server -> client: column (cx, cz) is out of the player's range; no more updates for it."""

    TYPE: ClassVar[int] = 19
    cx: int
    cz: int

    def __post_init__(self) -> None:
        _check_int(self.cx, *I32_RANGE, "cx")
        _check_int(self.cz, *I32_RANGE, "cz")

    def write(self, out: _Out) -> None:
        out.pack("ii", self.cx, self.cz)

    @classmethod
    def read(cls, data: _In) -> ForgetColumn:
        return cls(*data.unpack("ii"))


@dataclass(frozen=True, slots=True)
class TickUpdate:
    """Server -> client after each tick: what the player can see change. `tick` is the tick just
    run, `day_time` [ticks] the time of day after it; `blocks` in the columns the client holds,
    `bodies` within its range (not its own: see `Ack`), `sounds` within hearing."""

    TYPE: ClassVar[int] = 20
    tick: int
    day_time: int
    blocks: tuple[BlockEdit, ...] = ()
    bodies: tuple[BodyMove, ...] = ()
    sounds: tuple[Sound, ...] = ()

    def __post_init__(self) -> None:
        _check_int(self.tick, 0, U32_MAX, "the tick")
        _check_int(self.day_time, 0, U32_MAX, "the time of day")
        for name, kind in (("blocks", BlockEdit), ("bodies", BodyMove), ("sounds", Sound)):
            items = tuple(getattr(self, name))
            if len(items) > MAX_ITEMS or not (set(map(type, items)) <= {kind}  # fast: exactly the kind (a server's)
                                              or all(isinstance(item, kind) for item in items)):
                raise ProtocolError(f"{name} are at most {MAX_ITEMS} {kind.__name__} values")
            object.__setattr__(self, name, items)

    @classmethod
    def of_parts(cls, tick: int, day_time: int, blocks: tuple[BlockEdit, ...], bodies: tuple[BodyMove, ...],
                 sounds: tuple[Sound, ...]) -> TickUpdate:
        """`TickUpdate(tick, day_time, blocks, bodies, sounds)` for a server that made the three tuples
        of their own kinds itself (equal to the checked one: tested): only the numbers are checked."""
        _check_int(tick, 0, U32_MAX, "the tick")
        _check_int(day_time, 0, U32_MAX, "the time of day")
        if max(len(blocks), len(bodies), len(sounds)) > MAX_ITEMS:
            raise ProtocolError(f"an update holds at most {MAX_ITEMS} blocks, bodies and sounds each")
        update = object.__new__(cls)
        for name, value in (("tick", tick), ("day_time", day_time), ("blocks", blocks), ("bodies", bodies),
                            ("sounds", sounds)):
            object.__setattr__(update, name, value)
        return update

    def write(self, out: _Out) -> None:
        out.pack("IIHHH", self.tick, self.day_time, len(self.blocks), len(self.bodies), len(self.sounds))
        for edit in self.blocks:
            out.pack("iBiH", edit.x, edit.y, edit.z, edit.block)
        out.parts.extend(map(BodyMove.wire, self.bodies))
        out.parts.extend(map(Sound.wire, self.sounds))

    @classmethod
    def read(cls, data: _In) -> TickUpdate:
        tick, day_time, blocks, bodies, sounds = data.unpack("IIHHH")
        edits = tuple(BlockEdit(*data.unpack("iBiH")) for _ in range(blocks))
        moved = tuple(BodyMove.read(data) for _ in range(bodies))
        heard = []
        for _ in range(sounds):
            name = data.index(SOUND_NAMES, "sound")
            x, y, z, volume, pitch = data.unpack("3i2e")
            heard.append(Sound(name, (x / SOUND_UNITS, y / SOUND_UNITS, z / SOUND_UNITS), volume, pitch))
        return cls(tick, day_time, edits, tuple(moved), tuple(heard))


@dataclass(frozen=True, slots=True)
class Ack:
    """Server -> client after each tick: `tick` just ran; `input_tick` is the tick of the latest
    input of this client applied so far (-1: none yet); `state` is its player's authoritative state."""

    TYPE: ClassVar[int] = 21
    tick: int
    input_tick: int
    state: PlayerState

    def __post_init__(self) -> None:
        _check_int(self.tick, 0, U32_MAX, "the tick")
        _check_int(self.input_tick, -1, U32_MAX - 1, "the input tick")
        if not isinstance(self.state, PlayerState):
            raise ProtocolError("an ack's state is a PlayerState")

    def write(self, out: _Out) -> None:
        out.pack("Iq", self.tick, self.input_tick)
        out.parts.append(self.state.wire())

    @classmethod
    def read(cls, data: _In) -> Ack:
        tick, input_tick = data.unpack("Iq")
        return cls(tick, input_tick, PlayerState.read(data))


@dataclass(frozen=True, slots=True)
class AckDelta:
    """Server -> client after each tick but its first: the `Ack`, as the numbers of the state that
    changed since the last state sent to this client (`changed`: (index into `PlayerState.numbers`,
    its new value), indexes ascending; compared and sent bit for bit, so the state the client
    rebuilds with `applied_to` is exact) and all of its other fields (`rest`, `PlayerState.rest`)."""

    TYPE: ClassVar[int] = 23
    tick: int
    input_tick: int
    changed: tuple[tuple[int, float], ...]
    rest: tuple

    def __post_init__(self) -> None:
        _check_int(self.tick, 0, U32_MAX, "the tick")
        _check_int(self.input_tick, -1, U32_MAX - 1, "the input tick")
        changed = tuple(tuple(pair) for pair in self.changed)
        indexes = [pair[0] for pair in changed]
        if any(len(pair) != 2 for pair in changed) or indexes != sorted(set(indexes)):
            raise ProtocolError("an ack's changed numbers are (index, value) pairs, indexes ascending")
        for index in indexes:
            _check_int(index, 0, STATE_NUMBERS - 1, "a state number's index")
        _check_finite([value for _, value in changed])
        object.__setattr__(self, "changed", changed)
        rest = tuple(self.rest)
        object.__setattr__(self, "rest", rest)
        if len(rest) != 11 or not all(isinstance(rest[k], bool) for k in (0, 1, 2, 4, 5, 6, 7, 8)):
            raise ProtocolError(f"an ack's other fields are 8 bools, health, fall damage and touching, got {rest!r}")
        _check_int(rest[3], 0, 255, "health")
        _check_int(rest[9], 0, 65535, "fall damage")
        if not isinstance(rest[10], frozenset) or not all(isinstance(m, Material) for m in rest[10]):
            raise ProtocolError(f"touching is a frozenset of physics.Material, got {rest[10]!r}")

    @classmethod
    def between(cls, tick: int, input_tick: int, before: PlayerState, after: PlayerState) -> AckDelta:
        """The delta that makes `after` from `before` (the last state sent). Equal to the checked
        `AckDelta(tick, input_tick, changed, after.rest())` (tested), made without checking again
        what two `PlayerState`s already hold (a server makes one per client per tick)."""
        _check_int(tick, 0, U32_MAX, "the tick")
        _check_int(input_tick, -1, U32_MAX - 1, "the input tick")
        if not isinstance(before, PlayerState) or not isinstance(after, PlayerState):
            raise ProtocolError("an ack delta is made between two PlayerStates")
        new = after.numbers()
        old_bits, new_bits = _STATE_BITS.pack(*before.numbers()), _STATE_BITS.pack(*new)
        changed = tuple((k, new[k]) for k in range(STATE_NUMBERS)
                        if old_bits[8 * k:8 * k + 8] != new_bits[8 * k:8 * k + 8])
        delta = object.__new__(cls)
        for name, value in (("tick", tick), ("input_tick", input_tick), ("changed", changed), ("rest", after.rest())):
            object.__setattr__(delta, name, value)
        return delta

    def applied_to(self, before: PlayerState) -> Ack:
        """The whole `Ack` this delta makes of `before` (the last state received)."""
        numbers = list(before.numbers())
        for index, value in self.changed:
            numbers[index] = value
        return Ack(self.tick, self.input_tick, PlayerState.of_parts(numbers, self.rest))

    def write(self, out: _Out) -> None:
        mask, values = 0, []
        for index, value in self.changed:  # finite: checked when made
            mask |= 1 << index
            values.append(value)
        (on_ground, flying, dead, health, horizontally, vertically, in_water, in_lava, in_web, fall_damage,
         touching) = self.rest
        flags = (on_ground | flying << 1 | dead << 2 | horizontally << 3 | vertically << 4 | in_water << 5
                 | in_lava << 6 | in_web << 7)
        out.pack(f"IIH{len(values)}dBBHH", self.tick, self.input_tick + 1, mask, *values, flags, health, fall_damage,
                 sum(1 << _MATERIALS.index(m) for m in touching))

    @classmethod
    def read(cls, data: _In) -> AckDelta:
        tick, input_tick, mask = data.unpack("IIH")
        if mask >> STATE_NUMBERS:
            raise ProtocolError(f"a state has {STATE_NUMBERS} numbers, the mask {mask:#x} names more")
        indexes = [k for k in range(STATE_NUMBERS) if mask >> k & 1]
        changed = tuple(zip(indexes, data.floats(len(indexes))))
        flags, health, fall_damage, touching = data.unpack("BBHH")
        if touching >> len(_MATERIALS):
            raise ProtocolError(f"unknown materials in the mask {touching:#x}")
        on_ground, flying, dead, horizontally, vertically, in_water, in_lava, in_web = (
            bool(flags >> bit & 1) for bit in range(8))
        rest = (on_ground, flying, dead, health, horizontally, vertically, in_water, in_lava, in_web, fall_damage,
                frozenset(m for k, m in enumerate(_MATERIALS) if touching >> k & 1))
        return cls(tick, input_tick - 1, changed, rest)


@dataclass(frozen=True, slots=True)
class Chat:
    """Server -> client: a chat line from player `sender`, or a server notice (`sender` "")."""

    TYPE: ClassVar[int] = 22
    sender: str
    text: str

    def __post_init__(self) -> None:
        if not isinstance(self.sender, str) or not isinstance(self.text, str):
            raise ProtocolError("a chat message's sender and text are str")
        if self.sender:
            try:
                check_player_name(self.sender)
            except ValueError as error:
                raise ProtocolError(f"bad sender: {error}") from None

    def write(self, out: _Out) -> None:
        out.text(self.sender)
        out.text(self.text, wide=True, limit=MAX_TEXT_BYTES)

    @classmethod
    def read(cls, data: _In) -> Chat:
        return cls(data.text(), data.text(wide=True, limit=MAX_TEXT_BYTES))


CLIENT_MESSAGES = (Hello, Input, Say)
"""What a client sends."""
SERVER_MESSAGES = (Welcome, Disconnect, ColumnData, ForgetColumn, TickUpdate, Ack, Chat, AckDelta)
"""What a server sends."""
Message = Hello | Input | Say | Welcome | Disconnect | ColumnData | ForgetColumn | TickUpdate | Ack | Chat | AckDelta
_BY_TYPE = {cls.TYPE: cls for cls in (*CLIENT_MESSAGES, *SERVER_MESSAGES)}


def encode(message: Message) -> bytes:
    """The frame of `message`: its 4-byte body length, then its body. ProtocolError for a value the
    wire cannot carry (too long, out of range)."""
    if type(message) not in _BY_TYPE.values():
        raise ProtocolError(f"not a message: {message!r}")
    out = _Out()
    out.pack("B", message.TYPE)
    message.write(out)
    body = b"".join(out.parts)
    if len(body) > MAX_FRAME_BYTES:
        raise ProtocolError(f"a {type(message).__name__} of {len(body)} bytes is over {MAX_FRAME_BYTES}")
    return struct.pack(">I", len(body)) + body


def decode(body: bytes, allowed: tuple[type, ...] | None = None) -> Message:
    """The message a frame's body holds (without its length prefix). `allowed`: the types the
    reader accepts (a server reads only `CLIENT_MESSAGES`). ProtocolError for anything else."""
    if not body:
        raise ProtocolError("an empty frame")
    cls = _BY_TYPE.get(body[0])
    if cls is None or (allowed is not None and cls not in allowed):
        raise ProtocolError(f"unknown message type {body[0]}")
    data = _In(body)
    data.at = 1
    try:
        message = cls.read(data)
    except ProtocolError:
        raise
    except (ValueError, TypeError, struct.error, OverflowError) as error:
        raise ProtocolError(f"bad {cls.__name__}: {error}") from None
    data.end()
    return message


def body_length(header: bytes, limit: int = MAX_FRAME_BYTES) -> int:
    """The body length a 4-byte header announces; ProtocolError over `limit` or for an empty body."""
    if len(header) != HEADER_BYTES:
        raise ProtocolError(f"a frame header is {HEADER_BYTES} bytes, got {len(header)}")
    length = struct.unpack(">I", header)[0]
    if length == 0:
        raise ProtocolError("an empty frame")
    if length > limit:
        raise ProtocolError(f"a frame of {length} bytes is over the limit of {limit}")
    return length


class FrameDecoder:
    """Bytes in as they arrive, whole messages out (sans-I/O): `feed(data)` returns the messages
    completed so far. ProtocolError for an oversized, empty or bad frame; after one, the decoder
    is spent (the stream cannot be trusted to resynchronise)."""

    def __init__(self, limit: int = MAX_FRAME_BYTES, allowed: tuple[type, ...] | None = None) -> None:
        self.limit = limit
        self.allowed = allowed
        self._buffer = bytearray()
        self._failed: ProtocolError | None = None

    @property
    def pending(self) -> int:
        """[bytes] Received but not yet a whole frame."""
        return len(self._buffer)

    def feed(self, data: bytes) -> list[Message]:
        if self._failed is not None:
            raise self._failed
        self._buffer += data
        messages = []
        try:
            while len(self._buffer) >= HEADER_BYTES:
                length = body_length(bytes(self._buffer[:HEADER_BYTES]), self.limit)
                if len(self._buffer) < HEADER_BYTES + length:
                    break
                body = bytes(self._buffer[HEADER_BYTES:HEADER_BYTES + length])
                del self._buffer[:HEADER_BYTES + length]
                messages.append(decode(body, self.allowed))
        except ProtocolError as error:
            self._failed = error
            raise
        return messages


def message_fields(message: Message) -> dict:
    """The fields of `message` by name (for logs and tests)."""
    return {field.name: getattr(message, field.name) for field in fields(message)}
