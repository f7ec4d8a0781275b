"""Merged faces and compact vertices (`game.world.meshing_merge`) against the per-face mesher, their twin."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.world.blocks import WATER_IDS, block_id
from game.world.meshing import (BLENDED_PASS, CUTOUT_PASS, HIDES_FACES, MERGEABLE, NOT_MERGEABLE, OPAQUE_PASS,
                                PADDED_SIZE, SectionFaces, hides_every_face, mesh_section_passes, section_faces)
from game.world.meshing_merge import (LEVEL_UNITS, MERGED, POSITION_UNITS, SEAL_UNITS, SHADES, VERTEX_BYTES,
                                      merge_faces, mesh_section_compact, mesh_section_compact_in_full, pack_compact,
                                      unpack_compact)

PALETTE = [block_id(name) for name in ("stone", "dirt", "grass", "leaves", "glass", "stone_slab", "torch",
                                       "tall_grass", "planks")] + [int(WATER_IDS[0])]
"""Blocks the random sections are made of: merged cubes (stone, dirt, grass, planks, cut-out leaves), and
blocks that stay unmerged (blended glass, a slab, a glowing torch, a plant, water)."""
FRAME_CORNERS = ((0, 0), (1, 0), (1, 1), (0, 1))
"""A quad's corners in its texture frame, in the meshers' vertex order."""


def random_section(seed: int, air_fraction: float, kinds: int) -> tuple[np.ndarray, np.ndarray]:
    """A padded section of `kinds` palette blocks with about `air_fraction` air, and light in a few
    levels (so that neighbouring faces often carry the same light, and often not)."""
    rng = np.random.default_rng(seed)
    ids = np.array(PALETTE)[rng.permutation(len(PALETTE))[:kinds]]
    padded = ids[rng.integers(0, kinds, (PADDED_SIZE,) * 3)].astype(np.uint16)
    padded[rng.random(padded.shape) < air_fraction] = 0
    sky = np.where(rng.random(padded.shape) < 0.9, 15, 12)
    block = np.where(rng.random(padded.shape) < 0.9, 0, 7)
    return padded, (sky << 4 | block).astype(np.uint8)


def unit_rows(faces: SectionFaces) -> np.ndarray:
    """The faces cut into unit faces, one sorted row each: the 4 corners' positions, tile UVs (each unit
    face's own, 0..1), brightness and levels, then the tile and draw pass. A value between two corners
    that differ is NaN: a merged quad may only stretch a value along the axis where it is constant."""
    extent = np.ceil(faces.tile_uvs.max(axis=1)).astype(int)  # (F, 2): a merged quad's size in tiles
    single = (extent <= 1).all(axis=1)
    light = np.concatenate([faces.brightness[:, :, None], faces.levels], axis=2)
    rows = [np.concatenate([faces.positions.reshape(-1, 12), faces.tile_uvs.reshape(-1, 8), light.reshape(-1, 12),
                            faces.tiles[:, None], faces.draw_pass[:, None]], axis=1)[single].astype(np.float64)]
    for f in np.flatnonzero(~single):
        uv = faces.tile_uvs[f]
        width, height = extent[f]
        values = np.concatenate([faces.positions[f], light[f]], axis=1)
        for i in range(width):
            for j in range(height):
                corners = [_stretch(values, i + a, width, j + b, height) for a, b in FRAME_CORNERS]
                tile_uv = np.array([_at(uv, i + a, width, j + b, height) - (i, j) for a, b in FRAME_CORNERS])
                rows.append(np.concatenate([np.array([c[:3] for c in corners]).ravel(), tile_uv.ravel(),
                                            np.array([c[3:] for c in corners]).ravel(),
                                            [faces.tiles[f], faces.draw_pass[f]]])[None])
    rows = np.concatenate(rows)
    return rows[np.lexsort(rows.T[::-1])]


def _at(corners: np.ndarray, k: int, width: int, m: int, height: int) -> np.ndarray:
    """The point k / width along u and m / height along v of a rectangle whose corners (4, n) are in
    FRAME_CORNERS order: one step is a whole number of blocks or tiles, so this is exact."""
    corners = corners.astype(np.float64)
    return corners[0] + (corners[1] - corners[0]) / width * k + (corners[3] - corners[0]) / height * m


def _stretch(values: np.ndarray, k: int, width: int, m: int, height: int) -> np.ndarray:
    """Corner values (4, n) of a quad at k / width along u and m / height along v of its frame:
    the position, and the light exactly where the corners it lies between agree (NaN where not)."""
    position = _at(values[:, :3], k, width, m, height)
    light = values[:, 3:].astype(np.float64)
    s, t = k / width, m / height

    def along(low, high, x):
        return low if x == 0 else high if x == 1 else np.where(low == high, low, np.nan)

    return np.concatenate([position, along(along(light[0], light[1], s), along(light[3], light[2], s), t)])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1), air_fraction=st.sampled_from([0.3, 0.6, 0.9]), kinds=st.integers(1, 4))
def test_the_merged_mesh_covers_exactly_the_faces_of_the_per_face_mesh_with_the_same_tile_and_light(
        seed, air_fraction, kinds):
    padded, light = random_section(seed, air_fraction, kinds)
    faces = section_faces(padded, light)
    if faces is None:
        return
    merged = merge_faces(faces)
    assert merged.face_count <= faces.face_count
    np.testing.assert_array_equal(unit_rows(merged), unit_rows(faces))


def test_a_flat_floor_under_open_sky_becomes_one_quad_per_tile_and_direction():
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    padded[:, :5, :] = block_id("stone")  # section layers -1..3: the floor's top at y = 4
    faces = section_faces(padded)
    merged = merge_faces(faces)
    top = merged.directions == 2
    assert faces.face_count == 16 * 16
    assert merged.face_count == 1 and top.all()
    assert sorted(map(tuple, merged.positions[0].tolist())) == [(0, 4, 0), (0, 4, 16), (16, 4, 0), (16, 4, 16)]
    assert merged.tile_uvs[0].max() == 16.0


def test_faces_whose_corners_differ_across_the_run_are_never_merged():
    # A wall along x beside the floor: the floor's row next to it has AO on two corners, constant along x.
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    padded[:, 1, :] = block_id("stone")
    padded[:, 2, 1] = block_id("stone")  # a wall one block high along x at z = 0
    merged = merge_faces(section_faces(padded))
    floor = merged.directions == 2
    top_y = merged.positions[floor][:, :, 1]
    assert set(np.unique(top_y)) == {1.0, 2.0}
    floor_quads = merged.brightness[floor & (merged.positions[:, 0, 1] == 1.0)]
    # the shaded row beside the wall and the open rest: two quads, each constant along x
    assert len(floor_quads) == 2
    assert sorted(len(set(q.tolist())) for q in floor_quads) == [1, 2]


def test_glowing_blended_and_non_cube_blocks_are_left_unmerged():
    unmerged = [block_id(name) for name in ("glass", "torch", "stone_slab", "lava")]
    assert not MERGEABLE[unmerged].any()
    assert MERGEABLE[[block_id("stone"), block_id("leaves")]].all()
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    padded[1:17, 1, 1:17] = block_id("glass")
    faces = section_faces(padded)
    assert (faces.merge_cells == NOT_MERGEABLE).all()
    assert merge_faces(faces).face_count == faces.face_count


def test_merging_anything_but_section_faces_is_refused():
    with pytest.raises(TypeError, match="SectionFaces"):
        merge_faces(mesh_section_passes(np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16))[0])


# --- compact vertices ----------------------------------------------------------------------


def test_a_packed_vertex_is_16_bytes():
    assert VERTEX_BYTES == 16


@pytest.mark.parametrize("seed", [3, 4])
def test_packed_vertices_read_back_as_the_per_face_meshers_numbers(seed):
    padded, light = random_section(seed, 0.6, 4)
    for draw_pass, (packed, part) in enumerate(zip(mesh_section_compact(padded, light, merge=False),
                                                   mesh_section_passes(padded, light))):
        read = unpack_compact(packed)
        assert packed.face_count == part.face_count
        np.testing.assert_allclose(read.positions.ravel(), part.positions, rtol=0, atol=0.5 / POSITION_UNITS)
        np.testing.assert_array_equal(read.brightness, part.colors.reshape(-1, 4)[:, 0])
        np.testing.assert_allclose(read.levels.ravel(), part.light, rtol=0, atol=1e-6)
        assert packed.vertices["position"][:, 3].tolist() == [1] * len(packed.vertices)


def test_light_levels_and_brightness_pack_without_loss():
    thirds = np.float32(40 / 3)
    assert np.rint(np.float64(thirds) * LEVEL_UNITS) == 160
    faces = section_faces(random_section(8, 0.6, 4)[0])
    assert (SHADES[pack_compact(faces).vertices["light"][:, 0]] == faces.brightness.reshape(-1)).all()


def test_a_mesh_with_more_than_65536_vertices_indexes_them_with_uint32():
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    padded[np.indices(padded.shape).sum(axis=0) % 2 == 0] = block_id("stone")  # 12,288 faces
    faces = section_faces(padded)
    twice = SectionFaces(*(np.concatenate([column, column]) for column in (
        getattr(faces, name) for name in ("positions", "uvs", "brightness", "levels", "draw_pass", "tiles",
                                          "tile_uvs", "directions", "merge_cells"))))
    assert pack_compact(faces).indices.dtype == np.uint16
    packed = pack_compact(twice)
    assert len(packed.vertices) == 8 * 12288 and packed.indices.dtype == np.uint32
    assert packed.indices[-1] == 8 * 12288 - 1


def test_packing_a_position_outside_the_section_is_refused():
    faces = section_faces(random_section(6, 0.9, 2)[0])
    moved = SectionFaces(faces.positions + 17, *(getattr(faces, name) for name in (
        "uvs", "brightness", "levels", "draw_pass", "tiles", "tile_uvs", "directions", "merge_cells")))
    with pytest.raises(ValueError, match="0..16 blocks"):
        pack_compact(moved)


def test_each_pass_keeps_its_own_faces():
    padded, light = random_section(7, 0.6, 4)
    for packed, part in zip(mesh_section_compact(padded, light, merge=False), mesh_section_passes(padded, light)):
        assert packed.face_count == part.face_count
    assert (OPAQUE_PASS, CUTOUT_PASS, BLENDED_PASS) == (0, 1, 2)


def test_a_merged_quad_is_packed_one_unit_past_each_edge_and_a_face_of_its_own_exactly():
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    padded[:, :5, :] = block_id("stone")  # the floor's top at y = 4: one merged quad
    padded[5, 5, 5] = block_id("glass")  # blended: its faces stay whole and on their own
    faces = merge_faces(section_faces(padded))
    packed = pack_compact(faces)
    read = unpack_compact(packed)
    merged = np.flatnonzero(faces.merge_cells == MERGED)
    assert len(merged) == 1
    corners = read.positions.reshape(-1, 4, 3)[merged[0]]
    seal = SEAL_UNITS / POSITION_UNITS
    assert sorted(map(tuple, corners.tolist())) == [(-seal, 4, -seal), (-seal, 4, 16 + seal), (16 + seal, 4, -seal),
                                                    (16 + seal, 4, 16 + seal)]
    assert sorted(read.tile_uvs.reshape(-1, 4, 2)[merged[0]].ravel().tolist()) == [-seal] * 4 + [16 + seal] * 4
    alone = np.flatnonzero(faces.merge_cells != MERGED)
    np.testing.assert_array_equal(read.positions.reshape(-1, 4, 3)[alone], faces.positions[alone])
    np.testing.assert_array_equal(read.tile_uvs.reshape(-1, 4, 2)[alone], faces.tile_uvs[alone])


HIDING = [block_id(name) for name in ("stone", "dirt", "grass", "planks", "cobblestone", "bedrock", "gravel")]
"""Full opaque cubes (each hides the faces beside it)."""


def _same_parts(fast, full) -> bool:
    return all(np.array_equal(a.vertices, b.vertices) and np.array_equal(a.indices, b.indices)
               and (a.facing is None) == (b.facing is None) for a, b in zip(fast, full))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1), holes=st.integers(0, 3), facing=st.booleans())
def test_a_section_whose_every_cell_hides_faces_meshes_as_the_general_path_meshes_it(seed, holes, facing):
    rng = np.random.default_rng(seed)
    padded = np.array(HIDING, dtype=np.uint16)[rng.integers(0, len(HIDING), (PADDED_SIZE,) * 3)]
    for _ in range(holes):  # a few see-through cells (anywhere: the border too) leave the fast path
        padded[tuple(rng.integers(0, PADDED_SIZE, 3))] = block_id("glass") if rng.random() < 0.5 else 0
    light = rng.integers(0, 256, padded.shape).astype(np.uint8)
    assert hides_every_face(padded, light) == (holes == 0 or bool(HIDES_FACES[padded].all()))
    fast, full = mesh_section_compact(padded, light, facing=facing), mesh_section_compact_in_full(padded, light, facing=facing)
    assert _same_parts(fast, full)


def test_an_enclosed_section_has_no_faces_in_any_pass():
    padded = np.full((PADDED_SIZE,) * 3, block_id("stone"), dtype=np.uint16)
    assert hides_every_face(padded)
    assert [len(part.indices) for part in mesh_section_compact(padded)] == [0, 0, 0]


def test_an_enclosed_section_with_bad_light_is_refused_as_any_section_is():
    padded = np.full((PADDED_SIZE,) * 3, block_id("stone"), dtype=np.uint16)
    with pytest.raises(ValueError):
        mesh_section_compact(padded, np.zeros((4, 4, 4), dtype=np.uint8))
