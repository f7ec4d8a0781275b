"""World blocks: reads and writes at any coordinate, whole columns, padded sections, changed sections."""

from __future__ import annotations

import numpy as np
import pytest

from game.world import OutOfWorldError, UnknownBlockError, World, WorldClosedError
from game.world.blocks import AIR, block_id, block_name
from game.world.coords import COLUMN_BORDER, WORLD_BORDER
from game.world.storage import WorldFile
from game.world.terrain import Terrain
from physics import AABB

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


@pytest.mark.parametrize(("x", "y", "z"), [(3, 64, -7), (-1, 0, -1), (WORLD_BORDER - 1, 70, -WORLD_BORDER)])
def test_get_block_reads_the_same_block_for_python_ints_numpy_ints_and_integral_floats(world, x, y, z):
    name = world.get_block(x, y, z)  # Python ints: read without the coordinate checks' calls
    assert world.get_block(np.int64(x), np.int32(y), np.int64(z)) == name
    assert world.get_block(float(x), float(y), float(z)) == name
    with pytest.raises(TypeError, match="block coordinate x must be an integer"):
        world.get_block(True, y, z)


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
    for use in (lambda: world.get_block(1000, 0, 1000), lambda: world.set_block(0, 100, 0, "stone"),
                lambda: world.column(5, 5), lambda: world.collision_boxes(AABB(0.0, 70.0, 0.0, 1.0, 71.0, 1.0)),
                lambda: world.request(1, 1), lambda: world.poll(), lambda: world.cancel(1, 1),
                lambda: world.is_loaded(0, 0), lambda: world.unload_columns_outside(0, 0, 4), world.save):
        with pytest.raises(WorldClosedError):
            use()
    world.close()  # closing twice is harmless


# --- the world border ---------------------------------------------------------------------------

