"""The servers the player joined lately (the Multiplayer screen's list), kept in the user's data folder.

Owns: `RecentServer` (an address as typed and the name played as), `load` (newest first; a missing,
unreadable or damaged file, or a damaged entry, is an empty list or a skipped entry, never an error),
`remember` (puts a server first, once, keeping MAX_RECENT) and where the file lives.
Does not own: joining (`game.window.app.play_remote`), the address rule (`game.net.link.parse_address`)
or the name rule (`game.world.player_names`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..world.player_names import check_player_name
from . import paths
from .json_file import write_json

FILE_NAME = "recent_servers.json"
MAX_RECENT = 8
"""Servers kept: the screen lists them all."""
MAX_ADDRESS_CHARS = 255
"""A host name's longest (DNS) and a port: longer text is no address."""


@dataclass(frozen=True)
class RecentServer:
    """A server joined: its address as the player typed it ("HOST:PORT") and the name played as."""

    address: str
    name: str

    def __post_init__(self) -> None:
        if not isinstance(self.address, str) or not self.address.strip() or len(self.address) > MAX_ADDRESS_CHARS:
            raise ValueError(f"a server's address is 1..{MAX_ADDRESS_CHARS} characters, got {self.address!r}")
        check_player_name(self.name)


def recent_servers_path() -> Path:
    return paths.data_dir() / FILE_NAME


def load(path: Path | None = None) -> list[RecentServer]:
    """The servers remembered, newest first: [] for a missing or damaged file; a damaged entry is skipped."""
    path = recent_servers_path() if path is None else Path(path)
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return []
    if not isinstance(stored, list):
        return []
    servers: list[RecentServer] = []
    for item in stored:
        try:
            server = RecentServer(item["address"], item["name"])
        except (TypeError, KeyError, ValueError):
            continue
        if server not in servers:
            servers.append(server)
    return servers[:MAX_RECENT]


def remember(address: str, name: str, path: Path | None = None) -> list[RecentServer]:
    """Put (`address`, `name`) first in the list and save it (written whole, then moved over the old
    file); the new list. ValueError or TypeError for a bad address or name (nothing saved); OSError
    when the file cannot be written."""
    server = RecentServer(address.strip() if isinstance(address, str) else address, name)
    path = recent_servers_path() if path is None else Path(path)
    servers = [server, *(old for old in load(path) if old.address != server.address)][:MAX_RECENT]
    write_json(path, [{"address": s.address, "name": s.name} for s in servers])
    return servers
