"""World blocks: reads and writes at any coordinate, whole columns, padded sections, changed sections."""

from __future__ import annotations

import numpy as np
import pytest

from game.world import OutOfWorldError, UnknownBlockError, World, WorldClosedError
from game.world.blocks import AIR, block_id, block_name
from game.world.terrain import Terrain

from .conftest import SEED

BEDROCK = block_id("bedrock")


@pytest.mark.parametrize(("x", "z"), [(0, 0), (-1, -1), (-16, 15), (-17, -33), (31, -16), (1_000_003, -999_999)])
def test_get_block_reads_the_generated_column_at_floor_divided_coordinates(world, x, z):
    ids = Terrain(SEED).column(x // 16, z // 16)
    for y in (0, 1, 40, 63, 64, 70, 255):
        assert world.get_block(x, y, z) == block_name(int(ids[x % 16, y, z % 16]))


@pytest.mark.parametrize(("x", "y", "z"), [(0, 100, 0), (-1, 0, -1), (-16, 255, 17), (15, 64, -16)])
def test_a_set_block_is_read_back_by_get_block_and_column(world, x, y, z):
    world.set_block(x, y, z, "glass")
    assert world.get_block(x, y, z) == "glass"
    assert world.column(x // 16, z // 16)[x % 16, y, z % 16] == block_id("glass")
    world.set_block(x, y, z, "air")
    assert world.get_block(x, y, z) == "air"


def test_column_is_a_fresh_array_of_shape_16_256_16(world):
    ids = world.column(-3, 2)
    assert ids.shape == (16, 256, 16) and ids.dtype == np.uint16
    assert np.array_equal(ids, Terrain(SEED).column(-3, 2))
    ids[0, 100, 0] = BEDROCK
    assert world.get_block(-48, 100, 32) == "air"


def test_an_unknown_block_name_is_refused_and_changes_nothing(world):
    before = world.column(0, 0)
    with pytest.raises(UnknownBlockError, match="unknown block name 'stonee'.*did you mean stone"):
        world.set_block(0, 70, 0, "stonee")
    with pytest.raises(UnknownBlockError):
        world.set_block(0, 70, 0, 3)
    assert np.array_equal(world.column(0, 0), before)
    assert world.take_changed_sections() == set()


def test_writes_outside_the_build_height_are_refused(world):
    for y in (-1, 256):
        with pytest.raises(OutOfWorldError, match=f"y = {y} is outside the world"):
            world.set_block(0, y, 0, "stone")


def test_reads_keep_the_edge_rule_bedrock_below_the_world_and_air_above(world):
    assert world.get_block(5, -1, 5) == "bedrock"
    assert world.get_block(5, -100, 5) == "bedrock"
    assert world.get_block(5, 256, 5) == "air"


def test_non_integer_coordinates_are_a_type_error(world):
    with pytest.raises(TypeError, match="block coordinate y must be an integer"):
        world.get_block(0, 64.5, 0)


def test_a_padded_section_is_the_section_plus_a_border_from_its_neighbours(world):
    world.set_block(16, 70, 5, "brick")  # just east of section (0, 4, 0)
    world.set_block(-1, 64, -1, "glass")  # the corner below-west-north of it
    padded = world.padded_section(0, 4, 0)
    assert padded.shape == (18, 18, 18) and padded.dtype == np.uint16
    expected = np.array([[[block_id(world.get_block(x, y, z)) for z in range(-1, 17)]
                          for y in range(63, 81)] for x in range(-1, 17)])
    assert np.array_equal(padded, expected)
    assert padded[17, 70 - 63, 6] == block_id("brick")
    assert padded[0, 1, 0] == block_id("glass")


def test_padded_sections_at_the_bottom_and_top_see_bedrock_below_and_air_above(world):
    bottom = world.padded_section(-1, 0, 3)
    assert np.all(bottom[:, 0, :] == BEDROCK)
    top = world.padded_section(-1, 15, 3)
    assert np.all(top[:, 17, :] == AIR)


def test_set_block_reports_its_own_section_and_the_neighbours_that_see_it(world):
    assert world.set_block(5, 40, 5, "stone_slab") == ((0, 2, 0),)
    assert set(world.set_block(15, 48, -16, "brick")) == {(0, 3, -1), (1, 3, -1), (0, 2, -1), (1, 2, -1),
                                                          (0, 3, -2), (1, 3, -2), (0, 2, -2), (1, 2, -2)}
    assert world.take_changed_sections() == {(0, 2, 0), (0, 3, -1), (1, 3, -1), (0, 2, -1), (1, 2, -1),
                                             (0, 3, -2), (1, 3, -2), (0, 2, -2), (1, 2, -2)}
    assert world.take_changed_sections() == set()


def test_setting_a_block_to_what_it_already_is_changes_no_section(world):
    name = world.get_block(3, 10, 3)
    assert world.set_block(3, 10, 3, name) == ()
    assert world.take_changed_sections() == set()


def test_slipperiness_reads_the_block_registry(world):
    world.set_block(2, 100, 2, "ice")
    assert world.slipperiness(2, 100, 2) == pytest.approx(0.98)
    assert world.slipperiness(2, 101, 2) == pytest.approx(0.6)


def test_unloading_forgets_clean_far_columns_but_keeps_unsaved_edits(world):
    world.set_block(100, 100, 100, "brick")
    world.get_block(-100, 100, -100)
    world.get_block(0, 100, 0)
    dropped = world.unload_columns_outside(0, 0, 2)
    assert dropped >= 1
    assert world.is_loaded(0, 0) and world.is_loaded(100 // 16, 100 // 16)
    assert not world.is_loaded(-100 // 16, -100 // 16)
    assert world.get_block(100, 100, 100) == "brick"


def test_the_spawn_stands_on_the_highest_block_at_the_origin(world):
    x, y, z = world.spawn
    assert (x, z) == (0.5, 0.5)
    assert world.get_block(0, int(y) - 1, 0) != "air"
    assert all(world.get_block(0, h, 0) == "air" for h in range(int(y), 256))


def test_a_closed_world_refuses_to_be_used(world):
    world.close()
    with pytest.raises(WorldClosedError):
        world.get_block(1000, 0, 1000)
    world.close()  # closing twice is harmless


def test_a_world_is_a_context_manager_that_saves_on_a_clean_exit(tmp_path):
    path = tmp_path / "w.db"
    with World.create(path, seed=7, workers=1) as created:
        created.set_block(1, 100, 1, "planks")
    with World.open(path, workers=1) as reopened:
        assert reopened.get_block(1, 100, 1) == "planks"
        assert reopened.seed == 7
