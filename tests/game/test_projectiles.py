"""Thrown projectiles (game.rules.projectiles), headless: flight under gravity and drag, bounces off
blocks within the restitution, coming to rest and disappearing, knocking back mobs, hitting the
player once clear of the throw."""

from __future__ import annotations

import math

import pytest

from game.rules.mobs import MobManager
from game.rules.projectiles import (AIR_DRAG, GRAVITY, KNOCKBACK_LIFT, KNOCKBACK_SPEED, MAX_LIFETIME_TICKS, REST_TICKS,
                              RESTITUTION, SIZE_BLOCKS, THROW_SPEED, THROWER_SAFE_TICKS, PlayerHit, Projectile,
                              Projectiles, knock_impulse, step_projectile, throw)
from game.world import World
from physics import BlockGrid, Body
from tests.game.grid_world import grid_world

FLOOR_TOP = 64.0
EXACT = 1e-12
"""[blocks/tick] Float noise allowed where the arithmetic is exact in reals (a few operations on
values of order 1)."""


def floor_grid(size: int = 40) -> BlockGrid:
    grid = BlockGrid()
    grid.fill(-size, 63, -size, size, 63, size)
    return grid


def speed(body: Body) -> float:
    return math.sqrt(sum(v * v for v in body.velocity))


def test_a_thrown_projectile_starts_centred_at_the_eye_moving_along_the_look():
    p = throw(0, (0.5, 65.62, 0.5), 270.0, 0.0)  # east, level
    assert p.body.box.center == pytest.approx((0.5, 65.62, 0.5), abs=EXACT)
    assert p.body.width == SIZE_BLOCKS and p.body.height == SIZE_BLOCKS
    assert p.body.velocity == pytest.approx((THROW_SPEED, 0.0, 0.0), abs=EXACT)
    with pytest.raises(ValueError):
        throw(1, (0.5, math.nan, 0.5), 0.0, 0.0)
    with pytest.raises(TypeError):
        throw(1, (0.5, 65.0), 0.0, 0.0)


def test_in_the_air_it_moves_by_its_velocity_then_loses_drag_and_gravity_each_tick():
    projectiles = Projectiles(grid_world())  # nothing to hit
    projectiles.throw((0.0, 100.0, 0.0), 0.0, -30.0)  # south, 30 degrees up
    (p,) = projectiles.live
    for _ in range(5):
        before = p.body
        projectiles.tick([])
        (p,) = projectiles.live
        vx, vy, vz = before.velocity
        assert p.body.box.min_y - before.box.min_y == pytest.approx(vy, abs=EXACT)
        assert p.body.box.min_z - before.box.min_z == pytest.approx(vz, abs=EXACT)
        assert p.body.velocity == pytest.approx((vx * AIR_DRAG, vy * AIR_DRAG - GRAVITY, vz * AIR_DRAG), abs=EXACT)
        assert p.previous == before


def test_a_projectile_bounces_off_a_wall_keeping_at_most_the_restitution_of_its_speed_into_it():
    grid = floor_grid()
    grid.fill(5, 64, -5, 5, 70, 5)  # a wall whose west face is x = 5
    projectiles = Projectiles(grid_world(grid))
    projectiles.throw((0.5, 66.0, 0.5), 270.0, 0.0)  # east at the wall
    bounced = None
    for _ in range(10):
        (before,) = projectiles.live
        projectiles.tick([])
        (after,) = projectiles.live
        if after.contacts:
            bounced = before, after
            break
    assert bounced is not None
    before, after = bounced
    (contact,) = after.contacts
    assert contact.normal == (-1.0, 0.0, 0.0) and contact.body_box.max_x == 5.0
    # Into the wall (x): reversed and scaled by the restitution (then air drag); along it: drag only.
    vx = before.body.velocity[0]
    assert after.body.velocity[0] == pytest.approx(-vx * RESTITUTION * AIR_DRAG, abs=EXACT)
    assert after.body.velocity[0] ** 2 <= (RESTITUTION * vx) ** 2  # energy into the wall: at most r^2 of it
    assert after.body.box.max_x < 5.0  # it came back out of the wall's face with the rest of its move


def test_a_projectile_comes_to_rest_on_the_floor_and_then_disappears():
    projectiles = Projectiles(grid_world(floor_grid()))
    projectiles.throw((0.5, 65.62, 0.5), 300.0, 20.0)  # a little down and to the east
    ticks, last = 0, None
    while len(projectiles) and ticks < MAX_LIFETIME_TICKS:
        (last,) = projectiles.live
        projectiles.tick([])
        ticks += 1
    assert len(projectiles) == 0 and ticks < MAX_LIFETIME_TICKS  # it rested; its lifetime did not end it
    assert last.body.box.min_y == pytest.approx(FLOOR_TOP, abs=0.05)  # lying on the floor, jittering
    assert last.slow_ticks == REST_TICKS - 1 and speed(last.body) < 0.05
    assert abs(last.body.box.min_x - 0.5) > 3.0  # it got somewhere first


def test_a_projectile_that_never_rests_disappears_after_its_lifetime():
    projectiles = Projectiles(grid_world())  # no floor: it falls for ever
    projectiles.throw((0.0, 0.0, 0.0), 0.0, 0.0)
    for _ in range(MAX_LIFETIME_TICKS - 1):
        projectiles.tick([])
    assert len(projectiles) == 1
    projectiles.tick([])
    assert len(projectiles) == 0


