"""Section meshing: a padded 18x18x18 block-id array -> flat vertex arrays for the GPU. numpy only.

Owns: which faces of a 16^3 section are visible, their geometry (cube faces, the faces of
non-cube shapes' boxes, fluid surfaces by level, plants' crossed quads), atlas UVs, directional
shading, per-vertex ambient occlusion, per-vertex smooth sky and block light levels, the triangle
split, which draw pass each face is in (`DRAW_PASS`: opaque, cut-out or blended, from the block's
`transparent` and `blended`), and the per-block quad table all of that is read from.
Does not own: block properties (`blocks.py`), the atlas layout (`atlas.py`), where a section
sits in the world (positions are section-local, 0..16; the renderer offsets the entity), how
light spreads (`light.py` computes the levels this reads), how levels become brightness and the
time of day (the renderer's shader), or any GPU object (`game/window/render/chunk_renderer.py` uploads the arrays).

Input: `padded[x, y, z]`, the section's blocks at [1:17, 1:17, 1:17] plus a one-block border
copied from the neighbours (edges and corners included), so faces and ambient occlusion at
section borders come out exactly as inside the section.

Rules:
* Every drawn block but fluids and plants is a list of quads (`quads_of_block`) from its drawn
  shape (`blocks.DRAWN_SHAPES`: the collision shape, except cobwebs, which collide with nothing
  and are drawn as cubes, torches, and a few others): a full cube has its 6 faces; a
  non-cube shape has the faces of its boxes, minus the parts one box of the shape covers on
  another. A quad lying on its cell's boundary is hidden by an OPAQUE (full, not see-through)
  neighbour across that boundary; a block that CULLS_SAME (glass, ice, cactus) is also
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
  game draws the world mirrored on X (`game.window.render.space`); the renderer maps positions with
  `space.positions` and reverses each triangle with `space.triangles`, which keeps every face
  front-facing (checked on screen; without the reversal the world shows inside out).
* Glowing blocks (GLOWS: lava, torches) are drawn at full brightness: no face shading, no AO.
* Smooth lighting (Minecraft's): each vertex also carries two light levels, sky and block (0..15,
  kept apart so the renderer can dim sky light at night without re-meshing), each the average of
  the cells around the vertex on the face's side: the cell the quad faces and the vertex's
  (side1, side2, corner) AO cells. A cell that hides faces (OPAQUE full cube) holds no light and
  is left out of the average (its darkening is AO's job), and so is the corner cell when both
  sides are blocked (light cannot squeeze through the diagonal); a vertex with none of the four
  open takes its own cell's light. Glowing blocks carry GLOW_LEVELS. Light comes from a padded
  (18, 18, 18) uint8 array beside the ids (`World.padded_light`, value sky << 4 | block); without
  one every cell has OPEN_SKY_LEVELS (full sky light, no block light: the look of noon).

Fluids (`blocks.FLUID_LEVEL` >= 0) are drawn by their own pass, Beta's `RenderBlocks` rules:
* A cell's surface lies SURFACE_NINTHS[level] ninths of a block up: Beta's `1 - getPercentAir`,
  where percent air is (level + 1) / 9 for levels 0..7 and 1/9 for falling fluid (8..15).
* Each corner of a cell's top is as high as Beta's `getFluidHeight` for that corner, over the 4
  cells of the cell's layer that share the corner: 1 (a full block) if any of them has the same
  fluid (water with water, lava with lava, any level) right above it; otherwise 1 - air / count,
  where a cell of the same fluid adds its percent air with weight SOURCE_WEIGHT if it is a source
  or falling (level 0 or >= 8) and weight 1 if it is flowing (1..7), a cell with a collision shape
  (`blocks.SOLID`) adds nothing, and any other cell (air, the other fluid, a plant, a torch, a
  cobweb) adds percent air 1 with weight 1. Sums are kept in whole ninths, so a height is one exact
  division of two integers (`fluid_corner_height`). A surface between cells of different levels
  is therefore sloped, and a cell under the same fluid has every corner at 1.
* Faces: the top unless the same fluid is above (then the sides reach 1); a side or the bottom
  unless the neighbour there is the same fluid (any level) or hides faces (an opaque full cube).
  Side faces rise to the two corner heights of their top edge (a quad with a sloped top edge) and
  take the tile's matching part (v = height, like a slab's side); the top takes the whole tile.
* A side or bottom face with anything but air beyond it (glass, leaves, ice, a slab, the other
  fluid...) is drawn FLUID_INSET inside the cell, so it never lies in the plane of a neighbour's
  face; with air beyond, nothing else is in that plane.
* Water is drawn in the blended pass with face shading and no AO (Beta shades fluids
  per face only); lava in the opaque pass at full brightness (it glows).
* A fluid face's light is flat: per level (sky, block) the brighter of the fluid's own cell and
  the cell across the face (that one only if it does not hide faces), so a surface under the open
  sky has the sky's light although the water cell itself has lost some.

Plants (`blocks.CROSS`) are two vertical quads on the cell's diagonals (CROSS_CORNERS), each
emitted twice, once per winding, so both sides show (the renderer culls back faces). They use the
cut-out pass: their tiles' texels are fully clear or fully solid, and that pass is alpha-tested
(`chunk_renderer`: the opaque part draws with no alpha test, where the clear pixels would show as
their colour). Their light is CROSS_LIGHT, with no AO; their light levels are their own cell's.

The mesher is vectorised: one numpy pass over every drawn cell drawn with one quad per face
direction (cubes, slabs, carpet, fence posts, torches) and a second, wider one only for the rest
(stairs), then one over fluid cells and one over plants; no Python loop over voxels or faces.
`meshing_reference.py` is the per-voxel Python version; tests check they agree.

`section_faces` gives the same faces before they are packed (`SectionFaces`: per-face arrays with
each face's tile, tile UVs, direction and, for whole faces of MERGEABLE blocks, its cell), which
`game.world.meshing_merge` merges and packs into compact vertices; this per-face output is its
readable twin.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from physics import shapes
from physics.aabb import AABB
from . import atlas
from .blocks import (BLENDED, COUNT, CROSS, CULLS_SAME, DRAWN_SHAPES, FACE_TILES, FLUID_LEVEL, FULL_CUBE, LAVA_IDS,
                     MATERIAL, OPAQUE, SOLID, TOP, TRANSPARENT, UnknownBlockError, block_id)

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

GLOWS = np.zeros(COUNT, dtype=bool)
GLOWS[LAVA_IDS] = True
GLOWS[block_id("torch")] = True
GLOWS.flags.writeable = False
"""Blocks drawn at full brightness, every vertex 1.0 (lava at every level, torches): they give
light in Beta, so neither face shading nor AO darkens them."""
GLOW_LIGHT = 1.0

MAX_LIGHT_LEVEL = 15
"""[light levels] The brightest sky or block light (Beta's 0..15)."""
OPEN_SKY_LEVELS = (15.0, 0.0)
"""[light levels] (sky, block) of every vertex when no light array is given: full daylight and no
torches, which the renderer draws at the brightness meshes had before light levels (1.0 at noon)."""
GLOW_LEVELS = (15.0, 15.0)
"""[light levels] (sky, block) of every vertex of a glowing block: the brightest block light, so it
stays at full brightness at any time of day."""
_COUNT_SHIFT, _SKY_SHIFT, _SUM_MASK = 12, 6, 63
"""A cell's light packed for summing 4 cells in one integer add: open count << 12 | sky << 6 | block.
Four levels of 15 sum to at most 60 < 64 and four counts to 4, so no field spills into the next."""

SURFACE_NINTHS = np.array([9 - (1 if level >= 8 else level + 1) for level in range(16)], dtype=np.int64)
"""[ninths of a block] Height of a fluid cell's surface by level 0..15: Beta's 1 - getPercentAir
(8/9 for a source or falling fluid, 7/9 one block out from a source, ... 1/9 at level 7)."""
SOURCE_WEIGHT = 11
"""How much a source or falling cell counts in a corner's average against 1 for every other cell:
Beta's getFluidHeight adds their percent air 10 more times, so pools stay near full at the edges."""
FLUID_INSET = 1.0 / 512.0
"""[blocks] How far inside its cell a fluid's side or bottom face is drawn when a block is beyond it,
so it never shares a plane with that block's face: far below a pixel at any distance, exact in binary."""
CROSS_INSET = 1.0 / 16.0
"""[blocks] A plant's quads end this far inside the cell's corners (Beta's 0.05, here exact in
binary), so the quads of neighbouring plants never touch."""
CROSS_LIGHT = 1.0
"""Brightness of every plant vertex before light levels: Beta lights crossed quads by the cell's light
alone, with no face shading (their light levels are the cell's own)."""

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


NOT_MERGEABLE = -1
"""`SectionFaces.merge_cells` of a face that is never merged."""
CROSS_DIRECTION = -1
"""`SectionFaces.directions` of a plant's quad (it faces no axis)."""


@dataclass(frozen=True, eq=False)
class SectionFaces:
    """A section's faces as per-face numpy arrays (F faces, 4 corners each), before they are packed into
    vertex arrays: what `mesh_section` packs, plus what merging and compact vertices need."""

    positions: np.ndarray
    """float32 (F, 4, 3) [blocks], section-local, in each face's vertex order."""
    uvs: np.ndarray
    """float32 (F, 4, 2): atlas UVs."""
    brightness: np.ndarray
    """float32 (F, 4): face shade x AO brightness (GLOW_LIGHT, CROSS_LIGHT)."""
    levels: np.ndarray
    """float32 (F, 4, 2) [light levels]: smooth (sky, block) light."""
    draw_pass: np.ndarray
    """int8 (F,): OPAQUE_PASS, CUTOUT_PASS or BLENDED_PASS."""
    tiles: np.ndarray
    """intp (F,): the atlas tile each face shows."""
    tile_uvs: np.ndarray
    """float32 (F, 4, 2): where each corner falls in its tile (0..1 each; `uvs` maps them into the atlas)."""
    directions: np.ndarray
    """intp (F,): the face's direction (blocks.FACES order), CROSS_DIRECTION for a plant's quad."""
    merge_cells: np.ndarray
    """intp (F,): the padded flat index of the face's cell where the face is a whole unit face of a
    MERGEABLE block, else NOT_MERGEABLE."""

    @property
    def face_count(self) -> int:
        return len(self.tiles)


@dataclass(frozen=True, eq=False)
class MeshArrays:
    """Flat, C-contiguous arrays ready for `ursina.Mesh`: 4 vertices and 2 triangles per face.

    In block coordinates; `game.window.render.mesh_jobs.to_ursina` maps them to Ursina's axes.
    """

    positions: np.ndarray
    """float32, 3 per vertex [blocks], section-local (0..16)."""
    uvs: np.ndarray
    """float32, 2 per vertex; from `mesh_section`, atlas UVs."""
    colors: np.ndarray
    """float32, RGBA per vertex; from `mesh_section`, shade x AO brightness in RGB, alpha 1."""
    light: np.ndarray
    """float32, 2 per vertex [light levels]: the smooth sky and block light, each 0..15 (averages,
    so fractions such as 13.5 occur); OPEN_SKY_LEVELS when the mesher was given no light."""
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


def _drawn_boxes(block: int) -> tuple[AABB, ...]:
    if FLUID_LEVEL[block] >= 0:
        return (AABB(0.0, 0.0, 0.0, 1.0, int(SURFACE_NINTHS[FLUID_LEVEL[block]]) / 9.0, 1.0),)
    if CROSS[block]:
        return ()
    return _DRAWN_AS.get(DRAWN_SHAPES[block], DRAWN_SHAPES[block])


DRAWN_BOXES: tuple[tuple[AABB, ...], ...] = tuple(_drawn_boxes(block) for block in range(COUNT))
"""The boxes each block id is drawn as (air: none): the registry's drawn shape, a fence as its
post; a fluid as the cell in the middle of a still pool of its level (its surface flat at
SURFACE_NINTHS; `mesh_section` draws each fluid cell from its neighbours instead, and icons use
this); plants as none (they are crossed quads, CROSS_CORNERS)."""
_QUADS_BY_BOXES = {boxes: _shape_quads(boxes) for boxes in set(DRAWN_BOXES)}
QUADS: tuple[tuple[Quad, ...], ...] = tuple(_QUADS_BY_BOXES[boxes] for boxes in DRAWN_BOXES)
"""The quads of every block id (air and plants: none); a full cube's 6 are in FACES order."""
CUBE_QUADS: tuple[Quad, ...] = _shape_quads(shapes.FULL_CUBE)
"""A full cube's 6 quads in FACES order: the faces a fluid cell's are made from (top corners raised
or lowered to the corner heights)."""


def quads_of_block(block: int) -> tuple[Quad, ...]:
    """The quads block id `block` is drawn with, block-local."""
    if not 0 <= block < COUNT:
        raise UnknownBlockError(f"unknown block id {block!r} (ids are 0..{COUNT - 1})")
    return QUADS[block]


def atlas_uv(block: int, quad: Quad, corner: int) -> tuple[float, float]:
    """The atlas UV of `corner` (0..3) of `quad` of `block`: the quad's tile position mapped into its tile."""
    return tile_uv_in_atlas(int(FACE_TILES[block, quad.direction]), *quad.tile_uvs[corner])


def tile_uv_in_atlas(tile: int, u: float, v: float) -> tuple[float, float]:
    """The atlas UV of the point (u, v) (0..1 each) of `tile`: one formula (the vectorised passes
    compute it in float64 too), so both meshers agree to the bit."""
    u0, v0, u1, v1 = atlas.tile_uv_rect(tile)
    return u0 + u * (u1 - u0), v0 + v * (v1 - v0)


# --- fluids and plants: their rules as plain functions (the vectorised tables below follow them) ---


def same_fluid(block: int, other: int) -> bool:
    """`other` is the same fluid as fluid `block` at any level (water and water, lava and lava)."""
    return bool(FLUID_LEVEL[other] >= 0 and MATERIAL[other] == MATERIAL[block])


def corner_share(fluid: int, block: int) -> tuple[int, int]:
    """(weight, weight x percent air in ninths) that a cell holding `block` adds to a corner of fluid
    `fluid`'s surface (Beta's getFluidHeight; see the module docstring)."""
    if same_fluid(fluid, block):
        level = int(FLUID_LEVEL[block])
        weight = SOURCE_WEIGHT if level == 0 or level >= 8 else 1
        return weight, weight * (9 - int(SURFACE_NINTHS[level]))
    if SOLID[block]:
        return 0, 0
    return 1, 9


def fluid_corner_height(weight: int, air_ninths: int, covered: bool) -> float:
    """A corner's height (0..1 of a block) from its cells' summed shares, or 1.0 when `covered` (the
    same fluid is above one of them). One exact division of integers, so every caller agrees to the bit."""
    if covered:
        return 1.0
    return (9 * weight - air_ninths) / (9 * weight)


def cross_quads() -> tuple[tuple[tuple[tuple[float, float, float], ...], tuple[tuple[float, float], ...]], ...]:
    """A plant's 4 quads, block-local: ((corners), (tile uvs)) each, the two diagonals and each once
    more wound the other way; either side shows the tile upright and unmirrored."""
    low, high = CROSS_INSET, 1.0 - CROSS_INSET
    quads = []
    for start, end in (((low, low), (high, high)), ((low, high), (high, low))):
        for a, b in ((start, end), (end, start)):
            corners = ((a[0], 0.0, a[1]), (b[0], 0.0, b[1]), (b[0], 1.0, b[1]), (a[0], 1.0, a[1]))
            quads.append((corners, ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))))
    return tuple(quads)


