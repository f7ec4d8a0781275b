"""The block registry: every block's properties, one numpy array per property, indexed by id.

Owns: block ids and names, and what physics, the mesher and the game need to know about each
block (solid, opaque, drawn in the transparent pass, collision shape, drawn shape, physics
material, slipperiness, hardness, texture tile per face). Struct of arrays, so `SOLID[ids]` is one vectorised lookup.
Does not own: where tiles sit in the atlas image (see `atlas.py`) or how blocks are drawn.

Ids are stable (they are saved in worlds): append new blocks, never reorder. Air is id 0.
Names are lowercase with underscores.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

import numpy as np

from physics import shapes
from physics.aabb import AABB
from physics.materials import Material
from physics.shapes import Shape

# Face order used by every per-face table (tiles here, normals and shading in the mesher).
FACES = ("east", "west", "top", "bottom", "south", "north")
"""+X, -X, +Y, -Y, +Z, -Z."""
EAST, WEST, TOP, BOTTOM, SOUTH, NORTH = range(6)

TILE_NAMES = (
    "stone", "cobblestone", "dirt", "grass_top", "grass_side", "sand", "gravel", "bedrock",
    "log_side", "log_top", "leaves", "planks", "glass", "ice", "brick", "slab_top",
    "slab_side", "carpet", "water", "lava", "ladder", "cobweb", "soul_sand", "cactus_side",
    "cactus_top", "obsidian", "torch", "dandelion", "rose", "tall_grass",
    "coal_ore", "iron_ore", "gold_ore", "redstone_ore", "diamond_ore",
    # Survival's tiles, after the others, so every earlier tile keeps its place in the atlas.
    "crafting_table_top", "crafting_table_front", "crafting_table_side", "furnace_front", "furnace_front_lit",
    "furnace_side", "furnace_top", "chest_top", "chest_side", "chest_front", "door_lower", "door_upper",
    "bed_head_top", "bed_foot_top", "bed_side", "sapling", "wall_torch", "iron_block", "gold_block",
    "diamond_block", "wool", "clay", "sandstone_top", "sandstone_side", "sandstone_bottom", "brown_mushroom",
    "red_mushroom",
)
"""Every texture tile, in atlas order: tile i is the i-th tile of the atlas (see `atlas.py`)."""
_TILE = {name: i for i, name in enumerate(TILE_NAMES)}


class UnknownBlockError(ValueError):
    """A block name or id that the registry does not have."""


@dataclass(frozen=True)
class BlockSpec:
    name: str
    shape: Shape = shapes.FULL_CUBE
    """Collision shape (block-local boxes); EMPTY for blocks bodies pass through."""
    drawn: Shape | None = None
    """What the mesher draws, where it differs from `shape` (None: `shape`): water, lava and
    cobwebs collide with nothing but are drawn as cubes; soul sand is drawn as a whole cube."""
    material: Material = Material.SOLID
    """How the block moves bodies (`physics.Material`); AIR only for air."""
    opaque: bool = True
    """Hides the faces of neighbours that touch it (full, non-see-through cubes only)."""
    transparent: bool = False
    """Drawn apart from the opaque pass: see-through somewhere (`blended` says how)."""
    blended: bool = False
    """A transparent block whose texels are partly see-through (glass, ice, water, cobweb): drawn in
    the sorted, blended pass. A transparent block that is not blended is a cut-out (every texel fully
    clear or fully solid: leaves, ladders, plants), drawn in one alpha-tested pass with no sorting."""
    culls_same: bool = False
    """A see-through block that hides faces against the same block (glass); leaves do not."""
    slipperiness: float = 0.6
    hardness: float = 1.0
    """Beta 1.7.3's `blockHardness` (its Block constructors' `setHardness`): dug by hand in
    hardness x 1.5 s, or x 5 s for a block that needs a tool (`NEEDS_TOOL`); 0 breaks at once,
    -1 never (bedrock, and fluids, which no ray targets)."""
    fluid_level: int = -1
    """Water and lava: Beta's metadata (0 a source, 1-7 the distance flowed from one, 8-15
    falling: 8 + the level it fell from); -1 for every other block."""
    cross: bool = False
    """Drawn as two crossed quads through the cell (flowers, tall grass) instead of boxes."""
    selected: Shape | None = None
    """What the look ray hits, where it differs from `shape` (None: `shape`): Beta's selection
    boxes of torches, flowers, tall grass and cobwebs, which bodies pass through but a player
    still aims at, outlines and digs."""
    tiles: tuple[str, str, str, str, str, str] = ("stone",) * 6
    """Tile name per face, in FACES order."""


def _all(tile: str) -> tuple[str, ...]:
    return (tile,) * 6


def _column(side: str, top: str, bottom: str) -> tuple[str, ...]:
    return (side, side, top, bottom, side, side)


def _non_cube(name: str, shape: Shape, tiles: tuple[str, ...], hardness: float = 2.0) -> BlockSpec:
    return BlockSpec(name, shape=shape, opaque=False, hardness=hardness, tiles=tiles)


ORE_HARDNESS = 3.0
"""Seconds of digging an ore by hand, roughly: Beta's ores are 3.0, twice its stone."""
FLUID_LEVELS = 16
"""Beta's fluid metadata runs 0..15 (see `BlockSpec.fluid_level`)."""
TORCH_DRAWN: Shape = (AABB(7.0 / 16.0, 0.0, 7.0 / 16.0, 9.0 / 16.0, 10.0 / 16.0, 9.0 / 16.0),)
"""A torch is drawn as a post 2/16 wide and 10/16 tall standing in the middle of its cell (Beta's size)."""


