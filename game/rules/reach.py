"""How far a player may act on a block: Minecraft Beta's server-side reach checks.

Owns: DIG_REACH_BLOCKS and PLACE_REACH_BLOCKS, and `within_reach` (is a cell's centre within a
reach of the eye). The session refuses a click or a finished dig beyond them (`game.rules.session`).
A player in the window never meets them: the look ray finds blocks only within
`targeting.REACH_BLOCKS` (5) of the eye, and a block the ray hits within 5 has its centre within
5 + sqrt(3) / 2 (about 5.87). They are what a server holds a client to, whatever it claims.
Pure: no world, no Ursina. Does not own the look ray (`game.rules.targeting`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

DIG_REACH_BLOCKS = 6.0
"""[blocks] Beta's server refuses digging a block whose centre is farther than this from the player."""
PLACE_REACH_BLOCKS = 8.0
"""[blocks] Beta's server refuses placing against a block farther than this (placing reaches farther)."""


def within_reach(eye: Sequence[float], cell: Sequence[int], reach: float) -> bool:
    """Is the centre of block `cell` (x, y, z) within `reach` [blocks] of `eye` [blocks] (the
    boundary counts as within)? TypeError or ValueError for values that are not finite numbers."""
    if len(eye) != 3 or len(cell) != 3:
        raise ValueError(f"an eye and a cell have 3 coordinates, got {eye!r} and {cell!r}")
    if isinstance(reach, bool) or not isinstance(reach, (int, float)) or not math.isfinite(reach) or reach < 0:
        raise ValueError(f"a reach is a finite number >= 0, got {reach!r}")
    deltas = [float(e) - (int(c) + 0.5) for e, c in zip(eye, cell)]
    if not all(map(math.isfinite, deltas)):
        raise ValueError(f"the eye must be finite, got {eye!r}")
    return sum(d * d for d in deltas) <= reach * reach
