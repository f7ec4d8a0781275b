"""Building: which block or mob the player looks at, where a new block goes, and breaking and placing.

Owns: the look direction from yaw and pitch, the ray cast from the eye (`find_target`), the
`Target` value it returns, the ray test against mobs' boxes (`find_mob`, `MobTarget`: a mob in
front of a block is hit first; `MobBoxes`, its twin for many rays against the same mobs, also asked
only about mobs before a block), what one viewer's look ray keeps between ticks while the cells it
read are unchanged (`SelectedBoxes`: its target's boxes; `KeptSelection`: the boxes along the ray,
and the few near it a digging player's next rays are swept against, `_Tube`), the placement rules
(`can_place`, and `placement`: for slabs the half by where the face was hit, two halves making a double slab;
for stairs the facing by the player's yaw; torches, ladders, plants, doors, beds, furnaces and
chests by Beta's rules, `game.rules.placement_rules`, checked for room by `planned_cells`) and the
edits (`break_block`, `place_block`, `place_against`). Pure: no Ursina import; works on any
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
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

import physics
from physics import AABB
from physics.body import require_finite
from physics.grid_cast import cast_unchecked
from physics.shapes import MAX_SHAPE_TOP
from physics.tolerances import MAX_DISPLACEMENT, MIN_BOX_SIZE
from physics.swept_aabb import check_box, check_moving_box, first_hit_unchecked, sweep_unchecked

from . import placement_rules
from .cell_memo import unchanged_since
from .game_world import GameWorld
from ..world.blocks import AIR, BREAKABLE, REPLACEABLE, SHAPES, block_id
from ..world.collision import cell_range
from ..world.coords import WORLD_BORDER, block_coordinate

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
_FACING_FAMILIES = placement_rules.FURNACES | placement_rules.DOORS | placement_rules.BEDS
"""Blocks placed facing by the yaw: without one, `placement` keeps the form named (as for stairs)."""
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
                reach: float = REACH_BLOCKS, selected: SelectedBoxes | None = None,
                kept: KeptSelection | None = None) -> Target | None:
    """The first block whose selection shape (`World.selection_boxes`: the collision shape, or the
    box a torch, flower or cobweb is aimed at by) the look ray from `eye` meets within `reach`, or None.

    Within reach means at most `reach` along the ray (a face exactly at the reach counts).

    `eye`: (x, y, z) [blocks]; `yaw`, `pitch`: [degrees]; `reach`: [blocks], positive; `selected`:
    a viewer's `SelectedBoxes`, which reads the target's boxes again only when they may differ;
    `kept`: a viewer's `KeptSelection`, which reads the boxes along the ray again only when they may.
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
    cast = _cast_look(world, x, y, z, dx, dy, dz, reach, kept)
    if cast is None:
        return None
    hit, block, distance = cast
    face = (int(hit.normal[0]), int(hit.normal[1]), int(hit.normal[2]))
    point = (x + dx * distance, y + dy * distance, z + dz * distance)
    boxes = selected_boxes(world, block) if selected is None else selected(world, block)
    return Target(block, face, hit.box, boxes, distance, point)


def aimed_block(world: physics.CollisionWorld, eye: Sequence[float], yaw: float, pitch: float,
                kept: KeptSelection | None = None, reach: float = REACH_BLOCKS) -> tuple[Cell, float] | None:
    """(`Target.block`, `Target.distance`) of `find_target(world, eye, yaw, pitch, reach, kept=kept)`,
    or None where it finds none: what digging reads of the look ray every tick, without the
    target's boxes, face and point. The same checks (any value `find_target` refuses, it refuses),
    made cheaply for float values (a player's eye and look always are)."""
    if type(eye) is tuple and len(eye) == 3:
        x, y, z = eye
        if (type(x) is float and type(y) is float and type(z) is float and type(yaw) is float
                and type(pitch) is float and type(reach) is float and reach > 0.0
                and math.isfinite(x + y + z + yaw + pitch + reach)):
            yaw_r, pitch_r = math.radians(yaw), math.radians(pitch)  # `look_direction`, its checks passed
            horizontal = math.cos(pitch_r)
            cast = _cast_look(world, x, y, z, -math.sin(yaw_r) * horizontal, -math.sin(pitch_r),
                              math.cos(yaw_r) * horizontal, reach, kept)
            return None if cast is None else (cast[1], cast[2])
    target = find_target(world, eye, yaw, pitch, reach, kept=kept)  # other types: its checks and answer
    return None if target is None else (target.block, target.distance)


