"""Background column generation in worker processes: ask now, collect later, never wait.

Owns: `ColumnGenerator` (submit / cancel / finished / close), the worker processes and the
byte protocol between them, and the worker's main loop (`serve`).
Does not own: which columns to ask for (the game), edits or saved columns (`world.py` loads those).

Processes, not threads, measured (`python -m bench world`, "main-thread wake-up delay"):
a column takes 1 to 2 ms of mostly small numpy calls that hold the GIL, so a generator thread
competes with the game's main thread for it. A game loop sleeps until its next frame and must
then win the GIL back: on the 2-core development machine the main thread woke 0.3 to 0.6 ms
late (90th percentile) while a thread generated, against 0.13 to 0.26 ms with a worker process
(0.12 ms with nothing generating). A process also generates on another core while the main
thread works, instead of taking turns with it. It costs a one-off start (a few tenths of a
second, on a background thread, never in `submit`) and one copy of each finished column through
a pipe (its ~50 KB byte form).

Protocol (no pickle): a request is two little-endian int64 (cx, cz); a reply is cx, cz (int64),
the byte length (uint32) and the column's byte form (`Column.to_bytes`). Each worker has one
thread here that keeps up to REQUESTS_AHEAD requests in its pipe and reads the replies in order,
so a cancelled request that is still queued is never sent (one already sent is answered, then
dropped). Starting a worker happens on that thread too, so `submit` costs a set insert and a queue
put (a few microseconds) and never blocks.

Failures: anything that goes wrong on a worker's thread (the process dies, a request cannot be
sent) ends that worker and is reported by `finished` as GenerationError, quoting the end of what
the process wrote to stderr (kept in a temporary file, so a chatty worker never blocks on a full
pipe). `close` stops every worker, including one still starting: a process is recorded under a
lock as it starts, and none starts once `close` has begun.
"""

from __future__ import annotations

import contextlib
import os
import queue
import struct
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import BinaryIO

from .column import Column

DEFAULT_WORKERS = max(1, min(4, (os.cpu_count() or 2) - 1))
"""Worker processes: every core but one (left for the game's main thread), at most 4."""

REQUESTS_AHEAD = 3
"""Requests a worker process holds at once: it starts on the next column as soon as it has written one,
instead of waiting for its feeding thread, which must first win the GIL from the game's threads, to
read the reply and ask again. Loading the spawn area at view distance 8 (169 columns, one worker on
two cores) took 1.5-1.8 s against 1.8-2.5 s one request at a time."""

_REQUEST = struct.Struct("<qq")
_REPLY_HEADER = struct.Struct("<qqI")
_STOP = None
_STOP_WAIT_S = 5.0
"""[s] How long `close` waits for each worker's thread (a column takes a few ms) before killing the processes."""
_PRINTED_TAIL_BYTES = 4000
"""How much of the end of a failed worker's stderr its GenerationError quotes (a traceback's last lines)."""
_WORKER_MAIN = "import sys; from game.world.generation import serve; serve(int(sys.argv[1]))"
_PACKAGE_ROOT = Path(__file__).resolve().parents[2]  # the folder holding the `game` package


class GenerationError(RuntimeError):
    """A worker process failed; the message carries what it printed."""


