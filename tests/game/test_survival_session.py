"""Survival's rules in a Session, headless: drops by the tool, digging down by hand, doors against a
mob, beds through the night, health only from food, death's scatter, and saving it all."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

import physics
from game.rules.beds import NOTICE_NOT_NOW, SLEEP_TICKS
from game.rules.items import ItemStack
from game.rules.mob_brain import BOXLING
from game.rules.player_inventory import PlayerInventory
from game.rules.replay import Click, KeyDown, Look
from game.rules.session import Session
from game.world import World
from game.world.blocks import NAMES
from game.world.terrain import Terrain

from .survival_bot import Bot, survival_world, walk_to

REPO = Path(__file__).resolve().parents[2]
UP, EAST, WEST, SOUTH = (0, 1, 0), (1, 0, 0), (-1, 0, 0), (0, 0, 1)
DATA = Path(__file__).parent / "data"
DIG_DOWN = DATA / "dig_down.jsonl"
"""Look straight down at tick 0 and hold the attack button: a seed-42 survival player digging by hand."""
DIG_DOWN_TICKS = 1200
ZOMBIE_WIDTH = 0.6
"""[blocks] Beta's zombie (and player) width: a mob that fits through an open door."""


@pytest.fixture
def survival(tmp_path):
    """A session on a fresh `survival_world` (closed afterwards) and the platform's floor height."""
    path = tmp_path / "world.boxel"
    spawn = survival_world(path)
    world = World.open(path, workers=1)
    session = Session.open(world, autosave=False)
    yield session, spawn[1] - 1
    world.close()


def give(session, *stacks: ItemStack) -> None:
    """Put `stacks` in the local player's hotbar, slot 0 first (a test's setup, as a creative give)."""
    session.player.inventory = PlayerInventory([*stacks, *(None,) * (36 - len(stacks))])


# --- the command line: digging straight down ---------------------------------------------------------

