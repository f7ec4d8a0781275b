"""World files: one SQLite database per world, checked before use, locked while open, saved atomically.

Owns: the file format (a `meta` table of JSON values and a `columns` table of zlib-compressed
column bytes), the checks that turn a bad file into a clear error without touching it, the
"world in use" lock, and the one-transaction save.
Does not own: which columns are edited or when to save (see `world.py`), or the column byte
form itself (see `column.py`).

Format (FORMAT_VERSION 2; version 1 had no `entities` table):
- `PRAGMA application_id` is APPLICATION_ID, so another program's SQLite file is recognised
  from its 100-byte header alone.
- `meta(key TEXT PRIMARY KEY, value TEXT)`, every value JSON: format_version, seed, created_at
  (Unix seconds), spawn ([x, y, z] feet position), player_state (an object or null). JSON
  writes floats with `repr`, so they read back bit for bit.
- `columns(cx, cz, blocks)`: only columns edited since generation; `blocks` is
  zlib(`Column.to_bytes()`). Any other column regenerates from the seed.
- `entities(cx, cz, data)`: the entities (mobs) that were in a column when it was saved, as a
  JSON list of objects; a column without entities has no row. A version 1 file opens as it is
  (no entities); its first save adds the table and sets version 2 in the same transaction.

Safety: the database is in WAL mode and a save is one transaction, so a crash or kill leaves the
old or the new save, never a mix. `locking_mode=EXCLUSIVE` makes this connection hold the file
lock from its first read until close, so a second process (or connection) gets WorldInUseError.
Opening checks, in order, without writing anything: the file exists and is not empty, has
SQLite's header, is not shorter than its header says (truncated), carries Boxel's application
id (else foreign), is not locked, has a readable meta table with a format version this code
knows (else newer), and passes SQLite's `PRAGMA quick_check` (every page's structure: a damaged
page anywhere, even in a column nobody reads yet, is found now). Any SQLite error reading a file,
at open or later, becomes CorruptWorldError, and a failed open releases the file (`World`
closes it too when its own setup fails). Pickle is never used.

quick_check reads the whole file: measured 0.75 ms for a 500-edited-column world (1.6 MB) and
6 ms for 5000 columns (15 MB), file in the OS cache, against 1 and 14 ms for the whole open, so
it costs little beside the open it protects.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from .column import Column, ColumnDataError
from .noise import MAX_SEED, MIN_SEED

FORMAT_VERSION = 2
"""The world file format this code writes; it opens this version and older ones."""
ENTITIES_SINCE_VERSION = 2
"""The first format version with the `entities` table."""
_CREATE_ENTITIES = ("CREATE TABLE IF NOT EXISTS entities (cx INTEGER NOT NULL, cz INTEGER NOT NULL,"
                    " data TEXT NOT NULL, PRIMARY KEY (cx, cz)) WITHOUT ROWID")
APPLICATION_ID = 0x426F7831
"""SQLite header application id of Boxel worlds ('Box1')."""
COMPRESSION_LEVEL = 1
"""zlib level for column bytes. Measured on seed-42 columns (46 KB raw): level 1 takes 0.07 ms
and stores 1.0 KB; level 6 takes 0.22 ms for 0.5 KB; level 9 takes 2.3 ms for 0.4 KB. Saves
run on the game's thread, so the fastest level wins; the files stay small either way."""

_SQLITE_MAGIC = b"SQLite format 3\x00"
_HEADER_BYTES = 100


class WorldFileError(ValueError):
    """A world file that cannot be created or opened; the message names the file and the problem."""


class WorldExistsError(WorldFileError, FileExistsError):
    """`World.create` found something already at the path."""


class WorldNotFoundError(WorldFileError, FileNotFoundError):
    """`World.open` found nothing at the path."""


class CorruptWorldError(WorldFileError):
    """The file is damaged: empty, truncated, garbage, or holding data Boxel cannot read."""


class ForeignFileError(WorldFileError):
    """The file is intact but is not a Boxel world (another program's SQLite database)."""


class NewerFormatError(WorldFileError):
    """The world was written by a newer Boxel, in a format version this code does not know."""


class WorldInUseError(WorldFileError):
    """Another process (or another open World) holds the world."""


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


