"""The game drawn into an offscreen EGL buffer with no display (`main.py --offscreen`), as the GPU
frame benchmark (`bench.bench_gpu`) runs it on a machine with no screen. Here EGL finds Mesa's
software rasteriser; on a GPU machine, the GPU's driver."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
from PIL import Image

from game.rules.replay import KeyDown, Look, ReplayWriter

from .conftest import REPO_ROOT

OFFSCREEN_TIMEOUT_S = 120
WINDOW = (320, 180)


def test_the_game_plays_a_replay_offscreen_with_no_display_and_reports_its_renderer(tmp_path):
    replay = tmp_path / "walk.jsonl"
    with ReplayWriter.open(replay) as writer:
        for event in (Look(0, 225.0, 10.0), KeyDown(0, "w")):
            writer.write(event)
    report, picture = tmp_path / "report.json", tmp_path / "last.png"
    env = {key: value for key, value in os.environ.items() if key != "DISPLAY"}
    env.update(BOXEL_DATA_DIR=str(tmp_path / "data"), BOXEL_CONFIG_DIR=str(tmp_path / "config"))
    done = subprocess.run(
        [sys.executable, "main.py", "--offscreen", "--world", str(tmp_path / "w.boxel"), "--new", "--seed", "42",
         "--view-distance", "2", "--size", "%dx%d" % WINDOW, "--replay", str(replay), "--exit-after-ticks", "20",
         "--report", str(report), "--screenshot", str(picture)],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=OFFSCREEN_TIMEOUT_S)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(report.read_text(encoding="utf-8"))
    assert result["ticks_run"] == 20 and result["window"] == list(WINDOW)
    assert "OpenGL" in result["graphics_renderer"]
    assert result["frame_ms"]["frames"] > 0
    pixels = np.asarray(Image.open(picture).convert("RGB"))
    assert pixels.shape == (WINDOW[1], WINDOW[0], 3)
    # The sky's blue above, the ground's colours below: a drawn world, not a blank buffer.
    assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 100
    # The HUD fits the buffer: the crosshair's white arms span a few percent of the height (clouds may add some),
    # not most of it, and the hearts (the only red here) are drawn, along the bottom.
    white = np.all(pixels > 235, axis=2)
    assert white[:, WINDOW[0] // 2].sum() < WINDOW[1] // 3
    red_rows, _ = np.nonzero((pixels[:, :, 0] > 170) & (pixels[:, :, 1] < 80) & (pixels[:, :, 2] < 80))
    assert len(red_rows) > 0 and red_rows.min() > WINDOW[1] * 4 // 5
