"""The game in a real window (Xvfb when there is no display), driven by replay files, on temporary
worlds of a fixed seed. Worlds are prepared by editing the world file before launching (World.create,
set_block, save); outcomes are read from the game's report, its screenshot and the world file
afterwards, and compared with what the same events give on a `Session` with no window."""

from __future__ import annotations

import math
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import physics
from tests.game.conftest import REPO_ROOT, close_game_window_shell, find_game_window_shell, run_display_script
from tests.game.scripted_runs import CLEARANCE, PLATFORM, WINDOW, flatten, play
from game.rules.clock import SCRIPTED_FRAMES_PER_TICK
from game.rules.player import Player, saved_player, spawn_body
from game.window.render.sky import DAY_ZENITH_RGB
from game.rules.session import Session
from game.rules.replay import Click, Event, KeyDown, KeyUp, Look, Release, ReplayCursor, read_replay
from game.rules.targeting import find_target, placement_cell
from game.world import World

pytestmark = pytest.mark.display

SEED = 42
SKY_RGB = np.array([140, 192, 236])
"""game.window.app.SKY_COLOR: the fog colour, which the sky has at the horizon."""
ZENITH_RGB = np.round(np.array(DAY_ZENITH_RGB) * 255.0)
"""The sky overhead at noon (`game.window.render.sky`): the sky gradient runs from SKY_RGB to it."""
SKY_TOLERANCE = 12
"""[RGB levels] A pixel this close to a colour of the sky's gradient on every channel is sky (fogged
land is not this close until the very edge of the view)."""
CLOUD_LEVEL = 200
"""[0..255] A pixel whose every channel is at least this, and bluer than red, is cloud (the day's
clouds are white, 80 % opaque over the blue; no block's texture is that bright and that pale)."""
PIXEL_CHANGE = 40
"""[0..255] A pixel counts as changed when a channel differs by more than this: re-rendering the same
scene differs by 0, any drawn line or new block by far more."""
WALL_X = 6
"""[blocks] West face of the wall the walking test places east of the spawn (cells x = 6, z = -1..1)."""
PANEL_CORNER = (0.45, 0.6)
"""Fractions of the height and width of the screenshot's top-left corner where the F3 text panel is."""
HOTBAR_ROWS = 0.2
"""Fraction of the screenshot's height at the bottom where the hotbar is."""


