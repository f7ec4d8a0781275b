"""Frame profile (`--profile-frames`): where each frame's milliseconds go, from Panda3D's own PStats collectors.

Owns: a PStats server inside the game's process (`PStatsReceiver`: a loopback TCP port that
Panda3D's PStats client connects to, read without blocking once a frame), decoding the PStats wire
protocol (the client's control messages and frame datagrams, `decode_*`), each frame's time per
collector (`collector_seconds`), which of the game's calls are timed as Boxel's own collectors
(`attach`: Boxel's parts, Ursina's mouse picking and each other entity's own `update`, by class),
the drawn-block count, and the summary that the run's JSON report carries under
`frame_profile` (`summarize`).
Does not own: the engine calls (connecting the PStats client, the collector timers, scene graph
counts: `game.window.render.frame_probe`), or printing and publishing the breakdown (`bench/bench_game.py`).

Method: Panda3D times its own work (cull, draw, the buffer flip, each task) in PStats
collectors and, once connected to a PStats server, sends every frame's start and stop events and
level values (primitive batches, vertices, geoms, nodes). Instead of the PStats GUI, this module is
the server: it answers the client's hello and keeps the frames, decoded after the run. Boxel's parts (streaming, the player
view, the HUD, mobs...) are PStats collectors too, started and stopped around those calls, so every
figure comes from one clock and one report. Frames are kept only while the game is playing (a
level collector marks them; the loading screen and the end-of-run settle are left out).

Wire format (Panda3D 1.10, PStats protocol 3.x; all little-endian): each message is a uint32 length
then the payload. Client payloads start with a uint8 type: 0 a frame (uint16 thread, uint32 frame
number, uint16 count of (uint16 collector | 0x8000 on a stop, float32 seconds) events, uint16 count
of (uint16 collector, float32 level) pairs), 1 hello (two strings, uint16 major and minor version),
2 collector definitions, 3 thread names. The server's hello is type 1, two strings and a uint16
UDP port. A string is a uint16 length and its bytes.
"""

from __future__ import annotations

import socket
import statistics
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

CLIENT_FRAME = 0
CLIENT_HELLO = 1
CLIENT_DEFINE_COLLECTORS = 2
CLIENT_DEFINE_THREADS = 3
SERVER_HELLO = 1
STOP_FLAG = 0x8000
"""Set on a time event's collector index when the event is a stop (clear: a start)."""
MAIN_THREAD = 0
ROOT_COLLECTOR = 0
"""PStats collector 0 is the whole frame ('Frame'); a top-level collector's parent index is 0."""
LENGTH_HEADER = struct.Struct("<I")
RECEIVE_BYTES = 1 << 20
PLAYING_MARKER = "Boxel playing"
"""Level collector set to 1 on frames the game is playing, 0 otherwise (loading, paused, settling)."""
POLL_COLLECTOR = "Boxel:profile poll"
"""This module's own cost in each frame: reading what PStats sent (the frames are decoded after the run)."""
SERVER_NAME = "Boxel frame profile"
UNUSED_UDP_PORT = 1
"""The port told to the client for UDP frames; none are sent (`pstats-tcp-ratio 1`), but the client
only starts sending frames once a port was named."""


@dataclass(frozen=True)
class CollectorDef:
    """One PStats collector as the client defines it."""

    index: int
    name: str
    parent: int
    level_units: str
    factor: float
    """The client sends a level multiplied by this (e.g. 1/1000 for vertices in thousands)."""


@dataclass(frozen=True)
class FrameData:
    """One thread's frame: time events (collector, is_start, seconds) and levels (collector, value)."""

    thread: int
    number: int
    events: tuple[tuple[int, bool, float], ...]
    levels: tuple[tuple[int, float], ...]


class ProtocolError(ValueError):
    """A PStats message that does not decode."""


def _string(payload: bytes, offset: int) -> tuple[str, int]:
    (length,) = struct.unpack_from("<H", payload, offset)
    end = offset + 2 + length
    if end > len(payload):
        raise ProtocolError("a string runs past the end of the message")
    return payload[offset + 2:end].decode("utf-8", "replace"), end


def encode_string(text: str) -> bytes:
    data = text.encode("utf-8")
    return struct.pack("<H", len(data)) + data


def take_messages(buffer: bytearray) -> list[bytes]:
    """The complete length-prefixed messages at the front of `buffer`, removed from it (a partial one stays)."""
    messages = []
    offset = 0
    while len(buffer) - offset >= LENGTH_HEADER.size:
        (length,) = LENGTH_HEADER.unpack_from(buffer, offset)
        end = offset + LENGTH_HEADER.size + length
        if end > len(buffer):
            break
        messages.append(bytes(buffer[offset + LENGTH_HEADER.size:end]))
        offset = end
    del buffer[:offset]
    return messages


