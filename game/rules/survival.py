"""Survival's rules in a session: what a survival player gathers, carries, crafts, places and drops.

Owns: `Survival`, which a `game.rules.session.Session` holds in a survival world (and only there):
the item rules the session calls at its steps -- a dig's strength with the held tool
(`game.rules.harvest`), a broken block's drops and the tool's wear, placing the held item (one used
up), right-click on a block that opens a screen (crafting table, chest, furnace) and eating, Q (one
of the held item thrown), the open screen's clicks and closing it (`game.rules.containers`), the
items picked up (`game.rules.dropped_items`) and, on death, the inventory scattered; and the
random numbers of the drops, derived from the world's seed.
Pure: no Ursina. Does not own: the items and their stacks (`game.rules.items`), the inventory
(`game.rules.player_inventory`), the screens' click rules (`game.rules.containers`), the drop table
and dig speeds (`game.rules.harvest`), items lying in the world (`game.rules.dropped_items`),
furnaces and chests (`game.rules.block_entities`, which the session holds in every game mode, as
their blocks can be placed in both), doors and beds (`game.rules.block_actions`), or when each
step runs (the session).

Beta's order for a right click on a block (`Minecraft.clickMouse(1)`): the block acts first (a
crafting table, a chest or a furnace opens its screen; `game.rules.block_actions` handles doors and
beds); otherwise the held item is used on it (a block item places its block, one used up); and
when nothing was placed, the held item is used by itself (food is eaten: Beta 1.7.3 heals at once,
by the food's `heal`, and uses one up).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np

from . import harvest
from .block_entities import BlockEntities, chest_opens
from .containers import Screen, chest_screen, crafting_table_screen, furnace_screen, inventory_screen
from .crafting import craft
from .derived_seeds import derived_seed
from .items import ItemStack, item_spec
from .player import Player
from .player_inventory import PlayerInventory
from ..world.blocks import block_name

Cell = tuple[int, int, int]

CRAFTING_TABLE = "crafting_table"
CHEST = "chest"
SCREEN_BLOCKS = frozenset({CRAFTING_TABLE, CHEST})
"""Blocks whose right click opens a screen (and every furnace, lit or not: `is_furnace`)."""
FURNACE_PREFIXES = ("furnace_", "lit_furnace_")


def is_furnace(block: str) -> bool:
    """A furnace of any facing, lit or not."""
    return block.startswith(FURNACE_PREFIXES)


def has_block_entity(block: str) -> bool:
    """The block keeps a block entity (`game.rules.block_entities`): a chest or a furnace."""
    return block == CHEST or is_furnace(block)


class Survival:
    """The survival rules of one session (module docstring)."""

    def __init__(self, world, block_entities: BlockEntities, throw: Callable[[Player, ItemStack, bool], None],
                 drop_at: Callable[[Cell, ItemStack, random.Random], None]) -> None:
        """`throw(player, stack, scatter)`: an item leaves the player (Q: along the look; death:
        `scatter`, any way); `drop_at(cell, stack, rng)`: a stack falls out of a broken block."""
        self.world = world
        self.block_entities = block_entities
        self._throw = throw
        self._drop_at = drop_at
        self.random = random.Random(derived_seed("block drops", world.seed))
        """Every drop's chance and spread (Beta's world random for drops), derived from the seed."""

    # --- players ------------------------------------------------------------------------------

    @staticmethod
    def equip(player: Player) -> None:
        """Give `player` a survival inventory if it has none (a new player, or one last saved in a creative world)."""
        if player.inventory is None:
            player.inventory = PlayerInventory()

    @staticmethod
    def held(player: Player) -> ItemStack | None:
        return None if player.inventory is None else player.inventory.held()

    # --- digging --------------------------------------------------------------------------------

    def dig_strength(self, player: Player, block: int, in_water: bool, on_ground: bool) -> np.float32:
        """Beta's `blockStrength` for `player` with its held item (`harvest.dig_strength`)."""
        return harvest.dig_strength(block, self.held(player), in_water, on_ground)

    def on_broken(self, player: Player, cell: Cell, block: int) -> None:
        """`player` broke `block` at `cell`: its drops by the held tool (none where Beta drops
        none), a furnace's or chest's contents, and the tool's wear (Beta's `onBlockDestroyed`, one
        point; a tool breaks once worn past its durability)."""
        held = self.held(player)
        for stack in harvest.drops(block, held, self.random):
            self._drop_at(cell, stack, self.random)
        if has_block_entity(block_name(block)):
            for stack in self.block_entities.on_block_removed(cell):
                self._drop_at(cell, stack, self.random)
        points = harvest.dig_wear(block, held)
        if points:
            player.inventory.wear_held(points)

    def on_unsupported(self, broken: Sequence) -> None:
        """Blocks that broke because what held them went (`World.take_unsupported`): each drops its
        items as Beta's `dropBlockAsItem` (no tool: a torch gives a torch, a door's lower half the door)."""
        for block in broken:
            for stack in harvest.drops(block.block, None, self.random):
                self._drop_at(block.cell, stack, self.random)

    def on_hit(self, player: Player) -> None:
        """`player` hit a mob with its held item: a tool wears (Beta's `hitEntity`: a sword 1, another tool 2)."""
        points = harvest.hit_entity_wear(self.held(player))
        if points:
            player.inventory.wear_held(points)

    # --- right click ------------------------------------------------------------------------------

    def placed_block(self, player: Player) -> str | None:
        """The block the held item places (its held form), None when it places none."""
        held = self.held(player)
        return None if held is None else item_spec(held.item).places

    def on_placed(self, player: Player) -> None:
        """The held item placed its block: one is used up (Beta's `ItemBlock.onItemUse`)."""
        player.inventory.take_held(1)

    def use_block(self, player: Player, cell: Cell, block: str) -> bool:
        """Right click on `block` at `cell`: a crafting table, chest or furnace opens its screen
        (True); any other block does nothing here (False)."""
        inventory = player.inventory
        if block == CRAFTING_TABLE:
            screen = crafting_table_screen(inventory, craft)
        elif block == CHEST and self.block_entities.chest(cell) is not None:
            if not chest_opens(self.world, cell):  # Beta: not under a solid block, nor beside a chest that is
                return True
            screen = chest_screen(inventory, self.block_entities.store(cell))
        elif is_furnace(block) and self.block_entities.furnace(cell) is not None:
            screen = furnace_screen(inventory, self.block_entities.store(cell))
        else:
            return False
        self.open_screen(player, screen, cell)
        return True

    def use_item(self, player: Player) -> bool:
        """Right click with nothing placed: food is eaten (Beta 1.7.3's `ItemFood`: heals its
        `heal` at once, up to full health, and is used up). True when something was used."""
        held = self.held(player)
        if held is None or player.dead:
            return False
        heal = item_spec(held.item).heal
        if heal <= 0:
            return False
        player.inventory.take_held(1)
        player.heal(heal)
        if held.item == "mushroom_stew":  # Beta's ItemSoup gives the bowl back
            player.inventory.set(player.inventory.selected, ItemStack("bowl"))
        return True

    # --- the inventory key, screens and Q -----------------------------------------------------------

    def open_screen(self, player: Player, screen: Screen, cell: Cell | None = None) -> None:
        """Open `screen` for `player` (the inventory key's, or a block's: `cell`)."""
        player.screen, player.screen_cell = screen, cell
        player.inventory_open = True
        player.input.held.clear()  # Minecraft's screens let go of every key

    def open_inventory(self, player: Player) -> None:
        """The inventory key: the player's inventory with its 2x2 crafting grid."""
        self.open_screen(player, inventory_screen(player.inventory, craft))

    def close_screen(self, player: Player) -> None:
        """Close `player`'s screen: the cursor's stack and a crafting grid's stacks are thrown out
        (Beta's `onCraftGuiClosed`)."""
        screen, player.screen, player.screen_cell = player.screen, None, None
        player.inventory_open = False
        if screen is not None:
            for stack in screen.close():
                self._throw(player, stack, False)

    def click(self, player: Player, slot: int, button: str, shift: bool) -> None:
        """A click on the open screen's slot (`containers.Screen.click`); a stack thrown outside it
        leaves the player. Nothing happens with no screen open."""
        if player.screen is None or not player.inventory_open:
            return
        for stack in player.screen.click(slot, button, shift):
            self._throw(player, stack, False)

    def drop_held(self, player: Player, whole_stack: bool = False) -> None:
        """Q: one of the held item (or the whole stack) is thrown along the look (Beta's
        `dropCurrentItem`)."""
        if player.dead or player.inventory is None:
            return
        held = player.inventory.held()
        if held is None:
            return
        taken = player.inventory.take_held(held.count if whole_stack else 1)
        if taken is not None:
            self._throw(player, taken, False)

    def on_death(self, player: Player) -> None:
        """Death: the screen closes and every stack scatters from where the player fell (Beta's
        `dropAllItems`)."""
        if player.screen is not None:
            self.close_screen(player)
        if player.inventory is not None:
            for stack in player.inventory.drop_all():
                self._throw(player, stack, True)

    def give(self, player: Player, stack: ItemStack) -> int:
        """An item picked up: how many of `stack` the player's inventory took (a dead player takes none)."""
        if player.dead or player.inventory is None:
            return 0
        return player.inventory.add(stack)


def stacks_of(slots: Sequence[ItemStack | None]) -> list:
    """Slots as the report writes them: None or [item, count]."""
    return [None if stack is None else [stack.item, stack.count] for stack in slots]


def report_block_entities(entities: BlockEntities) -> list[dict]:
    """The report's `block_entities`: each furnace and chest by cell (sorted), its slots, and a
    furnace's burn and cook times [ticks]."""
    report = []
    for cell in sorted(entities.cells()):
        entity = entities.get(cell)
        row = {"cell": list(cell), "slots": stacks_of(entity.slots)}
        furnace = entities.furnace(cell)
        if furnace is not None:
            row.update(kind="furnace", burn_time=furnace.burn_time, cook_time=furnace.cook_time)
        else:
            row["kind"] = "chest"
        report.append(row)
    return report
