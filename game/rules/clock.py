"""The fixed-tick clock: turns variable frame times into whole 20 Hz physics ticks plus a blend factor.

Owns: `TickClock` (the time accumulator: how many ticks a frame runs and the interpolation
`alpha` for drawing between the previous and the current tick), `FrameTimer` (frame durations
from the times frames start, with waits that are not frames cut out) and `FrameTimes`
(frame-time statistics for reports and benchmarks). Pure: no Ursina, no wall clock; callers
feed times and durations.
Does not own: what a tick does (physics) or where frame durations come from (the app measures
them, or feeds a fixed duration when a replay drives the game).

The accumulator counts in ticks, not seconds, so a frame duration that is an exact fraction of
a tick (1/40 s = 1/2 tick) adds up to whole ticks without drift.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

TICKS_PER_SECOND = 20
"""[ticks/s] Minecraft's simulation rate; every per-tick physics constant assumes it."""
TICK_SECONDS = 1.0 / TICKS_PER_SECOND
"""[s] Duration of one tick."""
SCRIPTED_FRAMES_PER_TICK = 2
"""Frames drawn per tick while a replay drives the game: two, so interpolation still runs."""
SCRIPTED_FRAME_SECONDS = TICK_SECONDS / SCRIPTED_FRAMES_PER_TICK
"""[s] The frame duration fed to the clock under a replay (exactly half a tick)."""

MAX_TICKS_PER_FRAME = 5
"""[ticks] Most ticks one frame may run (a quarter second of game time).

Why: after a long stall (window dragged, debugger, a slow machine) an uncapped accumulator
would run hundreds of ticks in one frame, making that frame slower still (the "spiral of
death"). Beyond the cap the game slows down instead; the excess time is dropped, not owed.
Five keeps the game at full speed down to 4 frames per second."""

TICK_SNAP = 1e-9
"""[ticks] An accumulator this close below a whole tick counts as having reached it.

Why: frame durations like 1/60 s are 1/3 tick, which binary floats cannot hold exactly, so
three of them may sum to 0.9999999999999999 tick and the tick would slip to the next frame.
Rounding error of such sums is ~1e-16 per frame; 1e-9 tick (50 ns) is far above that and far
below any real frame duration, so it never runs a tick early by a visible amount."""


@dataclass(frozen=True, slots=True)
class FrameTicks:
    """What one frame must do: run `ticks` ticks, then draw at `alpha` between the last two."""

    ticks: int
    """[ticks] Ticks to run this frame (0 .. MAX_TICKS_PER_FRAME)."""
    alpha: float
    """[0, 1) Fraction of a tick elapsed since the latest tick: draw previous + (current - previous) x alpha."""
    dropped_ticks: int = 0
    """[ticks] Whole ticks of time discarded because of the per-frame cap."""


class TickClock:
    """Accumulates frame durations and hands out whole ticks."""

    def __init__(self, ticks_per_second: float = TICKS_PER_SECOND,
                 max_ticks_per_frame: int = MAX_TICKS_PER_FRAME) -> None:
        if not (isinstance(ticks_per_second, (int, float)) and math.isfinite(ticks_per_second)
                and ticks_per_second > 0):
            raise ValueError(f"ticks_per_second must be a positive finite number, got {ticks_per_second!r}")
        if isinstance(max_ticks_per_frame, bool) or not isinstance(max_ticks_per_frame, int) or max_ticks_per_frame < 1:
            raise ValueError(f"max_ticks_per_frame must be an integer >= 1, got {max_ticks_per_frame!r}")
        self.ticks_per_second = float(ticks_per_second)
        self.max_ticks_per_frame = max_ticks_per_frame
        self._pending = 0.0  # [ticks] accumulated time not yet run, always in [0, 1) between frames
        self.ticks_run = 0
        """[ticks] Ticks handed out since the clock was made."""

    @property
    def alpha(self) -> float:
        """[0, 1) Fraction of a tick accumulated since the latest tick."""
        return self._pending

    def advance(self, frame_seconds: float) -> FrameTicks:
        """Add one frame's duration [s]; returns how many ticks to run now and the blend factor."""
        if isinstance(frame_seconds, bool) or not isinstance(frame_seconds, (int, float)):
            raise TypeError(f"frame duration must be a number of seconds, got {frame_seconds!r}")
        if not (math.isfinite(frame_seconds) and frame_seconds >= 0.0):
            raise ValueError(f"frame duration must be finite and >= 0 seconds, got {frame_seconds!r}")
        pending = self._pending + frame_seconds * self.ticks_per_second
        ticks = math.floor(pending + TICK_SNAP)
        pending = max(pending - ticks, 0.0)
        dropped = max(ticks - self.max_ticks_per_frame, 0)
        ticks -= dropped
        self._pending = pending
        self.ticks_run += ticks
        return FrameTicks(ticks, pending, dropped)


class FrameTimer:
    """Frame durations from the times frames start: a frame lasts from its start to the next one's.

    A wait between two frames that is not a frame (the pause menu, the end-of-run settle that
    waits for streaming) is cut out with `skip_gap()`: the next frame then has no duration, so
    frame statistics cover frames only."""

    def __init__(self) -> None:
        self._last_start: float | None = None

    def frame(self, now_s: float) -> float | None:
        """[s] The time since the previous frame started, for a frame starting at `now_s` [s]; None
        for the first frame and the first after `skip_gap`."""
        previous, self._last_start = self._last_start, now_s
        return None if previous is None else now_s - previous

    def skip_gap(self) -> None:
        """The time until the next frame starts is not a frame: it is not measured."""
        self._last_start = None


class FrameTimes:
    """Collects frame durations and summarises them (median, p95, p99, max) in milliseconds."""

    def __init__(self) -> None:
        self._seconds: list[float] = []

    def add(self, frame_seconds: float) -> None:
        if not (isinstance(frame_seconds, (int, float)) and math.isfinite(frame_seconds) and frame_seconds >= 0.0):
            raise ValueError(f"frame duration must be finite and >= 0 seconds, got {frame_seconds!r}")
        self._seconds.append(float(frame_seconds))

    def __len__(self) -> int:
        return len(self._seconds)

    def summary_ms(self) -> dict[str, float | int]:
        """{'frames', 'median', 'p95', 'p99', 'max'}; the times are in ms, all 0.0 when no frame was timed."""
        if not self._seconds:
            return {"frames": 0, "median": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0}
        ms = np.asarray(self._seconds) * 1000.0
        median, p95, p99 = np.percentile(ms, [50, 95, 99])
        return {"frames": len(ms), "median": float(median), "p95": float(p95), "p99": float(p99),
                "max": float(ms.max())}
