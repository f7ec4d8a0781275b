"""A world left with "Save and quit" and played again in the same launch (a real window, Xvfb when there is
no display): the window's per-world parts are made anew, so F5 shows no first-person held block left
over from the first visit, the held block follows the hotbar (in the hand in first person, in the
model's right fist in third person), and nothing half-built is freed on the way (no `Texture.__del__`
error on stderr). Driven by `python -m tests.game.drivers.play_again_driver` (the real loop of
`python main.py`, as a player uses it).

docs/screenshots/play-again-third-person.png is the driver's again_slot.png: the second visit in third
person after choosing the bricks."""

from __future__ import annotations

import json
import os

import numpy as np
import physics
import pytest
from PIL import Image

from game.rules.session import Session
from game.world import World
from tests.game.drivers.play_again_driver import AGAIN_WORLD, SLOT_KEY

from .conftest import run_with_display
from .test_hand_display import CHANGED, HAND_PATCH, brick_like

pytestmark = pytest.mark.display

FLYING_Y = 140.0
"""[blocks] The saved player flies here, far over the land: the lower right of the view is sky and fog,
whatever streams in, so a held block there cannot hide among the land's colours."""
LOOK = (90.0, -20.0)
"""(yaw, pitch) [degrees] saved with the player: a little up, over the horizon."""
SAME_VIEW = 0.02
"""At most this fraction of the hand's corner may differ between two third-person views of the same sky
(the clouds drift 0.03 blocks a tick between them); a held block covers all of it."""
BRICK_SLOT = int(SLOT_KEY) - 1
HEIGHT, HUD_ROWS = 360, 60
"""[pixels] The driver's window height; the bottom rows the hotbar and hearts cover."""
MODEL_BRICK_PIXELS = 80
"""The brick held in the model's right fist in third person shows this many brick-red pixels at least
(measured 166 at 640x360: a 6-pixel cube 4 blocks away)."""
BRICK_SHARE = 0.5
"""At least this fraction of the hand's corner is brick red when bricks are held (measured 0.74: the rest is
the pale mortar between them); stone has none."""


@pytest.fixture(scope="module")
def driven(tmp_path_factory):
    """Run the driver once; returns (folder of its outputs, report, the run's stderr)."""
    user = tmp_path_factory.mktemp("user")
    worlds = user / "data" / "worlds"
    worlds.mkdir(parents=True)
    world = World.create(worlds / f"{AGAIN_WORLD}.boxel", seed=5, workers=1)
    try:
        session = Session.open(world, autosave=False)
        x, _, z = world.spawn
        session.player.body = session.player.previous = physics.Body.at_feet(x + 0.5, FLYING_Y, z + 0.5)
        session.player.flying = True
        session.player.input.look_at(*LOOK)
        session.save()
    finally:
        world.close()
    out = user / "out"
    env = {**os.environ, "BOXEL_DATA_DIR": str(user / "data"), "BOXEL_CONFIG_DIR": str(user / "config")}
    done = run_with_display(["-m", "tests.game.drivers.play_again_driver", "--out", str(out)], env=env)
    assert done.returncode == 0, f"the driver exited with {done.returncode}:\n{done.stderr[-4000:]}"
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return out, report["shots"], done.stderr


def picture(out, name: str) -> np.ndarray:
    return np.asarray(Image.open(out / name).convert("RGB")).astype(np.int16)


def test_played_again_the_window_has_one_hand_and_f5_stops_drawing_it(driven):
    _, shots, _ = driven
    assert (shots["first_person.png"]["hand_regions"], shots["first_person.png"]["hand_regions_drawn"]) == (1, 1)
    for name in ("third_person.png", "again_third.png", "again_slot.png"):
        assert shots[name]["third_person"] is True
        assert (shots[name]["hand_regions"], shots[name]["hand_regions_drawn"]) == (1, 0), name
    assert (shots["again_first.png"]["hand_regions"], shots["again_first.png"]["hand_regions_drawn"]) == (1, 1)


def test_played_again_third_person_shows_no_held_block_in_the_lower_right_before_or_after_a_slot_change(driven):
    out, shots, _ = driven
    reference = picture(out, "third_person.png")[HAND_PATCH]  # the first visit: never a stale hand
    for name in ("again_third.png", "again_slot.png"):
        differs = (np.abs(picture(out, name)[HAND_PATCH] - reference).sum(axis=2) > CHANGED).mean()
        assert differs <= SAME_VIEW, f"{name}: {differs:.0%} of the hand's corner is not the sky"
    assert shots["again_slot.png"]["selected"] == BRICK_SLOT


def brick_red(pixels: np.ndarray) -> np.ndarray:
    """The brick tile's red under any face shade; unlike `brick_like`, not the model's skin (green ~ 184)."""
    return (pixels[..., 0] > pixels[..., 1] + 50) & (pixels[..., 1] < 120)


def test_played_again_the_models_right_hand_in_third_person_holds_the_chosen_slots_block(driven):
    out, _, _ = driven
    above_hud = slice(0, HEIGHT - HUD_ROWS)  # the hearts are red too
    assert brick_red(picture(out, "again_third.png")[above_hud]).sum() == 0  # stone in the hand
    assert brick_red(picture(out, "again_slot.png")[above_hud]).sum() >= MODEL_BRICK_PIXELS


def test_played_again_the_held_block_follows_the_slot_in_first_person(driven):
    out, shots, _ = driven
    assert shots["first_person.png"]["hand_block"] == "stone"
    assert shots["again_first.png"]["hand_block"] == "brick" and shots["again_first.png"]["selected"] == BRICK_SLOT
    assert brick_like(picture(out, "again_first.png")[HAND_PATCH]).mean() >= BRICK_SHARE
    assert brick_like(picture(out, "first_person.png")[HAND_PATCH]).mean() == 0.0  # stone then


def test_entering_a_world_again_prints_no_texture_del_error(driven):
    _, _, stderr = driven
    assert "_cached_image" not in stderr
    assert "Exception ignored" not in stderr, stderr[-3000:]
