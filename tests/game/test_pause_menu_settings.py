"""Pause-menu settings: every slider position gives a valid, snapped setting (headless: the pure
SettingRow); only a press that starts on a slider moves it; the View bobbing and Peaceful switches
(Ursina with no window, in a subprocess)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .conftest import run_without_window

from game.window.ui.pause_menu import SETTING_ROWS
from game.window.ui.settings_panel import SWITCH_FIELD
from game.userdata.user_settings import FOV_RANGE_DEGREES, SENSITIVITY_RANGE, VIEW_DISTANCE_RANGE_COLUMNS, UserSettings

ROWS = {row.field: row for row in SETTING_ROWS}
GRID_ROUNDING = 1e-9
"""[steps] Float error of (value - low) / step for a value rounded to the row's decimals."""


def test_there_is_one_slider_per_numeric_setting_over_exactly_its_allowed_range_and_a_switch_for_bobbing():
    assert ROWS.keys() | {SWITCH_FIELD} == set(UserSettings.__dataclass_fields__)
    assert SWITCH_FIELD == "view_bobbing" and SWITCH_FIELD not in ROWS
    assert (ROWS["fov_degrees"].low, ROWS["fov_degrees"].high) == FOV_RANGE_DEGREES
    assert (ROWS["mouse_sensitivity"].low, ROWS["mouse_sensitivity"].high) == SENSITIVITY_RANGE
    assert (ROWS["view_distance_columns"].low, ROWS["view_distance_columns"].high) == VIEW_DISTANCE_RANGE_COLUMNS


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(SETTING_ROWS), st.floats(-0.5, 1.5))
def test_any_pointer_position_gives_a_value_user_settings_accepts(row, fraction):
    value = row.value_at(fraction)
    UserSettings().with_changes(**{row.field: value})  # raises if out of range or of the wrong type
    steps = (value - row.low) / row.step
    assert steps == pytest.approx(round(steps), abs=GRID_ROUNDING)  # on the step grid


@pytest.mark.parametrize(("field", "fraction", "value"), [
    ("fov_degrees", 0.0, 30), ("fov_degrees", 1.0, 110), ("fov_degrees", 0.5, 70), ("fov_degrees", -3.0, 30),
    ("mouse_sensitivity", 0.0, 0.05), ("mouse_sensitivity", 1.0, 5.0), ("mouse_sensitivity", 0.5, 2.55),
    ("view_distance_columns", 0.5, 17), ("view_distance_columns", 2.0, 32),
])
def test_the_ends_and_the_middle_of_each_slider(field, fraction, value):
    assert ROWS[field].value_at(fraction) == value


def test_whole_number_settings_come_back_as_ints():
    assert isinstance(ROWS["view_distance_columns"].value_at(0.3), int)
    assert isinstance(ROWS["fov_degrees"].value_at(0.3), int)


@pytest.mark.parametrize(("field", "start", "steps", "value"), [
    ("mouse_sensitivity", 1.0, 2, 1.1), ("mouse_sensitivity", 0.05, -1, 0.05), ("mouse_sensitivity", 4.98, 1, 5.0),
    ("fov_degrees", 80.0, -3, 77), ("view_distance_columns", 32, 1, 32),
])
def test_wheel_steps_move_by_the_step_and_stop_at_the_ends(field, start, steps, value):
    assert ROWS[field].stepped(start, steps) == value


@pytest.mark.parametrize(("field", "value", "caption"), [
    ("fov_degrees", 80.0, "FOV: 80°"), ("mouse_sensitivity", 1.1, "Mouse sensitivity: 1.10x"),
    ("view_distance_columns", 8, "View distance: 8 columns"),
])
def test_captions_read_like_the_setting(field, value, caption):
    assert ROWS[field].text(value) == caption


def test_a_settings_file_that_cannot_be_written_is_a_warning_not_a_crash(tmp_path):
    import subprocess
    import sys
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the config folder should be")
    script = f"""
import warnings
from pathlib import Path
from ursina import Ursina
app = Ursina(window_type='none')
from game.window.ui.pause_menu import PauseMenu
from game.userdata.user_settings import UserSettings
changes = []
menu = PauseMenu(UserSettings(), on_resume=lambda: None, on_settings_changed=changes.append,
                 on_save_and_quit=lambda: None, settings_path=Path({str(blocked / 'settings.json')!r}))
menu.open()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    menu.sliders['fov_degrees'].set_value(90)
    menu.close()
print('changed', changes[-1].fov_degrees, 'warned', any('could not save the settings' in str(w.message) for w in caught))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                          cwd=str(__import__("pathlib").Path(__file__).resolve().parents[2]))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "changed 90 warned True" in done.stdout


def test_the_peaceful_button_reads_its_state_and_each_click_flips_it_and_tells_the_game():
    import subprocess
    import sys
    script = """
