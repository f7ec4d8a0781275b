"""The window's sound player without a window: how a sound is heard (distance, side, master volume),
the files it plays, muting, the choice of audio library, and the volume setting and its slider."""

from __future__ import annotations

import json
import math

import pytest

from game.userdata import user_settings
from game.window.render import sound_player
from game.window.render.sound_player import HEARING_RANGE_BLOCKS, MAX_BALANCE, Mix, SoundPlayer, mix, sound_files
from game.rules.sounds import SOUND_NAMES, SoundEvent
from game.userdata.user_settings import UserSettings

EAR = (0.0, 1.62, 0.0)
"""[blocks] The listener's eye for these tests."""


# --- how a sound is heard -------------------------------------------------------------------------


def test_a_sound_at_the_ear_is_heard_at_its_volume_in_the_middle():
    assert mix(EAR, 0.5, 1.2, EAR, 0.0, 1.0) == Mix(0.5, 0.0, 1.2)


def test_a_sound_fades_linearly_to_silence_at_sixteen_blocks():
    ahead = lambda blocks: (0.0, 1.62, blocks)  # facing +Z (yaw 0): straight ahead
    assert mix(ahead(4.0), 1.0, 1.0, EAR, 0.0, 1.0).gain == 0.75
    assert mix(ahead(8.0), 1.0, 1.0, EAR, 0.0, 1.0).gain == 0.5
    assert mix(ahead(HEARING_RANGE_BLOCKS), 1.0, 1.0, EAR, 0.0, 1.0) is None
    assert mix(ahead(30.0), 1.0, 1.0, EAR, 0.0, 1.0) is None


def test_a_sound_louder_than_one_carries_farther_but_plays_no_louder():
    far = (0.0, 1.62, 24.0)
    assert mix(far, 2.0, 1.0, EAR, 0.0, 1.0).gain == 0.25  # reach 32 blocks: 1 - 24/32
    assert mix(EAR, 2.0, 1.0, EAR, 0.0, 1.0).gain == 1.0


def test_the_master_volume_scales_every_sound_and_zero_silences_them():
    assert mix((0.0, 1.62, 8.0), 1.0, 1.0, EAR, 0.0, 0.5).gain == 0.25
    assert mix(EAR, 1.0, 1.0, EAR, 0.0, 0.0) is None


@pytest.mark.parametrize(("yaw", "side"), [(0.0, -1), (90.0, 0), (180.0, 1), (270.0, 0)])
def test_a_sound_to_the_east_is_heard_on_the_side_it_is_on(yaw, side):
    """Facing south (yaw 0) east is on the left; facing north (180) on the right; ahead or behind, in the middle."""
    heard = mix((4.0, 1.62, 0.0), 1.0, 1.0, EAR, yaw, 1.0)
    assert heard.balance == pytest.approx(side * MAX_BALANCE, abs=1e-12)


def test_the_players_own_footsteps_under_the_eye_are_heard_in_the_middle():
    assert mix((0.0, 0.0, 0.0), 0.15, 1.0, EAR, 37.0, 1.0).balance == 0.0
    half_block_right = mix((-0.5, 1.62, 0.0), 1.0, 1.0, EAR, 0.0, 1.0)
    assert half_block_right.balance == 0.5 * MAX_BALANCE  # closer than a block: panned less


# --- the player, muted -------------------------------------------------------------------------------


def test_every_sound_the_rules_make_has_a_file_and_footsteps_have_variants():
    files = sound_files()
    assert set(files) == set(SOUND_NAMES)
    assert all(len(files[name]) == 3 for name in SOUND_NAMES if name.startswith("step_"))
    assert files["land"][0].name == "land.wav"


def test_a_folder_with_no_sounds_is_an_error_naming_the_generator(tmp_path):
    with pytest.raises(FileNotFoundError, match="make_sounds"):
        SoundPlayer(1.0, muted=True, folder=tmp_path)


def test_a_muted_player_counts_what_would_be_heard_and_loads_nothing():
    player = SoundPlayer(1.0, muted=True)
    events = [SoundEvent("step_stone", (0.0, 0.0, 0.0), 0.15), SoundEvent("land", (0.0, 0.0, 40.0)),
              SoundEvent("step_stone", (1.0, 0.0, 0.0), 0.15)]
    assert player.play(events, EAR, 0.0) == 2
    assert dict(player.heard) == {"step_stone": 2}  # the landing 40 blocks away is not heard
    assert player._voices == {} and not player._opened


