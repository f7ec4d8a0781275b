"""Boxel's blocks as a Classic client sees them: the mapping table, per client capability.

Owns: `CLASSIC_BLOCKS` (for every Boxel block: the Classic 0.30c id a plain client gets, the id a
CustomBlocks level-1 client gets, and, for blocks with no Classic id of their own, the
BlockDefinitions block that shows them as themselves), `DEFINED_IDS` (Boxel name -> its defined
id, 66 up), and `BlockMap` (one client's view: Boxel id -> its id, as a numpy lookup for whole
levels; its id -> the Boxel block it places; the DefineBlock packets it is sent).
docs/PROTOCOL.md, "Classic protocol", prints the table.
Does not own: Boxel's block registry (`game.world.blocks`) or the wire (`packets`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...world.blocks import COUNT, NAMES, block_id
from .packets import DefineBlock

CUSTOM_BLOCKS_LEVEL = 1
"""CPE CustomBlocks: level 1 adds Classic ids 50..65."""
FIRST_DEFINED_ID = 66
"""BlockDefinitions ids Boxel uses start after CustomBlocks' last (65)."""
PLAIN_IDS = 50
"""A plain Classic client knows ids 0..49."""
CUSTOM_IDS = 66
"""A CustomBlocks level-1 client knows ids 0..65."""

# DefineBlock's fields, named.
WALK_THROUGH, SWIM_THROUGH, SOLID = 0, 1, 2
NORMAL_SPEED = 128
OPAQUE, TRANSPARENT, TRANSPARENT_UNCULLED, TRANSLUCENT = 0, 1, 2, 3
SPRITE = 0
"""DefineBlock shape 0: two crossed planes (flowers, torches)."""
FULL = 16
"""DefineBlock shape 16: a whole block tall."""
SOUND_NONE, SOUND_WOOD, SOUND_GRAVEL, SOUND_GRASS, SOUND_STONE, SOUND_METAL, SOUND_GLASS, SOUND_CLOTH, \
    SOUND_SAND = range(9)


@dataclass(frozen=True)
class Definition:
    """How a BlockDefinitions client draws a block Classic lacks: textures from the default
    terrain.png (top, side, bottom), its height in sixteenths (SPRITE: crossed planes), what
    walking into it does, how it is drawn."""

    top: int
    side: int
    bottom: int
    shape: int = FULL
    solidity: int = SOLID
    draw: int = OPAQUE
    sound: int = SOUND_STONE
    light: bool = False


@dataclass(frozen=True)
class ClassicBlock:
    """One Boxel block for Classic clients: `plain` (0..49), `custom` (0..65, CustomBlocks), and
    `definition` when it has no Classic id and a BlockDefinitions client gets its own."""

    plain: int
    custom: int
    definition: Definition | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.plain < PLAIN_IDS or not 0 <= self.custom < CUSTOM_IDS:
            raise ValueError(f"a Classic block has plain id 0..{PLAIN_IDS - 1} and custom id 0..{CUSTOM_IDS - 1}, got {self}")


def _same(classic: int) -> ClassicBlock:
    return ClassicBlock(classic, classic)


_STAIRS = Definition(top=16, side=16, bottom=16, shape=8, sound=SOUND_STONE, draw=TRANSPARENT)
_LADDER = Definition(top=83, side=83, bottom=83, shape=SPRITE, solidity=WALK_THROUGH, draw=TRANSPARENT, sound=SOUND_WOOD)
_TORCH = Definition(top=80, side=80, bottom=80, shape=SPRITE, solidity=WALK_THROUGH, draw=TRANSPARENT,
                    sound=SOUND_WOOD, light=True)
_SIDES = ("north", "south", "east", "west")
_FURNACE = ClassicBlock(4, 4, Definition(top=62, side=44, bottom=62))
_LIT_FURNACE = ClassicBlock(4, 4, Definition(top=62, side=61, bottom=62, light=True))
_DOOR = {"lower": Definition(top=97, side=97, bottom=97, draw=TRANSPARENT, sound=SOUND_WOOD),
         "upper": Definition(top=81, side=81, bottom=81, draw=TRANSPARENT, sound=SOUND_WOOD)}
