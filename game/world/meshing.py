"""Section meshing: a padded 18x18x18 block-id array -> flat vertex arrays for the GPU. numpy only.

Owns: which faces of a 16^3 section are visible, their geometry (cube faces and the faces of
non-cube shapes' boxes), atlas UVs, directional shading, per-vertex ambient occlusion, the
triangle split, and the per-block quad table all of that is read from.
Does not own: block properties (`blocks.py`), the atlas layout (`atlas.py`), where a section
sits in the world (positions are section-local, 0..16; the renderer offsets the entity), or any
GPU object (`game/render/chunk_renderer.py` uploads the arrays).

Input: `padded[x, y, z]`, the section's blocks at [1:17, 1:17, 1:17] plus a one-block border
copied from the neighbours (edges and corners included), so faces and ambient occlusion at
section borders come out exactly as inside the section.

Rules:
* Every drawn block is a list of quads (`quads_of_block`) from its drawn shape
  (`blocks.DRAWN_SHAPES`: the collision shape, except water, lava and cobwebs, which collide
  with nothing and are drawn as cubes, and a few others): a full cube has its 6 faces; a
  non-cube shape has the faces of its boxes, minus the parts one box of the shape covers on
  another. A quad lying on its cell's boundary is hidden by an OPAQUE (full, not see-through)
  neighbour across that boundary; a block that CULLS_SAME (glass, water, lava, cactus) is also
  hidden by the same block. A quad inside the cell (a slab's top, a stair's step) is never hidden. Leaves
  keep all their faces; a full cube next to a slab keeps its face.
* Light per vertex = FACE_SHADE[direction] * AO_BRIGHTNESS[ao]. `ao` (0..3, 3 = open) comes
  from the three cells touching the vertex in the cell layer the quad faces (0fps: side1,
  side2, corner; both sides -> 0). Inner vertices of non-cube quads use the nearest cell corner.
* Each quad is two triangles (v0, v1, v2) and (v0, v2, v3). Where ao[0] + ao[2] < ao[1] + ao[3]
  the vertices are emitted rotated by one, so the shared diagonal always joins the brighter
  pair of opposite corners (AO then interpolates without the anisotropy seam).
* Winding: seen from outside a quad goes (u0,v0) (u1,v0) (u1,v1) (u0,v1) in its texture frame,
  which is clockwise by the right-hand rule (Ursina's y-up-left): the cross product
  (v1 - v0) x (v2 - v0) points into the block. Fed to Ursina as they are, faces point out. The
  game draws the world mirrored on X (`game.render.space`); the renderer maps positions with
  `space.positions` and reverses each triangle with `space.triangles`, which keeps every face
  front-facing (checked on screen; without the reversal the world shows inside out).

The mesher is vectorised: one numpy pass over every drawn cell drawn with one quad per face
direction (cubes, slabs, carpet, fence posts) and a second, wider one only for the rest (stairs);
no Python loop over voxels or faces.
`meshing_reference.py` is the per-voxel Python version; tests check they agree.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from physics import shapes
from physics.aabb import AABB
from . import atlas
from .blocks import COUNT, CULLS_SAME, DRAWN_SHAPES, FACE_TILES, FULL_CUBE, OPAQUE, TRANSPARENT, UnknownBlockError

SECTION_SIZE = 16
"""[blocks] Edge of a section."""
PADDED_SIZE = SECTION_SIZE + 2
"""[blocks] Edge of the mesher's input: the section plus one block of neighbours on every side."""

FACE_NORMALS = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))
"""Outward unit normal per face, in blocks.FACES order."""

FACE_SHADE = np.array([0.80, 0.80, 1.00, 0.50, 0.64, 0.64], dtype=np.float32)
"""Directional shading per face (FACES order): top brightest, bottom darkest, X and Z sides apart
so that edges between them read clearly."""

AO_BRIGHTNESS = np.array([0.45, 0.64, 0.82, 1.00], dtype=np.float32)
"""Brightness by ambient-occlusion level 0..3 (0: both sides blocked, 3: open)."""

VERTEX_LIGHT = FACE_SHADE[:, None] * AO_BRIGHTNESS[None, :]
"""[face direction, ao level] -> vertex brightness, the product both meshers use."""

