"""Forged metadata with a valid checksum: every meta value is checked by type and range
when it is read, in the file checks, so neither `World.open` nor the world list (`world_list.describe`)
ever sees an unchecked one. A bad value is a CorruptWorldError naming the field; the list shows the
file greyed with that reason and never raises; the file is left as it was."""

from __future__ import annotations

import json
import math
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.frontends import cli

from game.userdata import world_list
from game.rules.player import spawn_body
from game.world import CorruptWorldError, World, WorldFileError
from game.world.file_checks import check_json_values, check_meta_value
from game.world.file_format import (CHECKSUM_KEY, MAX_CREATED_AT_S, MAX_JSON_DEPTH, MAX_JSON_INT, MAX_META_TEXT_BYTES,
                                    MAX_WORLD_TICKS, SPAWN_HEIGHT, SPAWN_LIMIT)
from game.world.noise import MAX_SEED, MIN_SEED
from game.world.storage import player_state_json

from .conftest import SEED, edit_meta, fingerprint

HOSTILE_EXAMPLES = 60
"""Hypothesis examples per property: each writes, lists and opens a small world file (a few ms)."""
HUGE = "1" + "0" * 400
"""A 400-digit integer as JSON text: valid JSON, beyond any float."""
HOSTILE_TEXTS = [HUGE, "-" + HUGE, "1e999", "-1e999", "NaN", "Infinity", "-Infinity", "1e308", "-1e308", '"text"',
                 "[[[[1]]]]", '{"a": 1}', "true", "false", "null", "[" * 200 + "]" * 200, "[]", "0.5", "-1"]
"""JSON texts (all valid JSON for Python's reader) that no meta field accepts as they stand: each is a
wrong type or out of its field's range for some field, and the tests below say which are fine where."""
META_FIELDS = ["format_version", "seed", "created_at", "spawn", "world_ticks"]
"""The meta rows of the current format (the players' states are rows of the players table:
tests/world/test_players_saved.py forges those)."""


@pytest.fixture(scope="module")
def world_bytes(tmp_path_factory) -> bytes:
    """The bytes of a saved, closed seed-42 world with a brick at (0, 100, 0)."""
    path = tmp_path_factory.mktemp("meta") / "base.boxel"
    with World.create(path, seed=SEED, workers=1) as world:
        world.set_block(0, 100, 0, "brick")
    return path.read_bytes()


def forged(folder: Path, world_bytes: bytes, **texts: str) -> Path:
    """A copy of the saved world in `folder` with meta rows set to `texts` and a checksum that matches."""
    path = folder / "forged.boxel"
    path.unlink(missing_ok=True)
    path.write_bytes(world_bytes)
    edit_meta(path, **texts)
    return path


def assert_refused_everywhere(path: Path, field: str) -> None:
    """World.open refuses naming `field`, the list shows the file greyed with that reason, and the file is unchanged."""
    before = fingerprint(path)
    with pytest.raises(CorruptWorldError, match=f"its {field} "):
        World.open(path, workers=1)
    entry = world_list.describe(path)
    assert (entry.seed, entry.readable) == (None, False)
    assert f"its {field} " in entry.problem
    assert fingerprint(path) == before


# --- the cases --------------------------------------------------------------------------------------


def test_a_400_digit_created_at_with_a_valid_checksum_is_refused_naming_the_field(tmp_path, world_bytes):
    assert_refused_everywhere(forged(tmp_path, world_bytes, created_at=HUGE), "created_at")


@pytest.mark.parametrize("spawn", [[HUGE, "70.0", "0.5"], ["0.5", HUGE, "0.5"], ["0.5", "70.0", "-" + HUGE]])
def test_a_spawn_with_a_400_digit_coordinate_is_refused_naming_the_spawn(tmp_path, world_bytes, spawn):
    assert_refused_everywhere(forged(tmp_path, world_bytes, spawn="[" + ", ".join(spawn) + "]"), "spawn")


@pytest.mark.parametrize("spawn", [[30_000_000.5, 70.0, 0.5], [0.5, 70.0, -30_000_000.0],
                                   [SPAWN_LIMIT + 0.25, 70.0, 0.5], [0.5, -1.0, 0.5], [0.5, 256.5, 0.5]])
