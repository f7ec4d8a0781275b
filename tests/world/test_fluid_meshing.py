"""How fluids, plants and torches are drawn: Beta's fluid surface heights and faces, no face in a
neighbour's plane, crossed plant quads, the glowing torch, and agreement with the reference mesher."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from game.world import atlas
from game.world.blocks import LAVA_IDS, TILE_NAMES, WATER_IDS, block_id
from game.world.meshing import (CROSS_INSET, CROSS_LIGHT, FACE_SHADE, FLUID_INSET, PADDED_SIZE, MeshArrays,
                                mesh_section)
from game.world.meshing_reference import mesh_section_reference
from tests.world.test_meshing import face_normal, face_rows, faces, padded_with

FLOOR_Y = 3
CELL = (4, 4, 4)
"""The fluid cell most tests look at, standing on a stone floor at y = FLOOR_Y."""


def stone_floor(blocks: dict[tuple[int, int, int], str]) -> dict[tuple[int, int, int], str]:
    """`blocks` over a stone floor under x, z in 0..15 (so nothing is seen below)."""
    floor = {(x, FLOOR_Y, z): "stone" for x in range(16) for z in range(16)}
    return {**floor, **blocks}


def fluid_name(kind: str, level: int) -> str:
    return kind if level == 0 else f"{kind}_{level}"


def beta_percent_air(level: int) -> Fraction:
    """BlockFluid.getPercentAir: (level + 1) / 9, a falling fluid (8..15) counting as level 0."""
    return Fraction((0 if level >= 8 else level) + 1, 9)


def beta_weight(level: int) -> int:
    """getFluidHeight counts a source or falling cell 11 times (once, then 10 more), a flowing one once."""
    return 11 if level == 0 or level >= 8 else 1


def lone_corner_height(level: int) -> Fraction:
    """A corner of a lone fluid cell on a floor: its own percent air against 3 empty cells (percent air 1 each)."""
    weight = beta_weight(level)
    return 1 - (weight * beta_percent_air(level) + 3) / (weight + 3)


def at(y: float | Fraction) -> float:
    """The float32 a vertex at height `y` (the float64 nearest the exact value) is stored as."""
    return float(np.float32(float(y)))


def fluid_part(kind: str, parts: tuple[MeshArrays, MeshArrays]) -> MeshArrays:
    return parts[1] if kind == "water" else parts[0]


def tile_mask(part: MeshArrays, tile: str) -> np.ndarray:
    """Per face of `part`: its UVs lie in `tile` (to tell a fluid's faces from its neighbours')."""
    u0, v0, u1, v1 = (np.float32(c) for c in atlas.tile_uv_rect(TILE_NAMES.index(tile)))
    uvs = part.uvs.reshape(-1, 4, 2)
    return np.all((uvs[:, :, 0] >= u0) & (uvs[:, :, 0] <= u1) & (uvs[:, :, 1] >= v0) & (uvs[:, :, 1] <= v1), axis=1)


def tile_faces(part: MeshArrays, tile: str) -> list[np.ndarray]:
    """The faces of `part` drawn with `tile`."""
    return list(faces(part)[tile_mask(part, tile)])


def top_corner_heights(part: MeshArrays, cell: tuple[int, int, int], tile: str = "water"
                       ) -> dict[tuple[int, int], float]:
    """The heights of the top face drawn with `tile` over `cell`'s column, by corner (x, z); {} when it has none."""
    x, y, z = cell
    square = {(x, z), (x + 1, z), (x + 1, z + 1), (x, z + 1)}
    for corners in tile_faces(part, tile):
        corner_xz = {(float(c[0]), float(c[2])) for c in corners}
        in_cell = np.all((corners[:, 1] > y) & (corners[:, 1] <= y + 1))
        if corner_xz == square and in_cell and face_normal(corners)[1] == 1:
            return {(int(c[0]) - x, int(c[2]) - z): float(c[1]) for c in corners}
    return {}


# --- surface heights and faces, level by level ------------------------------------------------