def player_state_json(state: dict | None) -> str:
    """`state` as JSON text; ValueError (naming the problem) unless it is a dict of finite JSON values."""
    if state is not None and not isinstance(state, dict):
        raise TypeError(f"player_state must be a dict or None, got {type(state).__name__}")
    try:
        return json.dumps(state, allow_nan=False, sort_keys=True)
    except (TypeError, ValueError) as error:
        raise ValueError(f"player_state must hold only JSON values (dict, list, str, finite numbers, "
                         f"bool, None): {error}") from None


def entities_json(entities: list[dict]) -> str | None:
    """The JSON text saved for a column's entities (None for no entities); ValueError when not savable."""
    if not isinstance(entities, list) or not all(isinstance(e, dict) for e in entities):
        raise ValueError(f"column entities must be a list of dicts, got {entities!r:.200}")
    if not entities:
        return None
    try:
        return json.dumps(entities, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise ValueError(f"column entities cannot be saved as JSON: {error}") from None


def encode_column(column: Column) -> bytes:
    """The stored form of a column: zlib-compressed column bytes."""
    return zlib.compress(column.to_bytes(), COMPRESSION_LEVEL)


def decode_column(blob: bytes) -> Column:
    """The column stored as `blob`; ColumnDataError when it is not a stored column."""
    if not isinstance(blob, bytes):
        raise ColumnDataError(f"column data is a {type(blob).__name__}, not bytes")
    try:
        return Column.from_bytes(zlib.decompress(blob))
    except zlib.error as error:
        raise ColumnDataError(f"column data does not decompress: {error}") from None


class WorldFile:
    """An open, locked world database. Create with `WorldFile.create` or `WorldFile.open`."""

    def __init__(self, path: Path, connection: sqlite3.Connection, metadata: Metadata) -> None:
        self.path = path
        self._db = connection
        self.metadata = metadata

    # --- opening ----------------------------------------------------------------------------

    @classmethod
    def create(cls, path: str | os.PathLike, seed: int, created_at: float,
               spawn: tuple[float, float, float]) -> WorldFile:
        """Write a new, empty world at `path` and open it; WorldExistsError if anything is there."""
        path = Path(path)
        for taken in (path, _wal_path(path)):
            if taken.exists() or taken.is_symlink():
                raise WorldExistsError(f"cannot create a world at {path}: {taken} is already there")
        if not path.parent.is_dir():
            raise WorldFileError(f"cannot create a world at {path}: folder {path.parent} does not exist")
        db = _connect(path, "rwc")
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            db.execute("BEGIN IMMEDIATE")
            db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID")
            db.execute("CREATE TABLE columns (cx INTEGER NOT NULL, cz INTEGER NOT NULL, blocks BLOB NOT NULL,"
                       " PRIMARY KEY (cx, cz)) WITHOUT ROWID")
            db.execute(_CREATE_ENTITIES)
            values = {"format_version": FORMAT_VERSION, "seed": seed, "created_at": created_at,
                      "spawn": list(spawn), "player_state": None}
            db.executemany("INSERT INTO meta VALUES (?, ?)", [(k, json.dumps(v)) for k, v in values.items()])
            db.execute("COMMIT")
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the header (and application id) into the file now
        except BaseException:
            db.close()
            _remove_created(path)
            raise
        return cls(path, db, Metadata(FORMAT_VERSION, seed, created_at, tuple(spawn), None))

    @classmethod
    def open(cls, path: str | os.PathLike) -> WorldFile:
        """Open the world at `path`, or raise the WorldFileError that says what is wrong with it."""
        path = Path(path)
        _check_header(path)
        db = _connect(path, "rw")
        try:
            metadata = _read_metadata(db, path)
            _check_pages(db, path)
        except BaseException:
            db.close()
            raise
        return cls(path, db, metadata)

    def discard(self) -> None:
        """Close and delete a file this process just made with `create` (undoing a world whose setup failed)."""
        self._db.close()
        _remove_created(self.path)

    # --- columns ----------------------------------------------------------------------------

    def saved_columns(self) -> set[tuple[int, int]]:
        """The keys of every stored (edited) column; CorruptWorldError when the table cannot be read."""
        try:
            return {(cx, cz) for cx, cz in self._db.execute("SELECT cx, cz FROM columns")}
        except sqlite3.DatabaseError as error:
            raise CorruptWorldError(f"world file {self.path} is damaged: {error}") from None

    def load_column(self, cx: int, cz: int) -> Column | None:
        """The stored column (cx, cz), or None when it was never saved; CorruptWorldError when unreadable."""
        try:
            row = self._db.execute("SELECT blocks FROM columns WHERE cx = ? AND cz = ?", (cx, cz)).fetchone()
            if row is None:
                return None
            return decode_column(row[0])
        except (ColumnDataError, sqlite3.DatabaseError) as error:
            raise CorruptWorldError(f"world {self.path}: column ({cx}, {cz}) is damaged: {error}") from None

    def load_entities(self, cx: int, cz: int) -> list[dict]:
        """The entities saved with column (cx, cz) (empty when none); CorruptWorldError when unreadable."""
        if self.metadata.format_version < ENTITIES_SINCE_VERSION:
            return []
        try:
            row = self._db.execute("SELECT data FROM entities WHERE cx = ? AND cz = ?", (cx, cz)).fetchone()
            if row is None:
                return []
            entities = json.loads(row[0])
            if not isinstance(entities, list) or not all(isinstance(e, dict) for e in entities):
                raise ValueError("entities are not a list of objects")
            return entities
        except (ValueError, sqlite3.DatabaseError) as error:
            raise CorruptWorldError(f"world {self.path}: entities of column ({cx}, {cz}) are damaged: {error}") from None

    def save(self, columns: Iterable[tuple[tuple[int, int], Column]], player_state: dict | None,
             entities: Iterable[tuple[tuple[int, int], list[dict]]] = ()) -> None:
        """Write `columns`, column entities and the player state in one transaction: all of it lands, or none."""
        state_text = player_state_json(player_state)
        entity_rows = [(cx, cz, entities_json(listed)) for (cx, cz), listed in entities]
        db = self._db
        upgrade = self.metadata.format_version < FORMAT_VERSION
        db.execute("BEGIN IMMEDIATE")
        try:
            if upgrade:
                db.execute(_CREATE_ENTITIES)
                db.execute("UPDATE meta SET value = ? WHERE key = 'format_version'", (json.dumps(FORMAT_VERSION),))
            db.executemany("INSERT OR REPLACE INTO columns VALUES (?, ?, ?)",
                           ((cx, cz, encode_column(column)) for (cx, cz), column in columns))
            db.executemany("DELETE FROM entities WHERE cx = ? AND cz = ?",
                           ((cx, cz) for cx, cz, text in entity_rows if text is None))
            db.executemany("INSERT OR REPLACE INTO entities VALUES (?, ?, ?)",
                           ((cx, cz, text) for cx, cz, text in entity_rows if text is not None))
            db.execute("UPDATE meta SET value = ? WHERE key = 'player_state'", (state_text,))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        if upgrade:
            self.metadata = replace(self.metadata, format_version=FORMAT_VERSION)

    def close(self) -> None:
        self._db.close()


def _wal_path(path: Path) -> Path:
    """SQLite's write-ahead log beside the database."""
    return path.with_name(path.name + "-wal")


def _remove_created(path: Path) -> None:
    """Delete a world file this process created (and its WAL, if one is left)."""
    for created in (path, _wal_path(path)):
        created.unlink(missing_ok=True)


def _connect(path: Path, mode: str) -> sqlite3.Connection:
    # timeout=0: a locked world is reported at once instead of waiting for it.
    uri = f"{path.resolve().as_uri()}?mode={mode}"
    connection = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=0, check_same_thread=True)
    connection.execute("PRAGMA locking_mode=EXCLUSIVE")  # before the first read: no shared memory, lock held
    return connection


