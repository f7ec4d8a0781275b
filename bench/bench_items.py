"""Dropped-item benchmark: milliseconds of the items' part of a session tick with 500 items lying and 100
falling, and of the whole session tick with them.

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

import gc
import random
import statistics
import tempfile
import time
from pathlib import Path

from game.rules.dropped_items import DroppedItems, item_from_state, item_state
from game.rules.items import ItemStack
from game.rules.session import Session
from game.world import World
from physics import AABB, Body

from .harness import Row

SUITE = "items"
TARGET = "<= 2 ms"
LYING, FALLING = 500, 100
FLOOR_Y = 120
EDGE = 24
"""[blocks] The width and depth of the square the items are dropped over."""
FLOOR_MARGIN = 8
"""[blocks] The floor reaches this far beyond it, so no item slides off its edge."""
SETTLE_TICKS, QUICK_SETTLE_TICKS = 1_600, 60
"""[ticks] Untimed ticks that let the lying items land and come to rest: a lying item's sideways speed
decays by Beta's friction to exactly zero in about 70 s (1,400 ticks), as the items a player left
lying have; the quick run only lets them land."""
TIMED_TICKS, QUICK_TICKS = 200, 20
TURN_TICKS = 10
"""[ticks] The two sides take turns of this many ticks."""


def _build(path: Path) -> World:
    world = World.create(path, seed=5, workers=1)
    for x in range(-FLOOR_MARGIN, EDGE + FLOOR_MARGIN):
        for z in range(-FLOOR_MARGIN, EDGE + FLOOR_MARGIN):
            world.set_block(x, FLOOR_Y, z, "stone")
    return world


def _items(world: World, vectorised: bool, settle_ticks: int) -> tuple[DroppedItems, list[dict]]:
    """LYING items at rest and FALLING items in the air; and the falling ones' starting states. The
    lying ones settle on arrays for `settle_ticks` whichever side is asked for (the one-by-one side
    gets copies of them: the same bits)."""
    rng = random.Random(1)
    items = DroppedItems(seed=1, vectorised=True)
    for _ in range(LYING):
        items.spawn_from_block((rng.randrange(EDGE), FLOOR_Y + 1, rng.randrange(EDGE)), ItemStack("dirt"), rng)
    for _ in range(settle_ticks):
        items.tick(world, {}, _never)
    if not vectorised:
        twin = DroppedItems(seed=1, vectorised=False)
        twin.restore([item_state(item, order) for order, item in enumerate(items.live)])
        items = twin
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
    _drop_again(items, drops)
    return elapsed


def _session_tick(session: Session, drops: dict[int, dict]) -> float:
    """[ms] One timed `Session.tick` (the player standing, the items its step among the rest); then
    (untimed) the falling items that landed start again from their height."""
    started = time.perf_counter()
    session.tick()
    elapsed = (time.perf_counter() - started) * 1e3
    _drop_again(session.dropped, drops)
    return elapsed


def _drop_again(items: DroppedItems, drops: dict[int, dict]) -> None:
    """The falling items that landed start again from their heights, each in its own place in the
    tick order (as if it had not landed: the lying items keep their order too)."""
    for item in items.live:
        if item.key in drops and item.body.on_ground:
            items.put_back(item_from_state(drops[item.key])[0])


def _never(name, stack) -> int:
    return 0


def run(quick: bool = False) -> list[Row]:
    ticks = QUICK_TICKS if quick else TIMED_TICKS
    settle = QUICK_SETTLE_TICKS if quick else SETTLE_TICKS
    players = {"alice": AABB(0.2, FLOOR_Y + 1.0, 0.2, 0.8, FLOOR_Y + 2.8, 0.8)}
    with tempfile.TemporaryDirectory() as folder:
        world = _build(Path(folder) / "items.boxel")
        try:
            sides = []
            for vectorised in (True, False):
                items, drops = _items(world, vectorised, settle)
                sides.append((items, {state["key"]: state for state in drops}, []))
            while len(sides[0][2]) < ticks:
                for items, drops, times in sides:
                    gc.collect()  # untimed: the other side's garbage is not this side's to collect
                    for _ in range(TURN_TICKS):
                        times.append(_tick(items, world, players, drops))
            (ours, _, fast), (_, _, slow) = sides
            on_arrays = ours.moved_on_arrays
            whole = _session_turns(world, ticks, settle)
        finally:
            world.close()
    note = (f"{LYING} lying (settled {settle} ticks) + {FALLING} falling, {len(fast)} ticks; last tick {on_arrays} of {len(ours)} on arrays; "
            f"reference: one by one (step_item)")
    return [Row(SUITE, "DroppedItems.tick, 500 lying + 100 falling: median", statistics.median(fast), "ms",
                statistics.median(slow), TARGET, note),
            Row(SUITE, "Session.tick, one player standing, 500 items lying + 100 falling: median",
                statistics.median(whole[0]), "ms", statistics.median(whole[1]), TARGET,
                f"{len(whole[0])} ticks of the whole session tick (the world, the player, mobs, the items, "
                "the record); reference: the same with the items one by one")]


def _session_turns(world: World, ticks: int, settle: int) -> tuple[list[float], list[float]]:
    """[ms] Whole session ticks with the items on arrays and one by one, in turns, on `world`."""
    sides = []
    for vectorised in (True, False):
        session = Session.open(world, autosave=False)
        session.player.body = session.player.previous = Body.at_feet(0.5, FLOOR_Y + 1.0, 0.5)
        items, drops = _items(world, vectorised, settle)
        session.dropped = items
        sides.append((session, {state["key"]: state for state in drops}, []))
    while len(sides[0][2]) < ticks:
        for session, drops, times in sides:
            gc.collect()  # untimed: the other side's garbage is not this side's to collect
            for _ in range(TURN_TICKS):
                times.append(_session_tick(session, drops))
    return sides[0][2], sides[1][2]
