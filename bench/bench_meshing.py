"""Meshing benchmark: `python -m bench meshing`.

Owns: the cases that time the section mesher (the median and the busiest generated surface
section around spawn, the worst-case checkerboard, a sea surface of flowing water and a fluid
checkerboard, each against the per-voxel reference mesher; the median lit surface section meshed into
packed vertices with and without merged faces and with its faces sorted by the way they face, against
the per-face float meshes; what leaving out the faces facing away costs per part and new eye) and the upload of one
section's arrays into an `ursina.Mesh` + Entity (`chunk_renderer.upload`, against building the
same Mesh from Python lists). The upload needs a window, so it runs in a subprocess (`python -m bench.bench_meshing
--upload`), under `xvfb-run` when there is no DISPLAY; without either that row is a note.
Does not own: the timing method (`bench/harness.py`).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np

from bench.harness import Row, median_time, run_in_window
from game.world.blocks import LAVA_IDS, WATER_IDS, block_id
from game.world.meshing import PADDED_SIZE, mesh_section, mesh_section_passes
from game.world.meshing_merge import mesh_section_compact
from game.world.meshing_reference import mesh_section_reference

SUITE = "meshing"
ROOT = Path(__file__).resolve().parents[1]
SEED = 42
SAMPLE_RADIUS = 2
"""[columns] Typical sections are drawn from the columns within this many of the spawn column."""
UPLOAD_TIMEOUT_S = 300


def surface_sections(seed: int = SEED, lit: bool = False) -> list:
    """Padded sections that hold the generated surface (grass, trees, hills) around spawn; with `lit`,
    (padded section, padded light) pairs."""
    from game.world.world import World
    with tempfile.TemporaryDirectory() as folder:
        world = World.create(Path(folder) / "bench.world", seed)
        found = []
        for cx in range(-SAMPLE_RADIUS, SAMPLE_RADIUS + 1):
            for cz in range(-SAMPLE_RADIUS, SAMPLE_RADIUS + 1):
                heights = np.flatnonzero((world.column(cx, cz) != 0).any(axis=(0, 2)))
                top_sy = int(heights.max()) // 16
                found += [(world.padded_section(cx, sy, cz), world.padded_light(cx, sy, cz)) if lit
                          else world.padded_section(cx, sy, cz) for sy in range(max(0, top_sy - 1), top_sy + 1)]
        world.close()
    return found


def ranked_surface_sections() -> list[np.ndarray]:
    """The surface sections around spawn, fewest faces first."""
    sections = surface_sections()
    counts = [sum(part.face_count for part in mesh_section(s)) for s in sections]
    return [sections[i] for i in np.argsort(counts, kind="stable")]


def typical_section() -> tuple[np.ndarray, int]:
    """The surface section with the median face count, and that count."""
    ranked = ranked_surface_sections()
    section = ranked[len(ranked) // 2]
    return section, sum(part.face_count for part in mesh_section(section))


def checkerboard_section() -> np.ndarray:
    """Every other block stone in 3D: each block shows all 6 faces (12,288 faces in the section)."""
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    padded[np.indices(padded.shape).sum(axis=0) % 2 == 0] = block_id("stone")
    return padded


def water_surface_section(seed: int = SEED) -> np.ndarray:
    """Water over a stone floor filling the section, every surface cell at a random level 0..15, with
    plants and glass scattered under it: every cell of the top layer has its own sloped surface,
    the busiest water a section holds in play."""
    rng = np.random.default_rng(seed)
    padded = np.zeros((PADDED_SIZE,) * 3, dtype=np.uint16)
    padded[:, :2, :] = block_id("stone")
    padded[:, 2:16, :] = WATER_IDS[0]
    padded[:, 16, :] = WATER_IDS[rng.integers(0, 16, (PADDED_SIZE, PADDED_SIZE))]
    floor = padded[:, 2, :]
    floor[rng.random(floor.shape) < 0.2] = block_id("tall_grass")
    floor[rng.random(floor.shape) < 0.1] = block_id("glass")
    return padded


def fluid_checkerboard_section(seed: int = SEED) -> np.ndarray:
    """Every other cell in 3D a fluid (water or lava, random levels), the rest air: every fluid cell
    shows all 6 faces and every corner averages four cells (the fluid pass's worst case)."""
    rng = np.random.default_rng(seed)
    fluids = np.concatenate([WATER_IDS, LAVA_IDS])
    padded = fluids[rng.integers(0, len(fluids), (PADDED_SIZE,) * 3)].astype(np.uint16)
    padded[np.indices(padded.shape).sum(axis=0) % 2 == 1] = 0
    return padded


def _merge_rows(quick: bool) -> list[Row]:
    """The lit surface section with the median face count, meshed into packed vertices with faces merged
    (`mesh_section_compact`, the game's job) and without, against the per-face float meshes
    (`mesh_section_passes`, the job before)."""
    sections = surface_sections(lit=True)
    counts = [sum(part.face_count for part in mesh_section(*pair)) for pair in sections]
    padded, light = sections[int(np.argsort(counts, kind="stable")[len(sections) // 2])]
    repeats = 20 if quick else 200
    before = median_time(lambda: mesh_section_passes(padded, light), repeats=repeats, warmup=3, unit="ms")
    rows = []
    for merge, facing, label in ((True, True, "merged, sorted by the way they face (the game's job)"),
                                 (True, False, "merged"), (False, False, "every face on its own")):
        parts = mesh_section_compact(padded, light, merge, facing)
        took = median_time(lambda: mesh_section_compact(padded, light, merge, facing), repeats=repeats, warmup=3,
                           unit="ms")
        old = mesh_section_passes(padded, light)
        faces, old_faces = (sum(part.face_count for part in p) for p in (parts, old))
        old_bytes = sum(part.positions.nbytes + part.uvs.nbytes + part.colors.nbytes for part in old)
        new_bytes = sum(part.vertex_bytes for part in parts)
        rows.append(Row(SUITE, f"mesh typical lit terrain section into packed vertices, {label}", took, "ms", before,
                        "", f"{faces} faces against {old_faces}; vertex bytes {new_bytes:,} against {old_bytes:,} "
                            f"({new_bytes / old_bytes:.0%}); reference: per-face float meshes (mesh_section_passes)"))
    rows.append(_facing_row(mesh_section_compact(padded, light, True, True)[0], quick))
    return rows


def _facing_row(part, quick: bool) -> Row:
    """What the renderer works out for one part when the eye crossed one of its faces' planes: the faces
    kept, the steady bounds and the index list (`game.window.render.section_facing`, without the upload)."""
    from game.world.meshing_facing import facing_indices, facing_state
    ranked = part.facing.ranked
    eyes = [(8.5, 8.5 + 0.25 * k, 8.5) for k in range(8)]  # inside the section: every group is searched

    def update() -> None:
        for eye in eyes:
            counts, _, _ = facing_state(part.facing, eye, ranked)
            facing_indices(part.indices, part.facing, counts)

    took = median_time(update, repeats=20 if quick else 200, warmup=3, unit="ms") / len(eyes)
    return Row(SUITE, "faces facing a new eye: one part's kept faces, steady bounds and index list", took, "ms",
               None, "", f"{part.face_count} faces, opaque part of the typical lit section; the renderer's "
                         "upload of the index list comes on top")


def _mesh_row(case: str, padded: np.ndarray, quick: bool, target: str) -> Row:
    faces = sum(part.face_count for part in mesh_section(padded))
    fast = median_time(lambda: mesh_section(padded), repeats=20 if quick else 200, warmup=3, unit="ms")
    reference = median_time(lambda: mesh_section_reference(padded), repeats=1 if quick else 5, warmup=0, unit="ms")
    return Row(SUITE, case, fast, "ms", reference, target, f"{faces} faces; reference: per-voxel Python mesher")


# --- the upload case (runs in its own process, with a window) ---------------------------------


def measure_upload(quick: bool) -> dict:
    """In a fresh process with a display: median ms of `chunk_renderer.upload` (Mesh + Entity from the
    flat arrays), and of the same Mesh + Entity from Python lists."""
    from ursina import Entity, Mesh, destroy, scene

    from game.window.render.window import open_window

    from game.window.render.chunk_renderer import load_atlas_texture, mesh_for_ursina, upload
    from game.world.meshing import OPAQUE_PASS
    app = open_window((320, 180), "Boxel upload benchmark", borderless=True)
    section, faces = typical_section()
    arrays = mesh_for_ursina(section)[OPAQUE_PASS]
    texture = load_atlas_texture()
    made: list[Entity] = []

    def clear() -> None:
        for entity in made:
            destroy(entity)
        made.clear()
        app.step()  # lets Ursina finish destroying, outside the timed part

    def from_arrays() -> None:
        made.append(upload(arrays, texture, scene, (0.0, 0.0, 0.0), OPAQUE_PASS))

    lists = (arrays.positions.reshape(-1, 3).tolist(), arrays.triangles.tolist(), arrays.uvs.reshape(-1, 2).tolist(),
             arrays.colors.reshape(-1, 4).tolist())

    def from_lists() -> None:
        vertices, triangles, uvs, colors = lists
        made.append(Entity(model=Mesh(vertices=vertices, triangles=triangles, uvs=uvs, colors=colors), texture=texture))

    repeats = 10 if quick else 100
    fast = median_time(from_arrays, repeats=repeats, warmup=3, unit="ms", setup=clear)
    slow = median_time(from_lists, repeats=max(3, repeats // 10), warmup=1, unit="ms", setup=clear)
    return {"upload_ms": fast, "lists_ms": slow, "faces": faces}


def _upload_row(quick: bool) -> Row:
    case, target = "upload one section to ursina.Mesh + Entity", "<= 0.5 ms"
    if not os.environ.get("DISPLAY") and not shutil.which("xvfb-run"):
        return Row(SUITE, case, float("nan"), "ms", None, target, "skipped: no DISPLAY and no xvfb-run")
    command = [sys.executable, "-m", "bench.bench_meshing", "--upload", *(["--quick"] if quick else [])]
    result = run_in_window(command, timeout_s=UPLOAD_TIMEOUT_S, own_server=False)
    line = next((ln for ln in result.stdout.splitlines() if ln.startswith("UPLOAD ")), None)
    if result.returncode != 0 or line is None:
        raise RuntimeError(f"upload benchmark failed:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}")
    measured = json.loads(line[len("UPLOAD "):])
    return Row(SUITE, case, measured["upload_ms"], "ms", measured["lists_ms"], target,
               f"{measured['faces']} faces, opaque part; reference: the same Mesh from Python lists")


def run(quick: bool) -> list[Row]:
    ranked = ranked_surface_sections()
    return [
        _mesh_row("mesh typical terrain section (AO)", ranked[len(ranked) // 2], quick, "<= 1 ms, >= 20x"),
        _mesh_row("mesh busiest terrain section near spawn (AO)", ranked[-1], quick, ""),
        _mesh_row("mesh checkerboard section (worst case)", checkerboard_section(), quick, ">= 20x"),
        _mesh_row("mesh flowing water surface (16 x 16 cells at mixed levels)", water_surface_section(), quick,
                  "<= 1 ms"),
        _mesh_row("mesh fluid checkerboard (fluid worst case)", fluid_checkerboard_section(), quick, ""),
        *_merge_rows(quick),
        _upload_row(quick),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_meshing")
    parser.add_argument("--upload", action="store_true", help="time the upload case here (needs a display)")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    if args.upload:
        print("UPLOAD " + json.dumps(measure_upload(args.quick)), flush=True)
        os._exit(0)  # skip Panda3D's slow teardown; everything measured is printed
    from bench.harness import format_table
    print(format_table(run(args.quick)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
