"""Java's `StrictMath.log`: fdlibm's `__ieee754_log`, bit for bit, for `java.util.Random.nextGaussian`.

Owns: `strict_log`. Pure: the standard library only.
Does not own: the random numbers (`game.world.java_random` draws the Gaussians that call it).

Why not `math.log`: Python's is the C library's, correctly rounded on glibc; fdlibm's is within
one unit in the last place but not always correctly rounded, and Java's `nextGaussian` takes
fdlibm's. About three Gaussians in a hundred differ in their last bit with `math.log`.
The algorithm (fdlibm 5.3, e_log.c): x = 2**k * (1 + f) with sqrt(2)/2 < 1 + f < sqrt(2), then
log(1 + f) = f - s * (f - R) with s = f / (2 + f) and R a degree-14 polynomial in s (Remez, on
[0, 0.1716]), and k * ln2 split in two halves so the sum keeps its last bits.
"""

from __future__ import annotations

import struct

_DOUBLE = struct.Struct("<d")
_BITS = struct.Struct("<Q")

LN2_HI = 6.93147180369123816490e-01
"""ln 2's high part (0x3fe62e42 fee00000): its last 32 bits are zero, so k * LN2_HI is exact."""
LN2_LO = 1.90821492927058770002e-10
"""ln 2 - LN2_HI (0x3dea39ef 35793c76)."""
TWO54 = 1.80143985094819840000e+16
"""2**54: scales a subnormal up into the normal range."""
LG = (6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01,
      2.222219843214978396e-01, 1.818357216161805012e-01, 1.531383769920937332e-01,
      1.479819860511658591e-01)
"""fdlibm's Lg1..Lg7: the coefficients of R(z) = Lg1 z + Lg2 z^2 + ... with z = s^2."""


def _words(x: float) -> tuple[int, int]:
    """The high 32 bits (signed, as C's int) and low 32 bits of the double `x`."""
    bits = _BITS.unpack(_DOUBLE.pack(x))[0]
    high = bits >> 32
    return (high - (1 << 32) if high >= 1 << 31 else high), bits & 0xFFFFFFFF


def _with_high(x: float, high: int) -> float:
    """`x` with its high 32 bits replaced by `high` (fdlibm's `__HI(x) = high`)."""
    low = _BITS.unpack(_DOUBLE.pack(x))[0] & 0xFFFFFFFF
    return _DOUBLE.unpack(_BITS.pack(((high & 0xFFFFFFFF) << 32) | low))[0]


def strict_log(x: float) -> float:
    """The natural logarithm of `x` as Java's `StrictMath.log` gives it (fdlibm's): -inf for 0,
    NaN for a negative number or NaN, +inf for +inf."""
    hx, lx = _words(x)
    k = 0
    if hx < 0x00100000:  # x < 2**-1022: zero, negative or subnormal
        if ((hx & 0x7FFFFFFF) | lx) == 0:
            return float("-inf")
        if hx < 0:
            return float("nan")
        k -= 54
        x *= TWO54
        hx, _ = _words(x)
    if hx >= 0x7FF00000:
        return x + x
    k += (hx >> 20) - 1023
    hx &= 0x000FFFFF
    i = (hx + 0x95F64) & 0x100000
    x = _with_high(x, hx | (i ^ 0x3FF00000))  # normalise x or x/2
    k += i >> 20
    f = x - 1.0
    if (0x000FFFFF & (2 + hx)) < 3:  # |f| < 2**-20
        if f == 0.0:
            if k == 0:
                return 0.0
            dk = float(k)
            return dk * LN2_HI + dk * LN2_LO
        r = f * f * (0.5 - 0.33333333333333333 * f)
        if k == 0:
            return f - r
        dk = float(k)
        return dk * LN2_HI - ((r - dk * LN2_LO) - f)
    lg1, lg2, lg3, lg4, lg5, lg6, lg7 = LG
    s = f / (2.0 + f)
    dk = float(k)
    z = s * s
    i = hx - 0x6147A
    w = z * z
    j = 0x6B851 - hx
    t1 = w * (lg2 + w * (lg4 + w * lg6))
    t2 = z * (lg1 + w * (lg3 + w * (lg5 + w * lg7)))
    i |= j
    r = t2 + t1
    if i > 0:
        hfsq = 0.5 * f * f
        if k == 0:
            return f - (hfsq - s * (hfsq + r))
        return dk * LN2_HI - ((hfsq - (s * (hfsq + r) + dk * LN2_LO)) - f)
    if k == 0:
        return f - s * (f - r)
    return dk * LN2_HI - ((s * (f - r) - dk * LN2_LO) - f)
