"""Section meshes on screen: one Ursina entity per section part, meshed off the main thread.

Owns: which sections are shown, meshing them on a thread pool, uploading finished meshes (the
only GPU work, on the main thread, a few per frame), rebuilding sections when blocks change,
and destroying what is unloaded; cave culling: stashing the entities of shown sections that the
eye's section cannot see (`look_from`, `refresh_sight`, on the face links each mesh job also
works out, `game.world.sight`); the block atlas texture (nearest filtering); the section shader
on every section (`game.window.render.chunk_shader`) and its inputs: the daylight (`set_daylight`, once per
frame at most: the time of day never re-meshes), the fog (`sync_fog`: the open air's by horizontal
distance or the fluids' by eye distance) and the sky the land fades into (`set_sky`); and the
vertices' layout on the GPU: by default packed 16-byte vertices with the faces that look the same
merged (`game.world.meshing_merge`; `upload_compact` builds the Panda3D Geom from the packed
array as it is), or with `compact_vertices=False` the float columns of before (`upload`, with each
vertex's shade and light levels packed into the colour column, `mesh_jobs.vertex_colors`); `merge_faces=False`
draws every face on its own (the look is the same, `tests/game/test_merged_faces_display.py`). With
packed vertices the opaque and cut-out parts' faces come sorted by the way they face, and once
`look_from` gave the eye each part draws only those that can face it
(`game.window.render.section_facing`: the same picture, about half the triangles);
`cull_facing=False` draws every face. Levels of detail (`lod_distance`, packed vertices only): a
section whose column is farther than that from the eye's column (`look_from`) is drawn from its
coarse mesh of 2 x 2 x 2 cells (`game.world.meshing_lod`, about a fifth of the faces), re-meshed to
the other level as the eye's column changes (a few sections a frame, with hysteresis, the old mesh
on screen until the new one is up); the coarse mesh replaces the fine one, so a section still has
at most three entities. Any mix of levels leaves no hole at a seam (`meshing_lod`).
Does not own: what a section contains (a `padded_section(cx, sy, cz)` callable, e.g.
`World.padded_section`, and optionally a `padded_light(cx, sy, cz)` callable, e.g.
`World.padded_light`; without one, or where it gives None (the lab's arena), every section is lit
as under the open sky; and optionally a `prepare_light(cx, cz, columns)` callable, `World.prepare_light`,
with which a section re-meshed for its level waits until its light reads no new column, lighting at most
RELEVEL_LIGHT_COLUMNS_PER_FRAME of them a frame), meshing rules
(`game.world.meshing`), which sections to re-mesh (each tick's record names them,
`game.rules.tick_changes.TickChanges.sections`, and `game.window.streaming` hands them to `rebuild`), or the
physics -> Ursina axis mirror (`game.window.render.space`).

Threading: the padded copy of a section is taken on the main thread (the World is not
thread-safe and the copy is small), the mesher and the axis mapping run on the pool, and
`update()` (called by Ursina every frame) uploads results. Each mesh request carries a version
from one counter that only grows; a result whose version is no longer its section's current one
(rebuilt again, or unloaded meanwhile, even if shown again since) is dropped. A mesher error is
raised once, on the main thread, by the upload that meets it; that section's request is dropped
and every other one carries on.

Each shown section has up to three entities, one per draw pass (`meshing.DRAW_PASS`): the opaque
part with transparency switched off (Ursina's default M_dual costs ~35 % of frame time); the
cut-out part (leaves, ladders, plants) in the same unsorted bin, drawn once with the shader's
alpha test (`chunk_shader(cutout=True)`); and the blended part (glass, ice, water, cobwebs) with
M_alpha, which Panda3D sorts back to front.

Memory: a section's entity, its mesh and its Panda3D geometry live exactly as long as the section
is shown: `unload` destroys them, and `live_entities` counts those alive, which never exceed three
per shown section (`tests/game/test_memory_bounded.py`). What is shown is bounded by the caller
(`game.window.streaming` unloads columns beyond the view distance).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_for_futures
from dataclasses import replace
from pathlib import Path

import numpy as np
from panda3d.core import (BoundingBox, Geom, GeomNode, GeomTriangles, GeomVertexArrayFormat, GeomVertexData,
                          GeomVertexFormat, InternalName, NodePath, Point3, Shader, TransparencyAttrib)
from ursina import Entity, Mesh, Texture, destroy, scene

from . import space
from .chunk_shader import (DAYLIGHT_INPUT, EYE_FOG, FOG_COLOR_INPUT, FOG_PARAMS_INPUT, FULL_DAYLIGHT,
                                      NO_FOG, SKY_FOG, TEXTURE_SCALE_INPUT, chunk_shader)
from .sky import SKY_SUN_INPUT, SKY_ZENITH_INPUT
from ...world import atlas
from ...world.meshing import BLENDED_PASS, CUTOUT_PASS, SECTION_SIZE
from .mesh_jobs import UrsinaCompactArrays, UrsinaMeshArrays, mesh_and_links, mesh_for_ursina
from .section_facing import FacingParts
from ...world.meshing_merge import PACK_OFFSET, POSITION_UNITS, VERTEX_DTYPE
from ...world.sight import SectionLinks

SectionKey = tuple[int, int, int]
"""(cx, sy, cz): a section of column (cx, cz), heights 16 sy .. 16 sy + 15."""

ATLAS_PATH = Path(__file__).resolve().parents[3] / atlas.ATLAS_FILE

UPLOADS_PER_FRAME = 8
"""Finished meshes turned into entities per `update()`: about 0.2-0.4 ms each, so a frame that
catches up after a big load stays near 3 ms of uploads."""
LOD_HYSTERESIS_COLUMNS = 1
"""[columns] A fine section turns coarse only beyond lod_distance + this, a coarse one fine again
within lod_distance: walking along the border re-meshes nothing."""
RELEVELS_PER_FRAME = 12
"""Sections handed a mesh of their other level per `look_from`: the padded copies are taken on the
main thread (~0.1 ms each), so a new eye column spreads its ring of re-meshes over frames."""
RELEVEL_LIGHT_COLUMNS_PER_FRAME = 1
"""[columns] New columns given their first light per `look_from` so that the sections re-meshed for their
level can read their light (`prepare_light`, when the renderer has one): the streaming at view distance
16 still loads columns around sections it showed before them, and reading such a section's light
lit every one of them at once, 3-7 columns, 16-51 ms in one frame (1280x720, the running replay). One
column costs ~2-7 ms, as the streamer's own (`game.window.streaming.LIGHT_COLUMNS_PER_FRAME`)."""

