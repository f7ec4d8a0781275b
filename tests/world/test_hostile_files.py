"""Hostile world files: a schema object Boxel does not create, a changed metadata byte, a column blob that
inflates to gigabytes, and a FIFO, device or folder in place of the file. Each is refused with its
clear error (or, for a column, read as damaged), nothing stored in the file runs, and the file is
left as it was."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
import tracemalloc
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from game.frontends import cli
from game.world import (CorruptWorldError, NotAFileError, UnexpectedSchemaError, World, WorldExistsError,
                        WorldFileError)
from game.world.column import MAX_BYTES, Column, ColumnDataError
from game.world.file_format import CHECKSUM_KEY, FORMAT_VERSION
from game.world.storage import MAX_STORED_COLUMN_BYTES, decode_column, encode_column
from game.world.terrain import Terrain

from .conftest import SEED, edit_meta, fingerprint

ROOT = Path(__file__).resolve().parents[2]
CHILD_TIMEOUT_S = 60.0
"""[s] Only stops a hang: an open in a fresh process takes well under a second."""
HOSTILE_EXAMPLES = 40
"""Hypothesis examples per property: each writes and opens a small world file (a few ms)."""


def saved_world(path: Path, seed: int = SEED) -> Path:
    """A closed world with a brick in column (-2, -1) at (-20, 100, -5) and mobs saved in column (0, 0)."""
    with World.create(path, seed=seed, workers=1) as world:
        world.set_block(-20, 100, -5, "brick")
        world.set_column_entities(0, 0, [{"kind": "boxling", "yaw": 1.0}])
    return path


@pytest.fixture(scope="module")
def world_bytes(tmp_path_factory) -> bytes:
    """The bytes of one saved world, copied by the tests that alter it."""
    return saved_world(tmp_path_factory.mktemp("hostile") / "base.boxel").read_bytes()


def altered(folder: Path, world_bytes: bytes, *statements: str) -> Path:
    """A copy of the saved world with `statements` run on it by another program (plain sqlite3)."""
    path = folder / "altered.boxel"
    path.unlink(missing_ok=True)
    path.write_bytes(world_bytes)
    db = sqlite3.connect(path)
    db.executescript(";".join(statements))
    db.commit()
    db.close()
    return path


def open_in_child(path: Path) -> str:
    """Open the world at `path` in another process, which prints "opened" or the error's class and message.
    A hang fails the test after CHILD_TIMEOUT_S instead of stopping the suite."""
    code = textwrap.dedent(f"""
        from game.world import World
        try:
            World.open({str(path)!r}, workers=1).close()
            print("opened")
        except Exception as error:
            print(type(error).__name__ + ": " + str(error))
    """)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=CHILD_TIMEOUT_S)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


# --- A1: only Boxel's own schema is used ----------------------------------------------------------------


def test_a_trigger_stored_in_the_world_file_is_refused_at_open_and_never_runs(tmp_path, world_bytes):
    path = altered(tmp_path, world_bytes, "CREATE TRIGGER wipe AFTER UPDATE ON meta BEGIN DELETE FROM meta; END")
    before = fingerprint(path)
    with pytest.raises(UnexpectedSchemaError, match="trigger 'wipe'"):
        World.open(path, workers=1)
    assert fingerprint(path) == before
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM meta").fetchone()[0] == 7  # the six values and the checksum
    db.close()


def test_a_view_in_place_of_the_meta_table_is_refused_without_being_read(tmp_path, world_bytes):
    endless = ("CREATE VIEW meta AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)"
               " SELECT 'format_version' AS key, '3' AS value FROM n WHERE i < 0")  # never ends if read
    path = altered(tmp_path, world_bytes, "DROP TABLE meta", endless)
    assert open_in_child(path).startswith("UnexpectedSchemaError: ")
    assert "meta table is not Boxel's (view 'meta')" in open_in_child(path)


SCHEMA_ADDITIONS = {
    "trigger": "CREATE TRIGGER {name} BEFORE INSERT ON columns BEGIN DELETE FROM columns; END",
    "view": "CREATE VIEW {name} AS SELECT * FROM columns",
    "index": "CREATE INDEX {name} ON columns (blocks)",
    "table": "CREATE TABLE {name} (x)",
    "changed table": "ALTER TABLE columns ADD COLUMN {name} DEFAULT 1",
    "statistics": "ANALYZE",
}


@settings(max_examples=HOSTILE_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(sorted(SCHEMA_ADDITIONS)),
       name=st.from_regex(r"[a-z][a-z0-9_]{0,12}", fullmatch=True).filter(
           lambda n: n not in {"meta", "columns", "entities", "damaged_columns"} and not n.startswith("sqlite")))
def test_any_schema_object_boxel_does_not_create_is_refused_and_the_file_left_alone(tmp_path, world_bytes, kind, name):
    path = altered(tmp_path, world_bytes, SCHEMA_ADDITIONS[kind].format(name=name))
    before = fingerprint(path)
    with pytest.raises(UnexpectedSchemaError, match="changed by another program"):
        World.open(path, workers=1)
    assert fingerprint(path) == before


# --- A2: the metadata carries a checksum -----------------------------------------------------------------


def test_one_changed_byte_of_the_seed_on_disk_is_refused_instead_of_opening_another_world(tmp_path):
    seed = 8_675_309_123_456_789
    path = saved_world(tmp_path / "w.boxel", seed=seed)
    data = bytearray(path.read_bytes())
    assert data.count(str(seed).encode()) == 1
    where = data.index(str(seed).encode()) + 5
    data[where] ^= 0x01  # '1' -> '0': still a valid seed
    path.write_bytes(bytes(data))
    before = fingerprint(path)
    with pytest.raises(CorruptWorldError, match="does not match its checksum"):
        World.open(path, workers=1)
    assert fingerprint(path) == before


def meta_texts(world_bytes: bytes, folder: Path) -> dict[str, str]:
    path = folder / "read.boxel"
    path.write_bytes(world_bytes)
    db = sqlite3.connect(path)
    rows = dict(db.execute("SELECT key, value FROM meta").fetchall())
    db.close()
    path.unlink()
    return rows


@settings(max_examples=HOSTILE_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_changed_byte_of_any_meta_value_is_refused(tmp_path, world_bytes, data):
    texts = meta_texts(world_bytes, tmp_path)
    key = data.draw(st.sampled_from(sorted(texts)))
    text = texts[key]
    at = data.draw(st.integers(0, len(text) - 1))
    replacement = data.draw(st.characters(min_codepoint=32, max_codepoint=126))
    assume(replacement != text[at])
    path = altered(tmp_path, world_bytes, f"UPDATE meta SET value = {sql_text(text[:at] + replacement + text[at + 1:])}"
                                          f" WHERE key = {sql_text(key)}")
    before = fingerprint(path)
    with pytest.raises(WorldFileError):  # the checksum, or NewerFormatError for a larger format version
        World.open(path, workers=1)
    assert fingerprint(path) == before


def sql_text(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def test_a_current_world_without_its_checksum_is_refused(tmp_path, world_bytes):
    path = altered(tmp_path, world_bytes, f"DELETE FROM meta WHERE key = '{CHECKSUM_KEY}'")
    with pytest.raises(CorruptWorldError, match=f"not the keys format version {FORMAT_VERSION} writes"):
        World.open(path, workers=1)


def test_a_current_world_relabelled_as_an_older_version_is_refused(tmp_path, world_bytes):
    path = tmp_path / "w.boxel"
    path.write_bytes(world_bytes)
    edit_meta(path, format_version="2")  # even with a checksum that matches the new label
    with pytest.raises(UnexpectedSchemaError, match="it holds table 'block_updates', table 'damaged_columns'"):
        World.open(path, workers=1)


def test_a_version_2_world_opens_and_its_first_save_adds_a_checksum_that_guards_it(tmp_path, world_bytes):
    as_version_2 = ("DROP TABLE damaged_columns", "DROP TABLE block_updates", "DROP TABLE players",
                    "INSERT INTO meta VALUES ('player_state', 'null')", "DELETE FROM meta WHERE key = 'world_ticks'",
                    "DELETE FROM meta WHERE key = 'game_mode'",
                    f"DELETE FROM meta WHERE key = '{CHECKSUM_KEY}'",
                    "UPDATE meta SET value = '2' WHERE key = 'format_version'")
    path = altered(tmp_path, world_bytes, *as_version_2)
    with World.open(path, workers=1) as world:
        assert world.get_block(-20, 100, -5) == "brick"
        world.set_block(0, 120, 0, "glass")
    db = sqlite3.connect(path)
    assert json.loads(db.execute("SELECT value FROM meta WHERE key = 'format_version'").fetchone()[0]) == FORMAT_VERSION
    db.execute("UPDATE meta SET value = '43' WHERE key = 'seed'")
    db.commit()
    db.close()
    with pytest.raises(CorruptWorldError, match="checksum"):
        World.open(path, workers=1)


@pytest.mark.parametrize("key", ["seed", "spawn"])  # a saved player's: tests/world/test_players_saved.py
def test_meta_json_nested_too_deep_for_python_is_reported_as_damage(tmp_path, world_bytes, key):
    path = tmp_path / "w.boxel"
    path.write_bytes(world_bytes)
    edit_meta(path, **{key: "[" * 100_000 + "]" * 100_000})
    with pytest.raises(CorruptWorldError, match=f"meta value '{key}' is not JSON"):
        World.open(path, workers=1)


# --- A3: decompression is bounded -------------------------------------------------------------------------


def zlib_bomb(megabytes: int) -> bytes:
    """A zlib stream of about 1 KB per MB that inflates to `megabytes` MB of zeros (no end: a reader
    that stops at its limit never needs one). Each full flush resets deflate, so the blocks repeat."""
    deflater = zlib.compressobj(9)
    zeros = bytes(1 << 20)
    first = deflater.compress(zeros) + deflater.flush(zlib.Z_FULL_FLUSH)
    repeated = deflater.compress(zeros) + deflater.flush(zlib.Z_FULL_FLUSH)
    return first + repeated * (megabytes - 1)


def test_a_1_mb_column_blob_that_inflates_to_1_gb_is_refused_without_inflating_it():
    bomb = zlib_bomb(1024)
    assert len(bomb) < 1_100_000
    tracemalloc.start()
    try:
        with pytest.raises(ColumnDataError, match=f"more than any stored column \\({MAX_STORED_COLUMN_BYTES}\\)"):
            decode_column(bomb)
        _, peak_bytes = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak_bytes < 4 * MAX_BYTES


def test_a_stored_column_blob_that_inflates_past_the_longest_column_is_read_as_damage_holding_little_memory(tmp_path):
    path = saved_world(tmp_path / "w.boxel")
    bomb = zlib_bomb(100)  # ~100 KB, under the stored-blob limit: the inflation itself must stop
    assert len(bomb) <= MAX_STORED_COLUMN_BYTES
    db = sqlite3.connect(path)
    db.execute("UPDATE columns SET blocks = ? WHERE cx = -2 AND cz = -1", (bomb,))
    db.commit()
    db.close()
    with World.open(path, workers=1) as world:
        tracemalloc.start()
        try:
            assert world.get_block(-20, 100, -5) == "air"  # served from the seed
            _, peak_bytes = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        [problem] = world.take_problems()
    assert f"decompresses to more than {MAX_BYTES} bytes" in problem.message
    assert peak_bytes < 16 * MAX_BYTES  # the seed's column and one bounded inflation, not 100 MB


@pytest.mark.parametrize("blob, message", [
    (encode_column(Column.from_ids(Terrain(SEED).column(0, 0)))[:-5], "cut short"),
    (encode_column(Column.from_ids(Terrain(SEED).column(0, 0))) + b"extra", "5 bytes after"),
    (b"x" * (MAX_STORED_COLUMN_BYTES + 1), "more than any stored column"),
])
def test_a_cut_padded_or_overlong_column_blob_is_refused(blob, message):
    with pytest.raises(ColumnDataError, match=message):
        decode_column(blob)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.binary(max_size=2000),
                 st.binary(max_size=MAX_BYTES + 64).map(zlib.compress),
                 st.tuples(st.binary(max_size=3000), st.integers(0, 2999), st.integers(0, 7)).map(
                     lambda t: flip_bit(encode_column(Column.from_ids(Terrain(SEED).column(1, 1))), t[1], t[2]))))
def test_any_blob_decodes_to_a_column_or_a_column_data_error_never_more(blob):
    try:
        column = decode_column(blob)
    except ColumnDataError:
        return
    assert len(column.to_bytes()) <= MAX_BYTES
    assert decode_column(encode_column(column)).to_bytes() == column.to_bytes()


def flip_bit(blob: bytes, at: int, bit: int) -> bytes:
    flipped = bytearray(blob)
    flipped[at % len(flipped)] ^= 1 << bit
    return bytes(flipped)


# --- A4: only regular files are opened --------------------------------------------------------------------


def test_a_fifo_in_place_of_the_world_is_refused_at_once_without_being_opened(tmp_path):
    fifo = tmp_path / "w.boxel"
    os.mkfifo(fifo)
    assert open_in_child(fifo) == f"NotAFileError: {fifo} is a FIFO (named pipe), not a world file: " \
                                  "Boxel opens only regular files"


def test_a_fifo_or_a_device_is_refused_from_its_type_without_being_opened(tmp_path, monkeypatch):
    fifo = tmp_path / "w.boxel"
    os.mkfifo(fifo)
    opened = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda path, *args, **kwargs: opened.append(str(path)) or real_open(path, *args,
                                                                                                       **kwargs))
    for special in (fifo, Path("/dev/zero")):
        with pytest.raises(NotAFileError):
            World.open(special, workers=1)
    assert opened == []


def test_a_fifo_in_place_of_the_worlds_write_ahead_log_is_refused_at_once(tmp_path, world_bytes):
    path = tmp_path / "w.boxel"
    path.write_bytes(world_bytes)
    os.mkfifo(tmp_path / "w.boxel-wal")
    assert open_in_child(path).startswith("NotAFileError: ")


def test_a_device_or_a_folder_in_place_of_the_world_is_refused(tmp_path):
    with pytest.raises(NotAFileError, match="character device"):
        World.open("/dev/null", workers=1)
    with pytest.raises(NotAFileError, match="is a folder, not a world file"):
        World.open(tmp_path, workers=1)
    assert list(tmp_path.iterdir()) == []


def test_a_symlink_to_a_world_file_opens_it(tmp_path, world_bytes):
    (tmp_path / "real.boxel").write_bytes(world_bytes)
    (tmp_path / "link.boxel").symlink_to(tmp_path / "real.boxel")
    with World.open(tmp_path / "link.boxel", workers=1) as world:
        assert world.get_block(-20, 100, -5) == "brick"


def test_create_refuses_a_path_holding_a_fifo(tmp_path):
    os.mkfifo(tmp_path / "w.boxel")
    with pytest.raises(WorldExistsError, match="already there"):
        World.create(tmp_path / "w.boxel", workers=1)


@pytest.mark.parametrize("make", ["fifo", "folder"])
def test_the_command_line_refuses_a_fifo_or_folder_world_with_exit_status_2_and_no_traceback(tmp_path, capsys,
                                                                                          monkeypatch, make):
    monkeypatch.setenv("BOXEL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("BOXEL_CONFIG_DIR", str(tmp_path / "config"))
    path = tmp_path / "w.boxel"
    os.mkfifo(path) if make == "fifo" else path.mkdir()
    assert cli.main(["--world", str(path), "--headless", "--exit-after-ticks", "1"]) == cli.EXIT_USAGE
    error = capsys.readouterr().err
    assert "not a world file" in error and "Traceback" not in error


def test_the_fixtures_world_has_the_data_these_tests_alter(tmp_path, world_bytes):
    path = tmp_path / "w.boxel"
    path.write_bytes(world_bytes)
    with World.open(path, workers=1) as world:
        assert world.get_block(-20, 100, -5) == "brick"
        assert world.column_entities(0, 0) == [{"kind": "boxling", "yaw": 1.0}]
        assert np.array_equal(world.column(5, 5), Terrain(SEED).column(5, 5))
