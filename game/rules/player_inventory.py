"""A survival player's inventory: Beta 1.7.3's `InventoryPlayer` main inventory, 36 stacks with counts.

Owns: the 36 slots in Beta's order (0..8 the hotbar, 9..35 the main 27, three rows of nine, top
row first), the selected hotbar slot, taking a stack in (`add`: Beta's `addItemStackToInventory`,
`storeItemStack` then `getFirstEmptyStack`), the held stack and what using it does (`take_held`,
Beta's `decrStackSize(currentItem, n)`; `wear_held`, Beta's `ItemStack.damageItem`), putting a
stack in a slot (`set`, what a screen's click does through `game.rules.containers`), emptying it
(`drop_all`, death) and its saved form (`to_state`/`from_state`, with a damaged save refused by
`PlayerInventoryStateError`) and the report's form (`report_slots`).
Does not own: the item registry and stack sizes (`game.rules.items`), the screens' click rules and
the cursor stack (`game.rules.containers`), armour (Beta's four armour slots: Boxel has no armour
items yet), dropping stacks into the world (`game.rules.dropped_items`) or the creative hotbar
(`game.rules.hotbar`, which creative keeps). Pure: no Ursina import.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

from .items import ItemStack, item_spec
from .saved_values import preview

SLOT_COUNT = 36
"""Beta's `mainInventory` length: the hotbar's 9 and the main 27."""
HOTBAR_SLOTS = 9
"""Slots 0..8 are the hotbar (the number keys 1..9 select them)."""
STACK_LIMIT = 64
"""Beta's `InventoryPlayer.getInventoryStackLimit()`: no slot holds more, whatever the item."""


class PlayerInventoryStateError(ValueError):
    """A saved inventory that cannot be used (wrong shape, unknown item, bad count or damage)."""


def stackable(stack: ItemStack) -> bool:
    """Beta's `ItemStack.isStackable()`: a stack size over 1, and not a worn tool."""
    spec = item_spec(stack.item)
    return spec.max_stack > 1 and not (spec.max_damage > 0 and stack.damage > 0)


def same_kind(a: ItemStack, b: ItemStack) -> bool:
    """Whether two stacks may merge: the same item with the same damage (Beta compares the item id,
    and the damage of items with subtypes; Boxel's items with damage are tools, which never stack)."""
    return a.item == b.item and a.damage == b.damage


def max_stack(stack: ItemStack) -> int:
    """The most of `stack`'s item one slot holds: the item's stack size, never above STACK_LIMIT."""
    return min(item_spec(stack.item).max_stack, STACK_LIMIT)


def with_count(stack: ItemStack, count: int) -> ItemStack | None:
    """`stack` with `count` items, or None for none left (a slot's empty value)."""
    return None if count <= 0 else ItemStack(stack.item, count, stack.damage)


