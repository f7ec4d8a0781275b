"""The checks an open makes before a world file is used: each turns one kind of bad file into its clear
error, and none of them writes anything or runs anything stored in the file.

Owns, in the order `storage.WorldFile.open` makes them: the path is a regular file (a FIFO or a
device would block or misbehave as soon as it is opened), its bytes start with SQLite's header and
are as long as the header says, it carries Boxel's application id, this user can write it and its
folder, its schema is exactly Boxel's (read from `sqlite_master` before any table is touched, so a
trigger or a view stored in the file is never run), its meta table holds the keys of its version
with a matching checksum and values of the right types, the world is not in use, and SQLite's
`PRAGMA quick_check` finds every page sound.
Does not own: the format itself (`file_format.py`) or the error classes (`file_errors.py`).

quick_check reads the whole file: measured 0.75 ms for a 500-edited-column world (1.6 MB) and
6 ms for 5000 columns (15 MB), file in the OS cache, against 1 and 14 ms for the whole open, so
it costs little beside the open it protects.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
import stat
from dataclasses import dataclass, replace
from pathlib import Path

from .file_errors import (CorruptWorldError, ForeignFileError, NewerFormatError, NotAFileError, UnexpectedSchemaError,
                          WorldFileError, WorldNotFoundError, WorldPermissionError, access_error, disk_error)
from .file_format import (APPLICATION_ID, BLOCK_UPDATES_SINCE_VERSION, CHECKSUM_KEY, CHECKSUM_SINCE_VERSION,
                          FORMAT_VERSION, WORLD_TICKS_KEY, meta_checksum, meta_keys, schema_rows)
from .noise import MAX_SEED, MIN_SEED

SQLITE_MAGIC = b"SQLite format 3\x00"
HEADER_BYTES = 100
"""[bytes] SQLite's database header."""
_NO_BLOCK = getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
"""Open flags that keep a FIFO or terminal swapped in after the type check from blocking the read."""
COMPANION_SUFFIXES = ("-wal", "-journal")
"""Files SQLite opens beside the database: they must be regular files too, or SQLite's open of them blocks."""
READ_ERRORS = (sqlite3.Error, UnicodeDecodeError)
"""What reading a damaged file can raise: SQLite's errors, and Python's when a stored text is not UTF-8."""


@dataclass(frozen=True)
class Metadata:
    format_version: int
    seed: int
    created_at: float
    """[s] Unix time the world was created."""
    spawn: tuple[float, float, float]
    """[blocks] Feet position of a new player."""
    player_state: dict | None
    """What the game saved about the player, as it gave it (JSON types)."""
    world_ticks: int = 0
    """The world's tick counter (scheduled block updates are due by it); 0 before format 4."""


def companion_path(path: Path, suffix: str) -> Path:
    """SQLite's file beside the database: `suffix` "-wal" is the write-ahead log."""
    return path.with_name(path.name + suffix)


def database_error(error: sqlite3.Error | UnicodeDecodeError, path: Path, doing: str) -> WorldFileError:
    """The error to raise for an SQLite error while `doing` something with the world at `path`: the
    disk's or the lock's when it is about them, else CorruptWorldError."""
    return disk_error(error, path, doing) or CorruptWorldError(f"world file {path} is damaged: {error}")


# --- before SQLite opens the file ---------------------------------------------------------------------


