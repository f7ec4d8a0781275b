"""Chat as a replay event: a `chat` line names what a player said; the session tells every player
`<name> text` as a notice (in the tick's record, for everyone); bad text is a bad replay naming the field."""

from __future__ import annotations

import pytest

from game.rules.lab_session import lab_session
from game.rules.replay import MAX_CHAT_CHARACTERS, Chat, ReplayFormatError, format_event, parse_event


def test_a_chat_line_reads_and_writes_as_json_with_its_player():
    assert parse_event('{"tick": 5, "event": "chat", "text": "hello"}') == Chat(5, "hello")
    said = Chat(7, "hi there", player="alice")
    assert format_event(said) == '{"tick": 7, "event": "chat", "text": "hi there", "player": "alice"}'
    assert parse_event(format_event(said)) == said


@pytest.mark.parametrize("text", ["", "   ", "x" * (MAX_CHAT_CHARACTERS + 1), "two\nlines", "bell\x07", 5, None],
                         ids=["empty", "spaces", "too long", "line break", "control", "number", "null"])
def test_chat_text_that_is_empty_too_long_or_not_printable_is_a_bad_replay(text):
    with pytest.raises(ReplayFormatError, match='"text" must be 1 to 100 printable characters'):
        Chat(0, text)


def test_the_longest_chat_line_is_betas_100_characters():
    assert Chat(0, "x" * MAX_CHAT_CHARACTERS).text == "x" * 100


def test_a_chat_line_is_told_to_every_player_with_the_speakers_name():
    session = lab_session()
    session.join("alice")
    session.apply(Chat(0, "hello, world", player="alice"))
    record = session.tick()
    assert [(notice.player, notice.text) for notice in record.notices] == [(None, "<alice> hello, world")]
    assert session.report()["notices"] == ["<alice> hello, world"]


def test_a_chat_line_changes_nothing_else_of_the_game():
    said, silent = lab_session(), lab_session()
    said.apply(Chat(0, "hello"))
    for session in (said, silent):
        for _ in range(3):
            session.tick()
    report, quiet = said.report(), silent.report()
    assert report.pop("notices") == ["<player> hello"] and quiet.pop("notices") == []
    assert report == quiet
