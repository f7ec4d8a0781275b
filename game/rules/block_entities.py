"""Furnaces and chests: Beta 1.7.3's `TileEntityFurnace` and `TileEntityChest`, by cell, saved with
their columns.

Owns: the value types `Furnace` (3 slots: input, fuel, output; `burn_time`, `current_item_burn_time`,
`cook_time`; `step` is Beta's `updateEntity` less the block swap) and `Chest` (27 slots);
`BlockEntities`, which a session holds: every furnace and chest by cell, made when its block is
placed (`on_block_placed`) or first asked about, emptied when it is removed (`on_block_removed`
returns what it held), ticked (`tick`: furnaces whose column is loaded burn and cook and swap
their block furnace_<f> <-> lit_furnace_<f>), the double chest (`chest_cells`, `chest_slots`),
a screen's live view of the slots (`store`, a `SlotStore`), and saving with the columns (`save`,
restored by a new `BlockEntities` on the same world); Beta's rule for opening a chest
(`chest_opens`); a block entity's saved form (`block_entity_state`, `block_entity_from_state`).
Pure: no Ursina. Does not own: what smelts and what burns (`game.rules.smelting`), the items
(`game.rules.items`), clicking slots and the screens (`game.rules.containers`, the window), which
way a placed furnace faces and where a chest may go (`game.rules.placement_rules`), spawning the
dropped stacks (`game.rules.dropped_items`), or the column entity list shared with mobs, falling
blocks and projectiles (`game.rules.saved_entities`).

Beta's order in one furnace tick (`TileEntityFurnace.updateEntity`):
1. lit_before = burn_time > 0; a burning furnace loses one tick of burn_time;
2. if burn_time is 0 and the input can smelt: current_item_burn_time = burn_time = the fuel
   slot's burn ticks (0 without fuel); if that is > 0, one fuel item is used up;
3. if it burns and the input can smelt, cook_time + 1, and at COOK_TICKS (200) it is 0 again and
   one input item becomes its result in the output slot; otherwise cook_time is 0;
4. if lit_before differs from burn_time > 0, the block swaps to lit_furnace_<f> / furnace_<f>
   (Beta's `BlockFurnace.updateFurnaceBlockState`): the swap is not a removal, the furnace keeps
   its contents (call `on_block_removed` only when the block is taken away).
"Can smelt" (Beta's `canSmelt`): the input has a result and the output is empty, or holds that
result with fewer than its stack size. So coal (1600 ticks) cooks 8 items, one every 200 ticks.

A double chest (Beta's `InventoryLargeChest`, as `BlockChest.blockActivated` builds it): a chest
beside this one at -x or -z comes first, one at +x or +z second. Beta's placement rule
(`game.rules.placement_rules`) never lets a chest have two chests beside it; where a world holds
such a row all the same (built before the rule, or by other means), the first chest beside it in
Beta's order (-x, +x, -z, +z) pairs with it, so a view is always 27 or 54 slots (Beta would nest
them into 81 or more, which no screen shows).

Saving: `save()` writes each block entity into the entity list of its cell's column (entries of
kind `saved_entities.BLOCK_ENTITY`, only this kind's replaced), for the columns whose block
entities changed since the last save. A saved entry that cannot be used (any JSON value at all,
however damaged: `BlockEntityStateError` names the field) is kept in its column as it was, with a
warning, and the others come back; a second entry for a cell already restored is dropped with a
warning. A furnace saved mid-smelt goes on exactly where it stopped (Beta re-derives
current_item_burn_time from the fuel slot on loading; here it is saved, so the flame's scale too).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace

from ..world.blocks import block_id
from ..world.coords import WORLD_BORDER, WORLD_HEIGHT, column_of
from ..world.support import NORMAL_CUBE
from .game_world import GameWorld, StreamedWorld
from .items import ItemStack
from .saved_entities import (BLOCK_ENTITY, MAX_WHOLE_NUMBER, owned_by, read_entity, replace_own, stored_entries,
                             whole_number)
from .saved_values import preview
from .smelting import COOK_TICKS, fuel_ticks, smelt_result

Cell = tuple[int, int, int]
Slots = tuple[ItemStack | None, ...]

INPUT, FUEL, OUTPUT = range(3)
"""A furnace's slots (Beta's furnaceItemStacks 0, 1, 2)."""
FURNACE_SLOTS = 3
CHEST_SLOTS = 27
"""Slots in one chest (Beta's `TileEntityChest`: 3 rows of 9)."""
STACK_LIMIT = 64
"""Most items a furnace or chest slot holds (Beta's `getInventoryStackLimit`)."""
MAX_BURN_TICKS = 32767
"""[ticks] Largest saved burn time: Beta writes it as a short (the longest fuel, coal, is 1600)."""
FACINGS = ("north", "south", "east", "west")
FURNACE_FACING = {f"furnace_{facing}": facing for facing in FACINGS}
"""Unlit furnace block -> the way its front faces."""
LIT_FURNACE_FACING = {f"lit_furnace_{facing}": facing for facing in FACINGS}
"""Lit furnace block -> the way its front faces."""
CHEST_BLOCK = "chest"
FURNACE, CHEST = "furnace", "chest"
"""A saved block entity's "type"."""
STATE_VERSION = 1
"""Written into each saved block entity, so a later format can tell old ones apart."""
_OWNS = owned_by(BLOCK_ENTITY)
_SIDES = ((-1, 0, True), (1, 0, False), (0, -1, True), (0, 1, False))
"""Beta's `blockActivated` order of a chest's neighbours (dx, dz, whether that chest goes first)."""


class BlockEntityStateError(ValueError):
    """A saved furnace or chest that cannot be used; the message names the field."""


def is_furnace_block(block: str) -> bool:
    """Whether `block` (a name) is a furnace, lit or not."""
    return block in FURNACE_FACING or block in LIT_FURNACE_FACING


def _check_stack(stack: object, what: str) -> ItemStack | None:
    if stack is not None and not isinstance(stack, ItemStack):
        raise TypeError(f"{what} holds an ItemStack or None, got {type(stack).__name__}")
    return stack


def _less(stack: ItemStack) -> ItemStack | None:
    """One fewer of `stack` (None when it was the last)."""
    return None if stack.count == 1 else stack.with_count(stack.count - 1)


# --- the value types ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Furnace:
    """One furnace (Beta's `TileEntityFurnace`): its three slots and its fire."""

    input: ItemStack | None = None
    fuel: ItemStack | None = None
    output: ItemStack | None = None
    burn_time: int = 0
    """[ticks] Left of the fuel burning now (Beta's furnaceBurnTime); lit while > 0."""
    current_item_burn_time: int = 0
    """[ticks] What the fuel burning now gave (Beta's currentItemBurnTime: the flame's scale)."""
    cook_time: int = 0
    """[ticks] How long the input has cooked, 0..COOK_TICKS - 1 (Beta's furnaceCookTime)."""

    def __post_init__(self) -> None:
        # The usual case checked in one expression (a burning furnace makes one of these a tick);
        # `_refuse` says what is wrong otherwise.
        if not ((self.input is None or type(self.input) is ItemStack)
                and (self.fuel is None or type(self.fuel) is ItemStack)
                and (self.output is None or type(self.output) is ItemStack)
                and type(self.burn_time) is int and 0 <= self.burn_time <= MAX_BURN_TICKS
                and type(self.current_item_burn_time) is int and 0 <= self.current_item_burn_time <= MAX_BURN_TICKS
                and type(self.cook_time) is int and 0 <= self.cook_time < COOK_TICKS):
            self._refuse()

    def _refuse(self) -> None:
        """TypeError or ValueError naming the field that is not a furnace's."""
        for name in ("input", "fuel", "output"):
            _check_stack(getattr(self, name), f"a furnace's {name}")
        for name, largest in (("burn_time", MAX_BURN_TICKS), ("current_item_burn_time", MAX_BURN_TICKS),
                              ("cook_time", COOK_TICKS - 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"a furnace's {name} is an int, got {value!r}")
            if not 0 <= value <= largest:
                raise ValueError(f"a furnace's {name} is 0..{largest}, got {value}")

    @property
    def slots(self) -> Slots:
        """(input, fuel, output)."""
        return (self.input, self.fuel, self.output)

    @property
    def lit(self) -> bool:
        """Whether it burns (Beta's `isBurning`): its block is lit_furnace_<f>."""
        return self.burn_time > 0

    def with_slot(self, index: int, stack: ItemStack | None) -> Furnace:
        """This furnace with slot `index` (INPUT, FUEL or OUTPUT) holding `stack`."""
        name = ("input", "fuel", "output")[_slot_index(index, FURNACE_SLOTS)]
        return replace(self, **{name: _check_stack(stack, "a furnace slot")})

    def can_smelt(self) -> bool:
        """Beta's `canSmelt`: the input has a result that fits in the output slot."""
        if self.input is None:
            return False
        result = smelt_result(self.input.item)
        if result is None:
            return False
        output = self.output
        if output is None:
            return True
        if output.item != result.item or output.damage != result.damage:  # Beta's isItemEqual
            return False
        if output.count < STACK_LIMIT and output.count < output.spec.max_stack:
            return True
        return output.count < result.spec.max_stack

    def step(self) -> Furnace:
        """One tick: Beta's `updateEntity` (module docstring) but the block swap, which the caller
        does when `lit` changed. Returns itself when nothing changed (an idle furnace).
        "Can smelt" reads only the input and output, which nothing before the cooking changes, so
        it is asked once."""
        smeltable = self.can_smelt()
        burn, current, cook, fuel = self.burn_time, self.current_item_burn_time, self.cook_time, self.fuel
        if burn == 0 and cook == 0 and not smeltable:
            return self  # Beta's tick changes nothing here
        if burn > 0:
            burn -= 1
        if burn == 0 and smeltable:
            burn = current = 0 if fuel is None else fuel_ticks(fuel.item)
            if burn > 0 and fuel is not None:
                fuel = _less(fuel)
        if burn > 0 and smeltable:
            cook += 1
            if cook == COOK_TICKS:
                return Furnace(self.input, fuel, self.output, burn, current, 0)._smelt_item()
        else:
            cook = 0
        return Furnace(self.input, fuel, self.output, burn, current, cook)

    def _smelt_item(self) -> Furnace:
        """Beta's `smeltItem`: one input item becomes its result in the output slot."""
        if not self.can_smelt():
            return self
        result = smelt_result(self.input.item)
        output = self.output
        if output is None:
            output = result
        elif output.item == result.item:
            output = output.with_count(output.count + 1)
        return replace(self, input=_less(self.input), output=output)

    def cook_progress(self, scale: int) -> int:
        """The arrow's length out of `scale` (Beta's `getCookProgressScaled`)."""
        return self.cook_time * scale // COOK_TICKS

    def burn_left(self, scale: int) -> int:
        """The flame's height out of `scale` (Beta's `getBurnTimeRemainingScaled`: a fuel of 0 reads as 200)."""
        return self.burn_time * scale // (self.current_item_burn_time or COOK_TICKS)


@dataclass(frozen=True, slots=True)
class Chest:
    """One chest (Beta's `TileEntityChest`): 27 slots, in rows of 9 from the top left."""

    slots: Slots = (None,) * CHEST_SLOTS

    def __post_init__(self) -> None:
        if not isinstance(self.slots, tuple) or len(self.slots) != CHEST_SLOTS:
            raise ValueError(f"a chest has a tuple of {CHEST_SLOTS} slots, got {preview(self.slots)}")
        for stack in self.slots:
            _check_stack(stack, "a chest slot")

    def with_slot(self, index: int, stack: ItemStack | None) -> Chest:
        """This chest with slot `index` (0..26) holding `stack`."""
        index = _slot_index(index, CHEST_SLOTS)
        slots = list(self.slots)
        slots[index] = _check_stack(stack, "a chest slot")
        return Chest(tuple(slots))


BlockEntity = Furnace | Chest


def _slot_index(index: object, size: int) -> int:
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(f"a slot index is an int, got {index!r}")
    if not 0 <= index < size:
        raise ValueError(f"slot index {index} is outside 0..{size - 1}")
    return index


def _check_cell(cell: object) -> Cell:
    if (not isinstance(cell, tuple) or len(cell) != 3
            or any(isinstance(v, bool) or not isinstance(v, int) for v in cell)):
        raise TypeError(f"a cell is a tuple of 3 ints, got {preview(cell)}")
    x, y, z = cell
    if not (-WORLD_BORDER <= x < WORLD_BORDER and -WORLD_BORDER <= z < WORLD_BORDER and 0 <= y < WORLD_HEIGHT):
        raise ValueError(f"cell {cell} is outside the world")
    return cell


def _entity_for(block: str) -> BlockEntity | None:
    """A new block entity for `block` (Beta's `BlockContainer.getBlockEntity`), None for other blocks."""
    if is_furnace_block(block):
        return Furnace()
    return Chest() if block == CHEST_BLOCK else None


# --- Beta's chest rules ---------------------------------------------------------------------------

def _is_normal_cube(world: GameWorld, x: int, y: int, z: int) -> bool:
    """Beta's `isBlockNormalCube`: an opaque full cube (no chest opens under one)."""
    return 0 <= y < WORLD_HEIGHT and bool(NORMAL_CUBE[block_id(world.get_block(x, y, z))])


def _neighbour_chests(world: GameWorld, cell: Cell) -> list[Cell]:
    x, y, z = cell
    return [(x + dx, y, z + dz) for dx, dz, _ in _SIDES if world.get_block(x + dx, y, z + dz) == CHEST_BLOCK]


def chest_opens(world: GameWorld, cell: Cell) -> bool:
    """Beta's `BlockChest.blockActivated` checks: no opaque full cube above the chest, nor above the
    chest beside it."""
    chests = [_check_cell(cell), *_neighbour_chests(world, cell)]
    return not any(_is_normal_cube(world, x, y + 1, z) for x, y, z in chests)


# --- the saved form -------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SavedBlockEntity:
    """A block entity read back from its column's entity list."""

    cell: Cell
    entity: BlockEntity
    serial: int
    """Its place in the tick order (made earlier: lower)."""


def _stack_state(stack: ItemStack | None) -> list | None:
    return None if stack is None else [stack.item, stack.count, stack.damage]


def block_entity_state(cell: Cell, entity: BlockEntity, serial: int = 0) -> dict:
    """A furnace or chest at `cell` as JSON values for its column's entity list."""
    state = {"kind": BLOCK_ENTITY, "version": STATE_VERSION, "type": FURNACE if isinstance(entity, Furnace) else CHEST,
             "cell": list(cell), "serial": serial, "slots": [_stack_state(stack) for stack in entity.slots]}
    if isinstance(entity, Furnace):
        state.update(burn_time=entity.burn_time, current_item_burn_time=entity.current_item_burn_time,
                     cook_time=entity.cook_time)
    return state


def block_entity_from_state(state: object) -> SavedBlockEntity:
    """The furnace or chest saved by `block_entity_state`; BlockEntityStateError naming the field
    when it cannot be used (any value at all, however damaged, gives one or the other)."""
    return read_entity(_from_state, state, "a saved block entity", BlockEntityStateError)


_OWNER, _ERROR = "a saved block entity", BlockEntityStateError


def _from_state(state: object) -> SavedBlockEntity:
    if not isinstance(state, dict):
        raise _ERROR(f"{_OWNER} must be an object, got {type(state).__name__}")
    if state.get("kind") != BLOCK_ENTITY or state.get("version") != STATE_VERSION:
        raise _ERROR(f"{_OWNER} has kind {preview(state.get('kind'))} and version {preview(state.get('version'))}; "
                     f"this game reads kind {BLOCK_ENTITY!r} version {STATE_VERSION}")
    kind = state.get("type")
    if kind not in (FURNACE, CHEST):
        raise _ERROR(f"{_OWNER}'s 'type' must be {FURNACE!r} or {CHEST!r}, got {preview(kind)}")
    cell = _saved_cell(state.get("cell"))
    serial = whole_number(state, "serial", MAX_WHOLE_NUMBER, _OWNER, _ERROR)
    slots = _saved_slots(state.get("slots"), FURNACE_SLOTS if kind == FURNACE else CHEST_SLOTS)
    if kind == CHEST:
        return SavedBlockEntity(cell, Chest(slots), serial)
    fire = {name: whole_number(state, name, largest, _OWNER, _ERROR)
            for name, largest in (("burn_time", MAX_BURN_TICKS), ("current_item_burn_time", MAX_BURN_TICKS),
                                  ("cook_time", COOK_TICKS - 1))}
    return SavedBlockEntity(cell, Furnace(*slots, **fire), serial)


def _saved_cell(value: object) -> Cell:
    if not isinstance(value, list) or len(value) != 3:
        raise _ERROR(f"{_OWNER}'s 'cell' must be a list of 3 whole numbers, got {preview(value)}")
    try:
        return _check_cell(tuple(value))
    except (TypeError, ValueError) as problem:
        raise _ERROR(f"{_OWNER}'s 'cell': {problem}") from None


def _saved_slots(value: object, size: int) -> Slots:
    if not isinstance(value, list) or len(value) != size:
        raise _ERROR(f"{_OWNER}'s 'slots' must be a list of {size} entries, got {preview(value)}")
    return tuple(_saved_stack(entry, index) for index, entry in enumerate(value))


def _saved_stack(entry: object, index: int) -> ItemStack | None:
    if entry is None:
        return None
    if (not isinstance(entry, list) or len(entry) != 3 or not isinstance(entry[0], str)
            or any(isinstance(v, bool) or not isinstance(v, int) for v in entry[1:])
            or not 1 <= entry[1] <= STACK_LIMIT or not 0 <= entry[2] <= MAX_WHOLE_NUMBER):
        raise _ERROR(f"{_OWNER}'s 'slots'[{index}] must be null or [item, count 1..{STACK_LIMIT}, damage], "
                     f"got {preview(entry)}")
    try:
        return ItemStack(*entry)
    except (TypeError, ValueError) as problem:
        raise _ERROR(f"{_OWNER}'s 'slots'[{index}]: {problem}") from None


# --- every furnace and chest of a world -----------------------------------------------------------

class BlockEntities:
    """The furnaces and chests of one world, by cell (see the module docstring). Made on a world,
    it restores every one saved in it; `save()` stores them back."""

    def __init__(self, world: GameWorld) -> None:
        self.world = world
        self._entities: dict[Cell, BlockEntity] = {}
        self._furnaces: dict[Cell, None] = {}
        """The furnaces' cells in tick order (an ordered set: what `tick` walks)."""
        self._loaded: tuple[GameWorld, object] | None = None
        """(a world, its `is_loaded` or None when every column of it is loaded), found once per world."""
        self._serials: dict[Cell, int] = {}
        self._next_serial = 0
        self._dirty: set[tuple[int, int]] = set()
        """Columns whose block entities changed since the last save."""
        self._unreadable: dict[tuple[int, int], list] = {}
        self._restore_saved()

    # --- reading ----------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._entities)

    def cells(self) -> tuple[Cell, ...]:
        """Every cell holding a furnace or chest, in tick order (made earlier first)."""
        return tuple(self._entities)

    def get(self, cell: Cell) -> BlockEntity | None:
        """The furnace or chest at `cell`; one is made for a furnace or chest block that has none
        yet (as Beta's `getBlockTileEntity` does); None for any other block."""
        cell = _check_cell(cell)
        entity = self._entities.get(cell)
        if entity is None:
            entity = _entity_for(self.world.get_block(*cell))
            if entity is not None:
                self._put(cell, entity)
        return entity

    def furnace(self, cell: Cell) -> Furnace | None:
        """The furnace at `cell`, None when there is none."""
        entity = self.get(cell)
        return entity if isinstance(entity, Furnace) else None

    def chest(self, cell: Cell) -> Chest | None:
        """The single chest at `cell` (27 slots), None when there is none."""
        entity = self.get(cell)
        return entity if isinstance(entity, Chest) else None

    def chest_cells(self, cell: Cell) -> tuple[Cell, ...]:
        """The chests whose slots the chest at `cell` opens, in slot order (Beta's double chest:
        module docstring); () when `cell` holds no chest."""
        if self.chest(cell) is None:
            return ()
        x, y, z = cell
        for dx, dz, first in _SIDES:
            other = (x + dx, y, z + dz)
            if self.world.get_block(*other) == CHEST_BLOCK and self.chest(other) is not None:
                return (other, cell) if first else (cell, other)
        return (cell,)

    def chest_slots(self, cell: Cell) -> Slots:
        """The slots the chest at `cell` opens: 27, or 54 for a double chest (module docstring).
        ValueError when `cell` holds no chest."""
        parts = self.chest_cells(cell)
        if not parts:
            raise ValueError(f"no chest at {cell}")
        return tuple(stack for part in parts for stack in self._entities[part].slots)

    def slots(self, cell: Cell) -> Slots:
        """A furnace's 3 slots (input, fuel, output) or a chest's view (`chest_slots`) at `cell`.
        ValueError when `cell` holds neither."""
        entity = self.get(cell)
        if entity is None:
            raise ValueError(f"no furnace or chest at {cell}")
        return entity.slots if isinstance(entity, Furnace) else self.chest_slots(cell)

    def store(self, cell: Cell) -> SlotStore:
        """The slots at `cell` (`slots`) as a live `game.rules.containers.Store` for a screen: what it
        reads and writes is the furnace's or chest's own, so a furnace screen sees the furnace cook.
        ValueError when `cell` holds neither."""
        return SlotStore(self, cell)

    # --- changing ---------------------------------------------------------------------------------

    def set_slot(self, cell: Cell, index: int, stack: ItemStack | None) -> None:
        """Put `stack` in slot `index` of what `slots(cell)` lists (a double chest's index picks its
        half). TypeError/ValueError for a bad cell, index or stack; nothing changed then."""
        _check_stack(stack, "a slot")
        entity = self.get(cell)
        if entity is None:
            raise ValueError(f"no furnace or chest at {cell}")
        if isinstance(entity, Furnace):
            self._put(cell, entity.with_slot(index, stack))
            return
        parts = self.chest_cells(cell)
        index = _slot_index(index, CHEST_SLOTS * len(parts))
        part = parts[index // CHEST_SLOTS]
        self._put(part, self._entities[part].with_slot(index % CHEST_SLOTS, stack))

    def on_block_placed(self, cell: Cell, block: str) -> None:
        """`block` was placed at `cell`: a furnace or chest block gets its empty block entity (Beta's
        `BlockContainer.onBlockAdded`); a furnace already there keeps its contents (its lit swap);
        any other block does nothing. ValueError when the cell still holds the other kind
        (its block was taken away without `on_block_removed`)."""
        cell = _check_cell(cell)
        if not isinstance(block, str):
            raise TypeError(f"a block is named by a str, got {type(block).__name__}")
        entity = _entity_for(block)
        if entity is None:
            return
        present = self._entities.get(cell)
        if present is None:
            self._put(cell, entity)
        elif type(present) is not type(entity):
            raise ValueError(f"cell {cell} still holds a {type(present).__name__.lower()}: "
                             f"call on_block_removed before placing a {block}")

    def on_block_removed(self, cell: Cell) -> tuple[ItemStack, ...]:
        """The block at `cell` was taken away: forget its furnace or chest and return what it held,
        in slot order, for dropping (Beta's `onBlockRemoval`; () when there was none)."""
        cell = _check_cell(cell)
        entity = self._entities.pop(cell, None)
        if entity is None:
            return ()
        del self._serials[cell]
        self._furnaces.pop(cell, None)
        self._dirty.add(column_of(cell[0], cell[2]))
        return tuple(stack for stack in entity.slots if stack is not None)

    def _put(self, cell: Cell, entity: BlockEntity) -> None:
        if cell not in self._entities:
            self._serials[cell] = self._next_serial
            self._next_serial += 1
            if isinstance(entity, Furnace):
                self._furnaces[cell] = None
        self._entities[cell] = entity
        self._dirty.add(column_of(cell[0], cell[2]))

    # --- the tick ---------------------------------------------------------------------------------

    def tick(self, world: GameWorld | None = None) -> None:
        """One tick of every furnace whose column is loaded, in tick order (module docstring), on
        `world` (the one it was made on when None). A furnace whose fire went out or caught swaps its
        block between furnace_<f> and lit_furnace_<f> (`world.set_block`, neighbours notified)."""
        if not self._furnaces:  # most ticks of most games
            return
        world = self.world if world is None else world
        loaded = self._is_loaded(world)
        for cell in list(self._furnaces):
            entity = self._entities[cell]
            x, y, z = cell
            if loaded is not None and not loaded(*column_of(x, z)):
                continue
            stepped = entity.step()
            if stepped is entity:
                continue
            self._entities[cell] = stepped
            self._dirty.add(column_of(x, z))
            if stepped.lit != entity.lit:
                _swap_furnace_block(world, cell, stepped.lit)

    def _is_loaded(self, world: GameWorld):
        """`world.is_loaded` for a world that loads columns (`StreamedWorld`), None for one whose
        columns are all in memory (the lab's arena)."""
        if self._loaded is None or self._loaded[0] is not world:
            self._loaded = (world, world.is_loaded if isinstance(world, StreamedWorld) else None)
        return self._loaded[1]

    # --- saving -----------------------------------------------------------------------------------

    def save(self) -> None:
        """Store the block entities of every column they changed in since the last save with that
        column (`World.set_column_entities`; only this kind's entries are replaced)."""
        by_column: dict[tuple[int, int], list[dict]] = {key: [] for key in self._dirty}
        for cell, entity in self._entities.items():
            key = column_of(cell[0], cell[2])
            if key in by_column:
                by_column[key].append(block_entity_state(cell, entity, self._serials[cell]))
        for key in sorted(by_column):
            replace_own(self.world, key, _OWNS, self._unreadable.get(key, []) + by_column[key])
        self._dirty.clear()

    def _restore_saved(self) -> None:
        """Bring back every furnace and chest saved in the world (module docstring)."""
        restored: list[SavedBlockEntity] = []
        for column, state in stored_entries(self.world, _OWNS):
            try:
                saved = block_entity_from_state(state)
                if column_of(saved.cell[0], saved.cell[2]) != column:
                    raise BlockEntityStateError(f"{_OWNER}'s cell {saved.cell} is not in column {column}")
            except BlockEntityStateError as error:
                self._unreadable.setdefault(column, []).append(state)
                warnings.warn(f"a block entity saved in column {column} cannot be used and is kept as it is: "
                              f"{error}", stacklevel=3)
                continue
            restored.append(saved)
        for saved in sorted(restored, key=lambda s: (s.serial, s.cell)):
            if saved.cell in self._entities:
                warnings.warn(f"a block entity saved for cell {saved.cell} repeats another's cell and is dropped",
                              stacklevel=3)
                self._dirty.add(column_of(saved.cell[0], saved.cell[2]))
                continue
            self._entities[saved.cell] = saved.entity
            if isinstance(saved.entity, Furnace):
                self._furnaces[saved.cell] = None
            self._serials[saved.cell] = saved.serial
            self._next_serial = max(self._next_serial, saved.serial + 1)


class SlotStore:
    """A furnace's 3 slots or a chest's 27 or 54 as a screen's store (`BlockEntities.store`): `get`
    and `set` go to the `BlockEntities`. Its size and cells are fixed when it is made, as Beta's
    container is when a screen opens; `valid` turns False once they are gone or changed (the block
    was broken, a chest beside it placed or broken): the screen should then close, as Beta's does
    when `canInteractWith` fails."""

    def __init__(self, entities: BlockEntities, cell: Cell) -> None:
        self._entities = entities
        self.cell = _check_cell(cell)
        self._size = len(entities.slots(cell))
        self.cells = self._parts()

    def _parts(self) -> tuple[Cell, ...]:
        if self._entities.furnace(self.cell) is not None:
            return (self.cell,)
        return self._entities.chest_cells(self.cell)

    @property
    def valid(self) -> bool:
        """Whether the furnace or chests it was made on are all still there, and no more."""
        return self._parts() == self.cells

    def __len__(self) -> int:
        return self._size

    def get(self, index: int) -> ItemStack | None:
        """The stack in slot `index` now."""
        return self._entities.slots(self.cell)[_slot_index(index, self._size)]

    def set(self, index: int, stack: ItemStack | None) -> None:
        """Put `stack` in slot `index` (`BlockEntities.set_slot`)."""
        self._entities.set_slot(self.cell, _slot_index(index, self._size), stack)


def _swap_furnace_block(world: GameWorld, cell: Cell, lit: bool) -> None:
    """Beta's `BlockFurnace.updateFurnaceBlockState`: the same facing, lit or not; a cell that holds
    no furnace block (changed by other means) is left as it is."""
    block = world.get_block(*cell)
    facing = FURNACE_FACING.get(block) or LIT_FURNACE_FACING.get(block)
    if facing is None:
        return
    wanted = f"lit_furnace_{facing}" if lit else f"furnace_{facing}"
    if wanted != block:
        world.set_block(*cell, wanted)