FENCE_POST = AABB(0.375, 0.0, 0.375, 0.625, 1.0, 0.625)
"""What a fence is drawn as: Beta's 4/16-wide post. Its collision box (the whole cell, 1.5 tall)
would poke into the block above and z-fight with it. Rails to neighbours are not drawn."""
_DRAWN_AS = {shapes.FENCE: (FENCE_POST,)}

# Per face direction: the axis of the normal, whether the face is on the box's max side, and its
# texture frame as seen from outside (u to the right, v up): (axis, reversed) for u and for v.
_FRAMES = (
    (0, True, (2, False), (1, False)),   # east: u = z
    (0, False, (2, True), (1, False)),   # west: u = 1 - z
    (1, True, (0, False), (2, False)),   # top: u = x, v = z
    (1, False, (0, False), (2, True)),   # bottom: u = x, v = 1 - z
    (2, True, (0, True), (1, False)),    # south: u = 1 - x
    (2, False, (0, False), (1, False)),  # north: u = x
)
_PADDED_STRIDES = (PADDED_SIZE * PADDED_SIZE, PADDED_SIZE, 1)
"""Flat-index step per axis in a C-ordered padded array."""


@dataclass(frozen=True)
class Quad:
    """One rectangular face of a block, in block-local coordinates (0..1)."""

    direction: int
    """Index into blocks.FACES."""
    corners: tuple[tuple[float, float, float], ...]
    """The 4 corners, in front-facing (clockwise by the right-hand rule) order."""
    tile_uvs: tuple[tuple[float, float], ...]
    """Where each corner falls inside the face's tile: 0..1 on each axis."""
    on_cell_boundary: bool
    """Lies in the plane of the cell's face, so an opaque neighbour there hides it."""


@dataclass(frozen=True, eq=False)
class MeshArrays:
    """Flat, C-contiguous arrays ready for `ursina.Mesh`: 4 vertices and 2 triangles per face.

    In block coordinates; `game.render.chunk_renderer.to_ursina` maps them to Ursina's axes.
    """

    positions: np.ndarray
    """float32, 3 per vertex [blocks], section-local (0..16)."""
    uvs: np.ndarray
    """float32, 2 per vertex; from `mesh_section`, atlas UVs."""
    colors: np.ndarray
    """float32, RGBA per vertex; from `mesh_section`, shade x AO brightness in RGB, alpha 1."""
    indices: np.ndarray
    """uint32, 6 per face: (v0, v1, v2), (v0, v2, v3)."""

    @property
    def face_count(self) -> int:
        return len(self.indices) // 6


# --- the quad table (built once, at import) ------------------------------------------------


def _subtract(rect: tuple[float, ...], cover: tuple[float, ...]) -> list[tuple[float, ...]]:
    """`rect` minus `cover`, both (a0, a1, b0, b1), as up to four non-overlapping rectangles."""
    a0, a1, b0, b1 = rect
    c0, c1, d0, d1 = cover
    if c0 >= a1 or c1 <= a0 or d0 >= b1 or d1 <= b0:
        return [rect]
    middle = (max(a0, c0), min(a1, c1))
    pieces = [(a0, c0, b0, b1), (c1, a1, b0, b1), (*middle, b0, d0), (*middle, d1, b1)]
    return [p for p in pieces if p[0] < p[1] and p[2] < p[3]]


def _box_quads(box: AABB, others: tuple[AABB, ...]) -> list[Quad]:
    quads = []
    for direction, (axis, on_max, (u_axis, u_reversed), (v_axis, v_reversed)) in enumerate(_FRAMES):
        plane = box[axis + 3] if on_max else box[axis]
        rects = [(box[u_axis], box[u_axis + 3], box[v_axis], box[v_axis + 3])]
        for other in others:
            touching = other[axis] == plane if on_max else other[axis + 3] == plane
            if touching:
                cover = (other[u_axis], other[u_axis + 3], other[v_axis], other[v_axis + 3])
                rects = [piece for r in rects for piece in _subtract(r, cover)]
        for a0, a1, b0, b1 in rects:
            u_range = (1.0 - a1, 1.0 - a0) if u_reversed else (a0, a1)
            v_range = (1.0 - b1, 1.0 - b0) if v_reversed else (b0, b1)
            tile_uvs = ((u_range[0], v_range[0]), (u_range[1], v_range[0]), (u_range[1], v_range[1]),
                        (u_range[0], v_range[1]))
            corners = []
            for u, v in tile_uvs:
                corner = [0.0, 0.0, 0.0]
                corner[axis] = plane
                corner[u_axis] = 1.0 - u if u_reversed else u
                corner[v_axis] = 1.0 - v if v_reversed else v
                corners.append(tuple(corner))
            quads.append(Quad(direction, tuple(corners), tile_uvs, plane == (1.0 if on_max else 0.0)))
    return quads


