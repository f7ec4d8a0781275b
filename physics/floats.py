"""Java float (IEEE binary32) arithmetic, for reproducing Beta's numbers bit for bit.

Owns: `f32` rounding and Beta's table-based sine and cosine (`MathHelper`).
Does not own: any physics; callers decide where Beta used floats.

Beta mixes float and double: inputs, yaw, accelerations and friction are floats, motion and
positions doubles. Python floats are doubles, so every Beta float operation is followed by
`f32`. The product or sum of two binary32 values is exact in binary64 before that rounding, so
double arithmetic followed by `f32` equals Java's float arithmetic.
"""

from __future__ import annotations

import math
import struct
from array import array

_F32 = struct.Struct("<f")


def f32(value: float) -> float:
    """`value` rounded to the nearest binary32, as a Python float (Java's `(float)` cast)."""
    return _F32.unpack(_F32.pack(value))[0]


SIN_TABLE = array("f", (math.sin(i * math.pi * 2.0 / 65536.0) for i in range(65536)))
TABLE_SCALE = f32(10430.378)
"""Beta's `MathHelper` table index scale, the float literal `10430.378F`: the binary32 nearest
65536 / (2 pi)."""
QUARTER_TURN = 16384.0


def beta_sin(radians: float) -> float:
    """Beta's `MathHelper.sin`: a 65536-entry float table indexed by truncated angle."""
    return SIN_TABLE[int(f32(radians * TABLE_SCALE)) & 0xFFFF]


def beta_cos(radians: float) -> float:
    """Beta's `MathHelper.cos`: the sine table a quarter turn on."""
    return SIN_TABLE[int(f32(f32(radians * TABLE_SCALE) + QUARTER_TURN)) & 0xFFFF]


PI_F = f32(3.1415927)
"""Beta's float literal for pi in `moveFlying` (`3.1415927F`, `(float)Math.PI`), as in
`MathHelper.sin(rotationYaw * 3.1415927F / 180F)`."""
DEG_TO_RAD_F = f32(0.017453292)
"""Beta's float literal for pi/180 (`0.017453292F`)."""
