"""Playing the game's sounds in the window: the sound files, their voices, distance and the master volume.

Owns: `SoundPlayer`, which loads the WAV files of assets/sounds/ (written by
`python -m assets.make_sounds`) into Ursina `Audio` voices on first use and plays the sounds it is
handed (anything with `name`, `position`, `volume` and `pitch`: the session's `game.rules.sounds.SoundEvent`s)
as heard from the camera: quieter with distance (`mix`, Beta's linear fall-off to 16 blocks),
panned to the side the sound is on, scaled by the master volume; muting (`BOXEL_MUTE`, or
`muted=True`: nothing is loaded or played and no audio device is opened, but what would be heard
is still counted in `heard`, for reports).
Also owns the choice of Panda3D's audio library (`choose_audio_library`, before the window opens):
OpenAL when the game is not muted and the machine has somewhere to play to; else the null library,
so a machine with no audio device (a CI runner under Xvfb) starts with no audio errors printed.
Does not own: when sounds happen and which (`game.rules.sounds`, through the session), or the volume
setting and its file (`game.userdata.user_settings`).
"""

from __future__ import annotations

import math
import os
import re
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

SOUNDS_FOLDER = Path(__file__).resolve().parents[3] / "assets" / "sounds"
MUTE_VARIABLE = "BOXEL_MUTE"
"""Set to anything but '' or '0', the game plays no sound and opens no audio device (the tests set it)."""
HEARING_RANGE_BLOCKS = 16.0
"""[blocks] Beta's sound manager fades a sound linearly to silence at 16 blocks (times its volume
when that is above 1: loud sounds carry farther)."""
MAX_BALANCE = 0.5
"""Ursina's `Audio.balance` runs from -0.5 (all left) to 0.5 (all right)."""
CENTRED_WITHIN_BLOCKS = 1.0
"""[blocks] Sounds closer than this (the player's own steps, under the eye) are panned less the
closer they are, so one's own feet are heard in the middle."""
VOICES_PER_FILE = 3
"""Copies of each file that can sound at once: a fourth play of one file restarts its oldest voice
(a footstep lasts 0.16 s and comes every ~0.4 s; three suffice for a block broken three times fast)."""
OPENAL_LIBRARY = "p3openal_audio"
"""Panda3D's OpenAL audio library, in every Panda3D wheel."""
OPENAL_CHOICE_VARIABLES = ("ALSOFT_DRIVERS", "ALSOFT_CONF")
"""Set, they tell OpenAL where to play (a driver, a config file: e.g. its WAV file writer), so
OpenAL is used even where no sound card or sound server is found."""
_VARIANT = re.compile(r"^(?P<name>.+?)(?:_(?P<variant>\d+))?$")