def _centred_box(half_width: float, height: float) -> Shape:
    """Beta's `setBlockBounds(0.5F - f, 0.0F, 0.5F - f, 0.5F + f, height, 0.5F + f)` in its float
    arithmetic: the bounds are float sums, widened to double exactly as Beta's fields hold them."""
    low, high = float(np.float32(0.5) - np.float32(half_width)), float(np.float32(0.5) + np.float32(half_width))
    return (AABB(low, 0.0, low, high, float(np.float32(height)), high),)


TORCH_SELECTED: Shape = _centred_box(0.1, 0.6)
"""A standing torch's selection box (Beta's `BlockTorch`, metadata 5: f = 0.1F, 0.6F tall)."""
FLOWER_SELECTED: Shape = _centred_box(0.2, float(np.float32(0.2) * np.float32(3.0)))
"""A flower's selection box (Beta's `BlockFlower`: f = 0.2F, f * 3F tall)."""
TALL_GRASS_SELECTED: Shape = _centred_box(0.4, 0.8)
"""Tall grass's selection box (Beta's `BlockTallGrass`: f = 0.4F, 0.8F tall)."""


def _fluid(kind: str, level: int) -> BlockSpec:
    """Water or lava at Beta metadata `level`: the source keeps the plain name ("water"), flowing
    states are "water_1".."water_15". They collide with nothing and are drawn by the mesher's fluid
    pass (surface height by level)."""
    name = kind if level == 0 else f"{kind}_{level}"
    water = kind == "water"
    return BlockSpec(name, shape=shapes.EMPTY, drawn=shapes.FULL_CUBE,
                     material=Material.WATER if water else Material.LAVA, opaque=False, transparent=water,
                     blended=water,
                     culls_same=True, hardness=-1.0, fluid_level=level, tiles=_all(kind))


CACTUS_DRAWN: Shape = (AABB(1.0 / 16.0, 0.0, 1.0 / 16.0, 15.0 / 16.0, 1.0, 15.0 / 16.0),)
"""What a cactus is drawn as: its collision box's sides (inset 1/16) at the full height, so a
stack of cacti reads as one column (Beta draws it so too)."""

SIDES = ("north", "south", "east", "west")
"""The compass sides, in the order the facing families are listed (north -Z, south +Z, east +X, west -X)."""
OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}
_FACE_OF_SIDE = {"east": EAST, "west": WEST, "south": SOUTH, "north": NORTH}


def _fronted(front_side: str, front: str, side: str, top: str, bottom: str) -> tuple[str, ...]:
    """Tiles of a cube whose `front` tile is on face `front_side` and `side` on the other three sides."""
    tiles = [side, side, top, bottom, side, side]
    tiles[_FACE_OF_SIDE[front_side]] = front
    return tuple(tiles)


