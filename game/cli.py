"""Boxel's command line: parse and check the options, then start the app (`boxel`, `python main.py`).

Owns: the options, their validation (a bad value is a usage error naming the option, before any
window opens; a replay file is parsed here so a malformed line fails at once) and
`LaunchOptions`, the checked result the app runs from.
Does not own: anything the app does with them (see `game.lab_app`).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .replay import Event, ReplayFormatError, read_replay

DEFAULT_SIZE = (1280, 720)
"""[pixels] Window size when --size is not given."""
MAX_WINDOW_SIDE = 16384
"""[pixels] Largest window side accepted (beyond any display; larger is a typo)."""
DEFAULT_FOV = 70.0
"""[degrees] Vertical field of view, Minecraft's default."""
FOV_RANGE = (30.0, 110.0)
"""[degrees] Vertical field of view accepted: Minecraft's slider range."""


@dataclass(frozen=True)
class LaunchOptions:
    lab: bool = False
    """--lab was given. The lab opens either way until the chunked world exists."""
    size: tuple[int, int] = DEFAULT_SIZE
    """[pixels] Window width and height."""
    fov: float = DEFAULT_FOV
    """[degrees] Vertical field of view."""
    replay: tuple[Event, ...] | None = None
    """Events to play instead of the keyboard and mouse (parsed from --replay)."""
    record: Path | None = None
    exit_after_ticks: int | None = None
    screenshot: Path | None = None
    report: Path | None = None


def _size(text: str) -> tuple[int, int]:
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT in pixels such as 1280x720, got {text!r}")
    width, height = int(parts[0]), int(parts[1])
    if not (1 <= width <= MAX_WINDOW_SIDE and 1 <= height <= MAX_WINDOW_SIDE):
        raise argparse.ArgumentTypeError(f"width and height must be 1..{MAX_WINDOW_SIDE} pixels, got {text!r}")
    return width, height


def _fov(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of degrees, got {text!r}") from None
    low, high = FOV_RANGE
    if not (math.isfinite(value) and low <= value <= high):
        raise argparse.ArgumentTypeError(f"must be {low:g}..{high:g} degrees, got {text!r}")
    return value


def _ticks(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of ticks >= 1, got {text!r}")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="boxel",
        description="Boxel, a first-person voxel sandbox with exact Minecraft Beta-style physics. "
                    "Until the chunked world lands, running without --lab also opens the physics lab.",
        epilog="Controls: mouse to look, WASD to move, Space to jump (hold to keep jumping), Shift to "
               "sneak, Ctrl to sprint, F3 for the debug overlay, Esc to release the mouse (again to quit). "
               "Replays are JSON Lines, one event per line keyed by tick, e.g. "
               '{"tick": 0, "event": "key_down", "key": "w"}; see game/replay.py.',
    )
    parser.add_argument("--lab", action="store_true",
                        help="open the physics lab: a small arena with one of every collision case "
                             "(the default for now)")
    parser.add_argument("--size", type=_size, default="%dx%d" % DEFAULT_SIZE, metavar="WxH",
                        help="window size in pixels (default %(default)s)")
    parser.add_argument("--fov", type=_fov, default=DEFAULT_FOV, metavar="DEG",
                        help="vertical field of view in degrees, %g..%g (default %%(default)s)" % FOV_RANGE)
    parser.add_argument("--replay", type=Path, metavar="FILE",
                        help="play the input events of FILE instead of the keyboard and mouse "
                             "(runs two frames per tick, as fast as the machine draws)")
    parser.add_argument("--record", type=Path, metavar="FILE", help="write this session's input events to FILE")
    parser.add_argument("--exit-after-ticks", type=_ticks, metavar="N",
                        help="run N ticks, write --screenshot and --report, and exit")
    parser.add_argument("--screenshot", type=Path, metavar="PNG",
                        help="with --exit-after-ticks: save the last frame here")
    parser.add_argument("--report", type=Path, metavar="JSON",
                        help="with --exit-after-ticks: write the player's final state and frame times here")
    return parser


def parse_options(argv: Sequence[str] | None = None) -> LaunchOptions:
    """Checked options; a usage error exits with status 2 and a message naming the problem."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if (args.screenshot or args.report) and args.exit_after_ticks is None:
        parser.error("--screenshot and --report need --exit-after-ticks N (they are written when the run ends)")
    replay = None
    if args.replay is not None:
        try:
            replay = read_replay(args.replay)
        except OSError as error:
            parser.error(f"cannot read replay {args.replay}: {error.strerror or error}")
        except ReplayFormatError as error:
            parser.error(f"bad replay: {error}")
    return LaunchOptions(lab=args.lab, size=args.size, fov=args.fov, replay=replay, record=args.record,
                         exit_after_ticks=args.exit_after_ticks, screenshot=args.screenshot, report=args.report)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `boxel` and `python main.py`; returns the process exit status."""
    options = parse_options(argv)
    from . import lab_app  # imported late: Ursina loads only once the options are known to be good

    try:
        return lab_app.run(options)
    except lab_app.LaunchError as error:
        print(f"boxel: error: {error}", file=sys.stderr)
        return 1
