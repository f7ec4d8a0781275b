"""Beta 1.7.3's crafting recipes, as data: one table of shaped and shapeless recipes.

Owns: the recipe value types (`ShapedRecipe`, `ShapelessRecipe`, `Ingredient`) and the table
(`RECIPES`): every recipe of Beta's `CraftingManager` (its constructor's body and `RecipesTools`,
`RecipesWeapons`, `RecipesIngots`, `RecipesFood`, `RecipesCrafting`) whose ingredients and result
exist in Boxel, in Beta's order, with Beta's result counts.
Does not own: matching a grid against them (`game.rules.crafting`), items (`game.rules.items`) or
the crafting screens (`game.rules.containers`).

Beta's ingredient rule (its `CraftingManager.addRecipe`): a shaped recipe's block ingredient
matches any metadata (an `ItemStack(block, 1, -1)`: `Ingredient.damage` None here) and an item
ingredient only damage 0; every shapeless ingredient is exact. Beta mirrors every shaped recipe
(`ShapedRecipes.checkMatch`) and has no shapeless recipe outside its dyes, so `RECIPES` holds none today;
the type is here for the matcher and later recipes.

Left out, because Boxel lacks Beta's ingredient or result: shears, bow, arrow (RecipesTools,
RecipesWeapons); lapis block and back (RecipesIngots); cookie (RecipesFood); all armor
(RecipesArmor) and dyes and coloured wool (RecipesDyes); paper, book, jukebox, note block, bookshelf,
snow block, glowstone, TNT, the cobblestone, sandstone and wooden slabs, trapdoor, iron door, sign,
cake, sugar, rails, powered and detector rails, minecarts, jack-o'-lantern, boat, bucket, flint and
steel, fishing rod, cobblestone stairs, painting, lever, redstone torch, repeater, clock, compass,
map, stone button, pressure plates, dispenser, pistons (the CraftingManager body).
"""

from __future__ import annotations

from dataclasses import dataclass

from .items import BLOCK_ITEM_NAMES, ItemStack, item_spec

GRID_SIDE = 3
"""The largest crafting grid is 3 x 3 (the crafting table); the inventory's is 2 x 2."""
EMPTY_KEY = " "
"""A shaped recipe's row character for a slot that must be empty."""


@dataclass(frozen=True, slots=True)
class Ingredient:
    """What one slot of a recipe takes: `item`, at damage `damage` (None: any, Beta's -1 wildcard)."""

    item: str
    damage: int | None = 0

    def accepts(self, stack: ItemStack) -> bool:
        """Whether `stack` fills this slot (Beta: same item id, and the damage matches unless a wildcard)."""
        return stack.item == self.item and (self.damage is None or stack.damage == self.damage)


def _ingredient(item: str) -> Ingredient:
    """A shaped recipe's ingredient as Beta's `addRecipe` makes it: a block any damage, an item damage 0."""
    return Ingredient(item, None if item in BLOCK_ITEM_NAMES else 0)


@dataclass(frozen=True, slots=True)
class ShapedRecipe:
    """A pattern of ingredients (`rows`, top row first, `key` naming each character's item) and its result."""

    result: ItemStack
    rows: tuple[str, ...]
    key: tuple[tuple[str, str], ...]
    """(character, item name) pairs; a space is an empty slot."""
    source: str = "CraftingManager"
    """The Beta class that adds it."""

    def __post_init__(self) -> None:
        if not self.rows or len(self.rows) > GRID_SIDE or len({len(r) for r in self.rows}) != 1 \
                or not 1 <= len(self.rows[0]) <= GRID_SIDE:
            raise ValueError(f"a shaped recipe's rows are 1..3 strings of one length 1..3, got {self.rows!r}")
        keys = dict(self.key)
        used = set("".join(self.rows)) - {EMPTY_KEY}
        if used != set(keys) or EMPTY_KEY in keys:
            raise ValueError(f"a shaped recipe's key names exactly the characters of its rows: {self.rows!r}, {keys!r}")
        if any(set(row) == {EMPTY_KEY} for row in (self.rows[0], self.rows[-1])) or \
                any(all(row[col] == EMPTY_KEY for row in self.rows) for col in (0, self.width - 1)):
            raise ValueError(f"a shaped recipe has no empty edge row or column, got {self.rows!r}")
        for item in keys.values():
            item_spec(item)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def cells(self) -> tuple[Ingredient | None, ...]:
        """The pattern row by row (Beta's recipeItems: index col + row * width), None where empty."""
        keys = dict(self.key)
        return tuple(None if ch == EMPTY_KEY else _ingredient(keys[ch]) for row in self.rows for ch in row)

    @property
    def items(self) -> frozenset[str]:
        """Every item the recipe names, its result's included."""
        return frozenset({self.result.item, *(item for _, item in self.key)})


@dataclass(frozen=True, slots=True)
class ShapelessRecipe:
    """Ingredients in any slots (one per slot) and the result."""

    result: ItemStack
    ingredients: tuple[Ingredient, ...]
    source: str = "CraftingManager"

    def __post_init__(self) -> None:
        if not 1 <= len(self.ingredients) <= GRID_SIDE * GRID_SIDE or \
                not all(isinstance(i, Ingredient) for i in self.ingredients):
            raise ValueError(f"a shapeless recipe takes 1..9 Ingredients, got {self.ingredients!r}")

    @property
    def items(self) -> frozenset[str]:
        return frozenset({self.result.item, *(i.item for i in self.ingredients)})


