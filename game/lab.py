"""The physics lab's arena: a small hand-built `physics.BlockGrid` with one of every collision case,
and its face arrays for drawing.

Owns: the arena layout (which block, shape, material and slipperiness sits in which cell), the
spawn point, the named features the tests aim at, and a simple box-face mesher that turns the
arena into flat numpy arrays per material (`game.world.meshing.MeshArrays` in physics
coordinates, counter-clockwise seen from outside; shaded per face as the chunk mesher shades;
fences drawn as the chunk mesher's post plus rails). Pure: numpy, `physics` and the numpy-only
`game.world.meshing`; no Ursina.
Does not own: the chunked world or the real chunk mesher (`game.world`), nor putting arrays
on screen (see `game.lab_app` and `game.render.space`).

Layout (x east, z south, y up; the floor's top is y = 0; the player spawns at the origin
looking north, -Z):
- north, in view from spawn: two slabs beside two full blocks (walk onto a slab, not onto a
  full block), a staircase rising north to a platform, a fence row (cannot be jumped), a
  1-high wall, and far back a long 2-high wall built of separate brick blocks (seams);
- east: a 2-high wall whose west face is x = EAST_WALL_X;
- west: a 1-wide, 2-high tunnel running west;
- south-east: a 2-high wall with a 1-wide gap; south-west: an ice patch (slipperiness 0.98);
- the lane straight south of spawn is open floor up to SOUTH_LANE_END_Z.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import physics
from game.world.meshing import FACE_SHADE, FENCE_POST, MeshArrays
from physics import shapes
from physics.shapes import Shape
from physics.world import DEFAULT_SLIPPERINESS

Cell = tuple[int, int, int]

FLOOR_HALF_SIZE = 14
"""[blocks] The floor covers cells -14..14 on X and Z (29 x 29 blocks)."""
FLOOR_Y = -1
"""Cell layer of the floor; its top face is y = 0, where feet rest."""
SPAWN_FEET = (0.5, 0.0, 0.5)
"""[blocks] Feet centre of the player at spawn."""
SPAWN_YAW = 180.0
"""[degrees] Looking north (-Z), toward most features."""
SPAWN_PITCH = 15.0
"""[degrees] Slightly down, so the floor and the features fill the view."""
EAST_WALL_X = 6
"""[blocks] X of the west face of the 2-high wall east of spawn (cells x = 6, z = -2..2)."""
SOUTH_LANE_END_Z = FLOOR_HALF_SIZE
"""[blocks] The floor south of spawn (cells x = 0) is free of obstacles up to this z."""
ICE_SLIPPERINESS = 0.98
"""Beta's ice."""

MATERIAL_COLORS: dict[str, tuple[float, float, float]] = {
    "grass": (0.43, 0.63, 0.30),
    "stone": (0.56, 0.57, 0.60),
    "cobble": (0.45, 0.45, 0.47),
    "slab": (0.74, 0.74, 0.76),
    "planks": (0.74, 0.57, 0.35),
    "fence": (0.52, 0.37, 0.21),
    "ice": (0.64, 0.82, 0.97),
    "brick": (0.66, 0.32, 0.25),
}
"""Base colour (RGB, 0..1) of each material; the arena draws one mesh per material."""

_P = 1.0 / 16.0  # one texture pixel [blocks]
_RAIL_HEIGHTS = ((6, 9), (12, 15))  # [pixels] bottom and top of the lower and upper rail
FENCE_RAILS_EAST = tuple(physics.AABB(FENCE_POST.max_x, y0 * _P, 7 * _P, 1.0 + FENCE_POST.min_x, y1 * _P, 9 * _P)
                         for y0, y1 in _RAIL_HEIGHTS)
"""The two drawn rails from a fence post (`meshing.FENCE_POST`) to the post of a fence east of it."""
FENCE_RAILS_SOUTH = tuple(physics.AABB(7 * _P, y0 * _P, FENCE_POST.max_z, 9 * _P, y1 * _P, 1.0 + FENCE_POST.min_z)
                          for y0, y1 in _RAIL_HEIGHTS)
"""The two drawn rails from a fence post to the post of a fence south of it."""

CELL_TINT_RANGE = 0.08
"""How much darker (at most) one block may be drawn than another of the same material, so
neighbouring blocks and the floor grid stay readable while the player moves."""


@dataclass(frozen=True)
class Arena:
    grid: physics.BlockGrid
    """The collision world the player moves in."""
    cells: dict[Cell, tuple[Shape, str]]
    """Every block: cell -> (shape, material)."""

    def spawn_body(self) -> physics.Body:
        return physics.Body.at_feet(*SPAWN_FEET)


