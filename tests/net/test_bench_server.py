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
