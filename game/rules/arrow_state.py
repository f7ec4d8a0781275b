"""An arrow's saved form: the JSON values it is kept as in its column's entity list, and reading them back.

Owns: `arrow_state` (an `Arrow` as JSON values, floats read back bit for bit), `arrow_from_state`
(the arrow and its order, or `ArrowStateError` naming the field: any value at all gives one or
the other) and the limits a saved arrow must be within.
Does not own: the arrow (`game.rules.arrow`), which entries of a column are arrows
(`game.rules.saved_entities`), the live arrows (`game.rules.arrows`).
"""

from __future__ import annotations

import math

from physics.tolerances import MAX_DISPLACEMENT

from .arrow import GROUND_LIFE_TICKS, SHAKE_TICKS, SIZE, Arrow
from .saved_entities import ARROW, MAX_WHOLE_NUMBER, finite_box, read_entity, whole_number
from .saved_values import flag, numbers, preview
from ..world.blocks import block_id

ARROW_STATE_VERSION = 1
"""Written into each saved arrow, so a later format can tell old ones apart."""
MAX_SAVED_SPEED = 10.0
"""[blocks/tick] Largest saved motion component: a bow gives 1.5, gravity at most 3 (0.03 against
the 0.99 drag), a water current 0.014 a tick; more is damage."""
MAX_ANGLE = 1e6
"""[degrees] Largest saved yaw or pitch: the wrapping keeps them within a few turns."""
MAX_SHOOTER_NAME = 64
"""[characters] Longest saved shooter name (a player's name is at most 16)."""
_SIZE_SLACK = 1e-6
"""[blocks] How far a saved box's edges may be from SIZE: moves round its corners by far less."""
_OWNER = "a saved arrow"


class ArrowStateError(ValueError):
    """A saved arrow that cannot be used; the message names the field."""


def arrow_state(arrow: Arrow, order: int = 0) -> dict:
    """`arrow` as JSON values for its column's entity list, with `order`, its place among the live ones."""
    return {
        "kind": ARROW, "version": ARROW_STATE_VERSION, "order": order, "key": arrow.key,
        "position": list(arrow.position), "motion": list(arrow.motion), "box": list(arrow.box),
        "previous": list(arrow.previous), "yaw": arrow.yaw, "pitch": arrow.pitch,
        "previous_yaw": arrow.previous_yaw, "previous_pitch": arrow.previous_pitch,
        "rand": arrow.rand, "kept_gaussian": arrow.kept_gaussian, "shooter": arrow.shooter,
        "pickable": arrow.pickable, "age": arrow.age, "ticks_in_air": arrow.ticks_in_air,
        "in_ground": arrow.in_ground, "ticks_in_ground": arrow.ticks_in_ground,
        "tile": None if arrow.tile is None else list(arrow.tile), "tile_block": arrow.tile_block,
        "shake": arrow.shake, "in_water": arrow.in_water,
    }


def arrow_from_state(state: object) -> tuple[Arrow, int]:
    """The arrow saved by `arrow_state` and its order; ArrowStateError naming the field otherwise."""
    return read_entity(_arrow_from_state, state, _OWNER, ArrowStateError)


