"""Peers benchmark: Boxel's frame time per visible block beside the Python voxel games a player would pick instead.

The peers: fogleman/Minecraft (pyglet 1.x, one vertex list per exposed block in one batch) and the
Minecraft sample of Ursina (pokepetter/ursina `samples/minecraft_clone.py`: one entity per block).
Their code is not Boxel's and is never vendored: the suite runs only when it was fetched into
PEERS_DIR (git-ignored), laid out as
    .cache/peers/fogleman-Minecraft/main.py (+ texture.png)
    .cache/peers/ursina-sample/minecraft_clone.py
    .cache/peers/pyglet1-venv/  (a virtual environment with pyglet 1.5: `python -m venv` + `pip install "pyglet<1.6"`)
and says what is missing otherwise (never in CI: nothing fetches them there).

Each program runs in its own process under `xvfb-run` with the same software OpenGL as the game
suite (llvmpipe, LP_NUM_THREADS=2) at the same window size, unmodified: this file, run as a script
inside that process, is the timing harness. It loads the peer's code, opens its window at the size
asked, lets it settle (fogleman's queue of blocks to show empties), then times PEER_FRAMES frames
(one `app.step()` for Ursina; clock tick, events, `on_draw` and flip for pyglet) and counts the
visible blocks: fogleman's `model.shown` (blocks with an exposed face in the sectors around the
player), the sample's voxel entities (all of its floor, in view or not), and for Boxel the blocks with
a face toward a non-opaque block in the sections drawn (`game.window.frame_profile.exposed_blocks`), from
profiled runs (`--profile-frames`) of the game at view distance 8: standing still looking where the
game suite runs (a static view, as the peers have) and running the game suite's replay (streaming).
The sample is also run with a URSINA_BIG_FLOOR floor of its own voxels.

Rows: each program's median frame time, and standing Boxel's frame time per visible block with each
peer's as the reference (the ratio: how many times less time per visible block Boxel spends).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

if __package__:  # as a suite (python -m bench peers); run as a script, this file is the harness in a peer's process
    from .harness import Row, run_in_window

SUITE = "peers"
ROOT = Path(__file__).resolve().parents[1]
PEERS_DIR = ROOT / ".cache" / "peers"
FOGLEMAN_DIR = PEERS_DIR / "fogleman-Minecraft"
URSINA_SAMPLE = PEERS_DIR / "ursina-sample" / "minecraft_clone.py"
PYGLET1_PYTHON = PEERS_DIR / "pyglet1-venv" / "bin" / "python"
SIZES = ("1280x720", "160x90")
"""[pixels] The game suite's window and the CPU floor."""
PEER_FRAMES = 300
QUICK_FRAMES = 30
SETTLE_FRAMES = 600
"""Most frames a peer gets to finish building its view before timing starts."""
BOXEL_TICKS = 400
"""[ticks] 20 s of the game suite's running replay."""
QUICK_BOXEL_TICKS = 200
URSINA_BIG_FLOOR = 32
"""[blocks] The sample's floor is 8 x 8 voxels; this variant lays a 32 x 32 floor of the sample's own `Voxel`
(1,024 entities, its author's design at a larger world) to show how its per-block cost scales."""
RESULT_MARKER = "PEER-RESULT "
RUN_TIMEOUT_S = 600
LLVMPIPE_THREADS = "2"


def per_block_us(frame_ms: float, blocks: int) -> float:
    """[us] Frame time per visible block."""
    if blocks <= 0:
        raise ValueError(f"per-block time needs at least one visible block, got {blocks}")
    if not frame_ms >= 0.0:
        raise ValueError(f"frame time must be a non-negative number of ms, got {frame_ms}")
    return frame_ms * 1000.0 / blocks


def missing_peers() -> list[str]:
    """What the suite needs and PEERS_DIR lacks (empty: it can run)."""
    needed = [(FOGLEMAN_DIR / "main.py", "fogleman/Minecraft's main.py and texture.png"),
              (URSINA_SAMPLE, "pokepetter/ursina's samples/minecraft_clone.py"),
              (PYGLET1_PYTHON, "a virtual environment with pyglet 1.5 (pyglet1-venv)")]
    return [f"{what} at {path.relative_to(ROOT)}" for path, what in needed if not path.exists()]


def parse_result(stdout: str) -> dict:
    """The harness's result line in a peer's output."""
    for line in reversed(stdout.splitlines()):
        if line.startswith(RESULT_MARKER):
            return json.loads(line[len(RESULT_MARKER):])
    raise RuntimeError(f"the peer printed no result line:\n{stdout[-2000:]}")


def _run_peer(python: Path, which: str, size: str, frames: int, floor: int = 0) -> dict:
    env = dict(os.environ, LP_NUM_THREADS=LLVMPIPE_THREADS, LIBGL_ALWAYS_SOFTWARE="1")
    command = [str(python), str(Path(__file__).resolve()), which, size, str(frames), str(floor)]
    done = run_in_window(command, timeout_s=RUN_TIMEOUT_S, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"{which} exited with {done.returncode}:\n{done.stderr[-3000:]}")
    return parse_result(done.stdout)


