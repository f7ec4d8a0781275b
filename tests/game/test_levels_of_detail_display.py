"""The renderer draws far sections from their coarse mesh (`game.world.meshing_lod`) and swaps them for
the fine one as the eye comes near, and back as it goes away, with hysteresis at the border; a section
never has more than its three entities meanwhile.

The probe starts Ursina with window_type='none' in a subprocess of its own and needs no display.
"""

import numpy as np
import pytest

from .conftest import print_probe, run_probe

LOD_DISTANCE = 2
"""[columns] The probe's renderer turns sections coarse beyond 2 (+ 1 of hysteresis) columns."""
FAR = (5, 0, 0)
NEAR = (0, 0, 0)


def bumpy_ground() -> np.ndarray:
    """A padded section of dirt and grass ground whose height changes from block to block."""
    from game.world.blocks import block_id
    padded = np.zeros((18, 18, 18), dtype=np.uint16)
    heights = np.add.outer(np.arange(18) % 3, np.arange(18) % 2) + 4
    for x in range(18):
        for z in range(18):
            padded[x, :heights[x, z], z] = block_id("dirt")
            padded[x, heights[x, z], z] = block_id("grass")
    return padded


def run_lod_probe() -> None:
    """Runs in a subprocess: two sections drawn while the eye walks from one to the other; prints what was drawn."""
    from panda3d.core import loadPrcFileData
    loadPrcFileData("", "audio-library-name null")
    from ursina import Ursina
    app = Ursina(window_type="none", development_mode=False)

    from game.window.render.chunk_renderer import ChunkRenderer
    from game.world.meshing_lod import mesh_section_lod
    from game.world.meshing_merge import mesh_section_compact

    padded = bumpy_ground()
    renderer = ChunkRenderer(lambda cx, sy, cz: padded, cull_facing=False, lod_distance=LOD_DISTANCE)

    def triangles(key) -> int:
        return sum(primitive.get_num_primitives() for entity in renderer.section_entities(key)
                   for geom in entity.model.geomNode.get_geoms() for primitive in geom.get_primitives())

    def at_column(cx: int) -> None:
        renderer.look_from(cx * 16 + 8.0, 12.0, 8.0)
        renderer.relevel_all()
        renderer.wait()

    report = {"fine_mesh": 2 * sum(p.face_count for p in mesh_section_compact(padded)),
              "coarse_mesh": 2 * sum(p.face_count for p in mesh_section_lod(padded))}
    renderer.look_from(8.0, 12.0, 8.0)
    renderer.show([NEAR, FAR])
    renderer.wait()
    report["start"] = {"coarse": sorted(renderer.coarse_sections), "near": triangles(NEAR), "far": triangles(FAR)}
    at_column(5)
    report["eye_at_far"] = {"coarse": sorted(renderer.coarse_sections), "near": triangles(NEAR), "far": triangles(FAR)}
    at_column(2)  # 3 columns from FAR: within the hysteresis, it stays fine
    report["eye_at_border"] = sorted(renderer.coarse_sections)
    at_column(1)  # 4 columns from FAR: coarse again
    report["eye_back"] = {"coarse": sorted(renderer.coarse_sections), "far": triangles(FAR)}
    report["entities"] = renderer.live_entities
    renderer.rebuild([FAR])  # an edit keeps the section's level
    renderer.wait()
    report["rebuilt_far"] = triangles(FAR)
    renderer.lod_distance = None
    renderer.relevel_all()
    renderer.wait()
    report["lod_off"] = {"coarse": sorted(renderer.coarse_sections), "far": triangles(FAR)}
    renderer.unload([FAR])
    report["after_unload"] = sorted(renderer.coarse_sections)
    renderer.close()
    app.step()
    print_probe(report)


@pytest.fixture(scope="module")
def report():
    return run_probe("tests.game.test_levels_of_detail_display", "run_lod_probe")


def test_the_coarse_mesh_of_bumpy_ground_has_fewer_triangles(report):
    assert 0 < report["coarse_mesh"] < report["fine_mesh"] / 2


