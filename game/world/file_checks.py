"""The checks an open makes before a world file is used: each turns one kind of bad file into its clear
error, and none of them writes anything or runs anything stored in the file.

Owns, in the order `storage.WorldFile.open` makes them: the path is a regular file (a FIFO or a
device would block or misbehave as soon as it is opened), its bytes start with SQLite's header and
are as long as the header says, it carries Boxel's application id, the write-ahead log beside it
(if any) was written by this world and no other (`check_log`), this user can write it and its
folder, its schema is exactly Boxel's (read from `sqlite_master` before any table is touched, so a
trigger or a view stored in the file is never run), its meta table holds the keys of its version
with a matching checksum and every value of the right type and range (`check_meta_value`, the
same rule a save applies before writing), from format 5 its players table holds at most
MAX_SAVED_PLAYERS rows of at most MAX_PLAYERS_TEXT_BYTES in all, each a player name
(`player_names.check_player_name`) and a state checked as the meta player state is (`read_players`),
the world is not in use, and SQLite's
`PRAGMA quick_check` finds every page sound.

Every value read from the file is checked when it is read, here, so no reader (the game, the
world list) ever sees an unchecked one: a value that is not what Boxel writes (a 400-digit number,
NaN, a spawn beyond the world border, a player state nested 10,000 deep) is a CorruptWorldError
naming the field, even when its checksum matches (a program that knows the format wrote it).
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
import struct
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType

from .file_errors import (CorruptWorldError, ForeignFileError, ForeignLogError, NewerFormatError, NotAFileError,
                          UnexpectedSchemaError, WorldFileError, WorldNotFoundError, WorldPermissionError, access_error,
                          disk_error)
from .file_format import (APPLICATION_ID, BLOCK_UPDATES_SINCE_VERSION, CHECKSUM_KEY, CHECKSUM_SINCE_VERSION, CREATIVE,
                          GAME_MODE_KEY, GAME_MODES,
                          FORMAT_VERSION, MAX_CREATED_AT_S, MAX_JSON_DEPTH, MAX_JSON_INT, MAX_META_KEY_BYTES,
                          MAX_META_TEXT_BYTES, MAX_PLAYERS_TEXT_BYTES, MAX_SAVED_PLAYERS, MAX_WORLD_TICKS,
                          PLAYER_STATE_KEY, PLAYERS_SINCE_VERSION, SPAWN_HEIGHT, SPAWN_LIMIT, WORLD_ID_BYTES,
                          WORLD_ID_OFFSET, WORLD_TICKS_KEY, meta_checksum, meta_keys, schema_rows)
from .noise import MAX_SEED, MIN_SEED
from .player_names import LOCAL_PLAYER, MAX_NAME_LENGTH, check_player_name

SQLITE_MAGIC = b"SQLite format 3\x00"
HEADER_BYTES = 100
"""[bytes] SQLite's database header."""
_NO_BLOCK = getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
"""Open flags that keep a FIFO or terminal swapped in after the type check from blocking the read."""
COMPANION_SUFFIXES = ("-wal", "-journal")
"""Files SQLite opens beside the database: they must be regular files too, or SQLite's open of them blocks."""
READ_ERRORS = (sqlite3.Error, UnicodeDecodeError)
"""What reading a damaged file can raise: SQLite's errors, and Python's when a stored text is not UTF-8."""
WAL_HEADER_BYTES = 32
"""[bytes] SQLite's write-ahead log header: magic, version, page size, checkpoint, two salts, checksum."""
WAL_FRAME_HEADER_BYTES = 24
"""[bytes] Before each page in the log: page number, database size (nonzero on a commit), two salts, checksum."""
WAL_MAGICS = (0x377F0682, 0x377F0683)
"""The first 4 bytes of a write-ahead log (little- or big-endian checksums); anything else SQLite ignores."""
MAX_PAGE_BYTES = 65536
"""[bytes] SQLite's largest page."""
SHOWN_CHARS = 80
"""[characters] Most of a bad value an error message repeats."""


