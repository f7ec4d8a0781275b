"""The texture atlas: layout maths, the generator's determinism, gutters, and what the tiles look like."""

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from assets import make_atlas
from game.world import atlas
from game.world.blocks import COUNT, TILE_NAMES, block_id

ROOT = Path(__file__).resolve().parents[2]


def tile_pixels(image: np.ndarray, tile: int, gutter: int = 0) -> np.ndarray:
    left, top = atlas.tile_origin_pixels(tile)
    return image[top - gutter:top + atlas.TILE_PIXELS + gutter, left - gutter:left + atlas.TILE_PIXELS + gutter]


def test_generating_twice_writes_byte_identical_files(tmp_path):
    first = make_atlas.generate(tmp_path / "one")
    second = make_atlas.generate(tmp_path / "two")
    for a, b in zip(first, second):
        assert a.read_bytes() == b.read_bytes()


def test_the_images_in_the_repository_are_what_the_generator_writes(tmp_path):
    for generated in make_atlas.generate(tmp_path):
        committed = ROOT / "assets" / "textures" / generated.name
        assert committed.read_bytes() == generated.read_bytes(), f"{generated.name}: re-run python -m assets.make_atlas"


def test_the_atlas_image_has_the_layouts_size_and_every_tile_where_the_layout_says():
    image = np.asarray(Image.open(ROOT / atlas.ATLAS_FILE).convert("RGBA"))
    assert image.shape == (atlas.ATLAS_HEIGHT_PIXELS, atlas.ATLAS_WIDTH_PIXELS, 4)
    assert atlas.ATLAS_WIDTH_PIXELS & (atlas.ATLAS_WIDTH_PIXELS - 1) == 0  # powers of two: no padding by Ursina
    assert atlas.ATLAS_HEIGHT_PIXELS & (atlas.ATLAS_HEIGHT_PIXELS - 1) == 0
    for tile, name in enumerate(TILE_NAMES):
        np.testing.assert_array_equal(tile_pixels(image, tile), make_atlas.paint_tile(name))


def test_each_tiles_gutter_repeats_its_own_edge_pixels():
    image = np.asarray(Image.open(ROOT / atlas.ATLAS_FILE).convert("RGBA"))
    g, size = atlas.GUTTER_PIXELS, atlas.TILE_PIXELS
    for tile in range(len(TILE_NAMES)):
        cell = tile_pixels(image, tile, gutter=g)
        art = cell[g:g + size, g:g + size]
        np.testing.assert_array_equal(cell[:g, g:g + size], np.repeat(art[:1], g, axis=0))
        np.testing.assert_array_equal(cell[g + size:, g:g + size], np.repeat(art[-1:], g, axis=0))
        np.testing.assert_array_equal(cell[g:g + size, :g], np.repeat(art[:, :1], g, axis=1))
        np.testing.assert_array_equal(cell[:g, :g], np.broadcast_to(art[0, 0], (g, g, 4)))


def test_a_tiles_uv_rect_is_exactly_its_artwork_with_v_counted_from_the_bottom():
    for tile in range(len(TILE_NAMES)):
        u0, v0, u1, v1 = atlas.tile_uv_rect(tile)
        left, top = atlas.tile_origin_pixels(tile)
        assert (u0 * atlas.ATLAS_WIDTH_PIXELS, u1 * atlas.ATLAS_WIDTH_PIXELS) == (left, left + atlas.TILE_PIXELS)
        height = atlas.ATLAS_HEIGHT_PIXELS
        assert ((1 - v1) * height, (1 - v0) * height) == (top, top + atlas.TILE_PIXELS)
    assert atlas.tile_uv_rect(0) == (8 / 256, 1 - 24 / 256, 24 / 256, 1 - 8 / 256)


@pytest.mark.parametrize("bad, error", [(len(TILE_NAMES), ValueError), (-1, ValueError), (1.0, TypeError),
                                        (True, TypeError), ("stone", TypeError)])
def test_a_bad_tile_index_is_refused(bad, error):
    with pytest.raises(error, match="tile index"):
        atlas.tile_uv_rect(bad)