def _check_header(path: Path) -> None:
    """Reject a missing, empty, truncated, non-SQLite or foreign file from its bytes alone (read only)."""
    try:
        with open(path, "rb") as f:
            header = f.read(_HEADER_BYTES)
            size = os.fstat(f.fileno()).st_size
    except FileNotFoundError:
        raise WorldNotFoundError(f"no world at {path}") from None
    except IsADirectoryError:
        raise CorruptWorldError(f"{path} is a directory, not a world file") from None
    where = f"world file {path}"
    if size == 0:
        raise CorruptWorldError(f"{where} is empty (0 bytes)")
    if not header.startswith(_SQLITE_MAGIC):
        if _SQLITE_MAGIC.startswith(header):
            raise CorruptWorldError(f"{where} is truncated: only {size} bytes")
        raise CorruptWorldError(f"{where} is damaged or not a world: it does not start with an SQLite header")
    if size < _HEADER_BYTES:
        raise CorruptWorldError(f"{where} is truncated: only {size} bytes, shorter than its header")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    page_count = int.from_bytes(header[28:32], "big")
    count_is_valid = header[92:96] == header[24:28]  # SQLite's rule for trusting the in-header size
    if page_size < 512 or page_size & (page_size - 1):
        raise CorruptWorldError(f"{where} is damaged: its header gives page size {page_size}")
    wal = _wal_path(path)
    wal_pending = wal.exists() and wal.stat().st_size > 0  # a crash mid-checkpoint: SQLite finishes it from the WAL
    if count_is_valid and not wal_pending and size < page_size * page_count:
        raise CorruptWorldError(f"{where} is truncated: {size} bytes, but its header says "
                                f"{page_count} pages of {page_size} bytes ({page_size * page_count})")
    application_id = int.from_bytes(header[68:72], "big")
    if application_id != APPLICATION_ID:
        raise ForeignFileError(f"{path} is an SQLite database but not a Boxel world "
                               f"(application id {application_id:#x}, Boxel's is {APPLICATION_ID:#x})")


