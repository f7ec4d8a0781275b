"""Unloading columns a few at a time (the streamer's UNLOAD_COLUMNS_PER_FRAME) and taking away their light
over several resolves ends in exactly the light one resolve after unloading them all at once gives: the
light of the loaded columns alone, whatever edits and new columns come in between."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.window.streaming import UNLOAD_COLUMNS_PER_FRAME, UNLOAD_MARGIN, UNLOAD_SPREAD_FRAMES, WorldStreamer
from game.world import World
from game.world.light import LightEngine
from tests.world.test_light_in_steps import BOX, KEYS_5X5, NO_TIME, PALETTE, SETTLE_TIMEOUT_S, roofed_columns

cells = st.tuples(st.integers(-32, 47), st.integers(0, 30), st.integers(-32, 47), st.sampled_from(PALETTE))
operations = st.lists(st.one_of(st.tuples(st.just("unload"), st.sampled_from(KEYS_5X5)),
                                st.tuples(st.just("load"), st.sampled_from(KEYS_5X5)),
                                st.tuples(st.just("edit"), cells)), min_size=1, max_size=14)
resolves = st.sampled_from(("none", "some", "near", "column", "all"))


def replay(changes, steps, resolve_kinds) -> tuple[LightEngine, dict]:
    """An engine over every column of `roofed_columns(changes)`, lit, then `steps` applied in order (a
    column unloaded, a column loaded again as it was, a block edited), each followed by the resolve
    of its kind in `resolve_kinds` (None: no resolve until the end)."""
    every = roofed_columns(changes)
    columns = dict(every)
    engine = LightEngine(columns)
    for key in columns:
        engine.column_added(key)
    engine.resolve()
    for index, (kind, what) in enumerate(steps):
        if kind == "unload" and what in columns:
            engine.column_removed(what)
            del columns[what]
        elif kind == "load" and what not in columns:
            columns[what] = every[what]
            engine.column_added(what)
        elif kind == "edit":
            x, y, z, block = what
            key = (x >> 4, z >> 4)
            column = every[key]
            old = int(column.get(x & 15, y, z & 15))
            column.set(x & 15, y, z & 15, block)
            if key in columns:
                engine.cells_changed([(x, y, z)], [old])
        resolve = "none" if resolve_kinds is None else resolve_kinds[index % len(resolve_kinds)]
        if resolve == "some":
            engine.resolve_some(3)
        elif resolve == "near":
            engine.resolve_near(*BOX)
        elif resolve == "column":
            for key in engine.unlit_near(*BOX)[:1]:
                engine.light_column(key)
        elif resolve == "all":
            engine.resolve()
    engine.resolve()
    return engine, columns


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(cells, max_size=10), operations, st.lists(resolves, min_size=1, max_size=5))
def test_unloads_resolved_one_at_a_time_between_edits_and_new_columns_end_in_the_one_shot_light(
        changes, steps, resolve_kinds):
    spread, columns = replay(changes, steps, resolve_kinds)
    one_shot, same_columns = replay(changes, steps, None)
    assert set(columns) == set(same_columns)
    scratch = LightEngine(columns)  # the light of the loaded columns alone, lit from nothing
    for key in columns:
        scratch.column_added(key)
    scratch.resolve()
    for key in columns:
        assert np.array_equal(spread.column_light(key), one_shot.column_light(key)), key
        assert np.array_equal(spread.column_light(key), scratch.column_light(key)), key


def test_crossing_a_border_forgets_the_far_columns_a_few_a_frame_and_all_of_them_before_settling(tmp_path):
    from tests.game.test_streaming import RecordingRenderer

    with World.create(tmp_path / "walk.boxel", 42, workers=1) as world:
        streamer = WorldStreamer(world, RecordingRenderer(), 2, save=lambda: None)
        streamer.settle((0, 0), SETTLE_TIMEOUT_S)
        forgotten = []
        unload = world.unload_columns

        def counted(keys):
            keys = list(keys)
            forgotten.append(len(keys))
            return unload(keys)
        world.unload_columns = counted
        far = 2 + UNLOAD_MARGIN + 1  # the world keeps one column more than is drawn
        waiting = len(world.columns_far_from([(3, 0)], far))
        assert waiting > UNLOAD_COLUMNS_PER_FRAME
        streamer.update((3, 0), NO_TIME)
        assert forgotten and max(forgotten) <= max(UNLOAD_COLUMNS_PER_FRAME,
                                                   math.ceil(waiting / UNLOAD_SPREAD_FRAMES))
        assert world.columns_far_from([(3, 0)], far)  # the rest wait for later frames
        streamer.settle((3, 0), SETTLE_TIMEOUT_S)
        assert world.columns_far_from([(3, 0)], far) == []
        assert max(forgotten) <= max(UNLOAD_COLUMNS_PER_FRAME, math.ceil(waiting / UNLOAD_SPREAD_FRAMES))


def test_after_walking_away_the_light_is_that_of_the_loaded_columns_alone(tmp_path):
    from tests.game.test_streaming import RecordingRenderer

    with World.create(tmp_path / "walk.boxel", 42, workers=1) as world, \
            World.create(tmp_path / "fresh.boxel", 42, workers=1) as fresh:
        streamer = WorldStreamer(world, RecordingRenderer(), 2, save=lambda: None)
        streamer.settle((0, 0), SETTLE_TIMEOUT_S)
        for center in ((2, 0), (4, -1), (5, -3)):
            for _ in range(3):  # a few frames: some far columns are forgotten, some wait
                streamer.update(center, NO_TIME)
            streamer.settle(center, SETTLE_TIMEOUT_S)
        world._resolve_light()
        loaded = list(world._columns)
        for key in loaded:
            fresh.column(*key)
        assert set(fresh._columns) >= set(loaded)
        for key in [key for key in fresh._columns if key not in world._columns]:
            fresh.unload_columns([key])  # the spawn column World.create made
        fresh._resolve_light()
        for key in loaded:
            assert np.array_equal(world._light.column_light(key), fresh._light.column_light(key)), key
