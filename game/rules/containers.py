"""The survival screens' click rules, headless: Beta 1.7.3's `Container.slotClick` over a screen's slots.

Owns: a screen as a list of `Slot`s onto stores (the player's inventory, a crafting grid, a
chest's or a furnace's slots), in Beta's slot numbers for each screen (`inventory_screen`,
`crafting_table_screen`, `chest_screen`, `furnace_screen`); the cursor stack (Beta's
`InventoryPlayer.itemStack`); a click (`Screen.click`): left picks a slot's stack up, places,
swaps or merges the cursor's; right picks up the larger half (Beta's `(n + 1) / 2`) or places one;
shift moves the stack between the player's inventory and the rest (Beta's `transferStackInSlot`
of each container, with `mergeItemStack`); a click outside the screen (OUTSIDE) throws the cursor's
stack (right: one item); the crafting result slot (the grid's `craft`, taken whole, one of each
ingredient used per take) and the furnace output slot (take only); closing (`Screen.close`: the
cursor's stack, then the grid's, to be dropped, as Beta's `onCraftGuiClosed`).
Does not own: the recipes (`game.rules.crafting.craft`), the inventory's own rules
(`game.rules.player_inventory`), what a furnace does with its slots (`game.rules.block_entities`),
dropping the stacks returned into the world (`game.rules.dropped_items`), when screens open (the
session) or drawing them (`game.window.ui.survival_screens`). Pure: no Ursina import.

Slot numbers (Beta's):
- inventory: 0 the 2x2 result, 1..4 the grid (row by row), 5..8 armour (takes nothing: no armour
  items yet), 9..35 the main inventory (player slots 9..35), 36..44 the hotbar (player 0..8);
- crafting table: 0 the result, 1..9 the 3x3 grid, 10..36 main, 37..45 hotbar;
- chest: 0..n-1 the chest (27, or 54 for a double chest), then main 27 and hotbar 9;
- furnace: 0 input, 1 fuel, 2 output, 3..29 main, 30..38 hotbar.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .items import ItemStack
from .player_inventory import HOTBAR_SLOTS, SLOT_COUNT, STACK_LIMIT, PlayerInventory, max_stack, same_kind, \
    stackable, with_count
from .saved_values import preview

OUTSIDE = -999
"""Beta's slot number for a click outside the screen's panel: it throws the cursor's stack."""
LEFT, RIGHT = "left", "right"
BUTTONS = (LEFT, RIGHT)
CHEST_SIZES = (27, 54)
"""A chest's slots, and a double chest's (two chests side by side)."""

# The roles a slot plays (Beta's Slot subclasses).
PLAIN = "plain"
"""Beta's `Slot`: holds anything, up to 64."""
RESULT = "result"
"""Beta's `SlotCrafting`: shows the grid's recipe; nothing goes in, a take is always the whole result
and uses one of each grid stack."""
OUTPUT = "output"
"""Beta's `SlotFurnace`: nothing goes in; taken as a plain slot."""
ARMOUR = "armour"
"""Beta's `SlotArmor`: holds only armour of its kind, which Boxel does not have: nothing goes in."""


class Store(Protocol):
    """Where a screen's slots keep their stacks: `PlayerInventory` is one, a `ListStore` another
    (a grid, or a chest's or furnace's slots copied in and back by the session)."""

    def __len__(self) -> int: ...
    def get(self, index: int) -> ItemStack | None: ...
    def set(self, index: int, stack: ItemStack | None) -> None: ...


class ListStore:
    """A fixed number of stacks (`ItemStack` or None) in a list."""

    def __init__(self, size_or_stacks: int | Sequence[ItemStack | None]) -> None:
        if isinstance(size_or_stacks, numbers.Integral) and not isinstance(size_or_stacks, bool):
            if size_or_stacks < 1:
                raise ValueError(f"a store has at least one slot, got {size_or_stacks}")
            stacks: list = [None] * int(size_or_stacks)
        elif isinstance(size_or_stacks, Sequence) and not isinstance(size_or_stacks, (str, bytes)):
            stacks = list(size_or_stacks)
        else:
            raise TypeError(f"a store is made from a size or a list of stacks, got {preview(size_or_stacks)}")
        for stack in stacks:
            _require_stack(stack)
        self._stacks = stacks

    def __len__(self) -> int:
        return len(self._stacks)

    @property
    def stacks(self) -> tuple[ItemStack | None, ...]:
        return tuple(self._stacks)

    def get(self, index: int) -> ItemStack | None:
        return self._stacks[index]

    def set(self, index: int, stack: ItemStack | None) -> None:
        _require_stack(stack)
        self._stacks[index] = stack


