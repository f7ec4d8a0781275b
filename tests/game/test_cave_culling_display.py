"""Cave culling in the renderer (`ChunkRenderer.look_from` / `refresh_sight`): sections the eye's
section cannot see are stashed, and an edit that opens a view shows them again in the frame its
mesh arrives.

The scene: a 3 x 2 x 3 block of sections, stone below y = 20 and air above, with a sealed room
inside section (1, 0, 0); the eye stands on the ground in section (0, 1, 0). The probe runs Ursina
with window_type='none' in a subprocess (one Ursina app per process) and needs no display."""

from __future__ import annotations

import json

import numpy as np
import pytest

from .conftest import GAME_TIMEOUT_S, print_probe, run_probe

GROUND_TOP = 20
"""[blocks] Stone below this height, air above."""
ROOM = (slice(20, 28), slice(4, 12), slice(4, 12))
"""The sealed room's cells (x, y, z), inside section (1, 0, 0)."""
SHAFT = (24, slice(12, GROUND_TOP), 8)
"""A shaft from the ground's top down into the room."""
EYE = (8.5, 21.6, 8.5)


def run_sight_probe() -> None:
    """Runs in a subprocess: drive a ChunkRenderer over the scene and print what it hid, as JSON."""
    from panda3d.core import loadPrcFileData
    loadPrcFileData("", "audio-library-name null")
    from ursina import Ursina
    app = Ursina(window_type="none", development_mode=False)

    from game.window.render.chunk_renderer import ChunkRenderer
    from game.world.blocks import block_id

    # Blocks for x, z in -16..31 and y in 0..31 of the scene, with a one-block border of air.
    blocks = np.zeros((50, 34, 50), dtype=np.uint16)
    offset = np.array([17, 1, 17])
    blocks[1:-1, 1:GROUND_TOP + 1, 1:-1] = block_id("stone")
    room = tuple(slice(s.start + o, s.stop + o) for s, o in zip(ROOM, offset))
    blocks[room] = block_id("air")

    def padded_section(cx: int, sy: int, cz: int) -> np.ndarray:
        low = np.array([cx, sy, cz]) * 16 - 1 + offset
        return blocks[low[0]:low[0] + 18, low[1]:low[1] + 18, low[2]:low[2] + 18].copy()

    keys = [(cx, sy, cz) for cx in (-1, 0, 1) for sy in (0, 1) for cz in (-1, 0, 1)]
    renderer = ChunkRenderer(padded_section)
    renderer.show(keys)
    renderer.wait()
    report = {}
    renderer.refresh_sight()
    report["hidden_without_an_eye"] = sorted(renderer.hidden_sections)

    renderer.look_from(*EYE)
    renderer.refresh_sight()
    report["hidden_from_the_ground"] = sorted(renderer.hidden_sections)
    report["stashed_from_the_ground"] = sorted(key for key in keys
                                               if any(e.is_stashed() for e in renderer.section_entities(key)))
    report["entities_of_the_room"] = len(renderer.section_entities((1, 0, 0)))

    blocks[SHAFT[0] + offset[0], SHAFT[1].start + offset[1]:SHAFT[1].stop + offset[1], SHAFT[2] + offset[2]] = 0
    renderer.rebuild([(1, 0, 0), (1, 1, 0)])
    renderer.wait()  # the new meshes are uploaded, with the sections' new links
    renderer.refresh_sight()  # the same frame
    report["hidden_after_the_shaft"] = sorted(renderer.hidden_sections)
    report["room_stashed_after_the_shaft"] = any(e.is_stashed() for e in renderer.section_entities((1, 0, 0)))

    renderer.look_from(24.5, 8.5, 8.5)  # down in the room
    renderer.refresh_sight()
    report["hidden_from_the_room"] = sorted(renderer.hidden_sections)
    report["nodes"] = renderer.scene_nodes
    report["entities"] = renderer.live_entities
    renderer.close()
    app.step()
    print_probe(report)


@pytest.fixture(scope="module")
def report() -> dict:
    return run_probe("tests.game.test_cave_culling_display", "run_sight_probe")


