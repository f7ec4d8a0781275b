"""A window session that uses the pause menu's time of day and Peaceful switch, recorded with
--record and replayed with --headless on a copy of the same starting world, gives the same bits
(every change to a game is an event).

The player starts flying DROP blocks over the display tests' platform. Played as a player plays
it (real keys and pointer through xdotool, under Xvfb): Esc pauses, a click on Midnight and a
click on Peaceful, Esc resumes, F stops flying and the player falls onto the platform. With
Peaceful on the fall does not hurt; a replay that lost the switch (as every recording did before
`set_peaceful`) would take DROP - 3 half-hearts there, and one that lost the time would report
another time of day."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import physics
import pytest

from game.rules.replay import KeyDown, Look, SetDayTime, SetPeaceful, read_replay
from game.rules.session import Session
from game.window.ui.pause_menu import PEACEFUL_X, TIME_CHOICES, menu_rows, menu_scale, time_button_x
from game.world import World
from tests.game.conftest import REPO_ROOT, find_game_window_shell, run_display_script
from tests.game.test_inventory_display import ui_to_pixel
from tests.game.test_pause_and_loading_display import needs_xdotool
from tests.game.test_session import hex_bodies, platform_world, run_headless

pytestmark = [pytest.mark.display, pytest.mark.slow]

WINDOW = (640, 360)
"""[pixels] Small, so software rendering is fast; the whole menu fits it at full size."""
TICKS = 200
"""[ticks] The run's length (10 s of play): the pause comes a few ticks after the world is drawn, and the
fall after it takes about 25 ticks, so both are well inside it even on a slow, shared machine."""
DROP = 10
"""[blocks] The saved player flies this high over the platform; falling it hurts (Beta: DROP - 3
half-hearts) unless Peaceful is on."""
MIDNIGHT = dict(TIME_CHOICES)["Midnight"]
SETTLE_S = 1.0
"""[s] Wait after a key, so the menu has opened or closed and a frame has drawn it."""
POINTER_S = 0.5
"""[s] Wait after moving the pointer before clicking, so a frame has seen where it is."""
FULL_HEALTH = 20
TURN_PIXELS = 40
"""[pixels] The pointer moves this far right after the menu closes: the view turns (mouse look), which
the window sends as `look` events, never setting the player's look itself."""
TURNS = 3
"""The turn is made this many times, POINTER_S apart: the resume puts the pointer back at the window's
centre when its frame runs, so on a busy machine whose frame after Esc came late, a first move made
before it is undone; a later one still turns the view."""


def menu_pixel(x: float, y: float) -> tuple[int, int]:
    """The window pixel of the point (x, y) of the menu at full size (the menu shrinks about the
    window's centre where it would not fit)."""
    scale = menu_scale(WINDOW[0] / WINDOW[1])
    return ui_to_pixel(x * scale, y * scale, WINDOW)