@dataclass(frozen=True)
class Metadata:
    format_version: int
    seed: int
    created_at: float
    """[s] Unix time the world was created."""
    spawn: tuple[float, float, float]
    """[blocks] Feet position of a new player."""
    player_state: dict | None
    """What the game saved about the local player (`LOCAL_PLAYER`), as it gave it (JSON types): a
    format 1 to 4 file's meta row, a format 5 file's players row of that name."""
    world_ticks: int = 0
    """The world's tick counter (scheduled block updates are due by it); 0 before format 4."""
    players: Mapping[str, dict] = field(default_factory=lambda: MappingProxyType({}))
    """Every saved player's state by name (read-only), the local player's included; a format 1 to 4
    file's one player is under `LOCAL_PLAYER`."""
    game_mode: str = CREATIVE
    """"survival" or "creative" (`file_format.GAME_MODES`); CREATIVE before format 6, when every world was."""


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
    """Reject an empty, truncated, non-SQLite or foreign file from its bytes alone, and one with another
    world's write-ahead log beside it (`check_log`). Reads only."""
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
    try:
        wal_pending = wal.stat().st_size > 0  # a crash mid-checkpoint: SQLite finishes it from the WAL
    except FileNotFoundError:  # none, or another process closing the world removed it meanwhile
        wal_pending = False
    if count_is_valid and not wal_pending and size < page_size * page_count:
        raise CorruptWorldError(f"{where} is truncated: {size} bytes, but its header says "
                                f"{page_count} pages of {page_size} bytes ({page_size * page_count})")
    application_id = int.from_bytes(header[68:72], "big")
    if application_id != APPLICATION_ID:
        raise ForeignFileError(f"{path} is an SQLite database but not a Boxel world "
                               f"(application id {application_id:#x}, Boxel's is {APPLICATION_ID:#x})")
    check_log(path, header)


def world_id(header: bytes) -> bytes:
    """The world id in a database header (`file_format.WORLD_ID_OFFSET`): 4 bytes, all zero for none."""
    return header[WORLD_ID_OFFSET:WORLD_ID_OFFSET + WORLD_ID_BYTES]


def check_log(path: Path, header: bytes) -> None:
    """ForeignLogError unless the write-ahead log beside the world at `path` (whose first HEADER_BYTES
    are `header`) belongs to it. Reads only; the log is left as it is.

    SQLite replays a log's committed transactions into whatever database it finds beside it: the log
    names no database. Every Boxel transaction writes the header page, which carries the world's id
    (`file_format` module notes), so a log belongs to a world when each header page among the
    transactions SQLite would replay carries that world's id, with its page size. A log with no such
    transaction (none, an empty one, one cut before its first commit) replays nothing and passes. A
    world with no id yet (made before ids, and not saved since) cannot tell, and passes."""
    own = world_id(header)
    if own == bytes(WORLD_ID_BYTES):
        return
    log = companion_path(path, "-wal")
    page_size, frames = _replayed_frames(log)
    if not frames:
        return
    ids = {frame_id for page, frame_id in frames if page == 1}
    db_page_size = int.from_bytes(header[16:18], "big")
    db_page_size = MAX_PAGE_BYTES if db_page_size == 1 else db_page_size
    if page_size == db_page_size and ids == {own}:
        return
    found = ", ".join(sorted(f"{int.from_bytes(i, 'big'):#010x}" for i in ids)) or "none"
    pages = f"; its pages are {page_size} bytes, the world's {db_page_size}" if page_size != db_page_size else ""
    raise ForeignLogError(
        f"world file {path} has a write-ahead log beside it ({log.name}) that another world wrote (this "
        f"world's id is {int.from_bytes(own, 'big'):#010x}, the log's {found}{pages}): SQLite would replay it "
        f"into this world, which would then open as the other. Nothing was changed. Move {log.name} away (keep "
        "it: it holds the other world's last saves) to play this world as it was last saved")


def _replayed_frames(log: Path) -> tuple[int, list[tuple[int, bytes | None]]]:
    """(page size, [(page number, the world id of a header page, else None)]) of the frames of the
    committed transactions in the write-ahead log at `log` that SQLite would replay (its salts in
    every frame, each frame whole, up to the last commit); (0, []) when there is no log or SQLite
    would ignore it. Reads each frame's 24-byte header, and 4 bytes of each header page."""
    try:
        fd = os.open(log, os.O_RDONLY | _NO_BLOCK)
    except FileNotFoundError:
        return 0, []
    except OSError as error:
        raise disk_error(error, log, "read the world") or WorldFileError(f"cannot read {log}: {error}") from None
    try:
        info = os.fstat(fd)
        _require_regular(log, info.st_mode)
        head = os.pread(fd, WAL_HEADER_BYTES, 0)
        if len(head) < WAL_HEADER_BYTES:
            return 0, []
        magic, _, page_size = struct.unpack(">III", head[:12])
        if magic not in WAL_MAGICS or not 512 <= page_size <= MAX_PAGE_BYTES or page_size & (page_size - 1):
            return 0, []
        return page_size, _committed_frames(fd, info.st_size, page_size, head[16:24])
    except OSError as error:
        raise disk_error(error, log, "read the world") or WorldFileError(f"cannot read {log}: {error}") from None
    finally:
        os.close(fd)


