"""SIGTERM, SIGHUP and SIGINT stop the game as closing the window does: what was played is saved,
the exit status is 0 and nothing prints a traceback. Real processes: the game in a window (under
Xvfb), a headless run, and a start interrupted while the world loads."""

from __future__ import annotations

import contextlib
import math
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from game.rules.player import saved_player
from game.rules.replay import Click, KeyDown, KeyUp, Look, ReplayWriter
from game.frontends.stop_signals import STOP_SIGNALS, StopRequested, on_stop_signals, raise_stop
from game.world import World
from tests.game.conftest import GAME_TIMEOUT_S, kill_game, retry_start, start_game
from tests.game.scripted_runs import CLEARANCE, PLATFORM, VIEW_DISTANCE, WINDOW, flatten

SEED = 42
MARK_TICK = 20
"""The replay's last event: once the recording holds it, the click before it has been played."""
MARK_LOOK = Look(MARK_TICK, 123.0, -7.0)
"""The look the player has when the signal comes: the saved player must have it."""
POLL_S = 0.05
"""[s] How often the tests look at the recording and the process while waiting."""
LOADING_FRAME_DELAY_MS = "1000"
"""[ms] A second a frame: loading the spawn area takes many frames, so a run is still loading seconds on."""


def make_world(path: Path) -> float:
    """A seed-42 world with the display tests' flat grass platform; the y the feet rest at."""
    with World.create(path, SEED) as world:
        floor = math.floor(world.spawn[1]) - 1
        flatten(world, floor, *PLATFORM, CLEARANCE)
    return floor + 1.0


def place_and_look(path: Path) -> Path:
    """A replay: planks placed on the grass 2 blocks east at tick 1, then MARK_LOOK at MARK_TICK."""
    replay = path.with_suffix(".jsonl")
    with ReplayWriter.open(replay) as writer:
        for event in (Look(0, 270.0, 40.0), KeyDown(0, "5"), KeyUp(0, "5"), Click(1, "right"), MARK_LOOK):
            writer.write(event)
    return replay


def wait_for(condition, process: subprocess.Popen, what: str) -> None:
    err = _waited(condition, process)
    if err is not None:
        pytest.fail(f"{what} never happened (exit {process.returncode}):\n{err[-3000:]}")


def _waited(condition, process: subprocess.Popen) -> str | None:
    """Wait until `condition()`: None; or, should `process` exit or GAME_TIMEOUT_S pass first, its
    stderr (the process killed)."""
    deadline = time.monotonic() + GAME_TIMEOUT_S
    while not condition():
        if process.poll() is not None or time.monotonic() > deadline:
            return kill_game(process)[1]
        time.sleep(POLL_S)
    return None


def start_window_until(args: list[str], tmp_path: Path, condition, what: str) -> tuple[subprocess.Popen, int]:
    """`start_game` in a window and wait until `condition()`, the game still running; started again
    when it got no window (`retry_start`); fails as `wait_for` does when it exited or hung first."""
    def attempt() -> tuple[int | None, str, subprocess.Popen, int]:
        process, pid = start_game(args, tmp_path)
        err = _waited(condition, process)
        return (None, "", process, pid) if err is None else (process.returncode, err, process, pid)

    status, err, process, pid = retry_start(attempt)
    if status is not None:  # it exited (or hung and was killed) before the condition held
        pytest.fail(f"{what} never happened (exit {status}):\n{err[-3000:]}")
    return process, pid


def recorded_mark(recording: Path) -> bool:
    return recording.exists() and f'"tick": {MARK_TICK}' in recording.read_text(encoding="utf-8")


def stop(process: subprocess.Popen, pid: int, signal_number: int) -> tuple[int, str]:
    os.kill(pid, signal_number)
    _, err = process.communicate(timeout=GAME_TIMEOUT_S)
    return process.returncode, err


def assert_saved(path: Path, feet_y: float) -> None:
    """The block placed at tick 1 and the player with the look of MARK_TICK are in the world file."""
    with World.open(path) as world:
        assert world.get_block(2, int(feet_y), 0) == "planks"
        saved = saved_player(world.player_state)
    assert (saved.yaw, saved.pitch) == (MARK_LOOK.yaw, MARK_LOOK.pitch)
    assert saved.body.feet[1] == feet_y


# --- the handlers ---------------------------------------------------------------------------------