@pytest.mark.parametrize("kind", ["water", "lava"])
@pytest.mark.parametrize("level", range(16))
def test_a_lone_fluid_cell_on_a_floor_shows_its_top_and_four_sides_at_betas_corner_height(kind, level):
    parts = mesh_section(padded_with(stone_floor({CELL: fluid_name(kind, level)})))
    part = fluid_part(kind, parts)
    fluid = tile_faces(part, kind)
    assert len(fluid) == 5  # the stone floor hides the bottom
    expected = at(CELL[1] + lone_corner_height(level))
    assert top_corner_heights(part, CELL, kind) == {corner: expected for corner in ((0, 0), (1, 0), (1, 1), (0, 1))}
    sides = [f for f in fluid if face_normal(f)[1] == 0]
    assert len(sides) == 4
    for side in sides:
        assert sorted(float(y) for y in side[:, 1]) == [CELL[1], CELL[1], expected, expected]


@pytest.mark.parametrize("level, height", [(0, Fraction(44, 63)), (1, Fraction(7, 36)), (7, Fraction(1, 36)),
                                           (8, Fraction(44, 63)), (15, Fraction(44, 63))])
def test_a_lone_cells_corner_heights_are_betas_numbers(level, height):
    parts = mesh_section(padded_with(stone_floor({CELL: fluid_name("water", level)})))
    assert set(top_corner_heights(parts[1], CELL).values()) == {at(CELL[1] + height)}


@pytest.mark.parametrize("level, surface", [(0, Fraction(8, 9)), (3, Fraction(5, 9)), (7, Fraction(1, 9)),
                                            (9, Fraction(8, 9))])
def test_a_cell_in_a_still_pool_of_its_level_is_flat_at_its_surface(level, surface):
    pool = {(x, 4, z): fluid_name("water", level) for x in range(3, 6) for z in range(3, 6)}
    _, transparent = mesh_section(padded_with(stone_floor(pool)))
    assert set(top_corner_heights(transparent, CELL).values()) == {at(4 + surface)}
    assert len(tile_faces(transparent, "water")) == 9 + 12  # nine tops, the pool's twelve outer sides


def test_a_surface_slopes_down_from_a_source_to_the_flow_beside_it_with_no_face_between():
    _, transparent = mesh_section(padded_with(stone_floor({(4, 4, 4): "water", (5, 4, 4): "water_3"})))
    source, flow = top_corner_heights(transparent, (4, 4, 4)), top_corner_heights(transparent, (5, 4, 4))
    shared = 1 - (11 * Fraction(1, 9) + 1 * Fraction(4, 9) + 2) / (11 + 1 + 2)  # = 31/42
    assert shared == Fraction(31, 42)
    assert source == {(0, 0): at(4 + Fraction(44, 63)), (0, 1): at(4 + Fraction(44, 63)),
                      (1, 0): at(4 + shared), (1, 1): at(4 + shared)}
    flow_far = 1 - (Fraction(4, 9) + 3) / 4  # = 5/36
    assert flow == {(0, 0): at(4 + shared), (0, 1): at(4 + shared), (1, 0): at(4 + flow_far), (1, 1): at(4 + flow_far)}
    water = tile_faces(transparent, "water")
    assert len(water) == 2 + 3 + 3  # two tops, three open sides each
    assert not any(np.all(f[:, 0] == 5.0) for f in water)  # nothing in the plane between them
    east_side = [f for f in water if face_normal(f) == (1, 0, 0)]
    assert len(east_side) == 1 and sorted(map(float, east_side[0][:, 1])) == [4.0, 4.0, at(4 + flow_far),
                                                                             at(4 + flow_far)]


def test_a_fluid_under_the_same_fluid_draws_no_top_and_sides_of_full_height():
    _, transparent = mesh_section(padded_with(stone_floor({(4, 4, 4): "water_2", (4, 5, 4): "water_9"})))
    water = tile_faces(transparent, "water")
    assert len(water) == 4 + 1 + 4  # the lower cell's sides; the upper cell's top and sides
    lower_sides = [f for f in water if f[:, 1].min() == 4.0]
    assert len(lower_sides) == 4 and all(sorted(map(float, f[:, 1])) == [4.0, 4.0, 5.0, 5.0] for f in lower_sides)
    assert top_corner_heights(transparent, (4, 4, 4)) == {}
    assert set(top_corner_heights(transparent, (4, 5, 4)).values()) == {at(5 + Fraction(44, 63))}


