"""Arrows (`game.rules.arrow`, `game.rules.arrows`): Beta 1.7.3's `EntityArrow`, bit for bit.

The references: a plain loop in each test (Beta's integrator written out), and positions printed by
Java 17 from a port of `EntityArrow`'s flight (`Double.toHexString`), pinned as hex literals.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from physics import AABB
from physics.floats import f32

from game.rules.arrow import (DAMAGE, GROUND_LIFE_TICKS, SHAKE_TICKS, SOUND_HIT, SOUND_POP, SOUND_SPLASH, Arrow,
                              box_at, loosed, shoot, skeleton_arrow, step_arrow)
from game.rules.arrow_rays import intercept, ray_blocks, walk_blocks
from game.rules.arrow_state import ArrowStateError, arrow_from_state, arrow_state
from game.rules.arrows import Arrows
from game.rules.items import ItemStack
from game.world.java_random import JavaRandom
from game.world.lab import Arena

SPEED = f32(1.5)
DRAG, GRAVITY, WATER_DRAG = f32(0.99), f32(0.03), f32(0.8)


def hexes(*texts: str) -> list[float]:
    return [float.fromhex(text) for text in texts]


def fly(arrow: Arrow, world, ticks: int, targets=(), hurt=None) -> Arrow:
    for _ in range(ticks):
        arrow, _, _ = step_arrow(arrow, world, list(targets), hurt)
    return arrow


def wall_world(z: int = 12) -> Arena:
    """Stone cells at z = `z` for x 0..7 and y 66..75: a wall facing -Z."""
    world = Arena()
    for x in range(8):
        for y in range(66, 76):
            world.set_block(x, y, z, "stone")
    return world


def test_an_arrow_in_open_air_follows_betas_integrator_tick_for_tick():
    arrow = shoot(0, (0.5, 80.0, 0.5), (1.0, 0.5, 2.0), SPEED, 0.0, JavaRandom(12345))
    # Beta by hand: the heading is the aim over its float length, times the speed (no inaccuracy);
    # each tick: position += motion, motion *= 0.99F, motionY -= 0.03F.
    length = f32(math.sqrt(1.0 + 0.25 + 4.0))
    vx, vy, vz = 1.0 / length * SPEED, 0.5 / length * SPEED, 2.0 / length * SPEED
    x, y, z = 0.5, 80.0, 0.5
    world = Arena()
    for _ in range(40):
        arrow, hit, _ = step_arrow(arrow, world, [])
        x, y, z = x + vx, y + vy, z + vz
        vx, vy, vz = vx * DRAG, vy * DRAG - GRAVITY, vz * DRAG
        assert arrow.position == (x, y, z) and arrow.motion == (vx, vy, vz) and hit is None
    assert [*arrow.position, *arrow.motion] == hexes(  # Java's, tick 40
        "0x1.62bbf5ba25298p4", "0x1.18935e6a7b95p6", "0x1.5ebbf5ba25298p5",
        "0x1.c074a5d9b6036p-2", "-0x1.8c587579897bp-1", "0x1.c074a5d9b6036p-1")
    assert (arrow.yaw, arrow.pitch) == tuple(hexes("0x1.a90a72p4", "-0x1.03bdcp5"))


def test_a_seeded_inaccuracy_adds_javas_gaussians_to_the_heading():
    arrow = shoot(0, (-3.25, 70.0, 8.75), (-0.5, 0.25, 1.0), SPEED, 12.0, JavaRandom(777))
    gaussians = JavaRandom(777)
    length = f32(math.sqrt(0.25 + 0.0625 + 1.0))
    heading = [a / length + gaussians.next_gaussian() * f32(0.0075) * 12.0 for a in (-0.5, 0.25, 1.0)]
    vx, vy, vz = (a * SPEED for a in heading)
    assert arrow.motion == (vx, vy, vz)
    x, y, z = arrow.position
    world = Arena()
    for _ in range(40):
        arrow = fly(arrow, world, 1)
        x, y, z = x + vx, y + vy, z + vz
        vx, vy, vz = vx * DRAG, vy * DRAG - GRAVITY, vz * DRAG
        assert arrow.position == (x, y, z)
    assert [*arrow.position, *arrow.motion] == hexes(  # Java's, tick 40
        "-0x1.68cfb0b291e81p4", "0x1.c2f026e227a1bp5", "0x1.af9ad4d0b634bp5",
        "-0x1.8f684338c7ebdp-2", "-0x1.b36c23f699f7fp-1", "0x1.d3b05764dc329p-1")


def test_a_skeletons_arrow_starts_above_its_head_and_lands_where_javas_does():
    arrow = skeleton_arrow(0, (10.5, 64.0, 20.5), 30.0, -5.0, (14.25, 65.74, 31.5), JavaRandom(99))
    assert [*arrow.position, *arrow.motion] == hexes(
        "0x1.4b90dccp3", "0x1.0b51eb818p6", "0x1.46b85692p4",
        "0x1.a9125bc0e2c81p-3", "0x1.95d4592f2fa01p-4", "0x1.0c6cbae59a7bcp-1")
    assert arrow.box[1] == pytest.approx(arrow.position[1] - f32(1.4))  # raised, its box not moved (Beta's)
    arrow = fly(arrow, Arena(), 30)
    assert [*arrow.position, *arrow.motion] == hexes(  # Java's, tick 30
        "0x1.f8734579cd53p3", "0x1.cbfdcaf68f00cp5", "0x1.108883e76b04fp5",
        "0x1.3a6d00eca101p-3", "-0x1.6a4bd5da0fa69p-1", "0x1.8d1b9c749e977p-2")


def test_an_arrow_shot_at_a_wall_sticks_005_short_of_the_face_and_stays():
    world = wall_world()
    arrow = shoot(0, (2.3, 70.1, 0.7), (0.2, 0.3, 1.0), SPEED, 0.0, JavaRandom(5))
    arrow = fly(arrow, world, 8)
    assert not arrow.in_ground
    before = arrow.position
    arrow, hit, sounds = step_arrow(arrow, world, [])
    assert arrow.in_ground and hit is None and arrow.tile[2] == 12 and arrow.shake == SHAKE_TICKS
    assert list(arrow.position) == hexes("0x1.233784e5ac512p2", "0x1.225bd8a6e99f1p6", "0x1.7e7132a49531p3")  # Java's
    offset = [f32(p - b) for p, b in zip(arrow.position, before)]
    assert 12.0 - arrow.position[2] == pytest.approx(0.05 * offset[2] / math.sqrt(sum(v * v for v in offset)))
    assert [s.name for s in sounds] == [SOUND_HIT]
    stuck = arrow
    arrow = fly(arrow, world, 100)
    assert arrow.position == stuck.position and arrow.in_ground and arrow.shake == 0
    assert arrow.ticks_in_ground == 100


def test_a_stuck_arrow_is_gone_after_1200_ticks_in_its_block():
    world = wall_world()
    arrow = fly(shoot(0, (2.3, 70.1, 0.7), (0.2, 0.3, 1.0), SPEED, 0.0, JavaRandom(5)), world, 9)
    assert arrow.in_ground
    arrow = fly(arrow, world, GROUND_LIFE_TICKS - 1)
    assert arrow is not None and arrow.ticks_in_ground == GROUND_LIFE_TICKS - 1
    assert step_arrow(arrow, world, [])[0] is None


def test_an_arrow_whose_block_is_removed_falls_out_and_flies_on():
    world = wall_world()
    arrow = fly(shoot(0, (2.3, 70.1, 0.7), (0.2, 0.3, 1.0), SPEED, 0.0, JavaRandom(5)), world, 12)
    world.set_block(*arrow.tile, "air")
    loose, _, _ = step_arrow(arrow, world, [])
    assert not loose.in_ground and loose.position == arrow.position and loose.ticks_in_air == 0
    draws = JavaRandom.from_state(arrow.rand)
    assert loose.motion == tuple(v * f32(draws.next_float() * f32(0.2)) for v in arrow.motion)
    falling = fly(loose, world, 5)
    assert falling.position[1] < loose.position[1] and not falling.in_ground


def test_an_arrow_shot_at_a_body_hits_it_for_4_and_is_gone():
    arrow = shoot(0, (0.5, 70.0, 0.5), (0.0, 0.0, 1.0), SPEED, 0.0, JavaRandom(1), shooter="skeleton")
    zombie = AABB.around_feet(0.5, 69.5, 3.0, 0.6, 1.8)
    world = Arena()
    arrow, hit, _ = step_arrow(arrow, world, [("zombie", zombie)])
    assert hit is None and arrow is not None  # 1.5 blocks on: the zombie's grown box starts at 2.4
    gone, hit, sounds = step_arrow(arrow, world, [("zombie", zombie)])
    assert gone is None and hit.target == "zombie" and hit.damage == DAMAGE == 4 and hit.shooter == "skeleton"
    assert hit.at == (0.5, arrow.position[2]) and [s.name for s in sounds] == [SOUND_HIT]


def test_the_nearest_body_on_the_path_is_hit_and_none_behind_a_wall():
    arrow = shoot(0, (2.5, 70.0, 0.5), (0.0, 0.0, 1.0), SPEED, 0.0, JavaRandom(1))
    near, far = AABB.around_feet(2.5, 69.5, 1.6, 0.6, 1.8), AABB.around_feet(2.5, 69.5, 2.5, 0.6, 1.8)
    _, hit, _ = step_arrow(arrow, Arena(), [("far", far), ("near", near)])
    assert hit.target == "near"
    arrow = shoot(0, (2.5, 70.0, 2.0), (0.0, 0.0, 1.0), SPEED, 0.0, JavaRandom(1))
    behind = AABB.around_feet(2.5, 69.5, 4.0, 0.6, 1.8)  # its grown box starts at 3.4, within this tick's 3.5
    assert step_arrow(arrow, Arena(), [("behind", behind)])[1].target == "behind"
    moved, hit, _ = step_arrow(arrow, wall_world(z=3), [("behind", behind)])
    assert hit is None and moved.in_ground


def test_the_shooter_is_spared_for_its_first_four_ticks_in_the_air():
    shooter = AABB.around_feet(0.5, 70.0, 0.5, 0.6, 1.8)
    arrow = shoot(0, (0.5, 71.0, -1.0), (0.0, 0.0, 1.0), SPEED, 0.0, JavaRandom(1), shooter=7)
    for flown in range(4):
        assert step_arrow(replace(arrow, ticks_in_air=flown), Arena(), [(7, shooter)])[1] is None
    assert step_arrow(replace(arrow, ticks_in_air=4), Arena(), [(7, shooter)])[1].target == 7
    assert step_arrow(arrow, Arena(), [(8, shooter)])[1].target == 8


def test_a_refused_hit_bounces_the_arrow_back_at_a_tenth_of_its_speed():
    arrow = shoot(0, (0.5, 70.0, 0.5), (0.0, 0.0, 1.0), SPEED, 0.0, JavaRandom(1))
    zombie = AABB.around_feet(0.5, 69.5, 1.5, 0.6, 1.8)
    asked = []
    moved, hit, _ = step_arrow(arrow, Arena(), [("zombie", zombie)], lambda key, damage: asked.append((key, damage)))
    assert asked == [("zombie", 4)] and hit is None and moved.ticks_in_air == 0
    assert moved.position[2] == 0.5 + SPEED * -0.10000000149011612


def test_a_stuck_arrow_is_picked_up_by_a_player_touching_it_once_it_stops_shaking():
    world = wall_world()
    arrows = Arrows(seed=3)
    arrows.shoot((2.3, 70.1, 0.7), (0.2, 0.3, 1.0), SPEED, 0.0)
    for _ in range(9):
        arrows.tick(world, [])
    (arrow,) = arrows.live
    assert arrow.in_ground and arrow.shake == SHAKE_TICKS
    x, y, z = arrow.position
    player = AABB.around_feet(x, y - 1.0, z - 1.0, 0.6, 1.8)
    given: list[tuple[str, ItemStack]] = []

    def give(name, stack):
        given.append((name, stack))
        return 1

    assert arrows.pick_up({"alice": player}, give) == 0 and given == []  # still shaking
    for _ in range(SHAKE_TICKS):
        arrows.tick(world, [])
    assert arrows.pick_up({"alice": None, "bob": AABB.around_feet(x + 5, y, z, 0.6, 1.8)}, give) == 0
    assert arrows.pick_up({"alice": player}, give) == 1
    assert given == [("alice", ItemStack("arrow", 1))] and len(arrows) == 0
    assert [s.name for s in arrows.take_sounds()][-1] == SOUND_POP


def test_a_full_inventory_leaves_the_arrow_where_it_is():
    world = wall_world()
    arrows = Arrows(seed=3)
    arrows.shoot((2.3, 70.1, 0.7), (0.2, 0.3, 1.0), SPEED, 0.0)
    for _ in range(9 + SHAKE_TICKS):
        arrows.tick(world, [])
    x, y, z = arrows.live[0].position
    assert arrows.pick_up({"alice": AABB.around_feet(x, y - 1.0, z - 1.0, 0.6, 1.8)}, lambda *_: 0) == 0
    assert len(arrows) == 1


def test_an_arrow_in_water_keeps_08_of_its_motion_a_tick():
    world = Arena()
    for x in range(-2, 3):
        for z in range(-2, 30):
            for y in range(60, 72):
                world.set_block(x, y, z, "water")
    arrow = shoot(0, (0.5, 66.0, 0.5), (0.0, 0.0, 1.0), SPEED, 0.0, JavaRandom(1))
    arrow = fly(arrow, world, 1)
    vx, vy, vz = arrow.motion
    assert (vy, vz) == (0.0 * WATER_DRAG - GRAVITY, SPEED * WATER_DRAG)


def test_an_arrow_entering_water_splashes_with_betas_draws():
    world = Arena()
    for x in range(-2, 3):
        for z in range(3, 12):
            world.set_block(x, 66, z, "water")
    arrow = fly(shoot(0, (0.5, 67.0, 0.5), (0.0, -0.3, 1.0), SPEED, 0.0, JavaRandom(4)), world, 1)
    sounds = []
    while not sounds:
        before = arrow
        arrow, _, sounds = step_arrow(arrow, world, [])
    assert [s.name for s in sounds] == [SOUND_SPLASH] and arrow.in_water and not before.in_water
    draws = JavaRandom.from_state(before.rand)
    for _ in range(2 + 55):
        draws.next_float()
    assert arrow.rand == draws.state


def test_a_save_and_reload_mid_flight_flies_on_identically():
    world = wall_world()
    arrows = Arrows(seed=11)
    arrows.shoot((2.3, 70.1, 0.7), (0.2, 0.3, 1.0), SPEED, 5.0, shooter=4)
    arrows.shoot((5.5, 71.0, -20.0), (0.0, 0.2, 1.0), SPEED, 0.0)
    for _ in range(5):
        arrows.tick(world, [])
    arrows.save(world)
    again = Arrows(seed=11)
    again.load(world)
    assert again.live == arrows.live and again.next_key == 2
    for _ in range(30):
        arrows.tick(world, [])
        again.tick(world, [])
    assert again.live == arrows.live and any(a.in_ground for a in again.live)


def test_a_damaged_saved_arrow_is_kept_as_it_is_with_a_warning_and_refused_by_restore():
    world = Arena()
    arrows = Arrows()
    arrows.shoot((0.5, 80.0, 0.5), (0.0, 0.0, 1.0), SPEED, 0.0)
    arrows.save(world)
    (entry,) = world.column_entities(0, 0)
    damaged = {**entry, "motion": [0.0, "fast", 1.0]}
    world.set_column_entities(0, 0, [damaged, {"kind": "pig"}])
    loaded = Arrows()
    with pytest.warns(UserWarning, match="'motion'"):
        loaded.load(world)
    assert len(loaded) == 0
    loaded.save(world)
    assert world.column_entities(0, 0) == [{"kind": "pig"}, damaged]
    with pytest.raises(ArrowStateError, match="'tile_block'"):
        Arrows().restore([{**entry, "tile": [0, 1, 2], "tile_block": "no such block"}])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(["key", "position", "motion", "box", "yaw", "rand", "shooter", "tile",
                                        "tile_block", "shake", "in_ground", "kept_gaussian"]),
                       st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=5),
                                 st.lists(st.floats(), max_size=6))))
def test_any_damage_to_a_saved_arrow_gives_an_arrow_or_a_clear_error(changes):
    entry = arrow_state(shoot(3, (0.5, 80.0, 0.5), (0.0, 0.0, 1.0), SPEED, 1.0, JavaRandom(2)), order=1)
    try:
        arrow, order = arrow_from_state({**entry, **changes})
    except ArrowStateError as error:
        assert str(error).startswith("a saved arrow")
    else:
        assert isinstance(arrow, Arrow) and order == 1


def test_a_saved_arrow_reads_back_bit_for_bit():
    arrow = fly(loosed(5, (1.25, 70.5, -3.0), 123.0, -20.0, JavaRandom(8), shooter="bob"), wall_world(), 3)
    assert arrow_from_state(arrow_state(arrow, 2)) == (arrow, 2)


def test_bad_bodies_and_callbacks_are_refused_before_anything_changes():
    arrows = Arrows()
    arrows.shoot((0.5, 80.0, 0.5), (0.0, 0.0, 1.0), SPEED, 0.0)
    before = arrows.live
    with pytest.raises(TypeError):
        arrows.tick(Arena(), [("pig", "not a box")])
    with pytest.raises(TypeError):
        arrows.tick(Arena(), [], hurt=3)
    with pytest.raises(TypeError):
        arrows.pick_up(["alice"], lambda *_: 1)
    assert arrows.live == before
    with pytest.raises(ValueError):
        shoot(0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), SPEED, 0.0, JavaRandom(1))
    with pytest.raises(TypeError):
        shoot(0, (0.0, 0.0), (0.0, 0.0, 1.0), SPEED, 0.0, JavaRandom(1))


def test_views_blend_position_and_angles_and_the_report_lists_every_arrow():
    arrows = Arrows()
    arrows.shoot((0.5, 80.0, 0.5), (0.0, 0.0, 1.0), SPEED, 0.0)
    arrows.tick(Arena(), [])
    (view,) = arrows.views(0.5)
    (arrow,) = arrows.live
    assert view.position == tuple((a + b) / 2 for a, b in zip(arrow.previous, arrow.position))
    assert view.box == box_at(view.position) and not view.in_ground
    assert arrows.bodies() == {"arrow:0": ("arrow", arrow.box, arrow.motion)}


def test_a_segment_meets_a_box_at_its_nearest_face_crossing():
    box = (1.0, 0.0, 0.0, 2.0, 1.0, 1.0)
    assert intercept(box, (0.0, 0.5, 0.5), (3.0, 0.5, 0.5)) == (1.0, 0.5, 0.5)
    assert intercept(box, (1.5, 0.5, 0.5), (3.0, 0.5, 0.5)) == (2.0, 0.5, 0.5)  # from inside: the way out
    assert intercept(box, (0.0, 2.0, 0.5), (3.0, 2.0, 0.5)) is None


def test_the_block_ray_flies_through_plants_and_water_and_stops_at_stone():
    world = Arena()
    world.set_block(0, 64, 2, "water")
    world.set_block(0, 64, 3, "torch")
    world.set_block(0, 64, 5, "stone")
    hit = ray_blocks(world, (0.5, 64.5, 0.5), (0.5, 64.5, 9.5))
    assert hit.cell == (0, 64, 5) and hit.point == (0.5, 64.5, 5.0)
    assert ray_blocks(world, (0.5, 64.5, 0.5), (0.5, 64.5, 4.5)) is None


EDITS = ["air", "stone", "water", "dirt"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.floats(-0.6, 0.6), st.floats(-0.2, 0.5), st.floats(0.0, 12.0)), min_size=1, max_size=4),
       st.lists(st.tuples(st.integers(1, 60), st.integers(0, 7), st.integers(66, 75), st.integers(10, 12),
                          st.sampled_from(EDITS)), max_size=6))
def test_resting_arrows_skip_their_steps_exactly_through_edits(shots, edits):
    twins = []
    for resting in (True, False):
        world = wall_world()
        arrows = Arrows(seed=5, resting=resting)
        for dx, dy, spread in shots:
            arrows.shoot((3.5 + dx, 70.0, 1.0), (dx, dy, 1.0), SPEED, spread)
        log = []
        for tick in range(1, 70):
            for when, x, y, z, name in edits:
                if when == tick:
                    world.set_block(x, y, z, name)
            log.append((arrows.tick(world, []), arrows.live, arrows.take_sounds()))
        twins.append((log, arrows.resting_count))
    (fast, resting_count), (slow, none) = twins
    assert fast == slow and none == 0
    if not edits:
        assert resting_count == sum(1 for arrow in fast[-1][1] if arrow.in_ground)


def test_a_resting_arrow_is_gone_on_the_tick_its_step_would_end_it():
    lives = []
    for resting in (True, False):
        world = wall_world()
        arrows = Arrows(seed=5, resting=resting)
        arrows.shoot((2.3, 70.1, 0.7), (0.2, 0.3, 1.0), SPEED, 0.0)
        ticks = 0
        while len(arrows):
            arrows.tick(world, [])
            ticks += 1
            if ticks == 600:
                assert arrows.live[0].ticks_in_ground == 600 - 9 and (arrows.resting_count == 1) == resting
        lives.append(ticks)
    assert lives == [9 + GROUND_LIFE_TICKS] * 2  # stuck on tick 9, then 1200 ticks in its block


RAY_BLOCKS = ["stone", "stone_slab", "stairs_east", "fence", "water", "torch", "glass"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3), st.sampled_from(RAY_BLOCKS)),
                max_size=12),
       st.tuples(*[st.floats(-0.5, 4.5)] * 6))
def test_the_block_ray_skips_open_air_exactly(blocks, segment):
    world = Arena()
    for x, y, z, name in blocks:
        world.set_block(x, 64 + y, z, name)
    start, end = (segment[0], 64 + segment[1], segment[2]), (segment[3], 64 + segment[4], segment[5])
    assert ray_blocks(world, start, end) == walk_blocks(world, start, end)
