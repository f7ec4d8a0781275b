"""The renderer leaves out the faces that face away from the eye (`game.window.render.section_facing`):
what each section part draws as the eye moves, forgets the eye, and as sections are rebuilt and
unloaded; and that the picture is the same as with every face drawn
(`tests/game/test_merged_faces_display.py`).

The probe starts Ursina with window_type='none' in a subprocess of its own and needs no display.
"""

import numpy as np
import pytest

from .conftest import print_probe, run_probe

STONE_SECTION = (0, 0, 0)
"""A section with one stone block at section-local cell (4, 4, 4), and a plant at (8, 4, 8)."""
CORNER_EYE = (12.0, 11.0, -4.0)
"""+x, +y and -z of the block, off both of the plant's diagonals, every plane that faces away from the
eye more than `section_facing`'s largest margin (BEHIND_BLOCKS + STAGGER_STEPS - 1) behind it."""
OTHER_EYE = (-4.0, 11.0, -10.0)
"""The same, on the block's -x side."""
ROW_SECTION = (5, 0, 0)
"""Where the run past a row of blocks is drawn (`run_along_a_row`), far from the other sections."""


def run_facing_probe() -> None:
    """Runs in a subprocess: one section drawn while the eye moves around it; prints what was drawn."""
    from panda3d.core import loadPrcFileData
    loadPrcFileData("", "audio-library-name null")
    from ursina import Ursina
    app = Ursina(window_type="none", development_mode=False)

    from game.window.render.chunk_renderer import ChunkRenderer
    from game.world.blocks import block_id

    padded = np.zeros((18, 18, 18), dtype=np.uint16)
    padded[5, 5, 5] = block_id("stone")
    padded[9, 5, 9] = block_id("tall_grass")
    contents = {STONE_SECTION: padded, (1, 0, 0): padded}
    renderer = ChunkRenderer(lambda cx, sy, cz: contents[(cx, sy, cz)])

    def triangles(key) -> list[int]:
        return [sum(primitive.get_num_primitives() for geom in entity.model.geomNode.get_geoms()
                    for primitive in geom.get_primitives()) for entity in renderer.section_entities(key)]

    def index_lists(key) -> list[bytes]:
        return [bytes(entity.model.geomNode.get_geom(0).get_primitive(0).get_vertices().get_handle().get_data())
                for entity in renderer.section_entities(key)]

    report = {}
    renderer.show([STONE_SECTION])
    renderer.wait()
    report["no_eye"] = triangles(STONE_SECTION)
    renderer.look_from(*CORNER_EYE)
    report["corner"] = triangles(STONE_SECTION)
    renderer.forget_eye()
    renderer.look_from(7.0, 11.0, -4.0)  # the same faces worked out afresh 2 blocks before the +x face's plane
    rewrites = renderer.facing_rewrites
    renderer.look_from(4.9, 11.25, -3.5)  # then 0.1 block behind that plane: within the margin
    report["rewrites_for_a_small_move"] = renderer.facing_rewrites - rewrites
    report["after_a_small_move"] = triangles(STONE_SECTION)
    renderer.look_from(*OTHER_EYE)
    report["other_side"] = triangles(STONE_SECTION)
    renderer.show([(1, 0, 0)])  # uploaded while the eye is known: drawn facing it at once
    renderer.wait()
    report["new_section"] = triangles((1, 0, 0))
    renderer.rebuild([STONE_SECTION])
    renderer.wait()
    report["rebuilt"] = triangles(STONE_SECTION)
    renderer._set_hidden({STONE_SECTION})  # as cave culling stashes it
    hidden_lists = index_lists(STONE_SECTION)
    renderer.look_from(*CORNER_EYE)
    report["lists_kept_while_hidden"] = index_lists(STONE_SECTION) == hidden_lists
    renderer._set_hidden(set())
    report["lists_changed_when_shown"] = index_lists(STONE_SECTION) != hidden_lists
    report["shown_again"] = triangles(STONE_SECTION)
    renderer.forget_eye()
    report["forgotten"] = triangles(STONE_SECTION)
    renderer.look_from(*CORNER_EYE)
    renderer.unload([STONE_SECTION])
    renderer.look_from(*OTHER_EYE)  # the unloaded section's nodes are gone: nothing is touched
    report["registered_after_unload"] = len(renderer._facing)
    renderer.close()

    report["run"] = {margin: run_along_a_row(ChunkRenderer, margin) for margin in ("ahead", "none")}

    every = ChunkRenderer(lambda cx, sy, cz: padded, cull_facing=False)
    every.show([STONE_SECTION])
    every.wait()
    every.look_from(*CORNER_EYE)
    report["cull_facing_off"] = [sum(p.get_num_primitives() for g in e.model.geomNode.get_geoms()
                                     for p in g.get_primitives()) for e in every.section_entities(STONE_SECTION)]
    every.close()
    app.step()
    print_probe(report)


