"""Where far sections turn coarse: `ChunkRenderer.lod_distance` for a view distance and a window.

Owns: the two reasons a section is drawn from its coarse mesh (`game.world.meshing_lod`) and the
distance each gives, in columns from the eye's column:
* the frame budget of a far view (`LOD_DISTANCE_COLUMNS`): beyond view distance 8 the far columns
  are coarse, so that view distance 16 costs about what 8 does (measured in docs/PERFORMANCE.md);
* what the window can show (`unseen_detail_distance`): a coarse mesh's surface lies at most
  COARSE_ERROR_BLOCKS from the fine one's, and where that is at most MAX_COARSE_ERROR_PIXELS on
  screen the fine mesh's detail cannot be seen. A small window (160x90: 4 columns at the default
  80 degrees) reaches that distance well inside its view; a large one (1280x720: 27 columns) does not.
`lod_distance_for` takes the nearer of the two, or None (every section fine) when neither is inside
the view distance.
Does not own: turning sections coarse or fine (`game.window.render.chunk_renderer`, with its
hysteresis), what a coarse mesh looks like (`game.world.meshing_lod`), the window's size or the
field of view (`game.window.app` passes them in each frame).
"""

from __future__ import annotations

import math

from ...world.meshing import SECTION_SIZE
from ...world.meshing_lod import LOD_SCALE

LOD_DISTANCE_COLUMNS = 8
"""[columns] How far from the eye's column sections stay fine when the view reaches farther: the
frame at view distance 16 (llvmpipe, 1280x720) is kept near view distance 8's (see PERFORMANCE.md)."""
COARSE_ERROR_BLOCKS = LOD_SCALE - 1
"""[blocks] How far a coarse mesh's surface can lie from the fine one's: a coarse cell holds every
face-hiding block of its 2 x 2 x 2, so a surface or a one-block feature grows by at most one block
(`game.world.meshing_lod`)."""
MAX_COARSE_ERROR_PIXELS = 1.0
"""[pixels] The most that error may span on screen, measured between the centres of the eye's column
and a coarse section's (the eye and the section's nearest block may be up to a column's half diagonal
nearer each: at 160x90 that nearest corner sees 1.3 pixels). One pixel: what a window cannot draw
finer than."""
MIN_LOD_DISTANCE_COLUMNS = 2
"""[columns] However small the window, the eye's own column and the two rings around it stay fine:
the blocks a player reaches, walks on and looks at closely."""


def pixels_per_radian(window_height_px: int, vertical_fov_degrees: float) -> float:
    """[pixels / radian] Near the middle of a view `window_height_px` high with that vertical field of view."""
    if isinstance(window_height_px, bool) or not isinstance(window_height_px, int) or window_height_px < 1:
        raise ValueError(f"the window height must be a whole number of pixels >= 1, got {window_height_px!r}")
    if not (math.isfinite(vertical_fov_degrees) and 0.0 < vertical_fov_degrees < 180.0):
        raise ValueError(f"the field of view must be between 0 and 180 degrees, got {vertical_fov_degrees!r}")
    return (window_height_px / 2.0) / math.tan(math.radians(vertical_fov_degrees) / 2.0)


def unseen_detail_distance(window_height_px: int, vertical_fov_degrees: float) -> int:
    """[columns] The nearest column distance (at least MIN_LOD_DISTANCE_COLUMNS) at which a coarse mesh's
    COARSE_ERROR_BLOCKS span at most MAX_COARSE_ERROR_PIXELS of this view."""
    blocks = pixels_per_radian(window_height_px, vertical_fov_degrees) * COARSE_ERROR_BLOCKS / MAX_COARSE_ERROR_PIXELS
    return max(MIN_LOD_DISTANCE_COLUMNS, math.ceil(blocks / SECTION_SIZE))


def lod_distance_for(view_distance: int, window_height_px: int | None = None,
                     vertical_fov_degrees: float | None = None) -> int | None:
    """[columns] `ChunkRenderer.lod_distance` for a view distance and, when given, the window's height and
    vertical field of view: the nearer of LOD_DISTANCE_COLUMNS (when the view reaches farther) and
    `unseen_detail_distance`; None (every section fine) when that is not inside the view distance."""
    candidates = [LOD_DISTANCE_COLUMNS]
    if (window_height_px is None) != (vertical_fov_degrees is None):
        raise ValueError("give both the window's height and its field of view, or neither")
    if window_height_px is not None:
        candidates.append(unseen_detail_distance(window_height_px, vertical_fov_degrees))
    distance = min(candidates)
    return distance if distance < view_distance else None