def test_a_corner_is_full_height_where_a_cell_sharing_it_has_the_same_fluid_above():
    blocks = {(4, 4, 4): "water_2", (5, 4, 4): "water_1", (5, 5, 4): "water_8"}  # a fall lands east of the cell
    _, transparent = mesh_section(padded_with(stone_floor(blocks)))
    heights = top_corner_heights(transparent, (4, 4, 4))
    assert heights[(1, 0)] == heights[(1, 1)] == 5.0
    assert heights[(0, 0)] == heights[(0, 1)] == at(4 + 1 - (Fraction(3, 9) + 3) / 4)  # its own level 2, 3 empty


def test_solid_cells_do_not_count_in_a_corner_and_other_blocks_count_as_empty():
    walled = {(4, 4, 4): "water_1", (3, 4, 4): "stone", (3, 4, 3): "glass", (4, 4, 3): "stone_slab"}
    heights = top_corner_heights(mesh_section(padded_with(stone_floor(walled)))[1], (4, 4, 4))
    assert heights[(0, 0)] == at(4 + Fraction(7, 9))  # only the cell itself counts: its own surface
    assert heights[(1, 1)] == at(4 + 1 - (Fraction(2, 9) + 3) / 4)  # itself and three empty cells
    open_cell = top_corner_heights(mesh_section(padded_with(stone_floor({(4, 4, 4): "water_1"})))[1], (4, 4, 4))
    for beside in ("rose", "torch", "lava", "cobweb"):
        parts = mesh_section(padded_with(stone_floor({(4, 4, 4): "water_1", (5, 4, 4): beside})))
        assert top_corner_heights(parts[1], (4, 4, 4)) == open_cell, beside


def test_a_bottom_face_shows_over_air_and_hides_over_stone_or_the_same_fluid():
    assert len(tile_faces(mesh_section(padded_with({CELL: "water"}))[1], "water")) == 6
    stacked = {CELL: "water", (4, 3, 4): "water_5", (4, 2, 4): "stone"}
    assert len(tile_faces(mesh_section(padded_with(stacked))[1], "water")) == 5 + 4  # no faces between them
    assert len(tile_faces(mesh_section(padded_with({CELL: "lava", (4, 3, 4): "stone"}))[0], "lava")) == 5


def test_water_and_lava_side_by_side_both_draw_their_faces_between_them():
    opaque, transparent = mesh_section(padded_with(stone_floor({(4, 4, 4): "water", (5, 4, 4): "lava"})))
    assert len(tile_faces(transparent, "water")) == 5 and len(tile_faces(opaque, "lava")) == 5
    water_east = [f for f in tile_faces(transparent, "water") if face_normal(f) == (1, 0, 0)]
    lava_west = [f for f in tile_faces(opaque, "lava") if face_normal(f) == (-1, 0, 0)]
    assert np.all(water_east[0][:, 0] == 5.0 - FLUID_INSET) and np.all(lava_west[0][:, 0] == 5.0 + FLUID_INSET)


def test_a_side_face_shows_the_tiles_part_below_its_sloped_top_edge():
    _, transparent = mesh_section(padded_with(stone_floor({CELL: "water_4"})))
    u0, v0, u1, v1 = atlas.tile_uv_rect(TILE_NAMES.index("water"))
    for corners, uvs in zip(faces(transparent), transparent.uvs.reshape(-1, 4, 2)):
        if face_normal(corners)[1] == 0:
            for corner, (_, v) in zip(corners, uvs):
                assert v == np.float32(v0 + (float(corner[1]) - CELL[1]) * (v1 - v0))


# --- no water face in the plane of a neighbour's face ------------------------------------------


def axis_plane(corners: np.ndarray) -> tuple[int, float] | None:
    """(axis, coordinate) of a quad lying in an axis-aligned plane; None for a sloped or diagonal one."""
    for axis in range(3):
        if np.all(corners[:, axis] == corners[0, axis]):
            return axis, float(corners[0, axis])
    return None


