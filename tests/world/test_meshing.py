"""The section mesher: visible faces, culling, shapes, AO, UVs, array format, and agreement with the reference."""

from pathlib import Path

import numpy as np
import pytest

import physics
from game.world import atlas
from game.world.blocks import (BLENDED, COUNT, CROSS, FACE_TILES, FACES, FLUID_LEVEL, NAMES, SHAPES, TILE_NAMES, TOP,
                               TRANSPARENT, UnknownBlockError, block_id)
from game.world.meshing import (AO_BRIGHTNESS, DRAWN_BOXES, FACE_NORMALS, FACE_SHADE, FENCE_POST, PADDED_SIZE,
                                MeshArrays, mesh_section, mesh_section_passes, quads_of_block)
from game.world.meshing_reference import mesh_section_reference
from physics.aabb import AABB

PROBE_STEP = 1.0 / 64.0
"""[blocks] How far beside a face to probe which side is solid: less than the thinnest drawn part (1/16)."""
AREA_TOLERANCE = 1e-9
"""Quad areas are sums of products of sixteenths: exact in binary, the tolerance only guards float sums."""


def padded_with(blocks: dict[tuple[int, int, int], str]) -> np.ndarray:
    """A padded section holding `blocks` at section-local positions (-1 and 16 are the border)."""
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    for (x, y, z), name in blocks.items():
        padded[x + 1, y + 1, z + 1] = block_id(name)
    return padded


def faces(part: MeshArrays) -> np.ndarray:
    """(F, 4, 3) vertex positions per face."""
    return part.positions.reshape(-1, 4, 3)


def face_normal(corners: np.ndarray) -> tuple[int, int, int]:
    """The outward unit normal of a quad whose winding is clockwise by the right-hand rule."""
    inward = np.cross(corners[1] - corners[0], corners[2] - corners[0])
    return tuple(int(v) for v in -np.sign(inward))


def face_rows(part: MeshArrays) -> np.ndarray:
    """One row per face (positions, uvs, colours of its 4 vertices in emitted order), sorted."""
    n = part.face_count
    rows = np.concatenate([part.positions.reshape(n, 12), part.uvs.reshape(n, 8), part.colors.reshape(n, 16)], axis=1)
    return rows[np.lexsort(rows.T[::-1])]


# --- face counts ----------------------------------------------------------------------------


def test_a_single_block_shows_all_six_faces():
    opaque, transparent = mesh_section(padded_with({(4, 4, 4): "stone"}))
    assert (opaque.face_count, transparent.face_count) == (6, 0)
    normals = sorted(face_normal(f) for f in faces(opaque))
    assert normals == sorted(FACE_NORMALS)


def test_two_adjacent_blocks_hide_the_faces_between_them():
    opaque, _ = mesh_section(padded_with({(4, 4, 4): "stone", (5, 4, 4): "dirt"}))
    assert opaque.face_count == 10
    assert not np.any(np.all(faces(opaque)[:, :, 0] == 5.0, axis=1))  # no face left in the plane x = 5


def test_a_block_on_the_section_border_is_hidden_by_the_neighbours_block_in_the_padding():
    opaque, _ = mesh_section(padded_with({(15, 4, 4): "stone", (16, 4, 4): "stone"}))
    assert opaque.face_count == 5
    assert (1, 0, 0) not in [face_normal(f) for f in faces(opaque)]


def test_blocks_in_the_padding_are_not_meshed():
    padded = padded_with({(-1, 4, 4): "stone", (16, 16, 16): "grass", (4, -1, 4): "glass"})
    opaque, transparent = mesh_section(padded)
    assert (opaque.face_count, transparent.face_count) == (0, 0)


def test_a_slab_under_a_block_keeps_its_top_and_the_block_keeps_its_bottom():
    opaque, _ = mesh_section(padded_with({(4, 4, 4): "stone_slab", (4, 5, 4): "stone"}))
    assert opaque.face_count == 12
    tops = [f for f in faces(opaque) if face_normal(f) == (0, 1, 0)]
    assert sorted(float(f[0, 1]) for f in tops) == [4.5, 6.0]


