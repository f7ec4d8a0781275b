"""The world's change log (`game/world/change_log.py`, `World.take_changes`): every cell changed with
its old and new block, the sections whose meshes see it (light included), the light left waiting by
the tick's light phase, the columns now unsaved."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from game.world import World
from game.world.blocks import block_id, block_name
from game.world.change_log import COMPACT_ROWS, BlockChange, ChangeLog, WorldChanges
from game.world.coords import sections_seeing
from game.world.light import LightEngine
from game.world.world import LIGHT_CELLS_PER_TICK

STONE, AIR, GLASS = block_id("stone"), block_id("air"), block_id("glass")
NAMES_BY_ID = {AIR: "air", STONE: "stone", GLASS: "glass"}
KEYS_3X3 = tuple(itertools.product((-1, 0, 1), (-1, 0, 1)))
SKY_Y = 200
"""[blocks] Open sky over the seed-42 spawn: nothing is built this high."""


@pytest.fixture
def world(tmp_path):
    with World.create(tmp_path / "log.boxel", 42, workers=1) as world:
        yield world


def lit_3x3(world: World) -> None:
    """Load and light the 3 x 3 columns around the origin (and their neighbours), then forget what that changed."""
    for cx, cz in KEYS_3X3:
        world.padded_light(cx, 4, cz)
    world.take_changes()


# --- the log alone ------------------------------------------------------------------------------

def test_a_cell_changed_twice_is_one_change_from_its_first_block_to_its_last():
    log = ChangeLog()
    log.block_changed(1, 2, 3, AIR, STONE)
    log.block_changed(1, 2, 3, STONE, GLASS)
    assert log.take().blocks == (BlockChange((1, 2, 3), "air", "glass"),)
    assert log.take() == WorldChanges()


def test_a_cell_put_back_as_it_was_is_no_block_change_but_its_sections_stay_listed():
    log = ChangeLog()
    log.block_changed(1, 2, 3, AIR, STONE)
    log.block_changed(1, 2, 3, STONE, AIR)
    log.sections_changed(sections_seeing(1, 2, 3))
    changes = log.take()
    assert changes.blocks == () and changes.sections == frozenset(sections_seeing(1, 2, 3))


def test_single_writes_and_batches_merge_in_the_order_they_came_sorted_by_cell():
    log = ChangeLog()
    log.block_changed(5, 5, 5, AIR, STONE)
    log.blocks_changed(np.array([5, 0]), np.array([5, 9]), np.array([5, 0]), np.array([STONE, AIR]),
                       np.array([GLASS, STONE]))
    log.block_changed(5, 5, 5, GLASS, AIR)  # back to air: left out
    log.block_changed(0, 9, 0, STONE, GLASS)
    assert log.take().blocks == (BlockChange((0, 9, 0), "air", "glass"),)


def test_a_log_nobody_takes_for_long_keeps_one_row_per_cell_and_still_takes_first_old_and_last_new():
    log = ChangeLog()
    xs = np.arange(100)
    blocks = (AIR, STONE, GLASS)
    rounds = COMPACT_ROWS // len(xs) * 3 + 1  # ends on stone
    for index in range(rounds):  # every cell cycles air -> stone -> glass -> air ...
        old, new = blocks[index % 3], blocks[(index + 1) % 3]
        log.blocks_changed(xs, np.zeros_like(xs), np.zeros_like(xs), np.full(len(xs), old), np.full(len(xs), new))
        log.block_changed(0, 1, 0, old, new)
    assert log._segment_rows <= 2 * COMPACT_ROWS  # bounded by the cells, not the writes
    last = blocks[rounds % 3]
    expected = [BlockChange((int(x), 0, 0), "air", NAMES_BY_ID[last]) for x in xs] + [
        BlockChange((0, 1, 0), "air", NAMES_BY_ID[last])]
    assert last != AIR and log.take().blocks == tuple(sorted(expected, key=lambda change: change.cell))


def test_a_batch_of_unequal_lengths_is_refused_noting_nothing():
    log = ChangeLog()
    with pytest.raises(ValueError, match="one length"):
        log.blocks_changed(np.array([1, 2]), np.array([1]), np.array([1, 2]), np.array([0, 0]), np.array([1, 1]))
    assert log.take() == WorldChanges()


# --- the world ----------------------------------------------------------------------------------

def test_a_placed_and_a_broken_block_are_taken_with_their_old_and_new_blocks_and_sections(world):
    lit_3x3(world)
    top = next(y for y in range(255, 0, -1) if world.get_block(3, y, 3) != "air")
    below = world.get_block(3, top, 3)
    placed = world.set_block(3, SKY_Y, 3, "glass")
    broken = world.set_block(3, top, 3, "air")
    changes = world.take_changes()
    assert changes.blocks == (BlockChange((3, top, 3), below, "air"), BlockChange((3, SKY_Y, 3), "air", "glass"))
    assert changes.sections >= set(placed) | set(broken)
    assert changes.unsaved_columns == {(0, 0)}
    assert world.take_changes().blocks == ()


def test_a_save_leaves_no_column_unsaved_in_the_next_record(world):
    world.set_block(40, SKY_Y, 3, "glass")
    world.save()
    assert world.take_changes().unsaved_columns == frozenset()


def test_a_flowing_fluid_s_cells_are_exactly_the_changes_each_tick_records(world):
    lit_3x3(world)
    world.set_block(8, SKY_Y, 8, "stone")
    world.set_block(8, SKY_Y + 1, 8, "water")
    world.take_changes()
    before = {key: world.column(*key) for key in KEYS_3X3}
    flowed = 0
    for _ in range(40):
        world.tick()
        changes = world.take_changes()
        after = {key: world.column(*key) for key in KEYS_3X3}
        expected = set()
        for (cx, cz), ids in after.items():
            for x, y, z in zip(*np.nonzero(ids != before[(cx, cz)])):
                expected.add(BlockChange((cx * 16 + int(x), int(y), cz * 16 + int(z)),
                                         _name(before[(cx, cz)][x, y, z]), _name(ids[x, y, z])))
        assert set(changes.blocks) == expected and len(changes.blocks) == len(expected)
        assert all(set(sections_seeing(*change.cell)) <= changes.sections for change in changes.blocks)
        flowed += len(expected)
        before = after
    assert flowed > 5  # the water spread over the stone and fell off its sides


def _name(block) -> str:
    return block_name(int(block))


def test_a_torch_s_record_lists_exactly_the_sections_whose_padded_blocks_or_light_changed(world):
    lit_3x3(world)
    sections = [(cx, sy, cz) for cx, cz in KEYS_3X3 for sy in range(10, 15)]
    before = {key: (world.padded_light(*key).copy(), world.padded_section(*key).copy()) for key in sections}
    world.take_changes()
    world.set_block(8, 12 * 16 + 8, 8, "torch")  # the middle of section (0, 12, 0): its light crosses borders
    world.tick()  # the light phase
    changes = world.take_changes()
    differ = {key for key in sections
              if not (np.array_equal(before[key][0], world.padded_light(*key))
                      and np.array_equal(before[key][1], world.padded_section(*key)))}
    assert changes.light_waiting == frozenset()
    assert set(sections_seeing(8, 12 * 16 + 8, 8)) == {(0, 12, 0)}
    assert differ > {(0, 12, 0)} and changes.sections == differ
    assert world.take_changes().sections == frozenset()  # reading the light settled nothing more


def test_light_past_the_tick_budget_waits_then_comes_in_a_later_record_and_equals_the_light_from_scratch(world):
    lit_3x3(world)
    cells = [(x, y, z) for x in range(-16, 32) for z in range(-16, 32) for y in (SKY_Y,)][:LIGHT_CELLS_PER_TICK + 200]
    for cell in cells:
        world.set_block(*cell, "stone")
    world.tick()
    first = world.take_changes()
    assert first.light_waiting  # 200 cells past the budget
    world.tick()
    second = world.take_changes()
    assert second.light_waiting == frozenset() and second.sections
    scratch = LightEngine(world._columns)
    for key in world._columns:
        scratch.column_added(key)
    scratch.resolve()
    for key in world._columns:
        assert np.array_equal(scratch.column_light(key), world._light.column_light(key)), key