CROSS_CORNERS = cross_quads()
"""A plant's quads: see `cross_quads`."""


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
    tile_uvs = np.array([[quad.tile_uvs for quad in quads] + [((0.0, 0.0),) * 4] * (width - len(quads))
                         for quads in QUADS], dtype=np.float32).reshape(-1, 2)
    tables = (valid, direction, boundary, direction.reshape(-1), ao_steps.reshape(-1, 12),
              corners.reshape(-1, 3), uvs.reshape(-1, 2), tile_uvs)
    for table in tables:
        table.flags.writeable = False
    return width, tables


# Quad tables: [block, quad] for the first three; then by quad row (block * _QUAD_WIDTH + quad),
# and the last two by vertex row (quad row * 4 + corner).
_QUAD_WIDTH, (_QUAD_VALID, _QUAD_DIRECTION, _QUAD_ON_BOUNDARY, _QUAD_ROW_DIRECTION, _QUAD_ROW_AO_STEPS,
              _VERTEX_ROW_CORNER, _VERTEX_ROW_UV, _VERTEX_ROW_TILE_UV) = _build_tables()
OPAQUE_PASS, CUTOUT_PASS, BLENDED_PASS = 0, 1, 2
"""Which draw pass a face is in: the opaque one, the alpha-tested cut-outs (leaves, ladders, plants),
or the sorted, blended one (glass, ice, water, cobwebs); `blocks.BLENDED`."""
DRAW_PASS = np.where(BLENDED, BLENDED_PASS, np.where(TRANSPARENT, CUTOUT_PASS, OPAQUE_PASS)).astype(np.int8)
DRAW_PASS.flags.writeable = False
_IS_FLUID = FLUID_LEVEL >= 0
_DRAWN = _QUAD_VALID.any(axis=1) & ~_IS_FLUID
"""Blocks drawn from their quad table (not air, fluids or plants)."""
_BOX, _FLUID, _PLANT = 1, 2, 3
_PASS_OF_BLOCK = np.where(_IS_FLUID, _FLUID, np.where(CROSS, _PLANT, np.where(_DRAWN, _BOX, 0))).astype(np.int8)
"""Which pass draws each block id (0: none)."""
_ONE_QUAD_PER_FACE = np.array([tuple(q.direction for q in quads) == tuple(range(len(FACE_NORMALS))) for quads in QUADS])
"""Blocks drawn as one quad per face direction, quad k facing FACES[k] (cubes, slabs, carpet, fence
post): meshed in the main pass, where quad k's neighbour is the same step for every cell."""
HIDES_FACES = OPAQUE & FULL_CUBE
"""Blocks that hide a boundary quad of the neighbour facing them, and that occlude for AO (and stop
sight between sections, `game.world.sight`)."""
HIDES_FACES.flags.writeable = False
_DIRECTION_STEP = np.array([_flat_step(n) for n in FACE_NORMALS], dtype=np.intp)
MERGEABLE = np.array([boxes == shapes.FULL_CUBE for boxes in DRAWN_BOXES]) & ~GLOWS & (DRAW_PASS != BLENDED_PASS)
MERGEABLE.flags.writeable = False
"""Blocks whose faces `game.world.meshing_merge` may merge with their neighbours': full cubes that
neither glow nor blend (blended faces keep their one-by-one order, which decides how they overlap)."""

