"""The record of one tick: everything a tick changed, as frozen values (`TickChanges`).

Owns: `TickChanges` (what `Session.tick()` returns), `BodyChange` (a body that appeared, moved or
went), `Notice` (a message and the player it is
for), `SoundLog` (the session's sounds, also kept for the record) and `TickRecorder`, which a
session keeps to make each record: the bodies as the last record saw them (to tell what appeared,
moved or went), the notices since, and the world's part (`game.world.change_log.WorldChanges`:
cells, sections, light waiting, unsaved columns).
Does not own: what changes (the session's rules and the world), the world's log of its own
changes (`game.world.change_log`), or what a front end does with a record: the window re-meshes
the sections it names (`game.window.streaming`) and shows a line of it in the F3 panel
(`game.window.ui.debug_overlay.changes_line`); a network front end would send it.

A record is complete when `tick()` returns: every change since the previous record is in it. So
what was applied between two ticks (a click applied before the tick, a mesh that settled light)
lands in the next record. The first record of a session names every body as appeared.
Pure: no Ursina, no clock.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from physics import AABB

from ..world.player_names import check_player_name
from .sounds import SoundEvent
from ..world.change_log import BlockChange, ColumnKey, SectionKey, WorldChanges

__all__ = ["BlockChange", "BodyChange", "Notice", "SoundLog", "TickChanges", "TickRecorder", "body_changes",
           "session_bodies"]

BODY_KINDS = ("player", "mob", "projectile", "falling_block", "item")
"""What a body is; its key is `kind:id` (the player's name, or the mob's, projectile's or falling block's key)."""
APPEARED, MOVED, GONE = "appeared", "moved", "gone"
BODY_CHANGES = (APPEARED, MOVED, GONE)
"""What happened to a body since the last record: new, its box or velocity changed, or it left."""

BodyState = tuple[str, AABB, tuple[float, float, float]]
"""(kind, box, velocity) of one body at the end of a tick."""


class _BodyChangeFields(NamedTuple):
    key: str
    kind: str
    change: str
    box: AABB
    """[blocks] The body's box at the end of the tick."""
    velocity: tuple[float, float, float]
    """[blocks/tick]"""


class BodyChange(_BodyChangeFields):
    """Body `key` (stable for its life: "player:alice", "mob:17", "projectile:3", "falling_block:5")
    of `kind` `change`d: it appeared, moved (its box or velocity differ from the last record's) or
    went (then `box` and `velocity` are where it was last). ValueError for an unknown kind or change.

    A named tuple, as `physics.AABB`: immutable, and the record makes one per moving body every
    tick (hundreds with many players), which a frozen dataclass made ~5x slower (measured 1.9 us
    against 0.4 us each)."""

    __slots__ = ()

    def __new__(cls, key: str, kind: str, change: str, box: AABB, velocity: tuple[float, float, float]
                ) -> BodyChange:
        if kind not in BODY_KINDS:
            raise ValueError(f"a body's kind is one of {', '.join(BODY_KINDS)}, got {kind!r}")
        if change not in BODY_CHANGES:
            raise ValueError(f"a body change is one of {', '.join(BODY_CHANGES)}, got {change!r}")
        return tuple.__new__(cls, (key, kind, change, box, velocity))

    @classmethod
    def _trusted(cls, key: str, kind: str, change: str, box: AABB, velocity: tuple[float, float, float]
                 ) -> BodyChange:
        """Build without checks: only for `body_changes`, whose kinds and changes are its own."""
        return tuple.__new__(cls, (key, kind, change, box, velocity))


@dataclass(frozen=True, slots=True)
class Notice:
    """A message for the players: `text`, for the player named `player`, or for everyone (None).
    TypeError/ValueError for a text that is not a str or a bad name (`player_names.check_player_name`)."""

    text: str
    player: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise TypeError(f"a notice's text is a str, got {self.text!r}")
        if self.player is not None:
            check_player_name(self.player)


@dataclass(frozen=True, slots=True)
class TickChanges:
    """What one tick changed (`Session.tick()`); everything since the previous tick's record."""

    tick: int
    """The tick's number: the `tick` of the replay events applied just before it (0 for the first)."""
    day_time: int
    """[ticks] The time of day when the tick ended (0..DAY_TICKS - 1)."""
    blocks: tuple[BlockChange, ...] = ()
    """Every cell whose block changed, with its block before and after, sorted by cell."""
    sections: frozenset[SectionKey] = frozenset()
    """Sections (cx, sy, cz) whose mesh changed (their blocks or their light): re-meshing exactly
    these keeps a drawn world exact."""
    light_waiting: frozenset[SectionKey] = frozenset()
    """Sections with block changes whose light the tick's light phase left for later (its budget,
    `World._light_phase`); their light changes come in a later record's `sections`."""
    unsaved_columns: frozenset[ColumnKey] = frozenset()
    """Every column (cx, cz) holding edits the next save writes, as the tick ended."""
    bodies: tuple[BodyChange, ...] = ()
    """Bodies that appeared or moved (players in join order, then mobs, projectiles, falling blocks),
    then those that went."""
    sounds: tuple[SoundEvent, ...] = ()
    """The sounds made, with their positions, oldest first."""
    notices: tuple[Notice, ...] = ()
    """What players were told, oldest first."""


