"""The client's prediction and reconciliation (`game.net.prediction`, `game.net.client.PredictingClient`),
without sockets: a Hub and clients joined by simulated links of 150 ms round trip and +-30 ms of
jitter each way (order kept), every message through its bytes (encode, then decode) as on the wire."""

from __future__ import annotations

import dataclasses

import pytest

from game.net.client import PredictingClient
from game.net.hub import Hub
from game.net.prediction import Prediction, PredictedWorld, apply_input
from game.net.protocol import PROTOCOL_VERSION, Ack, Hello, PlayerState, Welcome, decode, encode
from game.rules.player import Player
from game.rules.replay import KeyDown, KeyUp, Look
from game.world.terrain import Terrain
from physics import AABB, Body
from physics.push import push_region

from .conftest import AckReader
from .course import LADDER_Z, LaggyLink, build_course, script

TICK_MS = 50
SETTLE_TICKS = 20
"""[ticks] The course's blocks settle (their block updates run) before anyone joins."""


def wire(message):
    """`message` as the other side reads it."""
    return decode(encode(message)[4:])


class Run:
    """A Hub and its clients over simulated laggy links, stepped a millisecond at a time."""

    def __init__(self, session) -> None:
        self.hub = Hub(session)
        self.spawn_cell = build_course(session.world)
        for _ in range(SETTLE_TICKS):
            self.hub.tick()
        self.clients: dict[str, PredictingClient] = {}
        self.links: dict[str, tuple[LaggyLink, LaggyLink]] = {}
        self.now_ms = 0
        self.server_acks: dict[str, list[Ack]] = {}
        self.readers: dict[str, AckReader] = {}

    def join(self, name: str, events, seed: int) -> PredictingClient:
        welcome = wire(self.hub.admit(Hello(PROTOCOL_VERSION, name), f"10.0.0.{seed}"))
        client = self.clients[name] = PredictingClient(welcome, events)
        self.links[name] = (LaggyLink(seed), LaggyLink(seed + 1000))
        self.server_acks[name] = []
        self.readers[name] = AckReader()
        return client

    def run_ms(self, ms: int) -> None:
        for _ in range(ms):
            if self.now_ms % TICK_MS == 0:
                for name, (_, up) in self.links.items():
                    for message in up.arrived(self.now_ms):
                        assert self.hub.receive(name, wire(message)) is None
                out = self.hub.tick()
                for name, messages in out.items():
                    self.server_acks[name] += self.readers[name].take(messages)
                    for message in messages:
                        self.links[name][0].send(self.now_ms, message)
            for name, client in self.clients.items():
                down, up = self.links[name]
                for message in down.arrived(self.now_ms):
                    for answer in client.receive(wire(message)):
                        up.send(self.now_ms, answer)
            self.now_ms += 1


def test_a_lone_client_walking_jumping_swimming_climbing_and_flying_for_a_minute_behind_150_ms_is_never_corrected(
        session):
    run = Run(session)
    ticks = 1200  # 60 s of ticks
    client = run.join("alice", script(ticks), 1)
    run.run_ms((ticks + 20) * TICK_MS)
    states = [ack.state for ack in run.server_acks["alice"]]
    _, y0, z0 = run.spawn_cell
    assert any(state.in_water for state in states)  # it swam
    assert any(state.flying for state in states)  # it flew
    climbed = [s for s in states if abs((s.box[2] + s.box[5]) / 2 - (z0 + LADDER_Z + 0.5)) < 0.7
               and s.box[1] >= y0 + 2 and not s.flying]
    assert climbed  # up the ladder
    assert client.world.tick >= client.start + ticks - 1
    assert client.corrections == 0
    assert client.prediction.acknowledged >= client.start + ticks - 2  # it compared the acks to the end