@pytest.fixture(autouse=True)
def user_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("BOXEL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("BOXEL_CONFIG_DIR", str(tmp_path / "config"))


def make_world(path: Path, *, platform: bool = False, wall: bool = False) -> float:
    """A seed-42 world at `path`, optionally with a flat grass platform around the spawn (and a brick
    wall on it); returns the y of the platform's top (where the player's feet rest)."""
    with World.create(path, SEED) as world:
        floor = math.floor(world.spawn[1]) - 1
        if platform:
            flatten(world, floor, *PLATFORM, CLEARANCE)
        if wall:
            for z in (-1, 0, 1):
                for y in (floor + 1, floor + 2):
                    world.set_block(WALL_X, y, z, "brick")
    return floor + 1.0


def headless(world_path: Path, events: list[Event], ticks: int) -> list[physics.Body]:
    """The player's body after each tick when the same events drive a `Session` with no window (on a copy)."""
    copy = world_path.with_name(world_path.stem + "-headless.boxel")
    shutil.copy(world_path, copy)
    bodies = []
    with World.open(copy) as world:
        session, cursor = Session.open(world, autosave=False), ReplayCursor(events)
        for _ in range(ticks):
            for event in cursor.due(session.ticks_run):
                session.apply(event)
            session.tick()
            bodies.append(session.player.body)
    return bodies


def changed(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (np.abs(a - b) > PIXEL_CHANGE).any(axis=2)


def is_sky(image: np.ndarray) -> np.ndarray:
    """Pixels of the day's sky: on the gradient from the fog colour to the zenith's, or cloud."""
    pixels = image.astype(np.float64)
    toward_zenith = ZENITH_RGB - SKY_RGB
    t = np.clip(((pixels - SKY_RGB) @ toward_zenith) / (toward_zenith @ toward_zenith), 0.0, 1.0)
    nearest = SKY_RGB + t[..., None] * toward_zenith
    on_gradient = (np.abs(pixels - nearest) <= SKY_TOLERANCE).all(axis=2)
    cloud = (pixels >= CLOUD_LEVEL).all(axis=2) & (pixels[..., 2] >= pixels[..., 0])
    return on_gradient | cloud


def rgb255(ursina_color) -> np.ndarray:
    return np.round(np.asarray(tuple(ursina_color)[:3]) * 255).astype(np.int16)


def test_the_game_starts_on_the_surface_and_draws_terrain_under_the_sky(run_game, tmp_path):
    path = tmp_path / "start.boxel"
    make_world(path)
    with World.open(path) as world:
        spawn = Player.spawned(world).body
    expected = headless(path, [Look(0, 225.0, 0.0)], 2)[-1]
    run = play(run_game, path, [Look(0, 225.0, 0.0)], 2, "start", "--time", "6000")  # noon: a blue sky

    assert run.report["box"] == list(expected.box)
    assert run.report["feet"] == list(spawn.feet) and run.report["on_ground"] is True
    image = run.image()
    height = image.shape[0]
    assert is_sky(image[: height // 5]).mean() > 0.5, "the top of the view is not sky"  # a tree hangs in it
    land = image[int(height * 0.55): int(height * (1 - HOTBAR_ROWS))]
    assert (~is_sky(land)).mean() > 0.95, "the bottom of the view is not terrain"


def test_holding_jump_leaves_the_ground_and_lands_back_on_it(run_game, tmp_path):
    # A new player is not on the ground until its first tick has fallen onto it (as in Beta), so the
    # jump starts on tick 2.
    events = [Look(0, 0.0, 20.0), KeyDown(0, "space"), KeyUp(4, "space")]
    feet_y = make_world(tmp_path / "mid_air.boxel", platform=True)
    make_world(tmp_path / "landed.boxel", platform=True)
    trace = headless(tmp_path / "landed.boxel", events, 20)
    mid_air = play(run_game, tmp_path / "mid_air.boxel", events, 5, "mid_air")
    landed = play(run_game, tmp_path / "landed.boxel", events, 20, "landed")

    assert mid_air.report["on_ground"] is False and mid_air.report["feet"][1] > feet_y + 1.0
    assert landed.report["on_ground"] is True and landed.report["feet"][1] == feet_y
    assert [mid_air.report["box"], landed.report["box"]] == [list(trace[4].box), list(trace[19].box)]
    assert max(body.feet[1] for body in trace) > feet_y + 1.2  # Beta's jump peaks 1.25 blocks up


def test_walking_east_moves_the_player_until_the_wall_placed_in_the_world_file_stops_it(run_game, tmp_path):
    path = tmp_path / "wall.boxel"
    feet_y = make_world(path, platform=True, wall=True)
    events = [Look(0, 270.0, 0.0), KeyDown(0, "w")]
    run = play(run_game, path, events, 60, "wall")

    min_x, min_y, min_z, max_x, max_y, max_z = run.report["box"]
    assert max_x == WALL_X  # exactly at the wall's face, not a hair inside
    assert (min_y, min_z, max_z) == (feet_y, 0.2, 0.8)
    assert run.report["collided_horizontally"] is True and run.report["velocity"][0] == 0.0
    assert run.report["box"] == list(headless(path, events, 60)[-1].box)


def test_breaking_and_placing_change_the_world_file_and_what_is_drawn(run_game, tmp_path):
    plain_path, edit_path = tmp_path / "plain.boxel", tmp_path / "edit.boxel"
    feet_y = make_world(plain_path, platform=True)
    make_world(edit_path, platform=True)
    # Grass dug by hand breaks on the 18th tick the button is held (game.rules.mining): released at tick 20.
    break_look, place_look, final_look = Look(0, 270.0, 40.0), Look(21, 270.0, 28.0), Look(25, 270.0, 35.0)
    shutil.copy(edit_path, tmp_path / "aim.boxel")
    with World.open(tmp_path / "aim.boxel") as world:  # where the clicks land, found headless
        eye = Player.spawned(world).eye
        broken = find_target(world, eye, break_look.yaw, break_look.pitch).block
        world.set_block(*broken, "air")
        placed = placement_cell(find_target(world, eye, place_look.yaw, place_look.pitch))
    assert broken[1] == feet_y - 1 and placed[1] == feet_y and placed[0] > broken[0]
    events = [break_look, Click(1, "left"), Release(20, "left"), place_look, KeyDown(22, "8"), KeyUp(23, "8"),
              Click(24, "right"), final_look]

    plain = play(run_game, plain_path, [Look(0, final_look.yaw, final_look.pitch)], 27, "plain")
    edited = play(run_game, edit_path, events, 27, "edited")
    with World.open(edit_path) as world:
        assert world.get_block(*broken) == "air"
        assert world.get_block(*placed) == "brick"
    assert edited.report["hotbar"]["selected"] == 7
    a, b = plain.image(), edited.image()
    assert changed(a, b).mean() > 0.02, "breaking and placing changed almost nothing on screen"

    def red(image: np.ndarray) -> int:
        return int(((image[..., 0] > image[..., 1] + 40) & (image[..., 0] > image[..., 2] + 40)).sum())

    world_rows = slice(0, int(a.shape[0] * (1 - HOTBAR_ROWS)))  # the hotbar has a brick icon
    # the plain view has its own red (roses in the grass): the placed brick must add to it
    assert red(b[world_rows]) - red(a[world_rows]) > 500, \
        f"no brick drawn: {red(b[world_rows])} red pixels (plain view: {red(a[world_rows])})"


def test_placing_a_block_where_the_player_stands_is_refused(run_game, tmp_path):
    path = tmp_path / "inside.boxel"
    feet_y = make_world(path, platform=True)
    run = play(run_game, path, [Look(0, 0.0, 90.0), Click(1, "right")], 3, "inside")
    assert run.report["targeted_block"]["block"] == [0, feet_y - 1, 0]  # the grass under the feet, top face
    assert run.report["targeted_block"]["face"] == [0, 1, 0]
    with World.open(path) as world:
        assert world.get_block(0, int(feet_y), 0) == "air"
    assert run.report["box"][1] == feet_y and run.report["on_ground"] is True


def overlay_colours() -> np.ndarray:
    from game.window.ui.debug_overlay import (BODY_COLOR, CLIPPING_COLOR, GATHERED_COLOR, PLAYER_COLOR, STEP_PROBE_COLOR,
                                       VELOCITY_COLOR)
    return np.stack([rgb255(c) for c in (CLIPPING_COLOR, PLAYER_COLOR, GATHERED_COLOR, STEP_PROBE_COLOR, BODY_COLOR,
                                         VELOCITY_COLOR)])


def test_f3_draws_the_boxes_and_the_panel_and_b_draws_the_boxes_alone(run_game, tmp_path):
    look = Look(0, 300.0, 55.0)  # down at the floor under the feet, which clips the fall every tick
    runs = {}
    for name, keys in (("plain", []), ("f3", [KeyDown(0, "f3")]), ("boxes", [KeyDown(0, "b")])):
        make_world(tmp_path / f"{name}.boxel", platform=True)
        runs[name] = play(run_game, tmp_path / f"{name}.boxel", [look, *keys], 4, name)
    assert [runs[n].report["box"] for n in ("f3", "boxes")] == [runs["plain"].report["box"]] * 2
    plain = runs["plain"].image()
    height, width, _ = plain.shape
    panel = np.zeros((height, width), dtype=bool)
    panel[: int(height * PANEL_CORNER[0]), : int(width * PANEL_CORNER[1])] = True
    colours = overlay_colours()
    for name in ("f3", "boxes"):
        image = runs[name].image()
        boxes = changed(plain, image) & ~panel
        assert boxes.mean() > 0.001, f"{name}: only {boxes.sum()} pixels changed outside the panel"
        distance = np.abs(image[boxes][:, None, :] - colours[None, :, :]).max(axis=2)
        assert (distance.min(axis=1) <= PIXEL_CHANGE).mean() > 0.9, f"{name}: changed pixels are not box lines"
        nearest = distance.argmin(axis=1)
        assert (nearest == 0).sum() > 50, f"{name}: the floor block that stops the fall is not drawn as clipping"
        assert (nearest == 1).sum() < 20, f"{name}: the player's own box is drawn in first person"
    panel_changes = changed(plain, runs["f3"].image()) & panel
    assert panel_changes.mean() > 0.05, "F3 shows no text panel"
    assert (changed(plain, runs["boxes"].image()) & panel).mean() < panel_changes.mean() / 3, "B showed the panel"


def test_saving_quitting_and_reopening_keeps_a_placed_block_and_the_players_box(run_game, tmp_path):
    path = tmp_path / "saved.boxel"
    feet_y = make_world(path, platform=True)
    placed = (2, int(feet_y), 0)  # on the grass 2 blocks east: where looking 40 degrees down aims
    events = [Look(0, 270.0, 40.0), KeyDown(0, "5"), KeyUp(0, "5"), Click(1, "right"), Look(2, 0.0, 60.0),
              Click(2, "middle"), Look(3, 200.0, 10.0), KeyDown(3, "w"), KeyDown(3, "space")]
    first = play(run_game, path, events, 9, "first")  # places planks, picks grass, quits mid-jump walking
    with World.open(path) as world:
        state = world.player_state
        assert world.get_block(*placed) == "planks"
        saved = saved_player(state)
        expected = physics.step(saved.body, world, physics.Intent(yaw=saved.yaw))
    assert state["box"] == first.report["box"] and state["velocity"] == first.report["velocity"]
    assert first.report["on_ground"] is False and first.report["velocity"][0] != 0.0

    second = play(run_game, path, [], 1, "second")
    assert second.report["box"] == list(expected.box)  # the saved box and velocity, one tick on, no input
    assert (second.report["yaw"], second.report["pitch"]) == (200.0, 10.0)
    assert first.report["hotbar"]["selected"] == second.report["hotbar"]["selected"] == 3  # grass, picked
    with World.open(path) as world:
        assert world.get_block(*placed) == "planks"


def test_a_world_played_with_a_huge_look_yaw_opens_in_the_window_twice_looking_the_same_way(run_game, tmp_path):
    path = tmp_path / "spun.boxel"
    make_world(path, platform=True)
    first = play(run_game, path, [Look(0, 1e308, 10.0)], 2, "spun")
    second = play(run_game, path, [], 2, "again")
    assert first.report["yaw"] == second.report["yaw"] == 296.0  # 1e308 degrees, wrapped into [0, 360)
    assert second.report["saved_player_problem"] is None


def test_the_reports_frame_times_are_the_played_frames_without_the_end_of_runs_wait_and_closing_frames(run_game, tmp_path):
    path = tmp_path / "far.boxel"
    make_world(path)
    # Two ticks end the run long before the far columns of view distance 10 are drawn: the
    # settle after the last tick then waits for hundreds of columns (~6 s here), far longer than any frame.
    ticks = 2
    run = play(run_game, path, [KeyDown(0, "w")], ticks, "far", "--view-distance", "10")
    settle_ms = run.report["settle_s"] * 1000.0
    assert settle_ms > 500.0  # the wait this test is about did happen
    assert 0.0 < run.report["frame_ms"]["max"] < settle_ms
    # A scripted run plays SCRIPTED_FRAMES_PER_TICK frames a tick; the frames drawn after its last
    # tick (CLOSING_FRAMES, which draw everything the settle streamed in at once) are not play.
    assert run.report["frame_ms"]["frames"] == SCRIPTED_FRAMES_PER_TICK * ticks


@pytest.mark.slow
def test_a_replay_ends_with_the_same_box_at_a_throttled_wall_clock_frame_rate(run_game, tmp_path):
    events = [Look(0, 225.0, 10.0), KeyDown(0, "w"), KeyDown(0, "space"), KeyDown(10, "control"),
              Look(30, 190.0, 5.0), KeyUp(40, "space"), KeyDown(45, "a")]
    ticks = 60
    fixed_path, throttled_path = tmp_path / "fixed.boxel", tmp_path / "throttled.boxel"
    make_world(fixed_path)
    make_world(throttled_path)
    expected = headless(fixed_path, events, ticks)[-1]
    recorded = tmp_path / "recorded.jsonl"
    fixed = play(run_game, fixed_path, events, ticks, "fixed", "--record", str(recorded))
    throttled = play(run_game, throttled_path, events, ticks, "throttled", "--realtime", "--frame-delay-ms", "40")

    assert fixed.report["box"] == throttled.report["box"] == list(expected.box)
    assert fixed.report["ticks_run"] == throttled.report["ticks_run"] == ticks
    assert throttled.report["frame_ms"]["frames"] < fixed.report["frame_ms"]["frames"]  # fewer frames per tick
    assert read_replay(recorded) == tuple(events)


def test_closing_the_window_saves_the_world_and_exits_cleanly(tmp_path):
    if not shutil.which("xdotool"):
        pytest.skip("xdotool is needed to find the game's window")
    path = tmp_path / "closed.boxel"
    make_world(path)
    output = tmp_path / "output.txt"
    game = [sys.executable, str(REPO_ROOT / "main.py"), "--world", str(path), "--view-distance", "2",
            "--size", "%dx%d" % WINDOW]
    # Start the game, wait until it says it is ready, then close its window as a window manager would.
    script = (f'{subprocess.list2cmdline(game)} > {output} 2>&1 & pid=$!; '
              f'while ! grep -q "ready after" {output}; do sleep 0.2; kill -0 $pid || exit 3; done; '
              + find_game_window_shell() + close_game_window_shell())
    done = run_display_script(script, output)
    assert done.returncode == 0, f"exit {done.returncode}: {output.read_text()[-3000:]}{done.stderr[-2000:]}"
    with World.open(path) as world:
        saved = saved_player(world.player_state)
        assert saved is not None and saved.body.box == spawn_body(world).box  # it stood still at the spawn
