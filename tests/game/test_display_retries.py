"""The display tests' own helpers start a run again when it never got a window (`conftest.START_FAILURES`:
two virtual displays starting at once can clash), and only then."""

from __future__ import annotations

from tests.game.conftest import START_FAILURES, XVFB_START_ATTEMPTS, run_display_script


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
