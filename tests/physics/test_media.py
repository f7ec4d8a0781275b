"""Water, lava, ladders, cobwebs, soul sand, cactus, fall damage and knock-back, as Beta 1.7.3 has them.

Every expected number is derived here from the rules and float literals of
notes/beta-world-physics.md (and notes/beta-physics.md for dry land), with plain Python doubles
and a float32 rounding of our own, not read back from the physics code. Where Beta computes in
doubles we do too; where it rounds through a Java float we round with `f32`.
"""

from __future__ import annotations

import math
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from physics import BETA, AABB, BlockGrid, Body, Intent, shapes

from .test_properties import all_boxes, assert_no_new_overlap, bodies
from .worlds import CONVERGED, EAST_YAW, FEET_ROUNDING, FLOAT32_RELATIVE, FLOOR_TOP, SOUTH_YAW, floor, run, standing

Material = physics.Material

_FLOAT = struct.Struct("<f")


def f32(value: float) -> float:
    """`value` rounded to the nearest binary32 (Java's `(float)` cast), independent of physics.floats."""
    return _FLOAT.unpack(_FLOAT.pack(value))[0]


# Beta's literals, as Java widens them.
WATER_DRAG = f32(0.8)  # motionX *= 0.80000001192092896D
LAVA_DRAG = 0.5
FLUID_GRAVITY = 0.02
SWIM_UP = f32(0.04)  # motionY += 0.039999999105930328D
CURRENT = 0.014
JUMP_OUT = f32(0.3)
GRAVITY = 0.08
VERTICAL_DRAG = f32(0.98)
AIR_FRICTION = f32(0.91)
LADDER_SIDEWAYS = f32(0.15)
LADDER_DESCENT = 0.15
LADDER_CLIMB = 0.2
WEB_XZ = 0.25
WEB_Y = f32(0.05)
SOUL_SAND_SLOW = 0.4
KNOCKBACK = f32(0.4)

STONE_FRICTION = f32(f32(0.6) * f32(0.91))
ICE_FRICTION = f32(f32(0.98) * f32(0.91))


def ground_acceleration(friction: float) -> float:
    """Beta's `0.1F * (0.16277136F / (f * f * f))`, all in floats."""
    return f32(f32(0.1) * f32(f32(0.16277136) / f32(f32(friction * friction) * friction)))


def first_move(acceleration: float) -> float:
    """The velocity full forward input adds facing +X: input 1 x 0.98F, scaled by the acceleration
    (moveFlying with yaw 270, where Beta's table gives sin -1 and cos 0 exactly)."""
    return f32(f32(0.98) * acceleration)


WALK = first_move(ground_acceleration(STONE_FRICTION))  # 0.09799998998641968, as the dry-land notes quote
SWIM = first_move(f32(0.02))  # 0.019600000232458115
RESTING_VY = (0.0 - GRAVITY) * VERTICAL_DRAG  # -0.0784000015258789: a standing body's vy after each tick

WATER_TERMINAL = FLUID_GRAVITY / (1.0 - WATER_DRAG)  # the limit of vy' = vy * 0.8F - 0.02 (0.1000000060)
SETTLED = 1e-8
"""[blocks/tick] How close 120 ticks of a x0.8 geometric sequence get to its limit (0.8^120 x 0.1
is 2e-13), plus the 6e-9 by which 0.8F moves the limit off 0.1 itself."""
SOUL_SAND_NOTES = 1e-4
"""[blocks/tick] The notes quote the soul-sand walking speed as 'about 0.1254' (four decimals)."""

# --- small worlds ---------------------------------------------------------------------------------


def fluid(grid: BlockGrid | None = None, *, x0: int = -3, x1: int = 3, z0: int = -3, z1: int = 3, y0: int = 40,
          y1: int = 89, material: Material = Material.WATER, flow=(0.0, 0.0, 0.0), bottom: bool = True) -> BlockGrid:
    """A cuboid of water (or lava) cells y0..y1, on a stone floor at y0 - 1 when `bottom`."""
    grid = grid if grid is not None else BlockGrid()
    grid.fill(x0, y0, z0, x1, y1, z1, shapes.EMPTY, 0.6, material, flow)
    if bottom:
        grid.fill(x0, y0 - 1, z0, x1, y0 - 1, z1)
    return grid


def ladder_column(grid: BlockGrid | None = None, *, x: int = 0, z: int = 0, y0: int = 40, y1: int = 80,
                  facing: str = "east") -> BlockGrid:
    grid = grid if grid is not None else BlockGrid()
    for y in range(y0, y1 + 1):
        grid.set(x, y, z, shapes.LADDER[facing], 0.6, Material.LADDER)
    return grid


def webs(grid: BlockGrid | None = None, *, x0: int = 0, x1: int = 0, y0: int = 60, y1: int = 75, z0: int = 0,
         z1: int = 0) -> BlockGrid:
    grid = grid if grid is not None else BlockGrid()
    grid.fill(x0, y0, z0, x1, y1, z1, shapes.EMPTY, 0.6, Material.WEB)
    return grid


def soul_sand(grid: BlockGrid | None = None, *, x0: int = -3, x1: int = 3, z0: int = -3, z1: int = 3, y: int = 63,
              under_slipperiness: float = 0.6) -> BlockGrid:
    """A soul sand layer at y (top at y + 0.875) on a layer of blocks with `under_slipperiness`."""
    grid = grid if grid is not None else BlockGrid()
    grid.fill(x0, y - 1, z0, x1, y - 1, z1, shapes.FULL_CUBE, under_slipperiness)
    grid.fill(x0, y, z0, x1, y, z1, shapes.SOUL_SAND, 0.6, Material.SOUL_SAND)
    return grid


class BoxesOnly:
    """A world with only `collision_boxes`: no materials, no flow, no slipperiness."""

    def __init__(self, grid: BlockGrid) -> None:
        self.boxes = all_boxes(grid)

    def collision_boxes(self, region: AABB) -> list[AABB]:
        return [b for b in self.boxes if b.intersects(region)]


