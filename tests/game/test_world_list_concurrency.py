"""World renames and deletes racing from several processes (`game.userdata.world_list`): two
game windows on one data folder must never lose a world, give one world two names, replace another
world or leave SQLite's files beside a world behind; a world a game holds is never moved from under it.
Includes a stateful test of random create/rename/delete sequences against a model of the folder."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from game.userdata import world_list
from game.world import World
from game.world import folder_lock
from game.world.file_errors import WorldInUseError

from .world_race import race

RACE = (4, 0, 3.0)
"""(renaming processes, playing processes, seconds): hundreds of operations each, inside a unit
test's time. Without the fix, this race raised a bare FileNotFoundError or left a `-wal` without its
world in 8 of 8 runs."""
SOAK = (3, 2, 8.0)
"""The same with two processes opening and saving the worlds meanwhile, as game windows do."""
WORLDS = 4
"""Worlds they race over (the issue's four)."""
MARKER = "stone"
MARKER_Y = 200
"""A block high in the air of column (0, 0), at x = z = the world's number: no seed generates one there."""
JUNK = b"not a world: a damaged file keeps its log beside it"


def make_marked_world(folder: Path, number: int) -> Path:
    """World `number` (seed 1000 + number) with its marker block saved."""
    path = folder / f"world {number}.boxel"
    with World.create(path, 1000 + number, workers=1) as world:
        world.column(0, 0)
        world.set_block(number, MARKER_Y, number, MARKER)
        world.save()
    return path


def marker_of(path: Path, number: int) -> str:
    with World.open(path, workers=1) as world:
        world.column(0, 0)
        return world.get_block(number, MARKER_Y, number)


@pytest.mark.parametrize("racers, players, seconds", [
    pytest.param(*RACE, id="renaming"), pytest.param(*SOAK, id="renaming-while-playing", marks=pytest.mark.slow)])
def test_processes_renaming_and_deleting_the_same_worlds_keep_each_world_once_with_no_file_left_behind(
        tmp_path, racers, players, seconds):
    folder = tmp_path / "worlds"
    folder.mkdir()
    for number in range(WORLDS):
        make_marked_world(folder, number)
    (folder / "junk.boxel").write_bytes(JUNK)
    (folder / "junk.boxel-wal").write_bytes(JUNK[::-1])

    operations, deletes, refusals, unexpected = race(folder, racers, players, seconds)
    print(f"{operations} operations, {deletes} deletes, {refusals} refusals")

    assert refusals > 0  # they did collide
    files = sorted(path.name for path in folder.iterdir())
    worlds = [name for name in files if name.endswith(".boxel")]
    side_files = [name for name in files if not name.endswith(".boxel")]
    assert len(worlds) == WORLDS + 1 - deletes  # nothing lost but what was deleted
    contents = {}
    for name in worlds:
        path = folder / name
        if path.read_bytes() == JUNK:
            contents[name] = "junk"
            assert side_files.count(f"{name}-wal") == 1 and (folder / f"{name}-wal").read_bytes() == JUNK[::-1]
            side_files.remove(f"{name}-wal")
            continue
        assert os.stat(path).st_nlink == 1  # one name only
        number = world_list.read_seed(path) - 1000
        assert marker_of(path, number) == MARKER
        contents[name] = number
    assert side_files == []  # no log or journal without its world
    assert len(set(contents.values())) == len(contents)  # every world once
    assert unexpected == []  # every refusal a ValueError (WorldFileError is one)


GAME_OPEN = """
import sys
from game.world import World, folder_lock
folder_lock.FOLDER_LOCK_WAIT_S = 0.5
try:
    World.open(sys.argv[1], workers=1).close()
    print("opened")
except Exception as error:
    print(type(error).__name__, error)
"""
"""Another process opening a world for play as the game does (waiting 0.5 s for the folder)."""
OTHER_PROGRAM_OPEN = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=0)
try:
    db.execute("BEGIN IMMEDIATE")
    print("opened")
except sqlite3.Error as error:
    print(type(error).__name__, error)