def _shape_quads(boxes: tuple[AABB, ...]) -> tuple[Quad, ...]:
    quads = [q for i, box in enumerate(boxes) for q in _box_quads(box, boxes[:i] + boxes[i + 1:])]
    return tuple(sorted(quads, key=lambda q: q.direction))


DRAWN_BOXES: tuple[tuple[AABB, ...], ...] = tuple(_DRAWN_AS.get(shape, shape) for shape in DRAWN_SHAPES)
"""The boxes each block id is drawn as (air: none): the registry's drawn shape, a fence as its post."""
_QUADS_BY_BOXES = {boxes: _shape_quads(boxes) for boxes in set(DRAWN_BOXES)}
QUADS: tuple[tuple[Quad, ...], ...] = tuple(_QUADS_BY_BOXES[boxes] for boxes in DRAWN_BOXES)
"""The quads of every block id (air: none); a full cube's 6 are in FACES order."""


def quads_of_block(block: int) -> tuple[Quad, ...]:
    """The quads block id `block` is drawn with, block-local."""
    if not 0 <= block < COUNT:
        raise UnknownBlockError(f"unknown block id {block!r} (ids are 0..{COUNT - 1})")
    return QUADS[block]


def atlas_uv(block: int, quad: Quad, corner: int) -> tuple[float, float]:
    """The atlas UV of `corner` (0..3) of `quad` of `block`: the quad's tile position mapped into its tile."""
    u0, v0, u1, v1 = atlas.tile_uv_rect(int(FACE_TILES[block, quad.direction]))
    u, v = quad.tile_uvs[corner]
    return u0 + u * (u1 - u0), v0 + v * (v1 - v0)


def ao_neighbour_steps(quad: Quad, corner: int) -> tuple[tuple[int, int, int], ...]:
    """Block steps from the quad's cell to the (side1, side2, corner) cells that shade `corner`.

    They lie in the cell layer the quad faces; along each in-plane axis the step goes toward the
    vertex (toward the nearer cell side for a vertex inside the cell).
    """
    _, _, (u_axis, _), (v_axis, _) = _FRAMES[quad.direction]
    layer = list(FACE_NORMALS[quad.direction])
    side1, side2 = list(layer), list(layer)
    position = quad.corners[corner]
    side1[u_axis] += 1 if position[u_axis] >= 0.5 else -1
    side2[v_axis] += 1 if position[v_axis] >= 0.5 else -1
    diagonal = list(side1)
    diagonal[v_axis] = side2[v_axis]
    return tuple(side1), tuple(side2), tuple(diagonal)


def _flat_step(step: tuple[int, int, int]) -> int:
    return sum(s * stride for s, stride in zip(step, _PADDED_STRIDES))


def _build_tables():
    width = max(len(q) for q in QUADS)
    valid = np.zeros((COUNT, width), dtype=bool)
    direction = np.zeros((COUNT, width), dtype=np.intp)
    boundary = np.zeros((COUNT, width), dtype=bool)
    corners = np.zeros((COUNT, width, 4, 3), dtype=np.float32)
    uvs = np.zeros((COUNT, width, 4, 2), dtype=np.float32)
    ao_steps = np.zeros((COUNT, width, 4, 3), dtype=np.intp)
    for block, quads in enumerate(QUADS):
        for q, quad in enumerate(quads):
            valid[block, q] = True
            direction[block, q] = quad.direction
            boundary[block, q] = quad.on_cell_boundary
            corners[block, q] = quad.corners
            for corner in range(4):
                uvs[block, q, corner] = atlas_uv(block, quad, corner)
                ao_steps[block, q, corner] = [_flat_step(s) for s in ao_neighbour_steps(quad, corner)]
    tables = (valid, direction, boundary, direction.reshape(-1), ao_steps.reshape(-1, 12),
              corners.reshape(-1, 3), uvs.reshape(-1, 2))
    for table in tables:
        table.flags.writeable = False
    return width, tables


