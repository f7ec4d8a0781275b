"""`game.rules.java_random`: Java's `java.util.Random`, the numbers Java draws for the same seed."""

from __future__ import annotations

import random

import pytest

from game.world.java_random import JavaRandom, next_double, next_float


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
