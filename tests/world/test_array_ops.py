"""`array_ops.distinct` is `np.unique` without its options."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from game.world.array_ops import distinct


@given(arrays(np.int64, st.tuples(st.integers(0, 40), st.integers(1, 3)), elements=st.integers(-2**62, 2**62)))
def test_distinct_gives_what_np_unique_gives_for_any_int_array(values):
    assert np.array_equal(distinct(values), np.unique(values))
    assert distinct(values).dtype == values.dtype
