"""Synthesises the game's sounds: `python -m assets.make_sounds [--out DIR]`.

Owns: what every sound sounds like (footsteps, breaking and placing per sound family, a landing
thud, a splash, a swim stroke, a mob's grunt and hurt cry, the player's hurt, an item's pop and fizz; each of
Beta's creatures' idle sound, hurt cry and death, a creeper's fuse, an explosion, a bow, an arrow's hit and an
egg laid), made from seeded noise, filtered in the frequency domain, and damped tones (nothing recorded or
downloaded), and writing them as 16-bit mono WAV files (Python's `wave`) into assets/sounds/. Deterministic: every
file draws from its own generator seeded by the file's name, so the same code writes
byte-identical files.
Does not own: which sounds exist and when they play (`game.rules.sounds.SOUND_NAMES` and its rules) or
how loud they are played (`game.window.render.sound_player`).
"""

from __future__ import annotations

import argparse
import wave
import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np

from game.rules import sounds

SAMPLE_RATE_HZ = 22050
"""[samples/s] Enough for the highest content here (glass and leaves, ~10 kHz), half the size of 44.1 kHz."""
PEAK = 0.8
"""Every sound is scaled so its loudest sample is this fraction of full scale: equal loudness
before the game's volumes, with headroom so a pitch change never clips."""
FADE_S = 0.004
"""[s] Every sound fades in and out over this long, so it starts and ends at zero (no click)."""
STEP_VARIANTS = 3
"""Footsteps come in this many variants per family (the player picks among them, so a walk does
not repeat one sample); the other sounds have one file each."""
SOUNDS_DIR = Path(__file__).resolve().parent / "sounds"


# --- building blocks (all arrays of float samples in -1..1 at SAMPLE_RATE_HZ) --------------------


def _times(seconds: float) -> np.ndarray:
    return np.arange(int(round(seconds * SAMPLE_RATE_HZ))) / SAMPLE_RATE_HZ


def _band_noise(rng: np.random.Generator, seconds: float, low_hz: float, high_hz: float,
                tilt: float = 0.0) -> np.ndarray:
    """White noise kept between `low_hz` and `high_hz` (a brick-wall band in the frequency domain,
    its edges softened over a sixth of the band), amplitude ~ f^-tilt within it."""
    count = len(_times(seconds))
    spectrum = np.fft.rfft(rng.standard_normal(count))
    frequency = np.fft.rfftfreq(count, 1.0 / SAMPLE_RATE_HZ)
    soft = (high_hz - low_hz) / 6.0
    gain = np.clip((frequency - low_hz + soft) / soft, 0, 1) * np.clip((high_hz + soft - frequency) / soft, 0, 1)
    gain *= np.power(np.maximum(frequency, 1.0) / max(low_hz, 1.0), -tilt)
    noise = np.fft.irfft(spectrum * gain, count)
    return noise / (np.abs(noise).max() or 1.0)


def _decay(seconds: float, time_constant_s: float, attack_s: float = 0.002) -> np.ndarray:
    """An envelope: a linear rise over `attack_s`, then exp(-t / time_constant_s)."""
    t = _times(seconds)
    return np.minimum(t / attack_s, 1.0) * np.exp(-np.maximum(t - attack_s, 0.0) / time_constant_s)


def _grains(rng: np.random.Generator, seconds: float, count: int, grain_s: float, spread_s: float) -> np.ndarray:
    """`count` short decaying bursts at random times within the first `spread_s`, random heights."""
    t = _times(seconds)
    envelope = np.zeros_like(t)
    for start, height in zip(rng.random(count) * spread_s, 0.3 + 0.7 * rng.random(count)):
        after = t - start
        envelope += np.where(after >= 0, height * np.exp(-np.maximum(after, 0) / grain_s), 0.0)
    return envelope


def _tone(seconds: float, start_hz: float, end_hz: float, harmonics: tuple[float, ...] = (1.0,)) -> np.ndarray:
    """A tone gliding exponentially from `start_hz` to `end_hz`, with harmonics of the given weights."""
    t = _times(seconds)
    frequency = start_hz * np.power(end_hz / start_hz, t / seconds)
    phase = 2 * np.pi * np.cumsum(frequency) / SAMPLE_RATE_HZ
    return sum(weight * np.sin(phase * (n + 1)) for n, weight in enumerate(harmonics))


def _knock(seconds: float, hz: float, time_constant_s: float) -> np.ndarray:
    """A damped sine: a hollow knock at `hz`."""
    return np.sin(2 * np.pi * hz * _times(seconds)) * _decay(seconds, time_constant_s)


