"""Everything in flight is saved with its column and comes back exactly: falling blocks and projectiles.

A falling block leaves the world on its first tick and lives on only as an
entity, so a save that missed it would lose it (25, 150 and 325 blocks of a pillar quitting 5, 20 and
40 ticks into its fall) and a reload would diverge. `FallingBlocks.save` and `Projectiles.save` write them into
their columns' entity lists (each kind only its own entries; the mobs keep theirs) and a new
session restores them, so a save and reload mid-fall runs on to the same bits.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import physics
from game.frontends import cli
from game.rules.falling_blocks import (MAX_FALL_TICKS, MAX_IN_FLIGHT, FallingBlock, FallingBlocks, FallingBlockStateError,
                                 falling_block_from_state, falling_block_state)
from game.rules.projectiles import ProjectileStateError, Projectiles, projectile_from_state, projectile_state, throw
from game.rules.saved_entities import FALLING_BLOCK, PROJECTILE, is_mob_entry
from game.rules.session import Session
from game.world import World
from game.world.blocks import block_id
from game.world.falling import FALL_TICKS, FallingStart
from game.world.storage import MAX_ENTITIES_TEXT_BYTES
from physics.materials import Material

from .hostile_values import ANY_FLOAT, json_values

SEED = 5
SUPPORT_Y = 200
"""The pillars stand on a support at this height, high in the open sky of the seed-5 world."""
CORNER = (4, 4)
"""(x, z) of every pillar's first stack."""
ENOUGH_TICKS = 260
"""[ticks] More than any pillar here needs to come down (a block falls at most MAX_FALL_TICKS + 1)."""


def pillar_world(path: Path, width: int = 3, height: int = 30, drop: int = 40, gravel_every: int = 0) -> int:
    """A world at `path` with a width x width pillar of sand (gravel every `gravel_every`-th layer)
    `height` tall whose support was just taken away, `drop` blocks above a stone floor; saved with
    the fall updates it scheduled. Returns how many blocks the pillar has."""
    x0, z0 = CORNER
    with World.create(path, SEED, workers=1) as world:
        for x in range(x0, x0 + width):
            for z in range(z0, z0 + width):
                world.set_block(x, SUPPORT_Y - drop, z, "stone")
                world.set_block(x, SUPPORT_Y, z, "stone")
                for y in range(SUPPORT_Y + 1, SUPPORT_Y + 1 + height):
                    gravel = gravel_every and y % gravel_every == 0
                    world.set_block(x, y, z, "gravel" if gravel else "sand")
        for _ in range(FALL_TICKS + 1):
            world.tick()  # the placed blocks' own updates: each finds the block under it
        for x in range(x0, x0 + width):
            for z in range(z0, z0 + width):
                world.set_block(x, SUPPORT_Y, z, "air")
        world.save()
    return width * width * height


def pillar_cells(world: World, width: int = 3, height: int = 30, drop: int = 40) -> np.ndarray:
    """The ids of every cell the pillar can be in, from its floor to its top."""
    x0, z0 = CORNER
    return np.array(world.ids_in_box(x0, SUPPORT_Y - drop, z0, x0 + width, SUPPORT_Y + height + 1, z0 + width))


def blocks_down(world: World, **size) -> int:
    """Sand and gravel blocks in the pillar's cells."""
    cells = pillar_cells(world, **size)
    return int(((cells == block_id("sand")) | (cells == block_id("gravel"))).sum())


def in_flight(session: Session) -> list[str]:
    """Every falling block's state but its key (keys are per session), exactly (repr: bit for bit)."""
    return [repr((f.body, f.block, f.age_ticks, f.previous)) for f in session.falling.live]


def play(path: Path, ticks: int, reload_at: int | None = None) -> tuple[np.ndarray, list[str], int]:
    """Open the world at `path`, play `ticks` ticks (saving, closing and reopening it after
    `reload_at` of them); the pillar's cells, what is in flight and how many blocks are down."""
    world = World.open(path, workers=1)
    session = Session.open(world, autosave=False)
    if reload_at is not None:
        session.run([], reload_at)
        session.close()
        world = World.open(path, workers=1)
        session = Session.open(world, autosave=False)
        ticks -= reload_at
    try:
        session.run([], ticks)
        return pillar_cells(world), in_flight(session), blocks_down(world)
    finally:
        world.close()


# --- no block is lost --------------------------------------------------------------------------------

PILLAR_500 = {"width": 5, "height": 20, "drop": 40}
"""The issue's 500-block pillar."""


