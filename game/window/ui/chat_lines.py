"""The chat lines over the HUD: what the session tells this window's player, newest at the bottom, fading.

Owns: `ChatLog` (the lines shown and how long each has left, counted in game ticks: pure, no Ursina
state, so it is tested without a window), `wrapped` (a message cut into lines that fit the chat's
width) and `ChatLines`, the widget: up to CHAT_ROWS rows at the window's left, above the hotbar, each
white text on a translucent dark strip, the newest at the bottom, as Beta's GuiIngame draws chat.
Does not own: what is said (the session's notices, `Session.notify`; the window hands each notice
for its player to `add`), the HUD (`hud.py`), the look (`style.py`).

Beta keeps a chat line on screen for 200 ticks (10 s) and fades it over the last 20 (its alpha is
(1 - age / 200) x 10, clamped to 0..1). Time counts in game ticks (`after_tick`), as the HUD's block
name does, so a replay shows the same lines at the same tick however fast the machine draws.
"""

from __future__ import annotations

import textwrap
from collections import deque
from dataclasses import dataclass

from ursina import Entity, Text, camera, window

from . import style

LINE_TICKS = 200
"""[ticks] Beta's GuiIngame shows a chat line for 200 ticks (10 s)."""
FADE_TICKS = 20
"""[ticks] A line fades out over its last second (Beta's alpha: remaining / 200 x 10)."""
CHAT_ROWS = 10
"""Beta shows the latest 10 lines while the chat input is closed."""
WRAP_CHARACTERS = 52
"""[characters] A longer message continues on the next row (Beta wraps at its chat's 320-pixel width)."""
ROW_HEIGHT = 0.03
"""[window heights] One chat row (the text's line and a sliver of strip above and below)."""
CHAT_WIDTH = 0.82
"""[window heights] Width of the rows' strips: WRAP_CHARACTERS of Ursina's default font fit."""
CHAT_BOTTOM = -0.5 + 0.215
"""[window heights] Centre of the lowest row: just above the hotbar, the hearts and the block name."""
CHAT_LEFT_MARGIN = 0.01
"""[window heights] Space between the window's left edge and the rows."""
TEXT_INSET = 0.006
"""[window heights] The text starts this far inside its strip."""
STRIP_ALPHA = 0.5
"""Beta draws each chat line on black at half opacity (0x80000000 scaled by the line's alpha)."""


def wrapped(message: str, width: int = WRAP_CHARACTERS) -> list[str]:
    """`message` cut into lines of at most `width` characters (at spaces where it can; a line break in
    the message starts a new line). TypeError for a message that is not a str."""
    if not isinstance(message, str):
        raise TypeError(f"a chat message is a str, got {message!r}")
    lines = []
    for paragraph in message.splitlines() or [""]:
        lines += textwrap.wrap(paragraph, width, break_long_words=True, replace_whitespace=False) or [""]
    return lines


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One row of the chat: its text and the ticks it has left on screen."""

    text: str
    ticks_left: int

    @property
    def alpha(self) -> float:
        """How opaque it is drawn: 1 until its last FADE_TICKS, then down to 0."""
        return min(self.ticks_left / FADE_TICKS, 1.0)


class ChatLog:
    """The lines the chat shows, oldest first; `add` a message, `tick` once per game tick."""

    def __init__(self, rows: int = CHAT_ROWS) -> None:
        self._lines: deque[ChatLine] = deque(maxlen=rows)

    @property
    def lines(self) -> list[ChatLine]:
        """The rows on screen, oldest (top) first."""
        return list(self._lines)

    def add(self, message: str) -> None:
        """Show `message` (wrapped) at the bottom for LINE_TICKS; the oldest rows past CHAT_ROWS go."""
        for line in wrapped(message):
            self._lines.append(ChatLine(line, LINE_TICKS))

    def tick(self) -> bool:
        """One game tick: every line's time runs down, and lines whose time is up go. Whether anything
        drawn changed (a line faded or went)."""
        if not self._lines:
            return False
        aged = [ChatLine(line.text, line.ticks_left - 1) for line in self._lines]
        changed = any(line.ticks_left < FADE_TICKS for line in aged)
        self._lines.clear()
        self._lines.extend(line for line in aged if line.ticks_left > 0)
        return changed


class ChatLines(Entity):
    """The chat rows on `camera.ui`; `add` what the session tells the player, `after_tick` every tick."""

    def __init__(self, rows: int = CHAT_ROWS, **kwargs) -> None:
        super().__init__(parent=camera.ui, **kwargs)
        self.log = ChatLog(rows)
        self.strips: list[Entity] = []
        self.labels: list[Text] = []
        for row in range(rows):  # row 0 at the bottom
            y = CHAT_BOTTOM + row * ROW_HEIGHT
            strip = style.rectangle(self, CHAT_WIDTH / 2.0, y, CHAT_WIDTH, ROW_HEIGHT, style.PANEL_COLOR)
            label = Text(parent=self, origin=(-0.5, 0), position=(TEXT_INSET, y, -style.LAYER_STEP),
                         color=style.TEXT_COLOR, scale=style.TEXT_SCALE, use_tags=False)  # "<alice> hi" is no tag
            strip.enabled = label.enabled = False
            self.strips.append(strip)
            self.labels.append(label)
        self._window = style.AspectWatch()
        self._fit_window()

    @property
    def shown(self) -> list[str]:
        """The texts drawn now, top row first."""
        return [line.text for line in self.log.lines]

    def add(self, message: str) -> None:
        """Show `message` as the newest line(s), at the bottom."""
        self.log.add(message)
        self._draw()

    def after_tick(self) -> None:
        """One game tick has run: lines fade and go (see LINE_TICKS)."""
        if self.log.tick():
            self._draw()

    def update(self) -> None:
        """Ursina calls this every frame: keep to the window's left edge when it is resized."""
        self._fit_window()

    def _fit_window(self) -> None:
        aspect_ratio = window.aspect_ratio
        if self._window.changed(aspect_ratio):
            self.x = -aspect_ratio / 2.0 + CHAT_LEFT_MARGIN

    def _draw(self) -> None:
        lines = self.log.lines
        for row, (strip, label) in enumerate(zip(self.strips, self.labels)):
            index = len(lines) - 1 - row  # the newest line in row 0
            if index < 0:
                if strip.enabled:
                    strip.enabled = label.enabled = False
                continue
            line = lines[index]
            if label.text != line.text:
                label.text = line.text
            label.alpha = line.alpha
            strip.alpha = STRIP_ALPHA * line.alpha
            if not strip.enabled:
                strip.enabled = label.enabled = True
