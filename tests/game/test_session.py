"""The headless session: the game's input rules and tick order with no window, the same run from the
command line (`--headless`, no Ursina loaded), and replays recorded before the session existed
replaying to the same bodies and blocks."""

from __future__ import annotations

import dataclasses
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from game.frontends.cli import main, parse_options
from game.rules.controls import KeyBindings
from game.rules.hotbar import Hotbar
from game.world.lab import SPAWN_FEET
from game.rules.lab_session import lab_session
from game.rules.player import Player, PlayerStateError
from game.rules.player_actions import SessionView
from game.rules.replay import Click, KeyDown, KeyUp, Look, ReplayFormatError, read_replay
from game.rules.session import AUTOSAVE_TICKS, Session
from game.world import World
from tests.game.hostile_values import junk_player_states
from tests.game.scripted_runs import CLEARANCE, PLATFORM, flatten

REPO_ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"
MIXED_PLAY = DATA / "mixed_play.jsonl"
"""A 170-tick replay of walking, sprinting, jumping, sneaking, flying, spawning mobs (M), throwing (Q),
breaking, placing and picking blocks and choosing a hotbar slot."""
MIXED_PLAY_EXPECTED = DATA / "mixed_play_expected.json"
"""What that replay gave after 200 ticks when the rules lived in the window class (played by a
transcription of its tick on the code before the session): every body bit for bit (float hex),
the edited blocks, the hotbar and flying."""
SEED = 42


def platform_world(path: Path) -> None:
    """A seed-42 world with the display tests' flat grass platform around the spawn."""
    with World.create(path, SEED) as world:
        flatten(world, math.floor(world.spawn[1]) - 1, *PLATFORM, CLEARANCE)


def hex_bodies(report: dict) -> list[dict]:
    return [{"kind": b["kind"], "box": [v.hex() for v in b["box"]], "velocity": [v.hex() for v in b["velocity"]]}
            for b in report["bodies"]]


@pytest.fixture
def lab():
    return lab_session()


# --- the input rules ------------------------------------------------------------------------------

def test_keys_held_between_ticks_move_the_player_exactly_as_physics_step_does(lab):
    lab.run([Look(0, 0.0, 0.0), KeyDown(0, "w")], 20)
    body = lab.world.spawn_body()
    for _ in range(20):
        body = physics.step(body, lab.world, physics.Intent(forward=1.0, yaw=0.0))
    assert lab.player.body == body and lab.ticks_run == 20


def test_m_spawns_a_mob_on_the_targeted_face_and_q_throws_a_projectile(lab):
    lab.run([Look(0, 0.0, 40.0), KeyDown(0, "m"), KeyUp(1, "m")], 2)
    (mob,) = lab.mobs.bodies
    assert mob.feet[1] == 0.0 and mob.feet[2] > SPAWN_FEET[2] + 1.0  # on the floor, south of the player
    lab.run([KeyDown(2, "q")], 1)
    (projectile,) = lab.projectiles.bodies
    assert projectile.velocity[2] > 1.0  # flying south


def test_clicks_break_place_and_pick_the_targeted_block_and_digits_choose_the_slot(lab):
    lab.damage_enabled = False  # peaceful: a left click breaks at once (digging: tests/game/test_mining.py)
    lab.run([Look(0, 0.0, 60.0), KeyDown(0, "8"), Click(0, "right")], 1)  # slot 8 holds brick
    (cell,) = lab.edited_cells
    assert lab.world.get_block(*cell) == "brick" and lab.hotbar.selected == 7
    assert lab.report()["edited_blocks"] == [[*cell, "brick"]]
    lab.run([KeyDown(1, "1"), Click(1, "middle")], 1)
    assert lab.hotbar.selected == 7  # pick-block selects the slot that holds brick
    lab.run([Click(2, "left")], 1)
    assert lab.world.get_block(*cell) == "air" and lab.report()["edited_blocks"] == [[*cell, "air"]]