# --- the families: a footstep, a break and a place for each --------------------------------------


def _family_sound(family: str, kind: str, rng: np.random.Generator) -> np.ndarray:
    """One family's step (short), break (long, crumbling) or place (short, lower, firm) sound."""
    long = kind == sounds.BREAK
    seconds = {sounds.STEP: 0.16, sounds.BREAK: 0.38, sounds.PLACE: 0.16}[kind]
    lower = 0.7 if kind == sounds.PLACE else 1.0  # a placed block lands: the same material, a deeper sound
    grains = _grains(rng, seconds, 14 if long else 4, 0.012, seconds * 0.6)
    if family == "stone":
        body = _band_noise(rng, seconds, 700 * lower, 5000 * lower, tilt=0.5) * _decay(seconds, 0.06 if long else 0.025)
        body += 0.5 * _knock(seconds, 160 * lower, 0.03)
        if long:
            body += 0.6 * _band_noise(rng, seconds, 1200, 6000) * grains
    elif family == "grass":
        body = _band_noise(rng, seconds, 700 * lower, 4500 * lower, tilt=0.5) * (0.4 * _decay(seconds, 0.05) + grains)
        body += 0.3 * _band_noise(rng, seconds, 80, 400) * _decay(seconds, 0.03)
    elif family == "wood":
        body = _knock(seconds, 190 * lower, 0.05) + 0.6 * _knock(seconds, 430 * lower, 0.03)
        body += 0.5 * _band_noise(rng, seconds, 300, 2200) * _decay(seconds, 0.02)
        if long:
            body += 0.5 * _band_noise(rng, seconds, 500, 3000) * grains
    elif family == "sand":
        body = _band_noise(rng, seconds, 2000 * lower, 9000 * lower) * (0.3 * _decay(seconds, 0.06)
                                                                         + _grains(rng, seconds, 30 if long else 10,
                                                                                   0.006, seconds * 0.7))
    elif family == "glass":
        if long:  # shattering: bright ringing partials and a burst of fragments
            body = sum(np.sin(2 * np.pi * hz * _times(seconds)) * _decay(seconds, tau)
                       for hz, tau in zip(2000 + 4500 * rng.random(8), 0.03 + 0.12 * rng.random(8)))
            body = 0.4 * body + _band_noise(rng, seconds, 3000, 10000) * grains
        else:
            body = _band_noise(rng, seconds, 2000 * lower, 8000 * lower) * _decay(seconds, 0.018)
            body += 0.4 * _knock(seconds, 3200 * lower, 0.04)
    elif family == "cloth":
        body = _band_noise(rng, seconds, 100, 1200 * lower, tilt=0.5) * _decay(seconds, 0.06 if long else 0.035,
                                                                                attack_s=0.015)
    elif family == "leaves":
        body = _band_noise(rng, seconds, 3500 * lower, 10500 * lower) * (0.3 * _decay(seconds, 0.08)
                                                                          + _grains(rng, seconds, 24 if long else 8,
                                                                                    0.008, seconds * 0.8))
    else:
        raise ValueError(f"no sound for family {family!r}")
    return body


# --- the other sounds ----------------------------------------------------------------------------


def _land(rng: np.random.Generator) -> np.ndarray:
    seconds = 0.32
    thud = _tone(seconds, 95, 45, (1.0, 0.3)) * _decay(seconds, 0.07)
    return thud + 0.5 * _band_noise(rng, seconds, 60, 500) * _decay(seconds, 0.04)


def _splash(rng: np.random.Generator) -> np.ndarray:
    seconds = 0.7
    wash = _band_noise(rng, seconds, 300, 7000, tilt=0.4) * _decay(seconds, 0.18, attack_s=0.02)
    bubbles = sum(_tone(seconds, hz, hz * 1.6) * _decay(seconds, 0.03) * (_times(seconds) >= start)
                  for hz, start in zip(400 + 800 * rng.random(6), 0.05 + 0.4 * rng.random(6)))
    return wash + 0.3 * bubbles


def _swim(rng: np.random.Generator) -> np.ndarray:
    seconds = 0.45
    t = _times(seconds)
    swell = np.sin(np.pi * t / seconds) ** 2
    return _band_noise(rng, seconds, 200, 2500, tilt=0.6) * swell


