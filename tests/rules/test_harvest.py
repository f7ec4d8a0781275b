"""Beta 1.7.3's digging with tools and its drop table (`game.rules.harvest`): exact float32 strengths,
tick counts through the dig loop, every wrong-tool rule of Beta's, drops drawn in Beta's order."""

from __future__ import annotations

import random

import numpy as np
import pytest

from game.rules import harvest, mining
from game.rules.harvest import can_harvest, dig_strength, dig_wear, drops, hit_entity_wear, iter_drops
from game.rules.items import ItemStack, ToolTier
from game.world.java_random import JavaRandom, next_float
from game.rules.mining import Mining
from game.world import blocks
from game.world.blocks import UnknownBlockError, block_id

f32 = np.float32
TODAYS_BLOCKS = 72
"""Blocks 0..71 (air .. diamond_ore) existed before tools: the bare hand digs them exactly as before."""
PENALTY_CASES = ((False, True), (True, True), (False, False), (True, False))
"""(eye in water, on the ground)."""
TIERS = ("wooden", "stone", "iron", "diamond", "golden")


def todays_bare_hand_strength(block: int, in_water: bool, on_ground: bool) -> np.float32:
    """`game.rules.mining.dig_strength` as it was before tools, kept here as the oracle."""
    hardness = f32(blocks.HARDNESS[block])
    if hardness < 0:
        return f32(0.0)
    with np.errstate(divide="ignore"):
        if blocks.NEEDS_TOOL[block]:
            return f32(f32(1.0) / hardness) / f32(100.0)
        strength = f32(1.0)
        if in_water:
            strength = strength / f32(5.0)
        if not on_ground:
            strength = strength / f32(5.0)
        return f32(strength / hardness) / f32(30.0)


def bits(value: np.float32) -> int:
    return int(np.asarray(value, dtype=np.float32).view(np.uint32))


def ticks_to_break(block: str, held: ItemStack | None) -> int:
    """[ticks] Holding the button on `block` from the press to its break, through `Mining`."""
    strength, dig, cell = dig_strength(block_id(block), held, False, True), Mining(), (0, 0, 0)
    dig.press(cell)
    for tick in range(1, 2000):
        if dig.tick(cell, strength).broken == cell:
            return tick
    raise AssertionError(f"{block} never broke")


class ScriptedRandom(random.Random):
    """A random.Random whose draws are scripted and logged, to check Beta's draw order."""

    def __init__(self, ints=(), floats=()):
        super().__init__(0)
        self.ints, self.floats, self.log = list(ints), list(floats), []

    def randrange(self, n, *args):
        self.log.append(f"nextInt({n})")
        return self.ints.pop(0)

    def getrandbits(self, k):
        assert k == 24  # Java's nextFloat: 24 bits
        self.log.append("nextFloat")
        return self.floats.pop(0) if self.floats else 1 << 23


def tool(name: str) -> ItemStack:
    return ItemStack(name)


# --- strength -------------------------------------------------------------------------------------


@pytest.mark.parametrize("eye_in_water, on_ground", PENALTY_CASES)
def test_the_bare_hand_digs_each_of_todays_blocks_with_todays_exact_bits(eye_in_water, on_ground):
    for block in range(TODAYS_BLOCKS):
        expected = todays_bare_hand_strength(block, eye_in_water, on_ground)
        assert bits(dig_strength(block, None, eye_in_water, on_ground)) == bits(expected), blocks.NAMES[block]
        assert bits(mining.dig_strength(block, in_water=eye_in_water, on_ground=on_ground)) == bits(expected)


@pytest.mark.parametrize("held", ["stick", "dirt", "wooden_hoe", "diamond"])
def test_an_item_that_is_no_tool_for_a_block_digs_it_as_the_bare_hand(held):
    for block in range(blocks.COUNT):
        for eye_in_water, on_ground in PENALTY_CASES:
            assert bits(dig_strength(block, tool(held), eye_in_water, on_ground)) == bits(
                dig_strength(block, None, eye_in_water, on_ground)), blocks.NAMES[block]


