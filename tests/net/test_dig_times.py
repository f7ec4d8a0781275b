"""Beta's dig times on the server: a remote player's left click digs its target for Beta's time
(`game.rules.mining`, by hardness and tool, as the local player digs), so a client that breaks a
block early in its own copy (a hostile "instant break": the button pressed and released at once) is
refused, and the block, as the server holds it, is sent back to it; a dig held to its time breaks."""

from __future__ import annotations

import numpy as np

from game.net.client import ClientWorld
from game.net.hub import Hub
from game.net.protocol import PROTOCOL_VERSION, Hello, Input, TickUpdate, decode, encode
from game.rules.mining import BLOCK_HIT_WAIT_TICKS, dig_strength
from game.rules.replay import Click, Look, Release
from game.world.blocks import AIR, block_id

SETTLE_TICKS = 40
"""[ticks] A joined player falls onto the ground and its spawn column reaches the client within this."""


def _wire(messages):
    """The messages as a client reads them: through their bytes."""
    return [decode(encode(message)[4:]) for message in messages]


def _joined(session, name="alice") -> tuple[Hub, ClientWorld]:
    """A hub with `name` joined, looking straight down at the ground under its feet, settled there."""
    hub = Hub(session)
    copy = ClientWorld(hub.admit(Hello(PROTOCOL_VERSION, name), "10.0.0.1"))
    hub.receive(name, Input(Look(session.ticks_run, 0.0, 90.0)))
    for _ in range(SETTLE_TICKS):
        for message in _wire(hub.tick()[name]):
            copy.apply(message)
    player = session.players[name]
    assert player.body.on_ground
    return hub, copy


def _ticks_to_break(block: str) -> int:
    """[ticks] Beta's dig time for `block` with the bare hand on the ground: the float32 damage summed
    per tick until it reaches 1 (`game.rules.mining.Mining`)."""
    strength, damage, ticks = dig_strength(block_id(block)), np.float32(0.0), 0
    while damage < 1.0:
        damage, ticks = np.float32(damage + strength), ticks + 1
    return ticks


def _ground(session, name="alice") -> tuple[tuple[int, int, int], str]:
    target = session.target(session.players[name])
    assert target is not None
    cell = tuple(int(v) for v in target.block)
    return cell, session.world.get_block(*cell)


def test_a_click_released_at_once_breaks_nothing_and_the_block_comes_back_to_the_client(session):
    hub, copy = _joined(session)
    cell, block = _ground(session)
    assert _ticks_to_break(block) > 1  # not a block Beta breaks in one tick (a flower, a torch)
    copy.columns[cell[0] // 16, cell[2] // 16][cell[0] % 16, cell[1], cell[2] % 16] = AIR  # broken in its copy
    tick = session.ticks_run
    hub.receive("alice", Input(Click(tick, "left")))
    hub.receive("alice", Input(Release(tick, "left")))
    updates = [message for message in _wire(hub.tick()["alice"]) if isinstance(message, TickUpdate)]
    for message in updates:
        copy.apply(message)
    assert session.world.get_block(*cell) == block
    assert [(edit.x, edit.y, edit.z, edit.block) for edit in updates[0].blocks] == [(*cell, block_id(block))]
    assert copy.block(*cell) == block_id(block)


def test_a_player_saved_peaceful_still_digs_for_betas_time_on_a_server(session):
    session.players["player"].damage_enabled = False  # peaceful breaks at once in a single-player game
    session.save()
    hub, _ = _joined(session, "player")  # the same name: its saved state, peaceful, joins the server
    assert session.players["player"].damage_enabled is True
    cell, block = _ground(session, "player")
    hub.receive("player", Input(Click(session.ticks_run, "left")))
    hub.tick()
    assert session.world.get_block(*cell) == block


def test_a_dig_held_breaks_the_block_at_exactly_betas_time_and_nothing_is_resent(session):
    hub, copy = _joined(session)
    cell, block = _ground(session)
    ticks = _ticks_to_break(block)
    hub.receive("alice", Input(Click(session.ticks_run, "left")))
    edits = []
    for _ in range(ticks):
        assert session.world.get_block(*cell) == block  # not before its time
        for message in _wire(hub.tick()["alice"]):
            copy.apply(message)
            if isinstance(message, TickUpdate):
                edits.extend((edit.x, edit.y, edit.z, edit.block) for edit in message.blocks)
    assert session.world.get_block(*cell) == "air"
    assert edits == [(*cell, AIR)]  # the break, once: no block resent
    assert copy.block(*cell) == AIR
    hub.receive("alice", Input(Release(session.ticks_run, "left")))
    assert not any(isinstance(message, TickUpdate) and message.blocks for message in hub.tick()["alice"])



def test_a_next_block_dug_with_the_button_held_and_let_go_early_is_sent_back(session):
    hub, _ = _joined(session)
    cell, block = _ground(session)
    hub.receive("alice", Input(Click(session.ticks_run, "left")))
    for _ in range(_ticks_to_break(block) + BLOCK_HIT_WAIT_TICKS + 3):  # the first breaks; the next is begun
        hub.tick()
    mining = session.players["alice"].mining
    assert session.world.get_block(*cell) == "air" and mining.held and mining.cell not in (None, cell)
    second = tuple(int(v) for v in mining.cell)
    assert mining.damage > 0
    hub.receive("alice", Input(Release(session.ticks_run, "left")))
    edits = [(edit.x, edit.y, edit.z, edit.block) for message in hub.tick()["alice"]
             if isinstance(message, TickUpdate) for edit in message.blocks]
    assert edits == [(*second, block_id(session.world.get_block(*second)))]
