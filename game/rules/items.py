"""The item registry: every item a player can hold, Beta 1.7.3's stack sizes, tool tiers and durabilities.

Owns: item names and what each item is (`ItemSpec`: stack size, durability, tool kind and tier,
the block it places, the health it heals), the stack value type (`ItemStack`), Beta's tool
materials (`ToolTier`, its `EnumToolMaterial`) and the item a block is picked up and dropped as
(`block_item`). Pure data: no Ursina, no world writes.
Does not own: blocks (`game.world.blocks`), which form of a family a placed item becomes
(`game.rules.targeting.placement`), drops and dig speeds (`game.rules.harvest`), inventories
(`game.rules.player_inventory`), recipes (`game.rules.recipes`) or eating (the session).

Names. Items are lowercase strings apart from block names. A block item is named after the block it
places, except for families placed in several forms, which are one item each: "ladder" (ladder_*),
"wooden_stairs" (stairs_*), "stone_slab" (stone_slab, stone_slab_top), "furnace" (furnace_*,
lit_furnace_*), "torch" (torch, wall_torch_*), "wooden_door" (door_*), "bed" (bed_*) and "sapling"
(sapling, sapling_ready: Beta's one sapling at either growth stage); the brick
block's item is "bricks" (the clay brick is the item "brick"). Block items are derived from the
block registry at import: every block that can be placed (not air, not unbreakable: the rule of
`game.rules.hotbar.holdable`) has one.

Beta's values (its `Item`, `ItemTool`, `ItemSword`, `ItemHoe`, `ItemFood`, `ItemDoor`, `ItemBed`):
- stack sizes: tools, swords and hoes 1; food 1 (Beta 1.7.3's `ItemFood` sets maxStackSize = 1,
  `ItemSoup` too); doors and beds 1; every other item and every block item 64;
- durability: a tool's `max_damage` is its tier's `max_uses` (wood 59, stone 131, iron 250,
  diamond 1561, gold 32); Beta's `ItemStack.damageItem` breaks it when its damage passes that;
- food heals `heal` half-hearts (Beta's healAmount: apple 4, bread 5, mushroom stew 10, porkchop 3,
  cooked porkchop 8, golden apple 42, raw fish 2, cooked fish 5).
Beta's coal and charcoal are one item with damage 0 and 1; here they are two items ("coal",
"charcoal"), so `ItemStack.damage` is only ever tool wear. Beta's `ItemDoor` also sets maxDamage 64,
which nothing ever wears; here the door has no durability.
"""

from __future__ import annotations

import difflib
import numbers
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

import numpy as np

from ..world.blocks import AIR, BREAKABLE, NAMES, block_id

MAX_STACK = 64
"""Beta's largest stack (`Item.maxStackSize` default): no stack holds more."""
SINGLE = 1
"""The stack size of tools, food, doors and beds in Beta 1.7.3."""

TOOL_KINDS = ("pickaxe", "shovel", "axe", "sword", "hoe")
"""Beta's tool classes: `ItemPickaxe`, `ItemSpade`, `ItemAxe`, `ItemSword`, `ItemHoe`."""
_TOOL_BASE_DAMAGE = MappingProxyType({"shovel": 1, "pickaxe": 2, "axe": 3})
"""`ItemTool`'s damageVsEntity before the material's: `ItemSpade` 1, `ItemPickaxe` 2, `ItemAxe` 3."""
SWORD_BASE_DAMAGE = 4
"""`ItemSword`'s weaponDamage = 4 + material damage * 2."""
HAND_DAMAGE = 1
"""`Item.getDamageVsEntity` for everything that is not a tool or sword (and the empty hand)."""


class ToolTier(Enum):
    """Beta 1.7.3's `EnumToolMaterial`: (harvest level, max uses, efficiency, damage vs entity)."""

    WOOD = (0, 59, 2.0, 0)
    STONE = (1, 131, 4.0, 1)
    IRON = (2, 250, 6.0, 2)
    DIAMOND = (3, 1561, 8.0, 3)   # Beta's EMERALD
    GOLD = (0, 32, 12.0, 0)

    def __init__(self, harvest_level: int, max_uses: int, efficiency: float, damage: int) -> None:
        self.harvest_level = harvest_level
        """What it can harvest: 0 wood and gold, 1 stone, 2 iron, 3 diamond (Beta's harvestLevel)."""
        self.max_uses = max_uses
        """A tool's max damage (Beta's maxUses)."""
        self.efficiency = np.float32(efficiency)
        """Dig strength against the blocks it is for (Beta's efficiencyOnProperMaterial, a float)."""
        self.damage = damage
        """Added to a tool's or sword's hit damage (Beta's damageVsEntity)."""

    @property
    def key(self) -> str:
        """The tier's name as `ItemSpec.tier` spells it ("wood", ..., "gold")."""
        return self.name.lower()

    @classmethod
    def of(cls, key: str) -> ToolTier:
        """The tier named `key` ("wood", "stone", "iron", "diamond", "gold"); ValueError otherwise."""
        try:
            return cls[key.upper()] if isinstance(key, str) else cls[key]
        except KeyError:
            raise ValueError(f"unknown tool tier {key!r} (tiers: {', '.join(TIER_KEYS)})") from None