# Fluid tables. A fluid's kind is its index in _FLUID_MATERIALS (0 water, 1 lava); tables "by kind
# row" are indexed kind * COUNT + id (one flat np.take), "by face kind" kind * 6 + direction.
_FLUID_MATERIALS = tuple(sorted({int(MATERIAL[b]) for b in range(COUNT) if FLUID_LEVEL[b] >= 0}))
_FLUID_KIND = np.array([_FLUID_MATERIALS.index(int(MATERIAL[b])) if FLUID_LEVEL[b] >= 0 else -1
                        for b in range(COUNT)], dtype=np.intp)
_FLUID_CODE = (_FLUID_KIND + 1).astype(np.uint8)
"""0 for non-fluids, else the kind + 1: two ids are the same fluid when their non-zero codes match."""
_KIND_EXAMPLE = [next(b for b in range(COUNT) if _FLUID_KIND[b] == k) for k in range(len(_FLUID_MATERIALS))]
_SAME_FLUID = np.array([same_fluid(f, b) for f in _KIND_EXAMPLE for b in range(COUNT)], dtype=np.float64)
"""By kind row: 1.0 where the id is that fluid (floats, to be summed by a matrix product)."""
_CORNER_WEIGHT, _CORNER_AIR = np.array([corner_share(f, b) for f in _KIND_EXAMPLE for b in range(COUNT)],
                                       dtype=np.float64).T.copy()
