"""`python main.py --server` as a process: its first line, its stop signals (the world and every player
saved by name, exit 0) and a restart that puts the players back. Clients are in-process, on 127.0.0.1."""

from __future__ import annotations

import asyncio
import os
import pathlib
import select
import signal
import subprocess
import sys

import pytest

from game.net.client import ClientWorld, Connection, ServerRefused
from game.net.protocol import Input
from game.world import World

from .test_server import BUILDER, DIGGER, _fields

ROOT = pathlib.Path(__file__).resolve().parents[2]
START_SECONDS = 30
"""[s] For the server's first line (imports, a new world's spawn area)."""
STOP_SECONDS = 30
"""[s] For the server to save and exit after a signal."""


def start_server(world: pathlib.Path, *options: str) -> tuple[subprocess.Popen, int]:
    process = subprocess.Popen([sys.executable, "main.py", "--server", "--world", str(world), "--port", "0", *options],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "BOXEL_DATA_DIR": str(world.parent / "data")})
    ready, _, _ = select.select([process.stdout], [], [], START_SECONDS)
    if not ready:
        process.kill()
        pytest.fail(f"no first line in {START_SECONDS} s: {process.communicate()[1]}")
    line = process.stdout.readline().strip()
    assert line.startswith("Boxel server listening on 127.0.0.1:"), (line, process.stderr.read() if process.poll() else "")
    return process, int(line.rpartition(":")[2])


async def limited(coroutine):
    async with asyncio.timeout(90):
        return await coroutine


def stop(process: subprocess.Popen, number: int) -> tuple[int, str]:
    process.send_signal(number)
    try:
        _, err = process.communicate(timeout=STOP_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        raise
    return process.returncode, err


async def until_stopped(connection, events, start, ready: asyncio.Event, ticks: int):
    """Play `events` from server tick `start`; set `ready` after `ticks` ticks; return the client's world
    and the reason the server gave when it ended the connection."""
    world = ClientWorld(connection.welcome)
    queue = list(events)
    try:
        while True:
            while queue and start + queue[0].tick <= world.tick + 3:
                event = queue.pop(0)
                connection.send(Input(type(event)(**{**_fields(event), "tick": start + event.tick})))
            world.apply(await connection.receive())
            if world.tick >= start + ticks:
                ready.set()
    except ServerRefused as refusal:
        return world, str(refusal)
    finally:
        await connection.close()


@pytest.mark.slow
def test_sigterm_saves_the_edits_and_both_players_by_name_and_a_restarted_server_puts_them_back(tmp_path):
    number = signal.SIGTERM
    world_path = tmp_path / "served.boxel"
    process, port = start_server(world_path, "--new", "--seed", "42")

    async def play_until_signal():
        alice = await Connection.open("127.0.0.1", port, "alice")
        bob = await Connection.open("127.0.0.1", port, "bob")
        start = max(alice.welcome.tick, bob.welcome.tick) + 40
        ready = [asyncio.Event(), asyncio.Event()]
        plays = asyncio.gather(until_stopped(alice, BUILDER, start, ready[0], 90),
                               until_stopped(bob, DIGGER, start, ready[1], 90))
        await asyncio.gather(*(event.wait() for event in ready))
        status = await asyncio.to_thread(stop, process, number)
        return status, await plays

    try:
        (status, err), ((alice, alice_reason), (bob, bob_reason)) = asyncio.run(limited(play_until_signal()))
    finally:
        if process.poll() is None:
            process.kill()
    assert status == 0, err
    assert alice_reason == bob_reason == "the server is stopping"
    edits = alice.edited_blocks()
    assert edits == bob.edited_blocks() and len(edits) >= 2
    with World.open(world_path) as saved:
        assert {"alice", "bob"} <= set(saved.player_states())
        assert saved.saved_player_state("alice")["box"] == list(alice.state.box)
        assert saved.saved_player_state("bob")["box"] == list(bob.state.box)
        assert [[*edit[:3], saved.get_block(*edit[:3])] for edit in edits] == edits

    process, port = start_server(world_path)

    async def rejoin():
        connection = await Connection.open("127.0.0.1", port, "alice")
        world = ClientWorld(connection.welcome)
        while world.state is None:
            world.apply(await connection.receive())
        await connection.close()
        return world.state

    try:
        state = asyncio.run(limited(rejoin()))
        status, err = stop(process, signal.SIGTERM)
    finally:
        if process.poll() is None:
            process.kill()
    assert status == 0, err
    assert list(state.box) == list(alice.state.box)


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGHUP], ids=["SIGINT", "SIGHUP"])
def test_sigint_and_sighup_also_save_the_connected_player_and_exit_0(tmp_path, number):
    world_path = tmp_path / "served.boxel"
    process, port = start_server(world_path, "--new", "--seed", "7")

    async def join_then_signal():
        connection = await Connection.open("127.0.0.1", port, "carol")
        ready = asyncio.Event()
        playing = asyncio.create_task(until_stopped(connection, (), connection.welcome.tick, ready, 5))
        await ready.wait()
        status = await asyncio.to_thread(stop, process, number)
        return status, await playing

    try:
        (status, err), (world, reason) = asyncio.run(limited(join_then_signal()))
    finally:
        if process.poll() is None:
            process.kill()
    assert (status, reason) == (0, "the server is stopping"), err
    assert f"stopped by {signal.Signals(number).name}" in err
    with World.open(world_path) as saved:
        assert saved.saved_player_state("carol")["box"] == list(world.state.box)


