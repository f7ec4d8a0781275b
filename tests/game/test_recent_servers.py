"""The Multiplayer screen's recent servers (`game.userdata.recent_servers`): newest first, once each,
at most MAX_RECENT, and a missing or damaged file read as an empty list, never an error."""

from __future__ import annotations

import json

import pytest

from game.userdata import recent_servers
from game.userdata.recent_servers import MAX_RECENT, RecentServer


def test_a_server_joined_is_remembered_first_and_once(tmp_path):
    path = tmp_path / "recent.json"
    recent_servers.remember("a.example:25565", "alice", path)
    recent_servers.remember("b.example:1", "bob", path)
    recent_servers.remember("a.example:25565", "carol", path)
    assert recent_servers.load(path) == [RecentServer("a.example:25565", "carol"), RecentServer("b.example:1", "bob")]


def test_only_the_latest_servers_are_kept(tmp_path):
    path = tmp_path / "recent.json"
    for k in range(MAX_RECENT + 3):
        recent_servers.remember(f"host{k}:1", "alice", path)
    assert [server.address for server in recent_servers.load(path)] == [f"host{k}:1" for k in
                                                                         range(MAX_RECENT + 2, 2, -1)]


@pytest.mark.parametrize("text", ["", "not json", "{}", "[1, 2]", '"text"', "\udcff", "[{\"address\": 5}]"])
def test_a_damaged_file_is_an_empty_list(tmp_path, text):
    path = tmp_path / "recent.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    assert recent_servers.load(path) == []


def test_a_damaged_entry_is_skipped_and_the_rest_kept(tmp_path):
    path = tmp_path / "recent.json"
    path.write_text(json.dumps([{"address": "h:1", "name": "bad name"}, {"address": "h:2", "name": "bob"},
                                {"name": "carol"}, {"address": "   ", "name": "dave"}]))
    assert recent_servers.load(path) == [RecentServer("h:2", "bob")]


def test_a_missing_file_is_an_empty_list(tmp_path):
    assert recent_servers.load(tmp_path / "nothing here.json") == []


@pytest.mark.parametrize("address, name", [("", "alice"), ("h:1", "no spaces"), ("h:1", ""), (5, "alice")])
def test_a_bad_address_or_name_is_refused_and_nothing_is_saved(tmp_path, address, name):
    path = tmp_path / "recent.json"
    with pytest.raises((TypeError, ValueError)):
        recent_servers.remember(address, name, path)
    assert not path.exists()


def test_the_list_lives_in_the_users_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("BOXEL_DATA_DIR", str(tmp_path / "data"))
    recent_servers.remember("h:1", "alice")
    assert recent_servers.load(tmp_path / "data" / recent_servers.FILE_NAME) == [RecentServer("h:1", "alice")]
