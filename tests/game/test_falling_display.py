"""Falling sand in the real game (a window under Xvfb): a column of sand saved over air falls when
the world opens, each falling block is drawn as a textured sand cube where its body is, one node
per body, and once the column has landed no falling block is drawn. The game's bodies are
compared with the same run on a `Session` with no window. Also, with no window: the cube's mesh
(the mesher's faces of the block) and the falling blocks' views blended between ticks."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import physics
from game.rules.falling_blocks import FallingBlocks
from game.world.lab import Arena
from game.rules.player import EYE_HEIGHT
from game.window.render.entity_view import block_cube_arrays
from game.rules.replay import Look
from game.rules.session import Session
from game.rules.targeting import look_direction
from game.world import World, atlas
from game.world.blocks import FACE_TILES, TILE_NAMES, block_id
from game.world.falling import FallingStart
from game.world.meshing import FACE_SHADE
from tests.game import scripted_runs
from tests.game.conftest import REPO_ROOT
from tests.game.scripted_runs import CLEARANCE, PLATFORM, WINDOW

SEED = 42
COLUMN_X = 6
"""[blocks] The sand column stands at x 6, z 0: east of the spawn (0.5, 0.5), on the flat platform."""
COLUMN_BASE = 6
"""[blocks] The lowest sand is this far above the platform's top: it falls 6 blocks."""
COLUMN_HEIGHT = 4
LOOK = Look(0, 270.0, -30.0)
"""East and up: the column stands against the sky."""
FOV = "70"
"""[degrees] Vertical field of view, given on the command line so the test's projection matches."""
FALLING_TICKS = 15
"""[ticks] All four blocks are in the air (they start 3 ticks apart, the lowest lands at tick 18)."""
LANDED_TICKS = 60
COLOUR_MATCH = 10
"""[RGB levels] A pixel this close to a sand texel under one of the mesher's face shades shows sand
(drawn unlit, this close to the eye unfogged; sky and grass are far from every sand colour)."""
PROBE = 2
"""[pixels] Half-size of the square checked around a cube's projected centre (the cube is ~30 px wide)."""


