"""Paints the block texture atlas and the hotbar icons: `python -m assets.make_atlas [--out DIR]`.

Owns: what every tile looks like (16x16 pixel art from seeded noise and simple patterns; nothing
copied) and the icon drawings, and writing `atlas.png` and `icons.png` (default into
assets/textures/). Deterministic: every tile draws from its own generator seeded by the tile's
name, so the same code writes byte-identical files.
Does not own: the layout (`game/world/atlas.py`: cell grid, gutters, icon grid) or which block
uses which tile (`game/world/blocks.py`); icons are drawn from the mesher's quads and shading,
except plants' and the torch's, which are their tile, flat, as in Beta's inventory.
"""

from __future__ import annotations

import argparse
import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from game.world import atlas, blocks
from game.world.meshing import FACE_SHADE, quads_of_block

SIZE = atlas.TILE_PIXELS
_ROWS, _COLS = np.indices((SIZE, SIZE))
Palette = list[tuple[int, int, int]]


# --- noise and drawing helpers (all tileable: patterns wrap around the tile's edges) --------


def _value_noise(rng: np.random.Generator, cells: int, cells_x: int | None = None) -> np.ndarray:
    """Smooth tileable noise in 0..1: a random lattice of cells (rows) x cells_x (columns), bilinear."""
    cells_x = cells_x or cells
    lattice = rng.random((cells, cells_x))
    fy = _ROWS * cells / SIZE
    fx = _COLS * cells_x / SIZE
    y0, x0 = np.floor(fy).astype(int), np.floor(fx).astype(int)
    ty, tx = fy - y0, fx - x0
    y1, x1 = (y0 + 1) % cells, (x0 + 1) % cells_x
    top = lattice[y0, x0] * (1 - tx) + lattice[y0, x1] * tx
    bottom = lattice[y1, x0] * (1 - tx) + lattice[y1, x1] * tx
    return top * (1 - ty) + bottom * ty


def _texture(rng: np.random.Generator, coarse: float, fine: float, grain: float) -> np.ndarray:
    """A 0..1 field mixing 4-cell noise, 8-cell noise and per-pixel grain in the given weights."""
    field = coarse * _value_noise(rng, 4) + fine * _value_noise(rng, 8) + grain * rng.random((SIZE, SIZE))
    return field / (coarse + fine + grain)


def _paint(field: np.ndarray, palette: Palette) -> np.ndarray:
    """RGBA pixels: each field value (0..1) picks a palette colour, dark to light."""
    index = np.clip((field * len(palette)).astype(int), 0, len(palette) - 1)
    rgb = np.array(palette, dtype=np.uint8)[index]
    return np.dstack([rgb, np.full((SIZE, SIZE), 255, np.uint8)])


def _stretch(field: np.ndarray) -> np.ndarray:
    """The field rescaled to span 0..1 exactly, so every palette colour gets used."""
    low, high = field.min(), field.max()
    return (field - low) / (high - low) if high > low else np.zeros_like(field)


