"""Blast resistance: how much of an explosion's ray each block soaks up, Beta 1.7.3's numbers by block id.

Owns: `BLAST_RESISTANCE` (float32 by block id: Beta's `Block.getExplosionResistance`, which is
`blockResistance / 5F`) and the literals it is made from (`BETA_STRENGTH`: each block's `setHardness`
and `setResistance` in its `Block` constructor), with `blast_resistance(block)` for one id.
Does not own: the explosion (`game.rules.explosion`), hardness for digging (`blocks.HARDNESS`).
Numpy only.

Beta's rule, in float arithmetic: `blockResistance` starts at 0; `setHardness(h)` raises it to h * 5F
when it is lower; `setResistance(r)` sets it to r * 3F (every Beta block that calls both calls
setHardness first). Stone 1.5F then 10F gives 30, so 6; dirt 0.5F alone gives 2.5, so 0.5; bedrock
(`setBlockUnbreakable`, then 6000000F) 3,600,000; water 100F gives 100. Wooden stairs take their
model block's (planks: 3). Lava: Beta's still lava has 100F and its flowing lava 0F; Boxel's fluid
ids say a cell's level, not whether it is moving (a settled flow is Beta's still lava), so every
lava id takes still lava's 100. The carpet is not in Beta: its hardness alone (0.1F), as later
versions have it.
"""

from __future__ import annotations

from types import MappingProxyType

import numpy as np

from . import blocks

HARDNESS_TO_RESISTANCE = np.float32(5.0)
"""Beta's `setHardness(h)`: blockResistance is at least h * 5F."""
RESISTANCE_FACTOR = np.float32(3.0)
"""Beta's `setResistance(r)`: blockResistance = r * 3F."""
EXPLOSION_DIVISOR = np.float32(5.0)
"""Beta's `getExplosionResistance`: blockResistance / 5F."""

BETA_STRENGTH: MappingProxyType[str, tuple[float, float | None]] = MappingProxyType({
    "air": (0.0, None),
    "stone": (1.5, 10.0), "cobblestone": (2.0, 10.0), "dirt": (0.5, None), "grass": (0.6, None),
    "sand": (0.5, None), "gravel": (0.6, None), "bedrock": (-1.0, 6000000.0), "log": (2.0, None),
    "leaves": (0.2, None), "planks": (2.0, 5.0), "glass": (0.3, None), "ice": (0.5, None),
    "stone_slab": (2.0, 10.0), "stone_slab_top": (2.0, 10.0), "double_slab": (2.0, 10.0),
    "fence": (2.0, 5.0), "brick": (2.0, 10.0), "carpet": (0.1, None),
    "water": (100.0, None), "lava": (100.0, None),
    "cobweb": (4.0, None), "soul_sand": (0.5, None), "cactus": (0.4, None), "obsidian": (10.0, 2000.0),
    "torch": (0.0, None), "dandelion": (0.0, None), "rose": (0.0, None), "tall_grass": (0.0, None),
    "coal_ore": (3.0, 5.0), "iron_ore": (3.0, 5.0), "gold_ore": (3.0, 5.0), "redstone_ore": (3.0, 5.0),
    "diamond_ore": (3.0, 5.0),
    "crafting_table": (2.5, None), "chest": (2.5, None),
    "sapling": (0.0, None), "sapling_ready": (0.0, None), "brown_mushroom": (0.0, None), "red_mushroom": (0.0, None),
    "iron_block": (5.0, 10.0), "gold_block": (3.0, 10.0), "diamond_block": (5.0, 10.0),
    "wool": (0.8, None), "clay": (0.6, None), "sandstone": (0.8, None),
})
"""Each block's Beta `setHardness` and `setResistance` literals (None: no setResistance call), by name."""
_FAMILIES: tuple[tuple[str, tuple[float, float | None]], ...] = (
    ("stairs_", (2.0, 5.0)),  # BlockStairs(planks): planks' hardness, then planks' blockResistance / 3F
    ("water_", (100.0, None)), ("lava_", (100.0, None)),
    ("ladder_", (0.4, None)), ("furnace_", (3.5, None)), ("lit_furnace_", (3.5, None)),
    ("door_", (3.0, None)), ("bed_", (0.2, None)), ("wall_torch_", (0.0, None)),
)
"""Block families by name prefix (every facing, level or half alike)."""


def beta_strength(name: str) -> tuple[float, float | None]:
    """Beta's (setHardness, setResistance or None) for the block called `name`; KeyError for a block
    this table does not know (a test keeps every registry block known)."""
    if name in BETA_STRENGTH:
        return BETA_STRENGTH[name]
    for prefix, strength in _FAMILIES:
        if name.startswith(prefix):
            return strength
    raise KeyError(f"no Beta blast resistance for the block {name!r}")


def explosion_resistance(hardness: float, resistance: float | None) -> np.float32:
    """Beta's `getExplosionResistance` for a block built with `setHardness(hardness)` then (when not
    None) `setResistance(resistance)`, in float arithmetic."""
    block_resistance = np.float32(0.0)
    raised = np.float32(hardness) * HARDNESS_TO_RESISTANCE
    if block_resistance < raised:
        block_resistance = raised
    if resistance is not None:
        block_resistance = np.float32(resistance) * RESISTANCE_FACTOR
    return np.float32(block_resistance / EXPLOSION_DIVISOR)


BLAST_RESISTANCE = np.array([explosion_resistance(*beta_strength(name)) for name in blocks.NAMES], dtype=np.float32)
"""Beta's `getExplosionResistance` of every block, by id (air 0: an explosion's ray skips air)."""
BLAST_RESISTANCE.flags.writeable = False


def blast_resistance(block: int) -> float:
    """Block id `block`'s blast resistance (a float32 value); TypeError for a non-int, UnknownBlockError
    (a ValueError) for an id the registry lacks."""
    if isinstance(block, bool) or not isinstance(block, (int, np.integer)):
        raise TypeError(f"a block is a registry id (int), got {block!r}")
    blocks.block_name(int(block))
    return float(BLAST_RESISTANCE[int(block)])
