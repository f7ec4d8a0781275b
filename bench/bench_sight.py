"""Cave culling benchmark: `python -m bench sight`.

Owns: the cases that time cave culling's two halves on a new seed-42 world: a section's face links
(`face_links`, on the mesher thread in the game) for the cave-riddled sections around the spawn,
against the cell-by-cell flood fill (`face_links_by_cells`); and which sections the eye at the spawn
cannot see at view distance 8, 12 and 16 (`SectionLinks.hidden`, the renderer's whole refresh: the grid
built from the packed links, then the walk), against the same with the section-by-section walk
(`visible_sections_by_order`), noting the walk planned afresh and the same links as a dict (`hidden_sections`).
Does not own: the timing method (`bench/harness.py`).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from bench.harness import Row, median_time
from game.world.sight import (CLOSED_LINKS, OPEN_LINKS, SectionLinks, _walk_plan, face_links, face_links_by_cells,
                              hidden_sections, visible_sections_by_order)

SUITE = "sight"
SEED = 42
EYE_HEIGHT = 1.62
"""[blocks] The player's eye above the feet."""
VIEW_DISTANCES = (8, 12, 16)
LINK_SAMPLE_COLUMNS = 2
"""[columns] Face links are timed on the mixed sections (neither empty nor solid) within this many
columns of the spawn column."""


def _world_sections(view_distance: int):
    """The spawn's eye section and every non-empty section within `view_distance` columns of the
    spawn column (a disc, as the game streams), as a dict of key -> 16^3 ids."""
    from game.window.streaming import within
    from game.world.world import World
    with tempfile.TemporaryDirectory() as folder:
        world = World.create(Path(folder) / "sight.boxel", SEED)
        x, y, z = world.spawn
        ecx, ecz = int(x // 16), int(z // 16)
        sections = {}
        for dx, dz in within(view_distance):
            ids = world.column(ecx + dx, ecz + dz)
            for sy in range(ids.shape[1] // 16):
                section = np.ascontiguousarray(ids[:, sy * 16:(sy + 1) * 16, :])
                if section.any():
                    sections[(ecx + dx, sy, ecz + dz)] = section
        world.close()
    return (ecx, int((y + EYE_HEIGHT) // 16), ecz), sections


def run(quick: bool = False) -> list[Row]:
    repeats = 3 if quick else 15
    eye, sections = _world_sections(max(VIEW_DISTANCES))
    links = {key: face_links(section) for key, section in sections.items()}
    mixed = [section for key, section in sections.items()
             if max(abs(key[0] - eye[0]), abs(key[2] - eye[2])) <= LINK_SAMPLE_COLUMNS
             and not (np.array_equal(links[key], OPEN_LINKS) or np.array_equal(links[key], CLOSED_LINKS))]
    sample = mixed[:: max(1, len(mixed) // 8)][:8]
    rows = [Row(SUITE, f"face links: {len(sample)} mixed sections near the spawn, each",
                median_time(lambda: [face_links(s) for s in sample], repeats=repeats, unit="ms") / len(sample), "ms",
                reference=median_time(lambda: [face_links_by_cells(s) for s in sample], repeats=1 if quick else 3,
                                      unit="ms") / len(sample),
                note=f"{len(mixed)} mixed of {len(sections)} sections; reference: cell-by-cell flood fill")]
    for view_distance in VIEW_DISTANCES:
        near = {key: value for key, value in links.items()
                if (key[0] - eye[0]) ** 2 + (key[2] - eye[2]) ** 2 <= view_distance ** 2}
        packed = SectionLinks()
        for key, value in near.items():
            packed.put(key, value)
        hidden = packed.hidden(eye)

        def replanned():
            _walk_plan.cache_clear()
            return packed.hidden(eye)

        as_dict = median_time(lambda: hidden_sections(near, eye), repeats=repeats, unit="ms")
        rows.append(Row(SUITE, f"hidden sections from the spawn's eye, view distance {view_distance}",
                        median_time(lambda: packed.hidden(eye), repeats=repeats, unit="ms"), "ms",
                        reference=median_time(lambda: hidden_sections(near, eye, walk=visible_sections_by_order),
                                              repeats=1 if quick else 3, unit="ms"),
                        note=f"{len(hidden):,} of {len(near):,} sections hidden; the renderer's packed links "
                             f"(`SectionLinks.hidden`), its walk planned before; planned afresh "
                             f"{median_time(replanned, repeats=repeats, unit='ms'):.3g} ms; the same links as a "
                             f"dict (`hidden_sections`) {as_dict:.3g} ms; reference: the section-by-section walk"))
    return rows
