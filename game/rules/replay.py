"""The replay format: JSON Lines input events keyed by tick, for recording, replaying and scripted tests.

Owns: the event types (the input events `KeyDown`, `KeyUp`, `Look`, `Click`, `Release`, `PutInSlot`, and
the game changes the window's menus make, `SetDayTime` and `SetPeaceful`, and a line of chat, `Chat`), parsing a replay file
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
    {"tick": 60, "event": "key_down", "key": "e"}
    {"tick": 61, "event": "put_in_slot", "slot": 2, "block": "glass"}
    {"tick": 62, "event": "key_down", "key": "e"}

A line may name the player it is for, `"player": "alice"` (a name per `game.world.player_names`: 1..16
letters, digits or underscores); a line without it is the local player's (`LOCAL_PLAYER`,
"player"), and a writer leaves the field out for that player, so a single-player recording reads
and writes exactly as before players had names. A headless run joins each named player at that
player's first line.

An event with tick t takes effect just before tick t runs; ticks count from 0, so tick 0 events
shape the first tick. Key names are Ursina's ('w', 'space', 'left shift', 'f3'). Look angles are
absolute degrees in Minecraft's convention (yaw 0 faces +Z, 90 faces -X, 270 faces +X; pitch
positive looks down), as in `physics.Intent`. Blank lines are ignored.

A `put_in_slot` is the creative inventory screen's move, so, as in the window, it acts only while
the inventory is open: a `key_down` of "e" opens it and the next one closes it (as above). A
`put_in_slot` while the inventory is closed (no "e" before it, or a dead player) is ignored: the
replay still reads, and the hotbar does not change.

A `click` is a mouse button going down, a `release` the same button coming up. A button is held
from a click to its release: holding the left button digs (`game.rules.mining`: a block breaks after
Beta's dig time, with damage on). A recording also repeats a click every `BUILD_REPEAT_TICKS`
while a button stays down (with damage off a held button breaks or places again at that rate).
A click with no release after it (every file written before the `release` event existed) holds
its button until the end of the replay; with damage on, its left clicks dig on for as long as the
player looks at blocks, where they used to break one block each (the rule damage off still has).

Every change to a game during play is an event, so a recording replays it exactly: besides the
player's input (the mouse look too: the window turns its view and sends `look` events, never
setting the player's look), the pause menu's time of day and Peaceful switch are written as

    {"tick": 70, "event": "set_day_time", "day_time": 18000}
    {"tick": 70, "event": "set_peaceful", "peaceful": true}

(the window applies them at once, while paused, with the tick that runs next, as their tick). They
are heard whatever the player is doing. The launch options (`--time`, a world's saved state) are
not events: a replay starts from the world and options it was recorded with.

Every event is checked when it is made, so an event in hand is valid: a `Look` holds its yaw
wrapped into [0, 360) (any finite yaw names a direction; wrapping keeps it within what
`physics.Intent` accepts) and refuses a pitch beyond +-MAX_PITCH or an angle that is not a finite
number (an integer too large for a float included). A replay file that is not UTF-8, has a line
longer than MAX_LINE_BYTES, nests JSON beyond what an event needs or holds a number with more
digits than Python reads (`sys.get_int_max_str_digits()`, 4,300 by default) is refused with the
same `ReplayFormatError`, naming the line: a bad replay is never a traceback.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TextIO

from .inventory_events import EVENTS as INVENTORY_EVENTS, DropHeld, SlotClick
from .replay_errors import ReplayFormatError
from .hotbar import SLOT_COUNT, holdable
from ..world.player_names import LOCAL_PLAYER, check_player_name
from .saved_values import preview
from ..world.world import DAY_TICKS

MAX_PITCH = 90.0
"""[degrees] Looking straight down (and -MAX_PITCH straight up); beyond that the view flips."""
DEGREES_PER_TURN = 360.0
"""[degrees] A full turn: yaws that differ by it face the same way, so yaws are kept in [0, 360)."""

CLICK_BUTTONS = ("left", "right", "middle")
MAX_LINE_BYTES = 1024 * 1024
"""[bytes] Longest replay file line read: an event takes under 100 bytes, and a longer line is refused
once this much of it is read, so a file with no line ends (a link to /dev/zero) never fills memory."""



def is_finite_number(value: object) -> bool:
    """Whether `value` is an int or float (not a bool) that is a finite float: an int beyond float
    range (a 400-digit yaw from a replay line) is not, and is refused rather than overflowing."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int too large to convert to a float
        return False


