"""Fixtures for the world tests: fresh worlds in temporary folders, and file fingerprints."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from game.world import World
from game.world.file_format import CHECKSUM_KEY, meta_checksum

SEED = 42


@pytest.fixture
def world(tmp_path: Path):
    """A new seed-42 world with one background worker, closed after the test."""
    opened = World.create(tmp_path / "world.db", seed=SEED, workers=1)
    yield opened
    opened.close()


def fingerprint(path: Path) -> tuple[bytes, int, tuple[str, ...]]:
    """The file's bytes, its modification time and the names in its folder: all a failed open must keep."""
    return path.read_bytes(), os.stat(path).st_mtime_ns, tuple(sorted(p.name for p in path.parent.iterdir()))


def edit_meta(path: Path, **texts: str) -> None:
    """Set meta rows of the closed world at `path` to these JSON texts and store the checksum that
    matches them, as a program that knows the format would: what is left to catch is the value itself."""
    db = sqlite3.connect(path)
    db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", texts.items())
    rows = dict(db.execute("SELECT key, value FROM meta").fetchall())
    db.execute("UPDATE meta SET value = ? WHERE key = ?", (json.dumps(meta_checksum(rows)), CHECKSUM_KEY))
    db.commit()
    db.close()