DOOR_HARDNESS = 3.0
"""Beta's wooden `BlockDoor` (`setHardness(3.0F)`)."""
DOOR_STATES = ("closed", "open")
_DOOR_BETA_DIRECTION = {"east": 0, "south": 1, "west": 2, "north": 3}
"""Beta's door direction (metadata & 3) by the way the placer faced (`ItemDoor`:
floor((yaw + 180) * 4 / 360 - 0.5) & 3)."""
_DOOR_ROTATION_SIDE = ("north", "east", "south", "west")
"""Beta's `setDoorRotation(i)` -> the side of the cell its 3/16 slab lies on (`physics.shapes.DOOR`)."""


def door_slab_side(facing: str, state: str) -> str:
    """The side of its cell a door's slab lies on (Beta's `getState`: closed (dir - 1) & 3, open dir):
    a shut door lies on the side its placer stood (away from where they faced), an open one swung a
    quarter round."""
    direction = _DOOR_BETA_DIRECTION[facing]
    return _DOOR_ROTATION_SIDE[(direction - 1) & 3 if state == "closed" else direction]


def _door(half: str, facing: str, state: str) -> BlockSpec:
    """One half of a wooden door placed by a player facing `facing`: Beta's `BlockDoor` states
    (lower/upper: metadata bit 8; facing: bits 0-1; open: bit 4)."""
    return _non_cube(f"door_{half}_{facing}_{state}", shapes.DOOR[door_slab_side(facing, state)],
                     _all(f"door_{half}"), hardness=DOOR_HARDNESS)


BED_HARDNESS = 0.2
"""Beta's `BlockBed` (`setHardness(0.2F)`)."""


def _bed(part: str, facing: str) -> BlockSpec:
    """The foot or head half of a bed whose head lies `facing` from its foot (Beta's `ItemBed`: the
    foot where the player clicked, the head one block further the way they look)."""
    return _non_cube(f"bed_{part}_{facing}", shapes.BED, _column("bed_side", f"bed_{part}_top", "planks"),
                     hardness=BED_HARDNESS)


def _wall_torch_boxes(wall: str, boxes: tuple[tuple[float, float, float, float], ...],
                      across: tuple[float, float]) -> Shape:
    """Boxes given as (out_low, out_high, y_low, y_high) measured out from the `wall` side of the cell,
    `across` along the wall: placed in the cell's coordinates."""
    placed = []
    for out_low, out_high, y_low, y_high in boxes:
        if wall in ("west", "north"):
            low, high = out_low, out_high
        else:
            low, high = 1.0 - out_high, 1.0 - out_low
        if wall in ("west", "east"):
            placed.append(AABB(low, y_low, across[0], high, y_high, across[1]))
        else:
            placed.append(AABB(across[0], y_low, low, across[1], y_high, high))
    return tuple(placed)


WALL_TORCH_LEAN: tuple[tuple[float, float, float, float], ...] = (
    (1.0 / 16.0, 3.0 / 16.0, 3.0 / 16.0, 6.0 / 16.0),
    (2.0 / 16.0, 4.0 / 16.0, 6.0 / 16.0, 9.0 / 16.0),
    (3.0 / 16.0, 5.0 / 16.0, 9.0 / 16.0, 13.0 / 16.0),
)
"""A wall torch is drawn as a 2/16-wide post leaning out from its wall: three steps (out from the wall,
low y, high y), its foot 3/16 up against the wall, its flame 5/16 out (Beta draws it tilted, foot
at 0.2 up the wall: the mesher draws boxes, so the lean is stepped)."""
_WALL_TORCH_HALF_WIDTH = np.float32(0.15)


def _wall_torch_selected(wall: str) -> Shape:
    """Beta's `BlockTorch` selection box for a torch on a wall (metadata 1-4: f = 0.15F, from the wall
    out to f * 2F, 0.2F..0.8F high), in Beta's float arithmetic."""
    f = _WALL_TORCH_HALF_WIDTH
    low, high = float(np.float32(0.5) - f), float(np.float32(0.5) + f)
    out = float(f * np.float32(2.0))
    return _wall_torch_boxes(wall, ((0.0, out, float(np.float32(0.2)), float(np.float32(0.8))),), (low, high))


