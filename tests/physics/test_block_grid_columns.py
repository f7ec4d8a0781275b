"""BlockGrid's region queries read cells column by column (`world._Column`, with the rows each
column spans): they must answer exactly what a scan of every stored cell answers after any
sequence of sets and removes (materials in x, y, z order, as Beta sums currents)."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from physics import AABB, BlockGrid, Material, shapes
from physics.world import _BELOW

SHAPES = [shapes.FULL_CUBE, shapes.SLAB, shapes.FENCE, shapes.EMPTY, shapes.CARPET, shapes.STAIRS_EAST]
MATERIALS = [Material.SOLID, Material.WATER, Material.LADDER, Material.SOUL_SAND]
cells = st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3))
edits = st.lists(st.tuples(st.booleans(), cells, st.integers(0, len(SHAPES) - 1),
                           st.integers(0, len(MATERIALS) - 1)), max_size=60)
corners = st.tuples(st.floats(-5.0, 5.0), st.floats(-5.0, 5.0), st.floats(-5.0, 5.0))
extents = st.tuples(st.floats(0.0, 4.0), st.floats(0.0, 4.0), st.floats(0.0, 4.0))


def edited(script) -> BlockGrid:
    grid = BlockGrid()
    for remove, cell, shape, material in script:
        if remove:
            grid.remove(*cell)
        else:
            grid.set(*cell, SHAPES[shape], material=MATERIALS[material])
    return grid


def boxes_by_scan(grid: BlockGrid, region: AABB) -> list[AABB]:
    """The readable twin: every stored cell in the region's cells, in x, y, z order."""
    x0, y0, z0 = math.floor(region[0]), math.floor(region[1]) - _BELOW, math.floor(region[2])
    x1, y1, z1 = math.ceil(region[3]) - 1, math.ceil(region[4]) - 1, math.ceil(region[5]) - 1
    return [b for cell in sorted(grid.cells()) if x0 <= cell[0] <= x1 and y0 <= cell[1] <= y1 and z0 <= cell[2] <= z1
            for b in grid.boxes_at(*cell) if region.intersects(b)]


@settings(max_examples=300, deadline=None)
@given(edits, corners, extents)
def test_a_grids_boxes_in_a_region_are_those_a_scan_of_every_stored_cell_finds(script, low, size):
    grid = edited(script)
    region = AABB(*low, *(c + s for c, s in zip(low, size)))
    assert sorted(grid.collision_boxes(region)) == sorted(boxes_by_scan(grid, region))


@settings(max_examples=300, deadline=None)
@given(edits, cells, st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 4)))
def test_a_grids_materials_in_a_cuboid_are_those_of_its_cells_one_by_one_in_x_y_z_order(script, low, size):
    grid = edited(script)
    x0, y0, z0 = low
    x1, y1, z1 = x0 + size[0], y0 + size[1], z0 + size[2]
    expected = [((x, y, z), grid.material(x, y, z)) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)
                for z in range(z0, z1 + 1) if grid.material(x, y, z) != Material.AIR]
    assert list(grid.materials_in(x0, y0, z0, x1, y1, z1).items()) == expected


def test_a_column_emptied_by_removes_is_skipped_and_one_refilled_below_is_found_again():
    grid = BlockGrid()
    grid.set(0, 5, 0)
    grid.set(0, 9, 0)
    grid.remove(0, 5, 0)
    assert grid.materials_in(0, 0, 0, 0, 6, 0) == {}
    grid.set(0, 2, 0, material=Material.SOUL_SAND, shape=shapes.SOUL_SAND)
    assert grid.materials_in(0, 0, 0, 0, 6, 0) == {(0, 2, 0): Material.SOUL_SAND}
    assert grid.collision_boxes(AABB(0.0, 2.5, 0.0, 1.0, 3.0, 1.0)) == list(shapes.placed(shapes.SOUL_SAND, 0, 2, 0))
