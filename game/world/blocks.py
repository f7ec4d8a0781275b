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
    "cactus_top",
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
    """Drawn in the second (blended) pass."""
    culls_same: bool = False
    """A see-through block that hides faces against the same block (glass); leaves do not."""
    slipperiness: float = 0.6
    hardness: float = 1.0
    """Seconds of digging by hand, roughly; -1 means unbreakable."""
    tiles: tuple[str, str, str, str, str, str] = ("stone",) * 6
    """Tile name per face, in FACES order."""


def _all(tile: str) -> tuple[str, ...]:
    return (tile,) * 6


def _column(side: str, top: str, bottom: str) -> tuple[str, ...]:
    return (side, side, top, bottom, side, side)


def _non_cube(name: str, shape: Shape, tiles: tuple[str, ...], hardness: float = 2.0) -> BlockSpec:
    return BlockSpec(name, shape=shape, opaque=False, hardness=hardness, tiles=tiles)


CACTUS_DRAWN: Shape = (AABB(1.0 / 16.0, 0.0, 1.0 / 16.0, 15.0 / 16.0, 1.0, 15.0 / 16.0),)
"""What a cactus is drawn as: its collision box's sides (inset 1/16) at the full height, so a
stack of cacti reads as one column (Beta draws it so too)."""

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
    BlockSpec("glass", opaque=False, transparent=True, culls_same=True, hardness=0.3, tiles=_all("glass")),
    BlockSpec("ice", opaque=False, transparent=True, culls_same=True, slipperiness=0.98, hardness=0.5,
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
    BlockSpec("water", shape=shapes.EMPTY, drawn=shapes.FULL_CUBE, material=Material.WATER, opaque=False,
              transparent=True, culls_same=True, hardness=-1.0, tiles=_all("water")),
    BlockSpec("lava", shape=shapes.EMPTY, drawn=shapes.FULL_CUBE, material=Material.LAVA, opaque=False,
              culls_same=True, hardness=-1.0, tiles=_all("lava")),
    *(BlockSpec(f"ladder_{facing}", shape=shapes.LADDER[facing], material=Material.LADDER, opaque=False,
                transparent=True, hardness=0.4, tiles=_all("ladder"))
      for facing in ("north", "south", "east", "west")),
    BlockSpec("cobweb", shape=shapes.EMPTY, drawn=shapes.FULL_CUBE, material=Material.WEB, opaque=False,
              transparent=True, hardness=4.0, tiles=_all("cobweb")),
    BlockSpec("soul_sand", shape=shapes.SOUL_SAND, drawn=shapes.FULL_CUBE, material=Material.SOUL_SAND,
              hardness=0.5, tiles=_all("soul_sand")),
    BlockSpec("cactus", shape=shapes.CACTUS, drawn=CACTUS_DRAWN, material=Material.CACTUS, opaque=False,
              culls_same=True, hardness=0.4, tiles=_column("cactus_side", "cactus_top", "cactus_top")),
)

SPECS: tuple[BlockSpec, ...] = _SPECS
if [s.name for s in SPECS if s.material == Material.AIR] != ["air"]:
    raise RuntimeError("only air is made of Material.AIR (physics' BlockGrid refuses an AIR block)")
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
FULL_CUBE = np.array([shape == shapes.FULL_CUBE for shape in DRAWN_SHAPES], dtype=bool)
"""Is drawn as the whole cell (with OPAQUE, hides its neighbours' faces)."""
MATERIAL = np.array([int(s.material) for s in SPECS], dtype=np.int8)
"""`physics.Material` value by id (`Material(MATERIAL[id])`): SOLID for ordinary blocks, AIR for air."""
OPAQUE = np.array([s.opaque for s in SPECS], dtype=bool)
TRANSPARENT = np.array([s.transparent for s in SPECS], dtype=bool)
CULLS_SAME = np.array([s.culls_same for s in SPECS], dtype=bool)
REPLACEABLE = np.array([s.material in (Material.AIR, Material.WATER, Material.LAVA) for s in SPECS], dtype=bool)
"""Placing a block there replaces it (air, and water and lava, as in Beta)."""
SLIPPERINESS = np.array([s.slipperiness for s in SPECS], dtype=np.float64)
HARDNESS = np.array([s.hardness for s in SPECS], dtype=np.float64)
BREAKABLE = HARDNESS >= 0.0
FACE_TILES = np.array([[_TILE[t] for t in s.tiles] for s in SPECS], dtype=np.int32)
"""Atlas tile index by (id, face), faces in FACES order."""

for _array in (SOLID, FULL_CUBE, MATERIAL, REPLACEABLE, OPAQUE, TRANSPARENT, CULLS_SAME, SLIPPERINESS, HARDNESS,
               BREAKABLE, FACE_TILES):
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