def test_f_toggles_flying_and_the_overlay_and_hud_keys_change_only_what_they_show(lab):
    lab.run([KeyDown(0, "f3")], 1)
    assert (lab.toggles.overlay_panel, lab.toggles.overlay_boxes) == (True, True)
    lab.run([KeyDown(1, "b"), KeyDown(1, "f1"), KeyDown(1, "f2"), KeyDown(1, "f2")], 1)
    assert (lab.toggles.overlay_panel, lab.toggles.overlay_boxes, lab.toggles.hud_visible) == (True, False, False)
    assert lab.take_screenshot_requests() == 2 and lab.take_screenshot_requests() == 0
    lab.run([KeyDown(2, "f3")], 1)
    assert not lab.toggles.overlay
    lab.run([KeyDown(3, "f")], 1)
    assert lab.player.flying and lab.report()["flying"] is True
    assert lab.player.body.box == physics.Body.at_feet(*SPAWN_FEET).box  # none of these moved the player


def test_an_event_that_is_not_an_input_event_is_refused_and_changes_nothing(lab):
    before = lab.report()
    with pytest.raises(TypeError, match="not an input event"):
        lab.apply({"tick": 0, "event": "key_down", "key": "w"})
    assert lab.report() == before


def test_run_applies_each_event_just_before_the_tick_it_names(lab):
    one_by_one = lab_session()
    events = [Look(0, 0.0, 0.0), KeyDown(3, "w"), KeyDown(5, "space"), KeyUp(9, "w")]
    lab.run(events, 12)
    for tick in range(12):
        for event in events:
            if event.tick == tick:
                one_by_one.apply(event)
        one_by_one.tick()
    assert lab.report() == one_by_one.report()


# --- saving ---------------------------------------------------------------------------------------

def test_a_saved_session_reopens_with_the_same_player_hotbar_and_mobs(tmp_path):
    path = tmp_path / "w.boxel"
    platform_world(path)
    with World.open(path) as world:
        session = Session.open(world, autosave=False)
        session.run(read_replay(MIXED_PLAY), 100)
        session.save()
        saved = session.report()
    with World.open(path) as world:
        reopened = Session.open(world, autosave=False)
        report = reopened.report()
        assert hex_bodies(report)[0] == hex_bodies(saved)[0]  # the player's box and velocity, bit for bit
        for field in ("yaw", "pitch", "flying", "hotbar", "edited_blocks"):
            assert report[field] == (saved[field] if field != "edited_blocks" else [])  # edits are this session's
        assert reopened.mobs.bodies == ()  # mobs come back with their columns on the first tick
        reopened.tick()
        assert len(reopened.mobs.bodies) == len(session.mobs.bodies) >= 2


def test_the_session_autosaves_every_minute_of_play(lab):
    saves = []
    lab.on_save = lambda: saves.append(lab.ticks_run)
    lab.run([], 2 * AUTOSAVE_TICKS + 1)
    assert saves == [AUTOSAVE_TICKS, 2 * AUTOSAVE_TICKS]
    assert lab.world.player_state == lab.player.to_state(lab.hotbar)


def test_an_autosave_on_a_full_disk_tells_the_player_and_play_goes_on_until_a_later_save_writes_it(tmp_path):
    from game.world import WorldDiskFullError

    path = tmp_path / "w.boxel"
    platform_world(path)
    with World.open(path) as world:
        session = Session.open(world)
        real_save = world.save
        full = {"disk": True}

        def save():
            if full["disk"]:
                raise WorldDiskFullError("the disk is full (test)")
            real_save()

        world.save = save
        session.run(read_replay(MIXED_PLAY), AUTOSAVE_TICKS)  # the autosave fails
        told = session.take_notices()
        assert len(told) == 1 and "Could not save" in told[0] and "the disk is full (test)" in told[0]
        assert session.take_notices() == []  # told once
        full["disk"] = False
        session.run([], AUTOSAVE_TICKS)  # the next autosave writes the play so far
        saved = session.report()
        assert saved["notices"] == told
    with World.open(path) as world:
        reopened = Session.open(world, autosave=False).report()
        assert hex_bodies(reopened)[0] == hex_bodies(saved)[0]
        assert reopened["edited_blocks"] == []  # the edits are in the file: the reopened session made none
        assert world.get_block(*saved["edited_blocks"][0][:3]) == saved["edited_blocks"][0][3]


