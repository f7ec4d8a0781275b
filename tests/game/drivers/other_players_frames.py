"""What other players cost a frame: `python -m tests.game.drivers.other_players_frames [--players N ...] [--repeats R]`.

Owns: a timing of the real window (Xvfb when there is no display, 640x360, view distance 3) on the
display tests' flat seed-42 platform: the local player looks east while N other players join at
JOIN_TICK and walk east into view in a fan, then stand there (a scripted run: two frames a tick). Each
frame played is timed in process CPU time (the drawing threads of a software renderer included), which
other programs on a shared machine disturb far less than the wall time, also printed. Per N, the median
frame of each run, then the median of `repeats` runs (run in turn across the counts, so a busy moment of
the machine does not fall on one count alone). The frame includes the session's ticks, so the other
players' steps are in it too.
Does not own: the drawing (`game.window.render.other_players`). A measuring driver, not a test.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from game.rules.replay import KeyDown, KeyUp, Look
from game.world import World
from tests.game import scripted_runs
from tests.game.conftest import display_command

REPO_ROOT = Path(__file__).resolve().parents[3]
JOIN_TICK = 12
TICKS = 160
"""[ticks] 8 s of play: a few hundred frames, most of them with every player standing in view."""
SEED = 42
"""The display tests' world (`tests/game/test_other_players_display.py`)."""
RESULT_PREFIX = "FRAMES "
"""Starts the line on which a child run prints its result."""
FAN_DEGREES = 5.0
"""[degrees] Between the walking directions of successive players: they spread out across the view."""


def events(players: int) -> list:
    said = [Look(0, 270.0, 12.0), KeyDown(0, "s"), KeyUp(10, "s")]
    for index in range(players):
        name, yaw = f"p{index}", 270.0 + (index - (players - 1) / 2.0) * FAN_DEGREES
        said += [Look(JOIN_TICK, yaw, 0.0, player=name), KeyDown(JOIN_TICK, "w", player=name)]
    for index in range(players):
        said.append(KeyUp(JOIN_TICK + 16 + index, "w", player=f"p{index}"))
    return sorted(said, key=lambda event: event.tick)


def make_world(path: Path) -> None:
    with World.create(path, SEED) as world:
        floor = math.floor(world.spawn[1]) - 1
        scripted_runs.flatten(world, floor, *scripted_runs.PLATFORM, scripted_runs.CLEARANCE)




class FrameCost:
    """Wraps the game's per-frame update: the process's CPU time and the wall time of every frame played
    (from the first frame after loading to the last tick), llvmpipe's drawing threads included."""

    def __init__(self, game) -> None:
        self.game, self.cpu, self.wall = game, [], []
        self.drawn = 0
        """Other players drawn at the last frame played."""
        self._last: tuple[float, float] | None = None
        self._update = game.update
        game._hooks.update = self.update

    def update(self) -> None:
        game = self.game
        if not game.loading and not game.ticks_done:
            now = (time.process_time(), time.perf_counter())
            if self._last is not None:
                self.cpu.append(now[0] - self._last[0])
                self.wall.append(now[1] - self._last[1])
            self._last = now
            self.drawn = len(game.other_players.models)
        self._update()


def play_one(players: int) -> dict:
    """In this process: play the world with `players` other players; the frames' CPU and wall medians [ms]."""
    from game.frontends.options import LaunchOptions
    from game.frontends.stop_signals import StopFlag
    from game.rules.session import Session
    from game.window import app

    with tempfile.TemporaryDirectory() as folder:
        world_path = Path(folder) / "w.boxel"
        make_world(world_path)
        options = LaunchOptions(world=world_path, size=(640, 360), view_distance=int(scripted_runs.VIEW_DISTANCE),
                                replay=tuple(events(players)), exit_after_ticks=TICKS)
        costs = []
        window = app.open_game_window(options)
        session = Session.open(World.open(world_path), autosave=False)
        app.play(window, options, session, StopFlag(), on_game=lambda game: costs.append(FrameCost(game)))
    cost = costs[0]
    return {"players": players, "drawn": cost.drawn, "frames": len(cost.cpu),
            "cpu_ms": statistics.median(cost.cpu) * 1000.0, "wall_ms": statistics.median(cost.wall) * 1000.0}


def frame_ms(players: int) -> dict:
    """`play_one(players)` in a new process with a display (one Ursina app per process)."""
    env = {**os.environ, "BOXEL_MUTE": "1"}
    with tempfile.TemporaryDirectory() as user:
        env.update(BOXEL_DATA_DIR=str(Path(user) / "data"), BOXEL_CONFIG_DIR=str(Path(user) / "config"))
        command = display_command() + [sys.executable, "-m", "tests.game.drivers.other_players_frames", "--one",
                                       str(players)]
        done = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=300, env=env)
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-3000:])
    line = next(line for line in done.stdout.splitlines() if line.startswith(RESULT_PREFIX))
    result = json.loads(line[len(RESULT_PREFIX):])
    assert result["drawn"] == players, result
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[0, 1, 10])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # the child process: one run
    options = parser.parse_args()
    if options.one is not None:
        print(RESULT_PREFIX + json.dumps(play_one(options.one)), flush=True)
        return 0
    runs: dict[int, list[dict]] = {players: [] for players in options.players}
    for _ in range(options.repeats):
        for players in options.players:
            runs[players].append(frame_ms(players))
    for players in options.players:
        cpu = statistics.median(run["cpu_ms"] for run in runs[players])
        wall = statistics.median(run["wall_ms"] for run in runs[players])
        print(f"{players:3d} other players: CPU {cpu:.1f} ms a frame, wall {wall:.1f} ms "
              f"(medians of {options.repeats} runs of {runs[players][0]['frames']} frames)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
