"""Every change to a game is an event: the pause menu's time of day and Peaceful
switch are the replay events `set_day_time` and `set_peaceful`, which the session applies like any
other event (headless here; tests/game/test_record_pause_menu_display.py records them in the window
and replays the recording headless)."""

from __future__ import annotations

import ast
import json
import shutil
from importlib.util import find_spec
from pathlib import Path

import physics
import pytest

from game.frontends import cli
from game.rules.replay import KeyDown, ReplayWriter, SetDayTime, SetPeaceful
from game.rules.session import Session
from game.world import World
from tests.game.test_session import platform_world

MIDNIGHT = 18_000
"""[ticks] The pause menu's Midnight."""
DROP = 10
"""[blocks] A fall that hurts with damage on: Beta's fall damage is ceil(distance - 3) = 7 half-hearts."""
FULL_HEALTH = 20
HURT_BY_THE_DROP = FULL_HEALTH - (DROP - 3)
TICKS = 40
"""[ticks] Long enough for the DROP to land (a 10-block fall takes about 25 ticks)."""


@pytest.fixture(scope="module")
def start_world(tmp_path_factory) -> Path:
    """A seed-42 world with the display tests' platform around the spawn (copied for each run)."""
    path = tmp_path_factory.mktemp("start") / "start.boxel"
    platform_world(path)
    return path


def dropped_session(world: World) -> Session:
    """A session on `world` with its player DROP blocks above the spawn, falling from rest."""
    session = Session.open(world, autosave=False)
    x, y, z = session.player.body.feet
    session.player.body = session.player.previous = physics.Body.at_feet(x, y + DROP, z)
    return session


def headless_report(world: Path, events, ticks: int, tmp_path: Path) -> dict:
    """`python main.py --headless` (in this process) on `world` with `events` as the replay; its report."""
    replay, report = tmp_path / "replay.jsonl", tmp_path / "report.json"
    with ReplayWriter.open(replay) as writer:
        for event in events:
            writer.write(event)
    status = cli.main(["--headless", "--world", str(world), "--replay", str(replay), "--exit-after-ticks", str(ticks),
                       "--report", str(report)])
    assert status == 0
    return json.loads(report.read_text(encoding="utf-8"))


def test_a_headless_replay_with_set_day_time_and_set_peaceful_reports_that_time_and_damage_off(start_world, tmp_path):
    world = tmp_path / "w.boxel"
    shutil.copy(start_world, world)
    report = headless_report(world, [SetPeaceful(5, True), SetDayTime(10, MIDNIGHT)], 30, tmp_path)
    # Set just before tick 10 runs; ticks 10..29 then move the clock on by 20.
    assert (report["day_time"], report["damage_enabled"]) == (MIDNIGHT + 20, False)
    with World.open(world) as reopened:
        assert reopened.day_time == MIDNIGHT + 20  # saved with the world, as the menu's time always was


def test_set_peaceful_false_turns_damage_back_on(start_world, tmp_path):
    world = tmp_path / "w.boxel"
    shutil.copy(start_world, world)
    report = headless_report(world, [SetPeaceful(0, True), SetPeaceful(3, False)], 5, tmp_path)
    assert report["damage_enabled"] is True


@pytest.mark.parametrize("events, health", [([], HURT_BY_THE_DROP), ([SetPeaceful(0, True)], FULL_HEALTH),
                                            ([SetPeaceful(0, True), SetPeaceful(1, False)], HURT_BY_THE_DROP)],
                         ids=["damage-on", "peaceful", "peaceful-then-off"])
def test_a_fall_hurts_unless_set_peaceful_turned_damage_off_before_it_landed(start_world, tmp_path, events, health):
    shutil.copy(start_world, tmp_path / "w.boxel")
    with World.open(tmp_path / "w.boxel") as world:
        session = dropped_session(world)
        session.run(events, TICKS)
        assert session.player.body.on_ground
        assert session.player.vitals.health == health


def test_game_changes_are_heard_with_the_inventory_open_and_by_a_dead_player(start_world, tmp_path):
    shutil.copy(start_world, tmp_path / "w.boxel")
    with World.open(tmp_path / "w.boxel") as world:
        session = Session.open(world, autosave=False)
        session.run([KeyDown(0, "e"), SetPeaceful(1, True), SetDayTime(1, MIDNIGHT)], 2)
        assert session.inventory_open  # the screen stays open: a game change is no key press
        assert (session.damage_enabled, session.day_time) == (False, MIDNIGHT + 1)

        x, y, z = session.player.body.feet
        session.player.body = session.player.previous = physics.Body.at_feet(x, y + 40, z)  # a fall that kills
        session.run([KeyDown(2, "e"), SetPeaceful(2, False)], TICKS)
        assert session.player.dead
        session.run([SetPeaceful(session.ticks_run, True), SetDayTime(session.ticks_run, 0)], 1)
        assert (session.damage_enabled, session.day_time) == (False, 1)


def test_set_peaceful_switches_only_the_player_it_names_and_any_players_set_day_time_is_everyones(start_world,
                                                                                                  tmp_path):
    shutil.copy(start_world, tmp_path / "w.boxel")
    with World.open(tmp_path / "w.boxel") as world:
        session = Session.open(world, autosave=False)
        alice = session.join("alice")
        session.apply(SetPeaceful(0, True, player="alice"))
        session.apply(SetDayTime(0, MIDNIGHT, player="alice"))
        assert (alice.damage_enabled, session.player.damage_enabled, session.day_time) == (False, True, MIDNIGHT)
        with pytest.raises(ValueError, match="bob"):
            session.apply(SetPeaceful(0, True, player="bob"))  # not playing: refused, nothing changes
        assert [p.damage_enabled for p in session.players.values()] == [True, False]


# --- the window changes the game only through events ------------------------------------------------

WINDOW_SOURCES = [Path(find_spec("game.window.app").origin),
                  *sorted(path for folder in find_spec("game.window.ui").submodule_search_locations
                          for path in Path(folder).glob("*.py"))]
"""The window's code: its frame loop and its screens (found where the modules are, without importing Ursina)."""
GAME_SETTERS = {"set_day_time", "look_at"}
"""Session, player and world methods that change the game directly (the time of day; the look, which
the mouse turns): the window must send an event instead."""
GAME_FIELDS = {"damage_enabled", "day_time", "toggles", "hotbar", "inventory_open", "flying", "body"}
"""Session and player state the window must never assign: events change it."""


def direct_changes(path: Path) -> list[str]:
    """Where `path` calls a GAME_SETTERS method on anything but `self`, or assigns a GAME_FIELDS attribute."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in GAME_SETTERS
                and not (isinstance(node.func.value, ast.Name) and node.func.value.id == "self")):
            found.append((node.lineno, f"{path.name}:{node.lineno}: calls {node.func.attr}"))
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            if isinstance(target, ast.Attribute) and target.attr in GAME_FIELDS:
                found.append((node.lineno, f"{path.name}:{node.lineno}: assigns .{target.attr}"))
    return [text for _, text in sorted(found)]


def test_the_window_and_its_screens_change_the_games_time_and_damage_only_through_events():
    assert len(WINDOW_SOURCES) > 5  # the app and its screens were found
    assert [change for path in WINDOW_SOURCES for change in direct_changes(path)] == []


def test_the_check_for_direct_changes_finds_one(tmp_path):
    source = tmp_path / "window.py"
    source.write_text("def f(game):\n    game.rules.session.set_day_time(6000)\n    game.rules.session.damage_enabled = False\n")
    assert direct_changes(source) == ["window.py:2: calls set_day_time", "window.py:3: assigns .damage_enabled"]
