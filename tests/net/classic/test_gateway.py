"""The Classic gateway in process (`game.net.classic.gateway`), its clients' sockets replaced by byte sinks:
the Session's rules for Classic edits, the window's changes within the tick, the move checks and the
teleport's ping, chat both ways, a Classic player as a Session player, and the command line's options."""

from __future__ import annotations

import math

import pytest

from game.frontends.cli import parse_options
from game.net.classic.blocks import BlockMap, Capabilities
from game.net.classic.gateway import SERVER_EXTENSIONS, ClassicClient, ClassicGateway, Disconnect
from game.net.classic.movement import fixed_of_feet
from game.net.classic.packets import (SELF_ID, SERVER_PACKETS, DisconnectPlayer, Message, PacketReader,
                                      PositionOrientation, SetBlock, SetBlockClient, TwoWayPing)
from game.net.hub import Hub, Refused, ServerLimits
from game.net.protocol import PROTOCOL_VERSION, Chat, Hello, Say

SIZE = (32, 32, 32)


class Sink:
    """A socket that keeps what is written (and its transport's calls do nothing)."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.transport = self

    def write(self, data: bytes) -> None:
        self.data += data

    def get_write_buffer_size(self) -> int:
        return 0

    def write_eof(self) -> None:
        pass

    def close(self) -> None:
        pass

    def abort(self) -> None:
        pass


def received(client: ClassicClient) -> list:
    """The packets sent to `client` since the last call."""
    reader = PacketReader(SERVER_PACKETS)
    reader.feed(bytes(client.writer.data))
    client.writer.data.clear()
    return list(reader.packets())


@pytest.fixture
def served(session):
    hub = Hub(session, ServerLimits())
    gateway = ClassicGateway(hub, size=SIZE)
    for key in gateway.window.columns():
        session.world.column(*key)
    assert gateway.blocks.fill(session.world, 100) == 0
    return hub, gateway


def join(gateway: ClassicGateway, name: str) -> ClassicClient:
    client = ClassicClient(Sink(), "10.0.0.1")
    client.extensions = frozenset(SERVER_EXTENSIONS) - {"ExtEntityPositions"}
    client.blocks = BlockMap(Capabilities(custom_blocks=True, block_definitions=True))
    gateway._join(client, name)
    client.playing = True
    return client


def ground_cell(gateway, player, dx: int, dz: int) -> tuple[int, int, int]:
    """The air cell on the ground `dx`, `dz` blocks from `player`'s feet."""
    world = gateway.session.world
    x, z = math.floor(player.body.feet[0]) + dx, math.floor(player.body.feet[2]) + dz
    y = max(y for y in range(256) if world.get_block(x, y, z) not in ("air",)) + 1
    return x, y, z


def map_of(gateway, cell) -> tuple[int, int, int]:
    return tuple(int(v) for v in gateway.window.to_map(*cell))


def test_a_block_the_session_changes_in_the_window_reaches_a_classic_client_in_that_tick(served):
    hub, gateway = served
    client = join(gateway, "classic")
    cell = ground_cell(gateway, hub.session.players["classic"], 3, 0)
    received(client)
    hub.session.world.set_block(*cell, "glass")
    gateway.hub.tick()
    assert SetBlock(*map_of(gateway, cell), 20) in received(client)


def test_a_classic_block_within_reach_is_placed_and_one_beyond_reach_is_refused_and_resent(served):
    hub, gateway = served
    client = join(gateway, "classic")
    player = hub.session.players["classic"]
    near, far = ground_cell(gateway, player, 2, 0), ground_cell(gateway, player, 12, 0)
    gateway._on_packet(client, SetBlockClient(*map_of(gateway, near), 1, 1))
    gateway._on_packet(client, SetBlockClient(*map_of(gateway, far), 1, 1))
    gateway.hub.tick()
    world = hub.session.world
    assert world.get_block(*near) == "stone" and world.get_block(*far) == "air"
    packets = received(client)
    assert SetBlock(*map_of(gateway, far), 0) in packets  # told the real block back
    assert SetBlock(*map_of(gateway, near), 1) in packets  # the change, as every Classic client is told
    assert near in hub.session.edited_cells


def test_a_classic_player_cannot_break_bedrock_or_place_a_block_in_mid_air(served):
    hub, gateway = served
    client = join(gateway, "classic")
    player = hub.session.players["classic"]
    x, y, z = ground_cell(gateway, player, 2, 0)
    air = (x, y + 3, z)
    gateway._on_packet(client, SetBlockClient(*map_of(gateway, air), 1, 1))
    hub.session.world.set_block(x, y - 1, z, "bedrock")
    gateway._on_packet(client, SetBlockClient(*map_of(gateway, (x, y - 1, z)), 0, 7))
    gateway.hub.tick()
    assert hub.session.world.get_block(*air) == "air" and hub.session.world.get_block(x, y - 1, z) == "bedrock"
    assert SetBlock(*map_of(gateway, (x, y - 1, z)), 7) in received(client)


