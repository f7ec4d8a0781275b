"""The survival screens on `camera.ui`: the inventory (E) with its 2x2 crafting grid, the crafting
table's 3x3, the chest (27 or 54) and the furnace; and the survival hotbar's items with counts.

Owns: drawing a screen from plain values (`SurvivalScreen.show`: every slot's stack, the cursor's
stack, which follows the pointer, and a furnace's burn and cook fractions as Beta's flame and
arrow), laid out as Beta's GUIs (`survival_layout`), with counts on the slots; turning the
pointer's presses into clicks (`handle`: left or right button, shift held, on a slot number or
OUTSIDE, handed to `on_click(slot, button, shift)`; the app turns that into the session's
`game.rules.inventory_events.SlotClick`, so the slots change only through the session and a
recording replays them); the name of the item under the pointer; following a session's open
screen (`follow_screen`: a `game.rules.containers.Screen` and, for a furnace, its fire).
`HotbarItems` draws the nine hotbar stacks (icons and counts) over the HUD's hotbar row.
Does not own: what a click does (`game.rules.containers`), which screen is open (the session;
the app calls `follow_screen` every frame), the HUD (`hud.py`: `HotbarItems` only hides its block
icons, moves its selection frame and writes the held item's name in its name line), or
releasing the pointer (the app).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image
from ursina import Entity, Text, Texture, camera, color, destroy, held_keys, mouse, window

from ...rules.containers import LEFT, OUTSIDE, RIGHT, Screen
from ...rules.items import ItemStack
from . import style
from .hud import ICON_SIZE, SLOT_BORDER, Hud, slot_x
from .inventory_screen import show_tooltip
from .item_icons import ItemView
from .survival_layout import (GUI_PIXEL, ITEM_PIXELS, ScreenLayout, furnace_gauges, layout_for, slot_at, slot_centre,
                              to_ui)

DEPTH = -0.2
"""[ui depth] In front of the HUD (0 to -0.03), as the creative inventory."""
SLOT_FILL = color.rgba(0.0, 0.0, 0.0, 0.45)
"""A slot's square: darker than the panel, as Beta's sunken slots."""
PANEL_FILL = color.rgba(0.20, 0.21, 0.24, 0.92)
"""The panel: nearly opaque, so counts read whatever the world shows behind."""
RESULT_FRAME = 4
"""[GUI pixels] Beta draws the result slot larger (26 px square): its frame sticks out this far."""
HOVER_FILL = color.rgba(1.0, 1.0, 1.0, 0.3)
"""Beta's white veil over the slot under the pointer."""
FLAME_ART = (
    "......#.......", ".....##.......", ".....###......", "....####...#..", "...#####..##..",
    "...######.###.", "..###########.", "..###########.", ".############.", ".#############",
    ".#############", "..############", "..###########.", "...#########..",
)
"""Beta's furnace flame, 14 x 14 GUI pixels: drawn lit from the bottom up to the fuel left."""


def _arrow_row(row: int) -> str:
    """One row of the arrow: a shaft 5 rows high, and a head narrowing to a point at the right."""
    off_centre = abs(row - 8)
    shaft = "#" * 14 if off_centre <= 2 else "." * 14
    head = 10 - off_centre
    return shaft + "#" * head + "." * (10 - head)


ARROW_ART = tuple(_arrow_row(row) for row in range(17))
"""Beta's furnace arrow, 24 x 17 GUI pixels: drawn lit from the left up to the cooking done."""
FLAME_COLOR = color.rgb(1.0, 0.55, 0.10)
ARROW_COLOR = color.rgb(0.95, 0.95, 0.95)
GAUGE_BACK = color.rgba(0.0, 0.0, 0.0, 0.35)
CURSOR_SCALE = 1.1
"""The cursor's stack is drawn this much larger than a slot's, so it reads as lifted."""
SHIFT_KEYS = ("shift", "left shift", "right shift")


def item_label(item: str) -> str:
    """An item's name as players read it ("Wooden Pickaxe")."""
    return item.replace("_", " ").title()


