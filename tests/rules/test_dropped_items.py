"""Dropped items (`game.rules.dropped_items`): Beta 1.7.3's EntityItem spawned, moved, picked up,
despawned and saved, and the arrays' tick (`game.rules.dropped_item_rows`) giving its bits."""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from physics import AABB, Body
from physics.floats import f32
from physics.item_motion import item_box

from game.rules.dropped_items import (BLOCK_DROP_DELAY, MAX_AGE_TICKS, PLAYER_DROP_DELAY, SOUND_FIZZ, SOUND_POP,
                                      DroppedItems, DroppedItemStateError, item_from_state, item_state, step_item)
from game.rules.items import ItemStack
from game.rules.tick_changes import body_changes, with_delta
from game.world.java_random import JavaRandom
from game.world import World

SEED = 5
BASE_Y = 150
"""Scenes stand on a stone floor at this height, in the open sky of the seed-5 world."""
FLOOR_TOP = BASE_Y + 1.0
EDGE = 8
"""[blocks] The floor is EDGE x EDGE cells from (0, 0)."""
OBSTACLES = ("stone", "water", "lava", "cobweb", "soul_sand", "stone_slab", "fence", "ice", "torch", "glass")
"""What a random scene scatters on its floor: every kind of cell an item can meet."""
BETA_GRAVITY = 0.03999999910593033
BETA_DRAG = 0.9800000190734863


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> World:
    """A stone floor with air above it (items do not change the world: one world serves every test)."""
    world = World.create(tmp_path_factory.mktemp("items") / "w.boxel", SEED, workers=1)
    build_floor(world)
    yield world
    world.close()


def build_floor(world: World) -> None:
    for x in range(-2, EDGE + 2):
        for z in range(-2, EDGE + 2):
            world.set_block(x, BASE_Y, z, "stone")
            for y in range(BASE_Y + 1, BASE_Y + 12):
                world.set_block(x, y, z, "air")


def never(name: str, stack: ItemStack) -> int:
    return 0


def lying(items: DroppedItems, world, x: float, z: float, stack: ItemStack = ItemStack("dirt", 5), delay: int = 0,
          age: int = 0) -> None:
    """Restore an item at rest on the floor at (x, z), as saved."""
    box = item_box(x, FLOOR_TOP + 0.125, z)
    state = item_state(step_item(items_item(box, stack, delay, age), world)[0])
    state.update(age=age, pickup_delay=delay, key=items.next_key)
    items.restore([state])


def items_item(box: AABB, stack: ItemStack, delay: int, age: int):
    from game.rules.dropped_items import DroppedItem
    return DroppedItem(0, stack, Body(box), box, age=age, pickup_delay=delay)


# --- spawning ---------------------------------------------------------------------------------------

def test_a_broken_blocks_item_starts_in_the_middle_of_its_cell_with_betas_spawn_motion():
    items = DroppedItems(seed=1)
    rng = JavaRandom(42)
    item = items.spawn_from_block((10, 64, -3), ItemStack("cobblestone"), rng)
    draws = JavaRandom(42)
    offsets = [f32(draws.next_float() * f32(0.7)) + f32(1.0 - f32(0.7)) * 0.5 for _ in range(3)]
    hover, yaw = f32(draws.next_double() * math.pi * 2.0), f32(draws.next_double() * 360.0)
    vx = f32(draws.next_double() * f32(0.2) - f32(0.1))
    vz = f32(draws.next_double() * f32(0.2) - f32(0.1))
    assert item.position == (10 + offsets[0], 64 + offsets[1], -3 + offsets[2])
    assert item.body.velocity == (vx, 0.20000000298023224, vz)
    assert (item.hover, item.yaw, item.pickup_delay, item.age) == (hover, yaw, BLOCK_DROP_DELAY, 0)
    assert all(0.15 <= offset <= 0.85 for offset in offsets)
    assert item.body.box[4] - item.body.box[1] == 0.25


def test_a_pinned_spawn_falls_by_betas_arithmetic_and_lands_on_the_floor(world):
    items = DroppedItems(seed=1)
    item = items.spawn_from_block((3, BASE_Y + 3, 3), ItemStack("dirt"), JavaRandom(7))
    y, (vx, vy, vz) = item.body.box[1], item.body.velocity
    for _ in range(8):
        items.tick(world, {}, never)
        (after,) = items.live
        y += vy - BETA_GRAVITY
        vy = (vy - BETA_GRAVITY) * BETA_DRAG
        vx, vz = vx * f32(0.98), vz * f32(0.98)
        assert after.body.box[1] == y
        assert after.body.velocity == (vx, vy, vz)
    for _ in range(40):
        items.tick(world, {}, never)
    (after,) = items.live
    assert after.body.box[1] == FLOOR_TOP and after.body.on_ground
    assert after.body.velocity[1] == 0.0


