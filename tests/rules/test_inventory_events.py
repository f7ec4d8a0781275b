"""The survival inventory's replay events: a slot click and Q, as checked JSON lines in replay's shape."""

from __future__ import annotations

import pytest

from game.rules.inventory_events import EVENTS, DropHeld, SlotClick, from_json
from game.rules.replay import ReplayFormatError


def test_a_slot_click_writes_and_reads_back_as_the_same_event():
    event = SlotClick(80, 36, "left", True)
    assert event.to_json() == '{"tick": 80, "event": "slot_click", "slot": 36, "button": "left", "shift": true}'
    assert from_json(event.to_json()) == event


def test_a_click_outside_the_screen_and_another_players_q_read_back():
    assert from_json(SlotClick(3, -999, "right", False).to_json()).slot == -999
    event = DropHeld(9, False, player="alice")
    assert '"player": "alice"' in event.to_json() and from_json(event.to_json()) == event


def test_the_event_table_rows_name_each_event_and_its_fields():
    assert EVENTS == {"slot_click": (SlotClick, ("slot", "button", "shift")), "drop_held": (DropHeld, ("whole_stack",))}


@pytest.mark.parametrize("make", [
    lambda: SlotClick(-1, 0, "left", False), lambda: SlotClick(0, 90, "left", False),
    lambda: SlotClick(0, -2, "left", False), lambda: SlotClick(0, True, "left", False),
    lambda: SlotClick(0, 1, "middle", False), lambda: SlotClick(0, 1, "left", 0),
    lambda: DropHeld(0, "yes"), lambda: DropHeld(0, player="no spaces"),
])
def test_an_event_with_a_bad_field_is_refused_with_a_replay_format_error(make):
    with pytest.raises(ReplayFormatError):
        make()


@pytest.mark.parametrize("line", [
    "not json", "[1]", '{"tick": 0, "event": "key_down", "key": "w"}',
    '{"tick": 0, "event": "slot_click", "slot": 1, "button": "left"}',
    '{"tick": 0, "event": "drop_held", "whole_stack": false, "extra": 1}', "[" * 100_000,
])
def test_a_bad_line_is_refused_with_a_replay_format_error(line):
    with pytest.raises(ReplayFormatError):
        from_json(line)
