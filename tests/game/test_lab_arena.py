"""The lab arena, headless: each feature behaves as its collision case should, it is a world of
registry blocks that the game's own mesher draws and that building edits, and the physics -> Ursina
mapping puts faces the right way out and the world the right way round."""

from __future__ import annotations

import math

import numpy as np
import pytest

import physics
from game.world.lab import (
    CACTUS_CELLS, COBWEB_CELLS, EAST_WALL_X, EDIT_LIMIT, FLOOR_HALF_SIZE, FLOOR_Y, FULL_BRIGHTNESS, ICE_SLIPPERINESS,
    LADDER_CELLS, LADDER_WALL_MAX, LADDER_WALL_MIN, LAVA_MAX, LAVA_MIN, POOL_CURRENT, POOL_CURRENT_Z, POOL_MAX,
    POOL_MIN, SOUL_SAND_CELLS, SOUTH_LANE_END_Z, SPAWN_FEET, Arena, build_arena,
)
from game.rules.lab_session import lab_session
from game.window.render import space
from game.rules.replay import Click, KeyDown, Look
from game.rules.targeting import can_place, place_block
from game.world.blocks import MATERIAL, NAMES, SHAPES, TRANSPARENT, UnknownBlockError, block_id
from game.world.meshing import mesh_section
from physics.materials import NO_FLOW, Material

NORTH, SOUTH, EAST, WEST = 180.0, 0.0, 270.0, 90.0


@pytest.fixture(scope="module")
def arena() -> Arena:
    return build_arena()


def hold(arena: Arena, body: physics.Body, ticks: int, **intent) -> list[physics.Body]:
    """Every body along `ticks` ticks of the same intent."""
    bodies = []
    for _ in range(ticks):
        body = physics.step(body, arena.grid, physics.Intent(**intent))
        bodies.append(body)
    return bodies


def settled(arena: Arena, x: float, z: float, y: float = 0.0) -> physics.Body:
    """A body standing at (x, y, z) after two ticks of doing nothing (on_ground set)."""
    return hold(arena, physics.Body.at_feet(x, y, z), 2)[-1]


def test_the_spawn_stands_on_the_floor(arena):
    body = settled(arena, *SPAWN_FEET[::2])
    assert body.on_ground and body.feet == SPAWN_FEET


def test_walking_east_from_spawn_stops_exactly_at_the_east_wall(arena):
    end = hold(arena, settled(arena, *SPAWN_FEET[::2]), 60, forward=1.0, yaw=EAST)[-1]
    assert end.box.max_x == EAST_WALL_X
    assert end.collided_horizontally


def test_the_lane_south_of_spawn_is_open_to_the_floor_edge(arena):
    bodies = hold(arena, settled(arena, *SPAWN_FEET[::2]), 80, forward=1.0, yaw=SOUTH)
    reached = [b for b in bodies if b.box.max_z <= SOUTH_LANE_END_Z]
    assert reached[-1].box.max_z > SOUTH_LANE_END_Z - 1.0
    assert not any(b.collided_horizontally for b in reached)


def test_walking_north_steps_onto_a_slab_but_not_onto_the_full_block_beside_it(arena):
    over_slab = hold(arena, settled(arena, -7.5, -1.5), 20, forward=1.0, yaw=NORTH)
    assert max(b.feet[1] for b in over_slab) == 0.5  # up onto the slab (cells z = -3) ...
    assert over_slab[-1].box.max_z < -3.0  # ... and over it
    into_block = hold(arena, settled(arena, -5.5, -1.5), 20, forward=1.0, yaw=NORTH)
    assert max(b.feet[1] for b in into_block) == 0.0
    assert into_block[-1].box.min_z == -2.0  # against the block's south face


def test_walking_north_climbs_the_stairs_onto_the_platform(arena):
    bodies = hold(arena, settled(arena, -2.5, -1.5), 30, forward=1.0, yaw=NORTH)
    assert any(b.feet[1] == 3.0 and b.on_ground for b in bodies)


def test_the_fence_cannot_be_jumped(arena):
    bodies = hold(arena, settled(arena, 2.5, -1.5), 100, forward=1.0, yaw=NORTH, jump=True)
    assert min(b.box.min_z for b in bodies) == -3.0  # never past the fence's south face
    assert max(b.box.min_y for b in bodies) < 1.5


