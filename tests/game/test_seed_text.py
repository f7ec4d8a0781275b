"""A seed typed as text (`--seed`, the New World dialog) means what it means in Minecraft Beta 1.7.3:
the number it is, else Java's `String.hashCode()` of it; blank is random. Every seed it gives is one
a world accepts."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.world.seed_text import java_string_hash, parse_long, random_seed, seed_from_text
from game.world.noise import MAX_SEED, MIN_SEED
from game.world.terrain import Terrain

INT_MIN, INT_MAX = -(2 ** 31), 2 ** 31 - 1
"""Java's int range: where every hashed seed lies."""
JAVA_TRIMMED = "".join(map(chr, range(0x21)))
"""U+0000..U+0020: what Java's String.trim() removes."""


@pytest.mark.parametrize("text, seed", [
    ("hello", 99162322),                    # Java: "hello".hashCode()
    ("abc", 96354),
    ("Aa", 2112), ("BB", 2112),             # Java's well-known colliding pair
    ("polygenelubricants", -(2 ** 31)),      # wraps to Integer.MIN_VALUE
    ("\U0001F600", 1772899),                 # one character beyond U+FFFF: the two units D83D DE00
    ("\u00e9t\u00e9", 227742),               # accented letters: their UTF-16 units (U+00E9, 't', U+00E9)
    ("\udcff", 0xDCFF),                      # a lone surrogate (an undecodable argument byte): one unit
    ("-", 45), ("+", 43),                    # a sign alone is no number: hashed
    ("1.5", 48568), ("4 2", 51014), ("0x10", 1546855), ("1_000", 48130338),
    ("\u0664\u0662", 52350),                 # Arabic-Indic "42": only ASCII digits make a number here
])
def test_text_that_is_no_64_bit_number_is_its_java_string_hash(text, seed):
    assert seed_from_text(text) == seed


@pytest.mark.parametrize("text, seed", [
    ("42", 42), ("-7", -7), ("+7", 7), ("0", 0), ("-0", 0), ("007", 7),
    (str(MAX_SEED), MAX_SEED), (str(MIN_SEED), MIN_SEED),
    ("0" * 5000 + "9", 9),                   # leading zeros of any length, as Java's Long.parseLong reads them
    (" 42\t", 42), ("\n\r hello \x00", 99162322),  # U+0000..U+0020 around the text are ignored (Java's trim)
])
def test_a_whole_number_within_64_bits_is_that_seed(text, seed):
    assert seed_from_text(text) == seed


@pytest.mark.parametrize("text, seed", [(str(MAX_SEED + 1), -1773151197), (str(MIN_SEED - 1), 1304595159),
                                        ("9" * 5000, java_string_hash("9" * 5000))])
def test_a_number_beyond_64_bits_is_hashed_as_java_hashes_the_text_it_cannot_parse(text, seed):
    assert parse_long(text) is None
    assert seed_from_text(text) == seed


@pytest.mark.parametrize("text", ["", " ", "\t\n", "\x00 \x1f"])
def test_blank_text_is_a_random_seed_drawn_from_the_given_generator(text):
    assert seed_from_text(text, random.Random(5)) == random_seed(random.Random(5))
    assert 0 <= seed_from_text(text) <= MAX_SEED


def test_a_non_breaking_space_is_text_not_blank():
    assert seed_from_text("\u00a0") == 0xA0


@pytest.mark.parametrize("text", [None, 42, b"hello", ["hello"]])
def test_a_seed_text_that_is_not_a_str_is_a_type_error(text):
    with pytest.raises(TypeError, match="a seed's text is a str"):
        seed_from_text(text)


def java_hash_reference(text: str) -> int:
    """The definition, written out: s[0]*31^(n-1) + ... + s[n-1] over UTF-16 units, as a signed 32-bit int."""
    data = text.encode("utf-16-be", "surrogatepass")
    units = [int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2)]
    total = sum(unit * 31 ** (len(units) - 1 - i) for i, unit in enumerate(units)) % 2 ** 32
    return total - 2 ** 32 if total >= 2 ** 31 else total


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=60), st.from_regex(r"\A[ +-]?[0-9]{0,25}\Z")))
def test_any_text_gives_one_seed_in_the_worlds_range_every_time(text):
    seed = seed_from_text(text, random.Random(0))
    assert seed == seed_from_text(text, random.Random(0))
    assert MIN_SEED <= seed <= MAX_SEED
    assert Terrain(seed).seed == seed  # a seed the world accepts
    trimmed = text.strip(JAVA_TRIMMED)
    if trimmed and parse_long(trimmed) is None:
        assert seed == java_hash_reference(trimmed) and INT_MIN <= seed <= INT_MAX


@settings(max_examples=300, deadline=None)
@given(st.integers(MIN_SEED, MAX_SEED), st.sampled_from(["", "+"]), st.sampled_from(["", "0", "000"]))
def test_every_64_bit_number_written_out_is_itself(number, plus, zeros):
    sign = "-" if number < 0 else plus
    assert seed_from_text(sign + zeros + str(abs(number))) == number


@pytest.mark.parametrize("seed", [MIN_SEED, MAX_SEED, INT_MIN, INT_MAX, 0])
def test_the_extremes_seed_from_text_can_give_are_seeds_the_world_accepts(tmp_path, seed):
    from game.world import World

    assert seed_from_text(str(seed)) == seed
    with World.create(tmp_path / "w.boxel", seed, workers=1) as world:
        assert world.seed == seed
    with World.open(tmp_path / "w.boxel", workers=1) as world:
        assert world.seed == seed
