import json

import pytest

from game import user_settings
from game.user_settings import UserSettings


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
