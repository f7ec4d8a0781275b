"""The world protocol: exactly what a `Session`, its rules and the window ask of a world.

Owns: `GameWorld`, a runtime-checkable `typing.Protocol` listing every world query and command the
headless rules (session, player, mobs and their brains, targeting, health, sounds, falling blocks,
projectiles, the saved entities, the column keeper) and the window (drawing, light, the F3 overlay)
use, and `StreamedWorld`, a `GameWorld` that also loads columns in the background (what the window's
`WorldStreamer` asks of an endless world).
Does not own: any world. Two implement it: `game.world.World` (the chunked, saved world) and the
lab's `game.world.lab.Arena` (a small in-memory world with null parts: full brightness, a ticker that only
moves its clock on, no problems, nothing falling on its own, nothing saved). Neither inherits from
it: `isinstance(world, GameWorld)` checks that a world has every member, and the tests also check
every method's parameters.

Why one declared protocol: the rules call the world directly, never probing it with `getattr` or
`hasattr`; a world that lacks something gives that thing's null version instead (the lab's light
is full brightness, not absent). So the rules read the same on every world, and a new world (a
network client's, a test's) knows exactly what to provide.

Coordinates are integer blocks (x, y, z), columns (cx, cz) and sections (cx, sy, cz) as in
`game.world.coords`; regions and boxes are `physics.AABB`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from ..world.change_log import WorldChanges
from physics import AABB
from physics.materials import Cells, Material

Cell = tuple[int, int, int]
ColumnKey = tuple[int, int]
SectionKey = tuple[int, int, int]


@runtime_checkable
class GameWorld(Protocol):
    """What the game's rules and the window need from a world (see the module docstring)."""

    # --- what it is -----------------------------------------------------------------------------

    @property
    def seed(self) -> int:
        """The world's seed (signed 64-bit): terrain, mob brains and sounds draw from it."""

    @property
    def path(self) -> Path | None:
        """The world's file; None for a world that is never saved (the lab)."""

    @property
    def spawn(self) -> tuple[float, float, float]:
        """[blocks] Feet position for a new player."""

    @property
    def game_mode(self) -> str:
        """"survival" or "creative" (`game.world.file_format.GAME_MODES`): the rules the session plays by."""

    # --- blocks ---------------------------------------------------------------------------------

    def get_block(self, x: int, y: int, z: int) -> str:
        """The name of block (x, y, z)."""

    def set_block(self, x: int, y: int, z: int, name: str) -> tuple[SectionKey, ...]:
        """Make block (x, y, z) the block called `name`; the sections whose meshes see the change
        (() when nothing changed)."""

    def can_hold(self, x: int, y: int, z: int) -> bool:
        """Whether a block can be set at (x, y, z) (building asks before placing)."""

    def id_at(self, x: int, y: int, z: int) -> int:
        """The id of block (x, y, z) (ints): one cell's read, cheaper than a one-cell `ids_in_box`."""

    def set_id(self, x: int, y: int, z: int, block: int) -> tuple[SectionKey, ...]:
        """Make block (x, y, z) the block with id `block` (`set_block` without the name look-up); the
        sections whose meshes see the change (() when nothing changed, and for a cell the world cannot
        hold, which is left alone)."""

    def column(self, cx: int, cz: int) -> np.ndarray:
        """A new (16, 256, 16) uint16 array of column (cx, cz)'s ids, indexed [x, y, z] (local)."""

    def is_as_generated(self, cx: int, cz: int) -> bool:
        """Whether column (cx, cz) holds exactly what the seed generates (never edited): a server
        sends such a column as the seed's. False where the world is not generated from its seed."""

    def ids_in_box(self, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int) -> np.ndarray:
        """The ids of blocks [x0, x1) x [y0, y1) x [z0, z1) as a read-only [x, y, z] array."""

    @property
    def revision(self) -> int:
        """Changes whenever any block changes (crowds and brains keep what they read while it holds)."""

    def cells_changed_since(self, revision: int) -> list[tuple[int, int, int]] | None:
        """The cells changed after `revision` ((x, y, z) ints), or None when the world cannot say
        (crowds then forget every box they gathered, not only those around the cells)."""

    # --- what bodies and the look ray ask (physics.CollisionWorld and its optional queries) ------

    def collision_boxes(self, region: AABB) -> Iterable[AABB]:
        """Every solid box whose interior overlaps `region`."""

    def selection_boxes(self, region: AABB) -> Iterable[AABB]:
        """The boxes the look ray hits whose interior overlaps `region` (torches and plants too)."""

    def slipperiness(self, x: int, y: int, z: int) -> float:
        """Slipperiness of block (x, y, z) (0.6 ordinary, 0.98 ice)."""

    def material(self, x: int, y: int, z: int) -> Material:
        """The `physics.Material` of block (x, y, z)."""

    def flow(self, x: int, y: int, z: int) -> tuple[float, float, float]:
        """The current of the fluid at (x, y, z), zero elsewhere."""

    def materials_in(self, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int) -> Cells:
        """Every cell of the inclusive cuboid not made of air, with its material."""

    # --- drawing and light ----------------------------------------------------------------------

    def padded_section(self, cx: int, sy: int, cz: int) -> np.ndarray:
        """Section (cx, sy, cz) with a one-block border: a new (18, 18, 18) uint16 array of ids."""

    def padded_light(self, cx: int, sy: int, cz: int) -> np.ndarray | None:
        """The light of `padded_section`'s cells (sky << 4 | block, uint8); None for a world that
        keeps no light (the section is drawn as under the open sky)."""

    def light(self, x: int, y: int, z: int) -> tuple[int, int]:
        """(sky, block) light at block (x, y, z), each 0..15; (15, 0) where no light is kept."""

    # --- the world's tick and clock ---------------------------------------------------------------

    @property
    def ticks(self) -> int:
        """World ticks run so far (the clouds drift by it)."""

    @property
    def day_time(self) -> int:
        """[ticks] The time of day, 0..DAY_TICKS - 1 (0 sunrise)."""

    def set_day_time(self, day_time: int) -> None:
        """Move the clock on to the next time it reads `day_time`; TypeError/ValueError otherwise."""

    def tick(self) -> int:
        """Run one world tick (moving the clock on); how many scheduled block updates ran."""

    def schedule(self, x: int, y: int, z: int, delay: int) -> bool:
        """Look at block (x, y, z) again `delay` ticks from now; False when nothing was queued."""

    def take_falling_starts(self) -> list:
        """Sand and gravel that started to fall since the last call (`game.world.falling.FallingStart`)."""

    def take_unsupported(self) -> list:
        """Blocks that broke since the last call because what held them went (a torch whose wall was
        dug: `game.world.world_ticker.UnsupportedBlock`); survival drops their items."""

    def take_generated_columns(self) -> list[ColumnKey]:
        """The columns made from the seed (not read from a file) since the last call, each once: a
        survival game puts Beta 1.8's new-column animals in them (`game.rules.creature_spawning`)."""

    def take_changes(self) -> WorldChanges:
        """What changed since the last call (cells, sections to re-mesh, light still waiting, unsaved
        columns), then forget it: the world's part of a tick's record (`game.rules.tick_changes`)."""

    def take_problems(self) -> list:
        """Damage found in the world's file since the last call (`game.world.WorldProblem`), each once."""

    # --- what is stored with the columns ----------------------------------------------------------

    def column_entities(self, cx: int, cz: int) -> list[dict]:
        """The entities (JSON objects) stored with column (cx, cz)."""

    def set_column_entities(self, cx: int, cz: int, entities: list[dict]) -> None:
        """Replace the entities stored with column (cx, cz)."""

    def entity_columns(self) -> list[ColumnKey]:
        """Every column whose entity list may hold something, sorted."""

    # --- keeping memory bounded (`game.rules.column_keeper`) --------------------------------------------

    def columns_far_from(self, centres: Iterable[ColumnKey], radius: int) -> list[ColumnKey]:
        """The loaded columns farther than `radius` columns from every centre."""

    def is_edited(self, cx: int, cz: int) -> bool:
        """Whether column (cx, cz) holds edits the next `save()` writes."""

    def unload_columns(self, keys: Iterable[ColumnKey]) -> int:
        """Forget the loaded columns of `keys` but those with unsaved edits; how many were forgotten."""

    # --- players and saving -----------------------------------------------------------------------

    @property
    def player_state(self) -> dict | None:
        """The local player's saved state (JSON values), or None (`saved_player_state(LOCAL_PLAYER)`)."""

    def player_states(self) -> tuple[str, ...]:
        """The names of every player whose state the world keeps, sorted."""

    def saved_player_state(self, name: str) -> dict | None:
        """The state kept for player `name` (JSON values), None when that name never played here."""

    def set_player_state(self, name: str, state: dict | None) -> None:
        """Keep `state` for player `name` (None forgets it); TypeError/ValueError for a bad name, and
        from a world that writes a file, for a state it could not hold; nothing changed then."""

    def save(self) -> None:
        """Write what changed since the last save (nothing for a world that is never saved)."""

    def close(self) -> None:
        """Release the world; it refuses every use after (a world with nothing open does nothing)."""


