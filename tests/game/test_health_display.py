"""Health and danger in the real window (the lab under Xvfb), driven by replay files: a fall to
death opens the death screen over the still-drawn world, the respawn key closes it at the
spawn with full health, and under water the view takes the water's fog and tint while the HUD
shows the air bubbles. Each run's report is the session's (health, air, dead) plus the window's
(death screen, the fluid the view is in)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from game.rules.health import MAX_AIR, MAX_HEALTH
from game.world.lab import SPAWN_FEET
from game.rules.lab_session import lab_session
from game.rules.controls import RESPAWN_KEY
from game.rules.replay import KeyDown, KeyUp, Look
from game.window.ui import death_screen, hud
from game.window.ui.screen_effects import FLUID_VIEWS
from physics import Material

from .conftest import TEST_WINDOW_SIZE

pytestmark = pytest.mark.display

WIDTH, HEIGHT = (int(v) for v in TEST_WINDOW_SIZE.split("x"))
FALL_TO_DEATH = [Look(0, 200.0, 20.0), KeyDown(0, "f"), KeyDown(1, "space"), KeyUp(70, "space"), KeyDown(71, "f")]
"""Fly straight up from the spawn for 70 ticks (26 blocks), stop flying and fall back onto the spawn: 23 damage."""
DEATH_TICKS = 140
"""The fall has landed (tick 111) well before this."""
RESPAWN_TICK = 150
SETTLED_TICKS = 400
"""After the respawn: long enough for the landing's hurt flash (HURT_FLASH_SECONDS of frames) to be gone."""
INTO_THE_POOL = [Look(0, 270.0, 0.0), KeyDown(0, "f"), KeyDown(0, "space"), KeyUp(8, "space"), KeyDown(8, "w"),
                 KeyUp(24, "w"), KeyDown(30, "f"), Look(60, 120.0, -5.0)]
"""Fly up and east over the east wall, stop flying over the pool, sink to its bottom, look back west."""
POOL_TICKS = 110
VEIL_MATCH = 12
"""[RGB levels] A veiled pixel is within this of the unveiled one blended with VEIL_COLOR (8-bit
rounding of the blend and of the two renders)."""
COLOR_MATCH = 24
"""[RGB levels] A HUD art pixel is within this of its colour (scaled art pixels blend at their edges)."""


def rgb255(ursina_color) -> np.ndarray:
    return np.asarray(tuple(ursina_color)[:3], dtype=np.float64) * 255.0


def alpha(ursina_color) -> float:
    return float(tuple(ursina_color)[3])


def ui_pixel(x: float, y: float) -> tuple[int, int]:
    """(row, column) of a `camera.ui` point in the test window."""
    return round((0.5 - y) * HEIGHT), round(x * HEIGHT + WIDTH / 2)


def image(run) -> np.ndarray:
    picture = np.asarray(Image.open(run.screenshot).convert("RGB")).astype(np.float64)
    assert picture.shape == (HEIGHT, WIDTH, 3)
    return picture


@pytest.fixture
def dead_and_back(scripted_run):
    dead = scripted_run(FALL_TO_DEATH, DEATH_TICKS, name="dead")
    back = scripted_run(FALL_TO_DEATH + [KeyDown(RESPAWN_TICK, RESPAWN_KEY)], SETTLED_TICKS, name="back")
    return dead, back


def test_falling_to_death_opens_the_death_screen_and_the_respawn_key_closes_it_at_the_spawn(dead_and_back):
    dead, back = dead_and_back
    assert dead.report["dead"] is True and dead.report["health"] == 0 and dead.report["death_screen"] is True
    assert list(dead.report["feet"]) == list(SPAWN_FEET)  # it fell back onto the spawn
    assert back.report["dead"] is False and back.report["death_screen"] is False
    assert (back.report["health"], back.report["air"], back.report["fire"]) == (MAX_HEALTH, MAX_AIR, 0)
    assert list(back.report["feet"]) == list(SPAWN_FEET) and back.report["velocity"] == [0.0, -0.0784000015258789, 0.0]


