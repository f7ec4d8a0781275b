"""GPU frame benchmark: the game's frame times at 1920x1080, view distance 8, 12 and 16, drawn by a GPU.

For a machine with a GPU and no display (a lent accelerator): the game draws into an offscreen EGL
buffer (`main.py --offscreen`, Panda3D's `p3headlessgl`) with the driver EGL finds, and plays the
same running replay as `bench.bench_game` (north-east, W and Space held, sprinting after 10 s) on a
new world of seed 42, with `--realtime` so frame times are what a player would see. Each row comes
from one run of its own; its frame distribution after the loading screen is the result.

Rows per view distance: frame-time median, p99 and worst frame; the reference is the same run at
view distance 8. The note names the OpenGL renderer the game reported, so a run that fell back to a
software rasteriser says so. With `BOXEL_GPU_SCREENSHOTS=DIR` set, each run's last frame is saved
there as `gpu-vd{N}.png`.
On a machine without a GPU the suite still runs (EGL falls back to Mesa's llvmpipe, and the note
says so), which is how it is tested here; its numbers are only a GPU's where the note says one drew.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .bench_game import QUICK_TICKS, RUN_TICKS, play
from .harness import Row

SUITE = "gpu"
WINDOW = "1920x1080"
VIEW_DISTANCES = (12, 16)
REFERENCE_VIEW_DISTANCE = 8
SCREENSHOTS_ENV = "BOXEL_GPU_SCREENSHOTS"
"""A folder for each run's last frame (unset: none saved)."""


def run(quick: bool) -> list[Row]:
    ticks = QUICK_TICKS if quick else RUN_TICKS
    shots = os.environ.get(SCREENSHOTS_ENV)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)

        def one(view_distance: int) -> dict:
            screenshot = None if not shots else Path(shots) / f"gpu-vd{view_distance}.png"
            return play(folder, view_distance, ticks, window=WINDOW, offscreen=True, screenshot=screenshot)

        reference = one(REFERENCE_VIEW_DISTANCE)
        reports = {distance: one(distance) for distance in VIEW_DISTANCES}
    rows = [Row(SUITE, f"frame time median, view {REFERENCE_VIEW_DISTANCE}", reference["frame_ms"]["median"], "ms",
                note=f"{WINDOW} offscreen on {reference.get('graphics_renderer') or 'an unknown renderer'}; "
                     f"{reference['frame_ms']['frames']} frames, {ticks} ticks")]
    for distance, report in reports.items():
        frames, base = report["frame_ms"], reference["frame_ms"]
        rows += [
            Row(SUITE, f"frame time median, view {distance}", frames["median"], "ms", reference=base["median"],
                note=f"{frames['frames']} frames; {report['sections_shown']} sections shown, "
                     f"{report['sections_hidden']} hidden; reference: view {REFERENCE_VIEW_DISTANCE}"),
            Row(SUITE, f"frame time p99, view {distance}", frames["p99"], "ms", reference=base["p99"]),
            Row(SUITE, f"worst frame after loading, view {distance}", frames["max"], "ms", reference=base["max"],
                target="<= 100 ms"),
            Row(SUITE, f"start to first playable frame, view {distance}", report["first_playable_from_start_s"], "s",
                reference=reference["first_playable_from_start_s"]),
        ]
    return rows
