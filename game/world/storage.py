"""World files: one SQLite database per world, checked before use, locked while open, saved atomically.

Owns: creating a world file, opening one (the checks live in `file_checks.py`: any bad file gives
its clear error without being changed, and nothing stored in a file is ever run), reading its
columns and entities, the "world in use" lock, the one-transaction save, and keeping the bytes of
damaged rows before a save replaces them.
Does not own: the format's versions and schema (`file_format.py`), the error classes
(`file_errors.py`), which columns are edited or when to save (`world.py`), or the column byte form
itself (`column.py`).

Format (FORMAT_VERSION 6; see `file_format.py` for what versions 1 to 5 lack):
- `PRAGMA application_id` is APPLICATION_ID, so another program's SQLite file is recognised
  from its 100-byte header alone.
- `meta(key TEXT PRIMARY KEY, value TEXT)`, every value JSON: format_version, seed, created_at
  (Unix seconds), spawn ([x, y, z] feet position), world_ticks, game_mode ("survival" or
  "creative", set when the world is made), and meta_sha256, the checksum of
  the other rows, rewritten by every save. (Versions 1 to 4 also hold player_state, the one
  player's state, an object or null.) JSON writes floats with
  `repr`, so they read back bit for bit.
- `columns(cx, cz, blocks)`: only columns edited since generation; `blocks` is
  zlib(`Column.to_bytes()`). Any other column regenerates from the seed.
- `entities(cx, cz, data)`: the entities (mobs) that were in a column when it was saved, as a
  JSON list of objects; a column without entities has no row.
- `damaged_columns(cx, cz, part, data)`: a `columns` ("blocks") or `entities` ("entities") value
  found damaged, copied here by the save that replaces it, so it can still be recovered by hand.
- `block_updates(cx, cz, data)`: the scheduled block updates pending when the world was saved,
  grouped by the column of their cell, as JSON [x, y, z, kind, delay ticks] lists (see
  `block_updates.py`); meta `world_ticks` is the world's tick counter at that save. Every save
  rewrites the whole table.
- `players(name, state)`: each player's state (a JSON object) by name (`player_names`); the local
  player's is the row `LOCAL_PLAYER`. A save writes the players given to it, and deletes the row
  of a player whose state is None.
A version 1 to 5 file opens as it is (its one player read as the local player's, its game mode
creative); its first save adds what it lacks, moves the player_state meta row into `players`, writes
game_mode "creative" and sets version 6 in the same transaction.
- The header's `user_version` is the world's id (`file_format.WORLD_ID_OFFSET`), random, set when
  the world is made (or by the first save of an older world) and written again by every save, so
  each transaction in the write-ahead log carries it: a log from another world is refused at open
  (`file_checks.check_log`) instead of being replayed into this one.

Values: what a save writes passes the checks an open makes (`file_checks.check_meta_value`, the
same function), so the game never writes a file it would refuse; a save given anything else raises
UnsavableWorldError and writes nothing. `save` raises only WorldFileError subclasses.

Safety: the database is in WAL mode and a save is one transaction, so a crash, a kill or a full
disk leaves the old or the new save, never a mix. `locking_mode=EXCLUSIVE` makes this connection
hold the file lock from its first read until close, so a second process (or connection) gets
WorldInUseError. `trusted_schema=OFF` keeps SQL functions out of anything a schema could hold
(the schema check already refuses every object Boxel does not create). A read of a damaged column
or entity list raises CorruptWorldError naming the column (the world serves the column from the
seed instead, see `world.py`); disk, permission and lock failures raise their own classes. A
column's stored blob is refused unread when longer than MAX_STORED_COLUMN_BYTES, and its
decompression stops at the longest valid column, so a small blob cannot expand to gigabytes.
Pickle is never used.
"""

from __future__ import annotations

from typing import NamedTuple

import json
import os
import secrets
import sqlite3
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path

from .column import MAX_BYTES, Column, ColumnDataError
from .coords import COLUMN_BORDER
from .file_checks import (READ_ERRORS, Metadata, check_file_kind, check_header, check_json_values, check_meta_value,
                          check_pages, check_player_state, check_schema, check_writable, companion_path, database_error,
                          read_metadata, take_lock)
