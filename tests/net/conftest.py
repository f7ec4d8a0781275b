"""Shared helpers for the network tests: a new world's session."""

from __future__ import annotations

import pytest

from game.net.protocol import Ack, AckDelta
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


class AckReader:
    """Turns one client's `Ack` and `AckDelta` messages into whole `Ack`s, as a client does."""

    def __init__(self) -> None:
        self.state = None

    def take(self, messages) -> list[Ack]:
        acks = []
        for message in messages:
            if isinstance(message, AckDelta):
                message = message.applied_to(self.state)
            if isinstance(message, Ack):
                self.state = message.state
                acks.append(message)
        return acks
