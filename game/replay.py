"""The replay format: JSON Lines input events keyed by tick, for recording, replaying and scripted tests.

Owns: the event types (`KeyDown`, `KeyUp`, `Look`, `Click`, `Release`, `PutInSlot`), parsing a replay file
with errors that name the line, writing events in the same format (`ReplayWriter`), and
`ReplayCursor`, which hands out the events due before each tick. Pure: no Ursina.
Does not own: what an event does to the player (see `controls.InputState`) or when ticks run
(see `clock.py` and the app).

One event per line, ticks in non-decreasing order, events of one tick applied in file order:

    {"tick": 0, "event": "look", "yaw": 270.0, "pitch": 0.0}
    {"tick": 0, "event": "key_down", "key": "w"}
    {"tick": 40, "event": "key_up", "key": "w"}
    {"tick": 50, "event": "click", "button": "left"}
    {"tick": 58, "event": "release", "button": "left"}
    {"tick": 60, "event": "put_in_slot", "slot": 2, "block": "glass"}

An event with tick t takes effect just before tick t runs; ticks count from 0, so tick 0 events
shape the first tick. Key names are Ursina's ('w', 'space', 'left shift', 'f3'). Look angles are
absolute degrees in Minecraft's convention (yaw 0 faces +Z, 90 faces -X, 270 faces +X; pitch
positive looks down), as in `physics.Intent`. Blank lines are ignored.

A `click` is a mouse button going down, a `release` the same button coming up. A button is held
from a click to its release: holding the left button digs (`game.mining`: a block breaks after
Beta's dig time, with damage on). A recording also repeats a click every `BUILD_REPEAT_TICKS`
while a button stays down (with damage off a held button breaks or places again at that rate).
A click with no release after it (every file written before the `release` event existed) holds
its button until the end of the replay; with damage on, its left clicks dig on for as long as the
player looks at blocks, where they used to break one block each (the rule damage off still has).

Every event is checked when it is made, so an event in hand is valid: a `Look` holds its yaw
wrapped into [0, 360) (any finite yaw names a direction; wrapping keeps it within what
`physics.Intent` accepts) and refuses a pitch beyond +-MAX_PITCH or an angle that is not a finite
number. A replay file that is not UTF-8 or nests JSON beyond what an event needs is refused with
the same `ReplayFormatError`, naming the line.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from .hotbar import SLOT_COUNT, holdable
from .saved_values import preview

MAX_PITCH = 90.0
"""[degrees] Looking straight down (and -MAX_PITCH straight up); beyond that the view flips."""
DEGREES_PER_TURN = 360.0
"""[degrees] A full turn: yaws that differ by it face the same way, so yaws are kept in [0, 360)."""

CLICK_BUTTONS = ("left", "right", "middle")


class ReplayFormatError(ValueError):
    """A replay line that is not a valid event; the message names the source and the line."""


def wrap_yaw(yaw: float) -> float:
    """[degrees] The same direction as the finite `yaw`, in [0, 360)."""
    turn = float(yaw) % DEGREES_PER_TURN
    # A tiny negative yaw wraps to 360.0 itself in binary floats (-1e-20 % 360.0 == 360.0).
    return 0.0 if turn >= DEGREES_PER_TURN else turn


def look_angles(yaw: float, pitch: float) -> tuple[float, float]:
    """[degrees] (yaw wrapped into [0, 360), pitch clamped to +-MAX_PITCH); ValueError unless both are
    finite numbers. For angles that come from the mouse or from code, where any direction is meant."""
    for value in (yaw, pitch):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"look angles must be finite numbers of degrees, got yaw={yaw!r} pitch={pitch!r}")
    return wrap_yaw(yaw), min(max(float(pitch), -MAX_PITCH), MAX_PITCH)


@dataclass(frozen=True, slots=True)
class KeyDown:
    tick: int
    key: str

    def __post_init__(self) -> None:
        validate_event(self)


@dataclass(frozen=True, slots=True)
class KeyUp:
    tick: int
    key: str

    def __post_init__(self) -> None:
        validate_event(self)


@dataclass(frozen=True, slots=True)
class Look:
    """New look angles. ReplayFormatError unless both are finite numbers and the pitch is within
    +-MAX_PITCH; the yaw is kept wrapped into [0, 360) (`wrap_yaw`), both as floats."""

    tick: int
    yaw: float
    """[degrees] Minecraft's yaw: 0 faces +Z, 90 faces -X, 270 faces +X; in [0, 360)."""
    pitch: float
    """[degrees] -90 straight up .. 90 straight down."""

    def __post_init__(self) -> None:
        validate_event(self)
        object.__setattr__(self, "yaw", wrap_yaw(self.yaw))
        object.__setattr__(self, "pitch", float(self.pitch))