def overlap_in_plane(a: np.ndarray, b: np.ndarray, axis: int) -> bool:
    """Two quads in the same plane share some area (their bounding rectangles overlap with area)."""
    others = [i for i in range(3) if i != axis]
    return all(min(a[:, i].max(), b[:, i].max()) > max(a[:, i].min(), b[:, i].min()) for i in others)


@pytest.mark.parametrize("neighbour", ["glass", "leaves", "ice", "cobweb", "stone_slab", "stairs_north", "lava",
                                       "ladder_south", "cactus", "fence"])
@pytest.mark.parametrize("offset", [(1, 0, 0), (-1, 0, 0), (0, 0, 1), (0, 0, -1), (0, -1, 0)])
def test_no_water_face_lies_in_the_plane_of_a_neighbours_face(neighbour, offset):
    beside = tuple(c + o for c, o in zip(CELL, offset))
    opaque, transparent = mesh_section(padded_with({CELL: "water", beside: neighbour}))
    water = tile_faces(transparent, "water")
    others = list(faces(opaque)) + list(faces(transparent)[~tile_mask(transparent, "water")])
    assert len(water) == 6 and others  # the water keeps its face toward the neighbour, inset
    for face in water:
        plane = axis_plane(face)
        for other in others:
            if plane is not None and axis_plane(other) == plane:
                assert not overlap_in_plane(face, other, plane[0]), (neighbour, face, other)


def test_water_beside_glass_is_drawn_just_inside_its_cell_and_beside_air_on_the_boundary():
    _, transparent = mesh_section(padded_with({CELL: "water", (5, 4, 4): "glass"}))
    east = [f for f in tile_faces(transparent, "water") if face_normal(f) == (1, 0, 0)]
    west = [f for f in tile_faces(transparent, "water") if face_normal(f) == (-1, 0, 0)]
    assert np.all(east[0][:, 0] == 5.0 - FLUID_INSET) and np.all(west[0][:, 0] == 4.0)
    glass_west = [f for f in tile_faces(transparent, "glass") if face_normal(f) == (-1, 0, 0)]
    assert len(glass_west) == 1 and np.all(glass_west[0][:, 0] == 5.0)  # the glass keeps its face toward the water


# --- light -----------------------------------------------------------------------------------------


def test_lava_is_opaque_and_at_full_brightness_even_in_a_corner():
    corner = stone_floor({CELL: "lava_2", (3, 4, 4): "stone", (4, 4, 3): "stone", (4, 5, 3): "stone"})
    opaque, transparent = mesh_section(padded_with(corner))
    lava = tile_mask(opaque, "lava")
    assert transparent.face_count == 0 and lava.sum() == 3  # top, east and south
    assert np.all(opaque.colors.reshape(-1, 4, 4)[lava] == 1.0)


def test_water_is_shaded_by_face_direction_with_no_ambient_occlusion():
    walled = stone_floor({CELL: "water", (3, 4, 4): "stone", (4, 4, 3): "stone", (3, 5, 3): "stone"})
    _, transparent = mesh_section(padded_with(walled))
    for corners, colors in zip(faces(transparent), transparent.colors.reshape(-1, 4, 4)):
        normal = face_normal(corners)
        shade = FACE_SHADE[2] if normal[1] == 1 else FACE_SHADE[[(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0),
                                                                  (0, 0, 1), (0, 0, -1)].index(normal)]
        assert np.all(colors[:, :3] == shade) and np.all(colors[:, 3] == 1.0)


# --- plants and torches --------------------------------------------------------------------------


