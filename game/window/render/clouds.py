"""Beta's "fast" clouds: one flat, translucent layer at the cloud height, drifting with the ticks.

Owns: the cloud pattern (`cloud_mask`: a 256 x 256 mask of blotches from seeded, tileable value
noise, the same bits on every machine), the layer's height, texel size and drift (Beta's
RenderGlobal.renderClouds for "fast" clouds: a 256-pixel texture over 2,048 blocks, at the world
provider's cloud height 108 plus 0.33, moving 0.03 blocks a tick toward -X), where the pattern sits
for an eye and a tick (`pattern_offset`), the clouds' colour by time of day (`cloud_color`, Beta's
getCloudColour), and `Clouds`, the one node that draws the layer around the eye: a big quad whose
shader reads the pattern at the fragment's world position, so each frame sets only the node's
position and one offset input, and fades it out by horizontal distance as the land's fog does.
Does not own: the time of day (the session), the fog's range (`game.window.app`), the sky behind the
clouds (`game.window.render.sky`).

Coordinates: the pattern is laid out in Ursina's axes (physics X mirrored, `game.window.render.space`):
`pattern_offset` takes the eye in Ursina coordinates. The pure functions need no Ursina.
"""

from __future__ import annotations

import math

import numpy as np

from .sky import sun_height

CLOUD_HEIGHT = 108.0
"""[blocks] Beta 1.7.3's WorldProvider.getCloudHeight for the overworld."""
CLOUD_LIFT = 0.33
"""[blocks] Beta draws the fast cloud layer this far above the cloud height."""
CLOUD_Y = CLOUD_HEIGHT + CLOUD_LIFT
"""[blocks] The height of the drawn layer."""
MASK_SIZE = 256
"""[texels] Side of the cloud pattern (Beta's clouds.png is 256 x 256)."""
BLOCKS_PER_TEXEL = 8.0
"""[blocks] Beta's fast clouds map the 256-pixel texture onto 2,048 blocks (UV 1/2048 per block)."""
PATTERN_PERIOD = MASK_SIZE * BLOCKS_PER_TEXEL
"""[blocks] The pattern repeats every 2,048 blocks along X and Z."""
DRIFT_PER_TICK = 0.03
"""[blocks per tick] Beta moves the clouds by 0.03 blocks each tick (cloudOffsetX x 0.03), along
Minecraft's -X: Ursina's +x, as Ursina mirrors X."""
CLOUD_ALPHA = 0.8
"""Beta draws the clouds at 80 % opacity: the sky shows faintly through them."""
CLOUD_COVER = 0.4
"""The fraction of the pattern that is cloud: Beta's clouds.png is a little under half cloud."""
NIGHT_CLOUD_FLOOR = (0.1, 0.1, 0.15)
"""Beta's getCloudColour at night (r, g x (f x 0.9 + 0.1), b x (f x 0.85 + 0.15)): dark grey-blue."""
LAYER_RADIUS = 544.0
"""[blocks] Half the side of the drawn quad: beyond the fog end at the largest view distance (31
columns = 496 blocks), so the fog, not the quad's edge, is where the clouds end."""
NOISE_OCTAVES = ((32, 0.6), (64, 0.3), (128, 0.1))
"""(lattice cells across the pattern, weight): blotches about 8 texels (64 blocks) across, smaller
lumps on them, ragged edges, as Beta's clouds.png. Each lattice divides 256, so the pattern tiles
without a seam."""
DEFAULT_SEED = 1


def _check_int(name: str, value: object, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name} is a whole number >= {low}, got {value!r}")
    return int(value)


def _tiled_value_noise(rng: np.random.Generator, size: int, cells: int) -> np.ndarray:
    """(size, size) float64 in 0..1: random values on a `cells` x `cells` lattice that wraps around,
    blended between lattice points with a smoothstep (so it tiles)."""
    lattice = rng.random((cells, cells))
    position = np.arange(size) * (cells / size)
    index = np.floor(position).astype(np.int64)
    fraction = position - index
    weight = fraction * fraction * (3.0 - 2.0 * fraction)
    i0, i1 = index % cells, (index + 1) % cells
    rows = lattice[i0] * (1.0 - weight)[:, None] + lattice[i1] * weight[:, None]  # blend along the first axis
    return rows[:, i0] * (1.0 - weight)[None, :] + rows[:, i1] * weight[None, :]