def test_the_death_screen_veils_the_same_view_in_red_and_shows_its_title_and_respawn_button(dead_and_back):
    dead, back = dead_and_back
    veiled, clear = image(dead), image(back)
    # The dead player and the respawned one stand at the spawn with the same look: the same view.
    a = alpha(death_screen.VEIL_COLOR)
    expected = clear * (1.0 - a) + rgb255(death_screen.VEIL_COLOR) * a
    top = ui_pixel(0.0, death_screen.TITLE_Y + 0.1)[0]  # the rows above the title
    assert np.abs(veiled[:top] - expected[:top]).max() <= VEIL_MATCH
    assert np.abs(veiled[:top] - clear[:top]).max() > 40  # and the veil is plain to see
    title_row, centre = ui_pixel(0.0, death_screen.TITLE_Y)
    title = veiled[title_row - 8:title_row + 8, centre - 60:centre + 60]
    assert (title.min(axis=2) > 200).sum() > 50, "no white title text"
    button_row, _ = ui_pixel(0.0, death_screen.BUTTON_Y)
    half = round(death_screen.BUTTON_WIDTH * HEIGHT / 2) - 4
    button = veiled[button_row - 6:button_row + 7, centre - half:centre + half]
    assert (button.min(axis=2) > 200).sum() > 20, "no caption on the Respawn button"


def test_under_water_the_view_takes_the_waters_fog_and_tint_and_the_hud_shows_the_air(scripted_run):
    run = scripted_run(INTO_THE_POOL, POOL_TICKS, name="pool")
    report = run.report
    assert report["view_fluid"] == "water" and report["health"] == MAX_HEALTH
    headless = lab_session()
    headless.run(INTO_THE_POOL, POOL_TICKS)
    assert report["air"] == headless.report()["air"] < MAX_AIR
    picture = image(run)
    water = FLUID_VIEWS[Material.WATER]
    a = alpha(water.tint)
    # Above the pool's rim only the clear colour is seen: the water's fog colour under its tint.
    sky = rgb255(water.fog_color) * (1.0 - a) + rgb255(water.tint) * a
    patch = picture[:round(0.05 * HEIGHT), round(0.52 * WIDTH):round(0.62 * WIDTH)]
    assert np.abs(patch - sky).max() <= VEIL_MATCH
    # The HUD is drawn over the tint: the hearts in their red, one bubble per 30 ticks of air begun.
    bubbles = hud.bubble_count(report["air"])
    assert 0 < bubbles < MAX_AIR // hud.BUBBLE_AIR
    for i in range(hud.HEART_COUNT):
        row, column = ui_pixel(hud.HEARTS_X + i * hud.HEART_STEP, hud.HEARTS_Y)
        assert np.abs(picture[row, column] - hud.PIXEL_COLORS["r"][:3]).max() <= COLOR_MATCH, f"heart {i}"
    for i in range(MAX_AIR // hud.BUBBLE_AIR):
        row, column = ui_pixel(hud.HEARTS_X + i * hud.HEART_STEP, hud.BUBBLES_Y)
        is_blue = np.abs(picture[row, column] - hud.PIXEL_COLORS["b"][:3]).max() <= COLOR_MATCH
        assert is_blue == (i < bubbles), f"bubble {i}"


def test_the_death_screen_hides_the_crosshair_over_its_respawn_button_and_the_respawn_brings_it_back(dead_and_back):
    dead, back = dead_and_back
    assert dead.report["death_screen"] is True and dead.report["crosshair_drawn"] is False
    assert back.report["death_screen"] is False and back.report["crosshair_drawn"] is True
    # Drawn, the white cross would show through the veil as a pale cross at the window's centre:
    # hidden, the arms' pixels are the veiled world like those just past their ends.
    veiled, clear = image(dead), image(back)
    arms, around = crosshair_pixels()
    assert clear[arms].min(axis=1).mean() > CROSS_WHITE  # the respawned player's crosshair is there
    assert abs(veiled[arms].mean() - veiled[around].mean()) < CROSS_CONTRAST


CROSS_WHITE = 180
"""[levels of 255] The crosshair's arms drawn over the world (white at 0.92 over a dark outline) are
brighter than this (measured 237)."""
CROSS_CONTRAST = 20
"""[levels of 255] Hidden, the arms' pixels differ from those around them by less than this (the
lab's floor under the veil: measured 5); drawn under the veil they would be ~67 brighter."""


def crosshair_pixels() -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """(rows, columns) of the pixels on the crosshair's horizontal arm (its centre row, off the
    vertical arm) and of those just past the arm's ends, in the test window."""
    row, centre = ui_pixel(0.0, 0.0)
    reach = int(hud.CROSSHAIR_LENGTH * HEIGHT / 2) - 1
    width = int(hud.CROSSHAIR_WIDTH * HEIGHT / 2) + 1
    on = [c for c in range(centre - reach, centre + reach + 1) if abs(c - centre) > width]
    off = [c for k in range(reach + 3, 2 * reach + 3) for c in (centre - k, centre + k)]
    return ((np.full(len(on), row), np.asarray(on)), (np.full(len(off), row), np.asarray(off)))