class CellByCell:
    """A world answering materials one cell at a time (`material`, `flow`), without `materials_in`."""

    def __init__(self, grid: BlockGrid) -> None:
        self.grid = grid

    def collision_boxes(self, region: AABB) -> list[AABB]:
        return self.grid.collision_boxes(region)

    def slipperiness(self, x: int, y: int, z: int) -> float:
        return self.grid.slipperiness(x, y, z)

    def material(self, x: int, y: int, z: int) -> Material:
        return self.grid.material(x, y, z)

    def flow(self, x: int, y: int, z: int) -> tuple[float, float, float]:
        return self.grid.flow(x, y, z)


# --- the public surface -----------------------------------------------------------------------------


def test_media_settings_hold_beta_literals_as_java_widens_them():
    assert BETA.water_drag == 0.800000011920929
    assert BETA.lava_drag == 0.5
    assert BETA.fluid_gravity == 0.02
    assert BETA.swim_up_acceleration == 0.03999999910593033
    assert BETA.current_acceleration == 0.014
    assert BETA.ladder_max_sideways == 0.15000000596046448
    assert BETA.ladder_max_descent == 0.15
    assert BETA.ladder_climb_velocity == 0.2
    assert BETA.web_horizontal_scale == 0.25
    assert BETA.web_vertical_scale == 0.05000000074505806
    assert BETA.soul_sand_slowdown == 0.4
    assert BETA.safe_fall_distance == 3.0


def test_the_new_block_shapes_are_beta_boxes():
    assert shapes.SOUL_SAND == (AABB(0.0, 0.0, 0.0, 1.0, 0.875, 1.0),)
    assert shapes.CACTUS == (AABB(1 / 16, 0.0, 1 / 16, 15 / 16, 15 / 16, 15 / 16),)
    assert shapes.LADDER["north"] == (AABB(0.0, 0.0, 0.0, 1.0, 1.0, 0.125),)
    assert shapes.LADDER["south"] == (AABB(0.0, 0.0, 0.875, 1.0, 1.0, 1.0),)
    assert shapes.LADDER["west"] == (AABB(0.0, 0.0, 0.0, 0.125, 1.0, 1.0),)
    assert shapes.LADDER["east"] == (AABB(0.875, 0.0, 0.0, 1.0, 1.0, 1.0),)
    assert [m.name for m in Material] == ["AIR", "SOLID", "WATER", "LAVA", "LADDER", "WEB", "SOUL_SAND", "CACTUS"]


def test_a_block_grid_remembers_each_cells_material_and_flow():
    grid = fluid(x0=0, x1=0, z0=0, z1=0, y0=5, y1=5, flow=(1.0, 0.0, 0.0))
    assert grid.material(0, 5, 0) == Material.WATER
    assert grid.flow(0, 5, 0) == (1.0, 0.0, 0.0)
    assert grid.material(0, 4, 0) == Material.SOLID
    assert grid.flow(0, 4, 0) == (0.0, 0.0, 0.0)
    assert grid.material(0, 6, 0) == Material.AIR
    assert grid.boxes_at(0, 5, 0) == ()


# --- water ---------------------------------------------------------------------------------------------


def test_sinking_in_still_deep_water_follows_beta_drag_and_settles_at_a_tenth_of_a_block_per_tick():
    grid = fluid()
    body = Body.at_feet(0.5, 80.0, 0.5)
    vy = 0.0
    for _ in range(120):
        before = body.box.min_y
        body = physics.step(body, grid, Intent())
        moved, vy = vy, vy * WATER_DRAG - FLUID_GRAVITY
        assert body.in_water and not body.in_lava
        assert body.velocity == (0.0, vy, 0.0)
        assert body.box.min_y - before == pytest.approx(moved, abs=FEET_ROUNDING)
    assert -vy == pytest.approx(WATER_TERMINAL, abs=CONVERGED)
    before = body.box.min_y
    body = physics.step(body, grid, Intent())
    assert before - body.box.min_y == pytest.approx(0.1, abs=SETTLED)


def test_holding_jump_in_deep_water_adds_0_04_a_tick_and_settles_at_a_tenth_of_a_block_up():
    grid = fluid()
    body = Body.at_feet(0.5, 50.0, 0.5)
    vy = 0.0
    for _ in range(120):
        before = body.box.min_y
        body = physics.step(body, grid, Intent(jump=True))
        moved = vy + SWIM_UP
        vy = moved * WATER_DRAG - FLUID_GRAVITY
        assert body.in_water
        assert body.velocity == (0.0, vy, 0.0)
        assert body.box.min_y - before == pytest.approx(moved, abs=FEET_ROUNDING)
    assert body.box.min_y - before == pytest.approx(0.1, abs=SETTLED)


def test_jumping_from_the_bottom_of_a_pool_adds_0_04_instead_of_the_0_42_jump():
    grid = fluid(y0=60, y1=70)
    body = run(Body.at_feet(0.5, 60.0, 0.5), grid, Intent(), 3)
    # On the pool floor: each tick asks -0.02, is clipped to 0 (vy zeroed), then 0 x 0.8 - 0.02.
    assert body.on_ground and body.in_water and body.velocity[1] == -0.02
    jumped = physics.step(body, grid, Intent(jump=True))
    moved = -0.02 + SWIM_UP
    assert jumped.box.min_y - body.box.min_y == pytest.approx(moved, abs=FEET_ROUNDING)
    assert jumped.velocity[1] == moved * WATER_DRAG - FLUID_GRAVITY


def test_swimming_accelerates_0_02_along_the_input_and_drags_all_three_components():
    grid = fluid()
    body = Body.at_feet(0.5, 80.0, 0.5)
    body = physics.step(body, grid, Intent(forward=1.0, yaw=EAST_YAW))
    assert body.feet[0] - 0.5 == pytest.approx(SWIM, abs=FEET_ROUNDING)
    assert body.velocity == (SWIM * WATER_DRAG, -FLUID_GRAVITY, 0.0)


