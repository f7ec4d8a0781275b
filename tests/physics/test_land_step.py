"""The fused land step (`tick._land_step`, `mover.collide_unguarded`) against the step composed
from its parts (`tick.step_by_parts`), bit for bit, and the reads it shares within a tick."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from physics import BETA, BlockGrid, Body, Intent, Material, shapes
from physics.aabb import AABB
from physics.media import NOTHING_READ, contact_pass, on_ladder, read_medium
from physics.mover import collide, collide_unguarded
from physics.tick import step_by_parts

from .worlds import OneBoxWorld

SIZE = 6  # the random worlds fill cells 0..5 on each axis, above a floor at y = -1
SOLID_SHAPES = [shapes.FULL_CUBE, shapes.SLAB, shapes.TOP_SLAB, shapes.FENCE, shapes.CARPET, shapes.SOUL_SAND,
                shapes.CACTUS, *shapes.STAIRS.values()]
SETTINGS = [BETA, replace(BETA, step_height=1.5), replace(BETA, step_height=0.0),
            replace(BETA, step_height=0.6, sneak_edge_probe_depth=0.6)]


class MaterialOnlyWorld:
    """A world that answers materials one cell at a time (no `materials_in`)."""

    def __init__(self, grid: BlockGrid) -> None:
        self.grid = grid

    def collision_boxes(self, region):
        return self.grid.collision_boxes(region)

    def material(self, x, y, z):
        return self.grid.material(x, y, z)

    def flow(self, x, y, z):
        return self.grid.flow(x, y, z)

    def slipperiness(self, x, y, z):
        return self.grid.slipperiness(x, y, z)


class BoxesOnlyWorld:
    """A world that says nothing about materials (every cell is AIR or SOLID)."""

    def __init__(self, grid: BlockGrid) -> None:
        self.grid = grid

    def collision_boxes(self, region):
        return iter(self.grid.collision_boxes(region))  # not a list: the step must make one


@st.composite
def grids(draw) -> BlockGrid:
    grid = BlockGrid()
    floor = draw(st.sampled_from(["stone", "ice", "soul sand", "web"]))
    if floor == "soul sand":
        grid.fill(-2, -1, -2, SIZE + 1, -1, SIZE + 1, shapes.SOUL_SAND, material=Material.SOUL_SAND)
    else:
        grid.fill(-2, -1, -2, SIZE + 1, -1, SIZE + 1, slipperiness=0.98 if floor == "ice" else 0.6)
    if floor == "web":  # cobwebs all over the floor: bodies walk into and out of them
        grid.fill(-2, 0, -2, SIZE + 1, 0, SIZE + 1, shapes.EMPTY, material=Material.WEB)
    kinds = st.sampled_from(["solid", "ice", "water", "flowing", "lava", "ladder", "web", "soul sand", "cactus"])
    cells = draw(st.lists(st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1), st.integers(0, SIZE - 1),
                                    kinds, st.integers(0, len(SOLID_SHAPES) - 1)), max_size=50))
    for x, y, z, kind, shape in cells:
        if kind == "solid":
            grid.set(x, y, z, SOLID_SHAPES[shape])
        elif kind == "ice":
            grid.set(x, y, z, shapes.FULL_CUBE, slipperiness=0.98)
        elif kind in ("water", "flowing"):
            grid.set(x, y, z, shapes.EMPTY, material=Material.WATER,
                     flow=(1.0, 0.0, 0.0) if kind == "flowing" else (0.0, 0.0, 0.0))
        elif kind == "lava":
            grid.set(x, y, z, shapes.EMPTY, material=Material.LAVA)
        elif kind == "ladder":
            grid.set(x, y, z, shapes.LADDER["east"], material=Material.LADDER)
        elif kind == "web":
            grid.set(x, y, z, shapes.EMPTY, material=Material.WEB)
        elif kind == "soul sand":
            grid.set(x, y, z, shapes.SOUL_SAND, material=Material.SOUL_SAND)
        else:
            grid.set(x, y, z, shapes.CACTUS, material=Material.CACTUS)
    return grid


@st.composite
def worlds(draw):
    grid = draw(grids())
    return draw(st.sampled_from([grid, MaterialOnlyWorld(grid), BoxesOnlyWorld(grid)]))


@st.composite
def bodies(draw) -> Body:
    width = draw(st.sampled_from([0.6, 0.6, 0.25, 0.98, 1.4]))
    height = draw(st.sampled_from([1.8, 0.9, 0.5, 2.9]))
    x, z = (draw(st.floats(-1.0, SIZE + 1.0)) for _ in range(2))
    y = draw(st.one_of(st.sampled_from([0.0, 0.0, -0.125, 0.5, 1.0, 0.0625]), st.floats(0.0, SIZE)))
    velocity = draw(st.one_of(st.just((0.0, 0.0, 0.0)),
                              st.tuples(st.floats(-1.0, 1.0), st.floats(-1.0, 1.0), st.floats(-1.0, 1.0))))
    return Body(AABB.around_feet(x, y, z, width, height), velocity, on_ground=draw(st.booleans()),
                collided_horizontally=draw(st.booleans()), camera_lag=draw(st.sampled_from([0.0, -0.0, 0.01, 0.3])),
                fall_distance=draw(st.sampled_from([0.0, 2.0, 5.5])), in_web=draw(st.booleans()))


inputs = st.one_of(st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, 1e-9]), st.floats(-1.5, 1.5))


@st.composite
def intents(draw) -> Intent:
    return Intent(forward=draw(inputs), strafe=draw(inputs),
                  yaw=draw(st.one_of(st.sampled_from([0.0, -0.0, 90.0, 270.0, 315.0]), st.floats(-720.0, 720.0))),
                  jump=draw(st.booleans()), sneak=draw(st.booleans()), sprint=draw(st.booleans()),
                  fly=draw(st.sampled_from([False, False, False, True])),
                  climbs_walls=draw(st.sampled_from([False, False, True])),
                  slow_fall=draw(st.sampled_from([False, False, True])))


def bits(body: Body) -> str:
    """Every field of `body`; repr tells -0.0 from 0.0 and gives each float exactly."""
    return repr((tuple(body.box), body.velocity, body.on_ground, body.collided_horizontally,
                 body.collided_vertically, body.camera_lag, body.fall_distance, body.in_water, body.in_lava,
                 body.in_web, body.fall_damage, sorted(body.touching)))


@settings(max_examples=250, deadline=None)
@given(worlds(), bodies(), st.lists(intents(), min_size=1, max_size=4), st.sampled_from(SETTINGS))
def test_a_step_gives_exactly_the_bits_of_the_step_composed_from_its_parts(world, body, script, movement):
    fused = parts = body
    for tick in range(12):
        intent = script[tick % len(script)]
        fused = physics.step(fused, world, intent, movement)
        parts = step_by_parts(parts, world, intent, movement)
        assert bits(fused) == bits(parts), (tick, intent)


@settings(max_examples=300, deadline=None)
@given(grids(), bodies(), st.floats(-3.0, 3.0), st.floats(-3.0, 3.0), st.floats(-3.0, 3.0),
       st.sampled_from(SETTINGS), st.booleans())
def test_the_unguarded_collide_gives_exactly_what_collide_gives(grid, body, dx, dy, dz, movement, expect_step):
    box, requested, allowed, lag = collide(body.box, body.on_ground, dx, dy, dz, grid, movement, False,
                                           body.camera_lag, None)
    assert requested == (dx, dy, dz)
    fused = collide_unguarded(body.box, body.on_ground, dx, dy, dz, grid, movement, body.camera_lag, expect_step)
    assert repr(fused) == repr((box, allowed, lag))


@settings(max_examples=300, deadline=None)
@given(grids(), bodies(), bodies())
def test_the_contact_pass_and_the_ladder_test_answer_from_the_medium_read_as_the_world_would(grid, before, after):
    read = read_medium(grid, before.box, BETA)
    assert contact_pass(grid, after.box, BETA, read) == contact_pass(grid, after.box, BETA)
    assert on_ladder(grid, after.box, read) == on_ladder(grid, after.box)


def test_a_world_without_materials_reads_nothing_and_its_contact_pass_asks_the_boxes():
    grid = BlockGrid()
    grid.set(0, 0, 0)
    world = OneBoxWorld(*grid.boxes_at(0, 0, 0))
    box = AABB(0.2, 0.5, 0.2, 0.8, 2.3, 0.8)
    assert read_medium(world, box, BETA) == NOTHING_READ
    assert contact_pass(world, box, BETA, NOTHING_READ).touching == frozenset({Material.SOLID})


def test_the_medium_read_names_the_cells_it_asked_about_and_what_it_found():
    grid = BlockGrid()
    grid.set(0, 64, 0, shapes.EMPTY, material=Material.WATER)
    read = read_medium(grid, Body.at_feet(0.5, 64.0, 0.5).box, BETA)
    assert read.region == (0, 64, 0, 0, 65, 0)
    assert read.cells == {(0, 64, 0): Material.WATER}
    assert read.medium.in_water


def test_a_trusted_body_equals_the_validated_body_with_the_same_fields():
    box = AABB(0.0, 1.0, 2.0, 0.6, 2.8, 2.6)
    fields = dict(velocity=(0.1, -0.2, 0.3), on_ground=True, collided_horizontally=True, collided_vertically=False,
                  camera_lag=0.25, fall_distance=1.5, in_water=True, in_lava=False, in_web=True, fall_damage=2,
                  touching=frozenset({Material.WEB}))
    assert Body._trusted(box, *fields.values()) == Body(box, **fields)


@pytest.mark.parametrize("bad", [None, 1.0, "intent"])
def test_a_step_rejects_a_bad_intent_before_reading_the_world(bad):
    class Untouchable:
        def collision_boxes(self, region):
            raise AssertionError("the world was read")

        def materials_in(self, *cells):
            raise AssertionError("the world was read")

    with pytest.raises(TypeError, match="Intent"):
        physics.step(Body.at_feet(0.5, 64.0, 0.5), Untouchable(), bad)
