"""The GLSL shader that draws section meshes: Beta's light levels to brightness, the time of day, fog.

Owns: the shader's source and `chunk_shader()`, the Panda3D shader object. What it reads from each
vertex (`game.window.render.mesh_jobs.vertex_colors` packs it into the colour column): red = face
shade x AO brightness, green = sky light / 15, blue = block light / 15, alpha = 1. What it reads per
frame: the `daylight` input (0..1, `game.window.render.sky.daylight`), Panda3D's texture and colour scale,
the fog as `fog_color` and `fog_params` (start, end, density, kind: linear between start and end
when end > start, else exponential by density, 0 for none; kind 1 is the sky's fog, by horizontal
distance and into the sky gradient, kind 0 the fluids' fog, by eye distance into `fog_color`),
which the renderer copies from Ursina's `scene.fog_color` and `scene.fog_density` (Panda3D's own
`p3d_Fog` does not say which kind of fog is on, and Ursina always has one), and the gradient's
`sky_zenith` (RGB) and `sky_sun` (the sun's horizontal heading x, z and the glow strength).
Per vertex: level = max(sky x 15 x daylight, block x 15), brightness = Beta's lightBrightnessTable
formula of that level (`game.window.render.sky.brightness`) times the shade; how much of the land the fog
leaves (1 before its start, 0 past its end) and the colour it fades into: the sky's colour in the
vertex's direction from the eye (`SKY_GRADIENT_GLSL`: the fog colour at and below the horizon), so
land fading out never shows a seam against the sky behind it. Both vary linearly across a face of
a block or less, so the fragment only blends: texel x brightness x seen + colour x (1 - seen). So a
change of the time of day is a few shader inputs, never a re-mesh.
The sky's fog is by horizontal distance (x and z only) because the drawn land is a disc of columns:
its edge is as far at every height of the eye, so the fog that ends one column inside it hides it
whether the player stands on the ground or flies far above.
Does not own: the light levels (the mesher), the time of day (the session), the fog range (`game.window.app`),
the gradient's colours and formula (`game.window.render.sky.sky_colors`, `SKY_GRADIENT_GLSL`).

Packed vertices (`chunk_shader(compact=True)`, `game.world.meshing_merge`): the same light, shade and
fog, read from the `light` column (shade code direction x 4 + AO level, whose brightness is worked
out as the same float32 product FACE_SHADE x AO_BRIGHTNESS the mesher uses; sky and block level x
LEVEL_UNITS; the tile, whose atlas rectangle is worked out from the atlas grid) and the `tile_uv`
column (UV in 1/UV_UNITS tiles); the fragment shader maps fract(UV) into the tile's rectangle, so
a merged quad w tiles wide shows its tile w times, each copy exactly as a face of its own would (nearest filtering, no mipmaps: fract's jump at a tile's edge costs
nothing).

GLSL 1.30 with Panda3D's p3d_ inputs, as Ursina's own shaders: it runs on llvmpipe (Mesa's
software OpenGL), where the tests and benchmarks draw.
"""

from __future__ import annotations

import numpy as np
from panda3d.core import Shader

from .sky import SKY_GRADIENT_GLSL
from ...world import atlas
from ...world.meshing import AO_BRIGHTNESS, FACE_SHADE
from ...world.meshing_merge import LEVEL_UNITS, UV_UNITS

DAYLIGHT_INPUT = "daylight"
"""Name of the shader input holding the daylight fraction (0..1)."""
FULL_DAYLIGHT = 1.0
TEXTURE_SCALE_INPUT = "texture_scale"
"""Name of the shader input that scales atlas UVs: Panda3D pads a texture whose sides are not equal
(textures-auto-power-2, as Ursina configures it) and only the fixed-function pipeline corrects the
UVs for that; `Texture.get_tex_scale()` is the factor."""
FOG_COLOR_INPUT = "fog_color"
FOG_PARAMS_INPUT = "fog_params"
NO_FOG = (0.0, 0.0, 0.0, 0.0)
"""fog_params of no fog: exponential with density 0."""
EYE_FOG = 0.0
SKY_FOG = 1.0
"""fog_params' kind: by eye distance into the fog colour (fluids), or by horizontal distance into the
sky gradient (the open air)."""

