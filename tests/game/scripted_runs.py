"""Scripted game runs shared by the game's display tests: write a replay, run the game on a world, read what it left."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from game.rules.replay import Event, ReplayWriter

VIEW_DISTANCE = "3"
"""[columns] Small, so the tests load quickly; the streaming tests cover larger distances."""
WINDOW = (640, 360)
"""[pixels] Small, so software rendering is fast."""
PLATFORM = range(-6, 13), range(-6, 7)
"""Cells (x, z) flattened to one grass floor around the spawn, so the runs do not depend on the terrain."""
CLEARANCE = 24
"""[blocks] Everything this high above the platform floor is cleared (trees and hills)."""


@dataclass(frozen=True)
class Run:
    report: dict
    screenshot: Path
    world: Path

    def image(self) -> np.ndarray:
        return np.asarray(Image.open(self.screenshot).convert("RGB")).astype(np.int16)


def play(run_game, world: Path, events: list[Event], ticks: int, name: str, *extra: str) -> Run:
    replay = world.with_name(f"{name}.jsonl")
    with ReplayWriter.open(replay) as writer:
        for event in events:
            writer.write(event)
    screenshot, report = world.with_name(f"{name}.png"), world.with_name(f"{name}.json")
    done = run_game("--world", str(world), "--view-distance", VIEW_DISTANCE, "--size", "%dx%d" % WINDOW,
                    "--replay", str(replay), "--exit-after-ticks", str(ticks), "--screenshot", str(screenshot),
                    "--report", str(report), *extra)
    assert done.returncode == 0, f"the game exited with {done.returncode}:\n{done.stderr[-4000:]}"
    return Run(json.loads(report.read_text(encoding="utf-8")), screenshot, world)


def flatten(world, floor: int, xs, zs, clearance: int) -> None:
    """Grass at height `floor` over cells xs x zs, and air for `clearance` - 1 blocks above it."""
    for x in xs:
        for z in zs:
            world.set_block(x, floor, z, "grass")
            for y in range(floor + 1, floor + clearance):
                if world.get_block(x, y, z) != "air":
                    world.set_block(x, y, z, "air")
