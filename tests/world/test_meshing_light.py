"""Smooth lighting in the mesher: per-vertex sky and block light levels, and agreement with the reference."""

import numpy as np
import pytest

from game.world.blocks import COUNT, LAVA_IDS, WATER_IDS, block_id
from game.world.meshing import GLOW_LEVELS, OPEN_SKY_LEVELS, PADDED_SIZE, MeshArrays, mesh_section
from game.world.meshing_reference import mesh_section_reference

TORCH_LEVEL = 14
"""[light levels] A torch's block light in Beta; it falls by 1 a block (Manhattan distance) through air."""
UP = (0, 1, 0)


def padded_with(blocks: dict[tuple[int, int, int], str]) -> np.ndarray:
    """A padded section holding `blocks` at section-local positions (-1 and 16 are the border)."""
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    for (x, y, z), name in blocks.items():
        padded[x + 1, y + 1, z + 1] = block_id(name)
    return padded


def light_of(levels: dict[tuple[int, int, int], tuple[int, int]], default: tuple[int, int] = (0, 0)) -> np.ndarray:
    """A padded light array: (sky, block) at section-local positions, `default` elsewhere."""
    light = np.full((PADDED_SIZE,) * 3, default[0] << 4 | default[1], dtype=np.uint8)
    for (x, y, z), (sky, block) in levels.items():
        light[x + 1, y + 1, z + 1] = sky << 4 | block
    return light


def dark_box_with_torch() -> tuple[np.ndarray, np.ndarray]:
    """A stone box (inside x, y, z in 5..11) with a torch at (8, 5, 8) on its floor, no sky light, and
    the torch's light spread through the air as Beta spreads it (14 minus the Manhattan distance)."""
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    padded[4 + 1:13 + 1, 4 + 1:13 + 1, 4 + 1:13 + 1] = block_id("stone")
    padded[5 + 1:12 + 1, 5 + 1:12 + 1, 5 + 1:12 + 1] = 0
    padded[8 + 1, 5 + 1, 8 + 1] = block_id("torch")
    light = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint8)
    for x, y, z in np.argwhere(padded[1:17, 1:17, 1:17] != block_id("stone")):
        light[x + 1, y + 1, z + 1] = max(0, TORCH_LEVEL - abs(x - 8) - abs(y - 5) - abs(z - 8))
    return padded, light


def vertex_levels(part: MeshArrays, normal: tuple[int, int, int]) -> dict[tuple[float, float, float], tuple]:
    """{vertex position: (sky, block)} over the faces of `part` that face `normal`."""
    found = {}
    for corners, levels in zip(part.positions.reshape(-1, 4, 3), part.light.reshape(-1, 4, 2)):
        inward = np.cross(corners[1] - corners[0], corners[2] - corners[0])
        if tuple(int(v) for v in -np.sign(inward)) == normal:
            for corner, level in zip(corners, levels):
                found.setdefault(tuple(float(c) for c in corner), []).append(tuple(float(v) for v in level))
    return found


def face_rows(part: MeshArrays) -> np.ndarray:
    """One row per face (positions, uvs, colours and light levels of its 4 vertices in emitted order), sorted."""
    n = part.face_count
    rows = np.concatenate([part.positions.reshape(n, 12), part.uvs.reshape(n, 8), part.colors.reshape(n, 16),
                           part.light.reshape(n, 8)], axis=1)
    return rows[np.lexsort(rows.T[::-1])]


def test_a_torch_in_a_dark_box_lights_the_floor_vertices_by_the_average_of_the_four_cells_above_them():
    padded, light = dark_box_with_torch()
    opaque, _ = mesh_section(padded, light)
    floor = vertex_levels(opaque, UP)
    # The floor's top is the plane y = 5. Around (9, 5, 9): cells (8, 5, 8) torch 14, (9, 5, 8) 13,
    # (8, 5, 9) 13, (9, 5, 9) 12 -> 13.0. Around (10, 5, 9): 13, 12, 12, 11 -> 12.0.
    assert set(floor[(9.0, 5.0, 9.0)]) == {(0.0, 13.0)}
    assert set(floor[(10.0, 5.0, 9.0)]) == {(0.0, 12.0)}
    assert set(floor[(10.0, 5.0, 10.0)]) == {(0.0, 11.0)}
    # In the box's corner the wall cells are left out: (5, 5, 5) has only the cell (5, 5, 5), level 14 - 6.
    assert set(floor[(5.0, 5.0, 5.0)]) == {(0.0, 8.0)}


def test_a_vertex_between_a_lit_cell_and_a_darker_one_takes_a_fractional_average():
    padded = padded_with({(4, 4, 4): "stone"})
    light = light_of({(4, 5, 4): (0, 12), (5, 5, 4): (0, 11), (4, 5, 5): (0, 11)}, default=(0, 0))
    opaque, _ = mesh_section(padded, light)
    top = vertex_levels(opaque, UP)
    assert top[(5.0, 5.0, 5.0)] == [(0.0, (12 + 11 + 11 + 0) / 4)]
    assert top[(4.0, 5.0, 4.0)] == [(0.0, 12 / 4)]


def test_sky_and_block_light_stay_apart_in_every_vertex():
    padded = padded_with({(4, 4, 4): "stone"})
    light = light_of({}, default=(15, 3))
    light[4 + 1, 5 + 1, 4 + 1] = 7 << 4 | 11
    opaque, _ = mesh_section(padded, light)
    top = vertex_levels(opaque, UP)
    assert set(top[(4.0, 5.0, 4.0)]) == {((7 + 15 * 3) / 4, (11 + 3 * 3) / 4)}


