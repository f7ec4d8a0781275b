"""Damage inside a world that opens: a damaged saved column is served as generated from the seed and
reported once (`World.take_problems`, `World.damaged_columns`), the game streams on, and the damaged
row is kept byte for byte unless the player edits that column; the save that then replaces it first
copies the damaged bytes into the file's `damaged_columns` table. Damaged saved entities read as
none, reported and kept the same way. Random bit flips anywhere in a world file either refuse the open
with a WorldFileError or leave every column readable: never an uncaught exception."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from game.window.streaming import WorldStreamer
from game.world import World, WorldDiskFullError, WorldFileError, WorldProblem
from game.world.terrain import Terrain

from .conftest import SEED

EDITED_COLUMNS = [(i, -2) for i in range(8)]
"""The columns `saved_world` edits (one row each in `columns`)."""
MOB_COLUMNS = [(i, -2) for i in range(3)]
"""The columns `saved_world` stores a mob with."""
FLIP_SEEDS = 400
"""Random damages tried by the fuzz test over the whole file (~3 ms each: write, open, stream)."""
BLOB_FLIP_SEEDS = 100
"""Random damages tried inside column blobs, where every one must open and be served from the seed."""
PIECE_BYTES = 256
"""[bytes] A part of a stored blob that lies whole in one page: SQLite keeps at least ~480 bytes of a
long value on its own page and fills each overflow page with ~4 KB of it."""
SETTLE_TIMEOUT_S = 60.0
"""[s] Only stops a hang: settling a few dozen columns takes well under a second."""


def mob(i: int) -> dict:
    return {"kind": "boxling", "yaw": 1.5 * i, "box": [0.1, 64.0, 0.2, 0.7, 65.8, 0.8]}


def saved_world(path: Path) -> Path:
    """A closed world with a brick and a glass block in each EDITED_COLUMNS column and a mob in each MOB_COLUMNS one."""
    with World.create(path, seed=SEED, workers=1) as world:
        for i, (cx, cz) in enumerate(EDITED_COLUMNS):
            world.set_block(16 * cx + 3, 90 + i, 16 * cz + 12, "brick")
            world.set_block(16 * cx + 5, 60, 16 * cz + 12, "glass")
        for i, (cx, cz) in enumerate(MOB_COLUMNS):
            world.set_column_entities(cx, cz, [mob(i)])
    return path


@pytest.fixture(scope="module")
def original(tmp_path_factory) -> tuple[bytes, dict[tuple[int, int], np.ndarray]]:
    """The saved world's bytes and the ids of each edited column as saved."""
    path = saved_world(tmp_path_factory.mktemp("damage") / "base.boxel")
    with World.open(path, workers=1) as world:
        columns = {key: world.column(*key) for key in EDITED_COLUMNS}
    return path.read_bytes(), columns


def stored_value(path: Path, sql: str, key: tuple[int, int]):
    db = sqlite3.connect(path)
    row = db.execute(sql, key).fetchone()
    db.close()
    return None if row is None else row[0]


def blob_of(path: Path, key: tuple[int, int]) -> bytes:
    return stored_value(path, "SELECT blocks FROM columns WHERE cx = ? AND cz = ?", key)


def damage_blob_on_disk(path: Path, key: tuple[int, int], rng: np.random.Generator) -> None:
    """Flip one random bit of column `key`'s stored blob, in the file's bytes (as a failing disk would).
    The bit is in the blob's first or last PIECE_BYTES: a long blob continues on overflow pages, but
    its head and its tail each lie in one piece of the file."""
    blob = blob_of(path, key)
    piece = blob[:PIECE_BYTES] if rng.integers(2) else blob[-PIECE_BYTES:]
    data = bytearray(path.read_bytes())
    assert data.count(piece) == 1
    at = data.index(piece) + int(rng.integers(len(piece)))
    data[at] ^= 1 << int(rng.integers(8))
    path.write_bytes(bytes(data))


def damaged_rows(path: Path) -> list[tuple]:
    db = sqlite3.connect(path)
    rows = db.execute("SELECT cx, cz, part, data FROM damaged_columns ORDER BY cx, cz, part").fetchall()
    db.close()
    return rows


def seed_column(key: tuple[int, int]) -> np.ndarray:
    return Terrain(SEED).column(*key)


