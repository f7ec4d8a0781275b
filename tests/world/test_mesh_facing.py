"""Faces grouped by the way they face (`game.world.meshing_facing`) against its face-by-face twin."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.world.blocks import WATER_IDS, block_id
from game.world.meshing import BLENDED_PASS, PADDED_SIZE, section_faces
from game.world.meshing_facing import (ALWAYS_DRAWN, FACING_NORMALS, GROUP_COUNT, KEY_UNITS, eye_along, facing_counts,
                                       facing_faces, facing_indices, facing_order, facing_state, faces_facing_by_face,
                                       steady_bounds)
from game.world.meshing_merge import merge_faces, mesh_section_compact, unpack_compact
from tests.world.test_mesh_merging import random_section

EYES = st.tuples(*(st.one_of(st.integers(-4, 20).map(float), st.floats(-40.0, 56.0, allow_nan=False))
                   for _ in range(3)))
"""Section-local eyes: on whole blocks (on the planes of faces) and anywhere around the section."""
TWIN_FACES = 300
"""Faces of each random section given to the face-by-face twin (any set of quads will do)."""


def kept_by_groups(positions: np.ndarray, eye) -> np.ndarray:
    """bool per face (in the given order): kept by `facing_order` and `facing_counts` for `eye`."""
    order, groups = facing_order(positions)
    kept = np.zeros(len(positions), dtype=bool)
    kept[order[facing_faces(groups, facing_counts(groups, eye))]] = True
    return kept


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1), air_fraction=st.sampled_from([0.3, 0.6, 0.9]), kinds=st.integers(1, 4),
       eye=EYES, merge=st.booleans())
def test_the_faces_kept_for_an_eye_are_exactly_those_the_face_by_face_twin_keeps(seed, air_fraction, kinds, eye,
                                                                                   merge):
    faces = section_faces(*random_section(seed, air_fraction, kinds))
    if faces is None:
        return
    if merge:
        faces = merge_faces(faces)
    picked = np.random.default_rng(seed).permutation(faces.face_count)[:TWIN_FACES]  # the twin is slow
    quads = faces.positions[np.sort(picked)]
    np.testing.assert_array_equal(kept_by_groups(quads, eye), faces_facing_by_face(quads, eye))


def test_a_block_seen_from_a_corner_keeps_the_three_faces_toward_the_eye():
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    padded[5, 5, 5] = block_id("stone")  # the cell (4, 4, 4)
    faces = section_faces(padded)
    kept = kept_by_groups(faces.positions, (10.0, 9.0, 8.0))
    assert sorted(faces.directions[kept].tolist()) == [0, 2, 4]  # +x, +y, +z
    assert kept_by_groups(faces.positions, (4.5, 4.5, 4.5)).sum() == 0  # inside the block: every face looks out


def test_a_plant_shows_one_side_of_each_of_its_two_quads():
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    padded[8, 5, 8] = block_id("tall_grass")
    faces = section_faces(padded)
    assert faces.face_count == 4  # two diagonals, each once per side
    kept = kept_by_groups(faces.positions, (12.0, 5.0, 2.0))
    assert kept.sum() == 2
    normals = -np.cross(faces.positions[:, 1] - faces.positions[:, 0], faces.positions[:, 2] - faces.positions[:, 0])
    assert np.abs(normals[kept].sum(axis=0)).max() > 0  # not the two sides of one quad


def test_a_sloped_fluid_surface_is_always_drawn():
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    padded[1:17, 1, 1:17] = block_id("stone")
    padded[5, 2, 5] = int(WATER_IDS[0])  # a source
    padded[6, 2, 5] = int(WATER_IDS[3])  # flowing beside it: the surfaces slope
    faces = section_faces(padded)
    order, groups = facing_order(faces.positions)
    sloped = groups.starts[ALWAYS_DRAWN + 1] - groups.starts[ALWAYS_DRAWN]
    assert sloped >= 2
    assert facing_counts(groups, (8.0, -30.0, 8.0))[ALWAYS_DRAWN] == sloped  # even from below


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1), eye=EYES, step=st.tuples(*(st.floats(0.0, 1.0) for _ in range(3))))
def test_the_kept_faces_stay_the_same_while_the_eye_stays_inside_its_steady_bounds(seed, eye, step):
    faces = merge_faces(section_faces(*random_section(seed, 0.6, 3)))
    _, groups = facing_order(faces.positions)
    low, high = steady_bounds(groups, eye)
    along = eye_along(eye)
    assert ((low <= along) & (along <= high)).all()
    if not ((low < along) & (along < high)).all():
        return  # on a face's plane: any move may change what is kept
    # A move along x that stays inside every group's bounds (the diagonals' too).
    room = min(((high - along) if n[0] > 0 else (along - low))[g] / abs(n[0])
               for g, n in enumerate(FACING_NORMALS) if n[0] != 0)
    moved = (eye[0] + min(room, 4 * KEY_UNITS) * 0.99 * step[0] / KEY_UNITS, eye[1], eye[2])
    np.testing.assert_array_equal(facing_counts(groups, moved), facing_counts(groups, eye))


def test_an_eye_on_a_faces_plane_may_change_what_is_kept_by_any_move():
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    padded[5, 5, 5] = block_id("stone")
    _, groups = facing_order(section_faces(padded).positions)
    low, high = steady_bounds(groups, (5.0, 9.0, 9.0))  # on the +x face's plane
    assert low[0] == high[0] == 5 * KEY_UNITS


def test_sorted_parts_hold_the_same_faces_and_the_blended_part_keeps_its_order():
    padded, light = random_section(11, 0.6, 4)
    for draw_pass, (plain, sorted_part) in enumerate(zip(mesh_section_compact(padded, light),
                                                         mesh_section_compact(padded, light, facing=True))):
        rows = [np.sort(unpack_compact(part).positions.reshape(-1, 12), axis=0) for part in (plain, sorted_part)]
        np.testing.assert_array_equal(rows[0], rows[1])
        if draw_pass == BLENDED_PASS:
            assert sorted_part.facing is None
            np.testing.assert_array_equal(plain.vertices, sorted_part.vertices)
        elif sorted_part.face_count:
            assert sorted_part.facing.face_count == sorted_part.face_count


def test_facing_indices_are_the_kept_faces_six_indices_each():
    padded, light = random_section(12, 0.6, 3)
    part = mesh_section_compact(padded, light, facing=True)[0]
    counts = facing_counts(part.facing, (3.5, 20.0, -2.0))
    faces = facing_faces(part.facing, counts)
    np.testing.assert_array_equal(facing_indices(part.indices, part.facing, counts),
                                  part.indices.reshape(-1, 6)[faces].reshape(-1))
    assert facing_indices(part.indices, part.facing, counts).dtype == part.indices.dtype


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match=r"\(F, 4, 3\)"):
        facing_order(np.zeros((3, 3)))
    _, groups = facing_order(np.zeros((0, 4, 3)))
    with pytest.raises(ValueError, match=f"{GROUP_COUNT} entries"):
        facing_faces(groups, np.zeros(3))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1), eye=EYES, ahead=st.sampled_from([0, 1, 3.5]),
       behind=st.sampled_from([0, 2, 6.5]),
       moves=st.lists(st.tuples(*(st.floats(-8.0, 8.0) for _ in range(3))), min_size=1, max_size=6))
def test_with_margins_the_kept_faces_hold_every_face_facing_any_eye_within_the_bounds(seed, eye, ahead, behind,
                                                                                        moves):
    faces = merge_faces(section_faces(*random_section(seed, 0.6, 3)))
    _, groups = facing_order(faces.positions)
    counts, low, high = facing_state(groups, eye, None, ahead * KEY_UNITS, behind * KEY_UNITS)
    exact = facing_counts(groups, eye)
    assert (counts >= exact).all()
    sizes = np.diff(groups.starts)
    extra = [groups.keys[groups.starts[g] + exact[g]:groups.starts[g] + counts[g]] for g in range(ALWAYS_DRAWN)]
    along = eye_along(eye)
    assert all((keys < along[g] + ahead * KEY_UNITS).all() for g, keys in enumerate(extra)), "only faces within reach"
    assert (counts <= sizes).all()
    for move in moves:
        moved = tuple(e + m for e, m in zip(eye, move))
        moved_along = eye_along(moved)
        if ((low < moved_along) & (moved_along < high)).all():
            assert (facing_counts(groups, moved) <= counts).all()