def _arrow_from_state(state: object) -> tuple[Arrow, int]:
    error = ArrowStateError
    if not isinstance(state, dict):
        raise error(f"{_OWNER} must be an object, got {type(state).__name__}")
    if state.get("kind") != ARROW or state.get("version") != ARROW_STATE_VERSION:
        raise error(f"{_OWNER} has kind {preview(state.get('kind'))} and version {preview(state.get('version'))}; "
                    f"this game reads kind {ARROW!r} version {ARROW_STATE_VERSION}")
    order = whole_number(state, "order", MAX_WHOLE_NUMBER, _OWNER, error)
    key = whole_number(state, "key", MAX_WHOLE_NUMBER, _OWNER, error)
    position, previous = _place(state, "position"), _place(state, "previous")
    motion = numbers(state, "motion", 3, _OWNER, error)
    if any(abs(v) > MAX_SAVED_SPEED for v in motion):
        raise error(f"{_OWNER}'s 'motion' must be within {MAX_SAVED_SPEED} blocks/tick, got {preview(motion)}")
    box = finite_box(state, "box", _OWNER, error)
    if any(abs((box[axis + 3] - box[axis]) - SIZE) > _SIZE_SLACK or abs(box[axis]) > MAX_DISPLACEMENT
           for axis in range(3)):
        raise error(f"{_OWNER}'s 'box' must be a {SIZE} cube within {MAX_DISPLACEMENT:g} blocks, got {tuple(box)!r}")
    angles = [_angle(state, name) for name in ("yaw", "pitch", "previous_yaw", "previous_pitch")]
    rand = whole_number(state, "rand", (1 << 48) - 1, _OWNER, error)
    kept = state.get("kept_gaussian")
    if kept is not None:
        (kept,) = numbers(state, "kept_gaussian", None, _OWNER, error)
    shooter = state.get("shooter")
    if not (shooter is None or (isinstance(shooter, str) and len(shooter) <= MAX_SHOOTER_NAME)
            or (isinstance(shooter, int) and not isinstance(shooter, bool) and 0 <= shooter <= MAX_WHOLE_NUMBER)):
        raise error(f"{_OWNER}'s 'shooter' must be null, a key (0..{MAX_WHOLE_NUMBER}) or a name of at most "
                    f"{MAX_SHOOTER_NAME} characters, got {preview(shooter)}")
    pickable, in_ground, in_water = (flag(state, name, _OWNER, error) for name in ("pickable", "in_ground", "in_water"))
    age = whole_number(state, "age", MAX_WHOLE_NUMBER, _OWNER, error)
    ticks_in_air = whole_number(state, "ticks_in_air", MAX_WHOLE_NUMBER, _OWNER, error)
    ticks_in_ground = whole_number(state, "ticks_in_ground", GROUND_LIFE_TICKS - 1, _OWNER, error)
    shake = whole_number(state, "shake", SHAKE_TICKS, _OWNER, error)
    tile, tile_block = _tile(state)
    if in_ground and tile is None:
        raise error(f"{_OWNER} is in the ground but has no 'tile' (the block it is stuck in)")
    return Arrow(key, position, (motion[0], motion[1], motion[2]), box, previous, *angles, rand, kept, shooter,
                 pickable, age, ticks_in_air, in_ground, ticks_in_ground, tile, tile_block, shake, in_water), order


def _place(state: dict, name: str) -> tuple[float, float, float]:
    values = numbers(state, name, 3, _OWNER, ArrowStateError)
    if any(abs(v) > MAX_DISPLACEMENT for v in values):
        raise ArrowStateError(f"{_OWNER}'s {name!r} must be within {MAX_DISPLACEMENT:g} blocks, got {preview(values)}")
    return float(values[0]), float(values[1]), float(values[2])


def _angle(state: dict, name: str) -> float:
    value = state.get(name)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or abs(value) > MAX_ANGLE:
        raise ArrowStateError(f"{_OWNER}'s {name!r} must be a finite number of degrees within {MAX_ANGLE:g}, "
                              f"got {preview(value)}")
    return float(value)


def _tile(state: dict) -> tuple[tuple[int, int, int] | None, str | None]:
    tile, name = state.get("tile"), state.get("tile_block")
    if tile is None and name is None:
        return None, None
    if (not isinstance(tile, list) or len(tile) != 3
            or not all(isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_DISPLACEMENT for v in tile)):
        raise ArrowStateError(f"{_OWNER}'s 'tile' must be null or three whole numbers (a cell), got {preview(tile)}")
    try:
        block_id(name)
    except ValueError:
        raise ArrowStateError(f"{_OWNER}'s 'tile_block' must name a block, got {preview(name)}") from None
    return (tile[0], tile[1], tile[2]), name
