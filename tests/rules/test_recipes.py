"""Beta 1.7.3's recipe table: what it holds, Beta's result counts, and the rules a recipe obeys."""

from __future__ import annotations

import pytest

from game.rules.items import ITEM_NAMES, ItemStack
from game.rules.recipes import RECIPES, TABLE, Ingredient, ShapedRecipe, ShapelessRecipe

ANNOUNCED_BLOCK_ITEMS = {"crafting_table", "furnace", "chest", "wooden_door", "bed", "sapling", "iron_block",
                         "gold_block", "diamond_block", "wool", "clay", "sandstone", "brown_mushroom", "red_mushroom"}
"""The block items of survival's blocks, which the table's recipes make and use."""


def _recipes_for(result: str) -> list[ShapedRecipe]:
    return [r for r in RECIPES if r.result.item == result]


def test_every_row_of_the_table_is_a_recipe_of_existing_items_in_betas_order():
    assert ANNOUNCED_BLOCK_ITEMS <= set(ITEM_NAMES)
    assert len(RECIPES) == len(TABLE) == 53
    assert [(r.result.item, r.result.count, r.rows, r.key) for r in RECIPES] == [row[:4] for row in TABLE]


def test_no_two_recipes_are_the_same_pattern():
    assert len({(r.rows, r.key) for r in RECIPES}) == len(RECIPES)


def test_beta_has_no_shapeless_recipe_outside_its_dyes():
    assert not any(isinstance(r, ShapelessRecipe) for r in RECIPES)


@pytest.mark.parametrize(("result", "count"), [
    ("planks", 4), ("stick", 4), ("torch", 4), ("ladder", 2), ("fence", 2), ("stone_slab", 3),
    ("wooden_stairs", 4), ("bowl", 4), ("bread", 1), ("wooden_door", 1), ("bricks", 1), ("iron_ingot", 9),
    ("gold_ingot", 9), ("diamond", 9), ("golden_apple", 1), ("wooden_pickaxe", 1), ("diamond_sword", 1)])
def test_a_recipe_makes_betas_count(result, count):
    found = [r for r in TABLE if r[0] == result]
    assert found and {r[1] for r in found} == {count}


def test_torches_are_made_from_coal_or_charcoal_over_a_stick():
    assert {dict(r.key)["X"] for r in _recipes_for("torch")} == {"coal", "charcoal"}
    assert {r.rows for r in _recipes_for("torch")} == {("X", "#")}


def test_every_tool_of_every_tier_has_its_recipe_from_its_material_and_sticks():
    materials = {"wooden": "planks", "stone": "cobblestone", "iron": "iron_ingot", "golden": "gold_ingot",
                 "diamond": "diamond"}
    for prefix, material in materials.items():
        for tool in ("pickaxe", "shovel", "axe", "sword", "hoe"):
            (recipe,) = _recipes_for(f"{prefix}_{tool}")
            assert dict(recipe.key) == {"#": "stick", "X": material}


def test_the_pickaxe_axe_and_hoe_have_betas_patterns():
    assert _recipes_for("stone_pickaxe")[0].rows == ("XXX", " # ", " # ")
    assert _recipes_for("stone_axe")[0].rows == ("XX", "X#", " #")
    assert _recipes_for("stone_hoe")[0].rows == ("XX", " #", " #")
    assert _recipes_for("stone_shovel")[0].rows == ("X", "#", "#")
    assert _recipes_for("stone_sword")[0].rows == ("X", "X", "#")


def test_the_bed_and_the_golden_apple_follow_betas_table():
    bed = [r for r in TABLE if r[0] == "bed"]
    assert bed == [("bed", 1, ("###", "XXX"), (("#", "wool"), ("X", "planks")), "CraftingManager")]
    (apple,) = [r for r in TABLE if r[0] == "golden_apple"]
    assert dict(apple[3]) == {"#": "gold_block", "X": "apple"}


def test_a_block_ingredient_matches_any_damage_and_an_item_ingredient_only_damage_zero():
    (pickaxe,) = _recipes_for("wooden_pickaxe")
    assert set(pickaxe.cells) == {None, Ingredient("planks", None), Ingredient("stick", 0)}
    assert Ingredient("planks", None).accepts(ItemStack("planks", 1, 3))
    assert not Ingredient("stick", 0).accepts(ItemStack("stick", 1, 1))
    assert not Ingredient("stick", 0).accepts(ItemStack("planks"))


def test_a_shaped_recipes_cells_read_row_by_row():
    (stairs,) = _recipes_for("wooden_stairs")
    assert [c is not None for c in stairs.cells] == [True, False, False, True, True, False, True, True, True]
    assert (stairs.width, stairs.height) == (3, 3)


@pytest.mark.parametrize(("rows", "key"), [
    ((), {}), (("##", "#"), {"#": "stick"}), (("####",), {"#": "stick"}), (("#",) * 4, {"#": "stick"}),
    (("#X",), {"#": "stick"}), (("#",), {"#": "stick", "X": "coal"}), (("# ",), {"#": "stick"}),
    (("  ", "##"), {"#": "stick"}), (("#",), {"#": "sticks"})])
def test_a_malformed_shaped_recipe_is_refused(rows, key):
    with pytest.raises(ValueError):
        ShapedRecipe(ItemStack("torch"), rows, tuple(key.items()))


def test_a_malformed_shapeless_recipe_is_refused():
    with pytest.raises(ValueError):
        ShapelessRecipe(ItemStack("torch"), ())
    with pytest.raises(ValueError):
        ShapelessRecipe(ItemStack("torch"), (Ingredient("coal"),) * 10)
