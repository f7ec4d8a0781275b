"""Drawing each kind of thing once behind the loading screen (`game.window.first_draws`): the samples
cover every section pass, draw in a real window, leave nothing behind, and the game draws them before the
loading screen closes."""

from __future__ import annotations

import numpy as np
import pytest

from game.window.first_draws import SAMPLE_BLOCKS, sample_section
from game.world.blocks import block_id
from game.world.meshing_merge import mesh_section_compact

from .conftest import print_probe, run_probe

PROBE_SIZE = (160, 90)
"""[pixels] The probe's window: its pictures are not looked at."""


def test_the_sample_section_has_faces_in_every_draw_pass():
    opaque, cutout, blended = mesh_section_compact(sample_section())
    assert opaque.face_count > 0 and cutout.face_count > 0 and blended.face_count > 0


def test_the_sample_section_holds_every_sample_block_with_air_around_each():
    padded = sample_section()
    assert {int(v) for v in np.unique(padded) if v} == {block_id(name) for name in SAMPLE_BLOCKS}
    solid = np.argwhere(padded)
    assert solid.min() >= 1 and solid.max() <= padded.shape[0] - 2  # inside the section, none in its border
    for x, y, z in solid:
        around = padded[x - 1:x + 2, y - 1:y + 2, z - 1:z + 2]
        assert np.count_nonzero(around) == 1


def run_first_draws_probe() -> None:
    """Runs in a subprocess with a window: draws the samples for a frame, destroys them; prints what stayed."""
    from game.window.render.window import open_window

    app = open_window(PROBE_SIZE, "Boxel first draws", borderless=True)
    from ursina import camera, scene

    from game.window.render.chunk_renderer import ChunkRenderer
    from game.window.first_draws import FirstDraws
    from game.window.render.sky import Sky
    from game.window.ui.item_icons import item_picture

    renderer = ChunkRenderer(lambda cx, sy, cz: np.zeros((18, 18, 18), dtype=np.uint16))
    sky = Sky()
    camera.position, camera.rotation = (3.0, 70.0, -5.0), (10.0, 40.0, 0.0)
    app.step()
    regions = app.win.get_num_display_regions()
    nodes = len(scene.find_all_matches("**"))
    entities = len(scene.entities)
    bodies = [tuple(body.position) for body in (sky.sun, sky.moon)]
    samples = FirstDraws(renderer, item_picture, sky=sky, seed=1)
    report = {"regions_while_drawn": app.win.get_num_display_regions() - regions,
              "section_parts": len(samples.sections),
              "bodies_moved": [tuple(body.position) != place for body, place in zip((sky.sun, sky.moon), bodies)]}
    app.step()
    samples.destroy()
    samples.destroy()  # a second call does nothing
    app.step()
    report.update(regions_left=app.win.get_num_display_regions() - regions,
                  nodes_left=len(scene.find_all_matches("**")) - nodes,
                  entities_left=len(scene.entities) - entities,
                  bodies_back=[tuple(body.position) == place for body, place in zip((sky.sun, sky.moon), bodies)])
    renderer.close()
    print_probe(report)


@pytest.mark.display
def test_the_first_draws_show_every_sample_then_leave_no_region_node_or_entity_and_put_the_sun_and_moon_back():
    report = run_probe("tests.game.test_first_draws_display", "run_first_draws_probe", display=True)
    assert report["regions_while_drawn"] > 0  # the hands' display regions
    assert report["section_parts"] == 3
    assert report["bodies_moved"] == [True, True]
    assert report["regions_left"] == 0
    assert report["nodes_left"] == 0
    assert report["entities_left"] == 0
    assert report["bodies_back"] == [True, True]


@pytest.mark.display
def test_the_game_draws_the_samples_before_the_loading_screen_closes(scripted_run):
    run = scripted_run([], 2)
    times = run.report["loading_times"]
    assert times["spawn_loaded"] <= times["first_draws_started"] <= run.report["first_playable_epoch_s"]