def test_the_one_high_wall_can_be_jumped(arena):
    bodies = hold(arena, settled(arena, 6.5, -2.5), 40, forward=1.0, yaw=NORTH, jump=True)
    assert bodies[-1].box.max_z < -4.0  # crossed the wall (cells z = -4)


def test_the_two_high_tunnel_lets_the_player_walk_through_and_stops_a_jump_at_its_roof(arena):
    through = hold(arena, settled(arena, *SPAWN_FEET[::2]), 70, forward=1.0, yaw=WEST)
    assert through[-1].box.max_x < -11.0  # out of the far end (cells x = -11..-6)
    assert not any(b.collided_horizontally for b in through)
    inside = settled(arena, -8.5, 0.5)
    jumped = hold(arena, inside, 5, jump=True)
    assert max(b.box.max_y for b in jumped) == 2.0  # the roof's underside


def test_the_one_wide_gap_in_the_south_east_wall_lets_the_player_through(arena):
    bodies = hold(arena, settled(arena, 6.5, 4.5), 30, forward=1.0, yaw=SOUTH)
    assert bodies[-1].box.min_z > 7.0
    assert not any(b.collided_horizontally for b in bodies)


def test_sliding_along_the_long_wall_of_separate_blocks_never_snags_on_a_seam(arena):
    start = settled(arena, 8.5, -8.0)
    bodies = hold(arena, start, 60, forward=1.0, yaw=NORTH - 45.0)  # north-west, into the wall
    touching = [b for b in bodies if b.box.min_z == -9.0]
    assert len(touching) > 20
    xs = [b.feet[0] for b in touching]
    assert all(later < earlier for earlier, later in zip(xs, xs[1:]))  # keeps sliding west every tick


def test_the_ice_patch_is_slippery_and_the_player_glides_further_on_it(arena):
    assert arena.grid.slipperiness(-8, FLOOR_Y, 8) == ICE_SLIPPERINESS

    def glide(x: float, z: float) -> float:
        body = hold(arena, settled(arena, x, z), 20, forward=1.0, yaw=NORTH)[-1]
        return body.feet[2] - hold(arena, body, 40)[-1].feet[2]

    assert glide(-8.5, 11.5) > 3 * glide(12.5, 11.5)


def assert_grid_equals_blocks(arena: Arena) -> None:
    """The collision grid holds exactly the arena's blocks: their shapes and materials."""
    assert set(arena.grid.cells()) == set(arena.blocks)
    for cell, block in arena.blocks.items():
        assert arena.grid.boxes_at(*cell) == physics.shapes.placed(SHAPES[block], *cell)
        assert arena.grid.material(*cell) is Material(int(MATERIAL[block])), cell
    assert arena.materials_in(-EDIT_LIMIT, -8, -EDIT_LIMIT, EDIT_LIMIT, 8, EDIT_LIMIT) == {
        cell: Material(int(MATERIAL[block])) for cell, block in arena.blocks.items() if -8 <= cell[1] <= 8}


def test_the_floor_covers_the_arena_and_the_collision_grid_holds_every_block(arena):
    n = FLOOR_HALF_SIZE
    assert all(arena.get_block(x, FLOOR_Y, z) in ("grass", "ice") for x in (-n, 0, n) for z in (-n, 0, n))
    assert_grid_equals_blocks(arena)


# --- Beta's media: the pool, the lava pit, the ladder wall, cobwebs, soul sand, the cactus ----------

