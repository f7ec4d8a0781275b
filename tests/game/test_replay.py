"""The replay format: JSON Lines events keyed by tick; clear errors naming the line; writing round-trips."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.frontends import cli
from game.rules import replay as replay_module
from game.rules.replay import (
    Click, KeyDown, KeyUp, Look, PutInSlot, ReplayCursor, ReplayFormatError, ReplayWriter, SetDayTime, SetPeaceful,
    format_event, look_angles, parse_event, parse_replay, read_replay, wrap_yaw,
)
from tests.game.hostile_values import json_values

SAMPLE = """\
{"tick": 5, "event": "look", "yaw": 270.0, "pitch": 0.0}
{"tick": 12, "event": "key_down", "key": "w"}

{"tick": 40, "event": "key_up", "key": "w"}
{"tick": 50, "event": "click", "button": "right"}
{"tick": 60, "event": "key_down", "key": "f3"}
"""


def test_the_issues_example_lines_parse_into_events_in_order():
    assert parse_replay(SAMPLE.splitlines()) == (
        Look(5, 270.0, 0.0), KeyDown(12, "w"), KeyUp(40, "w"), Click(50, "right"), KeyDown(60, "f3"),
    )


def test_written_lines_are_the_format_itself():
    assert format_event(KeyDown(12, "w")) == '{"tick": 12, "event": "key_down", "key": "w"}'
    assert format_event(Look(5, 270.0, -12.5)) == '{"tick": 5, "event": "look", "yaw": 270.0, "pitch": -12.5}'


def test_integer_look_angles_are_read_as_degrees():
    (event,) = parse_replay(['{"tick": 0, "event": "look", "yaw": 90, "pitch": -5}'])
    assert event == Look(0, 90.0, -5.0) and isinstance(event.yaw, float)


@pytest.mark.parametrize("line, complaint", [
    ('{"tick": 3, "event": "key_down", "key": "w"', "not valid JSON"),
    ('[3, "key_down", "w"]', "JSON object"),
    ('{"tick": 3, "event": "keydown", "key": "w"}', "unknown or missing \"event\""),
    ('{"tick": 3, "key": "w"}', "unknown or missing \"event\""),
    ('{"tick": 3, "event": "key_down"}', "lacks 'key'"),
    ('{"event": "key_down", "key": "w"}', "lacks 'tick'"),
    ('{"tick": -1, "event": "key_down", "key": "w"}', "integer >= 0"),
    ('{"tick": 1.5, "event": "key_down", "key": "w"}', "integer >= 0"),
    ('{"tick": true, "event": "key_down", "key": "w"}', "integer >= 0"),
    ('{"tick": 3, "event": "key_down", "key": ""}', "non-empty key name"),
    ('{"tick": 3, "event": "key_down", "key": 7}', "non-empty key name"),
    ('{"tick": 3, "event": "key_down", "key": "w", "held": 1}', "unknown field(s) 'held'"),
    ('{"tick": 3, "event": "look", "yaw": NaN, "pitch": 0}', "\"yaw\" must be a finite number"),
    ('{"tick": 3, "event": "look", "yaw": "east", "pitch": 0}', "\"yaw\" must be a finite number"),
    ('{"tick": 3, "event": "look", "yaw": 0, "pitch": 91}', "\"pitch\" must be within"),
    ('{"tick": 3, "event": "click", "button": "back"}', "\"button\" must be one of"),
    ('{"tick": 3, "event": "set_day_time", "day_time": 24000}', "\"day_time\" must be a whole number of ticks 0..23999"),
    ('{"tick": 3, "event": "set_day_time", "day_time": -1}', "\"day_time\" must be a whole number of ticks 0..23999"),
    ('{"tick": 3, "event": "set_day_time", "day_time": 6000.0}', "\"day_time\" must be a whole number of ticks"),
    ('{"tick": 3, "event": "set_day_time", "day_time": true}', "\"day_time\" must be a whole number of ticks"),
    ('{"tick": 3, "event": "set_day_time", "day_time": "noon"}', "\"day_time\" must be a whole number of ticks"),
    ('{"tick": 3, "event": "set_day_time"}', "lacks 'day_time'"),
    ('{"tick": 3, "event": "set_peaceful", "peaceful": 1}', "\"peaceful\" must be true or false, got 1"),
    ('{"tick": 3, "event": "set_peaceful", "peaceful": "yes"}', "\"peaceful\" must be true or false"),
    ('{"tick": 3, "event": "set_peaceful", "peaceful": null}', "\"peaceful\" must be true or false"),
    ('{"tick": 3, "event": "set_peaceful", "peaceful": true, "day_time": 0}', "unknown field(s) 'day_time'"),
])
def test_a_malformed_line_gives_an_error_naming_the_file_line_and_problem(line, complaint):
    lines = ['{"tick": 0, "event": "key_down", "key": "w"}', "", line]
    with pytest.raises(ReplayFormatError) as error:
        parse_replay(lines, source="bug.jsonl")
    assert str(error.value).startswith("bug.jsonl line 3: ")
    assert complaint in str(error.value)


def test_events_out_of_tick_order_are_refused_naming_the_line():
    with pytest.raises(ReplayFormatError, match="line 2: tick 3 comes after tick 9"):
        parse_replay(['{"tick": 9, "event": "key_down", "key": "w"}', '{"tick": 3, "event": "key_up", "key": "w"}'])


events_strategy = st.lists(
    st.one_of(
        st.builds(KeyDown, st.integers(0, 10**6), st.sampled_from(["w", "a", "space", "left shift", "f3"])),
        st.builds(KeyUp, st.integers(0, 10**6), st.text(min_size=1, max_size=12).map(str.strip).filter(bool)),
        st.builds(Look, st.integers(0, 10**6), st.floats(-1e6, 1e6), st.floats(-90.0, 90.0)),
        st.builds(Click, st.integers(0, 10**6), st.sampled_from(["left", "right", "middle"])),
        st.builds(SetDayTime, st.integers(0, 10**6), st.integers(0, 23_999)),
        st.builds(SetPeaceful, st.integers(0, 10**6), st.booleans()),
    ),
    max_size=30,
).map(lambda events: sorted(events, key=lambda e: e.tick))


@settings(max_examples=100, deadline=None)
@given(events_strategy)
def test_writing_then_reading_gives_back_the_same_events(events):
    stream = io.StringIO()
    writer = ReplayWriter(stream)
    for event in events:
        writer.write(event)
    assert parse_replay(stream.getvalue().splitlines()) == tuple(events)


def test_the_writer_refuses_events_that_go_back_in_time():
    writer = ReplayWriter(io.StringIO())
    writer.write(KeyDown(5, "w"))
    with pytest.raises(ValueError):
        writer.write(KeyUp(4, "w"))


def test_a_recording_file_reads_back(tmp_path):
    path = tmp_path / "session.jsonl"
    with ReplayWriter.open(path) as writer:
        writer.write(Look(0, 180.0, 15.0))
        writer.write(KeyDown(0, "w"))
    assert read_replay(path) == (Look(0, 180.0, 15.0), KeyDown(0, "w"))


def test_the_cursor_hands_out_each_event_once_at_its_tick():
    cursor = ReplayCursor([KeyDown(0, "w"), Look(0, 1.0, 2.0), KeyDown(2, "a"), KeyUp(5, "w")])
    assert cursor.due(0) == (KeyDown(0, "w"), Look(0, 1.0, 2.0))
    assert cursor.due(1) == ()
    assert cursor.due(2) == (KeyDown(2, "a"),)
    assert not cursor.finished
    assert cursor.due(9) == (KeyUp(5, "w"),)
    assert cursor.finished


def test_the_game_refuses_a_malformed_replay_before_opening_a_window(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"tick": 0, "event": "key_down", "key": "w"}\n{"tick": 1, "event": "jump"}\n', encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--lab", "--replay", str(path)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert f"{path} line 2: unknown or missing \"event\" 'jump'" in err


def test_the_game_refuses_a_missing_replay_file(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--replay", str(tmp_path / "nope.jsonl")])
    assert exit_info.value.code == 2
    assert "cannot read replay" in capsys.readouterr().err


# --- hostile replays: every line is an event or a ReplayFormatError, never a crash -----------------

@pytest.mark.parametrize("yaw, wrapped", [(1e7, 280.0), (1e308, 296.0), (-90.0, 270.0), (720.5, 0.5),
                                          (-1e-20, 0.0), (-0.0, 0.0)])
def test_a_look_yaw_of_any_size_is_read_as_the_same_direction_in_0_to_360(yaw, wrapped):
    (event,) = parse_replay([f'{{"tick": 0, "event": "look", "yaw": {yaw!r}, "pitch": 0.0}}'])
    assert event == Look(0, wrapped, 0.0)
    assert 0.0 <= event.yaw < 360.0 and str(event.yaw) == str(wrapped)  # +0.0, never -0.0


@pytest.mark.parametrize("yaw, pitch", [(float("nan"), 0.0), (0.0, float("inf")), (1.0, 90.5), ("east", 0.0),
                                        (True, 0.0)])
def test_a_look_event_with_an_angle_it_cannot_use_cannot_even_be_made(yaw, pitch):
    with pytest.raises(ReplayFormatError):
        Look(0, yaw, pitch)


def test_a_replay_that_is_not_utf8_is_refused_naming_the_line(tmp_path):
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"tick": 0, "event": "key_down", "key": "w"}\n{"tick": 1, "event": "key_down", "key": "\xe9"}\n')
    with pytest.raises(ReplayFormatError, match=r"latin1.jsonl line 2: not UTF-8 text \(byte 0xe9"):
        read_replay(path)


def test_the_game_refuses_a_replay_that_is_not_utf8_as_a_bad_replay(tmp_path, capsys):
    path = tmp_path / "binary.jsonl"
    path.write_bytes(b"\xff\xfe\x00garbage\n")
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--lab", "--headless", "--exit-after-ticks", "1", "--replay", str(path)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert f"bad replay: {path} line 1: not UTF-8 text" in err and "Traceback" not in err


@pytest.mark.parametrize("depth", [10, 5_000, 200_000])
def test_deeply_nested_json_in_a_replay_line_is_refused_naming_the_line(depth):
    nested = "[" * depth + "]" * depth
    with pytest.raises(ReplayFormatError, match="line 1: ") as error:
        parse_replay([f'{{"tick": 0, "event": "key_down", "key": {nested}}}'])
    assert len(str(error.value)) < 300  # the message does not quote the nesting


@pytest.mark.parametrize("line", ['{"tick": 0, "event": [], "key": "w"}', '{"tick": 0, "event": {}, "key": "w"}',
                                  '{"tick": 0, "event": "key_down", "key": ["w"]}'])
def test_a_field_of_the_wrong_json_type_is_refused_not_a_crash(line):
    with pytest.raises(ReplayFormatError, match="line 1: "):
        parse_replay([line])


JSON_VALUES = json_values()
HOSTILE_RECORDS = st.fixed_dictionaries(
    {"tick": st.one_of(st.integers(-5, 10**12), JSON_VALUES),
     "event": st.one_of(st.sampled_from(["look", "key_down", "key_up", "click", "set_day_time", "set_peaceful"]),
                        JSON_VALUES)},
    optional={"yaw": st.one_of(st.floats(allow_nan=True, allow_infinity=True), JSON_VALUES),
              "pitch": st.one_of(st.floats(-1e9, 1e9), st.floats(-90.0, 90.0), JSON_VALUES),
              "key": st.one_of(st.sampled_from(["w", "space", "f3", " w", ""]), JSON_VALUES),
              "button": st.one_of(st.sampled_from(["left", "right", "middle"]), JSON_VALUES),
              "day_time": st.one_of(st.integers(-5, 30_000), JSON_VALUES),
              "peaceful": st.one_of(st.booleans(), JSON_VALUES)})


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(HOSTILE_RECORDS.map(json.dumps), st.text(max_size=40)), max_size=6))
def test_any_replay_text_parses_into_valid_events_or_is_refused_with_a_replay_error(lines):
    try:
        events = parse_replay(lines)
    except ReplayFormatError:
        return
    for event in events:
        assert format_event(event)  # every event read is one the writer accepts as valid
        if isinstance(event, Look):
            assert 0.0 <= event.yaw < 360.0 and -90.0 <= event.pitch <= 90.0


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_any_replay_file_bytes_read_into_events_or_are_refused_with_a_replay_error(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("bytes") / "replay.jsonl"
    path.write_bytes(data)
    try:
        read_replay(path)
    except ReplayFormatError:
        pass


# --- numbers no event can use: a bad replay naming the line, never a traceback ---

REPO_ROOT = Path(__file__).resolve().parents[2]
DIGIT_LIMIT = sys.get_int_max_str_digits()
"""Python's limit on the digits of an int it reads from text (4,300 by default): JSON's reader obeys it."""
BEYOND_FLOAT = "1" * 400
"""An integer of 400 digits: JSON reads it, but it is far beyond the largest float (~1.8e308)."""
VALID_FIELDS = {
    "key_down": {"key": '"w"'}, "key_up": {"key": '"w"'}, "look": {"yaw": "90.0", "pitch": "0.0"},
    "click": {"button": '"left"'}, "release": {"button": '"left"'}, "put_in_slot": {"slot": "2", "block": '"glass"'},
    "set_day_time": {"day_time": "18000"}, "set_peaceful": {"peaceful": "true"}, "chat": {"text": '"hello"'},
    "slot_click": {"slot": "36", "button": '"left"', "shift": "false"}, "drop_held": {"whole_stack": "false"},
}
"""Each event kind's fields after "tick" and "event", as valid JSON text."""


