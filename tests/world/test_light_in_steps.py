"""New columns' first light spread over several calls (`LightEngine.unlit_near` / `light_column`,
`World.prepare_light`, the streamer's light steps): the light read afterwards is exactly what one
read would have given, and a frame of streaming lights at most LIGHT_COLUMNS_PER_FRAME columns (a loading
frame its pace's light_columns, spent across the columns it shows)."""

from __future__ import annotations

import itertools
import time

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.window.streaming import LIGHT_COLUMNS_PER_FRAME, Pace, WorldStreamer
from game.world import World
from game.world.blocks import block_id
from game.world.column import Column
from game.world.coords import COLUMN_SHAPE, SECTIONS_PER_COLUMN
from game.world.light import LightEngine

STONE = block_id("stone")
PALETTE = tuple(block_id(name) for name in ("air", "stone", "leaves", "water", "glass", "torch", "lava", "ice"))
KEYS_5X5 = tuple(itertools.product(range(-2, 3), range(-2, 3)))
"""Every column whose light can reach the padded sections of column (0, 0)."""
BOX = (-1, -1, 17, 17)
"""(x0, z0, x1, z1): the cells the padded sections of column (0, 0) read."""
SETTLE_TIMEOUT_S = 60.0
"""[s] Only stops a hang."""
NO_TIME = Pace(budget_s=0.0, meshes_in_flight=3, requests_in_flight=2, columns_per_poll=1)
"""A frame with no time to spare: one unit of work."""


def roofed_columns(changes) -> dict[tuple[int, int], Column]:
    """Stone below y = 12, a holed roof at y = 22 (so light comes sideways, across column borders), then `changes`."""
    ids = np.zeros(COLUMN_SHAPE, dtype=np.uint16)
    ids[:, :12, :] = STONE
    columns = {key: Column.from_ids(ids) for key in KEYS_5X5}
    for x in range(-32, 48):
        for z in range(-32, 48):
            if (x * 7 + z * 3) % 11:
                columns[(x >> 4, z >> 4)].set(x & 15, 22, z & 15, STONE)
    for x, y, z, block in changes:
        columns[(x >> 4, z >> 4)].set(x & 15, y, z & 15, block)
    return columns


def engine_with_new_columns(changes, lit_first, edits, gone) -> LightEngine:
    """An engine over `roofed_columns(changes)` that lit the columns `lit_first`, then had `edits`
    recorded (with their old blocks), column `gone` unloaded, and every other column added unlit."""
    columns = roofed_columns(changes)
    engine = LightEngine(columns)
    for key in lit_first:
        engine.column_added(key)
    engine.resolve()
    for x, y, z, block in edits:
        key = (x >> 4, z >> 4)
        old = int(columns[key].get(x & 15, y, z & 15))
        columns[key].set(x & 15, y, z & 15, block)
        engine.cells_changed([(x, y, z)], [old])
    if gone is not None and gone in columns:
        engine.column_removed(gone)
        del columns[gone]
    for key in columns:
        if key not in lit_first:
            engine.column_added(key)
    return engine


cells = st.tuples(st.integers(-32, 47), st.integers(0, 30), st.integers(-32, 47), st.sampled_from(PALETTE))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(cells, max_size=12), st.lists(st.sampled_from(KEYS_5X5), unique=True, max_size=12),
       st.lists(cells, max_size=6), st.one_of(st.none(), st.sampled_from(KEYS_5X5)), st.randoms(use_true_random=False))
