"""World file errors: one class per thing that can be wrong with a world file or the disk under it,
and the naming of SQLite's and the operating system's errors as those classes.

Owns: the error classes (every one a WorldFileError, itself a ValueError, so one `except` catches any
world file problem) and `disk_error`, which turns a failed read or write into the error that names
its cause (disk full, read-only, permission, I/O, in use) instead of SQLite's bare message.
Does not own: when files are checked or written (`storage.py`, `file_checks.py`).

Every error here is raised with nothing on disk changed: a failed open leaves the file as it was,
a failed save leaves it at its last good save.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

_SQLITE_PERM, _SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_READONLY = 3, 5, 6, 8
_SQLITE_IOERR, _SQLITE_FULL, _SQLITE_CANTOPEN, _SQLITE_AUTH = 10, 13, 14, 23
_PRIMARY_CODE_MASK = 0xFF
"""SQLite's extended result codes (SQLITE_IOERR_WRITE, ...) keep the primary code in their low byte."""
_CODES_BY_MESSAGE = {
    "database or disk is full": _SQLITE_FULL,
    "readonly database": _SQLITE_READONLY,
    "disk I/O error": _SQLITE_IOERR,
    "unable to open database file": _SQLITE_CANTOPEN,
    "database is locked": _SQLITE_BUSY,
    "database table is locked": _SQLITE_LOCKED,
}
"""SQLite's messages for the codes above, for errors that carry no code (raised by Python code)."""


class WorldFileError(ValueError):
    """A world file that cannot be created, opened or saved; the message names the file and the problem."""


class WorldExistsError(WorldFileError, FileExistsError):
    """`World.create` found something already at the path."""


class WorldNotFoundError(WorldFileError, FileNotFoundError):
    """`World.open` found nothing at the path."""


class NotAFileError(WorldFileError):
    """The path is a folder, a FIFO, a device or a socket: Boxel opens only regular files."""


class CorruptWorldError(WorldFileError):
    """The file is damaged: empty, truncated, garbage, or holding data Boxel cannot read."""


class UnexpectedSchemaError(CorruptWorldError):
    """The file holds tables, indices, views or triggers that Boxel does not create, or Boxel's own
    tables changed: it was altered by another program, and nothing stored in it is run."""


class ForeignLogError(WorldFileError):
    """The write-ahead log beside the world (its `-wal` file) was written by another world: SQLite would
    replay it into this one and the world would open as the other. Boxel does not open it, and
    keeps both files as they are."""


class UnsavableWorldError(WorldFileError):
    """A save was given values the world file cannot hold (its open would refuse them): nothing was
    written and the file keeps its last save."""


class ForeignFileError(WorldFileError):
    """The file is intact but is not a Boxel world (another program's SQLite database)."""


class NewerFormatError(WorldFileError):
    """The world was written by a newer Boxel, in a format version this code does not know."""


class WorldInUseError(WorldFileError):
    """Another process (or another open World) holds the world."""


class WorldDiskError(WorldFileError):
    """The disk or the system refused a read or write (an I/O error); the file keeps its last good save."""


class WorldDiskFullError(WorldDiskError):
    """The disk is full: a save wrote nothing and the file keeps its last good save."""


class WorldReadOnlyError(WorldDiskError):
    """The world file, its folder or its filesystem is read-only, and Boxel writes as it plays."""


class WorldPermissionError(WorldDiskError, PermissionError):
    """This user may not read or write the world file or its folder."""


def disk_error(error: Exception, path: Path, doing: str) -> WorldFileError | None:
    """The error naming why `doing` (such as "save the world") failed on the world at `path`, or None
    when `error` is not about the disk, the system or a lock (the file's content is at fault)."""
    if isinstance(error, sqlite3.Error):
        code = _sqlite_code(error)
    elif isinstance(error, OSError):
        code = _os_code(error)
    else:
        return None
    if code == _SQLITE_FULL:
        return WorldDiskFullError(f"cannot {doing} at {path}: the disk is full (free some space)")
    if code in (_SQLITE_BUSY, _SQLITE_LOCKED):
        return WorldInUseError(f"world {path} is in use by another process (or is open elsewhere "
                               "in this one); close it there first")
    if code == _SQLITE_READONLY:
        return access_error(path, doing) or WorldReadOnlyError(f"cannot {doing} at {path}: it is read-only")
    if code in (_SQLITE_PERM, _SQLITE_AUTH):
        return access_error(path, doing) or WorldPermissionError(f"cannot {doing} at {path}: permission denied")
    if code in (_SQLITE_IOERR, _SQLITE_CANTOPEN):
        return access_error(path, doing) or WorldDiskError(f"cannot {doing} at {path}: {error}")
    return None


def access_error(path: Path, doing: str) -> WorldFileError | None:
    """WorldReadOnlyError or WorldPermissionError when this user cannot write `path` (if it exists)
    or create files beside it (SQLite writes its journal there); None when both are allowed."""
    folder = path.parent
    if _read_only_filesystem(folder):
        return WorldReadOnlyError(f"cannot {doing} at {path}: {folder} is on a read-only filesystem")
    for target, kind in ((path, "file"), (folder, "folder")):
        if not os.path.lexists(target):
            continue
        needs = os.W_OK | (os.X_OK if kind == "folder" else 0)
        if os.access(target, needs):
            continue
        if not _has_write_bits(target):
            return WorldReadOnlyError(f"cannot {doing} at {path}: the {kind} {target} is read-only; make it "
                                      f"writable (chmod u+w) or use a writable folder")
        return WorldPermissionError(f"cannot {doing} at {path}: this user may not write the {kind} {target}")
    return None


def _sqlite_code(error: sqlite3.Error) -> int | None:
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & _PRIMARY_CODE_MASK
    message = str(error)
    return next((code for text, code in _CODES_BY_MESSAGE.items() if text in message), None)


def _os_code(error: OSError) -> int | None:
    """The SQLite code that means what the OS error `error` means."""
    codes = {errno.ENOSPC: _SQLITE_FULL, errno.EROFS: _SQLITE_READONLY, errno.EACCES: _SQLITE_PERM,
             errno.EPERM: _SQLITE_PERM}
    if hasattr(errno, "EDQUOT"):  # not on Windows
        codes[errno.EDQUOT] = _SQLITE_FULL
    return codes.get(error.errno, _SQLITE_IOERR)


def _read_only_filesystem(folder: Path) -> bool:
    if not hasattr(os, "statvfs"):  # Windows: a read-only volume shows in os.access instead
        return False
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _has_write_bits(target: Path) -> bool:
    try:
        return bool(os.stat(target).st_mode & 0o222)
    except OSError:
        return True
