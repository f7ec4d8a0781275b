"""Levels of detail: a far section drawn from a coarse mesh of 2 x 2 x 2 cells. numpy only.

Owns: coarsening a padded section and its light into a padded grid of COARSE_CELLS^3 coarse cells
(`coarse_padded`, whose per-cell Python twin is `coarse_padded_reference`), and meshing that grid at
LOD_SCALE into the same packed parts as a fine section (`mesh_section_lod`).
Does not own: which sections are drawn coarse (`game.window.render.chunk_renderer`), the faces' rules
(`game.world.meshing`), merging and packing (`game.world.meshing_merge`).

A coarse cell stands for its 8 fine cells (its 2 x 2 x 2 block):
* it hides faces (HIDES_FACES) when ANY of the 8 does, and is then the block that most of those
  that do are, each counted once in the lower layer and twice in the upper (grass over dirt stays
  grass); so a coarse section holds every face-hiding cell of the fine one, and a fine section
  beside it never loses a face to it (no holes at the seam, see below). The cost: far ground whose
  surface lies in a cell's lower layer rises by a block, and shallow water over sand shows as sand;
* else a fluid when at least half of the 8 are that fluid (water or lava, whichever more): a
  source (level 0) when its upper layer holds some of it, else level HALF_FLUID_LEVEL, whose
  surface, drawn twice as high, lies where a fine source's does in the lower layer;
* else, when at least half of the 8 are not air (leaves, glass, plants, slabs...), the block most of
  those are (counted as above); else air.
Ties go to the first cell in C order (x, then y, then z, each low before high).
Its light: per level (sky, block) the brightest of its 8 cells.

The coarse padding (the neighbours' ring) comes from the fine padding's one layer, each fine border
cell standing for the two coarse-cell layers it touches; a padding cell hides faces only when ALL
of its fine cells do, else it is worked out from the rest by the rules above as if those were air.
That makes every seam closed whatever the neighbours' levels: a coarse face is left out only where
the neighbour's cells across it all hide faces (so the neighbour's cell there hides faces too, fine
or coarse), and (coarse cells holding every face-hiding fine cell) a fine face left out beside a
coarse section is covered by the coarse cell behind it. (Drawing every coarse border face instead,
a closed skin, was tried: a skin against a neighbour's solid cells takes their light, 0, and showed
as black patches where the neighbour's coarse ground lay lower.)

Meshing: the coarse padded grid is put in a corner of an ordinary padded section (the rest air),
meshed by `meshing.section_faces`, its faces of cells outside the COARSE_CELLS^3 block dropped,
merged (`meshing_merge.merge_faces`), then its positions and tile UVs scaled by LOD_SCALE, so that a
tile shows at the same size as on a fine face, and packed as a fine section's parts.
"""

from __future__ import annotations

import numpy as np

from .blocks import AIR, FLUID_LEVEL, LAVA_IDS, WATER_IDS
from .meshing import (CROSS_DIRECTION, FACE_NORMALS, HIDES_FACES, PADDED_SIZE, SECTION_SIZE, SectionFaces,
                      check_light, check_padded, hides_every_face, section_faces)
from .meshing_merge import CompactMesh, merge_faces, pack_section_faces

LOD_SCALE = 2
"""[blocks] Edge of a coarse cell: 2 x 2 x 2 fine cells as one."""
COARSE_CELLS = SECTION_SIZE // LOD_SCALE
"""[coarse cells] Edge of a coarse section (8)."""
COARSE_PADDED = COARSE_CELLS + 2
"""[coarse cells] Edge of the coarse padded grid: the coarse section plus one coarse cell of neighbours."""
HALF_FLUID_LEVEL = 4
"""A coarse fluid cell whose upper half holds none of it: Beta's level 4 has its surface 4/9 up, which
drawn LOD_SCALE times as high is 8/9 of a block: a fine source's surface in the lower layer."""
LAYER_WEIGHTS = (1 + np.indices((2, 2, 2))[1]).reshape(-1).astype(np.int64)
"""Per fine cell of a 2 x 2 x 2 block in C order (x, y, z): what it counts in a majority, the upper
layer (y = 1) twice, so that a top block wins a tie with the one under it."""
_HALF = 4
"""Fine cells of 8 that make 'at least half'."""
_IS_FLUID_ID = FLUID_LEVEL >= 0
_IS_WATER_ID = np.zeros(len(FLUID_LEVEL), dtype=bool)
_IS_WATER_ID[WATER_IDS] = True


