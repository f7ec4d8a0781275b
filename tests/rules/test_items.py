"""The item registry: names, Beta 1.7.3's stack sizes, durabilities, tool tiers, food and block items."""

from __future__ import annotations

import numpy as np
import pytest

from game.rules.hotbar import holdable
from game.rules.items import (BLOCK_ITEM_BY_ID, BLOCK_ITEM_NAMES, ITEM_NAMES, TOOL_NAMES, ItemSpec, ItemStack,
                              ToolTier, UnknownItemError, attack_damage, block_item, item_spec)
from game.world.blocks import NAMES, UnknownBlockError, block_id

API_ITEMS = ("stick", "coal", "charcoal", "iron_ingot", "gold_ingot", "diamond", "flint", "clay_ball", "brick",
             "seeds", "wheat", "string", "bowl", "apple", "bread", "mushroom_stew", "porkchop", "cooked_porkchop",
             "golden_apple", "raw_fish", "cooked_fish", "wooden_door", "bed",
             # block items of survival's blocks
             "crafting_table", "furnace", "chest", "sapling", "iron_block", "gold_block", "diamond_block", "wool",
             "clay", "sandstone", "brown_mushroom", "red_mushroom")


def test_every_item_the_survival_api_names_exists():
    tools = [f"{tier}_{kind}" for tier in ("wooden", "stone", "iron", "golden", "diamond")
             for kind in ("pickaxe", "shovel", "axe", "sword", "hoe")]
    for name in (*API_ITEMS, *tools):
        assert item_spec(name).name == name


def test_item_names_are_unique_lowercase_strings():
    assert len(set(ITEM_NAMES)) == len(ITEM_NAMES)
    assert all(name == name.lower() and " " not in name for name in ITEM_NAMES)


@pytest.mark.parametrize(("tier", "harvest", "uses", "efficiency", "damage"), [
    (ToolTier.WOOD, 0, 59, 2.0, 0), (ToolTier.STONE, 1, 131, 4.0, 1), (ToolTier.IRON, 2, 250, 6.0, 2),
    (ToolTier.DIAMOND, 3, 1561, 8.0, 3), (ToolTier.GOLD, 0, 32, 12.0, 0)])
def test_tool_tiers_are_betas_enum_tool_material(tier, harvest, uses, efficiency, damage):
    assert (tier.harvest_level, tier.max_uses, tier.damage) == (harvest, uses, damage)
    assert tier.efficiency.dtype == np.float32 and tier.efficiency == np.float32(efficiency)


def test_a_tool_stacks_to_one_and_lasts_its_tiers_max_uses():
    assert item_spec("wooden_pickaxe") == ItemSpec("wooden_pickaxe", 1, 59, "pickaxe", "wood")
    assert item_spec("golden_hoe") == ItemSpec("golden_hoe", 1, 32, "hoe", "gold")
    assert item_spec("diamond_sword").max_damage == 1561
    assert len(TOOL_NAMES) == 25
    for name in TOOL_NAMES:
        spec = item_spec(name)
        assert spec.max_stack == 1 and spec.max_damage == spec.tool_tier.max_uses and spec.places is None


@pytest.mark.parametrize(("food", "heal"), [("apple", 4), ("bread", 5), ("mushroom_stew", 10), ("porkchop", 3),
                                            ("cooked_porkchop", 8), ("golden_apple", 42), ("raw_fish", 2),
                                            ("cooked_fish", 5)])
def test_food_heals_betas_half_hearts_and_stacks_to_one_as_in_beta_1_7_3(food, heal):
    assert item_spec(food).heal == heal
    assert item_spec(food).max_stack == 1


def test_doors_and_beds_stack_to_one_and_materials_to_sixty_four():
    assert item_spec("wooden_door").max_stack == 1 and item_spec("bed").max_stack == 1
    for name in ("stick", "coal", "charcoal", "iron_ingot", "diamond", "flint", "clay_ball", "brick", "seeds",
                 "string", "bowl", "wheat"):
        assert item_spec(name).max_stack == 64 and item_spec(name).heal == 0 and item_spec(name).max_damage == 0


def test_every_placeable_block_has_a_block_item_that_places_a_block_of_its_family():
    for name in NAMES:
        item = block_item(name)
        assert (item is not None) == holdable(name)
        if item is not None:
            placed = item_spec(item).places
            assert block_item(placed) == item
            assert item_spec(item).max_stack in (1, 64)


