"""Mobs in the world (game.rules.mobs), headless on real worlds in a temporary folder: deterministic
spawning, despawning, the push between the player and mobs, knockback, and mobs saved with
their columns."""

from __future__ import annotations

import json
import math
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from game.world.lab import SPAWN_FEET, build_arena
from game.rules.mob_brain import BOXLING, MobBrain
from game.rules.mobs import (COLUMNS_NEAR_ONE_PLAYER, DESPAWN_DISTANCE_BLOCKS, MAX_NATURAL_MOBS, SPAWN_DISTANCE_BLOCKS,
                             SPAWN_GROUND, SPAWN_INTERVAL_TICKS, MobManager, MobStateError, mob_from_state, mob_state,
                             natural_mob_cap)
from game.rules.player import spawn_body
from game.rules.targeting import find_target
from game.world import World
from game.world.coords import column_of
from physics import Body

SEED = 42
PLATFORM = range(-8, 9)
"""Cells (x and z) flattened to one grass floor around the spawn, so push tests do not depend on terrain."""
CLEARANCE = 6
"""[blocks] Blocks this high above the platform floor are cleared."""
SQRT_F32_TOLERANCE = 1e-7
"""[blocks/tick] How far a push (float32 square root) may be from the exact real value."""
PUSH_REACH = 0.2
"""[blocks] Beta's push region grows a box by this much sideways."""


def make_world(path, seed=SEED, platform=False) -> World:
    """An open world at `path`; with `platform`, a flat grass floor under the spawn (feet at its top)."""
    world = World.create(path, seed)
    if platform:
        floor = math.floor(world.spawn[1]) - 1
        for x in PLATFORM:
            for z in PLATFORM:
                world.set_block(x, floor, z, "grass")
                for y in range(floor + 1, floor + 1 + CLEARANCE):
                    world.set_block(x, y, z, "air")
    return world


@pytest.fixture
def flat(tmp_path):
    world = make_world(tmp_path / "flat.boxel", platform=True)
    yield world
    world.close()


def floor_y(world) -> float:
    return spawn_body(world).box.min_y


def idle(mobs: MobManager) -> None:
    """Keep every mob's brain standing still for a long time (its walk would blur push values)."""
    for brain in mobs.brains:
        brain.walking, brain.ticks_left = False, 10_000


def run(mobs: MobManager, player: Body, ticks: int, world=None) -> Body:
    """`ticks` game ticks: the player steps (no input), then the mobs tick."""
    for _ in range(ticks):
        player = physics.step(player, world or mobs.world, physics.Intent())
        player = mobs.tick(player)
    return player


# --- spawning -------------------------------------------------------------------------------------

def test_natural_spawning_starts_after_one_interval_and_stops_at_the_cap(tmp_path):
    with make_world(tmp_path / "w.boxel") as world:
        mobs, player = MobManager(world, world.seed), spawn_body(world)
        run(mobs, player, SPAWN_INTERVAL_TICKS)
        assert len(mobs) == 0
        counts = []
        for _ in range(MAX_NATURAL_MOBS + 4):
            run(mobs, player, SPAWN_INTERVAL_TICKS)
            counts.append(len(mobs))
        assert counts[-1] == MAX_NATURAL_MOBS
        assert all(b - a in (0, 1) for a, b in zip([0, *counts], counts))


def test_the_mob_cap_counts_each_column_near_the_players_once():
    alone = [Body.at_feet(8.0, 70.0, 8.0)]
    assert natural_mob_cap(alone) == MAX_NATURAL_MOBS
    far_apart = [Body.at_feet(8.0 + 16 * 5 * i, 70.0, 8.0) for i in range(4)]  # 5 columns apart: no overlap
    assert natural_mob_cap(far_apart) == 4 * MAX_NATURAL_MOBS
    together = [Body.at_feet(8.0 + 0.05 * i, 70.0, 8.0) for i in range(100)]  # all in one column
    assert natural_mob_cap(together) == MAX_NATURAL_MOBS
    neighbours = [Body.at_feet(8.0, 70.0, 8.0), Body.at_feet(24.0, 70.0, 8.0)]  # next columns: 30 of 25 + 25
    assert natural_mob_cap(neighbours) == MAX_NATURAL_MOBS * 30 // COLUMNS_NEAR_ONE_PLAYER == 7