def test_a_slab_on_a_block_hides_its_bottom_but_not_the_blocks_top():
    opaque, _ = mesh_section(padded_with({(4, 4, 4): "stone", (4, 5, 4): "stone_slab"}))
    assert opaque.face_count == 11
    bottoms = [f for f in faces(opaque) if face_normal(f) == (0, -1, 0)]
    assert [float(f[0, 1]) for f in bottoms] == [4.0]


def test_a_full_block_next_to_a_slab_keeps_its_face_and_the_slab_loses_its_side():
    opaque, _ = mesh_section(padded_with({(4, 4, 4): "stone", (5, 4, 4): "stone_slab"}))
    assert opaque.face_count == 11
    in_plane_x5 = [face_normal(f) for f in faces(opaque) if np.all(f[:, 0] == 5.0)]
    assert in_plane_x5 == [(1, 0, 0)]


def test_a_top_slab_hides_nothing_below_and_shows_its_bottom_inside_the_cell():
    opaque, _ = mesh_section(padded_with({(4, 4, 4): "stone", (4, 5, 4): "stone_slab_top"}))
    assert opaque.face_count == 12
    bottoms = sorted(float(f[0, 1]) for f in faces(opaque) if face_normal(f) == (0, -1, 0))
    assert bottoms == [4.0, 5.5]


def test_glass_next_to_glass_hides_the_shared_faces():
    opaque, transparent = mesh_section(padded_with({(4, 4, 4): "glass", (4, 4, 5): "glass"}))
    assert (opaque.face_count, transparent.face_count) == (0, 10)


def test_leaves_next_to_leaves_keep_the_shared_faces():
    opaque, transparent = mesh_section(padded_with({(4, 4, 4): "leaves", (4, 4, 5): "leaves"}))
    assert (opaque.face_count, transparent.face_count) == (0, 12)


def test_glass_against_stone_hides_the_glass_face_but_not_the_stone_face():
    opaque, transparent = mesh_section(padded_with({(4, 4, 4): "glass", (5, 4, 4): "stone"}))
    assert (opaque.face_count, transparent.face_count) == (6, 5)


def test_glass_next_to_ice_keeps_both_faces():
    _, transparent = mesh_section(padded_with({(4, 4, 4): "glass", (5, 4, 4): "ice"}))
    assert transparent.face_count == 12


def test_a_lone_stair_has_eleven_faces_and_its_high_back_is_hidden_by_a_wall():
    assert mesh_section(padded_with({(4, 4, 4): "stairs_east"}))[0].face_count == 11
    opaque, _ = mesh_section(padded_with({(4, 4, 4): "stairs_east", (5, 4, 4): "stone"}))
    assert opaque.face_count == (11 - 1) + 6  # the stone keeps its face: only opaque cubes hide faces


def test_carpet_on_a_block_hides_its_bottom_and_a_fence_is_drawn_as_a_post():
    opaque, _ = mesh_section(padded_with({(4, 4, 4): "stone", (4, 5, 4): "carpet"}))
    assert opaque.face_count == 6 + 5
    post, _ = mesh_section(padded_with({(4, 4, 4): "fence"}))
    assert post.face_count == 6
    xs = faces(post)[:, :, 0]
    assert (xs.min(), xs.max()) == (4.375, 4.625)


# --- Beta's media: water, lava, ladders, cobwebs, soul sand, cactus ----------------------------------


def test_water_is_see_through_hides_faces_against_water_and_is_hidden_by_stone():
    assert [p.face_count for p in mesh_section(padded_with({(4, 4, 4): "water"}))] == [0, 6]
    assert [p.face_count for p in mesh_section(padded_with({(4, 4, 4): "water", (5, 4, 4): "water"}))] == [0, 10]
    opaque, transparent = mesh_section(padded_with({(4, 4, 4): "water", (4, 3, 4): "sand"}))
    assert (opaque.face_count, transparent.face_count) == (6, 5)  # the sand's top shows through the water


def test_lava_is_drawn_in_the_opaque_pass_and_hides_faces_against_lava_only():
    assert [p.face_count for p in mesh_section(padded_with({(4, 4, 4): "lava"}))] == [6, 0]
    assert mesh_section(padded_with({(4, 4, 4): "lava", (4, 4, 5): "lava"}))[0].face_count == 10
    assert mesh_section(padded_with({(4, 4, 4): "lava", (5, 4, 4): "stone"}))[0].face_count == 5 + 6