"""By kind row: `corner_share`'s weight and air ninths, as float64: small integers, summed exactly."""
_FLUID_LIGHT = np.array([[GLOW_LIGHT if GLOWS[f] else VERTEX_LIGHT[d, 3]] * 4 for f in _KIND_EXAMPLE for d in range(6)],
                        dtype=np.float32)
"""By face kind: the 4 vertices' brightness: water shaded by direction (no AO), lava glowing."""
_FLUID_LAYER = [(dx, dz) for dx in (-1, 0, 1) for dz in (-1, 0, 1)]
_FLUID_NEIGHBOURHOOD = np.array([_flat_step((dx, dy, dz)) for dy in (0, 1) for dx, dz in _FLUID_LAYER], dtype=np.intp)
"""Flat steps to the 3 x 3 cells around a fluid cell in its layer, then the 3 x 3 above them."""
TOP_CORNERS = ((0, 0), (1, 0), (1, 1), (0, 1))
"""The (x, z) of a fluid cell's 4 top corners, in the order of its top quad's corners."""
_CORNER_CELLS = np.array([[1.0 if dx in (cx - 1, cx) and dz in (cz - 1, cz) else 0.0 for cx, cz in TOP_CORNERS]
                          for dx, dz in _FLUID_LAYER])
"""(9 layer cells, 4 corners): 1 where the cell shares the corner."""
_CUBE_CORNERS = np.array([q.corners for q in CUBE_QUADS], dtype=np.float64)
_FLUID_RAISED = _CUBE_CORNERS[:, :, 1] == 1.0
"""(direction, corner): the corner is on the cell's top, so it takes its corner height."""
_FLUID_CORNERS = np.concatenate([_CUBE_CORNERS, _CUBE_CORNERS])
"""By direction + 6 * inset, the 12 numbers of a face's corners: the cube's, moved FLUID_INSET into
the cell in the second half, and with raised corners' y at 0 (their height is added)."""
for _direction, (_axis, _on_max, _, _) in enumerate(_FRAMES):
    _FLUID_CORNERS[6 + _direction, :, _axis] = 1.0 - FLUID_INSET if _on_max else FLUID_INSET