def under_ground(*, but: tuple[int, int, int]) -> list[list[int]]:
    return [[cx, 0, cz] for cx in (-1, 0, 1) for cz in (-1, 0, 1) if (cx, 0, cz) != but]


def test_with_no_eye_nothing_is_hidden(report):
    assert report["hidden_without_an_eye"] == []


def test_from_the_ground_the_stone_beneath_is_hidden_but_the_section_under_the_eye(report):
    assert report["hidden_from_the_ground"] == under_ground(but=(0, 0, 0))
    assert report["stashed_from_the_ground"] == report["hidden_from_the_ground"]
    assert report["entities_of_the_room"] == 1  # the room's walls are meshed, just not drawn


def test_a_shaft_dug_into_the_sealed_room_shows_it_in_the_frame_its_mesh_arrives(report):
    assert report["hidden_after_the_shaft"] == [key for key in under_ground(but=(0, 0, 0)) if key != [1, 0, 0]]
    assert not report["room_stashed_after_the_shaft"]


def test_from_inside_the_room_its_neighbours_are_seen_and_stashed_nodes_still_count(report):
    # The room's section looks out of all its faces: the ground layer beside it and the section above.
    # Beyond them, the stone of the ground layer is hidden; the open air above is all seen.
    assert report["hidden_from_the_room"] == [[-1, 0, -1], [-1, 0, 0], [-1, 0, 1], [0, 0, -1], [0, 0, 1]]
    assert report["nodes"] == report["entities"]


SEED = 42
VIEW_DISTANCE = 4
TICKS = 20
LOOKS = ((0, 160.0, 40.0), (10, 30.0, 8.0))
"""(tick, yaw, pitch) of each look: down at the ground, then over the land to the fog."""
DIFFERENT_PIXELS_ALLOWED = 0.001
"""Fraction of the picture that may differ between the two runs: none should (the same ticks draw
the same scene); this leaves room for a rasteriser that rounds an edge pixel differently."""


@pytest.mark.display
def test_the_game_looks_the_same_with_cave_culling_as_without_it(run_game, tmp_path):
    from PIL import Image

    from game.rules.replay import Look, ReplayWriter
    from game.world import World

    replay = tmp_path / "looks.jsonl"
    with ReplayWriter.open(replay) as writer:
        for tick, yaw, pitch in LOOKS:
            writer.write(Look(tick, yaw, pitch))
    runs = {}
    for name, extra in (("culled", ()), ("all_drawn", ("--no-cave-culling",))):
        world, shot, report = tmp_path / f"{name}.boxel", tmp_path / f"{name}.png", tmp_path / f"{name}.json"
        World.create(world, SEED).close()
        done = run_game("--world", str(world), "--size", "640x360", "--view-distance", str(VIEW_DISTANCE),
                        "--time", "6000", "--replay", str(replay), "--exit-after-ticks", str(TICKS),
                        "--screenshot", str(shot), "--report", str(report), *extra)
        assert done.returncode == 0, done.stderr[-3000:]
        runs[name] = (np.asarray(Image.open(shot).convert("RGB")).astype(int), json.loads(report.read_text()))
    (culled, culled_report), (all_drawn, all_drawn_report) = runs["culled"], runs["all_drawn"]
    assert culled_report["sections_hidden"] > 0 and all_drawn_report["sections_hidden"] == 0
    assert culled_report["sections_shown"] == all_drawn_report["sections_shown"]
    different = (np.abs(culled - all_drawn).sum(axis=2) > 0).mean()
    assert different <= DIFFERENT_PIXELS_ALLOWED


CAVE_SEARCH_COLUMNS = 1
"""[columns] The cave is looked for within this many columns of the spawn column."""
CAVE_VIEW_COLUMNS = 4
"""[columns] The sections drawn around the spawn column for the cave's view."""
CAVE_ROOF_BLOCKS = 9
"""[blocks] Solid blocks right above the cave's head: it is under the ground, not in a valley."""