def _committed_frames(fd: int, size: int, page_size: int, salts: bytes) -> list[tuple[int, bytes | None]]:
    frames: list[tuple[int, bytes | None]] = []
    committed = 0
    step = WAL_FRAME_HEADER_BYTES + page_size
    for offset in range(WAL_HEADER_BYTES, size - step + 1, step):
        frame = os.pread(fd, WAL_FRAME_HEADER_BYTES, offset)
        if len(frame) < WAL_FRAME_HEADER_BYTES or frame[8:16] != salts:
            break  # SQLite stops at the first frame of another log generation
        page = int.from_bytes(frame[:4], "big")
        at = offset + WAL_FRAME_HEADER_BYTES + WORLD_ID_OFFSET
        frames.append((page, os.pread(fd, WORLD_ID_BYTES, at) if page == 1 else None))
        if frame[4:8] != bytes(4):
            committed = len(frames)
    return frames[:committed]


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
        row = db.execute("SELECT CASE WHEN typeof(value) = 'text' AND length(CAST(value AS BLOB)) <= ? THEN value END"
                         " FROM meta WHERE key = 'format_version'", (MAX_META_TEXT_BYTES,)).fetchone()
    except READ_ERRORS as error:
        raise database_error(error, path, "open the world") from None
    version = _json_value(row[0], path, "format_version") if row is not None and isinstance(row[0], str) else None
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= MAX_FORMAT_VERSION:
        raise CorruptWorldError(f"world file {path} is damaged: format version {_shown(version)}")
    return version


MAX_FORMAT_VERSION = 2 ** 31 - 1
"""Largest format version read as one (a newer Boxel's); a larger number is damage."""


def read_metadata(db: sqlite3.Connection, path: Path, version: int) -> Metadata:
    """The meta table of a file of format `version` (its schema checked), checked: exactly that version's
    keys, each value JSON text of at most MAX_META_TEXT_BYTES, the checksum (from CHECKSUM_SINCE_VERSION)
    and every value's type and range (`check_meta_value`). CorruptWorldError naming the field otherwise."""
    where = f"world file {path}"
    rows = _meta_rows(db, path, version)
    if version >= CHECKSUM_SINCE_VERSION and _json_value(rows[CHECKSUM_KEY], path, CHECKSUM_KEY) != meta_checksum(rows):
        raise CorruptWorldError(f"{where} is damaged: its metadata (seed, spawn, player...) does not match "
                                "its checksum, so it may open as another world")
    values = {}
    for key in META_VALUE_CHECKS:
        if key in rows:
            value = _json_value(rows[key], path, key)
            try:
                values[key] = check_meta_value(key, value)
            except (TypeError, ValueError) as error:
                raise CorruptWorldError(f"{where} is damaged or was altered: its {key} {error}") from None
    if version >= PLAYERS_SINCE_VERSION:
        players = read_players(db, path)
    else:
        state = values[PLAYER_STATE_KEY]
        players = {} if state is None else {LOCAL_PLAYER: state}
    return Metadata(version, values["seed"], values["created_at"], values["spawn"], players.get(LOCAL_PLAYER),
                    values.get(WORLD_TICKS_KEY, 0), MappingProxyType(players), values.get(GAME_MODE_KEY, CREATIVE))


