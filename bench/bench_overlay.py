"""F3 overlay benchmark: microseconds of Python the overlay costs per frame and per panel refresh.

Cases (Ursina opened offscreen, or with no window where that fails; the Python of the calls is
timed, not the drawing):
- frame update, bodies moving: what the window does every frame with F3 on (`show_player_box`,
  `show_velocity`, `show_bodies`, `show_contacts`) with the player walking and MOBS mobs moving
  a little every frame;
- frame update, nothing moving: the same calls with the same boxes as the last frame (a player
  standing still, mobs idle);
- panel refresh, text unchanged: `show_panel` with the lines it already shows (a paused or
  still game refreshes the same numbers).
The reference is the overlay as it was built before: a new Ursina `Mesh` for every `show` and for
the velocity arrow every frame (`ReferenceBoxLines`, `reference_velocity`), and the panel's text
set on every refresh.
"""

from __future__ import annotations

import math

import numpy as np

from .harness import Row, paired_medians

SUITE = "overlay"
MOBS = 10
"""Bodies other than the player shown each frame: a busy scene near the player."""
TARGET = "<= 100 us"
"""A frame at 60 fps has 16,700 us; the overlay should take well under 1 % of it."""


def _open_ursina():
    from panda3d.core import loadPrcFileData

    for line in ("audio-library-name null", "notify-level-display fatal", "notify-level-device fatal"):
        loadPrcFileData("", line)
    from ursina import Ursina
    try:
        return Ursina(window_type="offscreen", development_mode=False, editor_ui_enabled=False)
    except Exception:  # no way to draw offscreen here: time the Python part alone
        return Ursina(window_type="none", development_mode=False, editor_ui_enabled=False)


def _reference_parts():
    """The overlay's drawings as they were: rebuilt from a new Mesh on every call."""
    from ursina import Entity, Mesh

    from game.window.render import space
    from game.window.render.box_lines import LINE_THICKNESS, _GROW_SIGNS, box_line_arrays
    from game.window.ui.debug_overlay import VELOCITY_ARROW_TICKS, arrow_points

    class ReferenceBoxLines(Entity):
        def __init__(self, grow: float) -> None:
            super().__init__()
            self.grow = grow

        def show(self, physics_boxes) -> None:
            b = np.asarray(physics_boxes, dtype=np.float64).reshape(-1, 6)
            if not len(b):
                self.model = None
                return
            positions, indices = box_line_arrays(space.boxes(b + _GROW_SIGNS * self.grow))
            self.model = Mesh(vertices=positions, triangles=indices, mode="line", thickness=LINE_THICKNESS,
                              static=False)

    arrow = Entity()

    def reference_velocity(box, velocity) -> None:
        centre = ((box[0] + box[3]) / 2.0, (box[1] + box[4]) / 2.0, (box[2] + box[5]) / 2.0)
        end = tuple(c + v * VELOCITY_ARROW_TICKS for c, v in zip(centre, velocity))
        points = arrow_points(centre, end)
        if points is None:
            arrow.model = None
            return
        start, tip, left, right = points
        arrow.model = Mesh(vertices=[space.point(*p) for p in (start, tip, left, tip, right)], mode="line",
                           thickness=LINE_THICKNESS, static=False)

    return ReferenceBoxLines, reference_velocity


class _Scene:
    """The player's and the mobs' boxes, moved a little on each `step` (or not, when still)."""

    def __init__(self, moving: bool) -> None:
        self.moving = moving
        self.frame = 0

    def step(self):
        if self.moving:
            self.frame += 1
        t = self.frame * 0.05
        player = (t, 64.0, 0.0, t + 0.6, 65.8, 0.6)
        velocity = (0.2 * math.cos(t), -0.0784, 0.2 * math.sin(t))
        mobs = [(3.0 + i + 0.1 * math.sin(t + i), 64.0, 2.0, 3.6 + i + 0.1 * math.sin(t + i), 65.8, 2.6)
                for i in range(MOBS)]
        return player, velocity, mobs


def run(quick: bool = False) -> list[Row]:
    app = _open_ursina()
    from game.window.render.box_lines import LINE_OFFSET
    from game.window.ui.debug_overlay import DebugOverlay, panel_lines
    import physics

    overlay = DebugOverlay(enabled=True)
    ReferenceBoxLines, reference_velocity = _reference_parts()
    reference = {"player": ReferenceBoxLines(-LINE_OFFSET), "bodies": ReferenceBoxLines(-LINE_OFFSET),
                 "contacts": ReferenceBoxLines(LINE_OFFSET)}
    repeats = 30 if quick else 400
    rows = []
    for moving, case in ((True, f"F3 overlay frame update, {MOBS} mobs moving"),
                         (False, "F3 overlay frame update, nothing moving")):
        ours_scene, their_scene = _Scene(moving), _Scene(moving)

        def ours() -> None:
            player, velocity, mobs = ours_scene.step()
            overlay.show_player_box(player)
            overlay.show_velocity(player, velocity)
            overlay.show_bodies(mobs)
            overlay.show_contacts(())

        def theirs() -> None:
            player, velocity, mobs = their_scene.step()
            reference["player"].show([])  # first person: the player's own box is not drawn
            reference_velocity(player, velocity)
            reference["bodies"].show(mobs)
            reference["contacts"].show([])

        median, ref = paired_medians(ours, theirs, repeats=repeats, unit="us")
        app.step()  # both drawings are drawn once: they are valid geometry
        rows.append(Row(SUITE, case, median, "us", ref, TARGET, "Python of the per-frame overlay calls"))

    lines = panel_lines(physics.Body.at_feet(0.5, 64.0, 0.5), None, 1234)
    overlay.show_panel(lines)

    def panel_ours() -> None:
        overlay.show_panel(lines)

    def panel_theirs() -> None:
        overlay.text.text = "\n".join(lines)  # the text set (and its glyphs rebuilt) on every refresh

    median, ref = paired_medians(panel_ours, panel_theirs, repeats=repeats // 4, unit="us")
    rows.append(Row(SUITE, "F3 panel refresh, text unchanged", median, "us", ref, "", "10 refreshes a second"))
    return rows