SIGHT_LAG_FRAMES = 10
"""[frames] How long newly drawn or dropped sections may wait before which sections are hidden is
worked out again (`refresh_sight`, a few ms at view distance 8). Waiting never opens a hole: a
section whose links are not known yet counts as open, which can only show more. An eye that
enters another section, or an edit that changes a drawn section's links, refreshes at once."""


def _compact_format() -> GeomVertexFormat:
    """Panda3D's twin of meshing_merge.VERTEX_DTYPE: one interleaved array, the same 16 bytes."""
    columns = GeomVertexArrayFormat()
    columns.add_column(InternalName.get_vertex(), 4, Geom.NT_uint16, Geom.C_point)
    columns.add_column(InternalName.make("light"), 4, Geom.NT_uint8, Geom.C_other)
    columns.add_column(InternalName.make("tile_uv"), 2, Geom.NT_uint16, Geom.C_other)
    if columns.get_stride() != VERTEX_DTYPE.itemsize:
        raise RuntimeError(f"Panda3D laid the packed vertex out in {columns.get_stride()} bytes, "
                           f"not {VERTEX_DTYPE.itemsize}")
    vertex_format = GeomVertexFormat()
    vertex_format.add_array(columns)
    return GeomVertexFormat.register_format(vertex_format)


_COMPACT_FORMAT: GeomVertexFormat | None = None