"""
"""Another program opening the world with SQLite, heeding no folder lock."""


def run_in_other_process(code: str, path: Path) -> str:
    """What `code` prints, run in another process with the world's `path`."""
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parents[2])
    return done.stdout.strip() or done.stderr


@pytest.mark.parametrize("code, refusal", [
    (GAME_OPEN, "WorldInUseError another Boxel window keeps the worlds folder"),
    (OTHER_PROGRAM_OPEN, "OperationalError database is locked"),
], ids=["a-game", "another-program"])
def test_nothing_can_open_a_world_in_the_middle_of_its_rename(tmp_path, monkeypatch, code, refusal):
    path = make_marked_world(tmp_path, 0)
    seen = []
    real_same_file = world_list._same_file

    def open_meanwhile(a, b):  # runs while the files move
        if not seen:
            seen.append(run_in_other_process(code, path))
        return real_same_file(a, b)

    monkeypatch.setattr(world_list, "_same_file", open_meanwhile)
    world_list.rename(path, "moved")
    assert len(seen) == 1 and seen[0].startswith(refusal)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["moved.boxel"]
    assert marker_of(tmp_path / "moved.boxel", 0) == MARKER


def test_a_world_open_in_another_process_is_neither_renamed_nor_deleted(tmp_path):
    path = make_marked_world(tmp_path, 0)
    code = "import sys, time\nfrom game.world import World\nw = World.open(sys.argv[1], workers=1)\nprint('open', flush=True)\ntime.sleep(30)\n"
    holder = subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, text=True,
                              cwd=Path(__file__).resolve().parents[2])
    try:
        assert holder.stdout.readline().strip() == "open"
        with pytest.raises(WorldInUseError):
            world_list.rename(path, "moved")
        with pytest.raises(WorldInUseError):
            world_list.delete(path)
    finally:
        holder.kill()
        holder.wait()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".boxel")) == ["world 0.boxel"]
    assert marker_of(path, 0) == MARKER


def test_a_failed_rename_never_puts_the_world_back_over_another_file(tmp_path, monkeypatch):
    """Another program writes a file where the world was, and a log where its log goes, mid-rename:
    the rename fails, and neither its file nor the world is overwritten."""
    path = tmp_path / "damaged.boxel"
    path.write_bytes(JUNK)
    Path(f"{path}-wal").write_bytes(b"its log")
    real_same_file = world_list._same_file

    def intrude(destination, source):
        if Path(source).name == "damaged.boxel-wal":  # the world has moved; its log is next
            path.write_bytes(b"another program's file")
            Path(f"{destination}").write_bytes(b"another program's log")
        return real_same_file(destination, source)

    monkeypatch.setattr(world_list, "_same_file", intrude)
    with pytest.raises(ValueError, match="renamed.boxel-wal is already there: nothing was moved onto it") as caught:
        world_list.rename(path, "renamed")
    assert caught.value.__notes__ == [f"and {tmp_path / 'renamed.boxel'} could not be moved back to {path}: "
                                      f"{path} is already there: nothing was moved onto it"]
    assert path.read_bytes() == b"another program's file"
    assert (tmp_path / "renamed.boxel").read_bytes() == JUNK
    assert (tmp_path / "renamed.boxel-wal").read_bytes() == b"another program's log"
    assert Path(f"{path}-wal").read_bytes() == b"its log"