def test_the_last_blocks_inside_the_world_border_are_generated_like_any_other(world):
    for x, z in ((WORLD_BORDER - 1, -WORLD_BORDER), (-WORLD_BORDER, WORLD_BORDER - 1)):
        ids = Terrain(SEED).column(x // 16, z // 16)
        assert world.get_block(x, 64, z) == block_name(int(ids[x % 16, 64, z % 16]))
    assert world.column(COLUMN_BORDER - 1, -COLUMN_BORDER).shape == (16, 256, 16)


@pytest.mark.parametrize("call", [
    lambda w: w.get_block(WORLD_BORDER, 64, 0),
    lambda w: w.get_block(0, 64, -WORLD_BORDER - 1),
    lambda w: w.get_block(0, 2 ** 70, 0),
    lambda w: w.set_block(2 ** 70, 64, 0, "stone"),
    lambda w: w.slipperiness(0, 64, WORLD_BORDER),
    lambda w: w.column(COLUMN_BORDER, 0),
    lambda w: w.padded_section(0, 4, -COLUMN_BORDER - 1),
    lambda w: w.request(2 ** 70, 0),
    lambda w: w.request(0, COLUMN_BORDER),
    lambda w: w.cancel(2 ** 70, 0),
    lambda w: w.is_loaded(-COLUMN_BORDER - 1, 0),
    lambda w: w.unload_columns_outside(2 ** 70, 0, 4),
], ids=["get x", "get z", "get y", "set", "slipperiness", "column", "padded", "request",
        "request edge", "cancel", "is_loaded", "unload"])
def test_everything_beyond_the_world_border_is_refused_and_changes_nothing(world, call):
    with pytest.raises(OutOfWorldError, match="beyond the world border"):
        call(world)
    assert world.pending_requests == 0 and world.take_changed_sections() == set()


def test_beyond_the_world_border_collision_queries_see_a_solid_wall(world):
    region = AABB(WORLD_BORDER - 0.5, 300.0, 0.0, WORLD_BORDER + 0.5, 301.0, 1.0)  # high in the air
    assert world.collision_boxes(region) == [AABB(WORLD_BORDER, 300.0, 0.0, WORLD_BORDER + 0.5, 301.0, 1.0)]
    far = AABB(-WORLD_BORDER - 9.0, 300.0, 0.0, -WORLD_BORDER - 8.0, 301.0, 1.0)
    assert world.collision_boxes(far) == [far]


def test_a_body_flying_into_the_world_border_stops_at_it(world):
    import physics
    body = physics.Body.at_feet(WORLD_BORDER - 3.5, 300.0, 0.5)
    for _ in range(60):
        body = physics.step(body, world, physics.Intent(fly=True, forward=1.0, yaw=270.0))
    assert body.box.max_x == WORLD_BORDER and body.collided_horizontally


def test_column_coordinates_that_are_not_integers_are_a_type_error(world):
    for call in (world.request, world.cancel, world.is_loaded):
        with pytest.raises(TypeError, match="column coordinate cx must be an integer"):
            call(0.5, 0)
    with pytest.raises(TypeError, match="column coordinate cz must be an integer"):
        world.unload_columns_outside(0, "3", 2)


@pytest.mark.parametrize("radius", [-1, 1.5, True])
def test_an_unload_radius_that_is_not_a_non_negative_int_is_refused(world, radius):
    world.get_block(100, 64, 100)
    with pytest.raises((TypeError, ValueError), match="radius"):
        world.unload_columns_outside(0, 0, radius)
    assert world.is_loaded(6, 6)


# --- creating ------------------------------------------------------------------------------

@pytest.mark.parametrize("workers", [0, -1, True, 1.5])
def test_a_create_with_a_bad_worker_count_makes_no_file(tmp_path, workers):
    path = tmp_path / "w.db"
    with pytest.raises(ValueError, match="workers must be a positive int"):
        World.create(path, workers=workers)
    assert list(tmp_path.iterdir()) == []
    World.create(path, workers=1).close()  # and nothing holds the path


@pytest.mark.parametrize("seed", [2 ** 63, -2 ** 63 - 1, 2 ** 64 - 1])
def test_a_seed_beyond_64_bits_is_refused_before_any_file_is_made(tmp_path, seed):
    with pytest.raises(ValueError, match="-9223372036854775808..9223372036854775807"):
        World.create(tmp_path / "w.db", seed=seed)
    assert list(tmp_path.iterdir()) == []


def test_the_64_bit_seed_limits_make_different_worlds():
    lowest, highest = Terrain(-2 ** 63).column(0, 0), Terrain(2 ** 63 - 1).column(0, 0)
    assert not np.array_equal(lowest, highest)


def test_a_create_that_fails_after_making_its_file_removes_it(tmp_path, monkeypatch):
    def fail(self):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(WorldFile, "saved_columns", fail)
    with pytest.raises(RuntimeError, match="disk on fire"):
        World.create(tmp_path / "w.db", workers=1)
    assert list(tmp_path.iterdir()) == []


def test_an_open_that_fails_in_the_worlds_setup_releases_the_file(tmp_path, monkeypatch):
    path = tmp_path / "w.db"
    World.create(path, workers=1).close()
    with monkeypatch.context() as patch:
        patch.setattr(WorldFile, "saved_columns", lambda self: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            World.open(path, workers=1)
    World.open(path, workers=1).close()  # not WorldInUseError


def test_an_open_with_a_bad_worker_count_does_not_hold_the_file(tmp_path):
    path = tmp_path / "w.db"
    World.create(path, workers=1).close()
    with pytest.raises(ValueError, match="workers must be a positive int"):
        World.open(path, workers=0)
    World.open(path, workers=1).close()


def test_create_generates_the_spawn_column_only_once(tmp_path, monkeypatch):
    generated = []
    column = Terrain.column

    def counting_column(self, cx, cz):
        generated.append((cx, cz))
        return column(self, cx, cz)

    monkeypatch.setattr(Terrain, "column", counting_column)
    with World.create(tmp_path / "w.db", workers=1) as world:
        world.get_block(3, 64, 3)
    assert generated == [(0, 0)]


def test_a_world_is_a_context_manager_that_saves_on_a_clean_exit(tmp_path):
    path = tmp_path / "w.db"
    with World.create(path, seed=7, workers=1) as created:
        created.set_block(1, 100, 1, "planks")
    with World.open(path, workers=1) as reopened:
        assert reopened.get_block(1, 100, 1) == "planks"
        assert reopened.seed == 7


def test_the_revision_counts_block_edits_and_not_reads(world):
    before = world.revision
    world.get_block(3, 64, 3)
    assert world.revision == before
    world.set_block(3, 200, 3, "stone")
    assert world.revision == before + 1
    world.set_block(3, 200, 3, "stone")  # no change
    assert world.revision == before + 1


def test_a_world_holds_blocks_inside_its_height_and_border_only():
    assert World.can_hold(0, 0, 0) and World.can_hold(-WORLD_BORDER, 255, WORLD_BORDER - 1)
    assert not World.can_hold(0, -1, 0) and not World.can_hold(0, 256, 0)
    assert not World.can_hold(WORLD_BORDER, 64, 0) and not World.can_hold(0, 64, -WORLD_BORDER - 1)