def test_a_current_pushes_a_floating_body_0_014_a_tick_before_the_move():
    grid = fluid(flow=(1.0, 0.0, 0.0))
    body = Body.at_feet(0.5, 80.0, 0.5)
    first = physics.step(body, grid, Intent())
    assert first.feet[0] - body.feet[0] == pytest.approx(CURRENT, abs=FEET_ROUNDING)
    assert first.velocity == (CURRENT * WATER_DRAG, -FLUID_GRAVITY, 0.0)
    second = physics.step(first, grid, Intent())
    assert second.velocity[0] == (CURRENT * WATER_DRAG + CURRENT) * WATER_DRAG
    assert second.feet[0] - first.feet[0] == pytest.approx(CURRENT * WATER_DRAG + CURRENT, abs=FEET_ROUNDING)


def test_the_current_is_the_normalised_sum_of_the_flows_of_the_water_cells_the_body_is_in():
    # The water test box of a body with feet at 80.0 spans cells y = 80 and 81 (80.401 .. 81.399).
    grid = fluid()
    grid.set(0, 80, 0, shapes.EMPTY, 0.6, Material.WATER, (1.0, 0.0, 0.0))
    grid.set(0, 81, 0, shapes.EMPTY, 0.6, Material.WATER, (0.0, 0.0, 1.0))
    body = physics.step(Body.at_feet(0.5, 80.0, 0.5), grid, Intent())
    diagonal = CURRENT / math.sqrt(2.0)  # Beta normalises with a float square root: within float rounding
    assert body.velocity[0] == pytest.approx(diagonal * WATER_DRAG, rel=FLOAT32_RELATIVE)
    assert body.velocity[2] == pytest.approx(diagonal * WATER_DRAG, rel=FLOAT32_RELATIVE)
    assert body.velocity[0] == body.velocity[2]


def test_opposite_currents_cancel():
    grid = fluid()
    grid.set(0, 80, 0, shapes.EMPTY, 0.6, Material.WATER, (1.0, 0.0, 0.0))
    grid.set(0, 81, 0, shapes.EMPTY, 0.6, Material.WATER, (-1.0, 0.0, 0.0))
    body = physics.step(Body.at_feet(0.5, 80.0, 0.5), grid, Intent())
    assert body.velocity == (0.0, -FLUID_GRAVITY, 0.0)


def test_water_resets_the_fall_distance_before_the_move():
    grid = fluid()
    body = Body(AABB.around_feet(0.5, 80.0, 0.5, 0.6, 1.8), fall_distance=12.0)
    assert physics.step(body, grid, Intent()).fall_distance == 0.0


def test_in_water_the_fall_distance_holds_only_this_ticks_sinking():
    # Reset to 0 before the move, then the move's own dy < 0 adds to it (as a Java float).
    grid = fluid()
    body = Body(AABB.around_feet(0.5, 80.0, 0.5, 0.6, 1.8), velocity=(0.0, -0.3, 0.0), fall_distance=12.0)
    body = physics.step(body, grid, Intent())
    assert body.fall_distance == f32(0.3)


def test_a_body_is_in_water_when_a_water_cell_overlaps_its_box_shrunk_by_0_4_vertically():
    grid = BlockGrid()
    grid.set(0, 80, 0, shapes.EMPTY, 0.6, Material.WATER)
    # Feet 79.7: the test box spans 80.101 .. 81.099, which reaches into the water cell at 80.
    assert physics.step(Body.at_feet(0.5, 79.7, 0.5), grid, Intent()).in_water
    # Feet 80.65: the test box starts at 81.051, above the cell: the body is not in water.
    assert not physics.step(Body.at_feet(0.5, 80.65, 0.5), grid, Intent()).in_water
    # Head 0.3 into the cell (feet 78.5, box top 80.3): the test box ends at 79.899, below it.
    assert not physics.step(Body.at_feet(0.5, 78.5, 0.5), grid, Intent()).in_water


def test_touching_names_the_water_a_swimmer_is_in():
    body = physics.step(Body.at_feet(0.5, 80.0, 0.5), fluid(), Intent())
    assert Material.WATER in body.touching


def test_a_swimmer_pushing_against_a_low_bank_is_lifted_out_at_0_3():
    grid = fluid(x0=-4, x1=0, y0=60, y1=63)  # water surface at 64
    grid.fill(1, 59, -3, 40, 63, 3)  # the bank: top at 64, beside the water
    body = Body.at_feet(0.0, 61.0, 0.5)
    swim = Intent(forward=1.0, yaw=EAST_YAW, jump=True)
    for _ in range(100):
        body = physics.step(body, grid, swim)
        if body.in_water and body.collided_horizontally and body.velocity[1] == JUMP_OUT:
            break
    else:
        pytest.fail("never lifted out")
    body = run(body, grid, swim, 20)
    assert body.box.min_x > 1.0 and body.box.min_y >= 64.0 - FEET_ROUNDING  # it got onto the bank


def test_falling_twenty_blocks_into_five_blocks_of_water_deals_no_damage():
    grid = fluid(y0=64, y1=68)  # water top at 69, stone floor at 63
    body = Body.at_feet(0.5, 89.0, 0.5)
    swam = False
    for _ in range(200):
        body = physics.step(body, grid, Intent())
        swam = swam or body.in_water
        assert body.fall_damage == 0
        if body.on_ground:
            break
    assert swam and body.on_ground and body.box.min_y == pytest.approx(64.0, abs=FEET_ROUNDING)


# --- lava ----------------------------------------------------------------------------------------------


