"""The voxel world: blocks, columns, seeded terrain, collision queries, background generation, saves.

numpy only: nothing here imports Ursina or Panda3D, so all of it is tested headless.
Public entry point: `World` (`World.create(path, seed)`, `World.open(path)`); the errors it
raises are exported here too. Where things live:
  blocks.py      the block registry (ids, names, shapes, tiles); atlas.py the texture atlas layout
  coords.py      dimensions, world -> column/section/local coordinates, the edge rule
  column.py      one column's ids as 16 sections (all-air sections absent), its byte form
  noise.py       seeded, machine-independent gradient noise
  terrain.py     biomes, heights, layers, caves; trees.py places and draws trees
  collision.py   collision boxes from an id array
  generation.py  background generation in worker processes
  storage.py     the SQLite world file, its checks and errors
  world.py       World: ties them together
"""

from .blocks import UnknownBlockError
from .coords import OutOfWorldError
from .generation import GenerationError
from .storage import (CorruptWorldError, ForeignFileError, NewerFormatError, WorldExistsError, WorldFileError,
                      WorldInUseError, WorldNotFoundError)
from .world import World, WorldClosedError

__all__ = [
    "CorruptWorldError",
    "ForeignFileError",
    "GenerationError",
    "NewerFormatError",
    "OutOfWorldError",
    "UnknownBlockError",
    "World",
    "WorldClosedError",
    "WorldExistsError",
    "WorldFileError",
    "WorldInUseError",
    "WorldNotFoundError",
]
