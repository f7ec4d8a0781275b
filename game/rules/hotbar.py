"""The hotbar: nine slots of placeable blocks, one of them selected.

Owns: which block is in each slot, which slot is selected, choosing a slot (number keys, the
mouse wheel, picking a targeted block), putting a block in a slot (`put`, the creative
inventory's last step) and the hotbar's saved form (`to_state`/`from_state`,
kept in `World.player_state`). Pure: no Ursina import.
Does not own: drawing it (`game.window.ui.hud`), which keys and wheel directions map to what (the
app), or placing blocks (`game.rules.targeting`).
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

from .saved_values import preview
from ..world.blocks import AIR, BREAKABLE, block_id

SLOT_COUNT = 9
DEFAULT_SLOTS = ("stone", "cobblestone", "dirt", "grass", "planks", "torch", "glass", "brick", "stone_slab")
"""What a new player holds, slot 0 first: building blocks and a torch (the one light a player can
place; logs come back with pick-block from any tree)."""


class HotbarStateError(ValueError):
    """A saved hotbar state that cannot be used (wrong shape, unknown block, slot out of range)."""


class Hotbar:
    """Nine block names and the selected slot index (0..8)."""

    def __init__(self, slots: Sequence[str] = DEFAULT_SLOTS, selected: int = 0) -> None:
        """ValueError (UnknownBlockError for a name the registry lacks) unless `slots` is nine
        placeable block names and `selected` a slot index."""
        if isinstance(slots, str) or not isinstance(slots, Sequence) or len(slots) != SLOT_COUNT:
            raise ValueError(f"a hotbar has {SLOT_COUNT} slots, got {preview(slots)}")
        for name in slots:
            _require_placeable(name)
        self._slots = list(slots)
        self._selected = 0
        self.select(selected)

    @property
    def slots(self) -> tuple[str, ...]:
        """The block name in each slot, slot 0 first."""
        return tuple(self._slots)

    @property
    def selected(self) -> int:
        """Index of the selected slot, 0..8."""
        return self._selected

    @property
    def selected_block(self) -> str:
        """The block name in the selected slot: what right click places."""
        return self._slots[self._selected]

    def select(self, index: int) -> None:
        """Select slot `index` (0..8; the number key 1 is slot 0). TypeError/ValueError otherwise."""
        self._selected = _slot_index(index)

    def scroll(self, steps: int) -> None:
        """Move the selection by `steps` slots (positive: to the right), wrapping around the ends."""
        if isinstance(steps, bool) or not isinstance(steps, numbers.Integral):
            raise TypeError(f"scroll steps are an integer, got {steps!r}")
        self._selected = (self._selected + int(steps)) % SLOT_COUNT

    def pick(self, name: str) -> None:
        """Middle click on block `name`, as Minecraft's creative pick-block: select the slot that
        already holds it (the first, left to right), or else put it in the selected slot, whose
        block it replaces. So picking a block the hotbar has never loses a slot's block; the
        creative inventory (`game.rules.inventory`) gives any block back. The session passes the
        block's catalogue form (`Catalogue.held_block`), so a stair of any facing finds the
        stairs slot. TypeError/ValueError, nothing changed, for a block that cannot be held."""
        _require_placeable(name)
        if name in self._slots:
            self._selected = self._slots.index(name)
        else:
            self._slots[self._selected] = name

    def put(self, index: int, name: str) -> None:
        """Put block `name` in slot `index`, replacing its block (the creative inventory: an
        entry clicked, then a slot). The selection stays; the same block may be in two slots.
        TypeError/ValueError, nothing changed, for a slot that is not 0..8 or a block that
        cannot be held."""
        index = _slot_index(index)
        _require_placeable(name)
        self._slots[index] = name

    def to_state(self) -> dict:
        """The hotbar as JSON values: {"slots": [nine names], "selected": index}."""
        return {"slots": list(self._slots), "selected": self._selected}

    @classmethod
    def from_state(cls, state: object) -> Hotbar:
        """The hotbar `to_state` described; HotbarStateError saying what is wrong otherwise."""
        if not isinstance(state, dict) or set(state) != {"slots", "selected"}:
            raise HotbarStateError(
                f"a hotbar state is a dict with exactly 'slots' and 'selected', got {preview(state)}")
        slots = state["slots"]
        if isinstance(slots, list):
            # Saves from before unbreakable blocks were refused may hold bedrock (it could be
            # picked then): that slot gets its default block, the rest loads as saved.
            slots = [DEFAULT_SLOTS[k] if k < SLOT_COUNT and _unbreakable(name) else name
                     for k, name in enumerate(slots)]
        try:
            return cls(slots, state["selected"])
        except (TypeError, ValueError) as error:
            raise HotbarStateError(f"unusable hotbar state: {error}") from None

    def __repr__(self) -> str:
        return f"Hotbar({self.slots!r}, selected={self._selected})"


def holdable(name: str) -> bool:
    """Whether block `name` can be held (and so placed): not air, and not unbreakable (bedrock), which
    could never be removed again."""
    block = block_id(name)
    return block != AIR and bool(BREAKABLE[block])


def _unbreakable(name: object) -> bool:
    """Whether `name` names a block that exists but can never be broken (bedrock)."""
    try:
        block = block_id(name) if isinstance(name, str) else AIR
    except ValueError:  # an unknown name: the hotbar refuses it with its own error
        return False
    return block != AIR and not BREAKABLE[block]


def _slot_index(index: object) -> int:
    """`index` as a slot index; TypeError unless an integer, ValueError unless 0..SLOT_COUNT - 1."""
    if isinstance(index, bool) or not isinstance(index, numbers.Integral):
        raise TypeError(f"a slot index is an integer, got {preview(index)}")
    if not 0 <= index < SLOT_COUNT:
        raise ValueError(f"slot index must be 0..{SLOT_COUNT - 1}, got {index}")
    return int(index)


def _require_placeable(name: object) -> None:
    if not isinstance(name, str):
        raise TypeError(f"a hotbar slot holds a block name, got {preview(name)}")
    if not holdable(name):
        raise ValueError(f"{name} cannot be held in the hotbar (air and unbreakable blocks cannot be placed)")