def test_sinking_in_lava_halves_the_velocity_and_ignores_the_flow():
    grid = fluid(material=Material.LAVA, flow=(1.0, 0.0, 0.0))
    body = Body.at_feet(0.5, 80.0, 0.5)
    vy = 0.0
    for _ in range(40):
        before = body.box.min_y
        body = physics.step(body, grid, Intent())
        moved, vy = vy, vy * LAVA_DRAG - FLUID_GRAVITY
        assert body.in_lava and not body.in_water
        assert body.velocity == (0.0, vy, 0.0)
        assert body.box.min_y - before == pytest.approx(moved, abs=FEET_ROUNDING)
    assert vy == pytest.approx(-0.04, abs=CONVERGED)


def test_holding_jump_in_lava_rises_at_0_04_a_tick():
    grid = fluid(material=Material.LAVA)
    body = Body.at_feet(0.5, 50.0, 0.5)
    vy = 0.0
    for _ in range(40):
        before = body.box.min_y
        body = physics.step(body, grid, Intent(jump=True))
        moved = vy + SWIM_UP
        vy = moved * LAVA_DRAG - FLUID_GRAVITY
        assert body.velocity == (0.0, vy, 0.0)
    assert body.box.min_y - before == pytest.approx((SWIM_UP - FLUID_GRAVITY) / (1.0 - LAVA_DRAG), abs=CONVERGED)


def test_water_is_checked_before_lava_when_a_body_is_in_both():
    grid = BlockGrid()
    grid.set(0, 80, 0, shapes.EMPTY, 0.6, Material.LAVA)
    grid.set(0, 81, 0, shapes.EMPTY, 0.6, Material.WATER)
    body = Body(AABB.around_feet(0.5, 80.0, 0.5, 0.6, 1.8), velocity=(0.0, -0.1, 0.0))
    after = physics.step(body, grid, Intent())
    assert after.in_water
    assert after.velocity[1] == -0.1 * WATER_DRAG - FLUID_GRAVITY  # lava would give -0.07


def test_lava_is_found_in_the_box_shrunk_by_0_1_sideways_water_in_the_box_shrunk_by_0_001():
    # Box x 0.45 .. 1.05 overlaps the cell at x = 1 by 0.05.
    lava = fluid(x0=1, x1=1, y0=60, y1=70, material=Material.LAVA, bottom=False)
    water = fluid(x0=1, x1=1, y0=60, y1=70, bottom=False)
    body = Body.at_feet(0.75, 65.0, 0.5)
    assert not physics.step(body, lava, Intent()).in_lava
    assert physics.step(body, water, Intent()).in_water
    deeper = Body.at_feet(0.95, 65.0, 0.5)  # overlaps by 0.25
    assert physics.step(deeper, lava, Intent()).in_lava


def test_lava_does_not_reset_the_fall_distance():
    grid = fluid(material=Material.LAVA)
    body = Body(AABB.around_feet(0.5, 80.0, 0.5, 0.6, 1.8), velocity=(0.0, -0.1, 0.0), fall_distance=5.0)
    assert physics.step(body, grid, Intent()).fall_distance == f32(5.0 + 0.1)


# --- ladders -------------------------------------------------------------------------------------------


def test_pushing_into_a_ladder_climbs_0_1176_blocks_a_tick():
    grid = ladder_column(floor(), y0=64, y1=80)
    body = standing(grid)
    climb = (LADDER_CLIMB - GRAVITY) * VERTICAL_DRAG
    assert climb == pytest.approx(0.1176, abs=1e-8)
    ys = []
    for _ in range(20):
        body = physics.step(body, grid, Intent(forward=1.0, yaw=EAST_YAW))
        assert body.collided_horizontally
        assert body.velocity[1] == climb
        assert body.fall_distance == 0.0
        ys.append(body.box.min_y)
    assert ys[0] == FLOOR_TOP  # the first push only sets the climbing velocity
    assert body.box.max_x == pytest.approx(0.875, abs=FEET_ROUNDING)
    for lower, upper in zip(ys, ys[1:]):
        assert upper - lower == pytest.approx(climb, abs=FEET_ROUNDING)


def test_sliding_down_a_ladder_is_capped_at_0_15_blocks_a_tick():
    grid = ladder_column()
    body = Body.at_feet(0.5, 70.0, 0.5)
    vy = 0.0
    for _ in range(15):
        before = body.box.min_y
        body = physics.step(body, grid, Intent())
        moved = max(vy, -LADDER_DESCENT)
        vy = (moved - GRAVITY) * VERTICAL_DRAG
        assert body.velocity == (0.0, vy, 0.0)
        assert body.box.min_y - before == pytest.approx(moved, abs=FEET_ROUNDING)
        # Reset to 0 before the move, so only this tick's drop counts (a Java float).
        assert body.fall_distance == f32(-moved)
    assert moved == -0.15


def test_a_ladder_resets_the_fall_distance():
    grid = ladder_column()
    body = Body(AABB.around_feet(0.5, 70.0, 0.5, 0.6, 1.8), fall_distance=20.0)
    assert physics.step(body, grid, Intent()).fall_distance == 0.0


def test_sliding_down_a_ladder_to_the_floor_deals_no_fall_damage():
    grid = ladder_column(floor(), y0=64, y1=80)
    body = Body(AABB.around_feet(0.5, 78.0, 0.5, 0.6, 1.8), fall_distance=30.0)
    for _ in range(200):
        body = physics.step(body, grid, Intent())
        assert body.fall_damage == 0
        if body.on_ground:
            break
    assert body.on_ground and body.box.min_y == pytest.approx(FLOOR_TOP, abs=FEET_ROUNDING)


def test_sneaking_on_a_ladder_holds_the_body_still():
    grid = ladder_column()
    body = Body(AABB.around_feet(0.5, 70.0, 0.5, 0.6, 1.8), velocity=(0.0, -0.15, 0.0))
    for _ in range(10):
        body = physics.step(body, grid, Intent(sneak=True))
        assert body.box.min_y == 70.0
        assert body.velocity == (0.0, RESTING_VY, 0.0)


