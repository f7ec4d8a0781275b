"""Hypothesis strategies for hostile input shared by the game's tests: any JSON value (NaN,
infinities and huge numbers included), and saved player states damaged field by field."""

from __future__ import annotations

from hypothesis import strategies as st

from game.rules.hotbar import Hotbar
from game.rules.lab_session import lab_session

ANY_FLOAT = st.floats(allow_nan=True, allow_infinity=True)
"""Every float, NaN and the infinities included (Python's JSON reader gives them for NaN, Infinity, 1e400)."""


def json_values(max_leaves: int = 10):
    """Any value Python's JSON reader can give, nested a few levels."""
    scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), ANY_FLOAT, st.text(max_size=8))
    return st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=7),
                                                         st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                        max_leaves=max_leaves)


def junk_player_states():
    """Saved players damaged field by field (the other fields kept, so the checks of every field are
    reached): fields replaced by any JSON value or by lists of floats, fields dropped, an extra
    field; or any JSON value outright."""
    valid = lab_session().player.to_state(Hotbar())
    damaged = st.dictionaries(st.sampled_from(sorted(valid) + ["extra"]),
                              st.one_of(json_values(), st.lists(ANY_FLOAT, min_size=3, max_size=6)), max_size=3)
    dropped = st.sets(st.sampled_from(sorted(valid)), max_size=2)
    mixed = st.tuples(damaged, dropped).map(
        lambda changes: {k: v for k, v in {**valid, **changes[0]}.items() if k not in changes[1]})
    return st.one_of(mixed, json_values())
