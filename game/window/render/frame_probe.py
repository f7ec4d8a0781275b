"""The engine side of the frame profile (`--profile-frames`): Panda3D's PStats client and scene counts.

Owns: connecting this process's Panda3D PStats client to a PStats server on a loopback port (with
the settings that make it send every frame, all over TCP), named PStats time collectors that Python
code starts and stops around a call (`timed`), a level collector a frame can be marked with, the
scene graph counts of `SceneGraphAnalyzer`, Python's garbage collections as a collector of their own, and what the profile needs of Ursina: its mouse and its
entities (whose `update` calls are timed), their classes, and its entity loop replayed (`ursina_loop_ms`).
Does not own: the server that receives the frames and what is made of them (`game.window.frame_profile`),
or which of the game's calls are timed (also `game.window.frame_profile`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from panda3d.core import PStatClient, PStatCollector, SceneGraphAnalyzer, loadPrcFileData

LOOPBACK = "127.0.0.1"
MAX_PACKETS_PER_S = 100000
"""[packets/s] Far above any frame rate: the client drops a frame sent sooner than 1/rate after the last
(longer for a large frame), and a dropped frame would bias the medians."""
PSTATS_SETTINGS = (
    "pstats-tcp-ratio 1.0",  # every frame over the TCP connection: the in-process server reads no UDP
    f"pstats-max-rate {MAX_PACKETS_PER_S}",
)


def connect(port: int) -> None:
    """Connect Panda3D's PStats client to the server listening on `port` of the loopback address.
    RuntimeError when Panda3D cannot (a build without PStats, or nothing listening there)."""
    if not isinstance(port, int) or not 0 < port < 65536:
        raise ValueError(f"a TCP port is 1..65535, got {port!r}")
    for line in PSTATS_SETTINGS:
        loadPrcFileData("", line)
    if not PStatClient.connect(LOOPBACK, port):
        raise RuntimeError(f"Panda3D's PStats client could not connect to {LOOPBACK}:{port}")
    PStatClient.get_global_pstats().set_max_rate(float(MAX_PACKETS_PER_S))


def timed(collector_name: str, call: Callable[..., Any]) -> Callable[..., Any]:
    """`call`, with each call's time added to the PStats collector `collector_name` (colons make the
    hierarchy, as in Panda3D's own names: 'Boxel:streaming')."""
    collector = PStatCollector(collector_name)
    start, stop = collector.start, collector.stop

    def timed_call(*args, **kwargs):
        start()
        try:
            return call(*args, **kwargs)
        finally:
            stop()

    timed_call.__wrapped__ = call
    return timed_call


def time_garbage_collection(collector_name: str) -> None:
    """Time every collection of Python's garbage collector in the PStats collector `collector_name` (a
    collection runs inside whatever call allocated the object that set it off, so without this its time
    is counted in that call's collector and looks like the call's own). Only the main thread's
    collections are timed: the frames kept are the main thread's, and a collection in a mesher or
    generation thread would otherwise be counted in the main thread's frame while it draws. Once per
    process."""
    import gc
    import threading
    collector = PStatCollector(collector_name)
    start, stop = collector.start, collector.stop
    main_thread = threading.main_thread().ident

    def on_collection(phase: str, info: dict) -> None:
        if threading.get_ident() != main_thread:
            return
        if phase == "start":
            start()
        else:
            stop()

    gc.callbacks.append(on_collection)


def level_setter(collector_name: str) -> Callable[[float], None]:
    """A function that sets the level of the PStats collector `collector_name` (sent with this frame's data)."""
    return PStatCollector(collector_name).set_level


def scene_counts() -> dict[str, int]:
    """What is in the 3D scene (Ursina's `scene`, Panda3D's render), drawn or not: nodes, geom nodes, geoms,
    vertices and triangles, by Panda3D's `SceneGraphAnalyzer`; and the Ursina entities alive (Ursina's
    update task visits each of them every frame)."""
    from ursina import scene
    analyzer = SceneGraphAnalyzer()
    analyzer.add_node(scene.node())
    return {"nodes": analyzer.get_num_nodes(), "geom_nodes": analyzer.get_num_geom_nodes(),
            "geoms": analyzer.get_num_geoms(), "vertices": analyzer.get_num_vertices(),
            "triangles": analyzer.get_num_tris(), "ursina_entities": len(scene.entities)}


def ursina_entity_kinds(most: int = 8) -> dict[str, int]:
    """The `most` commonest classes among Ursina's entities, with how many of each are alive (enabled or not)."""
    from ursina import scene
    return dict(Counter(type(e).__name__ for e in scene.entities).most_common(most))


def ursina_mouse():
    """Ursina's mouse object (its `update`, run by Ursina's update task every frame, picks what is under the
    pointer)."""
    from ursina import mouse
    return mouse


def ursina_entities() -> list:
    """The entities Ursina's update task visits every frame, as a new list."""
    from ursina import scene
    return list(scene.entities)


LOOP_REPEATS = 20
"""Repeats of the replayed entity loop in `ursina_loop_ms` (its median is kept)."""


def ursina_loop_ms() -> tuple[float, int]:
    """[ms] What Ursina's update task's own loop costs now, without calling any update: the tests it makes on
    each entity (enabled, ignore, a disabled ancestor, has an update, scripts), replayed on the live entities
    (median of LOOP_REPEATS); and how many animation sequences the task also updates every frame."""
    import statistics
    import time

    from ursina import application, scene
    samples = []
    for _ in range(LOOP_REPEATS):
        start = time.perf_counter()
        for entity in scene.entities:
            if not entity.enabled or entity.ignore or entity.has_disabled_ancestor():
                continue
            hasattr(entity, "update")
            hasattr(entity, "scripts")
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000.0, len(application.sequences)
