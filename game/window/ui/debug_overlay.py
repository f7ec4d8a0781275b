"""The F3 debug overlay: the player's box, other bodies' boxes, the block boxes physics gathered this
tick (those that clipped the motion highlighted), the step-up probe, a velocity arrow, the
contacts of swept moves (projectiles), and a text panel of the body's state and the game's vital signs.

Owns: drawing what physics reported (a `physics.MoveReport` from a `RecordingSink` and the
returned `physics.Body`) and the panel text. It never recomputes collision: boxes and flags are
shown exactly as physics handed them over.
Does not own: what is shown (the session's toggles: F3 and B; the window passes them to
`show_parts`), the tick loop, the numbers in `GameStatus`
(the game measures them), what a tick changed (the tick's record, `game.rules.tick_changes.TickChanges`,
which the window hands to `changes_line`), or box drawing itself (`game.window.render.box_lines`).

Use: `show_boxes` once per tick with the tick's report and `show_panel` a few times a second;
`show_player_box`, `show_velocity`, `show_bodies` and `show_contacts` every frame with the
interpolated state; `show_parts` when the session's toggles change.

Per-frame cost: every drawing is made once and refilled in place (`game.window.render.box_lines`);
an unchanged set of boxes, an unchanged arrow and an unchanged panel text cost a comparison and
nothing else (the panel's text is rebuilt only when a line changed).

Fitting the window: the panel's text keeps PANEL_TEXT_SCALE while its lines fit the window;
lines too long for a narrow window wrap at a field gap (the rest indented by WRAP_INDENT), and
where wrapped lines would still leave the window (too many rows, or fewer than
MIN_WRAP_CHARACTERS to a row) the text shrinks until every row is inside it
(`fit_panel`, pure arithmetic). The panel looks at the window's shape every frame while shown
and lays itself out again when it changed.

The player's own box is not drawn while the camera is inside it (`first_person`, the game's only
view): its edges would run past the eye and frame the screen instead of showing anything.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import physics
import numpy as np
from ursina import Entity, Text, camera, color, window

from ...rules.clock import TICKS_PER_SECOND
from ..render import space
from ..render.box_lines import LINE_OFFSET, BoxLines, SegmentLines
from ...rules.tick_changes import TickChanges
from . import style
from ...world.coords import CHUNK_SIZE, LOCAL_MASK, SECTION_SHIFT

PLAYER_COLOR = color.rgb(1.0, 0.9, 0.2)
GATHERED_COLOR = color.rgb(0.2, 0.85, 1.0)
CLIPPING_COLOR = color.rgb(1.0, 0.25, 0.2)
STEP_PROBE_COLOR = color.rgb(1.0, 0.35, 1.0)
BODY_COLOR = color.rgb(1.0, 0.6, 0.1)
"""Other bodies' boxes (mobs, other players): orange, apart from the player's yellow."""
VELOCITY_COLOR = color.rgb(0.3, 1.0, 0.3)
CONTACT_COLOR = color.rgb(1.0, 1.0, 1.0)
"""Contacts of swept moves (`physics.Contact`): the box that was hit and the contact normal."""
CONTACT_NORMAL_LENGTH = 0.5
"""[blocks] Length of the line drawn along a contact's normal, from the middle of the touching face."""
VELOCITY_ARROW_TICKS = 10.0
"""[ticks] The arrow points where the body would be after this many ticks at its velocity: half a
second, so walking (0.22 blocks/tick) draws a 2-block arrow, long enough to read its direction."""
ARROW_HEAD_FRACTION = 0.2
"""Length of the arrow head's two strokes, as a fraction of the arrow (at most ARROW_HEAD_MAX)."""
ARROW_HEAD_MAX = 0.4
"""[blocks] Longest arrow-head stroke."""
MIN_ARROW_LENGTH = 1e-3
"""[blocks] Shorter arrows (a body at rest) are not drawn: they would be a dot in the box."""
PANEL_COLOR = color.rgba(0.0, 0.0, 0.0, 0.6)
PANEL_FONT = "VeraMono.ttf"
PANEL_TEXT_SCALE = 0.75
"""Panel text size relative to Ursina's default text size."""
PANEL_MARGIN = 0.012
"""[window heights] Gap between the panel and the window edge, and around the text."""
WRAP_INDENT = "  "
"""Start of each row a wrapped line continues on, so it reads as the same line."""
MIN_WRAP_CHARACTERS = 28
"""[characters] The narrowest rows a line is wrapped to: narrower, the numbers of one field would
be cut apart; the text shrinks instead (the longest field, e.g. 'x  -123456.7890', has 19)."""
ARROW_SEGMENTS = np.array([0, 1, 1, 2, 1, 3], dtype=np.uint32)
"""The arrow's three strokes as index pairs into its four points (start, tip, left, right)."""


