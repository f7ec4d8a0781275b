"""Levels of detail by what the window can show (`game.window.render.lod_distance`): a 160x90 window draws
view distance 8 coarse beyond 4 columns with the picture of every section drawn fine, and a 640x360 window
draws every section fine."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PIL import Image

from game.rules.replay import Look, ReplayWriter
from game.world import World

pytestmark = pytest.mark.display

SEED = 42
VIEW_DISTANCE = "8"
TICKS = 20
LOOK = Look(0, 200.0, 8.0)
"""Along the spawn's long view over hills and trees to the fog, where the coarse sections are."""
PIXEL_CHANGE = 40
"""[0..255] A channel that differs by more than this is a different picture, not rounding."""
MOST_CHANGED_SHARE = 0.01
"""Of the pixels, at most this share may change: a far tree's leaves drawn as its trunk (`meshing_lod`'s
rule) changes a pixel or two; a hole (sky through the ground) or a seam would change hundreds."""


def spawn_view(run_game, tmp_path, size: str, name: str, *extra: str) -> tuple[dict, np.ndarray]:
    world = tmp_path / f"{name}.boxel"
    World.create(world, SEED).close()
    replay, screenshot, report = (tmp_path / f"{name}.{suffix}" for suffix in ("jsonl", "png", "json"))
    with ReplayWriter.open(replay) as writer:
        writer.write(LOOK)
    done = run_game("--world", str(world), "--view-distance", VIEW_DISTANCE, "--size", size, "--replay", str(replay),
                    "--exit-after-ticks", str(TICKS), "--screenshot", str(screenshot), "--report", str(report), *extra)
    assert done.returncode == 0, f"the game exited with {done.returncode}:\n{done.stderr[-4000:]}"
    image = np.asarray(Image.open(screenshot).convert("RGB")).astype(np.int16)
    return json.loads(report.read_text(encoding="utf-8")), image


def test_a_160x90_window_draws_the_far_sections_coarse_with_the_picture_of_every_section_fine(run_game, tmp_path):
    coarse_report, coarse = spawn_view(run_game, tmp_path, "160x90", "coarse")
    fine_report, fine = spawn_view(run_game, tmp_path, "160x90", "fine", "--no-lod")

    assert (coarse_report["lod_distance"], fine_report["lod_distance"]) == (4, None)
    assert coarse_report["sections_coarse"] > 100 and fine_report["sections_coarse"] == 0
    changed = (np.abs(coarse - fine) > PIXEL_CHANGE).any(axis=2)
    assert changed.mean() <= MOST_CHANGED_SHARE, f"{changed.sum()} of {changed.size} pixels changed"


def test_a_640x360_window_draws_every_section_of_view_distance_8_fine(run_game, tmp_path):
    report, _ = spawn_view(run_game, tmp_path, "640x360", "larger")
    assert report["lod_distance"] is None and report["sections_coarse"] == 0
