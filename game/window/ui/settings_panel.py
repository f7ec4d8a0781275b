"""The settings controls shared by the pause menu and the title screen: sliders for FOV, mouse
sensitivity, view distance and sound volume, and the "View bobbing" switch.

Owns: turning slider positions into valid `UserSettings` values (`SettingRow`), the slider widget
(`SettingSlider`: only a press that starts on its bar moves it, judged from where the pointer is at
the press, never from a hover Ursina noted on an earlier frame), the view-bobbing switch, telling
the owner about every change (`on_settings_changed`, live while a slider is dragged) and saving
changed settings with `game.userdata.user_settings.save` when a drag or wheel step ends, on a switch click,
and on `commit()`; the look of a menu button (`control_button`).
Does not own: the screens around it (`pause_menu.py`, `title_screen.py`), when it is shown, or
applying the settings (the game does that through `on_settings_changed`).

Sliders: click or drag along a slider to set its value, or turn the mouse wheel over it for one
step at a time. Values snap to the row's step and stay within the `game.userdata.user_settings` ranges.
Every part ignores `application.paused`, so the controls work while the app pauses the game.
Sizes are in window heights on `camera.ui` (see `style.py`), before a screen scales its content to fit the window.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ursina import Button, Entity, Text, camera, mouse

from ...userdata import user_settings
from . import style
from ...userdata.user_settings import (FOV_RANGE_DEGREES, SENSITIVITY_RANGE, SOUND_VOLUME_RANGE, VIEW_DISTANCE_RANGE_COLUMNS,
                                UserSettings)

CONTROL_WIDTH = 0.62
"""[window heights] Width of every button and slider."""
CONTROL_HEIGHT = 0.066
CONTROL_BORDER = 0.003
CONTROL_SPACING = 0.082
"""[window heights] From one control's centre line to the next one's."""
MAX_SPACING = 0.2
"""[window heights] The widest spacing a panel takes: its five rows then span the window's height."""
KNOB_WIDTH = 0.018
KNOB_TRAVEL = CONTROL_WIDTH - 2 * CONTROL_BORDER - KNOB_WIDTH
"""[window heights] How far the knob's centre moves from one end of a slider to the other."""
SWITCH_FIELD = "view_bobbing"
"""The one on/off setting, shown as a button under the sliders."""


@dataclass(frozen=True)
class SettingRow:
    """One slider: which `UserSettings` field it sets, its range and step, and how it reads."""

    field: str
    label: str
    low: float
    high: float
    step: float
    decimals: int
    """Digits kept after snapping to the step (0 for whole numbers)."""
    unit: str = ""

    def fraction(self, value: float) -> float:
        """Where `value` sits on the slider, 0 (left end) to 1 (right end)."""
        return min(max((value - self.low) / (self.high - self.low), 0.0), 1.0)

    def value_at(self, fraction: float) -> float | int:
        """The setting value at `fraction` of the slider: snapped to the step, within [low, high]."""
        fraction = min(max(fraction, 0.0), 1.0)
        steps = round(fraction * (self.high - self.low) / self.step)
        return self.clamp(self.low + steps * self.step)

    def stepped(self, value: float, steps: int) -> float | int:
        """`value` moved by whole `steps` (the mouse wheel), snapped and kept in range."""
        return self.clamp(self.low + (round((value - self.low) / self.step) + steps) * self.step)

    def clamp(self, value: float) -> float | int:
        value = round(min(max(value, self.low), self.high), self.decimals)
        return int(value) if self.decimals == 0 else value

    def text(self, value: float) -> str:
        """The slider's caption, e.g. "FOV: 80°"."""
        return f"{self.label}: {value:.{self.decimals}f}{self.unit}"


SETTING_ROWS = (
    SettingRow("fov_degrees", "FOV", *FOV_RANGE_DEGREES, step=1.0, decimals=0, unit="°"),
    SettingRow("mouse_sensitivity", "Mouse sensitivity", *SENSITIVITY_RANGE, step=0.05, decimals=2, unit="x"),
    SettingRow("view_distance_columns", "View distance", *VIEW_DISTANCE_RANGE_COLUMNS, step=1, decimals=0,
               unit=" columns"),
    SettingRow("sound_volume", "Sound volume", *SOUND_VOLUME_RANGE, step=0.05, decimals=2),
)
"""The sliders, top to bottom."""


