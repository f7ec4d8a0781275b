"""The entities stored with each column (mobs, and what is in flight: falling blocks, projectiles).

Owns: reading a column's entity list (`column_entities`: set since the last save, else from the
file), replacing it (`set_column_entities`, written by the next save), listing the columns that may
hold any (`entity_columns`), and a damaged saved list read as none, reported once.
Does not own: what an entry means (`game.rules.mobs`, `game.rules.saved_entities` and the rules that own each
kind), the file (`storage.py`), or writing the lists (`World.save`).

`ColumnEntities` is a part of `World` (a mixin behind the `World` façade): it keeps its state on the
World, which sets it up in `World.__init__` and clears it on a save: `_unsaved_entities` (column ->
entries set since the last save, with the JSON text the save writes) and `_entities_damaged` (saved lists that could not be read); it
calls the World's `_open_file` (a closed world refuses with WorldClosedError) and `_report`.
"""

from __future__ import annotations

from .coords import column_coordinate
from .storage import ENTITIES, CorruptWorldError, EntitiesText, entities_json


class ColumnEntities:
    """The World's per-column entity lists (see the module docstring for its state)."""

    _unsaved_entities: dict[tuple[int, int], EntitiesText]
    _entities_damaged: set[tuple[int, int]]

    def column_entities(self, cx: int, cz: int) -> list[dict]:
        """The entities (mobs) stored with column (cx, cz): set since the last save, or read from the file."""
        file = self._open_file()
        key = (column_coordinate(cx, "cx"), column_coordinate(cz, "cz"))
        if key in self._unsaved_entities:
            return [dict(e) for e in self._unsaved_entities[key].entities]
        if key in self._entities_damaged:
            return []
        try:
            return file.load_entities(*key)
        except CorruptWorldError as error:
            self._entities_damaged.add(key)
            self._report(key, ENTITIES, error, "its saved mobs are left out (their bytes stay in the file)")
            return []

    def set_column_entities(self, cx: int, cz: int, entities: list[dict]) -> None:
        """Replace the entities stored with column (cx, cz) (JSON objects); written by the next `save()`."""
        self._open_file()
        key = (column_coordinate(cx, "cx"), column_coordinate(cz, "cz"))
        text = entities_json(entities)  # refuse what save() could not write now, not at save time
        self._unsaved_entities[key] = EntitiesText([dict(e) for e in entities], text)  # the text the save writes

    def entity_columns(self) -> list[tuple[int, int]]:
        """Every column (cx, cz) whose entity list may hold something (saved, or set since the last
        save), sorted: the game restores what is in flight (falling blocks, projectiles) from them."""
        file = self._open_file()
        unsaved = {key for key, listed in self._unsaved_entities.items() if listed.entities}
        return sorted(set(file.entity_columns()) | unsaved)
