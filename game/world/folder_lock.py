"""The lock on a folder of world files, shared by every Boxel process using that folder.

Owns: `folder_lock`, an advisory `flock` on the folder itself (so no lock file is left in it): held
exclusively while `game.userdata.world_list` creates, renames or deletes a world, and shared while
`storage.WorldFile.open` checks a world and takes SQLite's lock on it, so an open never meets a world
in the middle of a rename (with another world's write-ahead log at its name). Waiting is bounded.
Does not own: what is done under the lock (`game.userdata.world_list`, `storage.py`) or a world's own lock
(SQLite's, held while the world is open).

Where folders cannot be locked (Windows, which has no `flock` but refuses to rename or delete an
open file; a file system that cannot `flock` a folder, such as some NFS mounts; a folder this user
cannot read), the lock is skipped: each rename still never replaces a file.
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None

FOLDER_LOCK_WAIT_S = 5.0
"""[s] How long one process waits for another's hold on the folder (each create, rename or delete
takes well under a second) before giving up with WorldInUseError instead of hanging behind a stuck
process."""
FOLDER_LOCK_POLL_S = 0.01
"""[s] Pause between tries for a busy folder lock."""
_CANNOT_LOCK = frozenset({errno.EBADF, errno.EINVAL, errno.ENOLCK, errno.ENOTSUP, errno.EOPNOTSUPP})
"""What `flock` answers where the file system cannot lock a folder."""


@contextmanager
def folder_lock(folder: str | os.PathLike, shared: bool = False) -> Iterator[None]:
    """Hold `folder`'s lock (exclusive, or `shared` with other shared holders) for the `with` body;
    WorldInUseError when another process keeps it for FOLDER_LOCK_WAIT_S. One process must not take
    it twice at once (a second hold waits for the first)."""
    fd = _open_folder(Path(folder))
    if fd is None:
        yield
        return
    try:
        if not _wait_for_flock(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX):
            from .file_errors import WorldInUseError

            raise WorldInUseError(f"another Boxel window keeps the worlds folder {folder} busy: try again")
        yield
    finally:
        os.close(fd)  # releases the lock


def _open_folder(folder: Path) -> int | None:
    """A descriptor of `folder` to lock, or None where it cannot be locked."""
    if fcntl is None:
        return None
    try:
        return os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return None  # missing, or not readable by this user: its operations report their own errors


def _wait_for_flock(fd: int, operation: int) -> bool:
    """Take `flock` `operation` on `fd` within FOLDER_LOCK_WAIT_S: True once held (or when the file
    system cannot lock a folder), False when another process kept it all that time."""
    deadline = time.monotonic() + FOLDER_LOCK_WAIT_S
    while True:
        try:
            fcntl.flock(fd, operation | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(FOLDER_LOCK_POLL_S)
        except OSError as error:
            if error.errno in _CANNOT_LOCK:
                return True
            raise
