"""Dropped-item benchmark: milliseconds of the items' part of a session tick with 500 items lying and 100 falling.

The case (built untimed): a new seed-5 world with a 24 x 24 stone floor high in the sky, LYING
items at rest on it (spawned from blocks and stepped until they lie still, their sideways speed
still decaying as in Beta) and FALLING items dropped from 20 to 60 blocks above it, spread over the
floor (which reaches FLOOR_MARGIN beyond, so none slides off); one player stands in a corner, touching none of them. Each timed tick is
`DroppedItems.tick(world, players, give)`: the pickup test and every item's tick. The falling
items are dropped again from their heights each time they land, so every timed tick has FALLING
in the air. The reference is the same ticks with the items stepped one by one
(`DroppedItems(vectorised=False)`, the readable twin: `step_item` for each; the equivalence tests
show they give the same bits), timed in the same run, in turns.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from game.rules.dropped_items import DroppedItems, item_state
from game.rules.items import ItemStack
from game.world import World
from physics import AABB

from .harness import Row

SUITE = "items"
TARGET = "<= 2 ms"
LYING, FALLING = 500, 100
FLOOR_Y = 120
EDGE = 24
"""[blocks] The width and depth of the square the items are dropped over."""
FLOOR_MARGIN = 8
"""[blocks] The floor reaches this far beyond it, so no item slides off its edge."""
SETTLE_TICKS = 60
"""[ticks] Untimed ticks that let the lying items land."""
TIMED_TICKS, QUICK_TICKS = 200, 20
TURN_TICKS = 10
"""[ticks] The two sides take turns of this many ticks."""


def _build(path: Path) -> World:
    world = World.create(path, seed=5, workers=1)
    for x in range(-FLOOR_MARGIN, EDGE + FLOOR_MARGIN):
        for z in range(-FLOOR_MARGIN, EDGE + FLOOR_MARGIN):
            world.set_block(x, FLOOR_Y, z, "stone")
    return world


def _items(world: World, vectorised: bool) -> tuple[DroppedItems, list[dict]]:
    """LYING items at rest and FALLING items in the air; and the falling ones' starting states."""
    rng = random.Random(1)
    items = DroppedItems(seed=1, vectorised=vectorised)
    for _ in range(LYING):
        items.spawn_from_block((rng.randrange(EDGE), FLOOR_Y + 1, rng.randrange(EDGE)), ItemStack("dirt"), rng)
    for _ in range(SETTLE_TICKS):
        items.tick(world, {}, _never)
    drops = []
    for _ in range(FALLING):
        item = items.spawn_from_block((rng.randrange(EDGE), FLOOR_Y + rng.randrange(20, 60), rng.randrange(EDGE)),
                                      ItemStack("cobblestone"), rng)
        drops.append(item_state(item))
    return items, drops


def _tick(items: DroppedItems, world: World, players: dict, drops: dict[int, dict]) -> float:
    """[ms] One timed tick; then (untimed) the falling items that landed start again from their height."""
    started = time.perf_counter()
    items.tick(world, players, _never)
    elapsed = (time.perf_counter() - started) * 1e3
    landed = [item for item in items.live if item.key in drops and item.body.on_ground]
    if landed:
        keep = [item_state(item) for item in items.live if not (item.key in drops and item.body.on_ground)]
        fresh = DroppedItems(seed=1, vectorised=items.vectorised)
        fresh.restore(keep + [drops[item.key] for item in landed])
        items._set_live(fresh.live)
    return elapsed


def _never(name, stack) -> int:
    return 0


def run(quick: bool = False) -> list[Row]:
    ticks = QUICK_TICKS if quick else TIMED_TICKS
    players = {"alice": AABB(0.2, FLOOR_Y + 1.0, 0.2, 0.8, FLOOR_Y + 2.8, 0.8)}
    with tempfile.TemporaryDirectory() as folder:
        world = _build(Path(folder) / "items.boxel")
        try:
            sides = []
            for vectorised in (True, False):
                items, drops = _items(world, vectorised)
                sides.append((items, {state["key"]: state for state in drops}, []))
            while len(sides[0][2]) < ticks:
                for items, drops, times in sides:
                    for _ in range(TURN_TICKS):
                        times.append(_tick(items, world, players, drops))
            (ours, _, fast), (_, _, slow) = sides
            on_arrays = ours.moved_on_arrays
        finally:
            world.close()
    note = (f"{LYING} lying + {FALLING} falling, {len(fast)} ticks; last tick {on_arrays} of {len(ours)} on arrays; "
            f"reference: one by one (step_item)")
    return [Row(SUITE, "DroppedItems.tick, 500 lying + 100 falling: median", statistics.median(fast), "ms",
                statistics.median(slow), TARGET, note)]
