"""`python -m bench server`: the server's tick with N in-process bots, and the bytes each is sent.

Owns: the bots (each joins a `game.net.hub.Hub` on a new seed-42 world and walks its own way,
turning slowly and jumping now and then, as `Input` messages would bring it) and the rows: the
tick's median and p99 (the session's tick, each client's visible changes, columns, acks, and
encoding every frame: everything but the socket writes) with 1, 10 and 50 bots, and the bytes per
second sent down to one client while walking after the join, and up from it; and the corrections
a lone predicting bot needs per minute behind a simulated 150 ms round trip with jitter. No sockets: asyncio's streams cost
~1.5 ms per tick for 100 clients (docs/PERFORMANCE.md), far below the tick.
Does not own the server (`game.net`).
"""

from __future__ import annotations

import random
import statistics
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

from .harness import Row, percentile

SUITE = "server"
SEED = 42
WARMUP_TICKS = 100
"""[ticks] Untimed: the bots join and their first columns are sent."""
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


def bot_inputs(index: int, tick: int) -> list:
    """What bot `index` sends before server tick `tick`: a slow turn every tick, walking, a jump now and then."""
    events = [Look(tick, (index * 137.5 + tick * 1.5) % 360.0, 0.0)]
    if tick % JUMP_EVERY_TICKS == 0:
        events += [KeyDown(tick, "w"), KeyDown(tick, "space")]
    elif tick % JUMP_EVERY_TICKS == 1:
        events.append(KeyUp(tick, "space"))
    return events


def measure(bots: int, ticks: int) -> dict:
    """Tick times [s] and the bytes sent to bot 0 over `ticks` timed ticks."""
    with tempfile.TemporaryDirectory() as folder:
        world = World.create(Path(folder) / "bench.boxel", SEED)
        try:
            hub = Hub(Session.open(world, autosave=False), ServerLimits(max_players=bots, connections_per_address=bots))
            names = [f"bot{index}" for index in range(bots)]
            for name in names:
                hub.admit(Hello(PROTOCOL_VERSION, name), f"10.0.{len(name)}.{name[3:]}")
            times, down, up, columns, column_bytes = [], 0, 0, 0, 0
            for number in range(WARMUP_TICKS + ticks):
                tick = hub.session.ticks_run
                started = time.perf_counter()
                sent_up = 0
                for index, name in enumerate(names):
                    for event in bot_inputs(index, tick):
                        hub.receive(name, Input(event))
                        if index == 0:
                            sent_up += len(encode(Input(event)))
                out = hub.tick()
                frames = {name: [encode(message) for message in messages] for name, messages in out.items()}
                elapsed = time.perf_counter() - started
                if number >= WARMUP_TICKS:
                    times.append(elapsed)
                    down += sum(map(len, frames[names[0]]))
                    up += sent_up
                    sent = [m for m in out[names[0]] if isinstance(m, ColumnData)]
                    columns += len(sent)
                    column_bytes += sum(len(encode(m)) for m in sent)
                else:
                    time.sleep(0.005)  # let the world's workers generate the columns the bots walk into
            return {"times": times, "down": down, "up": up, "columns": columns, "column_bytes": column_bytes}
        finally:
            world.close()


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


def run(quick: bool = False) -> list[Row]:
    ticks = QUICK_TICKS if quick else TIMED_TICKS
    rows = []
    for bots in (1, 10, 50):
        result = measure(bots, ticks)
        times_ms = [t * 1000 for t in result["times"]]
        rows.append(Row(SUITE, f"server tick, {bots} bots", statistics.median(times_ms), "ms", None,
                        MEDIAN_TARGET.get(bots, ""), f"p99 {percentile(times_ms, 0.99):.1f} ms, max {max(times_ms):.1f} ms"))
        if bots in (1, 10):
            seconds = ticks / TICKS_PER_SECOND
            rows.append(Row(SUITE, f"bytes down per client, walking ({bots} bots)", result["down"] / seconds / 1000,
                            "KB/s", None, DOWN_TARGET,
                            f"{(result['down'] - result['column_bytes']) / seconds / 1000:.1f} KB/s without the "
                            f"{result['columns']} new columns walked into in {seconds:g} s"))
            rows.append(Row(SUITE, f"bytes up per client, walking ({bots} bots)", result["up"] / seconds / 1000,
                            "KB/s", None, "", "a look every tick (the bots turn), a jump every 2 s"))
    minute = QUICK_TICKS * 10 if quick else 60 * TICKS_PER_SECOND
    rows.append(Row(SUITE, f"corrections per minute, lone bot, {ROUND_TRIP_MS} ms round trip",
                    measure_corrections(minute) * 60 * TICKS_PER_SECOND / minute, "/min", None, "0",
                    f"+-{JITTER_MS} ms jitter each way, simulated; {minute} ticks walking, turning, jumping"))
    return rows
