"""Classic clients we did not write on a Boxel server: Node bots built on the npm library
`minecraft-classic-protocol` (with its CPE companion) against `main.py --server --port 0 --classic-port 0`
on 127.0.0.1, beside Boxel clients. Every bot and every test has a time limit."""

from __future__ import annotations

import asyncio
import gzip
import math
import socket

import numpy as np
import pytest

import physics

from game.net.classic.blocks import BlockMap, Capabilities
from game.net.classic.level import decode_level
from game.net.classic.movement import fixed_of_feet
from game.net.classic.packets import (SERVER_PACKETS, DisconnectPlayer, PacketReader, PlayerIdentification,
                                      SetBlockClient, encode)
from game.net.client import ClientWorld, Connection
from game.net.protocol import Chat, Input, Say
from game.rules.replay import Click, Look, Release
from game.world import World
from game.world.blocks import block_id

from .bots import (SIZE, bot, map_cell, named, needs_node, new_world, placeable_cell, run, start_server, stop)

pytestmark = needs_node

CPE_BLOCKS = BlockMap(Capabilities(custom_blocks=True, block_definitions=True))
PLAIN_BLOCKS = BlockMap(Capabilities())


def _window_ids(world_path, window) -> np.ndarray:
    """The saved world's Boxel ids in `window`, [x, y, z]."""
    with World.open(world_path) as world:
        ids = np.zeros((window.width, window.height, window.depth), dtype=np.uint16)
        for cx, cz in window.columns():
            x, z = cx * 16 - window.x0, cz * 16 - window.z0
            ids[x:x + 16, :, z:z + 16] = world.column(cx, cz)[:, window.y0:window.y0 + window.height, :]
    return ids


def test_the_level_a_cpe_bot_and_a_plain_bot_receive_equals_the_sessions_blocks_through_the_mapping(tmp_path):
    world_path = tmp_path / "served.boxel"
    _, window = new_world(world_path)
    process, _, classic = start_server(world_path)
    try:
        async def both():
            return await asyncio.gather(
                bot(classic, "cpebot", [{"do": "quit"}], level_file=str(tmp_path / "cpe.bin")),
                bot(classic, "plainbot", [{"do": "quit"}], cpe=False, level_file=str(tmp_path / "plain.bin")))
        cpe_events, plain_events = run(both())
        status, err = stop(process)
    finally:
        if process.poll() is None:
            process.kill()
    assert status == 0, err
    assert named(cpe_events, "level")[0]["size"] == list(SIZE)
    assert len(named(cpe_events, "define_block")) == len(CPE_BLOCKS.definitions())
    assert named(plain_events, "define_block") == [] and named(plain_events, "ext_info") == []
    ids = _window_ids(world_path, window)
    for name, blocks in (("cpe", CPE_BLOCKS), ("plain", PLAIN_BLOCKS)):
        raw = (tmp_path / f"{name}.bin").read_bytes()
        received = decode_level(gzip.compress(raw), SIZE)
        assert np.array_equal(received, blocks.lookup[ids]), name
    assert (ids != 0).any() and (ids == 0).any()


def test_a_block_one_bot_sets_appears_in_the_session_the_other_bots_level_and_a_boxel_clients_world(tmp_path):
    world_path = tmp_path / "served.boxel"
    feet, window = new_world(world_path)
    cell = placeable_cell(world_path, feet)
    at = map_cell(window, cell)
    process, port, classic = start_server(world_path)
    try:
        async def scenario():
            boxel = await Connection.open("127.0.0.1", port, "boxer")
            seen = ClientWorld(boxel.welcome)

            async def watch():
                while seen.block(*cell) != block_id("stone"):
                    seen.apply(await boxel.receive())

            watching = asyncio.create_task(asyncio.wait_for(watch(), 30))
            watcher = asyncio.create_task(bot(classic, "watcher", [{"do": "wait_block", "at": at, "block": 1, "ms": 20000},
                                                                   {"do": "quit"}]))
            await asyncio.sleep(2.0)  # the watcher has its level
            builder = await bot(classic, "builder", [{"do": "wait", "ms": 300},
                                                     {"do": "set_block", "at": at, "mode": 1, "block": 1},
                                                     {"do": "wait", "ms": 500}, {"do": "quit"}])
            watched = await watcher
            await watching
            await boxel.close()
            return builder, watched, seen
        builder, watched, seen = run(scenario())
        status, err = stop(process)
    finally:
        if process.poll() is None:
            process.kill()
    assert status == 0, err
    assert named(watched, "waited_block")[0]["seen"] is True
    assert [*cell, "stone"] in seen.edited_blocks()
    with World.open(world_path) as saved:
        assert saved.get_block(*cell) == "stone"
        assert {"builder", "watcher", "boxer"} <= set(saved.player_states())
    assert named(builder, "set_block") == [] or all(e["at"] != at or e["block"] == 1 for e in named(builder, "set_block"))