@dataclass(frozen=True, slots=True)
class GameStatus:
    """What the game measures for the panel, beside the body and its move report."""

    fps: float
    """[frames/s] Over the last second."""
    frame_ms: float
    """[ms] Median frame time over the last second."""
    tick_ms: float
    """[ms] Wall time of the last `physics.step`."""
    loaded_columns: int
    queued_columns: int
    """Columns asked for and not ready, plus wanted columns not asked for yet."""
    meshes_in_flight: int
    sections_shown: int
    sections_hidden: int
    """Shown sections left undrawn because the eye cannot see them (cave culling)."""
    sections_coarse: int
    """Shown sections drawn from their coarse mesh (levels of detail)."""
    lod_distance: int | None
    """[columns] Beyond this from the eye's column sections turn coarse (None: none do)."""
    bodies: int
    """Bodies in the world (the player included)."""
    yaw: float
    """[degrees] Minecraft yaw."""
    pitch: float
    flying: bool
    sprinting: bool
    target: str
    """The targeted block, e.g. 'grass at 3 63 -2 (top)', or '-'."""


def status_lines(status: GameStatus, feet: Sequence[float]) -> list[str]:
    """The game's lines of the panel: frame rate, where the player is in chunk terms, streaming."""
    bx, by, bz = (math.floor(v) for v in feet)
    return [
        f"fps {status.fps:5.1f}  frame {status.frame_ms:5.1f} ms  tick {status.tick_ms:5.2f} ms",
        f"block     {bx} {by} {bz}  chunk {bx >> SECTION_SHIFT} {bz >> SECTION_SHIFT}"
        f"  section {by // CHUNK_SIZE}  in chunk {bx & LOCAL_MASK} {bz & LOCAL_MASK}",
        f"look      yaw {status.yaw:7.2f}  pitch {status.pitch:6.2f}"
        f"{'  flying' if status.flying else ''}{'  sprinting' if status.sprinting else ''}",
        f"columns   loaded {status.loaded_columns}  queued {status.queued_columns}"
        f"  meshing {status.meshes_in_flight}",
        f"sections  shown {status.sections_shown}  hidden by cave culling {status.sections_hidden}",
        "detail    " + ("every section fine" if status.lod_distance is None else
                         f"coarse {status.sections_coarse} beyond {status.lod_distance} columns"),
        f"bodies    {status.bodies}",
        f"target    {status.target}",
    ]


def changes_line(changes: TickChanges | None) -> str:
    """The panel's line for the latest tick's record (`Session.tick()`): how many cells changed,
    sections it re-meshes, sections whose light waits and columns unsaved (or '-' before the first
    tick). As short as the panel's other lines, so it does not widen the panel."""
    if changes is None:
        return "changes   -"
    return (f"changes   blocks {len(changes.blocks)}  sections {len(changes.sections)}"
            f"  light waiting {len(changes.light_waiting)}  unsaved {len(changes.unsaved_columns)}")


def arrow_points(start: Sequence[float], end: Sequence[float]) -> list[tuple[float, float, float]] | None:
    """The four points (physics coordinates) of an arrow from `start` to `end`: start, tip, and the
    ends of the head's left and right strokes (ARROW_SEGMENTS joins them: the shaft, then the two
    head strokes from the tip); None when the arrow is shorter than MIN_ARROW_LENGTH."""
    direction = [e - s for s, e in zip(start, end)]
    length = math.sqrt(sum(d * d for d in direction))
    if length < MIN_ARROW_LENGTH:
        return None
    dx, dy, dz = (d / length for d in direction)
    # The head opens sideways in the horizontal plane (or along X for a vertical arrow).
    side_length = math.hypot(dx, dz)
    sx, sz = (-dz / side_length, dx / side_length) if side_length > MIN_ARROW_LENGTH else (1.0, 0.0)
    head = min(length * ARROW_HEAD_FRACTION, ARROW_HEAD_MAX)
    tip = tuple(end)
    back = (tip[0] - dx * head, tip[1] - dy * head, tip[2] - dz * head)
    wing = head / 2.0
    left = (back[0] + sx * wing, back[1], back[2] + sz * wing)
    right = (back[0] - sx * wing, back[1], back[2] - sz * wing)
    return [tuple(start), tip, left, right]


