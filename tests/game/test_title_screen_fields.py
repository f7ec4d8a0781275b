"""The title screen's text fields as a player types into them (Ursina with no window, in a
subprocess): New's name field starts with the caret at the end of "New World" and nothing selected,
the release of the click on New leaves it there, Home and End move it; Rename's field starts the
same way, so the first key typed is added after the old name; a click that gives a field the
keyboard selects nothing. A fuzz of key and pointer events keeps the caret inside the text and
every selection drawn. The pointer's column is set on the field (there is no window to point in)."""

from __future__ import annotations

import random
from types import SimpleNamespace
from pathlib import Path

import pytest

from tests.game.conftest import print_probe, run_probe

FUZZ_SEQUENCES = 150
"""Event sequences in the fuzz run (each of FUZZ_EVENTS events), each from the New dialog's first state."""
FUZZ_EVENTS = 40
FUZZ_KEYS = ("a", "b", " ", "backspace", "left arrow", "right arrow", "home", "end", "shift+home", "shift+end",
             "shift+left arrow", "ctrl+a", "press on", "press off", "release", "double click")
"""What the fuzz does: characters, editing and moving keys (with Shift held for "shift+..."), and
the left button pressed on the field, pressed off it, or released (at a random column)."""


def _field_state(field) -> dict:
    text_field = field.text_field
    return {"text": text_field.text, "caret": int(text_field.cursor.x), "selected": text_field.get_selected() or "",
            "drawn": len(text_field.selection_parent.children)}


def _press(field, key: str, column: int) -> None:
    """One fuzz or scripted event on `field`, the pointer at `column` of its text."""
    from ursina import held_keys, mouse

    field.text_field.get_mouse_position = lambda: (max(0, min(column, len(field.text))), 0)
    if key in ("press on", "press off"):
        field.hovered = key == "press on"
        # What Ursina's pointer ray would have found: the field, hit at its centre, or nothing.
        mouse.hovered_entity = field if field.hovered else None
        mouse.collision = SimpleNamespace(point=(0.0, 0.0, 0.0)) if field.hovered else None
        field.text_field.input("left mouse down")
        return
    if key == "release":
        field.text_field.input("left mouse up")
        return
    modifier, _, name = key.rpartition("+")
    held_keys[{"shift": "shift", "ctrl": "control"}.get(modifier, "shift")] = 1 if modifier else 0
    try:
        if len(name) == 1 and not modifier:
            field.text_field.text_input(name)
        else:
            field.text_field.input(name)
    finally:
        held_keys["shift"] = held_keys["control"] = 0


def probe_fields(folder: str) -> None:
    """Run in a subprocess: the scripted cases and the fuzz; prints the results for the tests."""
    from ursina import Ursina

    Ursina(window_type="none")
    from game.window.ui.title_screen import TitleScreen
    from game.userdata.user_settings import UserSettings
    from game.world import World

    worlds = Path(folder)
    worlds.mkdir(parents=True, exist_ok=True)
    World.create(worlds / "Castle.boxel", 1, workers=1).close()
    screen = TitleScreen(folder=worlds, settings=UserSettings(), settings_path=worlds / "settings.json")
    report: dict = {}

    screen.open_new()
    name, seed = screen.fields["name"], screen.fields["seed"]
    report["new opened"] = _field_state(name)
    name.hovered = False
    _press(name, "release", 3)  # the click on New ends over the New button, below the field
    report["new after the release"] = _field_state(name)
    _press(name, "home", 3)
    report["home"] = _field_state(name)
    _press(name, "end", 3)
    report["end"] = _field_state(name)
    _press(name, "shift+home", 3)
    report["shift home"] = _field_state(name)
    _press(name, "!", 3)
    report["typed over the selection"] = _field_state(name)
    _press(seed, "press on", 0)
    _press(seed, "1", 0)  # the seed field is not active until the click's release: nothing typed
    _press(seed, "release", 0)
    for key in "42":
        _press(seed, key, 0)
    _press(seed, "press off", 0)
    _press(seed, "release", 0)
    _press(seed, "press on", 1)
    _press(seed, "release", 1)
    report["seed focused again"] = _field_state(seed)
    screen.close_dialog()

    screen.open_rename()
    renamed = screen.fields["name"]
    report["rename opened"] = _field_state(renamed)
    renamed.hovered = False
    _press(renamed, "release", 99)  # the click on Rename ends right of the field's text
    _press(renamed, "2", 99)
    report["rename typed"] = _field_state(renamed)
    screen.close_dialog()

    report["fuzz"] = _fuzz(screen)
    print_probe(report)


