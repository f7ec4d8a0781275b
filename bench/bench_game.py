"""Game benchmark: start-up and frame times of the real game streaming a world while the player runs.

The game runs in a subprocess under `xvfb-run` with software OpenGL (llvmpipe, LP_NUM_THREADS=2)
at 1280x720, on a new world of seed 42, playing a replay that looks north-east, holds W and Space
(jumping over the one-block steps of the terrain) for 60 s (1200 ticks), sprinting after the
first 10 s: 371 blocks in a straight line, across 33 column borders, at view distance 8.
`--realtime` makes the ticks follow the wall clock, so frame times are what a player would see.

Rows: time from process start to the first playable frame (the loading screen closed), and the
frame-time median, p95, p99 and max of the frames played: after the loading screen, up to the last
tick (the game's report leaves out the end of the run: its wait for streaming and its closing frames). The reference is
the same run at view distance 4 (a quarter of the columns); a last row compares the median with the
same run drawing every shown section (`--no-cave-culling`), two compare the game's draw thread with the
draw on the main thread (`--no-draw-thread`) at 1280x720 and at SMALL_WINDOW, one compares SMALL_WINDOW's levels
of detail (sections beyond what such a window can show drawn coarse, `game.window.render.lod_distance`) with every
section fine (`--no-lod`), and two more give the same run at
view distance 16 with levels of detail (far sections drawn coarse) against view distance 8. Each row comes from one run of
1000+ frames, whose distribution is the result, so `harness.median_time` (repeats of one short
operation) does not apply here.
Targets: first playable frame <= 5 s, p99 <= 2x median, no frame over 100 ms.

`--profile` (`python -m bench game --profile`) runs the same replay with the game's hidden
`--profile-frames` (which draws on the main thread, so the draw's parts add up inside the frame) at
PROFILE_SIZES, view distance 8, and prints the frame breakdown read from
Panda3D's PStats collectors (`game.window.frame_profile`): median and mean milliseconds per frame for each
part (Python tasks, cull, draw, the flip) and the counts drawn (geoms, draw calls,
vertices, triangles), plus the scene's totals. Its rows are the profiled runs' frame-time medians.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from game.rules.replay import KeyDown, Look, ReplayWriter
from game.world import World
from game.world.coords import CHUNK_SIZE

from .harness import Row, run_in_window

SUITE = "game"
SEED = 42
RUN_TICKS = 1200
"""[ticks] 60 s of play."""
QUICK_TICKS = 200
SPRINT_FROM_TICK = 200
"""[ticks] Walk for 10 s, then sprint."""
RUN_YAW = 225.0
"""[degrees] North-east (+X, -Z): on seed 42 the longest run from spawn that holding forward and jump
keeps going (found by simulating every 15 degrees with `game.rules.player.Player` headless)."""
RUN_PITCH = 10.0
VIEW_DISTANCE = 8
REFERENCE_VIEW_DISTANCE = 4
FAR_VIEW_DISTANCE = 16
"""[columns] Beta's "Far": the row run with levels of detail (`lod_distance.lod_distance_for`), against
VIEW_DISTANCE as its reference."""
WINDOW = "1280x720"
SMALL_WINDOW = "160x90"
"""So few pixels that the frame is the CPU's own work (and, on software OpenGL, the vertices)."""
LLVMPIPE_THREADS = "2"
RUN_TIMEOUT_S = 600
PROFILE_SIZES = (SMALL_WINDOW, WINDOW)
"""The CPU floor (a window so small that drawing pixels costs next to nothing) and the target window."""
PROFILE_TICKS = 600
"""[ticks] 30 s of play per profiled window size: ~1000 frames at 1280x720."""
ROOT = Path(__file__).resolve().parents[1]


def run_replay(folder: Path) -> Path:
    path = folder / "run.jsonl"
    with ReplayWriter.open(path) as writer:
        for event in (Look(0, RUN_YAW, RUN_PITCH), KeyDown(0, "w"), KeyDown(0, "space"),
                      KeyDown(SPRINT_FROM_TICK, "control")):
            writer.write(event)
    return path