class SoundLog(deque):
    """The session's pending sounds: a bounded deque a front end takes from (as before), which also
    keeps every sound added since the last record for that record (`take_recorded`), whether or not
    a front end took it."""

    def __init__(self, maxlen: int) -> None:
        super().__init__((), maxlen)
        self._recorded: deque[SoundEvent] = deque(maxlen=maxlen)

    def append(self, sound: SoundEvent) -> None:
        super().append(sound)
        self._recorded.append(sound)

    def extend(self, sounds: Iterable[SoundEvent]) -> None:
        sounds = list(sounds)
        super().extend(sounds)
        self._recorded.extend(sounds)

    def take_recorded(self) -> tuple[SoundEvent, ...]:
        """The sounds added since the last call, oldest first (at most `maxlen`: the latest)."""
        taken = tuple(self._recorded)
        self._recorded.clear()
        return taken


def session_bodies(session) -> dict[str, BodyState]:
    """Every body of `session` by its stable key: the players (join order), mobs, projectiles and
    falling blocks, each with its kind, box and velocity. (The items on the ground come to the
    record as their own delta: `DroppedItems.body_delta`.)"""
    bodies: dict[str, BodyState] = {}
    for name, player in session.players.items():
        body = player.body
        bodies[f"player:{name}"] = ("player", body.box, body.velocity)
    mobs = session.mobs
    for key, body in zip(mobs.keys, mobs.bodies):
        bodies[f"mob:{key}"] = ("mob", body.box, body.velocity)
    for projectile in session.projectiles.live:
        bodies[f"projectile:{projectile.key}"] = ("projectile", projectile.body.box, projectile.body.velocity)
    if len(session.falling):
        for falling in session.falling.live:
            bodies[f"falling_block:{falling.key}"] = ("falling_block", falling.body.box, falling.body.velocity)
    return bodies


def body_changes(before: Mapping[str, BodyState], after: Mapping[str, BodyState]) -> tuple[BodyChange, ...]:
    """The changes from `before` to `after` (key -> (kind, box, velocity)): the bodies of `after`
    that are new or whose box or velocity differ, in its order, then those gone, in `before`'s order."""
    made = BodyChange._trusted
    changes = []
    append = changes.append
    appeared = 0
    get = before.get
    for key, state in after.items():
        old = get(key)
        if old is None:
            append(made(key, state[0], APPEARED, state[1], state[2]))
            appeared += 1
        elif old[1] != state[1] or old[2] != state[2]:
            append(made(key, state[0], MOVED, state[1], state[2]))
    if len(before) > len(after) - appeared:  # some of `before` are not in `after`: they went
        changes.extend(made(key, state[0], GONE, state[1], state[2])
                       for key, state in before.items() if key not in after)
    return tuple(changes)


@dataclass(frozen=True)
class BodyDelta:
    """One kind's bodies against the last record's, worked out by their owner (the items on the
    ground: `DroppedItems.body_delta`), so a record need not compare the ones that kept still."""

    changed: tuple[tuple[str, BodyState, bool], ...] = ()
    """(key, state, appeared) of the bodies new or moved since the last record, in their order."""
    gone: tuple[tuple[str, BodyState], ...] = ()
    """(key, state) of the bodies gone since the last record, in its order."""


def with_delta(changes: tuple[BodyChange, ...], delta: BodyDelta) -> tuple[BodyChange, ...]:
    """`changes` (`body_changes`: new or moved, then gone) with `delta`'s bodies after theirs: its
    new or moved after the others' new or moved, its gone after the others' gone. The same order
    as `body_changes` over both mappings together, the delta's kind last."""
    if not delta.changed and not delta.gone:
        return changes
    made = BodyChange._trusted
    split = next((k for k, change in enumerate(changes) if change.change == GONE), len(changes))
    return (*changes[:split],
            *(made(key, state[0], APPEARED if appeared else MOVED, state[1], state[2])
              for key, state, appeared in delta.changed),
            *changes[split:],
            *(made(key, state[0], GONE, state[1], state[2]) for key, state in delta.gone))


class TickRecorder:
    """Makes a session's records: keeps the bodies as the last record saw them and the notices since."""

    def __init__(self) -> None:
        self._bodies: dict[str, BodyState] = {}
        self._notices: list[Notice] = []

    def notice(self, text: str, player: str | None = None) -> None:
        """Note a notice for the next record (TypeError for a bad one, noting nothing)."""
        self._notices.append(Notice(text, player))

    def record(self, *, tick: int, day_time: int, world: WorldChanges, bodies: dict[str, BodyState],
               sounds: tuple[SoundEvent, ...], delta: BodyDelta = BodyDelta()) -> TickChanges:
        """The record of the tick just run: the world's changes, the bodies against the last
        record's (and `delta`, a kind that compares itself, after them), `sounds` and the notices
        noted since; then forget them."""
        moved = with_delta(body_changes(self._bodies, bodies), delta)
        self._bodies = bodies
        notices, self._notices = tuple(self._notices), []
        return TickChanges(tick, day_time, world.blocks, world.sections, world.light_waiting, world.unsaved_columns,
                           moved, sounds, notices)
