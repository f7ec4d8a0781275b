"""Thrown projectiles: a small box thrown from the eye that flies with gravity, bounces off blocks,
knocks back the mobs it hits, hits the player once clear of the throw, and disappears once it
has come to rest.

Owns: `Projectile` (an immutable snapshot of one projectile), `throw` (a new one at the eye,
along the look direction), `step_projectile` (one tick of one projectile), `Knock` (a hit mob's
velocity impulse), `PlayerHit` (the player was hit, and where), `Projectiles` (the live
ones: throw, tick, remove the spent, blended views, save and restore with their columns) and a
projectile's saved form (`projectile_state`, `projectile_from_state`).
Pure: no Ursina. Does not own: the swept hit tests and the bounce (`physics.cast`,
`physics.first_hit`, `physics.resolve`), the response table (`physics.response_for`), mobs
(`game.rules.mobs` applies the knocks), what a hit does to the player (`game.rules.health`), the look
direction (`game.rules.targeting`) or drawing.

The player throws with Q. The hotbar holds only blocks, so there is no throwable item to
right-click with; Q needs no item.

One tick of a projectile (Beta's thrown-entity order: move, then drag, then gravity):
1. the mob hit test: the projectile's box swept along its velocity against the mobs' boxes
   and, once it has flown THROWER_SAFE_TICKS ticks, the player's (`physics.first_hit`); a
   body counts when it is reached no later than the first block (`physics.cast`) on the same
   straight path;
2. move: with a mob hit, up to the contact with the mob, then the motion into the mob is
   reversed and scaled by RESTITUTION (it bounces off the mob) and the mob gets a Knock; the
   rest of that tick's motion is dropped. Without one, the whole velocity through
   `physics.resolve` with the response of `response_for(PROJECTILE, BLOCK)` (BOUNCE) and
   RESTITUTION. A mob met after a bounce off a block within the same tick is found on the
   next tick (a tick's path after a bounce is at most one tick long);
3. velocity: times AIR_DRAG, times GROUND_FRICTION on X and Z when it touched a floor, minus
   GRAVITY on Y;
4. rest: when its speed stays below REST_SPEED for REST_TICKS ticks in a row, or it has lived
   MAX_LIFETIME_TICKS, it is spent and removed.
Saving: `Projectiles.save()` writes every live projectile into the entity list of the column it
is in (its own entries only: `game.rules.saved_entities`), with its whole body and the one before it,
its age, rest count, key and place among the live ones; a new `Projectiles` on the same world
restores them all in that order, so a save and reload mid-flight flies on as if nothing
happened (only the F3 overlay's contacts of the last tick are not kept). A saved projectile that
cannot be used is kept in its column as it is (written back unchanged) with a warning; one whose
key repeats another's (a copied entry) is dropped with a warning.

Mobs are not solid to each other or to the player, but they are to a projectile: it bounces off
them. The player is hit as a mob is (it bounces off and the hit is a `PlayerHit`: the game's
health rules deal it and knock the player back), except during the first THROWER_SAFE_TICKS
ticks of the projectile's flight: the player is the only thrower, and the projectile starts
inside the player's box.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, replace

import physics
from physics import AABB, Body, BodyKind, Contact

from .game_world import GameWorld
from .player import blend
from .saved_entities import (MAX_WHOLE_NUMBER, PROJECTILE, body_from_state, body_state, owned_by, read_entity,
                             save_by_column, stored_entries, whole_number)
from .saved_values import preview
from .targeting import look_direction
from ..world.coords import column_of

SIZE_BLOCKS = 0.25
"""[blocks] Edge of a projectile's cube (Beta's snowball)."""
THROW_SPEED = 1.5
"""[blocks/tick] Speed along the look direction when thrown (Beta's snowball: 30 blocks/s)."""
GRAVITY = 0.03
"""[blocks/tick^2] Taken from the vertical velocity after each tick's move (Beta's throwables)."""
AIR_DRAG = 0.99
"""[1/tick] Fraction of the velocity kept per tick (Beta's throwables)."""
RESTITUTION = 0.5
"""[1] Fraction of the speed into a surface (block or mob) kept, reversed, by a bounce."""
GROUND_FRICTION = 0.7
"""[1/tick] Fraction of the horizontal velocity kept on a tick when it touched a floor: a thrown
box rolls to a stop within about a second instead of sliding on."""
REST_SPEED = 0.05
"""[blocks/tick] Below this speed a projectile counts as at rest. On a floor it never reaches 0:
each tick gravity pulls it 0.03 into the floor and the bounce sends half of that back, so it
jitters at speeds up to ~0.03; 0.05 is above that jitter and below any visible roll (1 block/s)."""
REST_TICKS = 10
"""[ticks] A projectile disappears after this many ticks in a row at rest (half a second)."""
MAX_LIFETIME_TICKS = 200
"""[ticks] A projectile disappears after 10 s whatever it does (one stuck bouncing in a gap)."""
KNOCKBACK_SPEED = 0.4
"""[blocks/tick] Horizontal speed a hit gives a mob, along the projectile's horizontal motion
(Beta's knockback strength)."""
KNOCKBACK_LIFT = 0.3
"""[blocks/tick] Upward speed a hit adds to a mob: a small hop that shows the hit."""
THROWER_SAFE_TICKS = 4
"""[ticks] A projectile that has flown fewer ticks than this never hits the player (its only
thrower). Beta's throwables skip their thrower while `ticksInAir < 5`, counted from 1 on their
first tick; `age_ticks` counts from 0, so the first hit can come on the fifth tick of flight."""
RESPONSE = physics.response_for(BodyKind.PROJECTILE, BodyKind.BLOCK)
"""What a projectile does at a block: BOUNCE (physics' response table)."""
PROJECTILE_STATE_VERSION = 1
"""Written into each saved projectile, so a later format can tell old ones apart."""
MAX_SAVED_SPEED = 4.0 * THROW_SPEED
"""[blocks/tick] Largest velocity component of a saved projectile: a throw gives THROW_SPEED,
gravity adds at most ~3 blocks/tick over a lifetime (its terminal speed with AIR_DRAG), and a
mob's knock-back nothing to it; more is damage."""
_OWNS = owned_by(PROJECTILE)
_SIZE_SLACK = 1e-6
"""[blocks] How far a saved box's edges may be from SIZE_BLOCKS: moves round its corners by far less."""


@dataclass(frozen=True, slots=True)
class Knock:
    """A projectile hit a mob: add `impulse` to its velocity."""

    index: int
    """The mob's position in the sequence of mob bodies the tick was given (crowd order)."""
    impulse: tuple[float, float, float]
    """[blocks/tick] Velocity change."""


@dataclass(frozen=True, slots=True)
class PlayerHit:
    """A projectile hit a player."""

    at: tuple[float, float]
    """[blocks] (x, z) of the projectile's centre where it met the player (the knock-back pushes away from it)."""
    player: int = 0
    """Which player: its position in the players' boxes the tick was given (join order; 0 with one player)."""


@dataclass(frozen=True, slots=True)
class Projectile:
    """One projectile after a tick."""

    key: int
    """Unique among this session's projectiles (a renderer keys its models by it)."""
    body: Body
    """Its box and velocity [blocks/tick]."""
    previous: Body
    """Its body one tick earlier (views blend from it)."""
    age_ticks: int = 0
    """Ticks flown."""
    slow_ticks: int = 0
    """Ticks in a row its speed has been below REST_SPEED."""
    contacts: tuple[Contact, ...] = ()
    """The contacts of its last tick, blocks and mobs, in order (the F3 overlay draws them)."""

    @property
    def spent(self) -> bool:
        """It came to rest, or lived its full life: it disappears."""
        return self.slow_ticks >= REST_TICKS or self.age_ticks >= MAX_LIFETIME_TICKS


def throw(key: int, eye: Sequence[float], yaw: float, pitch: float) -> Projectile:
    """A projectile centred at `eye` [blocks] moving THROW_SPEED along the look (`yaw`, `pitch`) [degrees].

    TypeError / ValueError for non-numbers or non-finite values."""
    try:
        x, y, z = eye
    except (TypeError, ValueError):
        raise TypeError(f"eye must be three numbers (x, y, z), got {eye!r}") from None
    dx, dy, dz = look_direction(yaw, pitch)
    half = SIZE_BLOCKS / 2.0
    body = Body.at_feet(x, y - half, z, SIZE_BLOCKS, SIZE_BLOCKS)
    body = Body(body.box, (dx * THROW_SPEED, dy * THROW_SPEED, dz * THROW_SPEED))
    return Projectile(key, body, body)


def step_projectile(projectile: Projectile, world: physics.CollisionWorld, mob_boxes: Sequence[AABB],
                    player_box: AABB | None = None, *, player_boxes: Sequence[AABB | None] | None = None,
                    ) -> tuple[Projectile, Knock | PlayerHit | None]:
    """One tick of `projectile` (see the module docstring) against the mobs' boxes and the
    player's (None: no player to hit), or every player's (`player_boxes`, in join order; None for
    one that cannot be hit). The thrower is not kept, so no player is hit before
    THROWER_SAFE_TICKS. Returns it and the hit it gave, if any."""
    body = projectile.body
    vx, vy, vz = body.velocity
    players = [player_box] if player_boxes is None else list(player_boxes)
    targets = list(mob_boxes)
    if projectile.age_ticks >= THROWER_SAFE_TICKS:
        targets.extend(box for box in players if box is not None)
    mob_hit = physics.first_hit(body.box, vx, vy, vz, targets) if targets else None
    if mob_hit is not None:
        block_hit = physics.cast(body.box, vx, vy, vz, world)
        if block_hit is not None and block_hit.time < mob_hit.time:
            mob_hit = None
    knock = None
    if mob_hit is None:
        moved, contacts = physics.resolve(body, vx, vy, vz, world, RESPONSE, RESTITUTION)
    else:
        t = mob_hit.time
        moved, contacts = physics.resolve(body, vx * t, vy * t, vz * t, world, RESPONSE, RESTITUTION)
        velocity = list(moved.velocity)
        axis = mob_hit.axis
        if velocity[axis] * mob_hit.normal[axis] < 0.0:  # still moving into the mob
            velocity[axis] *= -RESTITUTION
        moved = replace(moved, velocity=(velocity[0], velocity[1], velocity[2]))
        contacts.append(Contact(mob_hit.box, mob_hit.normal, t, moved.box))
        index = _index_of(mob_hit.box, mob_boxes)
        if index is None:
            x, _, z = moved.feet
            knock = PlayerHit((x, z), _index_of(mob_hit.box, players) or 0)
        else:
            knock = Knock(index, knock_impulse(vx, vz))

    mx, my, mz = moved.velocity
    floor = GROUND_FRICTION if moved.on_ground else 1.0
    velocity = (mx * AIR_DRAG * floor, my * AIR_DRAG - GRAVITY, mz * AIR_DRAG * floor)
    moved = replace(moved, velocity=velocity)
    slow = math.sqrt(sum(v * v for v in velocity)) < REST_SPEED
    return Projectile(projectile.key, moved, body, projectile.age_ticks + 1,
                      projectile.slow_ticks + 1 if slow else 0, tuple(contacts)), knock


def knock_impulse(vx: float, vz: float) -> tuple[float, float, float]:
    """[blocks/tick] The impulse of a hit by a projectile moving (vx, _, vz): KNOCKBACK_SPEED along
    its horizontal direction (none when it falls straight down) plus KNOCKBACK_LIFT upward."""
    speed = math.hypot(vx, vz)
    if speed == 0.0:
        return (0.0, KNOCKBACK_LIFT, 0.0)
    return (vx / speed * KNOCKBACK_SPEED, KNOCKBACK_LIFT, vz / speed * KNOCKBACK_SPEED)


def _index_of(box: AABB, boxes: Sequence[AABB | None]) -> int | None:
    """The index of the box `box` among `boxes` (the mobs', or the players'); None when it is none of them."""
    for i, candidate in enumerate(boxes):
        if candidate == box:
            return i
    return None


class ProjectileStateError(ValueError):
    """A saved projectile that cannot be used; the message names the field."""


@dataclass(frozen=True, slots=True)
class SavedProjectile:
    """A projectile read back from its column's entity list."""

    projectile: Projectile
    order: int
    """Its place among the live projectiles when saved (they step in this order)."""


def projectile_state(projectile: Projectile, order: int = 0) -> dict:
    """A projectile as JSON values for its column's entity list: its whole body and the one a tick
    before (floats read back bit for bit), age, rest count, key and `order` (its place among the
    live ones). Its last contacts (F3's) are not saved."""
    return {
        "kind": PROJECTILE,
        "version": PROJECTILE_STATE_VERSION,
        "order": order,
        "key": projectile.key,
        "age_ticks": projectile.age_ticks,
        "slow_ticks": projectile.slow_ticks,
        **body_state(projectile.body),
        "previous": body_state(projectile.previous),
    }


def projectile_from_state(state: object) -> SavedProjectile:
    """The projectile saved by `projectile_state`; ProjectileStateError naming the field when it
    cannot be used (any value at all, however damaged, gives one or the other)."""
    return read_entity(_projectile_from_state, state, "a saved projectile", ProjectileStateError)


def _projectile_from_state(state: object) -> SavedProjectile:
    owner, error = "a saved projectile", ProjectileStateError
    if not isinstance(state, dict):
        raise error(f"{owner} must be an object, got {type(state).__name__}")
    if state.get("kind") != PROJECTILE or state.get("version") != PROJECTILE_STATE_VERSION:
        raise error(f"{owner} has kind {preview(state.get('kind'))} and version {preview(state.get('version'))}; "
                    f"this game reads kind {PROJECTILE!r} version {PROJECTILE_STATE_VERSION}")
    order = whole_number(state, "order", MAX_WHOLE_NUMBER, owner, error)
    key = whole_number(state, "key", MAX_WHOLE_NUMBER, owner, error)
    age = whole_number(state, "age_ticks", MAX_LIFETIME_TICKS - 1, owner, error)
    slow = whole_number(state, "slow_ticks", REST_TICKS - 1, owner, error)
    body = _projectile_body(state, owner)
    previous = state.get("previous")
    if not isinstance(previous, dict):
        raise error(f"{owner}'s 'previous' must be an object (its body a tick before), got {preview(previous)}")
    return SavedProjectile(Projectile(key, body, _projectile_body(previous, f"{owner}'s previous body"), age, slow),
                           order)


def _projectile_body(state: dict, owner: str) -> Body:
    body = body_from_state(state, owner, ProjectileStateError)
    box = body.box
    if any(abs((box[axis + 3] - box[axis]) - SIZE_BLOCKS) > _SIZE_SLACK for axis in range(3)):
        raise ProjectileStateError(f"{owner}'s 'box' must be a {SIZE_BLOCKS} cube, got {tuple(box)!r}")
    if any(abs(v) > MAX_SAVED_SPEED for v in body.velocity):
        raise ProjectileStateError(f"{owner}'s 'velocity' must be within {MAX_SAVED_SPEED} blocks/tick, "
                                   f"got {body.velocity!r}")
    return body


@dataclass(frozen=True, slots=True)
class ProjectileView:
    """One projectile as drawn in a frame: blended between its last two ticks."""

    key: int
    box: AABB
    """[blocks] Physics coordinates."""


class Projectiles:
    """The live projectiles of one world: `throw` adds one, `tick` advances all and drops the spent."""

    def __init__(self, world: physics.CollisionWorld) -> None:
        if not isinstance(world, GameWorld):
            raise TypeError(f"projectiles need a game.rules.game_world.GameWorld (a World or the lab's Arena: "
                            f"collision_boxes, column entities...), got {world!r}")
        self.world = world
        self.thrown = 0
        """Projectiles thrown this session (the next one's key)."""
        self._live: list[Projectile] = []
        self._stored_columns: set[tuple[int, int]] = set()
        """Columns whose entity list holds (or may hold) projectiles this session wrote or read."""
        self._unreadable: dict[tuple[int, int], list[dict]] = {}
        """Saved projectiles that could not be read, by column: written back unchanged."""
        self._restore_saved()

    def __len__(self) -> int:
        return len(self._live)

    @property
    def live(self) -> tuple[Projectile, ...]:
        """The live projectiles, oldest first."""
        return tuple(self._live)

    @property
    def bodies(self) -> tuple[Body, ...]:
        return tuple(p.body for p in self._live)

    @property
    def contacts(self) -> list[Contact]:
        """Every live projectile's contacts of the last tick."""
        return [c for p in self._live for c in p.contacts]

    def throw(self, eye: Sequence[float], yaw: float, pitch: float) -> Projectile:
        """Throw one from `eye` along the look; it flies from the next tick on."""
        projectile = throw(self.thrown, eye, yaw, pitch)
        self.thrown += 1
        self._live.append(projectile)
        return projectile

    def tick(self, mob_bodies: Sequence[Body], player_box: AABB | None = None, *,
             player_boxes: Sequence[AABB | None] | None = None) -> list[Knock | PlayerHit]:
        """Advance every projectile one tick, oldest first, against the mobs' bodies and the
        player's box (None: the player cannot be hit, e.g. while dead), or every player's
        (`player_boxes`, in join order, None for one that cannot be hit); drop the spent.

        Returns the hits, in order: a `Knock` for a mob (its `index` is into `mob_bodies`), a
        `PlayerHit` for a player (its `player` is into `player_boxes`)."""
        boxes = [body.box for body in mob_bodies]
        knocks = []
        live = []
        for projectile in self._live:
            projectile, knock = step_projectile(projectile, self.world, boxes, player_box, player_boxes=player_boxes)
            if knock is not None:
                knocks.append(knock)
            if not projectile.spent:
                live.append(projectile)
        self._live = live
        return knocks

    def views(self, alpha: float) -> list[ProjectileView]:
        """Every projectile `alpha` (0..1) of the way from its previous tick to its latest one."""
        return [ProjectileView(p.key, AABB._trusted(*(blend(a, b, alpha) for a, b in zip(p.previous.box, p.body.box))))
                for p in self._live]

    def save(self) -> None:
        """Store every live projectile with the column it is in (`World.set_column_entities`; only
        this kind's entries are replaced) and empty its entries in columns they left. They stay live."""
        by_column: dict[tuple[int, int], list[dict]] = {}
        for order, projectile in enumerate(self._live):
            by_column.setdefault(_column_of(projectile.body), []).append(projectile_state(projectile, order))
        save_by_column(self.world, _OWNS, by_column, self._stored_columns, self._unreadable)
        self._stored_columns = set(by_column)

    def _restore_saved(self) -> None:
        """Bring back every projectile saved in the world, in its saved order (module docstring)."""
        restored: list[tuple[tuple[int, int], SavedProjectile]] = []
        for column, state in stored_entries(self.world, _OWNS):
            self._stored_columns.add(column)
            try:
                restored.append((column, projectile_from_state(state)))
            except ProjectileStateError as error:
                self._unreadable.setdefault(column, []).append(state)
                warnings.warn(f"a projectile saved in column {column} cannot be used and is kept as it is: {error}",
                              stacklevel=3)
        keys: set[int] = set()
        for column, saved in sorted(restored, key=lambda item: item[1].order):
            if saved.projectile.key in keys:
                warnings.warn(f"a projectile saved in column {column} repeats another's key and is dropped",
                              stacklevel=3)
                continue
            keys.add(saved.projectile.key)
            self._live.append(saved.projectile)
        if keys:
            self.thrown = max(keys) + 1


def _column_of(body: Body) -> tuple[int, int]:
    """The column of the box's centre."""
    box = body.box
    return column_of(math.floor((box[0] + box[3]) / 2.0), math.floor((box[2] + box[5]) / 2.0))
