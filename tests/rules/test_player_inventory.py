"""The survival inventory: Beta 1.7.3's 36 slots, how a stack is taken in, the held item's use and wear,
and the saved form refusing damaged saves."""

from __future__ import annotations

import pytest

from game.rules.items import ItemStack
from game.rules.player_inventory import SLOT_COUNT, PlayerInventory, PlayerInventoryStateError


def filled(**slots: ItemStack) -> PlayerInventory:
    """An inventory with `slots` given as s<index>=stack."""
    inventory = PlayerInventory()
    for key, stack in slots.items():
        inventory.set(int(key[1:]), stack)
    return inventory


def test_a_new_inventory_has_36_empty_slots_and_the_first_hotbar_slot_selected():
    inventory = PlayerInventory()
    assert inventory.slots == (None,) * SLOT_COUNT == (None,) * 36
    assert inventory.selected == 0 and inventory.held() is None


def test_a_picked_up_stack_goes_into_the_first_empty_slot_which_is_the_hotbars_first():
    inventory = PlayerInventory()
    assert inventory.add(ItemStack("dirt", 3)) == 3
    assert inventory.slots[0] == ItemStack("dirt", 3)


def test_a_stack_tops_up_a_slot_of_its_kind_before_taking_an_empty_slot():
    inventory = filled(s0=ItemStack("stone", 1), s5=ItemStack("dirt", 60))
    assert inventory.add(ItemStack("dirt", 10)) == 10
    assert inventory.slots[5] == ItemStack("dirt", 64)
    assert inventory.slots[1] == ItemStack("dirt", 6)  # the rest: the first empty slot


def test_a_slot_in_the_main_inventory_is_topped_up_only_after_the_hotbars_slots_of_that_kind():
    inventory = filled(s20=ItemStack("dirt", 10), s3=ItemStack("dirt", 63))
    inventory.add(ItemStack("dirt", 5))
    assert inventory.slots[3] == ItemStack("dirt", 64)
    assert inventory.slots[20] == ItemStack("dirt", 14)


def test_a_full_inventory_takes_only_what_fits_and_says_how_many():
    inventory = PlayerInventory([ItemStack("stone", 64)] * 35 + [ItemStack("dirt", 62)])
    assert inventory.add(ItemStack("dirt", 5)) == 2
    assert inventory.slots[35] == ItemStack("dirt", 64)
    assert inventory.add(ItemStack("dirt", 1)) == 0


def test_tools_never_stack_each_goes_into_its_own_empty_slot():
    inventory = filled(s0=ItemStack("wooden_pickaxe"))
    assert inventory.add(ItemStack("wooden_pickaxe")) == 1
    assert inventory.slots[1] == ItemStack("wooden_pickaxe")


def test_a_worn_tool_goes_whole_into_the_first_empty_slot_or_not_at_all():
    inventory = PlayerInventory([ItemStack("dirt", 64)] * 36)
    assert inventory.add(ItemStack("stone_axe", 1, 7)) == 0
    inventory.set(9, None)
    assert inventory.add(ItemStack("stone_axe", 1, 7)) == 1
    assert inventory.slots[9] == ItemStack("stone_axe", 1, 7)


def test_food_stacks_to_one_as_in_beta():
    inventory = PlayerInventory()
    assert inventory.add(ItemStack("apple")) == 1 and inventory.add(ItemStack("apple")) == 1
    assert inventory.slots[:2] == (ItemStack("apple"), ItemStack("apple"))


def test_taking_from_the_held_stack_leaves_the_rest_and_empties_the_slot_at_zero():
    inventory = filled(s2=ItemStack("torch", 2))
    inventory.select(2)
    assert inventory.take_held() == ItemStack("torch", 1)
    assert inventory.held() == ItemStack("torch", 1)
    assert inventory.take_held(5) == ItemStack("torch", 1)
    assert inventory.held() is None and inventory.take_held() is None


