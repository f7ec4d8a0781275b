"""The title screen driven by a script in a real window: `python -m tests.game.drivers.title_driver --out DIR`.

Owns: a scripted run of the real title-screen loop (`game.window.app.run_title` with `game.frontends.cli.title_session`,
as `python main.py` runs it) that uses the screen as a player would, through its buttons' `on_click`
and the dialogs' fields, saving screenshots and a JSON report for `tests/game/test_title_screen_display.py`:
  title.png        the title screen with the worlds found in the data folder
  settings.png     its Settings dialog (View bobbing switched off)
  delete.png       the Delete confirmation
  game.png         the new world in play
  paused.png       the pause menu of that world, after the stale-hover press
  title_after.png  the title screen again after "Save and quit"
  report.json      what was listed, renamed, deleted, created and played at each step
The worlds folder is the user's (`BOXEL_DATA_DIR` set by the test); the script expects the worlds
"Alpha" and "Beta" there. Does not own: the screen (`game.window.ui.title_screen`) or the loop (`game.window.app`).
A test driver, not product code; needs a display (or `xvfb-run`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from game.frontends import cli

from game.userdata import user_settings, world_list
from game.frontends.options import LaunchOptions
from game.window.render.window import parse_size
from game.frontends.stop_signals import StopFlag
from tests.game.drivers.widget_demo import ui_to_pixel

NEW_WORLD = ("Fresh", "4242")
"""Name and seed typed into the New dialog."""
RENAMED = ("Beta", "Gamma")
DELETED = "Alpha"
PLAY_TICKS = 30
"""[ticks] Played in the new world before its screenshot (the spawn area drawn, the view settled)."""
FRAMES_PER_STEP = 3
"""Frames drawn after a change before a screenshot or the next step (hover needs one, drawing one more)."""


class Script:
    """The scripted player: `step()` runs once per frame (from an eternal entity) and advances the script."""

    def __init__(self, run, out: Path, size: tuple[int, int]) -> None:
        from ursina import Entity

        self.run, self.out, self.size = run, out, size
        self.report: dict = {"steps": []}
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

    def shot(self, name: str):
        yield from self.frames()
        from panda3d.core import Filename
        if not self.run.app.win.save_screenshot(Filename.from_os_specific(str((self.out / name).resolve()))):
            raise RuntimeError(f"could not save {name}")

    def listed(self) -> list[dict]:
        return [{"name": e.name, "seed": e.seed, "readable": e.readable, "problem": e.problem,
                 "size_bytes": e.size_bytes, "row_text": self._row_text(e)} for e in self.run.title.entries]

    def _row_text(self, entry) -> list[str] | None:
        row = next((r for r in self.run.title.rows if r.entry is not None and r.entry.path == entry.path), None)
        return None if row is None else [row.name_text.text, row.detail_text.text]

    def files(self) -> list[str]:
        return sorted(p.name for p in world_list.worlds_folder().iterdir())

    def note(self, step: str, **facts) -> None:
        self.report["steps"].append({"step": step, **facts})

    def point_at(self, entity) -> None:
        from ursina import camera
        x, y, _ = entity.getPos(camera.ui)
        self.run.app.win.move_pointer(0, *ui_to_pixel(x, y, self.size))

    def _script(self):
        from ursina import mouse

        while self.run.title is None:
            yield
        title = self.run.title
        yield from self.shot("title.png")
        self.note("listed", worlds=self.listed(), files=self.files())

        title.buttons["Settings"].on_click()
        yield from self.frames()
        title.settings_panel.bobbing_button.on_click()
        yield from self.shot("settings.png")
        title.settings_done.on_click()
        self.note("settings", saved=user_settings.load().view_bobbing, dialog_open=title.dialog is not None)

        title.select(world_list.worlds_folder() / f"{RENAMED[0]}.boxel")
        title.buttons["Rename"].on_click()
        yield from self.frames()
        title.fields["name"].text = RENAMED[1]
        title.dialog.on_confirm()
        yield from self.frames()
        self.note("renamed", worlds=self.listed(), files=self.files(), selected=title.selected.name)

        title.select(world_list.worlds_folder() / f"{DELETED}.boxel")
        title.buttons["Delete"].on_click()
        yield from self.shot("delete.png")
        self.note("asked to delete", title=title.dialog.title.text, files=self.files())
        title.dialog.on_confirm()
        yield from self.frames()
        self.note("deleted", worlds=self.listed(), files=self.files())

        title.buttons["New"].on_click()
        yield from self.frames()
        title.fields["name"].text, title.fields["seed"].text = NEW_WORLD
        title.dialog.on_confirm()
        while self.run.game is None or self.run.game.loading:
            yield
        game = self.run.game
        while game.session.ticks_run < PLAY_TICKS:
            yield
        yield from self.shot("game.png")
        self.note("playing", world=str(game.world.path), seed=game.world.seed, ticks=game.session.ticks_run,
                  files=self.files())

        # The stale hover: the pointer rests on the FOV slider for some frames (Ursina notes the slider
        # as hovered), then moves onto "Save and quit" and presses in the same frame.
        game.pause()
        menu = game.menu
        yield from self.frames()
        slider = menu.sliders["fov_degrees"]
        self.point_at(slider)
        yield from self.frames()
        hovered_slider = mouse.hovered_entity is slider.bar
        fov_before = slider.value
        self.point_at(menu.quit_button)
        self.run.app.input("left mouse down")
        self.run.app.input("left mouse up")
        fov_after = slider.value
        yield from self.shot("paused.png")
        self.note("stale hover press", hovered_slider=hovered_slider, fov_before=fov_before, fov_after=fov_after,
                  settings_fov=user_settings.load().fov_degrees, still_playing=self.run.game is game)
        if self.run.game is game:  # the press met the stale hover: a second one, the pointer now seen there
            self.point_at(menu.quit_button)
            yield from self.frames()
            self.run.app.input("left mouse down")
            self.run.app.input("left mouse up")
        while self.run.title is None:
            yield
        yield from self.shot("title_after.png")
        self.note("back to the title screen", worlds=self.listed(), files=self.files(),
                  selected=self.run.title.selected.name)
        self.run.title.buttons["Quit"].on_click()


def main(argv: list[str] | None = None) -> int:
    from game.window import app

    parser = argparse.ArgumentParser(prog="python -m tests.game.drivers.title_driver",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=parse_size, default=(960, 540))
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    scripts: list[Script] = []
    options = LaunchOptions(size=args.size, view_distance=3)
    status = app.run_title(options, cli.title_session, StopFlag(),
                           on_open=lambda run: scripts.append(Script(run, args.out, args.size)))
    report = scripts[0].report
    report["status"] = status
    (args.out / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