def test_families_placed_in_several_forms_are_one_item_placing_the_held_form():
    assert {block_item(f"stairs_{f}") for f in ("north", "south", "east", "west")} == {"wooden_stairs"}
    assert item_spec("wooden_stairs").places == "stairs_north"
    assert {block_item(f"ladder_{f}") for f in ("north", "south", "east", "west")} == {"ladder"}
    assert item_spec("ladder").places == "ladder_north"
    assert block_item("stone_slab_top") == "stone_slab" and item_spec("stone_slab").places == "stone_slab"
    assert block_item("torch") == "torch"


def test_the_new_survival_blocks_are_one_item_per_family_when_the_registry_has_them():
    families = {"furnace": ("furnace_north", "lit_furnace_east"), "torch": ("wall_torch_west",),
                "wooden_door": ("door_lower_north_closed", "door_upper_west_open"),
                "bed": ("bed_foot_north", "bed_head_south"), "sapling": ("sapling_ready",)}
    for item, members in families.items():
        for member in members:
            if member in NAMES:
                assert block_item(member) == item
    for item, held in (("furnace", "furnace_north"), ("wooden_door", "door_lower_north_closed"),
                       ("bed", "bed_foot_north"), ("sapling", "sapling")):
        if held in NAMES:
            assert item_spec(item).places == held


def test_the_brick_block_is_the_bricks_item_and_the_clay_brick_is_brick():
    assert block_item("brick") == "bricks" and item_spec("bricks").places == "brick"
    assert item_spec("brick").places is None


def test_blocks_no_item_places_have_no_block_item():
    for name in ("air", "bedrock", "water", "lava", "water_3", "lava_15"):
        assert block_item(name) is None


def test_block_item_takes_a_block_id_too_and_refuses_unknown_blocks():
    assert block_item(block_id("grass")) == "grass"
    assert BLOCK_ITEM_BY_ID[block_id("stairs_west")] == "wooden_stairs"
    assert block_item(np.int32(block_id("log"))) == "log"
    with pytest.raises(UnknownBlockError):
        block_item("marble")
    with pytest.raises(UnknownBlockError):
        block_item(10_000)


def test_block_items_are_the_items_a_block_places():
    assert "planks" in BLOCK_ITEM_NAMES and "wooden_stairs" in BLOCK_ITEM_NAMES
    assert "stick" not in BLOCK_ITEM_NAMES and "brick" not in BLOCK_ITEM_NAMES


def test_an_unknown_item_name_is_refused_naming_close_names():
    with pytest.raises(UnknownItemError, match="did you mean.*wooden_pickaxe"):
        item_spec("wooden_pickaxes")
    assert issubclass(UnknownItemError, ValueError)


def test_an_item_stack_defaults_to_one_unworn_item():
    assert ItemStack("stick") == ItemStack("stick", 1, 0)
    assert ItemStack("iron_pickaxe", 1, 12).damage == 12
    assert ItemStack("coal", 5).with_count(64) == ItemStack("coal", 64)
    assert ItemStack("coal").spec is item_spec("coal")


@pytest.mark.parametrize(("args", "error"), [
    (("stick", 0), ValueError), (("stick", 65), ValueError), (("stick", 1, -1), ValueError),
    (("sticks",), UnknownItemError), ((3,), TypeError), (("stick", 1.0), TypeError), (("stick", True), TypeError),
    (("stick", 1, None), TypeError)])
def test_a_bad_item_stack_is_refused(args, error):
    with pytest.raises(error):
        ItemStack(*args)


def test_an_item_stack_is_frozen():
    stack = ItemStack("stick", 3)
    with pytest.raises(AttributeError):
        stack.count = 4  # type: ignore[misc]


def test_a_tool_tier_is_found_by_its_item_spec_name_and_an_unknown_one_refused():
    assert ToolTier.of("diamond") is ToolTier.DIAMOND and ToolTier.GOLD.key == "gold"
    with pytest.raises(ValueError):
        ToolTier.of("bronze")


@pytest.mark.parametrize(("item", "damage"), [(None, 1), ("stick", 1), ("wooden_sword", 4), ("stone_sword", 6),
                                              ("iron_sword", 8), ("diamond_sword", 10), ("golden_sword", 4),
                                              ("wooden_shovel", 1), ("stone_pickaxe", 3), ("iron_axe", 5),
                                              ("diamond_hoe", 1)])
def test_a_hit_does_betas_damage_vs_entity(item, damage):
    assert attack_damage(item) == damage