def _wall_torch(wall: str) -> BlockSpec:
    """A torch on the side of the block on its cell's `wall` side (Beta's torch metadata: west 1, east 2,
    north 3, south 4): no collision, Beta's selection box, drawn leaning out of the wall."""
    return BlockSpec(f"wall_torch_{wall}", shape=shapes.EMPTY,
                     drawn=_wall_torch_boxes(wall, WALL_TORCH_LEAN, (7.0 / 16.0, 9.0 / 16.0)),
                     material=Material.AIR, opaque=False, hardness=0.0, tiles=_all("wall_torch"),
                     selected=_wall_torch_selected(wall))


SAPLING_SELECTED: Shape = _centred_box(0.4, float(np.float32(0.4) * np.float32(2.0)))
"""A sapling's selection box (Beta's `BlockSapling`: f = 0.4F, f * 2F tall)."""
MUSHROOM_SELECTED: Shape = _centred_box(0.2, float(np.float32(0.2) * np.float32(2.0)))
"""A mushroom's selection box (Beta's `BlockMushroom`: f = 0.2F, f * 2F tall)."""


def _plant(name: str, tile: str, selected: Shape) -> BlockSpec:
    return BlockSpec(name, shape=shapes.EMPTY, drawn=shapes.EMPTY, material=Material.AIR, opaque=False,
                     transparent=True, cross=True, hardness=0.0, tiles=_all(tile), selected=selected)


_SURVIVAL_SPECS = (
    BlockSpec("crafting_table", hardness=2.5,
              tiles=("crafting_table_side", "crafting_table_front", "crafting_table_top", "planks",
                     "crafting_table_side", "crafting_table_front")),
    *(BlockSpec(f"furnace_{side}", hardness=3.5,
                tiles=_fronted(side, "furnace_front", "furnace_side", "furnace_top", "furnace_top"))
      for side in SIDES),
    *(BlockSpec(f"lit_furnace_{side}", hardness=3.5,
                tiles=_fronted(side, "furnace_front_lit", "furnace_side", "furnace_top", "furnace_top"))
      for side in SIDES),
    BlockSpec("chest", hardness=2.5, tiles=_fronted("south", "chest_front", "chest_side", "chest_top", "chest_top")),
    *(_door(half, facing, state) for half in ("lower", "upper") for facing in SIDES for state in DOOR_STATES),
    *(_bed(part, facing) for part in ("foot", "head") for facing in SIDES),
    _plant("sapling", "sapling", SAPLING_SELECTED),
    *(_wall_torch(wall) for wall in SIDES),
    BlockSpec("iron_block", hardness=5.0, tiles=_all("iron_block")),
    BlockSpec("gold_block", hardness=3.0, tiles=_all("gold_block")),
    BlockSpec("diamond_block", hardness=5.0, tiles=_all("diamond_block")),
    BlockSpec("wool", hardness=0.8, tiles=_all("wool")),
    BlockSpec("clay", hardness=0.6, tiles=_all("clay")),
    BlockSpec("sandstone", hardness=0.8, tiles=_column("sandstone_side", "sandstone_top", "sandstone_bottom")),
    _plant("brown_mushroom", "brown_mushroom", MUSHROOM_SELECTED),
    _plant("red_mushroom", "red_mushroom", MUSHROOM_SELECTED),
    # A sapling that has had its first lucky random tick (Beta's sapling metadata bit 8): the next grows it.
    _plant("sapling_ready", "sapling", SAPLING_SELECTED),
)
"""Survival's blocks, after the ores in this order (ids are stable): the crafting table,
furnaces (front on the named side) and lit furnaces, the chest, wooden doors
(door_<lower|upper>_<the way the placer faced>_<closed|open>), beds (bed_<foot|head>_<the way the head
lies from the foot>), the sapling, wall torches (wall_torch_<the side of the cell its wall is on>),
the ore blocks, wool, clay, sandstone, the two mushrooms and the ready sapling. Hardness is Beta's
`setHardness` of each."""

