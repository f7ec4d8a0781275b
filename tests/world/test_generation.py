"""Background generation: request returns at once, poll reports each column once, a cancelled column
is never reported, and a column made by a worker process is identical to one made on the spot."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from game.world import GenerationError, World, generation
from game.world.generation import ColumnGenerator
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


def wait_for_queued_replies(generator: ColumnGenerator, count: int) -> None:
    """Wait until `count` replies have arrived from the workers, without collecting them."""
    deadline = time.monotonic() + POLL_TIMEOUT_S
    while generator._results.qsize() < count:
        assert time.monotonic() < deadline, f"{generator._results.qsize()} of {count} replies arrived"
        time.sleep(0.005)


def test_a_request_cancelled_before_it_is_sent_is_never_reported(world):
    world.request(50, 50)
    world.cancel(50, 50)
    world.request(51, 50)
    # The world's one worker serves requests in order and its replies are collected in order: once
    # (51, 50) is reported, anything that could come of (50, 50) has come.
    reported = poll_until(world, {(51, 50)})
    assert reported == [(51, 50)]
    assert not world.is_loaded(50, 50)
    assert world.pending_requests == 0
    assert world.poll() == []


def test_a_column_cancelled_after_it_was_generated_is_dropped_and_not_reported(world):
    world.request(60, 60)
    world.request(61, 60)
    wait_for_queued_replies(world._generator, 2)  # both generated, neither collected yet
    world.cancel(60, 60)
    assert world.poll() == [(61, 60)]
    assert not world.is_loaded(60, 60)
    assert world.pending_requests == 0
    assert world.poll() == []


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


# --- failures and shutting down ----------------------------------------------------------------

WORKER_CRASHES = "import sys; sys.stderr.write('boom: no terrain today'); sys.exit(3)"
WORKER_FAILS_AFTER_ONE_COLUMN = (
    "import io, sys; from game.world.generation import serve; "
    "sys.stdin = io.TextIOWrapper(io.BytesIO(sys.stdin.buffer.read(16))); serve(int(sys.argv[1])); "
    "sys.stderr.write('boom: the second column'); sys.exit(1)")
WORKER_PRINTS_A_LOT = ("import sys; sys.stderr.write('x' * 200_000); sys.stderr.flush(); "
                       "from game.world.generation import serve; serve(int(sys.argv[1]))")
"""Writes far more to stderr than a pipe holds (64 KB) before it serves."""


def finished_until(generator: ColumnGenerator, wanted: set[tuple[int, int]]) -> list[tuple[int, int]]:
    done: list[tuple[int, int]] = []
    deadline = time.monotonic() + POLL_TIMEOUT_S
    while not wanted <= set(done):
        assert time.monotonic() < deadline, f"still waiting for {wanted - set(done)}"
        done.extend(key for key, _ in generator.finished())
        time.sleep(0.005)
    return done


def error_from(poll) -> GenerationError:
    """The GenerationError that repeated `poll()` calls raise (it must come within the deadline)."""
    deadline = time.monotonic() + POLL_TIMEOUT_S
    while time.monotonic() < deadline:
        try:
            poll()
        except GenerationError as error:
            return error
        time.sleep(0.005)
    raise AssertionError("no GenerationError was reported")


WORKER_TELLS_ITS_FIRST_REQUEST = ("import struct, sys; cx, cz = struct.unpack('<qq', sys.stdin.buffer.read(16)); "
                                  "sys.stderr.write(f'first request: {cx} {cz}'); sys.exit(3)")


def test_a_request_cancelled_while_queued_is_never_sent_to_a_worker(monkeypatch):
    monkeypatch.setattr(generation, "_WORKER_MAIN", WORKER_TELLS_ITS_FIRST_REQUEST)
    generator = ColumnGenerator(SEED, workers=1)
    try:
        with generator._start_lock:  # the worker cannot start, so nothing is sent, until all three are done
            generator.submit(50, 50)
            generator.cancel(50, 50)
            generator.submit(51, 50)
        assert "first request: 51 50" in str(error_from(generator.finished))
    finally:
        generator.close()


WORKER_TELLS_WHAT_IT_HOLDS = ("import struct, sys; held = [struct.unpack('<qq', sys.stdin.buffer.read(16)) for _ in "
                              f"range({generation.REQUESTS_AHEAD})]; sys.stderr.write(f'held before answering: {{held}}'); "
                              "sys.exit(3)")


def test_a_worker_holds_several_requests_before_it_answers_one(monkeypatch):
    monkeypatch.setattr(generation, "_WORKER_MAIN", WORKER_TELLS_WHAT_IT_HOLDS)
    generator = ColumnGenerator(SEED, workers=1)
    try:
        with generator._start_lock:  # all queued before the worker starts
            for cx in range(generation.REQUESTS_AHEAD + 1):
                generator.submit(cx, 7)
        held = [(cx, 7) for cx in range(generation.REQUESTS_AHEAD)]
        assert f"held before answering: {held}" in str(error_from(generator.finished))
    finally:
        generator.close()


def test_a_worker_that_crashes_is_reported_by_poll_with_what_it_printed(world, monkeypatch):
    monkeypatch.setattr(generation, "_WORKER_MAIN", WORKER_CRASHES)
    world.request(3, 4)
    assert "boom: no terrain today" in str(error_from(world.poll))


def test_a_request_the_worker_thread_cannot_send_is_reported_not_silently_dropped():
    generator = ColumnGenerator(SEED, workers=1)
    try:
        generator.submit(2 ** 70, 0)  # World refuses this (the world border); the generator must not hang on it
        assert "out of range" in str(error_from(generator.finished))
    finally:
        generator.close()


def test_columns_finished_before_a_worker_failure_are_returned_and_the_failure_raised_next(monkeypatch):
    monkeypatch.setattr(generation, "_WORKER_MAIN", WORKER_FAILS_AFTER_ONE_COLUMN)
    generator = ColumnGenerator(SEED, workers=1)
    try:
        generator.submit(0, 0)
        generator.submit(1, 0)
        deadline = time.monotonic() + POLL_TIMEOUT_S
        while any(thread.is_alive() for thread in generator._threads):  # both outcomes are queued
            assert time.monotonic() < deadline
            time.sleep(0.005)
        (key, column), = generator.finished()
        assert key == (0, 0) and np.array_equal(column.ids(), Terrain(SEED).column(0, 0))
        with pytest.raises(GenerationError, match="boom: the second column"):
            generator.finished()
        assert generator.finished() == []  # reported once
    finally:
        generator.close()


def test_a_worker_that_writes_a_lot_to_stderr_keeps_serving(monkeypatch):
    monkeypatch.setattr(generation, "_WORKER_MAIN", WORKER_PRINTS_A_LOT)
    generator = ColumnGenerator(SEED, workers=1)
    try:
        generator.submit(2, 2)
        assert finished_until(generator, {(2, 2)}) == [(2, 2)]
    finally:
        generator.close()


class WatchedLock:
    """A lock (as a context manager) that tells when a thread has to wait for it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.waited_on = threading.Event()

    def __enter__(self) -> None:
        if not self._lock.acquire(blocking=False):
            self.waited_on.set()
            self._lock.acquire()

    def __exit__(self, *exc_info) -> None:
        self._lock.release()


