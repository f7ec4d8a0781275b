"""Survival played headless as a new player plays it: a scripted first hour (punch a tree, craft
planks, sticks, a table and a wooden pickaxe, mine cobblestone, a stone pickaxe, smelt iron), each
stage checked to the item; the recorded events replayed on the same world give the same game."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from game.rules.replay import parse_replay
from game.rules.session import Session
from game.world import World

from .survival_bot import (COAL_ORE, IRON_ORE, STONE, Bot, gather, in_furnace, in_inventory, in_table, survival_world,
                           walk_to)

REPO = Path(__file__).resolve().parents[2]
UP, EAST, WEST = (0, 1, 0), (1, 0, 0), (-1, 0, 0)


def stacks(session) -> dict[str, int]:
    """The player's inventory as item -> count, all slots together."""
    counted: dict[str, int] = {}
    for stack in session.player.inventory.slots:
        if stack is not None:
            counted[stack.item] = counted.get(stack.item, 0) + stack.count
    return counted


def play_first_hour(path: Path) -> tuple[Bot, dict]:
    """Play the first hour on a fresh `survival_world` at `path`; returns the bot and what each stage
    left in the inventory (item -> count)."""
    spawn = survival_world(path)
    floor = spawn[1] - 1
    stages: dict[str, dict] = {}
    world = World.open(path, workers=1)
    session = Session.open(world, autosave=False)
    bot = Bot(session)
    bot.tick(5)

    # Punch the tree: four logs by hand.
    walk_to(bot, 2.3, 0.5)
    for y in range(floor + 1, floor + 5):
        bot.dig((3, y, 0), WEST)
    gather(bot)
    stages["logs"] = stacks(session)

    # The inventory's 2x2 grid: 16 planks, a crafting table, 4 sticks.
    bot.press("e")
    bot.click(in_inventory(bot.slot_of("log")))  # the 4 logs on the cursor
    bot.click(1)  # into the grid
    for _ in range(4):
        bot.click(0)  # 4 planks a log, onto the cursor
    for grid in (1, 2, 3, 4):
        bot.click(grid, "right")  # one plank in each grid slot: the table's recipe
    bot.click(in_inventory(9))  # the other 12 planks into the main inventory
    bot.click(0)  # the table onto the cursor
    bot.click(in_inventory(1))  # into hotbar slot 1
    bot.click(in_inventory(9))  # the planks again
    bot.click(1, "right")
    bot.click(3, "right")  # two planks, one above the other: sticks
    bot.click(in_inventory(9))
    bot.click(0)  # 4 sticks
    bot.click(in_inventory(10))
    bot.press("e")
    stages["crafted"] = stacks(session)

    # The table on the ground, and a wooden pickaxe at it.
    table = (0, floor + 1, -2)
    bot.select(1)
    bot.use((0, floor, -2), UP)
    assert session.world.get_block(*table) == "crafting_table"
    bot.use(table, UP)
    craft_at_table(bot, "planks", (1, 2, 3), "stick", (5, 8))
    bot.press("e")
    stages["wooden_pickaxe"] = stacks(session)

    # Coal and cobblestone with the wooden pickaxe.
    bot.select(bot.slot_of("wooden_pickaxe"))
    walk_to(bot, -1.5, COAL_ORE[1] + 0.5)
    bot.dig((COAL_ORE[0], floor + 1, COAL_ORE[1]), EAST)
    gather(bot)
    walk_to(bot, -1.5, COAL_ORE[1] + 0.5)
    for z in range(-2, 3):  # a row at a time, the nearer block first
        walk_to(bot, -1.5, z + 0.5)
        for x in sorted((x for x, row in STONE if row == z), reverse=True):
            bot.dig((x, floor + 1, z), EAST)
        gather(bot)
        walk_to(bot, -1.5, z + 0.5)  # back out along the cleared row
    stages["cobblestone"] = stacks(session)

    # A stone pickaxe at the table, then the iron ore with it.
    walk_to(bot, 0.5, -0.5)
    bot.use(table, UP)
    craft_at_table(bot, "cobblestone", (1, 2, 3), "stick", (5, 8))
    bot.press("e")
    bot.select(bot.slot_of("stone_pickaxe"))
    walk_to(bot, -1.5, IRON_ORE[1] + 0.5)
    bot.dig((IRON_ORE[0], floor + 1, IRON_ORE[1]), EAST)
    gather(bot)
    stages["iron_ore"] = stacks(session)

    # A furnace from eight cobblestone, placed, and one iron ingot smelted with the coal.
    walk_to(bot, 0.5, -0.5)
    bot.use(table, UP)
    craft_at_table(bot, "cobblestone", (1, 2, 3, 4, 6, 7, 8, 9), None, ())
    bot.press("e")
    furnace_cell = (2, floor + 1, -2)
    bot.select(bot.slot_of("furnace"))
    bot.use((2, floor, -2), UP)
    assert session.world.get_block(*furnace_cell).startswith("furnace_")
    bot.use(furnace_cell, UP)
    bot.click(in_furnace(bot.slot_of("iron_ore")))
    bot.click(0)  # the ore into the input
    bot.click(in_furnace(bot.slot_of("coal")))
    bot.click(1)  # the coal into the fuel slot; the tick after the click, it catches and cooks its first tick
    furnace = session.block_entities.furnace(furnace_cell)
    stages["furnace_lit"] = {"block": session.world.get_block(*furnace_cell), "burn_time": furnace.burn_time,
                             "cook_time": furnace.cook_time}
    bot.tick(198)
    stages["before_200"] = session.block_entities.furnace(furnace_cell).output
    bot.tick(1)
    stages["after_200"] = session.block_entities.furnace(furnace_cell).output
    bot.click(2, shift=True)  # the ingot into the inventory
    bot.press("e")
    stages["iron_ingot"] = stacks(session)
    report = session.report()
    session.close()
    return bot, {"stages": stages, "report": report}


