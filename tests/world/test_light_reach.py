"""How far a relight reaches (`light.py`, "How far an edit reaches"): an edit's windows reach only as
far as the brightest light at and around it, none in the dark, and the light still equals the oracle
(`test_light.solve`) underground, where the windows are smallest.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.world.light import MAX_LIGHT, REACH, LightEngine

from .test_light import AIR, STONE, TORCH, assert_matches_oracle, ground_columns, lit_engine, put

GROUND = 40
"""[blocks] The stone's top: every cave below it is sealed from the sky."""
CAVE_Y = 20
"""[blocks] The floor of the caves the tests dig."""


def _windows(engine: LightEngine, monkeypatch) -> list[tuple[int, int]]:
    """(channel, reach) of every window pass the engine runs from now on."""
    runs = []
    original = engine._run_windows

    def spy(channel, cells, changed, unloads, mark, reach=REACH):
        runs.append((channel, reach))
        original(channel, cells, changed, unloads, mark, reach=reach)
    monkeypatch.setattr(engine, "_run_windows", spy)
    return runs


def _cave(columns: dict, engine: LightEngine, length: int) -> None:
    """A tunnel along x at (0..length-1, CAVE_Y, 5), dug and relit."""
    for x in range(length):
        put(columns, engine, x, CAVE_Y, 5, AIR)
    engine.resolve()


def test_digging_stone_in_the_dark_runs_no_light_window_and_the_light_stays_exact(monkeypatch):
    columns = ground_columns(keys=((0, 0),), ground=GROUND)
    engine = lit_engine(columns)
    _cave(columns, engine, 6)
    runs = _windows(engine, monkeypatch)
    for cell in ((6, CAVE_Y, 5), (3, CAVE_Y + 1, 5), (3, CAVE_Y, 6)):
        put(columns, engine, *cell, AIR)
    assert engine.resolve() == set()
    assert runs == []
    assert_matches_oracle(engine, columns)


def test_digging_beside_a_torch_lit_cave_reaches_as_far_as_the_light_beside_the_dug_block(monkeypatch):
    columns = ground_columns(keys=((0, 0),), ground=GROUND)
    engine = lit_engine(columns)
    _cave(columns, engine, 10)
    put(columns, engine, 0, CAVE_Y, 5, TORCH)
    engine.resolve()
    assert engine.light_at(5, CAVE_Y, 5) == (0, 9)  # 14 at the torch, 1 less a block
    runs = _windows(engine, monkeypatch)
    put(columns, engine, 5, CAVE_Y + 1, 5, AIR)  # above the cave's cell lit 9
    engine.resolve()
    assert runs == [(1, 9)]  # block light only: the sky channel has no light here
    assert engine.light_at(5, CAVE_Y + 1, 5) == (0, 8)
    assert_matches_oracle(engine, columns)


def test_breaking_the_torch_itself_reaches_as_far_as_its_own_light(monkeypatch):
    columns = ground_columns(keys=((0, 0),), ground=GROUND)
    engine = lit_engine(columns)
    _cave(columns, engine, 16)
    put(columns, engine, 0, CAVE_Y, 5, TORCH)
    engine.resolve()
    runs = _windows(engine, monkeypatch)
    put(columns, engine, 0, CAVE_Y, 5, AIR)
    engine.resolve()
    assert runs == [(1, 14)]
    assert engine.light_at(13, CAVE_Y, 5) == (0, 0)
    assert_matches_oracle(engine, columns)


def test_digging_a_shaft_to_the_sky_reaches_the_whole_way(monkeypatch):
    columns = ground_columns(keys=((0, 0),), ground=GROUND)
    engine = lit_engine(columns)
    _cave(columns, engine, 4)
    runs = _windows(engine, monkeypatch)
    for y in range(CAVE_Y + 1, GROUND):
        put(columns, engine, 2, y, 5, AIR)
    engine.resolve()
    assert runs == [(0, MAX_LIGHT)]  # the shaft now sees the sky: a source of 15; no block light anywhere
    assert engine.light_at(2, CAVE_Y, 5) == (15, 0)
    assert_matches_oracle(engine, columns)


cave_edits = st.lists(st.tuples(st.integers(0, 15), st.integers(CAVE_Y - 3, CAVE_Y + 4), st.integers(0, 15),
                                st.sampled_from((AIR, AIR, STONE, TORCH))), min_size=1, max_size=12)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cave_edits, st.booleans())
def test_light_equals_the_oracle_after_random_digging_and_torches_in_sealed_caves(changes, each):
    columns = ground_columns(keys=((0, 0), (1, 0)), ground=GROUND)
    engine = lit_engine(columns)
    _cave(columns, engine, 20)
    for x, y, z, block in changes:
        old = int(columns[(x >> 4, z >> 4)].get(x & 15, y, z & 15))
        columns[(x >> 4, z >> 4)].set(x & 15, y, z & 15, block)
        engine.cells_changed(np.array([(x, y, z)], dtype=np.int64), [old])
        if each:
            engine.resolve()
    assert_matches_oracle(engine, columns)