@dataclass(frozen=True, slots=True)
class Click:
    tick: int
    button: str
    """'left', 'right' or 'middle'."""

    def __post_init__(self) -> None:
        validate_event(self)


@dataclass(frozen=True, slots=True)
class Release:
    """A mouse button coming up (the button a `Click` pressed): ends digging."""

    tick: int
    button: str
    """'left', 'right' or 'middle'."""

    def __post_init__(self) -> None:
        validate_event(self)


@dataclass(frozen=True, slots=True)
class PutInSlot:
    """The creative inventory's move: the catalogue entry of `block` put in hotbar slot `slot`
    (what the session does with it: `game.inventory.put_in_slot`). ReplayFormatError unless the
    slot is 0..8 and `block` names a block the hotbar can hold."""

    tick: int
    slot: int
    """The hotbar slot, 0..8 (slot 0 is the one the key 1 selects)."""
    block: str
    """A registry block name that can be held (`game.hotbar.holdable`)."""

    def __post_init__(self) -> None:
        validate_event(self)


Event = KeyDown | KeyUp | Look | Click | Release | PutInSlot

# event name -> (type, its fields after "tick" and "event")
_EVENTS: dict[str, tuple[type, tuple[str, ...]]] = {
    "key_down": (KeyDown, ("key",)),
    "key_up": (KeyUp, ("key",)),
    "look": (Look, ("yaw", "pitch")),
    "click": (Click, ("button",)),
    "release": (Release, ("button",)),
    "put_in_slot": (PutInSlot, ("slot", "block")),
}
_NAMES = {cls: name for name, (cls, _) in _EVENTS.items()}


def parse_event(line: str) -> Event:
    """One event from one JSON line; raises ReplayFormatError (without a line number) when invalid."""
    try:
        return _parse_event(line)
    except RecursionError:
        # Python's JSON reader (and repr, quoting a bad value) recurses once per nesting level.
        raise ReplayFormatError("JSON nested too deeply (an event is one flat object)") from None


def _parse_event(line: str) -> Event:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        raise ReplayFormatError(f"not valid JSON ({error.msg} at column {error.colno})") from None
    if not isinstance(record, dict):
        raise ReplayFormatError(f"an event is a JSON object, got {type(record).__name__}")
    name = record.get("event")
    if not isinstance(name, str) or name not in _EVENTS:
        raise ReplayFormatError(f"unknown or missing \"event\" {name!r}; expected one of {', '.join(_EVENTS)}")
    cls, fields = _EVENTS[name]
    expected = {"tick", "event", *fields}
    missing = [f for f in ("tick", *fields) if f not in record]
    if missing:
        raise ReplayFormatError(f"{name} event lacks {', '.join(repr(f) for f in missing)}")
    extra = sorted(set(record) - expected)
    if extra:
        raise ReplayFormatError(f"{name} event has unknown field(s) {', '.join(repr(f) for f in extra)}")
    tick = record["tick"]
    if isinstance(tick, bool) or not isinstance(tick, int) or tick < 0:
        raise ReplayFormatError(f"\"tick\" must be an integer >= 0, got {tick!r}")
    return cls(tick, *(record[f] for f in fields))


