"""Whole-window effects of what happens to the player: the red hurt flash and the tint of the fluid
the eye is in (blue under water, orange in lava), with the fog that goes with it.

Owns: the full-window tint and flash quads on `camera.ui`, their colours, the flash's fade, and
the fog and clear colour while the eye is in a fluid (`fluid_fog`); giving the scene's own fog
back when the eye leaves it.
Does not own: deciding when the player is hurt or where the eye is (`game.rules.health`, read by the
window from the session), the scene's normal fog (the window's `apply_settings`), or the HUD.

Units: sizes in window heights on `camera.ui`; times in seconds of wall time (the flash is a
picture, not a rule: it fades by frames, whatever the tick rate).
"""

from __future__ import annotations

import time  # Ursina writes each frame's duration to the standard time module as time.dt
from dataclasses import dataclass

from ursina import Entity, color, camera, window

from . import style
from physics.materials import Material

HURT_FLASH_COLOR = color.rgba(0.85, 0.0, 0.0, 1.0)
"""The hurt flash's red; its opacity comes from HURT_FLASH_ALPHA."""
HURT_FLASH_ALPHA = 0.35
"""[0..1] Opacity of the flash at its start: the view stays readable through it."""
HURT_FLASH_SECONDS = 0.4
"""[s] The flash fades linearly to nothing over this time (8 ticks: gone before the next hit can
count in full, 10 ticks after a hit)."""


@dataclass(frozen=True, slots=True)
class FluidView:
    """How the view looks with the eye in one fluid."""

    tint: object
    """Ursina colour (with opacity) laid over the whole window."""
    fog_color: object
    """Fog and clear colour: far things fade into the fluid, not the sky."""
    fog_range: tuple[float, float]
    """[blocks] Linear fog start and end: how far one sees in the fluid."""


FLUID_VIEWS = {
    Material.WATER: FluidView(color.rgba(0.10, 0.25, 0.75, 0.30), color.rgb(0.06, 0.16, 0.45), (0.0, 14.0)),
    Material.LAVA: FluidView(color.rgba(1.00, 0.42, 0.05, 0.55), color.rgb(0.75, 0.22, 0.02), (0.0, 1.5)),
}
"""Water: a blue veil and about 14 blocks of sight (Beta's water fog ends near there); lava: an
orange veil and almost no sight."""


class ScreenEffects(Entity):
    """The fluid tint (`show_fluid`) and the hurt flash (`flash`), over the world, under the HUD."""

    def __init__(self, **kwargs) -> None:
        super().__init__(parent=camera.ui, z=style.LAYER_STEP, **kwargs)
        cover = style.cover_width(window.aspect_ratio)
        self._window = style.AspectWatch()
        self._window.changed(window.aspect_ratio)
        self.tint = style.rectangle(self, 0.0, 0.0, cover, 1.0, color.clear)
        self.tint.enabled = False
        self.hurt = style.rectangle(self, 0.0, 0.0, cover, 1.0, HURT_FLASH_COLOR, z=-style.LAYER_STEP)
        self.hurt.enabled = False
        self._flash_seconds_left = 0.0
        self.fluid: Material | None = None
        """The fluid the view is tinted for (None: none)."""

    def flash(self) -> None:
        """Start the red hurt flash (again, if it is still fading)."""
        self._flash_seconds_left = HURT_FLASH_SECONDS
        self._show_flash()

    @property
    def flashing(self) -> bool:
        return self._flash_seconds_left > 0.0

    def show_fluid(self, fluid: Material | None) -> bool:
        """Tint the view for the eye in `fluid` (Material.WATER or Material.LAVA), or not at all
        (None). Returns whether that changed anything (the window then sets the fog)."""
        if fluid == self.fluid:
            return False
        self.fluid = fluid
        view = FLUID_VIEWS.get(fluid)
        self.tint.enabled = view is not None
        if view is not None:
            self.tint.color = view.tint
        return True

    def update(self) -> None:
        """Ursina calls this every frame: cover a resized window, fade the flash."""
        aspect_ratio = window.aspect_ratio
        if self._window.changed(aspect_ratio):
            self.tint.scale_x = self.hurt.scale_x = style.cover_width(aspect_ratio)
        if self._flash_seconds_left > 0.0:
            self._flash_seconds_left = max(self._flash_seconds_left - time.dt, 0.0)
            self._show_flash()

    def _show_flash(self) -> None:
        left = self._flash_seconds_left
        self.hurt.enabled = left > 0.0
        self.hurt.alpha = HURT_FLASH_ALPHA * left / HURT_FLASH_SECONDS


def fluid_fog(fluid: Material | None) -> FluidView | None:
    """The fog and clear colour for the eye in `fluid`; None: the scene's own."""
    return FLUID_VIEWS.get(fluid)