def muted_by_environment(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether BOXEL_MUTE asks for silence."""
    return environ.get(MUTE_VARIABLE, "") not in ("", "0")


def audio_device_present(environ: Mapping[str, str] = os.environ, platform: str = sys.platform,
                         exists=os.path.exists) -> bool:
    """Whether OpenAL has somewhere to play: always on Windows and macOS; on Linux and the other
    Unixes a sound card (/dev/snd), a PulseAudio or PipeWire server (PULSE_SERVER, or the socket in
    XDG_RUNTIME_DIR), or an OpenAL driver or config chosen in the environment. Without one, OpenAL's
    ALSA backend prints some thirty lines of errors before Panda3D falls back to no sound."""
    if platform in ("win32", "darwin"):
        return True
    if any(environ.get(name) for name in (*OPENAL_CHOICE_VARIABLES, "PULSE_SERVER")):
        return True
    runtime = environ.get("XDG_RUNTIME_DIR")
    return exists("/dev/snd") or bool(runtime and exists(os.path.join(runtime, "pulse", "native")))


def choose_audio_library(muted: bool) -> bool:
    """Before the window opens: make Panda3D's audio library OpenAL unless `muted` or no audio
    device is present (`audio_device_present`); the window's config asks for the null library and a
    local value set here takes precedence over it. Returns whether OpenAL was chosen."""
    if muted or not audio_device_present():
        return False
    from panda3d.core import ConfigVariableString
    ConfigVariableString("audio-library-name").set_value(OPENAL_LIBRARY)
    return True


def _check_volume(volume: object) -> float:
    if isinstance(volume, bool) or not isinstance(volume, (int, float)) or not 0.0 <= volume <= 1.0:
        raise ValueError(f"the master volume must be a number in [0, 1], got {volume!r}")
    return float(volume)


@dataclass(frozen=True, slots=True)
class Mix:
    """How one sound is played: `gain` (0..1, before Ursina's own x0.5), `balance` (-0.5 left ..
    0.5 right) and `pitch` (playback rate)."""

    gain: float
    balance: float
    pitch: float


def mix(position: Sequence[float], volume: float, pitch: float, listener: Sequence[float], yaw_degrees: float,
        master: float) -> Mix | None:
    """How a sound of `volume` at `position` [blocks] is heard by a listener at `listener` facing
    `yaw_degrees` (Minecraft's yaw: 0 faces +Z, 90 faces -X), with the master volume `master`;
    None when it is not heard (too far, or a volume of 0)."""
    dx, dy, dz = (p - q for p, q in zip(position, listener))
    distance = math.sqrt(dx * dx + dy * dy + dz * dz)
    reach = HEARING_RANGE_BLOCKS * max(1.0, volume)
    gain = min(1.0, volume) * master * max(0.0, 1.0 - distance / reach)
    if gain <= 0.0:
        return None
    yaw = math.radians(yaw_degrees)
    right = (-math.cos(yaw), -math.sin(yaw))  # facing +Z (yaw 0), the right hand points to -X
    balance = MAX_BALANCE * (dx * right[0] + dz * right[1]) / max(distance, CENTRED_WITHIN_BLOCKS)
    return Mix(gain, balance, pitch)


def sound_files(folder: Path = SOUNDS_FOLDER) -> dict[str, list[Path]]:
    """The files of each sound in `folder`: 'step_stone' -> [step_stone_1.wav, step_stone_2.wav, ...],
    'land' -> [land.wav]. FileNotFoundError when the folder has no sounds."""
    found: dict[str, list[Path]] = {}
    for path in sorted(Path(folder).glob("*.wav")):
        match = _VARIANT.match(path.stem)
        found.setdefault(match["name"] if match["variant"] else path.stem, []).append(path)
    if not found:
        raise FileNotFoundError(f"no sounds in {folder}: run python -m assets.make_sounds")
    return found


class SoundPlayer:
    """Plays sound events as heard from the camera; `volume` is the master volume (0..1)."""

    def __init__(self, volume: float, *, muted: bool | None = None, folder: Path = SOUNDS_FOLDER) -> None:
        self._volume = _check_volume(volume)
        self.muted = muted_by_environment() if muted is None else bool(muted)
        self.files = sound_files(folder)
        self.heard: Counter[str] = Counter()
        """How many times each sound was heard (played, or would have been when muted)."""
        self._manager = None
        self._opened = False
        self._voices: dict[Path, list] = {}
        self._next_voice: Counter[Path] = Counter()
        self._next_variant: Counter[str] = Counter()

    @property
    def volume(self) -> float:
        return self._volume

    @volume.setter
    def volume(self, volume: float) -> None:
        self._volume = _check_volume(volume)

    def play(self, events: Iterable, listener: Sequence[float], yaw_degrees: float) -> int:
        """Play `events` as heard at `listener` facing `yaw_degrees`; returns how many were heard.
        A sound with no file is a ValueError (the rules and the files disagree)."""
        count = 0
        for event in events:
            files = self.files.get(event.name)
            if files is None:
                raise ValueError(f"no file for sound {event.name!r}: run python -m assets.make_sounds")
            heard = mix(event.position, event.volume, event.pitch, listener, yaw_degrees, self._volume)
            if heard is None:
                continue
            count += 1
            self.heard[event.name] += 1
            if self.muted or not self._open():
                continue
            variant = self._next_variant[event.name]
            self._next_variant[event.name] = (variant + 1) % len(files)
            voice = self._voice(files[variant])
            voice.volume, voice.pitch, voice.balance = heard.gain, heard.pitch, heard.balance
            voice.play()
        return count

    def _open(self) -> bool:
        """Whether the window's audio manager can play (looked at once: the OpenAL one that
        `choose_audio_library` asked for, or the null one, which cannot)."""
        if not self._opened:
            self._opened = True
            from ursina import application
            managers = getattr(application.base, "sfxManagerList", None) or [None]
            manager = managers[0]
            self._manager = manager if manager is not None and manager.is_valid() else None
        return self._manager is not None

    def _voice(self, path: Path):
        """The next voice of file `path` (its voices are made on its first play)."""
        voices = self._voices.get(path)
        if voices is None:
            from panda3d.core import Filename
            from ursina import Audio
            voices = self._voices[path] = [
                Audio(self._manager.get_sound(Filename.from_os_specific(str(path))), autoplay=False)
                for _ in range(VOICES_PER_FILE)]
        index = self._next_voice[path]
        self._next_voice[path] = (index + 1) % len(voices)
        return voices[index]

    def close(self) -> None:
        """Stop and remove every voice (the window is closing; the window owns the audio manager)."""
        from ursina import destroy
        for voices in self._voices.values():
            for voice in voices:
                voice.stop(destroy=False)
                destroy(voice)
        self._voices.clear()
