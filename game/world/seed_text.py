"""What a seed typed as text means: `seed_from_text`, shared by `--seed` and the New World dialog.

Owns: turning any text into a world seed the way Minecraft Beta 1.7.3's "Create New World" screen
does, so a seed shared between players (a number, or a word such as "hello") makes the same world
on every machine: text that is a whole number within 64 bits is that number; any other text is
Java's `String.hashCode()` of it (a 32-bit int, computed over the text's UTF-16 code units, so a
character beyond the Basic Multilingual Plane counts as its two surrogates); blank text is a
random seed. Pure: the standard library only.

Where Boxel differs from Beta, on purpose:
- Characters U+0000..U+0020 (spaces, tabs, control characters) around the text are ignored, as
  Java's `String.trim()` ignores them: " 42 " is 42 and " hello" is "hello". Beta would hash the
  spaces.
- A number is a "+" or "-" and ASCII digits 0-9 only. Java's `Long.parseLong` also reads other
  scripts' decimal digits, a set that has grown with each Unicode version; here such text is
  hashed, so one text gives one seed with any Python.
- "0" is the seed 0. Beta draws a random seed for it.
Does not own: the range a world accepts (`game.world.noise.MIN_SEED`..`MAX_SEED`, a signed 64-bit
int: every value `seed_from_text` returns is in it), or what happens when a seed does not match an
existing world (`game.frontends.cli.open_world`).
"""

from __future__ import annotations

import random
import struct

from .noise import MAX_SEED, MIN_SEED

TRIMMED_CHARACTERS = "".join(chr(code) for code in range(0x21))
"""What is ignored around a seed's text: U+0000..U+0020, the characters Java's `String.trim()` removes."""
ASCII_DIGITS = frozenset("0123456789")
"""The digits of a numeric seed: ASCII only, so a text's meaning never depends on a Unicode version."""
INT_BITS = 32
"""[bits] Java's `int`: `String.hashCode()` wraps around at this width."""
HASH_MULTIPLIER = 31
"""Java's `String.hashCode()`: s[0]*31^(n-1) + s[1]*31^(n-2) + ... + s[n-1], in 32-bit arithmetic."""


def seed_from_text(text: str, rng: random.Random | None = None) -> int:
    """The world seed the text `text` stands for, in MIN_SEED..MAX_SEED (a signed 64-bit int):
    the number it is (within 64 bits), else Java's `String.hashCode()` of it; blank text (empty or
    only characters U+0000..U+0020) is a random seed from `rng` (default: the `random` module).
    Surrounding characters U+0000..U+0020 are ignored. TypeError when `text` is not a str."""
    if not isinstance(text, str):
        raise TypeError(f"a seed's text is a str, got {type(text).__name__}")
    if is_blank(text):
        return random_seed(rng)
    text = text.strip(TRIMMED_CHARACTERS)
    number = parse_long(text)
    return java_string_hash(text) if number is None else number


def is_blank(text: str) -> bool:
    """Whether the seed text `text` asks for a random seed: it holds only characters U+0000..U+0020."""
    return not text.strip(TRIMMED_CHARACTERS)


def random_seed(rng: random.Random | None = None) -> int:
    """A seed for a world whose seed was not chosen: 0..MAX_SEED, as Boxel has always drawn them."""
    return (rng or random).randint(0, MAX_SEED)


def parse_long(text: str) -> int | None:
    """`text` as Java's `Long.parseLong` reads it (a "+" or "-" sign, then digits, within a signed
    64-bit int), with ASCII digits only; None when it is not such a number (Java's
    NumberFormatException). Reads any length of text without converting it whole."""
    sign, digits = (-1, text[1:]) if text[:1] == "-" else (1, text[1:]) if text[:1] == "+" else (1, text)
    if not digits or not ASCII_DIGITS.issuperset(digits):
        return None
    significant = digits.lstrip("0") or "0"
    if len(significant) > len(str(MAX_SEED)):  # more digits than any 64-bit int has
        return None
    value = sign * int(significant)
    return value if MIN_SEED <= value <= MAX_SEED else None


def java_string_hash(text: str) -> int:
    """Java's `String.hashCode()` of `text`: over its UTF-16 code units (a character beyond U+FFFF
    is two), wrapping as a signed 32-bit int. A lone surrogate (from a file name or argument that
    was not valid UTF-8) counts as the one unit it is, as in a Java string."""
    units = text.encode("utf-16-be", "surrogatepass")
    modulus = 1 << INT_BITS
    value = 0
    for (unit,) in struct.iter_unpack(">H", units):
        value = (value * HASH_MULTIPLIER + unit) % modulus
    return value - modulus if value >= modulus >> 1 else value
