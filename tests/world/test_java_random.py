"""`game.rules.java_random`: Java's `java.util.Random`, the numbers Java draws for the same seed."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.world.java_random import JavaRandom, next_double, next_float
from game.world.strict_math import strict_log


def test_a_seeded_generator_draws_javas_numbers():
    # Values printed by Java 8: new Random(seed).nextInt() / nextFloat() / nextDouble() / nextInt(bound).
    assert JavaRandom(42).next(32) == -1170105035
    assert JavaRandom(0).next(32) == -1155484576
    assert JavaRandom(42).next_float() == 0.7275636792182922
    assert JavaRandom(0).next_double() == 0.730967787376657
    assert JavaRandom(42).next_int(10) == 0


def test_a_saved_state_goes_on_with_the_same_numbers():
    generator = JavaRandom(1234)
    generator.next_float()
    again = JavaRandom.from_state(generator.state)
    assert [again.next_double() for _ in range(5)] == [generator.next_double() for _ in range(5)]


def test_a_python_random_gives_floats_of_24_bits_and_doubles_of_53():
    rng = random.Random(3)
    value = next_float(rng)
    assert 0.0 <= value < 1.0 and value * (1 << 24) == int(value * (1 << 24))
    assert 0.0 <= next_double(random.Random(3)) < 1.0


def test_bad_seeds_states_and_bounds_are_refused():
    with pytest.raises(TypeError):
        JavaRandom(1.5)
    with pytest.raises(ValueError):
        JavaRandom.from_state(1 << 48)
    with pytest.raises(ValueError):
        JavaRandom(1).next_int(0)


def test_gaussians_are_javas_to_the_last_bit_and_come_in_pairs():
    # Printed by Java 17: Double.toHexString(new Random(42).nextGaussian()), five times.
    generator = JavaRandom(42)
    assert [generator.next_gaussian() for _ in range(5)] == [float.fromhex(text) for text in (
        "0x1.2453e82115d86p0", "0x1.d6bca38120847p-1", "-0x1.e654eb7a040c2p-1", "-0x1.1b63b7251328p0",
        "0x1.1fb89a19b83afp-2")]
    pair = JavaRandom(7)
    first = pair.next_gaussian()
    assert pair.next_next_gaussian is not None
    state = pair.state
    second = pair.next_gaussian()
    assert pair.state == state and pair.next_next_gaussian is None and second != first


def test_a_restored_state_has_no_kept_gaussian():
    assert JavaRandom.from_state(JavaRandom(1).state).next_next_gaussian is None


def test_the_strict_logarithm_is_fdlibms_where_the_c_librarys_differs():
    # Printed by Java 17: Double.toHexString(StrictMath.log(x)); math.log rounds these the other way.
    assert strict_log(3.0) == float.fromhex("0x1.193ea7aad030ap0") != math.log(3.0)
    assert strict_log(float.fromhex("0x1.7606b3169ae5ap-1")) == float.fromhex("-0x1.4188ea8c19f1ep-2")
    assert strict_log(1.0) == 0.0 and strict_log(0.0) == float("-inf") and math.isnan(strict_log(-1.0))
    assert strict_log(5e-324) == pytest.approx(math.log(5e-324))


def _next_int_by_next(generator: JavaRandom, bound: int) -> int:
    """Java's `nextInt(bound)` written on `next(31)`, as Java writes it (the readable twin)."""
    if bound & -bound == bound:
        return (bound * generator.next(31)) >> 31
    while True:
        bits = generator.next(31)
        value = bits % bound
        if bits - value + (bound - 1) < 1 << 31:
            return value


@given(seed=st.integers(-(1 << 63), (1 << 63) - 1),
       bounds=st.lists(st.one_of(st.integers(1, 200), st.integers(1, (1 << 31) - 1),
                                 st.sampled_from([1 << 30, (1 << 30) + 1, 3 << 29])), min_size=1, max_size=30))
def test_next_int_draws_what_javas_next_int_on_next_31_draws(seed, bounds):
    fast, readable = JavaRandom(seed), JavaRandom(seed)
    assert [fast.next_int(bound) for bound in bounds] == [_next_int_by_next(readable, bound) for bound in bounds]
    assert fast.state == readable.state
