"""The player's settings (FOV, mouse sensitivity, view distance, sound volume, view bobbing) and their
file in the config dir.

Owns: `UserSettings` (frozen, validated) and loading/saving it as JSON, atomically (write a
temporary file, then rename), so a crash never leaves half a settings file.
Does not own: applying settings to the camera, the streamer or the sound player (the game does that),
or showing the notice of a bad file (the title screen and the game's HUD take it with `take_notice`).

Loading never raises and never hangs: a missing file gives the defaults. A file that cannot be used
gives the defaults with a notice for the player (a `UserWarning` too, printed on stderr), and is kept
aside under a new name next to it (`settings.json.unusable`, then `-2`, ...), never deleted, so the
next save cannot replace it. Unusable is: not a regular file (a FIFO, a device such as a symlink to
/dev/zero, a folder: the file is opened non-blocking and checked with fstat on the opened descriptor,
so nothing is read from it and a FIFO never blocks), larger than MAX_FILE_BYTES, not UTF-8 JSON
(nested too deeply for Python's reader included), not a JSON object, or holding a setting of the
wrong type or out of range (a 400-digit number included). Keys it does not know are ignored.
"""

from __future__ import annotations

import errno
import json
import math
import os
import stat
import warnings
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from .json_file import write_json
from .paths import config_dir

SETTINGS_FILE_NAME = "settings.json"
MAX_FILE_BYTES = 64 * 1024
"""[bytes] Largest settings file read: a saved one is ~150 bytes, so this leaves room for any
hand-edited one, and a hostile file (a symlink to /dev/zero, a huge file) costs at most this much."""
KEPT_ASIDE_SUFFIX = ".unusable"
"""Added to the name of a settings file that cannot be used, when it is moved aside (never deleted)."""
MAX_KEPT_ASIDE = 1000
"""[files] Names tried for a file kept aside (`.unusable`, `.unusable-2`, ...): past that many bad files
the newest is left where it is (the defaults still load) rather than overwrite an older one."""
SHOWN_CHARACTERS = 40
"""[characters] Longest quote of a bad value in a message (a hostile file's value can be huge)."""
FOV_RANGE_DEGREES = (30.0, 110.0)
"""[degrees] Vertical field of view accepted (Minecraft's slider range); the --fov option uses it too."""
FORMER_FOV_MAX_DEGREES = 120.0
"""[degrees] The top of the FOV range before it narrowed to Minecraft's 110: files written then
load with their FOV clamped into the range, keeping their other settings."""
SENSITIVITY_RANGE = (0.05, 5.0)
VIEW_DISTANCE_RANGE_COLUMNS = (2, 32)
SOUND_VOLUME_RANGE = (0.0, 1.0)
"""[1] The master volume: 0 silent, 1 every sound at its full volume (Minecraft's slider, 0..100 %)."""


@dataclass(frozen=True)
class UserSettings:
    fov_degrees: float = 80.0
    """Vertical field of view [degrees]."""
    mouse_sensitivity: float = 1.0
    """[1] Multiplier on the base mouse turn rate (game.rules.controls.MOUSE_DEGREES_PER_UNIT)."""
    view_distance_columns: int = 8
    """[columns] How far around the player columns are loaded and drawn."""
    sound_volume: float = 1.0
    """[1] Master volume of every sound (`game.window.render.sound_player`), 0..1."""
    view_bobbing: bool = True
    """Whether the view bobs with the player's steps (Beta's "View bobbing" option, on by default)."""

    def __post_init__(self) -> None:
        _check_range("fov_degrees", self.fov_degrees, FOV_RANGE_DEGREES)
        _check_range("mouse_sensitivity", self.mouse_sensitivity, SENSITIVITY_RANGE)
        if not isinstance(self.view_distance_columns, int) or isinstance(self.view_distance_columns, bool):
            raise ValueError(f"view_distance_columns must be a whole number, got {_shown(self.view_distance_columns)}")
        _check_range("view_distance_columns", self.view_distance_columns, VIEW_DISTANCE_RANGE_COLUMNS)
        _check_range("sound_volume", self.sound_volume, SOUND_VOLUME_RANGE)
        if not isinstance(self.view_bobbing, bool):
            raise ValueError(f"view_bobbing must be true or false, got {_shown(self.view_bobbing)}")

    def with_changes(self, **changes) -> UserSettings:
        return replace(self, **changes)


def _check_range(name: str, value, bounds: tuple[float, float]) -> None:
    low, high = bounds
    if not _is_finite_number(value) or not low <= value <= high:
        raise ValueError(f"{name} must be a number in [{low:g}, {high:g}], got {_shown(value)}")