@pytest.fixture
def damaged(tmp_path, original) -> Path:
    """The saved world with column (1, -2)'s blob damaged on disk."""
    path = tmp_path / "w.boxel"
    path.write_bytes(original[0])
    damage_blob_on_disk(path, (1, -2), np.random.default_rng(1))
    return path


# --- a damaged column --------------------------------------------------------------------------------------


class NullRenderer:
    """Stands in for the chunk renderer: every section shown is drawn at once."""

    shown_sections = frozenset()
    pending = 0

    def show(self, sections) -> None:
        list(sections)

    def rebuild(self, sections) -> list:
        return list(sections)

    def unload(self, sections) -> None:
        list(sections)

    def upload_finished(self, limit=None) -> int:
        return 0


def test_a_world_with_a_damaged_column_streams_on_with_the_column_from_the_seed_reported_once(damaged, original):
    with World.open(damaged, workers=1) as world:
        streamer = WorldStreamer(world, NullRenderer(), view_distance=1, save=world.save)
        streamer.settle((1, -2), SETTLE_TIMEOUT_S)
        problems = world.take_problems()
        assert [(p.column, p.part) for p in problems] == [((1, -2), "blocks")]
        assert "column (1, -2) is damaged" in problems[0].message and "from the seed" in problems[0].message
        assert world.damaged_columns == {(1, -2)}
        assert np.array_equal(world.column(1, -2), seed_column((1, -2)))
        for key in set(EDITED_COLUMNS) - {(1, -2)}:
            assert np.array_equal(world.column(*key), original[1][key])
        world.unload_columns_outside(100, 100, 0)
        streamer.settle((1, -2), SETTLE_TIMEOUT_S)
        assert world.take_problems() == []


def test_a_damaged_column_the_player_does_not_edit_keeps_its_row_byte_for_byte(damaged):
    before = blob_of(damaged, (1, -2))
    with World.open(damaged, workers=1) as world:
        world.column(1, -2)
        world.set_block(16 * 0 + 3, 200, -20, "brick")  # an edit elsewhere, and a save
    assert blob_of(damaged, (1, -2)) == before
    assert damaged_rows(damaged) == []


def test_editing_a_damaged_column_saves_the_edit_and_keeps_the_damaged_bytes_in_damaged_columns(damaged):
    before = blob_of(damaged, (1, -2))
    with World.open(damaged, workers=1) as world:
        world.set_block(16 + 7, 200, -20, "glass")
        assert world.damaged_columns == {(1, -2)}
        world.save()
        assert world.damaged_columns == set()
    assert damaged_rows(damaged) == [(1, -2, "blocks", before)]
    with World.open(damaged, workers=1) as world:
        assert world.get_block(16 + 7, 200, -20) == "glass"
        expected = seed_column((1, -2))
        expected[7, 200, 12] = world.column(1, -2)[7, 200, 12]
        assert np.array_equal(world.column(1, -2), expected)
        assert world.take_problems() == []


def test_a_save_of_an_edited_damaged_column_that_fails_keeps_it_damaged_until_a_save_succeeds(damaged):
    before = blob_of(damaged, (1, -2))
    with World.open(damaged, workers=1) as world:
        world.set_block(16 + 7, 200, -20, "glass")
        for i in range(30):
            world.set_block(16 * i, 210, 16 * 40, "brick")  # enough new rows that the save needs new pages
        db = world._file._db
        db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
        with pytest.raises(WorldDiskFullError):
            world.save()
        assert world.damaged_columns == {(1, -2)}
        assert blob_of_open(world, (1, -2)) == before
        db.execute("PRAGMA max_page_count = 4294967294")
    assert damaged_rows(damaged) == [(1, -2, "blocks", before)]


def blob_of_open(world: World, key: tuple[int, int]) -> bytes:
    return world._file._db.execute("SELECT blocks FROM columns WHERE cx = ? AND cz = ?", key).fetchone()[0]


# --- damaged entities ----------------------------------------------------------------------------------


