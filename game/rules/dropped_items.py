"""The dropped items of a session: Beta 1.7.3's `EntityItem`s, spawned, ticked, picked up and saved.

Owns: `DroppedItems` (the live items: spawn from a broken block, throw (Q) or scatter (death),
the tick with its pickups, the bodies for the tick's record, the sounds, saving by column), how an
item is drawn in a frame (`ItemView`, `item_view`: Beta's spin and bob) and the choice between the arrays' tick (`game.rules.dropped_item_rows`) and one item at a time.
Does not own: one item's rules and saved form (`game.rules.dropped_item`, whose names this module
re-exports), the motion rule (`physics.item_motion`), what drops (`game.rules.harvest`),
inventories (`give` is the session's) or drawing.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from physics import AABB, Body
from physics.floats import beta_sin, f32

from .dropped_item import (BLOCK_DROP_DELAY, MAX_AGE_TICKS, PLAYER_DROP_DELAY, SOUND_FIZZ, SOUND_POP,  # noqa: F401
                           SOUND_SPLASH, DroppedItem, DroppedItemStateError, ItemSound, from_block, from_entity, item_from_state,
                           item_state, offer, require_players, step_item, thrown, touches)
from .dropped_item_rows import ItemRows, KeptBodies
from .tick_changes import BodyDelta
from .items import ItemStack
from .saved_entities import DROPPED_ITEM, owned_by, save_by_column, stored_entries
from ..world.blocks import block_id
from ..world.coords import column_of

SPIN_TICKS_PER_RADIAN = 20.0
"""[ticks] A lying item turns one radian every 20 ticks (Beta's `RenderItem`: (age + alpha) / 20F + hover)."""
BOB_TICKS_PER_RADIAN = 10.0
"""[ticks] Its bob: sin((age + alpha) / 10F + hover) x 0.1F + 0.1F blocks above its box's bottom."""
BOB_HEIGHT = 0.1


@dataclass(frozen=True, slots=True)
class ItemView:
    """One item as drawn in a frame: blended between its last two ticks, spinning and bobbing as Beta's."""

    key: int
    item: str
    """The item's name."""
    block: int | None
    """The id of the block the item places (drawn as that block's cube); None: drawn as its picture."""
    count: int
    box: AABB
    """[blocks] Its box, blended."""
    spin: float
    """[degrees] Its turn about the vertical."""
    bob: float
    """[blocks] How far above the box's bottom it is drawn (0 .. 0.2)."""


def item_view(item: DroppedItem, alpha: float) -> ItemView:
    """`item` `alpha` (0..1) of the way from its previous tick to its latest (Beta's `RenderItem`)."""
    box = AABB._trusted(*(p + (c - p) * alpha for p, c in zip(item.previous, item.body.box)))
    time = item.age + alpha
    spin = f32(f32(f32(time / SPIN_TICKS_PER_RADIAN) + item.hover) * f32(57.295776))
    bob = f32(f32(beta_sin(f32(f32(time / BOB_TICKS_PER_RADIAN) + item.hover)) * f32(BOB_HEIGHT)) + f32(BOB_HEIGHT))
    places = item.stack.spec.places
    block = None if places is None else block_id(places)
    return ItemView(item.key, item.stack.item, block, item.stack.count, box, spin, bob)


VECTORISED_MIN_ITEMS = 4
"""Fewer live items than this step one by one even when vectorised: the arrays' tick costs about
0.5 ms however few it steps, one item's `step_item` about 0.12 (measured here: 1 item 0.51 against
0.12 ms, 4 items 0.54 against 0.55, 16 items 0.73 against 3.2)."""
_OWNS = owned_by(DROPPED_ITEM)


class DroppedItems:
    """The dropped items of one session: `spawn_from_block`, `throw`, `tick`, `bodies`, `take_sounds`,
    saved by column (`to_entries` / `restore`, or `save(world)` / `load(world)`).

    `seed`: seeds every item's own random numbers (with its key). `vectorised`: True (default;
    None is the same) steps, from VECTORISED_MIN_ITEMS items on, the items whose tick needs no
    random number and meets only air and full cubes on arrays (`game.rules.dropped_item_rows`), the rest with `step_item`; False steps
    each with `step_item`. The same items, bit for bit, either way."""

    def __init__(self, seed: int = 0, vectorised: bool | None = None) -> None:
        if vectorised is not None and not isinstance(vectorised, bool):
            raise TypeError(f"vectorised must be None, True or False, got {vectorised!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an int, got {seed!r}")
        self.seed = seed
        self.vectorised = True if vectorised is None else vectorised
        self.next_key = 0
        """The next item's key."""
        self.moved_on_arrays = 0
        """Items whose last tick was worked out on arrays."""
        self._rows = ItemRows.of([])
        self._live: list[DroppedItem] | None = []
        self._sounds: list[ItemSound] = []
        self._revision: int | None = None
        """The world's revision after the last tick (its cells changed since say which resting items
        must take their whole tick: `ItemRows.stepped`); None before the first."""
        self._bodies = KeptBodies.none()
        """The bodies `body_delta` last handed to the record, with the arrays they were made from."""
        self._stored_columns: set[tuple[int, int]] = set()
        self._unreadable: dict[tuple[int, int], list[dict]] = {}

    # --- reading ---------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._rows)

    @property
    def live(self) -> list[DroppedItem]:
        """The live items in tick order (a new list)."""
        if self._live is None:
            self._live = self._rows.items()
        return list(self._live)

    def _set_live(self, items: list[DroppedItem]) -> None:
        self._rows = ItemRows.of(items)
        self._live = items

    def bodies(self) -> dict[str, tuple[str, AABB, tuple[float, float, float]]]:
        """Every item's body: "item:<key>" -> ("item", box, velocity) (a new mapping)."""
        return self._rows.bodies()

    def body_delta(self) -> BodyDelta:
        """The items' bodies against the last call's, for the tick's record (`TickRecorder.record`):
        a lying item that did not move costs one array comparison, not a Python step (most items
        lie still). The first call lists every item as appeared."""
        self._bodies, changed, gone = self._rows.changes_since(self._bodies)
        return BodyDelta(tuple(changed), tuple(gone))

    def views(self, alpha: float) -> list[ItemView]:
        """Every live item as drawn `alpha` (0..1) of the way through the tick after its latest."""
        return [item_view(item, alpha) for item in self.live]

    def take_sounds(self) -> list[ItemSound]:
        """The sounds made since the last call, oldest first."""
        sounds, self._sounds = self._sounds, []
        return sounds

    # --- making items ----------------------------------------------------------------------------

    def spawn_from_block(self, cell: tuple[int, int, int], stack: ItemStack, rng) -> DroppedItem:
        """Drop `stack` from the block broken at `cell` (`from_block`); returns the new item."""
        return self._add(from_block(self.next_key, cell, stack, rng, self.seed))

    def drop_at(self, position: tuple[float, float, float], stack: ItemStack, rng,
                nudge: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> DroppedItem:
        """Drop `stack` from a creature at `position` (`from_entity`: its death drops, an egg, wool)."""
        return self._add(from_entity(self.next_key, position, stack, rng, self.seed, nudge))

    def throw(self, stack: ItemStack, from_body: Body, yaw: float, pitch: float, rng,
              scatter: bool = False) -> DroppedItem:
        """Drop `stack` from a player's body: Q (`scatter` False) or the death scatter (`thrown`)."""
        if not isinstance(scatter, bool):
            raise TypeError(f"scatter must be True or False, got {scatter!r}")
        return self._add(thrown(self.next_key, stack, from_body, yaw, pitch, rng, scatter, self.seed))

    def put_back(self, item: DroppedItem) -> None:
        """Make the live item with `item.key` this one, in its place in the tick order (a benchmark
        dropping a landed item again from its height); ValueError when no live item has that key."""
        rows = (self._rows.key == item.key).nonzero()[0]
        if not rows.size:
            raise ValueError(f"no live dropped item has the key {item.key}")
        self._rows.put(int(rows[0]), item)
        self._live = None

    def _add(self, item: DroppedItem) -> DroppedItem:
        self._rows = self._rows.joined(item)
        if self._live is not None:
            self._live.append(item)
        self.next_key += 1
        return item

    # --- the tick --------------------------------------------------------------------------------

    def tick(self, world, players_boxes: Mapping[str, AABB | None], give: Callable[[str, ItemStack], int]) -> None:
        """The items' part of a session tick: each living player picks up what it touches, then
        every item steps (module docstring). `players_boxes`: name -> box in join order (None: a
        dead player); `give(name, stack)` puts some of `stack` in that player's inventory and says
        how many. TypeError/ValueError for bad arguments, before anything changes."""
        living = require_players(players_boxes)
        if not callable(give):
            raise TypeError(f"give must be callable as give(player_name, stack) -> taken, got {give!r}")
        if living and len(self._rows):
            self._pick_up(living, give)
        if not len(self._rows):
            return
        if self.vectorised and len(self._rows) >= VECTORISED_MIN_ITEMS:
            changed = None if self._revision is None else world.cells_changed_since(self._revision)
            self._rows, sounds, self.moved_on_arrays = self._rows.stepped(world, changed)
            self._live = None
        else:
            self.moved_on_arrays = 0
            live, sounds = [], []
            for item in self.live:
                moved, made = step_item(item, world)
                sounds.extend(made)
                if moved is not None:
                    live.append(moved)
            self._set_live(live)
        self._sounds.extend(sounds)
        self._revision = world.revision

    def _pick_up(self, living: list[tuple[str, AABB]], give) -> None:
        """Each living player in turn is offered every item it touches (`offer`); only the rows
        touched are read as DroppedItems."""
        offered: dict[int, DroppedItem | None] = {}  # row -> the item after its offers (None: taken)
        for name, box in living:
            for row in self._rows.touched_by(box):
                item = offered[row] if row in offered else self._rows.item(row)
                if item is None:
                    continue
                after, sound = offer(item, name, give)
                offered[row] = after
                if sound is not None:
                    self._sounds.append(sound)
        changed = {row: item for row, item in offered.items() if item is None or item.stack != self._rows.stack[row]}
        if not changed:
            return
        keep = [row for row in range(len(self._rows)) if changed.get(row, True) is not None]
        for row, item in changed.items():
            if item is not None:
                self._rows.put(row, item)
        if len(keep) < len(self._rows):
            self._rows = self._rows.rows(keep)
        self._live = None

    # --- saving ------------------------------------------------------------------------------------

    def to_entries(self) -> dict[tuple[int, int], list[dict]]:
        """Every live item's saved state by the column its position is in, in tick order."""
        by_column: dict[tuple[int, int], list[dict]] = {}
        for order, item in enumerate(self.live):
            x, _, z = item.position
            by_column.setdefault(column_of(math.floor(x), math.floor(z)), []).append(item_state(item, order))
        return by_column

    def restore(self, entries: Iterable[dict]) -> None:
        """Bring back the items saved by `to_entries` (any columns' entries, any order), after the
        live ones, in their saved order. DroppedItemStateError for an entry that cannot be used,
        or a key that repeats a live or restored item's; nothing changes then."""
        restored = [item_from_state(state) for state in entries]
        keys = {item.key for item in self.live}
        for item, _ in restored:
            if item.key in keys:
                raise DroppedItemStateError(f"a saved dropped item's key {item.key} repeats another item's")
            keys.add(item.key)
        items = self.live + [item for item, _ in sorted(restored, key=lambda pair: pair[1])]
        self._set_live(items)
        if items:
            self.next_key = max(self.next_key, max(keys) + 1)

    def save(self, world) -> None:
        """Store every live item in its column's entity list (`World.set_column_entities`; only
        the dropped items' entries are replaced) and empty its entries in columns they left."""
        by_column = self.to_entries()
        save_by_column(world, _OWNS, by_column, self._stored_columns, self._unreadable)
        self._stored_columns = set(by_column)

    def load(self, world) -> None:
        """Restore every item saved in `world`'s columns. A saved item that cannot be used is
        kept in its column as it is, with a warning; one whose key repeats another's is dropped."""
        good: list[dict] = []
        keys = {item.key for item in self.live}
        for column, state in stored_entries(world, _OWNS):
            self._stored_columns.add(column)
            try:
                item, _ = item_from_state(state)
            except DroppedItemStateError as problem:
                self._unreadable.setdefault(column, []).append(state)
                warnings.warn(f"a dropped item saved in column {column} cannot be used and is kept as it is: "
                              f"{problem}", stacklevel=2)
                continue
            if item.key in keys:
                warnings.warn(f"a dropped item saved in column {column} repeats another's key and is dropped",
                              stacklevel=2)
                continue
            keys.add(item.key)
            good.append(state)
        self.restore(good)
