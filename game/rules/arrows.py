"""The live arrows of a session: shot, ticked, picked up, drawn and saved with their columns.

Owns: `Arrows` (shoot or add an arrow, tick every arrow against the bodies, pick up stuck arrows,
the sounds, the bodies for the report, blended views, saving by column) and `ArrowView` (one
arrow as drawn in a frame). Pure: no Ursina.
Does not own: one arrow's rules (`game.rules.arrow`, whose names it re-exports), its saved form
(`game.rules.arrow_state`), what a hit does (`hurt`, or the session with the returned hits), who
shoots (skeletons: `game.rules.creatures*`), inventories (`give`), drawing.

Each arrow draws from its own `JavaRandom` (Beta's `Entity.rand`), seeded from the session's seed
and the arrow's key, so a session's arrows are the same for the same seed and shots.

Resting arrows skip their step exactly. A stuck arrow that has stopped shaking, is out of water
and did not turn on its last tick (`at_rest`) only ages, one tick in the ground a tick, for as long
as no cell around its box or its block changes: its tick reads only those cells. So it is kept as
it was when it came to rest with the tick it did (`_resting`) and is read back aged
(`_current`), stepped in full again once a cell near it changes (or the world cannot say which
changed), and gone at GROUND_LIFE_TICKS as its step would have it. `Arrows(resting=False)` steps
every arrow every tick (the readable twin; a test compares the two through edits).
Saving: `save(world)` writes every live arrow into the entity list of the column its position is
in (its own entries only: `game.rules.saved_entities`), with its place among the live ones;
`load(world)` brings them back in that order, so a save and reload mid-flight flies on exactly. A
saved arrow that cannot be used is kept in its column as it is (written back unchanged) with a
warning; one whose key repeats another's is dropped with a warning.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from physics import AABB, Body
from physics.floats import f32

from .arrow import (DAMAGE, GROUND_LIFE_TICKS, Arrow, ArrowHit, ArrowSound, Hurt, Key, aimed,  # noqa: F401
                    box_at, can_be_picked_up, loosed, picked_up, raised, shoot, skeleton_arrow, step_arrow, touches)
from .arrow_state import ArrowStateError, arrow_from_state, arrow_state
from .derived_seeds import derived_seed
from .items import ItemStack
from .player import blend
from .saved_entities import ARROW, owned_by, save_by_column, stored_entries
from ..world.coords import column_of
from ..world.java_random import JavaRandom

NEAR_CELLS = 1
"""[cells] A changed cell within this of a resting arrow's box (or its block) wakes it: its water
test reads the cells its box overlaps, shrunk by 0.4 and 0.001, so one cell all round holds them."""
WOBBLE_RATE = f32(3.0)
"""[radians per tick] A quivering arrow sways as sin(shake x 3F) x shake degrees (Beta's `RenderArrow`)."""
_OWNS = owned_by(ARROW)


@dataclass(frozen=True, slots=True)
class ArrowView:
    """One arrow as drawn in a frame: blended between its last two ticks (Beta's `RenderArrow`)."""

    key: int
    position: tuple[float, float, float]
    """[blocks] The middle of its box's bottom face: the arrow's centre as Beta draws it."""
    box: AABB
    """[blocks] Its 0.5 box at that position (F3)."""
    yaw: float
    """[degrees] Minecraft's: 0 along +Z; the arrow points along its motion."""
    pitch: float
    """[degrees] Positive: the head up."""
    wobble: float
    """[degrees] The quiver of a newly stuck arrow, about its own axis (0 when still)."""
    in_ground: bool


def arrow_view(arrow: Arrow, alpha: float) -> ArrowView:
    """`arrow` `alpha` (0..1) of the way from its previous tick to its latest."""
    position = tuple(blend(a, b, alpha) for a, b in zip(arrow.previous, arrow.position))
    yaw = arrow.previous_yaw + (arrow.yaw - arrow.previous_yaw) * alpha
    pitch = arrow.previous_pitch + (arrow.pitch - arrow.previous_pitch) * alpha
    shake = arrow.shake - alpha
    wobble = -math.sin(shake * WOBBLE_RATE) * shake if shake > 0.0 else 0.0
    return ArrowView(arrow.key, position, box_at(position), yaw, pitch, wobble, arrow.in_ground)


def at_rest(arrow: Arrow) -> bool:
    """Whether `arrow`'s next ticks only age it while the cells near it stay as they are (module
    docstring): stuck, still, dry, its angles and position those of the tick before, and not both
    angles 0 (a tick would set them from its motion)."""
    return (arrow.in_ground and arrow.shake == 0 and not arrow.in_water and arrow.age > 0
            and arrow.previous == arrow.position and arrow.previous_yaw == arrow.yaw
            and arrow.previous_pitch == arrow.pitch and not (arrow.yaw == 0.0 and arrow.pitch == 0.0))


def _near(arrow: Arrow, cells: Iterable[tuple[int, int, int]]) -> bool:
    """Whether any of `cells` is within NEAR_CELLS of the arrow's box, or is its block."""
    x0, y0, z0, x1, y1, z1 = arrow.box
    lx, ly, lz = math.floor(x0) - NEAR_CELLS, math.floor(y0) - NEAR_CELLS, math.floor(z0) - NEAR_CELLS
    hx, hy, hz = math.floor(x1) + NEAR_CELLS, math.floor(y1) + NEAR_CELLS, math.floor(z1) + NEAR_CELLS
    tile = arrow.tile
    return any((lx <= x <= hx and ly <= y <= hy and lz <= z <= hz) or (x, y, z) == tile for x, y, z in cells)


class Arrows:
    """The live arrows of one session (module docstring). `seed`: seeds every arrow's own generator.
    `resting`: True (default) lets resting arrows skip their steps; False steps every arrow."""

    def __init__(self, seed: int = 0, resting: bool = True) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an int, got {seed!r}")
        if not isinstance(resting, bool):
            raise TypeError(f"resting must be True or False, got {resting!r}")
        self.seed = seed
        self.resting = resting
        self.ticks = 0
        """Ticks run (resting arrows age by it)."""
        self._resting: dict[int, int] = {}
        """Key -> the tick its kept arrow came to rest (the arrow in `_live` is as it was then)."""
        self._world: object = None
        self._revision: int | None = None
        """The world's revision after the last tick (None: none yet)."""
        self.next_key = 0
        """The next arrow's key."""
        self._live: list[Arrow] = []
        self._sounds: list[ArrowSound] = []
        self._stored_columns: set[tuple[int, int]] = set()
        self._unreadable: dict[tuple[int, int], list[dict]] = {}

    # --- reading ---------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._live)

    @property
    def live(self) -> tuple[Arrow, ...]:
        """The live arrows in tick order."""
        return tuple(self._current(arrow) for arrow in self._live)

    def _current(self, arrow: Arrow) -> Arrow:
        """`arrow` as it is now: a resting arrow aged by the ticks since it came to rest."""
        since = self._resting.get(arrow.key)
        if since is None or since == self.ticks:
            return arrow
        ticks = self.ticks - since
        return replace(arrow, age=arrow.age + ticks, ticks_in_ground=arrow.ticks_in_ground + ticks)

    @property
    def resting_count(self) -> int:
        """Arrows whose steps are being skipped (module docstring)."""
        return len(self._resting)

    def bodies(self) -> dict[str, tuple[str, AABB, tuple[float, float, float]]]:
        """Every arrow's body for the report: "arrow:<key>" -> ("arrow", box, motion)."""
        return {f"arrow:{a.key}": ("arrow", a.box, a.motion) for a in self._live}

    def views(self, alpha: float) -> list[ArrowView]:
        """Every live arrow as drawn `alpha` (0..1) of the way through the tick after its latest."""
        return [arrow_view(arrow, alpha) for arrow in self._live]

    def take_sounds(self) -> list[ArrowSound]:
        """The sounds made since the last call, oldest first."""
        sounds, self._sounds = self._sounds, []
        return sounds

    # --- shooting --------------------------------------------------------------------------------

    def generator(self) -> JavaRandom:
        """The next arrow's own generator (from the seed and `next_key`), for `arrow.loosed` and the like."""
        return JavaRandom(derived_seed("arrow", self.seed, self.next_key))

    def shoot(self, start: Sequence[float], aim: Sequence[float], speed: float, inaccuracy: float, *,
              shooter: Key | None = None, pickable: bool = True) -> Arrow:
        """A new arrow from `start` along `aim` (`arrow.shoot`); it flies from the next tick on."""
        return self.add(shoot(self.next_key, start, aim, speed, inaccuracy, self.generator(),
                              shooter=shooter, pickable=pickable))

    def shoot_as_skeleton(self, skeleton: Sequence[float], yaw: float, pitch: float, target: Sequence[float], *,
                          shooter: Key | None = None, pickable: bool = True) -> Arrow:
        """A skeleton's arrow (`arrow.skeleton_arrow`: feet `skeleton`, look, target's eye)."""
        return self.add(skeleton_arrow(self.next_key, skeleton, yaw, pitch, target, self.generator(),
                                       shooter=shooter, pickable=pickable))

    def add(self, arrow: Arrow) -> Arrow:
        """Make `arrow` (built with key `next_key`, e.g. by `arrow.loosed` with `generator()`) live, last."""
        if not isinstance(arrow, Arrow):
            raise TypeError(f"add takes a game.rules.arrow.Arrow, got {arrow!r}")
        if arrow.key != self.next_key:
            raise ValueError(f"a new arrow must have key {self.next_key} (next_key), got {arrow.key}")
        self._live.append(arrow)
        self.next_key += 1
        return arrow

    # --- the tick ----------------------------------------------------------------------------------

    def tick(self, world, bodies: Iterable[tuple[Key, Body | AABB]], hurt: Hurt | None = None) -> list[ArrowHit]:
        """Every arrow's tick, oldest first (`arrow.step_arrow`), against `bodies`: (key, body or
        box) of the living creatures and players, in the order ties go to. `hurt(key, damage)`
        deals a hit at once and says whether the body took it (Beta's `attackEntityFrom`; a
        refused arrow bounces back); None: every hit is taken and the caller deals them. Returns
        the hits taken, in order. TypeError for bad bodies, before anything changes."""
        targets = _targets(bodies)
        if hurt is not None and not callable(hurt):
            raise TypeError(f"hurt must be None or callable as hurt(key, damage) -> bool, got {hurt!r}")
        changed = self._changed_cells(world)
        self.ticks += 1
        hits: list[ArrowHit] = []
        live: list[Arrow] = []
        resting = self._resting
        for arrow in self._live:
            since = resting.get(arrow.key)
            if since is not None:
                if changed is not None and not _near(arrow, changed):
                    if arrow.ticks_in_ground + (self.ticks - since) >= GROUND_LIFE_TICKS:
                        del resting[arrow.key]  # its step would end it now
                    else:
                        live.append(arrow)
                    continue
                del resting[arrow.key]
                arrow = replace(arrow, age=arrow.age + (self.ticks - 1 - since),
                                ticks_in_ground=arrow.ticks_in_ground + (self.ticks - 1 - since))
            moved, hit, sounds = step_arrow(arrow, world, targets, hurt)
            self._sounds.extend(sounds)
            if hit is not None:
                hits.append(hit)
            if moved is not None:
                live.append(moved)
                if self.resting and at_rest(moved):
                    resting[moved.key] = self.ticks
        self._live = live
        self._revision = world.revision
        return hits

    def _changed_cells(self, world) -> list[tuple[int, int, int]] | None:
        """The cells `world` changed since the last tick; None when it cannot say (or is another world)."""
        if world is not self._world or self._revision is None:
            self._world = world
            return None
        return world.cells_changed_since(self._revision)

    def pick_up(self, players_boxes: Mapping[Key, AABB | None], give: Callable[[Key, ItemStack], int]) -> int:
        """Each living player in turn (None: dead, skipped) picks up every stuck arrow it touches
        (`arrow.touches`, `arrow.can_be_picked_up`) that `give(player, stack)` takes: one `arrow`
        each, with "random.pop". Survival only: the session calls it for survival players. Returns
        how many were picked up. TypeError for bad arguments, before anything changes."""
        if not isinstance(players_boxes, Mapping):
            raise TypeError(f"players_boxes maps each player to its box (None: cannot pick up), got {players_boxes!r}")
        living = [(player, box) for player, box in players_boxes.items() if box is not None]
        if any(not isinstance(box, AABB) for _, box in living):
            raise TypeError(f"players_boxes maps players to physics.AABB boxes, got {players_boxes!r}")
        if not callable(give):
            raise TypeError(f"give must be callable as give(player, stack) -> taken, got {give!r}")
        taken = 0
        for player, box in living:
            kept = []
            for arrow in self._live:
                sound = picked_up(arrow, player, give) if can_be_picked_up(arrow) and touches(box, arrow.box) else None
                if sound is None:
                    kept.append(arrow)
                else:
                    self._resting.pop(arrow.key, None)
                    self._sounds.append(sound)
                    taken += 1
            self._live = kept
        return taken

    # --- saving ------------------------------------------------------------------------------------

    def to_entries(self) -> dict[tuple[int, int], list[dict]]:
        """Every live arrow's saved state by the column its position is in, in tick order."""
        by_column: dict[tuple[int, int], list[dict]] = {}
        for order, arrow in enumerate(self.live):
            x, _, z = arrow.position
            by_column.setdefault(column_of(math.floor(x), math.floor(z)), []).append(arrow_state(arrow, order))
        return by_column

    def restore(self, entries: Iterable[dict]) -> None:
        """Bring back the arrows saved by `to_entries` (any columns' entries, any order) after the
        live ones, in their saved order. ArrowStateError for an entry that cannot be used, or a key
        that repeats a live or restored arrow's; nothing changes then."""
        restored = [arrow_from_state(state) for state in entries]
        keys = {arrow.key for arrow in self._live}
        for arrow, _ in restored:
            if arrow.key in keys:
                raise ArrowStateError(f"a saved arrow's key {arrow.key} repeats another arrow's")
            keys.add(arrow.key)
        self._live.extend(arrow for arrow, _ in sorted(restored, key=lambda pair: pair[1]))
        if keys:
            self.next_key = max(self.next_key, max(keys) + 1)

    def save(self, world) -> None:
        """Store every live arrow in its column's entity list (`World.set_column_entities`; only the
        arrows' entries are replaced) and empty its entries in columns they left. They stay live."""
        by_column = self.to_entries()
        save_by_column(world, _OWNS, by_column, self._stored_columns, self._unreadable)
        self._stored_columns = set(by_column)

    def load(self, world) -> None:
        """Restore every arrow saved in `world`'s columns. A saved arrow that cannot be used is kept
        in its column as it is, with a warning; one whose key repeats another's is dropped."""
        good: list[dict] = []
        keys = {arrow.key for arrow in self._live}
        for column, state in stored_entries(world, _OWNS):
            self._stored_columns.add(column)
            try:
                arrow, _ = arrow_from_state(state)
            except ArrowStateError as problem:
                self._unreadable.setdefault(column, []).append(state)
                warnings.warn(f"an arrow saved in column {column} cannot be used and is kept as it is: {problem}",
                              stacklevel=2)
                continue
            if arrow.key in keys:
                warnings.warn(f"an arrow saved in column {column} repeats another's key and is dropped", stacklevel=2)
                continue
            keys.add(arrow.key)
            good.append(state)
        self.restore(good)


def _targets(bodies: Iterable[tuple[Key, Body | AABB]]) -> list[tuple[Key, AABB]]:
    """(key, box) for each (key, body or box); TypeError naming the bad entry."""
    targets = []
    for entry in bodies:
        try:
            key, body = entry
        except (TypeError, ValueError):
            raise TypeError(f"bodies are (key, physics.Body or AABB) pairs, got {entry!r}") from None
        box = body.box if isinstance(body, Body) else body
        if not isinstance(box, AABB):
            raise TypeError(f"bodies are (key, physics.Body or AABB) pairs, got {entry!r}")
        targets.append((key, box))
    return targets