class _Built:
    """One layout's drawn panel: its slot views, hover square, gauges."""

    def __init__(self, parent: Entity, layout: ScreenLayout) -> None:
        step = style.LAYER_STEP
        self.root = Entity(parent=parent, enabled=False)
        self.layout = layout
        width, height = layout.width * GUI_PIXEL, layout.height * GUI_PIXEL
        style.rectangle(self.root, 0.0, 0.0, width, height, PANEL_FILL, z=-step)
        style.outline(self.root, 0.0, 0.0, width, height, SLOT_BORDER, style.BORDER_COLOR, z=-2 * step)
        for text, x, y in layout.labels:
            lx, ly = to_ui(layout, x, y + 4)
            Text(text, parent=self.root, origin=(-0.5, 0), position=(lx, ly, -3 * step),
                 color=style.SUBTLE_TEXT_COLOR, scale=style.TEXT_SCALE)
        square = (ITEM_PIXELS + 2) * GUI_PIXEL
        self.views = []
        for slot in range(len(layout.slots)):
            cx, cy = slot_centre(layout, slot)
            size = square + (2 * RESULT_FRAME * GUI_PIXEL if _is_result(layout, slot) else 0.0)
            style.rectangle(self.root, cx, cy, size - 2 * GUI_PIXEL, size - 2 * GUI_PIXEL, SLOT_FILL, z=-3 * step)
            style.outline(self.root, cx, cy, size, size, SLOT_BORDER, style.BORDER_COLOR, z=-4 * step)
            self.views.append(ItemView(self.root, cx, cy, ITEM_PIXELS * GUI_PIXEL, z=-5 * step))
        self.hover = style.rectangle(self.root, 0.0, 0.0, square, square, HOVER_FILL, z=-8 * step)
        self.hover.enabled = False
        self.flame = self.arrow = None
        if layout.flame is not None:
            self.flame = self._gauge(layout.flame, FLAME_ART, FLAME_COLOR)
            self.arrow = self._gauge(layout.arrow, ARROW_ART, ARROW_COLOR)

    def _gauge(self, corner: tuple[int, int], art: tuple[str, ...], fill) -> tuple[Entity, float, float, float, float]:
        """A gauge's picture unlit (dark) and lit (`fill`), the lit one returned with its full size
        and top-left, to be cut to the fraction shown (`SurvivalScreen._show_gauges`)."""
        w, h = len(art[0]) * GUI_PIXEL, len(art) * GUI_PIXEL
        left, top = to_ui(self.layout, *corner)
        Entity(parent=self.root, model="quad", texture=_art_texture(art, GAUGE_BACK), scale=(w, h),
               position=(left + w / 2, top - h / 2, -3 * style.LAYER_STEP))
        bar = Entity(parent=self.root, model="quad", texture=_art_texture(art, fill), scale=(w, h),
                     position=(left + w / 2, top - h / 2, -4 * style.LAYER_STEP))
        return bar, w, h, left, top


def _art_texture(art: tuple[str, ...], fill) -> Texture:
    """`art` ('#' drawn, '.' clear) in `fill` as a texture (nearest: GUI pixels stay square)."""
    rgba = tuple(round(c * 255) for c in tuple(fill))
    image = Image.new("RGBA", (len(art[0]), len(art)), (0, 0, 0, 0))
    for y, row in enumerate(art):
        for x, letter in enumerate(row):
            if letter == "#":
                image.putpixel((x, y), rgba)
    return Texture(image, filtering=None)


def _is_result(layout: ScreenLayout, slot: int) -> bool:
    return slot == 0 and layout.kind in ("inventory", "crafting_table")