def play(folder: Path, view_distance: int, ticks: int, window: str = WINDOW, profile: bool = False,
         replay: Path | None = None, cave_culling: bool = True, offscreen: bool = False,
         screenshot: Path | None = None, levels_of_detail: bool = True, draw_thread: bool = True) -> dict:
    """Run the game once on a fresh world (`replay`: by default the running replay of `run_replay`; without
    `cave_culling`, every shown section is drawn); returns its report plus 'first_playable_from_start_s'.
    `offscreen`: no Xvfb and no forced software OpenGL; the game draws into an EGL buffer (`--offscreen`)
    with whatever driver EGL finds, a GPU's where there is one. Without `levels_of_detail` (`--no-lod`) every
    section is drawn from its fine mesh at any view distance. Without `draw_thread` (`--no-draw-thread`)
    Panda3D draws on the main thread."""
    name = (f"{view_distance}-{window}" + ("" if cave_culling else "-all-drawn")
            + ("" if levels_of_detail else "-no-lod") + ("" if draw_thread else "-main-thread-draw"))
    world = folder / f"world-{name}.boxel"
    with World.create(world, SEED) as created:
        spawn = created.spawn
    report = folder / f"report-{name}.json"
    env = dict(os.environ, BOXEL_DATA_DIR=str(folder / "data"), BOXEL_CONFIG_DIR=str(folder / "config"))
    if offscreen:
        env.pop("DISPLAY", None)  # EGL then looks for a device of its own
    else:
        env.update(LP_NUM_THREADS=LLVMPIPE_THREADS, LIBGL_ALWAYS_SOFTWARE="1")
    command = [sys.executable, str(ROOT / "main.py"),
               "--world", str(world), "--view-distance", str(view_distance), "--size", window,
               "--replay", str(replay if replay is not None else run_replay(folder)), "--realtime",
               "--exit-after-ticks", str(ticks),
               "--report", str(report), *(["--profile-frames"] if profile else []),
               *([] if cave_culling else ["--no-cave-culling"]), *([] if levels_of_detail else ["--no-lod"]),
               *([] if draw_thread else ["--no-draw-thread"]),
               *(["--offscreen"] if offscreen else []),
               *(["--screenshot", str(screenshot)] if screenshot is not None else [])]
    started = time.time()
    if offscreen:
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    else:
        done = run_in_window(command, timeout_s=RUN_TIMEOUT_S, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"the game exited with {done.returncode}:\n{done.stderr[-3000:]}")
    result = json.loads(report.read_text(encoding="utf-8"))
    result["first_playable_from_start_s"] = result["first_playable_epoch_s"] - started
    (x0, _, z0), (x1, _, z1) = spawn, result["feet"]
    result["blocks_run"] = math.hypot(x1 - x0, z1 - z0)
    result["borders_crossed"] = (abs(math.floor(x1 / CHUNK_SIZE) - math.floor(x0 / CHUNK_SIZE))
                                 + abs(math.floor(z1 / CHUNK_SIZE) - math.floor(z0 / CHUNK_SIZE)))
    return result


