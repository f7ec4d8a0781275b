"""Benchmarks that CI would not otherwise run still work: `python -m bench --quick meshing draws`
exits 0 and prints every case's row (they open their windows under `xvfb-run` themselves, so this
needs what the display tests need), and the sight suite gives every case with its readable
reference. Numbers are not checked: times are not for tests."""

from __future__ import annotations

from tests.game.conftest import display_command, run_with_display

QUICK_TIMEOUT_S = 600
"""[s] Only stops a hang: the quick run takes well under a minute."""
DRAWS_CASES = 8


def test_the_meshing_and_draws_suites_run_and_print_every_case():
    display_command()  # skipped without a display or xvfb-run (failed in CI)
    done = run_with_display(["-m", "bench", "--quick", "meshing", "draws"], timeout=QUICK_TIMEOUT_S, display=False)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    assert any("upload one section" in row and "skipped" not in row for row in rows), rows
    assert sum(row.startswith("| draws |") for row in rows) == DRAWS_CASES


def test_the_sight_suite_runs_every_case_beside_its_readable_reference():
    from bench import bench_sight

    rows = bench_sight.run(quick=True)
    assert [row.case.split(":")[0] for row in rows] == ["face links", "hidden sections from the spawn's eye, view distance 8",
                                                        "hidden sections from the spawn's eye, view distance 12"]
    assert all(row.reference is not None and row.median > 0 for row in rows)
