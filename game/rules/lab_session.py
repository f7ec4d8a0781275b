"""The lab's session: a `Session` in the lab's arena (`game.world.lab`), the player at its spawn.

Owns: `lab_session`, which `--lab` and the tests start. Does not own: the arena (`game.world.lab`)
or the rules (`game.rules.session`)."""

from __future__ import annotations

from ..world.lab import SPAWN_PITCH, SPAWN_YAW, Arena, build_arena
from .player import Player
from .session import Session


def lab_session(arena: Arena | None = None) -> Session:
    """A `Session` in a fresh arena (or `arena`): the player at the spawn, looking
    north, respawning there after a fall off the floor."""
    arena = arena if arena is not None else build_arena()
    player = Player(arena, arena.spawn_body(), SPAWN_YAW, SPAWN_PITCH, spawn=arena.spawn_body)
    return Session(arena, player)
