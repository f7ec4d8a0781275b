"""Players saved by name in the world file: format 5's players table, a format 4
world's one player read as the local player's and moved into the table by the first save, every
row checked at open like the meta values, and a session's players restored by name."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from game.userdata import world_list
from game.rules.player import LOCAL_PLAYER
from game.rules.replay import KeyDown, Look
from game.rules.session import Session
from game.world import CorruptWorldError, UnexpectedSchemaError, World
from game.world import file_checks
from game.world.file_format import FORMAT_VERSION, MAX_JSON_DEPTH, MAX_META_TEXT_BYTES

from .conftest import SEED, edit_meta, fingerprint

STATE = {"version": 1, "box": [0.2, 80.0, 0.2, 0.8, 81.8, 0.8], "yaw": 10.5}
"""A stored state (the file checks take any checked object; the game's own checks come at join)."""


@pytest.fixture(scope="module")
def world_bytes(tmp_path_factory) -> bytes:
    """The bytes of a saved, closed seed-42 world with a player "alice" and the local player saved."""
    path = tmp_path_factory.mktemp("players") / "base.boxel"
    with World.create(path, seed=SEED, workers=1) as world:
        world.player_state = STATE
        world.set_player_state("alice", {**STATE, "yaw": 99.0})
    return path.read_bytes()


def copy(folder: Path, world_bytes: bytes) -> Path:
    path = folder / "w.boxel"
    path.unlink(missing_ok=True)
    path.write_bytes(world_bytes)
    return path


def execute(path: Path, *statements: str, params: tuple = ()) -> None:
    db = sqlite3.connect(path)
    for statement in statements:
        db.execute(statement, params if "?" in statement else ())
    db.commit()
    db.close()


def as_format_4(path: Path, state: dict | None) -> None:
    """Make the closed world at `path` what format 4 wrote: no players table, its one player's state
    in the player_state meta row, with a checksum that matches."""
    execute(path, "DROP TABLE players", "DELETE FROM meta WHERE key = 'game_mode'")
    edit_meta(path, player_state=json.dumps(state), format_version="4")


def format_of(path: Path) -> tuple[int, set[str], dict[str, dict]]:
    """The file's format version, its meta keys and its players rows."""
    db = sqlite3.connect(path)
    try:
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        players = ({name: json.loads(text) for name, text in db.execute("SELECT name, state FROM players")}
                   if "players" in tables else {})
    finally:
        db.close()
    return json.loads(meta["format_version"]), set(meta), players


def test_the_players_are_saved_by_name_in_the_players_table_and_read_back_exactly(tmp_path, world_bytes):
    path = copy(tmp_path, world_bytes)
    version, keys, rows = format_of(path)
    assert version == FORMAT_VERSION == 6 and "player_state" not in keys
    assert rows == {LOCAL_PLAYER: STATE, "alice": {**STATE, "yaw": 99.0}}
    with World.open(path, workers=1) as world:
        assert world.player_states() == ("alice", LOCAL_PLAYER)
        assert world.player_state == world.saved_player_state(LOCAL_PLAYER) == STATE
        assert world.saved_player_state("alice")["yaw"] == 99.0 and world.saved_player_state("bob") is None


def test_a_format_4_world_opens_with_its_one_player_as_the_local_player_and_its_first_save_upgrades_it(
        tmp_path, world_bytes):
    path = copy(tmp_path, world_bytes)
    as_format_4(path, STATE)
    assert format_of(path)[0] == 4
    world = World.open(path, workers=1)
    assert world.player_states() == (LOCAL_PLAYER,) and world.player_state == STATE
    world.close()
    assert format_of(path)[0] == 4  # opening changes nothing
    with World.open(path, workers=1):
        pass
    version, keys, rows = format_of(path)  # the save on leaving the `with` upgraded it
    assert version == 6 and "player_state" not in keys and rows == {LOCAL_PLAYER: STATE}
    with World.open(path, workers=1) as world:
        assert world.player_state == STATE


def test_a_format_4_world_never_played_upgrades_to_no_players(tmp_path, world_bytes):
    path = copy(tmp_path, world_bytes)
    as_format_4(path, None)
    with World.open(path, workers=1) as world:
        assert world.player_states() == () and world.player_state is None
    assert format_of(path)[0] == 6 and format_of(path)[2] == {}


def test_a_format_4_world_played_by_a_session_gives_its_player_back_under_the_local_name(tmp_path, world_bytes):
    path = copy(tmp_path, world_bytes)
    with World.open(path, workers=1) as world:
        session = Session.open(world, autosave=False)
        session.run([Look(0, 45.0, 10.0), KeyDown(0, "w")], 5)
        session.save()
        saved = session.player.to_state()
    execute(path, "DELETE FROM players WHERE name = 'alice'")
    as_format_4(path, saved)
    with World.open(path, workers=1) as world:
        session = Session.open(world, autosave=False)
        assert session.saved_player_problem is None and session.player.to_state() == saved
        session.close()
    assert format_of(path)[2] == {LOCAL_PLAYER: saved}


def test_saving_and_reopening_a_two_player_world_restores_both_players_by_name(tmp_path, world_bytes):
    path = copy(tmp_path, world_bytes)
    execute(path, "DELETE FROM players")
    with World.open(path, workers=1) as world:
        session = Session.open(world, autosave=False)
        alice = session.join("alice")
        session.run([Look(0, 90.0, 0.0, player="alice"), KeyDown(0, "w", player="alice"), KeyDown(0, "5", player="alice"),
                     Look(0, 270.0, 20.0), KeyDown(0, "w"), KeyDown(0, "3")], 12)
        assert alice.body != session.player.body
        states = {name: player.to_state() for name, player in session.players.items()}
        session.close()
    with World.open(path, workers=1) as world:
        session = Session.open(world, autosave=False)
        alice = session.join("alice")
        assert {name: player.to_state() for name, player in session.players.items()} == states  # bit for bit
        assert alice.hotbar.selected == 4 and session.hotbar.selected == 2


def test_a_joining_player_whose_saved_state_cannot_be_used_starts_at_the_spawn_and_is_told(tmp_path, world_bytes):
    path = copy(tmp_path, world_bytes)
    with World.open(path, workers=1) as world:
        session = Session.open(world, autosave=False)  # the local player's STATE lacks fields: it starts at the spawn
        alice = session.join("alice")
        assert alice.body == session.player.body
        assert any("The saved state of alice cannot be used" in notice for notice in session.take_notices())


@pytest.mark.parametrize("name", ["", "a" * 17, "bad name", None, 7])
def test_a_bad_name_or_state_is_refused_when_set_and_nothing_changes(world, name):
    with pytest.raises((TypeError, ValueError)):
        world.set_player_state(name, STATE)
    with pytest.raises(ValueError, match="finite"):
        world.set_player_state("bob", {"yaw": float("nan")})
    with pytest.raises(TypeError):
        world.set_player_state("bob", ["not", "an", "object"])
    assert world.player_states() == ()


def test_setting_a_state_of_none_forgets_that_player_at_the_next_save(tmp_path, world_bytes):
    path = copy(tmp_path, world_bytes)
    with World.open(path, workers=1) as world:
        world.set_player_state("alice", None)
        assert world.player_states() == (LOCAL_PLAYER,)
    assert set(format_of(path)[2]) == {LOCAL_PLAYER}


# --- every row checked at open -----------------------------------------------------------------------------

def assert_refused(path: Path, *expected: str) -> None:
    """World.open refuses naming `expected`, the list shows the file greyed with that reason, the file unchanged."""
    before = fingerprint(path)
    with pytest.raises(CorruptWorldError) as refused:
        World.open(path, workers=1)
    for part in expected:
        assert part in str(refused.value)
    entry = world_list.describe(path)
    assert not entry.readable and entry.seed is None
    assert fingerprint(path) == before


@pytest.mark.parametrize("name, problem", [
    ("bad name", "1..16 letters"),
    ("", "1..16 letters"),
    ("a" * 17, "a text longer than 16 bytes"),
])
def test_a_players_row_with_a_name_no_player_can_have_is_refused_at_open(tmp_path, world_bytes, name, problem):
    path = copy(tmp_path, world_bytes)
    execute(path, "INSERT INTO players VALUES (?, '{}')", params=(name,))
    assert_refused(path, "a saved player's name is not one", problem)


@pytest.mark.parametrize("value", ["x'00ff'", "x'616c696365'"])  # a number is stored as text (the column's affinity)
def test_a_players_row_whose_name_is_not_text_is_refused_at_open(tmp_path, world_bytes, value):
    path = copy(tmp_path, world_bytes)
    execute(path, f"INSERT INTO players VALUES ({value}, '{{}}')")
    assert_refused(path, "a saved player's name is not one")


@pytest.mark.parametrize("text, problem", [
    ("not json", "the saved player 'alice' is not JSON"),
    ("[" * 100_000 + "]" * 100_000, "the saved player 'alice' is not JSON"),
    ('{"a": ' + "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH + "}", "its saved player 'alice' is nested more than"),
    ("[1, 2]", "its saved player 'alice' [1, 2] is not an object"),
    ("null", "its saved player 'alice' None is not an object"),
    ('{"yaw": 1e999}', "its saved player 'alice' holds inf"),
    ('{"n": ' + "9" * 400 + "}", "beyond"),
])
def test_a_players_row_whose_state_is_not_a_checked_object_is_refused_at_open(tmp_path, world_bytes, text, problem):
    path = copy(tmp_path, world_bytes)
    execute(path, "UPDATE players SET state = ? WHERE name = 'alice'", params=(text,))
    assert_refused(path, problem)


def test_a_players_row_whose_state_is_not_text_or_too_long_is_refused_unread(tmp_path, world_bytes):
    path = copy(tmp_path, world_bytes)
    execute(path, "UPDATE players SET state = x'7b7d' WHERE name = 'alice'")
    assert_refused(path, "the saved player 'alice' is a blob of 2 bytes")
    path = copy(tmp_path, world_bytes)
    execute(path, "UPDATE players SET state = ? WHERE name = 'alice'",
            params=(json.dumps({"a": "x" * MAX_META_TEXT_BYTES}),))
    assert_refused(path, "the saved player 'alice' is a text of", f"at most {MAX_META_TEXT_BYTES} bytes")


def test_more_players_than_a_file_may_hold_are_refused_before_any_is_read(tmp_path, world_bytes, monkeypatch):
    path = copy(tmp_path, world_bytes)
    monkeypatch.setattr(file_checks, "MAX_SAVED_PLAYERS", 1)
    assert_refused(path, "holds 2 players", "more than the 1 players")
    monkeypatch.setattr(file_checks, "MAX_SAVED_PLAYERS", 2)
    monkeypatch.setattr(file_checks, "MAX_PLAYERS_TEXT_BYTES", 10)
    assert_refused(path, "bytes a world file holds")


def test_the_schemas_of_format_4_and_5_are_each_exact(tmp_path, world_bytes):
    path = copy(tmp_path, world_bytes)
    execute(path, "DELETE FROM meta WHERE key = 'game_mode'")
    edit_meta(path, format_version="4", player_state="null")  # a players table in a format 4 file
    with pytest.raises(UnexpectedSchemaError, match="it holds table 'players'"):
        World.open(path, workers=1)
    path = copy(tmp_path, world_bytes)
    execute(path, "DROP TABLE players")  # format 6 without its players table
    with pytest.raises(UnexpectedSchemaError, match="it lacks or has changed table 'players'"):
        World.open(path, workers=1)
    path = copy(tmp_path, world_bytes)
    edit_meta(path, player_state="null")  # format 6 with the meta row format 4 had
    with pytest.raises(CorruptWorldError, match="not the keys format version 6 writes"):
        World.open(path, workers=1)


def test_a_players_row_changed_by_hand_is_read_as_it_stands(tmp_path, world_bytes):
    # The checksum guards the meta rows; a players row is checked by its value alone (like a column's blocks).
    path = copy(tmp_path, world_bytes)
    execute(path, "UPDATE players SET state = ? WHERE name = 'alice'", params=(json.dumps({"yaw": 5.0}),))
    with World.open(path, workers=1) as world:
        assert world.saved_player_state("alice") == {"yaw": 5.0}
