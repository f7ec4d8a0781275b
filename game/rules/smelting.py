"""What a furnace makes and what it burns: Beta 1.7.3's `FurnaceRecipes` and
`TileEntityFurnace.getItemBurnTime`, as data over Boxel's item names.

Owns: `SMELTING` (input item -> the item it smelts into, one of it), `FUEL_TICKS` (fuel item -> the
ticks it burns), `smelt_result`, `fuel_ticks`, and the furnace's fixed numbers (`COOK_TICKS`).
Does not own: the furnace itself (its slots, burning and cooking, the lit block:
`game.rules.block_entities`), the items (`game.rules.items`), or crafting (`game.rules.recipes`).

Beta keys both tables by item id, never by damage: every log smelts into charcoal, and charcoal
(Beta's coal with damage 1; its own item here) burns as coal does.

Beta's recipes and fuels that Boxel leaves out, because their item does not exist:
- cactus -> cactus green (dye, damage 2): Boxel has no dyes;
- lava bucket, 20000 ticks (Beta 1.7.3 uses the bucket up): Boxel has no buckets;
- wooden blocks Boxel lacks (bookshelf, note block, jukebox, wooden pressure plate, trapdoor,
  wooden door's *block*): 300 ticks each in Beta. The wooden door *item* is an item, not a block,
  so Beta burns it for 0, as it does every tool, the bowl and the bed; so does this table.
"""

from __future__ import annotations

from types import MappingProxyType

from .items import ITEM_NAMES, ItemStack

COOK_TICKS = 200
"""[ticks] Cooking one item (Beta's `furnaceCookTime == 200`)."""

SMELTING = MappingProxyType({
    "iron_ore": "iron_ingot",
    "gold_ore": "gold_ingot",
    "diamond_ore": "diamond",
    "sand": "glass",
    "porkchop": "cooked_porkchop",
    "raw_fish": "cooked_fish",
    "cobblestone": "stone",
    "clay_ball": "brick",
    "log": "charcoal",
})
"""Input item -> what one of it smelts into (one item), in Beta's `FurnaceRecipes` order."""

WOOD_BURN_TICKS = 300
"""[ticks] A block item of Beta's Material.wood."""
STICK_BURN_TICKS = 100
"""[ticks] A stick (Beta's `Item.stick`)."""
COAL_BURN_TICKS = 1600
"""[ticks] Coal and charcoal (one Beta item id): 8 items cooked."""
SAPLING_BURN_TICKS = 100
"""[ticks] A sapling (Beta's `Block.sapling`; a plant, so not caught by the wood rule)."""

WOODEN_BLOCK_ITEMS = ("log", "planks", "wooden_stairs", "fence", "crafting_table", "chest")
"""The block items whose block is Beta's Material.wood (logs, planks, wooden stairs take their
model's material, fences, the workbench, chests). Ladders (Material.circuits), slabs (rock),
leaves, torches and wool are not wood in Beta and do not burn."""

FUEL_TICKS = MappingProxyType({
    **{item: WOOD_BURN_TICKS for item in WOODEN_BLOCK_ITEMS},
    "stick": STICK_BURN_TICKS,
    "coal": COAL_BURN_TICKS,
    "charcoal": COAL_BURN_TICKS,
    "sapling": SAPLING_BURN_TICKS,
})
"""Fuel item -> [ticks] it burns (Beta's `getItemBurnTime`); every other item burns for 0."""

_RESULTS = MappingProxyType({item: ItemStack(result) for item, result in SMELTING.items()})
_KNOWN = frozenset(ITEM_NAMES)


def _checked(item: object) -> str:
    if not isinstance(item, str):
        raise TypeError(f"an item name must be a str, got {type(item).__name__}")
    if item not in _KNOWN:
        raise ValueError(f"unknown item {item!r}")
    return item


def smelt_result(item: str) -> ItemStack | None:
    """What one `item` smelts into (Beta's `getSmeltingResult`), or None when it does not smelt.
    TypeError for a non-str, ValueError for an unknown item name."""
    return _RESULTS.get(_checked(item))


def fuel_ticks(item: str) -> int:
    """[ticks] How long one `item` burns in a furnace (Beta's `getItemBurnTime`; 0: not a fuel).
    TypeError for a non-str, ValueError for an unknown item name."""
    return FUEL_TICKS.get(_checked(item), 0)
