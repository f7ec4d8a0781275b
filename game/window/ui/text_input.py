"""A one-line text field that behaves as players expect one to: the dialogs' name and seed fields.

Owns: `TextInput`, Ursina's `InputField` with its caret and selection rules fixed:
- the caret starts at the end of the text it was given, with nothing selected;
- Home and End move the caret to the start and the end (with Shift held they select up to there);
- only a press that starts on the field places the caret or selects with the pointer: the release
  of the click that opened the dialog (over a button, outside the field) changes nothing;
- what is selected is always drawn, and an empty selection sits at the caret (Ursina leaves a
  selection made by a release undrawn, so the next key typed replaced text the player could not
  see was selected, and leaves an emptied selection where it was, so Shift and an arrow then
  selected from there rather than from the caret).
Does not own: the dialogs around the fields (`title_screen.py`) or what their text means.

Ursina's `TextField` (the field's editing part) is used as it is, except that its `input`,
`text_input` and `update` pass through `TextInput`, which keeps the rules above.
"""

from __future__ import annotations

from ursina import Vec2, held_keys
from ursina.prefabs.input_field import InputField

PRESS = "left mouse down"
RELEASE = "left mouse up"
LINE_START_KEYS = ("home", "home hold")
LINE_END_KEYS = ("end", "end hold")


class TextInput(InputField):
    """A one-line `InputField` whose caret starts at the end of its text and follows Home, End and
    presses on the field only (see the module's rules). `caret` is where the caret is (characters
    from the start); `selected` the selected text ("" when none)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._pressed_on_field = False
        """The left button went down on this field and is still down: a release or drag is the field's."""
        field = self.text_field
        self._field_input, self._field_text_input, self._field_update = field.input, field.text_input, field.update
        field.input, field.text_input, field.update = self._input, self._text_input, self._update
        self.caret_to_end()

    # --- the text and caret ----------------------------------------------------------------------

    @property
    def text(self) -> str:
        return self.text_field.text

    @text.setter
    def text(self, value: str) -> None:
        """Replace the text; the caret goes to its end with nothing selected."""
        if not isinstance(value, str):
            raise TypeError(f"a text field's text is a str, got {value!r}")
        InputField.text.fset(self, value)
        self.caret_to_end()

    @property
    def caret(self) -> int:
        return int(self.text_field.cursor.x)

    @property
    def selected(self) -> str:
        return self.text_field.get_selected() or ""

    def caret_to_end(self) -> None:
        """Put the caret after the last character, nothing selected."""
        self._move_caret(len(self.text_field.text), select=False)

    def _move_caret(self, x: int, select: bool) -> None:
        """The caret to column `x`; with `select`, the selection runs from where it was anchored (the
        caret, when nothing was selected) to there, else nothing is selected."""
        field = self.text_field
        anchor = Vec2(field.cursor.x, 0)
        if select and field.selection and field.selection[0] != field.selection[1]:
            anchor = Vec2(field.selection[0])
        field.cursor.position = (x, 0)
        field.selection = [anchor if select else Vec2(x, 0), Vec2(x, 0)]
        field.draw_selection()

    # --- Ursina's TextField, with the rules ------------------------------------------------------

    def _input(self, key: str):
        field = self.text_field
        if key == PRESS:
            self._pressed_on_field = bool(field.bg.hovered)
        if key == RELEASE and not self._pressed_on_field:
            return None  # the release of a press elsewhere: the caret stays where it is
        if field.active and key in LINE_START_KEYS + LINE_END_KEYS:
            self._move_caret(0 if key in LINE_START_KEYS else len(field.text), select=bool(held_keys["shift"]))
            return None
        focusing = key == RELEASE and not field.active
        eaten = self._field_input(key)
        if key == RELEASE:
            self._pressed_on_field = False
            if focusing:  # a click that gives the field the keyboard places the caret and selects nothing
                self._move_caret(self.caret, select=False)
        self._tidy_selection()
        return eaten

    def _text_input(self, key: str) -> None:
        self._field_text_input(key)
        self._tidy_selection()

    def _tidy_selection(self) -> None:
        """The selection as columns inside the text, an empty one at the caret, and drawn. (Ursina
        may leave an end a 3D caret position, which never equals a 2D one, an end past text just
        erased, or an emptied selection away from the caret.)"""
        field = self.text_field
        length = len(field.text)
        ends = [Vec2(min(max(int(end[0]), 0), length), 0) for end in field.selection]
        if ends[0] == ends[1]:
            ends = [Vec2(self.caret, 0), Vec2(self.caret, 0)]
        field.selection = ends
        field.draw_selection()

    def _update(self) -> None:
        if self._pressed_on_field:  # a drag that began on the field selects; one from elsewhere does not
            self._field_update()