@pytest.fixture(autouse=True)
def user_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("BOXEL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("BOXEL_CONFIG_DIR", str(tmp_path / "config"))


def make_world(path: Path) -> int:
    """A seed-42 world with a flat platform around the spawn and a sand column saved over air
    (its blocks' fall updates saved with it); returns the platform's top y."""
    with World.create(path, SEED) as world:
        floor = math.floor(world.spawn[1]) - 1
        scripted_runs.flatten(world, floor, *PLATFORM, CLEARANCE)
        for y in range(floor + 1 + COLUMN_BASE, floor + 1 + COLUMN_BASE + COLUMN_HEIGHT):
            world.set_block(COLUMN_X, y, 0, "sand")
        world.save()
    return floor + 1


def headless_bodies(world_path: Path, ticks: int) -> list[dict]:
    """The report's `bodies` after `ticks` ticks of the same run on a `Session` with no window (on a copy)."""
    copy = world_path.with_name(world_path.stem + "-headless.boxel")
    shutil.copy(world_path, copy)
    with World.open(copy) as world:
        session = Session.open(world, autosave=False)
        session.run([LOOK], ticks)
        return session.report()["bodies"]


def sand_colours() -> np.ndarray:
    """(N, 3) every sand texel of the atlas under every face shade, as the screen shows them."""
    image = np.asarray(Image.open(REPO_ROOT / atlas.ATLAS_FILE).convert("RGB")).astype(np.float64)
    left, top = atlas.tile_origin_pixels(TILE_NAMES.index("sand"))
    texels = np.unique(image[top:top + atlas.TILE_PIXELS, left:left + atlas.TILE_PIXELS].reshape(-1, 3), axis=0)
    return np.unique(np.round(texels[:, None, :] * FACE_SHADE[None, :, None]).reshape(-1, 3), axis=0)


def sand_mask(image: np.ndarray) -> np.ndarray:
    """Which pixels of `image` (H, W, 3) show sand."""
    colours = sand_colours()
    distance = np.abs(image[:, :, None, :] - colours[None, None, :, :]).max(axis=3)
    return distance.min(axis=2) <= COLOUR_MATCH


def screen_pixel(report: dict, point: tuple[float, float, float]) -> tuple[int, int]:
    """(column, row) of the window pixel a physics point lands on, seen from the report's eye and look."""
    box = report["box"]
    eye = np.array([(box[0] + box[3]) / 2.0, box[1] + EYE_HEIGHT - report["camera_lag"], (box[2] + box[5]) / 2.0])
    forward = np.array(look_direction(report["yaw"], report["pitch"]))
    right = np.cross(forward, (0.0, 1.0, 0.0))  # Minecraft's axes: facing +z, +x is on the left
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    offset = np.array(point) - eye
    depth = offset @ forward
    half_height = math.tan(math.radians(float(FOV)) / 2.0)
    half_width = half_height * WINDOW[0] / WINDOW[1]
    x = (offset @ right) / depth / half_width
    y = (offset @ up) / depth / half_height
    return round((x + 1.0) / 2.0 * WINDOW[0]), round((1.0 - y) / 2.0 * WINDOW[1])


def falling(bodies: list[dict]) -> list[dict]:
    return [b for b in bodies if b["kind"] == "falling_block"]


def centre(box: list[float]) -> tuple[float, float, float]:
    return ((box[0] + box[3]) / 2.0, (box[1] + box[4]) / 2.0, (box[2] + box[5]) / 2.0)


def test_a_sand_cube_is_the_mesher_s_six_sand_faces_about_its_centre_shaded_per_face():
    cube = block_cube_arrays(block_id("sand"))
    positions = cube.positions.reshape(-1, 3)
    assert cube.face_count == 6
    assert positions.min(axis=0).tolist() == [-0.5] * 3 and positions.max(axis=0).tolist() == [0.5] * 3
    shades = sorted(set(np.round(cube.colors.reshape(-1, 4)[:, 0], 6).tolist()))
    assert shades == sorted(set(np.round(FACE_SHADE, 6).tolist()))
    u0, v0, u1, v1 = atlas.tile_uv_rect(int(FACE_TILES[block_id("sand"), 0]))
    uvs = cube.uvs.reshape(-1, 2)
    assert (uvs[:, 0] >= u0).all() and (uvs[:, 0] <= u1).all() and (uvs[:, 1] >= v0).all() and (uvs[:, 1] <= v1).all()


@pytest.mark.parametrize("block, error", [(block_id("air"), ValueError),
                                          (-1, ValueError), (10_000, ValueError), ("sand", TypeError)])
def test_a_cube_of_air_or_of_no_block_is_refused(block, error):
    with pytest.raises(error):
        block_cube_arrays(block)


def test_falling_block_views_blend_from_the_previous_tick_s_box_and_keep_their_keys():
    class Sky(Arena):
        """Open air (an empty lab arena): no boxes, a block at no cell; two blocks start to fall at the first tick."""

        def __init__(self):
            super().__init__()
            self.starts = [FallingStart((0, 100, 0), block_id("sand")), FallingStart((3, 100, 0), block_id("gravel"))]

        def take_falling_starts(self):
            starts, self.starts = self.starts, []
            return starts

    falling = FallingBlocks(Sky(), vectorised=False)
    falling.tick()
    before = [f.body.box for f in falling.live]
    falling.tick()
    after = [f.body.box for f in falling.live]
    views = falling.views(0.0), falling.views(0.5), falling.views(1.0)
    assert [[v.key for v in frame] for frame in views] == [[0, 1]] * 3
    assert [v.block for v in views[0]] == [block_id("sand"), block_id("gravel")]
    assert [v.box for v in views[0]] == before and [v.box for v in views[2]] == after
    assert views[1][0].box[1] == before[0][1] + (after[0][1] - before[0][1]) * 0.5
    assert isinstance(views[1][0].box, physics.AABB)


@pytest.mark.display
def test_a_falling_sand_column_is_drawn_as_sand_cubes_where_its_bodies_are_and_gone_once_landed(run_game, tmp_path):
    falling_path, landed_path = tmp_path / "falling.boxel", tmp_path / "landed.boxel"
    top = make_world(falling_path)
    make_world(landed_path)
    expected = headless_bodies(falling_path, FALLING_TICKS)
    run = scripted_runs.play(run_game, falling_path, [LOOK], FALLING_TICKS, "falling", "--fov", FOV)
    landed = scripted_runs.play(run_game, landed_path, [LOOK], LANDED_TICKS, "landed", "--fov", FOV)
    report, image, after = run.report, run.image(), landed.image()

    assert report["bodies"] == expected
    blocks = falling(report["bodies"])
    assert len(blocks) == COLUMN_HEIGHT
    assert report["falling_blocks_drawn"] == len(blocks)
    sand, sand_after = sand_mask(image), sand_mask(after)
    above_landed = 0
    for body in blocks:
        point = centre(body["box"])
        column, row = screen_pixel(report, point)
        assert PROBE <= column < WINDOW[0] - PROBE and PROBE <= row < WINDOW[1] - PROBE
        probe = (slice(row - PROBE, row + PROBE + 1), slice(column - PROBE, column + PROBE + 1))
        assert sand[probe].all(), f"no sand drawn at {column}, {row} where a block falls"
        if point[1] > top + COLUMN_HEIGHT + 1.0:  # above where the column lands: sky once it has landed
            above_landed += 1
            assert not sand_after[probe].any(), f"sand still drawn at {column}, {row} after the column landed"
    assert above_landed >= 2

    assert falling(landed.report["bodies"]) == [] and landed.report["falling_blocks_drawn"] == 0
    with World.open(landed_path) as world:
        assert [world.get_block(COLUMN_X, y, 0) for y in range(top, top + COLUMN_HEIGHT + 1)] == ["sand"] * 4 + ["air"]
