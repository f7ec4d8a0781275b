"""Draw a scene with the chunk renderer and save a screenshot: `python -m tests.game.drivers.preview`.

Owns: two preview scenes and their cameras: `landscape` (a generated world around spawn, seen
from above, with sky and distance fog) and `corner` (a hand-built stone floor with an L-shaped
wall, to see ambient occlusion in an inner corner); writing the screenshot, and optionally a
JSON file of where chosen world points landed on screen (for tests that inspect the picture).
Does not own: meshing, uploading (`game.window.render.chunk_renderer`) or the world (`game.world.world`).
A test driver for `tests/game/test_chunk_render_display.py`; run it from the repository root.

Needs a display (or run it under `xvfb-run -a -s "-screen 0 1280x720x24"`).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import numpy as np

from game.window.render import space
from game.window.render.window import open_window, parse_size
from game.world.blocks import block_id
from game.world.meshing import PADDED_SIZE

SKY_RGB = (140, 192, 236)
"""The clear colour behind everything, also the fog colour so distant land fades into the sky."""
FOG_RANGE = (56.0, 100.0)
"""[blocks] Linear fog: starts at the first distance from the camera, opaque sky at the second."""
LANDSCAPE_RADIUS = 5
"""[columns] The landscape shows columns within this many of the spawn column on X and Z."""
FRAMES_AFTER_LOAD = 3
"""Frames drawn after the last upload before the screenshot (the first frames after an upload
finish preparing the new geometry)."""

CORNER_FLOOR_Y = 4
"""Section-local y of the corner scene's floor blocks (their tops are at y = 5)."""
CORNER_WALL = ((3, 11), 3)
"""Corner scene: the walls run along x = 3 and z = 3 from 3 to 11, three blocks high, meeting at (3, 3)."""
CORNER_PROBES = {
    "inner_corner": (4.2, CORNER_FLOOR_Y + 1.0, 4.2),
    "open_floor": (9.2, CORNER_FLOOR_Y + 1.0, 9.2),
}
"""Corner scene: floor-top points at the same spot of their blocks' tiles (0.2, 0.2), one beside
the inner corner of the walls and one well away from them."""


def corner_section() -> np.ndarray:
    """The padded section of the corner scene: a 16 x 16 stone floor and an L of stone walls."""
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    floor = CORNER_FLOOR_Y + 1
    padded[1:-1, floor, 1:-1] = block_id("stone")
    (start, end), height = CORNER_WALL
    walls = slice(floor + 1, floor + 1 + height)
    padded[start + 1, walls, start + 1:end + 1] = block_id("stone")
    padded[start + 1:end + 1, walls, start + 1] = block_id("stone")
    return padded


def _screen_pixel(point: tuple[float, float, float], size: tuple[int, int]) -> list[float] | None:
    """Where physics point `point` lands in the screenshot (x right, y down), or None if off screen."""
    from panda3d.core import Point2, Point3
    from ursina import application, scene
    base = application.base
    in_camera = base.cam.get_relative_point(scene, Point3(*space.point(*point)))
    projected = Point2()
    if not base.camLens.project(in_camera, projected):
        return None
    return [(projected.x + 1.0) / 2.0 * size[0], (1.0 - projected.y) / 2.0 * size[1]]


def _capture(app, path: Path, size: tuple[int, int]) -> None:
    from PIL import Image
    texture = app.win.get_screenshot()
    rgb = np.frombuffer(bytes(texture.get_ram_image_as("RGB")), np.uint8).reshape(size[1], size[0], 3)[::-1]
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(rgb).save(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.game.drivers.preview", description=__doc__.splitlines()[0])
    parser.add_argument("--scene", choices=("landscape", "corner"), default="landscape")
    parser.add_argument("--seed", type=int, default=42, help="world seed (landscape)")
    parser.add_argument("--size", type=parse_size, default=(960, 540), help="window size, e.g. 640x360")
    parser.add_argument("--screenshot", type=Path, required=True, help="PNG to write")
    parser.add_argument("--probes", type=Path, help="JSON to write: screen pixel of each probe point")
    args = parser.parse_args(argv)

    app = open_window(args.size, "Boxel preview", borderless=True)
    from ursina import camera, color, scene, window

    from game.window.render.chunk_renderer import ChunkRenderer
    from game.world.world import World

    window.color = color.rgb32(*SKY_RGB)
    camera.fov = 70
    probes: dict[str, tuple[float, float, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        if args.scene == "landscape":
            world = World.create(Path(folder) / "preview.world", args.seed)
            renderer = ChunkRenderer(world.padded_section)
            spawn_x, spawn_y, spawn_z = world.spawn
            renderer.show((cx, sy, cz) for cx in range(-LANDSCAPE_RADIUS, LANDSCAPE_RADIUS + 1)
                          for cz in range(-LANDSCAPE_RADIUS, LANDSCAPE_RADIUS + 1) for sy in range(16))
            scene.fog_color = color.rgb32(*SKY_RGB)
            scene.fog_density = FOG_RANGE
            eye = (spawn_x + 26.0, spawn_y + 22.0, spawn_z + 26.0)
            yaw, pitch = 135.0, 24.0  # looking north-west across spawn, down a little
        else:
            world = None
            section = corner_section()
            empty = np.zeros_like(section)
            renderer = ChunkRenderer(lambda cx, sy, cz: section if (cx, sy, cz) == (0, 0, 0) else empty)
            renderer.show([(0, 0, 0)])
            eye = (13.5, CORNER_FLOOR_Y + 9.0, 13.5)
            yaw, pitch = 135.0, 38.0  # looking north-west at the corner at (3, 3)
            probes = CORNER_PROBES
        camera.position = space.point(*eye)
        camera.rotation = space.camera_rotation(yaw, pitch)
        renderer.wait()
        for _ in range(FRAMES_AFTER_LOAD):
            app.step()
        _capture(app, args.screenshot, args.size)
        if args.probes:
            args.probes.write_text(json.dumps({name: _screen_pixel(p, args.size) for name, p in probes.items()}))
        print(f"{args.scene}: {len(renderer.shown_sections)} sections, {renderer.meshes_uploaded} meshes uploaded, "
              f"screenshot {args.screenshot}")
        renderer.close()
        if world is not None:
            world.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
