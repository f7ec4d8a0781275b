"""Beta's creatures in a survival Session, headless and deterministic by seed: a zombie's chase and
blow, burning at dawn, a spider on a wall, a creeper's crater, spawning by day and by night,
peaceful, drops and food, saving, and the report."""

from __future__ import annotations

import math

import pytest

import physics
from game.rules.creature_brain import FUSE_TICKS
from game.rules.creature_kinds import CREATURE_KINDS
from game.rules.creature_life import DEATH_TICKS, death_drops, new_life
from game.rules.health import Vitals
from game.rules.items import FOOD_HEAL, ItemStack
from game.rules.player_inventory import PlayerInventory
from game.rules.replay import Click, KeyDown, KeyUp, Look
from game.rules.session import Session
from game.world import World
from game.world.java_random import JavaRandom

from tests.rules import explosion_reference as reference

from .scripted_runs import flatten

SEED = 42
HALF = 14
"""[blocks] The test arena reaches this far from the spawn on x and z."""
NOON, DAWN, MIDNIGHT = 6000, 0, 18000


def arena(path, floor_block: str = "grass") -> tuple[int, int, int]:
    """A seed-42 survival world flattened around the spawn; returns the spawn's feet cell."""
    with World.create(path, SEED, workers=1, game_mode="survival") as world:
        floor = math.floor(world.spawn[1]) - 1
        flatten(world, floor, range(-HALF, HALF + 1), range(-HALF, HALF + 1), 10)
        if floor_block != "grass":
            for x in range(-HALF, HALF + 1):
                for z in range(-HALF, HALF + 1):
                    world.set_block(x, floor, z, floor_block)
        return math.floor(world.spawn[0]), floor + 1, math.floor(world.spawn[2])


@pytest.fixture
def night(tmp_path):
    """A session at midnight on the arena with no natural spawning; yields (session, spawn feet cell)."""
    feet = arena(tmp_path / "w.boxel")
    world = World.open(tmp_path / "w.boxel", workers=1)
    session = Session.open(world, autosave=False)
    session.mobs.creatures.natural_spawning = False
    session.set_day_time(MIDNIGHT)
    yield session, feet
    world.close()


def place_player(session, x: float, y: float, z: float) -> None:
    session.player.body = session.player.previous = physics.Body.at_feet(x, y, z)


def load_around(world, feet, radius: int) -> None:
    """Load the columns within `radius` of the column under `feet`, as the window's streaming does."""
    cx, cz = math.floor(feet[0]) >> 4, math.floor(feet[2]) >> 4
    for dx in range(-radius, radius + 1):
        for dz in range(-radius, radius + 1):
            world.column(cx + dx, cz + dz)


def creatures(session, kind: str) -> list[int]:
    return [i for i, name in enumerate(session.mobs.kinds) if name == kind]


# --- monsters ---------------------------------------------------------------------------------------

def test_a_zombie_at_night_reaches_and_hits_a_player_standing_ten_blocks_away_on_flat_ground(night):
    session, (x, y, z) = night
    place_player(session, x + 0.5, y, z + 0.5)
    session.mobs.spawn_creature("zombie", (x + 10.5, y, z + 0.5), 90.0)
    for tick in range(400):
        session.tick()
        if session.player.vitals.health < 20:
            break
    (zombie,) = session.mobs.bodies
    assert session.player.vitals.health == 20 - CREATURE_KINDS["zombie"].attack_damage
    assert math.dist(zombie.feet, session.player.body.feet) < 2.5  # it walked the 10 blocks to hit


def test_a_zombie_left_in_the_open_at_dawn_burns_and_dies(tmp_path):
    feet = arena(tmp_path / "w.boxel")
    with World.open(tmp_path / "w.boxel", workers=1) as world:
        session = Session.open(world, autosave=False)
        session.mobs.creatures.natural_spawning = False
        session.set_day_time(DAWN + 1000)
        x, y, z = feet
        place_player(session, x + 0.5, y, z + 0.5)
        session.player.damage_enabled = True
        key = session.mobs.spawn_creature("zombie", (x + 0.5, y, z + 12.5))
        caught_fire = False
        for _ in range(2400):
            session.tick()
            index = session.mobs.index_of(key)
            if index is None:
                break
            caught_fire = caught_fire or session.mobs.lives[index].vitals.fire_ticks > 0
        assert caught_fire and session.mobs.index_of(key) is None