def test_a_ladder_is_a_thin_see_through_box_whose_back_the_wall_hides():
    opaque, transparent = mesh_section(padded_with({(4, 4, 4): "ladder_north", (4, 4, 3): "stone"}))
    assert (opaque.face_count, transparent.face_count) == (6, 5)  # the stone keeps its face: a ladder hides nothing
    zs = faces(transparent)[:, :, 2]
    assert (zs.min(), zs.max()) == (4.0, 4.125)
    fronts = [f for f in faces(transparent) if face_normal(f) == (0, 0, 1)]
    assert len(fronts) == 1 and np.all(fronts[0][:, 2] == 4.125)
    xs = faces(mesh_section(padded_with({(4, 4, 4): "ladder_east"}))[1])[:, :, 0]
    assert (xs.min(), xs.max()) == (4.875, 5.0)


def test_a_cobweb_collides_with_nothing_but_is_drawn_as_a_see_through_cube_keeping_faces_between_webs():
    assert [p.face_count for p in mesh_section(padded_with({(4, 4, 4): "cobweb"}))] == [0, 6]
    assert mesh_section(padded_with({(4, 4, 4): "cobweb", (4, 4, 5): "cobweb"}))[1].face_count == 12


def test_soul_sand_is_drawn_as_a_whole_cube_that_hides_its_neighbours_faces():
    opaque, _ = mesh_section(padded_with({(4, 4, 4): "soul_sand", (5, 4, 4): "grass"}))
    assert opaque.face_count == 10
    assert max(float(f[:, 1].max()) for f in faces(opaque)) == 5.0  # drawn full height, though it collides 7/8 high


def test_a_cactus_stack_is_one_inset_column_on_the_sand_that_shows_its_top():
    opaque, _ = mesh_section(padded_with({(4, 4, 4): "sand", (4, 5, 4): "cactus", (4, 6, 4): "cactus"}))
    assert opaque.face_count == 6 + 2 * 4 + 1  # sand, 4 sides per cactus, the top of the upper one
    cactus = [f for f in faces(opaque) if f[:, 1].max() > 5.0]
    xs = np.array([f[:, 0] for f in cactus])
    assert (xs.min(), xs.max()) == (4.0625, 4.9375)
    assert sorted(float(f[0, 1]) for f in cactus if face_normal(f) == (0, 1, 0)) == [7.0]


@pytest.mark.parametrize("name, area", [("stone", 6.0), ("stone_slab", 4.0), ("carpet", 2.25), ("stairs_north", 5.5),
                                        ("stairs_west", 5.5), ("fence", 1.125), ("water", 2 + 4 * 8 / 9),
                                        ("lava_7", 2 + 4 * 1 / 9), ("water_9", 2 + 4 * 8 / 9), ("cobweb", 6.0),
                                        ("ladder_north", 2.5), ("ladder_east", 2.5),
                                        ("cactus", 4 * 0.875 + 2 * 0.875 ** 2), ("torch", 4 * 20 / 256 + 2 * 4 / 256),
                                        ("rose", 0.0)])
def test_a_blocks_quads_cover_exactly_the_outer_surface_of_its_drawn_shape(name, area):
    total = 0.0
    for quad in quads_of_block(block_id(name)):
        corners = np.array(quad.corners)
        total += float(np.linalg.norm(np.cross(corners[1] - corners[0], corners[3] - corners[0])))
    assert total == pytest.approx(area, abs=AREA_TOLERANCE)


# --- winding, shading, AO ---------------------------------------------------------------------


def drawn_boxes(name: str):
    return DRAWN_BOXES[block_id(name)]


