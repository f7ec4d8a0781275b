"""The player without a window: spawning, ticks through physics.step, sprinting, flying, respawning,
the interpolated view and the saved state."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from game.rules.hotbar import Hotbar
from game.rules.player import (DOUBLE_TAP_TICKS, EYE_HEIGHT, FALL_RESPAWN_Y, Player,
                         PlayerStateError, saved_player, spawn_body, surface_feet)
from game.rules.replay import KeyDown, KeyUp, Look
from game.world import World
from game.world.blocks import block_id
from game.world.coords import COLUMN_SHAPE
from tests.game.hostile_values import junk_player_states

FLOOR_TOP = 64.0
"""[blocks] Top of the fake world's floor."""


class FloorWorld:
    """A flat stone floor under y = 64 for x, z in [-8, 8), nothing elsewhere; the spawn at (0.5, ., 0.5)."""

    spawn = (0.5, 0.0, 0.5)

    def __init__(self) -> None:
        self.grid = physics.BlockGrid()
        self.grid.fill(-8, 63, -8, 7, 63, 7)

    def collision_boxes(self, region):
        return self.grid.collision_boxes(region)

    def column(self, cx: int, cz: int) -> np.ndarray:
        ids = np.zeros(COLUMN_SHAPE, dtype=np.uint16)
        if cx in (-1, 0) and cz in (-1, 0):
            ids[:, 63, :] = block_id("stone")
        return ids


def run(player: Player, ticks: int) -> physics.Body:
    for _ in range(ticks):
        player.tick()
    return player.body


def test_a_new_player_stands_on_the_highest_solid_block_of_the_spawn_column():
    body = spawn_body(FloorWorld())
    assert body.feet == (0.5, FLOOR_TOP, 0.5)
    assert body.box == physics.AABB(0.2, 64.0, 0.2, 0.8, 65.8, 0.8)


def test_the_surface_is_the_top_of_the_highest_solid_shape_not_of_leaves_above_air(tmp_path):
    with World.create(tmp_path / "w.boxel", 42) as world:
        world.set_block(0, 120, 0, "stone_slab")
        assert surface_feet(world, 0.5, 0.5) == (0.5, 120.5, 0.5)  # a slab's top is half a block up
        world.set_block(0, 130, 0, "glass")
        assert surface_feet(world, 0.5, 0.5) == (0.5, 131.0, 0.5)


def test_ticks_move_the_player_exactly_as_physics_step_does():
    world = FloorWorld()
    player = Player.spawned(world)
    player.apply(Look(0, 270.0, 0.0))
    player.apply(KeyDown(0, "w"))
    run(player, 20)
    expected = spawn_body(world)
    for _ in range(20):
        expected = physics.step(expected, world, physics.Intent(forward=1.0, yaw=270.0))
    assert player.body == expected
    assert player.ticks_run == 20


def test_pressing_forward_twice_within_the_window_sprints_until_forward_is_released():
    player = Player.spawned(FloorWorld())
    player.apply(KeyDown(0, "w"))
    player.apply(KeyUp(0, "w"))
    run(player, DOUBLE_TAP_TICKS)
    player.apply(KeyDown(DOUBLE_TAP_TICKS, "w"))
    assert player.intent().sprint is True
    player.apply(KeyUp(DOUBLE_TAP_TICKS, "w"))
    assert player.intent().sprint is False


def test_pressing_forward_twice_too_slowly_does_not_sprint():
    player = Player.spawned(FloorWorld())
    player.apply(KeyDown(0, "w"))
    player.apply(KeyUp(0, "w"))
    run(player, DOUBLE_TAP_TICKS + 1)
    player.apply(KeyDown(DOUBLE_TAP_TICKS + 1, "w"))
    assert player.intent().sprint is False