def test_digging_straight_down_by_hand_at_seed_42s_spawn_gathers_the_dirt_and_no_cobblestone(tmp_path):
    report_path = tmp_path / "report.json"
    done = subprocess.run([sys.executable, "main.py", "--headless", "--world", str(tmp_path / "w.boxel"), "--new",
                           "--seed", "42", "--replay", str(DIG_DOWN), "--exit-after-ticks", str(DIG_DOWN_TICKS),
                           "--report", str(report_path)], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(report_path.read_text())
    assert report["game_mode"] == "survival"
    with World.open(tmp_path / "w.boxel", workers=1) as world:
        x, y, z = (math.floor(v) for v in world.spawn)
    column = Terrain(42).column(x >> 4, z >> 4)[x & 15, :, z & 15]
    dug = [NAMES[int(column[cell_y])] for cell_y in range(math.floor(report["feet"][1]), y)]  # surface down
    soil = sum(name in ("grass", "dirt") for name in dug)
    assert soil > 0 and len(dug) > soil and "stone" in dug  # it dug through the soil into the stone
    assert report["inventory"] == [["dirt", soil], *[None] * 35]  # one dirt a soil block, nothing for the stone
    assert report["inventory"] == [["dirt", 4], *[None] * 35]  # seed 42's spawn: grass over three dirt


# --- drops and tools -------------------------------------------------------------------------------

def test_stone_dug_by_hand_drops_nothing_and_with_a_wooden_pickaxe_drops_cobblestone_and_wears_it(survival):
    session, floor = survival
    bot = Bot(session)
    session.world.set_block(1, floor + 1, 1, "stone")
    assert bot.dig((1, floor + 1, 1), UP) == 151  # Beta's stone by hand: 1 / 1.5 / 100 a tick
    assert not session.dropped.live and all(stack is None for stack in session.player.inventory.slots)
    session.world.set_block(1, floor + 1, 1, "stone")
    give(session, ItemStack("wooden_pickaxe"))
    assert bot.dig((1, floor + 1, 1), UP) == 23  # Beta's wooden pickaxe on stone
    bot.tick(20)
    slots = session.player.inventory.slots
    assert slots[0] == ItemStack("wooden_pickaxe", 1, 1)  # one point of wear
    assert ItemStack("cobblestone") in slots


def test_a_tool_worn_past_its_durability_breaks(survival):
    session, floor = survival
    give(session, ItemStack("golden_pickaxe", 1, 32))  # gold: 32 uses, this is its last
    session.world.set_block(1, floor + 1, 1, "stone")
    Bot(session).dig((1, floor + 1, 1), UP)
    assert session.player.inventory.slots[0] != ItemStack("golden_pickaxe", 1, 32)
    assert all(stack is None or stack.item != "golden_pickaxe" for stack in session.player.inventory.slots)


def test_placing_a_block_uses_one_and_nothing_is_placed_with_an_empty_hand(survival):
    session, floor = survival
    bot = Bot(session)
    give(session, ItemStack("planks", 2))
    bot.use((1, floor, 1), UP)
    assert session.world.get_block(1, floor + 1, 1) == "planks"
    assert session.player.inventory.slots[0] == ItemStack("planks", 1)
    bot.use((-1, floor, 1), UP)
    bot.use((-1, floor, -1), UP)  # the hand is empty now
    assert (session.world.get_block(-1, floor + 1, 1), session.world.get_block(-1, floor + 1, -1)) == ("planks", "air")


def test_q_drops_one_of_the_held_item_as_an_item_that_can_be_picked_up_again_after_its_delay(survival):
    session, _ = survival
    give(session, ItemStack("stick", 3))
    bot = Bot(session)
    bot.press("q")
    assert session.player.inventory.slots[0] == ItemStack("stick", 2)
    assert [item.stack for item in session.dropped.live] == [ItemStack("stick")]


def test_creative_keeps_the_projectile_on_q_and_breaking_drops_nothing(tmp_path):
    with World.create(tmp_path / "c.boxel", 42, workers=1, game_mode="creative") as world:
        session = Session.open(world, autosave=False)
        assert session.survival is None and session.player.inventory is None and session.flying_allowed
        bot = Bot(session)
        bot.press("q")
        assert len(session.projectiles.live) == 1 and not session.dropped.live


def test_survival_does_not_let_the_player_fly(survival):
    session, _ = survival
    Bot(session).press("f")
    assert not session.player.flying and not session.flying_allowed


# --- health and food -------------------------------------------------------------------------------

def test_survival_health_comes_back_only_by_eating(survival):
    session, _ = survival
    session.player.vitals = session.player.vitals.__class__(health=10)
    give(session, ItemStack("bread"))
    session.run([], 400)
    assert session.player.vitals.health == 10  # no regeneration outside peaceful
    session.apply(Click(session.ticks_run, "right"))  # eat: bread heals 5 half hearts at once
    session.tick()
    assert session.player.vitals.health == 15 and session.player.inventory.slots[0] is None


def test_survival_in_peaceful_heals_one_half_heart_every_20_ticks_as_beta(survival):
    session, _ = survival
    session.player.damage_enabled = False
    session.player.vitals = session.player.vitals.__class__(health=10)
    session.run([], 100)
    assert session.player.vitals.health == 15


def test_death_scatters_the_inventory_as_items_and_the_player_respawns_with_none(survival):
    session, floor = survival
    give(session, ItemStack("cobblestone", 10), ItemStack("stick", 2))
    session.player.vitals = session.player.vitals.__class__(health=1)
    session.player.body = session.player.previous = physics.Body.at_feet(0.5, floor + 12.0, 0.5)  # a deadly fall
    for _ in range(60):
        session.tick()
        if session.player.dead:
            break
    assert session.player.dead
    assert all(stack is None for stack in session.player.inventory.slots)
    assert sorted((item.stack.item, item.stack.count) for item in session.dropped.live) == [("cobblestone", 10),
                                                                                             ("stick", 2)]
    session.apply(KeyDown(session.ticks_run, "enter"))
    session.tick()
    assert not session.player.dead and session.player.vitals.health == 20


# --- doors and beds ----------------------------------------------------------------------------------

def test_a_shut_door_stops_a_mob_and_an_open_one_lets_it_through(survival):
    session, floor = survival
    y, z = floor + 1, -4
    for wall_z in (z - 1, z + 1):  # a wall with a doorway at (2, y, z)
        for height in (y, y + 1):
            session.world.set_block(2, height, wall_z, "cobblestone")
    give(session, ItemStack("wooden_door"))
    bot = Bot(session)
    walk_to(bot, 0.5, z + 0.5)
    bot.use((2, floor, z), UP)  # the door, facing away from the player: east
    door = session.world.get_block(2, y, z)
    assert door.startswith("door_lower_east") and door.endswith("_closed"), door

    def walk_mob_through() -> float:
        # A zombie-wide body (0.6): Beta's doorway, less the open door's 3/16, is 0.8125 wide, too
        # narrow for a 0.9-wide boxling (or a pig), as in Beta.
        body = physics.Body.at_feet(4.5, y, z + 0.5, ZOMBIE_WIDTH, BOXLING.height)
        for _ in range(60):
            body = physics.step(body, session.world, physics.Intent(forward=1.0, yaw=90.0))  # towards -x
        return body.box.min_x

    assert walk_mob_through() == 2.0 + 3.0 / 16.0  # against the shut door's 3/16-thick slab
    bot.use((2, y, z), WEST)  # right click: open
    assert session.world.get_block(2, y, z).endswith("_open")
    assert walk_mob_through() < 1.0  # through the doorway, past the wall


def test_a_bed_at_night_skips_to_morning_and_becomes_the_spawn(survival):
    session, floor = survival
    y = floor + 1
    give(session, ItemStack("bed"))
    bot = Bot(session)
    bot.use((0, floor, 2), UP)  # the bed, from its foot along the look
    foot = next((x, y, z) for x in range(-2, 3) for z in range(0, 5)
                if session.world.get_block(x, y, z).startswith("bed_foot_"))
    bot.use(foot, UP)  # by day: refused
    assert session.notices[-1] == NOTICE_NOT_NOW and not session.player.sleeping_ticks
    session.set_day_time(18_000)
    bot.use(foot, UP)
    assert session.player.sleeping_ticks
    bot.tick(SLEEP_TICKS)
    assert session.day_time < 20  # the next morning, a few ticks on
    assert session.player.bed == foot and not session.player.sleeping_ticks
    session.player.vitals = session.player.vitals.__class__(health=0)
    session.apply(KeyDown(session.ticks_run, "enter"))  # respawn
    session.tick()
    feet = session.player.body.feet
    assert abs(feet[0] - (foot[0] + 0.5)) <= 1.5 and abs(feet[2] - (foot[2] + 0.5)) <= 1.5


# --- saving ----------------------------------------------------------------------------------------

def test_saving_and_reopening_keeps_the_inventory_chests_furnaces_mid_smelt_and_items_on_the_ground(tmp_path):
    path = tmp_path / "world.boxel"
    spawn = survival_world(path)
    floor = spawn[1] - 1
    with World.open(path, workers=1) as world:
        session = Session.open(world, autosave=False)
        bot = Bot(session)
        give(session, ItemStack("chest"), ItemStack("furnace"), ItemStack("iron_ore", 3), ItemStack("coal", 2),
             ItemStack("stick", 5))
        bot.use((1, floor, 2), UP)
        bot.select(1)
        bot.use((-1, floor, 2), UP)
        chest, furnace = (1, floor + 1, 2), (-1, floor + 1, 2)
        session.block_entities.set_slot(chest, 4, ItemStack("diamond", 2))
        session.block_entities.set_slot(furnace, 0, ItemStack("iron_ore", 3))
        session.block_entities.set_slot(furnace, 1, ItemStack("coal", 1))
        session.world.set_block(3, floor + 1, 3, "planks")
        bot.dig((3, floor + 1, 3), UP)  # its planks item lies out of the player's reach
        bot.tick(250 - 61)  # one ingot, and into the next
        before = session.report()
        session.save()
    with World.open(path, workers=1) as world:
        again = Session.open(world, autosave=False).report()
    assert again["inventory"] == before["inventory"]
    assert again["block_entities"] == before["block_entities"]
    smelting = next(row for row in again["block_entities"] if row["kind"] == "furnace")
    assert smelting["slots"][2] == ["iron_ingot", 1] and 0 < smelting["cook_time"] < 200  # mid-smelt
    assert again["items"] == before["items"] and [i["item"] for i in again["items"]] == ["planks"]


def test_hitting_a_mob_wears_a_sword_one_point_and_a_pickaxe_two(survival):
    session, floor = survival
    session.mobs.spawn((0.5, floor + 1.0, 2.5), 0.0, [session.player.body])
    bot = Bot(session)
    for item, wear in (("wooden_sword", 1), ("wooden_pickaxe", 2)):
        give(session, ItemStack(item))
        box = session.mobs.bodies[0].box
        bot.look_at([(low + high) / 2 for low, high in zip(box[:3], box[3:])])
        bot.send(Click(bot.now, "left"))
        bot.tick()
        assert session.player.inventory.slots[0] == ItemStack(item, 1, wear)


def test_a_torch_whose_wall_goes_drops_as_a_torch(survival):
    session, floor = survival
    y = floor + 2
    session.world.set_block(1, floor + 1, 3, "planks")
    session.world.set_block(1, y, 3, "planks")
    give(session, ItemStack("torch"))
    bot = Bot(session)
    bot.use((1, y, 3), (0, 0, -1))  # on the wall's north side: a wall torch, beyond the player's pickup
    assert session.world.get_block(1, y, 2).startswith("wall_torch_")
    session.world.set_block(1, y, 3, "air")
    bot.tick()
    assert session.world.get_block(1, y, 2) == "air"
    assert [item.stack for item in session.dropped.live] == [ItemStack("torch")]