def check_worker_count(workers: object) -> int:
    """`workers` if it is a positive int; ValueError otherwise."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    return workers


class ColumnGenerator:
    """Generates terrain columns of one seed in background processes.

    `submit` and `cancel` return at once; `finished` returns the columns done so far.
    Workers start on the first `submit`. Call `close` to stop them.
    """

    def __init__(self, seed: int, workers: int = DEFAULT_WORKERS) -> None:
        self.seed = seed
        self.workers = check_worker_count(workers)
        self._wanted: set[tuple[int, int]] = set()
        self._requests: queue.SimpleQueue = queue.SimpleQueue()
        self._results: queue.SimpleQueue = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._processes: list[subprocess.Popen] = []
        """Every worker process started, recorded under `_start_lock` as it starts."""
        self._start_lock = threading.Lock()
        """Held while a worker starts and while `close` marks the generator closed."""
        self._closed = False
        self._failure: GenerationError | None = None
        """A failure `finished` met after collecting columns: the next call raises it."""

    def submit(self, cx: int, cz: int) -> None:
        """Ask for column (cx, cz); a no-op if it is already asked for."""
        if self._closed:
            raise ValueError("the column generator is closed")
        key = (cx, cz)
        if key in self._wanted:
            return
        self._wanted.add(key)
        self._requests.put(key)
        if not self._threads:
            self._threads = [threading.Thread(target=self._serve_worker, name=f"boxel-gen-{i}", daemon=True)
                             for i in range(self.workers)]
            for thread in self._threads:
                thread.start()

    def cancel(self, cx: int, cz: int) -> None:
        """Stop wanting column (cx, cz): it is skipped if not yet sent, and dropped if it arrives."""
        self._wanted.discard((cx, cz))

    def finished(self, limit: int | None = None) -> list[tuple[tuple[int, int], Column]]:
        """Up to `limit` (all when None) generated columns that are still wanted; never waits.

        A worker failure is raised as GenerationError, once. Columns collected before it are
        returned first; the call after raises it.
        """
        if self._failure is not None:
            failure, self._failure = self._failure, None
            raise failure
        done = []
        while limit is None or len(done) < limit:
            try:
                item = self._results.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, GenerationError):
                if not done:
                    raise item
                self._failure = item
                break
            key, column = item
            if key in self._wanted:
                self._wanted.discard(key)
                done.append((key, column))
        return done

    def close(self) -> None:
        """Stop the workers (a column being generated is finished first, for a short while) and kill
        any still running; no worker starts afterwards."""
        if self._closed:
            return
        with self._start_lock:
            self._closed = True
        self._wanted.clear()
        for _ in self._threads:
            self._requests.put(_STOP)
        for thread in self._threads:
            thread.join(timeout=_STOP_WAIT_S)
        for process in self._processes:
            if process.poll() is None:
                process.kill()
            process.wait()

    def _serve_worker(self) -> None:
        """One worker's thread: start the process, feed it requests one at a time, report any failure."""
        with tempfile.TemporaryFile() as printed:
            process = None
            failure: Exception | None = None
            try:
                process = self._start_worker(printed)
                if process is not None:
                    self._feed(process)
            except Exception as error:  # reported below, not left to end this thread silently
                failure = error
            finally:
                if process is not None:
                    with contextlib.suppress(OSError):
                        process.stdin.close()
                    process.wait()
                    process.stdout.close()
            if failure is not None:
                self._results.put(_generation_error(failure, printed))

    def _start_worker(self, printed: BinaryIO) -> subprocess.Popen | None:
        """Start one worker process writing its stderr to `printed`, unless `close` came first (None)."""
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(_PACKAGE_ROOT), env.get("PYTHONPATH")]))
        with self._start_lock:
            if self._closed:
                return None
            process = subprocess.Popen([sys.executable, "-c", _WORKER_MAIN, str(self.seed)], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, stderr=printed, env=env)
            self._processes.append(process)
        return process

    def _feed(self, process: subprocess.Popen) -> None:
        """Send wanted requests to `process`, up to REQUESTS_AHEAD ahead of its replies, and queue the
        replies in order, until _STOP (the requests already sent are answered first)."""
        unanswered, stopping = 0, False
        while True:
            while not stopping and unanswered < REQUESTS_AHEAD:
                try:
                    key = self._requests.get(block=unanswered == 0)  # nothing to read meanwhile: wait
                except queue.Empty:
                    break
                if key is _STOP:
                    stopping = True
                elif key in self._wanted:
                    process.stdin.write(_REQUEST.pack(*key))
                    unanswered += 1
            if not unanswered:
                return  # stopping, every reply read
            process.stdin.flush()
            header = process.stdout.read(_REPLY_HEADER.size)
            if len(header) < _REPLY_HEADER.size:
                raise EOFError(f"the worker process exited (code {process.wait()})")
            cx, cz, length = _REPLY_HEADER.unpack(header)
            self._results.put(((cx, cz), Column.from_bytes(process.stdout.read(length))))
            unanswered -= 1


def _generation_error(failure: Exception, printed: BinaryIO) -> GenerationError:
    """GenerationError for `failure`, quoting the end of what the worker wrote to stderr."""
    printed.seek(0, os.SEEK_END)
    printed.seek(max(0, printed.tell() - _PRINTED_TAIL_BYTES))
    tail = printed.read().decode(errors="replace").strip()
    return GenerationError(f"column worker failed: {type(failure).__name__}: {failure}"
                           + (f"; it printed:\n{tail}" if tail else ""))


def serve(seed: int) -> None:
    """The worker's main loop: read requests from stdin until it closes, write replies to stdout."""
    from .terrain import Terrain

    terrain = Terrain(seed)
    requests, replies = sys.stdin.buffer, sys.stdout.buffer
    while len(request := requests.read(_REQUEST.size)) == _REQUEST.size:
        cx, cz = _REQUEST.unpack(request)
        data = Column.from_ids(terrain.column(cx, cz)).to_bytes()
        replies.write(_REPLY_HEADER.pack(cx, cz, len(data)))
        replies.write(data)
        replies.flush()
