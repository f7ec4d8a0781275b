"""A test proxy (asyncio) between a client and a server that adds a round trip and jitter.

Each direction of each connection delays every chunk it reads by `delay_s` +- `jitter_s` (uniform,
seeded), and never delivers a chunk before one read earlier (TCP keeps each direction's order):
150 ms of round trip and +-30 ms of jitter is `LaggyProxy(port, delay_s=0.075, jitter_s=0.030)`.
"""

from __future__ import annotations

import asyncio
import random

READ_BYTES = 65536


class LaggyProxy:
    """Listens on 127.0.0.1 (a free port: `port` after `start`) and forwards to `server_port`."""

    def __init__(self, server_port: int, *, delay_s: float = 0.075, jitter_s: float = 0.030, seed: int = 1) -> None:
        self.server_port = server_port
        self.delay_s, self.jitter_s = delay_s, jitter_s
        self.random = random.Random(seed)
        self.port = 0
        self._server: asyncio.base_events.Server | None = None
        self._tasks: set[asyncio.Task] = set()

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _handle(self, client_reader, client_writer) -> None:
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.server_port)
        for reader, writer in ((client_reader, server_writer), (server_reader, client_writer)):
            task = asyncio.create_task(self._pipe(reader, writer))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()
        last = [0.0]

        async def deliver() -> None:
            while True:
                at, data = await queue.get()
                wait = at - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                if data is None:
                    writer.close()
                    return
                writer.write(data)

        sender = asyncio.create_task(deliver())
        try:
            while True:
                data = await reader.read(READ_BYTES)
                at = max(last[0], loop.time() + self.delay_s + self.random.uniform(-self.jitter_s, self.jitter_s))
                last[0] = at
                queue.put_nowait((at, data or None))
                if not data:
                    break
            await sender
        except (ConnectionError, OSError):
            writer.close()
        finally:
            sender.cancel()
