"""The sky by time of day: Beta's sun and moon angle, daylight, sky, fog and sunset colours; the sun
and moon drawn in the window.

Owns: the time-of-day curves, from the world's time in ticks (0 at sunrise, DAY_TICKS a day):
`celestial_angle` (Beta's getCelestialAngle: 0 with the sun overhead, 0.5 the moon), `daylight`
(how much of the sky light is left, Beta's calculateSkylightSubtracted curve as a fraction),
`sky_colors` (the clear and fog colour, Beta's fog colour curve over Boxel's day sky, with Beta's
sunrise and sunset glow mixed in near the horizon) and `sun_direction`; `Sky`, the two quads of the
sun and moon kept around the camera.
Does not own: the time itself (`game.session.Session.day_time`), applying the daylight to the
world's meshes (`game.render.chunk_renderer.ChunkRenderer.set_daylight`) or the fog's range and the
fluid fog (`game.app`).

The curves are pure functions of floats (no Ursina), so tests and the headless side can use them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from game.world.world import DAY_TICKS

NOON_TICKS = 6_000
SUNSET_TICKS = 12_000
MIDNIGHT_TICKS = 18_000
"""[ticks] Times of day by name (Minecraft's): sunrise is 0."""

DAY_SKY_RGB = (140 / 255, 192 / 255, 236 / 255)
"""Clear and fog colour in full day: Boxel's sky blue (the far land fades into it)."""
NIGHT_FLOOR = (0.06, 0.06, 0.09)
"""Beta's fog colour floor at night (getFogColor: f * 0.94 + 0.06 for red and green, f * 0.91 + 0.09
for blue): the night sky keeps a trace of blue instead of going black."""
SUNSET_BAND = 0.4
"""Beta's calcSunriseSunsetColors band: the glow shows while the cosine of the sun's angle is within
+-0.4 of the horizon's."""
GLOW_MIX = 0.75
"""How much of the sky colour the glow takes at its strongest: Beta paints the glow as a fan over the
horizon around the sun; Boxel has one sky colour, so it leans most of the way toward the glow."""
MAX_SKY_LEVELS_DIMMED = 11.0
"""[light levels] Beta takes up to 11 levels off the sky light at night (15 -> 4)."""
MAX_LIGHT_LEVEL = 15.0


def _check_time(day_time: float) -> float:
    if isinstance(day_time, bool) or not isinstance(day_time, (int, float)) or not math.isfinite(day_time):
        raise TypeError(f"the time of day is a finite number of ticks, got {day_time!r}")
    return float(day_time) % DAY_TICKS


def celestial_angle(day_time: float) -> float:
    """Beta's getCelestialAngle for `day_time` [ticks, fractions allowed]: 0..1 of a turn, 0 at noon
    (sun overhead), 0.25 at sunset, 0.5 at midnight, about 0.78 at sunrise (Beta eases the turn so
    days are a little longer than nights)."""
    turn = _check_time(day_time) / DAY_TICKS - 0.25
    if turn < 0.0:
        turn += 1.0
    eased = 1.0 - (math.cos(turn * math.pi) + 1.0) / 2.0
    return turn + (eased - turn) / 3.0


def _sun_height(angle: float) -> float:
    """Beta's clamp(cos(angle * 2 pi) * 2 + 0.5, 0, 1): 1 while the sun is well up, 0 at night."""
    return min(max(math.cos(angle * 2.0 * math.pi) * 2.0 + 0.5, 0.0), 1.0)


def daylight(day_time: float) -> float:
    """The fraction of sky light left at `day_time`: 1.0 by day, 4/15 at night (Beta's
    calculateSkylightSubtracted takes (1 - sun height) * 11 levels off 15; here without its rounding
    down to whole levels, so dusk dims smoothly)."""
    dimmed = (1.0 - _sun_height(celestial_angle(day_time))) * MAX_SKY_LEVELS_DIMMED
    return (MAX_LIGHT_LEVEL - dimmed) / MAX_LIGHT_LEVEL


def brightness(level: float) -> float:
    """Beta's lightBrightnessTable for a light level 0..15 (fractions allowed): 0.05 in the dark, 1.0 at
    15. The chunk shader computes the same formula per pixel."""
    if not 0.0 <= level <= MAX_LIGHT_LEVEL:
        raise ValueError(f"a light level is 0..15, got {level!r}")
    dark = 1.0 - level / MAX_LIGHT_LEVEL
    return (1.0 - dark) / (dark * 3.0 + 1.0) * 0.95 + 0.05


def sun_direction(day_time: float) -> tuple[float, float, float]:
    """Unit vector (physics axes) from the eye toward the sun: rises in the east (+X), overhead at noon,
    sets in the west (-X). The moon is opposite."""
    turn = celestial_angle(day_time) * 2.0 * math.pi
    return (-math.sin(turn), math.cos(turn), 0.0)


@dataclass(frozen=True)
class SkyColors:
    """What the window shows of the sky at one time of day (RGB, 0..1 each)."""

    sky: tuple[float, float, float]
    """Clear colour and fog colour: the far land fades into the sky."""
    glow: float
    """0..1: how strongly the sunrise or sunset glow is mixed in (0 by day and by night)."""
    daylight: float
    """`daylight` at that time: the shader's uniform."""


def sunset_glow(angle: float) -> tuple[tuple[float, float, float], float]:
    """Beta's calcSunriseSunsetColors: the horizon glow's colour and strength (0 outside the band)."""
    cosine = math.cos(angle * 2.0 * math.pi)
    if not -SUNSET_BAND <= cosine <= SUNSET_BAND:
        return (0.0, 0.0, 0.0), 0.0
    across = cosine / SUNSET_BAND * 0.5 + 0.5
    strength = (1.0 - (1.0 - math.sin(across * math.pi)) * 0.99) ** 2
    return (across * 0.3 + 0.7, across * across * 0.7 + 0.2, 0.2), strength


def sky_colors(day_time: float, day_sky: tuple[float, float, float] = DAY_SKY_RGB) -> SkyColors:
    """The sky's colours at `day_time` [ticks]: `day_sky` dimmed by Beta's fog colour curve, with the
    sunrise or sunset glow mixed in by GLOW_MIX of its strength (the glow fills the horizon, where the fog is)."""
    angle = celestial_angle(day_time)
    height = _sun_height(angle)
    floor_scale = (1.0 - NIGHT_FLOOR[0], 1.0 - NIGHT_FLOOR[1], 1.0 - NIGHT_FLOOR[2])
    base = tuple(c * (height * s + f) for c, s, f in zip(day_sky, floor_scale, NIGHT_FLOOR))
    glow_rgb, glow = sunset_glow(angle)
    mix = glow * GLOW_MIX
    sky = tuple(min(max(b * (1.0 - mix) + g * mix, 0.0), 1.0) for b, g in zip(base, glow_rgb))
    return SkyColors(sky, glow, daylight(day_time))


# --- on screen ----------------------------------------------------------------------------------------

SUN_DISTANCE = 40.0
"""[blocks] How far from the eye the sun and moon quads sit: inside the far clip at any view distance
(they are drawn first, behind everything, so the distance only sets their size)."""
SUN_SIZE = 8.0
MOON_SIZE = 6.0
"""[blocks] Quad sizes at SUN_DISTANCE: about Beta's apparent sizes (the sun a little larger)."""
SUN_RGB = (1.0, 0.95, 0.7)
MOON_RGB = (0.85, 0.88, 0.95)


class Sky:
    """The sun and moon: two quads that follow the eye, placed by `show(day_time, eye)` each frame."""

    def __init__(self) -> None:
        from panda3d.core import TransparencyAttrib
        from ursina import Entity, color

        self.sun = Entity(model="quad", color=color.rgb(*SUN_RGB), scale=SUN_SIZE, billboard=True,
                          add_to_scene_entities=False)
        self.moon = Entity(model="quad", color=color.rgb(*MOON_RGB), scale=MOON_SIZE, billboard=True,
                           add_to_scene_entities=False)
        for body in (self.sun, self.moon):
            body.set_bin("background", 0)  # drawn before the world: the land always covers it
            body.set_depth_write(False)
            body.set_depth_test(False)
            body.set_fog_off()
            body.set_light_off()
            body.set_transparency(TransparencyAttrib.M_none)

    def show(self, day_time: float, eye: tuple[float, float, float], visible: bool = True) -> None:
        """Place the sun and moon for `day_time` around `eye` (Ursina coordinates); hide both when not `visible`."""
        dx, dy, dz = sun_direction(day_time)
        ex, ey, ez = eye
        self.sun.enabled = self.moon.enabled = visible
        self.sun.position = (ex - dx * SUN_DISTANCE, ey + dy * SUN_DISTANCE, ez + dz * SUN_DISTANCE)  # X mirrored
        self.moon.position = (ex + dx * SUN_DISTANCE, ey - dy * SUN_DISTANCE, ez - dz * SUN_DISTANCE)

    def destroy(self) -> None:
        from ursina import destroy

        destroy(self.sun)
        destroy(self.moon)