# Quad tables: [block, quad] for the first three; then by quad row (block * _QUAD_WIDTH + quad),
# and the last two by vertex row (quad row * 4 + corner).
_QUAD_WIDTH, (_QUAD_VALID, _QUAD_DIRECTION, _QUAD_ON_BOUNDARY, _QUAD_ROW_DIRECTION, _QUAD_ROW_AO_STEPS,
              _VERTEX_ROW_CORNER, _VERTEX_ROW_UV) = _build_tables()
_DRAWN = _QUAD_VALID.any(axis=1)
_ONE_QUAD_PER_FACE = np.array([tuple(q.direction for q in quads) == tuple(range(len(FACE_NORMALS))) for quads in QUADS])
"""Blocks drawn as one quad per face direction, quad k facing FACES[k] (cubes, slabs, carpet, fence
post): meshed in the main pass, where quad k's neighbour is the same step for every cell."""
_HIDES = OPAQUE & FULL_CUBE
"""Blocks that hide a boundary quad of the neighbour facing them, and that occlude for AO."""
_DIRECTION_STEP = np.array([_flat_step(n) for n in FACE_NORMALS], dtype=np.intp)

# A vertex's occluders (side1, side2, corner) as a 3-bit code: side1 * 4 + side2 * 2 + corner.
_AO_OF_CODE = np.array([3 - (c >> 2 & 1) - (c >> 1 & 1) - (c & 1) if c & 6 != 6 else 0 for c in range(8)],
                       dtype=np.intp)
"""0fps AO level per code: 3 minus the occluders, 0 when both sides are blocked."""
_LIGHT_OF_CODE = VERTEX_LIGHT[:, _AO_OF_CODE]
"""[face direction, AO code] -> vertex brightness."""

_GRID = np.indices((PADDED_SIZE,) * 3).reshape(3, -1).T
_CELL_POSITION = (_GRID - 1).astype(np.float32)
"""Section-local position of every padded flat index (the border is at -1 and 16)."""
_INNER_FLAT = np.flatnonzero(((_GRID >= 1) & (_GRID <= SECTION_SIZE)).all(axis=1))
"""Padded flat index of each section cell, in C order of the inner 16^3 block."""
_MAX_FACES = SECTION_SIZE ** 3 * _QUAD_WIDTH
_FIRST_VERTEX = np.arange(0, 4 * _MAX_FACES, 4, dtype=np.intp)
_INDEX_PATTERN = (_FIRST_VERTEX.astype(np.uint32)[:, None] + np.array([0, 1, 2, 0, 2, 3], dtype=np.uint32)).reshape(-1)
_INDEX_PATTERN.flags.writeable = False
_CORNER_ORDER = np.array([[0, 1, 2, 3], [1, 2, 3, 0]], dtype=np.intp)
"""Vertex order of a quad: as built, and rotated by one to flip its diagonal."""

# --- meshing --------------------------------------------------------------------------------


def check_padded(padded: object) -> np.ndarray:
    """`padded` as a C-ordered intp array after checking it: TypeError / ValueError naming the problem."""
    if not isinstance(padded, np.ndarray):
        raise TypeError(f"padded section must be a numpy array, got {type(padded).__name__}")
    if padded.dtype.kind not in "iu":
        raise TypeError(f"padded section must hold integer block ids, got dtype {padded.dtype}")
    if padded.shape != (PADDED_SIZE,) * 3:
        raise ValueError(f"padded section must have shape {(PADDED_SIZE,) * 3} (a section plus a one-block "
                         f"border, indexed [x, y, z]), got {padded.shape}")
    if padded.min() < 0 or padded.max() >= COUNT:
        bad = np.argwhere((padded < 0) | (padded >= COUNT))[0]
        raise UnknownBlockError(f"unknown block id {padded[tuple(bad)]} at padded[{bad[0]}, {bad[1]}, {bad[2]}] "
                                f"(ids are 0..{COUNT - 1})")
    return np.ascontiguousarray(padded, dtype=np.intp)


def pack_faces(positions: np.ndarray, uvs: np.ndarray, light: np.ndarray) -> MeshArrays:
    """MeshArrays from per-face arrays: positions (F, 4, 3), uvs (F, 4, 2), brightness (F, 4)."""
    face_count = len(positions)
    colors = np.ones((face_count, 4, 4), dtype=np.float32)
    colors[:, :, :3] = light[:, :, None]
    arrays = (np.ascontiguousarray(positions, dtype=np.float32).reshape(-1),
              np.ascontiguousarray(uvs, dtype=np.float32).reshape(-1),
              colors.reshape(-1),
              _INDEX_PATTERN[:6 * face_count])
    for array in arrays:
        array.flags.writeable = False
    return MeshArrays(*arrays)