BUILDER = (Look(0, 0.0, 60.0), Click(4, "right"), Release(5, "right"))
"""Looks down ahead (+Z) and places the selected block on the ground there (as tests/net/test_server.py)."""


def test_a_boxel_clients_block_reaches_both_bots_and_chat_goes_both_ways(tmp_path):
    world_path = tmp_path / "served.boxel"
    _, window = new_world(world_path)
    process, port, classic = start_server(world_path)
    try:
        async def scenario():
            boxel = await Connection.open("127.0.0.1", port, "boxer")
            seen = ClientWorld(boxel.welcome)
            heard = []
            steps = [{"do": "wait_chat", "contains": "<boxer> hello classic", "ms": 20000},
                     {"do": "wait", "ms": 1000}, {"do": "quit"}]
            bots = asyncio.gather(bot(classic, "alpha", [{"do": "wait", "ms": 1500}, {"do": "chat", "text": "hello boxel"},
                                                         *steps]),
                                  bot(classic, "beta", steps, cpe=False))

            async def pump():
                while True:
                    message = await boxel.receive()
                    if isinstance(message, Chat):
                        heard.append(message)
                    seen.apply(message)

            async def play():
                while not {"alpha", "beta"} <= set(seen.players_seen):  # both bots are playing
                    await asyncio.sleep(0.05)
                await asyncio.sleep(0.5)
                start = seen.tick + 5
                for event in BUILDER:
                    boxel.send(Input(type(event)(**{**_fields(event), "tick": start + event.tick})))
                boxel.send(Say("hello classic"))
                while not (seen.edited_blocks() and any(c.text == "hello boxel" for c in heard)):
                    await asyncio.sleep(0.05)

            pumping = asyncio.create_task(pump())
            await asyncio.wait_for(play(), 30)
            pumping.cancel()
            events = await bots
            await boxel.close()
            return events, seen, heard
        (alpha, beta), seen, heard = run(scenario())
        status, err = stop(process)
    finally:
        if process.poll() is None:
            process.kill()
    assert status == 0, err
    placed = [edit for edit in seen.edited_blocks() if edit[3] != "air"]
    assert placed
    x, y, z, name = placed[0]
    for events, blocks in ((alpha, CPE_BLOCKS), (beta, PLAIN_BLOCKS)):
        assert {"at": map_cell(window, (x, y, z)), "block": blocks.client_id(block_id(name))} in [
            {"at": e["at"], "block": e["block"]} for e in named(events, "set_block")]
        assert named(events, "waited_chat")[0]["seen"] is True
    assert Chat("alpha", "hello boxel") in heard
    assert "boxer" in [event["name"] for event in named(alpha, "spawn_player")]  # a Boxel player as an entity
    assert "boxer" in [event["name"] for event in named(alpha, "player_name")]  # and in the player list (CPE)
    assert "boxer" in [event["name"] for event in named(beta, "spawn_player")]


def _fields(event) -> dict:
    import dataclasses
    return {field.name: getattr(event, field.name) for field in dataclasses.fields(event)}


