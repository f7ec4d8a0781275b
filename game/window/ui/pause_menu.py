"""The pause menu (Esc): Resume, the settings (sliders for FOV, mouse sensitivity, view distance and
sound volume; the View bobbing switch) with the Peaceful switch beside View bobbing, the time of day
(Sunrise, Noon, Sunset, Midnight), Save and quit.

Owns: the menu's layout and buttons; the Peaceful button's caption and telling the game when it is
clicked (`on_peaceful_changed`: peaceful is the session's damage switch, saved with the player, not
a user setting); the time buttons and telling the game the time chosen (`on_time_chosen(ticks)`,
one of TIME_CHOICES: the session's time of day, saved with the world, not a user setting); saving
changed settings when the menu closes.
Does not own: the settings controls (`game.window.ui.settings_panel`: the sliders, the View bobbing switch,
telling the game about each change through `on_settings_changed` and saving them), when the menu
opens or closes (the app calls `open` on Esc and `close` on Esc again), pausing the game, releasing
and capturing the mouse pointer (the app must release it on `open` so the menu can be clicked, and
capture it again after `close`), applying settings to the camera or the streamer, or saving the
world (`on_save_and_quit`).

Layout: the title with the "Esc to resume" hint under it at the window's top, then the controls
one under the other (`menu_rows`), Save and quit a little apart at the bottom, all above the HUD's
hotbar, hearts and block name (`hud.HUD_TOP`), which stay visible under the menu's shade. In a
window narrower than a control the menu shrinks about the window's centre (`menu_scale`) and the
HUD towards the window's bottom, so they stay apart at any window shape (`menu_extent`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from ursina import Button, Entity, Text, camera, window

from ..render.sky import MIDNIGHT_TICKS, NOON_TICKS, SUNSET_TICKS
from . import style
from .settings_panel import (CONTROL_HEIGHT, CONTROL_WIDTH, KNOB_TRAVEL, SETTING_ROWS, SettingRow,
                                    SettingSlider, SettingsPanel, control_button, set_caption)
from ...userdata.user_settings import UserSettings

__all__ = ["PauseMenu", "TIME_CHOICES", "peaceful_caption", "SETTING_ROWS", "SettingRow", "SettingSlider",
           "KNOB_TRAVEL", "CONTROL_WIDTH", "CONTROL_HEIGHT", "MenuRows", "menu_rows", "menu_scale", "menu_extent",
           "PEACEFUL_X", "TIME_BUTTON_WIDTH", "time_button_x"]

TITLE_Y = 0.43
"""[window heights] Centre line of "Paused"."""
TITLE_HEIGHT = 0.06
"""[window heights] The title's letters: Ursina's 0.025-tall text at the title's 2.4 times."""
HINT_GAP = 0.055
"""[window heights] From the title's centre line down to the "Esc to resume" hint's: the hint sits
under the title, since the window's bottom is the HUD's."""
HINT_Y = TITLE_Y - HINT_GAP
"""[window heights] Centre line of the hint."""
FIRST_CONTROL_Y = 0.31
"""[window heights] Centre line of Resume, the first control."""
ROW_SPACING = 0.076
"""[window heights] From one control's centre line to the next: closer than the title screen's
(CONTROL_SPACING), so the menu, title to Save and quit, fits between the window's top and the HUD."""
QUIT_GAP = 1.25 * ROW_SPACING
"""[window heights] Save and quit is set a little apart from the rows above it."""
HUD_CLEARANCE = 0.02
"""[window heights] Least room between the menu's lowest control and the top of the HUD
(`hud.HUD_TOP`: the block name over the hearts and the hotbar), so the menu never covers them."""
TIME_CHOICES = (("Sunrise", 0), ("Noon", NOON_TICKS), ("Sunset", SUNSET_TICKS), ("Midnight", MIDNIGHT_TICKS))
"""The time buttons, left to right: caption and time of day [ticks]."""
TIME_BUTTON_GAP = 0.01
"""[window heights] Between two buttons in one row (the time buttons; View bobbing and Peaceful)."""
HALF_WIDTH = (CONTROL_WIDTH - TIME_BUTTON_GAP) / 2
"""[window heights] View bobbing and Peaceful share one row, half a control each, so the menu keeps
its height (one more full row would reach the HUD)."""
PEACEFUL_X = (CONTROL_WIDTH - HALF_WIDTH) / 2
"""[window heights] The Peaceful switch's centre across, at full size: the right half of its row."""
TIME_BUTTON_WIDTH = (CONTROL_WIDTH - (len(TIME_CHOICES) - 1) * TIME_BUTTON_GAP) / len(TIME_CHOICES)
"""[window heights] The time buttons share one row."""


