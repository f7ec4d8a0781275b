"""The player's settings (FOV, mouse sensitivity, view distance, sound volume, view bobbing) and their
file in the config dir.

Owns: `UserSettings` (frozen, validated) and loading/saving it as JSON, atomically (write a
temporary file, then rename), so a crash never leaves half a settings file.
Does not own: applying settings to the camera, the streamer or the sound player (the game does that).
A missing or unreadable settings file gives the defaults (and a warning), never a crash.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
import warnings
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from .paths import config_dir

SETTINGS_FILE_NAME = "settings.json"
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
    """[1] Multiplier on the base mouse turn rate (game.controls.MOUSE_DEGREES_PER_UNIT)."""
    view_distance_columns: int = 8
    """[columns] How far around the player columns are loaded and drawn."""
    sound_volume: float = 1.0
    """[1] Master volume of every sound (`game.render.sound_player`), 0..1."""
    view_bobbing: bool = True
    """Whether the view bobs with the player's steps (Beta's "View bobbing" option, on by default)."""

    def __post_init__(self) -> None:
        _check_range("fov_degrees", self.fov_degrees, FOV_RANGE_DEGREES)
        _check_range("mouse_sensitivity", self.mouse_sensitivity, SENSITIVITY_RANGE)
        if not isinstance(self.view_distance_columns, int) or isinstance(self.view_distance_columns, bool):
            raise ValueError(f"view_distance_columns must be a whole number, got {self.view_distance_columns!r}")
        _check_range("view_distance_columns", self.view_distance_columns, VIEW_DISTANCE_RANGE_COLUMNS)
        _check_range("sound_volume", self.sound_volume, SOUND_VOLUME_RANGE)
        if not isinstance(self.view_bobbing, bool):
            raise ValueError(f"view_bobbing must be true or false, got {self.view_bobbing!r}")

    def with_changes(self, **changes) -> UserSettings:
        return replace(self, **changes)


def _check_range(name: str, value, bounds: tuple[float, float]) -> None:
    low, high = bounds
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value) \
            or not low <= value <= high:
        raise ValueError(f"{name} must be a number in [{low:g}, {high:g}], got {value!r}")


def settings_path() -> Path:
    return config_dir() / SETTINGS_FILE_NAME


def load(path: Path | None = None) -> UserSettings:
    """The saved settings, or the defaults when there is no file or it cannot be used."""
    path = path or settings_path()
    if not path.exists():
        return UserSettings()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        fov = data.get("fov_degrees") if isinstance(data, dict) else None
        if isinstance(fov, (int, float)) and FOV_RANGE_DEGREES[1] < fov <= FORMER_FOV_MAX_DEGREES:
            data["fov_degrees"] = FOV_RANGE_DEGREES[1]
        known = {f.name for f in fields(UserSettings)}
        return UserSettings(**{k: v for k, v in data.items() if k in known})
    except (OSError, ValueError, TypeError, AttributeError) as error:
        warnings.warn(f"ignoring unusable settings file {path}: {error}", stacklevel=2)
        return UserSettings()


def save(settings: UserSettings, path: Path | None = None) -> Path:
    """Write the settings atomically; returns the file's path."""
    path = path or settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".settings-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump(asdict(settings), file, indent=2)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path