def test_a_bot_that_jumps_20_blocks_in_one_packet_is_teleported_back_then_moves_normally_after_its_ping_echo(tmp_path):
    world_path = tmp_path / "served.boxel"
    feet, window = new_world(world_path)
    process, _, classic = start_server(world_path)
    x, y, z = fixed_of_feet(*window.to_map(*feet))
    rise = [[x, y + step * 4, z] for step in range(1, 9)]  # up into the air, a quarter block a packet
    try:
        events = run(bot(classic, "jumper", [{"do": "wait", "ms": 300}, {"do": "position", "at": [x, y + 20 * 32, z]},
                                             {"do": "wait", "ms": 600}, {"do": "walk", "path": rise, "ms": 50},
                                             {"do": "wait", "ms": 300}, {"do": "quit"}]))
        status, err = stop(process)
    finally:
        if process.poll() is None:
            process.kill()
    assert status == 0, err
    teleports = named(events, "teleported")
    assert len(teleports) == 1 and teleports[0]["at"] == [x, y, z]
    assert len(named(events, "ping_echoed")) == 1
    assert err.count("jumper teleported back: moved too quickly") == 1
    with World.open(world_path) as saved:
        box = saved.saved_player_state("jumper")["box"]
    assert math.isclose(box[1], feet[1] + 1.0, abs_tol=1 / 32)  # the last accepted position: 8 quarters up


def test_bad_bytes_disconnect_that_one_client_with_the_reason_and_the_server_goes_on(tmp_path):
    world_path = tmp_path / "served.boxel"
    new_world(world_path)
    process, _, classic = start_server(world_path)
    try:
        reasons = []
        flood = encode(PlayerIdentification(7, "flooder", "", 0)) + encode(SetBlockClient(0, 0, 0, 1, 1)) * 100
        for garbage in (b"\x77" * 200, encode(PlayerIdentification(6, "old", "", 0)),
                        encode(PlayerIdentification(7, "bad name!", "", 0)), flood):
            with socket.create_connection(("127.0.0.1", classic), timeout=10) as sock:
                sock.sendall(garbage)
                reasons.append(_disconnect_reason(sock))
        events = run(bot(classic, "after", [{"do": "quit"}]))
        status, err = stop(process)
    finally:
        if process.poll() is None:
            process.kill()
    assert status == 0, err
    assert "unknown packet id 0x77" in reasons[0]
    assert "protocol 7" in reasons[1]
    assert reasons[2]  # the name's problem, as the Session words it
    assert reasons[3].startswith("too many packets")
    assert named(events, "level")


def _disconnect_reason(sock) -> str:
    reader = PacketReader(SERVER_PACKETS)
    while True:
        data = sock.recv(65536)
        if not data:
            return ""
        reader.feed(data)
        for packet in reader.packets():
            if isinstance(packet, DisconnectPlayer):
                return packet.reason


def test_a_bot_that_leaves_in_the_middle_of_the_level_leaves_the_server_and_the_other_bot_unaffected(tmp_path):
    world_path = tmp_path / "served.boxel"
    size = (128, 64, 128)  # a level of several ticks' chunks, so the quitter leaves with the rest unsent
    new_world(world_path, size)
    process, _, classic = start_server(world_path, size)
    try:
        async def both():
            return await asyncio.gather(
                bot(classic, "quitter", [], quit_after_chunks=3),
                bot(classic, "stayer", [{"do": "wait", "ms": 1500}, {"do": "chat", "text": "still here"},
                                        {"do": "wait_chat", "contains": "<stayer> still here", "ms": 5000},
                                        {"do": "quit"}]))
        quitter, stayer = run(both())
        status, err = stop(process)
    finally:
        if process.poll() is None:
            process.kill()
    assert status == 0, err
    assert named(quitter, "quit_mid_level")[0]["percent"] < 10 and not named(quitter, "level")
    assert named(stayer, "level") and named(stayer, "waited_chat")[0]["seen"] is True
    assert "quitter left" in err and "stayer left" in err
    with World.open(world_path) as saved:
        assert {"quitter", "stayer"} <= set(saved.player_states())




WALK_TICKS = 600
"""[ticks] 30 s of walking."""