@runtime_checkable
class StreamedWorld(GameWorld, Protocol):
    """A `GameWorld` that loads its columns in the background (the window's `WorldStreamer` asks
    for the columns around the eye and lets the far ones go). `game.world.World` is one; the lab's
    arena is not (it is drawn whole, by `FixedSections`)."""

    def request(self, cx: int, cz: int) -> None:
        """Ask for column (cx, cz) to be made ready in the background; returns at once."""

    def cancel(self, cx: int, cz: int) -> None:
        """Withdraw a request."""

    def poll(self, limit: int | None = None) -> list[ColumnKey]:
        """The requested columns that became ready since the last poll, each once."""

    def is_loaded(self, cx: int, cz: int) -> bool:
        """Whether column (cx, cz) is in memory."""

    def unload_columns_outside(self, cx: int, cz: int, radius: int) -> int:
        """Forget loaded columns farther than `radius` from (cx, cz) but those with unsaved edits."""

    def prepare_light(self, cx: int, cz: int, columns: int = 1) -> bool:
        """Give up to `columns` new columns around column (cx, cz) their first light now (what
        `padded_light` of its sections would light there and then); whether none is left."""


GAME_WORLD_METHODS = tuple(sorted(name for name, value in vars(GameWorld).items()
                                  if callable(value) and not name.startswith("_")))
"""The names of `GameWorld`'s methods (not its properties): what the tests check the parameters of."""
STREAMED_WORLD_METHODS = tuple(sorted(name for name, value in vars(StreamedWorld).items()
                                      if callable(value) and not name.startswith("_")))
"""The names of the methods `StreamedWorld` adds to `GameWorld`."""