def test_damaged_entities_read_as_none_are_reported_once_and_kept_when_replaced(tmp_path, original):
    path = tmp_path / "w.boxel"
    path.write_bytes(original[0])
    db = sqlite3.connect(path)
    db.execute("UPDATE entities SET data = '[{\"kind\": \"boxl' WHERE cx = 1")
    db.commit()
    db.close()
    with World.open(path, workers=1) as world:
        assert world.column_entities(1, -2) == []
        assert world.column_entities(1, -2) == []
        assert world.column_entities(2, -2) == [mob(2)]
        [problem] = world.take_problems()
        assert problem == WorldProblem((1, -2), "entities", problem.message)
        assert "entities of column (1, -2) are damaged" in problem.message
        world.set_column_entities(1, -2, [mob(7)])
    assert damaged_rows(path) == [(1, -2, "entities", '[{"kind": "boxl')]
    with World.open(path, workers=1) as world:
        assert world.column_entities(1, -2) == [mob(7)]


# --- fuzzing: random bit flips -----------------------------------------------------------------------------


def flip_random_bits(data: bytes, rng: np.random.Generator) -> bytes:
    flipped = bytearray(data)
    for _ in range(int(rng.integers(1, 4))):
        flipped[int(rng.integers(len(flipped)))] ^= 1 << int(rng.integers(8))
    return bytes(flipped)


def stream_every_column(world: World) -> list[WorldProblem]:
    """Read every saved column as the streamer does (request, then poll) and directly, and their entities;
    returns the problems reported."""
    for key in EDITED_COLUMNS:
        world.request(*key)
    world.poll()
    for key in EDITED_COLUMNS:
        world.column(*key)
        world.column_entities(*key)
    return world.take_problems()


def check_damage_reported_once(world: World, problems: list[WorldProblem]) -> None:
    reported = [(p.column, p.part) for p in problems]
    assert len(reported) == len(set(reported)), reported
    assert {column for column, part in reported if part == "blocks"} == world.damaged_columns
    for key in world.damaged_columns:
        assert np.array_equal(world.column(*key), seed_column(key))
    world.unload_columns_outside(1000, 1000, 0)
    assert stream_every_column(world) == []


def test_random_bit_flips_anywhere_either_refuse_the_open_or_stream_every_column_reporting_the_damage(tmp_path,
                                                                                                  original):
    path = tmp_path / "w.boxel"
    outcomes = {"refused": 0, "opened": 0, "damage reported": 0}
    for seed in range(FLIP_SEEDS):
        data = flip_random_bits(original[0], np.random.default_rng(seed))
        path.write_bytes(data)
        try:
            world = World.open(path, workers=1)
        except WorldFileError:
            assert path.read_bytes() == data, f"seed {seed}: a refused open changed the file"
            outcomes["refused"] += 1
            continue
        with world:
            problems = stream_every_column(world)
            check_damage_reported_once(world, problems)
            for cx, cz in world.damaged_columns:
                world.set_block(16 * cx, 220, 16 * cz, "brick")
        outcomes["opened"] += 1
        outcomes["damage reported"] += bool(problems)
        World.open(path, workers=1).close()  # the save of the damaged world left it openable
    assert min(outcomes.values()) > 0, outcomes  # each outcome was met, so the test exercises all of them


def test_random_bit_flips_in_a_column_blob_always_open_and_the_column_reads_as_saved_or_from_the_seed(tmp_path,
                                                                                                   original):
    path = tmp_path / "w.boxel"
    served_from_the_seed = 0
    for seed in range(BLOB_FLIP_SEEDS):
        rng = np.random.default_rng(seed)
        key = EDITED_COLUMNS[int(rng.integers(len(EDITED_COLUMNS)))]
        path.write_bytes(original[0])
        damage_blob_on_disk(path, key, rng)
        with World.open(path, workers=1) as world:
            problems = stream_every_column(world)
            check_damage_reported_once(world, problems)
            if not problems:  # a bit deflate never reads (an unused code length): the same bytes come out
                assert np.array_equal(world.column(*key), original[1][key]), f"seed {seed}"
                continue
            assert [(p.column, p.part) for p in problems] == [(key, "blocks")], f"seed {seed}"
            world.set_block(16 * key[0], 220, 16 * key[1], "brick")
        assert [row[:3] for row in damaged_rows(path)] == [(*key, "blocks")]
        served_from_the_seed += 1
    assert served_from_the_seed > BLOB_FLIP_SEEDS // 2