def test_blocks_are_drawn_as_their_collision_shape_but_a_fence_post_the_media_and_a_torch():
    assert DRAWN_BOXES[block_id("fence")] == (FENCE_POST,)
    assert SHAPES[block_id("cobweb")] == () and DRAWN_BOXES[block_id("cobweb")] == physics.shapes.FULL_CUBE
    for name, surface in (("water", 8 / 9), ("lava", 8 / 9), ("water_1", 7 / 9), ("lava_7", 1 / 9), ("water_8", 8 / 9)):
        assert SHAPES[block_id(name)] == () and DRAWN_BOXES[block_id(name)] == (AABB(0, 0, 0, 1, surface, 1),)
    torch_post = AABB(7 / 16, 0, 7 / 16, 9 / 16, 10 / 16, 9 / 16)
    assert SHAPES[block_id("torch")] == () and DRAWN_BOXES[block_id("torch")] == (torch_post,)
    assert DRAWN_BOXES[block_id("rose")] == ()
    assert DRAWN_BOXES[block_id("soul_sand")] == physics.shapes.FULL_CUBE != SHAPES[block_id("soul_sand")]
    for name in ("stone", "stone_slab", "stairs_east", "carpet", "ladder_west"):
        assert DRAWN_BOXES[block_id(name)] == SHAPES[block_id(name)]


def inside(point: np.ndarray, boxes) -> bool:
    return any(all(box[i] < point[i] < box[i + 3] for i in range(3)) for box in boxes)


def drawn_part(name: str, parts: tuple[MeshArrays, MeshArrays]) -> MeshArrays:
    """The part of `mesh_section`'s result that holds block `name`'s faces (plants: the transparent part)."""
    block = block_id(name)
    return parts[1] if TRANSPARENT[block] or CROSS[block] else parts[0]


@pytest.mark.parametrize("name", [n for n in NAMES if n != "air" and not CROSS[block_id(n)]])
def test_every_triangle_winds_clockwise_by_the_right_hand_rule_seen_from_outside(name):
    part = drawn_part(name, mesh_section(padded_with({(0, 0, 0): name})))
    corners = part.positions.reshape(-1, 3)[part.indices.reshape(-1, 3)]
    assert len(corners) > 0
    boxes = drawn_boxes(name)
    if FLUID_LEVEL[block_id(name)] >= 0:  # a lone fluid cell is a box up to its (flat) surface
        boxes = (AABB(0, 0, 0, 1, float(part.positions.reshape(-1, 3)[:, 1].max()), 1),)
    for triangle in corners:
        right_hand_normal = np.cross(triangle[1] - triangle[0], triangle[2] - triangle[0])
        step = PROBE_STEP * right_hand_normal / np.linalg.norm(right_hand_normal)
        centre = triangle.mean(axis=0)
        assert inside(centre + step, boxes) and not inside(centre - step, boxes)


def test_faces_are_shaded_by_direction_top_brightest_bottom_darkest_and_sides_apart():
    opaque, _ = mesh_section(padded_with({(4, 4, 4): "stone"}))
    brightness = {face_normal(f): float(c[0, 0]) for f, c in zip(faces(opaque), opaque.colors.reshape(-1, 4, 4))}
    top, bottom = brightness[(0, 1, 0)], brightness[(0, -1, 0)]
    x_side, z_side = brightness[(1, 0, 0)], brightness[(0, 0, 1)]
    assert top == 1.0 and top > x_side and top > z_side and bottom < x_side and bottom < z_side
    assert x_side != z_side and brightness[(-1, 0, 0)] == x_side and brightness[(0, 0, -1)] == z_side
    assert np.all(opaque.colors.reshape(-1, 4)[:, 3] == 1.0)


def top_face_light(blocks: dict[tuple[int, int, int], str]) -> dict[tuple[float, float], float]:
    """Vertex brightness of the top face of the stone at (4, 4, 4), by the vertex's (x, z)."""
    opaque, _ = mesh_section(padded_with({(4, 4, 4): "stone", **blocks}))
    colors = opaque.colors.reshape(-1, 4, 4)
    for corners, color in zip(faces(opaque), colors):
        if face_normal(corners) == (0, 1, 0) and corners[0, 1] == 5.0:
            return {(float(c[0]), float(c[2])): float(k[0]) for c, k in zip(corners, color)}
    raise AssertionError("no top face")