_FLUID_CORNERS[:, :, 1][np.concatenate([_FLUID_RAISED, _FLUID_RAISED])] = 0.0
_FLUID_CORNERS = _FLUID_CORNERS.reshape(12, 12)
_HEIGHT_OF_CORNER = [[TOP_CORNERS.index((int(c[0]), int(c[2]))) if c[1] == 1.0 else None for c in q.corners]
                     for q in CUBE_QUADS]
"""(direction, corner) -> which of the 4 top-corner heights a raised corner takes (None: not raised)."""
_NO_HEIGHT = len(TOP_CORNERS)
"""Index of the 0.0 kept after each cell's 4 corner heights: what every number that is no height adds."""
_FLUID_Y_HEIGHT = np.array([[_NO_HEIGHT if h is None else h for h in row] for row in _HEIGHT_OF_CORNER],
                           dtype=np.intp)
"""By direction, per corner: the corner height its y adds (a raised corner's)."""
_V_IS_HEIGHT = _FLUID_RAISED & (np.arange(6) != TOP)[:, None]
"""(direction, corner): a side face's raised corner samples the tile at v = its height."""
_FLUID_V_HEIGHT = np.where(_V_IS_HEIGHT, _FLUID_Y_HEIGHT, _NO_HEIGHT)
"""By direction, per corner: the corner height its tile v adds (a side's raised corner's)."""
_FLUID_TILE_UVS = np.array([q.tile_uvs for q in CUBE_QUADS], dtype=np.float64)
_FLUID_TILE_UVS[..., 1][_V_IS_HEIGHT] = 0.0  # their v is the height, added
_FLUID_TILE_UVS = _FLUID_TILE_UVS.reshape(6, 8)
_TILE_RECTS = np.array([atlas.tile_uv_rect(t) for t in range(atlas.TILE_COUNT)], dtype=np.float64)
_TILE_ORIGINS_8 = np.tile(_TILE_RECTS[:, :2], 4)
_TILE_SIZES_8 = np.tile(_TILE_RECTS[:, 2:] - _TILE_RECTS[:, :2], 4)
"""Per tile, 4 times over: (u0, v0) and (u1 - u0, v1 - v0), so that u0 + u * (u1 - u0) is
`tile_uv_in_atlas`'s formula."""
_CROSS_CORNERS = np.array([corners for corners, _ in CROSS_CORNERS], dtype=np.float64).reshape(-1, 12)
_CROSS_TILE_UVS = np.array([uvs for _, uvs in CROSS_CORNERS], dtype=np.float64).reshape(-1, 8)

# A vertex's occluders (side1, side2, corner) as a 3-bit code: side1 * 4 + side2 * 2 + corner.
_AO_OF_CODE = np.array([3 - (c >> 2 & 1) - (c >> 1 & 1) - (c & 1) if c & 6 != 6 else 0 for c in range(8)],
                       dtype=np.intp)
"""0fps AO level per code: 3 minus the occluders, 0 when both sides are blocked."""
_LIGHT_OF_CODE = VERTEX_LIGHT[:, _AO_OF_CODE]
"""[face direction, AO code] -> vertex brightness."""

_GRID = np.indices((PADDED_SIZE,) * 3).reshape(3, -1).T
_CELL_POSITION = (_GRID - 1).astype(np.float32)
"""Section-local position of every padded flat index (the border is at -1 and 16)."""
_CELL_POSITION_12 = np.tile(_CELL_POSITION.astype(np.float64), 4)
"""The same in float64, 4 times over (a face's 4 corners): fluid and plant corners are added in
float64 and rounded once, as the reference does."""
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


def _open_sky_levels(face_count: int) -> np.ndarray:
    """(F, 4, 2) float32 levels, OPEN_SKY_LEVELS at every vertex."""
    levels = np.empty((face_count, 4, 2), dtype=np.float32)
    levels[...] = OPEN_SKY_LEVELS
    return levels


