"""The creative inventory screen (E): a grid of every placeable block's icon above a row of the
hotbar's nine slots, laid out as Minecraft's creative inventory.

Owns: drawing the catalogue's grid (`game.rules.inventory.Catalogue`: COLUMNS x ROWS_SHOWN icons,
scrolled by rows with the mouse wheel) and a copy of the hotbar row under it, where the pointer
is over (`hit_at`, pure layout arithmetic), the block picked up with the pointer (`held`: its icon
follows the pointer) and turning the pointer's clicks into puts: press on an entry and release
on a slot (a drag), or click an entry and then a slot; a click on a slot with nothing held picks
that slot's block up (to copy it to another slot); a click anywhere else lets go; a digit key
over an entry puts it in that slot (Minecraft's hotkey). A put is handed to `on_put(slot,
block)`; the app turns it into the session's `PutInSlot` event, so the hotbar changes only
through the session and a recording replays it. The name of the entry or slot block under the
pointer next to it while nothing is held: always what is there now (it follows a put, a scroll,
a block picked up, not only the pointer's moves).
Does not own: whether the inventory is open (the session's `inventory_open`: the app calls
`open` and `close` to follow it), the catalogue and the put rule (`game.rules.inventory`), the hotbar
(`game.rules.hotbar`), releasing the mouse pointer (the app) or the keys that open and close it.

Layout (window heights, centred on the window): the grid's top row at GRID_TOP_Y, the hotbar row
HOTBAR_ROW_GAP below its bottom row, a dark panel behind both with the title above, a scroll bar
at the grid's right, and a veil over the rest of the window. In a window narrower than the
panel (`panel_width` and the window margins) everything but the veil and the hovered name shrinks
about the window's centre by `screen_scale(aspect_ratio)`; the layout functions below take that
scale (1.0, full size, by default). The screen looks at the window's shape every frame while
open and lays itself out again when it changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ursina import Entity, Text, color, camera, mouse, window

from ...rules.hotbar import SLOT_COUNT, Hotbar
from ...rules.inventory import CATALOGUE, Catalogue
from . import style
from .hud import ICON_SIZE, SELECTION_BORDER, SLOT_BORDER, SLOT_GAP, SLOT_SIZE, load_icons_texture
from ...world import atlas
from ...world.blocks import block_id

CELL_STEP = SLOT_SIZE + SLOT_GAP
"""[window heights] From one cell's centre to the next, in the grid and the hotbar row (the HUD's spacing)."""
GRID_TOP_Y = 0.245
"""[window heights] Centre line of the grid's top row: the grid and the hotbar row sit about the window's middle."""
HOTBAR_ROW_GAP = 0.03
"""[window heights] Extra space between the grid's bottom row and the hotbar row (Minecraft sets them apart)."""
PANEL_MARGIN = 0.025
"""[window heights] Panel edge around the cells."""
TITLE_HEIGHT = 0.06
"""[window heights] Room at the panel's top for the title."""
SCROLLBAR_WIDTH = 0.02
"""[window heights] Width of the scroll bar right of the grid."""
SCROLLBAR_GAP = 0.012
"""[window heights] From the grid's right edge to the scroll bar."""
TOOLTIP_OFFSET = (0.02, 0.035)
"""[window heights] The hovered entry's name sits this far right of and above the pointer."""
HELD_ICON_SCALE = 1.1
"""The held block's icon is drawn this much larger than in a cell, so it reads as lifted."""
DEPTH = -0.2
"""[ui depth] The screen is in front of the HUD (whose layers are at 0 to -0.03)."""
HOVER_CELL_COLOR = color.rgba(1.0, 1.0, 1.0, 0.25)
"""Fill over the cell under the pointer."""


@dataclass(frozen=True, slots=True)
class Hit:
    """What the pointer is over: a grid cell (`kind` "grid", `index` into the cells shown, row by
    row) or a hotbar slot (`kind` "slot", `index` 0..8)."""

    kind: str
    index: int


def panel_width(catalogue: Catalogue = CATALOGUE) -> float:
    """[window heights] The panel's width at full size: the grid, its margins, and room for the
    scroll bar on both sides (the panel is centred on the grid)."""
    return catalogue.columns * CELL_STEP + 2 * PANEL_MARGIN + 2 * (SCROLLBAR_GAP + SCROLLBAR_WIDTH)


def screen_scale(aspect_ratio: float, catalogue: Catalogue = CATALOGUE) -> float:
    """How much the screen shrinks in a window of `aspect_ratio` (width / height): 1.0 where its
    panel fits between the window margins, else what makes it fit."""
    return style.fit_scale(style.window_width(aspect_ratio), panel_width(catalogue))


