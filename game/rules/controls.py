"""Input mapping: Ursina input names -> replay events -> held keys and look angles -> `physics.Intent`.

Owns: the key bindings and the controls table (`CONTROLS`: the README's table and `--help` are
checked against it), `LiveInput` (keyboard and mouse between ticks -> the next tick's events),
`InputState` (which keys are held and where the player looks; changed
only by replay events, whether they come from the keyboard or from a file), turning Ursina's
input strings into events, mouse-look arithmetic, and building the tick's `physics.Intent`.
Pure: no Ursina import (the app passes Ursina's strings and mouse deltas in).
Does not own: the event format (see `replay.py`), when ticks run (see `clock.py`) or what the
game keys do (`game.rules.session`).

Angles are Minecraft's, as in `physics.Intent`: yaw 0 faces +Z, 90 faces -X, 270 faces +X;
pitch positive looks down. Strafe +1 is left (A), as in `physics.Intent`.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

import physics

from .replay import Click, Event, KeyDown, KeyUp, Look, PutInSlot, Release, SlotClick, look_angles

BUILD_REPEAT_TICKS = 5
"""[ticks] While a mouse button stays down, its click repeats this often (4 per second): fast
enough to dig a tunnel, slow enough to stop after the block you meant."""
WHEEL_STEPS = {"scroll up": -1, "scroll down": 1}
"""Hotbar slots moved by one notch of the mouse wheel (up selects the slot to the left, as in Minecraft)."""

MOUSE_DEGREES_PER_UNIT = 120.0
"""[degrees per Ursina screen unit] How far the view turns when the mouse moves one window
height (Ursina measures the mouse in window heights). 120 turns a full circle in three
window heights, close to Minecraft's default sensitivity."""

# Ursina names a few keys with a trailing " up" that are presses, not releases.
_KEYS_ENDING_IN_UP = frozenset({"page up", "gamepad dpad up"})
# Synthetic inputs Ursina derives from others; replaying the originals reproduces them.
_DERIVED_INPUTS = frozenset({"double click"})
_MOUSE_BUTTONS = {"left mouse down": "left", "right mouse down": "right", "middle mouse down": "middle"}
_MOUSE_RELEASES = {"left mouse up": "left"}
"""The button releases a replay records: the left button's ends digging (`game.rules.mining`); the
other buttons act on their click alone."""


@dataclass(frozen=True, slots=True)
class KeyBindings:
    """Which Ursina key names drive each action; an action is on while any of its keys is held.

    Panda3D reports a shift or control key twice (as 'shift' and as 'left shift'), so the
    modifier actions list the generic name and both sided names. The toggles act on key down.
    """

    forward: frozenset[str] = field(default=frozenset({"w"}))
    back: frozenset[str] = field(default=frozenset({"s"}))
    left: frozenset[str] = field(default=frozenset({"a"}))
    right: frozenset[str] = field(default=frozenset({"d"}))
    jump: frozenset[str] = field(default=frozenset({"space"}))
    sneak: frozenset[str] = field(default=frozenset({"shift", "left shift", "right shift"}))
    sprint: frozenset[str] = field(default=frozenset({"control", "left control", "right control"}))
    fly: frozenset[str] = field(default=frozenset({"f"}))
    """Toggles flying."""
    spawn_mob: frozenset[str] = field(default=frozenset({"m"}))
    """Spawns a mob on the targeted face."""
    throw: frozenset[str] = field(default=frozenset({"q"}))
    """Survival: drops one of the held item (Beta's Q). Creative: throws a test projectile along the
    look (its hotbar holds blocks without counts, so there is no item to drop)."""
    toggle_hud: frozenset[str] = field(default=frozenset({"f1"}))
    screenshot: frozenset[str] = field(default=frozenset({"f2"}))
    debug_overlay: frozenset[str] = field(default=frozenset({"f3"}))
    """Toggles the F3 overlay (panel and boxes)."""
    overlay_boxes: frozenset[str] = field(default=frozenset({"b"}))
    """Toggles the overlay's boxes alone."""
    third_person: frozenset[str] = field(default=frozenset({"f5"}))
    """Toggles the third-person view (the camera behind the player)."""
    inventory: frozenset[str] = field(default=frozenset({"e"}))
    """Opens and closes the inventory (Minecraft's E): survival's, with its crafting grid, or creative's."""
    hotbar_slots: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9")
    """The key that selects each hotbar slot, slot 0 first."""

    def moves(self, key: str) -> bool:
        """`key` is one of the movement keys (walking, jumping, sneaking): it gets a sleeper out of bed."""
        return key in self.forward | self.back | self.left | self.right | self.jump | self.sneak

    def slot_of(self, key: str) -> int | None:
        """The hotbar slot `key` selects, None if it selects none."""
        try:
            return self.hotbar_slots.index(key)
        except ValueError:
            return None


