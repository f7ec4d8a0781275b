"""What a block is made of, as physics sees it, and how physics reads it from any world.

Owns: `Material` (the eight kinds of block that move bodies differently) and the readers that
ask a `CollisionWorld` about materials and fluid currents, with the defaults for worlds that do
not say (a cell is SOLID when one of the world's boxes fills part of it, AIR otherwise; no
current anywhere).
Does not own: what each material does to a body (`media.py`, `tick.py`, `mover.py`) nor which
game block has which material (the game's block registry).

A world may offer three optional queries, fastest first:
- `materials_in(x0, y0, z0, x1, y1, z1)`: every non-AIR cell of the inclusive cuboid, as a dict
  {(x, y, z): Material} in x, then y, then z order (Beta's loop order, in which currents are
  summed); one call per query region; `BlockGrid` has it;
- `material(x, y, z) -> Material`: one cell (physics calls it for each cell it needs);
- `flow(x, y, z) -> (fx, fy, fz)`: the current of a fluid cell (Beta's `getFlowVector`).
A world with neither material query is read from its boxes, so it moves bodies as on dry land.
"""

from __future__ import annotations

import enum
import math

from .aabb import AABB
from .messages import shown


class Material(enum.IntEnum):
    """The kinds of block that move a body differently (an int, so arrays can hold it)."""

    AIR = 0
    SOLID = 1
    WATER = 2
    LAVA = 3
    LADDER = 4
    WEB = 5
    SOUL_SAND = 6
    CACTUS = 7


FLUIDS = frozenset({Material.WATER, Material.LAVA})
"""The materials Beta calls liquids (`Material.getIsLiquid`)."""

NO_FLOW = (0.0, 0.0, 0.0)

Cells = dict[tuple[int, int, int], Material]


def reader(world):
    """`materials_in` for `world` as a function of the cuboid: its own bulk query when it has one."""
    bulk = getattr(world, "materials_in", None)
    if bulk is not None:
        return bulk
    return lambda x0, y0, z0, x1, y1, z1: materials_in(world, x0, y0, z0, x1, y1, z1)


def has_materials(world) -> bool:
    """Whether `world` says what its cells are made of (otherwise every cell is AIR or SOLID)."""
    return hasattr(world, "materials_in") or hasattr(world, "material")


def materials_in(world, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int) -> Cells:
    """The non-AIR cells of the inclusive cuboid (x0, y0, z0)..(x1, y1, z1) of `world`, by cell,
    in x, then y, then z order (the default reading lists only SOLID cells, in any order)."""
    bulk = getattr(world, "materials_in", None)
    if bulk is not None:
        return bulk(x0, y0, z0, x1, y1, z1)
    single = getattr(world, "material", None)
    if single is not None:
        found: Cells = {}
        for x in range(x0, x1 + 1):
            for y in range(y0, y1 + 1):
                for z in range(z0, z1 + 1):
                    material = single(x, y, z)
                    if material != Material.AIR:
                        found[(x, y, z)] = Material(material)
        return found
    return solid_cells(world, x0, y0, z0, x1, y1, z1)


def solid_cells(world, x0: int, y0: int, z0: int, x1: int, y1: int, z1: int) -> Cells:
    """The default reading: each cell of the cuboid that one of the world's boxes lies in is SOLID:
    the cells floor(min) .. ceil(max) - 1 of the box on each axis (a flat box: its floor(min)
    cell), the rule the crowd's world cache files boxes by (`broad_phase.WorldCache`), so both
    crowd paths read the same materials. One `collision_boxes` query for the whole cuboid."""
    region = AABB._trusted(float(x0), float(y0), float(z0), float(x1 + 1), float(y1 + 1), float(z1 + 1))
    found: Cells = {}
    for b in world.collision_boxes(region):
        (lx, hx), (ly, hy), (lz, hz) = _cells_of(b[0], b[3]), _cells_of(b[1], b[4]), _cells_of(b[2], b[5])
        for x in range(max(x0, lx), min(x1, hx) + 1):
            for y in range(max(y0, ly), min(y1, hy) + 1):
                for z in range(max(z0, lz), min(z1, hz) + 1):
                    found[(x, y, z)] = Material.SOLID
    return found


def _cells_of(low: float, high: float) -> tuple[int, int]:
    first = math.floor(low)
    return first, max(math.ceil(high) - 1, first)


def material_at(world, x: int, y: int, z: int) -> Material:
    """The material of cell (x, y, z) of `world` (see the module docstring for the defaults)."""
    single = getattr(world, "material", None)
    if single is not None:
        return Material(single(x, y, z))
    return materials_in(world, x, y, z, x, y, z).get((x, y, z), Material.AIR)


def flow_at(world, x: int, y: int, z: int) -> tuple[float, float, float]:
    """The current of cell (x, y, z): the world's `flow`, or none (not checked here: callers
    check what they compute from it)."""
    query = getattr(world, "flow", None)
    return NO_FLOW if query is None else query(x, y, z)


def require_flow(flow) -> tuple[float, float, float]:
    """`flow` as three finite floats, or ValueError/TypeError naming what is wrong."""
    try:
        fx, fy, fz = flow
    except (TypeError, ValueError):
        raise ValueError(f"a flow is three numbers (fx, fy, fz), got {shown(flow)}") from None
    values = []
    for v in (fx, fy, fz):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"a flow is three numbers, got {shown(flow)}")
        try:
            finite = math.isfinite(v)
        except OverflowError:
            finite = False
        if not finite:
            raise ValueError(f"a flow must be finite, got {shown(flow)}")
        values.append(float(v))
    return (values[0], values[1], values[2])


def require_material(material) -> Material:
    """`material` as a Material, or TypeError."""
    if isinstance(material, Material):
        return material
    raise TypeError(f"material must be a physics.Material, got {shown(material)}")
