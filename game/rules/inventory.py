"""The creative inventory: every block a player can place, and the rule for putting one in the hotbar.

Owns: the catalogue (`Catalogue`, `CATALOGUE`): one `Entry` per placeable family of registry
blocks, in registry order (a block placed in one of several forms -- stairs by facing, ladders by
wall, the two slab halves -- is one entry, whose form `game.rules.targeting.placement` chooses when it is
placed); the grid a screen shows of it (COLUMNS entries a row, ROWS_SHOWN rows, scrolled by whole
rows as Minecraft's creative inventory is); the entry a block in the world belongs to (`entry_of`,
for pick-block) and the block a hotbar holds for it (`held_block`); putting an entry in a hotbar
slot (`put_in_slot`). Pure: no Ursina import.
Does not own: whether the inventory is open and the events that change the hotbar
(`game.rules.session`, `game.rules.replay.PutInSlot`), the hotbar itself (`game.rules.hotbar`), drawing the grid
(`game.window.ui.inventory_screen`) or how a held block is oriented when placed (`game.rules.targeting`).

What is in it: every block the hotbar can hold (`hotbar.holdable`: not air, not unbreakable).
Water and lava are left out: the registry makes every fluid unbreakable, so a placed source could
never be taken back, and bedrock is out for the same reason. The double slab is an entry of its
own (a whole block of slab), as are the ores.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

from .hotbar import Hotbar, holdable
from .saved_values import preview
from .targeting import LADDERS_BY_WALL, SLABS, STAIRS_BY_FACING
from ..world.blocks import NAMES, block_id

COLUMNS = 9
"""Entries in one row of the grid: as many as the hotbar has slots, as in Minecraft's creative inventory."""
ROWS_SHOWN = 5
"""Rows of the grid shown at once (Minecraft's creative inventory shows 5); more scroll by rows."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One catalogue entry: a placeable block, or a family of blocks placed as one."""

    block: str
    """The block the hotbar holds for this entry (its icon is this block's)."""
    members: tuple[str, ...]
    """Every registry block that belongs to the entry, `block` first (one block for most entries)."""
    label: str
    """The entry's name as players read it ("Stairs", "Glass")."""


def _label(name: str) -> str:
    return name.replace("_", " ").title()


_SIDES = ("north", "south", "east", "west")
_FAMILIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Stairs", tuple(STAIRS_BY_FACING.values())),
    ("Ladder", tuple(LADDERS_BY_WALL.values())),
    *((_label(kind.bottom), (kind.bottom, kind.top)) for kind in SLABS),
    # Survival's families: one entry each, the form placed chosen by `game.rules.placement_rules`.
    ("Torch", ("torch", *(f"wall_torch_{side}" for side in _SIDES))),
    ("Furnace", (*(f"furnace_{side}" for side in _SIDES), *(f"lit_furnace_{side}" for side in _SIDES))),
    ("Wooden Door", tuple(f"door_{half}_{side}_{state}" for half in ("lower", "upper") for side in _SIDES
                          for state in ("closed", "open"))),
    ("Bed", tuple(f"bed_{part}_{side}" for part in ("foot", "head") for side in _SIDES)),
    ("Sapling", ("sapling", "sapling_ready")),
)
"""(label, members) of every block placed in one of several forms, the held block first."""


@dataclass(frozen=True, slots=True)
class Catalogue:
    """Catalogue entries laid out in rows of `columns`, `rows_shown` rows on screen at a time."""

    entries: tuple[Entry, ...]
    columns: int = COLUMNS
    rows_shown: int = ROWS_SHOWN

    def __post_init__(self) -> None:
        if not isinstance(self.entries, tuple) or not all(isinstance(e, Entry) for e in self.entries):
            raise TypeError(f"a catalogue's entries are a tuple of Entry values, got {preview(self.entries)}")
        blocks = [name for entry in self.entries for name in entry.members]
        if len(set(blocks)) != len(blocks):
            raise ValueError("a block belongs to at most one catalogue entry")
        for name in ("columns", "rows_shown"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"a catalogue's {name} is an int >= 1, got {value!r}")

    @classmethod
    def of_registry(cls) -> Catalogue:
        """Every holdable registry block, families as one entry each, ordered by their first member's id."""
        family_of = {member: (label, members) for label, members in _FAMILIES for member in members}
        entries, seen = [], set()
        for name in NAMES:
            if not holdable(name) or name in seen:
                continue
            label, members = family_of.get(name, (_label(name), (name,)))
            members = tuple(m for m in members if holdable(m))
            seen.update(members)
            entries.append(Entry(members[0], members, label))
        return cls(tuple(entries))

    @property
    def rows(self) -> int:
        """Rows the whole catalogue fills."""
        return -(-len(self.entries) // self.columns)

    @property
    def max_scroll(self) -> int:
        """The last scroll position (in rows): the one that shows the last row at the bottom; 0 when all fits."""
        return max(self.rows - self.rows_shown, 0)

    def clamp_scroll(self, scroll: int) -> int:
        """`scroll` (rows) kept within 0..max_scroll; TypeError unless an int."""
        if isinstance(scroll, bool) or not isinstance(scroll, numbers.Integral):
            raise TypeError(f"a scroll position is an int of rows, got {preview(scroll)}")
        return min(max(int(scroll), 0), self.max_scroll)

    def shown(self, scroll: int = 0) -> tuple[Entry | None, ...]:
        """The grid's cells at scroll position `scroll` (clamped), row by row, left to right:
        columns x rows_shown of them, None where the catalogue has run out."""
        first = self.clamp_scroll(scroll) * self.columns
        cells = self.entries[first:first + self.columns * self.rows_shown]
        return cells + (None,) * (self.columns * self.rows_shown - len(cells))

    def entry_of(self, block_name: str) -> Entry:
        """The entry block `block_name` belongs to (a stair of any facing: the stairs entry).
        UnknownBlockError for a name the registry lacks, ValueError for a block the catalogue
        does not hold (air, bedrock, water and lava)."""
        if not isinstance(block_name, str):
            raise TypeError(f"a block name is a str, got {preview(block_name)}")
        block_id(block_name)  # UnknownBlockError naming close names
        for entry in self.entries:
            if block_name in entry.members:
                return entry
        raise ValueError(f"{block_name} is not in the creative inventory (it cannot be held)")

    def held_block(self, block_name: str) -> str:
        """The block a hotbar holds for `block_name`'s entry ("stairs_east" -> "stairs_north"); errors as `entry_of`."""
        return self.entry_of(block_name).block


CATALOGUE = Catalogue.of_registry()
"""The game's creative inventory."""


def put_in_slot(hotbar: Hotbar, slot: int, block_name: str, catalogue: Catalogue = CATALOGUE) -> None:
    """Put `block_name`'s catalogue entry in hotbar slot `slot` (a click on an entry, then on a slot).

    The slot then holds the entry's block (`held_block`: any stair puts the stairs entry); what it
    held is gone, the selection stays where it was, and the same block may sit in two slots, as in
    Minecraft's creative inventory. TypeError/ValueError (UnknownBlockError for an unknown name)
    and nothing changes for a slot that is not 0..8 or a block the catalogue does not hold."""
    hotbar.put(slot, catalogue.held_block(block_name))
