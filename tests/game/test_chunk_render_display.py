"""Chunk meshes on screen: screenshots of a generated landscape and of an inner corner, the
renderer's rebuild/unload bookkeeping against a real World, and how it copes with a failing
mesher, a section shown again after an unload, and bad arguments.

Everything that starts Ursina runs in a subprocess (one Ursina app per process). Screenshots
need a display: DISPLAY, else `xvfb-run` (`display_command` in tests/game/conftest.py, which
skips without either, and fails instead when CI=true). The probes use Ursina's
window_type='none' and need no display.
"""

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from assets.make_atlas import paint_tile
from tests.game.drivers.preview import SKY_RGB

from .conftest import print_probe, run_probe, run_with_display

SKY_COLOUR_TOLERANCE = 8
"""[RGB levels] A pixel this close to the clear colour (per channel) is sky; fogged land is farther."""
TERRAIN_COLOUR_DISTANCE = 60
"""[RGB levels] A pixel at least this far from the sky colour (sum over channels) is surely terrain."""
AO_CORNER_MAX_RATIO = 0.8
"""Floor brightness beside the inner corner over open floor: AO gives ~0.55 there (vertex levels
0.45, 0.64, 0.64, 1.0 interpolated at (0.2, 0.2)); 0.8 leaves room for texture noise."""
TOP_FACE_BRIGHTNESS_TOLERANCE = 0.15
"""Open floor (top face, full light, no AO) shows the stone tile at its own brightness, within this
fraction; a floor drawn inside out would show the bottom face at half brightness."""
PATCH_RADIUS_PIXELS = 3


def run_python(args: list[str], display: bool = True) -> str:
    """Run `python *args` (with a display unless `display` is False); its standard output."""
    result = run_with_display(args, display=display)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result.stdout


def patch_brightness(image: np.ndarray, pixel: list[float]) -> float:
    x, y = (int(round(v)) for v in pixel)
    r = PATCH_RADIUS_PIXELS
    return float(image[y - r:y + r + 1, x - r:x + r + 1].mean())


