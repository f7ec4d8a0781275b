"""`python -m bench server`: the server's tick with N in-process bots, and the bytes each is sent.

Owns: the bots (each joins a `game.net.hub.Hub` on a new seed-42 world and walks its own way,
turning slowly and jumping now and then, as `Input` messages would bring it) and the rows: the
tick's median and p99 (the session's tick, each client's visible changes, columns, acks, and
encoding every frame: everything but the socket writes) with 1, 10 and 50 bots, with the session's
tick's own median beside it (the rest is the server's work), and the bytes per second sent down to
one client while walking after the join (the warm-up lasts until every bot holds its join's
columns), and up from it; and the corrections
a lone predicting bot needs per minute behind a simulated 150 ms round trip with jitter. Then `bench.bench_classic`'s rows (a Classic
level's encoding, the tick with Classic bots beside Boxel bots), and the time from connecting the
game's window to a server on a new world to its first playable frame (`measure_join`, a real server
and window). The bots use no sockets: asyncio's streams cost
~1.5 ms per tick for 100 clients (docs/PERFORMANCE.md), far below the tick.
Does not own the server (`game.net`).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

from game.net.client import PredictingClient
from game.net.hub import Hub, ServerLimits
from game.net.protocol import PROTOCOL_VERSION, ColumnData, Hello, Input, decode, encode
from game.rules.replay import KeyDown, KeyUp, Look
from game.rules.session import Session
from game.world import World
from game.world.coords import CHUNK_SIZE

from .harness import Row, percentile

SUITE = "server"
SEED = 42
WARMUP_TICKS = 100
"""[ticks] Untimed: the bots join and their first columns are sent."""
MAX_SETTLE_TICKS = 600
"""[ticks] For the bytes rows the warm-up goes on (up to this) until every bot holds every column in
its range, so the timed ticks measure walking after the join, not the join's columns arriving late."""
TIMED_TICKS = 200
QUICK_TICKS = 20
JUMP_EVERY_TICKS = 40
TICKS_PER_SECOND = 20
ROUND_TRIP_MS = 150
"""[ms] The simulated link's round trip for the corrections row (the issue's figure)."""
JITTER_MS = 30
"""[ms] Each direction's delay varies by up to this either way (order kept)."""
TICK_MS = 1000 // TICKS_PER_SECOND
MEDIAN_TARGET = {50: "<= 10 ms (p99 <= 25 ms)"}
DOWN_TARGET = "<= 4 KB/s"
JOIN_TARGET = "<= 2 s"
JOIN_TICKS = 20
"""[ticks] The joined window plays this long after the spawn area loads, then exits and reports."""
JOIN_TIMEOUT_S = 300


def bot_inputs(index: int, tick: int) -> list:
    """What bot `index` sends before server tick `tick`: a slow turn every tick, walking, a jump now and then."""
    events = [Look(tick, (index * 137.5 + tick * 1.5) % 360.0, 0.0)]
    if tick % JUMP_EVERY_TICKS == 0:
        events += [KeyDown(tick, "w"), KeyDown(tick, "space")]
    elif tick % JUMP_EVERY_TICKS == 1:
        events.append(KeyUp(tick, "space"))
    return events


def measure(bots: int, ticks: int, settle: bool = False) -> dict:
    """Tick times [s] (and the session's tick's share of each) and the bytes sent to bot 0 over
    `ticks` timed ticks; `settle`: the warm-up lasts until every bot holds its join's columns."""
    with tempfile.TemporaryDirectory() as folder:
        world = World.create(Path(folder) / "bench.boxel", SEED)
        try:
            hub = Hub(Session.open(world, autosave=False), ServerLimits(max_players=bots, connections_per_address=bots))
            names = [f"bot{index}" for index in range(bots)]
            for name in names:
                hub.admit(Hello(PROTOCOL_VERSION, name), f"10.0.{len(name)}.{name[3:]}")
            warmup = 0
            while warmup < WARMUP_TICKS or (settle and warmup < MAX_SETTLE_TICKS and not _columns_held(hub)):
                _tick(hub, names)
                warmup += 1
                time.sleep(0.005)  # let the world's workers generate the columns the bots walk into
            session_times, session_cpu = _time_session_ticks(hub.session)
            times, cpu, down, up, columns, column_bytes = [], [], 0, 0, 0, 0
            for _ in range(ticks):
                started, started_cpu = time.perf_counter(), time.process_time()
                out, sent_up = _tick(hub, names)
                frames = {name: [encode(message) for message in messages] for name, messages in out.items()}
                times.append(time.perf_counter() - started)
                cpu.append(time.process_time() - started_cpu)
                down += sum(map(len, frames[names[0]]))
                up += sent_up
                sent = [m for m in out[names[0]] if isinstance(m, ColumnData)]
                columns += len(sent)
                column_bytes += sum(len(encode(m)) for m in sent)
            return {"times": times, "session_times": list(session_times), "cpu": cpu, "session_cpu": session_cpu,
                    "down": down, "up": up,
                    "columns": columns, "column_bytes": column_bytes, "warmup": warmup}
        finally:
            world.close()


