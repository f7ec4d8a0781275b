"""Shared helpers for game tests: running Boxel in a subprocess with a real window.

`run_game(*args)` runs `python main.py *args` from the repository root, under
`xvfb-run -a -n N -s "-screen 0 1280x720x24"` when no DISPLAY is set (N: a display number of the
test process's own, `display_command`). With neither a display nor
xvfb-run the test is skipped locally and fails in CI (CI=true), where display tests must run.

`scripted_run(events, ticks)` writes a replay, runs the lab for `ticks` ticks at 640x360 and
returns the parsed report and the screenshot's path.

`sky_session` is a headless `Session` on a new seed-5 world (no autosave), for tests that build
their own scene high in the open sky.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from game.rules.replay import Event, ReplayWriter

REPO_ROOT = Path(__file__).resolve().parents[2]
XVFB_ARGS = ("xvfb-run", "-a", "-s", "-screen 0 1280x720x24")
FIRST_DISPLAY_NUMBER = 1000
DISPLAY_NUMBERS_PER_WORKER = 100
"""Each test process starts its virtual displays from its own block of display numbers (pytest-xdist's
worker gw<k>: FIRST_DISPLAY_NUMBER + k x DISPLAY_NUMBERS_PER_WORKER, taken in turn): `xvfb-run -a`
alone starts every search at 99, so two test processes starting a display at the same moment could
pick the same number, and one run then had no window (`START_FAILURES`). `-a` stays, to step past a
number another program holds."""
_display_numbers = None

DOCS_SCREENSHOTS_ENV = "BOXEL_DOCS_SCREENSHOTS"
"""Set it (to anything) and the display tests that make the docs' pictures copy them into
docs/screenshots/ (`keep_docs_screenshot`); by default a test run leaves the repository as it was."""


def keep_docs_screenshot(picture: Path, name: str) -> None:
    """Copy `picture` to docs/screenshots/`name` when DOCS_SCREENSHOTS_ENV is set."""
    if os.environ.get(DOCS_SCREENSHOTS_ENV):
        target = REPO_ROOT / "docs" / "screenshots" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(picture, target)


GAME_TIMEOUT_S = 180
"""[s] Wall-clock limit for one game run: a run takes a few seconds; this only stops a hang
(a slow, shared 2-core machine can be ten times slower than usual)."""
TEST_WINDOW_SIZE = "640x360"
START_FAILURES = ("Xvfb failed to start", "Could not open display", "could not open a window")
"""What a run prints when it never got a window: `xvfb-run -a` picks a free display number by
looking for lock files, so two runs starting at the same moment can pick the same number, and one
fails to start its server or to open its window. Test processes search from numbers of their own
(`FIRST_DISPLAY_NUMBER`); other programs on the machine may still meet them."""
XVFB_START_ATTEMPTS = 3
"""Runs that failed to start are tried this often in all: the failure happens before the program
does anything, so a retry changes nothing else."""

CLOSE_WAIT_S = 60
"""[s] How long a game may take to save and exit after its window is asked to close (a second or
two when all is well): past it the run stops with its own message instead of the test's timeout."""


def find_game_window_shell() -> str:
    """Shell that waits until the game started as `$pid` has its window, then sets `wid` to the
    window's X id. The window is found by the game's process id as well as its title: a game of
    another run on the same display (two `xvfb-run -a` starting at once can share one) is never taken
    for this one."""
    search = 'xdotool search --all --pid $pid --name "^Boxel$"'
    return (f'while ! {search} > /dev/null; do sleep 0.1; kill -0 $pid || exit 3; done; '
            f'wid="$({search} | head -1)"; ')


def close_game_window_shell() -> str:
    """Shell that asks the window `$wid` to close as a window manager's close button does, waits
    for the game `$pid` to exit (at most CLOSE_WAIT_S) and exits with its status; a game still
    running then is killed and the shell exits with 4, saying so."""
    close = subprocess.list2cmdline([sys.executable, str(REPO_ROOT / "tests" / "game" / "x11_close.py")])
    return (f'{close} $wid; waited=0; '
            f'while kill -0 $pid 2> /dev/null && [ $waited -lt {CLOSE_WAIT_S * 10} ]; do sleep 0.1; '
            'waited=$((waited + 1)); done; '
            f'if kill -0 $pid 2> /dev/null; then echo "the game did not exit within {CLOSE_WAIT_S} s of the close '
            'request" >&2; kill -9 $pid; exit 4; fi; wait $pid')


