"""The creative inventory's name by the pointer in the real window (the lab at 1280x720 under Xvfb,
real pointer and clicks through xdotool): with the pointer on the Stone Slab's slot it reads "Stone
Slab"; after the ladder is clicked and then that slot, with the pointer still on it, it reads what
it reads after the pointer leaves and comes back, "Ladder" (before, "Stone Slab" stayed until the
pointer left). The window is captured with ImageMagick's `import`."""

from __future__ import annotations

import shutil
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from game.rules.inventory import CATALOGUE
from game.window.ui.inventory_screen import TOOLTIP_OFFSET, grid_cell_centre, slot_centre
from tests.game.conftest import REPO_ROOT, close_game_window_shell, find_game_window_shell, run_display_script
from tests.game.test_inventory_display import ui_to_pixel
from tests.game.test_pause_and_loading_display import needs_xdotool

pytestmark = pytest.mark.display

WINDOW = (1280, 720)
SETTLE_S = 1.5
"""[s] After a pointer move or click, so the session's next tick and the frames after it have run."""
STONE_SLAB_SLOT = 8
"""The lab's hotbar (the default one) holds the stone slab in its last slot."""
TOOLTIP_WIDTH = 0.2
"""[window heights] Wider than "Stone Slab" or "Ladder" at the tooltip's text size."""
TOOLTIP_HALF_HEIGHT = 0.02
"""[window heights] Half the tooltip line's height, with its background's margin."""
TEXT_LEVEL = 200
"""[0..255] A pixel of the tooltip's white letters is brighter than this in every channel; the panel behind is dark."""
SAME_TEXT = 0.1
"""Two captures of the same name differ in at most this fraction of their letter pixels (blending at the edges)."""


def letters(picture: np.ndarray, pointer: tuple[int, int]) -> np.ndarray:
    """The bright letter pixels of the tooltip by `pointer` (a window pixel)."""
    left = pointer[0] + round(TOOLTIP_OFFSET[0] * WINDOW[1])
    centre = pointer[1] - round(TOOLTIP_OFFSET[1] * WINDOW[1])
    half = round(TOOLTIP_HALF_HEIGHT * WINDOW[1])
    region = picture[centre - half:centre + half, left - 4:left + round(TOOLTIP_WIDTH * WINDOW[1])]
    return region.min(axis=2) > TEXT_LEVEL


def differing(a: np.ndarray, b: np.ndarray) -> float:
    """The fraction of letter pixels in either mask that are not in both."""
    return (a ^ b).sum() / max((a | b).sum(), 1)


@pytest.fixture(scope="module")
def captures(tmp_path_factory):
    """(slab, after the put, after leaving and coming back) captures and the slot's pixel."""
    if not shutil.which("import"):
        pytest.skip("ImageMagick's import is needed to capture the window")
    needs_xdotool()
    user = tmp_path_factory.mktemp("tooltip")
    output = user / "output.txt"
    game = subprocess.list2cmdline([sys.executable, str(REPO_ROOT / "main.py"), "--lab", "--size", "%dx%d" % WINDOW])
    slot = ui_to_pixel(*slot_centre(STONE_SLAB_SLOT), WINDOW)
    ladder = ui_to_pixel(*grid_cell_centre(CATALOGUE.entries.index(CATALOGUE.entry_of("ladder_north"))), WINDOW)

    def point(x: int, y: int) -> str:
        return f'xdotool mousemove --window $wid {x} {y}; sleep {SETTLE_S}; '

    def click() -> str:
        return f'xdotool click 1; sleep {SETTLE_S}; '

    def capture(name: str) -> str:
        return f'import -window $wid "{user / name}"; '

    script = (f'export BOXEL_CONFIG_DIR="{user}/config" BOXEL_DATA_DIR="{user}/data"; '
              f'{game} > {output} 2>&1 & pid=$!; '
              f'while ! grep -q "ready after" {output}; do sleep 0.1; kill -0 $pid || exit 3; done; '
              + find_game_window_shell() + f'xdotool windowfocus --sync $wid; sleep {SETTLE_S}; '
              + f'xdotool key e; sleep {SETTLE_S}; '
              + point(*slot) + capture("slab.png")
              + point(*ladder) + click() + point(*slot) + click() + capture("put.png")
              + point(slot[0], slot[1] - 200) + point(*slot) + capture("again.png")
              + close_game_window_shell())
    done = run_display_script(script, output)
    assert done.returncode == 0, f"exit {done.returncode}: {output.read_text()[-3000:]}{done.stderr[-2000:]}"
    pictures = tuple(np.asarray(Image.open(user / name).convert("RGB")).astype(np.int16)
                     for name in ("slab.png", "put.png", "again.png"))
    return pictures, slot


def test_after_the_ladder_is_put_in_the_slabs_slot_the_name_by_the_pointer_changes_at_once(captures):
    (slab, put, again), slot = captures
    slab_text, put_text, again_text = (letters(picture, slot) for picture in (slab, put, again))
    assert slab_text.sum() > 30 and again_text.sum() > 30, "no name by the pointer"
    assert differing(slab_text, again_text) > 3 * SAME_TEXT  # "Stone Slab" and "Ladder" read differently
    assert differing(put_text, again_text) < SAME_TEXT  # right after the put it already reads "Ladder"
