"""A run with no window: `python main.py --headless ...` plays a replay on a `Session` and reports.

Owns: the headless run loop: apply each tick's replay events (recording them with --record;
a player a line names joins at its first line, `Session.join_for`), tick, keep only the columns
near the players loaded (`game.rules.column_keeper`: with no window streaming,
nothing else unloads them, and a long flight grew without bound), and after --exit-after-ticks ticks
write --report (the session's report) and save the world. It imports no Ursina or Panda3D, so it
runs where no display or GPU exists (servers, CI, batch checks of replays), and it ticks as fast as
the machine allows.
Does not own: the rules (`game.rules.session`), the options (`game.frontends.cli`, `game.frontends.options`) or the
window's run (`game.window.app`, which drives the same session and writes the same report plus what
only a window has).
"""

from __future__ import annotations

import gc
import sys

from ..rules.column_keeper import ColumnKeeper
from .options import LaunchOptions
from ..rules.player import PlayerStateError
from ..rules.replay import ReplayCursor, ReplayWriter
from ..rules.session import NOTICE_SAVE_FAILED, Session, write_report
from ..world import WorldFileError


class LaunchError(RuntimeError):
    """The run could not start or finish as asked (an unwritable file): the message says why."""


def run(options: LaunchOptions, session: Session) -> int:
    """Play `options.replay` on `session` for `options.exit_after_ticks` ticks, write the report,
    save and close the world. The world is saved and closed whatever happens (an error, Ctrl+C)."""
    recorder = None
    try:
        if options.exit_after_ticks is None:
            raise LaunchError("a headless run needs --exit-after-ticks N")
        if options.record is not None:
            try:
                recorder = ReplayWriter.open(options.record)
            except OSError as error:
                raise LaunchError(f"cannot write the recording {options.record}: {error.strerror or error}") from None
    except BaseException:
        session.world.close()
        raise
    if session.saved_player_problem is not None:
        print(f"boxel: warning: {session.saved_player_problem}", file=sys.stderr)
    try:
        cursor = ReplayCursor(options.replay or ())
        keeper = ColumnKeeper(session.world, lambda: save_for_unloading(session))
        gc.collect()
        gc.freeze()  # what loading made is long-lived: full collections skip it (as the window's)
        for _ in range(options.exit_after_ticks):
            for event in cursor.due(session.ticks_run):
                session.join_for(event)  # each named player joins at its first event
                session.apply(event)
                if recorder is not None:
                    recorder.write(event)
            session.tick()
            keeper.after_tick(session.ticks_run, [player.body.feet for player in session.players.values()])
            for notice in session.take_notices():
                print(f"boxel: {notice}", file=sys.stderr)
        if options.report is not None:
            try:
                write_report(options.report, session.report())
            except OSError as error:
                raise LaunchError(f"cannot write the report {options.report}: {error.strerror or error}") from None
        print(f"boxel: {options.exit_after_ticks} ticks run headless on {session.world.path or 'the lab'}",
              file=sys.stderr)
    finally:
        gc.unfreeze()  # (a caller in the same process collects it again)
        try:
            session.close()
        finally:
            if recorder is not None:
                recorder.close()
    return 0


def save_for_unloading(session: Session) -> None:
    """Save before far columns with edits are unloaded. A save the disk refuses is told as the
    autosave's is, and play goes on: the world keeps columns with unsaved edits loaded."""
    try:
        session.save()
    except (WorldFileError, PlayerStateError) as error:
        session.notify(NOTICE_SAVE_FAILED.format(error=error))
