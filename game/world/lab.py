"""The physics lab's arena: a small hand-built world of registry blocks with one of every collision
case, playable through the world protocol (`game.rules.game_world.GameWorld`) as any world is.

Owns: the arena layout (which block sits in which cell), the spawn point and look, the named
features the tests aim at, and `Arena`, an in-memory world: a `physics.BlockGrid` for collision,
materials and currents beside the block ids for drawing, block edits (so building works in the
lab too), the sections a change touches, and padded sections for the game's own chunk mesher.
The protocol's parts the lab has no use for are null parts, never missing ones: no light is kept
(every cell reads full brightness, and sections are drawn as under the open sky), the ticker only
moves the clock on (no block updates: a fluid keeps its current, sand never falls on its own), no
file is damaged, nothing is unloaded, and column entities and player states are kept in memory
for the run.
Pure: numpy, `physics` and the numpy-only `game.world`; no Ursina.
Does not own: the chunked, saved world (`game.world.World`), meshing (`game.world.meshing`),
or drawing (the game's window draws the lab as it draws the world).

Layout (x east, z south, y up; the floor's top is y = 0; the player spawns at the origin
looking north, -Z):
- north, in view from spawn: two slabs beside two full blocks (walk onto a slab, not onto a
  full block), a staircase rising north to a platform, a fence row (cannot be jumped), a
  1-high wall, and far back a long 2-high wall built of separate brick blocks (seams);
- east: a 2-high wall whose west face is x = EAST_WALL_X;
- west: a 1-wide, 2-high tunnel running west;
- south-east: a 2-high wall with a 1-wide gap; south-west: an ice patch (slipperiness 0.98)
  on a layer of dirt;
- the lane straight south of spawn is open floor up to SOUTH_LANE_END_Z.

Beta's media (each block's `physics.Material` comes from the registry):
- east, behind the east wall: a 5 x 5 pool dug 3 deep into the floor (POOL_MIN..POOL_MAX),
  its middle lane (z = POOL_CURRENT_Z) flowing east (POOL_CURRENT);
- south-east: a 2 x 2 lava pit, 2 deep (LAVA_MIN..LAVA_MAX), in a 1-high cobblestone rim;
- north-west: a 4-high wall (LADDER_WALL_MIN..LADDER_WALL_MAX) with ladders up its south face
  (LADDER_CELLS, "ladder_north": each lies against the -Z side of its cell);
- north of spawn: two cobwebs hanging at head height (COBWEB_CELLS);
- south-east of spawn: a strip of soul sand in the floor (SOUL_SAND_CELLS);
- south: a 2-high cactus (CACTUS_CELLS) on a patch of sand.

The arena is not saved: `save` and `close` do nothing, and it starts anew each launch.
"""

from __future__ import annotations

import numpy as np

import physics
from physics.world import CellJournal
from .player_names import LOCAL_PLAYER, check_player_name
from .block_updates import MAX_DELAY_TICKS
from .blocks import AIR, MATERIAL, NAMES, SELECTABLE, SELECTION_SHAPES, SHAPES, SLIPPERINESS, block_id
from .change_log import ChangeLog, WorldChanges
from .coords import CHUNK_SIZE, WORLD_HEIGHT
from .file_format import CREATIVE
from .falling import FallingStart
from .meshing import PADDED_SIZE
from .storage import entities_json
from .world import WorldProblem
from .world_ticker import DAY_TICKS
from physics.materials import FLUIDS, NO_FLOW, Cells, Material, require_flow

Cell = tuple[int, int, int]
SectionKey = tuple[int, int, int]