def test_players_standing_together_share_one_players_mob_cap(tmp_path):
    with make_world(tmp_path / "w.boxel") as world:
        mobs, player = MobManager(world, world.seed), spawn_body(world)
        crowd = [player, *(Body.at_feet(player.feet[0], player.feet[1], player.feet[2] + 0.7 * (i + 1))
                           for i in range(2))]
        for _ in range(MAX_NATURAL_MOBS + 4):
            for _ in range(SPAWN_INTERVAL_TICKS):
                crowd = list(mobs.tick(crowd))
        assert len(mobs) == MAX_NATURAL_MOBS


def test_natural_spawns_stand_on_grass_at_the_spawn_distance_from_the_player(tmp_path):
    with make_world(tmp_path / "w.boxel") as world:
        mobs, player = MobManager(world, world.seed), spawn_body(world)
        seen = set()
        player = run(mobs, player, 1)  # tick 0; spawns may come on ticks 60, 120, ...
        for _ in range(MAX_NATURAL_MOBS * 3):
            player = run(mobs, player, SPAWN_INTERVAL_TICKS - 1)
            before = len(mobs)
            player = run(mobs, player, 1)  # the tick that may spawn
            for key, body in zip(mobs.keys, mobs.bodies):
                if key in seen:
                    continue
                seen.add(key)
                assert len(mobs) == before + 1
                x, y, z = body.feet
                assert world.get_block(math.floor(x), math.floor(y) - 1, math.floor(z)) == SPAWN_GROUND
                assert y == math.floor(y)  # standing on the grass block's top
                distance = math.hypot(x - player.feet[0], z - player.feet[2])
                # The spot is the centre of the block that distance lands in: up to sqrt(0.5) off.
                assert SPAWN_DISTANCE_BLOCKS[0] - 1.0 <= distance <= SPAWN_DISTANCE_BLOCKS[1] + 1.0
        assert len(seen) == MAX_NATURAL_MOBS


def test_the_same_seed_and_ticks_give_the_same_mobs_and_another_seed_other_mobs(tmp_path):
    def mobs_after(name: str, mob_seed: int) -> tuple:
        with make_world(tmp_path / f"{name}.boxel") as world:
            mobs = MobManager(world, mob_seed)
            run(mobs, spawn_body(world), SPAWN_INTERVAL_TICKS * 4 + 30)
            return mobs.bodies, tuple(brain.to_state()["seed"] for brain in mobs.brains)

    first, again, other = mobs_after("a", SEED), mobs_after("b", SEED), mobs_after("c", SEED + 1)
    assert len(first[0]) >= 2
    assert first == again
    assert first[0] != other[0] and set(first[1]).isdisjoint(other[1])


def test_spawn_refuses_a_spot_inside_a_block_or_another_mob_and_changes_nothing(flat):
    mobs, y = MobManager(flat, flat.seed), floor_y(flat)
    mobs.spawn((3.5, y, 0.5))
    with pytest.raises(ValueError, match="no room"):
        mobs.spawn((3.5, y - 0.5, 0.5))  # half inside the floor
    with pytest.raises(ValueError, match="no room"):
        mobs.spawn((3.9, y, 0.5))  # overlapping the first mob
    with pytest.raises(ValueError, match="no room"):
        mobs.spawn((0.5, y, 0.5), others=[spawn_body(flat)])  # on the player
    with pytest.raises(ValueError):
        mobs.spawn((math.nan, y, 0.5))
    with pytest.raises(TypeError):
        mobs.spawn((1.0, 2.0))
    assert len(mobs) == 1 and mobs.spawn_count == 1


