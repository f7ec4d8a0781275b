"""The profile's start-up line (`bench.bench_game.startup_line`): the loading's milestones from process start."""

from __future__ import annotations

from bench.bench_game import startup_line


def test_the_start_up_line_gives_each_milestone_from_process_start_and_the_first_draws_length():
    report = {"first_playable_epoch_s": 1_000.0, "first_playable_from_start_s": 6.0,
              "loading_times": {"first_draws_started": 999.75, "first_frame_drawn": 1_000.05}}
    assert startup_line(report) == ("first playable frame 6.00 s; first frame of play drawn 6.05 s; "
                                    "first draws 250 ms (behind the loading screen)")


def test_the_start_up_line_leaves_out_milestones_a_run_did_not_reach():
    report = {"first_playable_epoch_s": 1_000.0, "first_playable_from_start_s": 6.0, "loading_times": {}}
    assert startup_line(report) == "first playable frame 6.00 s"
