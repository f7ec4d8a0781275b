"""Digging with tools and what a dug block drops: Beta 1.7.3's harvest rules, headless and pure.

Owns: each block's Beta `Material` (`BlockMaterial`, `material_of`) and which materials the hand
cannot harvest (Beta's `setNoHarvest`); the tools' `blocksEffectiveAgainst` lists and their strength
(`strength_against`, Beta's `InventoryPlayer.getStrVsBlock`); `can_harvest` (Beta's
`InventoryPlayer.canHarvestBlock` with the tools' `canHarvestBlock`); `dig_strength` (Beta's
`Block.blockStrength(player)`, float32 as Beta's floats); the drop table (`drop_rule`, `iter_drops`,
`drops`: Beta's `quantityDropped`, `idDropped` and `harvestBlock`, drawn from one random source in
Beta's order); and the wear a dig or a hit costs the held tool (`dig_wear`, `hit_entity_wear`).
Does not own: items and tool tiers (`game.rules.items`), hardness (`game.world.blocks.HARDNESS`), the
dig loop (`game.rules.mining`), spawning dropped items (`game.rules.dropped_items`), wearing the
stack in the inventory (`game.rules.player_inventory`), or a broken block's effects on the world
(a door's other half, a bed's other half, ice melting into water: the session).

Beta's rules (its `Block`, `EntityPlayer`, `InventoryPlayer`, `ItemTool`, `ItemPickaxe`, `ItemSpade`,
`ItemAxe`, `ItemSword`, `PlayerControllerSP.sendBlockRemoved`):
- strength per tick: 0 for hardness < 0; 1 / hardness / 100 when the player cannot harvest the block
  (whatever is held, no water or air penalty); else the held item's strength (a tool's tier
  efficiency against the blocks on its list, a sword 1.5 and 15 against cobwebs, anything else 1)
  divided by 5 with the eye in water, again by 5 off the ground, then / hardness / 30;
- the player can harvest a block whose material is harvestable (all but rock, iron, snow and web),
  or one the held item can: a pickaxe rock and iron blocks, but obsidian only at diamond, diamond and
  gold (ore and block) and redstone ore from iron, iron ore and block from stone; a shovel snow; a
  sword cobwebs;
- a broken block drops only when the player could harvest it; then Beta draws quantityDropped,
  and for each item a nextFloat (its chance, always kept at 1.0) and idDropped; each dropped item is
  one stack of 1 (Beta's own `EntityItem` each);
- every block broken with a tool in hand wears it 1 (a sword 2), whatever its hardness (Beta 1.7.3
  has no hardness check); a hit on a mob wears a tool 2 and a sword 1; hoes and other items never.

Random: Beta's `world.rand` is a `game.rules.java_random.JavaRandom` (Java's numbers) or a `random.Random`
(nextInt(n) is `randrange(n)`, nextFloat `java_random.next_float`). `iter_drops` yields each item before
drawing the next, so a caller that spawns each item from the same source (Beta's `dropBlockAsItem_do`
draws three floats for its position) keeps Beta's order.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

import numpy as np

from ..world import blocks
from .items import ItemStack, ToolTier, block_item, item_spec
from ..world.java_random import JavaRandom, next_float, require_rng

HAND_STRENGTH = np.float32(1.0)
"""Beta's `getStrVsBlock` for an empty hand (and any block the held item is not a tool for)."""
TOOL_LESS_DIVISOR = np.float32(100.0)
"""Beta's `blockStrength` for a block the player cannot harvest (stone, ores... by hand): 1 / hardness / 100."""
HARVEST_DIVISOR = np.float32(30.0)
"""Beta's `blockStrength` for a block the player harvests: strength / hardness / 30."""
PENALTY_DIVISOR = np.float32(5.0)
"""Beta's `getCurrentPlayerStrVsBlock`: the strength is divided by 5 with the eye in water, and
again by 5 off the ground."""
SWORD_STRENGTH = np.float32(1.5)
"""Beta's `ItemSword.getStrVsBlock` against every block but the cobweb."""
SWORD_WEB_STRENGTH = np.float32(15.0)
"""Beta's `ItemSword.getStrVsBlock` against the cobweb."""