def compact_node(arrays: UrsinaCompactArrays) -> Mesh:
    """An `ursina.Mesh` holding `arrays` as one static Geom built from the packed bytes as they are
    (main thread only); like `upload`'s meshes, it keeps no vertex lists (`Mesh.vertices` is empty)."""
    global _COMPACT_FORMAT
    if _COMPACT_FORMAT is None:
        _COMPACT_FORMAT = _compact_format()
    data = GeomVertexData("section", _COMPACT_FORMAT, Geom.UH_static)
    data.unclean_set_num_rows(len(arrays.vertices))
    memoryview(data.modify_array(0)).cast("B")[:] = arrays.vertices.view(np.uint8).reshape(-1)
    triangles = GeomTriangles(Geom.UH_static)
    triangles.set_index_type(Geom.NT_uint16 if arrays.indices.dtype == np.uint16 else Geom.NT_uint32)
    handle = triangles.modify_vertices()
    handle.unclean_set_num_rows(len(arrays.indices))
    memoryview(handle).cast("B")[:] = arrays.indices.view(np.uint8)
    geom = Geom(data)
    geom.add_primitive(triangles)
    # Bounds of every vertex, set once: a shorter index list (`section_facing`) then costs no new bounds.
    low, high = arrays.bounds
    geom.set_bounds(BoundingBox(Point3(*low), Point3(*high)))
    mesh = Mesh()  # no vertices: Ursina builds nothing, the Geom is added as Mesh.generate would
    mesh.geomNode = GeomNode("mesh_geom")
    mesh.geomNode.add_geom(geom)
    mesh.attachNewNode(mesh.geomNode)
    return mesh


def upload_compact(arrays: UrsinaCompactArrays, texture: Texture, parent: NodePath,
                   origin: tuple[float, float, float], draw_pass: int, cutout_shader: Shader | None = None) -> Entity:
    """`upload` for packed vertices: one Entity, scaled by 1 / POSITION_UNITS and moved back by the
    packing's offset and mirror (`UrsinaCompactArrays`), so that its vertices land where `upload`'s would."""
    offset = PACK_OFFSET / POSITION_UNITS
    position = (origin[0] - SECTION_SIZE - offset, origin[1] - offset, origin[2] - offset)
    entity = Entity(add_to_scene_entities=False, parent=parent, model=compact_node(arrays), texture=texture,
                    position=position, scale=1.0 / POSITION_UNITS)
    blending = TransparencyAttrib.M_alpha if draw_pass == BLENDED_PASS else TransparencyAttrib.M_none
    entity.model.set_transparency(blending)
    if draw_pass == CUTOUT_PASS and cutout_shader is not None:
        entity.model.set_shader(cutout_shader)
    return entity


def load_atlas_texture(path: Path = ATLAS_PATH) -> Texture:
    """The block atlas as an Ursina texture with nearest filtering (crisp pixels, no bleeding)."""
    if not path.is_file():
        raise FileNotFoundError(f"block atlas {path} is missing: run python -m assets.make_atlas")
    return Texture(path, filtering=None)


def upload(arrays: UrsinaMeshArrays, texture: Texture, parent: NodePath, origin: tuple[float, float, float],
           draw_pass: int, cutout_shader: Shader | None = None) -> Entity:
    """One Entity holding `arrays` as a static mesh drawn in `draw_pass` (main thread only): opaque and
    cut-out parts with no blending (a cut-out part with `cutout_shader`, `chunk_shader(cutout=True)`,
    when given), blended ones with M_alpha.

    Section entities stay out of `scene.entities`, the list Ursina walks every frame to call
    `update`: they have none, and the walk cost ~1.8 us per entity (2.6 ms a frame at 1,500
    sections, measured). They are still drawn and still freed by `destroy`.

    `parent` should be a plain Panda3D node, not an Entity: Ursina keeps an Entity's children in a
    Python list that creating and destroying a child each search, so with ~12,000 section
    entities (view distance 32) an upload cost ~0.4 ms instead of ~0.1 ms and a destroy ~0.3 ms
    instead of ~6 us (measured).
    """
    mesh = Mesh(vertices=arrays.positions, triangles=arrays.triangles, uvs=arrays.uvs, colors=arrays.colors,
                static=True)
    # The Mesh has copied the arrays into its Panda3D geometry and nothing reads them back: kept, they
    # held ~620 MiB of the 1.8 GiB that a full view at distance 32 took (measured).
    mesh.vertices = mesh.triangles = mesh.uvs = mesh.colors = ()
    entity = Entity(add_to_scene_entities=False, parent=parent, model=mesh, texture=texture, position=origin)
    blending = TransparencyAttrib.M_alpha if draw_pass == BLENDED_PASS else TransparencyAttrib.M_none
    entity.model.set_transparency(blending)
    if draw_pass == CUTOUT_PASS and cutout_shader is not None:
        entity.model.set_shader(cutout_shader)
    return entity


