"""What a body is in and what it touches: Beta's medium tests before a move and its contact pass
after one.

Owns: `Medium` (water, lava, ladder, with the current a swimmer feels), `medium_before_move`
(`Entity.handleWaterMovement`, `handleLavaMovement`, `EntityLiving.isOnLadder`) and
`read_medium` (the same, with the cells it read: `MediumRead`), `on_ladder`,
`ContactPass` and `contact_pass` (`Entity.moveEntity`'s `onEntityCollidedWithBlock` loop: cobweb,
soul sand, cactus) and `free_of_blocks_and_fluid` (`Entity.isOffsetPositionInLiquid`, the test
before jumping out of a fluid onto a bank).
Does not own: what the medium does to velocity (`tick.py`) or the move (`mover.py`); how a world
answers material questions (`materials.py`).

Cell ranges follow Beta: `handleMaterialAcceleration`, `isMaterialInBB` and `getIsAnyLiquid`
visit cells floor(min) .. floor(max + 1) - 1 on each axis, so a box ending exactly on a cell's
face still visits that cell; the contact pass visits floor(min + 0.001) .. floor(max - 0.001).

A tick asks the world about materials once where it can: the contact pass and the ladder test
after the move answer from the cells the medium test read before it, when its cuboid holds
theirs (a body that stays among the same cells, which is most ticks).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from .aabb import AABB
from .floats import f32
from .materials import FLUIDS, Cells, Material, has_materials, material_at, reader
from .settings import MovementSettings
from .messages import shown

WATER, LAVA, LADDER, WEB, SOUL_SAND = Material.WATER, Material.LAVA, Material.LADDER, Material.WEB, Material.SOUL_SAND
MIN_CURRENT_LENGTH = 0.0001
"""[1] A summed current shorter than this (Beta's `Vec3D.normalize`) counts as none."""

NO_TOUCH: frozenset = frozenset()


class Medium(NamedTuple):
    """What a body is in before its move: water (with the current to add), lava, a ladder.
    A body can be in water and lava at once: it then moves as a swimmer (water comes first)."""

    in_water: bool
    in_lava: bool
    current: tuple[float, float, float] | None
    """[blocks/tick] Added to the velocity by the water (None: no current)."""
    on_ladder: bool = False


DRY = Medium(False, False, None)
ON_LADDER = Medium(False, False, None, True)


Region = tuple[int, int, int, int, int, int]
"""An inclusive cuboid of cells (x0, y0, z0, x1, y1, z1)."""


class MediumRead(NamedTuple):
    """`medium_before_move`'s answer with what it read: the cuboid of cells it asked the world
    about (None when the world says nothing about materials) and the non-AIR cells found there."""

    medium: Medium
    region: Region | None
    cells: Cells


NOTHING_READ = MediumRead(DRY, None, {})
_new_tuple = tuple.__new__


def medium_before_move(world, box: AABB, settings: MovementSettings) -> Medium:
    """Water first (see `read_medium`, which also says what it read)."""
    return read_medium(world, box, settings).medium


def read_medium(world, box: AABB, settings: MovementSettings) -> MediumRead:
    """Water first (the box shrunk by `water_check_inset_y` top and bottom, then by
    `water_check_inset` all round, overlaps a water cell), then lava (shrunk by
    `lava_check_inset_xz` sideways and `lava_check_inset_y` top and bottom), and whether the body
    is on a ladder (`on_ladder`). In water, the flow vectors of the water cells visited are
    summed in Beta's x, y, z order, and the sum, made a unit vector, times
    `current_acceleration` is the current. One world query covers all three tests (and the
    box's top row, which the contact pass reads)."""
    read = getattr(world, "materials_in", None)
    if read is None:
        if not has_materials(world):
            return NOTHING_READ
        read = reader(world)
    x0, y0, z0, x1, y1, z1 = box
    floor = math.floor
    i, iy = settings.water_check_inset, settings.water_check_inset_y
    j, jy = settings.lava_check_inset_xz, settings.lava_check_inset_y
    # One query over all three tests: the water's x and z cells hold the lava's (its inset is
    # larger; for a body too small for it, the lava's range is empty) and, but for bodies under
    # 0.002 wide, the ladder's; y runs from the feet (the ladder) to the lava's top.
    wx0, wx1 = floor(x0 + i), floor((x1 - i) + 1.0) - 1
    wz0, wz1 = floor(z0 + i), floor((z1 - i) + 1.0) - 1
    ly0, ly1 = floor(y0 + jy), floor((y1 - jy) + 1.0) - 1
    cx, cy, cz = floor((x0 + x1) / 2.0), floor(y0), floor((z0 + z1) / 2.0)  # the ladder's cell
    # The contact pass after the move reads up to the box's top row: reading it here too lets
    # that pass answer from this read (`contact_pass`) when the body keeps to its rows.
    top = floor(y1 - settings.contact_inset)
    if top < ly1:
        top = ly1
    # min and max, written out (a call each costs more than the comparison).
    region = (cx if cx < wx0 else wx0, cy if cy < ly0 else ly0, cz if cz < wz0 else wz0,
              cx if cx > wx1 else wx1, cy if cy > top else top, cz if cz > wz1 else wz1)
    cells = read(*region)
    if not cells:
        return _new_tuple(MediumRead, (DRY, region, cells))  # MediumRead(...) without its Python __new__
    climbing = cells.get((cx, cy, cz)) == LADDER
    found = cells.values()
    if WATER not in found and LAVA not in found:  # no fluid read: nothing more to test
        return _new_tuple(MediumRead, (ON_LADDER if climbing else DRY, region, cells))
    wy0, wy1 = floor((y0 + iy) + i), floor(((y1 - iy) - i) + 1.0) - 1
    lx0, lx1 = floor(x0 + j), floor((x1 - j) + 1.0) - 1
    lz0, lz1 = floor(z0 + j), floor((z1 - j) + 1.0) - 1
    wet = in_lava = False
    sx = sy = sz = 0.0
    flow = getattr(world, "flow", None)
    for (x, y, z), material in cells.items():  # in Beta's order: x, then y, then z (`materials_in`)
        if material == WATER:
            if wx0 <= x <= wx1 and wy0 <= y <= wy1 and wz0 <= z <= wz1:
                wet = True
                if flow is not None:
                    fx, fy, fz = flow(x, y, z)
                    sx += fx
                    sy += fy
                    sz += fz
        elif material == LAVA and lx0 <= x <= lx1 and ly0 <= y <= ly1 and lz0 <= z <= lz1:
            in_lava = True
    if wet:
        if not (math.isfinite(sx) and math.isfinite(sy) and math.isfinite(sz)):
            raise ValueError(f"the world's flow around {shown(box)} is not finite: a flow is three finite numbers")
        return MediumRead(Medium(True, in_lava, _current(sx, sy, sz, settings), climbing), region, cells)
    if in_lava or climbing:
        return MediumRead(Medium(False, in_lava, None, climbing), region, cells)
    return MediumRead(DRY, region, cells)


def _current(sx: float, sy: float, sz: float, settings: MovementSettings) -> tuple[float, float, float] | None:
    """Beta's normalise-and-scale of the summed flow: `Vec3D.normalize` takes the length as a
    float and treats one under MIN_CURRENT_LENGTH as zero."""
    squared = sx * sx + sy * sy + sz * sz
    if not squared > 0.0:
        return None
    length = f32(math.sqrt(squared))
    if length < MIN_CURRENT_LENGTH:
        return None
    scale = settings.current_acceleration
    return ((sx / length) * scale, (sy / length) * scale, (sz / length) * scale)


def on_ladder(world, box: AABB, read: MediumRead = NOTHING_READ) -> bool:
    """Beta's `isOnLadder`: the cell of the body's centre x, z at its feet holds a ladder.
    `read` answers without asking the world when its cuboid holds that cell (`contact_pass`)."""
    if not has_materials(world):
        return False
    x = math.floor((box[0] + box[3]) / 2.0)
    y = math.floor(box[1])
    z = math.floor((box[2] + box[5]) / 2.0)
    region = read.region
    if (region is not None and region[0] <= x <= region[3] and region[1] <= y <= region[4]
            and region[2] <= z <= region[5]):
        return read.cells.get((x, y, z)) == LADDER
    return material_at(world, x, y, z) == LADDER


class ContactPass(NamedTuple):
    """What the contact pass after a move found."""

    touching: frozenset
    """The non-AIR materials of the cells visited."""
    in_web: bool
    soul_sand_cells: int
    """How many soul sand cells were visited (each slows X and Z once)."""


NO_CONTACT = ContactPass(NO_TOUCH, False, 0)
MAX_REMEMBERED_CONTACTS = 256
"""[entries] How many contact pass answers `_contact_of` keeps (by the materials met, in the order
met) before it starts again: a game's bodies meet a handful of combinations."""
_CONTACTS: dict[tuple, ContactPass] = {}


def contact_pass(world, box: AABB, settings: MovementSettings, read: MediumRead = NOTHING_READ) -> ContactPass:
    """The cells of `box` shrunk by `contact_inset`, and what their blocks do to the body.

    `read`, what `read_medium` read in this tick, answers without asking the world again when
    its cuboid holds all those cells (a body that stays among the same cells); within a tick
    the world does not change, and it answers a cell the same in any cuboid."""
    i = settings.contact_inset
    floor = math.floor
    cx0, cy0, cz0 = floor(box[0] + i), floor(box[1] + i), floor(box[2] + i)
    cx1, cy1, cz1 = floor(box[3] - i), floor(box[4] - i), floor(box[5] - i)
    region = read.region
    if (region is not None and region[0] <= cx0 and region[1] <= cy0 and region[2] <= cz0
            and cx1 <= region[3] and cy1 <= region[4] and cz1 <= region[5]):
        if not read.cells:
            return NO_CONTACT
        found = tuple([m for (x, y, z), m in read.cells.items()
                       if cx0 <= x <= cx1 and cy0 <= y <= cy1 and cz0 <= z <= cz1])
    else:
        found = tuple(reader(world)(cx0, cy0, cz0, cx1, cy1, cz1).values())
    if not found:
        return NO_CONTACT
    contact = _CONTACTS.get(found)
    if contact is None:
        contact = _contact_of(found)
    return contact


def _contact_of(found: tuple) -> ContactPass:
    """What the materials of the cells visited (non-AIR, in the order visited) do, remembered."""
    touching = frozenset(found)
    contact = ContactPass(touching, WEB in touching, found.count(SOUL_SAND))
    if len(_CONTACTS) >= MAX_REMEMBERED_CONTACTS:
        _CONTACTS.clear()
    _CONTACTS[found] = contact
    return contact


def free_of_blocks_and_fluid(world, box: AABB) -> bool:
    """Beta's `isOffsetPositionInLiquid` (despite its name): `box` overlaps no block box and no
    fluid cell. `getIsAnyLiquid` also visits one more cell below a negative minimum on each axis."""
    if any(box.intersects(b) for b in world.collision_boxes(box)):
        return False
    if not has_materials(world):
        return True
    x0, x1 = math.floor(box[0]), math.floor(box[3] + 1.0) - 1
    y0, y1 = math.floor(box[1]), math.floor(box[4] + 1.0) - 1
    z0, z1 = math.floor(box[2]), math.floor(box[5] + 1.0) - 1
    x0 -= box[0] < 0.0
    y0 -= box[1] < 0.0
    z0 -= box[2] < 0.0
    return not any(m in FLUIDS for m in reader(world)(x0, y0, z0, x1, y1, z1).values())
