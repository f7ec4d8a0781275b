"""`move`: Beta's `Entity.moveEntity`, the reference composition of one body's collision move.

Owns: the order of one move (sneak edge guard, gather once, clip Y then X then Z, step-up
retry, flags, velocity zeroing) and the camera lag bookkeeping it implies; `collide_unguarded`,
the same collision written out in one function for the land step (`tick._land_step`).
Does not own: forces, input or friction (see `tick.py`), nor the clip rule (see `clip.py`).

The steps, as Beta runs them:
1. camera lag x0.4;
2. sneaking on the ground: shorten X, then Z, by 0.05 at a time while the box moved that way and
   1.0 down would rest on nothing (the edge guard, `edge_guard.py`; not reported as a collision);
3. gather the block boxes once over the box stretched by the whole move, plus one layer below
   (fences reach 0.5 into the layer above them);
4. clip Y, then X, then Z, moving the box after each;
5. step-up, if the body was on the ground (or has just landed), was blocked sideways and the
   camera lag is below 0.05 (or it sneaks): from the start box, clip up by step height, then X,
   then Z, then down by step height; keep it only if it went strictly further horizontally; a kept
   step adds the new floor's fractional height + 0.01 to the camera lag (Boxel takes the fraction
   with `floor`; Beta truncates toward zero, which drops the lag below y = 0; the two agree above);
6. flags from requested vs allowed deltas; each velocity component whose delta was shortened is 0;
7. the fall distance and a landing's damage; the contact pass (`media.contact_pass`).
A body that ended its last move in a cobweb moves only (0.25, 0.05F, 0.25) of the delta and
loses its velocity, before all of the above.
"""

from __future__ import annotations

import math

from .aabb import AABB
from .body import Body, require_finite
from .clip import X, Y, Z, clip_axis, moved
from .debug import DebugSink, MoveReport
from .floats import f32
from .edge_guard import guard_axis, support_along
from .media import NOTHING_READ, Medium, MediumRead, contact_pass
from .settings import BETA, MovementSettings
from .tolerances import CONTACT_TOLERANCE
from .world import CollisionWorld
from .messages import shown

PER_AXIS_GATHER_RATIO = 4.0
"""[1] A move gathers boxes per axis (three thin slabs) instead of once over the whole stretched
box when the stretched box's volume exceeds this many times the slabs' volumes together. Both
give identical results. Measured with a 0.6 x 1.8 body in a 5%-filled grid: at a ratio of 1.6
(2-block diagonal) one query is 1.5x faster, at 2.9 (4-block horizontal diagonal) 1.2x faster, at
4.0 they tie, at 6.5 (6-block diagonal) per-axis is 1.3x faster and at 32 blocks 20x
(docs/PERFORMANCE.md)."""

INFINITY = math.inf
nextafter = math.nextafter  # one global lookup instead of two in `collide_unguarded`

GATHER_BELOW = 1.0
"""[blocks] Extra depth gathered under the moving box, so shapes taller than a block (fences,
1.5) in the layer below are found (Beta's `getCollidingBoundingBoxes` starts at y - 1)."""


def move(body: Body, dx: float, dy: float, dz: float, world: CollisionWorld,
         settings: MovementSettings = BETA, sneak: bool = False, debug: DebugSink | None = None) -> Body:
    """Move `body` by (dx, dy, dz) blocks through `world`, Beta's `moveEntity` alone (cobweb
    slowing, collision, fall distance, contact pass; the body keeps its medium flags).

    Returns the moved body; raises ValueError (and changes nothing) for a non-finite delta.
    """
    require_arguments(body, world, settings, debug)
    require_finite("move displacement", dx, dy, dz)
    lag = f32(body.camera_lag * settings.camera_lag_decay)
    return finish_move(body, body.velocity, dx, dy, dz, world, settings, sneak, lag, debug)


def require_arguments(body: Body, world: CollisionWorld, settings: MovementSettings,
                      debug: DebugSink | None = None) -> None:
    """TypeError naming the argument when `body`, `world`, `settings` or `debug` (None, or a
    `DebugSink`: an object with a callable `report`) is not what it must be."""
    if not isinstance(body, Body):
        raise TypeError(f"body must be a physics.Body, got {shown(body)}")
    if not callable(getattr(world, "collision_boxes", None)):
        raise TypeError(f"world must be a physics.CollisionWorld (with collision_boxes(region)), got {shown(world)}")
    if not isinstance(settings, MovementSettings):
        raise TypeError(f"settings must be a physics.MovementSettings, got {shown(settings)}")
    if debug is not None and not callable(getattr(debug, "report", None)):
        raise TypeError(f"debug must be None or a physics.DebugSink (with report(move)), got {shown(debug)}")


