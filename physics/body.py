"""Bodies and intents: the per-body state physics advances, and what a controller asks of it.

Owns: `Body` (an immutable snapshot: box, velocity, contact flags, camera lag, the medium it
moved through, fall distance, the materials it touched) and `Intent`
(one tick of input). Both validate on construction, so a bad value never enters the physics.
Does not own: how a body moves (see `mover.py` and `tick.py`).

The box is the ground truth of where a body is; the feet position is derived from it and the
box is never rebuilt from a position (rebuilding drifts by ulps, Beta's MC-2025).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .aabb import AABB
from .materials import Material
from .tolerances import MAX_BODY_SIZE, MAX_DISPLACEMENT, MIN_BOX_SIZE, SIZE_ROUNDING_ULPS
from .messages import shown


def require_finite(what: str, *values: float, limit: float = MAX_DISPLACEMENT) -> None:
    """Raise ValueError naming `what` when any value is NaN, infinite or larger than `limit` in size."""
    for v in values:
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise TypeError(f"{what} must be numbers, got {shown(values)}")
        if not _finite(v) or abs(v) > limit:
            raise ValueError(f"{what} must be finite and at most {limit:g} in size, got {shown(values)}")


def _finite(v: int | float) -> bool:
    """Finite as a float (an int too large for one, 10**400, is not)."""
    try:
        return math.isfinite(v)
    except OverflowError:
        return False


def require_size(width: float, height: float) -> None:
    for name, v in (("width", width), ("height", height)):
        if not (isinstance(v, (int, float)) and not isinstance(v, bool) and _finite(v)
                and MIN_BOX_SIZE <= v <= MAX_BODY_SIZE):
            raise ValueError(f"body {name} must be in [{MIN_BOX_SIZE:g}, {MAX_BODY_SIZE:g}] blocks, got {shown(v)}")


def size_rounding(low: float, high: float) -> float:
    """[blocks] The slack SIZE_ROUNDING_ULPS allows the extent of a box from `low` to `high`."""
    return SIZE_ROUNDING_ULPS * math.ulp(max(abs(low), abs(high), MAX_BODY_SIZE))


def extent_within(low: float, high: float, smallest: float, largest: float) -> bool:
    """Is the extent high - low of a box (finite floats) a size in [smallest, largest], up to the
    rounding its corners may have added (`size_rounding`)?"""
    slack = size_rounding(low, high)
    extent = high - low
    return max(smallest - slack, smallest / 2.0) <= extent <= largest + slack


def require_box_size(box: AABB) -> None:
    """Raise ValueError unless each extent of a finite `box` is a body size (`require_size`), up
    to the rounding its corners may have added (`tolerances.SIZE_ROUNDING_ULPS`): the box of
    `Body.at_feet(..., 0.6, 64.0)` may be 64.00000000000001 tall, and is the documented limit."""
    for name, axis in (("width", 0), ("height", 1), ("width", 2)):
        if not extent_within(box[axis], box[axis + 3], MIN_BOX_SIZE, MAX_BODY_SIZE):
            raise ValueError(f"body {name} must be in [{MIN_BOX_SIZE:g}, {MAX_BODY_SIZE:g}] blocks, "
                             f"got {shown(box[axis + 3] - box[axis])}")


@dataclass(frozen=True, slots=True)
class Body:
    """One moving body. Immutable: `physics.step` and `physics.move` return a new Body."""

    box: AABB
    """The authoritative bounds [blocks]."""
    velocity: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """[blocks/tick] Displacement the next move will try."""
    on_ground: bool = False
    """The last move was stopped while moving down (Beta's `onGround`)."""
    collided_horizontally: bool = False
    """The last move was shortened on X or Z."""
    collided_vertically: bool = False
    """The last move was shortened on Y."""
    camera_lag: float = 0.0
    """[blocks] How far the eye sits below its resting height after a step-up or while
    sneaking (Beta's `ySize`); decays x0.4 per move. While >= 0.05 no step-up is tried."""
    fall_distance: float = 0.0
    """[blocks] How far the body has fallen since it last stood, swam or climbed (Beta's
    `fallDistance`, a float): grows by each downward move in the air, is reset by water and
    ladders, and turns into `fall_damage` on landing."""
    in_water: bool = False
    """The tick moved the body as a swimmer (Beta's `inWater`, decided before the move)."""
    in_lava: bool = False
    """Lava overlapped the body before the tick's move (Beta's `handleLavaMovement`, what burns
    it); the move was a lava move unless `in_water` too (water comes first)."""
    in_web: bool = False
    """The contact pass after the move met a cobweb: the next move is slowed (Beta's `isInWeb`)."""
    fall_damage: int = 0
    """[half hearts] Damage from a landing in this tick: ceil(fall distance - 3) when positive."""
    touching: frozenset = frozenset()
    """The materials (other than AIR) of the cells the contact pass after the move visited: the
    cells the box, shrunk by 0.001, overlaps (a cactus beside the body, the soul sand under it)."""

    def __post_init__(self) -> None:
        if not isinstance(self.box, AABB):
            raise TypeError(f"Body.box must be an AABB, got {shown(self.box)}")
        if not self.box.is_finite():
            raise ValueError(f"Body.box must be finite, got {shown(self.box)}")
        require_box_size(self.box)
        if len(self.velocity) != 3:
            raise ValueError(f"velocity has three components, got {shown(self.velocity)}")
        require_finite("velocity", *self.velocity)
        require_finite("camera_lag", self.camera_lag)
        if not (isinstance(self.fall_distance, (int, float)) and not isinstance(self.fall_distance, bool)
                and _finite(self.fall_distance)
                and self.fall_distance >= 0.0):
            raise ValueError(f"fall_distance must be a finite number >= 0, got {shown(self.fall_distance)}")
        for name in ("on_ground", "collided_horizontally", "collided_vertically", "in_water", "in_lava", "in_web"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"Body.{name} must be a bool, got {shown(getattr(self, name))}")
        if isinstance(self.fall_damage, bool) or not isinstance(self.fall_damage, int) or self.fall_damage < 0:
            raise ValueError(f"fall_damage must be an int >= 0, got {shown(self.fall_damage)}")
        if not isinstance(self.touching, frozenset) or not all(isinstance(m, Material) for m in self.touching):
            raise TypeError(f"touching must be a frozenset of physics.Material, got {shown(self.touching)}")

    @classmethod
    def _trusted(cls, box: AABB, velocity: tuple[float, float, float], on_ground: bool,
                 collided_horizontally: bool, collided_vertically: bool, camera_lag: float,
                 fall_distance: float = 0.0, in_water: bool = False, in_lava: bool = False, in_web: bool = False,
                 fall_damage: int = 0, touching: frozenset = frozenset()) -> Body:
        """Build without validation: only for results derived from already validated bodies and inputs
        (finite values through bounded arithmetic stay finite).

        The fields are stored through `_BodyUnderConstruction`, a class with Body's very slots and
        no frozen `__setattr__`, whose plain attribute stores are several times cheaper than calling
        each slot's setter; the object then becomes a Body (same layout, so Python allows it)."""
        if cls is not Body:
            return _trusted_by_setters(cls, box, velocity, on_ground, collided_horizontally, collided_vertically,
                                       camera_lag, fall_distance, in_water, in_lava, in_web, fall_damage, touching)
        body = _new_object(_BodyUnderConstruction)
        body.box = box
        body.velocity = velocity
        body.on_ground = on_ground
        body.collided_horizontally = collided_horizontally
        body.collided_vertically = collided_vertically
        body.camera_lag = camera_lag
        body.fall_distance = fall_distance
        body.in_water = in_water
        body.in_lava = in_lava
        body.in_web = in_web
        body.fall_damage = fall_damage
        body.touching = touching
        body.__class__ = Body
        return body

    def _with_velocity(self, velocity: tuple[float, float, float]) -> Body:
        """This body with another (already validated) velocity, every other field kept."""
        return Body._trusted(self.box, velocity, self.on_ground, self.collided_horizontally,
                             self.collided_vertically, self.camera_lag, self.fall_distance, self.in_water,
                             self.in_lava, self.in_web, self.fall_damage, self.touching)

    @classmethod
    def at_feet(cls, x: float, y: float, z: float, width: float = 0.6, height: float = 1.8) -> Body:
        """A body at rest whose feet centre is (x, y, z); width on X and Z, height on Y [blocks]."""
        require_finite("feet position", x, y, z, limit=math.inf)
        require_size(width, height)
        return cls(AABB.around_feet(x, y, z, width, height))

    @property
    def feet(self) -> tuple[float, float, float]:
        """(centre x, min y, centre z) of the box [blocks]."""
        b = self.box
        return ((b[0] + b[3]) / 2.0, b[1], (b[2] + b[5]) / 2.0)

    @property
    def width(self) -> float:
        return self.box[3] - self.box[0]

    @property
    def height(self) -> float:
        return self.box[4] - self.box[1]


_FIELDS = ("box", "velocity", "on_ground", "collided_horizontally", "collided_vertically", "camera_lag",
           "fall_distance", "in_water", "in_lava", "in_web", "fall_damage", "touching")
"""Body's fields in `Body._trusted`'s argument order."""
assert _FIELDS == tuple(Body.__dataclass_fields__) == Body.__slots__, "Body._trusted sets every field"
_SLOT_SETTERS = tuple(Body.__dict__[name].__set__ for name in _FIELDS)
"""The setters of Body's slots, in `Body._trusted`'s argument order."""
_new_object = object.__new__


class _BodyUnderConstruction:
    """Body's slots without Body's frozen `__setattr__`: `Body._trusted` fills one and makes it a Body."""

    __slots__ = Body.__slots__


def _trusted_by_setters(cls, *fields) -> Body:
    """`Body._trusted` for a subclass of Body (whose layout may differ): each slot's own setter."""
    body = _new_object(cls)
    for set_field, value in zip(_SLOT_SETTERS, fields):
        set_field(body, value)
    return body


@dataclass(frozen=True, slots=True)
class Intent:
    """What a controller asks for during one tick.

    forward: +1 forward (W) ... -1 backward; strafe: +1 left (A) ... -1 right, as in Minecraft.
    Values beyond unit length are normalised, smaller ones scale the acceleration.
    yaw: [degrees] Minecraft's convention: 0 faces +Z, 90 faces -X, 180 faces -Z, 270 faces +X.
    fly: flying (not in Beta): no gravity, jump rises and sneak descends, the body still collides.
    climbs_walls: the body counts as on a ladder exactly when its move is blocked sideways, and
    only then (Beta's `EntitySpider.isOnLadder`, which returns `isCollidedHorizontally` and reads
    no ladder block): before the move from the previous move's flag, after it from its own.
    slow_fall: after the tick, a body not on the ground falling (vertical velocity < 0) keeps
    `MovementSettings.slow_fall_drag` of its vertical velocity (Beta's `EntityChicken`).
    Both are creature traits a controller sets every tick; their defaults change nothing.
    """

    forward: float = 0.0
    strafe: float = 0.0
    yaw: float = 0.0
    jump: bool = False
    sneak: bool = False
    sprint: bool = False
    fly: bool = False
    climbs_walls: bool = False
    slow_fall: bool = False

    def __post_init__(self) -> None:
        require_finite("intent forward/strafe/yaw", self.forward, self.strafe, self.yaw)
        for name in ("jump", "sneak", "sprint", "fly", "climbs_walls", "slow_fall"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"Intent.{name} must be a bool, got {shown(getattr(self, name))}")
