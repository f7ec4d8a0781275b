"""Beta's creature models as data (`game.window.render.creature_models`, no window): the boxes' sizes and
texture layout, the walk's limb angles, the meshes' vertices and UVs, and drawing an unknown kind refused."""

from __future__ import annotations

import math

import numpy as np
import pytest

from game.window.render.creature_models import (KINDS, LEG_SWING, LIMB_SWING_RATE, SHAPES, TEXTURE_SIZE, Cube,
                                                face_rects, limb_angles, limb_arrays, rest_bounds, shape_of)
from tests.game.conftest import run_without_window

STANDING_HEIGHT_PIXELS = {"pig": 16.0, "cow": 25.0, "chicken": 15.0, "zombie": 32.0, "skeleton": 32.0,
                          "creeper": 26.0}
"""[pixels] Beta's boxes, feet to top (the ground is Beta's y 24): a pig's head top at y 8, a cow's horns at
y -1, a chicken's head top at y 9, a biped's head, body and legs 8 + 12 + 12, a creeper's 8 + 12 + 6."""


def test_a_walking_pigs_legs_swing_by_betas_cosine_diagonal_pairs_together():
    angles = limb_angles("pig", 0.0, 1.0)
    assert angles["leg1"] == (LEG_SWING, 0.0, 0.0) and angles["leg4"] == (LEG_SWING, 0.0, 0.0)
    assert angles["leg2"] == pytest.approx((-LEG_SWING, 0.0, 0.0)) and angles["leg3"] == angles["leg2"]
    quarter = math.pi / 2 / LIMB_SWING_RATE
    assert limb_angles("pig", quarter, 0.5)["leg1"][0] == pytest.approx(0.0, abs=1e-12)
    assert limb_angles("pig", 1.0, 0.5)["leg1"][0] == math.cos(1.0 * 0.6662) * 1.4 * 0.5


def test_a_standing_creature_keeps_its_legs_straight():
    for kind in KINDS:
        for name, (x, _, _) in limb_angles(kind, 3.7, 0.0).items():
            if name.startswith("leg") and kind != "spider":
                assert x == 0.0, (kind, name)


def test_zombies_and_skeletons_hold_their_arms_straight_forward():
    for kind in ("zombie", "skeleton"):
        angles = limb_angles(kind, 0.0, 0.0)
        assert angles["arm1"][0] == angles["arm2"][0] == -math.pi / 2
        assert rest_bounds(kind)[5] > 10.0  # [pixels] the hands reach 10 in front of the body's centre


def test_the_spiders_eight_legs_fan_and_droop_as_betas():
    shape = shape_of("spider")
    assert sum(limb.name.startswith("leg") for limb in shape.limbs) == 8
    angles = limb_angles("spider", 0.0, 0.0)
    assert angles["leg1"] == pytest.approx((0.0, math.pi / 4, -math.pi / 4))
    assert angles["leg2"] == pytest.approx((0.0, -math.pi / 4, math.pi / 4))
    assert angles["leg3"] == pytest.approx((0.0, math.pi / 8, -math.pi / 4 * 0.74))


@pytest.mark.parametrize("kind", sorted(STANDING_HEIGHT_PIXELS))
def test_a_standing_model_is_as_tall_as_betas_boxes_and_stands_on_the_ground(kind):
    bounds = rest_bounds(kind)
    assert bounds[1] == pytest.approx(0.0, abs=1e-5)
    assert bounds[4] - bounds[1] == pytest.approx(STANDING_HEIGHT_PIXELS[kind], abs=1e-5)


def test_every_model_faces_plus_z_its_head_in_front_of_its_centre():
    for kind in KINDS:
        head = shape_of(kind).limb("head")
        vertices = limb_arrays(head)[0].reshape(-1, 3)
        assert -head.pivot[2] + vertices[:, 2].max() > 0.0, kind  # Ursina's z = minus Beta's


def test_betas_box_unwrap_puts_each_face_where_beta_does():
    rects = face_rects(Cube((-4, -8, -4), (8, 8, 8), (0, 0)))
    assert rects == {"east": (16, 8, 8, 8), "west": (0, 8, 8, 8), "top": (8, 0, 8, 8), "bottom": (16, 0, 8, 8),
                     "front": (8, 8, 8, 8), "back": (24, 8, 8, 8)}


@pytest.mark.parametrize("kind", KINDS)
def test_every_face_lies_in_the_texture_and_boxes_of_different_places_never_share_texels(kind):
    width, height = TEXTURE_SIZE
    owners: dict[str, np.ndarray] = {}
    for limb in SHAPES[kind].limbs:
        for cube in limb.cubes:
            grid = owners.setdefault(cube.layer, np.full((height, width), -1, dtype=np.int64))
            tag = cube.uv[0] * 1000 + cube.uv[1]  # cubes at the same offset (a pair of legs) share their picture
            for left, top, w, h in face_rects(cube).values():
                assert 0 <= left and left + w <= width and 0 <= top and top + h <= height, (kind, cube)
                patch = grid[top:top + h, left:left + w]
                assert np.isin(patch, (-1, tag)).all(), (kind, cube)
                patch[:] = tag


