"""Draw benchmark: one still view of the world at view distance 8, drawn in different ways.

Each case runs in its own process with its own window (under `xvfb-run` when there is no display,
llvmpipe with `LP_NUM_THREADS=2`): a new seed-42 world, the columns within view distance 8 of the
spawn, every section meshed (`mesh_for_ursina`) and put on screen, the camera at the spawn's eye
looking 15 degrees down, fog as the game's; then FRAMES frames are rendered
(`graphicsEngine.renderFrame`, the whole of Panda3D's cull, draw and flip) and their median is the
case's time; each note also gives the median CPU time a frame of the process, llvmpipe's threads
included, which a machine shared with other work changes less than the wall time. Nothing moves, so the cases differ only in how the same triangles are handed to Panda3D:

- Boxel: one node per section part (opaque, cut-out, blended), as `ChunkRenderer` draws them; and
  the same with the sections that the eye's section cannot see stashed (cave culling,
  `ChunkRenderer.refresh_sight`) and of each part only the faces that can face the eye
  (`game.window.render.section_facing`), as the game draws them, against every section drawn; and
  that view with every face drawn (`cull_facing=False`), with every face on its own (packed
  vertices, `merge_faces=False`, no face left out) and as before packing and merging (float
  columns, `compact_vertices=False`), with the triangles and vertex bytes each draws;
- the references (float columns, as before packing): the same parts merged into one node per
  column, per 2 x 2 and per 4 x 4 columns
  (fewer, bigger draws, culled by bigger bounds);
- what-ifs, not what the game does: the cut-out part drawn with Panda3D's M_dual (two passes, as
  before the cut-out pass), each part split by face direction with the groups that face away from
  the eye left out, and a vertex shader that does nothing but place the vertex;
- far: the same view at FAR_VIEW_DISTANCE (QUICK_FAR_VIEW_DISTANCE with --quick), drawn with the far
  view's levels of detail (sections beyond `lod_distance.lod_distance_for(view distance)`'s 8 columns
  from their coarse mesh, `game.world.meshing_lod`; as the game in a window that shows detail out to
  there, while the game in a window of WINDOW's size draws coarse from nearer) against view distance 8,
  and every section fine against that.

`python -m bench draws [--quick]` (--quick: QUICK_FRAMES frames, the near cases at QUICK_VIEW_DISTANCE); a
case's process prints one JSON line.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

from .harness import Row, run_in_window

SUITE = "draws"
ROOT = Path(__file__).resolve().parents[1]
VIEW_DISTANCE = 8
SEED = 42
WINDOW = (160, 90)
"""[pixels] Small, so the frame is the CPU's: cull, draw submission and llvmpipe's vertex work."""
FRAMES = 150
QUICK_FRAMES = 10
WARMUP_FRAMES = 20
LOOK_DOWN_DEGREES = 15.0
LOOK_HEADING_DEGREES = 30.0
FOG_BLOCKS = (40.0, 120.0)
"""[blocks] The fog's start and end (horizontal distance), as the game's at view distance 8."""
FAR_CLIP = 130.0
FOV_DEGREES = 80.0
CHILD_TIMEOUT_S = 600
FAR_VIEW_DISTANCE = 16
"""[columns] The far cases' view distance (Beta's "Far"); their fog and far plane scale with it."""
QUICK_VIEW_DISTANCE = 4
"""[columns] The near cases' view distance with --quick (a smoke run: every case built and drawn, at a
quarter of the columns to generate and mesh; the fog and far plane scale with it as the game's)."""
QUICK_FAR_VIEW_DISTANCE = 10
"""[columns] The far cases' view distance with --quick: the least at which coarse sections are drawn
(beyond `lod_distance_for`'s 8 columns and the 1 column of `LOD_HYSTERESIS_COLUMNS`; at 9 none is),
since meshing 16's 6,400 sections takes minutes here."""
CASES = (
    ("sections", "one node per section part, every section drawn", None),
    ("culled", "cave culling: the sections the eye cannot see stashed (as the game)", "sections"),
    ("culled_all_faces", "cave culling, merged and packed, every face drawn (none left out as facing away)",
     "culled"),
    ("culled_per_face", "cave culling, packed vertices, every face on its own (no merging)", "culled"),
    ("culled_float", "cave culling, float vertices, every face on its own (before merging and packing)", "culled"),
    ("region1", "one node per column", "sections"),
    ("region2", "one node per 2 x 2 columns", "sections"),
    ("region4", "one node per 4 x 4 columns", "sections"),
    ("dual", "what-if: cut-out part with M_dual (two passes)", "sections"),
    ("facing", "what-if: parts split by face direction, groups facing away left out", "sections"),
    ("flat_shader", "what-if: a vertex shader that only places the vertex", "sections"),
    ("far_lod", f"view distance {FAR_VIEW_DISTANCE} with levels of detail (the far view's)", "culled"),
    ("far_fine", f"view distance {FAR_VIEW_DISTANCE}, every section fine", "far_lod"),
)
FAR_CASES = ("far_lod", "far_fine")
"""Cases at FAR_VIEW_DISTANCE, cave-culled and packed as the game draws; far_lod with the far view's levels of
detail (`lod_distance.lod_distance_for` without a window)."""
CULLED_CASES = ("culled", "culled_all_faces", "culled_per_face", "culled_float", *FAR_CASES)
PACKED_CASES = ("sections", "culled", "culled_all_faces", "culled_per_face", *FAR_CASES)
"""Cases drawn with packed vertices, as the game; the others build or shade float columns."""
FLAT_VERTEX_SOURCE = """#version 130
uniform mat4 p3d_ModelViewProjectionMatrix;
uniform vec2 texture_scale;
in vec4 p3d_Vertex;
in vec4 p3d_Color;
in vec2 p3d_MultiTexCoord0;
out vec2 texcoord;
out float shade;
out vec4 fog;
void main() {
    gl_Position = p3d_ModelViewProjectionMatrix * p3d_Vertex;
    texcoord = p3d_MultiTexCoord0 * texture_scale;
    shade = p3d_Color.r;
    fog = vec4(0.0, 0.0, 0.0, 1.0);
}
"""


