"""The survival screens in a real window (Xvfb when there is no display), driven by
`python -m tests.game.drivers.survival_screens_demo --screenshots DIR` with real pointer moves and
presses: the inventory with counts and the 2x2 grid's result, the hotbar's counts, the crafting
table's 3x3, a double chest and a burning furnace, checked on the clicks' results and the pixels;
and the game itself (a survival world, a replay that digs, opens the inventory with E and clicks
its slots) drawing the session's screen.

With BOXEL_DOCS_SCREENSHOTS set, the screenshots are copied to docs/screenshots/survival-*.png."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from game.rules.replay import Click, KeyDown, KeyUp, Look, Release, ReplayWriter, SlotClick
from game.window.ui.survival_layout import ITEM_PIXELS, inventory_layout, slot_centre
from tests.game.drivers.widget_demo import ui_to_pixel

from .conftest import keep_docs_screenshot, run_with_display

pytestmark = pytest.mark.display

WINDOW = (960, 540)
WHITE = 200
"""[0..255] A count's text pixel: every channel at least this (the text is white on a dark slot,
whose pixels stay below 80)."""
FLAME_ORANGE = (np.array([255, 140, 26]), 40)
"""The lit flame's colour and the largest channel difference that still counts as it."""


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    folder = tmp_path_factory.mktemp("survival_screens")
    done = run_with_display(["-m", "tests.game.drivers.survival_screens_demo", "--size", "%dx%d" % WINDOW,
                             "--screenshots", str(folder)])
    assert done.returncode == 0, f"the demo exited with {done.returncode}:\n{done.stderr[-4000:]}"
    for name in ("inventory", "crafting_table", "chest", "furnace", "hotbar"):
        keep_docs_screenshot(folder / f"{name}.png", f"survival-{name.replace('_', '-')}.png")
    return folder, json.loads((folder / "report.json").read_text(encoding="utf-8"))


def image(folder: Path, name: str) -> np.ndarray:
    picture = np.asarray(Image.open(folder / name).convert("RGB")).astype(np.int16)
    assert picture.shape == (WINDOW[1], WINDOW[0], 3)
    return picture


def count_corner(picture: np.ndarray, centre: list[int], slot_pixels: float) -> np.ndarray:
    """The bottom-right quarter of a slot's item square, where Beta draws its count."""
    x, y = centre
    half = round(slot_pixels / 2)
    return picture[y:y + half + 2, x:x + half + 2]


def white_pixels(patch: np.ndarray) -> int:
    return int((patch >= WHITE).all(axis=-1).sum())


def test_the_pointers_clicks_moved_a_log_into_the_grid_and_the_result_shows_four_planks(demo):
    _, report = demo
    stacks = report["inventory"]["stacks"]
    assert stacks[0] == ["planks", 4, 0] and stacks[1] == ["log", 1, 0]
    assert stacks[37] == ["log", 4, 0]  # 5 logs less the one in the grid
    assert report["inventory"]["cursor"] == ["dirt", 19]  # a right click takes the larger half of 37
    assert stacks[36] == ["dirt", 18, 0]


def test_counts_are_drawn_on_slots_holding_more_than_one_and_not_on_a_single_item(demo):
    folder, report = demo
    picture = image(folder, "inventory.png")
    pixels, size = report["inventory"]["slot_pixels"], ITEM_PIXELS * report["inventory"]["gui_pixel_pixels"]
    for slot in (0, 36, 38, 41):  # 4 planks, 18 dirt, 64 cobblestone, 9 coal
        assert white_pixels(count_corner(picture, pixels[slot], size)) >= 6, slot
    assert white_pixels(count_corner(picture, pixels[42], size)) == 0  # one apple: no count


def test_the_hud_hotbar_shows_the_nine_stacks_with_their_counts(demo):
    folder, report = demo
    picture = image(folder, "hotbar.png")
    pixels = report["hotbar"]["slot_pixels"]
    size = 0.066 * WINDOW[1]
    assert white_pixels(count_corner(picture, pixels[2], size)) >= 6  # 64 cobblestone
    assert white_pixels(count_corner(picture, pixels[6], size)) == 0  # one apple
    apple = picture[pixels[6][1] - 3:pixels[6][1] + 4, pixels[6][0] - 3:pixels[6][0] + 4].mean(axis=(0, 1))
    assert apple[0] > 150 and apple[1] < 80  # the apple's red icon, not a block's


