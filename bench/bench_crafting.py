"""Crafting benchmark: microseconds to find what a crafting grid makes (`game.rules.crafting.craft`).

The cases: a full 3 x 3 grid that is no recipe (nine planks: Beta's loop tries every recipe at
every offset), a full 3 x 3 recipe (the first recipe of nine ingredients the table has: the golden
apple or a block of ingots, once those blocks exist), a wooden pickaxe in the 3 x 3 grid, and a log
in the inventory's 2 x 2 grid. The reference is the readable twin, Beta's `findMatchingRecipe` loop
(`RecipeBook.match_reference`), on the same grid; samples of each alternate, so a slow spell of a
shared machine falls on both. `--quick` takes fewer samples.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from game.rules.crafting import BOOK, Grid
from game.rules.items import ItemStack
from game.rules.recipes import RECIPES

from .harness import Row

SUITE = "crafting"
TARGET = "<= 20 us"
"""The bound for a recipe lookup of a full 3 x 3 grid (survival's crafting screens look one up a click)."""
OURS_INNER, REFERENCE_INNER = 2000, 20
"""Calls per timed sample: enough that the timer's own cost vanishes."""
SAMPLES, QUICK_SAMPLES = 31, 5


def _cases() -> list[tuple[str, Grid]]:
    planks, stick = ItemStack("planks"), ItemStack("stick")
    cases: list[tuple[str, Grid]] = [("full 3x3, no recipe (9 planks)", [[planks] * 3 for _ in range(3)])]
    full = next((r for r in RECIPES if r.width * r.height == 9 and None not in r.cells), None)
    if full is not None:
        grid = [[ItemStack(full.cells[row * 3 + col].item) for col in range(3)] for row in range(3)]
        cases.append((f"full 3x3, {full.result.item}", grid))
    cases.append(("3x3, wooden pickaxe", [[planks] * 3, [None, stick, None], [None, stick, None]]))
    cases.append(("2x2, a log", [[ItemStack("log"), None], [None, None]]))
    return cases


def _per_call_us(operation: Callable[[], object], inner: int) -> float:
    start = time.perf_counter()
    for _ in range(inner):
        operation()
    return (time.perf_counter() - start) / inner * 1e6


def run(quick: bool = False) -> list[Row]:
    rows = []
    for case, grid in _cases():
        if BOOK.match(grid) is not BOOK.match_reference(grid):
            raise AssertionError(f"the two matchers disagree on {case}")
        ours, theirs = [], []
        for _ in range(QUICK_SAMPLES if quick else SAMPLES):
            theirs.append(_per_call_us(lambda: BOOK.match_reference(grid), REFERENCE_INNER))
            ours.append(_per_call_us(lambda: BOOK.craft(grid), OURS_INNER))
        result = BOOK.craft(grid)
        note = f"{len(RECIPES)} recipes; makes {'nothing' if result is None else f'{result.count} {result.item}'}"
        rows.append(Row(SUITE, f"craft, {case}", statistics.median(ours), "us", statistics.median(theirs),
                        TARGET if case.startswith("full") else "", note))
    return rows
