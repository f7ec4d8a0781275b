"""The loading screen shown while the spawn area is generated: title, status line and progress bar.

Owns: drawing it over the whole window, the bar's fill for a fraction in [0, 1], and removing it.
Does not own: what is loaded or how progress is measured (the app calls `progress` as columns
arrive), or drawing frames (the app keeps stepping Ursina while loading).

Fitting the window: the title, bar and status shrink together about the window's centre where
the bar (the widest part, BAR_WIDTH) would not fit between the window margins (`content_scale`);
the backdrop always covers the window. Checked every frame (the window's first frame can still
have its first size).
"""

from __future__ import annotations

import math
import numbers

from PIL import Image
from ursina import Entity, Text, Texture, camera, color, destroy, window

from ..render.chunk_renderer import ATLAS_PATH
from . import style
from ...world import atlas
from ...world.blocks import TILE_NAMES

TITLE = "Boxel"
BACKDROP_TILE = "dirt"
"""The atlas tile the background is tiled with (darkened), as in Minecraft's menus."""
BACKDROP_TILE_SIZE = 0.125
"""[window heights] Drawn size of one background tile: eight rows of tiles fill the window."""
BACKDROP_TINT = color.rgb(0.28, 0.27, 0.27)
"""Multiplies the tile's colours: dark enough for white text to read on it."""
BAR_WIDTH = 0.8
"""[window heights] Width of the progress bar, frame included."""
BAR_HEIGHT = 0.036
BAR_BORDER = 0.004
BAR_INSET = 0.006
"""[window heights] Gap between the bar's frame and its fill."""
BAR_Y = -0.06
EMPTY_FILL_WIDTH = 1e-4
"""[window heights] Width kept by the hidden fill at 0 %, so its scale never reaches zero."""
TITLE_Y = 0.14
STATUS_GAP = 0.05
"""[window heights] From the bar's centre line down to the status text's centre line."""


def backdrop_tile_texture() -> Texture:
    """The BACKDROP_TILE artwork cut from the block atlas, as a texture that repeats with crisp pixels."""
    left, top = atlas.tile_origin_pixels(TILE_NAMES.index(BACKDROP_TILE))
    with Image.open(ATLAS_PATH) as image:
        tile = image.convert("RGBA").crop((left, top, left + atlas.TILE_PIXELS, top + atlas.TILE_PIXELS))
    return Texture(tile, filtering=None)


def content_scale(aspect_ratio: float) -> float:
    """How much the title, bar and status shrink in a window of `aspect_ratio`: 1.0 where the bar
    fits between the window margins."""
    return style.fit_scale(style.window_width(aspect_ratio), BAR_WIDTH)


class LoadingScreen(Entity):
    """A full-window screen in front of everything; `progress` updates it, `close` removes it."""

    def __init__(self, text: str = "Generating the world", **kwargs) -> None:
        super().__init__(parent=camera.ui, z=-10 * style.LAYER_STEP, **kwargs)
        self.backdrop = style.rectangle(self, 0.0, 0.0, 1.0, 1.0, BACKDROP_TINT)
        self.backdrop.texture = backdrop_tile_texture()
        self.content = Entity(parent=self)
        """The title, bar and status at full size, scaled as a whole to fit the window."""
        self._window = style.AspectWatch()
        self.title = Text(TITLE, parent=self.content, origin=(0, 0), y=TITLE_Y, scale=style.TITLE_SCALE,
                          color=style.TEXT_COLOR, z=-style.LAYER_STEP)
        style.outline(self.content, 0.0, BAR_Y, BAR_WIDTH, BAR_HEIGHT, BAR_BORDER, style.BORDER_COLOR,
                      z=-style.LAYER_STEP)
        self._fill_width = BAR_WIDTH - 2 * (BAR_BORDER + BAR_INSET)
        self.fill = style.rectangle(self.content, -self._fill_width / 2, BAR_Y, 0.0,
                                    BAR_HEIGHT - 2 * (BAR_BORDER + BAR_INSET), style.ACCENT_COLOR, z=-style.LAYER_STEP)
        self.fill.origin_x = -0.5  # grow from the left end
        self.status = Text(parent=self.content, origin=(0, 0), y=BAR_Y - STATUS_GAP, scale=style.TEXT_SCALE,
                           color=style.SUBTLE_TEXT_COLOR, z=-style.LAYER_STEP)
        self.fraction = 0.0
        self._fit_window()
        self.progress(0.0, text)

    def update(self) -> None:
        """Ursina calls this every frame: fit a resized window."""
        self._fit_window()

    def _fit_window(self) -> None:
        aspect_ratio = window.aspect_ratio
        if not self._window.changed(aspect_ratio):
            return
        self.content.scale = content_scale(aspect_ratio)
        backdrop_width = style.cover_width(aspect_ratio)
        self.backdrop.scale_x = backdrop_width
        self.backdrop.texture_scale = (backdrop_width / BACKDROP_TILE_SIZE, 1.0 / BACKDROP_TILE_SIZE)

    def progress(self, fraction: float, text: str) -> None:
        """Show `fraction` (0 to 1) of the bar filled and `text` below it (e.g. "Loading columns 12/81").

        TypeError/ValueError for a fraction that is not a number in [0, 1] (nothing changes).
        """
        if isinstance(fraction, bool) or not isinstance(fraction, numbers.Real):
            raise TypeError(f"progress fraction must be a number, got {fraction!r}")
        if not (math.isfinite(fraction) and 0.0 <= fraction <= 1.0):
            raise ValueError(f"progress fraction must be in [0, 1], got {fraction!r}")
        if not isinstance(text, str):
            raise TypeError(f"progress text must be a string, got {text!r}")
        self.fraction = float(fraction)
        self.fill.enabled = self.fraction > 0.0  # a zero-width quad would be a singular transform
        self.fill.scale_x = max(self._fill_width * self.fraction, EMPTY_FILL_WIDTH)
        self.status.text = text

    def close(self) -> None:
        """Remove the screen and everything on it."""
        destroy(self)
