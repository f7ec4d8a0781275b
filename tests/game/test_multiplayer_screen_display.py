"""The title screen's Multiplayer dialog and Host button in a real window (a probe subprocess under
Xvfb driving the title screen as a player would): an address typed and Enter joins a test server;
Host starts the world's server as a child process, joins it with the address to share in the chat,
and leaving the world stops the server, whose world file then holds the edit made."""

from __future__ import annotations

import json
import os
import signal

import pytest

from tests.net.test_server_process import start_server, stop

from .conftest import PROBE_PREFIX, print_probe, run_with_display

pytestmark = pytest.mark.display

PLAYED_TICKS = 40
"""[ticks] Played on the server before the probe leaves (2 s: the block placed at tick 10 is back)."""


def _driver(on_title, on_game):
    """An entity (kept across `scene.clear`) calling `on_title(title)` while the title screen waits
    and `on_game(game)` every frame a game is playing (loaded)."""
    from ursina import Entity

    def attach(title_run):
        def update():
            if title_run.title is not None and title_run.title.choice is None:
                on_title(title_run.title)
            elif title_run.game is not None and not title_run.game.loading:
                on_game(title_run.game)

        Entity(update=update, eternal=True)

    return attach


def _run_title(on_open) -> int:
    from game.frontends.cli import parse_options, title_session
    from game.window import app

    return app.run_title(parse_options(["--size", "640x360"]), title_session, None, on_open)


def probe_join(port: int) -> None:
    """Run in a subprocess: Multiplayer, type the address and a name, Enter; play; leave; Quit."""
    report: dict = {}

    def on_title(title) -> None:
        if "played_ticks" in report:
            report["notice"] = title.message.text
            title.quit()
        elif title.dialog is None:
            title.open_multiplayer()
            report["prefilled"] = [title.fields["address"].text, title.fields["name"].text]
            title.fields["address"].text = "localhost:x"
            title.input("enter")
            report["refused"] = title.dialog.error.text
            title.fields["address"].text, title.fields["name"].text = f"127.0.0.1:{port}", "carol"
            title.input("enter")

    def on_game(game) -> None:
        session = game.session
        if "played_ticks" not in report and session.ticks_run >= PLAYED_TICKS:
            report.update(played_ticks=session.ticks_run, server=session.address, name=session.local_name,
                          lost=session.lost, columns=len(session.client.columns))
            game.request_quit()

    report["status"] = _run_title(_driver(on_title, on_game))
    from game.userdata import recent_servers

    report["recent"] = [[server.address, server.name] for server in recent_servers.load()]
    print_probe(report)


def probe_lost(port: int, server_pid: int) -> None:
    """Run in a subprocess: join by Multiplayer; once playing, the server stops (SIGTERM); the title
    screen comes back saying why; Quit."""
    import os
    import signal

    report: dict = {}

    def on_title(title) -> None:
        if "stopped_at" in report:
            report["notice"] = title.message.text
            title.quit()
        elif title.dialog is None:
            title.open_multiplayer()
            title.fields["address"].text, title.fields["name"].text = f"127.0.0.1:{port}", "dave"
            title.input("enter")

    def on_game(game) -> None:
        if game.session.ticks_run >= 10 and "stopped_at" not in report:
            report["stopped_at"] = game.session.ticks_run
            os.kill(server_pid, signal.SIGTERM)

    report["status"] = _run_title(_driver(on_title, on_game))
    print_probe(report)


def probe_host() -> None:
    """Run in a subprocess: Host the listed world; place a block; leave; Quit."""
    from game.rules.replay import Click

    report: dict = {}

    def on_title(title) -> None:
        if "played_ticks" in report:
            report["notice"] = title.message.text
            title.quit()
        else:
            title.rows[0].host_button.on_click()

    def on_game(game) -> None:
        session = game.session
        game.look = (0.0, 60.0)  # as the mouse turns it: the window sends the look at its next tick
        if session.ticks_run >= 10 and "clicked" not in report:
            report["clicked"] = session.ticks_run
            session.apply(Click(0, "right"))  # as the right button does (a tick may run several a frame)
        elif "played_ticks" not in report and session.ticks_run >= PLAYED_TICKS:
            report.update(played_ticks=session.ticks_run, server=session.address, name=session.local_name,
                          notices=list(session.notices), edited=session.report()["edited_blocks"])
            game.request_quit()

    report["status"] = _run_title(_driver(on_title, on_game))
    print_probe(report)


def _probe(function: str, *args, data: str) -> tuple[dict, str]:
    env = {**os.environ, "BOXEL_DATA_DIR": data, "BOXEL_CONFIG_DIR": data + "/config"}
    done = run_with_display(["-c", f"from {__name__} import {function} as probe; probe(*{args!r})"], env=env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    line = next(line for line in done.stdout.splitlines() if line.startswith(PROBE_PREFIX))
    return json.loads(line[len(PROBE_PREFIX):]), done.stdout


@pytest.mark.slow
def test_multiplayer_joins_the_address_typed_and_remembers_it(tmp_path):
    server, port = start_server(tmp_path / "served.boxel", "--new", "--seed", "42")
    try:
        report, _ = _probe("probe_join", port, data=str(tmp_path / "user"))
    finally:
        status, log = stop(server, signal.SIGTERM)
    assert report["status"] == 0
    assert report["prefilled"] == ["", ""]  # nothing joined before
    assert "not a number from 1 to 65535" in report["refused"]
    assert (report["server"], report["name"], report["lost"]) == (f"127.0.0.1:{port}", "carol", None)
    assert report["played_ticks"] >= PLAYED_TICKS and report["columns"] > 0
    assert report["notice"] == ""  # left by the player's choice: nothing to tell
    assert report["recent"] == [[f"127.0.0.1:{port}", "carol"]]
    assert "carol joined" in log and "carol left" in log


@pytest.mark.slow
def test_a_server_that_stops_while_playing_brings_back_the_title_screen_saying_why(tmp_path):
    server, port = start_server(tmp_path / "served.boxel", "--new", "--seed", "42")
    try:
        report, _ = _probe("probe_lost", port, server.pid, data=str(tmp_path / "user"))
    finally:
        if server.poll() is None:
            stop(server, signal.SIGTERM)
        server.communicate()
    assert report["status"] == 0
    assert report["notice"] == f"disconnected from 127.0.0.1:{port}: the server is stopping"
    assert server.returncode == 0  # it saved and exited on its SIGTERM


@pytest.mark.slow
def test_host_serves_the_world_joins_it_and_leaving_stops_the_server_which_saved_the_edit(tmp_path):
    from game.world import World

    data = tmp_path / "user"
    path = data / "worlds" / "Hosted.boxel"
    path.parent.mkdir(parents=True)
    World.create(path, 42, workers=1).close()
    report, out = _probe("probe_host", data=str(data))
    assert report["status"] == 0 and report["notice"] == ""
    host, _, port = report["server"].rpartition(":")
    assert host == "127.0.0.1" and int(port) > 0 and report["name"] == "player"
    assert f"boxel: hosting {path} on {report['server']}" in out
    assert f"Hosting on {report['server']}: other players join this address (Multiplayer)" in report["notices"]
    assert len(report["edited"]) == 1 and report["edited"][0][3] == "stone"
    x, y, z, _ = report["edited"][0]
    with World.open(path, workers=1) as world:  # opens: the server let go of it, having saved
        assert world.get_block(x, y, z) == "stone"
        assert "player" in world.player_states()