from .file_errors import CorruptWorldError, UnsavableWorldError, WorldExistsError, WorldFileError, access_error
from .block_updates import check_rows
from .folder_lock import folder_lock
from .file_format import (APPLICATION_ID, BLOCK_UPDATES_SINCE_VERSION, CHECKSUM_KEY, CHECKSUM_SINCE_VERSION,
                          CREATE_BLOCK_UPDATES, CREATE_COLUMNS, CREATE_DAMAGED, CREATE_ENTITIES, CREATE_META,
                          CREATE_PLAYERS, CREATIVE, ENTITIES_SINCE_VERSION, FORMAT_VERSION, GAME_MODE_KEY,
                          GAME_MODE_SINCE_VERSION, MAX_META_TEXT_BYTES, MAX_WORLD_ID, PLAYER_STATE_KEY,
                          PLAYERS_SINCE_VERSION, WORLD_TICKS_KEY, meta_checksum)
from .player_names import LOCAL_PLAYER, check_player_name

COMPRESSION_LEVEL = 1
"""zlib level for column bytes. Measured on seed-42 columns (46 KB raw): level 1 takes 0.07 ms
and stores 1.0 KB; level 6 takes 0.22 ms for 0.5 KB; level 9 takes 2.3 ms for 0.4 KB. Saves
run on the game's thread, so the fastest level wins; the files stay small either way."""
MAX_STORED_COLUMN_BYTES = MAX_BYTES + (MAX_BYTES >> 12) + (MAX_BYTES >> 14) + (MAX_BYTES >> 25) + 13
"""[bytes] zlib's compressBound of the longest column (131,127): deflate never stores the longest
column in more, so a longer blob is damage, refused before it is read into memory."""
MAX_ENTITIES_TEXT_BYTES = 4 * 1024 * 1024
"""[bytes] Longest JSON of one column's entities. A saved mob takes ~250 bytes, so this holds
~16,000 mobs in one column, far beyond any play; a longer value is refused when set and, as
damage, unread when loaded."""
MAX_BLOCK_UPDATES_TEXT_BYTES = 16 * 1024 * 1024
"""[bytes] Longest JSON of one column's pending block updates (a row takes ~25 bytes, so ~600,000
updates, more than a column of 65,536 cells can have in all its kinds); a longer value is damage."""
BLOCKS, ENTITIES, BLOCK_UPDATES = "blocks", "entities", "block updates"
"""The `part` of a damaged row in `damaged_columns`."""


def player_state_json(state: dict | None) -> str:
    """`state` as JSON text, once an open would accept it (`file_checks.check_player_state`: a dict of
    finite JSON values, nested at most MAX_JSON_DEPTH deep, at most MAX_META_TEXT_BYTES as JSON);
    TypeError or ValueError naming the problem otherwise."""
    if state is not None and not isinstance(state, dict):
        raise TypeError(f"player_state must be a dict or None, got {type(state).__name__}")
    try:
        check_player_state(state)
        text = json.dumps(state, allow_nan=False, sort_keys=True)
    except (TypeError, ValueError) as error:
        raise type(error)(f"player_state must hold only JSON values (dict, list, str, finite numbers, "
                          f"bool, None): it {error}") from None
    if len(text.encode()) > MAX_META_TEXT_BYTES:
        raise ValueError(f"player_state takes {len(text.encode())} bytes as JSON, more than the "
                         f"{MAX_META_TEXT_BYTES} a world file holds")
    return text


class EntitiesText(NamedTuple):
    """A column's entity list with the text `entities_json` made of it: checked and encoded once
    when it is set (`World.set_column_entities`), written by the save as it is."""

    entities: list[dict]
    text: str | None


