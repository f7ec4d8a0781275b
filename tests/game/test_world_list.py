"""The world catalogue (`game.world_list`), headless: listing the worlds folder newest first with each
world's seed, last write and size; unusable files listed with their reason; creating, renaming and
deleting worlds, with bad input refused and nothing changed."""

from __future__ import annotations

import os
import sqlite3

import pytest

from game import world_list
from game.world import World
from game.world.file_errors import WorldInUseError
from game.world_list import WorldEntry


@pytest.fixture(autouse=True)
def user_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("BOXEL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("BOXEL_CONFIG_DIR", str(tmp_path / "config"))


@pytest.fixture
def folder(tmp_path):
    made = tmp_path / "data" / "worlds"
    made.mkdir(parents=True)
    return made


def make_world(folder, name: str, seed: int, mtime: float | None = None):
    path = folder / f"{name}.boxel"
    World.create(path, seed, workers=1).close()
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def snapshot(folder) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def test_the_worlds_folder_is_worlds_in_the_data_folder(tmp_path):
    assert world_list.worlds_folder() == tmp_path / "data" / "worlds"


def test_a_missing_worlds_folder_lists_no_worlds(tmp_path):
    assert world_list.list_worlds(tmp_path / "nowhere") == []


def test_worlds_are_listed_newest_first_with_their_seed_last_write_and_size(folder):
    make_world(folder, "old", 11, mtime=1_000_000.0)
    make_world(folder, "newest", -3, mtime=3_000_000.0)
    make_world(folder, "middle", 7, mtime=2_000_000.0)
    (folder / "notes.txt").write_text("not a world")
    (folder / "folder.boxel").mkdir()
    entries = world_list.list_worlds()
    assert [(e.name, e.seed, e.last_played, e.readable) for e in entries] == [
        ("newest", -3, 3_000_000.0, True), ("middle", 7, 2_000_000.0, True), ("old", 11, 1_000_000.0, True)]
    assert entries[0].size_bytes == (folder / "newest.boxel").stat().st_size
    assert entries[0].path == folder / "newest.boxel"


def test_listing_writes_nothing_and_leaves_every_file_as_it_was(folder):
    make_world(folder, "a", 1, mtime=1_000_000.0)
    before = snapshot(folder), (folder / "a.boxel").stat().st_mtime
    world_list.list_worlds()
    assert (snapshot(folder), (folder / "a.boxel").stat().st_mtime) == before


@pytest.mark.parametrize("content, reason", [
    (b"", "is empty (0 bytes)"),
    (b"this is not a world" * 20, "does not start with an SQLite header"),
    (b"SQLite format 3\x00" + b"\x00" * 10, "truncated"),
])
def test_a_damaged_file_is_listed_as_unreadable_with_the_reason(folder, content, reason):
    make_world(folder, "good", 5)
    (folder / "broken.boxel").write_bytes(content)
    entries = {entry.name: entry for entry in world_list.list_worlds()}
    assert entries["good"].readable and entries["good"].seed == 5
    broken = entries["broken"]
    assert broken.seed is None and not broken.readable
    assert reason in broken.problem and str(folder) not in broken.problem


def test_another_programs_database_is_listed_as_not_a_boxel_world(folder):
    db = sqlite3.connect(folder / "foreign.boxel")
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    (entry,) = world_list.list_worlds()
    assert entry.name == "foreign" and "not a Boxel world" in entry.problem


def test_a_world_a_game_holds_is_listed_as_in_use(folder):
    path = folder / "busy.boxel"
    with World.create(path, 9, workers=1):
        (entry,) = world_list.list_worlds()
    assert entry.seed is None and "in use" in entry.problem


@pytest.mark.parametrize("name, file_name", [
    ("My World", "My World.boxel"), ("  padded  ", "padded.boxel"), ("a/b\\c:d*e?f", "a_b_c_d_e_f.boxel"),
    ("..", "_.boxel"), (".hidden", "_hidden.boxel"), ("con", "con_.boxel"),
    ("Ünïcode 世界", "Ünïcode 世界.boxel"),
])
def test_a_name_becomes_a_safe_file_name(name, file_name):
    assert world_list.file_name_for(name) == file_name


@pytest.mark.parametrize("name", ["", "   ", "x" * 65, "tab\there", "new\nline", "nul\x00"])
def test_a_bad_name_is_a_value_error(name):
    with pytest.raises(ValueError):
        world_list.file_name_for(name)


def test_a_name_that_is_not_text_is_a_type_error():
    with pytest.raises(TypeError):
        world_list.file_name_for(42)


def test_create_makes_a_world_with_the_seed_under_a_unique_file_name(folder):
    first = world_list.create("Castle", seed=42)
    second = world_list.create("Castle", seed=43)
    assert (first.name, first.seed, first.path) == ("Castle", 42, folder / "Castle.boxel")
    assert (second.name, second.seed, second.path) == ("Castle (2)", 43, folder / "Castle (2).boxel")
    with World.open(second.path, workers=1) as world:
        assert world.seed == 43


def test_create_without_a_seed_picks_one(folder):
    entry = world_list.create("Random")
    assert entry.readable and isinstance(entry.seed, int)


def test_create_makes_the_worlds_folder_when_it_is_missing(tmp_path):
    entry = world_list.create("First", seed=1)
    assert entry.path == tmp_path / "data" / "worlds" / "First.boxel"


@pytest.mark.parametrize("name, seed", [("", 1), ("ok", 2 ** 63), ("ok", 1.5), ("ok", True), ("ok", "7")])
def test_create_refuses_a_bad_name_or_seed_and_makes_nothing(folder, name, seed):
    with pytest.raises(ValueError):
        world_list.create(name, seed=seed)
    assert list(folder.iterdir()) == []


def test_rename_moves_the_world_and_keeps_its_seed(folder):
    path = make_world(folder, "before", 8)
    entry = world_list.rename(path, "after")
    assert (entry.name, entry.seed, entry.path) == ("after", 8, folder / "after.boxel")
    assert sorted(p.name for p in folder.iterdir()) == ["after.boxel"]


def test_rename_moves_sqlites_files_beside_the_world_with_it(folder):
    path = make_world(folder, "before", 8)
    (folder / "before.boxel-journal").write_bytes(b"")
    world_list.rename(path, "after")
    assert sorted(p.name for p in folder.iterdir()) == ["after.boxel", "after.boxel-journal"]


def test_rename_to_its_own_name_changes_nothing(folder):
    path = make_world(folder, "same", 8)
    before = snapshot(folder)
    assert world_list.rename(path, " same ").path == path
    assert snapshot(folder) == before


@pytest.mark.parametrize("new_name", ["", "x" * 65, "bad\x07"])
def test_rename_to_a_bad_name_is_refused_and_changes_nothing(folder, new_name):
    path = make_world(folder, "keep", 8)
    before = snapshot(folder)
    with pytest.raises(ValueError):
        world_list.rename(path, new_name)
    assert snapshot(folder) == before


def test_rename_to_the_name_of_another_world_is_refused_and_changes_nothing(folder):
    path = make_world(folder, "one", 1)
    make_world(folder, "two", 2)
    before = snapshot(folder)
    with pytest.raises(ValueError, match="already a world named 'two'"):
        world_list.rename(path, "two")
    assert snapshot(folder) == before


def test_rename_and_delete_refuse_a_world_a_game_holds(folder):
    path = folder / "busy.boxel"
    with World.create(path, 9, workers=1):
        with pytest.raises(WorldInUseError):
            world_list.rename(path, "other")
        with pytest.raises(WorldInUseError):
            world_list.delete(path)
    assert sorted(p.name for p in folder.iterdir() if p.name.endswith(".boxel")) == ["busy.boxel"]


def test_delete_removes_the_world_and_its_write_ahead_log_only(folder):
    path = make_world(folder, "gone", 1)
    make_world(folder, "stays", 2)
    (folder / "gone.boxel-wal").write_bytes(b"")
    world_list.delete(path)
    assert sorted(p.name for p in folder.iterdir()) == ["stays.boxel"]


def test_a_damaged_world_can_be_deleted(folder):
    (folder / "broken.boxel").write_bytes(b"junk")
    world_list.delete(folder / "broken.boxel")
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("name", ["notes.txt", "missing.boxel", ".boxel"])
def test_delete_refuses_a_path_that_is_no_world_file(folder, name):
    (folder / "notes.txt").write_text("keep me")
    with pytest.raises(ValueError):
        world_list.delete(folder / name)
    assert (folder / "notes.txt").read_text() == "keep me"


def test_an_entry_is_a_frozen_value():
    entry = WorldEntry("w", world_list.worlds_folder() / "w.boxel", 1, 0.0, 0)
    with pytest.raises(AttributeError):
        entry.name = "other"  # type: ignore[misc]