def switch_caption(on: bool) -> str:
    """The view-bobbing switch's caption: "View bobbing: on" or "View bobbing: off"."""
    return f"View bobbing: {'on' if on else 'off'}"


def control_button(parent: Entity, text: str, y: float, on_click: Callable[[], None], x: float = 0.0,
                   width: float = CONTROL_WIDTH) -> Button:
    """A menu button centred at (x, y) with its caption and a thin frame, working while the game is paused."""
    button = Button(text=text, parent=parent, model="quad", x=x, y=y, z=-style.LAYER_STEP, ignore_paused=True,
                    scale=(width, CONTROL_HEIGHT), color=style.PANEL_COLOR,
                    highlight_color=style.HOVER_COLOR, pressed_color=style.PANEL_COLOR)
    _size_caption(button)
    style.outline(parent, x, y, width, CONTROL_HEIGHT, CONTROL_BORDER, style.BORDER_COLOR, z=-2 * style.LAYER_STEP)
    button.on_click = on_click
    return button


def set_caption(button: Button, text: str) -> None:
    """Change a `control_button`'s caption, keeping its colour and its size on a screen shrunk to fit."""
    button.text = text
    _size_caption(button)


def _size_caption(button: Button) -> None:
    """Ursina gives a button's caption a fixed size on the screen whenever its text is set, whatever
    the button's parents' scale: scale it by theirs, so it shrinks with a screen fitted to a narrow
    window like every other text on it."""
    button.text_entity.color = style.TEXT_COLOR
    button.text_entity.world_scale = button.text_size * button.parent.world_scale_x  # Ursina: text_size x camera.ui's


class SettingSlider(Entity):
    """A Minecraft-style slider: a bar with its caption centred on it and a knob at the value."""

    def __init__(self, row: SettingRow, value: float, on_change: Callable[[float | int], None],
                 on_commit: Callable[[], None], **kwargs) -> None:
        """`on_change(value)` runs whenever the value changes; `on_commit()` when a drag or wheel step ends."""
        super().__init__(**kwargs)
        self.row = row
        self.on_change = on_change
        self.on_commit = on_commit
        self.bar = Button(parent=self, model="quad", scale=(CONTROL_WIDTH, CONTROL_HEIGHT), color=style.PANEL_COLOR,
                          highlight_color=style.HOVER_COLOR, pressed_color=style.HOVER_COLOR, ignore_paused=True)
        style.outline(self, 0.0, 0.0, CONTROL_WIDTH, CONTROL_HEIGHT, CONTROL_BORDER, style.BORDER_COLOR,
                      z=-style.LAYER_STEP)
        self.knob = style.rectangle(self, 0.0, 0.0, KNOB_WIDTH, CONTROL_HEIGHT - 2 * CONTROL_BORDER,
                                    style.ACCENT_COLOR, z=-style.LAYER_STEP)
        self.caption = Text(parent=self, origin=(0, 0), z=-2 * style.LAYER_STEP, color=style.TEXT_COLOR,
                            scale=style.TEXT_SCALE)
        self.dragging = False
        self.value = value
        self._show(value)

    def set_value(self, value: float | int) -> None:
        """Move the slider to `value` (kept in the row's range) and report a change, as a drag would."""
        value = self.row.clamp(value)
        if value != self.value:
            self.value = value
            self._show(value)
            self.on_change(value)

    def _show(self, value: float) -> None:
        self.knob.x = (self.row.fraction(value) - 0.5) * KNOB_TRAVEL
        self.caption.text = self.row.text(value)

    def contains(self, point: tuple[float, float]) -> bool:
        """Whether the `camera.ui` point (x, y) is on the slider's bar (as drawn: a screen that shrinks
        to fit the window shrinks the bar too)."""
        x, y = point[0] - self.getX(camera.ui), point[1] - self.getY(camera.ui)
        half_width, half_height = self.getSx(camera.ui) * CONTROL_WIDTH / 2, self.getSy(camera.ui) * CONTROL_HEIGHT / 2
        return abs(x) <= half_width and abs(y) <= half_height

    def fraction_at(self, x: float) -> float:
        """The fraction whose knob position is at `camera.ui` x (outside 0..1 beyond the ends)."""
        return (x - self.getX(camera.ui)) / (KNOB_TRAVEL * self.getSx(camera.ui)) + 0.5

    def press(self, point: tuple[float, float]) -> bool:
        """A left press at the `camera.ui` point: on the bar it starts a drag and moves the knob there
        (True); anywhere else it does nothing (False)."""
        if not self.contains(point):
            return False
        self.dragging = True
        self.set_value(self.row.value_at(self.fraction_at(point[0])))
        return True

    def release(self) -> None:
        """The left button released: a drag under way ends and is committed."""
        if self.dragging:
            self.dragging = False
            self.on_commit()

    def wheel(self, point: tuple[float, float], steps: int) -> bool:
        """Wheel `steps` with the pointer at the `camera.ui` point: over the bar, the value moves and is committed."""
        if not self.contains(point):
            return False
        self.set_value(self.row.stepped(self.value, steps))
        self.on_commit()
        return True

    def input(self, key: str) -> None:
        # The pointer as it is now: `mouse.hovered_entity` is from the last frame's ray, so a press
        # made on another control right after leaving the bar would still count as on the bar.
        if key == "left mouse down":
            self.press((mouse.x, mouse.y))
        elif key == "left mouse up":
            self.release()
        elif key in ("scroll up", "scroll down"):
            self.wheel((mouse.x, mouse.y), 1 if key == "scroll up" else -1)

    def update(self) -> None:
        if self.dragging:
            self.set_value(self.row.value_at(self.fraction_at(mouse.x)))