def standing_replay(folder: Path) -> Path:
    """The game suite's view (same direction), standing still: a static camera like the peers'."""
    from game.rules.replay import Look, ReplayWriter

    from .bench_game import RUN_PITCH, RUN_YAW
    path = folder / "stand.jsonl"
    with ReplayWriter.open(path) as writer:
        writer.write(Look(0, RUN_YAW, RUN_PITCH))
    return path


def _boxel(size: str, ticks: int, standing: bool) -> dict:
    import tempfile

    from .bench_game import VIEW_DISTANCE, play
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        report = play(folder, VIEW_DISTANCE, ticks, window=size, profile=True,
                      replay=standing_replay(folder) if standing else None)
    return {"frame_ms": report["frame_ms"]["median"], "visible_blocks": report["frame_profile"]["drawn_blocks"],
            "frames": report["frame_ms"]["frames"]}


def run(quick: bool) -> list[Row]:
    missing = missing_peers()
    if missing:
        print(f"peers: skipped, fetch the peers into {PEERS_DIR.relative_to(ROOT)} first; missing: "
              + "; ".join(missing), file=sys.stderr)
        return []
    frames = QUICK_FRAMES if quick else PEER_FRAMES
    rows = []
    for size in SIZES:
        ticks = QUICK_BOXEL_TICKS if quick else BOXEL_TICKS
        results = {"Boxel standing": _boxel(size, ticks, standing=True),
                   "Boxel running": _boxel(size, ticks, standing=False),
                   "fogleman/Minecraft": _run_peer(PYGLET1_PYTHON, "fogleman", size, frames),
                   "Ursina sample": _run_peer(Path(sys.executable), "ursina", size, frames),
                   f"Ursina sample, {URSINA_BIG_FLOOR}x{URSINA_BIG_FLOOR} floor":
                       _run_peer(Path(sys.executable), "ursina", size, frames, URSINA_BIG_FLOOR)}
        for name, result in results.items():
            rows.append(Row(SUITE, f"{name} frame time median ({size})", result["frame_ms"], "ms",
                            note=f"{result['visible_blocks']:,} visible blocks, {result['frames']} frames, "
                                 f"{per_block_us(result['frame_ms'], result['visible_blocks']):.3g} us per block"))
        ours = results["Boxel standing"]
        for name in list(results)[2:]:
            theirs = results[name]
            rows.append(Row(SUITE, f"Boxel (standing) frame time per visible block vs {name} ({size})",
                            per_block_us(ours["frame_ms"], ours["visible_blocks"]), "us",
                            reference=per_block_us(theirs["frame_ms"], theirs["visible_blocks"]),
                            note="reference: the peer's frame time per visible block"))
    return rows


# --- the harness inside a peer's process (standard library and the peer's own engine only) ---------------------

def _report(times: list[float], visible: int) -> None:
    result = {"frame_ms": statistics.median(times) * 1000.0, "frames": len(times), "visible_blocks": visible,
              "p95_ms": sorted(times)[int(0.95 * (len(times) - 1))] * 1000.0}
    print(RESULT_MARKER + json.dumps(result), flush=True)


def harness_fogleman(width: int, height: int, frames: int) -> None:
    """fogleman/Minecraft: its module loaded (its `main()` not run), its Window opened at the size asked."""
    import runpy

    import pyglet
    os.chdir(FOGLEMAN_DIR)  # it loads texture.png from the working folder
    peer = runpy.run_path(str(FOGLEMAN_DIR / "main.py"), run_name="fogleman_minecraft")
    window = peer["Window"](width=width, height=height, caption="fogleman/Minecraft", resizable=False, vsync=False)
    peer["setup"]()

    def frame() -> None:
        pyglet.clock.tick()
        window.switch_to()
        window.dispatch_events()
        window.dispatch_event("on_draw")
        window.flip()

    for _ in range(SETTLE_FRAMES):
        frame()
        if not window.model.queue:
            break
    times = []
    for _ in range(frames):
        start = time.perf_counter()
        frame()
        times.append(time.perf_counter() - start)
    _report(times, len(window.model.shown))


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
        for _ in range(10):
            app.step()
        times = []
        for _ in range(frames):
            start = time.perf_counter()
            app.step()
            times.append(time.perf_counter() - start)
        voxels = [e for e in ursina.scene.entities if type(e).__name__ == "Voxel"]
        _report(times, len(voxels))
        os._exit(0)

    def sized_app(*args, **kwargs):
        kwargs.update(size=(width, height), vsync=False, development_mode=False, show_ursina_splash=False)
        app = make_app(*args, **kwargs)
        app.run = types.MethodType(timed_run, app)
        return app

    ursina.Ursina = sized_app
    runpy.run_path(str(URSINA_SAMPLE), run_name="__main__")


if __name__ == "__main__":
    which, size, count, floor_size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    w, h = (int(v) for v in size.split("x"))
    if which == "fogleman":
        harness_fogleman(w, h, count)
    else:
        harness_ursina(w, h, count, floor_size)
