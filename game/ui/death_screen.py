"""The death screen: a red veil over the still-running world, "You died!", a Respawn button and
the key that does the same.

Owns: the screen's widgets and calling `on_respawn` when the button is clicked.
Does not own: when the player is dead or what respawning does (`game.player`, through the
session: the window sends the respawn key as an input event, so a recording replays it),
releasing and capturing the mouse pointer (the window releases it while this is open), or
other keys.
"""

from __future__ import annotations

from collections.abc import Callable

from ursina import Button, Entity, Text, camera, color, window

from game.ui import style

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


class DeathScreen(Entity):
    """The death screen on `camera.ui`, closed until `open()`."""

    def __init__(self, on_respawn: Callable[[], None], respawn_key_label: str = "Enter", **kwargs) -> None:
        """`on_respawn()` runs when the Respawn button is clicked; `respawn_key_label` names the key in the hint."""
        super().__init__(parent=camera.ui, z=-4 * style.LAYER_STEP, **kwargs)
        self.on_respawn = on_respawn
        style.rectangle(self, 0.0, 0.0, 4.0 * max(window.aspect_ratio, 1.0), 1.0, VEIL_COLOR)
        self.title = Text("You died!", parent=self, origin=(0, 0), y=TITLE_Y, scale=style.TITLE_SCALE,
                          color=style.TEXT_COLOR, z=-style.LAYER_STEP)
        self.respawn_button = Button(text="Respawn", parent=self, model="quad", y=BUTTON_Y, z=-style.LAYER_STEP,
                                     scale=(BUTTON_WIDTH, BUTTON_HEIGHT), color=style.PANEL_COLOR,
                                     highlight_color=style.HOVER_COLOR, pressed_color=style.PANEL_COLOR,
                                     ignore_paused=True)
        self.respawn_button.text_entity.color = style.TEXT_COLOR
        self.respawn_button.on_click = self._respawn
        style.outline(self, 0.0, BUTTON_Y, BUTTON_WIDTH, BUTTON_HEIGHT, BUTTON_BORDER, style.BORDER_COLOR,
                      z=-2 * style.LAYER_STEP)
        Text(f"or press {respawn_key_label}", parent=self, origin=(0, 0), y=BUTTON_Y - HINT_GAP,
             color=style.SUBTLE_TEXT_COLOR, scale=style.TEXT_SCALE * 0.8, z=-style.LAYER_STEP)
        self.enabled = False

    @property
    def is_open(self) -> bool:
        return self.enabled

    def open(self) -> None:
        self.enabled = True

    def close(self) -> None:
        self.enabled = False

    def _respawn(self) -> None:
        self.on_respawn()