def test_close_leaves_no_worker_running_even_one_still_starting(monkeypatch):
    generator = ColumnGenerator(SEED, workers=1)
    generator._start_lock = lock = WatchedLock()
    starting = threading.Event()
    started: list[subprocess.Popen] = []
    real_popen = subprocess.Popen

    def slow_start(command, **options):
        """A worker that finishes starting only once close() has begun, and then never exits by itself."""
        starting.set()
        lock.waited_on.wait(5.0)  # close() waits for this start (if it does not, the start goes on after 5 s)
        process = real_popen([sys.executable, "-c", "import time; time.sleep(60)"], **options)
        started.append(process)
        return process

    monkeypatch.setattr(generation, "_STOP_WAIT_S", 0.05)
    monkeypatch.setattr(generation.subprocess, "Popen", slow_start)
    try:
        generator.submit(0, 0)
        assert starting.wait(POLL_TIMEOUT_S), "the worker never started"
        generator.close()
        # Only the worker threads start processes: once they have ended, none can start any more.
        deadline = time.monotonic() + 15.0
        while any(thread.is_alive() for thread in generator._threads):
            assert time.monotonic() < deadline, "a worker thread still waits on its process after close()"
            time.sleep(0.005)
        assert lock.waited_on.is_set()  # close() began while the worker was starting
        assert len(started) == 1
        assert started[0].poll() is not None  # and stopped it
    finally:
        generator.close()
        for process in started:
            process.kill()
            process.wait()
