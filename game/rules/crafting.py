"""Crafting: what a 2 x 2 or 3 x 3 grid of item stacks makes, by Beta 1.7.3's `CraftingManager`.

Owns: matching a grid against the recipes (`craft`, `match`, and `RecipeBook` for another set of
recipes), by Beta's rules:
- recipes are tried in Beta's `RecipeSorter` order: shaped before shapeless, then larger first
  (width x height, or the ingredient count), the table's order between equals; the first match wins;
- a shaped recipe matches at any offset where it fits in a 3 x 3 grid (a 2 x 2 grid reads as a 3 x 3
  one whose third row and column are empty, as Beta's `InventoryCrafting.getStackInRowAndColumn`),
  plain or mirrored left to right (`ShapedRecipes.checkMatch`), with every other slot empty;
  a slot matches an ingredient of the same item whose damage equals its own, or is Beta's -1 wildcard;
- a shapeless recipe matches when each filled slot, row by row, takes one of its ingredients still
  unused and none is left over (`ShapelessRecipes.matches`).
The result is the recipe's stack, Beta's count. Taking it (one of each ingredient used up) belongs
to the crafting slots (`game.rules.containers`).
Does not own: the recipes (`game.rules.recipes`) or the items (`game.rules.items`).

Two matchers with the same answers: `RecipeBook.match` looks the whole grid up by its item names in a
dict built once (every recipe at every offset in a 2 x 2 and a 3 x 3 grid, plain and mirrored: about
a thousand keys), then checks the damages its exact ingredients demand; the readable twin
`RecipeBook.match_reference` is Beta's loop over every recipe, offset and mirroring.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from .items import ItemStack
from .recipes import GRID_SIDE, RECIPES, Ingredient, Recipe, ShapedRecipe, ShapelessRecipe

GRID_SIDES = (2, 3)
"""A crafting grid is 2 x 2 (the inventory's) or 3 x 3 (the crafting table's)."""

Grid = Sequence[Sequence[ItemStack | None]]
"""Rows of slots, top row first: grid[row][column], each an ItemStack or None (empty)."""

_GridKey = tuple[int, tuple[str | None, ...]]
"""A whole grid by item names: (side, the slots row by row, None where empty)."""


def _recipe_size(recipe: Recipe) -> int:
    """Beta's `IRecipe.getRecipeSize`: a shaped recipe's width x height, a shapeless one's ingredient count."""
    if isinstance(recipe, ShapedRecipe):
        return recipe.width * recipe.height
    return len(recipe.ingredients)


def beta_order(recipes: Sequence[Recipe]) -> tuple[Recipe, ...]:
    """`recipes` sorted as Beta's `RecipeSorter`: shaped first, then larger first; a stable sort."""
    return tuple(sorted(recipes, key=lambda r: (isinstance(r, ShapelessRecipe), -_recipe_size(r))))


def _oriented(recipe: ShapedRecipe, mirrored: bool) -> tuple[Ingredient | None, ...]:
    """The recipe's cells row by row, flipped left to right when `mirrored` (Beta's width - col - 1)."""
    cells, width = recipe.cells, recipe.width
    if not mirrored:
        return cells
    return tuple(cells[width - col - 1 + row * width] for row in range(recipe.height) for col in range(width))


