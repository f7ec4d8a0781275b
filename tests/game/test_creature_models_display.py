"""Beta's creatures drawn by `EntityView` in a real window (Xvfb): every kind standing side by side in daylight
on a grass floor, facing the camera, saved as docs/screenshots/creatures-lineup.png (with
BOXEL_DOCS_SCREENSHOTS set). Each model stands on its box and is exactly as tall as it, is drawn where its
box is, tints red when hurt, lies on its side when dead, loses its wool when sheared, swells when its fuse
burns, and puffs into smoke when a dying creature is gone; an arrow is a thin stick along its yaw and pitch.

The window runs in a subprocess of its own (`run_probe`: one Ursina app per process)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tests.game.conftest import DOCS_SCREENSHOTS_ENV, print_probe, run_probe

pytestmark = pytest.mark.display

SIZES = {"pig": (0.9, 0.9), "cow": (0.9, 1.3), "sheep": (0.9, 1.3), "chicken": (0.3, 0.4), "zombie": (0.6, 1.8),
         "skeleton": (0.6, 1.8), "spider": (1.4, 0.9), "creeper": (0.6, 1.8)}
"""[blocks] Beta's (width, height) of each kind's box (Entity*.setSize)."""
GAP = 0.9
"""[blocks] Between two models' boxes in the lineup (the spider's legs reach 0.5 past its box)."""
FLOOR_Y = 64.0
CAMERA = (0.0, 66.3, 11.0)
"""[blocks] The eye, south of the lineup's middle (the creatures face south, yaw 0)."""
LOOK = (180.0, 10.0)
"""[degrees] Yaw and pitch: north, a little down."""
WINDOW = (960, 400)
SKY_RGB = (140, 192, 236)
GRASS_RGB = (92, 150, 60)
FIT = 1e-3
"""[blocks] Bounds computed from the nodes match the box this closely (float32 vertices)."""
COLOUR_STEP = 1.0 / 255.0
"""Panda3D keeps a colour scale to about this step (0.6 reads back as 0.5996)."""


@dataclass(frozen=True)
class Pose:
    """A frozen stand-in for the game's mob view (`EntityView`'s `MobPose`)."""

    key: int
    box: tuple[float, float, float, float, float, float]
    yaw: float
    kind: str
    limb_swing: float = 0.0
    limb_amount: float = 0.0
    hurt: float = 0.0
    dying: float = 0.0
    sheared: bool = False
    fuse: float = 0.0
    burning: bool = False


@dataclass(frozen=True)
class Arrow:
    """A frozen stand-in for the game's arrow view (`EntityView`'s `ArrowPose`)."""

    key: int
    box: tuple[float, float, float, float, float, float]
    yaw: float
    pitch: float


ARROW_AT = (1.2, 65.3, 1.0)
"""[blocks] An arrow in flight in front of the lineup, pointing west and a little down."""


def arrow(key: int, yaw: float, pitch: float) -> Arrow:
    x, y, z = ARROW_AT
    return Arrow(key, (x - 0.25, y - 0.25, z - 0.25, x + 0.25, y + 0.25, z + 0.25), yaw, pitch)


def lineup() -> list[Pose]:
    """Every kind in a row along x, centred on x 0, facing south (+z)."""
    from game.window.render.creature_models import KINDS

    total = sum(SIZES[k][0] for k in KINDS) + GAP * (len(KINDS) - 1)
    left, poses = -total / 2.0, []
    for key, kind in enumerate(KINDS):
        width, height = SIZES[kind]
        poses.append(Pose(key, (left, FLOOR_Y, -width / 2, left + width, FLOOR_Y + height, width / 2), 0.0, kind))
        left += width + GAP
    return poses


def bounds(node, relative) -> list[float]:
    lo, hi = node.get_tight_bounds(relative)
    return [float(v) for v in (*lo, *hi)]


def lineup_probe(screenshot: str) -> None:
    """In a subprocess with a display: draw the lineup, save `screenshot`, print what the nodes say."""
    from dataclasses import replace

    from game.window.render import space
    from game.window.render.creature_figure import PUFFS
    from game.window.render.window import open_window
    from tests.game.drivers.preview import _capture, _screen_pixel

    app = open_window(WINDOW, "Boxel creatures", borderless=True)
    from ursina import Entity, camera, color, window

    from game.window.render.entity_view import EntityView

    window.color = color.rgb32(*SKY_RGB)
    camera.fov = 70
    camera.position = space.point(*CAMERA)
    camera.rotation = space.camera_rotation(*LOOK)
    Entity(model="plane", scale=(60, 1, 60), position=space.point(0.0, FLOOR_Y, 0.0), color=color.rgb32(*GRASS_RGB))
    view = EntityView()
    poses = lineup()
    view.show(poses, [])
    view.show_arrows([arrow(1, 90.0, 10.0)])
    for _ in range(3):
        app.step()
    _capture(app, Path(screenshot), WINDOW)
    report = {"boxes": {p.kind: list(p.box) for p in poses}, "bounds": {}, "body": {}, "pixels": {}}
    for pose in poses:
        figure = view.creatures[pose.key]
        report["bounds"][pose.kind] = bounds(figure.root, view)
        report["body"][pose.kind] = bounds(figure.limbs["body"][0], view)
        box = pose.box
        report["pixels"][pose.kind] = _screen_pixel(((box[0] + box[3]) / 2, (box[1] + box[4]) / 2, box[5]), WINDOW)
    report["arrow_bounds"] = {}
    for name, yaw, pitch in (("west", 90.0, 0.0), ("south", 0.0, 0.0), ("up", 0.0, -90.0)):
        view.show_arrows([arrow(2, yaw, pitch)])
        report["arrow_bounds"][name] = bounds(view.arrows[2], view)
    view.show_arrows([])
    report["arrows_left"] = len(view.arrows)
    pig, sheep, creeper = (next(p for p in poses if p.kind == k) for k in ("pig", "sheep", "creeper"))
    view.show([replace(pig, hurt=1.0), replace(sheep, sheared=True), replace(creeper, fuse=1.0)], [])
    report["hurt_colour"] = list(view.creatures[pig.key].root.get_color_scale())
    report["sheared_bounds"] = bounds(view.creatures[sheep.key].root, view)
    report["fuse_bounds"] = bounds(view.creatures[creeper.key].root, view)
    view.show([replace(pig, dying=1.0)], [])
    figure = view.creatures[pig.key]
    report["dead_roll"] = figure.fall.get_r()
    report["dead_bounds"] = bounds(figure.root, view)
    report["dead_colour"] = list(figure.root.get_color_scale())
    view.show([], [])
    report["puffs"] = len(view.smoke)
    report["expected_puffs"] = PUFFS
    report["creatures_left"] = len(view.creatures)
    view.smoke.advance(2.0)  # every puff's life is over within a second
    report["puffs_later"] = len(view.smoke)
    print_probe(report)