def _cast_look(world, x: float, y: float, z: float, dx: float, dy: float, dz: float, reach: float,
               kept: KeptSelection | None) -> tuple[physics.Hit, Cell, float] | None:
    """The look ray of `find_target` from the eye (x, y, z) (floats) along the unit (dx, dy, dz):
    (the hit, its block's cell, its distance), or None."""
    # `AABB(x, y, z, x, y, z).grown(...)` without its checks: the eye and the reach are finite floats.
    ray = AABB._trusted(x - RAY_HALF_WIDTH, y - RAY_HALF_WIDTH, z - RAY_HALF_WIDTH,
                        x + RAY_HALF_WIDTH, y + RAY_HALF_WIDTH, z + RAY_HALF_WIDTH)
    delta = (dx * reach, dy * reach, dz * reach)
    # `physics.cast` less its check that the world is a `physics.CollisionWorld`: both views are
    # (a runtime protocol check walks the class's attributes: a fifth of a kept ray's time). Its
    # checks of the box and the move are made only where they may fail: a cube too thin to move (far
    # out, where floats are coarse) or a move too long.
    if not (ray[3] - ray[0] >= MIN_BOX_SIZE and ray[4] - ray[1] >= MIN_BOX_SIZE and ray[5] - ray[2] >= MIN_BOX_SIZE):
        check_moving_box("cast box", ray)
    if not (abs(delta[0]) <= MAX_DISPLACEMENT and abs(delta[1]) <= MAX_DISPLACEMENT
            and abs(delta[2]) <= MAX_DISPLACEMENT):
        require_finite("cast displacement", *delta)
    if kept is None:
        hit = cast_unchecked(ray, delta, _selection_view(world))
    else:
        hit = kept.cast(world, ray, delta, reach)
    if hit is None:
        return None
    block = (math.floor(hit.box[0]), math.floor(hit.box[1]), math.floor(hit.box[2]))
    return hit, block, _ray_distance(hit, (x, y, z), (dx, dy, dz), reach)


@dataclass(frozen=True, slots=True)
class _SelectionView:
    """A world as the look ray sees it: its `selection_boxes` given as the collision boxes
    `physics.cast` asks for (torches, flowers and cobwebs are hit, though bodies pass through)."""

    selection_boxes: object

    def collision_boxes(self, region: AABB):
        return self.selection_boxes(region)


KEPT_RANGES = 32
"""[cell ranges] A `KeptSelection` forgets every range once it holds more than this: a digging
player's look ray asks about 4 a tick, the same ones while it digs."""
_NO_RANGE = (math.inf, math.inf, math.inf, -math.inf, -math.inf, -math.inf)
"""An empty cell range (no cell lies within it): `KeptSelection`'s range around no kept range."""
_RANGE_BOTTOM_ABOVE_CELL = MAX_SHAPE_TOP - 1.0
"""[blocks] The lowest region bottom, above its range's first cell's floor, that `cell_range` gives
that range for (a fence's box reaches MAX_SHAPE_TOP up from its cell)."""
_NEAR_BORDER = WORLD_BORDER - 2
"""[blocks] A region reaching this far out may meet the border's walls: `KeptSelection` asks the world."""
LOOK_SLACK_BLOCKS = 0.75
"""[blocks] `KeptSelection.cast` keeps the boxes along the ray up to this far past its last hit (a
digging player's eye slides a hair a tick, so its next hit lies about as far)."""
LOOK_BEYOND_EDIT_BLOCKS = 1.0
"""[blocks] After an edit among its kept boxes, `KeptSelection.cast` looks this much farther than
the last hit (a dug block gone, the ray goes on to the one behind it)."""
LOOK_TUBE_BLOCKS = 0.1
"""[blocks] The boxes `KeptSelection.cast` keeps are those within this of the ray's centre line (more
than its cube's half width), at least: kept while the eye slides at most half that from where they
were picked."""
LOOK_SLIDE_AHEAD = 0.6
"""A stopping player's eye slides a little less each tick (about 0.55 times as far: Beta's friction on
the ground), about 1.2 times its last slide in all: `KeptSelection.cast` keeps the boxes for eyes
within that much of the eye this many times the last slide ahead (half way), so one keeping
serves the rest of the slide."""
LOOK_SLIDE_MOST_BLOCKS = 0.25
"""[blocks] An eye that slid farther than this since the ray before (a walking player's) keeps no
boxes: the grid is walked (keeping them costs about two walks)."""
LOOK_SLOWING = 0.75
"""Nor does one whose slide is not yet slowing down, to at most this times the slide before (a
player still pushing, or stepping down), unless it is below LOOK_SETTLED_BLOCKS."""
LOOK_SETTLED_BLOCKS = 0.01
"""[blocks] An eye that slid at most this since the ray before keeps boxes, slowing or not."""
LOOK_AROUND_BLOCKS = 0.3
"""[blocks] `KeptSelection.cast` reads the boxes around the ray this far beyond what its kept boxes
need, and picks those of later rays among them while they reach (a slide, a new hit a hair farther)."""
LOOK_INSIDE_BLOCKS = 1e-3
"""[blocks] A margin far above the rounding of region corners (an ulp at 30,000,000 is ~4e-9) and
far below LOOK_TUBE_BLOCKS: the regions the kept boxes are read from are grown by it."""


