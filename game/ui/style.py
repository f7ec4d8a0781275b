"""The look shared by Boxel's screen widgets: colours, sizes and the two shapes they are built from.

Owns: the UI palette, text sizes, and `rectangle` / `outline` (flat quads on `camera.ui`), so the
HUD, the loading screen and the pause menu look like one game.
Does not own: any widget (see `hud.py`, `loading_screen.py`, `pause_menu.py`).

Units: positions and sizes are in window heights on `camera.ui` (y runs from -0.5 at the bottom to
0.5 at the top, x from -aspect/2 to aspect/2). Depth: a smaller z is drawn in front; each widget
stacks its parts with the LAYER_* steps below.
"""

from __future__ import annotations

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
