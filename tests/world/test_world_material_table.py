"""`World.material` reads each block's material from a list by id (`world_queries._MATERIAL_OF_ID`):
the very `physics.Material` the blocks' table gives, for every block the world can hold."""

from __future__ import annotations

from physics.materials import Material

from game.world.blocks import MATERIAL, SPECS, block_id
from game.world.world_queries import _MATERIAL_OF_ID


def test_the_material_of_every_block_id_is_the_blocks_tables_material():
    assert len(_MATERIAL_OF_ID) == len(SPECS)
    assert all(_MATERIAL_OF_ID[i] is Material(int(MATERIAL[i])) for i in range(len(SPECS)))


def test_a_placed_water_block_reads_as_water_and_stone_as_solid(tmp_path):
    from game.world import World

    with World.create(tmp_path / "w.boxel", seed=42, workers=1) as world:
        world.set_block(0, 100, 0, "water")
        world.set_block(1, 100, 0, "stone")
        assert world.material(0, 100, 0) is Material.WATER
        assert world.material(1, 100, 0) is Material.SOLID
        assert world.material(2, 100, 0) is Material.AIR
        assert _MATERIAL_OF_ID[block_id("water")] is Material.WATER