def test_a_classic_player_breaks_a_block_at_once_where_flying_is_allowed(served):
    hub, gateway = served
    client = join(gateway, "classic")
    x, y, z = ground_cell(gateway, hub.session.players["classic"], 2, 0)
    gateway._on_packet(client, SetBlockClient(*map_of(gateway, (x, y - 1, z)), 0, 1))
    gateway.hub.tick()
    assert hub.session.world.get_block(x, y - 1, z) == "air"


def test_a_client_teleported_back_is_ignored_until_it_echoes_the_ping_then_moves(served):
    hub, gateway = served
    client = join(gateway, "classic")
    start = client.body
    x, y, z = fixed_of_feet(*gateway.window.to_map(*start.feet))
    received(client)
    gateway._on_packet(client, PositionOrientation(SELF_ID, x, y + 20 * 32, z, 0, 0))
    packets = received(client)
    assert PositionOrientation(SELF_ID, x, y, z, packets[0].yaw, 0) == packets[0]
    ping = packets[1]
    assert isinstance(ping, TwoWayPing) and ping.direction == 1 and client.corrections == 1
    gateway._on_packet(client, PositionOrientation(SELF_ID, x, y + 16, z, 0, 0))
    assert client.body == start  # ignored: no echo yet
    gateway._on_packet(client, TwoWayPing(1, ping.data))
    gateway._on_packet(client, PositionOrientation(SELF_ID, x, y + 16, z, 0, 0))
    assert client.body.feet[1] == start.feet[1] + 0.5 and client.corrections == 1


def test_more_than_40_packets_in_a_tick_cut_the_client_with_the_reason_and_its_player_leaves(served):
    hub, gateway = served
    client = join(gateway, "flooder")
    received(client)
    for _ in range(41):
        gateway._on_packet(client, SetBlockClient(0, 0, 0, 1, 1))
    assert DisconnectPlayer("too many packets (more than 40 in a tick)") in received(client)
    assert "flooder" not in hub.session.players and "flooder" in hub.session.world.player_states()


def test_chat_goes_from_boxel_to_classic_and_from_classic_to_boxel(served):
    hub, gateway = served
    client = join(gateway, "classic")
    hub.admit(Hello(PROTOCOL_VERSION, "boxer"), "10.0.0.2")
    received(client)
    assert gateway.hub.receive("boxer", Say("hello classic")) is None
    assert Message(0, "<boxer> hello classic") in received(client)
    gateway._on_packet(client, Message(255, "hello boxel"))
    assert Chat("classic", "hello boxel") in hub.clients["boxer"].outbox


def test_a_classic_player_is_a_session_player_that_boxel_clients_see_and_is_saved_walking_when_it_leaves(served):
    hub, gateway = served
    client = join(gateway, "classic")
    assert hub.session.players["classic"].flying is True  # held where its client is
    other = join(gateway, "other")
    gateway.hub.tick()
    gateway.hub.tick()
    assert any(getattr(packet, "name", None) == "other" for packet in received(client))
    gateway._cut(other, "bye")
    assert "other" not in hub.session.players
    assert hub.session.world.saved_player_state("other")["flying"] is False


def test_the_classic_options_go_with_the_server_and_name_a_port_and_a_window():
    options = parse_options(["--server", "--world", "w.boxel", "--classic-port", "0", "--classic-size", "64x32x128"])
    assert options.classic_port == 0 and options.classic_size == (64, 32, 128)
    assert parse_options(["--server", "--world", "w.boxel"]).classic_port is None
    for bad in (["--classic-port", "0"], ["--server", "--world", "w", "--classic-size", "60x64x64"],
                ["--server", "--world", "w", "--classic-port", "70000"]):
        with pytest.raises(SystemExit):
            parse_options(bad)


def test_boxel_and_classic_players_count_together_against_the_servers_limits(session):
    hub = Hub(session, ServerLimits(max_players=2, connections_per_address=1))
    gateway = ClassicGateway(hub, size=SIZE)
    join(gateway, "classic")  # from 10.0.0.1
    assert hub.elsewhere == {"classic": "10.0.0.1"}
    with pytest.raises(Refused, match="too many connections from 10.0.0.1"):
        hub.admit(Hello(PROTOCOL_VERSION, "boxel"), "10.0.0.1")
    hub.admit(Hello(PROTOCOL_VERSION, "boxel"), "10.0.0.2")
    with pytest.raises(Disconnect, match=r"the server is full \(2 players\)"):
        gateway._check_joinable("third", "10.0.0.3")
    with pytest.raises(Refused, match="a player named classic is already playing"):
        hub.admit(Hello(PROTOCOL_VERSION, "classic"), "10.0.0.4")
    gateway._leave(gateway.clients["classic"], "bye")
    assert hub.elsewhere == {}
    gateway._check_joinable("third", "10.0.0.3")  # room again