def _walk_on_a_server(world_path, name: str, path: list, seconds: float) -> list[dict]:
    """A server on `world_path` and one bot sending `path` (fixed-point feet) a position every 50 ms; the
    bot's events, once the server was stopped, after checking it exited 0 and never teleported the bot."""
    process, _, classic = start_server(world_path)
    try:
        events = run(bot(classic, name, [{"do": "wait", "ms": 300}, {"do": "walk", "path": path, "ms": 50},
                                         {"do": "wait", "ms": 300}, {"do": "quit"}], seconds=seconds),
                     seconds=seconds + 20)
        status, err = stop(process)
    finally:
        if process.poll() is None:
            process.kill()
    assert status == 0, err
    assert named(events, "teleported") == [] and "teleported back" not in err
    return events


def _recorded_walk(world_path, feet) -> list:
    """The feet of a player walking and jumping in a slow circle from `feet` for WALK_TICKS ticks, stepped
    by Boxel's physics in the world's own terrain: what an honest client at 20 Hz sends."""
    with World.open(world_path) as world:
        body = physics.Body.at_feet(*feet)
        path = []
        for tick in range(WALK_TICKS):
            intent = physics.Intent(forward=1.0, yaw=(270.0 + tick * 0.6) % 360, jump=tick % 40 < 20)
            body = physics.step(body, world, intent)
            path.append(body.feet)
    return path


@pytest.mark.slow
def test_a_bot_walking_and_jumping_a_recorded_30_s_path_is_never_corrected(tmp_path):
    world_path = tmp_path / "served.boxel"
    feet, window = new_world(world_path)
    path = [list(fixed_of_feet(*window.to_map(*point))) for point in _recorded_walk(world_path, feet)]
    events = _walk_on_a_server(world_path, "walker", path, seconds=60)
    assert named(events, "walked")[0]["packets"] == WALK_TICKS
    with World.open(world_path) as saved:
        box = saved.saved_player_state("walker")["box"]
    end = window.to_world(path[-1][0] / 32, (path[-1][1] - 51) / 32, path[-1][2] / 32)
    assert max(abs((box[0] + box[3]) / 2 - end[0]), abs(box[1] - end[1]), abs((box[2] + box[5]) / 2 - end[2])) <= 1 / 16


SWIM_TICKS = 300
"""[ticks] 15 s: into a pool, swimming across it and out over its edge."""
POOL_HALF_WIDTH = 4
"""[blocks] The pool is 9 x 9 columns around the spawn column."""
POOL_DEPTH = 2
"""[blocks] Water sources in the two cells below the spawn's feet, level with the ground around."""


def _dig_pool(world_path, feet) -> None:
    """Fill the two cells under the feet of every column within POOL_HALF_WIDTH of the spawn with water."""
    x0, y0, z0 = (math.floor(v) for v in feet)
    water = block_id("water")
    with World.open(world_path) as world:
        for x in range(x0 - POOL_HALF_WIDTH, x0 + POOL_HALF_WIDTH + 1):
            for z in range(z0 - POOL_HALF_WIDTH, z0 + POOL_HALF_WIDTH + 1):
                for y in range(y0 - POOL_DEPTH, y0):
                    world.set_id(x, y, z, water)
        world.save()


def _recorded_swim(world_path, feet) -> tuple[list, int]:
    """The feet of a player walking south from `feet` with jump held, stepped by
    Boxel's physics through the pool: falling in, swimming, climbing out. Also how many ticks its feet
    were in water."""
    water = block_id("water")
    with World.open(world_path) as world:
        body = physics.Body.at_feet(*feet)
        path, wet = [], 0
        for tick in range(SWIM_TICKS):
            body = physics.step(body, world, physics.Intent(forward=1.0, yaw=0.0, jump=True))
            path.append(body.feet)
            wet += world.id_at(*(math.floor(v) for v in body.feet)) == water
    return path, wet


@pytest.mark.slow
def test_a_bot_swimming_a_recorded_path_through_a_pool_and_out_is_never_corrected(tmp_path):
    world_path = tmp_path / "served.boxel"
    feet, window = new_world(world_path)
    _dig_pool(world_path, feet)
    walk, wet = _recorded_swim(world_path, feet)
    assert wet >= 20  # the path really swims
    path = [list(fixed_of_feet(*window.to_map(*point))) for point in walk]
    events = _walk_on_a_server(world_path, "swimmer", path, seconds=40)
    assert named(events, "walked")[0]["packets"] == SWIM_TICKS
