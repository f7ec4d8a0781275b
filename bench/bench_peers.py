"""Peers benchmark: Boxel's frame time per visible block beside the Python voxel games a player would pick instead.

The peers: fogleman/Minecraft (pyglet 1.x, one vertex list per exposed block in one batch) and the
Minecraft sample of Ursina (pokepetter/ursina `samples/minecraft_clone.py`: one entity per block).
Their code is not Boxel's and is never vendored: the suite runs only when it was fetched into
PEERS_DIR (git-ignored), laid out as
    .cache/peers/fogleman-Minecraft/main.py (+ texture.png)
    .cache/peers/ursina-sample/minecraft_clone.py
    .cache/peers/pyglet1-venv/  (a virtual environment with pyglet 1.5: `python -m venv` + `pip install "pyglet<1.6"`)
and says what is missing otherwise (never in CI: nothing fetches them there).

Equal terms (TERMS, checked by `check_equal_terms` on what each process reports of itself): every program
runs in its own process under the same `xvfb-run` screen (`bench.harness.XVFB_RUN`) with the same llvmpipe
(LP_NUM_THREADS=2, LIBGL_ALWAYS_SOFTWARE=1) at the same window size, with no multisampling (GL_SAMPLES and
GL_SAMPLE_BUFFERS 0: neither pyglet's default configuration nor Boxel's window asks for it), the viewport the
window's size, and frames timed flip to flip with nothing sleeping between them. `bench/peers_harness.py`,
run inside each peer's process, loads the peer's code unmodified (fogleman's world seeded), opens its window,
lets it settle, times PEER_FRAMES frames and reports what it got; Boxel's frames are timed by the game
(`bench.bench_game.play`, profiled), and its window's GL configuration by the same harness opening Boxel's
window. The programs run in ROUNDS turns (Boxel standing, fogleman, Boxel running, the sample...), so a
slow spell of this shared machine falls on all of them alike; each row is the median of the rounds' medians,
its note the range, and Boxel's ratios are taken round by round.

Visible blocks: fogleman's `model.shown` (blocks with an exposed face in the sectors around the player), the
sample's voxel entities (all of its floor, in view or not), and for Boxel the blocks with a face toward a
non-opaque block in the sections drawn (`game.window.frame_profile.exposed_blocks`), from profiled runs
(`--profile-frames`) of the game at view distance 8: standing still looking where the game suite runs (a
static view, as the peers have) and running the game suite's replay (streaming). The sample is also run
with a URSINA_BIG_FLOOR floor of its own voxels.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

from .harness import XVFB_RUN, Row, run_in_window
from .peers_harness import RESULT_MARKER, SETTLE_FRAMES, harness_fogleman, harness_ursina  # noqa: F401  (old home)

SUITE = "peers"
ROOT = Path(__file__).resolve().parents[1]
PEERS_DIR = ROOT / ".cache" / "peers"
FOGLEMAN_DIR = PEERS_DIR / "fogleman-Minecraft"
URSINA_SAMPLE = PEERS_DIR / "ursina-sample" / "minecraft_clone.py"
PYGLET1_PYTHON = PEERS_DIR / "pyglet1-venv" / "bin" / "python"
HARNESS = Path(__file__).resolve().parent / "peers_harness.py"
SIZES = ("1280x720", "160x90")
"""[pixels] The game suite's window and the CPU floor."""
PEER_FRAMES = 300
QUICK_FRAMES = 30
BOXEL_WINDOW_FRAMES = 10
"""Frames Boxel's window is drawn empty to read its GL configuration (not timed for a row)."""
ROUNDS = 3
"""Every program runs once per round, in turns: the rows are medians over the rounds, ranges in the notes."""
QUICK_ROUNDS = 1
BOXEL_TICKS = 400
"""[ticks] 20 s of the game suite's running replay."""
QUICK_BOXEL_TICKS = 200
URSINA_BIG_FLOOR = 32
"""[blocks] The sample's floor is 8 x 8 voxels; this variant lays a 32 x 32 floor of the sample's own `Voxel`
(1,024 entities, its author's design at a larger world) to show how its per-block cost scales."""
RUN_TIMEOUT_S = 600
LLVMPIPE_THREADS = "2"
# The programs, by the names of their rows; each round runs them in `_round`'s order (Boxel standing and
# fogleman, the pair compared most closely, one right after the other).
BOXEL_STANDING = "Boxel standing"
FOGLEMAN = "fogleman/Minecraft"
BOXEL_RUNNING = "Boxel running"
URSINA = "Ursina sample"
URSINA_BIG = f"Ursina sample, {URSINA_BIG_FLOOR}x{URSINA_BIG_FLOOR} floor"


