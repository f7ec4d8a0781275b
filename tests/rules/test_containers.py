"""The survival screens' clicks, headless: Beta 1.7.3's `Container.slotClick` (left and right clicks,
shift-click per container, the crafting result, the furnace output, clicks outside, closing)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules.containers import (OUTSIDE, CraftingGrid, ListStore, chest_screen, crafting_table_screen,
                                   furnace_screen, inventory_screen)
from game.rules.items import ItemStack
from game.rules.player_inventory import PlayerInventory

LOG, PLANKS = ItemStack("log"), ItemStack("planks", 4)


def logs_to_planks(rows):
    """A one-recipe stand-in for `game.rules.crafting.craft`: any single log anywhere gives 4 planks."""
    stacks = [s for row in rows for s in row if s is not None]
    return PLANKS if len(stacks) == 1 and stacks[0].item == "log" else None


def screen_with(**player_slots: ItemStack):
    """The inventory screen over an inventory with player slots p<index>=stack."""
    inventory = PlayerInventory()
    for key, stack in player_slots.items():
        inventory.set(int(key[1:]), stack)
    return inventory, inventory_screen(inventory, logs_to_planks)


# Screen slot numbers of the inventory screen (Beta's ContainerPlayer).
RESULT, GRID, MAIN, HOTBAR = 0, 1, 9, 36


def test_the_inventory_screen_has_beta_45_slots_with_the_hotbar_last():
    inventory, screen = screen_with(p0=ItemStack("dirt", 5), p9=ItemStack("stone", 2))
    assert len(screen) == 45
    assert screen.stack(HOTBAR) == ItemStack("dirt", 5)
    assert screen.stack(MAIN) == ItemStack("stone", 2)


def test_a_left_click_picks_up_a_whole_stack_and_a_second_places_it():
    inventory, screen = screen_with(p0=ItemStack("dirt", 5))
    screen.click(HOTBAR, "left")
    assert screen.cursor == ItemStack("dirt", 5) and inventory.slots[0] is None
    screen.click(MAIN + 3, "left")
    assert screen.cursor is None and inventory.slots[12] == ItemStack("dirt", 5)


def test_a_right_click_picks_up_the_larger_half_as_beta_rounds_up():
    inventory, screen = screen_with(p0=ItemStack("dirt", 5))
    screen.click(HOTBAR, "right")
    assert screen.cursor == ItemStack("dirt", 3) and inventory.slots[0] == ItemStack("dirt", 2)


def test_a_right_click_places_one_item_in_an_empty_slot_and_on_a_stack_of_its_kind():
    inventory, screen = screen_with(p0=ItemStack("dirt", 5), p1=ItemStack("dirt", 1))
    screen.click(HOTBAR, "left")
    screen.click(HOTBAR + 2, "right")
    screen.click(HOTBAR + 1, "right")
    assert inventory.slots[2] == ItemStack("dirt", 1) and inventory.slots[1] == ItemStack("dirt", 2)
    assert screen.cursor == ItemStack("dirt", 3)


def test_a_left_click_merges_into_a_stack_of_its_kind_up_to_64_and_keeps_the_rest():
    inventory, screen = screen_with(p0=ItemStack("dirt", 40), p1=ItemStack("dirt", 40))
    screen.click(HOTBAR, "left")
    screen.click(HOTBAR + 1, "left")
    assert inventory.slots[1] == ItemStack("dirt", 64) and screen.cursor == ItemStack("dirt", 16)


def test_a_left_click_with_a_different_item_swaps_the_cursor_and_the_slot():
    inventory, screen = screen_with(p0=ItemStack("dirt", 4), p1=ItemStack("stone", 7))
    screen.click(HOTBAR, "left")
    screen.click(HOTBAR + 1, "left")
    assert inventory.slots[1] == ItemStack("dirt", 4) and screen.cursor == ItemStack("stone", 7)


def test_two_tools_swap_rather_than_stack():
    inventory, screen = screen_with(p0=ItemStack("wooden_axe"), p1=ItemStack("wooden_axe", 1, 5))
    screen.click(HOTBAR, "left")
    screen.click(HOTBAR + 1, "left")
    assert inventory.slots[1] == ItemStack("wooden_axe") and screen.cursor == ItemStack("wooden_axe", 1, 5)


def test_the_crafting_result_shows_the_grids_recipe_and_a_take_uses_one_of_each_ingredient():
    inventory, screen = screen_with(p0=ItemStack("log", 3))
    screen.click(HOTBAR, "left")
    screen.click(GRID, "left")
    assert screen.stack(RESULT) == PLANKS
    screen.click(RESULT, "right")  # right takes the whole result too (InventoryCraftResult)
    assert screen.cursor == PLANKS and screen.stack(GRID) == ItemStack("log", 2)
    screen.click(RESULT, "left")  # the same item on the cursor: added while it fits
    assert screen.cursor == ItemStack("planks", 8) and screen.stack(GRID) == ItemStack("log", 1)


def test_a_result_that_would_overflow_the_cursor_is_not_taken():
    inventory, screen = screen_with(p0=ItemStack("log", 1), p1=ItemStack("planks", 62))
    screen.click(HOTBAR, "left")
    screen.click(GRID + 2, "left")
    screen.click(HOTBAR + 1, "left")
    screen.click(RESULT, "left")
    assert screen.cursor == ItemStack("planks", 62) and screen.stack(GRID + 2) == LOG


def test_nothing_can_be_put_in_the_result_or_the_armour_slots():
    inventory, screen = screen_with(p0=ItemStack("dirt", 5))
    screen.click(HOTBAR, "left")
    screen.click(RESULT, "left")
    screen.click(5, "left")
    assert screen.cursor == ItemStack("dirt", 5) and screen.stack(5) is None


def test_shift_clicking_the_result_crafts_once_into_the_inventory_from_the_hotbars_end():
    inventory, screen = screen_with(p0=ItemStack("log", 2))
    screen.click(HOTBAR, "left")
    screen.click(GRID, "left")
    screen.click(RESULT, "left", shift=True)
    assert inventory.slots[8] == PLANKS  # Beta merges the result backwards from slot 44
    assert screen.stack(GRID) == ItemStack("log", 1) and screen.stack(RESULT) == PLANKS


def test_shift_click_moves_a_main_stack_to_the_hotbar_and_a_hotbar_stack_to_the_main_rows():
    inventory, screen = screen_with(p9=ItemStack("dirt", 5), p3=ItemStack("dirt", 62), p1=ItemStack("stone", 1))
    screen.click(MAIN, "left", shift=True)
    assert inventory.slots[3] == ItemStack("dirt", 64) and inventory.slots[0] == ItemStack("dirt", 3)
    screen.click(HOTBAR + 1, "left", shift=True)
    assert inventory.slots[9] == ItemStack("stone", 1) and inventory.slots[1] is None


def test_shift_click_from_the_grid_goes_to_the_first_room_in_the_main_rows_then_hotbar():
    inventory, screen = screen_with(p0=ItemStack("dirt", 5))
    screen.click(HOTBAR, "left")
    screen.click(GRID + 3, "left")
    screen.click(GRID + 3, "left", shift=True)
    assert inventory.slots[9] == ItemStack("dirt", 5) and screen.stack(GRID + 3) is None


def test_a_click_outside_throws_the_cursor_stack_or_one_item_with_the_right_button():
    inventory, screen = screen_with(p0=ItemStack("dirt", 5))
    screen.click(HOTBAR, "left")
    assert screen.click(OUTSIDE, "right") == (ItemStack("dirt", 1),)
    assert screen.click(OUTSIDE, "left") == (ItemStack("dirt", 4),)
    assert screen.cursor is None and screen.click(OUTSIDE, "left") == ()


def test_closing_returns_the_cursor_then_the_grid_stacks_to_drop_and_empties_them():
    inventory, screen = screen_with(p0=ItemStack("dirt", 5), p1=ItemStack("log", 1))
    screen.click(HOTBAR + 1, "left")
    screen.click(GRID + 1, "left")
    screen.click(HOTBAR, "left")
    assert screen.close() == (ItemStack("dirt", 5), LOG)
    assert screen.cursor is None and screen.stacks()[:5] == (None,) * 5


def test_the_crafting_table_has_a_3x3_grid_and_beta_46_slots():
    inventory = PlayerInventory()
    inventory.set(0, ItemStack("log", 1))
    screen = crafting_table_screen(inventory, logs_to_planks)
    assert len(screen) == 46 and screen.stack(37) == LOG
    screen.click(37, "left")
    screen.click(9, "left")  # the grid's bottom-right cell
    assert screen.grid.rows()[2][2] == LOG and screen.stack(0) == PLANKS


def test_a_chest_shift_click_moves_chest_stacks_to_the_player_from_the_hotbars_end_and_back():
    inventory = PlayerInventory()
    chest = ListStore([ItemStack("coal", 10)] + [None] * 26)
    screen = chest_screen(inventory, chest)
    assert len(screen) == 63
    screen.click(0, "left", shift=True)
    assert inventory.slots[8] == ItemStack("coal", 10) and chest.get(0) is None
    screen.click(27 + 27 + 8, "left", shift=True)
    assert chest.get(0) == ItemStack("coal", 10) and inventory.slots[8] is None


def test_a_double_chest_has_54_slots_and_an_odd_size_is_refused():
    assert len(chest_screen(PlayerInventory(), ListStore(54))) == 90
    with pytest.raises(ValueError):
        chest_screen(PlayerInventory(), ListStore(9))


def test_furnace_output_is_take_only_and_beta_shift_click_never_fills_the_furnace():
    inventory = PlayerInventory()
    inventory.set(9, ItemStack("iron_ore", 3))
    furnace = ListStore([None, None, ItemStack("iron_ingot", 5)])
    screen = furnace_screen(inventory, furnace)
    assert len(screen) == 39
    screen.click(3, "left", shift=True)  # main row -> hotbar, not the furnace's input
    assert inventory.slots[0] == ItemStack("iron_ore", 3) and furnace.get(0) is None
    screen.click(2, "right")  # the output splits as a plain slot
    assert screen.cursor == ItemStack("iron_ingot", 3) and furnace.get(2) == ItemStack("iron_ingot", 2)
    screen.click(2, "left")  # same item: taken onto the cursor, not put back
    assert screen.cursor == ItemStack("iron_ingot", 5) and furnace.get(2) is None
    screen.click(2, "left")
    assert furnace.get(2) is None


def test_the_furnace_input_and_fuel_take_stacks_as_plain_slots():
    inventory = PlayerInventory()
    inventory.set(0, ItemStack("coal", 4))
    furnace = ListStore(3)
    screen = furnace_screen(inventory, furnace)
    screen.click(30, "left")
    screen.click(1, "left")
    assert furnace.get(1) == ItemStack("coal", 4)


def test_a_bad_click_is_refused_and_changes_nothing():
    inventory, screen = screen_with(p0=ItemStack("dirt", 5))
    for slot, button, shift in ((45, "left", False), (-1, "left", False), (0, "middle", False),
                                (36, "left", 1), (True, "left", False)):
        with pytest.raises((TypeError, ValueError)):
            screen.click(slot, button, shift)
    assert inventory.slots[0] == ItemStack("dirt", 5) and screen.cursor is None


def test_a_grid_is_two_or_three_wide():
    with pytest.raises(ValueError):
        CraftingGrid(4, logs_to_planks)


def test_the_inventory_screen_crafts_with_betas_recipes_by_default():
    inventory = PlayerInventory()
    inventory.set(0, ItemStack("log", 1))
    screen = inventory_screen(inventory)
    screen.click(36, "left")
    screen.click(4, "left")  # the 2x2 grid's bottom-right cell
    assert screen.stack(0) == PLANKS
    screen.click(0, "left", shift=True)
    assert inventory.slots[8] == PLANKS and screen.stack(4) is None and screen.stack(0) is None


ITEMS = ("dirt", "cobblestone", "apple", "stone_axe", "torch")
_stacks = st.one_of(st.none(), st.builds(
    lambda item, count: ItemStack(item, min(count, 1 if item in ("apple", "stone_axe") else 64)),
    st.sampled_from(ITEMS), st.integers(1, 64)))


def totals(stacks) -> dict[str, int]:
    counts: dict[str, int] = {}
    for stack in stacks:
        if stack is not None:
            counts[stack.item] = counts.get(stack.item, 0) + stack.count
    return counts


@settings(max_examples=150, deadline=None)
@given(player=st.lists(_stacks, min_size=36, max_size=36), chest=st.lists(_stacks, min_size=27, max_size=27),
       clicks=st.lists(st.tuples(st.one_of(st.integers(0, 62), st.just(OUTSIDE)), st.sampled_from(("left", "right")),
                                 st.booleans()), max_size=40))
def test_chest_clicks_never_make_or_lose_items_and_keep_every_stack_within_its_size(player, chest, clicks):
    inventory, store = PlayerInventory(player), ListStore(chest)
    screen = chest_screen(inventory, store)
    before = totals([*player, *chest])
    thrown = []
    for slot, button, shift in clicks:
        thrown.extend(screen.click(slot, button, shift))
    after = [*inventory.slots, *store.stacks, screen.cursor, *thrown]
    assert totals(after) == before
    for stack in [*inventory.slots, *store.stacks, screen.cursor]:
        assert stack is None or stack.count <= (1 if stack.item in ("apple", "stone_axe") else 64)
