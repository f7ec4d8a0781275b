"""The death screen: a red veil over the still-running world, "You died!", a Respawn button and
the key that does the same.

Owns: the screen's widgets and calling `on_respawn` when the button is clicked.
Does not own: when the player is dead or what respawning does (`game.rules.player`, through the
session: the window sends the respawn key as an input event, so a recording replays it),
releasing and capturing the mouse pointer (the window releases it while this is open), or
other keys.

Fitting the window: the title, button and hint shrink together about the window's centre where
the button (the widest part, BUTTON_WIDTH) would not fit between the window margins
(`content_scale`); the veil always covers the window. Checked every frame while open.
"""

from __future__ import annotations

from collections.abc import Callable

from ursina import Button, Entity, Text, camera, color, window

from . import style

VEIL_COLOR = color.rgba(0.45, 0.0, 0.0, 0.55)
"""Dark translucent red over the whole window: the world stays visible behind it."""
TITLE_Y = 0.16
BUTTON_Y = -0.04
BUTTON_WIDTH = 0.5
"""[window heights]"""
BUTTON_HEIGHT = 0.066
BUTTON_BORDER = 0.003
HINT_GAP = 0.075
"""[window heights] From the button's centre line down to the hint below it."""


def content_scale(aspect_ratio: float) -> float:
    """How much the title, button and hint shrink in a window of `aspect_ratio`: 1.0 where the
    button fits between the window margins."""
    return style.fit_scale(style.window_width(aspect_ratio), BUTTON_WIDTH)


class DeathScreen(Entity):
    """The death screen on `camera.ui`, closed until `open()`."""

    def __init__(self, on_respawn: Callable[[], None], respawn_key_label: str = "Enter", **kwargs) -> None:
        """`on_respawn()` runs when the Respawn button is clicked; `respawn_key_label` names the key in the hint."""
        super().__init__(parent=camera.ui, z=-4 * style.LAYER_STEP, **kwargs)
        self.on_respawn = on_respawn
        self.veil = style.rectangle(self, 0.0, 0.0, style.cover_width(window.aspect_ratio), 1.0, VEIL_COLOR)
        self.content = Entity(parent=self)
        """The title, button and hint at full size, scaled as a whole to fit the window."""
        self._window = style.AspectWatch()
        self.title = Text("You died!", parent=self.content, origin=(0, 0), y=TITLE_Y, scale=style.TITLE_SCALE,
                          color=style.TEXT_COLOR, z=-style.LAYER_STEP)
        self.respawn_button = Button(text="Respawn", parent=self.content, model="quad", y=BUTTON_Y,
                                     z=-style.LAYER_STEP,
                                     scale=(BUTTON_WIDTH, BUTTON_HEIGHT), color=style.PANEL_COLOR,
                                     highlight_color=style.HOVER_COLOR, pressed_color=style.PANEL_COLOR,
                                     ignore_paused=True)
        self.respawn_button.text_entity.color = style.TEXT_COLOR
        self.respawn_button.on_click = self._respawn
        style.outline(self.content, 0.0, BUTTON_Y, BUTTON_WIDTH, BUTTON_HEIGHT, BUTTON_BORDER, style.BORDER_COLOR,
                      z=-2 * style.LAYER_STEP)
        Text(f"or press {respawn_key_label}", parent=self.content, origin=(0, 0), y=BUTTON_Y - HINT_GAP,
             color=style.SUBTLE_TEXT_COLOR, scale=style.TEXT_SCALE * 0.8, z=-style.LAYER_STEP)
        self._fit_window()
        self.enabled = False

    @property
    def is_open(self) -> bool:
        return self.enabled

    def open(self) -> None:
        self._fit_window()
        self.enabled = True

    def update(self) -> None:
        """Ursina calls this every frame while open: fit a resized window."""
        self._fit_window()

    def _fit_window(self) -> None:
        aspect_ratio = window.aspect_ratio
        if self._window.changed(aspect_ratio):
            self.content.scale = content_scale(aspect_ratio)
            self.veil.scale_x = style.cover_width(aspect_ratio)

    def close(self) -> None:
        self.enabled = False

    def _respawn(self) -> None:
        self.on_respawn()
