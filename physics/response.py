"""Collision responses: what a body does when its swept move hits something, and which response applies.

Owns: `Response` (SLIDE, BOUNCE, STOP), `Contact` (one contact reported to game logic),
`resolve` (a body's move, cast and responded to until the displacement is used up) and the
response table per pair of body kinds (`BodyKind`, `RESPONSES`, `response_for`).
Does not own: the hit test (see `swept_aabb.py`), the grid walk (see `grid_cast.py`), nor Beta's walking
move with its step-up (see `mover.py`, which players use every tick).

`resolve`, step by step:
1. cast the remaining displacement; no hit: move all of it and stop;
2. move exactly to the contact: the hit face flush with the obstacle, not a skin short of it.
   Boxel needs no skin: the sweep counts an overlap up to CONTACT_TOLERANCE as touching, so the
   next cast still sees the contact, and float drift can never carry the body inside;
3. report the contact; the rest of the displacement is the part of it not yet travelled;
4. respond, on the normal's axis only (the tangential part is always kept whole):
   SLIDE drops the normal part, BOUNCE reverses it and scales it by the restitution,
   STOP drops everything;
5. repeat until nothing is left or `max_iterations` casts were made (the rest is then dropped).
The body's velocity follows the same rule: for SLIDE its component into the surface becomes 0,
for BOUNCE that component is reversed and scaled by the restitution; STOP zeroes all of it.
A velocity component that already points away from the surface is left alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from .aabb import AABB
from .body import Body, require_finite
from .grid_cast import cast_unchecked
from .swept_aabb import contact_offset
from .tolerances import MAX_RESOLVE_ITERATIONS
from .world import CollisionWorld
from .messages import shown

DEFAULT_RESTITUTION = 0.5
"""[1] Fraction of the speed into a surface a bouncing body keeps, reversed (0: no bounce, 1: elastic)."""


class Response(Enum):
    """What a moving body does with the rest of its displacement after a contact."""

    SLIDE = "slide"
    """Keep moving along the surface: drop the motion into it (players, mobs)."""
    BOUNCE = "bounce"
    """Reflect the motion into the surface, scaled by the restitution (thrown projectiles)."""
    STOP = "stop"
    """Stop at the contact (arrows sticking in a block)."""


class BodyKind(Enum):
    """The kinds of things that move or are hit; the response table is keyed by pairs of them."""

    PLAYER = "player"
    MOB = "mob"
    PROJECTILE = "projectile"
    ARROW = "arrow"
    BLOCK = "block"


RESPONSES: Mapping[tuple[BodyKind, BodyKind], Response] = MappingProxyType({
    (BodyKind.PLAYER, BodyKind.BLOCK): Response.SLIDE,
    (BodyKind.MOB, BodyKind.BLOCK): Response.SLIDE,
    (BodyKind.PROJECTILE, BodyKind.BLOCK): Response.BOUNCE,
    (BodyKind.ARROW, BodyKind.BLOCK): Response.STOP,
})
"""The response of a moving kind (first) meeting an obstacle kind (second). Read-only."""


def response_for(mover: BodyKind, obstacle: BodyKind) -> Response:
    """The response when a `mover` hits an `obstacle`; ValueError for a pair the table lacks."""
    for what, kind in (("mover", mover), ("obstacle", obstacle)):
        if not isinstance(kind, BodyKind):
            raise TypeError(f"{what} must be a physics.BodyKind, got {shown(kind)}")
    try:
        return RESPONSES[mover, obstacle]
    except KeyError:
        raise ValueError(f"no response for {mover.value} hitting {obstacle.value}") from None


@dataclass(frozen=True, slots=True)
class Contact:
    """One contact met during `resolve`, for game logic (damage, sounds, knockback) and the debug overlay."""

    box: AABB
    """The obstacle box that was hit."""
    normal: tuple[float, float, float]
    """Outward normal of the obstacle's face that was hit (an axis unit vector)."""
    time: float
    """[1] When, as a fraction of the whole move: 0 at its start, 1 at its end."""
    body_box: AABB
    """The moving body's box at the contact (its face flush with the obstacle's)."""


def resolve(body: Body, dx: float, dy: float, dz: float, world: CollisionWorld, response: Response,
            restitution: float = DEFAULT_RESTITUTION,
            max_iterations: int = MAX_RESOLVE_ITERATIONS) -> tuple[Body, list[Contact]]:
    """Move `body` by (dx, dy, dz) blocks through `world`, answering each contact with `response`.

    Returns the new body (box moved, velocity responded to, on_ground when a contact had an
    upward normal, the collided flags by normal axis, camera lag unchanged) and the contacts in
    the order they happened. Bad input (a non-finite displacement, restitution outside [0, 1],
    max_iterations < 1) raises ValueError; wrong types raise TypeError; nothing changes.
    """
    if not isinstance(body, Body):
        raise TypeError(f"resolve needs a physics.Body, got {shown(body)}")
    require_finite("resolve displacement", dx, dy, dz)
    if not isinstance(world, CollisionWorld):
        raise TypeError(f"resolve needs a CollisionWorld (with collision_boxes(region)), got {shown(world)}")
    if not isinstance(response, Response):
        raise TypeError(f"response must be a physics.Response, got {shown(response)}")
    require_finite("restitution", restitution)
    if not 0.0 <= restitution <= 1.0:
        raise ValueError(f"restitution must be in [0, 1], got {shown(restitution)}")
    if isinstance(max_iterations, bool) or not isinstance(max_iterations, int):
        raise TypeError(f"max_iterations must be an int, got {shown(max_iterations)}")
    if max_iterations < 1:
        raise ValueError(f"max_iterations must be at least 1, got {shown(max_iterations)}")

    box = body.box
    velocity = list(body.velocity)
    rest = (float(dx), float(dy), float(dz))
    elapsed = 0.0
    contacts: list[Contact] = []
    for _ in range(max_iterations):
        if rest == (0.0, 0.0, 0.0):
            break
        hit = cast_unchecked(box, rest, world)
        if hit is None:
            box = _moved(box, rest)
            break
        box = _moved(box, contact_offset(box, rest, hit))
        elapsed += (1.0 - elapsed) * hit.time
        contacts.append(Contact(hit.box, hit.normal, elapsed, box))
        if response is Response.STOP:
            velocity = [0.0, 0.0, 0.0]
            break
        axis = hit.axis
        left = 1.0 - hit.time
        after = [left * rest[0], left * rest[1], left * rest[2]]
        kept = 0.0 if response is Response.SLIDE else -restitution
        after[axis] *= kept
        if velocity[axis] * hit.normal[axis] < 0.0:  # moving into the surface
            velocity[axis] *= kept
        rest = (after[0], after[1], after[2])

    normals = [c.normal for c in contacts]
    return Body(
        box,
        (velocity[0] + 0.0, velocity[1] + 0.0, velocity[2] + 0.0),
        (0.0, 1.0, 0.0) in normals,
        any(n[0] != 0.0 or n[2] != 0.0 for n in normals),
        any(n[1] != 0.0 for n in normals),
        body.camera_lag,
    ), contacts


def _moved(box: AABB, offset: tuple[float, float, float]) -> AABB:
    ox, oy, oz = offset
    x0, y0, z0, x1, y1, z1 = box
    return AABB._trusted(x0 + ox, y0 + oy, z0 + oz, x1 + ox, y1 + oy, z1 + oz)
