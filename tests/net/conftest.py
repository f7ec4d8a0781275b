"""Shared helpers for the network tests: a new world's session."""

from __future__ import annotations

import pytest

from game.rules.session import Session
from game.world import World

SEED = 42
WORKERS = 1
"""[processes] One generation worker: the tests share two cores."""


@pytest.fixture
def world_path(tmp_path):
    return tmp_path / "served.boxel"


@pytest.fixture
def session(world_path):
    """A session on a new world (seed 42); its world is closed after the test (closing twice is fine)."""
    world = World.create(world_path, SEED, workers=WORKERS)
    yield Session.open(world)
    world.close()
