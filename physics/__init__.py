"""Boxel physics: exact, headless Minecraft Beta-style AABB movement for voxel worlds.

A standalone library: the standard library, plus numpy for crowds, and no Ursina, Panda3D or
`game`. It sees the world through `CollisionWorld.collision_boxes(region)` (and, optionally, what each
cell is made of: `material`, `flow`) and returns new immutable values.

    body = physics.Body.at_feet(0.5, 64.0, 0.5)
    body = physics.step(body, world, physics.Intent(forward=1.0, yaw=270.0))

This module only re-exports the public API. `import physics` loads every physics module but
the crowd's four (`crowd`, `crowd_one_by_one`, `crowd_vector`, `broad_phase`), and besides them
only the standard library: no numpy. The crowd's modules, and numpy with them, load on first use
of `physics.Crowd` (or `from physics import Crowd`, or importing one of them). `CrowdSettings`,
the crowd's tuning, is pure Python and loads with `physics`.
"""

from . import item_motion, shapes, tolerances
from .aabb import AABB
from .body import Body, Intent
from .crowd_settings import CrowdSettings
from .debug import DebugSink, MoveReport, RecordingSink
from .grid_cast import cast
from .knockback import knockback
from .materials import Material
from .mover import move
from .push import push
from .response import DEFAULT_RESTITUTION, RESPONSES, BodyKind, Contact, Response, resolve, response_for
from .settings import BETA, MovementSettings
from .swept_aabb import Hit, first_hit, sweep
from .tick import step
from .tolerances import CONTACT_TOLERANCE
from .world import BlockGrid, CollisionWorld

__all__ = [
    "AABB",
    "BETA",
    "BlockGrid",
    "Body",
    "BodyKind",
    "CONTACT_TOLERANCE",
    "CollisionWorld",
    "Contact",
    "Crowd",
    "CrowdSettings",
    "DEFAULT_RESTITUTION",
    "DebugSink",
    "Hit",
    "Intent",
    "Material",
    "MoveReport",
    "MovementSettings",
    "RESPONSES",
    "RecordingSink",
    "Response",
    "cast",
    "first_hit",
    "knockback",
    "move",
    "push",
    "resolve",
    "response_for",
    "shapes",
    "step",
    "sweep",
    "tolerances",
]


def __getattr__(name: str):
    """`physics.Crowd`, imported on first use: the crowd's modules load numpy."""
    if name == "Crowd":
        from .crowd import Crowd

        globals()["Crowd"] = Crowd  # later lookups find it without this call
        return Crowd
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | {"Crowd"})