def entities_json(entities: list[dict]) -> str | None:
    """The JSON text saved for a column's entities (None for no entities); ValueError when not savable."""
    if not isinstance(entities, list) or not all(isinstance(e, dict) for e in entities):
        raise ValueError(f"column entities must be a list of dicts, got {entities!r:.200}")
    if not entities:
        return None
    try:
        check_json_values(entities)
        text = json.dumps(entities, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise ValueError(f"column entities cannot be saved as JSON: {error}") from None
    if len(text.encode()) > MAX_ENTITIES_TEXT_BYTES:
        raise ValueError(f"column entities take {len(text.encode())} bytes as JSON, more than the "
                         f"{MAX_ENTITIES_TEXT_BYTES} one column may hold")
    return text


def encode_column(column: Column) -> bytes:
    """The stored form of a column: zlib-compressed column bytes."""
    return zlib.compress(column.to_bytes(), COMPRESSION_LEVEL)


def decode_column(blob: bytes) -> Column:
    """The column stored as `blob`; ColumnDataError when it is not a stored column. Never holds more
    than MAX_BYTES + 1 decompressed bytes, whatever `blob` claims."""
    if not isinstance(blob, bytes):
        raise ColumnDataError(f"column data is a {type(blob).__name__}, not bytes")
    if len(blob) > MAX_STORED_COLUMN_BYTES:
        raise ColumnDataError(f"column data is {len(blob)} bytes, more than any stored column "
                              f"({MAX_STORED_COLUMN_BYTES})")
    inflater = zlib.decompressobj()
    try:
        data = inflater.decompress(blob, MAX_BYTES + 1)
    except zlib.error as error:
        raise ColumnDataError(f"column data does not decompress: {error}") from None
    if len(data) > MAX_BYTES:
        raise ColumnDataError(f"column data decompresses to more than {MAX_BYTES} bytes, the longest column")
    if not inflater.eof:
        raise ColumnDataError("column data is cut short: its compressed stream does not end")
    if inflater.unused_data:
        raise ColumnDataError(f"column data has {len(inflater.unused_data)} bytes after its compressed stream")
    return Column.from_bytes(data)


class WorldFile:
    """An open, locked world database. Create with `WorldFile.create` or `WorldFile.open`."""

    def __init__(self, path: Path, connection: sqlite3.Connection, metadata: Metadata, world_id: int = 0) -> None:
        self.path = path
        self._db = connection
        self.metadata = metadata
        self.world_id = world_id if 1 <= world_id <= MAX_WORLD_ID else new_world_id()
        """The world's id (`file_format` notes), written by every save; new for a file that had none."""
        self._damaged: set[tuple[int, int, str]] = set()
        """(cx, cz, part) of rows found damaged: a save that replaces one copies it to `damaged_columns` first."""

    # --- opening ----------------------------------------------------------------------------

    @classmethod
    def create(cls, path: str | os.PathLike, seed: int, created_at: float,
               spawn: tuple[float, float, float], game_mode: str = CREATIVE) -> WorldFile:
        """Write a new, empty world at `path` and open it; WorldExistsError if anything is there, and
        a WorldDiskError subclass (nothing left behind) when the folder or the disk refuses it."""
        path = Path(path)
        metadata = Metadata(FORMAT_VERSION, check_meta_value("seed", seed), check_meta_value("created_at", created_at),
                            check_meta_value("spawn", spawn), None,  # what an open would refuse is never written
                            game_mode=check_meta_value(GAME_MODE_KEY, game_mode))
        world_id = new_world_id()
        _check_creatable(path)
        try:
            db = _connect(path, "rwc")
        except sqlite3.Error as error:
            _remove_created(path)
            raise database_error(error, path, "create a world") from None
        try:
            _write_new_world(db, metadata, world_id)
        except BaseException as error:
            db.close()
            _remove_created(path)
            if isinstance(error, sqlite3.Error):
                raise database_error(error, path, "create a world") from None
            raise
        return cls(path, db, metadata, world_id)

    @classmethod
    def open(cls, path: str | os.PathLike) -> WorldFile:
        """Open the world at `path`, or raise the WorldFileError that says what is wrong with it."""
        path = Path(path)
        check_file_kind(path)  # a FIFO or a device is refused before anything, its folder included, is opened
        with folder_lock(path.parent, shared=True):  # no rename elsewhere moves it (or a log) until it is locked
            return cls._open(path)

    @classmethod
    def _open(cls, path: Path) -> WorldFile:
        check_file_kind(path)
        check_header(path)
        check_writable(path)
        try:
            db = _connect(path, "rw")
        except sqlite3.Error as error:
            raise database_error(error, path, "open the world") from None
        try:
            version = check_schema(db, path)
            metadata = read_metadata(db, path, version)
            take_lock(db, path)
            check_pages(db, path)
            world_id = _read_world_id(db, path)
        except BaseException:
            db.close()
            raise
        return cls(path, db, metadata, world_id)

    def discard(self) -> None:
        """Close and delete a file this process just made with `create` (undoing a world whose setup failed)."""
        self._db.close()
        _remove_created(self.path)

    # --- columns ----------------------------------------------------------------------------

    def saved_columns(self) -> set[tuple[int, int]]:
        """The keys of every stored (edited) column; CorruptWorldError when the table cannot be read.
        A key that is not a pair of ints (damage) is left out: no read asks for it."""
        try:
            rows = self._db.execute("SELECT cx, cz FROM columns").fetchall()
        except READ_ERRORS as error:
            raise database_error(error, self.path, "read the world") from None
        return {(cx, cz) for cx, cz in rows if type(cx) is int and type(cz) is int}

    def load_column(self, cx: int, cz: int) -> Column | None:
        """The stored column (cx, cz), or None when it was never saved; CorruptWorldError naming the
        column when it is unreadable (noted, so a save that replaces it keeps its bytes)."""
        try:
            row = self._db.execute(
                "SELECT CASE WHEN typeof(blocks) = 'blob' AND length(blocks) <= ? THEN blocks END,"
                " typeof(blocks), length(blocks) FROM columns WHERE cx = ? AND cz = ?",
                (MAX_STORED_COLUMN_BYTES, cx, cz)).fetchone()
            if row is None:
                return None
            blob, kind, length = row
            if blob is None:
                raise ColumnDataError(f"column data is stored as {kind} ({length} long), not as a blob of "
                                      f"at most {MAX_STORED_COLUMN_BYTES} bytes")
            return decode_column(blob)
        except (ColumnDataError, *READ_ERRORS) as error:
            raise self._damage(cx, cz, BLOCKS, error) from None

    def entity_columns(self) -> list[tuple[int, int]]:
        """(cx, cz) of every column with a saved entity list (none when they cannot be read: each
        list is checked when it is loaded)."""
        if self.metadata.format_version < ENTITIES_SINCE_VERSION:
            return []
        try:
            rows = self._db.execute("SELECT cx, cz FROM entities WHERE typeof(cx) = 'integer' AND typeof(cz) = 'integer'"
                                    " ORDER BY cx, cz").fetchall()
        except READ_ERRORS:
            return []
        return [(cx, cz) for cx, cz in rows if abs(cx) <= COLUMN_BORDER and abs(cz) <= COLUMN_BORDER]

    def load_entities(self, cx: int, cz: int) -> list[dict]:
        """The entities saved with column (cx, cz) (empty when none); CorruptWorldError naming the
        column when they are unreadable (noted, so a save that replaces them keeps their bytes)."""
        if self.metadata.format_version < ENTITIES_SINCE_VERSION:
            return []
        try:
            row = self._db.execute(
                "SELECT CASE WHEN typeof(data) = 'text' AND length(CAST(data AS BLOB)) <= ? THEN data END,"
                " typeof(data) FROM entities WHERE cx = ? AND cz = ?", (MAX_ENTITIES_TEXT_BYTES, cx, cz)).fetchone()
            if row is None:
                return []
            if row[0] is None:
                raise ValueError(f"they are a {row[1]} value, not JSON text of at most {MAX_ENTITIES_TEXT_BYTES} bytes")
            entities = json.loads(row[0])
            if not isinstance(entities, list) or not all(isinstance(e, dict) for e in entities):
                raise ValueError("they are not a list of objects")
            check_json_values(entities)
            return entities
        except (ValueError, TypeError, RecursionError, *READ_ERRORS) as error:  # RecursionError: JSON nested too deep
            raise self._damage(cx, cz, ENTITIES, error) from None

    def load_block_updates(self) -> tuple[list[list], list[tuple[tuple[int, int], CorruptWorldError]]]:
        """Every saved pending block update (rows as `block_updates.check_rows` accepts them), and
        ((cx, cz), CorruptWorldError) for each column whose row is damaged (its updates are left
        out, the row noted so the save that replaces it keeps its bytes)."""
        if self.metadata.format_version < BLOCK_UPDATES_SINCE_VERSION:
            return [], []
        try:
            listed = self._db.execute(
                "SELECT cx, cz, CASE WHEN typeof(data) = 'text' AND length(CAST(data AS BLOB)) <= ? THEN data END,"
                " typeof(data) FROM block_updates", (MAX_BLOCK_UPDATES_TEXT_BYTES,)).fetchall()
        except READ_ERRORS as error:
            raise database_error(error, self.path, "read the world") from None
        rows, problems = [], []
        for cx, cz, text, kind in listed:
            if type(cx) is not int or type(cz) is not int:
                continue  # a damaged key: no column names it
            try:
                if text is None:
                    raise ValueError(f"they are a {kind} value, not JSON text of at most "
                                     f"{MAX_BLOCK_UPDATES_TEXT_BYTES} bytes")
                column_rows = check_rows(json.loads(text))
                if any((row[0] >> 4, row[2] >> 4) != (cx, cz) for row in column_rows):
                    raise ValueError("they name cells outside their column")
                rows.extend(column_rows)
            except (ValueError, RecursionError) as error:
                problems.append(((cx, cz), self._damage(cx, cz, BLOCK_UPDATES, error)))
        return rows, problems

    def _damage(self, cx: int, cz: int, part: str, error: Exception) -> CorruptWorldError:
        self._damaged.add((cx, cz, part))
        what = f"column ({cx}, {cz})" if part == BLOCKS else f"{part} of column ({cx}, {cz})"
        verb = "is" if part == BLOCKS else "are"
        return CorruptWorldError(f"world {self.path}: {what} {verb} damaged: {error}")

    # --- saving -----------------------------------------------------------------------------

    def save(self, columns: Iterable[tuple[tuple[int, int], Column]], player_state: dict | None,
             entities: Iterable[tuple[tuple[int, int], list[dict]]] = (), block_updates: list[list] = (),
             world_ticks: int = 0, players: Mapping[str, dict | None] | None = None) -> None:
        """Write `columns`, column entities, the local player's state (`player_state`, the players row
        `LOCAL_PLAYER`), the states of `players` (name -> state; None deletes that name's row; the
        rows of players not given are kept), every pending block update (rows as
        `BlockUpdates.rows` gives them; they replace all saved ones) and the world's tick counter in
        one transaction: all of it lands, or none and the file keeps its last save. A damaged row this replaces is copied to
        `damaged_columns` first. Raises only WorldFileError subclasses: WorldDiskFullError, WorldReadOnlyError,
        WorldPermissionError or WorldDiskError when the disk refuses, CorruptWorldError when the file does,
        UnsavableWorldError (before anything is written) for a value an open would refuse."""
        try:
            _check_world_ticks(world_ticks)
            player_rows = _player_rows({**(players or {}), LOCAL_PLAYER: player_state})
            entity_rows = [(cx, cz, listed.text if isinstance(listed, EntitiesText) else entities_json(listed))
                           for (cx, cz), listed in entities]
            update_rows = _block_update_rows(block_updates)
        except (TypeError, ValueError, RecursionError) as error:
            raise UnsavableWorldError(f"cannot save the world at {self.path}: {error}; nothing of this save was "
                                      "written, the file keeps its last save") from error
        columns = list(columns)  # the pairs only: each column is encoded as it is written
        replaced = ({(cx, cz, BLOCKS) for (cx, cz), _ in columns} | {(cx, cz, ENTITIES) for cx, cz, _ in entity_rows}
                    | {(cx, cz, BLOCK_UPDATES) for cx, cz, part in self._damaged if part == BLOCK_UPDATES})
        kept = replaced & self._damaged
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._upgrade()
            self._keep_damaged(kept)
            self._write(columns, player_rows, entity_rows, update_rows, world_ticks)
            self._db.execute("COMMIT")
        except sqlite3.Error as error:
            self._roll_back(error)
            failure = database_error(error, self.path, "save the world")
            raise type(failure)(f"{failure}; nothing of this save was written, the file keeps its last save") from error
        except BaseException as error:
            self._roll_back(error)
            raise
        self._damaged -= kept
        self.metadata = replace(self.metadata, format_version=FORMAT_VERSION, world_ticks=world_ticks)

    def _upgrade(self) -> None:
        """Inside a save of an older file: add the tables its version lacks and set FORMAT_VERSION."""
        version = self.metadata.format_version
        if version >= FORMAT_VERSION:
            return
        if version < ENTITIES_SINCE_VERSION:
            self._db.execute(CREATE_ENTITIES)
        if version < CHECKSUM_SINCE_VERSION:
            self._db.execute(CREATE_DAMAGED)
        if version < BLOCK_UPDATES_SINCE_VERSION:
            self._db.execute(CREATE_BLOCK_UPDATES)
            self._db.execute("INSERT INTO meta VALUES (?, ?)", (WORLD_TICKS_KEY, json.dumps(0)))
        if version < PLAYERS_SINCE_VERSION:  # the meta row's state: the local player's, written by this save
            self._db.execute(CREATE_PLAYERS)
            self._db.execute("DELETE FROM meta WHERE key = ?", (PLAYER_STATE_KEY,))
        if version < GAME_MODE_SINCE_VERSION:  # made when every world was creative (`Metadata.game_mode`)
            self._db.execute("INSERT INTO meta VALUES (?, ?)", (GAME_MODE_KEY, json.dumps(self.metadata.game_mode)))
        self._db.execute("UPDATE meta SET value = ? WHERE key = 'format_version'", (json.dumps(FORMAT_VERSION),))

    def _keep_damaged(self, rows: set[tuple[int, int, str]]) -> None:
        """Copy the damaged rows this save replaces into `damaged_columns`, exactly as stored."""
        source = {BLOCKS: "SELECT cx, cz, 'blocks', blocks FROM columns",
                  ENTITIES: "SELECT cx, cz, 'entities', data FROM entities",
                  BLOCK_UPDATES: "SELECT cx, cz, 'block updates', data FROM block_updates"}
        for cx, cz, part in sorted(rows):
            self._db.execute(f"INSERT OR REPLACE INTO damaged_columns {source[part]} WHERE cx = ? AND cz = ?", (cx, cz))

    def _write(self, columns: list[tuple[tuple[int, int], Column]], player_rows: list[tuple[str, str | None]],
               entity_rows: list[tuple[int, int, str | None]], update_rows: list[tuple[int, int, str]],
               world_ticks: int) -> None:
        db = self._db
        db.executemany("INSERT OR REPLACE INTO columns VALUES (?, ?, ?)",
                       ((cx, cz, encode_column(column)) for (cx, cz), column in columns))
        db.executemany("DELETE FROM entities WHERE cx = ? AND cz = ?",
                       ((cx, cz) for cx, cz, text in entity_rows if text is None))
        db.executemany("INSERT OR REPLACE INTO entities VALUES (?, ?, ?)",
                       ((cx, cz, text) for cx, cz, text in entity_rows if text is not None))
        db.executemany("DELETE FROM players WHERE name = ?", ((name,) for name, text in player_rows if text is None))
        db.executemany("INSERT OR REPLACE INTO players VALUES (?, ?)",
                       ((name, text) for name, text in player_rows if text is not None))
        db.execute("DELETE FROM block_updates")
        db.executemany("INSERT INTO block_updates VALUES (?, ?, ?)", update_rows)
        db.execute("UPDATE meta SET value = ? WHERE key = ?", (json.dumps(world_ticks), WORLD_TICKS_KEY))
        _write_checksum(db)
        _write_world_id(db, self.world_id)

    def _roll_back(self, error: BaseException) -> None:
        """End a failed save's transaction, if SQLite has not ended it already (it does on a full disk)."""
        if not self._db.in_transaction:
            return
        try:
            self._db.execute("ROLLBACK")
        except sqlite3.Error as rollback_error:
            error.add_note(f"and the rollback failed too: {rollback_error}")

    def close(self) -> None:
        self._db.close()


def _write_new_world(db: sqlite3.Connection, metadata: Metadata, world_id: int) -> None:
    """Make the tables and meta rows of a new world in one transaction, then move them into the file."""
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
    db.execute("BEGIN IMMEDIATE")
    for create in (CREATE_META, CREATE_COLUMNS, CREATE_ENTITIES, CREATE_DAMAGED, CREATE_BLOCK_UPDATES, CREATE_PLAYERS):
        db.execute(create)
    values = {"format_version": metadata.format_version, "seed": metadata.seed, "created_at": metadata.created_at,
              "spawn": list(metadata.spawn), WORLD_TICKS_KEY: metadata.world_ticks,
              GAME_MODE_KEY: metadata.game_mode}  # a new world has no players
    db.executemany("INSERT INTO meta VALUES (?, ?)", [(k, json.dumps(v)) for k, v in values.items()])
    _write_checksum(db)
    _write_world_id(db, world_id)
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the header (and application id) into the file now


def _player_rows(players: Mapping[str, dict | None]) -> list[tuple[str, str | None]]:
    """(name, JSON text, or None to delete the row) for each of `players`, by name, each checked as an
    open would check it; TypeError or ValueError naming the player otherwise."""
    rows = []
    for name, state in sorted(players.items()):
        check_player_name(name)
        try:
            rows.append((name, None if state is None else player_state_json(state)))
        except (TypeError, ValueError) as error:
            raise type(error)(f"the player {name!r}: {error}") from None
    return rows


def _block_update_rows(rows: list[list]) -> list[tuple[int, int, str]]:
    """Pending updates grouped by column as (cx, cz, JSON) rows, each checked as a load would check it."""
    by_column: dict[tuple[int, int], list[list]] = {}
    for row in check_rows(list(rows)):
        by_column.setdefault((row[0] >> 4, row[2] >> 4), []).append(row)
    return [(cx, cz, json.dumps(listed, separators=(",", ":"))) for (cx, cz), listed in sorted(by_column.items())]


def _check_world_ticks(ticks: object) -> None:
    """ValueError naming world_ticks unless an open would accept `ticks` (`file_checks.check_meta_value`)."""
    try:
        check_meta_value(WORLD_TICKS_KEY, ticks)
    except ValueError as error:
        raise ValueError(f"its world_ticks {error}") from None


def new_world_id() -> int:
    """A random world id, 1..MAX_WORLD_ID (two worlds share one with odds of 1 in 2 billion)."""
    return secrets.randbelow(MAX_WORLD_ID) + 1


def _write_world_id(db: sqlite3.Connection, world_id: int) -> None:
    """Inside a write transaction: store the world's id in the header. Every transaction does, so the
    header page, with the id, is in each transaction the write-ahead log holds (`file_checks.check_log`)."""
    db.execute(f"PRAGMA user_version = {int(world_id)}")


def _read_world_id(db: sqlite3.Connection, path: Path) -> int:
    """The world id in the open file's header (0 or any value outside 1..MAX_WORLD_ID: none yet)."""
    try:
        return db.execute("PRAGMA user_version").fetchone()[0]
    except READ_ERRORS as error:
        raise database_error(error, path, "open the world") from None


def _write_checksum(db: sqlite3.Connection) -> None:
    """Inside a write transaction: store the checksum of the meta rows as they now are."""
    rows = dict(db.execute("SELECT key, value FROM meta WHERE key != ?", (CHECKSUM_KEY,)).fetchall())
    db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (CHECKSUM_KEY, json.dumps(meta_checksum(rows))))


