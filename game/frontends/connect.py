"""`python main.py --connect HOST:PORT --name NAME --headless --replay R --exit-after-ticks N --report J`.

Owns: the headless client's run: join the server as --name, play --replay's events (its tick 0 is
the first tick after joining) for --exit-after-ticks ticks, and write --report: the player's state
as the server sent it, plus `players` (every other player seen, with feet) and `edited_blocks`
(every block that differs from the seed's terrain in the columns the client holds), and
`corrections` (how often the server's state differed from the client's prediction). A server that
refuses or cuts the connection is told with its reason and exit status EXIT_REFUSED.
Imports no Ursina or Panda3D. Does not own the client itself (`game.net.client`) or the options.
"""

from __future__ import annotations

import asyncio
import sys

from ..net.client import ServerRefused, play
from ..net.protocol import ProtocolError
from ..rules.session import write_report
from .options import LaunchOptions

EXIT_REFUSED = 4
"""The server refused the handshake or cut the connection (the reason is printed)."""
CONNECT_TIMEOUT_SECONDS = 10.0
"""[s] Added to the run's own length (N ticks at 20 Hz) before a silent server is given up on."""


def run(options: LaunchOptions) -> int:
    host, port = options.connect
    ticks = options.exit_after_ticks
    try:
        report = asyncio.run(play(host, port, options.name, options.replay or (), ticks,
                                  timeout=CONNECT_TIMEOUT_SECONDS + ticks / 20))
    except ServerRefused as refusal:
        print(f"boxel: the server said: {refusal}", file=sys.stderr)
        return EXIT_REFUSED
    except (OSError, TimeoutError, asyncio.IncompleteReadError, ProtocolError) as error:
        print(f"boxel: error: the server {host}:{port} cannot be reached or was lost: {error or type(error).__name__}",
              file=sys.stderr)
        return EXIT_REFUSED
    if options.report is not None:
        try:
            write_report(options.report, report)
        except OSError as error:
            print(f"boxel: error: cannot write the report {options.report}: {error.strerror or error}",
                  file=sys.stderr)
            return 1
    print(f"boxel: {report['ticks_run']} ticks played on {host}:{port} as {options.name}", file=sys.stderr)
    return 0