def test_an_opaque_cell_is_left_out_and_a_corner_behind_two_blocked_sides_is_not_counted():
    # Stone floor at y 4; stone at (5, 5, 4) and (4, 5, 5) block both sides of the vertex (5, 5, 5) of
    # the top of (4, 4, 4): only the cell above the face is averaged, not the bright corner (5, 5, 5).
    padded = padded_with({(4, 4, 4): "stone", (5, 5, 4): "stone", (4, 5, 5): "stone"})
    light = light_of({(4, 5, 4): (0, 6), (5, 5, 5): (15, 15)}, default=(0, 0))
    opaque, _ = mesh_section(padded, light)
    top = vertex_levels(opaque, UP)
    assert top[(5.0, 5.0, 5.0)] == [(0.0, 6.0)]


def test_without_a_light_array_every_vertex_has_open_sky_and_glowing_blocks_the_brightest_block_light():
    opaque, transparent = mesh_section(padded_with({(2, 2, 2): "stone", (4, 2, 2): "torch", (6, 2, 2): "lava",
                                                    (8, 2, 2): "glass"}))
    levels = np.concatenate([opaque.light.reshape(-1, 2), transparent.light.reshape(-1, 2)])
    rows = {tuple(map(float, row)) for row in levels}
    assert rows == {OPEN_SKY_LEVELS, GLOW_LEVELS} and OPEN_SKY_LEVELS == (15.0, 0.0)


def test_torches_and_lava_glow_at_full_block_light_in_a_dark_box():
    for glowing in (block_id("torch"), LAVA_IDS[0], LAVA_IDS[3]):
        padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
        padded[4 + 1, 5 + 1, 4 + 1] = glowing
        opaque, transparent = mesh_section(padded, light_of({}, default=(0, 0)))
        assert opaque.face_count > 0 and transparent.face_count == 0
        assert np.all(opaque.light.reshape(-1, 2) == GLOW_LEVELS)


def test_a_water_surface_takes_the_sky_light_of_the_air_above_and_a_plant_its_own_cells_light():
    padded = padded_with({(4, 4, 4): "stone", (4, 5, 4): "water", (6, 5, 6): "rose", (6, 4, 6): "grass"})
    light = light_of({(4, 5, 4): (13, 0), (4, 6, 4): (15, 2), (6, 5, 6): (9, 4)}, default=(0, 0))
    _, transparent = mesh_section(padded, light)
    water_top = [levels for corners, levels in zip(transparent.positions.reshape(-1, 4, 3),
                                                    transparent.light.reshape(-1, 4, 2))
                 if corners[:, 0].min() == 4.0 and corners[:, 0].max() == 5.0 and corners[:, 1].min() > 5.0]
    assert len(water_top) == 1 and np.all(water_top[0] == (15.0, 2.0))
    plant = [levels for corners, levels in zip(transparent.positions.reshape(-1, 4, 3), transparent.light.reshape(-1, 4, 2))
             if corners[:, 0].min() > 6.0]
    assert len(plant) == 4 and np.all(np.array(plant) == (9.0, 4.0))


@pytest.mark.parametrize("seed, air_fraction", [(1, 0.3), (2, 0.6), (3, 0.85), (4, 0.97)])
def test_the_vectorised_mesher_gives_the_same_light_levels_as_the_reference(seed, air_fraction):
    rng = np.random.default_rng(seed)
    padded = rng.integers(0, COUNT, (PADDED_SIZE,) * 3)
    padded[rng.random(padded.shape) < air_fraction] = 0
    light = rng.integers(0, 256, (PADDED_SIZE,) * 3).astype(np.uint8)
    for vectorised, reference in zip(mesh_section(padded, light), mesh_section_reference(padded, light)):
        assert vectorised.face_count == reference.face_count
        np.testing.assert_array_equal(face_rows(vectorised), face_rows(reference))


def test_the_meshers_agree_on_water_lava_and_plants_lit_unevenly():
    rng = np.random.default_rng(11)
    kinds = np.concatenate([WATER_IDS, LAVA_IDS, [block_id("rose"), block_id("glass"), block_id("stone"), 0, 0]])
    padded = kinds[rng.integers(0, len(kinds), (PADDED_SIZE,) * 3)]
    light = rng.integers(0, 256, (PADDED_SIZE,) * 3).astype(np.int32)
    for vectorised, reference in zip(mesh_section(padded, light), mesh_section_reference(padded, light)):
        np.testing.assert_array_equal(face_rows(vectorised), face_rows(reference))


def test_the_light_levels_are_flat_float32_two_per_vertex_and_cannot_be_modified():
    padded, light = dark_box_with_torch()
    for part in mesh_section(padded, light):
        assert part.light.dtype == np.float32 and part.light.ndim == 1 and len(part.light) == 8 * part.face_count
        assert part.light.flags.c_contiguous and not part.light.flags.writeable


def test_bad_light_input_is_refused_naming_the_problem():
    padded = padded_with({(4, 4, 4): "stone"})
    with pytest.raises(TypeError, match="numpy array"):
        mesh_section(padded, [[0]])
    with pytest.raises(TypeError, match="integer levels"):
        mesh_section(padded, np.zeros((PADDED_SIZE,) * 3, dtype=np.float32))
    with pytest.raises(ValueError, match=r"shape \(18, 18, 18\)"):
        mesh_section(padded, np.zeros((16, 16, 16), dtype=np.uint8))
    too_bright = np.zeros((PADDED_SIZE,) * 3, dtype=np.int16)
    too_bright[3, 4, 5] = 256
    with pytest.raises(ValueError, match=r"256 at \[3, 4, 5\]"):
        mesh_section(padded, too_bright)
    assert too_bright[3, 4, 5] == 256  # the input is left as it was
