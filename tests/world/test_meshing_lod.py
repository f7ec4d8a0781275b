"""Levels of detail (`game.world.meshing_lod`): coarse cells against their per-cell twin, the coarse mesh's
surface, its light, and closed seams between a coarse section and a fine or coarse neighbour."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.world.blocks import AIR, LAVA_IDS, WATER_IDS, block_id
from game.world.meshing import HIDES_FACES, PADDED_SIZE, SECTION_SIZE, section_faces
from game.world.meshing_lod import (COARSE_PADDED, HALF_FLUID_LEVEL, LOD_SCALE, coarse_padded,
                                    coarse_padded_reference, lod_faces, mesh_section_lod)
from game.world.meshing_merge import mesh_section_compact, unpack_compact

STONE, DIRT, GRASS = block_id("stone"), block_id("dirt"), block_id("grass")
PALETTE = [STONE, DIRT, GRASS, block_id("leaves"), block_id("glass"), block_id("stone_slab"), block_id("torch"),
           block_id("tall_grass"), int(WATER_IDS[0]), int(WATER_IDS[3]), int(LAVA_IDS[0])]
PLUS_X, MINUS_X, PLUS_Y = 0, 1, 2
"""Face directions (blocks.FACES order)."""


def random_section(seed: int, air_fraction: float, kinds: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    ids = np.array(PALETTE)[rng.permutation(len(PALETTE))[:kinds]]
    padded = ids[rng.integers(0, kinds, (PADDED_SIZE,) * 3)].astype(np.uint16)
    padded[rng.random(padded.shape) < air_fraction] = AIR
    light = rng.integers(0, 256, padded.shape).astype(np.uint8)
    return padded, light


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1), air_fraction=st.sampled_from([0.2, 0.5, 0.8]), kinds=st.integers(1, 4))
def test_coarse_cells_are_exactly_those_of_the_per_cell_twin(seed, air_fraction, kinds):
    padded, light = random_section(seed, air_fraction, kinds)
    blocks, coarse_light = coarse_padded(padded, light)
    twin_blocks, twin_light = coarse_padded_reference(padded, light)
    assert blocks.shape == (COARSE_PADDED,) * 3
    np.testing.assert_array_equal(blocks, twin_blocks)
    np.testing.assert_array_equal(coarse_light, twin_light)


def test_coarse_cells_of_one_block_each_are_those_of_the_per_cell_twin_for_every_block_in_and_around_the_section():
    # Each coarse cell's 8 fine cells are one block, every block id in turn (in the ring too): the
    # cells the coarsening answers from its one-block table.
    ring = np.ones((COARSE_PADDED,) * 3, dtype=bool)
    ring[1:-1, 1:-1, 1:-1] = False
    coarse_ids = np.zeros((COARSE_PADDED,) * 3, dtype=np.intp)
    for cells in (ring, ~ring):
        coarse_ids[cells] = np.arange(np.count_nonzero(cells)) % len(HIDES_FACES)  # every id, in and around
    fine = (np.arange(PADDED_SIZE) + 1) // LOD_SCALE  # the coarse cell each padded index belongs to
    padded = coarse_ids[np.ix_(fine, fine, fine)].astype(np.uint16)
    blocks, _ = coarse_padded(padded)
    twin_blocks, _ = coarse_padded_reference(padded)
    np.testing.assert_array_equal(blocks, twin_blocks)


def solid_section(block: int) -> np.ndarray:
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    padded[1:-1, 1:-1, 1:-1] = block
    return padded


def area_by_direction(faces) -> np.ndarray:
    """[blocks^2] Per face direction, the area its faces cover."""
    low, high = faces.positions.min(axis=1), faces.positions.max(axis=1)
    sides = np.sort(high - low, axis=1)  # the flat axis first
    return np.bincount(faces.directions, weights=sides[:, 1] * sides[:, 2], minlength=6)


def test_a_section_of_one_material_coarsens_to_the_same_outer_surface():
    padded = solid_section(STONE)
    fine, coarse = section_faces(padded), lod_faces(padded)
    np.testing.assert_array_equal(area_by_direction(coarse), area_by_direction(fine))
    assert area_by_direction(coarse).tolist() == [SECTION_SIZE ** 2] * 6
    assert coarse.positions.min() == 0.0 and coarse.positions.max() == SECTION_SIZE
    assert set(coarse.tiles.tolist()) == set(fine.tiles.tolist())


def test_a_coarse_section_of_bumpy_ground_has_fewer_faces_than_the_fine_one():
    padded = solid_section(AIR)
    heights = np.add.outer(np.arange(16) % 3, np.arange(16) % 2) + 4
    for x in range(16):
        for z in range(16):
            padded[x + 1, 1:heights[x, z] + 1, z + 1] = DIRT
            padded[x + 1, heights[x, z] + 1, z + 1] = GRASS
    fine = sum(part.face_count for part in mesh_section_compact(padded))
    coarse = sum(part.face_count for part in mesh_section_lod(padded))
    assert 0 < coarse < fine / 2


def test_a_tile_on_a_coarse_face_shows_at_the_size_it_has_on_a_fine_one():
    coarse = unpack_compact(mesh_section_lod(solid_section(STONE), merge=False)[0])
    # Unmerged, every coarse face is one 2 x 2 block cell: its tile UVs run over LOD_SCALE tiles.
    span = coarse.tile_uvs.reshape(-1, 4, 2).max(axis=1) - coarse.tile_uvs.reshape(-1, 4, 2).min(axis=1)
    assert np.all(span == LOD_SCALE)


def test_a_coarse_cell_hides_faces_when_any_of_its_eight_does_and_takes_the_upper_block_on_a_tie():
    padded = solid_section(AIR)
    padded[1, 1, 1] = STONE  # one stone of eight
    padded[3:5, 1, 1:3] = DIRT  # the cell (1, 0, 0): dirt below, grass above
    padded[3:5, 2, 1:3] = GRASS
    blocks, _ = coarse_padded(padded)
    assert blocks[1, 1, 1] == STONE
    assert blocks[2, 1, 1] == GRASS


def test_a_padding_cell_hides_faces_only_when_all_its_fine_cells_do():
    padded = solid_section(AIR)
    padded[0, 1:3, 1:3] = STONE  # a whole 2 x 2 of the -x neighbour's layer
    padded[0, 1:3, 3:4] = STONE  # three of the next 2 x 2
    blocks, _ = coarse_padded(padded)
    assert blocks[0, 1, 1] == STONE
    assert blocks[0, 1, 2] == AIR


def test_a_coarse_cell_takes_the_brightest_sky_and_block_light_of_its_eight():
    padded = solid_section(AIR)
    light = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint8)
    light[1, 1, 1] = 9 << 4 | 2
    light[2, 2, 2] = 4 << 4 | 11
    _, coarse_light = coarse_padded(padded, light)
    assert coarse_light[1, 1, 1] == (9 << 4 | 11)


def test_water_in_the_lower_half_of_a_coarse_cell_keeps_a_fine_sources_surface_height():
    padded = solid_section(AIR)
    padded[:, 1, :] = WATER_IDS[0]  # one layer of still water at section-local y 0, the neighbours' too
    blocks, _ = coarse_padded(padded)
    assert blocks[4, 1, 4] == WATER_IDS[HALF_FLUID_LEVEL]
    coarse, fine = lod_faces(padded), section_faces(padded)
    coarse_top = coarse.positions[coarse.directions == PLUS_Y][:, :, 1]
    fine_top = fine.positions[fine.directions == PLUS_Y][:, :, 1]
    np.testing.assert_allclose(coarse_top, 8 / 9, atol=1e-6)
    np.testing.assert_allclose(fine_top, 8 / 9, atol=1e-6)


def covered(faces, direction: int, plane: float) -> np.ndarray:
    """(16, 16) bool over (y, z): which unit squares of the x = `plane` plane faces of `direction` cover."""
    grid = np.zeros((SECTION_SIZE, SECTION_SIZE), dtype=bool)
    if faces is None:
        return grid
    for corners in faces.positions[faces.directions == direction]:
        if np.all(corners[:, 0] == plane):
            y0, z0 = np.rint(corners[:, 1:].min(axis=0)).astype(int)
            y1, z1 = np.rint(corners[:, 1:].max(axis=0)).astype(int)
            grid[y0:y1, z0:z1] = True
    return grid


def two_sections(seed: int, air_fraction: float) -> np.ndarray:
    """Random stone and air blocks for two sections side by side along x, with their borders: (34, 18, 18)."""
    rng = np.random.default_rng(seed)
    world = np.where(rng.random((2 * SECTION_SIZE + 2, PADDED_SIZE, PADDED_SIZE)) < air_fraction, AIR, STONE)
    return world.astype(np.uint16)


def coarse_volume(padded: np.ndarray) -> np.ndarray:
    """(16, 16, 16) bool: which blocks of a section its coarse cells fill with face-hiding blocks."""
    blocks, _ = coarse_padded(padded)
    inner = HIDES_FACES[blocks[1:-1, 1:-1, 1:-1]]
    return inner.repeat(LOD_SCALE, 0).repeat(LOD_SCALE, 1).repeat(LOD_SCALE, 2)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1), air_fraction=st.sampled_from([0.3, 0.6, 0.9]),
       right_coarse=st.booleans())
def test_the_seam_between_a_fine_section_and_a_coarse_one_has_no_hole(seed, air_fraction, right_coarse):
    """Left: a fine section (or a coarse one); right: a coarse one. Where the solid volume of one side
    meets open space on the other across their shared plane, a face covers it."""
    world = two_sections(seed, air_fraction)
    left, right = world[:PADDED_SIZE], world[SECTION_SIZE:SECTION_SIZE + PADDED_SIZE]
    if right_coarse:
        left_solid, left_faces = HIDES_FACES[left[1:-1, 1:-1, 1:-1]], section_faces(left)
    else:
        left_solid, left_faces = coarse_volume(left), lod_faces(left)
    right_solid, right_faces = coarse_volume(right), lod_faces(right)
    left_wall = left_solid[-1] & ~right_solid[0]  # (y, z): must be covered by the left side's +x faces
    right_wall = right_solid[0] & ~left_solid[-1]
    assert not (left_wall & ~covered(left_faces, PLUS_X, SECTION_SIZE)).any()
    assert not (right_wall & ~covered(right_faces, MINUS_X, 0)).any()


def test_a_section_of_face_hiding_blocks_alone_has_no_coarse_faces():
    padded = np.full((PADDED_SIZE,) * 3, STONE, dtype=np.uint16)
    assert all(part.face_count == 0 for part in mesh_section_lod(padded))


def test_a_badly_shaped_section_is_refused():
    with pytest.raises(ValueError, match="shape"):
        mesh_section_lod(np.zeros((16, 16, 16), dtype=np.uint16))
    with pytest.raises(TypeError):
        coarse_padded(np.zeros((PADDED_SIZE,) * 3, dtype=np.float32))
