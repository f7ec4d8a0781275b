"""One replay played both ways: in the real window (under Xvfb) and with `--headless` (no window, no
Ursina). The session is the same, so the final bodies, mobs, projectiles and edited blocks are too."""

from __future__ import annotations

import json
import shutil

import pytest

from game.rules.replay import read_replay
from game.world import World
from tests.game import scripted_runs
from tests.game.test_session import MIXED_PLAY, MIXED_PLAY_EXPECTED, hex_bodies, platform_world, run_headless

pytestmark = pytest.mark.display


def test_a_replay_gives_the_same_bodies_and_blocks_in_the_window_and_headless(run_game, tmp_path):
    ticks = json.loads(MIXED_PLAY_EXPECTED.read_text())["ticks"]
    windowed, headless = tmp_path / "window.boxel", tmp_path / "headless.boxel"
    platform_world(windowed)
    shutil.copy(windowed, headless)

    window_report = scripted_runs.play(run_game, windowed, list(read_replay(MIXED_PLAY)), ticks, "window").report
    report_path = tmp_path / "headless.json"
    done = run_headless("--world", str(headless), "--replay", str(MIXED_PLAY), "--exit-after-ticks", str(ticks),
                        "--report", str(report_path))
    assert done.returncode == 0, done.stderr
    headless_report = json.loads(report_path.read_text())

    assert hex_bodies(window_report) == hex_bodies(headless_report)
    assert len([b for b in window_report["bodies"] if b["kind"] == "mob"]) >= 2
    assert window_report["edited_blocks"] == headless_report["edited_blocks"] != []
    assert {key: window_report[key] for key in headless_report} == headless_report  # the window's adds, never differs
    with World.open(windowed) as a, World.open(headless) as b:
        for x, y, z, name in window_report["edited_blocks"]:
            assert a.get_block(x, y, z) == b.get_block(x, y, z) == name
        assert a.player_state == b.player_state


def test_a_two_player_replay_gives_the_same_players_and_bodies_in_the_window_and_headless(run_game, tmp_path):
    from tests.game.test_many_players import TWO_PLAYERS, TWO_PLAYERS_TICKS

    windowed, headless = tmp_path / "window.boxel", tmp_path / "headless.boxel"
    platform_world(windowed)
    shutil.copy(windowed, headless)

    window_report = scripted_runs.play(run_game, windowed, list(read_replay(TWO_PLAYERS)), TWO_PLAYERS_TICKS,
                                       "window").report
    report_path = tmp_path / "headless.json"
    done = run_headless("--world", str(headless), "--replay", str(TWO_PLAYERS), "--exit-after-ticks",
                        str(TWO_PLAYERS_TICKS), "--report", str(report_path))
    assert done.returncode == 0, done.stderr
    headless_report = json.loads(report_path.read_text())

    assert list(window_report["players"]) == ["player", "alice", "bob"]
    assert hex_bodies(window_report) == hex_bodies(headless_report)
    assert {key: window_report[key] for key in headless_report} == headless_report  # the window's adds, never differs
    with World.open(windowed) as a, World.open(headless) as b:
        assert a.player_states() == b.player_states() == ("alice", "bob", "player")
        assert all(a.saved_player_state(name) == b.saved_player_state(name) for name in a.player_states())