class BlockMaterial(Enum):
    """Beta 1.7.3's `Material`s of Boxel's blocks: (name, harvestable by hand). Distinct from
    `physics.Material`, which says how a block moves bodies."""

    AIR = ("air", True)
    GRASS = ("grass", True)
    GROUND = ("ground", True)
    WOOD = ("wood", True)
    ROCK = ("rock", False)
    IRON = ("iron", False)
    WATER = ("water", True)
    LAVA = ("lava", True)
    LEAVES = ("leaves", True)
    PLANTS = ("plants", True)
    CLOTH = ("cloth", True)
    SAND = ("sand", True)
    CIRCUITS = ("circuits", True)
    GLASS = ("glass", True)
    ICE = ("ice", True)
    SNOW = ("snow", False)
    BUILT_SNOW = ("builtSnow", False)
    CACTUS = ("cactus", True)
    CLAY = ("clay", True)
    WEB = ("web", False)

    def __init__(self, beta_name: str, harvestable: bool) -> None:
        self.beta_name = beta_name
        """Beta's field name in `Material`."""
        self.harvestable = harvestable
        """False for Beta's `setNoHarvest` materials: the hand (or a wrong tool) digs them at 1/100 and gets nothing."""


_M = BlockMaterial
_MATERIALS = MappingProxyType({
    "air": _M.AIR,
    "stone": _M.ROCK, "cobblestone": _M.ROCK, "bedrock": _M.ROCK, "brick": _M.ROCK, "obsidian": _M.ROCK,
    "stone_slab": _M.ROCK, "stone_slab_top": _M.ROCK, "double_slab": _M.ROCK, "sandstone": _M.ROCK,
    "coal_ore": _M.ROCK, "iron_ore": _M.ROCK, "gold_ore": _M.ROCK, "redstone_ore": _M.ROCK, "diamond_ore": _M.ROCK,
    "iron_block": _M.IRON, "gold_block": _M.IRON, "diamond_block": _M.IRON,
    "dirt": _M.GROUND, "grass": _M.GRASS, "sand": _M.SAND, "gravel": _M.SAND, "soul_sand": _M.SAND,
    "log": _M.WOOD, "planks": _M.WOOD, "fence": _M.WOOD, "crafting_table": _M.WOOD, "chest": _M.WOOD,
    "leaves": _M.LEAVES, "glass": _M.GLASS, "ice": _M.ICE, "cactus": _M.CACTUS, "clay": _M.CLAY,
    "cobweb": _M.WEB, "wool": _M.CLOTH,
    "carpet": _M.CLOTH,  # not in Beta: the later carpet's cloth
    "torch": _M.CIRCUITS,
    "dandelion": _M.PLANTS, "rose": _M.PLANTS, "tall_grass": _M.PLANTS,
    "sapling": _M.PLANTS, "sapling_ready": _M.PLANTS,
    "brown_mushroom": _M.PLANTS, "red_mushroom": _M.PLANTS,
    "snow": _M.SNOW, "snow_block": _M.BUILT_SNOW,
})
"""Beta's Material of each block by name (its Block constructors), for blocks not in a family."""
_FAMILY_MATERIALS = (
    ("ladder_", _M.CIRCUITS), ("wall_torch_", _M.CIRCUITS), ("stairs_", _M.WOOD), ("door_", _M.WOOD),
    ("furnace_", _M.ROCK), ("lit_furnace_", _M.ROCK), ("bed_", _M.CLOTH), ("water_", _M.WATER), ("lava_", _M.LAVA),
    ("water", _M.WATER), ("lava", _M.LAVA),
)
"""Block families by name prefix: wooden stairs and doors are wood, furnaces rock, beds cloth, ladders
and torches Beta's `circuits`."""


def _material_by_name(name: str) -> BlockMaterial | None:
    if name in _MATERIALS:
        return _MATERIALS[name]
    for prefix, material in _FAMILY_MATERIALS:
        if name.startswith(prefix) and (prefix.endswith("_") or name == prefix):
            return material
    return None


def _fallback_material(block: int) -> BlockMaterial:
    """A block this table does not name yet (a newly appended one): rock if the registry says the hand
    cannot harvest it, else ground (harvestable, on no tool's list)."""
    return _M.ROCK if blocks.NEEDS_TOOL[block] else _M.GROUND


