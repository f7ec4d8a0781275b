"""The survival screens in a real window, scripted.

Run from the repository root: `python -m tests.game.drivers.survival_screens_demo --screenshots DIR`.

Owns: a hand-built scene (the UI demo's), the HUD with `HotbarItems`, and a `SurvivalScreen` driven
by real pointer moves and presses through Ursina's input, each press turned into a click on a
`game.rules.containers` screen (as the app turns it into a `SlotClick` for the session) and the
screen redrawn from the container's plain values. Saves screenshots and a JSON report for
`tests/game/test_survival_screens.py` and for eyes. A test driver, not product code.

Scripted run writes, in order:
  inventory.png       E's screen: counts on slots, logs moved into the 2x2 grid (planks in the result),
                      half a dirt stack on the pointer (a right click), hotbar counts below
  hotbar.png          the screen closed: the HUD's hotbar with the nine stacks and their counts
  crafting_table.png  a wooden pickaxe laid out in the 3x3 grid, the result showing it
  chest.png           a double chest with stacks in it
  furnace.png         iron ore smelting with coal: the flame part burnt, the arrow part way
  report.json         window size, slot pixels, and every screen's stacks after the clicks
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from game.rules.block_entities import Furnace
from game.rules.containers import ListStore, chest_screen, crafting_table_screen, furnace_screen, inventory_screen
from game.rules.items import ItemStack
from game.rules.player_inventory import PlayerInventory
from game.window.render.window import open_window, parse_size
from game.window.ui.survival_layout import furnace_gauges
from tests.game.drivers.widget_demo import FRAMES_PER_CHANGE, PITCH, SKY_RGB, YAW, EYE, scene_section, ui_to_pixel

STARTING_ITEMS = (
    (0, ItemStack("dirt", 37)), (1, ItemStack("log", 5)), (2, ItemStack("cobblestone", 64)),
    (3, ItemStack("torch", 12)), (4, ItemStack("stone_pickaxe", 1, 40)), (5, ItemStack("coal", 9)),
    (6, ItemStack("apple")), (7, ItemStack("planks", 20)), (8, ItemStack("stick", 6)),
    (9, ItemStack("iron_ingot", 3)), (12, ItemStack("diamond", 2)), (20, ItemStack("sand", 48)),
    (31, ItemStack("wooden_door")), (35, ItemStack("bed")),
)
"""The player's slots at the start (player slot numbers: 0..8 the hotbar)."""
FURNACE_FIRE = {"burn_time": 960, "current_item_burn_time": 1600, "cook_time": 90}
"""[ticks] The furnace screenshot's fire: a coal (1,600 ticks) 640 ticks in, an ore 90 of its 200 ticks cooked."""