def _eight_index() -> np.ndarray:
    """(COARSE_PADDED^3, 8) flat indices into a padded section of the fine cells each coarse cell
    stands for, C order inside: coarse cell c's are padded 2c - 1 and 2c on each axis, clamped to
    the padding (its fine layer stands for both layers of its coarse padding cell)."""
    coarse = np.indices((COARSE_PADDED,) * 3).reshape(3, -1).T
    inside = np.indices((2, 2, 2)).reshape(3, -1).T
    fine = np.clip(2 * coarse[:, None, :] - 1 + inside[None, :, :], 0, PADDED_SIZE - 1)
    return np.ravel_multi_index(tuple(fine.transpose(2, 0, 1)), (PADDED_SIZE,) * 3)


_EIGHT = _eight_index()


def _padding_mask() -> np.ndarray:
    grid = np.indices((COARSE_PADDED,) * 3).reshape(3, -1)
    return ((grid == 0) | (grid == COARSE_PADDED - 1)).any(axis=0)


_PADDING = _padding_mask()
"""Per coarse padded cell (flat): it is in the neighbours' ring."""


def _majority(ids: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """(n,) per row of `ids` (n, 8): the candidate id with the most LAYER_WEIGHTS among `candidates`
    (bool (n, 8)), ties to the first; rows with no candidate give -1. Rows whose candidates are all
    one block (most) are answered without counting."""
    big = np.iinfo(np.intp).max
    low = np.where(candidates, ids, big).min(axis=1)
    high = np.where(candidates, ids, -1).max(axis=1)
    out = np.where(high >= 0, low, -1)
    mixed = np.flatnonzero(low < high)
    if len(mixed):
        some, chosen = ids[mixed], candidates[mixed]
        weights = np.where(chosen, LAYER_WEIGHTS[None, :], 0)
        same = some[:, :, None] == some[:, None, :]
        score = np.where(chosen, (same * weights[:, None, :]).sum(axis=2), -1)
        out[mixed] = some[np.arange(len(mixed)), score.argmax(axis=1)]
    return out


def _coarse_cells(eight: np.ndarray, padding: np.ndarray) -> np.ndarray:
    """(n,) the coarse cells' blocks from their fine cells `eight` ((n, 8) ids, C order inside), for
    cells of the neighbours' ring where `padding` ((n,) bool) says so: the module docstring's rules."""
    hiding = HIDES_FACES[eight]
    hides = np.where(padding, hiding.all(axis=1), hiding.any(axis=1))
    rest = eight.copy()
    rest[hiding] = AIR  # what a cell that does not hide faces is worked out from
    fluid = _IS_FLUID_ID[rest]
    water = fluid & _IS_WATER_ID[rest]
    lava = fluid & ~water
    is_water = water.sum(axis=1) >= lava.sum(axis=1)
    kind = np.where(is_water[:, None], water, lava)
    fluid_cell = kind.sum(axis=1) >= _HALF
    upper = kind.reshape(-1, 2, 2, 2)[:, :, 1, :].any(axis=(1, 2))
    level = np.where(upper, 0, HALF_FLUID_LEVEL)
    fluid_id = np.where(is_water, WATER_IDS[level], LAVA_IDS[level])
    solid = rest != AIR
    other = _majority(rest, solid)
    return np.where(hides, _majority(eight, hiding),
                    np.where(fluid_cell, fluid_id, np.where(solid.sum(axis=1) >= _HALF, other, AIR)))


_ONE_BLOCK = _coarse_cells(np.repeat(np.arange(len(HIDES_FACES), dtype=np.intp)[:, None], 8, axis=1),
                           np.zeros(len(HIDES_FACES), dtype=bool))
"""Per block id: the coarse cell whose 8 fine cells are all that block (in the ring or not: all of
them hide faces exactly when any does), by `_coarse_cells`' rules. Most coarse cells are one block
(the air above the ground, the stone under it), so only the others are worked out row by row."""


def coarse_padded(padded: np.ndarray, light: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """The coarse padded grid (COARSE_PADDED^3 block ids, intp) and its light (uint8 sky << 4 | block,
    None without `light`) of a padded section (see the module docstring). Raises as `meshing.mesh_section`."""
    ids = check_padded(padded)
    flat_light = check_light(light)
    eight = ids.reshape(-1).take(_EIGHT).astype(np.intp, copy=False)
    first = eight[:, 0]
    out = _ONE_BLOCK.take(first)
    mixed = np.flatnonzero((eight != first[:, None]).any(axis=1))
    if mixed.size:
        out[mixed] = _coarse_cells(eight.take(mixed, axis=0), _PADDING.take(mixed))
    blocks = out.reshape((COARSE_PADDED,) * 3)
    if flat_light is None:
        return blocks, None
    levels = flat_light.reshape(-1).take(_EIGHT)
    brightest = ((levels >> 4).max(axis=1) << 4) | (levels & 15).max(axis=1)
    return blocks, brightest.reshape((COARSE_PADDED,) * 3).astype(np.uint8)


def coarse_padded_reference(padded: np.ndarray, light: np.ndarray | None = None
                            ) -> tuple[np.ndarray, np.ndarray | None]:
    """`coarse_padded`, cell by cell in plain Python: its readable twin."""
    ids = check_padded(padded)
    check_light(light)
    blocks = np.zeros((COARSE_PADDED,) * 3, dtype=np.intp)
    out_light = None if light is None else np.zeros((COARSE_PADDED,) * 3, dtype=np.uint8)
    last = PADDED_SIZE - 1
    for cx in range(COARSE_PADDED):
        for cy in range(COARSE_PADDED):
            for cz in range(COARSE_PADDED):
                # The fine cells of coarse cell c are 2c - 1 and 2c in padded indices, clamped to the padding.
                cells = [(min(max(2 * cx - 1 + dx, 0), last), min(max(2 * cy - 1 + dy, 0), last),
                          min(max(2 * cz - 1 + dz, 0), last)) for dx in (0, 1) for dy in (0, 1) for dz in (0, 1)]
                weights = [1 + dy for dx in (0, 1) for dy in (0, 1) for dz in (0, 1)]
                eight = [int(ids[c]) for c in cells]
                padding = 0 in (cx, cy, cz) or COARSE_PADDED - 1 in (cx, cy, cz)
                blocks[cx, cy, cz] = _coarse_block(eight, weights, padding)
                if out_light is not None:
                    values = [int(light[c]) for c in cells]
                    out_light[cx, cy, cz] = (max(v >> 4 for v in values) << 4) | max(v & 15 for v in values)
    return blocks, out_light


def _coarse_block(eight: list[int], weights: list[int], padding: bool) -> int:
    """One coarse cell's block from its 8 fine cells (C order), as the module docstring says."""
    hiding = [bool(HIDES_FACES[b]) for b in eight]
    if all(hiding) if padding else any(hiding):
        return _most(eight, weights, hiding)
    rest = [AIR if h else b for b, h in zip(eight, hiding)]
    water = [FLUID_LEVEL[b] >= 0 and b in WATER_IDS for b in rest]
    lava = [FLUID_LEVEL[b] >= 0 and b not in WATER_IDS for b in rest]
    kind = water if sum(water) >= sum(lava) else lava
    if sum(kind) >= _HALF:
        upper = any(k for k, w in zip(kind, weights) if w == 2)
        level = 0 if upper else HALF_FLUID_LEVEL
        return int((WATER_IDS if kind is water else LAVA_IDS)[level])
    solid = [b != AIR for b in rest]
    if sum(solid) >= _HALF:
        return _most(rest, weights, solid)
    return AIR


def _most(ids: list[int], weights: list[int], candidates: list[bool]) -> int:
    best, best_score = ids[0], -1
    for i, block in enumerate(ids):
        if candidates[i]:
            score = sum(w for b, w, c in zip(ids, weights, candidates) if c and b == block)
            if score > best_score:
                best, best_score = block, score
    return best


def _embedded(coarse: np.ndarray, fill: int) -> np.ndarray:
    """A padded section holding the coarse padded grid at its low corner, the rest `fill`."""
    grid = np.full((PADDED_SIZE,) * 3, fill, dtype=coarse.dtype)
    grid[:COARSE_PADDED, :COARSE_PADDED, :COARSE_PADDED] = coarse
    return grid


_NORMALS = np.array(FACE_NORMALS, dtype=np.float64)
_INWARD = 1e-3
"""[blocks] How far inside along its normal a face's centre is looked up to find its cell."""


def _inner_faces(faces: SectionFaces) -> np.ndarray:
    """Rows of the faces that belong to cells of the COARSE_CELLS^3 block (not its padding, not the fill)."""
    centre = faces.positions.astype(np.float64).mean(axis=1)
    direction = faces.directions
    normal = np.where((direction == CROSS_DIRECTION)[:, None], 0.0, _NORMALS[np.maximum(direction, 0)])
    cell = np.floor(centre - _INWARD * normal)
    return np.flatnonzero(((cell >= 0) & (cell < COARSE_CELLS)).all(axis=1))


def _scaled(faces: SectionFaces, rows: np.ndarray) -> SectionFaces:
    return SectionFaces(faces.positions[rows] * np.float32(LOD_SCALE), faces.uvs[rows], faces.brightness[rows],
                        faces.levels[rows], faces.draw_pass[rows], faces.tiles[rows],
                        faces.tile_uvs[rows] * np.float32(LOD_SCALE), faces.directions[rows], faces.merge_cells[rows])


def lod_faces(padded: np.ndarray, light: np.ndarray | None = None, merge: bool = True) -> SectionFaces | None:
    """The coarse section's faces in section-local blocks (0..16), merged unless `merge` is False;
    None when it has none. Raises as `meshing.mesh_section`."""
    blocks, coarse_light = coarse_padded(padded, light)
    faces = section_faces(_embedded(blocks, AIR), None if coarse_light is None else _embedded(coarse_light, 0))
    if faces is None:
        return None
    rows = _inner_faces(faces)
    if len(rows) == 0:
        return None
    kept = SectionFaces(*(column[rows] for column in (faces.positions, faces.uvs, faces.brightness, faces.levels,
                                                       faces.draw_pass, faces.tiles, faces.tile_uvs,
                                                       faces.directions, faces.merge_cells)))
    if merge:
        kept = merge_faces(kept)
    return _scaled(kept, np.arange(kept.face_count))


def mesh_section_lod(padded: np.ndarray, light: np.ndarray | None = None, merge: bool = True,
                     facing: bool = False) -> tuple[CompactMesh, CompactMesh, CompactMesh]:
    """(opaque, cut-out, blended) packed parts of the section's coarse mesh, as
    `meshing_merge.mesh_section_compact` gives the fine ones (same arguments, same raises). A section
    whose every cell hides faces (`meshing.hides_every_face`) coarsens to cells that all do: no faces."""
    if hides_every_face(padded, light):
        return pack_section_faces(None, facing)
    return pack_section_faces(lod_faces(padded, light, merge), facing)