def test_sideways_velocity_on_a_ladder_is_clamped_to_0_15():
    grid = ladder_column()
    body = Body(AABB.around_feet(0.5, 70.0, 0.5, 0.6, 1.8), velocity=(-0.5, 0.0, 0.7))
    after = physics.step(body, grid, Intent())
    assert after.feet[0] - body.feet[0] == pytest.approx(-LADDER_SIDEWAYS, abs=FEET_ROUNDING)
    assert after.feet[2] - body.feet[2] == pytest.approx(LADDER_SIDEWAYS, abs=FEET_ROUNDING)
    assert after.velocity == (-LADDER_SIDEWAYS * AIR_FRICTION, RESTING_VY, LADDER_SIDEWAYS * AIR_FRICTION)


def test_a_ladder_is_only_climbed_from_the_cell_of_the_body_centre():
    # The ladder hangs on the -X side of cell x = 1 (x 1 .. 1.125); pushed against it the body's
    # centre is at x 0.7, in cell 0, so it is not on the ladder and does not climb.
    grid = ladder_column(floor(), x=1, y0=64, y1=80, facing="west")
    body = run(standing(grid), grid, Intent(forward=1.0, yaw=EAST_YAW), 5)
    assert body.collided_horizontally and body.on_ground
    assert body.box.max_x == pytest.approx(1.0, abs=FEET_ROUNDING)
    assert body.box.min_y == FLOOR_TOP and body.velocity[1] == RESTING_VY


# --- cobwebs -------------------------------------------------------------------------------------------


def test_a_body_in_a_web_falls_0_0784_times_0_05_a_tick():
    grid = webs()
    body = physics.step(Body.at_feet(0.5, 70.0, 0.5), grid, Intent())
    assert body.in_web  # set by this tick's contact pass
    assert body.box.min_y == 70.0
    assert body.velocity == (0.0, RESTING_VY, 0.0)
    for _ in range(10):
        before = body.box.min_y
        body = physics.step(body, grid, Intent())
        assert body.in_web
        assert body.box.min_y - before == pytest.approx(RESTING_VY * WEB_Y, abs=FEET_ROUNDING)
        assert body.velocity == (0.0, RESTING_VY, 0.0)  # zeroed by the web, then gravity and drag
    assert RESTING_VY * WEB_Y == pytest.approx(-0.0039, abs=1e-4)


def test_a_web_slows_the_move_after_the_one_that_entered_it():
    grid = webs()
    body = Body(AABB.around_feet(0.5, 76.2, 0.5, 0.6, 1.8), velocity=(0.0, -0.5, 0.0))
    entered = physics.step(body, grid, Intent())
    assert entered.in_web
    assert entered.box.min_y == pytest.approx(75.7, abs=FEET_ROUNDING)
    vy = (-0.5 - GRAVITY) * VERTICAL_DRAG
    assert entered.velocity == (0.0, vy, 0.0)
    slowed = physics.step(entered, grid, Intent())
    assert slowed.box.min_y - entered.box.min_y == pytest.approx(vy * WEB_Y, abs=FEET_ROUNDING)
    assert slowed.velocity == (0.0, RESTING_VY, 0.0)


def test_walking_through_a_web_moves_a_quarter_of_the_first_step_every_tick():
    grid = webs(floor(), x0=-2, x1=10, y0=64, y1=65)
    body = standing(grid)
    assert body.in_web and body.on_ground
    for _ in range(10):
        before = body.feet[0]
        body = physics.step(body, grid, Intent(forward=1.0, yaw=EAST_YAW))
        assert body.feet[0] - before == pytest.approx(WALK * WEB_XZ, abs=FEET_ROUNDING)
        assert body.velocity == (0.0, RESTING_VY, 0.0)
        assert body.in_web and body.on_ground


def test_a_web_does_not_reset_the_fall_distance():
    grid = webs()
    body = Body(AABB.around_feet(0.5, 70.0, 0.5, 0.6, 1.8), velocity=(0.0, RESTING_VY, 0.0), in_web=True,
                fall_distance=5.0)
    after = physics.step(body, grid, Intent())
    assert after.fall_distance == f32(5.0 - RESTING_VY * WEB_Y)


def test_a_body_leaving_a_web_moves_freely_again():
    grid = webs()
    body = Body(AABB.around_feet(0.5, 58.0, 0.5, 0.6, 1.8), velocity=(0.0, RESTING_VY, 0.0), in_web=True)
    # The box (58 .. 59.8) is below the webs (60 .. 75): the flag slows this move, then is cleared.
    after = physics.step(body, grid, Intent())
    assert after.box.min_y - body.box.min_y == pytest.approx(RESTING_VY * WEB_Y, abs=FEET_ROUNDING)
    assert not after.in_web
    free = physics.step(after, grid, Intent())
    assert free.box.min_y - after.box.min_y == pytest.approx(RESTING_VY, abs=FEET_ROUNDING)


def test_the_contact_pass_ignores_a_web_cell_the_box_only_touches_on_a_face():
    # The contact pass visits the cells of the box shrunk by 0.001: a face exactly on the cell
    # boundary (box x max 1.0 against the web column at x = 1) is not in the web; 0.01 into it is.
    grid = webs(floor(), x0=1, x1=1, y0=64, y1=65)
    beside = physics.step(Body.at_feet(0.7, FLOOR_TOP, 0.5), grid, Intent())
    assert not beside.in_web and Material.WEB not in beside.touching
    inside = physics.step(Body.at_feet(0.71, FLOOR_TOP, 0.5), grid, Intent())
    assert inside.in_web and Material.WEB in inside.touching


# --- soul sand -----------------------------------------------------------------------------------------


def test_a_body_lands_on_soul_sand_an_eighth_of_a_block_deep_and_touches_it():
    grid = soul_sand()
    body = run(Body.at_feet(0.5, 66.0, 0.5), grid, Intent(), 30)
    assert body.on_ground
    assert body.box.min_y == pytest.approx(63.875, abs=FEET_ROUNDING)
    assert Material.SOUL_SAND in body.touching