@dataclass(frozen=True)
class Terms:
    """What every program must have drawn with for its frame time to be compared."""

    size: tuple[int, int]
    """[pixels] The window, its framebuffer and its viewport."""
    samples: int = 0
    """GL_SAMPLES and GL_SAMPLE_BUFFERS: no multisampling on either side."""
    raster_threads: int = int(LLVMPIPE_THREADS)
    """At most this many llvmpipe raster threads worked during the timed frames."""

    def text(self, renderer: str) -> str:
        return (f"{self.size[0]}x{self.size[1]} window = framebuffer = viewport, no multisampling, "
                f"{renderer} with <= {self.raster_threads} raster threads, Xvfb {XVFB_RUN[-1]}")


def per_block_us(frame_ms: float, blocks: int) -> float:
    """[us] Frame time per visible block."""
    if blocks <= 0:
        raise ValueError(f"per-block time needs at least one visible block, got {blocks}")
    if not frame_ms >= 0.0:
        raise ValueError(f"frame time must be a non-negative number of ms, got {frame_ms}")
    return frame_ms * 1000.0 / blocks


def check_equal_terms(terms: Terms, reports: dict[str, dict]) -> str:
    """The renderer every program drew with, when each report's `gl` (and `cpu`, where there is one) meets
    `terms` and all name the same renderer; ValueError saying which program differs how otherwise."""
    if not reports:
        raise ValueError("no program reported its GL configuration")
    size = list(terms.size)
    renderers = set()
    for name, report in reports.items():
        gl = report.get("gl")
        if not isinstance(gl, dict):
            raise ValueError(f"{name} reported no GL configuration")
        for key in ("viewport", "framebuffer", "window"):
            if list(gl[key]) != size:
                raise ValueError(f"{name} drew with a {key} of {gl[key]}, not the {size} asked")
        for key in ("samples", "sample_buffers"):
            if gl[key] != terms.samples:
                raise ValueError(f"{name} drew with GL {key} {gl[key]}: multisampling, where the terms have none")
        threads = report.get("cpu", {}).get("raster_threads", 0)
        if threads > terms.raster_threads:
            raise ValueError(f"{name} rasterised on {threads} llvmpipe threads, more than {terms.raster_threads}")
        renderers.add(gl["renderer"])
    if len(renderers) != 1:
        raise ValueError(f"the programs drew with different renderers: {sorted(renderers)}")
    return renderers.pop()


def spread(values: list[float]) -> tuple[float, float, float]:
    """(median, lowest, highest) of one figure over the rounds."""
    if not values:
        raise ValueError("no rounds to summarise")
    return statistics.median(values), min(values), max(values)


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


def _llvmpipe_env() -> dict:
    return dict(os.environ, LP_NUM_THREADS=LLVMPIPE_THREADS, LIBGL_ALWAYS_SOFTWARE="1")


def _run_peer(python: Path, which: str, size: str, frames: int, floor: int = 0) -> dict:
    command = [str(python), str(HARNESS), which, size, str(frames), str(floor)]
    done = run_in_window(command, timeout_s=RUN_TIMEOUT_S, env=_llvmpipe_env())
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


def _boxel(size: str, ticks: int, standing: bool, window: dict) -> dict:
    """Boxel's frames timed by the game; `window`: its GL configuration (`_run_peer(..., "boxel", ...)`)."""
    import tempfile

    from .bench_game import VIEW_DISTANCE, play
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        report = play(folder, VIEW_DISTANCE, ticks, window=size, profile=True,
                      replay=standing_replay(folder) if standing else None)
    gl = dict(window["gl"], renderer=report.get("graphics_renderer", "").split(" (OpenGL")[0]
              or window["gl"]["renderer"])
    return {"frame_ms": report["frame_ms"]["median"], "visible_blocks": report["frame_profile"]["drawn_blocks"],
            "frames": report["frame_ms"]["frames"], "gl": gl}


