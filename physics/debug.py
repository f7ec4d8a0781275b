"""The debug sink: what a move reports about itself, for overlays and tests. Physics never draws.

Owns: `MoveReport` (one move's boxes and decisions), the `DebugSink` protocol and
`RecordingSink`. Does not own: drawing (the game's F3 overlay draws a sink's reports).

Reports cost nothing unless a sink is passed to `physics.move` or `physics.step`.
"""

from __future__ import annotations

import numbers
import sys
from collections import deque
from dataclasses import dataclass
from typing import Protocol

from .aabb import AABB
from .messages import shown

MAX_KEPT_REPORTS = sys.maxsize
"""[reports] Largest `keep` a RecordingSink takes: the largest length a deque can have."""


@dataclass(frozen=True, slots=True)
class MoveReport:
    start: AABB
    """The body's box before the move."""
    end: AABB
    """The body's box after the move."""
    requested: tuple[float, float, float]
    """[blocks] The displacement asked for (after the sneak edge guard)."""
    allowed: tuple[float, float, float]
    """[blocks] The displacement the clipping allowed (Beta's reported deltas)."""
    gathered: tuple[AABB, ...]
    """Every block box the move considered."""
    clipping: tuple[AABB, ...]
    """The gathered boxes that shortened the motion on at least one axis."""
    step_probe: AABB | None
    """The region swept by the step-up attempt, when one was tried."""
    stepped: bool
    """The step-up result was kept."""


class DebugSink(Protocol):
    def report(self, move: MoveReport) -> None:
        """Receive the report of one move."""
        ...


class RecordingSink:
    """Keeps the last `keep` reports (all of them when keep is None)."""

    def __init__(self, keep: int | None = None) -> None:
        if keep is not None and (isinstance(keep, bool) or not isinstance(keep, numbers.Integral)):
            raise TypeError(f"keep must be None or an int, got {shown(keep)}")
        if keep is not None and not 0 <= keep <= MAX_KEPT_REPORTS:
            raise ValueError(f"keep must be None or an int in [0, {MAX_KEPT_REPORTS}], got {shown(keep)}")
        self.reports: deque[MoveReport] = deque(maxlen=None if keep is None else int(keep))

    def report(self, move: MoveReport) -> None:
        """Keep `move` (TypeError for anything but a MoveReport, and nothing is kept)."""
        if not isinstance(move, MoveReport):
            raise TypeError(f"a RecordingSink keeps physics.MoveReport values, got {shown(move)}")
        self.reports.append(move)

    @property
    def last(self) -> MoveReport | None:
        return self.reports[-1] if self.reports else None

    def clear(self) -> None:
        self.reports.clear()
