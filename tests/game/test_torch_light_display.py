"""A torch in the real game lights a dark room (a window under Xvfb): the world's own light engine,
the mesher's smooth lighting and the chunk shader, seen as a player sees them."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from game.rules.replay import Look
from game.rules.session import Session
from game.world import World
from physics.aabb import AABB
from tests.game.scripted_runs import play

pytestmark = pytest.mark.display

SEED = 42
ROOM = 3
"""[blocks] The room's inside spans -ROOM..ROOM around the spawn on x and z (its walls one further)."""
ROOM_HEIGHT = 4
"""[blocks] Air above the floor, under a stone ceiling: no sky light gets in."""
TORCH = (2, 0)
"""(x, z) of the torch on the floor, east of the player."""
LOOK = Look(0, 270.0, 25.0)
"""East and down at the torch."""
LIT_OVER_DARK = 3.0
"""The lit view is at least this many times brighter on average: around a torch (block light 14) the
floor and wall show Beta's brightness ~0.8 and falling off, against 0.05 everywhere in the dark."""
HUD_ROWS = 0.2
"""The bottom fifth of the window (hotbar, hearts) is left out of the comparison."""


@pytest.fixture(autouse=True)
def user_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("BOXEL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("BOXEL_CONFIG_DIR", str(tmp_path / "config"))


def closed_room(path: Path, torch: bool) -> None:
    """A seed-42 world with the spawn shut in a stone room and the player saved inside it (a torch
    on its floor or not)."""
    with World.create(path, SEED) as world:
        floor = math.floor(world.spawn[1]) - 1
        for x in range(-ROOM - 1, ROOM + 2):
            for z in range(-ROOM - 1, ROOM + 2):
                for y in range(floor, floor + ROOM_HEIGHT + 2):
                    inside = abs(x) <= ROOM and abs(z) <= ROOM and floor < y <= floor + ROOM_HEIGHT
                    world.set_block(x, y, z, "air" if inside else "stone")
        if torch:
            world.set_block(TORCH[0], floor + 1, TORCH[1], "torch")
        session = Session.open(world, autosave=False)
        box = session.player.body.box
        half = (box.max_x - box.min_x) / 2.0
        inside = AABB(0.5 - half, floor + 1.0, 0.5 - half, 0.5 + half, floor + 1.0 + (box.max_y - box.min_y), 0.5 + half)
        session.player.body = replace(session.player.body, box=inside, velocity=(0.0, 0.0, 0.0))
        session.save()  # the player stands inside, on the room's floor


def test_a_torch_in_a_closed_room_lights_the_view_that_is_dark_without_it(run_game, tmp_path):
    images = {}
    for name, torch in (("dark", False), ("lit", True)):
        path = tmp_path / f"{name}.boxel"
        closed_room(path, torch)
        with World.open(path) as world:
            floor = math.floor(world.spawn[1]) - 1
            assert world.light(TORCH[0] - 1, floor + 1, TORCH[1]) == ((0, 13) if torch else (0, 0))
        run = play(run_game, path, [LOOK], 3, name, "--time", "6000")  # noon outside: the room shuts it out
        image = run.image()
        images[name] = image[: int(image.shape[0] * (1 - HUD_ROWS))].astype(np.float64)
    dark, lit = images["dark"].mean(), images["lit"].mean()
    assert dark < 30, f"the closed room is not dark without the torch (mean {dark:.1f} of 255)"
    assert lit > LIT_OVER_DARK * dark, f"the torch does not light the room: mean {lit:.1f} against {dark:.1f}"