FLOOR_HALF_SIZE = 14
"""[blocks] The floor covers cells -14..14 on X and Z (29 x 29 blocks)."""
FLOOR_Y = -1
"""Cell layer of the floor; its top face is y = 0, where feet rest."""
SPAWN_FEET = (0.5, 0.0, 0.5)
"""[blocks] Feet centre of the player at spawn."""
SPAWN_YAW = 180.0
"""[degrees] Looking north (-Z), toward most features."""
SPAWN_PITCH = 15.0
"""[degrees] Slightly down, so the floor and the features fill the view."""
EAST_WALL_X = 6
"""[blocks] X of the west face of the 2-high wall east of spawn (cells x = 6, z = -2..2)."""
SOUTH_LANE_END_Z = FLOOR_HALF_SIZE
"""[blocks] The floor south of spawn (cells x = 0) is free of obstacles up to this z."""
ICE_SLIPPERINESS = float(SLIPPERINESS[block_id("ice")])
"""Beta's ice (0.98), from the block registry."""
EDIT_LIMIT = 64
"""[blocks] The lab holds blocks within this distance of the origin on X and Z, and from
LOWEST_Y to the world's top: room to build beside the arena, and a bound on what it holds.
Building asks `can_hold`, so a click beyond it places nothing."""
POOL_MIN = (8, FLOOR_Y - 2, -2)
POOL_MAX = (12, FLOOR_Y, 2)
"""Corner cells of the pool's water (inclusive): 5 x 5, 3 deep, its surface level with the floor
(y = 0); dirt walls and a sand bottom around it."""
POOL_CURRENT_Z = 0
"""The pool's lane with a current: its cells at this z flow POOL_CURRENT; the rest is still."""
POOL_CURRENT = (1.0, 0.0, 0.0)
"""The current of the pool's lane: east (a unit vector, as Beta's `getFlowVector`)."""
LAVA_MIN = (9, FLOOR_Y - 1, 9)
LAVA_MAX = (10, FLOOR_Y, 10)
"""Corner cells of the lava pit (inclusive): 2 x 2, 2 deep, level with the floor; a 1-high
cobblestone rim on the floor around it (cells x 8..11, z 8..11 at y = 0, the pit excepted)."""
LADDER_WALL_MIN = (-13, 0, -8)
LADDER_WALL_MAX = (-10, 3, -8)
"""Corner cells of the 4-high stone wall the ladders hang on."""
LADDER_CELLS = tuple((x, y, -7) for x in (-12, -11) for y in range(4))
"""Two columns of "ladder_north" up the wall's south face (z = -7 against the wall's face)."""
COBWEB_CELLS = ((-1, 1, -6), (0, 1, -6))
"""Two cobwebs at head height (y 1..2) over open floor, north of spawn."""
SOUL_SAND_CELLS = tuple((x, FLOOR_Y, 3) for x in range(1, 6))
"""A 1 x 5 strip of soul sand in place of the grass, running east-west."""
CACTUS_CELLS = ((3, 0, 10), (3, 1, 10))
"""A 2-high cactus on a 3 x 3 patch of sand in the floor (cells x 2..4, z 9..11)."""
LOWEST_Y = POOL_MIN[1] - 1
"""The pool's bottom, the lowest layer the lab holds."""
ARENA_SEED = 0
"""The lab's seed: mob brains draw from it, so the lab's mobs behave the same in every run."""
FULL_BRIGHTNESS = (15, 0)
"""(sky, block) light of every lab cell: the lab keeps no light, so everything is lit as under the
open sky at noon (the window draws its sections without a light array, and the held block at full
brightness)."""