_SPECS = (
    BlockSpec("air", shape=shapes.EMPTY, material=Material.AIR, opaque=False, hardness=0.0, tiles=_all("stone")),
    BlockSpec("stone", hardness=1.5, tiles=_all("stone")),
    BlockSpec("cobblestone", hardness=2.0, tiles=_all("cobblestone")),
    BlockSpec("dirt", hardness=0.5, tiles=_all("dirt")),
    BlockSpec("grass", hardness=0.6, tiles=_column("grass_side", "grass_top", "dirt")),
    BlockSpec("sand", hardness=0.5, tiles=_all("sand")),
    BlockSpec("gravel", hardness=0.6, tiles=_all("gravel")),
    BlockSpec("bedrock", hardness=-1.0, tiles=_all("bedrock")),
    BlockSpec("log", hardness=2.0, tiles=_column("log_side", "log_top", "log_top")),
    BlockSpec("leaves", opaque=False, transparent=True, hardness=0.2, tiles=_all("leaves")),
    BlockSpec("planks", hardness=2.0, tiles=_all("planks")),
    BlockSpec("glass", opaque=False, transparent=True, blended=True, culls_same=True, hardness=0.3,
              tiles=_all("glass")),
    BlockSpec("ice", opaque=False, transparent=True, blended=True, culls_same=True, slipperiness=0.98, hardness=0.5,
              tiles=_all("ice")),
    _non_cube("stone_slab", shapes.SLAB, _column("slab_side", "slab_top", "slab_top")),
    _non_cube("fence", shapes.FENCE, _all("planks")),
    _non_cube("stairs_north", shapes.STAIRS_NORTH, _all("planks")),
    _non_cube("stairs_south", shapes.STAIRS_SOUTH, _all("planks")),
    _non_cube("stairs_east", shapes.STAIRS_EAST, _all("planks")),
    _non_cube("stairs_west", shapes.STAIRS_WEST, _all("planks")),
    BlockSpec("brick", hardness=2.0, tiles=_all("brick")),
    _non_cube("stone_slab_top", shapes.TOP_SLAB, _column("slab_side", "slab_top", "slab_top")),
    _non_cube("carpet", shapes.CARPET, _all("carpet"), hardness=0.1),
    # Beta's media (physics.Material): fluids and cobwebs collide with nothing and are drawn as cubes.
    _fluid("water", 0),
    _fluid("lava", 0),
    *(BlockSpec(f"ladder_{facing}", shape=shapes.LADDER[facing], material=Material.LADDER, opaque=False,
                transparent=True, hardness=0.4, tiles=_all("ladder"))
      for facing in ("north", "south", "east", "west")),
    BlockSpec("cobweb", shape=shapes.EMPTY, drawn=shapes.FULL_CUBE, material=Material.WEB, opaque=False,
              transparent=True, blended=True, hardness=4.0, tiles=_all("cobweb"), selected=shapes.FULL_CUBE),
    BlockSpec("soul_sand", shape=shapes.SOUL_SAND, drawn=shapes.FULL_CUBE, material=Material.SOUL_SAND,
              hardness=0.5, tiles=_all("soul_sand")),
    BlockSpec("cactus", shape=shapes.CACTUS, drawn=CACTUS_DRAWN, material=Material.CACTUS, opaque=False,
              culls_same=True, hardness=0.4, tiles=_column("cactus_side", "cactus_top", "cactus_top")),
    BlockSpec("obsidian", hardness=10.0, tiles=_all("obsidian")),
    BlockSpec("torch", shape=shapes.EMPTY, drawn=TORCH_DRAWN, material=Material.AIR, opaque=False,
              hardness=0.0, tiles=_all("torch"), selected=TORCH_SELECTED),
    *(BlockSpec(plant, shape=shapes.EMPTY, drawn=shapes.EMPTY, material=Material.AIR, opaque=False,
                transparent=True, cross=True, hardness=0.0, tiles=_all(plant), selected=selected)
      for plant, selected in (("dandelion", FLOWER_SELECTED), ("rose", FLOWER_SELECTED),
                              ("tall_grass", TALL_GRASS_SELECTED))),
    *(_fluid("water", level) for level in range(1, FLUID_LEVELS)),
    *(_fluid("lava", level) for level in range(1, FLUID_LEVELS)),
    # Two stone slabs in one cell (a slab placed on the free half of another): a whole cube.
    BlockSpec("double_slab", hardness=2.0, tiles=_column("slab_side", "slab_top", "slab_top")),
    # Ores, generated in the stone (`ores.py`): as hard as Beta's ores, twice stone.
    *(BlockSpec(f"{ore}_ore", hardness=ORE_HARDNESS, tiles=_all(f"{ore}_ore"))
      for ore in ("coal", "iron", "gold", "redstone", "diamond")),
    # Beta 1.7.3's blocks that act, and the blocks crafting makes (`_SURVIVAL_SPECS`).
    *_SURVIVAL_SPECS,
)

