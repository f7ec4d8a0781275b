"""Timing helpers shared by every benchmark suite: medians of repeated runs and one table format.

Owns: how a case is timed (warm-up, repeats, median), how a result row looks, and running a case's
process with a window (`run_in_window`: under its own Xvfb, started again when it failed to start).
Does not own: what is measured (each `bench/bench_*.py` suite decides).

A suite is a module with `run(quick: bool) -> list[Row]`. `quick` shrinks repeat counts so the
whole table can be checked in seconds (`python -m bench --quick`); published numbers come from a full run.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

_UNITS = {"us": 1e6, "ms": 1e3, "s": 1.0}
ROOT = Path(__file__).resolve().parents[1]
XVFB_RUN = ("xvfb-run", "-a", "-s", "-screen 0 1280x720x24")
WINDOW_START_FAILURES = ("Xvfb failed to start", "Could not open display", "could not open a window")
"""What a process prints when it never got a window. `xvfb-run -a` picks a display number by its
lock file, so a run that starts while another's server (another run's, or the last case's still
shutting down) holds or frees the same number can fail to start or to connect."""
WINDOW_START_ATTEMPTS = 3
"""A run that never got a window is started this often in all: it failed before measuring anything."""


def run_in_window(command: Sequence[str], *, timeout_s: float, env: dict | None = None,
                  own_server: bool = True) -> subprocess.CompletedProcess:
    """Run `command` from the repository root with a window: under its own Xvfb (`XVFB_RUN`), or on
    the display of DISPLAY when `own_server` is False and one is set; started again when it never got
    a window (WINDOW_START_FAILURES). The CompletedProcess (text output); FileNotFoundError when a
    server is needed and xvfb-run is missing."""
    prefix: tuple[str, ...] = ()
    if own_server or not os.environ.get("DISPLAY"):
        if not shutil.which(XVFB_RUN[0]):
            raise FileNotFoundError("xvfb-run is needed for a window (Debian: xvfb, xauth)")
        prefix = XVFB_RUN
    for _ in range(WINDOW_START_ATTEMPTS):
        done = subprocess.run([*prefix, *command], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=timeout_s)
        if done.returncode == 0 or not any(failure in done.stderr for failure in WINDOW_START_FAILURES):
            return done
    return done


@dataclass(frozen=True)
class Row:
    suite: str
    case: str
    median: float
    """Median time of one operation, in `unit`."""
    unit: str
    reference: float | None = None
    """Median of the simple reference implementation on the same case, in `unit`."""
    target: str = ""
    """The performance target for this case, as text (e.g. '<= 40 us'); empty when none."""
    note: str = ""

    @property
    def ratio(self) -> float | None:
        """How many times faster than the reference (reference / median)."""
        if self.reference is None or self.median <= 0.0:
            return None
        return self.reference / self.median


def median_time(operation: Callable[[], object], *, repeats: int, inner: int = 1, warmup: int = 1,
                unit: str = "us", setup: Callable[[], object] | None = None) -> float:
    """Median wall time of one call of `operation`, in `unit`.

    Each of `repeats` samples times `inner` back-to-back calls and divides; `setup` (untimed)
    runs before each sample.
    """
    scale = _UNITS[unit]
    for _ in range(warmup):
        if setup is not None:
            setup()
        operation()
    samples = []
    for _ in range(repeats):
        if setup is not None:
            setup()
        start = time.perf_counter()
        for _ in range(inner):
            operation()
        samples.append((time.perf_counter() - start) / inner * scale)
    return statistics.median(samples)


def paired_medians(operation: Callable[[], object], reference: Callable[[], object], *, repeats: int,
                   unit: str = "us") -> tuple[float, float]:
    """Median wall times of one call of `operation` and of `reference`, sampled in strict turns
    (reference, operation, reference, ...; `operation` gets one untimed warm-up call first).
    On a shared machine, whose speed drifts over seconds, a slow spell then falls on both alike,
    and each sample starts after a call of the other, with whatever the other left in the
    processor's caches: the ratio is fair where two medians taken one after the other, or
    several operation samples per reference sample (all but the first warm), would not be."""
    if repeats < 1:
        raise ValueError(f"paired_medians needs at least one sample, got repeats={repeats}")
    scale = _UNITS[unit]
    operation()
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(repeats):
        for timed, samples in ((reference, theirs), (operation, ours)):
            start = time.perf_counter()
            timed()
            samples.append((time.perf_counter() - start) * scale)
    return statistics.median(ours), statistics.median(theirs)


def percentile(values: list[float], fraction: float) -> float:
    """The `fraction` (0..1) percentile by nearest rank."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("percentile of no values")
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def format_table(rows: list[Row]) -> str:
    """A Markdown table of the rows (also readable in a terminal)."""
    header = "| suite | case | median | reference | ratio | target | note |"
    lines = [header, "|---|---|---:|---:|---:|---|---|"]
    for r in rows:
        ref = f"{r.reference:.3g} {r.unit}" if r.reference is not None else ""
        ratio = f"{r.ratio:.1f}x" if r.ratio is not None else ""
        lines.append(f"| {r.suite} | {r.case} | {r.median:.3g} {r.unit} | {ref} | {ratio} | {r.target} | {r.note} |")
    return "\n".join(lines)