def craft_at_table(bot: Bot, item: str, cells: tuple[int, ...], second: str | None, second_cells: tuple[int, ...]):
    """At the open crafting table: one `item` in each of `cells` and one `second` in each of
    `second_cells`, the rest put back, then the result into the first empty slot."""
    for name, grid in ((item, cells), (second, second_cells)):
        if name is None:
            continue
        home = in_table(bot.slot_of(name))
        bot.click(home)
        for cell in grid:
            bot.click(cell, "right")
        bot.click(home)
    bot.click(0, shift=True)  # the result, shift-clicked into the inventory


@pytest.fixture(scope="module")
def first_hour(tmp_path_factory):
    path = tmp_path_factory.mktemp("first_hour") / "world.boxel"
    pristine = path.with_name("pristine.boxel")
    survival_world(pristine)
    bot, played = play_first_hour(path)
    return bot, played, pristine


def test_punching_a_tree_by_hand_gives_one_log_a_block(first_hour):
    _, played, _ = first_hour
    assert played["stages"]["logs"] == {"log": 4}


def test_four_logs_make_a_table_four_sticks_and_ten_planks_left(first_hour):
    _, played, _ = first_hour
    assert played["stages"]["crafted"] == {"crafting_table": 1, "planks": 10, "stick": 4}


def test_the_table_crafts_a_wooden_pickaxe_from_three_planks_and_two_sticks(first_hour):
    _, played, _ = first_hour
    assert played["stages"]["wooden_pickaxe"] == {"planks": 7, "stick": 2, "wooden_pickaxe": 1}


def test_the_wooden_pickaxe_mines_coal_and_eleven_cobblestone(first_hour):
    _, played, _ = first_hour
    stage = played["stages"]["cobblestone"]
    assert (stage["coal"], stage["cobblestone"]) == (1, 11)


def test_a_stone_pickaxe_from_cobblestone_mines_the_iron_ore(first_hour):
    _, played, _ = first_hour
    assert played["stages"]["iron_ore"] == {"planks": 7, "wooden_pickaxe": 1, "coal": 1, "cobblestone": 8,
                                            "stone_pickaxe": 1, "iron_ore": 1}


def test_the_furnace_smelts_the_iron_ore_with_coal_in_exactly_200_ticks(first_hour):
    _, played, _ = first_hour
    stages = played["stages"]
    assert stages["furnace_lit"]["block"].startswith("lit_furnace_")
    assert (stages["furnace_lit"]["burn_time"], stages["furnace_lit"]["cook_time"]) == (1600, 1)  # coal: 1,600 ticks
    assert stages["before_200"] is None  # 199 ticks cooked
    assert (stages["after_200"].item, stages["after_200"].count) == ("iron_ingot", 1)
    assert stages["iron_ingot"].get("iron_ingot") == 1 and "iron_ore" not in stages["iron_ingot"]


def test_the_recorded_first_hour_replayed_headless_gives_the_same_game(first_hour, tmp_path):
    bot, played, pristine = first_hour
    world = tmp_path / "again.boxel"
    shutil.copy(pristine, world)
    replay = tmp_path / "first_hour.jsonl"
    replay.write_text("\n".join(bot.lines()) + "\n", encoding="utf-8")
    assert list(parse_replay(replay.read_text().splitlines())) == bot.events
    report = tmp_path / "report.json"
    done = subprocess.run([sys.executable, "main.py", "--headless", "--world", str(world), "--replay", str(replay),
                           "--exit-after-ticks", str(played["report"]["ticks_run"]), "--report", str(report)],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    again = json.loads(report.read_text())
    for field in ("inventory", "box", "velocity", "edited_blocks", "block_entities", "game_mode"):
        assert again[field] == json.loads(json.dumps(played["report"][field])), field
    assert again["game_mode"] == "survival" and not math.isnan(again["health"])