def test_an_item_on_the_floor_never_bounces(world):
    items = DroppedItems(seed=1)
    items.spawn_from_block((4, BASE_Y + 6, 4), ItemStack("dirt"), JavaRandom(3))
    lowest = math.inf
    landed_at = None
    for tick in range(120):
        items.tick(world, {}, never)
        (item,) = items.live
        lowest = min(lowest, item.body.box[1])
        if item.body.on_ground and landed_at is None:
            landed_at = tick
        if landed_at is not None:
            assert item.body.box[1] == FLOOR_TOP and item.body.velocity[1] == 0.0
    assert landed_at is not None and lowest == FLOOR_TOP


def test_q_throws_0_3_along_the_look_plus_0_1_up_with_betas_jitter():
    items = DroppedItems()
    player = Body.at_feet(0.5, 64.0, 0.5)
    item = items.throw(ItemStack("dirt", 3), player, 0.0, 0.0, JavaRandom(9))
    draws = JavaRandom(9)
    for _ in range(4):
        draws.next_double()
    angle = f32(f32(draws.next_float() * f32(3.1415927)) * 2.0)
    jitter = f32(f32(0.02) * draws.next_float())
    up = f32(f32(draws.next_float() - draws.next_float()) * f32(0.1))
    assert item.body.velocity == (0.0 + math.cos(angle) * jitter, f32(0.1) + up, f32(0.3) + math.sin(angle) * jitter)
    assert item.position[1] == 64.0 + f32(1.62) - 0.30000001192092896 + f32(0.12)
    assert item.pickup_delay == PLAYER_DROP_DELAY


def test_a_dying_players_items_scatter_up_to_0_5_in_a_random_direction():
    items = DroppedItems()
    player = Body.at_feet(0.5, 64.0, 0.5)
    rng = random.Random(4)
    speeds = []
    for _ in range(50):
        item = items.throw(ItemStack("stick"), player, 90.0, 30.0, rng, scatter=True)
        vx, vy, vz = item.body.velocity
        speeds.append(math.hypot(vx, vz))
        assert vy == 0.20000000298023224
    assert max(speeds) <= 0.5 and min(speeds) >= 0.0
    assert len({item.key for item in items.live}) == 50


# --- pickup ---------------------------------------------------------------------------------------

def test_an_item_is_picked_up_only_once_its_pickup_delay_has_run_out(world):
    items = DroppedItems()
    lying(items, world, 2.5, 2.5, delay=10)
    player = AABB(2.2, FLOOR_TOP, 2.2, 2.8, FLOOR_TOP + 1.8, 2.8)
    given_to = []

    def give(name, stack):
        given_to.append((name, stack))
        return stack.count

    for _ in range(10):
        items.tick(world, {"alice": player}, give)
    assert len(items) == 1 and not given_to
    items.tick(world, {"alice": player}, give)
    assert not len(items)
    assert given_to == [("alice", ItemStack("dirt", 5))]
    (sound,) = items.take_sounds()
    assert sound.name == SOUND_POP and sound.volume == f32(0.2)


def test_the_pickup_reach_is_one_block_sideways_and_none_up_or_down(world):
    item_at = (4.5, 4.5)
    cases = {
        "beside, 0.99 apart": (AABB(5.624, FLOOR_TOP, 4.2, 6.2, FLOOR_TOP + 1.8, 4.8), True),
        "beside, exactly 1.0 apart": (AABB(5.625, FLOOR_TOP, 4.2, 6.2, FLOOR_TOP + 1.8, 4.8), False),
        "above, touching": (AABB(4.2, FLOOR_TOP + 0.25, 4.2, 4.8, FLOOR_TOP + 2.05, 4.8), False),
        "above, overlapping": (AABB(4.2, FLOOR_TOP + 0.24, 4.2, 4.8, FLOOR_TOP + 2.04, 4.8), True),
    }
    for name, (player, picked) in cases.items():
        items = DroppedItems()
        lying(items, world, *item_at)
        items.tick(world, {"bob": player}, lambda who, stack: stack.count)
        assert (len(items) == 0) == picked, name


