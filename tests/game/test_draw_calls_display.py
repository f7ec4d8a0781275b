"""Draw calls per drawn section, counted by Panda3D itself (PStats, through the game's
`--profile-frames` report) in the real window: counts are stable where times are not, so this is
what catches a renderer that starts drawing a section's part twice (Panda3D's M_dual transparency
did, for every see-through part) or drawing many pieces per section.

The scene: a new seed-42 world at view distance 3, the player standing still, 40 ticks."""

from __future__ import annotations

import json

from game.rules.replay import ReplayWriter
from game.world import World

from .conftest import TEST_WINDOW_SIZE

SEED = 42
VIEW_DISTANCE = 3
TICKS = 40
NON_SECTION_DRAWS = 40
"""Draw calls a frame makes besides the sections': the hotbar's slots and icons, the crosshair,
the hand, the sky dome, sun and moon, the clouds, the outline (about 25), with room to grow."""
PARTS_PER_SECTION = 3
"""A section is drawn in at most three parts: opaque, cut-out and blended (`chunk_renderer`)."""


def test_each_section_part_is_one_draw_call_and_nothing_is_drawn_twice(run_game, tmp_path):
    world_path, replay, report_path = tmp_path / "w.boxel", tmp_path / "still.jsonl", tmp_path / "report.json"
    World.create(world_path, SEED).close()
    with ReplayWriter.open(replay):
        pass  # no input: the player stands at the spawn
    done = run_game("--world", str(world_path), "--size", TEST_WINDOW_SIZE, "--view-distance", str(VIEW_DISTANCE),
                    "--replay", str(replay), "--exit-after-ticks", str(TICKS), "--report", str(report_path),
                    "--profile-frames")
    assert done.returncode == 0, done.stderr[-4000:]
    report = json.loads(report_path.read_text(encoding="utf-8"))
    levels = report["frame_profile"]["levels"]
    draw_calls = sum(value for name, value in levels.items() if name.startswith("Primitive batches:"))
    geoms_drawn = levels["Geoms"]
    assert report["frame_profile"]["frames"] > 0
    assert 0 < draw_calls <= geoms_drawn  # no geom is drawn in two passes (an empty one is not drawn at all)
    assert report["sections_shown"] > 0
    assert report["section_entities"] <= PARTS_PER_SECTION * report["sections_shown"]
    assert draw_calls <= report["section_entities"] + NON_SECTION_DRAWS  # one call per section part in view