def test_damage_found_in_the_world_file_is_told_to_the_player_once(lab):
    from game.world import WorldProblem

    problems = [WorldProblem((3, -2), "blocks", "bad zlib stream")]
    lab.world.take_problems = lambda: [problems.pop()] if problems else []
    lab.tick()
    lab.tick()
    told = lab.take_notices()
    assert len(told) == 1 and "x 48..63, z -32..-17" in told[0] and "bad zlib stream" in told[0]
    assert lab.report()["notices"] == told


def test_a_session_without_autosave_writes_only_when_asked(lab):
    quiet = Session(lab.world, Player(lab.world, lab.world.spawn_body()), Hotbar(), autosave=False)
    quiet.run([], AUTOSAVE_TICKS)
    assert lab.world.player_state is None


# --- replays from before the session --------------------------------------------------------------

def test_a_replay_recorded_before_the_session_replays_to_the_same_bodies_blocks_and_hotbar(tmp_path):
    path = tmp_path / "mixed.boxel"
    platform_world(path)
    expected = json.loads(MIXED_PLAY_EXPECTED.read_text())
    with World.open(path) as world:
        session = Session.open(world, autosave=False)
        session.damage_enabled = False  # peaceful keeps the rule it was recorded under: a left click breaks at once
        session.run(read_replay(MIXED_PLAY), expected["ticks"])
        report = session.report()
    assert hex_bodies(report) == expected["bodies"]
    assert report["edited_blocks"] == expected["edited_blocks"]
    assert (report["hotbar"], report["flying"]) == (expected["hotbar"], expected["flying"])
    assert len(expected["bodies"]) >= 4 and expected["edited_blocks"]  # the replay exercises mobs and building


# --- the command line -----------------------------------------------------------------------------

def run_headless(*args: str) -> subprocess.CompletedProcess:
    """`python main.py --headless *args` in a process that then prints the engine modules it loaded."""
    code = ("import sys; from game.frontends.cli import main; status = main(sys.argv[1:]); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('ursina', 'panda3d', 'direct'))); "
            "sys.exit(status)")
    return subprocess.run([sys.executable, "-c", code, "--headless", *args], cwd=REPO_ROOT, capture_output=True,
                          text=True, timeout=120)


