"""What a Beta creature wants each tick: Beta's `EntityCreature.updatePlayerActionState` and each
kind's `attackEntity`, turned into a `physics.Intent` and a few actions.

Owns: `Senses` (what every creature may know this tick: the players, the time of day, the light,
the path budget; filled by `game.rules.mobs` once a tick and shared), the actions a brain asks of
the game (`MeleeHit`, `ShootArrow`, `Explode`, `MakeSound`), `new_intent` (a `physics.Intent` made without
its checks when its values plainly pass them: a hundred brains make one a tick), and
`CreatureBrain`, one creature's mind:
- a monster picks the nearest living player within TARGET_RANGE_BLOCKS that it can see (a spider
  only in the dark, BETA's `findPlayerToAttack`), keeps it while it lives, and asks for a path to
  it (`game.rules.pathfinding`) when it has none or 1 tick in 20; without a target, now and then a
  wander path to the best of 10 random spots near it; animals only wander, and flee when hurt;
- it walks its path: the next point's centre, turning at most MAX_TURN_DEGREES a tick, forward
  at its kind's speed, jumping when the point is higher, when blocked with no path, and 8 ticks in
  10 in water or lava;
- attacks, each kind as Beta: zombies and spiders hit within 2 blocks once every 20 ticks (a spider
  leaps from 2 to 6 blocks away, 1 tick in 10 on the ground, and forgets its target in light 1 tick
  in 100); a skeleton within 10 blocks stands, faces the player and shoots every 30 ticks; a creeper
  within 3 blocks hisses and stands, and explodes after FUSE_TICKS (the fuse runs down again when
  the player is 7 or more blocks away or out of sight).
Deterministic: each brain draws from its own `JavaRandom`, seeded from the world seed and its
number. Does not own: moving (physics), paths (`game.rules.pathfinding`), health, fire and death
(`game.rules.creature_life`), what a hit or an explosion does (`game.rules.mobs`, the session).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import physics
from physics import AABB, Body, Intent
from physics.floats import f32
from physics.tolerances import MAX_DISPLACEMENT

from .creature_kinds import CreatureKind, creature_kind
from .line_of_sight import clear_line
from .pathfinding import POSTPONED, find_path
from .player import EYE_HEIGHT
from .replay import wrap_yaw
from .sounds import FUSE
from ..world.java_random import JavaRandom

TARGET_RANGE_BLOCKS = 16.0
"""[blocks] A monster looks for players this near and paths this far (Beta's 16D / 16F)."""
WANDER_RANGE_BLOCKS = 10.0
"""[blocks] A wander path's search limit (Beta's `getEntityPathToXYZ(..., 10F)`)."""
WANDER_SPOTS = 10
"""Random spots tried for a wander path; the best by `_spot_weight` wins (Beta's updateWanderPath)."""
MAX_TURN_DEGREES = f32(30.0)
"""[degrees] A creature turns at most this much a tick toward its path (Beta's +-30F clamp)."""
MELEE_RANGE_BLOCKS = f32(2.0)
MELEE_COOLDOWN_TICKS = 20
"""[ticks] A melee hit needs the target within 2 blocks and sets the attack time to 20 (Beta's EntityMob)."""
SHOOT_RANGE_BLOCKS = f32(10.0)
SHOOT_COOLDOWN_TICKS = 30
"""[ticks] A skeleton shoots within 10 blocks, once every 30 ticks (Beta's EntitySkeleton)."""
PLAYER_EYE_OFFSET = float(f32(0.12))
"""[blocks] Beta's `EntityPlayer.getEyeHeight` (0.12F) above its posY (feet + 1.62): where a skeleton
aims (`game.rules.arrow.skeleton_arrow` takes the aim and the arrow's start from there)."""
FUSE_TICKS = 30
"""[ticks] A creeper explodes after hissing this long (Beta's 30)."""
FUSE_START_BLOCKS = f32(3.0)
FUSE_KEEP_BLOCKS = f32(7.0)
"""[blocks] A creeper lights its fuse within 3 blocks and keeps it burning within 7."""
CREEPER_POWER = f32(3.0)
"""The creeper's explosion power (Beta's 3F)."""
LEAP_RANGE_BLOCKS = (f32(2.0), f32(6.0))
LEAP_SPEED = 0.5 * 0.800000011920929
LEAP_KEEP = 0.20000000298023224
LEAP_LIFT = 0.4000000059604645
"""The spider's leap (Beta's `motionX = dx / d * 0.5D * 0.8F + motionX * 0.2F`, `motionY = 0.4F`)."""
SPIDER_CALM_BRIGHTNESS = f32(0.5)
"""A spider hunts only where its brightness is below this (Beta's EntitySpider)."""
SWIM_JUMP_CHANCE = f32(0.8)
FLEE_TICKS = 60
"""[ticks] A hurt animal runs this long (Beta 1.8's fleeingTick: Beta 1.7.3's animals do not flee)."""
FLEE_INPUT = 1.0
"""[1] A fleeing animal's forward input: the most a walk takes."""
PLAYER_EYE_HEIGHT = EYE_HEIGHT
"""[blocks] Where a creature aims at and looks for a player: its eye above its feet (`player.EYE_HEIGHT`)."""


# --- what every brain knows this tick ------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Sighted:
    """A living player as creatures see it."""

    index: int
    """Its place in the join order (the session's)."""
    body: Body
    feet: tuple[float, float, float] = field(init=False, repr=False, compare=False)
    """`body.feet`, worked out once (every creature reads it every tick)."""
    eye: tuple[float, float, float] = field(init=False, repr=False, compare=False)
    """Where creatures look at it: PLAYER_EYE_HEIGHT above its feet."""

    def __post_init__(self) -> None:
        x, y, z = feet = self.body.feet
        object.__setattr__(self, "feet", feet)
        object.__setattr__(self, "eye", (x, y + PLAYER_EYE_HEIGHT, z))


@dataclass(slots=True)
class Senses:
    """What every creature may know this tick, and what they asked of the game (`actions`)."""

    players: tuple[Sighted, ...] = ()
    daytime: bool = True
    brightness: object = None
    """Callable (feet, height) -> Beta's brightness 0..1 of a body that tall there
    (`creature_spawning.creature_light`); None: everywhere dark."""
    budget: object = None
    sight: dict = field(default_factory=dict)
    """This tick's `line_of_sight.SightArea` around each living player, by its index."""
    by_index: dict = field(default_factory=dict)
    """The living players by index (`players` as a mapping)."""
    """The tick's `game.rules.pathfinding.PathBudget` (shared by every brain)."""
    actions: list = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class MeleeHit:
    """A creature hits the player `player` (join order) for `damage`, from `at` (x, z)."""

    player: int
    damage: int
    at: tuple[float, float]


@dataclass(frozen=True, slots=True)
class ShootArrow:
    """A skeleton (`shooter`, its brain) whose feet are at `feet`, looking along `yaw` and `pitch`,
    shoots at `target` (a player's Beta posY + getEyeHeight: `arrow.skeleton_arrow` aims it)."""

    shooter: object
    feet: tuple[float, float, float]
    yaw: float
    pitch: float
    target: tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class MakeSound:
    """A creature's sound `name` (`game.rules.sounds`) at `position`."""

    name: str
    position: tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class Explode:
    """A creeper's fuse ran out: an explosion of `power` at `centre`; the creeper is gone."""

    centre: tuple[float, float, float]
    power: float


# --- the brain ---------------------------------------------------------------------------------------

class CreatureBrain:
    """One creature's mind. `think(body, world)` once a tick, before the creature steps."""

    def __init__(self, kind: CreatureKind | str, seed: int, yaw: float = 0.0, senses: Senses | None = None) -> None:
        self.kind = kind if isinstance(kind, CreatureKind) else creature_kind(kind)
        self.seed = seed
        self.random = JavaRandom(seed)
        self.yaw = yaw
        self.senses = senses if senses is not None else Senses()
        self.target: int | None = None
        """The join-order index of the player it hunts (None: none)."""
        self.path = None
        """Its `game.rules.pathfinding.Path`, or None."""
        self.path_index = 0
        self.attack_time = 0
        self.fuse = 0
        """[ticks] A creeper's burning fuse (0: not lit)."""
        self.flee_ticks = 0
        self.leap: tuple[float, float, float] | None = None
        """A velocity the creature takes before its step this tick (a spider's leap), for the manager."""
        self.dead = False
        self._last_intent: Intent | None = None
        """The last intent made (not part of the brain's state)."""

    # --- the tick's decision ----------------------------------------------------------------------

    def think(self, body: Body, world: physics.CollisionWorld) -> Intent:
        """The intent for `body`'s next step (see the module docstring)."""
        if self.attack_time > 0:
            self.attack_time -= 1
        if self.dead:
            return self._intent(0.0, 0.0, self.yaw, False)
        senses = self.senses
        kind = self.kind
        target = self._hunt(body, world, senses) if kind.hostile else None  # an animal hunts no one
        stands = seen = False
        if target is not None:
            distance = _distance_to_player(body, target)
            seen = _can_see(world, body, kind, target, senses)
            if seen:
                stands = self._attack(body, target, distance)
            elif kind.name == "creeper":
                self._cool_fuse()
        elif kind.name == "creeper":
            self._cool_fuse()
        random = self.random
        if not stands and target is not None and (self.path is None or random.next_int(20) == 0):
            self._set_path(find_path(world, body.box, target.feet, TARGET_RANGE_BLOCKS, senses.budget))
        elif not stands and (self.path is None and (self.flee_ticks or random.next_int(80) == 0)
                             or random.next_int(80) == 0):
            self._wander(body, world)
        if self.flee_ticks:
            self.flee_ticks -= 1
        swimming = body.in_water or body.in_lava
        if self.path is not None and random.next_int(100) == 0:
            self.path = None
        forward, jump = self._follow(body) if self.path is not None else (0.0, False)
        if self.path is None:  # no path, or it ran out on this tick
            jump = (swimming and random.next_float() < SWIM_JUMP_CHANCE) or body.collided_horizontally
            # Boxel: a hunter out of path toward a target it sees walks straight at it (Beta's stands),
            # so a spider reaches, and climbs, the wall its target stands on.
            forward = kind.move_speed if seen and not stands else 0.0
            return self._intent(forward, 0.0, self._face(target, body), jump)
        yaw = self.yaw
        strafe = 0.0
        if stands and target is not None:
            forward, strafe, yaw = self._strafe_facing(body, target, forward)
        if swimming and random.next_float() < SWIM_JUMP_CHANCE:
            jump = True
        return self._intent(forward, strafe, yaw, jump)

    def _intent(self, forward: float, strafe: float, yaw: float, jump: bool) -> Intent:
        """An intent carrying the kind's ways of moving (a spider's climbing, a chicken's slow fall); the
        last one again while it is the same (an Intent checks its values as it is made)."""
        last = self._last_intent
        if (last is not None and last.forward == forward and last.strafe == strafe and last.yaw == yaw
                and last.jump is jump and math.copysign(1.0, last.forward) == math.copysign(1.0, forward)
                and math.copysign(1.0, last.strafe) == math.copysign(1.0, strafe)
                and math.copysign(1.0, last.yaw) == math.copysign(1.0, yaw)):
            return last
        kind = self.kind
        last = self._last_intent = new_intent(forward, strafe, yaw, jump, kind.climbs_walls, kind.slow_fall)
        return last

    def hurt_by(self, attacker_index: int | None) -> None:
        """It was hurt (by the player `attacker_index`, or by the world): an animal flees; a monster
        turns on a player that hit it."""
        if not self.kind.hostile:
            self.flee_ticks = FLEE_TICKS
            self.path = None
        elif attacker_index is not None:
            self.target = attacker_index

    # --- targets -------------------------------------------------------------------------------------

    def _hunt(self, body: Body, world, senses: Senses) -> Sighted | None:
        """The player it hunts this tick: kept while alive and present, else the nearest within
        TARGET_RANGE_BLOCKS that it can see (monsters only; a spider only in the dark)."""
        kind = self.kind
        if not kind.hostile:
            return None
        if self.target is not None:
            kept = senses.by_index.get(self.target)
            if kept is not None:
                return kept
            self.target = None
        if kind.name == "spider" and not self._in_dark(body):
            return None
        nearest, best = None, TARGET_RANGE_BLOCKS
        for player in senses.players:
            distance = _distance_to_player(body, player)
            if distance < best:
                nearest, best = player, distance
        if nearest is not None and _can_see(world, body, kind, nearest, senses):
            self.target = nearest.index
            self.path = None
            return nearest
        return None

    def _in_dark(self, body: Body) -> bool:
        brightness = self.senses.brightness
        return brightness is None or brightness(body.feet, self.kind.height) < SPIDER_CALM_BRIGHTNESS

    # --- attacks (Beta's attackEntity of each kind) ----------------------------------------------------

    def _attack(self, body: Body, target: Sighted, distance: float) -> bool:
        """The kind's attack on a player it sees; True when it stands still for it (Beta's hasAttacked)."""
        name = self.kind.name
        if name == "skeleton":
            return self._shoot(body, target, distance)
        if name == "creeper":
            return self._light_fuse(body, target, distance)
        if name == "spider":
            if not self._in_dark(body) and self.random.next_int(100) == 0:
                self.target = None
                return False
            if LEAP_RANGE_BLOCKS[0] < distance < LEAP_RANGE_BLOCKS[1] and self.random.next_int(10) == 0:
                if body.on_ground:
                    self._leap_at(body, target)
                return False
        self._melee(body, target, distance)
        return False

    def _melee(self, body: Body, target: Sighted, distance: float) -> None:
        """Beta's EntityMob: within 2 blocks, overlapping in height, attack time spent."""
        box, other = body.box, target.body.box
        if self.attack_time <= 0 and distance < MELEE_RANGE_BLOCKS and other[4] > box[1] and other[1] < box[4]:
            self.attack_time = MELEE_COOLDOWN_TICKS
            x, _, z = body.feet
            self.senses.actions.append(MeleeHit(target.index, self.kind.attack_damage, (x, z)))

    def _leap_at(self, body: Body, target: Sighted) -> None:
        x, _, z = body.feet
        tx, _, tz = target.feet
        dx, dz = tx - x, tz - z
        length = float(f32(math.sqrt(dx * dx + dz * dz))) or 1.0
        vx, _, vz = body.velocity
        self.leap = (dx / length * LEAP_SPEED + vx * LEAP_KEEP, LEAP_LIFT, dz / length * LEAP_SPEED + vz * LEAP_KEEP)

    def _shoot(self, body: Body, target: Sighted, distance: float) -> bool:
        if not distance < SHOOT_RANGE_BLOCKS:
            return False
        x, y, z = body.feet
        tx, ty, tz = target.feet
        dx, dz = tx - x, tz - z
        if self.attack_time == 0:
            self.senses.actions.append(ShootArrow(self, body.feet, self.yaw, 0.0,
                                                  (tx, ty + PLAYER_EYE_HEIGHT + PLAYER_EYE_OFFSET, tz)))
            self.attack_time = SHOOT_COOLDOWN_TICKS
        self.yaw = wrap_yaw(float(f32(math.atan2(dz, dx) * 180.0 / math.pi)) - 90.0)
        return True

    def _light_fuse(self, body: Body, target: Sighted, distance: float) -> bool:
        lit = self.fuse > 0
        if (not lit and distance >= FUSE_START_BLOCKS) or (lit and distance >= FUSE_KEEP_BLOCKS):
            self._cool_fuse()
            return False
        if self.fuse == 0:  # Beta's "random.fuse" as the fuse is lit
            self.senses.actions.append(MakeSound(FUSE, body.feet))
        self.fuse += 1
        if self.fuse >= FUSE_TICKS:
            self.senses.actions.append(Explode(body.feet, CREEPER_POWER))
            self.dead = True
        return True

    def _cool_fuse(self) -> None:
        if self.fuse > 0:
            self.fuse -= 1

    # --- paths -------------------------------------------------------------------------------------------

    def _set_path(self, path) -> None:
        if path is POSTPONED:
            return  # the tick's search budget is spent: keep the old path and ask again
        self.path = path if path is not None and path.points else None
        self.path_index = 0

    def _wander(self, body: Body, world) -> None:
        """Beta's updateWanderPath: the best of WANDER_SPOTS random spots within 6 blocks across and
        3 up or down, by `_spot_weight`; a fleeing animal prefers spots away from where it stands."""
        random = self.random
        x, y, z = (math.floor(v) for v in body.feet)
        best, best_weight = None, -math.inf
        for _ in range(WANDER_SPOTS):
            sx = x + random.next_int(13) - 6
            sy = y + random.next_int(7) - 3
            sz = z + random.next_int(13) - 6
            weight = self._spot_weight(world, sx, sy, sz) + (abs(sx - x) + abs(sz - z) if self.flee_ticks else 0.0)
            if weight > best_weight:
                best, best_weight = (sx + 0.5, sy + 0.5, sz + 0.5), weight
        if best is not None:
            self._set_path(find_path(world, body.box, best, WANDER_RANGE_BLOCKS, self.senses.budget))

    def _spot_weight(self, world, x: int, y: int, z: int) -> float:
        """Beta's getBlockPathWeight: animals like grass (10) and light; monsters the dark."""
        if not self.kind.hostile and world.get_block(x, y - 1, z) == "grass":
            return 10.0
        brightness = self.senses.brightness
        light = 0.5 if brightness is None else brightness((x + 0.5, float(y), z + 0.5), 0.0)
        return 0.5 - light if self.kind.hostile else light - 0.5

    def _follow(self, body: Body) -> tuple[float, bool]:
        """Walk the path: skip the points already within 2 x width horizontally, turn toward the next
        (at most MAX_TURN_DEGREES), jump when it is higher than the feet."""
        kind = self.kind
        x, y, z = body.feet
        width = kind.width
        reach = width * 2.0
        reach_sq = reach * reach
        point = None
        path, index = self.path, self.path_index  # kept in locals while walking, stored back after
        while path is not None:
            point = path.position(index, width)
            if (point[0] - x) ** 2 + (point[2] - z) ** 2 >= reach_sq:
                break
            index += 1
            if index >= len(path.points):
                path, point = None, None
        self.path, self.path_index = path, index
        if point is None:
            return 0.0, False
        wanted = f32(math.atan2(point[2] - z, point[0] - x) * 180.0 / math.pi) - 90.0
        self.yaw = wrap_yaw(self.yaw + _turn_within_limit(wanted - self.yaw))
        speed = FLEE_INPUT if self.flee_ticks else kind.move_speed
        return speed, point[1] - math.floor(body.box[1] + 0.5) > 0.0

    def _strafe_facing(self, body: Body, target: Sighted, forward: float) -> tuple[float, float, float]:
        """Beta: a creature that attacked this tick faces its target and keeps walking its path sideways."""
        x, _, z = body.feet
        tx, _, tz = target.feet
        walked = self.yaw
        facing = float(f32(math.atan2(tz - z, tx - x) * 180.0 / math.pi)) - 90.0
        angle = math.radians((walked - facing) + 90.0)
        return math.cos(angle) * forward, -math.sin(angle) * forward, wrap_yaw(facing)

    def _face(self, target: Sighted | None, body: Body) -> float:
        if target is not None:
            x, _, z = body.feet
            tx, _, tz = target.feet
            wanted = f32(math.atan2(tz - z, tx - x) * 180.0 / math.pi) - 90.0
            self.yaw = wrap_yaw(self.yaw + _turn_within_limit(wanted - self.yaw))
        return self.yaw

    # --- the saved form ----------------------------------------------------------------------------------

    def to_state(self) -> dict:
        return {"kind": self.kind.name, "seed": self.seed, "yaw": self.yaw, "random": self.random.state,
                "attack_time": self.attack_time, "fuse": self.fuse, "flee_ticks": self.flee_ticks}

    @classmethod
    def from_state(cls, state: dict) -> CreatureBrain:
        """The brain `to_state` described (targets and paths are found again); ValueError,
        TypeError or KeyError when it cannot be used."""
        yaw = state["yaw"]
        if isinstance(yaw, bool) or not isinstance(yaw, (int, float)) or not math.isfinite(yaw):
            raise ValueError(f"a creature's yaw must be a finite number of degrees, got {yaw!r}")
        brain = cls(creature_kind(state["kind"]), int(state["seed"]), wrap_yaw(yaw))
        brain.random = JavaRandom.from_state(int(state["random"]))
        for name, high in (("attack_time", SHOOT_COOLDOWN_TICKS), ("fuse", FUSE_TICKS), ("flee_ticks", FLEE_TICKS)):
            value = state[name]
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
                raise ValueError(f"a creature's {name!r} must be a whole number in 0..{high}, got {value!r}")
            setattr(brain, name, value)
        return brain


_INTENT_SETTERS = tuple(Intent.__dict__[name].__set__ for name in (
    "forward", "strafe", "yaw", "jump", "sneak", "sprint", "fly", "climbs_walls", "slow_fall"))
"""Intent's slot setters, in its fields' order (`new_intent` sets them straight)."""
_MAX_INTENT_VALUE = MAX_DISPLACEMENT
"""[1] The largest forward, strafe or yaw an Intent takes (`physics.body.require_finite`'s limit)."""


def new_intent(forward: float, strafe: float, yaw: float, jump: bool, climbs_walls: bool, slow_fall: bool) -> Intent:
    """`Intent(forward=..., strafe=..., yaw=..., jump=..., climbs_walls=..., slow_fall=...)`, made without
    its checks when the values plainly pass them (floats within its limit, bools): a hundred brains make
    one a tick, and its checks cost most of the making. Anything else goes through `Intent`, which
    refuses what it refuses (a test compares both)."""
    if (forward.__class__ is float and strafe.__class__ is float and yaw.__class__ is float
            and jump.__class__ is bool and climbs_walls.__class__ is bool and slow_fall.__class__ is bool
            and abs(forward) <= _MAX_INTENT_VALUE and abs(strafe) <= _MAX_INTENT_VALUE
            and abs(yaw) <= _MAX_INTENT_VALUE):  # NaN fails these comparisons
        intent = _new_object(Intent)
        (set_forward, set_strafe, set_yaw, set_jump, set_sneak, set_sprint, set_fly, set_climbs,
         set_slow_fall) = _INTENT_SETTERS
        set_forward(intent, forward)
        set_strafe(intent, strafe)
        set_yaw(intent, yaw)
        set_jump(intent, jump)
        set_sneak(intent, False)
        set_sprint(intent, False)
        set_fly(intent, False)
        set_climbs(intent, climbs_walls)
        set_slow_fall(intent, slow_fall)
        return intent
    return Intent(forward=forward, strafe=strafe, yaw=yaw, jump=jump, climbs_walls=climbs_walls, slow_fall=slow_fall)


_new_object = object.__new__




def _turn_within_limit(difference: float) -> float:
    """[degrees] The turn toward a direction `difference` degrees away: the difference wrapped into
    [-180, 180), at most MAX_TURN_DEGREES either way (Beta's `updatePlayerActionState` clamp)."""
    turn = (difference + 180.0) % 360.0 - 180.0
    if turn > MAX_TURN_DEGREES:
        return MAX_TURN_DEGREES
    if turn < -MAX_TURN_DEGREES:
        return -MAX_TURN_DEGREES
    return turn


def _distance_to_player(body: Body, player: Sighted) -> float:
    """[blocks] Beta's getDistanceToEntity from a creature (posY its feet) to a player (posY its eye)."""
    box = body.box  # its feet: `Body.feet`, read straight from the box
    px, py, pz = player.eye
    return math.sqrt((px - (box[0] + box[3]) / 2.0) ** 2 + (py - box[1]) ** 2 + (pz - (box[2] + box[5]) / 2.0) ** 2)


def _can_see(world, body: Body, kind: CreatureKind, player: Sighted, senses: Senses | None = None) -> bool:
    """Beta's canEntityBeSeen: no block between the creature's eye and the player's (through the
    tick's `SightArea` around that player when there is one: the same answer, read once)."""
    box = body.box  # its eye: `Body.feet` read straight from the box, raised by the kind's eye height
    eye = ((box[0] + box[3]) / 2.0, box[1] + kind.eye_height, (box[2] + box[5]) / 2.0)
    area = None if senses is None else senses.sight.get(player.index)
    if area is not None:
        return area.clear(eye, player.eye)
    return clear_line(world, eye, player.eye)
