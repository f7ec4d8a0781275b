"""Shared helpers for game tests: running Boxel in a subprocess with a real window.

`run_game(*args)` runs `python main.py *args` from the repository root, under
`xvfb-run -a -s "-screen 0 1280x720x24"` when no DISPLAY is set. With neither a display nor
xvfb-run the test is skipped locally and fails in CI (CI=true), where display tests must run.

`scripted_run(events, ticks)` writes a replay, runs the lab for `ticks` ticks at 640x360 and
returns the parsed report and the screenshot's path.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from game.replay import Event, ReplayWriter

REPO_ROOT = Path(__file__).resolve().parents[2]
XVFB_ARGS = ("xvfb-run", "-a", "-s", "-screen 0 1280x720x24")
GAME_TIMEOUT_S = 180
"""[s] Wall-clock limit for one game run: a run takes a few seconds; this only stops a hang
(a slow, shared 2-core machine can be ten times slower than usual)."""
TEST_WINDOW_SIZE = "640x360"
XVFB_START_FAILURE = "Xvfb failed to start"
XVFB_START_ATTEMPTS = 3
"""`xvfb-run -a` picks a free display number by looking for lock files, so two runs starting at
the same moment (other test processes on the machine) can pick the same number and one fails
to start its server. That failure happens before the game runs, so it is simply retried."""


def display_command() -> list[str]:
    """The prefix that gives a subprocess a display: nothing when DISPLAY is set, xvfb-run otherwise.

    Skips the calling test when neither is available, except in CI (CI=true), where it fails.
    """
    if os.environ.get("DISPLAY"):
        return []
    if shutil.which(XVFB_ARGS[0]):
        return list(XVFB_ARGS)
    message = "no DISPLAY and no xvfb-run: display tests need a window (install xvfb and xauth)"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture
def run_game():
    """Run `python main.py *args` with a display; returns the CompletedProcess (text output)."""

    def run(*args: str, timeout: float = GAME_TIMEOUT_S) -> subprocess.CompletedProcess:
        command = display_command() + [sys.executable, str(REPO_ROOT / "main.py"), *args]
        for _ in range(XVFB_START_ATTEMPTS):
            done = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=timeout)
            if XVFB_START_FAILURE not in done.stderr:
                break
        return done

    return run


@dataclass(frozen=True)
class ScriptedRun:
    report: dict
    screenshot: Path
    replay: Path


@pytest.fixture
def scripted_run(run_game, tmp_path):
    """Play `events` in the lab for `ticks` ticks; returns the report, screenshot and replay paths."""

    def run(events: list[Event], ticks: int, name: str = "run", extra_args: tuple[str, ...] = ()) -> ScriptedRun:
        replay = tmp_path / f"{name}.jsonl"
        with ReplayWriter.open(replay) as writer:
            for event in events:
                writer.write(event)
        screenshot, report = tmp_path / f"{name}.png", tmp_path / f"{name}.json"
        done = run_game("--lab", "--size", TEST_WINDOW_SIZE, "--replay", str(replay),
                        "--exit-after-ticks", str(ticks), "--screenshot", str(screenshot),
                        "--report", str(report), *extra_args)
        assert done.returncode == 0, f"the game exited with {done.returncode}:\n{done.stderr[-4000:]}"
        return ScriptedRun(json.loads(report.read_text(encoding="utf-8")), screenshot, replay)

    return run