def check_light(light: object) -> np.ndarray | None:
    """`light` (None, or a padded (18, 18, 18) array of sky << 4 | block bytes) as a flat intp array
    after checking it: TypeError / ValueError naming the problem."""
    if light is None:
        return None
    if not isinstance(light, np.ndarray):
        raise TypeError(f"padded light must be a numpy array or None, got {type(light).__name__}")
    if light.dtype.kind not in "iu":
        raise TypeError(f"padded light must hold integer levels (sky << 4 | block), got dtype {light.dtype}")
    if light.shape != (PADDED_SIZE,) * 3:
        raise ValueError(f"padded light must have shape {(PADDED_SIZE,) * 3} like the padded section, "
                         f"got {light.shape}")
    if light.size and (light.min() < 0 or light.max() > 255):
        bad = np.argwhere((light < 0) | (light > 255))[0]
        raise ValueError(f"padded light {light[tuple(bad)]} at [{bad[0]}, {bad[1]}, {bad[2]}] is not a byte "
                         "sky << 4 | block (0..255)")
    return np.ascontiguousarray(light, dtype=np.intp).reshape(-1)


def pack_faces(positions: np.ndarray, uvs: np.ndarray, light: np.ndarray,
               levels: np.ndarray | None = None) -> MeshArrays:
    """MeshArrays from per-face arrays: positions (F, 4, 3), uvs (F, 4, 2), brightness (F, 4) and
    the (sky, block) light levels (F, 4, 2), OPEN_SKY_LEVELS everywhere when None."""
    face_count = len(positions)
    colors = np.ones((face_count, 4, 4), dtype=np.float32)
    colors[:, :, :3] = light[:, :, None]
    sky_block = _open_sky_levels(face_count) if levels is None else np.ascontiguousarray(levels, dtype=np.float32)
    arrays = (np.ascontiguousarray(positions, dtype=np.float32).reshape(-1),
              np.ascontiguousarray(uvs, dtype=np.float32).reshape(-1),
              colors.reshape(-1),
              sky_block.reshape(-1),
              _INDEX_PATTERN[:6 * face_count])
    for array in arrays:
        array.flags.writeable = False
    return MeshArrays(*arrays)


_EMPTY = pack_faces(np.zeros((0, 4, 3), np.float32), np.zeros((0, 4, 2), np.float32), np.zeros((0, 4), np.float32))


def _average_levels(total: np.ndarray) -> np.ndarray:
    """(..., 2) float32 (sky, block) levels from summed packed cells (`_COUNT_SHIFT` layout): each sum
    divided by the open count, in float64 and rounded once (the reference divides the same way)."""
    count = (total >> _COUNT_SHIFT).astype(np.float64)
    sums = np.stack([(total >> _SKY_SHIFT) & _SUM_MASK, total & _SUM_MASK], axis=-1)
    return (sums / count[..., None]).astype(np.float32)


class _Light:
    """One section's light, read by the passes: per padded flat index, the packed level (sky << 4 |
    block), the same where it lets light through in the summing layout, else 0 (`lit`), and the
    sky and block levels with cells that hide faces at 0 (`open_sky`, `open_block`)."""

    def __init__(self, flat_light: np.ndarray, hiding: np.ndarray) -> None:
        sky, block = flat_light >> 4, flat_light & 15
        self.own = (1 << _COUNT_SHIFT) | (sky << _SKY_SHIFT) | block
        self.lit = np.where(hiding, 0, self.own)
        self.open_sky = np.where(hiding, 0, sky)
        self.open_block = np.where(hiding, 0, block)
        self.sky, self.block = sky, block


def _smooth_levels(section_light: _Light, face_cells, front_cells, occluders, both_blocked, rotation):
    """(F, 4, 2) smooth levels of faces whose vertices' AO cells are `occluders` (F, 12: s1, s2, c)."""
    lit = np.take(section_light.lit, occluders)
    corner = np.where(both_blocked, 0, lit[:, 2::3])
    total = lit[:, 0::3] + lit[:, 1::3] + corner + np.take(section_light.lit, front_cells)[:, None]
    total = np.where(total < (1 << _COUNT_SHIFT), np.take(section_light.own, face_cells)[:, None], total)
    return _average_levels(np.take(total, rotation))


def _visible_faces(flat_ids, hiding, cells, blocks, one_per_face, section_light):
    """Per-face arrays for the quads of `cells` (padded flat indices holding `blocks`) that no
    neighbour hides; `hiding` is HIDES_FACES of every padded cell. `one_per_face`: every block in
    `blocks` has _ONE_QUAD_PER_FACE. `section_light`: a `_Light`, or None (no levels)."""
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
    rotation = _FIRST_VERTEX[:face_count, None] + order
    rotated_code = np.take(code, rotation)
    direction = np.take(_QUAD_ROW_DIRECTION, quad)
    light = _LIGHT_OF_CODE[direction[:, None], rotated_code]
    if section_light is None:
        levels = _open_sky_levels(face_count)
    else:
        levels = _smooth_levels(section_light, face_cells, face_cells + np.take(_DIRECTION_STEP, direction),
                                occluders, (code & 6) == 6, rotation)
    glowing = GLOWS[face_blocks]
    if glowing.any():
        light[glowing] = GLOW_LIGHT
        levels[glowing] = GLOW_LEVELS
    tiles = np.take(FACE_TILES.reshape(-1), face_blocks * 6 + direction)
    merge_cells = np.where(MERGEABLE[face_blocks], face_cells, NOT_MERGEABLE)
    return (positions, uvs, light, levels, DRAW_PASS[face_blocks], tiles, np.take(_VERTEX_ROW_TILE_UV, vertex, axis=0),
            direction, merge_cells)


