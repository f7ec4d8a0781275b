"""The readable reference mesher: the rules of `meshing.py`, one voxel and one face at a time.

Owns: a plain-Python statement of what `meshing.mesh_section` computes, for tests (the two must
emit the same faces) and for the benchmark (the speed-up of the vectorised mesher is measured
against this).
Does not own: the rules' data (quads per block, shading, AO levels, atlas UVs come from
`meshing.py` and `atlas.py`) or anything the game uses at runtime; it is far too slow for that.
"""

from __future__ import annotations

import numpy as np

from .blocks import CULLS_SAME, FULL_CUBE, OPAQUE, TRANSPARENT
from .meshing import (FACE_NORMALS, SECTION_SIZE, VERTEX_LIGHT, MeshArrays, ao_neighbour_steps, atlas_uv,
                      check_padded, pack_faces, quads_of_block)


def _hides(block: int) -> bool:
    return bool(OPAQUE[block] and FULL_CUBE[block])


def _ao_level(ids: np.ndarray, cell: tuple[int, int, int], steps) -> int:
    """0fps ambient occlusion of one vertex: 3 = open; both sides blocked = 0 whatever the corner."""
    side1, side2, corner = (_hides(ids[cell[0] + s[0], cell[1] + s[1], cell[2] + s[2]]) for s in steps)
    if side1 and side2:
        return 0
    return 3 - (side1 + side2 + corner)


def mesh_section_reference(padded: np.ndarray) -> tuple[MeshArrays, MeshArrays]:
    """(opaque, transparent) meshes of the section in `padded`, built voxel by voxel."""
    ids = check_padded(padded)
    faces = {False: ([], [], []), True: ([], [], [])}  # transparent? -> (positions, uvs, light)
    for x in range(1, SECTION_SIZE + 1):
        for y in range(1, SECTION_SIZE + 1):
            for z in range(1, SECTION_SIZE + 1):
                block = int(ids[x, y, z])
                for quad in quads_of_block(block):
                    nx, ny, nz = FACE_NORMALS[quad.direction]
                    neighbour = int(ids[x + nx, y + ny, z + nz])
                    if quad.on_cell_boundary and (_hides(neighbour) or (CULLS_SAME[block] and neighbour == block)):
                        continue
                    corners = [0, 1, 2, 3]
                    ao = [_ao_level(ids, (x, y, z), ao_neighbour_steps(quad, c)) for c in corners]
                    if ao[0] + ao[2] < ao[1] + ao[3]:
                        corners = [1, 2, 3, 0]  # puts the diagonal between the brighter pair
                    positions, uvs, light = faces[bool(TRANSPARENT[block])]
                    positions.append([[x - 1 + quad.corners[c][0], y - 1 + quad.corners[c][1],
                                       z - 1 + quad.corners[c][2]] for c in corners])
                    uvs.append([atlas_uv(block, quad, c) for c in corners])
                    light.append([VERTEX_LIGHT[quad.direction, ao[c]] for c in corners])
    return tuple(
        pack_faces(np.array(p, dtype=np.float32).reshape(-1, 4, 3), np.array(u, dtype=np.float32).reshape(-1, 4, 2),
                   np.array(light, dtype=np.float32).reshape(-1, 4))
        for p, u, light in (faces[False], faces[True]))
