"""Crowd benchmark: one full crowd tick (intents, move with step-up, push) for 100,
1,000 and 10,000 wandering bodies on generated-like terrain.

The terrain is a BlockGrid heightmap (rolling hills two blocks thick, half steps as slabs, so
bodies step up and down all the time) fenced in, with a body every 4 blocks^2 (DENSITY). Each
case first lets the crowd settle and mill about, then times `crowd.step(intents)` (the intents
are built beforehand: making them is the game's AI, not physics).

The world counts its changes in `revision` (as `BlockGrid` and the game's `World` do), which lets
the crowd keep the block boxes it gathered from tick to tick; one more case runs on a grid that
hides `revision`, so its boxes are gathered afresh every tick. In the same run:
- the one-by-one reference path (`Crowd(..., vectorised=False)`: `physics.step` and
  `physics.push` body by body, the readable definition), on the same crowd and intents (both
  crowds take one tick per sample, in turns, so they stay on the same tick);
- finding push partners with the strip sweep (`near_pairs`) among the bodies' own boxes (the
  tick searches boxes grown by `CrowdSettings.push_candidate_margin_blocks`, with more pairs)
  against a brute-force all-pairs test (numpy);
- reading `crowd.bodies` back as `Body` values after a vectorised tick (not part of the tick);
- the same 1,000 bodies with one more launched diagonally at 1,000 and at 999,000 blocks a tick
  (`FAST_SPEEDS`), against the one-by-one path (target: no dearer than one by one);
- bodies crammed into walled pits (300 in 3 x 3, 2,000 in 10 x 10), the crowd choosing its path,
  against the one-by-one path: pushes there reach `Crowd.max_push_speed`, so vectorised ticks
  finish one by one and the crowd pauses its vectorised path (target: no dearer than one by one).
Timings are medians on a machine shared with other jobs; each tick case times the vectorised and
the reference crowd in strict turns (`harness.paired_medians`), so their ratio is fair within a
run: each tick starts after one of the other crowd, as a game's crowd tick starts after a frame.
"""

from __future__ import annotations

import math
import random

import numpy as np

from physics import AABB, BlockGrid, Body, Intent, shapes
from physics.broad_phase import near_pairs
from physics.crowd import Crowd
from physics.push import PUSH_REACH

from .harness import Row, median_time, paired_medians

SUITE = "crowd"
DENSITY = 0.25
"""[bodies/block^2] One body every 4 blocks^2: a crowd where neighbours meet and push often."""
TURN_CHANCE = 0.03
"""[1/tick] Chance per tick that a wandering body picks a new heading."""
_YAWS = tuple(float(y) for y in range(0, 360, 15))
_WALK = tuple(Intent(forward=1.0, yaw=y) for y in _YAWS)
_HOP = tuple(Intent(forward=1.0, yaw=y, jump=True) for y in _YAWS)
_REST = Intent()


def terrain(side: int, world: type[BlockGrid] = BlockGrid, seed: int = 3) -> BlockGrid:
    """Rolling hills two blocks thick over side x side columns, slabs on half steps, fenced in."""
    rng = random.Random(seed)
    phase = [rng.uniform(0.0, 2 * math.pi) for _ in range(3)]
    grid = world()
    tops = {}
    for x in range(-1, side + 1):
        for z in range(-1, side + 1):
            h = (2.0 * math.sin(x / 9.0 + phase[0]) + 2.0 * math.cos(z / 11.0 + phase[1])
                 + math.sin((x + z) / 5.0 + phase[2]))
            top = 64 + math.floor(h)
            grid.fill(x, top - 1, z, x, top, z)
            if h - math.floor(h) > 0.5:
                grid.set(x, top + 1, z, shapes.SLAB)
            tops[x, z] = top
    fence_top = max(tops.values()) + 3
    for i in range(-1, side + 1):
        for x, z in ((i, -1), (i, side), (-1, i), (side, i)):
            grid.fill(x, tops[x, z] + 1, z, x, fence_top, z, shapes.FENCE)
    return grid


