"""Helpers for the Classic tests: a Boxel server process with --classic-port 0, and Node bots built on the
npm library `minecraft-classic-protocol` (tests/classic_client/bot.js), each with a time limit."""

from __future__ import annotations

import asyncio
import json
import math
import pathlib
import shutil
import signal
import subprocess

import pytest

from game.net.classic.level import MapWindow
from game.net.classic.movement import fixed_of_feet
from game.rules.player import spawn_body
from game.world import World
from game.world.blocks import REPLACEABLE, block_id

from ..test_server_process import start_server as start_boxel_server
from ..test_server_process import stop as stop_boxel_server

ROOT = pathlib.Path(__file__).resolve().parents[3]
CLIENT = ROOT / "tests" / "classic_client"
SEED = 42
SIZE = (64, 64, 64)
"""[blocks] The tests' window: 16 columns, so a new world has it whole in a second or two."""
BOT_SECONDS = 40
"""[s] The most one bot may run."""

needs_node = pytest.mark.skipif(shutil.which("node") is None or not (CLIENT / "node_modules").is_dir(),
                                reason="needs node and `npm ci` in tests/classic_client (.ci/run does both)")


def new_world(path: pathlib.Path, size=SIZE) -> tuple[tuple[float, float, float], MapWindow]:
    """Create the world the server will serve (seed 42); its spawn feet and the window of `size`."""
    with World.create(path, SEED, workers=1) as world:
        feet = spawn_body(world).feet
        window = MapWindow.around(world.spawn, size)
    return feet, window


def start_server(world: pathlib.Path, size=SIZE) -> tuple[subprocess.Popen, int, int]:
    """`main.py --server` on `world` with --port 0 --classic-port 0: the process, the Boxel and the Classic port."""
    process, port = start_boxel_server(world, "--classic-port", "0", "--classic-size", "x".join(map(str, size)))
    line = process.stdout.readline().strip()  # printed right after the Boxel line
    assert line.startswith("Classic listening on 127.0.0.1:"), line
    return process, port, int(line.rpartition(":")[2])


def stop(process: subprocess.Popen) -> tuple[int, str]:
    """SIGTERM, then the exit status and everything the server logged."""
    return stop_boxel_server(process, signal.SIGTERM)


async def bot(port: int, name: str, steps, *, cpe: bool = True, seconds: float = BOT_SECONDS, **options) -> list[dict]:
    """Run one Node bot to its end (at most `seconds`); the JSON events it printed."""
    spec = {"host": "127.0.0.1", "port": port, "name": name, "cpe": cpe, "steps": list(steps), **options}
    process = await asyncio.create_subprocess_exec("node", str(CLIENT / "bot.js"), json.dumps(spec), cwd=CLIENT,
                                                   stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(process.communicate(), seconds)
    except asyncio.TimeoutError:
        process.kill()
        await process.wait()
        raise AssertionError(f"bot {name} ran over {seconds} s")
    events = [json.loads(line) for line in out.decode().splitlines() if line.strip()]
    assert process.returncode == 0, (name, err.decode()[-2000:], events[-5:])
    return events


def named(events: list[dict], kind: str) -> list[dict]:
    return [event for event in events if event["event"] == kind]


def run(coroutine, seconds: float = 90):
    async def limited():
        async with asyncio.timeout(seconds):
            return await coroutine
    return asyncio.run(limited())


def placeable_cell(world_path: pathlib.Path, feet, reach: float = 4.0) -> tuple[int, int, int]:
    """An air cell on solid ground near `feet`, outside the player's box and within `reach` of its eye."""
    with World.open(world_path) as world:
        fx, fy, fz = (math.floor(v) for v in feet)
        for dx, dz in ((2, 0), (-2, 0), (0, 2), (0, -2), (2, 2), (-2, -2)):
            for dy in (0, 1, -1):
                x, y, z = fx + dx, fy + dy, fz + dz
                if REPLACEABLE[block_id(world.get_block(x, y, z))] and world.get_block(x, y, z) == "air" and \
                        not REPLACEABLE[block_id(world.get_block(x, y - 1, z))]:
                    return x, y, z
    raise AssertionError(f"no placeable cell near {feet}")


def map_cell(window: MapWindow, cell) -> list[int]:
    return [int(v) for v in window.to_map(*cell)]


def fixed_eye(window: MapWindow, feet) -> list[int]:
    return list(fixed_of_feet(*window.to_map(*feet)))
