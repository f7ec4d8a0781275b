"""Where Boxel keeps files on the user's machine: worlds, settings, screenshots.

Owns: the user data and config directories (XDG on Linux, the usual places on macOS and
Windows), overridable with BOXEL_DATA_DIR and BOXEL_CONFIG_DIR (tests use these).
Does not own: what goes in the files (see `game.world.storage` and `game.userdata.user_settings`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_NAME = "boxel"


def data_dir() -> Path:
    """Folder for worlds and screenshots."""
    override = os.environ.get("BOXEL_DATA_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local")) / APP_NAME
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / APP_NAME
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / APP_NAME


def config_dir() -> Path:
    """Folder for the settings file."""
    override = os.environ.get("BOXEL_CONFIG_DIR")
    if override:
        return Path(override)
    if sys.platform in ("win32", "darwin"):
        return data_dir()
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / APP_NAME


def default_world_path() -> Path:
    return data_dir() / "worlds" / "default.boxel"


def screenshots_dir() -> Path:
    return data_dir() / "screenshots"
