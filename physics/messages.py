"""How a bad value is shown in an error message.

Owns: `shown(value)`, the repr every physics error message uses for the value it refuses.
Does not own: the checks themselves (each module checks its own input).

A plain `{value!r}` can fail or grow without bound: the repr of a list nested 100,000 deep raises
RecursionError (so a ValueError being built would escape as RecursionError), a 400-digit int
prints 400 digits, and a million-element list a million items. `shown` is `reprlib`'s repr,
bounded in depth and length, which never raises (an object whose own repr fails is shown by
its type).
"""

from __future__ import annotations

import reprlib

MESSAGE_DEPTH = 4
"""[levels] How deep nested containers are shown: a body's velocity tuple or a shape's boxes
show whole, and deeper nesting as `...`."""
MESSAGE_ITEMS = 8
"""[items] How many items of a container are shown (the rest as `...`)."""
MESSAGE_CHARS = 200
"""[characters] How long the repr of one value (a number, a string, an AABB or a Body) may be
before its middle is cut: an AABB's repr is about 90, a 400-digit int is cut."""

_REPR = reprlib.Repr()
_REPR.maxlevel = MESSAGE_DEPTH
_REPR.maxtuple = _REPR.maxlist = _REPR.maxarray = _REPR.maxdict = MESSAGE_ITEMS
_REPR.maxset = _REPR.maxfrozenset = _REPR.maxdeque = MESSAGE_ITEMS
_REPR.maxstring = _REPR.maxlong = _REPR.maxother = MESSAGE_CHARS


def shown(value: object) -> str:
    """`value`'s repr for an error message, bounded (see the module docstring); never raises."""
    try:
        return _REPR.repr(value)
    except Exception:  # noqa: BLE001 - a message must never fail: a repr that raises anything
        return f"<a {type(value).__name__}>"
