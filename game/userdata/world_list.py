"""The catalogue of the player's worlds: the `*.boxel` files in the worlds folder, listed, made, renamed
and deleted (what the title screen shows and does). No engine import.

Owns: listing the worlds folder as `WorldEntry` values, newest first (seed and format read from the
file's checked metadata without opening it for play; last played from the file's and its
write-ahead log's modification times, as the file keeps no save time; size on disk with the log);
a file that cannot be used (damaged, foreign, in use, newer) is listed as unreadable with the reason
and never stops the listing; turning a world name into a safe, unique file name (`file_name_for`);
`create`, `rename` and `delete`, each refusing bad input with ValueError (a WorldFileError for a
world in use) and changing nothing then.
Does not own: the world file's format and checks (`game.world.file_checks`, `game.world.storage`),
making a world's terrain and spawn (`game.world.World.create`), where the data folder is
(`game.userdata.paths`) or playing a world (`game.frontends.cli`, `game.window.app`).

A world's name is its file name without `.boxel`: the file holds no name of its own, so renaming
renames the file (and its write-ahead log) and a listed name always matches what is on disk.

Several processes (two game windows on one data folder) may change one worlds folder at once, so
`create`, `rename` and `delete` each hold the folder's lock (`game.world.folder_lock`) exclusively,
while a read of a world here and an open for play hold it shared; a rename or delete also holds the
world's own lock (the bytes SQLite locks, as an open-file-description lock where Linux has one)
while it moves or removes the files. So a game never opens a world in the middle of its rename,
and a world a game holds is refused. A file moves with `renameat2`
RENAME_NOREPLACE (Linux) or `renamex_np` RENAME_EXCL (macOS) where the file system has it, else by
a rename checked under the folder lock: nothing ever replaces another file, no file ever has two
names, and SQLite's files beside a world (`-wal`, `-shm`, `-journal`) move or go with it. A name is
checked by its UTF-8 length, so its file and every SQLite file beside it fit a file system's name.
"""

from __future__ import annotations

import ctypes
import errno
import os
import random
import sqlite3
import struct
import sys
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: it refuses to rename or delete an open file, and to replace one by rename
    fcntl = None

from .paths import data_dir

WORLDS_FOLDER_NAME = "worlds"
WORLD_SUFFIX = ".boxel"
MAX_NAME_CHARS = 64
"""[characters] Longest world name: long enough for any sensible name, short enough for a row of the
title screen. MAX_NAME_BYTES bounds its file name as well."""
UNSAFE_CHARACTERS = frozenset('<>:"/\\|?*')
"""Characters some file system refuses in a file name (Windows'); each becomes UNSAFE_REPLACEMENT."""
UNSAFE_REPLACEMENT = "_"
RESERVED_STEMS = frozenset({"con", "prn", "aux", "nul", *(f"com{n}" for n in range(1, 10)),
                            *(f"lpt{n}" for n in range(1, 10))})
"""File names Windows reserves for devices whatever their suffix: such a world name gets a trailing "_"."""
COMPANION_SUFFIXES = ("-wal", "-shm", "-journal")
"""SQLite's files beside a world (the write-ahead log, its shared-memory index when another program
opened the file without Boxel's exclusive locking, the rollback journal): they move and go with it."""
MAX_COPIES = 10_000
"""Largest number suffix tried for a unique file name ("name (2)" ...): far beyond any folder a
player keeps; past it `create` refuses instead of searching forever."""
MAX_FILE_NAME_BYTES = 255
"""[bytes] Longest file name ext4, XFS, Btrfs, APFS and NTFS (255 UTF-16 units, never more than the
UTF-8 bytes' count) all accept."""
MAX_NAME_BYTES = (MAX_FILE_NAME_BYTES - len(WORLD_SUFFIX) - max(len(suffix) for suffix in COMPANION_SUFFIXES)
                  - len(f" ({MAX_COPIES})"))
"""[bytes] Longest world file name stem in UTF-8 (233): room is left for `.boxel`, SQLite's longest
file beside it (`-journal`) and the largest copy number `create` may add, so every accepted name
creates, renames and opens."""
SQLITE_LOCK_START, SQLITE_LOCK_BYTES = 0x40000000, 512
"""SQLite's lock bytes in a database file (its PENDING byte at 1 GiB, the RESERVED byte, then 510
SHARED bytes): holding them all for writing keeps every SQLite connection out of the world."""