def test_a_partly_taken_stack_stays_with_the_rest_and_makes_no_sound(world):
    items = DroppedItems()
    lying(items, world, 1.5, 1.5)
    player = AABB(1.2, FLOOR_TOP, 1.2, 1.8, FLOOR_TOP + 1.8, 1.8)
    items.tick(world, {"alice": player}, lambda name, stack: 3)
    (item,) = items.live
    assert item.stack == ItemStack("dirt", 2)
    assert items.take_sounds() == []


def test_players_pick_up_in_join_order_and_the_dead_pick_up_nothing(world):
    items = DroppedItems()
    lying(items, world, 1.5, 1.5)
    here = AABB(1.2, FLOOR_TOP, 1.2, 1.8, FLOOR_TOP + 1.8, 1.8)
    takers = []
    items.tick(world, {"ghost": None, "bob": here, "alice": here},
               lambda name, stack: takers.append(name) or stack.count)
    assert takers == ["bob"]


def test_a_give_that_answers_nonsense_is_refused(world):
    items = DroppedItems()
    lying(items, world, 1.5, 1.5)
    here = AABB(1.2, FLOOR_TOP, 1.2, 1.8, FLOOR_TOP + 1.8, 1.8)
    with pytest.raises(ValueError, match="how many"):
        items.tick(world, {"alice": here}, lambda name, stack: 99)
    with pytest.raises(TypeError, match="players_boxes"):
        items.tick(world, [here], never)


# --- despawning, lava, blocks --------------------------------------------------------------------------

def test_an_item_is_gone_once_it_has_lived_6000_ticks(world):
    items = DroppedItems()
    lying(items, world, 6.5, 6.5)
    for _ in range(MAX_AGE_TICKS - 1):
        items.tick(world, {}, never)
    assert len(items) == 1 and items.live[0].age == MAX_AGE_TICKS - 1
    items.tick(world, {}, never)
    assert not len(items)


def test_lava_pops_an_item_up_with_a_fizz_and_burns_it_away(tmp_path):
    world = World.create(tmp_path / "lava.boxel", SEED, workers=1)
    try:
        build_floor(world)
        world.set_block(2, BASE_Y + 1, 2, "lava")
        items = DroppedItems(vectorised=False)
        items.spawn_from_block((2, BASE_Y + 1, 2), ItemStack("dirt"), JavaRandom(1))
        items.tick(world, {}, never)
        items.tick(world, {}, never)
        assert not len(items)
        assert SOUND_FIZZ in [sound.name for sound in items.take_sounds()]
    finally:
        world.close()


def test_an_item_inside_stone_is_pushed_out_of_the_nearest_open_face(tmp_path):
    world = World.create(tmp_path / "push.boxel", SEED, workers=1)
    try:
        build_floor(world)
        world.set_block(3, BASE_Y + 1, 3, "stone")
        items = DroppedItems()
        lying(items, world, 3.5, 3.5)
        (before,) = items.live
        box = item_box(3.9, FLOOR_TOP + 0.5, 3.5)  # nearest the +X face
        state = item_state(before)
        state.update(box=list(box), previous=list(box))
        items = DroppedItems()
        items.restore([state])
        items.tick(world, {}, never)
        (after,) = items.live
        assert 0.1 <= after.body.velocity[0] / f32(0.98) <= 0.3 + 1e-9
    finally:
        world.close()


# --- the arrays' tick gives the readable tick's bits ------------------------------------------------------

def scene(world: World, rng: random.Random) -> None:
    build_floor(world)
    for _ in range(12):
        x, y, z = rng.randrange(EDGE), BASE_Y + 1 + rng.randrange(3), rng.randrange(EDGE)
        world.set_block(x, y, z, rng.choice(OBSTACLES))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_the_arrays_tick_gives_the_one_by_one_ticks_bits(tmp_path_factory, seed):
    rng = random.Random(seed)
    world = World.create(tmp_path_factory.mktemp("pair") / "w.boxel", SEED, workers=1)
    try:
        scene(world, rng)
        fast, slow = DroppedItems(seed=seed, vectorised=True), DroppedItems(seed=seed, vectorised=False)
        player = Body.at_feet(EDGE / 2, FLOOR_TOP, EDGE / 2)
        for i in range(40):
            cell = (rng.randrange(EDGE), BASE_Y + 1 + rng.randrange(8), rng.randrange(EDGE))
            stack = ItemStack("dirt", rng.randrange(1, 65))
            if i % 5 == 0:
                yaw, pitch = rng.uniform(0, 360), rng.uniform(-90, 90)
                fast.throw(stack, player, yaw, pitch, random.Random(i), scatter=i % 10 == 0)
                slow.throw(stack, player, yaw, pitch, random.Random(i), scatter=i % 10 == 0)
            else:
                fast.spawn_from_block(cell, stack, random.Random(i))
                slow.spawn_from_block(cell, stack, random.Random(i))
        boxes = {"alice": AABB(0.2, FLOOR_TOP, 0.2, 0.8, FLOOR_TOP + 1.8, 0.8)}
        taken = lambda name, stack: min(stack.count, 7)  # noqa: E731
        seen = {}
        for tick in range(80):
            fast.tick(world, boxes, taken)
            slow.tick(world, boxes, taken)
            assert repr(fast.live) == repr(slow.live), f"tick {tick}"
            assert fast.take_sounds() == slow.take_sounds()
            assert fast.bodies() == slow.bodies(), f"tick {tick}"
            now = fast.bodies()  # the record's delta is what comparing the whole mappings gives (its twin)
            assert with_delta((), fast.body_delta()) == body_changes(seen, now), f"tick {tick}"
            seen = now
        assert fast.moved_on_arrays > 0
    finally:
        world.close()