Recipe = ShapedRecipe | ShapelessRecipe


TableRow = tuple[str, int, tuple[str, ...], tuple[tuple[str, str], ...], str]
"""A recipe as data: (result item, result count, rows, key pairs, Beta's source class)."""


def _shaped(result: str, count: int, rows: tuple[str, ...], key: dict[str, str],
            source: str = "CraftingManager") -> TableRow:
    return result, count, rows, tuple(key.items()), source


_TIERS = (("planks", "wooden"), ("cobblestone", "stone"), ("iron_ingot", "iron"), ("diamond", "diamond"),
          ("gold_ingot", "golden"))
"""Beta's tool materials in its recipe order (wood, stone, iron, diamond, gold) and their item prefixes."""
_TOOL_PATTERNS = (("pickaxe", ("XXX", " # ", " # ")), ("shovel", ("X", "#", "#")), ("axe", ("XX", "X#", " #")),
                  ("hoe", ("XX", " #", " #")))
"""RecipesTools' patterns: X the material, # a stick."""
_STORAGE_BLOCKS = (("gold_block", "gold_ingot"), ("iron_block", "iron_ingot"), ("diamond_block", "diamond"))
"""RecipesIngots: a block of nine, and back."""

TABLE: tuple[TableRow, ...] = (
    # RecipesTools: for each material, pickaxe, shovel, axe, hoe.
    *(_shaped(f"{prefix}_{tool}", 1, rows, {"#": "stick", "X": material}, "RecipesTools")
      for material, prefix in _TIERS for tool, rows in _TOOL_PATTERNS),
    # RecipesWeapons: the sword.
    *(_shaped(f"{prefix}_sword", 1, ("X", "X", "#"), {"#": "stick", "X": material}, "RecipesWeapons")
      for material, prefix in _TIERS),
    # RecipesIngots.
    *(row for block, ingot in _STORAGE_BLOCKS
      for row in (_shaped(block, 1, ("###", "###", "###"), {"#": ingot}, "RecipesIngots"),
                  _shaped(ingot, 9, ("#",), {"#": block}, "RecipesIngots"))),
    # RecipesFood.
    _shaped("mushroom_stew", 1, ("Y", "X", "#"), {"X": "brown_mushroom", "Y": "red_mushroom", "#": "bowl"},
            "RecipesFood"),
    _shaped("mushroom_stew", 1, ("Y", "X", "#"), {"X": "red_mushroom", "Y": "brown_mushroom", "#": "bowl"},
            "RecipesFood"),
    # RecipesCrafting.
    _shaped("chest", 1, ("###", "# #", "###"), {"#": "planks"}, "RecipesCrafting"),
    _shaped("furnace", 1, ("###", "# #", "###"), {"#": "cobblestone"}, "RecipesCrafting"),
    _shaped("crafting_table", 1, ("##", "##"), {"#": "planks"}, "RecipesCrafting"),
    _shaped("sandstone", 1, ("##", "##"), {"#": "sand"}, "RecipesCrafting"),
    # The CraftingManager constructor's own recipes.
    _shaped("fence", 2, ("###", "###"), {"#": "stick"}),
    _shaped("clay", 1, ("##", "##"), {"#": "clay_ball"}),
    _shaped("bricks", 1, ("##", "##"), {"#": "brick"}),
    _shaped("wool", 1, ("##", "##"), {"#": "string"}),
    _shaped("stone_slab", 3, ("###",), {"#": "stone"}),
    _shaped("ladder", 2, ("# #", "###", "# #"), {"#": "stick"}),
    _shaped("wooden_door", 1, ("##", "##", "##"), {"#": "planks"}),
    _shaped("planks", 4, ("#",), {"#": "log"}),
    _shaped("stick", 4, ("#", "#"), {"#": "planks"}),
    _shaped("torch", 4, ("X", "#"), {"X": "coal", "#": "stick"}),
    _shaped("torch", 4, ("X", "#"), {"X": "charcoal", "#": "stick"}),   # Beta: coal of damage 1
    _shaped("bowl", 4, ("# #", " # "), {"#": "planks"}),
    _shaped("bread", 1, ("###",), {"#": "wheat"}),
    _shaped("wooden_stairs", 4, ("#  ", "## ", "###"), {"#": "planks"}),
    _shaped("golden_apple", 1, ("###", "#X#", "###"), {"#": "gold_block", "X": "apple"}),
    _shaped("bed", 1, ("###", "XXX"), {"#": "wool", "X": "planks"}),
)
"""Every Beta recipe Boxel keeps, as (result, count, rows, key, source), in the order Beta's CraftingManager
adds them."""

def _build(row: TableRow) -> ShapedRecipe:
    """The recipe of a table row (an item the registry lacks is refused: UnknownItemError at import)."""
    result, count, rows, key, source = row
    return ShapedRecipe(ItemStack(result, count), rows, key, source)


RECIPES: tuple[Recipe, ...] = tuple(map(_build, TABLE))
"""Every recipe, in Beta's order."""
