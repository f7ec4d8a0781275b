"""Physics benchmark: microseconds per `physics.step` and per `physics.move`.

Cases: a body walking on flat ground, pressed into a wall corner (a step-up is tried and
refused every tick), falling; single moves of 1, 10 and 100 blocks diagonally through a field
of scattered blocks. Every row is compared with the straightforward port in `reference_physics` (which skips the
step-up, the tolerance and float32 emulation, so it does less work than Boxel on the corner case).
The medium rows (swimming through water with a current, climbing a ladder, walking on soul
sand) are compared with Boxel's own walking step on flat ground, timed in the same run: the
target is that a step in a medium costs at most 1.5x a dry one. Each step row samples its
steps and its reference's in strict turns (`harness.paired_medians`), so a slow spell of this
shared machine falls on both alike.
"""

from __future__ import annotations

import random

import physics
from physics import BlockGrid, Body, Intent, Material, shapes

from .harness import Row, median_time, paired_medians
from .reference_physics import reference_move, reference_step

SUITE = "physics"


def _floor(size: int) -> BlockGrid:
    grid = BlockGrid()
    grid.fill(-size, 63, -size, size, 63, size)
    return grid


def _settled(grid, x=0.5, z=0.5) -> Body:
    body = Body.at_feet(x, 64.0, z)
    for _ in range(2):
        body = physics.step(body, grid, Intent())
    return body


def _step_case(name: str, grid, body: Body, intent: Intent, repeats: int, target: str) -> Row:
    state = {"body": body}

    def one_step():
        state["body"] = physics.step(state["body"], grid, intent)

    def reset():
        state["body"] = body

    reference_state = {"box": body.box, "velocity": body.velocity, "on_ground": body.on_ground}

    def one_reference_step():
        r = reference_state
        r["box"], r["velocity"], r["on_ground"] = reference_step(
            r["box"], r["velocity"], r["on_ground"], intent.forward, intent.yaw, grid)

    def reset_reference():
        reference_state.update(box=body.box, velocity=body.velocity, on_ground=body.on_ground)

    ours, reference = paired_medians(_steps(one_step, reset), _steps(one_reference_step, reset_reference),
                                     repeats=repeats)
    return Row(SUITE, name, ours / STEPS_PER_SAMPLE, "us", reference=reference / STEPS_PER_SAMPLE, target=target,
               note="reference: plain-double Beta port, no step-up; sampled in turns")


STEPS_PER_SAMPLE = 200
"""[steps] Each timed sample runs this many steps from the case's start (a reset is one dict
store, far below a step's time)."""


def _steps(one_step, reset):
    """One sample: reset, then STEPS_PER_SAMPLE steps."""
    def sample():
        reset()
        for _ in range(STEPS_PER_SAMPLE):
            one_step()
    return sample


def _scattered(size: int, seed: int = 7) -> BlockGrid:
    """Blocks at 2% of the cells of a cube around the origin, with a clear cell at the body."""
    rng = random.Random(seed)
    grid = BlockGrid()
    for _ in range(int(0.02 * (2 * size) ** 3)):
        x, y, z = (rng.randrange(-size, size) for _ in range(3))
        if abs(x) > 2 or abs(y) > 3 or abs(z) > 2:
            grid.set(x, y, z)
    return grid


def _stepper(body: Body, world, intent: Intent):
    """One sample of STEPS_PER_SAMPLE steps of `body` from its start."""
    state = {"body": body}

    def one_step():
        state["body"] = physics.step(state["body"], world, intent)

    def reset():
        state["body"] = body

    return _steps(one_step, reset)


def _medium_rows(dry_walk: tuple[Body, BlockGrid, Intent], repeats: int) -> list[Row]:
    """A step swimming, climbing and on soul sand, each for STEPS_PER_SAMPLE steps from its start
    (the body stays in its medium throughout), against the dry walking step, sampled in turns."""
    pool = _floor(40)
    pool.fill(-15, 40, -15, 15, 63, 15, shapes.EMPTY, material=Material.WATER)
    pool.fill(-15, 48, -15, 15, 63, 15, shapes.EMPTY, material=Material.WATER, flow=(0.0, 0.0, 1.0))
    swimmer = physics.step(Body.at_feet(0.5, 62.0, -6.5), pool, Intent())
    ladder = _floor(10)
    ladder.fill(1, 64, -1, 1, 110, 1)
    ladder.fill(0, 64, 0, 0, 110, 0, shapes.LADDER["east"], material=Material.LADDER)
    climber = _settled(ladder)
    soul_sand = _floor(40)
    soul_sand.fill(-40, 64, -1, 40, 64, 1, shapes.SOUL_SAND, material=Material.SOUL_SAND)
    walker = physics.step(Body.at_feet(-20.5, 64.875, 0.5), soul_sand, Intent())
    cases = [
        ("step: swimming in water with a current", swimmer, pool, Intent(forward=1.0, yaw=270.0)),
        ("step: climbing a ladder", climber, ladder, Intent(forward=1.0, yaw=270.0)),
        ("step: walking on soul sand", walker, soul_sand, Intent(forward=1.0, yaw=270.0)),
    ]
    rows = []
    for name, body, world, intent in cases:
        ours, dry = paired_medians(_stepper(body, world, intent), _stepper(*dry_walk), repeats=repeats)
        ours, dry = ours / STEPS_PER_SAMPLE, dry / STEPS_PER_SAMPLE
        rows.append(Row(SUITE, name, ours, "us", reference=dry, target=f"<= {1.5 * dry:.3g} us (1.5x dry walk)",
                        note="reference: Boxel's walking step on flat ground, sampled in turns"))
    return rows


def run(quick: bool = False) -> list[Row]:
    repeats = 5 if quick else 25
    rows = []
    flat = _floor(400)
    walk = (_settled(flat), flat, Intent(forward=1.0, yaw=270.0))
    rows.append(_step_case("step: walking on flat ground", flat, walk[0], walk[2], repeats, "<= 40 us"))
    corner = _floor(10)
    corner.fill(2, 64, -10, 2, 65, 10)
    corner.fill(-10, 64, 2, 2, 65, 2)
    pressed = _settled(corner, 1.7, 1.7)
    for _ in range(20):
        pressed = physics.step(pressed, corner, Intent(forward=1.0, yaw=315.0))
    rows.append(_step_case("step: pressed into a wall corner (step-up tried)", corner, pressed,
                           Intent(forward=1.0, yaw=315.0), repeats, "<= 80 us"))
    rows.extend(_medium_rows(walk, repeats))
    falling = Body.at_feet(0.5, 1e5, 0.5)
    rows.append(_step_case("step: falling", BlockGrid(), falling, Intent(), repeats, ""))

    field = _scattered(60)
    start = Body.at_feet(0.5, 0.0, 0.5)
    for length in (1, 10, 100):
        d = length / 3 ** 0.5
        ours = median_time(lambda: physics.move(start, d, d, d, field), repeats=repeats, inner=20 if length < 100 else 2)
        ref = median_time(lambda: reference_move(start.box, d, d, d, field), repeats=max(3, repeats // 5),
                          inner=20 if length < 100 else 1)
        rows.append(Row(SUITE, f"move: {length} block diagonal, 2% filled", ours, "us", reference=ref,
                        note="reference: cell-by-cell Beta port"))
    return rows