# --- saving -----------------------------------------------------------------------------------------

def test_a_saved_and_restored_item_goes_on_exactly_as_before(world):
    items = DroppedItems(seed=4)
    for i in range(5):
        items.spawn_from_block((i, BASE_Y + 4, 2), ItemStack("sand", i + 1), random.Random(i))
    for _ in range(3):
        items.tick(world, {}, never)
    entries = json.loads(json.dumps([state for column in items.to_entries().values() for state in column]))
    again = DroppedItems(seed=4)
    again.restore(entries)
    assert repr(again.live) == repr(items.live)
    for _ in range(30):
        items.tick(world, {}, never)
        again.tick(world, {}, never)
    assert repr(again.live) == repr(items.live)
    assert again.next_key == items.next_key


def test_save_and_load_keep_items_in_their_columns_beside_other_entries(tmp_path):
    world = World.create(tmp_path / "saved.boxel", SEED, workers=1)
    try:
        build_floor(world)
        items = DroppedItems()
        items.spawn_from_block((20, BASE_Y + 1, 3), ItemStack("dirt"), random.Random(1))
        world.set_column_entities(1, 0, [{"kind": "pig"}])
        items.save(world)
        assert world.column_entities(1, 0)[0] == {"kind": "pig"}
        loaded = DroppedItems()
        loaded.load(world)
        assert repr(loaded.live) == repr(items.live)
    finally:
        world.close()


@pytest.mark.parametrize("field, value", [("count", 65), ("item", "unobtainium"), ("age", 6000), ("fire", 10 ** 9),
                                          ("rand", -1), ("box", [0, 0, 0, 5, 5, 5]), ("velocity", [1e9, 0, 0]),
                                          ("kind", "pig"), ("health", 0), ("hover", float("inf"))])
def test_a_hostile_saved_item_is_refused_naming_what_is_wrong(field, value):
    items = DroppedItems()
    state = item_state(items.spawn_from_block((0, 64, 0), ItemStack("dirt"), random.Random(1)))
    state[field] = value
    with pytest.raises(DroppedItemStateError):
        item_from_state(state)
    fresh = DroppedItems()
    with pytest.raises(DroppedItemStateError):
        fresh.restore([state])
    assert not len(fresh)


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12))
def test_any_saved_value_gives_an_item_or_a_clear_error(value):
    try:
        item_from_state(value)
    except DroppedItemStateError:
        pass


def test_an_unreadable_saved_item_is_kept_as_it_is_with_a_warning(tmp_path):
    world = World.create(tmp_path / "bad.boxel", SEED, workers=1)
    try:
        bad = {"kind": "dropped_item", "version": 1, "count": "many"}
        world.set_column_entities(0, 0, [bad])
        items = DroppedItems()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            items.load(world)
        assert not len(items) and caught
        items.save(world)
        assert world.column_entities(0, 0) == [bad]
    finally:
        world.close()


def test_an_item_entering_water_splashes_and_sinks(tmp_path):
    world = World.create(tmp_path / "water.boxel", SEED, workers=1)
    try:
        build_floor(world)
        for x in range(3, 8):
            for z in range(3, 8):
                world.set_block(x, BASE_Y + 1, z, "water")
        items = DroppedItems(vectorised=False)
        items.spawn_from_block((5, BASE_Y + 4, 5), ItemStack("dirt"), JavaRandom(2))
        for _ in range(40):
            items.tick(world, {}, never)
        assert "random.splash" in [sound.name for sound in items.take_sounds()]
        (item,) = items.live
        assert item.body.box[1] == FLOOR_TOP and item.body.in_water
    finally:
        world.close()