def test_stone_with_a_wooden_pickaxe_digs_2_over_1_5_over_30_a_tick_in_float32():
    strength = dig_strength(block_id("stone"), tool("wooden_pickaxe"), False, True)
    assert bits(strength) == bits(f32(f32(2.0) / f32(1.5)) / f32(30.0))
    assert strength == f32(0.044444446)


def test_a_tools_strength_is_divided_by_5_with_the_eye_in_water_and_again_off_the_ground():
    stone, pick = block_id("stone"), tool("wooden_pickaxe")
    assert dig_strength(stone, pick, True, True) == f32(f32(f32(2.0) / f32(5.0)) / f32(1.5)) / f32(30.0)
    assert dig_strength(stone, pick, True, False) == f32(
        f32(f32(f32(2.0) / f32(5.0)) / f32(5.0)) / f32(1.5)) / f32(30.0)


def test_the_tool_tiers_dig_at_betas_float_efficiencies():
    assert [ToolTier[t].efficiency for t in ("WOOD", "STONE", "IRON", "DIAMOND", "GOLD")] == [2.0, 4.0, 6.0, 8.0, 12.0]
    for prefix, efficiency in zip(TIERS, (2.0, 4.0, 6.0, 8.0, 12.0)):
        strength = harvest.strength_against(block_id("stone"), tool(f"{prefix}_pickaxe"))
        assert strength.dtype == np.float32 and strength == f32(efficiency)


@pytest.mark.parametrize("held, ticks", [(None, 151), ("wooden_pickaxe", 23), ("stone_pickaxe", 12),
                                         ("iron_pickaxe", 8), ("diamond_pickaxe", 6), ("golden_pickaxe", 4)])
def test_stone_breaks_after_betas_exact_number_of_held_ticks_for_each_pickaxe(held, ticks):
    # 1/1.5/100 by hand sums to 1 in 151 float32 steps; a pickaxe's e/1.5/30 in ceil(45/e) steps
    assert ticks_to_break("stone", None if held is None else tool(held)) == ticks


@pytest.mark.parametrize("block, held, ticks", [
    ("log", None, 61), ("log", "wooden_axe", 30), ("planks", "stone_axe", 15), ("dirt", "wooden_shovel", 8),
    ("cobblestone", "wooden_pickaxe", 30), ("iron_ore", "stone_pickaxe", 23), ("diamond_ore", "iron_pickaxe", 15),
    ("obsidian", "diamond_pickaxe", 301), ("cobweb", "wooden_sword", 8), ("cobweb", None, 401)])
def test_each_tool_digs_its_blocks_in_betas_exact_ticks(block, held, ticks):
    assert ticks_to_break(block, None if held is None else tool(held)) == ticks


def test_obsidian_bricks_and_redstone_ore_are_on_no_pickaxe_list_so_a_pickaxe_digs_them_at_strength_1():
    for block in ("obsidian", "brick", "redstone_ore"):
        assert harvest.strength_against(block_id(block), tool("diamond_pickaxe")) == f32(1.0)
    assert dig_strength(block_id("obsidian"), tool("diamond_pickaxe"), False, True) == f32(
        f32(1.0) / f32(10.0)) / f32(30.0)


def test_stairs_fences_and_soul_sand_are_on_no_tool_list():
    for block, held in (("stairs_north", "iron_axe"), ("fence", "iron_axe"), ("soul_sand", "iron_shovel")):
        assert harvest.strength_against(block_id(block), tool(held)) == f32(1.0)


def test_a_sword_digs_everything_at_1_5_and_the_cobweb_at_15():
    for block in range(blocks.COUNT):
        expected = f32(15.0) if blocks.NAMES[block] == "cobweb" else f32(1.5)
        assert harvest.strength_against(block, tool("iron_sword")) == expected
    assert dig_strength(block_id("dirt"), tool("wooden_sword"), False, True) == f32(f32(1.5) / f32(0.5)) / f32(30.0)


def test_the_mining_dig_path_takes_the_held_item():
    stone, pick = block_id("stone"), tool("iron_pickaxe")
    assert mining.dig_strength(stone, held=pick) == dig_strength(stone, pick, False, True) == f32(0.13333334)
    assert mining.dig_strength(stone, in_water=True, on_ground=False, held=pick) == dig_strength(
        stone, pick, True, False)


