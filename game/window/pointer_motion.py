"""Mouse look's input: how far the pointer moved since the last frame while the game holds it.

Owns: `PointerMotion`, which, while the game holds the pointer (captured, no screen showing it),
reads the pointer once a frame and gives its offset from the window's centre in Ursina's UI units
(the window's height is 1 unit; right and up are positive), the very numbers Ursina's captured
`mouse.velocity` gives, then puts the pointer back at the centre when it moved; and
`screens_use_pointer`, which leaves Ursina's own pointer reading to the frames a screen shows the pointer.
Does not own: turning the look (`game.rules.controls.turned`), when the game holds the pointer
(`game.window.app`), the pointer while a screen shows it (Ursina's `mouse`, its hovering and clicks).

Why: Ursina's `mouse.update` asks the window where the pointer is four or five times a frame
(`mouse.x` and `mouse.y` twice each, then `mouse.position`), each a round trip to the X server:
0.13 ms each under Xvfb, 0.58 ms a frame in all (measured at 160x90), where this asks once.
"""

from __future__ import annotations

from collections.abc import Callable

from ursina import application, mouse


class PointerMotion:
    """The pointer's motion, frame by frame, while the game holds it (`take`), from the window's centre.
    `window_of`: the Panda3D window (`get_pointer`, `move_pointer`) and its size in pixels; by default
    Ursina's."""

    def __init__(self, window_of: Callable[[], tuple[object, tuple[float, float]]] | None = None) -> None:
        self._window_of = _ursina_window if window_of is None else window_of
        self._holding = False

    def release(self) -> None:
        """The game no longer holds the pointer (a screen shows it): the next `take` starts afresh."""
        self._holding = False

    def take(self) -> tuple[float, float]:
        """(dx, dy) [Ursina UI units] the pointer moved from the window's centre since the last frame,
        the pointer put back there. The first frame of holding gives (0, 0) and only centres the
        pointer, as Ursina's first frame after capturing it gives no motion (and a pointer left
        elsewhere does not turn the view)."""
        win, (width, height) = self._window_of()
        centre_x, centre_y = round(width / 2), round(height / 2)  # where Ursina's `mouse.position = (0, 0)` puts it
        if not self._holding:
            self._holding = True
            win.move_pointer(0, centre_x, centre_y)
            return 0.0, 0.0
        pointer = win.get_pointer(0)
        if not pointer.in_window:
            return 0.0, 0.0
        x, y = pointer.get_x(), pointer.get_y()
        if x == centre_x and y == centre_y:
            return 0.0, 0.0
        win.move_pointer(0, centre_x, centre_y)
        # Ursina's `mouse.x` and `mouse.y` of the pointer (x scaled by the aspect ratio), as its captured
        # `mouse.velocity` holds them.
        return ((x / width) - 0.5) * (width / height), -((y / height) - 0.5)


def _ursina_window() -> tuple[object, tuple[float, float]]:
    win = application.base.win  # (Ursina's `window.size` and `aspect_ratio` are its size too)
    width, height = win.get_size()
    return win, (float(width), float(height))


def screens_use_pointer(wanted: bool) -> None:
    """Whether a screen (a menu, the inventory, the title) shows the pointer: only then does Ursina's
    `mouse` read it (its `update` reads nothing otherwise, and its `input` ignores the buttons, which
    only its hovering and clicking on screens use); the game's mouse look reads it through
    `PointerMotion`, and a scripted run does not read it at all."""
    mouse.enabled = wanted
