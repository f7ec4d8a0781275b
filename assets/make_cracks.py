"""Paints the 10 destroy stages of a block being dug: `python -m assets.make_cracks [--out DIR]`.

Owns: what the cracks look like (Beta's 10 `destroy_stage` pictures, drawn anew: jagged seeded
lines of dark pixels running out from the tile's middle, nothing copied) and writing `cracks.png`
(default into assets/textures/): STAGES tiles of TILE_PIXELS side by side, stage 0 leftmost,
transparent where there is no crack. Every stage holds all the crack pixels of the stages before
it, so a crack only grows as the block is dug. Deterministic: one generator with a fixed seed,
so the same code writes byte-identical files.
Does not own: drawing them on a block (`game.window.render.crack_overlay`) or when a stage shows
(`game.rules.mining`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from PIL import Image

from game.rules.mining import STAGES
from game.world.atlas import TILE_PIXELS

CRACKS_FILE = "cracks.png"
DEFAULT_OUT = Path(__file__).resolve().parent / "textures"
SEED = 20
"""The generator's seed (any fixed value: it only has to be the same every run)."""
RAYS = 7
"""Cracks running out from the middle of the tile, each at its own angle."""
RAY_PIXELS = 11
"""[pixels] The longest a crack grows (by the last stage): most of the way to the tile's edge."""
WOBBLE = 0.45
"""[radians] How far each step of a crack may bend from its angle: jagged, not ruled lines."""
CRACK_RGBA = (0, 0, 0, 200)
"""Dark, mostly opaque pixels: they read on light (sand) and dark (obsidian) blocks alike."""


def _ray(rng: np.random.Generator, angle: float) -> list[tuple[int, int]]:
    """The pixels of one crack from the middle outwards at about `angle` [radians] (wrapping at the tile's edges)."""
    row = col = TILE_PIXELS / 2.0
    pixels: list[tuple[int, int]] = []
    while len(pixels) < RAY_PIXELS:
        step = angle + rng.uniform(-WOBBLE, WOBBLE)
        row, col = row + np.sin(step), col + np.cos(step)
        pixel = (int(row) % TILE_PIXELS, int(col) % TILE_PIXELS)
        if pixel not in pixels:
            pixels.append(pixel)
    return pixels


def crack_masks() -> np.ndarray:
    """(STAGES, TILE_PIXELS, TILE_PIXELS) bool: the crack pixels of each stage, each a superset of the last.
    Stage s shows the first part of every crack, longer at each stage; the later cracks start later."""
    rng = np.random.default_rng(SEED)
    spread = 2.0 * np.pi / RAYS  # the cracks share the turn, each somewhere in its own slice
    rays = [_ray(rng, (i + rng.uniform(0.2, 0.8)) * spread) for i in range(RAYS)]
    starts = rng.uniform(0.0, 0.5, RAYS)  # the fraction of the dig at which each crack appears
    starts[:2] = 0.0  # two cracks from the first stage on
    masks = np.zeros((STAGES, TILE_PIXELS, TILE_PIXELS), dtype=bool)
    for stage in range(STAGES):
        done = (stage + 1) / STAGES
        for ray, start in zip(rays, starts):
            shown = int(round(RAY_PIXELS * max(0.0, done - start) / (1.0 - start)))
            for row, col in ray[:shown]:
                masks[stage, row, col] = True
    return masks


def cracks_pixels() -> np.ndarray:
    """The cracks image: (TILE_PIXELS, STAGES * TILE_PIXELS, 4) uint8 RGBA."""
    masks = crack_masks()
    image = np.zeros((TILE_PIXELS, STAGES * TILE_PIXELS, 4), dtype=np.uint8)
    for stage, mask in enumerate(masks):
        image[:, stage * TILE_PIXELS:(stage + 1) * TILE_PIXELS][mask] = CRACK_RGBA
    return image


def write(out: Path = DEFAULT_OUT) -> Path:
    """Write `cracks.png` into `out` (created if missing); its path."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / CRACKS_FILE
    Image.fromarray(cracks_pixels(), "RGBA").save(path, optimize=False)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m assets.make_cracks", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder to write cracks.png into")
    print(write(parser.parse_args(argv).out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