def display_command() -> list[str]:
    """The prefix that gives a subprocess a display: nothing when DISPLAY is set, xvfb-run otherwise.

    Skips the calling test when neither is available, except in CI (CI=true), where it fails.
    """
    if os.environ.get("DISPLAY"):
        return []
    if shutil.which(XVFB_ARGS[0]):
        return [*XVFB_ARGS[:2], "-n", str(next_display_number()), *XVFB_ARGS[2:]]
    message = "no DISPLAY and no xvfb-run: display tests need a window (install xvfb and xauth)"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def next_display_number() -> int:
    """The next display number of this test process's block (`DISPLAY_NUMBERS_PER_WORKER`), in turn,
    so that runs alive at once in one process (a server's window and a client's) start apart too."""
    global _display_numbers
    if _display_numbers is None:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "")
        index = int(worker[2:]) if worker.startswith("gw") and worker[2:].isdigit() else 0
        first = FIRST_DISPLAY_NUMBER + index * DISPLAY_NUMBERS_PER_WORKER
        _display_numbers = itertools.cycle(range(first, first + DISPLAY_NUMBERS_PER_WORKER))
    return next(_display_numbers)


def run_with_display(args: list[str], *, timeout: float = GAME_TIMEOUT_S, env: dict | None = None,
                     display: bool = True) -> subprocess.CompletedProcess:
    """Run `python *args` from the repository root (with a display unless `display` is False),
    retrying a run that never got a window (`_run_until_windowed`); the CompletedProcess, text output."""
    return _run_until_windowed([sys.executable, *args], display=display, timeout=timeout, env=env)


def run_display_script(script: str, *printed: Path, timeout: float = GAME_TIMEOUT_S) -> subprocess.CompletedProcess:
    """Run the shell `script` from the repository root with a display, retrying a run that never got a
    window (`_run_until_windowed`, which also reads the files `printed`, where the script sends the
    game's output); the CompletedProcess (text output). A game that got no window did nothing else,
    so its script may run again."""
    return _run_until_windowed(["sh", "-c", script], display=True, printed=printed, timeout=timeout)


