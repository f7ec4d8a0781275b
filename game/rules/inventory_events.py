"""The survival inventory's replay events: a click on a screen's slot, and Q (drop the held item).

Owns: `SlotClick` and `DropHeld`, frozen and checked when made (ReplayFormatError naming the bad
field), their JSON lines (`to_json` / `from_json`, in `game.rules.replay`'s shape: tick, event,
the fields, and "player" only for a player other than the local one), and `EVENTS`, the rows
`game.rules.replay`'s event table takes (name -> (type, fields after "tick" and "event")).
Does not own: what the session does with them (`game.rules.containers.Screen.click` on the open
screen; `PlayerInventory.take_held` and `DroppedItems.throw` for Q), the other events
(`game.rules.replay`) or turning the pointer's clicks into them (`game.window.ui.survival_screens`).

    {"tick": 80, "event": "slot_click", "slot": 36, "button": "left", "shift": false}
    {"tick": 81, "event": "slot_click", "slot": -999, "button": "right", "shift": false}
    {"tick": 90, "event": "drop_held", "whole_stack": false}

A slot is the open screen's slot number (`game.rules.containers`: Beta's numbers for each screen)
or OUTSIDE (-999: throw the cursor's stack). A click while no screen is open is ignored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from .containers import BUTTONS, OUTSIDE
from .replay_errors import ReplayFormatError
from .saved_values import preview
from ..world.player_names import LOCAL_PLAYER, check_player_name

MAX_SCREEN_SLOT = 89
"""The largest slot number a screen has: a double chest's 54 and the player's 36, less one."""


@dataclass(frozen=True, slots=True)
class SlotClick:
    """A click on slot `slot` of the open screen (Beta's `slotClick`): `button` "left" or "right",
    `shift` held or not."""

    tick: int
    slot: int
    """The screen's slot number 0..MAX_SCREEN_SLOT, or OUTSIDE (-999)."""
    button: str
    shift: bool

    player: str = LOCAL_PLAYER
    """The player the event is for (`game.world.player_names`)."""

    def __post_init__(self) -> None:
        _check_tick(self.tick)
        slot = self.slot
        if isinstance(slot, bool) or not isinstance(slot, int) or not (slot == OUTSIDE or 0 <= slot <= MAX_SCREEN_SLOT):
            raise _error(
                f"\"slot\" must be a screen slot 0..{MAX_SCREEN_SLOT} or {OUTSIDE}, got {preview(slot)}")
        if not isinstance(self.button, str) or self.button not in BUTTONS:
            raise _error(f"\"button\" must be one of {', '.join(BUTTONS)}, got {preview(self.button)}")
        if not isinstance(self.shift, bool):
            raise _error(f"\"shift\" must be true or false, got {preview(self.shift)}")
        _check_player(self.player)

    def to_json(self) -> str:
        return _line(self, "slot_click", {"slot": self.slot, "button": self.button, "shift": self.shift})


@dataclass(frozen=True, slots=True)
class DropHeld:
    """Q: throw the held item out (one; `whole_stack`: the whole stack, Beta 1.7.3 has no key for that)."""

    tick: int
    whole_stack: bool = False

    player: str = LOCAL_PLAYER
    """The player the event is for (`game.world.player_names`)."""

    def __post_init__(self) -> None:
        _check_tick(self.tick)
        if not isinstance(self.whole_stack, bool):
            raise _error(f"\"whole_stack\" must be true or false, got {preview(self.whole_stack)}")
        _check_player(self.player)

    def to_json(self) -> str:
        return _line(self, "drop_held", {"whole_stack": self.whole_stack})


EVENTS: dict[str, tuple[type, tuple[str, ...]]] = {
    "slot_click": (SlotClick, ("slot", "button", "shift")),
    "drop_held": (DropHeld, ("whole_stack",)),
}
"""Rows for `game.rules.replay`'s event table: name -> (type, its fields after "tick" and "event")."""


def from_json(line: str) -> SlotClick | DropHeld:
    """The event on one JSON line; ReplayFormatError saying what is wrong otherwise."""
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        raise _error(f"not a JSON event line: {preview(line)}") from None
    if not isinstance(record, dict) or record.get("event") not in EVENTS:
        raise _error(f"not a {' or '.join(EVENTS)} event: {preview(record)}")
    cls, fields = EVENTS[record["event"]]
    missing = [f for f in ("tick", *fields) if f not in record]
    if missing:
        raise _error(f"{record['event']} event lacks {', '.join(repr(f) for f in missing)}")
    extra = sorted(set(record) - {"tick", "event", "player", *fields})
    if extra:
        raise _error(f"{record['event']} event has unknown field(s) {', '.join(repr(f) for f in extra)}")
    return cls(record["tick"], *(record[f] for f in fields), player=record.get("player", LOCAL_PLAYER))


def _line(event, name: str, fields: dict) -> str:
    record = {"tick": event.tick, "event": name, **fields}
    if event.player != LOCAL_PLAYER:
        record["player"] = event.player
    return json.dumps(record)


def _error(message: str) -> Exception:
    """`ReplayFormatError(message)` (`game.rules.replay_errors`, which replay's event table shares)."""
    return ReplayFormatError(message)


def _check_tick(tick: object) -> None:
    if isinstance(tick, bool) or not isinstance(tick, int) or tick < 0:
        raise _error(f"\"tick\" must be an integer >= 0, got {preview(tick)}")


def _check_player(player: object) -> None:
    try:
        check_player_name(player)
    except (TypeError, ValueError) as error:
        raise _error(f"\"player\": {error}") from None