VERTEX_SOURCE = """#version 130
uniform mat4 p3d_ModelViewProjectionMatrix;
uniform mat4 p3d_ModelViewMatrix;
uniform mat4 p3d_ViewMatrix;
uniform float daylight;
uniform vec2 texture_scale;
uniform vec4 fog_color;
uniform vec4 fog_params;  // start, end, density, kind (1: the sky's, 0: eye distance)
uniform vec4 sky_zenith;
uniform vec4 sky_sun;  // the sun's heading x, z; the glow
in vec4 p3d_Vertex;
in vec4 p3d_Color;
in vec2 p3d_MultiTexCoord0;
out vec2 texcoord;
out float shade;
out vec4 fog;  // rgb: the colour faded in (already times its share), a: how much of the land is seen
""" + SKY_GRADIENT_GLSL + """
// Beta's lightBrightnessTable: b = 1 - level / 15, (1 - b) / (3 b + 1) * 0.95 + 0.05.
float brightness(float level) {
    float dark = 1.0 - level / 15.0;
    return (1.0 - dark) / (dark * 3.0 + 1.0) * 0.95 + 0.05;
}

void main() {
    gl_Position = p3d_ModelViewProjectionMatrix * p3d_Vertex;
    texcoord = p3d_MultiTexCoord0 * texture_scale;
    float level = max(p3d_Color.g * 15.0 * daylight, p3d_Color.b * 15.0);
    shade = p3d_Color.r * brightness(level);
    vec3 seen_from_eye = (p3d_ModelViewMatrix * p3d_Vertex).xyz;  // view axes
    float eye_distance = length(seen_from_eye);
    float distance = eye_distance;
    vec3 far_color = fog_color.rgb;
    if (fog_params.w > 0.5) {
        float height = dot(seen_from_eye, p3d_ViewMatrix[1].xyz);  // along the world's up (+y) in view axes
        float horizontal = sqrt(max(eye_distance * eye_distance - height * height, 0.0));
        float facing = 0.0;
        if (sky_sun.z > 0.0) {  // the sunset glow's side: the sun's heading turned into view axes
            vec3 sun = mat3(p3d_ViewMatrix) * vec3(sky_sun.x, 0.0, sky_sun.y);
            facing = dot(seen_from_eye, sun) / max(horizontal, 1e-4);
        }
        distance = horizontal;
        far_color = sky_gradient(fog_color.rgb, sky_zenith.rgb, sky_sun, height / max(eye_distance, 1e-4), facing);
    }
    float seen;
    if (fog_params.y > fog_params.x) {
        seen = clamp((fog_params.y - distance) / (fog_params.y - fog_params.x), 0.0, 1.0);
    } else {
        seen = exp(-fog_params.z * distance);
    }
    fog = vec4(far_color * (1.0 - seen), seen);
}
"""

CUTOUT_ALPHA = 0.5
"""Texels of a cut-out tile (leaves, ladders, plants) below this alpha are not drawn: their alphas
are 0 or 1, and halfway keeps that true of texels the sampler blends at a tile's edge."""

FRAGMENT_SOURCE = """#version 130
uniform sampler2D p3d_Texture0;
uniform vec4 p3d_ColorScale;
in vec2 texcoord;
in float shade;
in vec4 fog;
out vec4 fragment_color;

void main() {
    vec4 texel = texture(p3d_Texture0, texcoord);
#ifdef CUTOUT
    if (texel.a < CUTOUT_ALPHA) {
        discard;
    }
#endif
    vec4 lit = vec4(texel.rgb * shade, texel.a) * p3d_ColorScale;
    fragment_color = vec4(lit.rgb * fog.a + fog.rgb, lit.a);
}
"""


def _glsl_floats(values) -> str:
    """GLSL literals that parse back to exactly these float32 values."""
    return ", ".join(repr(float(np.float32(value))) for value in values)


def _select(variable: str, values) -> str:
    """A GLSL expression: values[variable] for a whole-number float `variable`, as a chain of selects
    (llvmpipe turns a dynamically indexed constant array into far slower code)."""
    expression = _glsl_floats(values[-1:])
    for index in range(len(values) - 2, -1, -1):
        expression = f"({variable} < {index + 0.5} ? {_glsl_floats(values[index:index + 1])} : {expression})"
    return expression


