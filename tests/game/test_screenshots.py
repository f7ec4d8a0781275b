"""F2 screenshot files: timestamped names that never clash, and clear errors (headless: a stand-in window)."""

from __future__ import annotations

import datetime

import pytest

from game.userdata import paths
from game.window.render.screenshots import ScreenshotError, save_screenshot

NOON = datetime.datetime(2024, 5, 17, 12, 0, 0)


class StandInWindow:
    """Writes a marker where Panda3D's window would write the PNG; `works=False` fails like a lost GPU."""

    def __init__(self, works: bool = True) -> None:
        self.works = works
        self.saved: list[str] = []

    def save_screenshot(self, filename) -> bool:
        path = filename.to_os_specific()
        self.saved.append(path)
        if self.works:
            with open(path, "wb") as file:
                file.write(b"png")
        return self.works


class StandInApp:
    def __init__(self) -> None:
        self.win = StandInWindow()


def test_screenshots_in_the_same_second_get_numbered_names_and_never_overwrite(tmp_path):
    window = StandInWindow()
    paths = [save_screenshot(window, tmp_path, now=NOON) for _ in range(3)]
    assert [p.name for p in paths] == ["boxel-2024-05-17_12-00-00.png", "boxel-2024-05-17_12-00-00-2.png",
                                       "boxel-2024-05-17_12-00-00-3.png"]
    assert all(p.read_bytes() == b"png" for p in paths)


def test_the_ursina_app_is_accepted_and_its_window_is_used(tmp_path):
    app = StandInApp()
    path = save_screenshot(app, tmp_path / "new" / "folder", now=NOON)
    assert path.parent == tmp_path / "new" / "folder"
    assert app.win.saved == [str(path.resolve())]


def test_the_players_screenshots_folder_is_in_the_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("BOXEL_DATA_DIR", str(tmp_path))
    path = save_screenshot(StandInWindow(), paths.screenshots_dir(), now=NOON)
    assert path == tmp_path / "screenshots" / "boxel-2024-05-17_12-00-00.png"


def test_a_failed_write_raises_and_leaves_no_empty_file(tmp_path):
    with pytest.raises(ScreenshotError, match="could not write the screenshot"):
        save_screenshot(StandInWindow(works=False), tmp_path, now=NOON)
    assert list(tmp_path.iterdir()) == []


def test_something_that_is_not_a_window_is_refused(tmp_path):
    with pytest.raises(TypeError, match="needs an Ursina app or a Panda3D window"):
        save_screenshot("window", tmp_path)
    assert list(tmp_path.iterdir()) == []
