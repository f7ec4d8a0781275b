"""Many players in one session: each with its own body, hotbar, digging,
toggles and inventory; they push each other with the physics' push; one player's edit is what
another sees; a replay names the player of each line, and a two-player replay plays the same bits
every time, in process and headless."""

from __future__ import annotations

import json
import math

import pytest

import physics
from physics.push import push_region
from game.rules.mobs import MobManager
from game.rules.player import LOCAL_PLAYER, check_player_name
from game.rules.player_steps import PlayerSteps
from game.rules.replay import Click, KeyDown, Look, ReplayFormatError, format_event, parse_event, read_replay
from game.rules.session import Session
from game.world import World
from tests.game.test_session import DATA, SEED, hex_bodies, platform_world, run_headless

TWO_PLAYERS = DATA / "two_players.jsonl"
"""A 110-tick replay of three players: the local one walks and digs, "alice" joins at tick 3,
walks, places a block, throws and digs, "bob" joins at tick 10, walks, jumps, spawns a mob and flies."""
TWO_PLAYERS_TICKS = 130


@pytest.fixture(scope="module")
def platform_bytes(tmp_path_factory) -> bytes:
    """The bytes of a seed-42 world with the display tests' flat platform around the spawn."""
    path = tmp_path_factory.mktemp("many") / "platform.boxel"
    platform_world(path)
    return path.read_bytes()


@pytest.fixture
def world(tmp_path, platform_bytes):
    path = tmp_path / "w.boxel"
    path.write_bytes(platform_bytes)
    with World.open(path, workers=1) as opened:
        yield opened


def played(path, ticks: int = TWO_PLAYERS_TICKS) -> dict:
    with World.open(path, workers=1) as world:
        session = Session.open(world, autosave=False)
        session.run(read_replay(TWO_PLAYERS), ticks)
        return session.report()


# --- players and their own state ------------------------------------------------------------------

def test_a_joined_player_stands_at_the_spawn_and_the_players_are_listed_in_join_order(world):
    session = Session.open(world, autosave=False)
    alice = session.join("alice")
    bob = session.join("bob")
    assert list(session.players) == [LOCAL_PLAYER, "alice", "bob"]
    assert session.players["alice"] is alice and session.player.name == LOCAL_PLAYER
    assert alice.body == bob.body == session.player.body  # a new name starts where a new world's player does
    with pytest.raises(TypeError):
        session.players["carol"] = alice  # read-only


@pytest.mark.parametrize("name", ["", "a" * 17, "two words", "dash-ed", "é", "alice\n", "../x"])
def test_a_bad_player_name_is_refused_by_join_and_by_a_replay_line(world, name):
    session = Session.open(world, autosave=False)
    with pytest.raises(ValueError, match="1..16 letters, digits or underscores"):
        session.join(name)
    with pytest.raises(ReplayFormatError, match='"player"'):
        KeyDown(0, "w", player=name)
    line = json.dumps({"tick": 0, "event": "key_down", "key": "w", "player": name})
    with pytest.raises(ReplayFormatError, match='"player"'):
        parse_event(line)
    assert list(session.players) == [LOCAL_PLAYER]


def test_a_player_name_that_is_not_text_is_a_type_error():
    with pytest.raises(TypeError, match="a player name is a str"):
        check_player_name(7)
    assert check_player_name("Notch_1") == "Notch_1"


def test_joining_a_name_already_playing_is_refused_and_changes_nothing(world):
    session = Session.open(world, autosave=False)
    alice = session.join("alice")
    with pytest.raises(ValueError, match="'alice' is already playing"):
        session.join("alice")
    with pytest.raises(ValueError, match="already playing"):
        session.join(LOCAL_PLAYER)
    assert list(session.players) == [LOCAL_PLAYER, "alice"] and session.players["alice"] is alice


def test_an_event_for_a_player_not_playing_is_refused_naming_it(world):
    session = Session.open(world, autosave=False)
    with pytest.raises(ValueError, match="no player named 'carol' is playing"):
        session.apply(KeyDown(0, "w", player="carol"))
    with pytest.raises(ValueError, match="no player named 'carol'"):
        session.apply(KeyDown(0, "w"), player="carol")
    assert session.player.input.held == set()


def test_apply_acts_for_the_player_named_by_the_argument_or_else_by_the_event(world):
    session = Session.open(world, autosave=False)
    alice = session.join("alice")
    session.apply(KeyDown(0, "3"), player="alice")
    session.apply(KeyDown(0, "5", player="alice"))
    session.apply(KeyDown(0, "f3", player="alice"))
    session.apply(KeyDown(0, "e", player="alice"))
    assert alice.hotbar.selected == 4 and alice.toggles.overlay and alice.inventory_open
    assert session.hotbar.selected == 0 and not session.toggles.overlay and not session.inventory_open
    assert session.hotbar is session.player.hotbar is not alice.hotbar


