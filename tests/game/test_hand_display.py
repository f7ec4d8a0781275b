"""The first-person hand and the F5 third-person view in the real window (the lab, under Xvfb):
the held block's pixels fill the lower right in first person and are gone with F1; in third
person the player's own model stands in the middle of the view.

docs/screenshots/hand.png and docs/screenshots/third-person.png were taken the same way on a
generated world at 1280x720 (`python main.py --world ... --replay ... --screenshot ...`)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from assets.make_atlas import paint_tile
from game.window.render.player_model import HAIR
from game.rules.replay import KeyDown, KeyUp, Look
from game.window.ui.debug_overlay import PLAYER_COLOR
from game.world.meshing import FACE_SHADE

pytestmark = pytest.mark.display

TICKS = 20
"""[ticks] Long enough for the new block to come up into the hand (5 ticks) and the F5 view to settle."""
LOOK = (30.0, 10.0)
"""(yaw, pitch) [degrees]: over the lab's lawn, where nothing stands in the lower right of the view."""
HAND_PATCH = (slice(300, 340), slice(470, 620))
"""(rows, columns) of a 640x360 picture: the lower right, right of the hotbar, where the held block is."""
CENTRE_PATCH = (slice(178, 183), slice(318, 323))
"""(rows, columns): the middle of a 640x360 picture, where the eye looks."""
BRICK_SLOT_KEY = "8"
"""The default hotbar's slot 8 holds bricks: red, unlike anything else in the lab's view."""
HAND_COVERAGE = 0.9
"""The held block covers at least this fraction of HAND_PATCH (it covers all of it; a few pixels
of its mortar may match the lawn behind)."""
CHANGED = 30
"""[0..765] A pixel whose channels differ by more than this in all from the F1 run's shows the hand."""
OWN_BOX_MIN_PIXELS = 100
"""The player's box, 4 blocks away, is 12 edges of a few dozen pixels each (measured: several hundred)."""
COLOUR_TOLERANCE = 12
"""[0..255] Largest channel difference between the picture and a face colour (texture noise, filtering)."""


def brick_like(pixels: np.ndarray) -> np.ndarray:
    """Which pixels are the brick tile's colours under some face shade: red well above green and blue."""
    return (pixels[..., 0] > pixels[..., 1] + 30) & (pixels[..., 0] > pixels[..., 2] + 30)


def shot(run) -> np.ndarray:
    return np.asarray(Image.open(run.screenshot).convert("RGB")).astype(np.int16)


def test_the_held_block_fills_the_lower_right_in_first_person_and_f1_hides_it(scripted_run):
    events = [Look(0, *LOOK), KeyDown(1, BRICK_SLOT_KEY), KeyUp(1, BRICK_SLOT_KEY)]
    held = scripted_run(events, TICKS, name="held")
    hidden = scripted_run(events + [KeyDown(2, "f1"), KeyUp(2, "f1")], TICKS, name="hidden")
    patch, lawn = shot(held)[HAND_PATCH], shot(hidden)[HAND_PATCH]
    assert (np.abs(patch - lawn).sum(axis=2) > CHANGED).mean() >= HAND_COVERAGE
    brick = paint_tile("brick")[..., :3].reshape(-1, 3).mean(axis=0)
    mean = patch.reshape(-1, 3).mean(axis=0)
    shades = mean / brick  # each face is the tile times its shade: every channel scaled alike
    assert shades.max() - shades.min() < 0.1 and FACE_SHADE.min() - 0.1 < shades.mean() <= 1.05
    assert brick_like(shot(hidden)[HAND_PATCH]).mean() == 0.0  # the lawn again
    assert held.report["hotbar"]["selected"] == 7


def test_f5_shows_the_players_own_model_in_the_middle_of_the_view(scripted_run):
    events = [Look(0, *LOOK), KeyDown(1, "f1"), KeyUp(1, "f1")]  # F1: no crosshair over the middle
    first = scripted_run(events, TICKS, name="first")
    third = scripted_run(events + [KeyDown(2, "f5"), KeyUp(2, "f5")], TICKS, name="third")
    centre = shot(third)[CENTRE_PATCH].reshape(-1, 3)
    # The camera looks at the eye from behind: the middle is the back of the head, its hair.
    hair_faces = [np.array(HAIR) * 255.0 * shade for shade in FACE_SHADE]
    assert any(np.abs(centre - face).max() <= COLOUR_TOLERANCE for face in hair_faces), centre.mean(axis=0)
    first_centre = shot(first)[CENTRE_PATCH].reshape(-1, 3)
    assert all(np.abs(first_centre - face).max() > COLOUR_TOLERANCE for face in hair_faces)


def test_the_overlays_boxes_draw_the_players_own_box_in_third_person_only(scripted_run):
    look = [Look(0, *LOOK), KeyDown(1, "b"), KeyUp(1, "b")]
    yellow = np.array(tuple(PLAYER_COLOR)[:3], dtype=np.float64) * 255.0

    def own_box_pixels(run) -> int:
        return int((np.abs(shot(run) - yellow).max(axis=2) <= COLOUR_TOLERANCE).sum())

    assert own_box_pixels(scripted_run(look + [KeyDown(2, "f5"), KeyUp(2, "f5")], TICKS, name="boxes3")) > \
        OWN_BOX_MIN_PIXELS
    assert own_box_pixels(scripted_run(look, TICKS, name="boxes1")) == 0
