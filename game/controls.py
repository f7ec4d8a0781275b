"""Input mapping: Ursina input names -> replay events -> held keys and look angles -> `physics.Intent`.

Owns: the key bindings, `InputState` (which keys are held and where the player looks; changed
only by replay events, whether they come from the keyboard or from a file), turning Ursina's
input strings into events, mouse-look arithmetic, and building the tick's `physics.Intent`.
Pure: no Ursina import (the app passes Ursina's strings and mouse deltas in).
Does not own: the event format (see `replay.py`) or when ticks run (see `clock.py`).

Angles are Minecraft's, as in `physics.Intent`: yaw 0 faces +Z, 90 faces -X, 270 faces +X;
pitch positive looks down. Strafe +1 is left (A), as in `physics.Intent`.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass, field

import physics

from .replay import MAX_PITCH, Click, Event, KeyDown, KeyUp, Look

MOUSE_DEGREES_PER_UNIT = 120.0
"""[degrees per Ursina screen unit] How far the view turns when the mouse moves one window
height (Ursina measures the mouse in window heights). 120 turns a full circle in three
window heights, close to Minecraft's default sensitivity."""

DEGREES_PER_TURN = 360.0

# Ursina names a few keys with a trailing " up" that are presses, not releases.
_KEYS_ENDING_IN_UP = frozenset({"page up", "gamepad dpad up"})
# Synthetic inputs Ursina derives from others; replaying the originals reproduces them.
_DERIVED_INPUTS = frozenset({"double click"})
_MOUSE_BUTTONS = {"left mouse down": "left", "right mouse down": "right", "middle mouse down": "middle"}


@dataclass(frozen=True, slots=True)
class KeyBindings:
    """Which Ursina key names drive each action; an action is on while any of its keys is held.

    Panda3D reports a shift or control key twice (as 'shift' and as 'left shift'), so the
    modifier actions list the generic name and both sided names.
    """

    forward: frozenset[str] = field(default=frozenset({"w"}))
    back: frozenset[str] = field(default=frozenset({"s"}))
    left: frozenset[str] = field(default=frozenset({"a"}))
    right: frozenset[str] = field(default=frozenset({"d"}))
    jump: frozenset[str] = field(default=frozenset({"space"}))
    sneak: frozenset[str] = field(default=frozenset({"shift", "left shift", "right shift"}))
    sprint: frozenset[str] = field(default=frozenset({"control", "left control", "right control"}))
    debug_overlay: frozenset[str] = field(default=frozenset({"f3"}))
    """Toggles the F3 overlay on key down."""


DEFAULT_BINDINGS = KeyBindings()


def event_from_ursina(name: str, tick: int) -> Event | None:
    """The replay event for one Ursina input string, taking effect at `tick`; None for key
    repeats, mouse-button releases, wheel steps and double clicks, which the game does not replay."""
    if name.endswith(" hold") or name.startswith("scroll ") or name.endswith(" mouse up") or name in _DERIVED_INPUTS:
        return None
    if name in _MOUSE_BUTTONS:
        return Click(tick, _MOUSE_BUTTONS[name])
    if name.endswith(" up") and name not in _KEYS_ENDING_IN_UP:
        return KeyUp(tick, name[: -len(" up")])
    return KeyDown(tick, name)


def turned(yaw: float, pitch: float, mouse_dx: float, mouse_dy: float,
           degrees_per_unit: float = MOUSE_DEGREES_PER_UNIT) -> tuple[float, float]:
    """Look angles after a mouse move of (dx, dy) Ursina units (right and up are positive).

    Moving right turns right (yaw grows, as in Minecraft); moving up looks up (pitch shrinks).
    Yaw is wrapped into [0, 360); pitch is clamped to [-90, 90].
    """
    yaw = (yaw + mouse_dx * degrees_per_unit) % DEGREES_PER_TURN
    pitch = min(max(pitch - mouse_dy * degrees_per_unit, -MAX_PITCH), MAX_PITCH)
    return yaw, pitch


def intent_from_keys(held: Collection[str], yaw: float, bindings: KeyBindings = DEFAULT_BINDINGS) -> physics.Intent:
    """The tick's intent from the held key names and the yaw [degrees]."""

    def on(keys: frozenset[str]) -> bool:
        return not keys.isdisjoint(held)

    return physics.Intent(
        forward=float(on(bindings.forward)) - float(on(bindings.back)),
        strafe=float(on(bindings.left)) - float(on(bindings.right)),
        yaw=yaw,
        jump=on(bindings.jump),
        sneak=on(bindings.sneak),
        sprint=on(bindings.sprint),
    )


class InputState:
    """The player's input as the simulation sees it: held keys and look angles, changed by events."""

    def __init__(self, yaw: float = 0.0, pitch: float = 0.0, bindings: KeyBindings = DEFAULT_BINDINGS) -> None:
        self.held: set[str] = set()
        self.yaw = float(yaw)
        """[degrees] Minecraft yaw."""
        self.pitch = float(pitch)
        """[degrees] Positive looks down."""
        self.bindings = bindings

    def apply(self, event: Event) -> bool:
        """Apply one event; returns True when it was a press of the debug-overlay key."""
        if isinstance(event, KeyDown):
            self.held.add(event.key)
            return event.key in self.bindings.debug_overlay
        if isinstance(event, KeyUp):
            self.held.discard(event.key)
        elif isinstance(event, Look):
            self.yaw, self.pitch = float(event.yaw), float(event.pitch)
        elif not isinstance(event, Click):
            raise TypeError(f"not an input event: {event!r}")
        return False

    def look_at(self, yaw: float, pitch: float) -> None:
        """Set the look angles directly (mouse look between ticks); pitch is clamped to [-90, 90]."""
        if not (math.isfinite(yaw) and math.isfinite(pitch)):
            raise ValueError(f"look angles must be finite degrees, got yaw={yaw!r} pitch={pitch!r}")
        self.yaw = float(yaw)
        self.pitch = min(max(float(pitch), -MAX_PITCH), MAX_PITCH)

    def intent(self) -> physics.Intent:
        return intent_from_keys(self.held, self.yaw, self.bindings)
