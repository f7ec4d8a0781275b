"""Answers kept while the cells they read are unchanged: the test every rule's memo makes.

Owns: `unchanged_since` (whether no block of a cuboid of cells changed between two revisions of
a world, from its `revision` and `cells_changed_since`) and `BlockReads` (the block ids one viewer
read, each kept while its cell is unchanged).
Does not own: any answer (the mob brains', `game.rules.mob_brain`; health's block reads,
`game.rules.health.ExposureReader`), nor the world's record
of changed cells (`physics.world.CellJournal`, behind `GameWorld.cells_changed_since`).

A world's revision moves on with every block edit anywhere (100 players dig about one block a
tick), so a memo that compared revisions alone would hold for a tick at most: the cells changed
since are read instead. A memo that holds is brought up to the revision it was checked at, so the
next check reads only the cells changed since that one, however long the memo has been kept.
"""

from __future__ import annotations

BLOCK_READS_KEPT = 64
"""[cells] `BlockReads` forgets everything when it holds more than this: a player reads ~5 cells a
tick around its eye, and walks into a few new ones every few ticks."""


def unchanged_since(world, then: int | None, now: int | None, x0: int, y0: int, z0: int, x1: int, y1: int,
                    z1: int) -> bool:
    """Whether no block of the cells x0..x1, y0..y1, z0..z1 (inclusive) changed between the world's
    revisions `then` and `now` (False when the world cannot say: no revision, or its
    `cells_changed_since` record does not reach back to `then`)."""
    if then is None or now is None:
        return False
    if then == now:
        return True
    changed = world.cells_changed_since(then)
    if changed is None:
        return False
    return not any(x0 <= x <= x1 and y0 <= y <= y1 and z0 <= z <= z1 for x, y, z in changed)


class BlockReads:
    """The block ids one viewer (a player) read from a world, each kept while its cell is unchanged:
    `fresh(world)` gives them as a dict, cell -> id, less the cells changed since the last call
    (all forgotten for another world, one that cannot say what changed, or more than `capacity`
    kept); the caller reads a missing cell from the world and puts it in."""

    def __init__(self, capacity: int = BLOCK_READS_KEPT) -> None:
        self._capacity = capacity
        self._world: object = None
        self._revision: int | None = None
        self._ids: dict[tuple[int, int, int], int] = {}

    def fresh(self, world) -> dict[tuple[int, int, int], int]:
        """The kept ids that are still `world`'s blocks (see the class docstring)."""
        revision, ids = world.revision, self._ids
        if world is not self._world or self._revision is None or revision is None or len(ids) > self._capacity:
            ids.clear()
            self._world = world
        elif revision != self._revision:
            changed = world.cells_changed_since(self._revision)
            if changed is None:
                ids.clear()
            else:
                for cell in changed:
                    ids.pop(cell, None)
        self._revision = revision
        return ids
