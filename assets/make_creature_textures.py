"""Paints the creatures' textures: `python -m assets.make_creature_textures [--out DIR]`.

Owns: what each creature's skin looks like (pig, cow, sheep and its wool, chicken, zombie, skeleton, spider,
creeper: flat materials with seeded noise, and faces, patches, ribs and eyes painted on the faces of the
boxes that show them; nothing copied), and writing them as 64 x 32 RGBA PNGs into
assets/textures/creatures/. Deterministic: every texture draws from its own generator seeded by its name,
so the same code writes byte-identical files.
Does not own: the layout (which box's faces lie where: `game.window.render.creature_models`, Beta's box
unwrap), drawing the models (`game.window.render.entity_view`).

Texels no box uses stay fully transparent.
"""

from __future__ import annotations

import argparse
import zlib
from pathlib import Path

import numpy as np
from PIL import Image

from game.window.render.creature_models import KINDS, SHAPES, TEXTURE_SIZE, Cube, face_rects

OUT_DIR = Path(__file__).resolve().parent / "textures" / "creatures"
NOISE = 14
"""[RGB levels] Half-range of the per-texel noise on every material: enough to read as fur or skin."""

Rgb = tuple[int, int, int]
PINK, PINK_DARK = (236, 160, 158), (214, 118, 128)
COW_BROWN, COW_WHITE, HORN, UDDER = (74, 52, 36), (226, 222, 214), (196, 190, 170), (226, 150, 150)
SHEEP_SKIN, SHEEP_FACE, WOOL = (222, 196, 176), (200, 180, 162), (236, 236, 230)
FEATHER, BEAK, WATTLE, CHICKEN_LEG = (244, 244, 240), (240, 166, 40), (200, 30, 30), (228, 168, 48)
ZOMBIE_SKIN, SHIRT, TROUSERS, SHOES = (82, 138, 72), (0, 160, 164), (58, 56, 140), (52, 52, 58)
BONE, BONE_DARK = (204, 204, 200), (70, 70, 70)
SPIDER_BODY, SPIDER_EYE = (54, 44, 38), (210, 20, 20)
CREEPER_GREEN = (88, 172, 72)
EYE_WHITE, PUPIL, HOLE = (240, 240, 240), (20, 20, 24), (24, 24, 24)


def _fill(image: np.ndarray, rect: tuple[int, int, int, int], rgb: Rgb, rng: np.random.Generator,
          noise: int = NOISE) -> None:
    left, top, width, height = rect
    jitter = rng.integers(-noise, noise + 1, (height, width, 1)) if noise else np.zeros((height, width, 1), int)
    colour = np.clip(np.array(rgb)[None, None, :] + jitter, 0, 255)
    image[top:top + height, left:left + width, :3] = colour
    image[top:top + height, left:left + width, 3] = 255


def _dot(image: np.ndarray, rect: tuple[int, int, int, int], x: int, y: int, rgb: Rgb, w: int = 1, h: int = 1) -> None:
    """Colour texels (x..x+w, y..y+h) of a face's picture (0, 0: its top-left)."""
    left, top, _, _ = rect
    image[top + y:top + y + h, left + x:left + x + w, :3] = rgb
    image[top + y:top + y + h, left + x:left + x + w, 3] = 255


def _paint_cube(image: np.ndarray, cube: Cube, rgb: Rgb, rng: np.random.Generator) -> None:
    for rect in face_rects(cube).values():
        _fill(image, rect, rgb, rng)


def _eyes(image: np.ndarray, front: tuple[int, int, int, int], row: int, inset: int, rgb: Rgb = PUPIL,
          white: bool = True) -> None:
    """Two eyes on a front face, `inset` texels in from each side at `row`: a white texel beside a dark one."""
    width = front[2]
    for x, toward in ((inset, +1), (width - inset - 1, -1)):
        if white:
            _dot(image, front, x - toward, row, EYE_WHITE)
        _dot(image, front, x, row, rgb)


def _cubes(kind: str, layer: str = "skin") -> dict[str, list[Cube]]:
    return {limb.name: [c for c in limb.cubes if c.layer == layer] for limb in SHAPES[kind].limbs}


