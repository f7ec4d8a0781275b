import json
import os
import stat
import subprocess
import sys
import threading
import warnings
from dataclasses import fields
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.userdata import user_settings
from game.userdata.user_settings import (
    FOV_RANGE_DEGREES, SENSITIVITY_RANGE, SOUND_VOLUME_RANGE, VIEW_DISTANCE_RANGE_COLUMNS, UserSettings,
)
from tests.game.hostile_values import json_values


def test_settings_survive_a_save_and_load(tmp_path):
    path = tmp_path / "settings.json"
    chosen = UserSettings(fov_degrees=95.0, mouse_sensitivity=0.5, view_distance_columns=12)
    user_settings.save(chosen, path)
    assert user_settings.load(path) == chosen


def test_a_missing_settings_file_gives_the_defaults(tmp_path):
    assert user_settings.load(tmp_path / "nothing.json") == UserSettings()


def test_a_corrupt_settings_file_gives_the_defaults_with_a_warning(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("{not json")
    with pytest.warns(UserWarning, match="unusable settings"):
        assert user_settings.load(path) == UserSettings()


def test_out_of_range_values_in_the_file_give_the_defaults(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"fov_degrees": 1000}))
    with pytest.warns(UserWarning, match="fov_degrees"):
        assert user_settings.load(path) == UserSettings()


def test_a_file_from_before_the_fov_range_narrowed_keeps_its_settings_with_the_fov_clamped(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"fov_degrees": 115.0, "mouse_sensitivity": 0.5, "view_distance_columns": 12}))
    assert user_settings.load(path) == UserSettings(fov_degrees=110.0, mouse_sensitivity=0.5, view_distance_columns=12)


@pytest.mark.parametrize("changes", [{"fov_degrees": float("nan")}, {"mouse_sensitivity": 0.0},
                                     {"view_distance_columns": 1}, {"view_distance_columns": 8.5}])
def test_invalid_settings_are_refused(changes):
    with pytest.raises(ValueError):
        UserSettings().with_changes(**changes)


def test_settings_go_to_the_config_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("BOXEL_CONFIG_DIR", str(tmp_path / "config"))
    saved = user_settings.save(UserSettings(view_distance_columns=4))
    assert saved == tmp_path / "config" / "settings.json"
    assert user_settings.load() == UserSettings(view_distance_columns=4)


def test_view_bobbing_is_on_by_default_and_an_off_switch_survives_a_save_and_load(tmp_path):
    path = tmp_path / "settings.json"
    assert UserSettings().view_bobbing is True
    user_settings.save(UserSettings(view_bobbing=False), path)
    assert user_settings.load(path) == UserSettings(view_bobbing=False)


@pytest.mark.parametrize("value", [1, 0, "yes", None, 1.0])
def test_view_bobbing_must_be_true_or_false(value):
    with pytest.raises(ValueError, match="view_bobbing"):
        UserSettings(view_bobbing=value)


def test_a_settings_file_from_before_view_bobbing_keeps_its_settings_with_bobbing_on(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"fov_degrees": 90.0, "mouse_sensitivity": 0.5, "view_distance_columns": 12,
                                "sound_volume": 0.5}))
    assert user_settings.load(path) == UserSettings(90.0, 0.5, 12, 0.5, view_bobbing=True)


# --- hostile settings files: the defaults with a notice, the file kept aside, never a crash or a hang ---

REPO_ROOT = Path(__file__).resolve().parents[2]
SETTING_NAMES = [f.name for f in fields(UserSettings)]


def load_bad(path: Path) -> UserSettings:
    """Load the settings at `path`, which must be refused: with the warning, and the notice taken once."""
    user_settings.take_notice()  # nothing left from an earlier test
    with pytest.warns(UserWarning, match="unusable settings file") as warned:
        settings = user_settings.load(path)
    notice = user_settings.take_notice()
    assert notice == str(warned[0].message) and user_settings.take_notice() is None
    return settings


def assert_kept_aside(path: Path, content: bytes | None = None, name: str = "settings.json.unusable") -> Path:
    """The file that was at `path` is now next to it as `name` (with `content`, for a regular file)."""
    aside = path.with_name(name)
    assert not (path.exists() or path.is_symlink())
    assert aside.exists() or aside.is_symlink()
    if content is not None:
        assert aside.read_bytes() == content
    return aside