SPECS: tuple[BlockSpec, ...] = _SPECS
if any(s.material == Material.AIR and s.shape for s in SPECS):
    raise RuntimeError("a block made of Material.AIR (air, torches, plants) must have no collision shape")
COUNT = len(SPECS)
NAMES: tuple[str, ...] = tuple(s.name for s in SPECS)
_ID = {name: i for i, name in enumerate(NAMES)}
AIR = 0

SHAPES: tuple[Shape, ...] = tuple(s.shape for s in SPECS)
"""Collision shape (block-local boxes) by id."""
DRAWN_SHAPES: tuple[Shape, ...] = tuple(s.shape if s.drawn is None else s.drawn for s in SPECS)
"""The boxes the mesher draws by id (the collision shape unless the spec says otherwise)."""
SOLID = np.array([len(s.shape) > 0 for s in SPECS], dtype=bool)
"""Has a collision shape."""
SELECTION_SHAPES: tuple[Shape, ...] = tuple(s.shape if s.selected is None else s.selected for s in SPECS)
"""What the look ray hits by id (the collision shape unless the spec says otherwise)."""
SELECTABLE = np.array([len(shape) > 0 for shape in SELECTION_SHAPES], dtype=bool)
"""Has a selection shape: the look ray can hit it."""
FULL_CUBE = np.array([shape == shapes.FULL_CUBE for shape in DRAWN_SHAPES], dtype=bool)
"""Is drawn as the whole cell (with OPAQUE, hides its neighbours' faces)."""
MATERIAL = np.array([int(s.material) for s in SPECS], dtype=np.int8)
"""`physics.Material` value by id (`Material(MATERIAL[id])`): SOLID for ordinary blocks, AIR for air."""
OPAQUE = np.array([s.opaque for s in SPECS], dtype=bool)
TRANSPARENT = np.array([s.transparent for s in SPECS], dtype=bool)
BLENDED = np.array([s.blended for s in SPECS], dtype=bool)
CULLS_SAME = np.array([s.culls_same for s in SPECS], dtype=bool)
REPLACEABLE = np.array([s.name == "air" or s.fluid_level >= 0 for s in SPECS], dtype=bool)
"""Placing a block there replaces it: air, and water and lava at any level (Beta's
`canBlockBePlacedAt`; flowers, grass and torches are not replaced)."""
SLIPPERINESS = np.array([s.slipperiness for s in SPECS], dtype=np.float64)
HARDNESS = np.array([s.hardness for s in SPECS], dtype=np.float64)
"""Beta's `blockHardness` by id (see `BlockSpec.hardness`)."""
BREAKABLE = HARDNESS >= 0.0
_NEEDS_TOOL = {"stone", "cobblestone", "bedrock", "brick", "stone_slab", "stone_slab_top", "double_slab",
               "obsidian", "cobweb", *(f"{ore}_ore" for ore in ("coal", "iron", "gold", "redstone", "diamond")),
               *(f"{lit}furnace_{side}" for lit in ("", "lit_") for side in SIDES), "sandstone",
               "iron_block", "gold_block", "diamond_block"}