def grid_cell_centre(index: int, catalogue: Catalogue = CATALOGUE, scale: float = 1.0) -> tuple[float, float]:
    """[window heights] Centre of grid cell `index` (row by row, left to right) on the screen drawn at `scale`."""
    row, column = divmod(index, catalogue.columns)
    return (column - (catalogue.columns - 1) / 2) * CELL_STEP * scale, (GRID_TOP_Y - row * CELL_STEP) * scale


def hotbar_row_y(catalogue: Catalogue = CATALOGUE, scale: float = 1.0) -> float:
    """[window heights] Centre line of the screen's hotbar row on the screen drawn at `scale`."""
    return (GRID_TOP_Y - catalogue.rows_shown * CELL_STEP - HOTBAR_ROW_GAP) * scale


def slot_centre(slot: int, catalogue: Catalogue = CATALOGUE, scale: float = 1.0) -> tuple[float, float]:
    """[window heights] Centre of the screen's hotbar slot `slot` on the screen drawn at `scale`."""
    return (slot - (SLOT_COUNT - 1) / 2) * CELL_STEP * scale, hotbar_row_y(catalogue, scale)


def hit_at(x: float, y: float, catalogue: Catalogue = CATALOGUE, scale: float = 1.0) -> Hit | None:
    """The grid cell or hotbar slot whose square (a cell's SLOT_SIZE, gaps excluded) holds the
    `camera.ui` point (x, y) on the screen drawn at `scale`, or None."""
    x, y = x / scale, y / scale  # the full-size point
    half = SLOT_SIZE / 2
    column = round(x / CELL_STEP + (catalogue.columns - 1) / 2)
    row = round((GRID_TOP_Y - y) / CELL_STEP)
    if 0 <= column < catalogue.columns and 0 <= row < catalogue.rows_shown:
        cx, cy = grid_cell_centre(row * catalogue.columns + column, catalogue)
        if abs(x - cx) <= half and abs(y - cy) <= half:
            return Hit("grid", row * catalogue.columns + column)
    slot = round(x / CELL_STEP + (SLOT_COUNT - 1) / 2)
    if 0 <= slot < SLOT_COUNT:
        cx, cy = slot_centre(slot, catalogue)
        if abs(x - cx) <= half and abs(y - cy) <= half:
            return Hit("slot", slot)
    return None


def show_tooltip(tooltip: Text, name: str, x: float, y: float) -> None:
    """Show `name` in `tooltip` beside the pointer at (x, y) on a panel ("" hides the panel)."""
    tooltip.text = name
    tooltip.position = (x + TOOLTIP_OFFSET[0], y + TOOLTIP_OFFSET[1], tooltip.z)
    if name:
        tooltip.create_background(color=style.PANEL_COLOR)
    else:
        tooltip.background = False