def _columns(spawn, view_distance: int = VIEW_DISTANCE) -> list[tuple[int, int]]:
    """The columns the game draws around the spawn at `view_distance` (`game.window.streaming.within`)."""
    from game.window.streaming import within
    cx, cz = int(spawn[0]) // 16, int(spawn[2]) // 16
    return [(cx + dx, cz + dz) for dx, dz in within(view_distance)]


def _facing_groups(part, origin, eye):
    """Index lists of `part`'s faces grouped by direction, without the groups that face away from `eye`."""
    import numpy as np

    corners = part.positions.reshape(-1, 4, 3)
    normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    axis = np.abs(normals).argmax(axis=1)
    sign = np.sign(normals[np.arange(len(corners)), axis])
    slanted = (np.abs(normals) > 1e-6).sum(axis=1) > 1  # plants' diagonal quads
    code = np.where(slanted, 6, axis * 2 + (sign > 0))
    groups = []
    for group in range(7):
        faces = np.flatnonzero(code == group)
        if not len(faces):
            continue
        if group < 6:
            a = group // 2
            planes = corners[faces, 0, a] + origin[a]
            if not ((eye[a] - planes) * np.sign(normals[faces[0], a]) > 0).any():
                continue  # every face of the group looks away from the eye
        groups.append(faces)
    return groups


