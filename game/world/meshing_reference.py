"""The readable reference mesher: the rules of `meshing.py`, one voxel and one face at a time.

Owns: a plain-Python statement of what `meshing.mesh_section` computes, for tests (the two must
emit the same faces) and for the benchmark (the speed-up of the vectorised mesher is measured
against this).
Does not own: the rules' data (quads per block, shading, AO levels, atlas UVs, a corner's share
of a fluid surface, the fluid and plant constants and the light constants come from `meshing.py`
and `atlas.py`) or
anything the game uses at runtime; it is far too slow for that.
"""

from __future__ import annotations

import numpy as np

from .blocks import AIR, CROSS, CULLS_SAME, FACE_TILES, FLUID_LEVEL, FULL_CUBE, OPAQUE, TOP, TRANSPARENT
from .meshing import (CROSS_CORNERS, CROSS_LIGHT, CUBE_QUADS, FACE_NORMALS, FLUID_INSET, GLOW_LEVELS, GLOW_LIGHT,
                      GLOWS, OPEN_SKY_LEVELS, PADDED_SIZE, SECTION_SIZE, TOP_CORNERS, VERTEX_LIGHT, MeshArrays,
                      ao_neighbour_steps, atlas_uv, check_light, check_padded, corner_share, fluid_corner_height,
                      pack_faces, quads_of_block, same_fluid, tile_uv_in_atlas)


def _hides(block: int) -> bool:
    return bool(OPAQUE[block] and FULL_CUBE[block])


def _ao_level(ids: np.ndarray, cell: tuple[int, int, int], steps) -> int:
    """0fps ambient occlusion of one vertex: 3 = open; both sides blocked = 0 whatever the corner."""
    side1, side2, corner = (_hides(ids[cell[0] + s[0], cell[1] + s[1], cell[2] + s[2]]) for s in steps)
    if side1 and side2:
        return 0
    return 3 - (side1 + side2 + corner)


def _levels(light: np.ndarray | None, cell) -> tuple[int, int]:
    """(sky, block) light levels of padded `cell` (open sky when there is no light array)."""
    if light is None:
        return int(OPEN_SKY_LEVELS[0]), int(OPEN_SKY_LEVELS[1])
    packed = int(light[cell[0], cell[1], cell[2]])
    return packed >> 4, packed & 15


def _smooth_levels(ids: np.ndarray, light: np.ndarray | None, cell, normal, steps) -> tuple[float, float]:
    """Smooth light of one vertex: the average (sky, block) of the open cells among the one the face
    looks into and the vertex's AO cells (side1, side2, corner; the corner only if a side is open);
    the block's own cell's light when none is open."""
    side1, side2, corner = ((cell[0] + s[0], cell[1] + s[1], cell[2] + s[2]) for s in steps)
    front = (cell[0] + normal[0], cell[1] + normal[1], cell[2] + normal[2])
    side_open = [not _hides(int(ids[c])) for c in (side1, side2)]
    around = [front, side1, side2] + ([corner] if any(side_open) else [])
    open_cells = [c for c in around if not _hides(int(ids[c]))]
    if not open_cells:
        open_cells = [cell]
    sky = sum(_levels(light, c)[0] for c in open_cells)
    block = sum(_levels(light, c)[1] for c in open_cells)
    return sky / len(open_cells), block / len(open_cells)


def _fluid_levels(ids: np.ndarray, light: np.ndarray | None, cell, normal) -> tuple[float, float]:
    """A fluid face's flat light: per level the brighter of its own cell and the open cell across the face."""
    across = (cell[0] + normal[0], cell[1] + normal[1], cell[2] + normal[2])
    own = _levels(light, cell)
    if _hides(int(ids[across])):
        return float(own[0]), float(own[1])
    beyond = _levels(light, across)
    return float(max(own[0], beyond[0])), float(max(own[1], beyond[1]))


def _corner_height(ids: np.ndarray, fluid: int, x: int, y: int, z: int, corner: tuple[int, int]) -> float:
    """Beta's getFluidHeight: the height of top corner `corner` ((0 or 1, 0 or 1) in x, z) of the fluid at
    padded (x, y, z)."""
    weight = air = 0
    for cx in (x + corner[0] - 1, x + corner[0]):
        for cz in (z + corner[1] - 1, z + corner[1]):
            if same_fluid(fluid, int(ids[cx, y + 1, cz])):
                return fluid_corner_height(0, 0, covered=True)
            cell_weight, cell_air = corner_share(fluid, int(ids[cx, y, cz]))
            weight += cell_weight
            air += cell_air
    return fluid_corner_height(weight, air, covered=False)