def test_a_settings_file_nested_too_deep_falls_back_to_the_defaults_and_is_kept_aside(tmp_path):
    path = tmp_path / "settings.json"
    depth = 30_000  # within the size bound, far beyond Python's recursion limit
    content = ('{"fov_degrees": ' + "[" * depth + "]" * depth + "}").encode()
    path.write_bytes(content)
    assert load_bad(path) == UserSettings()
    assert_kept_aside(path, content)


@pytest.mark.parametrize("name", ["fov_degrees", "sound_volume", "mouse_sensitivity", "view_distance_columns"])
@pytest.mark.parametrize("sign", ["", "-"])
def test_a_400_digit_integer_setting_falls_back_to_the_defaults_and_is_kept_aside(tmp_path, name, sign):
    path = tmp_path / "settings.json"
    content = f'{{"{name}": {sign}{"9" * 400}, "view_bobbing": false}}'.encode()
    path.write_bytes(content)
    user_settings.take_notice()
    with pytest.warns(UserWarning, match=f"{name} must be a number in .*, got a 1329-bit integer"):
        assert user_settings.load(path) == UserSettings()
    assert_kept_aside(path, content)


def test_an_integer_longer_than_python_reads_falls_back_to_the_defaults(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text('{"fov_degrees": ' + "9" * 5000 + "}")
    assert load_bad(path) == UserSettings()


def test_a_fifo_in_place_of_the_settings_file_never_blocks_and_is_kept_aside(tmp_path):
    path = tmp_path / "settings.json"
    os.mkfifo(path)
    loaded = []
    loading = threading.Thread(target=lambda: loaded.append(user_settings.read_settings(path)), daemon=True)
    loading.start()
    loading.join(timeout=10)
    hung = loading.is_alive()
    if hung:  # release the reader blocked in open() so the test process can end
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        loading.join()
    assert not hung, "loading the settings waited for a writer on the FIFO"
    (result,) = loaded
    assert result.settings == UserSettings()
    assert "it is a FIFO (named pipe), not a regular file" in result.notice
    assert stat.S_ISFIFO(assert_kept_aside(path).lstat().st_mode)


def test_a_symlink_to_dev_zero_reads_nothing_falls_back_to_the_defaults_and_the_link_is_kept_aside(tmp_path):
    path = tmp_path / "settings.json"
    path.symlink_to("/dev/zero")
    assert load_bad(path) == UserSettings()
    aside = assert_kept_aside(path)
    assert aside.is_symlink() and os.readlink(aside) == "/dev/zero"  # the link moved, never its target


def test_a_folder_or_a_dangling_symlink_in_place_of_the_settings_file_is_kept_aside(tmp_path):
    folder = tmp_path / "a" / "settings.json"
    (folder / "inside").mkdir(parents=True)
    assert load_bad(folder) == UserSettings()
    assert (assert_kept_aside(folder) / "inside").is_dir()
    dangling = tmp_path / "b" / "settings.json"
    dangling.parent.mkdir()
    dangling.symlink_to(tmp_path / "b" / "gone.json")
    assert load_bad(dangling) == UserSettings()
    assert assert_kept_aside(dangling).is_symlink()


def test_a_settings_file_of_exactly_the_size_bound_loads_and_one_byte_more_is_refused(tmp_path):
    path = tmp_path / "settings.json"
    body = json.dumps({"fov_degrees": 95.0})
    path.write_text(body + " " * (user_settings.MAX_FILE_BYTES - len(body)))
    assert user_settings.load(path) == UserSettings(fov_degrees=95.0)
    assert path.exists()
    content = (body + " " * (user_settings.MAX_FILE_BYTES + 1 - len(body))).encode()
    path.write_bytes(content)
    assert load_bad(path) == UserSettings()
    assert_kept_aside(path, content)


def test_files_kept_aside_never_replace_one_another_nor_are_replaced_by_a_save(tmp_path):
    path = tmp_path / "settings.json"
    contents = [b"{bad one", b"[2]", b'{"view_bobbing": "yes"}']
    for content in contents:
        path.write_bytes(content)
        load_bad(path)
    user_settings.save(UserSettings(fov_degrees=70.0), path)
    names = ["settings.json.unusable", "settings.json.unusable-2", "settings.json.unusable-3"]
    assert [path.with_name(name).read_bytes() for name in names] == contents
    assert user_settings.load(path) == UserSettings(fov_degrees=70.0)


def test_a_usable_file_stays_where_it_is_with_no_notice_and_unknown_keys_are_ignored(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"fov_degrees": 90, "future_setting": {"nested": [1, 2]}}))
    user_settings.take_notice()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert user_settings.load(path) == UserSettings(fov_degrees=90)
    assert user_settings.take_notice() is None and sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]


