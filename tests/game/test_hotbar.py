"""The hotbar: selecting by number and wheel, picking blocks, and its saved form."""

from __future__ import annotations

import json

import pytest

from game.rules.hotbar import DEFAULT_SLOTS, SLOT_COUNT, Hotbar, HotbarStateError, holdable
from game.world import UnknownBlockError


def test_a_new_hotbar_holds_nine_placeable_blocks_with_the_first_selected():
    hotbar = Hotbar()
    assert SLOT_COUNT == 9 and len(hotbar.slots) == 9
    assert hotbar.slots == DEFAULT_SLOTS
    assert all(holdable(name) for name in hotbar.slots)  # each can be placed (the torch has no collision shape)
    assert "torch" in hotbar.slots  # the one light a new player can place
    assert len(set(hotbar.slots)) == 9
    assert (hotbar.selected, hotbar.selected_block) == (0, "stone")


@pytest.mark.parametrize("index", range(9))
def test_select_chooses_the_slot_and_its_block(index):
    hotbar = Hotbar()
    hotbar.select(index)
    assert hotbar.selected == index
    assert hotbar.selected_block == DEFAULT_SLOTS[index]


@pytest.mark.parametrize(("index", "error"), [(9, ValueError), (-1, ValueError), (1.0, TypeError), (True, TypeError)])
def test_select_refuses_what_is_not_a_slot_index_and_keeps_the_selection(index, error):
    hotbar = Hotbar()
    hotbar.select(4)
    with pytest.raises(error, match="slot index"):
        hotbar.select(index)
    assert hotbar.selected == 4


@pytest.mark.parametrize(("start", "steps", "end"),
                         [(0, 1, 1), (8, 1, 0), (0, -1, 8), (3, -2, 1), (5, 18, 5), (2, -12, 8)])
def test_scrolling_moves_the_selection_and_wraps_around_the_ends(start, steps, end):
    hotbar = Hotbar(selected=start)
    hotbar.scroll(steps)
    assert hotbar.selected == end


def test_picking_a_block_in_the_hotbar_selects_its_slot_and_moves_nothing():
    hotbar = Hotbar(selected=0)
    hotbar.pick("glass")
    assert hotbar.selected == DEFAULT_SLOTS.index("glass")
    assert hotbar.slots == DEFAULT_SLOTS


def test_picking_a_block_not_in_the_hotbar_puts_it_in_the_selected_slot():
    hotbar = Hotbar(selected=2)
    hotbar.pick("fence")
    assert hotbar.selected == 2
    assert hotbar.selected_block == "fence"
    assert hotbar.slots == DEFAULT_SLOTS[:2] + ("fence",) + DEFAULT_SLOTS[3:]


@pytest.mark.parametrize(("name", "error", "message"), [
    ("air", ValueError, "air cannot be held"),
    ("bedrock", ValueError, "bedrock cannot be held"),
    ("fencee", UnknownBlockError, "unknown block name 'fencee'.*did you mean fence"),
    (7, TypeError, "holds a block name"),
])
def test_picking_something_that_cannot_be_held_is_refused_and_changes_nothing(name, error, message):
    hotbar = Hotbar(selected=3)
    with pytest.raises(error, match=message):
        hotbar.pick(name)
    assert (hotbar.slots, hotbar.selected) == (DEFAULT_SLOTS, 3)


def test_the_state_round_trips_through_json():
    hotbar = Hotbar(selected=6)
    hotbar.pick("stairs_north")
    restored = Hotbar.from_state(json.loads(json.dumps(hotbar.to_state())))
    assert (restored.slots, restored.selected) == (hotbar.slots, 6)
    assert restored.selected_block == "stairs_north"


def test_the_state_is_a_copy_that_later_changes_do_not_touch():
    hotbar = Hotbar()
    state = hotbar.to_state()
    hotbar.pick("fence")
    assert state == {"slots": list(DEFAULT_SLOTS), "selected": 0}


@pytest.mark.parametrize(("state", "message"), [
    (None, "a hotbar state is a dict"),
    ({"slots": list(DEFAULT_SLOTS)}, "exactly 'slots' and 'selected'"),
    ({"slots": list(DEFAULT_SLOTS), "selected": 0, "extra": 1}, "exactly 'slots' and 'selected'"),
    ({"slots": list(DEFAULT_SLOTS[:8]), "selected": 0}, "a hotbar has 9 slots"),
    ({"slots": "stone", "selected": 0}, "a hotbar has 9 slots"),
    ({"slots": ["stone"] * 8 + ["diamond"], "selected": 0}, "unknown block name 'diamond'"),
    ({"slots": ["stone"] * 8 + ["air"], "selected": 0}, "air cannot be held"),
    ({"slots": ["stone"] * 8 + [None], "selected": 0}, "holds a block name"),
    ({"slots": list(DEFAULT_SLOTS), "selected": 9}, "slot index must be 0..8"),
    ({"slots": list(DEFAULT_SLOTS), "selected": "3"}, "slot index is an integer"),
])
def test_an_unusable_saved_state_gives_a_clear_error(state, message):
    with pytest.raises(HotbarStateError, match=message):
        Hotbar.from_state(state)


def test_a_saved_hotbar_holding_bedrock_from_before_it_was_refused_loads_with_that_slot_reset():
    saved = {"slots": ["bedrock"] + list(DEFAULT_SLOTS[1:8]) + ["fence"], "selected": 0}
    hotbar = Hotbar.from_state(saved)
    assert hotbar.slots == (DEFAULT_SLOTS[0],) + DEFAULT_SLOTS[1:8] + ("fence",)


def test_hotbar_state_errors_are_value_errors():
    assert issubclass(HotbarStateError, ValueError)


def test_only_blocks_that_can_be_broken_again_can_be_held():
    from game.rules.hotbar import holdable
    assert holdable("stone") and holdable("glass") and holdable("stairs_north")
    assert not holdable("air") and not holdable("bedrock")