def server_hello() -> bytes:
    """The server's answer to the client's hello, length prefix included."""
    payload = (bytes([SERVER_HELLO]) + encode_string(socket.gethostname()) + encode_string(SERVER_NAME)
               + struct.pack("<H", UNUSED_UDP_PORT))
    return LENGTH_HEADER.pack(len(payload)) + payload


def decode_collectors(payload: bytes) -> list[CollectorDef]:
    """A 'define collectors' message (type byte included)."""
    try:
        if payload[0] != CLIENT_DEFINE_COLLECTORS:
            raise ProtocolError(f"not a collector definition message (type {payload[0]})")
        (count,) = struct.unpack_from("<H", payload, 1)
        offset, found = 3, []
        for _ in range(count):
            (index,) = struct.unpack_from("<h", payload, offset)
            name, offset = _string(payload, offset + 2)
            (parent,) = struct.unpack_from("<h", payload, offset)
            offset += 2 + 3 * 4 + 2  # parent, suggested colour (3 float32), sort (int16)
            units, offset = _string(payload, offset)
            _scale, factor = struct.unpack_from("<ff", payload, offset)
            offset += 8
            found.append(CollectorDef(index, name, parent, units, factor))
    except (struct.error, IndexError) as error:
        raise ProtocolError(f"truncated collector definitions: {error}") from None
    return found


def decode_frame(payload: bytes) -> FrameData:
    """A frame message (type byte included)."""
    try:
        if payload[0] != CLIENT_FRAME:
            raise ProtocolError(f"not a frame message (type {payload[0]})")
        thread, number, time_count = struct.unpack_from("<HIH", payload, 1)
        offset = 9
        events = []
        for index, seconds in struct.iter_unpack("<Hf", payload[offset:offset + 6 * time_count]):
            events.append((index & ~STOP_FLAG, not index & STOP_FLAG, seconds))
        offset += 6 * time_count
        (level_count,) = struct.unpack_from("<H", payload, offset)
        offset += 2
        levels = tuple(struct.iter_unpack("<Hf", payload[offset:offset + 6 * level_count]))
        offset += 6 * level_count
    except (struct.error, IndexError) as error:
        raise ProtocolError(f"truncated frame: {error}") from None
    if len(events) != time_count or len(levels) != level_count or offset != len(payload):
        raise ProtocolError(f"frame message of {len(payload)} bytes does not hold {time_count} events "
                            f"and {level_count} levels")
    return FrameData(thread, number, tuple(events), levels)


def collector_seconds(frame: FrameData) -> dict[int, float]:
    """[s] Each collector's time in the frame: the sum of its start-to-stop spans (a start inside an open
    span of the same collector, a nested call, adds nothing until the outer span stops)."""
    depth: dict[int, int] = {}
    opened: dict[int, float] = {}
    total: dict[int, float] = {}
    for index, is_start, seconds in frame.events:
        if is_start:
            if depth.get(index, 0) == 0:
                opened[index] = seconds
            depth[index] = depth.get(index, 0) + 1
        elif depth.get(index, 0) > 0:
            depth[index] -= 1
            if depth[index] == 0:
                total[index] = total.get(index, 0.0) + seconds - opened.pop(index)
    return total


class CollectorNames:
    """Full names ('Draw:window1:render#0') of the defined collectors, as the PStats GUI shows them."""

    def __init__(self) -> None:
        self.defs: dict[int, CollectorDef] = {}

    def define(self, defs: Iterable[CollectorDef]) -> None:
        for collector in defs:
            self.defs[collector.index] = collector

    def full_name(self, index: int) -> str:
        parts, seen = [], set()
        while index in self.defs and index not in seen:
            seen.add(index)
            collector = self.defs[index]
            if index == ROOT_COLLECTOR:
                return ":".join(reversed(parts)) or collector.name
            parts.append(collector.name)
            index = collector.parent
        return ":".join(reversed(parts)) if parts else f"#{index}"

    def raw_level(self, index: int, value: float) -> float:
        """The level as counted (the client scales it by the collector's factor before sending)."""
        factor = self.defs[index].factor if index in self.defs else 1.0
        return value / factor if factor else value


