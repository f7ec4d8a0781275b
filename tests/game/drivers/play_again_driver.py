"""A world played twice in one launch, driven by a script: `python -m tests.game.drivers.play_again_driver --out DIR`.

Owns: a scripted run of the real title-screen loop (`game.window.app.run_title` with `game.frontends.cli.title_session`,
as `python main.py` runs it) that plays the world AGAIN_WORLD, leaves it with "Save and quit", plays it
again from the title screen and there uses F5 (third person) and a hotbar key, as a player would (keys
through the window's input, the menu's button through its `on_click`). It saves screenshots and a JSON
report for `tests/game/test_play_again_display.py`:
  first_person.png   the first visit, first person: the held block (stone, slot 1) in the lower right
  third_person.png   the first visit after F5
  again_third.png    the second visit after F5
  again_slot.png     the second visit, still third person, after the hotbar key SLOT_KEY
  again_first.png    the second visit after F5 again: first person, the block of SLOT_KEY in the hand
  report.json        at each shot: the hand's display regions on the window (how many, how many drawn),
                     the block the hand shows, the selected slot, third person or not
The worlds folder is the user's (`BOXEL_DATA_DIR` set by the test); the script expects AGAIN_WORLD there,
its player saved flying and looking where the test wants (the script never turns the view: the pointer
is left free, so mouse look reads nothing). Does not own: the screens or the loop (`game.window.app`).
A test driver, not product code; needs a display (or `xvfb-run`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from game.frontends import cli

from game.userdata import world_list
from game.frontends.options import LaunchOptions
from game.window.render.window import parse_size
from game.frontends.stop_signals import StopFlag

AGAIN_WORLD = "Again"
"""The world played twice."""
SLOT_KEY = "8"
"""The hotbar key pressed on the second visit (the default hotbar's slot 8: bricks)."""
SETTLE_TICKS = 8
"""[ticks] Played after each change before its screenshot: the F5 view and the held block's equip
dip (5 ticks) have settled."""
FRAMES_PER_STEP = 3
"""Frames drawn after a change before a screenshot or the next step."""


def hand_regions() -> tuple[int, int]:
    """(how many, how many active) display regions of the window draw through a hand's camera
    (`HandView`'s, named HAND_CAMERA_NAME)."""
    from ursina import application

    from game.window.render.hand_view import HAND_CAMERA_NAME

    regions = [r for r in application.base.win.get_display_regions()
               if not r.get_camera().is_empty() and r.get_camera().name == HAND_CAMERA_NAME]
    return len(regions), sum(1 for r in regions if r.is_active())


class Script:
    """The scripted player: `step()` runs once per frame (from an eternal entity) and advances the script."""

    def __init__(self, run, out: Path) -> None:
        from ursina import Entity

        self.run, self.out = run, out
        self.report: dict = {"shots": {}}
        self.steps = self._script()
        self.hook = Entity(eternal=True, update=self.step)

    def step(self) -> None:
        try:
            next(self.steps)
        except StopIteration:
            self.hook.update = None

    def frames(self, count: int = FRAMES_PER_STEP):
        for _ in range(count):
            yield

    def ticks(self, count: int = SETTLE_TICKS):
        game = self.run.game
        until = game.session.ticks_run + count
        while game.session.ticks_run < until:
            yield
        yield from self.frames()

    def press(self, key: str) -> None:
        """`key` pressed and released in the window, as the keyboard does."""
        self.run.app.input(key, is_raw=True)  # printable keys come as raw input: the plain path drops them
        self.run.app.input(f"{key} up", is_raw=True)

    def shot(self, name: str):
        from panda3d.core import Filename

        yield from self.frames()
        if not self.run.app.win.save_screenshot(Filename.from_os_specific(str((self.out / name).resolve()))):
            raise RuntimeError(f"could not save {name}")
        game = self.run.game
        regions, drawn = hand_regions()
        self.report["shots"][name] = {
            "hand_regions": regions, "hand_regions_drawn": drawn, "hand_block": game.hand.shown,
            "hand_visible": game.hand.visible, "selected": game.session.hotbar.selected,
            "third_person": game.session.toggles.third_person, "ticks": game.session.ticks_run}

    def play(self):
        """Play AGAIN_WORLD from the title screen; returns once its spawn area is drawn."""
        from ursina import mouse

        while self.run.title is None:
            yield
        self.run.title.select(world_list.worlds_folder() / f"{AGAIN_WORLD}.boxel")
        self.run.title.buttons["Play"].on_click()
        while self.run.game is None or self.run.game.loading:
            yield
        mouse.locked = False  # the saved look stays: mouse look reads a locked pointer only

    def _script(self):
        yield from self.play()
        yield from self.ticks()
        yield from self.shot("first_person.png")
        self.press("f5")
        yield from self.ticks()
        yield from self.shot("third_person.png")
        self.press("f5")
        yield from self.ticks()
        first = self.run.game
        first.pause()
        yield from self.frames()
        first.menu.quit_button.on_click()
        self.report["first_visit_ticks"] = first.session.ticks_run

        yield from self.play()
        yield from self.ticks()
        self.press("f5")
        yield from self.ticks()
        yield from self.shot("again_third.png")
        self.press(SLOT_KEY)
        yield from self.ticks()
        yield from self.shot("again_slot.png")
        self.press("f5")
        yield from self.ticks()
        yield from self.shot("again_first.png")
        game = self.run.game
        game.pause()
        yield from self.frames()
        game.menu.quit_button.on_click()
        while self.run.title is None:
            yield
        yield from self.frames()
        self.run.title.buttons["Quit"].on_click()


def main(argv: list[str] | None = None) -> int:
    from game.window import app

    parser = argparse.ArgumentParser(prog="python -m tests.game.drivers.play_again_driver",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=parse_size, default=(640, 360))
    parser.add_argument("--view-distance", type=int, default=3)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    scripts: list[Script] = []
    options = LaunchOptions(size=args.size, view_distance=args.view_distance)
    status = app.run_title(options, cli.title_session, StopFlag(),
                           on_open=lambda run: scripts.append(Script(run, args.out)))
    report = scripts[0].report
    report["status"] = status
    (args.out / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