def test_a_headless_run_plays_the_replay_with_no_ursina_loaded_and_writes_the_sessions_report(tmp_path):
    path = tmp_path / "mixed.boxel"
    platform_world(path)
    expected = json.loads(MIXED_PLAY_EXPECTED.read_text())
    report_path = tmp_path / "out" / "report.json"
    done = run_headless("--world", str(path), "--replay", str(MIXED_PLAY), "--exit-after-ticks",
                        str(expected["ticks"]), "--report", str(report_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"  # no Ursina, Panda3D or direct module was imported
    report = json.loads(report_path.read_text())
    assert hex_bodies(report) == expected["bodies"] and report["ticks_run"] == expected["ticks"]
    with World.open(path) as world:  # saved on exit (with damage on, the left click digs: no block breaks at once)
        assert [world.get_block(*cell) for *cell, _ in report["edited_blocks"]] == [
            name for *_, name in report["edited_blocks"]] and report["edited_blocks"]
        assert world.player_state["box"] == report["box"]


def test_the_lab_runs_headless_too(tmp_path):
    report_path = tmp_path / "lab.json"
    replay = tmp_path / "walk.jsonl"
    replay.write_text('{"tick": 0, "event": "key_down", "key": "w"}\n')
    done = run_headless("--lab", "--replay", str(replay), "--exit-after-ticks", "10", "--report", str(report_path))
    assert done.returncode == 0, done.stderr
    session = lab_session()
    session.run(read_replay(replay), 10)
    assert json.loads(report_path.read_text()) == json.loads(json.dumps(session.report()))


@pytest.mark.parametrize("args, message", [
    (["--headless"], "--headless needs --exit-after-ticks"),
    (["--headless", "--exit-after-ticks", "5", "--screenshot", "a.png"], "cannot save a --screenshot"),
    (["--headless", "--exit-after-ticks", "5", "--realtime"], "--realtime needs a window"),
])
def test_a_headless_run_that_cannot_do_what_it_is_asked_is_a_usage_error(args, message, capsys):
    with pytest.raises(SystemExit) as stopped:
        parse_options(args)
    assert stopped.value.code == 2 and message in capsys.readouterr().err


def test_a_headless_run_reports_a_world_it_cannot_open_without_touching_it(tmp_path, capsys):
    path = tmp_path / "junk.boxel"
    path.write_bytes(b"not a world")
    assert main(["--headless", "--world", str(path), "--exit-after-ticks", "1"]) == 2
    assert "boxel: error:" in capsys.readouterr().err and path.read_bytes() == b"not a world"


def test_a_session_with_other_bindings_uses_them_for_movement_and_for_the_games_keys(tmp_path):
    path = tmp_path / "keys.boxel"
    platform_world(path)
    bindings = KeyBindings(forward=frozenset({"i"}), fly=frozenset({"g"}), hotbar_slots=tuple("qwertyuio"))
    with World.open(path) as world:
        session = Session.open(world, autosave=False, bindings=bindings)
        start = session.player.body.feet
        session.run([KeyDown(0, "i"), KeyDown(0, "w"), KeyDown(0, "g")], 10)
        assert session.player.flying and session.hotbar.selected == 1
        assert session.player.body.feet != start


# --- hostile input and saves: a session never saves a player that cannot load, and always opens ----

def hostile_look_replay(path: Path, yaw: str) -> Path:
    path.write_text(f'{{"tick": 0, "event": "look", "yaw": {yaw}, "pitch": 0.0}}\n'
                    '{"tick": 1, "event": "key_down", "key": "w"}\n', encoding="utf-8")
    return path


@pytest.mark.parametrize("yaw, wrapped", [("1e7", 280.0), ("1e308", 296.0)])
def test_a_replay_looking_at_a_huge_yaw_plays_and_the_world_plays_again_after_it(tmp_path, yaw, wrapped):
    replay = hostile_look_replay(tmp_path / "look.jsonl", yaw)
    world = tmp_path / "w.boxel"
    for launch, extra in enumerate((["--new"], [])):
        report = tmp_path / f"report{launch}.json"
        done = subprocess.run([sys.executable, "main.py", "--headless", *extra, "--world", str(world), "--replay",
                               str(replay), "--exit-after-ticks", "5", "--report", str(report)],
                              cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr and "warning" not in done.stderr
        assert json.loads(report.read_text())["yaw"] == wrapped
    with World.open(world) as opened:
        assert opened.player_state["yaw"] == wrapped


def test_a_world_whose_saved_player_cannot_be_used_opens_with_the_player_at_the_spawn_every_time(tmp_path):
    path = tmp_path / "w.boxel"
    platform_world(path)
    with World.open(path) as world:
        spawn = Session.open(world, autosave=False).player.body
        world.player_state = {**Session.open(world).player.to_state(Hotbar()), "pitch": 1e308}
        world.save()
    args = ["--headless", "--world", str(path), "--exit-after-ticks", "3"]
    first, second = run_headless(*args), run_headless(*args)
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert "boxel: warning: the saved player's pitch must be within" in first.stderr
    assert "the player starts at the spawn" in first.stderr and "Traceback" not in first.stderr
    assert "warning" not in second.stderr  # the first run saved a player that loads
    with World.open(path) as world:
        assert Session.open(world, autosave=False).saved_player_problem is None
        assert world.player_state["box"] == list(spawn.box) and world.player_state["pitch"] == 0.0


@pytest.mark.parametrize("damage", [
    lambda valid: {"version": 1, "box": "here"},
    lambda valid: {**valid, "yaw": float("nan")},
    lambda valid: {**valid, "pitch": 1e308},
    lambda valid: {**valid, "hotbar": [[[[[]]]]]},
    lambda valid: "not an object",
])
def test_a_session_opened_on_an_unusable_saved_player_starts_it_at_the_spawn_and_says_why(lab, damage):
    arena = lab.world
    lab.player.input.look_at(90.0, 45.0)
    arena.player_state = damage(lab.player.to_state(lab.hotbar))
    session = Session.open(arena, autosave=False)
    assert session.saved_player_problem.startswith("the saved player")
    assert session.saved_player_problem.endswith("the player starts at the spawn")
    assert session.report()["saved_player_problem"] == session.saved_player_problem
    assert session.player.body == Player.spawned(arena).body and session.hotbar.slots == Hotbar().slots
    session.tick()
    session.save()
    assert Session.open(arena).saved_player_problem is None  # the save replaced the unusable state


def test_a_save_that_would_write_a_player_that_cannot_load_keeps_the_last_saved_player(lab, monkeypatch):
    lab.save()
    good = lab.world.player_state
    monkeypatch.setattr(lab.player, "to_state", lambda hotbar: {**good, "yaw": float("inf")})
    with pytest.raises(PlayerStateError, match="the player was not saved.*'yaw'"):
        lab.save()
    assert lab.world.player_state is good


def test_the_save_on_the_way_out_of_a_crash_writes_a_player_that_loads(tmp_path, monkeypatch):
    from game.frontends import headless

    path = tmp_path / "w.boxel"
    platform_world(path)
    options = parse_options(["--headless", "--world", str(path), "--exit-after-ticks", "10"])
    options = dataclasses.replace(options, replay=(Look(0, 1e308, 0.0), KeyDown(0, "w")))
    session = Session.open(World.open(path), autosave=False)
    real_tick = session.tick

    def crash_on_the_third_tick():
        if session.ticks_run == 3:
            raise RuntimeError("a bug in a tick")
        real_tick()

    monkeypatch.setattr(session, "tick", crash_on_the_third_tick)
    with pytest.raises(RuntimeError, match="a bug in a tick"):
        headless.run(options, session)
    with World.open(path) as world:
        reopened = Session.open(world, autosave=False)
        assert reopened.saved_player_problem is None and reopened.player.input.yaw == 296.0
        reopened.run([], 3)


HOSTILE_NUMBERS = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-2**80, 2**80),
                            st.sampled_from([1e7, 1e308, -1e308, 5e-324, -0.0, 360.0, -360.0]),
                            st.booleans(), st.text(max_size=3), st.none())
GAME_KEYS = sorted(key for keys in dataclasses.astuple(KeyBindings()) for key in keys)


def hostile_event(tick: int, kind: str, a, b):
    """An event made from hostile field values; None when the event type refuses them."""
    make = {"look": lambda: Look(tick, a, b), "key_down": lambda: KeyDown(tick, a), "key_up": lambda: KeyUp(tick, a),
            "click": lambda: Click(tick, a)}[kind]
    try:
        return make()
    except ReplayFormatError:
        return None


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["look", "key_down", "key_up", "click"]),
                          st.one_of(HOSTILE_NUMBERS, st.sampled_from(GAME_KEYS + ["left", "right", "middle"])),
                          HOSTILE_NUMBERS, st.integers(0, 3)), max_size=12))
