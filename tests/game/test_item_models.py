"""Where a dropped item's model is drawn (`game.window.render.item_models.item_placement`), without a window."""

from __future__ import annotations

import random

from game.rules.dropped_items import DroppedItems, item_view
from game.rules.items import ItemStack
from game.window.render.item_models import SPRITE_LIFT, item_placement
from game.world.blocks import block_id


def test_a_block_item_is_drawn_as_its_block_centred_on_the_item_raised_by_its_bob():
    item = DroppedItems().spawn_from_block((2, 70, 3), ItemStack("dirt"), random.Random(1))
    view = item_view(item, 0.0)
    placement = item_placement(view)
    x, y, z = item.position
    assert placement.block == block_id("dirt")
    assert placement.centre == (x, y + view.bob, z)
    assert placement.spin == view.spin


def test_any_other_item_is_drawn_as_a_picture_a_little_higher():
    item = DroppedItems().spawn_from_block((2, 70, 3), ItemStack("stick"), random.Random(1))
    view = item_view(item, 0.0)
    placement = item_placement(view)
    assert placement.block is None
    assert placement.centre[1] == item.position[1] + view.bob + SPRITE_LIFT