def finish_move(body: Body, velocity: tuple[float, float, float], dx: float, dy: float, dz: float,
                world: CollisionWorld, settings: MovementSettings, sneak: bool, camera_lag: float,
                debug: DebugSink | None, after=None, fall_distance: float | None = None,
                medium: Medium | None = None, read: MediumRead = NOTHING_READ) -> Body:
    """Run one move whose camera lag is already decayed, as the rest of Beta's `moveEntity` does:
    a body in a cobweb moves a fraction of the delta and loses its velocity; the velocity
    components that were clipped become 0; the fall distance grows by a downward move in the air
    and turns into damage on landing; the contact pass marks webs and slows on soul sand.

    `after(vx, vy, vz, box, collided_horizontally) -> (vx, vy, vz)`, when given, is applied to the
    velocity last (the tick's drag, gravity, friction, ladder climb), so a tick builds one Body.
    `fall_distance` is the distance before the move (default: the body's), `medium` what the tick
    decided the body is in (default: what the body says), `read` what the medium test read in this
    tick (the contact pass answers from it where it can, `media.contact_pass`)."""
    if body.in_web:
        dx *= settings.web_horizontal_scale
        dy *= settings.web_vertical_scale
        dz *= settings.web_horizontal_scale
        velocity = (0.0, 0.0, 0.0)
    box, (odx, ody, odz), (adx, ady, adz), camera_lag = collide(
        body.box, body.on_ground, dx, dy, dz, world, settings, sneak, camera_lag, debug)
    vx, vy, vz = velocity
    if odx != adx:
        vx = 0.0
    if ody != ady:
        vy = 0.0
    if odz != adz:
        vz = 0.0
    on_ground = ody != ady and ody < 0.0
    horizontally = odx != adx or odz != adz

    if fall_distance is None:
        fall_distance = body.fall_distance
    damage = 0
    if on_ground:
        if fall_distance > 0.0:
            damage = max(0, math.ceil(f32(fall_distance - settings.safe_fall_distance)))
            fall_distance = 0.0
    elif ady < 0.0:
        fall_distance = f32(fall_distance - ady)

    contact = contact_pass(world, box, settings, read)
    for _ in range(contact.soul_sand_cells):
        vx *= settings.soul_sand_slowdown
        vz *= settings.soul_sand_slowdown
    if after is not None:
        vx, vy, vz = after(vx, vy, vz, box, horizontally)
    if medium is None:
        in_water, in_lava = body.in_water, body.in_lava
    else:
        in_water, in_lava = medium.in_water, medium.in_lava
    return Body._trusted(box, (vx, vy, vz), on_ground, horizontally, ody != ady, camera_lag, fall_distance,
                         in_water, in_lava, contact.in_web, damage, contact.touching)


def gather(world: CollisionWorld, box: AABB, dx: float, dy: float, dz: float,
           below: float = GATHER_BELOW) -> list[AABB]:
    """The world's boxes around `box` stretched by the move (dx, dy, dz), reaching `below` further down."""
    # `box.expanded_towards(dx, dy, dz)`, one float further on each moving side: a move too short
    # to change its face in floats (3.0 + 5e-17 is 3.0) must still find a box whose face lies
    # exactly on the moving face (it stops the move).
    x0, y0, z0, x1, y1, z1 = box
    if dx > 0.0:
        x1 = math.nextafter(x1 + dx, math.inf)
    elif dx < 0.0:
        x0 = math.nextafter(x0 + dx, -math.inf)
    if dy > 0.0:
        y1 = math.nextafter(y1 + dy, math.inf)
    elif dy < 0.0:
        y0 = math.nextafter(y0 + dy, -math.inf)
    if dz > 0.0:
        z1 = math.nextafter(z1 + dz, math.inf)
    elif dz < 0.0:
        z0 = math.nextafter(z0 + dz, -math.inf)
    boxes = world.collision_boxes(AABB._trusted(x0, y0 - below, z0, x1, y1, z1))
    return boxes if isinstance(boxes, list) else list(boxes)