@dataclass(frozen=True, slots=True)
class Control:
    """One row of the controls table: what the player presses and what it does."""

    label: str
    """The keys as a player reads them ('W A S D')."""
    action: str
    keys: tuple[str, ...] = ()
    """The Ursina names of the keys (KeyBindings values; empty for the mouse look)."""


PAUSE_KEY = "escape"
"""Opens and closes the pause menu (handled by the window, never a replay event)."""
RESPAWN_KEY = "enter"
"""Respawns a dead player (a replay event like any key; the death screen's button sends it too)."""
CHAT_KEY = "t"
"""Opens the chat input line (Beta's GuiChat; handled by the window, which sends what is typed as a
`chat` replay event)."""
MOUSE_BUTTON_KEYS = ("left mouse down", "right mouse down", "middle mouse down")
WHEEL_KEYS = ("scroll up", "scroll down")

DEFAULT_BINDINGS = KeyBindings()


def _keys(*names: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted(set().union(*names)))


_B = DEFAULT_BINDINGS
CONTROLS: tuple[Control, ...] = (
    Control("mouse", "look"),
    Control("W A S D", "walk (double-tap W or hold Ctrl to sprint)",
            _keys(_B.forward, _B.back, _B.left, _B.right, _B.sprint)),
    Control("Space", "jump (hold to keep jumping); fly up", _keys(_B.jump)),
    Control("Shift", "sneak (you do not walk off edges; the view lowers); fly down", _keys(_B.sneak)),
    Control("F", "toggle flying", _keys(_B.fly)),
    Control("left / right / middle click", "dig (hold; creative in peaceful: break at once) / use a door, bed, "
            "table, chest or furnace, else place the held block or eat / pick block (creative)", MOUSE_BUTTON_KEYS),
    Control("1-9, mouse wheel", "choose the hotbar slot", (*_B.hotbar_slots, *WHEEL_KEYS)),
    Control("E", "inventory: survival's 36 slots and 2x2 crafting grid (left click picks up or puts down, right "
            "click splits or puts one, shift-click moves); creative's blocks (click one, then a hotbar slot; 1-9 "
            "over a block puts it there); E or Esc closes", _keys(_B.inventory)),
    Control("M", "spawn a mob where you look", _keys(_B.spawn_mob)),
    Control("Q", "drop one of the held item (creative: throw a projectile that knocks mobs back)", _keys(_B.throw)),
    Control("F1", "hide the HUD", _keys(_B.toggle_hud)),
    Control("F2", "save a screenshot", _keys(_B.screenshot)),
    Control("F3", "debug overlay: boxes, contacts and numbers", _keys(_B.debug_overlay)),
    Control("B", "the overlay's boxes alone", _keys(_B.overlay_boxes)),
    Control("F5", "third person: the camera behind you", _keys(_B.third_person)),
    Control("T", "chat: type a line; Enter says it to every player, Esc closes it", (CHAT_KEY,)),
    Control("Enter", "respawn after dying (the death screen's button does too)", (RESPAWN_KEY,)),
    Control("Esc", "pause menu: settings, peaceful, save and quit", (PAUSE_KEY,)),
)
"""Every control, in the order the README's table and `--help` list them: the one place they are written."""


def controls_markdown() -> str:
    """The controls as the README's Markdown table."""
    rows = ["| key | action |", "|---|---|"] + [f"| {c.label} | {c.action} |" for c in CONTROLS]
    return "\n".join(rows)


def controls_help() -> str:
    """The controls as one paragraph for `--help`."""
    return "Controls: " + "; ".join(f"{c.label}: {c.action}" for c in CONTROLS) + "."


