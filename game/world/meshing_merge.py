"""Merged faces and compact vertices: a section's faces as few, small vertices for the GPU. numpy only.

Owns: merging the faces that look the same into bigger quads (`merge_faces`), and packing faces into
16-byte vertices (`pack_compact`, undone by `unpack_compact`), per draw pass (`mesh_section_compact`,
which on request sorts the opaque and cut-out parts' faces by the way they face,
`game.world.meshing_facing`, so that a renderer can leave out those facing away from the eye).
Does not own: which faces a section has, their light or their tiles (`game.world.meshing`, whose
per-face output, `section_faces`, is the readable twin of everything here); how the packed columns are
uploaded or decoded on the GPU (`game.window.render.chunk_renderer`, `chunk_shader`).

Merging (`merge_faces`): two faces merge when they lie in the same plane, face the same way, are
whole unit faces of MERGEABLE blocks (full cubes that neither glow nor blend), show the same tile in
the same draw pass, and every corner of both carries the same brightness (face shade x AO) and the
same sky and block light. Faces whose four corners differ are never merged, so smooth light and AO
look exactly as before: across a merged quad every vertex value is constant. Two passes, both
vectorised: faces join into runs along their texture's u axis, then runs of equal extent join
along v. A merged quad of w x h faces has tile UVs (0..w, 0..h): the shader repeats the tile with
fract(), so each unit square shows the tile exactly as its own face did. Left unmerged: fluids,
plants, non-cube shapes (slabs, stairs, torches...), glowing blocks (lava, torches) and blended
blocks (glass, ice, cobwebs).

Compact vertices (`pack_compact`), 16 bytes each, in three columns (VERTEX_DTYPE), each starting
on a 4-byte boundary as Panda3D lays columns out:
* position: 4 x uint16, section-local x, y, z in 1/POSITION_UNITS blocks (0..16 -> 0..32768) plus
  PACK_OFFSET, then 1 (the homogeneous w); whole and 1/16 positions are exact, a fluid's surface
  heights round to 1/2048 block; a merged quad reaches SEAL_UNITS past its edges (T-junctions);
* light: 4 x uint8, the brightness's shade code (SHADES), sky and block light x LEVEL_UNITS (exact:
  each level is an average of 1 to 4 whole levels), and the atlas tile;
* tile_uv: 2 x uint16, the tile UV x UV_UNITS, plus one tile (0..16 tiles -> 1..17).
Indices are uint16 when the mesh has at most 65,536 vertices, else uint32.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import atlas
from .meshing_facing import FacingOrder, facing_order
from .meshing import (BLENDED_PASS, CROSS_LIGHT, CUTOUT_PASS, GLOW_LIGHT, MAX_LIGHT_LEVEL, NOT_MERGEABLE, OPAQUE_PASS,
                      PADDED_SIZE, SECTION_SIZE, VERTEX_LIGHT, SectionFaces, _FRAMES, _atlas_uvs, hides_every_face,
                      section_faces)

MERGED = -2
"""`SectionFaces.merge_cells` of a quad that `merge_faces` made: `pack_compact` seals its edges."""
POSITION_UNITS = 2048
"""[1/block] Steps per block of a packed position: 16 blocks fit in a uint16 (32,768), and every
corner of a cube or a 1/16 shape is exact."""
UV_UNITS = POSITION_UNITS
"""[1/tile] Steps per tile of a packed tile UV, stored one tile up: a merged quad spans at most 16
tiles (34,816 at most). As many as a position's per block: a merged quad's tile is one block."""
SEAL_UNITS = 1
"""[1/POSITION_UNITS blocks] How far a merged quad reaches past each of its edges (`pack_compact`):
1/2048 block, far below a pixel, past the rounding of any rasteriser."""
PACK_OFFSET = SEAL_UNITS
"""[1/POSITION_UNITS blocks] What a packed position is stored up by, so a sealed edge at 0 stays >= 0."""
PACKED_SPAN = SECTION_SIZE * POSITION_UNITS + 2 * PACK_OFFSET
"""[1/POSITION_UNITS blocks] The range a packed coordinate may take (0..PACKED_SPAN)."""
LEVEL_UNITS = 12
"""[1/light level] Steps per light level: a smooth level is a sum of 1 to 4 whole levels divided by
their count, so x 12 (the least common multiple of 1..4) is a whole number, at most 180."""
SHADES = VERTEX_LIGHT.ravel().copy()
SHADES.flags.writeable = False
"""Every brightness a vertex can carry, by shade code direction x AO_LEVELS + AO level: face shade x
AO brightness (glowing blocks and plants carry 1.0, a top face's open corner). The shader works a
code's value out as the same float32 product, so a vertex's brightness is exact."""
AO_LEVELS = VERTEX_LIGHT.shape[1]
_SORTED_SHADES, _FIRST_CODE = np.unique(SHADES, return_index=True)
assert GLOW_LIGHT in _SORTED_SHADES and CROSS_LIGHT in _SORTED_SHADES, "glowing blocks and plants need a code"
VERTEX_DTYPE = np.dtype([("position", "<u2", (4,)), ("light", "u1", (4,)), ("tile_uv", "<u2", (2,))])
"""One packed vertex as the GPU reads it, interleaved: 16 bytes."""
VERTEX_BYTES = VERTEX_DTYPE.itemsize
MAX_UINT16_VERTICES = 1 << 16
"""Meshes with at most this many vertices index them with uint16."""
CORNER_BITS = 21
"""Bits of a corner's code (`_corner_codes`): 5 for the brightness index, 8 each for the two levels."""
_TILE_LIMIT = 256
"""Tiles a merge key has room for (a byte; the atlas has far fewer)."""
assert len(SHADES) <= 32 and MAX_LIGHT_LEVEL * LEVEL_UNITS < 256 and atlas.TILE_COUNT <= _TILE_LIMIT, \
    "a merge key's fields must fit their bits"
_INDEX_PATTERN = np.array([0, 1, 2, 0, 2, 3], dtype=np.int64)
_UNIT_CORNERS = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.int64)
"""A quad's corners in its texture frame: (u, v) per corner, in the meshers' vertex order."""
_FRAME = np.array([(axis, on_max, u_axis, u_reversed, v_axis, v_reversed)
                   for axis, on_max, (u_axis, u_reversed), (v_axis, v_reversed) in _FRAMES], dtype=np.int64)