@pytest.mark.parametrize("value, shown", [(10 ** 5000, "a 16610-bit integer"), ([[[1]]], "a JSON array"),
                                          ("x" * 1000, "'" + "x" * 36 + "..."), ({"a": 1}, "a JSON object")],
                         ids=["1e5000", "nested", "long text", "object"])
def test_a_bad_setting_made_in_code_is_a_value_error_quoting_it_shortly(value, shown):
    with pytest.raises(ValueError) as error:
        UserSettings(view_bobbing=value)
    assert str(error.value) == f"view_bobbing must be true or false, got {shown}"


def test_the_title_screen_shows_the_notice_of_a_settings_file_it_could_not_use(tmp_path):
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text('{"sound_volume": ' + "1" * 400 + "}")
    script = f"""
from pathlib import Path
from ursina import Ursina
app = Ursina(window_type='none')
from game.window.ui.title_screen import TitleScreen
screen = TitleScreen(folder=Path({str(tmp_path / 'worlds')!r}))
print('message:', screen.message.text)
"""
    env = {**os.environ, "BOXEL_DATA_DIR": str(tmp_path / "data"), "BOXEL_CONFIG_DIR": str(config)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=REPO_ROOT,
                          env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    message = " ".join(done.stdout.split("message:", 1)[1].split())
    assert message.startswith(f"unusable settings file {config / 'settings.json'} (sound_volume must be a number")
    assert message.endswith("the default settings are used, and the file was kept as settings.json.unusable")
    assert (config / "settings.json.unusable").exists() and not (config / "settings.json").exists()


def assert_in_range(settings: UserSettings) -> None:
    assert FOV_RANGE_DEGREES[0] <= settings.fov_degrees <= FOV_RANGE_DEGREES[1]
    assert SENSITIVITY_RANGE[0] <= settings.mouse_sensitivity <= SENSITIVITY_RANGE[1]
    assert VIEW_DISTANCE_RANGE_COLUMNS[0] <= settings.view_distance_columns <= VIEW_DISTANCE_RANGE_COLUMNS[1]
    assert SOUND_VOLUME_RANGE[0] <= settings.sound_volume <= SOUND_VOLUME_RANGE[1]
    assert isinstance(settings.view_bobbing, bool)


def load_any(path: Path, content: bytes) -> UserSettings:
    """Load `content` as the settings file: it is used and stays, or it is kept aside byte for byte."""
    for old in path.parent.iterdir():
        old.unlink()
    path.write_bytes(content)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        settings = user_settings.load(path)
    assert_in_range(settings)
    kept = path.with_name("settings.json.unusable")
    assert path.exists() != kept.exists()
    assert (path if path.exists() else kept).read_bytes() == content
    return settings


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_as_the_settings_file_load_settings_in_range(tmp_path_factory, content):
    load_any(tmp_path_factory.mktemp("bytes") / "settings.json", content)


HUGE_INTEGERS = st.integers(1, 1200).map(lambda digits: int("9" * digits))
SETTING_VALUES = st.one_of(json_values(), HUGE_INTEGERS, HUGE_INTEGERS.map(lambda n: -n),
                           st.floats(0.0, 200.0), st.integers(-5, 200))


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.dictionaries(st.sampled_from(SETTING_NAMES + ["extra"]), SETTING_VALUES), json_values()))
def test_any_json_value_as_the_settings_file_loads_settings_in_range(tmp_path_factory, value):
    settings = load_any(tmp_path_factory.mktemp("json") / "settings.json", json.dumps(value).encode())
    if isinstance(value, dict) and settings != UserSettings():
        assert all(getattr(settings, name) == value[name] for name in SETTING_NAMES
                   if name in value and name != "fov_degrees")
