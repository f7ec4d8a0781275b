"""--world and --lab on the command line, and no stray world from a start that played nothing:
a path ending in a slash names a folder and is refused with a file name to use; --lab with a
world's options is refused; a world a launch created is removed again when no tick was played
in it. Headless: `cli.main` with the window runner replaced."""

from __future__ import annotations

import os

import pytest

from game.frontends import cli
from game.world import World

from .conftest import replace_window_app


@pytest.fixture(autouse=True)
def user_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("BOXEL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("BOXEL_CONFIG_DIR", str(tmp_path / "config"))


def usage_error(argv, capsys) -> str:
    with pytest.raises(SystemExit) as exit_info:
        cli.parse_options(argv)
    assert exit_info.value.code == cli.EXIT_USAGE
    return capsys.readouterr().err


def test_a_world_path_ending_in_a_slash_is_refused_naming_a_file_inside_that_folder(tmp_path, capsys):
    folder = tmp_path / "saves"
    message = usage_error(["--world", f"{folder}{os.sep}"], capsys)
    assert "ends in a slash, so it names a folder" in message
    assert os.path.join(str(folder), "world.boxel") in message
    assert list(tmp_path.iterdir()) == []  # nothing made: no file named like the folder, no folder


def test_an_empty_world_path_is_refused(capsys):
    assert "expected the path of a world file" in usage_error(["--world", ""], capsys)


def test_a_world_path_without_a_slash_is_a_file(tmp_path):
    assert cli.parse_options(["--world", str(tmp_path / "saves")]).world == tmp_path / "saves"


@pytest.mark.parametrize("extra, named", [(["--world", "w.boxel"], "--world"), (["--seed", "0"], "--seed"),
                                          (["--new"], "--new"),
                                          (["--world", "w.boxel", "--seed", "3"], "--world and --seed")])
def test_the_lab_with_a_worlds_options_is_a_usage_error_naming_them(extra, named, capsys):
    message = usage_error(["--lab", *extra], capsys)
    assert f"leave out {named}" in message and "--lab opens the physics lab" in message


class StartFails:
    """A window runner whose window cannot open: it closes the world, as `game.window.app.run` does."""

    LaunchError = RuntimeError

    def __init__(self, ticks: int = 0) -> None:
        self.ticks = ticks

    def run(self, options, session, stop=None) -> int:
        session.run([], self.ticks)
        session.close()
        if not self.ticks:
            raise self.LaunchError("could not open a window (test)")
        return 0


@pytest.fixture
def window_runner(monkeypatch):
    """Replace the window runner `cli` imports (`game.window.app`) with a StartFails."""

    def install(runner: StartFails) -> None:
        replace_window_app(monkeypatch, run=runner.run, LaunchError=runner.LaunchError)

    return install


def test_a_start_that_fails_before_any_tick_leaves_no_new_world_behind(tmp_path, window_runner, capsys):
    window_runner(StartFails(ticks=0))
    path = tmp_path / "new.boxel"
    assert cli.main(["--world", str(path), "--seed", "42"]) == 1
    assert not path.exists() and not (tmp_path / "new.boxel-wal").exists()
    assert f"the new world {path} was not kept" in capsys.readouterr().err


def test_a_new_world_played_for_a_tick_is_kept(tmp_path, window_runner):
    window_runner(StartFails(ticks=1))
    path = tmp_path / "played.boxel"
    assert cli.main(["--world", str(path), "--seed", "42"]) == 0
    with World.open(path) as world:
        assert world.seed == 42 and world.player_state is not None


def test_an_existing_world_is_never_removed_by_a_failed_start(tmp_path, window_runner):
    path = tmp_path / "old.boxel"
    World.create(path, 42).close()
    window_runner(StartFails(ticks=0))
    assert cli.main(["--world", str(path)]) == 1
    assert path.is_file()
    World.open(path).close()
