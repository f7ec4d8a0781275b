"""The command line's network options: --server, --host, --port, --max-players, --connect, --name."""

from __future__ import annotations

import pytest

from game.frontends import cli
from game.frontends.cli import parse_options, wants_title_screen


def usage_error(argv, capsys) -> str:
    with pytest.raises(SystemExit) as exit_info:
        parse_options(argv)
    assert exit_info.value.code == cli.EXIT_USAGE
    return capsys.readouterr().err


def test_server_options_are_read_and_skip_the_title_screen():
    options = parse_options(["--server", "--world", "w.boxel", "--port", "0", "--host", "0.0.0.0", "--max-players", "5"])
    assert (options.server, options.port, options.host, options.max_players) == (True, 0, "0.0.0.0", 5)
    assert not wants_title_screen(options)


def test_connect_options_are_read_as_host_port_and_name():
    options = parse_options(["--connect", "[::1]:25565", "--name", "alice", "--headless", "--exit-after-ticks", "5"])
    assert (options.connect, options.name) == (("::1", 25565), "alice")
    assert not wants_title_screen(options)


@pytest.mark.parametrize("argv, message", [
    (["--server", "--headless", "--exit-after-ticks", "3"], "leave out --headless and --exit-after-ticks"),
    (["--server", "--port", "70000"], "expected a TCP port 0..65535"),
    (["--server", "--max-players", "0"], "expected a whole number of players 1..1000"),
    (["--port", "0"], "--host, --port and --max-players go with --server"),
    (["--connect", "localhost", "--name", "a", "--headless", "--exit-after-ticks", "3"], "expected HOST:PORT"),
    (["--connect", "h:1", "--headless", "--exit-after-ticks", "3"], "--connect needs --name NAME"),
    (["--connect", "h:1", "--name", "a", "--lab"], "leave out --lab"),
    (["--connect", "h:1", "--name", "a", "--world", "w.boxel", "--headless", "--exit-after-ticks", "3"],
     "leave out --world"),
    (["--connect", "h:1", "--name", "bad name", "--headless", "--exit-after-ticks", "3"], "letters, digits or underscores"),
    (["--name", "alice"], "--name goes with --connect"),
])
def test_network_options_that_do_not_go_together_are_usage_errors_naming_the_problem(argv, message, capsys):
    assert message in usage_error(argv, capsys)


def test_a_client_that_cannot_reach_its_server_says_so_and_exits_with_the_refused_status(capsys):
    import socket

    with socket.socket() as sock:  # a port nothing listens on: bound, never listening
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        status = cli.main(["--connect", f"127.0.0.1:{port}", "--name", "alice", "--headless", "--exit-after-ticks", "3"])
    assert status == 4
    assert f"the server 127.0.0.1:{port} cannot be reached" in capsys.readouterr().err