def _tick(hub, names: list[str]) -> tuple[dict, int]:
    """One server tick with every bot's inputs for it: each client's messages, and bot 0's bytes up."""
    tick = hub.session.ticks_run
    sent_up = 0
    for index, name in enumerate(names):
        for event in bot_inputs(index, tick):
            hub.receive(name, Input(event))
            if index == 0:
                sent_up += len(encode(Input(event)))
    return hub.tick(), sent_up


def _time_session_ticks(session) -> tuple[list[float], list[float]]:
    """[s] Each `session.tick()`'s duration from now on, on the wall clock and in this process's CPU
    time, appended to the two lists returned (the server's tick less its own work: per-client
    messages, bodies, columns, encoding)."""
    times: list[float] = []
    cpu: list[float] = []
    tick = session.tick

    def timed():
        started, started_cpu = time.perf_counter(), time.process_time()
        try:
            return tick()
        finally:
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)

    session.tick = timed
    return times, cpu


def _columns_held(hub) -> bool:
    """Whether every bot holds every column in range around the column it stands in."""
    size = CHUNK_SIZE
    return all(client.complete_around == (int(player.body.feet[0] // size), int(player.body.feet[2] // size))
               for client, player in ((client, hub.session.players[name]) for name, client in hub.clients.items()))


class LaggyLink:
    """One direction of a simulated link: each message arrives `delay_ms` +- `jitter_ms` (uniform,
    seeded) after it is sent, never before one sent earlier (TCP keeps the order)."""

    def __init__(self, seed: int, delay_ms: float = ROUND_TRIP_MS / 2, jitter_ms: float = JITTER_MS) -> None:
        self.random = random.Random(seed)
        self.delay_ms, self.jitter_ms = delay_ms, jitter_ms
        self.queue: deque = deque()
        self.last_ms = 0.0

    def send(self, now_ms: float, message) -> None:
        at = max(self.last_ms, now_ms + self.delay_ms + self.random.uniform(-self.jitter_ms, self.jitter_ms))
        self.last_ms = at
        self.queue.append((at, message))

    def arrived(self, now_ms: float) -> list:
        out = []
        while self.queue and self.queue[0][0] <= now_ms:
            out.append(self.queue.popleft()[1])
        return out


def measure_corrections(ticks: int) -> int:
    """The corrections a lone predicting bot (`PredictingClient`) needs over `ticks` ticks of walking,
    turning and jumping behind a simulated link of ROUND_TRIP_MS +- JITTER_MS (in simulated time, a
    millisecond a step; every message through its bytes)."""
    with tempfile.TemporaryDirectory() as folder:
        world = World.create(Path(folder) / "bench.boxel", SEED)
        try:
            hub = Hub(Session.open(world, autosave=False))
            welcome = hub.admit(Hello(PROTOCOL_VERSION, "bot0"), "10.0.0.1")
            client = PredictingClient(decode(encode(welcome)[4:]),
                                      [event for tick in range(ticks) for event in bot_inputs(0, tick)])
            down, up = LaggyLink(1), LaggyLink(2)
            for now in range((ticks + 20) * TICK_MS):
                if now % TICK_MS == 0:
                    for message in up.arrived(now):
                        hub.receive("bot0", decode(encode(message)[4:]))
                    for message in hub.tick()["bot0"]:
                        down.send(now, message)
                for message in down.arrived(now):
                    for answer in client.receive(decode(encode(message)[4:])):
                        up.send(now, answer)
            return client.corrections
        finally:
            world.close()


def measure_join(folder: Path) -> dict:
    """A real server (`main.py --server`, the `Host` button's child process) on a new seed-42 world, and
    the game's window joining it on loopback (`main.py --connect`, under Xvfb) for JOIN_TICKS ticks:
    the window's report, plus 'process_start_epoch_s' (when the window's process was started)."""
    from game.net.hosting import HostedServer
    from game.rules.replay import ReplayWriter

    from .bench_game import LLVMPIPE_THREADS, ROOT, RUN_PITCH, RUN_YAW
    from .harness import run_in_window
    world = folder / "joined.boxel"
    World.create(world, SEED, workers=1).close()
    replay, report = folder / "look.jsonl", folder / "join.json"
    with ReplayWriter.open(replay) as writer:
        writer.write(Look(0, RUN_YAW, RUN_PITCH))
    server = HostedServer.start(world)
    try:
        env = dict(os.environ, LP_NUM_THREADS=LLVMPIPE_THREADS, LIBGL_ALWAYS_SOFTWARE="1",
                   BOXEL_DATA_DIR=str(folder / "data"), BOXEL_CONFIG_DIR=str(folder / "config"))
        started = time.time()
        done = run_in_window([sys.executable, str(ROOT / "main.py"), "--connect", server.address_text,
                              "--name", "joiner", "--replay", str(replay), "--exit-after-ticks", str(JOIN_TICKS),
                              "--report", str(report)], timeout_s=JOIN_TIMEOUT_S, env=env)
    finally:
        server.stop()
    if done.returncode != 0:
        raise RuntimeError(f"the joining window exited with {done.returncode}:\n{done.stderr[-3000:]}")
    result = json.loads(report.read_text(encoding="utf-8"))
    result["process_start_epoch_s"] = started
    return result


def join_milestones(report: dict) -> str:
    """The joined window's milestones from its report (`join_times`, `loading_times`), in seconds after
    connecting, and the window's CPU time (every thread) from connecting to playable."""
    start = report["connect_started_epoch_s"]
    times = {**report.get("join_times", {}), **report.get("loading_times", {})}
    steps = ", ".join(f"{name.replace('_', ' ')} {at - start:.2f} s" for name, at in sorted(times.items(), key=lambda kv: kv[1])
                      if name != "connect_started")
    cpu = report["first_playable_cpu_s"] - report["connect_started_cpu_s"]
    return f"{steps}; the window's CPU time from connecting to playable {cpu:.2f} s"


def run(quick: bool = False) -> list[Row]:
    ticks = QUICK_TICKS if quick else TIMED_TICKS
    rows = []
    with tempfile.TemporaryDirectory() as name:
        joined = measure_join(Path(name))
    playable = joined["first_playable_epoch_s"]
    rows.append(Row(SUITE, "connect to first playable frame, new world, loopback",
                    playable - joined["connect_started_epoch_s"], "s", None, JOIN_TARGET,
                    f"the game's window joining a server on a new seed-42 world at view distance "
                    f"{joined['view_distance']}; {playable - joined['process_start_epoch_s']:.2f} s from the "
                    f"window's process start (under xvfb-run); {joined['columns']} columns held; "
                    f"{join_milestones(joined)}"))
    for bots in (1, 10, 50):
        result = measure(bots, ticks, settle=bots in (1, 10))
        times_ms = [t * 1000 for t in result["times"]]
        session_ms = statistics.median(t * 1000 for t in result["session_times"])
        cpu_ms = statistics.median(t * 1000 for t in result["cpu"])
        server_cpu_ms = statistics.median((t - s) * 1000 for t, s in zip(result["cpu"], result["session_cpu"]))
        rows.append(Row(SUITE, f"server tick, {bots} bots", statistics.median(times_ms), "ms", None,
                        MEDIAN_TARGET.get(bots, ""),
                        f"p99 {percentile(times_ms, 0.99):.1f} ms, max {max(times_ms):.1f} ms; the session's tick "
                        f"{session_ms:.1f} ms of it; CPU time {cpu_ms:.1f} ms, the server's own work "
                        f"{server_cpu_ms:.1f} ms of it (medians)"))
        if bots in (1, 10):
            seconds = ticks / TICKS_PER_SECOND
            rows.append(Row(SUITE, f"bytes down per client, walking ({bots} bots)", result["down"] / seconds / 1000,
                            "KB/s", None, DOWN_TARGET,
                            f"{(result['down'] - result['column_bytes']) / seconds / 1000:.1f} KB/s without the "
                            f"{result['columns']} new columns walked into in {seconds:g} s "
                            f"({result['column_bytes'] / max(1, result['columns']):.0f} B each; "
                            f"{result['warmup']} ticks of warm-up)"))
            rows.append(Row(SUITE, f"bytes up per client, walking ({bots} bots)", result["up"] / seconds / 1000,
                            "KB/s", None, "", "a look every tick (the bots turn), a jump every 2 s"))
    minute = QUICK_TICKS * 10 if quick else 60 * TICKS_PER_SECOND
    rows.append(Row(SUITE, f"corrections per minute, lone bot, {ROUND_TRIP_MS} ms round trip",
                    measure_corrections(minute) * 60 * TICKS_PER_SECOND / minute, "/min", None, "0",
                    f"+-{JITTER_MS} ms jitter each way, simulated; {minute} ticks walking, turning, jumping"))
    from . import bench_classic  # it borrows this suite's bots: imported here, not at the top
    rows.extend(bench_classic.run(quick))
    return rows
