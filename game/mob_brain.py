"""What a wandering mob wants each tick: a small state machine that turns into `physics.Intent`s.

Owns: mob kinds (size, speed) and `MobBrain`, the per-mob AI (idle, wander, turn at walls,
jump up one-block steps, refuse drops deeper than MAX_SAFE_DROP_BLOCKS). Deterministic: each
brain has its own seeded random stream, so a replay gives the same mobs.
Does not own: moving (physics.step / physics.Crowd do that), spawning, despawning or drawing.
It reads the world only through the physics query protocol (`collision_boxes`).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import physics
from physics import AABB, Body, Intent

from .replay import wrap_yaw
from .saved_values import preview

MAX_SAFE_DROP_BLOCKS = 3
"""[blocks] A mob does not walk toward a drop deeper than this."""
LOOK_AHEAD_BLOCKS = 0.6
"""[blocks] How far past the front of its box a mob checks for walls, steps and drops."""
IDLE_TICKS = (20, 80)
"""[ticks] Range of how long a mob stands still between walks."""
WANDER_TICKS = (40, 160)
"""[ticks] Range of how long a mob walks in one direction."""


@dataclass(frozen=True)
class MobKind:
    name: str
    width: float
    """[blocks] Box width on X and Z."""
    height: float
    """[blocks]"""
    walk_input: float
    """[1] Forward input while wandering (1.0 is a player's walk)."""


BOXLING = MobKind("boxling", width=0.9, height=0.9, walk_input=0.7)
"""The default mob: a blocky creature a bit smaller than a block."""


class MobBrain:
    """The AI state of one mob. `think` is called once per tick, before the mob steps."""

    def __init__(self, kind: MobKind, seed: int, yaw: float = 0.0) -> None:
        self.kind = kind
        self.seed = seed
        self._random = random.Random(seed)
        self.yaw = yaw
        self.walking = False
        self.ticks_left = self._random.randint(*IDLE_TICKS)

    def think(self, body: Body, world: physics.CollisionWorld) -> Intent:
        self.ticks_left -= 1
        if self.ticks_left <= 0:
            self.walking = not self.walking
            if self.walking:
                self.yaw = self._random.uniform(0.0, 360.0)
            self.ticks_left = self._random.randint(*(WANDER_TICKS if self.walking else IDLE_TICKS))
        if not self.walking:
            return Intent(yaw=self.yaw)
        ahead = _probe_ahead(body, self.yaw)
        if _drop_below(world, ahead, body.box.min_y) > MAX_SAFE_DROP_BLOCKS:
            self._turn()
            return Intent(yaw=self.yaw)
        jump = False
        if body.collided_horizontally and body.on_ground:
            if _is_step(world, ahead, body):
                jump = True
            else:
                self._turn()
        return Intent(forward=self.kind.walk_input, yaw=self.yaw, jump=jump)

    def _turn(self) -> None:
        self.yaw = (self.yaw + self._random.uniform(90.0, 270.0)) % 360.0

    def to_state(self) -> dict:
        return {"kind": self.kind.name, "seed": self.seed, "yaw": self.yaw, "walking": self.walking,
                "ticks_left": self.ticks_left, "random": list(self._random.getstate()[1])}

    @classmethod
    def from_state(cls, state: dict) -> MobBrain:
        """The brain `to_state` described. ValueError (or TypeError, KeyError) when it cannot be
        used; a finite yaw is read as the same direction in [0, 360), any other is refused (the
        mob's every intent carries it, and physics refuses a yaw that is not a sane number)."""
        if state.get("kind") != BOXLING.name:
            raise ValueError(f"unknown mob kind {state.get('kind')!r}")
        yaw = state["yaw"]
        if isinstance(yaw, bool) or not isinstance(yaw, (int, float)) or not math.isfinite(yaw):
            raise ValueError(f"a mob's yaw must be a finite number of degrees, got {preview(yaw)}")
        brain = cls(BOXLING, int(state["seed"]), wrap_yaw(yaw))
        brain.walking = bool(state["walking"])
        brain.ticks_left = int(state["ticks_left"])
        internal = tuple(int(v) for v in state["random"])
        brain._random.setstate((3, internal, None))
        return brain


def _probe_ahead(body: Body, yaw: float) -> AABB:
    """The body's box moved LOOK_AHEAD_BLOCKS past its front along the yaw."""
    radians = math.radians(yaw)
    reach = body.width / 2.0 + LOOK_AHEAD_BLOCKS
    return body.box.offset(-math.sin(radians) * reach, 0.0, math.cos(radians) * reach)


def _drop_below(world: physics.CollisionWorld, probe: AABB, feet_y: float) -> float:
    """How far the ground under the probe's centre lies below feet_y (inf if none within the limit)."""
    cx, _, cz = probe.center
    column = AABB(cx - 0.05, feet_y - MAX_SAFE_DROP_BLOCKS - 1.0, cz - 0.05, cx + 0.05, feet_y, cz + 0.05)
    tops = [b[4] for b in world.collision_boxes(column) if b.intersects(column)]
    return feet_y - max(tops) if tops else math.inf


def _is_step(world: physics.CollisionWorld, probe: AABB, body: Body) -> bool:
    """True when what blocks the way is at most one block high and there is room above it."""
    raised = probe.offset(0.0, 1.0, 0.0)
    return not any(raised.intersects(b) for b in world.collision_boxes(raised))
