"""Movement settings: the frozen configuration that decides how bodies move, with units.

Owns: `MovementSettings` and `BETA`, the defaults that reproduce Minecraft Beta 1.7.3 exactly
(the float literals as Java rounds them). Variants: `dataclasses.replace(physics.BETA, ...)`.
Does not own: per-body state (see `body.py`) or tolerances (see `tolerances.py`).

All quantities are per tick (20 ticks per second), as Beta keeps them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .floats import f32
from .messages import shown


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
    # --- water and lava (Beta's `moveEntityWithHeading` fluid branches, `handle*Movement`) ---
    swim_acceleration: float = f32(0.02)
    """[blocks/tick^2] Acceleration from full input in water or lava (0.02F; no sprint bonus)."""
    water_drag: float = f32(0.8)
    """[1/tick] Multiplier on all three velocity components after a move in water (0.8F)."""
    lava_drag: float = 0.5
    """[1/tick] Multiplier on all three velocity components after a move in lava (0.5D)."""
    fluid_gravity: float = 0.02
    """[blocks/tick^2] Subtracted from vertical velocity after the drag in water or lava (0.02D)."""
    swim_up_acceleration: float = f32(0.04)
    """[blocks/tick^2] Added to vertical velocity while jump is held in water or lava (0.04F)."""
    current_acceleration: float = 0.014
    """[blocks/tick^2] Scale of the unit current added to the velocity in water (0.014D)."""
    fluid_jump_out_velocity: float = f32(0.3)
    """[blocks/tick] Vertical velocity after a fluid move blocked sideways where the body, lifted,
    would be free of blocks and fluid (0.3F: climbing out onto a bank)."""
    fluid_jump_out_lift: float = f32(0.6)
    """[blocks] How high above its next position that test places the body (0.6F)."""
    water_check_inset_y: float = f32(0.4)
    """[blocks] The box is shrunk by this at top and bottom to find the water it is in (0.4F)."""
    water_check_inset: float = 0.001
    """[blocks] ... and by this on every side after that (`contract(0.001D)`)."""
    lava_check_inset_xz: float = f32(0.1)
    """[blocks] The box is shrunk by this on X and Z to find the lava it is in (0.1F)."""
    lava_check_inset_y: float = f32(0.4)
    """[blocks] ... and by this at top and bottom (0.4F)."""
    # --- ladders (the land branch's clamps) ---
    ladder_max_sideways: float = f32(0.15)
    """[blocks/tick] On a ladder, X and Z velocity are clamped to +- this before the move (0.15F)."""
    ladder_max_descent: float = 0.15
    """[blocks/tick] On a ladder, vertical velocity is at least -this before the move (0.15D)."""
    ladder_climb_velocity: float = 0.2
    """[blocks/tick] Vertical velocity after a move on a ladder blocked sideways (0.2D)."""
    # --- cobwebs, soul sand, contact ---
    web_horizontal_scale: float = 0.25
    """[1] A move out of a cobweb is this fraction of the asked X and Z (0.25D)."""
    web_vertical_scale: float = f32(0.05)
    """[1] ... and this fraction of the asked Y (0.05F widened)."""
    soul_sand_slowdown: float = 0.4
    """[1] X and Z velocity multiplier per soul sand cell the contact pass visits (0.4D)."""
    contact_inset: float = 0.001
    """[blocks] The contact pass visits the cells of the box shrunk by this (0.001D)."""
    # --- creature traits ---
    slow_fall_drag: float = 0.6
    """[1] Vertical velocity multiplier after the tick of a `slow_fall` body in the air and
    falling (Beta's EntityChicken: `motionY *= 0.6D`)."""
    # --- falling ---
    safe_fall_distance: float = 3.0
    """[blocks] A landing deals ceil(fall distance - this) damage when positive (3.0F)."""

    def __post_init__(self) -> None:
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"MovementSettings.{name} must be a number, got {shown(value)}")
            low, high, low_open = _RANGES[name]
            if not (_finite(value) and (low < value if low_open else low <= value) and value <= high):
                raise ValueError(f"MovementSettings.{name} must be finite and in {'(' if low_open else '['}"
                                 f"{low:g}, {high:g}], got {shown(value)}")


def _finite(value: int | float) -> bool:
    """Finite as a float (an int too large for one, 10**400, is not)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


MAX_SPEED_SETTING = 10.0
"""[blocks/tick or blocks/tick^2] Largest velocity or acceleration a setting may hold: 200 blocks
a second, 25x Beta's fastest (falling); larger values are unit mistakes and make moves absurd."""
MAX_LENGTH_SETTING = 64.0
"""[blocks] Largest length a setting may hold (a step height, a probe depth): the largest body."""
_FRACTION = (0.0, 1.0, False)  # multipliers that must not grow a velocity or an input
_SPEED = (0.0, MAX_SPEED_SETTING, False)
_SIGNED_SPEED = (-MAX_SPEED_SETTING, MAX_SPEED_SETTING, False)  # e.g. gravity pulling up
_LENGTH = (0.0, MAX_LENGTH_SETTING, False)
_RANGES: dict[str, tuple[float, float, bool]] = {
    # name: (low, high, low end open); every range is closed at the top.
    "step_height": _LENGTH,
    "gravity": _SIGNED_SPEED,
    "vertical_drag": _FRACTION,
    "jump_velocity": _SPEED,
    "friction_factor": _FRACTION,
    "ground_acceleration": _SPEED,
    "ground_acceleration_reference": (0.0, 1.0, True),  # divided by
    "air_acceleration": _SPEED,
    "input_decay": _FRACTION,
    "sneak_input_scale": _FRACTION,
    "sneak_edge_probe_depth": (0.0, MAX_LENGTH_SETTING, True),
    "sneak_edge_backoff": (0.0, MAX_LENGTH_SETTING, True),  # 0 would never end the guard's loop
    "sprint_acceleration_scale": (0.0, MAX_SPEED_SETTING, False),
    "sprint_jump_boost": _SPEED,
    "flying_acceleration": _SPEED,
    "flying_vertical_acceleration": _SPEED,
    "flying_vertical_drag": _FRACTION,
    "camera_lag_decay": _FRACTION,
    "camera_lag_step_limit": _LENGTH,
    "camera_lag_step_extra": _LENGTH,
    "sneak_camera_lag": _LENGTH,
    "swim_acceleration": _SPEED,
    "water_drag": _FRACTION,
    "lava_drag": _FRACTION,
    "fluid_gravity": _SIGNED_SPEED,
    "swim_up_acceleration": _SPEED,
    "current_acceleration": _SPEED,
    "fluid_jump_out_velocity": _SPEED,
    "fluid_jump_out_lift": _LENGTH,
    "water_check_inset_y": (0.0, 0.5, False),  # insets beyond half a box would turn it inside out
    "water_check_inset": (0.0, 0.5, False),
    "lava_check_inset_xz": (0.0, 0.5, False),
    "lava_check_inset_y": (0.0, 0.5, False),
    "ladder_max_sideways": _SPEED,
    "ladder_max_descent": _SPEED,
    "ladder_climb_velocity": _SIGNED_SPEED,
    "web_horizontal_scale": _FRACTION,
    "web_vertical_scale": _FRACTION,
    "soul_sand_slowdown": _FRACTION,
    "contact_inset": (0.0, 0.5, False),
    "slow_fall_drag": _FRACTION,
    "safe_fall_distance": (0.0, 1e6, False),
}


BETA = MovementSettings()
"""Minecraft Beta 1.7.3 movement, with Beta's float literals."""
