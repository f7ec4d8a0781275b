"""Building: which block the player looks at, where a new block goes, and breaking and placing.

Owns: the look direction from yaw and pitch, the ray cast from the eye (`find_target`), the
`Target` value it returns, the placement rules (`can_place`) and the two edits (`break_block`,
`place_block`). Pure: no Ursina import; works on any world with the `World` block API.
Does not own: the hit test or the grid walk (`physics.cast` does both), block properties
(`game.world.blocks`), which block the player holds (`game.hotbar`), drawing the outline
(`game.ui.target_outline`) or mesh rebuilds (the caller passes the returned section keys on).

The ray: a tiny cube at the eye (see RAY_HALF_WIDTH) cast `reach` blocks along the look
direction with `physics.cast`, which walks the grid cell slab by cell slab and tests each block's actual
collision boxes, so a ray that passes over a slab's lower half, between a stair's steps or
above a carpet goes on to whatever lies behind. Contact rules are physics' (`physics.sweep`):
a box the eye is already inside is not hit.

The block of a hit box is the cell holding the box's min corner: every shape's boxes start
inside their own cell (a fence rises above it, but starts in it).

Angles are Minecraft's, as in `physics.Intent`: yaw 0 faces +Z, 90 faces -X, 180 faces -Z,
270 faces +X; pitch positive looks down, 90 straight down.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import physics
from physics import AABB

from game.world.blocks import AIR, BREAKABLE, REPLACEABLE, SHAPES, block_id
from game.world.coords import block_coordinate

REACH_BLOCKS = 5.0
"""[blocks] How far from the eye a block can be broken, placed against or picked."""

RAY_HALF_WIDTH = 1e-6
"""[blocks] Half the edge of the tiny cube cast as the look ray.

