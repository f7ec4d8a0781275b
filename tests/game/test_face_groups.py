"""Face groups (`game.render.face_groups`, headless): every face is in the group of its normal, a
part's faces are reordered by group without changing a face, and a group left out for an eye never
holds a face that eye could see."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.render.face_groups import (EYE_SLACK_BLOCKS, GROUP_COUNT, SLANTED_GROUP, eye_section, eye_sections,
                                     face_group_codes, group_visible, sorted_by_group)
from game.world.blocks import COUNT, block_id
from game.world.meshing import FACE_NORMALS, PADDED_SIZE, SECTION_SIZE, mesh_section_passes


def random_section(seed: int, air_fraction: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    padded = rng.integers(0, COUNT, (PADDED_SIZE,) * 3).astype(np.uint16)
    padded[rng.random(padded.shape) < air_fraction] = 0
    return padded


def outward_normals(corners: np.ndarray) -> np.ndarray:
    """(F, 3) outward normals of clockwise-wound quads (the mesher's winding)."""
    return -np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])


def test_a_lone_blocks_six_faces_fall_in_the_six_groups_of_their_normals():
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    padded[5, 5, 5] = block_id("stone")
    opaque = mesh_section_passes(padded)[0]
    corners = opaque.positions.reshape(-1, 4, 3).astype(np.float64)
    codes = face_group_codes(corners)
    assert sorted(codes.tolist()) == list(range(6))
    for code, normal in zip(codes, outward_normals(corners)):
        assert tuple(np.sign(normal).astype(int)) == FACE_NORMALS[code]


def test_plants_crossed_quads_are_the_slanted_group_that_is_always_drawn():
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    padded[5, 5, 5] = block_id("rose")
    cutout = mesh_section_passes(padded)[1]
    assert set(face_group_codes(cutout.positions.reshape(-1, 4, 3)).tolist()) == {SLANTED_GROUP}
    assert group_visible(SLANTED_GROUP, (0, 0, 0), eye_sections(800.0, -150.0, 800.0))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sorting_by_group_keeps_every_face_and_counts_each_group(seed):
    for part in mesh_section_passes(random_section(seed, 0.5)):
        if part.face_count == 0:
            continue
        ordered, counts = sorted_by_group(part)
        assert sum(counts) == part.face_count and len(counts) == GROUP_COUNT
        codes = face_group_codes(ordered.positions.reshape(-1, 4, 3))
        assert (np.diff(codes) >= 0).all()
        assert np.bincount(codes, minlength=GROUP_COUNT).tolist() == list(counts)

        def rows(p):  # a face's vertices as its triangles reach them, one row per face
            vertex = np.concatenate([p.positions.reshape(-1, 3), p.uvs.reshape(-1, 2), p.colors.reshape(-1, 4),
                                     p.light.reshape(-1, 2)], axis=1)
            faces = vertex[p.indices.reshape(-1, 6)].reshape(p.face_count, -1)
            return faces[np.lexsort(faces.T[::-1])]

        np.testing.assert_array_equal(rows(ordered), rows(part))


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 5), st.tuples(*[st.floats(-40.0, 40.0)] * 3), st.tuples(*[st.floats(-0.999, 0.999)] * 3))
def test_a_left_out_group_has_no_face_the_camera_could_see(seed, eye, jitter):
    padded = random_section(seed, 0.6)
    camera = np.array(eye) + np.array(jitter) * EYE_SLACK_BLOCKS  # where the camera is, near the eye
    section = (0, 0, 0)
    for part in mesh_section_passes(padded):
        corners = part.positions.reshape(-1, 4, 3).astype(np.float64)
        codes = face_group_codes(corners)
        normals = outward_normals(corners)
        for group in range(6):
            if group_visible(group, section, eye_sections(*eye)):
                continue
            faces = codes == group
            facing_camera = ((camera - corners[faces, 0]) * normals[faces]).sum(axis=1) > 0.0
            assert not facing_camera.any(), (group, eye)


def test_the_eye_section_floors_each_coordinate():
    assert eye_section(0.0, 15.999, -0.001) == (0, 0, -1)
    assert eye_section(-16.0, 16.0, 31.9) == (-1, 1, 1)
    assert SECTION_SIZE == 16


def test_far_from_a_section_half_of_its_side_groups_and_its_bottom_or_top_are_left_out():
    eye = eye_sections(100.0, 200.0, -100.0)  # +x, above, -z of section (0, 0, 0)
    shown = [group for group in range(6) if group_visible(group, (0, 0, 0), eye)]
    assert [FACE_NORMALS[g] for g in shown] == [(1, 0, 0), (0, 1, 0), (0, 0, -1)]
