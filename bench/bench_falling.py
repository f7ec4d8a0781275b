"""Falling-block benchmark: milliseconds of a game tick while a 16 x 16 x 150 block of sand collapses.

The case: a 16 x 16 x 150 block of sand on a stone support 40 blocks
over a stone floor (one column, built untimed); the support is taken away and `Session.tick()`
runs until every block has landed. Each row times every tick of that collapse: its median and
its worst. The reference is the same collapse with the falling blocks stepped one by one
(`FallingBlocks(world, vectorised=False)`, the readable twin of the vectorised tick; the
equivalence tests show they give the same bits). Both start at most MAX_STARTS_PER_TICK blocks a
tick. `--quick` collapses a 16 x 16 x 12 block instead (it checks the case runs; rough numbers).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from game.rules.falling_blocks import MAX_STARTS_PER_TICK, FallingBlocks
from game.rules.session import Session
from game.world import World
from game.world.falling import FALL_TICKS

from .harness import Row

SUITE = "falling"
TARGET = "<= 50 ms"
"""Every tick of the collapse within the 20 Hz tick's budget."""
SUPPORT_Y = 100
"""[blocks] The support's height; the floor is DROP blocks lower."""
DROP = 40
EDGE = 16
"""[blocks] The block's width and depth: one whole column."""
HEIGHT = 150
QUICK_HEIGHT = 12
MAX_TICKS = 5_000
"""[ticks] A collapse that has not ended by then is reported as it stands (none comes near it)."""


def _build(path: Path, height: int) -> Session:
    """A session on a new world with the sand block standing on its support, the support just taken."""
    world = World.create(path, seed=5, workers=1)
    session = Session.open(world, autosave=False)
    for x in range(EDGE):
        for z in range(EDGE):
            world.set_block(x, SUPPORT_Y - DROP, z, "stone")
            for y in range(SUPPORT_Y - DROP + 1, SUPPORT_Y):
                world.set_block(x, y, z, "air")
            world.set_block(x, SUPPORT_Y, z, "stone")
            for y in range(SUPPORT_Y + 1, SUPPORT_Y + 1 + height):
                world.set_block(x, y, z, "sand")
    for _ in range(FALL_TICKS + 1):
        session.tick()
    for x in range(EDGE):
        for z in range(EDGE):
            world.set_block(x, SUPPORT_Y, z, "air")
    return session


def _collapse(folder: Path, height: int, vectorised: bool) -> tuple[list[float], int, int]:
    """[ms] Every tick of the collapse, the most blocks in flight at once, and the blocks landed."""
    session = _build(folder / f"collapse-{vectorised}.boxel", height)
    try:
        session.falling = FallingBlocks(session.world, vectorised=vectorised)
        ticks, peak = [], 0
        while len(ticks) < MAX_TICKS:
            started = time.perf_counter()
            session.tick()
            ticks.append((time.perf_counter() - started) * 1e3)
            peak = max(peak, len(session.falling))
            if not len(session.falling) and not session.world.pending_updates:
                break
        return ticks, peak, session.falling.landed
    finally:
        session.world.close()


def run(quick: bool = False) -> list[Row]:
    height = QUICK_HEIGHT if quick else HEIGHT
    with tempfile.TemporaryDirectory() as folder:
        ours, peak, landed = _collapse(Path(folder), height, vectorised=True)
        theirs, _, _ = _collapse(Path(folder), height, vectorised=False)
    case = f"Session.tick, {EDGE}x{EDGE}x{height} sand collapsing"
    note = (f"{landed:,} blocks landed of {EDGE * EDGE * height:,}, {len(ours)} ticks, up to {peak:,} in flight, "
            f"at most {MAX_STARTS_PER_TICK} start a tick")
    return [Row(SUITE, f"{case}: median tick", statistics.median(ours), "ms", statistics.median(theirs), TARGET, note),
            Row(SUITE, f"{case}: worst tick", max(ours), "ms", max(theirs), TARGET,
                f"{sum(t > 50.0 for t in ours)} of {len(ours)} ticks over 50 ms")]
