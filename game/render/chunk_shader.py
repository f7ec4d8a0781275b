"""The GLSL shader that draws section meshes: Beta's light levels to brightness, the time of day, fog.

Owns: the shader's source and `chunk_shader()`, the Panda3D shader object. What it reads from each
vertex (`game.render.chunk_renderer.vertex_colors` packs it into the colour column): red = face
shade x AO brightness, green = sky light / 15, blue = block light / 15, alpha = 1. What it reads per
frame: the `daylight` input (0..1, `game.render.sky.daylight`), Panda3D's texture and colour scale,
and the fog as `fog_color` and `fog_params` (start, end, density: linear between start and end when
end > start, else exponential by density, 0 for none), which the renderer copies from Ursina's
`scene.fog_color` and `scene.fog_density` (Panda3D's own `p3d_Fog` does not say which kind of fog
is on, and Ursina always has one).
Per vertex: level = max(sky x 15 x daylight, block x 15), brightness = Beta's lightBrightnessTable
formula of that level (`game.render.sky.brightness`) times the shade; the fragment multiplies the
texel by it and fades to the fog colour between the fog's start and end (eye distance). So a change
of the time of day is one shader input, never a re-mesh.
Does not own: the light levels (the mesher), the time of day (the session), the fog range (`game.app`).

GLSL 1.30 with Panda3D's p3d_ inputs, as Ursina's own shaders: it runs on llvmpipe (Mesa's
software OpenGL), where the tests and benchmarks draw.
"""

from __future__ import annotations

from panda3d.core import Shader

DAYLIGHT_INPUT = "daylight"
"""Name of the shader input holding the daylight fraction (0..1)."""
FULL_DAYLIGHT = 1.0
TEXTURE_SCALE_INPUT = "texture_scale"
"""Name of the shader input that scales atlas UVs: Panda3D pads a texture whose sides are not equal
(textures-auto-power-2, as Ursina configures it) and only the fixed-function pipeline corrects the
UVs for that; `Texture.get_tex_scale()` is the factor."""
FOG_COLOR_INPUT = "fog_color"
FOG_PARAMS_INPUT = "fog_params"
NO_FOG = (0.0, 0.0, 0.0)
"""fog_params of no fog: exponential with density 0."""

VERTEX_SOURCE = """#version 130
uniform mat4 p3d_ModelViewProjectionMatrix;
uniform mat4 p3d_ModelViewMatrix;
uniform float daylight;
uniform vec2 texture_scale;
in vec4 p3d_Vertex;
in vec4 p3d_Color;
in vec2 p3d_MultiTexCoord0;
out vec2 texcoord;
out float shade;
out float eye_distance;

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
    eye_distance = length((p3d_ModelViewMatrix * p3d_Vertex).xyz);
}
"""

FRAGMENT_SOURCE = """#version 130
uniform sampler2D p3d_Texture0;
uniform vec4 p3d_ColorScale;
uniform vec4 fog_color;
uniform vec3 fog_params;  // start, end, density
in vec2 texcoord;
in float shade;
in float eye_distance;
out vec4 fragment_color;

void main() {
    vec4 texel = texture(p3d_Texture0, texcoord);
    vec4 lit = vec4(texel.rgb * shade, texel.a) * p3d_ColorScale;
    float seen;
    if (fog_params.y > fog_params.x) {
        seen = clamp((fog_params.y - eye_distance) / (fog_params.y - fog_params.x), 0.0, 1.0);
    } else {
        seen = exp(-fog_params.z * eye_distance);
    }
    fragment_color = vec4(mix(fog_color.rgb, lit.rgb, seen), lit.a);
}
"""


def chunk_shader() -> Shader:
    """The section shader (compiled by Panda3D when first drawn)."""
    return Shader.make(Shader.SL_GLSL, VERTEX_SOURCE, FRAGMENT_SOURCE)
