"""A crowd whose bodies do not push each other (`Crowd(..., pushes=False)`): each body's step is
`physics.step` to the last bit, on both paths, and equal bodies may stand together."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from physics import AABB, BlockGrid, Body, CrowdSettings, Intent
from physics.crowd import Crowd

from .test_crowd import MaterialBlindWorld, bits, crowds_on, intents_strategy, terrains
from .worlds import floor


def unpushed(world, bodies, vectorised) -> Crowd:
    crowd = Crowd(world, vectorised=vectorised, pushes=False, tuning=CrowdSettings(min_vector_bodies=1))
    for body in bodies:
        crowd.add(body)
    return crowd


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_each_body_of_a_crowd_without_pushes_steps_exactly_as_physics_step_steps_it_alone(data):
    grid, ox, oz = data.draw(terrains())
    if data.draw(st.booleans()):
        grid = MaterialBlindWorld(grid)
    bodies = data.draw(crowds_on(ox, oz))
    crowds = [unpushed(grid, bodies, True), unpushed(grid, bodies, False)]
    for _ in range(data.draw(st.integers(1, 4))):
        intents = data.draw(st.lists(intents_strategy, min_size=len(bodies), max_size=len(bodies)))
        bodies = [physics.step(body, grid, intent) for body, intent in zip(bodies, intents)]
        for crowd in crowds:
            crowd.step(intents)
            assert [bits(b) for b in crowd.bodies] == [bits(b) for b in bodies]


@pytest.mark.parametrize("vectorised", [True, False])
def test_two_equal_bodies_in_a_crowd_without_pushes_stay_on_the_same_spot(vectorised):
    grid = floor(BlockGrid())
    body = Body.at_feet(0.5, 64.0, 0.5)
    crowd = unpushed(grid, [body, body], vectorised)
    walk = Intent(forward=1.0, yaw=30.0)
    crowd.step([walk, walk])
    alone = physics.step(body, grid, walk)
    assert [bits(b) for b in crowd.bodies] == [bits(alone), bits(alone)]


def test_a_crowd_refuses_a_pushes_switch_that_is_not_a_bool():
    with pytest.raises(TypeError, match="pushes must be True or False"):
        Crowd(BlockGrid(), pushes=1)
