"""Flowing water and lava by Beta's rules, run by the world's scheduled block updates (no session)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.world import World, fluids
from game.world.blocks import block_id
from game.world.block_updates import (KINDS, UPDATES_PER_TICK, BlockUpdates, check_rows, pack, pack_all, unpack,
                                      unpack_all)
from game.world.fluids import LAVA_TICKS, WATER_TICKS
from physics.materials import Material

FLOOR_Y = 200
"""High above the terrain: the tests build their own ground in open sky."""
Y = FLOOR_Y + 1
REACH = 12


def flat_floor(world: World, reach: int = REACH, block: str = "stone") -> None:
    for x in range(-reach, reach + 1):
        for z in range(-reach, reach + 1):
            world.set_block(x, FLOOR_Y, z, block)


def fluid_at(world: World, y: int = Y, reach: int = REACH) -> dict[tuple[int, int], str]:
    return {(x, z): name for x in range(-reach, reach + 1) for z in range(-reach, reach + 1)
            if (name := world.get_block(x, y, z)) != "air"}


def run(world: World, ticks: int) -> None:
    for _ in range(ticks):
        world.tick()


def diamond(radius: int, kind: str = "water") -> dict[tuple[int, int], str]:
    """Beta's footprint of a source on an open floor: level = distance, up to `radius`."""
    return {(x, z): kind if abs(x) + abs(z) == 0 else f"{kind}_{abs(x) + abs(z)}"
            for x in range(-radius, radius + 1) for z in range(-radius, radius + 1) if abs(x) + abs(z) <= radius}


def test_a_water_source_on_a_flat_floor_spreads_one_block_every_five_ticks_to_exactly_beta_s_diamond(world):
    flat_floor(world)
    world.set_block(0, Y, 0, "water")
    for radius in range(1, 8):
        run(world, WATER_TICKS - 1)
        assert fluid_at(world) == diamond(radius - 1)  # one tick early: the next ring is not there yet
        run(world, 1)
        assert fluid_at(world) == diamond(radius)
    run(world, 100)
    assert fluid_at(world) == diamond(7)  # water goes seven blocks and no further
    assert world.pending_updates == 0  # and everything has settled


def test_removing_the_source_drains_every_block_of_flowing_water(world):
    flat_floor(world)
    world.set_block(0, Y, 0, "water")
    run(world, 60)
    world.set_block(0, Y, 0, "air")
    run(world, 300)
    assert fluid_at(world) == {}
    assert world.pending_updates == 0


def test_lava_spreads_three_blocks_two_levels_a_step_every_thirty_ticks(world):
    flat_floor(world)
    world.set_block(0, Y, 0, "lava")
    run(world, LAVA_TICKS)
    assert fluid_at(world) == {(0, 0): "lava", (1, 0): "lava_2", (-1, 0): "lava_2", (0, 1): "lava_2",
                               (0, -1): "lava_2"}
    run(world, 600)
    footprint = fluid_at(world)
    assert {cell for cell in footprint} == {(x, z) for x in range(-3, 4) for z in range(-3, 4) if abs(x) + abs(z) <= 3}
    assert all(name == ("lava" if cell == (0, 0) else f"lava_{2 * (abs(cell[0]) + abs(cell[1]))}")
               for cell, name in footprint.items())


def test_water_between_two_sources_on_solid_ground_becomes_a_source(world):
    flat_floor(world)
    world.set_block(-1, Y, 0, "water")
    world.set_block(1, Y, 0, "water")
    run(world, 40)
    assert world.get_block(0, Y, 0) == "water"  # a new source, not water_1
    world.set_block(-1, Y, 0, "air")
    world.set_block(1, Y, 0, "air")
    run(world, 200)
    assert world.get_block(0, Y, 0) == "water"  # it stays when the two that made it are gone


def test_water_flows_toward_the_nearest_drop_within_four_blocks_instead_of_spreading_evenly(world):
    flat_floor(world)
    world.set_block(3, FLOOR_Y, 0, "air")  # a hole three blocks east of the source
    world.set_block(0, Y, 0, "water")
    run(world, WATER_TICKS)
    assert fluid_at(world) == {(0, 0): "water", (1, 0): "water_1"}  # only east, toward the hole
    run(world, WATER_TICKS * 3)
    assert fluid_at(world) == {(0, 0): "water", (1, 0): "water_1", (2, 0): "water_2", (3, 0): "water_3"}
    assert world.get_block(3, FLOOR_Y, 0) == "water_11"  # falling into the hole: 8 + the level above it (3)


