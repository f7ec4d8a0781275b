"""The creatures' textures (assets/make_creature_textures.py): deterministic, committed as generated, 64 x 32
RGBA, opaque exactly where a model's box shows them, and reading as their creatures."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from assets import make_creature_textures
from game.window.render.creature_models import SHAPES, TEXTURE_SIZE, face_rects

TEXTURES = Path(__file__).resolve().parents[1] / "assets" / "textures" / "creatures"


def texels(name: str) -> np.ndarray:
    return np.asarray(Image.open(TEXTURES / f"{name}.png").convert("RGBA")).astype(int)


def test_generating_twice_writes_byte_identical_files(tmp_path):
    first = make_creature_textures.generate(tmp_path / "one")
    second = make_creature_textures.generate(tmp_path / "two")
    assert [p.name for p in first] == [p.name for p in second]
    for a, b in zip(first, second):
        assert a.read_bytes() == b.read_bytes(), a.name


def test_the_textures_in_the_repository_are_what_the_generator_writes(tmp_path):
    generated = make_creature_textures.generate(tmp_path)
    assert sorted(p.name for p in TEXTURES.glob("*.png")) == sorted(p.name for p in generated)
    for path in generated:
        assert (TEXTURES / path.name).read_bytes() == path.read_bytes(), \
            f"{path.name}: run python -m assets.make_creature_textures"


@pytest.mark.parametrize("kind", sorted(SHAPES))
def test_each_texture_is_opaque_exactly_where_its_models_boxes_show_it(kind):
    for layer, stem in SHAPES[kind].textures:
        image = texels(stem)
        assert image.shape == (TEXTURE_SIZE[1], TEXTURE_SIZE[0], 4)
        used = np.zeros(image.shape[:2], dtype=bool)
        for limb in SHAPES[kind].limbs:
            for cube in (c for c in limb.cubes if c.layer == layer):
                for left, top, w, h in face_rects(cube).values():
                    used[top:top + h, left:left + w] = True
        assert (image[used, 3] == 255).all() and (image[~used, 3] == 0).all(), stem


def mean_rgb(name: str) -> np.ndarray:
    image = texels(name)
    return image[image[:, :, 3] == 255, :3].mean(axis=0)


def test_the_textures_read_as_their_creatures():
    pig, creeper, wool, spider = (mean_rgb(n) for n in ("pig", "creeper", "sheep_wool", "spider"))
    assert pig[0] > pig[1] + 40 and pig[0] > 200  # pink
    assert creeper[1] > creeper[0] + 50 and creeper[1] > creeper[2] + 50  # green
    assert wool.min() > 220  # white
    assert spider.max() < 70  # near black


def test_an_unknown_texture_is_refused():
    with pytest.raises(ValueError):
        make_creature_textures.paint("dragon")