def test_a_wooden_pickaxe_breaks_on_its_sixtieth_use_when_its_damage_passes_59():
    inventory = filled(s0=ItemStack("wooden_pickaxe"))
    for _ in range(59):
        assert inventory.wear_held(1) is False
    assert inventory.held() == ItemStack("wooden_pickaxe", 1, 59)
    assert inventory.wear_held(1) is True
    assert inventory.held() is None


def test_wearing_an_item_without_durability_or_an_empty_hand_changes_nothing():
    inventory = filled(s0=ItemStack("dirt", 5))
    assert inventory.wear_held(2) is False and inventory.held() == ItemStack("dirt", 5)
    inventory.select(1)
    assert inventory.wear_held(1) is False


def test_selecting_and_scrolling_move_over_the_nine_hotbar_slots_only():
    inventory = PlayerInventory()
    inventory.select(8)
    inventory.scroll(1)
    assert inventory.selected == 0
    inventory.scroll(-2)
    assert inventory.selected == 7
    with pytest.raises(ValueError):
        inventory.select(9)
    with pytest.raises(TypeError):
        inventory.select(True)


def test_a_bad_slot_or_value_is_refused_and_changes_nothing():
    inventory = filled(s0=ItemStack("dirt", 5))
    with pytest.raises(ValueError):
        inventory.set(36, ItemStack("dirt"))
    with pytest.raises(TypeError):
        inventory.set(1, ("dirt", 1))
    with pytest.raises(TypeError):
        inventory.add("dirt")
    with pytest.raises(ValueError):
        inventory.take(0, 0)
    assert inventory.slots == filled(s0=ItemStack("dirt", 5)).slots


def test_death_empties_every_slot_and_returns_the_stacks_in_slot_order():
    inventory = filled(s30=ItemStack("coal", 3), s1=ItemStack("dirt", 5))
    assert inventory.drop_all() == (ItemStack("dirt", 5), ItemStack("coal", 3))
    assert inventory.slots == (None,) * 36


def test_the_report_lists_36_slots_hotbar_first_as_name_and_count():
    inventory = filled(s0=ItemStack("dirt", 5), s9=ItemStack("wooden_axe", 1, 3))
    report = inventory.report_slots()
    assert len(report) == 36 and report[0] == ["dirt", 5] and report[9] == ["wooden_axe", 1]
    assert report[1] is None


def test_the_saved_state_reads_back_to_the_same_inventory():
    inventory = filled(s0=ItemStack("dirt", 5), s35=ItemStack("iron_pickaxe", 1, 100))
    inventory.select(4)
    again = PlayerInventory.from_state(inventory.to_state())
    assert again.slots == inventory.slots and again.selected == 4


@pytest.mark.parametrize("state", [
    None, [], {"slots": [None] * 36}, {"slots": [None] * 35, "selected": 0},
    {"slots": [None] * 36, "selected": 9}, {"slots": [None] * 36, "selected": 0, "extra": 1},
    {"slots": [["dirt", 5]] + [None] * 35, "selected": 0},
    {"slots": [["no_such_item", 1, 0]] + [None] * 35, "selected": 0},
    {"slots": [["dirt", 0, 0]] + [None] * 35, "selected": 0},
    {"slots": [["dirt", 65, 0]] + [None] * 35, "selected": 0},
    {"slots": [["apple", 2, 0]] + [None] * 35, "selected": 0},
    {"slots": [["dirt", 1, 3]] + [None] * 35, "selected": 0},
    {"slots": [["wooden_pickaxe", 1, 60]] + [None] * 35, "selected": 0},
    {"slots": [["dirt", True, 0]] + [None] * 35, "selected": 0},
    {"slots": [["dirt", 1.0, 0]] + [None] * 35, "selected": 0},
])
def test_a_damaged_saved_inventory_is_refused_with_a_clear_error(state):
    with pytest.raises(PlayerInventoryStateError):
        PlayerInventory.from_state(state)


def test_a_hostile_saved_inventory_nested_deep_is_refused_without_a_recursion_error():
    deep: list = []
    for _ in range(10_000):
        deep = [deep]
    with pytest.raises(PlayerInventoryStateError):
        PlayerInventory.from_state({"slots": [deep] + [None] * 35, "selected": 0})