def read_players(db: sqlite3.Connection, path: Path) -> dict[str, dict]:
    """The players table of a format 5 file (its schema checked), checked: at most MAX_SAVED_PLAYERS
    rows of at most MAX_PLAYERS_TEXT_BYTES of state in all (counted before any is read), each name a
    player name (`check_player_name`) and each state JSON text of at most MAX_META_TEXT_BYTES that
    `check_player_state` accepts as an object. CorruptWorldError naming the player otherwise."""
    where = f"world file {path}"
    try:
        count, total = db.execute("SELECT count(*), total(length(CAST(state AS BLOB))) FROM players").fetchone()
        if count > MAX_SAVED_PLAYERS or total > MAX_PLAYERS_TEXT_BYTES:
            raise CorruptWorldError(f"{where} is damaged: its players table holds {count} players in {int(total)} "
                                    f"bytes, more than the {MAX_SAVED_PLAYERS} players and {MAX_PLAYERS_TEXT_BYTES} "
                                    "bytes a world file holds")
        rows = db.execute(
            "SELECT CASE WHEN typeof(name) = 'text' AND length(CAST(name AS BLOB)) <= ? THEN name END, typeof(name),"
            " CASE WHEN typeof(state) = 'text' AND length(CAST(state AS BLOB)) <= ? THEN state END, typeof(state),"
            " length(CAST(state AS BLOB)) FROM players ORDER BY name", (MAX_NAME_LENGTH, MAX_META_TEXT_BYTES)).fetchall()
    except READ_ERRORS as error:
        raise database_error(error, path, "open the world") from None
    players: dict[str, dict] = {}
    for name, name_kind, text, state_kind, length in rows:
        try:
            if name is None:
                raise ValueError(f"a {name_kind} or a text longer than {MAX_NAME_LENGTH} bytes")
            check_player_name(name)
        except (TypeError, ValueError) as error:
            raise CorruptWorldError(f"{where} is damaged or was altered: a saved player's name is not one ({error})") from None
        if text is None:
            raise CorruptWorldError(f"{where} is damaged: the saved player {name!r} is a {state_kind} of {length} "
                                    f"bytes, not JSON text of at most {MAX_META_TEXT_BYTES} bytes")
        try:
            state = json.loads(text)
        except (ValueError, RecursionError) as error:
            raise CorruptWorldError(f"{where} is damaged: the saved player {name!r} is not JSON "
                                    f"({type(error).__name__})") from None
        try:
            if not isinstance(state, dict):
                raise TypeError(f"{_shown(state)} is not an object")
            players[name] = check_player_state(state)
        except (TypeError, ValueError) as error:
            raise CorruptWorldError(f"{where} is damaged or was altered: its saved player {name!r} {error}") from None
    return players


def _meta_rows(db: sqlite3.Connection, path: Path, version: int) -> dict[str, str]:
    """The meta rows {key: JSON text}, once they are exactly the keys of format `version`, each a text of
    at most MAX_META_TEXT_BYTES (a longer value is never read into memory)."""
    where = f"world file {path}"
    expected = meta_keys(version)
    try:
        listed = db.execute(
            "SELECT CASE WHEN typeof(key) = 'text' AND length(CAST(key AS BLOB)) <= ? THEN key END,"
            " typeof(value), length(CAST(value AS BLOB)) FROM meta LIMIT ?",
            (MAX_META_KEY_BYTES, len(expected) + 1)).fetchall()
        kinds = {key: (kind, length) for key, kind, length in listed if key is not None}
        if len(kinds) != len(listed) or set(kinds) != expected:
            raise CorruptWorldError(f"{where} is damaged: its meta table holds "
                                    f"{sorted(repr(key)[:SHOWN_CHARS] for key, _, _ in listed)}, "
                                    f"not the keys format version {version} writes")
        for key, (kind, length) in sorted(kinds.items()):
            if kind != "text" or length > MAX_META_TEXT_BYTES:
                raise CorruptWorldError(f"{where} is damaged: its meta value {key!r} is a {kind} of {length} bytes, "
                                        f"not JSON text of at most {MAX_META_TEXT_BYTES} bytes")
        return dict(db.execute("SELECT key, value FROM meta").fetchall())
    except READ_ERRORS as error:
        raise database_error(error, path, "open the world") from None


def _json_value(text: str, path: Path, key: str):
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:  # RecursionError: JSON nested too deep for Python
        raise CorruptWorldError(f"world file {path} is damaged: its meta value {key!r} is not JSON "
                                f"({type(error).__name__})") from None


# --- the range of every value (the same rule for what an open reads and what a save writes) --------------