def flying_world(path) -> float:
    """The platform world, its player saved flying DROP blocks over the spawn, looking level; the
    height of the platform's top [blocks], where the player's feet were at the spawn."""
    platform_world(path)
    with World.open(path) as world:
        session = Session.open(world, autosave=False)
        x, y, z = session.player.body.feet
        session.player.body = session.player.previous = physics.Body.at_feet(x, y + DROP, z)
        session.player.flying = True
        session.save()
    return y


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Play once in the window (recorded), then the recording headless: (window report, headless
    report, the recording's events, the platform's top [blocks])."""
    needs_xdotool()
    tmp_path = tmp_path_factory.mktemp("recorded")
    windowed, headless = tmp_path / "window.boxel", tmp_path / "headless.boxel"
    ground = flying_world(windowed)
    shutil.copy(windowed, headless)
    recording, window_report, output = tmp_path / "recorded.jsonl", tmp_path / "window.json", tmp_path / "output.txt"

    rows = menu_rows(True)
    midnight = menu_pixel(time_button_x([caption for caption, _ in TIME_CHOICES].index("Midnight")), rows.time_y)
    peaceful = menu_pixel(PEACEFUL_X, rows.switch_y)
    game = subprocess.list2cmdline([
        sys.executable, str(REPO_ROOT / "main.py"), "--world", str(windowed), "--view-distance", "2",
        "--size", "%dx%d" % WINDOW, "--record", str(recording), "--exit-after-ticks", str(TICKS),
        "--report", str(window_report)])

    def click_at(x: int, y: int) -> str:
        return f'xdotool mousemove --window $wid {x} {y}; sleep {POINTER_S}; xdotool click 1; sleep {POINTER_S}; '

    script = (f'export BOXEL_CONFIG_DIR="{tmp_path}/config" BOXEL_DATA_DIR="{tmp_path}/data"; '
              f'{game} > {output} 2>&1 & pid=$!; '
              f'while ! grep -q "ready after" {output}; do sleep 0.1; kill -0 $pid || exit 3; done; '
              + find_game_window_shell() + 'xdotool windowfocus --sync $wid; '
              + f'xdotool key Escape; sleep {SETTLE_S}; '  # pause: the menu opens
              + click_at(*midnight) + click_at(*peaceful)
              + f'xdotool key Escape; sleep {SETTLE_S}; '  # resume
              + f'xdotool mousemove_relative -- {TURN_PIXELS} 0; sleep {POINTER_S}; ' * TURNS  # mouse look: turn right
              + 'xdotool key f; '  # stop flying: the player falls DROP blocks onto the platform
              + 'wait $pid')  # the run ends by itself after TICKS ticks, writing its report
    done = run_display_script(script, output)
    printed = output.read_text()
    assert done.returncode == 0, f"exit {done.returncode}: {printed[-3000:]}{done.stderr[-2000:]}"
    assert "Traceback" not in printed

    headless_report = tmp_path / "headless.json"
    replayed = run_headless("--world", str(headless), "--replay", str(recording), "--exit-after-ticks", str(TICKS),
                            "--report", str(headless_report))
    assert replayed.returncode == 0, replayed.stderr
    return (json.loads(window_report.read_text(encoding="utf-8")), json.loads(headless_report.read_text(encoding="utf-8")),
            read_replay(recording), ground)


def test_the_recording_holds_the_menus_midnight_and_peaceful_before_the_f_that_ends_flying(played):
    _, _, events, _ = played
    changes = [event for event in events if isinstance(event, (SetDayTime, SetPeaceful))]
    assert [type(event) for event in changes] == [SetDayTime, SetPeaceful]
    assert (changes[0].day_time, changes[1].peaceful) == (MIDNIGHT, True)
    assert changes[0].tick == changes[1].tick < TICKS  # both clicked while paused, before the same tick
    fly_key = next(event for event in events if event == KeyDown(event.tick, "f"))
    assert fly_key.tick >= changes[1].tick and events.index(fly_key) > events.index(changes[1])


def test_the_mouse_turned_the_view_only_through_look_events_from_where_the_menu_left_it(played):
    window, _, events, _ = played
    looks = [event for event in events if isinstance(event, Look)]
    assert looks and (window["yaw"], window["pitch"]) == (looks[-1].yaw, looks[-1].pitch)
    # The pointer moved only sideways: mouse look starts again from the window's centre after the menu
    # (`PointerMotion`), so the pointer left on the Peaceful button (below the centre) does not tilt the view.
    assert window["yaw"] > 0.0 and window["pitch"] == 0.0


def test_the_window_kept_peaceful_and_midnight_and_the_fall_did_not_hurt(played):
    window, _, events, ground = played
    set_at = next(event.tick for event in events if isinstance(event, SetDayTime))
    assert window["day_time"] == MIDNIGHT + TICKS - set_at  # set before tick set_at ran, then one a tick
    assert (window["damage_enabled"], window["flying"], window["health"]) == (False, False, FULL_HEALTH)
    assert window["feet"][1] == ground and window["ticks_run"] == TICKS  # landed on the platform


def test_the_recording_replayed_headless_on_the_same_start_gives_the_same_bits(played):
    window, headless, _, _ = played
    assert hex_bodies(window) == hex_bodies(headless)
    for field in ("feet", "day_time", "damage_enabled", "health", "flying", "yaw", "pitch"):
        assert window[field] == headless[field], field
    assert {key: window[key] for key in headless} == headless  # the window's report adds, never differs