"""Per face direction: the normal's axis, whether the face is on the cell's max side, and the texture
frame's u and v axes with whether each runs against the axis."""


# --- merged faces --------------------------------------------------------------------------


def _corner_codes(faces: SectionFaces) -> np.ndarray:
    """(F, 4) int64: per corner, one number for what it carries (CORNER_BITS): its brightness's index
    in SHADES, and its sky and block level x LEVEL_UNITS (whole numbers, see pack_compact)."""
    levels = np.rint(faces.levels * LEVEL_UNITS).astype(np.int64)
    shades = np.searchsorted(_SORTED_SHADES, faces.brightness).astype(np.int64)
    return (shades << 16) | (levels[..., 0] << 8) | levels[..., 1]


def _cell_coordinates(padded_flat: np.ndarray) -> np.ndarray:
    """(n, 3) section-local cell coordinates of padded flat indices."""
    return np.stack(np.unravel_index(padded_flat, (PADDED_SIZE,) * 3), axis=1).astype(np.int64) - 1


def _runs(key: np.ndarray, row: np.ndarray, step: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Group items into runs: same `key` and `row`, `step` going up by one. Returns the items' indices
    in sorted order and a bool per sorted item: it starts a run (runs are numbered in this order)."""
    order = np.lexsort((step, row, key))
    k, r, s = key[order], row[order], step[order]
    starts = np.ones(len(order), dtype=bool)
    starts[1:] = (k[1:] != k[:-1]) | (r[1:] != r[:-1]) | (s[1:] != s[:-1] + 1)
    return order, starts


def _run_ends(order: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(first, last) item of every run, in run order."""
    ends = np.ones(len(order), dtype=bool)
    ends[:-1] = starts[1:]
    return order[starts], order[ends]


def merge_faces(faces: SectionFaces) -> SectionFaces:
    """`faces` with the faces that look the same merged into bigger quads (see the module docstring):
    the unmerged faces first, in their order, then the merged quads. TypeError for anything but a
    SectionFaces."""
    if not isinstance(faces, SectionFaces):
        raise TypeError(f"merge_faces needs a meshing.SectionFaces, got {type(faces).__name__}")
    codes = _corner_codes(faces)
    flat_u = (codes[:, 0] == codes[:, 1]) & (codes[:, 3] == codes[:, 2])
    flat_v = (codes[:, 0] == codes[:, 3]) & (codes[:, 1] == codes[:, 2])
    mergeable = faces.merge_cells != NOT_MERGEABLE
    picked = np.flatnonzero(mergeable & (flat_u | flat_v))
    if len(picked) < 2:
        return faces
    direction = faces.directions[picked]
    frame = _FRAME[direction]
    cell = _cell_coordinates(faces.merge_cells[picked])
    rows = np.arange(len(picked))
    plane = cell[rows, frame[:, 0]] + frame[:, 1]
    u, v = cell[rows, frame[:, 2]], cell[rows, frame[:, 4]]
    look = (faces.draw_pass[picked].astype(np.int64) * 8 + direction) * 32 + plane
    look = look * _TILE_LIMIT + faces.tiles[picked]
    corner = codes[picked]
    along_u, along_v = flat_u[picked], flat_v[picked] & ~flat_u[picked]

    # Faces whose light does not change along u: runs along u, within a row of equal look and v.
    look_u = np.unique((look << (2 * CORNER_BITS)) | (corner[:, 0] << CORNER_BITS) | corner[:, 3],
                       return_inverse=True)[1].reshape(-1)
    a = np.flatnonzero(along_u)
    first, last = (a[i] for i in _run_ends(*_runs(look_u[a], v[a], u[a])))
    u0, u1 = u[first], u[last] + 1
    # Runs whose light does not change along v either: stacked along v when look and extent agree.
    flat = flat_v[picked[first]]
    extent = np.where(flat, look_u[first] * (SECTION_SIZE + 1) ** 2 + u0 * (SECTION_SIZE + 1) + u1,
                      -1 - np.arange(len(first)))  # a run whose light changes along v stays on its own
    bottom, top = _run_ends(*_runs(extent, np.zeros_like(extent), v[first]))
    sources, rect = [first[bottom]], [(u0[bottom], u1[bottom], v[first[bottom]], v[first[top]] + 1)]
    # Faces whose light changes along u but not along v: runs along v, within a column of equal look and u.
    look_v = (look << (2 * CORNER_BITS)) | (corner[:, 0] << CORNER_BITS) | corner[:, 1]
    b = np.flatnonzero(along_v)
    if len(b):
        first, last = (b[i] for i in _run_ends(*_runs(look_v[b], u[b], v[b])))
        sources.append(first)
        rect.append((u[first], u[first] + 1, v[first], v[last] + 1))
    source = np.concatenate(sources)
    u0, u1, v0, v1 = (np.concatenate(side) for side in zip(*rect))
    bigger = (u1 - u0) * (v1 - v0) > 1  # a rectangle of one face is that face, left as it was
    kept = np.ones(faces.face_count, dtype=bool)
    kept[picked[along_u | along_v]] = False
    kept[picked[source[~bigger]]] = True
    kept = np.flatnonzero(kept)
    source, u0, u1, v0, v1 = (column[bigger] for column in (source, u0, u1, v0, v1))
    merged = _rectangles(faces, picked[source], frame[source], plane[source], u0, u1, v0, v1)
    return SectionFaces(*(np.concatenate([column[kept], extra]) for column, extra in
                          zip(_columns(faces), _columns(merged))))


def _columns(faces: SectionFaces) -> tuple[np.ndarray, ...]:
    return (faces.positions, faces.uvs, faces.brightness, faces.levels, faces.draw_pass, faces.tiles,
            faces.tile_uvs, faces.directions, faces.merge_cells)


def _rectangles(faces, source, frame, plane, u0, u1, v0, v1) -> SectionFaces:
    """Merged quads: rectangle [u0, u1) x [v0, v1) of cells in the plane `plane` of each source face's
    direction, with the source face's look."""
    count = len(source)
    width, height = (u1 - u0)[:, None], (v1 - v0)[:, None]
    cu, cv = _UNIT_CORNERS[:, 0][None], _UNIT_CORNERS[:, 1][None]  # (1, 4)
    along_u = np.where(frame[:, 3:4] == 1, u1[:, None] - cu * width, u0[:, None] + cu * width)
    along_v = np.where(frame[:, 5:6] == 1, v1[:, None] - cv * height, v0[:, None] + cv * height)
    positions = np.zeros((count, 4, 3), dtype=np.float32)
    rows = np.arange(count)[:, None]
    positions[rows, :, frame[:, 0:1]] = plane[:, None, None]
    positions[rows, np.arange(4)[None], frame[:, 2:3]] = along_u
    positions[rows, np.arange(4)[None], frame[:, 4:5]] = along_v
    tile_uvs = np.stack([cu * width, cv * height], axis=-1).astype(np.float32)
    tiles = faces.tiles[source]
    uvs = _atlas_uvs(tiles, tile_uvs.reshape(count, 8)).astype(np.float32).reshape(count, 4, 2)
    return SectionFaces(positions, uvs, faces.brightness[source], faces.levels[source], faces.draw_pass[source],
                        tiles, tile_uvs, faces.directions[source],
                        np.full(count, MERGED, dtype=faces.merge_cells.dtype))


# --- compact vertices ------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class CompactMesh:
    """One draw pass of a section in packed vertices (see the module docstring): plain numpy arrays."""

    vertices: np.ndarray
    """VERTEX_DTYPE, 4 per face."""
    indices: np.ndarray
    """uint16 or uint32, 6 per face: (v0, v1, v2), (v0, v2, v3)."""
    facing: FacingOrder | None = None
    """Where the faces lie by the way they face (`game.world.meshing_facing`), when
    `mesh_section_compact` was asked to sort them so; None: the faces are in the mesher's order."""

    @property
    def face_count(self) -> int:
        return len(self.indices) // 6

    @property
    def vertex_bytes(self) -> int:
        return self.vertices.nbytes

    @property
    def index_bytes(self) -> int:
        return self.indices.nbytes


def _shade_codes(brightness: np.ndarray) -> np.ndarray:
    """The shade code (index into SHADES) of each brightness; ValueError for one not in SHADES."""
    found = np.minimum(np.searchsorted(_SORTED_SHADES, brightness), len(_SORTED_SHADES) - 1)
    if not (_SORTED_SHADES[found] == brightness).all():
        raise ValueError("a vertex brightness is not one of SHADES")
    return _FIRST_CODE[found].astype(np.uint8)


def _outward(values: np.ndarray) -> np.ndarray:
    """(F, 4, n) -1, 0 or +1: which way each corner lies from its quad's centre, per axis."""
    return np.sign(2 * values - values.sum(axis=1, keepdims=True) / 2).astype(np.int64)


def pack_compact(faces: SectionFaces) -> CompactMesh:
    """`faces` (all of them, in order) as packed vertices. ValueError, nothing packed, when a position
    is outside 0..16, a tile UV outside 0..16 or a brightness not in SHADES.

    Positions are stored PACK_OFFSET units up and tile UVs one tile up (fract() does not see it), so
    that a MERGED quad can be SEAL_UNITS bigger on every side in its plane, its tile UVs likewise:
    where the corner of a smaller face lies on a merged quad's edge (a T-junction), rounding would
    otherwise leave now and then a pixel that neither covers, and the sky would show through."""
    positions = faces.positions.reshape(-1, 3)
    tile_uvs = faces.tile_uvs.reshape(-1, 2)
    if positions.size and not (0.0 <= positions.min() and positions.max() <= SECTION_SIZE):
        raise ValueError(f"packed positions must lie in 0..{SECTION_SIZE} blocks")
    if tile_uvs.size and not (0.0 <= tile_uvs.min() and tile_uvs.max() <= SECTION_SIZE):
        raise ValueError(f"packed tile UVs must lie in 0..{SECTION_SIZE} tiles")
    vertices = np.zeros(len(positions), dtype=VERTEX_DTYPE)
    merged = np.flatnonzero(faces.merge_cells == MERGED)
    units = np.rint(faces.positions.astype(np.float64) * POSITION_UNITS).astype(np.int64) + PACK_OFFSET
    uv_units = np.rint(faces.tile_uvs.astype(np.float64) * UV_UNITS).astype(np.int64) + UV_UNITS
    if len(merged):
        units[merged] += SEAL_UNITS * _outward(units[merged])
        uv_units[merged] += SEAL_UNITS * _outward(uv_units[merged])
    vertices["position"][:, :3] = units.reshape(-1, 3)
    vertices["position"][:, 3] = 1
    vertices["light"][:, 0] = _shade_codes(faces.brightness.reshape(-1))
    vertices["light"][:, 1:3] = np.rint(faces.levels.reshape(-1, 2).astype(np.float64) * LEVEL_UNITS)
    vertices["light"][:, 3] = np.repeat(faces.tiles, 4)
    vertices["tile_uv"] = uv_units.reshape(-1, 2)
    index_type = np.uint16 if len(vertices) <= MAX_UINT16_VERTICES else np.uint32
    indices = ((np.arange(faces.face_count, dtype=np.int64) * 4)[:, None] + _INDEX_PATTERN).reshape(-1)
    return CompactMesh(vertices, indices.astype(index_type))


@dataclass(frozen=True, eq=False)
class UnpackedVertices:
    """What `pack_compact` stored, read back as plain per-vertex numbers (tests, tools)."""

    positions: np.ndarray
    """float64 (V, 3) [blocks]."""
    brightness: np.ndarray
    """float32 (V,)."""
    levels: np.ndarray
    """float64 (V, 2) [light levels]: sky, block."""
    tile_uvs: np.ndarray
    """float64 (V, 2) [tiles]."""
    tiles: np.ndarray
    """int64 (V,)."""


def unpack_compact(mesh: CompactMesh) -> UnpackedVertices:
    """The readable twin of the vertex shader's decoding."""
    vertices = mesh.vertices
    return UnpackedVertices((vertices["position"][:, :3].astype(np.int64) - PACK_OFFSET) / POSITION_UNITS,
                            SHADES[vertices["light"][:, 0]], vertices["light"][:, 1:3] / LEVEL_UNITS,
                            vertices["tile_uv"] / UV_UNITS - 1,
                            vertices["light"][:, 3].astype(np.int64))



def _select(faces: SectionFaces, rows: np.ndarray) -> SectionFaces:
    return SectionFaces(*(column[rows] for column in _columns(faces)))


_EMPTY = None


def mesh_section_compact(padded: np.ndarray, light: np.ndarray | None = None, merge: bool = True,
                         facing: bool = False) -> tuple[CompactMesh, CompactMesh, CompactMesh]:
    """(opaque, cut-out, blended) packed meshes of the section in `padded` lit by `light` (as
    `meshing.mesh_section_passes`), faces merged unless `merge` is False. `facing`: the opaque and
    cut-out parts' faces sorted by the way they face (`CompactMesh.facing`), so that a renderer can
    draw only those facing the eye; the blended part keeps the mesher's order (its faces blend in
    the order they are drawn). Raises as `mesh_section`.
    A section whose every cell hides faces (`hides_every_face`) is answered at once: three empty
    parts, as `mesh_section_compact_in_full` (the general path, its twin) gives them, ~50x sooner."""
    if hides_every_face(padded, light):
        return (_empty(),) * 3
    return mesh_section_compact_in_full(padded, light, merge, facing)


def mesh_section_compact_in_full(padded: np.ndarray, light: np.ndarray | None = None, merge: bool = True,
                                 facing: bool = False) -> tuple[CompactMesh, CompactMesh, CompactMesh]:
    """`mesh_section_compact` by the general path alone (every cell's faces looked at)."""
    faces = section_faces(padded, light)
    if faces is not None and merge:
        faces = merge_faces(faces)
    return pack_section_faces(faces, facing)


def pack_section_faces(faces: SectionFaces | None, facing: bool = False
                       ) -> tuple[CompactMesh, CompactMesh, CompactMesh]:
    """(opaque, cut-out, blended) packed parts of a section's `faces` (None: no faces), as
    `mesh_section_compact` packs them (`facing` likewise)."""
    if faces is None:
        return (_empty(),) * 3
    passes = faces.draw_pass
    return tuple(_pack_part(faces, np.flatnonzero(passes == draw_pass), facing and draw_pass != BLENDED_PASS)
                 if (passes == draw_pass).any() else _empty() for draw_pass in (OPAQUE_PASS, CUTOUT_PASS, BLENDED_PASS))


def _pack_part(faces: SectionFaces, rows: np.ndarray, facing: bool) -> CompactMesh:
    """The faces `rows` of `faces` packed, sorted by the way they face when `facing`."""
    if not facing:
        return pack_compact(faces if len(rows) == faces.face_count else _select(faces, rows))
    order, groups = facing_order(faces.positions[rows])
    packed = pack_compact(_select(faces, rows[order]))
    return CompactMesh(packed.vertices, packed.indices, groups)


def _empty() -> CompactMesh:
    global _EMPTY
    if _EMPTY is None:
        _EMPTY = CompactMesh(np.zeros(0, VERTEX_DTYPE), np.zeros(0, np.uint16))
        _EMPTY.vertices.flags.writeable = False
        _EMPTY.indices.flags.writeable = False
    return _EMPTY
