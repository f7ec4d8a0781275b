"""The F3 debug overlay: the player's box, the block boxes physics gathered this tick (those that
clipped the motion highlighted), the step-up probe, and a text panel of the body's state.

Owns: drawing what physics reported (a `physics.MoveReport` from a `RecordingSink` and the
returned `physics.Body`) and the panel text. It never recomputes collision: boxes and flags are
shown exactly as physics handed them over.
Does not own: when to toggle (the app maps the F3 key), the tick loop, or box drawing itself
(`game.render.box_lines`).

Reused by the game: call `show_move` once per tick with the tick's report and body,
`show_player_box` every frame with the interpolated box, and `toggle` on F3.
"""

from __future__ import annotations

from collections.abc import Sequence

import physics
from ursina import Entity, Text, camera, color, window

from game.clock import TICKS_PER_SECOND
from game.render.box_lines import LINE_OFFSET, BoxLines

PLAYER_COLOR = color.rgb(1.0, 0.9, 0.2)
GATHERED_COLOR = color.rgb(0.2, 0.85, 1.0)
CLIPPING_COLOR = color.rgb(1.0, 0.25, 0.2)
STEP_PROBE_COLOR = color.rgb(1.0, 0.35, 1.0)
PANEL_COLOR = color.rgba(0.0, 0.0, 0.0, 0.6)
PANEL_FONT = "VeraMono.ttf"
PANEL_TEXT_SCALE = 0.75
"""Panel text size relative to Ursina's default text size."""
PANEL_MARGIN = 0.012
"""[window heights] Gap between the panel and the window edge, and around the text."""


def panel_lines(body: physics.Body, report: physics.MoveReport | None, ticks_run: int,
                extra: Sequence[str] = ()) -> list[str]:
    """The panel text, from the body and the move report exactly as physics returned them."""
    # "+ 0.0" turns -0.0 into 0.0, so a still axis never reads "-0.0000".
    x, y, z = (v + 0.0 for v in body.feet)
    vx, vy, vz = (v + 0.0 for v in body.velocity)
    lines = [
        f"ticks run {ticks_run}",
        f"feet      x {x:10.4f}  y {y:10.4f}  z {z:10.4f}",
        f"velocity  x {vx:10.4f}  y {vy:10.4f}  z {vz:10.4f}  blocks/tick",
        f"speed     {((vx * vx + vz * vz) ** 0.5) * TICKS_PER_SECOND:.2f} blocks/s horizontal",
        f"on_ground {body.on_ground!s:5}  collided  horizontal {body.collided_horizontally!s:5}"
        f"  vertical {body.collided_vertically!s:5}",
        f"camera lag {body.camera_lag:.4f}",
    ]
    if report is not None:
        rx, ry, rz = (v + 0.0 for v in report.requested)
        ax, ay, az = (v + 0.0 for v in report.allowed)
        lines += [
            f"requested x {rx:9.4f}  y {ry:9.4f}  z {rz:9.4f}",
            f"allowed   x {ax:9.4f}  y {ay:9.4f}  z {az:9.4f}",
            f"boxes gathered {len(report.gathered)}  clipping {len(report.clipping)}"
            f"  step {'kept' if report.stepped else 'tried' if report.step_probe else '-'}",
        ]
    return lines + list(extra)


class DebugOverlay:
    """Wireframe boxes in the world and a text panel in the top-left corner; hidden until toggled."""

    def __init__(self, enabled: bool = False) -> None:
        self.gathered = BoxLines(GATHERED_COLOR)
        self.clipping = BoxLines(CLIPPING_COLOR)
        self.step_probe = BoxLines(STEP_PROBE_COLOR)
        self.player = BoxLines(PLAYER_COLOR, grow=-LINE_OFFSET)
        self.panel = Entity(parent=camera.ui, model="quad", origin=(-0.5, 0.5), color=PANEL_COLOR, z=1)
        self.text = Text(parent=camera.ui, font=PANEL_FONT, scale=PANEL_TEXT_SCALE, origin=(-0.5, 0.5), use_tags=False)
        self._parts = (self.gathered, self.clipping, self.step_probe, self.player, self.panel, self.text)
        self.enabled = enabled

    @property
    def enabled(self) -> bool:
        return self._enabled

    @enabled.setter
    def enabled(self, value: bool) -> None:
        self._enabled = bool(value)
        for part in self._parts:
            part.enabled = self._enabled

    def toggle(self) -> None:
        self.enabled = not self.enabled

    def show_move(self, body: physics.Body, report: physics.MoveReport | None, ticks_run: int,
                  extra: Sequence[str] = ()) -> None:
        """Show one tick: the gathered boxes (clipping ones in their own colour), the step probe and the panel."""
        clipping = report.clipping if report else ()
        self.gathered.show([b for b in report.gathered if b not in clipping] if report else [])
        self.clipping.show(clipping)
        self.step_probe.show([report.step_probe] if report and report.step_probe else [])
        self.text.text = "\n".join(panel_lines(body, report, ticks_run, extra))
        left, top = window.top_left
        self.text.position = (left + 2 * PANEL_MARGIN, top - 2 * PANEL_MARGIN)
        self.panel.position = (left + PANEL_MARGIN, top - PANEL_MARGIN)
        # Text.width and Text.height are in unscaled text units.
        self.panel.scale = (self.text.width * self.text.scale_x + 2 * PANEL_MARGIN,
                            self.text.height * self.text.scale_y + 2 * PANEL_MARGIN)

    def show_player_box(self, box: Sequence[float]) -> None:
        """Show the player's box (call every frame with the box the view is drawn from)."""
        self.player.show([box])
