"""Crowd tuning: `CrowdSettings`, the knobs that decide how a `Crowd` computes a tick, never what.

Owns: `CrowdSettings` (one frozen value per crowd, checked when made) and `DEFAULT_TUNING`.
Does not own: movement values (`settings.MovementSettings`: how bodies move) or the code the
knobs tune (`crowd.py`, `crowd_vector.py`, `broad_phase.py`).

Every value gives the same bodies to the last bit: they choose between the one-by-one and the
vectorised path, when a vectorised tick finishes one by one, which bodies step with
`physics.step` inside it, and how much it keeps from tick to tick. The defaults are the fastest
measured with `python -m bench crowd`; other values serve tests (forcing the rarely taken
branches) and other machines. Pure Python (no numpy), so `import physics` can offer it without
loading the crowd.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, fields

from .messages import shown


@dataclass(frozen=True, slots=True)
class CrowdSettings:
    """How a `physics.Crowd` computes its ticks (see the module docstring). Counts are ints >= 0,
    the others finite floats >= 0; anything else raises TypeError or ValueError naming the field."""

    vectorised_min_bodies: int = 50
    """[bodies] From this many bodies on, `Crowd` steps with the vectorised path (when its
    `vectorised` is None). Measured on a shared 2-core machine with the benchmark's wandering
    crowd (median ms a tick, vectorised / one by one): 20 bodies 1.9 / 1.1, 40 bodies 2.7 / 2.3,
    60 bodies 1.8 / 2.0, 100 bodies 3.3 / 5.2; they cross between 40 and 60."""

    min_vector_bodies: int = 6
    """[bodies] Fewer bodies than this step with `physics.step`, one by one, even on the
    vectorised path (in any round of a tick). Measured on the benchmark crowd (per-call timers
    over 400 ticks): a numpy step of 1 to 8 bodies costs 250 to 300 us, `physics.step` about
    55 us a body (these bodies meet others and walls, so they often try a step-up); they cross at
    about 5 bodies. The later push rounds of a tick move 1 to 20 bodies (about 4 a round in the
    benchmark); 2, 3, 4, 12 or 24 here make no difference to its tick, measured in turns."""

    max_window_cells: int = 96
    """[cells] Bodies whose move needs more block cells than this (very fast or very large
    bodies) step with `physics.step` instead: their box lists would be long and their cells
    many. A 0.6 x 1.8 body needs 8 to 18 cells, falling at terminal speed about 30."""

    round_cost_in_steps: float = 6.0
    """[`physics.step` calls] What one push round costs however few bodies it re-steps, counted
    in steps of one body. The vectorised path re-steps the bodies whose pushed velocity changed
    until none does, unless the rounds so far plus the next would cost more than finishing the
    tick one by one, which it then does. Finishing costs about a step a body in the crowd,
    whichever body is the first unsettled one (`step_one_by_one` takes the settled steps as given
    but still has every body push its partners). Measured (see `min_vector_bodies`): a round's
    numpy step costs 250 to 300 us, plus the pushes' update, and a `physics.step` about 55 us,
    so a round costs about 6 steps.
    With the guessed pushes (`VectorTick._guess`) the benchmark's crowd settles in 0 to 4 rounds
    (without them, 2 to 8). A pile of bodies all touching each other needs about one round per
    body, where finishing one by one wins. A limit on the cost rather than on the number of
    rounds: after 500 ticks of milling, piles along the benchmark's fence need 14 or 15 rounds
    without the guess, still far cheaper than finishing 1,000 bodies one by one."""

    round_cost_per_body_in_steps: float = 0.1
    """[`physics.step` calls] What each body a round re-steps adds to its cost (~5 us of numpy
    work a body, against ~55 us for a step: see `min_vector_bodies`)."""

    max_guess_rounds: int = 8
    """[rounds] How often `VectorTick._guess` may redo its guessed moves with the pushes they
    give. Each round costs a few numpy calls over the push pairs (~50 us for 1,000 bodies), far
    less than stepping bodies again; the benchmark's crowd needs 3.3 a tick on average. The limit
    only bounds a pile of bodies that would need one round each: the tick stays exact either way
    (0 turns the guess's rounds off)."""

    push_candidate_margin_blocks: float = 0.2
    """[blocks] How far sideways around a body's unstepped and guessed (or stepped) box
    `PushCandidates` looks for partners. The crowd keeps the candidates from tick to tick while
    every box the tick tests stays inside them; a body that leaves makes the tick find them
    afresh (exact either way).
    Measured on the benchmark's 1,000 wandering bodies (0.22 blocks a tick), finding the pairs
    with a grid of 2-block cells (3-5x slower than `broad_phase.near_pairs`): a margin of 0.1
    finds them afresh 1.09 times a tick (1,051 candidate pairs; 0.7 up and down), 0.2 and 0.3
    once (1,522 and 2,062; 1.0 and 1.5), 0.5 every other tick (3,361; 1.5), 0.8 every third
    (5,794; 1.5), and the tick costs the same for all of them, within the machine's noise.
    With `near_pairs` and the guessed pushes, timing ticks in turns against 0.2 (300 ticks):
    0.45 is 1.02x as fast, within the noise, 1.0 0.90x, 0.1 and 0.05 within the noise. A crowd
    that stands still keeps them for good: 1,000 resting bodies tick 1.4x faster than finding
    them every tick. 0.2 keeps them for bodies slower than the benchmark's walk, at little cost."""

    push_candidate_rise_blocks: float = 1.0
    """[blocks] The same up and down (a step-up moves a body up to 0.6, a jump 1.25 over six
    ticks)."""

    gathered_spare_runs: int = 3
    """[1] `crowd_vector.Gathered` packs its copies of the block boxes when it holds this many
    times more than its rows use (fresh runs are appended; a lookup of every row, once a tick,
    packs them anyway)."""

    cache_cells_per_cell_used: int = 4
    """[1] `broad_phase.WorldCache` forgets the cells no body uses once it remembers more than
    this many times the cells in use (plus `cache_cells_always`): wandering bodies leave cells
    behind every tick, and forgetting them at once would mean asking the world for them again
    when a body turns back."""

    cache_cells_always: int = 4096
    """[cells] Cells `WorldCache` may always remember, however few are in use (a small crowd)."""

    max_fallback_pause_ticks: int = 64
    """[ticks] After a vectorised tick that had to finish one by one (a crammed crowd, whose push
    rounds cost more than stepping it; pushes reaching `Crowd.max_push_speed` are bounded on the
    vectorised path itself, `crowd_vector.bounded_in_order`), a crowd
    choosing its own path steps one by one for 1 tick, then 2, 4, ... up to this many after
    each further such tick, and tries the vectorised path again in between: such a tick costs
    the vectorised attempt and the one-by-one tick. Measured with bodies crammed into pits
    (`python -m bench crowd`, the pit rows): without the pause the chosen path cost 1.4x (300
    bodies) to 1.7x (5,000) the one-by-one path; a vectorised tick that finishes normally ends
    the pause."""

    finishes_before_pause: int = 1
    """[ticks] Vectorised ticks in a row (pauses between them not counting) that may finish one by
    one before `max_fallback_pause_ticks`' pauses start: a crowd whose rounds cost too much now and
    then finishes a single tick so and
    vectorises the next, where a pause would step that next tick whole one by one; a crammed pit,
    which finishes every tick, pays one more vectorised attempt before its pauses. Measured on
    `python -m bench creatures`' session (150 creatures, 100 of them crowding two players), when
    ticks whose pushes reached the bound still finished one by one (about one in ten), 200 whole
    session ticks timed in turns in one sitting: median 15.3 ms with 0 here, 14.2 ms with 1 (the
    one-by-one tick costs ~12 ms, a vectorised one ~2.5 ms)."""

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            where = f"CrowdSettings.{field.name}"
            if isinstance(field.default, int):
                if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                    raise TypeError(f"{where} must be an int, got {shown(value)}")
                value = int(value)
                if value < 0:
                    raise ValueError(f"{where} must be >= 0, got {shown(value)}")
            else:
                if isinstance(value, bool) or not isinstance(value, numbers.Real):
                    raise TypeError(f"{where} must be a float, got {shown(value)}")
                try:
                    value = float(value)
                except OverflowError:  # an int too large for a float
                    value = math.inf
                if not (math.isfinite(value) and value >= 0.0):
                    raise ValueError(f"{where} must be finite and >= 0, got {shown(value)}")
            object.__setattr__(self, field.name, value)  # plain int or float (3 -> 3.0, numpy ints -> int)


DEFAULT_TUNING = CrowdSettings()
"""The tuning a `Crowd` gets when not told."""