def test_the_volume_can_change_while_playing_but_never_leaves_zero_to_one():
    player = SoundPlayer(0.5, muted=True)
    player.volume = 0.0
    assert player.play([SoundEvent("land", EAR)], EAR, 0.0) == 0
    for bad in (-0.1, 1.5, float("nan"), "1", True):
        with pytest.raises(ValueError):
            player.volume = bad
        with pytest.raises(ValueError):
            SoundPlayer(bad, muted=True)
    assert player.volume == 0.0


def test_an_event_with_no_file_is_refused():
    class Unknown:
        name, position, volume, pitch = "boom", EAR, 1.0, 1.0

    with pytest.raises(ValueError, match="boom"):
        SoundPlayer(1.0, muted=True).play([Unknown()], EAR, 0.0)


@pytest.mark.parametrize(("value", "muted"), [(None, False), ("", False), ("0", False), ("1", True), ("yes", True)])
def test_boxel_mute_silences_the_game_unless_empty_or_zero(value, muted):
    environ = {} if value is None else {"BOXEL_MUTE": value}
    assert sound_player.muted_by_environment(environ) is muted


def test_the_tests_run_muted():
    assert sound_player.muted_by_environment()
    assert SoundPlayer(1.0).muted


# --- the audio library --------------------------------------------------------------------------------


def test_openal_is_chosen_only_where_it_has_somewhere_to_play():
    nothing = lambda path: False
    present = sound_player.audio_device_present
    assert not present({}, "linux", nothing)
    assert present({}, "linux", lambda path: path == "/dev/snd")
    assert present({"XDG_RUNTIME_DIR": "/run/user/1"}, "linux", lambda path: path == "/run/user/1/pulse/native")
    assert present({"PULSE_SERVER": "tcp:host"}, "linux", nothing)
    assert present({"ALSOFT_DRIVERS": "wave"}, "linux", nothing)
    assert present({}, "win32", nothing) and present({}, "darwin", nothing)


def test_a_muted_game_keeps_the_null_audio_library():
    assert sound_player.choose_audio_library(muted=True) is False


# --- the setting and its slider ------------------------------------------------------------------------


def test_the_sound_volume_survives_a_save_and_load(tmp_path):
    path = tmp_path / "settings.json"
    user_settings.save(UserSettings(sound_volume=0.35), path)
    assert json.loads(path.read_text())["sound_volume"] == 0.35
    assert user_settings.load(path) == UserSettings(sound_volume=0.35)


def test_a_settings_file_from_before_the_volume_setting_loads_at_full_volume(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"fov_degrees": 90.0, "mouse_sensitivity": 0.5, "view_distance_columns": 12}))
    assert user_settings.load(path) == UserSettings(90.0, 0.5, 12, sound_volume=1.0)


@pytest.mark.parametrize("bad", [-0.01, 1.01, math.nan, math.inf, "0.5", None, True])
def test_a_sound_volume_outside_zero_to_one_is_refused(bad):
    with pytest.raises(ValueError, match="sound_volume"):
        UserSettings(sound_volume=bad)


def test_a_bad_volume_in_the_settings_file_gives_the_defaults_with_a_warning(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"sound_volume": 7}))
    with pytest.warns(UserWarning, match="sound_volume"):
        assert user_settings.load(path) == UserSettings()


def test_the_pause_menu_has_a_volume_slider_from_silent_to_full_in_twentieths():
    from game.window.ui.pause_menu import SETTING_ROWS  # imports Ursina (no window is opened)

    row = {row.field: row for row in SETTING_ROWS}["sound_volume"]
    assert (row.low, row.high, row.step) == (0.0, 1.0, 0.05)
    assert row.value_at(0.0) == 0.0 and row.value_at(1.0) == 1.0 and row.value_at(0.512) == 0.5
    assert row.text(0.75) == "Sound volume: 0.75"
    UserSettings(sound_volume=row.value_at(0.33))  # every slider value is a valid setting
