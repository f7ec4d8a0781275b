"""Mobs benchmark: a hundred wandering boxlings thinking for one tick, all at once against one by one.

The case: MOBS boxlings (`game.rules.mob_brain`) spread SPREAD_BLOCKS around the spawn of a new
seed-42 world (hills, water, sand), walking, idling, turning at drops, walls and water, moved each
tick by one `physics.Crowd` as the game moves them. After WARM_TICKS untimed ticks, each tick times
`mob_brain_rows.think_all` (their looks below and ahead read from the crowd's world cache on
arrays) and, in strict turns with it, the reference: a copy of every brain thinking alone
(`MobBrain.think`, with the memos a brain keeps from tick to tick). Both give the same intents
(checked every tick); the crowd steps with them. Medians over the timed ticks.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from .harness import Row
from .session_bots import _preload

SUITE = "mobs"
MOBS = 100
SPREAD_BLOCKS = 40
"""[blocks] The boxlings start within this of the spawn on x and z (as a crowd of players' mobs spreads)."""
WARM_TICKS = 100
"""[ticks] Untimed first: the brains' first walks start and their memos fill, the cache learns the ground."""
SEED = 42


def run(quick: bool = False) -> list[Row]:
    from game.rules.mob_brain import BOXLING, MobBrain
    from game.rules.mob_brain_rows import think_all
    from game.rules.player import surface_feet
    from game.world import World
    from physics import Body, Crowd

    ticks = 40 if quick else 300
    with tempfile.TemporaryDirectory(prefix="boxel-bench-mobs-") as folder:
        world = World.create(Path(folder) / "mobs.boxel", seed=SEED, workers=1)
        try:
            _preload(world, SPREAD_BLOCKS + 16)
            sx, _, sz = world.spawn
            rng = random.Random(7)
            crowd = Crowd(world)
            for _ in range(MOBS):
                x, y, z = surface_feet(world, sx + rng.uniform(-SPREAD_BLOCKS, SPREAD_BLOCKS),
                                       sz + rng.uniform(-SPREAD_BLOCKS, SPREAD_BLOCKS))
                crowd.add(Body.at_feet(x, y, z, BOXLING.width, BOXLING.height))
            together = [MobBrain(BOXLING, seed=rng.randrange(2**32), yaw=rng.uniform(0.0, 360.0)) for _ in range(MOBS)]
            alone = [MobBrain.from_state(brain.to_state()) for brain in together]
            ours, theirs, walking, reader = [], [], [], _Brains()
            for tick in range(WARM_TICKS + ticks):
                bodies = crowd.bodies
                start = time.perf_counter()
                twins = [brain.think(body, world) for brain, body in zip(alone, bodies)]
                middle = time.perf_counter()
                intents = think_all(together, bodies, world, crowd.world_cache, user=reader)
                end = time.perf_counter()
                if [repr(i) for i in intents] != [repr(i) for i in twins]:
                    raise AssertionError(f"tick {tick}: the brains thinking together and alone disagree")
                if tick >= WARM_TICKS:
                    theirs.append((middle - start) * 1e3)
                    ours.append((end - middle) * 1e3)
                    walking.append(sum(brain.walking for brain in together))
                crowd.step(intents)
        finally:
            world.close()
    return [Row(SUITE, f"{MOBS} boxlings thinking, one tick", statistics.median(ours), "ms",
                reference=statistics.median(theirs),
                note=f"reference: each brain alone (`MobBrain.think`, its memos kept); {ticks} ticks after "
                     f"{WARM_TICKS}, {statistics.median(walking):.0f} walking (median), the same intents; "
                     f"within {SPREAD_BLOCKS} blocks of seed {SEED}'s spawn, moved by one crowd")]


class _Brains:
    """Who the brains are to the world cache (`WorldCache.use`: any weakly referable object but the crowd)."""