@pytest.mark.display
def test_a_generated_landscape_shows_textured_terrain_under_the_sky(tmp_path):
    shot = tmp_path / "landscape.png"
    run_python(["-m", "tests.game.drivers.preview", "--seed", "42", "--size", "640x360", "--screenshot", str(shot)])
    image = np.asarray(Image.open(shot).convert("RGB")).astype(int)
    assert image.shape == (360, 640, 3)
    distance = np.abs(image - np.array(SKY_RGB)).sum(axis=2)
    sky = (np.abs(image - np.array(SKY_RGB)) <= SKY_COLOUR_TOLERANCE).all(axis=2)
    terrain = distance >= TERRAIN_COLOUR_DISTANCE
    assert sky[:40].mean() > 0.5, "the top of the picture should be sky"
    assert terrain.mean() > 0.4, "most of the picture should be terrain"
    green = (image[..., 1] > image[..., 0] + 20) & (image[..., 1] > image[..., 2] + 20)
    assert green.mean() > 0.15, "grass and leaves should be green"
    assert len(np.unique(image[terrain].reshape(-1, 3) // 8, axis=0)) > 50, "terrain should be textured and shaded"


@pytest.mark.display
def test_ambient_occlusion_darkens_the_floor_in_an_inner_corner(tmp_path):
    shot, probes = tmp_path / "corner.png", tmp_path / "corner.json"
    run_python(["-m", "tests.game.drivers.preview", "--scene", "corner", "--size", "640x360", "--screenshot", str(shot),
                "--probes", str(probes)])
    image = np.asarray(Image.open(shot).convert("RGB")).astype(float)
    pixels = json.loads(probes.read_text())
    corner = patch_brightness(image, pixels["inner_corner"])
    open_floor = patch_brightness(image, pixels["open_floor"])
    stone = float(paint_tile("stone")[..., :3].mean())
    assert open_floor == pytest.approx(stone, rel=TOP_FACE_BRIGHTNESS_TOLERANCE)
    assert corner < AO_CORNER_MAX_RATIO * open_floor


def run_renderer_probe() -> None:
    """Runs in a subprocess: drive a ChunkRenderer over a real World and print what happened as JSON."""
    import tempfile
    import threading

    from panda3d.core import SamplerState, TransparencyAttrib, loadPrcFileData
    loadPrcFileData("", "audio-library-name null")
    from ursina import Ursina, scene
    app = Ursina(window_type="none", development_mode=False)

    from game.window.render import chunk_renderer, mesh_jobs
    from game.world.world import World

    mesher_threads = set()
    mesh = mesh_jobs.mesh_for_ursina

    def recording_mesh(*job):
        mesher_threads.add(threading.current_thread().name)
        return mesh(*job)

    mesh_jobs.mesh_for_ursina = recording_mesh
    report = {}
    with tempfile.TemporaryDirectory() as folder:
        world = World.create(Path(folder) / "probe.world", 42)
        top = int(world.spawn[1]) - 1
        sy = top // 16
        shown = [(cx, s, cz) for cx in (-1, 0, 1) for cz in (-1, 0, 1) for s in (sy - 1, sy, sy + 1)]
        renderer = chunk_renderer.ChunkRenderer(world.padded_section)
        renderer.show(shown)
        renderer.wait()
        report["uploaded_after_show"] = renderer.meshes_uploaded
        before = {key: [id(e) for e in renderer.section_entities(key)] for key in shown}
        report["surface_entities"] = len(renderer.section_entities((0, sy, 0)))
        opaque_entity = renderer.section_entities((0, sy, 0))[0]
        report["opaque_transparency_is_none"] = (opaque_entity.model.get_transparency() == TransparencyAttrib.M_none)
        atlas_texture = renderer.atlas_texture._texture
        report["atlas_filters_nearest"] = (atlas_texture.get_magfilter() == SamplerState.FT_nearest
                                           and atlas_texture.get_minfilter() == SamplerState.FT_nearest)

        # A block at a corner of section (0, sy, 0): local x = 15, y = 15, z = 0.
        changed = world.set_block(15, sy * 16 + 15, 0, "glass")
        report["world_says"] = sorted(changed)
        report["rebuilt"] = sorted(renderer.rebuild(changed))
        renderer.wait()
        report["uploaded_after_edit"] = renderer.meshes_uploaded
        report["replaced"] = sorted(key for key in shown
                                    if [id(e) for e in renderer.section_entities(key)] != before[key])
        report["edited_section_has_glass_part"] = any(e.model.get_transparency() == TransparencyAttrib.M_alpha
                                                      for e in renderer.section_entities((0, sy, 0)))

        doomed = [e for key in shown[:9] for e in renderer.section_entities(key)]
        renderer.unload(shown[:9])
        report["left_after_unload"] = sorted(renderer.shown_sections)
        report["unloaded_entities"] = len(doomed)
        report["unloaded_entities_still_in_scene"] = sum(any(e is live for live in scene.entities) for e in doomed)
        report["mesher_threads"] = sorted(mesher_threads)
        report["main_thread"] = threading.current_thread().name
        report["shown"] = sorted(shown)
        renderer.close()
        world.close()
    app.step()
    print_probe(report)


def run_robustness_probe() -> None:
    """Runs in a subprocess: a mesher that fails on one section, a section unloaded and shown again
    before its first mesh arrives, and refused arguments; prints what happened as JSON."""
    from panda3d.core import loadPrcFileData
    loadPrcFileData("", "audio-library-name null")
    from ursina import Ursina, scene
    app = Ursina(window_type="none", development_mode=False)

    from panda3d.core import TransparencyAttrib

    from game.window.render.chunk_renderer import ChunkRenderer
    from game.world.blocks import COUNT, UnknownBlockError, block_id

    def one_block(*blocks: int) -> np.ndarray:
        padded = np.zeros((18, 18, 18), dtype=np.uint16)
        for i, block in enumerate(blocks):
            padded[5 + i, 5, 5] = block
        return padded

    stone, glass = block_id("stone"), block_id("glass")
    contents = {(0, 0, 0): one_block(stone), (1, 0, 0): one_block(COUNT), (2, 0, 0): one_block(stone)}
    renderer = ChunkRenderer(lambda cx, sy, cz: contents[(cx, sy, cz)])
    report = {"errors": 0}

    renderer.show([(0, 0, 0), (1, 0, 0), (2, 0, 0)])  # (1, 0, 0) holds an unknown id: its mesher raises
    for frame in range(4):
        try:
            renderer.wait() if frame == 0 else renderer.upload_finished()
        except UnknownBlockError:
            report["errors"] += 1
    report["uploaded_around_the_failure"] = renderer.meshes_uploaded
    report["entities_per_section"] = [len(renderer.section_entities(key)) for key in sorted(contents)]
    report["pending_after_the_failure"] = renderer.pending

    contents[(3, 0, 0)] = one_block(stone)
    renderer.show([(3, 0, 0)])
    renderer.unload([(3, 0, 0)])
    contents[(3, 0, 0)] = one_block(stone, glass)  # drawn with two entities: opaque and see-through
    renderer.show([(3, 0, 0)])
    uploaded = renderer.meshes_uploaded
    renderer.wait()
    report["uploads_for_the_reshown_section"] = renderer.meshes_uploaded - uploaded
    report["reshown_section_entities"] = len(renderer.section_entities((3, 0, 0)))

    contents[(4, 0, 0)] = one_block(glass, block_id("leaves"), stone, block_id("rose"))
    renderer.show([(4, 0, 0)])
    renderer.wait()
    report["passes"] = [(entity.model.get_transparency() == TransparencyAttrib.M_alpha,
                         entity.model.get_shader() == renderer._cutout_shader)
                        for entity in renderer.section_entities((4, 0, 0))]
    renderer.close()

    entities = len(scene.entities)
    report["refused"] = []
    for options in ({"workers": 0}, {"workers": 1.5}, {"uploads_per_frame": 0}):
        try:
            ChunkRenderer(lambda cx, sy, cz: contents[(0, 0, 0)], **options)
        except (TypeError, ValueError):
            report["refused"].append(sorted(options))
    report["entities_left_by_refused_renderers"] = len(scene.entities) - entities
    app.step()
    print_probe(report)


@pytest.fixture(scope="module")
def renderer_report():
    return run_probe("tests.game.test_chunk_render_display", "run_renderer_probe")


@pytest.fixture(scope="module")
def robustness_report():
    return run_probe("tests.game.test_chunk_render_display", "run_robustness_probe")


def test_sections_are_meshed_on_worker_threads_and_uploaded_once_each(renderer_report):
    assert renderer_report["uploaded_after_show"] == len(renderer_report["shown"])
    assert renderer_report["mesher_threads"] and all(t.startswith("mesher") for t in renderer_report["mesher_threads"])
    assert renderer_report["main_thread"] not in renderer_report["mesher_threads"]


def test_the_opaque_part_is_drawn_without_transparency_and_the_atlas_with_nearest_filtering(renderer_report):
    assert renderer_report["surface_entities"] >= 1
    assert renderer_report["opaque_transparency_is_none"]
    assert renderer_report["atlas_filters_nearest"]


def test_a_block_change_on_a_corner_rebuilds_exactly_the_shown_sections_that_see_it(renderer_report):
    shown = {tuple(k) for k in renderer_report["shown"]}
    seeing = {tuple(k) for k in renderer_report["world_says"]}
    assert len(seeing) == 8  # x = 15, y = 15 and z = 0 local: a section corner, seen by 8 sections
    expected = sorted(list(k) for k in seeing & shown)
    assert renderer_report["rebuilt"] == expected
    assert renderer_report["replaced"] and all(k in expected for k in renderer_report["replaced"])
    assert renderer_report["uploaded_after_edit"] == renderer_report["uploaded_after_show"] + len(expected)
    assert renderer_report["edited_section_has_glass_part"]


def test_unloading_sections_destroys_their_entities(renderer_report):
    shown = [tuple(k) for k in renderer_report["shown"]]
    assert {tuple(k) for k in renderer_report["left_after_unload"]} == set(shown) - set(shown[:9])
    assert renderer_report["unloaded_entities"] > 0
    assert renderer_report["unloaded_entities_still_in_scene"] == 0


def test_a_failing_mesher_is_reported_once_and_the_other_sections_are_uploaded_once_each(robustness_report):
    assert robustness_report["errors"] == 1
    assert robustness_report["uploaded_around_the_failure"] == 2
    assert robustness_report["entities_per_section"] == [1, 0, 1]
    assert robustness_report["pending_after_the_failure"] == 0


def test_a_section_shown_again_after_an_unload_never_takes_the_mesh_asked_for_before(robustness_report):
    assert robustness_report["uploads_for_the_reshown_section"] == 1
    assert robustness_report["reshown_section_entities"] == 2


def test_a_section_draws_opaque_then_cut_out_leaves_and_plants_alpha_tested_then_glass_blended(robustness_report):
    # one entity per pass, in order: (blended?, the cut-out shader?)
    assert robustness_report["passes"] == [[False, False], [False, True], [True, False]]


def test_a_renderer_with_bad_arguments_is_refused_without_leaving_an_entity(robustness_report):
    assert robustness_report["refused"] == [["workers"], ["workers"], ["uploads_per_frame"]]
    assert robustness_report["entities_left_by_refused_renderers"] == 0
