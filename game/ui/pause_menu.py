"""The pause menu (Esc): Resume, the settings (sliders for FOV, mouse sensitivity, view distance and
sound volume; the View bobbing switch) with the Peaceful switch beside View bobbing, the time of day
(Sunrise, Noon, Sunset, Midnight), Save and quit.

Owns: the menu's layout and buttons; the Peaceful button's caption and telling the game when it is
clicked (`on_peaceful_changed`: peaceful is the session's damage switch, saved with the player, not
a user setting); the time buttons and telling the game the time chosen (`on_time_chosen(ticks)`,
one of TIME_CHOICES: the session's time of day, saved with the world, not a user setting); saving
changed settings when the menu closes.
Does not own: the settings controls (`game.ui.settings_panel`: the sliders, the View bobbing switch,
telling the game about each change through `on_settings_changed` and saving them), when the menu
opens or closes (the app calls `open` on Esc and `close` on Esc again), pausing the game, releasing
and capturing the mouse pointer (the app must release it on `open` so the menu can be clicked, and
capture it again after `close`), applying settings to the camera or the streamer, or saving the
world (`on_save_and_quit`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ursina import Button, Entity, Text, camera, window

from game.render.sky import MIDNIGHT_TICKS, NOON_TICKS, SUNSET_TICKS
from game.ui import style
from game.ui.settings_panel import (CONTROL_HEIGHT, CONTROL_SPACING, CONTROL_WIDTH, KNOB_TRAVEL, SETTING_ROWS,
                                    SettingRow, SettingSlider, SettingsPanel, control_button, set_caption)
from game.user_settings import UserSettings

__all__ = ["PauseMenu", "TIME_CHOICES", "peaceful_caption", "SETTING_ROWS", "SettingRow", "SettingSlider",
           "KNOB_TRAVEL", "CONTROL_WIDTH", "CONTROL_HEIGHT"]

TITLE_Y = 0.37
FIRST_CONTROL_Y = 0.23
"""[window heights] High enough that the last control's hint (with the time row, six controls below
Resume) stays inside the window, whose bottom edge is at -0.5."""
HINT_GAP = 0.075
"""[window heights] From the last button's centre line down to the hint below it."""
TIME_CHOICES = (("Sunrise", 0), ("Noon", NOON_TICKS), ("Sunset", SUNSET_TICKS), ("Midnight", MIDNIGHT_TICKS))
"""The time buttons, left to right: caption and time of day [ticks]."""
TIME_BUTTON_GAP = 0.01
"""[window heights] Between two buttons in one row (the time buttons; View bobbing and Peaceful)."""
HALF_WIDTH = (CONTROL_WIDTH - TIME_BUTTON_GAP) / 2
"""[window heights] View bobbing and Peaceful share one row, half a control each, so the menu keeps
its height (one more full row would push the hint below the window's bottom edge)."""


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

        self.shade = style.rectangle(self, 0.0, 0.0, style.cover_width(window.aspect_ratio), 1.0, style.SHADE_COLOR)
        self.content = Entity(parent=self, ignore_paused=True)
        """Everything but the shade, at full size, scaled as a whole to fit a narrow window."""
        self._window = style.AspectWatch()
        Text("Paused", parent=self.content, origin=(0, 0), y=TITLE_Y, scale=style.TITLE_SCALE * 0.8,
             color=style.TEXT_COLOR, z=-style.LAYER_STEP)
        y = FIRST_CONTROL_Y
        self.resume_button = self._button("Resume", y, self._resume)
        self.panel = SettingsPanel(settings, on_settings_changed, settings_path, top_y=y - CONTROL_SPACING,
                                   switch_x=(HALF_WIDTH - CONTROL_WIDTH) / 2, switch_width=HALF_WIDTH,
                                   parent=self.content, ignore_paused=True)
        y = self.panel.switch_y
        self.peaceful_button = self._button(peaceful_caption(peaceful), y, self._toggle_peaceful,
                                            x=(CONTROL_WIDTH - HALF_WIDTH) / 2, width=HALF_WIDTH)
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
        Text("Esc to resume", parent=self.content, origin=(0, 0), y=y - HINT_GAP, color=style.SUBTLE_TEXT_COLOR,
             scale=style.TEXT_SCALE * 0.8, z=-style.LAYER_STEP)
        self._fit_window()
        self.enabled = False

    def _button(self, text: str, y: float, on_click: Callable[[], None], x: float = 0.0,
                width: float = CONTROL_WIDTH) -> Button:
        return control_button(self.content, text, y, on_click, x=x, width=width)

    def update(self) -> None:
        """Ursina calls this every frame while the menu is open: fit a resized window."""
        self._fit_window()

    def _fit_window(self) -> None:
        """Shrink the controls about the centre where they would not fit the window's width; the shade covers it."""
        aspect_ratio = window.aspect_ratio
        if self._window.changed(aspect_ratio):
            self.content.scale = style.fit_scale(style.window_width(aspect_ratio), CONTROL_WIDTH)
            self.shade.scale_x = style.cover_width(aspect_ratio)

    # --- state -------------------------------------------------------------------------------

    @property
    def settings(self) -> UserSettings:
        """The settings as the controls show them now."""
        return self.panel.settings

    @property
    def sliders(self) -> dict[str, SettingSlider]:
        return self.panel.sliders

    @property
    def bobbing_button(self) -> Button:
        """The View bobbing switch."""
        return self.panel.bobbing_button

    @property
    def is_open(self) -> bool:
        return self.enabled

    def open(self) -> None:
        """Show the menu (the app pauses the game and releases the mouse)."""
        self.enabled = True

    def close(self) -> None:
        """Hide the menu, saving any settings change not yet saved."""
        self.panel.commit()
        self.enabled = False

    # --- actions -------------------------------------------------------------------------------

    def show_peaceful(self, peaceful: bool) -> None:
        """Show `peaceful` on the button (the game's state, e.g. after loading a save)."""
        self.peaceful = bool(peaceful)
        set_caption(self.peaceful_button, peaceful_caption(self.peaceful))

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

