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
(`game.paths`) or playing a world (`game.cli`, `game.app`).

A world's name is its file name without `.boxel`: the file holds no name of its own, so renaming
renames the file (and its write-ahead log) and a listed name always matches what is on disk.
"""

from __future__ import annotations

import os
import random
import sqlite3
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from .paths import data_dir

WORLDS_FOLDER_NAME = "worlds"
WORLD_SUFFIX = ".boxel"
MAX_NAME_CHARS = 64
"""[characters] Longest world name: long enough for any sensible name, short enough for a row of the
title screen and for every file system's name limit (255 bytes) even in 4-byte UTF-8."""
UNSAFE_CHARACTERS = frozenset('<>:"/\\|?*')
"""Characters some file system refuses in a file name (Windows'); each becomes UNSAFE_REPLACEMENT."""
UNSAFE_REPLACEMENT = "_"
RESERVED_STEMS = frozenset({"con", "prn", "aux", "nul", *(f"com{n}" for n in range(1, 10)),
                            *(f"lpt{n}" for n in range(1, 10))})
"""File names Windows reserves for devices whatever their suffix: such a world name gets a trailing "_"."""
COMPANION_SUFFIXES = ("-wal", "-journal")
"""SQLite's files beside a world (`game.world.file_checks.COMPANION_SUFFIXES`): they move and go with it."""
MAX_COPIES = 10_000
"""Largest number suffix tried for a unique file name ("name (2)" ...): far beyond any folder a
player keeps; past it `create` refuses instead of searching forever."""


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
    from .world.file_errors import WorldFileError

    path = Path(path)
    last_played, size = _disk_facts(path)
    try:
        seed = read_seed(path)
    except WorldFileError as error:
        return WorldEntry(_name_of(path), path, None, last_played, size, problem=_short(str(error), path))
    except OSError as error:  # vanished or unreadable between the listing and the read
        return WorldEntry(_name_of(path), path, None, last_played, size,
                          problem=f"cannot read it: {error.strerror or error}")
    return WorldEntry(_name_of(path), path, seed, last_played, size)


def read_seed(path: Path) -> int:
    """The seed of the world file at `path`, read through the same checks an open makes (a regular file,
    Boxel's header, its exact schema, checksummed metadata, sound pages), reading only and keeping
    no lock (as on any open, SQLite removes an empty write-ahead log on close, and folds in one a
    crash left). A WorldFileError says what is wrong."""
    from .world.file_checks import check_file_kind, check_header, check_pages, check_schema, database_error, \
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
    return metadata.seed


def file_name_for(name: str) -> str:
    """The file name (with `.boxel`) that holds a world called `name`: characters a file system
    refuses become "_", and a device name Windows reserves gets a trailing "_". ValueError for a name
    that is not a str, is blank, is longer than MAX_NAME_CHARS or holds control characters."""
    stem = check_name(name)
    stem = "".join(UNSAFE_REPLACEMENT if char in UNSAFE_CHARACTERS else char for char in stem)
    stem = stem.rstrip(". ") or UNSAFE_REPLACEMENT  # Windows drops trailing dots and spaces
    if stem.startswith("."):
        stem = UNSAFE_REPLACEMENT + stem[1:]  # a hidden file would not be listed by most tools
    if stem.split(".")[0].casefold() in RESERVED_STEMS:
        stem += UNSAFE_REPLACEMENT
    return stem + WORLD_SUFFIX


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
    return stripped


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


def create(name: str, seed: int | None = None, folder: Path | None = None) -> WorldEntry:
    """Make a new world called `name` (a unique file name in `folder`, default `worlds_folder()`)
    with `seed` (default: random) and return its entry. ValueError for a bad name or seed, before
    anything is made; a WorldFileError when the disk refuses (nothing left behind)."""
    from .world import World
    from .world.noise import MAX_SEED, MIN_SEED

    check_name(name)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not MIN_SEED <= seed <= MAX_SEED):
        raise ValueError(f"a seed is a whole number in {MIN_SEED}..{MAX_SEED}, got {seed!r}")
    folder = worlds_folder() if folder is None else Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = unique_path(name, folder)
    World.create(path, random.randint(0, MAX_SEED) if seed is None else seed, workers=1).close()
    return describe(path)


def rename(path: Path, new_name: str) -> WorldEntry:
    """Rename the world at `path` to `new_name` (its file and write-ahead log move together) and return
    the new entry. ValueError for a bad name, a name another world has, or a path that is no world
    file; WorldInUseError for a world a game holds. Renaming to its own name changes nothing."""
    path = _checked_world_path(path)
    target = path.with_name(file_name_for(new_name))
    if target == path:
        return describe(path)
    if _taken(target) and not _same_file(target, path):
        raise ValueError(f"there is already a world named {target.name[:-len(WORLD_SUFFIX)]!r}")
    _refuse_in_use(path)
    moves = [(path, target)] + [(Path(f"{path}{suffix}"), Path(f"{target}{suffix}")) for suffix in COMPANION_SUFFIXES]
    moved: list[tuple[Path, Path]] = []
    try:
        for source, destination in moves:
            if not os.path.lexists(source):
                continue
            if _same_file(destination, source):
                os.replace(source, destination)  # the same file under another case: only its name changes
            else:
                _move_new(source, destination)
            moved.append((source, destination))
    except BaseException:
        for source, destination in reversed(moved):  # put back what moved: the world stays whole
            os.replace(destination, source)
        raise
    return describe(target)


def delete(path: Path) -> None:
    """Delete the world at `path` with its write-ahead log. ValueError for a path that is no world file
    in a worlds folder; WorldInUseError for a world a game holds (nothing is deleted then)."""
    path = _checked_world_path(path)
    _refuse_in_use(path)
    for companion in COMPANION_SUFFIXES:
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
    """WorldInUseError when a game holds the world (its lock); any other problem is no reason to refuse."""
    from .world.file_errors import WorldFileError, WorldInUseError

    try:
        read_seed(path)
    except WorldInUseError:
        raise
    except (WorldFileError, OSError):
        pass  # a damaged or foreign file can still be renamed or deleted


def _move_new(source: Path, destination: Path) -> None:
    """Move `source` to a `destination` that must not exist (a link, then an unlink: never replaces a file)."""
    try:
        os.link(source, destination)
    except OSError:
        if os.path.lexists(destination):
            raise ValueError(f"{destination} appeared meanwhile: nothing was renamed") from None
        os.rename(source, destination)  # a file system without hard links
        return
    os.unlink(source)


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