def wrap_yaw(yaw: float) -> float:
    """[degrees] The same direction as the finite `yaw`, in [0, 360); ValueError for any other value."""
    if not is_finite_number(yaw):
        raise ValueError(f"a yaw must be a finite number of degrees, got {preview(yaw)}")
    turn = float(yaw) % DEGREES_PER_TURN
    # A tiny negative yaw wraps to 360.0 itself in binary floats (-1e-20 % 360.0 == 360.0).
    return 0.0 if turn >= DEGREES_PER_TURN else turn


def look_angles(yaw: float, pitch: float) -> tuple[float, float]:
    """[degrees] (yaw wrapped into [0, 360), pitch clamped to +-MAX_PITCH); ValueError unless both are
    finite numbers. For angles that come from the mouse or from code, where any direction is meant."""
    if not (is_finite_number(yaw) and is_finite_number(pitch)):
        raise ValueError(f"look angles must be finite numbers of degrees, "
                         f"got yaw={preview(yaw)} pitch={preview(pitch)}")
    return wrap_yaw(yaw), min(max(float(pitch), -MAX_PITCH), MAX_PITCH)


@dataclass(frozen=True, slots=True)
class KeyDown:
    tick: int
    key: str

    player: str = LOCAL_PLAYER
    """The player the event is for (`game.world.player_names`); a line without "player" is the local one's."""

    def __post_init__(self) -> None:
        validate_event(self)


@dataclass(frozen=True, slots=True)
class KeyUp:
    tick: int
    key: str

    player: str = LOCAL_PLAYER
    """The player the event is for (`game.world.player_names`); a line without "player" is the local one's."""

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

    player: str = LOCAL_PLAYER
    """The player the event is for (`game.world.player_names`); a line without "player" is the local one's."""

    def __post_init__(self) -> None:
        validate_event(self)
        object.__setattr__(self, "yaw", wrap_yaw(self.yaw))
        object.__setattr__(self, "pitch", float(self.pitch))


@dataclass(frozen=True, slots=True)
class Click:
    tick: int
    button: str
    """'left', 'right' or 'middle'."""

    player: str = LOCAL_PLAYER
    """The player the event is for (`game.world.player_names`); a line without "player" is the local one's."""

    def __post_init__(self) -> None:
        validate_event(self)


@dataclass(frozen=True, slots=True)
class Release:
    """A mouse button coming up (the button a `Click` pressed): ends digging."""

    tick: int
    button: str
    """'left', 'right' or 'middle'."""

    player: str = LOCAL_PLAYER
    """The player the event is for (`game.world.player_names`); a line without "player" is the local one's."""

    def __post_init__(self) -> None:
        validate_event(self)


@dataclass(frozen=True, slots=True)
class PutInSlot:
    """The creative inventory's move: the catalogue entry of `block` put in hotbar slot `slot`
    (what the session does with it: `game.rules.inventory.put_in_slot`). ReplayFormatError unless the
    slot is 0..8 and `block` names a block the hotbar can hold."""

    tick: int
    slot: int
    """The hotbar slot, 0..8 (slot 0 is the one the key 1 selects)."""
    block: str
    """A registry block name that can be held (`game.rules.hotbar.holdable`)."""

    player: str = LOCAL_PLAYER
    """The player the event is for (`game.world.player_names`); a line without "player" is the local one's."""

    def __post_init__(self) -> None:
        validate_event(self)


