"""Fixtures for the world tests: fresh worlds in temporary folders, and file fingerprints."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from game.world import World

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