def _soul_sand_cells(min_x: float, max_x: float, sand_x0: int, sand_x1: int) -> int:
    """How many soul sand cells of a row x = sand_x0..sand_x1 a box x min_x..max_x, shrunk by 0.001, overlaps."""
    first, last = math.floor(min_x + 0.001), math.floor(max_x - 0.001)
    return sum(1 for x in range(first, last + 1) if sand_x0 <= x <= sand_x1)


def test_walking_on_soul_sand_multiplies_horizontal_velocity_by_0_4_per_cell_touched():
    grid = soul_sand(x0=-3, x1=40, z0=0, z1=0)
    body = standing(grid, y=63.875)
    min_x, max_x = body.box.min_x, body.box.max_x
    u = 0.0
    for _ in range(30):
        moved = u + WALK
        min_x, max_x = min_x + moved, max_x + moved
        u = moved
        for _cell in range(_soul_sand_cells(min_x, max_x, -3, 40)):
            u *= SOUL_SAND_SLOW  # once per soul sand cell, after the move, before friction
        u *= STONE_FRICTION
        before = body.feet[0]
        body = physics.step(body, grid, Intent(forward=1.0, yaw=EAST_YAW))
        assert body.feet[0] - before == pytest.approx(moved, abs=FEET_ROUNDING)
        assert body.velocity[0] == u


def test_walking_on_one_soul_sand_cell_settles_near_0_1254_blocks_a_tick():
    grid = soul_sand(x0=0, x1=0, z0=0, z1=0)
    body = standing(grid, x=0.06, width=0.1, y=63.875)  # box x 0.01 .. 0.11: room to walk within the cell
    u = 0.0
    for _ in range(7):
        before = body.feet[0]
        body = physics.step(body, grid, Intent(forward=1.0, yaw=EAST_YAW))
        moved = u + WALK
        u = moved * SOUL_SAND_SLOW * STONE_FRICTION
        assert body.velocity[0] == u
    assert body.box.max_x < 0.999
    limit = WALK / (1.0 - SOUL_SAND_SLOW * STONE_FRICTION)
    assert body.feet[0] - before == pytest.approx(limit, abs=1e-5)
    assert limit == pytest.approx(0.1254, abs=SOUL_SAND_NOTES)


def test_straddling_two_soul_sand_cells_slows_by_0_16():
    grid = soul_sand()
    one = physics.step(standing(grid, x=0.5, y=63.875), grid, Intent(forward=1.0, yaw=SOUTH_YAW))
    two = physics.step(standing(grid, x=1.0, y=63.875), grid, Intent(forward=1.0, yaw=SOUTH_YAW))
    assert one.velocity[2] == WALK * SOUL_SAND_SLOW * STONE_FRICTION
    assert two.velocity[2] == WALK * SOUL_SAND_SLOW * SOUL_SAND_SLOW * STONE_FRICTION
    assert two.velocity[2] / one.velocity[2] == pytest.approx(0.4, rel=1e-12)


def test_soul_sand_friction_and_acceleration_come_from_the_block_under_it():
    grid = soul_sand(under_slipperiness=0.98)  # ice under the soul sand
    body = standing(grid, y=63.875)
    after = physics.step(body, grid, Intent(forward=1.0, yaw=EAST_YAW))
    on_ice = first_move(ground_acceleration(ICE_FRICTION))
    assert after.feet[0] - body.feet[0] == pytest.approx(on_ice, abs=FEET_ROUNDING)
    assert after.velocity[0] == on_ice * SOUL_SAND_SLOW * ICE_FRICTION


# --- cactus --------------------------------------------------------------------------------------------


def test_a_body_pressed_against_a_cactus_from_the_side_touches_it():
    grid = floor()
    grid.set(1, 64, 0, shapes.CACTUS, 0.6, Material.CACTUS)
    body = standing(grid)
    assert Material.CACTUS not in body.touching  # box x 0.2 .. 0.8: not in the cactus cell
    body = run(body, grid, Intent(forward=1.0, yaw=EAST_YAW), 10)
    assert body.collided_horizontally
    assert body.box.max_x == pytest.approx(1.0 + 1 / 16, abs=FEET_ROUNDING)
    assert Material.CACTUS in body.touching


# --- fall damage ---------------------------------------------------------------------------------------


def beta_free_fall(height: float):
    """Per tick (fall distance after it, damage of its landing) for a body dropped from rest
    `height` blocks above the floor top at FLOOR_TOP, by Beta's rules: each tick moves by vy; a move that is clipped
    lands, calls fall(fallDistance) (the landing tick's own drop is not counted) and resets it;
    otherwise a downward move adds -dy to the float fall distance; then vy = (vy - 0.08) * 0.98F."""
    y, vy, fall_distance = FLOOR_TOP + height, 0.0, 0.0
    ticks = []
    while True:
        if vy < FLOOR_TOP - y:  # the floor clips this move
            damage = math.ceil(f32(fall_distance - 3.0))
            ticks.append((0.0, max(damage, 0)))
            return ticks
        y += vy
        if vy < 0.0:
            fall_distance = f32(fall_distance - vy)
        ticks.append((fall_distance, 0))
        vy = (vy - GRAVITY) * VERTICAL_DRAG


@pytest.mark.parametrize("height", [3, 4, 5, 10, 23])
def test_falling_onto_stone_deals_beta_fall_damage(height):
    grid = floor()
    expected = beta_free_fall(float(height))
    body = Body.at_feet(0.5, FLOOR_TOP + height, 0.5)
    got = []
    for _ in expected:
        body = physics.step(body, grid, Intent())
        got.append((body.fall_distance, body.fall_damage))
    assert got == expected
    assert body.on_ground and body.box.min_y == pytest.approx(FLOOR_TOP, abs=FEET_ROUNDING)
    rested = physics.step(body, grid, Intent())
    assert (rested.fall_distance, rested.fall_damage) == (0.0, 0)