def _voice(seconds: float, start_hz: float, end_hz: float, rng: np.random.Generator, rough: float) -> np.ndarray:
    """A throaty voiced sound: a gliding tone rich in harmonics, with vibrato-like roughness and breath."""
    t = _times(seconds)
    wobble = 1.0 + rough * np.sin(2 * np.pi * 27 * t)
    tone = _tone(seconds, start_hz, end_hz, (1.0, 0.6, 0.45, 0.3, 0.2, 0.12)) * wobble
    envelope = np.minimum(t / 0.03, 1.0) * np.minimum((seconds - t) / 0.08, 1.0)
    return (tone + 0.15 * _band_noise(rng, seconds, 300, 3000)) * envelope


def _mob_say(rng: np.random.Generator) -> np.ndarray:
    return _voice(0.42, 120, 95, rng, rough=0.25)


def _mob_hurt(rng: np.random.Generator) -> np.ndarray:
    return _voice(0.24, 260, 170, rng, rough=0.4)


def _player_hurt(rng: np.random.Generator) -> np.ndarray:
    return _voice(0.22, 210, 140, rng, rough=0.15)


def _pop(rng: np.random.Generator) -> np.ndarray:
    """An item picked up: a short rising pluck."""
    seconds = 0.12
    return _tone(seconds, 700, 1300, (1.0, 0.35)) * _decay(seconds, 0.03) + 0.1 * _band_noise(rng, seconds, 1000, 5000)


def _fizz(rng: np.random.Generator) -> np.ndarray:
    """An item burning up in lava: a hiss."""
    seconds = 0.5
    return _band_noise(rng, seconds, 2000, 9000, tilt=0.2) * _decay(seconds, 0.15, attack_s=0.01)


# --- the creatures (Beta's mobs), and what they do ---------------------------------------------------


def _vibrato(seconds: float, start_hz: float, end_hz: float, rng: np.random.Generator, rate_hz: float,
             depth: float, harmonics: tuple[float, ...] = (1.0, 0.6, 0.45, 0.3, 0.2, 0.12),
             breath: float = 0.15) -> np.ndarray:
    """A voiced sound gliding from `start_hz` to `end_hz` whose pitch wavers by `depth` (a fraction) at
    `rate_hz`: a bleat, a squeal, a moo; with a little breath noise, rising in and fading out."""
    t = _times(seconds)
    glide = start_hz * np.power(end_hz / start_hz, t / seconds)
    frequency = glide * (1.0 + depth * np.sin(2 * np.pi * rate_hz * t))
    phase = 2 * np.pi * np.cumsum(frequency) / SAMPLE_RATE_HZ
    tone = sum(weight * np.sin(phase * (n + 1)) for n, weight in enumerate(harmonics))
    envelope = np.minimum(t / 0.03, 1.0) * np.minimum((seconds - t) / 0.08, 1.0)
    return (tone + breath * _band_noise(rng, seconds, 300, 3000)) * envelope


def _clucks(rng: np.random.Generator, seconds: float, count: int, hz: float) -> np.ndarray:
    """`count` short throaty bursts spread over `seconds`: a hen's cluck."""
    t = _times(seconds)
    out = np.zeros_like(t)
    for start in np.linspace(0.0, seconds * 0.6, count) + rng.random(count) * 0.02:
        after = t - start
        burst = np.where(after >= 0, np.exp(-np.maximum(after, 0) / 0.018), 0.0)
        out += np.sin(2 * np.pi * hz * (1 + 0.3 * rng.random()) * t) * burst
    return out + 0.2 * _band_noise(rng, seconds, 800, 4000) * _grains(rng, seconds, count, 0.015, seconds * 0.6)


def _rattle(rng: np.random.Generator, seconds: float, count: int, spread_s: float) -> np.ndarray:
    """Bones knocking: many short hollow clicks."""
    clicks = _grains(rng, seconds, count, 0.006, spread_s)
    return _band_noise(rng, seconds, 900, 5000) * clicks + 0.5 * _knock(seconds, 520, 0.02) * clicks


def _hiss(rng: np.random.Generator, seconds: float, low_hz: float, high_hz: float, swell: bool) -> np.ndarray:
    t = _times(seconds)
    envelope = (t / seconds) ** 1.5 if swell else _decay(seconds, seconds / 3, attack_s=0.02)
    return _band_noise(rng, seconds, low_hz, high_hz, tilt=0.2) * envelope


def _fall_off(seconds: float) -> np.ndarray:
    """An envelope fading out over the sound: a cry that dies away."""
    return 1.0 - _times(seconds) / seconds