def build_arena() -> Arena:
    """A fresh arena (a new BlockGrid each call)."""
    grid = physics.BlockGrid()
    cells: dict[Cell, tuple[Shape, str]] = {}

    def put(x: int, y: int, z: int, material: str, shape: Shape = shapes.FULL_CUBE,
            slipperiness: float = DEFAULT_SLIPPERINESS) -> None:
        grid.set(x, y, z, shape, slipperiness)
        cells[(x, y, z)] = (shape, material)

    def fill(x0: int, y0: int, z0: int, x1: int, y1: int, z1: int, material: str) -> None:
        """Full cubes in every cell of the inclusive cuboid between the two corners."""
        for x in range(min(x0, x1), max(x0, x1) + 1):
            for y in range(min(y0, y1), max(y0, y1) + 1):
                for z in range(min(z0, z1), max(z0, z1) + 1):
                    put(x, y, z, material)

    n = FLOOR_HALF_SIZE
    fill(-n, FLOOR_Y, -n, n, FLOOR_Y, n, "grass")
    for x in range(-12, -4):  # ice patch, south-west
        for z in range(5, 12):
            put(x, FLOOR_Y, z, "ice", slipperiness=ICE_SLIPPERINESS)

    # North: two slabs beside two full blocks (a slab is walked onto, a full block is not).
    for x in (-8, -7):
        put(x, 0, -3, "slab", shapes.SLAB)
    fill(-6, 0, -3, -5, 0, -3, "stone")
    # North: a staircase rising north onto a 3-high platform.
    for x in (-3, -2):
        for step in range(3):
            for y in range(step):  # supports under the raised steps
                put(x, y, -3 - step, "planks")
            put(x, step, -3 - step, "planks", shapes.STAIRS_NORTH)
        fill(x, 0, -7, x, 2, -6, "planks")
    # North: a fence row, then a 1-high wall.
    for x in (1, 2, 3):
        put(x, 0, -4, "fence", shapes.FENCE)
    fill(5, 0, -4, 7, 0, -4, "stone")
    # Far north: a long wall of separate blocks.
    fill(-10, 0, -10, 10, 1, -10, "brick")
    # East: the 2-high wall the display test walks into.
    fill(EAST_WALL_X, 0, -2, EAST_WALL_X, 1, 2, "stone")
    # West: a 1-wide, 2-high tunnel along X (passage z = 0, y = 0..1).
    fill(-11, 0, -1, -6, 1, -1, "cobble")
    fill(-11, 0, 1, -6, 1, 1, "cobble")
    fill(-11, 2, -1, -6, 2, 1, "cobble")
    # South-east: a 2-high wall with a 1-wide gap at x = 6.
    fill(3, 0, 6, 5, 1, 6, "stone")
    fill(7, 0, 6, 10, 1, 6, "stone")
    return Arena(grid, cells)


# Each face: (axis, side, u axis, v axis) with side 1 = the max face. (u, v, axis) is a
# right-handed triple (e_u x e_v = e_axis), so corners (0,0),(1,0),(1,1),(0,1) run
# counter-clockwise around +axis; the min face lists them the other way round.
_FACES = ((0, 1), (0, 0), (1, 1), (1, 0), (2, 1), (2, 0))  # east, west, top, bottom, south, north
_CYCLIC = {0: (1, 2), 1: (2, 0), 2: (0, 1)}
_TEXTURE_AXES = {0: (2, 1), 1: (0, 2), 2: (0, 1)}  # texture (u, v) per face axis: sides have v = y
_QUAD_MAX = ((0, 0), (1, 0), (1, 1), (0, 1))
_QUAD_MIN = ((0, 0), (0, 1), (1, 1), (1, 0))
_QUAD_TRIANGLES = np.array([0, 1, 2, 0, 2, 3], dtype=np.uint32)