def test_lava_meeting_a_water_source_turns_to_obsidian_and_flowing_lava_to_cobblestone(world):
    flat_floor(world)
    world.set_block(0, Y, 0, "lava")
    world.set_block(1, Y, 0, "water")  # water placed beside a lava source
    assert world.get_block(0, Y, 0) == "obsidian"
    world.set_block(5, Y, 5, "lava")
    run(world, LAVA_TICKS)
    assert world.get_block(6, Y, 5) == "lava_2"
    world.set_block(7, Y, 5, "water")
    assert world.get_block(6, Y, 5) == "cobblestone"  # flowing lava of level 2 (<= 4)


def test_lava_flowing_onto_water_below_turns_the_water_to_stone(world):
    flat_floor(world)
    world.set_block(0, Y, 0, "water")
    world.set_block(1, Y, 1, "stone")  # a pillar for the lava to pour from
    world.set_block(0, Y + 2, 0, "lava")
    run(world, LAVA_TICKS)
    assert world.get_block(0, Y + 1, 0) == "lava_8"  # falling lava right under the source
    run(world, LAVA_TICKS)
    assert world.get_block(0, Y, 0) == "stone"


def test_a_save_and_reload_in_the_middle_of_a_flow_resumes_exactly_as_an_uninterrupted_world(tmp_path):
    paths = tmp_path / "straight.boxel", tmp_path / "reloaded.boxel"
    worlds = [World.create(path, seed=7, workers=1) for path in paths]
    for world in worlds:
        flat_floor(world)
        world.set_block(3, FLOOR_Y, 0, "air")
        world.set_block(0, Y, 0, "water")
        world.set_block(-4, Y, -4, "lava")
        run(world, 23)  # mid-flow: updates pending on several ticks
    straight, reloaded = worlds
    assert reloaded.pending_updates > 0
    reloaded.save()
    pending = reloaded.pending_updates
    reloaded.close()
    reloaded = World.open(paths[1], workers=1)
    assert reloaded.pending_updates == pending and reloaded.ticks == straight.ticks
    for _ in range(200):
        straight.tick()
        reloaded.tick()
        assert fluid_at(straight) == fluid_at(reloaded)
    assert fluid_at(straight, FLOOR_Y) == fluid_at(reloaded, FLOOR_Y)
    straight.close()
    reloaded.close()


def test_a_generated_sea_is_still_until_a_block_beside_it_changes(world):
    assert world.pending_updates == 0
    for _ in range(20):
        assert world.tick() == 0


def test_one_tick_runs_at_most_the_per_tick_budget_and_the_rest_run_next_tick():
    queue = BlockUpdates()
    for i in range(UPDATES_PER_TICK + 5):
        assert queue.schedule(i, 10, 0, "water", 3)
    assert not queue.schedule(0, 10, 0, "water", 9)  # one pending update per cell and kind
    assert queue.take_due(2) == []
    first = queue.take_due(3)
    assert len(first) == UPDATES_PER_TICK and unpack(first[0]) == (0, 10, 0, "water")
    assert [unpack(key) for key in queue.take_due(4)] == [(i, 10, 0, "water")
                                                          for i in range(UPDATES_PER_TICK, UPDATES_PER_TICK + 5)]


@given(st.integers(-30_000_000, 29_999_999), st.integers(0, 255), st.integers(-30_000_000, 29_999_999),
       st.sampled_from(KINDS))
def test_a_packed_update_unpacks_to_the_same_cell_and_kind_one_by_one_and_on_arrays(x, y, z, kind):
    key = pack(x, y, z, kind)
    assert unpack(key) == (x, y, z, kind)
    xs, ys, zs, codes = unpack_all(pack_all(np.array([x]), np.array([y]), np.array([z]), np.array([KINDS.index(kind)])))
    assert (int(xs[0]), int(ys[0]), int(zs[0]), KINDS[int(codes[0])]) == (x, y, z, kind)
    assert int(pack_all(np.array([x]), np.array([y]), np.array([z]), np.array([KINDS.index(kind)]))[0]) == key