# --- harvesting -----------------------------------------------------------------------------------


@pytest.mark.parametrize("block, weakest", [
    ("stone", "wooden"), ("cobblestone", "wooden"), ("coal_ore", "wooden"), ("brick", "wooden"),
    ("stone_slab", "wooden"), ("double_slab", "wooden"), ("iron_ore", "stone"), ("gold_ore", "iron"),
    ("diamond_ore", "iron"), ("redstone_ore", "iron"), ("obsidian", "diamond")])
def test_a_pickaxe_harvests_rock_from_betas_tier_and_a_gold_pickaxe_only_what_wood_does(block, weakest):
    levels = {"wooden": 0, "golden": 0, "stone": 1, "iron": 2, "diamond": 3}
    for prefix in TIERS:
        assert can_harvest(block_id(block), tool(f"{prefix}_pickaxe")) is (levels[prefix] >= levels[weakest]), prefix


@pytest.mark.parametrize("block", ["stone", "cobblestone", "coal_ore", "iron_ore", "gold_ore", "diamond_ore",
                                   "redstone_ore", "obsidian", "brick", "stone_slab", "double_slab"])
@pytest.mark.parametrize("held", [None, "diamond_axe", "diamond_shovel", "diamond_sword", "diamond_hoe", "stick"])
def test_stone_and_ores_without_a_pickaxe_are_dug_at_the_tool_less_rate_and_drop_nothing(block, held):
    number, stack = block_id(block), None if held is None else tool(held)
    assert not can_harvest(number, stack)
    assert dig_strength(number, stack, True, False) == f32(f32(1.0) / f32(blocks.HARDNESS[number])) / f32(100.0)
    rng = random.Random(7)
    state = rng.getstate()
    assert drops(number, stack, rng) == () and rng.getstate() == state  # nothing drawn either


@pytest.mark.parametrize("block, held", [
    ("iron_ore", "wooden_pickaxe"), ("iron_ore", "golden_pickaxe"), ("gold_ore", "stone_pickaxe"),
    ("diamond_ore", "stone_pickaxe"), ("redstone_ore", "stone_pickaxe"), ("obsidian", "iron_pickaxe"),
    ("cobweb", None), ("cobweb", "diamond_pickaxe")])
def test_a_pickaxe_below_the_ores_tier_digs_slowly_and_drops_nothing(block, held):
    number, stack = block_id(block), None if held is None else tool(held)
    assert not can_harvest(number, stack)
    assert dig_strength(number, stack, False, True) == f32(f32(1.0) / f32(blocks.HARDNESS[number])) / f32(100.0)
    assert drops(number, stack, random.Random(1)) == ()


def test_the_hand_harvests_every_block_but_betas_rock_iron_and_web_materials():
    for block in range(blocks.COUNT):
        material = harvest.material_of(block)
        assert can_harvest(block, None) is material.harvestable
        assert material.harvestable is not (material in (harvest.BlockMaterial.ROCK, harvest.BlockMaterial.IRON,
                                                         harvest.BlockMaterial.WEB, harvest.BlockMaterial.SNOW,
                                                         harvest.BlockMaterial.BUILT_SNOW))


def test_every_registry_block_has_a_beta_material_that_agrees_with_the_registrys_needs_tool():
    assert harvest.UNNAMED_BLOCKS == ()
    mismatched = [name for block, name in enumerate(blocks.NAMES)
                  if bool(harvest.HARVESTABLE[block]) is bool(blocks.NEEDS_TOOL[block])]
    assert mismatched == []


