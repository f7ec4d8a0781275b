"""The pause menu (Esc): Resume, sliders for FOV, mouse sensitivity, view distance and sound volume, the
Peaceful switch, the time of day (Sunrise, Noon, Sunset, Midnight), Save and quit.

Owns: the menu's widgets, turning slider positions into valid `UserSettings` values
(`SettingRow`), telling the game about every change (`on_settings_changed`, live while a slider
is dragged) and saving changed settings with `game.user_settings.save` when a drag or wheel step
ends, and when the menu closes; the Peaceful button's caption and telling the game when it is
clicked (`on_peaceful_changed`: peaceful is the session's damage switch, saved with the player,
not a user setting); the time buttons and telling the game the time chosen (`on_time_chosen(ticks)`,
one of TIME_CHOICES: the session's time of day, saved with the world, not a user setting).
Does not own: when the menu opens or closes (the app calls `open` on Esc and `close` on Esc
again), pausing the game, releasing and capturing the mouse pointer (the app must release it
on `open` so the menu can be clicked, and capture it again after `close`), applying settings to
the camera or the streamer (`on_settings_changed`), or saving the world (`on_save_and_quit`).

Sliders: click or drag along a slider to set its value, or turn the mouse wheel over it for one
step at a time. Values snap to the row's step and stay within the `game.user_settings` ranges.
Every part ignores `application.paused`, so the menu works while the app pauses the game.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ursina import Button, Entity, Text, camera, mouse, window

from game import user_settings
from game.render.sky import MIDNIGHT_TICKS, NOON_TICKS, SUNSET_TICKS
from game.ui import style
from game.user_settings import (FOV_RANGE_DEGREES, SENSITIVITY_RANGE, SOUND_VOLUME_RANGE, VIEW_DISTANCE_RANGE_COLUMNS,
                                UserSettings)

CONTROL_WIDTH = 0.62
"""[window heights] Width of every button and slider."""
CONTROL_HEIGHT = 0.066
CONTROL_BORDER = 0.003
CONTROL_SPACING = 0.082
"""[window heights] From one control's centre line to the next one's."""
KNOB_WIDTH = 0.018
KNOB_TRAVEL = CONTROL_WIDTH - 2 * CONTROL_BORDER - KNOB_WIDTH
"""[window heights] How far the knob's centre moves from one end of a slider to the other."""
TITLE_Y = 0.37
FIRST_CONTROL_Y = 0.23
"""[window heights] High enough that the last control's hint (with the time row, six controls below
Resume) stays inside the window, whose bottom edge is at -0.5."""
HINT_GAP = 0.075
"""[window heights] From the last button's centre line down to the hint below it."""
TIME_CHOICES = (("Sunrise", 0), ("Noon", NOON_TICKS), ("Sunset", SUNSET_TICKS), ("Midnight", MIDNIGHT_TICKS))
"""The time buttons, left to right: caption and time of day [ticks]."""
TIME_BUTTON_GAP = 0.01
"""[window heights] Between two time buttons in their row."""


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
"""The menu's sliders, top to bottom."""


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

    def _fraction_under_mouse(self) -> float:
        """The fraction whose knob position is under the pointer (outside 0..1 beyond the ends)."""
        return (mouse.x - self.getX(camera.ui)) / KNOB_TRAVEL + 0.5

    def input(self, key: str) -> None:
        if key == "left mouse down" and mouse.hovered_entity is self.bar:
            self.dragging = True
            self.set_value(self.row.value_at(self._fraction_under_mouse()))
        elif key == "left mouse up" and self.dragging:
            self.dragging = False
            self.on_commit()
        elif key in ("scroll up", "scroll down") and mouse.hovered_entity is self.bar:
            self.set_value(self.row.stepped(self.value, 1 if key == "scroll up" else -1))
            self.on_commit()

    def update(self) -> None:
        if self.dragging:
            self.set_value(self.row.value_at(self._fraction_under_mouse()))


def peaceful_caption(peaceful: bool) -> str:
    """The Peaceful button's caption: "Peaceful: on" (nothing hurts the player) or "Peaceful: off"."""
    return f"Peaceful: {'on' if peaceful else 'off'}"


