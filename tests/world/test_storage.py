"""World files: edits and player state survive save/open; bad, foreign, newer and locked files give
their clear error without being changed; a kill in the middle of a save loses nothing saved before."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from game.world import (CorruptWorldError, ForeignFileError, NewerFormatError, World, WorldExistsError,
                        WorldFileError, WorldInUseError, WorldNotFoundError)
from game.world.storage import FORMAT_VERSION
from game.world.terrain import Terrain

from .conftest import SEED, edit_meta, fingerprint

ROOT = Path(__file__).resolve().parents[2]


def saved_world(path: Path, edits: int = 3) -> Path:
    with World.create(path, seed=SEED, workers=1) as world:
        for i in range(edits):
            world.set_block(16 * i - 20, 100, -5, "brick")
    return path


def test_edited_blocks_survive_save_and_open(tmp_path):
    path = tmp_path / "w.db"
    world = World.create(path, seed=SEED, workers=1)
    edits = {(-1, 0, -1): "glass", (17, 255, -33): "fence", (5, 63, 5): "air", (-300, 80, 299): "stairs_east"}
    for (x, y, z), name in edits.items():
        world.set_block(x, y, z, name)
    world.save()
    world.close()
    reopened = World.open(path, workers=1)
    for (x, y, z), name in edits.items():
        assert reopened.get_block(x, y, z) == name
    edited = reopened.column(-1, -1)
    expected = Terrain(SEED).column(-1, -1)
    expected[15, 0, 15] = 11  # glass
    assert np.array_equal(edited, expected)
    reopened.close()


def test_only_edited_columns_are_stored(tmp_path):
    path = tmp_path / "w.db"
    with World.create(path, seed=SEED, workers=1) as world:
        for cx in range(-3, 3):
            world.column(cx, 0)  # generated, not edited
        world.set_block(40, 100, 40, "brick")
    db = sqlite3.connect(path)
    assert db.execute("SELECT cx, cz FROM columns").fetchall() == [(2, 2)]
    db.close()


def test_unsaved_edits_are_dropped_by_close(tmp_path):
    path = saved_world(tmp_path / "w.db", edits=0)
    world = World.open(path, workers=1)
    world.set_block(0, 100, 0, "brick")
    world.close()
    with World.open(path, workers=1) as reopened:
        assert reopened.get_block(0, 100, 0) == "air"


def test_player_state_floats_round_trip_exactly(tmp_path):
    path = tmp_path / "w.db"
    state = {"box": [0.1 + 0.2, 64.00000000000001, -1e-300, 0.7 + 1 / 3, 65.8, 5e-324],
             "velocity": [-0.0784000015258789, 0.0, 1.7976931348623157e308], "yaw": 271.3, "pitch": -89.9,
             "hotbar": ["stone", "glass", None], "selected": 2}
    with World.create(path, seed=SEED, workers=1) as world:
        assert world.player_state is None
        world.player_state = state
    with World.open(path, workers=1) as reopened:
        assert reopened.player_state == state
        assert [v.hex() for v in reopened.player_state["box"]] == [v.hex() for v in state["box"]]


def test_metadata_keeps_seed_spawn_and_creation_time(tmp_path):
    path = tmp_path / "w.db"
    created = World.create(path, seed=-12345, workers=1)
    seed, spawn, created_at = created.seed, created.spawn, created.created_at
    created.close()
    with World.open(path, workers=1) as reopened:
        assert (reopened.seed, reopened.spawn, reopened.created_at) == (seed, spawn, created_at)
    db = sqlite3.connect(path)
    meta = {key: json.loads(value) for key, value in db.execute("SELECT key, value FROM meta")}
    db.close()
    assert meta["format_version"] == FORMAT_VERSION and meta["seed"] == -12345


def test_a_player_state_that_is_not_json_is_refused_when_set(world):
    for bad in ({"box": float("nan")}, {"thing": object()}, ["not", "a", "dict"]):
        with pytest.raises((ValueError, TypeError), match="player_state"):
            world.player_state = bad
    assert world.player_state is None


def test_create_refuses_a_path_where_something_exists(tmp_path):
    path = tmp_path / "w.db"
    path.write_bytes(b"precious")
    with pytest.raises(WorldExistsError, match="already there"):
        World.create(path)
    assert path.read_bytes() == b"precious"


def test_create_in_a_missing_folder_says_so(tmp_path):
    with pytest.raises(WorldFileError, match="does not exist"):
        World.create(tmp_path / "no" / "w.db")
    assert list(tmp_path.iterdir()) == []


def test_open_of_a_missing_world_says_so(tmp_path):
    with pytest.raises(WorldNotFoundError, match="no world at"):
        World.open(tmp_path / "nothing.db")
    assert list(tmp_path.iterdir()) == []


def assert_open_fails_unchanged(path: Path, error: type, message: str) -> None:
    before = fingerprint(path)
    with pytest.raises(error, match=message):
        World.open(path, workers=1)
    assert fingerprint(path) == before


@pytest.mark.parametrize("keep", [0, 10, 99, 4096, 0.5])
def test_a_truncated_world_is_reported_as_corrupt_and_left_alone(tmp_path, keep):
    path = saved_world(tmp_path / "w.db", edits=40)
    data = path.read_bytes()
    path.write_bytes(data[:int(len(data) * keep) if isinstance(keep, float) else keep])
    assert_open_fails_unchanged(path, CorruptWorldError, "empty|truncated")


def test_a_garbage_file_is_reported_as_corrupt_and_left_alone(tmp_path):
    path = tmp_path / "w.db"
    path.write_bytes(np.random.default_rng(3).bytes(20_000))
    assert_open_fails_unchanged(path, CorruptWorldError, "does not start with an SQLite header")


def test_a_world_with_a_garbled_header_is_reported_as_corrupt_and_left_alone(tmp_path):
    path = saved_world(tmp_path / "w.db")
    data = bytearray(path.read_bytes())
    data[16:18] = b"\x00\x07"  # page size 7
    path.write_bytes(bytes(data))
    assert_open_fails_unchanged(path, CorruptWorldError, "page size")


def assert_served_from_the_seed_and_reported(world: World, message: str) -> None:
    """Column (-2, -1), whose saved brick is at (-20, 100, -5), reads as the seed's, reported once naming it."""
    assert world.get_block(-20, 100, -5) == "air"
    assert np.array_equal(world.column(-2, -1), Terrain(SEED).column(-2, -1))
    [problem] = world.take_problems()
    assert problem.column == (-2, -1) and problem.part == "blocks"
    assert re.search(message, problem.message), problem.message
    assert world.damaged_columns == {(-2, -1)}
    world.unload_columns_outside(1000, 1000, 0)
    world.get_block(-20, 100, -5)
    assert world.take_problems() == []


