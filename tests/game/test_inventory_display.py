"""The creative inventory in the real window, played as a player plays it (real keys and pointer
through xdotool, under Xvfb): E opens it, a click on the stairs entry and a click on the first
hotbar slot put the stairs there, a drag puts the ice in the second and the key 3 over the fence
the fence in the third, Esc closes it, and a right click places the stairs, facing away
from the player, in the world; the recording has the put, and the hotbar is saved with the world.
A replay that ends with the inventory open shows the grid of icons over the veiled world.

docs/screenshots/inventory.png is the live run's second screenshot (the inventory open)."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from game.rules.inventory import CATALOGUE
from game.window.render.sky import NOON_TICKS
from game.rules.replay import KeyDown, KeyUp, Look, PutInSlot, read_replay
from game.rules.session import Session
from game.window.ui.inventory_screen import grid_cell_centre, slot_centre
from game.world import World, atlas
from game.world.blocks import block_id
from tests.game.conftest import REPO_ROOT, find_game_window_shell, run_display_script
from tests.game.scripted_runs import CLEARANCE, PLATFORM, flatten, play
from tests.game.test_pause_and_loading_display import needs_xdotool

pytestmark = pytest.mark.display

WINDOW = (1280, 720)
"""[pixels] The live run's window (its screenshot with the inventory open is docs/screenshots/inventory.png)."""
LOOK_PITCH = 60.0
"""[degrees] The saved player looks this far down, at the platform a block in front of its feet."""
SETTLE_S = 1.0
"""[s] Wait after a key or click, so the session's next tick and the frames after it have run
(a tick is 50 ms; software rendering under Xvfb draws a few frames a second at worst)."""
POINTER_S = 0.5
"""[s] Wait after moving the pointer before clicking, so a frame has seen where it is."""
VEIL_DARKER = 0.75
"""The veil over the world leaves the window's top-left corner at most this bright, relative to
the same corner with the inventory closed (the veil is black at 55 % opacity: 0.45 of it)."""


OPAQUE_ICONS = ("brick", "grass", "dirt", "gold_ore", "obsidian", "sand")
"""Entries whose icons are opaque at their centre and differ from each other, so a cell's colour
there names its icon."""
PATCH = 3
"""[pixels] Half the side of the square compared at a cell's centre (7 x 7 pixels)."""
ICON_MATCH = 12
"""[0..255] Largest channel difference between the mean colour at a cell's centre and at its icon's
(measured 0-3 at 640x360: the icon is drawn bilinear at 1.6 times its 32 pixels); the nearest of
the other icons here differs from a cell by 25 (grass and dirt, whose centres show their sides)."""


def ui_to_pixel(x: float, y: float, size: tuple[int, int] = WINDOW) -> tuple[int, int]:
    """The window pixel (column, row from the top) of a `camera.ui` point (window heights)."""
    width, height = size
    return round((x * height / width + 0.5) * width), round((0.5 - y) * height)


def make_world(path: Path) -> tuple[int, int, int]:
    """A seed-42 world with the flat platform, the player saved looking LOOK_PITCH down along +Z
    (yaw 0: south); returns the cell on the platform a right click places a block in."""
    with World.create(path, 42) as world:
        floor = math.floor(world.spawn[1]) - 1
        flatten(world, floor, *PLATFORM, CLEARANCE)
        session = Session.open(world, autosave=False)
        session.apply(Look(0, 0.0, LOOK_PITCH))
        target = session.target()
        assert target is not None and target.face == (0, 1, 0) and target.block[1] == floor
        session.save()
    return target.block[0], floor + 1, target.block[2]


def blocks_on_platform(path: Path, y: int) -> dict[tuple[int, int, int], str]:
    """Every block that is not air in the layer of cells on the platform."""
    with World.open(path) as world:
        found = {(x, y, z): world.get_block(x, y, z) for x in PLATFORM[0] for z in PLATFORM[1]}
        return {cell: name for cell, name in found.items() if name != "air"}


