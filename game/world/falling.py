"""Sand and gravel with nothing under them: Beta 1.7.3's `BlockSand` rule. numpy only.

Owns: which blocks fall (`FALLS`), what they may fall through (`falls_into`, `FALLS_INTO`), their
update delay, and what one scheduled update does: a block with room below is handed to the game as
a falling block (`FallingStart`). The block stays in the world until the falling body's first tick
takes it (Beta's `EntityFallingSand` removes it then), so the world alone never loses a block.
Does not own: moving the falling body or landing it (`game.rules.falling_blocks`), or the queue.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from physics.materials import Material

from .blocks import AIR, COUNT, MATERIAL, block_id

FALL_TICKS = 3
"""[ticks] Delay of a sand or gravel update (Beta's `BlockSand.tickRate`)."""
FALLS = np.zeros(COUNT, dtype=bool)
FALLS[[block_id("sand"), block_id("gravel")]] = True
FALLS.flags.writeable = False
"""Blocks that fall when nothing holds them up."""


@dataclass(frozen=True)
class FallingStart:
    """A block that starts to fall: the game makes a body of it at the block's cell."""

    cell: tuple[int, int, int]
    block: int


FALLS_INTO = (np.arange(COUNT) == AIR) | np.isin(MATERIAL, [Material.WATER, Material.LAVA])
FALLS_INTO.flags.writeable = False
"""Blocks a falling block falls through (Beta's `canFallBelow`: air, water or lava; fire, which
Boxel lacks, too)."""


def falls_into(block: int) -> bool:
    """Beta's `canFallBelow`: air, water or lava (fire, which Boxel lacks, too)."""
    return bool(FALLS_INTO[block])
