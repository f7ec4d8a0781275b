"""The mob AI: wanders, turns at walls, jumps one-block steps, refuses deep drops; deterministic."""

import physics
from game.rules.mob_brain import BOXLING, MAX_SAFE_DROP_BLOCKS, MobBrain
from physics import BlockGrid, Body


def pen(size=6, wall_height=1):
    grid = BlockGrid()
    grid.fill(-size, 63, -size, size, 63, size)
    for h in range(wall_height):
        grid.fill(-size, 64 + h, -size, size, 64 + h, -size)
        grid.fill(-size, 64 + h, size, size, 64 + h, size)
        grid.fill(-size, 64 + h, -size, -size, 64 + h, size)
        grid.fill(size, 64 + h, -size, size, 64 + h, size)
    return grid


def simulate(brain, body, world, ticks):
    for _ in range(ticks):
        body = physics.step(body, world, brain.think(body, world))
    return body


def test_a_mob_wanders_away_from_where_it_started():
    grid = pen(20, 2)
    brain = MobBrain(BOXLING, seed=1)
    body = simulate(brain, Body.at_feet(0.5, 64, 0.5, BOXLING.width, BOXLING.height), grid, 600)
    x, _, z = body.feet
    assert abs(x - 0.5) + abs(z - 0.5) > 2.0


def test_the_same_seed_gives_the_same_walk():
    grid = pen(20, 2)
    start = Body.at_feet(0.5, 64, 0.5, BOXLING.width, BOXLING.height)
    a = simulate(MobBrain(BOXLING, seed=7), start, grid, 400)
    b = simulate(MobBrain(BOXLING, seed=7), start, grid, 400)
    assert a == b


def test_a_mob_in_a_pen_with_two_high_walls_never_leaves_it():
    grid = pen(4, 2)
    for seed in range(5):
        brain = MobBrain(BOXLING, seed=seed)
        body = Body.at_feet(0.5, 64, 0.5, BOXLING.width, BOXLING.height)
        for _ in range(1500):
            body = physics.step(body, grid, brain.think(body, grid))
            assert -4.0 <= body.box.min_x and body.box.max_x <= 5.0
            assert -4.0 <= body.box.min_z and body.box.max_z <= 5.0


def test_a_mob_blocked_by_a_one_block_step_jumps_onto_it():
    grid = BlockGrid()
    grid.fill(-5, 63, -5, 30, 63, 5)
    grid.fill(3, 64, -5, 30, 64, 5)  # a one-block-high terrace toward +X
    brain = MobBrain(BOXLING, seed=3)
    brain.walking, brain.yaw, brain.ticks_left = True, 270.0, 10_000  # walk east for good
    body = simulate(brain, Body.at_feet(0.5, 64, 0.5, BOXLING.width, BOXLING.height), grid, 80)
    assert body.box.min_y == 65.0


def test_a_mob_turns_at_a_two_block_wall_instead_of_jumping():
    grid = BlockGrid()
    grid.fill(-20, 63, -20, 20, 63, 20)
    grid.fill(3, 64, -20, 3, 65, 20)
    brain = MobBrain(BOXLING, seed=4)
    brain.walking, brain.yaw, brain.ticks_left = True, 270.0, 10_000
    body = simulate(brain, Body.at_feet(0.5, 64, 0.5, BOXLING.width, BOXLING.height), grid, 100)
    assert brain.yaw != 270.0
    assert body.box.max_x <= 3.0 and body.box.min_y == 64.0


def test_a_mob_does_not_walk_off_a_drop_deeper_than_three_blocks():
    grid = BlockGrid()
    depth = MAX_SAFE_DROP_BLOCKS + 2
    grid.fill(-10, 63, -10, 2, 63, 10)  # a cliff edge at x = 3
    grid.fill(3, 63 - depth, -10, 20, 63 - depth, 10)
    brain = MobBrain(BOXLING, seed=5)
    brain.walking, brain.yaw, brain.ticks_left = True, 270.0, 10_000
    body = Body.at_feet(0.5, 64, 0.5, BOXLING.width, BOXLING.height)
    for _ in range(300):
        body = physics.step(body, grid, brain.think(body, grid))
        assert body.box.min_y == 64.0 or not body.on_ground


def test_a_mob_walks_down_a_shallow_drop():
    grid = BlockGrid()
    grid.fill(-10, 63, -10, 2, 63, 10)
    grid.fill(3, 61, -10, 20, 61, 10)  # two blocks down
    brain = MobBrain(BOXLING, seed=6)
    brain.walking, brain.yaw, brain.ticks_left = True, 270.0, 10_000
    body = simulate(brain, Body.at_feet(0.5, 64, 0.5, BOXLING.width, BOXLING.height), grid, 100)
    assert body.box.min_y == 62.0


def test_a_brain_survives_a_save_and_load_and_then_thinks_the_same():
    grid = pen(20, 2)
    body = Body.at_feet(0.5, 64, 0.5, BOXLING.width, BOXLING.height)
    brain = MobBrain(BOXLING, seed=9)
    body = simulate(brain, body, grid, 50)
    copy = MobBrain.from_state(brain.to_state())
    assert simulate(brain, body, grid, 200) == simulate(copy, body, grid, 200)
