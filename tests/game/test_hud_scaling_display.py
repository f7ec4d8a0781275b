"""The HUD fits small and portrait windows (the lab in the real window under Xvfb, driven by a
replay): at 320x480 and 400x240 the hotbar's first and last slots are drawn whole inside the
window (the white selection frame found on slot 1, then on slot 9), where `hud_layout` puts
them, and the F3 panel ends inside the window with its last line drawn.

One run per size: F2 saves a picture before F3 (slot 1 selected), then F3 opens the panel and 9
selects the last slot; the run's last frame is the second picture. The panel is found as the
pixels it darkens (black at 60 %) or turns white (its text) between the two.

docs/screenshots/portrait-hud.png is the 320x480 run's last frame."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from game.rules.replay import KeyDown, KeyUp, ReplayWriter
from game.window.ui import debug_overlay
from game.window.ui.hud import SELECTION_BORDER, hud_layout
from tests.game.conftest import keep_docs_screenshot

pytestmark = pytest.mark.display

DOCS_SCREENSHOT = "portrait-hud.png"
FIRST_PICTURE_TICK = 3
F3_TICK = 4
LAST_SLOT_TICK = 5
RUN_TICKS = 20
"""[ticks] Long enough for the panel's first refresh (every 2 ticks) after F3."""
WHITE = 250
"""[0..255] Every channel at least this: the selection frame's pure white (no sky or block is)."""
BAR_FILL = 0.7
"""A frame's side bar is a column with white in at least this fraction of the frame's height
(the rest lost to the blending of a bar under two pixels wide at its ends)."""
POSITION_MATCH = 2
"""[pixels] A found frame bar is within this of where the layout puts it (rounding of a scaled
1-2 pixel bar)."""
DARKENED = 0.75
"""A pixel the panel covers keeps at most this fraction of its brightness (the panel leaves 0.4)."""
TEXT_BRIGHT = 180
"""[0..255] Every channel at least this: the panel's white text on its dark fill."""


def ui_to_pixel(x: float, y: float, size: tuple[int, int]) -> tuple[float, float]:
    """(column, row) of a `camera.ui` point, unrounded."""
    width, height = size
    return x * height + width / 2, (0.5 - y) * height


def run_lab(run_game, folder: Path, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, Path]:
    """The picture before F3 (slot 1 selected) and the last frame (panel open, slot 9), as RGB arrays."""
    replay, last = folder / "hud.jsonl", folder / "last.png"
    with ReplayWriter.open(replay) as writer:
        for event in (KeyDown(FIRST_PICTURE_TICK, "f2"), KeyUp(FIRST_PICTURE_TICK + 1, "f2"), KeyDown(F3_TICK, "f3"),
                      KeyUp(F3_TICK + 1, "f3"), KeyDown(LAST_SLOT_TICK, "9"), KeyUp(LAST_SLOT_TICK + 1, "9")):
            writer.write(event)
    done = run_game("--lab", "--size", "%dx%d" % size, "--replay", str(replay), "--exit-after-ticks", str(RUN_TICKS),
                    "--screenshot", str(last))
    assert done.returncode == 0, f"the game exited with {done.returncode}:\n{done.stderr[-4000:]}"
    saved = re.findall(r"screenshot saved: (.+)", done.stdout)
    assert len(saved) == 1, done.stdout
    pictures = [np.asarray(Image.open(path).convert("RGB")).astype(np.int32) for path in (saved[0].strip(), last)]
    for picture in pictures:
        assert picture.shape == (size[1], size[0], 3)
    return pictures[0], pictures[1], last


def frame_bar_columns(picture: np.ndarray, size: tuple[int, int], slot: int) -> list[int]:
    """The columns in which the selection frame's rows hold a white vertical bar."""
    layout = hud_layout(size[0] / size[1])
    _, top = ui_to_pixel(0.0, layout.hotbar_y + layout.selection_size / 2, size)
    _, bottom = ui_to_pixel(0.0, layout.hotbar_y - layout.selection_size / 2, size)
    rows = picture[max(int(top), 0):min(int(np.ceil(bottom)), size[1])]
    white = (rows >= WHITE).all(axis=2)
    return [int(c) for c in np.nonzero(white.sum(axis=0) >= BAR_FILL * (bottom - top))[0]]


def expected_bars(size: tuple[int, int], slot: int) -> tuple[float, float]:
    """Columns of the centres of the selection frame's left and right bars on `slot`."""
    layout = hud_layout(size[0] / size[1])
    inset = (layout.selection_size / 2 - SELECTION_BORDER * layout.scale / 2)
    left, _ = ui_to_pixel(layout.slot_xs[slot] - inset, 0.0, size)
    right, _ = ui_to_pixel(layout.slot_xs[slot] + inset, 0.0, size)
    return left - 0.5, right - 0.5  # pixel centres sit half a pixel right of their left edge


@pytest.mark.parametrize("size", [(320, 480), (400, 240)])
def test_in_a_small_window_the_hotbar_ends_and_the_f3_panel_are_inside_the_window(run_game, tmp_path, size):
    before, after, last = run_lab(run_game, tmp_path, size)
    width, height = size

    # The hotbar: the selection frame's two side bars on slot 1, then on slot 9, where the layout puts them.
    for picture, slot in ((before, 0), (after, 8)):
        found = frame_bar_columns(picture, size, slot)
        for bar in expected_bars(size, slot):
            assert 0 <= bar <= width - 1, f"the layout puts slot {slot + 1}'s frame outside the window"
            near = [c for c in found if abs(c - bar) <= POSITION_MATCH]
            assert near, f"no white frame bar near column {bar:.1f} on slot {slot + 1}; bars at {found}"

    # The F3 panel: its fill darkens the view (read along its padding: the column just inside its left
    # edge and the row just inside its top edge, where no text is), and its last line of text.
    margin = debug_overlay.PANEL_MARGIN * height
    darkened = after.sum(axis=2) <= DARKENED * before.sum(axis=2)
    inside = round(1.5 * margin)  # from the window's edge: past the panel's edge, before its text
    rows = np.nonzero(darkened[:, inside])[0]
    columns = np.nonzero(darkened[inside, :])[0]
    assert len(rows) and len(columns), "the F3 panel was not drawn"
    assert rows.min() <= margin + 1 and columns.min() <= margin + 1  # it starts at the top-left corner
    assert columns.max() < width - margin / 2, "the F3 panel runs past the window's right edge"
    assert rows.max() < height - margin / 2, "the F3 panel runs past the window's bottom edge"
    text = (after >= TEXT_BRIGHT).all(axis=2) & ~(before >= TEXT_BRIGHT).all(axis=2)
    panel_bottom, panel_right = rows.max(), columns.max()
    last_line = text[max(panel_bottom - round(3 * margin + 0.025 * height), 0):panel_bottom + 1, :panel_right]
    assert last_line.any(), "the F3 panel's last line is not drawn"

    if size == (320, 480):
        keep_docs_screenshot(last, DOCS_SCREENSHOT)