def _round(size: str, quick: bool) -> dict[str, dict]:
    """One run of every program at `size`, in turns."""
    frames = QUICK_FRAMES if quick else PEER_FRAMES
    ticks = QUICK_BOXEL_TICKS if quick else BOXEL_TICKS
    here = Path(sys.executable)
    window = _run_peer(here, "boxel", size, BOXEL_WINDOW_FRAMES)
    programs = {BOXEL_STANDING: lambda: _boxel(size, ticks, True, window),
                FOGLEMAN: lambda: _run_peer(PYGLET1_PYTHON, "fogleman", size, frames),
                BOXEL_RUNNING: lambda: _boxel(size, ticks, False, window),
                URSINA: lambda: _run_peer(here, "ursina", size, frames),
                URSINA_BIG: lambda: _run_peer(here, "ursina", size, frames, URSINA_BIG_FLOOR)}
    return {name: measure() for name, measure in programs.items()}


def rows_for(size: str, rounds: list[dict[str, dict]]) -> list[Row]:
    """The rows of one size from its rounds (each: program -> its report), after checking the terms."""
    width, height = (int(v) for v in size.split("x"))
    terms = Terms((width, height))
    renderer = ""
    for results in rounds:
        renderer = check_equal_terms(terms, results)
    count = len(rounds)
    rows = []
    for name in rounds[0]:
        frame, low, high = spread([r[name]["frame_ms"] for r in rounds])
        blocks = statistics.median(r[name]["visible_blocks"] for r in rounds)
        cpu = rounds[-1][name].get("cpu")
        cpu_note = (f"; CPU per frame: main thread {cpu['main_cpu_ms']:.3g} ms, raster threads "
                    f"{cpu['raster_cpu_ms']:.3g} ms" if cpu else "")
        rows.append(Row(SUITE, f"{name} frame time median ({size})", frame, "ms",
                        note=f"{count} run{'s' * (count != 1)} {low:.3g}-{high:.3g} ms, {blocks:,.0f} visible blocks, "
                             f"{rounds[0][name]['frames']} frames, {per_block_us(frame, int(blocks)):.3g} us per "
                             f"block{cpu_note}"))
    for name in (FOGLEMAN, URSINA, URSINA_BIG):
        ours = [per_block_us(r[BOXEL_STANDING]["frame_ms"], r[BOXEL_STANDING]["visible_blocks"]) for r in rounds]
        theirs = [per_block_us(r[name]["frame_ms"], r[name]["visible_blocks"]) for r in rounds]
        _, low, high = spread([t / o for o, t in zip(ours, theirs)])
        rows.append(Row(SUITE, f"Boxel (standing) frame time per visible block vs {name} ({size})",
                        statistics.median(ours), "us", reference=statistics.median(theirs),
                        note=f"reference: the peer's frame time per visible block; ratio in each of {count} "
                             f"rounds {low:.2f}-{high:.2f}x"))
    _, low, high = spread([r[FOGLEMAN]["frame_ms"] / r[BOXEL_STANDING]["frame_ms"] for r in rounds])
    rows.append(Row(SUITE, f"Boxel (standing, view distance 8) frame time vs {FOGLEMAN} ({size})",
                    statistics.median(r[BOXEL_STANDING]["frame_ms"] for r in rounds), "ms",
                    reference=statistics.median(r[FOGLEMAN]["frame_ms"] for r in rounds),
                    note=f"whole frames, in turns; ratio in each of {count} rounds {low:.2f}-{high:.2f}x; "
                         f"terms: {terms.text(renderer)}"))
    return rows


def run(quick: bool) -> list[Row]:
    missing = missing_peers()
    if missing:
        print(f"peers: skipped, fetch the peers into {PEERS_DIR.relative_to(ROOT)} first; missing: "
              + "; ".join(missing), file=sys.stderr)
        return []
    rounds = QUICK_ROUNDS if quick else ROUNDS
    rows = []
    for size in SIZES:
        rows.extend(rows_for(size, [_round(size, quick) for _ in range(rounds)]))
    return rows