def event_from_ursina(name: str, tick: int) -> Event | None:
    """The replay event for one Ursina input string, taking effect at `tick`: a `Release` for the
    left button's release; None for key repeats, the other buttons' releases, wheel steps and double
    clicks, which the game does not replay."""
    if name in _MOUSE_RELEASES:
        return Release(tick, _MOUSE_RELEASES[name])
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
    return look_angles(yaw + mouse_dx * degrees_per_unit, pitch - mouse_dy * degrees_per_unit)


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
    """The player's input as the simulation sees it: held keys and look angles, changed by events.

    The look angles are always valid: yaw in [0, 360), pitch within +-MAX_PITCH (`replay.look_angles`
    wraps and clamps whatever angles it is given, and refuses ones that are not finite), so the
    intent, the saved player and the report never hold an angle the next launch could not use."""

    def __init__(self, yaw: float = 0.0, pitch: float = 0.0, bindings: KeyBindings = DEFAULT_BINDINGS) -> None:
        self.held: set[str] = set()
        self.yaw, self.pitch = look_angles(yaw, pitch)
        """[degrees] Minecraft yaw in [0, 360); pitch within +-MAX_PITCH, positive looks down."""
        self.bindings = bindings
        self._intent: tuple[tuple, physics.Intent] | None = None
        """The last intent made, with the held keys, yaw and bindings it was made from (the tick
        asks for it several times: the step, the sounds, the view's bobbing)."""

    def apply(self, event: Event) -> None:
        """Apply one event: a key held or released, or new look angles (clicks and button releases
        change nothing here)."""
        if isinstance(event, KeyDown):
            self.held.add(event.key)
        elif isinstance(event, KeyUp):
            self.held.discard(event.key)
        elif isinstance(event, Look):
            self.yaw, self.pitch = look_angles(event.yaw, event.pitch)
        elif not isinstance(event, (Click, Release)):
            raise TypeError(f"not an input event: {event!r}")

    def look_at(self, yaw: float, pitch: float) -> None:
        """Set the look angles directly (mouse look between ticks): yaw wrapped into [0, 360), pitch
        clamped to [-90, 90]; ValueError (nothing changes) unless both are finite."""
        self.yaw, self.pitch = look_angles(yaw, pitch)

    def intent(self) -> physics.Intent:
        """The intent of the held keys and the yaw (`intent_from_keys`), made again only when they changed."""
        made_from = (frozenset(self.held), self.yaw, self.bindings)
        if self._intent is None or self._intent[0] != made_from:
            self._intent = (made_from, intent_from_keys(self.held, self.yaw, self.bindings))
        return self._intent[1]


class LiveInput:
    """Keyboard and mouse input between ticks -> the replay events of the next tick.

    Collects Ursina input names as they arrive; `events_for(tick, ...)` hands out, in order: a
    `look` event when the look angles changed since the last one, the key and click events
    received (with the inventory screen's `put_in_slot` events where they came among them; the
    left button's release as a `release`), a repeated click for each mouse button held down for
    another BUILD_REPEAT_TICKS, and the digit
    key of the slot the mouse wheel moved to (so a replay needs no wheel event).
    """

    def __init__(self, yaw: float, pitch: float, bindings: KeyBindings = DEFAULT_BINDINGS) -> None:
        self.bindings = bindings
        self._received: list[str | tuple[int, str]] = []
        """Ursina input names, the creative inventory screen's puts (slot, block) and the survival
        screens' clicks (slot, button, shift), in arrival order."""
        self._recorded_look = look_angles(yaw, pitch)
        self._held_buttons: dict[str, int] = {}  # button -> tick of its last click
        self._wheel_steps = 0

    def receive(self, name: str) -> None:
        """One Ursina input name (e.g. 'w', 'w up', 'left mouse down', 'scroll up')."""
        if name in WHEEL_STEPS:
            self._wheel_steps += WHEEL_STEPS[name]
        else:
            self._received.append(name)

    def put_in_slot(self, slot: int, block: str) -> None:
        """The creative inventory screen put `block` in hotbar slot `slot`: a `PutInSlot` event of
        the next tick, in order with the keys received around it."""
        self._received.append((slot, block))

    def slot_click(self, slot: int, button: str, shift: bool) -> None:
        """The survival screen's click on its slot `slot` (`game.window.ui.survival_screens`): a
        `SlotClick` event of the next tick, in order with the keys received around it."""
        self._received.append((slot, button, shift))

    def events_for(self, tick: int, yaw: float, pitch: float, selected_slot: int) -> list[Event]:
        """The events of tick `tick`, with the look angles now and the hotbar slot selected now."""
        events: list[Event] = []
        look = look_angles(yaw, pitch)
        if look != self._recorded_look:
            self._recorded_look = look
            events.append(Look(tick, *look))
        for name in self._received:
            if isinstance(name, tuple):
                events.append(SlotClick(tick, *name) if len(name) == 3 else PutInSlot(tick, *name))
                continue
            if name.endswith(" mouse up"):
                self._held_buttons.pop(name[: -len(" mouse up")], None)
            event = event_from_ursina(name, tick)
            if event is None:
                continue
            if isinstance(event, Click):
                self._held_buttons[event.button] = tick
            events.append(event)
        self._received.clear()
        for button, last in self._held_buttons.items():
            if tick - last >= BUILD_REPEAT_TICKS:
                self._held_buttons[button] = tick
                events.append(Click(tick, button))
        if self._wheel_steps:
            slots = self.bindings.hotbar_slots
            key = slots[(selected_slot + self._wheel_steps) % len(slots)]
            self._wheel_steps = 0
            events += [KeyDown(tick, key), KeyUp(tick, key)]
        return events
