"""`python -m bench server` runs its bots and counts what one client is sent (bench/bench_server.py)."""

from __future__ import annotations


def test_the_server_bench_times_every_tick_and_counts_the_bytes_sent_to_a_bot(monkeypatch):
    from bench import bench_server

    monkeypatch.setattr(bench_server, "WARMUP_TICKS", 2)
    result = bench_server.measure(2, 3)
    assert len(result["times"]) == 3 and all(t > 0 for t in result["times"])
    assert result["down"] > 3 * 40  # at least a TickUpdate and an Ack (or its delta) each tick
    assert result["up"] > 3 * 20  # a look each tick
    assert 0 <= result["column_bytes"] <= result["down"]


def test_the_server_bench_counts_no_correction_for_a_lone_predicting_bot_behind_its_simulated_link():
    from bench import bench_server

    assert bench_server.measure_corrections(60) == 0


def test_the_join_row_lists_the_windows_milestones_after_connecting_in_order_with_its_cpu_time():
    from bench import bench_server

    report = {"connect_started_epoch_s": 100.0, "connect_started_cpu_s": 2.0, "first_playable_cpu_s": 3.25,
              "join_times": {"connect_started": 100.0, "first_state": 100.5, "handshake_done": 100.25},
              "loading_times": {"game_built": 100.75, "spawn_loaded": 101.5}}
    assert bench_server.join_milestones(report) == (
        "handshake done 0.25 s, first state 0.50 s, game built 0.75 s, spawn loaded 1.50 s; "
        "the window's CPU time from connecting to playable 1.25 s")