@pytest.fixture(scope="module")
def drawn(tmp_path_factory) -> tuple[dict, np.ndarray]:
    shot = tmp_path_factory.mktemp("lineup") / "creatures-lineup.png"
    report = run_probe("tests.game.test_creature_models_display", "lineup_probe", str(shot), display=True)
    if os.environ.get(DOCS_SCREENSHOTS_ENV):
        target = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "creatures-lineup.png"
        target.write_bytes(shot.read_bytes())
    return report, np.asarray(Image.open(shot).convert("RGB")).astype(int)


def test_each_creature_stands_on_its_box_exactly_as_tall_as_it_centred_on_it(drawn):
    report, _ = drawn
    for kind, box in report["boxes"].items():
        lo_x, lo_y, lo_z, hi_x, hi_y, hi_z = report["bounds"][kind]
        assert lo_y == pytest.approx(box[1], abs=FIT) and hi_y == pytest.approx(box[4], abs=FIT), kind
        body = report["body"][kind]  # the body is centred across the box and no wider than it
        assert (body[0] + body[3]) / 2 == pytest.approx(-(box[0] + box[3]) / 2, abs=FIT), kind  # Ursina's x is mirrored
        assert body[3] - body[0] <= box[3] - box[0] + FIT, kind


def test_every_creature_is_drawn_where_its_box_is(drawn):
    report, image = drawn
    background = np.array(SKY_RGB), np.array(GRASS_RGB)
    for kind, pixel in report["pixels"].items():
        x, y = (int(round(v)) for v in pixel)
        patch = image[y - 1:y + 2, x - 1:x + 2].reshape(-1, 3)
        assert all(np.abs(patch - b).max() > 12 for b in background), f"{kind} is not drawn at {pixel}"


def test_a_hurt_creature_is_tinted_red_and_a_dead_one_lies_on_its_side_then_puffs_into_smoke(drawn):
    report, _ = drawn
    assert report["hurt_colour"] == pytest.approx([1.0, 0.6, 0.6, 1.0], abs=COLOUR_STEP)
    assert report["dead_roll"] == pytest.approx(90.0)
    lo_x, lo_y, _, hi_x, hi_y, _ = report["dead_bounds"]
    pig = report["boxes"]["pig"]
    assert hi_y - lo_y < pig[4] - pig[1] - 0.2, "the dead pig should lie lower than it stands"
    assert report["dead_colour"] == pytest.approx([1.0, 0.6, 0.6, 1.0], abs=COLOUR_STEP)
    assert report["creatures_left"] == 0
    assert report["puffs"] == report["expected_puffs"] and report["puffs_later"] == 0


def test_a_sheared_sheep_is_slimmer_and_a_creeper_on_a_full_fuse_swells(drawn):
    report, _ = drawn
    woolly, shorn = report["bounds"]["sheep"], report["sheared_bounds"]
    assert shorn[3] - shorn[0] < woolly[3] - woolly[0] - 0.05
    calm, fused = report["bounds"]["creeper"], report["fuse_bounds"]
    assert fused[3] - fused[0] == pytest.approx((calm[3] - calm[0]) * 1.4 * (1 + np.sin(100.0) * 0.01), rel=1e-3)


def test_an_arrow_is_a_long_thin_stick_along_its_yaw_and_pitch_and_goes_when_no_longer_shown(drawn):
    from game.window.render.entity_view import ARROW_LENGTH

    report, _ = drawn
    extents = {name: np.subtract(b[3:], b[:3]) for name, b in report["arrow_bounds"].items()}
    assert extents["west"][0] == pytest.approx(ARROW_LENGTH, abs=FIT) and extents["west"][2] < 0.25
    assert extents["south"][2] == pytest.approx(ARROW_LENGTH, abs=FIT) and extents["south"][0] < 0.25
    assert extents["up"][1] == pytest.approx(ARROW_LENGTH, abs=FIT)
    assert report["arrows_left"] == 0