def test_a_projectile_hitting_a_mob_knocks_it_back_and_bounces_off_it(tmp_path):
    with World.create(tmp_path / "w.boxel", 42) as world:
        floor = math.floor(world.spawn[1]) - 1
        for x in range(-2, 10):
            for z in range(-3, 4):
                world.set_block(x, floor, z, "grass")
                for y in range(floor + 1, floor + 6):
                    world.set_block(x, y, z, "air")
        feet_y = floor + 1.0
        mobs = MobManager(world, world.seed)
        mobs.spawn((5.5, feet_y, 0.5))
        for brain in mobs.brains:
            brain.walking, brain.ticks_left = False, 10_000
        player = Body.at_feet(0.5, feet_y, 0.5)
        for _ in range(3):  # the mob settles on the ground
            player = mobs.tick(player)
        projectiles = Projectiles(world)
        projectiles.throw((0.5, feet_y + 0.5, 0.5), 270.0, 0.0)  # east, level, at the mob's middle
        (start,) = mobs.bodies

        knocks, ticks = [], 0
        while not knocks and ticks < 5:  # 4.4 blocks to fly at 1.5 a tick
            knocks = projectiles.tick(mobs.bodies)
            ticks += 1
        (knock,) = knocks
        (p,) = projectiles.live
        assert ticks == 3
        assert knock.index == 0 and knock.impulse == pytest.approx((KNOCKBACK_SPEED, KNOCKBACK_LIFT, 0.0), abs=EXACT)
        contact = p.contacts[-1]
        assert contact.normal == (-1.0, 0.0, 0.0) and contact.box == start.box
        assert p.body.velocity[0] < 0.0  # it bounced back off the mob
        assert p.body.box.max_x == pytest.approx(start.box.min_x, abs=EXACT)
        for knock in knocks:
            mobs.knock_back(knock.index, knock.impulse)
        assert mobs.bodies[0].velocity[0] == start.velocity[0] + KNOCKBACK_SPEED
        for _ in range(10):
            player = mobs.tick(player)
        (mob,) = mobs.bodies
        assert mob.feet[0] - start.feet[0] > 0.5  # knocked east, along the throw
        assert mob.feet[2] == pytest.approx(start.feet[2], abs=EXACT)


def test_a_hit_from_straight_above_only_lifts():
    assert knock_impulse(0.0, 0.0) == (0.0, KNOCKBACK_LIFT, 0.0)
    x, lift, z = knock_impulse(-3.0, 4.0)
    assert (x, lift, z) == pytest.approx((-0.6 * KNOCKBACK_SPEED, KNOCKBACK_LIFT, 0.8 * KNOCKBACK_SPEED), abs=EXACT)


def test_a_block_in_front_of_the_mob_takes_the_hit_instead():
    grid = floor_grid()
    grid.fill(3, 64, -3, 3, 67, 3)  # a wall between the thrower and the mob
    mob = Body.at_feet(4.5, 64.0, 0.5, 0.9, 0.9)  # just behind it: the first tick's sweep would reach it
    projectiles = Projectiles(grid_world(grid))
    projectiles.throw((2.7, 64.5, 0.5), 270.0, 0.0)
    for _ in range(10):
        assert projectiles.tick([mob]) == []


# --- the player as a target -------------------------------------------------------------------------

def flying_at_the_player(age_ticks: int) -> tuple[Projectile, Body]:
    """A projectile of `age_ticks` 1 block west of a player's box on a floor, flying east at it."""
    player = Body.at_feet(2.5, 64.0, 0.5)
    projectile = throw(0, (1.0, 65.0, 0.5), 270.0, 0.0)
    return Projectile(projectile.key, projectile.body, projectile.body, age_ticks), player


@pytest.mark.parametrize("age", range(THROWER_SAFE_TICKS))
def test_a_projectile_in_its_first_ticks_of_flight_flies_through_the_player(age):
    projectile, player = flying_at_the_player(age)
    moved, hit = step_projectile(projectile, floor_grid(), [], player.box)
    assert hit is None
    assert moved.body.box.max_x > player.box.min_x  # it went on into the player's box


def test_a_projectile_that_has_flown_its_safe_ticks_hits_the_player_where_it_meets_the_box_and_bounces_off():
    projectile, player = flying_at_the_player(THROWER_SAFE_TICKS)
    moved, hit = step_projectile(projectile, floor_grid(), [], player.box)
    assert isinstance(hit, PlayerHit)
    assert hit.at == pytest.approx((player.box.min_x - SIZE_BLOCKS / 2, 0.5), abs=EXACT)
    assert moved.body.box.max_x == pytest.approx(player.box.min_x, abs=EXACT)
    assert moved.body.velocity[0] < 0.0  # bounced back west


def test_with_no_player_box_the_projectiles_hit_only_mobs():
    projectile, player = flying_at_the_player(THROWER_SAFE_TICKS)
    projectiles = Projectiles(grid_world(floor_grid()))
    projectiles._live.append(projectile)
    assert projectiles.tick([], None) == []
