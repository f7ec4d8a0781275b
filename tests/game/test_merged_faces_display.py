"""Merged faces and packed vertices look as the per-face mesh does, and leaving out the faces that face
away from the eye changes nothing: one lit view of a generated world drawn four ways
(`tests.game.drivers.merged_faces_view`) and compared pixel by pixel.

Each drawing runs in its own process with a display (DISPLAY, else `xvfb-run`; see
tests/game/conftest.py). Nothing moves between the drawings, so any difference comes from how the
same surface is cut into triangles.
"""

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from .conftest import run_with_display

SIZE = (640, 360)
INTERPOLATION_LEVELS = 3
"""[RGB levels] What a pixel may differ by anywhere: the fog, worked out per vertex, is interpolated
across a merged quad's few far-apart vertices instead of many near ones (measured: 1-3 levels)."""
EDGE_PIXEL_SHARE = 0.002
"""Share of the picture whose pixels may differ by more: where a merged quad spans the fog's start
(the per-vertex fog's kink is interpolated away: 4-9 levels over a patch of a few hundred pixels),
where a UV interpolated across a bigger quad lands on the other side of a texel's edge, and along a
merged quad's diagonal (measured: 0.04 % of the picture at 640x360, 0.11 % at 960x540)."""


def draw(tmp_path: Path, *options: str) -> np.ndarray:
    shot = tmp_path / ("view" + "".join(options).replace("-", "_") + ".png")
    result = run_with_display(["-m", "tests.game.drivers.merged_faces_view", "--size", f"{SIZE[0]}x{SIZE[1]}",
                               "--screenshot", str(shot), *options])
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return np.asarray(Image.open(shot).convert("RGB")).astype(int)


def assert_looks_the_same(image: np.ndarray, reference: np.ndarray) -> None:
    difference = np.abs(image - reference).max(axis=2)
    assert difference.mean() < 0.1, "the pictures should be the same nearly everywhere"
    beyond = (difference > INTERPOLATION_LEVELS).mean()
    assert beyond <= EDGE_PIXEL_SHARE, f"{beyond:.4%} of the pixels differ by more than {INTERPOLATION_LEVELS} levels"


@pytest.fixture(scope="module")
def views(tmp_path_factory):
    folder = tmp_path_factory.mktemp("merged_faces")
    return {name: draw(folder, *options) for name, options in (
        ("merged", ()), ("per_face", ("--no-merge",)), ("float", ("--vertices", "float")),
        ("facing", ("--facing",)))}


@pytest.mark.display
def test_merged_faces_look_like_the_per_face_mesh(views):
    assert_looks_the_same(views["merged"], views["per_face"])


@pytest.mark.display
def test_leaving_out_the_faces_that_face_away_from_the_eye_changes_no_pixel(views):
    np.testing.assert_array_equal(views["facing"], views["merged"])


@pytest.mark.display
def test_packed_vertices_look_like_the_float_vertices(views):
    assert_looks_the_same(views["per_face"], views["float"])


@pytest.mark.display
def test_the_view_is_not_empty_sky(views):
    sky_share = (np.abs(views["merged"] - views["merged"][0, 0]).max(axis=2) < 4).mean()
    assert sky_share < 0.5
    assert len(np.unique(views["merged"].reshape(-1, 3) // 8, axis=0)) > 50, "terrain should be textured and lit"