def run(quick: bool, profile: bool = False) -> list[Row]:
    if profile:
        return run_profile(quick)
    ticks = QUICK_TICKS if quick else RUN_TICKS
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        main = play(folder, VIEW_DISTANCE, ticks)
        main_thread = play(folder, VIEW_DISTANCE, ticks, draw_thread=False)
        small = play(folder, VIEW_DISTANCE, ticks, window=SMALL_WINDOW)
        small_main_thread = play(folder, VIEW_DISTANCE, ticks, window=SMALL_WINDOW, draw_thread=False)
        small_fine = play(folder, VIEW_DISTANCE, ticks, window=SMALL_WINDOW, levels_of_detail=False)
        reference = play(folder, REFERENCE_VIEW_DISTANCE, ticks)
        all_drawn = play(folder, VIEW_DISTANCE, ticks, cave_culling=False)
        far = play(folder, FAR_VIEW_DISTANCE, ticks)
    frames, reference_frames, far_frames = main["frame_ms"], reference["frame_ms"], far["frame_ms"]
    borders = (f"{frames['frames']} frames, {ticks} ticks, {main['blocks_run']:.0f} blocks run, "
               f"{main['borders_crossed']} column borders crossed; reference: view distance {REFERENCE_VIEW_DISTANCE}")
    return [
        Row(SUITE, f"start to first playable frame (view {VIEW_DISTANCE})", main["first_playable_from_start_s"], "s",
            reference=reference["first_playable_from_start_s"], target="<= 5 s",
            note="process start under xvfb-run to the loading screen closing"),
        Row(SUITE, "frame time median", frames["median"], "ms", reference=reference_frames["median"], note=borders),
        Row(SUITE, "frame time p95", frames["p95"], "ms", reference=reference_frames["p95"]),
        Row(SUITE, "frame time p99", frames["p99"], "ms", reference=reference_frames["p99"],
            target=f"<= 2x median ({2 * frames['median']:.0f} ms)"),
        Row(SUITE, "worst frame after loading", frames["max"], "ms", reference=reference_frames["max"],
            target="<= 100 ms"),
        Row(SUITE, "frame time median vs every shown section drawn", frames["median"], "ms",
            reference=all_drawn["frame_ms"]["median"],
            note=f"reference: --no-cave-culling, view distance {VIEW_DISTANCE}; {main['sections_hidden']} of "
                 f"{main['sections_shown']} sections hidden at the end"),
        *(Row(SUITE, f"frame time median at {window}: draw thread vs the draw on the main thread",
              threaded["frame_ms"]["median"], "ms", reference=unthreaded["frame_ms"]["median"],
              note=f"reference: --no-draw-thread; worst frames {threaded['frame_ms']['max']:.0f} and "
                   f"{unthreaded['frame_ms']['max']:.0f} ms")
          for window, threaded, unthreaded in ((WINDOW, main, main_thread), (SMALL_WINDOW, small, small_main_thread))),
        Row(SUITE, f"frame time median at {SMALL_WINDOW}: the window's levels of detail vs every section fine",
            small["frame_ms"]["median"], "ms", reference=small_fine["frame_ms"]["median"], target="<= 8 ms",
            note=f"reference: --no-lod; coarse beyond {small['lod_distance']} columns, {small['sections_coarse']} of "
                 f"{small['sections_shown']} sections at the end; worst frames {small['frame_ms']['max']:.0f} and "
                 f"{small_fine['frame_ms']['max']:.0f} ms"),
        Row(SUITE, f"frame time median, view distance {FAR_VIEW_DISTANCE} with levels of detail", far_frames["median"],
            "ms", reference=frames["median"], target="<= 33 ms",
            note=f"reference: view distance {VIEW_DISTANCE}; {far_frames['frames']} frames; "
                 f"p99 {far_frames['p99']:.0f} ms"),
        Row(SUITE, f"worst frame after loading, view distance {FAR_VIEW_DISTANCE} with levels of detail",
            far_frames["max"], "ms", reference=frames["max"], target="<= 100 ms"),
    ]


@dataclass(frozen=True)
class Part:
    """One line of the frame breakdown: PStats collectors (full names) added, others subtracted."""

    label: str
    plus: tuple[str, ...]
    minus: tuple[str, ...] = ()
    children_of: str = ""
    """With it, every direct child of this collector is added too, except those named in `excluded`."""
    excluded: tuple[str, ...] = ()
    subtract_children: bool = False
    """The children of `children_of` are subtracted instead of added."""
    top_level: bool = False
    """A part of the whole frame that no other top-level part contains (the rest of the frame is what they leave)."""

    def value(self, collectors: dict[str, dict[str, float]], statistic: str) -> float:
        """[ms] The part's `statistic` ('median' or 'mean') from a report's `frame_profile['ms']`. A part made
        of several collectors adds and subtracts that statistic of each: exact for means, rough for medians."""
        def get(name: str) -> float:
            return collectors.get(name, {}).get(statistic, 0.0)

        children = set()
        if self.children_of:
            prefix = self.children_of + ":"
            children = {n for n in collectors if n.startswith(prefix) and ":" not in n[len(prefix):]}
            children -= set(self.excluded)
        added = set(self.plus) | (set() if self.subtract_children else children)
        subtracted = list(self.minus) + sorted(children if self.subtract_children else ())
        return sum(get(n) for n in added) - sum(get(n) for n in subtracted)


