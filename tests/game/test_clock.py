"""The fixed-tick clock: whole 20 Hz ticks from any frame durations, a blend factor, a cap."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules.clock import MAX_TICKS_PER_FRAME, TICK_SECONDS, TICKS_PER_SECOND, FrameTimer, FrameTimes, TickClock

TICK_SUM_TOLERANCE = 1e-6
"""[ticks] Allowed difference between ticks handed out (+ alpha) and elapsed time x 20 after
hundreds of frames: float sums of frame durations drift by ~1e-13; any real bug is >= 1e-3."""


def test_sixty_frames_per_second_run_one_tick_every_third_frame():
    clock = TickClock()
    frames = [clock.advance(1 / 60) for _ in range(6)]
    assert [f.ticks for f in frames] == [0, 0, 1, 0, 0, 1]
    assert [f.alpha for f in frames] == pytest.approx([1 / 3, 2 / 3, 0.0, 1 / 3, 2 / 3, 0.0], abs=1e-12)


def test_half_tick_frames_run_exactly_one_tick_every_second_frame_forever():
    clock = TickClock()
    ticks = [clock.advance(TICK_SECONDS / 2).ticks for _ in range(10_000)]
    assert ticks == [0, 1] * 5_000
    assert clock.ticks_run == 5_000


def test_a_long_frame_runs_several_ticks_and_keeps_the_remainder_as_alpha():
    clock = TickClock()
    frame = clock.advance(0.125)  # 2.5 ticks
    assert (frame.ticks, frame.alpha, frame.dropped_ticks) == (2, 0.5, 0)
    assert clock.advance(0.025).ticks == 1  # the kept half tick plus half a tick


def test_a_stall_runs_at_most_the_capped_ticks_and_drops_the_rest():
    clock = TickClock()
    frame = clock.advance(10.25)  # 205 ticks of time
    assert frame.ticks == MAX_TICKS_PER_FRAME
    assert frame.dropped_ticks == 205 - MAX_TICKS_PER_FRAME
    assert frame.alpha == pytest.approx(0.0, abs=1e-9)
    assert clock.advance(TICK_SECONDS).ticks == 1  # nothing is owed afterwards


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(min_value=0.0, max_value=MAX_TICKS_PER_FRAME * TICK_SECONDS * 0.99), max_size=300))
def test_ticks_handed_out_match_elapsed_time_whatever_the_frame_durations(durations):
    clock = TickClock()
    total_ticks = sum(clock.advance(d).ticks for d in durations)
    elapsed_ticks = math.fsum(durations) * TICKS_PER_SECOND
    assert total_ticks + clock.alpha == pytest.approx(elapsed_ticks, abs=TICK_SUM_TOLERANCE)
    assert 0.0 <= clock.alpha < 1.0
    assert clock.ticks_run == total_ticks


@pytest.mark.parametrize("bad", [-0.001, float("nan"), float("inf"), "0.05", True, None])
def test_a_bad_frame_duration_raises_and_leaves_the_clock_unchanged(bad):
    clock = TickClock()
    clock.advance(0.03)
    with pytest.raises((ValueError, TypeError)):
        clock.advance(bad)
    assert (clock.ticks_run, clock.alpha) == (0, pytest.approx(0.6))


@pytest.mark.parametrize("kwargs", [{"ticks_per_second": 0}, {"ticks_per_second": float("nan")},
                                    {"max_ticks_per_frame": 0}, {"max_ticks_per_frame": 2.5}])
def test_a_clock_with_nonsense_settings_is_refused(kwargs):
    with pytest.raises(ValueError):
        TickClock(**kwargs)


def test_frame_times_summarise_in_milliseconds():
    times = FrameTimes()
    for _ in range(99):
        times.add(0.010)
    times.add(0.100)
    summary = times.summary_ms()
    assert summary["frames"] == 100
    assert summary["median"] == pytest.approx(10.0)
    assert summary["max"] == pytest.approx(100.0)
    assert summary["median"] <= summary["p95"] <= summary["p99"] <= summary["max"]


def test_frame_times_without_frames_are_zero():
    assert FrameTimes().summary_ms() == {"frames": 0, "median": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0}


def test_a_negative_frame_time_is_refused():
    times = FrameTimes()
    with pytest.raises(ValueError):
        times.add(-1.0)
    assert len(times) == 0


# --- frame times cover frames only ----------------------------------------------------------------

def timed(starts_and_gaps) -> FrameTimes:
    """Frame times from frame start times [s]; the string "gap" marks a wait that is not a frame."""
    timer, times = FrameTimer(), FrameTimes()
    for start in starts_and_gaps:
        if start == "gap":
            timer.skip_gap()
            continue
        duration = timer.frame(start)
        if duration is not None:
            times.add(duration)
    return times


def test_a_frame_lasts_from_its_start_to_the_next_frames_start_and_the_first_has_no_duration():
    timer = FrameTimer()
    assert timer.frame(10.0) is None
    assert timer.frame(10.016) == pytest.approx(0.016)
    assert timer.frame(10.050) == pytest.approx(0.034)


def test_the_end_of_run_settle_wait_is_not_counted_as_a_frame():
    frames = [i * 0.016 for i in range(100)]
    settle_s = 20.0  # the end-of-run settle at view distance 32 waits 17-23 s
    after = [frames[-1] + settle_s + i * 0.016 for i in range(5)]
    summary = timed([*frames, "gap", *after]).summary_ms()
    assert summary["frames"] == 99 + 4
    assert summary["max"] == pytest.approx(16.0)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.floats(0.0, 0.2), st.just("gap"), st.floats(5.0, 60.0).map(lambda s: ("wait", s))),
                max_size=60))
def test_frame_statistics_never_include_a_wait_cut_out_as_a_gap(steps):
    now, marks, longest_frame = 0.0, [0.0], 0.0
    for step in steps:
        if step == "gap":
            marks.append("gap")
            continue
        if isinstance(step, tuple):  # a long wait between frames, always cut out
            marks.append("gap")
            now += step[1]
        else:
            now += step
            if marks[-1] != "gap":
                longest_frame = max(longest_frame, step)
        marks.append(now)
    assert timed(marks).summary_ms()["max"] <= longest_frame * 1000.0 + 1e-6