def test_an_interrupted_rename_leaves_the_world_under_exactly_one_name(tmp_path, monkeypatch):
    path = make_marked_world(tmp_path, 0)
    real_unlink = os.unlink

    def interrupted(target, *args, **kwargs):
        if str(target).endswith("world 0.boxel"):
            raise KeyboardInterrupt  # the process stops between two steps of a move
        return real_unlink(target, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", interrupted)
    try:
        world_list.rename(path, "moved")
    except KeyboardInterrupt:
        pass
    monkeypatch.setattr(os, "unlink", real_unlink)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names in (["moved.boxel"], ["world 0.boxel"])
    assert os.stat(tmp_path / names[0]).st_nlink == 1


def test_an_operation_waits_for_another_process_on_the_folder_then_says_the_folder_is_busy(tmp_path, monkeypatch):
    path = make_marked_world(tmp_path, 0)
    code = ("import sys, time\nfrom game.world.folder_lock import folder_lock\n"
            "with folder_lock(sys.argv[1]):\n    print('held', flush=True)\n    time.sleep(30)\n")
    holder = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE, text=True,
                              cwd=Path(__file__).resolve().parents[2])
    monkeypatch.setattr(folder_lock, "FOLDER_LOCK_WAIT_S", 0.2)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(WorldInUseError, match="keeps the worlds folder .* busy"):
            world_list.rename(path, "moved")
        with pytest.raises(WorldInUseError, match="busy"):
            world_list.create("new", seed=1, folder=tmp_path)
    finally:
        holder.kill()
        holder.wait()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["world 0.boxel"]


# --- random sequences against a model -------------------------------------------------------------------


MODEL_NAMES = ("a", "A", "b", "con", "x" * 64, "\U0001F600" * 58 + "z")
"""Names the machine uses: a case pair, a reserved device name, the longest in characters and in bytes."""


class WorldFolder(RuleBasedStateMachine):
    """create, rename and delete in random order; the folder always holds exactly the model's worlds
    (name -> seed), with nothing beside them."""

    def __init__(self):
        super().__init__()
        self.temporary = tempfile.TemporaryDirectory()
        self.folder = Path(self.temporary.name)
        self.model: dict[str, int] = {}
        self.next_seed = 0

    def teardown(self):
        self.temporary.cleanup()

    def expected_name(self, name: str) -> str:
        stem = world_list.file_name_for(name)[:-len(world_list.WORLD_SUFFIX)]
        number = 1
        while (stem if number == 1 else f"{stem} ({number})") in self.model:
            number += 1
        return stem if number == 1 else f"{stem} ({number})"

    @rule(name=st.sampled_from(MODEL_NAMES))
    def create(self, name):
        self.next_seed += 1
        expected = self.expected_name(name)
        entry = world_list.create(name, seed=self.next_seed, folder=self.folder)
        assert (entry.name, entry.seed) == (expected, self.next_seed)
        self.model[expected] = self.next_seed

    @precondition(lambda self: self.model)
    @rule(data=st.data(), new_name=st.sampled_from(MODEL_NAMES))
    def rename(self, data, new_name):
        old = data.draw(st.sampled_from(sorted(self.model)))
        new = world_list.file_name_for(new_name)[:-len(world_list.WORLD_SUFFIX)]
        if new != old and new in self.model:
            with pytest.raises(ValueError, match="already a world"):
                world_list.rename(self.folder / f"{old}.boxel", new_name)
            return
        entry = world_list.rename(self.folder / f"{old}.boxel", new_name)
        assert (entry.name, entry.seed) == (new, self.model[old])
        self.model[new] = self.model.pop(old)

    @precondition(lambda self: self.model)
    @rule(data=st.data())
    def delete(self, data):
        name = data.draw(st.sampled_from(sorted(self.model)))
        world_list.delete(self.folder / f"{name}.boxel")
        del self.model[name]

    @rule(name=st.sampled_from(("gone", "a")))
    def delete_a_missing_world_is_refused(self, name):
        if name in self.model:
            return
        with pytest.raises(ValueError):
            world_list.delete(self.folder / f"{name}.boxel")

    @invariant()
    def the_folder_holds_exactly_the_model(self):
        assert sorted(path.name for path in self.folder.iterdir()) == sorted(f"{n}.boxel" for n in self.model)
        assert {entry.name: entry.seed for entry in world_list.list_worlds(self.folder)} == self.model


WorldFolder.TestCase.settings = settings(max_examples=25, stateful_step_count=10, deadline=None,
                                         suppress_health_check=[HealthCheck.too_slow])
test_random_creates_renames_and_deletes_keep_the_folder_equal_to_its_model = WorldFolder.TestCase