@dataclass(frozen=True, slots=True)
class PanelFit:
    """How the panel's text is drawn in one window: its size and where its lines wrap."""

    text_scale: float
    """Text size relative to Ursina's default (PANEL_TEXT_SCALE when the lines fit)."""
    wrap_characters: int
    """[characters] Rows longer than this are wrapped."""
    rows: int
    """Rows of text after wrapping."""


def wrap_line(line: str, width: int) -> list[str]:
    """`line` as rows of at most `width` characters: broken at the last field gap (two spaces)
    that keeps the row within `width`, else at the last space, else cut; each continuing row
    starts with WRAP_INDENT. ValueError for a width that leaves no room after the indent."""
    if isinstance(width, bool) or not isinstance(width, int):
        raise TypeError(f"width must be an int, got {width!r}")
    if width <= len(WRAP_INDENT):
        raise ValueError(f"width must be more than the indent ({len(WRAP_INDENT)}), got {width}")
    rows = []
    start = 0  # where the row's own text starts (after the indent of a continuing row)
    while len(line) > width:
        cut = line.rfind("  ", start + 1, width + 1)
        if cut <= start:
            cut = line.rfind(" ", start + 1, width + 1)
        if cut <= start:
            cut = width
        rows.append(line[:cut].rstrip())
        line = WRAP_INDENT + line[cut:].lstrip()
        start = len(WRAP_INDENT)
    rows.append(line)
    return rows


def wrap_lines(lines: Sequence[str], width: int) -> list[str]:
    """Every line wrapped to `width` characters (`wrap_line`)."""
    return [row for line in lines for row in wrap_line(line, width)]


def fit_panel(lines: Sequence[str], aspect_ratio: float, char_width: float, line_height: float) -> PanelFit:
    """The panel's text size and wrap width for `lines` in a window of `aspect_ratio`, for a
    monospace font whose characters are `char_width` wide and whose rows are `line_height` apart
    at text scale 1 (window heights): the largest text up to PANEL_TEXT_SCALE at which every row
    (after `wrap_lines`, no narrower than MIN_WRAP_CHARACTERS) is inside the window, the panel's
    margins included. ValueError for a character width or line height that is not positive."""
    if not (char_width > 0.0 and line_height > 0.0):
        raise ValueError(f"character width and line height must be positive, got {char_width}, {line_height}")
    free_width = style.window_width(aspect_ratio, 2 * PANEL_MARGIN)
    free_height = 1.0 - 4 * PANEL_MARGIN
    longest = max((len(line) for line in lines), default=0)
    best = None
    # From no wrapping down to the narrowest rows allowed; the first width at full size wins (more
    # wrapping would only add rows), else the one with the largest text.
    for width in range(longest, min(MIN_WRAP_CHARACTERS, longest) - 1, -1):
        rows = len(lines) if width == longest else len(wrap_lines(lines, width))
        scale = min(PANEL_TEXT_SCALE, free_width / (max(width, 1) * char_width),
                    free_height / (max(rows, 1) * line_height))
        if best is None or scale > best.text_scale:
            best = PanelFit(scale, width, rows)
        if scale >= PANEL_TEXT_SCALE:
            break
    return best if best is not None else PanelFit(PANEL_TEXT_SCALE, MIN_WRAP_CHARACTERS, 0)