def test_ambient_occlusion_of_an_inner_corner_follows_side_side_corner():
    light = top_face_light({(5, 5, 4): "stone", (4, 5, 5): "dirt"})  # walls east and south, above the top face
    level = {ao: float(FACE_SHADE[TOP] * AO_BRIGHTNESS[ao]) for ao in range(4)}
    assert light == {(5.0, 5.0): level[0], (5.0, 4.0): level[2], (4.0, 5.0): level[2], (4.0, 4.0): level[3]}


def test_ambient_occlusion_counts_a_lone_corner_block_and_ignores_see_through_blocks():
    level = {ao: float(FACE_SHADE[TOP] * AO_BRIGHTNESS[ao]) for ao in range(4)}
    light = top_face_light({(3, 5, 3): "stone", (5, 5, 4): "glass", (4, 5, 5): "leaves"})
    assert light == {(4.0, 4.0): level[2], (5.0, 4.0): level[3], (4.0, 5.0): level[3], (5.0, 5.0): level[3]}


def test_ambient_occlusion_reads_the_neighbours_blocks_from_the_padding():
    opaque, _ = mesh_section(padded_with({(15, 4, 4): "stone", (16, 5, 4): "stone", (15, 5, 5): "stone"}))
    light = {tuple(map(float, c)): float(k[0]) for f, col in zip(faces(opaque), opaque.colors.reshape(-1, 4, 4))
             if face_normal(f) == (0, 1, 0) and f[0, 1] == 5.0 for c, k in zip(f, col)}
    assert light[(16.0, 5.0, 5.0)] == float(FACE_SHADE[TOP] * AO_BRIGHTNESS[0])


@pytest.mark.parametrize("dark_vertex, corner_block", [((4.0, 4.0), (3, 5, 3)), ((5.0, 4.0), (5, 5, 3)),
                                                       ((5.0, 5.0), (5, 5, 5)), ((4.0, 5.0), (3, 5, 5))])
def test_the_quad_diagonal_joins_the_two_brighter_opposite_corners(dark_vertex, corner_block):
    opaque, _ = mesh_section(padded_with({(4, 4, 4): "stone", corner_block: "stone"}))
    positions = opaque.positions.reshape(-1, 3)
    top_triangles = [{(float(c[0]), float(c[2])) for c in positions[t]} for t in opaque.indices.reshape(-1, 3)
                     if np.all(positions[t][:, 1] == 5.0) and np.all((positions[t] >= 4.0) & (positions[t] <= 5.0))]
    assert len(top_triangles) == 2
    diagonal = top_triangles[0] & top_triangles[1]
    assert len(diagonal) == 2 and dark_vertex not in diagonal


# --- UVs and array format ---------------------------------------------------------------------


@pytest.mark.parametrize("name", [n for n in NAMES if n != "air"])
def test_every_face_samples_only_inside_its_own_tile(name):
    block = block_id(name)
    part = drawn_part(name, mesh_section(padded_with({(4, 4, 4): name})))
    assert part.face_count > 0
    for corners, uvs in zip(faces(part), part.uvs.reshape(-1, 4, 2)):
        direction = 0 if CROSS[block] else FACE_NORMALS.index(face_normal(corners))  # plants: one tile
        u0, v0, u1, v1 = atlas.tile_uv_rect(int(FACE_TILES[block, direction]))
        assert np.all((uvs[:, 0] >= np.float32(u0)) & (uvs[:, 0] <= np.float32(u1)))
        assert np.all((uvs[:, 1] >= np.float32(v0)) & (uvs[:, 1] <= np.float32(v1)))


def test_grass_uses_its_top_side_and_dirt_tiles_and_a_cube_face_spans_the_whole_tile():
    opaque, _ = mesh_section(padded_with({(4, 4, 4): "grass"}))
    expected = {"top": "grass_top", "bottom": "dirt", "east": "grass_side", "north": "grass_side"}
    by_direction = {FACES[FACE_NORMALS.index(face_normal(c))]: uv
                    for c, uv in zip(faces(opaque), opaque.uvs.reshape(-1, 4, 2))}
    for direction, tile_name in expected.items():
        u0, v0, u1, v1 = atlas.tile_uv_rect(TILE_NAMES.index(tile_name))
        uvs = by_direction[direction]
        assert (uvs[:, 0].min(), uvs[:, 1].min(), uvs[:, 0].max(), uvs[:, 1].max()) == \
            (np.float32(u0), np.float32(v0), np.float32(u1), np.float32(v1))


