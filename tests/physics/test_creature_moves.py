"""Creatures' own ways of moving (`Intent.climbs_walls`, `Intent.slow_fall`): Beta's spider
climbing any wall it walks into, Beta's chicken fluttering down, the same on every path that
steps a body (the step by parts, the land step, the crowd one by one and vectorised)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from physics import AABB, BETA, BlockGrid, Body, CrowdSettings, Intent, Material, crowd_vector, shapes
from physics.floats import f32
from physics.tick import step_by_parts

from .test_crowd import MEDIA, MaterialBlindWorld, assert_identical, crowd_of, terrains
from .worlds import EAST_YAW, FLOOR_TOP, floor, standing

SPIDER = (1.4, 0.9)
CHICKEN = (0.3, 0.4)
CREATURE_SIZES = {  # (width, height) [blocks], Beta's setSize
    "boxling": (0.9, 0.9), "pig": (0.9, 0.9), "cow": (0.9, 1.3), "sheep": (0.9, 1.3), "chicken": CHICKEN,
    "zombie": (0.6, 1.8), "skeleton": (0.6, 1.8), "creeper": (0.6, 1.8), "spider": SPIDER,
}
WALL_FACE = 3.0
"""[blocks] West face of the wall the spider walks into (blocks x 3..9, y 64..66)."""
WALL_TOP = FLOOR_TOP + 3.0
GRAVITY = 0.08  # Beta's motionY -= 0.08D
DRAG = f32(0.98)  # Beta's motionY *= 0.98F (widened)
CLIMB = 0.2  # Beta's `if (isCollidedHorizontally && isOnLadder()) motionY = 0.2D`
FLUTTER = 0.6  # Beta's EntityChicken: `motionY *= 0.6D`


def walled_floor() -> BlockGrid:
    grid = floor()
    grid.fill(int(WALL_FACE), 64, -5, 9, 66, 5, shapes.FULL_CUBE)
    return grid


def walk_east(body: Body, grid, ticks: int, **traits) -> list[Body]:
    intent = Intent(forward=1.0, yaw=EAST_YAW, **traits)
    states = []
    for _ in range(ticks):
        body = physics.step(body, grid, intent)
        states.append(body)
    return states


# --- climbing walls ----------------------------------------------------------------------------

def test_a_spider_walking_into_a_three_block_wall_climbs_it_and_stands_on_top():
    grid = walled_floor()
    states = walk_east(standing(grid, width=SPIDER[0], height=SPIDER[1]), grid, 45, climbs_walls=True)
    # Ticks 1-9 walk up to the wall; tick 10 is blocked, on the ground: vy 0.2, then gravity and drag.
    blocked = states[9]
    assert (blocked.box[3], blocked.box[1], blocked.collided_horizontally) == (WALL_FACE, FLOOR_TOP, True)
    rise = (CLIMB - GRAVITY) * DRAG  # 0.11760000228881837 a tick
    assert blocked.velocity[1] == rise
    # Ticks 11-35: each move rises by `rise` (the clamp keeps vy >= -0.15, X is held at 0.15),
    # and is blocked sideways again, so vy is 0.2 again before gravity and drag.
    y = FLOOR_TOP
    for k in range(10, 35):
        y += rise
        assert (states[k].box[1], states[k].velocity, states[k].collided_horizontally) == (y, (0.0, rise, 0.0), True), k
    assert states[34].box[1] < WALL_TOP < states[34].box[1] + rise
    # Tick 36 rises past the top: the move is no longer blocked, no climb: gravity and drag only.
    over = states[35]
    assert (over.box[1], over.collided_horizontally) == (y + rise, False)
    assert over.velocity[1] == (rise - GRAVITY) * DRAG
    # It falls onto the top at tick 39 and stands there, walking on.
    assert [s.on_ground for s in states[35:39]] == [False, False, False, True]
    top = states[-1]
    assert (top.box[1], top.on_ground, top.fall_damage) == (WALL_TOP, True, 0)
    assert WALL_FACE < (top.box[0] + top.box[3]) / 2.0
    assert all(s.fall_damage == 0 for s in states)


def test_the_same_body_without_the_trait_stays_at_the_foot_of_the_wall():
    grid = walled_floor()
    states = walk_east(standing(grid, width=SPIDER[0], height=SPIDER[1]), grid, 45)
    last = states[-1]
    assert (last.box[3], last.box[1], last.on_ground, last.collided_horizontally) == (WALL_FACE, FLOOR_TOP, True, True)
    assert max(s.box[1] for s in states) == FLOOR_TOP


def test_a_wall_climber_is_held_like_a_body_on_a_ladder_before_a_move_after_a_blocked_one():
    # Falling fast beside a wall it was pressed into: vy is raised to -0.15 and the fall distance
    # is reset before the move (Beta's ladder clamps, read from the last move's flag).
    grid = walled_floor()
    box = AABB.around_feet(WALL_FACE - 0.8, 65.0, 0.5, *SPIDER)
    body = Body(box, (0.5, -1.5, 0.3), collided_horizontally=True, fall_distance=5.0)
    after = physics.step(body, grid, Intent(climbs_walls=True))
    assert after.box[1] == 65.0 - 0.15
    assert after.box[3] == WALL_FACE  # X held at +0.15F, then stopped by the wall
    assert after.box[2] == box[2] + f32(0.15)  # Z clamped to 0.15F
    assert (after.fall_distance, after.fall_damage) == (f32(0.15), 0)  # reset, then the move's own drop
    assert after.velocity[1] == (CLIMB - GRAVITY) * DRAG  # blocked sideways: climbs
    plain = physics.step(body, grid, Intent())  # lands: ceil(5 - 3) damage
    assert (plain.box[1], plain.on_ground, plain.fall_damage) == (FLOOR_TOP, True, 2)


def test_a_wall_climber_counts_as_on_a_ladder_only_when_blocked_as_beta_s_spider_reads_no_ladder_block():
    # Beta's EntitySpider.isOnLadder() returns isCollidedHorizontally alone.
    grid = floor()
    grid.set(0, 64, 0, shapes.EMPTY, material=Material.LADDER)  # a ladder cell with no box, at the feet
    body = Body(AABB.around_feet(0.5, 64.5, 0.5, *SPIDER), (0.0, -0.5, 0.0))
    assert physics.step(body, grid, Intent()).box[1] == 64.5 - 0.15  # any body: the ladder's clamp
    assert physics.step(body, grid, Intent(climbs_walls=True)).box[1] == 64.0  # a spider: a plain fall


# --- falling slowly ----------------------------------------------------------------------------

def test_a_chicken_dropped_from_ten_blocks_flutters_down_at_six_tenths_of_its_vertical_velocity_each_tick():
    grid = floor()
    start = Body.at_feet(0.5, FLOOR_TOP + 10.0, 0.5, *CHICKEN)
    chicken, plain = start, start
    y, vy = start.box[1], 0.0
    for tick in range(12):  # Beta: move by vy, then vy = ((vy - 0.08) * 0.98F) * 0.6 in the air
        chicken = physics.step(chicken, grid, Intent(slow_fall=True))
        y += vy
        vy = ((vy - GRAVITY) * DRAG) * FLUTTER
        assert (chicken.box[1], chicken.velocity[1], chicken.on_ground) == (y, vy, False), tick
        if tick == 0:
            assert vy == -0.0784000015258789 * 0.6  # one tick of gravity and drag, then x0.6
    chicken_landed = plain_landed = None
    chicken = plain = start
    for tick in range(1, 200):
        chicken = physics.step(chicken, grid, Intent(slow_fall=True))
        plain = physics.step(plain, grid, Intent())
        if chicken.on_ground and chicken_landed is None:
            chicken_landed = tick
            assert chicken.velocity[1] == (0.0 - GRAVITY) * DRAG  # on the ground: not slowed
        if plain.on_ground and plain_landed is None:
            plain_landed = tick
    assert (plain_landed, chicken_landed) == (18, 91)  # the sums of the two sequences pass 10 blocks
    assert chicken.box[1] == plain.box[1] == FLOOR_TOP


def test_a_slow_faller_rising_or_standing_keeps_its_vertical_velocity():
    grid = floor()
    rising = Body(AABB.around_feet(0.5, 70.0, 0.5, *CHICKEN), (0.0, 0.5, 0.0))
    assert physics.step(rising, grid, Intent(slow_fall=True)).velocity[1] == (0.5 - GRAVITY) * DRAG
    chick = standing(grid, width=CHICKEN[0], height=CHICKEN[1])
    assert physics.step(chick, grid, Intent(slow_fall=True)) == physics.step(chick, grid, Intent())


def test_a_slow_faller_in_water_is_slowed_after_the_swimming_tick_as_beta_s_chicken_is():
    grid = floor()
    grid.fill(-2, 64, -2, 2, 66, 2, shapes.EMPTY, material=Material.WATER)
    # (A chicken, 0.4 tall, is never in water: Beta's water test shrinks a box by 0.4 top and bottom.)
    body = Body(AABB.around_feet(0.5, 64.5, 0.5, *CREATURE_SIZES["cow"]), (0.0, -0.1, 0.0))
    swum = physics.step(body, grid, Intent())
    assert swum.in_water and swum.velocity[1] < 0.0
    assert physics.step(body, grid, Intent(slow_fall=True)).velocity[1] == swum.velocity[1] * FLUTTER


# --- both forms of the step, bad input ---------------------------------------------------------

@pytest.mark.parametrize("traits", [dict(climbs_walls=True), dict(slow_fall=True),
                                    dict(climbs_walls=True, slow_fall=True)])
def test_the_step_and_the_step_by_parts_agree_to_the_bit_for_each_trait(traits):
    grid = walled_floor()
    body = Body.at_feet(0.5, 69.0, 0.5, *SPIDER)
    fused = parts = body
    rng = random.Random(5)
    for tick in range(80):
        intent = Intent(forward=1.0, yaw=rng.choice([EAST_YAW, 0.0, 300.0]), jump=rng.random() < 0.2, **traits)
        fused, parts = physics.step(fused, grid, intent), step_by_parts(parts, grid, intent)
        assert fused == parts and fused.velocity == parts.velocity, tick


@pytest.mark.parametrize("name", ["climbs_walls", "slow_fall"])
@pytest.mark.parametrize("bad", [1, 0, "yes", None, 1.0])
def test_an_intent_refuses_a_trait_that_is_not_a_bool(name, bad):
    with pytest.raises(TypeError, match=f"Intent.{name} must be a bool"):
        Intent(**{name: bad})


def test_a_slow_fall_drag_beyond_one_is_refused():
    import dataclasses
    with pytest.raises(ValueError, match="slow_fall_drag"):
        dataclasses.replace(BETA, slow_fall_drag=1.5)


# --- crowds ------------------------------------------------------------------------------------

@st.composite
def creatures_on(draw, ox, oz):
    """Up to 30 creatures of every kind's size, placed anywhere in the terrain, some pressed into
    a wall by their last move (the ladder clamps of a wall climber's first tick)."""
    count = draw(st.integers(1, 30))
    specs = draw(st.lists(st.tuples(st.floats(0.0, 8.0), st.floats(1.0, 4.5), st.floats(0.0, 8.0),
                                    st.sampled_from(sorted(CREATURE_SIZES)),
                                    st.tuples(st.floats(-0.4, 0.4), st.floats(-0.6, 0.4), st.floats(-0.4, 0.4)),
                                    st.booleans(), st.booleans(), st.sampled_from([0.0, 0.0, 2.5, 12.0])),
                          min_size=count, max_size=count))
    bodies = [Body(AABB.around_feet(ox + x, y, oz + z, *CREATURE_SIZES[kind]), v, on_ground=g,
                   collided_horizontally=h, fall_distance=fall)
              for x, y, z, kind, v, g, h, fall in specs]
    return list(dict.fromkeys(bodies))


creature_intents = st.builds(Intent, forward=st.sampled_from([0.0, 1.0, 1.0, -1.0, 0.5]),
                             strafe=st.sampled_from([0.0, 0.0, 1.0, -0.3]), yaw=st.floats(-720.0, 720.0),
                             jump=st.sampled_from([False, False, True]), sneak=st.sampled_from([False] * 7 + [True]),
                             sprint=st.booleans(), fly=st.sampled_from([False] * 7 + [True]),
                             climbs_walls=st.booleans(), slow_fall=st.booleans())


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_the_crowd_s_vectorised_path_equals_its_one_by_one_path_with_every_kind_of_creature_in_every_medium(data):
    grid, ox, oz = data.draw(terrains())  # air, land, ice, walls of every shape, water, lava, ladders, webs...
    if data.draw(st.booleans()):
        grid = MaterialBlindWorld(grid)
    bodies = data.draw(creatures_on(ox, oz))
    fewest = data.draw(st.sampled_from([CrowdSettings().min_vector_bodies, 1]))
    vectorised = crowd_of(grid, bodies, True, CrowdSettings(min_vector_bodies=fewest))
    one_by_one = crowd_of(grid, bodies, False)
    for _ in range(data.draw(st.integers(1, 8))):
        intents = data.draw(st.lists(creature_intents, min_size=len(bodies), max_size=len(bodies)))
        vectorised.step(intents)
        one_by_one.step(intents)
        assert_identical(vectorised.bodies, one_by_one.bodies)


def creature_pen(media: bool) -> BlockGrid:
    """A 16 x 16 floor walled 3 high, a 3-high block in the middle, and, with `media`, a strip of
    each medium along one side (water, lava, a ladder, a web, soul sand, ice)."""
    grid = floor(x0=-2, x1=18, z0=-2, z1=18)
    grid.fill(-1, 64, -1, 16, 66, -1, shapes.FULL_CUBE)
    grid.fill(-1, 64, 16, 16, 66, 16, shapes.FULL_CUBE)
    grid.fill(-1, 64, 0, -1, 66, 15, shapes.FULL_CUBE)
    grid.fill(16, 64, 0, 16, 66, 15, shapes.FULL_CUBE)
    grid.fill(7, 64, 7, 8, 66, 8, shapes.FULL_CUBE)
    if media:
        for k, (shape, material, flow) in enumerate(MEDIA):
            grid.set(1 + k, 64, 14, shape, material=material, flow=flow)
        grid.fill(1, 63, 1, 4, 63, 4, shapes.FULL_CUBE, slipperiness=0.98)
    return grid


def pen_creatures(seed: int) -> tuple[list[Body], list[dict]]:
    rng = random.Random(seed)
    bodies, traits = [], []
    for k in range(60):
        kind = sorted(CREATURE_SIZES)[k % len(CREATURE_SIZES)]
        x, z = rng.uniform(1.0, 6.0) if k % 2 else rng.uniform(10.0, 15.0), rng.uniform(1.0, 15.0)
        y = FLOOR_TOP + (rng.uniform(2.0, 8.0) if kind == "chicken" else 0.0)
        bodies.append(Body.at_feet(x, y, z, *CREATURE_SIZES[kind]))
        traits.append(dict(climbs_walls=kind == "spider", slow_fall=kind == "chicken"))
    return list(dict.fromkeys(bodies)), traits


@pytest.mark.parametrize("media", [False, True])
def test_creatures_milling_in_a_walled_pen_move_the_same_on_both_paths_and_spiders_climb_its_walls(media):
    grid = creature_pen(media)
    bodies, traits = pen_creatures(seed=3)
    vectorised, one_by_one = crowd_of(grid, bodies, True), crowd_of(grid, bodies, False)
    rng = random.Random(8)
    yaws = [rng.uniform(0.0, 360.0) for _ in bodies]
    highest = {k: FLOOR_TOP for k, t in enumerate(traits) if t["climbs_walls"]}
    for tick in range(100):
        if tick % 25 == 0:
            yaws = [rng.uniform(0.0, 360.0) for _ in bodies]
        intents = [Intent(forward=1.0, yaw=yaw, jump=rng.random() < 0.05, **t) for yaw, t in zip(yaws, traits)]
        vectorised.step(intents)
        one_by_one.step(intents)
        assert_identical(vectorised.bodies, one_by_one.bodies)
        for k in highest:
            highest[k] = max(highest[k], one_by_one.bodies[k].box[1])
    assert max(highest.values()) >= WALL_TOP  # a spider got onto a wall


def test_wall_climbers_and_slow_fallers_away_from_special_blocks_step_on_the_vectorised_path(monkeypatch):
    grid = creature_pen(media=False)
    bodies, traits = pen_creatures(seed=4)
    stepped_alone = []
    real_step = crowd_vector.step

    def recording_step(body, world, intent, settings):
        stepped_alone.append(intent)
        return real_step(body, world, intent, settings)

    monkeypatch.setattr(crowd_vector, "step", recording_step)
    crowd = crowd_of(grid, bodies, True, CrowdSettings(min_vector_bodies=1))
    rng = random.Random(2)
    for _ in range(30):
        crowd.step([Intent(forward=1.0, yaw=rng.uniform(0.0, 360.0), **t) for t in traits])
    climbers = sum(t["climbs_walls"] for t in traits) * 30
    assert sum(i.climbs_walls for i in stepped_alone) < climbers / 10
    assert sum(i.slow_fall for i in stepped_alone) < climbers / 10


def test_creatures_in_a_crowd_without_pushes_step_exactly_as_physics_step_steps_each_alone():
    grid = creature_pen(media=True)
    bodies, traits = pen_creatures(seed=5)
    crowd = physics.Crowd(grid, vectorised=True, pushes=False, tuning=CrowdSettings(min_vector_bodies=1))
    for body in bodies:
        crowd.add(body)
    rng = random.Random(6)
    for tick in range(40):
        intents = [Intent(forward=1.0, yaw=rng.uniform(0.0, 360.0), **t) for t in traits]
        bodies = [physics.step(body, grid, intent) for body, intent in zip(bodies, intents)]
        crowd.step(intents)
        assert_identical(crowd.bodies, bodies)