def _pig(rng: np.random.Generator) -> np.ndarray:
    image = _blank()
    parts = _cubes("pig")
    for name, cubes in parts.items():
        for cube in cubes:
            _paint_cube(image, cube, PINK, rng)
    head, snout = parts["head"]
    _paint_cube(image, snout, PINK_DARK, rng)
    front = face_rects(snout)["front"]
    _dot(image, front, 0, 1, (120, 60, 70))
    _dot(image, front, 3, 1, (120, 60, 70))
    _eyes(image, face_rects(head)["front"], 3, 1)
    for cube in parts["leg1"]:  # trotters: the legs' lowest texels darker, on every side face
        for side in ("east", "west", "front", "back"):
            left, top, width, height = face_rects(cube)[side]
            _fill(image, (left, top + height - 1, width, 1), PINK_DARK, rng)
    return image


def _cow(rng: np.random.Generator) -> np.ndarray:
    image = _blank()
    parts = _cubes("cow")
    for cubes in parts.values():
        for cube in cubes:
            _paint_cube(image, cube, COW_BROWN, rng)
    body, udder = parts["body"]
    for rect in face_rects(body).values():  # white patches: a few seeded blobs per face
        left, top, width, height = rect
        for _ in range(max(1, width * height // 60)):
            cx, cy = rng.integers(0, width), rng.integers(0, height)
            radius = rng.integers(2, 4)
            yy, xx = np.mgrid[0:height, 0:width]
            blob = (xx - cx) ** 2 + (yy - cy) ** 2 <= radius ** 2
            patch = image[top:top + height, left:left + width]
            patch[blob, :3] = np.clip(np.array(COW_WHITE) + rng.integers(-8, 9, (int(blob.sum()), 1)), 0, 255)
    _paint_cube(image, udder, UDDER, rng)
    head, horn, _ = parts["head"]
    _paint_cube(image, horn, HORN, rng)
    front = face_rects(head)["front"]
    _fill(image, (front[0] + 3, front[1], 2, front[3]), COW_WHITE, rng)  # a white blaze down the face
    _dot(image, front, 2, front[3] - 2, (40, 30, 24), 4, 1)  # the muzzle
    _eyes(image, front, 3, 1)
    return image


def _sheep(rng: np.random.Generator) -> np.ndarray:
    image = _blank()
    parts = _cubes("sheep")
    for cubes in parts.values():
        for cube in cubes:
            _paint_cube(image, cube, SHEEP_SKIN, rng)
    (head,) = parts["head"]
    front = face_rects(head)["front"]
    _fill(image, front, SHEEP_FACE, rng)
    _eyes(image, front, 2, 1)
    _dot(image, front, 2, 4, (150, 110, 110), 2, 1)  # the nose
    return image


def _sheep_wool(rng: np.random.Generator) -> np.ndarray:
    image = _blank()
    for cubes in _cubes("sheep", "wool").values():
        for cube in cubes:
            _paint_cube(image, cube, WOOL, rng)
    return image


def _chicken(rng: np.random.Generator) -> np.ndarray:
    image = _blank()
    parts = _cubes("chicken")
    for cubes in parts.values():
        for cube in cubes:
            _paint_cube(image, cube, FEATHER, rng)
    head, bill, chin = parts["head"]
    _paint_cube(image, bill, BEAK, rng)
    _paint_cube(image, chin, WATTLE, rng)
    _eyes(image, face_rects(head)["front"], 1, 0, white=False)
    for cube in parts["leg1"]:
        _paint_cube(image, cube, CHICKEN_LEG, rng)
    for cube in parts["wing1"]:
        _paint_cube(image, cube, (226, 226, 222), rng)
    return image


def _zombie(rng: np.random.Generator) -> np.ndarray:
    return _biped("zombie", rng, ZOMBIE_SKIN, SHIRT, TROUSERS)


def _skeleton(rng: np.random.Generator) -> np.ndarray:
    image = _biped("skeleton", rng, BONE, BONE, BONE)
    (body,) = _cubes("skeleton")["body"]
    for side in ("front", "back"):  # ribs: dark gaps between bone bars
        rect = face_rects(body)[side]
        for y in range(1, 8, 2):
            _dot(image, rect, 1, y, BONE_DARK, rect[2] - 2, 1)
        _dot(image, rect, rect[2] // 2 - 1, 0, BONE, 2, rect[3])  # the spine
    return image


def _biped(kind: str, rng: np.random.Generator, skin: Rgb, shirt: Rgb, trousers: Rgb) -> np.ndarray:
    image = _blank()
    parts = _cubes(kind)
    for name, colour in (("head", skin), ("body", shirt), ("arm1", skin), ("leg1", trousers)):
        for cube in parts[name]:
            _paint_cube(image, cube, colour, rng)
    for cube in parts["arm1"]:  # sleeves: the arm's upper third in the shirt's colour
        for side in ("east", "west", "front", "back"):
            left, top, width, height = face_rects(cube)[side]
            _fill(image, (left, top, width, height // 3), shirt, rng)
    for cube in parts["leg1"]:  # shoes
        for side in ("east", "west", "front", "back"):
            left, top, width, height = face_rects(cube)[side]
            _fill(image, (left, top + height - 2, width, 2), SHOES if kind == "zombie" else BONE_DARK, rng)
    (head,) = parts["head"]
    front = face_rects(head)["front"]
    _dot(image, front, 1, 3, HOLE, 2, 2 if kind == "skeleton" else 1)  # eye sockets
    _dot(image, front, 5, 3, HOLE, 2, 2 if kind == "skeleton" else 1)
    if kind == "skeleton":
        _dot(image, front, 3, 5, BONE_DARK, 2, 1)  # the nose hole
        _dot(image, front, 1, 6, BONE_DARK, 6, 1)  # the grin
    else:
        _dot(image, front, 2, 6, (50, 90, 44), 4, 1)  # a slack mouth
    return image


def _spider(rng: np.random.Generator) -> np.ndarray:
    image = _blank()
    parts = _cubes("spider")
    for cubes in parts.values():
        for cube in cubes:
            _paint_cube(image, cube, SPIDER_BODY, rng)
    (leg,) = parts["leg1"]
    for side in ("top", "front", "back", "bottom"):  # a lighter joint a third of the way out
        left, top, width, height = face_rects(leg)[side]
        _fill(image, (left + width // 3, top, 1, height), (90, 76, 66), rng)
    (head,) = parts["head"]
    front = face_rects(head)["front"]
    for x, y in ((1, 3), (6, 3), (2, 2), (5, 2), (3, 3), (4, 3), (2, 4), (5, 4)):  # eight red eyes
        _dot(image, front, x, y, SPIDER_EYE)
    return image


def _creeper(rng: np.random.Generator) -> np.ndarray:
    image = _blank()
    for cubes in _cubes("creeper").values():
        for cube in cubes:
            for rect in face_rects(cube).values():
                _fill(image, rect, CREEPER_GREEN, rng, noise=34)  # mottled
    (head,) = _cubes("creeper")["head"]
    front = face_rects(head)["front"]
    for x, y, w, h in ((1, 2, 2, 2), (5, 2, 2, 2), (3, 4, 2, 2), (2, 5, 1, 2), (5, 5, 1, 2)):  # eyes and frown
        _dot(image, front, x, y, HOLE, w, h)
    return image


def _blank() -> np.ndarray:
    width, height = TEXTURE_SIZE
    return np.zeros((height, width, 4), dtype=np.uint8)


PAINTERS = {"pig": _pig, "cow": _cow, "sheep": _sheep, "sheep_wool": _sheep_wool, "chicken": _chicken,
            "zombie": _zombie, "skeleton": _skeleton, "spider": _spider, "creeper": _creeper}
"""Texture file stem -> its painter (each kind's `Shape.textures` names them)."""


def texture_names() -> list[str]:
    """Every texture's file stem, in `KINDS` order (a kind's layers in its shape's order)."""
    return [stem for kind in KINDS for _, stem in SHAPES[kind].textures]


def paint(name: str) -> np.ndarray:
    """Texture `name`'s (32, 64, 4) uint8 RGBA texels, from its own seeded generator; ValueError for an unknown name."""
    if name not in PAINTERS:
        raise ValueError(f"no creature texture named {name!r} (known: {', '.join(PAINTERS)})")
    return PAINTERS[name](np.random.default_rng(zlib.crc32(name.encode())))


def generate(out_dir: Path = OUT_DIR) -> list[Path]:
    """Write every texture into `out_dir` (created if missing); returns their paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in texture_names():
        path = out_dir / f"{name}.png"
        Image.fromarray(paint(name), "RGBA").save(path, optimize=False)
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m assets.make_creature_textures",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="output folder")
    args = parser.parse_args(argv)
    for path in generate(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