class ChunkRenderer(Entity):
    """Draws sections of a voxel world; parent of all their entities.

    `show` queues sections, `rebuild` re-meshes shown ones after block changes, `unload` destroys
    them; Ursina calls `update()` every frame to upload finished meshes.
    """

    def __init__(self, padded_section: Callable[[int, int, int], np.ndarray], *, workers: int = 1,
                 texture: Texture | None = None, uploads_per_frame: int = UPLOADS_PER_FRAME,
                 padded_light: Callable[[int, int, int], np.ndarray | None] | None = None,
                 compact_vertices: bool = True, merge_faces: bool = True, cull_facing: bool = True,
                 lod_distance: int | None = None,
                 prepare_light: Callable[[int, int, int], bool] | None = None, **kwargs) -> None:
        for name, value in (("workers", workers), ("uploads_per_frame", uploads_per_frame)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be an int >= 1, got {value!r}")
        super().__init__(**kwargs)
        self._padded_section = padded_section
        self._padded_light = padded_light
        self._prepare_light = prepare_light
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="mesher")
        self.atlas_texture = texture or load_atlas_texture()
        self.uploads_per_frame = uploads_per_frame
        self._versions: dict[SectionKey, int] = {}
        """Every shown section -> the version of its latest requested mesh."""
        self._version_counter = itertools.count()
        """Versions for mesh requests: never reused, so no old request matches a newer one."""
        self._entities: dict[SectionKey, list[Entity]] = {}
        self._sections_node = self.attachNewNode("sections")
        """Parent of every section entity: a plain node, so Ursina keeps no list of them (`upload`)."""
        self.compact_vertices = bool(compact_vertices)
        """True: packed 16-byte vertices (`upload_compact`); False: the float columns of `upload`."""
        self.merge_faces = bool(merge_faces)
        """With packed vertices: faces that look the same drawn as one quad (`meshing_merge.merge_faces`)."""
        self._facing = FacingParts() if self.compact_vertices and cull_facing else None
        """With packed vertices: the opaque and cut-out parts drawn without the faces that face away
        from the eye given to `look_from` (`game.window.render.section_facing`); None: every face."""
        self._sections_node.set_shader(chunk_shader(compact=self.compact_vertices))
        self._cutout_shader = chunk_shader(cutout=True, compact=self.compact_vertices)
        scale = self.atlas_texture._texture.get_tex_scale()  # the padding Panda3D added to the atlas
        self._sections_node.set_shader_input(TEXTURE_SCALE_INPUT, (scale[0], scale[1]))
        self.daylight = FULL_DAYLIGHT
        self._sections_node.set_shader_input(DAYLIGHT_INPUT, FULL_DAYLIGHT)
        self._fog: tuple | None = None
        """The scene fog the shader inputs were last set from (`sync_fog`)."""
        self.sky_fog = False
        """True: the fog is the open air's, by horizontal distance into the sky gradient (`set_sky`);
        False: by eye distance into the fog colour (fluids, and scenes that never set a sky)."""
        self._sky_zenith: tuple | None = None
        """The zenith colour from `set_sky`; None: the fog colour (a flat sky, as the lab's)."""
        self._sections_node.set_shader_input(SKY_SUN_INPUT, (0.0, 0.0, 0.0, 0.0))
        self.sync_fog()
        self._in_flight: list[tuple[SectionKey, int, Future]] = []
        self.meshes_uploaded = 0
        """How many section meshes (not entities) have been put on screen so far."""
        self._links = SectionLinks()
        """The face links of every section with an uploaded mesh (`game.world.sight`)."""
        self._eye_section: SectionKey | None = None
        """The section the eye is in (`look_from`); None: no eye yet, every section is shown."""
        self._hidden: set[SectionKey] = set()
        """Sections whose entities are stashed because the eye's section cannot see them."""
        self._sight_due: int | None = None
        """Frames left before the next sight refresh (None: nothing changed since the last)."""
        self._lod_distance: int | None = None
        self._coarse: set[SectionKey] = set()
        """Shown sections whose latest requested mesh is the coarse one (`game.world.meshing_lod`)."""
        self._columns: dict[tuple[int, int], set[int]] = {}
        """Every column with shown sections -> their sy."""
        self._eye_column: tuple[int, int] | None = None
        self._relevel: list[SectionKey] = []
        """Sections still to be handed a mesh of their other level (`look_from`), last first."""
        self.lod_distance = lod_distance

    # --- what is shown ----------------------------------------------------------------------

    @property
    def shown_sections(self) -> frozenset[SectionKey]:
        return frozenset(self._versions)

    @property
    def pending(self) -> int:
        """Meshes requested and not yet uploaded (or dropped as stale)."""
        return len(self._in_flight)

    @property
    def live_entities(self) -> int:
        """Section entities alive (drawn) now: at most three per shown section."""
        return sum(len(entities) for entities in self._entities.values())

    @property
    def scene_nodes(self) -> int:
        """Nodes under this renderer in Panda3D's scene graph, drawn or stashed: one per live section
        entity, unless something destroyed was left attached."""
        node = self._sections_node.node()
        return node.getNumChildren() + node.getNumStashed()

    @property
    def hidden_sections(self) -> frozenset[SectionKey]:
        """Shown sections left undrawn because the eye's section cannot see them (`refresh_sight`)."""
        return frozenset(self._hidden)

    @property
    def lod_distance(self) -> int | None:
        """[columns] Sections of columns farther than this (plus LOD_HYSTERESIS_COLUMNS to turn coarse)
        from the eye's column (`look_from`) are drawn from their coarse mesh (`game.world.meshing_lod`);
        None: every section fine. Packed vertices only. Setting it to another value re-levels the shown
        sections over the next frames."""
        return self._lod_distance

    @lod_distance.setter
    def lod_distance(self, value: int | None) -> None:
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise ValueError(f"lod_distance must be None or an int >= 0, got {value!r}")
        value = value if self.compact_vertices else None
        if value != self._lod_distance:  # the game sets it every frame: only a change re-plans
            self._lod_distance = value
            self._plan_relevel()

    @property
    def coarse_sections(self) -> frozenset[SectionKey]:
        """Shown sections whose latest requested mesh is the coarse one."""
        return frozenset(self._coarse)

    def section_entities(self, key: SectionKey) -> tuple[Entity, ...]:
        """The entities currently drawing section `key` (0 to 3, in draw-pass order)."""
        return tuple(self._entities.get(key, ()))

    def show(self, sections: Iterable[SectionKey]) -> None:
        """Start drawing `sections` (those already shown are left alone)."""
        for key in sections:
            if key not in self._versions:
                self._columns.setdefault((key[0], key[2]), set()).add(key[1])
                self._submit(key)

    def rebuild(self, sections: Iterable[SectionKey]) -> list[SectionKey]:
        """Re-mesh those of `sections` that are shown (e.g. a tick record's `sections`); returns them.

        The old mesh stays on screen until the new one is uploaded, so an edit never flickers.
        """
        rebuilt = [key for key in dict.fromkeys(sections) if key in self._versions]
        for key in rebuilt:
            self._submit(key)
        return rebuilt

    def unload(self, sections: Iterable[SectionKey]) -> None:
        """Stop drawing `sections` (those not shown are ignored) and destroy their entities; meshes
        still in flight are dropped."""
        for key in sections:
            if self._versions.pop(key, None) is not None:
                column = self._columns.get((key[0], key[2]))
                if column is not None:
                    column.discard(key[1])
                    if not column:
                        del self._columns[(key[0], key[2])]
            self._coarse.discard(key)
            self._hidden.discard(key)
            if self._facing is not None:
                self._facing.remove(key)
            if self._links.pop(key):
                self._sight_later()
            for entity in self._entities.pop(key, ()):
                destroy(entity)

    def unload_all(self) -> None:
        self.unload(list(self._versions))

    def set_daylight(self, daylight: float) -> None:
        """Dim the sky light of every section to `daylight` (0..1, `game.window.render.sky.daylight`): one
        shader input, no re-meshing. ValueError outside 0..1."""
        if isinstance(daylight, bool) or not isinstance(daylight, (int, float)) or not 0.0 <= daylight <= 1.0:
            raise ValueError(f"daylight must be a number in 0..1, got {daylight!r}")
        if daylight != self.daylight:
            self.daylight = float(daylight)
            self._sections_node.set_shader_input(DAYLIGHT_INPUT, self.daylight)

    def set_sky(self, zenith: tuple[float, float, float], sun_heading: tuple[float, float], glow: float) -> None:
        """The sky the land fades into (`game.window.render.sky.sky_gradient`): the `zenith` colour (RGB 0..1)
        over the fog colour at the horizon, the sun's horizontal `sun_heading` (Ursina x, z) and the
        sunset `glow` (0..1). Shader inputs only; the fog's kind is `sync_fog`'s `sky`."""
        self._sky_zenith = (*(float(c) for c in zenith[:3]), 1.0)
        self._sections_node.set_shader_input(SKY_ZENITH_INPUT, self._sky_zenith)
        self._sections_node.set_shader_input(SKY_SUN_INPUT, (float(sun_heading[0]), float(sun_heading[1]),
                                                             float(glow), 0.0))

    def sync_fog(self, sky: bool | None = None) -> None:
        """Give the shader the scene's fog (Ursina's `scene.fog_color` and `scene.fog_density`: a (start,
        end) pair is linear fog, a number exponential); the shader draws fog itself. `sky` True makes it
        the open air's fog (by horizontal distance, into the sky gradient), False the fluids' (by eye
        distance, into the fog colour), None keeps the kind. Cheap when nothing changed:
        `upload_finished` calls it every frame, the window after every fog change."""
        if sky is not None:
            self.sky_fog = bool(sky)
        density = getattr(scene, "fog_density", 0.0)
        fog_color = tuple(scene.fog_color)
        if (density, fog_color, self.sky_fog) == self._fog:
            return
        self._fog = (density, fog_color, self.sky_fog)
        kind = SKY_FOG if self.sky_fog else EYE_FOG
        if isinstance(density, tuple):
            params = (float(density[0]), float(density[1]), 0.0, kind)
        else:
            params = (0.0, 0.0, float(density or 0.0), kind) if density else NO_FOG
        self._sections_node.set_shader_input(FOG_PARAMS_INPUT, params)
        self._sections_node.set_shader_input(FOG_COLOR_INPUT, fog_color)
        if self._sky_zenith is None:
            self._sections_node.set_shader_input(SKY_ZENITH_INPUT, fog_color)

    # --- sight: sections hidden from the eye ---------------------------------------------------

    def look_from(self, x: float, y: float, z: float) -> None:
        """Tell the renderer where the eye is (physics coordinates, blocks). Entering another section
        makes the next `refresh_sight` work out again which sections it can see."""
        section = (int(np.floor(x / SECTION_SIZE)), int(np.floor(y / SECTION_SIZE)), int(np.floor(z / SECTION_SIZE)))
        if section != self._eye_section:
            self._eye_section = section
            self._sight_due = 0
        if self._facing is not None:
            self._facing.look_from((x, y, z))
        column = section[0], section[2]
        if column != self._eye_column:
            self._eye_column = column
            if self._lod_distance is not None or self._coarse:
                self._plan_relevel()
        if self._relevel:
            self._relevel_some(RELEVELS_PER_FRAME)

    # --- levels of detail ----------------------------------------------------------------------

    def _wants_coarse(self, key: SectionKey) -> bool:
        """Whether section `key` should be drawn coarse now, with hysteresis (`lod_distance`)."""
        if self._lod_distance is None or self._eye_column is None:
            return False
        dx, dz = key[0] - self._eye_column[0], key[2] - self._eye_column[1]
        reach = self._lod_distance if key in self._coarse else self._lod_distance + LOD_HYSTERESIS_COLUMNS
        return dx * dx + dz * dz > reach * reach

    def _plan_relevel(self) -> None:
        """List the shown sections whose level should change, nearest last (handed over first)."""
        if not hasattr(self, "_columns"):
            return
        if self._lod_distance is None or self._eye_column is None:
            self._relevel = sorted(self._coarse)  # every coarse section back to fine
            return
        ex, ez = self._eye_column
        near, far = self._lod_distance ** 2, (self._lod_distance + LOD_HYSTERESIS_COLUMNS) ** 2
        changing = []
        coarse = self._coarse
        for (cx, cz), heights in self._columns.items():  # by column: ~1 ms at view distance 16
            distance = (cx - ex) ** 2 + (cz - ez) ** 2
            if near < distance <= far:
                continue  # within the hysteresis band every section keeps its level
            wanted = distance > far
            changing.extend((cx, sy, cz) for sy in heights if ((cx, sy, cz) in coarse) != wanted)
        changing.sort(key=lambda k: -((k[0] - ex) ** 2 + (k[2] - ez) ** 2))
        self._relevel = changing

    def _relevel_some(self, limit: int, light_columns: int | None = RELEVEL_LIGHT_COLUMNS_PER_FRAME) -> int:
        """Hand up to `limit` sections of the plan a mesh of their other level, nearest first; returns how
        many. With `prepare_light`, a section whose light would light a new column waits (and the ones
        after it), up to `light_columns` of those columns lit a frame (None: the sections read their light at
        once, lighting what they need)."""
        done = 0
        ready: dict[tuple[int, int], bool] = {}
        while self._relevel and done < limit:
            key = self._relevel[-1]
            if key not in self._versions or self._wants_coarse(key) == (key in self._coarse):
                self._relevel.pop()
                continue
            if self._prepare_light is not None and light_columns is not None:
                column = key[0], key[2]
                if column not in ready:
                    ready[column] = self._prepare_light(*column, light_columns)
                    light_columns = 0  # the frame's columns are spent, whether that call needed them or not
                if not ready[column]:
                    break  # its light next frame, before the sections after it
            self._relevel.pop()
            self._submit(key)
            done += 1
        return done

    def relevel_all(self) -> None:
        """Hand every section whose level should change its other mesh now (tests, previews)."""
        self._plan_relevel()
        self._relevel_some(len(self._relevel), light_columns=None)

    def forget_eye(self) -> None:
        """Draw every shown section again, every face of it, and stop hiding any until the next `look_from`."""
        self._eye_section = None
        self._sight_due = None
        self._set_hidden(set())
        if self._facing is not None:
            self._facing.forget_eye()

    def _note_links(self, key: SectionKey, links: np.ndarray) -> None:
        """Keep a freshly meshed section's links. Changed links of a section already drawn (an
        edit) refresh sight at once: the edit may open a view; a new section's can wait."""
        old = self._links.put(key, links)
        if old is None:
            self._sight_later()
        elif not np.array_equal(old, links):
            self._sight_due = 0

    def _sight_later(self) -> None:
        if self._sight_due is None:
            self._sight_due = SIGHT_LAG_FRAMES

    def refresh_sight(self) -> None:
        """Once a frame, after the uploads: when the eye entered another section, an edit changed a
        drawn section's links, or sections came and went SIGHT_LAG_FRAMES ago, stash the entities of
        the sections the eye's section cannot see (`game.world.sight.visible_sections`) and unstash
        those it now can."""
        if self._sight_due is None or self._eye_section is None:
            return
        if self._sight_due > 0:
            self._sight_due -= 1
            return
        self._sight_due = None
        self._set_hidden(self._links.hidden(self._eye_section))

    def _set_hidden(self, hidden: set[SectionKey]) -> None:
        for key in hidden - self._hidden:
            for entity in self._entities.get(key, ()):
                entity.stash()
            if self._facing is not None:
                self._facing.pause(key)
        for key in self._hidden - hidden:
            for entity in self._entities.get(key, ()):
                entity.unstash()
            if self._facing is not None:
                self._facing.resume(key)
        self._hidden = hidden

    # --- the frame loop -----------------------------------------------------------------------

    def update(self) -> None:
        """Upload up to `uploads_per_frame` finished meshes and refresh sight (Ursina calls this every
        frame unless a streamer drives the renderer)."""
        self.upload_finished(self.uploads_per_frame)
        self.refresh_sight()

    def upload_finished(self, limit: int | None = None) -> int:
        """Turn finished meshes into entities, oldest first, at most `limit`; returns how many.

        A mesher error is raised here (on the main thread), once: its request is dropped and the
        requests not yet looked at stay queued for the next call.
        """
        self.sync_fog()
        uploaded = 0
        kept = []
        entries = iter(self._in_flight)
        try:
            for entry in entries:
                key, version, future = entry
                if not future.done() or (limit is not None and uploaded >= limit):
                    kept.append(entry)
                    continue
                parts, links = future.result()  # a mesher error surfaces here
                if self._versions.get(key) != version:
                    continue  # superseded by a later request, or unloaded
                for entity in self._entities.pop(key, ()):
                    destroy(entity)
                entities = self._entities[key] = self._put(key, parts)
                self._note_links(key, links)
                if key in self._hidden:
                    for entity in entities:
                        entity.stash()
                    if self._facing is not None:
                        self._facing.pause(key)
                uploaded += 1
                self.meshes_uploaded += 1
        finally:
            kept.extend(entries)  # after an error: the entries not looked at yet
            self._in_flight = kept
        return uploaded

    def _put(self, key: SectionKey, parts) -> list[Entity]:
        """Entities for a section's finished parts; those sorted by the way they face are registered
        for `look_from` (and drawn at once without the faces that face away from a known eye)."""
        origin = space.point(*(c * SECTION_SIZE for c in key))
        put = upload_compact if self.compact_vertices else upload
        entities = []
        if self._facing is not None:
            self._facing.remove(key)
        for draw_pass, part in enumerate(parts):
            if part is None:
                continue
            prepared = None
            if self._facing is not None and getattr(part, "facing", None) is not None:
                prepared = self._facing.prepare(part.indices, part.facing, tuple(float(c * SECTION_SIZE) for c in key))
                part = replace(part, indices=prepared.drawn)
            entity = put(part, self.atlas_texture, self._sections_node, origin, draw_pass, self._cutout_shader)
            entities.append(entity)
            if prepared is not None:
                self._facing.add(key, entity.model.geomNode, prepared)
        return entities

    def sample_parts(self, padded: np.ndarray, key: SectionKey) -> list[Entity]:
        """Entities of every part of the section in `padded` (block ids, PADDED_SIZE^3), meshed now on this
        thread and drawn as section `key` would be (the same shaders, blending and vertex layout), but not
        shown sections: nothing here keeps them, `destroy` them (`game.window.first_draws`)."""
        put = upload_compact if self.compact_vertices else upload
        origin = space.point(*(c * SECTION_SIZE for c in key))
        parts = mesh_for_ursina(padded, None, self.compact_vertices, self.merge_faces)
        return [put(part, self.atlas_texture, self._sections_node, origin, draw_pass, self._cutout_shader)
                for draw_pass, part in enumerate(parts) if part is not None]

    @property
    def facing_rewrites(self) -> int:
        """Index lists rewritten so far because the eye moved (`game.window.render.section_facing`)."""
        return 0 if self._facing is None else self._facing.rewrites

    def wait(self, timeout_s: float | None = None) -> None:
        """Block until every requested mesh is finished (tests, previews, first load), then upload all.

        TimeoutError if some are still meshing after `timeout_s` (those finished are uploaded first);
        a mesher error is raised as by `upload_finished`.
        """
        _, running = wait_for_futures([future for _, _, future in self._in_flight], timeout=timeout_s)
        self.upload_finished()
        if running:
            raise TimeoutError(f"{len(running)} section meshes still unfinished after {timeout_s} s")

    def on_destroy(self) -> None:
        self.close()

    def close(self) -> None:
        """Destroy every section entity and stop the mesher threads."""
        self.unload_all()
        self._in_flight = []
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _submit(self, key: SectionKey) -> None:
        """Ask for a new mesh of section `key`, which becomes its current version."""
        padded = np.array(self._padded_section(*key), copy=True)  # a snapshot, taken on the main thread
        light = None if self._padded_light is None else self._padded_light(*key)
        light = None if light is None else np.array(light, copy=True)  # None: a world that keeps no light
        version = self._versions[key] = next(self._version_counter)
        coarse = self._wants_coarse(key)
        if coarse:
            self._coarse.add(key)
        else:
            self._coarse.discard(key)
        future = self._pool.submit(mesh_and_links, padded, light, self.compact_vertices, self.merge_faces,
                                   self._facing is not None, coarse)
        self._in_flight.append((key, version, future))
