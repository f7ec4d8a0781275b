"""Keeping Ursina's per-frame walk short: parts of a screen that never act are taken out of it.

Ursina walks `scene.entities` every frame: for each entity it checks `enabled`, walks its
ancestors (`has_disabled_ancestor`) and looks for an `update`; the mouse walks the list again to
unhover. That costs about 2 us per entity whether or not the entity is shown, and Boxel's screens
are made of hundreds of plain quads and labels (the creative inventory alone ~400, the pause menu
~100, the HUD ~100), most of them hidden while playing.

Owns: `leave_frame_loop`, which takes out of that list the descendants of a root that have nothing
for the walk to do: no `update`, no `input`, no scripts and no collider (the mouse finds what it
hovers through the list, so anything clickable stays). They are still drawn, shown and hidden as
before, and destroying the root destroys them (Ursina's `destroy` follows children, and
`scene.clear()` destroys the roots, which stay in the list).
Does not own: what the screens contain, or when they are shown.
"""

from __future__ import annotations

from ursina import Entity, scene

ACTING_ATTRIBUTES = ("update", "input")
"""Methods Ursina's walks call on an entity in `scene.entities`."""


def acts_each_frame(entity: Entity) -> bool:
    """Whether Ursina's walks of `scene.entities` have anything to do with `entity`."""
    if any(callable(getattr(entity, name, None)) for name in ACTING_ATTRIBUTES):
        return True
    return bool(getattr(entity, "scripts", None)) or getattr(entity, "collider", None) is not None


def descendants(root: Entity) -> list[Entity]:
    """Every entity under `root` (not `root` itself), depth first."""
    found = []
    stack = list(root.children)
    while stack:
        entity = stack.pop()
        found.append(entity)
        stack.extend(entity.children)
    return found


def leave_frame_loop(*roots: Entity) -> int:
    """Take the descendants of `roots` that `acts_each_frame` says are idle out of `scene.entities`;
    the roots themselves stay. Returns how many were taken out. Entities made later are not
    affected; calling it again is harmless."""
    idle = {id(entity) for root in roots for entity in descendants(root) if not acts_each_frame(entity)}
    before = len(scene.entities)
    scene.entities[:] = [entity for entity in scene.entities if id(entity) not in idle]
    return before - len(scene.entities)
