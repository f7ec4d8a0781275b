"""The chat in the real window (the lab, live input, Xvfb when there is no display): T opens the input line
with nothing typed in it, the keys typed go to the line and not to the game (its A does not strafe, its E
opens no inventory), Enter says it (every player is told `<player> text`, drawn over the HUD) and Esc
closes the line unsaid. Driven by `python -m tests.game.drivers.chat_driver`, which presses keys as
the keyboard does. docs/screenshots/chat.png is the driver's said.png."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from PIL import Image

from tests.game.drivers.chat_driver import LINE
from .conftest import keep_docs_screenshot, run_with_display

pytestmark = pytest.mark.display

SAID = f"<player> {LINE}"
DOCS_SCREENSHOT = "chat.png"
CHAT_ROW = (slice(270, 295), slice(0, 300))
"""[pixels] The bottom chat row at 640x360 (above the hearts, at the left): where the line said is drawn."""
TEXT_LEVEL = 230
"""[RGB level] The chat's near-white text: a pixel at least this bright on every channel (grass and the
dark strip are far below it)."""


@pytest.fixture(scope="module")
def driven(tmp_path_factory):
    """Run the driver once; (its output folder, its report)."""
    user = tmp_path_factory.mktemp("user")
    out = user / "out"
    env = {**os.environ, "BOXEL_DATA_DIR": str(user / "data"), "BOXEL_CONFIG_DIR": str(user / "config"),
           "BOXEL_MUTE": "1"}
    done = run_with_display(["-m", "tests.game.drivers.chat_driver", "--out", str(out)], env=env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out, json.loads((out / "report.json").read_text(encoding="utf-8"))


def test_t_opens_an_empty_chat_line_and_what_is_typed_goes_to_it_not_to_the_game(driven):
    _, report = driven
    before, opened, typed = report["before"], report["opened"], report["typed"]
    assert (opened["open"], opened["typed"]) == (True, "")
    assert (typed["open"], typed["typed"]) == (True, LINE)
    assert typed["feet"] == before["feet"] and typed["inventory_open"] is False and typed["notices"] == []


def test_enter_says_the_line_to_every_player_and_draws_it_over_the_hud(driven):
    out, report = driven
    said = report["said"]
    assert said["open"] is False and said["paused"] is False
    assert said["notices"] == [SAID] and said["lines"] == [SAID]
    image = np.asarray(Image.open(out / "said.png").convert("RGB"))
    typing = np.asarray(Image.open(out / "typing.png").convert("RGB"))
    bright = lambda picture: int((picture[CHAT_ROW].min(axis=2) >= TEXT_LEVEL).sum())
    assert bright(image) > 40 and bright(typing) == 0, "the line said is not drawn in the chat's bottom row"
    keep_docs_screenshot(out / "said.png", DOCS_SCREENSHOT)


def test_esc_closes_the_chat_line_and_nothing_is_said(driven):
    _, report = driven
    escaped = report["escaped"]
    assert (escaped["open"], escaped["typed"], escaped["paused"]) == (False, "", False)
    assert escaped["notices"] == [SAID]