def _is_finite_number(value: object) -> bool:
    """An int or float (not a bool) that is a finite float: an int beyond float range is not."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int too large for a float (a 400-digit number in the file)
        return False


def _shown(value: object) -> str:
    """A short repr of a (JSON) value for a message: never the whole of a long, huge or nested value."""
    if isinstance(value, (list, dict)):
        return f"a JSON {'array' if isinstance(value, list) else 'object'}"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > SHOWN_CHARACTERS * 3:
        return f"a {value.bit_length()}-bit integer"
    text = repr(value)
    return text if len(text) <= SHOWN_CHARACTERS else text[:SHOWN_CHARACTERS - 3] + "..."


def settings_path() -> Path:
    return config_dir() / SETTINGS_FILE_NAME


class SettingsFileError(ValueError):
    """The settings file cannot be used; the message says why (`read_settings` turns it into a notice)."""


@dataclass(frozen=True)
class LoadedSettings:
    """What loading the settings file gave: the settings, and what to tell the player about the file."""

    settings: UserSettings
    notice: str | None = None
    """Why the file was not used and where it was kept, for the player; None when it was used or absent."""


_untaken_notice: str | None = None
"""The notice of the last `load` that found a bad file, until `take_notice` hands it out."""


def load(path: Path | None = None) -> UserSettings:
    """The saved settings, or the defaults when there is no file or it cannot be used. Never raises
    and never blocks; a bad file is kept aside, with a warning and a notice for `take_notice`."""
    global _untaken_notice
    loaded = read_settings(path)
    if loaded.notice is not None:
        warnings.warn(loaded.notice, stacklevel=2)
        _untaken_notice = loaded.notice
    return loaded.settings


def take_notice() -> str | None:
    """The notice of the last bad settings file `load` found (once; None when there is none), for
    the title screen or the HUD to show."""
    global _untaken_notice
    notice, _untaken_notice = _untaken_notice, None
    return notice


def read_settings(path: Path | None = None) -> LoadedSettings:
    """The settings in the file at `path` (default: `settings_path()`), or the defaults: with no
    notice when there is no file, with one when it cannot be used (then it is kept aside)."""
    path = Path(path) if path is not None else settings_path()
    try:
        data = _read_json(path)
    except FileNotFoundError:
        if not path.is_symlink():
            return LoadedSettings(UserSettings())
        problem = "it is a symbolic link to nothing"  # kept aside: a save would replace the link
    except OSError as error:
        problem = f"it cannot be read ({error.strerror or error})"
    except SettingsFileError as error:
        problem = str(error)
    else:
        try:
            return LoadedSettings(settings_from_json(data))
        except SettingsFileError as error:
            problem = str(error)
    return LoadedSettings(UserSettings(), _notice(path, problem, _keep_aside(path)))


def settings_from_json(data: object) -> UserSettings:
    """The settings a file's JSON value holds (keys it does not know are ignored; missing ones take
    their defaults); SettingsFileError naming the first bad value."""
    if not isinstance(data, dict):
        raise SettingsFileError(f"it holds {_shown(data)}, not a JSON object of settings")
    known = {f.name for f in fields(UserSettings)}
    values = {name: value for name, value in data.items() if name in known}
    fov = values.get("fov_degrees")
    if _is_finite_number(fov) and FOV_RANGE_DEGREES[1] < fov <= FORMER_FOV_MAX_DEGREES:
        values["fov_degrees"] = FOV_RANGE_DEGREES[1]
    try:
        return UserSettings(**values)
    except ValueError as error:
        raise SettingsFileError(str(error)) from None


def _read_json(path: Path) -> object:
    """The JSON value of the regular file at `path`: opened without blocking (a FIFO never waits for
    a writer), checked as a regular file on the opened descriptor before anything is read, read to
    at most MAX_FILE_BYTES. SettingsFileError when it is not such a file or not UTF-8 JSON;
    OSError (FileNotFoundError when there is nothing there) when it cannot be opened or read."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        kind = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(kind):
            raise SettingsFileError(f"it is {_kind_name(kind)}, not a regular file")
        raw = _read_at_most(descriptor, MAX_FILE_BYTES)
    finally:
        os.close(descriptor)
    if len(raw) > MAX_FILE_BYTES:
        raise SettingsFileError(f"it is larger than {MAX_FILE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SettingsFileError(f"it is not UTF-8 text (byte {error.start + 1})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise SettingsFileError(f"it is not valid JSON ({error.msg} at line {error.lineno})") from None
    except ValueError:  # an integer of more digits than Python reads (sys.get_int_max_str_digits())
        raise SettingsFileError("it holds a number with too many digits") from None
    except RecursionError:  # Python's JSON reader recurses once per nesting level
        raise SettingsFileError("it nests JSON arrays or objects too deeply") from None


def _read_at_most(descriptor: int, limit: int) -> bytes:
    """Up to `limit` + 1 bytes of the open file (one more than allowed tells a file that is too large)."""
    chunks, size = [], 0
    while size <= limit:
        chunk = os.read(descriptor, limit + 1 - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _kind_name(mode: int) -> str:
    """What a file that is not a regular one is, from its `st_mode`, for a message."""
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "an unknown kind of file"


def _keep_aside(path: Path) -> Path | None:
    """Move the unusable file at `path` (the link itself, when it is a symlink) to a free name next
    to it; the new path, or None when it could not be moved (it then stays where it is)."""
    for number in range(1, MAX_KEPT_ASIDE + 1):
        aside = path.with_name(path.name + KEPT_ASIDE_SUFFIX + ("" if number == 1 else f"-{number}"))
        if aside.exists() or aside.is_symlink():
            continue
        try:
            os.rename(path, aside)  # renames a symlink, never what it points to
        except OSError as error:
            if error.errno == errno.EEXIST:
                continue
            return None
        return aside
    return None


def _notice(path: Path, problem: str, aside: Path | None) -> str:
    """What the player is told about the unusable settings file at `path`."""
    kept = f"the file was kept as {aside.name}" if aside is not None else "the file could not be moved aside"
    return f"unusable settings file {path} ({problem}): the default settings are used, and {kept}"


def save(settings: UserSettings, path: Path | None = None) -> Path:
    """Write the settings atomically; returns the file's path."""
    return write_json(path or settings_path(), asdict(settings))
