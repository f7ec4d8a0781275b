"""The World names the cells it changed since a revision (`cells_changed_since`): edits one by one
and the fluids' batches alike, so a crowd forgets only the block boxes around them."""

from __future__ import annotations

from game.world import World


def test_the_world_names_each_cell_edited_since_a_revision(tmp_path):
    with World.create(tmp_path / "w.boxel", seed=3, workers=1) as world:
        before = world.revision
        world.set_block(1, 150, 1, "stone")
        world.set_block(2, 150, 1, "glass")
        middle = world.revision
        world.set_block(1, 150, 1, "air")
        assert sorted(world.cells_changed_since(before)) == [(1, 150, 1), (1, 150, 1), (2, 150, 1)]
        assert world.cells_changed_since(middle) == [(1, 150, 1)]
        assert world.cells_changed_since(world.revision) == []


def test_water_flowing_out_is_named_cell_by_cell_among_the_changes(tmp_path):
    with World.create(tmp_path / "w.boxel", seed=3, workers=1) as world:
        world.set_block(0, 150, 0, "stone")
        world.set_block(0, 151, 0, "water")
        before = world.revision
        for _ in range(20):
            world.tick()
        changed = set(world.cells_changed_since(before))
        flowed = {(x, 151, z) for x in range(-3, 4) for z in range(-3, 4) if world.get_block(x, 151, z) != "air"}
        assert flowed - {(0, 151, 0)} and flowed - {(0, 151, 0)} <= changed
