"""Mobs and fluids (game.rules.mob_brain, game.rules.mobs): a mob in water holds jump as Beta's mobs do and
floats up; a wandering mob turns away from lava and deep water but wades through a puddle;
spawning refuses water and lava; all of it the same bit for bit for the same seed.

The worlds are `game.world.lab.Arena`s (registry blocks with their physics materials): the lab's own
arena, or a walled pen with a pool of water or lava level with its floor."""

from __future__ import annotations

import math

import pytest

import physics
from game.world.lab import LAVA_MAX, LAVA_MIN, POOL_MAX, POOL_MIN, Arena, build_arena
from game.rules.mob_brain import BOXLING, DEEP_WATER_BLOCKS, LOOK_AHEAD_BLOCKS, SWIM_JUMP_CHANCE, MobBrain
from game.rules.mobs import MobManager
from physics import AABB, Body, Intent, Material

PEN_HALF_SIZE = 6
"""[blocks] The pen's grass floor covers cells -6..6 on X and Z, inside a 2-high stone wall."""
POOL_HALF_SIZE = 1
"""[blocks] The pool in the pen's middle covers cells -1..1 on X and Z (3 x 3)."""
SURFACE_Y = 0.0
"""[blocks] The pools' surface: level with the pen's floor top (their top cells are y = -1)."""
BESIDE_THE_POOL = (3.5, 0.0, 0.5)
"""[blocks] Feet of a mob starting on the floor, one block east of the pool's edge."""
WANDER_TICKS = 2_000
"""[ticks] How long the wandering tests run: 100 s, dozens of walks and turns per mob."""
SEEDS = range(6)
RISE_TICKS = 60
"""[ticks] A mob dropped on a 3-deep pool's floor reaches the surface within this (it takes
about 45: rising about 0.03 to 0.06 blocks a tick)."""
FLOAT_TICKS = 600
"""[ticks] How long a floating mob is watched after it rose."""
BOB_DEPTH = 2.0
"""[blocks] A floating mob's feet stay within this of the surface: it bobs about 1.2 deep, 1.54
at the deepest among these seeds (the draw withheld jump a few ticks running); a sunk one rests
3 under, on the pool's floor."""
MEAN_FLOAT_DEPTH = 1.0
"""[blocks] On average a floating mob's feet are within this of the surface (about 0.7)."""


def pen(fluid: str | None, depth: int) -> Arena:
    """A walled grass pen with a 3 x 3 pool of `fluid`, `depth` cells deep, in its middle (its
    surface level with the floor), in a stone basin; no pool when `fluid` is None."""
    arena = Arena()
    wall, pool = PEN_HALF_SIZE + 1, POOL_HALF_SIZE
    for x in range(-wall, wall + 1):
        for z in range(-wall, wall + 1):
            if max(abs(x), abs(z)) == wall:
                for y in (0, 1):
                    arena.set_block(x, y, z, "stone")
            in_pool = fluid is not None and abs(x) <= pool and abs(z) <= pool
            if in_pool:
                for y in range(-depth, 0):
                    arena.set_block(x, y, z, fluid)
            else:
                arena.set_block(x, -1, z, "grass")
            if fluid is not None and max(abs(x), abs(z)) <= pool + 1:  # the basin
                for y in range(-depth - 1, -1 if not in_pool else -depth):
                    arena.set_block(x, y, z, "stone")
    return arena


def mob_at(feet) -> Body:
    return Body.at_feet(*feet, BOXLING.width, BOXLING.height)


def cells_of(box: AABB):
    """Every cell `box` overlaps (a box ending on a cell's face does not overlap that cell)."""
    ranges = [range(math.floor(box[i]), math.ceil(box[i + 3])) for i in range(3)]
    return [(x, y, z) for x in ranges[0] for y in ranges[1] for z in ranges[2]]


def gap_to_pool(box: AABB) -> float:
    """[blocks] Horizontal gap between `box` and the pen's pool (0 when they overlap on X and Z)."""
    low, high = -POOL_HALF_SIZE, POOL_HALF_SIZE + 1
    dx = max(low - box.max_x, box.min_x - high, 0.0)
    dz = max(low - box.max_z, box.min_z - high, 0.0)
    return max(dx, dz)


def steps(world, brain: MobBrain, body: Body, ticks: int):
    """Each tick the brain thinks and the body steps; yields every body."""
    for _ in range(ticks):
        body = physics.step(body, world, brain.think(body, world))
        yield body


