"""The benchmark harness times what it says it times (the numbers themselves are not tested)."""

from bench.harness import paired_medians


def test_paired_medians_time_the_reference_between_spread_out_runs_of_the_operation():
    calls = []
    paired_medians(lambda: calls.append("ours"), lambda: calls.append("reference"), repeats=6, reference_repeats=3)
    # One warm-up, then each reference sample followed by its share of the operation's samples.
    assert calls == ["ours", "reference", "ours", "ours", "reference", "ours", "ours", "reference", "ours", "ours"]


def test_paired_medians_take_every_sample_when_the_counts_do_not_divide():
    calls = []
    paired_medians(lambda: calls.append("ours"), lambda: calls.append("reference"), repeats=5, reference_repeats=3)
    assert calls.count("ours") == 1 + 5 and calls.count("reference") == 3
