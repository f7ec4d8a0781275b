"""The F5 model's held block (`game.window.render.player_model.PlayerModel.hold`, `show(..., held=)`) without a
window (Ursina's window_type='none'): it follows what it is given, every holdable block can be held,
a name the registry lacks is refused and changes nothing, and `destroy` may run twice."""

from __future__ import annotations

import json

from .conftest import run_without_window

SCRIPT = """
import json
from game.rules.hotbar import holdable
from game.window.render.player_model import HOLDING_ARM, PlayerModel
from game.world.blocks import NAMES

model = PlayerModel()
box = (0.2, 64.0, 0.2, 0.8, 65.8, 0.8)
facts = {}
model.show(box, 0.0, 0.0, (0.0, 0.0))
facts["empty"] = [model.held, model._held_node is None]
model.show(box, 0.0, 0.0, (0.0, 0.0), held="brick")
facts["brick"] = [model.held, model._held_node.get_parent() == model.hand_hold,
                  model.hand_hold.parent == model.arms[HOLDING_ARM]]
model.show(box, 0.0, 0.0, (0.0, 0.0), held="stone")
facts["stone"] = [model.held, model.hand_hold.get_num_children()]
try:
    model.hold("no such block")
    facts["refused"] = False
except ValueError:
    facts["refused"] = True
facts["after refusal"] = [model.held, model.hand_hold.get_num_children()]
held = []
for name in NAMES:
    if holdable(name):
        model.hold(name)
        held.append([name, model.held == name, model.hand_hold.get_num_children()])
facts["every holdable"] = held
model.hold(None)
facts["emptied"] = [model.held, model.hand_hold.get_num_children()]
model.destroy()
model.destroy()
facts["destroyed"] = model.destroyed
print(json.dumps(facts))
"""


def test_the_models_right_hand_holds_what_it_is_given_every_holdable_block_and_refuses_unknown_names():
    facts = json.loads(run_without_window(SCRIPT).strip().splitlines()[-1])
    assert facts["empty"] == [None, True]
    assert facts["brick"] == ["brick", True, True]
    assert facts["stone"] == ["stone", 1]  # the brick's cube was taken off: one cube in the hand
    assert facts["refused"] is True
    assert facts["after refusal"] == ["stone", 1]
    assert len(facts["every holdable"]) > 20
    assert all(ok and children == 1 for _, ok, children in facts["every holdable"]), facts["every holdable"]
    assert facts["emptied"] == [None, 0]
    assert facts["destroyed"] is True