_CREATURES: dict[str, Callable[[np.random.Generator], np.ndarray]] = {
    "pig_say": lambda rng: _vibrato(0.3, 170, 120, rng, 31, 0.08, breath=0.35),
    "pig_hurt": lambda rng: _vibrato(0.22, 420, 620, rng, 23, 0.05),
    "pig_death": lambda rng: _vibrato(0.45, 560, 210, rng, 19, 0.06) * _fall_off(0.45),
    "cow_say": lambda rng: _vibrato(0.4, 118, 92, rng, 5, 0.02, (1.0, 0.8, 0.6, 0.5, 0.35, 0.2, 0.1)),
    "cow_hurt": lambda rng: _vibrato(0.22, 190, 140, rng, 20, 0.06),
    "cow_death": lambda rng: _vibrato(0.45, 130, 62, rng, 7, 0.04) * _fall_off(0.45),
    "sheep_say": lambda rng: _vibrato(0.36, 340, 300, rng, 11, 0.09, (1.0, 0.5, 0.5, 0.3, 0.2)),
    "sheep_hurt": lambda rng: _vibrato(0.22, 430, 360, rng, 13, 0.1),
    "sheep_death": lambda rng: _vibrato(0.45, 380, 180, rng, 9, 0.1) * _fall_off(0.45),
    "chicken_say": lambda rng: _clucks(rng, 0.32, 3, 620),
    "chicken_hurt": lambda rng: _vibrato(0.2, 980, 760, rng, 29, 0.06, (1.0, 0.4, 0.2)),
    "chicken_death": lambda rng: _vibrato(0.4, 1000, 420, rng, 27, 0.08, (1.0, 0.4, 0.2)) * _fall_off(0.4),
    "zombie_say": lambda rng: _voice(0.42, 92, 70, rng, rough=0.45),
    "zombie_hurt": lambda rng: _voice(0.22, 170, 115, rng, rough=0.5),
    "zombie_death": lambda rng: _voice(0.5, 110, 48, rng, rough=0.5) * _fall_off(0.5),
    "skeleton_say": lambda rng: _rattle(rng, 0.32, 10, 0.22),
    "skeleton_hurt": lambda rng: _rattle(rng, 0.22, 8, 0.08) + 0.6 * _knock(0.22, 300, 0.04),
    "skeleton_death": lambda rng: _rattle(rng, 0.5, 22, 0.42) * _fall_off(0.5),
    "spider_say": lambda rng: _hiss(rng, 0.34, 2500, 8000, False) * (0.5 + _grains(rng, 0.34, 9, 0.01, 0.3)),
    "spider_hurt": lambda rng: _hiss(rng, 0.2, 3500, 9500, False) + 0.5 * _vibrato(0.2, 1400, 1100, rng, 40, 0.1),
    "spider_death": lambda rng: _hiss(rng, 0.45, 1800, 7000, False) * _fall_off(0.45)
    + 0.4 * _vibrato(0.45, 1300, 500, rng, 35, 0.1),
    "creeper_say": lambda rng: _band_noise(rng, 0.3, 3000, 9000) * _grains(rng, 0.3, 10, 0.01, 0.25),
    "creeper_hurt": lambda rng: _band_noise(rng, 0.22, 600, 4000, tilt=0.3) * _decay(0.22, 0.06)
    + 0.5 * _band_noise(rng, 0.22, 2000, 7000) * _grains(rng, 0.22, 8, 0.01, 0.15),
    "creeper_death": lambda rng: _band_noise(rng, 0.45, 500, 4000, tilt=0.3) * _decay(0.45, 0.15)
    + 0.5 * _band_noise(rng, 0.45, 2000, 7000) * _grains(rng, 0.45, 16, 0.012, 0.35),
}
"""Each of Beta's creatures' `<kind>_say` (its idle sound), `<kind>_hurt` and `<kind>_death`."""


def _fuse(rng: np.random.Generator) -> np.ndarray:
    """A creeper's fuse: a hiss that swells."""
    return _hiss(rng, 0.75, 2500, 9500, True)


def _explode(rng: np.random.Generator) -> np.ndarray:
    """An explosion: a deep rumbling boom with a crackle of debris."""
    seconds = 0.95
    boom = _band_noise(rng, seconds, 25, 320, tilt=0.6) * _decay(seconds, 0.3, attack_s=0.006)
    thump = _tone(seconds, 70, 32, (1.0, 0.4)) * _decay(seconds, 0.15)
    crackle = _band_noise(rng, seconds, 1500, 6000) * _grains(rng, seconds, 24, 0.01, 0.6)
    return boom + 0.8 * thump + 0.25 * crackle


