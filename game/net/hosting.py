"""A world hosted by the player's own game: `python main.py --server --world PATH --port 0` as a child.
The host's world is the player's own creative world, so its players may fly (`--allow-flying`), as
in single-player.

Owns: `HostedServer`: `start` runs the server on a world as a child process on a free port and reads
its first line (`Boxel server listening on HOST:PORT`) for the address to join and share; `stop`
sends SIGTERM (the server saves the world and every player, then exits 0) and waits for it.
`HostError` says why a server could not start (its own words, from its stderr).
Does not own: the server (`game.frontends.server`, `game.net.server`) or joining it (`game.window.app.play_remote`).
Never imports Ursina or Panda3D.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

MAIN = Path(__file__).resolve().parents[2] / "main.py"
LISTENING = "Boxel server listening on "
START_TIMEOUT_S = 60.0
"""[s] For the first line: imports, then the world's spawn area (seconds on a slow machine)."""
STOP_TIMEOUT_S = 60.0
"""[s] For the server to save and exit after SIGTERM; past it, it is killed (its last save stands)."""


class HostError(RuntimeError):
    """The hosted server did not start; the message says why."""


class HostedServer:
    """A server on `world` in a child process (see the module docstring); `address` is (host, port)."""

    def __init__(self, process: subprocess.Popen, address: tuple[str, int], log) -> None:
        self.process = process
        self.address = address
        self._log = log

    @classmethod
    def start(cls, world: Path, *, timeout: float = START_TIMEOUT_S, allow_flying: bool = True) -> HostedServer:
        """Serve `world` on a free port of this machine; HostError when no first line came in `timeout` s."""
        log = tempfile.TemporaryFile(mode="w+", prefix="boxel-host-")
        command = [sys.executable, str(MAIN), "--server", "--world", str(world), "--port", "0",
                   *(["--allow-flying"] if allow_flying else [])]
        process = subprocess.Popen(command,
                                   stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL, text=True,
                                   env=os.environ.copy())
        line = _first_line(process, timeout)
        if not line.startswith(LISTENING):
            if process.poll() is None:
                process.kill()
            process.wait()
            log.seek(0)
            said = log.read().strip().splitlines()
            log.close()
            reason = said[-1] if said else f"no answer in {timeout:g} s"
            raise HostError(f"the server for {Path(world).name} did not start: {reason}")
        host, _, port = line[len(LISTENING):].rpartition(":")
        return cls(process, (host, int(port)), log)

    @property
    def address_text(self) -> str:
        host, port = self.address
        return f"{host}:{port}"

    def stop(self, timeout: float = STOP_TIMEOUT_S) -> int:
        """SIGTERM (save and exit) and wait; the exit status (killed after `timeout` s: -9)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()
        self._log.close()
        return self.process.returncode


def _first_line(process: subprocess.Popen, timeout: float) -> str:
    """The process's first line on stdout, "" when none came in `timeout` s (read by a thread: a
    pipe cannot be waited on with a timeout everywhere)."""
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: lines.put(process.stdout.readline()), name="boxel host", daemon=True).start()
    try:
        return lines.get(timeout=timeout).strip()
    except queue.Empty:
        return ""
