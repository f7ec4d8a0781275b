"""Light on screen: a torch in a dark cave lights the walls around it; the chunk shader's daylight.

The scenes are drawn by this module run as a program in a subprocess with a display
(`python -m tests.game.test_light_display --scene cave --screenshot PNG`): a closed stone cave of a
few sections, carved from the seed, with torches on its floor whose block light is spread by a
breadth-first flood (Beta's rule: one level less per block through cells that are not opaque),
no sky light, drawn by the real `ChunkRenderer` and its shader.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import deque
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from game.world.blocks import OPAQUE, block_id
from game.world.meshing import PADDED_SIZE, SECTION_SIZE

from .conftest import run_with_display

TORCH_LEVEL = 14
"""[light levels] A torch's block light (Beta's 0.9375 x 15)."""
CAVE_SECTIONS = 3
"""[sections] The cave scene spans this many sections on X and Z, one high: 48 x 16 x 48 blocks."""
CAVE_FLOOR_Y = 3
CAVE_CEILING_Y = 11
"""[blocks] Section-local heights of the cave's floor blocks and of its ceiling blocks."""
CAVE_X = (14, 34)
"""[blocks] The cave's walls: it is carved where x is in [14, 34) and z in [3, 45)."""
EYE = (24.5, 6.6, 5.5)
"""[blocks] Where the camera stands in the cave, looking along +Z at the torches."""
TORCHES = ((24, CAVE_FLOOR_Y + 1, 16), (15, CAVE_FLOOR_Y + 1, 25), (32, CAVE_FLOOR_Y + 1, 31))
"""The torches of the documentation picture; the test's scene has only the first."""
PATCH_PIXELS = 60
"""[pixels] Half the side of the square around the torch whose brightness the test compares."""
LIT_OVER_DARK = 3.0
"""The patch around a torch is at least this many times brighter than in the dark (block light 14
next to it -> Beta brightness ~0.8 against 0.05 in the dark; walls further off less)."""
FRAMES_AFTER_LOAD = 3


def cave_blocks(seed: int = 7) -> np.ndarray:
    """(48, 16, 48) ids: stone, with a room carved out between the floor and the ceiling, cobblestone
    bumps on its floor, two pillars and a patch of gravel."""
    rng = np.random.default_rng(seed)
    size = CAVE_SECTIONS * SECTION_SIZE
    blocks = np.full((size, SECTION_SIZE, size), block_id("stone"), dtype=np.uint16)
    x, y, z = np.indices(blocks.shape)
    bumps = rng.random((size, size)) < 0.08
    blocks[(x >= CAVE_X[0]) & (x < CAVE_X[1]) & (z >= 3) & (z < size - 3) & (y > CAVE_FLOOR_Y) & (y < CAVE_CEILING_Y)] = 0
    blocks[:, CAVE_FLOOR_Y + 1][bumps] = block_id("cobblestone")
    for column in (20, 28):
        blocks[column - 1:column + 1, :, 22:24] = block_id("stone")  # pillars
    blocks[26:29, CAVE_FLOOR_Y + 1, 36:38] = block_id("gravel")
    for cell in TORCHES:
        blocks[cell] = 0  # no bump under a torch's cell
    return blocks


def flood_block_light(blocks: np.ndarray, torches) -> np.ndarray:
    """(same shape) uint8 block light: each torch TORCH_LEVEL in its cell, one less per step into
    cells that are not opaque, the brightest of all torches."""
    light = np.zeros(blocks.shape, dtype=np.uint8)
    queue = deque()
    for cell in torches:
        light[cell] = TORCH_LEVEL
        queue.append(cell)
    while queue:
        x, y, z = queue.popleft()
        level = int(light[x, y, z]) - 1
        if level <= 0:
            continue
        for dx, dy, dz in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)):
            n = (x + dx, y + dy, z + dz)
            if not all(0 <= n[a] < blocks.shape[a] for a in range(3)) or OPAQUE[blocks[n]] or light[n] >= level:
                continue
            light[n] = level
            queue.append(n)
    return light


def padded(array: np.ndarray, cx: int, cz: int, outside: int) -> np.ndarray:
    """The padded (18^3) view of section (cx, 0, cz) of a (48, 16, 48) array, `outside` beyond it."""
    out = np.full((PADDED_SIZE,) * 3, outside, dtype=array.dtype)
    size = array.shape[0]
    for px in range(PADDED_SIZE):
        x = cx * SECTION_SIZE + px - 1
        if not 0 <= x < size:
            continue
        z0, z1 = cz * SECTION_SIZE - 1, cz * SECTION_SIZE + SECTION_SIZE + 1
        zs = np.arange(z0, z1)
        inside = (zs >= 0) & (zs < size)
        out[px, 1:-1, inside] = array[x, :, zs[inside]]
    return out