"""A shut door's half: a whole block to a Classic client (whose blocks have no thin shapes); an open one is air."""
_BED = Definition(top=134, side=150, bottom=5, shape=9, draw=TRANSPARENT, sound=SOUND_CLOTH)
_FLOWING_WATER = ClassicBlock(8, 8)
_FLOWING_LAVA = ClassicBlock(10, 10)

CLASSIC_BLOCKS: dict[str, ClassicBlock] = {
    "air": _same(0), "stone": _same(1), "cobblestone": _same(4), "dirt": _same(3), "grass": _same(2),
    "sand": _same(12), "gravel": _same(13), "bedrock": _same(7), "log": _same(17), "leaves": _same(18),
    "planks": _same(5), "glass": _same(20),
    "ice": ClassicBlock(20, 60),
    "stone_slab": _same(44),
    "fence": ClassicBlock(5, 5, Definition(top=4, side=4, bottom=4, shape=FULL, draw=TRANSPARENT, sound=SOUND_WOOD)),
    "stairs_north": ClassicBlock(44, 44, _STAIRS), "stairs_south": ClassicBlock(44, 44, _STAIRS),
    "stairs_east": ClassicBlock(44, 44, _STAIRS), "stairs_west": ClassicBlock(44, 44, _STAIRS),
    "brick": _same(45),
    "stone_slab_top": ClassicBlock(44, 44, Definition(top=6, side=5, bottom=6, shape=8, draw=TRANSPARENT)),
    "carpet": ClassicBlock(36, 36, Definition(top=64, side=64, bottom=64, shape=1, draw=TRANSPARENT, sound=SOUND_CLOTH)),
    "water": _same(9), "lava": _same(11),
    "ladder_north": ClassicBlock(6, 51, _LADDER), "ladder_south": ClassicBlock(6, 51, _LADDER),
    "ladder_east": ClassicBlock(6, 51, _LADDER), "ladder_west": ClassicBlock(6, 51, _LADDER),
    "cobweb": ClassicBlock(6, 6, Definition(top=11, side=11, bottom=11, shape=SPRITE, solidity=WALK_THROUGH,
                                            draw=TRANSPARENT, sound=SOUND_NONE)),
    "soul_sand": ClassicBlock(12, 12, Definition(top=104, side=104, bottom=104, shape=14, sound=SOUND_SAND)),
    "cactus": ClassicBlock(25, 25, Definition(top=69, side=70, bottom=71, draw=TRANSPARENT, sound=SOUND_CLOTH)),
    "obsidian": _same(49),
    "torch": ClassicBlock(39, 54, _TORCH),
    "dandelion": _same(37), "rose": _same(38),
    "tall_grass": ClassicBlock(6, 6, Definition(top=39, side=39, bottom=39, shape=SPRITE, solidity=WALK_THROUGH,
                                                draw=TRANSPARENT, sound=SOUND_GRASS)),
    **{f"water_{level}": _FLOWING_WATER for level in range(1, 16)},
    **{f"lava_{level}": _FLOWING_LAVA for level in range(1, 16)},
    "double_slab": _same(43),
    "coal_ore": _same(16), "iron_ore": _same(15), "gold_ore": _same(14),
    "redstone_ore": ClassicBlock(16, 16, Definition(top=51, side=51, bottom=51)),
    "diamond_ore": ClassicBlock(15, 15, Definition(top=50, side=50, bottom=50)),
    # Survival's blocks: the nearest Classic block, or drawn as themselves from terrain.png's tiles.
    "crafting_table": ClassicBlock(5, 64, Definition(top=43, side=59, bottom=4, sound=SOUND_WOOD)),
    **{f"furnace_{side}": _FURNACE for side in _SIDES},
    **{f"lit_furnace_{side}": _LIT_FURNACE for side in _SIDES},
    "chest": ClassicBlock(5, 64, Definition(top=25, side=26, bottom=25, shape=14, draw=TRANSPARENT, sound=SOUND_WOOD)),
    **{f"door_{half}_{side}_closed": ClassicBlock(5, 5, _DOOR[half]) for half in ("lower", "upper") for side in _SIDES},
    **{f"door_{half}_{side}_open": _same(0) for half in ("lower", "upper") for side in _SIDES},
    **{f"bed_{part}_{side}": ClassicBlock(44, 44, _BED) for part in ("foot", "head") for side in _SIDES},
    "sapling": _same(6), "sapling_ready": _same(6),
    **{f"wall_torch_{side}": ClassicBlock(39, 54, _TORCH) for side in _SIDES},
    "iron_block": _same(42), "gold_block": _same(41),
    "diamond_block": ClassicBlock(42, 42, Definition(top=24, side=24, bottom=24, sound=SOUND_METAL)),
    "wool": _same(36),
    "clay": ClassicBlock(13, 13, Definition(top=72, side=72, bottom=72, sound=SOUND_GRAVEL)),
    "sandstone": ClassicBlock(12, 52),
    "brown_mushroom": _same(39), "red_mushroom": _same(40),
}
"""Every Boxel block's Classic ids (the nearest Classic block by look and by collision)."""

