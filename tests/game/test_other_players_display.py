"""Other players in the real game (a window under Xvfb), driven by a two-player replay: the local player
looks east while "alice" walks east into view, turns, places a brick and says so. The screenshot shows her model
(the player model's shirt and trousers), her name tag over her head and her brick; her tag's light text
is drawn on its dark card above her head, and nothing of it is there in a run without her."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import numpy as np
import pytest

from game.rules.replay import Chat, Click, Event, KeyDown, KeyUp, Look
from game.window.render.player_model import HAIR, SHIRT, TROUSERS
from tests.game import scripted_runs
from tests.game.conftest import keep_docs_screenshot
from tests.game.scripted_runs import CLEARANCE, PLATFORM
from tests.game.test_mobs_display import COLOUR_MATCH, shown
from game.window.render.entity_view import FACE_INDEX
from game.world.meshing import FACE_SHADE
from game.world import World

pytestmark = pytest.mark.display

SEED = 42
LOCAL_EVENTS = (Look(0, 270.0, 12.0), KeyDown(0, "s"), KeyUp(10, "s"))
"""The local player looks east (and a little down) and backs west about 2 blocks, out of the spawn
where alice joins: the two never touch, so without alice the view is exactly the same."""
ALICE = "alice"
ALICE_WALK_TICKS = range(14, 40)
"""[ticks] alice joins at the spawn at the first of these and holds W through them: about 5 blocks
east along the camera's view (Beta's walk, 0.216 blocks a tick at speed)."""
BRICK_SLOT_KEY = "8"
"""The default hotbar's eighth slot holds brick."""
PLACE_TICK = 46
ALICE_PLACE_LOOK = (180.0, 45.0)
"""[degrees] North (to the camera's left) and down: the brick goes on the floor beside her, clear of her box."""
SAY_TICK = 48
GREETING = "hi, I built this"
TICKS = 54
WHITE = 250
"""[RGB level] The tag's text is drawn white (255 on every channel) at full brightness where nothing is
in front of it; a pixel at least this bright on all three channels is text (the sky, the sun and the
clouds here are all tinted below it on one channel at least)."""
TAG_REACH = 40
"""[pixels] The tag is centred over her head: its text lies within this many columns of her model's."""
DOCS_SCREENSHOT = "other-players.png"


