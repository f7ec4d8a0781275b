"""The chat lines over the HUD: the newest at the bottom, wrapped to the chat's width, at most ten rows,
each shown for Beta's 200 ticks and fading over its last 20; the widget draws the log's rows (in an
Ursina with no window)."""

from __future__ import annotations

import json

import pytest

from game.window.ui.chat_lines import CHAT_ROWS, FADE_TICKS, LINE_TICKS, ChatLog, wrapped
from tests.game.conftest import run_without_window


def test_a_short_message_is_one_line_and_a_long_one_wraps_at_spaces():
    assert wrapped("hello") == ["hello"]
    assert wrapped("aaa bbb ccc", width=7) == ["aaa bbb", "ccc"]
    assert wrapped("x" * 10, width=4) == ["xxxx", "xxxx", "xx"]
    assert wrapped("one\ntwo") == ["one", "two"]
    assert wrapped("") == [""]


def test_a_message_that_is_not_text_is_a_type_error():
    with pytest.raises(TypeError):
        wrapped(42)
    log = ChatLog()
    with pytest.raises(TypeError):
        log.add(None)
    assert log.lines == []


def test_the_newest_line_is_last_and_only_the_latest_ten_rows_stay():
    log = ChatLog()
    for n in range(CHAT_ROWS + 3):
        log.add(f"line {n}")
    assert [line.text for line in log.lines] == [f"line {n}" for n in range(3, CHAT_ROWS + 3)]


def test_a_line_stays_200_ticks_and_fades_over_its_last_20():
    log = ChatLog()
    log.add("hello")
    alphas = []
    for _ in range(LINE_TICKS - 1):
        log.tick()
        alphas.append(log.lines[0].alpha)
    assert alphas[:LINE_TICKS - FADE_TICKS] == [1.0] * (LINE_TICKS - FADE_TICKS)
    assert alphas[-1] == 1 / FADE_TICKS
    assert alphas == sorted(alphas, reverse=True)
    log.tick()
    assert log.lines == []


def test_a_tick_says_whether_anything_drawn_changed():
    log = ChatLog()
    assert log.tick() is False
    log.add("hello")
    changes = [log.tick() for _ in range(LINE_TICKS)]
    assert changes == [False] * (LINE_TICKS - FADE_TICKS) + [True] * FADE_TICKS


SCRIPT = """
import json
from game.window.ui.chat_lines import ChatLines, FADE_TICKS, LINE_TICKS
chat = ChatLines()
chat.add("first")
chat.add("second")
rows = lambda: [(label.text if label.enabled else None) for label in chat.labels[:3]]
facts = {"shown": chat.shown, "rows": rows()}
for _ in range(LINE_TICKS - FADE_TICKS // 2):
    chat.after_tick()
facts["fading"] = [round(chat.labels[0].alpha, 3), round(chat.strips[0].alpha, 3)]
for _ in range(FADE_TICKS):
    chat.after_tick()
facts["gone"] = [chat.shown, rows()]
print(json.dumps(facts))
"""


def test_the_widget_draws_the_newest_line_in_its_bottom_row_and_hides_rows_whose_time_is_up():
    facts = json.loads(run_without_window(SCRIPT).strip().splitlines()[-1])
    assert facts["shown"] == ["first", "second"]
    assert facts["rows"] == ["second", "first", None]  # row 0 is the bottom one
    assert facts["fading"] == [0.5, 0.25]
    assert facts["gone"] == [[], [None, None, None]]