UNNAMED_BLOCKS: tuple[str, ...] = tuple(name for name in blocks.NAMES if _material_by_name(name) is None)
"""Registry blocks the material table lacks (they get `_fallback_material`); a test keeps it empty."""
MATERIAL_BY_ID: tuple[BlockMaterial, ...] = tuple(
    _material_by_name(name) or _fallback_material(i) for i, name in enumerate(blocks.NAMES))
"""Beta's Material of every block, by id."""
HARVESTABLE = np.array([m.harvestable for m in MATERIAL_BY_ID], dtype=bool)
"""The bare hand harvests the block (its material is not `setNoHarvest`)."""
HARVESTABLE.flags.writeable = False


def _ids(*names: str) -> frozenset[int]:
    """The ids of the named blocks the registry has (Beta's lists name blocks Boxel may not have yet)."""
    return frozenset(blocks.block_id(n) for n in names if n in blocks.NAMES)


_PICKAXE_NAMES = ("cobblestone", "double_slab", "stone_slab", "stone_slab_top", "stone", "sandstone", "iron_ore",
                  "iron_block", "coal_ore", "gold_block", "gold_ore", "diamond_ore", "diamond_block", "ice")
_SHOVEL_NAMES = ("grass", "dirt", "sand", "gravel", "snow", "snow_block", "clay")
_AXE_NAMES = ("planks", "log", "chest")
EFFECTIVE_AGAINST: MappingProxyType[str, frozenset[int]] = MappingProxyType({
    "pickaxe": _ids(*_PICKAXE_NAMES), "shovel": _ids(*_SHOVEL_NAMES), "axe": _ids(*_AXE_NAMES)})
"""Block ids each tool kind digs at its tier's efficiency: Beta's `blocksEffectiveAgainst` (`ItemPickaxe`:
cobblestone, both slabs, stone, sandstone, the ores and blocks of iron, gold and diamond, coal ore, ice,
but not obsidian, redstone ore, bricks or furnaces; `ItemSpade`: grass, dirt, sand, gravel, snow, clay,
not soul sand; `ItemAxe`: planks, logs, chests, not stairs, fences, doors or the crafting table).
Boxel's upper slab counts as Beta's slab."""
WEB = _ids("cobweb")
PICKAXE_LEVEL: MappingProxyType[int, int] = MappingProxyType({
    **{b: ToolTier.DIAMOND.harvest_level for b in _ids("obsidian")},
    **{b: ToolTier.IRON.harvest_level for b in _ids("diamond_ore", "diamond_block", "gold_ore", "gold_block",
                                                    "redstone_ore")},
    **{b: ToolTier.STONE.harvest_level for b in _ids("iron_ore", "iron_block")}})
"""The harvest level a pickaxe needs for these blocks (Beta's `ItemPickaxe.canHarvestBlock`: obsidian
== 3, which is the highest; diamond, gold and redstone >= 2; iron >= 1); any other rock or iron block
needs only a pickaxe."""
SHOVEL_HARVESTS = _ids("snow", "snow_block")
"""Beta's `ItemSpade.canHarvestBlock`: snow and snow blocks."""

DIG_WEAR = MappingProxyType({"pickaxe": 1, "shovel": 1, "axe": 1, "sword": 2})
"""[damage points] A block broken with the tool in hand (Beta's `ItemTool.onBlockDestroyed` 1,
`ItemSword.onBlockDestroyed` 2); hoes and other items take none."""
HIT_WEAR = MappingProxyType({"pickaxe": 2, "shovel": 2, "axe": 2, "sword": 1})
"""[damage points] A mob hit with the tool in hand (Beta's `ItemTool.hitEntity` 2, `ItemSword.hitEntity` 1)."""


# --- checking --------------------------------------------------------------------------------------


def _block(block: object) -> int:
    """`block` as a registry id; TypeError for a non-int, UnknownBlockError (ValueError) for an unknown id."""
    if isinstance(block, bool) or not isinstance(block, (int, np.integer)):
        raise TypeError(f"a block is a registry id (int), got {block!r}")
    blocks.block_name(block)
    return int(block)


def _held(held: object) -> ItemStack | None:
    if held is not None and not isinstance(held, ItemStack):
        raise TypeError(f"the held item is an ItemStack or None, got {held!r}")
    return held


def material_of(block: int) -> BlockMaterial:
    """Beta's Material of block id `block`."""
    return MATERIAL_BY_ID[_block(block)]


# --- digging ---------------------------------------------------------------------------------------