TIER_KEYS = tuple(tier.key for tier in ToolTier)
"""Tier names in Beta's `EnumToolMaterial` order."""
_TIER_PREFIX = MappingProxyType({"wood": "wooden", "stone": "stone", "iron": "iron", "gold": "golden",
                                 "diamond": "diamond"})
"""How a tier reads in an item name ("wooden_pickaxe", "golden_sword")."""


class UnknownItemError(ValueError):
    """An item name the registry does not have."""


@dataclass(frozen=True, slots=True)
class ItemSpec:
    """What an item is."""

    name: str
    max_stack: int
    """Most items a slot holds of it (Beta's maxStackSize)."""
    max_damage: int = 0
    """Wear it takes before breaking (Beta's maxDamage); 0: no durability."""
    tool: str | None = None
    """"pickaxe", "shovel", "axe", "sword" or "hoe"; None for everything else."""
    tier: str | None = None
    """A tool's material ("wood", "stone", "iron", "gold", "diamond"; `ToolTier.of`); None otherwise."""
    places: str | None = None
    """The registry block it places, in the held form `game.rules.targeting.placement` orients; None if none."""
    heal: int = 0
    """Half-hearts eating it heals (Beta's healAmount); 0: not food."""

    @property
    def tool_tier(self) -> ToolTier | None:
        """The tool's `ToolTier`, None for an item that is not a tool."""
        return None if self.tier is None else ToolTier[self.tier.upper()]


# Block-placed families: (item, the registry blocks it places, held form first).
_FACINGS = ("north", "south", "east", "west")
_FAMILIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ladder", tuple(f"ladder_{f}" for f in _FACINGS)),
    ("wooden_stairs", tuple(f"stairs_{f}" for f in _FACINGS)),
    ("stone_slab", ("stone_slab", "stone_slab_top")),
    ("furnace", (*(f"furnace_{f}" for f in _FACINGS), *(f"lit_furnace_{f}" for f in _FACINGS))),
    ("torch", ("torch", *(f"wall_torch_{f}" for f in _FACINGS))),
    ("wooden_door", tuple(f"door_{half}_{f}_{state}" for half in ("lower", "upper") for f in _FACINGS
                          for state in ("closed", "open"))),
    ("bed", tuple(f"bed_{part}_{f}" for part in ("foot", "head") for f in _FACINGS)),
    ("bricks", ("brick",)),
    ("sapling", ("sapling", "sapling_ready")),
)
"""Every block placed by an item not named after it."""
_FAMILY_OF = {member: item for item, members in _FAMILIES for member in members}


def _placeable(block: str) -> bool:
    """Whether the registry has block `block` and an item can place it (not air, not unbreakable)."""
    try:
        number = block_id(block)
    except ValueError:
        return False
    return number != AIR and bool(BREAKABLE[number])


def _block_items() -> tuple[dict[str, str], dict[str, str]]:
    """(the block each block item places, the item each placeable block is), in registry order."""
    places: dict[str, str] = {}
    item_of: dict[str, str] = {}
    members_of = dict(_FAMILIES)
    for block in NAMES:
        if not _placeable(block):
            continue
        item = _FAMILY_OF.get(block, block)
        item_of[block] = item
        if item not in places:
            places[item] = next(m for m in members_of.get(item, (block,)) if _placeable(m))
    return places, item_of


def _tool_specs() -> list[ItemSpec]:
    return [ItemSpec(f"{_TIER_PREFIX[tier.key]}_{kind}", SINGLE, tier.max_uses, kind, tier.key)
            for tier in (ToolTier.WOOD, ToolTier.STONE, ToolTier.IRON, ToolTier.GOLD, ToolTier.DIAMOND)
            for kind in TOOL_KINDS]


_MATERIALS = ("stick", "coal", "charcoal", "iron_ingot", "gold_ingot", "diamond", "flint", "clay_ball", "brick",
              "seeds", "wheat", "string", "bowl", "leather", "feather", "bone", "gunpowder", "arrow")
"""Plain items of 64 (Beta's `new Item(id)` and `ItemSeeds`); leather, feathers, bones, gunpowder and
arrows are what creatures drop."""
EGG_STACK = 16
"""Beta's `ItemEgg` stacks to 16."""
FOOD_HEAL = MappingProxyType({"apple": 4, "bread": 5, "mushroom_stew": 10, "porkchop": 3, "cooked_porkchop": 8,
                              "golden_apple": 42, "raw_fish": 2, "cooked_fish": 5})