class PStatsReceiver:
    """A PStats server on a loopback port, read without blocking: `poll()` once a frame."""

    def __init__(self) -> None:
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(1)
        self.listener.setblocking(False)
        self.port: int = self.listener.getsockname()[1]
        self.connection: socket.socket | None = None
        self.buffer = bytearray()
        self.names = CollectorNames()
        self.frame_messages: list[bytes] = []
        """The main thread's frame messages, in arrival order, kept undecoded: decoding waits for `frames`,
        after the run, so that reading them costs a frame as little as it can."""

    def poll(self) -> None:
        if self.connection is None:
            try:
                self.connection, _ = self.listener.accept()
            except BlockingIOError:
                return
            self.connection.setblocking(False)
        while True:
            try:
                data = self.connection.recv(RECEIVE_BYTES)
            except BlockingIOError:
                break
            if not data:
                break
            self.buffer += data
        for message in take_messages(self.buffer):
            self.receive(message)

    def receive(self, message: bytes) -> None:
        kind = message[0] if message else None
        if kind == CLIENT_HELLO:
            self.connection.sendall(server_hello())
        elif kind == CLIENT_DEFINE_COLLECTORS:
            self.names.define(decode_collectors(message))
        elif kind == CLIENT_FRAME and len(message) >= 3 and struct.unpack_from("<H", message, 1)[0] == MAIN_THREAD:
            self.frame_messages.append(message)

    @property
    def frames(self) -> list[FrameData]:
        """The main thread's frames received so far, decoded."""
        return [decode_frame(message) for message in self.frame_messages]

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
        self.listener.close()


def _levels_by_name(frame: FrameData, names: CollectorNames) -> dict[str, float]:
    return {names.full_name(index): names.raw_level(index, value) for index, value in frame.levels}


def playing_frames(frames: Sequence[FrameData], names: CollectorNames) -> list[FrameData]:
    """The frames marked as played (the PLAYING_MARKER level at 1)."""
    return [f for f in frames if _levels_by_name(f, names).get(PLAYING_MARKER, 0.0) >= 1.0]


def summarize(frames: Sequence[FrameData], names: CollectorNames) -> dict:
    """Per collector (by full name): median and mean [ms] of its time per frame over `frames` (0 ms in a
    frame where it did not run); per level collector, the median level (raw counts); the number of frames
    and of frame numbers missing between the first and the last (frames the client did not send)."""
    if not frames:
        return {"frames": 0, "frames_missing": 0, "ms": {}, "levels": {}}
    per_collector: dict[str, list[float]] = {}
    per_level: dict[str, list[float]] = {}
    for position, frame in enumerate(frames):
        for index, seconds in collector_seconds(frame).items():
            per_collector.setdefault(names.full_name(index), [0.0] * position).append(seconds * 1000.0)
        for name, value in _levels_by_name(frame, names).items():
            per_level.setdefault(name, [0.0] * position).append(value)
        for series in (*per_collector.values(), *per_level.values()):
            if len(series) == position:
                series.append(0.0)  # the collector did not run (or had no level) this frame
    numbers = sorted(f.number for f in frames)
    return {
        "frames": len(frames),
        "frames_missing": (numbers[-1] - numbers[0] + 1) - len(set(numbers)),
        "ms": {name: {"median": statistics.median(v), "mean": statistics.fmean(v)}
               for name, v in sorted(per_collector.items())},
        "levels": {name: statistics.median(v) for name, v in sorted(per_level.items())},
    }


WORST_FRAMES = 5
"""How many of the slowest played frames a report lists, each with where its time went."""
WORST_FRAME_PARTS = 10
"""How many of a slow frame's collectors (its longest) the report lists."""


def worst_frames(frames: Sequence[FrameData], names: CollectorNames, count: int = WORST_FRAMES) -> list[dict]:
    """The `count` slowest of `frames` by PStats' 'Frame' collector, slowest first: each its frame number,
    its ms and its WORST_FRAME_PARTS longest collectors (full name -> ms; nested collectors count inside
    their parents too)."""
    timed = []
    for frame in frames:
        by_name = {names.full_name(index): seconds * 1000.0 for index, seconds in collector_seconds(frame).items()}
        timed.append((by_name.get("Frame", 0.0), frame.number, by_name))
    timed.sort(key=lambda item: -item[0])
    return [{"frame": number, "ms": total,
             "parts": dict(sorted(((name, ms) for name, ms in by_name.items() if name != "Frame"),
                                  key=lambda item: -item[1])[:WORST_FRAME_PARTS])}
            for total, number, by_name in timed[:count]]


def exposed_blocks(padded: np.ndarray, opaque: np.ndarray) -> int:
    """Blocks of a section (the 16^3 inside of an 18^3 padded id array) that are not air and have at least one
    face toward a block that is not opaque: the blocks a player can see a face of from somewhere."""
    if padded.shape != (18, 18, 18):
        raise ValueError(f"a padded section is 18x18x18, got {padded.shape}")
    solid_around = opaque[padded]
    inside = padded[1:-1, 1:-1, 1:-1]
    covered = (solid_around[:-2, 1:-1, 1:-1] & solid_around[2:, 1:-1, 1:-1]
               & solid_around[1:-1, :-2, 1:-1] & solid_around[1:-1, 2:, 1:-1]
               & solid_around[1:-1, 1:-1, :-2] & solid_around[1:-1, 1:-1, 2:])
    return int(np.count_nonzero((inside != 0) & ~covered))