class CraftingGrid(ListStore):
    """A 2x2 or 3x3 crafting grid (row by row) and its result: `result()` is `craft` of the grid as
    it is now (Beta recomputes the result on every grid change; recipes ignore counts, so asking
    each time is the same)."""

    def __init__(self, width: int, craft: Callable | None = None) -> None:
        if width not in (2, 3):
            raise ValueError(f"a crafting grid is 2 or 3 wide, got {preview(width)}")
        super().__init__(width * width)
        self.width = width
        self._craft = craft

    def rows(self) -> tuple[tuple[ItemStack | None, ...], ...]:
        return tuple(tuple(self._stacks[r * self.width:(r + 1) * self.width]) for r in range(self.width))

    def result(self) -> ItemStack | None:
        craft = self._craft
        if craft is None:
            from .crafting import craft  # S1's module; imported late so the grid works without it in tests
        return craft(self.rows())

    def use_one_of_each(self) -> None:
        """Beta's `SlotCrafting.onPickupFromSlot`: one item less in every filled grid slot."""
        for index, stack in enumerate(self._stacks):
            if stack is not None:
                self._stacks[index] = with_count(stack, stack.count - 1)


class _ResultStore:
    """The one-slot store of a grid's result: reads the recipe; a write of None is a take (nothing
    else is ever written: the result slot takes nothing in)."""

    def __init__(self, grid: CraftingGrid) -> None:
        self.grid = grid

    def __len__(self) -> int:
        return 1

    def get(self, index: int) -> ItemStack | None:
        return self.grid.result()

    def set(self, index: int, stack: ItemStack | None) -> None:
        pass  # the result is always the grid's recipe; `Screen` uses the grid up when it is taken


@dataclass(frozen=True, slots=True)
class Slot:
    """One slot of a screen: stack `index` of `store`, playing `role`."""

    store: object
    index: int
    role: str = PLAIN


@dataclass(frozen=True, slots=True)
class ShiftRule:
    """Where a shift-click moves a stack (Beta's `transferStackInSlot`): from slots in [first, end)
    into [to_first, to_end), backwards when `reverse`. The first rule holding the slot applies."""

    first: int
    end: int
    to_first: int
    to_end: int
    reverse: bool = False