def test_spawn_at_target_stands_the_mob_on_the_targeted_top_face(flat):
    mobs, player = MobManager(flat, flat.seed), spawn_body(flat)
    eye = (player.feet[0], player.feet[1] + 1.62, player.feet[2])
    target = find_target(flat, eye, 270.0, 30.0)  # looking east and down at the floor
    assert target.face == (0, 1, 0)
    key = mobs.spawn_at_target(target, yaw=90.0, others=[player])
    (body,) = mobs.bodies
    x, y, z = target.block
    assert key == 0 and body.feet == (x + 0.5, y + 1.0, z + 0.5)
    assert mobs.brains[0].yaw == 90.0
    assert mobs.spawn_at_target(target, yaw=90.0, others=[player]) is None  # that spot is taken now
    assert mobs.spawn_at_target(None, yaw=0.0) is None
    assert len(mobs) == 1


# --- despawning ----------------------------------------------------------------------------------

def test_a_mob_farther_than_the_despawn_distance_is_removed_and_a_nearer_one_kept(flat):
    mobs, y = MobManager(flat, flat.seed), floor_y(flat)
    mobs.spawn((0.5, y, 0.5))
    mobs.spawn((4.5, y, 0.5))
    idle(mobs)
    # A player (flying, so it stays put) exactly at the despawn distance from the second mob, just
    # beyond it from the first.
    player = Body.at_feet(4.5 + DESPAWN_DISTANCE_BLOCKS, y + 40.0, 0.5)
    mobs.tick(player)
    assert [body.feet[0] for body in mobs.bodies] == [4.5]
    assert mobs.keys == (1,)


# --- pushing -------------------------------------------------------------------------------------

def test_an_overlapping_player_and_mob_push_each_other_once_from_each_side_per_tick(flat):
    mobs, y = MobManager(flat, flat.seed), floor_y(flat)
    player = physics.step(Body.at_feet(0.5, y, 0.5), flat, physics.Intent())  # standing, as after its tick
    mobs.spawn((1.0, y, 0.5))  # centres 0.5 apart on X
    idle(mobs)
    after = mobs.tick(player)
    (mob,) = mobs.bodies

    # Beta's push for centres d < 1 block apart on one axis: 0.05 x sqrt(d) each way. First the
    # player's update pushes (centres 0.5 apart), then the mob's, from where its step took it.
    first = 0.05 * math.sqrt(0.5)
    second = 0.05 * math.sqrt(mob.feet[0] - player.feet[0])
    assert mob.feet[0] > 1.0  # the first push moved the mob away from the player (+X)
    assert after.velocity[0] == pytest.approx(player.velocity[0] - first - second, abs=2 * SQRT_F32_TOLERANCE)
    assert after.velocity[1:] == player.velocity[1:]
    assert after.box == player.box  # a push changes velocities only
    assert mob.velocity[2] == 0.0


def test_a_standing_player_and_an_idle_mob_on_top_of_each_other_separate_and_then_stop(flat):
    mobs, y = MobManager(flat, flat.seed), floor_y(flat)
    player = Body.at_feet(0.5, y, 0.5)
    mobs.spawn((0.7, y, 0.6))
    idle(mobs)
    for _ in range(SPAWN_INTERVAL_TICKS - 1):
        player = run(mobs, player, 1)
    (mob,) = mobs.bodies
    assert 0.5 - player.feet[0] > 0.1 and mob.feet[0] - 0.7 > 0.1  # each moved away from the other
    # Pushed until the boxes are out of each other's reach (they coast a little past it), then stopped.
    assert mob.box.min_x - player.box.max_x >= PUSH_REACH
    assert max(map(abs, player.velocity[::2] + mob.velocity[::2])) < 1e-3


