"""The day's curve: where the sun is at a time of day, and whether Beta counts it as day.

Owns: the day's length (DAY_TICKS), `celestial_angle` (Beta's `getCelestialAngle`), `sun_height` (its sky brightness factor),
`skylight_subtracted` (Beta's `calculateSkylightSubtracted`: the whole sky-light levels night takes
off) and `is_daytime` (Beta's `World.isDaytime`: fewer than DAYTIME_BELOW_LEVELS taken off), as pure
functions of the time of day in ticks (0 sunrise, DAY_TICKS a day; fractions allowed).
Does not own: the time itself (`World.day_time`), the sky's colours and the sun and moon drawn
(`game.window.render.sky`), or what sleeps at night (`game.rules.beds`).
"""

from __future__ import annotations

import math

DAY_TICKS = 24_000
"""[ticks] One day and night (20 minutes at 20 Hz, as Minecraft's); the time of day is 0..DAY_TICKS - 1,
0 at sunrise."""
MAX_SKY_LEVELS_DIMMED = 11.0
"""[light levels] Beta takes up to 11 levels off the sky light at night (15 -> 4)."""
DAYTIME_BELOW_LEVELS = 4
"""[light levels] Beta's `isDaytime`: the sky light is dimmed by fewer than 4 levels."""


def check_day_time(day_time: float) -> float:
    if isinstance(day_time, bool) or not isinstance(day_time, (int, float)) or not math.isfinite(day_time):
        raise TypeError(f"the time of day is a finite number of ticks, got {day_time!r}")
    return float(day_time) % DAY_TICKS


def celestial_angle(day_time: float) -> float:
    """Beta's getCelestialAngle for `day_time` [ticks, fractions allowed]: 0..1 of a turn, 0 at noon
    (sun overhead), 0.25 at sunset, 0.5 at midnight, about 0.78 at sunrise (Beta eases the turn so
    days are a little longer than nights)."""
    turn = check_day_time(day_time) / DAY_TICKS - 0.25
    if turn < 0.0:
        turn += 1.0
    eased = 1.0 - (math.cos(turn * math.pi) + 1.0) / 2.0
    return turn + (eased - turn) / 3.0


def height_of_sun(angle: float) -> float:
    """Beta's clamp(cos(angle * 2 pi) * 2 + 0.5, 0, 1) for a celestial angle: 1 while the sun is well up, 0 at night."""
    return min(max(math.cos(angle * 2.0 * math.pi) * 2.0 + 0.5, 0.0), 1.0)


def sun_height(day_time: float) -> float:
    """Beta's sky brightness factor at `day_time` [ticks]: 1 while the sun is well up, 0 at night."""
    return height_of_sun(celestial_angle(day_time))


def skylight_subtracted(day_time: float) -> int:
    """[light levels] Beta's `calculateSkylightSubtracted`: (int)((1 - sun height) * 11), 0 by day, 11 at night."""
    return int((1.0 - sun_height(day_time)) * MAX_SKY_LEVELS_DIMMED)


def is_daytime(day_time: float) -> bool:
    """Beta's `World.isDaytime`: the sky is dimmed by fewer than DAYTIME_BELOW_LEVELS (from about
    tick 12,540 to 23,460 it is night: beds can be slept in, and monsters spawn in the open)."""
    return skylight_subtracted(day_time) < DAYTIME_BELOW_LEVELS