class Demo:
    def __init__(self, app, size: tuple[int, int]) -> None:
        import numpy as np
        from ursina import camera, color, scene, window

        from game.window.render import space
        from game.window.render.chunk_renderer import ChunkRenderer
        from game.window.ui.hud import Hud
        from game.window.ui.survival_screens import HotbarItems, SurvivalScreen

        self.app, self.size = app, size
        window.color = color.rgb32(*SKY_RGB)
        scene.fog_color = color.rgb32(*SKY_RGB)
        scene.fog_density = (40.0, 80.0)
        camera.fov = 80
        camera.position = space.point(*EYE)
        camera.rotation = space.camera_rotation(YAW, PITCH)
        padded = scene_section()
        empty = np.zeros_like(padded)
        self.renderer = ChunkRenderer(lambda cx, sy, cz: padded if (cx, sy, cz) == (0, 0, 0) else empty)
        self.renderer.show([(0, 0, 0)])
        self.renderer.wait()
        self.inventory = PlayerInventory()
        for slot, stack in STARTING_ITEMS:
            self.inventory.set(slot, stack)
        self.hud = Hud()
        self.hotbar = HotbarItems(self.hud)
        self.hotbar.show(self.inventory.slots[:9], self.inventory.selected)
        self.screen = SurvivalScreen(on_click=self.on_click)
        self.model = self.furnace = None
        self.clicks: list = []

    def on_click(self, slot: int, button: str, shift: bool) -> None:
        """What the app does with a click: the session's `SlotClick` applies it to the open container."""
        self.clicks.append([slot, button, shift])
        self.model.click(slot, button, shift)
        self.redraw()

    def redraw(self) -> None:
        """What the app does every frame: the screen follows the session's open screen."""
        self.screen.follow_screen(self.model, self.furnace)
        self.hotbar.show(self.inventory.slots[:9], self.inventory.selected)

    def open(self, model, furnace=None) -> None:
        self.model, self.furnace = model, furnace
        self.redraw()
        self.step()

    def close(self) -> None:
        self.model.close()
        self.model = self.furnace = None
        self.redraw()
        self.step()

    def step(self, frames: int = FRAMES_PER_CHANGE) -> None:
        for _ in range(frames):
            self.app.step()

    def hover(self, slot: int) -> None:
        """Move the real pointer to `slot`'s centre."""
        from game.window.ui.survival_layout import slot_centre
        x, y = slot_centre(self.screen.layout, slot)
        scale = self.screen.scale_fitted
        self.app.win.move_pointer(0, *ui_to_pixel(x * scale, y * scale, self.size))
        self.step()

    def press(self, slot: int, button: str = "left", shift: bool = False) -> None:
        """Move the real pointer to `slot`'s centre and press `button` there (shift as told)."""
        from ursina import mouse
        self.hover(slot)
        self.screen.handle(f"{button} mouse down", mouse.position, shift)
        self.step()

    def save(self, path: Path) -> None:
        from panda3d.core import Filename
        self.step()
        if not self.app.win.save_screenshot(Filename.from_os_specific(str(path.resolve()))):
            raise RuntimeError(f"could not save {path}")

    def slot_pixels(self) -> list:
        from game.window.ui.survival_layout import slot_centre
        scale = self.screen.scale_fitted
        return [ui_to_pixel(x * scale, y * scale, self.size)
                for x, y in (slot_centre(self.screen.layout, k) for k in range(len(self.model)))]

    def record(self) -> dict:
        return {"kind": self.model.kind, "slot_pixels": self.slot_pixels(),
                "stacks": [None if s is None else [s.item, s.count, s.damage] for s in self.model.stacks()],
                "cursor": None if self.model.cursor is None else [self.model.cursor.item, self.model.cursor.count],
                "gui_pixel_pixels": self.screen.scale_fitted * 0.004 * self.size[1]}

    def scripted_run(self, folder: Path) -> dict:
        from ursina import mouse
        mouse.prev_click_time = 0
        folder.mkdir(parents=True, exist_ok=True)
        report: dict = {"window": list(self.size)}

        self.open(inventory_screen(self.inventory))
        self.press(37)              # the logs (hotbar slot 1) onto the pointer
        self.press(1, "right")      # one log into the grid's top-left
        self.press(37)              # the rest back
        self.press(36, "right")     # half the dirt (19 of 37) onto the pointer
        self.hover(21)              # the pointer over an empty main-row slot
        self.save(folder / "inventory.png")
        report["inventory"] = self.record()
        report["inventory"]["pointer_slot"] = 21
        self.press(22)              # put the dirt down beside it
        self.close()
        self.save(folder / "hotbar.png")
        from game.window.ui.hud import HOTBAR_Y, hud_layout, slot_x
        layout = hud_layout(self.size[0] / self.size[1])
        report["hotbar"] = {"slots": [None if s is None else [s.item, s.count] for s in self.inventory.slots[:9]],
                            "slot_pixels": [ui_to_pixel(layout.slot_xs[k], layout.hotbar_y, self.size)
                                            for k in range(9)]}

        table = crafting_table_screen(self.inventory)
        self.open(table)
        self.press(37 + 7)          # planks (hotbar 7)
        for grid_slot in (1, 2, 3):
            self.press(grid_slot, "right")
        self.press(37 + 7)
        self.press(37 + 8)          # sticks (hotbar 8)
        for grid_slot in (5, 8):
            self.press(grid_slot, "right")
        self.press(37 + 8)
        self.step()
        self.save(folder / "crafting_table.png")
        report["crafting_table"] = self.record()
        self.close()

        chest = ListStore([ItemStack("cobblestone", 64), ItemStack("gravel", 17), None, ItemStack("gold_ingot", 5)]
                          + [None] * 40 + [ItemStack("obsidian", 4)] + [None] * 9)
        self.open(chest_screen(self.inventory, chest))
        self.press(0, shift=True)   # a chest stack to the player's hotbar end
        self.press(54 + 27 + 3, shift=True)  # the torches into the chest
        self.save(folder / "chest.png")
        report["chest"] = self.record()
        self.close()

        furnace = Furnace(ItemStack("iron_ore", 7), ItemStack("coal", 3), ItemStack("iron_ingot", 2), **FURNACE_FIRE)
        self.open(furnace_screen(self.inventory, ListStore(list(furnace.slots))), furnace)
        self.save(folder / "furnace.png")
        report["furnace"] = self.record()
        burn, cook = furnace_gauges(**{k: FURNACE_FIRE[k] for k in ("burn_time", "cook_time")},
                                    item_burn_time=FURNACE_FIRE["current_item_burn_time"])
        report["furnace"].update({"burn": burn, "cook": cook})
        from game.window.ui.survival_layout import furnace_layout, to_ui
        fl = furnace_layout()
        scale = self.screen.scale_fitted
        corners = {"flame_pixels": (fl.flame, (14, 14)), "arrow_pixels": (fl.arrow, (24, 17))}
        for name, ((x, y), (w, h)) in corners.items():
            report["furnace"][name] = [ui_to_pixel(*(v * scale for v in to_ui(fl, px, py)), self.size)
                                       for px, py in ((x, y), (x + w, y + h))]
        self.close()
        report["clicks"] = self.clicks
        report["hotbar_y"] = HOTBAR_Y
        return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.game.drivers.survival_screens_demo",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=parse_size, default=(960, 540), help="window size, e.g. 640x360")
    parser.add_argument("--screenshots", type=Path, required=True, help="write the screenshots and report here")
    args = parser.parse_args(argv)
    app = open_window(args.size, "Boxel survival screens", borderless=True)
    demo = Demo(app, args.size)
    report = demo.scripted_run(args.screenshots)
    (args.screenshots / "report.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"wrote the survival screens' screenshots to {args.screenshots}")
    demo.renderer.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
