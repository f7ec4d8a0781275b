"""Mouse look's input (`game.window.pointer_motion.PointerMotion`), with a stand-in for the window:
the pointer is read once a frame, its offset from the window's centre comes in Ursina's UI units
(what Ursina's captured `mouse.velocity` holds), and the pointer goes back to the centre only when it
moved."""

from __future__ import annotations

from game.window.pointer_motion import PointerMotion

WIDTH, HEIGHT = 160.0, 90.0


class _Pointer:
    def __init__(self, x: float, y: float, in_window: bool = True) -> None:
        self.in_window, self._x, self._y = in_window, x, y

    def get_x(self) -> float:
        return self._x

    def get_y(self) -> float:
        return self._y


class _Window:
    """The calls PointerMotion makes of a Panda3D window: where the pointer is, and moving it."""

    def __init__(self) -> None:
        self.at, self.inside, self.reads, self.moves = (0.0, 0.0), True, 0, []

    def get_pointer(self, device: int) -> _Pointer:
        self.reads += 1
        return _Pointer(*self.at, in_window=self.inside)

    def move_pointer(self, device: int, x: int, y: int) -> bool:
        self.moves.append((x, y))
        self.at = (float(x), float(y))
        return True


def _motion() -> tuple[PointerMotion, _Window]:
    win = _Window()
    return PointerMotion(lambda: (win, (WIDTH, HEIGHT))), win


def test_the_first_frame_of_holding_the_pointer_gives_no_motion_and_centres_the_pointer():
    motion, win = _motion()
    win.at = (3.0, 70.0)  # left over a button
    assert motion.take() == (0.0, 0.0)
    assert win.moves == [(80, 45)] and win.reads == 0


def test_a_moved_pointer_gives_ursinas_units_and_goes_back_to_the_centre_with_one_read():
    motion, win = _motion()
    motion.take()
    win.at = (96.0, 36.0)  # 16 pixels right, 9 up
    dx, dy = motion.take()
    assert (dx, dy) == (((96.0 / WIDTH) - 0.5) * (WIDTH / HEIGHT), -((36.0 / HEIGHT) - 0.5))
    assert dx > 0.0 and dy > 0.0  # right and up are positive
    assert win.reads == 1 and win.moves[-1] == (80, 45)


def test_a_still_pointer_gives_no_motion_and_is_left_where_it_is():
    motion, win = _motion()
    motion.take()
    moves = len(win.moves)
    assert [motion.take() for _ in range(3)] == [(0.0, 0.0)] * 3
    assert len(win.moves) == moves and win.reads == 3


def test_a_pointer_outside_the_window_gives_no_motion():
    motion, win = _motion()
    motion.take()
    win.at, win.inside = (500.0, 500.0), False
    assert motion.take() == (0.0, 0.0)


def test_after_a_screen_released_the_pointer_holding_it_again_starts_from_the_centre():
    motion, win = _motion()
    motion.take()
    motion.release()
    win.at = (150.0, 10.0)  # where a menu click left it
    assert motion.take() == (0.0, 0.0)
    assert win.at == (80.0, 45.0)