class Arena:
    """The lab's world: block ids by cell, a `physics.BlockGrid` kept equal to them, and what a
    `Session` needs of a world (collision, block edits, columns for spawning, no saving)."""

    seed = ARENA_SEED
    path = None
    """No file: the lab is never saved."""
    game_mode = CREATIVE
    """The lab is a creative playground: every block at hand, nothing to gather."""

    def __init__(self) -> None:
        self.grid = physics.BlockGrid()
        """The collision world the bodies move in (the boxes of `blocks`)."""
        self.selection_grid = physics.BlockGrid()
        """The boxes the look ray hits (`selection_boxes`): the selection shapes of `blocks`."""
        self.blocks: dict[Cell, int] = {}
        """Every non-air block: cell -> block id."""
        self.spawn = SPAWN_FEET
        self.ticks = 0
        """World ticks run (`tick`): the lab's clock, starting at sunrise."""
        self._entities: dict[tuple[int, int], list[dict]] = {}
        self._player_states: dict[str, dict] = {}
        self._changes = ChangeLog()
        """What `set_block` changed since the last `take_changes` (a tick's record)."""
        self._revision = 0
        self._journal = CellJournal()
        """The latest cells `set_block` changed, by revision (`cells_changed_since`)."""

    # --- blocks -----------------------------------------------------------------------------

    def get_block(self, x: int, y: int, z: int) -> str:
        return NAMES[self.blocks.get((x, y, z), AIR)]

    def set_block(self, x: int, y: int, z: int, name: str,
                  flow: tuple[float, float, float] = NO_FLOW) -> tuple[SectionKey, ...]:
        """Put block `name` at (x, y, z), with current `flow` for water or lava (a unit vector or
        zero); returns the sections whose meshes see the change (() when no block changed: a new
        current alone changes no mesh). UnknownBlockError for an unknown name; ValueError outside
        the lab's bounds or for a current on a block that does not flow."""
        block = block_id(name)
        cell = tuple(_whole(v) for v in (x, y, z))
        if not self.can_hold(*cell):
            raise ValueError(f"the lab holds blocks within {EDIT_LIMIT} of the origin and y {LOWEST_Y}..255, got {cell}")
        flow = require_flow(flow)
        material = Material(int(MATERIAL[block]))
        if flow != NO_FLOW and material not in FLUIDS:
            raise ValueError(f"only water and lava flow, not {name} (got flow {flow})")
        old = self.blocks.get(cell, AIR)
        if old == block:
            if block != AIR and self.grid.flow(*cell) != flow:
                self.grid.set(*cell, SHAPES[block], float(SLIPPERINESS[block]), material, flow)
                self._changed(cell)
            return ()
        self._changed(cell)
        if block == AIR:
            del self.blocks[cell]
        else:
            self.blocks[cell] = block
        if material == Material.AIR:  # air, a torch or a plant: nothing for physics
            self.grid.remove(*cell)
        else:
            self.grid.set(*cell, SHAPES[block], float(SLIPPERINESS[block]), material, flow)
        if SELECTABLE[block]:
            self.selection_grid.set(*cell, SELECTION_SHAPES[block])
        else:
            self.selection_grid.remove(*cell)
        seen_by = sections_seeing(cell)
        self._changes.block_changed(*cell, old, block)
        self._changes.sections_changed(seen_by)
        return seen_by

    def id_at(self, x: int, y: int, z: int) -> int:
        """The block id at (x, y, z) (air where the lab holds nothing)."""
        return self.blocks.get((x, y, z), AIR)

    def set_id(self, x: int, y: int, z: int, block: int) -> tuple[SectionKey, ...]:
        """`set_block` by block id; a cell the lab cannot hold is left alone (() returned), as a
        `World` leaves one outside its build height."""
        if not self.can_hold(x, y, z):
            return ()
        return self.set_block(x, y, z, NAMES[block])

    def _changed(self, cell: tuple[int, int, int]) -> None:
        """Count a change of the block (or current) at `cell`: `revision` and `cells_changed_since`."""
        self._revision += 1
        self._journal.record(self._revision, [cell])

    @staticmethod
    def can_hold(x: int, y: int, z: int) -> bool:
        """Whether the lab holds a block at (x, y, z) (building asks before placing)."""
        return abs(x) <= EDIT_LIMIT and abs(z) <= EDIT_LIMIT and LOWEST_Y <= y < WORLD_HEIGHT

    def ids_in_box(self, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int) -> np.ndarray:
        """The ids of blocks [x0, x1) x [y0, y1) x [z0, z1) as a new [x, y, z] uint16 array (air
        where the lab holds nothing; an empty box gives an empty array)."""
        x0, y0, z0, x1, y1, z1 = (_whole(v) for v in (x0, y0, z0, x1, y1, z1))
        ids = np.zeros((max(x1 - x0, 0), max(y1 - y0, 0), max(z1 - z0, 0)), dtype=np.uint16)
        if ids.size:
            for (x, y, z), block in self.blocks.items():
                if x0 <= x < x1 and y0 <= y < y1 and z0 <= z < z1:
                    ids[x - x0, y - y0, z - z0] = block
        return ids

    def take_changes(self) -> WorldChanges:
        """What `set_block` changed since the last call (cells, the sections that see them), then
        forget it: the world's part of a tick's record. The arena keeps no light (nothing waits)
        and saves nothing (no column is unsaved)."""
        return self._changes.take()

    def take_changed_sections(self) -> set[SectionKey]:
        """Compatibility alias: the sections of `take_changes` (which it takes whole)."""
        return set(self.take_changes().sections)

    # --- physics.CollisionWorld -------------------------------------------------------------

    def collision_boxes(self, region: physics.AABB) -> list[physics.AABB]:
        return self.grid.collision_boxes(region)

    def selection_boxes(self, region: physics.AABB) -> list[physics.AABB]:
        """The boxes the look ray hits (as `World.selection_boxes`: torches and plants too)."""
        return self.selection_grid.collision_boxes(region)

    def slipperiness(self, x: int, y: int, z: int) -> float:
        return self.grid.slipperiness(x, y, z)

    def material(self, x: int, y: int, z: int) -> Material:
        """The `physics.Material` of block (x, y, z) (AIR where there is none)."""
        return self.grid.material(x, y, z)

    def flow(self, x: int, y: int, z: int) -> tuple[float, float, float]:
        """The current of block (x, y, z): (0, 0, 0) but in the pool's flowing lane (or where an
        edit gave one)."""
        return self.grid.flow(x, y, z)

    def materials_in(self, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int) -> Cells:
        """Every block of the inclusive cuboid with its material (physics' many-cells query)."""
        return self.grid.materials_in(x0, y0, z0, x1, y1, z1)

    @property
    def revision(self) -> int | None:
        """Counts block changes, torches and plants included (their selection boxes changed,
        though physics' grid did not), and changes of a current."""
        return self._revision

    def cells_changed_since(self, revision: int) -> list[tuple[int, int, int]] | None:
        return self._journal.since(revision)

    # --- what drawing and spawning read ---------------------------------------------------------

    def section_keys(self) -> list[SectionKey]:
        """Every section holding a block, sorted."""
        return sorted({_section_of(cell) for cell in self.blocks})

    def padded_section(self, cx: int, sy: int, cz: int) -> np.ndarray:
        """Section (cx, sy, cz) with a one-block border, as `World.padded_section` gives it: a new
        (18, 18, 18) uint16 array of ids, [x, y, z], index 1..16 the section itself."""
        padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
        origin = np.array([cx, sy, cz]) * CHUNK_SIZE - 1
        for cell, block in self.blocks.items():
            i, j, k = (c - o for c, o in zip(cell, origin))
            if 0 <= i < PADDED_SIZE and 0 <= j < PADDED_SIZE and 0 <= k < PADDED_SIZE:
                padded[i, j, k] = block
        return padded

    def column(self, cx: int, cz: int) -> np.ndarray:
        """Column (cx, cz) as `World.column` gives it: (16, 256, 16) ids for y 0..255 (the floor,
        at y = -1, is below it, so no natural spawn finds ground)."""
        ids = np.zeros((CHUNK_SIZE, WORLD_HEIGHT, CHUNK_SIZE), dtype=np.uint16)
        x0, z0 = cx * CHUNK_SIZE, cz * CHUNK_SIZE
        for (x, y, z), block in self.blocks.items():
            if x0 <= x < x0 + CHUNK_SIZE and z0 <= z < z0 + CHUNK_SIZE and 0 <= y < WORLD_HEIGHT:
                ids[x - x0, y, z - z0] = block
        return ids

    def is_as_generated(self, cx: int, cz: int) -> bool:
        """Never: the arena is built by hand, not generated from its seed (a server sends its columns whole)."""
        return False

    def spawn_body(self) -> physics.Body:
        return physics.Body.at_feet(*SPAWN_FEET)

    # --- light: none kept (full brightness) ------------------------------------------------------

    def light(self, x: int, y: int, z: int) -> tuple[int, int]:
        """FULL_BRIGHTNESS at every cell: the lab keeps no light. TypeError unless whole numbers."""
        _cell(x, y, z)
        return FULL_BRIGHTNESS

    def padded_light(self, cx: int, sy: int, cz: int) -> None:
        """None: no light array, so the mesher draws the section as under the open sky."""
        _cell(cx, sy, cz)
        return None

    # --- the ticker: only the clock ----------------------------------------------------------------

    @property
    def day_time(self) -> int:
        """[ticks] The time of day, 0..DAY_TICKS - 1 (0 sunrise): `ticks` within its day, as the world's."""
        return self.ticks % DAY_TICKS

    def set_day_time(self, day_time: int) -> None:
        """Move the clock on to the next time it reads `day_time` (less than a day forward), as the
        world's. TypeError/ValueError (nothing changes) unless an int 0..DAY_TICKS - 1."""
        if isinstance(day_time, bool) or not isinstance(day_time, int):
            raise TypeError(f"the time of day is an int of ticks, got {day_time!r}")
        if not 0 <= day_time < DAY_TICKS:
            raise ValueError(f"the time of day is 0..{DAY_TICKS - 1} ticks, got {day_time}")
        self.ticks += (day_time - self.day_time) % DAY_TICKS

    def tick(self) -> int:
        """Move the clock on one tick; no block update runs in the lab, so 0 ran."""
        self.ticks += 1
        return 0

    def schedule(self, x: int, y: int, z: int, delay: int) -> bool:
        """False: the lab runs no block updates (its fluids keep their currents, its sand stays).
        TypeError for a coordinate that is not whole, ValueError for a delay outside 1..MAX_DELAY_TICKS."""
        _cell(x, y, z)
        if isinstance(delay, bool) or not isinstance(delay, int) or not 1 <= delay <= MAX_DELAY_TICKS:
            raise ValueError(f"delay must be an int number of ticks in 1..{MAX_DELAY_TICKS}, got {delay!r}")
        return False

    def take_falling_starts(self) -> list[FallingStart]:
        """[]: with no block updates nothing starts to fall on its own."""
        return []

    def take_unsupported(self) -> list:
        """[]: the arena's blocks are set where they stand; nothing breaks for lost support."""
        return []

    def take_generated_columns(self) -> list[tuple[int, int]]:
        """[]: the arena is built, not generated."""
        return []

    def take_problems(self) -> list[WorldProblem]:
        """[]: there is no file to find damage in."""
        return []

    # --- what is stored with the columns: in memory, for this run --------------------------------

    def column_entities(self, cx: int, cz: int) -> list[dict]:
        """The entities (mobs, blocks in flight) stored with column (cx, cz) this run (copies)."""
        return [dict(entry) for entry in self._entities.get(_column(cx, cz), [])]

    def set_column_entities(self, cx: int, cz: int, entities: list[dict]) -> None:
        """Replace the entities stored with column (cx, cz) for this run (never written anywhere);
        what a world file could not hold is refused as `World.set_column_entities` refuses it."""
        key = _column(cx, cz)
        entities_json(entities)
        self._entities[key] = [dict(entry) for entry in entities]

    def entity_columns(self) -> list[tuple[int, int]]:
        """Every column whose entity list holds something, sorted."""
        return sorted(key for key, listed in self._entities.items() if listed)

    # --- keeping memory bounded: the lab is small and held whole -----------------------------------

    def columns_far_from(self, centres, radius: int) -> list[tuple[int, int]]:
        """[]: no lab column is ever let go. ValueError unless `radius` is a non-negative int."""
        if isinstance(radius, bool) or not isinstance(radius, int) or radius < 0:
            raise ValueError(f"radius must be a non-negative int (columns), got {radius!r}")
        for cx, cz in centres:
            _column(cx, cz)
        return []

    def is_edited(self, cx: int, cz: int) -> bool:
        """False: nothing in the lab waits to be saved."""
        _column(cx, cz)
        return False

    def unload_columns(self, keys) -> int:
        """0: the lab is held whole."""
        for cx, cz in keys:
            _column(cx, cz)
        return 0

    # --- players: kept in memory for this run --------------------------------------------------------

    @property
    def player_state(self) -> dict | None:
        """The local player's state (`saved_player_state(LOCAL_PLAYER)`); the session writes it on save."""
        return self.saved_player_state(LOCAL_PLAYER)

    @player_state.setter
    def player_state(self, state: dict | None) -> None:
        self.set_player_state(LOCAL_PLAYER, state)

    def player_states(self) -> tuple[str, ...]:
        """The names of the players whose state is kept, sorted."""
        return tuple(sorted(self._player_states))

    def saved_player_state(self, name: str) -> dict | None:
        """The state kept for player `name`, or None."""
        return self._player_states.get(check_player_name(name))

    def set_player_state(self, name: str, state: dict | None) -> None:
        """Keep `state` for player `name` this run, as it is (None forgets it): it is never written,
        so unlike a world file the lab holds any state, even one the session cannot use (the tests
        of an unusable saved player keep theirs here). TypeError/ValueError for a bad name."""
        name = check_player_name(name)
        if state is None:
            self._player_states.pop(name, None)
        else:
            self._player_states[name] = state

    # --- the world's lifecycle (nothing to write) ----------------------------------------------

    def save(self) -> None:
        """The lab is not saved."""

    def close(self) -> None:
        """Nothing is open."""