@pytest.fixture(autouse=True)
def user_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("BOXEL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("BOXEL_CONFIG_DIR", str(tmp_path / "config"))


def make_world(path: Path) -> int:
    """A seed-42 world with a flat grass platform around the spawn; the platform's floor y."""
    with World.create(path, SEED) as world:
        floor = math.floor(world.spawn[1]) - 1
        scripted_runs.flatten(world, floor, *PLATFORM, CLEARANCE)
    return floor


def alice_events() -> list[Event]:
    """alice walks east from the spawn, turns north, looks down at the floor beside her path, places a
    brick and says so."""
    walk = ALICE_WALK_TICKS
    return [Look(walk.start, 270.0, 0.0, player=ALICE), KeyDown(walk.start, "w", player=ALICE),
            KeyUp(walk.stop, "w", player=ALICE), KeyDown(walk.stop, BRICK_SLOT_KEY, player=ALICE),
            KeyUp(walk.stop + 1, BRICK_SLOT_KEY, player=ALICE),
            Look(PLACE_TICK - 2, *ALICE_PLACE_LOOK, player=ALICE), Click(PLACE_TICK, "right", player=ALICE),
            Chat(SAY_TICK, GREETING, player=ALICE)]


def model_columns(image: np.ndarray) -> tuple[int, int, int]:
    """(first column, last column, top row) of the pixels showing alice's shirt or hair."""
    mask = colour_mask(image, [SHIRT, HAIR])
    rows, columns = np.nonzero(mask)
    assert len(rows), "alice's model is not drawn"
    return int(columns.min()), int(columns.max()), int(rows.min())


def colour_mask(image: np.ndarray, rgbs) -> np.ndarray:
    """The pixels showing one of the colours `rgbs` (0..1) under a face shade (`test_mobs_display.shown`'s rule)."""
    shades = [float(FACE_SHADE[i]) for i in FACE_INDEX.values()]
    colours = np.array([[round(c * s * 255) for c in rgb] for rgb in rgbs for s in shades])
    distance = np.abs(image[:, :, None, :] - colours[None, None, :, :]).max(axis=3)
    return distance.min(axis=2) <= COLOUR_MATCH


def test_alice_is_drawn_with_the_player_model_her_name_tag_her_brick_and_her_chat_line(run_game, tmp_path):
    world = tmp_path / "w.boxel"
    make_world(world)
    alone_world = tmp_path / "alone.boxel"
    shutil.copy(world, alone_world)

    both = scripted_runs.play(run_game, world, [*LOCAL_EVENTS, *alice_events()], TICKS, "both")
    alone = scripted_runs.play(run_game, alone_world, list(LOCAL_EVENTS), TICKS, "alone")
    keep_docs_screenshot(both.screenshot, DOCS_SCREENSHOT)

    assert both.report["other_players_drawn"] == [ALICE] and both.report["name_tags_drawn"] == [ALICE]
    assert alone.report["other_players_drawn"] == [] and alone.report["name_tags_drawn"] == []
    assert both.report["players"]["player"]["feet"] == alone.report["feet"], "the local player's view must not differ"
    bricks = [edit for edit in both.report["edited_blocks"] if edit[3] == "brick"]
    floor_top = both.report["players"][ALICE]["feet"][1]
    assert len(bricks) == 1 and bricks[0][1] == floor_top, "alice's brick is not on the floor"
    assert alone.report["edited_blocks"] == []
    assert both.report["chat_lines_drawn"] == [f"<{ALICE}> {GREETING}"] and alone.report["chat_lines_drawn"] == []
    image, without = both.image(), alone.image()
    assert shown(image, [SHIRT]) > 20 and shown(image, [TROUSERS]) > 20, "alice's model is not drawn"
    assert shown(without, [SHIRT, TROUSERS]) == 0
    left, right, top = model_columns(image)
    white = (image.min(axis=2) >= WHITE) & (without.min(axis=2) < WHITE)  # white only where alice is
    rows, columns = np.nonzero(white)
    assert len(rows) >= 10, "no text of alice's name tag is drawn"
    assert rows.max() < top, "the name tag's text is not above alice's head"
    assert left - TAG_REACH <= columns.min() and columns.max() <= right + TAG_REACH, "the tag is not over alice"
    card = (without - image).min(axis=2) >= 10  # the card darkens what is behind it on every channel
    band = card[rows.min():rows.max() + 1, columns.min():columns.max() + 1]
    assert band.mean() > 0.5, "the name tag's dark card is not drawn behind its text"


BOX_RGB = (255, 153, 26)
"""The F3 overlay's colour of the boxes of bodies other than the player's (`debug_overlay.BODY_COLOR`)."""
BOX_MATCH = 40
"""[RGB levels] A line pixel this close to BOX_RGB (lines are thin and blended at their edges)."""


def test_the_overlays_boxes_outline_alice(run_game, tmp_path):
    world = tmp_path / "w.boxel"
    make_world(world)
    events = sorted([*LOCAL_EVENTS, *alice_events(), KeyDown(TICKS - 4, "b"), KeyUp(TICKS - 3, "b")],
                    key=lambda event: event.tick)
    run = scripted_runs.play(run_game, world, events, TICKS, "boxes")
    assert run.report["debug_overlay"] is True
    image = run.image()
    left, right, top = model_columns(image)
    lines = np.abs(image - np.array(BOX_RGB)).max(axis=2) <= BOX_MATCH
    rows, columns = np.nonzero(lines[:, max(left - 10, 0):right + 10])
    assert len(rows) > 100, "no body box is drawn around alice"  # measured 316 (0 without the overlay)
