"""The record of a tick (`game/rules/tick_changes.py`, `Session.tick()`): block cells with old and new
block, sections to re-mesh (light included), bodies that appeared, moved or went, sounds with their
positions, notices with the player they are for, and the record being enough to redraw."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.rules.lab_session import lab_session
from game.rules.replay import Click, KeyDown, KeyUp, Look
from game.rules.session import Session
from game.rules.sounds import SoundEvent
from game.rules.tick_changes import BodyChange, Notice, SoundLog, TickChanges, body_changes
from game.window.ui.debug_overlay import changes_line
from game.world import World
from game.world.change_log import BlockChange
from game.world.meshing import mesh_section

DRAWN = tuple((cx, sy, cz) for cx, cz in itertools.product((-1, 0, 1), repeat=2) for sy in range(2, 7))
"""The sections the KEY test draws: 3 x 3 columns around the seed-42 spawn (y 67), y 32..111."""
EDIT_BLOCKS = ("air", "stone", "glass", "torch", "water", "lava", "sand", "leaves", "gravel")
"""What random edits put down: opaque, see-through, light sources, both fluids and a falling block."""
MAX_DRAIN_TICKS = 40
"""[ticks] How long the KEY test ticks after its edits for the light to stop waiting (a falling
block that lands after the light phase waits one tick; a few more cover a chain of them)."""


@pytest.fixture
def arena_session():
    session = lab_session()
    session.damage_enabled = False  # peaceful: a left click breaks at once
    session.tick()  # the first record: every body appears
    return session


@pytest.fixture
def world_session(tmp_path):
    with World.create(tmp_path / "record.boxel", 42, workers=1) as world:
        yield Session.open(world, autosave=False)


def tick_number(session) -> int:
    return session.ticks_run


# --- blocks ------------------------------------------------------------------------------------------

def test_a_broken_and_a_placed_block_appear_in_the_next_record_with_their_old_and_new_block(arena_session):
    session = arena_session
    session.apply(Look(tick_number(session), 180.0, 40.0))
    target = session.target()
    assert target is not None
    broken = tuple(target.block)
    was = session.world.get_block(*broken)
    session.apply(Click(tick_number(session), "left"))
    changes = session.tick()
    assert changes.blocks == (BlockChange(broken, was, "air"),)
    assert changes.tick == tick_number(session) - 1

    session.apply(Look(tick_number(session), 180.0, 25.0))
    target = session.target()
    assert target is not None
    cell = tuple(b + f for b, f in zip(target.block, target.face))
    session.apply(Click(tick_number(session), "right"))
    changes = session.tick()
    held = session.hotbar.selected_block
    assert changes.blocks == (BlockChange(cell, "air", held),) and session.world.get_block(*cell) == held
    assert session.tick().blocks == ()


def test_an_edit_made_between_ticks_lands_in_the_next_record_once(arena_session):
    session = arena_session
    sections = session.world.set_block(3, 5, 3, "glass")
    changes = session.tick()
    assert changes.blocks == (BlockChange((3, 5, 3), "air", "glass"),)
    assert changes.sections == frozenset(sections)
    following = session.tick()
    assert following.blocks == () and following.sections == frozenset()


def test_the_record_says_the_time_of_day_and_the_tick(arena_session):
    session = arena_session
    changes = session.tick()
    assert changes.day_time == session.day_time and changes.tick == session.ticks_run - 1


# --- bodies ------------------------------------------------------------------------------------------

def test_the_first_record_names_the_local_player_as_appeared():
    session = lab_session()
    changes = session.tick()
    player = session.player
    assert changes.bodies == (BodyChange("player:player", "player", "appeared", player.body.box,
                                         player.body.velocity),)


def test_a_thrown_projectile_appears_moves_and_goes(arena_session):
    session = arena_session
    session.apply(KeyDown(tick_number(session), "q"))
    session.apply(KeyUp(tick_number(session), "q"))
    seen = []
    for _ in range(400):
        changes = session.tick()
        seen += [change.change for change in changes.bodies if change.key == "projectile:0"]
        if "gone" in seen:
            break
    assert seen[0] == "appeared" and seen[-1] == "gone" and "moved" in seen
    assert seen.count("appeared") == 1 and seen.count("gone") == 1


def test_a_spawned_mob_appears_with_its_key_and_its_box(arena_session):
    session = arena_session
    session.apply(Look(tick_number(session), 180.0, 40.0))
    session.apply(KeyDown(tick_number(session), "m"))
    session.apply(KeyUp(tick_number(session), "m"))
    changes = session.tick()
    (key,) = session.mobs.keys
    appeared = [change for change in changes.bodies if change.kind == "mob"]
    assert appeared == [BodyChange(f"mob:{key}", "mob", "appeared", session.mobs.bodies[0].box,
                                   session.mobs.bodies[0].velocity)]


def test_a_player_who_joins_appears_and_one_who_leaves_is_gone(arena_session):
    session = arena_session
    alice = session.join("alice")
    changes = session.tick()
    assert [(c.key, c.change) for c in changes.bodies if c.kind == "player" and c.change != "moved"] == [
        ("player:alice", "appeared")]
    box = alice.body.box
    session.leave("alice")
    changes = session.tick()
    assert [c for c in changes.bodies if c.key == "player:alice"] == [
        BodyChange("player:alice", "player", "gone", box, alice.body.velocity)]


def test_body_changes_list_the_new_and_moved_in_order_then_the_gone():
    box_a, box_b = (0, 0, 0, 1, 1, 1), (1, 0, 0, 2, 1, 1)
    before = {"mob:1": ("mob", box_a, (0.0, 0.0, 0.0)), "mob:2": ("mob", box_a, (0.0, 0.0, 0.0)),
              "mob:3": ("mob", box_a, (0.0, 0.0, 0.0))}
    after = {"mob:4": ("mob", box_b, (0.0, 0.0, 0.0)), "mob:1": ("mob", box_a, (0.0, 0.0, 0.0)),
             "mob:2": ("mob", box_a, (0.1, 0.0, 0.0))}
    assert [(c.key, c.change) for c in body_changes(before, after)] == [
        ("mob:4", "appeared"), ("mob:2", "moved"), ("mob:3", "gone")]


def test_a_body_change_of_an_unknown_kind_or_change_is_refused():
    with pytest.raises(ValueError, match="kind"):
        BodyChange("ghost:1", "ghost", "appeared", (0, 0, 0, 1, 1, 1), (0.0, 0.0, 0.0))
    with pytest.raises(ValueError, match="change"):
        BodyChange("mob:1", "mob", "teleported", (0, 0, 0, 1, 1, 1), (0.0, 0.0, 0.0))


# --- sounds and notices ---------------------------------------------------------------------------------

def test_a_placed_block_s_sound_is_in_the_next_record_at_the_block(arena_session):
    session = arena_session
    session.apply(Look(tick_number(session), 180.0, 25.0))
    target = session.target()
    cell = tuple(b + f for b, f in zip(target.block, target.face))
    session.apply(Click(tick_number(session), "right"))
    changes = session.tick()
    placed = [sound for sound in changes.sounds if sound.position == tuple(c + 0.5 for c in cell)]
    assert len(placed) == 1 and placed[0].name.startswith("place")
    assert placed[0] not in session.tick().sounds  # told once


def test_the_window_taking_sounds_does_not_take_them_from_the_record():
    log = SoundLog(4)
    sound = SoundEvent("step_stone", (1.0, 2.0, 3.0))
    log.extend([sound])
    assert list(log) == [sound]
    log.clear()  # what the window's take_sounds does
    assert log.take_recorded() == (sound,) and log.take_recorded() == ()


def test_a_notice_for_one_player_carries_that_player_and_one_for_everyone_none(arena_session):
    session = arena_session
    session.notify("hello alice", player="alice")
    session.notify("the world is saved")
    changes = session.tick()
    assert changes.notices == (Notice("hello alice", "alice"), Notice("the world is saved", None))
    assert session.tick().notices == ()


def test_a_notice_for_a_bad_player_name_is_refused():
    with pytest.raises(ValueError):
        Notice("hi", "no spaces allowed")


def test_a_record_is_frozen():
    changes = TickChanges(3, 100)
    with pytest.raises(dataclasses.FrozenInstanceError):
        changes.tick = 4


def test_the_f3_line_counts_what_the_record_holds():
    changes = TickChanges(3, 100, blocks=(BlockChange((0, 0, 0), "air", "stone"),),
                          sections=frozenset({(0, 0, 0), (0, 1, 0)}), unsaved_columns=frozenset({(0, 0)}))
    assert changes_line(changes) == "changes   blocks 1  sections 2  light waiting 0  unsaved 1"
    assert changes_line(None) == "changes   -"


# --- the record is enough to redraw ---------------------------------------------------------------------

def mesh(world: World, key) -> tuple[np.ndarray, ...]:
    return tuple(array.copy() for part in mesh_section(world.padded_section(*key), world.padded_light(*key))
                 for array in dataclasses.astuple(part))


def same_meshes(a, b) -> bool:
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


edits = st.lists(st.tuples(st.integers(0, 3),  # ticks to run before the edit
                           st.integers(-14, 29), st.integers(55, 95), st.integers(-14, 29),
                           st.sampled_from(EDIT_BLOCKS)), min_size=1, max_size=12)


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(edits=edits)
def test_re_meshing_only_the_sections_the_records_name_gives_the_meshes_of_re_meshing_everything(
        world_session, edits):
    session, world = world_session, world_session.world
    meshes = {key: mesh(world, key) for key in DRAWN}

    def redraw(changes: TickChanges) -> None:
        for key in changes.sections & meshes.keys():
            meshes[key] = mesh(world, key)

    for wait, x, y, z, block in edits:
        for _ in range(wait):
            redraw(session.tick())
        world.set_block(x, y, z, block)  # an edit between ticks, as a click applied before the tick
    for _ in range(MAX_DRAIN_TICKS):
        changes = session.tick()
        redraw(changes)
        if not changes.light_waiting:
            break
    assert not changes.light_waiting
    for key in DRAWN:
        assert same_meshes(meshes[key], mesh(world, key)), key