def test_a_damaged_column_reads_as_generated_from_the_seed_and_is_reported_once(tmp_path):
    path = saved_world(tmp_path / "w.db")
    db = sqlite3.connect(path)
    db.execute("UPDATE columns SET blocks = x'00112233' WHERE cx = -2")
    db.commit()
    db.close()
    with World.open(path, workers=1) as world:
        assert_served_from_the_seed_and_reported(world, r"column \(-2, -1\) is damaged")
        assert world.get_block(12, 100, -5) == "brick"  # the undamaged columns still load


def assert_every_open_fails_unchanged(path: Path, message: str) -> None:
    """Two opens in a row give the same CorruptWorldError: the first released the file (no WorldInUseError)."""
    for _ in range(2):
        assert_open_fails_unchanged(path, CorruptWorldError, message)


def test_a_world_without_its_columns_table_is_reported_as_corrupt_every_time_and_left_alone(tmp_path):
    path = saved_world(tmp_path / "w.db")
    db = sqlite3.connect(path)
    db.execute("DROP TABLE columns")
    db.commit()
    db.close()
    assert_every_open_fails_unchanged(path, "lacks or has changed table 'columns'")


def test_a_corrupt_page_in_the_middle_of_a_world_is_reported_as_corrupt_every_time_and_left_alone(tmp_path):
    path = saved_world(tmp_path / "w.db", edits=40)
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    middle = len(data) // page_size // 2 * page_size
    data[middle:middle + page_size] = np.random.default_rng(5).bytes(page_size)
    path.write_bytes(bytes(data))
    assert_every_open_fails_unchanged(path, "is damaged")


def test_a_world_whose_seed_is_not_a_64_bit_int_is_reported_as_corrupt(tmp_path):
    path = saved_world(tmp_path / "w.db")
    edit_meta(path, seed=str(2 ** 64))  # with a checksum that matches: the value check still refuses it
    assert_every_open_fails_unchanged(path, "its seed 18446744073709551616 is not an int")