def test_hostile_events_never_break_a_tick_or_a_save_and_the_save_always_loads(steps):
    session = lab_session()
    session.autosave = False
    for kind, a, b, ticks in steps:
        event = hostile_event(session.ticks_run, kind, a, b)
        if event is not None:
            session.apply(event)
        for _ in range(ticks):
            session.tick()
    look = session.player.input
    assert 0.0 <= look.yaw < 360.0 and -90.0 <= look.pitch <= 90.0
    session.save()
    state = json.loads(json.dumps(session.world.player_state, allow_nan=False))
    session.world.player_state = state
    reopened = Session.open(session.world, autosave=False)
    assert reopened.saved_player_problem is None
    assert reopened.player.body.box == session.player.body.box and reopened.player.input.yaw == look.yaw
    reopened.tick()


@settings(max_examples=100, deadline=None)  # the parser alone meets 400 such states (test_player.py)
@given(junk_player_states())
def test_a_session_opens_on_any_saved_player_state_and_saves_one_that_loads(state):
    session = lab_session()
    session.world.player_state = state
    opened = Session.open(session.world, autosave=False)
    if opened.saved_player_problem is not None:
        assert opened.player.body == Player.spawned(session.world).body  # a new player at the spawn
    opened.tick()
    opened.save()
    assert Session.open(session.world, autosave=False).saved_player_problem is None


def test_a_session_has_everything_its_input_rules_see_of_it(lab):
    # `SessionView` is declared for the input rules (`game.rules.player_actions`), not checked when
    # they run: every attribute, property and method it names must be the session's.
    named = set(SessionView.__annotations__) | {name for name in vars(SessionView) if not name.startswith("_")}
    assert {"world", "players", "target", "notify"} <= named
    assert [name for name in sorted(named) if not hasattr(lab, name)] == []