class PlayerInventory:
    """36 stacks (`ItemStack` or None) and the selected hotbar slot (0..8)."""

    def __init__(self, slots: Sequence[ItemStack | None] | None = None, selected: int = 0) -> None:
        """An empty inventory, or `slots` (36 stacks or None). TypeError/ValueError otherwise."""
        if slots is None:
            slots = (None,) * SLOT_COUNT
        if isinstance(slots, (str, bytes)) or not isinstance(slots, Sequence) or len(slots) != SLOT_COUNT:
            raise ValueError(f"an inventory has {SLOT_COUNT} slots, got {preview(slots)}")
        for stack in slots:
            _require_stack(stack)
        self._slots: list[ItemStack | None] = list(slots)
        self._selected = 0
        self.select(selected)

    # --- reading ----------------------------------------------------------------------------------

    @property
    def slots(self) -> tuple[ItemStack | None, ...]:
        """Every slot, slot 0 first (0..8 the hotbar, 9..35 the main inventory)."""
        return tuple(self._slots)

    @property
    def selected(self) -> int:
        """The selected hotbar slot, 0..8."""
        return self._selected

    def __len__(self) -> int:
        return SLOT_COUNT

    def get(self, slot: int) -> ItemStack | None:
        """The stack in `slot` (0..35), or None."""
        return self._slots[_slot_index(slot, SLOT_COUNT)]

    def held(self) -> ItemStack | None:
        """The stack in the selected hotbar slot (what right click uses, what digs), or None."""
        return self._slots[self._selected]

    def count(self, item: str) -> int:
        """How many of `item` the inventory holds, all slots together."""
        return sum(stack.count for stack in self._slots if stack is not None and stack.item == item)

    # --- changing ---------------------------------------------------------------------------------

    def select(self, index: int) -> None:
        """Select hotbar slot `index` (0..8). TypeError/ValueError otherwise."""
        self._selected = _slot_index(index, HOTBAR_SLOTS)

    def scroll(self, steps: int) -> None:
        """Move the selection by `steps` slots (positive: right), wrapping at the ends."""
        if isinstance(steps, bool) or not isinstance(steps, numbers.Integral):
            raise TypeError(f"scroll steps are an integer, got {preview(steps)}")
        self._selected = (self._selected + int(steps)) % HOTBAR_SLOTS

    def set(self, slot: int, stack: ItemStack | None) -> None:
        """Put `stack` (or None: empty) in `slot`, replacing what was there. TypeError/ValueError,
        nothing changed, for a slot that is not 0..35 or a value that is not a stack."""
        index = _slot_index(slot, SLOT_COUNT)
        _require_stack(stack)
        self._slots[index] = stack

    def add(self, stack: ItemStack) -> int:
        """Take in as much of `stack` as fits, as Beta's `addItemStackToInventory`; returns how many
        it took (0..stack.count). A worn tool goes whole into the first empty slot or not at all;
        anything else fills, hotbar first, the first slot of its kind with room, then the first
        empty slot, again while that took something and some is left."""
        if not isinstance(stack, ItemStack):
            raise TypeError(f"add needs an ItemStack, got {preview(stack)}")
        if item_spec(stack.item).max_damage > 0 and stack.damage > 0:  # Beta's isItemDamaged()
            empty = self._first_empty()
            if empty < 0:
                return 0
            self._slots[empty] = stack
            return stack.count
        left = stack.count
        while True:
            before = left
            left = self._store_partial(stack, left)
            if not (0 < left < before):
                return stack.count - left

    def _store_partial(self, stack: ItemStack, count: int) -> int:
        """Beta's `storePartialItemStack`: put what fits of `count` of `stack` in one slot; the
        count left."""
        slot = self._store_slot(stack)
        if slot < 0:
            slot = self._first_empty()
        if slot < 0:
            return count
        there = self._slots[slot]
        have = 0 if there is None else there.count
        moved = min(count, max_stack(stack) - have, STACK_LIMIT - have)
        if moved <= 0:
            return count
        self._slots[slot] = ItemStack(stack.item, have + moved, stack.damage)
        return count - moved

    def _store_slot(self, stack: ItemStack) -> int:
        """Beta's `storeItemStack`: the first slot holding `stack`'s kind, stackable, with room; -1 for none."""
        for index, there in enumerate(self._slots):
            if (there is not None and same_kind(there, stack) and stackable(there)
                    and there.count < max_stack(there) and there.count < STACK_LIMIT):
                return index
        return -1

    def _first_empty(self) -> int:
        """Beta's `getFirstEmptyStack`: the first empty slot, -1 for none."""
        for index, there in enumerate(self._slots):
            if there is None:
                return index
        return -1

    def take(self, slot: int, count: int = 1) -> ItemStack | None:
        """Take up to `count` items out of `slot` (Beta's `decrStackSize`): the stack taken, or None
        when the slot was empty. TypeError/ValueError, nothing changed, unless count >= 1."""
        index = _slot_index(slot, SLOT_COUNT)
        if isinstance(count, bool) or not isinstance(count, numbers.Integral):
            raise TypeError(f"a count is an integer, got {preview(count)}")
        if count < 1:
            raise ValueError(f"take at least one item, got {count}")
        there = self._slots[index]
        if there is None:
            return None
        taken = min(int(count), there.count)
        self._slots[index] = with_count(there, there.count - taken)
        return ItemStack(there.item, taken, there.damage)

    def take_held(self, count: int = 1) -> ItemStack | None:
        """Take up to `count` items out of the held stack (a block placed, food eaten, Q): the
        stack taken, or None when nothing is held."""
        return self.take(self._selected, count)

    def wear_held(self, points: int) -> bool:
        """Wear the held tool by `points` (Beta's `damageItem`): its damage grows, and once it is
        above the item's max_damage the tool breaks (the slot empties). True when it broke. Items
        without durability, and an empty hand, are not worn."""
        if isinstance(points, bool) or not isinstance(points, numbers.Integral):
            raise TypeError(f"wear points are an integer, got {preview(points)}")
        if points < 0:
            raise ValueError(f"wear points are >= 0, got {points}")
        held = self.held()
        if held is None:
            return False
        limit = item_spec(held.item).max_damage
        if limit <= 0:
            return False
        damage = held.damage + int(points)
        if damage > limit:
            self._slots[self._selected] = with_count(held, held.count - 1)
            return True
        self._slots[self._selected] = ItemStack(held.item, held.count, damage)
        return False

    def drop_all(self) -> tuple[ItemStack, ...]:
        """Empty every slot (death: Beta's `dropAllItems`); the stacks, slot 0 first."""
        stacks = tuple(stack for stack in self._slots if stack is not None)
        self._slots = [None] * SLOT_COUNT
        return stacks

    # --- saved and reported forms -----------------------------------------------------------------

    def report_slots(self) -> list:
        """The run report's `inventory`: 36 entries, hotbar first, each None or [item, count]."""
        return [None if stack is None else [stack.item, stack.count] for stack in self._slots]

    def to_state(self) -> dict:
        """JSON values: {"slots": 36 entries, each null or [item, count, damage], "selected": index}."""
        return {"slots": [None if s is None else [s.item, s.count, s.damage] for s in self._slots],
                "selected": self._selected}

    @classmethod
    def from_state(cls, state: object) -> PlayerInventory:
        """The inventory `to_state` described; PlayerInventoryStateError naming what is wrong otherwise."""
        if not isinstance(state, dict) or set(state) != {"slots", "selected"}:
            raise PlayerInventoryStateError(
                f"an inventory state is a dict with exactly 'slots' and 'selected', got {preview(state)}")
        slots = state["slots"]
        if not isinstance(slots, list) or len(slots) != SLOT_COUNT:
            raise PlayerInventoryStateError(f"an inventory state has {SLOT_COUNT} slots, got {preview(slots)}")
        stacks = [stack_from_json(entry, f"slot {k}", PlayerInventoryStateError) for k, entry in enumerate(slots)]
        try:
            return cls(stacks, state["selected"])
        except (TypeError, ValueError) as error:
            raise PlayerInventoryStateError(f"unusable inventory state: {error}") from None

    def __repr__(self) -> str:
        filled = {k: (s.item, s.count) for k, s in enumerate(self._slots) if s is not None}
        return f"PlayerInventory({filled!r}, selected={self._selected})"


