"""The system's stop signals (SIGTERM, SIGHUP, SIGINT) heard as the player quitting.

Owns: which signals mean "stop" (STOP_SIGNALS), the two ways a run hears one: `StopRequested`
raised where the program is (`raise_stop`: the command line and the headless run, pure Python
whose `finally` blocks save) or a `StopFlag` noted for a loop to check between steps (the window:
an exception raised inside a Panda3D call back into Python crashes the process), and
`on_stop_signals`, which hands those signals to a handler while a run is under way and puts the
previous handlers back after it. The first signal is handed on; later ones are ignored, so a
second Ctrl+C or a `kill` repeated by a service manager cannot break into the save the first one
started.
Does not own: what stopping does (the window leaves its frame loop and saves as on closing the
window, `game.window.app`; the command line returns its exit status, `game.frontends.cli`). No engine import.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, name))
"""kill's default, a closed terminal, Ctrl+C (SIGHUP is absent on Windows)."""


class StopRequested(BaseException):
    """A stop signal arrived. A BaseException, as KeyboardInterrupt is: `except Exception` lets it
    through to the command line, while `finally` blocks on the way still save and close."""

    def __init__(self, signal_number: int) -> None:
        super().__init__(signal_number)
        self.signal_number = signal_number

    def __str__(self) -> str:
        return f"stopped by {signal.Signals(self.signal_number).name}"


def raise_stop(signal_number: int) -> None:
    """A handler for `on_stop_signals`: raise StopRequested where the program is."""
    raise StopRequested(signal_number)


class StopFlag:
    """A handler for `on_stop_signals` that only notes the first signal; true once one came."""

    def __init__(self) -> None:
        self.signal_number: int | None = None

    def __call__(self, signal_number: int) -> None:
        if self.signal_number is None:
            self.signal_number = signal_number

    def __bool__(self) -> bool:
        return self.signal_number is not None


@contextmanager
def on_stop_signals(handler: Callable[[int], None]) -> Iterator[None]:
    """While the block runs, the first stop signal calls `handler(signal number)`; later ones are
    ignored. The handlers found on entry are restored on exit (nested uses stack up). Outside the
    main thread, where Python cannot set handlers, the block runs with the handlers as they are.
    TypeError for a handler that cannot be called."""
    if not callable(handler):
        raise TypeError(f"a stop handler must be callable, got {handler!r}")
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    heard = []

    def hear(signal_number: int, _frame) -> None:
        if heard:
            return
        heard.append(signal_number)
        handler(signal_number)

    previous = {number: signal.signal(number, hear) for number in STOP_SIGNALS}
    try:
        yield
    finally:
        for number, old in previous.items():
            signal.signal(number, old if old is not None else signal.SIG_DFL)
