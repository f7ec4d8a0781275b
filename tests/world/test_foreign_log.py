"""A write-ahead log from another world beside a world file. SQLite replays any log it
finds beside a database, and a log names no database: world B opened with world A's `-wal` beside it
opened as A. Every Boxel transaction now carries the world's id in the header page, and an open (and
the world list) refuses a log whose header pages carry another id, changing nothing: B and the
foreign log both stay as they were, and B opens as it was last saved once the log is moved away. A
world's own log (left by a kill in the middle of play) is still replayed."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.userdata import world_list
from game.world import ForeignLogError, World, WorldFileError
from game.world.file_checks import WAL_FRAME_HEADER_BYTES, WAL_HEADER_BYTES, companion_path, world_id
from game.world.file_format import WORLD_ID_OFFSET

ROOT = Path(__file__).resolve().parents[2]
CHILD_TIMEOUT_S = 60.0
"""[s] Only stops a hang: the child makes a world and saves once (well under a few seconds)."""
LOG_EXAMPLES = 25
"""Hypothesis examples: each makes two small worlds and opens one (about 0.1 s)."""
B_BRICK = (5, 120, 5)
"""Where world B (seed 42) holds a brick; world A (seed 1) never does."""
A_EDITS = [(cx * 16 + 3, 110, cz * 16 + 3) for cx in range(-3, 3) for cz in range(-2, 3)]
"""30 cells in 30 columns that world A turns to glass, as in the issue (all 30 of its columns replaced)."""


def world_b(path: Path) -> Path:
    """World B: seed 42, a brick at B_BRICK, saved and closed (no log beside it)."""
    with World.create(path, seed=42, workers=1) as world:
        world.set_block(*B_BRICK, "brick")
    assert not companion_path(path, "-wal").exists()
    return path


def live_log_of_a(folder: Path, saves: int = 1, edits: list[tuple[int, int, int]] = A_EDITS) -> bytes:
    """The bytes of world A's log while A is open, after `saves` saves of glass at `edits` (a log a copy
    or a backup tool would take from a running game)."""
    return live_files_of_a(folder, saves, edits)[1]


def live_files_of_a(folder: Path, saves: int, edits: list[tuple[int, int, int]] = A_EDITS) -> tuple[bytes, bytes]:
    """(file, log) bytes of world A (seed 1) taken together while it is open after `saves` saves, save n
    turning `edits` raised by n to glass: the state a crash at that moment leaves."""
    path = folder / "a.boxel"
    with World.create(path, seed=1, workers=1) as world:
        for number in range(saves):
            for x, y, z in edits:
                world.set_block(x, y + number, z, "glass")
            world.save()
        files = path.read_bytes(), companion_path(path, "-wal").read_bytes()
    return files


def assert_b_as_last_saved(path: Path) -> None:
    with World.open(path, workers=1) as world:
        assert world.seed == 42
        assert world.get_block(*B_BRICK) == "brick"
        assert all(world.get_block(*cell) != "glass" for cell in A_EDITS)


def test_a_log_from_another_live_world_beside_a_world_is_refused_and_both_files_are_kept(tmp_path):
    b = world_b(tmp_path / "b.boxel")
    foreign = live_log_of_a(tmp_path)
    companion_path(b, "-wal").write_bytes(foreign)
    before = b.read_bytes()
    with pytest.raises(ForeignLogError, match="b.boxel-wal.*another world wrote.*Nothing was changed"):
        World.open(b, workers=1)
    assert b.read_bytes() == before and companion_path(b, "-wal").read_bytes() == foreign
    companion_path(b, "-wal").rename(tmp_path / "kept-wal")  # what the message asks the player to do
    assert_b_as_last_saved(b)
    assert (tmp_path / "kept-wal").read_bytes() == foreign


def test_the_world_list_shows_a_world_with_a_foreign_log_greyed_and_never_replays_it(tmp_path):
    b = world_b(tmp_path / "b.boxel")
    foreign = live_log_of_a(tmp_path)
    companion_path(b, "-wal").write_bytes(foreign)
    before = b.read_bytes()
    entry = world_list.describe(b)
    assert entry.seed is None and "another world wrote" in entry.problem
    assert b.read_bytes() == before and companion_path(b, "-wal").read_bytes() == foreign  # not folded into B
    companion_path(b, "-wal").unlink()
    assert world_list.describe(b).seed == 42
    assert_b_as_last_saved(b)


def kill_after_save(path: Path, seed: int, block: str) -> None:
    """In a child process: open (or make) the world at `path`, put `block` at A_EDITS, save, and die by
    SIGKILL with the world still open (its log left beside it, as a crash leaves it)."""
    code = textwrap.dedent(f"""
        import os, signal
        from pathlib import Path
        from game.world import World
        path = Path({str(path)!r})
        world = World.open(path, workers=1) if path.exists() else World.create(path, seed={seed}, workers=1)
        for x, y, z in {A_EDITS!r}:
            world.set_block(x, y, z, {block!r})
        world.save()
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=CHILD_TIMEOUT_S)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert companion_path(path, "-wal").stat().st_size > WAL_HEADER_BYTES


def test_the_log_of_a_world_killed_in_the_middle_of_play_is_refused_beside_another_world(tmp_path):
    a, b = tmp_path / "a.boxel", world_b(tmp_path / "b.boxel")
    kill_after_save(a, seed=1, block="glass")
    companion_path(a, "-wal").rename(companion_path(b, "-wal"))
    before = b.read_bytes()
    with pytest.raises(ForeignLogError):
        World.open(b, workers=1)
    assert b.read_bytes() == before
    companion_path(b, "-wal").unlink()
    assert_b_as_last_saved(b)