def test_the_crafting_table_grid_holds_a_wooden_pickaxe_recipe_and_shows_the_pickaxe(demo):
    _, report = demo
    stacks = report["crafting_table"]["stacks"]
    assert [s and s[0] for s in stacks[1:10]] == ["planks"] * 3 + [None, "stick", None, None, "stick", None]
    assert stacks[0] == ["wooden_pickaxe", 1, 0]


def test_a_double_chest_has_six_rows_and_shift_clicks_moved_stacks_both_ways(demo):
    _, report = demo
    stacks = report["chest"]["stacks"]
    assert len(stacks) == 90
    assert stacks[0] == ["torch", 12, 0]  # from the hotbar into the chest's first empty slot
    assert stacks[54 + 25] == ["cobblestone", 64, 0]  # to the player, the first room from the hotbar's end


def test_the_furnace_draws_its_flame_burnt_down_from_the_top_and_its_arrow_part_way(demo):
    folder, report = demo
    picture = image(folder, "furnace.png")
    (left, top), (right, bottom) = report["furnace"]["flame_pixels"]
    flame = picture[top:bottom, left:right]
    orange = (np.abs(flame - FLAME_ORANGE[0]) <= FLAME_ORANGE[1]).all(axis=-1)
    lit_rows = np.nonzero(orange.any(axis=1))[0]
    assert lit_rows.size > 0
    height = bottom - top
    assert lit_rows.min() >= round(height * (1 - report["furnace"]["burn"])) - 2  # the top 40 % is out
    (left, top), (right, bottom) = report["furnace"]["arrow_pixels"]
    arrow = picture[top:bottom, left:right]
    lit_columns = np.nonzero((arrow >= WHITE).all(axis=-1).any(axis=0))[0]
    assert lit_columns.size > 0
    assert lit_columns.max() <= round((right - left) * report["furnace"]["cook"]) + 2


DIG_REPLAY = (
    Look(0, 0.0, 90.0), Click(5, "left"), Release(60, "left"),  # dig straight down at seed 42's spawn: 2 dirt
    KeyDown(70, "e"), KeyUp(71, "e"),
    SlotClick(73, 36, "right", False),  # half the dug dirt (1 of 2) onto the pointer
    SlotClick(74, 1, "right", False),   # into the grid's top-left cell
    SlotClick(75, 36, "left", False),   # the hotbar's other one onto the pointer
    SlotClick(76, 12, "left", False),   # into the main rows
)
EXIT_TICKS = 78
DIRT_RED = 60
"""[0..255] The dirt icon's mean red channel at its centre is above this (measured 80, brown: blue 38);
an empty slot's is below EMPTY_RED (measured 26, a grey-blue)."""
EMPTY_RED = 40


def test_the_game_window_draws_the_sessions_screen_after_e_and_the_recorded_clicks(run_game, tmp_path):
    replay, report_path, shot = tmp_path / "dig.jsonl", tmp_path / "report.json", tmp_path / "shot.png"
    with ReplayWriter.open(replay) as writer:
        for event in DIG_REPLAY:
            writer.write(event)
    done = run_game("--world", str(tmp_path / "w.boxel"), "--new", "--seed", "42", "--game-mode", "survival",
                    "--size", "%dx%d" % WINDOW, "--replay", str(replay), "--exit-after-ticks", str(EXIT_TICKS),
                    "--report", str(report_path), "--screenshot", str(shot))
    assert done.returncode == 0, done.stderr[-4000:]
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert report["game_mode"] == "survival"
    assert report["inventory"][12] == ["dirt", 1] and report["inventory"][0] is None
    picture = image(tmp_path, "shot.png")
    layout = inventory_layout()

    def patch(slot: int) -> np.ndarray:
        x, y = ui_to_pixel(*slot_centre(layout, slot), WINDOW)
        return picture[y - 2:y + 3, x - 2:x + 3].reshape(-1, 3).mean(axis=0)

    for slot in (1, 12):  # the grid's dirt and the main row's
        red, _, blue = patch(slot)
        assert red > DIRT_RED and red > blue + 25, slot
    assert patch(2)[0] < EMPTY_RED and patch(20)[0] < EMPTY_RED and patch(36)[0] < EMPTY_RED  # empty slots
