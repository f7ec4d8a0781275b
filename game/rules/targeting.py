"""Building: which block or mob the player looks at, where a new block goes, and breaking and placing.

Owns: the look direction from yaw and pitch, the ray cast from the eye (`find_target`), the
`Target` value it returns, the ray test against mobs' boxes (`find_mob`, `MobTarget`: a mob in
front of a block is hit first), the placement rules (`can_place`, and `placement`: for slabs
the half by where the face was hit, two halves making a double slab; for stairs the facing by
the player's yaw, for ladders the wall by the clicked face) and the edits
(`break_block`, `place_block`, `place_against`). Pure: no Ursina import; works on any
`game.rules.game_world.GameWorld` (the look ray reads its `selection_boxes`, building its blocks).
Does not own: the hit test or the grid walk (`physics.cast` does both), block properties
(`game.world.blocks`), which block the player holds (`game.rules.hotbar`), what hitting a mob does
(the session knocks it back), drawing the outline (`game.window.ui.target_outline`) or mesh rebuilds
(the caller passes the returned section keys on).

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
from types import MappingProxyType
from typing import Protocol

import physics
from physics import AABB

from .game_world import GameWorld
from ..world.blocks import AIR, BREAKABLE, REPLACEABLE, SHAPES, block_id
from ..world.coords import block_coordinate

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
MOB_SCAN_MARGIN = 1.0
"""[blocks] `find_mob` sweeps the ray only against mob boxes within this of the region the ray
passes through: any margin > 0 finds exactly the hits a sweep against every box finds (a box
that meets no part of that region cannot be met); a whole block keeps that true whatever
tolerance the sweep allows at a touching face."""

Cell = tuple[int, int, int]
SectionKeys = tuple[tuple[int, int, int], ...]


class BlockWorld(physics.CollisionWorld, Protocol):
    """What building needs from a world (`game.world.World` and the lab's `game.world.lab.Arena` have it):
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
    """The selection box the ray hit (world coordinates) [blocks]."""
    boxes: tuple[AABB, ...]
    """Every selection box of the targeted block (what the outline draws) [blocks]."""
    distance: float
    """[blocks] From the eye to the hit point along the ray."""
    point: tuple[float, float, float]
    """[blocks] Where the ray meets the face (world coordinates): a slab goes in the upper half
    of a cell when a side face is hit above its cell's middle."""


@dataclass(frozen=True, slots=True)
class MobTarget:
    """A mob's box that the look ray meets (`find_mob`)."""

    index: int
    """The mob's position in the boxes `find_mob` was given (the mobs' crowd order)."""
    box: AABB
    """[blocks] The mob's box."""
    distance: float
    """[blocks] From the eye to where the ray meets the box."""


@dataclass(frozen=True, slots=True)
class SlabKind:
    """The three blocks of one kind of slab: the lower half, the upper half, both halves."""

    bottom: str
    top: str
    double: str


SLABS = (SlabKind("stone_slab", "stone_slab_top", "double_slab"),)
"""Every kind of slab. Holding either half places the half the hit point picks (`placement`)."""
_SLAB_OF = {name: kind for kind in SLABS for name in (kind.bottom, kind.top)}
SLAB_TOP_HALF_ABOVE = 0.5
"""[blocks] A side face hit higher than this above the bottom of its cell places an upper-half
slab (Minecraft's rule: the upper half of a block's side)."""

COMPASS = ("south", "west", "north", "east")
"""The sides a player can face, by Minecraft's yaw quarter: yaw 0 faces south (+Z), 90 west (-X),
180 north (-Z), 270 east (+X)."""
DEGREES_PER_QUARTER = 90.0
"""[degrees] One compass quarter of yaw."""
STAIRS_BY_FACING = MappingProxyType({facing: f"stairs_{facing}" for facing in ("north", "south", "east", "west")})
"""The stairs by the side they rise toward (`physics.shapes`: "stairs_east" rises toward +X).
Holding any of them places the one rising the way the player faces (`placement`), so the player
walks up it: Minecraft's rule, its back (the full-height half) away from the player."""
LADDERS_BY_WALL = MappingProxyType({side: f"ladder_{side}" for side in ("north", "south", "east", "west")})
"""The ladders by the side of their cell they lie against (`physics.shapes.LADDER`). Holding any
of them places the one lying on the clicked face (`placement`)."""
_STAIRS = frozenset(STAIRS_BY_FACING.values())
_LADDERS = frozenset(LADDERS_BY_WALL.values())
_WALL_BEHIND = {(0, 1): "north", (0, -1): "south", (1, 0): "west", (-1, 0): "east"}
"""A side face's outward normal (nx, nz) -> the side of the new cell that face is: placed against
the south (+Z) face of a block, a ladder lies on the north (-Z) side of its cell."""


def facing_of(yaw: float) -> str:
    """The compass side (COMPASS) a player with Minecraft yaw `yaw` [degrees] faces: the nearest
    quarter, as Minecraft rounds it (floor(yaw / 90 + 0.5) mod 4). TypeError/ValueError for a
    non-number or a non-finite yaw."""
    _require_number("yaw", yaw)
    return COMPASS[math.floor(yaw / DEGREES_PER_QUARTER + 0.5) % len(COMPASS)]


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
    """The first block whose selection shape (`World.selection_boxes`: the collision shape, or the
    box a torch, flower or cobweb is aimed at by) the look ray from `eye` meets within `reach`, or None.

    Within reach means at most `reach` along the ray (a face exactly at the reach counts).

    `eye`: (x, y, z) [blocks]; `yaw`, `pitch`: [degrees]; `reach`: [blocks], positive.
    TypeError for non-numbers or a world without `selection_boxes`, ValueError for non-finite
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
    hit = physics.cast(ray, dx * reach, dy * reach, dz * reach, _selection_view(world))
    if hit is None:
        return None
    block = (math.floor(hit.box[0]), math.floor(hit.box[1]), math.floor(hit.box[2]))
    face = (int(hit.normal[0]), int(hit.normal[1]), int(hit.normal[2]))
    distance = _ray_distance(hit, (x, y, z), (dx, dy, dz), reach)
    point = (x + dx * distance, y + dy * distance, z + dz * distance)
    return Target(block, face, hit.box, selected_boxes(world, block), distance, point)


@dataclass(frozen=True, slots=True)
class _SelectionView:
    """A world as the look ray sees it: its `selection_boxes` given as the collision boxes
    `physics.cast` asks for (torches, flowers and cobwebs are hit, though bodies pass through)."""

    selection_boxes: object

    def collision_boxes(self, region: AABB):
        return self.selection_boxes(region)


def _selection_view(world: GameWorld) -> physics.CollisionWorld:
    """What the look ray is cast against: the world's selection boxes (`GameWorld.selection_boxes`)
    as collision boxes. TypeError for a world that has none (such as a bare `physics.BlockGrid`)."""
    try:
        selection_boxes = world.selection_boxes
    except AttributeError:
        raise TypeError(f"the look ray needs a game world with selection_boxes(region) "
                        f"(game.rules.game_world.GameWorld), got {type(world).__name__}") from None
    return _SelectionView(selection_boxes)


def find_mob(eye: Sequence[float], yaw: float, pitch: float, boxes: Iterable[AABB],
             reach: float = REACH_BLOCKS) -> MobTarget | None:
    """The nearest of `boxes` (the mobs' boxes) that the look ray from `eye` meets within `reach`,
    or None. The same ray as `find_target`, so its `distance` compares with a block target's:
    the smaller is in front. A box the eye is inside is not hit (as a block's is not).

    TypeError/ValueError as `find_target`, TypeError for a box that is not an AABB.
    """
    x, y, z = _three("eye", eye)
    for name, value in (("eye x", x), ("eye y", y), ("eye z", z), ("reach", reach)):
        _require_number(name, value)
    if reach <= 0.0:
        raise ValueError(f"reach must be positive, got {reach!r}")
    boxes = list(boxes)
    for box in boxes:
        if not isinstance(box, AABB):
            raise TypeError(f"mob boxes must be physics.AABB values, got {box!r}")
    dx, dy, dz = look_direction(yaw, pitch)
    x, y, z = float(x), float(y), float(z)
    ray = AABB(x, y, z, x, y, z).grown(RAY_HALF_WIDTH, RAY_HALF_WIDTH, RAY_HALF_WIDTH)
    # Only boxes that meet the region the ray sweeps through (grown by MOB_SCAN_MARGIN) can be hit:
    # a crowd's other mobs are passed over without a sweep each.
    ex, ey, ez = x + dx * reach, y + dy * reach, z + dz * reach
    near = MOB_SCAN_MARGIN + RAY_HALF_WIDTH
    lx, ly, lz, hx, hy, hz = min(x, ex) - near, min(y, ey) - near, min(z, ez) - near, \
        max(x, ex) + near, max(y, ey) + near, max(z, ez) + near
    nearest = None
    for index, box in enumerate(boxes):
        if box[3] < lx or box[0] > hx or box[4] < ly or box[1] > hy or box[5] < lz or box[2] > hz:
            continue
        hit = physics.sweep(ray, dx * reach, dy * reach, dz * reach, box)
        if hit is None:
            continue
        distance = _ray_distance(hit, (x, y, z), (dx, dy, dz), reach)
        if nearest is None or distance < nearest.distance:
            nearest = MobTarget(index, box, distance)
    return nearest


def _ray_distance(hit: physics.Hit, eye: Sequence[float], direction: Sequence[float], reach: float) -> float:
    """[blocks] Where the ray itself crosses the hit face's plane (the cast cube touched it
    RAY_HALF_WIDTH earlier), within [0, reach]."""
    axis = hit.axis
    plane = hit.box[axis + 3] if hit.normal[axis] > 0 else hit.box[axis]
    return min(max((plane - eye[axis]) / direction[axis], 0.0), reach)


def block_boxes(world: physics.CollisionWorld, cell: Cell) -> tuple[AABB, ...]:
    """The collision boxes of the block at `cell` (world coordinates), sorted; () for air.

    Asked through `collision_boxes` alone, so it shows what physics collides with: the boxes
    overlapping the cell whose min corner lies in it (a fence reaching up from below is left out).
    """
    x, y, z = cell
    found = world.collision_boxes(AABB(x, y, z, x + 1, y + 1, z + 1))
    return tuple(sorted(b for b in found if (math.floor(b[0]), math.floor(b[1]), math.floor(b[2])) == cell))


def selected_boxes(world: physics.CollisionWorld, cell: Cell) -> tuple[AABB, ...]:
    """The selection boxes of the block at `cell` (what the outline and the cracks are drawn on),
    sorted; () for air: `block_boxes` of the world as the look ray sees it."""
    return block_boxes(_selection_view(world), cell)


def placement_cell(target: Target) -> Cell:
    """The cell a block placed against `target`'s face goes into: the block plus the face normal."""
    if not isinstance(target, Target):
        raise TypeError(f"placement_cell needs a Target, got {target!r}")
    (x, y, z), (nx, ny, nz) = target.block, target.face
    return (x + nx, y + ny, z + nz)


def placement(world: BlockWorld, target: Target, block_name: str,
              yaw: float | None = None) -> tuple[Cell, str]:
    """The cell and the block that placing `block_name` against `target` puts there, by a player
    facing Minecraft yaw `yaw` [degrees] (None: stairs and ladders keep the facing named).

    Any block but a slab, a stair or a ladder goes into `placement_cell(target)` as it is. A stair
    (any of STAIRS_BY_FACING) rises the way the player faces (`facing_of(yaw)`). A ladder (any of
    LADDERS_BY_WALL) lies on the clicked face: against a side face, on the side of its cell that
    face is; against a top or bottom face, on the side of its cell the player faces. A slab (either half of a
    kind in SLABS) follows Minecraft: against a bottom face it is an upper half, against a top
    face a lower half, against a side face an upper half when the hit point is more than
    SLAB_TOP_HALF_ABOVE above the bottom of the hit block's cell, else a lower half; and it
    completes a slab of its kind into the double slab, in place, where the other half is free:
    the top face of a lower half, the bottom face of an upper half, or a cell the new half would
    go into that holds the other half.
    """
    if not isinstance(target, Target):
        raise TypeError(f"placement needs a Target, got {target!r}")
    block_id(block_name)  # UnknownBlockError for a name the registry lacks
    if yaw is not None:
        _require_number("yaw", yaw)
    cell = placement_cell(target)
    if yaw is not None and block_name in _STAIRS:
        return cell, STAIRS_BY_FACING[facing_of(yaw)]
    if block_name in _LADDERS:
        nx, ny, nz = target.face
        if ny == 0:
            return cell, LADDERS_BY_WALL[_WALL_BEHIND[(nx, nz)]]
        return cell, block_name if yaw is None else LADDERS_BY_WALL[facing_of(yaw)]
    kind = _SLAB_OF.get(block_name)
    if kind is None:
        return cell, block_name
    hit = world.get_block(*target.block)
    face_y = target.face[1]
    if (hit, face_y) in ((kind.bottom, 1), (kind.top, -1)):
        return target.block, kind.double
    if face_y != 0:
        half = kind.top if face_y < 0 else kind.bottom
    else:
        half = kind.top if target.point[1] - target.block[1] > SLAB_TOP_HALF_ABOVE else kind.bottom
    there = world.get_block(*cell) if world.can_hold(*cell) else None
    if (there, half) in ((kind.bottom, kind.top), (kind.top, kind.bottom)):
        return cell, kind.double
    return cell, half


def place_against(world: BlockWorld, target: Target, block_name: str,
                  bodies: Iterable[physics.Body | AABB], yaw: float | None = None) -> Cell | None:
    """Place `block_name` against `target` (a right click by a player facing `yaw`): where and
    what `placement` says.
    A new block goes in only where `can_place` allows; a slab completed into a double slab only
    if its new half overlaps no body (the old half cannot). The cell changed, or None if refused."""
    cell, name = placement(world, target, block_name, yaw)
    bodies = list(bodies)
    kind = _SLAB_OF.get(block_name)
    there = world.get_block(*cell) if kind is not None and world.can_hold(*cell) else None
    if kind is None or name != kind.double or there not in (kind.bottom, kind.top):
        return cell if place_block(world, cell, name, bodies) is not None else None
    added = kind.top if there == kind.bottom else kind.bottom  # the half the click adds
    if _overlaps(SHAPES[block_id(added)], cell, [_body_box(body) for body in bodies]):
        return None
    world.set_block(*cell, name)
    return cell


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
    return not _overlaps(shape, (x, y, z), boxes)


def _overlaps(shape, cell: Cell, boxes: Sequence[AABB]) -> bool:
    """`shape` placed at `cell` overlaps one of `boxes` by more than physics.CONTACT_TOLERANCE."""
    placed = physics.shapes.placed(shape, *cell)
    return any(block.overlap_depth(box) > physics.CONTACT_TOLERANCE for block in placed for box in boxes)


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