def _fuzz(screen) -> dict:
    """FUZZ_SEQUENCES random event sequences on the New dialog's name field, each from the state the
    dialog opens with; the invariants checked
    after every event; returns how many events ran and the first broken invariant (or None)."""
    rng = random.Random(36)
    events = 0
    screen.open_new()
    field = screen.fields["name"]
    for sequence in range(FUZZ_SEQUENCES):
        _press(field, "press off", 0)  # the last sequence's button up, away from the field
        _press(field, "release", 0)
        field.text = "New World"  # as the dialog opens: the name, the field active, the pointer elsewhere
        field.active = True
        field.hovered = False
        pressed = None  # where the left button went down ("press on" or "press off"), while it is down
        for _ in range(FUZZ_EVENTS):
            key, column = rng.choice(FUZZ_KEYS), rng.randrange(0, 30)
            before = _field_state(field)
            _press(field, key, column)
            events += 1
            after = _field_state(field)
            broken = _broken(before, after, key, pressed)
            pressed = key if key in ("press on", "press off") else None if key == "release" else pressed
            if broken:
                screen.close_dialog()
                return {"events": events, "broken": f"sequence {sequence}, {key!r}: {broken} {before} -> {after}"}
    screen.close_dialog()
    return {"events": events, "broken": None}


def _broken(before: dict, after: dict, key: str, pressed: str | None) -> str | None:
    """The invariant `key` (the button last pressed `pressed`) broke going from `before` to `after`, or None."""
    if not 0 <= after["caret"] <= len(after["text"]):
        return "the caret left the text"
    if bool(after["selected"]) != bool(after["drawn"]):
        return "a selection is not drawn (or a drawing selects nothing)"
    if key == "release" and pressed != "press on" and after != before:
        return "the release of a press that did not start on the field changed it"
    return None


@pytest.fixture(scope="module")
def typed(tmp_path_factory) -> dict:
    return run_probe(__name__, "probe_fields", str(tmp_path_factory.mktemp("fields") / "worlds"))


def test_new_world_name_starts_with_the_caret_at_the_end_and_nothing_selected(typed):
    assert typed["new opened"] == {"text": "New World", "caret": 9, "selected": "", "drawn": 0}


def test_the_release_of_the_click_on_new_leaves_the_caret_at_the_end_of_the_name(typed):
    assert typed["new after the release"] == {"text": "New World", "caret": 9, "selected": "", "drawn": 0}


def test_home_and_end_move_the_caret_to_the_start_and_the_end_and_shift_home_selects_to_the_start(typed):
    assert typed["home"]["caret"] == 0 and typed["home"]["selected"] == ""
    assert typed["end"]["caret"] == 9 and typed["end"]["selected"] == ""
    assert typed["shift home"] == {"text": "New World", "caret": 0, "selected": "New World", "drawn": 1}
    assert typed["typed over the selection"]["text"] == "!"


def test_a_click_that_gives_the_seed_field_the_keyboard_places_the_caret_and_selects_nothing(typed):
    assert typed["seed focused again"] == {"text": "42", "caret": 1, "selected": "", "drawn": 0}


def test_rename_starts_at_the_end_of_the_old_name_so_the_first_key_typed_is_added_after_it(typed):
    assert typed["rename opened"] == {"text": "Castle", "caret": 6, "selected": "", "drawn": 0}
    assert typed["rename typed"] == {"text": "Castle2", "caret": 7, "selected": "", "drawn": 0}


def test_any_keys_and_clicks_keep_the_caret_in_the_text_and_every_selection_drawn(typed):
    assert typed["fuzz"] == {"events": FUZZ_SEQUENCES * FUZZ_EVENTS, "broken": None}