def test_a_spawn_beyond_the_world_border_or_the_build_height_is_refused_at_open(tmp_path, world_bytes, spawn):
    assert_refused_everywhere(forged(tmp_path, world_bytes, spawn=json.dumps(spawn)), "spawn")


@pytest.mark.parametrize("spawn", [[SPAWN_LIMIT, 0.0, -SPAWN_LIMIT],
                                   [-SPAWN_LIMIT + 0.5, SPAWN_HEIGHT, SPAWN_LIMIT - 0.5]])
def test_a_spawn_just_inside_the_border_opens_and_a_player_can_be_put_there(tmp_path, world_bytes, spawn):
    path = forged(tmp_path, world_bytes, spawn=json.dumps(spawn))
    with World.open(path, workers=1) as world:
        assert world.spawn == tuple(spawn)
        body = spawn_body(world)  # what every launch does first: no OutOfWorldError
        assert abs(body.box.min_x + body.box.max_x - 2 * spawn[0]) < 1e-6


def test_the_list_of_worlds_shows_a_forged_world_greyed_beside_a_good_one(tmp_path, world_bytes):
    forged(tmp_path, world_bytes, created_at=HUGE, seed=HUGE)
    (tmp_path / "good.boxel").write_bytes(world_bytes)
    entries = {entry.name: entry for entry in world_list.list_worlds(tmp_path)}
    assert entries["good"].seed == SEED and entries["good"].readable
    assert entries["forged"].seed is None and "damaged" in entries["forged"].problem


