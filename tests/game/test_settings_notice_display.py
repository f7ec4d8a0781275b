"""A settings file the game cannot use never stops a windowed launch: the game plays with the
default settings and tells the player why on the HUD's notice line (and in the report)."""

from __future__ import annotations

import json
import os

import pytest

from tests.game.conftest import GAME_TIMEOUT_S, REPO_ROOT, TEST_WINDOW_SIZE, run_with_display

pytestmark = pytest.mark.display


def test_a_settings_file_with_a_400_digit_fov_is_told_on_the_hud_and_the_game_plays_with_the_defaults(tmp_path):
    config = tmp_path / "config"
    config.mkdir()
    content = '{"fov_degrees": ' + "9" * 400 + "}"
    (config / "settings.json").write_text(content)
    screenshot, report = tmp_path / "notice.png", tmp_path / "notice.json"
    env = {**os.environ, "BOXEL_CONFIG_DIR": str(config), "BOXEL_DATA_DIR": str(tmp_path / "data")}
    done = run_with_display([str(REPO_ROOT / "main.py"), "--lab", "--size", TEST_WINDOW_SIZE, "--exit-after-ticks",
                             "10", "--screenshot", str(screenshot), "--report", str(report)],
                            timeout=GAME_TIMEOUT_S, env=env)
    assert done.returncode == 0, done.stderr[-4000:]
    notices = json.loads(report.read_text(encoding="utf-8"))["notices"]
    expected = (f"unusable settings file {config / 'settings.json'} (fov_degrees must be a number in [30, 110], "
                "got a 1329-bit integer): the default settings are used, and the file was kept as "
                "settings.json.unusable")
    assert notices == [expected]
    assert f"boxel: {expected}" in done.stderr and "Traceback" not in done.stderr
    assert (config / "settings.json.unusable").read_text() == content
    assert screenshot.exists()
