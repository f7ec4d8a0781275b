"""Writing a user file of JSON whole or not at all.

Owns: `write_json`: the value written to a temporary file beside `path`, flushed to the disk, then
moved over `path`, so a crash or a full disk leaves the old file or the new one, never half of one.
Does not own: what the files hold (`user_settings`, `recent_servers`) or reading them back.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path


def write_json(path: Path, value) -> Path:
    """Write `value` as indented JSON to `path` atomically (its folder made if missing); returns `path`.
    OSError when it cannot be written (the old file, if any, is left as it was)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump(value, file, indent=2)
            file.write("\n")
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path
