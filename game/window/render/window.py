"""Opening Boxel's Ursina window: the Panda3D settings every window needs, sizes, field of view.

Owns: PANDA_CONFIG, `open_window` (with or without its draw thread, `DRAW_THREAD_CONFIG`),
`frames_in_flight`, camera and closing constants, `LaunchError` (Boxel could not start), `parse_size`
(WxH option values), `horizontal_fov` (Boxel's vertical FOV to Ursina's horizontal one) and
`save_window_image` (a scripted run's last frame).
Does not own: anything drawn in the window, or the run report (`game.rules.session.write_report`).
"""

from __future__ import annotations

import argparse
import math

PANDA_CONFIG = (
    "audio-library-name null",  # no sound yet; skips OpenAL and its errors on machines without audio
    "notify-level-device fatal",  # evdev input devices are absent in containers
    "print-pipe-types false",
    "notify-level-pnmimage error",  # an Ursina PNG has a known-incorrect sRGB profile
    "sync-video false",  # frame times must show the real cost, not the monitor's refresh
)
OFFSCREEN_CONFIG = (
    "load-display p3headlessgl",  # EGL with no display: the GPU's own driver where there is one
)
"""Panda3D settings for `open_window(offscreen=True)` (with Ursina's `window_type="offscreen"`, which
asks for a buffer instead of a window), for frame benchmarks on machines with a GPU and no display
(`bench.bench_gpu`)."""
DRAW_THREAD_CONFIG = (
    "threading-model /Draw",
    # Xlib is then called from two threads: the window's events on the main thread, the software
    # renderer's image put into the window at each flip on the draw thread: Xlib's own locks
    # (XInitThreads) make that safe. Of two runs of tests/game without them, one ended a game in a
    # segmentation fault at its start; the full runs with them passed.
    "x-init-threads true",
)
"""Panda3D settings for `open_window(draw_thread=True)`: the draw (the OpenGL calls, which on software
OpenGL are the vertex work and the wait for its rasteriser threads) runs on a thread of its own, while
the main thread runs the next frame's Python and cull. A frame's image reaches the window one frame
later (`frames_in_flight`); what the frame shows is unchanged. On software OpenGL it pays where a frame
is more vertices and draw calls than pixels, and hardly where the rasteriser's threads already keep
every core busy (measured: docs/PERFORMANCE.md, "The draw thread")."""
WINDOW_TITLE = "Boxel"
CLOSING_FRAMES = 2
"""Frames drawn after the last tick before a scripted run's screenshot, so the saved image is the
final view (one to draw it, one more so no buffer still holds the frame before)."""
NEAR_CLIP = 0.05
"""[blocks] Camera near plane: below the 0.3 between the eye and a wall the body touches."""
MAX_WINDOW_SIDE = 16384
"""[pixels] Largest width or height accepted for a window (larger is a typo, and GPUs refuse it)."""


class LaunchError(RuntimeError):
    """Boxel could not start (no display, an unwritable file...): the message says why and what to do."""


def open_window(size: tuple[int, int], title: str = WINDOW_TITLE, *, borderless: bool = False,
                offscreen: bool = False, draw_thread: bool = False):
    """Configure Panda3D and open the (single) Ursina window of this process; returns the Ursina app.
    `offscreen`: draw into an offscreen buffer of `size` through EGL (`OFFSCREEN_CONFIG`), with no display.
    `draw_thread`: Panda3D draws on a thread of its own (`DRAW_THREAD_CONFIG`; the game's windows do,
    where this Panda3D build has threads), so the image of a frame is on screen one frame later."""
    from panda3d.core import Thread, loadPrcFileData
    threaded = DRAW_THREAD_CONFIG if draw_thread and Thread.is_threading_supported() else ()
    for line in PANDA_CONFIG + threaded + (OFFSCREEN_CONFIG if offscreen else ()):
        loadPrcFileData("", line)
    from ursina import Ursina, window
    try:
        app = Ursina(title=title, size=size, borderless=borderless, editor_ui_enabled=False, vsync=False,
                     development_mode=False, show_ursina_splash=False,
                     **({"window_type": "offscreen"} if offscreen else {}))
    except Exception as error:  # Panda3D raises a bare Exception when no window can be opened
        raise LaunchError(f"could not open a window ({error}); is a display available? "
                          "Without one, run under xvfb-run.") from None
    if getattr(window, "editor_ui", None) is not None:
        window.editor_ui.enabled = False
    if offscreen:
        fit_ui_to_buffer()
    single_pass_ui()
    return app


def frames_in_flight() -> int:
    """[frames] How many frames the window's image lags behind the frame just stepped: 0 when Panda3D
    draws on the main thread, 1 with its draw thread (the image of frame n is drawn while frame n + 1
    is worked out)."""
    from ursina import application
    return application.base.graphicsEngine.get_threading_model().get_draw_stage()


def fit_ui_to_buffer() -> None:
    """Give `camera.ui` the buffer's aspect ratio. Ursina does this when a window reports its size,
    which an offscreen buffer never does: without it the HUD is drawn many times too large."""
    from ursina import camera, window
    camera.ui_lens.set_film_size(camera.ui_size * 0.5 * window.aspect_ratio, camera.ui_size * 0.5)


def graphics_renderer() -> str:
    """The OpenGL renderer that draws the window ('llvmpipe (LLVM 15.0.6, 256 bits)', 'NVIDIA H100 ...')."""
    from ursina import application
    win = getattr(application.base, "win", None)
    gsg = None if win is None else win.getGsg()
    return "" if gsg is None else f"{gsg.getDriverRenderer()} (OpenGL {gsg.getDriverVersion()})"


OVER_URSINA_PRIORITY = 1
"""A render attribute set on a node with this priority wins over the one Ursina sets (priority 0) on
each entity's model, e.g. its transparency mode."""


def single_pass_ui() -> None:
    """Blend everything on `camera.ui` in one sorted pass. Ursina gives a quad Panda3D's M_dual, which
    draws it twice (an alpha-tested pass, then a blended one): 70-odd HUD quads doubled a frame's
    non-section draw calls (`tests/game/test_draw_calls_display.py`); flat 2D quads look the same
    either way."""
    from panda3d.core import TransparencyAttrib
    from ursina import camera
    camera.ui.set_transparency(TransparencyAttrib.M_alpha, OVER_URSINA_PRIORITY)


def parse_size(text: str) -> tuple[int, int]:
    """A window size option such as '1280x720' -> (1280, 720); argparse.ArgumentTypeError otherwise."""
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT in pixels such as 1280x720, got {text!r}")
    width, height = int(parts[0]), int(parts[1])
    if not (1 <= width <= MAX_WINDOW_SIDE and 1 <= height <= MAX_WINDOW_SIDE):
        raise argparse.ArgumentTypeError(f"width and height must be 1..{MAX_WINDOW_SIDE} pixels, got {text!r}")
    return width, height


def horizontal_fov(vertical_degrees: float, aspect_ratio: float) -> float:
    """Ursina's camera.fov is horizontal; Boxel's FOV setting is vertical, as in Minecraft."""
    half = math.radians(vertical_degrees) / 2.0
    return math.degrees(2.0 * math.atan(math.tan(half) * aspect_ratio))


def save_window_image(app, path: str) -> None:
    """The end of a scripted run: the window's image to `path` (parent folders are created).
    LaunchError when it cannot be written."""
    from pathlib import Path

    from panda3d.core import Filename
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not app.win.save_screenshot(Filename.from_os_specific(str(path.resolve()))):
        raise LaunchError(f"could not save the screenshot to {path}")