@dataclass(frozen=True)
class WorldEntry:
    """One world file as the catalogue lists it."""

    name: str
    """The file name without `.boxel`."""
    path: Path
    seed: int | None
    """None when the file could not be read."""
    last_played: float
    """[s] Unix time of the last write to the file or its write-ahead log (every save writes one)."""
    size_bytes: int
    """[bytes] The file and its write-ahead log on disk."""
    problem: str | None = None
    """Why the world cannot be played (damaged, foreign, in use, newer format); None when it can."""
    game_mode: str | None = None
    """"survival" or "creative"; None when the file could not be read."""

    @property
    def readable(self) -> bool:
        return self.problem is None


def worlds_folder() -> Path:
    """Where the player's worlds live: `worlds` in the user's data folder (BOXEL_DATA_DIR overrides it)."""
    return data_dir() / WORLDS_FOLDER_NAME


def list_worlds(folder: Path | None = None) -> list[WorldEntry]:
    """Every `*.boxel` file in `folder` (default: `worlds_folder()`), newest first (ties by name).
    A missing folder lists nothing. Only regular files are listed: a folder named like a world is not one."""
    folder = worlds_folder() if folder is None else Path(folder)
    try:
        candidates = [path for path in folder.iterdir() if path.name.endswith(WORLD_SUFFIX) and path.is_file()
                      and len(path.name) > len(WORLD_SUFFIX)]
    except FileNotFoundError:
        return []
    except NotADirectoryError:
        raise ValueError(f"{folder} is a file, not a folder of worlds") from None
    entries = [describe(path) for path in candidates]
    return sorted(entries, key=lambda entry: (-entry.last_played, entry.name.casefold(), entry.name))


def describe(path: Path) -> WorldEntry:
    """The catalogue entry of the world file at `path`; a file that cannot be used is an entry with its problem."""
    from ..world.file_errors import WorldFileError

    path = Path(path)
    last_played, size = _disk_facts(path)
    try:
        seed, game_mode = read_seed_and_mode(path)
    except WorldFileError as error:
        return WorldEntry(_name_of(path), path, None, last_played, size, problem=_short(str(error), path))
    except OSError as error:  # vanished or unreadable between the listing and the read
        return WorldEntry(_name_of(path), path, None, last_played, size,
                          problem=f"cannot read it: {error.strerror or error}")
    return WorldEntry(_name_of(path), path, seed, last_played, size, game_mode=game_mode)


def read_seed(path: Path) -> int:
    """The seed of the world file at `path`, read through the same checks an open makes (a regular file,
    Boxel's header, its exact schema, checksummed metadata, sound pages), reading only and keeping
    no lock on the world (as on any open, SQLite removes an empty write-ahead log on close, and folds in one a
    crash left). A WorldFileError says what is wrong. Holds the worlds folder's lock shared meanwhile,
    so no rename in another process moves the world (or another world's log) under the read."""
    return read_seed_and_mode(path)[0]


def read_seed_and_mode(path: Path) -> tuple[int, str]:
    """The seed and game mode of the world file at `path`, read as `read_seed` reads the seed."""
    path = Path(path)
    with _folder_lock(path.parent, shared=True):
        return _read_seed(path)


def _read_seed(path: Path) -> tuple[int, str]:
    """`read_seed_and_mode` for a caller that holds the folder's lock already."""
    from ..world.file_checks import check_file_kind, check_header, check_pages, check_schema, database_error, \
        read_metadata

    check_file_kind(path)
    check_header(path)
    try:
        # Read-write as the game opens it (SQLite cannot read a write-ahead-log world read-only
        # without creating files beside it); nothing here writes.
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, isolation_level=None, timeout=0)
    except sqlite3.Error as error:
        raise database_error(error, path, "read the world") from None
    try:
        # Exclusive locking before the first read: a world held by a running game reads as in use,
        # and SQLite keeps the write-ahead log's index in memory instead of creating a file for it.
        db.execute("PRAGMA locking_mode=EXCLUSIVE")
        db.execute("PRAGMA trusted_schema=OFF")
        version = check_schema(db, path)
        metadata = read_metadata(db, path, version)
        check_pages(db, path)
    except sqlite3.Error as error:
        raise database_error(error, path, "read the world") from None
    finally:
        db.close()
    return metadata.seed, metadata.game_mode


def file_name_for(name: str) -> str:
    """The file name (with `.boxel`) that holds a world called `name`: characters a file system
    refuses become "_", and a device name Windows reserves gets a trailing "_". ValueError for a name
    that is not a str, is blank, is longer than MAX_NAME_CHARS or (as a file name) MAX_NAME_BYTES, or
    holds control characters."""
    return _stem_of(check_name(name)) + WORLD_SUFFIX


