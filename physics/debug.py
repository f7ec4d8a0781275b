"""The debug sink: what a move reports about itself, for overlays and tests. Physics never draws.

Owns: `MoveReport` (one move's boxes and decisions), the `DebugSink` protocol and
`RecordingSink`. Does not own: drawing (the game's F3 overlay draws a sink's reports).

Reports cost nothing unless a sink is passed to `physics.move` or `physics.step`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Protocol

from .aabb import AABB


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
        self.reports: deque[MoveReport] = deque(maxlen=keep)

    def report(self, move: MoveReport) -> None:
        self.reports.append(move)

    @property
    def last(self) -> MoveReport | None:
        return self.reports[-1] if self.reports else None

    def clear(self) -> None:
        self.reports.clear()