def check_meta_value(key: str, value):
    """`value` of meta row `key` as Boxel keeps it (floats as float, the spawn as a tuple), once it has
    the type and range Boxel writes; TypeError or ValueError saying what is wrong (the message
    follows the field's name: "seed 1e400 is not an int in ...")."""
    return META_VALUE_CHECKS[key](value)


def _checked_seed(value) -> int:
    if _is_int(value) and MIN_SEED <= value <= MAX_SEED:
        return value
    raise ValueError(f"{_shown(value)} is not an int in {MIN_SEED}..{MAX_SEED}")


def _checked_created_at(value) -> float:
    if _is_real(value, 0, MAX_CREATED_AT_S):
        return float(value)
    raise ValueError(f"{_shown(value)} is not a number of seconds in 0..{MAX_CREATED_AT_S} (Unix time)")


def _checked_spawn(value) -> tuple[float, float, float]:
    if (isinstance(value, (list, tuple)) and len(value) == 3 and _is_real(value[0], -SPAWN_LIMIT, SPAWN_LIMIT)
            and _is_real(value[1], 0, SPAWN_HEIGHT) and _is_real(value[2], -SPAWN_LIMIT, SPAWN_LIMIT)):
        return (float(value[0]), float(value[1]), float(value[2]))
    raise ValueError(f"{_shown(value)} is not [x, y, z] numbers with x and z in -{SPAWN_LIMIT}..{SPAWN_LIMIT} "
                     f"(inside the world border) and y in 0..{SPAWN_HEIGHT}")


def _checked_world_ticks(value) -> int:
    if _is_int(value) and 0 <= value < MAX_WORLD_TICKS:
        return value
    raise ValueError(f"{_shown(value)} is not an int in 0..{MAX_WORLD_TICKS - 1}")


def check_player_state(value) -> dict | None:
    """`value` once it is None or a dict of JSON values `check_json_values` accepts."""
    if value is not None and not isinstance(value, dict):
        raise TypeError(f"{_shown(value)} is not an object (or null)")
    check_json_values(value)
    return value


def check_json_values(value) -> None:
    """ValueError (TypeError for a value JSON cannot hold) unless `value` is made of dicts with str keys,
    lists, str, bool, None, finite floats and ints within +-MAX_JSON_INT, nested at most MAX_JSON_DEPTH
    deep. Walks without recursion, so no depth can exhaust the stack."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list, tuple)):
            if depth >= MAX_JSON_DEPTH:
                raise ValueError(f"is nested more than {MAX_JSON_DEPTH} deep")
            if isinstance(item, dict):
                if not all(isinstance(key, str) for key in item):
                    raise TypeError(f"has an object key that is not text: {_shown(list(item))}")
                item = item.values()
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise ValueError(f"holds {item!r}, not a finite number")
        elif isinstance(item, int) and not isinstance(item, bool):
            if not -MAX_JSON_INT <= item <= MAX_JSON_INT:
                raise ValueError(f"holds the int {_shown(item)}, beyond +-{MAX_JSON_INT}")
        elif not (item is None or isinstance(item, (str, bool))):
            raise TypeError(f"holds a {type(item).__name__}, which JSON cannot hold")


def _checked_game_mode(value) -> str:
    if isinstance(value, str) and value in GAME_MODES:
        return value
    raise ValueError(f"{_shown(value)} is not one of {', '.join(GAME_MODES)}")


META_VALUE_CHECKS = {"seed": _checked_seed, "created_at": _checked_created_at, "spawn": _checked_spawn,
                     "player_state": check_player_state, WORLD_TICKS_KEY: _checked_world_ticks,
                     GAME_MODE_KEY: _checked_game_mode}
"""The check of each meta value read into `Metadata` (format_version and the checksum are checked before them)."""


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_real(value, low: float, high: float) -> bool:
    """A number (not a bool) in low..high: compared exactly, so a 400-digit int or NaN is simply out of range."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= high


def _shown(value) -> str:
    """A bad value for a message: its repr, cut to SHOWN_CHARS (a 400-digit number or a deep list stays short)."""
    if _is_int(value) and value.bit_length() > 200:
        return f"<an int of about {int(value.bit_length() * 0.30103)} digits>"
    try:
        text = repr(value)
    except (RecursionError, ValueError):
        return f"<a {type(value).__name__} too large to show>"
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 3] + "..."


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