def test_each_player_digs_with_its_own_attack_button(world):
    session = Session.open(world, autosave=False)
    alice = session.join("alice")
    session.apply(Look(0, 0.0, 90.0, player="alice"))
    session.apply(Click(0, "left", player="alice"))
    session.tick()
    assert alice.mining.held and not session.mining.held
    assert alice.mining.progress is not None and alice.mining.progress.cell == (0, 66, 0)


# --- pushes -----------------------------------------------------------------------------------------

def test_two_overlapping_players_push_each_other_apart_by_exactly_the_physics_push(world):
    session = Session.open(world, autosave=False)
    local, alice = session.player, session.join("alice")
    x, y, z = local.body.feet
    alice.body = alice.previous = physics.Body.at_feet(x + 0.25, y, z + 0.125)
    expected_local, expected_alice = local.body, alice.body
    pushed_ticks = 0
    for _ in range(40):
        intents = local.intent(), alice.intent()
        expected_local = physics.step(expected_local, world, intents[0], local.settings)
        expected_alice = physics.step(expected_alice, world, intents[1], alice.settings)
        # Join order: the local player (Beta's `me`) pushes alice, then alice pushes the local player.
        if push_region(expected_local.box).intersects(expected_alice.box):
            expected_local, expected_alice = physics.push(expected_local, expected_alice)
            pushed_ticks += 1
        if push_region(expected_alice.box).intersects(expected_local.box):
            expected_alice, expected_local = physics.push(expected_alice, expected_local)
        session.tick()
        assert (local.body, alice.body) == (expected_local, expected_alice)  # bit for bit, every tick
    assert pushed_ticks >= 3
    assert local.body.box.overlap_depth(alice.body.box) <= physics.CONTACT_TOLERANCE  # apart
    assert not push_region(local.body.box).intersects(alice.body.box)  # and no longer pushing
    for body in (local.body, alice.body):
        assert all(body.box.overlap_depth(block) <= physics.CONTACT_TOLERANCE
                   for block in world.collision_boxes(body.box))
        assert body.feet[1] == y  # the push is sideways only: both stand where they stood


def test_players_at_the_very_same_spot_are_not_pushed(world):
    session = Session.open(world, autosave=False)
    alice = session.join("alice")
    session.tick()
    assert alice.body == session.player.body and alice.body.velocity[0] == alice.body.velocity[2] == 0.0


def test_the_mob_tick_given_one_body_or_a_list_of_it_moves_everything_alike(world):
    spawn = physics.Body.at_feet(*world.spawn)
    one, many = MobManager(world, SEED), MobManager(world, SEED)
    for mobs in (one, many):
        x, y, z = spawn.feet
        mobs.spawn((x + 0.5, math.floor(y), z + 0.3))
    body, bodies = spawn, (spawn,)
    for _ in range(3):
        body, bodies = one.tick(body), many.tick(list(bodies))
    assert bodies == (body,) and one.bodies == many.bodies and body.velocity != (0.0, 0.0, 0.0)
    with pytest.raises(TypeError, match="players' physics.Body"):
        many.tick([spawn, "not a body"])


def test_mobs_push_every_player_and_every_player_pushes_the_mobs(world):
    session = Session.open(world, autosave=False)
    alice = session.join("alice")
    x, y, z = session.player.body.feet
    alice.body = alice.previous = physics.Body.at_feet(x + 3.0, y, z)
    for player in (session.player, alice):
        px, py, pz = player.body.feet
        session.mobs.spawn((px + 0.3, py, pz + 0.2))
    session.tick()
    for player in (session.player, alice):
        assert player.body.velocity[0] < 0.0  # each pushed west by the mob east of it
    assert all(mob.velocity[0] > 0.0 for mob in session.mobs.bodies)  # each mob pushed east by its player


# --- what one player does, another sees ---------------------------------------------------------------

def test_one_players_placed_block_is_the_block_the_other_player_targets(world):
    session = Session.open(world, autosave=False)
    alice = session.join("alice")
    session.apply(Look(0, 0.0, 45.0, player="alice"))
    before = session.report()["players"]["alice"]["targeted_block"]
    assert before["name"] == "grass"
    x, y, z = before["block"]
    session.apply(KeyDown(0, "8"))  # the local player's slot 8: brick
    session.apply(Look(0, 0.0, 45.0))  # from the same eye: the same grass block
    session.apply(Click(0, "right"))
    session.tick()
    assert world.get_block(x, y + 1, z) == "brick"
    report = session.report()
    assert report["players"]["alice"]["targeted_block"] == {"block": [x, y + 1, z], "name": "brick",
                                                           "face": [0, 0, -1]}
    assert report["edited_blocks"] == [[x, y + 1, z, "brick"]]
    assert alice.hotbar.selected == 0  # placing spent nothing of alice's


