"""The sky in the real window (under Xvfb): fog that hides the drawn land's edge at any height, the sky
gradient, the clouds, the sun and moon only above the horizon.

Each run opens a new seed-5 world whose saved player flies at a chosen height over the spawn, looks
where a replay's first event says, and saves the window at noon after two ticks.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import physics
import pytest
from PIL import Image

from game.window.ui.hud import HUD_TOP
from game.window.render.sky import MOON_SIZE, NOON_TICKS, SUN_DISTANCE, SUN_RGB, SUN_SIZE, sky_colors, sun_direction
from game.rules.replay import Look, ReplayWriter
from game.rules.session import Session
from game.userdata.user_settings import UserSettings
from game.world import World

from .conftest import TEST_WINDOW_SIZE

pytestmark = pytest.mark.display

WIDTH, HEIGHT = (int(v) for v in TEST_WINDOW_SIZE.split("x"))
HIGH_Y = 140.0
"""[blocks] Flying height of the edge test: 60-80 blocks over the land around the spawn."""
EDGE_VIEW_DISTANCE = 5
"""[columns] The edge run's view distance: the fog ends at 64 blocks, inside the drawn 80."""
LOOK_DOWN = 35.0
"""[degrees] The edge run's pitch: the land straight below fills the bottom of the view, the
horizon is near the top."""
EDGE_COLUMNS = 8
"""[pixels] The strips at the left and right edges of the view that must show no land."""
BELOW_HORIZON_ROWS = (4, 40)
"""[pixels] The rows below the horizon row that are checked at the edges: the far land."""
FOG_MATCH = 6
"""[RGB levels] A pixel this close to the fog colour on every channel is fog (8-bit rounding of the
shader's blend)."""
GROUND_DIFFERENCE = 40.0
"""[RGB levels] The land straight below is at least this far from the fog colour on average."""
HUD_ROWS = math.ceil((0.5 + HUD_TOP) * HEIGHT) + 1
"""[pixels] The bottom rows that the hotbar, the hearts and the selected block's name may cover
(`hud.HUD_TOP`, window heights from the centre; the name shows for the first 40 ticks of a run)."""
GRADIENT_MATCH = 6
"""[RGB levels] The dome's pixel against `sky_gradient` for its direction (8-bit rounding)."""


def fog_rgb() -> np.ndarray:
    return np.asarray(sky_colors(NOON_TICKS).sky) * 255.0


def horizon_row(pitch: float) -> float:
    """The image row of the horizon for a view pitched `pitch` degrees down (no roll)."""
    half = math.radians(UserSettings().fov_degrees) / 2.0
    return HEIGHT / 2.0 - (HEIGHT / 2.0) * math.tan(math.radians(pitch)) / math.tan(half)


def elevation_sine(row: float, column: float, pitch: float) -> float:
    """Sine of the elevation of the view ray through pixel (row, column), pitched `pitch` degrees down."""
    half = math.tan(math.radians(UserSettings().fov_degrees) / 2.0)
    up = (HEIGHT / 2.0 - row - 0.5) / (HEIGHT / 2.0) * half
    right = (column + 0.5 - WIDTH / 2.0) / (HEIGHT / 2.0) * half
    p = math.radians(pitch)
    y = up * math.cos(p) - math.sin(p)  # the ray (right, up, 1) turned down by the pitch; its world height
    return y / math.sqrt(right * right + up * up + 1.0)


def high_world(path: Path, y: float) -> None:
    """A new seed-5 world whose saved player flies at height `y` over the spawn."""
    world = World.create(path, seed=5, workers=1)
    try:
        session = Session.open(world, autosave=False)
        x, _, z = world.spawn
        session.player.body = session.player.previous = physics.Body.at_feet(x + 0.5, y, z + 0.5)
        session.player.flying = True
        session.save()
    finally:
        world.close()


def look_run(run_game, tmp_path: Path, name: str, y: float, yaw: float, pitch: float, view_distance: int,
             day_time: int = NOON_TICKS):
    """Fly at `y`, look (`yaw`, `pitch`), two ticks at `day_time` (noon unless told): the screenshot (RGB
    float array) and report."""
    world = tmp_path / f"{name}.boxel"
    high_world(world, y)
    replay, screenshot, report = (tmp_path / f"{name}{suffix}" for suffix in (".jsonl", ".png", ".json"))
    with ReplayWriter.open(replay) as writer:
        writer.write(Look(0, yaw, pitch))
    done = run_game("--world", str(world), "--view-distance", str(view_distance), "--size", TEST_WINDOW_SIZE,
                    "--time", str(day_time), "--replay", str(replay), "--exit-after-ticks", "2",
                    "--screenshot", str(screenshot), "--report", str(report))
    assert done.returncode == 0, f"the game exited with {done.returncode}:\n{done.stderr[-4000:]}"
    picture = np.asarray(Image.open(screenshot).convert("RGB")).astype(np.float64)
    assert picture.shape == (HEIGHT, WIDTH, 3)
    return picture, json.loads(report.read_text(encoding="utf-8"))


