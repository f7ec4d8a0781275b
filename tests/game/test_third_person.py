"""The F5 camera (`game.window.render.third_person`): 4 blocks behind the eye in the open, pulled in by
Beta's eight skewed corner rays where a block is in the way. Headless (no Ursina is loaded)."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from physics import BlockGrid

from game.window.render.third_person import (RAY_HALF_WIDTH, THIRD_PERSON_DISTANCE, third_person_camera,
                                      third_person_distance)

EYE = (0.5, 10.5, 0.5)
RAY_TOLERANCE = 2 * RAY_HALF_WIDTH
"""[blocks] The rays are cubes RAY_HALF_WIDTH wide, so a hit is that much short of the face."""


def test_in_the_open_the_camera_stands_4_blocks_behind_the_eye_along_the_look():
    grid = BlockGrid()
    grid.set(100, 0, 100)
    assert third_person_distance(grid, EYE, 0.0, 0.0) == THIRD_PERSON_DISTANCE == 4.0
    assert third_person_camera(grid, EYE, 0.0, 0.0) == (0.5, 10.5, -3.5)  # yaw 0 looks along +z
    x, y, z = third_person_camera(grid, EYE, 270.0, 90.0)  # looking straight down: the camera is above
    assert (x, y, z) == pytest.approx((0.5, 14.5, 0.5), abs=1e-6)


def test_a_wall_behind_the_player_pulls_the_camera_in_to_the_nearest_corner_rays_hit():
    grid = BlockGrid()
    for x in range(-3, 4):
        for y in range(8, 14):
            grid.set(x, y, -2)  # a wall whose face (z = -1) is 1.5 blocks behind the eye
    distance = third_person_distance(grid, EYE, 0.0, 0.0)
    # The rays start 0.1 out on each axis; each ray's end is also shifted in x by its z offset, so the
    # ray from z = 0.6 drifts 0.1 x 1.6 / 4 = 0.04 in x before it meets the face: from the corner at
    # x - 0.1 it meets it at x - 0.06, y +- 0.1, 1.5 behind the eye, the nearest hit of the eight.
    assert distance == pytest.approx(math.sqrt(0.06 ** 2 + 0.1 ** 2 + 1.5 ** 2), abs=RAY_TOLERANCE)
    assert third_person_camera(grid, EYE, 0.0, 0.0)[2] == pytest.approx(0.5 - distance, abs=1e-12)


def test_a_block_beside_the_line_of_sight_does_not_pull_the_camera_in():
    grid = BlockGrid()
    grid.set(3, 10, -2)  # two blocks to the side of the line behind the eye
    assert third_person_distance(grid, EYE, 0.0, 0.0) == THIRD_PERSON_DISTANCE


def test_bad_input_is_refused():
    grid = BlockGrid()
    with pytest.raises(TypeError):
        third_person_distance(object(), EYE, 0.0, 0.0)
    with pytest.raises(ValueError):
        third_person_distance(grid, (math.nan, 10.0, 0.0), 0.0, 0.0)
    with pytest.raises(ValueError):
        third_person_distance(grid, EYE, 0.0, 0.0, distance=0.0)
    with pytest.raises(TypeError):
        third_person_distance(grid, EYE, "north", 0.0)


def test_the_camera_module_loads_no_engine():
    code = ("import sys, game.window.render.third_person; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('ursina', 'panda3d', 'direct')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "[]"
