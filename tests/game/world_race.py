"""The processes that race over one worlds folder in `test_world_list_concurrency`: a module of its
own (no pytest or hypothesis import), so each spawned process starts in a fraction of a second."""

from __future__ import annotations

import multiprocessing
import random
import time
from pathlib import Path

from game.userdata import world_list
from game.world import World
from game.world.file_errors import WorldFileError

NAMES = tuple(f"world {n}" for n in range(6))
"""The names the racers rename worlds to: few, so they collide all the time."""
SAME_WORLD_CHANCE = 0.7
"""Chance that a racer reaches for the world every racer reaches for (the first by name), so that two
of them act on one world at the same moment as often as possible."""
DELETE_CHANCE = 0.01
"""Chance that an operation is a delete rather than a rename."""
DELETES_EACH = 1
"""Worlds each racer deletes at most, so most worlds are still there to race over."""
PLAYER_HOLD_S = 0.01
"""[s] How long a playing racer keeps a world open, as a game does, before closing it."""
START_TIMEOUT_S = 60.0
"""[s] Longest wait for every racer to be ready (spawning them is slow on a loaded machine)."""


def racer(folder: str, seconds: float, player: bool, seed: int, start, results) -> None:
    """Once every racer is at the `start` barrier, rename and delete random worlds of `folder` for
    `seconds` (a `player` opens and saves them instead, as a game does); put (operations, successful
    deletes, refusals, unexpected errors) into `results`."""
    rng = random.Random(seed)
    operations, deletes, refusals, unexpected = 0, 0, 0, []
    start.wait(timeout=START_TIMEOUT_S)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        worlds = [path for path in Path(folder).iterdir() if path.name.endswith(world_list.WORLD_SUFFIX)]
        if not worlds:
            continue
        path = min(worlds) if rng.random() < SAME_WORLD_CHANCE else rng.choice(worlds)
        operations += 1
        try:
            if player:
                play(path)
            elif deletes < DELETES_EACH and rng.random() < DELETE_CHANCE:
                world_list.delete(path)
                deletes += 1
            else:
                world_list.rename(path, rng.choice(NAMES))
        except (ValueError, WorldFileError):
            refusals += 1  # taken, vanished, in use, damaged (the junk file, for a player): all refused cleanly
        except Exception as error:  # noqa: BLE001 - reported to the test, which fails on it
            unexpected.append(f"{type(error).__name__}: {error}")
    results.put((operations, deletes, refusals, unexpected))


def play(path: Path) -> None:
    with World.open(path, workers=1) as world:
        world.save()
        time.sleep(PLAYER_HOLD_S)


def race(folder: Path, racers: int, players: int, seconds: float) -> tuple[int, int, int, list[str]]:
    """Run `racers` renaming and deleting processes and `players` playing ones on `folder` at once for
    `seconds`: (operations, successful deletes, refusals, unexpected errors) in all."""
    context = multiprocessing.get_context("spawn")
    count = racers + players
    results, start = context.Queue(), context.Barrier(count)
    processes = [context.Process(target=racer, args=(str(folder), seconds, n < players, n, start, results))
                 for n in range(count)]
    for process in processes:
        process.start()
    outcomes = [results.get(timeout=START_TIMEOUT_S + seconds) for _ in processes]
    for process in processes:
        process.join(timeout=START_TIMEOUT_S)
        if process.exitcode != 0:
            raise RuntimeError(f"a racer exited with {process.exitcode}")
    return (sum(o[0] for o in outcomes), sum(o[1] for o in outcomes), sum(o[2] for o in outcomes),
            [error for o in outcomes for error in o[3]])