def test_side_faces_put_the_tiles_top_row_at_the_top_of_the_block():
    opaque, _ = mesh_section(padded_with({(4, 4, 4): "grass"}))
    for corners, uvs in zip(faces(opaque), opaque.uvs.reshape(-1, 4, 2)):
        if face_normal(corners)[1] == 0:
            assert np.all((corners[:, 1] == 5.0) == (uvs[:, 1] == uvs[:, 1].max()))


def test_output_arrays_are_flat_c_contiguous_float32_and_uint32_in_two_triangles_per_face():
    rng = np.random.default_rng(7)
    padded = rng.integers(0, COUNT, (PADDED_SIZE,) * 3).astype(np.uint16)
    for part in mesh_section(padded):
        n = part.face_count
        assert n > 0
        for array, dtype, per_face in ((part.positions, np.float32, 12), (part.uvs, np.float32, 8),
                                       (part.colors, np.float32, 16), (part.indices, np.uint32, 6)):
            assert array.dtype == dtype and array.ndim == 1 and array.flags.c_contiguous and len(array) == per_face * n
        expected = (np.arange(n, dtype=np.uint32)[:, None] * 4 + np.array([0, 1, 2, 0, 2, 3], np.uint32)).ravel()
        np.testing.assert_array_equal(part.indices, expected)


def test_an_empty_section_gives_two_empty_parts():
    opaque, transparent = mesh_section(np.zeros((PADDED_SIZE,) * 3, np.uint8))
    assert opaque.face_count == transparent.face_count == 0
    assert len(opaque.positions) == len(transparent.indices) == 0


def test_the_result_cannot_be_modified():
    opaque, _ = mesh_section(padded_with({(4, 4, 4): "stone"}))
    with pytest.raises(ValueError):
        opaque.positions[0] = 1.0


# --- agreement with the per-voxel reference ----------------------------------------------------


def random_section(seed: int, air_fraction: float, ids: np.ndarray) -> np.ndarray:
    rng = np.random.default_rng(seed)
    padded = rng.choice(ids, (PADDED_SIZE,) * 3).astype(np.uint16)
    padded[rng.random(padded.shape) < air_fraction] = 0
    return padded


SHAPE_IDS = np.array([block_id(n) for n in ("stone_slab", "stone_slab_top", "fence", "stairs_north", "stairs_south",
                                            "stairs_east", "stairs_west", "carpet", "stone", "glass", "leaves")])
MEDIA_IDS = np.array([block_id(n) for n in ("water", "lava", "ladder_north", "ladder_south", "ladder_east",
                                            "ladder_west", "cobweb", "soul_sand", "cactus", "stone", "sand", "glass")])


@pytest.mark.parametrize("seed, air_fraction, ids", [
    (1, 0.2, np.arange(COUNT)), (2, 0.5, np.arange(COUNT)), (3, 0.85, np.arange(COUNT)),
    (4, 0.5, SHAPE_IDS), (5, 0.0, np.array([0, block_id("stone"), block_id("glass")])),
    (6, 0.3, MEDIA_IDS), (7, 0.0, np.array([block_id("water"), block_id("lava"), block_id("cactus")])),
])
def test_the_vectorised_mesher_emits_the_same_faces_as_the_reference(seed, air_fraction, ids):
    padded = random_section(seed, air_fraction, ids)
    fast, reference = mesh_section(padded), mesh_section_reference(padded)
    for part, expected in zip(fast, reference):
        assert part.face_count == expected.face_count
        np.testing.assert_array_equal(face_rows(part), face_rows(expected))


def test_the_meshers_agree_on_layered_terrain_with_a_signed_int_input():
    padded = np.zeros((PADDED_SIZE,) * 3, np.int32)
    x, z = np.meshgrid(np.arange(PADDED_SIZE), np.arange(PADDED_SIZE), indexing="ij")
    height = (8 + 3 * np.sin(x / 3.0) + 2 * np.cos(z / 4.0)).astype(int)
    for y in range(PADDED_SIZE):
        padded[:, y, :] = np.where(y < height - 3, block_id("stone"), np.where(
            y < height, block_id("dirt"), np.where(y == height, block_id("grass"), 0)))
    for part, expected in zip(mesh_section(padded), mesh_section_reference(padded)):
        np.testing.assert_array_equal(face_rows(part), face_rows(expected))