@pytest.mark.parametrize("ticks", [5, 20, 40])
def test_saving_and_reopening_5_20_or_40_ticks_into_a_500_block_pillars_fall_loses_no_block(tmp_path, ticks):
    path = tmp_path / "pillar.boxel"
    blocks = pillar_world(path, **PILLAR_500)
    with World.open(path, workers=1) as world:
        session = Session.open(world, autosave=False)
        session.run([], ticks)
        flying = len(session.falling)
        assert flying > 0 and blocks_down(world, **PILLAR_500) + flying == blocks == 500
        session.save()
    with World.open(path, workers=1) as world:
        session = Session.open(world, autosave=False)
        assert len(session.falling) == flying  # every block in flight came back
        assert blocks_down(world, **PILLAR_500) + len(session.falling) == blocks
        session.run([], ENOUGH_TICKS)
        assert len(session.falling) == 0 and session.falling.lost == 0
        assert blocks_down(world, **PILLAR_500) == blocks


@pytest.mark.parametrize("ticks", [5, 20, 40])
def test_quitting_a_headless_run_5_20_or_40_ticks_into_a_500_block_pillars_fall_loses_no_block(tmp_path, ticks):
    path = tmp_path / "pillar.boxel"
    blocks = pillar_world(path, **PILLAR_500)
    assert cli.main(["--headless", "--world", str(path), "--exit-after-ticks", str(ticks)]) == 0
    with World.open(path, workers=1) as world:
        kinds = [entry.get("kind") for key in world.entity_columns() for entry in world.column_entities(*key)]
        session = Session.open(world, autosave=False)
        assert kinds.count(FALLING_BLOCK) == len(session.falling) > 0
        assert blocks_down(world, **PILLAR_500) + len(session.falling) == blocks
        session.run([], ENOUGH_TICKS)
        assert blocks_down(world, **PILLAR_500) == blocks and session.falling.lost == 0


# --- a reload runs on to the same bits ---------------------------------------------------------------

@pytest.mark.parametrize("reload_at", [4, 12, 35])
def test_a_save_and_reload_mid_collapse_runs_on_to_exactly_the_cells_and_blocks_in_flight_of_running_on(
        tmp_path, reload_at):
    base = tmp_path / "base.boxel"
    pillar_world(base, gravel_every=3)
    shutil.copy(base, tmp_path / "on.boxel")
    shutil.copy(base, tmp_path / "reloaded.boxel")
    ticks = reload_at + 30
    cells, flying, down = play(tmp_path / "on.boxel", ticks)
    cells_reloaded, flying_reloaded, down_reloaded = play(tmp_path / "reloaded.boxel", ticks, reload_at)
    assert flying and flying_reloaded == flying  # bit for bit (repr of every float)
    assert np.array_equal(cells_reloaded, cells) and down_reloaded == down


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(width=st.integers(1, 3), height=st.integers(1, 24), drop=st.integers(2, 30), gravel_every=st.integers(0, 4),
       reload_at=st.integers(1, 40))
def test_any_pillar_saved_and_reloaded_at_any_tick_runs_on_exactly_and_loses_no_block(
        tmp_path_factory, width, height, drop, gravel_every, reload_at):
    folder = tmp_path_factory.mktemp("pillar")
    size = {"width": width, "height": height, "drop": drop}
    blocks = pillar_world(folder / "base.boxel", gravel_every=gravel_every, **size)
    shutil.copy(folder / "base.boxel", folder / "on.boxel")
    ticks = reload_at + 40
    runs = []
    for name, reload in (("on.boxel", None), ("base.boxel", reload_at)):
        world = World.open(folder / name, workers=1)
        session = Session.open(world, autosave=False)
        if reload is not None:
            session.run([], reload)
            session.close()
            world = World.open(folder / name, workers=1)
            session = Session.open(world, autosave=False)
        session.run([], ticks - (reload or 0))
        runs.append((pillar_cells(world, **size).tolist(), in_flight(session)))
        assert blocks_down(world, **size) + len(session.falling) == blocks
        world.close()
    assert runs[0] == runs[1]


# --- each kind keeps its own entries -----------------------------------------------------------------

def falling_at(cell: tuple[int, int, int], key: int = 0, block: str = "sand") -> FallingBlock:
    return FallingBlock.start(FallingStart(cell, block_id(block)), key=key)


