"""Ursina's per-frame walk (`game.window.render.frame_loop`): idle parts of a screen leave it, anything that
updates, takes input or can be clicked stays, and destroying the screen still destroys every part
(Ursina with no window, in a subprocess)."""

from __future__ import annotations

import json

from .conftest import run_without_window


def last_json_line(stdout: str) -> dict:
    """The report the script printed last (Ursina prints its own lines before it)."""
    return json.loads(stdout.strip().splitlines()[-1])


def test_only_idle_descendants_leave_the_walk_and_destroying_the_root_still_frees_them():
    out = last_json_line(run_without_window("""
import json
from ursina import Button, Entity, Text, camera, destroy, scene
from game.window.render.frame_loop import leave_frame_loop
root = Entity(parent=camera.ui, update=lambda: None)
plain = Entity(parent=root, model='quad')
hidden = Entity(parent=plain, model='quad', enabled=False)
label = Text('hi', parent=root)
ticking = Entity(parent=root, update=lambda: None)
listening = Entity(parent=plain, input=lambda key: None)
button = Button(parent=root, text='ok')
solid = Entity(parent=root, model='cube', collider='box')
outside = Entity(model='quad')
taken = leave_frame_loop(root)
again = leave_frame_loop(root)
inside = lambda e: any(e is x for x in scene.entities)
parts = [plain, hidden, label, ticking, listening, button, solid]
report = {'taken': taken, 'again': again,
          'in_walk': {name: inside(e) for name, e in zip(('root', 'plain', 'hidden', 'label', 'ticking', 'listening',
                                                          'button', 'solid', 'outside'), [root, *parts, outside])}}
destroy(root)
report['destroyed'] = all(e.is_empty() for e in parts)
print(json.dumps(report))
"""))
    walk = out["in_walk"]
    assert walk["root"] and walk["ticking"] and walk["listening"] and walk["button"] and walk["solid"]
    assert walk["outside"]  # not under the root: untouched
    assert not walk["plain"] and not walk["hidden"] and not walk["label"]
    assert out["taken"] >= 3 and out["again"] == 0
    assert out["destroyed"]


def test_the_hidden_inventory_and_pause_menu_leave_almost_all_their_parts_out_of_the_walk(tmp_path):
    out = last_json_line(run_without_window(f"""
import json
from pathlib import Path
from ursina import Button, scene
from game.rules.hotbar import Hotbar
from game.window.render.frame_loop import descendants, leave_frame_loop
from game.window.ui.inventory_screen import InventoryScreen
from game.window.ui.pause_menu import PauseMenu
from game.userdata.user_settings import UserSettings
inventory = InventoryScreen(on_put=lambda slot, name: None, slot_keys=[str(k) for k in range(1, 10)])
menu = PauseMenu(UserSettings(), on_resume=lambda: None, on_settings_changed=lambda s: None,
                 on_save_and_quit=lambda: None, settings_path=Path({str(tmp_path / 'settings.json')!r}))
parts = descendants(inventory) + descendants(menu)
before = len(scene.entities)
leave_frame_loop(inventory, menu)
buttons = [e for e in parts if isinstance(e, Button)]
print(json.dumps({{'parts': len(parts), 'before': before, 'after': len(scene.entities),
                   'buttons': len(buttons),
                   'buttons_in_walk': sum(any(b is e for e in scene.entities) for b in buttons)}}))
"""))
    assert out["parts"] > 300
    assert out["buttons"] > 0 and out["buttons_in_walk"] == out["buttons"]  # still clickable
    assert out["before"] - out["after"] >= 0.8 * out["parts"]