@pytest.mark.parametrize("plant", ["dandelion", "rose", "tall_grass"])
def test_a_plant_is_two_diagonal_quads_each_drawn_from_both_sides(plant):
    opaque, transparent = mesh_section(padded_with({CELL: plant, (4, 3, 4): "grass"}))
    assert opaque.face_count == 6 and transparent.face_count == 4  # the grass under it keeps its top
    quads = faces(transparent)
    normals = []
    for corners in quads:
        inward = np.cross(corners[1] - corners[0], corners[2] - corners[0])
        assert inward[1] == 0 and abs(inward[0]) == abs(inward[2]) > 0  # vertical, on a diagonal
        normals.append(tuple(np.sign(inward).astype(int)))
        assert sorted(set(corners[:, 1].tolist())) == [4.0, 5.0]  # the cell's full height
        assert set(corners[:, 0].tolist()) == set(corners[:, 2].tolist()) == {4 + CROSS_INSET, 5 - CROSS_INSET}
    assert sorted(normals) == sorted([(1, 0, -1), (-1, 0, 1), (1, 0, 1), (-1, 0, -1)])  # each diagonal both ways
    assert np.all(transparent.colors.reshape(-1, 4)[:, :3] == CROSS_LIGHT)
    assert len(tile_faces(transparent, plant)) == 4


def test_a_plant_hides_nothing_and_nothing_hides_it():
    boxed = {(4, 4, 4): "rose", **{(4 + dx, 4 + dy, 4 + dz): "stone" for dx, dy, dz in
                                   ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))}}
    opaque, transparent = mesh_section(padded_with(boxed))
    assert (opaque.face_count, transparent.face_count) == (6 * 6, 4)


def test_a_torch_is_a_glowing_post_two_sixteenths_wide_and_ten_tall_showing_its_tiles_middle():
    opaque, transparent = mesh_section(padded_with(stone_floor({CELL: "torch"})))
    torch = tile_mask(opaque, "torch")
    assert transparent.face_count == 0 and torch.sum() == 5  # the floor hides its bottom
    corners = faces(opaque)[torch].reshape(-1, 3)
    assert (corners[:, 0].min(), corners[:, 0].max()) == (4 + 7 / 16, 4 + 9 / 16)
    assert (corners[:, 1].min(), corners[:, 1].max()) == (4.0, 4 + 10 / 16)
    u0, _, u1, _ = atlas.tile_uv_rect(TILE_NAMES.index("torch"))
    columns = (opaque.uvs.reshape(-1, 4, 2)[torch][..., 0] - u0) / (u1 - u0) * 16
    assert columns.min() == pytest.approx(7.0) and columns.max() == pytest.approx(9.0)  # the stick's two columns
    assert np.all(opaque.colors.reshape(-1, 4, 4)[torch] == 1.0)


# --- agreement with the per-voxel reference ----------------------------------------------------------

PALETTE = sorted({0, *WATER_IDS.tolist(), *LAVA_IDS.tolist(),
                  *(block_id(n) for n in ("stone", "glass", "leaves", "ice", "cobweb", "stone_slab", "stairs_east",
                                          "dandelion", "rose", "tall_grass", "torch", "ladder_north", "cactus"))})


@settings(max_examples=25, deadline=None)
@given(hnp.arrays(np.uint16, (PADDED_SIZE,) * 3, elements=st.sampled_from(PALETTE),
                  fill=st.sampled_from([0, int(WATER_IDS[0]), int(LAVA_IDS[3]), block_id("stone")])))
def test_the_vectorised_mesher_draws_fluids_and_plants_exactly_as_the_reference(padded):
    for fast, reference in zip(mesh_section(padded), mesh_section_reference(padded)):
        assert fast.face_count == reference.face_count
        np.testing.assert_array_equal(face_rows(fast), face_rows(reference))


@pytest.mark.parametrize("seed", range(4))
def test_the_meshers_agree_on_layers_of_water_and_lava_at_random_levels(seed):
    rng = np.random.default_rng(seed)
    padded = np.zeros((PADDED_SIZE,) * 3, np.uint16)
    padded[:, :4] = block_id("stone")
    fluids = np.concatenate([WATER_IDS, LAVA_IDS])
    padded[:, 4:14] = fluids[rng.integers(0, len(fluids), (PADDED_SIZE, 10, PADDED_SIZE))]
    padded[rng.random(padded.shape) < 0.3] = 0
    for fast, reference in zip(mesh_section(padded), mesh_section_reference(padded)):
        np.testing.assert_array_equal(face_rows(fast), face_rows(reference))