def test_a_skeleton_at_night_shoots_arrows_that_hurt_the_player_it_sees(night):
    session, (x, y, z) = night
    place_player(session, x + 0.5, y, z + 0.5)
    session.mobs.spawn_creature("skeleton", (x + 0.5, y, z + 8.5), 180.0)
    shot = False
    for _ in range(300):
        session.tick()
        shot = shot or len(session.arrows) > 0
        if session.player.vitals.health < 20:
            break
    assert shot
    assert session.player.vitals.health == 20 - 4  # Beta's arrow deals 4


def test_a_spider_climbs_a_three_high_wall_and_stands_on_top(night):
    session, (x, y, z) = night
    world = session.world
    for wx in range(x + 3, x + 6):  # a wall 3 high and 3 thick, the player on top of it
        for wz in range(z - 3, z + 4):
            for wy in range(y, y + 3):
                world.set_block(wx, wy, wz, "stone")
    place_player(session, x + 3.5, y + 3, z + 0.5)  # at the wall's edge, in sight of the spider at its foot
    key = session.mobs.spawn_creature("spider", (x + 1.5, y, z + 0.5), 270.0)
    top = None
    for _ in range(400):
        session.tick()
        spider = session.mobs.bodies[session.mobs.index_of(key)]
        if spider.on_ground and spider.box.min_y == y + 3:
            top = spider
            break
    assert top is not None, "the spider never stood on the wall's top"


def test_a_creepers_crater_and_the_damage_and_push_it_deals_match_the_reference_explosion(tmp_path):
    feet = arena(tmp_path / "w.boxel")
    arena(tmp_path / "twin.boxel")  # the same blocks, left as they were before the blast
    x, y, z = feet
    with World.open(tmp_path / "w.boxel", workers=1) as world:
        session = Session.open(world, autosave=False)
        session.mobs.creatures.natural_spawning = False
        session.set_day_time(MIDNIGHT)
        place_player(session, x + 0.5, y, z + 0.5)
        session.mobs.spawn_creature("creeper", (x + 2.5, y, z + 0.5), 90.0)
        hissed = 0
        for _ in range(200):
            session.tick()
            if not session.mobs.kinds:
                break
            hissed += session.mobs.brains[0].fuse > 0
        assert not session.mobs.kinds and hissed >= FUSE_TICKS - 1  # it hissed its fuse out, then blew up
        (record,) = session.explosions
        broken_here = [cell for cell in record.cells if world.get_block(*cell) == "air"]
        health = session.player.vitals.health
    with World.open(tmp_path / "twin.boxel", workers=1) as twin:
        cells, bodies = reference.explode(twin, record.centre, record.power, JavaRandom(record.seed),
                                          record.boxes, record.positions)
    assert list(record.blast.cells) == cells
    assert [(b.index, b.damage, b.impulse) for b in record.blast.bodies] == [
        (index, damage, impulse) for index, damage, impulse, _ in bodies]
    assert broken_here == list(record.cells) and any(cy == y - 1 for _, cy, _ in broken_here)  # a crater
    (hit,) = record.blast.bodies  # the player, the only body near
    assert health == max(20 - hit.damage, 0)  # a creeper two blocks off kills a player with no armour


# --- animals, drops and food ----------------------------------------------------------------------------

def test_a_sheep_punched_gives_wool_once_and_grows_none_back(night):
    session, (x, y, z) = night
    place_player(session, x + 0.5, y, z + 0.5)
    key = session.mobs.spawn_creature("sheep", (x + 0.5, y, z + 2.5))
    index = session.mobs.index_of(key)
    session.mobs.creatures.hurt(index, 1, (x + 0.5, z + 0.5), 0, by_player=True)
    actions = session.mobs.creatures.take_actions()
    wool = [a for a in actions if getattr(a, "item", None) == "wool"]
    assert 1 <= len(wool) <= 3 and session.mobs.lives[index].sheared
    for _ in range(30):
        session.tick()
    session.mobs.creatures.hurt(session.mobs.index_of(key), 1, (x + 0.5, z + 0.5), 0, by_player=True)
    assert not [a for a in session.mobs.creatures.take_actions() if getattr(a, "item", None) == "wool"]