def test_lighting_new_columns_one_call_at_a_time_gives_the_light_one_read_near_them_gives(
        changes, lit_first, edits, gone, rng):
    at_once = engine_with_new_columns(changes, lit_first, edits, gone)
    in_steps = engine_with_new_columns(changes, lit_first, edits, gone)
    at_once.resolve_near(*BOX)
    steps = 0
    while waiting := in_steps.unlit_near(*BOX):
        in_steps.light_column(rng.choice(waiting))  # any order: the solution is one
        steps += 1
    assert steps <= len(KEYS_5X5)
    in_steps.resolve_near(*BOX)  # now only the edits near the box: no column left to light
    for sy in range(SECTIONS_PER_COLUMN):
        assert np.array_equal(in_steps.padded(0, sy, 0), at_once.padded(0, sy, 0))
    assert {key for key in KEYS_5X5 if in_steps.is_lit(key)} == {key for key in KEYS_5X5 if at_once.is_lit(key)}
    at_once.resolve()
    in_steps.resolve()
    for key in KEYS_5X5:
        if at_once.is_lit(key):
            assert np.array_equal(in_steps.column_light(key), at_once.column_light(key)), key


def test_light_column_of_a_column_not_waiting_for_light_does_nothing():
    engine = engine_with_new_columns([], KEYS_5X5, [], None)
    before = engine.column_light((0, 0)).copy()
    assert engine.light_column((0, 0)) == set()
    assert engine.light_column((9, 9)) == set()
    assert np.array_equal(engine.column_light((0, 0)), before)


def test_prepare_light_a_column_a_step_leaves_padded_light_as_one_read_gives_it(world, tmp_path):
    with World.create(tmp_path / "other.boxel", 42, workers=1) as other:
        for cx, cz in itertools.product(range(1, 6), range(-4, 1)):
            world.column(cx, cz)
            other.column(cx, cz)
        steps = 0
        while not world.prepare_light(3, -2, 0):
            assert world.prepare_light(3, -2, 1) in (True, False)
            steps += 1
        assert 1 <= steps <= len(KEYS_5X5)
        assert world.prepare_light(3, -2) and world._light.unlit_near(47, -33, 65, -15) == []
        for sy in range(SECTIONS_PER_COLUMN):
            assert np.array_equal(world.padded_light(3, sy, -2), other.padded_light(3, sy, -2)), sy


def count_first_lights(world: World) -> list[tuple[int, int]]:
    """The list the columns `world` gives their first light are appended to, from now on."""
    engine, installs = world._light, []
    install = engine._install

    def counted(key):
        installs.append(key)
        install(key)
    engine._install = counted
    return installs


def test_a_streaming_frame_lights_at_most_light_columns_per_frame_new_columns(tmp_path):
    from tests.game.test_streaming import RecordingRenderer

    with World.create(tmp_path / "stream.boxel", 42, workers=1) as world:
        installs = count_first_lights(world)
        streamer = WorldStreamer(world, RecordingRenderer(), 2, save=lambda: None)
        most = 0
        deadline = time.perf_counter() + SETTLE_TIMEOUT_S
        while time.perf_counter() < deadline:
            time.sleep(0.001)  # generation runs in the background
            installs.clear()
            streamer.update((0, 0), NO_TIME)
            streamer.note_changes(world.take_changes())
            most = max(most, len(installs))
            if streamer.settled:
                break
        assert streamer.settled
        assert 1 <= most <= LIGHT_COLUMNS_PER_FRAME


def test_a_loading_frame_spends_its_whole_first_light_budget_across_the_columns_it_shows(tmp_path):
    from tests.game.test_streaming import RecordingRenderer

    with World.create(tmp_path / "loading.boxel", 42, workers=1) as world:
        for cx, cz in itertools.product(range(-5, 6), range(-5, 6)):
            world.column(cx, cz)  # loaded, each waiting for its first light
        installs = count_first_lights(world)
        renderer = RecordingRenderer()
        streamer = WorldStreamer(world, renderer, 3, save=lambda: None)
        budget = 40
        streamer.update((0, 0), Pace(budget_s=60.0, meshes_in_flight=10_000, requests_in_flight=200,
                                     columns_per_poll=200, light_columns=budget))
        # The first column needs the 25 columns whose light reaches it (KEYS_5X5); what it leaves of the
        # frame's light goes to the next ones.
        assert len(installs) == budget
        assert len({(cx, cz) for cx, _, cz in renderer.shown}) > 1