# --- drops ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("block, held, expected", [
    ("stone", "wooden_pickaxe", ["cobblestone"]), ("cobblestone", "golden_pickaxe", ["cobblestone"]),
    ("grass", None, ["dirt"]), ("dirt", None, ["dirt"]), ("sand", "wooden_shovel", ["sand"]),
    ("log", None, ["log"]), ("planks", None, ["planks"]), ("coal_ore", "wooden_pickaxe", ["coal"]),
    ("iron_ore", "stone_pickaxe", ["iron_ore"]), ("gold_ore", "iron_pickaxe", ["gold_ore"]),
    ("diamond_ore", "iron_pickaxe", ["diamond"]), ("obsidian", "diamond_pickaxe", ["obsidian"]),
    ("cobweb", "stone_sword", ["string"]), ("glass", None, []), ("ice", "iron_pickaxe", []),
    ("stone_slab", "wooden_pickaxe", ["stone_slab"]), ("stone_slab_top", "wooden_pickaxe", ["stone_slab"]),
    ("double_slab", "wooden_pickaxe", ["stone_slab", "stone_slab"]), ("brick", "wooden_pickaxe", ["bricks"]),
    ("stairs_east", None, ["planks"]), ("ladder_north", None, ["ladder"]), ("torch", None, ["torch"]),
    ("fence", None, ["fence"]), ("rose", None, ["rose"]), ("cactus", None, ["cactus"]),
    ("soul_sand", None, ["soul_sand"]), ("carpet", None, ["carpet"])])
def test_a_harvested_block_drops_betas_items_one_stack_of_one_each(block, held, expected):
    stacks = drops(block_id(block), None if held is None else tool(held), random.Random(3))
    assert stacks == tuple(ItemStack(item) for item in expected)


def test_a_dug_stone_block_drops_one_cobblestone_with_a_pickaxe_and_nothing_by_hand():
    stone = block_id("stone")
    assert drops(stone, tool("stone_pickaxe"), random.Random(0)) == (ItemStack("cobblestone"),)
    assert drops(stone, None, random.Random(0)) == ()


def test_gravel_drops_flint_when_nextint_10_is_0_after_the_chance_float():
    gravel = block_id("gravel")
    rng = ScriptedRandom(ints=[0])
    assert drops(gravel, None, rng) == (ItemStack("flint"),) and rng.log == ["nextFloat", "nextInt(10)"]
    assert drops(gravel, None, ScriptedRandom(ints=[1])) == (ItemStack("gravel"),)


def test_gravel_gives_flint_about_one_time_in_ten():
    rng, gravel = random.Random(42), block_id("gravel")
    flints = sum(drops(gravel, None, rng) == (ItemStack("flint"),) for _ in range(2000))
    assert 150 < flints < 250


def test_a_java_random_draws_the_gravel_drop_as_beta_does_from_the_same_seed():
    reference = JavaRandom(2024)
    flint_expected = []
    for _ in range(200):
        reference.next_float()  # the chance draw
        flint_expected.append(reference.next_int(10) == 0)
    rng, gravel = JavaRandom(2024), block_id("gravel")
    got = [drops(gravel, None, rng) == (ItemStack("flint"),) for _ in range(200)]
    assert got == flint_expected and any(got) and not all(got)


def test_tall_grass_drops_seeds_one_time_in_8_and_else_nothing():
    grass = block_id("tall_grass")
    rng = ScriptedRandom(ints=[0])
    assert drops(grass, None, rng) == (ItemStack("seeds"),) and rng.log == ["nextFloat", "nextInt(8)"]
    assert drops(grass, None, ScriptedRandom(ints=[5])) == ()


def test_leaves_drop_a_sapling_only_when_nextint_20_is_0():
    leaves = block_id("leaves")
    rng = ScriptedRandom(ints=[3])
    assert drops(leaves, None, rng) == () and rng.log == ["nextInt(20)"]
    rng = ScriptedRandom(ints=[0])
    sapling = () if "sapling" not in blocks.NAMES else (ItemStack("sapling"),)
    assert drops(leaves, None, rng) == sapling and rng.log == ["nextInt(20)", "nextFloat"]


def test_redstone_ore_draws_4_plus_nextint_2_items_but_drops_nothing_without_a_redstone_item():
    rng = ScriptedRandom(ints=[1])
    assert drops(block_id("redstone_ore"), tool("iron_pickaxe"), rng) == ()
    assert rng.log == ["nextInt(2)"] + ["nextFloat"] * 5


