"""`LightEngine.settled_light_at`, the cheap read `World.light` takes when a `resolve_near` of the cell
would change nothing: it gives what `resolve_near` then `light_at` give, and declines (None) whenever
that resolve would do any work.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from game.world.light import LightEngine

from .test_light import STONE, TORCH, ground_columns, lit_engine

ARRIVALS = ((3, 0), (-3, 1), (1, 3), (2, 1))
"""Columns that may arrive after the 3 x 3 is lit (not lit yet): far ones and near ones."""

cells = st.tuples(st.integers(-16, 31), st.integers(0, 40), st.integers(-16, 31))


def _twins(arrivals, edits):
    """Two engines over the same columns, lit alike, with the same arrivals and edits waiting."""
    columns = ground_columns()
    engines = lit_engine(columns), lit_engine(columns)
    for key in arrivals:
        columns[key] = ground_columns(keys=(key,))[key]
        for engine in engines:
            engine.column_added(key)
    for x, y, z, block in edits:
        column = columns[(x >> 4, z >> 4)]
        old = column.get(x & 15, y, z & 15)
        column.set(x & 15, y, z & 15, block)
        for engine in engines:
            engine.cells_changed([(x, y, z)], [old])
    return columns, engines


@settings(max_examples=40, deadline=None)
@given(arrivals=st.lists(st.sampled_from(ARRIVALS), unique=True),
       edits=st.lists(st.tuples(st.integers(-16, 31), st.integers(5, 20), st.integers(-16, 31),
                                st.sampled_from([TORCH, STONE])), max_size=3),
       settle_first=st.booleans(), reads=st.lists(cells, min_size=1, max_size=12))
def test_the_settled_read_gives_what_resolving_near_the_cell_then_reading_gives(arrivals, edits, settle_first, reads):
    columns, (fast, readable) = _twins(arrivals, edits)
    if settle_first:
        for engine in (fast, readable):
            engine.resolve_some(None, install=False)
            engine.resolve_near(0, 0, 1, 1)
    for x, y, z in reads:
        settled = fast.settled_light_at(x, y, z)
        changed = readable.resolve_near(x, z, x + 1, z + 1)
        expected = readable.light_at(x, y, z)
        if settled is None:
            fast.resolve_near(x, z, x + 1, z + 1)
            assert fast.light_at(x, y, z) == expected
        else:
            assert settled == expected and changed == set()
        assert fast.last_resolved_cells == readable.last_resolved_cells
        assert fast.pending == readable.pending
    for key in columns:
        assert fast.is_lit(key) == readable.is_lit(key)
        if fast.is_lit(key):
            assert np.array_equal(fast.column_light(key), readable.column_light(key))


def test_a_far_column_waiting_to_be_lit_leaves_the_read_settled_and_a_near_one_does_not():
    columns = ground_columns()
    engine = lit_engine(columns)
    assert engine.settled_light_at(0, 9, 0) == (15, 0)
    columns[(3, 0)] = ground_columns(keys=((3, 0),))[(3, 0)]
    engine.column_added((3, 0))  # 33 blocks from x = 15: beyond REACH
    assert engine.settled_light_at(0, 9, 0) == (15, 0)
    assert engine.settled_light_at(40, 9, 0) is None  # that column is not lit yet
    columns[(1, 3)] = ground_columns(keys=((1, 3),))[(1, 3)]
    engine.column_added((1, 3))  # 1 block from z = 47 .. within REACH of (16, 9, 40)
    assert engine.settled_light_at(16, 9, 40) is None
    assert engine.settled_light_at(16, 9, -16) == (15, 0)


def test_a_waiting_edit_makes_every_read_resolve_first():
    columns = ground_columns()
    engine = lit_engine(columns)
    columns[(0, 0)].set(4, 9, 4, TORCH)
    engine.cells_changed([(4, 9, 4)], [0])
    assert engine.settled_light_at(20, 9, 0) is None
    engine.resolve()
    assert engine.settled_light_at(4, 9, 4) == (15, 14)


def test_the_worlds_light_reads_alike_through_the_settled_read_and_through_a_resolve(tmp_path):
    from game.world import World
    reads = []
    for name, kind in (("fast", int), ("resolving", np.int64)):  # numpy ints always take the resolving path
        world = World.create(tmp_path / f"{name}.boxel", seed=3, workers=1)
        top = max(y for y in range(256) if world.get_block(4, y, 4) != "air")
        world.set_block(4, top + 1, 4, "torch")
        cells = [(x, top + dy, z) for x in range(-2, 11, 3) for z in range(-2, 11, 4) for dy in (-1, 1, 3)]
        reads.append([world.light(kind(x), kind(y), kind(z)) for x, y, z in cells * 2])
        assert world.light(kind(4), kind(top + 1), kind(4))[1] == 14
    assert reads[0] == reads[1]


EDGE_OFFSETS = st.sampled_from((0, 1, 15)) | st.integers(0, 15)
"""[blocks] Where a box edge lies in its column: the first, second and last block, where a column more or
less reaches it, drawn often."""


@settings(max_examples=200, deadline=None)
@given(waiting=st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), unique=True, min_size=8, max_size=100),
       corner=st.tuples(*[st.builds(lambda column, offset: 16 * column + offset, st.integers(-5, 5), EDGE_OFFSETS)] * 2),
       size=st.tuples(*[st.builds(lambda columns, offset: 16 * columns + offset, st.integers(0, 2), EDGE_OFFSETS)
                        .filter(bool)] * 2))
def test_the_waiting_columns_near_a_box_are_those_the_readable_filter_names_in_arrival_order(waiting, corner, size):
    from game.world.light import _columns_reaching

    engine = LightEngine({})
    for key in waiting:
        engine.column_added(key)
    box = (corner[0], corner[1], corner[0] + size[0], corner[1] + size[1])
    reaches = _columns_reaching(*box)
    assert engine._waiting_reaching(*box) == [key for key in waiting if reaches(key)]