def _placements(recipe: ShapedRecipe) -> Iterator[tuple[_GridKey, tuple[tuple[int, int], ...]]]:
    """Every way `recipe` lies in a 2 x 2 or 3 x 3 grid: (the grid's key, the (slot, damage) pairs its
    non-wildcard ingredients demand), each offset and mirroring once."""
    seen = set()
    for side in GRID_SIDES:
        for mirrored in (True, False):
            cells = _oriented(recipe, mirrored)
            for col0 in range(side - recipe.width + 1):
                for row0 in range(side - recipe.height + 1):
                    slots: list[Ingredient | None] = [None] * (side * side)
                    for k, cell in enumerate(cells):
                        slots[(row0 + k // recipe.width) * side + col0 + k % recipe.width] = cell
                    key = (side, tuple(None if c is None else c.item for c in slots))
                    if key not in seen:
                        seen.add(key)
                        yield key, tuple((i, c.damage) for i, c in enumerate(slots)
                                         if c is not None and c.damage is not None)


def _rows(grid: object) -> int:
    """The side of a valid grid (2 or 3); TypeError/ValueError saying what is wrong otherwise."""
    if isinstance(grid, (str, bytes)) or not isinstance(grid, Sequence):
        raise TypeError(f"a crafting grid is a sequence of rows, got {type(grid).__name__}")
    side = len(grid)
    if side not in GRID_SIDES:
        raise ValueError(f"a crafting grid is 2 x 2 or 3 x 3, got {side} rows")
    for row in grid:
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
            raise TypeError(f"a crafting grid's row is a sequence of slots, got {type(row).__name__}")
        if len(row) != side:
            raise ValueError(f"a crafting grid is square: {side} rows of {side} slots, got a row of {len(row)}")
        for stack in row:
            if stack is not None and not isinstance(stack, ItemStack):
                raise TypeError(f"a crafting slot holds an ItemStack or None, got {type(stack).__name__}")
    return side


def _shapeless_accepts(recipe: ShapelessRecipe, stacks: Sequence[ItemStack]) -> bool:
    """Beta's `ShapelessRecipes.matches` given the filled slots row by row: each takes the first unused
    ingredient it fits; false when one fits none or an ingredient is left."""
    left = list(recipe.ingredients)
    for stack in stacks:
        for k, ingredient in enumerate(left):
            if ingredient.accepts(stack):
                del left[k]
                break
        else:
            return False
    return not left


class RecipeBook:
    """A set of recipes and the index that matches a grid against them."""

    def __init__(self, recipes: Sequence[Recipe]) -> None:
        if not all(isinstance(r, (ShapedRecipe, ShapelessRecipe)) for r in recipes):
            raise TypeError("a recipe book holds ShapedRecipe and ShapelessRecipe values")
        self.recipes: tuple[Recipe, ...] = beta_order(recipes)
        """The recipes in the order Beta tries them."""
        shaped: dict[_GridKey, list[tuple[Recipe, tuple[tuple[int, int], ...]]]] = {}
        shapeless: dict[tuple[str, ...], list[ShapelessRecipe]] = {}
        for recipe in self.recipes:
            if isinstance(recipe, ShapedRecipe):
                for key, exact in _placements(recipe):
                    shaped.setdefault(key, []).append((recipe, exact))
            else:
                shapeless.setdefault(tuple(sorted(i.item for i in recipe.ingredients)), []).append(recipe)
        self._shaped = {key: tuple(value) for key, value in shaped.items()}
        self._shapeless = {key: tuple(value) for key, value in shapeless.items()}

    def match(self, grid: Grid) -> Recipe | None:
        """The recipe Beta crafts from `grid` (2 x 2 or 3 x 3), None if none; TypeError/ValueError for a bad grid."""
        side = len(grid) if isinstance(grid, (list, tuple)) else 0
        flat = [stack for row in grid for stack in row] if side in GRID_SIDES else ()
        if len(flat) != side * side or any(s is not None and type(s) is not ItemStack for s in flat) \
                or any(len(row) != side for row in grid):
            side = _rows(grid)  # raises saying what is wrong, or else it is another kind of Sequence
            flat = [stack for row in grid for stack in row]
        names = tuple([None if s is None else s.item for s in flat])
        for recipe, exact in self._shaped.get((side, names), ()):
            if all(flat[index].damage == damage for index, damage in exact):
                return recipe
        filled = [s for s in flat if s is not None]
        for recipe in self._shapeless.get(tuple(sorted([s.item for s in filled])), ()):
            if _shapeless_accepts(recipe, filled):
                return recipe
        return None

    def match_reference(self, grid: Grid) -> Recipe | None:
        """`match` as Beta's `findMatchingRecipe` does it: every recipe in order, every offset and mirroring."""
        side = _rows(grid)

        def slot(col: int, row: int) -> ItemStack | None:
            return grid[row][col] if col < side and row < side else None

        for recipe in self.recipes:
            if isinstance(recipe, ShapedRecipe):
                cells = recipe.cells
                if any(_fits_at(recipe, cells, slot, col, row, mirrored)
                       for col in range(GRID_SIDE - recipe.width + 1) for row in range(GRID_SIDE - recipe.height + 1)
                       for mirrored in (True, False)):
                    return recipe
            else:
                stacks = [slot(col, row) for row in range(GRID_SIDE) for col in range(GRID_SIDE)]
                stacks = [s for s in stacks if s is not None]
                if _shapeless_accepts(recipe, stacks):
                    return recipe
        return None

    def craft(self, grid: Grid) -> ItemStack | None:
        """What `grid` crafts (the matching recipe's result stack), None if nothing."""
        recipe = self.match(grid)
        return None if recipe is None else recipe.result


def _fits_at(recipe: ShapedRecipe, cells: tuple[Ingredient | None, ...], slot: Callable[[int, int], ItemStack | None],
            col0: int, row0: int, mirrored: bool) -> bool:
    """Beta's `ShapedRecipes.checkMatch`: the recipe (its `cells`) placed with its corner at (col0, row0),
    mirrored or not, against all nine slots."""
    for col in range(GRID_SIDE):
        for row in range(GRID_SIDE):
            x, y = col - col0, row - row0
            wanted = None
            if 0 <= x < recipe.width and 0 <= y < recipe.height:
                wanted = cells[(recipe.width - x - 1 if mirrored else x) + y * recipe.width]
            stack = slot(col, row)
            if stack is None and wanted is None:
                continue
            if stack is None or wanted is None or not wanted.accepts(stack):
                return False
    return True


BOOK = RecipeBook(RECIPES)
"""Beta's recipes (`game.rules.recipes.RECIPES`), indexed."""


def craft(grid: Grid) -> ItemStack | None:
    """What a 2 x 2 or 3 x 3 grid of stacks (grid[row][column], None for empty) crafts by Beta's
    recipes, None if nothing; TypeError/ValueError for a grid of another shape or a slot that is not
    an ItemStack or None."""
    return BOOK.craft(grid)


def match(grid: Grid) -> Recipe | None:
    """The recipe `craft` uses for `grid`, None if none."""
    return BOOK.match(grid)
