"""The replay format: JSON Lines events keyed by tick; clear errors naming the line; writing round-trips."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import cli
from game.replay import (
    Click, KeyDown, KeyUp, Look, ReplayCursor, ReplayFormatError, ReplayWriter, format_event, parse_replay,
    read_replay,
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
     "event": st.one_of(st.sampled_from(["look", "key_down", "key_up", "click"]), JSON_VALUES)},
    optional={"yaw": st.one_of(st.floats(allow_nan=True, allow_infinity=True), JSON_VALUES),
              "pitch": st.one_of(st.floats(-1e9, 1e9), st.floats(-90.0, 90.0), JSON_VALUES),
              "key": st.one_of(st.sampled_from(["w", "space", "f3", " w", ""]), JSON_VALUES),
              "button": st.one_of(st.sampled_from(["left", "right", "middle"]), JSON_VALUES)})


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