GARBAGE_COLLECTOR = "Python:garbage collection"
"""The collector that Python's garbage collections are timed in, wherever in the frame they run."""


class FrameProfiler:
    """The PStats server and the timed parts of one `game.window.app.Game` (see `attach`)."""

    def __init__(self, game) -> None:
        from .render import frame_probe  # the engine side: only when profiling
        self.game = game
        self.probe = frame_probe
        self.receiver = PStatsReceiver()
        frame_probe.connect(self.receiver.port)
        frame_probe.time_garbage_collection(GARBAGE_COLLECTOR)
        self.mark_playing = frame_probe.level_setter(PLAYING_MARKER)

    def time(self, owner, method: str, collector: str) -> None:
        """Replace `owner.method` (on the instance) by the same call timed in `collector`."""
        setattr(owner, method, self.probe.timed(collector, getattr(owner, method)))

    def frame(self, update):
        """Game.update, polling the server first and marking the frame as played or not after."""
        game = self.game
        poll = self.probe.timed(POLL_COLLECTOR, self.receiver.poll)

        def profiled_update():
            poll()
            update()
            self.mark_playing(0.0 if game.loading or game.paused or game.ticks_done else 1.0)

        return profiled_update

    def drawn_blocks(self) -> int:
        """Blocks with a face a player could see, in the sections drawn now (see `exposed_blocks`; sections
        hidden by cave culling are not drawn)."""
        from ..world.blocks import OPAQUE
        world, renderer = self.game.world, self.game.renderer
        drawn = renderer.shown_sections - renderer.hidden_sections
        return sum(exposed_blocks(world.padded_section(*key), OPAQUE) for key in drawn)

    def report(self) -> dict:
        """What the run's report carries under 'frame_profile'."""
        self.receiver.poll()
        played = playing_frames(self.receiver.frames, self.receiver.names)
        summary = summarize(played, self.receiver.names)
        return {**summary, "worst_frames": worst_frames(played, self.receiver.names),
                "frames_received": len(self.receiver.frame_messages), "scene": self.probe.scene_counts(),
                "ursina_entity_kinds": self.probe.ursina_entity_kinds(), "drawn_blocks": self.drawn_blocks(),
                **dict(zip(("ursina_loop_replayed_ms", "ursina_sequences"), self.probe.ursina_loop_ms())),
                "method": "Panda3D PStats collectors read by an in-process PStats server (game.window.frame_profile)"}


def attach(game) -> FrameProfiler:
    """Profile `game` (a `game.window.app.Game`, built): connect PStats, time its parts as Boxel's PStats collectors,
    and make its report carry the summary under 'frame_profile'."""
    profiler = FrameProfiler(game)
    profiler.time(game, "_tick", "Boxel:ticks")
    profiler.time(game.session, "tick", "Boxel:ticks:session tick")
    profiler.time(game, "_place_view", "Boxel:player view")
    profiler.time(game.entities, "show", "Boxel:player view:mobs")
    if game.sky is not None:
        profiler.time(game.sky, "show", "Boxel:player view:sky")
    profiler.time(game.streamer, "update", "Boxel:streaming")
    profiler.time(game.renderer, "show", "Boxel:streaming:meshes asked for (padded copies, light)")
    profiler.time(game.renderer, "upload_finished", "Boxel:streaming:meshes uploaded")
    from ..world import World

    if isinstance(game.world, World):  # a World's parts; the lab's arena streams nothing and keeps no light
        profiler.time(game.world, "poll", "Boxel:streaming:columns installed (World.poll)")
        profiler.time(game.world, "_resolve_light", "Boxel:light brought up to date")
        profiler.time(game.world, "prepare_light", "Boxel:streaming:first light (World.prepare_light)")
    profiler.time(game.renderer, "refresh_sight", "Boxel:cave culling")
    for method in ("update", "show_vitals", "show_hotbar", "show_notice"):
        profiler.time(game.hud, method, "Boxel:HUD")
    for method in ("show_boxes", "show_panel", "show_player_box", "show_bodies", "show_contacts", "show_velocity"):
        profiler.time(game.overlay, method, "Boxel:overlay")
    hook = game._hooks
    profiler.time(profiler.probe.ursina_mouse(), "update", "Ursina:mouse picking")
    for entity in profiler.probe.ursina_entities():
        if entity is not hook and entity is not game.hud and callable(getattr(entity, "update", None)):
            profiler.time(entity, "update", f"Ursina:entity updates:{type(entity).__name__}")
    hook.update = profiler.frame(profiler.probe.timed("Boxel:Game.update", hook.update))
    report = game.report
    game.report = lambda: {**report(), "frame_profile": profiler.report()}
    return profiler