def event_line(kind: str, **texts: str) -> str:
    """One replay line of event `kind` with its valid fields, some replaced by the JSON texts `texts`."""
    fields = {"tick": "0", "event": json.dumps(kind), **VALID_FIELDS[kind], **texts}
    return "{" + ", ".join(f"{json.dumps(name)}: {text}" for name, text in fields.items()) + "}"


def test_every_event_kind_has_a_valid_line_to_damage():
    assert set(VALID_FIELDS) == set(replay_module._EVENTS)
    assert len(parse_replay([event_line(kind) for kind in VALID_FIELDS])) == len(VALID_FIELDS)


@pytest.mark.parametrize("kind, field", [(kind, field) for kind in VALID_FIELDS
                                         for field in ("tick", *VALID_FIELDS[kind])])
def test_an_integer_longer_than_python_reads_in_any_field_is_a_bad_replay_naming_the_line(kind, field):
    line = event_line(kind, **{field: "7" * (DIGIT_LIMIT + 1)})
    with pytest.raises(ReplayFormatError) as error:
        parse_replay([event_line("key_down"), line], source="long.jsonl")
    assert str(error.value) == f"long.jsonl line 2: a number has more than {DIGIT_LIMIT} digits " \
                               "(no event field needs more than a few)"


@pytest.mark.parametrize("field, sign", [("yaw", ""), ("yaw", "-"), ("pitch", ""), ("pitch", "-")])
def test_an_integer_look_angle_beyond_float_range_is_a_bad_replay_naming_the_line(field, sign):
    line = event_line("look", **{field: sign + BEYOND_FLOAT})
    with pytest.raises(ReplayFormatError) as error:
        parse_replay([line], source="far.jsonl")
    assert str(error.value).startswith(f'far.jsonl line 1: "{field}" must be a finite number of degrees, got ')
    assert len(str(error.value)) < 200  # the 400 digits are shortened