def test_the_first_stop_signal_is_handed_on_later_ones_are_ignored_and_the_old_handlers_come_back():
    before = {number: signal.getsignal(number) for number in STOP_SIGNALS}
    heard = []
    with on_stop_signals(heard.append):
        os.kill(os.getpid(), signal.SIGHUP)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.01)  # Python runs a handler between bytecodes of the main thread
    assert heard == [signal.SIGHUP]
    assert {number: signal.getsignal(number) for number in STOP_SIGNALS} == before


def test_raise_stop_raises_a_base_exception_that_except_exception_lets_through():
    with pytest.raises(StopRequested) as stopped:
        try:
            raise_stop(signal.SIGTERM)
        except Exception:  # noqa: BLE001 - what the runners' error handling does
            pytest.fail("StopRequested must not be an Exception")
    assert stopped.value.signal_number == signal.SIGTERM and str(stopped.value) == "stopped by SIGTERM"


def test_a_handler_that_cannot_be_called_is_refused():
    with pytest.raises(TypeError), on_stop_signals("quit"):
        pass


# --- real processes -------------------------------------------------------------------------------

def test_sigterm_during_a_headless_run_saves_the_placed_block_and_the_player_and_exits_0(tmp_path):
    path = tmp_path / "headless.boxel"
    feet_y = make_world(path)
    recording = tmp_path / "played.jsonl"
    process, pid = start_game(["--headless", "--world", str(path), "--replay", str(place_and_look(path)),
                               "--record", str(recording), "--exit-after-ticks", "100000000"], tmp_path, display=False)
    wait_for(lambda: recorded_mark(recording), process, "the headless run reaching the marked tick")
    status, err = stop(process, pid, signal.SIGTERM)
    assert status == 0, err
    assert "Traceback" not in err and "stopped by SIGTERM" in err
    assert_saved(path, feet_y)


@pytest.mark.display
@pytest.mark.parametrize("signal_number", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=["TERM", "HUP", "INT"])
def test_a_stop_signal_to_the_window_saves_the_placed_block_and_the_player_and_exits_0(tmp_path, signal_number):
    path = tmp_path / "window.boxel"
    feet_y = make_world(path)
    recording = tmp_path / "played.jsonl"
    process, pid = start_window_until(["--world", str(path), "--view-distance", VIEW_DISTANCE, "--size", "%dx%d" % WINDOW,
                                       "--replay", str(place_and_look(path)), "--record", str(recording)], tmp_path,
                                      lambda: recorded_mark(recording), "the window reaching the marked tick")
    status, err = stop(process, pid, signal_number)
    assert status == 0, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert_saved(path, feet_y)


@pytest.mark.display
@pytest.mark.parametrize("after_s", [0.0, 3.0], ids=["making the world", "opening the window or loading"])
def test_a_stop_signal_while_a_new_world_starts_exits_0_and_keeps_no_world(tmp_path, after_s):
    # The signal lands wherever the start is (the new file is there from early in World.create);
    # every phase must end the same way. after_s only makes the later phases likely; the loading
    # frames are slowed (LOADING_FRAME_DELAY_MS) so that the run cannot be playing yet.
    path = tmp_path / "new.boxel"

    def stopped_while_starting() -> tuple[int, str, str, bool]:
        """The exit status, stderr, stdout, and whether the signal was sent (the new file had appeared)."""
        process, pid = start_game(["--world", str(path), "--seed", str(SEED), "--view-distance", VIEW_DISTANCE,
                                   "--size", "%dx%d" % WINDOW, "--frame-delay-ms", LOADING_FRAME_DELAY_MS], tmp_path)
        err = _waited(path.exists, process)
        if err is not None:  # it exited (or hung) before making the world: no signal to send
            return process.returncode, err, "", False
        time.sleep(after_s)
        with contextlib.suppress(ProcessLookupError):  # a start without a window may be over already
            os.kill(pid, signal.SIGTERM)
        try:
            out, err = process.communicate(timeout=GAME_TIMEOUT_S)
        except subprocess.TimeoutExpired:  # say what the game printed: was the signal lost, or the exit stuck?
            out, err = kill_game(process)
            return None, f"still running {GAME_TIMEOUT_S} s after the signal; it printed:\n{err}", out, True
        return process.returncode, err, out, True

    status, err, out, signalled = retry_start(stopped_while_starting)
    assert signalled and status == 0, f"exit {status}, signal sent: {signalled}\n{out[-500:]}\n{err[-3000:]}"
    assert "Traceback" not in err and "ready after" not in out  # stopped before any play
    assert not path.exists() and not path.with_name("new.boxel-wal").exists()