def test_a_creature_s_death_drops_its_items_by_beta_s_three_rolls():
    rng, twin = JavaRandom(7), JavaRandom(7)
    skeleton = CREATURE_KINDS["skeleton"]
    drops = death_drops(skeleton, new_life(skeleton, JavaRandom(1)), rng)
    arrows, bones = twin.next_int(3), twin.next_int(3)
    assert drops == [("arrow", 1)] * arrows + [("bone", 1)] * bones


def test_a_pig_killed_by_a_player_drops_porkchops_and_one_eaten_heals_three_half_hearts(night):
    session, (x, y, z) = night
    place_player(session, x + 0.5, y, z + 0.5)
    key = session.mobs.spawn_creature("pig", (x + 0.5, y, z + 2.5))
    for _ in range(10):  # ten blows of the fist, each after the hurt time
        index = session.mobs.index_of(key)
        if index is None or session.mobs.lives[index].dead:
            break
        session.mobs.creatures.hurt(index, 1, (x + 0.5, z + 0.5), 0, by_player=True)
        for _ in range(11):
            session.tick()
    for _ in range(DEATH_TICKS + 1):
        session.tick()
    assert session.mobs.index_of(key) is None  # dead, fallen over and gone
    assert {item.stack.item for item in session.dropped.live} <= {"porkchop"}
    session.player.inventory = PlayerInventory([ItemStack("porkchop"), *(None,) * 35])
    session.player.vitals = Vitals(health=10)
    assert session.survival.use_item(session.player)
    assert session.player.vitals.health == 10 + FOOD_HEAL["porkchop"] == 13


def test_a_hit_animal_runs_away_from_the_player(night):
    session, (x, y, z) = night
    place_player(session, x + 0.5, y, z + 0.5)
    key = session.mobs.spawn_creature("cow", (x + 0.5, y, z + 2.5))
    session.mobs.creatures.hurt(session.mobs.index_of(key), 1, (x + 0.5, z + 0.5), 0, by_player=True)
    assert session.mobs.brains[session.mobs.index_of(key)].flee_ticks > 0
    for _ in range(60):
        session.tick()
    cow = session.mobs.bodies[session.mobs.index_of(key)]
    assert math.dist(cow.feet, session.player.body.feet) > 5.0


def test_a_spider_hunts_in_the_dark_and_leaves_a_player_alone_in_daylight(tmp_path):
    feet = arena(tmp_path / "w.boxel")
    x, y, z = feet
    with World.open(tmp_path / "w.boxel", workers=1) as world:
        session = Session.open(world, autosave=False)
        session.mobs.creatures.natural_spawning = False
        place_player(session, x + 0.5, y, z + 0.5)
        for day_time, hunts in ((NOON, False), (MIDNIGHT, True)):
            session.set_day_time(day_time)
            key = session.mobs.spawn_creature("spider", (x + 6.5, y, z + 0.5))
            session.tick()
            brain = session.mobs.brains[session.mobs.index_of(key)]
            assert (brain.target == 0) is hunts
            session.mobs.remove_at(session.mobs.index_of(key))


# --- spawning and peaceful -------------------------------------------------------------------------------

def test_on_peaceful_no_monster_exists(night):
    session, (x, y, z) = night
    session.mobs.spawn_creature("zombie", (x + 8.5, y, z + 0.5))
    session.mobs.spawn_creature("pig", (x - 8.5, y, z + 0.5))
    session.player.damage_enabled = False
    session.mobs.creatures.natural_spawning = True
    for _ in range(400):
        session.tick()
        assert not {"zombie", "skeleton", "spider", "creeper"} & set(session.mobs.kinds)
    assert "pig" in session.mobs.kinds