DEFINED_IDS: dict[str, int] = {name: FIRST_DEFINED_ID + index for index, name in
                               enumerate(name for name in NAMES if CLASSIC_BLOCKS[name].definition is not None)}
"""The id a BlockDefinitions client knows each defined block by (in Boxel's id order)."""

PREFERRED_PLACED = {8: "water", 10: "lava", 44: "stone_slab", 5: "planks", 6: "sapling", 20: "glass", 12: "sand",
                    16: "coal_ore", 15: "iron_ore", 51: "ladder_north", 54: "torch", 60: "ice", 25: None, 36: "wool",
                    39: "brown_mushroom", 0: None, 4: "cobblestone", 13: "gravel", 42: "iron_block", 64: None}
"""A Classic id several Boxel blocks share places this one (None: places nothing, the client is
told the real block back)."""


@dataclass(frozen=True)
class Capabilities:
    """What a client negotiated that changes its block ids."""

    custom_blocks: bool = False
    block_definitions: bool = False


class BlockMap:
    """One client's block ids (see the module docstring)."""

    def __init__(self, capabilities: Capabilities = Capabilities()) -> None:
        self.capabilities = capabilities
        lookup = np.zeros(COUNT, dtype=np.uint8)
        for name in NAMES:
            lookup[block_id(name)] = self._id_of(name)
        lookup.setflags(write=False)
        self.lookup = lookup
        """Boxel id -> this client's id (index a whole level with it)."""
        placed: dict[int, str | None] = {}
        for name in NAMES:
            placed.setdefault(int(lookup[block_id(name)]), name)
        for classic, name in PREFERRED_PLACED.items():
            if classic in placed:
                placed[classic] = name
        self._placed = placed

    def _id_of(self, name: str) -> int:
        block = CLASSIC_BLOCKS[name]
        if self.capabilities.block_definitions and block.definition is not None:
            return DEFINED_IDS[name]
        return block.custom if self.capabilities.custom_blocks else block.plain

    def client_id(self, boxel_id: int) -> int:
        """The id this client shows Boxel block `boxel_id` as."""
        return int(self.lookup[boxel_id])

    def boxel_block(self, client_id: int) -> str | None:
        """The Boxel block this client places with id `client_id`; None when it names none."""
        return self._placed.get(client_id)

    def definitions(self) -> list[DefineBlock]:
        """The DefineBlock packets a BlockDefinitions client is sent before the level."""
        if not self.capabilities.block_definitions:
            return []
        return [define_block(DEFINED_IDS[name], name, CLASSIC_BLOCKS[name].definition) for name in DEFINED_IDS]


def define_block(block: int, name: str, d: Definition) -> DefineBlock:
    """`d` as the DefineBlock packet for id `block`."""
    return DefineBlock(block, name.replace("_", " ").title(), d.solidity, NORMAL_SPEED, d.top, d.side, d.bottom,
                       int(d.draw != OPAQUE), d.sound, int(d.light), d.shape, d.draw, 0, 0, 0, 0)