def test_the_fall_damage_table_matches_beta():
    """The derived damages themselves: safe up to 3 blocks, then about a half heart per block."""
    damage = {h: beta_free_fall(float(h))[-1][1] for h in (3, 4, 5, 10, 23)}
    assert damage == {3: 0, 4: 1, 5: 2, 10: 7, 23: 19}


# --- knock-back ----------------------------------------------------------------------------------------


def test_knockback_from_an_attacker_on_plus_x_pushes_minus_x_and_up():
    body = Body(AABB.around_feet(0.5, 64.0, 0.5, 0.6, 1.8), velocity=(0.2, -0.0784, 0.1))
    hit = physics.knockback(body, 3.5, 0.5)
    # d = 3, d1 = 0, f = (float) sqrt(9) = 3
    assert hit.velocity == (0.2 / 2.0 - (3.0 / 3.0) * KNOCKBACK, -0.0784 / 2.0 + KNOCKBACK, 0.1 / 2.0 - 0.0)
    assert hit.box == body.box


def test_knockback_from_a_diagonal_divides_by_the_float_distance():
    body = Body.at_feet(0.5, 64.0, 0.5)
    hit = physics.knockback(body, 2.5, -1.5)
    d, d1 = 2.0, -2.0
    f = f32(math.sqrt(d * d + d1 * d1))
    assert hit.velocity == (0.0 - d / f * KNOCKBACK, KNOCKBACK, 0.0 - d1 / f * KNOCKBACK)
    assert hit.velocity[0] == -hit.velocity[2]


def test_knockback_caps_vertical_velocity_at_0_4():
    body = Body(AABB.around_feet(0.5, 64.0, 0.5, 0.6, 1.8), velocity=(0.0, 0.5, 0.0))
    assert physics.knockback(body, 1.5, 0.5).velocity[1] == 0.4000000059604645
    falling = Body(AABB.around_feet(0.5, 64.0, 0.5, 0.6, 1.8), velocity=(0.0, -0.3, 0.0))
    assert physics.knockback(falling, 1.5, 0.5).velocity[1] == -0.15 + KNOCKBACK


# --- worlds that say nothing about materials ----------------------------------------------------------


def _dry_course() -> BlockGrid:
    grid = floor(x0=-5, x1=40, z0=-3, z1=3)
    grid.set(4, 64, 0, shapes.SLAB)
    grid.fill(5, 64, -3, 6, 64, 3)
    for x in range(12, 17):  # a pit 6 deep
        for z in range(-3, 4):
            grid.remove(x, 63, z)
    grid.fill(12, 57, -3, 16, 57, 3)
    return grid


DRY_INTENTS = ([Intent()] * 3 + [Intent(forward=1.0, yaw=EAST_YAW)] * 25
               + [Intent(jump=True, forward=1.0, yaw=EAST_YAW)]
               + [Intent(forward=1.0, yaw=EAST_YAW, sneak=True)] * 10 + [Intent(forward=1.0, yaw=EAST_YAW)] * 40
               + [Intent(strafe=1.0, yaw=EAST_YAW, jump=True)] * 15)


def test_a_world_with_only_collision_boxes_moves_bodies_as_a_block_grid_with_the_same_boxes():
    grid = _dry_course()
    plain = BoxesOnly(grid)
    a = b = Body.at_feet(0.5, 66.0, 0.5)
    landed_hard = False
    for intent in DRY_INTENTS:
        a, b = physics.step(a, grid, intent), physics.step(b, plain, intent)
        assert (a.box, a.velocity, a.on_ground, a.collided_horizontally, a.collided_vertically, a.camera_lag,
                a.fall_distance, a.fall_damage) == (
                b.box, b.velocity, b.on_ground, b.collided_horizontally, b.collided_vertically, b.camera_lag,
                b.fall_distance, b.fall_damage)
        assert not (b.in_water or b.in_lava or b.in_web)
        landed_hard = landed_hard or b.fall_damage > 0
    assert landed_hard  # the course includes a drop into the pit


def test_a_world_with_only_collision_boxes_reports_the_same_touching():
    grid = _dry_course()
    plain = BoxesOnly(grid)
    a = b = Body.at_feet(0.5, 66.0, 0.5)
    for intent in DRY_INTENTS:
        a, b = physics.step(a, grid, intent), physics.step(b, plain, intent)
        assert a.touching == b.touching
        assert a.touching <= {Material.SOLID}


@pytest.mark.parametrize("scenario", ["water", "lava", "ladder", "web", "soul_sand"])
def test_a_world_answering_one_cell_at_a_time_moves_bodies_as_the_block_grid(scenario):
    if scenario in ("water", "lava"):
        grid = fluid(material=Material.WATER if scenario == "water" else Material.LAVA, flow=(0.6, 0.0, 0.8))
        start = Body.at_feet(0.5, 80.0, 0.5)
    elif scenario == "ladder":
        grid = ladder_column(floor(), y0=64, y1=80)
        start = Body.at_feet(0.5, 64.0, 0.5)
    elif scenario == "web":
        grid = webs(floor(), x0=-2, x1=10, y0=64, y1=65)
        start = Body.at_feet(0.5, 66.0, 0.5)
    else:
        grid = soul_sand(x0=-3, x1=20)
        start = Body.at_feet(0.5, 63.875, 0.5)
    cells = CellByCell(grid)
    a = b = start
    for tick in range(40):
        intent = Intent(forward=1.0, yaw=EAST_YAW, jump=tick % 7 == 0)
        a, b = physics.step(a, grid, intent), physics.step(b, cells, intent)
        assert a == b


# --- bad input -----------------------------------------------------------------------------------------


def _snapshot(grid: BlockGrid):
    return (len(grid), grid.revision, grid.boxes_at(0, 0, 0), grid.material(0, 0, 0), grid.flow(0, 0, 0),
            grid.slipperiness(0, 0, 0))


