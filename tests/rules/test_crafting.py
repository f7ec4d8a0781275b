"""Crafting by Beta 1.7.3's rules: every recipe at every offset, mirrored, in 2 x 2 and 3 x 3 grids, and
the fast matcher against Beta's own loop."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules.crafting import BOOK, RecipeBook, beta_order, craft, match
from game.rules.items import ItemStack
from game.rules.recipes import RECIPES, Ingredient, ShapedRecipe, ShapelessRecipe

S = ItemStack
PLANKS, STICK, COBBLE, LOG = S("planks"), S("stick"), S("cobblestone"), S("log")


def _grid(side: int, recipe: ShapedRecipe, col0: int, row0: int, mirrored: bool) -> list[list[ItemStack | None]]:
    """`recipe` laid in an empty side x side grid with its corner at (col0, row0), each ingredient one item."""
    grid: list[list[ItemStack | None]] = [[None] * side for _ in range(side)]
    for k, cell in enumerate(recipe.cells):
        col, row = k % recipe.width, k // recipe.width
        if mirrored:
            col = recipe.width - 1 - col
        if cell is not None:
            grid[row0 + row][col0 + col] = S(cell.item)
    return grid


def _placements(side: int, recipe: ShapedRecipe):
    for col0 in range(side - recipe.width + 1):
        for row0 in range(side - recipe.height + 1):
            for mirrored in (False, True):
                yield col0, row0, mirrored


@pytest.mark.parametrize("recipe", RECIPES, ids=lambda r: f"{r.result.item}-{'-'.join(r.rows)}")
def test_every_recipe_crafts_its_result_at_every_offset_of_a_3x3_grid_plain_and_mirrored(recipe):
    for col0, row0, mirrored in _placements(3, recipe):
        grid = _grid(3, recipe, col0, row0, mirrored)
        assert craft(grid) == recipe.result, (col0, row0, mirrored)
        assert match(grid) is recipe


@pytest.mark.parametrize("recipe", [r for r in RECIPES if r.width <= 2 and r.height <= 2],
                         ids=lambda r: f"{r.result.item}-{'-'.join(r.rows)}")
def test_every_recipe_that_fits_crafts_in_the_inventorys_2x2_grid_at_every_offset(recipe):
    for col0, row0, mirrored in _placements(2, recipe):
        assert craft(_grid(2, recipe, col0, row0, mirrored)) == recipe.result


def test_a_log_makes_four_planks_and_two_planks_stacked_make_four_sticks():
    assert craft([[None, None], [None, LOG]]) == S("planks", 4)
    assert craft([[None, None, PLANKS], [None, None, PLANKS], [None, None, None]]) == S("stick", 4)


def test_the_axe_is_crafted_facing_either_way_as_beta_mirrors_it():
    left = [[PLANKS, PLANKS, None], [PLANKS, STICK, None], [None, STICK, None]]
    right = [[None, PLANKS, PLANKS], [None, STICK, PLANKS], [None, STICK, None]]
    assert craft(left) == craft(right) == S("wooden_axe")


def test_stairs_mirrored_are_stairs_and_upside_down_are_nothing():
    stairs = [[PLANKS, None, None], [PLANKS, PLANKS, None], [PLANKS, PLANKS, PLANKS]]
    assert craft(stairs) == S("wooden_stairs", 4)
    assert craft([row[::-1] for row in stairs]) == S("wooden_stairs", 4)
    assert craft(stairs[::-1]) is None


@pytest.mark.parametrize("grid", [
    [[None, None], [None, None]],
    [[None] * 3 for _ in range(3)],
    [[PLANKS] * 3 for _ in range(3)],
    [[STICK, None, None], [COBBLE, None, None], [COBBLE, None, None]],       # a sword upside down
    [[PLANKS, PLANKS, PLANKS], [None, STICK, None], [None, STICK, STICK]],   # a pickaxe and a stick too many
    [[PLANKS, None], [None, PLANKS]],                                        # sticks, but apart
    [[S("coal"), None], [S("planks"), None]],                               # a torch on planks
    [[PLANKS, PLANKS], [PLANKS, None]],
])
def test_a_grid_that_is_no_recipe_crafts_nothing(grid):
    assert craft(grid) is None


def test_the_count_in_a_slot_does_not_matter_and_the_result_count_is_betas():
    assert craft([[S("log", 64), None], [None, None]]) == S("planks", 4)
    assert craft([[S("stone", 5), S("stone", 2), S("stone", 1)], [None] * 3, [None] * 3]) == S("stone_slab", 3)


def test_a_block_ingredient_takes_any_damage_but_an_item_ingredient_only_none():
    assert craft([[S("planks", 1, 2), None], [S("planks", 1, 7), None]]) == S("stick", 4)
    assert craft([[S("coal"), None], [S("stick", 1, 1), None]]) is None
    assert craft([[S("coal"), None], [STICK, None]]) == S("torch", 4)


def test_a_recipe_too_wide_for_the_2x2_grid_cannot_be_made_there():
    assert craft([[PLANKS, PLANKS], [PLANKS, PLANKS]]) != S("wooden_stairs", 4)
    assert craft([[S("wheat"), S("wheat")], [None, None]]) is None


@pytest.mark.parametrize(("grid", "error"), [
    ([[None]], ValueError), ([[None] * 4] * 4, ValueError), ([[None, None], [None]], ValueError),
    ("abcd", TypeError), ([["a", None], [None, None]], TypeError), (None, TypeError), ([None, None], TypeError),
    ([[None, None, None], [None, None, None]], ValueError)])
def test_a_grid_that_is_not_2x2_or_3x3_slots_is_refused(grid, error):
    with pytest.raises(error):
        craft(grid)
    with pytest.raises(error):
        BOOK.match_reference(grid)


def test_a_grid_of_tuples_or_other_sequences_crafts_as_a_list_does():
    class Rows(tuple):
        pass
    assert craft(((LOG, None), (None, None))) == S("planks", 4)
    assert craft(Rows([Rows([LOG, None]), Rows([None, None])])) == S("planks", 4)


# A book with shapeless recipes (Beta has them for dyes only) to pin their rules.
MIX = ShapelessRecipe(S("bread"), (Ingredient("wheat"), Ingredient("seeds"), Ingredient("wheat")))
WORN = ShapelessRecipe(S("flint"), (Ingredient("stone_axe", None), Ingredient("stone_axe", 3)))
SHAPED_TWO_WHEAT = ShapedRecipe(S("apple"), ("##",), (("#", "wheat"),))
SHAPELESS_TWO_WHEAT = ShapelessRecipe(S("stick"), (Ingredient("wheat"), Ingredient("wheat")))
TEST_BOOK = RecipeBook((SHAPELESS_TWO_WHEAT, MIX, WORN, SHAPED_TWO_WHEAT, *RECIPES))


def test_a_shapeless_recipe_takes_its_ingredients_in_any_slots():
    w, s = S("wheat"), S("seeds")
    assert TEST_BOOK.craft([[w, None, None], [None, None, s], [None, w, None]]) == S("bread")
    assert TEST_BOOK.craft([[s, w], [w, None]]) == S("bread")
    assert TEST_BOOK.craft([[s, w], [w, w]]) is None
    assert TEST_BOOK.craft([[s, w], [None, None]]) is None


def test_a_shapeless_slot_takes_the_first_unused_ingredient_it_fits_as_beta():
    # Row by row: the axe worn 3 takes the wildcard first, so the unworn one below finds only "worn 3".
    worn, new = S("stone_axe", 1, 3), S("stone_axe")
    assert TEST_BOOK.craft([[worn, None], [new, None]]) is None
    assert TEST_BOOK.craft([[new, None], [worn, None]]) == S("flint")
    assert TEST_BOOK.match_reference([[worn, None], [new, None]]) is None


def test_shaped_recipes_come_before_shapeless_ones_that_match_the_same_grid():
    w = S("wheat")
    assert beta_order((SHAPELESS_TWO_WHEAT, SHAPED_TWO_WHEAT))[0] is SHAPED_TWO_WHEAT
    assert TEST_BOOK.craft([[w, w], [None, None]]) == S("apple")
    assert TEST_BOOK.craft([[w, None], [w, None]]) == S("stick")


def test_larger_recipes_are_tried_first_as_betas_recipe_sorter():
    ordered = beta_order(RECIPES)
    sizes = [r.width * r.height for r in ordered]
    assert sizes == sorted(sizes, reverse=True)


_POOL = sorted({c.item for r in RECIPES for c in r.cells if c is not None} | {"stone_axe", "seeds", "dirt"})
_stacks = st.one_of(st.none(), st.builds(ItemStack, st.sampled_from(_POOL), st.just(1), st.sampled_from((0, 0, 0, 3))))


@st.composite
def _grids(draw):
    """Random grids, half of them a recipe laid at a random offset and mirroring with one slot perhaps changed."""
    side = draw(st.sampled_from((2, 3)))
    fitting = [r for r in RECIPES if r.width <= side and r.height <= side]
    if draw(st.booleans()):
        recipe = draw(st.sampled_from(fitting))
        grid = _grid(side, recipe, draw(st.integers(0, side - recipe.width)),
                     draw(st.integers(0, side - recipe.height)), draw(st.booleans()))
        if draw(st.booleans()):
            grid[draw(st.integers(0, side - 1))][draw(st.integers(0, side - 1))] = draw(_stacks)
        return grid
    return [[draw(_stacks) for _ in range(side)] for _ in range(side)]


@settings(max_examples=400, deadline=None)
@given(_grids())
def test_the_indexed_matcher_gives_exactly_what_betas_loop_gives(grid):
    assert BOOK.match(grid) is BOOK.match_reference(grid)
    assert TEST_BOOK.match(grid) is TEST_BOOK.match_reference(grid)
