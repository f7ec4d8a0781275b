"""The block texture atlas layout: where each tile and each hotbar icon sits, in pixels and in UVs.

Owns: the geometry of `assets/textures/atlas.png` and `assets/textures/icons.png` (tile size,
gutter, grid, image size) and the mapping tile index -> UV rectangle the mesher uses.
Does not own: what the tiles look like (`assets/make_atlas.py` paints them), which block uses
which tile (`blocks.FACE_TILES`), or loading the image (the renderer does that).

Atlas layout: a grid of ATLAS_COLUMNS x ATLAS_ROWS cells of CELL_PIXELS; tile i (the i-th name
of `blocks.TILE_NAMES`) sits in cell (i % ATLAS_COLUMNS, i // ATLAS_COLUMNS), counted from the
image's top-left, its 16x16 pixels centred in the cell with a GUTTER_PIXELS border around them.
ATLAS_ROWS is the fewest rows, rounded up to a power of two, that hold every tile.

Icons layout: a grid of ICON_COLUMNS columns of ICON_PIXELS squares, icon i = block id i (air's
icon is empty), counted from the top-left; ICON_ROWS is rounded up to a power of two the same way.

Both images are powers of two on each side: Panda3D's default (`textures-power-2 down`) would
otherwise rescale them on loading, moving texels off the pixel grid the UVs assume.

UVs follow Panda3D: u grows to the right, v grows upwards (v = 0 is the image's bottom row).
"""

from __future__ import annotations

import numpy as np

from .blocks import COUNT, TILE_NAMES

TILE_PIXELS = 16
"""[pixels] Width and height of one tile's artwork."""

GUTTER_PIXELS = 8
"""[pixels] Border around each tile filled with copies of the tile's edge pixels.

With nearest filtering, a fragment at a tile edge (and, far away, any fragment whose UV lands a
rounding error past the edge) samples the texel just outside the tile's rectangle; the gutter
makes that texel the tile's own edge colour, so no neighbouring tile bleeds in and UVs need no
inset. 1 px would do for that; 8 px makes cells 32 px, so the atlas is a power of two (Ursina
pads other sizes) and stays clean if mipmaps down to 4x4 tiles (level 2) are ever switched on.
"""


def _power_of_two_at_least(count: int) -> int:
    """The smallest power of two >= `count` (>= 1)."""
    return 1 << max(0, count - 1).bit_length()


CELL_PIXELS = TILE_PIXELS + 2 * GUTTER_PIXELS
ATLAS_COLUMNS = 8
ATLAS_ROWS = _power_of_two_at_least(-(-len(TILE_NAMES) // ATLAS_COLUMNS))
ATLAS_WIDTH_PIXELS = ATLAS_COLUMNS * CELL_PIXELS
ATLAS_HEIGHT_PIXELS = ATLAS_ROWS * CELL_PIXELS
TILE_COUNT = len(TILE_NAMES)

ICON_PIXELS = 32
"""[pixels] Width and height of one hotbar icon."""
ICON_COLUMNS = 8
ICON_ROWS = _power_of_two_at_least(-(-COUNT // ICON_COLUMNS))
ICONS_WIDTH_PIXELS = ICON_COLUMNS * ICON_PIXELS
ICONS_HEIGHT_PIXELS = ICON_ROWS * ICON_PIXELS

ATLAS_FILE = "assets/textures/atlas.png"
ICONS_FILE = "assets/textures/icons.png"
"""Paths of the generated images, relative to the repository root."""


def _check_index(index: object, count: int, what: str) -> int:
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
        raise TypeError(f"{what} must be an int, got {type(index).__name__}")
    if not 0 <= index < count:
        raise ValueError(f"{what} {index} is out of range (0..{count - 1})")
    return int(index)


def tile_origin_pixels(tile: int) -> tuple[int, int]:
    """(column, row) pixel of the top-left artwork pixel of `tile` in the atlas image (rows grow down)."""
    tile = _check_index(tile, TILE_COUNT, "tile index")
    column, row = tile % ATLAS_COLUMNS, tile // ATLAS_COLUMNS
    return column * CELL_PIXELS + GUTTER_PIXELS, row * CELL_PIXELS + GUTTER_PIXELS


def tile_uv_rect(tile: int) -> tuple[float, float, float, float]:
    """(u_min, v_min, u_max, v_max) of `tile`'s 16x16 artwork, exactly its pixel edges (no inset)."""
    return _square_uv_rect(*tile_origin_pixels(tile), TILE_PIXELS, ATLAS_WIDTH_PIXELS, ATLAS_HEIGHT_PIXELS)


def icon_origin_pixels(block: int) -> tuple[int, int]:
    """(column, row) pixel of the top-left corner of block id `block`'s icon in the icons image."""
    block = _check_index(block, COUNT, "block id")
    return (block % ICON_COLUMNS) * ICON_PIXELS, (block // ICON_COLUMNS) * ICON_PIXELS


def icon_uv_rect(block: int) -> tuple[float, float, float, float]:
    """(u_min, v_min, u_max, v_max) of block id `block`'s icon in the icons image."""
    return _square_uv_rect(*icon_origin_pixels(block), ICON_PIXELS, ICONS_WIDTH_PIXELS, ICONS_HEIGHT_PIXELS)


def _square_uv_rect(left: int, top: int, size: int, image_width: int, image_height: int
                    ) -> tuple[float, float, float, float]:
    """(u_min, v_min, u_max, v_max) of the `size`-pixel square whose top-left pixel is (left, top)
    in an image of `image_width` x `image_height` pixels (rows grow down, v grows up)."""
    return (left / image_width, 1.0 - (top + size) / image_height,
            (left + size) / image_width, 1.0 - top / image_height)
