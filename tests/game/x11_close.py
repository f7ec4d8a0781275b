"""Ask an X window to close the way a window manager's close button does: `python x11_close.py WINDOW_ID`.

Sends the WM_DELETE_WINDOW client message (ICCCM) with libX11 through ctypes, so tests need no
window manager and no extra package. Xvfb has no window manager, and `xdotool windowclose`
destroys the window instead of asking the program to close it.
"""

from __future__ import annotations

import ctypes
import sys

CLIENT_MESSAGE = 33
"""X11's ClientMessage event type."""


class _ClientMessage(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                ("format", ctypes.c_int), ("data", ctypes.c_long * 5)]


class _Event(ctypes.Union):
    _fields_ = [("xclient", _ClientMessage), ("pad", ctypes.c_long * 24)]


def request_close(window_id: int) -> None:
    x11 = ctypes.cdll.LoadLibrary("libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XInternAtom.restype = ctypes.c_ulong
    x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x11.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.POINTER(_Event)]
    x11.XFlush.argtypes = [ctypes.c_void_p]
    display = x11.XOpenDisplay(None)
    if not display:
        raise RuntimeError("cannot open the X display")
    event = _Event()
    event.xclient.type = CLIENT_MESSAGE
    event.xclient.window = window_id
    event.xclient.message_type = x11.XInternAtom(display, b"WM_PROTOCOLS", 0)
    event.xclient.format = 32
    event.xclient.data[0] = x11.XInternAtom(display, b"WM_DELETE_WINDOW", 0)
    if not x11.XSendEvent(display, window_id, 0, 0, ctypes.byref(event)):
        raise RuntimeError(f"could not send the close request to window {window_id}")
    x11.XFlush(display)


if __name__ == "__main__":
    request_close(int(sys.argv[1]))
