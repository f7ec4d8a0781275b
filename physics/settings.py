"""Movement settings: the frozen configuration that decides how bodies move, with units.

Owns: `MovementSettings` and `BETA`, the defaults that reproduce Minecraft Beta 1.7.3 exactly
(the float literals as Java rounds them). Variants: `dataclasses.replace(physics.BETA, ...)`.
Does not own: per-body state (see `body.py`) or tolerances (see `tolerances.py`).

All quantities are per tick (20 ticks per second), as Beta keeps them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .floats import f32


@dataclass(frozen=True, slots=True)
class MovementSettings:
    step_height: float = 0.5
    """[blocks] Highest ledge a grounded body walks up without jumping (Beta 0.5, later 0.6); 0 disables."""
    gravity: float = 0.08
    """[blocks/tick^2] Subtracted from vertical velocity after each move."""
    vertical_drag: float = f32(0.98)
    """[1/tick] Vertical velocity multiplier after gravity (0.98F)."""
    jump_velocity: float = f32(0.42)
    """[blocks/tick] Vertical velocity set by a jump from the ground (0.42F)."""
    friction_factor: float = f32(0.91)
    """[1/tick] Horizontal velocity multiplier in the air; on the ground it is slipperiness x this (0.91F)."""
    ground_acceleration: float = f32(0.1)
    """[blocks/tick^2] Acceleration from full input on a normal block (0.1F)."""
    ground_acceleration_reference: float = f32(0.16277136)
    """[1] Cube of normal ground friction (0.546^3, 0.16277136F); acceleration scales with
    reference / friction^3, so slippery blocks accelerate slowly but glide far."""
    air_acceleration: float = f32(0.02)
    """[blocks/tick^2] Acceleration from full input in the air (0.02F)."""
    input_decay: float = f32(0.98)
    """[1] Multiplier on forward and strafe input before it accelerates the body (0.98F)."""
    sneak_input_scale: float = 0.3
    """[1] Multiplier on forward and strafe input while sneaking (0.3D)."""
    sneak_edge_probe_depth: float = 1.0
    """[blocks] How far below the feet the sneak edge guard looks for support (Beta 1.0; later versions use the step height)."""
    sneak_edge_backoff: float = 0.05
    """[blocks] How much the sneak edge guard shortens an unsupported horizontal move per try."""
    sprint_acceleration_scale: float = 1.3
    """[1] Ground and air acceleration multiplier while sprinting (not in Beta; as in later versions)."""
    sprint_jump_boost: float = 0.2
    """[blocks/tick] Forward velocity added by a jump while sprinting (not in Beta)."""
    flying_acceleration: float = 0.05
    """[blocks/tick^2] Horizontal acceleration from full input while flying (not in Beta; later creative flight)."""
    flying_vertical_acceleration: float = 0.15
    """[blocks/tick^2] Vertical velocity added per tick by jump (up) or sneak (down) while flying."""
    flying_vertical_drag: float = 0.6
    """[1/tick] Vertical velocity multiplier after each flying move (instead of gravity and drag)."""
    camera_lag_decay: float = f32(0.4)
    """[1/move] Multiplier on the camera lag at the start of every move (Beta's `ySize *= 0.4F`)."""
    camera_lag_step_limit: float = f32(0.05)
    """[blocks] A step-up is only tried while the camera lag is below this (or while sneaking)."""
    camera_lag_step_extra: float = 0.01
    """[blocks] Added to the camera lag after a step, on top of the fractional height of the new floor."""
    sneak_camera_lag: float = f32(0.2)
    """[blocks] The camera lag is raised to at least this before every sneaking move (lowers the eye)."""

    def __post_init__(self) -> None:
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or value != value or value in (float("inf"), float("-inf")):
                raise ValueError(f"MovementSettings.{name} must be a finite number, got {value!r}")
        if self.step_height < 0.0:
            raise ValueError(f"step_height must be >= 0, got {self.step_height}")


BETA = MovementSettings()
"""Minecraft Beta 1.7.3 movement, with Beta's float literals."""