def test_e_then_clicks_on_an_entry_and_a_slot_put_the_stairs_in_the_hotbar_and_a_right_click_places_them(tmp_path):
    needs_xdotool()
    path, output, recording = tmp_path / "w.boxel", tmp_path / "output.txt", tmp_path / "played.jsonl"
    cell = make_world(path)
    stairs = CATALOGUE.entries.index(CATALOGUE.entry_of("stairs_north"))
    brick = CATALOGUE.entries.index(CATALOGUE.entry_of("brick"))
    ice = CATALOGUE.entries.index(CATALOGUE.entry_of("ice"))
    fence = CATALOGUE.entries.index(CATALOGUE.entry_of("fence"))
    stairs_x, stairs_y = ui_to_pixel(*grid_cell_centre(stairs))
    brick_x, brick_y = ui_to_pixel(*grid_cell_centre(brick))
    ice_x, ice_y = ui_to_pixel(*grid_cell_centre(ice))
    fence_x, fence_y = ui_to_pixel(*grid_cell_centre(fence))
    slot_x, slot_y = ui_to_pixel(*slot_centre(0))
    slot_2_x, slot_2_y = ui_to_pixel(*slot_centre(1))
    game = subprocess.list2cmdline([sys.executable, str(REPO_ROOT / "main.py"), "--world", str(path),
                                    "--view-distance", "2", "--size", "%dx%d" % WINDOW, "--time", str(NOON_TICKS),
                                    "--record", str(recording)])
    close = subprocess.list2cmdline([sys.executable, str(REPO_ROOT / "tests" / "game" / "x11_close.py")])

    def point(x: int, y: int) -> str:
        return f'xdotool mousemove --window $wid {x} {y}; sleep {POINTER_S}; '

    def click_at(x: int, y: int) -> str:
        return point(x, y) + f'xdotool click 1; sleep {POINTER_S}; '

    def screenshot(count: int) -> str:
        return (f'sleep {SETTLE_S}; xdotool key F2; while [ "$(grep -c "screenshot saved" {output})" -lt {count} ]; '
                'do sleep 0.1; kill -0 $pid || exit 3; done; ')

    script = (f'export BOXEL_CONFIG_DIR="{tmp_path}/config" BOXEL_DATA_DIR="{tmp_path}/data"; '
              f'{game} > {output} 2>&1 & pid=$!; '
              f'while ! grep -q "ready after" {output}; do sleep 0.1; kill -0 $pid || exit 3; done; '
              + find_game_window_shell() + 'xdotool windowfocus --sync $wid; '
              + screenshot(1)  # the world before the inventory opens
              + f'xdotool key e; sleep {SETTLE_S}; '
              + click_at(stairs_x, stairs_y) + click_at(slot_x, slot_y)  # click the stairs, then the first slot
              + point(stairs_x, stairs_y)
              + screenshot(2)  # the inventory open, the stairs in the first slot and named under the pointer
              + point(ice_x, ice_y) + f'xdotool mousedown 1; sleep {POINTER_S}; '  # drag the ice to the second slot
              + point((ice_x + slot_2_x) // 2, (ice_y + slot_2_y) // 2) + point(slot_2_x, slot_2_y)
              + f'xdotool mouseup 1; sleep {POINTER_S}; '
              + point(fence_x, fence_y) + f'xdotool key 3; sleep {POINTER_S}; '  # 3 over the fence: the third slot
              + click_at(brick_x, brick_y)  # pick up the brick, then let go of it with Esc
              + f'xdotool key Escape; sleep {SETTLE_S}; xdotool click 3; '
              + screenshot(3)  # closed again, the stairs placed
              # Ask the window to close until the game has gone (a request can be lost on a loaded machine).
              + f'while kill -0 $pid 2> /dev/null; do {close} $wid; sleep 2; done; wait $pid')
    done = run_display_script(script, output)
    printed = output.read_text()
    assert done.returncode == 0, f"exit {done.returncode}: {printed[-3000:]}{done.stderr[-2000:]}"
    assert "Traceback" not in printed

    events = read_replay(recording)
    puts = [event for event in events if isinstance(event, PutInSlot)]
    # the brick was let go by Esc; the 3 over the fence put it in the third slot and chose no slot
    assert [(put.slot, put.block) for put in puts] == [(0, "stairs_north"), (1, "ice"), (2, "fence")]
    inventory_keys = [type(event) for event in events if isinstance(event, (KeyDown, KeyUp)) and event.key == "e"]
    assert inventory_keys == [KeyDown, KeyUp, KeyDown, KeyUp]  # E opened it; Esc sent the key that closes it

    assert blocks_on_platform(path, cell[1]) == {cell: "stairs_south"}  # yaw 0 faces south: it rises away
    with World.open(path) as world:
        hotbar = Session.open(world, autosave=False).hotbar
    assert (hotbar.slots[:3], hotbar.selected) == (("stairs_north", "ice", "fence"), 0)

    shots = sorted((tmp_path / "data" / "screenshots").glob("*.png"))
    assert len(shots) == 3
    before, open_, after = (np.asarray(Image.open(shot).convert("RGB")).astype(np.float64) for shot in shots)
    corner = (slice(0, 40), slice(0, 40))
    assert open_[corner].mean() < VEIL_DARKER * before[corner].mean()  # the veil over the world
    assert abs(after[corner].mean() - before[corner].mean()) < 0.05 * before[corner].mean()  # gone once closed


def test_a_replay_ending_with_the_inventory_open_shows_each_entrys_icon_in_its_grid_cell(run_game, tmp_path):
    path = tmp_path / "r.boxel"
    make_world(path)
    events = [KeyDown(2, "e"), KeyUp(3, "e"), PutInSlot(4, 0, "glass"), PutInSlot(4, 1, "ice")]
    run = play(run_game, path, events, 10, "inventory_open")
    assert run.report["inventory_open"] is True
    assert run.report["hotbar"]["slots"][:2] == ["glass", "ice"]
    image = np.asarray(Image.open(run.screenshot).convert("RGB")).astype(np.int16)
    height, width = image.shape[:2]
    icons = np.asarray(Image.open(REPO_ROOT / atlas.ICONS_FILE).convert("RGB")).astype(np.int16)
    half = atlas.ICON_PIXELS // 2
    for name in OPAQUE_ICONS:
        cx, cy = ui_to_pixel(*grid_cell_centre(CATALOGUE.entries.index(CATALOGUE.entry_of(name))), (width, height))
        drawn = image[cy - PATCH:cy + PATCH + 1, cx - PATCH:cx + PATCH + 1].reshape(-1, 3).mean(axis=0)
        left, top = atlas.icon_origin_pixels(block_id(name))
        icon = icons[top + half - PATCH:top + half + PATCH + 1, left + half - PATCH:left + half + PATCH + 1]
        assert np.abs(drawn - icon.reshape(-1, 3).mean(axis=0)).max() < ICON_MATCH, name