def _run_until_windowed(command: list[str], *, display: bool, printed: tuple[Path, ...] = (),
                        timeout: float = GAME_TIMEOUT_S, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run `command` from the repository root (on a new display each time with `display`), again when
    it never got a window (START_FAILURES in its stderr or in one of the files `printed`), up to
    XVFB_START_ATTEMPTS runs in all."""
    def attempt() -> tuple[int, str, subprocess.CompletedProcess]:
        done = subprocess.run((display_command() if display else []) + command, cwd=REPO_ROOT, capture_output=True,
                              text=True, timeout=timeout, env=env)
        said = done.stderr + "".join(path.read_text(errors="replace") for path in printed if path.exists())
        return done.returncode, said, done

    return retry_start(attempt)[2]


def retry_start(attempt):
    """Call `attempt()`, which starts a game with a display and does with it what the test does,
    returning a tuple that begins with the game's exit status (None: still running) and what it
    printed to stderr; call it again while the game never got a window (a non-zero status with
    START_FAILURES in that text), up to XVFB_START_ATTEMPTS calls in all. Returns the last call's tuple."""
    for _ in range(XVFB_START_ATTEMPTS):
        result = attempt()
        status, said = result[0], result[1]
        if status == 0 or not any(failure in said for failure in START_FAILURES):
            break
    return result


PID_POLL_S = 0.05
"""[s] How often `start_game` looks for the game's pid file."""


def start_game(args: list[str], tmp_path: Path, *, display: bool = True) -> tuple[subprocess.Popen, int]:
    """Start `python main.py *args` (with a display unless `display` is False), with the user's settings and
    data in `tmp_path`; the Popen (text pipes) and the pid of the game's own process, which a test signals
    (xvfb-run is a shell around it). The run is a process group of its own: `kill_game` ends all of it."""
    pid_file = tmp_path / "game.pid"
    pid_file.unlink(missing_ok=True)  # a retried start must not read the pid of the start before it
    env = {"BOXEL_CONFIG_DIR": str(tmp_path / "config"), "BOXEL_DATA_DIR": str(tmp_path / "data"), **os.environ}
    wrapped = [*(display_command() if display else []), "sh", "-c", f'echo $$ > "{pid_file}"; exec "$@"', "sh",
               sys.executable, "main.py", *args]
    process = subprocess.Popen(wrapped, cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)
    deadline = time.monotonic() + GAME_TIMEOUT_S
    while not (pid_file.exists() and pid_file.read_text().strip()):
        assert process.poll() is None and time.monotonic() < deadline, "the game did not start"
        time.sleep(PID_POLL_S)
    return process, int(pid_file.read_text())


def kill_game(process: subprocess.Popen) -> tuple[str, str]:
    """Kill a `start_game` run whole (the game, xvfb-run and its Xvfb: killing xvfb-run alone leaves the
    game holding the pipes open); what it printed, (stdout, stderr)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # over already
    return process.communicate(timeout=GAME_TIMEOUT_S)


PROBE_PREFIX = "PROBE "
"""Starts the line on which a probe subprocess prints its report (`print_probe`, `run_probe`)."""


def print_probe(report: dict) -> None:
    """In a probe subprocess: print `report` for `run_probe` to read."""
    print(PROBE_PREFIX + json.dumps(report), flush=True)


def run_probe(module: str, function: str, *args, display: bool = False) -> dict:
    """Run `function(*args)` of `module` in a subprocess of its own (one Ursina app per process),
    with a display when `display` (Ursina's window_type='none' needs none), and return the report it
    printed with `print_probe`. The run must exit 0."""
    done = run_with_display(["-c", f"from {module} import {function} as probe; probe(*{args!r})"], display=display)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    line = next(line for line in done.stdout.splitlines() if line.startswith(PROBE_PREFIX))
    return json.loads(line[len(PROBE_PREFIX):])

@pytest.fixture
def run_game(tmp_path_factory):
    """Run `python main.py *args` with a display; returns the CompletedProcess (text output).

    The game reads and writes the user's settings and data in folders of the test's own (unless
    the test chose them), so a developer's settings never change what a test sees."""
    user = tmp_path_factory.mktemp("user")
    env = {"BOXEL_CONFIG_DIR": str(user / "config"), "BOXEL_DATA_DIR": str(user / "data"), **os.environ}

    def run(*args: str, timeout: float = GAME_TIMEOUT_S) -> subprocess.CompletedProcess:
        return run_with_display([str(REPO_ROOT / "main.py"), *args], timeout=timeout, env=env)

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


@pytest.fixture
def sky_session(tmp_path):
    """A headless session on a new seed-5 world, without autosave; the world is closed afterwards."""
    from game.rules.session import Session
    from game.world import World

    world = World.create(tmp_path / "w.boxel", seed=5, workers=1)
    played = Session.open(world, autosave=False)
    yield played
    world.close()


def run_without_window(script: str) -> str:
    """Run `script` in a new Python after starting Ursina with no window (no display needed); its
    stdout (it must exit 0)."""
    prelude = "from ursina import Ursina\napp = Ursina(window_type='none')\n"
    done = subprocess.run([sys.executable, "-c", prelude + script], capture_output=True, text=True, timeout=60,
                          cwd=str(REPO_ROOT))
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def replace_window_app(monkeypatch, **functions) -> None:
    """Stand a module holding `functions` (run, run_title, LaunchError...) in for `game.window.app`, which
    `cli` imports as `from ..window import app`: in `sys.modules` and as the `game.window` package's
    attribute, which that import reads first once anything in this process imported the real module."""
    import types

    import game.window

    module = types.ModuleType("game.window.app")
    for name, value in functions.items():
        setattr(module, name, value)
    monkeypatch.setitem(sys.modules, "game.window.app", module)
    monkeypatch.setattr(game.window, "app", module, raising=False)
