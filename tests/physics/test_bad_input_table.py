"""Every public function of `physics`, given each kind of bad argument, raises TypeError or
ValueError (KeyError for an unknown crowd handle) with a message, and changes nothing."""

from __future__ import annotations

import math

import pytest

import physics
from physics import AABB, BETA, BlockGrid, Body, Intent, Material, shapes

NAN, INF, HUGE_INT = math.nan, math.inf, 10 ** 400
BAD_NUMBERS = [NAN, INF, -INF, HUGE_INT, "1", None, True]


def grid() -> BlockGrid:
    g = BlockGrid()
    g.fill(-3, 0, -3, 3, 0, 3)
    return g


def body() -> Body:
    return Body.at_feet(0.5, 1.0, 0.5)


class SlipperyNonsense(BlockGrid):
    def slipperiness(self, x, y, z):
        return INF


def crowd():
    c = physics.Crowd(grid())
    c.add(body())
    return c


def cases():
    """(name, a call that must fail, the state it must leave unchanged)."""
    box = AABB(0, 0, 0, 1, 1, 1)
    for bad in BAD_NUMBERS:
        yield f"AABB corner {bad!r}", lambda bad=bad: AABB(0, 0, 0, bad, 1, 1), None
        yield f"Body.at_feet x {bad!r}", lambda bad=bad: Body.at_feet(bad, 0.0, 0.0), None
        yield f"Body.at_feet width {bad!r}", lambda bad=bad: Body.at_feet(0.0, 0.0, 0.0, width=bad), None
        yield f"Body velocity {bad!r}", lambda bad=bad: Body(box, (bad, 0.0, 0.0)), None
        yield f"Body fall_distance {bad!r}", lambda bad=bad: Body(box, fall_distance=bad), None
        yield f"Intent yaw {bad!r}", lambda bad=bad: Intent(yaw=bad), None
        yield f"move dx {bad!r}", lambda bad=bad: physics.move(body(), bad, 0.0, 0.0, grid()), None
        yield f"sweep dx {bad!r}", lambda bad=bad: physics.sweep(box, bad, 0.0, 0.0, box.offset(2, 0, 0)), None
        yield f"cast dx {bad!r}", lambda bad=bad: physics.cast(box, bad, 0.0, 0.0, grid()), None
        yield f"knockback from {bad!r}", lambda bad=bad: physics.knockback(body(), bad, 0.0), None
        yield f"MovementSettings gravity {bad!r}", lambda bad=bad: physics.MovementSettings(gravity=bad), None
        g = grid()
        yield f"BlockGrid.set x {bad!r}", lambda g=g, bad=bad: g.set(bad, 0, 0), g
        g = grid()
        yield f"BlockGrid.set slipperiness {bad!r}", lambda g=g, bad=bad: g.set(0, 5, 0, slipperiness=bad), g
        g = grid()
        yield f"BlockGrid.set flow {bad!r}", lambda g=g, bad=bad: g.set(0, 5, 0, flow=(bad, 0.0, 0.0)), g
        g = grid()
        yield f"BlockGrid.fill flow {bad!r}", lambda g=g, bad=bad: g.fill(0, 5, 0, 2, 5, 2, flow=(0.0, bad, 0.0)), g
    for flag in ("on_ground", "in_water", "in_web"):
        yield f"Body {flag} not a bool", lambda flag=flag: Body(box, **{flag: "yes"}), None
    yield "Body touching not materials", lambda: Body(box, touching=frozenset({"water"})), None
    yield "Body fall_damage negative", lambda: Body(box, fall_damage=-1), None
    yield "MovementSettings gravity -1e300", lambda: physics.MovementSettings(gravity=-1e300), None
    yield "MovementSettings sneak_edge_backoff 0", lambda: physics.MovementSettings(sneak_edge_backoff=0.0), None
    yield "step with a body that is not a Body", lambda: physics.step("body", grid(), Intent()), None
    yield "step with a world that is not a world", lambda: physics.step(body(), object(), Intent()), None
    yield "step with settings that are not settings", lambda: physics.step(body(), grid(), Intent(), "BETA"), None
    yield "step with an intent that is not an Intent", lambda: physics.step(body(), grid(), "forward"), None
    yield "move with a world that is not a world", lambda: physics.move(body(), 0.1, 0.0, 0.0, None), None
    yield "step on a block whose slipperiness is infinite", lambda: _step_on(SlipperyNonsense()), None
    yield "push with a non-body", lambda: physics.push(body(), "b"), None
    yield "knockback of a non-body", lambda: physics.knockback("b", 0.0, 0.0), None
    g = grid()
    yield "BlockGrid.fill of 2**63 cells", lambda g=g: g.fill(0, 0, 0, 2 ** 63, 0, 0), g
    g = grid()
    yield "BlockGrid.fill of too many cells", lambda g=g: g.fill(0, 0, 0, 10_000, 10_000, 0), g
    g = grid()
    yield "BlockGrid.set a material that is not one", lambda g=g: g.set(0, 5, 0, material=2), g
    g = grid()
    yield "BlockGrid.set AIR", lambda g=g: g.set(0, 5, 0, material=Material.AIR), g
    g = grid()
    yield "BlockGrid.set a shape of non-boxes", lambda g=g: g.set(0, 5, 0, shape=((0, 0, 0, 1, 1, 1),)), g
    c = crowd()
    yield "Crowd.remove(True)", lambda c=c: c.remove(True), c
    c = crowd()
    yield "Crowd.remove of an unknown handle", lambda c=c: c.remove(7), c
    c = crowd()
    yield "Crowd.add of a non-body", lambda c=c: c.add("body"), c
    c = crowd()
    yield "Crowd.step with too few intents", lambda c=c: c.step([]), c
    c = crowd()
    yield "Crowd.replace with a non-body", lambda c=c: c.replace(0, "body"), c
    yield "Crowd of a non-world", lambda: physics.Crowd(object()), None
    yield "CrowdSettings with a negative count", lambda: physics.CrowdSettings(vectorised_min_bodies=-1), None


def _step_on(world):
    world.fill(-3, 0, -3, 3, 0, 3)
    b = physics.step(physics.step(body(), world, Intent()), world, Intent())
    return physics.step(b, world, Intent(forward=1.0))


def snapshot(state):
    if state is None:
        return None
    if isinstance(state, BlockGrid):
        return state.revision, {c: (state.boxes_at(*c), state.material(*c), state.flow(*c),
                                    state.slipperiness(*c)) for c in state.cells()}
    return state.handles, state.bodies


CASES = list(cases())


@pytest.mark.parametrize("name, call, state", CASES, ids=[c[0] for c in CASES])
def test_a_bad_argument_raises_a_clear_error_and_changes_nothing(name, call, state):
    before = snapshot(state)
    with pytest.raises((TypeError, ValueError, KeyError)) as raised:
        call()
    assert str(raised.value), name
    assert snapshot(state) == before
