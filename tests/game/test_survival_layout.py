"""The survival screens' layouts (pure arithmetic): Beta's GUI slot positions, and the pointer to a slot."""

from __future__ import annotations

import pytest

from game.rules.containers import OUTSIDE, ListStore, chest_screen, crafting_table_screen, furnace_screen, \
    inventory_screen
from game.rules.player_inventory import PlayerInventory
from game.window.ui.survival_layout import (GUI_PIXEL, chest_layout, furnace_gauges, inventory_layout, layout_for,
                                            slot_at, slot_centre, to_ui)


@pytest.mark.parametrize("screen", [
    inventory_screen(PlayerInventory()), crafting_table_screen(PlayerInventory()),
    chest_screen(PlayerInventory(), ListStore(27)), chest_screen(PlayerInventory(), ListStore(54)),
    furnace_screen(PlayerInventory(), ListStore(3)),
])
def test_every_screen_has_one_drawn_slot_per_container_slot_and_each_centre_finds_its_slot(screen):
    layout = layout_for(screen.kind, len(screen))
    assert len(layout.slots) == len(screen)
    for slot in range(len(screen)):
        assert slot_at(layout, *slot_centre(layout, slot)) == slot
        x, y = slot_centre(layout, slot)
        assert slot_at(layout, 2 * x, 2 * y, scale=2.0) == slot  # the screen drawn larger


def test_the_hotbar_row_sits_under_the_main_rows_as_in_betas_inventory():
    layout = inventory_layout()
    assert layout.slots[36] == (8, 142) and layout.slots[9] == (8, 84) and layout.slots[0] == (144, 36)


def test_a_double_chest_panel_is_222_gui_pixels_tall_with_the_player_rows_moved_down():
    layout = chest_layout(54)
    assert layout.height == 222 and layout.slots[54] == (8, 139) and layout.slots[54 + 27] == (8, 197)


def test_a_point_beyond_the_panel_is_outside_and_one_between_slots_is_no_slot():
    layout = inventory_layout()
    assert slot_at(layout, 0.0, 0.49) == OUTSIDE and slot_at(layout, -0.5, 0.0) == OUTSIDE
    assert slot_at(layout, *to_ui(layout, 60, 40)) is None  # the empty space between armour and grid
    assert GUI_PIXEL * layout.height < 1.0


def test_an_unknown_screen_is_refused():
    with pytest.raises(ValueError):
        layout_for("anvil", 3)


def test_the_furnace_gauges_follow_betas_scaled_pixels():
    assert furnace_gauges(0, 1600, 0) == (0.0, 1 / 24)  # out: no flame; Beta's idle arrow's first pixel
    assert furnace_gauges(1600, 1600, 100) == (1.0, 13 / 24)  # 12 + 2 of 14; 12 + 1 of 24
    assert furnace_gauges(800, 1600, 199) == (8 / 14, 24 / 24)
    assert furnace_gauges(150, 0, 0) == ((150 * 12 // 200 + 2) / 14, 1 / 24)  # a fuel time of 0 reads as 200


def test_every_item_has_a_picture_its_own_or_its_blocks():
    from game.rules.items import ITEM_NAMES
    from game.window.ui.item_icons import icon_source
    sources = {name: icon_source(name) for name in ITEM_NAMES}
    assert all(source is not None for source in sources.values())
    assert sources["wooden_pickaxe"][0] == "items" and sources["wooden_door"][0] == "items"  # Beta's item icons
    assert sources["dirt"][0] == "blocks"
