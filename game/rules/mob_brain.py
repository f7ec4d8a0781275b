"""What a wandering mob wants each tick: a small state machine that turns into `physics.Intent`s.

Owns: mob kinds (size, speed) and `MobBrain`, the per-mob AI (idle, wander, turn at walls,
jump up one-block steps, refuse drops deeper than MAX_SAFE_DROP_BLOCKS, refuse lava and water
DEEP_WATER_BLOCKS deep, hold jump in a fluid as Beta's mobs do, so they swim up and float).
Deterministic: each brain has its own seeded random stream, so a replay gives the same mobs.
Does not own: moving (physics.step / physics.Crowd do that), spawning, despawning or drawing.
It reads the world through the physics query protocol: `collision_boxes` for walls, steps and
drops, the medium test (`physics.media.medium_before_move`, the test the step itself makes) for
swimming, and the world's `material`, `revision` and `cells_changed_since` (which every `game.rules.game_world.GameWorld`
has, as `physics.BlockGrid` does) for the fluids ahead.

The fluid rules, per tick:
- In water or lava (the medium the mob's step this tick will see: read only when the contact
  pass after its last move touched a fluid, as that pass visits every cell the medium test
  does, so a body that has not moved yet counts as dry), the brain holds jump with chance
  SWIM_JUMP_CHANCE, drawn from its own stream after the walk's own draws (Beta's
  `EntityLiving.updatePlayerActionState`: `isJumping = rand.nextFloat() < 0.8F`). Each held
  tick adds 0.04 upward against the fluid's drag and sinking, so a mob rises and bobs at the
  surface instead of sinking; idle or walking, the draw is made every tick it is in a fluid.
- Walking, the brain looks at the cells its box would sweep through on the way to its probe
  (`_probe_ahead`), in the columns it does not already stand in (or that the probe reaches),
  from the top of its box down to the first block that holds it up, at most
  MAX_SAFE_DROP_BLOCKS + 1 below its feet: lava there, or two water cells one above the other,
  and it turns away as it does at a deep drop. A mob already in lava refuses no lava, and one
  swimming (in water, off the ground) refuses no deep water: getting out any way is better.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import physics
from physics import AABB, Body, Intent
from physics.materials import FLUIDS, Material
from physics.media import DRY, medium_before_move
from physics.shapes import MAX_SHAPE_TOP

from .cell_memo import unchanged_since
from .replay import wrap_yaw
from .saved_values import preview

MAX_SAFE_DROP_BLOCKS = 3
"""[blocks] A mob does not walk toward a drop deeper than this."""
DROP_PROBE_HALF_WIDTH = 0.05
"""[blocks] The drop check looks down a column this far either side of the probe's centre: thin,
so it reads the ground under that point, not beside it."""
LOOK_AHEAD_BLOCKS = 0.6
"""[blocks] How far past the front of its box a mob checks for walls, steps and drops."""
IDLE_TICKS = (20, 80)
"""[ticks] Range of how long a mob stands still between walks."""
WANDER_TICKS = (40, 160)
"""[ticks] Range of how long a mob walks in one direction."""
SWIM_JUMP_CHANCE = 0.8
"""[1] Chance that a mob in water or lava holds jump in a tick: Beta's 0.8F. Held, jump adds
0.04 to the vertical velocity before water's x0.8 drag and -0.02 (`physics.tick`), so a mob
holding it 8 ticks in 10 settles near 0.028 blocks/tick upward and floats up."""
DEEP_WATER_BLOCKS = 2
"""[blocks] Water this deep (cells stacked in one column) is refused: a mob wades through a
puddle one block deep, where its feet stay on the ground, but does not walk into a pool."""
HELD_UP_BY = frozenset(int(m) for m in frozenset(Material) - FLUIDS - {Material.AIR, Material.WEB})
"""Materials (as ints, which Material values equal) of blocks with a collision box: the look
for fluids ahead stops at the first one down a column (what lies under it is not where the mob
goes)."""


@dataclass(frozen=True)
class MobKind:
    name: str
    width: float
    """[blocks] Box width on X and Z."""
    height: float
    """[blocks]"""
    walk_input: float
    """[1] Forward input while wandering (1.0 is a player's walk)."""


BOXLING = MobKind("boxling", width=0.9, height=0.9, walk_input=0.7)
"""The default mob: a blocky creature a bit smaller than a block."""


class MobBrain:
    """The AI state of one mob. `think` is called once per tick, before the mob steps."""

    def __init__(self, kind: MobKind, seed: int, yaw: float = 0.0) -> None:
        self.kind = kind
        self.seed = seed
        self._random = random.Random(seed)
        self.yaw = yaw
        self.walking = False
        self.ticks_left = self._random.randint(*IDLE_TICKS)
        self._last_scan: tuple = ()
        """The last look for fluids ahead: what it asked (with the world's revision) and its
        answer. Not part of the brain's state: a brain without it thinks the same."""
        self._ground_below: _GroundMemo | None = None
        """The block boxes under the last probe (`_drop_below`), kept while its cells are unchanged;
        like `_last_scan`, not part of the brain's state."""
        self._intent_made: Intent | None = None
        """The last intent made: given again while it is the same (an idle or walking mob asks the
        same of its step for many ticks; an Intent checks its values as it is made). Not part of
        the brain's state either."""

    def think(self, body: Body, world: physics.CollisionWorld) -> Intent:
        """The intent for `body`'s next step in `world` (see the module docstring). Its parts, in
        order, are what `game.rules.mob_brain_rows.think_all` runs for many brains at once."""
        self._count_down()
        medium = medium_of(body, world)
        forward, jump = self._walk(body, world, medium.in_water, medium.in_lava) if self.walking else (0.0, False)
        return self._intent(forward, jump, medium)

    def _count_down(self) -> None:
        """One tick of the idle and walking timers: a walk starts with a new yaw, or ends."""
        self.ticks_left -= 1
        if self.ticks_left <= 0:
            self.walking = not self.walking
            if self.walking:
                self.yaw = self._random.uniform(0.0, 360.0)
            self.ticks_left = self._random.randint(*(WANDER_TICKS if self.walking else IDLE_TICKS))

    def _intent(self, forward: float, jump: bool, medium) -> Intent:
        """The intent of a tick whose walk gave (forward, jump), in `medium`: jump held in a fluid
        with chance SWIM_JUMP_CHANCE; the last intent again while it is the same."""
        if medium.in_water or medium.in_lava:
            jump = self._random.random() < SWIM_JUMP_CHANCE
        last = self._intent_made
        # The same yaw object (a turn makes a new one), so the same bits, -0.0 included.
        if last is None or last.yaw is not self.yaw or last.forward != forward or last.jump is not jump:
            last = self._intent_made = Intent(forward=forward, yaw=self.yaw, jump=jump)
        return last

    def _walk(self, body: Body, world: physics.CollisionWorld, in_water: bool, in_lava: bool,
              ) -> tuple[float, bool]:
        """(forward input, jump) of a walking tick; turns away from walls, deep drops and fluids."""
        ahead = _probe_ahead(body, self.yaw)
        if self._drop_below(world, ahead, body.box.min_y) > MAX_SAFE_DROP_BLOCKS:
            self._turn()
            return 0.0, False
        if self._fluid_ahead(world, body.box, ahead, *fluids_avoided(body, in_water, in_lava)):
            self._turn()
            return 0.0, False
        return self._walk_on(body, world, ahead)

    def _walk_on(self, body: Body, world: physics.CollisionWorld, ahead: AABB) -> tuple[float, bool]:
        """`_walk` past its drop and fluid checks: jump up a one-block step the last move ran into,
        turn at a wall."""
        jump = False
        if body.collided_horizontally and body.on_ground:
            if _is_step(world, ahead, body):
                jump = True
            else:
                self._turn()
        return self.kind.walk_input, jump

    def _fluid_ahead(self, world, box: AABB, probe: AABB, avoid_lava: bool, avoid_deep_water: bool) -> bool:
        """`_look_for_fluids`, remembering its last answer."""
        self._last_scan = _look_for_fluids(world, box, probe, avoid_lava, avoid_deep_water, self._last_scan)
        return self._last_scan[1]

    def _drop_below(self, world, probe: AABB, feet_y: float) -> float:
        """`_drop_below`, reading the block boxes of the probe's cells again only when they may have
        changed (`_GroundMemo`): the same answers (a test compares them)."""
        cx, cz = (probe[0] + probe[3]) / 2.0, (probe[2] + probe[5]) / 2.0  # `probe.center`'s x and z
        x0, x1 = math.floor(cx - DROP_PROBE_HALF_WIDTH), math.floor(cx + DROP_PROBE_HALF_WIDTH)
        z0, z1 = math.floor(cz - DROP_PROBE_HALF_WIDTH), math.floor(cz + DROP_PROBE_HALF_WIDTH)
        floor_y = math.floor(feet_y)
        cells = (x0, x1, z0, z1, floor_y)
        memo = self._ground_below
        revision = world.revision
        if memo is None or memo.world is not world or memo.cells != cells or not memo.holds(revision):
            # The whole cells, from the lowest the column can reach for any feet in this cell to its top:
            # the column lies within, however the feet move inside the cell (a mob bobbing, jumping).
            bottom = floor_y - MAX_SAFE_DROP_BLOCKS - 1
            everything = AABB(x0, bottom, z0, x1 + 1, floor_y + 1, z1 + 1)
            memo = self._ground_below = _GroundMemo(world, cells, revision, tuple(world.collision_boxes(everything)),
                                                    (x0, math.floor(bottom - MAX_SHAPE_TOP), z0,
                                                     x1, floor_y + 1, z1))
        else:  # held: the next check reads only the cells changed after this one
            memo.revision = revision
        return _highest_below(memo.boxes, cx, cz, feet_y)

    def _turn(self) -> None:
        self.yaw = (self.yaw + self._random.uniform(90.0, 270.0)) % 360.0

    def to_state(self) -> dict:
        return {"kind": self.kind.name, "seed": self.seed, "yaw": self.yaw, "walking": self.walking,
                "ticks_left": self.ticks_left, "random": list(self._random.getstate()[1])}

    @classmethod
    def from_state(cls, state: dict) -> MobBrain:
        """The brain `to_state` described. ValueError (or TypeError, KeyError) when it cannot be
        used; a finite yaw is read as the same direction in [0, 360), any other is refused (the
        mob's every intent carries it, and physics refuses a yaw that is not a sane number)."""
        if state.get("kind") != BOXLING.name:
            raise ValueError(f"unknown mob kind {state.get('kind')!r}")
        yaw = state["yaw"]
        if isinstance(yaw, bool) or not isinstance(yaw, (int, float)) or not math.isfinite(yaw):
            raise ValueError(f"a mob's yaw must be a finite number of degrees, got {preview(yaw)}")
        brain = cls(BOXLING, int(state["seed"]), wrap_yaw(yaw))
        brain.walking = bool(state["walking"])
        brain.ticks_left = int(state["ticks_left"])
        internal = tuple(int(v) for v in state["random"])
        brain._random.setstate((3, internal, None))
        return brain


def medium_of(body: Body, world: physics.CollisionWorld):
    """The medium `body`'s step this tick will see (`physics.media.medium_before_move`), read only
    when the contact pass after its last move touched a fluid (`touching`): with no fluid there, the
    body is in none (DRY)."""
    return DRY if FLUIDS.isdisjoint(body.touching) else medium_before_move(world, body.box, physics.BETA)


def fluids_avoided(body: Body, in_water: bool, in_lava: bool) -> tuple[bool, bool]:
    """(avoid lava, avoid deep water) for a walking mob in the medium (in_water, in_lava): a mob
    already in lava refuses no lava, one swimming (in water, off the ground) refuses no deep water."""
    swimming = (in_water or body.in_water) and not body.on_ground
    return not (in_lava or body.in_lava), not swimming


def _probe_ahead(body: Body, yaw: float) -> AABB:
    """The body's box moved LOOK_AHEAD_BLOCKS past its front along the yaw."""
    radians = math.radians(yaw)
    box = body.box
    x0, y0, z0, x1, y1, z1 = box
    reach = (x1 - x0) / 2.0 + LOOK_AHEAD_BLOCKS  # `body.width`
    dx, dz = -math.sin(radians) * reach, math.cos(radians) * reach
    # `box.offset(dx, 0.0, dz)`: a body's box moved by a finite step is still ordered and finite.
    return AABB._trusted(x0 + dx, y0 + 0.0, z0 + dz, x1 + dx, y1 + 0.0, z1 + dz)


def _drop_below(world: physics.CollisionWorld, probe: AABB, feet_y: float) -> float:
    """How far the ground under the probe's centre lies below feet_y (inf if none within the limit).
    The readable twin of `MobBrain._drop_below`, which remembers the boxes it read."""
    cx, _, cz = probe.center
    column = _drop_column(cx, cz, feet_y)
    tops = [b[4] for b in world.collision_boxes(column) if b.intersects(column)]
    return feet_y - max(tops) if tops else math.inf


def _drop_column(cx: float, cz: float, feet_y: float) -> AABB:
    """The thin column `_drop_below` looks down: DROP_PROBE_HALF_WIDTH around (cx, cz), from the
    feet down MAX_SAFE_DROP_BLOCKS + 1."""
    h = DROP_PROBE_HALF_WIDTH
    return AABB(cx - h, feet_y - MAX_SAFE_DROP_BLOCKS - 1.0, cz - h, cx + h, feet_y, cz + h)


def _highest_below(boxes: tuple[AABB, ...], cx: float, cz: float, feet_y: float) -> float:
    """`_drop_below`'s answer from `boxes`, any boxes holding those the world gives for its column
    (`_drop_column`'s corners, and `AABB.intersects` written out: a walking mob asks every tick)."""
    h = DROP_PROBE_HALF_WIDTH
    x0, y0, z0, x1, y1, z1 = cx - h, feet_y - MAX_SAFE_DROP_BLOCKS - 1.0, cz - h, cx + h, feet_y, cz + h
    tops = [b[4] for b in boxes if b[3] > x0 and b[0] < x1 and b[4] > y0 and b[1] < y1 and b[5] > z0 and b[2] < z1]
    return feet_y - max(tops) if tops else math.inf


class _GroundMemo:
    """The block boxes of the cells under a drop probe, read at a world revision (brought up to the
    revision each later check found them unchanged at: changed in place, as a walking mob's brain
    checks it every tick)."""

    __slots__ = ("world", "cells", "revision", "boxes", "reach")

    def __init__(self, world: object, cells: tuple, revision: int | None, boxes: tuple[AABB, ...],
                 reach: tuple[int, int, int, int, int, int]) -> None:
        self.world = world
        self.cells = cells
        """(x0, x1, z0, z1, floor of feet_y): the probe's cell columns and the cell of the feet it looked down from."""
        self.revision = revision
        self.boxes = boxes
        self.reach = reach
        """The cells (inclusive x0, y0, z0, x1, y1, z1) whose change may change `boxes`."""

    def holds(self, revision: int | None) -> bool:
        """Whether the boxes are still the world's at `revision`."""
        return unchanged_since(self.world, self.revision, revision, *self.reach)


def _is_step(world: physics.CollisionWorld, probe: AABB, body: Body) -> bool:
    """True when what blocks the way is at most one block high and there is room above it."""
    raised = probe.offset(0.0, 1.0, 0.0)
    return not any(raised.intersects(b) for b in world.collision_boxes(raised))


def _look_for_fluids(world, box: AABB, probe: AABB, avoid_lava: bool, avoid_deep_water: bool,
                     last_scan: tuple = ()) -> tuple[tuple, bool, int | None]:
    """Whether the way from `box` to `probe` leads into lava or deep water (each only when asked),
    with what was asked and the world's revision: (question, answer, revision). `last_scan`, an
    earlier (question, answer, revision), is answered again without reading the world when the
    question and the world are the same and none of the cells read changed since (the world's
    `revision` and `cells_changed_since`: a walking mob asks about the same cells for several
    ticks); a world whose revision is None is read every time.

    Columns: those the box stretched to the probe covers, less those the box already stands in
    that the probe does not reach (a mob at a pool's edge may walk away from it). In each, cells
    from the top of the box down to the first that holds a mob up, at most MAX_SAFE_DROP_BLOCKS + 1
    below the feet (deep water under the deepest drop a mob takes shows as two cells). Cell
    ranges are [low, high): a box ending on a cell's face does not reach into that cell."""
    if not (avoid_lava or avoid_deep_water):
        return (), False, None
    ox0, ox1, oz0, oz1, qx0, qx1, qz0, qz1, top, below_bottom = bounds = fluid_look_bounds(box, probe)
    revision = world.revision
    question = (world, *bounds, avoid_lava, avoid_deep_water)
    if (last_scan and last_scan[0] == question
            and unchanged_since(world, last_scan[2], revision, min(ox0, qx0), below_bottom + 1, min(oz0, qz0),
                                max(ox1, qx1) - 1, top, max(oz1, qz1) - 1)):
        return question, last_scan[1], revision
    return question, _scan(world.material, scanned_columns(*bounds[:8]), top, below_bottom, avoid_lava,
                           avoid_deep_water), revision


def fluid_look_bounds(box: AABB, probe: AABB) -> tuple[int, ...]:
    """What `_look_for_fluids` looks at for `box` and its `probe`: (ox0, ox1, oz0, oz1, qx0, qx1,
    qz0, qz1, top, below_bottom), the box's columns [ox0, ox1) x [oz0, oz1), the probe's
    [qx0, qx1) x [qz0, qz1), and the layers from top down to below_bottom (excluded)."""
    floor = math.floor
    bx0, by0, bz0, bx1, by1, bz1 = box
    px0, _, pz0, px1, _, pz1 = probe
    return (floor(bx0), -floor(-bx1), floor(bz0), -floor(-bz1), floor(px0), -floor(-px1), floor(pz0), -floor(-pz1),
            -floor(-by1) - 1, floor(by0) - MAX_SAFE_DROP_BLOCKS - 2)


def scanned_columns(ox0: int, ox1: int, oz0: int, oz1: int, qx0: int, qx1: int, qz0: int, qz1: int,
                    ) -> list[tuple[int, int]]:
    """The (x, z) columns the look for fluids scans, x then z: those the box stretched to the probe
    covers, less those of the box's own columns [ox0, ox1) x [oz0, oz1) that the probe's
    [qx0, qx1) x [qz0, qz1) does not reach."""
    return [(x, z) for x in range(min(ox0, qx0), max(ox1, qx1)) for z in range(min(oz0, qz0), max(oz1, qz1))
            if not (ox0 <= x < ox1 and oz0 <= z < oz1) or (qx0 <= x < qx1 and qz0 <= z < qz1)]


def _scan(read, columns: list[tuple[int, int]], top: int, below_bottom: int, avoid_lava: bool,
          avoid_deep_water: bool) -> bool:
    """`_look_for_fluids`' look at the cells, read one by one with `read(x, y, z)`: in each of
    `columns`, layers top down to below_bottom (excluded)."""
    water, lava, held_up_by = Material.WATER, Material.LAVA, HELD_UP_BY
    for x, z in columns:
        water_above = 0
        for y in range(top, below_bottom, -1):
            material = read(x, y, z)
            if material == water:
                water_above += 1
                if avoid_deep_water and water_above >= DEEP_WATER_BLOCKS:
                    return True
                continue
            water_above = 0
            if material == lava:
                if avoid_lava:
                    return True
            elif material in held_up_by:
                break
    return False