def idle_brain(seed: int) -> MobBrain:
    brain = MobBrain(BOXLING, seed)
    brain.walking, brain.ticks_left = False, 10_000
    return brain


def walking_brain(seed: int, yaw: float) -> MobBrain:
    brain = MobBrain(BOXLING, seed, yaw)
    brain.walking, brain.ticks_left = True, 10_000
    return brain


# --- swimming --------------------------------------------------------------------------------------

def test_a_mob_dropped_into_a_three_deep_pool_rises_to_the_surface_and_floats_there():
    world = pen("water", 3)
    bottom = mob_at((0.5, SURFACE_Y - 3, 0.5))
    for seed in SEEDS:
        bodies = list(steps(world, idle_brain(seed), bottom, RISE_TICKS + FLOAT_TICKS))
        risen = next(t for t, body in enumerate(bodies) if body.feet[1] > SURFACE_Y - 1.0)
        assert risen < RISE_TICKS
        floating = bodies[RISE_TICKS:]
        assert all(SURFACE_Y - BOB_DEPTH < body.feet[1] < SURFACE_Y for body in floating)
        assert sum(body.feet[1] for body in floating) / len(floating) > SURFACE_Y - MEAN_FLOAT_DEPTH
        assert all(body.feet[0] == 0.5 and body.feet[2] == 0.5 for body in bodies)  # idle: straight up
    # Without jump held, the same mob stays on the pool's floor.
    sunk = bottom
    for _ in range(RISE_TICKS):
        sunk = physics.step(sunk, world, Intent())
    assert sunk.feet[1] == SURFACE_Y - 3 and sunk.in_water


def test_a_mob_in_water_holds_jump_on_about_eight_ticks_in_ten_and_on_dry_land_never():
    water, dry = pen("water", 3), pen(None, 0)
    # Bodies after a step: the brain reads the medium when the last move's contact pass met a fluid.
    in_water = physics.step(mob_at((0.5, SURFACE_Y - 3, 0.5)), water, Intent())
    on_land = physics.step(mob_at(BESIDE_THE_POOL), dry, Intent())
    brain = idle_brain(11)
    jumps = [brain.think(in_water, water).jump for _ in range(1_000)]
    assert abs(sum(jumps) / len(jumps) - SWIM_JUMP_CHANCE) < 0.05
    assert not any(brain.think(on_land, dry).jump for _ in range(1_000))


def test_a_mob_swimming_in_a_pool_swims_to_the_bank_it_heads_for_and_climbs_out():
    world = pen("water", 3)
    for seed in SEEDS:
        brain = walking_brain(seed, 270.0)  # east, toward the bank at x = 2
        body = next(b for b in steps(world, brain, mob_at((0.5, SURFACE_Y - 3, 0.5)), 400)
                    if b.on_ground and b.feet[1] == SURFACE_Y)
        assert body.box.max_x > POOL_HALF_SIZE + 1 and brain.yaw == 270.0


# --- avoiding lava and deep water ------------------------------------------------------------------

@pytest.mark.parametrize("fluid, depth", [("lava", 2), ("lava", 1), ("water", DEEP_WATER_BLOCKS), ("water", 3)])
def test_a_mob_wandering_beside_a_pool_of_lava_or_deep_water_never_enters_it(fluid, depth):
    world = pen(fluid, depth)
    material = Material.LAVA if fluid == "lava" else Material.WATER
    for seed in SEEDS:
        closest = math.inf
        for body in steps(world, MobBrain(BOXLING, seed), mob_at(BESIDE_THE_POOL), WANDER_TICKS):
            assert not (body.in_lava or body.in_water)
            assert all(world.material(*cell) != material for cell in cells_of(body.box))
            assert body.feet[1] == SURFACE_Y or not body.on_ground
            closest = min(closest, gap_to_pool(body.box))
        assert closest < 0.5  # it did come to the edge


def test_a_mob_walking_toward_a_lava_pool_turns_away_at_its_edge():
    world = pen("lava", 2)
    brain = walking_brain(4, 90.0)  # west, straight at the pool's east edge (x = 2)
    bodies, yaws = [], []
    for body in steps(world, brain, mob_at(BESIDE_THE_POOL), 200):
        bodies.append(body)
        yaws.append(brain.yaw)
    assert all(world.material(*cell) != Material.LAVA for body in bodies for cell in cells_of(body.box))
    turn = next(t for t, yaw in enumerate(yaws) if yaw != 90.0)
    # It turns once its probe, reaching half its width and the look-ahead past its front, meets
    # the pool's edge cell.
    edge = POOL_HALF_SIZE + 1
    assert edge <= bodies[turn].box.min_x < edge + BOXLING.width / 2 + LOOK_AHEAD_BLOCKS


