"""The title screen's rules without a window: how a world's row reads, the seed a player types, and
what the screen refuses (a bad seed or name shown in the dialog with nothing made, a world that cannot
be played never chosen). The widgets run in Ursina with no window, in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.world import World
from game.userdata.world_list import WorldEntry

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("size, text", [(0, "0 bytes"), (1023, "1023 bytes"), (1024, "1 KB"), (24576, "24 KB"),
                                        (1536 * 1024, "1.5 MB"), (3 * 1024 ** 3, "3.0 GB"),
                                        (5000 * 1024 ** 3, "5000.0 GB")])
def test_a_size_on_disk_reads_in_bytes_kb_mb_or_gb(size, text):
    from game.window.ui.title_screen import size_text

    assert size_text(size) == text


@pytest.mark.parametrize("text, seed", [("", None), ("   ", None), ("42", 42), (" -7 ", -7),
                                        (str(2 ** 63 - 1), 2 ** 63 - 1), (str(-(2 ** 63)), -(2 ** 63))])
def test_a_typed_seed_is_a_whole_number_or_blank_for_a_random_one(text, seed):
    from game.window.ui.title_screen import parse_seed

    assert parse_seed(text) == seed


@pytest.mark.parametrize("text, seed", [("abc", 96354), ("1.5", 48568), ("4 2", 51014),
                                        (str(2 ** 63), -1773151197), (str(-(2 ** 63) - 1), 1304595159)])
def test_a_typed_seed_that_is_no_64_bit_whole_number_is_its_java_hash_as_in_beta(text, seed):
    from game.window.ui.title_screen import parse_seed

    assert parse_seed(text) == seed


def test_a_row_reads_name_then_game_mode_seed_last_played_and_size_or_why_it_cannot_be_played():
    from game.window.ui.title_screen import entry_lines, played_text

    good = WorldEntry("Castle", Path("Castle.boxel"), 42, 1_700_000_000.0, 2048)
    bad = WorldEntry("Junk", Path("Junk.boxel"), None, 1_700_000_000.0, 10, problem="it is empty (0 bytes)")
    assert entry_lines(good) == ("Castle", f"Seed 42   Played {played_text(1_700_000_000.0)}   2 KB")
    assert entry_lines(bad) == ("Junk", "Cannot be played: it is empty (0 bytes)")
    survival = WorldEntry("Farm", Path("Farm.boxel"), 7, 1_700_000_000.0, 2048, game_mode="survival")
    assert entry_lines(survival) == ("Farm", f"Survival   Seed 7   Played {played_text(1_700_000_000.0)}   2 KB")


def run_screen(script: str, tmp_path: Path) -> str:
    """Run `script` with a TitleScreen `screen` over tmp_path/worlds (Ursina with no window); its stdout."""
    prelude = f"""
from pathlib import Path
from ursina import Ursina
app = Ursina(window_type='none')
from game.window.ui.title_screen import TitleScreen
from game.userdata.user_settings import UserSettings
folder = Path({str(tmp_path / 'worlds')!r})
screen = TitleScreen(folder=folder, settings=UserSettings(), settings_path=Path({str(tmp_path / 'settings.json')!r}))
"""
    env = {**os.environ, "BOXEL_DATA_DIR": str(tmp_path / "data"), "BOXEL_CONFIG_DIR": str(tmp_path / "config")}
    done = subprocess.run([sys.executable, "-c", prelude + script], capture_output=True, text=True, timeout=120,
                          cwd=REPO_ROOT, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_new_with_a_text_seed_makes_the_world_with_its_java_hash_as_beta_does(tmp_path):
    out = run_screen("""
screen.open_new()
screen.fields['name'].text = 'Castle'
screen.fields['seed'].text = 'twelve'
screen.dialog.on_confirm()
print('choice:', screen.choice.path.name, screen.choice.created, '| dialog:', screen.dialog)
""", tmp_path)
    assert "choice: Castle.boxel True | dialog: None" in out
    with World.open(tmp_path / "worlds" / "Castle.boxel", workers=1) as world:
        assert world.seed == -860970343  # Java's "twelve".hashCode()


def test_new_makes_the_world_and_chooses_to_play_it(tmp_path):
    out = run_screen("""
screen.open_new()
screen.fields['name'].text = 'Castle'
screen.fields['seed'].text = '-5'
screen.dialog.on_confirm()
print('choice:', screen.choice.path.name, screen.choice.created, '| dialog:', screen.dialog)
""", tmp_path)
    assert "choice: Castle.boxel True | dialog: None" in out
    with World.open(tmp_path / "worlds" / "Castle.boxel", workers=1) as world:
        assert world.seed == -5


def test_a_world_that_cannot_be_played_is_never_chosen_and_its_play_button_is_off(tmp_path):
    (tmp_path / "worlds").mkdir()
    (tmp_path / "worlds" / "junk.boxel").write_bytes(b"junk")
    out = run_screen("""
screen.buttons['Play'].on_click()
print('choice:', screen.choice, '| play disabled:', screen.buttons['Play'].disabled, '|', screen.message.text)
""", tmp_path)
    assert "choice: None | play disabled: True | junk cannot be played: it is damaged or not a world" in out


def test_renaming_to_another_worlds_name_is_refused_in_the_dialog_and_renames_nothing(tmp_path):
    (tmp_path / "worlds").mkdir()
    for name, seed in (("one", 1), ("two", 2)):
        World.create(tmp_path / "worlds" / f"{name}.boxel", seed, workers=1).close()
    out = run_screen("""
screen.select(folder / 'one.boxel')
screen.open_rename()
screen.fields['name'].text = 'two'
screen.dialog.on_confirm()
print('error:', screen.dialog.error.text, '| files:', sorted(p.name for p in folder.glob('*')))
screen.close_dialog()
screen.select(folder / 'two.boxel')
screen.open_delete()
screen.close_dialog()
print('after cancel:', sorted(p.name for p in folder.glob('*')))
""", tmp_path)
    assert "error: there is already a world named 'two' | files: ['one.boxel', 'two.boxel']" in out
    assert "after cancel: ['one.boxel', 'two.boxel']" in out
