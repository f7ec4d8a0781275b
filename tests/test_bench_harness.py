"""The benchmark harness times what it says it times (the numbers themselves are not tested)."""

import pytest

from bench import harness
from bench.harness import paired_medians


def test_paired_medians_time_the_reference_and_the_operation_in_strict_turns_after_one_warm_up():
    calls = []
    paired_medians(lambda: calls.append("ours"), lambda: calls.append("reference"), repeats=3)
    assert calls == ["ours"] + ["reference", "ours"] * 3


def test_paired_medians_return_each_sides_median_in_the_unit_asked_for(monkeypatch):
    # A clock that each call moves on: the operation takes 2 ms a call, the reference 30, 10, 50 ms.
    now = [0.0]
    monkeypatch.setattr(harness.time, "perf_counter", lambda: now[0])
    reference_times = iter([0.030, 0.010, 0.050])

    def operation():
        now[0] += 0.002

    def reference():
        now[0] += next(reference_times)

    ours, theirs = paired_medians(operation, reference, repeats=3, unit="ms")
    assert (ours, theirs) == (pytest.approx(2.0), pytest.approx(30.0))


def test_paired_medians_refuse_to_take_no_samples():
    with pytest.raises(ValueError, match="at least one sample"):
        paired_medians(lambda: None, lambda: None, repeats=0)