class Screen:
    """A screen's slots, its shift rules and the cursor stack; `click` and `close` change them."""

    def __init__(self, kind: str, slots: Sequence[Slot], shift_rules: Sequence[ShiftRule],
                 grid: CraftingGrid | None = None) -> None:
        self.kind = kind
        """"inventory", "crafting_table", "chest" or "furnace"."""
        self.slots = tuple(slots)
        self.shift_rules = tuple(shift_rules)
        self.grid = grid
        """The crafting grid, for the inventory and the crafting table (None for the others)."""
        self.cursor: ItemStack | None = None
        """The stack on the pointer (Beta's `InventoryPlayer.itemStack`), or None."""

    def __len__(self) -> int:
        return len(self.slots)

    def stack(self, slot: int) -> ItemStack | None:
        """What slot `slot` shows now."""
        entry = self.slots[slot]
        return entry.store.get(entry.index)

    def stacks(self) -> tuple[ItemStack | None, ...]:
        """What every slot shows now, slot 0 first (what a screen draws)."""
        return tuple(self.stack(k) for k in range(len(self.slots)))

    def _put(self, slot: int, stack: ItemStack | None) -> None:
        entry = self.slots[slot]
        entry.store.set(entry.index, stack)

    # --- clicks -----------------------------------------------------------------------------------

    def click(self, slot: int, button: str, shift: bool = False) -> tuple[ItemStack, ...]:
        """One click on `slot` (or OUTSIDE) with `button` ("left"/"right"), shift held or not, as
        Beta's `slotClick`; the stacks it throws out of the screen (to be dropped in front of the
        player). TypeError/ValueError, nothing changed, for a slot the screen lacks or a bad button."""
        if isinstance(slot, bool) or not isinstance(slot, numbers.Integral):
            raise TypeError(f"a slot is an integer, got {preview(slot)}")
        if slot != OUTSIDE and not 0 <= slot < len(self.slots):
            raise ValueError(f"this {self.kind} screen has slots 0..{len(self.slots) - 1} (or {OUTSIDE}), got {slot}")
        if button not in BUTTONS:
            raise ValueError(f"a button is one of {BUTTONS}, got {preview(button)}")
        if not isinstance(shift, bool):
            raise TypeError(f"shift is true or false, got {preview(shift)}")
        if slot == OUTSIDE:
            return self._throw(button)
        if shift:
            self._shift_click(int(slot))
        else:
            self._plain_click(int(slot), button)
        return ()

    def _throw(self, button: str) -> tuple[ItemStack, ...]:
        cursor = self.cursor
        if cursor is None:
            return ()
        if button == LEFT:
            self.cursor = None
            return (cursor,)
        self.cursor = with_count(cursor, cursor.count - 1)
        return (ItemStack(cursor.item, 1, cursor.damage),)

    def _plain_click(self, slot: int, button: str) -> None:
        role = self.slots[slot].role
        there, cursor = self.stack(slot), self.cursor
        if there is None:
            if cursor is not None and _accepts(role):
                moved = cursor.count if button == LEFT else 1
                moved = min(moved, STACK_LIMIT)
                self._put(slot, with_count(cursor, moved))
                self.cursor = with_count(cursor, cursor.count - moved)
        elif cursor is None:
            taken = there.count if button == LEFT or role == RESULT else (there.count + 1) // 2
            self._take(slot, there, taken)
            self.cursor = with_count(there, taken)
        elif _accepts(role):
            if not same_kind(there, cursor):
                if cursor.count <= STACK_LIMIT:  # Beta's swap, under the slot's stack limit
                    self._put(slot, cursor)
                    self.cursor = there
            else:
                moved = cursor.count if button == LEFT else 1
                moved = min(moved, STACK_LIMIT - there.count, max_stack(cursor) - there.count)
                if moved > 0:  # a full slot takes nothing (an overfull one, which no click makes, too)
                    self.cursor = with_count(cursor, cursor.count - moved)
                    self._put(slot, with_count(there, there.count + moved))
        elif same_kind(there, cursor) and max_stack(cursor) > 1:
            # a take-only slot (result, output, armour) onto a cursor of the same kind: all of it, if it fits
            if there.count + cursor.count <= max_stack(cursor):
                self.cursor = with_count(cursor, cursor.count + there.count)
                self._take(slot, there, there.count)

    def _take(self, slot: int, there: ItemStack, taken: int) -> None:
        """Take `taken` of `there` out of `slot`; a crafting result is taken whole and uses the grid."""
        if self.slots[slot].role == RESULT:
            self.grid.use_one_of_each()
        else:
            self._put(slot, with_count(there, there.count - taken))

    def _shift_click(self, slot: int) -> None:
        """Beta's shift branch: transfer, and again while the slot's stack shrank (once more at most
        for a plain slot; a crafting result shows the next craft whole, so it crafts once)."""
        while True:
            before = self.stack(slot)
            if before is None or not self._transfer(slot, before):
                return
            after = self.stack(slot)
            if after is None or after.count >= before.count:
                return

    def _transfer(self, slot: int, stack: ItemStack) -> bool:
        """Beta's `transferStackInSlot`: merge `stack` by the screen's shift rule; True when some moved."""
        rule = next((r for r in self.shift_rules if r.first <= slot < r.end), None)
        if rule is None:
            return False
        left = self._merge(stack, rule.to_first, rule.to_end, rule.reverse)
        if left == stack.count:
            return False
        self._take(slot, stack, stack.count - left)
        return True

    def _merge(self, stack: ItemStack, first: int, end: int, reverse: bool) -> int:
        """Beta's `mergeItemStack`: fill slots of the same kind (stackable only), then the first empty
        one, in order (backwards when `reverse`); the count left."""
        order = range(end - 1, first - 1, -1) if reverse else range(first, end)
        left = stack.count
        limit = max_stack(stack)
        if stackable(stack):
            for k in order:
                if left <= 0:
                    break
                there = self.stack(k)
                if there is not None and same_kind(there, stack):
                    if there.count + left <= limit:
                        self._put(k, with_count(there, there.count + left))
                        left = 0
                    elif there.count < limit:
                        left -= limit - there.count
                        self._put(k, with_count(there, limit))
        if left > 0:
            for k in order:
                if self.stack(k) is None:
                    self._put(k, with_count(stack, left))
                    return 0
        return left

    # --- closing ----------------------------------------------------------------------------------

    def close(self) -> tuple[ItemStack, ...]:
        """Beta's `onCraftGuiClosed`: the cursor's stack, then each crafting grid stack, emptied and
        returned (to be dropped in front of the player)."""
        dropped = [] if self.cursor is None else [self.cursor]
        self.cursor = None
        if self.grid is not None:
            for index in range(len(self.grid)):
                stack = self.grid.get(index)
                if stack is not None:
                    dropped.append(stack)
                    self.grid.set(index, None)
        return tuple(dropped)


