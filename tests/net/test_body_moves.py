"""Other bodies as each client is sent them (`Hub._bodies_for`): every move is made once a tick and
shared by every client, and after every body update each client's copy holds exactly the bodies in
its range, each at the server's feet in 1/32 block, whichever way each got there (appeared, stepped,
moved in full, went out of range and came back)."""

from __future__ import annotations

import dataclasses

from physics import AABB

from game.net.client import ClientWorld
from game.net.hub import BODY_UPDATE_TICKS, Hub, ServerLimits
from game.net.protocol import PROTOCOL_VERSION, Hello, Input, TickUpdate, decode, encode, fixed_feet
from game.rules.replay import KeyDown, Look
from game.rules.tick_changes import session_bodies
from game.world.coords import CHUNK_SIZE

NAMES = ("alice", "bob", "carol")
RADIUS = 1
"""[columns] A small range, so walking players leave it within the test."""


def _expected(session, name: str) -> dict[str, tuple[int, int, int]]:
    """The bodies `name` should hold, by key, with their feet in 1/32 block: those in range but its own."""
    feet = session.players[name].body.feet
    cx, cz = int(feet[0] // CHUNK_SIZE), int(feet[2] // CHUNK_SIZE)
    out = {}
    for key, (_, box, _) in session_bodies(session).items():
        bx, bz = int((box[0] + box[3]) / 2 // CHUNK_SIZE), int((box[2] + box[5]) / 2 // CHUNK_SIZE)
        if key != f"player:{name}" and abs(bx - cx) <= RADIUS and abs(bz - cz) <= RADIUS:
            out[key] = fixed_feet(box)
    return out


def _held(copy: ClientWorld) -> dict[str, tuple[int, int, int]]:
    return {key: tuple(at) for key, _, _, at in copy._ids.values()}


def _teleport(session, name: str, dx: float) -> None:
    player = session.players[name]
    box = player.body.box
    player.body = dataclasses.replace(player.body, box=AABB(box.min_x + dx, box.min_y, box.min_z,
                                                            box.max_x + dx, box.max_y, box.max_z))


def test_each_client_holds_exactly_the_bodies_in_its_range_at_the_servers_feet_after_every_update(session):
    hub = Hub(session, ServerLimits(view_radius_columns=RADIUS))
    copies = {name: ClientWorld(hub.admit(Hello(PROTOCOL_VERSION, name), "10.0.0.1")) for name in NAMES}
    tick = session.ticks_run
    hub.receive("bob", Input(Look(tick, 90.0, 0.0)))
    hub.receive("bob", Input(KeyDown(tick, "w")))
    hub.receive("carol", Input(Look(tick, 270.0, 0.0)))
    hub.receive("carol", Input(KeyDown(tick, "w")))
    kinds = set()
    for number in range(240):
        if number == 60:
            _teleport(session, "alice", 3.0)  # farther than a step (4 blocks in an update) on no axis: a step
        if number == 120:
            _teleport(session, "alice", 6.0)  # farther: its feet in full
        out = hub.tick()
        for name, messages in out.items():
            for message in messages:
                message = decode(encode(message)[4:])
                copies[name].apply(message)
                if isinstance(message, TickUpdate):
                    kinds.update(move.change for move in message.bodies)
        if session.ticks_run % BODY_UPDATE_TICKS == 1:  # the tick just run sent the bodies
            for name in NAMES:
                assert _held(copies[name]) == _expected(session, name), (number, name)
    assert kinds == {"appeared", "stepped", "moved", "gone"}


def test_a_move_is_made_once_for_every_client_that_is_sent_it(session):
    hub = Hub(session)
    for name in NAMES:
        hub.admit(Hello(PROTOCOL_VERSION, name), "10.0.0.1")
    hub.receive("alice", Input(KeyDown(session.ticks_run, "w")))
    for _ in range(5 * BODY_UPDATE_TICKS):
        if session.ticks_run % BODY_UPDATE_TICKS == 0:
            out = hub.tick()  # a body update: alice walks on
        else:
            hub.tick()
    moves = [[move for message in out[name] if isinstance(message, TickUpdate) for move in message.bodies
              if move.id == hub._body_ids["player:alice"]] for name in ("bob", "carol")]
    assert len(moves[0]) == 1 and moves[0][0] is moves[1][0]
