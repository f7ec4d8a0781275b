"""Seeds derived from the world seed: every stream of random numbers the rules draw (a mob's brain,
natural spawns, sounds) is seeded by `derived_seed` of the world seed and what the stream is for.

Owns: `derived_seed`. Pure: the standard library only, so any rule module can use it without
importing another rule (mobs, sounds and the players' step sounds share it).
Does not own: the streams themselves (each rule keeps its own `random.Random`).
"""

from __future__ import annotations

import random


def derived_seed(*parts: object) -> int:
    """A 64-bit seed from `parts` (ints and strings), the same on every machine and run.

    `random.Random` seeded with a string hashes it with SHA-512 (unlike `hash()`, which Python
    salts per process for strings)."""
    return random.Random(" ".join(str(p) for p in parts)).getrandbits(64)