@pytest.mark.parametrize("yaw, pitch", [(10 ** 400, 0.0), (0.0, -10 ** 400), (10 ** 5000, 0.0)],
                         ids=["yaw 1e400", "pitch -1e400", "yaw 1e5000"])
def test_a_look_event_made_in_code_with_an_integer_beyond_float_range_is_refused(yaw, pitch):
    with pytest.raises(ReplayFormatError, match="must be a finite number of degrees"):
        Look(0, yaw, pitch)
    with pytest.raises(ValueError, match="look angles must be finite numbers"):
        look_angles(yaw, pitch)


@pytest.mark.parametrize("yaw", [10 ** 400, -10 ** 400, 10 ** 5000, float("nan"), float("inf"), "90", None, True],
                         ids=["1e400", "-1e400", "1e5000", "nan", "inf", "text", "None", "True"])
def test_wrap_yaw_refuses_what_is_not_a_finite_number_with_a_value_error(yaw):
    with pytest.raises(ValueError, match="a yaw must be a finite number of degrees"):
        wrap_yaw(yaw)


def test_an_integer_yaw_within_float_range_still_names_a_direction():
    assert wrap_yaw(10 ** 300) == float(10 ** 300) % 360.0
    assert parse_replay([event_line("look", yaw=str(10 ** 300))])[0].yaw == float(10 ** 300) % 360.0