class SurvivalScreen(Entity):
    """The open survival screen on `camera.ui`; hidden until `open`. The app passes it the mouse
    presses while open (`handle`) and shows the session's values every frame (`show`)."""

    def __init__(self, on_click: Callable[[int, str, bool], None], **kwargs) -> None:
        super().__init__(parent=camera.ui, z=DEPTH, **kwargs)
        self.on_click = on_click
        self.veil = style.rectangle(self, 0.0, 0.0, style.cover_width(window.aspect_ratio), 1.0, style.SHADE_COLOR)
        self.content = Entity(parent=self)
        self.scale_fitted = 1.0
        self._window = style.AspectWatch()
        self._built: dict[tuple[str, int], _Built] = {}
        self.current: _Built | None = None
        self.stacks: tuple[ItemStack | None, ...] = ()
        self.cursor: ItemStack | None = None
        self.cursor_view = ItemView(self.content, 0.0, 0.0, ITEM_PIXELS * GUI_PIXEL * CURSOR_SCALE,
                                    z=-12 * style.LAYER_STEP)
        self.tooltip = Text(parent=self, origin=(-0.5, 0), color=style.TEXT_COLOR, scale=style.TEXT_SCALE,
                            z=-14 * style.LAYER_STEP)
        self._hovered: tuple | None = None
        self.enabled = False

    @property
    def is_open(self) -> bool:
        return self.enabled

    @property
    def layout(self) -> ScreenLayout | None:
        return None if self.current is None else self.current.layout

    def open(self, kind: str, stacks: Sequence[ItemStack | None], cursor: ItemStack | None = None,
             burn: float = 0.0, cook: float = 0.0) -> None:
        """Show a `kind` screen ("inventory", "crafting_table", "chest", "furnace") with `stacks`."""
        key = (kind, len(stacks))
        if key not in self._built:
            self._built[key] = _Built(self.content, layout_for(kind, len(stacks)))
        if self.current is not None:
            self.current.root.enabled = False
        self.current = self._built[key]
        self.current.root.enabled = True
        self.enabled = True
        self._fit_window()
        self.show(stacks, cursor, burn, cook)

    def close(self) -> None:
        self.enabled = False
        self._hovered = None

    def follow_screen(self, screen: Screen | None, furnace=None) -> None:
        """Follow the session's open screen (a player's `game.rules.containers.Screen`, None: none
        open): open, redraw or close to match it. `furnace`: the furnace a furnace screen shows (its
        `burn_time`, `current_item_burn_time` and `cook_time`, as `game.rules.block_entities.Furnace`)."""
        if screen is None:
            if self.is_open:
                self.close()
            return
        burn = cook = 0.0
        if furnace is not None:
            burn, cook = furnace_gauges(furnace.burn_time, furnace.current_item_burn_time, furnace.cook_time)
        stacks = screen.stacks()
        layout = self.layout
        if not self.is_open or layout is None or layout.kind != screen.kind or len(layout.slots) != len(stacks):
            self.open(screen.kind, stacks, screen.cursor, burn, cook)
        else:
            self.show(stacks, screen.cursor, burn, cook)

    def show(self, stacks: Sequence[ItemStack | None], cursor: ItemStack | None = None,
             burn: float = 0.0, cook: float = 0.0) -> None:
        """Draw `stacks` (one per slot, the screen's slot order), the `cursor`'s stack at the pointer,
        and, on a furnace, `burn` (fuel left, 0..1: the flame's height) and `cook` (0..1: the arrow's
        length). Slots that did not change are not redrawn."""
        built = self.current
        if built is None:
            raise RuntimeError("show needs an open screen: call open first")
        if len(stacks) != len(built.views):
            raise ValueError(f"this {built.layout.kind} screen has {len(built.views)} slots, got {len(stacks)}")
        self.stacks, self.cursor = tuple(stacks), cursor
        for view, stack in zip(built.views, stacks):
            view.show(stack)
        self.cursor_view.show(cursor)
        if built.flame is not None:
            self._show_gauges(built, burn, cook)
        self._hovered = None

    @staticmethod
    def _show_gauges(built: _Built, burn: float, cook: float) -> None:
        bar, w, h, left, top = built.flame
        burn = min(max(float(burn), 0.0), 1.0)
        bar.enabled = burn > 0.0
        bar.scale_y, bar.y = h * burn, top - h + h * burn / 2  # the flame burns down from its top
        bar.texture_scale, bar.texture_offset = (1.0, burn), (0.0, 0.0)
        bar, w, h, left, top = built.arrow
        cook = min(max(float(cook), 0.0), 1.0)
        bar.enabled = cook > 0.0
        bar.scale_x, bar.x = w * cook, left + w * cook / 2
        bar.texture_scale, bar.texture_offset = (cook, 1.0), (0.0, 0.0)

    def _fit_window(self) -> None:
        aspect_ratio = window.aspect_ratio
        if not self._window.changed(aspect_ratio) or self.current is None:
            return
        layout = self.current.layout
        needed_w, needed_h = layout.width * GUI_PIXEL, layout.height * GUI_PIXEL
        self.scale_fitted = min(style.fit_scale(style.window_width(aspect_ratio), needed_w),
                                style.fit_scale(1.0 - 2 * style.WINDOW_MARGIN, needed_h))
        self.content.scale = self.scale_fitted
        self.veil.scale_x = style.cover_width(aspect_ratio)

    # --- input ----------------------------------------------------------------------------------

    def slot_at(self, pointer: Sequence[float]) -> int | None:
        """The slot number under `pointer` (a `camera.ui` point), OUTSIDE beyond the panel, None between slots."""
        return None if self.current is None else slot_at(self.current.layout, pointer[0], pointer[1],
                                                         self.scale_fitted)

    def handle(self, key: str, pointer: Sequence[float], shift: bool | None = None) -> bool:
        """One Ursina input while open, the pointer at `pointer`: a left or right press on a slot,
        or beyond the panel, is a click handed to `on_click(slot, button, shift)` (`shift` None: a
        shift key held now, Ursina's `held_keys`). True when used (the app passes it no further)."""
        if key not in ("left mouse down", "right mouse down") or self.current is None:
            return False
        if shift is None:
            shift = any(held_keys[name] for name in SHIFT_KEYS)
        slot = self.slot_at(pointer)
        if slot is None:
            return True
        if slot == OUTSIDE and self.cursor is None:
            return True  # Beta's click outside with nothing held does nothing
        self.on_click(slot, LEFT if key == "left mouse down" else RIGHT, bool(shift))
        return True

    def update(self) -> None:
        """Every frame while open: fit a resized window; the cursor's stack, the hover veil and the
        name follow the pointer."""
        self._fit_window()
        self.follow(mouse.position)

    def follow(self, pointer: Sequence[float]) -> None:
        x, y = pointer[0], pointer[1]
        view = self.cursor_view
        view.icon.position = (x / self.scale_fitted, y / self.scale_fitted, view.icon.z)
        size = view.icon.scale_x
        view.count.position = (view.icon.x + size * 0.55, view.icon.y - size * 0.55, view.count.z)
        view.shadow.position = (view.count.x + size / 16, view.count.y - size / 16, view.shadow.z)
        slot = self.slot_at(pointer)
        stack = self.stacks[slot] if slot is not None and slot != OUTSIDE and slot < len(self.stacks) else None
        hovered = (slot, stack, self.cursor)
        if hovered == self._hovered:
            return
        self._hovered = hovered
        built = self.current
        over_slot = built is not None and slot is not None and slot != OUTSIDE
        built.hover.enabled = over_slot
        if over_slot:
            built.hover.position = (*slot_centre(built.layout, slot), built.hover.z)
        name = item_label(stack.item) if stack is not None and self.cursor is None else ""
        show_tooltip(self.tooltip, name, x, y)