def cloud_mask(seed: int = DEFAULT_SEED, size: int = MASK_SIZE, cover: float = CLOUD_COVER) -> np.ndarray:
    """(size, size) bool: True where there is cloud. Blotches from seeded value noise (NOISE_OCTAVES),
    cut at the level that leaves `cover` of the pattern cloudy; the same bits on every machine for a
    seed, and it tiles (its left edge continues its right, its top its bottom).

    ValueError for a seed < 0, a size that the lattices do not divide, or a cover outside (0, 1)."""
    _check_int("seed", seed, 0)
    _check_int("size", size, 1)
    if any(size % cells for cells, _ in NOISE_OCTAVES):
        raise ValueError(f"size must be a multiple of {max(c for c, _ in NOISE_OCTAVES)}, got {size!r}")
    if isinstance(cover, bool) or not isinstance(cover, (int, float)) or not 0.0 < cover < 1.0:
        raise ValueError(f"cover is a fraction in (0, 1), got {cover!r}")
    rng = np.random.default_rng(seed)
    field = sum(weight * _tiled_value_noise(rng, size, cells) for cells, weight in NOISE_OCTAVES)
    level = np.sort(field, axis=None)[round((1.0 - cover) * (field.size - 1))]
    return field > level


def drift(ticks: float) -> float:
    """[blocks] How far the pattern has moved along Ursina's +x after `ticks` (fractions allowed)."""
    if isinstance(ticks, bool) or not isinstance(ticks, (int, float)) or not math.isfinite(ticks):
        raise ValueError(f"ticks is a finite number, got {ticks!r}")
    return ticks * DRIFT_PER_TICK


def pattern_offset(eye_x: float, eye_z: float, ticks: float) -> tuple[float, float]:
    """[blocks, 0..PATTERN_PERIOD] Where in the pattern the point straight above the eye is (Ursina
    x, z): the eye's position less the drift, wrapped to one period, so the shader's numbers stay
    small however far the player travels. A point `d` blocks from the eye reads the pattern at
    offset + d."""
    for name, value in (("eye_x", eye_x), ("eye_z", eye_z)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"{name} is a finite number of blocks, got {value!r}")
    return ((eye_x - drift(ticks)) % PATTERN_PERIOD, eye_z % PATTERN_PERIOD)