@pytest.mark.parametrize("field, text, complaint", [
    ("yaw", BEYOND_FLOAT, '"yaw" must be a finite number of degrees'),
    ("pitch", "-" + BEYOND_FLOAT, '"pitch" must be a finite number of degrees'),
    ("tick", "9" * (DIGIT_LIMIT + 1), f"a number has more than {DIGIT_LIMIT} digits"),
])
def test_headless_main_exits_2_naming_the_line_of_a_replay_with_a_number_it_cannot_use(tmp_path, field, text,
                                                                                       complaint):
    replay = tmp_path / "bad.jsonl"
    replay.write_text(event_line("key_down") + "\n" + event_line("look", **{field: text}) + "\n", encoding="utf-8")
    world = tmp_path / "w.boxel"
    done = subprocess.run([sys.executable, "main.py", "--headless", "--world", str(world), "--new", "--replay",
                           str(replay), "--exit-after-ticks", "5"],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "BOXEL_DATA_DIR": str(tmp_path / "data"), "BOXEL_MUTE": "1"})
    assert done.returncode == 2, done.stderr
    assert f"bad replay: {replay} line 2: {complaint}" in done.stderr
    assert "Traceback" not in done.stderr and not world.exists()


JSON_NUMBER_TEXTS = st.one_of(
    st.integers().map(str),
    st.integers(-2 ** 1100, 2 ** 1100).map(str),  # beyond float range either way
    st.tuples(st.sampled_from(["", "-"]), st.integers(1, DIGIT_LIMIT + 50)).map(lambda t: t[0] + "9" * t[1]),
    st.floats().map(lambda x: json.dumps(x)),  # NaN, Infinity and -Infinity, as Python's JSON writes them
    st.sampled_from(["1e400", "-1e400", "1e-400", "-0", "-0.0", "0e0", "360", "-90", "90.0000000000001"]),
)
"""JSON number texts of every kind: small and huge integers (past the float range and past Python's
digit limit), every float, overflowing and underflowing exponents, and the edges of the angles."""
FIELD_TEXTS = st.one_of(JSON_NUMBER_TEXTS, json_values().map(json.dumps))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(VALID_FIELDS)).flatmap(
    lambda kind: st.tuples(st.just(kind), st.dictionaries(st.sampled_from(["tick", *VALID_FIELDS[kind]]),
                                                          FIELD_TEXTS, min_size=1))))