def collide(start: AABB, on_ground: bool, dx: float, dy: float, dz: float, world: CollisionWorld,
            settings: MovementSettings, sneak: bool, camera_lag: float, debug: DebugSink | None):
    """The collision part of a move: returns (box, requested, allowed, camera_lag)."""
    guarded = sneak and on_ground
    if guarded:
        dx, dz = _edge_guard(world, start, dx, dz, settings)
    requested = (dx, dy, dz)
    per_axis = _gathers_per_axis(start, dx, dy, dz)

    box, (adx, ady, adz), stages = _clip_y_x_z(world, start, dx, dy, dz, per_axis)
    can_step = on_ground or (dy != ady and dy < 0.0)

    step_probe = None
    stepped = False
    step = settings.step_height
    if (step > 0.0 and can_step and (guarded or camera_lag < settings.camera_lag_step_limit)
            and (dx != adx or dz != adz)):
        sbox, (sx, sy, sz), step_stages = _clip_y_x_z(world, start, dx, step, dz, per_axis,
                                                     below=max(GATHER_BELOW, step))
        down_boxes = gather(world, sbox, 0.0, -step, 0.0) if per_axis else step_stages[0][3]
        down = clip_axis(down_boxes, sbox, -step, Y)
        sbox = moved(sbox, Y, down)
        if debug is not None:
            step_probe = start.expanded_towards(dx, step, dz)
        if adx * adx + adz * adz < sx * sx + sz * sz:
            stepped = True
            box, adx, ady, adz = sbox, sx, down, sz
            floor_fraction = box[1] - math.floor(box[1])
            if floor_fraction > 0.0:
                camera_lag = f32(camera_lag + floor_fraction + settings.camera_lag_step_extra)
    if debug is not None:
        # Which boxes clipped is judged on the plain pass: those stopped the body (and made it try a step).
        _report(debug, start, box, requested, (adx, ady, adz), stages, step_probe, stepped)
    return box, requested, (adx, ady, adz), camera_lag


def collide_unguarded(start: AABB, on_ground: bool, dx: float, dy: float, dz: float, world: CollisionWorld,
                      settings: MovementSettings, camera_lag: float, expect_step: bool = False):
    """`collide` for a move with no sneak edge guard and no debug sink, in one function: the same
    floats in the same order (tests compare the two), without building a box or a stage per axis.
    Returns (box, allowed deltas, camera_lag); the requested deltas are (dx, dy, dz).

    It asks the world for fewer boxes than `collide`, and the clips come out the same: a clip
    only reads boxes that reach into the cells it sweeps (`clip.clip_axis`), and a world returns
    every box whose interior overlaps the region asked (fences included, from the cell below),
    so the move's own region, one float wider on each moving side, needs no layer below. With
    `expect_step` (a grounded body that was blocked sideways last tick: pressed into a wall, it
    will try a step again) one region covers the move and the step-up together, reaching the
    step height above and one float beyond the step height below the box (the step's final
    clip down starts no lower than the box), and both passes clip against it."""
    x0, y0, z0, x1, y1, z1 = start
    # `_gathers_per_axis` and `gather`, written out.
    w, h, l = x1 - x0, y1 - y0 + GATHER_BELOW, z1 - z0
    ax, ay, az = abs(dx), abs(dy), abs(dz)
    # A move no longer than the box on any axis stretches it at most 8x while the slabs cover at
    # least 3x its volume: a ratio of at most 8/3, far from PER_AXIS_GATHER_RATIO.
    if (not (ax <= w and ay <= h and az <= l)
            and (w + ax) * (h + ay) * (l + az) > PER_AXIS_GATHER_RATIO * (w * (h + ay) * l + (w + ax) * h * l
                                                                           + w * h * (l + az))):
        box, _, allowed, camera_lag = collide(start, on_ground, dx, dy, dz, world, settings, False, camera_lag, None)
        return box, allowed, camera_lag
    if dx > 0.0:
        x1 = nextafter(x1 + dx, INFINITY)
    elif dx < 0.0:
        x0 = nextafter(x0 + dx, -INFINITY)
    if dy > 0.0:
        y1 = nextafter(y1 + dy, INFINITY)
    elif dy < 0.0:
        y0 = nextafter(y0 + dy, -INFINITY)
    if dz > 0.0:
        z1 = nextafter(z1 + dz, INFINITY)
    elif dz < 0.0:
        z0 = nextafter(z0 + dz, -INFINITY)
    step = settings.step_height
    covers_step = expect_step and on_ground and step > 0.0 and camera_lag < settings.camera_lag_step_limit
    if covers_step:
        y0 = min(y0, nextafter(start[1] - step, -INFINITY))
        y1 = max(y1, nextafter(start[4] + step, INFINITY))
    boxes = world.collision_boxes(AABB._trusted(x0, y0, z0, x1, y1, z1))
    if not isinstance(boxes, list):
        boxes = list(boxes)
    x0, y0, z0, x1, y1, z1, adx, ady, adz = _clip_boxes_y_x_z(boxes, start, dx, dy, dz)
    if (step > 0.0 and (on_ground or (dy != ady and dy < 0.0)) and camera_lag < settings.camera_lag_step_limit
            and (dx != adx or dz != adz)):
        if not covers_step:
            boxes = gather(world, start, dx, step, dz, max(GATHER_BELOW, step))
        sx0, sy0, sz0, sx1, sy1, sz1, sx, _, sz = _clip_boxes_y_x_z(boxes, start, dx, step, dz)
        down = clip_axis(boxes, (sx0, sy0, sz0, sx1, sy1, sz1), -step, Y)
        if adx * adx + adz * adz < sx * sx + sz * sz:
            if down != 0.0:
                sy0 += down
                sy1 += down
            floor_fraction = sy0 - math.floor(sy0)
            if floor_fraction > 0.0:
                camera_lag = f32(camera_lag + floor_fraction + settings.camera_lag_step_extra)
            return AABB._trusted(sx0, sy0, sz0, sx1, sy1, sz1), (sx, down, sz), camera_lag
    return AABB._trusted(x0, y0, z0, x1, y1, z1), (adx, ady, adz), camera_lag


