"""A small collision query reads its cells one by one (`PlacedShapeCache.boxes_in_cells`); it
gives exactly the boxes, in the same order, that the id-array read (`boxes_in`) gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from game.world import World
from game.world.blocks import NAMES
from game.world.collision import SMALL_QUERY_CELLS, cell_range
from physics import AABB

PLACEABLE = [name for name in NAMES if name not in ("air",)]


@settings(max_examples=60, deadline=None)
@given(blocks=st.lists(st.tuples(st.integers(0, 5), st.integers(60, 66), st.integers(0, 5),
                                 st.sampled_from(PLACEABLE)), max_size=40),
       corner=st.tuples(st.floats(-1.0, 6.0), st.sampled_from([-3.0, -0.5, 58.0, 61.3, 64.0, 254.5]),
                        st.floats(-1.0, 6.0)),
       size=st.tuples(st.floats(0.01, 3.0), st.floats(0.01, 4.0), st.floats(0.01, 3.0)))
def test_reading_cells_one_by_one_gives_the_boxes_of_the_id_array_in_the_same_order(tmp_path_factory, blocks,
                                                                                    corner, size):
    path = tmp_path_factory.mktemp("w") / "w.boxel"
    with World.create(path, seed=42, workers=1) as world:
        for x, y, z, name in blocks:
            world.set_block(x, y, z, name)
        region = AABB(*corner, *(c + s for c, s in zip(corner, size)))
        x0, y0, z0, x1, y1, z1 = cell_range(region)
        if x1 <= x0 or y1 <= y0 or z1 <= z0:
            return
        shapes = world._placed_shapes
        by_array = shapes.boxes_in(world.ids_in_box(x0, y0, z0, x1, y1, z1), x0, y0, z0, region)
        by_cell = shapes.boxes_in_cells(world.id_at, x0, y0, z0, x1, y1, z1, region)
        assert by_cell == by_array
        assert world.collision_boxes(region) == by_array


def test_a_query_of_a_few_cells_takes_the_one_by_one_read(tmp_path, monkeypatch):
    with World.create(tmp_path / "w.boxel", seed=42, workers=1) as world:
        world.set_block(2, 150, 2, "stone")
        calls = []
        shapes = world._placed_shapes
        read = type(shapes).boxes_in_cells
        monkeypatch.setattr(type(shapes), "boxes_in_cells",
                            lambda self, *args: calls.append(args[1:7]) or read(self, *args))
        small = AABB(2.2, 150.5, 2.2, 2.4, 151.5, 2.4)
        assert world.collision_boxes(small) == [AABB(2.0, 150.0, 2.0, 3.0, 151.0, 3.0)]
        x0, y0, z0, x1, y1, z1 = calls[0]
        assert (x1 - x0) * (y1 - y0) * (z1 - z0) <= SMALL_QUERY_CELLS
        world.collision_boxes(AABB(0.0, 60.0, 0.0, 5.0, 66.0, 5.0))
        assert len(calls) == 1  # a large query reads the id array
