"""Furnaces and chests: Beta 1.7.3's `TileEntityFurnace.updateEntity`, its lit block, chests and the
double chest, and saving them with their columns (mid-smelt included)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from game.rules.block_entities import (FUEL, INPUT, OUTPUT, BlockEntities, BlockEntityStateError,
                                       Chest, Furnace, block_entity_from_state, block_entity_state, chest_opens)
from game.rules.items import ItemStack
from game.rules.saved_entities import BLOCK_ENTITY, is_mob_entry
from game.world import World

from ..game.hostile_values import ANY_FLOAT, json_values



class FakeWorld:
    """Just what `BlockEntities` asks of a world: blocks by cell (air elsewhere), every column loaded,
    and the column entity lists; `set_block` calls are recorded."""

    def __init__(self, blocks: dict | None = None) -> None:
        self.blocks = dict(blocks or {})
        self.sets: list[tuple] = []
        self.entities: dict[tuple[int, int], list[dict]] = {}

    def get_block(self, x, y, z):
        return self.blocks.get((x, y, z), "air")

    def set_block(self, x, y, z, name):
        self.sets.append((x, y, z, name))
        self.blocks[(x, y, z)] = name
        return ()

    def column_entities(self, cx, cz):
        return [dict(e) for e in self.entities.get((cx, cz), [])]

    def set_column_entities(self, cx, cz, entities):
        self.entities[(cx, cz)] = json.loads(json.dumps(entities))

    def entity_columns(self):
        return sorted(key for key, listed in self.entities.items() if listed)


def smelt(furnace: Furnace, ticks: int) -> Furnace:
    for _ in range(ticks):
        furnace = furnace.step()
    return furnace


def output_count(furnace: Furnace) -> int:
    return 0 if furnace.output is None else furnace.output.count


# --- the furnace ----------------------------------------------------------------------------------

def test_iron_ore_and_one_coal_give_8_ingots_in_1600_ticks_one_every_200_exactly():
    furnace = Furnace(input=ItemStack("iron_ore", 9), fuel=ItemStack("coal", 1))
    ingots_after = []
    for tick in range(1, 1601):
        before = output_count(furnace)
        furnace = furnace.step()
        if output_count(furnace) != before:
            ingots_after.append(tick)
    assert ingots_after == [200, 400, 600, 800, 1000, 1200, 1400, 1600]
    assert furnace.output == ItemStack("iron_ingot", 8) and furnace.input == ItemStack("iron_ore", 1)
    assert furnace.fuel is None and furnace.burn_time == 1 and furnace.lit
    furnace = furnace.step()  # the fire goes out with no fuel left: the 9th ore does not cook
    assert (furnace.burn_time, furnace.cook_time, furnace.lit) == (0, 0, False)


def test_the_first_tick_uses_one_coal_and_the_next_waits_until_the_fire_is_out():
    furnace = Furnace(input=ItemStack("iron_ore", 16), fuel=ItemStack("coal", 2)).step()
    assert (furnace.fuel, furnace.burn_time, furnace.current_item_burn_time, furnace.cook_time) == (
        ItemStack("coal", 1), 1600, 1600, 1)
    furnace = smelt(furnace, 1600)
    assert furnace.fuel is None and furnace.burn_time == 1600 and output_count(furnace) == 8


def test_planks_burn_300_ticks_cooking_one_item_and_the_half_cooked_one_starts_over():
    furnace = smelt(Furnace(input=ItemStack("cobblestone", 4), fuel=ItemStack("planks", 1)), 300)
    assert (furnace.output, furnace.burn_time, furnace.cook_time) == (ItemStack("stone", 1), 1, 100)
    furnace = furnace.step()
    assert (furnace.output, furnace.burn_time, furnace.cook_time, furnace.current_item_burn_time) == (
        ItemStack("stone", 1), 0, 0, 0)


def test_a_furnace_with_nothing_to_smelt_burns_no_fuel():
    for furnace in (Furnace(fuel=ItemStack("coal", 3)), Furnace(input=ItemStack("dirt"), fuel=ItemStack("coal", 3))):
        assert smelt(furnace, 50) == furnace


def test_a_full_output_stops_the_furnace_and_keeps_its_fuel():
    full = Furnace(input=ItemStack("iron_ore", 5), fuel=ItemStack("coal", 2), output=ItemStack("iron_ingot", 64))
    assert not full.can_smelt() and smelt(full, 10) == full


def test_cooked_porkchops_stack_to_one_so_the_second_waits_in_the_input():
    furnace = smelt(Furnace(input=ItemStack("porkchop", 1), fuel=ItemStack("coal")), 200)
    assert furnace.output == ItemStack("cooked_porkchop", 1)
    furnace = smelt(furnace.with_slot(INPUT, ItemStack("porkchop", 1)), 300)
    # the fire burns on, cooking nothing
    assert furnace.input == ItemStack("porkchop", 1) and furnace.cook_time == 0 and furnace.burn_time == 1101


def test_another_item_in_the_output_stops_the_furnace():
    furnace = Furnace(input=ItemStack("sand", 2), fuel=ItemStack("coal"), output=ItemStack("stone", 3))
    assert smelt(furnace, 300) == furnace


def test_a_log_smelts_into_charcoal_which_burns_as_coal():
    furnace = smelt(Furnace(input=ItemStack("log", 2), fuel=ItemStack("planks", 1)), 200)
    assert furnace.output == ItemStack("charcoal", 1)
    refuelled = smelt(Furnace(input=ItemStack("log", 1), fuel=furnace.output), 1)
    assert refuelled.burn_time == 1600


def test_the_flame_and_arrow_scales_are_betas():
    furnace = smelt(Furnace(input=ItemStack("iron_ore", 9), fuel=ItemStack("coal")), 100)
    assert (furnace.cook_progress(24), furnace.burn_left(12)) == (100 * 24 // 200, 1501 * 12 // 1600)
    assert Furnace().burn_left(12) == 0


def test_a_furnace_refuses_bad_values():
    with pytest.raises(ValueError):
        Furnace(cook_time=200)
    with pytest.raises(TypeError):
        Furnace(input="iron_ore")
    with pytest.raises(ValueError):
        Furnace().with_slot(3, None)


# --- furnaces in a world --------------------------------------------------------------------------

def test_a_furnace_block_turns_lit_when_it_catches_and_back_when_its_fuel_is_spent():
    cell = (3, 70, -2)
    world = FakeWorld({cell: "furnace_east"})
    entities = BlockEntities(world)
    entities.set_slot(cell, INPUT, ItemStack("cobblestone", 1))
    entities.set_slot(cell, FUEL, ItemStack("stick", 1))
    entities.tick()
    assert world.sets == [(*cell, "lit_furnace_east")]
    for _ in range(99):
        entities.tick()
    assert world.sets == [(*cell, "lit_furnace_east")] and entities.furnace(cell).burn_time == 1
    entities.tick()
    assert world.sets[-1] == (*cell, "furnace_east") and len(world.sets) == 2
    assert entities.furnace(cell).slots == (ItemStack("cobblestone", 1), None, None)  # 100 ticks: not cooked


def test_the_lit_swap_keeps_what_the_furnace_holds():
    cell = (0, 64, 0)
    world = FakeWorld({cell: "furnace_north"})
    entities = BlockEntities(world)
    entities.on_block_placed(cell, "furnace_north")
    entities.set_slot(cell, INPUT, ItemStack("iron_ore", 3))
    entities.set_slot(cell, FUEL, ItemStack("coal", 1))
    entities.tick()
    entities.on_block_placed(cell, "lit_furnace_north")  # a session that reports every placed block
    assert entities.furnace(cell).input == ItemStack("iron_ore", 3) and entities.furnace(cell).lit


def test_breaking_a_furnace_returns_its_stacks_in_slot_order_and_forgets_it():
    cell = (0, 64, 0)
    entities = BlockEntities(FakeWorld())
    entities.on_block_placed(cell, "furnace_south")
    entities.set_slot(cell, OUTPUT, ItemStack("glass", 2))
    entities.set_slot(cell, INPUT, ItemStack("sand", 5))
    assert entities.on_block_removed(cell) == (ItemStack("sand", 5), ItemStack("glass", 2))
    assert entities.furnace(cell) is None and len(entities) == 0 and entities.on_block_removed(cell) == ()


def test_placing_a_chest_where_a_furnace_still_is_is_refused():
    entities = BlockEntities(FakeWorld())
    entities.on_block_placed((0, 64, 0), "furnace_west")
    with pytest.raises(ValueError, match="on_block_removed"):
        entities.on_block_placed((0, 64, 0), "chest")
    assert entities.furnace((0, 64, 0)) == Furnace()


def test_other_blocks_get_no_block_entity():
    entities = BlockEntities(FakeWorld({(1, 2, 3): "stone"}))
    entities.on_block_placed((1, 2, 3), "stone")
    assert entities.get((1, 2, 3)) is None and len(entities) == 0
    with pytest.raises(ValueError, match="no furnace or chest"):
        entities.slots((1, 2, 3))


# --- chests ---------------------------------------------------------------------------------------

def test_a_chest_has_27_empty_slots_made_when_first_asked_for():
    entities = BlockEntities(FakeWorld({(5, 64, 5): "chest"}))
    assert entities.chest_slots((5, 64, 5)) == (None,) * 27 and entities.chest((5, 64, 5)) == Chest()


def test_two_chests_side_by_side_on_x_open_as_54_slots_the_lower_x_chest_first():
    west, east = (4, 64, 5), (5, 64, 5)
    entities = BlockEntities(FakeWorld({west: "chest", east: "chest"}))
    entities.set_slot(west, 0, ItemStack("dirt", 1))
    entities.set_slot(east, 27, ItemStack("sand", 2))  # an index into the 54: the east half's first
    assert entities.chest(east).slots[0] == ItemStack("sand", 2)
    for cell in (west, east):
        slots = entities.chest_slots(cell)
        assert len(slots) == 54 and slots[0] == ItemStack("dirt", 1) and slots[27] == ItemStack("sand", 2)
        assert entities.chest_cells(cell) == (west, east)


def test_two_chests_side_by_side_on_z_put_the_lower_z_chest_first():
    north, south = (0, 64, -1), (0, 64, 0)
    entities = BlockEntities(FakeWorld({north: "chest", south: "chest"}))
    assert entities.chest_cells(south) == entities.chest_cells(north) == (north, south)


def test_a_double_chest_slot_index_picks_its_half():
    west, east = (4, 64, 5), (5, 64, 5)
    entities = BlockEntities(FakeWorld({west: "chest", east: "chest"}))
    entities.set_slot(east, 3, ItemStack("cobblestone", 64))  # from either chest: the west half's 4th
    entities.set_slot(west, 30, ItemStack("dirt", 2))  # the east half's 4th
    assert entities.chest(west) == Chest().with_slot(3, ItemStack("cobblestone", 64))
    assert entities.chest(east) == Chest().with_slot(3, ItemStack("dirt", 2))
    with pytest.raises(ValueError):
        entities.set_slot(east, 54, None)


def test_a_chest_between_two_chests_pairs_with_the_first_in_betas_order_so_no_view_passes_54():
    row = [(x, 64, 0) for x in range(3)]  # Beta's placement never builds this; an edited world may hold it
    entities = BlockEntities(FakeWorld({cell: "chest" for cell in row + [(1, 64, 1)]}))
    assert entities.chest_cells(row[1]) == (row[0], row[1]) and len(entities.chest_slots(row[1])) == 54
    assert entities.chest_cells(row[2]) == (row[1], row[2])


def test_a_chest_under_an_opaque_cube_does_not_open_nor_does_its_double():
    world = FakeWorld({(0, 64, 0): "chest", (1, 64, 0): "chest", (1, 65, 0): "glass"})
    assert chest_opens(world, (0, 64, 0))
    world.blocks[(1, 65, 0)] = "stone"
    assert not chest_opens(world, (0, 64, 0)) and not chest_opens(world, (1, 64, 0))


def test_breaking_a_chest_returns_its_stacks_and_leaves_the_other_half():
    west, east = (4, 64, 5), (5, 64, 5)
    world = FakeWorld({west: "chest", east: "chest"})
    entities = BlockEntities(world)
    entities.set_slot(west, 26, ItemStack("dirt", 3))
    entities.set_slot(east, 27, ItemStack("sand", 1))
    assert entities.on_block_removed(east) == (ItemStack("sand", 1),)
    del world.blocks[east]
    assert entities.chest_slots(west)[26] == ItemStack("dirt", 3) and len(entities.chest_slots(west)) == 27


def test_bad_slot_input_is_refused_and_changes_nothing():
    entities = BlockEntities(FakeWorld({(0, 64, 0): "chest"}))
    for cell, index, stack, error in (((0, 64, 0), 0, "dirt", TypeError), ((0, 64, 0), -1, None, ValueError),
                                      ((0, 64, 0), True, None, TypeError), ((0, 64), 0, None, TypeError),
                                      ((0, 300, 0), 0, None, ValueError), ((9, 64, 9), 0, None, ValueError)):
        with pytest.raises(error):
            entities.set_slot(cell, index, stack)
    assert entities.chest((0, 64, 0)) == Chest()


# --- saving ---------------------------------------------------------------------------------------

def test_a_saved_furnace_and_chest_read_back_exactly():
    furnace = Furnace(ItemStack("iron_ore", 3), ItemStack("coal", 1), ItemStack("iron_ingot", 2), 1234, 1600, 57)
    chest = Chest().with_slot(26, ItemStack("wooden_pickaxe", 1, 17))
    for cell, entity in (((-7, 12, 40), furnace), ((1, 255, -30_000_000), chest)):
        state = json.loads(json.dumps(block_entity_state(cell, entity, 9)))
        saved = block_entity_from_state(state)
        assert (saved.cell, saved.entity, saved.serial) == (cell, entity, 9)


def test_block_entities_are_saved_with_their_columns_beside_the_mobs_entries():
    world = FakeWorld()
    mob = {"kind": "boxling", "box": [0, 0, 0, 1, 1, 1]}
    world.set_column_entities(0, 0, [mob])
    entities = BlockEntities(world)
    entities.on_block_placed((1, 64, 1), "chest")
    entities.on_block_placed((17, 64, 1), "furnace_north")
    entities.save()
    assert world.column_entities(0, 0)[0] == mob and [e["kind"] for e in world.column_entities(0, 0)] == [
        "boxling", BLOCK_ENTITY]
    assert not is_mob_entry(world.column_entities(1, 0)[0])
    entities.on_block_removed((17, 64, 1))
    entities.save()
    assert world.column_entities(1, 0) == [] and len(world.column_entities(0, 0)) == 2


def test_save_and_reopen_mid_smelt_keeps_cook_time_and_burn_time_and_smelts_on_exactly(tmp_path):
    cell = (2, 100, 3)
    path = tmp_path / "furnace.boxel"
    with World.create(path, 5, workers=1) as world:
        world.get_block(*cell)  # its column is loaded, as where a player is
        entities = BlockEntities(world)
        entities.on_block_placed(cell, "furnace_north")
        entities.set_slot(cell, INPUT, ItemStack("iron_ore", 8))
        entities.set_slot(cell, FUEL, ItemStack("coal", 1))
        for _ in range(450):
            entities.tick()
        mid = entities.furnace(cell)
        entities.save()
        world.save()
    assert (mid.burn_time, mid.cook_time, output_count(mid)) == (1151, 50, 2)
    with World.open(path, workers=1) as world:
        reopened = BlockEntities(world)
        assert reopened.furnace(cell) == mid
        world.get_block(*cell)
        for _ in range(1150):
            reopened.tick()
        assert reopened.furnace(cell).output == ItemStack("iron_ingot", 8)


def test_a_furnace_in_an_unloaded_column_does_not_tick(tmp_path):
    far = (16 * 400 + 3, 100, 5)
    with World.create(tmp_path / "far.boxel", 5, workers=1) as world:
        entities = BlockEntities(world)
        entities.on_block_placed(far, "furnace_north")
        entities.set_slot(far, INPUT, ItemStack("sand", 2))
        entities.set_slot(far, FUEL, ItemStack("coal", 1))
        assert not world.is_loaded(400, 0)
        for _ in range(300):
            entities.tick()
        assert entities.furnace(far).burn_time == 0 and not world.is_loaded(400, 0)
        world.get_block(*far)  # the column is loaded: the furnace burns from the next tick on
        for _ in range(200):
            entities.tick()
        assert entities.furnace(far).output == ItemStack("glass", 1)


def test_a_saved_entry_that_cannot_be_used_is_kept_with_a_warning_and_the_others_come_back():
    world = FakeWorld()
    good = block_entity_state((1, 64, 1), Chest().with_slot(0, ItemStack("dirt", 5)), 0)
    bad = {**good, "cell": [1, 64, "x"]}
    wrong_column = block_entity_state((40, 64, 1), Chest(), 1)
    world.set_column_entities(0, 0, [bad, good, wrong_column])
    with pytest.warns(UserWarning, match="cannot be used"):
        entities = BlockEntities(world)
    assert entities.cells() == ((1, 64, 1),) and entities.chest((1, 64, 1)).slots[0] == ItemStack("dirt", 5)
    entities.on_block_placed((2, 64, 2), "chest")
    entities.save()
    kept = world.column_entities(0, 0)
    assert kept[:2] == [bad, wrong_column] and len(kept) == 4


def test_a_second_saved_entry_for_the_same_cell_is_dropped_with_a_warning():
    world = FakeWorld()
    first = block_entity_state((1, 64, 1), Chest().with_slot(0, ItemStack("dirt")), 0)
    world.set_column_entities(0, 0, [first, block_entity_state((1, 64, 1), Chest(), 1)])
    with pytest.warns(UserWarning, match="repeats"):
        entities = BlockEntities(world)
    assert entities.chest((1, 64, 1)) == Chest().with_slot(0, ItemStack("dirt"))
    entities.save()
    assert world.column_entities(0, 0) == [first]


@pytest.mark.parametrize("field, value", [
    ("kind", "chest"), ("version", 2), ("type", "hopper"), ("cell", [1, 64]), ("cell", [1, 256, 1]),
    ("cell", [True, 64, 1]), ("serial", -1), ("slots", [None] * 2), ("burn_time", 40_000), ("cook_time", 200),
    ("current_item_burn_time", 1.5), ("slots", [["iron_ore", 65, 0], None, None]),
    ("slots", [["unobtainium", 1, 0], None, None]), ("slots", [["coal", 1], None, None]),
])
def test_a_saved_furnace_out_of_type_or_range_is_refused_naming_the_field(field, value):
    state = {**block_entity_state((0, 64, 0), Furnace(), 0), field: value}
    with pytest.raises(BlockEntityStateError, match=field if field not in ("kind", "version") else "kind"):
        block_entity_from_state(state)


VALID_FURNACE = block_entity_state((0, 64, 0), Furnace(ItemStack("sand", 2), ItemStack("coal"), None, 5, 1600, 7), 3)


@settings(max_examples=300, deadline=None)
@given(st.one_of(
    st.tuples(st.dictionaries(st.sampled_from(sorted(VALID_FURNACE) + ["extra"]),
                              st.one_of(json_values(), st.lists(ANY_FLOAT, min_size=3, max_size=6)), max_size=3),
              st.sets(st.sampled_from(sorted(VALID_FURNACE)), max_size=2)).map(
        lambda c: {k: v for k, v in {**VALID_FURNACE, **c[0]}.items() if k not in c[1]}),
    json_values()))
def test_any_damaged_saved_block_entity_reads_back_or_is_refused_with_its_own_error(state):
    try:
        saved = block_entity_from_state(state)
    except BlockEntityStateError:
        return
    assert block_entity_state(saved.cell, saved.entity, saved.serial)


def test_a_block_entity_nested_too_deeply_or_with_a_huge_number_is_refused_with_its_own_error():
    nested: object = []
    for _ in range(100_000):
        nested = [nested]
    for state in ({**VALID_FURNACE, "slots": nested}, {**VALID_FURNACE, "burn_time": 10 ** 400},
                  {**VALID_FURNACE, "slots": [["coal", 10 ** 400, 0], None, None]}):
        with pytest.raises(BlockEntityStateError):
            block_entity_from_state(state)


def test_a_furnace_in_a_real_world_lights_its_block_and_keeps_its_facing(tmp_path):
    cell = (2, 100, 3)
    with World.create(tmp_path / "lit.boxel", 5, workers=1) as world:
        world.set_block(*cell, "furnace_west")
        entities = BlockEntities(world)
        entities.set_slot(cell, INPUT, ItemStack("cobblestone", 1))
        entities.set_slot(cell, FUEL, ItemStack("stick", 1))
        entities.tick()
        assert world.get_block(*cell) == "lit_furnace_west"
        for _ in range(100):
            entities.tick()
        assert world.get_block(*cell) == "furnace_west" and entities.furnace(cell).input == ItemStack("cobblestone")


def test_a_furnace_screens_store_sees_the_furnace_cook_and_writes_into_it():
    cell = (0, 64, 0)
    entities = BlockEntities(FakeWorld({cell: "furnace_north"}))
    store = entities.store(cell)
    store.set(INPUT, ItemStack("sand", 2))
    store.set(FUEL, ItemStack("coal", 1))
    for _ in range(200):
        entities.tick()
    assert len(store) == 3 and store.get(OUTPUT) == ItemStack("glass", 1) and store.get(INPUT) == ItemStack("sand")
    store.set(OUTPUT, None)  # the player took the glass
    assert entities.furnace(cell).output is None and store.valid


def test_a_chest_store_is_no_longer_valid_once_its_double_is_broken():
    west, east = (4, 64, 5), (5, 64, 5)
    world = FakeWorld({west: "chest", east: "chest"})
    entities = BlockEntities(world)
    store = entities.store(east)
    store.set(0, ItemStack("dirt", 7))
    assert len(store) == 54 and entities.chest(west).slots[0] == ItemStack("dirt", 7) and store.valid
    entities.on_block_removed(west)
    del world.blocks[west]
    assert not store.valid
    with pytest.raises(ValueError):
        store.get(54)