def _bow(rng: np.random.Generator) -> np.ndarray:
    """A bow loosed: the string's twang and the arrow's swish."""
    seconds = 0.3
    twang = _tone(seconds, 260, 200, (1.0, 0.5, 0.35, 0.2)) * _decay(seconds, 0.07)
    swish = _band_noise(rng, seconds, 1500, 7000) * _decay(seconds, 0.05, attack_s=0.03)
    return twang + 0.5 * swish


def _arrow_hit(rng: np.random.Generator) -> np.ndarray:
    """An arrow striking: a short wooden thunk."""
    seconds = 0.2
    return _knock(seconds, 150, 0.03) + 0.6 * _knock(seconds, 410, 0.015) + 0.4 * _band_noise(
        rng, seconds, 300, 3000) * _decay(seconds, 0.012)


def _chicken_plop(rng: np.random.Generator) -> np.ndarray:
    """An egg laid: a soft falling plop."""
    seconds = 0.15
    return _tone(seconds, 340, 120, (1.0, 0.3)) * _decay(seconds, 0.04) + 0.1 * _band_noise(rng, seconds, 200, 1500)


CREATURE_SOUND_NAMES: tuple[str, ...] = (*_CREATURES, "fuse", "explode", "bow", "arrow_hit", "chicken_plop")
"""The creatures' sounds, written whether or not the rules play them yet (`file_names`)."""


_OTHERS: dict[str, Callable[[np.random.Generator], np.ndarray]] = {
    sounds.LAND: _land, sounds.SPLASH: _splash, sounds.SWIM: _swim,
    sounds.MOB_SAY: _mob_say, sounds.MOB_HURT: _mob_hurt, sounds.PLAYER_HURT: _player_hurt,
    sounds.POP: _pop, sounds.FIZZ: _fizz,
    **_CREATURES, "fuse": _fuse, "explode": _explode, "bow": _bow, "arrow_hit": _arrow_hit,
    "chicken_plop": _chicken_plop,
}


# --- files -----------------------------------------------------------------------------------------


def file_names() -> list[str]:
    """Every file's name without '.wav': each of SOUND_NAMES, footsteps as name_1..name_N, then each of
    CREATURE_SOUND_NAMES that SOUND_NAMES lacks."""
    names = []
    for name in sounds.SOUND_NAMES:
        if name.startswith(sounds.STEP + "_"):
            names += [f"{name}_{variant}" for variant in range(1, STEP_VARIANTS + 1)]
        else:
            names.append(name)
    return names + [name for name in CREATURE_SOUND_NAMES if name not in names]


def synthesise(file_name: str) -> np.ndarray:
    """The samples of file `file_name` (see `file_names`) as int16, from its own seeded generator."""
    rng = np.random.default_rng(zlib.crc32(file_name.encode()))
    kind, _, rest = file_name.partition("_")
    if kind in (sounds.STEP, sounds.BREAK, sounds.PLACE):
        samples = _family_sound(rest.split("_")[0], kind, rng)
    elif file_name in _OTHERS:
        samples = _OTHERS[file_name](rng)
    else:
        raise ValueError(f"no sound named {file_name!r}")
    fade = min(int(FADE_S * SAMPLE_RATE_HZ), len(samples) // 2)
    ramp = np.linspace(0.0, 1.0, fade, endpoint=False)
    samples = samples.astype(np.float64)
    samples[:fade] *= ramp
    samples[len(samples) - fade:] *= ramp[::-1]
    samples *= PEAK / (np.abs(samples).max() or 1.0)
    return np.round(samples * 32767).astype("<i2")


def write_wav(path: Path, samples: np.ndarray) -> None:
    """`samples` (int16) as a 16-bit mono WAV file at SAMPLE_RATE_HZ."""
    with wave.open(str(path), "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(SAMPLE_RATE_HZ)
        file.writeframes(samples.astype("<i2").tobytes())


def generate(out_dir: Path = SOUNDS_DIR) -> list[Path]:
    """Write every sound into `out_dir` (created if missing); returns their paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in file_names():
        path = out_dir / f"{name}.wav"
        write_wav(path, synthesise(name))
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m assets.make_sounds", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=SOUNDS_DIR, help="output folder")
    args = parser.parse_args(argv)
    for path in generate(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
