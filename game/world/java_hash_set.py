"""The order Java iterates a `HashSet` of Beta's `ChunkPosition`s in, for rules that walk one (Beta's
explosion visits its destroyed cells so, and draws each one's drops in that order).

Owns: `chunk_position_hash` (Beta's `ChunkPosition.hashCode`, as Java's 32-bit int) and
`hash_set_order` (Java 6's `HashMap` iteration order for entries added in a given order). Does not
own: which rule keeps such a set. Numpy only.

Java 6's `HashMap` (the Java Beta 1.7.3 ran on; Java 8 changed all of this): a `new HashSet()` has 16
buckets and load factor 0.75. A key's bucket is its spread hash (h ^= h >>> 20 ^ h >>> 12; then
h ^ h >>> 7 ^ h >>> 4) & (buckets - 1). A new entry goes to the head of its bucket's chain; an insert
that finds the size already at the threshold (3/4 of the buckets) then doubles the table, moving each
old chain's entries from its head to the heads of their new chains, which reverses them. Iteration
runs the buckets in index order, each chain from its head. The readable twin, a bucket-by-bucket
simulation, is `tests/rules/explosion_reference.py`'s `JavaHashSet`.
"""

from __future__ import annotations

import numpy as np

FIRST_CAPACITY = 16
"""[buckets] A `new HashSet()`'s table."""
LOAD_FACTOR = 0.75
"""Java's default: the table doubles once it holds 3/4 of its buckets."""
X_FACTOR, Y_FACTOR = 8976890, 981131
"""Beta's `ChunkPosition.hashCode`: x * 8976890 + y * 981131 + z."""


def _java_int(values: np.ndarray) -> np.ndarray:
    """int64 values wrapped to Java's 32-bit int."""
    return ((values + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)


def chunk_position_hash(cells: np.ndarray) -> np.ndarray:
    """Beta's `ChunkPosition.hashCode` of each cell of `cells` ((n, 3) ints), as Java's int (int64 array)."""
    x, y, z = (cells[:, axis].astype(np.int64) for axis in range(3))
    return _java_int(x * X_FACTOR + y * Y_FACTOR + z)


def _doublings(count: int) -> tuple[list[int], int]:
    """The entry numbers (1-based) whose insert doubles the table, and the final bucket count."""
    capacity, threshold, doubling_inserts = FIRST_CAPACITY, int(FIRST_CAPACITY * LOAD_FACTOR), []
    while count > threshold:  # the insert of entry number threshold + 1 finds the size at the threshold
        doubling_inserts.append(threshold + 1)
        capacity *= 2
        threshold = int(capacity * LOAD_FACTOR)
    return doubling_inserts, capacity


def hash_set_order(cells: np.ndarray) -> np.ndarray:
    """The order a Java 6 `HashSet<ChunkPosition>` iterates `cells` ((n, 3) ints, distinct, in the order
    they were added), as indices into `cells`. Prepending and reversing on each doubling leave each final
    chain as: the entries added after an even number of doublings, newest first, then the others,
    oldest first; the whole chain reversed when the doublings were odd in number."""
    count = len(cells)
    h = (chunk_position_hash(cells) & 0xFFFFFFFF).astype(np.uint64)
    h ^= (h >> np.uint64(20)) ^ (h >> np.uint64(12))
    h ^= (h >> np.uint64(7)) ^ (h >> np.uint64(4))
    doubling_inserts, capacity = _doublings(count)
    number = np.arange(1, count + 1)
    before = np.searchsorted(np.array(doubling_inserts, dtype=np.int64), number, side="left")
    bucket = (h & np.uint64(capacity - 1)).astype(np.int64)
    later = before % 2 == 1  # added after an odd number of doublings: the chain's tail end
    within = np.where(later, number, -number)
    if len(doubling_inserts) % 2:
        later, within = ~later, -within
    return np.lexsort((within, later, bucket))