def time_button_x(index: int) -> float:
    """[window heights] The centre across of the time button TIME_CHOICES[index], at full size."""
    return -CONTROL_WIDTH / 2 + TIME_BUTTON_WIDTH / 2 + index * (TIME_BUTTON_WIDTH + TIME_BUTTON_GAP)


@dataclass(frozen=True, slots=True)
class MenuRows:
    """The centre lines of the menu's rows at full size [window heights], top to bottom."""

    resume_y: float
    slider_ys: tuple[float, ...]
    """One per SETTING_ROWS slider."""
    switch_y: float
    """View bobbing and Peaceful."""
    time_y: float | None
    """The time buttons (None: no such row)."""
    quit_y: float

    @property
    def bottom(self) -> float:
        """[window heights] The lowest edge of the menu at full size: Save and quit's."""
        return self.quit_y - CONTROL_HEIGHT / 2

    @property
    def top(self) -> float:
        """[window heights] The highest edge of the menu at full size: the title's."""
        return TITLE_Y + TITLE_HEIGHT / 2


def menu_rows(with_time_row: bool) -> MenuRows:
    """Where the menu's rows are at full size, with or without the time buttons' row (the lab has none)."""
    if not isinstance(with_time_row, bool):
        raise TypeError(f"with_time_row must be True or False, got {with_time_row!r}")
    sliders = tuple(FIRST_CONTROL_Y - (k + 1) * ROW_SPACING for k in range(len(SETTING_ROWS)))
    switch_y = sliders[-1] - ROW_SPACING
    time_y = switch_y - ROW_SPACING if with_time_row else None
    quit_y = (switch_y if time_y is None else time_y) - QUIT_GAP
    return MenuRows(FIRST_CONTROL_Y, sliders, switch_y, time_y, quit_y)


def menu_scale(aspect_ratio: float) -> float:
    """How much the menu shrinks about the window's centre in a window of `aspect_ratio`: 1.0
    where a control fits between the window margins."""
    return style.fit_scale(style.window_width(aspect_ratio), CONTROL_WIDTH)


def menu_extent(aspect_ratio: float, with_time_row: bool) -> tuple[float, float, float, float]:
    """[window heights] The rectangle (left, bottom, right, top) on `camera.ui` that holds every
    control and line of the menu in a window of `aspect_ratio` (the shade covers the whole window)."""
    rows, scale = menu_rows(with_time_row), menu_scale(aspect_ratio)
    return (-CONTROL_WIDTH / 2 * scale, rows.bottom * scale, CONTROL_WIDTH / 2 * scale, rows.top * scale)


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
        rows = menu_rows(on_time_chosen is not None)
        self.rows = rows
        """Where the rows are (`menu_rows`), before the content's scale."""
        Text("Paused", parent=self.content, origin=(0, 0), y=TITLE_Y, scale=style.TITLE_SCALE * 0.8,
             color=style.TEXT_COLOR, z=-style.LAYER_STEP)
        self.hint = Text("Esc to resume", parent=self.content, origin=(0, 0), y=HINT_Y, color=style.SUBTLE_TEXT_COLOR,
                         scale=style.TEXT_SCALE * 0.8, z=-style.LAYER_STEP)
        self.resume_button = self._button("Resume", rows.resume_y, self._resume)
        self.panel = SettingsPanel(settings, on_settings_changed, settings_path, top_y=rows.slider_ys[0],
                                   switch_x=(HALF_WIDTH - CONTROL_WIDTH) / 2, switch_width=HALF_WIDTH,
                                   spacing=ROW_SPACING, parent=self.content, ignore_paused=True)
        self.peaceful_button = self._button(peaceful_caption(peaceful), rows.switch_y, self._toggle_peaceful,
                                            x=PEACEFUL_X, width=HALF_WIDTH)
        self.peaceful = bool(peaceful)
        self.time_buttons: dict[str, Button] = {}
        if rows.time_y is not None:
            for k, (caption, ticks) in enumerate(TIME_CHOICES):
                self.time_buttons[caption] = self._button(caption, rows.time_y, partial(self._choose_time, ticks),
                                                          x=time_button_x(k), width=TIME_BUTTON_WIDTH)
        self.quit_button = self._button("Save and quit", rows.quit_y, self._save_and_quit)
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
            self.content.scale = menu_scale(aspect_ratio)
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