def test_a_far_section_is_drawn_from_its_coarse_mesh(report):
    assert report["start"] == {"coarse": [list(FAR)], "near": report["fine_mesh"], "far": report["coarse_mesh"]}


def test_a_section_swaps_to_its_fine_mesh_when_the_eye_comes_near_and_the_one_left_behind_turns_coarse(report):
    assert report["eye_at_far"] == {"coarse": [list(NEAR)], "near": report["coarse_mesh"],
                                    "far": report["fine_mesh"]}


def test_walking_to_the_border_keeps_a_fine_section_fine_and_beyond_it_turns_coarse(report):
    assert report["eye_at_border"] == []
    assert report["eye_back"] == {"coarse": [list(FAR)], "far": report["coarse_mesh"]}


def test_a_swapped_section_keeps_one_entity_per_part(report):
    assert report["entities"] == 2  # one opaque part each (dirt and grass), no others


def test_a_rebuilt_coarse_section_stays_coarse(report):
    assert report["rebuilt_far"] == report["coarse_mesh"]


def test_switching_levels_of_detail_off_draws_every_section_fine(report):
    assert report["lod_off"] == {"coarse": [], "far": report["fine_mesh"]}
    assert report["after_unload"] == []


WAITING_COLUMNS = {(5, 0): 3, (0, 0): 2}
"""The probe's new columns still waiting for their first light around each section's column."""


def run_relevel_light_probe() -> None:
    """Runs in a subprocess: the eye moves from NEAR's column to FAR's, and the renderer has a
    `prepare_light` that lights one waiting column a call; prints what each frame lit and whether any
    section's light was read while columns around it waited."""
    from panda3d.core import loadPrcFileData
    loadPrcFileData("", "audio-library-name null")
    from ursina import Ursina
    app = Ursina(window_type="none", development_mode=False)

    from game.window.render.chunk_renderer import ChunkRenderer

    padded = bumpy_ground()
    waiting = {}
    lit, early_reads = [], []

    def prepare_light(cx: int, cz: int, columns: int) -> bool:
        step = min(columns, waiting.get((cx, cz), 0))
        if step:
            waiting[(cx, cz)] -= step
            lit[-1] += step
        return not waiting.get((cx, cz), 0)

    def padded_light(cx: int, sy: int, cz: int):
        if waiting.get((cx, cz), 0):
            early_reads.append([cx, sy, cz])  # read now, it would light them all in this frame
        return None

    renderer = ChunkRenderer(lambda cx, sy, cz: padded, padded_light=padded_light, prepare_light=prepare_light,
                             cull_facing=False, lod_distance=LOD_DISTANCE)
    renderer.look_from(8.0, 12.0, 8.0)
    renderer.show([NEAR, FAR])
    renderer.wait()
    waiting.update(WAITING_COLUMNS)  # the streaming loaded columns around both since
    frames = []
    for _ in range(8):
        lit.append(0)
        renderer.look_from(5 * 16 + 8.0, 12.0, 8.0)
        renderer.wait()
        frames.append(sorted(renderer.coarse_sections))
    report = {"lit": lit, "early_reads": early_reads, "coarse_by_frame": frames}
    renderer.close()
    app.step()
    print_probe(report)


@pytest.fixture(scope="module")
def relevel_light():
    return run_probe("tests.game.test_levels_of_detail_display", "run_relevel_light_probe")


def test_sections_changing_level_light_one_new_column_a_frame_and_never_read_light_that_waits(relevel_light):
    assert relevel_light["early_reads"] == []
    assert relevel_light["lit"] == [1, 1, 1, 1, 1, 0, 0, 0]  # FAR's three columns first (nearest the eye)


def test_each_section_changes_level_once_its_columns_are_lit(relevel_light):
    by_frame = relevel_light["coarse_by_frame"]
    assert by_frame[:2] == [[list(FAR)]] * 2  # FAR waits for its light, still coarse
    assert by_frame[2] == [] and by_frame[3] == []  # FAR fine from the third frame; NEAR waits
    assert by_frame[4:] == [[list(NEAR)]] * 4