"""Half-hearts each food heals (Beta 1.7.3's `ItemFood` healAmount; `ItemSoup` for the stew)."""
_SINGLE_PLACERS = ("wooden_door", "bed")
"""Block items that stack to 1 (Beta's `ItemDoor`, `ItemBed`)."""


def _build_specs() -> tuple[dict[str, ItemSpec], dict[str, str]]:
    places, item_of = _block_items()
    specs: dict[str, ItemSpec] = {}
    for item, block in places.items():
        specs[item] = ItemSpec(item, SINGLE if item in _SINGLE_PLACERS else MAX_STACK, places=block)
    for item in _SINGLE_PLACERS:  # items even before the registry has their blocks
        specs.setdefault(item, ItemSpec(item, SINGLE))
    clash = set(specs) & {*_MATERIALS, *FOOD_HEAL, *(spec.name for spec in _tool_specs())}
    if clash:
        raise RuntimeError(f"block items named like other items: {sorted(clash)}")
    for item in _MATERIALS:
        specs[item] = ItemSpec(item, MAX_STACK)
    specs["egg"] = ItemSpec("egg", EGG_STACK)
    for item, heal in FOOD_HEAL.items():
        specs[item] = ItemSpec(item, SINGLE, heal=heal)
    for spec in _tool_specs():
        specs[spec.name] = spec
    return specs, item_of


_SPECS, _ITEM_OF_BLOCK = _build_specs()
SPECS: MappingProxyType[str, ItemSpec] = MappingProxyType(_SPECS)
"""Every item's spec by name."""
ITEM_NAMES: tuple[str, ...] = tuple(_SPECS)
"""Every item name: block items in registry order, then Beta's other items."""
BLOCK_ITEM_NAMES: frozenset[str] = frozenset(_ITEM_OF_BLOCK.values())
"""The items that are blocks (Beta's `ItemBlock`s: in its recipes a block ingredient matches any metadata)."""
BLOCK_ITEM_BY_ID: tuple[str | None, ...] = tuple(_ITEM_OF_BLOCK.get(name) for name in NAMES)
"""`block_item` by block id."""
TOOL_NAMES: tuple[str, ...] = tuple(name for name, spec in _SPECS.items() if spec.tool is not None)


def item_spec(name: str) -> ItemSpec:
    """The spec of item `name`; UnknownItemError (a ValueError) naming close names otherwise."""
    try:
        return _SPECS[name]
    except (KeyError, TypeError):
        close = difflib.get_close_matches(str(name), ITEM_NAMES, n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise UnknownItemError(f"unknown item name {name!r}{hint}") from None


def block_item(block: str | int) -> str | None:
    """The item block `block` (a name or id) is picked up and dropped as for its own drop ("stairs_east" ->
    "wooden_stairs", "brick" -> "bricks"); None for a block no item places (air, bedrock, water, lava).
    UnknownBlockError (a ValueError) for a block the registry lacks."""
    if isinstance(block, str):
        return _ITEM_OF_BLOCK.get(NAMES[block_id(block)])
    if isinstance(block, (int, np.integer)) and not isinstance(block, bool) and 0 <= block < len(NAMES):
        return BLOCK_ITEM_BY_ID[block]
    block_id(str(block))  # raises UnknownBlockError
    raise AssertionError("unreachable")  # pragma: no cover


def attack_damage(item: str | None) -> int:
    """Half-hearts a hit with `item` does (Beta's `getDamageVsEntity`): a sword 4 + 2 x its tier's damage,
    a shovel, pickaxe or axe its base 1, 2, 3 + the tier's damage, anything else and the hand (None) 1."""
    if item is None:
        return HAND_DAMAGE
    spec = item_spec(item)
    tier = spec.tool_tier
    if spec.tool == "sword":
        return SWORD_BASE_DAMAGE + tier.damage * 2
    if spec.tool in _TOOL_BASE_DAMAGE:
        return _TOOL_BASE_DAMAGE[spec.tool] + tier.damage
    return HAND_DAMAGE


def _check_int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"an item stack's {what} is an int, got {value!r}")
    return int(value)


@dataclass(frozen=True, slots=True)
class ItemStack:
    """Some of one item: `count` of `item`, worn by `damage` (Beta's item damage: a tool's wear)."""

    item: str
    count: int = 1
    damage: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.item, str):
            raise TypeError(f"an item stack's item is an item name (str), got {self.item!r}")
        item_spec(self.item)
        count = _check_int(self.count, "count")
        damage = _check_int(self.damage, "damage")
        if not 1 <= count <= MAX_STACK:
            raise ValueError(f"an item stack holds 1..{MAX_STACK} items, got {count}")
        if damage < 0:
            raise ValueError(f"an item stack's damage is >= 0, got {damage}")

    @property
    def spec(self) -> ItemSpec:
        """The item's `ItemSpec`."""
        return _SPECS[self.item]

    def with_count(self, count: int) -> ItemStack:
        """The same item and damage, `count` of it (validated as a new stack)."""
        return ItemStack(self.item, count, self.damage)