@pytest.mark.parametrize("seed, air_fraction", [(11, 0.3), (12, 0.7)])
def test_the_three_passes_split_the_transparent_part_into_cut_outs_and_blended_faces(seed, air_fraction):
    padded = random_section(seed, air_fraction, np.arange(COUNT))
    opaque, transparent = mesh_section(padded)
    pass_opaque, cutout, blended = mesh_section_passes(padded)
    np.testing.assert_array_equal(face_rows(pass_opaque), face_rows(opaque))
    both = MeshArrays(positions=np.concatenate([cutout.positions, blended.positions]),
                      uvs=np.concatenate([cutout.uvs, blended.uvs]),
                      colors=np.concatenate([cutout.colors, blended.colors]),
                      light=np.concatenate([cutout.light, blended.light]),
                      indices=np.concatenate([cutout.indices, blended.indices + 4 * cutout.face_count]))
    np.testing.assert_array_equal(face_rows(both), face_rows(transparent))
    assert cutout.face_count > 0 and blended.face_count > 0


def test_leaves_ladders_and_plants_are_cut_outs_and_glass_ice_water_and_cobwebs_are_blended():
    blended = {NAMES[b] for b in range(COUNT) if BLENDED[b]}
    cutout = {NAMES[b] for b in range(COUNT) if TRANSPARENT[b] and not BLENDED[b]}
    assert {"glass", "ice", "water", "water_7", "cobweb"} <= blended
    assert "lava" not in blended and not BLENDED[~TRANSPARENT].any()
    assert {"leaves", "ladder_north", "rose", "dandelion", "tall_grass"} <= cutout
    for names, pass_index in ((("leaves", "rose"), 1), (("glass", "water"), 2)):
        parts = mesh_section_passes(padded_with({(4, 4, 4): names[0], (8, 4, 4): names[1]}))
        assert [part.face_count > 0 for part in parts] == [i == pass_index for i in range(3)], names


def test_a_cut_out_tiles_texels_are_fully_clear_or_fully_solid_and_a_blended_tile_has_some_in_between():
    from PIL import Image
    pixels = np.asarray(Image.open(Path(__file__).resolve().parents[2] / atlas.ATLAS_FILE).convert("RGBA"))
    for block in np.flatnonzero(TRANSPARENT):
        alphas = set()
        for tile in set(FACE_TILES[block].tolist()):
            x, y = atlas.tile_origin_pixels(tile)
            alphas |= set(np.unique(pixels[y:y + atlas.TILE_PIXELS, x:x + atlas.TILE_PIXELS, 3]).tolist())
        in_between = bool(alphas - {0, 255})
        assert in_between == bool(BLENDED[block]), (NAMES[block], sorted(alphas))


# --- bad input ----------------------------------------------------------------------------------


def test_a_list_or_a_float_array_is_refused_with_a_type_error():
    with pytest.raises(TypeError, match="numpy array"):
        mesh_section([[[0] * 18] * 18] * 18)
    with pytest.raises(TypeError, match="integer block ids"):
        mesh_section(np.zeros((PADDED_SIZE,) * 3, np.float32))


def test_an_unpadded_section_is_refused_with_the_expected_shape_in_the_message():
    with pytest.raises(ValueError, match=r"\(18, 18, 18\).*got \(16, 16, 16\)"):
        mesh_section(np.zeros((16, 16, 16), np.uint16))


@pytest.mark.parametrize("bad_id", [COUNT, 999, -1])
def test_an_unknown_block_id_is_refused_naming_the_id_and_where_it_is(bad_id):
    padded = np.zeros((PADDED_SIZE,) * 3, np.int32)
    padded[3, 4, 5] = bad_id
    with pytest.raises(UnknownBlockError, match=rf"unknown block id {bad_id} at padded\[3, 4, 5\]"):
        mesh_section(padded)
    with pytest.raises(UnknownBlockError):
        mesh_section_reference(padded)