def stack_from_json(entry: object, where: str, error: type[Exception]) -> ItemStack | None:
    """A stack saved as null or [item, count, damage]; `error` naming `where` otherwise (also for
    stacks an item forbids: a count above its stack size, damage on an item without durability)."""
    if entry is None:
        return None
    if (not isinstance(entry, list) or len(entry) != 3 or not isinstance(entry[0], str)
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in entry[1:])):
        raise error(f"{where} must be null or [item, count, damage], got {preview(entry)}")
    try:
        stack = ItemStack(*entry)
        spec = item_spec(stack.item)
    except (TypeError, ValueError) as problem:
        raise error(f"{where} cannot be used: {problem}") from None
    if stack.count > min(spec.max_stack, STACK_LIMIT):
        raise error(f"{where} holds {stack.count} {stack.item}, more than its stack size {spec.max_stack}")
    if stack.damage > spec.max_damage:
        raise error(f"{where}: {stack.item} damage {stack.damage} is above its max_damage {spec.max_damage}")
    return stack


def _slot_index(index: object, count: int) -> int:
    if isinstance(index, bool) or not isinstance(index, numbers.Integral):
        raise TypeError(f"a slot index is an integer, got {preview(index)}")
    if not 0 <= index < count:
        raise ValueError(f"slot index must be 0..{count - 1}, got {index}")
    return int(index)


def _require_stack(stack: object) -> None:
    if stack is not None and not isinstance(stack, ItemStack):
        raise TypeError(f"a slot holds an ItemStack or None, got {preview(stack)}")