def test_a_client_pushed_by_another_player_is_corrected_and_then_agrees_with_the_server_within_a_round_trip(session):
    run = Run(session)
    # bob stands at the spawn; alice joins there too (they push apart), walks south and stops.
    still = run.join("bob", [Look(0, 180.0, 0.0)], 1)
    run.run_ms(400)
    run.join("alice", [Look(0, 0.0, 0.0), KeyDown(0, "w"), KeyUp(25, "w")], 3)
    run.run_ms(4000)
    assert still.corrections > 0  # pushed: its prediction knew nothing of alice
    boxes = {name: {ack.tick: AABB(*ack.state.box) for ack in acks} for name, acks in run.server_acks.items()}
    touching = [tick for tick, box in boxes["bob"].items()
                if tick in boxes["alice"] and push_region(boxes["alice"][tick]).intersects(box)]
    assert touching
    last = max(still.prediction.corrected_ticks)
    assert last <= max(touching) + 1  # corrected only while pushed: the first ack after a push puts it right
    assert still.prediction.acknowledged >= last + 40  # and every ack after that agreed, bit for bit


def test_an_ack_that_agrees_with_the_prediction_to_the_bit_is_no_correction():
    welcome = Welcome(PROTOCOL_VERSION, "alice", 42, 10, 0)
    prediction = Prediction(welcome)
    start = _state_over_stone(prediction.world)
    prediction.start(Ack(10, -1, start))
    predicted = prediction.step([KeyDown(11, "w")])
    assert prediction.acknowledge(Ack(11, 11, predicted)) is False
    assert prediction.corrections == 0


def test_an_ack_that_differs_in_one_bit_is_a_correction_and_the_later_inputs_are_replayed_from_it():
    welcome = Welcome(PROTOCOL_VERSION, "alice", 42, 10, 0)
    prediction = Prediction(welcome)
    prediction.start(Ack(10, -1, _state_over_stone(prediction.world)))
    first = prediction.step([KeyDown(11, "w")])
    prediction.step([])
    prediction.step([KeyUp(13, "w")])
    box = list(first.box)
    box[0] = float.fromhex(box[0].hex())  # the same number...
    box[0] = box[0] + 2 ** -40  # ...then one tiny step off
    box[3] = box[3] + 2 ** -40
    server = dataclasses.replace(first, box=tuple(box))
    assert prediction.acknowledge(Ack(11, 11, server)) is True
    assert prediction.corrections == 1
    # the replay: from the server's state, the same inputs, the same rules
    player = Player(prediction.world, server.body(), server.yaw, server.pitch, server.flying, name="alice")
    player.ticks_run = 12
    apply_input(player, KeyDown(11, "w"))
    player.tick()
    apply_input(player, KeyUp(13, "w"))
    player.tick()
    assert prediction.state.box == tuple(player.body.box)


def test_a_predicted_world_answers_collision_queries_as_its_columns_hold_them():
    world = PredictedWorld(42)
    ids = Terrain(42).column(0, 0).copy()
    ids[:, 100, :] = 1  # a stone layer high in the air
    world.set_column(0, 0, ids)
    boxes = world.collision_boxes(AABB(1.2, 100.5, 1.2, 1.8, 101.5, 1.8))
    assert boxes == [AABB(1.0, 100.0, 1.0, 2.0, 101.0, 2.0)]
    world.set_id(1, 100, 1, 0)
    assert world.collision_boxes(AABB(1.2, 100.5, 1.2, 1.8, 101.5, 1.8)) == []


def test_an_inventory_key_releases_the_held_keys_as_the_session_does():
    player = Player(PredictedWorld(42), Body.at_feet(0.5, 200.0, 0.5))
    apply_input(player, KeyDown(0, "w"))
    apply_input(player, KeyDown(0, "e"))
    assert player.inventory_open and not player.input.held - {"e"}


def test_a_prediction_refuses_an_event_for_another_tick():
    prediction = Prediction(Welcome(PROTOCOL_VERSION, "alice", 42, 10, 0))
    prediction.start(Ack(10, -1, _state_over_stone(prediction.world)))
    with pytest.raises(ValueError, match="for tick 12"):
        prediction.step([KeyDown(12, "w")])


def _state_over_stone(world: PredictedWorld) -> PlayerState:
    ids = Terrain(42).column(0, 0).copy()
    ids[:, 150:, :] = 0
    ids[:, 149, :] = 1
    world.set_column(0, 0, ids)
    return PlayerState.of_body(Body.at_feet(8.5, 150.0, 8.5), 0.0, 0.0, False, False, 20)
