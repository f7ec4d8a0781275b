"""Background generation: request returns at once, poll reports each column once, and a column made
by a worker process is identical to one made on the spot."""

from __future__ import annotations

import time

import numpy as np

from game.world import World
from game.world.terrain import Terrain

from .conftest import SEED

POLL_TIMEOUT_S = 60.0
"""[s] Generous: the first request starts a worker process (Python and numpy imports)."""


def poll_until(world: World, wanted: set[tuple[int, int]]) -> list[tuple[int, int]]:
    reported: list[tuple[int, int]] = []
    deadline = time.monotonic() + POLL_TIMEOUT_S
    while not wanted <= set(reported):
        assert time.monotonic() < deadline, f"still waiting for {wanted - set(reported)}"
        reported.extend(world.poll())
        time.sleep(0.005)
    return reported


def test_requested_columns_are_reported_once_and_match_the_seed(world):
    keys = {(cx, cz) for cx in range(-2, 2) for cz in (5, -7)}
    for key in sorted(keys):
        world.request(*key)
        world.request(*key)  # asking twice changes nothing
    reported = poll_until(world, keys)
    assert sorted(reported) == sorted(keys)
    assert world.pending_requests == 0
    terrain = Terrain(SEED)
    for key in keys:
        assert world.is_loaded(*key)
        assert np.array_equal(world.column(*key), terrain.column(*key))
    assert world.poll() == []


def test_a_column_read_before_its_worker_finishes_is_still_reported(world):
    world.request(30, 30)
    world.get_block(30 * 16, 64, 30 * 16)  # generated on the spot by the read
    assert poll_until(world, {(30, 30)}) == [(30, 30)]


def test_a_requested_saved_column_is_loaded_from_the_file_with_its_edits(tmp_path):
    path = tmp_path / "w.db"
    with World.create(path, seed=SEED, workers=1) as world:
        world.set_block(100, 150, 100, "brick")
    with World.open(path, workers=1) as world:
        world.request(6, 6)
        assert poll_until(world, {(6, 6)}) == [(6, 6)]
        assert world.get_block(100, 150, 100) == "brick"


def test_a_cancelled_request_is_not_reported(world):
    world.request(50, 50)
    world.cancel(50, 50)
    world.request(51, 50)
    poll_until(world, {(51, 50)})
    time.sleep(0.05)
    assert (50, 50) not in world.poll()
    assert world.pending_requests == 0


def test_poll_installs_at_most_its_limit(world):
    keys = {(cx, 9) for cx in range(6)}
    for key in sorted(keys):
        world.request(*key)
    deadline = time.monotonic() + POLL_TIMEOUT_S
    seen: list[tuple[int, int]] = []
    while len(seen) < len(keys):
        assert time.monotonic() < deadline
        batch = world.poll(limit=1)
        assert len(batch) <= 1
        seen.extend(batch)
        time.sleep(0.005)
    assert sorted(seen) == sorted(keys)
