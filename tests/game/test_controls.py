"""Input mapping: Ursina input names -> events -> held keys and look angles -> physics.Intent."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from game.frontends.cli import build_parser
from game.rules.controls import (BUILD_REPEAT_TICKS, CHAT_KEY, CONTROLS, DEFAULT_BINDINGS, MOUSE_BUTTON_KEYS, PAUSE_KEY, RESPAWN_KEY,
                           WHEEL_KEYS, InputState, KeyBindings, LiveInput, controls_markdown, event_from_ursina,
                           intent_from_keys, turned)
from game.rules.replay import Click, KeyDown, KeyUp, Look

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("held, forward, strafe", [
    ({"w"}, 1.0, 0.0),
    ({"s"}, -1.0, 0.0),
    ({"w", "s"}, 0.0, 0.0),
    ({"a"}, 0.0, 1.0),  # left is +1, as in physics.Intent
    ({"d"}, 0.0, -1.0),
    ({"w", "d"}, 1.0, -1.0),
    (set(), 0.0, 0.0),
])
def test_wasd_give_forward_and_strafe(held, forward, strafe):
    intent = intent_from_keys(held, yaw=33.0)
    assert (intent.forward, intent.strafe, intent.yaw) == (forward, strafe, 33.0)


@pytest.mark.parametrize("key, action", [
    ("space", "jump"), ("shift", "sneak"), ("left shift", "sneak"), ("right shift", "sneak"),
    ("control", "sprint"), ("left control", "sprint"), ("right control", "sprint"),
])
def test_space_shift_and_control_set_jump_sneak_and_sprint(key, action):
    intent = intent_from_keys({key}, yaw=0.0)
    flags = {"jump": intent.jump, "sneak": intent.sneak, "sprint": intent.sprint}
    assert flags == {name: name == action for name in flags}


def test_holding_a_while_facing_south_moves_the_player_east():
    # Minecraft: facing south (+Z), the player's left is east (+X).
    world = physics.BlockGrid()
    world.fill(-5, -1, -5, 5, -1, 5)
    body = physics.Body.at_feet(0.5, 0.0, 0.5)
    for _ in range(10):
        body = physics.step(body, world, intent_from_keys({"a"}, yaw=0.0))
    x, _, z = body.feet
    assert x > 1.0
    assert z == 0.5


@pytest.mark.parametrize("name, event", [
    ("w", KeyDown(7, "w")),
    ("w up", KeyUp(7, "w")),
    ("left shift", KeyDown(7, "left shift")),
    ("left shift up", KeyUp(7, "left shift")),
    ("f3", KeyDown(7, "f3")),
    ("page up", KeyDown(7, "page up")),
    ("page up up", KeyUp(7, "page up")),
    ("left mouse down", Click(7, "left")),
    ("right mouse down", Click(7, "right")),
    ("middle mouse down", Click(7, "middle")),
])
def test_ursina_input_names_become_replay_events(name, event):
    assert event_from_ursina(name, 7) == event


@pytest.mark.parametrize("name", ["w hold", "right mouse up", "middle mouse up", "scroll up", "scroll down",
                                  "double click"])
def test_repeats_releases_of_buttons_wheel_and_double_clicks_are_not_events(name):
    assert event_from_ursina(name, 0) is None


def test_input_state_follows_key_events_and_looks():
    state = InputState(yaw=10.0, pitch=5.0)
    state.apply(KeyDown(0, "w"))
    state.apply(KeyDown(0, "left shift"))
    state.apply(Look(0, 270.0, -20.0))
    intent = state.intent()
    assert (intent.forward, intent.sneak, intent.yaw) == (1.0, True, 270.0)
    assert state.pitch == -20.0
    state.apply(KeyUp(3, "w"))
    assert state.intent().forward == 0.0
    assert state.held == {"left shift"}


def test_a_click_changes_no_held_key_or_look():
    state = InputState(10.0, 5.0)
    state.apply(Click(1, "left"))
    assert (state.held, state.yaw, state.pitch) == (set(), 10.0, 5.0)


def test_live_input_turns_keys_clicks_and_look_changes_into_the_ticks_events():
    live = LiveInput(0.0, 0.0)
    for name in ("w", "left mouse down", "w hold", "double click", "f3"):
        live.receive(name)
    assert live.events_for(3, 90.0, 10.0, 0) == [Look(3, 90.0, 10.0), KeyDown(3, "w"), Click(3, "left"),
                                                 KeyDown(3, "f3")]
    live.receive("w up")
    assert live.events_for(4, 90.0, 10.0, 0) == [KeyUp(4, "w")]  # the look did not change: no look event


def test_a_held_mouse_button_clicks_again_every_repeat_interval_until_released():
    live = LiveInput(0.0, 0.0)
    live.receive("right mouse down")
    clicks = [tick for tick in range(3 * BUILD_REPEAT_TICKS + 1) for _ in live.events_for(tick, 0.0, 0.0, 0)]
    assert clicks == [0, BUILD_REPEAT_TICKS, 2 * BUILD_REPEAT_TICKS, 3 * BUILD_REPEAT_TICKS]
    live.receive("right mouse up")
    assert all(live.events_for(tick, 0.0, 0.0, 0) == [] for tick in range(20, 40))


def test_wheel_notches_become_the_digit_key_of_the_slot_they_reach_wrapping_round():
    live = LiveInput(0.0, 0.0)
    for name in ("scroll down", "scroll down", "scroll up", "scroll down"):
        live.receive(name)
    assert live.events_for(0, 0.0, 0.0, 7) == [KeyDown(0, "1"), KeyUp(0, "1")]  # slot 7 + 2 wraps to slot 0
    live.receive("scroll up")
    assert live.events_for(1, 0.0, 0.0, 0) == [KeyDown(1, "9"), KeyUp(1, "9")]
    assert live.events_for(2, 0.0, 0.0, 8) == []


def test_moving_the_mouse_right_turns_right_and_wraps_yaw():
    yaw, pitch = turned(350.0, 0.0, mouse_dx=0.25, mouse_dy=0.0, degrees_per_unit=100.0)
    assert yaw == pytest.approx(15.0)  # 350 + 25, wrapped past 360
    assert pitch == 0.0


def test_moving_the_mouse_up_looks_up_and_stops_at_straight_up():
    _, pitch = turned(0.0, 10.0, mouse_dx=0.0, mouse_dy=0.05, degrees_per_unit=100.0)
    assert pitch == pytest.approx(5.0)
    _, pitch = turned(0.0, 10.0, mouse_dx=0.0, mouse_dy=5.0, degrees_per_unit=100.0)
    assert pitch == -90.0


def test_looking_with_non_finite_angles_is_refused_and_changes_nothing():
    state = InputState(yaw=1.0, pitch=2.0)
    with pytest.raises(ValueError):
        state.look_at(float("nan"), 0.0)
    assert (state.yaw, state.pitch) == (1.0, 2.0)


# --- the controls table: one place for every binding, checked against the README and --help ----------

def bound_keys(bindings: KeyBindings = DEFAULT_BINDINGS) -> dict[str, str]:
    """Every bound key -> the action it drives."""
    keys: dict[str, str] = {}
    for field in dataclasses.fields(bindings):
        for key in getattr(bindings, field.name):
            assert key not in keys, f"{key!r} drives both {keys[key]} and {field.name}"
            keys[key] = field.name
    return keys


def test_every_bound_key_is_in_the_controls_table_and_every_key_there_does_something():
    listed = {key for control in CONTROLS for key in control.keys}
    bound = set(bound_keys())
    assert bound <= listed, f"bound but not in CONTROLS: {sorted(bound - listed)}"
    # the window's own keys, and the respawn key a dead player hears (game.rules.player)
    unbound_keys = {PAUSE_KEY, RESPAWN_KEY, CHAT_KEY, *MOUSE_BUTTON_KEYS, *WHEEL_KEYS}
    assert listed - bound <= unbound_keys, f"in CONTROLS but bound to nothing: {sorted(listed - bound - unbound_keys)}"


def test_the_readme_controls_table_is_the_controls_table():
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Controls", 1)[1].split("\n## ", 1)[0]
    table = "\n".join(line for line in section.splitlines() if line.startswith("|"))
    assert table == controls_markdown()


def test_help_lists_every_control():
    help_text = " ".join(build_parser().format_help().split())
    for control in CONTROLS:
        assert f"{control.label}: {control.action}" in help_text


# --- hostile look angles: the input state always holds angles physics and the next launch accept -----

@pytest.mark.parametrize("yaw, pitch, expected", [(1e7, 0.0, (280.0, 0.0)), (1e308, 95.0, (296.0, 90.0)),
                                                  (-90.0, -1e9, (270.0, -90.0)), (-1e-20, 0.0, (0.0, 0.0))])
def test_the_input_state_wraps_any_finite_yaw_and_clamps_the_pitch_from_every_source(yaw, pitch, expected):
    made = InputState(yaw, pitch)
    looked = InputState()
    looked.look_at(yaw, pitch)
    assert (made.yaw, made.pitch) == (looked.yaw, looked.pitch) == expected
    assert physics.Intent(yaw=made.intent().yaw).yaw == expected[0]  # physics accepts it


def test_live_input_records_a_look_event_with_the_wrapped_angles():
    live = LiveInput(0.0, 0.0)
    assert live.events_for(3, 1e308, -1e9, 0) == [Look(3, 296.0, -90.0)]
    assert live.events_for(4, 296.0, -90.0, 0) == []  # the same look: no new event


def test_turning_by_a_huge_mouse_move_stays_a_direction_in_0_to_360():
    yaw, pitch = turned(359.0, 0.0, mouse_dx=1e300, mouse_dy=-1e300)
    assert 0.0 <= yaw < 360.0 and pitch == 90.0


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True), st.floats(allow_nan=True, allow_infinity=True))
def test_looking_anywhere_keeps_angles_physics_accepts_or_is_refused_and_changes_nothing(yaw, pitch):
    state = InputState(12.0, 3.0)
    try:
        state.look_at(yaw, pitch)
    except ValueError:
        assert (state.yaw, state.pitch) == (12.0, 3.0)
        return
    assert 0.0 <= state.yaw < 360.0 and -90.0 <= state.pitch <= 90.0
    physics.Intent(yaw=state.yaw)
