"""The title screen's dialogs as a new player uses them (`python main.py` at 1280x720 under Xvfb,
real clicks and keys through xdotool): Rename's field starts with the caret after the old name, so
a "2" typed makes "Castle2"; New's field starts with the caret after "New World" wherever the
pointer was when New was clicked, and Home and End move it: "x", Home, "A", End, "z" make
"ANew Worldxz", the world that Enter creates and plays. The dialog is captured with ImageMagick's
`import` (docs/screenshots/new-world-dialog.png is that picture, cropped to the dialog)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from game.window.ui import title_screen
from game.window.ui.settings_panel import CONTROL_HEIGHT, CONTROL_WIDTH
from game.world import World
from tests.game.conftest import REPO_ROOT, close_game_window_shell, find_game_window_shell, run_display_script
from tests.game.test_inventory_display import ui_to_pixel
from tests.game.test_pause_and_loading_display import needs_xdotool

pytestmark = pytest.mark.display

WINDOW = (1280, 720)
"""[pixels] The size the new player played at."""
SETTLE_S = 1.5
"""[s] After a click or key, so the frames after it have run (software rendering draws a few a second at worst)."""
CARET_CYAN = (0, 255, 255)
"""Ursina's caret colour (`color.cyan`)."""
CARET_MATCH = 60
"""[levels of 255] A caret pixel is within this of cyan in every channel (it blinks: captured half lit at worst)."""


def button_pixel(caption: str) -> tuple[int, int]:
    """The window pixel at the centre of the title screen's first-row button `caption` (full size at 16:9)."""
    quarter = (title_screen.LIST_WIDTH - 3 * title_screen.BUTTON_GAP) / 4
    k = ("Play", "New", "Rename", "Delete").index(caption)
    x = -title_screen.LIST_WIDTH / 2 + quarter / 2 + k * (quarter + title_screen.BUTTON_GAP)
    return ui_to_pixel(x, title_screen.BUTTON_ROW_Y[0], WINDOW)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Rename "Castle" (type 2), then New (type x, Home, A, End, z, Enter) and play it; the run's files."""
    if not shutil.which("import"):
        pytest.skip("ImageMagick's import is needed to capture the title screen")
    needs_xdotool()
    user = tmp_path_factory.mktemp("user")
    worlds = user / "data" / "worlds"
    worlds.mkdir(parents=True)
    World.create(worlds / "Castle.boxel", 7, workers=1).close()
    (user / "config").mkdir()
    (user / "config" / "settings.json").write_text(json.dumps({"view_distance_columns": 2}), encoding="utf-8")
    output = user / "output.txt"
    game = subprocess.list2cmdline([sys.executable, str(REPO_ROOT / "main.py"), "--size", "%dx%d" % WINDOW])
    rename_x, rename_y = button_pixel("Rename")
    new_x, new_y = button_pixel("New")

    def click(x: int, y: int) -> str:
        return f'xdotool mousemove --window $wid {x} {y}; sleep 0.5; xdotool click 1; sleep {SETTLE_S}; '

    def keys(*names: str) -> str:
        return "".join(f'xdotool key {name}; sleep 0.3; ' for name in names)

    def capture(name: str) -> str:
        return f'import -window $wid "{user / name}"; '

    script = (f'export BOXEL_CONFIG_DIR="{user}/config" BOXEL_DATA_DIR="{user}/data"; '
              f'{game} > {output} 2>&1 & pid=$!; '
              f'while ! grep -q "boxel: title screen" {output}; do sleep 0.1; kill -0 $pid || exit 3; done; '
              + find_game_window_shell() + f'xdotool windowfocus --sync $wid; sleep {SETTLE_S}; '
              + click(rename_x, rename_y) + capture("rename.png") + keys("2", "Return") + f'sleep {SETTLE_S}; '
              + click(new_x, new_y) + capture("new.png") + keys("x", "Home", "A", "End", "z")
              + capture("typed.png") + keys("Return")
              + f'while ! grep -q "ready after" {output}; do sleep 0.2; kill -0 $pid || exit 3; done; '
              + close_game_window_shell())
    done = run_display_script(script, output)
    printed = output.read_text()
    assert done.returncode == 0, f"exit {done.returncode}: {printed[-3000:]}{done.stderr[-2000:]}"
    return user, worlds, printed


def test_rename_adds_the_first_key_typed_after_the_old_name(played):
    _, worlds, _ = played
    assert (worlds / "Castle2.boxel").is_file() and not (worlds / "Castle.boxel").exists()


def test_new_starts_at_the_end_of_its_name_and_home_and_end_move_the_caret(played):
    _, worlds, printed = played
    assert (worlds / "ANew Worldxz.boxel").is_file()
    assert f"{worlds / 'ANew Worldxz.boxel'} (seed" in printed  # the world Enter created is the one played


def test_the_new_dialog_shows_the_caret_after_the_name_not_where_the_pointer_was(played):
    user, _, _ = played
    picture = np.asarray(Image.open(user / "new.png").convert("RGB")).astype(np.int16)
    assert picture.shape == (WINDOW[1], WINDOW[0], 3)
    # The name field: left half of the field holds "New World" and the caret after it; the pointer
    # was on New, left of the field's centre, which is where Ursina put the caret before.
    left, top = ui_to_pixel(-CONTROL_WIDTH / 2, title_screen.DIALOG_FIELD_Y[0] + CONTROL_HEIGHT / 2, WINDOW)
    right, bottom = ui_to_pixel(CONTROL_WIDTH / 2, title_screen.DIALOG_FIELD_Y[0] - CONTROL_HEIGHT / 2, WINDOW)
    field = picture[top:bottom, left:right]
    cyan = (np.abs(field - np.array(CARET_CYAN)) <= CARET_MATCH).all(axis=2)
    text = field.min(axis=2) > 200
    assert text.sum() > 50, "no name in the field"
    text_right = np.nonzero(text.any(axis=0))[0].max()
    caret_columns = np.nonzero(cyan.any(axis=0))[0]
    if caret_columns.size:  # the caret blinks: where it is lit it must be just after the text
        assert caret_columns.min() >= text_right - 2
