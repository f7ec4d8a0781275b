"""World.collision_boxes: exactly the boxes a brute-force scan finds, and the edge rule."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from game.world import World
from game.world.blocks import SHAPES, block_id
from game.world.collision import PlacedShapeCache
from physics import AABB, Body, Intent
from physics.shapes import placed

PLACEABLE = ("fence", "stone_slab", "stone_slab_top", "stairs_north", "stairs_south", "stairs_east",
             "stairs_west", "carpet", "glass", "air", "stone", "leaves")


@pytest.fixture(scope="module")
def shared_world(tmp_path_factory):
    opened = World.create(tmp_path_factory.mktemp("collision") / "world.db", seed=42, workers=1)
    yield opened
    opened.close()


def brute_force_boxes(world: World, region: AABB) -> set[AABB]:
    """Every placed shape box of every block within two cells of the region that overlaps it."""
    found = set()
    for x in range(math.floor(region.min_x) - 2, math.floor(region.max_x) + 3):
        for y in range(math.floor(region.min_y) - 2, math.floor(region.max_y) + 3):
            for z in range(math.floor(region.min_z) - 2, math.floor(region.max_z) + 3):
                for box in placed(SHAPES[block_id(world.get_block(x, y, z))], x, y, z):
                    if box.intersects(region):
                        found.add(box)
    return found


coordinate = st.floats(min_value=-3.0, max_value=3.0, allow_nan=False).map(lambda v: round(v * 8) / 8)
size = st.floats(min_value=0.0, max_value=2.5).map(lambda v: round(v * 8) / 8 + 0.3)


@settings(max_examples=60, deadline=None)
@given(
    anchor=st.sampled_from([(0, 64, 0), (-16, 70, -1), (15, 1, 16), (-33, 254, 47), (7, 15, -8)]),
    offset=st.tuples(coordinate, coordinate, coordinate),
    extent=st.tuples(size, size, size),
    edits=st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3), st.sampled_from(PLACEABLE)),
                   max_size=8),
)
def test_collision_boxes_equal_a_brute_force_scan(shared_world, anchor, offset, extent, edits):
    ax, ay, az = anchor
    for dx, dy, dz, name in edits:
        if 0 <= ay + dy < 256:
            shared_world.set_block(ax + dx, ay + dy, az + dz, name)
    x0, y0, z0 = ax + offset[0], ay + offset[1], az + offset[2]
    region = AABB(x0, y0, z0, x0 + extent[0], y0 + extent[1], z0 + extent[2])
    boxes = shared_world.collision_boxes(region)
    assert all(type(box) is AABB for box in boxes)
    assert len(boxes) == len(set(boxes))
    assert set(boxes) == brute_force_boxes(shared_world, region)


def test_a_fence_is_found_from_the_cell_below_the_region(world):
    world.set_block(3, 100, 3, "fence")
    boxes = world.collision_boxes(AABB(3.2, 101.2, 3.2, 3.8, 103.0, 3.8))
    assert boxes == [AABB(3.0, 100.0, 3.0, 4.0, 101.5, 4.0)]


def test_boxes_that_only_touch_the_region_are_left_out(world):
    world.set_block(3, 100, 3, "stone")
    world.set_block(3, 101, 3, "air")
    world.set_block(3, 102, 3, "air")
    assert world.collision_boxes(AABB(3.0, 101.0, 3.0, 4.0, 102.0, 4.0)) == []


def test_edge_rule_below_y0_every_cell_is_a_full_solid_cube(world):
    boxes = world.collision_boxes(AABB(10.5, -2.5, 10.5, 11.5, -0.5, 10.9))
    assert set(boxes) == {AABB(x, y, 10.0, x + 1.0, y + 1.0, 11.0) for x in (10.0, 11.0) for y in (-3.0, -2.0, -1.0)}


def test_edge_rule_above_the_top_is_air(world):
    world.set_block(4, 255, 4, "stone")
    boxes = world.collision_boxes(AABB(4.1, 255.5, 4.1, 4.9, 300.0, 4.9))
    assert boxes == [AABB(4.0, 255.0, 4.0, 5.0, 256.0, 5.0)]


def test_edge_rule_a_column_that_is_not_loaded_is_generated_for_the_query(world):
    assert not world.is_loaded(-40, 25)
    ground = [y for y in range(255, -1, -1) if world.get_block(-640, y, 400) != "air"][0]
    world.unload_columns_outside(0, 0, 1)
    assert not world.is_loaded(-40, 25)
    boxes = world.collision_boxes(AABB(-639.9, ground + 0.5, 400.1, -639.1, ground + 2.0, 400.9))
    assert AABB(-640.0, ground, 400.0, -639.0, ground + 1.0, 401.0) in boxes


def test_a_body_falls_onto_the_generated_ground_and_stands_there(world):
    x, y, z = world.spawn
    body = Body.at_feet(x, y + 3.0, z)
    for _ in range(40):
        body = physics.step(body, world, Intent())
    assert body.on_ground
    assert body.box.min_y == pytest.approx(y, abs=physics.CONTACT_TOLERANCE)


def test_ice_under_a_sliding_body_lets_it_glide_further(world):
    def glide(floor_block: str) -> float:
        for x in range(0, 30):
            world.set_block(x, 120, 0, floor_block)
        body = Body(AABB.around_feet(0.5, 121.0, 0.5, 0.6, 1.8), velocity=(0.3, 0.0, 0.0), on_ground=True)
        for _ in range(40):
            body = physics.step(body, world, Intent())
        return body.feet[0]
    assert glide("ice") > glide("stone") + 1.0


def test_a_placed_shape_cache_holds_at_most_its_capacity_and_still_finds_every_box():
    stone, slab = block_id("stone"), block_id("stone_slab")
    ids = np.full((3, 2, 3), stone, dtype=np.uint16)
    ids[:, 1] = slab
    region = AABB(-4.5, 10.0, 7.5, -1.5, 12.0, 10.5)
    expected = {box for i in range(3) for j in range(2) for k in range(3)
                for box in placed(SHAPES[int(ids[i, j, k])], -5 + i, 10 + j, 7 + k) if box.intersects(region)}
    small = PlacedShapeCache(capacity=4)
    for _ in range(2):  # the second time round, only the 4 newest cells are cached
        assert set(small.boxes_in(ids, -5, 10, 7, region)) == expected
        assert len(small) == 4
    roomy = PlacedShapeCache()
    assert set(roomy.boxes_in(ids, -5, 10, 7, region)) == expected and len(roomy) == ids.size


def test_a_placed_shape_cache_needs_a_positive_capacity():
    for capacity in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="capacity must be a positive int"):
            PlacedShapeCache(capacity)


@settings(max_examples=60, deadline=None)
@given(
    anchor=st.sampled_from([(0, 64, 0), (-16, 70, -1), (15, -2, 16), (-33, 254, 47), (7, 15, -8)]),
    edits=st.lists(st.tuples(st.integers(-3, 6), st.integers(-3, 6), st.integers(-3, 6), st.sampled_from(PLACEABLE)),
                   max_size=12),
    water=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)), max_size=4),
)
def test_the_box_array_of_whole_cells_holds_the_collision_boxes_bit_for_bit_and_the_material_array_the_materials(
        shared_world, anchor, edits, water):
    ax, ay, az = anchor
    for dx, dy, dz, name in edits:
        if 0 <= ay + dy < 256:
            shared_world.set_block(ax + dx, ay + dy, az + dz, name)
    for dx, dy, dz in water:
        if 0 <= ay + dy < 256:
            shared_world.set_block(ax + dx, ay + dy, az + dz, "water")
    x1, y1, z1 = ax + 4, ay + 4, az + 4
    array = shared_world.collision_box_array(ax, ay, az, x1, y1, z1)
    boxes = shared_world.collision_boxes(AABB(float(ax), float(ay), float(az), float(x1), float(y1), float(z1)))
    assert array.dtype == np.float64 and array.shape == (len(boxes), 6)
    assert sorted(map(tuple, array.tolist())) == sorted(map(tuple, boxes))
    codes = shared_world.material_array(ax, ay, az, x1 - 1, y1 - 1, z1 - 1)
    assert codes.dtype == np.int8 and codes.shape == (4, 4, 4)
    assert codes.tolist() == [[[int(shared_world.material(x, y, z)) for z in range(az, z1)] for y in range(ay, y1)]
                              for x in range(ax, x1)]


def test_the_box_array_at_the_world_border_holds_its_walls_as_collision_boxes_does(world):
    from game.world.coords import WORLD_BORDER
    edge = WORLD_BORDER
    array = world.collision_box_array(edge - 2, 60, 0, edge + 2, 64, 4)
    boxes = world.collision_boxes(AABB(float(edge - 2), 60.0, 0.0, float(edge + 2), 64.0, 4.0))
    assert any(box.max_x > edge for box in boxes)
    assert sorted(map(tuple, array.tolist())) == sorted(map(tuple, boxes))