def ground_speed(report: physics.MoveReport | None) -> float:
    """[blocks/s] How fast the last move carried the body horizontally: the distance its box moved
    in that tick, times the ticks in a second. 0.0 before the first move.

    Not the velocity: Beta multiplies the velocity by the ground's friction after the move, so
    the velocity left at the end of a tick (0.153 blocks/tick sprinting) is about half the
    distance the tick moved the body (0.28 blocks, 5.6 blocks/s)."""
    if report is None:
        return 0.0
    dx = report.end[0] - report.start[0]
    dz = report.end[2] - report.start[2]
    return math.hypot(dx, dz) * TICKS_PER_SECOND


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
        f"speed     {ground_speed(report):.2f} blocks/s horizontal (distance moved)",
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

    def __init__(self, enabled: bool = False, first_person: bool = True) -> None:
        self.first_person = first_person
        """The camera is at the player's eye, inside the player's box: `show_player_box` draws nothing."""
        self.gathered = BoxLines(GATHERED_COLOR)
        self.clipping = BoxLines(CLIPPING_COLOR)
        self.step_probe = BoxLines(STEP_PROBE_COLOR)
        self.player = BoxLines(PLAYER_COLOR, grow=-LINE_OFFSET)
        self.bodies = BoxLines(BODY_COLOR, grow=-LINE_OFFSET)
        self.velocity = SegmentLines(VELOCITY_COLOR)
        self._arrow: tuple | None = None  # the (start, end) the arrow was last drawn for
        self.contacts = BoxLines(CONTACT_COLOR)
        self.panel = Entity(parent=camera.ui, model="quad", origin=(-0.5, 0.5), color=PANEL_COLOR, z=1)
        self.text = Text(parent=camera.ui, font=PANEL_FONT, scale=PANEL_TEXT_SCALE, origin=(-0.5, 0.5), use_tags=False)
        self.char_width, self.line_height = self._measure_font()
        """[window heights at text scale 1] The panel font's character advance and row spacing."""
        self.lines: tuple[str, ...] = ()
        """The panel's lines as last given to `show_panel` (before wrapping)."""
        self.fit: PanelFit | None = None
        """How the panel's text is drawn now (None before the first `show_panel`)."""
        self._fit_key: tuple | None = None  # (aspect ratio, line lengths) `fit` was computed for
        self._window = style.AspectWatch()
        self._window_hook = Entity(parent=camera.ui, update=self._follow_window)
        """Ursina calls its `update` every frame while the panel is shown: a resized window lays the panel out again."""
        self._boxes = (self.gathered, self.clipping, self.step_probe, self.player, self.bodies, self.velocity,
                       self.contacts)
        self._panel = (self.panel, self.text, self._window_hook)
        self._panel_enabled = self._boxes_enabled = False
        self.enabled = enabled

    def _measure_font(self) -> tuple[float, float]:
        """The panel font's character width and row spacing at text scale 1, measured on a probe text."""
        probe_characters, probe_rows = 10, 2
        self.text.text = "\n".join(["0" * probe_characters] * probe_rows)
        char_width = self.text.width / probe_characters
        line_height = self.text.height / probe_rows
        self.text.text = ""
        return char_width, line_height

    @property
    def enabled(self) -> bool:
        """Anything is shown (the panel or the boxes); setting it shows or hides both."""
        return self._panel_enabled or self._boxes_enabled

    @enabled.setter
    def enabled(self, value: bool) -> None:
        self._set_panel_visible(bool(value))
        self._set_boxes_visible(bool(value))

    @property
    def boxes_enabled(self) -> bool:
        return self._boxes_enabled

    @property
    def panel_enabled(self) -> bool:
        return self._panel_enabled

    def show_parts(self, *, panel: bool, boxes: bool) -> None:
        """Show or hide the panel and the boxes (the session's toggles say which)."""
        self._set_panel_visible(bool(panel))
        self._set_boxes_visible(bool(boxes))

    def _set_panel_visible(self, value: bool) -> None:
        self._panel_enabled = value
        for part in self._panel:
            part.enabled = value

    def _set_boxes_visible(self, value: bool) -> None:
        self._boxes_enabled = value
        for part in self._boxes:
            part.enabled = value

    def show_boxes(self, report: physics.MoveReport | None) -> None:
        """The gathered boxes (clipping ones in their own colour) and the step probe of one move."""
        clipping = report.clipping if report else ()
        self.gathered.show([b for b in report.gathered if b not in clipping] if report else [])
        self.clipping.show(clipping)
        self.step_probe.show([report.step_probe] if report and report.step_probe else [])

    def show_panel(self, lines: Sequence[str]) -> None:
        """Put `lines` in the panel, sized to fit them and the window (`fit_panel`). The text is
        rebuilt only when a line changed (or the window's shape did)."""
        lines = tuple(lines)
        if lines == self.lines and self.fit is not None:
            return
        self.lines = lines
        self._lay_out_panel(window.aspect_ratio)

    def _follow_window(self) -> None:
        """Every frame while the panel is shown: lay it out again if the window's shape changed."""
        aspect_ratio = window.aspect_ratio
        if self.fit is not None and aspect_ratio != self._window.aspect_ratio:
            self._lay_out_panel(aspect_ratio)

    def _lay_out_panel(self, aspect_ratio: float) -> None:
        self._window.changed(aspect_ratio)
        key = (aspect_ratio, tuple(len(line) for line in self.lines))
        if key != self._fit_key:  # the fit depends only on the window and the lines' lengths
            self.fit = fit_panel(self.lines, aspect_ratio, self.char_width, self.line_height)
            self._fit_key = key
        fit = self.fit
        rows = self.lines if fit.wrap_characters >= max((len(line) for line in self.lines), default=0) \
            else wrap_lines(self.lines, fit.wrap_characters)
        self.text.scale = fit.text_scale
        self.text.text = "\n".join(rows)
        left, top = -aspect_ratio / 2, 0.5
        self.text.position = (left + 2 * PANEL_MARGIN, top - 2 * PANEL_MARGIN)
        self.panel.position = (left + PANEL_MARGIN, top - PANEL_MARGIN)
        # Text.width and Text.height are in unscaled text units.
        self.panel.scale = (self.text.width * self.text.scale_x + 2 * PANEL_MARGIN,
                            self.text.height * self.text.scale_y + 2 * PANEL_MARGIN)

    def show_player_box(self, box: Sequence[float]) -> None:
        """Show the player's box (call every frame with the box the view is drawn from); nothing in
        first person, where the camera is inside it."""
        self.player.show([] if self.first_person else [box])

    def show_bodies(self, boxes: Sequence[Sequence[float]]) -> None:
        """Show the boxes of every body other than the player."""
        self.bodies.show(boxes)

    def show_contacts(self, contacts: Sequence[physics.Contact]) -> None:
        """Show each contact's obstacle box and its normal, a line CONTACT_NORMAL_LENGTH long from the
        middle of the moving box's touching face (drawn as a box flat on two axes)."""
        normals = []
        for contact in contacts:
            start = list(contact.body_box.center)
            axis = next(a for a in range(3) if contact.normal[a] != 0.0)
            start[axis] = contact.body_box[axis + 3] if contact.normal[axis] < 0.0 else contact.body_box[axis]
            end = [v + n * CONTACT_NORMAL_LENGTH for v, n in zip(start, contact.normal)]
            normals.append([min(start[a], end[a]) for a in range(3)] + [max(start[a], end[a]) for a in range(3)])
        self.contacts.show([list(contact.box) for contact in contacts] + normals)

    def show_velocity(self, box: Sequence[float], velocity: Sequence[float]) -> None:
        """Draw the velocity [blocks/tick] as an arrow from the box's centre, VELOCITY_ARROW_TICKS
        long (the same arrow as the last call costs a comparison; a new one rewrites four points)."""
        centre = ((box[0] + box[3]) / 2.0, (box[1] + box[4]) / 2.0, (box[2] + box[5]) / 2.0)
        end = tuple(c + v * VELOCITY_ARROW_TICKS for c, v in zip(centre, velocity))
        if (centre, end) == self._arrow:
            return
        was_drawn = self._arrow is not None and self.velocity.segment_count > 0
        self._arrow = (centre, end)
        points = arrow_points(centre, end)
        if points is None:
            self.velocity.set_segments(np.zeros(0, dtype=np.float32), np.zeros(0, dtype=np.uint32))
            return
        positions = np.array([space.point(*p) for p in points], dtype=np.float32)
        self.velocity.set_segments(positions, None if was_drawn else ARROW_SEGMENTS)