def _fluid_faces(ids: np.ndarray, light: np.ndarray | None, x: int, y: int, z: int, faces) -> None:
    """Append the faces of the fluid at padded (x, y, z) to `faces` (see `meshing`'s docstring)."""
    block = int(ids[x, y, z])
    heights = {corner: _corner_height(ids, block, x, y, z, corner) for corner in TOP_CORNERS}
    for direction, quad in enumerate(CUBE_QUADS):
        nx, ny, nz = FACE_NORMALS[direction]
        neighbour = int(ids[x + nx, y + ny, z + nz])
        if same_fluid(block, neighbour) or (direction != TOP and _hides(neighbour)):
            continue
        inset = direction != TOP and neighbour != AIR
        axis = next(i for i, n in enumerate(FACE_NORMALS[direction]) if n)  # the axis of the face's normal
        positions, uvs, brightness, levels = faces[bool(TRANSPARENT[block])]
        corners, tile_uvs = [], []
        for (cx, cy, cz), (u, v) in zip(quad.corners, quad.tile_uvs):
            corner = [float(cx), float(cy), float(cz)]
            if inset:
                corner[axis] = 1.0 - FLUID_INSET if corner[axis] == 1.0 else FLUID_INSET
            if cy == 1.0:
                corner[1] = heights[(int(cx), int(cz))]
                if direction != TOP:
                    v = corner[1]  # a side shows the tile's part below its top edge
            corners.append([x - 1 + corner[0], y - 1 + corner[1], z - 1 + corner[2]])
            tile_uvs.append(tile_uv_in_atlas(int(FACE_TILES[block, direction]), u, v))
        positions.append(corners)
        uvs.append(tile_uvs)
        brightness.append([GLOW_LIGHT if GLOWS[block] else VERTEX_LIGHT[direction, 3]] * 4)  # no AO: level 3, open
        levels.append([GLOW_LEVELS if GLOWS[block] else _fluid_levels(ids, light, (x, y, z), (nx, ny, nz))] * 4)


def _plant_faces(ids: np.ndarray, light: np.ndarray | None, x: int, y: int, z: int, faces) -> None:
    """Append the crossed quads of the plant at padded (x, y, z) to the transparent part of `faces`."""
    block = int(ids[x, y, z])
    positions, uvs, brightness, levels = faces[True]
    for corners, tile_uvs in CROSS_CORNERS:
        positions.append([[x - 1 + cx, y - 1 + cy, z - 1 + cz] for cx, cy, cz in corners])
        uvs.append([tile_uv_in_atlas(int(FACE_TILES[block, 0]), u, v) for u, v in tile_uvs])
        brightness.append([CROSS_LIGHT] * 4)
        levels.append([_levels(light, (x, y, z))] * 4)


def mesh_section_reference(padded: np.ndarray, light: np.ndarray | None = None) -> tuple[MeshArrays, MeshArrays]:
    """(opaque, transparent) meshes of the section in `padded`, lit by `light`, built voxel by voxel."""
    ids = check_padded(padded)
    if check_light(light) is not None:
        light = np.asarray(light, dtype=np.intp).reshape((PADDED_SIZE,) * 3)
    faces = {False: ([], [], [], []), True: ([], [], [], [])}  # transparent? -> (positions, uvs, brightness, levels)
    for x in range(1, SECTION_SIZE + 1):
        for y in range(1, SECTION_SIZE + 1):
            for z in range(1, SECTION_SIZE + 1):
                block = int(ids[x, y, z])
                if FLUID_LEVEL[block] >= 0:
                    _fluid_faces(ids, light, x, y, z, faces)
                    continue
                if CROSS[block]:
                    _plant_faces(ids, light, x, y, z, faces)
                    continue
                for quad in quads_of_block(block):
                    nx, ny, nz = FACE_NORMALS[quad.direction]
                    neighbour = int(ids[x + nx, y + ny, z + nz])
                    if quad.on_cell_boundary and (_hides(neighbour) or (CULLS_SAME[block] and neighbour == block)):
                        continue
                    corners = [0, 1, 2, 3]
                    ao = [_ao_level(ids, (x, y, z), ao_neighbour_steps(quad, c)) for c in corners]
                    smooth = [GLOW_LEVELS if GLOWS[block] else
                              _smooth_levels(ids, light, (x, y, z), (nx, ny, nz), ao_neighbour_steps(quad, c))
                              for c in range(4)]
                    if ao[0] + ao[2] < ao[1] + ao[3]:
                        corners = [1, 2, 3, 0]  # puts the diagonal between the brighter pair
                    positions, uvs, brightness, levels = faces[bool(TRANSPARENT[block])]
                    positions.append([[x - 1 + quad.corners[c][0], y - 1 + quad.corners[c][1],
                                       z - 1 + quad.corners[c][2]] for c in corners])
                    uvs.append([atlas_uv(block, quad, c) for c in corners])
                    brightness.append([GLOW_LIGHT if GLOWS[block] else VERTEX_LIGHT[quad.direction, ao[c]]
                                       for c in corners])
                    levels.append([smooth[c] for c in corners])
    return tuple(
        pack_faces(np.array(p, dtype=np.float32).reshape(-1, 4, 3), np.array(u, dtype=np.float32).reshape(-1, 4, 2),
                   np.array(b, dtype=np.float32).reshape(-1, 4), np.array(k, dtype=np.float32).reshape(-1, 4, 2))
        for p, u, b, k in (faces[False], faces[True]))
