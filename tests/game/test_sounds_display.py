"""Sounds in the real window (Xvfb when there is no display): the window plays what the session makes,
muted in tests, and unmuted through OpenAL, whose WAV file writer stands in for a sound card."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from game.rules.replay import Click, KeyDown, KeyUp, Look, Release, ReplayWriter
from tests.game.conftest import REPO_ROOT, TEST_WINDOW_SIZE, run_with_display

pytestmark = pytest.mark.display

PLAY = [
    Look(0, 180.0, 50.0),  # the lab's spawn faces north: look down at the grass floor ahead
    Click(2, "left"), Release(21, "left"),  # dig the grass: by hand it breaks on the 18th tick held
    Click(22, "right"),  # place stone (slot 1) in the hole
    KeyDown(24, "space"), KeyUp(25, "space"),  # a jump: a landing
    KeyDown(45, "w"), KeyUp(80, "w"),  # 35 ticks of walking north, about 7 blocks: 4 steps
]
TICKS = 90
AUDIO_ERRORS = ("ALSA lib", "AL lib: (EE)", ":audio(error)")
"""What OpenAL, ALSA or Panda3D print when audio fails."""
SILENCE = 50
"""[int16] Louder samples than this in OpenAL's output are sound (the mixer's silence is exactly 0)."""


def lab_run(tmp_path: Path, env: dict, name: str):
    replay, report = tmp_path / f"{name}.jsonl", tmp_path / f"{name}.json"
    with ReplayWriter.open(replay) as writer:
        for event in PLAY:
            writer.write(event)
    done = run_with_display([str(REPO_ROOT / "main.py"), "--lab", "--size", TEST_WINDOW_SIZE, "--replay", str(replay),
                             "--exit-after-ticks", str(TICKS), "--report", str(report)], env=env)
    assert done.returncode == 0, f"the game exited with {done.returncode}:\n{done.stderr[-4000:]}"
    return json.loads(report.read_text(encoding="utf-8")), done.stderr


def game_env(tmp_path: Path, **changes: str) -> dict:
    env = {**os.environ, "BOXEL_CONFIG_DIR": str(tmp_path / "config"), "BOXEL_DATA_DIR": str(tmp_path / "data")}
    env.update(changes)
    return env


def test_the_window_plays_the_sessions_sounds_muted_in_tests_and_reports_what_was_heard(tmp_path):
    report, stderr = lab_run(tmp_path, game_env(tmp_path), "muted")
    heard = report["sounds_heard"]
    assert heard["break_grass"] == 1 and heard["place_stone"] == 1 and heard["land"] == 1
    assert heard["step_grass"] >= 3
    assert not any(error in stderr for error in AUDIO_ERRORS), stderr[-2000:]


def test_an_unmuted_game_plays_its_sounds_through_openal(tmp_path):
    output = tmp_path / "openal.wav"
    config = tmp_path / "alsoft.conf"
    config.write_text(f"drivers=wave\nsample-type=int16\n[wave]\nfile={output}\n", encoding="utf-8")
    report, _ = lab_run(tmp_path, game_env(tmp_path, BOXEL_MUTE="0", ALSOFT_CONF=str(config)), "unmuted")
    assert report["sounds_heard"]["break_grass"] == 1
    data = output.read_bytes()
    start = data.index(b"data") + 8
    samples = np.frombuffer(data[start:start + (len(data) - start) // 2 * 2], "<i2")
    assert len(samples) > 0 and np.abs(samples.astype(int)).max() > SILENCE, "OpenAL played nothing"


def test_an_unmuted_game_with_no_audio_device_plays_silently_and_prints_no_audio_errors(tmp_path):
    if os.path.exists("/dev/snd"):
        pytest.skip("this machine has a sound card")
    env = game_env(tmp_path, BOXEL_MUTE="0", XDG_RUNTIME_DIR=str(tmp_path))
    for name in ("PULSE_SERVER", "ALSOFT_DRIVERS", "ALSOFT_CONF"):
        env.pop(name, None)
    report, stderr = lab_run(tmp_path, env, "no_device")
    assert report["sounds_heard"]["place_stone"] == 1
    assert not any(error in stderr for error in AUDIO_ERRORS), stderr[-2000:]
