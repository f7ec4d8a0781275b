"""Where the survival screens' slots are: Beta 1.7.3's GUI layouts, as pure arithmetic (no Ursina).

Owns: each screen's panel size and slot positions in Beta's GUI pixels (`GuiInventory`,
`GuiCrafting`, `GuiChest`, `GuiFurnace`: a slot's 16-pixel item square at (x, y) from the panel's
top-left, 18 pixels apart), in the slot numbers of `game.rules.containers`; the labels and the
furnace's flame and arrow; turning them into `camera.ui` points (`slot_centre`) and a pointer
into a slot (`slot_at`: a slot number, OUTSIDE beyond the panel as Beta's `GuiContainer`, or None
inside the panel between slots).
Does not own: drawing (`game.window.ui.survival_screens`) or what a click does (`game.rules.containers`).

Units: GUI pixels in layouts; `camera.ui` window heights after `GUI_PIXEL` (the panel is centred
on the window; a double chest's panel, the tallest, is 222 GUI pixels: 0.89 of the window).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...rules.containers import OUTSIDE
from ...rules.smelting import COOK_TICKS

GUI_PIXEL = 0.004
"""[window heights] One of Beta's GUI pixels: the double chest's 222-pixel panel fits a window with room."""
SLOT_PITCH = 18
"""[GUI pixels] From one slot to the next (Beta's 16-pixel item square and its 1-pixel frame each side)."""
ITEM_PIXELS = 16
"""[GUI pixels] The item square of a slot (where clicks land, Beta's `isMouseOverSlot`)."""
PANEL_WIDTH = 176
"""[GUI pixels] Every screen's panel width (Beta's xSize)."""


@dataclass(frozen=True, slots=True)
class ScreenLayout:
    """One screen's panel and slots."""

    kind: str
    width: int
    """[GUI pixels] Panel width."""
    height: int
    """[GUI pixels] Panel height."""
    slots: tuple[tuple[int, int], ...]
    """[GUI pixels] Top-left of each slot's item square, by slot number."""
    labels: tuple[tuple[str, int, int], ...]
    """(text, x, y) of each caption, top-left, GUI pixels."""
    flame: tuple[int, int] | None = None
    """[GUI pixels] Top-left of the furnace's 14 x 14 flame (burn time left), furnaces only."""
    arrow: tuple[int, int] | None = None
    """[GUI pixels] Top-left of the furnace's 24 x 17 arrow (cooking progress), furnaces only."""


def _player_slots(top: int) -> list[tuple[int, int]]:
    """The main 27 (three rows from `top`) and the hotbar 58 pixels below `top`."""
    main = [(8 + c * SLOT_PITCH, top + r * SLOT_PITCH) for r in range(3) for c in range(9)]
    return main + [(8 + c * SLOT_PITCH, top + 58) for c in range(9)]


def inventory_layout() -> ScreenLayout:
    """Beta's `GuiInventory` over `ContainerPlayer`: result, 2x2 grid, armour, main, hotbar."""
    slots = [(144, 36)] + [(88 + c * SLOT_PITCH, 26 + r * SLOT_PITCH) for r in range(2) for c in range(2)]
    slots += [(8, 8 + k * SLOT_PITCH) for k in range(4)]
    return ScreenLayout("inventory", PANEL_WIDTH, 166, tuple(slots + _player_slots(84)), (("Crafting", 86, 16),))


def crafting_table_layout() -> ScreenLayout:
    """Beta's `GuiCrafting` over `ContainerWorkbench`: result, 3x3 grid, main, hotbar."""
    slots = [(124, 35)] + [(30 + c * SLOT_PITCH, 17 + r * SLOT_PITCH) for r in range(3) for c in range(3)]
    return ScreenLayout("crafting_table", PANEL_WIDTH, 166, tuple(slots + _player_slots(84)),
                        (("Crafting", 28, 6), ("Inventory", 8, 72)))


def chest_layout(size: int = 27) -> ScreenLayout:
    """Beta's `GuiChest`: the chest's rows (3, or 6 for a double chest), then main and hotbar."""
    rows = size // 9
    offset = (rows - 4) * SLOT_PITCH
    slots = [(8 + c * SLOT_PITCH, 18 + r * SLOT_PITCH) for r in range(rows) for c in range(9)]
    title = "Large chest" if rows == 6 else "Chest"
    return ScreenLayout("chest", PANEL_WIDTH, 114 + rows * SLOT_PITCH, tuple(slots + _player_slots(103 + offset)),
                        ((title, 8, 6), ("Inventory", 8, 92 + offset)))


def furnace_layout() -> ScreenLayout:
    """Beta's `GuiFurnace`: input, fuel, output, main, hotbar; the flame and the arrow."""
    slots = [(56, 17), (56, 53), (116, 35)]
    return ScreenLayout("furnace", PANEL_WIDTH, 166, tuple(slots + _player_slots(84)),
                        (("Furnace", 60, 6), ("Inventory", 8, 72)), flame=(56, 36), arrow=(79, 34))


def layout_for(kind: str, slot_count: int) -> ScreenLayout:
    """The layout of a `kind` screen with `slot_count` slots (a chest's count says single or double)."""
    if kind == "inventory":
        return inventory_layout()
    if kind == "crafting_table":
        return crafting_table_layout()
    if kind == "furnace":
        return furnace_layout()
    if kind == "chest":
        return chest_layout(slot_count - 36)
    raise ValueError(f"no survival screen is called {kind!r}")


def to_ui(layout: ScreenLayout, x: float, y: float) -> tuple[float, float]:
    """[window heights] The `camera.ui` point of GUI pixel (x, y) of `layout`'s panel (centred)."""
    return (x - layout.width / 2) * GUI_PIXEL, (layout.height / 2 - y) * GUI_PIXEL


def slot_centre(layout: ScreenLayout, slot: int) -> tuple[float, float]:
    """[window heights] Centre of slot `slot`'s item square."""
    x, y = layout.slots[slot]
    return to_ui(layout, x + ITEM_PIXELS / 2, y + ITEM_PIXELS / 2)


def slot_at(layout: ScreenLayout, ui_x: float, ui_y: float, scale: float = 1.0) -> int | None:
    """The slot whose item square (with its 1-pixel frame, as Beta's `isMouseOverSlot`) holds the
    `camera.ui` point on the screen drawn at `scale`; OUTSIDE beyond the panel; None between slots."""
    px = ui_x / scale / GUI_PIXEL + layout.width / 2
    py = layout.height / 2 - ui_y / scale / GUI_PIXEL
    for slot, (x, y) in enumerate(layout.slots):
        if x - 1 <= px < x + ITEM_PIXELS + 1 and y - 1 <= py < y + ITEM_PIXELS + 1:
            return slot
    if px < 0 or py < 0 or px >= layout.width or py >= layout.height:
        return OUTSIDE
    return None


FLAME_STEPS = 12
"""Beta's `getBurnTimeRemainingScaled(12)`: the flame has 12 heights above its 2-pixel base."""
ARROW_STEPS = 24
"""Beta's `getCookProgressScaled(24)`: the arrow grows by one of 24 pixels."""
DEFAULT_ITEM_BURN_TICKS = 200
"""[ticks] Beta's `getBurnTimeRemainingScaled` reads a fuel time of 0 as 200."""
FLAME_PIXELS, ARROW_PIXELS = 14, 24


def furnace_gauges(burn_time: int, item_burn_time: int, cook_time: int) -> tuple[float, float]:
    """(flame, arrow): the fractions of the flame's height and the arrow's length Beta's `GuiFurnace`
    draws for a furnace's burn time left, its fuel's whole burn time and its cooking time: the flame
    (only while it burns) `l + 2` of 14 pixels for l = burn * 12 / item burn time; the arrow `c + 1`
    of 24 pixels for c = cook * 24 / 200 (Beta draws its first pixel even while idle)."""
    flame = 0.0
    if burn_time > 0:
        whole = item_burn_time if item_burn_time != 0 else DEFAULT_ITEM_BURN_TICKS
        flame = min((burn_time * FLAME_STEPS // whole + 2) / FLAME_PIXELS, 1.0)
    arrow = min((cook_time * ARROW_STEPS // COOK_TICKS + 1) / ARROW_PIXELS, 1.0)
    return flame, arrow