def test_mobs_falling_blocks_and_projectiles_in_one_column_each_keep_the_others_entries(sky_session):
    session, world = sky_session, sky_session.world
    world.set_block(0, 150, 0, "stone")
    session.mobs.spawn((0.5, 151.0, 0.5))
    session.falling.live = [falling_at((1, 180, 1))]
    session.projectiles.throw((2.5, 170.0, 2.5), 0.0, 0.0)
    session.save()
    kinds = sorted(str(entry.get("kind")) for entry in world.column_entities(0, 0))
    assert kinds == sorted(["boxling", FALLING_BLOCK, PROJECTILE])
    session.mobs.save()  # a later save of one kind leaves the others alone
    session.falling.save()
    assert sorted(str(entry.get("kind")) for entry in world.column_entities(0, 0)) == kinds
    restored = Session(world, session.player, autosave=False)
    assert restored.falling.live == session.falling.live
    assert restored.projectiles.live[0].body == session.projectiles.live[0].body
    restored.tick()  # the mobs come back near the player, and only the mob
    assert len(restored.mobs) == 1


def test_an_old_saves_entry_without_a_kind_belongs_to_the_mobs_and_is_kept_by_everyone(sky_session):
    world = sky_session.world
    old = {"box": [0.2, 151.0, 0.2, 0.8, 152.8, 0.8], "note": "an entry from before kinds"}
    world.set_column_entities(0, 0, [old])
    assert is_mob_entry(old)
    with pytest.warns(UserWarning, match="mob saved in column"):
        session = Session(world, sky_session.player, autosave=False)
        session.tick()
    assert len(session.falling) == 0 and len(session.mobs) == 0
    session.save()
    assert world.column_entities(0, 0) == [old]  # kept as it was, by the mobs, untouched by the others


def test_falling_blocks_that_left_a_column_are_taken_out_of_its_list_and_nothing_else(sky_session):
    session, world = sky_session, sky_session.world
    session.falling.live = [falling_at((1, 180, 1)), falling_at((20, 180, 1), key=1)]
    session.save()
    assert [e["key"] for e in world.column_entities(0, 0)] == [0]
    assert [e["key"] for e in world.column_entities(1, 0)] == [1]
    session.falling.live = session.falling.live[1:]
    session.save()
    assert world.column_entities(0, 0) == [] and [e["key"] for e in world.column_entities(1, 0)] == [1]


# --- a damaged saved entity never stops the game -------------------------------------------------------

def test_a_damaged_saved_falling_block_is_kept_as_it_is_with_a_warning_and_the_others_come_back(sky_session):
    world = sky_session.world
    good = falling_block_state(falling_at((1, 180, 1)), order=0)
    damaged = {**falling_block_state(falling_at((2, 180, 2), key=1), order=1), "box": [0.0, 1.0, "x"]}
    world.set_column_entities(0, 0, [damaged, good])
    with pytest.warns(UserWarning, match="falling block saved in column \\(0, 0\\) cannot be used"):
        falling = FallingBlocks(world)
    assert falling.live == [falling_at((1, 180, 1))]
    falling.save()
    assert damaged in world.column_entities(0, 0)  # written back unchanged


def test_a_copied_saved_falling_block_is_dropped_with_a_warning(sky_session):
    world = sky_session.world
    state = falling_block_state(falling_at((1, 180, 1)))
    world.set_column_entities(0, 0, [state, dict(state)])
    with pytest.warns(UserWarning, match="repeats another's key"):
        falling = FallingBlocks(world)
    assert len(falling) == 1


@pytest.mark.parametrize("field, value", [
    ("block", "stone"), ("block", "no such block"), ("age_ticks", MAX_FALL_TICKS + 1), ("age_ticks", -1),
    ("key", True), ("order", 2 ** 60), ("box", [0.0, 0.0, 0.0, 2.0, 2.0, 2.0]),
    ("box", [0.01, 400.0, 0.01, 0.99, 400.98, 0.99]),
    ("velocity", [0.0, -9.0, 0.0]), ("fall_distance", -1.0), ("touching", ["AIR"]), ("touching", "WATER"),
    ("previous", [1, 2, 3]), ("version", 2), ("kind", "projectile"), ("in_web", 1),
])
def test_a_saved_falling_block_out_of_type_or_range_is_refused_naming_the_field(field, value):
    state = {**falling_block_state(falling_at((1, 180, 1))), field: value}
    with pytest.raises(FallingBlockStateError, match=field if field not in ("kind", "version") else "kind"):
        falling_block_from_state(state)


def damaged_states(valid: dict):
    """`valid` damaged field by field (any JSON value, lists of floats), fields dropped, or any value."""
    changed = st.dictionaries(st.sampled_from(sorted(valid) + ["extra"]),
                              st.one_of(json_values(), st.lists(ANY_FLOAT, min_size=3, max_size=6)), max_size=3)
    dropped = st.sets(st.sampled_from(sorted(valid)), max_size=2)
    mixed = st.tuples(changed, dropped).map(lambda c: {k: v for k, v in {**valid, **c[0]}.items() if k not in c[1]})
    return st.one_of(mixed, json_values())


