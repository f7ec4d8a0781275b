"""The outline of the targeted block: its collision boxes drawn as a thin dark wireframe.

Owns: showing and hiding the outline, and skipping the rebuild when the target has not changed
(the app calls `show` every tick or frame with the same boxes most of the time).
Does not own: finding the target (`game.rules.targeting`), box drawing (`game.window.render.box_lines`) or
the physics -> Ursina mapping (`game.window.render.space`, applied by `BoxLines`).

The boxes drawn are the block's real collision shape (both boxes of a stair, a fence's full 1.5
height), so the outline shows exactly what a click acts on and what the player collides with.
"""

from __future__ import annotations

from collections.abc import Sequence

from ursina import color

from ..render.box_lines import BoxLines

OUTLINE_COLOR = color.rgba(0.0, 0.0, 0.0, 0.7)
"""Dark and mostly opaque, as players expect: visible on every block texture and on the sky."""
OUTLINE_THICKNESS = 2.0
"""[pixels] Edge width."""


class TargetOutline:
    """A wireframe around the targeted block's boxes; hidden until `show` is called."""

    def __init__(self) -> None:
        self.lines = BoxLines(OUTLINE_COLOR, thickness=OUTLINE_THICKNESS)
        self._boxes: tuple[tuple[float, ...], ...] = ()

    @property
    def boxes(self) -> tuple[tuple[float, ...], ...]:
        """The boxes outlined now (physics coordinates); () while hidden."""
        return self._boxes

    def show(self, target_boxes: Sequence[Sequence[float]]) -> None:
        """Outline exactly these boxes (physics coordinates, e.g. `Target.boxes`); () hides the outline."""
        boxes = tuple(tuple(float(v) for v in box) for box in target_boxes)
        for box in boxes:
            if len(box) != 6:
                raise ValueError(f"a box is six numbers (min x, y, z, max x, y, z), got {box!r}")
        if boxes == self._boxes:
            return
        self._boxes = boxes
        self.lines.show(boxes)

    def hide(self) -> None:
        """Stop outlining (nothing targeted)."""
        self.show(())