class FailingConnection:
    """Stands in for a world's database connection that fails every statement, as a damaged page would."""

    def execute(self, *args):
        raise sqlite3.DatabaseError("database disk image is malformed")

    def close(self) -> None:
        pass


def test_a_column_the_database_cannot_read_is_served_from_the_seed_and_reported_naming_the_column(tmp_path):
    path = saved_world(tmp_path / "w.db")
    with World.open(path, workers=1) as world:
        world._file._db, connection = FailingConnection(), world._file._db
        try:
            assert_served_from_the_seed_and_reported(world, r"column \(-2, -1\) is damaged: database disk image")
        finally:
            world._file._db = connection


def test_a_column_stored_as_something_other_than_bytes_is_served_from_the_seed_and_reported(tmp_path):
    path = saved_world(tmp_path / "w.db")
    db = sqlite3.connect(path)
    db.execute("UPDATE columns SET blocks = 12345 WHERE cx = -2")
    db.commit()
    db.close()
    with World.open(path, workers=1) as world:
        assert_served_from_the_seed_and_reported(world, r"column \(-2, -1\) is damaged: column data is stored as int")


def test_another_programs_sqlite_file_is_reported_as_foreign_and_left_alone(tmp_path):
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (text TEXT)")
    db.execute("INSERT INTO notes VALUES ('hello')")
    db.commit()
    db.close()
    assert_open_fails_unchanged(path, ForeignFileError, "not a Boxel world")


def test_a_world_from_a_newer_format_is_refused_and_left_alone(tmp_path):
    path = saved_world(tmp_path / "w.db")
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = ? WHERE key = 'format_version'", (str(FORMAT_VERSION + 1),))
    db.commit()
    db.close()
    assert_open_fails_unchanged(path, NewerFormatError, f"format version {FORMAT_VERSION + 1}, newer")


@contextlib.contextmanager
def python_child(code: str) -> Iterator[subprocess.Popen]:
    """Run `code` in another Python process (text pipes to its stdin and stdout); on the way out it
    is killed if still running, waited for and its pipes closed, so a failed assert never leaves it
    holding the world."""
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, stdout=subprocess.PIPE,
                             stdin=subprocess.PIPE, text=True)
    try:
        yield child
    finally:
        child.kill()  # harmless when it has already exited
        child.wait(timeout=30)
        child.stdin.close()
        child.stdout.close()


def brick_row_world(path: Path, columns: int) -> Path:
    """A saved world with a brick at y = 120 in each of `columns` columns along +x (the kill tests' old save)."""
    with World.create(path, seed=SEED, workers=1) as world:
        for i in range(columns):
            world.set_block(16 * i, 120, 0, "brick")
    return path


def bricks_or_planks(path: Path, columns: int) -> set[str]:
    """The blocks found where `brick_row_world` put its bricks."""
    with World.open(path, workers=1) as world:
        return {world.get_block(16 * i, 120, 0) for i in range(columns)}


def test_a_world_open_in_another_process_is_reported_in_use_and_left_alone(tmp_path):
    path = saved_world(tmp_path / "w.db")
    with python_child(f"""
        import sys
        from game.world import World
        world = World.open({str(path)!r}, workers=1)
        print("open", flush=True)
        sys.stdin.read()
        world.close()
    """) as holder:
        assert holder.stdout.readline().strip() == "open"
        assert_open_fails_unchanged(path, WorldInUseError, "in use")
        holder.stdin.close()
        assert holder.wait(timeout=30) == 0
    World.open(path, workers=1).close()  # free again once the other process closed it


def test_a_world_open_in_this_process_is_in_use_too(world):
    with pytest.raises(WorldInUseError):
        World.open(world.path, workers=1)


def test_a_kill_in_the_middle_of_a_save_keeps_the_previous_save_whole(tmp_path):
    columns = 300
    path = brick_row_world(tmp_path / "w.db", columns)
    with python_child(f"""
        import time
        from game.world import World, storage
        world = World.open({str(path)!r}, workers=1)
        for i in range({columns}):
            world.set_block(16 * i, 120, 0, "planks")
        world._file._db.execute("PRAGMA cache_size=8")  # spill the open transaction into the WAL file early
        encode, written = storage.encode_column, []
        def encode_then_stall(column):
            written.append(1)
            if len(written) == {columns // 2}:
                print("halfway", flush=True)
                time.sleep(60)
            return encode(column)
        storage.encode_column = encode_then_stall
        world.save()
    """) as saver:
        assert saver.stdout.readline().strip() == "halfway"
        assert Path(f"{path}-wal").stat().st_size > 0  # uncommitted pages reached the disk
        os.kill(saver.pid, signal.SIGKILL)
        saver.wait(timeout=30)
    assert bricks_or_planks(path, columns) == {"brick"}


