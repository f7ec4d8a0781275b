"""Creatures benchmark: milliseconds of a whole session tick with 100 monsters pathing toward the
players and 50 animals wandering.

The case (built untimed): a seed-5 survival world with a stone floor high in the sky (EDGE blocks
square) at midnight, two players standing on it 7 blocks apart at its centre (the monsters path to
them, crowd around them and hit them), 100 monsters (50 zombies, 35 spiders and 15 skeletons shooting
arrows; no creepers, whose blasts would hole the floor: `python -m bench explosion` times a blast)
spawned in a ring 4 to 16 blocks from the players and 50 animals (pigs, cows, sheep, chickens) farther
out; no natural spawning. WARMUP_TICKS untimed ticks let every monster find its target and a path
first. Each timed tick is `Session.tick()`; between ticks (untimed) the players are put back where
they stand, at rest and whole (the crowd's pushes would carry them off the floor), and a monster killed
by a skeleton's stray arrow is replaced in the ring, so every timed tick has 100. The reference is the same session with the mobs' crowd stepped one body at a time
(`physics.Crowd(vectorised=False)`, the readable path), timed in the same run, in turns.
"""

from __future__ import annotations

import gc
import random
import statistics
import tempfile
import time
from pathlib import Path

from game.rules.health import Vitals
from game.rules.session import Session
from game.world import World
from physics import Body

from .harness import Row

SUITE = "creatures"
TARGET = "<= 10 ms"
FLOOR_Y = 120
EDGE = 56
MONSTERS = (("zombie", 50), ("spider", 35), ("skeleton", 15))
ANIMALS = (("pig", 13), ("cow", 12), ("sheep", 13), ("chicken", 12))
MIDNIGHT = 18000
WARMUP_TICKS, QUICK_WARMUP_TICKS = 100, 20
TIMED_TICKS, QUICK_TICKS = 200, 20
TURN_TICKS = 10
PLAYERS = ((-3.5, -0.5), (3.5, 0.5))
"""(x, z) of the two players, about the floor's centre."""


def _build(path: Path) -> World:
    world = World.create(path, seed=5, workers=1, game_mode="survival")
    half = EDGE // 2
    for x in range(-half, half):
        for z in range(-half, half):
            world.set_block(x, FLOOR_Y, z, "stone")
    world.set_day_time(MIDNIGHT)
    return world


def _session(world: World, vectorised: bool) -> Session:
    session = Session.open(world, autosave=False)
    session.mobs.creatures.natural_spawning = False
    session.mobs._crowd._vectorised = None if vectorised else False
    session.join("bob")
    _put_back(session)
    _top_up(session, random.Random(3))
    return session


def _put_back(session: Session) -> None:
    """The players where they stand, at rest and whole."""
    for player, (px, pz) in zip(session.players.values(), PLAYERS):
        player.body = player.previous = Body.at_feet(px // 1 + 0.5, FLOOR_Y + 1, pz // 1 + 0.5)
        player.vitals = Vitals()


def _top_up(session: Session, rng: random.Random) -> None:
    """Spawn creatures until each kind has its count: monsters in the ring 4-16 blocks from the
    centre, animals 18-26 blocks out (untimed)."""
    others = [player.body for player in session.players.values()]
    kinds = session.mobs.kinds
    for wanted, near, far in ((MONSTERS, 4.0, 16.0), (ANIMALS, 18.0, 26.0)):
        for kind, count in wanted:
            placed = sum(1 for name, life in zip(kinds, session.mobs.lives) if name == kind and not life.dead)
            while placed < count:
                x, z = rng.uniform(-far, far), rng.uniform(-far, far)
                if not near <= (x * x + z * z) ** 0.5 <= far:
                    continue
                try:
                    session.mobs.spawn_creature(kind, (x, FLOOR_Y + 1.0, z), rng.uniform(0.0, 360.0), others)
                except ValueError:
                    continue  # no room there: another spot
                placed += 1


def _tick(session: Session, rng: random.Random) -> float:
    """[ms] One timed tick; then (untimed) the players' health back and the dead monsters replaced."""
    started = time.perf_counter()
    session.tick()
    elapsed = (time.perf_counter() - started) * 1e3
    _put_back(session)
    _top_up(session, rng)
    return elapsed


def run(quick: bool = False) -> list[Row]:
    ticks = QUICK_TICKS if quick else TIMED_TICKS
    warmup = QUICK_WARMUP_TICKS if quick else WARMUP_TICKS
    with tempfile.TemporaryDirectory() as folder:
        world = _build(Path(folder) / "creatures.boxel")
        try:
            sides = []
            for vectorised in (True, False):
                session, rng = _session(world, vectorised), random.Random(4)  # each side replaces its own dead
                for _ in range(warmup):
                    _tick(session, rng)
                sides.append((session, [], rng))
            while len(sides[0][1]) < ticks:
                for session, times, rng in sides:
                    gc.collect()  # untimed: the other side's garbage is not this side's to collect
                    for _ in range(TURN_TICKS):
                        times.append(_tick(session, rng))
            (ours, fast, _), (_, slow, _) = sides
            kinds = ours.mobs.kinds
            counted = {name: sum(1 for kind in kinds if kind == name) for name, _ in (*MONSTERS, *ANIMALS)}
        finally:
            world.close()
    note = (f"{len(fast)} ticks after {warmup} untimed; live at the end: {counted}; reference: the crowd one by one")
    return [Row(SUITE, "Session.tick, 100 monsters pathing toward 2 players + 50 animals: median",
                statistics.median(fast), "ms", statistics.median(slow), TARGET, note)]
