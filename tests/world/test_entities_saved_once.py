"""A column's entity list is checked and encoded once, when it is set: the save writes that text
(saving many blocks in flight used to check and encode every list again)."""

from __future__ import annotations

from game.world import World, column_entities, storage


def test_saving_writes_the_text_made_when_the_entities_were_set_without_encoding_them_again(tmp_path, monkeypatch):
    path = tmp_path / "w.boxel"
    with World.create(path, seed=1, workers=1) as world:
        calls = []
        encode = storage.entities_json
        monkeypatch.setattr(column_entities, "entities_json", lambda e: calls.append("set") or encode(e))
        monkeypatch.setattr(storage, "entities_json", lambda e: calls.append("save") or encode(e))
        nested = {"kind": "test", "cells": [1, 2, 3]}
        world.set_column_entities(0, 0, [nested])
        nested["cells"].append(4)  # a change after the set is not what was set
        world.save()
        assert calls == ["set"]
    with World.open(path) as reopened:
        assert reopened.column_entities(0, 0) == [{"kind": "test", "cells": [1, 2, 3]}]