def test_any_json_number_or_value_in_any_field_of_any_event_is_an_event_or_a_bad_replay(case):
    kind, texts = case
    try:
        events = parse_replay([event_line(kind, **texts)], source="fuzz.jsonl")
    except ReplayFormatError as error:
        assert str(error).startswith("fuzz.jsonl line 1: ")
        return
    (event,) = events
    assert parse_replay([format_event(event)]) == events  # every event read is one the writer writes back
    if isinstance(event, Look):
        assert 0.0 <= event.yaw < 360.0 and -90.0 <= event.pitch <= 90.0


def test_a_replay_line_of_the_longest_length_reads_and_one_byte_more_is_refused_naming_it(tmp_path):
    path = tmp_path / "long.jsonl"
    line = event_line("key_down")
    padded = line + " " * (replay_module.MAX_LINE_BYTES - len(line) - 1) + "\n"
    path.write_text(line + "\n" + padded, encoding="utf-8")
    assert read_replay(path) == (KeyDown(0, "w"), KeyDown(0, "w"))
    path.write_text(line + "\n" + " " + padded, encoding="utf-8")
    with pytest.raises(ReplayFormatError) as error:
        read_replay(path)
    assert str(error.value) == f"{path} line 2: longer than {replay_module.MAX_LINE_BYTES} bytes " \
                               "(an event is one short line)"