def _read_metadata(db: sqlite3.Connection, path: Path) -> Metadata:
    """Read and check the meta table and take the lock; never writes."""
    where = f"world file {path}"
    try:
        rows = dict(db.execute("SELECT key, value FROM meta").fetchall())
        db.execute("BEGIN IMMEDIATE")  # take the write lock now, so a world in use fails here, not at save
        db.execute("ROLLBACK")
        db.execute("PRAGMA synchronous=FULL")  # a save is durable once save() returns
    except sqlite3.OperationalError as error:
        if "locked" in str(error) or "busy" in str(error):
            raise WorldInUseError(f"world {path} is in use by another process (or is open elsewhere "
                                  "in this one); close it there first") from None
        raise CorruptWorldError(f"{where} is damaged: {error}") from None
    except sqlite3.DatabaseError as error:
        raise CorruptWorldError(f"{where} is damaged: {error}") from None
    try:
        values = {key: json.loads(rows[key])
                  for key in ("format_version", "seed", "created_at", "spawn", "player_state")}
    except (KeyError, ValueError) as error:
        raise CorruptWorldError(f"{where} is damaged: its meta table lacks or garbles {error}") from None
    version = values["format_version"]
    if not isinstance(version, int) or version < 1:
        raise CorruptWorldError(f"{where} is damaged: format version {version!r}")
    if version > FORMAT_VERSION:
        raise NewerFormatError(f"{where} has format version {version}, newer than this Boxel reads "
                               f"(up to {FORMAT_VERSION}); open it with a newer Boxel")
    seed, created_at, spawn, state = (values[k] for k in ("seed", "created_at", "spawn", "player_state"))
    if isinstance(seed, bool) or not isinstance(seed, int) or not MIN_SEED <= seed <= MAX_SEED:
        raise CorruptWorldError(f"{where} is damaged: its seed {seed!r} is not an int in {MIN_SEED}..{MAX_SEED}")
    if (not isinstance(created_at, (int, float))
            or not (isinstance(spawn, list) and len(spawn) == 3
                    and all(isinstance(v, (int, float)) and math.isfinite(v) for v in spawn))
            or not (state is None or isinstance(state, dict))):
        raise CorruptWorldError(f"{where} is damaged: bad meta values {values!r}")
    return Metadata(version, seed, float(created_at), (float(spawn[0]), float(spawn[1]), float(spawn[2])), state)


def _check_pages(db: sqlite3.Connection, path: Path) -> None:
    """CorruptWorldError unless SQLite's quick_check finds every page of the file sound (read only)."""
    try:
        problems = [row[0] for row in db.execute("PRAGMA quick_check")]
    except sqlite3.DatabaseError as error:
        raise CorruptWorldError(f"world file {path} is damaged: {error}") from None
    if problems != ["ok"]:
        raise CorruptWorldError(f"world file {path} is damaged: {problems[0]}"
                                + (f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""))
