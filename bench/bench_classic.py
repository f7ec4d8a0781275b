"""The Classic gateway's costs: encoding a level, and the server's tick with Classic bots beside Boxel bots.

Owns: the rows (1) level encoding for the default 256 x 128 x 256 window (`game.net.classic.level.
encode_level`: the map through a CPE client's block ids into Classic's order, gzipped; it runs on a
worker thread, off the tick), and (2) the server's tick (`ClassicHub.tick`: the gateway's steps
around the hub's, with every Boxel client's frames encoded) with 20 Classic bots walking beside 20
Boxel bots, median and p99; each Classic bot sends one position a tick, an honest walk stepped by
Boxel's physics, handed to the gateway as its socket would (`_on_packet`: the move check), timed
apart as the packet handling between ticks; the gateway's own steps (before and after the hub's tick)
are named in the note. In process, no sockets (as `bench_server`), the
Classic clients' bytes counted, not sent.
Does not own the gateway (`game.net.classic`).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import physics
from game.net.classic.blocks import BlockMap, Capabilities
from game.net.classic.gateway import SERVER_EXTENSIONS, ClassicClient, ClassicGateway
from game.net.classic.level import DEFAULT_SIZE, MapWindow, WindowBlocks, encode_level, level_chunks
from game.net.classic.movement import fixed_of_feet
from game.net.classic.packets import SELF_ID, PositionOrientation
from game.net.hub import Hub, ServerLimits
from game.net.protocol import PROTOCOL_VERSION, Hello, Input, encode
from game.rules.session import Session
from game.world import World

from .bench_server import bot_inputs
from .harness import Row, percentile

SUITE = "classic"
SEED = 42
BOTS = 20
"""Classic bots, and as many Boxel bots beside them (the issue's figure)."""
WARMUP_TICKS = 60
TIMED_TICKS = 200
QUICK_TICKS = 20
ENCODE_REPEATS = 3
LEVEL_TARGET = "<= 1 s"
TICK_TARGET = "<= 10 ms"


class _Sink:
    """A Classic client's socket that counts the bytes written (its own transport, never full)."""

    def __init__(self) -> None:
        self.bytes = 0
        self.transport = self

    def write(self, data: bytes) -> None:
        self.bytes += len(data)

    def get_write_buffer_size(self) -> int:
        return 0


def measure_level(repeats: int) -> dict:
    """[s] `encode_level` of the default window around a new world's spawn (median of `repeats`)."""
    with tempfile.TemporaryDirectory() as folder:
        world = World.create(Path(folder) / "bench.boxel", SEED)
        try:
            window = MapWindow.around(world.spawn, DEFAULT_SIZE)
            blocks = WindowBlocks(window)
            for key in window.columns():
                world.column(*key)  # generated on the spot: the bench times the encoding, not the terrain
            assert blocks.fill(world, len(window.columns())) == 0
            lookup = BlockMap(Capabilities(custom_blocks=True, block_definitions=True)).lookup
            times, gzipped = [], b""
            for _ in range(repeats):
                started = time.perf_counter()
                gzipped = encode_level(blocks.ids.copy(), lookup)
                times.append(time.perf_counter() - started)
            return {"seconds": statistics.median(times), "bytes": len(gzipped), "chunks": len(level_chunks(gzipped))}
        finally:
            world.close()


class _ClassicBot:
    """One Classic bot: walks its own way (Boxel's physics), jumping now and then; sends its feet each tick."""

    def __init__(self, gateway: ClassicGateway, index: int) -> None:
        self.client = ClassicClient(_Sink(), f"10.1.0.{index}")
        self.client.extensions = frozenset(SERVER_EXTENSIONS) - {"ExtEntityPositions"}
        self.client.blocks = BlockMap(Capabilities(custom_blocks=True, block_definitions=True))
        gateway._join(self.client, f"classic{index}")
        self.client.playing = True  # the level's transfer is the other row
        self.gateway, self.index = gateway, index
        self.body = self.client.body

    def walk(self, tick: int) -> PositionOrientation:
        """Its next position packet (the client's own physics: not the server's work)."""
        intent = physics.Intent(forward=1.0, yaw=(self.index * 137.5 + tick * 1.5) % 360.0, jump=tick % 40 < 2)
        self.body = physics.step(self.body, self.gateway.session.world, intent)
        x, y, z = fixed_of_feet(*self.gateway.window.to_map(*self.body.feet))
        return PositionOrientation(SELF_ID, x, y, z, 0, 0)

    def send(self, packet: PositionOrientation) -> None:
        self.gateway._on_packet(self.client, packet)


def measure_tick(ticks: int, classic_bots: int = BOTS) -> dict:
    """[s] The server's tick times with `classic_bots` Classic and BOTS Boxel bots, and the Classic packets'
    handling per tick."""
    with tempfile.TemporaryDirectory() as folder:
        world = World.create(Path(folder) / "bench.boxel", SEED)
        try:
            hub = Hub(Session.open(world, autosave=False),
                      ServerLimits(max_players=BOTS, connections_per_address=BOTS))
            gateway = ClassicGateway(hub, size=DEFAULT_SIZE)
            names = [f"boxel{index}" for index in range(BOTS)]
            for index, name in enumerate(names):
                hub.admit(Hello(PROTOCOL_VERSION, name), f"10.0.0.{index}")
            classic = [_ClassicBot(gateway, index) for index in range(classic_bots)]
            times, handling, own = [], [], []
            for tick_number in range(WARMUP_TICKS + ticks):
                tick = hub.session.ticks_run
                for index, name in enumerate(names):
                    for event in bot_inputs(index, tick):
                        hub.receive(name, Input(event))
                packets = [bot.walk(tick) for bot in classic]
                started = time.perf_counter()
                for bot, packet in zip(classic, packets):
                    bot.send(packet)
                handled = time.perf_counter() - started
                started = time.perf_counter()
                gateway.before_tick()  # ClassicHub.tick, its three steps timed apart
                before = time.perf_counter() - started
                out = hub.tick()
                middle = time.perf_counter()
                gateway.after_tick(hub.last_changes)
                after = time.perf_counter() - middle
                for messages in out.values():
                    for message in messages:
                        encode(message)
                if tick_number >= WARMUP_TICKS:
                    times.append(time.perf_counter() - started)
                    handling.append(handled)
                    own.append(before + after)
                else:
                    time.sleep(0.005)  # let the world's workers generate the columns the bots walk into
            corrections = sum(bot.client.corrections for bot in classic)
            return {"times": times, "handling": handling, "own": own, "corrections": corrections,
                    "classic_bytes": sum(bot.client.writer.bytes for bot in classic) / max(1, classic_bots)}
        finally:
            world.close()


def run(quick: bool = False) -> list[Row]:
    level = measure_level(1 if quick else ENCODE_REPEATS)
    width, height, depth = DEFAULT_SIZE
    rows = [Row(SUITE, f"Classic level encoding, {width}x{height}x{depth} window", level["seconds"] * 1000, "ms", None,
                LEVEL_TARGET, f"gzipped {level['bytes'] / 1000:.0f} KB in {level['chunks']} LevelDataChunk packets; "
                              "on a worker thread, off the tick")]
    ticks = QUICK_TICKS if quick else TIMED_TICKS
    result = measure_tick(ticks)
    alone = measure_tick(ticks, classic_bots=0)  # the same tick without them, for what they add
    times_ms = [t * 1000 for t in result["times"]]
    rows.append(Row(SUITE, f"server tick, {BOTS} Classic bots walking beside {BOTS} Boxel bots",
                    statistics.median(times_ms), "ms", None, TICK_TARGET,
                    f"p99 {percentile(times_ms, 0.99):.1f} ms; the gateway's own steps {statistics.median(result['own']) * 1000:.2f} ms "
                    f"of it, the Classic positions' checks between ticks {statistics.median(result['handling']) * 1000:.1f} ms "
                    f"a tick (medians); the {BOTS} Boxel bots alone {statistics.median(alone['times']) * 1000:.1f} ms; "
                    f"{result['classic_bytes'] / (ticks / 20) / 1000:.1f} KB/s down per Classic bot; "
                    f"{result['corrections']} corrections"))
    return rows


if __name__ == "__main__":
    from .harness import format_table

    print(format_table(run()))
