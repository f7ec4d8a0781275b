"""The chat input line: T opens it (Beta's key), Enter says what was typed, Esc closes it unsaid.

Owns: `ChatInput`, a one-line text field (`text_input.TextInput`) across the bottom of the window,
over the hotbar as Beta's GuiChat draws it, taking at most `replay.MAX_CHAT_CHARACTERS`; `open`,
`close`, `is_open` and `said`, the line to send when Enter is pressed (None for one that is empty or
all spaces, which Beta sends nothing for either).
Does not own: the key that opens it or what saying does (the window sends a `game.rules.replay.Chat`
event: every player is told it), the lines said (`chat_lines.py`).
"""

from __future__ import annotations

from ursina import Entity, camera, color, window

from ...rules.controls import CHAT_KEY  # noqa: F401 (the window's chat key, imported from here too)
from ...rules.replay import MAX_CHAT_CHARACTERS
from . import style
from .text_input import TextInput

SAY_KEY = "enter"
"""Says the line typed and closes the chat."""
INPUT_HEIGHT = 0.04
"""[window heights] The field's height: one line of text with room around it."""
INPUT_BOTTOM_MARGIN = 0.005
"""[window heights] Space between the field and the window's bottom edge."""
INPUT_FILL = color.rgba(0.0, 0.0, 0.0, 0.5)
"""Beta's chat field: black at half opacity."""
DEPTH = -4 * style.LAYER_STEP
"""[ui depth] In front of the HUD's hotbar (which it covers, as Beta's does), behind the pause menu."""


class ChatInput(Entity):
    """The chat's input line on `camera.ui`, hidden until `open`."""

    def __init__(self, **kwargs) -> None:
        super().__init__(parent=camera.ui, z=DEPTH, **kwargs)
        self.field = TextInput(parent=self, y=-0.5 + INPUT_BOTTOM_MARGIN + INPUT_HEIGHT / 2.0, z=-style.LAYER_STEP,
                               scale=(style.window_width(window.aspect_ratio), INPUT_HEIGHT),
                               character_limit=MAX_CHAT_CHARACTERS, color=INPUT_FILL)
        self.field.text_color = style.TEXT_COLOR
        self.enabled = False
        self.field.active = False

    @property
    def is_open(self) -> bool:
        return bool(self.enabled)

    @property
    def text(self) -> str:
        return self.field.text

    def open(self) -> None:
        """Show the field, empty, with the caret in it (sized to the window as it is now)."""
        self.field.scale_x = style.window_width(window.aspect_ratio)
        self.field.text = ""
        self.enabled = True
        self.field.active = True

    def close(self) -> None:
        """Hide the field; what was typed is dropped."""
        self.field.active = False
        self.field.text = ""
        self.enabled = False

    def said(self) -> str | None:
        """The line typed, trimmed, as it is sent (None: nothing but spaces, so nothing is said)."""
        text = self.field.text.strip()
        return text[:MAX_CHAT_CHARACTERS] if text and text.isprintable() else None