def test_the_game_refuses_a_replay_linked_to_dev_zero_as_a_bad_replay_without_filling_memory(tmp_path, capsys):
    path = tmp_path / "zero.jsonl"
    path.symlink_to("/dev/zero")
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--lab", "--headless", "--exit-after-ticks", "1", "--replay", str(path)])
    assert exit_info.value.code == 2
    assert f"bad replay: {path} line 1: longer than {replay_module.MAX_LINE_BYTES} bytes" in capsys.readouterr().err


# --- the documented example: put_in_slot acts only with the inventory open ------------------------

DOCUMENTED_EXAMPLE = tuple(line.strip() for line in replay_module.__doc__.splitlines()
                           if line.strip().startswith('{"tick"'))


def play_on_the_lab(events) -> tuple[str, ...]:
    from game.rules.lab_session import lab_session

    session = lab_session()
    session.run(events, 70)
    return session.hotbar.slots


def test_the_docstrings_example_opens_the_inventory_so_its_put_in_slot_puts_glass_in_slot_2():
    events = parse_replay(DOCUMENTED_EXAMPLE)
    assert PutInSlot(61, 2, "glass") in events
    slots = play_on_the_lab(events)
    assert slots[2] == "glass"


def test_a_put_in_slot_without_the_inventory_open_is_read_but_changes_nothing():
    bare = tuple(event for event in parse_replay(DOCUMENTED_EXAMPLE) if event != KeyDown(60, "e")
                 and event != KeyDown(62, "e"))
    assert PutInSlot(61, 2, "glass") in bare
    from game.rules.hotbar import Hotbar

    assert play_on_the_lab(bare) == Hotbar().slots


# --- the game changes the window's menus make --------------------------------------

def test_the_pause_menus_time_and_peaceful_are_written_as_set_day_time_and_set_peaceful_lines():
    assert format_event(SetDayTime(70, 18_000)) == '{"tick": 70, "event": "set_day_time", "day_time": 18000}'
    assert format_event(SetPeaceful(70, True)) == '{"tick": 70, "event": "set_peaceful", "peaceful": true}'
    assert format_event(SetPeaceful(71, False)) == '{"tick": 71, "event": "set_peaceful", "peaceful": false}'


def test_the_docstrings_game_change_lines_read_as_the_events_they_show():
    changes = [parse_event(line) for line in DOCUMENTED_EXAMPLE if '"set_' in line]
    assert changes == [SetDayTime(70, 18_000), SetPeaceful(70, True)]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 23_999), st.booleans(),
       st.sampled_from(["player", "alice", "Bob_2", "x" * 16]))
def test_any_set_day_time_and_set_peaceful_read_back_as_written(tick, day_time, peaceful, player):
    events = (SetDayTime(tick, day_time, player=player), SetPeaceful(tick, peaceful, player=player))
    lines = [format_event(event) for event in events]
    assert parse_replay(lines) == events
    assert [format_event(event) for event in parse_replay(lines)] == lines
    assert all(('"player"' in line) == (player != "player") for line in lines)  # the local player's: no field


@pytest.mark.parametrize("make", [lambda: SetDayTime(0, 24_000), lambda: SetDayTime(0, -1),
                                  lambda: SetDayTime(0, 6000.0), lambda: SetDayTime(0, True),
                                  lambda: SetPeaceful(0, 1), lambda: SetPeaceful(0, None),
                                  lambda: SetPeaceful(0, True, player="no one")],
                         ids=["a-day", "negative", "float", "bool-time", "int-peaceful", "none-peaceful", "bad-name"])
def test_a_game_change_with_a_value_it_cannot_hold_cannot_even_be_made(make):
    with pytest.raises(ReplayFormatError):
        make()