def _atlas_uvs(tiles: np.ndarray, tile_uvs: np.ndarray) -> np.ndarray:
    """(F, 8) atlas UVs of the 4 points (u, v) in each row of `tile_uvs` (F, 8) of `tiles` (F,), float64, by
    `tile_uv_in_atlas`'s formula."""
    return np.take(_TILE_ORIGINS_8, tiles, axis=0) + tile_uvs * np.take(_TILE_SIZES_8, tiles, axis=0)


def _fluid_faces(flat_ids, cells, blocks, section_light):
    """Per-face arrays for the fluid `cells` (padded flat indices holding `blocks`): see the module docstring."""
    code = _FLUID_CODE[blocks]
    neighbours = np.take(flat_ids, cells[:, None] + _DIRECTION_STEP)  # (n, 6)
    same = np.take(_FLUID_CODE, neighbours) == code[:, None]
    shown = ~(same | np.take(HIDES_FACES, neighbours))
    shown[:, TOP] = ~same[:, TOP]
    drawn = shown.any(axis=1)
    if not drawn.all():  # cells inside a body of fluid: nothing to draw, no heights to find
        cells, blocks, code, neighbours, shown = (a[drawn] for a in (cells, blocks, code, neighbours, shown))
    kind_row = (code.astype(np.intp) - 1) * COUNT

    around = np.take(flat_ids, cells[:, None] + _FLUID_NEIGHBOURHOOD) + kind_row[:, None]  # layer's 3 x 3, above
    weight = np.take(_CORNER_WEIGHT, around[:, :9]) @ _CORNER_CELLS  # (n, 4 corners)
    air = np.take(_CORNER_AIR, around[:, :9]) @ _CORNER_CELLS
    covered = np.take(_SAME_FLUID, around[:, 9:]) @ _CORNER_CELLS > 0.0
    heights = np.zeros((len(cells), 5))  # the 4 corners, then a 0 that every unraised number adds
    heights[:, :4] = np.where(covered, 1.0, (9.0 * weight - air) / (9.0 * weight))
    heights = heights.reshape(-1)

    # Per face, flat rows of 12 position and 8 UV numbers where numbers are added: numpy is slow on
    # tiny broadcast inner axes. Heights are added to the 4 y (4 v) numbers alone, through a strided view.
    cell_index, direction = np.nonzero(shown)
    inset = np.take(neighbours.reshape(-1), cell_index * 6 + direction) != 0
    inset &= direction != TOP
    first_height = (cell_index * 5)[:, None]
    positions = np.take(_FLUID_CORNERS, direction + 6 * inset, axis=0)  # (F, 12), raised corners' y at 0
    positions[:, 1::3] += np.take(heights, first_height + np.take(_FLUID_Y_HEIGHT, direction, axis=0))
    positions += np.take(_CELL_POSITION_12, np.take(cells, cell_index), axis=0)
    tile_uvs = np.take(_FLUID_TILE_UVS, direction, axis=0)  # (F, 8), a side's raised corners' v at 0
    tile_uvs[:, 1::2] += np.take(heights, first_height + np.take(_FLUID_V_HEIGHT, direction, axis=0))
    face_blocks = np.take(blocks, cell_index)
    tiles = np.take(FACE_TILES, face_blocks * 6 + direction)
    uvs = _atlas_uvs(tiles, tile_uvs)
    light = np.take(_FLUID_LIGHT, (np.take(code, cell_index).astype(np.intp) - 1) * 6 + direction, axis=0)
    if section_light is None:
        levels = _open_sky_levels(len(face_blocks))
        levels[GLOWS[face_blocks]] = GLOW_LEVELS
    else:
        face_cells = np.take(cells, cell_index)
        across = face_cells + np.take(_DIRECTION_STEP, direction)
        flat = np.stack([np.maximum(np.take(section_light.sky, face_cells), np.take(section_light.open_sky, across)),
                         np.maximum(np.take(section_light.block, face_cells),
                                    np.take(section_light.open_block, across))], axis=-1).astype(np.float32)
        flat[GLOWS[face_blocks]] = GLOW_LEVELS
        levels = np.repeat(flat[:, None, :], 4, axis=1)
    return (positions.astype(np.float32).reshape(-1, 4, 3), uvs.astype(np.float32).reshape(-1, 4, 2), light,
            levels, DRAW_PASS[face_blocks], tiles, tile_uvs.astype(np.float32).reshape(-1, 4, 2), direction,
            np.full(len(tiles), NOT_MERGEABLE, dtype=np.intp))