@pytest.mark.parametrize("yaw", [90.0, 225.0])
def test_flying_at_140_the_land_below_is_drawn_and_fades_into_fog_before_the_edges_of_the_view(run_game, tmp_path,
                                                                                               yaw):
    picture, report = look_run(run_game, tmp_path, "edge", HIGH_Y, yaw, LOOK_DOWN, EDGE_VIEW_DISTANCE)
    assert report["feet"][1] == HIGH_Y and report["flying"] is True
    horizon = round(horizon_row(LOOK_DOWN))
    rows = slice(horizon + BELOW_HORIZON_ROWS[0], horizon + BELOW_HORIZON_ROWS[1])
    for side, strip in (("left", picture[rows, :EDGE_COLUMNS]), ("right", picture[rows, -EDGE_COLUMNS:])):
        off = np.abs(strip - fog_rgb()).max()
        assert off <= FOG_MATCH, f"land shows at the {side} edge below the horizon ({off:.0f} levels from the fog)"
    below = picture[HEIGHT // 2 + 40:HEIGHT - HUD_ROWS, WIDTH // 3:2 * WIDTH // 3]
    ground = np.abs(below - fog_rgb()).sum(axis=2).mean()
    assert ground > GROUND_DIFFERENCE, f"the land straight below is lost in the fog ({ground:.0f} levels)"


def test_the_sky_is_a_deeper_blue_overhead_than_at_the_horizon_as_the_gradient_says(run_game, tmp_path):
    from game.window.render.sky import sky_gradient

    pitch = -25.0  # looking up from above the clouds: nothing but sky in the upper half
    picture, _ = look_run(run_game, tmp_path, "gradient", HIGH_Y, 0.0, pitch, EDGE_VIEW_DISTANCE)
    noon = sky_colors(NOON_TICKS)
    top = picture[2, WIDTH // 2]
    horizon = round(horizon_row(pitch)) - 3
    low = picture[horizon, WIDTH // 2]
    for pixel, row in ((top, 2), (low, horizon)):
        expected = np.asarray(sky_gradient(noon, elevation_sine(row, WIDTH // 2, pitch))) * 255.0
        assert np.abs(pixel - expected).max() <= GRADIENT_MATCH, f"row {row}: {pixel} is not the gradient's {expected}"
    assert top[0] < low[0] - 10 and top[2] >= low[2]  # less red, as blue or bluer: a deeper blue


def test_looking_up_in_daylight_shows_near_white_clouds_and_blue_sky_between_them(run_game, tmp_path):
    picture, _ = look_run(run_game, tmp_path, "clouds", 80.0, 90.0, -30.0, 4)
    upper = picture[:HEIGHT // 2]
    white = (upper.min(axis=2) > 225).mean()
    blue = ((upper[..., 2] - upper[..., 0]) > 60).mean()
    assert white > 0.05, f"no clouds: {white:.1%} near-white pixels"
    assert blue > 0.2, f"no sky between the clouds: {blue:.1%} blue pixels"


SUNRISE_TICKS = 0
CROSSHAIR_ROWS = 8
"""[pixels] The crosshair's lower arm reaches this far under the middle row (the horizon, looking level)."""
BODY_MATCH = 12
"""[RGB levels] The sun's pixels against SUN_RGB (8-bit rounding, the quad's edge pixels left out)."""


def body_rows(day_time: int, size: float, pitch: float, sign: float) -> tuple[int, int]:
    """(top, bottom) image rows of the sun (`sign` 1) or the moon (-1), `size` blocks wide at SUN_DISTANCE,
    seen pitched `pitch` degrees down toward its heading. A direction at elevation e shows where the
    horizon would for a view pitched e further down."""
    _, up, _ = sun_direction(day_time)
    elevation = math.degrees(math.asin(sign * up))
    half = math.degrees(math.atan(size / 2.0 / SUN_DISTANCE))
    return round(horizon_row(pitch + elevation + half)), round(horizon_row(pitch + elevation - half))


def test_at_sunrise_the_moon_under_the_horizon_is_hidden_by_the_fog_as_the_land_there_is(run_game, tmp_path):
    """The moon sets in the west (yaw 90) 11 degrees under the horizon at sunrise. Flying at 140 with the fog
    ending 32 blocks out, every pixel under the horizon is the fog colour: the world past the fog stands
    in front of the moon (it used to show there as a pale square), and the cloud layer 32 blocks below,
    seen there only past the fog's end (45 blocks out and more), has faded out with the land."""
    picture, _ = look_run(run_game, tmp_path, "moonset", HIGH_Y, 90.0, 0.0, 3, SUNRISE_TICKS)
    top, bottom = body_rows(SUNRISE_TICKS, MOON_SIZE, 0.0, -1.0)
    assert horizon_row(0.0) < top < bottom < HEIGHT - HUD_ROWS  # where the moon would be is in view
    fog = np.asarray(sky_colors(SUNRISE_TICKS).sky) * 255.0
    below = picture[round(horizon_row(0.0)) + CROSSHAIR_ROWS:HEIGHT - HUD_ROWS]
    off = np.abs(below - fog).max(axis=2)
    assert off.max() <= FOG_MATCH, f"something shows under the horizon: {(off > FOG_MATCH).sum()} pixels"


def test_at_sunrise_the_sun_above_the_horizon_is_drawn_in_its_own_colour(run_game, tmp_path):
    picture, _ = look_run(run_game, tmp_path, "sunrise", HIGH_Y, 270.0, 0.0, 3, SUNRISE_TICKS)
    top, bottom = body_rows(SUNRISE_TICKS, SUN_SIZE, 0.0, 1.0)
    assert 0 < top < bottom < horizon_row(0.0)
    middle = picture[(top + bottom) // 2, WIDTH // 2]
    assert np.abs(middle - np.asarray(SUN_RGB) * 255.0).max() <= BODY_MATCH, middle
