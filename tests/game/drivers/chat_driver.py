"""The chat typed in the real window, driven by a script: `python -m tests.game.drivers.chat_driver --out DIR`.

Owns: a scripted run of the lab in the window (`game.window.app.play`, live input, no replay) that
presses T, types a line with letters the game binds (the A of strafing, the E of the inventory), says
it with Enter, then opens the chat again and closes it with Esc, pressing keys as the keyboard does
(each key's press through Ursina's input and its character through Ursina's text input, in that
order, as Panda3D sends them). It saves, in DIR:
  typing.png    the chat input open with the line typed
  said.png      after Enter: the line said, over the HUD
  report.json   what the window and the session showed at each step
Does not own: the chat (`game.window.ui.chat_input`, `chat_lines`) or the loop (`game.window.app`).
A test driver, not product code; needs a display (or `xvfb-run`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

LINE = "hi alice, see my base"
"""Typed after T: an A (strafe left) and an E (the inventory) that must reach the field, not the game."""
FRAMES_PER_STEP = 3
SETTLE_TICKS = 4
"""[ticks] Played after Enter before the screenshot: the Chat event applied at the next tick, its notice shown."""


class Script:
    """The scripted player: `step()` runs once per frame (from an entity's update) and advances the script."""

    def __init__(self, game, out: Path) -> None:
        from ursina import Entity, application

        self.game, self.out, self.app = game, out, application.base
        self.report: dict = {}
        self.steps = self._script()
        self.hook = Entity(update=self.step)

    def step(self) -> None:
        try:
            next(self.steps)
        except StopIteration:
            self.hook.update = None
            self.game.request_quit()

    def frames(self, count: int = FRAMES_PER_STEP):
        for _ in range(count):
            yield

    def ticks(self, count: int):
        until = self.game.session.ticks_run + count
        while self.game.session.ticks_run < until:
            yield

    def key(self, key: str, character: str | None = None) -> None:
        """`key` pressed and released as the keyboard does: the press, the character typed, the release."""
        self.app.input(key, is_raw=len(key) == 1)
        if character is not None:
            self.app.text_input(character)
        self.app.input(f"{key} up", is_raw=len(key) == 1)

    def type_line(self, text: str):
        for character in text:
            self.key("space" if character == " " else character, character)
            yield

    def shot(self, name: str):
        from panda3d.core import Filename

        yield from self.frames()
        if not self.app.win.save_screenshot(Filename.from_os_specific(str((self.out / name).resolve()))):
            raise RuntimeError(f"could not save {name}")

    def facts(self) -> dict:
        game = self.game
        return {"open": game.chat_input.is_open, "typed": game.chat_input.text, "lines": game.chat.shown,
                "notices": list(game.session.notices), "inventory_open": game.session.inventory_open,
                "feet": list(game.session.player.body.feet), "paused": game.paused}

    def _script(self):
        from ursina import mouse

        while self.game.loading:
            yield
        mouse.locked = False  # the lab's look stays: mouse look reads a locked pointer only
        yield from self.ticks(SETTLE_TICKS)
        self.report["before"] = self.facts()
        self.key("t", "t")
        yield from self.frames()
        self.report["opened"] = self.facts()
        yield from self.type_line(LINE)
        yield from self.ticks(SETTLE_TICKS)
        self.report["typed"] = self.facts()
        mouse.locked = False
        yield from self.shot("typing.png")
        self.key("enter")
        mouse.locked = False
        yield from self.ticks(SETTLE_TICKS)
        self.report["said"] = self.facts()
        yield from self.shot("said.png")
        self.key("t", "t")
        yield from self.frames()
        yield from self.type_line("never said")
        self.key("escape")
        mouse.locked = False
        yield from self.ticks(SETTLE_TICKS)
        self.report["escaped"] = self.facts()
        (self.out / "report.json").write_text(json.dumps(self.report, indent=1), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)

    from game.frontends.options import LaunchOptions
    from game.frontends.stop_signals import StopFlag
    from game.rules.lab_session import lab_session
    from game.window import app

    options = LaunchOptions(lab=True, size=(640, 360))
    window_app = app.open_game_window(options)
    return app.play(window_app, options, lab_session(), StopFlag(), on_game=lambda game: Script(game, out))


if __name__ == "__main__":
    raise SystemExit(main())
