"""The crosshair is drawn only while nothing is open over the game: the window asks the HUD to hide
it whenever the pause menu, the inventory or the death screen is open, in whatever order they
opened and closed (headless: the window's rule on stand-ins for its screens; the drawn result is
checked in tests/game/test_health_display.py and test_pause_and_loading_display.py)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

SCREENS = ("paused", "inventory", "dead")


class Window:
    """Stand-ins for what `Game._show_crosshair` reads: the pause flag, the inventory and death
    screens, and the HUD (recording what it was told)."""

    def __init__(self) -> None:
        self.paused = False
        self.inventory = SimpleNamespace(is_open=False)
        self.death_screen = SimpleNamespace(is_open=False)
        self.told: list[bool] = []
        self.hud = SimpleNamespace(show_paused=self.told.append)

    def set(self, screen: str, is_open: bool) -> None:
        if screen == "paused":
            self.paused = is_open
        else:
            getattr(self, "inventory" if screen == "inventory" else "death_screen").is_open = is_open

    def show_crosshair(self) -> bool:
        """What the window tells the HUD now: True hides the crosshair."""
        from game.window.app import Game

        Game._show_crosshair(self)
        return self.told[-1]


@pytest.mark.parametrize("paused", [False, True])
@pytest.mark.parametrize("inventory", [False, True])
@pytest.mark.parametrize("dead", [False, True])
def test_the_crosshair_is_hidden_exactly_while_a_menu_or_screen_is_open(paused, inventory, dead):
    window = Window()
    for screen, is_open in zip(SCREENS, (paused, inventory, dead)):
        window.set(screen, is_open)
    assert window.show_crosshair() is (paused or inventory or dead)


def test_resuming_from_the_pause_menu_over_the_death_screen_keeps_the_crosshair_hidden():
    window = Window()
    window.set("dead", True)
    window.set("paused", True)
    window.set("paused", False)  # Esc again: the death screen is still there, its button under the centre
    assert window.show_crosshair() is True


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(SCREENS), st.booleans()), max_size=30))
def test_after_any_openings_and_closings_the_crosshair_follows_what_is_open_now(changes):
    window = Window()
    for screen, is_open in changes:
        window.set(screen, is_open)
        assert window.show_crosshair() is (window.paused or window.inventory.is_open or window.death_screen.is_open)


def test_the_hud_refuses_anything_but_a_bool_for_the_crosshair():
    from game.window.ui.hud import Hud

    with pytest.raises(TypeError, match="True or False"):
        Hud.show_paused(SimpleNamespace(), "yes")