def test_a_walking_player_pushes_an_idle_mob_ahead_of_it(flat):
    mobs, y = MobManager(flat, flat.seed), floor_y(flat)
    player = Body.at_feet(0.5, y, 0.5)
    mobs.spawn((2.5, y, 0.5))
    idle(mobs)
    east = physics.Intent(forward=1.0, yaw=270.0)
    gaps = []
    for _ in range(40):
        player = mobs.tick(physics.step(player, flat, east))
        (mob,) = mobs.bodies
        gaps.append(mob.box.min_x - player.box.max_x)
        assert mob.feet[0] > player.feet[0]  # the mob stays ahead
    assert mob.feet[0] > 4.0 and mob.feet[2] == 0.5
    assert min(gaps) < PUSH_REACH  # the player came within reach (the push, not a collision, moved the mob)


def test_knock_back_adds_the_impulse_to_that_mob_only(flat):
    mobs, y = MobManager(flat, flat.seed), floor_y(flat)
    mobs.spawn((3.5, y, 0.5))
    mobs.spawn((-3.5, y, 0.5))
    before = mobs.bodies
    mobs.knock_back(1, (0.25, 0.5, -0.125))
    assert mobs.bodies[0] == before[0]
    assert mobs.bodies[1].velocity == (0.25, 0.5, -0.125) and mobs.bodies[1].box == before[1].box
    with pytest.raises(IndexError):
        mobs.knock_back(2, (0.0, 0.0, 0.0))
    with pytest.raises(ValueError):
        mobs.knock_back(0, (math.inf, 0.0, 0.0))
    assert mobs.bodies[0] == before[0]


def test_views_blend_each_box_between_its_last_two_ticks(flat):
    mobs, y = MobManager(flat, flat.seed), floor_y(flat)
    mobs.spawn((3.5, y + 2.0, 0.5))  # falls (from its second tick: a new body has no velocity yet)
    mobs.tick(spawn_body(flat))
    (before,) = mobs.bodies
    mobs.tick(spawn_body(flat))
    (mob,) = mobs.bodies
    assert mob.box.min_y < before.box.min_y
    assert mobs.views(0.0)[0].box == before.box
    assert mobs.views(1.0)[0].box == mob.box
    assert mobs.views(0.5)[0].box.min_y == pytest.approx((before.box.min_y + mob.box.min_y) / 2.0)


# --- saving --------------------------------------------------------------------------------------

def two_mobs_in_two_columns(path):
    """A new platform world at `path` with two mobs in columns (0, 0) and (-1, 0): (world, mobs, player)."""
    world = make_world(path, platform=True)
    y = floor_y(world)
    mobs, player = MobManager(world, world.seed), spawn_body(world)
    mobs.spawn((3.5, y, 2.5), yaw=30.0)  # column (0, 0)
    mobs.spawn((-3.5, y, 5.5), yaw=200.0)  # column (-1, 0)
    return world, mobs, player


def test_mobs_saved_with_their_column_come_back_in_a_new_session_and_move_on_identically(tmp_path):
    path = tmp_path / "saved.boxel"
    world, mobs, player = two_mobs_in_two_columns(path)
    player = run(mobs, player, 10)
    mobs.save()
    world.save()
    for order, (body, brain) in enumerate(zip(mobs.bodies, mobs.brains)):
        column = column_of(math.floor(body.feet[0]), math.floor(body.feet[2]))
        assert world.column_entities(*column) == [mob_state(body, brain, order)]
    continued_player = run(mobs, player, 30)  # the world is closed without saving this
    continued = mobs.bodies
    world.close()

    with World.open(path) as reopened:
        restored = MobManager(reopened, reopened.seed)
        again = run(restored, player, 30)
        assert restored.bodies == continued and again == continued_player
        assert len(continued) == 2


