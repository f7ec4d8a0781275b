"""Item icons on `camera.ui`: the picture of any item, and a slot's item drawn with its count.

Owns: where an item's picture comes from (a non-block item's square of
`assets/textures/item_icons.png`, named in its index `item_icons.json`; a block item's block icon
in `assets/textures/icons.png`, the block it places), `ItemView` (an icon, its count at the
bottom-right as Beta draws it, white on a shadow, only above 1, and a worn tool's durability bar,
green to red) and `show_stack` for one.
Does not own: the images (`assets/make_item_icons.py`, `assets/make_atlas.py`), the item registry
(`game.rules.items`) or where a slot is (each screen's layout).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from ursina import Entity, Text, Texture, color

from ...rules.items import ItemStack, item_spec
from ...world import atlas
from ...world.blocks import block_id
from . import style
from .hud import load_icons_texture

REPO_ROOT = Path(__file__).resolve().parents[3]
ITEM_ICONS_PATH = REPO_ROOT / "assets" / "textures" / "item_icons.png"
ITEM_ICONS_INDEX = REPO_ROOT / "assets" / "textures" / "item_icons.json"
COUNT_SHADOW = color.rgb(0.25, 0.25, 0.25)
"""Beta draws a count with a dark grey shadow one pixel down and right."""
WEAR_BAR_BACK = color.rgb(0.0, 0.0, 0.0)
COUNT_TEXT_SCALE = 0.8
"""A count's text relative to the UI's body text: small, in the slot's corner."""


@lru_cache(maxsize=1)
def _item_index() -> tuple[dict[str, int], int, int, int]:
    """(name -> icon index, columns, image width, image height in icons) of the item icons image."""
    if not ITEM_ICONS_INDEX.is_file():
        raise FileNotFoundError(f"item icons {ITEM_ICONS_INDEX} are missing: run python -m assets.make_item_icons")
    index = json.loads(ITEM_ICONS_INDEX.read_text(encoding="utf-8"))
    names, columns = index["names"], index["columns"]
    rows = -(-len(names) // columns)
    height = 1
    while height < rows:
        height *= 2
    return {name: k for k, name in enumerate(names)}, columns, columns, height


@lru_cache(maxsize=1)
def item_icons_texture() -> Texture:
    """The item icons image (nearest filtering: pixel art drawn at a whole multiple)."""
    return Texture(ITEM_ICONS_PATH, filtering=None)


@lru_cache(maxsize=1)
def block_icons_texture() -> Texture:
    return load_icons_texture()


def icon_source(item: str) -> tuple[str, tuple[float, float, float, float]] | None:
    """("items" or "blocks", the icon's uv rect (u_min, v_min, u_max, v_max)) for `item`; None for
    an item with no picture (a block item whose block has no icon)."""
    names, columns, width, height = _item_index()
    if item in names:
        k = names[item]
        column, row = k % columns, k // columns
        return "items", (column / width, 1.0 - (row + 1) / height, (column + 1) / width, 1.0 - row / height)
    places = item_spec(item).places
    if places is None:
        return None
    return "blocks", atlas.icon_uv_rect(block_id(places))


def item_picture(item: str):
    """`game.window.render.item_models.Picture` for the window: (the icons texture, the uv rect) of
    `item`'s icon, None for an item with no picture."""
    source = icon_source(item)
    if source is None:
        return None
    kind, rect = source
    return (item_icons_texture() if kind == "items" else block_icons_texture()), rect


class ItemView:
    """One slot's drawing: the icon, the count and the wear bar, centred at (x, y) of `parent`."""

    def __init__(self, parent: Entity, x: float, y: float, size: float, z: float) -> None:
        self.icon = Entity(parent=parent, model="quad", scale=size, position=(x, y, z), enabled=False)
        corner = (x + size * 0.55, y - size * 0.55)
        shadow_step = size / 16
        self.shadow = Text(parent=parent, origin=(0.5, -0.5), color=COUNT_SHADOW,
                           scale=style.TEXT_SCALE * COUNT_TEXT_SCALE,
                           position=(corner[0] + shadow_step, corner[1] - shadow_step, z - style.LAYER_STEP))
        self.count = Text(parent=parent, origin=(0.5, -0.5), color=style.TEXT_COLOR,
                          scale=style.TEXT_SCALE * COUNT_TEXT_SCALE, position=(*corner, z - 2 * style.LAYER_STEP))
        bar_y = y - size * 0.40
        self.wear_back = Entity(parent=parent, model="quad", color=WEAR_BAR_BACK, scale=(size * 0.85, size * 0.12),
                                position=(x, bar_y, z - style.LAYER_STEP), enabled=False)
        self.wear = Entity(parent=parent, model="quad", scale=(size * 0.85, size * 0.06),
                           position=(x, bar_y, z - 2 * style.LAYER_STEP), enabled=False)
        self._size, self._x = size, x
        self.shown: ItemStack | None | bool = False
        """The stack drawn now (False before the first `show`)."""

    def show(self, stack: ItemStack | None) -> None:
        """Draw `stack` (None: an empty slot). Nothing is redrawn when it did not change."""
        if stack == self.shown:
            return
        self.shown = stack
        source = None if stack is None else icon_source(stack.item)
        self.icon.enabled = source is not None
        if source is not None:
            which, (u_min, v_min, u_max, v_max) = source
            self.icon.texture = item_icons_texture() if which == "items" else block_icons_texture()
            self.icon.texture_scale = (u_max - u_min, v_max - v_min)
            self.icon.texture_offset = (u_min, v_min)
        text = str(stack.count) if stack is not None and stack.count > 1 else ""
        self.count.text = self.shadow.text = text
        self._show_wear(stack)

    def _show_wear(self, stack: ItemStack | None) -> None:
        """Beta's durability bar under a worn tool: its length and colour (green to red) the uses left."""
        limit = 0 if stack is None else item_spec(stack.item).max_damage
        worn = stack is not None and limit > 0 and stack.damage > 0
        self.wear_back.enabled = self.wear.enabled = worn
        if worn:
            left = 1.0 - stack.damage / limit
            full = self._size * 0.85
            self.wear.scale_x = full * left
            self.wear.x = self._x - full / 2 + full * left / 2
            self.wear.color = color.rgb(1.0 - left, left, 0.0)