def strength_against(block: int, held: ItemStack | None) -> np.float32:
    """Beta's `InventoryPlayer.getStrVsBlock`: 1.0 times the held item's `getStrVsBlock` (a tool's tier
    efficiency against its list, else 1; a sword 15 against the cobweb, else 1.5; anything else 1)."""
    block, held = _block(block), _held(held)
    if held is None:
        return HAND_STRENGTH
    spec = item_spec(held.item)
    if spec.tool == "sword":
        return SWORD_WEB_STRENGTH if block in WEB else SWORD_STRENGTH
    if spec.tool in EFFECTIVE_AGAINST and block in EFFECTIVE_AGAINST[spec.tool]:
        return np.float32(HAND_STRENGTH * spec.tool_tier.efficiency)
    return HAND_STRENGTH


def can_harvest(block: int, held: ItemStack | None) -> bool:
    """Beta's `EntityPlayer.canHarvestBlock`: the block's material is harvestable, or the held item
    harvests it (pickaxes by tier, shovels snow, swords cobwebs)."""
    block, held = _block(block), _held(held)
    if HARVESTABLE[block]:
        return True
    if held is None:
        return False
    spec = item_spec(held.item)
    if spec.tool == "pickaxe":
        if block in PICKAXE_LEVEL:
            return spec.tool_tier.harvest_level >= PICKAXE_LEVEL[block]
        return MATERIAL_BY_ID[block] in (_M.ROCK, _M.IRON)
    if spec.tool == "shovel":
        return block in SHOVEL_HARVESTS
    if spec.tool == "sword":
        return block in WEB
    return False


def dig_strength(block: int, held: ItemStack | None = None, eye_in_water: bool = False,
                 on_ground: bool = True) -> np.float32:
    """[damage per tick] Beta's `Block.blockStrength(player)` as float32: 0 for an unbreakable block,
    1 / hardness / 100 for a block the player cannot harvest, else `strength_against` (/ 5 with the eye
    in water, / 5 again off the ground) / hardness / 30. Hardness 0 gives infinity: it breaks at once."""
    block = _block(block)
    hardness = np.float32(blocks.HARDNESS[block])
    if hardness < 0:
        return np.float32(0.0)
    with np.errstate(divide="ignore"):
        if not can_harvest(block, held):
            return np.float32(np.float32(1.0) / hardness) / TOOL_LESS_DIVISOR
        strength = strength_against(block, held)
        if eye_in_water:
            strength = strength / PENALTY_DIVISOR
        if not on_ground:
            strength = strength / PENALTY_DIVISOR
        return np.float32(strength / hardness) / HARVEST_DIVISOR


def dig_wear(block: int, held: ItemStack | None) -> int:
    """[damage points] What breaking `block` costs the held item: a tool 1, a sword 2, else 0 (Beta's
    `onBlockDestroyed`, for every block, even one of hardness 0)."""
    _block(block)
    held = _held(held)
    return 0 if held is None else DIG_WEAR.get(item_spec(held.item).tool, 0)


def wears_tool(block: int, held: ItemStack | None) -> bool:
    """Breaking `block` wears the held item (`dig_wear` > 0)."""
    return dig_wear(block, held) > 0


def hit_entity_wear(held: ItemStack | None) -> int:
    """[damage points] What hitting a mob costs the held item: a sword 1, a tool 2, else 0 (Beta's `hitEntity`)."""
    held = _held(held)
    return 0 if held is None else HIT_WEAR.get(item_spec(held.item).tool, 0)


# --- drops -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DropRule:
    """One block's `quantityDropped` and `idDropped`. The quantity is `count`, or `count` +
    nextInt(`count_spread`) when that is > 0, or 1 if nextInt(`one_in`) == 0 else 0 when `one_in` > 0.
    Each item is `item`, or `rare_item` if nextInt(`rare_one_in`) == 0 when that is > 0. None: nothing."""

    item: str | None
    count: int = 1
    count_spread: int = 0
    one_in: int = 0
    rare_item: str | None = None
    rare_one_in: int = 0

    def quantity(self, rng: Random) -> int:
        """Beta's `quantityDropped(rand)`."""
        if self.one_in:
            return 1 if _next_int(rng, self.one_in) == 0 else 0
        if self.count_spread:
            return self.count + _next_int(rng, self.count_spread)
        return self.count

    def item_dropped(self, rng: Random) -> str | None:
        """Beta's `idDropped(meta, rand)`."""
        if self.rare_one_in:
            return self.rare_item if _next_int(rng, self.rare_one_in) == 0 else self.item
        return self.item