def wandering_crowd(count: int, vectorised: bool | None = None, world: type[BlockGrid] = BlockGrid,
                    seed: int = 1) -> tuple[Crowd, list[list[Intent]]]:
    """A crowd of `count` bodies dropped over its terrain, and a cycle of wandering intents."""
    side = max(8, round(math.sqrt(count / DENSITY)))
    rng = random.Random(seed)
    crowd = Crowd(terrain(side, world), vectorised=vectorised)
    for _ in range(count):
        crowd.add(Body.at_feet(rng.uniform(0.5, side - 0.5), 70.0, rng.uniform(0.5, side - 0.5)))
    heading = [rng.randrange(len(_YAWS)) for _ in range(count)]
    cycle = []
    for tick in range(40):
        intents = []
        for k in range(count):
            if rng.random() < TURN_CHANCE:
                heading[k] = rng.randrange(len(_YAWS))
            resting = (k + tick // 10) % 5 == 0  # a fifth of the crowd rests at any time
            intents.append(_REST if resting else (_HOP if rng.random() < 0.02 else _WALK)[heading[k]])
        cycle.append(intents)
    return crowd, cycle


class _Ticker:
    """Steps a crowd through its intent cycle, one tick per call."""

    def __init__(self, crowd: Crowd, cycle: list[list[Intent]]) -> None:
        self.crowd, self.cycle, self.tick = crowd, cycle, 0

    def __call__(self) -> None:
        self.crowd.step(self.cycle[self.tick % len(self.cycle)])
        self.tick += 1


def _brute_force_partners(boxes: np.ndarray, reach: float) -> int:
    """How many ordered pairs of distinct boxes are near (`near_pairs`'s relation), testing every
    pair (numpy, in slabs of rows)."""
    found = 0
    for start in range(0, len(boxes), 512):
        a = boxes[start:start + 512, None, :]
        b = boxes[None, :, :]
        near = ((np.maximum(b[..., 0] - a[..., 3], a[..., 0] - b[..., 3]) < reach)
                & (np.maximum(b[..., 2] - a[..., 5], a[..., 2] - b[..., 5]) < reach)
                & (a[..., 4] > b[..., 1]) & (b[..., 4] > a[..., 1]))
        found += int(near.sum()) - int(near.diagonal(start).sum())  # a box is not its own partner
    return found


def _settled(count: int, world: type[BlockGrid], quick: bool) -> tuple[_Ticker, _Ticker]:
    """A milling crowd of `count` bodies, and the same crowd on the one-by-one path."""
    crowd, cycle = wandering_crowd(count, world=world)
    ticker = _Ticker(crowd, cycle)
    for _ in range(5 if quick else 40):  # fall, land, start milling
        ticker()
    reference = _Ticker(Crowd(crowd.world, vectorised=False), cycle)
    reference.tick = ticker.tick
    for body in crowd.bodies:
        reference.crowd.add(body)
    return ticker, reference


def run(quick: bool = False) -> list[Row]:
    rows = []
    tick_ms = {}
    for count in (100, 1_000, 10_000):
        ticker, reference = _settled(count, BlockGrid, quick)
        ours, theirs = paired_medians(ticker, reference, repeats=3 if quick else {100: 60, 1_000: 60, 10_000: 15}[count],
                                      unit="ms")
        tick_ms[count] = ours
        target = {100: "", 1_000: "<= 10 ms, >= 10x", 10_000: "<= 12x the 1,000 case"}[count]
        note = "reference: one-by-one path"
        if count == 10_000:
            note += f"; {ours / tick_ms[1_000]:.1f}x the 1,000-body tick"
        rows.append(Row(SUITE, f"crowd tick: {count:,} wandering bodies", ours, "ms", reference=theirs,
                        target=target, note=note))

        crowd = ticker.crowd
        boxes = np.array([b.box for b in crowd.bodies])
        found = near_pairs(boxes, PUSH_REACH)[0].size
        if found != _brute_force_partners(boxes, PUSH_REACH):
            raise AssertionError("near_pairs and the brute-force scan disagree")
        sweep_ms = median_time(lambda: near_pairs(boxes, PUSH_REACH), repeats=3 if quick else 15, unit="ms")
        brute_ms = median_time(lambda: _brute_force_partners(boxes, PUSH_REACH), repeats=1 if quick else 3,
                               warmup=0 if count == 10_000 else 1, unit="ms")
        rows.append(Row(SUITE, f"push partners: {count:,} bodies, strip sweep", sweep_ms, "ms", reference=brute_ms,
                        note=f"{found:,} ordered pairs among the bodies' boxes; reference: brute-force all pairs (numpy)"))
        if count == 1_000:
            read_ms = median_time(lambda: crowd.bodies, repeats=3 if quick else 15, warmup=0, setup=ticker, unit="ms")
            rows.append(Row(SUITE, "read crowd.bodies after a 1,000-body tick", read_ms, "ms",
                            note="Body values built on demand; not part of the tick"))

    ticker, reference = _settled(1_000, _WithoutRevision, quick)
    ours, theirs = paired_medians(ticker, reference, repeats=3 if quick else 30, unit="ms")
    rows.append(Row(SUITE, "crowd tick: 1,000 bodies, world without revision", ours, "ms", reference=theirs,
                    note="block boxes gathered afresh every tick; reference: one-by-one path"))
    for speed in FAST_SPEEDS:
        ticker, reference = _settled(1_000, BlockGrid, quick)
        ours, theirs = paired_medians(_Launching(ticker, speed), _Launching(reference, speed),
                                      repeats=3 if quick else 30, unit="ms")
        rows.append(Row(SUITE, f"crowd tick: 1,000 bodies and one moving ({speed:,.0f}, 0, {speed:,.0f}) a tick",
                        ours, "ms", reference=theirs, target="<= the one-by-one path",
                        note="the fast body is launched again before each tick; reference: one-by-one path"))
    for count, side in ((300, 3), (2_000, 10)):
        ticker, reference = _crammed(count, side, quick)
        ours, theirs = paired_medians(ticker, reference, repeats=3 if quick else 20, unit="ms")
        fastest = max(max(abs(b.velocity[0]), abs(b.velocity[2])) for b in ticker.crowd.bodies)
        rows.append(Row(SUITE, f"crowd tick: {count:,} bodies crammed in a {side} x {side} pit", ours, "ms",
                        reference=theirs, target="<= 1.1x the one-by-one path",
                        note=f"path chosen by the crowd; fastest body {fastest:.2f} blocks/tick; "
                             "reference: one-by-one path"))
    return rows


def _crammed(count: int, side: int, quick: bool) -> tuple[_Ticker, _Ticker]:
    """`count` bodies walking about in a walled side x side pit (the crowd choosing its path), and
    the same crowd on the one-by-one path, after settling for a while."""
    grid = BlockGrid()
    grid.fill(-2, 63, -2, side + 1, 63, side + 1)
    for x0, z0, x1, z1 in ((-1, -1, side, -1), (-1, side, side, side), (-1, -1, -1, side), (side, -1, side, side)):
        grid.fill(x0, 64, z0, x1, 66, z1)
    rng = random.Random(count)
    crowd, reference = Crowd(grid), Crowd(grid, vectorised=False)
    bodies = dict.fromkeys(Body(AABB.around_feet(rng.uniform(0.3, side - 0.3), 64.0, rng.uniform(0.3, side - 0.3),
                                                 0.6, 1.8)) for _ in range(count))
    for body in bodies:
        crowd.add(body)
        reference.add(body)
    cycle = [[Intent(forward=1.0, yaw=rng.uniform(0.0, 360.0)) for _ in bodies] for _ in range(8)]
    ticker, reference_ticker = _Ticker(crowd, cycle), _Ticker(reference, cycle)
    for _ in range(3 if quick else 20):
        ticker()
        reference_ticker()
    return ticker, reference_ticker


FAST_SPEEDS = (1_000.0, 999_000.0)
"""[blocks/tick] Speeds of the fast diagonal body of the fast-body rows: 1,000 blocks a tick once
cost the vectorised tick 2.1 s (every cell of its swept box enumerated); 999,000 (below
`tolerances.MAX_DISPLACEMENT`, which `Body` accepts) raised MemoryError."""


class _Launching:
    """Steps a crowd through its intent cycle with one more body, put back at the crowd's middle
    and launched at (speed, 0, speed) before each tick (`Crowd.replace`: a game's knock-back)."""

    def __init__(self, ticker: _Ticker, speed: float) -> None:
        self.ticker = ticker
        side = max(8, round(math.sqrt(len(ticker.crowd) / DENSITY)))
        self.launched = Body(AABB.around_feet(side / 2.0, 72.0, side / 2.0, 0.6, 1.8), (speed, 0.0, speed))
        self.handle = ticker.crowd.add(self.launched)
        self.cycle = [intents + [_REST] for intents in ticker.cycle]

    def __call__(self) -> None:
        t = self.ticker
        t.crowd.replace(self.handle, self.launched)
        t.crowd.step(self.cycle[t.tick % len(self.cycle)])
        t.tick += 1


class _WithoutRevision(BlockGrid):
    """A BlockGrid that hides its `revision`, as a world without that optional attribute."""

    revision = property(lambda self: None)
