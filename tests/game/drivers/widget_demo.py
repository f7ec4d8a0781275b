"""The UI widgets on a small scene, interactive or scripted with `--screenshots DIR`.

Run from the repository root: `python -m tests.game.drivers.widget_demo [--screenshots DIR]`.

Owns: a hand-built scene (grass, a few blocks of every shape, a tree), the HUD, the target
outline, the loading screen and the pause menu on it, and a scripted run that drives them the
way a player would (real pointer moves, clicks and wheel steps through Ursina's input) and
saves screenshots and a JSON report for `tests/game/test_ui_widgets_display.py` and for eyes.
Does not own: any widget (see `game.window.ui`) or the game (`game.window.app`). A test driver, not product code.

Interactive keys: 1-9 and the wheel choose a slot, F1 hides the HUD, F2 saves a screenshot,
L shows the loading screen for a moment, Esc opens and closes the pause menu.
Needs a display (or run it under `xvfb-run -a -s "-screen 0 1280x720x24"`).

Scripted run (--screenshots DIR) writes, in order:
  loading.png      the loading screen at LOADING_FRACTION
  hud.png          the scene with the HUD (slot HUD_SLOT selected) and the target outlined
  hud_hidden.png   the same after F1 (hud.toggle())
  outline_hidden.png  the same with the target outline hidden too
  pause.png        the pause menu after dragging FOV to FOV_DRAG_FRACTION and two wheel steps
                   up on the sensitivity slider (pointer left over it)
  screenshots/     two F2 screenshots (save_screenshot) taken in the same second
  report.json      window size, where widgets are in pixels, and what the scripted input did
"""

from __future__ import annotations

import argparse
import datetime
import json
import tempfile
from dataclasses import asdict
from pathlib import Path

import numpy as np

from game.userdata import paths, user_settings
from game.rules.hotbar import SLOT_COUNT, Hotbar
from game.window.render import space
from game.window.render.window import open_window, parse_size
from game.rules.targeting import Target, find_target
from game.world.blocks import block_id, block_name
from game.world.lab import Arena
from game.world.meshing import PADDED_SIZE

SKY_RGB = (140, 192, 236)
FLOOR_Y = 3
"""Section-local y of the grass floor; blocks stand on y = FLOOR_Y + 1."""
SCENE_BLOCKS = (
    ("stone", (8, 4, 6)), ("cobblestone", (9, 4, 7)), ("stone_slab", (7, 4, 6)), ("stairs_west", (10, 4, 6)),
    ("fence", (5, 4, 8)), ("glass", (6, 4, 7)), ("planks", (11, 4, 8)), ("carpet", (9, 4, 4)),
    ("brick", (3, 4, 11)), ("brick", (4, 4, 11)), ("brick", (3, 5, 11)),
    ("log", (13, 4, 13)), ("log", (13, 5, 13)), ("log", (13, 6, 13)),
)
LEAVES = [(13 + dx, 7 + dy, 13 + dz) for dx in (-1, 0, 1) for dy in (0, 1) for dz in (-1, 0, 1)]
EYE = (8.5, FLOOR_Y + 1 + 1.62, 1.5)
"""Physics position of the camera: a player standing on the floor, looking south at the stone."""
YAW, PITCH = 0.0, 12.0
HUD_SLOT = 3
LOADING_FRACTION = 0.6
FOV_DRAG_FRACTION = 0.75
"""Where along the FOV slider the scripted click lands: 60 of its 80 one-degree steps (30..110),
so a pixel of rounding either way still reads 90 degrees."""
SENSITIVITY_WHEEL_STEPS = 2
FRAMES_PER_CHANGE = 3
"""Frames drawn after a change before a screenshot or the next input (hover needs one frame to
see the pointer, the drawing one more)."""


def scene_section() -> np.ndarray:
    """The scene as the padded section (0, 0, 0): index i is local block i - 1."""
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    padded[1:-1, FLOOR_Y + 1, 1:-1] = block_id("grass")
    padded[1:-1, FLOOR_Y, 1:-1] = block_id("dirt")
    for name, (x, y, z) in SCENE_BLOCKS:
        padded[x + 1, y + 1, z + 1] = block_id(name)
    for x, y, z in LEAVES:
        padded[x + 1, y + 1, z + 1] = block_id("leaves")
    return padded