@pytest.mark.parametrize("rows", [
    "not a list", [[0, 10, 0, "water", 5]], [[0, 10, 0, "steam", 5, 0]], [[0, 300, 0, "water", 5, 0]],
    [[0, 10, 0, "water", -1, 0]], [[0.5, 10, 0, "water", 5, 0]], [[True, 10, 0, "water", 5, 0]],
])
def test_saved_block_update_rows_that_are_not_what_a_save_writes_are_refused(rows):
    with pytest.raises(ValueError):
        check_rows(rows)


def test_schedule_refuses_a_bad_delay_and_queues_nothing_for_a_block_without_a_rule(world):
    flat_floor(world, reach=1)
    with pytest.raises(ValueError):
        world.schedule(0, FLOOR_Y, 0, 0)
    assert world.schedule(0, FLOOR_Y, 0, 5) is False  # stone has no scheduled rule
    world.set_block(0, Y, 0, "sand")
    assert world.schedule(0, Y, 0, 5) is False  # already pending: placing it scheduled it


def test_the_world_reports_fluid_materials_and_a_current_toward_lower_water_for_physics(world):
    flat_floor(world)
    world.set_block(0, Y, 0, "water")
    run(world, 60)
    assert world.material(0, Y, 0) is Material.WATER and world.material(0, FLOOR_Y, 0) is Material.SOLID
    assert world.material(0, Y + 1, 0) is Material.AIR
    assert world.flow(0, Y, 0) == (0.0, 0.0, 0.0)  # the source: levels even all around
    assert world.flow(3, Y, 0) == (1.0, 0.0, 0.0)  # flowing east, away from the source
    found = world.materials_in(-1, Y - 1, 0, 1, Y, 0)
    assert list(found) == [(-1, FLOOR_Y, 0), (-1, Y, 0), (0, FLOOR_Y, 0), (0, Y, 0), (1, FLOOR_Y, 0), (1, Y, 0)]
    assert found[(0, Y, 0)] is Material.WATER


class DenseBlocks:
    """A small box of block ids (air outside) that the fluid rules can read: a fluids.BlockAccess."""

    def __init__(self, ids):
        self.ids = ids

    def id_at(self, x, y, z):
        inside = all(0 <= v < n for v, n in zip((x, y, z), self.ids.shape))
        return int(self.ids[x, y, z]) if inside else 0

    def ids_in_box(self, x0, y0, z0, x1, y1, z1):
        out = np.zeros((x1 - x0, y1 - y0, z1 - z0), dtype=self.ids.dtype)
        for x in range(x0, x1):
            for y in range(y0, y1):
                for z in range(z0, z1):
                    out[x - x0, y - y0, z - z0] = self.id_at(x, y, z)
        return out


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_the_windowed_flow_search_chooses_the_same_directions_as_beta_s_cell_by_cell_search(data):
    palette = [block_id(n) for n in ("air", "air", "stone", "stone", "water", "water_3", "lava", "ladder_north",
                                     "torch", "glass")]
    size = 13
    floor = data.draw(st.lists(st.sampled_from(palette), min_size=size * size, max_size=size * size))
    layer = data.draw(st.lists(st.sampled_from(palette), min_size=size * size, max_size=size * size))
    ids = np.zeros((size, 2, size), dtype=np.uint16)
    ids[:, 0, :] = np.array(floor).reshape(size, size)
    ids[:, 1, :] = np.array(layer).reshape(size, size)
    world = DenseBlocks(ids)
    for fluid in (fluids.WATER, fluids.LAVA):
        assert fluid.flow_directions(world, 6, 1, 6) == fluid.flow_directions_reference(world, 6, 1, 6)


def test_the_lava_coin_comes_up_one_time_in_four_and_the_same_for_the_same_cell_and_tick(world):
    draws = [world.one_in_four(x, 30, z) for x in range(100) for z in range(100)]
    assert 2300 < sum(draws) < 2700
    assert draws == [world.one_in_four(x, 30, z) for x in range(100) for z in range(100)]
    world.tick()
    assert draws != [world.one_in_four(x, 30, z) for x in range(100) for z in range(100)]  # a new tick, new draws