def test_a_mob_that_walked_into_another_column_is_stored_only_there(tmp_path):
    with make_world(tmp_path / "w.boxel", platform=True) as world:
        y = floor_y(world)
        mobs, player = MobManager(world, world.seed), Body.at_feet(0.5, y, -6.5)
        mobs.spawn((0.5, y, 4.5))  # column (0, 0), at its west edge
        mobs.save()
        assert len(world.column_entities(0, 0)) == 1
        mobs.knock_back(0, (-1.0, 0.0, 0.0))  # into column (-1, 0)
        run(mobs, player, 1)
        (mob,) = mobs.bodies
        assert mob.feet[0] == -0.5
        mobs.save()
        assert world.column_entities(0, 0) == [] and len(world.column_entities(-1, 0)) == 1


def test_a_saved_mob_reads_back_bit_for_bit_and_a_bad_field_is_named():
    body = Body(physics.AABB(0.05, 64.0, 0.05, 0.95, 64.9, 0.95), (0.1, -0.0784000015258789, 1 / 3), True, False,
                True, 0.25)
    brain = MobBrain(BOXLING, seed=123, yaw=45.0)
    state = json.loads(json.dumps(mob_state(body, brain, 3)))  # as the world file stores it
    again = mob_from_state(state)
    assert again.body == body and again.brain.to_state() == brain.to_state() and again.order == 3
    for field, value, named in (("box", [0.0] * 5, "box"), ("velocity", [0.0, math.nan, 0.0], "velocity"),
                                ("on_ground", 1, "on_ground"), ("kind", "creeper", "creeper"),
                                ("version", 99, "version"), ("camera_lag", "0", "camera_lag"),
                                ("order", -1, "order")):
        with pytest.raises(MobStateError, match=named):
            mob_from_state({**state, field: value})
    with pytest.raises(MobStateError):
        mob_from_state({**state, "brain": {"kind": "boxling"}})
    with pytest.raises(MobStateError):
        mob_from_state([])


def test_a_damaged_saved_mob_is_kept_as_it_is_and_the_readable_ones_still_come_back(tmp_path):
    path = tmp_path / "damaged.boxel"
    world, mobs, player = two_mobs_in_two_columns(path)
    mobs.save()
    damaged = {"version": 1, "kind": "boxling", "box": "not numbers"}
    world.set_column_entities(0, 0, world.column_entities(0, 0) + [damaged])
    world.save()
    world.close()

    with World.open(path) as reopened:
        restored = MobManager(reopened, reopened.seed)
        with pytest.warns(UserWarning, match=r"column \(0, 0\) cannot be used"):
            run(restored, player, 1)
        assert len(restored.bodies) == 2  # both readable mobs came back
        restored.save()
        assert damaged in reopened.column_entities(0, 0)  # written back unchanged, never dropped
        assert len(reopened.column_entities(-1, 0)) == 1


# --- hostile saved mobs: no saved list can stop the mob tick ---------------------------------------

def test_two_identical_saved_mobs_come_back_as_one_and_the_mob_tick_runs(tmp_path):
    path = tmp_path / "twins.boxel"
    world, mobs, player = two_mobs_in_two_columns(path)
    mobs.save()
    (twin,) = world.column_entities(0, 0)
    world.set_column_entities(0, 0, [twin, dict(twin)])
    world.save()
    world.close()

    with World.open(path) as reopened:
        restored = MobManager(reopened, reopened.seed)
        with pytest.warns(UserWarning, match=r"column \(0, 0\) is an exact copy of another mob and is dropped"):
            run(restored, player, 3)
        assert len(restored.bodies) == 2
        restored.save()
        assert len(reopened.column_entities(0, 0)) == 1  # the copy is not written again