VALID_FALLING = falling_block_state(falling_at((1, 180, 1)))


@settings(max_examples=300, deadline=None)
@given(damaged_states(VALID_FALLING))
def test_any_damaged_saved_falling_block_reads_back_or_is_refused_with_its_own_error(state):
    try:
        saved = falling_block_from_state(state)
    except FallingBlockStateError:
        return
    assert isinstance(saved.falling.body, physics.Body) and falling_block_state(saved.falling, saved.order)


def test_a_falling_block_nested_too_deeply_or_with_a_huge_number_is_refused_with_its_own_error():
    nested: object = []
    for _ in range(100_000):
        nested = [nested]
    for state in ({**VALID_FALLING, "box": nested}, {**VALID_FALLING, "fall_distance": 10 ** 400}):
        with pytest.raises(FallingBlockStateError):
            falling_block_from_state(state)


def test_every_block_in_flight_fits_one_columns_entity_list_with_room_to_spare():
    """The longest entry the game can write (coordinates at the border, 17-digit floats, every
    flag and material) times MAX_IN_FLIGHT stays under the 4 MiB a column may hold, with 256 KiB
    for mobs: a save never refuses a column for its falling blocks."""
    longest = FallingBlock(physics.Body(physics.AABB(-29999998.49000001, 254.88654320134026, -29999998.49000001,
                                                     -29999997.50999999, 255.86654322041375, -29999997.50999999),
                                        (-1.2345678901234568e-05, -1.9512345678901235, 1.2345678901234568e-05),
                                        True, True, True, 0.12345678901234566, 123.45678901234567, True, True, True,
                                        999999, frozenset(Material) - {Material.AIR}),
                           block_id("gravel"), MAX_FALL_TICKS, 2 ** 53,
                           physics.AABB(-29999998.49000001, 254.88654320134026, -29999998.49000001,
                                        -29999997.50999999, 255.86654322041375, -29999997.50999999))
    entry_bytes = len(json.dumps(falling_block_state(longest, 2 ** 53)).encode()) + len(", ")
    assert MAX_IN_FLIGHT * entry_bytes <= MAX_ENTITIES_TEXT_BYTES - 256 * 1024


# --- projectiles ------------------------------------------------------------------------------------------

def test_a_projectile_saved_and_reloaded_mid_flight_flies_on_exactly_as_it_would_have(sky_session):
    world = sky_session.world
    for x in range(2, 6):
        for z in range(3, 30):
            world.set_block(x, 168, z, "stone")  # a floor it bounces on and comes to rest on
    thrown = Projectiles(world)
    thrown.throw((3.5, 175.0, 3.5), 0.0, 10.0)
    thrown.tick([])
    thrown.tick([])
    thrown.save()
    reloaded = Projectiles(world)
    assert [p.body for p in reloaded.live] == [p.body for p in thrown.live] and reloaded.thrown == 1
    for _ in range(60):
        thrown.tick([])
        reloaded.tick([])
        assert repr([(p.body, p.previous, p.age_ticks, p.slow_ticks) for p in reloaded.live]) == repr(
            [(p.body, p.previous, p.age_ticks, p.slow_ticks) for p in thrown.live])


def test_a_damaged_saved_projectile_is_kept_as_it_is_with_a_warning(sky_session):
    world = sky_session.world
    thrown = Projectiles(world)
    thrown.throw((3.5, 175.0, 3.5), 0.0, 10.0)
    good = projectile_state(thrown.live[0])
    damaged = {**good, "key": 7, "slow_ticks": "x"}
    world.set_column_entities(0, 0, [damaged, good])
    with pytest.warns(UserWarning, match="projectile saved in column \\(0, 0\\) cannot be used"):
        restored = Projectiles(world)
    assert [p.body for p in restored.live] == [thrown.live[0].body]
    restored.save()
    assert damaged in world.column_entities(0, 0)


VALID_PROJECTILE = projectile_state(throw(0, (3.5, 175.0, 3.5), 30.0, -10.0))


@settings(max_examples=200, deadline=None)
@given(damaged_states(VALID_PROJECTILE))
def test_any_damaged_saved_projectile_reads_back_or_is_refused_with_its_own_error(state):
    try:
        saved = projectile_from_state(state)
    except ProjectileStateError:
        return
    assert projectile_state(saved.projectile, saved.order)