def test_every_tile_name_has_a_painter_and_paints_16_by_16_rgba():
    assert set(make_atlas.PAINTERS) == set(TILE_NAMES)
    for name in TILE_NAMES:
        pixels = make_atlas.paint_tile(name)
        assert pixels.shape == (16, 16, 4) and pixels.dtype == np.uint8


def test_tiles_read_as_their_materials():
    tile = {name: make_atlas.paint_tile(name).astype(int) for name in TILE_NAMES}
    assert tile["glass"][..., 3].mean() < 128 and tile["glass"][1:-1, 1:-1, 3].max() < 255
    leaves_alpha = tile["leaves"][..., 3]
    assert 0.1 < (leaves_alpha == 0).mean() < 0.35 and set(np.unique(leaves_alpha)) == {0, 255}
    for solid in ("stone", "dirt", "grass_top", "grass_side", "log_top", "planks", "brick"):
        assert np.all(tile[solid][..., 3] == 255), solid
    green = tile["grass_top"][..., 1] > tile["grass_top"][..., 0] + 20
    assert green.mean() > 0.9
    side_green_rows = (tile["grass_side"][..., 1] > tile["grass_side"][..., 0] + 20).mean(axis=1)
    assert side_green_rows[0] > 0.9 and side_green_rows[-1] == 0  # a green fringe on top of dirt
    assert len(np.unique(tile["stone"].reshape(-1, 4), axis=0)) >= 4  # textured, not flat


def test_the_media_tiles_read_as_their_materials():
    tile = {name: make_atlas.paint_tile(name).astype(int) for name in TILE_NAMES}
    water = tile["water"]
    assert np.all((water[..., 3] > 100) & (water[..., 3] < 255))  # see-through, evenly
    assert np.all(water[..., 2] > water[..., 0] + 60)  # blue
    lava = tile["lava"]
    assert np.all(lava[..., 3] == 255) and np.all(lava[..., 0] > lava[..., 2] + 80)  # opaque, red to yellow
    for cutout in ("ladder", "cobweb"):
        alpha = tile[cutout][..., 3]
        assert 0.3 < (alpha == 0).mean() < 0.9, cutout  # holes between rails and rungs, between threads
    for solid in ("soul_sand", "cactus_side", "cactus_top"):
        assert np.all(tile[solid][..., 3] == 255), solid
    assert tile["soul_sand"][..., :3].mean() < tile["sand"][..., :3].mean() - 60  # dark
    for green in ("cactus_side", "cactus_top"):
        assert (tile[green][..., 1] > tile[green][..., 0] + 30).mean() > 0.8, green


def test_log_tops_show_rings_around_the_centre():
    top = make_atlas.paint_tile("log_top")[..., :3].astype(int).sum(axis=2)
    rows, cols = np.indices(top.shape)
    radius = np.hypot(rows - 7.5, cols - 7.5).round().astype(int)
    by_ring = [top[radius == r].mean() for r in range(1, 7)]
    steps = np.diff(by_ring)
    assert np.any(steps > 40) and np.any(steps < -40)  # light and dark rings alternate outward


def test_every_block_but_air_has_a_drawn_icon():
    icons = np.asarray(Image.open(ROOT / atlas.ICONS_FILE).convert("RGBA"))
    assert icons.shape == (atlas.ICONS_HEIGHT_PIXELS, atlas.ICONS_WIDTH_PIXELS, 4)
    for block in range(COUNT):
        left, top = atlas.icon_origin_pixels(block)
        alpha = icons[top:top + atlas.ICON_PIXELS, left:left + atlas.ICON_PIXELS, 3]
        assert (alpha.max() > 0) == (block != 0), block
    u0, v0, u1, v1 = atlas.icon_uv_rect(COUNT - 1)
    assert 0.0 <= u0 < u1 <= 1.0 and 0.0 <= v0 < v1 <= 1.0
    with pytest.raises(ValueError, match="block id"):
        atlas.icon_uv_rect(COUNT)


