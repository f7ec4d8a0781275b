"""`python main.py --server --world PATH`: serve one world to network clients, with no window.

Owns: the server's run: take the world the command line opened (or created) as --world does, wrap its session in a
`game.net.hub.Hub` with --max-players, listen on --host:--port (printing `Boxel server listening on
HOST:PORT` as the first line on stdout, the port bound when --port is 0), tick until SIGTERM,
SIGHUP or SIGINT, then save the world and every player and exit EXIT_STOPPED (0). With --classic-port, Minecraft
Classic clients too (`game.net.classic.gateway`), `Classic listening on HOST:PORT` printed on the next line.
Imports no Ursina or Panda3D (tested as --headless is).
Does not own: the options (`game.frontends.cli`), the protocol or the server's loop (`game.net`).
"""

from __future__ import annotations

import asyncio
import gc
import signal
import sys

from ..net.hub import Hub, ServerLimits
from ..net.server import Server
from .options import LaunchOptions
from .stop_signals import StopFlag, on_stop_signals

EXIT_STOPPED = 0
"""Stopped by a signal, everything saved."""
EXIT_USAGE = 2
"""The world could not be opened, or the address could not be listened on."""


def run(options: LaunchOptions, world) -> int:
    """Serve `world` (opened by the command line as --world asks) until a stop signal; the exit
    status. The world is saved and closed on every path."""
    from ..rules.session import Session

    stop = StopFlag()
    with on_stop_signals(stop):  # from here a stop signal is only noted; the tick loop checks it
        try:
            session = Session.open(world)
            hub = Hub(session, ServerLimits(max_players=options.max_players, flying_allowed=options.allow_flying))
            if options.day_time is not None:
                session.set_day_time(options.day_time)
            gc.collect()
            gc.freeze()  # what loading made is long-lived: full collections skip it (as the window's)
            return asyncio.run(_serve(hub, options, stop))
        finally:
            gc.unfreeze()  # (a caller in the same process collects it again)
            world.close()


async def _serve(hub: Hub, options: LaunchOptions, stop: StopFlag) -> int:
    gateway = None
    if options.classic_port is not None:  # Classic clients too (game.net.classic): the server ticks its wrapped hub
        from ..net.classic.gateway import ClassicGateway
        gateway = ClassicGateway(hub, options.host, options.classic_port, options.classic_size)
    server = Server(hub if gateway is None else gateway.hub, options.host, options.port)
    try:
        host, port = await server.start()
        if gateway is not None:
            classic = await gateway.start()
    except OSError as error:
        print(f"boxel: error: cannot listen on {options.host}: {error.strerror or error}", file=sys.stderr)
        return EXIT_USAGE
    print(f"Boxel server listening on {host}:{port}", flush=True)
    if gateway is not None:
        print(f"Classic listening on {classic[0]}:{classic[1]}", flush=True)
    try:
        await server.run(lambda: bool(stop))
    finally:
        if gateway is not None:
            await gateway.stop()
    if stop:
        print(f"boxel: stopped by {signal.Signals(stop.signal_number).name}; the world and every player are saved",
              file=sys.stderr, flush=True)
    return EXIT_STOPPED