def test_a_mob_wades_into_water_one_block_deep():
    world = pen("water", 1)
    brain = walking_brain(4, 90.0)  # west, across the puddle
    bodies = list(steps(world, brain, mob_at(BESIDE_THE_POOL), 100))
    assert any(body.in_water and body.on_ground and body.feet[1] == SURFACE_Y - 1 for body in bodies)


def test_a_mob_in_lava_walks_out_of_it():
    world = pen("lava", 1)
    brain = walking_brain(4, 270.0)  # east, toward the bank at x = 2
    bodies = list(steps(world, brain, mob_at((0.5, SURFACE_Y - 1, 0.5)), 200))
    assert bodies[0].in_lava
    assert any(body.on_ground and body.feet[1] == SURFACE_Y and not body.in_lava for body in bodies)


def test_mobs_wandering_around_the_labs_lava_pit_and_pool_never_enter_either():
    spots = [(7.5, 0.0, 9.5), (12.5, 0.0, 9.5), (9.5, 0.0, 12.5), (9.5, 1.0, 8.5),  # around the pit
             (7.5, 0.0, 0.5), (13.5, 0.0, 3.5)]  # beside the pool
    for seed in range(3):
        arena = build_arena()
        mobs, player = MobManager(arena, seed), arena.spawn_body()
        for feet in spots:
            mobs.spawn(feet, others=(player,))
        for _ in range(WANDER_TICKS):
            player = mobs.tick(physics.step(player, arena, Intent()))
            assert not any(body.in_lava or body.in_water for body in mobs.bodies)
        assert len(mobs) == len(spots)


class WithoutRevision:
    """`world` with its collision and one-cell material queries only, and a revision of None (a world
    that counts no edits, as physics allows: the brain reads it every time); no bulk query."""

    revision = None

    def __init__(self, world: Arena) -> None:
        self.collision_boxes, self.material = world.collision_boxes, world.material


@pytest.mark.parametrize("wrap", [lambda arena: arena, WithoutRevision], ids=["with a revision", "without"])
def test_a_walking_mob_sees_lava_poured_in_front_of_it_at_once(wrap):
    arena = pen(None, 0)
    world = wrap(arena)
    brain = walking_brain(4, 90.0)  # west
    body = mob_at(BESIDE_THE_POOL)
    assert brain.think(body, world) == Intent(forward=BOXLING.walk_input, yaw=90.0)
    arena.set_block(2, 0, 0, "lava")  # just ahead, on the floor
    intent = brain.think(body, world)
    assert intent.forward == 0.0 and intent.yaw == brain.yaw != 90.0


# --- determinism -----------------------------------------------------------------------------------

def test_the_same_seed_gives_the_same_swim_and_walk_by_fluids_bit_for_bit():
    world = pen("water", 3)
    start = mob_at((0.5, SURFACE_Y - 3, 0.5))
    first = list(steps(world, MobBrain(BOXLING, 21), start, 1_000))
    again = list(steps(world, MobBrain(BOXLING, 21), start, 1_000))
    other = list(steps(world, MobBrain(BOXLING, 22), start, 1_000))
    assert first == again
    assert first != other


# --- spawning --------------------------------------------------------------------------------------

def test_spawning_refuses_a_box_in_water_or_lava_and_changes_nothing():
    arena = build_arena()
    mobs = MobManager(arena, 0)
    in_pool = (POOL_MIN[0] + 0.5, float(POOL_MIN[1]), POOL_MIN[2] + 1.5)  # on the pool's floor
    in_pit = (LAVA_MIN[0] + 0.5, float(LAVA_MIN[1]), LAVA_MIN[2] + 0.5)
    dipping = (POOL_MAX[0] + 0.5, -0.5, POOL_MAX[2] + 0.5)  # feet half a block into the surface
    for feet in (in_pool, in_pit, dipping):
        assert not mobs.has_room(AABB.around_feet(*feet, BOXLING.width, BOXLING.height))
        with pytest.raises(ValueError, match="no room"):
            mobs.spawn(feet)
    assert len(mobs) == 0 and mobs.spawn_count == 0
    above_the_pool = (POOL_MAX[0] + 0.5, SURFACE_Y, POOL_MAX[2] + 0.5)  # its box starts on the surface
    assert mobs.has_room(AABB.around_feet(*above_the_pool, BOXLING.width, BOXLING.height))
