"""Benchmarks that CI would not otherwise run still work: `python -m bench --quick meshing draws`
exits 0 and prints every case's row (they open their windows under `xvfb-run` themselves, so this
needs what the display tests need), the sight suite gives every case with its readable
reference, and the session suite gives its 1-, 10- and 100-player rows, the first beside the code
with one player (its reference commit) where git has that commit (else with a note). Numbers are not checked: times are
not for tests."""

from __future__ import annotations

import re

import pytest

from tests.game.conftest import display_command, run_with_display

QUICK_TIMEOUT_S = 600
"""[s] Only stops a hang: the quick run takes about a minute and a half on the 2-core development machine."""
DRAWS_CASES = 18
"""13 drawn cases (2 of them far, with and without levels of detail), then triangles and vertex bytes against three befores (`bench_draws.geometry_rows`; the
merged mesh with every face drawn has no vertex bytes row: its vertex buffers are the same)."""


def test_the_meshing_and_draws_suites_run_and_print_every_case():
    display_command()  # skipped without a display or xvfb-run (failed in CI)
    done = run_with_display(["-m", "bench", "--quick", "meshing", "draws"], timeout=QUICK_TIMEOUT_S, display=False)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    assert any("upload one section" in row and "skipped" not in row for row in rows), rows
    assert sum(row.startswith("| draws |") for row in rows) == DRAWS_CASES
    lod_row = next(row for row in rows if "with levels of detail" in row)
    assert int(re.search(r"; (\d+) coarse sections", lod_row).group(1)) > 0, lod_row  # the far view drew some coarse


def test_the_sight_suite_runs_every_case_beside_its_readable_reference():
    from bench import bench_sight

    rows = bench_sight.run(quick=True)
    assert [row.case.split(":")[0] for row in rows] == ["face links"] + [
        f"hidden sections from the spawn's eye, view distance {distance}" for distance in (8, 12, 16)]
    assert all(row.reference is not None and row.median > 0 for row in rows)


@pytest.mark.slow
def test_the_session_suite_runs_one_player_beside_its_reference_and_the_crowds():
    from bench import bench_session

    rows = bench_session.run(quick=True)
    assert [row.case for row in rows] == ["session tick, 1 player walking and digging",
                                          "session tick, 10 players walking and digging, with the mobs they bring",
                                          "session tick, 100 players walking and digging, with the mobs they bring"]
    assert all(row.median > 0 and "skipped" not in row.note for row in rows), rows
    one_player = rows[0]
    assert one_player.reference is not None or "no reference" in one_player.note, one_player


def test_a_reference_commit_not_in_the_repository_is_left_out_with_a_note(monkeypatch):
    from bench import bench_session

    monkeypatch.setenv(bench_session.REFERENCE_ENV, "0" * 40)
    tree, why = bench_session.reference_tree()
    assert tree is None
    assert "not in this repository" in why or "no git repository" in why


def test_the_items_suite_times_the_items_tick_and_the_whole_session_tick_beside_their_one_by_one_twins():
    from bench import bench_items

    items, session = bench_items.run(quick=True)
    for row in (items, session):
        assert row.suite == "items" and row.target == "<= 2 ms"
        assert row.median > 0 and row.reference is not None
    assert session.case.startswith("Session.tick")


def test_the_mobs_suite_times_the_boxlings_thinking_together_beside_each_thinking_alone():
    from bench import bench_mobs

    rows = bench_mobs.run(quick=True)  # (it raises if the two ways give different intents)
    assert [row.case for row in rows] == [f"{bench_mobs.MOBS} boxlings thinking, one tick"]
    assert rows[0].median > 0 and rows[0].reference > 0
    assert int(re.search(r"(\d+) walking", rows[0].note).group(1)) > 0, rows[0].note