def test_the_server_and_the_network_client_load_no_engine_module():
    code = ("import sys, game.frontends.server, game.frontends.connect, game.net.server, game.net.client; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('ursina', 'panda3d', 'direct')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"


def replay_file(path: pathlib.Path, events) -> pathlib.Path:
    from game.rules.replay import ReplayWriter

    with ReplayWriter.open(path) as writer:
        for event in events:
            writer.write(event)
    return path


@pytest.mark.slow
def test_two_connect_headless_clients_report_each_other_and_both_edits(tmp_path):
    world_path = tmp_path / "served.boxel"
    process, port = start_server(world_path, "--new", "--seed", "42")
    wait = 40  # ticks for the columns around the spawn to arrive before acting
    clients = {}
    try:
        for name, events in (("alice", BUILDER), ("bob", DIGGER)):
            shifted = [type(e)(**{**_fields(e), "tick": e.tick + wait}) for e in events]
            clients[name] = subprocess.Popen(
                [sys.executable, "main.py", "--connect", f"127.0.0.1:{port}", "--name", name, "--headless",
                 "--replay", str(replay_file(tmp_path / f"{name}.jsonl", shifted)), "--exit-after-ticks", "160",
                 "--report", str(tmp_path / f"{name}.json")], cwd=ROOT, stderr=subprocess.PIPE, text=True)
        for name, client in clients.items():
            _, err = client.communicate(timeout=60)
            assert client.returncode == 0, err
        status, err = stop(process, signal.SIGTERM)
    finally:
        for running in (process, *clients.values()):
            if running.poll() is None:
                running.kill()
    assert status == 0, err
    import json

    alice, bob = (json.loads((tmp_path / f"{name}.json").read_text()) for name in ("alice", "bob"))
    assert "bob" in alice["players"] and "alice" in bob["players"]
    assert len(alice["players"]["bob"]["feet"]) == 3
    assert alice["ticks_run"] == bob["ticks_run"] == 160
    placed = [edit for edit in alice["edited_blocks"] if edit[3] != "air"]
    dug = [edit for edit in bob["edited_blocks"] if edit[3] == "air"]
    assert placed and dug
    assert placed[0] in bob["edited_blocks"] and dug[0] in alice["edited_blocks"]
