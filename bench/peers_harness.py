"""The peers suite's timing harness, run as a script inside each measured program's own process.

Owns: loading a peer's code unmodified (fogleman/Minecraft under pyglet 1.5, Ursina's Minecraft sample),
opening its window at the size asked, timing its frames flip to flip, and reporting, beside the frame times,
the terms it drew on: the GL configuration the window really got (GL_SAMPLES, GL_SAMPLE_BUFFERS, depth bits,
viewport and framebuffer size, renderer), the llvmpipe raster threads that worked during the timed frames and
the CPU they and the main thread spent per frame, and the peer's camera. `boxel` mode opens Boxel's own window
(`game.window.render.window.open_window`) the same way and reports its GL configuration, so the suite can
check that both sides drew on equal terms.
Does not own: running the processes, the rows, or checking the terms (`bench.bench_peers`).

Standard library and the peer's own engine only (it runs in the peer's interpreter: pyglet 1.5's venv for
fogleman). Usage: `python bench/peers_harness.py fogleman|ursina|boxel WxH FRAMES FLOOR`.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PEERS_DIR = ROOT / ".cache" / "peers"
FOGLEMAN_DIR = PEERS_DIR / "fogleman-Minecraft"
URSINA_SAMPLE = PEERS_DIR / "ursina-sample" / "minecraft_clone.py"
RESULT_MARKER = "PEER-RESULT "
SETTLE_FRAMES = 600
"""Most frames a peer gets to finish building its view before timing starts."""
WARM_FRAMES = 10
"""Frames drawn untimed after settling: the shaders llvmpipe compiles on first use are not a frame's cost."""
FOGLEMAN_SEED = 20261128
"""fogleman's hills are drawn from Python's global `random` at start; seeded, every run shows the same world."""
RASTER_THREAD_PREFIX = "llvmpipe-"
"""How Mesa names llvmpipe's raster threads (/proc/self/task/*/comm)."""
CLOCK_TICKS_PER_S = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def thread_cpu_ticks() -> dict[str, int]:
    """{'tid:name': user + system clock ticks} of this process's threads (empty where /proc is absent)."""
    ticks = {}
    tasks = Path("/proc/self/task")
    if not tasks.is_dir():
        return ticks
    for task in tasks.iterdir():
        try:
            stat = (task / "stat").read_text()
            name = (task / "comm").read_text().strip()
        except OSError:
            continue  # the thread ended meanwhile
        fields = stat.rsplit(")", 1)[1].split()
        ticks[f"{task.name}:{name}"] = int(fields[11]) + int(fields[12])
    return ticks


def cpu_terms(before: dict[str, int], after: dict[str, int], frames: int) -> dict:
    """The raster threads that worked between two `thread_cpu_ticks` and their CPU per frame, in ms."""
    spent = {key: after[key] - before.get(key, 0) for key in after}
    raster = [ticks for key, ticks in spent.items() if key.split(":", 1)[1].startswith(RASTER_THREAD_PREFIX)]
    per_frame_ms = 1000.0 / CLOCK_TICKS_PER_S / max(1, frames)
    main = sum(ticks for key, ticks in spent.items() if key.split(":", 1)[0] == str(os.getpid()))
    return {"raster_threads": sum(1 for ticks in raster if ticks > 0), "raster_cpu_ms": sum(raster) * per_frame_ms,
            "main_cpu_ms": main * per_frame_ms}


def report(times: list[float], visible: int, gl: dict, cpu: dict, camera: dict) -> None:
    """Print the result line the suite reads (`bench.bench_peers.parse_result`)."""
    result = {"frame_ms": statistics.median(times) * 1000.0, "frames": len(times), "visible_blocks": visible,
              "p95_ms": sorted(times)[int(0.95 * (len(times) - 1))] * 1000.0, "gl": gl, "cpu": cpu,
              "camera": camera}
    print(RESULT_MARKER + json.dumps(result), flush=True)


def timed_frames(frame, frames: int) -> tuple[list[float], dict]:
    """Each frame's wall time (flip to flip: the whole of `frame()`), and the CPU terms of the timed frames."""
    before = thread_cpu_ticks()
    times = []
    for _ in range(frames):
        start = time.perf_counter()
        frame()
        times.append(time.perf_counter() - start)
    return times, cpu_terms(before, thread_cpu_ticks(), frames)


# --- fogleman/Minecraft (pyglet 1.5) ----------------------------------------------------------------------------

def pyglet_gl_terms(window) -> dict:
    """The GL configuration pyglet's window really got, asked of GL itself."""
    from pyglet import gl

    def integer(name) -> int:
        value = gl.GLint()
        gl.glGetIntegerv(name, value)
        return value.value

    viewport = (gl.GLint * 4)()
    gl.glGetIntegerv(gl.GL_VIEWPORT, viewport)
    config = window.context.config
    return {"renderer": gl.gl_info.get_renderer(), "samples": integer(gl.GL_SAMPLES),
            "sample_buffers": integer(gl.GL_SAMPLE_BUFFERS), "depth_bits": config.depth_size,
            "viewport": [viewport[2], viewport[3]], "framebuffer": list(window.get_framebuffer_size()),
            "window": list(window.get_size())}