def _next_int(rng: Random, bound: int) -> int:
    """Java's `nextInt(bound)` from a JavaRandom, or `randrange(bound)` from a `random.Random`."""
    return rng.next_int(bound) if isinstance(rng, JavaRandom) else rng.randrange(bound)


def _item_if_known(item: str) -> str | None:
    """`item` if the item registry has it (a sapling, before its block exists, has none)."""
    try:
        item_spec(item)
    except ValueError:
        return None
    return item


NOTHING = DropRule(None, count=0)
"""Beta's `quantityDropped` 0: glass, ice, fluids."""
_DROPS = MappingProxyType({
    "stone": DropRule("cobblestone"),
    "grass": DropRule("dirt"),
    "gravel": DropRule("gravel", rare_item="flint", rare_one_in=10),
    "leaves": DropRule(_item_if_known("sapling"), one_in=20),
    "glass": NOTHING, "ice": NOTHING,
    "tall_grass": DropRule(None, rare_item="seeds", rare_one_in=8),
    "cobweb": DropRule("string"),
    "coal_ore": DropRule("coal"),
    "diamond_ore": DropRule("diamond"),
    "redstone_ore": DropRule(None, count=4, count_spread=2),  # Beta's redstone dust: no such item here
    "clay": DropRule("clay_ball", count=4),
    "double_slab": DropRule("stone_slab", count=2),
})
"""Blocks whose drop is not one of their own item (Beta's `idDropped` / `quantityDropped` overrides)."""
_FAMILY_DROPS = (
    ("stairs_", DropRule("planks")),  # Beta's BlockStairs drops as its model block: a plank
    ("door_upper_", DropRule(None)),  # Beta's BlockDoor: the upper half (meta & 8) drops nothing
    ("bed_head_", DropRule(None)),    # Beta's BlockBed: the head (meta & 8) drops nothing
    ("water", NOTHING), ("lava", NOTHING),
)
"""Families whose members drop alike, by name prefix."""


def drop_rule_named(name: str) -> DropRule:
    """The drop rule of the block called `name` (a family member needs no registry entry: "door_upper_*",
    "bed_head_*", "stairs_*"); UnknownBlockError for another name the registry lacks."""
    if name in _DROPS:
        return _DROPS[name]
    for prefix, rule in _FAMILY_DROPS:
        if name.startswith(prefix):
            return rule
    item = block_item(name)
    return DropRule(item) if item is not None else NOTHING


DROP_RULES: tuple[DropRule, ...] = tuple(drop_rule_named(name) for name in blocks.NAMES)
"""Every block's drop rule, by id."""
Random = JavaRandom | random.Random
"""Beta's `world.rand`: Java's generator, or Python's standing in for it."""


def drop_rule(block: int) -> DropRule:
    """Block id `block`'s drop rule (what Beta drops when it is harvested)."""
    return DROP_RULES[_block(block)]


def iter_drops(block: int, held: ItemStack | None, rng: Random) -> Iterator[ItemStack]:
    """The items breaking `block` with `held` drops, one stack of 1 each, lazily in Beta's draw order
    (`dropBlockAsItemWithChance`): quantityDropped first, then per item nextFloat and idDropped. Nothing,
    and no draw, when the player cannot harvest the block (Beta's `sendBlockRemoved`)."""
    block, held = _block(block), _held(held)
    require_rng(rng)
    if not can_harvest(block, held):
        return iter(())
    return _drawn(DROP_RULES[block], rng)


def _drawn(rule: DropRule, rng: Random) -> Iterator[ItemStack]:
    for _ in range(rule.quantity(rng)):
        next_float(rng)  # Beta's chance draw: nextFloat() <= 1.0F, always kept
        item = rule.item_dropped(rng)
        if item is not None:
            yield ItemStack(item)


def drops(block: int, held: ItemStack | None, rng: Random) -> tuple[ItemStack, ...]:
    """Everything `iter_drops` yields, at once (a caller spawning each item from the same `rng` should
    use `iter_drops` to keep Beta's draw order)."""
    return tuple(iter_drops(block, held, rng))