_EMPTY = pack_faces(np.zeros((0, 4, 3), np.float32), np.zeros((0, 4, 2), np.float32), np.zeros((0, 4), np.float32))


def _visible_faces(flat_ids, hiding, cells, blocks, one_per_face):
    """Per-face arrays for the quads of `cells` (padded flat indices holding `blocks`) that no
    neighbour hides; `hiding` is _HIDES of every padded cell. `one_per_face`: every block in
    `blocks` has _ONE_QUAD_PER_FACE."""
    if one_per_face:
        width, neighbour_steps = len(FACE_NORMALS), _DIRECTION_STEP
    else:
        width, neighbour_steps = _QUAD_WIDTH, _DIRECTION_STEP[_QUAD_DIRECTION[blocks]]
    neighbour_cells = cells[:, None] + neighbour_steps
    hidden = hiding[neighbour_cells]
    culls_same = CULLS_SAME[blocks]
    if culls_same.any():
        hidden |= culls_same[:, None] & (flat_ids[neighbour_cells] == blocks[:, None])
    keep = ~(_QUAD_ON_BOUNDARY[blocks, :width] & hidden)
    if not one_per_face:
        keep &= _QUAD_VALID[blocks]
    cell_index, quad_index = np.nonzero(keep)
    face_cells = cells[cell_index]
    face_blocks = blocks[cell_index]
    quad = face_blocks * _QUAD_WIDTH + quad_index
    face_count = len(quad)

    # (np.take along axis 0 and 2-D broadcasting: several times faster than fancy indexing here.)
    occluders = face_cells[:, None] + np.take(_QUAD_ROW_AO_STEPS, quad, axis=0)  # (F, 12): per vertex s1, s2, c
    occluded = np.take(hiding.view(np.uint8), occluders)
    code = (occluded[:, 0::3] << 2) | (occluded[:, 1::3] << 1) | occluded[:, 2::3]
    ao = np.take(_AO_OF_CODE, code)
    flip = (ao[:, 0] + ao[:, 2]) < (ao[:, 1] + ao[:, 3])
    order = np.take(_CORNER_ORDER, flip.view(np.uint8), axis=0)
    vertex = (quad * 4)[:, None] + order
    cell_corner = np.repeat(np.take(_CELL_POSITION, face_cells, axis=0), 4, axis=0).reshape(face_count, 4, 3)
    positions = np.take(_VERTEX_ROW_CORNER, vertex, axis=0) + cell_corner
    uvs = np.take(_VERTEX_ROW_UV, vertex, axis=0)
    rotated_code = np.take(code, _FIRST_VERTEX[:face_count, None] + order)
    light = _LIGHT_OF_CODE[np.take(_QUAD_ROW_DIRECTION, quad)[:, None], rotated_code]
    return positions, uvs, light, TRANSPARENT[face_blocks]


def mesh_section(padded: np.ndarray) -> tuple[MeshArrays, MeshArrays]:
    """(opaque, transparent) meshes of the section inside `padded` (18, 18, 18) ids indexed [x, y, z].

    Raises TypeError for a non-array or non-integer array, ValueError for a wrong shape, and
    blocks.UnknownBlockError (a ValueError) for an id the registry lacks.
    """
    ids = check_padded(padded)
    flat_ids = ids.reshape(-1)
    hiding = _HIDES[flat_ids]
    cells = _INNER_FLAT[_DRAWN[flat_ids[_INNER_FLAT]]]
    blocks = flat_ids[cells]
    main = _ONE_QUAD_PER_FACE[blocks]
    if main.all():
        passes = [(cells, blocks, True)]
    else:
        passes = [(cells[main], blocks[main], True), (cells[~main], blocks[~main], False)]
    parts = [_visible_faces(flat_ids, hiding, c, b, one_per_face) for c, b, one_per_face in passes]
    positions, uvs, light, transparent = (np.concatenate(column) if len(parts) > 1 else column[0]
                                          for column in zip(*parts))
    if not transparent.any():
        return pack_faces(positions, uvs, light), _EMPTY
    opaque = ~transparent
    return (pack_faces(positions[opaque], uvs[opaque], light[opaque]),
            pack_faces(positions[transparent], uvs[transparent], light[transparent]))