from ursina import Ursina
app = Ursina(window_type='none')
from game.window.ui.pause_menu import PauseMenu
from game.userdata.user_settings import UserSettings
told = []
menu = PauseMenu(UserSettings(), on_resume=lambda: None, on_settings_changed=lambda s: None,
                 on_save_and_quit=lambda: None, peaceful=False, on_peaceful_changed=told.append)
captions = [menu.peaceful_button.text]
menu.peaceful_button.on_click()
captions.append(menu.peaceful_button.text)
menu.peaceful_button.on_click()
captions.append(menu.peaceful_button.text)
menu.show_peaceful(True)
captions.append(menu.peaceful_button.text)
print(captions, told)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                          cwd=str(__import__("pathlib").Path(__file__).resolve().parents[2]))
    assert done.returncode == 0, done.stderr[-3000:]
    assert ("['Peaceful: off', 'Peaceful: on', 'Peaceful: off', 'Peaceful: on'] [True, False]"
            in done.stdout)


def test_a_press_on_save_and_quit_never_moves_a_slider_even_with_the_slider_still_noted_as_hovered(tmp_path):
    out = run_without_window(f"""
from pathlib import Path
from ursina import camera, mouse
from game.window.ui.pause_menu import PauseMenu
from game.userdata.user_settings import UserSettings
quits = []
menu = PauseMenu(UserSettings(), on_resume=lambda: None, on_settings_changed=lambda s: None,
                 on_save_and_quit=lambda: quits.append(1), settings_path=Path({str(tmp_path / 'settings.json')!r}))
menu.open()
fov = menu.sliders['fov_degrees']
mouse.hovered_entity = fov.bar  # the ray of the last frame was on the FOV slider
quit_at = menu.quit_button.getPos(camera.ui)
right_end = fov.getX(camera.ui) + 0.3
pressed = fov.press((right_end, quit_at[1]))  # the press is on Save and quit's row, under the slider's right end
fov.release()
print('off the bar:', pressed, fov.value, fov.dragging)
on_bar = fov.press((right_end, fov.getY(camera.ui)))
fov.release()
print('on the bar:', on_bar, fov.value)
""")
    assert "off the bar: False 80.0 False" in out
    assert "on the bar: True 110" in out  # the same press on the bar itself moves it to the right end


def test_the_wheel_moves_only_the_slider_under_the_pointer():
    out = run_without_window("""
from ursina import camera
from game.window.ui.pause_menu import PauseMenu
from game.userdata.user_settings import UserSettings
menu = PauseMenu(UserSettings(), on_resume=lambda: None, on_settings_changed=lambda s: None,
                 on_save_and_quit=lambda: None, settings_path=None)
fov, sensitivity = menu.sliders['fov_degrees'], menu.sliders['mouse_sensitivity']
menu.panel.save_if_changed = lambda: None  # no file written by this test
for slider in menu.sliders.values():
    slider.on_commit = lambda: None
at = (sensitivity.getX(camera.ui), sensitivity.getY(camera.ui))
print([fov.wheel(at, 1), sensitivity.wheel(at, 1)], fov.value, sensitivity.value)
""")
    assert "[False, True] 80.0 1.05" in out


def test_the_view_bobbing_switch_reads_its_state_flips_on_each_click_tells_the_game_and_saves(tmp_path):
    settings_file = tmp_path / "settings.json"
    out = run_without_window(f"""
import json
from pathlib import Path
from game.window.ui.pause_menu import PauseMenu
from game.userdata.user_settings import UserSettings
told = []
menu = PauseMenu(UserSettings(view_bobbing=False), on_resume=lambda: None, on_settings_changed=told.append,
                 on_save_and_quit=lambda: None, settings_path=Path({str(settings_file)!r}))
captions = [menu.bobbing_button.text]
menu.bobbing_button.on_click()
captions.append(menu.bobbing_button.text)
saved = json.loads(Path({str(settings_file)!r}).read_text())['view_bobbing']
menu.bobbing_button.on_click()
captions.append(menu.bobbing_button.text)
print(captions, [s.view_bobbing for s in told], saved, menu.settings.view_bobbing)
""")
    assert "['View bobbing: off', 'View bobbing: on', 'View bobbing: off'] [True, False] True False" in out
