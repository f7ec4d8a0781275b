"""The sky by time of day: Beta's sun and moon angle, daylight, sky, fog and sunset colours; the sun
and moon drawn in the window.

Owns: the time-of-day curves of the sky, from the world's time in ticks (0 at sunrise, DAY_TICKS a
day; the sun's angle and height come from `game.world.day_cycle`):
`daylight` (how much of the sky light is left, Beta's calculateSkylightSubtracted curve as a fraction),
`sky_colors` (the clear and fog colour, Beta's fog colour curve over Boxel's day sky, with Beta's
sunrise and sunset glow mixed in near the horizon, and the zenith's deeper blue, Beta's sky colour)
and `sun_direction`; the sky's gradient from the fog colour at the horizon to the zenith colour
(`sky_gradient`, the Python twin of the GLSL that the dome and the section shader share, with the
glow reaching higher on the sun's side); how the sun and moon set into the horizon (`body_seen`,
`body_color`: never drawn below it, where the world and its fog stand in front of them); the fog's
reach (`far_clip`); `Sky`, the dome and the sun and moon quads kept around the camera.
Does not own: the time itself (`game.rules.session.Session.day_time`), applying the daylight to the
world's meshes (`game.window.render.chunk_renderer.ChunkRenderer.set_daylight`), the fog's range and the
fluid fog (`game.window.app`) or the clouds (`game.window.render.clouds`).

The curves are pure functions of floats (no Ursina), so tests and the headless side can use them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...world.coords import WORLD_HEIGHT
from ...world.day_cycle import MAX_SKY_LEVELS_DIMMED, celestial_angle, sun_height  # noqa: F401 (their old home)
from ...world.day_cycle import height_of_sun as _sun_height

NOON_TICKS = 6_000
SUNSET_TICKS = 12_000
MIDNIGHT_TICKS = 18_000
"""[ticks] Times of day by name (Minecraft's): sunrise is 0."""

DAY_SKY_RGB = (140 / 255, 192 / 255, 236 / 255)
"""Clear and fog colour in full day: Boxel's sky blue (the far land fades into it)."""
DAY_ZENITH_RGB = (121 / 255, 168 / 255, 1.0)
"""The sky overhead in full day: Beta's sky colour for a temperate biome (getSkyColorByTemp(0.8): hue
0.609, saturation 0.527, brightness 1), a deeper blue than the fog colour near the horizon."""
NIGHT_FLOOR = (0.06, 0.06, 0.09)
"""Beta's fog colour floor at night (getFogColor: f * 0.94 + 0.06 for red and green, f * 0.91 + 0.09
for blue): the night sky keeps a trace of blue instead of going black."""
SUNSET_BAND = 0.4
"""Beta's calcSunriseSunsetColors band: the glow shows while the cosine of the sun's angle is within
+-0.4 of the horizon's."""
GLOW_MIX = 0.75
"""How much of the sky colour the glow takes at its strongest: Beta paints the glow as a fan over the
horizon around the sun; Boxel has one sky colour, so it leans most of the way toward the glow."""
MAX_LIGHT_LEVEL = 15.0


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
    zenith: tuple[float, float, float] = DAY_ZENITH_RGB
    """The sky overhead (RGB 0..1): the day zenith dimmed by the sun's height, no glow."""


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
    sunrise or sunset glow mixed in by GLOW_MIX of its strength (the glow fills the horizon, where the fog is);
    the zenith is DAY_ZENITH_RGB dimmed by the same curve, without the glow."""
    angle = celestial_angle(day_time)
    height = _sun_height(angle)
    floor_scale = (1.0 - NIGHT_FLOOR[0], 1.0 - NIGHT_FLOOR[1], 1.0 - NIGHT_FLOOR[2])
    base = tuple(c * (height * s + f) for c, s, f in zip(day_sky, floor_scale, NIGHT_FLOOR))
    glow_rgb, glow = sunset_glow(angle)
    mix = glow * GLOW_MIX
    sky = tuple(min(max(b * (1.0 - mix) + g * mix, 0.0), 1.0) for b, g in zip(base, glow_rgb))
    zenith = tuple(c * (height * s + f) for c, s, f in zip(DAY_ZENITH_RGB, floor_scale, NIGHT_FLOOR))
    return SkyColors(sky, glow, daylight(day_time), zenith)


HORIZON_BAND_SINE = 0.4
"""[sine of the elevation] The sky turns from the fog colour at the horizon to the zenith colour over
this band (about 24 degrees): Beta's sky is its sky colour overhead and its fog colour near the
horizon, where the land fades into the fog, so the two meet without a seam."""
SUN_SIDE_REACH = 1.5
"""At full glow the band reaches this much higher toward the sun (Beta's sunset fan over the
horizon around the sun): 2.5 x the band, about 90 degrees, straight above the sunset."""


def gradient_weight(sine: float, facing: float = 0.0, glow: float = 0.0) -> float:
    """How much of the zenith colour the sky shows in a direction (0 at and below the horizon, 1 high
    up): `sine` of the direction's elevation, `facing` the cosine of its horizontal angle to the sun
    (-1..1), `glow` the sunrise or sunset strength (`SkyColors.glow`). A smoothstep over the band,
    which reaches higher on the sun's side by the glow."""
    reach = HORIZON_BAND_SINE * (1.0 + SUN_SIDE_REACH * glow * max(facing, 0.0))
    t = min(max(sine / reach, 0.0), 1.0)
    return t * t * (3.0 - 2.0 * t)


def sky_gradient(colors: SkyColors, sine: float, facing: float = 0.0) -> tuple[float, float, float]:
    """The sky's colour in a direction (RGB 0..1): the fog colour at and below the horizon, the zenith
    colour high up (`gradient_weight`). The dome draws it and the section shader fades the land into
    it, by the same formula in GLSL (`SKY_GRADIENT_GLSL`)."""
    for name, value in (("sine", sine), ("facing", facing)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not -1.0 <= value <= 1.0:
            raise ValueError(f"{name} is a number in -1..1, got {value!r}")
    weight = gradient_weight(sine, facing, colors.glow)
    return tuple(h + (z - h) * weight for h, z in zip(colors.sky, colors.zenith))


SKY_GRADIENT_GLSL = f"""
// The sky's colour in a direction (game.window.render.sky.sky_gradient): the horizon (fog) colour at and
// below the horizon, the zenith colour high up; the band reaches higher on the sun's side by the glow.
vec3 sky_gradient(vec3 horizon, vec3 zenith, vec4 sun, float sine, float facing) {{
    float reach = {HORIZON_BAND_SINE!r} * (1.0 + {SUN_SIDE_REACH!r} * sun.z * max(facing, 0.0));
    float t = clamp(sine / reach, 0.0, 1.0);
    return mix(horizon, zenith, t * t * (3.0 - 2.0 * t));
}}
"""
"""`sky_gradient` in GLSL (`horizon`, `zenith` RGB; `sun` = heading x, z, glow): the dome and the section
shader both use it, so the land fades into exactly the sky behind it."""


def sun_heading(day_time: float) -> tuple[float, float]:
    """The unit horizontal direction (Ursina's x, z: physics X mirrored) toward the sun, for the glow
    on the sun's side; (0, 0) when the sun is straight overhead or underfoot."""
    dx, _, dz = sun_direction(day_time)
    length = math.hypot(dx, dz)
    return (0.0, 0.0) if length < 1e-9 else (-dx / length, dz / length)


BODY_SET_SINE = 0.05
"""[sine of the elevation] The sun and moon fade into the sky behind them over this band above the
horizon (about 3 degrees, a third of the moon's width). Below the horizon the world stands in front
of them: the drawn land, or past the fog's end the fog colour, which is what the sky is there; so
they are never drawn below it, and they sink into it without a hard edge. (Drawn at the far plane,
they used to show wherever no land was drawn: a pale square over the foggy horizon at sunrise.)"""


def body_seen(sine: float) -> float:
    """How much of the sun or moon shows in a direction whose elevation has `sine` (-1..1): 0 at and
    below the horizon, 1 from BODY_SET_SINE up, a smoothstep between. The body shader computes the
    same per pixel and blends the body into the sky's colour there (`body_color`).

    TypeError for a non-number; ValueError outside -1..1."""
    if isinstance(sine, bool) or not isinstance(sine, (int, float)):
        raise TypeError(f"sine is a number, got {sine!r}")
    if not -1.0 <= sine <= 1.0:
        raise ValueError(f"sine is in -1..1, got {sine!r}")
    t = min(max(sine / BODY_SET_SINE, 0.0), 1.0)
    return t * t * (3.0 - 2.0 * t)


def body_color(colors: SkyColors, body_rgb: tuple[float, float, float], sine: float,
               facing: float = 0.0) -> tuple[float, float, float]:
    """The colour drawn for a pixel of the sun or moon (`body_rgb`) whose direction has elevation `sine`
    and faces the sun by `facing`: the sky's colour there (`sky_gradient`) with `body_seen` of the body
    over it. At and below the horizon it is exactly the fog colour, as the land past the fog's end."""
    seen = body_seen(sine)
    behind = sky_gradient(colors, sine, facing)
    return tuple(b + (c - b) * seen for b, c in zip(behind, body_rgb))


FAR_CLIP_TILT_MARGIN_DEGREES = 5.0
"""[degrees] The far plane is worked out for the look pitch give or take this much: view bobbing tilts
the camera by a few degrees (Beta's cameraPitch and the step's swing stay under 3), and a plane a
little too far only costs the few sections it keeps."""


def far_clip(fog_end: float, eye_y: float, pitch_degrees: float = 0.0) -> float:
    """[blocks] The camera's far plane for fog by horizontal distance ending at `fog_end`, seen from an
    eye at height `eye_y` looking `pitch_degrees` down (Minecraft's pitch: positive looks down): the
    deepest point, along the view, of the land the fog still shows, a cylinder of radius `fog_end`
    from the world's floor (y 0) to its top. A point at horizontal distance h and height dy from the
    eye lies h cos(pitch) + dy sin(pitch) deep, so the plane is at fog_end cos(pitch) plus the height
    below the eye (looking down) or above it (looking up) times |sin(pitch)|: looking level it is the
    fog's end, as with eye-distance fog, and flying high and looking down it reaches the ground."""
    for name, value in (("fog_end", fog_end), ("eye_y", eye_y), ("pitch_degrees", pitch_degrees)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"{name} is a finite number, got {value!r}")
    if fog_end <= 0.0:
        raise ValueError(f"fog_end is positive, got {fog_end!r}")
    below, above = max(eye_y, 0.0), max(WORLD_HEIGHT - eye_y, 0.0)
    deepest = 0.0
    for tilt in (-FAR_CLIP_TILT_MARGIN_DEGREES, 0.0, FAR_CLIP_TILT_MARGIN_DEGREES):
        pitch = math.radians(min(max(pitch_degrees + tilt, -90.0), 90.0))
        vertical = below if pitch > 0.0 else above
        deepest = max(deepest, fog_end * math.cos(pitch) + vertical * abs(math.sin(pitch)))
    return deepest


# --- on screen ----------------------------------------------------------------------------------------

SUN_DISTANCE = 40.0
"""[blocks] How far from the eye the sun and moon quads sit: inside the far clip at any view distance
(their shader puts them at the far plane, behind everything, so the distance only sets their size)."""
SUN_SIZE = 8.0
MOON_SIZE = 6.0
"""[blocks] Quad sizes at SUN_DISTANCE: about Beta's apparent sizes (the sun a little larger)."""
SUN_RGB = (1.0, 0.95, 0.7)
MOON_RGB = (0.85, 0.88, 0.95)


DOME_RADIUS = 30.0
"""[blocks] The sky dome's radius around the eye: it is drawn first, behind everything, without depth,
so the radius only has to be inside the far clip."""
SKY_BIN = "sky"
SKY_BIN_SORT = 25
"""Panda3D's cull bin for the dome, sun and moon: drawn after the opaque land (bin sort 20) and
before the see-through land and the clouds (30), in a fixed order. Drawn after the land at the far
plane, they shade only the pixels the land left empty (about half of the screen's pixels, which
would otherwise be shaded twice)."""
DOME_SORT = 0
SUN_SORT = 1
"""The order inside the sky bin: the dome, then the sun and moon over it."""
FAR_DEPTH = 0.999999
"""The dome's, sun's and moon's depth (clip-space z / w): behind everything the land draws, still in
front of the cleared depth (1.0), so the depth test keeps them wherever the land is."""
SKY_HORIZON_INPUT = "sky_horizon"
SKY_ZENITH_INPUT = "sky_zenith"
SKY_SUN_INPUT = "sky_sun"
"""Names of the gradient's shader inputs: the horizon (fog) colour and the zenith colour (vec4, RGB
used), and (the sun's heading x, z, the glow, 0). The section shader reads the last two by the same
names; its horizon is its fog colour."""

DOME_VERTEX_SOURCE = """#version 130
uniform mat4 p3d_ModelViewProjectionMatrix;
uniform vec4 sky_horizon;
uniform vec4 sky_zenith;
uniform vec4 sky_sun;  // the sun's heading x, z; the glow
in vec4 p3d_Vertex;
out vec3 color;
const float FAR_DEPTH = """ + repr(FAR_DEPTH) + """;
""" + SKY_GRADIENT_GLSL + """
void main() {
    gl_Position = p3d_ModelViewProjectionMatrix * p3d_Vertex;
    gl_Position.z = gl_Position.w * FAR_DEPTH;
    vec3 toward = p3d_Vertex.xyz;  // a unit dome centred on the eye that never turns: world axes, y up
    float horizontal = length(toward.xz);
    float facing = dot(toward.xz, sky_sun.xy) / max(horizontal, 1e-4);
    color = sky_gradient(sky_horizon.rgb, sky_zenith.rgb, sky_sun, toward.y, facing);
}
"""

DOME_FRAGMENT_SOURCE = """#version 130
in vec3 color;
out vec4 fragment_color;

void main() {
    fragment_color = vec4(color, 1.0);
}
"""

BODY_VERTEX_SOURCE = """#version 130
uniform mat4 p3d_ModelViewProjectionMatrix;
uniform mat4 p3d_ModelViewMatrix;
uniform mat4 p3d_ViewMatrix;
uniform vec4 sky_sun;  // the sun's heading x, z; the glow
in vec4 p3d_Vertex;
out float sine;  // of the elevation of the direction from the eye
out float facing;  // the cosine of its horizontal angle to the sun

void main() {
    gl_Position = p3d_ModelViewProjectionMatrix * p3d_Vertex;
    gl_Position.z = gl_Position.w * """ + repr(FAR_DEPTH) + """;  // at the far plane, as the dome
    vec3 seen_from_eye = (p3d_ModelViewMatrix * p3d_Vertex).xyz;  // view axes
    float distance = max(length(seen_from_eye), 1e-4);
    float height = dot(seen_from_eye, p3d_ViewMatrix[1].xyz);  // along the world's up (+y) in view axes
    sine = height / distance;
    float horizontal = sqrt(max(distance * distance - height * height, 0.0));
    vec3 sun = mat3(p3d_ViewMatrix) * vec3(sky_sun.x, 0.0, sky_sun.y);
    facing = clamp(dot(seen_from_eye, sun) / max(horizontal, 1e-4), -1.0, 1.0);
}
"""

BODY_FRAGMENT_SOURCE = """#version 130
uniform vec4 p3d_ColorScale;
uniform vec4 sky_horizon;
uniform vec4 sky_zenith;
uniform vec4 sky_sun;
in float sine;
in float facing;
out vec4 fragment_color;
const float BODY_SET_SINE = """ + repr(BODY_SET_SINE) + """;
""" + SKY_GRADIENT_GLSL + """
void main() {
    float t = clamp(sine / BODY_SET_SINE, 0.0, 1.0);  // body_seen: none at and below the horizon
    float seen = t * t * (3.0 - 2.0 * t);
    vec3 behind = sky_gradient(sky_horizon.rgb, sky_zenith.rgb, sky_sun, sine, facing);
    fragment_color = vec4(mix(behind, p3d_ColorScale.rgb, seen), 1.0);
}
"""
"""The sun's and moon's shader: their flat colour (Ursina's `color` is the node's colour scale), at the
far plane, set into the sky's colour at the horizon (`body_color`)."""

DOME_ELEVATIONS = (0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0, 18.0, 20.0, 22.0, 24.0, 30.0, 40.0, 50.0, 60.0,
                   70.0, 80.0)
"""[degrees] The dome mesh's rings of latitude, the zenith above the last: the gradient is worked out
per vertex (the pixels only blend it), so the rings are 2 degrees apart over the horizon band
(HORIZON_BAND_SINE, about 24 degrees), where the linear blend then stays within a third of an 8-bit
level of the exact gradient, and wider above it, where only the sunset glow's reach still changes."""
DOME_SEGMENTS = 32
"""Segments around the dome: 11.25 degrees apart, enough for the glow's smooth turn toward the sun."""


def _dome_mesh():
    """A unit half sphere over the horizon (the eye at its centre). Below the horizon the sky is the fog
    colour, which is the clear colour, so nothing is drawn there."""
    from ursina import Mesh

    vertices = [(0.0, 1.0, 0.0)]  # the zenith
    for degrees in DOME_ELEVATIONS:
        elevation = math.radians(degrees)
        for segment in range(DOME_SEGMENTS):
            heading = segment / DOME_SEGMENTS * 2.0 * math.pi
            vertices.append((math.cos(elevation) * math.cos(heading), math.sin(elevation),
                             math.cos(elevation) * math.sin(heading)))
    rings = len(DOME_ELEVATIONS)
    triangles = []
    for ring in range(rings):
        for segment in range(DOME_SEGMENTS):
            a = 1 + ring * DOME_SEGMENTS + segment
            b = 1 + ring * DOME_SEGMENTS + (segment + 1) % DOME_SEGMENTS
            if ring == rings - 1:
                triangles.append((a, b, 0))
            else:
                triangles.append((a, b, b + DOME_SEGMENTS))
                triangles.append((a, b + DOME_SEGMENTS, a + DOME_SEGMENTS))
    return Mesh(vertices=vertices, triangles=triangles, static=True)


class Sky:
    """The sky dome (the gradient from the fog colour at the horizon to the zenith) and the sun and
    moon: three nodes that follow the eye, placed by `show(day_time, eye)` each frame and coloured
    by `paint(colors, heading)` when the time of day changes (shader inputs only)."""

    def __init__(self) -> None:
        from panda3d.core import CullBinManager, Shader, TransparencyAttrib

        from .window import OVER_URSINA_PRIORITY
        from ursina import Entity, color

        bins = CullBinManager.get_global_ptr()
        if bins.find_bin(SKY_BIN) < 0:
            bins.add_bin(SKY_BIN, CullBinManager.BT_fixed, SKY_BIN_SORT)
        self.dome = Entity(model=_dome_mesh(), scale=DOME_RADIUS, add_to_scene_entities=False)
        self.dome.setShader(Shader.make(Shader.SL_GLSL, DOME_VERTEX_SOURCE, DOME_FRAGMENT_SOURCE))
        self.dome.set_two_sided(True)  # seen from inside
        self.dome.set_bin(SKY_BIN, DOME_SORT)
        self.sun = Entity(model="quad", color=color.rgb(*SUN_RGB), scale=SUN_SIZE, billboard=True,
                          add_to_scene_entities=False)
        self.moon = Entity(model="quad", color=color.rgb(*MOON_RGB), scale=MOON_SIZE, billboard=True,
                           add_to_scene_entities=False)
        body_shader = Shader.make(Shader.SL_GLSL, BODY_VERTEX_SOURCE, BODY_FRAGMENT_SOURCE)
        for body in (self.sun, self.moon):
            body.setShader(body_shader)
            body.set_two_sided(True)
            body.set_bin(SKY_BIN, SUN_SORT)  # over the dome; the land, nearer than the far plane, covers it
        for body in (self.dome, self.sun, self.moon):
            body.set_depth_write(False)
            body.set_fog_off()
            body.set_light_off()
            # Opaque, over the two-pass M_dual Ursina gives the model (`game.window.render.window.single_pass_ui`).
            body.set_transparency(TransparencyAttrib.M_none, OVER_URSINA_PRIORITY)
        self.paint(sky_colors(0), (0.0, 0.0))

    def paint(self, colors: SkyColors, heading: tuple[float, float]) -> None:
        """Colour the dome for `colors` (`sky_colors`) with the sun's horizontal `heading` (`sun_heading`);
        the sun and moon set into the same gradient at the horizon."""
        for node in (self.dome, self.sun, self.moon):
            node.set_shader_input(SKY_HORIZON_INPUT, (*colors.sky, 1.0))
            node.set_shader_input(SKY_ZENITH_INPUT, (*colors.zenith, 1.0))
            node.set_shader_input(SKY_SUN_INPUT, (heading[0], heading[1], colors.glow, 0.0))

    def show(self, day_time: float, eye: tuple[float, float, float], visible: bool = True) -> None:
        """Place the dome, sun and moon for `day_time` around `eye` (Ursina coordinates); hide all three
        when not `visible` (the eye in a fluid: its fog is the whole view)."""
        dx, dy, dz = sun_direction(day_time)
        ex, ey, ez = eye
        self.dome.enabled = self.sun.enabled = self.moon.enabled = visible
        self.dome.position = eye
        self.sun.position = (ex - dx * SUN_DISTANCE, ey + dy * SUN_DISTANCE, ez + dz * SUN_DISTANCE)  # X mirrored
        self.moon.position = (ex + dx * SUN_DISTANCE, ey - dy * SUN_DISTANCE, ez - dz * SUN_DISTANCE)

    def destroy(self) -> None:
        """Remove the dome, sun and moon when their world is left; a second call does nothing."""
        from ursina import destroy

        for body in (self.dome, self.sun, self.moon):
            if body is not None:
                destroy(body)
        self.dome = self.sun = self.moon = None