@pytest.mark.parametrize("yaw, wrapped", [(1e7, 280.0), (1e308, 296.0), (-30.0, 330.0)])
def test_a_saved_mob_yaw_of_any_finite_size_loads_as_the_same_direction_and_the_mob_walks(flat, yaw, wrapped):
    mobs = MobManager(flat, flat.seed)
    mobs.spawn((3.5, floor_y(flat), 2.5))
    state = mob_state(mobs.bodies[0], mobs.brains[0])
    state["brain"]["yaw"] = yaw
    saved = mob_from_state(json.loads(json.dumps(state)))
    assert saved.brain.yaw == wrapped
    saved.brain.walking, saved.brain.ticks_left = True, 100
    physics.step(saved.body, flat, saved.brain.think(saved.body, flat))  # the intent is one physics accepts


@pytest.mark.parametrize("yaw", [float("nan"), float("inf"), "north", True, [[[[[]]]]]])
def test_a_saved_mob_yaw_that_is_no_finite_number_is_refused(yaw):
    brain = MobBrain(BOXLING, seed=1, yaw=10.0)
    body = Body.at_feet(0.5, 64.0, 0.5, BOXLING.width, BOXLING.height)
    state = mob_state(body, brain)
    state["brain"]["yaw"] = yaw
    with pytest.raises(MobStateError, match="yaw"):
        mob_from_state(state)


def test_a_deeply_nested_saved_mob_is_refused_with_a_short_message():
    nested: object = []
    for _ in range(100_000):
        nested = [nested]
    brain = MobBrain(BOXLING, seed=1, yaw=10.0)
    state = mob_state(Body.at_feet(0.5, 64.0, 0.5, BOXLING.width, BOXLING.height), brain)
    for field in ("box", "version", "kind", "order"):
        with pytest.raises(MobStateError) as error:
            mob_from_state({**state, field: nested})
        assert len(str(error.value)) < 300


def storing_arena(entities: dict[tuple[int, int], list[dict]]):
    """The lab's arena keeping column entity lists in `entities` (the lab itself stores no mobs)."""
    arena = build_arena()
    arena.column_entities = lambda cx, cz: json.loads(json.dumps(entities.get((cx, cz), [])))
    arena.set_column_entities = lambda cx, cz, listed: entities.__setitem__((cx, cz), list(listed))
    return arena


def saved_mob_lists():
    """Lists of saved mobs for column (0, 0): copies of two readable mobs (duplicates included),
    mobs with one field replaced by a hostile value, and junk."""
    brain = MobBrain(BOXLING, seed=7, yaw=10.0)
    readable = [mob_state(Body.at_feet(x, float(SPAWN_FEET[1]), z, BOXLING.width, BOXLING.height), brain, order)
                for order, (x, z) in enumerate(((SPAWN_FEET[0] + 2.0, SPAWN_FEET[2]),
                                                (SPAWN_FEET[0], SPAWN_FEET[2] + 2.0)))]
    hostile = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-2**70, 2**70), st.text(max_size=4),
                        st.none(), st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=6))
    damaged = st.tuples(st.sampled_from(readable), st.sampled_from(sorted(readable[0]) + ["brain.yaw"]), hostile).map(
        lambda change: damage_mob(*change))
    return st.lists(st.one_of(st.sampled_from(readable), damaged, hostile.map(lambda junk: {"junk": junk})),
                    max_size=6)


def damage_mob(state: dict, field: str, value) -> dict:
    changed = json.loads(json.dumps(state))
    if field == "brain.yaw":
        changed["brain"]["yaw"] = value
    else:
        changed[field] = value
    return changed


@settings(max_examples=100, deadline=None)
@given(saved_mob_lists())
def test_any_saved_mob_list_leaves_the_mob_tick_running_and_saves_lists_that_load_again(stored):
    column = column_of(math.floor(SPAWN_FEET[0]), math.floor(SPAWN_FEET[2]))
    arena = storing_arena({column: stored})
    player = arena.spawn_body()
    mobs = MobManager(arena, arena.seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run(mobs, player, 2)
        mobs.save()
        again = MobManager(arena, arena.seed)
        run(again, player, 2)
    assert len(set(again.bodies)) == len(again.bodies)
