"""AABB: the immutable axis-aligned box every part of Boxel speaks in.

Owns: the box value type and its pure geometry (offset, grow towards a motion, strict overlap).
Does not own: collision response (see `clip.py`, `mover.py`) or any tolerance policy; the
overlap test here is exact and strict (touching faces do not overlap).

Coordinates are in blocks. Block (i, j, k) fills [i, i+1) x [j, j+1) x [k, k+1); a body's
position is the centre of its feet: (centre x, min y, centre z).

An AABB is a tuple subclass of six floats (like pymunk's `BB`), so it is hashable, compares by
value, unpacks fast in hot loops (`x0, y0, z0, x1, y1, z1 = box`) and cannot be mutated.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from .messages import shown

_new_tuple = tuple.__new__


class _AABBFields(NamedTuple):
    min_x: float
    min_y: float
    min_z: float
    max_x: float
    max_y: float
    max_z: float


class AABB(_AABBFields):
    """An axis-aligned box [min_x, max_x] x [min_y, max_y] x [min_z, max_z] in blocks.

    Construction enforces min <= max on every axis and finite corners (NaN fails too; a corner
    summing past the largest float counts as infinite).
    """

    __slots__ = ()

    def __new__(cls, min_x: float, min_y: float, min_z: float, max_x: float, max_y: float, max_z: float) -> AABB:
        try:
            ordered = min_x <= max_x and min_y <= max_y and min_z <= max_z
            # One check for all six: a sum is finite only if every term is (or overflows: absurd anyway).
            finite = ordered and math.isfinite(min_x + min_y + min_z + max_x + max_y + max_z)
            if bool in (min_x.__class__, min_y.__class__, min_z.__class__, max_x.__class__, max_y.__class__,
                        max_z.__class__):
                raise TypeError("a bool is not a coordinate")
        except TypeError:
            raise TypeError(f"AABB corners are numbers, got ({shown(min_x)}, {shown(min_y)}, {shown(min_z)}) .. "
                            f"({shown(max_x)}, {shown(max_y)}, {shown(max_z)})") from None
        except OverflowError:
            finite = False
        if not finite:
            raise ValueError(
                f"AABB needs finite corners and min <= max on every axis, got "
                f"({min_x}, {min_y}, {min_z}) .. ({max_x}, {max_y}, {max_z})"
            )
        return _new_tuple(cls, (float(min_x), float(min_y), float(min_z), float(max_x), float(max_y), float(max_z)))

    @classmethod
    def _trusted(cls, min_x: float, min_y: float, min_z: float, max_x: float, max_y: float, max_z: float) -> AABB:
        """Build without validation: only for callers that derive the corners from a valid box."""
        return _new_tuple(cls, (min_x, min_y, min_z, max_x, max_y, max_z))

    @classmethod
    def around_feet(cls, x: float, y: float, z: float, width: float, height: float) -> AABB:
        """The box of a body whose feet centre is (x, y, z): x and z span +-width/2, y spans [y, y + height]."""
        try:
            half = width / 2.0
            return cls(x - half, y, z - half, x + half, y + height, z + half)
        except OverflowError:  # an int beyond floats (10**400) met a float
            raise _beyond_floats("AABB.around_feet", (x, y, z, width, height)) from None

    # --- derived values -------------------------------------------------------------------

    @property
    def width_x(self) -> float:
        return self[3] - self[0]

    @property
    def height(self) -> float:
        return self[4] - self[1]

    @property
    def width_z(self) -> float:
        return self[5] - self[2]

    @property
    def center(self) -> tuple[float, float, float]:
        return ((self[0] + self[3]) / 2.0, (self[1] + self[4]) / 2.0, (self[2] + self[5]) / 2.0)

    def is_finite(self) -> bool:
        return all(math.isfinite(v) for v in self)

    # --- operations (all return new boxes) --------------------------------------------------

    def offset(self, dx: float, dy: float, dz: float) -> AABB:
        """The same box moved by (dx, dy, dz)."""
        x0, y0, z0, x1, y1, z1 = self
        try:
            return AABB(x0 + dx, y0 + dy, z0 + dz, x1 + dx, y1 + dy, z1 + dz)
        except OverflowError:
            raise _beyond_floats("AABB.offset", (dx, dy, dz)) from None

    def expanded_towards(self, dx: float, dy: float, dz: float) -> AABB:
        """The box stretched toward a motion: it covers every position of the box along (dx, dy, dz).

        Positive components grow the max side, negative ones the min side (Beta's `addCoord`).
        """
        x0, y0, z0, x1, y1, z1 = self
        try:
            if dx < 0.0:
                x0 += dx
            else:
                x1 += dx
            if dy < 0.0:
                y0 += dy
            else:
                y1 += dy
            if dz < 0.0:
                z0 += dz
            else:
                z1 += dz
        except TypeError:
            raise TypeError(f"AABB.expanded_towards takes three numbers, got {shown((dx, dy, dz))}") from None
        except OverflowError:
            raise _beyond_floats("AABB.expanded_towards", (dx, dy, dz)) from None
        return AABB(x0, y0, z0, x1, y1, z1)

    def grown(self, dx: float, dy: float, dz: float) -> AABB:
        """The box grown by (dx, dy, dz) on both sides of each axis (negative values shrink it)."""
        x0, y0, z0, x1, y1, z1 = self
        try:
            return AABB(x0 - dx, y0 - dy, z0 - dz, x1 + dx, y1 + dy, z1 + dz)
        except OverflowError:
            raise _beyond_floats("AABB.grown", (dx, dy, dz)) from None

    def intersects(self, other: AABB) -> bool:
        """True when the interiors overlap. Strict: boxes that only touch do not intersect.
        TypeError when `other` is not a box (six corners, min x first)."""
        try:
            return (
                self[3] > other[0] and self[0] < other[3]
                and self[4] > other[1] and self[1] < other[4]
                and self[5] > other[2] and self[2] < other[5]
            )
        except (TypeError, IndexError, KeyError):
            raise _not_a_box("AABB.intersects", other) from None

    def overlap_depth(self, other: AABB) -> float:
        """How deep the two boxes overlap: the smallest per-axis overlap (<= 0 when they do not).
        TypeError when `other` is not a box (six corners, min x first)."""
        try:
            return min(
                min(self[3], other[3]) - max(self[0], other[0]),
                min(self[4], other[4]) - max(self[1], other[1]),
                min(self[5], other[5]) - max(self[2], other[2]),
            )
        except (TypeError, IndexError, KeyError):
            raise _not_a_box("AABB.overlap_depth", other) from None


def _beyond_floats(what: str, values: tuple) -> ValueError:
    """The error for numbers too large for a float (an int such as 10**400, which Python's float
    arithmetic refuses with OverflowError): not finite, as an infinite coordinate is."""
    return ValueError(f"{what} needs finite numbers, got {shown(values)} (beyond the range of floats)")


def _not_a_box(what: str, other: object) -> TypeError:
    return TypeError(f"{what} needs a box (an AABB), got {shown(other)}")
