"""The generated sounds (assets/make_sounds.py): deterministic, committed as generated, small, and
shaped as the player needs them (16-bit mono WAV, silent at both ends, one loudness)."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np
import pytest

from assets import make_sounds
from game.rules.sounds import SOUND_NAMES

SOUNDS = Path(__file__).resolve().parents[1] / "assets" / "sounds"
MAX_TOTAL_BYTES = 1_000_000
"""[bytes] The whole set stays under ~1 MB: it is committed to the repository."""


def read(path: Path) -> tuple[wave._wave_params, np.ndarray]:
    with wave.open(str(path), "rb") as file:
        return file.getparams(), np.frombuffer(file.readframes(file.getnframes()), "<i2")


def test_generating_twice_writes_byte_identical_files(tmp_path):
    first = make_sounds.generate(tmp_path / "one")
    second = make_sounds.generate(tmp_path / "two")
    assert [p.name for p in first] == [p.name for p in second]
    for a, b in zip(first, second):
        assert a.read_bytes() == b.read_bytes(), a.name


def test_the_sounds_in_the_repository_are_what_the_generator_writes(tmp_path):
    generated = make_sounds.generate(tmp_path)
    assert sorted(p.name for p in SOUNDS.glob("*.wav")) == sorted(p.name for p in generated)
    for path in generated:
        assert (SOUNDS / path.name).read_bytes() == path.read_bytes(), f"{path.name}: run python -m assets.make_sounds"


def test_every_sound_the_rules_make_has_its_files():
    stems = {p.stem for p in SOUNDS.glob("*.wav")}
    for name in SOUND_NAMES:
        variants = {f"{name}_{v}" for v in range(1, make_sounds.STEP_VARIANTS + 1)}
        assert name in stems or variants <= stems, name


def test_the_whole_set_is_under_a_megabyte():
    assert sum(p.stat().st_size for p in SOUNDS.glob("*.wav")) < MAX_TOTAL_BYTES


@pytest.mark.parametrize("name", make_sounds.file_names())
def test_each_file_is_16_bit_mono_starts_and_ends_silent_and_peaks_at_the_common_level(name):
    params, samples = read(SOUNDS / f"{name}.wav")
    assert (params.nchannels, params.sampwidth, params.framerate) == (1, 2, make_sounds.SAMPLE_RATE_HZ)
    assert 0.1 <= len(samples) / make_sounds.SAMPLE_RATE_HZ <= 1.0  # [s] short effects
    assert samples[0] == 0 and abs(int(samples[-1])) <= 400  # faded: no click (the last ramp step is 1/88)
    assert np.abs(samples.astype(int)).max() == round(make_sounds.PEAK * 32767)


def test_the_families_sound_different():
    """Each family's step has its own spectrum: its energy centre differs from every other's by 10 % or more."""
    centres = {}
    for family in ("stone", "grass", "wood", "sand", "glass", "cloth", "leaves"):
        _, samples = read(SOUNDS / f"step_{family}_1.wav")
        power = np.abs(np.fft.rfft(samples.astype(float))) ** 2
        frequency = np.fft.rfftfreq(len(samples), 1.0 / make_sounds.SAMPLE_RATE_HZ)
        centres[family] = float((power * frequency).sum() / power.sum())
    ordered = sorted(centres.values())
    assert all(b > 1.1 * a for a, b in zip(ordered, ordered[1:])), centres


def test_an_unknown_sound_name_is_refused():
    with pytest.raises(ValueError):
        make_sounds.synthesise("step_lava_1")
    with pytest.raises(ValueError):
        make_sounds.synthesise("boom")


CREATURE_KINDS = ("pig", "cow", "sheep", "chicken", "zombie", "skeleton", "spider", "creeper")


def energy_centre_hz(name: str) -> float:
    """[Hz] The centre of a sound's power spectrum: low for a boom or a moo, high for a hiss."""
    _, samples = read(SOUNDS / f"{name}.wav")
    power = np.abs(np.fft.rfft(samples.astype(float))) ** 2
    frequency = np.fft.rfftfreq(len(samples), 1.0 / make_sounds.SAMPLE_RATE_HZ)
    return float((power * frequency).sum() / power.sum())


def test_every_creature_kind_has_a_say_a_hurt_and_a_death_sound_and_dies_longer_than_it_cries():
    stems = {p.stem for p in SOUNDS.glob("*.wav")}
    for kind in CREATURE_KINDS:
        assert {f"{kind}_say", f"{kind}_hurt", f"{kind}_death"} <= stems, kind
        _, hurt = read(SOUNDS / f"{kind}_hurt.wav")
        _, death = read(SOUNDS / f"{kind}_death.wav")
        assert len(death) > len(hurt), kind
    assert {"fuse", "explode", "bow", "arrow_hit", "chicken_plop"} <= stems


def test_an_explosion_booms_low_a_fuse_hisses_high_and_a_cow_moos_lower_than_a_hen_clucks():
    assert energy_centre_hz("explode") < 200.0  # measured 106 Hz
    assert energy_centre_hz("fuse") > 4000.0  # measured 5.7 kHz
    assert energy_centre_hz("cow_say") < energy_centre_hz("chicken_say") / 2
    assert energy_centre_hz("zombie_say") < energy_centre_hz("pig_say")
