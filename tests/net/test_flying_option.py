"""`--allow-flying`: a server's players may fly only when its operator says so (off by default, as
Minecraft's servers); the switch reaches the hub the server runs (`ServerLimits.flying_allowed`)."""

from __future__ import annotations

import pytest

from game.frontends import cli
from game.frontends import server as server_frontend
from game.frontends.cli import parse_options
from game.net.protocol import PROTOCOL_VERSION, Hello, Input
from game.rules.replay import KeyDown, KeyUp
from game.world import World

from .conftest import SEED, WORKERS


def test_a_server_allows_no_flying_unless_the_command_line_says_so():
    assert parse_options(["--server", "--world", "w.boxel"]).allow_flying is False
    assert parse_options(["--server", "--world", "w.boxel", "--allow-flying"]).allow_flying is True


def test_allow_flying_without_server_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        parse_options(["--allow-flying"])
    assert exit_info.value.code == cli.EXIT_USAGE
    assert "--allow-flying goes with --server" in capsys.readouterr().err


def _served(tmp_path, monkeypatch, argv) -> tuple[bool, bool]:
    """Whether the hub `python main.py --server` builds for `argv` allows flying, and whether a player
    flies after the fly key there (the server's loop replaced by a stub that plays it)."""
    kept = []

    async def play(hub, options, stop):
        kept.append((hub.limits.flying_allowed, _flies_after_the_fly_key(hub)))
        return server_frontend.EXIT_STOPPED

    monkeypatch.setattr(server_frontend, "_serve", play)
    options = parse_options(["--server", "--world", str(tmp_path / "w.boxel"), *argv])
    world = World.create(tmp_path / "w.boxel", SEED, workers=WORKERS)
    assert server_frontend.run(options, world) == server_frontend.EXIT_STOPPED
    return kept[0]


def _flies_after_the_fly_key(hub) -> bool:
    welcome = hub.admit(Hello(PROTOCOL_VERSION, "alice"), "10.0.0.1")
    tick = welcome.tick
    hub.receive("alice", Input(KeyDown(tick, "f")))
    hub.receive("alice", Input(KeyUp(tick + 1, "f")))
    for _ in range(3):
        hub.tick()
    assert welcome.flying_allowed is hub.limits.flying_allowed
    return hub.session.players["alice"].flying


def test_the_fly_key_toggles_nothing_on_a_server_started_without_allow_flying(tmp_path, monkeypatch):
    assert _served(tmp_path, monkeypatch, []) == (False, False)


def test_the_fly_key_makes_a_player_fly_on_a_server_started_with_allow_flying(tmp_path, monkeypatch):
    assert _served(tmp_path, monkeypatch, ["--allow-flying"]) == (True, True)
