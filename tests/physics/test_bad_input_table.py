"""Every public function of `physics`, given each kind of bad argument, raises TypeError or
ValueError (KeyError for an unknown crowd handle) with a message, and changes nothing.

Two parts: a table of named cases (each a bad call seen before), and a
systematic sweep: every public callable of `physics.__all__` (constructors, methods, functions,
and an item of each sequence argument) given each of HOSTILE in place of each argument must
either refuse it so, or take it as good input and then work with it (`use`)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

import physics
from physics import AABB, BETA, BlockGrid, Body, Intent, Material, shapes

NAN, INF, HUGE_INT = math.nan, math.inf, 10 ** 400
BAD_NUMBERS = [NAN, INF, -INF, HUGE_INT, "1", None, True]


def nested(depth: int, make=list):
    """A list (or tuple) nested `depth` deep: its repr alone raises RecursionError."""
    value = make()
    for _ in range(depth):
        value = make((value,))
    return value


def grid() -> BlockGrid:
    g = BlockGrid()
    g.fill(-3, 0, -3, 3, 0, 3)
    return g


def body() -> Body:
    return Body.at_feet(0.5, 1.0, 0.5)


class SlipperyNonsense(BlockGrid):
    def slipperiness(self, x, y, z):
        return INF


class Slippery(BlockGrid):
    """A world whose every block answers one slipperiness."""

    def __init__(self, value):
        super().__init__()
        self.value = value

    def slipperiness(self, x, y, z):
        return self.value


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
    # Values at the edge of what floats and Python can hold: each must be refused with TypeError or
    # ValueError, never OverflowError, AttributeError, IndexError, ZeroDivisionError or RecursionError.
    for sign in (1, -1):
        for method in ("offset", "expanded_towards", "grown"):
            yield (f"AABB.{method} by {sign}0**400", lambda m=method, s=sign: getattr(box, m)(s * HUGE_INT, 0.0, 0.0),
                   None)
        yield f"AABB.around_feet at {sign}0**400", lambda s=sign: AABB.around_feet(s * HUGE_INT, 0, 0, 1, 1), None
        yield f"shapes.placed at {sign}0**400", lambda s=sign: shapes.placed(shapes.SLAB, s * HUGE_INT, 0, 0), None
    for label, sink in (("object()", object()), ("3", 3), ("'sink'", "sink")):
        yield (f"step with a debug sink {label}",
               lambda sink=sink: physics.step(body(), grid(), Intent(), debug=sink), None)
        yield (f"move with a debug sink {label}",
               lambda sink=sink: physics.move(body(), 0.1, 0, 0, grid(), debug=sink), None)
    for scalar in (np.float64(1.0), np.int64(1), np.array(1.0)):
        yield (f"AABB.intersects a numpy {type(scalar).__name__}", lambda scalar=scalar: box.intersects(scalar), None)
        yield (f"AABB.overlap_depth a numpy {type(scalar).__name__}", lambda scalar=scalar: box.overlap_depth(scalar),
               None)
    for tiny in (1e-320, 5e-324, 0.001, 0.0):
        g = grid()
        yield f"BlockGrid.set slipperiness {tiny!r}", lambda g=g, tiny=tiny: g.set(0, 5, 0, slipperiness=tiny), g
        g = grid()
        yield (f"BlockGrid.fill slipperiness {tiny!r}",
               lambda g=g, tiny=tiny: g.fill(0, 5, 0, 1, 5, 1, slipperiness=tiny), g)
        yield f"step on a block whose slipperiness is {tiny!r}", lambda tiny=tiny: _step_on(Slippery(tiny)), None
    deep = nested(100_000)
    yield "Body velocity nested 100,000 deep", lambda: Body(box, deep), None
    yield "Intent yaw nested 100,000 deep", lambda: Intent(yaw=deep), None
    yield "first_hit among targets nested 100,000 deep", lambda: physics.first_hit(box, 1, 0, 0, deep), None
    yield "RecordingSink keeping 10**400", lambda: physics.RecordingSink(keep=HUGE_INT), None
    sink = physics.RecordingSink()
    yield "RecordingSink.report of a non-report", lambda sink=sink: sink.report("move"), sink
    yield "CrowdSettings with a negative count", lambda: physics.CrowdSettings(vectorised_min_bodies=-1), None


def _step_on(world):
    world.fill(-3, 0, -3, 3, 0, 3)
    b = physics.step(physics.step(body(), world, Intent()), world, Intent())
    return physics.step(b, world, Intent(forward=1.0))


def snapshot(state):
    if state is None:
        return None
    if isinstance(state, physics.RecordingSink):
        return list(state.reports)
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


# --- a systematic sweep: every public callable x every argument x hostile values -----------------

class NoAttributes:
    """An object with no attributes at all (not even a `report`, `collision_boxes` or `__index__`)."""

    __slots__ = ()


HOSTILE = [
    ("10**400", 10 ** 400), ("-10**400", -10 ** 400),
    ("numpy float64 nan", np.float64("nan")), ("numpy float32", np.float32(0.5)), ("numpy int64", np.int64(3)),
    ("numpy bool", np.bool_(True)), ("0-d float array", np.array(0.5)), ("0-d int array", np.array(2)),
    ("0-d nan array", np.array(np.nan)), ("1e-320", 1e-320), ("-1e-320", -1e-320),
    ("nan", NAN), ("inf", INF), ("-inf", -INF), ("object()", object()), ("no attributes", NoAttributes()),
    ("list nested 100,000 deep", nested(100_000)), ("tuple nested 100,000 deep", nested(100_000, tuple)),
]
"""Values a caller may pass by mistake or on purpose, each given in place of every argument."""

ALLOWED = (TypeError, ValueError)
"""The errors bad input may raise (a crowd's unknown handle: also KeyError, as documented)."""


def _grid_state():
    g = grid()
    g.set(1, 1, 1, shapes.SLAB, 0.98, Material.SOLID)
    return g


def _sink():
    sink = physics.RecordingSink(keep=4)
    physics.step(body(), grid(), Intent(), debug=sink)
    return sink


def api():
    """(name, make) for every public callable of `physics.__all__` (and of its modules `shapes`
    and `tolerances`): `make()` gives a fresh (callable, args, kwargs, state) whose call is valid;
    `state` is what a failed call must leave unchanged (None: nothing to change)."""
    box, other = AABB(0, 0, 0, 1, 1, 1), AABB(0.5, 0.5, 0.5, 2, 2, 2)
    settings_fields = {f.name: getattr(BETA, f.name) for f in dataclasses.fields(physics.MovementSettings)}
    tuning = physics.CrowdSettings()
    tuning_fields = {f.name: getattr(tuning, f.name) for f in dataclasses.fields(physics.CrowdSettings)}
    report = _sink().last
    yield "AABB", lambda: (AABB, [0.0, 0.0, 0.0, 1.0, 1.0, 1.0], {}, None)
    yield "AABB.around_feet", lambda: (AABB.around_feet, [0.5, 0.0, 0.5, 0.6, 1.8], {}, None)
    for method in ("offset", "expanded_towards", "grown"):
        yield f"AABB.{method}", lambda method=method: (getattr(box, method), [0.5, -0.25, 0.125], {}, None)
    for method in ("intersects", "overlap_depth"):
        yield f"AABB.{method}", lambda method=method: (getattr(box, method), [other], {}, None)
    yield "Body", lambda: (Body, [box, (0.1, 0.0, 0.1)], dict(on_ground=True, collided_horizontally=False,
                                                                 collided_vertically=False, camera_lag=0.0,
                                                                 fall_distance=1.0, in_water=False, in_lava=False,
                                                                 in_web=False, fall_damage=0,
                                                                 touching=frozenset({Material.SOLID})), None)
    yield "Body.at_feet", lambda: (Body.at_feet, [0.5, 64.0, 0.5, 0.6, 1.8], {}, None)
    yield "Intent", lambda: (Intent, [1.0, 0.0, 90.0, False, False, True, False, True, True], {}, None)
    yield "MovementSettings", lambda: (physics.MovementSettings, [], dict(settings_fields), None)
    yield "CrowdSettings", lambda: (physics.CrowdSettings, [], dict(tuning_fields), None)
    for method, args in (("set", [1, 2, 3, shapes.SLAB, 0.98, Material.SOLID, (0.0, 0.0, 0.0)]),
                         ("fill", [0, 2, 0, 1, 2, 1, shapes.SLAB, 0.98, Material.WATER, (1.0, 0.0, 0.0)]),
                         ("remove", [1, 1, 1]), ("material", [1, 1, 1]), ("flow", [1, 1, 1]),
                         ("materials_in", [0, 0, 0, 2, 2, 2]), ("has_block", [1, 1, 1]), ("boxes_at", [1, 1, 1]),
                         ("slipperiness", [1, 1, 1]), ("collision_boxes", [box])):
        def make(method=method, args=args):
            g = _grid_state()
            return getattr(g, method), list(args), {}, g
        yield f"BlockGrid.{method}", make
    yield "Crowd", lambda: (physics.Crowd, [grid(), BETA, None],
                            dict(tuning=physics.CrowdSettings(), max_push_speed=0.25), None)
    for method, args in (("add", [Body.at_feet(2.5, 1.0, 0.5)]), ("remove", [0]), ("body", [0]),
                         ("replace", [0, Body.at_feet(2.5, 1.0, 0.5)]), ("step", [[Intent()]])):
        def make(method=method, args=args):
            c = crowd()
            return getattr(c, method), list(args), {}, c
        yield f"Crowd.{method}", make
    yield "RecordingSink", lambda: (physics.RecordingSink, [3], {}, None)
    def make_report():
        sink = _sink()
        return sink.report, [report], {}, sink
    yield "RecordingSink.report", make_report
    yield "cast", lambda: (physics.cast, [box.offset(0, 2, 0), 0.0, -3.0, 0.0, grid()], {}, None)
    yield "first_hit", lambda: (physics.first_hit, [box, 3.0, 0.0, 0.0, [box.offset(2, 0, 0)]], {}, None)
    yield "sweep", lambda: (physics.sweep, [box, 3.0, 0.0, 0.0, box.offset(2, 0, 0)], {}, None)
    yield "knockback", lambda: (physics.knockback, [body(), 2.0, 0.0, None], {}, None)
    yield "move", lambda: (physics.move, [body(), 0.3, -0.1, 0.2, grid(), BETA, False, None], {}, None)
    yield "push", lambda: (physics.push, [body(), Body.at_feet(0.7, 1.0, 0.5)], {}, None)
    yield "resolve", lambda: (physics.resolve, [body(), 0.3, -2.0, 0.2, grid(), physics.Response.BOUNCE, 0.5, 8],
                              {}, None)
    yield "response_for", lambda: (physics.response_for, [physics.BodyKind.MOB, physics.BodyKind.BLOCK], {}, None)
    yield "step", lambda: (physics.step, [body(), grid(), Intent(forward=1.0), BETA, None], {}, None)
    yield "step with a sink", lambda: (physics.step, [body(), grid(), Intent(forward=1.0), BETA, _sink()], {}, None)
    yield "shapes.placed", lambda: (shapes.placed, [shapes.SLAB, 1, 2, 3], {}, None)
    # Hostile values one level down: an item of a sequence argument.
    yield "Body velocity item", lambda: (lambda vx, vy, vz: Body(box, (vx, vy, vz)), [0.1, 0.0, 0.1], {}, None)
    yield "Body touching item", lambda: (lambda m: Body(box, touching=frozenset({m})), [Material.WATER], {}, None)
    yield "first_hit target item", lambda: (lambda t: physics.first_hit(box, 3, 0, 0, [t]), [box.offset(2, 0, 0)],
                                            {}, None)
    yield "shape item", lambda: (lambda b: shapes.placed((b,), 1, 2, 3), [box], {}, None)
    def make_flow():
        g = _grid_state()
        return (lambda fx, fy, fz: g.set(1, 2, 3, shapes.EMPTY, 0.6, Material.WATER, (fx, fy, fz)),
                [1.0, 0.0, 0.0], {}, g)
    yield "BlockGrid.set flow item", make_flow
    def make_intent():
        c = crowd()
        return (lambda intent: c.step([intent]), [Intent()], {}, c)
    yield "Crowd.step intent item", make_intent


def _arguments():
    """(case name, make, where) for every argument of every public callable."""
    for name, make in api():
        _, args, kwargs, _ = make()
        for where in [*range(len(args)), *kwargs]:
            yield f"{name}[{where}]", make, where




ARGUMENTS = list(_arguments())


@pytest.mark.parametrize("name, make, where", ARGUMENTS, ids=[a[0] for a in ARGUMENTS])
def test_every_public_callable_refuses_each_hostile_argument_with_a_type_or_value_error_and_changes_nothing(
        name, make, where):
    wrong = []
    for label, value in HOSTILE:
        call, args, kwargs, state = make()
        if isinstance(where, int):
            args[where] = value
        else:
            kwargs[where] = value
        before = snapshot(state)
        try:
            result = call(*args, **kwargs)
        except ALLOWED as error:
            if not str(error):
                wrong.append(f"{label}: {type(error).__name__} without a message")
            elif snapshot(state) != before:
                wrong.append(f"{label}: {type(error).__name__}, but the state changed")
        except KeyError:
            if not name.startswith("Crowd."):
                wrong.append(f"{label}: KeyError")
        except BaseException as error:  # noqa: BLE001 - the point is to name what escaped
            wrong.append(f"{label}: {type(error).__name__}: {str(error)[:80]}")
        else:  # taken as good input: then it must work as such
            try:
                use(result, state)
            except BaseException as error:  # noqa: BLE001
                wrong.append(f"{label}: accepted, then {type(error).__name__} on use: {str(error)[:80]}")
    assert not wrong, f"{name}: " + "; ".join(wrong)


def use(result, state) -> None:
    """Use what a call accepted as good input: step bodies on a grid's every block (reading its
    slipperiness, materials and flows), step a crowd, step a body, an intent or settings."""
    if isinstance(state, BlockGrid):
        for x, y, z in list(state.cells()):
            standing = Body(AABB.around_feet(x + 0.5, y + 1.0, z + 0.5, 0.6, 1.8), (0.1, -0.1, 0.1), on_ground=True)
            physics.step(physics.step(standing, state, Intent(forward=1.0)), state, Intent(forward=1.0))
    if isinstance(state, physics.Crowd):
        state.step([Intent(forward=1.0)] * len(state))
    if isinstance(result, Body):
        physics.step(result, grid(), Intent(forward=1.0, jump=True))
    elif isinstance(result, Intent):
        physics.step(body(), grid(), result)
    elif isinstance(result, physics.MovementSettings):
        physics.step(physics.step(body(), grid(), Intent(forward=1.0, jump=True), result), grid(), Intent(), result)
    elif isinstance(result, physics.CrowdSettings):
        crowd = physics.Crowd(grid(), vectorised=True, tuning=result)
        for k in range(8):
            crowd.add(Body.at_feet(-2.5 + 0.7 * k, 1.0, 0.5))
        crowd.step([Intent(forward=1.0)] * 8)
    elif isinstance(result, physics.Crowd):
        result.add(body())
        result.step([Intent(forward=1.0)])