def test_a_kill_at_any_moment_of_a_save_leaves_the_old_or_the_new_edits_never_a_mix(tmp_path):
    columns = 200
    path = brick_row_world(tmp_path / "w.db", columns)
    outcomes = set()
    for delay in (0.0, 0.02, 0.05, 0.1):
        with python_child(f"""
            import sys
            from game.world import World
            world = World.open({str(path)!r}, workers=1)
            for i in range({columns}):
                world.set_block(16 * i, 120, 0, world.get_block(16 * i, 120, 0) == "brick" and "planks" or "brick")
            print("saving", flush=True)
            world.save()
            print("saved", flush=True)
            sys.stdin.read()
        """) as saver:
            assert saver.stdout.readline().strip() == "saving"
            time.sleep(delay)
            os.kill(saver.pid, signal.SIGKILL)
            saver.wait(timeout=30)
        found = bricks_or_planks(path, columns)
        assert len(found) == 1, found
        outcomes |= found
    assert outcomes <= {"brick", "planks"}


def test_column_entities_survive_a_save_and_reopen(tmp_path):
    from game.world import World
    path = tmp_path / "mobs.boxel"
    mob = {"kind": "boxling", "box": [0.1, 64.0, 0.2, 1.0, 64.9, 1.1], "yaw": 12.5}
    with World.create(path, seed=3, workers=1) as world:
        world.set_column_entities(0, -1, [mob])
        world.set_column_entities(5, 5, [mob, mob])
        assert world.column_entities(0, -1) == [mob]
    with World.open(path, workers=1) as world:
        assert world.column_entities(0, -1) == [mob]
        assert world.column_entities(5, 5) == [mob, mob]
        assert world.column_entities(1, 1) == []
        world.set_column_entities(5, 5, [])
    with World.open(path, workers=1) as world:
        assert world.column_entities(5, 5) == []


def test_column_entities_that_json_cannot_hold_are_refused_at_once(tmp_path):
    from game.world import World
    with World.create(tmp_path / "bad.boxel", seed=3, workers=1) as world:
        for bad in ([{"x": float("nan")}], [1, 2], {"a": 1}, [{"f": object()}]):
            with pytest.raises(ValueError, match="entities"):
                world.set_column_entities(0, 0, bad)
        assert world.column_entities(0, 0) == []


def test_a_version_1_world_without_an_entities_table_opens_and_is_upgraded_by_its_first_save(tmp_path):
    import json
    import sqlite3

    from game.world import World
    from game.world.storage import FORMAT_VERSION
    path = tmp_path / "old.boxel"
    with World.create(path, seed=5, workers=1) as world:
        world.set_block(1, 100, 1, "brick")
    db = sqlite3.connect(path)  # make it what format 1 wrote: no entities, damaged_columns or checksum
    db.execute("DROP TABLE entities")
    db.execute("DROP TABLE damaged_columns")
    db.execute("DROP TABLE block_updates")
    db.execute("DROP TABLE players")
    db.execute("INSERT INTO meta VALUES ('player_state', 'null')")
    db.execute("DELETE FROM meta WHERE key = 'world_ticks'")
    db.execute("DELETE FROM meta WHERE key = 'game_mode'")
    db.execute("DELETE FROM meta WHERE key = 'meta_sha256'")
    db.execute("UPDATE meta SET value = '1' WHERE key = 'format_version'")
    db.commit()
    db.close()
    mob = {"kind": "boxling", "yaw": 1.0}
    with World.open(path, workers=1) as world:
        assert world.get_block(1, 100, 1) == "brick"
        assert world.column_entities(0, 0) == []
        world.set_column_entities(0, 0, [mob])
    with World.open(path, workers=1) as world:
        assert world.column_entities(0, 0) == [mob]
        assert world.get_block(1, 100, 1) == "brick"
    db = sqlite3.connect(path)
    assert json.loads(db.execute("SELECT value FROM meta WHERE key = 'format_version'").fetchone()[0]) == FORMAT_VERSION
    db.close()
