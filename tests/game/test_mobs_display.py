"""Mobs and projectiles in the real game (a window under Xvfb), driven by replay files: M spawns a
mob the walking player then pushes, Q throws a projectile that is drawn in flight, and mobs are
saved with their columns on quit. The game's report is compared with the same events played on
a `Session` with no window."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import numpy as np
import pytest

from game.window.render.entity_view import BOXLING_PARTS, FACE_INDEX, PROJECTILE_RGB
from game.rules.replay import Event, KeyDown, KeyUp, Look
from game.rules.session import Session
from game.world import World
from tests.game import scripted_runs
from tests.game.scripted_runs import CLEARANCE, PLATFORM
from game.world.meshing import FACE_SHADE

pytestmark = pytest.mark.display

SEED = 42
HOTBAR_ROWS = 0.2
"""Fraction of the screenshot's height at the bottom where the hotbar is."""
COLOUR_MATCH = 10
"""[RGB levels] A pixel this close to a model colour (a part's colour times a face shade) shows the model
(the colours are drawn flat, unlit and unfogged this close; textured terrain is never this close to
all three channels of these colours over many pixels)."""
SPAWN_LOOK = Look(0, 270.0, 35.0)
"""East and down: M puts the mob on the floor a few blocks east of the spawn."""


@pytest.fixture(autouse=True)
def user_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("BOXEL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("BOXEL_CONFIG_DIR", str(tmp_path / "config"))


def make_world(path: Path) -> float:
    """A seed-42 world with a flat grass platform around the spawn; returns the platform's top y."""
    with World.create(path, SEED) as world:
        floor = math.floor(world.spawn[1]) - 1
        scripted_runs.flatten(world, floor, *PLATFORM, CLEARANCE)
    return floor + 1.0


def play(run_game, world: Path, events: list[Event], ticks: int, name: str) -> tuple[dict, np.ndarray]:
    """Run the game on `world` with `events` for `ticks` ticks: (its report, its screenshot as RGB)."""
    run = scripted_runs.play(run_game, world, events, ticks, name)
    return run.report, run.image()


def headless(world_path: Path, events: list[Event], ticks: int) -> list[dict]:
    """The report's `bodies` when the same events drive a `Session` with no window (on a copy)."""
    copy = world_path.with_name(world_path.stem + "-headless.boxel")
    shutil.copy(world_path, copy)
    with World.open(copy) as world:
        session = Session.open(world, autosave=False)
        session.run(events, ticks)
        return session.report()["bodies"]


def shown(image: np.ndarray, rgbs) -> int:
    """How many pixels above the hotbar show one of the colours `rgbs` (0..1) under a face shade."""
    shades = [float(FACE_SHADE[i]) for i in FACE_INDEX.values()]
    colours = np.array([[round(c * s * 255) for c in rgb] for rgb in rgbs for s in shades])
    world = image[: int(image.shape[0] * (1 - HOTBAR_ROWS))]
    distance = np.abs(world[:, :, None, :] - colours[None, None, :, :]).max(axis=3)
    return int((distance.min(axis=2) <= COLOUR_MATCH).sum())


def of_kind(bodies: list[dict], kind: str) -> list[dict]:
    return [b for b in bodies if b["kind"] == kind]


def test_a_mob_spawned_with_m_is_pushed_by_the_walking_player_and_drawn(run_game, tmp_path):
    ticks = 40
    walk = [SPAWN_LOOK, KeyDown(0, "m"), KeyUp(1, "m"), Look(2, 270.0, 12.0), KeyDown(2, "w")]
    stand = [SPAWN_LOOK, KeyDown(0, "m"), KeyUp(1, "m"), Look(2, 270.0, 12.0)]
    path = tmp_path / "push.boxel"
    feet_y = make_world(path)
    walked, stood = headless(path, walk, ticks), headless(path, stand, ticks)
    spawned = headless(path, walk, 1)
    report, image = play(run_game, path, walk, ticks, "push")

    assert report["bodies"] == walked
    (mob,) = of_kind(report["bodies"], "mob")
    (start,) = of_kind(spawned, "mob")
    (alone,) = of_kind(stood, "mob")
    assert start["box"][1] == feet_y and start["box"][0] > report["bodies"][0]["box"][3] - 4.0
    assert mob["box"][0] - start["box"][0] > 0.5, "the mob was not pushed east, the way the player walked"
    assert mob["box"][0] - alone["box"][0] > 0.5, "without the player walking into it, the mob stays put"
    assert mob["box"][2] == start["box"][2]  # straight along the walk
    assert shown(image, [part.rgb for part in BOXLING_PARTS]) > 2000, "the mob is not drawn"


def test_a_projectile_thrown_with_q_is_drawn_in_flight(run_game, tmp_path):
    look = Look(0, 250.0, -5.0)  # east-north-east, a little up: the sky behind it
    thrown = [look, KeyDown(0, "q"), KeyUp(1, "q")]
    plain_path, thrown_path = tmp_path / "plain.boxel", tmp_path / "thrown.boxel"
    make_world(plain_path)
    make_world(thrown_path)
    expected = headless(thrown_path, thrown, 3)
    _, plain = play(run_game, plain_path, [look], 3, "plain")
    report, image = play(run_game, thrown_path, thrown, 3, "thrown")

    assert report["bodies"] == expected
    (projectile,) = of_kind(report["bodies"], "projectile")
    assert projectile["velocity"][0] > 1.0  # flying east
    assert shown(image, [PROJECTILE_RGB]) > shown(plain, [PROJECTILE_RGB]) + 30, "the projectile is not drawn"


def test_mobs_are_saved_with_their_column_on_quit_and_come_back_when_reopened(run_game, tmp_path):
    path = tmp_path / "saved.boxel"
    make_world(path)
    first, _ = play(run_game, path, [SPAWN_LOOK, KeyDown(0, "m"), KeyUp(1, "m")], 5, "first")
    (mob,) = of_kind(first["bodies"], "mob")
    with World.open(path) as world:
        x, z = (mob["box"][0] + mob["box"][3]) / 2.0, (mob["box"][2] + mob["box"][5]) / 2.0
        stored = world.column_entities(math.floor(x) >> 4, math.floor(z) >> 4)
    assert [state["box"] for state in stored] == [mob["box"]]

    expected = headless(path, [], 1)  # the saved mob and player, one tick on
    second, _ = play(run_game, path, [], 1, "second")
    assert second["bodies"] == expected and len(of_kind(expected, "mob")) == 1
