"""Screenshots (F2): the window's current image saved as a PNG under a timestamped name.

Owns: naming screenshot files (`boxel-YYYY-MM-DD_HH-MM-SS.png`, then `-2`, `-3`... for more in
the same second; a name is claimed by creating the file, so two saves never pick the same one)
and writing the image through Panda3D.
Does not own: the key binding (the session counts F2 presses, the window saves them) or the
folder's location (the window passes `game.userdata.paths.screenshots_dir()`, or a scripted run's folder).
"""

from __future__ import annotations

import datetime
from pathlib import Path

from panda3d.core import Filename

NAME_PREFIX = "boxel-"
TIME_FORMAT = "%Y-%m-%d_%H-%M-%S"
MAX_SAME_SECOND = 1000
"""Most screenshots named within one second before giving up (a runaway key repeat, not a player)."""


class ScreenshotError(OSError):
    """The screenshot could not be written."""


def save_screenshot(app_or_window, folder: Path, now: datetime.datetime | None = None) -> Path:
    """Save the window's current image in `folder` (created if needed) and return the file's path.

    `app_or_window`: the Ursina app (its `win` is used) or a Panda3D window/buffer with
    `save_screenshot`. `now`: the time in the name (default: the local time now).
    TypeError for anything else; ScreenshotError when the image cannot be written.
    """
    window = getattr(app_or_window, "win", app_or_window)
    if not callable(getattr(window, "save_screenshot", None)):
        raise TypeError(f"save_screenshot needs an Ursina app or a Panda3D window, got {app_or_window!r}")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = _claim_name(folder, now or datetime.datetime.now())
    try:
        saved = window.save_screenshot(Filename.from_os_specific(str(path.resolve())))
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    if not saved:
        path.unlink(missing_ok=True)
        raise ScreenshotError(f"could not write the screenshot {path}")
    return path


def _claim_name(folder: Path, now: datetime.datetime) -> Path:
    """Create and return the first free file name for `now` in `folder`."""
    stem = NAME_PREFIX + now.strftime(TIME_FORMAT)
    for number in range(1, MAX_SAME_SECOND + 1):
        path = folder / (f"{stem}.png" if number == 1 else f"{stem}-{number}.png")
        try:
            path.open("xb").close()
        except FileExistsError:
            continue
        return path
    raise ScreenshotError(f"{MAX_SAME_SECOND} screenshots named {stem} already exist in {folder}")