def test_holding_control_sprints_and_sneaking_stops_it():
    player = Player.spawned(FloorWorld())
    player.apply(KeyDown(0, "w"))
    player.apply(KeyDown(0, "control"))
    assert player.intent().sprint is True
    player.apply(KeyUp(0, "control"))
    assert player.intent().sprint is True  # sprinting lasts while forward is held
    player.apply(KeyDown(0, "shift"))
    assert player.intent().sprint is False


def test_f_toggles_flying_and_space_rises_without_falling_back():
    player = Player.spawned(FloorWorld())
    player.apply(KeyDown(0, "f"))
    player.apply(KeyDown(0, "space"))
    assert player.intent().fly is True
    risen = run(player, 10).feet[1]
    assert risen > FLOOR_TOP + 2.0
    player.apply(KeyUp(10, "space"))
    run(player, 20)
    assert player.body.feet[1] >= risen  # no gravity while flying
    player.apply(KeyUp(30, "f"))
    player.apply(KeyDown(30, "f"))
    assert player.intent().fly is False


def test_falling_below_the_void_depth_respawns_at_the_spawn_surface():
    world = FloorWorld()
    over_the_void = physics.Body.at_feet(100.5, 0.0, 100.5)
    player = Player(world, over_the_void)
    while player.respawns == 0:
        player.tick()
        assert player.ticks_run < 200, "the player never fell below the void depth"
    assert player.body == spawn_body(world)
    assert player.previous == player.body  # the view does not sweep from the void to the spawn
    assert FALL_RESPAWN_Y == -64.0


def test_the_view_blends_the_box_and_the_camera_lag_between_the_last_two_ticks():
    player = Player.spawned(FloorWorld())
    player.previous = physics.Body(physics.AABB(0.0, 64.0, 0.0, 0.6, 65.8, 0.6), camera_lag=0.4)
    player.body = physics.Body(physics.AABB(1.0, 64.5, 0.0, 1.6, 66.3, 0.6), camera_lag=0.0)
    view = player.view(0.5)
    assert view.box == (0.5, 64.25, 0.0, 1.1, 66.05, 0.6)
    assert view.camera_lag == 0.2
    assert view.eye == (0.8, 64.25 + EYE_HEIGHT - 0.2, 0.3)
    assert player.view(1.0).eye == (1.3, 64.5 + EYE_HEIGHT, 0.3)
    assert player.eye == (1.3, 64.5 + EYE_HEIGHT, 0.3)


def test_the_saved_state_reads_back_the_same_body_bit_for_bit_through_json():
    player = Player.spawned(FloorWorld())
    player.apply(Look(0, 123.456, -12.5))
    player.apply(KeyDown(0, "w"))
    player.apply(KeyDown(0, "space"))
    run(player, 7)
    hotbar = Hotbar(["glass"] * 9, selected=3)
    state = json.loads(json.dumps(player.to_state(hotbar)))
    saved = saved_player(state)
    assert saved.body == player.body
    assert (saved.yaw, saved.pitch, saved.flying) == (123.456, -12.5, False)
    assert (saved.hotbar.slots, saved.hotbar.selected) == (hotbar.slots, 3)
    restored = Player.spawned(FloorWorld(), saved)
    assert (restored.body, restored.input.yaw, restored.input.pitch) == (player.body, 123.456, -12.5)


def test_a_world_never_played_has_no_saved_player():
    assert saved_player(None) is None


@pytest.mark.parametrize("field, value, message", [
    ("version", 99, "version 99"),
    ("box", [0.0, 1.0, 0.0], "'box' must be 6 finite numbers"),
    ("box", [1.0, 64.0, 0.0, 0.0, 65.8, 0.6], "min <= max"),
    ("velocity", [0.0, float("nan"), 0.0], "'velocity' must be 3 finite numbers"),
    ("on_ground", 1, "'on_ground' must be true or false"),
    ("yaw", "north", "'yaw' must be a finite number"),
    ("pitch", 95.0, "pitch must be within"),
    ("hotbar", {"slots": ["air"] * 9, "selected": 0}, "hotbar"),
])
def test_a_damaged_saved_player_is_refused_naming_the_field(field, value, message):
    state = Player.spawned(FloorWorld()).to_state(Hotbar())
    state[field] = value
    with pytest.raises(PlayerStateError, match=message):
        saved_player(state)