def texel_at(x: float, z: float, ticks: float) -> tuple[int, int]:
    """(column, row) of the pattern texel over world point (x, z) (Ursina axes) after `ticks`: what the
    shader samples there (nearest filtering)."""
    u, v = pattern_offset(x, z, ticks)
    return (int(u // BLOCKS_PER_TEXEL) % MASK_SIZE, int(v // BLOCKS_PER_TEXEL) % MASK_SIZE)


def cloud_color(day_time: float) -> tuple[float, float, float, float]:
    """The clouds' RGBA at `day_time` [ticks]: Beta's getCloudColour, white by day darkening with the sun's
    height to NIGHT_CLOUD_FLOOR at night, at CLOUD_ALPHA."""
    height = sun_height(day_time)
    r, g, b = (height * (1.0 - floor) + floor for floor in NIGHT_CLOUD_FLOOR)
    return (r, g, b, CLOUD_ALPHA)


def fog_seen(horizontal: float, start: float, end: float) -> float:
    """How much of the clouds is left at `horizontal` blocks from the eye (1 near, 0 past the fog's
    end): the same linear ramp as the land's fog; the clouds fade out (alpha) instead of turning to
    the fog colour, so they melt into whatever sky is behind them."""
    if not 0.0 <= start < end:
        raise ValueError(f"the fog is 0 <= start < end, got {start!r}, {end!r}")
    return min(max((end - horizontal) / (end - start), 0.0), 1.0)


# --- on screen ----------------------------------------------------------------------------------------

OFFSET_INPUT = "cloud_offset"
COLOR_INPUT = "cloud_color"
FOG_INPUT = "cloud_fog"
CLOUD_SORT = 5
"""Draw order in the transparent bin: the layer is one node, drawn after the opaque land and the
sky and before the see-through sections that sort after it by distance."""

VERTEX_SOURCE = """#version 130
uniform mat4 p3d_ModelViewProjectionMatrix;
uniform vec2 cloud_offset;
in vec4 p3d_Vertex;
out vec2 texcoord;
out vec2 local;

void main() {
    gl_Position = p3d_ModelViewProjectionMatrix * p3d_Vertex;
    local = p3d_Vertex.xz;  // the quad is centred on the eye, flat, unturned: blocks from the eye
    texcoord = (cloud_offset + local) / %(period)r;
}
""" % {"period": PATTERN_PERIOD}

FRAGMENT_SOURCE = """#version 130
uniform sampler2D p3d_Texture0;
uniform vec4 cloud_color;
uniform vec2 cloud_fog;  // start, end [blocks, horizontal]
in vec2 texcoord;
in vec2 local;
out vec4 fragment_color;

void main() {
    float cloud = texture(p3d_Texture0, texcoord).a;
    float horizontal = length(local);  // per fragment: a length does not interpolate across the big quad
    float seen = clamp((cloud_fog.y - horizontal) / (cloud_fog.y - cloud_fog.x), 0.0, 1.0);
    fragment_color = vec4(cloud_color.rgb, cloud_color.a * cloud * seen);
}
"""


def _layer_mesh():
    from ursina import Mesh

    r = LAYER_RADIUS
    return Mesh(vertices=[(-r, 0.0, -r), (r, 0.0, -r), (r, 0.0, r), (-r, 0.0, r)],
                triangles=[(0, 1, 2), (0, 2, 3)], static=True)


def _mask_texture(mask: np.ndarray):
    from panda3d.core import SamplerState, Texture as PandaTexture

    texture = PandaTexture("clouds")
    texture.setup_2d_texture(mask.shape[1], mask.shape[0], PandaTexture.T_unsigned_byte, PandaTexture.F_rgba8)
    rgba = np.full(mask.shape + (4,), 255, dtype=np.uint8)
    rgba[..., 3] = np.where(mask, 255, 0)
    texture.set_ram_image(np.ascontiguousarray(rgba[::-1]).tobytes())  # Panda3D's rows start at the bottom
    texture.set_magfilter(SamplerState.FT_nearest)  # Beta's square cloud cells
    texture.set_minfilter(SamplerState.FT_linear)
    texture.set_wrap_u(SamplerState.WM_repeat)
    texture.set_wrap_v(SamplerState.WM_repeat)
    return texture


class Clouds:
    """The cloud layer: one node kept over the eye at CLOUD_Y. `show(eye, ticks)` every frame (position
    and the pattern offset), `paint(day_time)` when the time changes, `set_fog(start, end)` when the
    fog does."""

    def __init__(self, seed: int = DEFAULT_SEED) -> None:
        from panda3d.core import Shader, TransparencyAttrib
        from ursina import Entity

        from .window import OVER_URSINA_PRIORITY

        self.node = Entity(model=_layer_mesh(), add_to_scene_entities=False)
        self.texture = _mask_texture(cloud_mask(seed))
        """The pattern, a Panda3D texture set on the node as it is: wrapped in Ursina's `Texture`, a
        Panda3D texture makes a half-built object (Ursina sets `_cached_image` only for files and
        images), whose `__del__` printed an AttributeError each time a world's clouds were freed."""
        self.node.set_texture(self.texture, 1)
        self.node.setShader(Shader.make(Shader.SL_GLSL, VERTEX_SOURCE, FRAGMENT_SOURCE))
        self.node.set_two_sided(True)  # seen from below and, flying higher, from above
        self.node.set_transparency(TransparencyAttrib.M_alpha, OVER_URSINA_PRIORITY)  # one pass, not M_dual's two
        self.node.set_bin("transparent", CLOUD_SORT)
        self.node.set_depth_write(False)
        self.node.set_fog_off()
        self.node.set_light_off()
        self.node.set_shader_input(OFFSET_INPUT, (0.0, 0.0))
        self.node.set_shader_input(FOG_INPUT, (0.0, LAYER_RADIUS))
        self.paint(0)

    def paint(self, day_time: float) -> None:
        """Tint the clouds for `day_time` [ticks] (`cloud_color`)."""
        self.node.set_shader_input(COLOR_INPUT, cloud_color(day_time))

    def set_fog(self, start: float, end: float) -> None:
        """[blocks] Fade the clouds out between `start` and `end` horizontal blocks from the eye."""
        fog_seen(0.0, start, end)  # checks the range
        self.node.set_shader_input(FOG_INPUT, (float(start), float(end)))

    def show(self, eye: tuple[float, float, float], ticks: float, visible: bool = True) -> None:
        """Keep the layer over `eye` (Ursina coordinates) with the pattern drifted by `ticks`; hidden when
        not `visible`."""
        self.node.enabled = visible
        if not visible:
            return
        x, _, z = eye
        self.node.position = (x, CLOUD_Y, z)
        self.node.set_shader_input(OFFSET_INPUT, pattern_offset(x, z, ticks))

    def destroy(self) -> None:
        """Remove the layer when its world is left; a second call does nothing."""
        from ursina import destroy

        if self.node is not None:
            destroy(self.node)
            self.node = None