def test_a_limbs_mesh_has_four_vertices_a_face_uvs_in_the_texture_and_two_triangles_a_face():
    head = shape_of("pig").limb("head")  # the head and the snout: 2 cubes
    positions, uvs, colours, triangles = limb_arrays(head)
    assert positions.shape == (2 * 6 * 4 * 3,) and uvs.shape == (2 * 6 * 4 * 2,) and colours.shape == (2 * 6 * 4 * 4,)
    assert triangles.shape == (2 * 6 * 6,) and triangles.max() == 2 * 6 * 4 - 1
    assert uvs.min() >= 0.0 and uvs.max() <= 1.0
    xyz = positions.reshape(-1, 3)
    assert xyz[:, 2].max() == 9.0  # the snout's front, 9 pixels before the pivot (Beta's z -9)


def test_the_sheeps_wool_is_a_layer_of_its_own_grown_over_the_body():
    body = shape_of("sheep").limb("body")
    skin, wool = limb_arrays(body, "skin")[0].reshape(-1, 3), limb_arrays(body, "wool")[0].reshape(-1, 3)
    assert (wool.max(axis=0) - skin.max(axis=0)) == pytest.approx([1.75] * 3)


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError):
        shape_of("dragon")
    with pytest.raises(TypeError):
        shape_of(3)
    with pytest.raises(ValueError):
        limb_angles("boxling", 0.0, 0.0)


def test_the_entity_view_refuses_a_mob_of_unknown_kind_and_draws_nothing_new():
    out = run_without_window("""
from dataclasses import dataclass
from game.window.render.entity_view import EntityView
@dataclass(frozen=True)
class V:
    key: int
    box: tuple
    yaw: float
    kind: str
view = EntityView()
good = V(1, (0, 0, 0, 0.9, 0.9, 0.9), 0.0, "pig")
try:
    view.show([good, V(2, (0, 0, 0, 1, 1, 1), 0.0, "dragon")], [])
except ValueError as error:
    print("refused", "dragon" in str(error), len(view.creatures), len(view.mobs))
view.show([good, V(3, (2, 0, 0, 2.9, 0.9, 0.9), 0.0, "boxling")], [])
print("drawn", sorted(view.creatures), sorted(view.mobs))
""")
    assert "refused True 0 0" in out and "drawn [1] [3]" in out


def test_a_figure_posed_frame_after_frame_ends_exactly_as_a_new_figure_posed_once():
    """`CreatureFigure.show` only sets what changed since the last frame (its fast path): after a run of
    random poses every node's transform and the colour are what a fresh figure shown the last pose has."""
    out = run_without_window("""
import numpy as np
from panda3d.core import NodePath
from game.window.render.creature_figure import CreatureFigure, FigureLibrary
from game.window.render.creature_models import KINDS
rng = np.random.default_rng(7)
library, root, mismatches = FigureLibrary(), NodePath("root"), 0
def pose():
    h = float(rng.choice([0.9, 1.3]))
    return dict(box=(0.0, 64.0, 0.0, 0.9, 64.0 + h, 0.9), yaw=float(rng.choice([0.0, 90.0, 33.0])),
                limb_swing=float(rng.uniform(0, 20)), limb_amount=float(rng.choice([0.0, 0.0, 0.4, 1.0])),
                hurt=float(rng.choice([0.0, 0.5, 1.0])), dying=float(rng.choice([0.0, 0.0, 0.3, 1.0])),
                sheared=bool(rng.random() < 0.5), fuse=float(rng.choice([0.0, 0.15, 0.5, 1.0])),
                burning=bool(rng.random() < 0.3))
def state(figure):
    nodes = [figure.root, figure.fall, figure.swell, figure.figure,
             *(n for pair in figure.limbs.values() for n in pair)]
    return ([tuple(n.get_mat().get_row(i)) for n in nodes for i in range(4)], tuple(figure.root.get_color_scale()),
            [n.is_stashed() for n in figure.wool])
for kind in KINDS:
    for run in range(12):
        moving = CreatureFigure(root, kind, library)
        poses = [pose() for _ in range(6)]
        for p in poses:
            moving.show(**p)
        fresh = CreatureFigure(root, kind, library)
        fresh.show(**poses[-1])
        mismatches += state(moving) != state(fresh)
print("mismatches", mismatches)
""")
    assert "mismatches 0" in out