def cuboid(low: tuple[int, int, int], high: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    return [(x, y, z) for x in range(low[0], high[0] + 1) for y in range(low[1], high[1] + 1)
            for z in range(low[2], high[2] + 1)]


def ring(low: tuple[int, int, int], high: tuple[int, int, int], y: int) -> list[tuple[int, int, int]]:
    """The cells around the cuboid's footprint, one layer at `y`."""
    return [(x, y, z) for x in range(low[0] - 1, high[0] + 2) for z in range(low[2] - 1, high[2] + 2)
            if not (low[0] <= x <= high[0] and low[2] <= z <= high[2])]


def test_the_pool_is_5_by_5_and_3_deep_level_with_the_floor_with_a_current_along_its_middle_lane(arena):
    water = cuboid(POOL_MIN, POOL_MAX)
    assert len(water) == 5 * 5 * 3 and POOL_MAX[1] == FLOOR_Y
    for cell in water:
        assert arena.get_block(*cell) == "water" and arena.material(*cell) is Material.WATER
        assert arena.flow(*cell) == (POOL_CURRENT if cell[2] == POOL_CURRENT_Z else NO_FLOW)
        assert arena.grid.boxes_at(*cell) == ()
    assert POOL_MIN[2] < POOL_CURRENT_Z < POOL_MAX[2] and POOL_CURRENT == (1.0, 0.0, 0.0)
    bottom = POOL_MIN[1] - 1
    assert all(arena.get_block(x, bottom, z) == "sand" for x, _, z in cuboid(POOL_MIN, POOL_MAX))
    for y in range(POOL_MIN[1], FLOOR_Y):
        assert all(arena.get_block(*cell) == "dirt" for cell in ring(POOL_MIN, POOL_MAX, y))
    assert all(arena.get_block(*cell) == "grass" for cell in ring(POOL_MIN, POOL_MAX, FLOOR_Y))
    above = cuboid((POOL_MIN[0], 0, POOL_MIN[2]), (POOL_MAX[0], 2, POOL_MAX[2]))
    assert all(arena.get_block(*cell) == "air" for cell in above)


def test_the_lava_pit_is_2_by_2_and_2_deep_in_stone_inside_a_low_cobblestone_rim(arena):
    lava = cuboid(LAVA_MIN, LAVA_MAX)
    assert len(lava) == 2 * 2 * 2 and LAVA_MAX[1] == FLOOR_Y
    assert all(arena.get_block(*c) == "lava" and arena.material(*c) is Material.LAVA for c in lava)
    assert all(arena.flow(*c) == NO_FLOW for c in lava)
    assert all(arena.get_block(x, LAVA_MIN[1] - 1, z) == "stone" for x, _, z in lava)
    assert all(arena.get_block(*c) == "stone" for c in ring(LAVA_MIN, LAVA_MAX, LAVA_MIN[1]))
    assert all(arena.get_block(*c) == "cobblestone" for c in ring(LAVA_MIN, LAVA_MAX, 0))
    assert all(arena.get_block(*c) == "air" for c in ring(LAVA_MIN, LAVA_MAX, 1))  # one high


def test_the_ladder_wall_is_4_high_with_ladders_against_its_south_face(arena):
    wall = cuboid(LADDER_WALL_MIN, LADDER_WALL_MAX)
    assert LADDER_WALL_MAX[1] - LADDER_WALL_MIN[1] + 1 == 4
    assert all(arena.get_block(*c) == "stone" and arena.material(*c) is Material.SOLID for c in wall)
    assert len(LADDER_CELLS) == 8
    for x, y, z in LADDER_CELLS:
        assert arena.get_block(x, y, z) == "ladder_north" and arena.material(x, y, z) is Material.LADDER
        assert (x, y, z - 1) in wall  # the wall is the ladder's north neighbour ...
        (box,) = arena.grid.boxes_at(x, y, z)
        assert box.min_z == z and box.max_z == z + physics.shapes.LADDER_THICKNESS  # ... and the ladder lies on it


def test_the_cobwebs_hang_at_head_height_over_open_floor_and_collide_with_nothing(arena):
    assert len(COBWEB_CELLS) == 2
    for x, y, z in COBWEB_CELLS:
        assert y == 1 and arena.get_block(x, y, z) == "cobweb" and arena.material(x, y, z) is Material.WEB
        assert arena.grid.boxes_at(x, y, z) == ()
        assert arena.get_block(x, 0, z) == "air" and arena.get_block(x, FLOOR_Y, z) == "grass"


def test_the_soul_sand_strip_replaces_the_grass_and_the_cactus_stands_2_high_on_sand(arena):
    assert len(SOUL_SAND_CELLS) == 5 and len({z for _, _, z in SOUL_SAND_CELLS}) == 1
    for cell in SOUL_SAND_CELLS:
        assert cell[1] == FLOOR_Y and arena.get_block(*cell) == "soul_sand"
        assert arena.material(*cell) is Material.SOUL_SAND
        assert arena.grid.boxes_at(*cell) == physics.shapes.placed(physics.shapes.SOUL_SAND, *cell)
    assert [y for _, y, _ in CACTUS_CELLS] == [0, 1]
    for cell in CACTUS_CELLS:
        assert arena.get_block(*cell) == "cactus" and arena.material(*cell) is Material.CACTUS
    x, _, z = CACTUS_CELLS[0]
    assert arena.get_block(x, FLOOR_Y, z) == "sand" and arena.get_block(x, 2, z) == "air"


def test_the_media_sections_mesh_the_water_see_through_and_the_lava_opaque(arena):
    water_id, lava_id = block_id("water"), block_id("lava")
    assert TRANSPARENT[water_id] and not TRANSPARENT[lava_id]
    keys = {(x // 16, y // 16, z // 16) for x, y, z in cuboid(POOL_MIN, POOL_MAX) + cuboid(LAVA_MIN, LAVA_MAX)}
    faces = {}  # world-space faces: (opaque, see-through)
    for key in keys:
        origin = np.array(key, dtype=np.float32) * 16
        for part, mesh in zip(("opaque", "see_through"), mesh_section(arena.padded_section(*key))):
            faces.setdefault(part, []).append(mesh.positions.reshape(-1, 4, 3) + origin)
    see_through, opaque = np.concatenate(faces["see_through"]), np.concatenate(faces["opaque"])
    surface = np.float32(15 + 8 / 9) - np.float32(16)  # a source stands 8/9 of a block high, in the section's frame
    assert len(see_through) == 25 and np.all(see_through[:, :, 1] == surface)  # the pool's surface only: water hides water
    lava_top = (opaque[:, :, 1] == surface).all(axis=1) & (opaque[:, :, 0] >= LAVA_MIN[0]).all(axis=1) \
        & (opaque[:, :, 0] <= LAVA_MAX[0] + 1).all(axis=1) & (opaque[:, :, 2] >= LAVA_MIN[2]).all(axis=1) \
        & (opaque[:, :, 2] <= LAVA_MAX[2] + 1).all(axis=1)
    assert lava_top.sum() == 4  # the pit's surface, in the opaque pass


def test_a_player_dropped_over_the_pool_falls_in_and_swims():
    session = lab_session()
    above = physics.Body.at_feet(POOL_MIN[0] + 2.5, 3.0, POOL_MIN[2] + 1.5)
    session.player.body = session.player.previous = above
    session.run([], 30)
    body = session.player.body
    assert body.in_water and not body.in_lava
    assert POOL_MIN[1] <= body.feet[1] < POOL_MAX[1] + 1  # in the water, above the pool's bottom
    assert Material.WATER in body.touching


def settle_in_pool(arena: Arena, z: float, ticks: int = 60) -> physics.Body:
    return hold(arena, physics.Body.at_feet(POOL_MIN[0] + 1.5, float(POOL_MIN[1]), z), ticks)[-1]


def test_the_current_carries_a_body_east_along_its_lane_and_the_still_water_does_not(arena):
    carried = settle_in_pool(arena, POOL_CURRENT_Z + 0.5)
    still = settle_in_pool(arena, POOL_CURRENT_Z + 1.5)
    assert carried.feet[0] > POOL_MIN[0] + 2.5  # drifted east, toward the pool's east wall
    assert still.feet[0] == POOL_MIN[0] + 1.5


def test_walking_into_the_ladders_climbs_the_wall(arena):
    x, _, z = LADDER_CELLS[0]
    bodies = hold(arena, settled(arena, x + 0.5, z + 1.5), 30, forward=1.0, yaw=NORTH)
    assert max(b.feet[1] for b in bodies) > 2.0
    assert all(b.box.min_z >= z + physics.shapes.LADDER_THICKNESS for b in bodies)


def test_walking_into_a_cobweb_slows_the_player_to_a_crawl(arena):
    x, _, z = COBWEB_CELLS[0]
    bodies = hold(arena, settled(arena, x + 0.5, z + 3.5), 40, forward=1.0, yaw=NORTH)
    caught = [b for b in bodies if b.in_web]
    assert caught and all(abs(b.velocity[2]) < 0.05 for b in caught[1:])
    assert bodies[-1].box.min_z > z - 1.0  # not through it in two seconds


def test_soul_sand_lets_a_standing_body_sink_an_eighth_and_the_cactus_is_felt_beside_it(arena):
    on_sand = hold(arena, settled(arena, SOUL_SAND_CELLS[2][0] + 0.5, SOUL_SAND_CELLS[2][2] + 0.5), 10)[-1]
    assert on_sand.on_ground and on_sand.feet[1] == -0.125 and Material.SOUL_SAND in on_sand.touching
    x, _, z = CACTUS_CELLS[0]
    against = hold(arena, settled(arena, x + 0.5, z - 1.5), 20, forward=1.0, yaw=SOUTH)
    assert any(Material.CACTUS in b.touching for b in against)
    assert max(b.box.max_z for b in against) == z + 1.0 / 16.0  # stopped by the cactus' inset side


def test_a_body_over_the_lava_pit_falls_into_the_lava(arena):
    x, _, z = LAVA_MIN
    bodies = hold(arena, physics.Body.at_feet(x + 1.0, 1.0, z + 1.0), 20)
    assert bodies[-1].in_lava and Material.LAVA in bodies[-1].touching


def test_no_mob_is_spawned_in_lava_or_water():
    session = lab_session()
    x, y, z = LAVA_MIN
    with pytest.raises(ValueError, match="lava"):
        session.mobs.spawn((x + 0.5, float(y), z + 0.5))
    with pytest.raises(ValueError, match="water"):
        session.mobs.spawn((POOL_MIN[0] + 0.5, float(POOL_MIN[1]), POOL_MIN[2] + 0.5))
    assert len(session.mobs) == 0


def test_a_block_placed_in_the_water_replaces_it_and_the_current_goes_with_it():
    arena = build_arena()
    cell = (POOL_MIN[0], POOL_MAX[1], POOL_CURRENT_Z)
    assert arena.flow(*cell) == POOL_CURRENT
    assert place_block(arena, cell, "stone", []) is not None
    assert arena.get_block(*cell) == "stone" and arena.material(*cell) is Material.SOLID
    assert arena.flow(*cell) == NO_FLOW
    assert place_block(arena, COBWEB_CELLS[0], "stone", []) is None  # a cobweb is not replaced


# --- a world of registry blocks, drawn by the game's mesher ----------------------------------------

def one_block_arena(*cells, name="stone") -> Arena:
    arena = Arena()
    for cell in cells:
        arena.set_block(*cell, name)
    return arena


def section_mesh(arena: Arena, key=(0, 0, 0)):
    opaque, _ = mesh_section(arena.padded_section(*key))
    return opaque


def triangle_normals_and_centres(positions: np.ndarray, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    tri = positions.reshape(-1, 3)[indices.reshape(-1, 3)].astype(np.float64)
    return np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]), tri.mean(axis=1)


def test_a_padded_section_holds_the_section_and_a_one_block_border_from_its_neighbours():
    arena = one_block_arena((0, 0, 0), (-1, 0, 0), (16, 0, 0), (17, 0, 0))
    padded = arena.padded_section(0, 0, 0)
    assert padded.shape == (18, 18, 18) and padded.dtype == np.uint16
    stone = block_id("stone")
    assert {tuple(c) for c in np.argwhere(padded == stone)} == {(1, 1, 1), (0, 1, 1), (17, 1, 1)}


def test_one_block_has_six_faces_drawn_by_the_games_mesher():
    assert section_mesh(one_block_arena((3, 4, 5))).face_count == 6


def test_faces_between_two_blocks_are_hidden_also_across_a_section_border():
    assert section_mesh(one_block_arena((3, 4, 5), (4, 4, 5))).face_count == 10
    across = one_block_arena((-1, 4, 5), (0, 4, 5))  # sections cx = -1 and cx = 0
    assert section_mesh(across).face_count + section_mesh(across, (-1, 0, 0)).face_count == 10


def test_every_arena_section_meshes_and_the_ice_is_drawn_in_the_see_through_pass(arena):
    keys = arena.section_keys()
    assert keys == sorted({(x // 16, y // 16, z // 16) for x, y, z in arena.blocks})
    meshes = {key: mesh_section(arena.padded_section(*key)) for key in keys}
    assert all(opaque.face_count > 0 for opaque, _ in meshes.values())
    assert sum(see_through.face_count for _, see_through in meshes.values()) > 0  # ice


def test_an_edit_changes_the_blocks_the_collision_grid_and_the_sections_to_redraw():
    arena = build_arena()
    assert arena.take_changed_sections() == set()  # building the arena is not an edit
    assert arena.set_block(5, 5, 3, "brick") == ((0, 0, 0),)
    assert arena.grid.boxes_at(5, 5, 3) == physics.shapes.placed(physics.shapes.FULL_CUBE, 5, 5, 3)
    assert arena.set_block(5, 5, 3, "brick") == ()  # no change
    assert set(arena.set_block(0, 0, 0, "stone")) == {(0, 0, 0), (-1, 0, 0), (0, -1, 0), (0, 0, -1), (-1, -1, 0),
                                                      (-1, 0, -1), (0, -1, -1), (-1, -1, -1)}
    arena.set_block(5, 5, 3, "air")
    assert arena.get_block(5, 5, 3) == "air" and arena.grid.boxes_at(5, 5, 3) == ()
    assert arena.take_changed_sections() >= {(0, 0, 0), (-1, -1, -1)}
    assert arena.take_changed_sections() == set()

    # Media: a new block takes its material; a fluid takes its current; a current alone redraws nothing.
    assert arena.set_block(5, 5, 3, "water", flow=(0.0, 0.0, -1.0)) == ((0, 0, 0),)
    assert (arena.material(5, 5, 3), arena.flow(5, 5, 3)) == (Material.WATER, (0.0, 0.0, -1.0))
    assert arena.set_block(5, 5, 3, "water") == ()
    assert (arena.material(5, 5, 3), arena.flow(5, 5, 3)) == (Material.WATER, NO_FLOW)
    arena.set_block(5, 5, 3, "ladder_west")
    assert arena.material(5, 5, 3) is Material.LADDER and arena.flow(5, 5, 3) == NO_FLOW
    arena.set_block(*SOUL_SAND_CELLS[0], "grass")
    arena.set_block(*CACTUS_CELLS[1], "air")
    arena.set_block(*POOL_MIN, "lava")
    assert arena.material(*POOL_MIN) is Material.LAVA and arena.material(*CACTUS_CELLS[1]) is Material.AIR
    assert_grid_equals_blocks(arena)


def test_a_bad_edit_is_refused_and_changes_nothing():
    arena = build_arena()
    before = dict(arena.blocks)
    with pytest.raises(UnknownBlockError):
        arena.set_block(0, 0, 3, "no_such_block")
    with pytest.raises(ValueError, match="within"):
        arena.set_block(EDIT_LIMIT + 1, 0, 0, "stone")
    with pytest.raises(TypeError):
        arena.set_block(0.5, 0, 0, "stone")
    with pytest.raises(ValueError, match="only water and lava flow"):
        arena.set_block(0, 0, 3, "stone", flow=(1.0, 0.0, 0.0))
    with pytest.raises(ValueError):
        arena.set_block(0, 0, 3, "water", flow=(float("nan"), 0.0, 0.0))
    assert arena.blocks == before and arena.take_changed_sections() == set()


def test_the_lab_session_builds_and_breaks_blocks_and_spawns_mobs_in_the_arena():
    session = lab_session()
    session.damage_enabled = False  # peaceful: a left click breaks at once
    session.run([Look(0, 0.0, 60.0), Click(0, "right")], 1)  # facing south, down at the floor ahead
    (placed,) = session.edited_cells
    assert session.world.get_block(*placed) == "stone" and placed[1] == 0
    session.run([Click(1, "left")], 1)
    assert session.world.get_block(*placed) == "air"
    session.run([KeyDown(2, "m")], 1)
    assert len(session.mobs) == 1
    assert session.player.body.feet == SPAWN_FEET


# --- physics -> Ursina ----------------------------------------------------------------------

def ursina_forward(rotation_y: float) -> np.ndarray:
    """Where an Ursina entity with this rotation_y faces: rotation_y 0 faces +Z, 90 faces +X
    (Ursina's y-up-left axes; checked against `Entity(rotation_y=90).forward` in a window)."""
    r = math.radians(rotation_y)
    return np.array([math.sin(r), 0.0, math.cos(r)])


@pytest.mark.parametrize("yaw", [0.0, 90.0, 180.0, 270.0, 33.3])
def test_the_camera_faces_where_the_physics_yaw_faces(yaw):
    r = math.radians(yaw)
    physics_forward = (-math.sin(r), 0.0, math.cos(r))  # Minecraft: yaw 0 faces +Z, 90 faces -X
    _, rotation_y, _ = space.camera_rotation(yaw, 0.0)
    assert ursina_forward(rotation_y) == pytest.approx(np.array(space.point(*physics_forward)), abs=1e-12)


@pytest.mark.parametrize("yaw", [0.0, 90.0, 180.0, 270.0, 33.3])
def test_the_players_left_is_on_the_left_of_the_screen(yaw):
    # physics.Intent: strafe +1 (left) accelerates along (cos yaw, 0, sin yaw).
    r = math.radians(yaw)
    physics_left = (math.cos(r), 0.0, math.sin(r))
    _, rotation_y, _ = space.camera_rotation(yaw, 0.0)
    forward = ursina_forward(rotation_y)
    ursina_right = np.array([forward[2], 0.0, -forward[0]])  # y-up-left: right = up x forward
    assert np.dot(np.array(space.point(*physics_left)), ursina_right) == pytest.approx(-1.0)


def test_faces_mirrored_and_reversed_as_the_renderer_uploads_them_are_front_facing_for_ursina():
    # Ursina draws a triangle whose right-hand normal points away from the viewer (into the
    # block). The mesher winds faces that way in physics axes; the X mirror turns them inside
    # out, and reversing each triangle turns them back.
    mesh = section_mesh(one_block_arena((0, 0, 0)))
    centre = np.array(space.point(0.5, 0.5, 0.5))
    normals, centres = triangle_normals_and_centres(mesh.positions, mesh.indices)
    assert (np.einsum("ij,ij->i", normals, np.array([0.5, 0.5, 0.5]) - centres) > 0).all()
    normals, centres = triangle_normals_and_centres(space.positions(mesh.positions), mesh.indices)
    assert (np.einsum("ij,ij->i", normals, centres - centre) > 0).all()
    normals, centres = triangle_normals_and_centres(space.positions(mesh.positions), space.triangles(mesh.indices))
    assert (np.einsum("ij,ij->i", normals, centre - centres) > 0).all()


def test_boxes_map_to_ursina_with_min_and_max_swapped_on_x():
    assert space.boxes(np.array([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]])).tolist() == [[-4.0, 2.0, 3.0, -1.0, 5.0, 6.0]]


def test_reversing_triangles_swaps_the_first_and_last_index_of_each():
    assert space.triangles(np.array([0, 1, 2, 4, 5, 6], dtype=np.uint32)).tolist() == [2, 1, 0, 6, 5, 4]


def test_building_beyond_the_labs_bounds_places_nothing_and_a_broken_floor_can_be_mended():
    arena = build_arena()
    assert not can_place(arena, (EDIT_LIMIT + 1, 0, 0), "stone", [])
    assert can_place(arena, (EDIT_LIMIT, 0, 0), "stone", [])
    arena.set_block(0, FLOOR_Y, 5, "air")
    assert can_place(arena, (0, FLOOR_Y, 5), "grass", [])  # below y = 0, where the lab's floor is


def test_a_mob_that_walks_off_the_floor_is_removed_once_it_has_fallen_into_the_void():
    session = lab_session()
    session.mobs.spawn((FLOOR_HALF_SIZE + 6.5, 0.0, 0.5))  # beside the arena, over nothing
    session.run([], 10)
    assert len(session.mobs) == 1 and session.mobs.bodies[0].feet[1] < 0.0
    session.run([], 100)
    assert len(session.mobs) == 0


# --- the world protocol's null parts ------------------------------------------------------------------

def test_the_arena_keeps_no_light_so_every_cell_reads_full_brightness_and_sections_mesh_unlit(arena):
    assert FULL_BRIGHTNESS == (15, 0)
    assert arena.light(0, 5, 0) == arena.light(0, FLOOR_Y, 0) == arena.light(*LAVA_MIN) == FULL_BRIGHTNESS
    assert arena.padded_light(0, -1, 0) is None and arena.padded_light(0, 0, 0) is None
    with pytest.raises(TypeError, match="whole numbers"):
        arena.light(0.5, 0, 0)


def test_the_arenas_ticker_only_moves_its_clock_on():
    arena = build_arena()
    assert (arena.ticks, arena.day_time) == (0, 0)
    assert [arena.tick() for _ in range(3)] == [0, 0, 0]  # no block update ever runs
    assert (arena.ticks, arena.day_time) == (3, 3)
    pool_cell = (POOL_MIN[0], POOL_MIN[1], POOL_CURRENT_Z)
    assert arena.schedule(*pool_cell, 5) is False
    assert arena.take_falling_starts() == [] and arena.take_problems() == []


def test_the_arenas_clock_moves_on_to_a_time_of_day_as_the_worlds_does():
    arena = build_arena()
    arena.set_day_time(6_000)
    assert (arena.ticks, arena.day_time) == (6_000, 6_000)
    arena.set_day_time(0)  # on to the next sunrise, never back
    assert (arena.ticks, arena.day_time) == (24_000, 0)
    for bad, error in ((24_000, ValueError), (-1, ValueError), (6_000.0, TypeError), (True, TypeError)):
        with pytest.raises(error, match="time of day"):
            arena.set_day_time(bad)
    assert arena.ticks == 24_000
    with pytest.raises(ValueError, match="delay"):
        arena.schedule(0, 0, 0, 0)


def test_sand_over_air_stays_where_it_is_in_the_lab():
    arena = build_arena()
    arena.set_block(0, 4, 0, "sand")
    for _ in range(10):
        arena.tick()
    assert arena.get_block(0, 4, 0) == "sand" and arena.take_falling_starts() == []


def test_the_arena_keeps_column_entities_in_memory_as_copies():
    arena = build_arena()
    assert arena.entity_columns() == [] and arena.column_entities(0, 0) == []
    arena.set_column_entities(0, -1, [{"kind": "boxling", "x": 1.5}])
    arena.set_column_entities(-1, 0, [])
    read = arena.column_entities(0, -1)
    assert read == [{"kind": "boxling", "x": 1.5}]
    read[0]["x"] = 9.0
    assert arena.column_entities(0, -1) == [{"kind": "boxling", "x": 1.5}]
    assert arena.entity_columns() == [(0, -1)]
    with pytest.raises(ValueError, match="list of dicts"):
        arena.set_column_entities(0, -1, ["not a dict"])
    assert arena.column_entities(0, -1) == [{"kind": "boxling", "x": 1.5}]


def test_the_arena_is_held_whole_and_unloads_nothing(arena):
    assert arena.columns_far_from([(100, 100)], 0) == [] and arena.columns_far_from([], 3) == []
    assert arena.is_edited(0, 0) is False
    assert arena.unload_columns([(0, 0), (-1, -1)]) == 0
    assert arena.get_block(*LADDER_CELLS[0]) == "ladder_north"
    with pytest.raises(ValueError, match="radius"):
        arena.columns_far_from([(0, 0)], -1)


def test_the_arena_keeps_player_states_by_name_in_memory_and_saves_nothing():
    arena = build_arena()
    assert arena.player_states() == () and arena.player_state is None
    arena.set_player_state("alice", {"yaw": 90.0})
    arena.player_state = {"yaw": 0.5}
    assert arena.player_states() == ("alice", "player")
    assert arena.saved_player_state("alice") == {"yaw": 90.0} and arena.saved_player_state("player") == {"yaw": 0.5}
    assert arena.saved_player_state("bob") is None
    with pytest.raises(ValueError, match="player name"):
        arena.set_player_state("no spaces", {})
    with pytest.raises(TypeError, match="player name"):
        arena.set_player_state(7, {})
    assert arena.saved_player_state("alice") == {"yaw": 90.0}
    arena.set_player_state("alice", None)
    assert arena.player_states() == ("player",)
    arena.save()
    arena.close()
    assert arena.path is None and arena.get_block(*SOUL_SAND_CELLS[0]) == "soul_sand"


def test_the_arenas_ids_in_box_are_its_blocks_cell_by_cell(arena):
    x0, y0, z0, x1, y1, z1 = -9, FLOOR_Y, -4, -4, 2, -2  # the slabs beside the full blocks, and the floor
    ids = arena.ids_in_box(x0, y0, z0, x1, y1, z1)
    assert ids.shape == (x1 - x0, y1 - y0, z1 - z0)
    assert all(NAMES[ids[x - x0, y - y0, z - z0]] == arena.get_block(x, y, z)
               for x in range(x0, x1) for y in range(y0, y1) for z in range(z0, z1))
    assert NAMES[ids[-7 - x0, 0 - y0, -3 - z0]] == "stone_slab"
    assert arena.ids_in_box(0, 0, 0, 0, 5, 5).shape == (0, 5, 5)
