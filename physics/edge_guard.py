"""The sneak edge guard: how far a sneaking body on the ground may move along X or Z without
stepping off into a drop deeper than `sneak_edge_probe_depth`.

Owns: `guard_axis`, Beta's guard (`Entity.moveEntity` while sneaking: shorten the move by
`sneak_edge_backoff` at a time while the box, moved that way and lowered by the probe depth,
would rest on nothing), computed in bounded time, and `guard_axis_by_steps`, the readable
definition: Beta's loop itself, one try per backoff.
Does not own: when the guard applies (`mover.collide`: sneaking on the ground) or the clip.

What "rests on" means is the clip's rule (`clip.py`): a support box counts when the lowered box
overlaps it by more than CONTACT_TOLERANCE on the two horizontal axes (and at all vertically),
so the guard never allows a move the Y clip would then let fall (Beta tests support with the
strict overlap, which a body left 1e-9 inside an edge passes while the clip does not).

Beta's loop makes |delta| / backoff tries: a 1e6-block move would take 2e7. `guard_axis` runs
the loop itself for the first MAX_LOOPED_TRIES tries (Beta's numbers exactly, float for float)
and beyond them finds the first supported try from the support intervals directly: the tries
are delta - k x backoff, computed there with one multiplication instead of k subtractions, so a
result found that far may differ from Beta's in the last bits.
"""

from __future__ import annotations

import math

from .aabb import AABB
from .tolerances import CONTACT_TOLERANCE

MAX_LOOPED_TRIES = 400
"""[tries] Beta's loop is run literally for this many backoffs (20 blocks at Beta's 0.05: any
move a body makes in a game); a guard that needs more is computed (module docstring)."""

class Support:
    """The support boxes a guarded move along one axis can rest on, as the ranges (b_lo, b_hi)
    they cover on that axis, with the moving box's range (box_lo, box_hi) on it."""

    __slots__ = ("box_lo", "box_hi", "ranges")

    def __init__(self, box_lo: float, box_hi: float, ranges: list[tuple[float, float]]) -> None:
        self.box_lo, self.box_hi, self.ranges = box_lo, box_hi, ranges

    def rests(self, d: float) -> bool:
        """Whether the box moved by `d` rests on a support box: the clip's own comparison, on the
        coordinates the move will give the box (`clip.moved` adds `d` to both sides)."""
        tol = CONTACT_TOLERANCE
        lo, hi = self.box_lo + d, self.box_hi + d
        return any(b_hi > lo + tol and b_lo < hi - tol for b_lo, b_hi in self.ranges)

    def mirrored(self) -> Support:
        """The same support for the move's negation (x -> -x)."""
        return Support(-self.box_hi, -self.box_lo, [(-b_hi, -b_lo) for b_lo, b_hi in self.ranges])

    def intervals(self) -> list[tuple[float, float]]:
        """The open ranges of offsets `rests` accepts, up to rounding."""
        tol = CONTACT_TOLERANCE
        return [(b_lo - self.box_hi + tol, b_hi - self.box_lo - tol) for b_lo, b_hi in self.ranges]


def support_along(box: AABB, boxes, axis: int, depth: float) -> Support:
    """The boxes among `boxes` that `box` moved along `axis` (0 = X, 2 = Z) and lowered by
    `depth` may rest on: those it meets vertically and overlaps by more than the tolerance on
    the other horizontal axis."""
    other = 2 - axis
    tol = CONTACT_TOLERANCE
    low_y, high_y = box[1] - depth, box[4] - depth
    ranges = [(b[axis], b[axis + 3]) for b in boxes
              if b[4] > low_y and b[1] < high_y and b[other + 3] > box[other] + tol and b[other] < box[other + 3] - tol]
    return Support(box[axis], box[axis + 3], ranges)


def guard_axis_by_steps(delta: float, backoff: float, support: Support) -> float:
    """Beta's loop, literally: the readable definition `guard_axis` equals (tests compare them)."""
    while delta != 0.0 and not support.rests(delta):
        if -backoff <= delta < backoff:
            delta = 0.0
        elif delta > 0.0:
            delta -= backoff
        else:
            delta += backoff
    return delta


def guard_axis(delta: float, backoff: float, support: Support) -> float:
    """The move along one axis Beta's guard allows, in at most MAX_LOOPED_TRIES tries plus one
    pass over the support."""
    for _ in range(MAX_LOOPED_TRIES):
        if delta == 0.0 or support.rests(delta):
            return delta
        if -backoff <= delta < backoff:
            return 0.0
        delta = delta - backoff if delta > 0.0 else delta + backoff
    if delta < 0.0:
        return -_first_supported_try(-delta, backoff, support.mirrored())
    return _first_supported_try(delta, backoff, support)


def _first_supported_try(delta: float, backoff: float, support: Support) -> float:
    """For delta > 0: the first try delta - k x backoff (k = 0, 1, ..., up to the first try
    shorter than `backoff`, which is the last) on which the box rests, else 0."""
    last = math.floor(delta / backoff)
    while last > 0 and delta - (last - 1) * backoff < backoff:  # rounding of the division
        last -= 1
    while delta - last * backoff >= backoff:
        last += 1
    best = None
    for lo, hi in support.intervals():
        k = 0 if delta < hi else math.floor((delta - hi) / backoff) + 1
        while k > 0 and delta - (k - 1) * backoff < hi:
            k -= 1
        # The intervals are the supports' ranges up to rounding: confirm with the exact test.
        for k in (k - 1, k, k + 1):
            if 0 <= k <= last and (best is None or k < best) and support.rests(max(delta - k * backoff, 0.0)):
                best = k
                break
    if best is None:
        return 0.0
    return max(delta - best * backoff, 0.0)
