"""Disks that refuse: a full disk during a save, a read-only file, folder or filesystem, a folder this user
may not write. Each gives its own WorldFileError class naming the cause, the world file keeps its last
good save, and the command line reports it with an exit status and a message, never a traceback.

These tests may run as root, which ignores file permissions: there a read-only file or folder is
simulated by making `os.access` answer as it would for another user (`as_read_only`), and the tests
that chmod for real are skipped. A full disk is SQLite's own SQLITE_FULL, made with
`PRAGMA max_page_count` (the database may not grow), or raised by a stand-in connection that ends
the transaction first, as SQLite does when the disk itself is full."""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

import pytest

from game.frontends import cli
from game.world import (World, WorldDiskError, WorldDiskFullError, WorldFileError, WorldInUseError,
                        WorldPermissionError, WorldReadOnlyError)
from game.world import file_errors, storage
from game.world.file_errors import disk_error

from .conftest import SEED, fingerprint

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
UNLIMITED_PAGES = 4_294_967_294
"""SQLite's largest max_page_count: lifts a limit set to fill the database."""
BRICK_COLUMNS = 40
"""Columns edited by the saves that must not fit: far more than the few pages a full database has left."""


def brick_world(path: Path) -> Path:
    with World.create(path, seed=SEED, workers=1) as world:
        for i in range(BRICK_COLUMNS):
            world.set_block(16 * i, 120, 0, "brick")
    return path


def blocks_at_the_bricks(path: Path) -> set[str]:
    with World.open(path, workers=1) as world:
        return {world.get_block(16 * i, 120, 0) for i in range(BRICK_COLUMNS)}


def plant_glass(world: World) -> None:
    """Edits every brick column and many new ones, so a save needs new pages."""
    for i in range(BRICK_COLUMNS):
        world.set_block(16 * i, 120, 0, "glass")
        world.set_block(16 * i, 121, 16 * 9, "glass")
        world.set_block(16 * i, 122, -16 * 9, "glass")


def fill_database(world: World) -> None:
    db = world._file._db
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")


# --- a full disk ------------------------------------------------------------------------------------------


def test_a_save_to_a_full_disk_raises_disk_full_and_keeps_the_last_save(tmp_path):
    path = brick_world(tmp_path / "w.boxel")
    world = World.open(path, workers=1)
    try:
        fill_database(world)
        plant_glass(world)
        with pytest.raises(WorldDiskFullError, match="the disk is full.*keeps its last save") as raised:
            world.save()
        assert isinstance(raised.value.__cause__, sqlite3.OperationalError)
        assert world.get_block(0, 120, 0) == "glass"  # the edits stay in memory
    finally:
        world.close()
    assert blocks_at_the_bricks(path) == {"brick"}


def test_a_save_that_failed_on_a_full_disk_succeeds_once_there_is_room(tmp_path):
    path = brick_world(tmp_path / "w.boxel")
    with World.open(path, workers=1) as world:
        fill_database(world)
        plant_glass(world)
        with pytest.raises(WorldDiskFullError):
            world.save()
        world._file._db.execute(f"PRAGMA max_page_count = {UNLIMITED_PAGES}")
        world.save()
    assert blocks_at_the_bricks(path) == {"glass"}


