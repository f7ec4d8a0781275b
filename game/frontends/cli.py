"""Boxel's command line: parse and check the options, open the world (or build the lab's arena),
then run it in the window or headless (`boxel`, `python main.py`); with no world option at all,
open the window on the title screen, where the player chooses the world.

Owns: the options, their validation (a bad value is a usage error naming the option, before any
window opens; a replay file is parsed here so a malformed line fails at once), building the
checked `game.frontends.options.LaunchOptions`, and opening or creating the world (`open_world`), whose
failures (a world in use, a damaged, foreign or altered file, a folder or FIFO in its place, a
read-only file or folder, a seed that does not match) are reported with exit status 2 before a
window opens and without touching the file; removing again a world the launch created when no
tick was played in it (the window could not open, the player quit while it loaded); the stop
signals' outcome (SIGTERM, SIGHUP, SIGINT: saved as on closing the window, exit status
EXIT_STOPPED, no traceback); when the title screen opens (`wants_title_screen`) and how it opens a
world (`title_session`, with the same checks and messages as --world); and reporting a world that
could not be saved during or at the end of a run (a full disk, ...) with exit status
EXIT_SAVE_FAILED, without a traceback.
Does not own: the options' type (`game.frontends.options`), the controls text (`game.rules.controls.CONTROLS`),
anything a run does (`game.window.app` with a window, `game.frontends.headless` without), the world file's checks
(`game.world.storage`) or the saved player state's rules (`game.rules.player`).
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from ..rules.controls import controls_help
from .options import DEFAULT_SIZE, LaunchOptions
from ..window.render.window import parse_size
from ..userdata.user_settings import FOV_RANGE_DEGREES, VIEW_DISTANCE_RANGE_COLUMNS
from ..rules.replay import ReplayFormatError, read_replay
from ..world.file_format import CREATIVE, GAME_MODES, SURVIVAL
from ..world.seed_text import is_blank, random_seed, seed_from_text
from .stop_signals import StopFlag, StopRequested, on_stop_signals, raise_stop

MAX_FRAME_DELAY_MS = 1000.0
"""[ms] Largest --frame-delay-ms accepted (a testing aid; more is a typo)."""
EXIT_USAGE = 2
"""Exit status for bad options and for a world that cannot be opened (as argparse uses)."""
EXIT_SAVE_FAILED = 3
"""Exit status when a run ended because its world could not be written (a full disk, a read-only
file): the file keeps its last good save. Apart from 1 (a report or recording could not be written)
so a script can tell that play since the last save was lost."""
EXIT_STOPPED = 0
"""Exit status after SIGTERM, SIGHUP or SIGINT (Ctrl+C): the run stopped as if the player closed the
window, and what was played is saved, so it is no failure."""


def _fov(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of degrees, got {text!r}") from None
    low, high = FOV_RANGE_DEGREES
    if not (math.isfinite(value) and low <= value <= high):
        raise argparse.ArgumentTypeError(f"must be {low:g}..{high:g} degrees, got {text!r}")
    return value


def _ticks(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of ticks >= 1, got {text!r}")
    return int(text)


def _day_time(text: str) -> int:
    from ..world.world import DAY_TICKS

    if not text.isdigit() or not int(text) < DAY_TICKS:
        raise argparse.ArgumentTypeError(f"expected a time of day in ticks 0..{DAY_TICKS - 1} (0 sunrise, 6000 noon, "
                                         f"12000 sunset, 18000 midnight), got {text!r}")
    return int(text)


def _world_path(text: str) -> Path:
    """A --world value: the path of a world file. A path ending in a slash names a folder, and a
    world is one file, so it is refused with a file name to use instead (not made into a file
    named like the folder, nor guessed at inside it)."""
    separators = tuple(sep for sep in (os.sep, os.altsep) if sep)
    if not text.strip():
        raise argparse.ArgumentTypeError("expected the path of a world file such as worlds/mine.boxel, got ''")
    if text.endswith(separators):
        folder = text.rstrip("".join(separators)) or text
        raise argparse.ArgumentTypeError(f"{text!r} ends in a slash, so it names a folder; a world is one file: "
                                         f"give its name, such as {os.path.join(folder, 'world.boxel')}")
    return Path(text)


def _seed(text: str) -> int:
    """A --seed value: any text, as the New World dialog reads it (`game.world.seed_text.seed_from_text`:
    a whole number within 64 bits is itself, other text Java's hash of it). Blank text is refused:
    leaving --seed out is how a launch asks for a random seed."""
    if is_blank(text):
        raise argparse.ArgumentTypeError("a blank seed: leave --seed out for a random one")
    return seed_from_text(text)


def _view_distance(text: str) -> int:
    low, high = VIEW_DISTANCE_RANGE_COLUMNS
    if not text.isdigit() or not low <= int(text) <= high:
        raise argparse.ArgumentTypeError(f"expected a whole number of columns {low}..{high}, got {text!r}")
    return int(text)


def _frame_delay(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0.0 <= value <= MAX_FRAME_DELAY_MS):
        raise argparse.ArgumentTypeError(f"expected milliseconds 0..{MAX_FRAME_DELAY_MS:g}, got {text!r}")
    return value


MAX_PLAYERS_RANGE = (1, 1000)
"""[players] --max-players: at least one; beyond a thousand one process cannot tick them in 50 ms."""


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"expected a TCP port 0..65535 (0: a free one), got {text!r}")
    return int(text)


def _classic_size(text: str) -> tuple[int, int, int]:
    """A --classic-size value, WxHxD blocks (`game.net.classic.level.check_window_size`)."""
    from ..net.classic.level import check_window_size
    try:
        return check_window_size(tuple(int(part) for part in text.lower().split("x")))
    except (TypeError, ValueError) as error:
        raise argparse.ArgumentTypeError(f"expected WxHxD in blocks, e.g. 256x128x256 ({error})") from None


def _max_players(text: str) -> int:
    low, high = MAX_PLAYERS_RANGE
    if not text.isdigit() or not low <= int(text) <= high:
        raise argparse.ArgumentTypeError(f"expected a whole number of players {low}..{high}, got {text!r}")
    return int(text)


def _address(text: str) -> tuple[str, int]:
    """A --connect value, HOST:PORT (an IPv6 host in brackets: [::1]:25565)."""
    host, colon, port = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not colon or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT such as 127.0.0.1:25565, got {text!r}")
    return host, int(port)


def _player_name(text: str) -> str:
    from ..world.player_names import check_player_name

    try:
        return check_player_name(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="boxel",
        description="Boxel, a first-person voxel sandbox with exact Minecraft Beta-style physics.",
        epilog=controls_help() + " Replays are JSON Lines, one event per line keyed by tick, e.g. "
               '{"tick": 0, "event": "key_down", "key": "w"}; see game/rules/replay.py.',
    )
    parser.add_argument("--world", type=_world_path, metavar="PATH",
                        help="the world file to play, created when missing (a file: a path ending in a slash is "
                             "refused). Without it the title screen opens to choose a world, unless --seed, "
                             "--new, --game-mode, --replay, --record, --exit-after-ticks, --time or --headless is given: "
                             "those play default.boxel in the user's data folder")
    parser.add_argument("--seed", type=_seed, metavar="SEED",
                        help="seed of a new world (default: random): a whole number, or any text, which stands "
                             "for its Java hash as in Minecraft Beta (hello is 99162322). An existing world "
                             "opens only with its own seed or no --seed: a different seed is refused")
    parser.add_argument("--new", action="store_true",
                        help="create a new world at --world (an error if a file is already there)")
    parser.add_argument("--game-mode", choices=GAME_MODES, metavar="MODE",
                        help="the game mode of a new world: survival (the default, as in Beta: gather, craft, "
                             "survive) or creative (every block at hand, flying; a --server's new world is creative, "
                             "the only mode a server serves yet). An existing world keeps the mode it was made with: "
                             "a different --game-mode is refused")
    parser.add_argument("--view-distance", type=_view_distance, metavar="N",
                        help="columns drawn around the player, %d..%d (default: the saved setting, 8)"
                             % VIEW_DISTANCE_RANGE_COLUMNS)
    parser.add_argument("--lab", action="store_true",
                        help="open the physics lab: a small arena with one of every collision case")
    parser.add_argument("--headless", action="store_true",
                        help="run with no window (no Ursina): play --replay for --exit-after-ticks N ticks, "
                             "write --report, save the world and exit")
    parser.add_argument("--size", type=parse_size, default="%dx%d" % DEFAULT_SIZE, metavar="WxH",
                        help="window size in pixels (default %(default)s)")
    parser.add_argument("--fov", type=_fov, metavar="DEG",
                        help="vertical field of view in degrees, %g..%g (default: the saved setting)" % FOV_RANGE_DEGREES)
    parser.add_argument("--replay", type=Path, metavar="FILE",
                        help="play the input events of FILE instead of the keyboard and mouse "
                             "(runs two frames per tick, as fast as the machine draws)")
    parser.add_argument("--record", type=Path, metavar="FILE", help="write this session's input events to FILE")
    parser.add_argument("--exit-after-ticks", type=_ticks, metavar="N",
                        help="run N ticks (after the spawn area is loaded), write --screenshot and --report, "
                             "save the world and exit")
    parser.add_argument("--screenshot", type=Path, metavar="PNG",
                        help="with --exit-after-ticks: save the last frame here")
    parser.add_argument("--report", type=Path, metavar="JSON",
                        help="with --exit-after-ticks: write the player's final state and frame times here")
    parser.add_argument("--server", action="store_true",
                        help="serve --world to players over the network (no window): prints 'Boxel server "
                             "listening on HOST:PORT' first; SIGTERM, SIGHUP or Ctrl+C save and exit")
    parser.add_argument("--host", default="127.0.0.1", metavar="HOST",
                        help="with --server: the address to listen on (default %(default)s, this machine only)")
    parser.add_argument("--port", type=_port, default=25565, metavar="PORT",
                        help="with --server: the TCP port (default %(default)s; 0 picks a free one)")
    parser.add_argument("--max-players", type=_max_players, default=20, metavar="N",
                        help="with --server: the most players at once (default %(default)s)")
    parser.add_argument("--allow-flying", action="store_true",
                        help="with --server: players may fly (F); off by default, as Minecraft's servers")
    parser.add_argument("--classic-port", type=_port, metavar="PORT",
                        help="with --server: also accept Minecraft Classic clients (ClassiCube) on this TCP port "
                             "(0 picks a free one; prints 'Classic listening on HOST:PORT')")
    parser.add_argument("--classic-size", type=_classic_size, default=(256, 128, 256), metavar="WxHxD",
                        help="with --classic-port: the map a Classic client gets around the spawn, in blocks "
                             "(default 256x128x256)")
    parser.add_argument("--connect", type=_address, metavar="HOST:PORT",
                        help="play on the server at HOST:PORT in the window (with --name; with --headless "
                             "--exit-after-ticks N, a client with no window)")
    parser.add_argument("--name", type=_player_name, metavar="NAME",
                        help="with --connect: your player name, 1..16 letters, digits or underscores")
    # Testing and benchmarking aids, not for players.
    parser.add_argument("--time", type=_day_time, metavar="N",
                        help="start at this time of day in ticks, 0..23999 (0 sunrise, 6000 noon, 12000 sunset, "
                             "18000 midnight); default: the world's saved time")
    parser.add_argument("--frame-delay-ms", type=_frame_delay, default=0.0, help=argparse.SUPPRESS)
    parser.add_argument("--realtime", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--profile-frames", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--no-cave-culling", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--no-lod", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--no-draw-thread", action="store_true",
                        help="draw on the main thread: each frame is shown as soon as it is drawn, one frame "
                             "sooner, at a lower frame rate where the CPU draws (software OpenGL)")
    parser.add_argument("--offscreen", action="store_true", help=argparse.SUPPRESS)
    return parser


def parse_options(argv: Sequence[str] | None = None) -> LaunchOptions:
    """Checked options; a usage error exits with status 2 and a message naming the problem."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if (args.screenshot or args.report) and args.exit_after_ticks is None:
        parser.error("--screenshot and --report need --exit-after-ticks N (they are written when the run ends)")
    if args.headless:
        if args.exit_after_ticks is None:
            parser.error("--headless needs --exit-after-ticks N (a run with no window must know when to stop)")
        if args.screenshot is not None:
            parser.error("--headless draws nothing, so it cannot save a --screenshot")
        if args.realtime:
            parser.error("--realtime needs a window (a headless run ticks as fast as it can)")
        if args.offscreen:
            parser.error("--offscreen draws into a buffer, and --headless draws nothing: choose one")
    if args.realtime and args.replay is None:
        parser.error("--realtime only applies to --replay (live play always runs on the wall clock)")
    if args.profile_frames and (args.headless or args.report is None):
        parser.error("--profile-frames needs a window and --report (the frame breakdown is written in the report)")
    if args.lab:
        world_options = [name for name, given in (("--world", args.world is not None),
                                                  ("--seed", args.seed is not None), ("--new", args.new),
                                                  ("--game-mode", args.game_mode is not None)) if given]
        if world_options:
            parser.error(f"--lab opens the physics lab, which has no world file and is never saved: "
                         f"leave out {' and '.join(world_options)} (or --lab to play that world)")
    _check_network_options(parser, args)
    replay = None
    if args.replay is not None:
        try:
            replay = read_replay(args.replay)
        except OSError as error:
            parser.error(f"cannot read replay {args.replay}: {error.strerror or error}")
        except ReplayFormatError as error:
            parser.error(f"bad replay: {error}")
    return LaunchOptions(lab=args.lab, headless=args.headless, size=args.size, fov=args.fov, replay=replay, record=args.record,
                         exit_after_ticks=args.exit_after_ticks, screenshot=args.screenshot, report=args.report,
                         world=args.world, seed=args.seed, new=args.new, game_mode=args.game_mode,
                         view_distance=args.view_distance,
                         frame_delay_ms=args.frame_delay_ms, realtime=args.realtime, day_time=args.time,
                         profile_frames=args.profile_frames, cave_culling=not args.no_cave_culling,
                         levels_of_detail=not args.no_lod, draw_thread=not args.no_draw_thread,
                         offscreen=args.offscreen,
                         server=args.server, host=args.host, port=args.port, max_players=args.max_players,
                         allow_flying=args.allow_flying,
                         connect=args.connect, name=args.name, classic_port=args.classic_port,
                         classic_size=args.classic_size)


def _check_network_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """--server and --connect: what each needs and what neither goes with (a usage error otherwise)."""
    def given(*names: str) -> list[str]:
        return [f"--{name.replace('_', '-')}" for name in names if getattr(args, name) not in (None, False)]

    if args.server:
        stray = given("connect", "name", "lab", "headless", "replay", "record", "exit_after_ticks", "screenshot",
                      "report")
        if stray:
            parser.error(f"--server serves a world until stopped: leave out {' and '.join(stray)}")
    elif args.classic_port is not None or args.classic_size != (256, 128, 256):
        parser.error("--classic-port and --classic-size go with --server")
    elif args.host != "127.0.0.1" or args.port != 25565 or args.max_players != 20:
        parser.error("--host, --port and --max-players go with --server")
    if args.connect is not None:
        stray = given("world", "seed", "new", "game_mode", "lab", "record", "time")
        if stray:
            parser.error(f"--connect plays the server's world: leave out {' and '.join(stray)}")
        if args.name is None:
            parser.error("--connect needs --name NAME")
    elif args.name is not None:
        parser.error("--name goes with --connect")
    if args.allow_flying and not args.server:
        parser.error("--allow-flying goes with --server")


class WorldOpenError(ValueError):
    """The world cannot be opened or created as asked; the message says why and what to do."""


def open_world(options: LaunchOptions):
    """The world the options ask for: opened if its file exists (and --new was not given), else created.

    Raises WorldOpenError (nothing on disk changed) for: --new over an existing file, a seed that
    differs from an existing world's, a world in use, a damaged, foreign, altered or newer file,
    something other than a file at the path, or a file or folder that cannot be written (read-only,
    no permission). A saved player that cannot be used is not refused here: `Session.open` starts
    the player at the spawn.
    """
    from ..world import World, WorldFileError

    path = world_path(options)
    try:
        if options.new or not (path.exists() or path.is_symlink()):
            if options.world is None:
                path.parent.mkdir(parents=True, exist_ok=True)
            seed = options.seed if options.seed is not None else random_seed()
            world = World.create(path, seed, game_mode=options.game_mode or (CREATIVE if options.server else SURVIVAL))
        else:
            world = World.open(path)
    except WorldFileError as error:
        hint = " (leave out --new to play it, or choose another --world)" if options.new and path.exists() else ""
        raise WorldOpenError(f"{error}{hint}") from None
    except OSError as error:
        raise WorldOpenError(f"cannot open the world {path}: {error.strerror or error}") from None
    try:
        if options.seed is not None and options.seed != world.seed:
            raise WorldOpenError(f"the world {path} has seed {world.seed}, not {options.seed}; --seed only "
                                 "chooses the seed of a new world (use --new with another --world)")
        if options.game_mode is not None and options.game_mode != world.game_mode:
            raise WorldOpenError(f"the world {path} is a {world.game_mode} world, not {options.game_mode}; "
                                 "--game-mode only chooses the mode of a new world (use --new with another --world)")
        if options.server and world.game_mode != CREATIVE:
            raise WorldOpenError(f"the world {path} is a {world.game_mode} world; a server serves creative worlds "
                                 "only for now (items and inventories are not in the network protocol yet): "
                                 "serve a creative world (a new world served is creative)")
    except BaseException:
        world.close()
        raise
    return world


def world_path(options: LaunchOptions) -> Path:
    """The world file the options name: --world, else the default world in the user's data folder."""
    from ..userdata.paths import default_world_path

    return options.world if options.world is not None else default_world_path()


def wants_title_screen(options: LaunchOptions) -> bool:
    """Whether this launch opens the title screen: no option chooses a world or scripts a run (only
    the window's and the view's options, --size, --fov and --view-distance, may be given)."""
    return (options.world is None and options.seed is None and not options.new and options.game_mode is None
            and not options.lab
            and not options.headless and options.replay is None and options.record is None
            and options.exit_after_ticks is None and options.day_time is None
            and not options.server and options.connect is None)


def title_session(path: Path):
    """The session on the world file at `path`, for the title screen: opened as --world opens it
    (WorldOpenError, a ValueError naming the problem, when it cannot be)."""
    from ..rules.session import Session

    path = Path(path)
    if not (path.exists() or path.is_symlink()):  # removed since it was listed: never made anew here
        raise WorldOpenError(f"there is no world at {path} any more")
    world = open_world(LaunchOptions(world=path))
    try:
        return Session.open(world)
    except BaseException:
        world.close()
        raise


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `boxel` and `python main.py`; returns the process exit status.

    SIGTERM, SIGHUP and SIGINT (Ctrl+C) stop a run as closing the window does: the world is saved
    and the status is EXIT_STOPPED, with no traceback (the window finishes its frame and leaves
    its loop; a headless run or a start under way is interrupted where it is, and its `finally`
    blocks save and close the world). Panda3D hears SIGINT itself while it draws a frame and
    raises KeyboardInterrupt once the frame is done: that is the same stop."""
    with on_stop_signals(raise_stop):
        try:
            options = parse_options(argv)
            return _launch_title(options) if wants_title_screen(options) else _launch(options)
        except StopRequested as stop:
            print(f"boxel: {stop}", file=sys.stderr)
            return EXIT_STOPPED
        except KeyboardInterrupt:
            print("boxel: stopped by SIGINT", file=sys.stderr)
            return EXIT_STOPPED


def _launch_title(options: LaunchOptions) -> int:
    """Open the window on the title screen and play the worlds chosen there (`game.window.app.run_title`)."""
    return _in_window(lambda app, stop: app.run_title(options, title_session, stop))


def _in_window(play) -> int:
    """`play(app, stop)` with `game.window.app` imported (Ursina loads here), its exit status; as in
    `_run`, from here a stop signal is only noted, and one that came while Ursina loaded ends it."""
    stop = StopFlag()
    with on_stop_signals(stop):
        from ..window import app

        if stop:
            print(f"boxel: stopped by {signal.Signals(stop.signal_number).name}", file=sys.stderr)
            return EXIT_STOPPED
        return _report_failures(app, lambda: play(app, stop))


def _launch(options: LaunchOptions) -> int:
    """Open the world (or the lab) and run it; a world this launch created is not kept when no
    tick was played in it (the window could not open, the player quit while it loaded)."""
    from ..rules.session import Session

    if options.server:
        from . import server  # no Ursina: a server never loads it

        try:
            world = open_world(options)
        except WorldOpenError as error:
            print(f"boxel: error: {error}", file=sys.stderr)
            return EXIT_USAGE
        return server.run(options, world)
    if options.connect is not None and options.headless:
        from . import connect

        return connect.run(options)
    if options.connect is not None:
        return _run_connected(options)
    created = None
    if options.lab:
        from ..rules.lab_session import lab_session

        session = lab_session()
    else:
        path = world_path(options)
        existed = path.exists() or path.is_symlink()
        try:
            world = open_world(options)
        except WorldOpenError as error:
            print(f"boxel: error: {error}", file=sys.stderr)
            return EXIT_USAGE
        except BaseException:  # a stop signal while the new world was being made
            _discard_unplayed(None if existed else path)
            raise
        created = None if existed else path
        try:
            session = Session.open(world)  # a saved player it cannot use: a new one at the spawn
        except BaseException:
            world.close()
            _discard_unplayed(created)
            raise
    try:
        return _run(options, session)
    finally:
        if created is not None and session.ticks_run == 0:
            session.world.close()  # the runners have closed it on every path but a failed start
            _discard_unplayed(created)


def _discard_unplayed(path: Path | None) -> None:
    """Remove the world file (and its write-ahead log) this launch created and nothing was played in."""
    if path is None:
        return
    from ..world.file_checks import companion_path

    removed = False
    for made in (path, companion_path(path, "-wal")):
        try:
            made.unlink()
            removed = True
        except OSError:
            pass  # absent, or cannot be removed: a world that opens, with nothing played in it, stays
    if removed:
        print(f"boxel: nothing was played, so the new world {path} was not kept", file=sys.stderr)


def _run(options: LaunchOptions, session) -> int:
    """Run `session` in the window or headless; the exit status."""
    if options.day_time is not None:
        session.set_day_time(options.day_time)
    if options.headless:
        from . import headless  # no Ursina: a headless run never loads it

        return _report_failures(headless, lambda: headless.run(options, session))
    # From here a stop signal is only noted (a StopFlag the window checks between frames): raised
    # inside Panda3D's code, as its modules load or a frame draws, it would crash the process.
    stop = StopFlag()
    with on_stop_signals(stop):
        from ..window import app  # imported late: Ursina loads only once the options are known to be good

        if stop:
            session.world.close()  # nothing played yet: the world stays as it was opened
            print(f"boxel: stopped by {signal.Signals(stop.signal_number).name}", file=sys.stderr)
            return EXIT_STOPPED
        return _report_failures(app, lambda: app.run(options, session, stop))


def _run_connected(options: LaunchOptions) -> int:
    """`--connect` with a window (`game.window.app.run_connected`): the server's world, in the window."""
    return _in_window(lambda app, stop: app.run_connected(options, title_session, stop))


def _report_failures(runner, run) -> int:
    """`run()`'s exit status; a runner's LaunchError or a save the disk refused as a message and a status."""
    from ..world import WorldFileError

    try:
        return run()
    except runner.LaunchError as error:
        print(f"boxel: error: {error}", file=sys.stderr)
        return 1
    except WorldFileError as error:  # a save refused by the disk: the runners close the world on every path
        print(f"boxel: error: the world could not be saved, and play since its last save is lost: {error}",
              file=sys.stderr)
        return EXIT_SAVE_FAILED