def _accepts(role: str) -> bool:
    """Beta's `Slot.isItemValid` for the items Boxel has."""
    return role == PLAIN


def _player_slots(inventory: PlayerInventory) -> list[Slot]:
    """The player's 36 slots as a screen shows them: the main 27 (player 9..35), then the hotbar (0..8)."""
    return ([Slot(inventory, k) for k in range(HOTBAR_SLOTS, SLOT_COUNT)]
            + [Slot(inventory, k) for k in range(HOTBAR_SLOTS)])


def _player_rules(first: int) -> list[ShiftRule]:
    """Beta's rules for a screen whose player slots start at `first`: main -> hotbar, hotbar -> main."""
    main_end, hotbar_end = first + SLOT_COUNT - HOTBAR_SLOTS, first + SLOT_COUNT
    return [ShiftRule(first, main_end, main_end, hotbar_end), ShiftRule(main_end, hotbar_end, first, main_end)]


def _crafting(kind: str, inventory: PlayerInventory, width: int, craft: Callable | None,
              armour: int) -> Screen:
    grid = CraftingGrid(width, craft)
    slots = [Slot(_ResultStore(grid), 0, RESULT)] + [Slot(grid, k) for k in range(width * width)]
    slots += [Slot(ListStore(1), 0, ARMOUR) for _ in range(armour)]
    first = len(slots)
    slots += _player_slots(inventory)
    end = first + SLOT_COUNT
    rules = [ShiftRule(0, 1, first, end, reverse=True), *_player_rules(first), ShiftRule(1, first, first, end)]
    return Screen(kind, slots, rules, grid)


def inventory_screen(inventory: PlayerInventory, craft: Callable | None = None) -> Screen:
    """The inventory (E): Beta's `ContainerPlayer`, with its 2x2 grid and four armour slots."""
    return _crafting("inventory", inventory, 2, craft, armour=4)


def crafting_table_screen(inventory: PlayerInventory, craft: Callable | None = None) -> Screen:
    """A crafting table's screen: Beta's `ContainerWorkbench`, with its 3x3 grid."""
    return _crafting("crafting_table", inventory, 3, craft, armour=0)


def chest_screen(inventory: PlayerInventory, chest: Store) -> Screen:
    """A chest's screen (Beta's `ContainerChest`) on `chest`'s 27 (or, double, 54) slots:
    shift-click moves a chest stack to the player, filling from the hotbar's end, and a player
    stack into the chest."""
    size = len(chest)
    if size not in CHEST_SIZES:
        raise ValueError(f"a chest has {CHEST_SIZES[0]} or {CHEST_SIZES[1]} slots, got {size}")
    slots = [Slot(chest, k) for k in range(size)] + _player_slots(inventory)
    end = size + SLOT_COUNT
    return Screen("chest", slots, [ShiftRule(0, size, size, end, reverse=True), ShiftRule(size, end, 0, size)])


FURNACE_INPUT, FURNACE_FUEL, FURNACE_OUTPUT = 0, 1, 2
"""A furnace's slots in its store and on its screen (Beta's `TileEntityFurnace` order)."""


def furnace_screen(inventory: PlayerInventory, furnace: Store) -> Screen:
    """A furnace's screen (Beta's `ContainerFurnace`) on `furnace`'s three slots (input, fuel,
    output). Beta 1.7.3's shift-click never fills the furnace: a player stack moves between the
    main inventory and the hotbar; a furnace stack moves to the player, from the hotbar's end."""
    if len(furnace) != 3:
        raise ValueError(f"a furnace has 3 slots (input, fuel, output), got {len(furnace)}")
    slots = [Slot(furnace, FURNACE_INPUT), Slot(furnace, FURNACE_FUEL), Slot(furnace, FURNACE_OUTPUT, OUTPUT)]
    slots += _player_slots(inventory)
    end = 3 + SLOT_COUNT
    rules = [ShiftRule(2, 3, 3, end, reverse=True), *_player_rules(3), ShiftRule(0, 2, 3, end)]
    return Screen("furnace", slots, rules)


def _require_stack(stack: object) -> None:
    if stack is not None and not isinstance(stack, ItemStack):
        raise TypeError(f"a slot holds an ItemStack or None, got {preview(stack)}")
