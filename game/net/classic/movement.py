"""Holding a client that sends positions to Boxel's physics: Beta's server checks.

Owns: `check_move`: a Classic client says where its feet are now; the server re-runs the move
from the last position it accepted through `physics.move` (Beta's `moveEntity`, with the world's
collision), and accepts the moved body when the client's claim is within WRONG_MOVE_BLOCKS of
where the move ends on every axis; a move through a block is "moved wrongly", one longer than
TOO_QUICK_BLOCKS is "moved too quickly" (both: the player is teleported back, Beta's
NetServerHandler). Conversions between Classic's fixed-point eye positions and feet.
Pure: no sockets, no Session. Does not own when a client's positions are ignored (after a
teleport, until its TwoWayPing echo: `game.net.classic.gateway`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import physics

from .packets import UNITS_PER_BLOCK

WRONG_MOVE_BLOCKS = 0.0625
"""[blocks] Beta's server: a claim farther than this from where its move really ends moved wrongly."""
TOO_QUICK_BLOCKS = 10.0
"""[blocks] A move longer than this in one packet moved too quickly (Beta's 100 squared blocks)."""
EYE_UNITS = 51
"""[1/32 block] A Classic player's position is its eye, this far above its feet (1.59375 blocks)."""


@dataclass(frozen=True)
class MoveVerdict:
    """A claimed move judged: `body` is where the player now is (the moved body when accepted,
    the last accepted one when not); `reason` is None when accepted."""

    body: physics.Body
    reason: str | None = None

    @property
    def accepted(self) -> bool:
        return self.reason is None


def check_move(body: physics.Body, feet: tuple[float, float, float], world) -> MoveVerdict:
    """Judge a client's claim that its feet moved from `body`'s to `feet` [blocks] (see the
    module docstring). ValueError for feet that are not finite."""
    if len(feet) != 3 or not all(math.isfinite(v) for v in feet):
        raise ValueError(f"feet are three finite numbers, got {feet!r}")
    x0, y0, z0 = body.feet
    dx, dy, dz = feet[0] - x0, feet[1] - y0, feet[2] - z0
    if dx * dx + dy * dy + dz * dz > TOO_QUICK_BLOCKS * TOO_QUICK_BLOCKS:
        return MoveVerdict(body, f"moved too quickly ({math.sqrt(dx * dx + dy * dy + dz * dz):.2f} blocks in one packet)")
    moved = physics.move(replace(body, velocity=(0.0, 0.0, 0.0)), dx, dy, dz, world)
    error = max(abs(a - b) for a, b in zip(moved.feet, feet))
    if error > WRONG_MOVE_BLOCKS:
        return MoveVerdict(body, f"moved wrongly ({error:.3f} blocks from where the move ends)")
    return MoveVerdict(moved)


def feet_of_fixed(x: int, y: int, z: int) -> tuple[float, float, float]:
    """Classic's fixed-point eye position [1/32 block] as feet [blocks] (map coordinates)."""
    return x / UNITS_PER_BLOCK, (y - EYE_UNITS) / UNITS_PER_BLOCK, z / UNITS_PER_BLOCK


def fixed_of_feet(x: float, y: float, z: float) -> tuple[int, int, int]:
    """Feet [blocks] (map coordinates) as Classic's fixed-point eye position [1/32 block], rounded."""
    return (round(x * UNITS_PER_BLOCK), round(y * UNITS_PER_BLOCK) + EYE_UNITS, round(z * UNITS_PER_BLOCK))


def angle_byte(degrees: float) -> int:
    """An angle [degrees] as Classic's byte of 1/256 turn."""
    return int(round(degrees * 256 / 360)) % 256


def degrees_of(angle: int) -> float:
    """Classic's byte of 1/256 turn as degrees (0..360)."""
    return angle * 360 / 256