class DiskFullAtCommit:
    """A world's connection whose COMMIT finds the disk full: it ends the transaction itself first, as
    SQLite does for SQLITE_FULL, so no transaction is left to roll back."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    def __getattr__(self, name):
        return getattr(self._connection, name)

    def execute(self, sql, *args):
        if sql == "COMMIT":
            self._connection.execute("ROLLBACK")
            raise sqlite3.OperationalError("database or disk is full")
        return self._connection.execute(sql, *args)


def test_a_full_disk_that_ended_the_transaction_is_reported_as_disk_full_not_as_a_failed_rollback(tmp_path):
    path = brick_world(tmp_path / "w.boxel")
    with World.open(path, workers=1) as world:
        plant_glass(world)
        world._file._db = DiskFullAtCommit(world._file._db)
        with pytest.raises(WorldDiskFullError, match="disk is full") as raised:
            world.save()
        assert not hasattr(raised.value.__cause__, "__notes__")  # no "the rollback failed too"
        world._file._db = world._file._db._connection
        world.save()  # the connection is usable: no transaction was left open
    assert blocks_at_the_bricks(path) == {"glass"}


def test_the_command_line_reports_a_run_whose_save_finds_the_disk_full_without_a_traceback(tmp_path, capsys,
                                                                                          monkeypatch):
    monkeypatch.setenv("BOXEL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("BOXEL_CONFIG_DIR", str(tmp_path / "config"))
    path = brick_world(tmp_path / "w.boxel")
    before = path.read_bytes()
    connect = storage._connect
    monkeypatch.setattr(storage, "_connect", lambda *args: DiskFullAtCommit(connect(*args)))
    status = cli.main(["--world", str(path), "--headless", "--exit-after-ticks", "2"])
    error = capsys.readouterr().err
    assert status == cli.EXIT_SAVE_FAILED
    assert "could not be saved" in error and "disk is full" in error and "Traceback" not in error
    assert path.read_bytes() == before
    assert not Path(f"{path}-wal").exists()  # the world was closed


# --- read-only files and folders ------------------------------------------------------------------------


@pytest.fixture
def as_read_only(monkeypatch):
    """Make `os.access` deny writing the given paths, as it does for a user who may not write them; and
    clear their write bits, so they read as read-only (not merely someone else's)."""
    denied: set[Path] = set()
    real_access = os.access

    def access(path, mode, *args, **kwargs):
        if mode & os.W_OK and Path(path).resolve() in denied:
            return False
        return real_access(path, mode, *args, **kwargs)

    def deny(path: Path, clear_bits: bool = True) -> None:
        denied.add(path.resolve())
        if clear_bits:
            path.chmod(path.stat().st_mode & ~0o222)
            restore.append(path)

    restore: list[Path] = []
    monkeypatch.setattr(os, "access", access)
    yield deny
    for path in restore:
        path.chmod(path.stat().st_mode | stat.S_IWUSR)


def test_a_read_only_world_file_is_reported_as_read_only_not_damaged_and_left_alone(tmp_path, as_read_only):
    path = brick_world(tmp_path / "w.boxel")
    as_read_only(path)
    before = fingerprint(path)
    with pytest.raises(WorldReadOnlyError, match=f"the file {path} is read-only; make it writable"):
        World.open(path, workers=1)
    assert fingerprint(path) == before


def test_a_world_in_a_read_only_folder_is_reported_as_read_only_and_left_alone(tmp_path, as_read_only):
    path = brick_world(tmp_path / "w.boxel")
    as_read_only(tmp_path)
    before = fingerprint(path)
    with pytest.raises(WorldReadOnlyError, match=f"the folder {tmp_path} is read-only"):
        World.open(path, workers=1)
    assert fingerprint(path) == before


def test_creating_a_world_in_a_read_only_folder_is_reported_as_read_only_and_makes_nothing(tmp_path, as_read_only):
    as_read_only(tmp_path)
    with pytest.raises(WorldReadOnlyError, match="cannot create a world at .*is read-only"):
        World.create(tmp_path / "w.boxel", workers=1)
    assert list(tmp_path.iterdir()) == []


def test_a_world_file_of_another_user_is_reported_as_a_permission_problem(tmp_path, as_read_only):
    path = brick_world(tmp_path / "w.boxel")
    as_read_only(path, clear_bits=False)  # writable by its owner, not by this user
    with pytest.raises(WorldPermissionError, match="this user may not write the file"):
        World.open(path, workers=1)


def test_a_world_on_a_read_only_filesystem_is_reported_as_read_only(tmp_path, monkeypatch):
    path = brick_world(tmp_path / "w.boxel")
    real_statvfs = os.statvfs

    class ReadOnlyMount:
        def __init__(self, real) -> None:
            self.f_flag = real.f_flag | os.ST_RDONLY

    monkeypatch.setattr(os, "statvfs", lambda p: ReadOnlyMount(real_statvfs(p)))
    with pytest.raises(WorldReadOnlyError, match="is on a read-only filesystem"):
        World.open(path, workers=1)


@pytest.mark.skipif(IS_ROOT, reason="root may write read-only files; the simulated tests above cover this")
def test_a_world_file_chmodded_read_only_is_reported_as_read_only(tmp_path):
    path = brick_world(tmp_path / "w.boxel")
    path.chmod(0o444)
    try:
        with pytest.raises(WorldReadOnlyError):
            World.open(path, workers=1)
    finally:
        path.chmod(0o644)


@pytest.mark.skipif(IS_ROOT, reason="root may write read-only folders; the simulated tests above cover this")
def test_creating_a_world_in_a_folder_chmodded_read_only_is_reported_as_read_only(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(WorldReadOnlyError):
            World.create(folder / "w.boxel", workers=1)
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)


def test_the_command_line_reports_a_new_world_in_a_read_only_folder_with_exit_status_2(tmp_path, capsys,
                                                                                       monkeypatch, as_read_only):
    monkeypatch.setenv("BOXEL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("BOXEL_CONFIG_DIR", str(tmp_path / "config"))
    folder = tmp_path / "locked"
    folder.mkdir()
    as_read_only(folder)
    assert cli.main(["--world", str(folder / "w.boxel"), "--headless", "--exit-after-ticks", "1"]) == cli.EXIT_USAGE
    error = capsys.readouterr().err
    assert "read-only" in error and "Traceback" not in error
    assert list(folder.iterdir()) == []


# --- SQLite's and the system's own errors name their cause -----------------------------------------------


def real_sqlite_error(tmp_path: Path, cause: str) -> sqlite3.Error:
    """An error raised by SQLite itself (with its error code) for `cause`."""
    path = tmp_path / f"{cause}.db"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.close()
    statements = {
        "full": (f"file:{path}?mode=rw", ["PRAGMA max_page_count = 2", "INSERT INTO t VALUES (zeroblob(100000))"]),
        "readonly": (f"file:{path}?mode=ro", ["INSERT INTO t VALUES (1)"]),
        "cantopen": (f"file:{tmp_path}/missing/x.db?mode=rw", ["SELECT 1"]),
    }
    uri, sql = statements[cause]
    try:
        db = sqlite3.connect(uri, uri=True, isolation_level=None)
        for statement in sql:
            db.execute(statement)
    except sqlite3.Error as error:
        return error
    raise AssertionError(f"SQLite did not fail for {cause}")


@pytest.mark.parametrize("cause, error_class", [("full", WorldDiskFullError), ("readonly", WorldReadOnlyError),
                                                ("cantopen", WorldDiskError)])
def test_sqlites_own_errors_become_the_class_naming_their_cause(tmp_path, cause, error_class):
    error = real_sqlite_error(tmp_path, cause)
    assert error.sqlite_errorcode is not None
    assert type(disk_error(error, tmp_path / "w.boxel", "save the world")) is error_class


@pytest.mark.parametrize("error, error_class", [
    (sqlite3.OperationalError("database or disk is full"), WorldDiskFullError),
    (sqlite3.OperationalError("attempt to write a readonly database"), WorldReadOnlyError),
    (sqlite3.OperationalError("database is locked"), WorldInUseError),
    (sqlite3.OperationalError("disk I/O error"), WorldDiskError),
    (OSError(28, "No space left on device"), WorldDiskFullError),
    (OSError(30, "Read-only file system"), WorldReadOnlyError),
    (PermissionError(13, "Permission denied"), WorldPermissionError),
])
def test_errors_without_an_sqlite_code_are_named_by_their_message_or_errno(tmp_path, error, error_class):
    assert type(disk_error(error, tmp_path / "w.boxel", "save the world")) is error_class


@pytest.mark.parametrize("message", ["database disk image is malformed", "no such table: columns",
                                     "file is not a database"])
def test_errors_about_the_files_content_are_not_disk_errors(tmp_path, message):
    assert disk_error(sqlite3.DatabaseError(message), tmp_path / "w.boxel", "open the world") is None


def test_every_disk_error_is_a_world_file_error_the_command_line_catches():
    for error_class in (WorldDiskError, WorldDiskFullError, WorldReadOnlyError, WorldPermissionError):
        assert issubclass(error_class, WorldFileError)
    assert issubclass(WorldPermissionError, PermissionError)
    assert file_errors.WorldDiskFullError is WorldDiskFullError


def test_a_failed_save_leaves_the_world_usable_and_the_file_byte_for_byte_as_saved(tmp_path):
    path = brick_world(tmp_path / "w.boxel")
    before = path.read_bytes()
    with World.open(path, workers=1) as world:
        fill_database(world)
        plant_glass(world)
        for _ in range(3):
            with pytest.raises(WorldDiskFullError):
                world.save()
        assert world.get_block(0, 120, 0) == "glass"
        world._file._db.execute(f"PRAGMA max_page_count = {UNLIMITED_PAGES}")
        world.close()  # closed without saving: the file must be as it was
    assert path.read_bytes() == before