def test_a_worlds_own_log_left_by_a_kill_is_replayed_so_its_last_save_is_never_lost(tmp_path):
    b = world_b(tmp_path / "b.boxel")
    kill_after_save(b, seed=42, block="glass")
    assert world_list.describe(b).seed == 42
    with World.open(b, workers=1) as world:
        assert world.get_block(*B_BRICK) == "brick"
        assert all(world.get_block(*cell) == "glass" for cell in A_EDITS)


def test_a_world_made_before_world_ids_opens_with_its_own_log_and_gets_an_id_at_its_first_save(tmp_path):
    b = world_b(tmp_path / "b.boxel")
    db = sqlite3.connect(b)
    db.execute("PRAGMA user_version = 0")  # as every world before ids
    db.commit()
    db.close()
    assert world_id(b.read_bytes()[:100]) == bytes(4)
    kill_after_save(b, seed=42, block="glass")  # its own log: no id in the file yet to compare it with
    with World.open(b, workers=1) as world:
        assert world.get_block(*A_EDITS[0]) == "glass"
        world.set_block(0, 130, 0, "brick")
    assert world_id(b.read_bytes()[:100]) != bytes(4)  # closed: the log folded in, with the id


def test_every_save_writes_the_header_page_with_the_id_into_the_log(tmp_path):
    path = tmp_path / "w.boxel"
    with World.create(path, seed=3, workers=1) as world:
        own = world_id(path.read_bytes()[:100])
        for number in range(3):
            world.set_block(number, 100, 0, "brick")
            world.save()
        log = companion_path(path, "-wal").read_bytes()
    page_size = int.from_bytes(log[8:12], "big")
    frames = [log[at:at + WAL_FRAME_HEADER_BYTES + page_size]
              for at in range(WAL_HEADER_BYTES, len(log), WAL_FRAME_HEADER_BYTES + page_size)]
    commits = [frame for frame in frames if frame[4:8] != bytes(4)]
    headers = [frame for frame in frames if int.from_bytes(frame[:4], "big") == 1]
    assert len(commits) == len(headers) == 3
    offset = WAL_FRAME_HEADER_BYTES + WORLD_ID_OFFSET
    assert all(frame[offset:offset + 4] == own for frame in headers) and own != bytes(4)


# --- the whole class: any log of another world, cut or with flipped bits ------------------------------------------


PROPERTY_EDITS = A_EDITS[:4]
"""The cells the properties' world A edits: few columns, so each example reads little."""


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """Worlds made once and copied by the properties: "b" is world B's bytes, ("a", saves) world A's
    (file, log) bytes taken while open after `saves` saves of glass at PROPERTY_EDITS."""
    folder = tmp_path_factory.mktemp("logs")
    files: dict = {"b": world_b(folder / "b.boxel").read_bytes()}
    for saves in (1, 2, 3):
        (folder / str(saves)).mkdir()
        files[("a", saves)] = live_files_of_a(folder / str(saves), saves, PROPERTY_EDITS)
    return files


def flip(data: bytes, at: int, bit: int) -> bytes:
    changed = bytearray(data)
    changed[at % len(changed)] ^= 1 << bit
    return bytes(changed)


@settings(max_examples=LOG_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(saves=st.integers(1, 3), change=st.sampled_from(["none", "cut", "flip"]), at=st.integers(0, 10 ** 9),
       bit=st.integers(0, 7))
def test_any_log_from_another_world_is_refused_or_replays_nothing_and_never_shows_the_other_world(
        tmp_path, made, saves, change, at, bit):
    b = tmp_path / "b.boxel"
    b.write_bytes(made["b"])
    foreign = made[("a", saves)][1]
    if change == "cut":
        foreign = foreign[:at % (len(foreign) + 1)]
    elif change == "flip":
        foreign = flip(foreign, at, bit)
    companion_path(b, "-wal").write_bytes(foreign)
    try:
        world = World.open(b, workers=1)
    except WorldFileError as error:
        assert isinstance(error, ForeignLogError), error
        assert b.read_bytes() == made["b"] and companion_path(b, "-wal").read_bytes() == foreign
        assert not world_list.describe(b).readable
        return
    with world:  # SQLite replays none of it: B exactly as it was (any transaction of A's would bring seed 1)
        assert world.seed == 42 and world.get_block(*B_BRICK) == "brick"
        assert world.get_block(*PROPERTY_EDITS[0]) != "glass"


@settings(max_examples=LOG_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(saves=st.integers(1, 3), keep=st.integers(0, 10 ** 9))
def test_a_worlds_own_log_cut_anywhere_is_replayed_up_to_its_last_whole_save(tmp_path, made, saves, keep):
    data, log = made[("a", saves)]
    path = tmp_path / "a.boxel"
    path.write_bytes(data)  # as a crash left it: the file, and its log cut where the crash stopped it
    companion_path(path, "-wal").write_bytes(log[:keep % (len(log) + 1)])
    with World.open(path, workers=1) as world:
        assert world.seed == 1
        landed = [sum(world.get_block(x, y + number, z) == "glass" for x, y, z in PROPERTY_EDITS)
                  for number in range(saves)]
    whole = sum(count == len(PROPERTY_EDITS) for count in landed)
    assert landed == [len(PROPERTY_EDITS)] * whole + [0] * (saves - whole)  # the first saves whole, the rest not at all
