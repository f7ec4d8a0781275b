"""Beta's creatures in the real game (a window under Xvfb): a pig and a cow in a meadow at noon, a zombie
and a skeleton at night, a spider on a wall, and a creeper's crater. Each scene is set up headless (the
creatures placed by the rules and saved with the world), then the game opens the world and takes a
screenshot; the test checks the report, and the screenshots are looked at by hand
(docs/screenshots/creatures-*.png when BOXEL_DOCS_SCREENSHOTS=1)."""

from __future__ import annotations

import math
import os
import shutil
from pathlib import Path

import physics
import pytest

from game.rules.health import Vitals
from game.rules.replay import Look
from game.rules.session import Session
from game.world import World
from tests.game import scripted_runs

from .scripted_runs import flatten
from .survival_bot import angles_towards

pytestmark = pytest.mark.display

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SEED = 42
NOON, MIDNIGHT = 6000, 18000
EYE_HEIGHT = 1.62
HALF = 12


@pytest.fixture(autouse=True)
def user_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("BOXEL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("BOXEL_CONFIG_DIR", str(tmp_path / "config"))


def meadow(path: Path) -> int:
    """A seed-42 survival world flattened to grass around the spawn; returns the floor's top (feet y)."""
    with World.create(path, SEED, workers=1, game_mode="survival") as world:
        floor = math.floor(world.spawn[1]) - 1
        flatten(world, floor, range(-HALF, HALF + 1), range(-HALF, HALF + 1), 16)
        return floor + 1


def place(path: Path, day_time: int, creatures, player_feet, blocks=(), then=None) -> None:
    """Open the world headless, set `blocks`, put the player at `player_feet`, add `creatures` (kind,
    feet, yaw), run `then(session)` if given, and save: the game opens it as it was left."""
    with World.open(path, workers=1) as world:
        for cell, name in blocks:
            world.set_block(*cell, name)
        session = Session.open(world, autosave=False)
        session.mobs.creatures.natural_spawning = False
        session.set_day_time(day_time)
        session.player.body = session.player.previous = physics.Body.at_feet(*player_feet)
        for kind, feet, yaw in creatures:
            session.mobs.spawn_creature(kind, feet, yaw)
        if then is not None:
            then(session)
        session.save()


def look(eye, point) -> list:
    return [Look(0, *angles_towards(eye, point))]


def kinds(report: dict) -> list[str]:
    return [body["kind"] for body in report["bodies"] if "health" in body]


def keep(run, name: str) -> None:
    if os.environ.get("BOXEL_DOCS_SCREENSHOTS"):
        shutil.copy(run.screenshot, DOCS / f"creatures-{name}.png")


def test_a_pig_and_a_cow_graze_in_a_meadow_at_noon(run_game, tmp_path):
    world = tmp_path / "meadow.boxel"
    y = meadow(world)
    place(world, NOON, [("pig", (4.5, y, -1.0), 60.0), ("cow", (5.5, y, 1.8), 120.0)], (0.5, y, 0.5))
    run = scripted_runs.play(run_game, world, look((0.5, y + EYE_HEIGHT, 0.5), (5.0, y + 0.5, 0.5)), 10, "meadow",
                             "--time", str(NOON))
    keep(run, "meadow-noon")
    assert {"pig", "cow"} <= set(kinds(run.report))


def test_a_zombie_and_a_skeleton_come_at_night(run_game, tmp_path):
    world = tmp_path / "night.boxel"
    y = meadow(world)
    place(world, MIDNIGHT, [("zombie", (7.5, y, -1.5), 90.0), ("skeleton", (8.5, y, 1.5), 90.0)], (0.5, y, 0.5))
    run = scripted_runs.play(run_game, world, look((0.5, y + EYE_HEIGHT, 0.5), (7.0, y + 1.2, 0.0)), 10, "night",
                             "--time", str(MIDNIGHT))
    keep(run, "night")
    assert {"zombie", "skeleton"} <= set(kinds(run.report))


def test_a_spider_climbs_the_wall_the_player_stands_on(run_game, tmp_path):
    world = tmp_path / "wall.boxel"
    y = meadow(world)
    wall = [((3, height, z), "cobblestone") for z in range(-4, 6) for height in range(y, y + 3)]
    player = (3.5, y + 3, 3.5)  # on the wall's top, looking down along its west face at the spider
    place(world, MIDNIGHT, [("spider", (1.5, y, 0.5), 270.0)], player, wall)
    eye = (player[0], player[1] + EYE_HEIGHT, player[2])
    run = scripted_runs.play(run_game, world, look(eye, (2.0, y + 1.0, 0.5)), 9, "wall", "--time", str(MIDNIGHT))
    keep(run, "spider-wall")
    spiders = [body["box"] for body in run.report["bodies"] if body.get("kind") == "spider"]
    assert any(y < box[1] and 1.0 < box[0] < 3.0 for box in spiders)  # up the wall's west face, off the ground


def test_a_creepers_crater_lies_in_the_meadow(run_game, tmp_path):
    world = tmp_path / "crater.boxel"
    y = meadow(world)

    def blow_up(session) -> None:
        for _ in range(100):
            session.tick()
            if not session.mobs.kinds:
                break
        session.player.vitals = Vitals()  # the player stood beside it: whole again for the picture
        session.player.body = session.player.previous = physics.Body.at_feet(-3.5, y, 0.5)

    place(world, MIDNIGHT, [("creeper", (2.5, y, 0.5), 90.0)], (0.5, y, 0.5), then=blow_up)
    run = scripted_runs.play(run_game, world, look((-3.5, y + EYE_HEIGHT, 0.5), (2.5, y - 1.0, 0.5)), 10, "crater",
                             "--time", str(NOON))
    keep(run, "crater")
    with World.open(run.world, workers=1) as opened:
        assert opened.get_block(2, y - 1, 0) == "air"  # a hole where the creeper stood
