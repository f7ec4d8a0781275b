"""--game-mode on the command line: a new world is survival unless told, an existing world keeps
its mode (a different one is refused, nothing changed), and the report says which."""

from __future__ import annotations

import json

import pytest

from game.frontends import cli
from game.world import World


@pytest.fixture(autouse=True)
def user_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("BOXEL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("BOXEL_CONFIG_DIR", str(tmp_path / "config"))


@pytest.mark.parametrize("argv, mode", [([], "survival"), (["--game-mode", "survival"], "survival"),
                                        (["--game-mode", "creative"], "creative")])
def test_a_new_world_is_survival_unless_creative_is_asked_for(tmp_path, argv, mode):
    path = tmp_path / "w.boxel"
    world = cli.open_world(cli.parse_options(["--world", str(path), "--new", "--seed", "3", *argv]))
    try:
        assert world.game_mode == mode
    finally:
        world.close()


def test_an_existing_world_opens_in_its_own_mode_and_another_mode_is_refused(tmp_path):
    path = tmp_path / "w.boxel"
    World.create(path, 3, workers=1, game_mode="creative").close()
    before = path.read_bytes()
    world = cli.open_world(cli.parse_options(["--world", str(path)]))
    assert world.game_mode == "creative"
    world.close()
    with pytest.raises(cli.WorldOpenError, match="is a creative world, not survival"):
        cli.open_world(cli.parse_options(["--world", str(path), "--game-mode", "survival"]))
    assert path.read_bytes() == before


def test_a_game_mode_that_does_not_exist_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.parse_options(["--new", "--game-mode", "hardcore"])
    assert exit_info.value.code == cli.EXIT_USAGE
    assert "--game-mode" in capsys.readouterr().err


def test_the_lab_and_a_client_refuse_a_game_mode(capsys):
    for argv in (["--lab", "--game-mode", "creative"], ["--connect", "127.0.0.1:1", "--name", "a", "--game-mode", "creative"]):
        with pytest.raises(SystemExit):
            cli.parse_options(argv)
        assert "--game-mode" in capsys.readouterr().err


def test_the_headless_report_names_the_game_mode(tmp_path):
    report = tmp_path / "r.json"
    status = cli.main(["--headless", "--world", str(tmp_path / "w.boxel"), "--new", "--seed", "3", "--game-mode",
                       "creative", "--exit-after-ticks", "1", "--report", str(report)])
    assert status == 0
    assert json.loads(report.read_text())["game_mode"] == "creative"


def test_a_server_makes_its_new_world_creative_and_refuses_to_serve_a_survival_world(tmp_path):
    path = tmp_path / "served.boxel"
    world = cli.open_world(cli.parse_options(["--server", "--world", str(path), "--port", "0"]))
    assert world.game_mode == "creative"
    world.close()
    survival = tmp_path / "survival.boxel"
    World.create(survival, 3, workers=1, game_mode="survival").close()
    with pytest.raises(cli.WorldOpenError, match="serves creative worlds only"):
        cli.open_world(cli.parse_options(["--server", "--world", str(survival), "--port", "0"]))
