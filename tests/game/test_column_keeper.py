"""The headless column keeper (`game.rules.column_keeper`) and the World's unloading it uses.

Without a window nothing else unloads a column (a 50,000-tick flight goes from 63 to
2,012 loaded columns). The keeper unloads the columns far from every player, saving edited ones first;
these tests check that an edit survives, that nothing a read returns changes, and that live mobs never
stand in an unloaded column. The long flight itself is in `test_memory_bounded.py`.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.rules.column_keeper import KEEP_INTERVAL_TICKS, KEEP_RADIUS_COLUMNS, SAVE_RETRY_TICKS, ColumnKeeper
from game.rules.lab_session import lab_session
from game.rules.mobs import DESPAWN_DISTANCE_BLOCKS
from game.rules.session import Session
from game.world import World

SEED = 42


@pytest.fixture
def session(tmp_path):
    opened = Session.open(World.create(tmp_path / "keep.boxel", SEED, workers=1), autosave=False)
    yield opened
    opened.world.close()


def feet_in(cx: int, cz: int) -> tuple[float, float, float]:
    return cx * 16 + 8.5, 100.0, cz * 16 + 8.5


def test_an_edited_far_column_is_saved_before_it_is_unloaded_and_comes_back_with_the_edit(session, tmp_path):
    world = session.world
    world.set_block(20 * 16 + 3, 120, 5, "glass")  # column (20, 0), far from the player near the origin
    assert world.is_edited(20, 0)
    saves = []
    keeper = ColumnKeeper(world, lambda: (saves.append(1), session.save()))
    assert keeper.after_tick(KEEP_INTERVAL_TICKS, [session.player.body.feet]) >= 1
    assert saves == [1] and not world.is_loaded(20, 0) and not world.is_edited(20, 0)
    assert world.get_block(20 * 16 + 3, 120, 5) == "glass"  # read again: loaded from the file
    world.close()
    with World.open(tmp_path / "keep.boxel", workers=1) as reopened:
        assert reopened.get_block(20 * 16 + 3, 120, 5) == "glass"


def test_a_far_column_whose_save_failed_stays_loaded_and_the_keeper_waits_before_trying_again(session):
    world = session.world
    world.set_block(20 * 16, 120, 0, "glass")
    world.get_block(30 * 16, 0, 0)  # an unedited far column
    tries = []
    keeper = ColumnKeeper(world, lambda: tries.append(1))  # a save that writes nothing, as a full disk
    player = [session.player.body.feet]
    assert keeper.after_tick(KEEP_INTERVAL_TICKS, player) >= 1  # the unedited one goes
    assert world.is_loaded(20, 0) and not world.is_loaded(30, 0) and tries == [1]
    keeper.after_tick(2 * KEEP_INTERVAL_TICKS, player)
    assert tries == [1] and world.is_loaded(20, 0)
    keeper.after_tick(KEEP_INTERVAL_TICKS + SAVE_RETRY_TICKS, player)
    assert tries == [1, 1]


def test_the_keeper_works_only_on_every_intervalth_tick_and_keeps_the_columns_near_a_player(session):
    world = session.world
    for cx in range(-8, 9):
        world.get_block(cx * 16, 0, 0)
    keeper = ColumnKeeper(world, session.save)
    assert keeper.after_tick(KEEP_INTERVAL_TICKS + 1, [feet_in(0, 0)]) == 0
    unloaded = keeper.after_tick(KEEP_INTERVAL_TICKS, [feet_in(0, 0)])
    assert {cx for cx in range(-8, 9) if world.is_loaded(cx, 0)} == set(range(-KEEP_RADIUS_COLUMNS,
                                                                               KEEP_RADIUS_COLUMNS + 1))
    assert unloaded == 2 * (8 - KEEP_RADIUS_COLUMNS) and keeper.unloaded == unloaded


def test_with_two_players_only_columns_far_from_both_are_unloaded(session):
    world = session.world
    for cx in range(-20, 21):
        world.get_block(cx * 16, 0, 0)
    ColumnKeeper(world, session.save, radius=2).after_tick(KEEP_INTERVAL_TICKS, [feet_in(-15, 0), feet_in(15, 0)])
    assert {cx for cx in range(-20, 21) if world.is_loaded(cx, 0)} == set(range(-17, -12)) | set(range(13, 18))


def test_live_mobs_never_stand_in_a_column_the_keeper_unloads(session):
    world = session.world
    px, py, pz = session.player.body.feet
    for angle in range(0, 360, 30):
        x = px + math.cos(math.radians(angle)) * DESPAWN_DISTANCE_BLOCKS
        z = pz + math.sin(math.radians(angle)) * DESPAWN_DISTANCE_BLOCKS
        world.get_block(math.floor(x), 0, math.floor(z))  # the farthest a live mob can be
    for cx in range(-12, 13):
        world.get_block(cx * 16, 0, 100 * 16)  # and columns far away
    ColumnKeeper(world, session.save).after_tick(KEEP_INTERVAL_TICKS, [session.player.body.feet])
    for angle in range(0, 360, 30):
        x = px + math.cos(math.radians(angle)) * DESPAWN_DISTANCE_BLOCKS
        z = pz + math.sin(math.radians(angle)) * DESPAWN_DISTANCE_BLOCKS
        assert world.is_loaded(math.floor(x) >> 4, math.floor(z) >> 4), angle
    assert not any(world.is_loaded(cx, 100) for cx in range(-12, 13))


def test_stored_mobs_of_an_unloaded_column_are_kept_with_it(session, tmp_path):
    world = session.world
    stored = [{"kind": "boxling", "note": "stored in a far column"}]
    world.set_column_entities(40, 0, stored)
    world.get_block(40 * 16, 0, 0)
    ColumnKeeper(world, session.save).after_tick(KEEP_INTERVAL_TICKS, [session.player.body.feet])
    assert not world.is_loaded(40, 0)
    assert world.column_entities(40, 0) == stored
    world.save()
    world.close()
    with World.open(tmp_path / "keep.boxel", workers=1) as reopened:
        assert reopened.column_entities(40, 0) == stored


def test_the_lab_which_unloads_nothing_is_left_alone():
    lab = lab_session()
    assert ColumnKeeper(lab.world, lab.save).after_tick(KEEP_INTERVAL_TICKS, [lab.player.body.feet]) == 0


@pytest.mark.parametrize("radius, interval, save, error", [
    (-1, 20, lambda: None, ValueError), (1.5, 20, lambda: None, TypeError), (True, 20, lambda: None, TypeError),
    (5, 0, lambda: None, ValueError), (5, 20, "save", TypeError)])
def test_a_keeper_with_bad_settings_is_refused(session, radius, interval, save, error):
    with pytest.raises(error):
        ColumnKeeper(session.world, save, radius=radius, interval=interval)


def test_the_world_refuses_bad_unload_arguments_and_unloads_nothing_then(session):
    world = session.world
    world.get_block(20 * 16, 0, 0)
    before = world.loaded_columns
    for bad in ([(20, 0), (1, 2, 3)], [("a", 0)], [(10 ** 12, 0)]):
        with pytest.raises((TypeError, ValueError)):
            world.unload_columns(bad)
    for radius in (-1, 2.0, None):
        with pytest.raises((TypeError, ValueError)):
            world.columns_far_from([(0, 0)], radius)
    with pytest.raises((TypeError, ValueError)):
        ColumnKeeper(world, session.save).after_tick(KEEP_INTERVAL_TICKS, [(math.nan, 0.0, 0.0)])
    assert world.loaded_columns == before and world.is_loaded(20, 0)


columns = st.lists(st.tuples(st.integers(-7, 7), st.integers(-7, 7)), min_size=1, max_size=10, unique=True)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(columns, st.lists(st.tuples(st.integers(-7, 7), st.integers(-7, 7)), max_size=3), st.integers(0, 3),
       st.lists(st.tuples(st.integers(0, 9), st.integers(0, 15), st.integers(0, 255), st.integers(0, 15),
                          st.sampled_from(("glass", "air", "torch", "stone"))), max_size=8))
def test_unloading_far_columns_changes_nothing_any_read_returns(tmp_path_factory, loaded, players, radius, edits):
    folder = tmp_path_factory.mktemp("keep")
    world = World.create(folder / "w.boxel", SEED, workers=1)
    try:
        for cx, cz in loaded:
            world.get_block(cx * 16, 0, cz * 16)
        for index, lx, y, lz, name in edits:
            cx, cz = loaded[index % len(loaded)]
            world.set_block(cx * 16 + lx, y, cz * 16 + lz, name)
        keys = [key for key in loaded if world.is_loaded(*key)]
        before = {key: world.column(*key) for key in keys}
        far = [key for key in keys
               if all(max(abs(key[0] - p[0]), abs(key[1] - p[1])) > radius for p in players)]
        edited_far = any(world.is_edited(*key) for key in far)
        saves = []
        keeper = ColumnKeeper(world, lambda: (saves.append(1), world.save()), radius=radius)
        keeper.after_tick(KEEP_INTERVAL_TICKS, [feet_in(*player) for player in players])
        assert [key for key in keys if not world.is_loaded(*key)] == far
        assert saves == ([1] if edited_far else [])
        for key, ids in before.items():
            assert np.array_equal(world.column(*key), ids), key
    finally:
        world.close()


def test_a_headless_save_before_unloading_that_the_disk_refuses_is_told_and_play_goes_on(session, monkeypatch):
    from game.frontends.headless import save_for_unloading
    from game.rules.session import NOTICE_SAVE_FAILED
    from game.world import WorldDiskFullError

    def full_disk() -> None:
        raise WorldDiskFullError("the disk is full")

    monkeypatch.setattr(session, "save", full_disk)
    session.world.set_block(20 * 16, 120, 0, "glass")
    keeper = ColumnKeeper(session.world, lambda: save_for_unloading(session))
    keeper.after_tick(KEEP_INTERVAL_TICKS, [session.player.body.feet])
    assert session.take_notices() == [NOTICE_SAVE_FAILED.format(error="the disk is full")]
    assert session.world.is_loaded(20, 0) and session.world.get_block(20 * 16, 120, 0) == "glass"