def _plant_faces(cells, blocks, section_light):
    """Per-face arrays for the plant `cells`: CROSS_CORNERS' 4 quads each, in the transparent part."""
    quad_count = len(_CROSS_CORNERS)
    positions = (np.take(_CELL_POSITION_12, cells, axis=0)[:, None, :] + _CROSS_CORNERS).reshape(-1, 4, 3)
    tiles = np.repeat(FACE_TILES[blocks, 0], quad_count)
    uvs = _atlas_uvs(tiles, np.broadcast_to(_CROSS_TILE_UVS, (len(cells), quad_count, 8)).reshape(-1, 8))
    light = np.full((len(positions), 4), CROSS_LIGHT, dtype=np.float32)
    if section_light is None:
        levels = _open_sky_levels(len(positions))
    else:
        own = np.stack([np.take(section_light.sky, cells), np.take(section_light.block, cells)], axis=-1)
        levels = np.repeat(own.astype(np.float32), quad_count * 4, axis=0).reshape(-1, 4, 2)
    face_count = len(positions)
    return (positions.astype(np.float32), uvs.astype(np.float32).reshape(-1, 4, 2), light, levels,
            np.repeat(DRAW_PASS[blocks], quad_count), tiles,
            np.broadcast_to(_CROSS_TILE_UVS.astype(np.float32).reshape(-1, 4, 2)[None], (len(cells), quad_count, 4, 2)
                            ).reshape(-1, 4, 2), np.full(face_count, CROSS_DIRECTION, dtype=np.intp),
            np.full(face_count, NOT_MERGEABLE, dtype=np.intp))


def mesh_section(padded: np.ndarray, light: np.ndarray | None = None) -> tuple[MeshArrays, MeshArrays]:
    """(opaque, transparent) meshes of the section inside `padded` (18, 18, 18) ids indexed [x, y, z],
    lit by `light` (the same shape: sky << 4 | block per cell, `World.padded_light`; None: open sky).
    The transparent part holds both the cut-out and the blended faces (`mesh_section_passes` keeps
    them apart).

    Raises TypeError for a non-array or non-integer array, ValueError for a wrong shape or a light
    value that is not a byte, and blocks.UnknownBlockError (a ValueError) for an id the registry lacks.
    """
    faces = _section_faces(padded, light)
    if faces is None:
        return _EMPTY, _EMPTY
    positions, uvs, brightness, levels, draw_pass = faces
    if not draw_pass.any():
        return pack_faces(positions, uvs, brightness, levels), _EMPTY
    opaque = draw_pass == OPAQUE_PASS
    return tuple(pack_faces(positions[part], uvs[part], brightness[part], levels[part]) for part in (opaque, ~opaque))


def mesh_section_passes(padded: np.ndarray, light: np.ndarray | None = None
                        ) -> tuple[MeshArrays, MeshArrays, MeshArrays]:
    """(opaque, cut-out, blended) meshes of the section, one per draw pass (`DRAW_PASS`): the faces of
    `mesh_section`, its transparent part split by `blocks.BLENDED`, each part in the same order.
    Raises as `mesh_section`."""
    faces = _section_faces(padded, light)
    if faces is None:
        return _EMPTY, _EMPTY, _EMPTY
    positions, uvs, brightness, levels, draw_pass = faces
    if not draw_pass.any():
        return pack_faces(positions, uvs, brightness, levels), _EMPTY, _EMPTY
    return tuple(pack_faces(positions[part], uvs[part], brightness[part], levels[part])
                 for part in (draw_pass == code for code in (OPAQUE_PASS, CUTOUT_PASS, BLENDED_PASS)))


def hides_every_face(padded: np.ndarray, light: np.ndarray | None = None) -> bool:
    """Whether every cell of `padded`, its border too, hides the faces beside it (HIDES_FACES): then
    the section shows no face (its inner cells are all full cubes, each face against another), as
    deep stone is; about half the sections of a new world's spawn area. Checks its inputs and raises
    as `mesh_section`."""
    ids = check_padded(padded)
    check_light(light)
    return bool(HIDES_FACES[ids].all())


def section_faces(padded: np.ndarray, light: np.ndarray | None = None) -> SectionFaces | None:
    """Every face of the section in `padded` lit by `light` as a `SectionFaces` (the faces of
    `mesh_section`, in the same order), or None when it has none. Raises as `mesh_section`."""
    faces = _all_faces(padded, light)
    return None if faces is None else SectionFaces(*faces)


def _section_faces(padded, light):
    """Per-face arrays (positions, uvs, brightness, levels, draw pass) of every face of the section in
    `padded`, or None when it has none; checks its inputs as `mesh_section` says."""
    faces = _all_faces(padded, light)
    return None if faces is None else faces[:5]


def _all_faces(padded, light):
    """`SectionFaces`' columns as a tuple, or None when the section has no faces."""
    ids = check_padded(padded)
    flat_light = check_light(light)
    flat_ids = ids.reshape(-1)
    hiding = HIDES_FACES[flat_ids]
    section_light = None if flat_light is None else _Light(flat_light, hiding)
    inner_pass = _PASS_OF_BLOCK[flat_ids[_INNER_FLAT]]
    cells = _INNER_FLAT[inner_pass == _BOX]
    blocks = flat_ids[cells]
    main = _ONE_QUAD_PER_FACE[blocks]
    if main.all():
        passes = [(cells, blocks, True)]
    else:
        passes = [(cells[main], blocks[main], True), (cells[~main], blocks[~main], False)]
    parts = [_visible_faces(flat_ids, hiding, c, b, one_per_face, section_light)
             for c, b, one_per_face in passes if len(c)]
    if (inner_pass > _BOX).any():
        for kind, faces_of in ((_FLUID, lambda c, b: _fluid_faces(flat_ids, c, b, section_light)),
                               (_PLANT, lambda c, b: _plant_faces(c, b, section_light))):
            special = _INNER_FLAT[inner_pass == kind]
            if len(special):
                parts.append(faces_of(special, flat_ids[special]))
    if not parts:
        return None
    return tuple(np.concatenate(column) if len(parts) > 1 else column[0] for column in zip(*parts))