def test_animals_exist_near_seed_42s_spawn_at_noon(tmp_path):
    with World.create(tmp_path / "w.boxel", SEED, workers=1, game_mode="survival") as world:
        session = Session.open(world, autosave=False)
        session.set_day_time(NOON)
        load_around(world, session.player.body.feet, 4)  # what the window streams in at the smallest view distance
        for _ in range(200):
            session.tick()
        animals = [kind for kind in session.mobs.kinds if kind in ("pig", "cow", "sheep", "chicken")]
        assert animals


def test_monsters_exist_in_a_cave_after_one_minute_at_midnight(tmp_path):
    with World.create(tmp_path / "w.boxel", SEED, workers=1, game_mode="survival") as world:
        session = Session.open(world, autosave=False)
        session.set_day_time(MIDNIGHT)
        feet = session.player.body.feet
        load_around(world, feet, 4)
        x0, z0 = math.floor(feet[0]) + 28, math.floor(feet[2]) - 4  # a sealed room 28 blocks east, deep down
        for x in range(x0, x0 + 9):
            for z in range(z0, z0 + 9):
                for y in range(30, 33):
                    world.set_block(x, y, z, "air")
                world.set_block(x, 29, z, "stone")
                world.set_block(x, 33, z, "stone")
        for _ in range(60 * 20):
            session.tick()
        underground = [body.feet for kind, body in zip(session.mobs.kinds, session.mobs.bodies)
                       if kind in ("zombie", "skeleton", "spider", "creeper")
                       and world.light(*(math.floor(v) for v in body.feet))[0] == 0]
        assert underground


# --- saving and the report ----------------------------------------------------------------------------------

def test_a_creature_is_saved_with_its_kind_and_health_and_comes_back(tmp_path):
    feet = arena(tmp_path / "w.boxel")
    x, y, z = feet
    with World.open(tmp_path / "w.boxel", workers=1) as world:
        session = Session.open(world, autosave=False)
        session.mobs.creatures.natural_spawning = False
        key = session.mobs.spawn_creature("cow", (x + 3.5, y, z + 0.5))
        session.mobs.creatures.hurt(session.mobs.index_of(key), 3, None)
        session.tick()
        before = session.report()["bodies"]
        session.save()
    with World.open(tmp_path / "w.boxel", workers=1) as world:
        session = Session.open(world, autosave=False)
        session.mobs.creatures.natural_spawning = False
        session.mobs.tick([session.player.body])  # the columns near the player give their creatures back
        cow = [b for b in session.report()["bodies"] if b["kind"] == "cow"]
    assert cow and cow[0]["health"] == 7
    saved = [b for b in before if b["kind"] == "cow"][0]
    assert math.dist(saved["box"][:3], cow[0]["box"][:3]) < 0.5  # back where it was saved (one tick on)


def test_the_report_lists_each_creature_by_its_kind_with_its_health(night):
    session, (x, y, z) = night
    for offset, kind in enumerate(CREATURE_KINDS):
        session.mobs.spawn_creature(kind, (x - 10.5 + offset * 2.5, y, z + 8.5))
    session.tick()
    listed = [(b["kind"], b["health"]) for b in session.report()["bodies"] if "health" in b]
    assert [kind for kind, _ in listed] == list(CREATURE_KINDS)
    assert [health for _, health in listed] == [kind.max_health for kind in CREATURE_KINDS.values()]


def test_creatures_speak_with_their_own_voices_and_a_creeper_hisses_as_its_fuse_is_lit(night):
    session, (x, y, z) = night
    place_player(session, x + 0.5, y, z + 0.5)
    session.mobs.spawn_creature("pig", (x - 6.5, y, z + 0.5))
    session.mobs.spawn_creature("creeper", (x + 2.5, y, z + 0.5), 90.0)
    heard = []
    for _ in range(40):
        session.tick()
        heard += [sound.name for sound in session.take_sounds()]
    assert heard.count("fuse") == 1  # once, as the fuse is lit
    assert "mob_say" not in heard  # no creature speaks with the boxling's voice
    for _ in range(400):
        session.tick()
        heard += [sound.name for sound in session.take_sounds()]
    assert "pig_say" in heard