def test_both_images_are_powers_of_two_on_each_side_with_room_for_every_tile_and_icon():
    for width, height in ((atlas.ATLAS_WIDTH_PIXELS, atlas.ATLAS_HEIGHT_PIXELS),
                          (atlas.ICONS_WIDTH_PIXELS, atlas.ICONS_HEIGHT_PIXELS)):
        assert width & (width - 1) == 0 and height & (height - 1) == 0  # Panda3D would rescale other sizes
    assert atlas.ATLAS_COLUMNS * atlas.ATLAS_ROWS >= len(TILE_NAMES) > atlas.ATLAS_COLUMNS * atlas.ATLAS_ROWS // 2
    assert atlas.ICON_COLUMNS * atlas.ICON_ROWS >= COUNT > atlas.ICON_COLUMNS * atlas.ICON_ROWS // 2
    icons = Image.open(ROOT / atlas.ICONS_FILE)
    assert icons.size == (atlas.ICONS_WIDTH_PIXELS, atlas.ICONS_HEIGHT_PIXELS)


def test_obsidian_is_opaque_dark_and_purple():
    tile = make_atlas.paint_tile("obsidian").astype(int)
    assert np.all(tile[..., 3] == 255)
    assert tile[..., :3].mean() < 50
    assert (tile[..., 2] > tile[..., 1]).mean() > 0.9  # blue-violet over green everywhere


def test_plant_tiles_are_cut_outs_with_a_stem_and_their_flower_colour():
    tile = {name: make_atlas.paint_tile(name).astype(int) for name in ("dandelion", "rose", "tall_grass")}
    for name, pixels in tile.items():
        alpha = pixels[..., 3]
        assert set(np.unique(alpha)) == {0, 255}, name  # alpha-tested: no half-clear pixels
        assert 0.5 < (alpha == 0).mean() < 0.95, name
        assert alpha[-1].max() == 255, name  # it stands on the bottom row

    def opaque(name):
        return tile[name][tile[name][..., 3] == 255]
    yellow = opaque("dandelion")
    assert ((yellow[:, 0] > 180) & (yellow[:, 1] > 150) & (yellow[:, 2] < 100)).sum() >= 12
    red = opaque("rose")
    assert ((red[:, 0] > 130) & (red[:, 1] < 60) & (red[:, 2] < 60)).sum() >= 12
    grass = opaque("tall_grass")
    assert np.all(grass[:, 1] > grass[:, 0] + 20)


def test_the_torch_tile_is_a_stick_under_a_flame_in_the_two_columns_its_post_shows():
    tile = make_atlas.paint_tile("torch").astype(int)
    alpha = tile[..., 3]
    rows, cols = np.nonzero(alpha == 255)
    assert set(cols) == set(make_atlas.TORCH_COLUMNS) and rows.min() == 16 - 10  # 2/16 wide, 10/16 tall
    flame = tile[rows.min():rows.min() + make_atlas.TORCH_FLAME_ROWS, 7:9, :3]
    stick = tile[-4:, 7:9, :3]
    assert flame.sum(axis=2).min() > stick.sum(axis=2).max()  # the flame is brighter than the wood
    assert np.all(flame[..., 0] > 200) and np.all(stick[..., 0] > stick[..., 2])
    np.testing.assert_array_equal(tile[:, 0, :3], tile[:, 7, :3])  # clear pixels keep their row's colour


def test_plants_and_the_torch_have_their_tile_as_a_flat_icon():
    icons = np.asarray(Image.open(ROOT / atlas.ICONS_FILE).convert("RGBA"))
    for name in ("dandelion", "rose", "tall_grass", "torch"):
        left, top = atlas.icon_origin_pixels(block_id(name))
        icon = icons[top:top + atlas.ICON_PIXELS, left:left + atlas.ICON_PIXELS]
        scale = atlas.ICON_PIXELS // atlas.TILE_PIXELS
        np.testing.assert_array_equal(icon[::scale, ::scale], make_atlas.paint_tile(name))
