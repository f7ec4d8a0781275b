"""What a furnace makes and burns: Beta 1.7.3's `FurnaceRecipes` and `getItemBurnTime` over Boxel's items."""

from __future__ import annotations

import pytest

from game.rules.items import ITEM_NAMES, ItemStack
from game.rules.smelting import FUEL_TICKS, SMELTING, fuel_ticks, smelt_result

BETA_RECIPES = {
    "iron_ore": "iron_ingot", "gold_ore": "gold_ingot", "diamond_ore": "diamond", "sand": "glass",
    "porkchop": "cooked_porkchop", "raw_fish": "cooked_fish", "cobblestone": "stone", "clay_ball": "brick",
    "log": "charcoal",
}
"""Beta 1.7.3's FurnaceRecipes for the items Boxel has (cactus -> green dye is left out: no dyes)."""


def test_iron_ore_smelts_into_one_iron_ingot():
    assert smelt_result("iron_ore") == ItemStack("iron_ingot", 1)


def test_every_smelting_recipe_is_betas_and_gives_one_item():
    assert dict(SMELTING) == BETA_RECIPES
    assert {item: smelt_result(item) for item in BETA_RECIPES} == {
        item: ItemStack(result) for item, result in BETA_RECIPES.items()}


def test_ores_that_drop_items_and_cooked_food_do_not_smelt():
    for item in ("coal_ore", "redstone_ore", "stone", "coal", "iron_ingot", "cooked_porkchop", "glass", "dirt"):
        assert smelt_result(item) is None, item


def test_coal_and_charcoal_burn_1600_ticks():
    assert fuel_ticks("coal") == fuel_ticks("charcoal") == 1600


def test_planks_logs_fences_and_wooden_stairs_burn_300_ticks():
    assert [fuel_ticks(item) for item in ("planks", "log", "fence", "wooden_stairs")] == [300] * 4


def test_a_stick_burns_100_ticks():
    assert fuel_ticks("stick") == 100


def test_a_sapling_burns_100_ticks_and_a_crafting_table_and_a_chest_300():
    assert (fuel_ticks("sapling"), fuel_ticks("crafting_table"), fuel_ticks("chest")) == (100, 300, 300)


def test_tools_doors_beds_ladders_slabs_and_torches_do_not_burn_as_in_beta():
    for item in ("wooden_pickaxe", "wooden_sword", "wooden_door", "bed", "ladder", "stone_slab", "torch", "bowl",
                 "leaves", "iron_ore", "cobblestone"):
        assert fuel_ticks(item) == 0, item


def test_every_item_in_the_tables_is_a_known_item():
    named = set(SMELTING) | set(SMELTING.values()) | set(FUEL_TICKS)
    assert named <= set(ITEM_NAMES), sorted(named - set(ITEM_NAMES))


def test_the_recipes_name_only_known_items():
    assert set(SMELTING) | set(SMELTING.values()) <= set(ITEM_NAMES)


def test_a_name_that_is_not_a_string_or_not_an_item_is_refused():
    for call in (smelt_result, fuel_ticks):
        with pytest.raises(TypeError):
            call(ItemStack("coal"))
        with pytest.raises(ValueError, match="unknown item"):
            call("coal_block")
