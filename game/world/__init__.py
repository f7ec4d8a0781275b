"""The voxel world: blocks, columns, seeded terrain, collision queries, background generation, saves.

numpy only: nothing here imports Ursina or Panda3D, so all of it is tested headless.
Public entry point: `World` (`World.create(path, seed)`, `World.open(path)`); the errors it
raises are exported here too. Where things live:
  blocks.py      the block registry (ids, names, shapes, tiles); atlas.py the texture atlas layout
  coords.py      dimensions, world -> column/section/local coordinates, the edge rule
  column.py      one column's ids as 16 sections (all-air sections absent), its byte form
  noise.py       seeded, machine-independent gradient noise
  terrain.py     biomes, heights, sea level, beaches, layers, caves and their lava; trees.py places
                 and draws trees; features.py lakes, cactus, flowers and grass; spawn.py find_spawn
  block_updates.py the queue of scheduled block updates; fluids.py flowing water and lava;
                 falling.py sand and gravel that fall
  collision.py   collision boxes from an id array
  sight.py       cave culling: which faces of a section see each other, which sections the eye's sees
  generation.py  background generation in worker processes
  storage.py     the SQLite world file: create, open, read, save
  file_format.py its versions, exact schema and meta checksum; file_checks.py the checks an open
                 makes; file_errors.py the errors (damaged, disk full, read-only, ...)
  world.py       World: ties them together (blocks and their notifications, light, saves). Its
                 parts, mixins behind the World façade:
                 column_store.py the loaded columns, box reads and the damage found while playing;
                 world_ticker.py the clock and scheduled block updates; world_queries.py collision,
                 selection, material and flow queries; column_loading.py background requests and
                 unloading; column_entities.py the entities stored with each column
"""

from .blocks import UnknownBlockError
from .coords import OutOfWorldError
from .generation import GenerationError
from .file_errors import (CorruptWorldError, ForeignFileError, ForeignLogError, NewerFormatError, NotAFileError,
                          UnexpectedSchemaError, UnsavableWorldError, WorldDiskError, WorldDiskFullError,
                          WorldExistsError, WorldFileError, WorldInUseError, WorldNotFoundError, WorldPermissionError,
                          WorldReadOnlyError)
from .world import World, WorldClosedError, WorldProblem

__all__ = [
    "CorruptWorldError",
    "ForeignFileError",
    "ForeignLogError",
    "GenerationError",
    "NewerFormatError",
    "NotAFileError",
    "OutOfWorldError",
    "UnexpectedSchemaError",
    "UnsavableWorldError",
    "UnknownBlockError",
    "World",
    "WorldClosedError",
    "WorldDiskError",
    "WorldDiskFullError",
    "WorldExistsError",
    "WorldFileError",
    "WorldInUseError",
    "WorldNotFoundError",
    "WorldPermissionError",
    "WorldProblem",
    "WorldReadOnlyError",
]
