"""The creative inventory's name by the pointer always names what is under the pointer now: after
a ladder is put in the Stone Slab's slot it says "Ladder" with the pointer still there, and through
any mix of moves, clicks, drags, digit keys, scrolls and hotbar changes it equals the rule (the grid
entry's or the slot block's label; nothing over a gap, an empty cell, or while a block is held).
The screen runs in Ursina with no window, in a subprocess; the pointer is set on Ursina's mouse."""

from __future__ import annotations

import random

from game.rules.hotbar import SLOT_COUNT
from game.rules.inventory import CATALOGUE
from game.window.ui.inventory_screen import grid_cell_centre, hit_at, slot_centre
from tests.game.conftest import print_probe, run_probe

FUZZ_STEPS = 3000
"""Random actions in the fuzz run, each followed by a frame."""
SLOT_KEYS = tuple("123456789")
STONE_SLAB_SLOT = 8
"""The default hotbar's last slot holds the stone slab."""
LADDER_CELL = 16
"""The ladder's grid cell (catalogue order, no scroll)."""


def expected_name(pointer: tuple[float, float], held: str | None, slots: tuple[str, ...], scroll: int) -> str:
    """The rule: the label of what is under `pointer`, none over nothing or while a block is held."""
    hit = hit_at(*pointer)
    if hit is None or held is not None:
        return ""
    if hit.kind == "slot":
        return CATALOGUE.entry_of(slots[hit.index]).label
    entry = CATALOGUE.shown(scroll)[hit.index]
    return "" if entry is None else entry.label


class Player:
    """Drives the screen as the app does: the pointer on Ursina's mouse, inputs through `handle`,
    puts applied to the hotbar at the next tick (as the session does) and shown with `show_hotbar`."""

    def __init__(self) -> None:
        from ursina import Vec3, mouse

        from game.rules.hotbar import Hotbar
        from game.window.ui.inventory_screen import InventoryScreen

        self.pointer = slot_centre(STONE_SLAB_SLOT)
        type(mouse).position = property(lambda _: Vec3(self.pointer[0], self.pointer[1], 0))
        self.puts: list[tuple[int, str]] = []
        self.hotbar = Hotbar()
        self.screen = InventoryScreen(on_put=lambda slot, block: self.puts.append((slot, block)), slot_keys=SLOT_KEYS)
        self.screen.open(self.hotbar)

    def frame(self) -> str:
        self.screen.update()
        return self.screen.tooltip.text

    def tick(self) -> None:
        for slot, block in self.puts:
            self.hotbar.put(slot, block)
        self.puts.clear()
        self.screen.show_hotbar(self.hotbar)

    def expected(self) -> str:
        return expected_name(self.pointer, self.screen.held, self.hotbar.slots, self.screen.scroll)


def probe_tooltip() -> None:
    """Run in a subprocess: the ladder put over the Stone Slab's slot, then the fuzz; prints the names seen."""
    from ursina import Ursina

    Ursina(window_type="none", size=(1280, 720))
    player = Player()
    seen = {"over the slab's slot": player.frame()}
    player.pointer = grid_cell_centre(LADDER_CELL)
    seen["over the ladder"] = player.frame()
    player.screen.handle("left mouse down", player.pointer)
    player.screen.handle("left mouse up", player.pointer)
    seen["ladder picked up"] = player.frame()
    player.pointer = slot_centre(STONE_SLAB_SLOT)
    player.screen.handle("left mouse down", player.pointer)
    player.screen.handle("left mouse up", player.pointer)
    seen["put, before the tick"] = player.frame()
    player.tick()
    seen["put, after the tick"] = player.frame()
    seen["slot now holds"] = player.hotbar.slots[STONE_SLAB_SLOT]
    seen["fuzz"] = fuzz(Player())
    try:
        player.screen.tooltip_text(("slot", 8))
    except TypeError as error:
        seen["not a hit"] = str(error)
    print_probe(seen)


def fuzz(player: Player) -> dict:
    """FUZZ_STEPS random actions, a frame after each; the first name that broke the rule, if any."""
    rng = random.Random(36)
    targets = ([grid_cell_centre(i) for i in range(CATALOGUE.columns * CATALOGUE.rows_shown)]
               + [slot_centre(k) for k in range(SLOT_COUNT)])
    for step in range(FUZZ_STEPS):
        action = rng.choice(("move", "move", "gap", "press", "release", "digit", "scroll up", "scroll down",
                             "tick", "tick"))
        if action == "move":
            player.pointer = rng.choice(targets)
        elif action == "gap":
            player.pointer = (rng.uniform(-1.0, 1.0), rng.uniform(-0.5, 0.5))
        elif action in ("press", "release"):
            player.screen.handle(f"left mouse {'down' if action == 'press' else 'up'}", player.pointer)
        elif action == "digit":
            player.screen.handle(rng.choice(SLOT_KEYS), player.pointer)
        elif action == "tick":
            player.tick()
        else:
            player.screen.handle(action, player.pointer)
        shown = player.frame()
        if shown != player.expected():
            return {"steps": step + 1, "broken": f"after {action}: {shown!r}, not {player.expected()!r}"}
    return {"steps": FUZZ_STEPS, "broken": None}


def test_after_a_ladder_is_put_in_the_stone_slabs_slot_the_name_by_the_pointer_says_ladder():
    seen = run_probe(__name__, "probe_tooltip")
    assert seen["over the slab's slot"] == "Stone Slab" and seen["over the ladder"] == "Ladder"
    assert seen["ladder picked up"] == ""  # no name while a block hangs on the pointer
    assert seen["put, before the tick"] == "Stone Slab"  # the session has not put it yet
    assert seen["slot now holds"] == "ladder_north"
    assert seen["put, after the tick"] == "Ladder"
    assert seen["fuzz"] == {"steps": FUZZ_STEPS, "broken": None}
    assert seen["not a hit"] == "tooltip_text needs a Hit or None, got ('slot', 8)"
