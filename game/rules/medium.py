"""What a body moves through, as the F3 panel shows it: its medium, fall distance and the
materials it touched.

Owns: naming a body's medium (water, lava, ladder, web, land or air) and the panel lines that
show it. Pure: reads a `physics.Body` and a world's materials (`physics.materials`); no Ursina.
Does not own: deciding any of it (`physics.step` sets `in_water`, `in_lava`, `in_web`,
`fall_distance` and `touching`; the world says what each cell is made of) or drawing the panel
(`game.window.ui.debug_overlay`).
"""

from __future__ import annotations

import math

import physics
from physics.materials import Material, material_at

MEDIA = ("water", "lava", "ladder", "web", "land", "air")
"""Every medium `medium` names, first match first."""


def medium(body: physics.Body, world) -> str:
    """The body's medium: "water" or "lava" when the tick moved it as a swimmer in them, "ladder"
    when its feet cell (floor of the centre x, of the min y, of the centre z) holds a ladder,
    "web" when it met a cobweb, else "land" on the ground and "air" off it."""
    if body.in_water:
        return "water"
    if body.in_lava:
        return "lava"
    x, y, z = (math.floor(v) for v in body.feet)
    if material_at(world, x, y, z) == Material.LADDER:
        return "ladder"
    if body.in_web:
        return "web"
    return "land" if body.on_ground else "air"


def touched_names(body: physics.Body) -> str:
    """The materials the body touched, lowercased names in `Material` order ("-" for none)."""
    return ", ".join(m.name.lower() for m in sorted(body.touching)) or "-"


def medium_lines(body: physics.Body, world) -> list[str]:
    """The F3 panel's line about what the body moves through (one line: the panel stays short),
    e.g. ["medium    water  fall 0.65 blocks  touching water, soul_sand"]."""
    fall = body.fall_distance + 0.0  # "+ 0.0" turns -0.0 into 0.0
    return [f"medium    {medium(body, world)}  fall {fall:.2f} blocks  touching {touched_names(body)}"]