def _compact_sources() -> tuple[str, str]:
    """The vertex and fragment sources for packed vertices (`game.world.meshing_merge`): the same
    light, shade and fog as VERTEX_SOURCE, read from the packed columns, and the tile repeated
    across a merged quad in the fragment shader."""
    face_shade, ao_brightness = FACE_SHADE, AO_BRIGHTNESS
    atlas_size = (float(atlas.ATLAS_WIDTH_PIXELS), float(atlas.ATLAS_HEIGHT_PIXELS))
    vertex = VERTEX_SOURCE.replace(
        "in vec4 p3d_Color;\nin vec2 p3d_MultiTexCoord0;\nout vec2 texcoord;\n",
        "in vec4 light;  // shade code (direction x 4 + AO level), sky and block level x LEVEL_UNITS, tile\n"
        "in vec2 tile_uv;  // u, v x UV_UNITS [tiles], stored one tile up (fract() does not see it)\n"
        "out vec2 local_uv;\nflat out vec4 tile_rect;  // the tile's u0, v0, u1, v1 in the atlas\n", 1).replace(
        "    texcoord = p3d_MultiTexCoord0 * texture_scale;\n"
        "    float level = max(p3d_Color.g * 15.0 * daylight, p3d_Color.b * 15.0);\n"
        "    shade = p3d_Color.r * brightness(level);\n",
        f"    local_uv = tile_uv.xy / {float(UV_UNITS)};\n"
        f"    float column = mod(light.w, {float(atlas.ATLAS_COLUMNS)});\n"
        f"    float row = floor(light.w / {float(atlas.ATLAS_COLUMNS)});\n"
        f"    vec2 top_left = vec2(column, row) * {float(atlas.CELL_PIXELS)} + {float(atlas.GUTTER_PIXELS)};\n"
        f"    tile_rect = vec4(top_left.x / {atlas_size[0]}, 1.0 - (top_left.y + {float(atlas.TILE_PIXELS)}) / "
        f"{atlas_size[1]}, (top_left.x + {float(atlas.TILE_PIXELS)}) / {atlas_size[0]}, "
        f"1.0 - top_left.y / {atlas_size[1]});\n"
        f"    float direction = floor(light.x / {float(len(ao_brightness))});\n"
        f"    float occlusion = light.x - direction * {float(len(ao_brightness))};\n"
        f"    float face_shade = {_select('direction', face_shade)} * {_select('occlusion', ao_brightness)};\n"
        f"    float level = max(light.y / {float(LEVEL_UNITS)} * daylight, light.z / {float(LEVEL_UNITS)});\n"
        "    shade = face_shade * brightness(level);\n", 1)
    fragment = FRAGMENT_SOURCE.replace(
        "in vec2 texcoord;\n",
        "uniform vec2 texture_scale;\nin vec2 local_uv;\nflat in vec4 tile_rect;\n", 1).replace(
        "    vec4 texel = texture(p3d_Texture0, texcoord);\n",
        "    // fract(): a merged quad's UVs run 0..w tiles, and each unit square shows the whole tile.\n"
        "    vec2 texcoord = (tile_rect.xy + fract(local_uv) * (tile_rect.zw - tile_rect.xy)) * texture_scale;\n"
        "    vec4 texel = texture(p3d_Texture0, texcoord);\n", 1)
    assert "p3d_Color" not in vertex and "fract" in fragment, "the packed shader's substitutions did not apply"
    return vertex, fragment


def chunk_shader(cutout: bool = False, compact: bool = False) -> Shader:
    """The section shader (compiled by Panda3D when first drawn); `cutout`: the cut-out pass's, which
    drops texels with alpha under CUTOUT_ALPHA (the others keep the fragment shader free of
    `discard`, which would cost software rasterisers their early depth test); `compact`: for packed
    vertices (`game.world.meshing_merge`), else for the float columns of `chunk_renderer.upload`."""
    vertex, fragment = _compact_sources() if compact else (VERTEX_SOURCE, FRAGMENT_SOURCE)
    if cutout:
        defines = f"#define CUTOUT\n#define CUTOUT_ALPHA {CUTOUT_ALPHA}\n"
        fragment = fragment.replace("#version 130\n", "#version 130\n" + defines, 1)
    return Shader.make(Shader.SL_GLSL, vertex, fragment)