def test_the_report_lists_every_players_fields_by_name_and_every_players_body_in_join_order(world):
    session = Session.open(world, autosave=False)
    session.join("alice")
    session.apply(Look(0, 90.0, 10.0, player="alice"))
    session.tick()
    report = session.report()
    local_fields = {key: report[key] for key in report["players"][LOCAL_PLAYER]}
    assert local_fields == report["players"][LOCAL_PLAYER]  # the top level stays the local player's
    assert report["players"]["alice"]["yaw"] == 90.0 and report["yaw"] == 0.0
    assert list(report["players"]["alice"]) == ["feet", "box", "velocity", "on_ground", "collided_horizontally",
                                                "collided_vertically", "camera_lag", "yaw", "pitch", "flying",
                                                "health", "air", "fire", "dead", "damage_enabled", "section",
                                                "targeted_block", "hotbar", "inventory_open"]
    players = [body for body in report["bodies"] if body["kind"] == "player"]
    assert [body["box"] for body in players] == [list(p.body.box) for p in session.players.values()]


def test_leave_saves_the_player_into_the_world_and_removes_it(world):
    session = Session.open(world, autosave=False)
    alice = session.join("alice")
    session.apply(Look(0, 123.0, 4.0, player="alice"))
    session.leave("alice")
    assert list(session.players) == [LOCAL_PLAYER]
    assert world.saved_player_state("alice") == alice.to_state()
    with pytest.raises(ValueError, match="no player named 'alice' is playing"):
        session.leave("alice")
    back = session.join("alice")
    assert back is not alice and (back.input.yaw, back.input.pitch) == (123.0, 4.0) and back.body == alice.body


def test_the_local_player_may_leave_and_the_others_play_on(world):
    session = Session.open(world, autosave=False)
    alice = session.join("alice")
    session.apply(KeyDown(0, "w", player="alice"))
    session.leave(LOCAL_PLAYER)
    session.tick()
    report = session.report()
    assert list(report["players"]) == ["alice"] and "feet" not in report and report["ticks_run"] == 1
    assert alice.body.velocity[2] > 0.0  # walking on
    with pytest.raises(LookupError, match="has left"):
        session.player


# --- replays ----------------------------------------------------------------------------------------

def test_a_line_without_a_player_is_the_local_players_and_is_written_as_before():
    assert parse_event('{"tick": 3, "event": "key_down", "key": "w"}') == KeyDown(3, "w", player=LOCAL_PLAYER)
    assert format_event(KeyDown(3, "w")) == '{"tick": 3, "event": "key_down", "key": "w"}'
    line = '{"tick": 3, "event": "key_down", "key": "w", "player": "alice"}'
    assert format_event(parse_event(line)) == line


def test_a_two_player_replay_plays_the_same_bits_twice_in_process_and_headless(tmp_path, platform_bytes):
    first, second, headless = (tmp_path / f"{name}.boxel" for name in ("first", "second", "headless"))
    for path in (first, second, headless):
        path.write_bytes(platform_bytes)
    report = played(first)
    assert played(second) == report
    report_path = tmp_path / "headless.json"
    done = run_headless("--world", str(headless), "--replay", str(TWO_PLAYERS),
                        "--exit-after-ticks", str(TWO_PLAYERS_TICKS), "--report", str(report_path))
    assert done.returncode == 0, done.stderr
    headless_report = json.loads(report_path.read_text())
    assert hex_bodies(headless_report) == hex_bodies(report)
    assert headless_report["players"] == json.loads(json.dumps(report["players"]))
    assert list(report["players"]) == [LOCAL_PLAYER, "alice", "bob"]
    assert [b["kind"] for b in report["bodies"]][:4] == ["player", "player", "player", "mob"]
    assert report["players"]["bob"]["flying"] and report["edited_blocks"]  # the replay did what it says
    assert any(name == "dirt" for *_, name in report["edited_blocks"])  # alice's placed block
    with World.open(headless, workers=1) as world:  # the run saved every player by name
        assert world.player_states() == ("alice", "bob", LOCAL_PLAYER)
        assert world.saved_player_state("bob")["box"] == report["players"]["bob"]["box"]