def _clip_boxes_y_x_z(boxes: list[AABB], start: AABB, dx: float, dy: float, dz: float):
    """`clip_axis` on Y, then X, then Z over `boxes`, moving the corners after each (as `moved`
    does: not at all for a zero delta), written out per axis. Returns the end box's six corners
    and the allowed (dx, dy, dz)."""
    tol = CONTACT_TOLERANCE
    x0, y0, z0, x1, y1, z1 = start
    if dy != 0.0:  # Y: an obstacle counts when it overlaps on X and Z
        xl, xh, zl, zh = x0 + tol, x1 - tol, z0 + tol, z1 - tol
        if dy > 0.0:
            for b in boxes:
                if b[3] > xl and b[0] < xh and b[5] > zl and b[2] < zh:
                    gap = b[1] - y1
                    if -tol <= gap < dy:
                        dy = gap if gap > 0.0 else 0.0
        else:
            for b in boxes:
                if b[3] > xl and b[0] < xh and b[5] > zl and b[2] < zh:
                    gap = b[4] - y0
                    if dy < gap <= tol:
                        dy = gap if gap < 0.0 else 0.0
        if dy != 0.0:
            y0 += dy
            y1 += dy
    if dx != 0.0:  # X: on Y and Z
        yl, yh, zl, zh = y0 + tol, y1 - tol, z0 + tol, z1 - tol
        if dx > 0.0:
            for b in boxes:
                if b[4] > yl and b[1] < yh and b[5] > zl and b[2] < zh:
                    gap = b[0] - x1
                    if -tol <= gap < dx:
                        dx = gap if gap > 0.0 else 0.0
        else:
            for b in boxes:
                if b[4] > yl and b[1] < yh and b[5] > zl and b[2] < zh:
                    gap = b[3] - x0
                    if dx < gap <= tol:
                        dx = gap if gap < 0.0 else 0.0
        if dx != 0.0:
            x0 += dx
            x1 += dx
    if dz != 0.0:  # Z: on X and Y
        xl, xh, yl, yh = x0 + tol, x1 - tol, y0 + tol, y1 - tol
        if dz > 0.0:
            for b in boxes:
                if b[3] > xl and b[0] < xh and b[4] > yl and b[1] < yh:
                    gap = b[2] - z1
                    if -tol <= gap < dz:
                        dz = gap if gap > 0.0 else 0.0
        else:
            for b in boxes:
                if b[3] > xl and b[0] < xh and b[4] > yl and b[1] < yh:
                    gap = b[5] - z0
                    if dz < gap <= tol:
                        dz = gap if gap < 0.0 else 0.0
        if dz != 0.0:
            z0 += dz
            z1 += dz
    return x0, y0, z0, x1, y1, z1, dx, dy, dz