@pytest.mark.parametrize("flow", [(math.nan, 0.0, 0.0), (0.0, math.inf, 0.0), (0.0, 0.0, -math.inf)])
def test_a_non_finite_flow_is_rejected_and_changes_nothing(flow):
    grid = BlockGrid()
    grid.set(0, 0, 0, shapes.EMPTY, 0.6, Material.WATER, (1.0, 0.0, 0.0))
    before = _snapshot(grid)
    with pytest.raises(ValueError):
        grid.set(0, 0, 0, shapes.EMPTY, 0.6, Material.WATER, flow)
    with pytest.raises(ValueError):
        grid.set(0, 0, 0, shapes.FULL_CUBE, 0.9, Material.SOLID, flow)
    with pytest.raises(ValueError):
        grid.fill(0, 0, 0, 2, 2, 2, shapes.EMPTY, 0.6, Material.WATER, flow)
    assert _snapshot(grid) == before
    assert grid.material(1, 1, 1) == Material.AIR


@pytest.mark.parametrize("material", [2, "water", None, 1.0])
def test_a_material_that_is_not_a_physics_material_is_rejected_and_changes_nothing(material):
    grid = BlockGrid()
    grid.set(0, 0, 0, shapes.EMPTY, 0.6, Material.WATER, (1.0, 0.0, 0.0))
    before = _snapshot(grid)
    with pytest.raises(TypeError):
        grid.set(0, 0, 0, shapes.FULL_CUBE, 0.6, material)
    with pytest.raises(TypeError):
        grid.fill(0, 0, 0, 1, 1, 1, shapes.FULL_CUBE, 0.6, material)
    assert _snapshot(grid) == before


# --- any world -----------------------------------------------------------------------------------------

BLOCKS = [
    (shapes.FULL_CUBE, Material.SOLID),
    (shapes.SLAB, Material.SOLID),
    (shapes.TOP_SLAB, Material.SOLID),
    (shapes.EMPTY, Material.WATER),
    (shapes.EMPTY, Material.LAVA),
    *((shapes.LADDER[facing], Material.LADDER) for facing in ("north", "south", "east", "west")),
    (shapes.EMPTY, Material.WEB),
    (shapes.SOUL_SAND, Material.SOUL_SAND),
    (shapes.CACTUS, Material.CACTUS),
]
FLOWS = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 0.0, -1.0), (0.70710678, -0.5, 0.70710678), (0.0, -1.0, 0.0)]
SIZE = 6


@st.composite
def media_worlds(draw):
    grid = BlockGrid()
    cells = draw(st.lists(st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1), st.integers(0, SIZE - 1),
                                    st.sampled_from(range(len(BLOCKS))), st.sampled_from(range(len(FLOWS)))),
                          max_size=80))
    for x, y, z, block, flow in cells:
        shape, material = BLOCKS[block]
        grid.set(x, y, z, shape, 0.6, material, FLOWS[flow] if material in (Material.WATER, Material.LAVA) else
                 (0.0, 0.0, 0.0))
    return grid


intents = st.builds(Intent, forward=st.floats(-1, 1), strafe=st.floats(-1, 1), yaw=st.floats(0, 360),
                    jump=st.booleans(), sneak=st.booleans())


@settings(max_examples=150, deadline=None)
@given(media_worlds(), bodies(), st.lists(intents, min_size=30, max_size=30))
def test_in_any_world_of_mixed_media_thirty_ticks_never_push_a_body_into_a_solid_box(grid, body, inputs):
    for intent in inputs:
        after = physics.step(body, grid, intent)
        assert_no_new_overlap(body.box, after.box, grid)
        assert all(math.isfinite(v) for v in after.velocity)
        assert after.fall_distance >= 0.0 and after.fall_damage >= 0
        assert Material.AIR not in after.touching
        body = after


def test_the_remembered_input_acceleration_gives_the_bits_of_the_computed_one_for_signed_zeros_too():
    from physics.tick import _remembered_input_acceleration, input_acceleration

    cases = [(0.0, 0.98, 0.0, 0.1), (-0.0, 0.98, 0.0, 0.1), (0.0, -0.0, 90.0, 0.02), (0.98, -0.0, 0.0, 0.02),
             (0.3, 0.7, 49.4, 0.1), (-0.0, 0.98, 180.0, 0.1), (0.0, 0.98, 180.0, 0.1)]
    for _ in range(2):  # the second round answers from memory
        for strafe, forward, yaw, acceleration in cases:
            expected = input_acceleration(strafe, forward, yaw, acceleration)
            got = _remembered_input_acceleration(strafe, forward, yaw, acceleration,
                                                 math.copysign(1.0, strafe), math.copysign(1.0, forward))
            assert (None if got is None else tuple(v.hex() for v in got)) == (
                None if expected is None else tuple(v.hex() for v in expected))


def test_a_world_whose_water_flows_nan_is_refused_with_a_clear_error_and_the_body_is_unchanged():
    class PoisonedPool:
        def collision_boxes(self, region):
            return []

        def material(self, x, y, z):
            return physics.Material.WATER

        def flow(self, x, y, z):
            return (float("nan"), 0.0, 0.0)

    body = physics.Body.at_feet(0.5, 10.0, 0.5)
    with pytest.raises(ValueError, match="flow"):
        physics.step(body, PoisonedPool(), physics.Intent())
    assert body == physics.Body.at_feet(0.5, 10.0, 0.5)


def test_a_grid_lists_the_materials_of_a_region_in_betas_x_then_y_then_z_order_on_both_of_its_paths():
    grid = physics.BlockGrid()
    cells = [(x, y, z) for x in (3, -1, 0) for y in (5, 2) for z in (1, -2, 0)]
    for k, (x, y, z) in enumerate(cells):
        grid.set(x, y, z, physics.shapes.EMPTY, material=physics.Material.WATER if k % 2 else physics.Material.WEB)
    small = grid.materials_in(-1, 2, -2, 3, 5, 1)  # fewer cells than blocks: cell by cell
    large = grid.materials_in(-50, -50, -50, 50, 50, 50)  # more: block by block
    assert list(small) == list(large) == sorted(cells)
    assert small == {c: grid.material(*c) for c in cells}