def test_clay_drops_4_clay_balls_and_each_item_is_drawn_before_the_caller_spawns_it():
    if "clay" not in blocks.NAMES:
        pytest.skip("the clay block is not in the registry yet")
    rng, spawned = ScriptedRandom(), []
    for stack in iter_drops(block_id("clay"), None, rng):
        spawned.append(stack)
        for _ in range(3):  # Beta's dropBlockAsItem_do: three floats for the item's place
            next_float(rng)
    assert spawned == [ItemStack("clay_ball")] * 4
    assert rng.log == ["nextFloat"] * 16


@pytest.mark.parametrize("name, expected", [
    ("door_lower_north_closed", ["wooden_door"]), ("door_upper_north_closed", []), ("door_upper_west_open", []),
    ("bed_foot_east", ["bed"]), ("bed_head_east", []), ("furnace_south", ["furnace"]),
    ("lit_furnace_south", ["furnace"]), ("crafting_table", ["crafting_table"]), ("chest", ["chest"]),
    ("wall_torch_north", ["torch"]), ("sapling", ["sapling"]), ("iron_block", ["iron_block"]),
    ("wool", ["wool"]), ("sandstone", ["sandstone"])])
def test_the_new_survival_blocks_drop_as_beta_with_the_half_of_a_door_or_bed_that_drops_nothing(name, expected):
    if name not in blocks.NAMES:
        pytest.skip(f"{name} is not in the block registry yet")
    pick = tool("diamond_pickaxe")  # harvests every rock and iron block; wood and cloth need nothing
    assert drops(block_id(name), pick, random.Random(0)) == tuple(ItemStack(item) for item in expected)


def test_a_doors_upper_half_and_a_beds_head_drop_nothing_and_wooden_stairs_drop_a_plank_by_name():
    for name in ("door_upper_north_closed", "door_upper_east_open", "bed_head_south", "bed_head_west"):
        assert harvest.drop_rule_named(name).item is None and harvest.drop_rule_named(name).rare_item is None
    assert harvest.drop_rule_named("stairs_west") == harvest.DropRule("planks")


def test_iron_gold_and_diamond_blocks_need_betas_pickaxe_tiers():
    for name, weakest in (("iron_block", 1), ("gold_block", 2), ("diamond_block", 2)):
        if name not in blocks.NAMES:
            continue
        for prefix, level in zip(TIERS, (0, 1, 2, 3, 0)):
            assert can_harvest(block_id(name), tool(f"{prefix}_pickaxe")) is (level >= weakest)
        assert not can_harvest(block_id(name), None)


# --- wear -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("held, wear", [(None, 0), ("wooden_pickaxe", 1), ("iron_shovel", 1), ("stone_axe", 1),
                                        ("diamond_sword", 2), ("golden_hoe", 0), ("stick", 0), ("dirt", 0)])
def test_a_broken_block_wears_a_tool_1_and_a_sword_2_even_a_torch(held, wear):
    stack = None if held is None else tool(held)
    for block in ("stone", "dirt", "torch"):
        assert dig_wear(block_id(block), stack) == wear
        assert harvest.wears_tool(block_id(block), stack) is (wear > 0)


@pytest.mark.parametrize("held, wear", [(None, 0), ("iron_sword", 1), ("iron_pickaxe", 2), ("wooden_shovel", 2),
                                        ("golden_axe", 2), ("stone_hoe", 0), ("apple", 0)])
def test_hitting_a_mob_wears_a_sword_1_and_another_tool_2(held, wear):
    assert hit_entity_wear(None if held is None else tool(held)) == wear


# --- bad input ------------------------------------------------------------------------------------


def test_bad_input_is_refused_with_a_clear_error():
    stone = block_id("stone")
    with pytest.raises(TypeError, match="ItemStack"):
        dig_strength(stone, "wooden_pickaxe", False, True)
    with pytest.raises(TypeError, match="registry id"):
        can_harvest("stone", None)
    with pytest.raises(UnknownBlockError):
        dig_strength(blocks.COUNT, None, False, True)
    with pytest.raises(TypeError, match="JavaRandom or a random.Random"):
        drops(stone, None, 42)
    with pytest.raises(TypeError, match="ItemStack"):
        iter_drops(stone, object(), random.Random(0))
