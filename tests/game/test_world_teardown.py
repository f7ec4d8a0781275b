"""Leaving a world tears down the window's parts made for it (`game.window.app.Game.world_views`, `Game.close`),
without a window: the hand's display region, the player's model, the sky and the clouds are each
destroyed once, before the world is saved, so the next world played in the same window makes its own
(a hand left behind kept drawing the first world's held block over the next one's F5 view).
Also, without a window (Ursina's window_type='none'): the clouds, the sky and every texture the game
makes from its images leave no half-built Ursina `Texture` behind to fail in `__del__`."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .conftest import REPO_ROOT

PARTS = ("hand", "player_model", "other_players", "sky", "clouds")


class Part:
    """A stand-in for a window part: counts its `destroy` calls into the shared log."""

    def __init__(self, name: str, log: list[str]) -> None:
        self.name, self.log = name, log

    def destroy(self) -> None:
        self.log.append(f"destroy {self.name}")


class Closer:
    """A stand-in for the renderer, the sound player and the session: logs `close`."""

    def __init__(self, name: str, log: list[str]) -> None:
        self.name, self.log = name, log
        self.world = self

    def close(self) -> None:
        self.log.append(f"close {self.name}")


def bare_game(log: list[str], present: tuple[str, ...] = PARTS, loading: bool = False):
    """A `Game` with only what `close` touches, its parts stand-ins (those not in `present` None, as the
    lab has no sky or clouds)."""
    from game.window.app import Game

    game = Game.__new__(Game)
    for name in PARTS:
        setattr(game, name, Part(name, log) if name in present else None)
    game.renderer, game.sound, game.session = (Closer(name, log) for name in ("renderer", "sound", "session"))
    game.loading = loading
    return game


def test_closing_a_world_destroys_the_hand_the_players_models_the_sky_and_the_clouds_before_saving():
    log: list[str] = []
    bare_game(log).close()
    assert log == ["close renderer", "close sound", "destroy hand", "destroy player_model", "destroy other_players",
                   "destroy sky", "destroy clouds", "close session"]


def test_the_world_is_still_saved_when_a_part_fails_to_go():
    log: list[str] = []
    game = bare_game(log)

    def broken() -> None:
        raise RuntimeError("the window is gone")

    game.hand.destroy = broken
    with pytest.raises(RuntimeError):
        game.close()
    assert log[-1] == "close session"


@settings(max_examples=40, deadline=None)
@given(present=st.lists(st.sampled_from(PARTS), unique=True).map(tuple), loading=st.booleans())
def test_every_part_a_world_made_is_destroyed_exactly_once_and_the_world_closed_once(present, loading):
    log: list[str] = []
    bare_game(log, present, loading).close()
    assert sorted(entry for entry in log if entry.startswith("destroy")) == sorted(f"destroy {n}" for n in present)
    assert log.count("close session") == 1 and log[-1] == "close session"


TEXTURES_SCRIPT = """
import gc, io, sys
from game.window.render.clouds import Clouds
from game.window.render.sky import Sky
from game.window.render.chunk_renderer import load_atlas_texture
from game.window.ui.hud import load_icons_texture
from game.window.ui.loading_screen import backdrop_tile_texture
for _ in range(3):  # as three visits to a world do
    clouds, sky = Clouds(), Sky()
    textures = [load_atlas_texture(), load_icons_texture(), backdrop_tile_texture()]
    clouds.destroy(); clouds.destroy(); sky.destroy(); sky.destroy()
    del clouds, sky, textures
    gc.collect()
print("done")
"""


def test_the_clouds_sky_and_textures_made_and_freed_three_times_print_nothing_on_stderr():
    prelude = "from ursina import Ursina\napp = Ursina(window_type='none')\n"
    done = subprocess.run([sys.executable, "-c", prelude + TEXTURES_SCRIPT], capture_output=True, text=True,
                          timeout=120, cwd=str(REPO_ROOT))
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().endswith("done")
    assert "Exception ignored" not in done.stderr and "_cached_image" not in done.stderr, done.stderr[-3000:]
