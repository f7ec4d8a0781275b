"""The block registry: stable ids, and each block's physics material, shapes and drawing flags."""

from __future__ import annotations

import pytest

from game.world.blocks import (COUNT, CROSS, CULLS_SAME, DRAWN_SHAPES, FLUID_LEVEL, LAVA_IDS, MATERIAL, NAMES, OPAQUE,
                               REPLACEABLE, SHAPES, SOLID, TRANSPARENT, WATER_IDS, block_id)
from physics import shapes
from physics.materials import Material

MEDIA_BLOCKS = ("water", "lava", "ladder_north", "ladder_south", "ladder_east", "ladder_west", "cobweb", "soul_sand",
                "cactus")
"""The blocks of Beta's media, appended after carpet (id 21) in this order."""


LIVING_WORLD_BLOCKS = ("obsidian", "torch", "dandelion", "rose", "tall_grass",
                       *(f"water_{level}" for level in range(1, 16)), *(f"lava_{level}" for level in range(1, 16)))
"""The blocks of the living world, appended after the media in this order."""


BUILDING_AND_ORE_BLOCKS = ("double_slab", "coal_ore", "iron_ore", "gold_ore", "redstone_ore", "diamond_ore")

_SIDES = ("north", "south", "east", "west")
SURVIVAL_BLOCKS = ("crafting_table", *(f"furnace_{s}" for s in _SIDES), *(f"lit_furnace_{s}" for s in _SIDES), "chest",
                   *(f"door_{h}_{s}_{state}" for h in ("lower", "upper") for s in _SIDES for state in ("closed", "open")),
                   *(f"bed_{p}_{s}" for p in ("foot", "head") for s in _SIDES), "sapling",
                   *(f"wall_torch_{s}" for s in _SIDES), "iron_block", "gold_block", "diamond_block", "wool", "clay",
                   "sandstone", "brown_mushroom", "red_mushroom", "sapling_ready")
"""Survival's blocks, after the ores in this order."""


def test_ids_are_stable_new_blocks_are_appended_after_the_older_blocks():
    assert NAMES[:3] == ("air", "stone", "cobblestone") and NAMES[21] == "carpet"
    assert NAMES[22:22 + len(MEDIA_BLOCKS)] == MEDIA_BLOCKS
    living_end = 31 + len(LIVING_WORLD_BLOCKS)
    assert NAMES[31:living_end] == LIVING_WORLD_BLOCKS
    survival_start = living_end + len(BUILDING_AND_ORE_BLOCKS)
    assert NAMES[living_end:survival_start] == BUILDING_AND_ORE_BLOCKS
    assert NAMES[survival_start:] == SURVIVAL_BLOCKS
    assert COUNT == survival_start + len(SURVIVAL_BLOCKS)


def test_every_fluid_level_has_one_id_whose_level_and_material_say_so():
    for ids, material, name in ((WATER_IDS, Material.WATER, "water"), (LAVA_IDS, Material.LAVA, "lava")):
        assert [NAMES[i] for i in ids] == [name, *(f"{name}_{level}" for level in range(1, 16))]
        assert [int(FLUID_LEVEL[i]) for i in ids] == list(range(16))
        assert {Material(int(MATERIAL[i])) for i in ids} == {material}
    assert sorted(i for i in range(COUNT) if FLUID_LEVEL[i] >= 0) == sorted([*WATER_IDS, *LAVA_IDS])


def test_torches_and_plants_collide_with_nothing_and_plants_are_drawn_as_crosses():
    for name in ("torch", "dandelion", "rose", "tall_grass"):
        assert SHAPES[block_id(name)] == shapes.EMPTY and Material(int(MATERIAL[block_id(name)])) is Material.AIR
    assert [NAMES[i] for i in range(COUNT) if CROSS[i]] == ["dandelion", "rose", "tall_grass", "sapling",
                                                           "brown_mushroom", "red_mushroom", "sapling_ready"]


@pytest.mark.parametrize("name, material", [
    ("air", Material.AIR), ("stone", Material.SOLID), ("grass", Material.SOLID), ("glass", Material.SOLID),
    ("ice", Material.SOLID), ("stairs_north", Material.SOLID), ("fence", Material.SOLID), ("carpet", Material.SOLID),
    ("water", Material.WATER), ("lava", Material.LAVA), ("ladder_north", Material.LADDER),
    ("ladder_west", Material.LADDER), ("cobweb", Material.WEB), ("soul_sand", Material.SOUL_SAND),
    ("cactus", Material.CACTUS),
])
def test_each_block_has_its_physics_material(name, material):
    assert Material(int(MATERIAL[block_id(name)])) is material


def test_only_air_torches_and_plants_are_made_of_air_and_every_material_value_is_a_physics_material():
    assert [NAMES[i] for i in range(COUNT) if MATERIAL[i] == Material.AIR] == [
        "air", "torch", "dandelion", "rose", "tall_grass", "sapling", *(f"wall_torch_{s}" for s in _SIDES),
        "brown_mushroom", "red_mushroom", "sapling_ready"]
    assert {Material(int(m)) for m in MATERIAL} == set(Material)


@pytest.mark.parametrize("name, shape", [
    ("water", shapes.EMPTY), ("lava", shapes.EMPTY), ("cobweb", shapes.EMPTY), ("soul_sand", shapes.SOUL_SAND),
    ("cactus", shapes.CACTUS), *((f"ladder_{facing}", shapes.LADDER[facing]) for facing in shapes.LADDER),
])
def test_the_media_blocks_collide_with_physics_shapes(name, shape):
    block = block_id(name)
    assert SHAPES[block] == shape
    assert SOLID[block] == (shape != shapes.EMPTY)


def test_the_media_blocks_are_drawn_sensibly():
    water, lava, web, soul_sand, cactus = (block_id(n) for n in ("water", "lava", "cobweb", "soul_sand", "cactus"))
    assert DRAWN_SHAPES[water] == DRAWN_SHAPES[lava] == DRAWN_SHAPES[web] == shapes.FULL_CUBE
    assert TRANSPARENT[water] and CULLS_SAME[water] and not OPAQUE[water]  # see-through, hides water against water
    assert not TRANSPARENT[lava] and CULLS_SAME[lava] and not OPAQUE[lava]
    assert TRANSPARENT[web] and not CULLS_SAME[web]
    assert OPAQUE[soul_sand] and DRAWN_SHAPES[soul_sand] == shapes.FULL_CUBE
    assert CULLS_SAME[cactus] and not OPAQUE[cactus]
    assert all(TRANSPARENT[block_id(f"ladder_{facing}")] for facing in shapes.LADDER)


def test_air_and_water_and_lava_at_every_level_are_replaced_by_a_placed_block_and_nothing_else_is():
    assert sorted(i for i in range(COUNT) if REPLACEABLE[i]) == sorted([0, *WATER_IDS, *LAVA_IDS])