def run_cave_view_probe(folder: str) -> None:
    """Runs in a subprocess with a window: the camera in the roomiest air pocket under the ground near
    the seed-42 spawn, four screenshots each with cave culling and with every section drawn, and
    what the renderer hid, as JSON."""
    from pathlib import Path

    from panda3d.core import Filename, loadPrcFileData
    loadPrcFileData("", "win-size 320 180\naudio-library-name null\nsync-video false")
    from ursina import Ursina, camera, scene
    app = Ursina(size=(320, 180), development_mode=False, vsync=False, editor_ui_enabled=False)

    from game.window.render import space
    from game.window.render.chunk_renderer import ChunkRenderer
    from game.world.sight import BLOCKS_SIGHT
    from game.world.world import World

    world = World.create(Path(folder) / "cave.boxel", SEED)
    spawn_cx, spawn_cz = int(world.spawn[0]) // 16, int(world.spawn[2]) // 16
    best = None
    for cx in range(spawn_cx - CAVE_SEARCH_COLUMNS, spawn_cx + CAVE_SEARCH_COLUMNS + 1):
        for cz in range(spawn_cz - CAVE_SEARCH_COLUMNS, spawn_cz + CAVE_SEARCH_COLUMNS + 1):
            ids = world.column(cx, cz)
            for x, y, z in np.argwhere(ids[3:13, 12:50, 3:13] == 0) + (3, 12, 3):
                roofed = BLOCKS_SIGHT[ids[x, y + 2:y + 2 + CAVE_ROOF_BLOCKS, z]].all()
                if ids[x, y + 1, z] == 0 and roofed:
                    room = int((ids[x - 3:x + 4, y - 1:y + 3, z - 3:z + 4] == 0).sum())
                    if best is None or room > best[0]:
                        best = (room, cx * 16 + int(x) + 0.5, int(y) + 1.5, cz * 16 + int(z) + 0.5)
    _, eye_x, eye_y, eye_z = best
    keys = [(cx, sy, cz) for cx in range(spawn_cx - CAVE_VIEW_COLUMNS, spawn_cx + CAVE_VIEW_COLUMNS + 1)
            for cz in range(spawn_cz - CAVE_VIEW_COLUMNS, spawn_cz + CAVE_VIEW_COLUMNS + 1) for sy in range(8)]
    renderer = ChunkRenderer(world.padded_section, padded_light=world.padded_light, workers=2)
    renderer.show(keys)
    renderer.wait(GAME_TIMEOUT_S)
    scene.fog_density = (40.0, 80.0)
    renderer.sync_fog(False)
    camera.fov = 80
    camera.position = space.point(eye_x, eye_y, eye_z)
    report = {"eye": [eye_x, eye_y, eye_z], "shown": len(renderer.shown_sections), "shots": []}
    for yaw in (0, 90, 180, 270):
        camera.rotation = (10, yaw, 0)
        pair = []
        for culling in (True, False):
            if culling:
                renderer.look_from(eye_x, eye_y, eye_z)
                renderer.refresh_sight()
                report["hidden"] = len(renderer.hidden_sections)
            else:
                renderer.forget_eye()
                report["hidden_with_no_eye"] = len(renderer.hidden_sections)
            for _ in range(3):
                app.step()
            path = str(Path(folder) / f"cave-{yaw}-{'culled' if culling else 'all'}.png")
            app.win.saveScreenshot(Filename.from_os_specific(path))
            pair.append(path)
        report["shots"].append(pair)
    renderer.close()
    world.close()
    print_probe(report)


@pytest.mark.display
def test_from_inside_a_cave_the_picture_is_the_same_with_cave_culling_as_without_it(tmp_path):
    from PIL import Image

    report = run_probe("tests.game.test_cave_culling_display", "run_cave_view_probe", str(tmp_path), display=True)
    assert report["hidden"] > report["shown"] // 2  # most of the ground is out of the cave's sight
    assert report["hidden_with_no_eye"] == 0
    for culled, all_drawn in report["shots"]:
        culled, all_drawn = (np.asarray(Image.open(p).convert("RGB")).astype(int) for p in (culled, all_drawn))
        assert (np.abs(culled - all_drawn).sum(axis=2) > 0).mean() <= DIFFERENT_PIXELS_ALLOWED