def test_a_headless_recording_of_a_two_player_replay_writes_the_player_field_only_for_the_others(
        tmp_path, platform_bytes):
    path, recording = tmp_path / "w.boxel", tmp_path / "recorded.jsonl"
    path.write_bytes(platform_bytes)
    done = run_headless("--world", str(path), "--replay", str(TWO_PLAYERS), "--exit-after-ticks", "40",
                        "--record", str(recording))
    assert done.returncode == 0, done.stderr
    written = [json.loads(line) for line in recording.read_text().splitlines()]
    source = [json.loads(line) for line in TWO_PLAYERS.read_text().splitlines() if json.loads(line)["tick"] < 40]
    assert written == source
    assert {line.get("player") for line in written} == {None, "alice", "bob"}


def test_each_walking_player_makes_its_own_steps_where_it_walks(world):
    walk_west = [Look(0, 90.0, 0.0), KeyDown(0, "w")]
    alone = Session.open(world, autosave=False)
    alone.run(walk_west, 30)
    steps_alone = [sound for sound in alone.take_sounds() if sound.name.startswith("step_")]
    session = Session.open(world, autosave=False)
    session.join("alice")
    session.run([*walk_west, Look(0, 270.0, 0.0, player="alice"), KeyDown(0, "w", player="alice")], 30)
    steps = [sound for sound in session.take_sounds() if sound.name.startswith("step_")]
    west = [sound for sound in steps if sound.position[0] < 0.5]
    east = [sound for sound in steps if sound.position[0] > 0.5]
    assert len(west) + len(east) == len(steps) and len(steps_alone) >= 3
    # Each player's steps are counted by its own walked distance: as many as walking alone.
    assert len(west) == len(east) == len(steps_alone)


def test_a_projectile_hits_whichever_player_it_meets_and_knocks_that_one_back(world):
    session = Session.open(world, autosave=False)
    alice = session.join("alice")
    x, y, z = session.player.body.feet
    alice.body = alice.previous = physics.Body.at_feet(x + 8.0, y, z)
    standing = alice.body
    session.run([Look(0, 270.0, 0.0), KeyDown(0, "q")], 15)  # the local player throws east, at alice
    assert alice.body.feet[0] > standing.feet[0] and alice.body.velocity[0] > 0.0  # knocked east, away
    assert session.player.body.feet == (x, y, z)  # the thrower was never hit


# --- the players' own steps, taken together ---------------------------------------------------------

def body_bits(body: physics.Body) -> tuple:
    return (tuple(v.hex() for v in (*body.box, *body.velocity, body.camera_lag, body.fall_distance))
            + (body.on_ground, body.collided_horizontally, body.collided_vertically, body.touching))


def test_sixty_players_stepped_together_move_each_exactly_as_physics_step_moves_it_alone(world):
    session = Session.open(world, autosave=False)
    players = [session.player, *(session.join(f"p{k:02d}") for k in range(59))]  # many on one spot
    steps = PlayerSteps(world, session.player.settings)
    for k, player in enumerate(players):
        x, y, z = player.body.feet
        if k % 3:  # a third stay on the spawn, equal bodies
            player.body = physics.Body.at_feet(x + (k % 8) * 0.7, y + 2.0, z + (k // 8) * 0.7)
        player.apply(Look(0, (k * 37.0) % 360.0, 0.0))
        player.apply(KeyDown(0, "w"))
        if k % 4 == 0:
            player.apply(KeyDown(0, "space"))
        if k % 7 == 0:
            player.apply(KeyDown(0, "shift"))  # sneaking: the edge guard, stepped alone within the crowd
    session.apply(KeyDown(0, "f3"), player=players[5].name)  # its overlay shown: stepped alone, its move reported
    assert players[5].toggles.overlay
    for _ in range(4):
        expected = [physics.step(player.body, world, player.input.intent(), player.settings) for player in players]
        got = steps.step(players)
        assert [body_bits(body) for body in got] == [body_bits(body) for body in expected]
        for player, body in zip(players, got):
            player.take_step(body)
        assert players[5].sink.last is not None and players[5].sink.last.end == players[5].body.box
        assert all(player.sink.last is None for k, player in enumerate(players) if k != 5)


def test_a_players_move_is_reported_while_its_overlay_is_shown_and_never_an_old_one_after(world):
    session = Session.open(world, autosave=False)
    session.run([KeyDown(0, "w")], 2)
    assert session.player.sink.last is None  # no overlay: the step made no report
    session.run([KeyDown(0, "f3")], 1)
    assert session.player.sink.last is not None and session.player.sink.last.end == session.player.body.box
    session.run([KeyDown(0, "f3")], 1)  # hidden again: the old report is dropped, none drawn later
    assert session.player.sink.last is None