def arena_mesh(arena: Arena) -> dict[str, MeshArrays]:
    """One MeshArrays per material: every box face that is not pressed against a full cube.

    Positions are in blocks (physics coordinates), UVs repeat the texture once per block, colours
    are the material's colour times the face's shade and the cell's tint; a material with every
    face hidden gets empty arrays.
    """
    full = {cell for cell, (shape, _) in arena.cells.items() if shape == shapes.FULL_CUBE}
    rows = [(cell, box, material) for cell, (shape, material) in arena.cells.items()
            for box in _drawn_boxes(arena, cell, shape)]
    cells = np.array([r[0] for r in rows], dtype=np.int64).reshape(-1, 3)
    boxes = np.array([r[1] for r in rows], dtype=np.float64).reshape(-1, 6)
    materials = np.array([r[2] for r in rows])
    tint = 1.0 - CELL_TINT_RANGE * (_cell_hash(cells) / 255.0)

    result: dict[str, MeshArrays] = {}
    for material in sorted(set(materials.tolist())):
        parts = []
        chosen = materials == material
        for face, (axis, side) in enumerate(_FACES):
            keep = chosen & ~_pressed_against(full, cells, boxes, axis, side)
            if keep.any():
                parts.append(_face_arrays(cells[keep], boxes[keep], tint[keep], face, axis, side,
                                          MATERIAL_COLORS[material]))
        result[material] = _concatenate(parts)
    return result


def _drawn_boxes(arena: Arena, cell: Cell, shape: Shape) -> tuple[physics.AABB, ...]:
    """The boxes drawn for a block: its collision boxes, except that a fence is drawn as a post
    with rails to the fences east and south of it (it collides as the whole 1.5-tall cell, which
    the F3 overlay shows)."""
    if shape != shapes.FENCE:
        return shapes.placed(shape, *cell)
    x, y, z = cell
    drawn = [FENCE_POST]
    for neighbour, rails in (((x + 1, y, z), FENCE_RAILS_EAST), ((x, y, z + 1), FENCE_RAILS_SOUTH)):
        if arena.cells.get(neighbour, (None,))[0] == shapes.FENCE:
            drawn += rails
    return shapes.placed(tuple(drawn), *cell)


def _pressed_against(full: set[Cell], cells: np.ndarray, boxes: np.ndarray, axis: int, side: int) -> np.ndarray:
    """Which boxes have this face on their cell's boundary with a full cube behind it (hidden)."""
    on_boundary = boxes[:, axis + 3 * side] == cells[:, axis] + side
    step = np.zeros(3, dtype=np.int64)
    step[axis] = 1 if side else -1
    neighbours = cells + step
    behind = np.fromiter((tuple(c) in full for c in neighbours.tolist()), dtype=bool, count=len(cells))
    return on_boundary & behind


def _face_arrays(cells: np.ndarray, boxes: np.ndarray, tint: np.ndarray, face: int, axis: int, side: int,
                 rgb: tuple[float, float, float]) -> MeshArrays:
    count = len(boxes)
    u, v = _CYCLIC[axis]
    corners = np.empty((count, 4, 3), dtype=np.float64)
    corners[:, :, axis] = boxes[:, axis + 3 * side][:, None]
    for i, (cu, cv) in enumerate(_QUAD_MAX if side else _QUAD_MIN):
        corners[:, i, u] = boxes[:, u + 3 * cu]
        corners[:, i, v] = boxes[:, v + 3 * cv]
    tu, tv = _TEXTURE_AXES[axis]
    uvs = np.stack([corners[:, :, tu] - cells[:, None, tu], corners[:, :, tv] - cells[:, None, tv]], axis=-1)
    shade = FACE_SHADE[face] * tint
    colors = np.empty((count, 4, 4), dtype=np.float32)
    colors[:, :, :3] = (np.asarray(rgb)[None, :] * shade[:, None])[:, None, :]
    colors[:, :, 3] = 1.0
    indices = (np.arange(count, dtype=np.uint32)[:, None] * 4 + _QUAD_TRIANGLES[None, :]).ravel()
    return MeshArrays(corners.astype(np.float32).ravel(), uvs.astype(np.float32).ravel(), colors.ravel(), indices)


def _concatenate(parts: list[MeshArrays]) -> MeshArrays:
    if not parts:
        return MeshArrays(np.zeros(0, np.float32), np.zeros(0, np.float32), np.zeros(0, np.float32),
                          np.zeros(0, np.uint32))
    offsets = np.cumsum([0] + [len(p.positions) // 3 for p in parts[:-1]])
    return MeshArrays(
        np.concatenate([p.positions for p in parts]),
        np.concatenate([p.uvs for p in parts]),
        np.concatenate([p.colors for p in parts]),
        np.concatenate([p.indices + np.uint32(o) for p, o in zip(parts, offsets)]),
    )


def _cell_hash(cells: np.ndarray) -> np.ndarray:
    """A deterministic 0..255 value per cell (integer mixing; the same on every machine)."""
    h = (cells[:, 0] * 73856093) ^ (cells[:, 1] * 19349663) ^ (cells[:, 2] * 83492791)
    h ^= h >> 13
    return (h * 1274126177 >> 16) & 0xFF
