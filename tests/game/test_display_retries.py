"""The display tests' own helpers start a run again when it never got a window (`conftest.START_FAILURES`:
two virtual displays starting at once can clash), and only then: the scripted runs (`run_display_script`)
and the starts a test drives itself (`retry_start`)."""

from __future__ import annotations

from pathlib import Path

from tests.game.conftest import (GAME_TIMEOUT_S, START_FAILURES, XVFB_START_ATTEMPTS, retry_start,
                                run_display_script, start_game)


def _counting_script(runs, output, fail_first: int, said: str) -> str:
    """A script that counts its runs in `runs` and writes `said` to `output`, failing, on its first
    `fail_first` runs; then succeeds."""
    return (f'echo run >> "{runs}"; '
            f'if [ "$(wc -l < "{runs}")" -le {fail_first} ]; then echo "{said}" > "{output}"; exit 3; fi; '
            f'echo fine > "{output}"')


def test_a_script_whose_game_got_no_window_runs_again_until_it_does(tmp_path):
    runs, output = tmp_path / "runs.txt", tmp_path / "output.txt"
    done = run_display_script(_counting_script(runs, output, XVFB_START_ATTEMPTS - 1, START_FAILURES[-1]), output)
    assert done.returncode == 0
    assert len(runs.read_text().splitlines()) == XVFB_START_ATTEMPTS


def test_a_script_that_fails_for_another_reason_runs_once(tmp_path):
    runs, output = tmp_path / "runs.txt", tmp_path / "output.txt"
    done = run_display_script(_counting_script(runs, output, 1, "Traceback: something else"), output)
    assert done.returncode == 3
    assert len(runs.read_text().splitlines()) == 1


def test_a_script_that_never_gets_a_window_stops_after_the_last_attempt(tmp_path):
    runs, output = tmp_path / "runs.txt", tmp_path / "output.txt"
    done = run_display_script(_counting_script(runs, output, XVFB_START_ATTEMPTS + 5, START_FAILURES[0]), output)
    assert done.returncode == 3
    assert len(runs.read_text().splitlines()) == XVFB_START_ATTEMPTS


def _attempts(results: list[tuple[int, str]]):
    """An attempt for `retry_start` that returns `results` in turn, each with its call's number added."""
    calls = []

    def attempt() -> tuple[int, str, int]:
        calls.append(None)
        status, said = results[min(len(calls), len(results)) - 1]
        return status, said, len(calls)

    return attempt


def test_a_started_game_that_got_no_window_is_started_again_and_the_first_that_did_is_kept():
    no_window = (1, f"boxel: error: {START_FAILURES[-1]} (Could not open window.)")
    assert retry_start(_attempts([no_window] * (XVFB_START_ATTEMPTS - 1) + [(0, "")])) == (0, "", XVFB_START_ATTEMPTS)


def test_a_started_game_that_failed_otherwise_or_exited_0_is_not_started_again():
    assert retry_start(_attempts([(1, "Traceback: something else"), (0, "")])) == (1, "Traceback: something else", 1)
    assert retry_start(_attempts([(0, START_FAILURES[0]), (0, "")])) == (0, START_FAILURES[0], 1)


def test_a_started_game_that_never_gets_a_window_is_given_up_after_the_last_attempt():
    no_window = (1, START_FAILURES[1])
    assert retry_start(_attempts([no_window] * (XVFB_START_ATTEMPTS + 5))) == (*no_window, XVFB_START_ATTEMPTS)


def test_a_game_started_again_in_the_same_folder_gives_its_own_pid_not_the_one_before(tmp_path: Path):
    pids = []
    for _ in range(2):
        process, pid = start_game(["--help"], tmp_path, display=False)
        process.communicate(timeout=GAME_TIMEOUT_S)
        pids.append((pid, process.pid))  # without a display the wrapper's shell is the game itself
    assert [pid for pid, _ in pids] == [own for _, own in pids]