Why not a point: physics counts a face met edge-on, or overlapped by at most
CONTACT_TOLERANCE (1e-7), as touching, not hitting. A point ray running exactly along a face
plane (an eye on a block boundary looking along an axis, or on the seam between a stair's two
boxes looking down) would graze the blocks on both sides and hit neither, so the player could
not target the wall in front of them. A cube ten times the tolerance overlaps both and hits
the nearer; it is far below a pixel, so no visible target changes, and far above the float
drift of coordinates (an ulp at 30,000,000 is ~4e-9)."""

Cell = tuple[int, int, int]
SectionKeys = tuple[tuple[int, int, int], ...]


class BlockWorld(physics.CollisionWorld, Protocol):
    """What building needs from a world (`game.world.World` and the lab's `game.lab.Arena` have it):
    collision boxes, block edits, and where the world can hold a block."""

    def can_hold(self, x: int, y: int, z: int) -> bool: ...

    def get_block(self, x: int, y: int, z: int) -> str: ...

    def set_block(self, x: int, y: int, z: int, name: str) -> SectionKeys: ...


@dataclass(frozen=True, slots=True)
class Target:
    """The block the player looks at, and where the look ray meets it."""

    block: Cell
    """The targeted block's cell (x, y, z)."""
    face: Cell
    """The outward normal (nx, ny, nz) of the face the ray hit: one axis is +-1, the others 0."""
    box: AABB
    """The collision box the ray hit (world coordinates) [blocks]."""
    boxes: tuple[AABB, ...]
    """Every collision box of the targeted block (what the outline draws) [blocks]."""
    distance: float
    """[blocks] From the eye to the hit point along the ray."""


def look_direction(yaw_degrees: float, pitch_degrees: float) -> tuple[float, float, float]:
    """The unit vector the player looks along, in physics coordinates.

    TypeError for a non-number, ValueError for a non-finite angle.
    """
    for name, value in (("yaw_degrees", yaw_degrees), ("pitch_degrees", pitch_degrees)):
        _require_number(name, value)
    yaw, pitch = math.radians(yaw_degrees), math.radians(pitch_degrees)
    horizontal = math.cos(pitch)
    return (-math.sin(yaw) * horizontal, -math.sin(pitch), math.cos(yaw) * horizontal)


def find_target(world: physics.CollisionWorld, eye: Sequence[float], yaw: float, pitch: float,
                reach: float = REACH_BLOCKS) -> Target | None:
    """The first block whose collision shape the look ray from `eye` meets within `reach`, or None.

    Within reach means at most `reach` along the ray (a face exactly at the reach counts).

    `eye`: (x, y, z) [blocks]; `yaw`, `pitch`: [degrees]; `reach`: [blocks], positive.
    TypeError for non-numbers or a world without `collision_boxes`, ValueError for non-finite
    values or a reach that is not positive.
    """
    x, y, z = _three("eye", eye)
    for name, value in (("eye x", x), ("eye y", y), ("eye z", z), ("reach", reach)):
        _require_number(name, value)
    if reach <= 0.0:
        raise ValueError(f"reach must be positive, got {reach!r}")
    dx, dy, dz = look_direction(yaw, pitch)
    x, y, z = float(x), float(y), float(z)
    ray = AABB(x, y, z, x, y, z).grown(RAY_HALF_WIDTH, RAY_HALF_WIDTH, RAY_HALF_WIDTH)
    hit = physics.cast(ray, dx * reach, dy * reach, dz * reach, world)
    if hit is None:
        return None
    block = (math.floor(hit.box[0]), math.floor(hit.box[1]), math.floor(hit.box[2]))
    face = (int(hit.normal[0]), int(hit.normal[1]), int(hit.normal[2]))
    axis = hit.axis
    plane = hit.box[axis + 3] if face[axis] > 0 else hit.box[axis]
    # Where the ray itself crosses the face's plane (the cube touched it RAY_HALF_WIDTH earlier).
    distance = min(max((plane - (x, y, z)[axis]) / (dx, dy, dz)[axis], 0.0), reach)
    return Target(block, face, hit.box, block_boxes(world, block), distance)


def block_boxes(world: physics.CollisionWorld, cell: Cell) -> tuple[AABB, ...]:
    """The collision boxes of the block at `cell` (world coordinates), sorted; () for air.

    Asked through `collision_boxes` alone, so it shows what physics collides with: the boxes
    overlapping the cell whose min corner lies in it (a fence reaching up from below is left out).
    """
    x, y, z = cell
    found = world.collision_boxes(AABB(x, y, z, x + 1, y + 1, z + 1))
    return tuple(sorted(b for b in found if (math.floor(b[0]), math.floor(b[1]), math.floor(b[2])) == cell))


def placement_cell(target: Target) -> Cell:
    """The cell a block placed against `target`'s face goes into: the block plus the face normal."""
    if not isinstance(target, Target):
        raise TypeError(f"placement_cell needs a Target, got {target!r}")
    (x, y, z), (nx, ny, nz) = target.block, target.face
    return (x + nx, y + ny, z + nz)


def can_place(world: BlockWorld, cell: Sequence[int], block_name: str,
              bodies: Iterable[physics.Body | AABB]) -> bool:
    """Whether block `block_name` may be placed at `cell`.

    False when the world cannot hold a block there (`world.can_hold`) or the cell holds a block
    other than air, water or lava (`blocks.REPLACEABLE`: a block placed in them replaces them), or
    when the block's collision
    shape placed there would overlap any body's box by more than physics.CONTACT_TOLERANCE (a
    block may touch a body, as a floor or wall does). `bodies`: `physics.Body`s or their boxes.
    UnknownBlockError (a ValueError) for an unknown name, ValueError for air, TypeError for a
    cell that is not three integers or a body that is neither a Body nor an AABB.
    """
    x, y, z = _cell(cell)
    shape = SHAPES[_placeable_id(block_name)]
    boxes = [_body_box(body) for body in bodies]
    if not world.can_hold(x, y, z) or not REPLACEABLE[block_id(world.get_block(x, y, z))]:
        return False
    placed = physics.shapes.placed(shape, x, y, z)
    return not any(block.overlap_depth(box) > physics.CONTACT_TOLERANCE for block in placed for box in boxes)


def place_block(world: BlockWorld, cell: Sequence[int], block_name: str,
                bodies: Iterable[physics.Body | AABB]) -> SectionKeys | None:
    """Place `block_name` at `cell` if `can_place` allows it: the changed section keys, or None if refused."""
    cell = _cell(cell)
    bodies = list(bodies)
    if not can_place(world, cell, block_name, bodies):
        return None
    return world.set_block(*cell, block_name)


def break_block(world: BlockWorld, target: Target) -> SectionKeys:
    """Make the targeted block air: the changed section keys; () when the block is unbreakable
    (bedrock) or already air."""
    if not isinstance(target, Target):
        raise TypeError(f"break_block needs a Target, got {target!r}")
    if not BREAKABLE[block_id(world.get_block(*target.block))]:
        return ()
    return world.set_block(*target.block, "air")


def _require_number(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")


def _three(what: str, values: object) -> tuple:
    """`values` as a 3-tuple; TypeError unless it is an iterable of exactly three items."""
    try:
        items = tuple(values)
    except TypeError:
        items = ()
    if len(items) != 3:
        raise TypeError(f"{what} must be three values (x, y, z), got {values!r}")
    return items


def _cell(cell: object) -> Cell:
    x, y, z = _three("a cell", cell)
    return (block_coordinate(x, "x"), block_coordinate(y, "y"), block_coordinate(z, "z"))


def _placeable_id(block_name: str) -> int:
    block = block_id(block_name)
    if block == AIR:
        raise ValueError("air cannot be placed; use break_block to clear a block")
    return block


def _body_box(body: object) -> AABB:
    if isinstance(body, physics.Body):
        return body.box
    if isinstance(body, AABB):
        return body
    raise TypeError(f"bodies must be physics.Body or physics.AABB values, got {body!r}")