def _sub_mesh(part, faces):
    """The faces `faces` of an UrsinaMeshArrays part as flat arrays for `ursina.Mesh`."""
    import numpy as np

    vertices = (faces[:, None] * 4 + np.arange(4)).reshape(-1)
    renumber = np.full(len(part.positions) // 3, -1, dtype=np.int64)
    renumber[vertices] = np.arange(len(vertices))
    triangles = renumber[part.triangles.reshape(-1, 6)[faces].reshape(-1)].astype(np.uint32)
    return (part.positions.reshape(-1, 3)[vertices].reshape(-1), triangles,
            part.uvs.reshape(-1, 2)[vertices].reshape(-1), part.colors.reshape(-1, 4)[vertices].reshape(-1))


def child(case: str, frames: int, far_view_distance: int = FAR_VIEW_DISTANCE,
          near_view_distance: int = VIEW_DISTANCE) -> None:
    """One case in this process: build the view, render, print the JSON line."""
    import tempfile

    import numpy as np
    from panda3d.core import TransparencyAttrib, loadPrcFileData
    loadPrcFileData("", f"win-size {WINDOW[0]} {WINDOW[1]}\naudio-library-name null\nsync-video false")
    from ursina import Entity, Mesh, Ursina, camera, scene
    app = Ursina(size=WINDOW, development_mode=False, vsync=False, editor_ui_enabled=False)
    from game.window.render import chunk_renderer, chunk_shader, lod_distance, space
    from game.world.meshing import BLENDED_PASS, CUTOUT_PASS
    from game.world.world import World

    if case == "flat_shader":
        chunk_shader.VERTEX_SOURCE = FLAT_VERTEX_SOURCE
    compact = case in PACKED_CASES
    with tempfile.TemporaryDirectory() as folder:
        world = World.create(Path(folder) / "draws.boxel", SEED)
        spawn = world.spawn
        view_distance = far_view_distance if case in FAR_CASES else near_view_distance
        columns = _columns(spawn, view_distance)
        for column in columns:
            world.column(*column)
        keys = [(cx, sy, cz) for cx, cz in columns for sy in range(8)]
        lod = lod_distance.lod_distance_for(view_distance) if case == "far_lod" else None
        renderer = chunk_renderer.ChunkRenderer(world.padded_section, padded_light=world.padded_light, workers=2,
                                                compact_vertices=compact, merge_faces=case != "culled_per_face",
                                                cull_facing=case in ("culled", "sections", *FAR_CASES),
                                                lod_distance=lod)
        eye = np.array(space.point(spawn[0], spawn[1] + 1.62, spawn[2]), dtype=np.float32)
        if case in FAR_CASES:
            renderer.look_from(spawn[0], spawn[1] + 1.62, spawn[2])  # known before meshing: far sections coarse
        if case in ("sections", "dual", "flat_shader") or case in CULLED_CASES:
            renderer.show(keys)
            renderer.wait(CHILD_TIMEOUT_S)
            if case in CULLED_CASES:
                renderer.look_from(spawn[0], spawn[1] + 1.62, spawn[2])
                renderer.refresh_sight()
            if case == "dual":
                for key in keys:
                    for entity in renderer.section_entities(key):
                        if entity.model.get_shader() == renderer._cutout_shader:
                            entity.model.clear_shader()
                            entity.model.set_transparency(TransparencyAttrib.M_dual)
        else:
            side = int(case[len("region"):]) if case.startswith("region") else 1
            merged: dict = {}
            for key in keys:
                parts = chunk_renderer.mesh_for_ursina(world.padded_section(*key), world.padded_light(*key))
                origin = np.array(space.point(*(c * 16 for c in key)), dtype=np.float32)
                for draw_pass, part in enumerate(parts):
                    if part is None:
                        continue
                    if case == "facing":
                        for faces in _facing_groups(part, origin, eye):
                            merged[(key, draw_pass, len(merged))] = [(_sub_mesh(part, faces), origin)]
                    else:
                        region = (key[0] // side, key[2] // side, draw_pass)
                        merged.setdefault(region, []).append(
                            ((part.positions, part.triangles, part.uvs, part.colors), origin))
            for key, pieces in merged.items():
                positions, triangles, uvs, colors, first = [], [], [], [], 0
                for (piece_positions, piece_triangles, piece_uvs, piece_colors), origin in pieces:
                    positions.append((piece_positions.reshape(-1, 3) + origin).reshape(-1))
                    triangles.append(piece_triangles + first)
                    uvs.append(piece_uvs)
                    colors.append(piece_colors)
                    first += len(piece_positions) // 3
                mesh = Mesh(vertices=np.concatenate(positions), triangles=np.concatenate(triangles).astype(np.uint32),
                            uvs=np.concatenate(uvs), colors=np.concatenate(colors), static=True)
                entity = Entity(add_to_scene_entities=False, parent=renderer._sections_node, model=mesh,
                                texture=renderer.atlas_texture)
                draw_pass = key[-1] if case.startswith("region") else key[1]
                blending = TransparencyAttrib.M_alpha if draw_pass == BLENDED_PASS else TransparencyAttrib.M_none
                entity.model.set_transparency(blending)
                if draw_pass == CUTOUT_PASS:
                    entity.model.set_shader(renderer._cutout_shader)
        scale = view_distance / VIEW_DISTANCE
        scene.fog_density = tuple(blocks * scale for blocks in FOG_BLOCKS)
        renderer.sync_fog(True)
        camera.fov = FOV_DEGREES
        camera.clip_plane_far = FAR_CLIP * scale
        camera.position = tuple(float(c) for c in eye)
        camera.rotation = (LOOK_DOWN_DEGREES, LOOK_HEADING_DEGREES, 0)
        nodes = renderer._sections_node.get_num_children()  # stashed nodes are not children
        drawn = drawn_geometry(renderer)
        coarse = len(renderer.coarse_sections)
        for _ in range(WARMUP_FRAMES):
            app.graphicsEngine.renderFrame()
        times, cpu = [], []
        for _ in range(frames):
            started, started_cpu = time.perf_counter(), time.process_time()
            app.graphicsEngine.renderFrame()
            times.append((time.perf_counter() - started) * 1000.0)
            cpu.append((time.process_time() - started_cpu) * 1000.0)
        renderer.close()
        world.close()
    print(json.dumps({"case": case, "median_ms": statistics.median(times), "cpu_ms": statistics.median(cpu),
                      "nodes": nodes, "coarse_sections": coarse,
                      "low_ms": min(times), "high_ms": max(times), **drawn}))


def drawn_geometry(renderer) -> dict:
    """Triangles, vertex bytes and index bytes in the drawn (not stashed) section nodes, and how many
    sections they belong to."""
    triangles = vertex_bytes = index_bytes = 0
    for node in renderer._sections_node.find_all_matches("**/+GeomNode"):  # stashed nodes are not found
        for geom in node.node().get_geoms():
            data = geom.get_vertex_data()
            vertex_bytes += sum(data.get_array(i).get_data_size_bytes() for i in range(data.get_num_arrays()))
            for primitive in geom.get_primitives():
                triangles += primitive.get_num_primitives()
                index_bytes += primitive.get_vertices().get_data_size_bytes() if primitive.is_indexed() else 0
    sections = sum(1 for key, entities in renderer._entities.items() if entities and key not in renderer._hidden)
    return {"triangles": triangles, "vertex_bytes": vertex_bytes, "index_bytes": index_bytes,
            "drawn_sections": sections}


def _run_case(case: str, frames: int, far_view_distance: int = FAR_VIEW_DISTANCE,
              near_view_distance: int = VIEW_DISTANCE) -> dict:
    env = dict(os.environ, LP_NUM_THREADS=os.environ.get("LP_NUM_THREADS", "2"), LIBGL_ALWAYS_SOFTWARE="1")
    command = [sys.executable, "-m", "bench.bench_draws", "--child", case, str(frames), str(far_view_distance),
               str(near_view_distance)]
    done = run_in_window(command, timeout_s=CHILD_TIMEOUT_S, env=env, own_server=False)
    if done.returncode != 0:
        raise RuntimeError(f"draws case {case} exited with {done.returncode}:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def run(quick: bool = False) -> list[Row]:
    frames = QUICK_FRAMES if quick else FRAMES
    far = QUICK_FAR_VIEW_DISTANCE if quick else FAR_VIEW_DISTANCE
    near = QUICK_VIEW_DISTANCE if quick else VIEW_DISTANCE
    results = {case: _run_case(case, frames, far, near) for case, _, _ in CASES}
    rows = []
    for case, label, reference in CASES:
        result = results[case]
        note = (f"{result['nodes']:,} nodes; {WINDOW[0]}x{WINDOW[1]}, view distance {near}; CPU time "
                f"{result['cpu_ms']:.2f} ms a frame (all threads)")
        if case in FAR_CASES:
            label = label.replace(f"distance {FAR_VIEW_DISTANCE}", f"distance {far}")
            rows.append(Row(SUITE, f"still view: {label}", result["median_ms"], "ms",
                            reference=results[reference]["median_ms"],
                            note=f"{result['triangles']:,} triangles against {results[reference]['triangles']:,}; "
                                 f"{result['coarse_sections']} coarse sections; {result['nodes']:,} nodes drawn; "
                                 f"reference: {f'view distance {near}' if case == 'far_lod' else 'with LOD'}; "
                                 f"CPU time {result['cpu_ms']:.2f} ms a frame against "
                                 f"{results[reference]['cpu_ms']:.2f} (all threads)"))
        elif reference is None:
            rows.append(Row(SUITE, f"still view: {label}", result["median_ms"], "ms", note=note))
        elif case == "culled":  # the game's way against the base case
            rows.append(Row(SUITE, f"still view: {label}", result["median_ms"], "ms",
                            reference=results[reference]["median_ms"], note=f"{result['nodes']:,} nodes drawn; "
                            f"reference: every section drawn; CPU time {result['cpu_ms']:.2f} ms a frame against "
                            f"{results[reference]['cpu_ms']:.2f} (all threads)"))
        elif case in CULLED_CASES:  # the game's way (merged, packed, facing) against this one, its before
            rows.append(Row(SUITE, f"still view: the game's way vs {label}", results[reference]["median_ms"],
                            "ms", reference=result["median_ms"], note=note + f" in the reference, "
                            f"{results[reference]['cpu_ms']:.2f} ms in the game's way"))
        else:
            # reference / Boxel, as every ratio in the table: above 1, the game's way is faster
            rows.append(Row(SUITE, f"still view: section parts vs {label}", results[reference]["median_ms"], "ms",
                            reference=result["median_ms"], note=note + " in the reference"))
    rows += geometry_rows(results, near)
    return rows


def geometry_rows(results: dict, view_distance: int = VIEW_DISTANCE) -> list[Row]:
    """Triangles and vertex bytes of the cave-culled spawn view: merged and packed (the game) against
    every face on its own in float columns (before), and against packed vertices without merging."""
    game = results["culled"]
    rows = []
    for before, label in (("culled_float", "before: per-face float vertices"),
                          ("culled_per_face", "before: per-face packed vertices"),
                          ("culled_all_faces", "before: merged, every face drawn")):
        old = results[before]
        rows.append(Row(SUITE, f"triangles drawn, view distance {view_distance}, spawn ({label})", game["triangles"],
                        "triangles", reference=old["triangles"],
                        note=f"{game['triangles'] / old['triangles']:.1%} of {old['triangles']:,}; target <= 40 % "
                             f"of the per-face mesher's"))
        if before == "culled_all_faces":
            continue  # the same vertex buffers: only the index lists are shorter
        per_section, old_per_section = (r["vertex_bytes"] / max(r["drawn_sections"], 1) for r in (game, old))
        rows.append(Row(SUITE, f"vertex bytes per drawn section ({label})", per_section, "bytes",
                        reference=old_per_section,
                        note=f"{per_section / old_per_section:.0%}; {game['drawn_sections']} sections drawn; index "
                             f"bytes {game['index_bytes'] / max(game['drawn_sections'], 1):,.0f} against "
                             f"{old['index_bytes'] / max(old['drawn_sections'], 1):,.0f}; target <= 50 %"))
    return rows


if __name__ == "__main__":
    if len(sys.argv) in (4, 5, 6) and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), *(int(a) for a in sys.argv[4:]))
    else:
        raise SystemExit("usage: python -m bench.bench_draws --child CASE FRAMES [FAR_VIEW_DISTANCE [NEAR_VIEW_DISTANCE]] "
                         "(or python -m bench draws)")
