"""The look shared by Boxel's screen widgets: colours, sizes and the two shapes they are built from.

Owns: the UI palette, text sizes, `rectangle` / `outline` (flat quads on `camera.ui`), so the
HUD, the loading screen and the pause menu look like one game, and fitting a widget to the
window: `fit_scale` (how much a widget of a given size must shrink to fit) and `AspectWatch`
(whether the window's shape changed since a widget last laid itself out).
Does not own: any widget (see `hud.py`, `loading_screen.py`, `pause_menu.py`), or where a widget
sits (each widget lays itself out with these helpers).

Units: positions and sizes are in window heights on `camera.ui` (y runs from -0.5 at the bottom to
0.5 at the top, x from -aspect/2 to aspect/2). Depth: a smaller z is drawn in front; each widget
stacks its parts with the LAYER_* steps below.
"""

from __future__ import annotations

import math
import numbers

from ursina import Entity, color

PANEL_COLOR = color.rgba(0.05, 0.06, 0.08, 0.62)
"""Translucent dark fill behind slots, bars and buttons: the world stays visible through it."""
HOVER_COLOR = color.rgba(0.30, 0.33, 0.40, 0.80)
"""Fill of a button or slider under the pointer."""
BORDER_COLOR = color.rgba(0.78, 0.80, 0.84, 0.55)
"""Thin light frame around slots and controls."""
HIGHLIGHT_COLOR = color.rgb(1.0, 1.0, 1.0)
"""The selected hotbar slot's frame and a hovered button's frame."""
ACCENT_COLOR = color.rgb(0.42, 0.78, 0.36)
"""Fill of progress bars and slider knobs: grass green."""
TEXT_COLOR = color.rgb(0.96, 0.96, 0.96)
SUBTLE_TEXT_COLOR = color.rgb(0.70, 0.73, 0.78)
SHADE_COLOR = color.rgba(0.0, 0.0, 0.0, 0.55)
"""Full-window veil behind menus."""

TEXT_SCALE = 1.0
"""Body text size relative to Ursina's default."""
TITLE_SCALE = 3.0
"""Screen titles ("Boxel", "Paused") relative to Ursina's default text size."""

LAYER_STEP = 0.01
"""[ui depth] Distance between stacked layers of one widget (in front = smaller z)."""
WINDOW_MARGIN = 0.01
"""[window heights] Space kept between a widget shrunk to fit and the window's edge (7 px at
720 px), so a frame drawn at a widget's edge is never cut by the window's."""
WINDOW_COVER = 4.0
"""[window heights per window width] A full-window veil is this many times wider than the window's
aspect ratio (and at least this wide): it covers the window whatever Ursina rounds."""


def _positive(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {value!r}")
    if not (math.isfinite(value) and value > 0.0):
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return float(value)


def fit_scale(available: float, needed: float) -> float:
    """How much to scale a widget `needed` long so it fits in `available` (both in window heights):
    1.0 when it fits already (widgets never grow), else available / needed. TypeError or
    ValueError for anything but positive finite numbers."""
    return min(1.0, _positive("available", available) / _positive("needed", needed))


def window_width(aspect_ratio: float, margin: float = WINDOW_MARGIN) -> float:
    """[window heights] The width a widget may use in a window of `aspect_ratio` (width / height):
    the window's width less `margin` at each side (never below a tenth of the window, so a
    sliver of a window still gives a positive width)."""
    aspect_ratio = _positive("aspect_ratio", aspect_ratio)
    return max(aspect_ratio - 2.0 * margin, aspect_ratio / 10.0)


def cover_width(aspect_ratio: float) -> float:
    """[window heights] Width of a veil that covers the whole window of `aspect_ratio`."""
    return WINDOW_COVER * max(_positive("aspect_ratio", aspect_ratio), 1.0)


class AspectWatch:
    """Remembers the window shape a widget was laid out for: `changed(aspect_ratio)` is True the
    first time and whenever the ratio differs from the one it last saw (a cheap per-frame check,
    so a widget lays itself out again only when the window was resized)."""

    def __init__(self) -> None:
        self.aspect_ratio: float | None = None
        """The aspect ratio last seen (None before the first look)."""

    def changed(self, aspect_ratio: float) -> bool:
        aspect_ratio = _positive("aspect_ratio", aspect_ratio)
        if aspect_ratio == self.aspect_ratio:
            return False
        self.aspect_ratio = aspect_ratio
        return True


def rectangle(parent: Entity, x: float, y: float, width: float, height: float, fill, z: float = 0.0) -> Entity:
    """A flat rectangle centred at (x, y) of `width` x `height` window heights."""
    return Entity(parent=parent, model="quad", position=(x, y, z), scale=(width, height), color=fill)


def outline(parent: Entity, x: float, y: float, width: float, height: float, thickness: float, stroke,
            z: float = 0.0) -> Entity:
    """A rectangular frame: four bars `thickness` wide just inside the edges of a width x height
    rectangle centred at (x, y). Returns the frame's entity; move it to move the frame."""
    frame = Entity(parent=parent, position=(x, y, z))
    half_w, half_h = width / 2.0, height / 2.0
    for bar_x, bar_y, bar_w, bar_h in (
        (0.0, half_h - thickness / 2.0, width, thickness),
        (0.0, -half_h + thickness / 2.0, width, thickness),
        (-half_w + thickness / 2.0, 0.0, thickness, height - 2.0 * thickness),
        (half_w - thickness / 2.0, 0.0, thickness, height - 2.0 * thickness),
    ):
        rectangle(frame, bar_x, bar_y, bar_w, bar_h, stroke)
    return frame