@dataclass(frozen=True, slots=True)
class SetDayTime:
    """The time of day set (the pause menu's Sunrise, Noon, Sunset and Midnight buttons): the world's
    clock moves on to the next time it reads `day_time` (`Session.set_day_time`). A change to the
    game, not a player's input, so it is heard whatever the player is doing (dead, in the inventory).
    ReplayFormatError unless `day_time` is an int 0..DAY_TICKS - 1."""

    tick: int
    day_time: int
    """[ticks] 0 sunrise, 6,000 noon, 12,000 sunset, 18,000 midnight (`game.world.world.DAY_TICKS` a day)."""

    player: str = LOCAL_PLAYER
    """The player who set it (`game.world.player_names`); the time of day is the world's, every player's."""

    def __post_init__(self) -> None:
        validate_event(self)


@dataclass(frozen=True, slots=True)
class SetPeaceful:
    """The pause menu's Peaceful switch: `peaceful` true turns the player's damage off (nothing hurts
    them, a left click breaks at once), false turns it on (`Session.damage_enabled`). A change to the
    game, not a player's input, so it is heard whatever the player is doing (dead, in the inventory).
    ReplayFormatError unless `peaceful` is true or false."""

    tick: int
    peaceful: bool

    player: str = LOCAL_PLAYER
    """The player whose damage it switches (`game.world.player_names`); damage is kept per player."""

    def __post_init__(self) -> None:
        validate_event(self)


@dataclass(frozen=True, slots=True)
class Chat:
    """A line of chat the player said (typed after T, sent with Enter): every player is told it as a
    notice, `<name> text` (`Session.apply`). Heard whatever the player is doing (dead, in the inventory).
    ReplayFormatError unless `text` is 1..MAX_CHAT_CHARACTERS printable characters, not all spaces."""

    tick: int
    text: str

    player: str = LOCAL_PLAYER
    """The player who said it (`game.world.player_names`)."""

    def __post_init__(self) -> None:
        validate_event(self)


MAX_CHAT_CHARACTERS = 100
"""[characters] Beta's longest chat line (GuiChat stops taking characters at 100)."""

Event = KeyDown | KeyUp | Look | Click | Release | PutInSlot | SetDayTime | SetPeaceful | Chat | SlotClick | DropHeld
GAME_CHANGES = (SetDayTime, SetPeaceful)
"""The events that change the game's settings rather than carry a player's input: the window sends
them from its menus (`game.window.app`), through the same path as input, so a recording has them."""

