"""Crowd tuning (`physics.CrowdSettings`): the defaults, values refused with the field's name,
each crowd tuned by its own settings, and `import physics` without numpy until `physics.Crowd`."""

import dataclasses
import math
import pathlib
import random
import subprocess
import sys

import pytest

import physics
from physics import BlockGrid, CrowdSettings
from physics import crowd_vector
from physics.crowd_one_by_one import step_one_by_one

from .test_crowd import assert_identical, crowd_of, milling_crowd, record_calls, wandering
from .worlds import floor

ROOT = pathlib.Path(__file__).resolve().parents[2]

TUNED_DEFAULTS = dict(
    vectorised_min_bodies=50,
    min_vector_bodies=6,
    max_window_cells=96,
    round_cost_in_steps=6.0,
    round_cost_per_body_in_steps=0.1,
    max_guess_rounds=8,
    push_candidate_margin_blocks=0.2,
    push_candidate_rise_blocks=1.0,
    gathered_spare_runs=3,
    cache_cells_per_cell_used=4,
    cache_cells_always=4096,
    max_fallback_pause_ticks=64,
    finishes_before_pause=1,
)
"""The values the crowd is tuned with when not told, each with its type (the measured ones)."""


def test_the_defaults_are_the_measured_values_with_their_types():
    tuning = CrowdSettings()
    assert dataclasses.asdict(tuning) == TUNED_DEFAULTS
    assert all(type(getattr(tuning, k)) is type(v) for k, v in TUNED_DEFAULTS.items())
    assert physics.Crowd(BlockGrid()).tuning == tuning


def test_settings_are_frozen_and_whole_numbers_given_for_floats_become_floats():
    tuning = CrowdSettings(round_cost_in_steps=6, push_candidate_rise_blocks=1)
    assert tuning == CrowdSettings() and type(tuning.round_cost_in_steps) is float
    with pytest.raises(dataclasses.FrozenInstanceError):
        tuning.max_guess_rounds = 3


@pytest.mark.parametrize("field, value, error", [
    ("vectorised_min_bodies", -1, ValueError),
    ("min_vector_bodies", 2.5, TypeError),
    ("max_window_cells", "96", TypeError),
    ("max_guess_rounds", True, TypeError),
    ("gathered_spare_runs", None, TypeError),
    ("cache_cells_per_cell_used", -4, ValueError),
    ("cache_cells_always", 4096.0, TypeError),
    ("round_cost_in_steps", math.nan, ValueError),
    ("round_cost_in_steps", -1.0, ValueError),
    ("round_cost_per_body_in_steps", math.inf, ValueError),
    ("round_cost_per_body_in_steps", "0.1", TypeError),
    ("push_candidate_margin_blocks", -0.1, ValueError),
    ("push_candidate_rise_blocks", 10 ** 400, ValueError),
    ("push_candidate_rise_blocks", False, TypeError),
])
def test_a_bad_value_is_refused_with_a_message_naming_its_field(field, value, error):
    with pytest.raises(error, match=f"CrowdSettings.{field} must be"):
        CrowdSettings(**{field: value})


def test_a_crowd_refuses_tuning_that_is_not_crowd_settings():
    with pytest.raises(TypeError, match="tuning must be a physics.CrowdSettings"):
        physics.Crowd(BlockGrid(), tuning=dict(TUNED_DEFAULTS))
    with pytest.raises(TypeError):
        physics.Crowd(BlockGrid(), physics.BETA, None, CrowdSettings())  # a keyword only


def test_two_crowds_with_different_settings_in_one_process_each_tick_with_their_own(monkeypatch):
    # Stepped in turns on one world: `eager` steps 30 bodies vectorised and finishes every tick
    # that needs a push round one by one (a round costs more than the crowd), `lazy` never
    # vectorises 30 bodies, and `patient` (forced onto the vectorised path) never finishes one by
    # one. Each keeps its own tuning, and all give the one-by-one bodies. (Beta's unbounded pushes:
    # with the bound this crammed crowd would finish one by one wherever it binds.)
    finished, runs = [], []
    monkeypatch.setattr(crowd_vector.VectorTick, "_finish_one_by_one", record_calls(
        crowd_vector.VectorTick._finish_one_by_one, finished))
    monkeypatch.setattr(crowd_vector.VectorTick, "run", record_calls(crowd_vector.VectorTick.run, runs))
    grid = floor()
    bodies = milling_crowd(grid, 30, seed=11, size=3.0)
    eager_tuning = CrowdSettings(vectorised_min_bodies=1, round_cost_in_steps=1e9, max_guess_rounds=0,
                                 max_fallback_pause_ticks=0)  # (no pause: it vectorises every tick)
    lazy_tuning = CrowdSettings(vectorised_min_bodies=1000)
    patient_tuning = CrowdSettings(round_cost_in_steps=0.0, round_cost_per_body_in_steps=0.0, max_guess_rounds=0)
    def unbounded(vectorised, tuning):
        crowd = physics.Crowd(grid, vectorised=vectorised, tuning=tuning, max_push_speed=None)
        for body in bodies:
            crowd.add(body)
        return crowd

    eager, lazy = unbounded(None, eager_tuning), unbounded(None, lazy_tuning)
    patient = unbounded(True, patient_tuning)
    rng = random.Random(11)
    for _ in range(6):
        intents = wandering(rng, len(bodies))
        bodies = step_one_by_one(bodies, grid, intents, max_push_speed=None)
        for crowd in (eager, lazy, patient):
            crowd.step(intents)
            assert_identical(crowd.bodies, bodies)
    assert [call[0].tuning for call in runs] == [eager_tuning, patient_tuning] * 6
    assert finished and all(call[0].tuning is eager_tuning for call in finished)
    assert (eager.tuning, lazy.tuning, patient.tuning) == (eager_tuning, lazy_tuning, patient_tuning)
    assert CrowdSettings() == CrowdSettings(**TUNED_DEFAULTS)  # nothing changed the defaults


LAZY_IMPORT = """
import sys
import physics
physics.step, physics.Body, physics.CrowdSettings()
from physics import CrowdSettings, step
crowd_modules = [m for m in ("physics.crowd", "physics.crowd_vector", "physics.crowd_one_by_one",
                             "physics.broad_phase") if m in sys.modules]
print("numpy" in sys.modules, crowd_modules)
crowd = physics.Crowd(physics.BlockGrid())
from physics import Crowd
print("numpy" in sys.modules, Crowd is physics.Crowd is type(crowd), "Crowd" in dir(physics))
"""


def test_importing_physics_loads_no_numpy_until_the_crowd_is_used():
    out = subprocess.run([sys.executable, "-c", LAZY_IMPORT], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert out.stdout.split("\n")[:2] == ["False []", "True True True"]