def _check_creatable(path: Path) -> None:
    """WorldExistsError if anything is at `path` (or its log); WorldFileError if its folder is missing;
    WorldReadOnlyError or WorldPermissionError if the folder cannot be written."""
    for taken in (path, companion_path(path, "-wal")):
        if os.path.lexists(taken):
            raise WorldExistsError(f"cannot create a world at {path}: {taken} is already there")
    if not path.parent.is_dir():
        raise WorldFileError(f"cannot create a world at {path}: folder {path.parent} does not exist")
    problem = access_error(path, "create a world")
    if problem is not None:
        raise problem


def _remove_created(path: Path) -> None:
    """Delete a world file this process created (and its WAL, if one is left); a file that cannot be
    removed stays (the error being raised says why the world was not made)."""
    for created in (path, companion_path(path, "-wal")):
        try:
            created.unlink(missing_ok=True)
        except OSError:
            pass


def _connect(path: Path, mode: str) -> sqlite3.Connection:
    # timeout=0: a locked world is reported at once instead of waiting for it.
    uri = f"{path.resolve().as_uri()}?mode={mode}"
    connection = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=0, check_same_thread=True)
    try:
        connection.execute("PRAGMA locking_mode=EXCLUSIVE")  # before the first read: no shared memory, lock held
        connection.execute("PRAGMA trusted_schema=OFF")  # no SQL function runs from a view, trigger or default
    except BaseException:
        connection.close()
        raise
    return connection