# event name -> (type, its fields after "tick" and "event")
_EVENTS: dict[str, tuple[type, tuple[str, ...]]] = {
    "key_down": (KeyDown, ("key",)),
    "key_up": (KeyUp, ("key",)),
    "look": (Look, ("yaw", "pitch")),
    "click": (Click, ("button",)),
    "release": (Release, ("button",)),
    "put_in_slot": (PutInSlot, ("slot", "block")),
    "set_day_time": (SetDayTime, ("day_time",)),
    "set_peaceful": (SetPeaceful, ("peaceful",)),
    "chat": (Chat, ("text",)),
    **INVENTORY_EVENTS,  # slot_click, drop_held: the survival screens' (`game.rules.inventory_events`)
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
    except ValueError:  # Python refuses to read an integer of more digits than its limit
        raise ReplayFormatError(f"a number has more than {sys.get_int_max_str_digits()} digits "
                                "(no event field needs more than a few)") from None
    if not isinstance(record, dict):
        raise ReplayFormatError(f"an event is a JSON object, got {type(record).__name__}")
    name = record.get("event")
    if not isinstance(name, str) or name not in _EVENTS:
        raise ReplayFormatError(f"unknown or missing \"event\" {name!r}; expected one of {', '.join(_EVENTS)}")
    cls, fields = _EVENTS[name]
    expected = {"tick", "event", *fields, "player"}
    missing = [f for f in ("tick", *fields) if f not in record]
    if missing:
        raise ReplayFormatError(f"{name} event lacks {', '.join(repr(f) for f in missing)}")
    extra = sorted(set(record) - expected)
    if extra:
        raise ReplayFormatError(f"{name} event has unknown field(s) {', '.join(repr(f) for f in extra)}")
    tick = record["tick"]
    if isinstance(tick, bool) or not isinstance(tick, int) or tick < 0:
        raise ReplayFormatError(f"\"tick\" must be an integer >= 0, got {tick!r}")
    return cls(tick, *(record[f] for f in fields), player=record.get("player", LOCAL_PLAYER))


def validate_event(event: Event) -> Event:
    """`event` itself when its fields are valid; ReplayFormatError naming the bad field otherwise."""
    if isinstance(event, (KeyDown, KeyUp)):
        if not isinstance(event.key, str) or not event.key or event.key != event.key.strip():
            raise ReplayFormatError(
                f"\"key\" must be a non-empty key name without surrounding spaces, got {preview(event.key)}")
    elif isinstance(event, Look):
        for name in ("yaw", "pitch"):
            value = getattr(event, name)
            if not is_finite_number(value):
                raise ReplayFormatError(f"\"{name}\" must be a finite number of degrees, got {preview(value)}")
        if not -MAX_PITCH <= event.pitch <= MAX_PITCH:
            raise ReplayFormatError(
                f"\"pitch\" must be within [-{MAX_PITCH:g}, {MAX_PITCH:g}] degrees, got {preview(event.pitch)}")
    elif isinstance(event, (Click, Release)):
        if not isinstance(event.button, str) or event.button not in CLICK_BUTTONS:
            raise ReplayFormatError(
                f"\"button\" must be one of {', '.join(CLICK_BUTTONS)}, got {preview(event.button)}")
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
    elif isinstance(event, SetDayTime):
        day_time = event.day_time
        if isinstance(day_time, bool) or not isinstance(day_time, int) or not 0 <= day_time < DAY_TICKS:
            raise ReplayFormatError(
                f"\"day_time\" must be a whole number of ticks 0..{DAY_TICKS - 1}, got {preview(day_time)}")
    elif isinstance(event, SetPeaceful):
        if not isinstance(event.peaceful, bool):
            raise ReplayFormatError(f"\"peaceful\" must be true or false, got {preview(event.peaceful)}")
    elif isinstance(event, Chat):
        text = event.text
        if (not isinstance(text, str) or not text.strip() or len(text) > MAX_CHAT_CHARACTERS
                or not text.isprintable()):
            raise ReplayFormatError(f"\"text\" must be 1 to {MAX_CHAT_CHARACTERS} printable characters, "
                                    f"not all spaces, got {preview(text)}")
    elif not isinstance(event, (SlotClick, DropHeld)):  # those check their fields when made
        raise TypeError(f"not a replay event: {event!r}")
    try:
        check_player_name(event.player)
    except (TypeError, ValueError) as error:
        raise ReplayFormatError(f"\"player\": {error}") from None
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


def _utf8_lines(file: BinaryIO, source: str) -> Iterator[str]:
    """Each line of a binary file as text; ReplayFormatError naming the line that is not UTF-8 or
    is longer than MAX_LINE_BYTES with its line end (read no further than that)."""
    for number, raw in enumerate(iter(lambda: file.readline(MAX_LINE_BYTES + 1), b""), start=1):
        if len(raw) > MAX_LINE_BYTES:
            raise ReplayFormatError(f"{source} line {number}: longer than {MAX_LINE_BYTES} bytes "
                                    "(an event is one short line)")
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
    if event.player != LOCAL_PLAYER:  # so every single-player line is written as it always was
        record["player"] = event.player
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