class KeptSelection:
    """The world as one viewer's look ray sees it (`_selection_view`), keeping the selection boxes
    of each cell range the ray asked about while those cells are unchanged (`game.rules.cell_memo`):
    a digging player's ray asks about the same cells tick after tick, though its eye slides a hair.

    Exact: the world's answer for a region is its cells' boxes (the cells `game.world.collision.cell_range`
    names, in x, then y, then z order) that overlap the region's interior. So the boxes of the
    widest region with the same cells, filtered by the region, are the world's answer, in its order
    (a test compares them). Regions near the world border (its walls) or empty ask the world.

    It also keeps the few boxes along the ray as far as its last hit (`cast`, `_Tube`): the next
    rays, from an eye slid a hair, are swept against those alone, without walking the grid."""

    def __init__(self) -> None:
        self._world: object = None
        self._revision: int | None = None
        self._ranges: dict[tuple[int, int, int, int, int, int], list[AABB]] = {}
        self._around = _NO_RANGE
        """A cell range (x0, y0, z0, x1, y1, z1, ends excluded) holding every kept range (it may hold
        more: it only grows until everything is forgotten)."""
        self._tube: _Tube | None = None
        """The boxes `cast` keeps along the ray, while the cells they were read from are unchanged."""
        self._read: tuple | None = None
        """(region, its cell range, the world's selection boxes overlapping it) that `cast` picks the
        boxes along the ray from, while those cells are unchanged; None if none."""
        self._last: tuple[AABB, tuple[float, float, float], float] | None = None
        """The last ray `cast` was asked for, its move, and how far its eye slid since the one before
        along the same look (inf: another look): is the eye settling?"""
        self._same: tuple | None = None
        """(world, its revision, ray, move, reach, hit) of the last cast, while the world has a revision."""
        self._along = math.inf
        """[blocks] How far along the ray `cast` keeps boxes: the last hit's distance and
        LOOK_SLACK_BLOCKS, or the whole reach (the first ray, and after a miss)."""

    def view(self, world: GameWorld) -> KeptSelection:
        """This keeper, with what `world` changed since the last call forgotten."""
        revision, ranges = world.revision, self._ranges
        if world is not self._world or self._revision is None or revision is None or len(ranges) > KEPT_RANGES:
            self._forget_all()
            self._world = world
            _selection_view(world)  # TypeError for a world without selection boxes
        elif revision != self._revision:
            changed = world.cells_changed_since(self._revision)
            if changed is None:
                self._forget_all()
            else:
                if self._read is not None:  # the kept boxes along the ray are some of these
                    lx, ly, lz, hx, hy, hz = self._read[1]
                    if any(lx <= x < hx and ly <= y < hy and lz <= z < hz for x, y, z in changed):
                        self._read = self._tube = None
                        self._along += LOOK_BEYOND_EDIT_BLOCKS  # a dug block gone: the next hit lies behind it
            if changed and ranges:
                # Only a changed cell within the range around every kept range can be in one: most are
                # other players' edits, far away, so most ticks check no range at all.
                lx, ly, lz, hx, hy, hz = self._around
                near = [(x, y, z) for x, y, z in changed if lx <= x < hx and ly <= y < hy and lz <= z < hz]
                if near:
                    for key in [key for key in ranges if any(key[0] <= x < key[3] and key[1] <= y < key[4]
                                                             and key[2] <= z < key[5] for x, y, z in near)]:
                        del ranges[key]
        self._revision = revision
        return self

    def _forget_all(self) -> None:
        self._ranges.clear()
        self._around = _NO_RANGE
        self._tube = self._read = None

    def cast(self, world: GameWorld, ray: AABB, delta: tuple[float, float, float], reach: float) -> physics.Hit | None:
        """`physics.grid_cast.cast_unchecked(ray, delta, self.view(world))`: the look ray (the cube `ray`
        moved by `delta`, `reach` [blocks] long, both checked), swept only against the few boxes kept
        along it (`_Tube`) where they hold it: a digging player's eye stays put, or slides to a stop.

        Exact: the cast's hit is `first_hit` over every box the whole move may meet (its order-free
        earliest; `physics.grid_cast`), and the kept boxes hold every box this ray can hit before the
        fraction of the move they reach (`_Tube`: picked from boxes read around the ray, `_pick`, none
        of whose cells changed since). So the earliest of them hit before that is the cast's hit; with
        the whole move, the earliest hit or none is. Otherwise (a hit farther on, an eye moved out of
        them, a look turned) the grid is walked, as before; boxes are kept for the rays after it
        once the eye's slide slows (LOOK_SLOWING), as far as the hit and LOOK_SLACK_BLOCKS, and
        wide enough for the rest of the slide (LOOK_SLIDE_AHEAD). Which rays are answered from kept
        boxes changes the cost alone, never the answer (a test compares them with fresh casts).

        The same ray again (the same floats, signed zeros included) in a world with the same `revision`
        (no block changed) has the same hit: a click's target, then that tick's dig from the eye
        the click was made from, then the block broken there."""
        revision, same = world.revision, self._same
        if (same is not None and revision is not None and same[0] is world and same[1] == revision
                and same[2] == ray and same[3] == delta and same[4] == reach and _same_signs(ray, same[2])
                and _same_signs(delta, same[3])):
            return same[5]
        hit = self._cast(world, ray, delta, reach)
        self._same = None if revision is None else (world, revision, ray, delta, reach, hit)
        return hit

    def _cast(self, world: GameWorld, ray: AABB, delta: tuple[float, float, float], reach: float) -> physics.Hit | None:
        """`cast` for a ray not the same as the last one (or the world changed since)."""
        view = self.view(world)
        along = self._along
        fraction = 1.0 if along >= reach else along / reach
        tube, last = self._tube, self._last
        slide = math.inf
        if last is not None and last[1] == delta:
            sx, sy, sz = ray[0] - last[0][0], ray[1] - last[0][1], ray[2] - last[0][2]
            slide = max(abs(sx), abs(sy), abs(sz))
        self._last = ray, delta, slide
        if tube is None or not tube.holds(ray, delta):
            tube = self._tube = None
            if slide <= LOOK_SETTLED_BLOCKS or (slide <= LOOK_SLIDE_MOST_BLOCKS and slide <= LOOK_SLOWING * last[2]):
                # kept for the rest of the slide, about as far again
                ahead = LOOK_SLIDE_AHEAD
                centre = AABB._trusted(ray[0] + sx * ahead, ray[1] + sy * ahead, ray[2] + sz * ahead,
                                       ray[3] + sx * ahead, ray[4] + sy * ahead, ray[5] + sz * ahead)
                tube = self._tube = self._pick(world, centre, delta, fraction, LOOK_TUBE_BLOCKS + 2.0 * ahead * slide)
        if tube is not None:
            hit = tube.first_hit(ray, delta)
            if tube.fraction >= 1.0 or (hit is not None and hit.time < tube.fraction):
                self._along = reach if hit is None else hit.time * reach + LOOK_SLACK_BLOCKS
                return hit
            self._tube = None  # a hit farther on: kept again as far as it, from the next ray
        hit = cast_unchecked(ray, delta, view)
        self._along = reach if hit is None else hit.time * reach + LOOK_SLACK_BLOCKS
        return hit

    def _pick(self, world: GameWorld, ray: AABB, delta: tuple[float, float, float], fraction: float,
              width: float) -> _Tube | None:
        """`_Tube.among` the boxes read around the ray (read afresh, LOOK_AROUND_BLOCKS wider, where
        those do not reach); None near the world border (its walls are cut to each region asked)."""
        covered = _covered(ray, delta, fraction, width + LOOK_INSIDE_BLOCKS)
        read = self._read
        if read is not None:
            rx0, ry0, rz0, rx1, ry1, rz1 = read[0]
            if not (rx0 <= covered[0] and ry0 <= covered[1] and rz0 <= covered[2] and covered[3] <= rx1
                    and covered[4] <= ry1 and covered[5] <= rz1):
                read = None
        if read is None:
            region = _covered(ray, delta, fraction, width + LOOK_AROUND_BLOCKS)
            if not (-_NEAR_BORDER < min(region[0], region[1], region[2])
                    and max(region[3], region[4], region[5]) < _NEAR_BORDER):
                self._read = None
                return None
            box = AABB(*region)
            read = self._read = (region, cell_range(box), list(world.selection_boxes(box)))
        return _Tube.among(read[2], ray, delta, fraction, width)

    def collision_boxes(self, region: AABB) -> list[AABB]:
        """`world.selection_boxes(region)` (the look ray asks it as a physics world)."""
        key = x0, y0, z0, x1, y1, z1 = cell_range(region)
        rx0, ry0, rz0, rx1, ry1, rz1 = region
        if x1 <= x0 or y1 <= y0 or z1 <= z0 or not (
                -_NEAR_BORDER < min(rx0, ry0, rz0) and max(rx1, ry1, rz1) < _NEAR_BORDER):
            return self._world.selection_boxes(region)
        boxes = self._ranges.get(key)
        if boxes is None:
            widest = AABB(x0, y0 + _RANGE_BOTTOM_ABOVE_CELL, z0, x1, y1, z1)
            boxes = self._ranges[key] = list(self._world.selection_boxes(widest))
            ax0, ay0, az0, ax1, ay1, az1 = self._around
            self._around = (min(ax0, x0), min(ay0, y0), min(az0, z0), max(ax1, x1), max(ay1, y1), max(az1, z1))
        return [b for b in boxes if b[3] > rx0 and b[0] < rx1 and b[4] > ry0 and b[1] < ry1 and b[5] > rz0 and b[2] < rz1]