UPDATE_TASK = "App:Show code:update"
BREAKDOWN = (
    # Names as Panda3D 1.10 sends them. "Draw" and "Wait:Flip" are never started themselves (only their
    # children are), and "Draw:Set State" or "Draw:Primitive" run inside "Draw:window1": the draw part is the
    # window's own collector. "Cull" is started around the whole cull traversal.
    Part("whole frame (PStats 'Frame')", ("Frame",)),
    Part("Python: Ursina's update task", (UPDATE_TASK,), top_level=True),
    Part("- Boxel's frame (Game.update)", ("Boxel:Game.update",)),
    Part("-- ticks (session tick, HUD, sounds)", ("Boxel:ticks",)),
    Part("--- session tick (rules, physics, mobs' brains, fluids)", ("Boxel:ticks:session tick",)),
    Part("-- player view (camera, target, outline)", ("Boxel:player view",)),
    Part("--- mobs, projectiles, falling blocks", ("Boxel:player view:mobs",)),
    Part("--- sky", ("Boxel:player view:sky",)),
    Part("-- streaming (requests, mesh uploads)", ("Boxel:streaming",)),
    Part("-- cave culling (the sections the eye can see, stashing the rest)", ("Boxel:cave culling",)),
    Part("- HUD (its update; its show calls also count in ticks)", ("Boxel:HUD",)),
    Part("- F3 overlay", ("Boxel:overlay",)),
    Part("- Ursina's mouse picking (mouse.update: rays into the UI and the 3D scene)", ("Ursina:mouse picking",)),
    Part("- other entities' own updates (sky, clouds, widgets...)", (), children_of="Ursina:entity updates"),
    Part("- the profile's own reading of PStats frames", ("Boxel:profile poll",)),
    Part("- Ursina's loop over its entities (task - the lines above)", (UPDATE_TASK,),
         ("Boxel:Game.update", "Boxel:HUD", "Ursina:mouse picking", "Boxel:profile poll"),
         children_of="Ursina:entity updates", subtract_children=True),
    Part("Python: Panda3D's other tasks (events, input, state GC, intervals)", (), children_of="App:Show code",
         excluded=(UPDATE_TASK, "App:Show code:General", "App:Show code:igLoop"), top_level=True),
    Part("Panda3D cull", ("Cull",), top_level=True),
    Part("Panda3D draw (the window's display regions, making its context current)",
         ("Draw:window1", "Draw:Make current"), top_level=True),
    Part("swap: begin and end of the flip", ("Wait:Flip:Begin", "Wait:Flip:End"), top_level=True),
)
COUNTS = (
    ("geoms drawn (after culling)", ("Geoms",), 1.0),
    ("nodes visited by cull", ("Nodes",), 1.0),
    ("draw calls (primitive batches)", ("Primitive batches:Triangles", "Primitive batches:Triangle strips",
                                         "Primitive batches:Triangle fans", "Primitive batches:Other"), 1.0),
    ("vertices drawn (triangle vertex references)", ("Vertices:Triangles", "Vertices:Triangle strips",
                                                     "Vertices:Triangle fans", "Vertices:Other"), 1.0),
    ("triangles drawn (triangle vertices / 3)", ("Vertices:Triangles",), 1.0 / 3.0),
    ("state changes", ("State changes",), 1.0),
)
SCENE_COUNTS = (("scene nodes", "nodes"), ("scene geoms", "geoms"), ("scene vertices", "vertices"),
                ("scene triangles", "triangles"), ("Ursina entities", "ursina_entities"))