class InventoryScreen(Entity):
    """The creative inventory on `camera.ui`; hidden until `open`. The app passes it the keys and
    clicks while it is open (`handle`)."""

    def __init__(self, on_put: Callable[[int, str], None], slot_keys: Sequence[str],
                 catalogue: Catalogue = CATALOGUE, **kwargs) -> None:
        super().__init__(parent=camera.ui, z=DEPTH, **kwargs)
        self.on_put = on_put
        self.slot_keys = tuple(slot_keys)
        self.catalogue = catalogue
        self.scroll = 0
        """[rows] The first catalogue row shown."""
        self.held: str | None = None
        """The block picked up with the pointer (its icon follows the pointer), or None."""
        self._pressed: Hit | None = None  # where the left button went down, while it is down
        self._hovered: tuple | None = None
        """What the hover square and the name show: (hit, name, square shown); None: look again."""
        self._hotbar: tuple[str, ...] = ()
        icons = load_icons_texture()
        step = style.LAYER_STEP
        self.veil = style.rectangle(self, 0.0, 0.0, style.cover_width(window.aspect_ratio), 1.0, style.SHADE_COLOR)
        self.content = Entity(parent=self)
        """Everything but the veil and the hovered name, at full size; scaled as a whole to fit the window."""
        self.scale_fitted = 1.0
        """The content's scale now (`screen_scale` of the window's aspect ratio)."""
        self._window = style.AspectWatch()
        width = panel_width(catalogue)
        top = GRID_TOP_Y + SLOT_SIZE / 2 + PANEL_MARGIN + TITLE_HEIGHT
        bottom = hotbar_row_y(catalogue) - SLOT_SIZE / 2 - PANEL_MARGIN
        style.rectangle(self.content, 0.0, (top + bottom) / 2, width, top - bottom, style.PANEL_COLOR, z=-step)
        style.outline(self.content, 0.0, (top + bottom) / 2, width, top - bottom, SLOT_BORDER, style.BORDER_COLOR,
                      z=-step)
        left = -catalogue.columns * CELL_STEP / 2
        Text("Creative Inventory", parent=self.content, origin=(-0.5, 0), x=left,
             y=top - TITLE_HEIGHT / 2 - PANEL_MARGIN / 2, color=style.TEXT_COLOR, scale=style.TEXT_SCALE * 1.2,
             z=-2 * step)
        cells = catalogue.columns * catalogue.rows_shown
        self.grid_icons = [self._cell(*grid_cell_centre(i, catalogue), icons) for i in range(cells)]
        self.slot_icons = [self._cell(*slot_centre(k, catalogue), icons) for k in range(SLOT_COUNT)]
        self.selection = style.outline(self.content, 0.0, hotbar_row_y(catalogue), SLOT_SIZE + 2 * SLOT_GAP,
                                       SLOT_SIZE + 2 * SLOT_GAP, SELECTION_BORDER, style.HIGHLIGHT_COLOR, z=-5 * step)
        self.hover = style.rectangle(self.content, 0.0, 0.0, SLOT_SIZE, SLOT_SIZE, HOVER_CELL_COLOR, z=-4 * step)
        self.hover.enabled = False
        track_x = -left + SCROLLBAR_GAP + SCROLLBAR_WIDTH / 2
        track_top, track_bottom = GRID_TOP_Y + SLOT_SIZE / 2, grid_cell_centre(cells - 1, catalogue)[1] - SLOT_SIZE / 2
        self.track = (track_x, track_top, track_bottom)
        style.rectangle(self.content, track_x, (track_top + track_bottom) / 2, SCROLLBAR_WIDTH,
                        track_top - track_bottom, style.PANEL_COLOR, z=-2 * step)
        self.thumb = style.rectangle(self.content, track_x, 0.0, SCROLLBAR_WIDTH, 0.1, style.BORDER_COLOR, z=-3 * step)
        self.held_icon = Entity(parent=self.content, model="quad", texture=icons, scale=ICON_SIZE * HELD_ICON_SCALE,
                                z=-7 * step, enabled=False)
        self.tooltip = Text(parent=self, origin=(-0.5, 0), color=style.TEXT_COLOR, scale=style.TEXT_SCALE, z=-8 * step)
        self._show_grid()
        self._fit_window()
        self.enabled = False

    def _fit_window(self) -> None:
        """Fit the screen to the window's shape, if it changed since the last time."""
        aspect_ratio = window.aspect_ratio
        if not self._window.changed(aspect_ratio):
            return
        self.scale_fitted = screen_scale(aspect_ratio, self.catalogue)
        self.content.scale = self.scale_fitted
        self.veil.scale_x = style.cover_width(aspect_ratio)
        self._hovered = None  # the cells moved under the pointer: look again

    def _cell(self, x: float, y: float, icons) -> Entity:
        """A slot square with its frame and an icon quad (returned) at (x, y)."""
        step = style.LAYER_STEP
        square = style.rectangle(self.content, x, y, SLOT_SIZE, SLOT_SIZE, style.PANEL_COLOR, z=-2 * step)
        style.outline(square, 0.0, 0.0, 1.0, 1.0, SLOT_BORDER / SLOT_SIZE, style.BORDER_COLOR, z=-step)
        return Entity(parent=self.content, model="quad", texture=icons, scale=ICON_SIZE, position=(x, y, -3 * step))

    # --- state ----------------------------------------------------------------------------------

    @property
    def is_open(self) -> bool:
        return self.enabled

    def open(self, hotbar: Hotbar) -> None:
        """Show the screen on `hotbar` (the app releases the pointer), nothing held."""
        self.held, self._pressed = None, None
        self.show_hotbar(hotbar)
        self.enabled = True
        self._fit_window()
        self._follow(mouse.position)

    def close(self) -> None:
        """Hide the screen; a held block is let go."""
        self.held, self._pressed = None, None
        self.held_icon.enabled = False
        self.enabled = False

    def show_hotbar(self, hotbar: Hotbar) -> None:
        """Show `hotbar`'s blocks and selected slot in the screen's hotbar row."""
        if not isinstance(hotbar, Hotbar):
            raise TypeError(f"show_hotbar needs a game.rules.hotbar.Hotbar, got {hotbar!r}")
        if hotbar.slots != self._hotbar:
            self._hotbar = hotbar.slots
            for icon, name in zip(self.slot_icons, hotbar.slots):
                _show_icon(icon, name)
        self.selection.x = slot_centre(hotbar.selected, self.catalogue)[0]

    def entry_at(self, hit: Hit | None):
        """The catalogue entry in grid cell `hit` at the current scroll, None for a slot, an empty cell or nothing."""
        if hit is None or hit.kind != "grid":
            return None
        return self.catalogue.shown(self.scroll)[hit.index]

    # --- input --------------------------------------------------------------------------------------

    def handle(self, key: str, pointer: Sequence[float]) -> bool:
        """One Ursina input while open, with the pointer at `pointer` (`camera.ui` x, y). True when
        the screen used it up (the app then passes it on no further): left button presses, wheel
        steps, and a digit key over an entry. Button releases finish a drag but are passed on."""
        hit = hit_at(pointer[0], pointer[1], self.catalogue, self.scale_fitted)
        if key == "left mouse down":
            self._press(hit)
            return True
        if key == "left mouse up":
            if self._pressed is not None and hit is not None and hit.kind == "slot" and hit != self._pressed \
                    and self.held is not None:
                self._put(hit.index)  # the end of a drag from an entry or another slot
            self._pressed = None
            return False
        if key in ("scroll up", "scroll down"):
            self.scroll = self.catalogue.clamp_scroll(self.scroll + (1 if key == "scroll down" else -1))
            self._show_grid()
            return True
        entry = self.entry_at(hit)
        if key in self.slot_keys and entry is not None:
            self.on_put(self.slot_keys.index(key), entry.block)
            return True
        return False

    def _press(self, hit: Hit | None) -> None:
        self._pressed = hit
        entry = self.entry_at(hit)
        if entry is not None:
            self.held = entry.block
        elif hit is not None and hit.kind == "slot":
            if self.held is not None:
                self._put(hit.index)
                self._pressed = None
            else:
                self.held = self._hotbar[hit.index]
        else:
            self.held = None
        self._show_held()

    def _put(self, slot: int) -> None:
        self.on_put(slot, self.held)
        self.held = None
        self._show_held()

    # --- drawing ------------------------------------------------------------------------------------

    def _show_grid(self) -> None:
        for icon, entry in zip(self.grid_icons, self.catalogue.shown(self.scroll)):
            icon.enabled = entry is not None
            if entry is not None:
                _show_icon(icon, entry.block)
        track_x, top, bottom = self.track
        length = top - bottom
        shown = min(self.catalogue.rows_shown / max(self.catalogue.rows, 1), 1.0)
        self.thumb.scale_y = length * shown
        travel = length - self.thumb.scale_y
        fraction = self.scroll / self.catalogue.max_scroll if self.catalogue.max_scroll else 0.0
        self.thumb.y = top - self.thumb.scale_y / 2 - travel * fraction

    def _show_held(self) -> None:
        self.held_icon.enabled = self.held is not None
        if self.held is not None:
            _show_icon(self.held_icon, self.held)

    def update(self) -> None:
        """Ursina calls this every frame while open: fit a resized window; the held icon, the hover
        and the name follow the pointer."""
        self._fit_window()
        self._follow(mouse.position)

    def _follow(self, pointer: Sequence[float]) -> None:
        """Move the held icon to the pointer; redraw the hover square and the name when what is
        under the pointer, or what it shows (a put changed the slot, a scroll the entry, a block
        was picked up), changed since the last frame."""
        x, y = pointer[0], pointer[1]
        self.held_icon.position = (x / self.scale_fitted, y / self.scale_fitted, self.held_icon.z)
        hit = hit_at(x, y, self.catalogue, self.scale_fitted)
        name = self.tooltip_text(hit)
        covered = hit is not None and (self.entry_at(hit) is not None or hit.kind == "slot")
        if (hit, name, covered) == self._hovered:
            return
        self._hovered = (hit, name, covered)
        self.hover.enabled = covered
        if hit is not None:
            centre = grid_cell_centre(hit.index, self.catalogue) if hit.kind == "grid" else slot_centre(
                hit.index, self.catalogue)
            self.hover.position = (*centre, self.hover.z)
        show_tooltip(self.tooltip, name, x, y)

    def tooltip_text(self, hit: Hit | None) -> str:
        """The name shown by the pointer over `hit` now: the grid entry's, or the block's in the hotbar
        slot as the screen shows it; none over nothing or an empty cell, nor while a block is held
        (as in Minecraft). TypeError for anything but a `Hit` or None."""
        if hit is not None and not isinstance(hit, Hit):
            raise TypeError(f"tooltip_text needs a Hit or None, got {hit!r}")
        if hit is None or self.held is not None:
            return ""
        if hit.kind == "slot":
            return self.catalogue.entry_of(self._hotbar[hit.index]).label if self._hotbar else ""
        entry = self.entry_at(hit)
        return "" if entry is None else entry.label


def _show_icon(icon: Entity, block_name: str) -> None:
    """Point `icon`'s texture at `block_name`'s square of the icons image."""
    u_min, v_min, u_max, v_max = atlas.icon_uv_rect(block_id(block_name))
    icon.texture_scale = (u_max - u_min, v_max - v_min)
    icon.texture_offset = (u_min, v_min)