class HotbarItems(Entity):
    """The survival hotbar: the nine stacks' icons and counts drawn in the HUD's hotbar row (whose
    block icons it hides) and the HUD's selection frame on the selected slot."""

    def __init__(self, hud: Hud, **kwargs) -> None:
        super().__init__(parent=hud.bar, **kwargs)
        self.hud = hud
        bar_y = hud.icons[0].y
        self.views = [ItemView(self, slot_x(k), bar_y, ICON_SIZE, z=-2 * style.LAYER_STEP) for k in range(9)]
        for icon in hud.icons:
            icon.enabled = False

    def show(self, hotbar: Sequence[ItemStack | None], selected: int) -> None:
        """Draw the nine hotbar stacks (the inventory's slots 0..8) and select slot `selected`; the
        HUD's name line names the held item (after `Hud.show_hotbar`, which names a creative block)."""
        if len(hotbar) != 9:
            raise ValueError(f"a hotbar has 9 slots, got {len(hotbar)}")
        for view, stack in zip(self.views, hotbar):
            view.show(stack)
        for icon in self.hud.icons:
            icon.enabled = False
        self.hud.selection.x = slot_x(selected)
        held = hotbar[selected]
        name = "" if held is None else item_label(held.item)
        if self.hud.name_label.text != name:
            self.hud.name_label.text = name

    def detach(self) -> None:
        """Give the HUD its own block icons back (creative) and remove the survival hotbar."""
        for icon in self.hud.icons:
            icon.enabled = True
        destroy(self)