def main(argv: list[str] | None = None) -> int:
    """Draw the cave and save a screenshot; with --probe, a JSON of the first torch's screen pixel."""
    parser = argparse.ArgumentParser(description="draw the lit cave scene")
    parser.add_argument("--torches", type=int, default=1, help="how many of TORCHES to place (0: a dark cave)")
    parser.add_argument("--size", default="640x360")
    parser.add_argument("--screenshot", type=Path, required=True)
    parser.add_argument("--probe", type=Path)
    args = parser.parse_args(argv)
    from game.window.render import space
    from game.window.render.window import open_window, parse_size

    size = parse_size(args.size)
    app = open_window(size, "Boxel light", borderless=True)
    from panda3d.core import Point2, Point3
    from ursina import application, camera, color, scene, window

    from game.window.render.chunk_renderer import ChunkRenderer

    blocks = cave_blocks()
    torches = TORCHES[:args.torches]
    for cell in torches:
        blocks[cell] = block_id("torch")
    light = flood_block_light(blocks, torches)  # sky light 0 everywhere: a closed cave
    stone = block_id("stone")
    ids_of = {(cx, cz): padded(blocks, cx, cz, stone) for cx in range(CAVE_SECTIONS) for cz in range(CAVE_SECTIONS)}
    light_of = {key: padded(light, *key, 0) for key in ids_of}
    empty = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    window.color = color.black
    scene.fog_density = 0.0
    camera.fov = 70
    renderer = ChunkRenderer(lambda cx, sy, cz: ids_of.get((cx, cz), empty) if sy == 0 else empty,
                             padded_light=lambda cx, sy, cz: light_of.get((cx, cz), empty.astype(np.uint8)) if sy == 0
                             else empty.astype(np.uint8))
    renderer.show((cx, 0, cz) for cx, cz in ids_of)
    camera.position = space.point(*EYE)
    camera.rotation = space.camera_rotation(0.0, 8.0)
    renderer.wait()
    for _ in range(FRAMES_AFTER_LOAD):
        app.step()
    texture = app.win.get_screenshot()
    rgb = np.frombuffer(bytes(texture.get_ram_image_as("RGB")), np.uint8).reshape(size[1], size[0], 3)[::-1]
    args.screenshot.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(rgb).save(args.screenshot)
    if args.probe:
        x, y, z = TORCHES[0]
        in_camera = application.base.cam.get_relative_point(scene, Point3(*space.point(x + 0.5, y + 0.5, z + 0.5)))
        projected = Point2()
        application.base.camLens.project(in_camera, projected)
        args.probe.write_text(json.dumps([(projected.x + 1) / 2 * size[0], (1 - projected.y) / 2 * size[1]]))
    renderer.close()
    return 0


def test_the_vertex_colour_column_carries_shade_sky_and_block_light_apart():
    from game.window.render.mesh_jobs import vertex_colors
    from game.world.meshing import mesh_section

    blocks = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    blocks[5, 5, 5] = block_id("stone")
    light = np.full((PADDED_SIZE,) * 3, 9 << 4 | 6, dtype=np.uint8)
    opaque, _ = mesh_section(blocks, light)
    colors = vertex_colors(opaque).reshape(-1, 4)
    np.testing.assert_array_equal(colors[:, 0], opaque.colors.reshape(-1, 4)[:, 0])  # shade x AO
    np.testing.assert_array_equal(colors[:, 1], np.float32(9) / np.float32(15))  # sky light / 15
    np.testing.assert_array_equal(colors[:, 2], np.float32(6) / np.float32(15))  # block light / 15
    assert np.all(colors[:, 3] == 1.0)


def test_the_renderer_takes_a_daylight_in_0_to_1_and_refuses_anything_else_unchanged():
    import subprocess

    script = """
from ursina import Ursina
app = Ursina(window_type='none')
import numpy as np
from game.window.render.chunk_renderer import ChunkRenderer
renderer = ChunkRenderer(lambda cx, sy, cz: np.zeros((18, 18, 18), np.uint16))
renderer.set_daylight(0.25)
refused = []
for bad in (1.5, -0.1, float('nan'), '1', True):
    try:
        renderer.set_daylight(bad)
    except ValueError:
        refused.append(True)
print(renderer.daylight, len(refused))
renderer.close()
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                          cwd=str(Path(__file__).resolve().parents[2]))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "0.25 5" in done.stdout


@pytest.mark.display
def test_a_torch_in_a_dark_cave_makes_the_pixels_around_it_brighter_than_the_same_cave_without_it(tmp_path):
    shots = {}
    for torches in (1, 0):
        shot, probe = tmp_path / f"cave-{torches}.png", tmp_path / f"cave-{torches}.json"
        done = run_with_display(["-m", "tests.game.test_light_display", "--torches", str(torches),
                                 "--screenshot", str(shot), "--probe", str(probe)])
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        shots[torches] = np.asarray(Image.open(shot).convert("RGB")).astype(float)
        pixel = json.loads(probe.read_text())
    x, y = (int(round(v)) for v in pixel)
    assert 0 <= x < 640 and 0 <= y < 360, "the torch is on screen"
    area = (slice(max(y - PATCH_PIXELS, 0), y + PATCH_PIXELS), slice(max(x - PATCH_PIXELS, 0), x + PATCH_PIXELS))
    lit, dark = shots[1][area].mean(), shots[0][area].mean()
    assert dark > 0.0, "the dark cave is drawn (Beta's 0.05 floor), not left black"
    assert lit > LIT_OVER_DARK * dark
    far = (slice(0, 40), slice(0, 40))  # the top-left corner: cave wall far from the torch
    assert shots[1][far].mean() < lit


if __name__ == "__main__":
    sys.exit(main())
