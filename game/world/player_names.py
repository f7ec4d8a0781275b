"""Player names: the local player's name and the rule every name follows.

Owns: `LOCAL_PLAYER` (the name of the player a single-player game, the window and every replay
line without a "player" field act for) and `check_player_name`, the one check of a name (a
replay line's "player", `Session.join`, a name in the world file's players table).
It lives with the world because the world file keys saved players by name (`storage.py`'s
players table, checked at open by `file_checks.py`); the replay format (`game.rules.replay`) and the
player (`game.rules.player`, which re-exports both names) use the same rule.
Pure: the standard library only.
Does not own: the players themselves (`game.rules.player`, `game.rules.session`).
"""

from __future__ import annotations

import re

LOCAL_PLAYER = "player"
"""The local player's name: a world saved before players had names opens with its one player
under it, and a replay line without a "player" field is this player's."""
MAX_NAME_LENGTH = 16
"""[characters] The longest name: Minecraft Beta's (and Classic's) usernames are 1..16 characters."""
_NAME = re.compile(r"[A-Za-z0-9_]{1,%d}" % MAX_NAME_LENGTH)


def check_player_name(name: object) -> str:
    """`name` itself when it is a player name: 1..MAX_NAME_LENGTH characters, each an ASCII letter,
    digit or underscore (Beta's usernames). TypeError unless a str, ValueError naming it otherwise."""
    if not isinstance(name, str):
        raise TypeError(f"a player name is a str, got {type(name).__name__}")
    if _NAME.fullmatch(name) is None:
        shown = repr(name) if len(name) <= 40 else repr(name[:40]) + "..."
        raise ValueError(f"a player name is 1..{MAX_NAME_LENGTH} letters, digits or underscores, got {shown}")
    return name