def _cells(rng: np.random.Generator, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Tileable Voronoi cells: (index of the nearest seed, its distance, second-nearest distance) per pixel."""
    seeds = rng.random((count, 2)) * SIZE
    dy = np.abs(_ROWS[..., None] + 0.5 - seeds[:, 0])
    dx = np.abs(_COLS[..., None] + 0.5 - seeds[:, 1])
    distance = np.hypot(np.minimum(dy, SIZE - dy), np.minimum(dx, SIZE - dx))
    order = np.argsort(distance, axis=2)
    nearest = np.take_along_axis(distance, order[..., :2], axis=2)
    return order[..., 0], nearest[..., 0], nearest[..., 1]


def _rgba(color: tuple[int, ...], alpha: int = 255) -> np.ndarray:
    return np.array((*color[:3], alpha), dtype=np.uint8)


# --- the tiles ---------------------------------------------------------------------------------

GREYS: Palette = [(100, 100, 100), (113, 113, 113), (125, 125, 125), (136, 136, 136), (148, 148, 148)]
DIRT: Palette = [(96, 66, 44), (112, 79, 53), (128, 92, 63), (143, 105, 74)]
GRASS: Palette = [(66, 122, 38), (80, 140, 46), (95, 157, 54), (112, 172, 64)]
BARK: Palette = [(70, 53, 32), (88, 67, 40), (104, 81, 50), (119, 94, 60)]
WOOD: Palette = [(138, 104, 60), (156, 119, 71), (172, 133, 82), (186, 147, 94)]


def _stone(rng: np.random.Generator) -> np.ndarray:
    return _paint(_stretch(_texture(rng, 0.5, 0.3, 0.35)), GREYS)


def _cobblestone(rng: np.random.Generator) -> np.ndarray:
    owner, nearest, second = _cells(rng, 9)
    base = rng.random(9)[owner] * 0.35 + 0.45 - nearest * 0.05 + rng.random((SIZE, SIZE)) * 0.2
    greys = [(92, 92, 92), (110, 110, 110), (128, 128, 128), (146, 146, 146), (160, 160, 160)]
    tile = _paint(np.clip(base, 0, 1), greys)
    tile[second - nearest < 1.1] = _rgba((64, 64, 66))
    return tile


def _dirt(rng: np.random.Generator) -> np.ndarray:
    tile = _paint(_stretch(_texture(rng, 0.4, 0.3, 0.5)), DIRT)
    tile[rng.random((SIZE, SIZE)) < 0.04] = _rgba((156, 128, 100))
    return tile


def _grass_top(rng: np.random.Generator) -> np.ndarray:
    tile = _paint(_stretch(_texture(rng, 0.35, 0.25, 0.6)), GRASS)
    tile[rng.random((SIZE, SIZE)) < 0.05] = _rgba((128, 186, 74))
    return tile


def _grass_side(rng: np.random.Generator) -> np.ndarray:
    tile = _dirt(rng)
    green = _grass_top(rng)
    depth = 3 + rng.integers(0, 2, SIZE) + (rng.random(SIZE) < 0.3) * rng.integers(1, 4, SIZE)
    under = _ROWS < depth[None, :]
    tile[under] = green[under]
    edge = _ROWS == depth[None, :] - 1
    tile[edge] = _rgba((58, 104, 34))
    return tile


def _sand(rng: np.random.Generator) -> np.ndarray:
    palette = [(204, 190, 144), (213, 200, 154), (221, 209, 164), (229, 218, 176)]
    return _paint(_stretch(_texture(rng, 0.25, 0.25, 0.7)), palette)


def _gravel(rng: np.random.Generator) -> np.ndarray:
    owner, nearest, second = _cells(rng, 18)
    stones = np.array([(96, 92, 90), (120, 114, 110), (140, 134, 128), (112, 104, 96), (158, 150, 144)], np.uint8)
    rgb = stones[rng.integers(0, len(stones), 18)][owner]
    tile = np.dstack([rgb, np.full((SIZE, SIZE), 255, np.uint8)])
    tile[second - nearest < 0.8] = _rgba((78, 72, 70))
    return tile


def _bedrock(rng: np.random.Generator) -> np.ndarray:
    palette = [(34, 34, 36), (58, 58, 60), (86, 86, 88), (118, 118, 120), (150, 150, 152)]
    return _paint(_stretch(_texture(rng, 0.6, 0.2, 0.6)), palette)


def _log_side(rng: np.random.Generator) -> np.ndarray:
    streaks = _value_noise(rng, 2, 16) * 0.7 + rng.random((SIZE, SIZE)) * 0.3
    tile = _paint(_stretch(streaks), BARK)
    grooves = rng.choice(SIZE, 4, replace=False)
    groove = np.isin(_COLS, grooves) & (_value_noise(rng, 4, 1) > 0.3)
    tile[groove] = _rgba((52, 38, 22))
    return tile


def _log_top(rng: np.random.Generator) -> np.ndarray:
    radius = np.hypot(_ROWS - 7.5, _COLS - 7.5) + (_value_noise(rng, 4) - 0.5) * 0.8
    rings = (np.floor(radius * 0.9) % 2 == 0)
    tile = _paint(0.25 + 0.5 * rings + 0.2 * rng.random((SIZE, SIZE)), WOOD)
    tile[np.hypot(_ROWS - 7.5, _COLS - 7.5) < 1.2] = _rgba((122, 90, 52))
    border = np.minimum(np.minimum(_ROWS, 15 - _ROWS), np.minimum(_COLS, 15 - _COLS)) == 0
    tile[border] = _log_side(rng)[border]
    return tile


def _leaves(rng: np.random.Generator) -> np.ndarray:
    palette = [(38, 88, 28), (50, 106, 36), (64, 124, 44), (80, 142, 54)]
    tile = _paint(_stretch(_texture(rng, 0.3, 0.3, 0.6)), palette)
    tile[rng.random((SIZE, SIZE)) < 0.2, 3] = 0
    return tile


def _planks(rng: np.random.Generator) -> np.ndarray:
    grain = _value_noise(rng, 8, 2) * 0.6 + rng.random((SIZE, SIZE)) * 0.4
    board = _ROWS // 4
    tile = _paint(_stretch(grain + rng.random(4)[board] * 0.5), WOOD)
    tile[_ROWS % 4 == 3] = _rgba((104, 76, 42))
    joints = np.array([3, 11, 7, 15])[board]
    tile[(_COLS == joints) & (_ROWS % 4 != 3)] = _rgba((118, 88, 50))
    return tile


def _glass(rng: np.random.Generator) -> np.ndarray:
    tile = np.zeros((SIZE, SIZE, 4), np.uint8)
    tile[...] = _rgba((210, 232, 240), 24)
    border = np.minimum(np.minimum(_ROWS, 15 - _ROWS), np.minimum(_COLS, 15 - _COLS)) == 0
    tile[border] = _rgba((226, 240, 246), 210)
    diagonal = _ROWS + _COLS
    shine = ((diagonal == 5) | (diagonal == 7)) & (_ROWS > 1) & (_COLS > 1) | ((diagonal == 21) & (_ROWS < 14))
    tile[shine] = _rgba((255, 255, 255), 140)
    tile[(rng.random((SIZE, SIZE)) < 0.03) & ~border] = _rgba((255, 255, 255), 60)
    return tile


def _ice(rng: np.random.Generator) -> np.ndarray:
    palette = [(132, 172, 232), (146, 186, 240), (162, 198, 246), (182, 214, 250)]
    tile = _paint(_stretch(_texture(rng, 0.5, 0.3, 0.3)), palette)
    tile[..., 3] = 176
    streak = (_ROWS - 2 * _COLS) % 16 == 0
    tile[streak & (_value_noise(rng, 4) > 0.4)] = _rgba((214, 232, 255), 200)
    return tile


def _brick(rng: np.random.Generator) -> np.ndarray:
    course = _ROWS // 4
    brick = (_COLS + 4 * (course % 2)) // 8 % 2 + 2 * course
    shade = rng.random(8)[brick] * 0.6 + rng.random((SIZE, SIZE)) * 0.4
    tile = _paint(_stretch(shade), [(132, 56, 42), (148, 66, 50), (162, 76, 58), (176, 88, 66)])
    mortar = (_ROWS % 4 == 3) | ((_COLS + 4 * (course % 2)) % 8 == 7)
    tile[mortar] = _rgba((176, 168, 156))
    return tile


def _smooth_stone(rng: np.random.Generator) -> np.ndarray:
    palette = [(150, 150, 150), (158, 158, 158), (166, 166, 166), (172, 172, 172)]
    tile = _paint(_stretch(_texture(rng, 0.3, 0.2, 0.5)), palette)
    border = np.minimum(np.minimum(_ROWS, 15 - _ROWS), np.minimum(_COLS, 15 - _COLS)) == 0
    tile[border] = _rgba((118, 118, 118))
    return tile


def _slab_side(rng: np.random.Generator) -> np.ndarray:
    tile = _smooth_stone(rng)
    tile[(_ROWS == 7) | (_ROWS == 8)] = _rgba((118, 118, 118))
    return tile


def _carpet(rng: np.random.Generator) -> np.ndarray:
    weave = ((_ROWS + _COLS) % 2) * 0.25 + rng.random((SIZE, SIZE)) * 0.75
    return _paint(_stretch(weave), [(142, 38, 40), (160, 48, 48), (176, 58, 56), (190, 70, 64)])


def _water(rng: np.random.Generator) -> np.ndarray:
    ripples = _value_noise(rng, 2, 4) * 0.5 + np.sin((_ROWS + 2 * _value_noise(rng, 4)) * np.pi / 4) * 0.25 + 0.25
    palette = [(38, 72, 168), (46, 84, 184), (56, 98, 198), (70, 114, 212), (92, 136, 224)]
    tile = _paint(_stretch(ripples + rng.random((SIZE, SIZE)) * 0.15), palette)
    tile[..., 3] = 168
    return tile


def _lava(rng: np.random.Generator) -> np.ndarray:
    heat = _value_noise(rng, 4) * 0.55 + _value_noise(rng, 8) * 0.3 + rng.random((SIZE, SIZE)) * 0.15
    palette = [(178, 46, 8), (206, 74, 12), (228, 110, 18), (240, 148, 30), (250, 190, 60), (255, 226, 110)]
    return _paint(_stretch(heat), palette)


def _ladder(rng: np.random.Generator) -> np.ndarray:
    tile = np.zeros((SIZE, SIZE, 4), np.uint8)
    wood = _paint(_stretch(_value_noise(rng, 8, 2) * 0.6 + rng.random((SIZE, SIZE)) * 0.4), WOOD)
    rails = (_COLS == 2) | (_COLS == 3) | (_COLS == 12) | (_COLS == 13)
    rungs = ((_ROWS % 4 == 1) | (_ROWS % 4 == 2)) & (_COLS > 3) & (_COLS < 12)
    tile[rails | rungs] = wood[rails | rungs]
    tile[rails & (_COLS % 2 == 1)] = _rgba((112, 82, 46))  # the rails' shaded edge
    return tile


def _cobweb(rng: np.random.Generator) -> np.ndarray:
    tile = np.zeros((SIZE, SIZE, 4), np.uint8)
    centre_r, centre_c = _ROWS - 7.5, _COLS - 7.5
    spokes = (np.abs(centre_r) < 0.6) | (np.abs(centre_c) < 0.6) | (np.abs(_ROWS - _COLS) < 0.6) \
        | (np.abs(_ROWS + _COLS - 15) < 0.6)
    radius = np.maximum(np.abs(centre_r), np.abs(centre_c)) + 0.5 * np.minimum(np.abs(centre_r), np.abs(centre_c))
    rings = np.isin(np.round(radius), (3, 6, 9))
    threads = (spokes | rings) & (rng.random((SIZE, SIZE)) < 0.9)
    tile[threads] = _rgba((228, 228, 232), 220)
    return tile


def _soul_sand(rng: np.random.Generator) -> np.ndarray:
    palette = [(58, 42, 32), (72, 54, 42), (86, 66, 52), (100, 78, 62)]
    tile = _paint(_stretch(_texture(rng, 0.4, 0.3, 0.5)), palette)
    for _ in range(3):  # Beta's faces in the sand: two eyes and a mouth, dark
        r, c = rng.integers(1, SIZE - 4, 2)
        tile[r, c] = tile[r, c + 2] = _rgba((40, 28, 22))
        tile[r + 2, c:c + 3] = _rgba((40, 28, 22))
    return tile


CACTUS: Palette = [(30, 92, 30), (38, 110, 36), (48, 126, 42), (60, 140, 50)]


def _cactus_side(rng: np.random.Generator) -> np.ndarray:
    ribs = (np.cos(_COLS * np.pi / 2) * 0.5 + 0.5) * 0.6 + rng.random((SIZE, SIZE)) * 0.4
    tile = _paint(_stretch(ribs), CACTUS)
    spines = (_COLS % 4 == 1) & (_ROWS % 4 == (_COLS // 4) % 4) & (rng.random((SIZE, SIZE)) < 0.8)
    tile[spines] = _rgba((226, 226, 196))
    return tile


def _cactus_top(rng: np.random.Generator) -> np.ndarray:
    tile = _paint(_stretch(_texture(rng, 0.3, 0.3, 0.5)), CACTUS)
    ring = np.hypot(_ROWS - 7.5, _COLS - 7.5)
    tile[(ring > 5.0) & (ring < 6.2)] = _rgba((28, 80, 28))
    tile[ring < 1.5] = _rgba((70, 150, 58))
    return tile


def _obsidian(rng: np.random.Generator) -> np.ndarray:
    palette = [(14, 10, 22), (22, 16, 34), (32, 24, 48), (44, 32, 64)]
    tile = _paint(_stretch(_texture(rng, 0.5, 0.3, 0.4)), palette)
    glints = (_value_noise(rng, 4) > 0.62) & (rng.random((SIZE, SIZE)) < 0.35)
    tile[glints] = _rgba((86, 64, 120))  # Beta's purple glassy streaks
    return tile


ORE_SPECKS = {
    "coal_ore": ((34, 34, 34), (62, 62, 62)),
    "iron_ore": ((196, 150, 118), (226, 192, 166)),
    "gold_ore": ((226, 196, 44), (252, 238, 110)),
    "redstone_ore": ((170, 14, 14), (228, 40, 40)),
    "diamond_ore": ((64, 200, 210), (150, 244, 248)),
}
"""Ore tile -> (speck colour, its highlight): each ore is stone with clusters of coloured specks."""
ORE_SPECK_SHARE = 0.22
"""Share of an ore tile's pixels that are specks: a few clusters, clearly not plain stone."""


def _ore(name: str) -> Callable[[np.random.Generator], np.ndarray]:
    """The painter of ore tile `name`: its own stone, then speck clusters where a coarse noise peaks,
    the upper-left pixel of each speck pair lit."""
    colour, light = ORE_SPECKS[name]

    def paint(rng: np.random.Generator) -> np.ndarray:
        tile = _stone(rng)
        field = _value_noise(rng, 4) * 0.6 + rng.random((SIZE, SIZE)) * 0.4
        specks = field >= np.quantile(field, 1.0 - ORE_SPECK_SHARE)
        tile[specks] = _rgba(colour)
        lit = specks & ~np.roll(specks, 1, axis=0) & ~np.roll(specks, 1, axis=1)
        tile[lit] = _rgba(light)
        return tile

    return paint


TORCH_COLUMNS = (7, 8)
"""[pixels] The tile columns a torch's post shows: the mesher draws it 2/16 wide in the cell's middle."""
TORCH_FLAME_ROWS = 3
"""[pixels] Rows of flame at the top of the stick (rows 6-8; the post's top face shows rows 7-8)."""
TORCH_TOP_ROW = 6
"""[pixels] The stick's top row: the post is 10/16 tall, and side faces show rows 6..15."""


def _torch(rng: np.random.Generator) -> np.ndarray:
    """A stick with a flame on top, in the middle two columns; clear elsewhere. The clear pixels keep
    their row's colour (alpha 0), so the opaque pass, which ignores alpha, shows the stick even where a
    sample lands a rounding error outside the post's two columns."""
    stick = _paint(_stretch(_value_noise(rng, 8, 2) * 0.6 + rng.random((SIZE, SIZE)) * 0.4), WOOD)
    flame = _paint(_stretch(rng.random((SIZE, SIZE))), [(255, 196, 60), (255, 222, 96), (255, 246, 170)])
    column = stick[:, TORCH_COLUMNS[0]:TORCH_COLUMNS[1] + 1].copy()
    rows = slice(TORCH_TOP_ROW, TORCH_TOP_ROW + TORCH_FLAME_ROWS)
    column[rows] = flame[rows, TORCH_COLUMNS[0]:TORCH_COLUMNS[1] + 1]
    tile = np.repeat(column[:, :1], SIZE, axis=1)
    tile[:, TORCH_COLUMNS[0]:TORCH_COLUMNS[1] + 1] = column
    tile[..., 3] = 0
    post = (_COLS >= TORCH_COLUMNS[0]) & (_COLS <= TORCH_COLUMNS[1]) & (_ROWS >= TORCH_TOP_ROW)
    tile[post, 3] = 255
    return tile


STEM = (52, 118, 32)


def _stem(rng: np.random.Generator, top_row: int) -> np.ndarray:
    """A clear tile with a one-pixel green stem from `top_row` to the bottom, wavering a little, and two leaves."""
    tile = np.zeros((SIZE, SIZE, 4), np.uint8)
    column = 7 + np.cumsum(rng.integers(-1, 2, SIZE) * (rng.random(SIZE) < 0.2))
    for row in range(top_row, SIZE):
        tile[row, int(np.clip(column[row], 5, 10))] = _rgba(STEM)
    for row, side in ((SIZE - 5, -1), (SIZE - 8, 1)):
        c = int(np.clip(column[row], 5, 10))
        tile[row, c + side] = tile[row - 1, c + 2 * side] = _rgba((70, 140, 40))
    return tile


def _blossom(tile: np.ndarray, rng: np.random.Generator, centre: tuple[int, int], radius: float,
             petals: Palette, heart: tuple[int, int, int]) -> np.ndarray:
    """`tile` with a round blossom of `petals` (ragged at the edge) and a `heart` pixel block at `centre`."""
    r, c = centre
    distance = np.hypot(_ROWS - r, _COLS - c)
    petal = distance <= radius + (rng.random((SIZE, SIZE)) - 0.5) * 0.8
    shade = _paint(_stretch(rng.random((SIZE, SIZE)) + (radius - distance) * 0.3), petals)
    tile[petal] = shade[petal]
    tile[distance < 1.0] = _rgba(heart)
    return tile


def _dandelion(rng: np.random.Generator) -> np.ndarray:
    tile = _stem(rng, 8)
    return _blossom(tile, rng, (6, 7.5), 2.6, [(214, 176, 10), (240, 206, 24), (255, 232, 60)], (196, 132, 8))


def _rose(rng: np.random.Generator) -> np.ndarray:
    tile = _stem(rng, 7)
    return _blossom(tile, rng, (5, 7.5), 2.8, [(150, 14, 18), (184, 24, 28), (214, 44, 40)], (110, 8, 12))


def _tall_grass(rng: np.random.Generator) -> np.ndarray:
    """Blades rising from the bottom row to ragged heights, leaning a little; clear between them."""
    tile = np.zeros((SIZE, SIZE, 4), np.uint8)
    shades = _paint(_stretch(_texture(rng, 0.3, 0.3, 0.6)), GRASS)
    for start in rng.choice(np.arange(1, SIZE - 1), 9, replace=False):
        height = int(rng.integers(6, 14))
        lean = float(rng.uniform(-0.35, 0.35))
        for step in range(height):
            row, col = SIZE - 1 - step, int(round(start + lean * step))
            if 0 <= col < SIZE:
                tile[row, col] = shades[row, col]
    return tile



# --- survival's tiles: workstations, containers, doors, beds, saplings and crafted blocks ---------


def _border(width: int = 1) -> np.ndarray:
    """A mask of the tile's outermost `width` pixels."""
    return np.minimum(np.minimum(_ROWS, 15 - _ROWS), np.minimum(_COLS, 15 - _COLS)) < width


def _crafting_table_top(rng: np.random.Generator) -> np.ndarray:
    """Planks with a dark frame and a 3x3 grid scored into the middle."""
    tile = _planks(rng)
    tile[_border()] = _rgba((92, 64, 34))
    grid = ((_ROWS == 5) | (_ROWS == 10) | (_COLS == 5) | (_COLS == 10)) & ~_border(2)
    tile[grid] = _rgba((108, 78, 44))
    return tile


def _crafting_table_side(rng: np.random.Generator) -> np.ndarray:
    """Planks under a darker top band (the table's edge)."""
    tile = _planks(rng)
    tile[_ROWS < 3] = _rgba((112, 82, 46))
    tile[_ROWS == 3] = _rgba((86, 60, 32))
    return tile


def _crafting_table_front(rng: np.random.Generator) -> np.ndarray:
    """The side, with a saw and a hammer hanging on it."""
    tile = _crafting_table_side(rng)
    tile[(_ROWS >= 6) & (_ROWS <= 12) & (_COLS == 4)] = _rgba((120, 120, 124))
    tile[(_ROWS >= 6) & (_ROWS <= 12) & (_COLS == 5) & (_ROWS % 2 == 0)] = _rgba((150, 150, 156))
    tile[(_ROWS >= 7) & (_ROWS <= 13) & (_COLS == 11)] = _rgba((96, 68, 36))
    tile[(_ROWS == 6) & (_COLS >= 9) & (_COLS <= 13)] = _rgba((110, 110, 116))
    return tile


def _furnace_side(rng: np.random.Generator) -> np.ndarray:
    """Smooth grey stone with a darker rim."""
    tile = _paint(_stretch(_texture(rng, 0.3, 0.2, 0.5)), GREYS)
    tile[_border()] = _rgba((92, 92, 92))
    return tile


def _furnace_top(rng: np.random.Generator) -> np.ndarray:
    tile = _furnace_side(rng)
    tile[~_border(3) & _border(4)] = _rgba((104, 104, 104))
    return tile


FURNACE_MOUTH = (slice(8, 14), slice(4, 12))
"""[pixels] The furnace front's opening (rows, columns)."""


def _furnace_front(rng: np.random.Generator) -> np.ndarray:
    """The side with a dark opening low in the middle and a grate above it."""
    tile = _furnace_side(rng)
    tile[FURNACE_MOUTH] = _rgba((26, 26, 28))
    tile[(_ROWS == 4) & (_COLS >= 4) & (_COLS <= 11)] = _rgba((60, 60, 62))
    return tile


def _furnace_front_lit(rng: np.random.Generator) -> np.ndarray:
    """The front with fire in its opening."""
    tile = _furnace_front(rng)
    fire = _paint(_stretch(rng.random((SIZE, SIZE)) + (_ROWS - 8) * 0.1),
                  [(200, 60, 10), (236, 112, 20), (250, 170, 40), (255, 226, 110)])
    tile[FURNACE_MOUTH] = fire[FURNACE_MOUTH]
    return tile


def _chest_side(rng: np.random.Generator) -> np.ndarray:
    """Planks with a dark frame and the lid's seam."""
    tile = _planks(rng)
    tile[_border()] = _rgba((82, 56, 28))
    tile[_ROWS == 5] = _rgba((82, 56, 28))
    return tile


def _chest_top(rng: np.random.Generator) -> np.ndarray:
    tile = _planks(rng)
    tile[_border()] = _rgba((82, 56, 28))
    return tile


def _chest_front(rng: np.random.Generator) -> np.ndarray:
    """The side with an iron latch across the seam."""
    tile = _chest_side(rng)
    tile[4:8, 7:9] = _rgba((170, 170, 176))
    tile[6, 7:9] = _rgba((60, 60, 64))
    return tile


def _door(rng: np.random.Generator, upper: bool) -> np.ndarray:
    """Vertical planks in a frame; the upper half has two small panes' frames, the lower a knob."""
    grain = _value_noise(rng, 2, 8) * 0.6 + rng.random((SIZE, SIZE)) * 0.4
    tile = _paint(_stretch(grain + rng.random(4)[_COLS // 4] * 0.4), WOOD)
    tile[_COLS % 4 == 3] = _rgba((118, 88, 50))
    tile[_border()] = _rgba((98, 70, 38))
    if upper:
        tile[(_ROWS >= 3) & (_ROWS <= 8) & ((_COLS == 3) | (_COLS == 7) | (_COLS == 8) | (_COLS == 12))] = \
            _rgba((98, 70, 38))
        tile[((_ROWS == 3) | (_ROWS == 8)) & (_COLS >= 3) & (_COLS <= 12)] = _rgba((98, 70, 38))
    else:
        tile[3:5, 11:13] = _rgba((60, 44, 24))
    return tile


RED_CLOTH: Palette = [(142, 26, 26), (160, 34, 32), (176, 44, 40), (190, 56, 50)]


def _bed_foot_top(rng: np.random.Generator) -> np.ndarray:
    """A red blanket with a lighter hem."""
    tile = _paint(_stretch(_texture(rng, 0.2, 0.3, 0.6)), RED_CLOTH)
    tile[_border()] = _rgba((204, 76, 66))
    return tile


def _bed_head_top(rng: np.random.Generator) -> np.ndarray:
    """A white pillow in the middle of the blanket."""
    tile = _bed_foot_top(rng)
    pillow = ~_border(3)
    white = _paint(_stretch(rng.random((SIZE, SIZE))), [(214, 214, 214), (228, 228, 228), (240, 240, 240)])
    tile[pillow] = white[pillow]
    return tile


def _bed_side(rng: np.random.Generator) -> np.ndarray:
    """The blanket's edge over the wooden frame."""
    tile = _planks(rng)
    cloth = _paint(_stretch(_texture(rng, 0.2, 0.3, 0.6)), RED_CLOTH)
    top = _ROWS < 11
    tile[top] = cloth[top]
    tile[top & (_ROWS < 7)] = _rgba((0, 0, 0), 0)
    return tile


def _sapling(rng: np.random.Generator) -> np.ndarray:
    """A thin stem with a small leafy crown; clear elsewhere."""
    tile = _stem(rng, 9)
    leaves = _paint(_stretch(rng.random((SIZE, SIZE))), [(38, 88, 28), (50, 106, 36), (64, 124, 44), (80, 142, 54)])
    crown = (np.hypot(_ROWS - 6.0, (_COLS - 7.5) * 0.8) < 4.2 + (rng.random((SIZE, SIZE)) - 0.5) * 1.2)
    tile[crown] = leaves[crown]
    return tile


def _wall_torch(rng: np.random.Generator) -> np.ndarray:
    """The torch raised for its lean (`blocks.WALL_TORCH_LEAN`: the post 3/16..13/16 up the cell): flame
    on rows 3-5, stick to row 12; every pixel keeps its row's colour (the opaque pass ignores alpha and
    each step of the post samples its own columns), the middle two columns opaque for the icon."""
    tile = np.roll(_torch(rng), -(TORCH_TOP_ROW - WALL_TORCH_TOP_ROW), axis=0)
    tile[:, :, :3] = tile[:, TORCH_COLUMNS[0]:TORCH_COLUMNS[0] + 1, :3]
    tile[SIZE - (TORCH_TOP_ROW - WALL_TORCH_TOP_ROW):, :, 3] = 0
    return tile


WALL_TORCH_TOP_ROW = 3
"""[pixels] A wall torch's top row: its post reaches 13/16 up the cell."""


def _metal_block(light: tuple[int, int, int], mid: tuple[int, int, int], dark: tuple[int, int, int]):
    """The painter of a block of metal: a bright face, a dark rim, a highlight along the top-left."""
    def paint(rng: np.random.Generator) -> np.ndarray:
        tile = _paint(_stretch(_texture(rng, 0.2, 0.2, 0.6)), [mid, light])
        tile[_border()] = _rgba(dark)
        tile[((_ROWS == 1) & (_COLS > 0) & (_COLS < 15)) | ((_COLS == 1) & (_ROWS > 0) & (_ROWS < 15))] = \
            _rgba(tuple(min(255, c + 24) for c in light))
        return tile
    return paint


def _wool(rng: np.random.Generator) -> np.ndarray:
    weave = ((_ROWS // 2 + _COLS // 2) % 2) * 0.2 + _texture(rng, 0.2, 0.3, 0.6) * 0.8
    return _paint(_stretch(weave), [(196, 196, 196), (210, 210, 210), (222, 222, 222), (234, 234, 234)])


def _clay(rng: np.random.Generator) -> np.ndarray:
    return _paint(_stretch(_texture(rng, 0.5, 0.3, 0.3)), [(146, 152, 164), (156, 162, 174), (164, 170, 182)])


SANDSTONE: Palette = [(204, 190, 144), (214, 200, 154), (222, 210, 164)]


def _sandstone_side(rng: np.random.Generator) -> np.ndarray:
    """Sand-coloured stone in layers, a darker band at the top and bottom."""
    tile = _paint(_stretch(_value_noise(rng, 2, 8) * 0.4 + rng.random((SIZE, SIZE)) * 0.6), SANDSTONE)
    tile[(_ROWS < 3) | (_ROWS > 12)] = _rgba((194, 178, 130))
    tile[(_ROWS == 3) | (_ROWS == 12)] = _rgba((178, 162, 116))
    return tile


def _sandstone_top(rng: np.random.Generator) -> np.ndarray:
    return _paint(_stretch(_texture(rng, 0.2, 0.3, 0.6)), SANDSTONE)


def _sandstone_bottom(rng: np.random.Generator) -> np.ndarray:
    tile = _sandstone_top(rng)
    tile[rng.random((SIZE, SIZE)) < 0.08] = _rgba((180, 164, 120))
    return tile


def _mushroom(cap: Palette, spots: tuple[int, int, int] | None):
    """The painter of a mushroom: a pale stalk under a round cap (with `spots` on it, if any)."""
    def paint(rng: np.random.Generator) -> np.ndarray:
        tile = np.zeros((SIZE, SIZE, 4), np.uint8)
        tile[(_ROWS >= 9) & (_ROWS <= 13) & (_COLS >= 7) & (_COLS <= 8)] = _rgba((222, 214, 196))
        dome = (np.hypot((_ROWS - 9.0) * 1.4, _COLS - 7.5) < 4.2) & (_ROWS <= 9)
        shade = _paint(_stretch(rng.random((SIZE, SIZE)) - _ROWS * 0.05), cap)
        tile[dome] = shade[dome]
        if spots is not None:
            tile[dome & (rng.random((SIZE, SIZE)) < 0.18)] = _rgba(spots)
        return tile
    return paint



PAINTERS: dict[str, Callable[[np.random.Generator], np.ndarray]] = {
    "stone": _stone, "cobblestone": _cobblestone, "dirt": _dirt, "grass_top": _grass_top,
    "grass_side": _grass_side, "sand": _sand, "gravel": _gravel, "bedrock": _bedrock,
    "log_side": _log_side, "log_top": _log_top, "leaves": _leaves, "planks": _planks,
    "glass": _glass, "ice": _ice, "brick": _brick, "slab_top": _smooth_stone,
    "slab_side": _slab_side, "carpet": _carpet, "water": _water, "lava": _lava, "ladder": _ladder,
    "cobweb": _cobweb, "soul_sand": _soul_sand, "cactus_side": _cactus_side, "cactus_top": _cactus_top,
    "obsidian": _obsidian, "torch": _torch, "dandelion": _dandelion, "rose": _rose, "tall_grass": _tall_grass,
    **{name: _ore(name) for name in ORE_SPECKS},
    "crafting_table_top": _crafting_table_top, "crafting_table_front": _crafting_table_front,
    "crafting_table_side": _crafting_table_side, "furnace_front": _furnace_front,
    "furnace_front_lit": _furnace_front_lit, "furnace_side": _furnace_side, "furnace_top": _furnace_top,
    "chest_top": _chest_top, "chest_side": _chest_side, "chest_front": _chest_front,
    "door_lower": lambda rng: _door(rng, upper=False), "door_upper": lambda rng: _door(rng, upper=True),
    "bed_head_top": _bed_head_top, "bed_foot_top": _bed_foot_top, "bed_side": _bed_side, "sapling": _sapling,
    "wall_torch": _wall_torch,
    "iron_block": _metal_block((222, 222, 222), (196, 196, 196), (140, 140, 140)),
    "gold_block": _metal_block((252, 232, 86), (236, 200, 40), (178, 138, 20)),
    "diamond_block": _metal_block((150, 240, 236), (104, 218, 212), (56, 150, 146)),
    "wool": _wool, "clay": _clay, "sandstone_top": _sandstone_top, "sandstone_side": _sandstone_side,
    "sandstone_bottom": _sandstone_bottom,
    "brown_mushroom": _mushroom([(120, 86, 60), (140, 102, 72), (156, 118, 86)], None),
    "red_mushroom": _mushroom([(170, 20, 20), (196, 30, 30), (218, 44, 40)], (236, 236, 236)),
}
"""Tile name -> painter of its 16x16 RGBA pixels; one per name in blocks.TILE_NAMES."""


def paint_tile(name: str) -> np.ndarray:
    """The (16, 16, 4) uint8 RGBA pixels of tile `name` (row 0 at the top), always the same."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return PAINTERS[name](rng)


# --- atlas and icons ---------------------------------------------------------------------------


def atlas_pixels() -> np.ndarray:
    """The whole atlas, (height, width, 4) uint8: each tile with its gutter of copied edge pixels."""
    image = np.zeros((atlas.ATLAS_HEIGHT_PIXELS, atlas.ATLAS_WIDTH_PIXELS, 4), np.uint8)
    gutter = atlas.GUTTER_PIXELS
    for tile, name in enumerate(blocks.TILE_NAMES):
        left, top = atlas.tile_origin_pixels(tile)
        padded = np.pad(paint_tile(name), ((gutter, gutter), (gutter, gutter), (0, 0)), mode="edge")
        image[top - gutter:top + SIZE + gutter, left - gutter:left + SIZE + gutter] = padded
    return image


ICON_UNIT_X = 14.0
"""[pixels] Screen x of one block along x (and -z) in the isometric icon view."""
ICON_UNIT_DEPTH = 7.0
"""[pixels] Screen y of one block along x or z: half of ICON_UNIT_X, the 2:1 pixel-art isometric."""
ICON_UNIT_Y = 16.0
"""[pixels] Screen height of one block along y."""
_ICON_VISIBLE_FACES = (blocks.EAST, blocks.TOP, blocks.SOUTH)
"""The faces the icon's viewer (above, to the east and south) sees."""


def _icon_point(corner: tuple[float, float, float]) -> tuple[float, float]:
    x, y, z = corner
    top = (atlas.ICON_PIXELS - 2 * ICON_UNIT_DEPTH - ICON_UNIT_Y) / 2
    return atlas.ICON_PIXELS / 2 + (x - z) * ICON_UNIT_X, top + (x + z) * ICON_UNIT_DEPTH + (1.0 - y) * ICON_UNIT_Y


def _icon(block: int, tiles: list[Image.Image]) -> Image.Image:
    """An isometric drawing of `block` from its mesher quads, shaded like the world's faces."""
    icon = Image.new("RGBA", (atlas.ICON_PIXELS, atlas.ICON_PIXELS), (0, 0, 0, 0))
    quads = [q for q in quads_of_block(block) if q.direction in _ICON_VISIBLE_FACES]
    for quad in sorted(quads, key=lambda q: sum(map(sum, q.corners))):  # far to near
        screen = [_icon_point(c) for c in quad.corners]
        texel = [(u * SIZE, (1.0 - v) * SIZE) for u, v in quad.tile_uvs]
        # The affine map screen -> texel through corners 0, 1 and 3 (pixel centres sampled).
        solve = np.array([[sx, sy, 1.0] for sx, sy in (screen[0], screen[1], screen[3])])
        coefficients = np.linalg.solve(solve, np.array([texel[0], texel[1], texel[3]]))
        tile = tiles[int(blocks.FACE_TILES[block, quad.direction])]
        face = tile.transform(icon.size, Image.Transform.AFFINE, tuple(coefficients.T.reshape(-1)),
                              resample=Image.Resampling.NEAREST)
        pixels = np.asarray(face).copy()
        pixels[..., :3] = (pixels[..., :3] * FACE_SHADE[quad.direction]).astype(np.uint8)
        mask = Image.new("L", icon.size, 0)
        ImageDraw.Draw(mask).polygon(screen, fill=255, outline=255)
        icon.paste(Image.fromarray(pixels), (0, 0), Image.fromarray(np.minimum(np.asarray(mask), pixels[..., 3])))
    return icon


SPRITE_ICONS = frozenset(np.flatnonzero(blocks.CROSS).tolist()) | {blocks.block_id("torch")} | {
    blocks.block_id(f"wall_torch_{side}") for side in blocks.SIDES}
"""Blocks whose icon is their tile drawn flat (plants, the torch): a 2/16-wide post or two crossed
quads would read as a sliver in isometric view; Beta's inventory shows these flat too."""


def _sprite_icon(block: int, tiles: list[Image.Image]) -> Image.Image:
    """Block `block`'s side tile scaled to the icon size, pixel for pixel (nearest)."""
    tile = tiles[int(blocks.FACE_TILES[block, blocks.SOUTH])]
    return tile.resize((atlas.ICON_PIXELS, atlas.ICON_PIXELS), Image.Resampling.NEAREST)


def icons_pixels() -> np.ndarray:
    """Every block's icon in the icons grid, (height, width, 4) uint8; air's stays empty."""
    tiles = [Image.fromarray(paint_tile(name)) for name in blocks.TILE_NAMES]
    image = Image.new("RGBA", (atlas.ICONS_WIDTH_PIXELS, atlas.ICONS_HEIGHT_PIXELS), (0, 0, 0, 0))
    for block in range(1, blocks.COUNT):
        icon = _sprite_icon(block, tiles) if block in SPRITE_ICONS else _icon(block, tiles)
        image.paste(icon, atlas.icon_origin_pixels(block))
    return np.asarray(image)


def generate(out_dir: Path) -> tuple[Path, Path]:
    """Write atlas.png and icons.png into `out_dir` (created if missing); returns their paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    atlas_path, icons_path = out_dir / Path(atlas.ATLAS_FILE).name, out_dir / Path(atlas.ICONS_FILE).name
    Image.fromarray(atlas_pixels()).save(atlas_path, optimize=False)
    Image.fromarray(icons_pixels()).save(icons_path, optimize=False)
    return atlas_path, icons_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m assets.make_atlas", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(atlas.ATLAS_FILE).parent, help="output folder")
    args = parser.parse_args(argv)
    for path in generate(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