def scene_world(padded: np.ndarray) -> Arena:
    """The section's blocks as a game world (an empty lab arena holding them), for the look ray."""
    world = Arena()
    for i, j, k in zip(*np.nonzero(padded[1:-1, 1:-1, 1:-1])):
        world.set_block(int(i), int(j), int(k), block_name(int(padded[i + 1, j + 1, k + 1])))
    return world


def ui_to_pixel(x: float, y: float, size: tuple[int, int]) -> tuple[int, int]:
    """The window pixel (column, row from the top) of a `camera.ui` point."""
    width, height = size
    return round((x * height / width + 0.5) * width), round((0.5 - y) * height)


class Demo:
    """The scene and every widget on it."""

    def __init__(self, app, size: tuple[int, int], config_dir: Path) -> None:
        from ursina import Entity, camera, color, scene, window

        from game.window.render.chunk_renderer import ChunkRenderer
        from game.window.ui.hud import Hud
        from game.window.ui.pause_menu import PauseMenu
        from game.window.ui.target_outline import TargetOutline

        self.app, self.size = app, size
        window.color = color.rgb32(*SKY_RGB)
        scene.fog_color = color.rgb32(*SKY_RGB)
        scene.fog_density = (40.0, 80.0)
        camera.fov = 80
        camera.clip_plane_near = 0.05
        camera.position = space.point(*EYE)
        camera.rotation = space.camera_rotation(YAW, PITCH)
        padded = scene_section()
        empty = np.zeros_like(padded)
        self.renderer = ChunkRenderer(lambda cx, sy, cz: padded if (cx, sy, cz) == (0, 0, 0) else empty)
        self.renderer.show([(0, 0, 0)])
        self.renderer.wait()
        self.target: Target | None = find_target(scene_world(padded), EYE, YAW, PITCH)
        self.outline = TargetOutline()
        self.outline.show(self.target.boxes if self.target else ())

        self.hotbar = Hotbar()
        self.hud = Hud(self.hotbar)
        self.settings_path = config_dir / user_settings.SETTINGS_FILE_NAME
        self.changes: list[dict] = []
        self.events: list[str] = []
        self.menu = PauseMenu(user_settings.load(self.settings_path), on_resume=lambda: self.events.append("resume"),
                              on_settings_changed=lambda s: self.changes.append(asdict(s)),
                              on_save_and_quit=lambda: self.events.append("save and quit"),
                              settings_path=self.settings_path)
        self.loading = None
        self._keys = Entity(input=self.input)

    def step(self, frames: int = FRAMES_PER_CHANGE) -> None:
        for _ in range(frames):
            self.app.step()

    def input(self, key: str) -> None:
        """Interactive keys (the game's app maps the same ones)."""
        from game.window.render.screenshots import save_screenshot
        from game.window.ui.loading_screen import LoadingScreen

        if key in [str(n) for n in range(1, SLOT_COUNT + 1)]:
            self.hotbar.select(int(key) - 1)
        elif key in ("scroll up", "scroll down") and not self.menu.is_open:
            self.hotbar.scroll(-1 if key == "scroll up" else 1)
        elif key == "f1":
            self.hud.toggle()
        elif key == "f2":
            print(f"screenshot: {save_screenshot(self.app, paths.screenshots_dir())}")
        elif key == "escape":
            self.menu.close() if self.menu.is_open else self.menu.open()
        elif key == "l" and self.loading is None:
            self.loading = LoadingScreen()
            self._advance_loading(0.0)
        self.hud.show_hotbar(self.hotbar)

    def _advance_loading(self, fraction: float) -> None:
        from ursina import invoke
        if fraction > 1.0:
            self.loading.close()
            self.loading = None
            return
        self.loading.progress(fraction, f"Generating the world: {round(fraction * 81)} of 81 columns")
        invoke(self._advance_loading, round(fraction + 0.05, 2), delay=0.1)

    # --- the scripted run ---------------------------------------------------------------------

    def save(self, path: Path) -> None:
        from panda3d.core import Filename
        self.step()
        if not self.app.win.save_screenshot(Filename.from_os_specific(str(path.resolve()))):
            raise RuntimeError(f"could not save {path}")

    def point_at(self, ui_x: float, ui_y: float) -> None:
        """Move the real pointer to a `camera.ui` point and let Ursina see it."""
        self.app.win.move_pointer(0, *ui_to_pixel(ui_x, ui_y, self.size))
        self.step()

    def click(self) -> None:
        self.app.input("left mouse down")
        self.step()
        self.app.input("left mouse up")
        self.step()

    def scripted_run(self, folder: Path) -> dict:
        """Drive every widget as a player would, saving the screenshots; returns the report."""
        from ursina import camera, mouse

        from game.window.render.screenshots import save_screenshot
        from game.window.ui import hud
        from game.window.ui.loading_screen import LoadingScreen
        from game.window.ui.pause_menu import KNOB_TRAVEL

        mouse.prev_click_time = 0  # no "double click" from clicks near start-up
        folder.mkdir(parents=True, exist_ok=True)
        loading = LoadingScreen()
        loading.progress(LOADING_FRACTION, "Generating the world: 49 of 81 columns")
        self.save(folder / "loading.png")
        loading.close()

        self.hotbar.select(HUD_SLOT)
        self.hud.show_hotbar(self.hotbar)
        self.save(folder / "hud.png")
        self.hud.toggle()
        self.save(folder / "hud_hidden.png")
        hidden_after_toggle = not self.hud.visible
        self.outline.hide()
        self.save(folder / "outline_hidden.png")
        self.outline.show(self.target.boxes if self.target else ())
        self.hud.toggle()

        self.menu.open()
        self.step()
        fov = self.menu.sliders["fov_degrees"].getPos(camera.ui)
        self.point_at(fov[0] + (FOV_DRAG_FRACTION - 0.5) * KNOB_TRAVEL, fov[1])
        self.click()
        sensitivity = self.menu.sliders["mouse_sensitivity"].getPos(camera.ui)
        self.point_at(sensitivity[0], sensitivity[1])
        for _ in range(SENSITIVITY_WHEEL_STEPS):
            self.app.input("scroll up")
            self.step(1)
        self.save(folder / "pause.png")
        settings_in_menu = asdict(self.menu.settings)
        resume = self.menu.resume_button.getPos(camera.ui)
        self.point_at(resume[0], resume[1])
        self.click()

        shots = [save_screenshot(self.app, folder / "screenshots", now=datetime.datetime(2024, 5, 17, 12, 0, 0))
                 for _ in range(2)]
        return {
            "window": list(self.size),
            "crosshair_pixel": ui_to_pixel(0.0, 0.0, self.size),
            "slot_pixels": [ui_to_pixel(hud.slot_x(i), hud.HOTBAR_Y, self.size) for i in range(SLOT_COUNT)],
            "slot_size_pixels": hud.SLOT_SIZE * self.size[1],
            "selected_slot": self.hotbar.selected,
            "slots": list(self.hotbar.slots),
            "hud_hidden_after_toggle": hidden_after_toggle,
            "target": None if self.target is None else {"block": self.target.block, "face": self.target.face},
            "loading_fraction": LOADING_FRACTION,
            "fov_drag_fraction": FOV_DRAG_FRACTION,
            "sensitivity_wheel_steps": SENSITIVITY_WHEEL_STEPS,
            "settings_in_menu": settings_in_menu,
            "settings_changes": self.changes,
            "settings_file": json.loads(self.settings_path.read_text()) if self.settings_path.exists() else None,
            "menu_events": self.events,
            "menu_open_after_resume": self.menu.is_open,
            "f2_screenshots": [str(path) for path in shots],
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.game.drivers.widget_demo",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=parse_size, default=(960, 540), help="window size, e.g. 640x360")
    parser.add_argument("--screenshots", type=Path, help="run the scripted demo, write its files here, and exit")
    args = parser.parse_args(argv)

    app = open_window(args.size, "Boxel UI demo", borderless=True)
    with tempfile.TemporaryDirectory() as scratch:
        # The scripted run must not touch the player's real settings file.
        config_dir = Path(scratch) if args.screenshots else user_settings.settings_path().parent
        demo = Demo(app, args.size, config_dir)
        if args.screenshots is None:
            app.run()
            return 0
        report = demo.scripted_run(args.screenshots)
        (args.screenshots / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {len(report)} report entries and screenshots to {args.screenshots}")
        demo.renderer.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
