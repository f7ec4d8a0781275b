"""A world's game mode: set when it is made, saved in its file (format 6), creative for older files."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from game.world import World
from game.world.file_errors import CorruptWorldError
from game.world.file_format import CREATIVE, FORMAT_VERSION, GAME_MODES, SURVIVAL
from game.world.lab import Arena

from .conftest import edit_meta


def meta(path: Path) -> dict[str, object]:
    db = sqlite3.connect(path)
    try:
        return {key: json.loads(text) for key, text in db.execute("SELECT key, value FROM meta")}
    finally:
        db.close()


@pytest.mark.parametrize("mode", GAME_MODES)
def test_a_world_keeps_the_game_mode_it_was_made_with_across_saves(tmp_path, mode):
    path = tmp_path / "w.boxel"
    with World.create(path, 7, workers=1, game_mode=mode) as world:
        assert world.game_mode == mode
    assert meta(path)["game_mode"] == mode and meta(path)["format_version"] == FORMAT_VERSION == 6
    with World.open(path, workers=1) as world:
        assert world.game_mode == mode


def test_the_library_call_makes_a_creative_world_unless_told(tmp_path):
    with World.create(tmp_path / "w.boxel", 7, workers=1) as world:
        assert world.game_mode == CREATIVE


@pytest.mark.parametrize("mode", ["adventure", "", None, 1, "Survival"])
def test_a_game_mode_that_is_not_survival_or_creative_is_refused_before_any_file_is_made(tmp_path, mode):
    path = tmp_path / "w.boxel"
    with pytest.raises((TypeError, ValueError), match="survival, creative"):
        World.create(path, 7, workers=1, game_mode=mode)
    assert not path.exists()


def test_a_format_5_world_opens_creative_and_its_first_save_writes_that(tmp_path):
    path = tmp_path / "w.boxel"
    with World.create(path, 7, workers=1, game_mode=SURVIVAL):
        pass
    db = sqlite3.connect(path)
    db.execute("DELETE FROM meta WHERE key = 'game_mode'")
    db.commit()
    db.close()
    edit_meta(path, format_version="5")  # what format 5 wrote, with a checksum that matches
    world = World.open(path, workers=1)
    assert world.game_mode == CREATIVE  # made when every world was creative
    world.close()
    assert "game_mode" not in meta(path)  # opening changes nothing
    with World.open(path, workers=1):
        pass
    assert meta(path)["game_mode"] == CREATIVE and meta(path)["format_version"] == 6
    with World.open(path, workers=1) as world:
        assert world.game_mode == CREATIVE


@pytest.mark.parametrize("text", ['"adventure"', "1", "null", '["survival"]'])
def test_a_game_mode_row_changed_to_something_else_is_refused_at_open(tmp_path, text):
    path = tmp_path / "w.boxel"
    with World.create(path, 7, workers=1):
        pass
    edit_meta(path, game_mode=text)
    with pytest.raises(CorruptWorldError, match="game_mode"):
        World.open(path, workers=1)


def test_the_lab_is_creative():
    assert Arena().game_mode == CREATIVE