# --- hostile saved players: every state loads as a valid player or is refused with PlayerStateError --

@pytest.mark.parametrize("yaw, wrapped", [(1e7, 280.0), (1e308, 296.0), (-90.0, 270.0)])
def test_a_saved_yaw_of_any_finite_size_loads_as_the_same_direction_in_0_to_360(yaw, wrapped):
    state = Player.spawned(FloorWorld()).to_state(Hotbar())
    state["yaw"] = yaw
    saved = saved_player(json.loads(json.dumps(state)))
    assert saved.yaw == wrapped
    player = Player.spawned(FloorWorld(), saved)
    player.tick()  # physics accepts the intent's yaw
    assert player.input.yaw == wrapped


@pytest.mark.parametrize("field, text", [("yaw", "NaN"), ("yaw", "Infinity"), ("pitch", "-Infinity"),
                                         ("yaw", "1e400"), ("box", "[NaN, 64, 0, 0.6, 65.8, 0.6]"),
                                         ("camera_lag", "1e308")])
def test_a_saved_player_with_non_finite_or_absurd_numbers_is_refused_naming_the_field(field, text):
    state = Player.spawned(FloorWorld()).to_state(Hotbar())
    state[field] = json.loads(text)  # what Python's JSON reader gives for these texts in a world file
    with pytest.raises(PlayerStateError, match=field):
        saved_player(state)


@pytest.mark.parametrize("field", ["yaw", "hotbar", "box", "flying", "version"])
def test_a_deeply_nested_saved_field_is_refused_with_a_short_message(field):
    nested: object = []
    for _ in range(100_000):
        nested = [nested]
    state = {**Player.spawned(FloorWorld()).to_state(Hotbar()), field: nested}
    with pytest.raises(PlayerStateError) as error:
        saved_player(state)
    assert len(str(error.value)) < 300


def _paths(value, path=()):
    """The path (keys and indexes) of every value inside a JSON value, the whole value first."""
    yield path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from _paths(item, (*path, key))


_SAVED_PATHS = list(_paths(Player.spawned(FloorWorld()).to_state(Hotbar())))


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(_SAVED_PATHS), st.sampled_from(["list", "object"]), st.sampled_from([3, 999, 1000, 100_000]))
def test_a_saved_player_with_any_value_replaced_by_deep_nesting_is_refused_with_a_player_state_error(path, kind,
                                                                                                   depth):
    # A deeply nested player_state is refused as a PlayerStateError, never a RecursionError: nested
    # lists or objects, at any place of a saved player: the whole state, a field, one number of the box.
    nested: object = [] if kind == "list" else {}
    for _ in range(depth):
        nested = [nested] if kind == "list" else {"slots": nested}
    state = Player.spawned(FloorWorld()).to_state(Hotbar())
    if not path:
        state = nested
    else:
        holder = state
        for key in path[:-1]:
            holder = holder[key]
        holder[path[-1]] = nested
    with pytest.raises(PlayerStateError) as error:
        saved_player(state)
    assert 0 < len(str(error.value)) < 300


@settings(max_examples=400, deadline=None)
@given(junk_player_states())
def test_any_saved_player_state_loads_as_a_usable_player_or_is_refused_with_a_player_state_error(state):
    try:
        saved = saved_player(state)
    except PlayerStateError:
        return
    if saved is None:
        assert state is None
        return
    assert 0.0 <= saved.yaw < 360.0 and -90.0 <= saved.pitch <= 90.0
    player = Player.spawned(FloorWorld(), saved)
    player.tick()
    assert saved_player(json.loads(json.dumps(player.to_state(saved.hotbar)))) is not None