def sections_seeing(cell: Cell) -> tuple[SectionKey, ...]:
    """Every section whose padded section holds `cell`: its own and, on a section face, edge or
    corner, the neighbours across it."""
    axes = []
    for v in cell:
        local = v % CHUNK_SIZE
        own = v // CHUNK_SIZE
        axes.append((own, own - 1) if local == 0 else (own, own + 1) if local == CHUNK_SIZE - 1 else (own,))
    return tuple((cx, sy, cz) for cx in axes[0] for sy in axes[1] for cz in axes[2])


def _section_of(cell: Cell) -> SectionKey:
    return tuple(v // CHUNK_SIZE for v in cell)


def _whole(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        if isinstance(value, float) and value.is_integer():
            return int(value)
        raise TypeError(f"block coordinates are whole numbers, got {value!r}")
    return int(value)


def _cell(x: object, y: object, z: object) -> Cell:
    """(x, y, z) as ints; TypeError unless whole numbers."""
    return _whole(x), _whole(y), _whole(z)


def _column(cx: object, cz: object) -> tuple[int, int]:
    """(cx, cz) as ints; TypeError unless whole numbers."""
    return _whole(cx), _whole(cz)


def build_arena() -> Arena:
    """A fresh arena (new each call)."""
    arena = Arena()

    def fill(x0: int, y0: int, z0: int, x1: int, y1: int, z1: int, name: str) -> None:
        """Block `name` in every cell of the inclusive cuboid between the two corners."""
        for x in range(min(x0, x1), max(x0, x1) + 1):
            for y in range(min(y0, y1), max(y0, y1) + 1):
                for z in range(min(z0, z1), max(z0, z1) + 1):
                    arena.set_block(x, y, z, name)

    def basin(low: Cell, high: Cell, wall: str, bottom: str, name: str) -> None:
        """Block `name` in the cuboid low..high, walled with `wall` on its four sides below the
        floor and floored with `bottom` (the floor layer itself is replaced, not walled)."""
        (x0, y0, z0), (x1, y1, z1) = low, high
        fill(x0 - 1, y0 - 1, z0 - 1, x1 + 1, y0 - 1, z1 + 1, bottom)
        if y0 < FLOOR_Y:
            fill(x0 - 1, y0, z0 - 1, x1 + 1, FLOOR_Y - 1, z1 + 1, wall)
        fill(x0, y0, z0, x1, y1, z1, name)

    n = FLOOR_HALF_SIZE
    fill(-n, FLOOR_Y, -n, n, FLOOR_Y, n, "grass")
    fill(-12, FLOOR_Y, 5, -5, FLOOR_Y, 11, "ice")  # ice patch, south-west ...
    fill(-12, FLOOR_Y - 1, 5, -5, FLOOR_Y - 1, 11, "dirt")  # ... on dirt, seen through the ice

    # North: two slabs beside two full blocks (a slab is walked onto, a full block is not).
    fill(-8, 0, -3, -7, 0, -3, "stone_slab")
    fill(-6, 0, -3, -5, 0, -3, "stone")
    # North: a staircase rising north onto a 3-high platform.
    for x in (-3, -2):
        for step in range(3):
            if step:
                fill(x, 0, -3 - step, x, step - 1, -3 - step, "planks")  # supports under the raised steps
            arena.set_block(x, step, -3 - step, "stairs_north")
        fill(x, 0, -7, x, 2, -6, "planks")
    # North: a fence row, then a 1-high wall.
    fill(1, 0, -4, 3, 0, -4, "fence")
    fill(5, 0, -4, 7, 0, -4, "stone")
    # Far north: a long wall of separate blocks.
    fill(-10, 0, -10, 10, 1, -10, "brick")
    # East: the 2-high wall the display test walks into.
    fill(EAST_WALL_X, 0, -2, EAST_WALL_X, 1, 2, "stone")
    # West: a 1-wide, 2-high tunnel along X (passage z = 0, y = 0..1).
    fill(-11, 0, -1, -6, 1, -1, "cobblestone")
    fill(-11, 0, 1, -6, 1, 1, "cobblestone")
    fill(-11, 2, -1, -6, 2, 1, "cobblestone")
    # South-east: a 2-high wall with a 1-wide gap at x = 6.
    fill(3, 0, 6, 5, 1, 6, "stone")
    fill(7, 0, 6, 10, 1, 6, "stone")

    # East, behind the east wall: the pool, its middle lane flowing east.
    basin(POOL_MIN, POOL_MAX, "dirt", "sand", "water")
    for x in range(POOL_MIN[0], POOL_MAX[0] + 1):
        for y in range(POOL_MIN[1], POOL_MAX[1] + 1):
            arena.set_block(x, y, POOL_CURRENT_Z, "water", flow=POOL_CURRENT)
    # South-east: the lava pit in its rim.
    basin(LAVA_MIN, LAVA_MAX, "stone", "stone", "lava")
    (lx0, _, lz0), (lx1, _, lz1) = LAVA_MIN, LAVA_MAX
    fill(lx0 - 1, 0, lz0 - 1, lx1 + 1, 0, lz0 - 1, "cobblestone")
    fill(lx0 - 1, 0, lz1 + 1, lx1 + 1, 0, lz1 + 1, "cobblestone")
    fill(lx0 - 1, 0, lz0, lx0 - 1, 0, lz1, "cobblestone")
    fill(lx1 + 1, 0, lz0, lx1 + 1, 0, lz1, "cobblestone")
    # North-west: the ladder wall.
    fill(*LADDER_WALL_MIN, *LADDER_WALL_MAX, "stone")
    for cell in LADDER_CELLS:
        arena.set_block(*cell, "ladder_north")
    # North of spawn: cobwebs at head height.
    for cell in COBWEB_CELLS:
        arena.set_block(*cell, "cobweb")
    # South-east of spawn: soul sand in the floor.
    for cell in SOUL_SAND_CELLS:
        arena.set_block(*cell, "soul_sand")
    # South: a cactus on sand.
    (cx, _, cz) = CACTUS_CELLS[0]
    fill(cx - 1, FLOOR_Y, cz - 1, cx + 1, FLOOR_Y, cz + 1, "sand")
    for cell in CACTUS_CELLS:
        arena.set_block(*cell, "cactus")
    arena.take_changes()  # building it is not an edit to redraw: the window draws every section
    return arena