def validate_event(event: Event) -> Event:
    """`event` itself when its fields are valid; ReplayFormatError naming the bad field otherwise."""
    if isinstance(event, (KeyDown, KeyUp)):
        if not isinstance(event.key, str) or not event.key or event.key != event.key.strip():
            raise ReplayFormatError(
                f"\"key\" must be a non-empty key name without surrounding spaces, got {event.key!r}")
    elif isinstance(event, Look):
        for name in ("yaw", "pitch"):
            value = getattr(event, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ReplayFormatError(f"\"{name}\" must be a finite number of degrees, got {value!r}")
        if not -MAX_PITCH <= event.pitch <= MAX_PITCH:
            raise ReplayFormatError(
                f"\"pitch\" must be within [-{MAX_PITCH:g}, {MAX_PITCH:g}] degrees, got {event.pitch!r}")
    elif isinstance(event, (Click, Release)):
        if event.button not in CLICK_BUTTONS:
            raise ReplayFormatError(f"\"button\" must be one of {', '.join(CLICK_BUTTONS)}, got {event.button!r}")
    elif isinstance(event, PutInSlot):
        slot = event.slot
        if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < SLOT_COUNT:
            raise ReplayFormatError(f"\"slot\" must be a hotbar slot 0..{SLOT_COUNT - 1}, got {preview(slot)}")
        try:
            known = isinstance(event.block, str) and holdable(event.block)
        except ValueError:  # UnknownBlockError: a name the registry lacks
            known = False
        if not known:
            raise ReplayFormatError(f"\"block\" must name a block the hotbar can hold, got {preview(event.block)}")
    else:
        raise TypeError(f"not a replay event: {event!r}")
    return event


def parse_replay(lines: Iterable[str], source: str = "<replay>") -> tuple[Event, ...]:
    """Every event of a replay, in order. Errors name `source` and the 1-based line number."""
    events: list[Event] = []
    last_tick = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            event = parse_event(line)
        except ReplayFormatError as error:
            raise ReplayFormatError(f"{source} line {number}: {error}") from None
        if event.tick < last_tick:
            raise ReplayFormatError(
                f"{source} line {number}: tick {event.tick} comes after tick {last_tick}; events must be in tick order")
        last_tick = event.tick
        events.append(event)
    return tuple(events)


def read_replay(path: str | Path) -> tuple[Event, ...]:
    """Parse the replay file at `path` (UTF-8 JSON Lines); ReplayFormatError naming the line that
    is not UTF-8 or not a valid event, OSError when it cannot be read."""
    path = Path(path)
    with path.open("rb") as file:
        return parse_replay(_utf8_lines(file, str(path)), source=str(path))


def _utf8_lines(file: Iterable[bytes], source: str) -> Iterator[str]:
    """Each line of a binary file as text; ReplayFormatError naming the line that is not UTF-8."""
    for number, raw in enumerate(file, start=1):
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ReplayFormatError(f"{source} line {number}: not UTF-8 text "
                                    f"(byte {raw[error.start]:#04x} at column {error.start + 1})") from None


def format_event(event: Event) -> str:
    """One event as its JSON line (without the newline): tick first, then event, then its fields."""
    validate_event(event)
    record: dict[str, object] = {"tick": event.tick, "event": _NAMES[type(event)]}
    for field in _EVENTS[record["event"]][1]:
        record[field] = getattr(event, field)
    return json.dumps(record)


class ReplayWriter:
    """Appends events to a text stream as JSON Lines, flushing each line (a crash keeps what was played)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._last_tick = 0

    @classmethod
    def open(cls, path: str | Path) -> ReplayWriter:
        """A writer on a new file at `path` (an existing file is replaced)."""
        return cls(Path(path).open("w", encoding="utf-8"))

    def write(self, event: Event) -> None:
        if event.tick < self._last_tick:
            raise ValueError(f"events must be written in tick order: tick {event.tick} after tick {self._last_tick}")
        line = format_event(event)
        self._last_tick = event.tick
        self._stream.write(line + "\n")
        self._stream.flush()

    def close(self) -> None:
        self._stream.close()

    def __enter__(self) -> ReplayWriter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class ReplayCursor:
    """Walks a replay tick by tick: `due(tick)` returns the events for that tick, in file order."""

    def __init__(self, events: Sequence[Event]) -> None:
        self._events = tuple(events)
        self._next = 0

    def due(self, tick: int) -> tuple[Event, ...]:
        """Events whose tick is <= `tick` that were not handed out yet (call with increasing ticks)."""
        start = self._next
        end = start
        while end < len(self._events) and self._events[end].tick <= tick:
            end += 1
        self._next = end
        return self._events[start:end]

    @property
    def finished(self) -> bool:
        """Every event has been handed out."""
        return self._next >= len(self._events)