def check_file_kind(path: Path) -> None:
    """WorldNotFoundError when nothing is at `path`; NotAFileError unless it (and SQLite's files beside
    it, when present) are regular files. Looks at the file's type without opening it."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise WorldNotFoundError(f"no world at {path}") from None
    except OSError as error:
        raise disk_error(error, path, "open the world") or WorldFileError(f"cannot open {path}: {error}") from None
    _require_regular(path, mode)
    for suffix in COMPANION_SUFFIXES:
        companion = companion_path(path, suffix)
        try:
            _require_regular(companion, os.stat(companion).st_mode)
        except FileNotFoundError:
            pass


def _require_regular(path: Path, mode: int) -> None:
    if stat.S_ISDIR(mode):
        raise NotAFileError(f"{path} is a folder, not a world file")
    if not stat.S_ISREG(mode):
        raise NotAFileError(f"{path} is a {_kind_name(mode)}, not a world file: Boxel opens only regular files")


def _kind_name(mode: int) -> str:
    kinds = ((stat.S_ISFIFO, "FIFO (named pipe)"), (stat.S_ISCHR, "character device"),
             (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket"))
    return next((name for test, name in kinds if test(mode)), "special file")


def read_header(path: Path) -> tuple[bytes, int]:
    """The first HEADER_BYTES of the file and its size [bytes]; refuses a file that is no longer regular."""
    try:
        fd = os.open(path, os.O_RDONLY | _NO_BLOCK)
    except FileNotFoundError:
        raise WorldNotFoundError(f"no world at {path}") from None
    except OSError as error:
        raise disk_error(error, path, "read the world") or WorldFileError(f"cannot read {path}: {error}") from None
    try:
        info = os.fstat(fd)
        _require_regular(path, info.st_mode)  # swapped for something else since check_file_kind looked
        return os.read(fd, HEADER_BYTES), info.st_size
    except OSError as error:
        raise disk_error(error, path, "read the world") or WorldFileError(f"cannot read {path}: {error}") from None
    finally:
        os.close(fd)


def check_header(path: Path) -> None:
    """Reject an empty, truncated, non-SQLite or foreign file from its bytes alone (read only)."""
    header, size = read_header(path)
    where = f"world file {path}"
    if size == 0:
        raise CorruptWorldError(f"{where} is empty (0 bytes)")
    if not header.startswith(SQLITE_MAGIC):
        if SQLITE_MAGIC.startswith(header):
            raise CorruptWorldError(f"{where} is truncated: only {size} bytes")
        raise CorruptWorldError(f"{where} is damaged or not a world: it does not start with an SQLite header")
    if size < HEADER_BYTES:
        raise CorruptWorldError(f"{where} is truncated: only {size} bytes, shorter than its header")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    page_count = int.from_bytes(header[28:32], "big")
    count_is_valid = header[92:96] == header[24:28]  # SQLite's rule for trusting the in-header size
    if page_size < 512 or page_size & (page_size - 1):
        raise CorruptWorldError(f"{where} is damaged: its header gives page size {page_size}")
    wal = companion_path(path, "-wal")
    wal_pending = wal.exists() and wal.stat().st_size > 0  # a crash mid-checkpoint: SQLite finishes it from the WAL
    if count_is_valid and not wal_pending and size < page_size * page_count:
        raise CorruptWorldError(f"{where} is truncated: {size} bytes, but its header says "
                                f"{page_count} pages of {page_size} bytes ({page_size * page_count})")
    application_id = int.from_bytes(header[68:72], "big")
    if application_id != APPLICATION_ID:
        raise ForeignFileError(f"{path} is an SQLite database but not a Boxel world "
                               f"(application id {application_id:#x}, Boxel's is {APPLICATION_ID:#x})")


def check_writable(path: Path) -> None:
    """WorldReadOnlyError or WorldPermissionError unless this user can write the file and its folder
    (saves write both: the database and SQLite's write-ahead log beside it)."""
    problem = access_error(path, "open the world")
    if problem is not None:
        raise problem
    if not os.access(path, os.R_OK):
        raise WorldPermissionError(f"cannot open the world at {path}: this user may not read it")


# --- through SQLite, reading only ----------------------------------------------------------------------


def check_schema(db: sqlite3.Connection, path: Path) -> int:
    """The file's format version, once its schema is exactly that version's: NewerFormatError for a
    newer version, UnexpectedSchemaError for any table, index, view or trigger Boxel does not create
    or a table whose SQL differs. Only `sqlite_master` and Boxel's own meta table are read."""
    where = f"world file {path}"
    try:
        found = set(db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall())
    except READ_ERRORS as error:
        raise database_error(error, path, "open the world") from None
    meta_rows = {row for row in found if row[1] == "meta"}
    if meta_rows != {row for row in schema_rows(1) if row[1] == "meta"}:
        raise UnexpectedSchemaError(f"{where} is damaged or was changed by another program: "
                                    f"its meta table is not Boxel's ({_describe(meta_rows) or 'missing'})")
    version = _format_version(db, path)
    if version > FORMAT_VERSION:
        raise NewerFormatError(f"{where} has format version {version}, newer than this Boxel reads "
                               f"(up to {FORMAT_VERSION}); open it with a newer Boxel")
    expected = schema_rows(version)
    if found != expected:
        raise UnexpectedSchemaError(
            f"{where} is damaged or was changed by another program, so Boxel will not use it: "
            + "; ".join(part for part in (_listed("it holds", found - expected),
                                          _listed("it lacks or has changed", expected - found)) if part))
    return version


def _describe(rows) -> str:
    return ", ".join(f"{kind} {name!r}" for kind, name, _, _ in sorted(rows, key=lambda r: (str(r[0]), str(r[1]))))


def _listed(what: str, rows) -> str:
    return f"{what} {_describe(rows)}" if rows else ""


def _format_version(db: sqlite3.Connection, path: Path) -> int:
    """The format version from the meta table (whose schema is checked): a positive int, else CorruptWorldError."""
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'format_version'").fetchone()
    except READ_ERRORS as error:
        raise database_error(error, path, "open the world") from None
    version = _json_value(row[0], path, "format_version") if row is not None and isinstance(row[0], str) else None
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise CorruptWorldError(f"world file {path} is damaged: format version {version!r}")
    return version


def read_metadata(db: sqlite3.Connection, path: Path, version: int) -> Metadata:
    """The meta table of a file of format `version` (its schema checked), checked: exactly that version's
    keys, the checksum (from CHECKSUM_SINCE_VERSION) and every value's type."""
    where = f"world file {path}"
    try:
        listed = db.execute("SELECT key, value FROM meta").fetchall()
    except READ_ERRORS as error:
        raise database_error(error, path, "open the world") from None
    rows = {key: value for key, value in listed if isinstance(key, str) and isinstance(value, str)}
    if len(rows) != len(listed) or set(rows) != meta_keys(version):
        raise CorruptWorldError(f"{where} is damaged: its meta table holds {sorted(map(repr, rows))}, "
                                f"not the keys format version {version} writes")
    if version >= CHECKSUM_SINCE_VERSION and _json_value(rows[CHECKSUM_KEY], path, CHECKSUM_KEY) != meta_checksum(rows):
        raise CorruptWorldError(f"{where} is damaged: its metadata (seed, spawn, player...) does not match "
                                "its checksum, so it may open as another world")
    values = {key: _json_value(rows[key], path, key) for key in ("seed", "created_at", "spawn", "player_state")}
    metadata = _checked_metadata(version, values, where)
    if version < BLOCK_UPDATES_SINCE_VERSION:
        return metadata
    ticks = _json_value(rows[WORLD_TICKS_KEY], path, WORLD_TICKS_KEY)
    if isinstance(ticks, bool) or not isinstance(ticks, int) or not 0 <= ticks < MAX_WORLD_TICKS:
        raise CorruptWorldError(f"{where} is damaged: its world_ticks {ticks!r:.80} is not an int in 0..{MAX_WORLD_TICKS - 1}")
    return replace(metadata, world_ticks=ticks)


MAX_WORLD_TICKS = 2 ** 53
"""[ticks] Above any play (14 billion years at 20 Hz); keeps the counter an exact JSON number."""


def _json_value(text: str, path: Path, key: str):
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:  # RecursionError: JSON nested too deep for Python
        raise CorruptWorldError(f"world file {path} is damaged: its meta value {key!r} is not JSON "
                                f"({type(error).__name__})") from None


def _checked_metadata(version: int, values: dict, where: str) -> Metadata:
    seed, created_at, spawn, state = (values[k] for k in ("seed", "created_at", "spawn", "player_state"))
    if isinstance(seed, bool) or not isinstance(seed, int) or not MIN_SEED <= seed <= MAX_SEED:
        raise CorruptWorldError(f"{where} is damaged: its seed {seed!r:.80} is not an int in {MIN_SEED}..{MAX_SEED}")
    if not (_is_finite_number(created_at)
            and isinstance(spawn, list) and len(spawn) == 3 and all(map(_is_finite_number, spawn))
            and (state is None or isinstance(state, dict))):
        raise CorruptWorldError(f"{where} is damaged: bad meta values {values!r:.300}")
    return Metadata(version, seed, float(created_at), (float(spawn[0]), float(spawn[1]), float(spawn[2])), state)


def _is_finite_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def take_lock(db: sqlite3.Connection, path: Path) -> None:
    """Take the write lock now (held until close), so a world in use fails at open, not at save; then
    make every save durable once it returns. Writes nothing."""
    try:
        db.execute("BEGIN IMMEDIATE")
        db.execute("ROLLBACK")
        db.execute("PRAGMA synchronous=FULL")
    except READ_ERRORS as error:
        raise database_error(error, path, "open the world") from None


def check_pages(db: sqlite3.Connection, path: Path) -> None:
    """CorruptWorldError unless SQLite's quick_check finds every page of the file sound (read only)."""
    try:
        problems = [row[0] for row in db.execute("PRAGMA quick_check")]
    except READ_ERRORS as error:
        raise database_error(error, path, "open the world") from None
    if problems != ["ok"]:
        raise CorruptWorldError(f"world file {path} is damaged: {problems[0]}"
                                + (f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""))