def check_name(name: object) -> str:
    """`name` with surrounding spaces removed, once it is a usable world name (see `file_name_for`)."""
    if not isinstance(name, str):
        raise TypeError(f"a world name is text, got {name!r}")
    stripped = unicodedata.normalize("NFC", name.strip())
    if not stripped:
        raise ValueError("a world needs a name")
    if len(stripped) > MAX_NAME_CHARS:
        raise ValueError(f"a world name is at most {MAX_NAME_CHARS} characters, got {len(stripped)}")
    if any(unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn") for char in stripped):
        raise ValueError(f"a world name cannot hold control or unassigned characters: {stripped!r}")
    _check_encoded_length(_stem_of(stripped))
    return stripped


def _stem_of(name: str) -> str:
    """The file name stem of a checked world name (see `file_name_for`)."""
    stem = "".join(UNSAFE_REPLACEMENT if char in UNSAFE_CHARACTERS else char for char in name)
    stem = stem.rstrip(". ") or UNSAFE_REPLACEMENT  # Windows drops trailing dots and spaces
    if stem.startswith("."):
        stem = UNSAFE_REPLACEMENT + stem[1:]  # a hidden file would not be listed by most tools
    if stem.split(".")[0].casefold() in RESERVED_STEMS:
        stem += UNSAFE_REPLACEMENT
    return stem


def _check_encoded_length(stem: str) -> None:
    """ValueError unless the file name stem `stem` takes at most MAX_NAME_BYTES in UTF-8 and in the
    file system's encoding."""
    try:
        size = max(len(stem.encode("utf-8")), len(os.fsencode(stem)))
    except UnicodeEncodeError:
        raise ValueError(f"this system cannot name a file {stem!r}: choose another name") from None
    if size > MAX_NAME_BYTES:
        raise ValueError(f"a world name is at most {MAX_NAME_BYTES} bytes as a file name (in UTF-8: 1 byte for a "
                         f"plain letter, up to 4 for an emoji), and this one takes {size}: shorten it")


def unique_path(name: str, folder: Path | None = None) -> Path:
    """A free path in `folder` for a world called `name`: its file name, or "name (2)", "name (3)"...
    when that is taken (by any file, a world's write-ahead log included)."""
    folder = worlds_folder() if folder is None else Path(folder)
    base = file_name_for(name)[:-len(WORLD_SUFFIX)]
    for number in range(1, MAX_COPIES + 1):
        stem = base if number == 1 else f"{base} ({number})"
        path = folder / (stem + WORLD_SUFFIX)
        if not _taken(path):
            return path
    raise ValueError(f"there are already {MAX_COPIES} worlds named like {name!r}: choose another name")


def create(name: str, seed: int | None = None, folder: Path | None = None, game_mode: str = "survival") -> WorldEntry:
    """Make a new world called `name` (a unique file name in `folder`, default `worlds_folder()`)
    with `seed` (default: random) in `game_mode` ("survival", the default as Beta's, or "creative")
    and return its entry. ValueError for a bad name, seed or mode, before anything is made; a
    WorldFileError when the disk refuses (nothing left behind) or another process keeps the folder busy."""
    from ..world import World
    from ..world.file_format import GAME_MODES
    from ..world.noise import MAX_SEED, MIN_SEED

    check_name(name)
    if not isinstance(game_mode, str) or game_mode not in GAME_MODES:
        raise ValueError(f"a game mode is one of {', '.join(GAME_MODES)}, got {game_mode!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not MIN_SEED <= seed <= MAX_SEED):
        raise ValueError(f"a seed is a whole number in {MIN_SEED}..{MAX_SEED}, got {seed!r}")
    folder = worlds_folder() if folder is None else Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    with _folder_lock(folder):
        path = unique_path(name, folder)
        World.create(path, random.randint(0, MAX_SEED) if seed is None else seed, workers=1,
                     game_mode=game_mode).close()
    return describe(path)


def rename(path: Path, new_name: str) -> WorldEntry:
    """Rename the world at `path` to `new_name` (its file and SQLite's files beside it move together)
    and return the new entry. ValueError for a bad name, a name another world has, or a path that is
    no world file; WorldInUseError for a world a game holds, or a folder another process keeps busy.
    Renaming to its own name changes nothing; a failure changes nothing."""
    path = _checked_world_path(path)
    target = path.with_name(file_name_for(new_name))
    if target == path:
        return describe(path)
    with _folder_lock(path.parent):
        path = _checked_world_path(path)  # another process may have renamed or deleted it meanwhile
        if _taken(target) and not _same_file(target, path):
            raise ValueError(f"there is already a world named {target.name[:-len(WORLD_SUFFIX)]!r}")
        _refuse_in_use(path)
        with _world_lock(path):
            _move_world(path, target)
    return describe(target)


def delete(path: Path) -> None:
    """Delete the world at `path` with SQLite's files beside it. ValueError for a path that is no world
    file in a worlds folder; WorldInUseError for a world a game holds, or a folder another process
    keeps busy (nothing is deleted then)."""
    path = _checked_world_path(path)
    with _folder_lock(path.parent):
        path = _checked_world_path(path)  # another process may have renamed or deleted it meanwhile
        _refuse_in_use(path)
        with _world_lock(path):
            for companion in COMPANION_SUFFIXES:  # first: a world is never left without its log
                Path(f"{path}{companion}").unlink(missing_ok=True)
            path.unlink()


# --- helpers ---------------------------------------------------------------------------------------------


def _checked_world_path(path: object) -> Path:
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"a world is named by its path, got {path!r}")
    path = Path(path)
    if not path.name.endswith(WORLD_SUFFIX) or len(path.name) == len(WORLD_SUFFIX):
        raise ValueError(f"{path} is not a world file (a world's name ends in {WORLD_SUFFIX})")
    if not path.is_file() or path.is_symlink():
        raise ValueError(f"there is no world file at {path}")
    return path


def _refuse_in_use(path: Path) -> None:
    """WorldInUseError when a game holds the world (its lock); any other problem is no reason to refuse.
    Opening it folds in a write-ahead log a crash left, so a readable world then has no file beside it."""
    from ..world.file_errors import WorldFileError, WorldInUseError

    try:
        _read_seed(path)
    except WorldInUseError:
        raise
    except (WorldFileError, OSError):
        pass  # a damaged or foreign file can still be renamed or deleted


def _move_world(path: Path, target: Path) -> None:
    """Move the world file and SQLite's files beside it from `path` to `target`, never replacing a
    file; when one move fails, the ones made are moved back (the world stays whole) and it raises."""
    moves = [(path, target)] + [(Path(f"{path}{suffix}"), Path(f"{target}{suffix}")) for suffix in COMPANION_SUFFIXES]
    moved: list[tuple[Path, Path]] = []
    try:
        for source, destination in moves:
            if not os.path.lexists(source):
                continue
            if _same_file(destination, source):
                os.replace(source, destination)  # the same file under another case: only its name changes
            else:
                _rename_no_replace(source, destination)
            moved.append((source, destination))
    except BaseException as error:
        _move_back(moved, error)
        raise


def _move_back(moved: list[tuple[Path, Path]], error: BaseException) -> None:
    """Undo `moved` (newest first), never replacing a file: what cannot go back stays where it is,
    named in a note on `error`."""
    for source, destination in reversed(moved):
        try:
            _rename_no_replace(destination, source)
        except (OSError, ValueError) as undo_error:
            error.add_note(f"and {destination} could not be moved back to {source}: {undo_error}")


class _NoReplaceUnsupported(Exception):
    """The system or file system has no rename that refuses to replace."""


def _rename_no_replace(source: Path, destination: Path) -> None:
    """Rename `source` to `destination` in one step, or raise ValueError when `destination` exists
    (nothing moved then). Atomic and exclusive where the system has a no-replace rename; otherwise
    checked first, which the folder lock makes safe against every Boxel process."""
    try:
        _system_rename_no_replace(os.fsencode(source), os.fsencode(destination))
        return
    except FileExistsError:
        raise ValueError(f"{destination} is already there: nothing was moved onto it") from None
    except _NoReplaceUnsupported:
        pass
    if os.path.lexists(destination):
        raise ValueError(f"{destination} is already there: nothing was moved onto it")
    try:
        os.rename(source, destination)  # Windows' rename refuses an existing destination by itself
    except FileExistsError:
        raise ValueError(f"{destination} is already there: nothing was moved onto it") from None


_RENAME_NOREPLACE, _RENAME_EXCL, _AT_FDCWD = 1, 0x4, -100
"""Linux's renameat2 flag, macOS's renamex_np flag, and "relative to the working folder"."""
_UNSUPPORTED_ERRNOS = frozenset({errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP})
"""What a kernel or file system without a no-replace rename answers."""


def _load_libc():
    if os.name != "posix":
        return None
    try:
        return ctypes.CDLL(None, use_errno=True)
    except (OSError, TypeError):
        return None


_LIBC = _load_libc()


def _system_rename_no_replace(source: bytes, destination: bytes) -> None:
    """The system's rename that refuses to replace: FileExistsError when `destination` exists,
    _NoReplaceUnsupported when there is none, OSError for any other failure."""
    renameat2 = getattr(_LIBC, "renameat2", None)
    renamex_np = getattr(_LIBC, "renamex_np", None)
    if renameat2 is not None:
        result = renameat2(_AT_FDCWD, source, _AT_FDCWD, destination, ctypes.c_uint(_RENAME_NOREPLACE))
    elif renamex_np is not None:
        result = renamex_np(source, destination, ctypes.c_uint(_RENAME_EXCL))
    else:
        raise _NoReplaceUnsupported
    if result == 0:
        return
    code = ctypes.get_errno()
    if code in _UNSUPPORTED_ERRNOS:
        raise _NoReplaceUnsupported
    raise OSError(code, os.strerror(code), os.fsdecode(source), None, os.fsdecode(destination))


def _folder_lock(folder: Path, shared: bool = False):
    """The worlds folder's lock (`game.world.folder_lock`): exclusive for a change, shared for a read."""
    from ..world.folder_lock import folder_lock

    return folder_lock(folder, shared)


@contextmanager
def _world_lock(path: Path) -> Iterator[None]:
    """Hold the bytes SQLite locks in the world file at `path` (they follow the file through a rename),
    so no game opens it meanwhile; WorldInUseError when a game holds them already."""
    from ..world.file_errors import WorldInUseError

    if fcntl is None:
        yield  # Windows refuses to rename or delete a file a game has open
        return
    fd, kind = _open_for_lock(path)
    try:
        try:
            _lock_bytes(fd, kind)
        except OSError as error:
            if error.errno in (errno.EACCES, errno.EAGAIN):
                raise WorldInUseError(f"world {path} is in use by another process (or is open elsewhere "
                                      "in this one); close it there first") from None
            if error.errno not in (errno.ENOLCK, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
                raise
        yield
    finally:
        os.close(fd)  # releases the lock


def _open_for_lock(path: Path) -> tuple[int, int]:
    """(descriptor, lock kind) for `path`: a write lock on a writable file, a read lock on a
    read-only one (which no game can open for play anyway)."""
    try:
        return os.open(path, os.O_RDWR), fcntl.F_WRLCK
    except PermissionError:
        return os.open(path, os.O_RDONLY), fcntl.F_RDLCK


_OFD_SETLK = getattr(fcntl, "F_OFD_SETLK", None) if sys.platform.startswith("linux") else None
_FLOCK_LAYOUT = "hhqqi4x"
"""Linux's 64-bit `struct flock` (type, whence, start, length, pid, padding), for F_OFD_SETLK."""


def _lock_bytes(fd: int, kind: int) -> None:
    """Lock SQLite's lock bytes of `fd` without waiting (OSError EACCES or EAGAIN when held): Linux's
    open-file-description lock, which conflicts with SQLite's locks even in this process; elsewhere a
    POSIX lock, which conflicts with other processes' only. Closing `fd` drops this process's POSIX
    locks on the file: `_refuse_in_use` has shown that it holds none."""
    if _OFD_SETLK is not None and struct.calcsize(_FLOCK_LAYOUT) == 32:
        request = struct.pack(_FLOCK_LAYOUT, kind, os.SEEK_SET, SQLITE_LOCK_START, SQLITE_LOCK_BYTES, 0)
        fcntl.fcntl(fd, _OFD_SETLK, request)
        return
    operation = fcntl.LOCK_EX if kind == fcntl.F_WRLCK else fcntl.LOCK_SH
    fcntl.lockf(fd, operation | fcntl.LOCK_NB, SQLITE_LOCK_BYTES, SQLITE_LOCK_START, os.SEEK_SET)


def _taken(path: Path) -> bool:
    return any(os.path.lexists(f"{path}{suffix}") for suffix in ("",) + COMPANION_SUFFIXES)


def _same_file(a: Path, b: Path) -> bool:
    """True when `a` and `b` are one file (a case-insensitive file system renaming "world" to "World")."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _disk_facts(path: Path) -> tuple[float, int]:
    """(last write [s], size on disk [bytes]) of the world file with its write-ahead log."""
    last, size = 0.0, 0
    for part in (path, Path(f"{path}-wal")):
        try:
            info = part.stat()
        except OSError:
            continue
        last, size = max(last, info.st_mtime), size + info.st_size
    return last, size


def _name_of(path: Path) -> str:
    return path.name[:-len(WORLD_SUFFIX)]


def _short(message: str, path: Path) -> str:
    """An error message without the file's full path (the row already names the world)."""
    for spelled in (f"world file {path} ", f"world {path} ", f"{path} ", str(path)):
        message = message.replace(spelled, "it " if spelled.endswith(" ") else "it")
    return message
