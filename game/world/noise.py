"""Seeded gradient noise in numpy that gives the same bits on every machine and in any order.

Owns: the integer hash (a splitmix64 finaliser), 2D and 3D Perlin-style gradient noise over
whole arrays of points, and the derivation of independent seeds for layers and octaves.
Does not own: what any noise means (terrain and caves decide in `terrain.py`).

Why the results are bit-identical everywhere: hashing uses only uint64 operations, which wrap
modulo 2**64 by definition; the float work is IEEE float64 +, -, * and floor, each element on its
own (no transcendental functions, whose last bit varies between maths libraries, and no
reductions, whose summation order varies with the array layout). So a value depends only on the
seed and the point, never on which other points are evaluated with it.

Lattice coordinates are the caller's: gradient noise is 0 at integer points and varies over
about one unit. Terrain samples block centres (i + 0.5) times a power-of-two frequency, which is
exact and never an integer.
"""

from __future__ import annotations

import numpy as np

MASK64 = (1 << 64) - 1
MIN_SEED, MAX_SEED = -(1 << 63), (1 << 63) - 1
"""The world seeds there are: the signed 64-bit ints, as in Minecraft. `derive_seed` keeps a seed's
low 64 bits, so any wider range would give two seeds the same world (-1 and 2**64 - 1)."""
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_GOLDEN = 0x9E3779B97F4A7C15
AXIS_KEYS = (0xD1B54A32D192ED03, 0xABA0D1C7A4B71E5D, 0x8CB92BA72F3D8DD7)
"""Odd 64-bit multipliers that spread the x, y and z lattice coordinates before mixing."""

_U_MIX1, _U_MIX2 = np.uint64(_MIX1), np.uint64(_MIX2)
_U_AXIS = tuple(np.uint64(k) for k in AXIS_KEYS)
_GRADIENT_SHIFT_2D = np.uint64(61)  # top 3 bits pick one of 8 gradients
_GRADIENT_SHIFT_3D = np.uint64(60)  # top 4 bits pick one of 16 gradients

# Perlin's gradients: the 8 compass directions in 2D; the 12 cube edge midpoints in 3D, with 4 of
# them repeated to make 16 (his "improved noise" table). Integer components keep the dot products exact.
GRADIENTS_2D = ((1, 1), (-1, 1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1))
GRADIENTS_3D = (
    (1, 1, 0), (-1, 1, 0), (1, -1, 0), (-1, -1, 0), (1, 0, 1), (-1, 0, 1), (1, 0, -1), (-1, 0, -1),
    (0, 1, 1), (0, -1, 1), (0, 1, -1), (0, -1, -1), (1, 1, 0), (0, -1, 1), (-1, 1, 0), (0, -1, -1),
)
_G2 = np.array(GRADIENTS_2D, dtype=np.float64).T.copy()
_G3 = np.array(GRADIENTS_3D, dtype=np.float64).T.copy()


def mix64(value: int) -> int:
    """splitmix64's finaliser on a Python int: a bijection of 64-bit values that scrambles every bit."""
    value &= MASK64
    value = ((value ^ (value >> 30)) * _MIX1) & MASK64
    value = ((value ^ (value >> 27)) * _MIX2) & MASK64
    return value ^ (value >> 31)


def derive_seed(seed: int, *keys: int) -> int:
    """An independent 64-bit seed for the sub-stream named by `keys` (layer, octave...)."""
    value = mix64(seed)
    for key in keys:
        value = mix64(value + _GOLDEN * (key + 1))
    return value


def _mix64_array(value: np.ndarray) -> np.ndarray:
    value = value ^ (value >> np.uint64(30))
    value *= _U_MIX1
    value ^= value >> np.uint64(27)
    value *= _U_MIX2
    value ^= value >> np.uint64(31)
    return value


def hash_points(seeds: np.ndarray, *coordinates: np.ndarray) -> np.ndarray:
    """uint64 hash of integer points (int64 arrays, one per axis) under uint64 `seeds` (broadcast)."""
    total = np.asarray(seeds, dtype=np.uint64)
    for key, c in zip(_U_AXIS, coordinates):
        total = total + c.view(np.uint64) * key
    return _mix64_array(total)


def _fade(t: np.ndarray) -> np.ndarray:
    """Perlin's quintic 6t^5 - 15t^4 + 10t^3: smooth to the second derivative at lattice points."""
    return t * t * t * (t * (t * 6.0 - 15.0) + 10.0)


def _lerp(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    return a + t * (b - a)


def gradient_noise_2d(seeds: np.ndarray, x: np.ndarray, z: np.ndarray) -> np.ndarray:
    """2D gradient noise at float64 points (x, z), about -1..1, one value per point (all broadcast)."""
    x0 = np.floor(x)
    z0 = np.floor(z)
    fx = x - x0
    fz = z - z0
    ix = x0.astype(np.int64)
    iz = z0.astype(np.int64)
    seeds = np.asarray(seeds, dtype=np.uint64)
    corner = {}
    for dx in (0, 1):
        for dz in (0, 1):
            g = (hash_points(seeds, ix + dx, iz + dz) >> _GRADIENT_SHIFT_2D).astype(np.intp)
            corner[dx, dz] = _G2[0][g] * (fx - dx) + _G2[1][g] * (fz - dz)
    u = _fade(fx)
    v = _fade(fz)
    return _lerp(_lerp(corner[0, 0], corner[1, 0], u), _lerp(corner[0, 1], corner[1, 1], u), v)


def gradient_noise_3d(seeds: np.ndarray, x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
    """3D gradient noise at float64 points (x, y, z), about -1..1, one value per point (all broadcast)."""
    x0, y0, z0 = np.floor(x), np.floor(y), np.floor(z)
    fx, fy, fz = x - x0, y - y0, z - z0
    ix, iy, iz = x0.astype(np.int64), y0.astype(np.int64), z0.astype(np.int64)
    seeds = np.asarray(seeds, dtype=np.uint64)
    corner = {}
    for dx in (0, 1):
        for dy in (0, 1):
            for dz in (0, 1):
                g = (hash_points(seeds, ix + dx, iy + dy, iz + dz) >> _GRADIENT_SHIFT_3D).astype(np.intp)
                corner[dx, dy, dz] = _G3[0][g] * (fx - dx) + _G3[1][g] * (fy - dy) + _G3[2][g] * (fz - dz)
    u, v, w = _fade(fx), _fade(fy), _fade(fz)
    return _lerp(
        _lerp(_lerp(corner[0, 0, 0], corner[1, 0, 0], u), _lerp(corner[0, 1, 0], corner[1, 1, 0], u), v),
        _lerp(_lerp(corner[0, 0, 1], corner[1, 0, 1], u), _lerp(corner[0, 1, 1], corner[1, 1, 1], u), v),
        w,
    )