class SettingsPanel(Entity):
    """The sliders (SETTING_ROWS) one under the other from `top_y`, then the view-bobbing switch."""

    def __init__(self, settings: UserSettings, on_settings_changed: Callable[[UserSettings], None],
                 settings_path: Path | None = None, *, top_y: float, switch_x: float = 0.0,
                 switch_width: float = CONTROL_WIDTH, spacing: float = CONTROL_SPACING, **kwargs) -> None:
        """`settings_path`: where changed settings are written (default: the user's config folder).
        `switch_x`, `switch_width`: where the switch sits in its row (a screen may put a button beside it).
        `spacing`: from one row's centre line to the next (a screen short of room may set them closer)."""
        if not isinstance(settings, UserSettings):
            raise TypeError(f"a settings panel needs UserSettings, got {settings!r}")
        if isinstance(spacing, bool) or not isinstance(spacing, (int, float)):
            raise TypeError(f"spacing must be a number, got {spacing!r}")
        if not CONTROL_HEIGHT <= spacing <= MAX_SPACING:
            raise ValueError(f"spacing must be from a control's height {CONTROL_HEIGHT} to {MAX_SPACING}, "
                             f"got {spacing!r}")
        super().__init__(**kwargs)
        self.on_settings_changed = on_settings_changed
        self.settings_path = settings_path
        self._settings = settings
        self._unsaved = False
        self.sliders: dict[str, SettingSlider] = {}
        y = top_y
        for row in SETTING_ROWS:
            self.sliders[row.field] = SettingSlider(row, getattr(settings, row.field), self._changed,
                                                    self.save_if_changed, parent=self, y=y, z=-style.LAYER_STEP,
                                                    ignore_paused=True)
            y -= spacing
        self.switch_y = y
        """[window heights] The centre line of the switch's row."""
        self.bobbing_button = control_button(self, switch_caption(settings.view_bobbing), y, self._toggle_bobbing,
                                             x=switch_x, width=switch_width)

    @property
    def settings(self) -> UserSettings:
        """The settings as the controls show them now."""
        return self._settings

    def commit(self) -> None:
        """End any drag and save the settings if they changed (a screen closing calls this)."""
        for slider in self.sliders.values():
            slider.dragging = False
        self.save_if_changed()

    def _changed(self, _value: float | int) -> None:
        self._update(**{field: slider.value for field, slider in self.sliders.items()})

    def _update(self, **changes) -> None:
        updated = self._settings.with_changes(**changes)
        if updated != self._settings:
            self._settings = updated
            self._unsaved = True
            self.on_settings_changed(updated)

    def _toggle_bobbing(self) -> None:
        self._update(view_bobbing=not self._settings.view_bobbing)
        set_caption(self.bobbing_button, switch_caption(self._settings.view_bobbing))
        self.save_if_changed()

    def save_if_changed(self) -> None:
        """Write changed settings; a file that cannot be written is a warning, never a crash (they
        stay in use for this session and are tried again at the next change)."""
        if self._unsaved:
            try:
                user_settings.save(self._settings, self.settings_path)
            except OSError as error:
                warnings.warn(f"could not save the settings: {error}", stacklevel=2)
                return
            self._unsaved = False