def test_headless_with_a_forged_world_exits_2_naming_the_field_without_a_traceback(tmp_path, world_bytes, capsys,
                                                                                    monkeypatch):
    monkeypatch.setenv("BOXEL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("BOXEL_CONFIG_DIR", str(tmp_path / "config"))
    path = forged(tmp_path, world_bytes, created_at=HUGE)
    assert cli.main(["--world", str(path), "--headless", "--exit-after-ticks", "1"]) == cli.EXIT_USAGE
    error = capsys.readouterr().err
    assert "created_at" in error and "Traceback" not in error


@pytest.mark.parametrize("field", META_FIELDS)
@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_every_meta_field_with_a_hostile_value_is_refused_or_read_in_range(tmp_path, world_bytes, field, text):
    path = forged(tmp_path, world_bytes, **{field: text})
    outcome = open_and_list(path)
    accepted = {("created_at", "0.5"), ("seed", "-1")}  # in range: another time, another seed
    assert (outcome == "opened") == ((field, text) in accepted), outcome


# --- the whole class: any value in any field ------------------------------------------------------------------


def json_texts() -> st.SearchStrategy[str]:
    """JSON texts Python's reader takes: special numbers, huge ints, deep nesting, and any JSON value."""
    leaves = (st.none() | st.booleans() | st.integers() | st.integers(-10 ** 500, 10 ** 500) | st.floats()
              | st.text(max_size=20))
    values = st.recursive(leaves, lambda inner: (st.lists(inner, max_size=4)
                                                 | st.dictionaries(st.text(max_size=5), inner, max_size=4)),
                          max_leaves=20)
    deep = st.integers(1, 3000).map(lambda depth: "[" * depth + "]" * depth)
    spawn_like = st.lists(st.floats() | st.integers(-10 ** 400, 10 ** 400), min_size=3, max_size=3)
    state_like = st.dictionaries(st.sampled_from(["yaw", "box", "hotbar"]), values, max_size=3)
    return (st.sampled_from(HOSTILE_TEXTS) | deep | values.map(json.dumps) | spawn_like.map(json.dumps)
            | state_like.map(json.dumps))


@settings(max_examples=HOSTILE_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(META_FIELDS), text=json_texts())
def test_any_value_in_any_meta_field_is_refused_naming_it_or_read_in_range_by_open_and_list_alike(
        tmp_path, world_bytes, field, text):
    path = forged(tmp_path, world_bytes, **{field: text})
    outcome = open_and_list(path)
    if outcome != "opened" and field != "format_version":  # a format version may also give a schema's refusal
        assert field in outcome, outcome


def open_and_list(path: Path) -> str:
    """"opened" when World.open accepts the file (every value then checked here to be in range, and the
    list showing it playable with its seed), else the refusal's message (the list showing it greyed,
    the file unchanged). Fails on anything else either raises."""
    before = fingerprint(path)
    entry = world_list.describe(path)  # never raises
    try:
        world = World.open(path, workers=1)
    except WorldFileError as error:
        assert not entry.readable and entry.seed is None
        assert fingerprint(path) == before
        return str(error)
    try:
        assert entry.readable and entry.seed == world.seed
        assert_in_range(world)
    finally:
        world.close()
    return "opened"


def assert_in_range(world: World) -> None:
    assert type(world.seed) is int and MIN_SEED <= world.seed <= MAX_SEED
    assert type(world.created_at) is float and 0 <= world.created_at <= MAX_CREATED_AT_S
    x, y, z = world.spawn
    assert all(type(v) is float for v in world.spawn)
    assert -SPAWN_LIMIT <= x <= SPAWN_LIMIT and -SPAWN_LIMIT <= z <= SPAWN_LIMIT and 0 <= y <= SPAWN_HEIGHT
    assert type(world.ticks) is int and 0 <= world.ticks < MAX_WORLD_TICKS
    state = world.player_state
    assert state is None or isinstance(state, dict)
    check_json_values(state)
    assert player_state_json(state) is not None  # what was read can be saved again


# --- save and open agree ---------------------------------------------------------------------------------------


def nested(depth: int) -> list:
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


@pytest.mark.parametrize("state, problem", [
    ({"a": nested(MAX_JSON_DEPTH + 1)}, "nested more than"),
    ({"a": nested(100_000)}, "nested more than"),
    ({"a": MAX_JSON_INT + 1}, "beyond"),
    ({"a": -10 ** 400}, "beyond"),
    ({"a": [1.0, math.inf]}, "finite"),
    ({"a": {"b": math.nan}}, "finite"),
    ({"a": "x" * MAX_META_TEXT_BYTES}, "bytes as JSON"),
])
def test_a_player_state_an_open_would_refuse_is_refused_when_set_and_nothing_changes(world, state, problem):
    with pytest.raises(ValueError, match=problem):
        world.player_state = state
    assert world.player_state is None


def test_the_deepest_and_largest_player_state_allowed_round_trips(tmp_path):
    deepest = {"a": nested(MAX_JSON_DEPTH - 1), "n": [MAX_JSON_INT, -MAX_JSON_INT, 5e-324, 1.7976931348623157e308]}
    with World.create(tmp_path / "w.boxel", seed=SEED, workers=1) as world:
        world.player_state = deepest
    with World.open(tmp_path / "w.boxel", workers=1) as world:
        assert world.player_state == deepest


@settings(max_examples=HOSTILE_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=json_texts())
def test_a_player_state_is_set_exactly_when_an_open_reads_it_back(tmp_path, world_bytes, text):
    try:
        state = json.loads(text)
    except (ValueError, RecursionError):
        return
    path = tmp_path / "w.boxel"
    path.unlink(missing_ok=True)
    path.write_bytes(world_bytes)
    world = World.open(path, workers=1)
    try:
        world.player_state = state
    except (TypeError, ValueError):
        world.close()
        with pytest.raises((TypeError, ValueError)):
            check_meta_value("player_state", state)
        return
    world.save()
    world.close()
    with World.open(path, workers=1) as reopened:
        assert json.dumps(reopened.player_state, sort_keys=True) == json.dumps(state, sort_keys=True)


def test_a_meta_value_longer_than_the_limit_is_refused_without_reading_it(tmp_path, world_bytes):
    path = forged(tmp_path, world_bytes, spawn=json.dumps(["x" * MAX_META_TEXT_BYTES]))
    with pytest.raises(CorruptWorldError, match=f"'spawn' is a text of .* at most {MAX_META_TEXT_BYTES} bytes"):
        World.open(path, workers=1)


def test_a_huge_format_version_is_refused_as_damage_without_printing_400_digits(tmp_path, world_bytes):
    path = forged(tmp_path, world_bytes, format_version=HUGE)
    with pytest.raises(CorruptWorldError, match="format version <an int of about 400 digits>"):
        World.open(path, workers=1)


def test_the_checksum_row_itself_is_checked_first(tmp_path, world_bytes):
    path = forged(tmp_path, world_bytes)
    edit = sqlite3.connect(path)
    edit.execute("UPDATE meta SET value = ? WHERE key = ?", (HUGE, CHECKSUM_KEY))
    edit.commit()
    edit.close()
    with pytest.raises(CorruptWorldError, match="does not match its checksum"):
        World.open(path, workers=1)