def test_a_drawn_item_spins_a_radian_every_20_ticks_and_bobs_as_betas():
    from game.rules.dropped_items import item_view

    items = DroppedItems()
    item = items.spawn_from_block((0, 64, 0), ItemStack("dirt", 3), JavaRandom(5))
    view = item_view(item, 0.5)
    assert view.spin == f32(f32(f32(0.5 / 20.0) + item.hover) * f32(57.295776))
    assert 0.0 <= view.bob <= 0.2 and view.count == 3 and view.item == "dirt"
    assert view.box == item.body.box


def test_items_all_on_plain_ground_step_on_arrays_to_the_same_bits(world):
    fast, slow = DroppedItems(seed=8, vectorised=True), DroppedItems(seed=8, vectorised=False)
    for i in range(20):
        cell = (i % EDGE, BASE_Y + 1 + i % 7, (3 * i) % EDGE)
        fast.spawn_from_block(cell, ItemStack("gravel"), random.Random(i))
        slow.spawn_from_block(cell, ItemStack("gravel"), random.Random(i))
    everywhere = 0
    for tick in range(60):
        fast.tick(world, {}, never)
        slow.tick(world, {}, never)
        assert repr(fast.live) == repr(slow.live), f"tick {tick}"
        everywhere += fast.moved_on_arrays == len(fast)
    assert everywhere > 30


def test_items_at_rest_skip_their_tick_exactly_until_a_cell_near_them_changes(tmp_path):
    world = World.create(tmp_path / "rest.boxel", SEED, workers=1)
    try:
        build_floor(world)
        fast = DroppedItems(seed=3, vectorised=True)
        rng = random.Random(4)
        for i in range(12):
            cell = (rng.randrange(EDGE), BASE_Y + 1, rng.randrange(EDGE))
            fast.spawn_from_block(cell, ItemStack("dirt"), random.Random(i))
        for _ in range(1_600):  # until they lie still (their sideways speed stuck at the smallest double)
            fast.tick(world, {}, never)
        settled = [item_state(item, order) for order, item in enumerate(fast.live)]
        fast, slow = DroppedItems(seed=3, vectorised=True), DroppedItems(seed=3, vectorised=False)
        fast.restore(settled)
        slow.restore(settled)
        resting = []
        for tick in range(60):
            if tick == 20:  # the floor under the first item goes: it falls, the others rest on
                x, y, z = (int(v) for v in fast.live[0].body.feet)
                world.set_block(x, y - 1, z, "air")
            if tick == 40:  # a block beside another item: that one takes its whole tick again
                x, y, z = (int(v) for v in fast.live[5].body.feet)
                world.set_block(x + 1, y, z, "glass")
            fast.tick(world, {}, never)
            slow.tick(world, {}, never)
            assert repr(fast.live) == repr(slow.live), f"tick {tick}"
            resting.append(int(fast._rows.resting.sum()))
        assert max(resting) >= 10  # most of them skipped their ticks
        assert fast.live[0].body.feet[1] < FLOOR_TOP - 0.5  # the one whose floor went fell
    finally:
        world.close()


def test_an_item_put_back_takes_its_place_in_the_tick_order_and_an_unknown_key_is_refused(world):
    items = DroppedItems(seed=1)
    for i in range(3):
        items.spawn_from_block((i, BASE_Y + 1, 0), ItemStack("dirt"), random.Random(i))
    again = items.live[1]
    items.tick(world, {}, never)
    items.put_back(again)
    assert [item.key for item in items.live] == [0, 1, 2] and items.live[1] == again
    with pytest.raises(ValueError, match="no live dropped item has the key 9"):
        items.put_back(replace(again, key=9))


def test_the_records_item_delta_is_empty_while_no_item_lies_and_then_lists_the_first_one():
    items = DroppedItems(seed=3, vectorised=True)
    seen = {}
    for step in range(4):
        if step == 2:
            items.spawn_from_block((0, 70, 0), ItemStack("dirt", 1), random.Random(1))
        now = items.bodies()
        delta = items.body_delta()
        assert with_delta((), delta) == body_changes(seen, now), f"step {step}"
        assert [appeared for _, _, appeared in delta.changed] == ([True] if step == 2 else []), f"step {step}"
        seen = now
