"""Java's `java.util.Random`, for the rules that draw Beta's random numbers bit for bit.

Owns: `JavaRandom` (the 48-bit linear congruential generator of `java.util.Random`: `setSeed`'s
scramble, `next(bits)`, `nextInt(bound)`, `nextFloat`, `nextDouble`, `nextGaussian`) and `next_float` /
`next_double`, which draw Java's float and double from a `JavaRandom` or, the same way, from any
`random.Random` (24 and 53 random bits).
Does not own: which rule draws what (each caller says which of Beta's draws it makes), Java's
`StrictMath.log` (`game.world.strict_math`). Pure: the standard library only.

A `JavaRandom`'s whole state is one int below 2**48 (`state`), so an entity that keeps its own
generator (Beta's `Entity.rand`) saves it as one number and reloads it exactly. `nextGaussian`
keeps the second value of each pair it makes (`next_next_gaussian`) besides: a generator that has
drawn an odd number of Gaussians saves that value too, or its next Gaussian differs.
"""

from __future__ import annotations

import math
import random

from .strict_math import strict_log

MULTIPLIER = 0x5DEECE66D
"""Java's LCG multiplier (`java.util.Random.multiplier`)."""
ADDEND = 0xB
"""Java's LCG increment."""
MASK = (1 << 48) - 1
"""The generator keeps 48 bits."""
FLOAT_UNIT = float(1 << 24)
"""`nextFloat` is next(24) / 2**24."""
DOUBLE_UNIT = float(1 << 53)
"""`nextDouble` is (next(26) << 27 | next(27)) / 2**53."""


class JavaRandom:
    """`java.util.Random(seed)`: the same numbers Java draws for the same seed and calls."""

    __slots__ = ("state", "next_next_gaussian")

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"a Java random seed is an int, got {seed!r}")
        self.state = (seed ^ MULTIPLIER) & MASK
        """The 48-bit state (`JavaRandom.from_state` makes a generator that goes on from it)."""
        self.next_next_gaussian: float | None = None
        """The second Gaussian of the last pair `next_gaussian` made, not yet drawn (Java's
        `nextNextGaussian` while `haveNextNextGaussian`); None when there is none."""

    @classmethod
    def from_state(cls, state: int) -> JavaRandom:
        """A generator whose 48-bit state is `state` (as saved from `.state`); ValueError otherwise."""
        if isinstance(state, bool) or not isinstance(state, int) or not 0 <= state <= MASK:
            raise ValueError(f"a Java random state is an int in 0..2**48 - 1, got {state!r}")
        generator = object.__new__(cls)
        generator.state = state
        generator.next_next_gaussian = None
        return generator

    def next(self, bits: int) -> int:
        """Java's `next(bits)`: the top `bits` (1..32) of the new state, as a signed 32-bit int."""
        self.state = (self.state * MULTIPLIER + ADDEND) & MASK
        value = self.state >> (48 - bits)
        return value - (1 << bits) if bits == 32 and value >= 1 << 31 else value

    def next_int(self, bound: int) -> int:
        """Java's `nextInt(bound)` (bound > 0): uniform in 0..bound - 1."""
        if bound.__class__ is int and bound > 0:  # `next(31)` inlined: brains draw hundreds a tick
            if bound & -bound == bound:  # a power of two
                self.state = state = (self.state * MULTIPLIER + ADDEND) & MASK
                return (bound * (state >> 17)) >> 31
            while True:
                self.state = state = (self.state * MULTIPLIER + ADDEND) & MASK
                bits = state >> 17
                value = bits % bound
                if bits - value + (bound - 1) < 1 << 31:
                    return value
        if isinstance(bound, bool) or not isinstance(bound, int) or bound <= 0:
            raise ValueError(f"nextInt's bound is a positive int, got {bound!r}")
        if bound & -bound == bound:  # a power of two
            return (bound * self.next(31)) >> 31
        while True:
            bits = self.next(31)
            value = bits % bound
            if bits - value + (bound - 1) < 1 << 31:
                return value

    def next_float(self) -> float:
        """Java's `nextFloat`: next(24) / 2**24 (a float32 value in [0, 1))."""
        return self.next(24) / FLOAT_UNIT

    def next_double(self) -> float:
        """Java's `nextDouble` (and `Math.random`'s): 53 bits in [0, 1)."""
        return ((self.next(26) << 27) + self.next(27)) / DOUBLE_UNIT

    def next_gaussian(self) -> float:
        """Java's `nextGaussian`: Marsaglia's polar method on two `nextDouble`s, which makes two
        values; the second is kept (`next_next_gaussian`) and returned by the next call. The logarithm
        is Java's `StrictMath.log` (`strict_log`, fdlibm's), so the values are Java's to the last bit."""
        kept = self.next_next_gaussian
        if kept is not None:
            self.next_next_gaussian = None
            return kept
        while True:
            v1 = 2.0 * self.next_double() - 1.0
            v2 = 2.0 * self.next_double() - 1.0
            s = v1 * v1 + v2 * v2
            if 0.0 < s < 1.0:
                break
        multiplier = math.sqrt(-2.0 * strict_log(s) / s)
        self.next_next_gaussian = v2 * multiplier
        return v1 * multiplier

    def getrandbits(self, bits: int) -> int:
        """`next(bits)` for 1..32 bits as a non-negative int (so `next_float` treats it as a `random.Random`)."""
        return self.next(bits) & ((1 << bits) - 1)


def next_float(rng: JavaRandom | random.Random) -> float:
    """Java's `nextFloat` from `rng`: a JavaRandom's own, or 24 random bits of a `random.Random`
    the same way (a float32 value in [0, 1))."""
    if isinstance(rng, JavaRandom):
        return rng.next_float()
    return rng.getrandbits(24) / FLOAT_UNIT


def next_double(rng: JavaRandom | random.Random) -> float:
    """Java's `nextDouble` / `Math.random()` from `rng`: a JavaRandom's own, or `random.Random.random()`
    (53 random bits too)."""
    if isinstance(rng, JavaRandom):
        return rng.next_double()
    return rng.random()


def require_rng(rng: object, what: str = "rng") -> None:
    """TypeError unless `rng` is a `JavaRandom` or a `random.Random`."""
    if not isinstance(rng, (JavaRandom, random.Random)):
        raise TypeError(f"{what} must be a game.rules.java_random.JavaRandom or a random.Random, got {rng!r}")
