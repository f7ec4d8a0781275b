"""The JSON form of physics values, for saves and reports: a `physics.Body` as plain JSON values and back.

Owns: `body_fields` (a body's box, velocity, flags and camera lag as JSON values; JSON writes
floats with `repr`, so they read back bit for bit) and `body_from_fields`, with the checks that
turn a damaged save into an error naming the field (`numbers`, `flag`), quoting the bad value
through `preview` (short, whatever its size or nesting depth).
Does not own: what else a save holds (the player's look and hotbar, a mob's brain) or where it is
stored (`game.world.World.player_state`, `World.set_column_entities`).
"""

from __future__ import annotations

import math
import reprlib

import physics
from physics import AABB

BODY_FLAGS = ("on_ground", "collided_horizontally", "collided_vertically")

PREVIEW_LEVELS = 3
"""Nesting levels an error message shows of a bad value: enough to recognise it; deeper levels
print as '...', so a hostile value nested thousands deep is never walked in full (a full repr
would recurse once per level and raise RecursionError)."""
PREVIEW_CHARACTERS = 80
"""[characters] Longest string (or other plain value) an error message quotes: one line of a terminal."""
PREVIEW_ITEMS = 8
"""Items of one list or dict an error message shows: a saved body's longest list (the box) has 6."""


def preview(value: object) -> str:
    """A short repr of `value` for an error message: bounded in length and nesting depth."""
    shortened = reprlib.Repr()
    shortened.maxlevel = PREVIEW_LEVELS
    shortened.maxstring = shortened.maxother = PREVIEW_CHARACTERS
    shortened.maxlist = shortened.maxdict = shortened.maxtuple = shortened.maxset = PREVIEW_ITEMS
    try:
        return shortened.repr(value)
    except ValueError:  # it holds an int of more digits than Python writes (sys.get_int_max_str_digits())
        return f"<a {type(value).__name__} holding a number too long to show>"


def body_fields(body: physics.Body) -> dict:
    """The body as JSON values; the box is saved whole (it is authoritative, never rebuilt from a position)."""
    return {
        "box": list(body.box),
        "velocity": list(body.velocity),
        "on_ground": body.on_ground,
        "collided_horizontally": body.collided_horizontally,
        "collided_vertically": body.collided_vertically,
        "camera_lag": body.camera_lag,
    }


def body_from_fields(state: dict, owner: str, error: type[Exception]) -> physics.Body:
    """The body saved by `body_fields` in `state`; `error` (with `owner`, e.g. 'the saved player',
    in its message) naming the field when it cannot be used."""
    box = numbers(state, "box", 6, owner, error)
    velocity = numbers(state, "velocity", 3, owner, error)
    (camera_lag,) = numbers(state, "camera_lag", None, owner, error)
    flags = [flag(state, name, owner, error) for name in BODY_FLAGS]
    try:
        return physics.Body(AABB(*box), tuple(velocity), *flags, camera_lag)
    except (TypeError, ValueError) as problem:
        raise error(f"{owner} cannot be used: {problem}") from None


def numbers(state: dict, name: str, count: int | None, owner: str, error: type[Exception]) -> list[float]:
    """`count` finite numbers saved as a list under `name` (count None: one bare number)."""
    value = state.get(name)
    values = [value] if count is None else value
    if (not isinstance(values, list) or len(values) != (count or 1)
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in values)):
        what = "a finite number" if count is None else f"{count} finite numbers"
        raise error(f"{owner}'s {name!r} must be {what}, got {preview(value)}")
    return [float(v) for v in values]


def flag(state: dict, name: str, owner: str, error: type[Exception]) -> bool:
    value = state.get(name)
    if not isinstance(value, bool):
        raise error(f"{owner}'s {name!r} must be true or false, got {preview(value)}")
    return value