def _clip_y_x_z(world: CollisionWorld, start: AABB, dx: float, dy: float, dz: float, per_axis: bool,
                below: float = GATHER_BELOW):
    """Clip Y, then X, then Z from `start`, moving the box after each.

    Boxes are gathered once over the whole stretched box (Beta), or, when `per_axis`, once per
    axis over the thin slab that axis sweeps: the clip only ever reads boxes inside those slabs,
    so the result is identical, and the gathered volume grows with the length of the move, not
    with its cube. `below` is how far under the box one gather reaches: the step-up passes its
    step height when that exceeds a block, so its final step down finds the floor.
    Returns (end box, allowed deltas, stages); a stage is (box, delta, axis, boxes).
    """
    everything = None if per_axis else gather(world, start, dx, dy, dz, below)
    y_boxes = everything if everything is not None else _gather_axis(world, start, dy, Y)
    ady = clip_axis(y_boxes, start, dy, Y)
    after_y = moved(start, Y, ady)
    x_boxes = everything if everything is not None else _gather_axis(world, after_y, dx, X)
    adx = clip_axis(x_boxes, after_y, dx, X)
    after_x = moved(after_y, X, adx)
    z_boxes = everything if everything is not None else _gather_axis(world, after_x, dz, Z)
    adz = clip_axis(z_boxes, after_x, dz, Z)
    end = moved(after_x, Z, adz)
    stages = ((start, dy, Y, y_boxes), (after_y, dx, X, x_boxes), (after_x, dz, Z, z_boxes))
    return end, (adx, ady, adz), stages


def _gather_axis(world: CollisionWorld, box: AABB, delta: float, axis: int) -> list[AABB]:
    if delta == 0.0:
        return []  # clip_axis reads no boxes for a zero delta
    d = [0.0, 0.0, 0.0]
    d[axis] = delta
    return gather(world, box, *d)


def _gathers_per_axis(box: AABB, dx: float, dy: float, dz: float) -> bool:
    """True when three per-axis slabs cover much less volume than the whole stretched box."""
    w, h, l = box[3] - box[0], box[4] - box[1] + GATHER_BELOW, box[5] - box[2]
    ax, ay, az = abs(dx), abs(dy), abs(dz)
    stretched = (w + ax) * (h + ay) * (l + az)
    slabs = w * (h + ay) * l + (w + ax) * h * l + w * h * (l + az)
    return stretched > PER_AXIS_GATHER_RATIO * slabs


def _edge_guard(world: CollisionWorld, box: AABB, dx: float, dz: float, settings: MovementSettings):
    """Beta's sneak guard: shorten dx, then dz, while the box moved that way would stand on nothing."""
    return _guard_axis(world, box, dx, X, settings), _guard_axis(world, box, dz, Z, settings)


def _guard_axis(world: CollisionWorld, box: AABB, delta: float, axis: int, settings: MovementSettings) -> float:
    """The part of `delta` along `axis` the sneak edge guard allows (`edge_guard.py`).

    Every probe lies inside the box stretched by `delta` and the probe depth, so the world is
    asked once."""
    if delta == 0.0:
        return delta
    depth = settings.sneak_edge_probe_depth
    stretch = [0.0, -depth, 0.0]
    stretch[axis] = delta
    boxes = world.collision_boxes(box.expanded_towards(*stretch))
    return guard_axis(delta, settings.sneak_edge_backoff, support_along(box, boxes, axis, depth))


def _report(debug: DebugSink, start: AABB, end: AABB, requested, allowed, stages, probe, stepped) -> None:
    gathered = tuple(dict.fromkeys(b for *_, boxes in stages for b in boxes))
    clipping = tuple(
        b for b in gathered
        if any(d != 0.0 and clip_axis((b,), stage_box, d, axis) != d for stage_box, d, axis, _ in stages)
    )
    debug.report(MoveReport(start, end, tuple(requested), tuple(allowed), gathered, clipping, probe, stepped))