def run_along_a_row(renderer_class, margin: str) -> dict:
    """In the probe's process: an eye running past a row of blocks (their +x and -x faces' planes one
    block apart), with the facing parts' ahead margin as it is or none; how many index lists were
    rewritten, and whether at every step the kept faces held every face facing the eye."""
    from game.window.render import section_facing
    from game.world.blocks import block_id
    from game.world.meshing_facing import facing_state

    padded = np.zeros((18, 18, 18), dtype=np.uint16)
    padded[1:17:2, 5, 5] = block_id("stone")  # blocks at local x = 0, 2, ..., 14
    kept_margin = section_facing.AHEAD_BLOCKS
    section_facing.AHEAD_BLOCKS = kept_margin if margin == "ahead" else 0.0
    renderer = renderer_class(lambda cx, sy, cz: padded)
    x0 = ROW_SECTION[0] * 16.0 - 1.0  # the row's section starts 1 block ahead
    renderer.look_from(x0, 11.0, -4.0)
    renderer.show([ROW_SECTION])
    renderer.wait()
    facing = renderer._facing
    slot = facing._slots_of[ROW_SECTION][0]
    rewrites, always_held = renderer.facing_rewrites, True
    for step in range(1, 68):  # a quarter block a frame, to the section's far side
        eye = np.array([x0 + step / 4, 11.0, -4.0])
        renderer.look_from(*eye)
        part = facing._parts[slot]
        exact = facing_state(part.order, eye - part.origin, part.ranked)[0]
        always_held &= bool((part.counts >= exact).all())
    section_facing.AHEAD_BLOCKS = kept_margin
    done = {"rewrites": renderer.facing_rewrites - rewrites, "always_held": always_held}
    renderer.close()
    return done


@pytest.fixture(scope="module")
def report():
    return run_probe("tests.game.test_section_facing_display", "run_facing_probe")


def test_with_no_eye_every_face_is_drawn(report):
    assert report["no_eye"] == [12, 8]  # opaque: the block's 6 faces; cut-out: the plant's 4 quads


def test_an_eye_off_a_corner_draws_the_three_faces_toward_it_and_one_side_of_each_plant_quad(report):
    assert report["corner"] == [6, 4]


def test_a_small_move_rewrites_nothing(report):
    # The eye stepped 2.1 blocks back, just behind the plane of a face it saw: exactly worked out, that
    # face would go; within the margin the list is kept as it was.
    assert report["rewrites_for_a_small_move"] == 0
    assert report["after_a_small_move"] == [6, 4]


def test_moving_to_the_other_side_draws_the_faces_on_that_side(report):
    assert report["other_side"] == [6, 4]


def test_a_section_uploaded_or_rebuilt_while_the_eye_is_known_draws_only_what_faces_it(report):
    assert report["new_section"] == [6, 4]
    assert report["rebuilt"] == [6, 4]


def test_a_stashed_section_follows_the_eye_again_when_it_is_shown(report):
    assert report["lists_kept_while_hidden"]
    assert report["lists_changed_when_shown"]
    assert report["shown_again"] == [6, 4]


def test_forgetting_the_eye_draws_every_face_again(report):
    assert report["forgotten"] == [12, 8]


def test_an_unloaded_section_is_forgotten(report):
    assert report["registered_after_unload"] == 2  # the other section's two parts


def test_a_renderer_told_not_to_cull_draws_every_face(report):
    assert report["cull_facing_off"] == [12, 8]


def test_an_eye_running_past_faces_keeps_those_just_ahead_and_rewrites_fewer_lists(report):
    run = report["run"]
    assert run["ahead"]["always_held"] and run["none"]["always_held"]  # never a face missing: no hole
    assert 0 < run["ahead"]["rewrites"] < run["none"]["rewrites"], run
