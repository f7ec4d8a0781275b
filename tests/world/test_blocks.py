"""The block registry: stable ids, and each block's physics material, shapes and drawing flags."""

from __future__ import annotations

import pytest

from game.world.blocks import (COUNT, CULLS_SAME, DRAWN_SHAPES, MATERIAL, NAMES, OPAQUE, REPLACEABLE, SHAPES, SOLID,
                               TRANSPARENT, block_id)
from physics import shapes
from physics.materials import Material

MEDIA_BLOCKS = ("water", "lava", "ladder_north", "ladder_south", "ladder_east", "ladder_west", "cobweb", "soul_sand",
                "cactus")
"""The blocks of Beta's media, appended after carpet (id 21) in this order."""


def test_ids_are_stable_the_media_blocks_are_appended_after_the_older_blocks():
    assert NAMES[:3] == ("air", "stone", "cobblestone") and NAMES[21] == "carpet"
    assert NAMES[22:22 + len(MEDIA_BLOCKS)] == MEDIA_BLOCKS
    assert COUNT == 22 + len(MEDIA_BLOCKS)


@pytest.mark.parametrize("name, material", [
    ("air", Material.AIR), ("stone", Material.SOLID), ("grass", Material.SOLID), ("glass", Material.SOLID),
    ("ice", Material.SOLID), ("stairs_north", Material.SOLID), ("fence", Material.SOLID), ("carpet", Material.SOLID),
    ("water", Material.WATER), ("lava", Material.LAVA), ("ladder_north", Material.LADDER),
    ("ladder_west", Material.LADDER), ("cobweb", Material.WEB), ("soul_sand", Material.SOUL_SAND),
    ("cactus", Material.CACTUS),
])
def test_each_block_has_its_physics_material(name, material):
    assert Material(int(MATERIAL[block_id(name)])) is material


def test_only_air_is_made_of_air_and_every_material_value_is_a_physics_material():
    assert [NAMES[i] for i in range(COUNT) if MATERIAL[i] == Material.AIR] == ["air"]
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


def test_air_water_and_lava_are_replaced_by_a_placed_block_and_nothing_else_is():
    assert [NAMES[i] for i in range(COUNT) if REPLACEABLE[i]] == ["air", "water", "lava"]