"""Beta's `Material.rock` and `Material.iron` blocks and the cobweb: their Material is not harvestable (`setNoHarvest`),
so the bare hand digs them at 1 / hardness / 100 a tick instead of 1 / hardness / 30."""
NEEDS_TOOL = np.array([s.name in _NEEDS_TOOL for s in SPECS], dtype=bool)
"""The bare hand cannot harvest the block (Beta's `canHarvestBlock` is false): it digs 10/3 times slower."""
FLUID_LEVEL = np.array([s.fluid_level for s in SPECS], dtype=np.int8)
"""Beta's fluid metadata by id (0..15) for water and lava, -1 for every other block."""
CROSS = np.array([s.cross for s in SPECS], dtype=bool)
"""Drawn as two crossed quads (flowers, tall grass)."""
FACE_TILES = np.array([[_TILE[t] for t in s.tiles] for s in SPECS], dtype=np.int32)
"""Atlas tile index by (id, face), faces in FACES order."""

_LIGHT_FILTERS = {"leaves": 1, "cobweb": 1, "ice": 3}
"""Beta 1.7.3's `setLightOpacity` for see-through blocks that dim light (water, all levels, is 3 too)."""
_LIGHT_SOURCES = {"torch": 14, "glowstone": 15, **{f"wall_torch_{side}": 14 for side in SIDES},
                  **{f"lit_furnace_{side}": 13 for side in SIDES}, "brown_mushroom": 1}
"""Beta 1.7.3's `setLightValue` * 15, as its int cast truncates (torch 0.9375: 14, lit furnace 0.875:
13, brown mushroom 0.125: 1, glowstone 1.0); lava, all levels, is 15 too."""


def _light_opacity(spec: BlockSpec) -> int:
    """How much light a block takes from what passes through it (0..15; 15 stops it). Opaque cubes
    and lava stop light (Beta 255); slabs, stairs and other partial blocks pass it (Beta gives its
    slabs and stairs 255 and draws them with their neighbours' light instead; Boxel keeps the light
    in their own cell, so a renderer reads every block's light from its cell)."""
    if spec.material == Material.WATER:
        return 3
    if spec.material == Material.LAVA:
        return 15
    return _LIGHT_FILTERS.get(spec.name, 15 if spec.opaque else 0)


LIGHT_OPACITY = np.array([_light_opacity(s) for s in SPECS], dtype=np.uint8)
"""Beta's `lightOpacity` by id, 0..15: light entering the block loses max(1, this); 15 never enters."""
LIGHT_EMISSION = np.array([15 if s.material == Material.LAVA else _LIGHT_SOURCES.get(s.name, 0) for s in SPECS],
                          dtype=np.uint8)
"""Beta's `lightValue` by id, 0..15: the block light a block gives off (torch 14, lava 15)."""

_FLUID_IDS = {(int(s.material), s.fluid_level): i for i, s in enumerate(SPECS) if s.fluid_level >= 0}
WATER_IDS = np.array([_FLUID_IDS[(int(Material.WATER), level)] for level in range(FLUID_LEVELS)], dtype=np.int32)
"""The id of water at each level 0..15 (WATER_IDS[0] is the source, "water")."""
LAVA_IDS = np.array([_FLUID_IDS[(int(Material.LAVA), level)] for level in range(FLUID_LEVELS)], dtype=np.int32)
"""The id of lava at each level 0..15 (LAVA_IDS[0] is the source, "lava")."""

for _array in (SOLID, FULL_CUBE, MATERIAL, REPLACEABLE, OPAQUE, TRANSPARENT, BLENDED, CULLS_SAME, SLIPPERINESS,
               HARDNESS, BREAKABLE, NEEDS_TOOL, FLUID_LEVEL, CROSS, FACE_TILES, WATER_IDS, LAVA_IDS, LIGHT_OPACITY,
               LIGHT_EMISSION):
    _array.flags.writeable = False


def block_id(name: str) -> int:
    """The id of block `name`; UnknownBlockError (a ValueError) for a name the registry lacks."""
    try:
        return _ID[name]
    except (KeyError, TypeError):
        close = difflib.get_close_matches(str(name), NAMES, n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise UnknownBlockError(f"unknown block name {name!r}{hint}") from None


def block_name(block: int) -> str:
    """The name of block id `block`; UnknownBlockError for an id the registry lacks."""
    if isinstance(block, (int, np.integer)) and not isinstance(block, bool) and 0 <= block < COUNT:
        return NAMES[block]
    raise UnknownBlockError(f"unknown block id {block!r} (ids are 0..{COUNT - 1})")
