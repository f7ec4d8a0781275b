"""`HostedServer`: a world served by a child `main.py --server --port 0`, its address read from its
first line, stopped by SIGTERM (saving); a world that cannot be served says why."""

from __future__ import annotations

import pytest

from game.net.hosting import HostError, HostedServer
from game.net.link import Link
from game.world import World


def test_a_hosted_world_is_served_on_a_free_port_and_stopping_saves_and_exits_0(tmp_path):
    path = tmp_path / "hosted.boxel"
    World.create(path, 42, workers=1).close()
    server = HostedServer.start(path)
    try:
        host, port = server.address
        assert host == "127.0.0.1" and port > 0 and server.address_text == f"127.0.0.1:{port}"
        link = Link.open(host, port, "alice")
        assert link.welcome.seed == 42
        assert link.welcome.flying_allowed  # the host's own creative world, as in single-player
        link.close()
    finally:
        status = server.stop()
    assert status == 0
    with World.open(path, workers=1) as world:  # the server let go of the file
        assert world.seed == 42


def test_a_file_that_is_no_world_cannot_be_hosted_and_the_server_says_why(tmp_path):
    path = tmp_path / "notes.boxel"
    path.write_text("not a world", encoding="utf-8")
    with pytest.raises(HostError, match="did not start: boxel: error: ") as refused:
        HostedServer.start(path)
    assert "notes.boxel" in str(refused.value)
