"""Draw one lit view of a generated world and save a screenshot: `python -m tests.game.drivers.merged_faces_view`.

Owns: a fixed view (seed 42, the columns within VIEW_RADIUS of spawn with their light, seen from
above spawn looking across it, fog as the preview's) drawn with the renderer's vertex format and
face merging chosen on the command line, so the same view can be compared pixel by pixel.
Does not own: meshing, merging or uploading (`game.window.render.chunk_renderer`), the world.
A test driver for `tests/game/test_merged_faces_display.py`; run it from the repository root.

Needs a display (or run it under `xvfb-run -a -s "-screen 0 1280x720x24"`).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from game.window.render import space
from game.window.render.window import open_window, parse_size
from tests.game.drivers.preview import FOG_RANGE, FRAMES_AFTER_LOAD, SKY_RGB, _capture

VIEW_RADIUS = 4
"""[columns] The columns within this many of the spawn column on X and Z are drawn."""
EYE_ABOVE_SPAWN = (18.0, 14.0, 18.0)
"""[blocks] Where the eye is, from the spawn point."""
YAW, PITCH = 135.0, 28.0
"""[degrees] Looking north-west across spawn, down a little."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.game.drivers.merged_faces_view",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=parse_size, default=(640, 360), help="window size, e.g. 640x360")
    parser.add_argument("--vertices", choices=("compact", "float"), default="compact")
    parser.add_argument("--no-merge", action="store_true", help="draw every face on its own")
    parser.add_argument("--facing", action="store_true",
                        help="tell the renderer where the eye is, so it leaves out the faces facing away")
    parser.add_argument("--screenshot", type=Path, required=True, help="PNG to write")
    args = parser.parse_args(argv)

    app = open_window(args.size, "Boxel merged faces", borderless=True)
    from ursina import camera, color, scene, window

    from game.window.render.chunk_renderer import ChunkRenderer
    from game.world.world import World

    window.color = color.rgb32(*SKY_RGB)
    camera.fov = 70
    with tempfile.TemporaryDirectory() as folder:
        world = World.create(Path(folder) / "view.world", 42)
        renderer = ChunkRenderer(world.padded_section, padded_light=world.padded_light,
                                 compact_vertices=args.vertices == "compact", merge_faces=not args.no_merge)
        spawn = world.spawn
        centre = (int(spawn[0]) // 16, int(spawn[2]) // 16)
        renderer.show((centre[0] + dx, sy, centre[1] + dz) for dx in range(-VIEW_RADIUS, VIEW_RADIUS + 1)
                      for dz in range(-VIEW_RADIUS, VIEW_RADIUS + 1) for sy in range(8))
        scene.fog_color = color.rgb32(*SKY_RGB)
        scene.fog_density = FOG_RANGE
        renderer.sync_fog(True)
        camera.position = space.point(*(s + d for s, d in zip(spawn, EYE_ABOVE_SPAWN)))
        camera.rotation = space.camera_rotation(YAW, PITCH)
        renderer.wait()
        if args.facing:
            renderer.look_from(*(s + d for s, d in zip(spawn, EYE_ABOVE_SPAWN)))
        for _ in range(FRAMES_AFTER_LOAD):
            app.step()
        _capture(app, args.screenshot, args.size)
        print(f"{len(renderer.shown_sections)} sections, vertices {args.vertices}, merged {not args.no_merge}, "
              f"facing {args.facing}, {renderer.facing_rewrites} index lists rewritten")
        renderer.close()
        world.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