def breakdown_table(profiles: dict[str, dict]) -> str:
    """A Markdown table of the frame breakdown: one column pair (median, mean) per window size, from each run's
    report (its `frame_ms` and `frame_profile`)."""
    if not profiles:
        raise ValueError("a breakdown table needs at least one profiled run")
    sizes = list(profiles)
    lines = ["| part | " + " | ".join(f"{s} median | {s} mean" for s in sizes) + " |",
             "|---|" + "---:|---:|" * len(sizes)]
    for part in BREAKDOWN:
        cells = []
        for size in sizes:
            collectors = profiles[size]["frame_profile"]["ms"]
            cells += [f"{part.value(collectors, 'median'):.2f} ms", f"{part.value(collectors, 'mean'):.2f} ms"]
        lines.append(f"| {part.label} | " + " | ".join(cells) + " |")
    cells = []
    for size in sizes:
        collectors = profiles[size]["frame_profile"]["ms"]
        for statistic in ("median", "mean"):
            rest = collectors.get("Frame", {}).get(statistic, 0.0) - sum(
                p.value(collectors, statistic) for p in BREAKDOWN if p.top_level)
            cells.append(f"{rest:.2f} ms")
    lines.append("| rest of the frame (whole frame - the top-level parts) | " + " | ".join(cells) + " |")
    for label, names, scale in COUNTS:
        cells = []
        for size in sizes:
            levels = profiles[size]["frame_profile"]["levels"]
            cells += [f"{sum(levels.get(n, 0.0) for n in names) * scale:,.0f}", ""]
        lines.append(f"| {label} (median per frame) | " + " | ".join(cells) + " |")
    for label, key in SCENE_COUNTS:
        cells = []
        for size in sizes:
            cells += [f"{profiles[size]['frame_profile']['scene'][key]:,}", ""]
        lines.append(f"| {label} (at the end) | " + " | ".join(cells) + " |")
    cells = []
    for size in sizes:
        profile = profiles[size]["frame_profile"]
        cells += [f"{profile['frames']} frames", f"{profile['frames_missing']} missing"]
    lines.append("| frames profiled | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def startup_line(report: dict) -> str:
    """The loading's milestones of a `play` report, in seconds from process start: the first playable frame
    (the loading screen closing), the first frame of play drawn, and how long the loading frames that draw
    everything once behind the loading screen took (`game.window.first_draws`)."""
    start = report["first_playable_epoch_s"] - report["first_playable_from_start_s"]
    times = report["loading_times"]
    parts = [f"first playable frame {report['first_playable_from_start_s']:.2f} s"]
    if "first_frame_drawn" in times:
        parts.append(f"first frame of play drawn {times['first_frame_drawn'] - start:.2f} s")
    if "first_draws_started" in times:
        parts.append(f"first draws {1000.0 * (report['first_playable_epoch_s'] - times['first_draws_started']):.0f} ms "
                     "(behind the loading screen)")
    return "; ".join(parts)


def run_profile(quick: bool) -> list[Row]:
    ticks = QUICK_TICKS if quick else PROFILE_TICKS
    profiles = {}
    with tempfile.TemporaryDirectory() as name:
        for window in PROFILE_SIZES:
            profiles[window] = play(Path(name), VIEW_DISTANCE, ticks, window=window, profile=True)
    print(f"Frame breakdown (view distance {VIEW_DISTANCE}, {ticks} ticks of the running replay, llvmpipe with "
          f"LP_NUM_THREADS={LLVMPIPE_THREADS}):")
    print(breakdown_table(profiles))
    for window, report in profiles.items():
        kinds = ", ".join(f"{name} {count}" for name, count in report["frame_profile"]["ursina_entity_kinds"].items())
        print(f"Ursina entities by class ({window}): {kinds}")
        prefix = "Ursina:entity updates:"
        updates = sorted(((name[len(prefix):], ms["mean"]) for name, ms in report["frame_profile"]["ms"].items()
                          if name.startswith(prefix)), key=lambda item: -item[1])
        profile = report["frame_profile"]
        print(f"Ursina's entity loop replayed at the end ({window}): {profile['ursina_loop_replayed_ms']:.2f} ms "
              f"over {profile['scene']['ursina_entities']} entities; {profile['ursina_sequences']} animation sequences")
        print(f"Entities' own updates, mean per frame ({window}): "
              + ", ".join(f"{name} {mean:.2f} ms" for name, mean in updates))
        print(f"Start-up ({window}): {startup_line(report)}")
        for worst in profile.get("worst_frames", ()):
            parts = ", ".join(f"{name} {ms:.1f}" for name, ms in worst["parts"].items())
            print(f"Slow frame ({window}) {worst['frame']}: {worst['ms']:.1f} ms: {parts}")
    return [Row(SUITE, f"frame time median, profiled ({window})", report["frame_ms"]["median"], "ms",
                note=f"{report['frame_profile']['drawn_blocks']:,} drawn blocks; PStats connected")
            for window, report in profiles.items()]