def harness_fogleman(width: int, height: int, frames: int) -> None:
    """fogleman/Minecraft: its module loaded (its `main()` not run) with its world seeded (FOGLEMAN_SEED), its
    Window opened at the size asked with pyglet's default GL configuration, its own `setup()`, and its frames
    as its `pyglet.app.run()` draws them (clock tick with its 60 Hz update, events, `on_draw`, flip) with
    no sleep between them. Its camera is its own: the centre of its world, looking level along -z."""
    import runpy

    import pyglet
    os.chdir(FOGLEMAN_DIR)  # it loads texture.png from the working folder
    random.seed(FOGLEMAN_SEED)
    peer = runpy.run_path(str(FOGLEMAN_DIR / "main.py"), run_name="fogleman_minecraft")
    window = peer["Window"](width=width, height=height, caption="fogleman/Minecraft", resizable=False, vsync=False)
    peer["setup"]()

    def frame() -> None:
        pyglet.clock.tick()
        window.switch_to()
        window.dispatch_events()
        window.dispatch_event("on_draw")  # queued by pyglet, drawn in the next dispatch_events
        window.flip()

    for _ in range(SETTLE_FRAMES):
        frame()
        if not window.model.queue and window.sector is not None:
            break
    for _ in range(WARM_FRAMES):
        frame()
    times, cpu = timed_frames(frame, frames)
    report(times, len(window.model.shown), pyglet_gl_terms(window), cpu,
           {"position": list(window.position), "rotation": list(window.rotation)})


# --- Panda3D (Ursina's sample, Boxel's own window) ----------------------------------------------------------------

def panda_gl_terms(base) -> dict:
    """The GL configuration Panda3D's window really got (its framebuffer properties and region)."""
    window = base.win
    properties = window.getFbProperties()
    gsg = window.getGsg()
    return {"renderer": gsg.getDriverRenderer(), "samples": properties.getMultisamples(),
            "sample_buffers": int(properties.getMultisamples() > 0), "depth_bits": properties.getDepthBits(),
            "viewport": [window.getXSize(), window.getYSize()],
            "framebuffer": [window.getFbXSize(), window.getFbYSize()],
            "window": [window.getXSize(), window.getYSize()]}


def harness_ursina(width: int, height: int, frames: int, floor: int = 0) -> None:
    """Ursina's sample: run as written, with the window opened at the size asked (no vsync, no splash) and its
    `app.run()` replaced by the timed frames; with `floor`, first its floor is made `floor` x `floor` voxels
    of its own Voxel class."""
    import runpy
    import types

    import ursina
    make_app = ursina.Ursina  # Ursina's singleton factory: the sample's `from ursina import *` picks up ours

    def timed_run(app, *args, **kwargs):
        voxel = sys._getframe(1).f_globals["Voxel"]  # the sample's class, from the module calling app.run()
        taken = {tuple(e.position) for e in ursina.scene.entities if type(e).__name__ == "Voxel"}
        for x in range(floor):
            for z in range(floor):
                if (x, 0, z) not in taken:
                    voxel(position=(x, 0, z))
        for _ in range(WARM_FRAMES):
            app.step()
        times, cpu = timed_frames(app.step, frames)
        voxels = [e for e in ursina.scene.entities if type(e).__name__ == "Voxel"]
        camera = ursina.camera.world_position
        report(times, len(voxels), panda_gl_terms(app), cpu, {"position": [camera.x, camera.y, camera.z]})
        os._exit(0)

    def sized_app(*args, **kwargs):
        kwargs.update(size=(width, height), vsync=False, development_mode=False, show_ursina_splash=False)
        app = make_app(*args, **kwargs)
        app.run = types.MethodType(timed_run, app)
        return app

    ursina.Ursina = sized_app
    runpy.run_path(str(URSINA_SAMPLE), run_name="__main__")


def harness_boxel_window(width: int, height: int, frames: int) -> None:
    """Boxel's window opened as the game opens it (`open_window`), an empty scene drawn `frames` times: the GL
    configuration the game draws with (its frames are timed by the game itself, `bench.bench_game.play`)."""
    sys.path.insert(0, str(ROOT))
    from game.window.render.window import open_window
    app = open_window((width, height))
    times, cpu = timed_frames(app.step, max(1, frames))
    report(times, 0, panda_gl_terms(app), cpu, {})
    os._exit(0)


def main(argv: list[str]) -> None:
    which, size, count, floor_size = argv[0], argv[1], int(argv[2]), int(argv[3])
    width, height = (int(v) for v in size.split("x"))
    if which == "fogleman":
        harness_fogleman(width, height, count)
    elif which == "ursina":
        harness_ursina(width, height, count, floor_size)
    elif which == "boxel":
        harness_boxel_window(width, height, count)
    else:
        raise ValueError(f"unknown program {which!r}: fogleman, ursina or boxel")


if __name__ == "__main__":
    main(sys.argv[1:])