def _same_signs(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Whether equal floats `a` and `b` also agree in the signs of their zeros (== counts -0.0 as 0.0)."""
    copysign = math.copysign
    return all(copysign(1.0, x) == copysign(1.0, y) for x, y in zip(a, b))


class _Tube:
    """The boxes one look ray can hit, kept by `KeptSelection.cast` for the rays after it: every box
    of the world that a cube moved by `fraction` of `delta` can hit, for any cube of the size of the
    one it was made for (`among`: `ray`) and within `slide` (`width` / 2) of it moved along the same
    `delta` (`holds`), while the cells they were read from are unchanged (the keeper's to see).

    Why every one: a box such a cube hits at a time before `fraction` overlaps the cube just after
    the touch (every axis overlaps then, `physics.swept_aabb`). So it overlaps, by more than
    `width` / 2 on every axis, the cube `ray` grown by `width` moved along `delta` at that time, so
    it is among the boxes `among` picks from; and its box grown by the cube's half width and `width`
    holds the centre of `ray` then, so the centre line meets it so grown: the test `among` picks by."""

    __slots__ = ("x", "y", "z", "delta", "fraction", "slide", "entries")

    def __init__(self, ray: AABB, delta: tuple[float, float, float], fraction: float, slide: float,
                 entries: list[tuple[float, AABB]]) -> None:
        self.x, self.y, self.z = ray[0], ray[1], ray[2]
        self.delta, self.fraction, self.slide = delta, fraction, slide
        self.entries = entries
        """(time the centre line enters the box grown, as a fraction of `delta`; the box), earliest first."""

    @property
    def boxes(self) -> list[AABB]:
        """The boxes kept, earliest entered first."""
        return [box for _, box in self.entries]

    @classmethod
    def among(cls, boxes: Iterable[AABB], ray: AABB, delta: tuple[float, float, float], fraction: float,
              width: float) -> _Tube:
        """The boxes a cube within `width` / 2 [blocks] of `ray` moved by `fraction` of `delta` can hit,
        picked from `boxes`: every box of the world overlapping the region that `ray` grown by `width`
        and LOOK_INSIDE_BLOCKS covers over that move (see the class docstring)."""
        moved = (delta[0] * fraction, delta[1] * fraction, delta[2] * fraction)
        half = (ray[3] - ray[0]) / 2.0 + width
        x, y, z = (ray[0] + ray[3]) / 2.0, (ray[1] + ray[4]) / 2.0, (ray[2] + ray[5]) / 2.0
        met = []
        for box in boxes:
            entry = _line_entry(x, y, z, moved, box, half)
            if entry is not None:
                met.append((entry * fraction, box))
        met.sort(key=_first)
        return cls(ray, delta, fraction, width / 2.0, met)

    def first_hit(self, ray: AABB, delta: tuple[float, float, float]) -> physics.Hit | None:
        """`first_hit_unchecked(ray, delta, self.boxes)` for a ray these boxes hold: swept nearest
        first, and none after the earliest hit comes before the next one's entry (a box is hit no
        earlier than its grown box meets the centre line: the hit cube's centre is inside it then,
        and this line within half `width` of that centre)."""
        best = None
        for entry, box in self.entries:
            if best is not None and best.time < entry:
                break
            best = first_hit_unchecked(ray, delta, (box,), best)
        return best

    def holds(self, ray: AABB, delta: tuple[float, float, float]) -> bool:
        """Whether these boxes hold every box `ray` moved by `delta` can hit before `fraction`: the
        same `delta`, the cube at most `slide` from this one."""
        slide = self.slide
        return (delta == self.delta and abs(ray[0] - self.x) <= slide
                and abs(ray[1] - self.y) <= slide and abs(ray[2] - self.z) <= slide)


def _first(item: tuple) -> object:
    return item[0]


def _line_entry(x: float, y: float, z: float, moved: tuple[float, float, float], box: AABB,
                grown: float) -> float | None:
    """When (a fraction of the move, from 0) the point (x, y, z) moved by `moved` first meets `box`
    grown by `grown` [blocks] on every side, or None if it never does (the slab test, touching
    counted as meeting)."""
    low, high = 0.0, 1.0
    for start, d, lo, hi in ((x, moved[0], box[0] - grown, box[3] + grown),
                             (y, moved[1], box[1] - grown, box[4] + grown),
                             (z, moved[2], box[2] - grown, box[5] + grown)):
        if d > 0.0:
            enter, leave = (lo - start) / d, (hi - start) / d
        elif d < 0.0:
            enter, leave = (hi - start) / d, (lo - start) / d
        elif lo <= start <= hi:
            continue
        else:
            return None
        if enter > low:
            low = enter
        if leave < high:
            high = leave
        if low > high:
            return None
    return low


def _covered(ray: AABB, delta: tuple[float, float, float], fraction: float,
             grown: float) -> tuple[float, float, float, float, float, float]:
    """The region the box `ray` covers moving by `fraction` of `delta`, grown by `grown` [blocks] on
    every side, as (x0, y0, z0, x1, y1, z1)."""
    x0, y0, z0, x1, y1, z1 = ray
    dx, dy, dz = delta[0] * fraction, delta[1] * fraction, delta[2] * fraction
    return ((x0 + dx if dx < 0.0 else x0) - grown, (y0 + dy if dy < 0.0 else y0) - grown,
            (z0 + dz if dz < 0.0 else z0) - grown, (x1 + dx if dx > 0.0 else x1) + grown,
            (y1 + dy if dy > 0.0 else y1) + grown, (z1 + dz if dz > 0.0 else z1) + grown)


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
    return _find_mob(float(x), float(y), float(z), dx, dy, dz, reach, boxes)


def _find_mob(x: float, y: float, z: float, dx: float, dy: float, dz: float, reach: float,
              boxes: Sequence[AABB], scan: float | None = None) -> MobTarget | None:
    """`find_mob` once its values are checked: the eye (x, y, z), the unit look (dx, dy, dz); `scan`
    [blocks] (at most `reach`): only boxes the ray may meet within this of the eye are swept (None:
    the reach), so a box met farther may be missed, and every box met nearer is found."""
    # `AABB(x, y, z, x, y, z).grown(...)` without its checks: (x, y, z) are finite floats.
    ray = AABB._trusted(x - RAY_HALF_WIDTH, y - RAY_HALF_WIDTH, z - RAY_HALF_WIDTH,
                        x + RAY_HALF_WIDTH, y + RAY_HALF_WIDTH, z + RAY_HALF_WIDTH)
    # Only boxes that meet the region the ray sweeps through (grown by MOB_SCAN_MARGIN) can be hit:
    # a crowd's other mobs are passed over without a sweep each.
    scan = reach if scan is None else scan
    delta = (dx * reach, dy * reach, dz * reach)
    checked = False
    ex, ey, ez = x + dx * scan, y + dy * scan, z + dz * scan
    near = MOB_SCAN_MARGIN + RAY_HALF_WIDTH
    lx, ly, lz, hx, hy, hz = min(x, ex) - near, min(y, ey) - near, min(z, ez) - near, \
        max(x, ex) + near, max(y, ey) + near, max(z, ez) + near
    nearest = None
    for index, box in enumerate(boxes):
        if box[3] < lx or box[0] > hx or box[4] < ly or box[1] > hy or box[5] < lz or box[2] > hz:
            continue
        # `physics.sweep(ray, *delta, box)`: its checks of the ray and the move made once, before the first.
        if not checked:
            check_moving_box("sweep box", ray)
            check_box("sweep target", box)
            require_finite("sweep displacement", *delta)
            checked = True
        else:
            check_box("sweep target", box)
        hit = sweep_unchecked(ray, delta, box)
        if hit is None:
            continue
        distance = _ray_distance(hit, (x, y, z), (dx, dy, dz), reach)
        if nearest is None or distance < nearest.distance:
            nearest = MobTarget(index, box, distance)
    return nearest


class MobBoxes:
    """The mobs' boxes of one moment, ordered by their min x, so that each of many look rays
    (`find_mob`, one a digging player) scans only the boxes whose x range its reach can meet: the
    same answers as `find_mob` over every box (a test compares them). TypeError for a box that is
    not an AABB."""

    def __init__(self, boxes: Iterable[AABB]) -> None:
        self.boxes = tuple(boxes)
        for box in self.boxes:
            if not isinstance(box, AABB):
                raise TypeError(f"mob boxes must be physics.AABB values, got {box!r}")
        self._order = sorted(range(len(self.boxes)), key=lambda i: self.boxes[i][0])
        self._min_x = [self.boxes[i][0] for i in self._order]
        self._widest = max((box[3] - box[0] for box in self.boxes), default=0.0)

    def find_mob(self, eye: Sequence[float], yaw: float, pitch: float, reach: float = REACH_BLOCKS,
                 before: float | None = None) -> MobTarget | None:
        """`find_mob(eye, yaw, pitch, self.boxes, reach)`; with `before` [blocks], that answer only
        when its distance is less (a mob in front of a block targeted that far), else None.

        With `before`, only boxes the ray may meet nearer are swept: every box it meets at a distance
        d (`_ray_distance`: where the ray's centre crosses the face, RAY_HALF_WIDTH past where its cube
        touched) overlaps the cube touching it, within d of the eye; the nearest of them, first in
        the boxes' order among equals, is the nearest of all when nearer than `before`."""
        if type(eye) is tuple and len(eye) == 3:  # a player's eye: its checks made cheaply (`aimed_block`)
            x, y, z = eye
            if (type(x) is float and type(y) is float and type(z) is float and type(yaw) is float
                    and type(pitch) is float and type(reach) is float and reach > 0.0
                    and math.isfinite(x + y + z + yaw + pitch + reach)):
                scan = reach if before is None or not before < reach else max(before, 0.0)
                span = scan + MOB_SCAN_MARGIN + RAY_HALF_WIDTH + 1.0
                low, high = bisect_left(self._min_x, x - span - self._widest), bisect_right(self._min_x, x + span)
                if low == high:
                    return None  # `find_mob` of no boxes
                near = sorted(self._order[low:high])
                yaw_r, pitch_r = math.radians(yaw), math.radians(pitch)  # `look_direction`, its checks passed
                horizontal = math.cos(pitch_r)
                found = _find_mob(x, y, z, -math.sin(yaw_r) * horizontal, -math.sin(pitch_r),
                                  math.cos(yaw_r) * horizontal, reach, [self.boxes[i] for i in near], scan)
                if found is None or (before is not None and not found.distance < before):
                    return None
                return MobTarget(near[found.index], found.box, found.distance)
        x = _three("eye", eye)[0]
        for name, value in (("eye x", x), ("reach", reach)):
            _require_number(name, value)
        # find_mob scans only boxes meeting the ray's region, which lies within reach (and its margin)
        # of the eye: their min x is within this span (a spare block against rounding) and the widest box.
        span = float(reach) + MOB_SCAN_MARGIN + RAY_HALF_WIDTH + 1.0
        low, high = bisect_left(self._min_x, x - span - self._widest), bisect_right(self._min_x, x + span)
        near = sorted(self._order[low:high])
        found = find_mob(eye, yaw, pitch, [self.boxes[i] for i in near], reach)
        if found is None or (before is not None and not found.distance < before):
            return None
        return MobTarget(near[found.index], found.box, found.distance)


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


class SelectedBoxes:
    """`selected_boxes` for one viewer (a player), keeping the last cell's boxes while that cell's
    block is unchanged (`game.rules.cell_memo`): a digging player targets the same block for a
    second or more. A cell's selection boxes are its own block's (every shape's boxes start in its
    own cell), so they are the same while that one cell is. The same boxes as `selected_boxes`
    (a test compares them)."""

    def __init__(self) -> None:
        self._last: tuple | None = None

    def __call__(self, world: physics.CollisionWorld, cell: Cell) -> tuple[AABB, ...]:
        revision = world.revision
        last = self._last
        if last is not None and last[0] is world and last[1] == cell and unchanged_since(world, last[2], revision,
                                                                                         *cell, *cell):
            boxes = last[3]
        else:
            boxes = selected_boxes(world, cell)
        self._last = (world, cell, revision, boxes)
        return boxes


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
    planned = placement_rules.plan(world, target.block, target.face, block_name, 0.0 if yaw is None else yaw)
    if planned is not None and block_name not in _LADDERS and (yaw is not None or block_name not in _FACING_FAMILIES):
        return planned[0] if planned else (cell, block_name)
    if yaw is not None and block_name in _STAIRS:
        return cell, STAIRS_BY_FACING[facing_of(yaw)]
    if block_name in _LADDERS:
        if planned:
            return planned[0]
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
    """Place `block_name` against `target` (a right click by a player facing `yaw`): what
    `planned_cells` says, set in its order. The cell changed first (a door's lower half, a bed's
    foot), or None if refused (nothing changes)."""
    planned = planned_cells(world, target, block_name, bodies, yaw)
    if planned is None:
        return None
    for planned_cell, planned_name in planned:
        world.set_block(*planned_cell, planned_name)
    return planned[0][0]


def can_place_against(world: BlockWorld, target: Target, block_name: str,
                      bodies: Iterable[physics.Body | AABB], yaw: float | None = None) -> bool:
    """Whether `place_against` with the same arguments would place anything (so a survival player's
    item is taken only then). Nothing changes. Errors as `placement`."""
    return planned_cells(world, target, block_name, bodies, yaw) is not None


def planned_cells(world: BlockWorld, target: Target, block_name: str, bodies: Iterable[physics.Body | AABB],
                  yaw: float | None = None) -> tuple[tuple[Cell, str], ...] | None:
    """The (cell, block) pairs a right click with `block_name` against `target` by a player facing `yaw`
    would set, in order, or None when refused. Nothing changes.

    Torches, ladders, plants, doors, beds, furnaces and chests follow Beta's placement rules
    (`placement_rules.plan`), and a door or a bed goes in whole (every cell passing `can_place`) or not
    at all. Any other block goes where and as `placement` says, where `can_place` allows; a slab
    completed into a double slab only if its new half overlaps no body (the old half cannot).
    TypeError/ValueError as `placement`."""
    if not isinstance(target, Target):
        raise TypeError(f"planned_cells needs a Target, got {target!r}")
    bodies = list(bodies)
    if placement_rules.handles(block_name):
        if yaw is not None:
            _require_number("yaw", yaw)
        planned = placement_rules.plan(world, target.block, target.face, block_name, 0.0 if yaw is None else yaw)
        if not planned or not all(can_place(world, cell, name, bodies) for cell, name in planned):
            return None
        return planned
    cell, name = placement(world, target, block_name, yaw)
    kind = _SLAB_OF.get(block_name)
    there = world.get_block(*cell) if kind is not None and world.can_hold(*cell) else None
    if kind is None or name != kind.double or there not in (kind.bottom, kind.top):
        return ((cell, name),) if can_place(world, cell, name, bodies) else None
    added = kind.top if there == kind.bottom else kind.bottom  # the half the click adds
    if _overlaps(SHAPES[block_id(added)], cell, [_body_box(body) for body in bodies]):
        return None
    return ((cell, name),)


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
    if type(value) is float:  # the usual case, without the abstract class's slower check
        if not math.isfinite(value):
            raise ValueError(f"{name} must be finite, got {value!r}")
        return
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