class PauseMenu(Entity):
    """The pause menu on `camera.ui`, closed until `open()`."""

    def __init__(self, settings: UserSettings, on_resume: Callable[[], None],
                 on_settings_changed: Callable[[UserSettings], None], on_save_and_quit: Callable[[], None],
                 settings_path: Path | None = None, *, peaceful: bool = False,
                 on_peaceful_changed: Callable[[bool], None] | None = None,
                 on_time_chosen: Callable[[int], None] | None = None, **kwargs) -> None:
        """`settings_path`: where changed settings are written (default: the user's config folder).
        `peaceful`: the Peaceful button's state at first; `on_peaceful_changed(peaceful)` runs on each click.
        `on_time_chosen(ticks)` runs when a time button is clicked (without it the row is not shown)."""
        if not isinstance(settings, UserSettings):
            raise TypeError(f"PauseMenu needs UserSettings, got {settings!r}")
        super().__init__(parent=camera.ui, z=-5 * style.LAYER_STEP, **kwargs)
        self.on_resume = on_resume
        self.on_settings_changed = on_settings_changed
        self.on_save_and_quit = on_save_and_quit
        self.settings_path = settings_path
        self.on_peaceful_changed = on_peaceful_changed
        self.on_time_chosen = on_time_chosen
        self._settings = settings
        self._unsaved = False

        style.rectangle(self, 0.0, 0.0, 4.0 * max(window.aspect_ratio, 1.0), 1.0, style.SHADE_COLOR)
        Text("Paused", parent=self, origin=(0, 0), y=TITLE_Y, scale=style.TITLE_SCALE * 0.8, color=style.TEXT_COLOR,
             z=-style.LAYER_STEP)
        y = FIRST_CONTROL_Y
        self.resume_button = self._button("Resume", y, self._resume)
        self.sliders: dict[str, SettingSlider] = {}
        for row in SETTING_ROWS:
            y -= CONTROL_SPACING
            self.sliders[row.field] = SettingSlider(row, getattr(settings, row.field), self._changed,
                                                    self._save_if_changed, parent=self, y=y, z=-style.LAYER_STEP,
                                                    ignore_paused=True)
        y -= CONTROL_SPACING
        self.peaceful_button = self._button(peaceful_caption(peaceful), y, self._toggle_peaceful)
        self.peaceful = bool(peaceful)
        self.time_buttons: dict[str, Button] = {}
        if on_time_chosen is not None:
            y -= CONTROL_SPACING
            width = (CONTROL_WIDTH - (len(TIME_CHOICES) - 1) * TIME_BUTTON_GAP) / len(TIME_CHOICES)
            for k, (caption, ticks) in enumerate(TIME_CHOICES):
                x = -CONTROL_WIDTH / 2 + width / 2 + k * (width + TIME_BUTTON_GAP)
                self.time_buttons[caption] = self._button(caption, y, lambda ticks=ticks: self._choose_time(ticks),
                                                          x=x, width=width)
        y -= 1.5 * CONTROL_SPACING
        self.quit_button = self._button("Save and quit", y, self._save_and_quit)
        Text("Esc to resume", parent=self, origin=(0, 0), y=y - HINT_GAP, color=style.SUBTLE_TEXT_COLOR,
             scale=style.TEXT_SCALE * 0.8, z=-style.LAYER_STEP)
        self.enabled = False

    def _button(self, text: str, y: float, on_click: Callable[[], None], x: float = 0.0,
                width: float = CONTROL_WIDTH) -> Button:
        button = Button(text=text, parent=self, model="quad", x=x, y=y, z=-style.LAYER_STEP, ignore_paused=True,
                        scale=(width, CONTROL_HEIGHT), color=style.PANEL_COLOR,
                        highlight_color=style.HOVER_COLOR, pressed_color=style.PANEL_COLOR)
        button.text_entity.color = style.TEXT_COLOR
        style.outline(self, x, y, width, CONTROL_HEIGHT, CONTROL_BORDER, style.BORDER_COLOR,
                      z=-2 * style.LAYER_STEP)
        button.on_click = on_click
        return button

    # --- state -------------------------------------------------------------------------------

    @property
    def settings(self) -> UserSettings:
        """The settings as the sliders show them now."""
        return self._settings

    @property
    def is_open(self) -> bool:
        return self.enabled

    def open(self) -> None:
        """Show the menu (the app pauses the game and releases the mouse)."""
        self.enabled = True

    def close(self) -> None:
        """Hide the menu, saving any settings change not yet saved."""
        for slider in self.sliders.values():
            slider.dragging = False
        self._save_if_changed()
        self.enabled = False

    # --- actions -------------------------------------------------------------------------------

    def _changed(self, _value: float | int) -> None:
        changes = {field: slider.value for field, slider in self.sliders.items()}
        updated = self._settings.with_changes(**changes)
        if updated != self._settings:
            self._settings = updated
            self._unsaved = True
            self.on_settings_changed(updated)

    def _save_if_changed(self) -> None:
        """Write changed settings; a file that cannot be written is a warning, never a crash (they
        stay in use for this session and are tried again at the next change)."""
        if self._unsaved:
            try:
                user_settings.save(self._settings, self.settings_path)
            except OSError as error:
                warnings.warn(f"could not save the settings: {error}", stacklevel=2)
                return
            self._unsaved = False

    def show_peaceful(self, peaceful: bool) -> None:
        """Show `peaceful` on the button (the game's state, e.g. after loading a save)."""
        self.peaceful = bool(peaceful)
        self.peaceful_button.text = peaceful_caption(self.peaceful)
        self.peaceful_button.text_entity.color = style.TEXT_COLOR

    def _toggle_peaceful(self) -> None:
        self.show_peaceful(not self.peaceful)
        if self.on_peaceful_changed is not None:
            self.on_peaceful_changed(self.peaceful)

    def _choose_time(self, ticks: int) -> None:
        if self.on_time_chosen is not None:
            self.on_time_chosen(ticks)

    def _resume(self) -> None:
        self.close()
        self.on_resume()

    def _save_and_quit(self) -> None:
        self.close()
        self.on_save_and_quit()

